"""Built-in TS/JS checks run in the parse worker: block-scoped redeclarations.

``let``/``const``/``class`` may be declared once per block; a second
``let``/``const``/``class`` or a ``function`` of the same name in that block is
rejected by every engine (TS2451 / SyntaxError). Declaration merging that
TypeScript allows (class + interface, class + namespace, value + type) is not
touched, and ``var`` is left alone.

Undefined identifiers (TS-UNDEFINED-NAME) need the reference analyzer's scopes:
see :mod:`astmcp.diagnostics.ts_undefined`.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

from tree_sitter import Language, Node, Query, QueryCursor, QueryError

from astmcp.model import DiagnosticFact

__all__ = ["DUPLICATE", "NAME", "analyze"]

NAME = "ts_checks"
DUPLICATE = "TS-DUPLICATE-DECLARATION"

_SCOPES = frozenset({"program", "statement_block", "switch_body", "for_statement", "for_in_statement"})
_DECLARATIONS = (
    "lexical_declaration",
    "class_declaration",
    "abstract_class_declaration",
    "function_declaration",
    "generator_function_declaration",
)
_SKIP_PATTERN_FIELDS = frozenset({"key", "right", "type"})


@functools.lru_cache(maxsize=8)
def _query(language: Language) -> Query:
    """Declarations of every kind this grammar knows (JS has no abstract classes)."""
    known = []
    for kind in _DECLARATIONS:
        try:
            Query(language, f"({kind}) @d")
        except QueryError:
            continue
        known.append(f"({kind})")
    return Query(language, f"[{' '.join(known)}] @d")


def analyze(path: str, text: str, tree: Any) -> tuple[DiagnosticFact, ...]:
    captures = QueryCursor(_query(tree.language)).captures(tree.root_node).get("d", [])
    by_scope: dict[tuple[int, int], list[Node]] = {}
    for node in captures:
        scope = _scope_of(node)
        if scope is not None:
            by_scope.setdefault((scope.start_byte, scope.end_byte), []).append(node)
    lines = text.splitlines()
    out: list[DiagnosticFact] = []
    for declarations in by_scope.values():
        declarations.sort(key=lambda n: n.start_byte)
        out.extend(_duplicates(declarations, lines))
    out.sort(key=lambda d: (d.line, d.column))
    return tuple(out)


def _scope_of(node: Node) -> Node | None:
    parent = node.parent
    if parent is not None and parent.type == "export_statement":
        parent = parent.parent
    if parent is not None and parent.type in ("switch_case", "switch_default"):
        parent = parent.parent
    return parent if parent is not None and parent.type in _SCOPES else None


def _declared(statement: Node) -> Iterator[tuple[Node, str]]:
    """(name node, kind) of one block-scoped or function declaration."""
    kind = statement.type
    if kind == "lexical_declaration":
        word = statement.child(0)
        label = word.type if word is not None else "let"
        for declarator in statement.named_children:
            if declarator.type == "variable_declarator":
                pattern = declarator.child_by_field_name("name")
                if pattern is not None:
                    yield from ((n, label) for n in _pattern_names(pattern))
    else:
        name = statement.child_by_field_name("name")
        if name is not None:
            yield name, "function" if "function" in kind else "class"


def _pattern_names(pattern: Node) -> Iterator[Node]:
    if pattern.type in ("identifier", "shorthand_property_identifier_pattern"):
        yield pattern
        return
    for index, child in enumerate(pattern.children):
        if child.is_named and pattern.field_name_for_child(index) not in _SKIP_PATTERN_FIELDS:
            yield from _pattern_names(child)


def _duplicates(declarations: list[Node], lines: list[str]) -> Iterator[DiagnosticFact]:
    first: dict[str, str] = {}
    for statement in declarations:
        for name_node, kind in _declared(statement):
            name = name_node.text.decode("utf-8", errors="replace") if name_node.text else ""
            if not name:
                continue
            earlier = first.get(name)
            if earlier is None:
                first[name] = kind
                continue
            if earlier == "function" and kind == "function":
                continue  # overloads and sloppy-mode redefinition
            row, byte_col = name_node.start_point
            line_text = lines[row] if row < len(lines) else ""
            column = len(line_text.encode("utf-8")[:byte_col].decode("utf-8", errors="replace")) + 1
            yield DiagnosticFact(
                DUPLICATE, "error", row + 1, column, f"cannot redeclare block-scoped name '{name}'"
            )
