"""Which TS/JS files a declaration of an ES module can reach at all: the parts of the import graph.

TypeScript types an expression of file F with a declaration of module D only if F imports D,
directly or through other modules; a value made from D gets into F's code only through
modules both sides import (F calls into code that holds it, or reads state another
module's code put it in). So when no chain of imports, followed either way, joins F and D,
nothing F holds is of D's types: a receiver of F the index cannot type is no receiver of
D's members, and a string of F names none of them.

The parts are the connected pieces of the undirected graph whose nodes are the project's
TS/JS files and the packages they import (a package's module state is shared by its
importers), with these exceptions, each keeping everything in one part:
- a file that declares globals: a script without import/export syntax that is no
  declaration file (its top-level names are everyone's), and D itself when it declares
  globals (``declare global``) or is such a script;
- a file that may load any module: ``import(name)`` with a computed specifier or a loader
  by pattern (``require.context``; the analyzer's ``anyload`` reach fact), or an import that
  found neither a project file nor a package.
A test file (one with describe/it/test blocks) joins the project files it imports, but not
the packages: runners load each test file with modules of its own (vitest, jest), and a
test framework's state carries no value of one test file to another.
Reading ``globalThis``/``window`` properties is the one way around modules this does not see.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable

__all__ = ["ModuleParts"]

_TS_LANGUAGES = ("typescript", "javascript")
_DECLARATION_FILES = (".d.ts", ".d.mts", ".d.cts")


class ModuleParts:
    """The parts of a project's TS/JS import graph, computed on first use."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self._part: dict[str, str] | None = None  # file -> its part's representative
        self._global: set[str] = set()  # files whose declarations are globals
        self._whole = False  # everything is one part
        self._packages: dict[str, set[str]] = {}  # part's representative -> the packages in it

    def apart(self, path: str, declaring: Iterable[str]) -> bool:
        """Whether no file of ``declaring`` shares a part with ``path`` (so nothing in
        ``path`` is of their declarations' types or holds their values)."""
        parts = self._parts()
        if self._whole or path not in parts:
            return False
        mine = parts[path]
        for file in declaring:
            if file not in parts or file in self._global or parts[file] == mine:
                return False
        return True

    def packages(self, path: str) -> frozenset[str]:
        """The packages imported in the part of ``path`` (every package the project imports when
        all is one part): a value one of them made may be held anywhere in it."""
        parts = self._parts()
        if self._whole or path not in parts:
            return frozenset().union(*self._packages.values())
        return frozenset(self._packages.get(parts[path], ()))

    def _parts(self) -> dict[str, str]:
        if self._part is not None:
            return self._part
        union = _Union()
        tests = {
            path
            for (path,) in self.conn.execute(
                "SELECT DISTINCT f.path FROM test_blocks t JOIN files f ON f.id = t.file_id"
            )
        }
        for path, reach in self.conn.execute(
            "SELECT f.path, json_extract(m.data, '$.reach') FROM files f"
            " LEFT JOIN module_facts m ON m.path = f.path WHERE f.language IN (?, ?)",
            _TS_LANGUAGES,
        ):
            union.add(path)
            flags = json.loads(reach) if reach else {}
            if flags.get("anyload"):
                self._whole = True
            if not flags.get("esm") and not flags.get("cjs"):
                if path.endswith(_DECLARATION_FILES):
                    self._global.add(path)  # its declarations are globals, read by anyone
                else:
                    self._whole = True  # a script: its names are globals, holding anything
        for (path,) in self.conn.execute(
            "SELECT DISTINCT f.path FROM symbols s JOIN files f ON f.id = s.file_id"
            " WHERE s.name = 'global' AND s.kind = 'namespace' AND f.language IN (?, ?)",
            _TS_LANGUAGES,
        ):
            self._global.add(path)  # `declare global { … }`
        for path, module, resolved, external in self.conn.execute(
            "SELECT f.path, i.module, i.resolved_path, i.external FROM imports i"
            " JOIN files f ON f.id = i.file_id WHERE f.language IN (?, ?)",
            _TS_LANGUAGES,
        ):
            if resolved is not None:
                union.join(path, resolved)
            elif not external:
                self._whole = True  # found nothing: it may be any module of ours
            elif path not in tests:
                union.join(path, "package:" + _package(module))
        for path in list(union.parent):
            # a hand-written `impl.d.ts` describes its `impl.js`, which importers reach through it
            stem, dot, suffix = path.rpartition(".")
            declaration = f"{stem}.d.{_DECLARED_BY.get(suffix, '')}" if dot else ""
            if suffix in _DECLARED_BY and declaration in union.parent:
                union.join(path, declaration)
        self._part = {path: union.find(path) for path in union.parent if not path.startswith("package:")}
        for node in union.parent:
            if node.startswith("package:"):
                self._packages.setdefault(union.find(node), set()).add(node[len("package:") :])
        return self._part


# a JavaScript file's suffix -> its declaration file's (`impl.js` -> `impl.d.ts`)
_DECLARED_BY = {"js": "ts", "jsx": "ts", "mjs": "mts", "cjs": "cts"}


def _package(specifier: str) -> str:
    """``@scope/name/x`` -> ``@scope/name``; ``node:fs/promises`` -> ``fs``; ``pkg/x`` -> ``pkg``."""
    specifier = specifier.removeprefix("node:")
    parts = specifier.split("/")
    return "/".join(parts[:2]) if specifier.startswith("@") else parts[0]


class _Union:
    """Union-find over file paths and package names."""

    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def add(self, node: str) -> None:
        self.parent.setdefault(node, node)

    def find(self, node: str) -> str:
        self.add(node)
        root = node
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[node] != root:
            self.parent[node], node = root, self.parent[node]
        return root

    def join(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)
