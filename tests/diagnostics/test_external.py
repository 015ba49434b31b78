"""The project's own checkers run on an overlay copy: mypy from the project's
virtualenv, tsc from its node_modules (installed here into a test-owned cache)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from astmcp.diagnostics.delta import diagnostics_delta

TESTS_CACHE = Path(__file__).resolve().parents[1] / ".cache" / "diagnostics-npm"
MYPY = Path(sys.executable).parent / "mypy"
PACKAGES = ("typescript@6.0.3", "pyright@1.1.414")


def snapshot(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in root.rglob("*")
        if p.is_file()
        and ".astmcp" not in p.parts
        and ".venv" not in p.parts
        and "node_modules" not in p.parts
    }


@pytest.fixture
def mypy_project(tmp_path: Path, caller: Any) -> Any:
    if not MYPY.is_file():
        pytest.skip("mypy is not installed next to this interpreter")
    root = tmp_path / "typed"
    (root / "pkg").mkdir(parents=True)
    (root / ".venv" / "bin").mkdir(parents=True)
    os.symlink(MYPY, root / ".venv" / "bin" / "mypy")
    (root / ".astmcp.toml").write_text('diagnostics = ["builtin", "mypy"]\n', encoding="utf-8")
    (root / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    (root / "pkg" / "m.py").write_text(
        'count: int = "three"\n\n\ndef ok() -> int:\n    return 1\n', encoding="utf-8"
    )
    return caller(root)


def test_mypy_results_are_reported_with_their_own_source_and_code(mypy_project: Any) -> None:
    before = snapshot(mypy_project.root)
    out = mypy_project("ast_get_diagnostics")
    [diag] = [d for d in out["diagnostics"] if d["source"] == "mypy"]
    assert (diag["file"], diag["line"], diag["code"], diag["severity"]) == (
        "pkg/m.py",
        1,
        "assignment",
        "error",
    )
    assert diag["symbol"] == "pkg/m.py::count"
    assert snapshot(mypy_project.root) == before  # no cache or output left in the project


def test_mypy_delta_sees_errors_a_post_image_adds_and_fixes(mypy_project: Any) -> None:
    mypy_project("ast_list_files")
    ws = mypy_project.workspaces.get(None)
    image = 'count: int = 3\n\n\ndef ok() -> int:\n    return "one"\n'
    result = diagnostics_delta(ws, {"pkg/m.py": image})
    assert [(d["source"], d["code"], d["line"]) for d in result.added] == [("mypy", "return-value", 5)]
    assert [(d["source"], d["code"]) for d in result.removed] == [("mypy", "assignment")]
    assert result.added_errors == 1
    assert (mypy_project.root / "pkg" / "m.py").read_text(encoding="utf-8").startswith('count: int = "three"')


def test_a_configured_checker_the_project_lacks_is_skipped(tmp_path: Path, caller: Any) -> None:
    root = tmp_path / "plain"
    root.mkdir()
    (root / ".astmcp.toml").write_text('diagnostics = ["builtin", "tsc"]\n', encoding="utf-8")
    (root / "a.ts").write_text("export const a: number = 'x';\n", encoding="utf-8")
    out = caller(root)("ast_get_diagnostics")
    assert out["diagnostics"] == []


@pytest.fixture(scope="module")
def npm_bin() -> Path:
    """typescript and pyright from npm, installed once into a cache this test suite owns."""
    folder = TESTS_CACHE / "node_modules"
    if not all((folder / ".bin" / name).exists() for name in ("tsc", "pyright")):
        npm = shutil.which("npm")
        if npm is None:
            pytest.skip("npm is not available")
        TESTS_CACHE.mkdir(parents=True, exist_ok=True)
        done = subprocess.run(
            [npm, "install", "--no-save", "--no-audit", "--no-fund", "--prefix", str(TESTS_CACHE), *PACKAGES],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        if done.returncode != 0 or not (folder / ".bin" / "pyright").exists():
            pytest.skip(f"could not install typescript and pyright: {done.stderr[-300:]}")
    return folder


def test_tsc_runs_from_the_projects_node_modules_on_an_overlay(
    tmp_path: Path, caller: Any, npm_bin: Path
) -> None:
    root = tmp_path / "web"
    (root / "src").mkdir(parents=True)
    os.symlink(npm_bin, root / "node_modules")
    (root / ".astmcp.toml").write_text('diagnostics = ["builtin", "tsc"]\n', encoding="utf-8")
    (root / "tsconfig.json").write_text(
        '{"compilerOptions": {"strict": true, "noEmit": true, "types": []}, "include": ["src"]}\n',
        encoding="utf-8",
    )
    (root / "src" / "a.ts").write_text("export const a: number = 1;\n", encoding="utf-8")
    (root / "src" / "b.ts").write_text(
        'import { a } from "./a";\nexport const b: string = a;\n', encoding="utf-8"
    )
    project = caller(root)
    before = snapshot(root)
    out = project("ast_get_diagnostics")
    [diag] = [d for d in out["diagnostics"] if d["source"] == "tsc"]
    assert (diag["file"], diag["code"], diag["line"]) == ("src/b.ts", "TS2322", 2)
    result = diagnostics_delta(project.workspaces.get(None), {"src/a.ts": 'export const a: string = "1";\n'})
    assert [(d["source"], d["code"], d["file"]) for d in result.removed] == [("tsc", "TS2322", "src/b.ts")]
    assert result.added == []
    assert snapshot(root) == before


def test_an_unchanged_tree_reuses_the_checkers_baseline_until_a_file_changes(mypy_project: Any) -> None:
    mypy_project("ast_get_diagnostics")
    conn = mypy_project.workspaces.get(None).index.conn
    [(key,)] = conn.execute("SELECT key FROM diag_external").fetchall()
    sentinel = '[["pkg/m.py", ["cached", "warning", 2, 1, "from the cache", "mypy", null]]]'
    conn.execute("UPDATE diag_external SET results = ? WHERE key = ?", (sentinel, key))
    cached = [d["code"] for d in mypy_project("ast_get_diagnostics")["diagnostics"] if d["source"] == "mypy"]
    assert cached == ["cached"]
    (mypy_project.root / "pkg" / "m.py").write_text('count: int = "four"\n', encoding="utf-8")
    fresh = [d["code"] for d in mypy_project("ast_get_diagnostics")["diagnostics"] if d["source"] == "mypy"]
    assert fresh == ["assignment"]


def test_pyright_from_the_projects_virtualenv_reports_its_rules(
    tmp_path: Path, caller: Any, npm_bin: Path
) -> None:
    root = tmp_path / "typed"
    (root / "pkg").mkdir(parents=True)
    (root / ".venv" / "bin").mkdir(parents=True)
    os.symlink(npm_bin / ".bin" / "pyright", root / ".venv" / "bin" / "pyright")
    (root / ".astmcp.toml").write_text('diagnostics = ["builtin", "pyright"]\n', encoding="utf-8")
    (root / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    (root / "pkg" / "m.py").write_text('count: int = "three"\n', encoding="utf-8")
    project = caller(root)
    before = snapshot(root)
    [diag] = [d for d in project("ast_get_diagnostics")["diagnostics"] if d["source"] == "pyright"]
    assert (diag["file"], diag["line"], diag["column"], diag["code"]) == (
        "pkg/m.py",
        1,
        14,
        "reportAssignmentType",
    )
    assert "\n" not in diag["message"]
    result = diagnostics_delta(project.workspaces.get(None), {"pkg/m.py": "count: int = 3\n"})
    assert [(d["source"], d["code"]) for d in result.removed] == [("pyright", "reportAssignmentType")]
    assert snapshot(root) == before
