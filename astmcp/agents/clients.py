"""The two agent CLIs, driven only through their documented commands.

Claude Code: ``claude mcp get|add`` (``get`` starts and health-checks the server).
Hermes: ``hermes config get --json mcp_servers.NAME`` to read, ``hermes mcp add`` (which
probes the server and asks "Enable all N tools? [Y/n/select]") and ``hermes mcp test``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from astmcp.agents.errors import AgentCliFailed, AgentNotFound
from astmcp.agents.process import Ran, Runner
from astmcp.agents.skills import Agent

SERVER_NAME = "ast"

VERSION_TIMEOUT = 30.0
READ_TIMEOUT = 90.0
WRITE_TIMEOUT = 120.0


@dataclass(frozen=True, slots=True)
class ServerCommand:
    """What an agent should start: the absolute ``ast-mcp-server`` and its arguments."""

    command: str
    args: tuple[str, ...] = ()

    def as_json(self) -> dict[str, object]:
        return {"command": self.command, "args": list(self.args)}


@dataclass(frozen=True, slots=True)
class Registration:
    """An existing ``ast`` entry as the agent reports it."""

    command: str | None
    args: tuple[str, ...]
    scope: str
    transport: str

    def describe(self) -> str:
        what = " ".join([self.command or "(no command)", *self.args])
        return f"{self.transport} server `{what}` ({self.scope} scope)"


@dataclass(frozen=True, slots=True)
class Verification:
    ok: bool
    detail: str
    tools: tuple[str, ...] = ()


class AgentCli:
    """One detected agent CLI; subclasses know its commands and output."""

    agent: ClassVar[Agent]

    def __init__(self, runner: Runner, executable: Path, version: str) -> None:
        self.runner = runner
        self.executable = executable
        self.version = version

    @classmethod
    def detect(cls, runner: Runner) -> AgentCli:
        """Find the CLI on PATH and check it answers ``--version``."""
        found = runner.which(cls.agent)
        if found is None:
            raise AgentNotFound(f"`{cls.agent}` is not on PATH", {"agent": cls.agent})
        ran = runner.run([str(found), "--version"], timeout=VERSION_TIMEOUT)
        if not ran.ok:
            raise AgentNotFound(
                f"{ran.describe()}; is {found} a working {cls.agent} CLI?",
                {"agent": cls.agent, "executable": str(found), "output": ran.tail()},
            )
        lines = [line.strip() for line in ran.output.splitlines() if line.strip()]
        return cls(runner, found, lines[0] if lines else "")

    def matches(self, existing: Registration, server: ServerCommand) -> bool:
        return existing.command == server.command and existing.args == server.args

    def registration(self) -> Registration | None:
        raise NotImplementedError

    def register(self, server: ServerCommand) -> None:
        raise NotImplementedError

    def verify(self) -> Verification:
        raise NotImplementedError

    def _run(self, *args: str, timeout: float, stdin: str = "") -> Ran:
        return self.runner.run([str(self.executable), *args], timeout=timeout, stdin=stdin)

    def _failed(self, ran: Ran, what: str) -> AgentCliFailed:
        return AgentCliFailed(
            f"{self.agent}: {what}: {ran.describe()}", {"agent": self.agent, "output": ran.tail()}
        )


class ClaudeCli(AgentCli):
    agent = "claude"

    def registration(self) -> Registration | None:
        ran = self._run("mcp", "get", SERVER_NAME, timeout=READ_TIMEOUT)
        if not ran.ok:
            if ran.returncode is not None and "no mcp server" in ran.output.lower():
                return None
            raise self._failed(ran, f"cannot read the `{SERVER_NAME}` registration")
        fields = _fields(ran.output)
        scope = fields.get("scope", "unknown").split(" ", 1)[0].lower()
        args = tuple(fields.get("args", "").split())
        return Registration(fields.get("command"), args, scope, fields.get("type", "unknown"))

    def matches(self, existing: Registration, server: ServerCommand) -> bool:
        # `claude mcp get` prints the arguments joined by spaces.
        return (
            existing.scope == "user"
            and existing.transport == "stdio"
            and existing.command == server.command
            and " ".join(existing.args) == " ".join(server.args)
        )

    def register(self, server: ServerCommand) -> None:
        ran = self._run(
            "mcp",
            "add",
            "--scope",
            "user",
            "--transport",
            "stdio",
            SERVER_NAME,
            "--",
            server.command,
            *server.args,
            timeout=WRITE_TIMEOUT,
        )
        if not ran.ok:
            raise self._failed(ran, f"registering `{SERVER_NAME}` failed")

    def verify(self) -> Verification:
        ran = self._run("mcp", "get", SERVER_NAME, timeout=READ_TIMEOUT)
        status = _fields(ran.output).get("status", "")
        connected = ran.ok and "Connected" in status and "Failed" not in status
        return Verification(connected, status or ran.tail(3))


class HermesCli(AgentCli):
    agent = "hermes"

    def registration(self) -> Registration | None:
        ran = self._run("config", "get", "--json", f"mcp_servers.{SERVER_NAME}", timeout=READ_TIMEOUT)
        if not ran.ok:
            if ran.returncode == 1 and "not set" in ran.output.lower():
                return None
            raise self._failed(ran, f"cannot read the `{SERVER_NAME}` registration")
        try:
            entry = json.loads(ran.stdout)
        except json.JSONDecodeError:
            raise self._failed(ran, "`config get --json` did not print JSON") from None
        if not isinstance(entry, dict):
            return Registration(None, (), "profile", "unknown")
        command = entry.get("command")
        args = entry.get("args") or []
        transport = "stdio" if command else ("http" if entry.get("url") else "unknown")
        return Registration(
            str(command) if command else None,
            tuple(str(a) for a in args) if isinstance(args, list) else (str(args),),
            "profile",
            transport,
        )

    def register(self, server: ServerCommand) -> None:
        extra = ["--args", *server.args] if server.args else []
        # `mcp add` probes the server, then asks "Enable all N tools? [Y/n/select]": a newline says yes.
        ran = self._run(
            "mcp",
            "add",
            SERVER_NAME,
            "--command",
            server.command,
            *extra,
            timeout=WRITE_TIMEOUT,
            stdin="\n",
        )
        saved = self.registration()
        if not ran.ok or saved is None or not self.matches(saved, server):
            raise self._failed(ran, f"`mcp add {SERVER_NAME}` did not save the registration")

    def verify(self) -> Verification:
        ran = self._run("mcp", "test", SERVER_NAME, timeout=READ_TIMEOUT)
        found = re.search(r"Tools discovered:\s*(\d+)", ran.output)
        tools = tuple(re.findall(r"^\s+(ast_\w+)", ran.output, flags=re.MULTILINE))
        if ran.ok and found and int(found.group(1)) > 0:
            return Verification(True, f"{found.group(1)} tools discovered", tools)
        return Verification(False, ran.tail(3))


CLIENTS: dict[Agent, type[AgentCli]] = {"claude": ClaudeCli, "hermes": HermesCli}


def _fields(output: str) -> dict[str, str]:
    """``Key: value`` lines of a CLI report, keys lower-cased."""
    fields: dict[str, str] = {}
    for line in output.splitlines():
        key, sep, value = line.strip().partition(":")
        if sep and key and " " not in key.strip():
            fields.setdefault(key.strip().lower(), value.strip())
    return fields
