"""TS: member names a template literal type spells out.

``type SubscriptionEvents = { 'status:ready': …; 'status:loadingSubset': … }`` with
``const key: `status:${SubscriptionStatus}` = `status:${status}`; emit(key, …)``, where
``SubscriptionStatus`` is ``'ready' | 'loadingSubset'``: TypeScript checks each string the template
admits against the keys, so renaming the member ``'status:loadingSubset'`` leaves a string type with
no key to name (@tanstack/db seed 57 broke). A template literal type whose substitutions are all
finite sets of strings (string literal types, unions of them, aliases of those, ``Capitalize<…>``
and its kin) spells those strings; one that spells the member's name is an uncertain hit at the
template (nothing there is the name's text to edit). A substitution of ``string``, a type parameter
or anything else unread makes the template no hit: it would match names by their shape alone.

The other direction, a template over an owner's keys (`` `${keyof Options}Changed` ``) checking
strings elsewhere, is :func:`astmcp.refactor.ts_dumps.template_key_hits`.
"""

from __future__ import annotations

import sqlite3

import tree_sitter

from astmcp.query.common import SymbolRow, query_symbols
from astmcp.refactor.rename_refs import Hit
from astmcp.refactor.ts_dumps import STRING_INTRINSICS
from astmcp.refactor.ts_literals import TsFiles, captures
from astmcp.refactor.tsscopes import TsFile

__all__ = ["template_name_hits"]

_MEMBER_KINDS = ("method", "property", "getter", "setter")
_TEMPLATES = "(template_literal_type (template_type)) @t"
_MOST = 256  # strings a template may spell before it counts as unread
_DEPTH = 4  # aliases followed from one substitution
_NOTE = "a template literal type spells the name; TypeScript checks its strings against the keys"


def template_name_hits(
    files: TsFiles, conn: sqlite3.Connection, row: SymbolRow, known: set[tuple[str, int, int]]
) -> list[Hit]:
    """An uncertain hit at each template literal type whose strings include the member's name."""
    if row.kind not in _MEMBER_KINDS or row.file.endswith((".py", ".pyi")):
        return []
    out: list[Hit] = []
    spelled = _Spelled(files, conn)
    for path, ts in files.holding(conn, "${", typescript_only=True):
        for template in captures(ts, _TEMPLATES, "t"):
            strings = spelled.template(path, ts, template, 0)
            if strings is None or row.name not in strings:
                continue
            line, column = template.start_point[0] + 1, ts.column_of(template)
            if (path, line, column) not in known:
                known.add((path, line, column))
                out.append(Hit(path, line, column, column + 1, "string", "name", note=_NOTE))
    return out


class _Spelled:
    """The finite set of strings a string type admits (None: not a finite set astmcp can read)."""

    def __init__(self, files: TsFiles, conn: sqlite3.Connection) -> None:
        self.files = files
        self.conn = conn

    def template(self, path: str, ts: TsFile, node: tree_sitter.Node, depth: int) -> set[str] | None:
        spelled = {""}
        for child in node.children:
            if child.type == "string_fragment":
                parts: set[str] | None = {(child.text or b"").decode("utf-8")}
            elif child.type == "template_type":
                inner = child.named_children[0] if child.named_children else None
                parts = self.of(path, ts, inner, depth) if inner is not None else None
            else:
                continue  # the backquotes
            if parts is None or len(spelled) * len(parts) > _MOST:
                return None
            spelled = {head + tail for head in spelled for tail in parts}
        return spelled

    def of(self, path: str, ts: TsFile, node: tree_sitter.Node, depth: int) -> set[str] | None:
        if node.type == "literal_type":
            inner = node.named_children[0] if node.named_children else None
            if inner is None or inner.type != "string":
                return None
            fragments = inner.named_children
            if not fragments:
                return {""}
            return {(fragments[0].text or b"").decode("utf-8")} if len(fragments) == 1 else None
        if node.type == "template_literal_type":
            return self.template(path, ts, node, depth)
        if node.type in ("union_type", "parenthesized_type"):
            found: set[str] = set()
            for part in node.named_children:
                more = self.of(path, ts, part, depth)
                if more is None:
                    return None
                found |= more
            return found if len(found) <= _MOST else None
        if node.type == "generic_type":
            name, arguments = node.child_by_field_name("name"), node.child_by_field_name("type_arguments")
            change = STRING_INTRINSICS.get((name.text or b"").decode("utf-8")) if name is not None else None
            given = arguments.named_children if arguments is not None else []
            if change is None or len(given) != 1:
                return None
            inner_strings = self.of(path, ts, given[0], depth)
            return {change(text) for text in inner_strings} if inner_strings is not None else None
        if node.type == "type_identifier" and depth < _DEPTH:
            return self.alias(path, ts, node, depth + 1)
        return None

    def alias(self, path: str, ts: TsFile, name: tree_sitter.Node, depth: int) -> set[str] | None:
        """What the type alias ``name`` refers to (through imports: the index's reference) spells."""
        linked = self.conn.execute(
            "SELECT r.symbol_id FROM refs r JOIN files f ON f.id = r.file_id"
            " WHERE f.path = ? AND r.line = ? AND r.col = ? AND r.symbol_id IS NOT NULL LIMIT 1",
            (path, name.start_point[0] + 1, ts.column_of(name)),
        ).fetchone()
        if linked is None:
            return None
        for symbol in query_symbols(self.conn, "s.id = ? AND s.kind = 'type'", (linked[0],)):
            home = self.files.get(symbol.file)
            declared = home.node_at(symbol.name_line, symbol.name_col) if home is not None else None
            alias = declared.parent if declared is not None else None
            if home is None or alias is None or alias.type != "type_alias_declaration":
                return None
            if alias.child_by_field_name("type_parameters") is not None:
                return None
            value = alias.child_by_field_name("value")
            return self.of(symbol.file, home, value, depth) if value is not None else None
        return None
