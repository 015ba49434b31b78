"""TypeScript and JavaScript facts from tree-sitter.

Facts only: symbols with SPEC paths, imports/re-exports, syntax diagnostics and
the outline header. The tree is returned so per-file analyzers reuse it
(rebuild position helpers with :meth:`TsSource.of`).
"""

from __future__ import annotations

from tree_sitter import Node, Tree

from astmcp.lang.ts_imports import ImportCollector
from astmcp.lang.ts_parse import TsSource, language_for
from astmcp.lang.ts_symbols import SymbolWalker
from astmcp.model import DiagnosticFact, FileFacts, SymbolFact

__all__ = ["parse"]

_MAX_SYNTAX_DIAGNOSTICS = 20


def parse(path: str, language: str, text: str) -> tuple[Tree | None, FileFacts]:
    """The syntax tree and the file's facts; never raises for bad source."""
    line_count = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    src = TsSource.parse(path, language, text)
    walker = SymbolWalker(src)
    try:
        found = walker.run(path)
    except RecursionError:
        diag = DiagnosticFact("TS-PARSE-LIMIT", "error", 1, 1, "file too deeply nested to index")
        return None, FileFacts(language, line_count, diagnostics=(diag,), parse_error="too deeply nested")
    collector = ImportCollector(src)
    for statement in found.statements:
        collector.statement(statement)
    collector.calls(language_for(path, language))
    collector.jsdoc()
    symbols = found.symbols
    symbols.sort(key=lambda s: (s.span.line, s.span.column))
    diagnostics, has_errors = syntax_diagnostics(src, symbols)
    return src.tree, FileFacts(
        language,
        line_count,
        symbols=tuple(symbols),
        diagnostics=tuple(diagnostics),
        imports=tuple(collector.facts),
        outline_header=tuple(collector.header()),
        has_error_nodes=has_errors,
    )


def _grammar_gap(src: TsSource, node: Node) -> bool:
    """ERROR nodes where tree-sitter-typescript rejects valid TypeScript."""
    parent = node.parent
    text = src.text_of(node).strip()
    if parent is not None and parent.type == "type_parameters":
        return all(word in ("in", "out", "const") or word.isidentifier() for word in text.split())
    if parent is not None and parent.type == "template_literal_type":
        return True  # no escape sequences in template literal types
    if parent is not None and parent.type == "as_expression" and text == "=":
        first = parent.children[0]
        return src.text_of(first) in ("let", "const", "var")  # `let as = …`
    return text in ("type", "accessor")


def syntax_diagnostics(src: TsSource, symbols: list[SymbolFact]) -> tuple[list[DiagnosticFact], bool]:
    """``TS-SYNTAX`` for ERROR/MISSING nodes (grammar gaps as ``grammar`` warnings)."""
    root = src.tree.root_node
    out: list[DiagnosticFact] = []
    unclosed = src.unclosed_blocks()
    if unclosed:
        text = src.text.rstrip("\r\n")
        line = text.count("\n") + 1
        column = len(text) - (text.rfind("\n") + 1) + 1
        owner = None
        for symbol in symbols:  # the innermost declaration left open
            if (symbol.span.line, symbol.span.column) <= (line, column):
                owner = symbol.symbol_path if symbol.span.end_line >= line else owner
        message = f"missing `}}`: {unclosed} block(s) still open at the end of the file"
        out.append(DiagnosticFact("TS-SYNTAX", "error", line, column, message, symbol_path=owner))
    if not root.has_error:
        return out, bool(out)
    stack = [root]
    while stack and len(out) < _MAX_SYNTAX_DIAGNOSTICS:
        node = stack.pop()
        if node.is_missing:
            out.append(_diagnostic(src, node, f"missing `{node.type}`", False, symbols))
        elif node.is_error:
            snippet = " ".join(src.text_of(node).split())[:40]
            gap = _grammar_gap(src, node)
            message = f"unexpected `{snippet}`" if snippet else "syntax error"
            if gap:
                message += " (valid TypeScript the tree-sitter grammar does not support)"
            out.append(_diagnostic(src, node, message, gap, symbols))
        elif node.has_error:
            stack.extend(reversed(node.children))
    return out, True


def _diagnostic(
    src: TsSource, node: Node, message: str, grammar: bool, symbols: list[SymbolFact]
) -> DiagnosticFact:
    point = node.start_point
    line = point.row + 1
    column = src.column(point.row, point.column)
    owner = None
    for symbol in symbols:
        span = symbol.span
        if (span.line, span.column) <= (line, column) < (span.end_line, span.end_column):
            owner = symbol.symbol_path  # later (inner) symbols win
    return DiagnosticFact(
        "TS-SYNTAX",
        "warning" if grammar else "error",
        line,
        column,
        message,
        source="grammar" if grammar else "astmcp",
        symbol_path=owner,
    )
