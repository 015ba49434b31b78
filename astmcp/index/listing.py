"""One folder's entries as the walker sorts them, reused while the folder is unchanged.

Adding, removing or renaming an entry changes its folder's mtime and ctime; editing a file
inside does not, so the walker still stats every source file on every walk. A listing is
reused only while the folder's (device, inode, mtime, ctime) are what they were when it
was taken, and only when that stat was older than the racy window then: an entry added
in the same timestamp tick as the listing would not move the folder's mtime.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

from astmcp.model import LANGUAGE_BY_SUFFIX

# A file or folder whose mtime is this close to the moment it was read may change again
# within the same timestamp tick; it is read again on the next refresh.
RACY_NS = 2_000_000_000

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


@dataclass(frozen=True, slots=True)
class Listing:
    """What a folder holds, before .gitignore rules (they may change while the folder does not)."""

    venv: bool  # holds pyvenv.cfg
    gitignore: bool  # holds .gitignore
    subdirs: tuple[str, ...]  # sorted names of folders to consider (no links, no fixed skips)
    sources: tuple[tuple[str, str], ...]  # (language or "config", name), sorted by name
    skipped: tuple[tuple[str, int], ...]  # counts by reason: fixed skips, links, unreadable entries


def list_folder(directory: str) -> Listing | None:
    """None when the folder cannot be read."""
    try:
        with os.scandir(directory) as scan:
            entries = list(scan)
    except OSError:
        return None
    subdirs: list[str] = []
    sources: list[tuple[str, str]] = []
    excluded = links = unreadable = 0
    venv = gitignore = False
    suffixes = LANGUAGE_BY_SUFFIX
    for entry in entries:  # hot on a cold walk: every entry of the tree
        name = entry.name
        if name == "pyvenv.cfg":  # a virtualenv under any name
            venv = True
        elif name == ".gitignore":
            gitignore = True
        try:
            is_dir = entry.is_dir(follow_symlinks=False)  # False for a link to a folder
            is_link = not is_dir and entry.is_symlink()
        except OSError:
            unreadable += 1
            continue
        if is_dir:
            if name == ".astmcp":  # our own state: not a skip worth reporting
                continue
            if name in ALWAYS_SKIPPED_DIRS:
                excluded += 1
            else:
                subdirs.append(name)
            continue
        dot = name.rfind(".")
        language = suffixes.get(name[dot:]) if dot > 0 else None
        if is_link:
            if language is not None or _is_dir_link(entry):
                links += 1
            continue
        if language is not None:
            sources.append((language, name))
        elif is_config_file(name):
            sources.append(("config", name))
    subdirs.sort()
    sources.sort(key=_by_name)
    counts = (("excluded_dir", excluded), ("symlink", links), ("unreadable", unreadable))
    return Listing(venv, gitignore, tuple(subdirs), tuple(sources), tuple(c for c in counts if c[1]))


def _by_name(item: tuple[str, str]) -> str:
    return item[1]


def _is_dir_link(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir(follow_symlinks=True)
    except OSError:
        return False


class Listings:
    """The folders' listings from the previous walk, each with the stat it was taken under.

    ``begin()`` starts a walk: listings of folders the walk does not reach again are dropped.
    """

    __slots__ = ("_current", "_previous")

    def __init__(self) -> None:
        self._previous: dict[str, tuple[tuple[int, int, int, int], Listing]] = {}
        self._current: dict[str, tuple[tuple[int, int, int, int], Listing]] = {}

    def begin(self) -> None:
        self._previous, self._current = self._current, {}

    def get(self, directory: str) -> Listing | None:
        """The folder's listing: the previous one when the folder's stat is unchanged, else a fresh one."""
        try:
            st = os.stat(directory)
        except OSError:
            return None
        key = (st.st_dev, st.st_ino, st.st_mtime_ns, st.st_ctime_ns)
        cached = self._previous.get(directory)
        if cached is not None and cached[0] == key:
            self._current[directory] = cached
            return cached[1]
        listed_ns = time.time_ns()  # after the stat, before the listing
        listing = list_folder(directory)
        # Changed within the racy window: an entry added after the listing in the same tick
        # would leave the stat as it is, so this listing is not kept for reuse.
        if listing is not None and max(st.st_mtime_ns, st.st_ctime_ns) < listed_ns - RACY_NS:
            self._current[directory] = (key, listing)
        return listing
