"""Find the project's source files: nested .gitignore, fixed skips, limits.

Symlinks are never followed (a link cannot lead the index out of the root or
into a loop); every file passed over is counted by reason. Every query walks the
tree again, so a :class:`Walker` keeps what a walk can safely reuse: folder
listings while the folder's stat is unchanged (listing.py), compiled .gitignore
rules while their text is. Every source and config file not ignored is stat'ed every time.
"""

from __future__ import annotations

import operator
import os
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from stat import S_ISREG
from typing import TYPE_CHECKING

from astmcp.config import Config
from astmcp.index.listing import Listing, Listings

if TYPE_CHECKING:
    import pathspec


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


_Specs = tuple[tuple[str, _Rules], ...]  # (folder, its rules), outermost first
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


def _gitignore_spec(lines: Iterable[str]) -> pathspec.GitIgnoreSpec:
    import pathspec  # only trees with a .gitignore (or excludes) pay for the import

    return pathspec.GitIgnoreSpec.from_lines(lines)


def _ignored(specs: _Specs, rel: str, is_dir: bool) -> bool:
    """Deepest .gitignore with an opinion wins, as in git."""
    probe_suffix = "/" if is_dir else ""
    for base, rules in reversed(specs):
        sub = rel[len(base) + 1 :] if base else rel
        include = rules.check(sub + probe_suffix)
        if include is not None:
            return include
    return False


def walk(root: Path, config: Config) -> WalkResult:
    return Walker(root, config).walk()


@dataclass(frozen=True, slots=True)
class _Kept:
    """A folder's listing with the .gitignore rules in force applied."""

    listing: Listing
    specs: _Specs  # the rules it was decided under (compared by identity of each _Rules)
    sources: tuple[tuple[str, str], ...]  # (language, name) not ignored
    subdirs: tuple[str, ...]  # not ignored
    ignored_files: int
    ignored_dirs: tuple[str, ...]
    # The entry each source had in the last walk (None: not yet walked), reused while its
    # size and mtime hold.
    entries: list[WalkEntry | None]


class Walker:
    """Walks one tree, again on every refresh. What a walk reuses from the previous one: folder
    listings while the folder's stat is unchanged (listing.Listings), compiled .gitignore rules
    while their text is, and the rules' verdicts while both are. Every source and config file not
    ignored is stat'ed on every walk (an edit in place leaves its folder's stat alone)."""

    __slots__ = (
        "_base",
        "_kept",
        "_listings",
        "_previous_kept",
        "_previous_rules",
        "_rules",
        "config",
        "root",
    )

    def __init__(self, root: Path, config: Config) -> None:
        self.root = root
        self.config = config
        self._base: _Specs = ()
        if config.exclude:
            self._base = (("", _Rules(_gitignore_spec(config.exclude))),)
        self._listings = Listings()
        # Each cache keeps what the last walk used: the previous walk's, and this walk's so far.
        self._previous_rules: dict[str, _Rules | None] = {}  # by .gitignore text
        self._rules: dict[str, _Rules | None] = {}
        self._previous_kept: dict[str, _Kept] = {}  # by folder
        self._kept: dict[str, _Kept] = {}

    def walk(self) -> WalkResult:
        result = WalkResult()
        self._listings.begin()
        self._previous_rules, self._rules = self._rules, {}
        self._previous_kept, self._kept = self._kept, {}
        self._walk_dir(str(self.root), "", self._base, result)
        result.files.sort(key=_PATH)
        return result

    def _walk_dir(self, directory: str, rel_dir: str, specs: _Specs, result: WalkResult) -> None:
        listing = self._listings.get(directory)
        skipped = result.skipped
        if listing is None:
            skipped["unreadable"] += 1
            return
        if rel_dir and listing.venv:  # a virtualenv under any name
            skipped["excluded_dir"] += 1
            return
        if listing.gitignore:
            local = self._ignore_rules(directory)
            if local is not None:
                specs = (*specs, (rel_dir, local))
        for reason, count in listing.skipped:
            skipped[reason] += count
        prefix = f"{rel_dir}/" if rel_dir else ""
        kept = self._previous_kept.get(directory)
        if kept is None or kept.listing is not listing or kept.specs != specs:
            kept = _apply_rules(prefix, listing, specs)
        self._kept[directory] = kept
        if kept.ignored_files:
            skipped["ignored"] += kept.ignored_files
        base = directory + os.sep
        config = self.config
        files = result.files
        entries = kept.entries
        for n, (language, name) in enumerate(kept.sources):  # hot: every source file on every refresh
            try:
                st = os.stat(base + name, follow_symlinks=False)
            except OSError:
                skipped["unreadable"] += 1
                continue
            if not S_ISREG(st.st_mode):
                continue
            size = st.st_size
            entry = entries[n]
            if entry is None or entry.size != size or entry.mtime_ns != st.st_mtime_ns:
                entry = entries[n] = WalkEntry(prefix + name, size, st.st_mtime_ns, language)
            if language == "config":
                result.configs.append(entry)
                continue
            if size > config.max_file_bytes:
                skipped["too_large"] += 1
                continue
            if len(files) >= config.max_files:
                skipped["file_limit"] += 1
                continue
            files.append(entry)
        for name in kept.ignored_dirs:
            # A virtualenv is counted as such even where .gitignore also names it.
            venv = os.path.exists(os.path.join(directory, name, "pyvenv.cfg"))
            skipped["excluded_dir" if venv else "ignored"] += 1
        for name in kept.subdirs:
            self._walk_dir(base + name, prefix + name, specs, result)

    def _ignore_rules(self, directory: str) -> _Rules | None:
        """The folder's .gitignore rules; read on every walk (an edit in place leaves the folder's
        stat alone), compiled again only when the text changed."""
        try:
            with open(os.path.join(directory, ".gitignore"), encoding="utf-8", errors="replace") as handle:
                text = handle.read()
        except OSError:
            return None
        if text in self._rules:
            return self._rules[text]
        if text in self._previous_rules:
            rules = self._previous_rules[text]
        else:
            spec = _gitignore_spec(text.splitlines())
            rules = _Rules(spec) if len(spec) else None
        self._rules[text] = rules
        return rules


def _apply_rules(prefix: str, listing: Listing, specs: _Specs) -> _Kept:
    sources: list[tuple[str, str]] = []
    for source in listing.sources:
        if not (specs and _ignored(specs, prefix + source[1], False)):
            sources.append(source)
    subdirs: list[str] = []
    ignored_dirs: list[str] = []
    for name in listing.subdirs:
        (ignored_dirs if specs and _ignored(specs, prefix + name, True) else subdirs).append(name)
    ignored = len(listing.sources) - len(sources)
    return _Kept(
        listing, specs, tuple(sources), tuple(subdirs), ignored, tuple(ignored_dirs), [None] * len(sources)
    )


_PATH = operator.attrgetter("path")
