"""Globals the installed ``@types`` packages declare (``node_modules/@types/*``).

TypeScript includes every ``@types`` package by default, so their globals
(``google`` of ``@types/google.maps``, ``$`` of ``@types/jquery``, UMD names of
``export as namespace``) exist in every file of the project. The declaration
files are read as text, never indexed: ``declare var/let/const/function/class/
namespace/module/enum`` names, ``export as namespace`` names and the members of
``declare global { … }`` blocks. Module-scoped ``declare``s are included too,
which can only make the undefined-name check quieter.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterator
from pathlib import Path

__all__ = ["ENVIRONMENT_PATH", "environment_globals", "fingerprint"]

# The pseudo path its names are stored under (no file can have it).
ENVIRONMENT_PATH = "<node_modules/@types>"

_MAX_BYTES = 32 * 1024 * 1024
_NAME = r"([A-Za-z_$][\w$]*)"
_DECLARE = re.compile(
    rf"^[ \t]*(?:export[ \t]+)?declare[ \t]+(?:var|let|const|function|abstract[ \t]+class|class|namespace|module|enum)[ \t]+{_NAME}",
    re.MULTILINE,
)
_UMD = re.compile(rf"^[ \t]*export[ \t]+as[ \t]+namespace[ \t]+{_NAME}", re.MULTILINE)
_GLOBAL_BLOCK = re.compile(r"^([ \t]*)declare[ \t]+global[ \t]*\{", re.MULTILINE)
_MEMBER = re.compile(
    rf"^[ \t]*(?:export[ \t]+)?(?:var|let|const|function|abstract[ \t]+class|class|namespace|enum)[ \t]+{_NAME}"
)


def _types_dir(root: Path) -> Path:
    return root / "node_modules" / "@types"


def fingerprint(root: Path) -> str:
    """Changes when an ``@types`` package is added, removed or reinstalled."""
    digest = hashlib.sha256()
    try:
        entries = sorted(os.scandir(_types_dir(root)), key=lambda e: e.name)
    except OSError:
        return ""
    for entry in entries:
        try:
            stamp = (Path(entry.path) / "package.json").stat().st_mtime_ns
        except OSError:
            stamp = 0
        digest.update(f"{entry.name}:{stamp}\n".encode())
    return digest.hexdigest()


def environment_globals(root: Path) -> frozenset[str]:
    names: set[str] = set()
    budget = _MAX_BYTES
    for path in _declaration_files(_types_dir(root)):
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        budget -= len(text)
        if budget < 0:
            break
        names.update(m.group(1) for m in _DECLARE.finditer(text))
        names.update(m.group(1) for m in _UMD.finditer(text))
        names.update(_global_block_names(text))
    return frozenset(names)


def _declaration_files(folder: Path) -> Iterator[Path]:
    if not folder.is_dir():
        return
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = sorted(d for d in dirnames if d != "node_modules")
        for name in sorted(filenames):
            if name.endswith((".d.ts", ".d.mts", ".d.cts")):
                yield Path(dirpath) / name


def _global_block_names(text: str) -> Iterator[str]:
    """Names declared directly in ``declare global { … }`` (the block ends at the first line
    indented like its opening one that starts with ``}``)."""
    for block in _GLOBAL_BLOCK.finditer(text):
        indent = block.group(1)
        body_start = block.end()
        end = text.find(f"\n{indent}}}", body_start)
        body = text[body_start : end if end >= 0 else len(text)]
        for line in body.splitlines():
            match = _MEMBER.match(line)
            if match is not None:
                yield match.group(1)
