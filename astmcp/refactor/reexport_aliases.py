"""TS/JS: importers that take a symbol under a public name a re-export gave it.

``export { default as Foo } from "./a"`` (or ``export { a as Foo }``) makes ``Foo`` the barrel's own
public name for the symbol. SPEC §3 keeps such names: renaming the class ``Foo`` in ``a.ts`` leaves
the barrel's alias, so the barrel's importers (``import { Foo } from "./index"``) and their uses stay
as they are, even when the alias happens to equal the symbol's name (renaming them broke the import).
"""

from __future__ import annotations

import sqlite3

from astmcp.query.common import SymbolRow
from astmcp.refactor.rename_refs import Hit

__all__ = ["through_aliases"]


def through_aliases(conn: sqlite3.Connection, row: SymbolRow, hits: list[Hit]) -> list[Hit]:
    """``hits`` without those that reach the symbol through a re-export alias of another module."""
    if row.parent_path or row.file.endswith((".py", ".pyi")):
        return hits
    aliased = {
        (str(path), str(alias))
        for path, alias in conn.execute(
            "SELECT f.path, i.alias FROM imports i JOIN files f ON f.id = i.file_id WHERE i.kind = 'reexport'"
            " AND i.alias IS NOT NULL AND i.alias != i.name AND i.alias = ?",
            (row.name,),
        )
    }
    if not aliased:
        return hits
    out: list[Hit] = []
    for hit in hits:
        if hit.file != row.file and _through(conn, hit, row.name, aliased):
            continue
        out.append(hit)
    return out


def _through(conn: sqlite3.Connection, hit: Hit, name: str, aliased: set[tuple[str, str]]) -> bool:
    """Whether the hit's row imports ``name`` from a module that re-exports it under that alias."""
    for (target,) in conn.execute(
        "SELECT r.target_key FROM refs r JOIN files f ON f.id = r.file_id WHERE f.path = ? AND r.line = ?"
        " AND r.col = ? AND r.target_key LIKE 'I:%'",
        (hit.file, hit.line, hit.column),
    ):
        imported, _, spec = str(target)[2:].partition("|")[0].partition(":")
        if imported != name:
            continue
        found = conn.execute(
            "SELECT i.resolved_path FROM imports i JOIN files f ON f.id = i.file_id WHERE f.path = ?"
            " AND i.module = ? AND i.resolved_path IS NOT NULL LIMIT 1",
            (hit.file, spec),
        ).fetchone()
        if found is not None and (str(found[0]), name) in aliased:
            return True
    return False
