"""A method a project class inherits from an outside class gives, when called, what its return
annotation names: an instance of another outside class, whose members are not the project's.
flask's tests read ``client.get("/").data`` on werkzeug's ``TestResponse`` hundreds of times."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from astmcp.tools import call_tool
from astmcp.workspace import Workspaces

_TEST_MODULE = """from __future__ import annotations

import typing as t
from functools import cached_property

from .wrappers import Response

K = t.TypeVar("K")
V = t.TypeVar("V")


class Bag(t.Generic[K, V]):
    def get(self, key: K) -> V:
        raise KeyError(key)


class TestResponse(Response):
    history: tuple[TestResponse, ...] = ()


class Client:
    def get(self, path: str) -> TestResponse:
        return TestResponse()

    def maybe(self) -> t.Optional["TestResponse"]:
        return None

    def copy(self) -> Client:
        return self

    @property
    def last(self) -> TestResponse:
        return TestResponse()

    @cached_property
    def form(self) -> Bag[str, str]:
        return Bag()

    @cached_property
    def anyform(self) -> Bag[str, t.Any]:
        return Bag()
"""

_APP = """from outret_web.test import Client, TestResponse


class ScriptInfo:
    data = None
    status = 1
    history = 2


class Other:
    data = 0
    status = 0
    history = 0


class FlaskClient(Client):
    pass


class MyResponse(TestResponse):
    extra = 1


class Plain:
    extra = 0


def check(client: FlaskClient) -> None:
    print(client.get("/").data)
    print(client.maybe().status)
    print(client.get("/").history)
    print(client.copy().data)
    print(client.get("/").extra)
    print(client.last.data, client.form.get("a").data)
    print(client.anyform.get("a").data)
"""


def _project(root: Path) -> None:
    """A project whose virtualenv (``.venv`` with a pyvenv.cfg) holds the package ``outret_web``."""
    site = root / ".venv" / "lib" / "python3.11" / "site-packages" / "outret_web"
    site.mkdir(parents=True)
    (root / ".venv" / "pyvenv.cfg").write_text("home = /usr/bin\n", encoding="utf-8")
    (site / "__init__.py").write_text("", encoding="utf-8")
    (site / "test.py").write_text(_TEST_MODULE, encoding="utf-8")
    (site / "wrappers.py").write_text('class Response:\n    data = b""\n    status = 200\n', encoding="utf-8")
    (root / "app.py").write_text(_APP, encoding="utf-8")


def _uncertain_lines(tmp_path: Path, selectors: list[str]) -> dict[str, list[int]]:
    root = tmp_path / "p"
    _project(root)
    workspaces = Workspaces(root)
    found: dict[str, list[int]] = {}
    try:
        for selector in selectors:
            plan: dict[str, Any] = call_tool(
                workspaces, "ast_rename_symbol", {"selector": selector, "new_name": "renamed"}
            ).data
            found[selector] = sorted(h["line"] for h in plan["uncertain_references"])
            assert plan["blocked"] is bool(found[selector])
    finally:
        workspaces.close()
    return found


def test_an_inherited_outside_methods_annotated_result_is_an_outside_instance(tmp_path: Path) -> None:
    found = _uncertain_lines(
        tmp_path, ["app.py::ScriptInfo.data", "app.py::ScriptInfo.status", "app.py::ScriptInfo.history"]
    )
    # `-> TestResponse`, `-> t.Optional["TestResponse"]`: its members (`data`, `status` inherited,
    # `history` its own) are werkzeug's, no hit, as are those of what a property gives (`last`) or
    # a generic class given builtin types holds (`form`); `-> Client`, the class itself: the value
    # may be the project subclass's instance, so `client.copy().data` stays a hit (line 32), as
    # does a value of a `Bag[str, t.Any]` (line 35)
    assert found == {
        "app.py::ScriptInfo.data": [32, 35],
        "app.py::ScriptInfo.status": [],
        "app.py::ScriptInfo.history": [],
    }


def test_a_member_the_outside_result_lacks_is_a_hit_of_its_project_subclasses(tmp_path: Path) -> None:
    found = _uncertain_lines(tmp_path, ["app.py::MyResponse.extra", "app.py::Plain.extra"])
    # TestResponse has no `extra`: the value may be MyResponse's instance, not Plain's
    assert found == {"app.py::MyResponse.extra": [33], "app.py::Plain.extra": []}
