"""``ast_rename_symbol`` on a parameter (``<file>::<function>.<param>``): the parameter in the
function (and, for a method, in every override that declares it), its uses, and ``name=``
keywords at resolved call sites (:mod:`astmcp.query.parameter_refs`).

Refused: an override family reaching outside the project, or a pytest test/fixture parameter
(a fixture passed by name) (``MUTATION_BLOCKED``); a new name the
function (or a scope between a use and the parameter) already binds, a use of the new name the
parameter would capture, or a resolved call that already passes ``new=`` (``NAME_COLLISION``).
``f(**mapping)`` sites are uncertain: they block by default and are never edited.
"""

from __future__ import annotations

import ast
import re
import sqlite3

from astmcp.errors import InvalidInput, MutationBlocked, NameCollision
from astmcp.query.parameter_refs import parameter_references
from astmcp.query.parameters import KEYWORD_KINDS, Parameter, function_node, read_text
from astmcp.refactor import collisions
from astmcp.refactor.fixtures import last_name
from astmcp.refactor.identifiers import check_new_name
from astmcp.refactor.plan import Plan
from astmcp.refactor.prepare import LoadedFile, build_plan
from astmcp.refactor.rename import comment_note, file_edits, load_checked, with_context
from astmcp.refactor.rename_refs import Hit
from astmcp.workspace import Workspace

__all__ = ["prepare_parameter_rename"]


def prepare_parameter_rename(
    ws: Workspace,
    conn: sqlite3.Connection,
    param: Parameter,
    new_name: str,
    uncertain: str,
    allow_new_errors: bool,
) -> Plan:
    check_new_name(new_name, param.file)
    if new_name == param.name:
        raise InvalidInput(f"{param.name!r} already has that name")
    found = parameter_references(ws, conn, param)
    if found.external:
        raise MutationBlocked(
            f"{param.function.name!r} overrides or is overridden outside the project"
            f" ({', '.join(found.external)}); callers there may pass {param.name!r} by keyword",
            {"external_members": found.external},
        )
    if _injected_by_pytest(ws, param) and not any(r.kind == "string" for r in found.references):
        raise MutationBlocked(
            f"pytest passes {param.name!r} to {param.function.name!r} by name (a fixture); rename the"
            " fixture, or the parameter together with it by hand",
            {"file": param.file, "line": param.line},
        )
    shared = _shared_signature(ws, param) or _signature_reader(ws, conn, param)
    if shared:
        raise MutationBlocked(shared, {"file": param.file, "line": param.line})
    hits = [Hit.of(r) for r in found.references]
    sure = [h for h in hits if h.confidence != "name"]
    unsure = [h for h in hits if h.confidence == "name"] + _outside_decorators(ws, conn, param)
    unpacked = [Hit.of(r) for r in found.unpacked]
    chosen = sure + (unsure if uncertain == "include" else [])
    # the scopes between each use and its parameter must not bind the new name, and no use of
    # the new name may be captured (keyword and string hits are no scope occurrences)
    by_file, loaded = load_checked(ws, conn, [], chosen, param.name, new_name)
    for site in found.sites:
        if new_name in site.keywords:
            raise NameCollision(
                f"renaming to {new_name!r} would clash: the call at {site.file}:{site.line}"
                f" already passes {new_name}=",
                {"new_name": new_name, "file": site.file, "line": site.line},
            )
    edits: dict[str, tuple[LoadedFile, str]] = {}
    for path, file_hits in by_file.items():
        ts = collisions.ts_file(path, loaded[path].source.text)
        edits[path] = (loaded[path], file_edits(loaded[path], file_hits, param.name, new_name, False, ts))
    blocking = unsure + unpacked
    reason = None
    if blocking and uncertain == "block":
        reason = (
            f"{len(blocking)} uncertain reference(s) (calls reached by name only, **mapping arguments, outside decorators,"
            " decorator strings); review uncertain_references, then prepare again with uncertain:"
            " include or skip (**mapping sites are never edited)"
        )
    notes = {path: comment_note(path, loaded[path].source.text, param.name) for path in loaded}
    return build_plan(
        ws,
        conn,
        "rename",
        edits,
        allow_new_errors=allow_new_errors,
        reference_count=len(sure),
        uncertain=with_context(ws, sorted(blocking, key=lambda h: (h.file, h.line, h.column)), loaded),
        uncertain_reason=reason,
        notes={p: n for p, n in notes.items() if n},
    )


def _keyword_function(ws: Workspace, param: Parameter) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The function statement of a parameter callers may pass by name (not ``self``/``cls``)."""
    if param.kind not in KEYWORD_KINDS or param.name in ("self", "cls"):
        return None
    try:
        return function_node(ast.parse(read_text(ws, param.file)), param.function)
    except (SyntaxError, ValueError):
        return None


def _shared_signature(ws: Workspace, param: Parameter) -> str | None:
    """Why the parameter's name is fixed by others, or None: pytest (pluggy) calls a hook
    implementation (``def pytest_collection_modifyitems(config, items)``) with the arguments its
    hook specification names; a ``singledispatch`` function and the implementations registered on
    it (``@fmt.register``) are called with one set of keywords."""
    node = _keyword_function(ws, param)
    if node is None:
        return None
    if node.name.startswith("pytest_") and param.function.parent_path is None:
        return (
            f"pytest calls the hook {node.name!r} with its arguments by name (pluggy checks them against"
            f" the hook's specification): {param.name!r} cannot be renamed"
        )
    decorators = [d.func if isinstance(d, ast.Call) else d for d in node.decorator_list]
    if any(last_name(d) in ("singledispatch", "singledispatchmethod", "register") for d in decorators):
        return (
            f"{node.name!r} is a singledispatch function or one of its registered implementations: they"
            f" are called with the same keywords, so rename {param.name!r} in all of them by hand"
        )
    return None


# what reads a function's parameter names: a decorator doing so may call it with keywords made
# from those names (routes, dependency injection, command lines built from a signature)
_SIGNATURE_READS = re.compile(
    r"\b(?:signature|getfullargspec|getargspec|getcallargs|get_type_hints)\s*\(|"
    r"\.__(?:code|signature|annotations)__\b|\bco_varnames\b"
)


def _signature_reader(ws: Workspace, conn: sqlite3.Connection, param: Parameter) -> str | None:
    """Why the parameter's name is read by a project function its function is given to, or None:
    a decorator, or a function it is passed to (``register(handler)``), whose body reads the
    signature (``inspect.signature(f).parameters``) may call the function with keywords named
    after its parameters. Such a function is found by its last name among the project's functions
    (a name several share is read in all of them)."""
    node = _keyword_function(ws, param)
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
    """The last names of the callees the parameter's function is passed to as an argument
    (``register(handler)``, ``app.add_route("/", view=handler)``), by its references."""
    function = param.function
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
            tree = ast.parse(read_text(ws, path))
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


def _outside_decorators(ws: Workspace, conn: sqlite3.Connection, param: Parameter) -> list[Hit]:
    """Uncertain hits at the decorators of the parameter's function that come from outside the
    project (or from nowhere known) and are not known to pass arguments as given: a framework's
    decorator may call the function with keywords named after its parameters (a route's query
    parameters, a command line's options, a task queue's keyword arguments)."""
    if not param.file.endswith(".py"):
        return []
    node = _keyword_function(ws, param)
    if node is None or not node.decorator_list:
        return []
    from astmcp.resolve.python_resolver import Resolver  # (the rename engine's, loaded with it)

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


def _injected_by_pytest(ws: Workspace, param: Parameter) -> bool:
    """A parameter of a pytest test or fixture: pytest passes fixtures by parameter name."""
    base = param.file.rsplit("/", 1)[-1]
    if not (base.startswith("test_") or base.endswith("_test.py") or base == "conftest.py"):
        return False
    node = _keyword_function(ws, param)
    if node is None:
        return False
    fixture = any(
        last_name(d.func if isinstance(d, ast.Call) else d) == "fixture" for d in node.decorator_list
    )
    test = node.name.startswith("test") and (
        param.function.parent_path is None or param.function.parent_path.split(".")[-1].startswith("Test")
    )
    return fixture or test
