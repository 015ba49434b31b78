"""Python: code that finds members by a name it computes, where the renamed name changes the answer.

- Prefix and suffix tests (``[m for m in dir(self) if m.startswith("check_")]``,
  ``name.endswith("_handler")``): renaming ``check_disk`` to ``disk_ok`` silently drops it from
  what the test selects (or adds one). Each such string is an uncertain hit when the old and the
  new name answer the test differently.
- Enum members looked up by a computed name (``Color[s.upper()]``, ``getattr(Color, s)``,
  ``Color.__members__``): data names the member, so renaming it breaks the lookup. Each lookup in a
  file that uses the enum is an uncertain hit.

- Names read at run time (``registry[f.__name__] = f`` in a project decorator,
  ``REG[cls.__name__.lower()] = cls`` in a base's ``__init_subclass__``): a function decorated by
  such a decorator, or a class deriving from such a base, is keyed by its name; an uncertain hit
  at the decorator (or the class's name).

- Descriptors told their name (``price = Positive()`` where ``Positive`` defines ``__set_name__``,
  which may store the value under ``"_" + name``): an uncertain hit at the descriptor's class.

None is ever edited: the names are in data, not code.
"""

from __future__ import annotations

import ast
import re
import sqlite3

from astmcp.errors import AstmcpError
from astmcp.query.common import SymbolRow, ancestry, query_symbols
from astmcp.query.parameters import function_node, parse_python
from astmcp.refactor.fixtures import last_name
from astmcp.refactor.prepare import load_file
from astmcp.refactor.pyscopes import FileScopes
from astmcp.refactor.rename_refs import Hit
from astmcp.resolve.python_external import class_defines
from astmcp.workspace import Workspace

__all__ = ["lookup_hits"]

_AFFIX_TEST = re.compile(r"""\.(startswith|endswith)\(\s*(?:['"])([\w]+)['"]\s*\)""")
_ENUM_BASES = re.compile(r"\b(?:Enum|IntEnum|StrEnum|Flag|IntFlag)\b")


def lookup_hits(
    ws: Workspace, conn: sqlite3.Connection, row: SymbolRow, new: str, hits: list[Hit]
) -> list[Hit]:
    """Uncertain hits where a computed lookup's answer changes with the rename (Python): affix
    tests in the files the rename touches (where `dir(self)`-style discovery of the renamed member
    is), enum lookups in the files that use the enum, registries keyed by ``__name__``, and
    descriptors told their name."""
    if not row.file.endswith((".py", ".pyi")):
        return []
    touched = sorted({h.file for h in hits if h.file.endswith(".py")} | {row.file})
    return (
        _affix_hits(ws, touched, row.name, new)
        + _enum_hits(ws, conn, row)
        + _name_reader_hits(ws, conn, row)
        + _descriptor_hits(ws, conn, row)
    )


_ENUMERATION = re.compile(r"\b(?:dir|getmembers|vars)\(|\.__dict__\b")


def _affix_hits(ws: Workspace, paths: list[str], old: str, new: str) -> list[Hit]:
    out: list[Hit] = []
    for path in paths:
        try:
            text = load_file(ws, path).source.text
        except (OSError, AstmcpError):
            continue
        if "startswith(" not in text and "endswith(" not in text:
            continue
        # names found by enumerating an object (`for n in dir(self)`, `inspect.getmembers(cls)`)
        # and picked by an affix are data there (`table[n[4:]]`): a new name the test still picks
        # changes it too
        enumerated = _ENUMERATION.search(text) is not None
        for number, line in enumerate(text.split("\n"), 1):
            for match in _AFFIX_TEST.finditer(line):
                test, affix = match.group(1), match.group(2)
                if len(affix) < 3 or not affix.strip("_") or ("_" not in affix and len(affix) < 4):
                    continue  # `startswith("_")`, `endswith("s")`: not a name's part
                before = old.startswith(affix) if test == "startswith" else old.endswith(affix)
                after = new.startswith(affix) if test == "startswith" else new.endswith(affix)
                if before != after or (before and enumerated):
                    column = match.start(2)
                    note = (
                        f"`{test}({affix!r})` selects names by their text: the new name answers it differently"
                        if before != after
                        else f"`{test}({affix!r})` picks names found by enumeration: the name is data there"
                    )
                    out.append(
                        Hit(path, number, column, column + len(affix) + 2, "string", "name", note=note)
                    )
    return out


def _enum_hits(ws: Workspace, conn: sqlite3.Connection, row: SymbolRow) -> list[Hit]:
    if row.kind not in ("attribute", "variable") or not row.parent_path:
        return []
    owners = query_symbols(
        conn, "f.path = ? AND s.symbol_path = ? AND s.kind = 'class'", (row.file, row.parent_path)
    )
    if not owners or not _ENUM_BASES.search(owners[0].signature):
        return []
    enum = owners[0]
    paths = {
        str(path)
        for (path,) in conn.execute(
            "SELECT DISTINCT f.path FROM refs r JOIN files f ON f.id = r.file_id WHERE r.symbol_id = ?",
            (enum.id,),
        )
    } | {enum.file}
    out: list[Hit] = []
    for path in sorted(p for p in paths if p.endswith(".py")):
        try:
            scopes = FileScopes(load_file(ws, path).source.text)
        except (OSError, SyntaxError, ValueError, AstmcpError):
            continue
        # in the enum's own methods, `cls[s.upper()]`, `cls.__members__` (`_missing_`) too
        own = {
            id(inner)
            for node in ast.walk(scopes.tree)
            if path == enum.file and isinstance(node, ast.ClassDef) and node.name == enum.name
            for inner in ast.walk(node)
        }
        for node in ast.walk(scopes.tree):
            found = _computed_lookup(node, enum.name) or (
                _computed_lookup(node, "cls") if id(node) in own else None
            )
            if found is not None:
                column = scopes.column_of(found.lineno, found.col_offset)
                end = found.end_col_offset if found.end_lineno == found.lineno else None
                width = len(enum.name) if end is None else end - found.col_offset
                note = f"{enum.name}'s members are looked up by a name computed at run time here"
                out.append(Hit(path, found.lineno, column, column + width, "string", "name", note=note))
    return out


def _names(node: ast.expr, name: str) -> bool:
    return (isinstance(node, ast.Name) and node.id == name) or (
        isinstance(node, ast.Attribute) and node.attr == name
    )


def _computed_lookup(node: ast.AST, name: str) -> ast.expr | None:
    """The enum's name in ``Enum[expr]``, ``getattr(Enum, expr…)`` or ``Enum.__members__``."""
    if (
        isinstance(node, ast.Subscript)
        and _names(node.value, name)
        and not isinstance(node.slice, ast.Constant)
    ):
        return node.value
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "getattr"
        and len(node.args) >= 2
        and _names(node.args[0], name)
        and not isinstance(node.args[1], ast.Constant)
    ):
        return node.args[0]
    if isinstance(node, ast.Attribute) and node.attr == "__members__" and _names(node.value, name):
        return node.value
    return None


def _reads_name(ws: Workspace, function: SymbolRow) -> bool:
    """Whether a project function's body keys something by a ``.__name__``/``.__qualname__``."""
    try:
        node = function_node(parse_python(ws, function.file), function)
    except (OSError, SyntaxError, ValueError):
        return False
    if node is None:
        return False
    # as a key (`REG[f.__name__] = f`, `{cls.__name__.lower(): cls}`), not a message
    keys = [sub.slice for sub in ast.walk(node) if isinstance(sub, ast.Subscript)]
    keys += [k for d in ast.walk(node) if isinstance(d, ast.Dict) for k in d.keys if k is not None]
    return any(
        isinstance(inner, ast.Attribute) and inner.attr in ("__name__", "__qualname__")
        for key in keys
        for inner in ast.walk(key)
    )


def _name_reader_hits(ws: Workspace, conn: sqlite3.Connection, row: SymbolRow) -> list[Hit]:
    if row.kind not in ("function", "method", "class") or not row.file.endswith(".py"):
        return []
    try:
        tree = parse_python(ws, row.file)
    except (OSError, SyntaxError, ValueError):
        return []
    node = next(
        (
            n
            for n in ast.walk(tree)
            if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
            and n.name == row.name
            and n.lineno in (row.line, row.name_line)
        ),
        None,
    )
    if node is None:
        return []
    out: list[Hit] = []
    for decorator in node.decorator_list:
        called = decorator.func if isinstance(decorator, ast.Call) else decorator
        name = last_name(called)
        if name is None:
            continue
        for function in query_symbols(
            conn, "s.name = ? AND s.kind = 'function' AND f.language = 'python'", (name,)
        ):
            if _reads_name(ws, function):
                note = f"the decorator {function.selector} reads the name of what it decorates (`__name__`)"
                out.append(
                    Hit(
                        row.file,
                        decorator.lineno,
                        decorator.col_offset + 1,
                        decorator.col_offset + 1 + len(name),
                        "string",
                        "name",
                        note=note,
                    )
                )
                break
    if row.kind == "class":
        seen: set[int] = set()
        queue = [
            s.id
            for s in query_symbols(
                conn, "f.path = ? AND s.symbol_path = ? AND s.kind = 'class'", (row.file, row.symbol_path)
            )
        ]
        while queue:
            cls = queue.pop()
            if cls in seen:
                continue
            seen.add(cls)
            for (base,) in conn.execute(
                "SELECT dst_symbol_id FROM edges WHERE src_symbol_id = ? AND kind = 'inherits' AND dst_symbol_id IS NOT NULL",
                (cls,),
            ):
                queue.append(base)
                for parent in query_symbols(conn, "s.id = ? AND s.kind = 'class'", (base,)):
                    hooks = query_symbols(
                        conn,
                        "f.path = ? AND s.parent_path = ? AND s.name = '__init_subclass__'",
                        (parent.file, parent.symbol_path),
                    )
                    if any(_reads_name(ws, hook) for hook in hooks):
                        note = f"{parent.name}.__init_subclass__ reads the name of each subclass (`__name__`)"
                        out.append(
                            Hit(
                                row.file,
                                row.name_line,
                                row.name_col,
                                row.name_end_col,
                                "string",
                                "name",
                                note=note,
                            )
                        )
                        return out
    return out


def _descriptor_hits(ws: Workspace, conn: sqlite3.Connection, row: SymbolRow) -> list[Hit]:
    if row.kind != "attribute" or not row.parent_path or not row.file.endswith(".py"):
        return []
    try:
        tree = parse_python(ws, row.file)
    except (OSError, SyntaxError, ValueError):
        return []
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Assign) and node.lineno == row.line and isinstance(node.value, ast.Call)
        ):
            continue
        callee = node.value.func
        name = last_name(callee)
        if name is None:
            continue
        for cls in [*_made_classes(conn, name), *_factory_classes(ws, conn, name)]:
            if _tells_name(conn, cls):
                column = node.value.col_offset + 1
                note = f"{cls.selector} is told the attribute's name by `__set_name__` and may store or look up by it"
                return [Hit(row.file, node.lineno, column, column + len(name), "string", "name", note=note)]
    return []


def _made_classes(conn: sqlite3.Connection, name: str) -> list[SymbolRow]:
    return query_symbols(conn, "s.name = ? AND s.kind = 'class' AND f.language = 'python'", (name,))


def _factory_classes(ws: Workspace, conn: sqlite3.Connection, name: str) -> list[SymbolRow]:
    """The project classes a function named ``name`` returns instances of (``def positive():
    return Positive()``)."""
    found: list[SymbolRow] = []
    for function in query_symbols(
        conn,
        "s.name = ? AND s.kind = 'function' AND f.language = 'python' AND s.parent_path IS NULL",
        (name,),
    ):
        try:
            tree = parse_python(ws, function.file)
        except (OSError, SyntaxError, ValueError):
            continue
        for node in ast.walk(tree):
            if (
                isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                and node.lineno == function.name_line
            ):
                for inner in ast.walk(node):
                    if isinstance(inner, ast.Return) and isinstance(inner.value, ast.Call):
                        made = last_name(inner.value.func)
                        if made is not None:
                            found += _made_classes(conn, made)
    return found


def _tells_name(conn: sqlite3.Connection, cls: SymbolRow) -> bool:
    """Whether ``cls`` or a class it derives from defines ``__set_name__`` (an outside base that
    cannot be read counts as one that may)."""
    classes, outside = ancestry(conn, [cls.id])
    marks = ",".join("?" * len(classes))
    if conn.execute(
        "SELECT 1 FROM symbols c JOIN symbols m ON m.file_id = c.file_id"
        f" AND m.parent_path = c.symbol_path WHERE c.id IN ({marks}) AND m.name = '__set_name__' LIMIT 1",
        tuple(classes),
    ).fetchone():
        return True
    return any(
        key != "builtins.object" and class_defines(key, "__set_name__") is not False for key in outside
    )
