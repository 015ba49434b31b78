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
import re
import sqlite3
from collections import deque
from dataclasses import dataclass, field

from astmcp.model import Reference
from astmcp.query.common import SymbolRow, ancestry, query_symbols
from astmcp.query.parameter_calls import (
    CallSite,
    Collected,
    ParsedFile,
    PythonFiles,
    forwarded_keyword_dicts,
    getattr_call_keywords,
    into_kwargs,
    keyword_sites,
    mock_call_keywords,
    self_constructions,
    unknown_callee_keywords,
)
from astmcp.query.parameters import (
    Parameter,
    function_node,
    is_python,
    parameters_of,
    parse_python,
    read_text,
)
from astmcp.query.references import collect_references, override_family, twins, unread_bases
from astmcp.refactor.textio import position_of
from astmcp.workspace import Workspace

__all__ = ["CallSite", "ParameterReferences", "parameter_references"]

_CONSTRUCTORS = ("__init__", "__new__")
_ORDER = {"certain": 0, "likely": 0, "name": 1}


@dataclass(slots=True)
class ParameterReferences:
    """``references``: what a rename edits (certain/likely, then name hits); ``unpacked``:
    ``f(**mapping)`` sites (name hits no edit can fix); ``members``: the parameter in every
    function it is renamed in; ``external``: override family members outside the project;
    ``sites``: the keywords of every resolved call (a clash when one already passes the new name)."""

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
    into = Collected()
    files = PythonFiles(ws)
    for member in members:
        for ref in _body(files, member):
            into.found[(ref.file, ref.line, ref.column)] = ref
    if param.by_keyword:
        queue = deque([*((m.function, "certain") for m in members), *((f, "name") for f in forwarding)])
        done: set[int] = set()
        # some reference is no callee: the function flows into a variable; an instance's
        # `__call__` is reached through whatever holds the instance
        as_value = param.function.name == "__call__"
        # how it flows on: the keyword or variable names it is passed or assigned under
        # (`callback=show_help`, `self.cb = f`), "" where it is passed or stored nameless
        flows: set[str] = {""} if as_value else set()
        while queue:
            function, level = queue.popleft()
            if function.id in done:
                continue
            done.add(function.id)
            for ref in _callers(ws, conn, function):
                if _as_value(files, ref):
                    as_value = True
                    flows |= _flow_names(files, ref)
                forwarder = keyword_sites(conn, files, ref, param.name, level, into)
                if forwarder is not None:  # its **kwargs reach the function: so do its callers' keywords
                    queue.append((forwarder, "name" if level == "name" else "likely"))
            if function.name == "__init_subclass__" and function.parent_path:
                _class_keywords(conn, files, function, param.name, level, into)
            if function.name in _METACLASS_HOOKS and function.parent_path and _metaclass(conn, function):
                _metaclass_keywords(ws, conn, files, param.name, into)
            if function.name in _CONSTRUCTORS and function.parent_path:
                classes, redefined = _inheriting_classes(conn, function)
                for cls in classes:
                    confidence = "name" if redefined or level == "name" else "likely"
                    self_constructions(conn, files, cls, param.name, confidence, into)
        if as_value:  # only then can a call the index cannot follow (cls(**attrs)) reach it
            into_kwargs(conn, files, param.name, done, into)
            for member in members:
                forwarded_keyword_dicts(files, conn, member.function.name, param.name, into)
        if flows or any(_wrapped(ws, m) for m in members):
            attributes = {n for n in flows if n} | {m.function.name for m in members}
            unknown_callee_keywords(conn, files, param.name, attributes, into)
        for function_name in sorted({m.function.name for m in members}):
            mock_call_keywords(files, conn, function_name, param.name, into)
        getattr_call_keywords(files, conn, param.name, into)
    unpacked = {(r.file, r.line, r.column): r for r in into.unpacked}
    return ParameterReferences(
        param,
        members,
        references=sorted(
            into.found.values(), key=lambda r: (_ORDER[r.confidence], r.file, r.line, r.column)
        ),
        unpacked=[r for k, r in sorted(unpacked.items()) if k not in into.found],
        external=external,
        sites=into.sites,
    )


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
        # an outside base astmcp cannot read may define the method and call it with the keyword
        external += [f"{base}.{function.name} (could not be read)" for _, base in unread_bases(conn, family)]
    else:
        family = twins(conn, function)
    members, forwarding = [param], []
    if param.by_keyword and function.kind == "method":
        # a project Protocol's method of that name: a call through the protocol type
        # (`d.draw(canvas=out)`) may reach this implementer, which no base declares
        forwarding += _protocol_methods(conn, function, {m.id for m in family})
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


_PROTOCOL_BASES = ("typing.Protocol", "typing_extensions.Protocol")


def _protocol_methods(conn: sqlite3.Connection, function: SymbolRow, known: set[int]) -> list[SymbolRow]:
    """Methods named as ``function`` of the project's ``typing.Protocol`` classes (outside its family)."""
    marks = ",".join("?" * len(_PROTOCOL_BASES))
    classes = {
        (str(path), str(symbol_path))
        for path, symbol_path in conn.execute(
            "SELECT f.path, s.symbol_path FROM edges e JOIN symbols s ON s.id = e.src_symbol_id"
            f" JOIN files f ON f.id = s.file_id WHERE e.kind = 'inherits' AND e.dst_key IN ({marks})",
            _PROTOCOL_BASES,
        )
    }
    if not classes:
        return []
    rows = query_symbols(conn, "s.name = ? AND s.kind = 'method'", (function.name,))
    return [r for r in rows if r.id not in known and (r.file, r.parent_path) in classes]


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


# decorators that return the function itself or a descriptor calling it with the caller's arguments
_PLAIN_DECORATORS = frozenset(
    {
        "property",
        "staticmethod",
        "classmethod",
        "abstractmethod",
        "overload",
        "override",
        "final",
        "cached_property",
        "setter",
        "getter",
        "deleter",
    }
)


def _wrapped(ws: Workspace, param: Parameter) -> bool:
    """Whether a decorator other than a plain descriptor receives the function: what it returns
    may call the function with keywords of its own (``fn(*args, db=conn, **kwargs)``)."""
    try:
        node = function_node(parse_python(ws, param.function.file), param.function)
    except (OSError, SyntaxError, ValueError):
        return False
    if node is None:
        return False
    for decorator in node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        last = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
        if last not in _PLAIN_DECORATORS:
            return True
    return False


_FLOW_TARGET = re.compile(r"([A-Za-z_]\w*)\s*=\s*$")
_NOT_A_FLOW = re.compile(
    r"(?:\bexcept\s*\(?|\bisinstance\(\s*[^,]*,\s*\(?|\bissubclass\(\s*[^,]*,\s*\(?|\braise\s+"
    r"|(?:^\s*[\w.]+|[(,]\s*\w+)\s*:\s*|->\s*)$"  # annotations: `x: C`, `def f(a: C`, `-> C`
)


def _flow_names(files: PythonFiles, ref: Reference) -> set[str]:
    """How a use of the function as a value hands it on: ``{"callback"}`` for ``callback=f`` or
    ``callback = f``, ``{""}`` for a positional argument, an item or a returned value, nothing for
    ``except E``, ``isinstance(x, C)``, ``raise E`` and annotations (the class is only tested)."""
    parsed = files.get(ref.file)
    lines = parsed.scopes.lines if parsed is not None else []
    line = lines[ref.line - 1] if 0 < ref.line <= len(lines) else ""
    before = line[: ref.column - 1]
    if _NOT_A_FLOW.search(before):
        return set()
    named = _FLOW_TARGET.search(before)
    if named is not None and not before.rstrip().endswith("=="):
        return {named.group(1)}
    return {""}


def _as_value(files: PythonFiles, ref: Reference) -> bool:
    parsed = files.get(ref.file) if ref.kind in ("read", "write", "attribute") else None
    return parsed is not None and (ref.line, ref.end_column) not in parsed.by_callee


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


def _class_keywords(
    conn: sqlite3.Connection, files: PythonFiles, function: SymbolRow, name: str, level: str, into: Collected
) -> None:
    """``class A(Plugin, kind="x")``: a class statement's keywords (but ``metaclass``) go to the
    ``__init_subclass__`` of its bases, so each subclass of the method's class (through those that
    do not define the method again) passing ``name=`` is a keyword site."""
    owners = query_symbols(
        conn, "f.path = ? AND s.symbol_path = ? AND s.kind = 'class'", (function.file, function.parent_path)
    )
    seen: set[int] = set()
    queue = deque(owners)
    while queue:
        cls = queue.popleft()
        for (sub,) in conn.execute(
            "SELECT src_symbol_id FROM edges WHERE dst_symbol_id = ? AND kind = 'inherits'"
            " AND src_symbol_id IS NOT NULL",
            (cls.id,),
        ):
            if sub in seen:
                continue
            seen.add(sub)
            for row in query_symbols(conn, "s.id = ?", (sub,)):
                parsed = files.get(row.file)
                for keyword in _class_statement_keywords(parsed, row) if parsed is not None else []:
                    if keyword.arg == name and parsed is not None:
                        column = parsed.scopes.column_of(keyword.lineno, keyword.col_offset)
                        into.found.setdefault(
                            (row.file, keyword.lineno, column),
                            Reference(
                                row.file, keyword.lineno, column, column + len(name), "write", level, False
                            ),
                        )
                redefines = query_symbols(
                    conn,
                    "f.path = ? AND s.parent_path = ? AND s.name = '__init_subclass__'",
                    (row.file, row.symbol_path),
                )
                if not redefines:
                    queue.append(row)


# a class statement's keywords (but `metaclass`) also go to its metaclass's hooks
_METACLASS_HOOKS = frozenset({"__new__", "__init__", "__prepare__"})
_METACLASSES = frozenset({"builtins.type", "type", "abc.ABCMeta", "enum.EnumMeta", "enum.EnumType"})


def _metaclass(conn: sqlite3.Connection, function: SymbolRow) -> bool:
    """Whether the method's class derives from ``type`` (through project classes too)."""
    owners = query_symbols(
        conn, "f.path = ? AND s.symbol_path = ? AND s.kind = 'class'", (function.file, function.parent_path)
    )
    _, outside = ancestry(conn, [c.id for c in owners])
    return bool(outside & _METACLASSES)


def _metaclass_keywords(
    ws: Workspace, conn: sqlite3.Connection, files: PythonFiles, name: str, into: Collected
) -> None:
    """``class Base(metaclass=Meta, abstract=True)`` and its subclasses' ``class A(Base,
    abstract=False)``: which class statements reach a metaclass is not followed, so every class
    statement keyword ``name=`` in the project is an uncertain keyword site."""
    for (path,) in conn.execute("SELECT path FROM files WHERE language = 'python' ORDER BY path"):
        try:
            text = read_text(ws, path)
        except (OSError, ValueError):
            continue
        if f"{name}=" not in text.replace(" ", ""):
            continue
        parsed = files.get(path, text)
        if parsed is None:
            continue
        for node in ast.walk(parsed.scopes.tree):
            if not isinstance(node, ast.ClassDef):
                continue
            for keyword in node.keywords:
                if keyword.arg == name:
                    column = parsed.scopes.column_of(keyword.lineno, keyword.col_offset)
                    into.found.setdefault(
                        (path, keyword.lineno, column),
                        Reference(path, keyword.lineno, column, column + len(name), "write", "name", False),
                    )


def _class_statement_keywords(parsed: ParsedFile, cls: SymbolRow) -> list[ast.keyword]:
    for node in ast.walk(parsed.scopes.tree):
        inside = isinstance(node, ast.ClassDef) and node.lineno <= cls.name_line <= (
            node.end_lineno or node.lineno
        )
        if inside and isinstance(node, ast.ClassDef) and node.name == cls.name:
            return [k for k in node.keywords if k.arg not in (None, "metaclass")]
    return []


# -- Python files ---------------------------------------------------------------------------
def _body(files: PythonFiles, param: Parameter) -> list[Reference]:
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
    for at in _locals_reads(node) if node is not None else []:
        # `"{name}".format(**locals())`: the parameter's name is a key of the mapping
        word = at.id if isinstance(at, ast.Name) else "f_locals"
        start = scopes.column_of(at.lineno, (at.end_col_offset or 0) - len(word))
        out.append(Reference(param.file, at.lineno, start, start + len(word), "string", "name", False))
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


def _locals_reads(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.expr]:
    """The reads of the function's own local names as a mapping: ``locals()``, ``vars()`` and a
    frame's ``f_locals`` in its body (not in functions or classes nested in it)."""
    found: list[ast.expr] = []
    stack: list[ast.AST] = list(function.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
            continue
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("locals", "vars")
            and not node.args
            and not node.keywords
        ):
            found.append(node.func)
        elif isinstance(node, ast.Attribute) and node.attr == "f_locals":
            found.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return found


def _mentions(text: str, name: str) -> bool:
    """``name`` as a word of ``text`` (``"--name"``, ``"name, other"``; not ``"rename"``), or
    spelled with dashes as a command-line option (``"--user-name"`` for ``user_name``: click and
    argparse make the parameter name from it)."""
    if re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", text) is not None:
        return True
    dashed = name.strip("_").replace("_", "-")
    return dashed != name and re.search(rf"(?<![\w-])-{{1,2}}{re.escape(dashed)}(?![\w-])", text) is not None


# -- TypeScript / JavaScript ------------------------------------------------------------------
def _ts_body(ws: Workspace, param: Parameter) -> list[Reference]:
    from astmcp.refactor.tsscopes import TsFile

    text = read_text(ws, param.file)
    ts = TsFile(param.file, text)
    out = _jsdoc_param_tags(text, param)
    for line, column, end in ts.lexical_references(param.line, param.column, param.name):
        is_decl = (line, column) == (param.line, param.column)
        kind = "definition" if is_decl else "read"
        out.append(Reference(param.file, line, column, end, kind, "certain", is_decl))
    if not any(r.is_declaration for r in out):
        out.append(
            Reference(param.file, param.line, param.column, param.end_column, "definition", "certain", True)
        )
    return sorted(out, key=lambda r: (r.line, r.column))


# the doc comment right before a declaration (`export`, `async`… may stand between), and a
# `@param {T} name` / `@param [name=1]` tag in it
_PARAM_TAG = re.compile(r"@(?:param|arg|argument)\b\s*")
_DOC_BEFORE = re.compile(
    r"/\*\*((?:(?!\*/).)*)\*/\s*(?:(?:export|default|async|static|public|private|protected)\s+)*$", re.S
)


def _jsdoc_param_tags(text: str, param: Parameter) -> list[Reference]:
    """The parameter's name in the ``@param`` tags of its function's doc comment: TypeScript
    types a JS parameter from the tag of its name (checkJs reports a tag naming none)."""
    function = param.function
    lines = text.split("\n")
    if not 0 < function.start_line <= len(lines):
        return []
    offset = sum(len(line) + 1 for line in lines[: function.start_line - 1]) + function.start_col - 1
    doc = _DOC_BEFORE.search(text, 0, offset)
    if doc is None or doc.end() != offset:
        return []
    named = re.compile(rf"\s*\[?\s*({re.escape(param.name)})(?![\w$])")
    out = []
    for tag in _PARAM_TAG.finditer(text, doc.start(1), doc.end(1)):
        at = tag.end()
        if text.startswith("{", at):  # its type, braces nested (`{{ url: string }}`)
            depth = 0
            while at < doc.end(1):
                depth += {"{": 1, "}": -1}.get(text[at], 0)
                at += 1
                if depth == 0:
                    break
        name = named.match(text, at, doc.end(1))
        if name is None:
            continue
        line, column = position_of(text, name.start(1))
        out.append(Reference(param.file, line, column, column + len(param.name), "type", "certain", False))
    return out
