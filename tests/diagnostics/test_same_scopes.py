"""TS/JS post-images whose edits only respell member names reuse the indexed scope answer
(undefined-name candidates, declared globals) instead of re-running the reference analyzer."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from astmcp.diagnostics import project
from astmcp.diagnostics.delta import diagnostics_delta
from astmcp.refactor import rename
from astmcp.resolve import ts_facts
from astmcp.tools import call_tool
from astmcp.workspace import Workspaces

_MODEL = """declare global {
  var registry: Model[];
}
export class Model {
  count = 0;
  bump(): number {
    this.count += 1;
    return this.count + missingHelper();
  }
}
registry.push(new Model());
"""
_USE = 'import { Model } from "./model";\nexport const n = new Model().count + alsoMissing;\n'


def _project(root: Path) -> None:
    (root / "model.ts").write_text(_MODEL, encoding="utf-8")
    (root / "use.ts").write_text(_USE, encoding="utf-8")


def test_the_indexed_answer_gives_the_diagnostics_a_new_analysis_gives(tmp_path: Path) -> None:
    _project(tmp_path)
    images = {"model.ts": _MODEL.replace("count", "total"), "use.ts": _USE.replace("count", "total")}
    workspaces = Workspaces(tmp_path)
    try:
        call_tool(workspaces, "ast_list_files", {})  # index, diagnostics included
        ws = workspaces.get(None)
        conn = ws.db()
        fresh = project.post_builtin(ws, conn, images)
        kept = project.post_builtin(ws, conn, images, frozenset(images))
    finally:
        workspaces.close()

    def bag(items: list[project.Located]) -> Counter[tuple[str, str, str, int]]:
        return Counter((x.file, x.fact.code, x.fact.message, x.fact.line) for x in items)

    assert bag(kept) == bag(fresh)
    assert {x.fact.message for x in fresh if x.file != "<environment>"} >= {
        "undefined name 'missingHelper'",
        "undefined name 'alsoMissing'",
    }
    assert not any("registry" in x.fact.message for x in fresh)  # the global the file declares


def test_a_member_rename_does_not_analyze_its_files_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _project(tmp_path)
    workspaces = Workspaces(tmp_path)
    try:
        call_tool(workspaces, "ast_list_files", {})  # index first: the analyzer runs for that

        def refuse(*args: object) -> None:
            raise AssertionError("the reference analyzer ran on a post-image")

        monkeypatch.setattr(ts_facts, "analyze", refuse)
        plan = call_tool(
            workspaces, "ast_rename_symbol", {"selector": "model.ts::Model.count", "new_name": "total"}
        )
        assert not plan.is_error, plan.text
        assert plan.data["blocked"] is False and plan.data["diagnostics"]["added"] == []
    finally:
        workspaces.close()


def test_an_edit_that_respells_a_binding_is_analyzed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "box.ts").write_text(
        "export class Box {\n  constructor(public size = 0) {\n    console.log(size);\n  }\n}\n"
        "export const s = new Box().size;\n",
        encoding="utf-8",
    )
    seen: list[frozenset[str]] = []
    original = rename.build_plan

    def spy(*args: object, **kwargs: object) -> object:
        seen.append(kwargs["same_scopes"])  # type: ignore[arg-type]
        return original(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(rename, "build_plan", spy)
    workspaces = Workspaces(tmp_path)
    try:
        plan = call_tool(
            workspaces, "ast_rename_symbol", {"selector": "box.ts::Box.size", "new_name": "width"}
        )
        assert not plan.is_error, plan.text
        # `size` in the constructor body is the parameter's: an identifier, so box.ts is analyzed
        assert seen == [frozenset()]
        ws = workspaces.get(None)
        assert diagnostics_delta(ws, {"box.ts": (tmp_path / "box.ts").read_text()}).added == []
    finally:
        workspaces.close()
