"""Replace the body of a TypeScript/JavaScript declaration by byte span (tree-sitter).

``new_body`` is the text inside the braces. Functions, methods, accessors,
constructors, classes and function-valued variables/fields are supported; an
expression-bodied arrow becomes a block. Everything outside the braces keeps
its bytes.
"""

from __future__ import annotations

import textwrap

import tree_sitter

from astmcp.errors import InvalidInput, NotFound
from astmcp.refactor import tsparse

_FUNCTIONS = {
    "function_declaration",
    "generator_function_declaration",
    "function_expression",
    "function",
    "generator_function",
    "arrow_function",
    "method_definition",
    "class_declaration",
    "class",
    "abstract_class_declaration",
}
_HOLDERS = {
    "variable_declarator",
    "public_field_definition",
    "field_definition",
    "pair",
    "assignment_expression",
}
_WRAP_FUNCTION = "async function* __astmcp_body__() {\n"
_WRAP_CLASS = "class __AstmcpBody__ {\n"


def _declaration(name_node: tree_sitter.Node) -> tree_sitter.Node | None:
    node: tree_sitter.Node | None = name_node.parent
    while node is not None:
        if node.type in _FUNCTIONS:
            return node
        if node.type in _HOLDERS:
            value = node.child_by_field_name("value") or node.child_by_field_name("right")
            if value is not None and value.type in _FUNCTIONS:
                return value
            return None
        if node.type in ("program", "statement_block", "class_body"):
            return None
        node = node.parent
    return None


def _check_body(path: str, new_body: str, is_class: bool) -> None:
    wrapper = _WRAP_CLASS if is_class else _WRAP_FUNCTION
    tree = tsparse.parse(path, (wrapper + new_body + "\n}\n").encode("utf-8"))
    error = tsparse.first_error(tree.root_node)
    if error is None:
        return
    line = max(1, error.start_point[0])  # the wrapper adds one line
    column = error.start_point[1] + 1
    raise InvalidInput(
        f"new_body does not parse at line {line}, column {column}",
        {"line": line, "column": column},
    )


def _indent_of(source: bytes, byte: int) -> str:
    start = source.rfind(b"\n", 0, byte) + 1
    line = source[start:byte].decode("utf-8", errors="replace")
    return line[: len(line) - len(line.lstrip(" \t"))]


def _unit(source: bytes, block: tree_sitter.Node, base: str) -> str:
    for child in block.named_children:
        inner = _indent_of(source, child.start_byte)
        if len(inner) > len(base) and inner.startswith(base):
            return inner[len(base) :]
    return _file_unit(source)


def _file_unit(source: bytes) -> str:
    """The file's indentation step: a tab, or its smallest space indent (2 when none)."""
    widths = []
    for raw in source.split(b"\n"):
        stripped = raw.lstrip(b" \t")
        if not stripped.strip():
            continue
        lead = raw[: len(raw) - len(stripped)]
        if lead.startswith(b"\t"):
            return "\t"
        if lead:
            widths.append(len(lead))
    return " " * min(widths) if widths else "  "


def _render(new_body: str, inner: str) -> str:
    body = textwrap.dedent(new_body.replace("\r\n", "\n").strip("\n"))
    return "\n".join(inner + line if line.strip() else "" for line in body.split("\n"))


def replace_ts_body(path: str, text: str, name_line: int, name_col: int, new_body: str) -> str:
    """``text`` with the body of the declaration whose name starts at (``name_line``, ``name_col``)."""
    source = text.encode("utf-8")
    lines = text.split("\n")
    if not 0 < name_line <= len(lines):
        raise NotFound(f"line {name_line} is outside {path}")
    byte_col = len(lines[name_line - 1][: name_col - 1].encode("utf-8"))
    tree = tsparse.parse(path, source)
    point = (name_line - 1, byte_col)
    name_node = tree.root_node.named_descendant_for_point_range(point, point)
    decl = _declaration(name_node) if name_node is not None else None
    body = decl.child_by_field_name("body") if decl is not None else None
    if decl is None or body is None:
        raise NotFound(f"no function, method or class with a body at {path}:{name_line}")
    is_class = body.type == "class_body"
    _check_body(path, new_body, is_class)
    newline = "\r\n" if "\r\n" in text else "\n"
    base = _indent_of(source, decl.start_byte if decl.type != "arrow_function" else body.start_byte)
    if body.type in ("statement_block", "class_body"):
        base = (
            _indent_of(source, body.end_byte - 1)
            if source[body.end_byte - 1 : body.end_byte] == b"}"
            else base
        )
        inner = base + _unit(source, body, base)
        start, end = body.start_byte + 1, body.end_byte - 1
        replacement = "\n" + _render(new_body, inner) + "\n" + base
    else:  # expression-bodied arrow: the expression becomes a block
        holder = _indent_of(source, decl.start_byte)
        inner = holder + _file_unit(source)
        start, end = body.start_byte, body.end_byte
        replacement = "{\n" + _render(new_body, inner) + "\n" + holder + "}"
    replacement = replacement.replace("\n", newline)
    return (source[:start] + replacement.encode("utf-8") + source[end:]).decode("utf-8")
