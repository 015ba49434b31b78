"""Whether a string can name a module-level value of an ES module (TS/JS).

A function, variable, class or enum declared at the top level of an ES module is no
property of ``globalThis``. A string reaches it only through a module namespace object
used as a value (``ns[k]``, ``Object.keys(ns)``, ``f(ns)``, ``{...ns}``, ``keyof typeof
ns``), through a ``require``/``import()`` of a module that exposes it, or through a direct
``eval`` in its own file (``new Function`` code runs in global scope). So its string hits are
no hits when its file is an ES module without ``eval`` or CommonJS exports, and every
namespace object that may hold it (its module's, and that of each module re-exporting it or
a namespace holding it: ``export *``, ``export { x }``, ``export * as ns``, ``export { ns }``,
``export default ns``) is only read by static member names wherever it is imported (the
analyzer's ``reach`` facts, :mod:`astmcp.resolve.ts_reach`). A module that may hold it and is
loaded other than into such bindings, or an import no file was found for, keeps every hit.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from tree_sitter import Node

from astmcp.lang.ts_parse import parse_bytes
from astmcp.query.common import SymbolRow
from astmcp.query.package_types import project_root
from astmcp.resolve.ts_reach import FIELD
from astmcp.resolve.ts_types import Entity
from astmcp.resolve.typescript import Resolver

__all__ = ["namespace_escapes", "strings_cannot_reach"]

_VALUE_KINDS = frozenset({"function", "variable", "class", "enum"})
_DECLARATION_FILES = (".d.ts", ".d.mts", ".d.cts")
_PYTHON_FILES = (".py", ".pyi")
_MAX_COPIES = 8  # copies of copies followed before giving up (keeping the hits)


def strings_cannot_reach(conn: sqlite3.Connection, declarations: list[SymbolRow]) -> bool:
    """True when no string can name the symbol declared by ``declarations`` (its
    redefinitions and overloads): its string hits are then no hits."""
    if not declarations:
        return False
    resolver = Resolver(conn, {})
    for decl in declarations:
        if (
            decl.kind not in _VALUE_KINDS
            or decl.parent_path
            or decl.file.endswith(_DECLARATION_FILES + _PYTHON_FILES)
        ):
            return False
        reach = resolver.facts(decl.file).get(FIELD, {})
        if not reach.get("esm") or reach.get("cjs") or reach.get("eval"):
            return False
    return not _Namespaces(conn, resolver, declarations).escape()


def namespace_escapes(conn: sqlite3.Connection, declarations: list[SymbolRow]) -> bool | frozenset[str]:
    """True when a module-level value (``declarations``: its redefinitions and overloads) may be
    read as a member of a namespace or exports object used as a value: ``run(A)`` after
    ``import * as A``, ``[A, B].map((p) => p.setup())``, ``const m = require("./a"); use(m)``, a
    computed ``import(name)``. There ``p.setup()`` on a receiver nobody typed may be it. When the
    only way is a computed ``import(name)``, the files making one (where the module is read): their
    set."""
    if not declarations or any(
        d.kind not in _VALUE_KINDS or d.parent_path or d.file.endswith(_DECLARATION_FILES + _PYTHON_FILES)
        for d in declarations
    ):
        return False
    namespaces = _Namespaces(conn, Resolver(conn, {}), declarations, receivers=True)
    if namespaces.escape():
        return True
    return frozenset(namespaces.loaders) or False


class _Namespaces:
    """The modules whose namespace object may hold the symbol, and whether any escapes."""

    def __init__(
        self,
        conn: sqlite3.Connection,
        resolver: Resolver,
        declarations: list[SymbolRow],
        receivers: bool = False,
    ) -> None:
        # `receivers`: judged for reads on untyped receivers, not for strings: a namespace given to
        # a `const` (`export const operators = _operators`) is an alias whose reads are typed, and
        # a `require` of a path no file is at (`require("../dist/Rx")`) loads no module of ours
        self.receivers = receivers
        self.loaders: set[str] = set()  # (receivers) files loading some module by a computed name
        self.conn = conn
        self.resolver = resolver
        self.ids = {d.id for d in declarations}
        self.holding = {d.file for d in declarations}  # modules whose namespace may hold it
        self._importers: dict[str, list[tuple[str, str, str]]] = {}

    def escape(self) -> bool:
        if self._unresolved_escape():
            return True
        self._close()
        checked: set[str] = set()
        for module in sorted(self.holding):
            for path, _spec, _kind in self.importers(module):
                if path in checked:
                    continue
                checked.add(path)
                if self._escapes_in(path):
                    return True
        return False

    def importers(self, module: str) -> list[tuple[str, str, str]]:
        """``(importing file, specifier, kind)`` of every import that resolved to ``module``."""
        found = self._importers.get(module)
        if found is None:
            found = self._importers[module] = [
                (path, spec, kind)
                for path, spec, kind in self.conn.execute(
                    "SELECT f.path, i.module, i.kind FROM imports i JOIN files f ON f.id = i.file_id"
                    " WHERE i.resolved_path = ?",
                    (module,),
                )
            ]
        return found

    def _close(self) -> None:
        """Grow ``holding`` to every module that re-exports the symbol or a namespace holding it."""
        changed = True
        while changed:
            changed = False
            for module in sorted(self.holding):
                for path, _spec, kind in self.importers(module):
                    if path not in self.holding and (kind == "star" or self._exports_holder(path)):
                        self.holding.add(path)
                        changed = True

    def _exports_holder(self, path: str) -> bool:
        """Whether ``path`` exports the symbol or a namespace holding it, or copies one into an
        object (``export const z = { ...ns }``: z holds what ns does)."""
        facts = self.resolver.facts(path)
        if any(self._chain_holds(path, chain, True) for chain in facts.get("exports", {}).values()):
            return True
        copies = facts.get(FIELD, {}).get("copies", {})
        if any(self._chain_holds(path, chain, True) for sources in copies.values() for chain in sources):
            return True
        # `export const ops = A`: the variable is the namespace under another name (only a value
        # that is a namespace import is followed: resolving every variable's type is costly)
        namespaces = facts.get("nsimports", {})
        if not namespaces:
            return False
        table = self.resolver.table(path).by_key
        return any(
            self._chain_holds(path, chain, False)
            for key, chain in facts.get("vtypes", {}).items()
            if chain.startswith("P:")
            and chain[2:] in namespaces
            and (sym := table.get(key)) is not None
            and sym.exported
            and sym.kind == "variable"
            and "." not in sym.symbol_path
        )

    def _chain_holds(self, path: str, chain: str, itself: bool, depth: int = 0) -> bool:
        """Whether the value of ``chain`` in ``path`` may be a holding namespace (or, with
        ``itself``, the symbol), seen through copies: after ``const z = { ...ns }``, ``z.a`` may be
        ``ns.a``."""
        if depth > _MAX_COPIES:
            return True  # too deep to follow: as if it held
        if self._holds(self.resolver.resolve(path, chain), itself):
            return True
        parts = chain.split("|")
        for end in range(1, len(parts) + 1):
            copy = self._copy(self.resolver.resolve(path, "|".join(parts[:end])))
            if copy is not None:
                home, sources = copy
                rest = parts[end:]
                if any(self._chain_holds(home, "|".join([src, *rest]), itself, depth + 1) for src in sources):
                    return True
        return False

    def _copy(self, entity: Entity) -> tuple[str, list[str]] | None:
        """The file and the namespaces spread into ``entity`` when it is a copy object."""
        if entity is None or entity[0] != "s":
            return None
        sym = self.resolver.syms.get(entity[1])
        if sym is None:
            return None
        sources = self.resolver.facts(sym.path).get(FIELD, {}).get("copies", {}).get(sym.key)
        return (sym.path, sources) if sources else None

    def _holds(self, entity: Entity, itself: bool, depth: int = 0) -> bool:
        """Whether ``entity`` is a namespace object of a holding module (or, with ``itself``,
        the symbol), also as the value of a variable (``export const ops = A``)."""
        if entity is None or depth > _MAX_COPIES:
            return False
        tag = entity[0]
        if tag == "v":
            return any(self._holds(alt, itself, depth) for alt in entity[1])
        if tag == "s" and itself and entity[1] in self.ids:
            return True
        module = self._namespace(entity)
        if module is not None:
            return module in self.holding
        sym = self.resolver.syms.get(entity[1]) if tag == "s" else None
        if sym is not None and sym.kind == "variable" and sym.id not in self.ids:
            return self._holds(self.resolver.typed(sym, "vtypes"), itself, depth + 1)
        return False

    def _namespace(self, entity: tuple[Any, ...]) -> str | None:
        """The module whose namespace object ``entity`` is (``import * as ns`` made a symbol
        where it is re-exported)."""
        if entity[0] == "m":
            return str(entity[1])
        if entity[0] != "s":
            return None
        sym = self.resolver.syms.get(entity[1])
        if sym is None or sym.kind != "namespace":
            return None
        spec = self.resolver.facts(sym.path).get("nsimports", {}).get(sym.key)
        module = self.resolver.module(sym.path, spec) if spec is not None else None
        return str(module[1]) if module is not None and module[0] == "m" else None

    def _escapes_in(self, path: str) -> bool:
        """Whether ``path`` uses a holding namespace object as a value, or loads a holding
        module other than into bindings (``f(require("m"))``, ``import("m").then``)."""
        reach = self.resolver.facts(path).get(FIELD, {})
        for spec in reach.get("loose", ()):
            module = self.resolver.module(path, spec)
            if module is not None and module[0] == "m" and module[1] in self.holding:
                return True
        dynamic = reach.get("dynamic", ())
        if self.receivers:
            dynamic = [chain for chain in dynamic if not _const_alias(self.conn, path, chain)]
        return any(self._chain_holds(path, chain, False) for chain in dynamic)

    def _unresolved_escape(self) -> bool:
        """An import no project file was found for (and that names no package) may be of a
        holding module: a file that re-exports one holds, one that loads it loosely or uses its
        bindings as values escapes; so does any ``import(name)`` with a computed specifier."""
        if self.receivers:
            # a module loaded by a computed `import(name)` is read where it is loaded
            self.loaders = {
                str(path)
                for (path,) in self.conn.execute(
                    "SELECT path FROM module_facts WHERE data LIKE ?", (f'%"{FIELD}":{{%"anyload":1%',)
                )
            }
        elif self.conn.execute(
            "SELECT 1 FROM module_facts WHERE data LIKE ? LIMIT 1", (f'%"{FIELD}":{{%"anyload":1%',)
        ).fetchone():
            return True
        rows = self.conn.execute(
            "SELECT f.path, i.module, i.kind FROM imports i JOIN files f ON f.id = i.file_id"
            " WHERE i.resolved_path IS NULL AND i.external = 0 AND f.language IN ('typescript', 'javascript')"
        ).fetchall()
        for path, spec, kind in rows:
            if kind in ("star", "reexport"):
                self.holding.add(path)
                continue
            if self.receivers:
                continue
            reach = self.resolver.facts(path).get(FIELD, {})
            copied = [chain for sources in reach.get("copies", {}).values() for chain in sources]
            if spec in reach.get("loose", ()) or any(
                _rooted_at(chain, spec, self.resolver.facts(path))
                for chain in [*reach.get("dynamic", ()), *copied]
            ):
                return True  # (a copy of such a namespace is judged as a use of it)
        return False


def _rooted_at(chain: str, spec: str, facts: dict[str, Any]) -> bool:
    root = chain.partition("|")[0]
    if root.startswith("I:"):
        return root[2:].partition(":")[2] == spec
    return root.startswith("P:") and facts.get("nsimports", {}).get(root[2:]) == spec


def _const_alias(conn: sqlite3.Connection, path: str, chain: str) -> bool:
    """Whether the binding ``chain`` names (``P:<line>:<column>`` of its declaration) is used as a
    value only as the whole initializer of ``const`` declarations (``export const operators =
    _operators``) and by static member reads."""
    if not chain.startswith("P:") or "|" in chain:
        return False
    try:
        line, column = (int(n) for n in chain[2:].split(":"))
    except ValueError:
        return False
    root = project_root(conn)
    try:
        text = (root / path).read_text(encoding="utf-8") if root is not None else None
    except (OSError, UnicodeDecodeError):
        text = None
    if text is None:
        return False
    lines = text.split("\n")
    raw = lines[line - 1] if 0 < line <= len(lines) else ""
    point = (line - 1, len(raw[: column - 1].encode("utf-8")))
    language = "javascript" if path.endswith((".js", ".jsx", ".mjs", ".cjs")) else "typescript"
    tree = parse_bytes(path, language, text.encode("utf-8"))
    binding = tree.root_node.named_descendant_for_point_range(point, point)
    if binding is None or binding.type != "identifier":
        return False
    return _only_aliased(tree.root_node, binding, 0)


def _only_aliased(root: Node, binding: Node, depth: int) -> bool:
    """Whether every use of ``binding``'s name in the file is a static member read or the whole
    initializer of a ``const`` whose own uses are such (``const m = A; run(m)`` is a use of A)."""
    if depth > 4:
        return False
    name = binding.text
    stack = [root]
    while stack:
        node = stack.pop()
        stack.extend(node.named_children)
        if node.text != name or node.id == binding.id:
            continue
        if node.type == "shorthand_property_identifier":
            return False  # `run({ mod })`: the namespace goes on as a property
        if node.type != "identifier":
            continue
        holder = node.parent
        if holder is None:
            return False
        if holder.type == "member_expression" and holder.child_by_field_name("object") == node:
            continue
        declaration = holder.parent
        if not (
            holder.type == "variable_declarator"
            and holder.child_by_field_name("value") == node
            and holder.child_by_field_name("type") is None  # (`const f: Fmt = A` uses A as a Fmt)
            and declaration is not None
            and declaration.type == "lexical_declaration"
            and (declaration.child(0) or holder).type == "const"
        ):
            return False
        alias = holder.child_by_field_name("name")
        exported = declaration.parent is not None and declaration.parent.type == "export_statement"
        if alias is not None and not exported and not _only_aliased(root, alias, depth + 1):
            return False  # (an exported alias is read through its importers' typed chains)
    return True
