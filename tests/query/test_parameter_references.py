"""``ast_find_references`` on parameter selectors (``<file>::<function>.<param>``), from marked
fixtures under tests/fixtures/python/params/<case>/ (markers as in tests/resolve/markers.py)."""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "resolve"))
from markers import expectations

CASES = Path(__file__).parents[1] / "fixtures" / "python" / "params"


def _cases() -> list[tuple[str, str]]:
    out = []
    for case in sorted(p for p in CASES.iterdir() if p.is_dir()):
        sure, names = expectations(case, case.rglob("*.py"), "#")
        out.extend((case.name, selector) for selector in sorted(set(sure) | set(names)))
    return out


@pytest.mark.parametrize(("case", "selector"), _cases())
def test_parameter_references_match_the_marked_occurrences(
    fixture_project: Callable[[str], Path], caller: Any, case: str, selector: str
) -> None:
    root = fixture_project(f"python/params/{case}")
    sure, names = expectations(root, root.rglob("*.py"), "#")
    out = caller(root)("ast_find_references", selector=selector)
    assert out["symbol"] == selector
    refs = out["references"]
    found_sure = {(r["file"], r["line"], r["column"]) for r in refs if r["confidence"] != "name"}
    found_names = {(r["file"], r["line"], r["column"]) for r in refs if r["confidence"] == "name"}
    declarations = {(r["file"], r["line"], r["column"]) for r in refs if r["is_declaration"]}
    assert declarations, "the parameter's declaration is always listed"
    assert found_sure == sure[selector] | declarations
    assert found_names == names[selector]


def _write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return root


def test_a_call_passing_a_mapping_is_an_uncertain_reference_of_the_parameter(
    tmp_path: Path, caller: Any
) -> None:
    root = _write(tmp_path, {"m.py": "def f(host):\n    return host\n\n\nf(**{'host': 1})\nf(host=2)\n"})
    out = caller(root)("ast_find_references", selector="m.py::f.host")
    assert out["reference_count"] == 3 and out["uncertain_count"] == 1
    unpacked = out["references"][-1]
    assert (unpacked["line"], unpacked["column"], unpacked["kind"], unpacked["confidence"]) == (
        5,
        3,
        "call",
        "name",
    )


def test_a_missing_parameter_suggests_the_function_parameters(tmp_path: Path, caller: Any) -> None:
    root = _write(tmp_path, {"m.py": "def f(count, other):\n    return count\n"})
    error = caller(root).error("ast_find_references", selector="m.py::f.cout")
    assert error["code"] == "NOT_FOUND"
    assert error["details"]["suggestions"] == ["m.py::f.count"]


def test_a_real_symbol_wins_over_a_parameter_of_the_same_path(tmp_path: Path, caller: Any) -> None:
    root = _write(
        tmp_path, {"m.py": "def outer(inner):\n    def inner():\n        return 1\n    return inner()\n"}
    )
    out = caller(root)("ast_find_references", selector="m.py::outer.inner")
    assert out["symbol"] == "m.py::outer.inner"
    assert out["references"][0]["line"] == 2  # the def, not the parameter on line 1


def test_typescript_parameters_have_their_lexical_uses(tmp_path: Path, caller: Any) -> None:
    text = """
    export function scale(values: number[], factor: number): number[] {
      const twice = (factor: number) => factor * 2;
      return values.map((v) => v * factor + twice(1));
    }
    """
    root = _write(tmp_path, {"m.ts": text})
    out = caller(root)("ast_find_references", selector="m.ts::scale.factor")
    assert [(r["line"], r["column"]) for r in out["references"]] == [(1, 41), (3, 32)]
