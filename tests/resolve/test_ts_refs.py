"""Data-driven TS/JS reference resolution: fixture projects under tests/fixtures/ts/refs/<case>/.

Expectations live in the fixture sources as trailing comments:

    return this.engine.run();  // -> Engine.run, engine -> Car.engine
    x.close();                 // ?> File.close

``[word[#n]] -> <selector>`` says that the n-th ``word`` on the line (default: the
symbol's own name, first occurrence) is a certain/likely reference of the
selector (``<file>::<path>``, or a path in the same file); ``?>`` a name hit.
``// check: <selector>`` adds a selector that must have no references besides
its declaration. Each selector's found set must equal the marked set exactly
(declarations included implicitly).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from markers import Expected, assert_marked_references, expectations, marked_cases, open_cases

from astmcp.workspace import Workspace

CASES = Path(__file__).parents[1] / "fixtures" / "ts" / "refs"
_SOURCES = (".ts", ".tsx", ".js", ".jsx", ".mts", ".cts", ".mjs", ".cjs")


def _expectations(root: Path) -> tuple[Expected, Expected]:
    return expectations(root, (p for p in root.rglob("*") if p.suffix in _SOURCES), "//", r"\w$")


@pytest.fixture(scope="module")
def workspaces(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Workspace]]:
    yield from open_cases(CASES, tmp_path_factory.mktemp("tsrefs"))


@pytest.mark.parametrize(("case", "selector"), marked_cases(CASES, _expectations))
def test_ts_references_match_the_marked_occurrences(
    workspaces: dict[str, Workspace], case: str, selector: str
) -> None:
    assert_marked_references(workspaces[case], CASES / case, selector, _expectations)
