"""``ast_rename_symbol`` on a parameter (``<file>::<function>.<param>``): the parameter in the
function (and, for a method, in every override that declares it), its uses, and ``name=``
keywords at resolved call sites (:mod:`astmcp.query.parameter_refs`).

Refused: an override family reaching outside the project, a pytest test/fixture parameter
(a fixture passed by name), or a parameter of a function given to a project function that reads
signatures (:mod:`astmcp.refactor.param_readers`) (``MUTATION_BLOCKED``); a new name the
function (or a scope between a use and the parameter) already binds, a use of the new name the
parameter would capture, or a resolved call that already passes ``new=`` (``NAME_COLLISION``).
``f(**mapping)`` sites and decorators from outside the project are uncertain: they block by
default and are never edited.
"""

from __future__ import annotations

import ast
import sqlite3

from astmcp.errors import InvalidInput, MutationBlocked, NameCollision
from astmcp.query.parameter_refs import parameter_references
from astmcp.query.parameters import KEYWORD_KINDS, Parameter, function_node, read_text
from astmcp.query.pytrees import parsed_tree
from astmcp.refactor import collisions
from astmcp.refactor.fixtures import last_name
from astmcp.refactor.identifiers import check_new_name
from astmcp.refactor.param_readers import outside_decorators, signature_reader
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
    node = _keyword_function(ws, param)
    shared = _shared_signature(ws, param) or signature_reader(ws, conn, param, node)
    if shared:
        raise MutationBlocked(shared, {"file": param.file, "line": param.line})
    hits = [Hit.of(r) for r in found.references]
    sure = [h for h in hits if h.confidence != "name"]
    unsure = [h for h in hits if h.confidence == "name"] + outside_decorators(ws, conn, param, node)
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
        return function_node(parsed_tree(read_text(ws, param.file)), param.function)
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
