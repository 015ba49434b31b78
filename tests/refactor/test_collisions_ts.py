"""TypeScript/JavaScript rename collisions and shorthand edits, checked on the scope model directly."""

from __future__ import annotations

import sqlite3
import textwrap
from typing import Any

import pytest

from astmcp.errors import NameCollision
from astmcp.refactor import collisions
from astmcp.refactor.prepare import LoadedFile
from astmcp.refactor.rename import Hit, file_edits
from astmcp.refactor.textio import SourceText


def _hits(text: str, name: str) -> list[Hit]:
    """Every whole-word occurrence of ``name`` outside strings, as certain references."""
    import re

    out = []
    for number, line in enumerate(text.split("\n"), 1):
        for match in re.finditer(rf"(?<![\w$.\"']){name}(?![\w$\"'])", line):
            out.append(Hit("m.ts", number, match.start() + 1, match.end() + 1, "read", "certain"))
    return out


def _check(text: str, old: str, new: str) -> None:
    text = textwrap.dedent(text)
    collisions.check(sqlite3.connect(":memory:"), [], {"m.ts": (text, _hits(text, old))}, old, new)


def test_ts_block_scoped_clash_is_a_name_collision() -> None:
    with pytest.raises(NameCollision, match="already declared in the statement_block"):
        _check(
            """
            const total = 1;
            function f() {
              const sum = 2;
              return total + sum;
            }
            """,
            "total",
            "sum",
        )


def test_ts_same_new_name_in_a_sibling_block_is_no_collision() -> None:
    _check(
        """
        const total = 1;
        function f() {
          return total;
        }
        function g() {
          const sum = 2;
          return sum;
        }
        """,
        "total",
        "sum",
    )


def test_ts_rename_that_would_capture_an_outer_use_is_a_name_collision() -> None:
    with pytest.raises(NameCollision, match="would be captured"):
        _check(
            """
            function f() {
              const total = 1;
              return total + sum;
            }
            """,
            "total",
            "sum",
        )


def test_ts_import_clash_is_a_name_collision() -> None:
    with pytest.raises(NameCollision, match="program"):
        _check(
            """
            import { sum } from "./math";
            export const total = sum(1);
            """,
            "total",
            "sum",
        )


def test_ts_reexport_clash_with_an_existing_public_name_is_a_name_collision() -> None:
    with pytest.raises(NameCollision, match="already exports"):
        _check(
            """
            import { total } from "./a";
            import { other as sum2 } from "./b";
            export { total, sum2 as sum };
            """,
            "total",
            "sum",
        )


def test_ts_parameter_clash_is_a_name_collision() -> None:
    with pytest.raises(NameCollision):
        _check(
            """
            const total = 1;
            const f = (sum: number) => total + sum;
            """,
            "total",
            "sum",
        )


def _edit(text: str, old: str, new: str, member: bool) -> str:
    text = textwrap.dedent(text)
    loaded = LoadedFile("m.ts", text.encode(), SourceText.decode(text.encode(), "m.ts"), 0o644)
    ts: Any = collisions.ts_file("m.ts", text)
    return file_edits(loaded, _hits(text, old), old, new, member, ts)


def test_ts_shorthand_property_keeps_the_property_name_when_a_variable_is_renamed() -> None:
    out = _edit("const size = 1;\nexport const box = { size };\n", "size", "count", member=False)
    assert out == "const count = 1;\nexport const box = { size: count };\n"


def test_ts_shorthand_destructuring_keeps_the_local_when_a_property_is_renamed() -> None:
    out = _edit("function f(box: Box) {\n  const { size } = box;\n  return size;\n}\n", "size", "count", True)
    assert "const { count: size } = box;" in out
