"""Running agent CLIs: argv lists only (no shell), a timeout that kills the whole process group."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")


@dataclass(frozen=True, slots=True)
class Ran:
    """A finished (or timed-out: ``returncode is None``) command."""

    argv: tuple[str, ...]
    returncode: int | None
    stdout: str
    stderr: str

    @property
    def ok(self) -> bool:
        return self.returncode == 0

    @property
    def output(self) -> str:
        """stdout then stderr, without terminal colour codes."""
        return _ANSI.sub("", self.stdout + ("\n" if self.stdout and self.stderr else "") + self.stderr)

    def tail(self, lines: int = 12) -> str:
        """The last lines of the output, for error messages."""
        kept = [line for line in self.output.splitlines() if line.strip()]
        return "\n".join(kept[-lines:])

    def describe(self) -> str:
        status = "timed out" if self.returncode is None else f"exited {self.returncode}"
        return f"`{' '.join([Path(self.argv[0]).name, *self.argv[1:]])}` {status}"


class Runner:
    """Runs commands with the caller's environment in one working directory."""

    def __init__(self, environ: Mapping[str, str], cwd: Path) -> None:
        self.environ = dict(environ)
        self.cwd = cwd

    def which(self, name: str) -> Path | None:
        found = shutil.which(name, path=self.environ.get("PATH", ""))
        return Path(found).absolute() if found else None

    def run(self, argv: Sequence[str], *, timeout: float, stdin: str = "") -> Ran:
        """Run ``argv``; on timeout kill its process group (servers it started included)."""
        process = subprocess.Popen(
            list(argv),
            cwd=self.cwd,
            env=self.environ,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        try:
            out, err = process.communicate(stdin.encode("utf-8"), timeout=timeout)
            code: int | None = process.returncode
        except subprocess.TimeoutExpired:
            # The command may have exited while something it started still holds the pipes.
            code = process.poll()
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            out, err = process.communicate()
        return Ran(
            tuple(argv),
            code,
            out.decode("utf-8", errors="replace"),
            err.decode("utf-8", errors="replace"),
        )
