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
from dataclasses import replace

from astmcp.query.common import SymbolRow, query_symbols
from astmcp.query.parameter_calls import PythonFiles
from astmcp.query.parameters import function_node
from astmcp.refactor.collisions import related_classes
from astmcp.refactor.rename_refs import Hit
from astmcp.resolve.python_lookups import VALUED, alternatives
from astmcp.resolve.python_resolver import Resolver as PythonResolver
from astmcp.workspace import Workspace

__all__ = ["unbound_call_hits", "unbound_callee_reads"]

_MEMBER_KINDS = ("attribute", "property", "method", "variable")


def unbound_call_hits(
    ws: Workspace, conn: sqlite3.Connection, row: SymbolRow, family: list[SymbolRow]
) -> list[Hit]:
    if row.kind not in _MEMBER_KINDS or not row.parent_path or not row.file.endswith(".py"):
        return []
    own, related = related_classes(conn, row)
    classes = own | related
    files = PythonFiles(ws)
    receivers = _Receivers(conn)
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
            me = _self_parameter(node) if node is not None else None
            if node is None or me is None:
                continue
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
                    "SELECT r.symbol_id, r.target_key FROM refs r JOIN files f ON f.id = r.file_id"
                    " WHERE f.path = ? AND r.line = ? AND r.col = ? AND r.symbol_id IS NOT NULL LIMIT 1",
                    (cls.file, line, column),
                ).fetchone()
                if target is None or target[0] in seen or receivers.bound(cls.file, target[1]):
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


def unbound_callee_reads(
    ws: Workspace, conn: sqlite3.Connection, row: SymbolRow, hits: list[Hit]
) -> list[Hit]:
    """``hits`` with the ``self.<name>`` reads of the member's own class's methods made uncertain
    where another class calls such a method unbound on its instances (``Float._new(self, result)``
    inside ``Integer``): there ``self`` is that class's instance, whose attribute of the name keeps
    it (tomlkit's ``Float._sign``, renamed in ``Float._new`` while ``Integer`` kept its ``_sign``:
    seed 303)."""
    if row.kind not in _MEMBER_KINDS or not row.parent_path or not row.file.endswith(".py"):
        return hits
    own, related = related_classes(conn, row)
    classes = own | related
    marks = ",".join("?" * len(classes))
    methods = {
        m.id: m
        for m in query_symbols(
            conn,
            f"s.kind = 'method' AND s.parent_path IS NOT NULL AND EXISTS (SELECT 1 FROM symbols c"
            f" WHERE c.id IN ({marks}) AND c.file_id = s.file_id AND c.symbol_path = s.parent_path)",
            tuple(sorted(classes)),
        )
    }
    if not methods:
        return hits
    files = PythonFiles(ws)
    receivers = _Receivers(conn)
    called: dict[int, str] = {}  # method id -> a class calling it unbound on its own instance
    for method_id, path, line, target in conn.execute(
        f"SELECT r.symbol_id, f.path, r.line, r.target_key FROM refs r JOIN files f ON f.id = r.file_id"
        f" WHERE r.symbol_id IN ({','.join('?' * len(methods))}) AND r.kind = 'call'",
        tuple(methods),
    ):
        if method_id in called or receivers.bound(path, target):
            continue
        caller = _unbound_caller(files, conn, path, line, methods[method_id].name, classes)
        if caller is not None:
            called[method_id] = caller
    if not called:
        return hits
    shared: dict[tuple[str, int, int], str] = {}
    for method_id, caller in called.items():
        for read in _self_reads(files, conn, method_id, set(), row.name, caller):
            shared[(read.file, read.line, read.column)] = read.note
    return [
        replace(h, confidence="name", note=shared[key])
        if (key := (h.file, h.line, h.column)) in shared and h.confidence in ("certain", "likely")
        else h
        for h in hits
    ]


def _unbound_caller(
    files: PythonFiles, conn: sqlite3.Connection, path: str, line: int, name: str, classes: set[int]
) -> str | None:
    """The class whose method, at ``line`` of ``path``, calls ``X.<name>(self, …)`` on its own
    instance, when that class is none of ``classes``; else None."""
    parsed = files.get(path)
    if parsed is None:
        return None
    for cls in ast.walk(parsed.scopes.tree):
        if not isinstance(cls, ast.ClassDef) or not cls.lineno <= line <= (cls.end_lineno or cls.lineno):
            continue
        for node in cls.body:
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            me = _self_parameter(node)
            if me is None or not node.lineno <= line <= (node.end_lineno or node.lineno):
                continue
            for call in ast.walk(node):
                if (
                    isinstance(call, ast.Call)
                    and isinstance(call.func, ast.Attribute)
                    and call.func.attr == name
                    and isinstance(call.func.value, ast.Name | ast.Attribute)
                    and call.args
                    and isinstance(call.args[0], ast.Name)
                    and call.args[0].id == me
                    and (call.func.end_lineno or call.func.lineno) == line
                ):
                    found = query_symbols(
                        conn, "f.path = ? AND s.name = ? AND s.kind = 'class'", (path, cls.name)
                    )
                    if found and not any(c.id in classes for c in found):
                        return cls.name
    return None


def _self_parameter(node: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
    """The parameter a method's instance (or a classmethod's class) is given as; None for a
    ``staticmethod``, whose first parameter is a plain argument (mistune's test helper
    ``def parse(text): …; md.parse(text)`` calls nothing unbound)."""
    static = any(
        (isinstance(d, ast.Name) and d.id == "staticmethod")
        or (isinstance(d, ast.Attribute) and d.attr == "staticmethod")
        for d in node.decorator_list
    )
    return None if static or not node.args.args else node.args.args[0].arg


class _Receivers:
    """Whether a method call's receiver is an instance (``md.registerExtension(self)`` of a
    parameter ``md: Markdown``: a bound call, handing ``self`` on as a plain argument), from the
    call's stored chain; a class, or a receiver not known, may be an unbound call."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.resolver = PythonResolver(conn, {})

    def bound(self, path: str, target: str | None) -> bool:
        head, sep, _ = (target or "").rpartition("/")
        if not sep or not head:
            return False
        found = self.resolver.resolve(path, head)
        if found is not None and found[0] == "s" and len(found) == 2:
            # `self.loader.load(self, name)`: what the attribute holds (`loader: BaseLoader | None`)
            held = self.resolver.syms.get(found[1])
            if held is not None and held.kind in VALUED:
                found = self.resolver.value_of(held)
        return found is not None and all(alt is not None and alt[0] == "i" for alt in alternatives(found))
