"""Project-wide renames from before/after fixtures (tests/fixtures/refactor/rename/<case>).

Each case: ``before/`` and ``after/`` trees and ``case.json`` (selector, new_name, expect:
applied | blocked | an error code).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from astmcp.tools import call_tool
from astmcp.workspace import Workspaces

CASES = Path(__file__).parents[1] / "fixtures" / "refactor" / "rename"


def _files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.mark.parametrize("name", sorted(p.name for p in CASES.iterdir()))
def test_rename_fixture(name: str, tmp_path: Path) -> None:
    case = json.loads((CASES / name / "case.json").read_text(encoding="utf-8"))
    root = tmp_path / "proj"
    shutil.copytree(CASES / name / "before", root)
    workspaces = Workspaces(root)
    try:
        workspaces.get(None).plans.state_dir = tmp_path / "state"
        args: dict[str, Any] = {"selector": case["selector"], "new_name": case["new_name"]}
        if "uncertain" in case:
            args["uncertain"] = case["uncertain"]
        result = call_tool(workspaces, "ast_rename_symbol", args)
        expect = case["expect"]
        if isinstance(expect, list):  # either outcome is safe; which one depends on how well bases link
            expect = "applied" if not result.is_error else expect[1]
        if expect not in ("applied", "blocked"):
            assert result.is_error and result.data["error"]["code"] == expect, result.text
            assert case.get("message", "") in result.data["error"]["message"]
            now = {k: v for k, v in _files(root).items() if not k.startswith(".astmcp/")}
            assert now == _files(CASES / name / "before")
            return
        assert not result.is_error, result.text
        plan = result.data
        if expect == "blocked":
            assert plan["blocked"] is True
            lines = sorted({u["line"] for u in plan["uncertain_references"]})
            assert lines == case["uncertain_lines"]
            return
        assert plan["blocked"] is False, plan["block_reason"]
        applied = call_tool(
            workspaces,
            "ast_apply_operation",
            {"operation_id": plan["operation_id"], "plan_hash": plan["plan_hash"]},
        )
        assert not applied.is_error, applied.text
        after = _files(CASES / name / "after")
        now = {k: v for k, v in _files(root).items() if not k.startswith(".astmcp/")}
        assert now == after
    finally:
        workspaces.close()
