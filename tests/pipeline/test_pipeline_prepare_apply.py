"""A prepare pipeline hands its plan to ``ast-tool apply`` in a later process; a second apply replays."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("astmcp.refactor.planfile")


def replace_body_pipeline(root: Path) -> dict[str, Any]:
    return {
        "version": 1,
        "project_root": root.name,
        "steps": [
            {
                "id": "find",
                "tool": "ast_search_symbols",
                "input": {"query": "f", "detail": "selectors", "limit": 1},
            },
            {
                "id": "replace",
                "tool": "ast_replace_symbol_body",
                "input": {"selector": {"$ref": "#/steps/find/symbols/0/selector"}, "new_body": "return 42"},
            },
        ],
    }


def test_prepare_then_apply_then_replay_across_processes(
    ast_tool: Any, write_doc: Any, tiny_project: Callable[[int], Path], tmp_path: Path
) -> None:
    root = tiny_project(2)
    prepared = ast_tool("run", str(write_doc(replace_body_pipeline(root), root.parent))).ok()
    assert set(prepared) >= {"operation_id", "plan_hash", "plan_file"}
    assert prepared["result"]["status"] == "prepared"
    plan_file = Path(prepared["plan_file"])
    assert plan_file == tmp_path / "state" / "plans" / f"{prepared['operation_id']}.astplan"
    assert (root / "m000.py").read_text(encoding="utf-8") == "def f():\n    return 0\n"

    applied = ast_tool("apply", str(plan_file), "--plan-hash", prepared["plan_hash"]).ok()
    assert applied["status"] == "applied"
    assert applied["idempotent_replay"] is False
    assert (root / "m000.py").read_text(encoding="utf-8") == "def f():\n    return 42\n"

    replayed = ast_tool("apply", str(plan_file), "--plan-hash", prepared["plan_hash"]).ok()
    assert replayed["idempotent_replay"] is True
    assert (root / "m000.py").read_text(encoding="utf-8") == "def f():\n    return 42\n"


def test_apply_with_a_different_hash_changes_nothing(
    ast_tool: Any, write_doc: Any, tiny_project: Callable[[int], Path]
) -> None:
    root = tiny_project(1)
    prepared = ast_tool("run", str(write_doc(replace_body_pipeline(root), root.parent))).ok()
    completed = ast_tool("apply", prepared["plan_file"], "--plan-hash", "0" * 64)
    assert completed.code == 1 and completed.stdout == ""
    assert (root / "m000.py").read_text(encoding="utf-8") == "def f():\n    return 0\n"


def test_a_blocked_plan_is_a_successful_run_whose_plan_apply_refuses(
    ast_tool: Any, write_doc: Any, tmp_path: Path
) -> None:
    root = tmp_path / "blocked"
    root.mkdir()
    source = "class A:\n    def run(self):\n        pass\n\n\ndef use(x):\n    x.run()\n"
    (root / "m.py").write_text(source, encoding="utf-8")
    doc = {
        "version": 1,
        "project_root": root.name,
        "steps": [
            {"id": "r", "tool": "ast_rename_symbol", "input": {"selector": "m.py::A.run", "new_name": "go"}}
        ],
    }
    prepared = ast_tool("run", str(write_doc(doc, tmp_path))).ok()
    assert prepared["result"]["blocked"] is True
    assert Path(prepared["plan_file"]).is_file()
    refused = ast_tool("apply", prepared["plan_file"], "--plan-hash", prepared["plan_hash"])
    assert refused.code == 1 and refused.stdout == ""
    assert (root / "m.py").read_text(encoding="utf-8") == source
