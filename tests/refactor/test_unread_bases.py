"""A member of a class deriving from an outside class astmcp cannot read (its package is not
installed where astmcp runs) may override that class's member: the plan says which, and blocks."""

from __future__ import annotations

import shutil
from pathlib import Path

from astmcp.tools import call_tool
from astmcp.workspace import Workspaces

CASE = Path(__file__).parents[1] / "fixtures" / "refactor" / "rename" / "py_unread_outside_base" / "before"


def test_the_uncertain_entry_names_the_unread_base_and_the_reason_says_what_to_do(tmp_path: Path) -> None:
    shutil.copytree(CASE, tmp_path / "p")
    workspaces = Workspaces(tmp_path / "p")
    try:
        plan = call_tool(
            workspaces,
            "ast_rename_symbol",
            {"selector": "app.py::Response.default_mimetype", "new_name": "mime"},
        ).data
    finally:
        workspaces.close()
    assert plan["blocked"] is True
    [entry] = plan["uncertain_references"]
    assert (entry["kind"], entry["line"], entry["context"]) == ("base", 4, "class Response(ResponseBase):")
    assert entry["note"] == (
        "Response derives from notinstalled_web.wrappers.Response, which astmcp could not read;"
        " it may define 'default_mimetype'"
    )
    assert "could not read" in plan["block_reason"] and "install it there" in plan["block_reason"]


def test_a_readable_outside_base_without_the_member_is_no_hit(tmp_path: Path) -> None:
    root = tmp_path / "p"
    root.mkdir()
    (root / "app.py").write_text(
        "import textwrap\n\n\nclass Wrapper(textwrap.TextWrapper):\n    mime = 1\n", encoding="utf-8"
    )
    workspaces = Workspaces(root)
    try:
        plan = call_tool(
            workspaces, "ast_rename_symbol", {"selector": "app.py::Wrapper.mime", "new_name": "kind"}
        )
    finally:
        workspaces.close()
    assert not plan.is_error and plan.data["blocked"] is False and plan.data["uncertain_references"] == []
