"""Python programs held in strings: ``subprocess.run([sys.executable, "-c", program])``.

A test that must run code in a fresh interpreter writes the program as a string over several
lines (``"import click\\n" "convert = click.Path(allow_dash=True).convert\\n" …``, or a
triple-quoted block given to ``textwrap.dedent``). Its words are code: ``click.Path(…).convert``
reads the project's ``Path.convert`` and must be renamed with it, while ``convert(value)``
calls the program's own variable, which no rename of the project touches.

:func:`program_source` decodes such a string with the source position of each character;
:func:`placed_rows` keeps the occurrences of the program's analysis that are about the project
(chains from absolute imports, as certain as in a file), turns member reads off the program's
own values into name hits, drops the program's own names, and moves each to where it is written.
A string counts as a program when it parses as a module of at least two statements, one of them
an import; anything else keeps the plain string rules.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from typing import Any

__all__ = ["placed_rows", "program_source"]

_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", "'": "'", '"': '"'}
_ARGUMENTS = re.compile(r";\d+")  # `f(xs)`'s arguments, indexing the program's own facts
_ABSOLUTE = "I:0:"  # a chain from an absolute import
_PREFIX = re.compile(r"[A-Za-z]*")

Row = tuple[Any, ...]


def program_source(first: int, start: int, lines: list[str]) -> tuple[str, list[tuple[int, int]]] | None:
    """The program a string over ``lines`` (its source, the first cut at 0-based column
    ``start`` of line ``first``) holds, with the (line, 0-based column) each character is written
    at; None when it is no program or a part cannot be mapped (bytes, f-strings, other escapes)."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO("\n".join(lines)).readline))
    except (tokenize.TokenError, SyntaxError):
        return None
    chars: list[str] = []
    places: list[tuple[int, int]] = []
    for tok in tokens:
        if tok.type != tokenize.STRING:
            continue
        prefix = _PREFIX.match(tok.string)
        assert prefix is not None
        flags = prefix.group().lower()
        if "b" in flags or "f" in flags:
            return None
        body_at = len(flags) + (3 if tok.string[len(flags) : len(flags) + 3] in ('"""', "'''") else 1)
        quotes = body_at - len(flags)
        body = tok.string[body_at:-quotes]
        row, col = tok.start
        line = first + row - 1
        column = (start if row == 1 else 0) + col + body_at
        at = 0
        while at < len(body):
            char = body[at]
            if char == "\\" and "r" not in flags:
                follow = body[at + 1 : at + 2]
                if follow == "\n":  # a line continued inside the string
                    at, line, column = at + 2, line + 1, 0
                    continue
                if follow not in _ESCAPES:
                    return None
                chars.append(_ESCAPES[follow])
                places.append((line, column))
                at, column = at + 2, column + 2
                continue
            chars.append(char)
            places.append((line, column))
            line, column = (line + 1, 0) if char == "\n" else (line, column + 1)
            at += 1
    text = "".join(chars)
    dedented = _dedented(text, places)
    if dedented is None:
        return None
    text, places = dedented
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    if len(tree.body) < 2 or not any(isinstance(stmt, ast.Import | ast.ImportFrom) for stmt in tree.body):
        return None
    return text, places


def _dedented(text: str, places: list[tuple[int, int]]) -> tuple[str, list[tuple[int, int]]] | None:
    """``text`` without the margin every non-blank line shares (as ``textwrap.dedent``), with the
    positions of the characters kept; None for a single line."""
    if "\n" not in text.rstrip("\n"):
        return None
    widths = [len(line) - len(line.lstrip(" \t")) for line in text.splitlines() if line.strip()]
    margin = min(widths) if widths else 0
    if not margin:
        return text, places
    chars: list[str] = []
    kept: list[tuple[int, int]] = []
    at = 0
    for piece in text.splitlines(keepends=True):
        cut = min(margin, len(piece) - len(piece.lstrip(" \t")))
        chars.append(piece[cut:])
        kept.extend(places[at + cut : at + len(piece)])
        at += len(piece)
    return "".join(chars), kept


def placed_rows(rows: list[Row], text: str, places: list[tuple[int, int]], scope_path: str) -> list[Row]:
    """The rows of the program's analysis (its own coordinates) that say something of the
    project, at their place in the file: a chain from an absolute import keeps its target (without
    the call arguments' facts, which are the program's); a member read off a value of the
    program's (``p.convert`` after ``p = make()``) or off nothing typed is a name hit; the
    program's own names (``convert(value)`` of ``convert = …``) and builtins are dropped."""
    starts = [0]
    for line in text.split("\n"):
        starts.append(starts[-1] + len(line) + 1)
    placed: list[Row] = []
    for name, line, col, _end, _kind, target, _scope in rows:
        if not 0 < line < len(starts):
            continue
        at = starts[line - 1] + col - 1
        if not 0 <= at < len(places) or places[at + len(name) - 1][0] != places[at][0]:
            continue  # (a name split across parts of the string: not code as written)
        host_line, host_col = places[at]
        chain = str(target) if isinstance(target, str) else ""
        if chain.startswith(_ABSOLUTE):
            kept: str | None = _ARGUMENTS.sub("", chain)
        elif "/" in chain or not chain or not chain[:1].isalpha():
            kept = None  # a member of the program's own value, or unknown: a name hit
        else:
            continue  # the program's own name, or a builtin
        placed.append((name, host_line, host_col + 1, host_col + 1 + len(name), "string", kept, scope_path))
    return placed
