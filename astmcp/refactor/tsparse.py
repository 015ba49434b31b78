"""tree-sitter parsers for TypeScript/JavaScript edits (byte spans, error nodes).

The trees are the index's (:func:`astmcp.lang.ts_parse.parse_bytes`): the same workarounds for
syntax TypeScript accepts and the grammar rejects (overload call signatures on their own lines
without ``;``, variance annotations, …), applied to a same-length copy, so every offset still
points into the text being edited. A raw parse read effect's ``Atom.ts`` as one ERROR node, and a
rename there took ``return makeFnSync`` for a shorthand property.
"""

from __future__ import annotations

import tree_sitter

from astmcp.lang.ts_parse import parse_bytes


def grammar_for(path: str) -> str:
    if path.endswith(".tsx"):
        return "tsx"
    if path.endswith((".ts", ".mts", ".cts")):
        return "ts"
    return "js"


def parse(path: str, source: bytes) -> tree_sitter.Tree:
    return parse_bytes(path, "javascript" if grammar_for(path) == "js" else "typescript", source)


def first_error(node: tree_sitter.Node) -> tree_sitter.Node | None:
    """The first ERROR or MISSING node in document order, if any."""
    if not node.has_error:
        return None
    if node.is_error or node.is_missing:
        return node
    for child in node.children:
        found = first_error(child)
        if found is not None:
            return found
    return node
