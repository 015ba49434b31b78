"""TS/JS test blocks: ``describe``/``it``/``test`` calls as graph-only test nodes.

The analyzer (in the parse worker, test files only) finds calls whose callee is
one of the test functions of jest, vitest, mocha, jasmine, node:test or
playwright, possibly through modifiers (``test.each(table)``, ``it.only``,
``describe.skip``, ``test.concurrent.each```…```, ``test.describe``), whose first
argument is a string or template literal and which pass a callback. Each becomes
a block ``(names, kind, signature, span)``; ``names`` is the chain of names from
the outermost ``describe`` down. ``bench`` and ``it.todo`` (no body) are not tests.

The linker stores the blocks in ``test_blocks`` with a selector
``<file>::"outer" > "inner"`` (each name JSON-quoted, ``@LINE`` appended when the
chain repeats in the file): no symbol path starts with a quote, so a block
selector never collides with a symbol's. Blocks are not symbols (no outline,
search, references or rename); what a block exercises follows at query time from
the references inside its span (:mod:`astmcp.query.graph_tests`).
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from collections.abc import Callable
from typing import Any

from tree_sitter import Language, Node, Query, QueryCursor, Tree

from astmcp.index.indexer import Changes
from astmcp.lang.ts_parse import TsSource
from astmcp.model import JAVASCRIPT, TYPESCRIPT
from astmcp.resolve.typescript import is_test_file

__all__ = ["NAME", "analyze", "block_selector", "make_linker"]

NAME = "ts_tests"

_SUITES = frozenset({"describe", "suite", "context", "fdescribe", "xdescribe"})
_TESTS = frozenset({"it", "test", "specify", "fit", "xit", "xtest"})
# Modifiers between the base name and the call: `test.skip.each(t)("…", fn)`; `describe` makes
# a suite of playwright's `test.describe(…)`.
_MODIFIERS = frozenset(
    {
        "each", "only", "skip", "todo", "concurrent", "sequential", "fails", "skipIf", "runIf",
        "for", "failing", "describe", "serial", "parallel", "fixme", "slow", "shuffle",
    }
)  # fmt: skip
_CALLBACKS = frozenset({"arrow_function", "function_expression", "function", "generator_function"})
_STRINGS = frozenset({"string", "template_string"})

# calls whose first argument is a string or template literal (C-side; the rest is checked in Python)
_CALLS_WITH_A_NAME = "(call_expression arguments: (arguments . [(string) (template_string)])) @call"
_queries: dict[int, Query] = {}

# (names from the outermost block, kind "suite"/"test", signature, line, col, end_line, end_col)
Block = tuple[list[str], str, str, int, int, int, int]


def analyze(path: str, text: str, tree: Tree) -> list[Block]:
    """The test blocks of a test file, outermost first (an empty list elsewhere)."""
    if not is_test_file(path):
        return []
    src = TsSource.of(text, tree)
    calls = QueryCursor(_query(tree.language)).captures(tree.root_node).get("call", [])
    blocks: list[Block] = []
    open_blocks: list[tuple[int, str]] = []  # (end byte, name) of the blocks around the current one
    for node in sorted(calls, key=lambda n: (n.start_byte, -n.end_byte)):
        found = _block(src, node)
        if found is None:
            continue
        while open_blocks and open_blocks[-1][0] <= node.start_byte:
            open_blocks.pop()
        kind, callee, name = found
        open_blocks.append((node.end_byte, name))
        span = src.span(node)
        signature = f"{callee}({json.dumps(name, ensure_ascii=False)})"
        names = [n for _, n in open_blocks]
        blocks.append((names, kind, signature, span.line, span.column, span.end_line, span.end_column))
    return blocks


def _query(language: Language) -> Query:
    key = id(language)
    query = _queries.get(key)
    if query is None:
        query = _queries[key] = Query(language, _CALLS_WITH_A_NAME)
    return query


def _block(src: TsSource, call: Node) -> tuple[str, str, str] | None:
    """(kind, callee as written without arguments, name) of a test-block call, else None."""
    callee = call.child_by_field_name("function")
    args = call.child_by_field_name("arguments")
    if callee is None or args is None or args.type != "arguments":
        return None
    while callee.type == "call_expression":  # test.each(table)(…), test.skipIf(cond)(…)
        inner = callee.child_by_field_name("function")
        if inner is None:
            return None
        callee = inner
    props: list[str] = []
    head = callee
    while head.type == "member_expression":
        prop = head.child_by_field_name("property")
        obj = head.child_by_field_name("object")
        if prop is None or obj is None:
            return None
        props.append(src.text_of(prop))
        head = obj
    if head.type != "identifier":
        return None
    base = src.text_of(head)
    if base not in _SUITES and base not in _TESTS:
        return None
    if any(p not in _MODIFIERS for p in props) or "todo" in props:
        return None
    values = [a for a in args.named_children if a.type != "comment"]
    if len(values) < 2 or values[0].type not in _STRINGS:
        return None
    if not any(v.type in _CALLBACKS for v in values[1:]):
        return None
    kind = "suite" if base in _SUITES or "describe" in props else "test"
    written = ".".join([base, *reversed(props)])
    literal = src.text_of(values[0])
    return kind, written, literal[1:-1]


def block_selector(path: str, names: list[str], line: int, repeated: bool) -> str:
    """``<file>::"outer" > "inner"`` (``@LINE`` when the chain repeats in the file)."""
    chain = " > ".join(json.dumps(n, ensure_ascii=False) for n in names)
    return f"{path}::{chain}" + (f"@{line}" if repeated else "")


class BlockLinker:
    """Writes the changed files' blocks; the indexer removed their old rows with the file."""

    def __call__(self, conn: sqlite3.Connection, changes: Changes) -> None:
        rows: list[tuple[Any, ...]] = []
        for path, facts in changes.facts.items():
            blocks: list[Block] | None = facts.extra.get(NAME)
            if facts.language not in (TYPESCRIPT, JAVASCRIPT) or not blocks:
                continue
            found = conn.execute("SELECT id FROM files WHERE path = ?", (path,)).fetchone()
            if found is None:
                continue
            counts = Counter(tuple(b[0]) for b in blocks)
            for names, kind, signature, line, col, end_line, end_col in blocks:
                rows.append(
                    (
                        found[0],
                        block_selector(path, names, line, counts[tuple(names)] > 1),
                        names[-1],
                        json.dumps(names, ensure_ascii=False),
                        kind,
                        signature,
                        line,
                        col,
                        end_line,
                        end_col,
                    )
                )
        conn.executemany(
            "INSERT INTO test_blocks(file_id, selector, name, names, kind, signature, line, col, end_line,"
            " end_col) VALUES (?,?,?,?,?,?,?,?,?,?)",
            rows,
        )


def make_linker() -> Callable[[sqlite3.Connection, Changes], None]:
    return BlockLinker()
