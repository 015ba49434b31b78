"""TS/JS block-scoped redeclarations: what engines reject, not what TypeScript merges."""

from __future__ import annotations

import textwrap

from astmcp.diagnostics import ts_checks
from astmcp.lang import parse_text


def duplicates(source: str, path: str = "m.ts", language: str = "typescript") -> list[tuple[int, str]]:
    text = textwrap.dedent(source)
    tree, _facts = parse_text(path, language, text)
    assert tree is not None
    return [(d.line, d.message) for d in ts_checks.analyze(path, text, tree)]


def test_let_const_and_class_redeclared_in_one_scope_are_errors() -> None:
    found = duplicates(
        """
        export const a = 1, { b, c: d, ...rest } = source;
        let a = 2;
        class K {}
        function K() {}
        switch (x) { case 1: let q = 1; break; default: let q = 2; }
        const [first, , second = 2] = list;
        let second = 3;
        """
    )
    assert found == [
        (3, "cannot redeclare block-scoped name 'a'"),
        (5, "cannot redeclare block-scoped name 'K'"),
        (6, "cannot redeclare block-scoped name 'q'"),
        (8, "cannot redeclare block-scoped name 'second'"),
    ]


def test_shadowing_merging_overloads_and_var_stay_quiet() -> None:
    assert not duplicates(
        """
        const a = 1;
        { const a = 2; }
        for (let i = 0; i < 3; i++) { let i = 5; }
        class Merged {}
        interface Merged { extra: number }
        namespace NS { export const a = 1; }
        function over(x: string): void;
        function over(x?: string) {}
        var v = 1;
        var v = 2;
        type T = string;
        const T = 1;
        declare module "m" { const a: number; }
        const { key: renamed } = { key: 1 };
        const key = 2;
        """
    )


def test_javascript_files_use_the_same_rule() -> None:
    found = duplicates("let x = 1;\nfunction f() { const y = 1; let y = 2; }\n", "m.js", "javascript")
    assert found == [(2, "cannot redeclare block-scoped name 'y'")]
