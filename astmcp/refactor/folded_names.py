"""Python: class names a project prints lower- or upper-cased.

traitlets shows a container trait's sample value as ``"<%s-item-1>" %
trait.__class__.__name__.lower()``, and its tests expect ``--Bar.bset <set-item-1>...``: renaming
the trait class ``Set`` changes that output, though no string holds ``Set``. When project code
folds a ``__name__`` (``.lower()``, ``.upper()``, ``.casefold()``: the index's references of
``str`` methods on the line of a ``__name__`` read), every whole word of a test file's string
literals that is the renamed class's name so folded is a name hit of kind ``string`` (blocked by
default, like the name itself in a string).
"""

from __future__ import annotations

import ast
import re
import sqlite3

from astmcp.query.common import SymbolRow
from astmcp.query.parameters import parse_python, read_text
from astmcp.refactor.rename_refs import Hit
from astmcp.resolve.python_modules import is_test_file
from astmcp.workspace import Workspace

__all__ = ["folded_name_hits"]

_FOLDS = {"lower": str.lower, "casefold": str.casefold, "upper": str.upper}


def folded_name_hits(ws: Workspace, conn: sqlite3.Connection, row: SymbolRow) -> list[Hit]:
    """Name hits of the class ``row``'s folded name in test files' strings (see the module's
    docstring)."""
    if row.kind != "class" or not row.file.endswith((".py", ".pyi")):
        return []
    sites = conn.execute(
        "SELECT DISTINCT b.name, f.path, b.line FROM refs a JOIN refs b ON b.file_id = a.file_id AND b.line = a.line"
        " AND b.col > a.col JOIN files f ON f.id = a.file_id WHERE a.name = '__name__' AND f.language = 'python'"
        " AND b.name IN ('lower', 'upper', 'casefold') AND b.target_key LIKE 'L:str/%' ORDER BY f.path, b.line"
    ).fetchall()
    words = {_FOLDS[fold](row.name): f"{path}:{line}" for fold, path, line in sites}
    words.pop(row.name, None)
    if not words:
        return []
    pattern = re.compile(rf"(?<![\w$])(?:{'|'.join(map(re.escape, sorted(words)))})(?![\w$])")
    found: list[Hit] = []
    for (path,) in conn.execute("SELECT path FROM files WHERE language = 'python' ORDER BY path"):
        if not is_test_file(path):
            continue
        try:
            text = read_text(ws, path)
            tree = parse_python(ws, path)
        except (OSError, SyntaxError, ValueError):
            continue
        if not pattern.search(text):
            continue
        lines = text.split("\n")
        spans = _string_spans(tree)
        for number, line in enumerate(lines, 1):
            for match in pattern.finditer(line):
                at = len(line[: match.start()].encode("utf-8"))
                if any(_inside(span, number, at) for span in spans):
                    note = f"the class's name is printed {match.group()!r} ({words[match.group()]} folds a __name__)"
                    found.append(
                        Hit(path, number, match.start() + 1, match.end() + 1, "string", "name", note=note)
                    )
    return found


def _string_spans(tree: ast.Module) -> list[tuple[int, int, int, int]]:
    """The spans of the module's string literals, docstrings and other bare strings (prose) aside."""
    prose = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}
    return [
        (node.lineno, node.col_offset, node.end_lineno or node.lineno, node.end_col_offset or 0)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in prose
    ]


def _inside(span: tuple[int, int, int, int], line: int, column: int) -> bool:
    """Whether the byte ``column`` of ``line`` lies in a string literal's span."""
    first, start, last, end = span
    return (first, start) <= (line, column) < (last, end)
