"""The real agent CLIs (npm Claude Code, PyPI Hermes) in a cache the tests own, and a throwaway HOME.

The CLIs are installed once into ``${ASTMCP_TEST_CACHE:-~/.cache/astmcp-tests}`` and reused.
With ``CI=true`` a failed install fails the tests; elsewhere it skips them only when the
registry cannot be reached.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import portalocker
import pytest

CLAUDE_PACKAGE = "@anthropic-ai/claude-code"
CLAUDE_VERSION = "2.1.328"
HERMES_REQUIREMENT = "hermes-agent[mcp]==0.19.0"
HERMES_VERSION = "v0.19.0"

INSTALL_TIMEOUT = 900
RUN_TIMEOUT = 300

# Variables that could point the CLIs at the developer's real configuration or network.
_DROPPED_PREFIXES = ("ANTHROPIC_", "CLAUDE", "HERMES_", "XDG_", "OPENAI_", "OPENROUTER_", "NPM_CONFIG_")


def _cache_dir() -> Path:
    configured = os.environ.get("ASTMCP_TEST_CACHE")
    return Path(configured) if configured else Path.home() / ".cache" / "astmcp-tests"


def _in_ci() -> bool:
    return os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def _version_of(executable: Path) -> str:
    if not executable.is_file():
        return ""
    with tempfile.TemporaryDirectory(prefix="astmcp-version-probe-") as probe:
        try:
            done = subprocess.run(
                [str(executable), "--version"],
                capture_output=True,
                text=True,
                timeout=60,
                stdin=subprocess.DEVNULL,
                env=_clean_environ(Path(probe)),
            )
        except (OSError, subprocess.TimeoutExpired):
            return ""
    return done.stdout if done.returncode == 0 else ""


def _run_install(argv: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        argv, capture_output=True, text=True, timeout=INSTALL_TIMEOUT, stdin=subprocess.DEVNULL
    )


def _unavailable(what: str, done: subprocess.CompletedProcess[str], reachable: bool) -> None:
    message = (
        f"installing {what} failed (exit {done.returncode}):\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    )
    if _in_ci() or reachable:
        pytest.fail(message)
    pytest.skip(f"package registry unreachable; {message}")


def _install_claude(cache: Path) -> Path:
    prefix = cache / "claude"
    executable = prefix / "node_modules" / ".bin" / "claude"
    if CLAUDE_VERSION in _version_of(executable):
        return executable
    npm = shutil.which("npm")
    if npm is None:
        if _in_ci():
            pytest.fail("npm is not on PATH")
        pytest.skip("npm is not on PATH")
    shutil.rmtree(prefix, ignore_errors=True)
    prefix.mkdir(parents=True)
    spec = f"{CLAUDE_PACKAGE}@{CLAUDE_VERSION}"
    done = _run_install([npm, "install", "--prefix", str(prefix), "--no-audit", "--no-fund", spec])
    if done.returncode != 0 or CLAUDE_VERSION not in _version_of(executable):
        ping = _run_install([npm, "view", spec, "version"])
        _unavailable(spec, done, reachable=ping.returncode == 0)
    return executable


def _install_hermes(cache: Path) -> Path:
    venv = cache / "hermes-venv"
    executable = venv / "bin" / "hermes"
    if HERMES_VERSION in _version_of(executable):
        return executable
    shutil.rmtree(venv, ignore_errors=True)
    made = _run_install([sys.executable, "-m", "venv", str(venv)])
    if made.returncode != 0:
        pytest.fail(f"cannot create a venv for hermes-agent: {made.stderr}")
    pip = [str(venv / "bin" / "python"), "-m", "pip"]
    done = _run_install([*pip, "install", "--quiet", "--disable-pip-version-check", HERMES_REQUIREMENT])
    if done.returncode != 0 or HERMES_VERSION not in _version_of(executable):
        probe = _run_install([*pip, "index", "versions", "hermes-agent"])
        _unavailable(HERMES_REQUIREMENT, done, reachable=probe.returncode == 0)
    return executable


@dataclass(frozen=True)
class AgentClis:
    claude: Path
    hermes: Path


@pytest.fixture(scope="session")
def agent_clis() -> AgentClis:
    """Install (or reuse) both CLIs; a lock keeps parallel test runs from installing twice."""
    cache = _cache_dir()
    cache.mkdir(parents=True, exist_ok=True)
    with portalocker.Lock(str(cache / ".install.lock"), timeout=INSTALL_TIMEOUT):
        return AgentClis(claude=_install_claude(cache), hermes=_install_hermes(cache))


def _clean_environ(root: Path) -> dict[str, str]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith(_DROPPED_PREFIXES)}
    environ.update(
        HOME=str(root / "home"),
        CLAUDE_CONFIG_DIR=str(root / "claude"),
        HERMES_HOME=str(root / "hermes"),
        XDG_CONFIG_HOME=str(root / "xdg" / "config"),
        XDG_CACHE_HOME=str(root / "xdg" / "cache"),
        XDG_DATA_HOME=str(root / "xdg" / "data"),
        XDG_STATE_HOME=str(root / "xdg" / "state"),
        DISABLE_AUTOUPDATER="1",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
        NO_COLOR="1",
    )
    return environ


@dataclass
class AgentHome:
    """A throwaway HOME with the chosen CLIs on PATH, and helpers to drive them."""

    root: Path
    environ: dict[str, str]
    bin: Path

    @property
    def claude_skill(self) -> Path:
        return self.root / "claude" / "skills" / "structural-code-editing" / "SKILL.md"

    @property
    def hermes_skill(self) -> Path:
        return (
            self.root / "hermes" / "skills" / "software-development" / "structural-code-editing" / "SKILL.md"
        )

    def run(self, *argv: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        """Run a program (found on this HOME's PATH) from the HOME folder."""
        program = shutil.which(argv[0], path=self.environ["PATH"]) or argv[0]
        return subprocess.run(
            [program, *argv[1:]],
            capture_output=True,
            text=True,
            timeout=RUN_TIMEOUT,
            input=stdin,
            env=self.environ,
            cwd=self.root / "home",
        )

    def ast_tool(self, *argv: str) -> tuple[int, dict[str, Any]]:
        """``ast-tool ARGV`` without a terminal; returns the exit code and the one JSON value printed."""
        done = subprocess.run(
            [sys.executable, "-m", "astmcp.cli", *argv],
            capture_output=True,
            text=True,
            timeout=RUN_TIMEOUT,
            stdin=subprocess.DEVNULL,
            env=self.environ,
            cwd=self.root / "home",
        )
        text = done.stdout if done.returncode == 0 else done.stderr
        try:
            value: dict[str, Any] = json.loads(text)
        except json.JSONDecodeError:
            raise AssertionError(
                f"not one JSON value (exit {done.returncode}):\n{done.stdout}\n{done.stderr}"
            ) from None
        return done.returncode, value

    def claude_servers(self) -> dict[str, Any]:
        """The user-scope MCP servers in Claude Code's own config file."""
        config = self.root / "claude" / ".claude.json"
        if not config.is_file():
            return {}
        servers: dict[str, Any] = json.loads(config.read_text(encoding="utf-8")).get("mcpServers", {})
        return servers

    def hermes_servers(self) -> Any:
        """Hermes's ``mcp_servers`` setting as it reports it (None when unset)."""
        done = self.run("hermes", "config", "get", "--json", "mcp_servers")
        return json.loads(done.stdout) if done.returncode == 0 and done.stdout.strip() else None

    def snapshot(self) -> dict[str, Any]:
        """What setup may write: both registrations and both skill files."""
        return {
            "claude": self.claude_servers(),
            "hermes": self.hermes_servers() if (self.bin / "hermes").exists() else None,
            "claude_skill": self.claude_skill.read_bytes() if self.claude_skill.exists() else None,
            "hermes_skill": self.hermes_skill.read_bytes() if self.hermes_skill.exists() else None,
        }


def make_agent_home(root: Path, clis: AgentClis, *, claude: bool = True, hermes: bool = True) -> AgentHome:
    bin_dir = root / "bin"
    for folder in ("home", "claude", "hermes", "bin"):
        (root / folder).mkdir(parents=True, exist_ok=True)
    if claude:
        (bin_dir / "claude").symlink_to(clis.claude)
    if hermes:
        (bin_dir / "hermes").symlink_to(clis.hermes)
    environ = _clean_environ(root)
    environ["PATH"] = os.pathsep.join([str(bin_dir), "/usr/bin", "/bin"])
    return AgentHome(root, environ, bin_dir)


@pytest.fixture
def agent_home(tmp_path: Path, agent_clis: AgentClis) -> Callable[..., AgentHome]:
    """``agent_home(claude=True, hermes=True)``: a HOME whose PATH holds only the chosen CLIs."""

    def make(*, claude: bool = True, hermes: bool = True) -> AgentHome:
        return make_agent_home(tmp_path / "agents", agent_clis, claude=claude, hermes=hermes)

    return make


@pytest.fixture(scope="module")
def set_up_home(tmp_path_factory: pytest.TempPathFactory, agent_clis: AgentClis) -> SetUp:
    """One HOME where ``ast-tool setup --agents all --yes`` has run (shared: a real setup takes ~20 s)."""
    home = make_agent_home(tmp_path_factory.mktemp("set-up"), agent_clis)
    code, report = home.ast_tool("setup", "--agents", "all", "--yes")
    return SetUp(home, code, report)


@dataclass(frozen=True)
class SetUp:
    home: AgentHome
    code: int
    report: dict[str, Any]


@pytest.fixture
def bundled_skill() -> bytes:
    return (Path(__file__).parents[2] / "skills" / "structural-code-editing" / "SKILL.md").read_bytes()
