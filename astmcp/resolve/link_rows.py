"""Row maintenance both linkers share: pointing stored rows at re-parsed symbols, dropping
the fact-table indexes around a bulk re-link, and reading a file's stored module facts."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

_ID_COLUMNS = (("refs", "symbol_id"), ("edges", "src_symbol_id"), ("edges", "dst_symbol_id"))


def remap_symbol_ids(conn: sqlite3.Connection, id_map: list[tuple[int, int]]) -> None:
    """Point what other files resolved into a re-parsed file of the same shape at its new ids."""
    pairs = [(old, new) for old, new in id_map if old != new]
    if not pairs:
        return
    conn.execute(
        "CREATE TEMP TABLE IF NOT EXISTS symbol_remap (old INTEGER PRIMARY KEY, new INTEGER NOT NULL)"
    )
    conn.execute("DELETE FROM symbol_remap")
    conn.executemany("INSERT OR REPLACE INTO symbol_remap(old, new) VALUES (?, ?)", pairs)
    for table, column in _ID_COLUMNS:
        conn.execute(
            f"UPDATE {table} SET {column} = (SELECT new FROM symbol_remap WHERE old = {table}.{column})"
            f" WHERE {column} IN (SELECT old FROM symbol_remap)"
        )
    conn.execute("DELETE FROM symbol_remap")


def drop_indexes(conn: sqlite3.Connection) -> list[str]:
    """Drop the indexes of refs, edges and link_deps (a bulk insert is faster without them);
    returns their SQL to create them again."""
    rows = conn.execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('refs', 'edges', 'link_deps')"
        " AND sql IS NOT NULL"
    ).fetchall()
    for name, _ in rows:
        conn.execute(f'DROP INDEX "{name}"')
    return [sql for _, sql in rows]


def cached_facts(
    conn: sqlite3.Connection,
    cache: dict[str, dict[str, Any]],
    fresh: dict[str, dict[str, Any]],
    path: str,
) -> dict[str, Any]:
    """A file's module facts: this refresh's (``fresh``), else the stored ones, memoised in ``cache``."""
    found = cache.get(path)
    if found is None:
        found = fresh.get(path)
        if found is None:
            row = conn.execute("SELECT data FROM module_facts WHERE path = ?", (path,)).fetchone()
            found = json.loads(row[0]) if row else {}
        cache[path] = found
    return found
