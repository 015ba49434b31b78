"""Call sites of a Python function for its parameters' keywords (:mod:`astmcp.query.parameter_refs`):
``name=`` at calls resolved to it, at calls that take it as an argument or name it in
``getattr``, ``cls(…)``/``type(self)(…)`` constructions, forwarded ``**kwargs`` and keywords
that go into another function's ``**kwargs``. Positions: 1-based lines, code-point columns.
"""

from __future__ import annotations

import ast
import builtins
import functools
import re
import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from astmcp.model import Reference
from astmcp.query.common import SymbolRow, query_symbols
from astmcp.query.parameters import function_node, is_python, parameters_of, read_text
from astmcp.query.pytrees import TextCache
from astmcp.query.references import twins
from astmcp.workspace import Workspace

__all__ = [
    "RANK",
    "CallSite",
    "Collected",
    "PythonFiles",
    "into_kwargs",
    "keyword_sites",
    "parsed_file",
    "self_constructions",
]

RANK = {"certain": 0, "likely": 1, "name": 2}


@dataclass(frozen=True, slots=True)
class CallSite:
    """A call the index resolves to a member (certain/likely): the keywords it passes."""

    file: str
    line: int
    keywords: frozenset[str]


@dataclass(slots=True)
class Collected:
    """What the call-site passes gather: references by position, ``**mapping`` sites, and the
    keywords of every resolved call (for collision checks)."""

    found: dict[tuple[str, int, int], Reference] = field(default_factory=dict)
    unpacked: list[Reference] = field(default_factory=list)
    sites: list[CallSite] = field(default_factory=list)


class ParsedFile:
    """A file's scopes and its calls by where the callee ends (code points); the call maps are
    built when first asked for (many checks read only the scopes)."""

    def __init__(self, text: str) -> None:
        from astmcp.refactor.pyscopes import FileScopes

        self.scopes = FileScopes(text)

    @functools.cached_property
    def enclosing(self) -> dict[int, ast.FunctionDef | ast.AsyncFunctionDef]:
        """id(call) -> the innermost ``def`` holding it."""
        found: dict[int, ast.FunctionDef | ast.AsyncFunctionDef] = {}
        for function in ast.walk(self.scopes.tree):  # outer defs come first, inner ones overwrite
            if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                for inner in ast.walk(function):
                    if isinstance(inner, ast.Call):
                        found[id(inner)] = function
        return found

    @property
    def by_callee(self) -> dict[tuple[int, int], ast.Call]:
        return self._calls[0]

    @property
    def by_argument(self) -> dict[tuple[int, int], ast.Call]:
        """partial(f, …), ctx.invoke(f, …)"""
        return self._calls[1]

    @property
    def by_string(self) -> dict[tuple[int, int], ast.Call]:
        """getattr(obj, "f")(…)"""
        return self._calls[2]

    @property
    def by_keyword(self) -> dict[tuple[int, int], ast.Call]:
        """a keyword's name -> its call"""
        return self._calls[3]

    @functools.cached_property
    def _calls(
        self,
    ) -> tuple[
        dict[tuple[int, int], ast.Call],
        dict[tuple[int, int], ast.Call],
        dict[tuple[int, int], ast.Call],
        dict[tuple[int, int], ast.Call],
    ]:
        by_callee: dict[tuple[int, int], ast.Call] = {}
        by_argument: dict[tuple[int, int], ast.Call] = {}
        by_string: dict[tuple[int, int], ast.Call] = {}
        by_keyword: dict[tuple[int, int], ast.Call] = {}
        for node in ast.walk(self.scopes.tree):
            if not isinstance(node, ast.Call):
                continue
            by_callee[self.end(node.func)] = node
            for keyword in node.keywords:
                if keyword.arg is not None:
                    by_keyword[
                        (keyword.lineno, self.scopes.column_of(keyword.lineno, keyword.col_offset))
                    ] = node
            if node.keywords:
                for arg in node.args:
                    by_argument[self.end(arg)] = node
            inner = node.func
            if (
                isinstance(inner, ast.Call)
                and _callee_name(inner.func) == "getattr"
                and len(inner.args) >= 2
                and isinstance(inner.args[1], ast.Constant)
            ):
                const = inner.args[1]
                by_string[(const.lineno, self.scopes.column_of(const.lineno, const.col_offset))] = node
        return by_callee, by_argument, by_string, by_keyword

    def end(self, node: ast.expr) -> tuple[int, int]:
        line = node.end_lineno or node.lineno
        return line, self.scopes.column_of(line, node.end_col_offset or 0)


def _callee_name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


class PythonFiles:
    def __init__(self, ws: Workspace) -> None:
        self.ws = ws
        self.parsed: dict[str, ParsedFile | None] = {}

    def matching(
        self, conn: sqlite3.Connection, wanted: Callable[[str], bool]
    ) -> Iterator[tuple[str, ParsedFile]]:
        """(path, parsed file) of each project Python file, in path order, whose text ``wanted``
        accepts (a file parsed already is judged parsed, not read again)."""
        for (path,) in conn.execute("SELECT path FROM files WHERE language = 'python' ORDER BY path"):
            if path not in self.parsed:
                try:
                    text = read_text(self.ws, path)
                except (OSError, ValueError):
                    continue
                if not wanted(text):
                    continue
                self.get(path, text)
            parsed = self.parsed[path]
            if parsed is not None:
                yield str(path), parsed

    def get(self, path: str, text: str | None = None) -> ParsedFile | None:
        """``path`` parsed once (``text``: its text, when the caller has read it already)."""
        if path not in self.parsed:
            try:
                source = text if text is not None else read_text(self.ws, path)
                self.parsed[path] = parsed_file(source) if is_python(path) else None
            except (OSError, SyntaxError, ValueError):
                self.parsed[path] = None
        return self.parsed[path]


# The files parsed lately, by text: a prepare runs several guards over the same files (each with
# its own PythonFiles), and a user prepares again after a change elsewhere. A parse depends on the
# text alone, and nothing changes one once built.
_FILES: TextCache[ParsedFile] = TextCache(40_000)


def parsed_file(text: str) -> ParsedFile:
    """``text`` parsed (:class:`ParsedFile`), from the recent parses when it is one of them."""
    return _FILES.get(text, ParsedFile)


def _doctest_keywords(
    conn: sqlite3.Connection, ref: Reference, name: str, confidence: str, into: Collected
) -> None:
    """A call in a doctest example (no code the parser sees): its keywords are the rows the
    resolver gave them (``S:f/=name`` after the read of ``f`` on that line)."""
    for line, col, end_col in conn.execute(
        "SELECT r.line, r.col, r.end_col FROM refs r JOIN files f ON f.id = r.file_id WHERE f.path = ?"
        " AND r.line = ? AND r.col > ? AND r.name = ? AND r.kind = 'write' AND r.target_key LIKE ?",
        (ref.file, ref.line, ref.column, name, f"%/={name}"),
    ):
        key = (ref.file, line, col)
        if key not in into.found:
            into.found[key] = Reference(ref.file, line, col, end_col, "write", confidence, False)


def keyword_sites(
    conn: sqlite3.Connection,
    files: PythonFiles,
    ref: Reference,
    name: str,
    level: str,
    into: Collected,
) -> SymbolRow | None:
    """``name=`` at the call ``ref`` is the callee of (at most ``level`` sure); at a call that
    takes the function as an argument (``partial(f, name=…)``, ``ctx.invoke(f, name=…)``: it
    may pass the keyword on) or names it in ``getattr``, a name hit. ``**kwargs`` there is an
    unpacked site, unless it is the enclosing function's own ``**kwargs`` passed on untouched:
    that function is returned (a forwarder; its callers' keywords reach this call)."""
    parsed = files.get(ref.file)
    if parsed is None:
        return None
    confidence = max(ref.confidence, level, key=RANK.__getitem__)
    call = parsed.by_callee.get((ref.line, ref.end_column))
    if call is None:
        call = parsed.by_argument.get((ref.line, ref.end_column)) or parsed.by_string.get(
            (ref.line, ref.column)
        )
        if call is None:
            _doctest_keywords(conn, ref, name, confidence, into)
            return None
        confidence = "name"
    if confidence != "name":
        into.sites.append(CallSite(ref.file, ref.line, frozenset(k.arg for k in call.keywords if k.arg)))
    named = [k for k in call.keywords if k.arg == name]
    for keyword in named:
        column = parsed.scopes.column_of(keyword.lineno, keyword.col_offset)
        key = (ref.file, keyword.lineno, column)
        if key not in into.found or RANK[confidence] < RANK[into.found[key].confidence]:
            into.found[key] = Reference(
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
        into.unpacked.append(Reference(ref.file, keyword.lineno, column, column + 2, "call", "name", False))
    return forwarder


def _forwarder(
    conn: sqlite3.Connection, parsed: ParsedFile, path: str, call: ast.Call, value: ast.expr, name: str
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


def into_kwargs(
    conn: sqlite3.Connection,
    files: PythonFiles,
    name: str,
    done: set[int],
    into: Collected,
) -> None:
    """``name=`` passed to another project function that takes it in ``**kwargs`` and passes those
    on (``@click.command(context_settings=…)`` ends in ``cls(**attrs)`` with ``cls`` a variable),
    or to a call of a project variable or attribute (``cb = g`` then ``cb(name=…)``): it may reach
    the parameter by a way the index cannot follow, so it is a name hit."""
    callees: dict[int, bool] = {}
    by_name: dict[str, bool] = {}  # callees nothing resolves, by their name
    pattern = re.compile(rf"\b{re.escape(name)}\s*=")
    places = [
        (path, line, col, call)
        for path, parsed in files.matching(conn, lambda text: pattern.search(text) is not None)
        for (line, col), call in parsed.by_keyword.items()
        if any(
            k.arg == name and k.lineno == line and parsed.scopes.column_of(line, k.col_offset) == col
            for k in call.keywords
        )
    ]
    for path, line, col, call in places:
        if (path, line, col) in into.found:
            continue
        parsed = files.get(path)
        if parsed is None:
            continue
        end_line, end_col = parsed.end(call.func)
        row = conn.execute(
            "SELECT r.symbol_id FROM refs r JOIN files f ON f.id = r.file_id WHERE f.path = ? AND r.line = ?"
            " AND r.end_col = ? AND r.symbol_id IS NOT NULL AND r.confidence = 'certain'",
            (path, end_line, end_col),
        ).fetchone()
        if row is None:
            # `runner.invoke(cli, obj=…)` on an untyped receiver: any project function of that
            # name that passes its **kwargs on may be the one called
            callee_name = _callee_name(call.func)
            if callee_name is not None and callee_name not in by_name:
                by_name[callee_name] = any(
                    sym.id not in done and _passes_kwargs_on(conn, files, sym.id, name)
                    for sym in query_symbols(
                        conn, "s.name = ? AND s.kind IN ('function', 'method')", (callee_name,)
                    )
                )
            if callee_name is not None and by_name[callee_name]:
                into.found[(path, line, col)] = Reference(
                    path, line, col, col + len(name), "write", "name", False
                )
            continue
        if row[0] in done:
            continue
        if row[0] not in callees:
            holder = query_symbols(conn, "s.id = ?", (row[0],))
            # `cb = g` then `cb(name=…)`: a variable or attribute may hold the function
            callees[row[0]] = bool(
                holder and holder[0].kind in ("variable", "attribute")
            ) or _passes_kwargs_on(conn, files, row[0], name)
        if callees[row[0]]:
            into.found[(path, line, col)] = Reference(
                path, line, col, col + len(name), "write", "name", False
            )


def _passes_kwargs_on(
    conn: sqlite3.Connection, files: PythonFiles, symbol_id: int, name: str, seen: set[int] | None = None
) -> bool:
    """Whether a declaration of the callee (overloads and stubs included) takes ``**kwargs``
    without a parameter ``name`` and passes them on to a call the index cannot follow, directly
    or through other project functions doing the same (a callee outside the project is not ours)."""
    seen = seen if seen is not None else set()
    if symbol_id in seen:
        return False
    seen.add(symbol_id)
    callee = query_symbols(conn, "s.id = ?", (symbol_id,))
    if callee and callee[0].kind == "class":
        cls = callee[0]
        callee = query_symbols(
            conn, "f.path = ? AND s.symbol_path = ?", (cls.file, f"{cls.symbol_path}.__init__")
        )
    if not callee or callee[0].kind not in ("function", "method"):
        return False
    for declaration in twins(conn, callee[0]):
        declared = parameters_of(files.ws, declaration)
        kwargs = next((p.name for p in declared if p.kind == "var_keyword"), None)
        parsed = files.get(declaration.file)
        if kwargs is None or parsed is None or any(p.name == name for p in declared):
            continue
        node = function_node(parsed.scopes.tree, declaration)
        for call in ast.walk(node) if node is not None else []:
            if isinstance(call, ast.Call) and any(
                k.arg is None and isinstance(k.value, ast.Name) and k.value.id == kwargs
                for k in call.keywords
            ):
                line, end = parsed.end(call.func)
                resolved = conn.execute(
                    "SELECT r.symbol_id FROM refs r JOIN files f ON f.id = r.file_id WHERE f.path = ?"
                    " AND r.line = ? AND r.end_col = ? AND r.confidence IN ('certain', 'none')",
                    (declaration.file, line, end),
                ).fetchone()
                if resolved is None:
                    return True
                held = query_symbols(conn, "s.id = ?", (resolved[0],)) if resolved[0] is not None else []
                if held and held[0].kind in ("variable", "attribute"):
                    return True  # `self.context_class(…, **extra)`: whatever the attribute holds
                if resolved[0] is not None and _passes_kwargs_on(conn, files, resolved[0], name, seen):
                    return True
    return False


def self_constructions(
    conn: sqlite3.Connection,
    files: PythonFiles,
    cls: SymbolRow,
    name: str,
    confidence: str,
    into: Collected,
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
                    into.sites.append(
                        CallSite(cls.file, call.lineno, frozenset(k.arg for k in call.keywords if k.arg))
                    )
                for keyword in call.keywords:
                    column = parsed.scopes.column_of(keyword.lineno, keyword.col_offset)
                    if keyword.arg == name:
                        ref = Reference(
                            cls.file, keyword.lineno, column, column + len(name), "write", confidence, False
                        )
                        into.found.setdefault((cls.file, keyword.lineno, column), ref)
                    elif keyword.arg is None:
                        into.unpacked.append(
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


def unknown_callee_keywords(
    conn: sqlite3.Connection,
    files: PythonFiles,
    name: str,
    attributes: set[str],
    into: Collected,
) -> None:
    """``name=`` at calls whose callee the index cannot type (``fn(v, name=…)`` with ``fn`` a
    parameter, ``HANDLERS[kind](name=…)``, ``get_factory()(name=…)``, ``self.callback(name=…)``):
    for a function that flows on as a value, or that a project decorator receives, any of them
    may call it, so each is a name hit. Callees that are builtins or names a module imports from
    outside the project are not, nor methods of untyped receivers other than ``attributes`` (the
    names the function is passed or stored under, and its own: ``self.callback(…)`` after
    ``callback=f``; not ``"…".format(name=…)``)."""
    pattern = re.compile(rf"\b{re.escape(name)}\s*=")
    for path, parsed in files.matching(conn, lambda text: pattern.search(text) is not None):
        imported = _imported_names(parsed.scopes.tree)
        for (line, col), call in parsed.by_keyword.items():
            if (path, line, col) in into.found or not any(k.arg == name for k in call.keywords):
                continue
            keyword = next(k for k in call.keywords if k.arg == name)
            if (keyword.lineno, parsed.scopes.column_of(keyword.lineno, keyword.col_offset)) != (line, col):
                continue
            if _typed_callee(conn, path, parsed, call.func, imported, attributes):
                continue
            into.found[(path, line, col)] = Reference(
                path, line, col, col + len(name), "write", "name", False
            )


_KWARGS_KEYWORDS = frozenset({"kwargs", "kwds"})
# what a mock records a call with, compared by keyword (`m.assert_called_once_with(x, retries=3)`,
# `m.call_args == call(retries=3)`)
_MOCK_COMPARISONS = frozenset(
    {"assert_called_with", "assert_called_once_with", "assert_any_call", "assert_awaited_with"}
    | {"assert_awaited_once_with", "assert_any_await", "call"}
)


def getattr_call_keywords(files: PythonFiles, conn: sqlite3.Connection, name: str, into: Collected) -> None:
    """``name=`` at a call of what ``getattr`` gave (``getattr(self, f"handle_{kind}")(data=…)``,
    ``getattr(obj, attr)(speed=3)``): any function or method may be called there, so each is a
    name hit."""
    keyword = re.compile(rf"\b{re.escape(name)}\s*=")
    for path, parsed in files.matching(
        conn, lambda text: "getattr(" in text and keyword.search(text) is not None
    ):
        for node in ast.walk(parsed.scopes.tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Call)
                and isinstance(node.func.func, ast.Name)
                and node.func.func.id == "getattr"
            ):
                for given in node.keywords:
                    if given.arg == name:
                        _name_hit(into, path, parsed, given, name, "write")


def mock_call_keywords(
    files: PythonFiles, conn: sqlite3.Connection, function: str, name: str, into: Collected
) -> None:
    """``name=`` in a mock's recorded-call comparison (``assert_called_once_with``, ``call(…)``,
    ``call_args.kwargs["name"]``) in a file that names the function (``patch.object(m, "send")``,
    ``patch("pkg.m.send")``): the mock standing for the function records its callers' keywords,
    so each is a name hit."""
    keyword = re.compile(rf"""(?:\b{re.escape(name)}\s*=|["']{re.escape(name)}["'])""")
    for path, parsed in files.matching(
        conn, lambda text: function in text and "call" in text and keyword.search(text) is not None
    ):
        for node in ast.walk(parsed.scopes.tree):
            if (
                isinstance(node, ast.Subscript)
                and _recorded_keywords(node.value)
                and isinstance(node.slice, ast.Constant)
                and node.slice.value == name
            ):  # `m.call_args.kwargs["retries"]`
                _name_hit(into, path, parsed, node.slice, name, "string")
            elif isinstance(node, ast.Compare) and any(
                _recorded_keywords(side) for side in (node.left, *node.comparators)
            ):  # `m.call_args.kwargs == {"retries": 3}`, `… == dict(retries=3)`
                for side in (node.left, *node.comparators):
                    if isinstance(side, ast.Dict):
                        for key in side.keys:
                            if isinstance(key, ast.Constant) and key.value == name:
                                _name_hit(into, path, parsed, key, name, "string")
                    elif isinstance(side, ast.Call) and _callee_name(side.func) == "dict":
                        for given in side.keywords:
                            if given.arg == name:
                                _name_hit(into, path, parsed, given, name, "write")
            elif isinstance(node, ast.Call) and _callee_name(node.func) in _MOCK_COMPARISONS:
                for given in node.keywords:
                    if given.arg == name:
                        _name_hit(into, path, parsed, given, name, "write")


def _recorded_keywords(node: ast.expr) -> bool:
    """A mock's recorded keywords: ``m.call_args.kwargs``, ``m.call_args[1]``."""
    if isinstance(node, ast.Attribute):
        return node.attr == "kwargs"
    return (
        isinstance(node, ast.Subscript)
        and isinstance(node.value, ast.Attribute)
        and node.value.attr == "call_args"
        and isinstance(node.slice, ast.Constant)
        and node.slice.value == 1
    )


def _name_hit(
    into: Collected, path: str, parsed: ParsedFile, node: ast.keyword | ast.Constant, name: str, kind: str
) -> None:
    """A name hit on ``name`` at a keyword (``name=``) or a quoted key (``"name"``), unless found already."""
    line = node.lineno
    col = parsed.scopes.column_of(line, node.col_offset)
    end = col + len(name) + (2 if isinstance(node, ast.Constant) else 0)
    into.found.setdefault((path, line, col), Reference(path, line, col, end, kind, "name", False))


def forwarded_keyword_dicts(
    files: PythonFiles, conn: sqlite3.Connection, function: str, name: str, into: Collected
) -> None:
    """``Thread(target=f, kwargs={"name": …})``, ``pool.apply_async(f, (), {"name": …})``,
    ``Timer(0, f, None, kw)``: a mapping handed to a call together with the function ``function``
    (as ``kwargs=``/``kwds=`` or positionally, written out or a variable assigned one) becomes the
    keywords of a call of it, so its key ``name`` is a name hit."""
    quoted = re.compile(rf"""(?:["']{re.escape(name)}["']|\b{re.escape(name)}\s*=)""")
    for path, parsed in files.matching(
        conn, lambda text: function in text and quoted.search(text) is not None
    ):
        tree = parsed.scopes.tree
        assigned: dict[str, list[ast.expr]] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target = node.targets[0]
                if isinstance(target, ast.Name):
                    assigned.setdefault(target.id, []).append(node.value)
                elif isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
                    # `kw["n"] = 3`: the key written into the mapping
                    entry = ast.Dict(keys=[target.slice], values=[node.value])
                    assigned.setdefault(target.value.id, []).append(entry)
        # the function under other names here (`job = work`)
        names = {function} | {n for n, values in assigned.items() if any(_names(v, function) for v in values)}
        for call in ast.walk(tree):
            if not isinstance(call, ast.Call):
                continue
            values = [*call.args, *(k.value for k in call.keywords)]
            if not any(_names(v, n) for v in values for n in names):
                continue
            mappings = [
                *(k.value for k in call.keywords if k.arg in _KWARGS_KEYWORDS),
                *(a for a in call.args if not any(_names(a, n) for n in names)),
            ]
            for mapping in mappings:
                for value in _mapping_values(mapping, assigned, 0):
                    for key in _keys_named(value, name):
                        line = getattr(key, "lineno", 0)
                        col = parsed.scopes.column_of(line, getattr(key, "col_offset", 0))
                        if (path, line, col) not in into.found:
                            end = col + len(name) + (2 if isinstance(key, ast.Constant) else 0)
                            into.found[(path, line, col)] = Reference(
                                path, line, col, end, "string", "name", False
                            )


def _mapping_values(mapping: ast.expr, assigned: dict[str, list[ast.expr]], depth: int) -> list[ast.expr]:
    """The mappings written out that ``mapping`` may be: itself, what a variable is assigned, and
    what a ``{**base}`` entry unpacks."""
    if depth > 4:
        return []
    found = [mapping]
    if isinstance(mapping, ast.Name):
        found = [
            v for value in assigned.get(mapping.id, []) for v in _mapping_values(value, assigned, depth + 1)
        ]
    elif isinstance(mapping, ast.Dict):
        for key, value in zip(mapping.keys, mapping.values, strict=True):
            if key is None:
                found += _mapping_values(value, assigned, depth + 1)
    return found


def _names(node: ast.expr, function: str) -> bool:
    """Whether ``node`` is the function by name (``f``, ``mod.f``, ``self.f``)."""
    return (isinstance(node, ast.Name) and node.id == function) or (
        isinstance(node, ast.Attribute) and node.attr == function
    )


def _keys_named(value: ast.expr, name: str) -> list[ast.AST]:
    """The keys named ``name`` of a mapping written out (``{"name": …}``, ``dict(name=…)``)."""
    if isinstance(value, ast.Dict):
        return [k for k in value.keys if isinstance(k, ast.Constant) and k.value == name]
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "dict":
        return [k for k in value.keywords if k.arg == name]
    return []


def _imported_names(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update((a.asname or a.name).split(".", 1)[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names.update(a.asname or a.name for a in node.names)
    return names


def _typed_callee(
    conn: sqlite3.Connection,
    path: str,
    parsed: ParsedFile,
    func: ast.expr,
    imported: set[str],
    attributes: set[str],
) -> bool:
    """Whether the index knows what ``func`` is (a project symbol it resolves, a builtin, an
    outside module's name): then the call is not one it cannot follow."""
    end_line, end_col = parsed.end(func)
    if isinstance(func, ast.Name | ast.Attribute):
        linked = conn.execute(
            "SELECT 1 FROM refs r JOIN files f ON f.id = r.file_id WHERE f.path = ? AND r.line = ?"
            " AND r.end_col = ? AND r.symbol_id IS NOT NULL LIMIT 1",
            (path, end_line, end_col),
        ).fetchone()
        if linked is not None:
            return True
    head = func
    while isinstance(head, ast.Attribute):
        head = head.value
    if isinstance(func, ast.Name):
        return func.id in imported or hasattr(builtins, func.id)
    if (
        isinstance(func, ast.Attribute)
        and isinstance(head, ast.Name)
        and (head.id in imported or hasattr(builtins, head.id))
    ):
        return True  # `json.dumps(indent=…)`, `str.format(…)`: an outside module's or a builtin's member
    if isinstance(func, ast.Attribute):
        # `obj.meth(…)` of an untyped obj holds the function only under a name it was handed on
        # by (`callback=fn` then `self.callback(…)`); `"…".format(…)`, `d.update(…)` do not
        return func.attr not in attributes
    return False
