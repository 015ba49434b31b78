"""A project object stored into an attribute an outside class declares may have its members called
by that class: flask's test client sets ``response.json_module = app.json`` and werkzeug's
``Response.get_json`` calls ``self.json_module.loads(…)``, so renaming the provider's ``loads``
broke flask's tests though no project line calls it there."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from astmcp.tools import call_tool
from astmcp.workspace import Workspaces

_WRAPPERS = """class Response:
    json_module = None

    def get_json(self) -> object:
        return self.json_module.loads("{}")


class Client:
    def open(self, path: str) -> Response:
        return Response()


class Request:
    json_module = None

    def get_json(self) -> object:
        return self.json_module.decode("{}")
"""

_APP = """from outheld_web.wrappers import Client
from outheld_web.wrappers import Request as RequestBase


class Provider:
    def loads(self, text: str) -> object:
        return text

    def dumps(self, value: object) -> str:
        return str(value)


class App:
    json: Provider = Provider()


class TestClient(Client):
    def __init__(self, app: App) -> None:
        self.app = app

    def open(self, path: str):
        response = super().open(path)
        response.json_module = self.app.json
        return response


class Codec:
    def decode(self, text: str) -> object:
        return text

    def encode(self, value: object) -> str:
        return str(value)


class Request(RequestBase):
    json_module = None


def bind(request: Request, codec: Codec) -> None:
    request.json_module = codec
"""


def _rename(
    tmp_path: Path, selector: str, venv_package: Callable[[Path, str, dict[str, str]], None]
) -> tuple[bool, dict[str, Any]]:
    root = tmp_path / "p"
    venv_package(root, "outheld_web", {"__init__.py": "", "wrappers.py": _WRAPPERS})
    (root / "app.py").write_text(_APP, encoding="utf-8")
    workspaces = Workspaces(root)
    try:
        result = call_tool(workspaces, "ast_rename_symbol", {"selector": selector, "new_name": "renamed"})
    finally:
        workspaces.close()
    return result.is_error, result.data


def test_a_member_outside_code_calls_on_a_held_project_object_is_refused(
    tmp_path: Path, venv_package: Callable[[Path, str, dict[str, str]], None]
) -> None:
    refused, data = _rename(tmp_path, "app.py::Provider.loads", venv_package)
    assert refused and data["error"]["code"] == "MUTATION_BLOCKED"
    assert data["error"]["details"]["external_members"] == ["outheld_web.wrappers.Response.json_module.loads"]
    assert "outside code holds a project object there" in data["error"]["message"]


def test_a_member_the_outside_class_does_not_read_off_it_renames(
    tmp_path: Path, venv_package: Callable[[Path, str, dict[str, str]], None]
) -> None:
    refused, data = _rename(tmp_path, "app.py::Provider.dumps", venv_package)
    assert not refused and data["blocked"] is False


def test_a_project_attribute_overriding_an_outside_one_holds_for_the_outside_class(
    tmp_path: Path, venv_package: Callable[[Path, str, dict[str, str]], None]
) -> None:
    # flask's `Request.json_module` overrides werkzeug's, whose `get_json` calls its `loads`
    refused, data = _rename(tmp_path, "app.py::Codec.decode", venv_package)
    assert refused and data["error"]["details"]["external_members"] == [
        "outheld_web.wrappers.Request.json_module.decode"
    ]
    refused, data = _rename(tmp_path / "again", "app.py::Codec.encode", venv_package)
    assert not refused and data["blocked"] is False
