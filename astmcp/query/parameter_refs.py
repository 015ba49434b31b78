"""References of a parameter (:mod:`astmcp.query.parameters`).

Python: the binding and every load/store of the name that the function's scopes resolve to
it (nested scopes where it is free, ``nonlocal`` included; a comprehension, lambda or nested
def that rebinds the name shadows it), plus ``name=`` keyword arguments at the call sites the
index resolves to the function (methods through typed receivers, ``__init__`` through calls
of its class and of subclasses that inherit it, ``super().__init__``, and ``cls(…)`` /
``type(self)(…)`` in their methods). Positional-only and
``*args``/``**kwargs`` parameters have no keyword sites.

Uncertain (``name``): keyword sites of calls reached by name only, calls that take the function
as an argument (``functools.partial(f, name=…)``, ``ctx.invoke(f, name=…)``), ``getattr(obj,
"f")(name=…)``, strings in the function's decorators that mention the
name (``@click.option("--name")``, ``@pytest.mark.parametrize("name", …)``), ``name=`` passed to
another project function that takes it in ``**kwargs`` and passes those on, and calls that pass
``**mapping`` (listed in ``unpacked``: no edit can follow them) — unless the mapping is the
enclosing function's own ``**kwargs`` passed on untouched: then that function's callers'
keywords are ``likely`` references (followed transitively).

A method's parameter is one target across the method's override family: a call through a
base-typed receiver reaches every override, so the same-named parameter of every member that
declares it is found (and renamed) together; members that lack it but take ``**kwargs`` may
forward it, so their keyword sites are name hits. ``__init__``/``__new__`` are no family
(constructors are called through their class).

TypeScript/JavaScript: the parameter's lexical uses in the body (no keyword arguments exist).
"""

from __future__ import annotations

import ast
import sqlite3
from collections import deque
from dataclasses import dataclass, field

from astmcp.model import Reference
from astmcp.query.common import SymbolRow, query_symbols
from astmcp.query.parameters import Parameter, function_node, is_python, parameters_of, read_text
from astmcp.query.references import collect_references, override_family, twins
from astmcp.workspace import Workspace

__all__ = ["CallSite", "ParameterReferences", "parameter_references"]

_CONSTRUCTORS = ("__init__", "__new__")
_ORDER = {"certain": 0, "likely": 0, "name": 1}
_RANK = {"certain": 0, "likely": 1, "name": 2}


@dataclass(frozen=True, slots=True)
class CallSite:
    """A call the index resolves to a member (certain/likely): the keywords it passes."""

    file: str
    line: int
    keywords: frozenset[str]


@dataclass(slots=True)
class ParameterReferences:
    """``references``: what a rename edits (certain/likely, then name hits); ``unpacked``:
    ``f(**mapping)`` sites (name hits no edit can fix); ``members``: the parameter in every
    function it is renamed in; ``external``: override family members outside the project."""

    parameter: Parameter
    members: list[Parameter]
    references: list[Reference] = field(default_factory=list)
    unpacked: list[Reference] = field(default_factory=list)
    external: list[str] = field(default_factory=list)
    sites: list[CallSite] = field(default_factory=list)

    def all(self) -> list[Reference]:
        return sorted(
            [*self.references, *self.unpacked],
            key=lambda r: (_ORDER[r.confidence], r.file, r.line, r.column),
        )


def parameter_references(ws: Workspace, conn: sqlite3.Connection, param: Parameter) -> ParameterReferences:
    if not is_python(param.file):
        return ParameterReferences(param, [param], _ts_body(ws, param))
    members, forwarding, external = _family(ws, conn, param)
    out = ParameterReferences(param, members, external=external)
    found: dict[tuple[str, int, int], Reference] = {}
    files = _Files(ws)
    for member in members:
        for ref in _body(files, member):
            found[(ref.file, ref.line, ref.column)] = ref
    if param.by_keyword:
        queue = deque([*((m.function, "certain") for m in members), *((f, "name") for f in forwarding)])
        done: set[int] = set()
        while queue:
            function, level = queue.popleft()
            if function.id in done:
                continue
            done.add(function.id)
            for ref in _callers(ws, conn, function):
                forwarder = _keyword_sites(conn, files, ref, param.name, level, found, out)
                if forwarder is not None:  # its **kwargs reach the function: so do its callers' keywords
                    queue.append((forwarder, "name" if level == "name" else "likely"))
            if function.name in _CONSTRUCTORS and function.parent_path:
                classes, redefined = _inheriting_classes(conn, function)
                for cls in classes:
                    confidence = "name" if redefined or level == "name" else "likely"
                    _self_constructions(conn, files, cls, param.name, confidence, found, out)
        _into_kwargs(ws, conn, files, param.name, done, found, out)
    unpacked = {(r.file, r.line, r.column): r for r in out.unpacked}
    out.unpacked = [r for k, r in sorted(unpacked.items()) if k not in found]
    out.references = sorted(found.values(), key=lambda r: (_ORDER[r.confidence], r.file, r.line, r.column))
    return out


# -- the family ---------------------------------------------------------------------------
def _family(
    ws: Workspace, conn: sqlite3.Connection, param: Parameter
) -> tuple[list[Parameter], list[SymbolRow], list[str]]:
    """Members renamed together, members that may forward the keyword, external members.

    Every function is one target with its other declarations (overloads, redefinitions, the
    stub beside it); a keyword parameter of a method, with its override family too."""
    function = param.function
    external: list[str] = []
    if param.by_keyword and function.kind == "method" and function.name not in _CONSTRUCTORS:
        family, external = override_family(conn, function)
    else:
        family = twins(conn, function)
    members, forwarding = [param], []
    for other in family:
        if other.id == function.id:
            continue
        declared = parameters_of(ws, other)
        same = next((p for p in declared if p.name == param.name), None)
        if same is not None and same.kind not in ("var_positional", "var_keyword"):
            members.append(same)
        elif same is None and any(p.kind == "var_keyword" for p in declared):
            forwarding.append(other)
    return members, forwarding, external


def _callers(ws: Workspace, conn: sqlite3.Connection, function: SymbolRow) -> list[Reference]:
    """References of the function (and, for a constructor, of its class and of the subclasses
    that inherit it) whose position may be the callee of a call."""
    if function.kind == "property":
        return []  # read as an attribute; a call would call what it returns
    callees = [function]
    if function.name in _CONSTRUCTORS and function.parent_path:
        callees += _inheriting_classes(conn, function)[0]
    refs: list[Reference] = []
    for callee in callees:
        refs += collect_references(ws, conn, callee, include_name_hits=True)
        refs += _aliased(conn, callee)
    return [r for r in refs if not r.is_declaration and r.kind not in ("import", "export", "inherit", "type")]


def _aliased(conn: sqlite3.Connection, symbol: SymbolRow) -> list[Reference]:
    """Uses of an import alias (``from m import f as g; g(name=…)``): not references of the
    name, but calls of the function all the same."""
    ids = [s.id for s in twins(conn, symbol)]
    return [
        Reference(path, line, col, end_col, kind, "certain", False)
        for path, line, col, end_col, kind in conn.execute(
            "SELECT f.path, r.line, r.col, r.end_col, r.kind FROM refs r JOIN files f ON f.id = r.file_id"
            f" WHERE r.symbol_id IN ({','.join('?' * len(ids))}) AND r.name != ? AND r.confidence = 'certain'",
            (*ids, symbol.name),
        )
    ]


def _inheriting_classes(conn: sqlite3.Connection, function: SymbolRow) -> tuple[list[SymbolRow], bool]:
    """The constructor's class and its subclasses that do not define the constructor again;
    and whether some subclass does (``cls(…)`` in the class may then reach another one)."""
    owners = query_symbols(
        conn, "f.path = ? AND s.symbol_path = ? AND s.kind = 'class'", (function.file, function.parent_path)
    )
    out: list[SymbolRow] = []
    seen: set[int] = set()
    redefined = False
    queue = deque(owners)
    while queue:
        cls = queue.popleft()
        if cls.id in seen:
            continue
        seen.add(cls.id)
        out.append(cls)
        for (sub,) in conn.execute(
            "SELECT src_symbol_id FROM edges WHERE dst_symbol_id = ? AND kind = 'inherits'"
            " AND src_symbol_id IS NOT NULL",
            (cls.id,),
        ):
            for row in query_symbols(conn, "s.id = ?", (sub,)):
                redefines = query_symbols(
                    conn,
                    "f.path = ? AND s.parent_path = ? AND s.name IN ('__init__', '__new__')",
                    (row.file, row.symbol_path),
                )
                if redefines:
                    redefined = True
                else:
                    queue.append(row)
    return out, redefined


def _self_constructions(
    conn: sqlite3.Connection,
    files: _Files,
    cls: SymbolRow,
    name: str,
    confidence: str,
    found: dict[tuple[str, int, int], Reference],
    out: ParameterReferences,
) -> None:
    """``cls(name=…)`` in a classmethod, ``type(self)(name=…)`` and ``self.__class__(name=…)``
    in a method of a class that inherits the constructor (the index does not type them)."""
    parsed = files.get(cls.file)
    if parsed is None:
        return
    for method in query_symbols(
        conn, "f.path = ? AND s.parent_path = ? AND s.kind = 'method'", (cls.file, cls.symbol_path)
    ):
        node = function_node(parsed.scopes.tree, method)
        positional = [*node.args.posonlyargs, *node.args.args] if node is not None else []
        if node is None or not positional:
            continue
        first = positional[0].arg
        is_classmethod = any(isinstance(d, ast.Name) and d.id == "classmethod" for d in node.decorator_list)
        for call in ast.walk(node):
            if isinstance(call, ast.Call) and _constructs(call.func, first, is_classmethod):
                if confidence != "name":
                    out.sites.append(
                        CallSite(cls.file, call.lineno, frozenset(k.arg for k in call.keywords if k.arg))
                    )
                for keyword in call.keywords:
                    column = parsed.scopes.column_of(keyword.lineno, keyword.col_offset)
                    if keyword.arg == name:
                        ref = Reference(
                            cls.file, keyword.lineno, column, column + len(name), "write", confidence, False
                        )
                        found.setdefault((cls.file, keyword.lineno, column), ref)
                    elif keyword.arg is None:
                        out.unpacked.append(
                            Reference(cls.file, keyword.lineno, column, column + 2, "call", "name", False)
                        )


def _constructs(func: ast.expr, first: str, is_classmethod: bool) -> bool:
    if is_classmethod:
        return isinstance(func, ast.Name) and func.id == first
    if isinstance(func, ast.Attribute):  # self.__class__(…)
        return func.attr == "__class__" and isinstance(func.value, ast.Name) and func.value.id == first
    return (  # type(self)(…)
        isinstance(func, ast.Call)
        and isinstance(func.func, ast.Name)
        and func.func.id == "type"
        and len(func.args) == 1
        and isinstance(func.args[0], ast.Name)
        and func.args[0].id == first
    )


# -- Python files ---------------------------------------------------------------------------
class _Parsed:
    """A file's scopes and its calls by where the callee ends (code points)."""

    def __init__(self, text: str) -> None:
        from astmcp.refactor.pyscopes import FileScopes

        self.scopes = FileScopes(text)
        self.by_callee: dict[tuple[int, int], ast.Call] = {}
        self.by_argument: dict[tuple[int, int], ast.Call] = {}  # partial(f, …), ctx.invoke(f, …)
        self.by_string: dict[tuple[int, int], ast.Call] = {}  # getattr(obj, "f")(…)
        self.by_keyword: dict[tuple[int, int], ast.Call] = {}  # a keyword's name -> its call
        self.enclosing: dict[int, ast.FunctionDef | ast.AsyncFunctionDef] = {}  # id(call) -> innermost def
        for function in ast.walk(self.scopes.tree):  # outer defs come first, inner ones overwrite
            if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                for inner in ast.walk(function):
                    if isinstance(inner, ast.Call):
                        self.enclosing[id(inner)] = function
        for node in ast.walk(self.scopes.tree):
            if not isinstance(node, ast.Call):
                continue
            self.by_callee[self.end(node.func)] = node
            for keyword in node.keywords:
                if keyword.arg is not None:
                    self.by_keyword[
                        (keyword.lineno, self.scopes.column_of(keyword.lineno, keyword.col_offset))
                    ] = node
            if node.keywords:
                for arg in node.args:
                    self.by_argument[self.end(arg)] = node
            inner = node.func
            if (
                isinstance(inner, ast.Call)
                and _callee_name(inner.func) == "getattr"
                and len(inner.args) >= 2
                and isinstance(inner.args[1], ast.Constant)
            ):
                const = inner.args[1]
                self.by_string[(const.lineno, self.scopes.column_of(const.lineno, const.col_offset))] = node

    def end(self, node: ast.expr) -> tuple[int, int]:
        line = node.end_lineno or node.lineno
        return line, self.scopes.column_of(line, node.end_col_offset or 0)


def _callee_name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


class _Files:
    def __init__(self, ws: Workspace) -> None:
        self.ws = ws
        self.parsed: dict[str, _Parsed | None] = {}

    def get(self, path: str) -> _Parsed | None:
        if path not in self.parsed:
            try:
                self.parsed[path] = _Parsed(read_text(self.ws, path)) if is_python(path) else None
            except (OSError, SyntaxError, ValueError):
                self.parsed[path] = None
        return self.parsed[path]


def _body(files: _Files, param: Parameter) -> list[Reference]:
    """The binding and every use the function's scopes resolve to it; decorator strings."""
    from astmcp.refactor.pyscopes import resolve

    parsed = files.get(param.file)
    if parsed is None:
        return []
    scopes = parsed.scopes
    declared = scopes.occurrences.get((param.line, param.column))
    if declared is None:
        return [
            Reference(param.file, param.line, param.column, param.end_column, "definition", "certain", True)
        ]
    binding = declared.scope
    out: list[Reference] = []
    for occ in scopes.occurrences.values():
        if occ.name != param.name or occ.role not in ("bind", "use") or not occ.scope.is_within(binding):
            continue
        if resolve(occ.scope, occ.name) is not binding:
            continue
        is_decl = occ is declared
        kind = "definition" if is_decl else "write" if occ.role == "bind" else "read"
        out.append(
            Reference(param.file, occ.line, occ.column, occ.column + len(occ.name), kind, "certain", is_decl)
        )
    node = function_node(scopes.tree, param.function)
    for decorator in node.decorator_list if node is not None else []:
        for const in ast.walk(decorator):
            if (
                isinstance(const, ast.Constant)
                and isinstance(const.value, str)
                and _mentions(const.value, param.name)
            ):
                start = scopes.column_of(const.lineno, const.col_offset)
                end_line = const.end_lineno or const.lineno
                end = scopes.column_of(end_line, const.end_col_offset or 0)
                if end_line == const.lineno:
                    out.append(Reference(param.file, const.lineno, start, end, "string", "name", False))
    return out


def _mentions(text: str, name: str) -> bool:
    """``name`` as a word of ``text`` (``"--name"``, ``"name, other"``; not ``"rename"``)."""
    import re

    return re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", text) is not None


def _keyword_sites(
    conn: sqlite3.Connection,
    files: _Files,
    ref: Reference,
    name: str,
    level: str,
    found: dict[tuple[str, int, int], Reference],
    out: ParameterReferences,
) -> SymbolRow | None:
    """``name=`` at the call ``ref`` is the callee of (at most ``level`` sure); at a call that
    takes the function as an argument (``partial(f, name=…)``, ``ctx.invoke(f, name=…)``: it
    may pass the keyword on) or names it in ``getattr``, a name hit. ``**kwargs`` there is an
    unpacked site, unless it is the enclosing function's own ``**kwargs`` passed on untouched:
    that function is returned (a forwarder; its callers' keywords reach this call)."""
    parsed = files.get(ref.file)
    if parsed is None:
        return None
    confidence = max(ref.confidence, level, key=_RANK.__getitem__)
    call = parsed.by_callee.get((ref.line, ref.end_column))
    if call is None:
        call = parsed.by_argument.get((ref.line, ref.end_column)) or parsed.by_string.get(
            (ref.line, ref.column)
        )
        confidence = "name"
        if call is None:
            return None
    if confidence != "name":
        out.sites.append(CallSite(ref.file, ref.line, frozenset(k.arg for k in call.keywords if k.arg)))
    named = [k for k in call.keywords if k.arg == name]
    for keyword in named:
        column = parsed.scopes.column_of(keyword.lineno, keyword.col_offset)
        key = (ref.file, keyword.lineno, column)
        if key not in found or _RANK[confidence] < _RANK[found[key].confidence]:
            found[key] = Reference(
                ref.file, keyword.lineno, column, column + len(name), "write", confidence, False
            )
    if named:
        return None
    forwarder = None
    for keyword in call.keywords:
        if keyword.arg is not None:
            continue
        if confidence != "name" and forwarder is None:
            forwarder = _forwarder(conn, parsed, ref.file, call, keyword.value, name)
            if forwarder is not None:
                continue
        column = parsed.scopes.column_of(keyword.lineno, keyword.col_offset)
        out.unpacked.append(Reference(ref.file, keyword.lineno, column, column + 2, "call", "name", False))
    return forwarder


def _forwarder(
    conn: sqlite3.Connection, parsed: _Parsed, path: str, call: ast.Call, value: ast.expr, name: str
) -> SymbolRow | None:
    """The function whose own ``**kwargs`` ``call`` passes on, when it neither declares ``name``
    nor mentions it in a string (``kwargs.pop("name")`` would change what is passed on)."""
    function = parsed.enclosing.get(id(call))
    if function is None or not isinstance(value, ast.Name):
        return None
    args = function.args
    if args.kwarg is None or args.kwarg.arg != value.id:
        return None
    if any(a.arg == name for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]):
        return None
    for node in ast.walk(function):
        if isinstance(node, ast.Constant) and node.value == name:
            return None
    rows = query_symbols(
        conn,
        "f.path = ? AND s.name = ? AND (s.line = ? OR s.name_line = ?)",
        (path, function.name, function.lineno, function.lineno),
    )
    return rows[0] if len(rows) == 1 else None


def _into_kwargs(
    ws: Workspace,
    conn: sqlite3.Connection,
    files: _Files,
    name: str,
    done: set[int],
    found: dict[tuple[str, int, int], Reference],
    out: ParameterReferences,
) -> None:
    """``name=`` passed to another project function that takes it in ``**kwargs`` and passes those
    on (``@click.command(context_settings=…)`` ends in ``cls(**attrs)`` with ``cls`` a variable):
    it may reach the parameter by a way the index cannot follow, so it is a name hit."""
    callees: dict[int, bool] = {}
    for path, line, col in conn.execute(
        "SELECT f.path, r.line, r.col FROM refs r JOIN files f ON f.id = r.file_id"
        " WHERE r.name = ? AND r.kind = 'write' AND f.language = 'python'",
        (name,),
    ):
        if (path, line, col) in found:
            continue
        parsed = files.get(path)
        call = parsed.by_keyword.get((line, col)) if parsed is not None else None
        if parsed is None or call is None:
            continue
        end_line, end_col = parsed.end(call.func)
        row = conn.execute(
            "SELECT r.symbol_id FROM refs r JOIN files f ON f.id = r.file_id WHERE f.path = ? AND r.line = ?"
            " AND r.end_col = ? AND r.symbol_id IS NOT NULL AND r.confidence = 'certain'",
            (path, end_line, end_col),
        ).fetchone()
        if row is None or row[0] in done:
            continue
        if row[0] not in callees:
            callees[row[0]] = _passes_kwargs_on(ws, conn, row[0], name)
        if callees[row[0]]:
            found[(path, line, col)] = Reference(path, line, col, col + len(name), "write", "name", False)


def _passes_kwargs_on(ws: Workspace, conn: sqlite3.Connection, symbol_id: int, name: str) -> bool:
    """Whether a declaration of the callee (overloads and stubs included) takes ``**kwargs``
    without a parameter ``name`` and passes them on to another call."""
    callee = query_symbols(conn, "s.id = ?", (symbol_id,))
    if callee and callee[0].kind == "class":
        cls = callee[0]
        callee = query_symbols(
            conn, "f.path = ? AND s.symbol_path = ?", (cls.file, f"{cls.symbol_path}.__init__")
        )
    if not callee or callee[0].kind not in ("function", "method"):
        return False
    for declaration in twins(conn, callee[0]):
        declared = parameters_of(ws, declaration)
        kwargs = next((p.name for p in declared if p.kind == "var_keyword"), None)
        if kwargs is None or any(p.name == name for p in declared):
            continue
        try:
            node = function_node(ast.parse(read_text(ws, declaration.file)), declaration)
        except (SyntaxError, ValueError):
            continue
        if node is not None and any(
            isinstance(k, ast.keyword)
            and k.arg is None
            and isinstance(k.value, ast.Name)
            and k.value.id == kwargs
            for k in ast.walk(node)
        ):
            return True
    return False


# -- TypeScript / JavaScript ------------------------------------------------------------------
def _ts_body(ws: Workspace, param: Parameter) -> list[Reference]:
    from astmcp.refactor.tsscopes import TsFile

    ts = TsFile(param.file, read_text(ws, param.file))
    out = []
    for line, column, end in ts.lexical_references(param.line, param.column, param.name):
        is_decl = (line, column) == (param.line, param.column)
        kind = "definition" if is_decl else "read"
        out.append(Reference(param.file, line, column, end, kind, "certain", is_decl))
    if not any(r.is_declaration for r in out):
        out.append(
            Reference(param.file, param.line, param.column, param.end_column, "definition", "certain", True)
        )
    return sorted(out, key=lambda r: (r.line, r.column))
