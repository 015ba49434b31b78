"""tree-sitter parsers for TypeScript/JavaScript edits (byte spans, error nodes)."""

from __future__ import annotations

from functools import cache

import tree_sitter
import tree_sitter_javascript
import tree_sitter_typescript


@cache
def _language(kind: str) -> tree_sitter.Language:
    if kind == "tsx":
        return tree_sitter.Language(tree_sitter_typescript.language_tsx())
    if kind == "ts":
        return tree_sitter.Language(tree_sitter_typescript.language_typescript())
    return tree_sitter.Language(tree_sitter_javascript.language())


def grammar_for(path: str) -> str:
    if path.endswith(".tsx"):
        return "tsx"
    if path.endswith((".ts", ".mts", ".cts")):
        return "ts"
    return "js"


def parse(path: str, source: bytes) -> tree_sitter.Tree:
    parser = tree_sitter.Parser(_language(grammar_for(path)))
    return parser.parse(source)


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
