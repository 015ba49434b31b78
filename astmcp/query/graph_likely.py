"""``likely`` graph edges: untyped-receiver member uses of the project's only member of a name.

The index stores such occurrences as ``name`` hits (``target_key`` NULL or ``?<chain>``); whether one
is ``likely`` depends on every symbol of the project, so it is decided when asked,
with the rule ``ast_find_references`` applies (:func:`astmcp.query.references.single_candidate`):
an edge is ``likely`` exactly when find_references lists the
occurrence as a ``likely`` reference of the edge's target, except in TypeScript files, where
references hold no ``likely`` ones (a rename must not guess) and the graph keeps the edge as a hint.
"""

from __future__ import annotations

import sqlite3

from astmcp.query.common import SymbolRow, query_symbols
from astmcp.query.references import _MEMBER_KINDS, FamilyMemo, single_candidate

__all__ = ["EDGE_KIND", "Likely", "is_python"]

EDGE_KIND = {"call": "calls", "import": "imports", "export": "imports", "inherit": "inherits"}
_MEMBER_MARKS = ",".join("?" * len(_MEMBER_KINDS))


def is_python(path: str) -> bool:
    return path.endswith((".py", ".pyi"))


class Likely:
    """Single-candidate decisions for one request, memoised by symbol and by name."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self._single: dict[int, bool] = {}
        self._by_name: dict[tuple[str, bool], SymbolRow | None] = {}
        self.memo = FamilyMemo(conn)

    def single(self, symbol: SymbolRow) -> bool:
        """Whether untyped ``.name`` uses are ``likely`` references of ``symbol``."""
        if symbol.id not in self._single:
            if symbol.id < 0 or symbol.kind not in _MEMBER_KINDS:
                self._single[symbol.id] = False
            else:
                self._single[symbol.id] = single_candidate(self.conn, symbol, self.memo)
        return self._single[symbol.id]

    def target(self, name: str, python: bool) -> SymbolRow | None:
        """The member an untyped ``.name`` in a file of that language family likely means."""
        key = (name, python)
        if key not in self._by_name:
            found = None
            rows = query_symbols(
                self.conn,
                f"s.name_lower = ? AND s.name = ? AND s.kind IN ({_MEMBER_MARKS}) ORDER BY f.path, s.line LIMIT 1",
                (name.lower(), name, *_MEMBER_KINDS),
            )
            if rows and is_python(rows[0].file) == python and self.single(rows[0]):
                found = rows[0]
            self._by_name[key] = found
        return self._by_name[key]

    def uses_of(self, symbol: SymbolRow) -> list[tuple[int, str, int, int, str, str | None]]:
        """(file id, file path, line, col, kind, scope_path) of the occurrences that are likely
        references of ``symbol`` (none unless it is the single candidate)."""
        if not self.single(symbol):
            return []
        languages = ("python", "python") if is_python(symbol.file) else ("typescript", "javascript")
        return list(
            self.conn.execute(
                "SELECT r.file_id, f.path, r.line, r.col, r.kind, r.scope_path FROM refs r"
                " JOIN files f ON f.id = r.file_id WHERE r.name = ? AND r.confidence = 'name'"
                " AND (r.target_key IS NULL OR r.target_key LIKE '?%') AND r.kind != 'string'"
                " AND f.language IN (?, ?)"
                " ORDER BY r.line",
                (symbol.name, *languages),
            )
        )

    def uses_in(self, symbol: SymbolRow) -> list[tuple[str, str, int]]:
        """(name, kind, line) of the untyped member uses in ``symbol``'s own scope."""
        scope = symbol.symbol_path if is_python(symbol.file) else f"{symbol.name_line}:{symbol.name_col}"
        return list(
            self.conn.execute(
                "SELECT r.name, r.kind, r.line FROM refs r JOIN symbols s ON s.file_id = r.file_id"
                " WHERE s.id = ? AND r.scope_path = ? AND r.confidence = 'name'"
                " AND (r.target_key IS NULL OR r.target_key LIKE '?%') AND r.kind != 'string' ORDER BY r.line",
                (symbol.id, scope),
            )
        )
