"""TS/JS module resolution: specifier → project file, as a linker.

Order, as TypeScript's bundler/node resolution does it: relative specifiers
(with or without extension; ``./x.js`` → ``x.ts``; directory ``index.*``), then
the governing tsconfig's ``paths`` and ``baseUrl`` (following ``extends``),
then package.json ``imports`` (``#x``), then packages that live in the repo
(``exports``, else ``types``/``module``/``main``, else ``index.*``).
A bare specifier that finds nothing is external (``imports.external = 1``), unless it names a
package of the repo; a relative one that finds nothing is a broken import (NULL, external 0).

Where a package points at build output that is not in the index (``./dist/x.js``),
the same path under ``src/`` is tried: repos rarely commit their build.

Incremental: every TS/JS import row is re-resolved when the set of TS/JS files
or any config file changed; otherwise only the changed files' rows.
"""

from __future__ import annotations

import posixpath
import sqlite3
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from astmcp.index.indexer import Changes
from astmcp.resolve.ts_config import (
    CompilerPaths,
    Manifest,
    TsConfigs,
    glob_regex,
    inside,
    join_path,
    pnpm_workspace_globs,
    read_manifest,
    split_package,
)

__all__ = ["Resolution", "TsProject", "make_linker", "resolve_specifier"]

_TS_SUFFIXES = (".ts", ".tsx", ".mts", ".cts")
_SOURCE_SUFFIXES = (".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mts", ".cts", ".mjs", ".cjs", ".d.mts", ".d.cts")
_JS_TO_TS = {
    ".js": (".ts", ".tsx", ".d.ts"),
    ".jsx": (".tsx", ".d.ts"),
    ".mjs": (".mts", ".d.mts"),
    ".cjs": (".cts", ".d.cts"),
}
_INDEX_SUFFIXES = (".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mts", ".cts", ".mjs", ".cjs")
_BUILD_DIRS = ("dist/", "lib/", "build/", "out/", "esm/", "cjs/")
_TSCONFIG_NAMES = ("tsconfig.json", "jsconfig.json")
_LANGUAGES = ("typescript", "javascript")
_META_COUNT = "ts_modules_file_count"


@dataclass(frozen=True, slots=True)
class Resolution:
    path: str | None  # project-relative file
    external: bool  # names something outside the project


class TsProject:
    """A project's files and configs, as resolution needs them (built per linker run)."""

    def __init__(self, root: Path, files: Iterable[str], configs: Iterable[str] = ()) -> None:
        self.root = root
        self.files = set(files)
        config_list = list(configs)
        self.config_files = set(config_list)
        manifests = [
            m for p in config_list if p.rsplit("/", 1)[-1] == "package.json" if (m := read_manifest(root, p))
        ]
        self.manifests = {m.folder: m for m in manifests}
        self.packages: dict[str, Manifest] = {}
        member = self._workspace_member(config_list, manifests)
        for manifest in sorted(manifests, key=lambda m: m.path.count("/")):
            if manifest.name and manifest.name not in self.packages and member(manifest):
                self.packages[manifest.name] = manifest
        self.tsconfigs = TsConfigs(root, self.packages)
        self._governing: dict[str, str | None] = {}
        self._cache: dict[tuple[str, str], Resolution] = {}

    def _workspace_member(self, configs: list[str], manifests: list[Manifest]) -> Callable[[Manifest], bool]:
        """Which named packages imports may reach by name: the members of the declared
        workspaces (package.json ``workspaces``, pnpm-workspace.yaml) and the packages
        declaring them; every named package when the repo declares no workspace (a
        fixture folder named like a real package must not capture its imports)."""
        patterns = [glob_regex(m.folder, m.workspaces) for m in manifests if m.workspaces]
        for path in configs:
            if path.rsplit("/", 1)[-1] == "pnpm-workspace.yaml":
                patterns.append(glob_regex(posixpath.dirname(path), pnpm_workspace_globs(self.root, path)))
        owners = {m.folder for m in manifests if m.workspaces}
        owners |= {posixpath.dirname(p) for p in configs if p.rsplit("/", 1)[-1] == "pnpm-workspace.yaml"}
        compiled = [p for p in patterns if p is not None]
        if not owners:
            return lambda manifest: True
        return lambda manifest: (
            manifest.folder in owners or any(p.fullmatch(manifest.folder) for p in compiled)
        )

    @classmethod
    def from_disk(cls, root: Path, files: Iterable[str]) -> TsProject:
        """For callers outside the index: config files found by walking the root."""
        from astmcp.config import load_config
        from astmcp.index.walker import walk

        walked = walk(root, load_config(root))
        return cls(root, files, [e.path for e in walked.configs])

    # -- entry point ---------------------------------------------------------------
    def resolve(self, from_path: str, specifier: str) -> Resolution:
        folder = posixpath.dirname(from_path)
        key = (folder, specifier)
        found = self._cache.get(key)
        if found is None:
            found = self._cache[key] = self._resolve(folder, specifier)
        return found

    def _resolve(self, folder: str, spec: str) -> Resolution:
        if not spec:
            return Resolution(None, False)
        if spec.startswith(("./", "../")) or spec in (".", ".."):
            return Resolution(self.module(join_path(folder, spec)), False)
        if spec.startswith("/") or "://" in spec:
            return Resolution(None, "://" in spec)
        if spec.startswith("node:"):
            return Resolution(None, True)
        config = self.governing_config(folder)
        if config is not None:
            options = self.tsconfigs.effective(config)
            found = self.via_paths(options, spec)
            if found is None and options.base_url is not None:
                found = self.module(join_path(options.base_url, spec))
            if found is not None:
                return Resolution(found, False)
        if spec.startswith("#"):
            manifest = self.nearest_manifest(folder)
            if manifest is not None and manifest.imports is not None:
                found = self.via_map(manifest, manifest.imports, spec)
                if found is not None:
                    return Resolution(found, False)
            return Resolution(None, False)
        found = self.via_package(spec)
        # a package of the repo that does not have it is a broken import, not something installed
        return Resolution(found, found is None and split_package(spec)[0] not in self.packages)

    # -- files -----------------------------------------------------------------------
    def module(self, base: str) -> str | None:
        """A file for a module path: exact, ``.js``→``.ts``, added suffixes, a folder."""
        if not inside(self.root, base):
            return None
        files = self.files
        dot = base.rfind(".")
        suffix = base[dot:] if dot > base.rfind("/") else ""
        if suffix in _TS_SUFFIXES:
            if base in files:
                return base
        elif suffix in _JS_TO_TS:
            stem = base[:dot]
            for replacement in _JS_TO_TS[suffix]:
                if stem + replacement in files:
                    return stem + replacement
            if base in files:
                return base
            if suffix == ".js" and stem + ".jsx" in files:
                return (
                    stem + ".jsx"
                )  # as tsc with allowJs: `./util.js` is util.jsx (after .ts/.tsx/.d.ts/.js)
        elif suffix and (base in files or self._on_disk(base)):
            return base  # .json, .css, …: a real file, even when it is not indexed
        for extra in _SOURCE_SUFFIXES:
            if base + extra in files:
                return base + extra
        return self.folder_module(base)

    def folder_module(self, folder: str) -> str | None:
        manifest = self.manifests.get(folder)
        if manifest is not None:
            for entry in manifest.entries:
                found = self._entry(folder, entry)
                if found is not None:
                    return found
        prefix = f"{folder}/index" if folder else "index"
        for extra in _INDEX_SUFFIXES:
            if prefix + extra in self.files:
                return prefix + extra
        return None

    def _entry(self, folder: str, target: str) -> str | None:
        """A package target (``./dist/x.js``): as written, else the same under ``src/``."""
        rel = join_path(folder, target)
        if not inside(self.root, rel) or rel == folder:
            return None
        found = self._file_or_stem(rel)
        if found is not None:
            return found
        inner = rel[len(folder) + 1 :] if folder else rel
        for build in _BUILD_DIRS:
            if inner.startswith(build):
                return self._file_or_stem(join_path(folder, "src/" + inner[len(build) :]))
        return None

    def _file_or_stem(self, rel: str) -> str | None:
        for declaration in (".d.ts", ".d.mts", ".d.cts"):
            if rel.endswith(declaration) and rel not in self.files:
                rel = rel[: -len(declaration)]
                break
        return self.module(rel)

    def _on_disk(self, rel: str) -> bool:
        return (self.root / rel).is_file()

    # -- tsconfig ------------------------------------------------------------------------
    def governing_config(self, folder: str) -> str | None:
        """The nearest tsconfig.json/jsconfig.json above a folder; without one, a
        ``tsconfig.*.json`` of the nearest folder that has any (``tsconfig.base.json`` first)."""
        if folder in self._governing:
            return self._governing[folder]
        found: str | None = None
        probe = folder
        while True:
            for name in _TSCONFIG_NAMES:
                candidate = f"{probe}/{name}" if probe else name
                if candidate in self.config_files:
                    found = candidate
                    break
            if found is not None or not probe:
                break
            probe = posixpath.dirname(probe)
        if found is None:
            found = self._loose_config(folder)
        self._governing[folder] = found
        return found

    def _loose_config(self, folder: str) -> str | None:
        probe = folder
        while True:
            prefix = f"{probe}/" if probe else ""
            names = sorted(
                c
                for c in self.config_files
                if c.startswith(prefix)
                and "/" not in c[len(prefix) :]
                and c[len(prefix) :].startswith("tsconfig")
            )
            if names:
                base = f"{prefix}tsconfig.base.json"
                return base if base in names else names[0]
            if not probe:
                return None
            probe = posixpath.dirname(probe)

    def via_paths(self, options: CompilerPaths, spec: str) -> str | None:
        if not options.paths or options.paths_base is None:
            return None
        best: tuple[str, tuple[str, ...]] | None = None
        best_prefix = -1
        star = ""
        for pattern, targets in options.paths:
            if "*" not in pattern:
                if pattern == spec:
                    best, star = (pattern, targets), ""
                    break
                continue
            head, _, tail = pattern.partition("*")
            fits = spec.startswith(head) and spec.endswith(tail) and len(spec) >= len(head) + len(tail)
            if fits and len(head) > best_prefix:
                best_prefix = len(head)
                best = (pattern, targets)
                star = spec[len(head) : len(spec) - len(tail)]
        if best is None:
            return None
        for target in best[1]:
            found = self.module(join_path(options.paths_base, target.replace("*", star)))
            if found is not None:
                return found
        return None

    # -- packages --------------------------------------------------------------------------
    def nearest_manifest(self, folder: str) -> Manifest | None:
        probe = folder
        while True:
            manifest = self.manifests.get(probe)
            if manifest is not None or not probe:
                return manifest
            probe = posixpath.dirname(probe)

    def via_package(self, spec: str) -> str | None:
        name, sub = split_package(spec)
        manifest = self.packages.get(name)
        if manifest is None:
            return None
        if manifest.exports is not None:
            return self.via_map(manifest, manifest.exports, "./" + sub if sub else ".")
        if sub:
            return self.module(join_path(manifest.folder, sub))
        return self.folder_module(manifest.folder)

    def via_map(self, manifest: Manifest, table: Any, key: str) -> str | None:
        """``exports``/``imports`` lookup: exact key, then the longest ``*`` pattern."""
        if isinstance(table, str | list) or (
            isinstance(table, dict) and table and not any(str(k).startswith((".", "#")) for k in table)
        ):
            table = {".": table}  # sugar: the conditions (or target) of "."
        if not isinstance(table, dict):
            return None
        target: Any = table.get(key)
        star = ""
        if target is None:
            best = -1
            for pattern, value in table.items():
                head, sep, tail = str(pattern).partition("*")
                if sep and key.startswith(head) and key.endswith(tail) and len(head) > best:
                    best, target, star = len(head), value, key[len(head) : len(key) - len(tail)]
                elif not sep and pattern.endswith("/") and key.startswith(pattern) and len(pattern) > best:
                    best, target, star = len(pattern), _Folder(value), key[len(pattern) :]
        for candidate in _targets(target):
            path = candidate.replace("*", star) if not isinstance(target, _Folder) else candidate + star
            found = self._entry(manifest.folder, path)
            if found is not None:
                return found
        return None


class _Folder(str):
    """A legacy ``"./sub/": "./lib/"`` folder mapping (the rest is appended)."""

    def __new__(cls, value: Any) -> _Folder:
        return super().__new__(cls, value if isinstance(value, str) else "")


def _targets(value: Any) -> list[str]:
    """Every string target of an exports value, in declaration order (all conditions:
    the index wants whichever file exists, types, source or build)."""
    if isinstance(value, str):
        return [value] if value else []
    if isinstance(value, list):
        return [t for item in value for t in _targets(item)]
    if isinstance(value, dict):
        return [t for item in value.values() for t in _targets(item)]
    return []


def resolve_specifier(project: TsProject, from_path: str, specifier: str) -> str | None:
    """The project file ``specifier`` names when imported from ``from_path`` (None: none)."""
    return project.resolve(from_path, specifier).path


class TsModuleLinker:
    """Fills ``imports.resolved_path`` and ``imports.external`` for TS/JS files."""

    def __call__(self, conn: sqlite3.Connection, changes: Changes) -> None:
        if changes.root is None:
            return
        count = conn.execute("SELECT COUNT(*) FROM files WHERE language IN (?, ?)", _LANGUAGES).fetchone()[0]
        stored = conn.execute("SELECT value FROM meta WHERE key = ?", (_META_COUNT,)).fetchone()
        removed_ts = any(path.endswith(_SOURCE_SUFFIXES) for path in changes.removed_paths)
        everything = (
            changes.full or changes.configs_changed or removed_ts or stored is None or stored[0] != str(count)
        )
        select = (
            "SELECT i.id, f.path, i.module FROM imports i JOIN files f ON f.id = i.file_id"
            " WHERE f.language IN (?, ?)"
        )
        if everything:
            rows = conn.execute(select, _LANGUAGES).fetchall()
        else:
            ids = changes.changed_ids
            rows = []
            for start in range(0, len(ids), 500):
                chunk = ids[start : start + 500]
                rows += conn.execute(
                    select + f" AND f.id IN ({','.join('?' * len(chunk))})", (*_LANGUAGES, *chunk)
                ).fetchall()
        if rows:
            files = [row[0] for row in conn.execute("SELECT path FROM files")]
            project = TsProject(changes.root, files, changes.configs)
            updates = []
            for import_id, path, module in rows:
                found = project.resolve(path, module)
                updates.append((found.path, int(found.external), import_id))
            conn.executemany("UPDATE imports SET resolved_path = ?, external = ? WHERE id = ?", updates)
        conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (_META_COUNT, str(count)))


def make_linker() -> Callable[[sqlite3.Connection, Changes], None]:
    return TsModuleLinker()
