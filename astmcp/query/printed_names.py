"""Words of a Python doctest's expected output that are a project function's or class's own name.

An example's expected output is what its value prints: a word there comes from a string the
program holds, from the example's own input, or from a name Python shows — a function's
``__name__`` (``ValidationError(func=isin, …)`` of validators, whose repr reads
``self.func.__name__``), a class's in a generated repr (``Point(x=1)``, ``<Parser "…">``) or in a
traceback's last line (``DropEvent``). When no string literal of the project's code spells the
word (but where the rename itself edits it, as in ``__all__``) and nothing outside the project may
print it, the word is the symbol's name shown, and renaming the symbol changes what the example
prints: a certain reference, renamed with it. Before, each such word was a name hit blocking the
rename.

Only module-level functions and classes whose name no other project symbol has: a member's name
is printed by outside reprs too (``<re.Match object; span=(0, 1), match='a'>``).
"""

from __future__ import annotations

import ast
import keyword
import re
import sqlite3

from astmcp.query.common import SymbolRow, outside_imports
from astmcp.query.package_types import project_root
from astmcp.query.pytrees import parsed_tree
from astmcp.resolve.python_doctests import PROMPT as DOCTEST_PROMPT
from astmcp.resolve.python_external import module_defines
from astmcp.resolve.python_vocab import BUILTINS, DOCTEST_OUTPUT

__all__ = ["PrintedNames"]

Position = tuple[str, int, int]


class PrintedNames:
    """Judges the expected-output words of one rename (``shown``), the project-wide checks once."""

    def __init__(
        self, conn: sqlite3.Connection, symbol: SymbolRow, same: list[SymbolRow], certain: set[Position]
    ):
        self.conn = conn
        self.symbol = symbol
        self.ids = {s.id for s in same}
        self.certain = certain  # the rename's certain references: (path, line, column)
        self._eligible: bool | None = None
        self._outside: dict[str, bool] = {}

    def shown_at(self, path: str, target: str) -> bool:
        """``shown`` for an indexed hit whose stored target is ``target`` (``*O:<first>-<last>``)."""
        first, _, last = target[len(DOCTEST_OUTPUT) :].partition("-")
        return self.shown(path, int(first), int(last))

    def shown(self, path: str, first: int, last: int, outside: bool | None = None) -> bool:
        """Whether a word of the expected output of the example on lines ``first..last`` of
        ``path`` is the symbol's name shown; ``outside``: whether a module outside the project
        the example may use defines the name (default: one the indexed file ``path`` imports)."""
        if not self.eligible():
            return False
        if any(p == path and first <= line <= last for p, line, _ in self.certain):
            return True  # the example reads the symbol: what it prints is of it
        # a class's name is printed by its instances' reprs and tracebacks, also where the example
        # calls something else; only an outside module the file imports may print one too
        if self.symbol.kind != "class":
            return False
        return not (self._outside_defines(path) if outside is None else outside)

    def eligible(self) -> bool:
        if self._eligible is None:
            self._eligible = self._judge()
        return self._eligible

    def _judge(self) -> bool:
        symbol = self.symbol
        name = symbol.name
        if symbol.parent_path or symbol.kind not in ("function", "class"):
            return False
        if name in BUILTINS or keyword.iskeyword(name):
            return False
        others = self.conn.execute("SELECT id FROM symbols WHERE name = ?", (name,)).fetchall()
        if any(i not in self.ids for (i,) in others):
            return False  # another symbol's name may be the one shown
        return self._literal_free()

    def _literal_free(self) -> bool:
        """Whether no string literal of the project's Python code spells the name, except where
        the rename edits it; strings that are statements (docstrings, prose) are not printed."""
        root = project_root(self.conn)
        if root is None:
            return False
        name = self.symbol.name
        word = re.compile(rf"(?<!\w){re.escape(name)}(?!\w)")
        paths = [p for (p,) in self.conn.execute("SELECT path FROM files WHERE language = 'python'")]
        for path in paths:
            try:
                text = (root / path).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                return False
            if name not in text:
                continue
            try:
                tree = parsed_tree(text)
            except (SyntaxError, ValueError):
                return False
            lines = text.split("\n")
            docstrings, literals = _strings(tree)
            for docstring in docstrings:  # a docstring's examples: their input may be what is printed
                for number in range(docstring.lineno, (docstring.end_lineno or docstring.lineno) + 1):
                    line = lines[number - 1] if number <= len(lines) else ""
                    prompt = DOCTEST_PROMPT.match(line)
                    for match in word.finditer(line, prompt.end() if prompt else len(line)):
                        if (path, number, match.start() + 1) not in self.certain:
                            return False
            for node in literals:
                last = node.end_lineno or node.lineno
                for number in range(node.lineno, last + 1):
                    line = lines[number - 1] if number <= len(lines) else ""
                    start = _column(line, node.col_offset) if number == node.lineno else 0
                    end = _column(line, node.end_col_offset or 0) if number == last else len(line)
                    for match in word.finditer(line, start, end):
                        if (path, number, match.start() + 1) not in self.certain:
                            return False
        return True

    def _outside_defines(self, path: str) -> bool:
        """Whether a module outside the project that ``path`` imports defines or imports the name
        at its top level (its class, not the project's, may be the one printed)."""
        if path not in self._outside:
            modules = outside_imports(self.conn, path)
            self._outside[path] = any(module_defines(m, self.symbol.name) for m in modules)
        return self._outside[path]


def _strings(tree: ast.Module) -> tuple[list[ast.Constant], list[ast.expr]]:
    """The string statements of a module (docstrings and other prose) and its other string and
    bytes literals (an f-string whole)."""
    prose = [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    ]
    skipped = {id(node) for node in prose}
    skipped |= {
        id(part)
        for node in ast.walk(tree)
        if isinstance(node, ast.JoinedStr)
        for part in ast.walk(node)
        if part is not node
    }
    literals: list[ast.expr] = [
        node
        for node in ast.walk(tree)
        if id(node) not in skipped
        and (
            isinstance(node, ast.JoinedStr)
            or (isinstance(node, ast.Constant) and isinstance(node.value, str | bytes))
        )
    ]
    return prose, literals


def _column(line: str, byte_offset: int) -> int:
    """The character index of a UTF-8 byte offset into ``line`` (ast's columns count bytes)."""
    return len(line.encode("utf-8")[:byte_offset].decode("utf-8", errors="ignore"))
