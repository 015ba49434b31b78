"""Expected references written as trailing comments in fixture sources (both languages).

``[word[#n]] -> <selector>``: the n-th ``word`` on the line (default: the symbol's own name,
first occurrence) is a certain/likely reference of the selector (``<file>::<path>`` or a path
in the same file); ``?>`` marks a name hit. ``<comment> check: <selector>`` adds a selector
that must have no references besides its declaration.
"""

from __future__ import annotations

import re
import shutil
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from astmcp.query.common import SymbolTarget, resolve_symbol
from astmcp.query.references import collect_references
from astmcp.workspace import Workspace

Position = tuple[str, int, int]
Expected = dict[str, set[Position]]

_MARK = re.compile(r"^\s*(?:(?P<word>\w+)(?:#(?P<nth>\d+))?\s+)?(?P<arrow>->|\?>)\s*(?P<selector>\S+)\s*$")


def expectations(
    root: Path, files: Iterable[Path], comment: str, word_chars: str = r"\w"
) -> tuple[Expected, Expected]:
    """(certain/likely, name hits) per selector, from the markers in ``files`` under ``root``."""
    sure: Expected = defaultdict(set)
    names: Expected = defaultdict(set)
    check = f"{comment} check: "
    trailing = f"  {comment} "
    for file in sorted(files):
        rel = file.relative_to(root).as_posix()
        for number, line in enumerate(file.read_text(encoding="utf-8").splitlines(), 1):
            if line.startswith(check):
                selector = line[len(check) :].strip()
                sure[selector if "::" in selector else f"{rel}::{selector}"]
                continue
            at = line.find(trailing)
            if at < 0:
                continue
            code, note = line[:at], line[at + len(trailing) :]
            if "->" not in note and "?>" not in note:
                continue
            for part in note.split(","):
                match = _MARK.match(part)
                assert match, f"{rel}:{number}: bad marker {part!r}"
                selector = match["selector"]
                if "::" not in selector:
                    selector = f"{rel}::{selector}"
                word = match["word"] or selector.rsplit("::", 1)[1].rsplit(".", 1)[-1]
                nth = int(match["nth"] or 1)
                pattern = rf"(?<![{word_chars}]){re.escape(word)}(?![{word_chars}])"
                hits = [m.start() for m in re.finditer(pattern, code)]
                assert len(hits) >= nth, f"{rel}:{number}: no occurrence {nth} of {word!r}"
                target = sure if match["arrow"] == "->" else names
                target[selector].add((rel, number, hits[nth - 1] + 1))
    return sure, names


Expect = Callable[[Path], tuple[Expected, Expected]]


def marked_cases(cases: Path, expect: Expect) -> list[tuple[str, str]]:
    """(case folder, selector) for every selector marked in every fixture project under ``cases``."""
    out = []
    for case in sorted(p for p in cases.iterdir() if p.is_dir()):
        sure, names = expect(case)
        out.extend((case.name, selector) for selector in sorted(set(sure) | set(names)))
    return out


def open_cases(cases: Path, base: Path) -> Iterator[dict[str, Workspace]]:
    """A workspace per fixture project, on copies under ``base`` (the index writes beside them)."""
    opened: dict[str, Workspace] = {}
    for case in sorted(p for p in cases.iterdir() if p.is_dir()):
        shutil.copytree(case, base / case.name)
        opened[case.name] = Workspace(base / case.name)
    yield opened
    for ws in opened.values():
        ws.index.close()


def assert_marked_references(ws: Workspace, case: Path, selector: str, expect: Expect) -> None:
    """The selector's certain/likely references and its name hits are exactly the marked ones."""
    conn = ws.db()
    symbol = resolve_symbol(ws, conn, SymbolTarget(selector=selector))
    sure, names = expect(case)
    refs = collect_references(ws, conn, symbol)
    found_sure = {(r.file, r.line, r.column) for r in refs if r.confidence != "name"}
    found_names = {(r.file, r.line, r.column) for r in refs if r.confidence == "name"}
    declarations = {(r.file, r.line, r.column) for r in refs if r.is_declaration}
    assert declarations, "the declaration is always listed"
    assert found_sure == sure[selector] | declarations
    assert found_names == names[selector]
