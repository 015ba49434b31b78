"""Python: methods of another class called unbound on an instance (``Float._new(self, result)``
inside ``Integer``).

The called method's ``self`` is then an instance of the calling class, whatever its own class is:
its ``self.attr`` reads read the caller's attributes as well (tomlkit's ``Float._new`` reads
``self._sign`` of an ``Integer``). Renaming the caller's attribute leaves those reads behind with
no error until they run, so each is an uncertain hit.
"""

from __future__ import annotations

import ast
import sqlite3

from astmcp.query.common import SymbolRow, query_symbols
from astmcp.query.parameter_calls import PythonFiles
from astmcp.query.parameters import function_node
from astmcp.refactor.collisions import related_classes
from astmcp.refactor.rename_refs import Hit
from astmcp.workspace import Workspace

__all__ = ["unbound_call_hits"]

_MEMBER_KINDS = ("attribute", "property", "method", "variable")


def unbound_call_hits(
    ws: Workspace, conn: sqlite3.Connection, row: SymbolRow, family: list[SymbolRow]
) -> list[Hit]:
    if row.kind not in _MEMBER_KINDS or not row.parent_path or not row.file.endswith(".py"):
        return []
    own, related = related_classes(conn, row)
    classes = own | related
    files = PythonFiles(ws)
    out: list[Hit] = []
    seen: set[int] = set()
    for cls in query_symbols(conn, f"s.id IN ({','.join('?' * len(classes))})", tuple(sorted(classes))):
        parsed = files.get(cls.file)
        if parsed is None:
            continue
        for method in query_symbols(
            conn, "f.path = ? AND s.parent_path = ? AND s.kind = 'method'", (cls.file, cls.symbol_path)
        ):
            node = function_node(parsed.scopes.tree, method)
            if node is None or not node.args.args:
                continue
            me = node.args.args[0].arg
            for call in ast.walk(node):
                if not (
                    isinstance(call, ast.Call)
                    and isinstance(call.func, ast.Attribute)
                    and isinstance(call.func.value, ast.Name | ast.Attribute)
                    and call.args
                    and isinstance(call.args[0], ast.Name)
                    and call.args[0].id == me
                ):
                    continue
                line = call.func.end_lineno or call.func.lineno
                column = parsed.scopes.column_of(line, (call.func.end_col_offset or 0) - len(call.func.attr))
                target = conn.execute(
                    "SELECT r.symbol_id FROM refs r JOIN files f ON f.id = r.file_id WHERE f.path = ?"
                    " AND r.line = ? AND r.col = ? AND r.symbol_id IS NOT NULL LIMIT 1",
                    (cls.file, line, column),
                ).fetchone()
                if target is None or target[0] in seen:
                    continue
                seen.add(target[0])
                out += _self_reads(files, conn, int(target[0]), classes, row.name, cls.name)
    return out


def _self_reads(
    files: PythonFiles, conn: sqlite3.Connection, method_id: int, classes: set[int], name: str, caller: str
) -> list[Hit]:
    """The ``self.<name>`` reads of the method ``method_id`` when it belongs to a class other
    than ``classes`` (then ``self`` may be the caller's instance)."""
    found = query_symbols(conn, "s.id = ?", (method_id,))
    if not found or found[0].kind != "method" or not found[0].parent_path:
        return []
    method = found[0]
    owner = query_symbols(conn, "f.path = ? AND s.symbol_path = ?", (method.file, method.parent_path))
    if not owner or owner[0].id in classes:
        return []
    parsed = files.get(method.file)
    node = function_node(parsed.scopes.tree, method) if parsed is not None else None
    if parsed is None or node is None or not node.args.args:
        return []
    me = node.args.args[0].arg
    out: list[Hit] = []
    for read in ast.walk(node):
        if isinstance(read, ast.Attribute) and read.attr == name and isinstance(read.value, ast.Name):
            if read.value.id != me:
                continue
            line = read.end_lineno or read.lineno
            column = parsed.scopes.column_of(line, (read.end_col_offset or 0) - len(name))
            note = f"{method.parent_path}.{method.name} is called unbound on a {caller} instance: its self may be one"
            out.append(Hit(method.file, line, column, column + len(name), "attribute", "name", note=note))
    return out
