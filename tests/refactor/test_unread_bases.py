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


def _venv_package(root: Path, package: str, source: str) -> None:
    """A virtualenv in the project (``.venv`` with a pyvenv.cfg) holding ``package``."""
    (root / ".venv").mkdir(parents=True)
    (root / ".venv" / "pyvenv.cfg").write_text("home = /usr/bin\n", encoding="utf-8")
    site = root / ".venv" / "lib" / "python3.11" / "site-packages" / package
    site.mkdir(parents=True)
    (site / "__init__.py").write_text("", encoding="utf-8")
    (site / "wrappers.py").write_text(source, encoding="utf-8")


def test_an_outside_base_in_the_projects_virtualenv_is_read(tmp_path: Path) -> None:
    app = (
        "from {0}.wrappers import Response as Base\n\n\nclass Response(Base):\n"
        '    default_mimetype = "text/html"\n    charset = "utf-8"\n'
    )
    root = tmp_path / "p"
    _venv_package(root, "venvweb_a", 'class Response:\n    default_mimetype = "text/plain"\n')
    (root / "app.py").write_text(app.format("venvweb_a"), encoding="utf-8")
    workspaces = Workspaces(root)
    try:
        overrides = call_tool(
            workspaces,
            "ast_rename_symbol",
            {"selector": "app.py::Response.default_mimetype", "new_name": "mime"},
        )
        own = call_tool(
            workspaces, "ast_rename_symbol", {"selector": "app.py::Response.charset", "new_name": "enc"}
        )
    finally:
        workspaces.close()
    # read there: the base defines default_mimetype (refused, named) and not charset (a clean plan)
    assert overrides.is_error and overrides.data["error"]["code"] == "MUTATION_BLOCKED"
    assert "venvweb_a.wrappers.Response.default_mimetype" in overrides.data["error"]["message"]
    assert not own.is_error and own.data["blocked"] is False and own.data["uncertain_references"] == []
