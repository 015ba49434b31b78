"""TS/JS: classes whose base is only known at run time, or that no symbol stands for, which may
override a renamed member.

``function Loud(B) { return class extends B { render() { … } } }`` and ``class Sub extends
Loud(Base) { render() { … } }``: the class extends a function's parameter or whatever a call
returns, so its ``render`` may override any class's ``render`` (``Loud(Base)`` makes it
``Base``'s). The index links no base there, so the member is no family member: renaming
``Base.render`` alone would silently stop the override. Each same-named member of such a class is
an uncertain hit of kind ``override``, as a Python class with an unknown base.
"""

from __future__ import annotations

import sqlite3

import tree_sitter

from astmcp.query.common import SymbolRow
from astmcp.refactor.rename_refs import Hit
from astmcp.refactor.ts_literals import TsFiles, captures
from astmcp.refactor.ts_outside_values import FUNCTION_NODES
from astmcp.refactor.tsscopes import TsFile, _pattern_names

__all__ = ["mixin_hits"]

_MEMBER_KINDS = ("method", "property", "getter", "setter")
_CLASSES = ("class", "class_declaration", "abstract_class_declaration")
_MEMBERS = frozenset(
    {"method_definition", "field_definition", "public_field_definition", "abstract_method_signature"}
)


def mixin_hits(
    files: TsFiles, conn: sqlite3.Connection, row: SymbolRow, known: set[tuple[str, int, int]]
) -> list[Hit]:
    """Override hits on members named like ``row`` in classes extending a parameter or a call."""
    if row.kind not in _MEMBER_KINDS or not row.parent_path or row.file.endswith((".py", ".pyi")):
        return []
    out: list[Hit] = []
    for path, ts in files.holding(conn, row.name):
        if "extends" not in ts.text:
            continue
        for cls in _classes(ts):
            if not (_unknown_base(cls) or _unindexed(cls)):
                continue
            for name in _member_names(cls, row.name):
                line, column = name.start_point[0] + 1, ts.column_of(name)
                if (path, line, column) not in known:
                    out.append(Hit(path, line, column, column + len(row.name), "override", "name"))
    return out


def _classes(ts: TsFile) -> list[tree_sitter.Node]:
    """Classes with a heritage clause (TypeScript's grammar has abstract ones too)."""
    found = captures(ts, "[(class (class_heritage)) (class_declaration (class_heritage))] @c", "c")
    return found + captures(ts, "(abstract_class_declaration (class_heritage)) @c", "c")


def _unindexed(cls: tree_sitter.Node) -> bool:
    """Whether ``cls`` is a class expression with a base that no symbol stands for (``new (class
    extends User {…})()``, ``register(class extends Plugin {…})``, ``return class extends User
    {…}``): its members are linked to no family (``const K = class …`` is a symbol)."""
    if cls.type != "class" or not any(c.type == "class_heritage" for c in cls.named_children):
        return False
    holder = cls.parent
    while holder is not None and holder.type in ("parenthesized_expression", "as_expression"):
        holder = holder.parent
    return holder is None or holder.type not in ("variable_declarator", "export_statement")


def _unknown_base(cls: tree_sitter.Node) -> bool:
    """Whether the class extends a call's result or a parameter of a function around it."""
    heritage = next((c for c in cls.named_children if c.type == "class_heritage"), None)
    if heritage is None:
        return False
    clause = next((c for c in heritage.named_children if c.type == "extends_clause"), None)
    base = clause.child_by_field_name("value") if clause is not None else None
    if base is None:  # JavaScript: the expression itself
        base = next((c for c in heritage.named_children if c.type != "implements_clause"), None)
    while base is not None and base.type in (
        "parenthesized_expression",
        "as_expression",
        "non_null_expression",
    ):
        base = base.named_children[0] if base.named_children else None
    if base is None:
        return False
    if base.type == "call_expression":
        return True
    if base.type != "identifier":
        return False
    name = (base.text or b"").decode("utf-8")
    holder = cls.parent
    while holder is not None:
        if holder.type in FUNCTION_NODES:
            params: set[str] = set()
            _pattern_names(holder.child_by_field_name("parameters"), params)
            _pattern_names(holder.child_by_field_name("parameter"), params)
            if name in params:
                return True
        holder = holder.parent
    return False


def _member_names(cls: tree_sitter.Node, name: str) -> list[tree_sitter.Node]:
    body = cls.child_by_field_name("body")
    found = []
    for member in body.named_children if body is not None else []:
        if member.type not in _MEMBERS:
            continue
        key = member.child_by_field_name("name") or member.child_by_field_name("property")
        if (
            key is not None
            and key.type == "property_identifier"
            and (key.text or b"").decode("utf-8") == name
        ):
            found.append(key)
    return found
