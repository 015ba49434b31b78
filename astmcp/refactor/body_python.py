"""Replace the body of a Python function or class through libcst.

Only the block after the header's colon changes: decorators, comments before
the declaration, the signature and a comment on the header line keep their
bytes. ``new_body`` may have any consistent indentation; it is re-indented to
the file's own. The existing docstring stays unless ``new_body`` starts with one.
"""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Sequence
from typing import NoReturn

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from astmcp.errors import InvalidInput, NotFound


def parse_new_body(new_body: str) -> cst.Module:
    """The statements of ``new_body`` as a module; INVALID_INPUT with the parser's location."""
    lines = new_body.replace("\r\n", "\n").split("\n")
    skipped = 0
    while lines and not lines[0].strip():
        lines.pop(0)
        skipped += 1
    text = textwrap.dedent("\n".join(lines)).rstrip() + "\n"
    try:  # the stdlib parser reports the more precise location
        ast.parse(text)
        module = cst.parse_module(text)
    except SyntaxError as exc:
        _refuse(exc.msg, (exc.lineno or 1) + skipped, exc.offset or 1)
    except cst.ParserSyntaxError as exc:
        _refuse(exc.message, exc.editor_line + skipped, exc.editor_column)
    if not module.body:
        raise InvalidInput("new_body has no statements")
    return module


def _refuse(message: str, line: int, column: int) -> NoReturn:
    raise InvalidInput(
        f"new_body does not parse at line {line}, column {column}: {message}",
        {"line": line, "column": column},
    )


def _is_docstring(stmt: cst.BaseStatement | cst.BaseSmallStatement) -> bool:
    if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1:
        stmt = stmt.body[0]
    return isinstance(stmt, cst.Expr) and isinstance(stmt.value, cst.SimpleString | cst.ConcatenatedString)


def _statements(body: cst.BaseSuite) -> list[cst.BaseStatement]:
    if isinstance(body, cst.IndentedBlock):
        return list(body.body)
    assert isinstance(body, cst.SimpleStatementSuite)
    return [
        cst.SimpleStatementLine(body=[s.with_changes(semicolon=cst.MaybeSentinel.DEFAULT)]) for s in body.body
    ]


def new_block(old: cst.BaseSuite, replacement: cst.Module) -> cst.IndentedBlock:
    statements: list[cst.BaseStatement] = list(replacement.body)
    if replacement.header:
        first = statements[0]
        leading = getattr(first, "leading_lines", ())
        statements[0] = first.with_changes(leading_lines=[*replacement.header, *leading])
    existing = _statements(old)
    if existing and _is_docstring(existing[0]) and not _is_docstring(statements[0]):
        statements.insert(0, existing[0])
    footer: Sequence[cst.EmptyLine] = replacement.footer
    if isinstance(old, cst.IndentedBlock):
        return old.with_changes(body=statements, footer=footer)
    assert isinstance(old, cst.SimpleStatementSuite)
    return cst.IndentedBlock(body=statements, header=old.trailing_whitespace, footer=footer)


class _Replace(cst.CSTTransformer):
    def __init__(self, wrapper: MetadataWrapper, name: str, line: int, replacement: cst.Module) -> None:
        super().__init__()
        self.positions = wrapper.resolve(PositionProvider)
        self.name = name
        self.line = line
        self.replacement = replacement
        self.done = False

    def _hit(self, node: cst.FunctionDef | cst.ClassDef) -> bool:
        return (
            not self.done
            and node.name.value == self.name
            and self.positions[node.name].start.line == self.line
        )

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        if self._hit(original):
            self.done = True
            return updated.with_changes(body=new_block(updated.body, self.replacement))
        return updated

    def leave_ClassDef(self, original: cst.ClassDef, updated: cst.ClassDef) -> cst.ClassDef:
        if self._hit(original):
            self.done = True
            return updated.with_changes(body=new_block(updated.body, self.replacement))
        return updated


def replace_python_body(text: str, name: str, name_line: int, new_body: str) -> str:
    """``text`` with the body of the def/class ``name`` declared on ``name_line`` replaced."""
    replacement = parse_new_body(new_body)
    try:
        module = cst.parse_module(text)
    except cst.ParserSyntaxError:
        raise InvalidInput("the file does not parse; fix it before replacing a body") from None
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    transformer = _Replace(wrapper, name, name_line, replacement)
    result = wrapper.module.visit(transformer)
    if not transformer.done:
        raise NotFound(
            f"no def or class {name!r} on line {name_line}; only functions and classes have bodies"
        )
    return result.code
