"""``ast_get_diagnostics``: built-in diagnostics from the index, plus the project's
own checkers when enabled in the configuration."""

from __future__ import annotations

import sqlite3
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, SerializerFunctionWrapHandler, model_serializer

from astmcp.diagnostics.external import run_external
from astmcp.diagnostics.project import Located, indexed_diagnostics, selector_for
from astmcp.query.common import Formatted, Paged, PageOut, page_fields
from astmcp.tools import tool
from astmcp.workspace import Workspace


class DiagnosticsInput(Paged, Formatted):
    default_limit: ClassVar[int] = 100
    file_path: str | None = None
    severity: Literal["error", "warning", "all"] = "all"


class DiagnosticOut(BaseModel):
    code: str
    severity: str
    source: str
    file: str
    line: int
    column: int
    message: str
    symbol: str | None = None

    @model_serializer(mode="wrap")
    def _uniform(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        # `symbol` stays (null when none) so every row has the same keys: TOON tabulates them.
        data: dict[str, Any] = handler(self)
        data.setdefault("symbol", None)
        return data


class DiagnosticsOutput(PageOut):
    diagnostics: list[DiagnosticOut]
    error_count: int
    warning_count: int


def _out(
    conn: sqlite3.Connection, item: Located, cache: dict[tuple[str, str, int], str | None]
) -> DiagnosticOut:
    d = item.fact
    symbol = None
    if d.symbol_path:
        key = (item.file, d.symbol_path, d.line)
        if key not in cache:
            cache[key] = selector_for(conn, item.file, d.symbol_path, d.line)
        symbol = cache[key]
    return DiagnosticOut(
        code=d.code,
        severity=d.severity,
        source=d.source,
        file=item.file,
        line=d.line,
        column=d.column,
        message=d.message,
        symbol=symbol,
    )


@tool("ast_get_diagnostics", DiagnosticsInput, DiagnosticsOutput, list_field="diagnostics")
def get_diagnostics(ws: Workspace, params: DiagnosticsInput) -> DiagnosticsOutput:
    """Errors and warnings for the project or one file: syntax errors, unresolved project
    imports, undefined names, duplicate declarations (source "astmcp"), plus tsc/pyright/mypy
    results when the project enables them. Each carries the selector of the enclosing symbol.
    error_count/warning_count cover every match, not just this page."""
    conn = ws.db()
    only = ws.resolve_file(conn, params.file_path) if params.file_path else None
    items = indexed_diagnostics(conn, only)
    if any(name != "builtin" for name in ws.config.diagnostics):
        external = run_external(ws, conn, {})
        items.extend(x for x in external if only is None or x.file == only)
    items.sort(key=lambda x: (x.file, x.fact.line, x.fact.column, x.fact.code, x.fact.message))
    errors = sum(1 for x in items if x.fact.severity == "error")
    warnings = sum(1 for x in items if x.fact.severity == "warning")
    if params.severity != "all":
        items = [x for x in items if x.fact.severity == params.severity]
    limit = params.page_size()
    window = items[params.offset : params.offset + limit]
    cache: dict[tuple[str, str, int], str | None] = {}
    return DiagnosticsOutput(
        diagnostics=[_out(conn, x, cache) for x in window],
        error_count=errors,
        warning_count=warnings,
        **page_fields(len(items), params.offset, limit),
    )
