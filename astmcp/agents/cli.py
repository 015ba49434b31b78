"""``ast-tool setup`` and ``ast-tool install-skill``: the only place here that reads the environment.

Success prints one JSON value on stdout; failure prints
``{"status": "error", "command", "code", "message", "details"?}`` on stderr.
Exit codes: 0 ok, 1 failure, 2 usage.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import sysconfig
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from astmcp.agents import setup as setup_steps
from astmcp.agents.clients import SERVER_NAME, ServerCommand
from astmcp.agents.errors import AgentNotFound, Cancelled, ServerNotFound
from astmcp.agents.process import Runner
from astmcp.agents.skills import AGENTS, Agent, AgentHome, install_skills, skill_path, skill_text
from astmcp.errors import AstmcpError

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
SERVER_EXECUTABLE = "ast-mcp-server"

Ask = Callable[[str], str]


def add_commands(subparsers: Any) -> None:
    skill = subparsers.add_parser(
        "install-skill", help="install the structural-code-editing skill for Claude Code and/or Hermes"
    )
    skill.add_argument("target", choices=["claude", "hermes", "all"])
    skill.add_argument("--scope", choices=["user", "project"], default="user")
    skill.add_argument("--project-root", default=None, help="project folder for --scope project")
    skill.add_argument("--force", action="store_true", help="replace a different installed skill")
    skill.set_defaults(func=lambda args: install_skill_command(args, os.environ))

    setup = subparsers.add_parser(
        "setup", help="register ast-mcp-server with Claude Code and/or Hermes and install the skill"
    )
    setup.add_argument("--agents", default=None, help="claude, hermes, claude,hermes or all")
    setup.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    setup.add_argument("--force-skill", action="store_true", help="replace a different installed skill")
    setup.set_defaults(func=lambda args: setup_command(args, os.environ, _interactive(), _ask))


def install_skill_command(args: argparse.Namespace, environ: Mapping[str, str]) -> int:
    homes = AgentHome.from_environ(environ)
    agents: tuple[Agent, ...] = AGENTS if args.target == "all" else (_agent(args.target),)
    if args.scope == "project" and "hermes" in agents:
        return _usage(
            "install-skill", "--scope project is for claude only: Hermes skills belong to a profile"
        )
    if args.scope == "project" and not args.project_root:
        return _usage("install-skill", "--scope project needs --project-root DIR")
    root = Path(args.project_root).absolute() if args.project_root else None
    if root is not None and not root.is_dir():
        return _usage("install-skill", f"--project-root {root} is not a folder")
    try:
        targets = [(agent, skill_path(agent, homes, args.scope, root)) for agent in agents]
        checks = install_skills(targets, skill_text(), force=args.force)
    except AstmcpError as error:
        return _fail("install-skill", error)
    _print({"status": "ok", "scope": args.scope, "skills": [c.as_json() for c in checks]})
    return EXIT_OK


def setup_command(args: argparse.Namespace, environ: Mapping[str, str], interactive: bool, ask: Ask) -> int:
    requested = _parse_agents(args.agents)
    if requested is None:
        return _usage("setup", f"--agents takes claude, hermes, claude,hermes or all, not {args.agents!r}")
    if not interactive and (args.agents is None or not args.yes):
        return _usage("setup", "without a terminal, pass both --agents and --yes")
    try:
        server = find_server()
    except AstmcpError as error:
        return _fail("setup", error)
    homes = AgentHome.from_environ(environ)
    # Agent CLIs run from an empty folder so project-local registrations cannot shadow the user's.
    with tempfile.TemporaryDirectory(prefix="ast-tool-setup-") as neutral:
        runner = Runner(environ, Path(neutral))
        found = setup_steps.detect(runner)
        skipped = [m for m in found.values() if isinstance(m, setup_steps.Missing)]
        if args.agents is None:
            if len(skipped) == len(found):
                return _fail("setup", _not_found(skipped))
            chosen = _ask_agents(found, ask)
        else:
            chosen = list(AGENTS) if args.agents == "all" else requested
        if args.agents != "all":
            missing = [found[a] for a in chosen if isinstance(found[a], setup_steps.Missing)]
            if missing:
                return _fail("setup", _not_found(missing))
        clis = [c for a in chosen if not isinstance(c := found[a], setup_steps.Missing)]
        skipped = [m for m in skipped if m.agent in chosen]
        if not clis:
            return _fail("setup", _not_found(skipped))
        try:
            plans = setup_steps.preflight(clis, server, homes, skill_text(), force_skill=args.force_skill)
            if not args.yes and not _confirm(plans, server, ask):
                return _fail("setup", Cancelled("cancelled; nothing was changed"))
            results = setup_steps.apply(plans, server, skill_text())
        except AstmcpError as error:
            return _fail("setup", error)
    report = setup_steps.summary(server, results, skipped)
    if report["status"] != "ok":
        return _fail("setup", setup_steps.verification_error(results), extra=report)
    _print(report)
    return EXIT_OK


def find_server() -> ServerCommand:
    """This install's ``ast-mcp-server``: in the interpreter's scripts folder, else beside ``ast-tool``."""
    folders = [Path(sysconfig.get_path("scripts")), Path(sys.executable).parent]
    if sys.argv and sys.argv[0]:
        folders.append(Path(sys.argv[0]).parent)
    for folder in folders:
        candidate = (folder / SERVER_EXECUTABLE).absolute()
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return ServerCommand(str(candidate))
    raise ServerNotFound(
        f"this install has no {SERVER_EXECUTABLE} executable; reinstall astmcp",
        {"looked_in": [str(f) for f in folders]},
    )


def _parse_agents(value: str | None) -> list[Agent] | None:
    if value is None or value == "all":
        return list(AGENTS)
    names = [part.strip() for part in value.split(",") if part.strip()]
    if not names or any(n not in AGENTS for n in names):
        return None
    return [a for a in AGENTS if a in names]


def _agent(name: str) -> Agent:
    for agent in AGENTS:
        if agent == name:
            return agent
    raise ValueError(name)


def _ask_agents(found: Mapping[Agent, Any], ask: Ask) -> list[Agent]:
    detected = [a for a, c in found.items() if not isinstance(c, setup_steps.Missing)]
    print("Agents on this machine:", file=sys.stderr)
    for agent, cli in found.items():
        if isinstance(cli, setup_steps.Missing):
            print(f"  {agent}: not available ({cli.reason})", file=sys.stderr)
        else:
            print(f"  {agent}: {cli.executable} ({cli.version})", file=sys.stderr)
    default = ",".join(detected)
    answer = ask(f"Set up which agents? [{default}]: ").strip()
    chosen = _parse_agents(answer) if answer else detected
    while chosen is None or any(a not in detected for a in chosen):
        answer = ask(f"Type a comma-separated list of {default}, or press Enter for all: ").strip()
        chosen = _parse_agents(answer) if answer else detected
    return chosen


def _confirm(plans: list[setup_steps.AgentPlan], server: ServerCommand, ask: Ask) -> bool:
    skill_steps = {"installed": "install", "updated": "replace", "unchanged": "keep"}
    for plan in plans:
        step = "register" if plan.register else "keep the existing registration of"
        print(
            f"{plan.cli.agent}: {step} `{server.command}` as `{SERVER_NAME}`;"
            f" {skill_steps[plan.skill.outcome]} the skill at {plan.skill.path}",
            file=sys.stderr,
        )
    return ask("Proceed? [y/N]: ").strip().lower() in {"y", "yes"}


def _not_found(missing: list[Any]) -> AgentNotFound:
    reasons = "; ".join(m.reason for m in missing)
    return AgentNotFound(
        f"{reasons}. Install the agent or choose others with --agents",
        {"agents": [m.agent for m in missing]},
    )


def _ask(prompt: str) -> str:
    """Prompt on stderr (stdout carries only the JSON summary); end of input reads as an empty answer."""
    print(prompt, end="", file=sys.stderr, flush=True)
    return sys.stdin.readline()


def _interactive() -> bool:
    return sys.stdin.isatty() and sys.stderr.isatty()


def _print(value: dict[str, Any]) -> None:
    print(json.dumps(value, ensure_ascii=False, indent=2 if sys.stdout.isatty() else None))


def _usage(command: str, message: str) -> int:
    print(
        json.dumps({"status": "error", "command": command, "code": "USAGE", "message": message}),
        file=sys.stderr,
    )
    return EXIT_USAGE


def _fail(command: str, error: AstmcpError, extra: dict[str, Any] | None = None) -> int:
    body: dict[str, Any] = {
        "status": "error",
        "command": command,
        "code": error.code,
        "message": error.message,
    }
    details = dict(error.details or {})
    if extra:
        details["summary"] = extra
    if details:
        body["details"] = details
    print(json.dumps(body, ensure_ascii=False), file=sys.stderr)
    return EXIT_FAILED
