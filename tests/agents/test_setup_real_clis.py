"""``ast-tool setup`` against the real Claude Code and Hermes CLIs in a throwaway HOME."""

from __future__ import annotations

import argparse
import sysconfig
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from astmcp.agents import setup as setup_steps
from astmcp.agents.cli import setup_command
from astmcp.agents.clients import AgentCli, ServerCommand
from astmcp.agents.errors import AgentCliFailed
from astmcp.agents.process import Runner
from astmcp.agents.skills import Agent, AgentHome, skill_text

MakeHome = Callable[..., Any]  # conftest.agent_home


def _server_path() -> str:
    # The same lookup ast-tool does: this interpreter's scripts folder.
    return str(Path(sysconfig.get_path("scripts"), "ast-mcp-server").absolute())


def test_fresh_setup_registers_the_server_installs_the_skill_and_both_agents_connect(
    set_up_home: Any, bundled_skill: bytes
) -> None:
    home, code, report = set_up_home.home, set_up_home.code, set_up_home.report

    assert code == 0, report
    assert report["status"] == "ok"
    assert report["server"] == {"name": "ast", "command": _server_path(), "args": []}
    by_agent = {a["agent"]: a for a in report["agents"]}
    assert set(by_agent) == {"claude", "hermes"}
    for agent in by_agent.values():
        assert agent["registration"] == "registered"
        assert agent["skill"]["result"] == "installed"
        assert agent["verified"] is True
    assert home.claude_skill.read_bytes() == bundled_skill
    assert home.hermes_skill.read_bytes() == bundled_skill
    # Ask the agents themselves, not the summary.
    claude = home.run("claude", "mcp", "get", "ast")
    assert "Connected" in claude.stdout and "Failed" not in claude.stdout, claude.stdout + claude.stderr
    assert f"Command: {_server_path()}" in claude.stdout
    assert "User config" in claude.stdout
    hermes = home.run("hermes", "mcp", "test", "ast")
    assert "ast_search_symbols" in hermes.stdout, hermes.stdout + hermes.stderr
    assert "ast_apply_operation" in hermes.stdout
    skills = home.run("hermes", "skills", "list")
    assert "structural-code-editing" in skills.stdout


def test_running_setup_again_changes_nothing_and_says_unchanged(set_up_home: Any) -> None:
    home = set_up_home.home
    assert set_up_home.code == 0
    before = home.snapshot()

    code, report = home.ast_tool("setup", "--agents", "claude,hermes", "--yes")

    assert code == 0, report
    for agent in report["agents"]:
        assert agent["registration"] == "unchanged"
        assert agent["skill"]["result"] == "unchanged"
        assert agent["verified"] is True
    assert home.snapshot() == before


def test_a_different_claude_registration_fails_setup_before_anything_is_written(
    agent_home: MakeHome,
) -> None:
    home = agent_home()
    added = home.run("claude", "mcp", "add", "--scope", "user", "ast", "--", "/opt/other/ast-server", "--x")
    assert added.returncode == 0, added.stderr
    before = home.snapshot()

    code, error = home.ast_tool("setup", "--agents", "all", "--yes")

    assert code == 1
    assert error["code"] == "CONFLICT"
    assert "/opt/other/ast-server" in error["message"]
    assert [c["agent"] for c in error["details"]["conflicts"]] == ["claude"]
    assert home.snapshot() == before
    assert before["hermes"] is None and before["claude_skill"] is None and before["hermes_skill"] is None


def test_a_different_hermes_registration_fails_setup_before_anything_is_written(
    agent_home: MakeHome,
) -> None:
    home = agent_home()
    set_ = home.run("hermes", "config", "set", "mcp_servers.ast.command", "/opt/other/ast-server")
    assert set_.returncode == 0, set_.stdout + set_.stderr
    before = home.snapshot()

    code, error = home.ast_tool("setup", "--agents", "all", "--yes")

    assert code == 1
    assert error["code"] == "CONFLICT"
    assert [c["agent"] for c in error["details"]["conflicts"]] == ["hermes"]
    assert "/opt/other/ast-server" in error["message"]
    assert home.snapshot() == before
    assert before["claude"] == {}


def test_a_different_installed_skill_fails_setup_unless_force_skill_is_given(
    agent_home: MakeHome, bundled_skill: bytes
) -> None:
    home = agent_home()
    home.claude_skill.parent.mkdir(parents=True)
    home.claude_skill.write_bytes(b"---\nname: structural-code-editing\ndescription: mine\n---\nmine\n")
    before = home.snapshot()

    code, error = home.ast_tool("setup", "--agents", "all", "--yes")

    assert code == 1
    assert error["code"] == "CONFLICT"
    assert error["details"]["conflicts"][0]["kind"] == "skill"
    assert home.snapshot() == before

    code, report = home.ast_tool("setup", "--agents", "claude", "--yes", "--force-skill")

    assert code == 0, report
    assert [(a["agent"], a["skill"]["result"]) for a in report["agents"]] == [("claude", "updated")]
    assert home.claude_skill.read_bytes() == bundled_skill


def test_setup_for_all_agents_skips_one_that_is_not_on_path(agent_home: MakeHome) -> None:
    home = agent_home(hermes=False)

    code, report = home.ast_tool("setup", "--agents", "all", "--yes")

    assert code == 0, report
    by_agent = {a["agent"]: a for a in report["agents"]}
    assert by_agent["claude"]["verified"] is True
    assert by_agent["hermes"]["status"] == "skipped"
    assert "not on PATH" in by_agent["hermes"]["reason"]
    assert not home.hermes_skill.exists()


def test_setup_naming_an_agent_that_is_not_on_path_fails_and_writes_nothing(agent_home: MakeHome) -> None:
    home = agent_home(hermes=False)
    before = home.snapshot()

    code, error = home.ast_tool("setup", "--agents", "claude,hermes", "--yes")

    assert code == 1
    assert error["code"] == "AGENT_NOT_FOUND"
    assert error["details"]["agents"] == ["hermes"]
    assert home.snapshot() == before


def test_setup_with_no_agent_installed_fails(agent_home: MakeHome) -> None:
    home = agent_home(claude=False, hermes=False)

    code, error = home.ast_tool("setup", "--agents", "all", "--yes")

    assert code == 1
    assert error["code"] == "AGENT_NOT_FOUND"
    assert sorted(error["details"]["agents"]) == ["claude", "hermes"]


def _interactive(home: Any, answers: list[str]) -> int:
    args = argparse.Namespace(agents=None, yes=False, force_skill=False)
    replies = iter(answers)
    return setup_command(args, dict(home.environ), True, lambda prompt: next(replies))


def test_interactive_setup_asks_which_agents_then_sets_up_only_those(
    agent_home: MakeHome, capsys: pytest.CaptureFixture[str]
) -> None:
    home = agent_home()

    code = _interactive(home, ["claude", "y"])

    assert code == 0, capsys.readouterr().err
    assert "ast" in home.claude_servers()
    assert home.hermes_servers() is None
    assert not home.hermes_skill.exists()
    asked = capsys.readouterr().err
    assert "hermes" in asked and "claude" in asked


def test_interactive_setup_answered_no_changes_nothing(
    agent_home: MakeHome, capsys: pytest.CaptureFixture[str]
) -> None:
    home = agent_home()
    before = home.snapshot()

    code = _interactive(home, ["", "n"])

    assert code == 1
    assert '"CANCELLED"' in capsys.readouterr().err
    assert home.snapshot() == before


def _broken_server(home: Any) -> ServerCommand:
    script = home.root / "broken-server"
    script.write_text("#!/bin/sh\necho 'cannot start' >&2\nexit 3\n", encoding="utf-8")
    script.chmod(0o755)
    return ServerCommand(str(script))


def _plans(home: Any, server: ServerCommand, agents: list[Agent]) -> list[setup_steps.AgentPlan]:
    runner = Runner(home.environ, home.root / "home")
    found = setup_steps.detect(runner, agents)
    clis = [c for c in found.values() if isinstance(c, AgentCli)]
    homes = AgentHome.from_environ(home.environ)
    return setup_steps.preflight(clis, server, homes, skill_text(), force_skill=False)


def test_claude_failing_to_start_the_server_is_reported_as_not_verified(agent_home: MakeHome) -> None:
    home = agent_home()
    server = _broken_server(home)

    results = setup_steps.apply(_plans(home, server, ["claude"]), server, skill_text())
    report = setup_steps.summary(server, results, [])

    assert report["status"] == "error"
    (claude,) = report["agents"]
    assert claude["verified"] is False
    assert "Failed" in claude["verification"]


def test_hermes_refusing_a_server_that_cannot_start_fails_setup_and_says_what_was_done(
    agent_home: MakeHome,
) -> None:
    home = agent_home()
    server = _broken_server(home)
    plans = _plans(home, server, ["claude", "hermes"])

    with pytest.raises(AgentCliFailed) as failed:
        setup_steps.apply(plans, server, skill_text())

    assert failed.value.details is not None
    assert failed.value.details["completed"] == ["claude: registered", "claude: skill installed"]
    assert home.hermes_servers() is None
    assert not home.hermes_skill.exists()
