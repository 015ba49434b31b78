"""TS-UNDEFINED-NAME: a value identifier bound nowhere in scope and known to no environment.

The reference analyzer (:mod:`astmcp.resolve.ts_facts`) owns the scopes; it hands
the identifiers it could not bind to :func:`candidates`, which keeps only those
this module is sure about. The rules are conservative by design, because the
environment of a TS/JS file (lib, ``@types``, bundler defines, script tags) is
not fully known:

- only ES module files are judged (a top-level ``import``/``export``), never
  declaration files, files with ``with``, direct ``eval``, ``// @ts-nocheck`` or
  ``/// <reference …>`` directives; a top-level statement with a syntax error
  (or a construct the grammar does not support) is not judged, and names
  written anywhere in it may be bound by it;
- only value positions: type annotations, declarations and ambient
  (``declare``) contexts, namespace bodies and JSX namespaced names are skipped;
- known globals (every value TypeScript's lib declares, Node, Bun/Deno, test
  runners), ``__``-prefixed names (bundler and host defines such as ``__DEV__``),
  names the file tests with ``typeof``,
  names an ESLint ``/* global … */`` comment lists, lines under
  ``@ts-ignore``/``@ts-expect-error`` stay quiet;
- names any project file makes global (:func:`ambient_names`: script files'
  top-level declarations, ``declare global``, ``globalThis.x = …``) are removed
  later, project-wide, by the diagnostics linker.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from tree_sitter import Node

from astmcp.diagnostics.builtin_names import TS_ENV_GLOBALS
from astmcp.diagnostics.ts_lib_globals import TS_LIB_GLOBALS
from astmcp.lang.ts_parse import TsSource

__all__ = ["KNOWN_GLOBALS", "UNDEFINED_NAME", "ambient_names", "candidates", "checked_file"]

UNDEFINED_NAME = "TS-UNDEFINED-NAME"
KNOWN_GLOBALS: frozenset[str] = TS_LIB_GLOBALS | TS_ENV_GLOBALS

_DECLARATION_FILE = re.compile(r"\.d\.[mc]?ts$|\.d\.[^./]+\.ts$")
_REFERENCE = re.compile(r"///[ \t]*<reference\b")
_WITH = re.compile(r"with\s*\(")  # each pattern starts with a literal so the scan is fast
_EVAL = re.compile(r"eval\s*\(")
_IGNORE = re.compile(r"//\s*@ts-(?:ignore|expect-error)\b|/\*\s*@ts-(?:ignore|expect-error)\b")
_ESLINT_GLOBAL = re.compile(r"/\*\s*globals?\s+([^*]*)\*/")
_GLOBAL_WRITE = re.compile(r"(?:globalThis|window|global)\s*(?:\.\s*[\w$]+|\[[^\]\n]*\])\s*=(?!=)")
_GLOBAL_OBJECTS = frozenset({"globalThis", "window", "global"})  # `self.x = …` is mostly an alias of `this`
# Ancestors that make an identifier no value reference of this file's scope chain.
_NOT_VALUE = frozenset(
    {
        "ambient_declaration", "type_annotation", "type_arguments", "type_parameters",
        "type_alias_declaration", "interface_declaration", "implements_clause", "extends_type_clause",
        "index_signature", "type_predicate", "type_predicate_annotation", "asserts", "asserts_annotation",
        "function_signature", "method_signature", "abstract_method_signature", "call_signature",
        "construct_signature", "property_signature", "type_query", "function_type", "constructor_type",
        "object_type", "generic_type", "nested_type_identifier", "lookup_type", "index_type_query",
        "conditional_type", "union_type", "intersection_type", "tuple_type", "array_type", "readonly_type",
        "parenthesized_type", "infer_type", "mapped_type_clause", "template_literal_type", "literal_type",
        "opting_type_annotation", "omitting_type_annotation", "adding_type_annotation",
        "jsx_namespace_name", "nested_identifier", "internal_module", "module",
    }
)  # fmt: skip
_BRANCHES = frozenset({"ternary_expression", "if_statement"})
_MODULE_STATEMENTS = frozenset({"import_statement", "export_statement"})
_TOP_DECLARATIONS = frozenset(
    {
        "function_declaration", "generator_function_declaration", "function_signature", "class_declaration",
        "abstract_class_declaration", "enum_declaration", "internal_module", "module",
    }
)  # fmt: skip


def checked_file(path: str, text: str, root: Node) -> bool:
    """Whether a file's unbound identifiers are judged at all."""
    if _DECLARATION_FILE.search(path) or not is_module(root):
        return False
    if "@ts-nocheck" in text or ("///" in text and _REFERENCE.search(text)) or _called(text, "eval", _EVAL):
        return False
    return not (_called(text, "with", _WITH) and _has_with(root))


def _called(text: str, word: str, pattern: re.Pattern[str]) -> bool:
    """Whether ``word (`` occurs as a whole word (not a member: ``x.eval(``)."""
    if word not in text:
        return False
    for match in pattern.finditer(text):
        before = text[match.start() - 1] if match.start() else " "
        if not (before.isalnum() or before in "_$."):
            return True
    return False


def is_module(root: Node) -> bool:
    return any(child.type in _MODULE_STATEMENTS for child in root.named_children)


def _has_with(node: Node) -> bool:
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "with_statement":
            return True
        stack.extend(current.named_children)
    return False


def candidates(src: TsSource, unbound: Iterable[Node]) -> list[tuple[str, int, int]]:
    """``(name, line, column)`` of the unbound identifiers worth reporting (file order)."""
    found: list[tuple[str, Node]] = []
    tested: set[str] = set()
    for node in unbound:
        name = src.text_of(node)
        if name in KNOWN_GLOBALS or name.startswith("__"):  # `__DEV__`, `__STATIC_CONTENT`: host defines
            continue
        parent = node.parent
        if parent is not None and parent.type == "unary_expression" and _operator(parent) == "typeof":
            tested.add(name)
            continue
        if _value_position(node):
            found.append((name, node))
    if not found:
        return []
    declared = _eslint_globals(src.text) | tested | _probed(src.text, {n for n, _ in found})
    root = src.tree.root_node
    if root.has_error:
        broken = {s.start_byte for s in root.children if s.has_error}
        for statement in root.children:
            if statement.start_byte in broken:
                declared.update(_identifiers(statement))
        found = [(n, node) for n, node in found if _statement_of(node).start_byte not in broken]
    ignored = _ignored_lines(src.text)
    out = []
    for name, node in found:
        row = node.start_point.row
        if name in declared or row in ignored:
            continue
        out.append((name, row + 1, src.column(row, node.start_point.column)))
    out.sort(key=lambda c: (c[1], c[2]))
    return out


def _statement_of(node: Node) -> Node:
    """The top-level statement holding a node."""
    while node.parent is not None and node.parent.parent is not None:
        node = node.parent
    return node


def _identifiers(node: Node) -> Iterator[str]:
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type in ("identifier", "shorthand_property_identifier", "type_identifier"):
            yield _text(current)
        stack.extend(current.children)


def _operator(node: Node) -> str | None:
    operator = node.child_by_field_name("operator")
    return operator.type if operator is not None else None


def _value_position(node: Node) -> bool:
    """Not in a type or declaration context, and not in a branch a literal ``false`` makes dead
    (``false ? profiler.span(…) : …``, ``if (false) …``: what bundler defines leave behind)."""
    child, current = node, node.parent
    while current is not None:
        kind = current.type
        if kind in _NOT_VALUE:
            return False
        if kind in _BRANCHES and child != current.child_by_field_name("condition") and _is_false(current):
            return False
        if kind == "binary_expression" and child == current.child_by_field_name("right"):
            left = current.child_by_field_name("left")
            if left is not None and left.type == "false" and _operator(current) == "&&":
                return False
        child, current = current, current.parent
    return True


def _is_false(branch: Node) -> bool:
    condition = branch.child_by_field_name("condition")
    while condition is not None and condition.type == "parenthesized_expression":
        condition = condition.named_children[0] if condition.named_children else None
    return condition is not None and condition.type == "false"


def _probed(text: str, names: set[str]) -> set[str]:
    """Names the file reads as members of the global object (``window.DocumentTouch && …``)."""
    if not any(word in text for word in ("globalThis", "window", "global", "self")):
        return set()
    return {
        n
        for n in names
        if re.search(rf"(?<![\w$.])(?:globalThis|window|global|self)\s*\??\.\s*{re.escape(n)}(?![\w$])", text)
    }


def _eslint_globals(text: str) -> set[str]:
    names: set[str] = set()
    if "global" not in text:
        return names
    for match in _ESLINT_GLOBAL.finditer(text):
        for part in match.group(1).split(","):
            name = part.split(":")[0].strip()
            if name:
                names.add(name)
    return names


def _ignored_lines(text: str) -> set[int]:
    """0-based rows under a ``@ts-ignore`` / ``@ts-expect-error`` comment."""
    if "@ts-" not in text:
        return set()
    rows = set()
    for match in _IGNORE.finditer(text):
        rows.add(text.count("\n", 0, match.start()) + 1)
    return rows


def ambient_names(path: str, text: str, root: Node) -> frozenset[str]:
    """Names this file adds to the global scope of the project's other files."""
    names: set[str] = set()
    script = not is_module(root)
    for statement in root.named_children:
        if script:
            names.update(_declared(statement))
        elif statement.type == "ambient_declaration":
            block = next((c for c in statement.named_children if c.type == "statement_block"), None)
            if block is not None and _is_global_block(statement):
                for inner in block.named_children:
                    names.update(_declared(inner))
    if ("global" in text or "window" in text) and _GLOBAL_WRITE.search(text):
        names.update(_global_writes(text, root))
    return frozenset(names)


def _global_writes(text: str, root: Node) -> Iterator[str]:
    """``x`` of ``globalThis.x = …`` / ``window["x"] = …`` / ``global.x = …``: each textual
    match is confirmed in the tree (an annotation ``: globalThis.X = v`` is no write)."""
    for match in _GLOBAL_WRITE.finditer(text):
        offset = len(text[: match.start()].encode("utf-8"))
        target = root.descendant_for_byte_range(offset, offset + 1)
        left = target.parent if target is not None else None
        if target is None or left is None or target.type != "identifier":
            continue
        write = left.parent
        if (
            write is None
            or write.type != "assignment_expression"
            or write.child_by_field_name("left") != left
        ):
            continue
        if left.child_by_field_name("object") != target or _text(target) not in _GLOBAL_OBJECTS:
            continue
        key = left.child_by_field_name("property") or left.child_by_field_name("index")
        if key is not None and key.type == "property_identifier":
            yield _text(key)
        elif key is not None and key.type == "string":
            yield _text(key)[1:-1]


def _text(node: Node) -> str:
    return node.text.decode("utf-8", errors="replace") if node.text else ""


def _is_global_block(statement: Node) -> bool:
    return any(not c.is_named and c.type == "global" for c in statement.children)


def _declared(statement: Node) -> Iterator[str]:
    """Value names a top-level statement of a script (or a ``declare global`` block) declares."""
    kind = statement.type
    if kind in ("ambient_declaration", "expression_statement", "export_statement"):
        for child in statement.named_children:
            yield from _declared(child)
    elif kind in ("variable_declaration", "lexical_declaration"):
        for declarator in statement.named_children:
            name = declarator.child_by_field_name("name")
            if declarator.type == "variable_declarator" and name is not None:
                yield from _pattern_names(name)
    elif kind in _TOP_DECLARATIONS:
        name = statement.child_by_field_name("name")
        if name is not None and name.type in ("identifier", "type_identifier"):
            yield _text(name)


def _pattern_names(node: Node) -> Iterator[str]:
    if node.type in ("identifier", "shorthand_property_identifier_pattern"):
        yield _text(node)
        return
    for child in node.named_children:
        if child.type not in ("property_identifier", "type_annotation"):
            yield from _pattern_names(child)
