"""A project member whose name no other project class has is the ``likely`` meaning of
``x.name`` on a receiver nobody typed, unless the file imports an outside module with a class
that has a member of that name: toolz's ``is_valid_args`` calls ``sigspec.bind(…)`` on an
``inspect.Signature``, and renaming toolz's ``curry.bind`` rewrote it. The standard library's
classes are read by importing the module, an installed package's from its source."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from astmcp.tools import call_tool
from astmcp.workspace import Workspaces

_MODELS = """class Response:
    def __init__(self, body):
        self.body = body

    def json(self):
        return {"body": self.body}
"""

_PACKAGE = "from .models import Response\n"

_APP = """import outnames_http


class Document:
    def __init__(self, text):
        self.text = text

    def json(self):
        return {"text": self.text}

    def body_length(self):
        return len(self.text)


def fetch(session, url):
    response = session.get(url)
    return response.json()


def show(thing):
    return thing.body_length()
"""


def _rename(
    tmp_path: Path, selector: str, venv_package: Callable[[Path, str, dict[str, str]], None]
) -> dict[str, Any]:
    root = tmp_path / "p"
    venv_package(root, "outnames_http", {"__init__.py": _PACKAGE, "models.py": _MODELS})
    (root / "app.py").write_text(_APP, encoding="utf-8")
    workspaces = Workspaces(root)
    try:
        result = call_tool(workspaces, "ast_rename_symbol", {"selector": selector, "new_name": "renamed"})
    finally:
        workspaces.close()
    assert not result.is_error, result.text
    return result.data


def test_a_member_an_imported_package_class_also_has_is_no_likely_read(
    tmp_path: Path, venv_package: Callable[[Path, str, dict[str, str]], None]
) -> None:
    # `response.json()` may be the package's `Response.json`: a name hit, never rewritten
    plan = _rename(tmp_path, "app.py::Document.json", venv_package)
    assert plan["blocked"] is True
    assert [(h["file"], h["line"]) for h in plan["uncertain_references"]] == [("app.py", 17)]


def test_a_member_no_imported_class_has_stays_likely(
    tmp_path: Path, venv_package: Callable[[Path, str, dict[str, str]], None]
) -> None:
    plan = _rename(tmp_path, "app.py::Document.body_length", venv_package)
    assert plan["blocked"] is False
    assert "thing.renamed()" in plan["preview"]
