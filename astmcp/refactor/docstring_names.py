"""Python: docstrings a program compares with names at run time.

A docstring is prose: its mentions of a name are never edited and never block (see
``rename_refs.prose_hits``). That holds while nothing compares its text with code. icalendar's
``assert v_prop.__name__ in v_prop.examples.__doc__.splitlines()[0]`` checks that each property
class's ``examples`` docstring names the class; renaming ``vDDDLists`` left "vDDDLists" in its
docstring and the test failed. Where a comparison reads both a ``__name__`` (or ``__qualname__``)
and a docstring (``x.__doc__``, ``inspect.getdoc(x)``, or a local name set from one), the
mentions of a renamed class's or function's name in the docstrings it may read are name hits of
kind ``string``: they block, and ``uncertain: include`` edits them with the rest.

The docstrings such a comparison reads: ``v.examples.__doc__`` those of the definitions named
``examples``; ``windows_to_olson.__doc__`` those of the definitions named ``windows_to_olson``;
a docstring read through anything else (a parameter, a call) may be any definition's.
"""

from __future__ import annotations

import ast
import re
import sqlite3
from collections.abc import Iterator

from astmcp.query.common import SymbolRow, query_symbols
from astmcp.query.parameters import parse_python, read_text
from astmcp.query.pytrees import parsed_tree
from astmcp.refactor.fixtures import last_name
from astmcp.refactor.rename_refs import Hit
from astmcp.workspace import Workspace

__all__ = ["announced_name_hits", "docstring_name_hits"]

_NAMED_KINDS = ("class", "function", "method")
_NAME_ATTRS = ("__name__", "__qualname__")
_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_ANY = ""  # a docstring read whose owner is not named: any definition's
_DECORATED = "@"  # + a decorator's name: the docstrings of the definitions it decorates


def docstring_name_hits(ws: Workspace, conn: sqlite3.Connection, family: list[SymbolRow]) -> list[Hit]:
    """Mentions of the family's class or function name in docstrings that some comparison of the
    project checks against names (see the module docstring)."""
    names = {m.name for m in family if m.kind in _NAMED_KINDS and m.file.endswith((".py", ".pyi"))}
    if not names:
        return []
    readers = conn.execute(  # the files reading a docstring, from the index (most renames read none)
        "SELECT DISTINCT f.path FROM refs r JOIN files f ON f.id = r.file_id"
        " WHERE r.name IN ('__doc__', 'getdoc') AND f.language = 'python' ORDER BY f.path"
    ).fetchall()
    owners: dict[str, str] = {}  # docstring owner name (or _ANY) -> where a comparison reads it
    for (path,) in readers:
        for owner, line in _compared_docstrings(ws, path):
            owners.setdefault(owner, f"{path}:{line}")
    if not owners:
        return []
    for owner, where in list(owners.items()):
        if owner != _ANY and not owner.startswith(_DECORATED) and not _defined(conn, owner):
            owners.setdefault(_ANY, where)  # `obj.__doc__` of a parameter: any definition's
    word = re.compile(r"(?<!\w)(" + "|".join(map(re.escape, sorted(names))) + r")(?!\w)")
    hits: list[Hit] = []
    for path, text, tree in _python_files_with(ws, conn, word):
        lines = text.split("\n")
        for node in ast.walk(tree):
            if not isinstance(node, _DEFINITIONS):
                continue
            compared = (
                owners.get(node.name)
                or owners.get(_ANY)
                or next(
                    (
                        owners[_DECORATED + str(name)]
                        for name in map(last_name, node.decorator_list)
                        if _DECORATED + str(name) in owners
                    ),
                    None,
                )
            )
            doc = _docstring(node)
            if compared is None or doc is None or doc.end_lineno is None:
                continue
            note = f"a comparison at {compared} checks names against this docstring"
            for number in range(doc.lineno, doc.end_lineno + 1):
                source = lines[number - 1] if number <= len(lines) else ""
                # (on its first line, after the opening quote: not the `def` of a one-liner)
                low = (
                    len(source.encode()[: doc.col_offset].decode(errors="ignore"))
                    if number == doc.lineno
                    else 0
                )
                for match in word.finditer(source, low):
                    hits.append(
                        Hit(path, number, match.start() + 1, match.end() + 1, "string", "name", note=note)
                    )
    return hits


def _defined(conn: sqlite3.Connection, name: str) -> bool:
    """Whether the project has a Python class or function named ``name``."""
    marks = ",".join("?" * len(_NAMED_KINDS))
    rows = query_symbols(conn, f"s.name = ? AND s.kind IN ({marks})", (name, *_NAMED_KINDS))
    return any(r.file.endswith((".py", ".pyi")) for r in rows)


def _docstring(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> ast.Constant | None:
    first = node.body[0] if node.body else None
    if (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    ):
        return first.value
    return None


def _python_files_with(
    ws: Workspace, conn: sqlite3.Connection, word: re.Pattern[str]
) -> Iterator[tuple[str, str, ast.Module]]:
    """(path, text, shared syntax tree) of each project Python file, in path order, whose text
    ``word`` matches (each read once; unreadable or unparsable files are left out)."""
    for (path,) in conn.execute("SELECT path FROM files WHERE language = 'python' ORDER BY path"):
        try:
            text = read_text(ws, str(path))
            if not word.search(text):
                continue
            tree = parsed_tree(text)
        except (OSError, SyntaxError, ValueError):
            continue
        yield str(path), text, tree


def _compared_docstrings(ws: Workspace, path: str) -> list[tuple[str, int]]:
    """(owner name of the docstrings read, line) of each comparison in ``path`` that reads a
    ``__name__`` and a docstring; the owner is ``_ANY`` where it is not named."""
    try:
        text = read_text(ws, path)
        if "__doc__" not in text and "getdoc" not in text:
            return []
        tree = parsed_tree(text)
    except (OSError, SyntaxError, ValueError):
        return []
    found: list[tuple[str, int]] = [(_DECORATED + name, line) for name, line in _docstring_decorators(tree)]
    if not any(a in text for a in _NAME_ATTRS):
        return found
    for scope in ast.walk(tree):
        if not isinstance(scope, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        body = list(_own_nodes(scope))
        held: dict[str, list[ast.expr]] = {}  # `doc = inspect.getdoc(obj)`: doc holds obj's docstring
        for node in body:
            if (
                isinstance(node, ast.Assign)
                and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
            ):
                read = _docstring_reads(node.value)
                if read:
                    held.setdefault(node.targets[0].id, []).extend(read)
        for node in body:
            if not isinstance(node, ast.Compare):
                continue
            parts = list(ast.walk(node))
            if not any(isinstance(p, ast.Attribute) and p.attr in _NAME_ATTRS for p in parts):
                continue
            reads = _docstring_reads(node)
            reads += [e for p in parts if isinstance(p, ast.Name) for e in held.get(p.id, [])]
            found += [(_owner_name(read), node.lineno) for read in reads]
    return found


def _docstring_decorators(tree: ast.Module) -> list[tuple[str, int]]:
    """(name, line) of each module-level function given a function (a decorator) that compares
    what its parameter's docstring holds with anything (dominate's ``@output_test`` asserts
    ``result.render() == get_expected(func)``, ``get_expected`` returning ``func.__doc__``): the
    docstrings of the functions it decorates are expected output, which may print names."""
    returning: dict[str, int] = {}  # `def get_expected(func): return func.__doc__…`: its parameter
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            params = [a.arg for a in node.args.posonlyargs + node.args.args]
            for part in ast.walk(node):
                if isinstance(part, ast.Return) and part.value is not None:
                    read = [r.id for r in _docstring_reads(part.value) if isinstance(r, ast.Name)]
                    if read and read[0] in params:
                        returning[node.name] = params.index(read[0])
    found: list[tuple[str, int]] = []
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) or not node.args.args:
            continue
        given = node.args.args[0].arg
        for part in ast.walk(node):
            if isinstance(part, ast.Compare) and given in _docstring_owners(part, returning):
                found.append((node.name, part.lineno))
                break
    return found


def _docstring_owners(node: ast.AST, returning: dict[str, int]) -> set[str]:
    """The names whose docstrings ``node`` reads, directly or through a call of a module function
    returning its argument's (``get_expected(func)``)."""
    names = {r.id for r in _docstring_reads(node) if isinstance(r, ast.Name)}
    for part in ast.walk(node):
        if isinstance(part, ast.Call) and isinstance(part.func, ast.Name) and part.func.id in returning:
            at = returning[part.func.id]
            given = part.args[at] if at < len(part.args) else None
            if isinstance(given, ast.Name):
                names.add(given.id)
    return names


def _own_nodes(scope: ast.AST) -> list[ast.AST]:
    """The nodes of a module's or function's own body (not those of functions nested in it)."""
    out: list[ast.AST] = []
    stack = list(ast.iter_child_nodes(scope))
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        out.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return out


def _docstring_reads(node: ast.AST) -> list[ast.expr]:
    """The objects whose docstrings ``node`` reads: ``x`` of ``x.__doc__`` and ``getdoc(x)``."""
    out: list[ast.expr] = []
    for part in ast.walk(node):
        if isinstance(part, ast.Attribute) and part.attr == "__doc__":
            out.append(part.value)
        elif isinstance(part, ast.Call) and part.args and last_name(part.func) == "getdoc":
            out.append(part.args[0])  # `inspect.getdoc(x)`, `getdoc(x)`
    return out


def _owner_name(read: ast.expr) -> str:
    if isinstance(read, ast.Attribute):
        return read.attr
    if isinstance(read, ast.Name):
        return read.id
    return _ANY


def announced_name_hits(ws: Workspace, conn: sqlite3.Connection, family: list[SymbolRow]) -> list[Hit]:
    """Text that may hold a decorated function's name at run time. A project decorator that reads
    its function's ``__name__`` (icalendar's ``deprecate_for_version_8`` warns ``f"{name} is
    deprecated"``, which a test matches with ``pytest.warns(match="obj is deprecated")``) puts the
    name into what the program says: mentions of the renamed name as a word in the project's
    string literals (docstrings aside, whole-name strings are hits already) are name hits of kind
    ``string``."""
    names: set[str] = set()
    deciders: list[str] = []  # where a decorator of the family reads its function's name
    for member in family:
        if member.kind not in ("function", "method", "property") or not member.file.endswith(".py"):
            continue
        for decorator in _decorators(ws, member):
            where = _reads_name(ws, conn, decorator)
            if where is not None:
                names.add(member.name)
                deciders.append(where)
    if not names:
        return []
    note = f"a decorator reads the function's name ({deciders[0]}): text may hold it"
    word = re.compile(r"(?<![\w.])(" + "|".join(map(re.escape, sorted(names))) + r")(?![\w(])")
    hits: list[Hit] = []
    for path, text, tree in _python_files_with(ws, conn, word):
        docs = {
            id(d) for node in ast.walk(tree) if isinstance(node, _DEFINITIONS) and (d := _docstring(node))
        }
        lines = text.split("\n")
        for node in ast.walk(tree):
            if not (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in docs
                and node.value not in names
                and node.end_lineno == node.lineno
                and word.search(node.value)
            ):
                continue
            source = lines[node.lineno - 1]
            start = len(source.encode()[: node.col_offset].decode(errors="ignore"))
            end = len(source.encode()[: node.end_col_offset or 0].decode(errors="ignore"))
            for match in word.finditer(source, start, end):
                hits.append(
                    Hit(
                        str(path),
                        node.lineno,
                        match.start() + 1,
                        match.end() + 1,
                        "string",
                        "name",
                        note=note,
                    )
                )
    return hits


def _decorators(ws: Workspace, member: SymbolRow) -> list[str]:
    """The last names of the decorators written on ``member``'s ``def`` (``deprecate``,
    ``functools.cache`` → ``cache``, ``register(…)`` → ``register``)."""
    try:
        tree = parse_python(ws, member.file)
    except (OSError, SyntaxError, ValueError):
        return []
    out: list[str] = []
    for node in ast.walk(tree):
        if (
            isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.name == member.name
            and node.lineno <= member.name_line <= node.body[0].lineno
        ):
            for decorator in node.decorator_list:
                target = decorator.func if isinstance(decorator, ast.Call) else decorator
                name = last_name(target)
                if name:
                    out.append(name)
    return out


def _reads_name(ws: Workspace, conn: sqlite3.Connection, decorator: str) -> str | None:
    """``file:line`` of a project function named ``decorator`` whose body reads its first
    parameter's ``__name__`` or ``__qualname__``; None when there is none."""
    for row in query_symbols(conn, "s.name = ? AND s.kind = 'function'", (decorator,)):
        if not row.file.endswith(".py"):
            continue
        try:
            tree = parse_python(ws, row.file)
        except (OSError, SyntaxError, ValueError):
            continue
        for node in ast.walk(tree):
            if not (isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == decorator):
                continue
            params = node.args.posonlyargs + node.args.args
            if not params:
                continue
            first = params[0].arg
            for inner in ast.walk(node):
                if (
                    isinstance(inner, ast.Attribute)
                    and inner.attr in _NAME_ATTRS
                    and isinstance(inner.value, ast.Name)
                    and inner.value.id == first
                ):
                    return f"{row.file}:{inner.lineno}"
    return None
