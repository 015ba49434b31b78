"""Find the project's source files: nested .gitignore, fixed skips, limits.

Symlinks are never followed (a link cannot lead the index out of the root or
into a loop); every file passed over is counted by reason.
"""

from __future__ import annotations

import os
import stat
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pathspec

from astmcp.config import Config
from astmcp.model import LANGUAGE_BY_SUFFIX

ALWAYS_SKIPPED_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        ".astmcp",
        "node_modules",
        "__pycache__",
        ".venv",
        "venv",
        ".tox",
        ".nox",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".hypothesis",
        "site-packages",
        ".eggs",
        ".cache",
        ".next",
        ".turbo",
    }
)


@dataclass(frozen=True, slots=True)
class WalkEntry:
    path: str  # project-relative, "/"-separated
    size: int
    mtime_ns: int
    language: str


@dataclass(slots=True)
class WalkResult:
    files: list[WalkEntry] = field(default_factory=list)
    skipped: Counter[str] = field(default_factory=Counter)


def language_of(name: str) -> str | None:
    dot = name.rfind(".")
    if dot <= 0:
        return None
    if name.endswith(".d.ts") or name.endswith(".d.mts") or name.endswith(".d.cts"):
        return LANGUAGE_BY_SUFFIX[".ts"]
    return LANGUAGE_BY_SUFFIX.get(name[dot:])


def _load_ignore(directory: str) -> pathspec.GitIgnoreSpec | None:
    try:
        with open(os.path.join(directory, ".gitignore"), encoding="utf-8", errors="replace") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return None
    spec = pathspec.GitIgnoreSpec.from_lines(lines)
    return spec if len(spec) else None


def _ignored(specs: list[tuple[str, pathspec.GitIgnoreSpec]], rel: str, is_dir: bool) -> bool:
    """Deepest .gitignore with an opinion wins, as in git."""
    probe_suffix = "/" if is_dir else ""
    for base, spec in reversed(specs):
        sub = rel[len(base) + 1 :] if base else rel
        result = spec.check_file(sub + probe_suffix)
        if result.include is not None:
            return bool(result.include)
    return False


def walk(root: Path, config: Config) -> WalkResult:
    result = WalkResult()
    root_str = str(root)
    extra = pathspec.GitIgnoreSpec.from_lines(config.exclude) if config.exclude else None
    specs: list[tuple[str, pathspec.GitIgnoreSpec]] = []
    if extra is not None:
        specs.append(("", extra))
    _walk_dir(root_str, "", specs, config, result)
    result.files.sort(key=lambda e: e.path)
    return result


def _walk_dir(
    directory: str,
    rel_dir: str,
    specs: list[tuple[str, pathspec.GitIgnoreSpec]],
    config: Config,
    result: WalkResult,
) -> None:
    local = _load_ignore(directory)
    if local is not None:
        specs = [*specs, (rel_dir, local)]
    try:
        entries = sorted(os.scandir(directory), key=lambda e: e.name)
    except OSError:
        result.skipped["unreadable"] += 1
        return
    subdirs: list[tuple[str, str]] = []
    for entry in entries:
        name = entry.name
        rel = f"{rel_dir}/{name}" if rel_dir else name
        try:
            st = entry.stat(follow_symlinks=False)
        except OSError:
            result.skipped["unreadable"] += 1
            continue
        if stat.S_ISLNK(st.st_mode):
            if language_of(name) is not None or _is_dir_link(entry):
                result.skipped["symlink"] += 1
            continue
        if stat.S_ISDIR(st.st_mode):
            if name == ".astmcp":  # our own state: not a skip worth reporting
                continue
            if name in ALWAYS_SKIPPED_DIRS or os.path.exists(os.path.join(entry.path, "pyvenv.cfg")):
                result.skipped["excluded_dir"] += 1
                continue
            if specs and _ignored(specs, rel, True):
                result.skipped["ignored"] += 1
                continue
            subdirs.append((entry.path, rel))
            continue
        if not stat.S_ISREG(st.st_mode):
            continue
        language = language_of(name)
        if language is None:
            continue
        if specs and _ignored(specs, rel, False):
            result.skipped["ignored"] += 1
            continue
        if st.st_size > config.max_file_bytes:
            result.skipped["too_large"] += 1
            continue
        if len(result.files) >= config.max_files:
            result.skipped["file_limit"] += 1
            continue
        result.files.append(WalkEntry(rel, st.st_size, st.st_mtime_ns, language))
    for path, rel in subdirs:
        _walk_dir(path, rel, specs, config, result)


def _is_dir_link(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir(follow_symlinks=True)
    except OSError:
        return False
