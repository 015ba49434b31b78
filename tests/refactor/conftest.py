"""Helpers for refactoring tests: small projects written from dicts, a private state dir."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from astmcp.tools import ToolResult, call_tool
from astmcp.workspace import Workspace, Workspaces


class Project:
    """A project root plus a tool caller whose workspace keeps plans in ``state``."""

    def __init__(self, root: Path, state: Path) -> None:
        self.root = root
        self.state = state
        self.workspaces = Workspaces(root)
        self.ws.plans.state_dir = state

    @property
    def ws(self) -> Workspace:
        return self.workspaces.get(str(self.root))

    def raw(self, tool: str, **arguments: Any) -> ToolResult:
        return call_tool(self.workspaces, tool, arguments)

    def __call__(self, tool: str, **arguments: Any) -> dict[str, Any]:
        result = self.raw(tool, **arguments)
        assert not result.is_error, result.text
        return result.data

    def error(self, tool: str, **arguments: Any) -> dict[str, Any]:
        result = self.raw(tool, **arguments)
        assert result.is_error, result.text
        error: dict[str, Any] = result.data["error"]
        return error

    def read(self, path: str) -> str:
        return (self.root / path).read_text(encoding="utf-8")

    def write(self, path: str, text: str) -> None:
        (self.root / path).write_text(text, encoding="utf-8")

    def apply(self, plan: dict[str, Any]) -> dict[str, Any]:
        return self("ast_apply_operation", operation_id=plan["operation_id"], plan_hash=plan["plan_hash"])


def write_tree(root: Path, files: dict[str, str | bytes]) -> None:
    for rel, content in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(textwrap.dedent(content).lstrip("\n"), encoding="utf-8")


def _venv_package(root: Path, package: str, files: dict[str, str]) -> None:
    """A virtualenv in the project (``.venv`` with a pyvenv.cfg, where astmcp reads outside
    classes) holding ``package`` with ``files`` (paths inside the package)."""
    site = root / ".venv" / "lib" / "python3.11" / "site-packages" / package
    site.mkdir(parents=True)
    (root / ".venv" / "pyvenv.cfg").write_text("home = /usr/bin\n", encoding="utf-8")
    for rel, text in files.items():
        (site / rel).write_text(text, encoding="utf-8")


@pytest.fixture
def venv_package() -> Callable[[Path, str, dict[str, str]], None]:
    """Writes a package into a project's own virtualenv (see ``_venv_package``)."""
    return _venv_package


@pytest.fixture
def project(tmp_path: Path) -> Any:
    """``project({path: text})`` writes a project (text is dedented) and returns a :class:`Project`."""
    made: list[Project] = []

    def make(files: dict[str, str | bytes]) -> Project:
        root = tmp_path / f"proj{len(made)}"
        root.mkdir()
        write_tree(root, files)
        state = tmp_path / f"state{len(made)}"
        p = Project(root.resolve(), state)
        made.append(p)
        return p

    yield make
    for p in made:
        p.workspaces.close()


Make = Callable[[dict[str, str | bytes]], Project]
