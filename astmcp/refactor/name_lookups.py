"""Python: code that finds members by a name it computes, where the renamed name changes the answer.

- Prefix and suffix tests (``[m for m in dir(self) if m.startswith("check_")]``,
  ``name.endswith("_handler")``): renaming ``check_disk`` to ``disk_ok`` silently drops it from
  what the test selects (or adds one). Each such string is an uncertain hit when the old and the
  new name answer the test differently.
- Enum members looked up by a computed name (``Color[s.upper()]``, ``getattr(Color, s)``,
  ``Color.__members__``): data names the member, so renaming it breaks the lookup. Each lookup in a
  file that uses the enum is an uncertain hit.

Neither is ever edited: the names are in data, not code.
"""

from __future__ import annotations

import ast
import re
import sqlite3

from astmcp.errors import AstmcpError
from astmcp.query.common import SymbolRow, query_symbols
from astmcp.refactor.prepare import load_file
from astmcp.refactor.pyscopes import FileScopes
from astmcp.refactor.rename_refs import Hit
from astmcp.workspace import Workspace

__all__ = ["lookup_hits"]

_AFFIX_TEST = re.compile(r"""\.(startswith|endswith)\(\s*(?:['"])([\w]+)['"]\s*\)""")
_ENUM_BASES = re.compile(r"\b(?:Enum|IntEnum|StrEnum|Flag|IntFlag)\b")


def lookup_hits(
    ws: Workspace, conn: sqlite3.Connection, row: SymbolRow, new: str, hits: list[Hit]
) -> list[Hit]:
    """Uncertain hits where a computed lookup's answer changes with the rename (Python): affix
    tests in the files the rename touches (where `dir(self)`-style discovery of the renamed member
    is), enum lookups in the files that use the enum."""
    if not row.file.endswith((".py", ".pyi")):
        return []
    touched = sorted({h.file for h in hits if h.file.endswith(".py")} | {row.file})
    return _affix_hits(ws, touched, row.name, new) + _enum_hits(ws, conn, row)


def _affix_hits(ws: Workspace, paths: list[str], old: str, new: str) -> list[Hit]:
    out: list[Hit] = []
    for path in paths:
        try:
            text = load_file(ws, path).source.text
        except (OSError, AstmcpError):
            continue
        if "startswith(" not in text and "endswith(" not in text:
            continue
        for number, line in enumerate(text.split("\n"), 1):
            for match in _AFFIX_TEST.finditer(line):
                test, affix = match.group(1), match.group(2)
                if len(affix) < 3 or not affix.strip("_") or ("_" not in affix and len(affix) < 4):
                    continue  # `startswith("_")`, `endswith("s")`: not a name's part
                before = old.startswith(affix) if test == "startswith" else old.endswith(affix)
                after = new.startswith(affix) if test == "startswith" else new.endswith(affix)
                if before != after:
                    column = match.start(2)
                    note = f"`{test}({affix!r})` selects names by their text: the new name answers it differently"
                    out.append(
                        Hit(path, number, column, column + len(affix) + 2, "string", "name", note=note)
                    )
    return out


def _enum_hits(ws: Workspace, conn: sqlite3.Connection, row: SymbolRow) -> list[Hit]:
    if row.kind not in ("attribute", "variable") or not row.parent_path:
        return []
    owners = query_symbols(
        conn, "f.path = ? AND s.symbol_path = ? AND s.kind = 'class'", (row.file, row.parent_path)
    )
    if not owners or not _ENUM_BASES.search(owners[0].signature):
        return []
    enum = owners[0]
    paths = {
        str(path)
        for (path,) in conn.execute(
            "SELECT DISTINCT f.path FROM refs r JOIN files f ON f.id = r.file_id WHERE r.symbol_id = ?",
            (enum.id,),
        )
    } | {enum.file}
    out: list[Hit] = []
    for path in sorted(p for p in paths if p.endswith(".py")):
        try:
            scopes = FileScopes(load_file(ws, path).source.text)
        except (OSError, SyntaxError, ValueError, AstmcpError):
            continue
        for node in ast.walk(scopes.tree):
            found = _computed_lookup(node, enum.name)
            if found is not None:
                column = scopes.column_of(found.lineno, found.col_offset)
                note = f"{enum.name}'s members are looked up by a name computed at run time here"
                out.append(
                    Hit(path, found.lineno, column, column + len(enum.name), "string", "name", note=note)
                )
    return out


def _names(node: ast.expr, name: str) -> bool:
    return (isinstance(node, ast.Name) and node.id == name) or (
        isinstance(node, ast.Attribute) and node.attr == name
    )


def _computed_lookup(node: ast.AST, name: str) -> ast.expr | None:
    """The enum's name in ``Enum[expr]``, ``getattr(Enum, expr…)`` or ``Enum.__members__``."""
    if (
        isinstance(node, ast.Subscript)
        and _names(node.value, name)
        and not isinstance(node.slice, ast.Constant)
    ):
        return node.value
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "getattr"
        and len(node.args) >= 2
        and _names(node.args[0], name)
        and not isinstance(node.args[1], ast.Constant)
    ):
        return node.args[0]
    if isinstance(node, ast.Attribute) and node.attr == "__members__" and _names(node.value, name):
        return node.value
    return None
