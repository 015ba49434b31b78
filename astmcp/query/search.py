"""``ast_search_symbols``: ranked symbol lookup by name, path or words.

Ranking (SPEC §3): exact selector, exact path, exact name, prefix, substring,
camel/snake word match. Queries are plain text: matched with escaped LIKE
parameters, never interpreted as SQL or FTS syntax.
"""

from __future__ import annotations

import re
from typing import ClassVar, Literal

from pydantic import BaseModel, Field

from astmcp.query.common import Formatted, Paged, PageOut, SymbolRow, page_fields, query_symbols
from astmcp.query.globs import compile_glob
from astmcp.tools import tool
from astmcp.workspace import Workspace

MATCH_ORDER = ("exact_selector", "exact_path", "exact_name", "prefix", "substring", "word")
_KIND_ORDER = {
    "class": 0,
    "interface": 0,
    "function": 1,
    "type": 1,
    "enum": 1,
    "namespace": 1,
    "method": 2,
    "constructor": 2,
    "property": 3,
    "getter": 3,
    "setter": 3,
    "variable": 4,
    "attribute": 5,
}
_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z]|\d|\b|_)|[A-Z]?[a-z]+|[A-Z]+|\d+")
_CANDIDATE_CAP = 20_000
# Long enough for the parameters and return type of nearly every real signature.
_SUMMARY_SIGNATURE_CHARS = 320


def words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


class SearchInput(Paged, Formatted):
    default_limit: ClassVar[int] = 20
    query: str = Field(min_length=1, max_length=1000)
    kinds: list[str] | None = Field(None, max_length=20)
    file_glob: str | None = None
    language: Literal["python", "typescript", "javascript"] | None = None
    detail: Literal["selectors", "summary", "full"] = "summary"


class SearchHit(BaseModel):
    selector: str
    kind: str
    signature: str | None = None
    file: str | None = None
    symbol_path: str | None = None
    name: str | None = None
    line: int | None = None
    end_line: int | None = None
    doc: str | None = None
    match: str


class SearchOutput(PageOut):
    symbols: list[SearchHit]


def _escape_like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _classify(row: SymbolRow, query: str, lowered: str, query_words: list[str]) -> str | None:
    if row.selector == query:
        return "exact_selector"
    if row.symbol_path == query or (f"{row.file}::{row.symbol_path}" == query):
        return "exact_path"
    name = row.name.lower()
    if name == lowered:
        return "exact_name"
    if name.startswith(lowered):
        return "prefix"
    if lowered in name or lowered in row.symbol_path.lower():
        return "substring"
    if query_words:
        mine = words(row.name)
        if all(any(w.startswith(q) for w in mine) for q in query_words):
            return "word"
    return None


def _candidates(conn: object, params: SearchInput, lowered: str, query_words: list[str]) -> list[SymbolRow]:
    clauses = []
    args: list[object] = []
    probes = {lowered.rsplit(".", 1)[-1].rsplit("::", 1)[-1]}
    if query_words:
        probes.add(max(query_words, key=len))
    probe_sql = []
    for probe in probes:
        if probe:
            probe_sql.append("s.name_lower LIKE ? ESCAPE '\\'")
            args.append(f"%{_escape_like(probe)}%")
    if "." in lowered:
        probe_sql.append("s.symbol_path = ?")
        args.append(params.query)
    if "::" in params.query:
        probe_sql.append("s.selector = ?")
        args.append(params.query)
    if not probe_sql:
        return []
    clauses.append("(" + " OR ".join(probe_sql) + ")")
    if params.kinds:
        clauses.append(f"s.kind IN ({','.join('?' * len(params.kinds))})")
        args.extend(params.kinds)
    if params.language:
        clauses.append("f.language = ?")
        args.append(params.language)
    where = " AND ".join(clauses) + f" LIMIT {_CANDIDATE_CAP}"
    return query_symbols(conn, where, tuple(args))  # type: ignore[arg-type]


@tool("ast_search_symbols", SearchInput, SearchOutput, list_field="symbols")
def search_symbols(ws: Workspace, params: SearchInput) -> SearchOutput:
    """Find symbols by name, dotted path, selector or words ("render pipeline" finds
    render_pipeline/RenderPipeline). Ranked exact > prefix > substring > word. Start here
    instead of grep; detail=selectors is cheapest."""
    conn = ws.db()
    query = params.query.strip()
    lowered = query.lower()
    query_words = words(query)
    rows = _candidates(conn, params, lowered, query_words)
    glob = compile_glob(params.file_glob) if params.file_glob else None
    ranked: list[tuple[tuple[int, int, int, int, str, int], SymbolRow, str]] = []
    for row in rows:
        if glob is not None and not glob.match(row.file):
            continue
        match = _classify(row, query, lowered, query_words)
        if match is None:
            continue
        key = (
            MATCH_ORDER.index(match),
            0 if row.exported else 1,
            _KIND_ORDER.get(row.kind, 6),
            row.symbol_path.count("."),
            row.selector,
            row.line,
        )
        ranked.append((key, row, match))
    ranked.sort(key=lambda item: item[0])
    limit = params.page_size()
    window = ranked[params.offset : params.offset + limit]
    return SearchOutput(
        symbols=[_hit(row, match, params.detail) for _, row, match in window],
        **page_fields(len(ranked), params.offset, limit),
    )


def _hit(row: SymbolRow, match: str, detail: str) -> SearchHit:
    if detail == "selectors":
        return SearchHit(selector=row.selector, kind=row.kind, match=match)
    signature = row.signature.split("\n")[-1] if detail == "summary" else row.signature
    if detail == "summary":
        if len(signature) > _SUMMARY_SIGNATURE_CHARS:
            signature = signature[: _SUMMARY_SIGNATURE_CHARS - 1] + "…"
        return SearchHit(
            selector=row.selector, kind=row.kind, signature=signature, line=row.line, match=match
        )
    return SearchHit(
        selector=row.selector,
        kind=row.kind,
        signature=signature,
        file=row.file,
        symbol_path=row.symbol_path,
        name=row.name,
        line=row.line,
        end_line=row.end_line,
        doc=row.doc,
        match=match,
    )
