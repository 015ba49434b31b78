"""NAME_COLLISION: a rename must not clash with, capture, or be captured by another binding.

Checked per touched file: every scope between a reference and the binding it
means (the new name must be free there), every use of the new name that the
renamed binding would capture, class members of each family class, and
public names of re-exporting modules.
"""

from __future__ import annotations

import re
import sqlite3
from typing import Any, Protocol

from astmcp.errors import NameCollision
from astmcp.model import PYTHON
from astmcp.query.common import SymbolRow, query_symbols
from astmcp.refactor.identifiers import language_of
from astmcp.refactor.pyscopes import BUILTINS, FileScopes, Scope, resolve
from astmcp.refactor.tsscopes import TsFile

_MEMBER_KINDS = {"method", "property", "attribute", "getter", "setter", "enum_member", "constructor"}


class Located(Protocol):
    line: int
    column: int
    kind: str


def _clash(new: str, where: str, details: dict[str, Any]) -> NameCollision:
    return NameCollision(f"renaming to {new!r} would clash: {where}", {"new_name": new, **details})


def check(
    conn: sqlite3.Connection,
    family: list[SymbolRow],
    files: dict[str, tuple[str, list[Any]]],
    old: str,
    new: str,
) -> None:
    _members(conn, family, new)
    word = re.compile(rf"(?<![\w$]){re.escape(new)}(?![\w$])")
    for path, (text, hits) in sorted(files.items()):
        if not word.search(text):
            continue  # the new name is nowhere in this file: nothing to clash with or capture
        if language_of(path) == PYTHON:
            _python(path, text, hits, old, new)
        elif language_of(path) is not None:  # (a configuration file has no scopes)
            _typescript(path, text, hits, old, new)


def ts_file(path: str, text: str) -> TsFile | None:
    return None if language_of(path) in (PYTHON, None) else TsFile(path, text)


def _members(conn: sqlite3.Connection, family: list[SymbolRow], new: str) -> None:
    """A member renamed to a name its class (or a class it inherits from) already has."""
    for member in family:
        if member.kind not in _MEMBER_KINDS or member.parent_path is None:
            continue
        rows = query_symbols(
            conn, "f.path = ? AND s.parent_path = ? AND s.name = ?", (member.file, member.parent_path, new)
        )
        rows += _inherited(conn, member, new)
        if rows:
            clash = rows[0]
            raise _clash(
                new,
                f"{clash.selector} ({clash.kind}) already exists as a member of {member.parent_path}",
                {"clash": clash.selector, "file": clash.file, "line": clash.line},
            )


def _inherited(conn: sqlite3.Connection, member: SymbolRow, new: str) -> list[SymbolRow]:
    """Members named ``new`` in the member's ancestors and descendants (both would now override)."""
    classes = query_symbols(conn, "f.path = ? AND s.symbol_path = ?", (member.file, member.parent_path))
    out: list[SymbolRow] = []
    for upward in (True, False):
        seen: set[int] = set()
        queue = [c.id for c in classes]
        while queue:
            class_id = queue.pop()
            sql = (
                "SELECT dst_symbol_id FROM edges WHERE src_symbol_id = ? AND kind = 'inherits'"
                " AND dst_symbol_id IS NOT NULL"
                if upward
                else "SELECT src_symbol_id FROM edges WHERE dst_symbol_id = ? AND kind = 'inherits'"
                " AND src_symbol_id IS NOT NULL"
            )
            for (related,) in conn.execute(sql, (class_id,)):
                if related in seen:
                    continue
                seen.add(related)
                queue.append(related)
                for row in query_symbols(conn, "s.id = ?", (related,)):
                    out += query_symbols(
                        conn,
                        "f.path = ? AND s.parent_path = ? AND s.name = ?",
                        (row.file, row.symbol_path, new),
                    )
    return out


# -- Python ---------------------------------------------------------------------------
def _python(path: str, text: str, hits: list[Any], old: str, new: str) -> None:
    scopes = FileScopes(text)
    bindings: list[Scope] = []
    for hit in hits:
        occ = scopes.occurrences.get((hit.line, hit.column))
        if occ is None or occ.role in ("attr", "kwarg"):
            continue  # strings, attributes, keyword arguments: members are checked by the index
        binding = resolve(occ.scope, old) or scopes.module
        for scope in occ.scope.visible_parents():
            if new in scope.binds and new not in scope.globals:
                raise _clash(
                    new,
                    f"{new!r} is already bound in {scope.describe()} of {path} (line {scope.binds[new]})",
                    {"file": path, "line": scope.binds[new]},
                )
            if scope is binding:
                break
        if binding not in bindings:
            bindings.append(binding)
    for binding in bindings:
        _captures(path, scopes, binding, new)


def _captures(path: str, scopes: FileScopes, binding: Scope, new: str) -> None:
    """Uses of ``new`` that today mean something outside ``binding`` but would then mean it."""
    for occ in scopes.occurrences.values():
        if occ.name != new or occ.role not in ("use", "bind") or not occ.scope.is_within(binding):
            continue
        if binding not in occ.scope.visible_parents():
            continue
        target = resolve(occ.scope, new)
        if target is None or not target.is_within(binding):
            meaning = "the builtin" if new in BUILTINS and target is None else "an outer binding"
            raise _clash(
                new,
                f"the use of {new!r} at {path}:{occ.line} means {meaning} and would be captured",
                {"file": path, "line": occ.line, "column": occ.column},
            )


# -- TypeScript / JavaScript ----------------------------------------------------------
def _typescript(path: str, text: str, hits: list[Any], old: str, new: str) -> None:
    ts = TsFile(path, text)
    exports_clause = False
    declaring: list[Any] = []
    for hit in hits:
        node = ts.node_at(hit.line, hit.column)
        if node is None or node.type in ("property_identifier", "string_fragment", "string"):
            continue
        if node.parent is not None and node.parent.type == "export_specifier":
            exports_clause = exports_clause or node.parent.child_by_field_name("alias") is None
        for scope in ts.chain(node):
            if new in ts.declared(scope):
                row = scope.start_point[0] + 1
                raise _clash(
                    new,
                    f"{new!r} is already declared in the {scope.type} at {path}:{row}",
                    {"file": path, "line": row},
                )
            if old in ts.declared(scope):
                if scope.id not in [d.id for d in declaring]:
                    declaring.append(scope)
                break
    if exports_clause and new in ts.exported_names():
        raise _clash(new, f"{path} already exports a name {new!r}", {"file": path})
    for scope in declaring:
        for use in ts.identifiers(scope, new):
            inner = ts.chain(use)
            between = inner[: next((i for i, s in enumerate(inner) if s.id == scope.id), len(inner))]
            if not any(new in ts.declared(s) for s in between):
                row = use.start_point[0] + 1
                raise _clash(
                    new,
                    f"the use of {new!r} at {path}:{row} would be captured by the renamed declaration",
                    {"file": path, "line": row},
                )
