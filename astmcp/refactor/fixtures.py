"""Python names that are data: pytest fixtures (requested by their function's name), tests and
hooks pytest collects by name, CLI commands named after their function, enum members whose value is
made from their name, and variables holding a class ``type()`` names at run time."""

from __future__ import annotations

import ast
import builtins
import posixpath
import sqlite3
from collections.abc import Iterator

from astmcp.errors import MutationBlocked
from astmcp.query.common import SymbolRow, query_symbols
from astmcp.query.parameters import function_node, parse_python
from astmcp.refactor.import_alternatives import binds_name
from astmcp.resolve.python_external import class_defines, importable
from astmcp.workspace import Workspace

__all__ = [
    "check_collected_name",
    "check_enum_value",
    "check_fixture",
    "check_made_class",
    "check_submodule_name",
    "last_name",
]


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
        node = function_node(parse_python(ws, row.file), row)
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


def check_enum_value(ws: Workspace, conn: sqlite3.Connection, row: SymbolRow) -> None:
    """MUTATION_BLOCKED for an enum member whose value is made from its name: ``RED = auto()`` in a
    ``StrEnum`` (its value is ``"red"``) or in an enum with ``_generate_next_value_``. Renaming it
    changes the value, which data, comparisons and ``Color("red")`` lookups depend on."""
    if not row.parent_path or not row.file.endswith(".py") or row.kind not in ("attribute", "variable"):
        return
    try:
        tree = parse_python(ws, row.file)
    except (OSError, SyntaxError, ValueError):
        return
    owner_name = row.parent_path.rsplit(".", 1)[-1]
    for node in ast.walk(tree):
        if not isinstance(node, ast.ClassDef) or node.name != owner_name:
            continue
        bases = {last_name(b) for b in node.bases}
        for item in node.body:
            if not isinstance(item, ast.Assign) or not isinstance(item.value, ast.Call):
                continue
            named = any(isinstance(t, ast.Name) and t.id == row.name for t in item.targets)
            # (only then are the bases walked: most classes assign no `auto()`)
            if named and last_name(item.value.func) == "auto" and _generates(ws, conn, node, 0, set()):
                raise MutationBlocked(
                    f"{row.name!r} is an enum member whose value `auto()` makes from its name"
                    f" ({'StrEnum' if 'StrEnum' in bases else 'its class or a base defines how'}): renaming it"
                    " changes"
                    " the value; give it an explicit value first",
                    {"member": row.selector},
                )


def _generates(
    ws: Workspace, conn: sqlite3.Connection, node: ast.ClassDef, depth: int, seen: set[tuple[str, int]]
) -> bool:
    """Whether an enum class makes ``auto()`` values from names: a ``StrEnum``, or a class defining
    ``_generate_next_value_``, itself or through a project base (``class Status(LowerEnum)`` with
    ``class LowerEnum(StrEnum)`` in another module), bases matched by name; each project class
    (``seen``: file and line) is walked once, however many same-named classes lead to it."""
    bases = {n for b in node.bases if (n := last_name(b))}
    if "StrEnum" in bases or any(
        isinstance(item, ast.FunctionDef) and item.name == "_generate_next_value_" for item in node.body
    ):
        return True
    if depth >= 5:
        return False
    for base in sorted(bases - {"Enum", "IntEnum", "Flag", "IntFlag", "ReprEnum", "object"}):
        for found in query_symbols(conn, "s.name = ? AND s.kind = 'class'", (base,)):
            if not found.file.endswith((".py", ".pyi")) or (found.file, found.name_line) in seen:
                continue
            seen.add((found.file, found.name_line))
            try:
                tree = parse_python(ws, found.file)
            except (OSError, SyntaxError, ValueError):
                continue
            classes = (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.name == base)
            if any(c.lineno == found.name_line and _generates(ws, conn, c, depth + 1, seen) for c in classes):
                return True
    return False


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
        node = function_node(parse_python(ws, functions[0].file), functions[0])
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
        tree = parse_python(ws, row.file)
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


def check_conditional_builtin(ws: Workspace, row: SymbolRow) -> None:
    """MUTATION_BLOCKED for a module-level name of a builtin the module binds only on some paths
    (``try: FileNotFoundError`` / ``except NameError: FileNotFoundError = IOError``; ``if PY2: def
    sorted(…)``): where it is not bound, the module's uses of the name mean the builtin, which a
    rename would leave them without. A name bound on every path (``if …: X = X`` / ``else: class
    X``) is the module's own."""
    if row.parent_path or not row.file.endswith((".py", ".pyi")) or not hasattr(builtins, row.name):
        return
    try:
        tree = parse_python(ws, row.file)
    except (OSError, SyntaxError, ValueError):
        return
    if not _binds_always(tree.body, row.name):
        raise MutationBlocked(
            f"{row.name!r} is a builtin's name that {row.file} binds only on some paths; where it does not,"
            " its uses there mean the builtin, and renamed they would name nothing",
            {"builtin": row.name},
        )


def check_global_rebinding(ws: Workspace, row: SymbolRow) -> None:
    """MUTATION_BLOCKED for a module-level name a function rebinds under ``global`` by an import,
    a ``def``/``class`` or ``except … as`` (the lazy-import idiom: ``global json_mod`` / ``import
    json as json_mod``): those bindings are not linked to the module's name, so a rename would
    leave them behind and the module's uses would read what they did not set."""
    if row.parent_path or not row.file.endswith((".py", ".pyi")):
        return
    try:
        tree = parse_python(ws, row.file)
    except (OSError, SyntaxError, ValueError):
        return
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        own = list(_own_nodes(function))
        if not any(isinstance(n, ast.Global) and row.name in n.names for n in own):
            continue
        for node in own:
            binds = (
                (isinstance(node, ast.Import | ast.ImportFrom) and binds_name(node, row.name))
                or (
                    isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
                    and node.name == row.name
                )
                or (isinstance(node, ast.ExceptHandler) and node.name == row.name)
            )
            if binds:
                raise MutationBlocked(
                    f"{function.name}() in {row.file} rebinds the module's {row.name!r} under `global` (line"
                    f" {getattr(node, 'lineno', function.lineno)}) in a way astmcp does not rename; rename by hand",
                    {"function": function.name, "line": getattr(node, "lineno", function.lineno)},
                )


def _own_nodes(function: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[ast.AST]:
    """The nodes of a function's own scope: nested definitions themselves, not their bodies."""
    stack: list[ast.AST] = list(function.body)
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            stack.extend(ast.iter_child_nodes(node))


def check_fallback_class_member(ws: Workspace, row: SymbolRow) -> None:
    """MUTATION_BLOCKED for a member of a top-level class the module binds on some paths to an
    outside class instead (``if sys.version_info >= (3, 11): ExceptionGroup = ExceptionGroup`` /
    ``else: class ExceptionGroup(Exception)``; ``try: from functools import cached_property`` /
    ``except ImportError: class cached_property``): the project's class stands in for that one, and
    code using the name gets the outside class where it exists, whose member a rename cannot change
    (packaging's ``ExceptionGroup.exceptions``: its test read ``exc.exceptions`` off the builtin)."""
    if not row.parent_path or "." in row.parent_path or not row.file.endswith((".py", ".pyi")):
        return
    try:
        tree = parse_python(ws, row.file)
    except (OSError, SyntaxError, ValueError):
        return
    for qualified in _outside_bindings(ws, tree.body, row.parent_path):
        if class_defines(qualified, row.name) is not False:
            raise MutationBlocked(
                f"{row.parent_path} stands in for {qualified}, which {row.file} binds to the name on"
                f" other paths: code using the name gets that class there, whose {row.name!r} a rename"
                " cannot change",
                {"external_members": [f"{qualified}.{row.name}"]},
            )


def _outside_bindings(ws: Workspace, body: list[ast.stmt], name: str) -> Iterator[str]:
    """The outside classes module-level code binds ``name`` to, through ``if``/``try`` blocks: a
    builtin's name given to itself (``X = X``), an absolute import of a module from outside."""
    for node in body:
        if isinstance(node, ast.If):
            yield from _outside_bindings(ws, node.body + node.orelse, name)
        elif isinstance(node, ast.Try):
            yield from _outside_bindings(ws, node.body + node.orelse + node.finalbody, name)
            for handler in node.handlers:
                yield from _outside_bindings(ws, handler.body, name)
        elif isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in node.targets
        ):
            value = node.value
            if isinstance(value, ast.Name) and value.id == name and hasattr(builtins, name):
                yield f"builtins.{name}"
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            top = node.module.partition(".")[0]
            for alias in node.names:
                project = any(
                    (ws.root / d / top).exists() or (ws.root / d / f"{top}.py").exists() for d in ("", "src")
                )
                if (alias.asname or alias.name) == name and importable(top) and not project:
                    yield f"{node.module}.{alias.name}"


def _binds_always(body: list[ast.stmt], name: str) -> bool:
    """Whether running ``body`` to its end always binds ``name``."""
    return any(_statement_binds(statement, name) for statement in body)


def _statement_binds(node: ast.stmt, name: str) -> bool:
    if isinstance(node, ast.If):
        return _binds_always(node.body, name) and _binds_always(node.orelse, name)
    if isinstance(node, ast.Try):
        handled = all(_binds_always(h.body, name) for h in node.handlers)
        return (_binds_always(node.body + node.orelse, name) and handled) or _binds_always(
            node.finalbody, name
        )
    if isinstance(node, (ast.With, ast.AsyncWith)):
        return _binds_always(node.body, name)
    return binds_name(node, name)


# methods and functions pytest (and nose-style suites) call by name
_PYTEST_CALLED = (
    frozenset(
        f"{when}_{what}"
        for when in ("setup", "teardown")
        for what in ("method", "class", "module", "function")
    )
    | {"setup", "teardown"}
    | {"setUpModule", "tearDownModule"}
)
# unittest's module hooks, found by name in any module it loads tests from (a package's too)
_UNITTEST_HOOKS = frozenset({"setUpModule", "tearDownModule", "load_tests"})


def _test_file(path: str) -> bool:
    name = posixpath.basename(path)
    return name.startswith("test_") or name.endswith("_test.py") or name == "conftest.py"


def _collected(kind: str, name: str, in_test_class: bool) -> bool:
    """Whether pytest collects or calls ``name`` (default ``python_functions``/``python_classes``)."""
    if kind == "class":
        return name.startswith("Test")
    if name.startswith("pytest_") or (kind == "function" and name in _UNITTEST_HOOKS):
        return True  # a hook (conftest.py or a plugin; unittest's module hooks)
    if kind == "method" and not in_test_class:
        return False
    return name.startswith("test") or name in _PYTEST_CALLED


def check_collected_name(ws: Workspace, row: SymbolRow, new_name: str) -> None:
    """MUTATION_BLOCKED where the name is how a tool finds the code: in a test module, pytest
    collects ``test*`` functions and ``Test*`` classes and calls hooks (``pytest_*``) and
    ``setup_method``-style methods by name, so a rename that changes whether it does silently drops
    (or adds) a test; click and typer name a command after its function (``@cli.command()`` without
    a name), so a rename changes the command line."""
    if not row.file.endswith(".py") or row.kind not in ("function", "method", "class"):
        return
    if row.name.startswith("pytest_") and row.kind in ("function", "method") and new_name != row.name:
        # (a hook implementation is found by its exact name: `pytest_configureRn` is no hook, and
        # pluggy refuses a plugin declaring an unknown `pytest_*` hook)
        raise MutationBlocked(
            f"pytest calls the hook {row.name!r} by that exact name (a `pytest_*` function of a"
            " conftest.py or a plugin): renaming it unhooks it; keep the name",
            {"symbol": row.selector},
        )
    if _test_file(row.file) or row.name.startswith("pytest_") or row.name in _UNITTEST_HOOKS:
        owner = row.parent_path.rsplit(".", 1)[-1] if row.parent_path else ""
        in_test_class = owner.startswith("Test")
        if _collected(row.kind, row.name, in_test_class) != _collected(row.kind, new_name, in_test_class):
            raise MutationBlocked(
                f"pytest finds {row.name!r} by its name (tests `test*`/`Test*`, hooks `pytest_*`,"
                f" `setup_method`; unittest's `setUpModule`, `load_tests`…);"
                f" {new_name!r} would {'drop it from' if _collected(row.kind, row.name, in_test_class) else 'add it to'}"
                " the run: choose a name pytest treats the same way",
                {"symbol": row.selector},
            )
    if row.kind != "function":
        return
    try:
        node = function_node(parse_python(ws, row.file), row)
    except (OSError, SyntaxError, ValueError):
        return
    for decorator in node.decorator_list if node is not None else []:
        call = decorator if isinstance(decorator, ast.Call) else None
        if last_name(call.func if call is not None else decorator) not in ("command", "group"):
            continue
        if call is not None and (call.args or any(k.arg == "name" for k in call.keywords)):
            continue  # `@cli.command("sync")`: the command has its own name
        raise MutationBlocked(
            f"{row.name!r} is a command named after its function (`@{ast.unparse(decorator)}` gives it no"
            " name of its own): renaming it changes the command line; pass the current name to the"
            " decorator first",
            {"command": row.selector},
        )


def check_submodule_name(ws: Workspace, conn: sqlite3.Connection, row: SymbolRow) -> None:
    """MUTATION_BLOCKED for a package attribute that shares its name with a submodule: a name in
    ``pkg/__init__.py`` beside ``pkg/config.py`` (``pkg.config`` then means the module or the
    object depending on what was imported first, and the dotted paths naming it cannot be told
    apart from uses of the object), or ``config`` of ``pkg/config.py`` that the package's
    ``__init__`` imports when a file imports the submodule under an alias: ``import pkg.config as
    c`` binds what the package's attribute holds, the object, which the rename turns into the
    module. Other dotted paths mean the object once the package has loaded and are renamed as its
    uses; strings naming them (``mock.patch("pkg.config.DEFAULT")``) are name hits."""
    if row.parent_path or not row.file.endswith(".py"):
        return
    folder, base = posixpath.split(row.file)
    if base == "__init__.py":
        prefix = f"{folder}/{row.name}" if folder else row.name
        clash = conn.execute(
            "SELECT path FROM files WHERE path IN (?, ?) LIMIT 1", (f"{prefix}.py", f"{prefix}/__init__.py")
        ).fetchone()
        if clash is not None:
            raise MutationBlocked(
                f"{row.name!r} is a package attribute with the name of the submodule"
                f" {folder.replace('/', '.')}.{row.name} ({clash[0]}): dotted paths to that name mean the"
                " module or this object depending on import order, so they cannot be renamed safely;"
                " rename it by hand",
                {"submodule": clash[0]},
            )
        return
    if base != f"{row.name}.py":
        return
    aliased = conn.execute(
        "SELECT f.path, i.line FROM imports i JOIN files f ON f.id = i.file_id WHERE i.resolved_path = ?"
        " AND i.level = 0 AND COALESCE(i.name, '') = '' AND COALESCE(i.alias, '') != '' LIMIT 1",
        (row.file,),
    ).fetchone()
    if aliased is None:
        return
    init = f"{folder}/__init__.py" if folder else "__init__.py"
    try:
        tree = parse_python(ws, init)
    except (OSError, SyntaxError, ValueError):
        return
    if any(
        (alias.asname or alias.name) == row.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    ):
        where = f"{aliased[0]}:{aliased[1]}"
        raise MutationBlocked(
            f"{row.name!r} is a package attribute with the name of the submodule"
            f" {row.file.removesuffix('.py').replace('/', '.')} ({init} imports it), and {where} imports"
            " that submodule under another name, which binds the package's attribute: this object now,"
            " the module after the rename; rename it by hand",
            {"submodule": init, "aliased_import": where},
        )
