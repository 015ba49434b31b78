"""Data-driven reference resolution: fixture projects under tests/fixtures/python/refs/<case>/.

Expectations live in the fixture sources as trailing comments:

    self.engine.run()  # -> Engine.run, engine -> Car.engine
    x.close()          # ?> File.close

``[word[#n]] -> <selector>`` says that the n-th ``word`` on the line (default: the
symbol's own name, first occurrence) is a certain/likely reference of the
selector (``<file>::<path>``, or a path in the same file); ``?>`` a name hit.
``# check: <selector>`` adds a selector that must have no references besides
its declaration. Each selector's found set must equal the marked set exactly
(declarations included implicitly).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from markers import Expected, expectations

from astmcp.query.common import SymbolTarget, resolve_symbol
from astmcp.query.references import collect_references
from astmcp.workspace import Workspace

CASES = Path(__file__).parents[1] / "fixtures" / "python" / "refs"


def _expectations(root: Path) -> tuple[Expected, Expected]:
    return expectations(root, root.rglob("*.py*"), "#", r"\w")


def _cases() -> list[tuple[str, str]]:
    out = []
    for case in sorted(p for p in CASES.iterdir() if p.is_dir()):
        sure, names = _expectations(case)
        out.extend((case.name, selector) for selector in sorted(set(sure) | set(names)))
    return out


@pytest.fixture(scope="module")
def workspaces(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Workspace]:
    opened: dict[str, Workspace] = {}
    base = tmp_path_factory.mktemp("refs")
    for case in sorted(p for p in CASES.iterdir() if p.is_dir()):
        shutil.copytree(case, base / case.name)
        opened[case.name] = Workspace(base / case.name)
    yield opened  # type: ignore[misc]
    for ws in opened.values():
        ws.index.close()


@pytest.mark.parametrize(("case", "selector"), _cases())
def test_references_match_the_marked_occurrences(
    workspaces: dict[str, Workspace], case: str, selector: str
) -> None:
    ws = workspaces[case]
    conn = ws.db()
    symbol = resolve_symbol(ws, conn, SymbolTarget(selector=selector))
    sure, names = _expectations(CASES / case)
    refs = collect_references(ws, conn, symbol)
    found_sure = {(r.file, r.line, r.column) for r in refs if r.confidence != "name"}
    found_names = {(r.file, r.line, r.column) for r in refs if r.confidence == "name"}
    declarations = {(r.file, r.line, r.column) for r in refs if r.is_declaration}
    assert declarations, "the declaration is always listed"
    assert found_sure == sure[selector] | declarations
    assert found_names == names[selector]
