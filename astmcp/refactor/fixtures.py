"""Python names that are data: pytest fixtures (requested by their function's name) and enum members
whose value is made from their name."""

from __future__ import annotations

import ast

from astmcp.errors import MutationBlocked
from astmcp.query.common import SymbolRow
from astmcp.query.parameters import function_node, read_text
from astmcp.workspace import Workspace

__all__ = ["check_enum_value", "check_fixture", "last_name"]


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
