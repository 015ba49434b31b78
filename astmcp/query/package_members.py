"""Member names the packages whose values may reach a JavaScript file give their objects.

In a JS file nothing types a package's values: ``makeWidget("x")`` of ``widgetlib`` is an object
of unknown shape, and so is whatever holds it next (a generator's item, an array another array is
concatenated to, a registry's entry). A member read on a receiver nobody typed is the project's
member of that name only while no other object may have one; an object of a package the file
imports may, when the package spells a member so: a property or method in its declarations
(``.d.ts``) or, for a package without them, in its JavaScript (an object literal's key, a class
member, a property read or set). Such a read is then no ``likely`` reference of the project's
member (``query.references``), as Python's reads are not when a standard class the file imports
has the member (``FamilyMemo.stdlib_named``). The packages are the file's imports and those of
its part of the import graph (``query.ts_parts``). A package that is not installed gives no names.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path

from tree_sitter import Query, QueryCursor

from astmcp.lang.ts_parse import language_for, parse_bytes
from astmcp.query.ts_parts import ModuleParts
from astmcp.resolve.ts_packages import package_name

__all__ = ["JS_FILES", "PackageMembers", "package_spells"]

JS_FILES = (".js", ".jsx", ".mjs", ".cjs")
_MAX_FILES = 400
_MAX_BYTES = 6_000_000  # of one package's sources read (the rest is not read: names may be missed)
_DECLARATIONS = (".d.ts", ".d.mts", ".d.cts")
_SOURCES = (".js", ".mjs", ".cjs")
_NAMES = "[(property_identifier) (shorthand_property_identifier) (private_property_identifier)] @name"
_WORD = re.compile(rb"[A-Za-z_$][\w$]*")
_READ: dict[tuple[str, str], _Package] = {}


class PackageMembers:
    """Per request: whether the packages whose values may reach a JS file spell a member name."""

    def __init__(self, conn: sqlite3.Connection, root: Path | None, parts: ModuleParts) -> None:
        self.conn = conn
        self.root = root
        self.parts = parts
        self._files: dict[str, frozenset[str]] = {}

    def spelled(self, path: str, name: str, part: bool) -> bool:
        """Whether a package the JS file ``path`` imports (``part``: or one imported in its part of
        the import graph, ``query.ts_parts``: a module there may hand on what the package made)
        spells a member ``name``."""
        if self.root is None or not path.endswith(JS_FILES):
            return False
        packages = self._files.get(path)
        if packages is None:
            packages = self._files[path] = frozenset(
                package_name(spec.removeprefix("node:"))
                for (spec,) in self.conn.execute(
                    "SELECT DISTINCT i.module FROM imports i JOIN files f ON f.id = i.file_id"
                    " WHERE f.path = ? AND i.external = 1",
                    (path,),
                )
                if spec and not spec.startswith(".")
            )
        if part:
            packages = self.parts.packages(path) - packages  # (the file's own were asked first)
        return any(package_spells(str(self.root), p, name) for p in sorted(packages))


def package_spells(root: str, package: str, name: str) -> bool:
    """Whether ``package`` (installed in a ``node_modules`` at or above ``root``) spells a member
    ``name``: its declarations (its own or ``@types``) do, else its JavaScript. The files are
    parsed only when one holds the name as a word."""
    key = (root, package)
    found = _READ.get(key)
    if found is None:
        if len(_READ) > 256:
            _READ.clear()
        found = _READ[key] = _Package(_sources(root, package))
    return found.spells(name)


class _Package:
    """One package's words (a cheap test first) and, once a name is among them, member names."""

    def __init__(self, files: list[Path]) -> None:
        self.files = files
        self.words: set[str] = set()
        for _path, raw in _contents(files):
            self.words.update(m.decode("ascii") for m in _WORD.findall(raw))
        self.names: frozenset[str] | None = None

    def spells(self, name: str) -> bool:
        if name not in self.words:
            return False
        if self.names is None:
            self.names = _names(self.files)
        return name in self.names


def _sources(root: str, package: str) -> list[Path]:
    typed = package[1:].replace("/", "__") if package.startswith("@") else package
    for folder in (Path(root), *Path(root).parents):
        modules = folder / "node_modules"
        directories = [d for d in (modules / package, modules / "@types" / typed) if d.is_dir()]
        if not directories:
            continue
        files = [f for d in directories for f in _files(d, _DECLARATIONS)]
        return files or [f for d in directories for f in _files(d, _SOURCES)]
    return []


def _files(directory: Path, suffixes: tuple[str, ...]) -> list[Path]:
    out: list[Path] = []
    for path in sorted(directory.rglob("*")):
        if len(out) >= _MAX_FILES:
            break
        if path.name.endswith(suffixes) and "node_modules" not in path.relative_to(directory).parts:
            if suffixes == _SOURCES and path.name.endswith(_DECLARATIONS):
                continue
            out.append(path)
    return out


def _contents(files: list[Path]) -> Iterator[tuple[Path, bytes]]:
    """The files' bytes, up to :data:`_MAX_BYTES` in all (unreadable ones skipped)."""
    size = 0
    for path in files:
        try:
            raw = path.read_bytes()
        except OSError:
            continue
        size += len(raw)
        if size > _MAX_BYTES:
            return
        yield path, raw


def _names(files: list[Path]) -> frozenset[str]:
    names: set[str] = set()
    for path, raw in _contents(files):
        language = "typescript" if path.name.endswith(_DECLARATIONS) else "javascript"
        tree = parse_bytes(path.name, language, raw)
        query = Query(language_for(path.name, language), _NAMES)
        for nodes in QueryCursor(query).captures(tree.root_node).values():
            names.update(raw[n.start_byte : n.end_byte].decode("utf-8", "replace") for n in nodes)
    return frozenset(names)
