"""A project as the handlers see it: root, configuration, index, path rules.

Handlers never touch the filesystem layout directly; they ask the workspace to
resolve user paths (SPEC §2) and to hand them a freshly refreshed index.
"""

from __future__ import annotations

import difflib
import os
import sqlite3
import threading
from pathlib import Path

from astmcp.config import Config, load_config
from astmcp.errors import AmbiguousTarget, InvalidInput, NotFound, ProjectNotFound
from astmcp.index.indexer import Index, Linker
from astmcp.lang import optional_module
from astmcp.refactor.store import PlanStore

# Project-level passes, in order; each module exposes ``make_linker() -> Linker``.
# The index calls every linker inside its write transaction after a refresh
# that changed something (see astmcp.index.indexer.Changes). Missing modules
# are skipped so features land one by one.
LINKER_MODULES = (
    "astmcp.resolve.ts_modules",  # TS/JS specifier -> file (imports.resolved_path)
    "astmcp.resolve.python",  # Python imports, references, edges
    "astmcp.resolve.typescript",  # TS/JS references, edges
    "astmcp.resolve.ts_tests",  # TS/JS test blocks (describe/it/test)
    "astmcp.diagnostics.linker",  # project-level built-in diagnostics
)


def linkers() -> list[Linker]:
    out: list[Linker] = []
    for name in LINKER_MODULES:
        module = optional_module(name)
        if module is not None:
            out.append(module.make_linker())
    return out


class Workspace:
    def __init__(self, root: Path, config: Config | None = None) -> None:
        from astmcp.resolve.python_external import search_project_environment

        self.root = root
        search_project_environment(root)  # outside classes: from the project's virtualenv too
        self.config = config if config is not None else load_config(root)
        self.index = Index(root, self.config, linkers)  # imported on the first write
        self.lock = threading.RLock()
        self.plans = PlanStore()  # prepared plans (refactor); state_dir set by the front door

    def db(self) -> sqlite3.Connection:
        """A read-only index connection, refreshed against the disk first.

        The connection is left inside a read transaction, so every query of one answer sees one
        committed state of the index even while another process refreshes it (a lookup and the
        reference query after it must not straddle a re-link). `release()` ends it; the next
        `db()` ends it too before refreshing, so its own refresh is always visible.
        """
        self.release()
        self.index.refresh()
        reader = self.index.reader
        reader.execute("BEGIN")
        return reader

    def release(self) -> None:
        """End the read transaction `db()` opened, if any (keeps the WAL free to checkpoint)."""
        reader = self.index.reader
        if reader.in_transaction:
            reader.execute("COMMIT")

    # -- paths (SPEC §2) ---------------------------------------------------------
    def relative(self, file_path: str) -> str:
        """Project-relative, "/"-separated form of a user path, refusing escapes."""
        if not file_path or "\x00" in file_path:
            raise InvalidInput("file_path must be a non-empty path")
        raw = file_path.replace("\\", "/")
        candidate = Path(raw) if os.path.isabs(raw) else self.root / raw
        normal = Path(os.path.normpath(candidate))
        try:
            rel = normal.relative_to(self.root)
        except ValueError:
            raise InvalidInput("file_path resolves outside the project root") from None
        # The index never follows symlinks, so neither does a user path.
        probe = self.root
        for part in rel.parts:
            probe = probe / part
            if probe.is_symlink():
                raise InvalidInput("file_path goes through a symlink; symlinks are not followed")
        return rel.as_posix()

    def resolve_file(self, conn: sqlite3.Connection, file_path: str) -> str:
        """An indexed file for a user path: exact, else a unique path suffix."""
        rel = self.relative(file_path)
        if conn.execute("SELECT 1 FROM files WHERE path = ?", (rel,)).fetchone():
            return rel
        if os.path.isabs(file_path.replace("\\", "/")) or rel.startswith(".."):
            matches: list[str] = []
        else:
            escaped = rel.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
            matches = [
                row[0]
                for row in conn.execute(
                    "SELECT path FROM files WHERE path LIKE ? ESCAPE '\\' ORDER BY path LIMIT 50",
                    (f"%/{escaped}",),
                )
            ]
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            raise AmbiguousTarget(
                f"{len(matches)} indexed files end with {rel!r}; pass a longer path",
                [{"selector": m, "kind": "file", "line": 1} for m in matches],
            )
        all_paths = [row[0] for row in conn.execute("SELECT path FROM files")]
        names = {p.rsplit("/", 1)[-1]: p for p in all_paths}
        close = difflib.get_close_matches(rel, all_paths, n=5, cutoff=0.5)
        if not close:
            close = [names[n] for n in difflib.get_close_matches(rel.rsplit("/", 1)[-1], names, n=5)]
        raise NotFound(f"no indexed source file {rel!r}", close)


class Workspaces:
    """Open workspaces by root; one index connection per project per process."""

    def __init__(self, default_root: Path | None = None, persist_plans: bool = False) -> None:
        self.default_root = default_root
        self.persist_plans = persist_plans  # the CLI: plans outlive the process as plan files
        self._open: dict[Path, Workspace] = {}
        self._lock = threading.Lock()

    def get(self, project_root: str | None) -> Workspace:
        raw = project_root or (str(self.default_root) if self.default_root else os.getcwd())
        root = Path(os.path.realpath(os.path.expanduser(raw)))
        if not root.is_dir():
            given = project_root or raw
            if os.path.isabs(os.path.expanduser(given)):  # no absolute path outside a project (SPEC §5)
                given = f".../{Path(given).name}"
            raise ProjectNotFound(f"project root {given!r} is not a directory")
        with self._lock:
            ws = self._open.get(root)
            if ws is None:
                ws = self._open[root] = Workspace(root)
                ws.plans.persist = self.persist_plans
                ws.plans.root = str(root)
            return ws

    def close(self) -> None:
        with self._lock:
            for ws in self._open.values():
                ws.index.close()
            self._open.clear()
