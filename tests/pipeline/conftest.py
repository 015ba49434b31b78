"""Helpers for pipeline tests: small generated projects and the real ``ast-tool``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

AST_TOOL = Path(sys.executable).parent / "ast-tool"


@pytest.fixture
def tiny_project(tmp_path: Path) -> Callable[[int], Path]:
    """``tiny_project(n)``: a project of ``n`` one-function modules ``m000.py`` … (``f`` in each)."""

    def make(count: int) -> Path:
        root = tmp_path / f"proj{count}"
        root.mkdir()
        for i in range(count):
            (root / f"m{i:03d}.py").write_text(f"def f():\n    return {i}\n", encoding="utf-8")
        return root

    return make


@dataclass(frozen=True)
class Completed:
    code: int
    stdout: str
    stderr: str

    def ok(self) -> dict[str, Any]:
        assert self.code == 0, self.stderr
        assert self.stderr == ""
        value: dict[str, Any] = json.loads(self.stdout)
        return value

    def error(self, exit_code: int) -> dict[str, Any]:
        assert self.code == exit_code, (self.code, self.stdout, self.stderr)
        assert self.stdout == ""
        lines = self.stderr.strip().splitlines()
        value: dict[str, Any] = json.loads(lines[-1])
        assert value["status"] == "error"
        return value


@pytest.fixture
def ast_tool(tmp_path: Path) -> Callable[..., Completed]:
    """Run the installed ``ast-tool`` next to sys.executable; plans go to a private temp state dir."""
    state = tmp_path / "state"

    def run(*args: str, stdin: str | bytes | None = None, cwd: Path | None = None) -> Completed:
        env = dict(os.environ, AST_TOOL_STATE_DIR=str(state))
        data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
        proc = subprocess.run(
            [str(AST_TOOL), *args], input=data, capture_output=True, cwd=cwd or tmp_path, env=env, check=False
        )
        return Completed(proc.returncode, proc.stdout.decode("utf-8"), proc.stderr.decode("utf-8"))

    return run


@pytest.fixture
def write_doc(tmp_path: Path) -> Callable[..., Path]:
    """Write a pipeline document (a dict or raw text) and return its path."""
    counter = iter(range(10_000))

    def write(doc: Any, directory: Path | None = None) -> Path:
        folder = directory or tmp_path
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"pipeline{next(counter)}.json"
        if isinstance(doc, bytes):
            path.write_bytes(doc)
        else:
            path.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
        return path

    return write
