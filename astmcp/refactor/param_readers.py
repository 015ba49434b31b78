"""Python: who reads a parameter's name besides its function's callers.

A project function that reads signatures (``inspect.signature(f).parameters``) and is given the
function (as its decorator, or as an argument: ``register(handler)``) may call it with keywords
made from its parameter names; renaming one is refused. A decorator from outside the project may
do the same (routes, command lines, task queues): each is an uncertain hit of the rename.
"""

from __future__ import annotations

import ast
import re
import sqlite3

from astmcp.query.common import SymbolRow
from astmcp.query.parameters import Parameter, read_text
from astmcp.query.pytrees import parsed_tree
from astmcp.refactor.fixtures import last_name
from astmcp.refactor.rename_refs import Hit
from astmcp.resolve.python_resolver import Resolver
from astmcp.workspace import Workspace

__all__ = ["outside_decorators", "signature_reader", "takers"]


# what reads a function's parameter names: a decorator doing so may call it with keywords made
# from those names (routes, dependency injection, command lines built from a signature)
_SIGNATURE_READS = re.compile(
    r"\b(?:signature|getfullargspec|getargspec|getcallargs|get_type_hints)\s*\(|"
    r"\.__(?:code|signature|annotations)__\b|\bco_varnames\b"
)


def signature_reader(
    ws: Workspace,
    conn: sqlite3.Connection,
    param: Parameter,
    node: ast.FunctionDef | ast.AsyncFunctionDef | None,
) -> str | None:
    """Why the parameter's name is read by a project function its function is given to, or None:
    a decorator, or a function it is passed to (``register(handler)``), whose body reads the
    signature (``inspect.signature(f).parameters``) may call the function with keywords named
    after its parameters. Such a function is found by its last name among the project's functions
    (a name several share is read in all of them). ``node``: the function's statement."""
    if node is None:
        return None
    names = {
        name for d in node.decorator_list if (name := last_name(d.func if isinstance(d, ast.Call) else d))
    } | _takers(ws, conn, param)
    if not names:
        return None
    rows = conn.execute(
        "SELECT f.path, s.name, s.start_line, s.end_line FROM symbols s JOIN files f ON f.id = s.file_id"
        f" WHERE s.kind IN ('function', 'method', 'class') AND s.name IN ({', '.join('?' * len(names))})"
        " ORDER BY f.path, s.start_line",
        sorted(names),
    ).fetchall()
    for path, name, start, end in rows:
        try:
            lines = read_text(ws, path).splitlines()[start - 1 : end]
        except (OSError, UnicodeDecodeError):
            continue
        if _SIGNATURE_READS.search("\n".join(lines)):
            return (
                f"{name!r} ({path}:{start}), which {node.name!r} is decorated by or given to, reads the"
                f" parameter names of what it is given (a signature): it may call {node.name!r} with"
                f" {param.name}=, so {param.name!r} cannot be renamed safely"
            )
    return None


def _takers(ws: Workspace, conn: sqlite3.Connection, param: Parameter) -> set[str]:
    """The last names of the callees the parameter's function is passed to as an argument."""
    return takers(ws, conn, param.function)


def takers(ws: Workspace, conn: sqlite3.Connection, function: SymbolRow) -> set[str]:
    """The last names of the callees ``function`` (or class) is passed to as an argument
    (``register(handler)``, ``app.add_route("/", view=handler)``), by its references."""
    places: dict[str, set[int]] = {}
    for path, line in conn.execute(
        "SELECT f.path, r.line FROM refs r JOIN files f ON f.id = r.file_id"
        " WHERE r.symbol_id = ? AND r.kind IN ('read', 'attribute') AND f.path LIKE '%.py'",
        (function.id,),
    ):
        places.setdefault(str(path), set()).add(int(line))
    names: set[str] = set()
    for path, lines in places.items():
        try:
            tree = parsed_tree(read_text(ws, path))
        except (OSError, SyntaxError, ValueError):
            continue
        for call in ast.walk(tree):
            if (
                not isinstance(call, ast.Call)
                or call.lineno > max(lines)
                or (call.end_lineno or 0) < min(lines)
            ):
                continue
            given = [*call.args, *(k.value for k in call.keywords)]
            if any(
                last_name(arg) == function.name and arg.lineno in lines
                for arg in given
                if isinstance(arg, ast.Name | ast.Attribute)
            ):
                taker = last_name(call.func)
                if taker is not None:
                    names.add(taker)
    return names


# outside decorators known to call what they decorate with its arguments as given (or to pass
# only positional ones), or to name parameters by strings the decorator is given (click's
# `@click.option("--count")`: hits of their own): modules, and builtins by name
_PLAIN_DECORATOR_MODULES = frozenset(
    {"functools", "abc", "typing", "typing_extensions", "contextlib", "dataclasses", "atexit", "enum"}
    | {"unittest", "warnings", "asyncio", "attr", "attrs", "pytest", "_pytest", "cachetools", "wrapt"}
    | {"deprecated", "overrides", "numba", "jax", "torch", "click"}
)
_PLAIN_BUILTINS = frozenset({"staticmethod", "classmethod", "property"})


def outside_decorators(
    ws: Workspace,
    conn: sqlite3.Connection,
    param: Parameter,
    node: ast.FunctionDef | ast.AsyncFunctionDef | None,
) -> list[Hit]:
    """Uncertain hits at the decorators of the parameter's function that come from outside the
    project (or from nowhere known) and are not known to pass arguments as given: a framework's
    decorator may call the function with keywords named after its parameters (a route's query
    parameters, a command line's options, a task queue's keyword arguments)."""
    if not param.file.endswith(".py") or node is None or not node.decorator_list:
        return []
    lines = read_text(ws, param.file).split("\n")
    resolver: Resolver | None = None
    out: list[Hit] = []
    for decorator in node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        name = last_name(target)
        if name is None or target.end_col_offset is None or target.end_lineno is None:
            continue
        line = target.end_lineno
        text = lines[line - 1] if 0 < line <= len(lines) else ""
        end = len(text.encode("utf-8")[: target.end_col_offset].decode("utf-8", errors="replace")) + 1
        column = end - len(name)
        found = conn.execute(
            "SELECT r.target_key FROM refs r JOIN files f ON f.id = r.file_id"
            " WHERE f.path = ? AND r.line = ? AND r.col = ? AND r.name = ? LIMIT 1",
            (param.file, line, column, name),
        ).fetchone()
        chain = str(found[0]) if found is not None and found[0] else None
        resolver = resolver or Resolver(conn, {})
        entity = resolver.resolve(param.file, chain) if chain else None
        if entity is not None and entity[0] != "x":
            continue  # the project's own (`_signature_reader` reads it)
        origin = str(entity[1]).lstrip("?") if entity is not None else ""
        module = origin.split(".", 1)[0]
        if (origin and "." not in origin and origin in _PLAIN_BUILTINS) or module in _PLAIN_DECORATOR_MODULES:
            continue
        shown = origin.replace(".()", "()") or name
        note = f"the decorator {shown} is outside the project: it may pass arguments by parameter name"
        out.append(Hit(param.file, line, column, end, "data", "name", note=note))
    return out
