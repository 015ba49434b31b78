"""The documents in ``pipelines/`` run as they are over this repository."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from astmcp.tools import registry

PIPELINES = Path(__file__).resolve().parents[2] / "pipelines"


def needs(tool: str) -> None:
    if tool not in registry():
        pytest.skip(f"{tool} is not registered yet")


def test_every_example_is_valid_and_covered_by_a_test() -> None:
    names = sorted(p.name for p in PIPELINES.glob("*.json"))
    assert names == [
        "outline-glob.json",
        "references-of-top-hit.json",
        "search-to-rename.json",
        "search-to-source.json",
    ]
    for path in PIPELINES.glob("*.json"):
        doc = json.loads(path.read_text(encoding="utf-8"))
        assert doc["project_root"] == ".."


def test_search_to_source_returns_the_source_of_call_tool(ast_tool: Any, tmp_path: Path) -> None:
    out = ast_tool("run", str(PIPELINES / "search-to-source.json"), cwd=tmp_path).ok()
    assert out["invocation_count"] == 2
    assert out["result"]["selector"] == "astmcp/tools.py::call_tool"
    assert out["result"]["text"].startswith("def call_tool(")
    assert set(out["result"]) == {"selector", "line", "text"}


def test_outline_glob_outlines_every_query_module_in_path_order(ast_tool: Any, tmp_path: Path) -> None:
    out = ast_tool("run", str(PIPELINES / "outline-glob.json"), cwd=tmp_path).ok()
    files = [o["file"] for o in out["result"]]
    expected = sorted(f"astmcp/query/{p.name}" for p in (PIPELINES.parent / "astmcp/query").glob("*.py"))
    assert files == expected
    assert out["invocation_count"] == len(expected) + 1
    assert all(
        "def " in o["outline"] or "class " in o["outline"] or "=" in o["outline"] for o in out["result"]
    )


def test_references_of_top_hit_lists_where_workspace_is_used(ast_tool: Any, tmp_path: Path) -> None:
    needs("ast_find_references")
    out = ast_tool("run", str(PIPELINES / "references-of-top-hit.json"), cwd=tmp_path).ok()
    assert out["result"]["symbol"] == "astmcp/workspace.py::Workspace"
    assert out["result"]["reference_count"] > 0
    assert "astmcp/tools.py" in out["result"]["affected_files"]


def test_search_to_rename_prepares_a_plan_file_and_writes_nothing(ast_tool: Any, tmp_path: Path) -> None:
    needs("ast_rename_symbol")
    outline = PIPELINES.parent / "astmcp/query/outline.py"
    before = outline.read_bytes()
    out = ast_tool("run", str(PIPELINES / "search-to-rename.json"), cwd=tmp_path).ok()
    assert out["result"]["status"] == "prepared"
    assert out["result"]["kind"] == "rename"
    assert Path(out["plan_file"]) == tmp_path / "state" / "plans" / f"{out['operation_id']}.astplan"
    assert len(out["plan_hash"]) == 64
    assert outline.read_bytes() == before
