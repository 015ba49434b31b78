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


def _test_file_rows(text: str) -> list[tuple[str, int, int]]:
    out = analyze("m.test.ts", text, _PARSER.parse(text.encode()))
    return [(name, line, col) for name, line, col, _end, kind, _t, _o in out["refs"] if kind == "string"]


def test_test_titles_of_a_runner_or_a_global_are_inert_but_other_strings_are_not() -> None:
    text = (
        'import { test, describe as group } from "vitest";\n'
        'test("size", () => {});\n'
        'group.skip("size", () => {});\n'
        "test.each([1])(`size ${box.max_len}`, () => {});\n"
        'it.only("size", () => {});\n'
        'describe.skipIf(c)("size", () => {});\n'
        'test.concurrent.each([1])("size", () => {});\n'
        'test("title", () => { expect(x).toBe("size"); });\n'
        'test(name, "size");\n'
        'export const a = "size";\n'
    )
    # the template's substitution is still code: `box.max_len` is an attribute, no string hit
    assert _test_file_rows(text) == [("size", 8, 39), ("size", 9, 13), ("size", 10, 19)]


def test_a_test_function_of_the_project_keeps_its_title_hits() -> None:
    declared_after = 'test("size");\nfunction test(name: string) {}\n'
    imported = 'import { test } from "./registry";\ntest("size");\n'
    local = 'function f(it: (k: string) => void) {\n  it("size");\n}\n'
    not_a_modifier = 'test.register("size");\n'
    assert _test_file_rows(declared_after) == [("size", 1, 7)]
    assert _test_file_rows(imported) == [("size", 2, 7)]
    assert _test_file_rows(local) == [("size", 2, 7)]
    assert _test_file_rows(not_a_modifier) == [("size", 1, 16)]


def test_literals_compared_with_typeof_are_inert() -> None:
    text = (
        'if (typeof x === "string") {}\n'
        'if ("object" !== typeof (y)) {}\n'
        'switch (typeof y) { case "number": break; }\n'
        'switch (y) { case "number": break; }\n'
        'if (x.kind === "string") {}\n'
    )
    assert _string_rows(text) == [("number", 4, 20), ("string", 5, 17)]


def test_builtin_error_messages_and_console_arguments_are_inert_unless_shadowed() -> None:
    text = (
        'throw new Error("size");\n'
        'throw TypeError("size" + x);\n'
        'new AggregateError(["size"], "size");\n'
        'console.log("size", `size ${z.max_len}`);\n'
        'throw new Error(String("size"));\n'
    )
    # AggregateError's message is its second argument; a string inside another call is no message
    assert _string_rows(text) == [("size", 3, 22), ("size", 5, 25)]
    shadowed = (
        'throw new Error("size");\n'
        "class Error {}\n"
        'function f(console: { log(k: string): void }) {\n  console.log("size");\n}\n'
    )
    assert _string_rows(shadowed) == [("size", 1, 18), ("size", 4, 16)]


def _string_targets(text: str) -> list[tuple[str, int, int, str | None]]:
    out = analyze("m.ts", text, _PARSER.parse(text.encode()))
    return [(name, line, col, t) for name, line, col, _end, kind, t, _o in out["refs"] if kind == "string"]


def test_a_string_naming_a_member_of_an_object_is_that_member() -> None:
    """``"k" in x``, ``Reflect.get(x, "k")``, ``x.hasOwnProperty("k")`` read member k as ``x["k"]``
    does, as probes (the linker takes only a project type's member); an untyped x keeps the name hit
    (no chain), and so does a local ``Reflect``."""
    text = (
        "export class Box { size = 1; }\n"
        "export function f(b: Box, u) {\n"
        '  return "size" in b || Reflect.get(b, "size") || b.hasOwnProperty("size") || "size" in u;\n'
        "}\n"
        "export function g(b: Box) {\n"
        "  const Reflect = { get: (o: unknown, k: string) => k };\n"
        '  return Reflect.get(b, "size");\n'
        "}\n"
    )
    probe = "P:1:14|:|!size"  # an instance of Box, member size probed (any key is allowed there)
    assert _string_targets(text) == [
        ("size", 3, 11, probe),
        ("size", 3, 41, probe),
        ("size", 3, 69, probe),
        ("size", 3, 80, None),
        # given for the local function's `k: string` (no `keyof`): the linker finds no member there
        ("size", 7, 26, "L:6:19|get|&1/7:21|=size"),
    ]
