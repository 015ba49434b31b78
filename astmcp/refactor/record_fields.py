"""Python: fields of classes whose ``__init__`` a library generates, where the library reads more
than the field's name.

- attrs takes a field's ``__init__`` keyword from its name without leading underscores, or from
  ``alias=``: renaming ``size`` to ``_size`` keeps ``A(size=3)``, and ``_size = field(alias="size")``
  keeps ``size`` whatever the field is called (``init_keyword``).
- pydantic makes a field named with a leading underscore a private attribute, no field (and a
  ``PrivateAttr`` one whose name loses it a field); a NamedTuple refuses such a field; a pydantic
  model with an ``alias_generator`` derives each field's external name from its name
  (``check_record_field``).
"""

from __future__ import annotations

import ast
import re
import sqlite3

from astmcp.errors import AstmcpError, MutationBlocked
from astmcp.query.common import SymbolRow, ancestry, query_symbols
from astmcp.query.parameters import read_text
from astmcp.workspace import Workspace

__all__ = ["check_record_field", "init_keyword", "is_keyword_at"]

_FIELD_KINDS = ("attribute", "variable", "property")
# `@attrs.define`, `@attr.s(auto_attribs=True)`, `@define`, `@frozen`
_ATTRS_DECORATOR = re.compile(r"^(?:attrs?\.)?(?:define|frozen|mutable|s|attrs)\b")
_NAMED_TUPLES = frozenset({"typing.NamedTuple", "typing_extensions.NamedTuple"})


def _owner_and_field(ws: Workspace, row: SymbolRow) -> tuple[ast.ClassDef, ast.stmt | None, str] | None:
    """The class statement declaring the field ``row``, the field's statement in its body (None:
    set elsewhere) and the file's text."""
    if row.kind not in _FIELD_KINDS or not row.parent_path or not row.file.endswith(".py"):
        return None
    try:
        text = read_text(ws, row.file)
        tree = ast.parse(text)
    except (OSError, ValueError, SyntaxError, AstmcpError):
        return None
    body: list[ast.stmt] = tree.body
    owner: ast.ClassDef | None = None
    for part in row.parent_path.split("."):
        owner = next((n for n in body if isinstance(n, ast.ClassDef) and n.name == part), None)
        if owner is None:
            return None
        body = owner.body
    assert owner is not None
    field = next((stmt for stmt in owner.body if row.name in _assigned(stmt)), None)
    return owner, field, text


def _assigned(stmt: ast.stmt) -> list[str]:
    if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
        return [stmt.target.id]
    if isinstance(stmt, ast.Assign):
        return [t.id for t in stmt.targets if isinstance(t, ast.Name)]
    return []


def init_keyword(ws: Workspace, row: SymbolRow, new_name: str) -> str | None:
    """The ``__init__`` keyword an attrs class takes for the field ``row`` once renamed to
    ``new_name`` (its ``alias=``, else the new name without leading underscores); None when the
    field is no attrs field."""
    found = _owner_and_field(ws, row)
    if found is None:
        return None
    owner, field, text = found
    if not any(_ATTRS_DECORATOR.match(ast.unparse(d)) for d in owner.decorator_list) or not re.search(
        r"^\s*(?:import attrs?\b|from attrs?\b)", text, re.M
    ):
        return None
    value = field.value if isinstance(field, ast.AnnAssign | ast.Assign) else None
    if isinstance(value, ast.Call):
        for keyword in value.keywords:
            if keyword.arg == "alias" and isinstance(keyword.value, ast.Constant):
                return str(keyword.value.value)
    return new_name.lstrip("_") or new_name


def is_keyword_at(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` is the keyword of a keyword argument (``A(size=3)``)."""
    after = re.match(r"\s*=(?!=)", text[end:])
    before = text[:start].rstrip()
    return after is not None and before[-1:] in ("(", ",")


def check_record_field(ws: Workspace, conn: sqlite3.Connection, row: SymbolRow, new_name: str) -> None:
    """MUTATION_BLOCKED for renaming a field of a pydantic model or NamedTuple into or out of a
    leading underscore, or any field of a pydantic model with an ``alias_generator``."""
    if row.kind not in _FIELD_KINDS or not row.parent_path or not row.file.endswith((".py", ".pyi")):
        return
    owners = query_symbols(
        conn, "f.path = ? AND s.symbol_path = ? AND s.kind = 'class'", (row.file, row.parent_path)
    )
    if not owners:
        return
    project, outside = ancestry(conn, [o.id for o in owners])
    pydantic = any(key.startswith("pydantic") and key.endswith(".BaseModel") for key in outside)
    named_tuple = bool(outside & _NAMED_TUPLES)
    if not pydantic and not named_tuple:
        return
    if row.name.startswith("_") != new_name.startswith("_"):
        what = "a pydantic model takes a name starting with `_` as a private attribute, no field"
        if named_tuple:
            what = "a NamedTuple refuses field names starting with `_`"
        raise MutationBlocked(
            f"{row.parent_path}.{row.name} is a record field and {what}: renaming it to {new_name!r} changes"
            " what the class is",
            {"field": row.selector},
        )
    if pydantic and _generates_aliases(ws, conn, project | {o.id for o in owners}):
        raise MutationBlocked(
            f"{row.parent_path} derives its fields' external names from their names (alias_generator):"
            f" renaming {row.name!r} changes the key its data is read and written under",
            {"field": row.selector},
        )


def _generates_aliases(ws: Workspace, conn: sqlite3.Connection, classes: set[int]) -> bool:
    for class_id in sorted(classes):
        for cls in query_symbols(conn, "s.id = ?", (class_id,)):
            try:
                lines = read_text(ws, cls.file).split("\n")
            except (OSError, ValueError, AstmcpError):
                continue
            if any("alias_generator" in line for line in lines[cls.start_line - 1 : cls.end_line]):
                return True
    return False
