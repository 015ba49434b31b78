"""``ast-tool setup`` refuses to guess: without a terminal it needs --agents and --yes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest


def setup(tmp_path: Path, *argv: str) -> tuple[int, dict[str, str]]:
    env = {"HOME": str(tmp_path), "PATH": str(tmp_path / "bin")}
    done = subprocess.run(
        [sys.executable, "-m", "astmcp.cli", "setup", *argv],
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
        env=env,
    )
    assert done.stdout == ""
    return done.returncode, json.loads(done.stderr)


@pytest.mark.parametrize(
    "argv",
    [(), ("--yes",), ("--agents", "all"), ("--agents", "claude")],
    ids=["nothing", "yes-only", "agents-all-only", "agents-claude-only"],
)
def test_setup_without_a_terminal_needs_both_agents_and_yes(tmp_path: Path, argv: tuple[str, ...]) -> None:
    code, error = setup(tmp_path, *argv)

    assert code == 2
    assert error["code"] == "USAGE"
    assert "--agents and --yes" in error["message"]
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("agents", ["codex", "claude,codex", ",", "ALL"])
def test_setup_rejects_agent_names_it_does_not_know(tmp_path: Path, agents: str) -> None:
    code, error = setup(tmp_path, "--agents", agents, "--yes")

    assert code == 2
    assert error["code"] == "USAGE"
    assert "claude, hermes" in error["message"]
