"""Python: module namespaces read whole, where a renamed name has a namesake.

``vars(m)``, ``m.__dict__``, ``dir(m)`` and ``inspect.getmembers(m)`` of a project module read
its names as data. Renaming a module-level name consistently keeps such reads equal to each other
(every module that takes the name on takes the new one), except where the name stands beside a
namesake: another project module's top-level function, class or variable of the same name that
it mirrors (toolz's ``curried.exceptions.merge_with`` wraps ``toolz.merge_with`` and replaces it
in ``toolz.curried``; a test compares ``vars(toolz)`` with ``toolz.curried.__dict__`` name by
name). When the modules holding the renamed name and those holding a namesake are both read so,
each read of the former is a name hit of kind ``data`` (never edited): the rename blocks.
"""

from __future__ import annotations

import ast
import re
import sqlite3

from astmcp.query.common import SymbolRow, query_symbols
from astmcp.query.module_reach import holding_modules
from astmcp.query.package_types import project_root
from astmcp.query.pytrees import parsed_tree
from astmcp.refactor.rename_refs import Hit
from astmcp.resolve.python_modules import module_names, twin
from astmcp.resolve.python_scope import func_name

__all__ = ["namespace_mirror_hits"]

_VALUE_KINDS = ("function", "class", "variable")
_READERS = frozenset({"vars", "dir", "getmembers"})
_LOADERS = frozenset({"import_module", "__import__"})
_READ_WORDS = re.compile(r"\b(?:vars|dir|getmembers)\s*\(|\.__dict__\b")


def namespace_mirror_hits(conn: sqlite3.Connection, row: SymbolRow) -> list[Hit]:
    """The reads of whole namespaces holding ``row`` (a module-level name), when a namesake's
    modules are read so too; none when it has no namesake or nothing reads both."""
    if row.parent_path or row.kind not in _VALUE_KINDS or not row.file.endswith((".py", ".pyi")):
        return []
    own = {row.file, twin(row.file)}
    namesakes = {
        s.file
        for s in query_symbols(
            conn,
            f"s.name = ? AND s.parent_path IS NULL AND s.kind IN ({','.join('?' * len(_VALUE_KINDS))})"
            " AND f.language = 'python'",
            (row.name, *_VALUE_KINDS),
        )
        if s.file not in own
    }
    root = project_root(conn)
    if not namesakes or root is None:
        return []
    mine = _dotted(holding_modules(conn, own, {row.name}))
    theirs = _dotted(holding_modules(conn, namesakes, {row.name}))
    reads: list[tuple[str, int, int, int, str]] = []  # file, line, column, end column, module read
    for (path,) in conn.execute("SELECT path FROM files WHERE language = 'python' ORDER BY path"):
        try:
            text = (root / path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        if not _READ_WORDS.search(text):
            continue
        try:
            tree = parsed_tree(text)
        except (SyntaxError, ValueError):
            continue
        lines = text.split("\n")
        for line, start, end, module in _NamespaceReads(tree, path).reads():
            encoded = lines[line - 1].encode("utf-8") if line <= len(lines) else b""
            column = len(encoded[:start].decode("utf-8", "replace")) + 1
            reads.append((path, line, column, len(encoded[:end].decode("utf-8", "replace")) + 1, module))
    if not any(module in theirs for *_, module in reads):
        return []
    return [
        Hit(
            path,
            line,
            column,
            end,
            "data",
            "name",
            note=(
                f"reads the names of {module} as data, which holds {row.name!r}; another module's"
                f" {row.name!r} of the same name is read so too: the names may be compared"
            ),
        )
        for path, line, column, end, module in reads
        if module in mine
    ]


def _dotted(paths: set[str]) -> set[str]:
    return {name for path in paths for name in module_names(path)}


class _NamespaceReads:
    """One file's reads of a module's whole namespace, with the module's dotted name."""

    def __init__(self, tree: ast.Module, path: str) -> None:
        self.tree = tree
        self.bound: dict[str, str] = {}  # a name an import (or a loader) binds to a module
        names = module_names(path)
        here = names[-1] if names else ""  # (the shortest: a src layout's package name)
        package = here if path.endswith(("__init__.py", "__init__.pyi")) else here.rpartition(".")[0]
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        self.bound[alias.asname] = alias.name
                    else:
                        first = alias.name.split(".")[0]
                        self.bound[first] = first
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".") if package else []
                    up = parts[: len(parts) - (node.level - 1)] if node.level > 1 else parts
                    base = ".".join([*up, *([base] if base else [])])
                for alias in node.names:
                    if alias.name != "*":
                        self.bound[alias.asname or alias.name] = (
                            f"{base}.{alias.name}" if base else alias.name
                        )
            elif (
                isinstance(node, ast.Assign)
                and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, ast.Call)
                and func_name(node.value.func) in _LOADERS
                and node.value.args
                and isinstance(node.value.args[0], ast.Constant)
                and isinstance(node.value.args[0].value, str)
            ):
                self.bound[node.targets[0].id] = node.value.args[0].value  # `m = import_module("a.b")`

    def module(self, node: ast.expr) -> str | None:
        if isinstance(node, ast.Name):
            return self.bound.get(node.id)
        if isinstance(node, ast.Attribute):
            base = self.module(node.value)
            return f"{base}.{node.attr}" if base else None
        return None

    def reads(self) -> list[tuple[int, int, int, str]]:
        """(line, start, end, module) of each read: UTF-8 offsets on the read's first line."""
        found = []
        for node in ast.walk(self.tree):
            read: ast.expr | None = None
            if isinstance(node, ast.Call) and func_name(node.func) in _READERS and node.args:
                read = node.args[0]
            elif isinstance(node, ast.Attribute) and node.attr == "__dict__":
                read = node.value
            module = self.module(read) if read is not None else None
            if module is not None and isinstance(node, ast.expr):
                end = node.end_col_offset if node.end_lineno == node.lineno else None
                found.append((node.lineno, node.col_offset, end or node.col_offset + 1, module))
        return found
