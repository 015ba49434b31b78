"""TS/JS: a module-level name read in JSDoc type expressions.

In a JavaScript project checked by TypeScript (``// @ts-check``, ``checkJs``), ``/** @param {Box}
b */`` and ``/** @type {import("./m.js").Box} */`` are type references: renaming ``Box`` and
leaving them makes tsc report an unknown name. They sit in comments, which the index does not
read, so a rename edits them here, each one certain:

- ``{import("./m.js").Box}`` (also ``typeof import(…).make``) wherever the specifier resolves to
  the symbol's file;
- a bare ``Box`` (not after a ``.``) in a file where that name is the symbol: its own file, and
  the files importing it under that name (by an ``import`` or a JSDoc ``@import { Box } from``
  tag, whose name is edited too).
"""

from __future__ import annotations

import posixpath
import re
import sqlite3

from astmcp.query.common import SymbolRow
from astmcp.refactor.rename_refs import Hit
from astmcp.refactor.textio import position_of
from astmcp.refactor.ts_literals import TsFiles

__all__ = ["jsdoc_hits"]

_KINDS = frozenset({"class", "function", "variable", "interface", "type", "enum"})
_JSDOC = re.compile(r"/\*\*.*?\*/", re.S)
# a type expression after a tag: `@param {…}`, `@type {…}`, `@returns {…}`, `@typedef {…}`
_TYPE = re.compile(r"@[A-Za-z]+\s*\{")
_IMPORT = re.compile(r"""import\(\s*(["'])([^"']+)\1\s*\)\s*\.\s*([A-Za-z_$][\w$]*)""")
_SOURCE_SUFFIXES = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ".d.ts")


def jsdoc_hits(files: TsFiles, conn: sqlite3.Connection, row: SymbolRow, hits: list[Hit]) -> list[Hit]:
    """Certain hits on the symbol's name in JSDoc type expressions (see the module's doc)."""
    if row.parent_path or row.kind not in _KINDS or row.file.endswith((".py", ".pyi")):
        return []
    named = {row.file} | {h.file for h in hits if h.kind == "import" and h.confidence == "certain"}
    known = {(h.file, h.line, h.column) for h in hits}
    out: list[Hit] = []
    for (path,) in conn.execute(
        "SELECT path FROM files WHERE language IN ('typescript', 'javascript') ORDER BY path"
    ):
        text = files.read(path)
        if text is None or "/**" not in text or row.name not in text:
            continue
        tags = _import_tag_spans(text, row, path)  # `@import { Box } from "./m.js"`: Box is the symbol
        spans = list(tags)
        for start, end in _type_expressions(text):
            expression = text[start:end]
            spans += [
                (start + m.start(3), start + m.end(3))
                for m in _IMPORT.finditer(expression)
                if m.group(3) == row.name and _resolves_to(path, m.group(2), row.file)
            ]
            if path in named or tags:
                spans += [
                    (start + m.start(), start + m.end())
                    for m in re.finditer(rf"(?<![\w$.]){re.escape(row.name)}(?![\w$])", expression)
                ]
        for begin, _ in spans:
            line, column = position_of(text, begin)
            if (path, line, column) not in known:
                known.add((path, line, column))
                out.append(Hit(path, line, column, column + len(row.name), "type", "certain"))
    return out


# `@import { Opts, Other as O } from "./types.js"` (TypeScript 5.5): the names a JS file imports
# for its JSDoc types
_IMPORT_TAG = re.compile(r"""@import\s*\{([^}]*)\}\s*from\s*(["'])([^"']+)\2""")


def _import_tag_spans(text: str, row: SymbolRow, path: str) -> list[tuple[int, int]]:
    """Offsets of the symbol's name where an ``@import { … } from`` tag of ``path`` imports it."""
    found: list[tuple[int, int]] = []
    for block in _JSDOC.finditer(text):
        for tag in _IMPORT_TAG.finditer(text, block.start(), block.end()):
            if not _resolves_to(path, tag.group(3), row.file):
                continue
            for name in re.finditer(rf"(?:^|,)\s*({re.escape(row.name)})(?![\w$])", tag.group(1)):
                found.append((tag.start(1) + name.start(1), tag.start(1) + name.end(1)))
    return found


def _type_expressions(text: str) -> list[tuple[int, int]]:
    """(start, end) offsets of the text inside each ``{…}`` after a JSDoc tag."""
    found: list[tuple[int, int]] = []
    for block in _JSDOC.finditer(text):
        for tag in _TYPE.finditer(text, block.start(), block.end()):
            depth, at = 1, tag.end()
            while at < block.end() and depth:
                depth += {"{": 1, "}": -1}.get(text[at], 0)
                at += 1
            if depth == 0:
                found.append((tag.end(), at - 1))
    return found


def _resolves_to(path: str, spec: str, target: str) -> bool:
    """Whether a relative specifier in ``path`` names ``target`` (``./m.js`` for m.ts or m.js)."""
    if not spec.startswith("."):
        return False
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(path), spec))
    return _stem(joined) == _stem(target) or _stem(target) == f"{joined}/index"


def _stem(path: str) -> str:
    for suffix in _SOURCE_SUFFIXES:
        if path.endswith(suffix):
            return path[: -len(suffix)]
    return path
