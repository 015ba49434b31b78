"""TS/JS names in strings (SPEC §3): which words of a string literal become name-hit rows."""

from __future__ import annotations

import tree_sitter_typescript as tst
from tree_sitter import Language, Parser

from astmcp.resolve.ts_facts import analyze

_PARSER = Parser(Language(tst.language_typescript()))


def _string_rows(text: str) -> list[tuple[str, int, int]]:
    out = analyze("m.ts", text, _PARSER.parse(text.encode()))
    return [(name, line, col) for name, line, col, _end, kind, _t, _o in out["refs"] if kind == "string"]


def test_a_whole_identifier_string_is_a_hit_and_prose_words_are_not() -> None:
    rows = _string_rows('export const a = "size";\nexport const b = "the size of it";\n')
    assert rows == [("size", 1, 19)]


def test_code_words_inside_longer_strings() -> None:
    text = "export const t = `run box.size() and parseAsync with max_len`;\n"
    assert sorted(r[0] for r in _string_rows(text)) == ["max_len", "parseAsync", "size"]


def test_module_specifiers_and_paths_are_not_names() -> None:
    text = (
        'export const m = import("./parseUtil.js");\n'
        'const r = require("lodash_es");\n'
        'export const p = "../helpers/parseUtil.ts";\n'
    )
    assert _string_rows(text) == []


def test_a_huge_string_is_not_scanned_for_words() -> None:
    blob = "x_y " * 10_000  # an embedded bundle: no names, and no quadratic work
    text = f'export const bundle = "{blob}";\nexport const k = "x_y";\n'
    assert _string_rows(text) == [("x_y", 2, 19)]


def test_columns_count_code_points_after_non_ascii_text() -> None:
    text = 'export const s = "héllo wörld my_name";\n'
    assert _string_rows(text) == [("my_name", 1, 31)]


def test_identifier_rule_is_the_same_for_ascii_and_unicode_text() -> None:
    """``is_ident`` takes a regex shortcut for ASCII text; it must agree with the character rule
    (first a letter, ``_`` or ``$``; then letters, digits, ``_``, ``$``) on every short ASCII string."""
    from astmcp.resolve.ts_fact_state import is_ident

    def by_characters(text: str) -> bool:
        return (
            bool(text)
            and (text[0].isalpha() or text[0] in "_$")
            and all(c.isalnum() or c in "_$" for c in text)
        )

    ascii_chars = [chr(i) for i in range(128)]
    for first in ascii_chars:
        for second in ["", *ascii_chars]:
            assert is_ident(first + second) == by_characters(first + second), repr(first + second)
    assert is_ident("") is False
    assert is_ident("x\n") is False  # a trailing newline is no part of an identifier
    assert is_ident("größe") and is_ident("_ä1") and not is_ident("1ä") and not is_ident("ä-b")
