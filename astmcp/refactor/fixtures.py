"""Python names that are data: pytest fixtures (requested by their function's name), enum members
whose value is made from their name, and variables holding a class ``type()`` names at run time."""

from __future__ import annotations

import ast
import sqlite3

from astmcp.errors import MutationBlocked
from astmcp.query.common import SymbolRow, query_symbols
from astmcp.query.parameters import function_node, read_text
from astmcp.workspace import Workspace

__all__ = ["check_enum_value", "check_fixture", "check_made_class", "last_name"]


def last_name(node: ast.expr) -> str | None:
    """``fixture`` of ``fixture`` / ``pytest.fixture`` (a decorator's or base's last name)."""
    if isinstance(node, ast.Name):
        return node.id
    return node.attr if isinstance(node, ast.Attribute) else None


def check_fixture(ws: Workspace, row: SymbolRow) -> None:
    """MUTATION_BLOCKED for a pytest fixture function named by its function name: tests and
    fixtures request it by that name as a parameter (``def test_k(db)``), ``usefixtures("db")`` and
    ``request.getfixturevalue("db")`` by string; renaming the function alone leaves every one
    without it. ``@pytest.fixture(name="db")`` decouples the name: then it renames."""
    if row.kind != "function" or not row.file.endswith(".py"):
        return
    try:
        node = function_node(ast.parse(read_text(ws, row.file)), row)
    except (OSError, SyntaxError, ValueError):
        return
    if node is None:
        return
    for decorator in node.decorator_list:
        call = decorator if isinstance(decorator, ast.Call) else None
        if last_name(call.func if call is not None else decorator) != "fixture":
            continue
        if call is not None and any(k.arg == "name" for k in call.keywords):
            return
        raise MutationBlocked(
            f"{row.name!r} is a pytest fixture: tests and fixtures request it by that name (parameters,"
            " `usefixtures`, `getfixturevalue`); give it `@pytest.fixture(name=…)` or rename its users too",
            {"fixture": row.selector},
        )


def check_enum_value(ws: Workspace, row: SymbolRow) -> None:
    """MUTATION_BLOCKED for an enum member whose value is made from its name: ``RED = auto()`` in a
    ``StrEnum`` (its value is ``"red"``) or in an enum with ``_generate_next_value_``. Renaming it
    changes the value, which data, comparisons and ``Color("red")`` lookups depend on."""
    if not row.parent_path or not row.file.endswith(".py") or row.kind not in ("attribute", "variable"):
        return
    try:
        tree = ast.parse(read_text(ws, row.file))
    except (OSError, SyntaxError, ValueError):
        return
    owner_name = row.parent_path.rsplit(".", 1)[-1]
    for node in ast.walk(tree):
        if not isinstance(node, ast.ClassDef) or node.name != owner_name:
            continue
        bases = {last_name(b) for b in node.bases}
        generates = "StrEnum" in bases or any(
            isinstance(item, ast.FunctionDef) and item.name == "_generate_next_value_" for item in node.body
        )
        for item in node.body:
            if not generates or not isinstance(item, ast.Assign) or not isinstance(item.value, ast.Call):
                continue
            named = any(isinstance(t, ast.Name) and t.id == row.name for t in item.targets)
            if named and last_name(item.value.func) == "auto":
                raise MutationBlocked(
                    f"{row.name!r} is an enum member whose value `auto()` makes from its name"
                    f" ({'StrEnum' if 'StrEnum' in bases else '_generate_next_value_'}): renaming it changes"
                    " the value; give it an explicit value first",
                    {"member": row.selector},
                )


def _computed_class(node: ast.expr) -> bool:
    """``type(f"At{level}", bases, ns)`` / ``types.new_class(name, …)``: a class whose name is
    computed (a literal name is a string hit of its own)."""
    if not isinstance(node, ast.Call) or last_name(node.func) not in ("type", "new_class"):
        return False
    if last_name(node.func) == "type" and len(node.args) != 3:
        return False  # `type(x)`: the class of x
    name = node.args[0] if node.args else None
    return name is not None and not (isinstance(name, ast.Constant) and isinstance(name.value, str))


def _makes_computed_class(ws: Workspace, conn: sqlite3.Connection, path: str, call: ast.Call) -> str | None:
    """The project function ``call`` calls, when it returns a class with a computed name."""
    found = conn.execute(
        "SELECT r.symbol_id FROM refs r JOIN files f ON f.id = r.file_id WHERE f.path = ? AND r.line = ?"
        " AND r.kind = 'call' AND r.symbol_id IS NOT NULL AND r.col = ?",
        (path, call.func.end_lineno, (call.func.end_col_offset or 0) - len(last_name(call.func) or "") + 1),
    ).fetchone()
    functions = query_symbols(conn, "s.id = ? AND s.kind = 'function'", (found[0],)) if found else []
    if not functions or not functions[0].file.endswith(".py"):
        return None
    try:
        node = function_node(ast.parse(read_text(ws, functions[0].file)), functions[0])
    except (OSError, SyntaxError, ValueError):
        return None
    returns = (
        [r.value for r in ast.walk(node) if isinstance(r, ast.Return) and r.value is not None] if node else []
    )
    return functions[0].selector if any(_computed_class(value) for value in returns) else None


def check_made_class(ws: Workspace, conn: sqlite3.Connection, row: SymbolRow) -> None:
    """MUTATION_BLOCKED for a module variable holding a class that ``type()`` makes with a computed
    name (``BoundLoggerFilteringAtCritical = _make_filtering_bound_logger(CRITICAL)``, whose
    ``__name__`` is ``f"BoundLoggerFilteringAt{…}"``): pickle and copy find a class by its
    ``__name__`` in its module, so the variable must keep that name (structlog seed 3 broke)."""
    if row.kind != "variable" or row.parent_path or not row.file.endswith(".py"):
        return
    try:
        tree = ast.parse(read_text(ws, row.file))
    except (OSError, SyntaxError, ValueError):
        return
    for node in ast.walk(tree):
        if not isinstance(node, ast.Assign) or not isinstance(node.value, ast.Call):
            continue
        if not any(isinstance(t, ast.Name) and t.id == row.name for t in node.targets):
            continue
        maker = (
            "type()" if _computed_class(node.value) else _makes_computed_class(ws, conn, row.file, node.value)
        )
        if maker is not None:
            raise MutationBlocked(
                f"{row.name!r} holds a class made by {maker} with a name computed at run time; pickle and"
                " copy find the class by that name in its module, so the variable must keep it",
                {"made_by": maker},
            )
