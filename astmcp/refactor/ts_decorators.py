"""TS/JS: decorators are told the name of the member they decorate.

A decorator receives the member's name (``context.name`` of a standard decorator, the
``propertyKey`` of a legacy one) and libraries make it data: TypeORM's ``@Column() name`` is the
column ``name``, Angular's ``@Input() name`` the template binding, MobX and class-validator key
their bookkeeping by it, and a project's ``@logged`` may print it. Renaming the member changes
what the decorator sees, and no reference shows it. So a decorator of a renamed member is an
uncertain hit of kind ``data`` (never edited) — unless it is a project function none of whose
functions reads its second parameter (where both kinds of decorator are handed the name).
"""

from __future__ import annotations

import sqlite3

import tree_sitter

from astmcp.errors import AstmcpError
from astmcp.query.common import SymbolRow, query_symbols
from astmcp.refactor.prepare import load_file
from astmcp.refactor.rename_refs import Hit
from astmcp.refactor.ts_literals import TsFiles, captures
from astmcp.refactor.tsscopes import TsFile

__all__ = ["decorator_hits"]

_MEMBER_KINDS = ("method", "property", "getter", "setter")
_FUNCTIONS = (
    "[(function_declaration) (function_expression) (arrow_function) (method_definition)"
    " (generator_function_declaration)] @f"
)


def decorator_hits(files: TsFiles, conn: sqlite3.Connection, family: list[SymbolRow]) -> list[Hit]:
    hits: list[Hit] = []
    for member in family:
        if (
            member.kind not in _MEMBER_KINDS
            or not member.parent_path
            or member.file.endswith((".py", ".pyi"))
        ):
            continue
        ts = files.get(member.file)
        name = ts.node_at(member.name_line, member.name_col) if ts is not None else None
        if ts is None or name is None:
            continue
        for decorator in _decorators(name):
            callee = _callee(decorator)
            if callee is None or _ignores_name(files, conn, member.file, ts, callee):
                continue
            line, column = callee.start_point[0] + 1, ts.column_of(callee)
            label = (callee.text or b"").decode("utf-8")
            note = (
                f"{member.name!r} is decorated with @{label}, which is told the member's name"
                " (a library may keep it as data: a column, a binding, a key)"
            )
            hits.append(Hit(member.file, line, column, column + len(label), "data", "name", note=note))
    return hits


def _decorators(name: tree_sitter.Node) -> list[tree_sitter.Node]:
    """The decorators of the class member whose name is ``name``: a field's are its children, a
    method's the ``decorator`` siblings right before it."""
    member = name.parent
    if member is None or member.type not in (
        "method_definition",
        "public_field_definition",
        "field_definition",
        "abstract_method_signature",
    ):
        return []
    found = [c for c in member.children if c.type == "decorator"]
    before = member.prev_named_sibling
    while before is not None and before.type == "decorator":
        found.append(before)
        before = before.prev_named_sibling
    return found


def _callee(decorator: tree_sitter.Node) -> tree_sitter.Node | None:
    """The name a decorator calls (``@logged``, ``@Column()``, ``@x.y``: the last name)."""
    expression = decorator.named_children[0] if decorator.named_children else None
    if expression is not None and expression.type == "call_expression":
        expression = expression.child_by_field_name("function")
    if expression is not None and expression.type == "member_expression":
        expression = expression.child_by_field_name("property")
    if expression is None or expression.type not in ("identifier", "property_identifier"):
        return None
    return expression


def _ignores_name(
    files: TsFiles, conn: sqlite3.Connection, path: str, ts: TsFile, callee: tree_sitter.Node
) -> bool:
    """Whether the decorator is a project function (or a variable holding one) none of whose
    functions reads its second parameter."""
    found = conn.execute(
        "SELECT r.symbol_id FROM refs r JOIN files f ON f.id = r.file_id WHERE f.path = ? AND r.line = ?"
        " AND r.col = ? AND r.symbol_id IS NOT NULL AND r.confidence = 'certain' LIMIT 1",
        (path, callee.start_point[0] + 1, ts.column_of(callee)),
    ).fetchone()
    if found is None:
        return False  # a package's, or not known
    rows = query_symbols(conn, "s.id = ?", (found[0],))
    if not rows or rows[0].kind not in ("function", "variable"):
        return False
    symbol = rows[0]
    try:
        lines = load_file(files.ws, symbol.file).source.text.split("\n")
    except (OSError, AstmcpError):
        return False
    source = TsFile(symbol.file, "\n".join(lines[symbol.start_line - 1 : symbol.end_line]))
    functions = captures(source, _FUNCTIONS, "f")
    if not functions:
        return False  # not a function written here: what it does is not known
    return not any(_reads_second(function) for function in functions)


def _reads_second(function: tree_sitter.Node) -> bool:
    """Whether a function reads its second parameter (or takes all of them: ``...args``,
    ``arguments``)."""
    params = function.child_by_field_name("parameters")
    listed = [p for p in params.named_children if p.type != "comment"] if params is not None else []
    body = function.child_by_field_name("body")
    if body is None:
        return False
    text = body.text or b""
    if any(p.type == "rest_pattern" or b"..." in (p.text or b"") for p in listed) or b"arguments" in text:
        return True
    if len(listed) < 2:
        return False
    pattern = listed[1].child_by_field_name("pattern") if listed[1].type != "identifier" else listed[1]
    if pattern is None or pattern.type != "identifier":
        return True  # destructured (`{ name }`): it is read
    wanted = pattern.text
    stack = [body]
    while stack:
        node = stack.pop()
        if node.type == "identifier" and node.text == wanted:
            return True
        stack.extend(node.named_children)
    return False
