"""The written-out types ``ts_structural`` reads to tell whether one type may be used as another."""

from __future__ import annotations

import sqlite3

import pytest

from astmcp.refactor.ts_structural import _Types, union_parts


@pytest.mark.parametrize(
    ("declared", "parts"),
    [
        ("Context | null", ("Context", "null")),
        ("Map<string, A | B> | undefined", ("Map<string, A | B>", "undefined")),
        ("(a: A | null) => B | C", ("(a: A | null) => B | C",)),
        ("X | ((a: A) => B) | null", ("X", "((a: A) => B)", "null")),
        ("| { a: A | null } | []", ("{ a: A | null }", "[]")),
        ('"a|b" | T', ('"a|b"', "T")),
        ("Record<string, (x: X) => Y>", ("Record<string, (x: X) => Y>",)),
    ],
)
def test_union_parts_split_at_the_top_level_only(declared: str, parts: tuple[str, ...]) -> None:
    assert union_parts(declared) == parts


@pytest.mark.parametrize("declared", ["{ a: A", "Map<string, A", "(a: A", "A>", "", "() => { a: A"])
def test_a_type_cut_short_has_no_parts(declared: str) -> None:
    assert union_parts(declared) is None


@pytest.fixture
def types() -> _Types:
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE symbols (name TEXT, kind TEXT)")
    rows = [
        ("Context", "interface"),
        ("Node", "class"),
        ("Kind", "enum"),
        ("Maybe", "type"),
        ("Both", "class"),
    ]
    conn.executemany("INSERT INTO symbols VALUES (?, ?)", [*rows, ("Both", "type")])
    return _Types(conn)


@pytest.mark.parametrize(
    "part",
    [
        *("Context", "Node<T>", "ns.Kind", "string", "Date", "3", '"a"', "Context[]", "[A, B]", "{ a: A }"),
        *("(a: A) => B | null", "new () => Node", "(Context | Node)", "readonly Node[]", "Record<string, X>"),
    ],
)
def test_closed_types_never_hold_null(types: _Types, part: str) -> None:
    assert types.closed(part, frozenset({"T"}))


@pytest.mark.parametrize(
    "part",
    [
        *("T", "Maybe", "Both", "Outside", "Context['parent']", "(Context | null)", "typeof x", "A & B"),
        *("{ [K in keyof T]: T[K] }", "keyof Context"),
    ],
)
def test_other_types_may_hold_null(types: _Types, part: str) -> None:
    assert not types.closed(part, frozenset({"T"}))
