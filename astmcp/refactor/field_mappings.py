"""Python: a field of a class constructed with a ``**mapping`` (``Point(**row)``).

A class whose ``__init__`` is generated from its fields (a dataclass, attrs, a NamedTuple: no
``__init__`` written in it or its project bases) takes each field as a keyword. A call passing
``**mapping`` may hold the field's name as a key (``Config(**json.load(f))``, ``Row(**r) for r in
csv.DictReader(…)``): renaming the field leaves the key behind and the call raises TypeError. Such
calls are uncertain hits at the ``**`` (never edited: the key is in data, not code).

The other way round, a field's name becomes a key wherever its record is turned into a mapping
(``asdict(row)``, ``m.model_dump()``, ``p._asdict()``) and the keys are read by name (``RowDTO(**asdict(row))``, ``Public.model_validate(m.model_dump())``). In the
files that use the field's class, each such conversion is an uncertain hit.
"""

from __future__ import annotations

import ast
import sqlite3

from astmcp.query.common import SymbolRow, query_symbols
from astmcp.query.parameter_calls import PythonFiles
from astmcp.refactor.rename_refs import Hit
from astmcp.workspace import Workspace

__all__ = ["dump_hits", "mapping_hits"]

_FIELD_KINDS = ("attribute", "variable", "property")


def _constructed_classes(conn: sqlite3.Connection, member: SymbolRow) -> list[SymbolRow]:
    """The member's class and its subclasses, as long as none of them or their project bases
    writes an ``__init__`` (then keywords are that method's parameters, judged elsewhere)."""
    owners = query_symbols(
        conn, "f.path = ? AND s.symbol_path = ? AND s.kind = 'class'", (member.file, member.parent_path)
    )
    out: list[SymbolRow] = []
    queue = list(owners)
    seen: set[int] = set()
    while queue:
        cls = queue.pop()
        if cls.id in seen:
            continue
        seen.add(cls.id)
        if _writes_init(conn, cls, set()):
            continue
        out.append(cls)
        for (sub,) in conn.execute(
            "SELECT src_symbol_id FROM edges WHERE dst_symbol_id = ? AND kind = 'inherits' AND src_symbol_id IS NOT NULL",
            (cls.id,),
        ):
            queue.extend(query_symbols(conn, "s.id = ?", (sub,)))
    return out


def _writes_init(conn: sqlite3.Connection, cls: SymbolRow, seen: set[int]) -> bool:
    if cls.id in seen:
        return False
    seen.add(cls.id)
    if query_symbols(
        conn, "f.path = ? AND s.parent_path = ? AND s.name = '__init__'", (cls.file, cls.symbol_path)
    ):
        return True
    for (base,) in conn.execute(
        "SELECT dst_symbol_id FROM edges WHERE src_symbol_id = ? AND kind = 'inherits' AND dst_symbol_id IS NOT NULL",
        (cls.id,),
    ):
        if any(_writes_init(conn, b, seen) for b in query_symbols(conn, "s.id = ?", (base,))):
            return True
    return False


def mapping_hits(ws: Workspace, conn: sqlite3.Connection, family: list[SymbolRow]) -> list[Hit]:
    """Uncertain hits at each ``**mapping`` of a call constructing a class the renamed field is
    an ``__init__`` keyword of."""
    classes: dict[int, SymbolRow] = {}
    for member in family:
        if member.kind in _FIELD_KINDS and member.parent_path and member.file.endswith((".py", ".pyi")):
            for cls in _constructed_classes(conn, member):
                classes[cls.id] = cls
    if not classes:
        return []
    files = PythonFiles(ws)
    out: list[Hit] = []
    marks = ",".join("?" * len(classes))
    for path, line, end_col in conn.execute(
        "SELECT DISTINCT f.path, r.line, r.end_col FROM refs r JOIN files f ON f.id = r.file_id"
        f" WHERE r.symbol_id IN ({marks}) AND r.kind = 'call' AND r.confidence IN ('certain', 'likely')",
        tuple(classes),
    ):
        parsed = files.get(path)
        call = parsed.by_callee.get((line, end_col)) if parsed is not None else None
        for keyword in call.keywords if call is not None and parsed is not None else []:
            if keyword.arg is None and not isinstance(keyword.value, ast.Dict):
                column = parsed.scopes.column_of(keyword.lineno, keyword.col_offset)  # type: ignore[union-attr]
                note = "a `**mapping` given to the constructor may hold the field's name as a key"
                out.append(Hit(path, keyword.lineno, column, column + 2, "call", "name", note=note))
    return out


# calls that turn a record (a dataclass, attrs class, pydantic model, named tuple) into a mapping
# keyed by its fields' names (`vars(o)` and `o.__dict__` are left out: any object has them, and
# classes with a hand-written `__init__` are no records)
_DUMP_FUNCTIONS = frozenset({"asdict"})
_DUMP_METHODS = frozenset({"model_dump", "dict", "_asdict"})


def _dumps(tree: ast.AST) -> list[ast.expr]:
    out: list[ast.expr] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args and not node.keywords:
            func = node.func
            if isinstance(func, ast.Name) and func.id in _DUMP_FUNCTIONS:
                out.append(func)
            elif isinstance(func, ast.Attribute) and func.attr == "asdict":
                out.append(func)  # `dataclasses.asdict(row)`, `attrs.asdict(row)`
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in _DUMP_METHODS
            and not node.args
        ):
            out.append(node.func)
    return out


def dump_hits(ws: Workspace, conn: sqlite3.Connection, family: list[SymbolRow]) -> list[Hit]:
    """Uncertain hits at each conversion of a record to a mapping of its fields (``asdict``,
    ``model_dump``, ``_asdict``) in a file that uses the renamed field's class (or a subclass),
    when that class has a generated ``__init__``: the field's name is a key there, which may be
    read by name."""
    classes: set[int] = set()
    for member in family:
        if (
            member.kind not in _FIELD_KINDS
            or not member.parent_path
            or not member.file.endswith((".py", ".pyi"))
        ):
            continue
        classes.update(cls.id for cls in _constructed_classes(conn, member))
    if not classes:
        return []
    marks = ",".join("?" * len(classes))
    paths = {
        path
        for (path,) in conn.execute(
            f"SELECT DISTINCT f.path FROM refs r JOIN files f ON f.id = r.file_id WHERE r.symbol_id IN ({marks})",
            tuple(classes),
        )
    }
    files = PythonFiles(ws)
    out: list[Hit] = []
    for path in sorted(p for p in paths if p.endswith(".py")):
        parsed = files.get(path)
        if parsed is None:
            continue
        for node in _dumps(parsed.scopes.tree):
            name = node.attr if isinstance(node, ast.Attribute) else node.id  # type: ignore[attr-defined]
            line = node.end_lineno or node.lineno
            end = parsed.scopes.column_of(line, node.end_col_offset or 0)
            note = "an object turned into a mapping of its fields: the field's name is a key there"
            out.append(Hit(path, line, end - len(name), end, "call", "name", note=note))
    return out
