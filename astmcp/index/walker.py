"""Find the project's source files: nested .gitignore, fixed skips, limits.

Symlinks are never followed (a link cannot lead the index out of the root or
into a loop); every file passed over is counted by reason.
"""

from __future__ import annotations

import os
import re
import stat
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from astmcp.config import Config
from astmcp.model import LANGUAGE_BY_SUFFIX

if TYPE_CHECKING:
    import pathspec

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
    # Files that change how imports resolve (language "config"; see is_config_file).
    configs: list[WalkEntry] = field(default_factory=list)


CONFIG_FILES = frozenset(
    {"package.json", "pnpm-workspace.yaml", "pyproject.toml", "setup.cfg", ".astmcp.toml"}
)


def is_config_file(name: str) -> bool:
    """package.json, pnpm-workspace.yaml, tsconfig*/jsconfig*.json, pyproject.toml, setup.cfg, .astmcp.toml."""
    return name in CONFIG_FILES or (name.startswith(("tsconfig", "jsconfig")) and name.endswith(".json"))


def language_of(name: str) -> str | None:
    # ".d.ts", ".d.mts" and ".d.cts" end in a TypeScript suffix already.
    dot = name.rfind(".")
    return LANGUAGE_BY_SUFFIX.get(name[dot:]) if dot > 0 else None


class _Rules:
    """One .gitignore's rules, checked by pathspec.

    Without negations the answer is "any rule matches", so the rules' regexes are
    joined into one (a no-change refresh checks every folder and source file).
    """

    __slots__ = ("combined", "spec")

    def __init__(self, spec: pathspec.GitIgnoreSpec) -> None:
        self.spec = spec
        self.combined = _combine(spec)

    def check(self, path: str) -> bool | None:
        if self.combined is not None:
            return True if self.combined.search(path) else None
        return self.spec.check_file(path).include


_GROUP_NAME = re.compile(r"(?<!\\)\(\?P<\w+>")


def _combine(spec: pathspec.GitIgnoreSpec) -> re.Pattern[str] | None:
    parts: list[str] = []
    for pattern in spec.patterns:
        include = getattr(pattern, "include", None)
        if include is None:
            continue
        regex = getattr(pattern, "regex", None)
        if include is not True or not isinstance(regex, re.Pattern) or regex.flags != re.UNICODE:
            return None
        parts.append(_GROUP_NAME.sub("(?:", regex.pattern))
    try:
        return re.compile("|".join(f"(?:{part})" for part in parts)) if parts else None
    except re.error:
        return None


def _load_ignore(directory: str) -> _Rules | None:
    try:
        with open(os.path.join(directory, ".gitignore"), encoding="utf-8", errors="replace") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return None
    spec = _gitignore_spec(lines)
    return _Rules(spec) if len(spec) else None


def _gitignore_spec(lines: Iterable[str]) -> pathspec.GitIgnoreSpec:
    import pathspec  # only trees with a .gitignore (or excludes) pay for the import

    return pathspec.GitIgnoreSpec.from_lines(lines)


def _ignored(specs: list[tuple[str, _Rules]], rel: str, is_dir: bool) -> bool:
    """Deepest .gitignore with an opinion wins, as in git."""
    probe_suffix = "/" if is_dir else ""
    for base, rules in reversed(specs):
        sub = rel[len(base) + 1 :] if base else rel
        include = rules.check(sub + probe_suffix)
        if include is not None:
            return include
    return False


def walk(root: Path, config: Config) -> WalkResult:
    result = WalkResult()
    root_str = str(root)
    specs: list[tuple[str, _Rules]] = []
    if config.exclude:
        specs.append(("", _Rules(_gitignore_spec(config.exclude))))
    _walk_dir(root_str, "", specs, config, result)
    result.files.sort(key=lambda e: e.path)
    return result


def _walk_dir(
    directory: str,
    rel_dir: str,
    specs: list[tuple[str, _Rules]],
    config: Config,
    result: WalkResult,
) -> None:
    # One scandir per folder; entry types come from d_type, so only source files
    # cost a stat() (a no-change refresh is mostly this loop).
    try:
        with os.scandir(directory) as scan:
            entries = list(scan)
    except OSError:
        result.skipped["unreadable"] += 1
        return
    names = {entry.name for entry in entries}
    if rel_dir and "pyvenv.cfg" in names:  # a virtualenv under any name
        result.skipped["excluded_dir"] += 1
        return
    if ".gitignore" in names:
        local = _load_ignore(directory)
        if local is not None:
            specs = [*specs, (rel_dir, local)]
    subdirs: list[tuple[str, str]] = []
    sources: list[tuple[str, str, os.DirEntry[str]]] = []
    prefix = f"{rel_dir}/" if rel_dir else ""
    suffixes = LANGUAGE_BY_SUFFIX
    for entry in entries:  # hot: every entry of the tree on every refresh
        name = entry.name
        try:
            is_dir = entry.is_dir(follow_symlinks=False)  # False for a link to a folder
            is_link = not is_dir and entry.is_symlink()
        except OSError:
            result.skipped["unreadable"] += 1
            continue
        if is_dir:
            if name == ".astmcp":  # our own state: not a skip worth reporting
                continue
            rel = prefix + name
            if name in ALWAYS_SKIPPED_DIRS:
                result.skipped["excluded_dir"] += 1
            elif specs and _ignored(specs, rel, True):
                # A virtualenv is counted as such even where .gitignore also names it.
                venv = os.path.exists(os.path.join(entry.path, "pyvenv.cfg"))
                result.skipped["excluded_dir" if venv else "ignored"] += 1
            else:
                subdirs.append((name, rel))
            continue
        dot = name.rfind(".")
        language = suffixes.get(name[dot:]) if dot > 0 else None
        if is_link:
            if language is not None or _is_dir_link(entry):
                result.skipped["symlink"] += 1
            continue
        if language is not None:
            sources.append((language, prefix + name, entry))
        elif is_config_file(name):
            sources.append(("config", prefix + name, entry))
    sources.sort(key=_by_rel)
    for language, rel, entry in sources:
        try:
            st = entry.stat(follow_symlinks=False)
        except OSError:
            result.skipped["unreadable"] += 1
            continue
        if not stat.S_ISREG(st.st_mode):
            continue
        if specs and _ignored(specs, rel, False):
            result.skipped["ignored"] += 1
            continue
        if language == "config":
            result.configs.append(WalkEntry(rel, st.st_size, st.st_mtime_ns, language))
            continue
        if st.st_size > config.max_file_bytes:
            result.skipped["too_large"] += 1
            continue
        if len(result.files) >= config.max_files:
            result.skipped["file_limit"] += 1
            continue
        result.files.append(WalkEntry(rel, st.st_size, st.st_mtime_ns, language))
    subdirs.sort()
    for name, rel in subdirs:
        _walk_dir(os.path.join(directory, name), rel, specs, config, result)


def _by_rel(item: tuple[str, str, os.DirEntry[str]]) -> str:
    return item[1]


def _is_dir_link(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir(follow_symlinks=True)
    except OSError:
        return False
