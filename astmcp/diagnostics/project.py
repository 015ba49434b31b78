"""The project's built-in diagnostics: as indexed, and re-derived for post-images in memory.

``post_builtin`` answers "what would the index say if these files had this
text" without writing anything: the post-image files are parsed and analyzed
like the indexer does, and the project-level checks they influence (imports of
and into them, names files make global) are re-run against an overlay of the index.
"""

from __future__ import annotations

import contextlib
import sqlite3
from dataclasses import dataclass
from typing import Any

from astmcp.diagnostics import python_checks, ts_checks, ts_undefined
from astmcp.diagnostics.facts import (
    Owners,
    analyzer_diagnostics,
    injected_names,
    python_payload,
    undefined_name,
)
from astmcp.diagnostics.imports import PyModules, alias_test, on_disk_checker
from astmcp.diagnostics.linker import (
    IMPORT_CODES,
    ImportChecker,
    ensure_schema,
    guarded_lines,
    injected_set,
    module_names_reader,
)
from astmcp.lang import parse_text
from astmcp.model import LANGUAGE_BY_SUFFIX, PYTHON, DiagnosticFact, FileFacts
from astmcp.resolve import ts_facts
from astmcp.workspace import Workspace

__all__ = ["Located", "indexed_diagnostics", "post_builtin", "selector_for"]


@dataclass(frozen=True, slots=True)
class Located:
    file: str
    fact: DiagnosticFact


def indexed_diagnostics(conn: sqlite3.Connection, only: str | None = None) -> list[Located]:
    sql = (
        "SELECT f.path, d.code, d.severity, d.line, d.col, d.message, d.source, d.symbol_path"
        " FROM diagnostics d JOIN files f ON f.id = d.file_id"
    )
    rows = conn.execute(sql + " WHERE f.path = ?", (only,)) if only else conn.execute(sql)
    return [Located(r[0], DiagnosticFact(*r[1:])) for r in rows]


def selector_for(conn: sqlite3.Connection, file: str, symbol_path: str, line: int) -> str | None:
    rows = conn.execute(
        "SELECT s.selector, s.start_line, s.end_line FROM symbols s JOIN files f ON f.id = s.file_id"
        " WHERE f.path = ? AND s.symbol_path = ? ORDER BY s.line",
        (file, symbol_path),
    ).fetchall()
    for selector, start, end in rows:
        if start <= line <= end:
            return str(selector)
    return str(rows[0][0]) if rows else None


def _analyze(path: str, text: str, indexed: dict[str, Any] | None = None) -> FileFacts | None:
    """Front end plus the analyzers built-in checks read (for TS/JS the reference analyzer's
    scopes give the unbound identifiers; ``indexed`` stands in for its answer where the edit
    cannot change it)."""
    suffix = "." + path.rsplit(".", 1)[-1] if "." in path else ""
    language = LANGUAGE_BY_SUFFIX.get(suffix)
    if language is None:
        return None
    if text.startswith("\ufeff"):
        text = text[1:]
    tree, facts = parse_text(path, language, text)
    if tree is not None:
        analyzers = (python_checks,) if language == PYTHON else (ts_facts, ts_checks)
        if indexed is not None and language != PYTHON:
            facts.extra[ts_facts.NAME] = indexed
            analyzers = (ts_checks,)
        for checks in analyzers:
            with contextlib.suppress(RecursionError):  # the indexer skips such a file the same way
                facts.extra[checks.NAME] = checks.analyze(path, text, tree)
    return facts


def post_builtin(
    ws: Workspace,
    conn: sqlite3.Connection,
    post_images: dict[str, str],
    same_scopes: frozenset[str] = frozenset(),
) -> list[Located]:
    """Every built-in diagnostic of the project as it would be with ``post_images`` applied.

    A TS/JS file of ``same_scopes`` has edits that only respell member names (``x.old``, a
    member's declaration, a string's text): its bindings, free names and globals are those
    indexed, so the reference analyzer (most of the time a big file costs) is not run on it."""
    ensure_schema(conn)
    base = indexed_diagnostics(conn)
    facts = {
        path: f
        for path, text in post_images.items()
        if (f := _analyze(path, text, _indexed_scopes(conn, path) if path in same_scopes else None))
        is not None
    }
    indexed = {row[0]: (row[1], row[2]) for row in conn.execute("SELECT path, id, language FROM files")}
    paths = set(indexed) | set(facts)
    added_paths = set(facts) - set(indexed)

    injected = {
        (c, n) for p, c, n in conn.execute("SELECT path, code, name FROM diag_injected") if p not in facts
    }
    for f in facts.values():
        injected |= injected_names(f)
    stale = {code for code, _name in frozenset(injected) ^ injected_set(conn)}

    recheck = set(facts)
    if facts:
        marks = ",".join("?" * len(facts))
        recheck.update(
            r[0]
            for r in conn.execute(f"SELECT importer FROM diag_edges WHERE target IN ({marks})", list(facts))
        )
    if added_paths:
        recheck.update(x.file for x in base if x.fact.code in IMPORT_CODES)

    out: list[Located] = []
    for item in base:
        if item.file in facts:
            continue
        if item.fact.code in IMPORT_CODES and item.file in recheck:
            continue
        if item.fact.code in stale:
            continue
        out.append(item)
    if stale:
        for path, code, name, line, col, message in conn.execute(
            "SELECT path, code, name, line, col, message FROM diag_undefined"
        ):
            if path in facts or code not in stale or (code, name) in injected:
                continue
            row = indexed.get(path)
            owners = (
                Owners(
                    conn.execute(
                        "SELECT symbol_path, start_line, end_line FROM symbols WHERE file_id = ?", (row[0],)
                    )
                )
                if row
                else Owners(())
            )
            diag = DiagnosticFact(code, "error", line, col, message)
            out.append(Located(path, owners.attribute(diag)))

    for path, f in facts.items():
        owners = Owners.of_facts(f)
        for diag in (*f.diagnostics, *analyzer_diagnostics(f)):
            name = undefined_name(diag)
            if name is not None and (diag.code, name) in injected:
                continue
            out.append(Located(path, owners.attribute(diag)))

    db_names = module_names_reader(conn)

    def names_of(path: str) -> tuple[frozenset[str], bool] | None:
        if path in facts:
            payload = python_payload(facts[path])
            return None if payload is None else (payload.module_names, payload.dynamic)
        return db_names(path)

    aliased = alias_test(ws.root, paths)
    checker = ImportChecker(PyModules(paths), paths, names_of, on_disk_checker(ws.root), aliased)
    for path in sorted(recheck):
        if path in facts:
            f = facts[path]
            known = _known_resolutions(conn, indexed.get(path))
            imports = [
                (i.module, i.name, i.level, i.kind, known.get((i.module, i.kind)), i.line) for i in f.imports
            ]
            payload = python_payload(f)
            guarded = payload.guarded_imports if payload is not None else frozenset()
            language = f.language
            owners = Owners.of_facts(f)
        elif path in indexed:
            file_id, language = indexed[path]
            imports = conn.execute(
                "SELECT module, name, level, kind, resolved_path, line FROM imports WHERE file_id = ?",
                (file_id,),
            ).fetchall()
            guarded = guarded_lines(conn, path)
            owners = Owners(
                conn.execute(
                    "SELECT symbol_path, start_line, end_line FROM symbols WHERE file_id = ?", (file_id,)
                )
            )
        else:
            continue
        for diag in checker.check_file(path, language, imports, guarded):
            out.append(Located(path, owners.attribute(diag)))
    return out


def _indexed_scopes(conn: sqlite3.Connection, path: str) -> dict[str, Any] | None:
    """The reference analyzer's diagnostics answer for ``path`` as indexed: its undefined-name
    candidates and the globals it declares; None when the index has no analysis of it."""
    found = conn.execute("SELECT 1 FROM module_facts WHERE path = ? AND data != '{}'", (path,)).fetchone()
    if found is None:
        return None
    undefined = [
        [name, line, col]
        for name, line, col in conn.execute(
            "SELECT name, line, col FROM diag_undefined WHERE path = ? AND code = ? ORDER BY line, col",
            (path, ts_undefined.UNDEFINED_NAME),
        )
    ]
    ambient = sorted(
        name
        for (name,) in conn.execute(
            "SELECT name FROM diag_injected WHERE path = ? AND code = ?", (path, ts_undefined.UNDEFINED_NAME)
        )
    )
    out: dict[str, Any] = {}
    if undefined:
        out["undefined"] = undefined
    if ambient:
        out["ambient"] = ambient
    return out


def _known_resolutions(
    conn: sqlite3.Connection, row: tuple[int, str] | None
) -> dict[tuple[str, str], str | None]:
    """Specifiers the index already resolved for this file (kept when the post-image repeats them)."""
    if row is None:
        return {}
    return {
        (module, kind): resolved
        for module, kind, resolved in conn.execute(
            "SELECT module, kind, resolved_path FROM imports WHERE file_id = ? AND resolved_path IS NOT NULL",
            (row[0],),
        )
    }
