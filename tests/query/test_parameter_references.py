"""``ast_find_references`` on parameter selectors (``<file>::<function>.<param>``), from marked
fixtures under tests/fixtures/python/params/<case>/ (markers as in tests/resolve/markers.py)."""

from __future__ import annotations

import sys
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
