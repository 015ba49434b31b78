"""``ast_get_outline``: declarations and signatures of one file, no bodies."""

from __future__ import annotations

from pydantic import BaseModel, Field

from astmcp.query.common import SymbolRow, query_symbols
from astmcp.tools import ToolInput, ToolOutput, tool
from astmcp.workspace import Workspace

_BODY_KINDS = {"function", "method", "constructor", "getter", "setter", "property"}


class OutlineInput(ToolInput):
    file_path: str = Field(
        description="Project-relative path, absolute path inside the root, or unique suffix."
    )
    include_symbols: bool = False


class OutlineSymbol(BaseModel):
    selector: str
    symbol_path: str
    name: str
    kind: str
    signature: str
    line: int
    end_line: int


class OutlineOutput(ToolOutput):
    file: str
    language: str
    outline: str
    symbols: list[OutlineSymbol] | None = None


def render_outline(header: str, rows: list[SymbolRow]) -> str:
    kinds = {r.symbol_path: r.kind for r in rows}
    lines = [h for h in header.split("\n") if h]
    for row in rows:
        parent = row.parent_path
        # Declarations inside function bodies are implementation, not outline.
        if parent is not None and kinds.get(parent) in _BODY_KINDS and kinds.get(parent) != "property":
            continue
        depth = row.symbol_path.count(".") if parent else 0
        signature = " ".join(part.strip() for part in row.signature.split("\n"))
        doc = f"  # {row.doc}" if row.doc else ""
        span = f"{row.line}" if row.end_line == row.line else f"{row.line}-{row.end_line}"
        lines.append(f"{'  ' * depth}{span}: {signature}{doc}")
    return "\n".join(lines)


@tool("ast_get_outline", OutlineInput, OutlineOutput)
def get_outline(ws: Workspace, params: OutlineInput) -> OutlineOutput:
    """Outline of one file: imports summary and every declaration's signature with its line
    span, no bodies. Read this before opening a file; then fetch one symbol with
    ast_get_symbol_source."""
    conn = ws.db()
    path = ws.resolve_file(conn, params.file_path)
    language, header, parse_error = conn.execute(
        "SELECT language, outline_header, parse_error FROM files WHERE path = ?", (path,)
    ).fetchone()
    rows = query_symbols(conn, "f.path = ? ORDER BY s.start_line, s.start_col", (path,))
    outline = render_outline(header, rows)
    if parse_error:
        outline = f"(not parsed: {parse_error})\n{outline}".rstrip()
    symbols = None
    if params.include_symbols:
        symbols = [
            OutlineSymbol(
                selector=r.selector,
                symbol_path=r.symbol_path,
                name=r.name,
                kind=r.kind,
                signature=r.signature,
                line=r.line,
                end_line=r.end_line,
            )
            for r in rows
        ]
    return OutlineOutput(file=path, language=language, outline=outline, symbols=symbols)
