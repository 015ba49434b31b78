"""``ast_get_symbol_source``: the exact text of one declaration."""

from __future__ import annotations

import json

from astmcp.errors import Conflict
from astmcp.query.common import SymbolTarget, read_indexed_lines, resolve_symbol
from astmcp.tools import ToolOutput, tool
from astmcp.workspace import Workspace

_ENVELOPE_BYTES = 600
_READ_ATTEMPTS = 5


class SourceInput(SymbolTarget):
    pass


class SourceOutput(ToolOutput):
    selector: str
    file: str
    kind: str
    line: int
    end_line: int
    text: str
    truncated: bool
    truncation: str | None = None


@tool("ast_get_symbol_source", SourceInput, SourceOutput)
def get_symbol_source(ws: Workspace, params: SourceInput) -> SourceOutput:
    """Exact source of one symbol (decorators through the end of its body), by selector
    "<file>::<symbol_path>[@LINE]" or file_path + symbol_path. Cheaper than reading the file."""
    for _ in range(_READ_ATTEMPTS):  # a file rewritten between refresh and read: refresh again
        conn = ws.db()
        row = resolve_symbol(ws, conn, params)
        lines = read_indexed_lines(ws, conn, row.file)
        if lines is not None:
            break
    else:
        raise Conflict(f"{row.file} kept changing while it was read; call again")
    chunk = lines[row.start_line - 1 : row.end_line]
    budget = params.max_bytes - _ENVELOPE_BYTES - len(row.selector) * 2
    text, kept = _fit(chunk, budget)
    truncated = kept < len(chunk)
    return SourceOutput(
        selector=row.selector,
        file=row.file,
        kind=row.kind,
        line=row.line,
        end_line=row.end_line,
        text=text,
        truncated=truncated,
        truncation=(
            f"showing lines {row.start_line}-{row.start_line + kept - 1} of {row.start_line}-{row.end_line};"
            " raise max_bytes for the rest"
            if truncated
            else None
        ),
    )


def _fit(lines: list[str], budget: int) -> tuple[str, int]:
    size = 0
    for n, line in enumerate(lines):
        size += len(json.dumps(line, ensure_ascii=False)) - 2
        if size > budget:
            return "".join(lines[:n]), n
    return "".join(lines), len(lines)
