"""TS: members of a namespace or enum declared in several blocks, read bare in another block.

``namespace NS { export function helper() {} }`` and ``namespace NS { export function run() {
return helper() } }`` merge: an exported member of one block is in scope, unqualified, in every
other (``enum E { A = 1 } enum E { B = A + 1 }`` likewise). The index resolves a bare name by its
own block's scopes, so those reads are linked to nothing; renaming the member would leave them
reading a name that no longer exists. Each such bare read is an uncertain hit.
"""

from __future__ import annotations

import sqlite3

import tree_sitter

from astmcp.query.common import SymbolRow, query_symbols
from astmcp.refactor.rename_refs import Hit
from astmcp.refactor.ts_literals import TsFiles

__all__ = ["merged_block_hits"]

_NAMES = frozenset({"identifier", "type_identifier"})


def merged_block_hits(
    files: TsFiles, conn: sqlite3.Connection, row: SymbolRow, known: set[tuple[str, int, int]]
) -> list[Hit]:
    if not row.parent_path or row.file.endswith((".py", ".pyi", ".js", ".jsx", ".mjs", ".cjs")):
        return []
    blocks = query_symbols(
        conn,
        "f.path = ? AND s.symbol_path = ? AND s.kind IN ('namespace', 'enum')",
        (row.file, row.parent_path),
    )
    others = [b for b in blocks if not b.start_line <= row.line <= b.end_line]
    if not others:
        return []
    ts = files.text_has(row.file, row.name)
    if ts is None:
        return []
    out: list[Hit] = []
    for block in others:
        for node in _bare_reads(ts.tree.root_node, row.name, block.start_line - 1, block.end_line - 1):
            line, column = node.start_point[0] + 1, ts.column_of(node)
            if (row.file, line, column) not in known:
                note = f"{row.parent_path} is declared in several blocks: a bare {row.name!r} here may be this member"
                out.append(Hit(row.file, line, column, column + len(row.name), "read", "name", note=note))
    return out


def _bare_reads(root: tree_sitter.Node, name: str, first: int, last: int) -> list[tree_sitter.Node]:
    found = []
    stack = [root]
    needle = name.encode("utf-8")
    while stack:
        node = stack.pop()
        if node.end_point[0] < first or node.start_point[0] > last:
            continue
        if node.type in _NAMES and node.text == needle and first <= node.start_point[0] <= last:
            found.append(node)
        stack.extend(node.named_children)
    return found
