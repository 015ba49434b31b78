"""tsconfig/jsconfig and package.json as module resolution sees them.

tsconfig files are JSON with comments and trailing commas; ``extends`` (a string
or a list) is followed through relative paths and package names (a workspace
package of the repo, else ``node_modules`` on disk), never out of the project
root. Only what resolution needs is kept: ``baseUrl`` and ``paths``, already
made project-relative.
"""

from __future__ import annotations

import json
import os
import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "CompilerPaths",
    "Manifest",
    "TsConfigs",
    "inside",
    "join_path",
    "load_jsonc",
    "parse_jsonc",
    "read_manifest",
    "split_package",
]

_MAX_CONFIG_BYTES = 1 << 20
_MAX_EXTENDS_DEPTH = 16


def parse_jsonc(text: str) -> Any:
    """JSON with ``//``/``/* */`` comments and trailing commas (tsconfig dialect)."""
    return json.loads(_rewrite(_rewrite(text, _comment), _trailing_comma))


# A cut at text[i]: where the text resumes, and what stands for the cut part.
_Cut = Callable[[str, int], tuple[int, str] | None]


def _rewrite(text: str, cut: _Cut) -> str:
    """``text`` with the parts ``cut`` finds outside string literals replaced."""
    out: list[str] = []
    i = 0
    n = len(text)
    start = 0
    while i < n:
        if text[i] == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
            i += 1
            continue
        found = cut(text, i)
        if found is None:
            i += 1
            continue
        out.append(text[start:i])
        i, replacement = found
        out.append(replacement)
        start = i
    out.append(text[start:])
    return "".join(out)


def _comment(text: str, i: int) -> tuple[int, str] | None:
    """A ``//`` or ``/* */`` comment becomes a space."""
    if text[i] != "/" or i + 1 >= len(text) or text[i + 1] not in "/*":
        return None
    if text[i + 1] == "/":
        end = text.find("\n", i)
        return (len(text) if end < 0 else end), " "
    end = text.find("*/", i + 2)
    return (len(text) if end < 0 else end + 2), " "


def _trailing_comma(text: str, i: int) -> tuple[int, str] | None:
    """A comma followed (once comments are gone) by ``}`` or ``]`` is dropped."""
    if text[i] != ",":
        return None
    j = i + 1
    n = len(text)
    while j < n and text[j] in " \t\r\n":
        j += 1
    return (i + 1, "") if j < n and text[j] in "}]" else None


def load_jsonc(path: Path) -> Any:
    """Parsed JSON(C) of a file, or None when it is missing, too big or malformed."""
    try:
        if path.stat().st_size > _MAX_CONFIG_BYTES:
            return None
        text = path.read_text(encoding="utf-8-sig")
        return parse_jsonc(text)
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        return None


@dataclass(frozen=True, slots=True)
class CompilerPaths:
    """Effective ``baseUrl``/``paths`` of one tsconfig (project-relative dirs)."""

    config: str
    base_url: str | None
    paths_base: str | None  # where ``paths`` substitutions are relative to
    paths: tuple[tuple[str, tuple[str, ...]], ...]


@dataclass(frozen=True, slots=True)
class Manifest:
    """The fields of a package.json that resolution reads."""

    path: str  # project-relative package.json
    name: str | None
    exports: Any
    imports: Any
    entries: tuple[str, ...]  # types, typings, module, main (in that order, when strings)
    workspaces: tuple[str, ...] = ()  # package folder globs, relative to this package.json

    @property
    def folder(self) -> str:
        return posixpath.dirname(self.path)


def read_manifest(root: Path, rel: str) -> Manifest | None:
    data = load_jsonc(root / rel)
    if not isinstance(data, dict):
        return None
    name = data.get("name")
    entries = tuple(
        value for key in ("types", "typings", "module", "main") if isinstance(value := data.get(key), str)
    )
    workspaces = data.get("workspaces")
    if isinstance(workspaces, dict):  # yarn: {"packages": [...]}
        workspaces = workspaces.get("packages")
    globs = tuple(g for g in workspaces if isinstance(g, str)) if isinstance(workspaces, list) else ()
    return Manifest(
        rel, name if isinstance(name, str) else None, data.get("exports"), data.get("imports"), entries, globs
    )


def pnpm_workspace_globs(root: Path, rel: str) -> tuple[str, ...]:
    """The ``packages:`` globs of a pnpm-workspace.yaml (a list of strings; no YAML library)."""
    try:
        lines = (root / rel).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return ()
    globs: list[str] = []
    inside_packages = False
    for line in lines:
        stripped = line.split("#", 1)[0].rstrip()
        if not stripped:
            continue
        if not line[0].isspace():
            inside_packages = stripped.startswith("packages:")
            continue
        item = stripped.strip()
        if inside_packages and item.startswith("-"):
            globs.append(item[1:].strip().strip("\"'"))
    return tuple(globs)


def glob_regex(folder: str, globs: tuple[str, ...]) -> re.Pattern[str] | None:
    """One regex for workspace globs (``*`` one segment, ``**`` any depth; ``!`` excludes
    are ignored), anchored at ``folder``."""
    parts = []
    for glob in globs:
        if glob.startswith("!"):
            continue
        pattern = join_path(folder, glob.rstrip("/"))
        regex = re.escape(pattern).replace(r"\*\*", ".*").replace(r"\*", "[^/]*").replace(r"\?", "[^/]")
        parts.append(regex)
    return re.compile("(?:" + "|".join(parts) + ")") if parts else None


def inside(root: Path, rel: str) -> bool:
    return rel != ".." and not rel.startswith("../") and not os.path.isabs(rel)


class TsConfigs:
    """Loads tsconfig chains lazily; ``packages`` maps workspace package names to
    their folders (for package-based ``extends``)."""

    def __init__(self, root: Path, packages: dict[str, Manifest]) -> None:
        self.root = root
        self.packages = packages
        self._raw: dict[str, dict[str, Any] | None] = {}
        self._effective: dict[str, CompilerPaths] = {}

    def effective(self, config: str) -> CompilerPaths:
        cached = self._effective.get(config)
        if cached is None:
            cached = self._effective[config] = self._merge(config)
        return cached

    def strict_null_checks(self, config: str) -> bool:
        """Whether ``config`` turns on ``strictNullChecks`` (itself or through ``strict``), the
        nearest setting of each along its ``extends`` chain winning. Unset is off, as before
        TypeScript 6."""
        merged: dict[str, Any] = {}
        for _path, options in reversed(self._options_chain(config)):
            merged.update(options)
        for key in ("strictNullChecks", "strict"):
            value = merged.get(key)
            if isinstance(value, bool):
                return value
        return False

    def _options_chain(self, config: str) -> list[tuple[str, dict[str, Any]]]:
        """(config path, compilerOptions) from the file itself to its farthest base."""
        chain: list[tuple[str, dict[str, Any]]] = []
        seen: set[str] = set()

        def visit(path: str, depth: int) -> None:
            if path in seen or depth > _MAX_EXTENDS_DEPTH:
                return
            seen.add(path)
            data = self._load(path)
            if data is None:
                return
            options = data.get("compilerOptions")
            chain.append((path, options if isinstance(options, dict) else {}))
            extends = data.get("extends")
            bases = [extends] if isinstance(extends, str) else extends if isinstance(extends, list) else []
            # A later entry of an `extends` list overrides an earlier one.
            for base in reversed(bases):
                if isinstance(base, str):
                    target = self._extends_target(path, base)
                    if target is not None:
                        visit(target, depth + 1)

        visit(config, 0)
        return chain

    def _merge(self, config: str) -> CompilerPaths:
        base_url: str | None = None
        paths: dict[str, Any] | None = None
        paths_owner = config
        for path, options in self._options_chain(config):
            folder = posixpath.dirname(path)
            if base_url is None and isinstance(options.get("baseUrl"), str):
                base_url = join_path(folder, options["baseUrl"])
            if paths is None and isinstance(options.get("paths"), dict):
                paths = options["paths"]
                paths_owner = path
        table: list[tuple[str, tuple[str, ...]]] = []
        for pattern, targets in (paths or {}).items():
            if isinstance(pattern, str) and isinstance(targets, list):
                table.append((pattern, tuple(t for t in targets if isinstance(t, str))))
        paths_base = base_url if base_url is not None else posixpath.dirname(paths_owner) if paths else None
        return CompilerPaths(config, base_url, paths_base, tuple(table))

    def _load(self, rel: str) -> dict[str, Any] | None:
        if rel not in self._raw:
            data = load_jsonc(self.root / rel) if inside(self.root, rel) else None
            self._raw[rel] = data if isinstance(data, dict) else None
        return self._raw[rel]

    def _extends_target(self, config: str, spec: str) -> str | None:
        folder = posixpath.dirname(config)
        if spec.startswith(("./", "../")) or spec in (".", ".."):
            base = join_path(folder, spec)
            candidates = [base] if base.endswith(".json") else [base, base + ".json", base + "/tsconfig.json"]
            return next((c for c in candidates if self._is_file(c)), None)
        if spec.startswith("/"):
            return None
        name, sub = split_package(spec)
        manifest = self.packages.get(name)
        folders = [manifest.folder] if manifest is not None else []
        # node_modules next to the config or above it (not indexed, read from disk).
        parent = folder
        while True:
            folders.append(join_path(parent, f"node_modules/{name}"))
            if not parent:
                break
            parent = posixpath.dirname(parent)
        for pkg in folders:
            if sub:
                base = join_path(pkg, sub)
                candidates = (
                    [base] if base.endswith(".json") else [base, base + ".json", base + "/tsconfig.json"]
                )
            else:
                candidates = [join_path(pkg, "tsconfig.json")]
            found = next((c for c in candidates if self._is_file(c)), None)
            if found is not None:
                return found
        return None

    def _is_file(self, rel: str) -> bool:
        return inside(self.root, rel) and (self.root / rel).is_file()


def join_path(folder: str, rel: str) -> str:
    joined = posixpath.normpath(posixpath.join(folder, rel)) if folder else posixpath.normpath(rel)
    return "" if joined == "." else joined


def split_package(spec: str) -> tuple[str, str]:
    """``@scope/pkg/sub/x`` → (``@scope/pkg``, ``sub/x``); ``pkg`` → (``pkg``, ``""``)."""
    parts = spec.split("/")
    count = 2 if spec.startswith("@") and len(parts) > 1 else 1
    return "/".join(parts[:count]), "/".join(parts[count:])
