"""Project-level built-in diagnostics, written inside the index's write transaction.

The indexer has already replaced the changed files' rows (their parser
diagnostics included); this pass adds the per-file analyzer diagnostics of the
changed files and re-judges unresolved imports for the changed files, for the
importers of changed or removed files and, when the set of files changes, for
every file with an unresolved import. Its own tables (``diag_*``, keyed by
path) remember what that needs: module-level names, import edges, undefined
name candidates and the names files make global (Python: injected into
``builtins``; TS/JS: script-file declarations, ``declare global``, and the
installed ``@types`` packages' globals), which silence the candidates of their
language project-wide.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from pathlib import Path

from astmcp.diagnostics import ts_environment, ts_undefined
from astmcp.diagnostics.facts import (
    UNDEFINED_CODES,
    Injected,
    Owners,
    analyzer_diagnostics,
    injected_names,
    python_payload,
    undefined_name,
)
from astmcp.diagnostics.imports import (
    PY_UNRESOLVED,
    TS_UNRESOLVED,
    AliasTest,
    ImportResult,
    NamesOf,
    OnDisk,
    PyModules,
    alias_test,
    check_python_import,
    check_ts_import,
    on_disk_checker,
)
from astmcp.index.indexer import Changes
from astmcp.model import JAVASCRIPT, PYTHON, DiagnosticFact

__all__ = ["SCHEMA", "DiagnosticsLinker", "ImportChecker", "make_linker", "module_names_reader"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS diag_seen (path TEXT PRIMARY KEY);
CREATE TABLE IF NOT EXISTS diag_py_module (
    path TEXT PRIMARY KEY, names TEXT NOT NULL, dynamic INTEGER NOT NULL, guarded TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS diag_injected (path TEXT NOT NULL, code TEXT NOT NULL, name TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS diag_injected_path ON diag_injected(path);
CREATE TABLE IF NOT EXISTS diag_undefined (
    path TEXT NOT NULL, code TEXT NOT NULL, name TEXT NOT NULL, line INTEGER NOT NULL, col INTEGER NOT NULL,
    message TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS diag_undefined_path ON diag_undefined(path);
CREATE TABLE IF NOT EXISTS diag_edges (importer TEXT NOT NULL, target TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS diag_edges_importer ON diag_edges(importer);
CREATE INDEX IF NOT EXISTS diag_edges_target ON diag_edges(target);
CREATE TABLE IF NOT EXISTS diag_state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""
_PATH_TABLES = (("diag_py_module", "path"), ("diag_injected", "path"), ("diag_undefined", "path"))
IMPORT_CODES = (PY_UNRESOLVED, TS_UNRESOLVED)


def ensure_schema(conn: sqlite3.Connection) -> None:
    for statement in SCHEMA.split(";"):
        if statement.strip():
            conn.execute(statement)


def project_root(conn: sqlite3.Connection) -> Path | None:
    for _seq, name, file in conn.execute("PRAGMA database_list"):
        if name == "main" and file:
            return Path(file).parent.parent
    return None


def module_names_reader(conn: sqlite3.Connection) -> NamesOf:
    cache: dict[str, tuple[frozenset[str], bool] | None] = {}

    def names_of(path: str) -> tuple[frozenset[str], bool] | None:
        if path not in cache:
            row = conn.execute("SELECT names, dynamic FROM diag_py_module WHERE path = ?", (path,)).fetchone()
            cache[path] = None if row is None else (frozenset(row[0].split()), bool(row[1]))
        return cache[path]

    return names_of


def guarded_lines(conn: sqlite3.Connection, path: str) -> frozenset[int]:
    row = conn.execute("SELECT guarded FROM diag_py_module WHERE path = ?", (path,)).fetchone()
    return frozenset(int(n) for n in row[0].split()) if row else frozenset()


def file_ids(conn: sqlite3.Connection, paths: Iterable[str]) -> dict[str, tuple[int, str]]:
    wanted = list(paths)
    out: dict[str, tuple[int, str]] = {}
    for start in range(0, len(wanted), 500):
        chunk = wanted[start : start + 500]
        marks = ",".join("?" * len(chunk))
        for file_id, path, language in conn.execute(
            f"SELECT id, path, language FROM files WHERE path IN ({marks})", chunk
        ):
            out[path] = (file_id, language)
    return out


def owners_of(conn: sqlite3.Connection, file_id: int) -> Owners:
    return Owners(
        conn.execute("SELECT symbol_path, start_line, end_line FROM symbols WHERE file_id = ?", (file_id,))
    )


def injected_set(conn: sqlite3.Connection) -> frozenset[Injected]:
    """``(code, name)`` pairs: names some file makes global, and the code they silence."""
    return frozenset(
        (row[0], row[1]) for row in conn.execute("SELECT DISTINCT code, name FROM diag_injected")
    )


class DiagnosticsLinker:
    def __call__(self, conn: sqlite3.Connection, changes: Changes) -> None:
        ensure_schema(conn)
        changed = list(changes.changed_paths)
        removed = list(changes.removed_paths)
        seen = {row[0] for row in conn.execute("SELECT path FROM diag_seen")}
        added = [p for p in changed if p not in seen]
        old_injected = injected_set(conn)
        for path in (*changed, *removed):
            for table, column in _PATH_TABLES:
                conn.execute(f"DELETE FROM {table} WHERE {column} = ?", (path,))
        conn.executemany("DELETE FROM diag_seen WHERE path = ?", [(p,) for p in removed])
        conn.executemany("INSERT OR IGNORE INTO diag_seen(path) VALUES (?)", [(p,) for p in added])
        ids = file_ids(conn, changed)
        self._per_file(conn, changes, ids)
        root = changes.root or project_root(conn)
        if root is not None:
            self._environment(conn, root)
        new_injected = injected_set(conn)
        stale = {code for code, _name in old_injected ^ new_injected}
        for code in stale:  # another file's globals changed: judge every candidate of that code again
            conn.execute("DELETE FROM diagnostics WHERE code = ?", (code,))
        self._write_undefined(conn, None, new_injected, stale)
        self._write_undefined(conn, changed, new_injected, set(UNDEFINED_CODES) - stale)
        self._imports(conn, changes, bool(added or removed) or changes.full or changes.configs_changed)

    def _environment(self, conn: sqlite3.Connection, root: Path) -> None:
        """Store the globals of the installed ``@types`` packages when they changed."""
        stamp = ts_environment.fingerprint(root)
        row = conn.execute("SELECT value FROM diag_state WHERE key = 'ts_types'").fetchone()
        if row is not None and row[0] == stamp:
            return
        path = ts_environment.ENVIRONMENT_PATH
        conn.execute("DELETE FROM diag_injected WHERE path = ?", (path,))
        names = ts_environment.environment_globals(root) if stamp else frozenset()
        conn.executemany(
            "INSERT INTO diag_injected(path, code, name) VALUES (?,?,?)",
            [(path, ts_undefined.UNDEFINED_NAME, n) for n in sorted(names)],
        )
        conn.execute("INSERT OR REPLACE INTO diag_state(key, value) VALUES ('ts_types', ?)", (stamp,))

    def _per_file(self, conn: sqlite3.Connection, changes: Changes, ids: dict[str, tuple[int, str]]) -> None:
        rows: list[tuple[object, ...]] = []
        for path, facts in changes.facts.items():
            if path not in ids:
                continue
            file_id = ids[path][0]
            payload = python_payload(facts)
            if payload is not None:
                conn.execute(
                    "INSERT OR REPLACE INTO diag_py_module(path, names, dynamic, guarded) VALUES (?,?,?,?)",
                    (
                        path,
                        " ".join(sorted(payload.module_names)),
                        int(payload.dynamic),
                        " ".join(map(str, sorted(payload.guarded_imports))),
                    ),
                )
            conn.executemany(
                "INSERT INTO diag_injected(path, code, name) VALUES (?,?,?)",
                [(path, code, n) for code, n in sorted(injected_names(facts))],
            )
            owners = Owners.of_facts(facts)
            for diag in analyzer_diagnostics(facts):
                name = undefined_name(diag)
                if name is not None:
                    conn.execute(
                        "INSERT INTO diag_undefined(path, code, name, line, col, message) VALUES (?,?,?,?,?,?)",
                        (path, diag.code, name, diag.line, diag.column, diag.message),
                    )
                    continue
                rows.append(_row(file_id, owners.attribute(diag)))
        _insert(conn, rows)

    def _write_undefined(
        self,
        conn: sqlite3.Connection,
        paths: list[str] | None,
        injected: frozenset[Injected],
        codes: set[str],
    ) -> None:
        """Undefined-name candidates of ``paths`` (None: every file) with one of ``codes`` that no
        file's globals silence."""
        if not codes:
            return
        sql = (
            "SELECT d.path, d.code, d.name, d.line, d.col, d.message, f.id"
            " FROM diag_undefined d JOIN files f ON f.path = d.path"
        )
        found = list(conn.execute(sql)) if paths is None else []
        if paths is not None:
            for path in paths:
                found.extend(conn.execute(sql + " WHERE d.path = ?", (path,)))
        owners: dict[int, Owners] = {}
        rows: list[tuple[object, ...]] = []
        for _path, code, name, line, col, message, file_id in found:
            if code not in codes or (code, name) in injected:
                continue
            if file_id not in owners:
                owners[file_id] = owners_of(conn, file_id)
            diag = DiagnosticFact(code, "error", line, col, message)
            rows.append(_row(file_id, owners[file_id].attribute(diag)))
        _insert(conn, rows)

    def _imports(self, conn: sqlite3.Connection, changes: Changes, files_changed: bool) -> None:
        changed, removed = changes.changed_paths, changes.removed_paths
        all_paths = [row[0] for row in conn.execute("SELECT path FROM files")]
        mods = PyModules(all_paths)
        fingerprint = mods.fingerprint()
        row = conn.execute("SELECT value FROM diag_state WHERE key = 'py_roots'").fetchone()
        roots_changed = row is None or row[0] != fingerprint
        if roots_changed:
            conn.execute(
                "INSERT OR REPLACE INTO diag_state(key, value) VALUES ('py_roots', ?)", (fingerprint,)
            )
        targets = [*changed, *removed]
        recheck = set(changed)
        for start in range(0, len(targets), 500):
            chunk = targets[start : start + 500]
            marks = ",".join("?" * len(chunk))
            recheck.update(
                r[0]
                for r in conn.execute(f"SELECT importer FROM diag_edges WHERE target IN ({marks})", chunk)
            )
        if roots_changed or changes.configs_changed:  # new packages, tsconfig paths: judge everything again
            recheck.update(all_paths)
        elif files_changed:
            recheck.update(
                r[0]
                for r in conn.execute(
                    "SELECT DISTINCT f.path FROM diagnostics d JOIN files f ON f.id = d.file_id"
                    " WHERE d.code IN (?, ?)",
                    IMPORT_CODES,
                )
            )
        recheck.difference_update(removed)
        conn.executemany("DELETE FROM diag_edges WHERE importer = ?", [(p,) for p in [*recheck, *removed]])
        if not recheck:
            return
        root = changes.root or project_root(conn)
        on_disk: OnDisk = on_disk_checker(root) if root is not None else (lambda _stem: False)
        aliased = alias_test(root, all_paths, changes.configs) if root is not None else None
        checker = ImportChecker(mods, set(all_paths), module_names_reader(conn), on_disk, aliased)
        ids = file_ids(conn, recheck)
        rows: list[tuple[object, ...]] = []
        edges: list[tuple[str, str]] = []
        for path, (file_id, language) in ids.items():
            conn.execute(
                "DELETE FROM diagnostics WHERE file_id = ? AND code IN (?, ?)", (file_id, *IMPORT_CODES)
            )
            imports = conn.execute(
                "SELECT module, name, level, kind, resolved_path, line FROM imports WHERE file_id = ?",
                (file_id,),
            ).fetchall()
            found = checker.check_file(path, language, imports, guarded_lines(conn, path))
            edges.extend((path, t) for t in checker.last_targets)
            if found:
                owners = owners_of(conn, file_id)
                rows.extend(_row(file_id, owners.attribute(d)) for d in found)
        _insert(conn, rows)
        conn.executemany("INSERT INTO diag_edges(importer, target) VALUES (?,?)", edges)


class ImportChecker:
    """Judges the imports of one file at a time against one view of the project."""

    def __init__(
        self,
        mods: PyModules,
        paths: set[str],
        names_of: NamesOf,
        on_disk: OnDisk,
        aliased: AliasTest | None = None,
    ) -> None:
        self.aliased = aliased
        self.mods = mods
        self.paths = paths
        self.names_of = names_of
        self.on_disk = on_disk
        self.last_targets: set[str] = set()

    def check_file(
        self,
        path: str,
        language: str,
        imports: Iterable[tuple[str, str | None, int, str, str | None, int]],
        guarded: frozenset[int] = frozenset(),
    ) -> list[DiagnosticFact]:
        out: list[DiagnosticFact] = []
        self.last_targets = set()
        seen: set[tuple[str, str | None, int]] = set()
        for module, name, level, kind, resolved, line in imports:
            if kind in ("dynamic", "augment") or line in guarded:  # `declare module "x"` may declare x
                continue
            if kind == "require" and language == JAVASCRIPT:
                continue  # bundles (browserify, webpack output) carry their own require maps
            key = (module, name, level)
            result: ImportResult
            if language == PYTHON:
                result = check_python_import(
                    self.mods, path, module, name, level, self.names_of, self.on_disk
                )
                code = PY_UNRESOLVED
            else:
                result = check_ts_import(self.paths, path, module, resolved, self.on_disk, self.aliased)
                code = TS_UNRESOLVED
            self.last_targets.update(t for t in result.targets if t != path)
            if result.message is not None and key not in seen:
                seen.add(key)
                out.append(DiagnosticFact(code, "error", line, 1, result.message))
        return out


def _row(file_id: int, d: DiagnosticFact) -> tuple[object, ...]:
    return (file_id, d.code, d.severity, d.source, d.line, d.column, d.message, d.symbol_path)


def _insert(conn: sqlite3.Connection, rows: list[tuple[object, ...]]) -> None:
    conn.executemany(
        "INSERT INTO diagnostics(file_id, code, severity, source, line, col, message, symbol_path)"
        " VALUES (?,?,?,?,?,?,?,?)",
        rows,
    )


def make_linker() -> DiagnosticsLinker:
    return DiagnosticsLinker()
