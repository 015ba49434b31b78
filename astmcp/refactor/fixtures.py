"""Python: pytest fixtures are requested by their function's name."""

from __future__ import annotations

import ast

from astmcp.errors import MutationBlocked
from astmcp.query.common import SymbolRow
from astmcp.query.parameters import function_node, read_text
from astmcp.workspace import Workspace

__all__ = ["check_fixture"]


def _last_name(node: ast.expr) -> str | None:
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
        if _last_name(call.func if call is not None else decorator) != "fixture":
            continue
        if call is not None and any(k.arg == "name" for k in call.keywords):
            return
        raise MutationBlocked(
            f"{row.name!r} is a pytest fixture: tests and fixtures request it by that name (parameters,"
            " `usefixtures`, `getfixturevalue`); give it `@pytest.fixture(name=…)` or rename its users too",
            {"fixture": row.selector},
        )
