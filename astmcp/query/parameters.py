"""Parameters as targets: ``<file>::<function path>.<parameter>[@LINE]``.

A parameter is no indexed symbol. A selector names one only when its path names no symbol
and its last component is a parameter of the function (or method) the rest names, so
``outer.inner`` keeps meaning a nested function. ``@LINE`` picks the function as for symbols.
"""

from __future__ import annotations

import ast
import difflib
import sqlite3
from dataclasses import dataclass

from astmcp.errors import AmbiguousTarget, InvalidInput, NotFound
from astmcp.query.common import SymbolRow, SymbolTarget, candidate, query_symbols, resolve_symbol
from astmcp.query.pytrees import parsed_tree, per_tree
from astmcp.workspace import Workspace

__all__ = ["KEYWORD_KINDS", "Parameter", "function_node", "parameters_of", "resolve_target"]

_FUNCTION_KINDS = ("function", "method", "property", "constructor", "getter", "setter")
# the kinds a call can bind by keyword (Python); positional-only and *args/**kwargs cannot
KEYWORD_KINDS = frozenset({"positional", "keyword_only"})


@dataclass(frozen=True, slots=True)
class Parameter:
    """One parameter of ``function``: where its name is declared (1-based, code points, end exclusive).

    ``kind``: ``positional_only``, ``positional``, ``keyword_only``, ``var_positional``,
    ``var_keyword`` (Python); TS/JS parameters are ``positional``, or ``property`` for a
    constructor parameter property (a class member as well)."""

    function: SymbolRow
    name: str
    kind: str
    line: int
    column: int
    end_column: int

    @property
    def file(self) -> str:
        return self.function.file

    @property
    def selector(self) -> str:
        file, _, path = self.function.selector.rpartition("::")
        path, at, line = path.partition("@")
        return f"{file}::{path}.{self.name}{at}{line}"

    @property
    def by_keyword(self) -> bool:
        return is_python(self.file) and self.kind in KEYWORD_KINDS


def is_python(path: str) -> bool:
    return path.endswith((".py", ".pyi"))


def read_text(ws: Workspace, path: str) -> str:
    with open(ws.root / path, "rb") as handle:
        return handle.read().decode("utf-8-sig", errors="replace")


def parse_python(ws: Workspace, path: str) -> ast.Module:
    """``path``'s syntax tree, parsed once per text (a prepare's checks each read the same file);
    shared: callers must not change it. Raises OSError, SyntaxError or ValueError."""
    return parsed_tree(read_text(ws, path))


def _column(lines: list[str], line: int, byte_col: int) -> int:
    raw = lines[line - 1] if 0 < line <= len(lines) else ""
    if raw.isascii():
        return byte_col + 1
    return len(raw.encode("utf-8")[:byte_col].decode("utf-8", errors="replace")) + 1


def function_node(tree: ast.Module, function: SymbolRow) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The ``def`` a function symbol was indexed from (its keyword or name line; the first in walk
    order when both lines hold one)."""
    found = [
        hit
        for hit in (_defs(tree).get((function.name, line)) for line in (function.line, function.name_line))
        if hit
    ]
    return min(found, key=lambda hit: hit[0])[1] if found else None


@per_tree
def _defs(tree: ast.Module) -> dict[tuple[str, int], tuple[int, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """The first ``def`` of each name and line, with its place in walk order (per tree: the
    trees are shared, see :func:`parsed_tree`)."""
    found: dict[tuple[str, int], tuple[int, ast.FunctionDef | ast.AsyncFunctionDef]] = {}
    for order, node in enumerate(ast.walk(tree)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found.setdefault((node.name, node.lineno), (order, node))
    return found


def _python_parameters(text: str, function: SymbolRow) -> list[Parameter]:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    node = function_node(tree, function)
    if node is None:
        return []
    lines = text.splitlines()
    args = node.args
    listed: list[tuple[ast.arg, str]] = [(a, "positional_only") for a in args.posonlyargs]
    listed += [(a, "positional") for a in args.args]
    listed += [(args.vararg, "var_positional")] if args.vararg else []
    listed += [(a, "keyword_only") for a in args.kwonlyargs]
    listed += [(args.kwarg, "var_keyword")] if args.kwarg else []
    out = []
    for arg, kind in listed:
        column = _column(lines, arg.lineno, arg.col_offset)
        out.append(Parameter(function, arg.arg, kind, arg.lineno, column, column + len(arg.arg)))
    return out


def _ts_parameters(text: str, function: SymbolRow) -> list[Parameter]:
    from astmcp.refactor.tsscopes import TsFile

    ts = TsFile(function.file, text)
    name = ts.node_at(function.name_line, function.name_col)
    owner = name.parent if name is not None else None
    if owner is not None and owner.child_by_field_name("parameters") is None:
        owner = owner.child_by_field_name("value")  # const f = (a) => …, field = function (a) {…}
    if owner is None:
        return []
    params = owner.child_by_field_name("parameters")
    single = owner.child_by_field_name("parameter")  # a => …
    children = params.named_children if params is not None else [single] if single is not None else []
    out = []
    for child in children:
        pattern = child.child_by_field_name("pattern") if child.type.endswith("_parameter") else child
        if pattern is not None and pattern.type == "assignment_pattern":
            pattern = pattern.child_by_field_name("left")
        if pattern is None or pattern.type != "identifier":
            continue  # destructured parameters name properties: rename those through their type
        row, byte_col = pattern.start_point
        text_name = (pattern.text or b"").decode("utf-8", errors="replace")
        column = _column(ts.lines, row + 1, byte_col)
        modifiers = {c.type for c in child.children}
        kind = (
            "property"
            if modifiers & {"accessibility_modifier", "override_modifier", "readonly"}
            else "positional"
        )
        out.append(Parameter(function, text_name, kind, row + 1, column, column + len(text_name)))
    return out


def parameters_of(ws: Workspace, function: SymbolRow) -> list[Parameter]:
    """The declared parameters of a function symbol, in order (none for other kinds)."""
    if function.kind not in _FUNCTION_KINDS:
        return []
    text = read_text(ws, function.file)
    if is_python(function.file):
        return _python_parameters(text, function)
    return _ts_parameters(text, function)


def resolve_target(ws: Workspace, conn: sqlite3.Connection, target: SymbolTarget) -> SymbolRow | Parameter:
    """The symbol a target names or, when its path names none, the parameter it names."""
    try:
        return resolve_symbol(ws, conn, target)
    except NotFound as missing:
        found = _resolve_parameter(ws, conn, target)
        if found is None:
            raise missing from None
        return found


def rebound_parameter(ws: Workspace, conn: sqlite3.Connection, row: SymbolRow) -> Parameter | None:
    """The parameter a function-local declaration rebinds (``def compile(log_function=None)``
    with ``def log_function(x)`` inside when none is given): one name, renamed as the parameter
    (with the ``log_function=`` keywords of the calls), not as a local."""
    if not row.parent_path:
        return None
    marks = ",".join("?" * len(_FUNCTION_KINDS))
    owners = query_symbols(
        conn,
        f"f.path = ? AND s.symbol_path = ? AND s.kind IN ({marks}) AND s.start_line <= ? AND s.end_line >= ?",
        (row.file, row.parent_path, *_FUNCTION_KINDS, row.line, row.line),
    )
    for owner in owners:
        for parameter in parameters_of(ws, owner):
            if parameter.name == row.name and parameter.kind != "property":
                return parameter
    return None


def _resolve_parameter(ws: Workspace, conn: sqlite3.Connection, target: SymbolTarget) -> Parameter | None:
    file_part, symbol_part = target.parts()
    path = ws.resolve_file(conn, file_part)
    symbol_path, at, line = symbol_part.partition("@")
    prefix, dot, name = symbol_path.rpartition(".")
    if not dot or not prefix or not name or (at and not line.isdigit()):
        return None
    marks = ",".join("?" * len(_FUNCTION_KINDS))
    rows = query_symbols(
        conn,
        f"f.path = ? AND s.symbol_path = ? AND s.kind IN ({marks}) ORDER BY s.line",
        (path, prefix, *_FUNCTION_KINDS),
    )
    if at:
        number = int(line)
        exact = [r for r in rows if r.line == number]
        rows = exact or [r for r in rows if r.start_line <= number <= r.end_line]
    declared = [p for row in rows for p in parameters_of(ws, row)]
    found = [p for p in declared if p.name == name]
    if not found:
        if declared:  # the function exists: its parameters are the likeliest meant
            close = difflib.get_close_matches(name, [p.name for p in declared], n=5, cutoff=0.5)
            suggestions = [p.selector for n in close for p in declared if p.name == n]
            suggestions = suggestions or [p.selector for p in declared]
            raise NotFound(f"{prefix!r} in {path} has no parameter {name!r}", suggestions[:5])
        return None
    if len(found) > 1:
        raise AmbiguousTarget(
            f"{len(found)} functions {prefix!r} in {path} have a parameter {name!r}; add @LINE",
            [{**candidate(p.function), "selector": p.selector, "kind": "parameter"} for p in found],
        )
    if found[0].kind == "property":
        raise InvalidInput(
            f"{name!r} is a constructor parameter property; rename the property"
            f" {path}::{found[0].function.parent_path}.{name} instead"
        )
    return found[0]
