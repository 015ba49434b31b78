"""Content-hash incremental indexing: stat the tree, re-parse what changed, write once.

Every query calls :meth:`Index.refresh` first, so no answer comes from a stale
entry. A cold index parses in parallel across cores.
"""

from __future__ import annotations

import copyreg
import dataclasses
import gc
import hashlib
import io
import operator
import os
import pickle
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from astmcp.config import Config
from astmcp.index.listing import RACY_NS
from astmcp.index.store import (
    LOCK_TIMEOUT_S,
    PER_FILE_TABLES,
    exclusive_lock,
    open_index,
    open_reader,
    state_dir,
)
from astmcp.index.walker import WalkEntry, Walker
from astmcp.lang import ANALYZERS, extract_file
from astmcp.model import DiagnosticFact, FileFacts, ImportFact, Span, SymbolFact
from astmcp.resolve.python_external import environment_fingerprint
from astmcp.resolve.ts_packages import installed_fingerprint

_PARALLEL_THRESHOLD = 200

# progress(phase, done, total): "parse" as files are parsed, "link" once before the
# write transaction and the linkers, "done" at the end.
Progress = Callable[[str, int, int], None]


@dataclass(slots=True)
class Changes:
    """What one refresh changed; handed to linkers inside the write transaction."""

    changed_ids: list[int] = field(default_factory=list)
    changed_paths: list[str] = field(default_factory=list)
    removed_paths: list[str] = field(default_factory=list)
    full: bool = False
    # Facts of the changed files (path -> facts), including analyzer payloads in .extra.
    facts: dict[str, FileFacts] = field(default_factory=dict)
    # The project root (linkers read config files), and whether a config file that
    # steers resolution (listing.is_config_file) was added, removed or edited.
    root: Path | None = None
    configs: list[str] = field(default_factory=list)  # every such config file, project-relative
    configs_changed: bool = False

    @property
    def any(self) -> bool:
        return bool(self.changed_paths or self.removed_paths)


@dataclass(frozen=True, slots=True)
class RefreshStats:
    files: int
    parsed: int
    removed: int
    skipped: dict[str, int]
    walk_s: float
    parse_s: float
    write_s: float  # the whole write transaction, linkers included
    link_s: float = 0.0  # the linkers' share of write_s
    linker_s: dict[str, float] = field(default_factory=dict)


Linker = Callable[[sqlite3.Connection, Changes], None]


@dataclass(frozen=True, slots=True)
class _Parsed:
    entry: WalkEntry
    sha256: str
    facts: FileFacts | None  # None: content unchanged


def _parse_one(root: str, entry: WalkEntry, known_sha: str | None) -> _Parsed | None:
    try:
        with open(os.path.join(root, entry.path), "rb") as handle:
            data = handle.read()
    except OSError:
        return None
    sha = hashlib.sha256(data).hexdigest()
    if sha == known_sha:
        return _Parsed(entry, sha, None)
    with _one_young_collection():
        return _Parsed(entry, sha, extract_file(entry.path, entry.language, data))


@contextmanager
def _one_young_collection() -> Iterator[None]:
    """The cyclic collector paused while one file is analysed, then one collection of what the
    file allocated. An analysis allocates millions of short-lived containers: left to itself the
    collector ran hundreds of young and a dozen full collections per worker, rescanning the
    batch's facts each time (a third of effect's cold index CPU). The analysis's cycles (scopes,
    walkers) are all young, so the one collection frees them."""
    if not gc.isenabled():  # the host turned it off: leave it so
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.collect(0)


def _settle_unchanged(
    root: str, jobs: list[tuple[WalkEntry, str | None]]
) -> tuple[list[_Parsed], list[tuple[WalkEntry, str | None]]]:
    """Re-hash, here, the known files whose content may be unchanged (racy timestamps, a
    touch, a checkout that rewrote the same bytes): hashing is cheap, so only files whose
    bytes really changed go on to the parser (and, in numbers, to the worker pool)."""
    settled: list[_Parsed] = []
    rest: list[tuple[WalkEntry, str | None]] = []
    for entry, known_sha in jobs:
        if known_sha is not None:
            try:
                with open(os.path.join(root, entry.path), "rb") as handle:
                    sha = hashlib.sha256(handle.read()).hexdigest()
            except OSError:
                sha = None
            if sha == known_sha:
                settled.append(_Parsed(entry, sha, None))
                continue
        rest.append((entry, known_sha))
    return settled, rest


def _parse_batch(args: tuple[str, list[tuple[WalkEntry, str | None]]]) -> bytes:
    """A worker's chunk, pickled here with flat reducers for the fact dataclasses
    (the default slotted-dataclass pickling calls ``fields()`` per object)."""
    root, jobs = args
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = _DISPATCH
    pickler.dump([_parse_one(root, entry, sha) for entry, sha in jobs])
    return buffer.getvalue()


def _flat_reducer(cls: type) -> Callable[[Any], tuple[Any, ...]]:
    get = operator.attrgetter(*(f.name for f in dataclasses.fields(cls)))

    def reduce(obj: Any) -> tuple[Any, ...]:
        return cls, get(obj)

    return reduce


_FLAT_CLASSES = (Span, SymbolFact, ImportFact, DiagnosticFact, FileFacts, WalkEntry, _Parsed)
_DISPATCH: dict[type, Any] = {**copyreg.dispatch_table, **{cls: _flat_reducer(cls) for cls in _FLAT_CLASSES}}


# path -> (size, mtime_ns, hashed_ns, sha256) of a config file when its content was last hashed
_ConfigHashes = dict[str, tuple[int, int, int, str]]


def _config_fingerprint(root: Path, entries: list[WalkEntry], hashes: _ConfigHashes) -> str:
    """A digest of the config files' paths and contents. A file's hash is reused while its
    size and mtime are unchanged and it was hashed outside the racy window, so an edit that
    keeps both (same size, same timestamp tick) is still seen; ``hashes`` is updated."""
    parts: list[str] = []
    kept: _ConfigHashes = {}
    for entry in entries:
        old = hashes.get(entry.path)
        if (
            old is not None
            and (old[0], old[1]) == (entry.size, entry.mtime_ns)
            and entry.mtime_ns < old[2] - RACY_NS
        ):
            kept[entry.path] = old
        else:
            hashed_ns = time.time_ns()
            try:
                with open(os.path.join(root, entry.path), "rb") as handle:
                    sha = hashlib.sha256(handle.read()).hexdigest()
            except OSError:
                sha = ""
            kept[entry.path] = (entry.size, entry.mtime_ns, hashed_ns, sha)
        parts.append(f"{entry.path}\0{kept[entry.path][3]}")
    hashes.clear()
    hashes.update(kept)
    return hashlib.sha256("\n".join(parts).encode("utf-8", "surrogateescape")).hexdigest()


def _worker_modules() -> list[str]:
    languages = ("astmcp.lang.python", "astmcp.lang.typescript")
    analyzers = dict.fromkeys(name for names in ANALYZERS.values() for name in names)
    return ["__main__", "astmcp.index.indexer", *languages, *analyzers]


class Index:
    """One project's index: a connection, a refresh, and hooks for resolution passes."""

    def __init__(
        self,
        root: Path,
        config: Config,
        linkers: Iterable[Linker] | Callable[[], Iterable[Linker]] = (),
    ) -> None:
        """``linkers`` may be a function giving them: it is called on the first write,
        so a query that changes nothing never imports the resolution passes."""
        self.root = root
        self.config = config
        self.conn = open_index(root)
        self._linkers: list[Linker] | None = None if callable(linkers) else list(linkers)
        self._make_linkers = linkers if callable(linkers) else None
        self.last_refresh: RefreshStats | None = None
        self._lock = threading.RLock()
        self._lock_path = state_dir(root) / "refresh.lock"
        self._reader: sqlite3.Connection | None = None
        self._walker = Walker(root, config)
        # The files table as of ``_known_version`` (PRAGMA data_version: it moves when another
        # connection commits); dropped before this connection writes.
        self._known: dict[str, tuple[int, int, str, int]] | None = None
        self._known_version = -1
        self._config_hashes: _ConfigHashes = {}

    @property
    def reader(self) -> sqlite3.Connection:
        """A read-only connection for queries: a read path cannot change the index."""
        if self._reader is None:
            self._reader = open_reader(self.root)
        return self._reader

    @property
    def linkers(self) -> list[Linker]:
        if self._linkers is None:
            assert self._make_linkers is not None
            self._linkers = list(self._make_linkers())
        return self._linkers

    @linkers.setter
    def linkers(self, value: list[Linker]) -> None:
        self._linkers = value

    def close(self) -> None:
        if self._reader is not None:
            self._reader.close()
        self.conn.close()

    def refresh(self, full: bool = False, progress: Progress | None = None) -> RefreshStats:
        with self._lock, exclusive_lock(self._lock_path, LOCK_TIMEOUT_S):
            return self._refresh(full, progress)

    def _refresh(self, full: bool, progress: Progress | None) -> RefreshStats:
        t0 = time.perf_counter()
        if self._walker.config is not self.config:
            self._walker = Walker(self.root, self.config)
        walked = self._walker.walk()
        known = self._known_files()
        jobs: list[tuple[WalkEntry, str | None]] = []
        found = 0
        for entry in walked.files:
            old = known.get(entry.path)
            if old is None:
                jobs.append((entry, None))
                continue
            found += 1
            size, mtime_ns, sha, indexed_ns = old
            if full:
                jobs.append((entry, None))
            elif size != entry.size or mtime_ns != entry.mtime_ns or mtime_ns >= indexed_ns - RACY_NS:
                jobs.append((entry, sha))  # changed, or racy: re-hashed
        removed: list[str] = []
        if found != len(known):  # walked paths are unique: every known one was found otherwise
            present = {e.path for e in walked.files}
            removed = [path for path in known if path not in present]
        t1 = time.perf_counter()
        parsed = self._parse(jobs, progress)
        t2 = time.perf_counter()
        configs = _config_fingerprint(self.root, walked.configs, self._config_hashes)
        # (and what outside Python modules and installed JS packages can be read: installing or
        # upgrading a dependency relinks)
        outside = f"{environment_fingerprint()}\0{installed_fingerprint(self.root)}"
        configs = hashlib.sha256(f"{configs}\0{outside}".encode()).hexdigest()
        stored = self.conn.execute("SELECT value FROM meta WHERE key = 'config_fingerprint'").fetchone()
        changes = Changes(full=full, root=self.root, configs=[e.path for e in walked.configs])
        changes.configs_changed = stored is None or stored[0] != configs
        link_s: dict[str, float] = {}
        if parsed or removed or changes.configs_changed:
            changed = sum(1 for item in parsed if item.facts is not None) + len(removed)
            if progress and (changed or full or changes.configs_changed):
                progress("link", 0, changed)
            self._write(parsed, removed, changes, link_s)
            self.conn.execute(
                "INSERT OR REPLACE INTO meta(key, value) VALUES ('config_fingerprint', ?)", (configs,)
            )
        t3 = time.perf_counter()
        stats = RefreshStats(
            files=len(walked.files),
            parsed=len(changes.changed_paths),
            removed=len(removed),
            skipped=dict(walked.skipped),
            walk_s=t1 - t0,
            parse_s=t2 - t1,
            write_s=t3 - t2,
            link_s=sum(link_s.values()),
            linker_s=link_s,
        )
        self.last_refresh = stats
        if changes.any or full:
            self._record_stats(stats, full)
        if progress:
            progress("done", stats.parsed, stats.files)
        return stats

    def _known_files(self) -> dict[str, tuple[int, int, str, int]]:
        """path -> (size, mtime_ns, sha256, indexed_ns) of every indexed file."""
        version = self.conn.execute("PRAGMA data_version").fetchone()[0]
        if self._known is None or version != self._known_version:
            self._known = {
                row[0]: (row[1], row[2], row[3], row[4])
                for row in self.conn.execute("SELECT path, size, mtime_ns, sha256, indexed_ns FROM files")
            }
            self._known_version = version
        return self._known

    def _parse(self, jobs: list[tuple[WalkEntry, str | None]], progress: Progress | None) -> list[_Parsed]:
        root = str(self.root)
        results, jobs = _settle_unchanged(root, jobs)
        total = len(jobs)
        workers = self.config.workers or os.cpu_count() or 1
        if total >= _PARALLEL_THRESHOLD and workers > 1:
            batch = max(8, min(64, total // (workers * 8) or 1))
            chunks = [(root, jobs[i : i + batch]) for i in range(0, total, batch)]
            # Imported here: a query that parses nothing should not pay for them.
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            context = multiprocessing.get_context("forkserver")
            # Workers fork from a server that has the front ends and analyzers imported.
            context.set_forkserver_preload(_worker_modules())
            done = 0
            with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
                for n, chunk_result in enumerate(pool.map(_parse_batch, chunks)):
                    results.extend(r for r in pickle.loads(chunk_result) if r is not None)
                    done = min(total, done + len(chunks[n][1]))
                    if progress:
                        progress("parse", done, total)
        else:
            for n, (entry, sha) in enumerate(jobs, 1):
                result = _parse_one(root, entry, sha)
                if result is not None:
                    results.append(result)
                if progress:
                    progress("parse", n, total)
        return results

    def _write(
        self, parsed: list[_Parsed], removed: list[str], changes: Changes, link_s: dict[str, float]
    ) -> None:
        conn = self.conn
        now = time.time_ns()
        self._known = None  # this connection's own commits leave data_version as it is
        conn.execute("BEGIN IMMEDIATE")
        try:
            for path in removed:
                self._delete_file(path)
                changes.removed_paths.append(path)
            for item in parsed:
                entry = item.entry
                if item.facts is None:
                    conn.execute(
                        "UPDATE files SET size = ?, mtime_ns = ?, indexed_ns = ? WHERE path = ?",
                        (entry.size, entry.mtime_ns, now, entry.path),
                    )
                    continue
                self._delete_file(entry.path)
                file_id = self._insert_file(item, now)
                changes.changed_ids.append(file_id)
                changes.changed_paths.append(entry.path)
                changes.facts[entry.path] = item.facts
            # Re-hashed racy files whose content is unchanged give the linkers nothing to do.
            linkers = self.linkers if changes.any or changes.full or changes.configs_changed else []
            for linker in linkers:
                started = time.perf_counter()
                linker(conn, changes)
                name = str(getattr(linker, "__name__", type(linker).__name__))
                link_s[name] = link_s.get(name, 0.0) + time.perf_counter() - started
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    def _delete_file(self, path: str) -> None:
        row = self.conn.execute("SELECT id FROM files WHERE path = ?", (path,)).fetchone()
        if row is None:
            return
        for table in PER_FILE_TABLES:
            self.conn.execute(f"DELETE FROM {table} WHERE file_id = ?", (row[0],))
        self.conn.execute("DELETE FROM files WHERE id = ?", (row[0],))

    def _insert_file(self, item: _Parsed, now: int) -> int:
        facts = item.facts
        assert facts is not None
        entry = item.entry
        cursor = self.conn.execute(
            "INSERT INTO files(path, language, size, mtime_ns, sha256, lines, parse_error,"
            " has_error_nodes, outline_header, indexed_ns) VALUES (?,?,?,?,?,?,?,?,?,?)",
            (
                entry.path,
                facts.language,
                entry.size,
                entry.mtime_ns,
                item.sha256,
                facts.lines,
                facts.parse_error,
                int(facts.has_error_nodes),
                "\n".join(facts.outline_header),
                now,
            ),
        )
        file_id = cursor.lastrowid
        assert file_id is not None
        counts: dict[str, int] = {}
        for sym in facts.symbols:
            counts[sym.symbol_path] = counts.get(sym.symbol_path, 0) + 1
        self.conn.executemany(
            "INSERT INTO symbols(file_id, selector, symbol_path, name, name_lower, kind, signature, doc,"
            " line, start_line, start_col, end_line, end_col, name_line, name_col, name_end_col,"
            " parent_path, exported) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            [
                (
                    file_id,
                    f"{entry.path}::{s.symbol_path}" + (f"@{s.line}" if counts[s.symbol_path] > 1 else ""),
                    s.symbol_path,
                    s.name,
                    s.name.lower(),
                    s.kind,
                    s.signature,
                    s.doc,
                    s.line,
                    s.span.line,
                    s.span.column,
                    s.span.end_line,
                    s.span.end_column,
                    s.name_span.line,
                    s.name_span.column,
                    s.name_span.end_column,
                    s.parent_path,
                    int(s.exported),
                )
                for s in facts.symbols
            ],
        )
        self.conn.executemany(
            "INSERT INTO imports(file_id, module, name, alias, line, level, kind, resolved_path)"
            " VALUES (?,?,?,?,?,?,?,?)",
            [
                (file_id, i.module, i.name, i.alias, i.line, i.level, i.kind, i.resolved)
                for i in facts.imports
            ],
        )
        self.conn.executemany(
            "INSERT INTO diagnostics(file_id, code, severity, source, line, col, message, symbol_path)"
            " VALUES (?,?,?,?,?,?,?,?)",
            [
                (file_id, d.code, d.severity, d.source, d.line, d.column, d.message, d.symbol_path)
                for d in facts.diagnostics
            ],
        )
        return file_id

    def _record_stats(self, stats: RefreshStats, full: bool) -> None:
        """Timings of the last refresh that changed something (and of the last full index)."""
        timings = [
            ("files", str(stats.files)),
            ("parsed", str(stats.parsed)),
            ("removed", str(stats.removed)),
            ("s", f"{stats.walk_s + stats.parse_s + stats.write_s:.3f}"),
            ("walk_s", f"{stats.walk_s:.3f}"),
            ("parse_s", f"{stats.parse_s:.3f}"),
            ("write_s", f"{stats.write_s:.3f}"),
            ("link_s", f"{stats.link_s:.3f}"),
            *((f"link_{name}_s", f"{seconds:.3f}") for name, seconds in stats.linker_s.items()),
            ("at", time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())),
        ]
        prefixes = ("last_refresh_", "last_full_") if full else ("last_refresh_",)
        rows = [(prefix + key, value) for prefix in prefixes for key, value in timings]
        rows += [(f"skipped_{reason}", str(count)) for reason, count in stats.skipped.items()]
        self.conn.execute("DELETE FROM stats WHERE key LIKE 'skipped_%'")
        for prefix in prefixes:
            self.conn.execute("DELETE FROM stats WHERE substr(key, 1, ?) = ?", (len(prefix), prefix))
        self.conn.executemany("INSERT OR REPLACE INTO stats(key, value) VALUES (?, ?)", rows)
