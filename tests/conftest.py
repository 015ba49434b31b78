"""Shared test helpers: fixture projects copied to a temp dir, and tool calls."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from astmcp.tools import ToolResult, call_tool
from astmcp.workspace import Workspaces

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def fixture_project(tmp_path: Path) -> Callable[[str], Path]:
    """Copy ``tests/fixtures/<name>`` into a temp dir and return its root."""

    def copy(name: str) -> Path:
        target = tmp_path / name.replace("/", "_")
        shutil.copytree(FIXTURES / name, target)
        return target

    return copy


class Caller:
    """Calls tools through the same boundary the MCP server and batch runner use."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.workspaces = Workspaces(root)

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

    def close(self) -> None:
        self.workspaces.close()


@pytest.fixture
def caller() -> Any:
    """``caller(root)`` gives a :class:`Caller`; all are closed after the test."""
    made: list[Caller] = []

    def make(root: Path) -> Caller:
        c = Caller(root)
        made.append(c)
        return c

    yield make
    for c in made:
        c.close()
