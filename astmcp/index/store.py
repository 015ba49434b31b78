"""The SQLite index at ``<root>/.astmcp/index.db``: schema and connections.

A database that does not open, has another schema version or fails its
header check is deleted and rebuilt, never trusted.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import sqlite3
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

from astmcp.errors import Locked

SCHEMA_VERSION = "13"
LOCK_TIMEOUT_S = 120.0

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files (
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL UNIQUE,
    language TEXT NOT NULL,
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    lines INTEGER NOT NULL,
    parse_error TEXT,
    has_error_nodes INTEGER NOT NULL DEFAULT 0,
    outline_header TEXT NOT NULL DEFAULT '',
    indexed_ns INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS symbols (
    id INTEGER PRIMARY KEY,
    file_id INTEGER NOT NULL,
    selector TEXT NOT NULL,
    symbol_path TEXT NOT NULL,
    name TEXT NOT NULL,
    name_lower TEXT NOT NULL,
    kind TEXT NOT NULL,
    signature TEXT NOT NULL,
    doc TEXT,
    line INTEGER NOT NULL,
    start_line INTEGER NOT NULL,
    start_col INTEGER NOT NULL,
    end_line INTEGER NOT NULL,
    end_col INTEGER NOT NULL,
    name_line INTEGER NOT NULL,
    name_col INTEGER NOT NULL,
    name_end_col INTEGER NOT NULL,
    parent_path TEXT,
    exported INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS symbols_file ON symbols(file_id);
CREATE INDEX IF NOT EXISTS symbols_name ON symbols(name_lower);
CREATE INDEX IF NOT EXISTS symbols_selector ON symbols(selector);
CREATE TABLE IF NOT EXISTS imports (
    id INTEGER PRIMARY KEY,
    file_id INTEGER NOT NULL,
    module TEXT NOT NULL,
    name TEXT,
    alias TEXT,
    line INTEGER NOT NULL,
    level INTEGER NOT NULL DEFAULT 0,
    kind TEXT NOT NULL,
    resolved_path TEXT,
    -- 1: the specifier names something outside the project (a package, a node: builtin)
    external INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS imports_file ON imports(file_id);
CREATE INDEX IF NOT EXISTS imports_resolved ON imports(resolved_path);
CREATE TABLE IF NOT EXISTS diagnostics (
    id INTEGER PRIMARY KEY,
    file_id INTEGER NOT NULL,
    code TEXT NOT NULL,
    severity TEXT NOT NULL,
    source TEXT NOT NULL,
    line INTEGER NOT NULL,
    col INTEGER NOT NULL,
    message TEXT NOT NULL,
    symbol_path TEXT
);
CREATE INDEX IF NOT EXISTS diagnostics_file ON diagnostics(file_id);
-- Filled by the resolution pass: one row per identifier occurrence. ``target_key`` is the
-- language's unresolved form (kept to re-link), ``confidence`` certain/likely/name, or
-- "none" for an occurrence that resolved outside the project.
CREATE TABLE IF NOT EXISTS refs (
    id INTEGER PRIMARY KEY,
    file_id INTEGER NOT NULL,
    symbol_id INTEGER,
    target_key TEXT,
    name TEXT NOT NULL,
    line INTEGER NOT NULL,
    col INTEGER NOT NULL,
    end_col INTEGER NOT NULL,
    kind TEXT NOT NULL,
    confidence TEXT NOT NULL,
    scope_path TEXT
);
CREATE INDEX IF NOT EXISTS refs_file ON refs(file_id);
CREATE INDEX IF NOT EXISTS refs_symbol ON refs(symbol_id);
CREATE INDEX IF NOT EXISTS refs_name ON refs(name);
CREATE TABLE IF NOT EXISTS edges (
    id INTEGER PRIMARY KEY,
    file_id INTEGER NOT NULL,
    src_symbol_id INTEGER,
    dst_symbol_id INTEGER,
    dst_key TEXT,
    kind TEXT NOT NULL,
    line INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS edges_src ON edges(src_symbol_id);
CREATE INDEX IF NOT EXISTS edges_dst ON edges(dst_symbol_id);
CREATE INDEX IF NOT EXISTS edges_file ON edges(file_id);
-- Linkers' per-file inputs kept for re-linking dependants (JSON; by path, so the previous
-- version is still there when a changed file is linked), and what each file's resolution
-- consulted: a path, "<path>::<top-level name>", or "?<module name>" / "?@<path key>" for a module not found.
CREATE TABLE IF NOT EXISTS module_facts (path TEXT PRIMARY KEY, data TEXT NOT NULL, symbols TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS link_deps (file_id INTEGER NOT NULL, dep TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS link_deps_dep ON link_deps(dep);
CREATE INDEX IF NOT EXISTS link_deps_file ON link_deps(file_id);
CREATE TABLE IF NOT EXISTS stats (key TEXT PRIMARY KEY, value TEXT NOT NULL);
-- Values a Python file gives a variable or attribute its declaring class or module does not show
-- (resolve/python.py): the file's path, the target as "<path>::<symbol path>", and the value: NULL
-- when the file changes the container in place (`REG.append(x)`), a chain in the file
-- (`holder.handler = B()`), "@<symbol path>" for a subclass's member overriding it, "" unknown.
CREATE TABLE IF NOT EXISTS py_values (path TEXT NOT NULL, target TEXT NOT NULL, value TEXT);
CREATE INDEX IF NOT EXISTS py_values_path ON py_values(path);
-- TS/JS test blocks (describe/it/test calls): graph-only nodes, no symbols (resolve/ts_tests.py).
CREATE TABLE IF NOT EXISTS test_blocks (
    id INTEGER PRIMARY KEY,
    file_id INTEGER NOT NULL,
    selector TEXT NOT NULL,
    name TEXT NOT NULL,
    names TEXT NOT NULL,
    kind TEXT NOT NULL,
    signature TEXT NOT NULL,
    line INTEGER NOT NULL,
    col INTEGER NOT NULL,
    end_line INTEGER NOT NULL,
    end_col INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS test_blocks_file ON test_blocks(file_id);
CREATE INDEX IF NOT EXISTS test_blocks_selector ON test_blocks(selector);
"""

PER_FILE_TABLES = ("symbols", "imports", "diagnostics", "refs", "edges", "link_deps", "test_blocks")


# The code whose output the index stores: a change to any of it makes old rows stale.
_FACT_PACKAGES = ("index", "lang", "resolve", "diagnostics")


@functools.cache
def index_version() -> str:
    """SCHEMA_VERSION plus a fingerprint of the fact-producing code, so an index built by
    other code (an upgrade, a developer's edit) is rebuilt rather than trusted."""
    digest = hashlib.sha256()
    package = Path(__file__).resolve().parent.parent
    for name in _FACT_PACKAGES:
        for source in sorted((package / name).glob("*.py")):
            digest.update(source.name.encode())
            digest.update(source.read_bytes())
    return f"{SCHEMA_VERSION}:{digest.hexdigest()[:16]}"


def state_dir(root: Path) -> Path:
    return root / ".astmcp"


def _prepare_dir(root: Path) -> Path:
    folder = state_dir(root)
    folder.mkdir(exist_ok=True)
    ignore = folder / ".gitignore"
    if not ignore.exists():
        ignore.write_text("*\n", encoding="utf-8")
    return folder


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, timeout=30.0, isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute("PRAGMA temp_store=MEMORY")
    conn.execute("PRAGMA cache_size=-32000")
    return conn


def _valid(conn: sqlite3.Connection) -> bool:
    row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    return row is not None and row[0] == index_version()


@contextlib.contextmanager
def exclusive_lock(path: Path, timeout_s: float) -> Iterator[None]:
    """Hold an inter-process lock on ``path``: flock where it exists (cheap to
    import, every query takes it), portalocker elsewhere."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        import portalocker

        try:
            with portalocker.Lock(str(path), mode="a", timeout=timeout_s):
                yield
        except portalocker.LockException:
            raise Locked(f"the index is being refreshed by another process ({path})") from None
        return
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        deadline = time.monotonic() + timeout_s
        delay = 0.002
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise Locked(f"the index is being refreshed by another process ({path})") from None
                time.sleep(delay)
                delay = min(delay * 2, 0.1)
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)


def open_index(root: Path) -> sqlite3.Connection:
    """Open (creating or rebuilding when needed) the project's index database."""
    folder = _prepare_dir(root)
    path = folder / "index.db"
    # Checking and rebuilding under the refresh lock: two processes opening an
    # outdated index must not discard each other's fresh one.
    with exclusive_lock(folder / "refresh.lock", LOCK_TIMEOUT_S):
        return _open_checked(path)


def open_reader(root: Path) -> sqlite3.Connection:
    """A read-only connection to an index that :func:`open_index` has created."""
    path = state_dir(root) / "index.db"
    uri = f"file:{urllib.parse.quote(str(path))}?mode=ro"
    conn = sqlite3.connect(uri, uri=True, timeout=30.0, isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA query_only=ON")
    conn.execute("PRAGMA cache_size=-32000")
    return conn


def _open_checked(path: Path) -> sqlite3.Connection:
    for attempt in range(2):
        try:
            conn = _connect(path)
            conn.executescript(SCHEMA)
            if _valid(conn):
                return conn
            empty = conn.execute("SELECT COUNT(*) FROM files").fetchone()[0] == 0
            has_meta = conn.execute("SELECT COUNT(*) FROM meta").fetchone()[0] > 0
            if empty and not has_meta:
                conn.execute("INSERT INTO meta(key, value) VALUES ('schema_version', ?)", (index_version(),))
                return conn
            conn.close()
        except sqlite3.DatabaseError:
            if attempt:
                raise
        _discard(path)
    raise sqlite3.DatabaseError("could not rebuild the index database")


def _discard(path: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(f"{path}{suffix}")
