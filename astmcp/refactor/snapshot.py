"""What a plan is bound to: the hash of every indexed source file and of every
configuration file that can change how names resolve (SPEC §4)."""

from __future__ import annotations

import hashlib
import json
import os
import re
import sqlite3
from pathlib import Path

from astmcp.refactor.plan import canonical_hash

CONFIG_NAMES = ("pyproject.toml", "setup.cfg", ".astmcp.toml", "package.json")
_TSCONFIG = re.compile(r"^tsconfig.*\.json$")
_EXTENDS = re.compile(r'"extends"\s*:\s*(\[[^\]]*\]|"[^"]*")')


def indexed_files(conn: sqlite3.Connection) -> dict[str, str]:
    return {path: sha for path, sha in conn.execute("SELECT path, sha256 FROM files")}


def _hash_file(path: Path) -> str | None:
    try:
        with open(path, "rb") as handle:
            return hashlib.sha256(handle.read()).hexdigest()
    except OSError:
        return None


def _inside(root: Path, path: Path) -> str | None:
    try:
        rel = Path(os.path.normpath(path)).relative_to(root)
    except ValueError:
        return None
    return rel.as_posix()


def _extends(root: Path, config: Path) -> list[Path]:
    try:
        text = config.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return []
    match = _EXTENDS.search(text)
    if not match:
        return []
    try:
        raw = json.loads(match.group(1))
    except json.JSONDecodeError:
        return []
    targets = raw if isinstance(raw, list) else [raw]
    out: list[Path] = []
    for target in targets:
        if not isinstance(target, str) or not target.startswith("."):
            continue  # package specifiers live in node_modules, outside the snapshot
        candidate = config.parent / target
        if candidate.suffix != ".json":
            candidate = candidate.with_name(candidate.name + ".json")
        out.append(candidate)
    return out


def config_files(root: Path, source_paths: list[str]) -> dict[str, str]:
    """Resolution config in the root and every folder holding sources, tsconfig ``extends`` followed."""
    folders = {root}
    for source in source_paths:
        parent = (root / source).parent
        while parent != root and parent not in folders:
            folders.add(parent)
            parent = parent.parent
    found: dict[str, str] = {}
    queue: list[Path] = []
    for folder in sorted(folders):
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        queue.extend(folder / n for n in names if n in CONFIG_NAMES or _TSCONFIG.match(n))
    while queue:
        path = queue.pop()
        rel = _inside(root, path)
        if rel is None or rel in found or path.is_symlink() or not path.is_file():
            continue
        digest = _hash_file(path)
        if digest is None:
            continue
        found[rel] = digest
        if path.name.endswith(".json") and path.name != "package.json":
            queue.extend(_extends(root, path))
    return found


def snapshot(root: Path, conn: sqlite3.Connection) -> dict[str, str]:
    """Every file the workspace hash covers, path -> SHA-256 of its bytes."""
    files = indexed_files(conn)
    files.update(config_files(root, list(files)))
    return files


def workspace_hash(files: dict[str, str]) -> str:
    return canonical_hash(files)


def changed_files(before: dict[str, str], after: dict[str, str]) -> list[str]:
    return sorted(p for p in before.keys() | after.keys() if before.get(p) != after.get(p))
