"""Project objects outside code holds and calls members of (Python).

``response.json_module = app.json`` puts the project's JSON provider into an attribute werkzeug's
``Response`` declares, and werkzeug calls ``self.json_module.loads(…)``: renaming the provider's
``loads`` breaks it, though no project code names the call. The linker records such stores
(``py_values`` rows ``<class key>`` → ``!<outside class>.<attribute>``, see
:mod:`astmcp.resolve.python_values`); a member of a family whose class is stored so, and which the
outside class reads off that attribute, is a member outside the project: the rename is refused.
"""

from __future__ import annotations

import sqlite3

from astmcp.query.common import SymbolRow
from astmcp.resolve.python_external import held_member_reads

__all__ = ["outside_reads"]


def outside_reads(conn: sqlite3.Connection, row: SymbolRow, members: list[SymbolRow]) -> list[str]:
    """``<outside class>.<attribute>.<name>`` for each outside attribute holding an instance of a
    class of the family ``members`` (or of one deriving from one of them) whose outside class
    reads ``row``'s name off it."""
    classes = {f"{m.file}::{m.parent_path}" for m in members if m.parent_path}
    if not classes:
        return []
    found: list[str] = []
    for target, value in conn.execute(
        "SELECT DISTINCT target, value FROM py_values WHERE value LIKE '!%' ORDER BY target, value"
    ):
        if not _inherits_member(conn, target, classes):
            continue
        owner, _, attribute = str(value)[1:].rpartition(".")
        if row.name in held_member_reads(owner, attribute):
            found.append(f"{owner}.{attribute}.{row.name}")
    return found


def _inherits_member(conn: sqlite3.Connection, target: str, classes: set[str]) -> bool:
    """Whether the class ``target`` (``<path>::<symbol path>``) is one of ``classes`` or derives
    from one (through the index's inherits edges)."""
    seen: set[str] = set()
    todo = [target]
    while todo:
        key = todo.pop()
        if key in classes:
            return True
        if key in seen or len(seen) > 64:
            continue
        seen.add(key)
        path, _, symbol_path = key.partition("::")
        for base_path, base_symbol in conn.execute(
            "SELECT bf.path, b.symbol_path FROM symbols s JOIN files f ON f.id = s.file_id"
            " JOIN edges e ON e.src_symbol_id = s.id AND e.kind = 'inherits'"
            " JOIN symbols b ON b.id = e.dst_symbol_id JOIN files bf ON bf.id = b.file_id"
            " WHERE f.path = ? AND s.symbol_path = ?",
            (path, symbol_path),
        ):
            todo.append(f"{base_path}::{base_symbol}")
    return False
