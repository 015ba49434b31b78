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


def _in_a_body(row: SymbolRow, bodies: dict[str | None, list[tuple[int, int]]]) -> bool:
    """An attribute assigned inside a method (``self.x = …``) belongs to that body."""
    return row.kind == "attribute" and any(s <= row.line <= e for s, e in bodies.get(row.parent_path, ()))


def render_outline(header: str, rows: list[SymbolRow]) -> str:
    kinds = {r.symbol_path: r.kind for r in rows}
    bodies: dict[str | None, list[tuple[int, int]]] = {}
    for r in rows:
        if r.kind in _BODY_KINDS:
            bodies.setdefault(r.parent_path, []).append((r.start_line, r.end_line))
    lines = [h for h in header.split("\n") if h]
    kept: list[SymbolRow] = []
    for row in rows:
        parent = row.parent_path
        # Declarations inside function bodies are implementation, not outline.
        if parent is not None and kinds.get(parent) in _BODY_KINDS:
            continue
        if _in_a_body(row, bodies):
            continue
        kept.append(row)
    for group in _runs(kept):
        row = group[0]
        depth = row.symbol_path.count(".") if row.parent_path else 0
        if len(group) >= _RUN:  # a block of plain constants or enum members: names only
            names = ", ".join(r.name for r in group)
            lines.append(f"{'  ' * depth}{row.line}-{group[-1].line}: {names}")
            continue
        signature = " ".join(part.strip() for part in row.signature.split("\n"))
        doc = f"  # {_clip(row.doc)}" if row.doc else ""
        span = f"{row.line}" if row.end_line == row.line else f"{row.line}-{row.end_line}"
        lines.append(f"{'  ' * depth}{span}: {signature}{doc}")
    return "\n".join(lines)


_RUN = 4
_DOC_CHARS = 100


def _clip(text: str) -> str:
    return text if len(text) <= _DOC_CHARS else text[: _DOC_CHARS - 1] + "…"


def _plain(row: SymbolRow) -> bool:
    """A one-line, unannotated ``NAME = value`` (an enum member, a constant)."""
    head = row.signature.split("=", 1)[0]
    return (
        row.kind in ("attribute", "variable", "enum_member") and row.end_line == row.line and ":" not in head
    )


def _runs(rows: list[SymbolRow]) -> list[list[SymbolRow]]:
    """Rows in order, consecutive plain constants of one container grouped together."""
    out: list[list[SymbolRow]] = []
    for row in rows:
        last = out[-1] if out else None
        if (
            last
            and _plain(row)
            and _plain(last[-1])
            and last[-1].parent_path == row.parent_path
            and row.line - last[-1].line <= 2
        ):
            last.append(row)
        else:
            out.append([row])
    return out


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
