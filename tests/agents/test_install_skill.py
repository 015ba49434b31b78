"""``ast-tool install-skill``: SPEC §7 paths, scopes, idempotency, --force, conflicts, atomic writes."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from astmcp.agents import skills as skill_module
from astmcp.cli import main

CLAUDE_REL = Path("skills/structural-code-editing/SKILL.md")
HERMES_REL = Path("skills/software-development/structural-code-editing/SKILL.md")


@pytest.fixture
def homes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    """HOME, CLAUDE_CONFIG_DIR and HERMES_HOME pointed at empty temp folders."""
    paths = {name: tmp_path / name for name in ("home", "claude", "hermes", "project")}
    for path in paths.values():
        path.mkdir()
    monkeypatch.setenv("HOME", str(paths["home"]))
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(paths["claude"]))
    monkeypatch.setenv("HERMES_HOME", str(paths["hermes"]))
    return paths


def install(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    code = main(["install-skill", *argv])
    out, err = capsys.readouterr()
    return code, json.loads(out if code == 0 else err)


def files_under(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file())


def test_claude_user_skill_goes_under_claude_config_dir(
    homes: dict[str, Path], capsys: pytest.CaptureFixture[str], bundled_skill: bytes
) -> None:
    code, out = install(capsys, "claude")

    assert code == 0
    target = homes["claude"] / CLAUDE_REL
    assert out["skills"] == [{"agent": "claude", "path": str(target), "result": "installed"}]
    assert target.read_bytes() == bundled_skill
    assert files_under(homes["hermes"]) == []


def test_hermes_skill_goes_into_the_software_development_category_of_hermes_home(
    homes: dict[str, Path], capsys: pytest.CaptureFixture[str], bundled_skill: bytes
) -> None:
    code, out = install(capsys, "hermes")

    assert code == 0
    assert (homes["hermes"] / HERMES_REL).read_bytes() == bundled_skill
    assert out["skills"][0]["path"] == str(homes["hermes"] / HERMES_REL)


def test_without_the_variables_skills_go_under_dot_claude_and_dot_hermes_in_home(
    homes: dict[str, Path], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CLAUDE_CONFIG_DIR")
    monkeypatch.delenv("HERMES_HOME")

    code, _ = install(capsys, "all")

    assert code == 0
    assert files_under(homes["home"]) == [
        f".claude/{CLAUDE_REL.as_posix()}",
        f".hermes/{HERMES_REL.as_posix()}",
    ]


def test_project_scope_writes_below_the_project_root(
    homes: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = install(capsys, "claude", "--scope", "project", "--project-root", str(homes["project"]))

    assert code == 0
    assert out["scope"] == "project"
    assert files_under(homes["project"]) == [f".claude/{CLAUDE_REL.as_posix()}"]
    assert files_under(homes["claude"]) == []


@pytest.mark.parametrize("target", ["hermes", "all"])
def test_project_scope_is_refused_for_hermes_and_writes_nothing(
    homes: dict[str, Path], capsys: pytest.CaptureFixture[str], target: str
) -> None:
    code, err = install(capsys, target, "--scope", "project", "--project-root", str(homes["project"]))

    assert code == 2
    assert err["code"] == "USAGE"
    assert "Hermes" in err["message"]
    assert files_under(homes["project"]) == files_under(homes["hermes"]) == []


def test_project_scope_without_a_project_root_is_a_usage_error(
    homes: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    code, err = install(capsys, "claude", "--scope", "project")

    assert code == 2
    assert "--project-root" in err["message"]


def test_installing_again_reports_unchanged_and_does_not_rewrite_the_file(
    homes: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    install(capsys, "all")
    claude = homes["claude"] / CLAUDE_REL
    inode = claude.stat().st_ino

    code, out = install(capsys, "all")

    assert code == 0
    assert [s["result"] for s in out["skills"]] == ["unchanged", "unchanged"]
    assert claude.stat().st_ino == inode


def test_a_different_skill_is_refused_without_force_and_left_as_it_was(
    homes: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    target = homes["claude"] / CLAUDE_REL
    target.parent.mkdir(parents=True)
    target.write_bytes(b"my own notes\n")

    code, err = install(capsys, "claude")

    assert code == 1
    assert err["code"] == "CONFLICT"
    assert "--force" in err["message"]
    assert err["details"]["conflicts"] == [{"agent": "claude", "path": str(target)}]
    assert target.read_bytes() == b"my own notes\n"


def test_force_replaces_a_different_skill_and_reports_updated(
    homes: dict[str, Path], capsys: pytest.CaptureFixture[str], bundled_skill: bytes
) -> None:
    target = homes["claude"] / CLAUDE_REL
    target.parent.mkdir(parents=True)
    target.write_bytes(b"old version\n")

    code, out = install(capsys, "claude", "--force")

    assert code == 0
    assert out["skills"][0]["result"] == "updated"
    assert target.read_bytes() == bundled_skill


def test_a_conflict_for_one_agent_writes_nothing_for_the_other(
    homes: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    hermes = homes["hermes"] / HERMES_REL
    hermes.parent.mkdir(parents=True)
    hermes.write_bytes(b"edited by hand\n")

    code, err = install(capsys, "all")

    assert code == 1
    assert [c["agent"] for c in err["details"]["conflicts"]] == ["hermes"]
    assert files_under(homes["claude"]) == []


def test_a_symlink_at_the_skill_path_is_refused_even_with_force(
    homes: dict[str, Path], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    outside = tmp_path / "outside.md"
    outside.write_bytes(b"not yours\n")
    target = homes["claude"] / CLAUDE_REL
    target.parent.mkdir(parents=True)
    target.symlink_to(outside)

    code, err = install(capsys, "claude", "--force")

    assert code == 1
    assert err["code"] == "CONFLICT"
    assert outside.read_bytes() == b"not yours\n"
    assert target.is_symlink()


def test_a_failed_write_keeps_the_old_skill_and_leaves_no_temporary_file(
    homes: dict[str, Path], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    target = homes["claude"] / CLAUDE_REL
    target.parent.mkdir(parents=True)
    target.write_bytes(b"old version\n")

    def broken_replace(src: Any, dst: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(skill_module.os, "replace", broken_replace)

    code, err = install(capsys, "claude", "--force")

    assert code == 1
    assert err["code"] == "WRITE_FAILED"
    assert target.read_bytes() == b"old version\n"
    assert os.listdir(target.parent) == ["SKILL.md"]


def test_a_successful_write_leaves_only_the_skill_file_readable_by_everyone(
    homes: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    install(capsys, "claude")

    target = homes["claude"] / CLAUDE_REL
    assert os.listdir(target.parent) == ["SKILL.md"]
    assert target.stat().st_mode & 0o777 == 0o644


def test_the_bundled_skill_is_the_repository_copy_in_an_editable_install(bundled_skill: bytes) -> None:
    assert skill_module.skill_text() == bundled_skill
