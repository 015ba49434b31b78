"""Member names the packages a JavaScript file imports give their objects.

In a JS file nothing types a package's values: ``makeWidget("x")`` of ``widgetlib`` is an object
of unknown shape, and so is whatever holds it next (a generator's item, an array another array is
concatenated to, a registry's entry). A member read on a receiver nobody typed is the project's
member of that name only while no other object may have one; an object of a package the file
imports may, when the package spells a member so: a property or method in its declarations
(``.d.ts``) or, for a package without them, in its JavaScript (an object literal's key, a class
member, a property read or set). Such a read is then no ``likely`` reference of the project's
member (``query.references``), as Python's reads are not when a standard class the file imports
has the member (``FamilyMemo.stdlib_named``). A package that is not installed gives no names.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tree_sitter import Query, QueryCursor

from astmcp.lang.ts_parse import language_for, parse_bytes
from astmcp.resolve.ts_packages import package_name

__all__ = ["JS_FILES", "PackageMembers"]

JS_FILES = (".js", ".jsx", ".mjs", ".cjs")
_MAX_FILES = 400
_MAX_BYTES = 6_000_000  # of one package's sources read (the rest is not read: names may be missed)
_DECLARATIONS = (".d.ts", ".d.mts", ".d.cts")
_SOURCES = (".js", ".mjs", ".cjs")
_NAMES = "[(property_identifier) (shorthand_property_identifier) (private_property_identifier)] @name"
_READ: dict[tuple[str, str], frozenset[str]] = {}


class PackageMembers:
    """Per request: the member names of the packages each JS file imports."""

    def __init__(self, conn: sqlite3.Connection, root: Path | None) -> None:
        self.conn = conn
        self.root = root
        self._files: dict[str, frozenset[str]] = {}

    def spelled(self, path: str, name: str) -> bool:
        """Whether a package the JS file ``path`` imports spells a member ``name``."""
        if self.root is None or not path.endswith(JS_FILES):
            return False
        names = self._files.get(path)
        if names is None:
            packages = sorted(
                {
                    package_name(spec.removeprefix("node:"))
                    for (spec,) in self.conn.execute(
                        "SELECT DISTINCT i.module FROM imports i JOIN files f ON f.id = i.file_id"
                        " WHERE f.path = ? AND i.external = 1",
                        (path,),
                    )
                    if spec and not spec.startswith(".")
                }
            )
            names = frozenset().union(*(package_members(str(self.root), p) for p in packages))
            self._files[path] = names
        return name in names


def package_members(root: str, package: str) -> frozenset[str]:
    """The member names ``package`` (installed in a ``node_modules`` at or above ``root``)
    spells: those its declarations (its own or ``@types``) hold, else those of its JavaScript."""
    key = (root, package)
    found = _READ.get(key)
    if found is None:
        if len(_READ) > 256:
            _READ.clear()
        found = _READ[key] = _read(root, package)
    return found


def _read(root: str, package: str) -> frozenset[str]:
    typed = package[1:].replace("/", "__") if package.startswith("@") else package
    for folder in (Path(root), *Path(root).parents):
        modules = folder / "node_modules"
        directories = [d for d in (modules / package, modules / "@types" / typed) if d.is_dir()]
        if not directories:
            continue
        files = [f for d in directories for f in _files(d, _DECLARATIONS)]
        if not files:
            files = [f for d in directories for f in _files(d, _SOURCES)]
        return _names(files)
    return frozenset()


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


def _names(files: list[Path]) -> frozenset[str]:
    names: set[str] = set()
    size = 0
    for path in files:
        try:
            raw = path.read_bytes()
        except OSError:
            continue
        size += len(raw)
        if size > _MAX_BYTES:
            break
        language = "typescript" if path.name.endswith(_DECLARATIONS) else "javascript"
        tree = parse_bytes(path.name, language, raw)
        query = Query(language_for(path.name, language), _NAMES)
        for nodes in QueryCursor(query).captures(tree.root_node).values():
            names.update(raw[n.start_byte : n.end_byte].decode("utf-8", "replace") for n in nodes)
    return frozenset(names)
