"""The diagnostics delta a plan is checked against (SPEC §4).

Baseline: the project's diagnostics now (the index, plus enabled external
checkers). Post: the same with the post-image files re-analyzed in memory.
The delta is a multiset difference on ``(code, severity, file, message)``;
positions are ignored so that edits which only move lines change nothing.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from astmcp.diagnostics.external import run_external_pair
from astmcp.diagnostics.project import Located, indexed_diagnostics, post_builtin
from astmcp.workspace import Workspace

__all__ = ["DiagnosticsDelta", "diagnostics_delta"]

Key = tuple[str, str, str, str]


@dataclass(frozen=True, slots=True)
class DiagnosticsDelta:
    added: list[dict[str, Any]]
    removed: list[dict[str, Any]]
    added_errors: int


def _key(item: Located) -> Key:
    return (item.fact.code, item.fact.severity, item.file, item.fact.message)


def _wire(item: Located) -> dict[str, Any]:
    d = item.fact
    out: dict[str, Any] = {
        "code": d.code,
        "severity": d.severity,
        "source": d.source,
        "file": item.file,
        "line": d.line,
        "column": d.column,
        "message": d.message,
    }
    if d.symbol_path:
        out["symbol"] = f"{item.file}::{d.symbol_path}"
    return out


def _difference(left: list[Located], right: list[Located]) -> list[Located]:
    """Items of ``left`` beyond the count of equal keys in ``right`` (multiset difference)."""
    budget = Counter(_key(x) for x in right)
    out = []
    ordered = sorted(left, key=lambda x: (x.file, x.fact.line, x.fact.column, x.fact.code, x.fact.message))
    for item in ordered:  # fully ordered: the delta is part of a plan's hash
        key = _key(item)
        if budget[key] > 0:
            budget[key] -= 1
        else:
            out.append(item)
    return out


def diagnostics_delta(
    ws: Workspace, post_images: dict[str, str], same_scopes: frozenset[str] = frozenset()
) -> DiagnosticsDelta:
    """What changes in the project's diagnostics if ``post_images`` (project-relative path ->
    full new text) replaced those files. Nothing is written. ``same_scopes``: TS/JS files whose
    edits only respell member names (see :func:`post_builtin`)."""
    conn = ws.db()
    images = {ws.relative(path): text for path, text in post_images.items()}
    before = indexed_diagnostics(conn)
    after = post_builtin(ws, conn, images, frozenset(ws.relative(p) for p in same_scopes))
    if any(name != "builtin" for name in ws.config.diagnostics):
        external_before, external_after = run_external_pair(ws, conn, images)
        before.extend(external_before)
        after.extend(external_after)
    added = _difference(after, before)
    removed = _difference(before, after)
    return DiagnosticsDelta(
        added=[_wire(x) for x in added],
        removed=[_wire(x) for x in removed],
        added_errors=sum(1 for x in added if x.fact.severity == "error"),
    )
