"""TS/JS: a module's namespace object used as a value of a type (SPEC §3: the members a type must
keep to be used as another).

``import * as impl from "./impl"; const resolver: UriResolver = impl`` compiles because the
module's exports ``parse``, ``resolve`` and ``serialize`` are every member ``UriResolver``
requires. Renaming ``UriResolver.resolve`` alone leaves ``impl`` without it: ajv does so with the
``fast-uri`` package (``const uriResolver = o.uriResolver ?? DefaultUriResolver``, seed 6868, a new
tsc error). Where a file reads a namespace import (or a package's default import, which may be
its ``export =`` namespace) other than as ``ns.name`` / ``ns["name"]`` or a call (passed,
assigned, returned, cast, spread, ``typeof ns``), the module's export of the member's name is a
partner of the rename whenever the module exports every member an owner of the family requires: a
project module's export is an uncertain hit (kind ``override``, its uses with it), renamed only
with ``uncertain: include``; a package's, or one the module exports under another name, refuses
the rename with ``MUTATION_BLOCKED``. A namespace a module re-exports by name (``export * as ns from
"./impl"``) is followed to where it is imported by name; one loaded with ``import()`` or
``require`` is not.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

import tree_sitter

from astmcp.errors import MutationBlocked
from astmcp.query.common import SymbolRow, query_symbols
from astmcp.refactor.ts_structural import owner_requirements
from astmcp.refactor.tsparse import parse
from astmcp.resolve.ts_packages import package_value_names, project_root

__all__ = ["namespace_partners"]

_MEMBER_KINDS = ("method", "property", "getter", "setter")
_LANGUAGES = "('typescript', 'javascript')"
_DEPTH = 6  # re-exports followed
# where reading the namespace's name is not the namespace object given away
_MEMBER_READS = ("member_expression", "nested_identifier", "nested_type_identifier")
# `export { a, b as c }` of a module's own names (not `export { … } from "…"`), `export = x`
_LOCAL_EXPORTS = re.compile(r"\bexport\s+(?:type\s+)?\{([^}]*)\}(?!\s*from\b)")
_ASSIGNED_EXPORTS = re.compile(r"\bexport\s*=")
_NAMES = ("identifier", "shorthand_property_identifier")  # (`{ ns }` gives it as a property too)


class _Import(NamedTuple):
    """A namespace a file may hold: an ``import * as`` (a package's default import too), one a
    module re-exports by name, or an ``import("…")`` (``loaded_at``: its line; 0 for the others)."""

    path: str  # the importing file
    alias: str  # its local name (`import(…)` for a dynamic import)
    resolved: str | None  # the module's file
    external: bool  # a package's
    module: str  # the specifier
    by_name: bool  # `import { ns }` of a namespace a module re-exports
    loaded_at: int = 0


def namespace_partners(
    conn: sqlite3.Connection, row: SymbolRow, family: Iterable[SymbolRow]
) -> list[SymbolRow]:
    """The project exports named as the member whose module's namespace is used as a value that may
    be an owner's type; MUTATION_BLOCKED when such a module's export of the name is not the
    project's (a package's)."""
    if row.kind not in _MEMBER_KINDS or not row.parent_path or row.file.endswith((".py", ".pyi")):
        return []
    imports = [
        _Import(str(path), str(alias), resolved, bool(external), str(module or ""), False)
        for path, alias, resolved, external, module in conn.execute(
            "SELECT f.path, i.alias, i.resolved_path, i.external, i.module FROM imports i"
            " JOIN files f ON f.id = i.file_id WHERE i.kind = 'import'"
            " AND (i.name IS NULL OR (i.name = 'default' AND i.external = 1))"
            f" AND i.alias IS NOT NULL AND f.language IN {_LANGUAGES} ORDER BY f.path, i.line"
        )
    ]  # (a package's default import too; which ones are namespaces, the files say)
    # `await import("./impl")`: a namespace object too (see `_loaded`)
    dynamic = [
        _Import(str(path), "import(…)", resolved, bool(external), str(module or ""), False, int(line))
        for path, line, resolved, external, module in conn.execute(
            "SELECT f.path, i.line, i.resolved_path, i.external, i.module FROM imports i"
            " JOIN files f ON f.id = i.file_id WHERE i.kind = 'dynamic'"
            f" AND f.language IN {_LANGUAGES} ORDER BY f.path, i.line"
        )
    ]
    imports += dynamic
    stars = _star_importers(conn)
    # the modules that may re-export a namespace by name (`export * as ns from`), and import rows
    # of a name from one
    spaces = _reached(
        stars,
        {
            str(p)
            for (p,) in conn.execute(
                "SELECT DISTINCT f.path FROM imports i JOIN files f ON f.id = i.file_id"
                " WHERE i.kind = 'reexport' AND i.name IS NULL AND i.resolved_path IS NOT NULL"
            )
        },
    )
    named = [
        found
        for found in conn.execute(
            "SELECT f.path, i.name, COALESCE(i.alias, i.name), i.resolved_path, i.module FROM imports i"
            " JOIN files f ON f.id = i.file_id WHERE i.kind = 'import' AND i.name IS NOT NULL"
            f" AND i.resolved_path IS NOT NULL AND f.language IN {_LANGUAGES} ORDER BY f.path, i.line"
        )
        if found[3] in spaces
    ]
    members = [m for m in (row, *family) if m.kind in _MEMBER_KINDS and m.parent_path]
    requirements = owner_requirements(conn, members) if imports or named else []
    root = project_root(conn) if requirements else None
    if root is None:
        return []
    known = {m.id for m in members}
    exports = _Exports(conn, root)
    holding = _holding(conn, root, row.name, stars)  # the modules that may export the name
    # `export * as ns from "./impl"` in a module, and `import { ns }` of it: that namespace
    for path, name, local, resolved, module in named:
        held = exports.namespaces(str(resolved)).get(str(name))
        if held is not None:
            imports.append(_Import(str(path), str(local), held, False, f"{module} ({name})", True))
    used: dict[tuple[str, str, int], int | None] = {}
    trees: dict[str, tree_sitter.Tree | None] = {}  # (each importing file parsed once)
    out: list[SymbolRow] = []
    for path, alias, resolved, external, module, by_name, loaded_at in imports:
        if external:
            names = package_value_names(str(root), module) if module else None
            if names is None or row.name not in names:
                continue
            partner: SymbolRow | None = None
            fits = any(required <= names for required in requirements)
        elif resolved:
            if resolved not in holding:
                continue
            table, open_ = exports.of(resolved)
            if row.name not in table:
                continue
            partner = table[row.name]
            fits = open_ or any(required <= table.keys() for required in requirements)
        else:
            continue
        if not fits:
            continue
        key = (path, alias, loaded_at)
        if key not in used:
            if path not in trees:
                trees[path] = _parsed(root, path)
            tree = trees[path]
            if tree is None:
                used[key] = None
            elif loaded_at:
                used[key] = _loaded(tree, loaded_at)
            else:
                used[key] = _given_away(tree, alias, by_name, default=external)
        line = used[key]
        if line is None:
            continue
        if partner is None:
            raise MutationBlocked(
                f"{row.name!r} is a member of a type the namespace of {module!r} may be used as ({path}:{line}"
                f" reads `{alias}` as a value, and the module exports every member the type requires,"
                f" {row.name!r} among them, which is not a project declaration of that name: a package's,"
                " or one exported under another name): renaming the member would leave that value"
                " without it",
                {"module": module, "file": path, "line": line},
            )
        if partner.id not in known and partner not in out:
            out.append(partner)
    return out


def _star_importers(conn: sqlite3.Connection) -> dict[str, set[str]]:
    """Per module, the modules re-exporting all of it (``export * from "./m"``)."""
    out: dict[str, set[str]] = {}
    for path, resolved in conn.execute(
        "SELECT f.path, i.resolved_path FROM imports i JOIN files f ON f.id = i.file_id"
        " WHERE i.kind = 'star' AND i.resolved_path IS NOT NULL"
    ):
        out.setdefault(str(resolved), set()).add(str(path))
    return out


def _reached(stars: dict[str, set[str]], seeds: set[str]) -> set[str]:
    """``seeds`` and the modules re-exporting all of one of them, however indirectly."""
    out = set(seeds)
    pending = list(seeds)
    while pending:
        for importer in stars.get(pending.pop(), ()):
            if importer not in out:
                out.add(importer)
                pending.append(importer)
    return out


def _holding(conn: sqlite3.Connection, root: Path, name: str, stars: dict[str, set[str]]) -> set[str]:
    """The project modules whose exports may include ``name``: declaring it at the top level,
    re-exporting it (``export { x as name } from``), exporting it under that name (``export { x as
    name }``, ``export =``), or re-exporting all of such a module."""
    seeds = {
        str(p)
        for (p,) in conn.execute(
            "SELECT DISTINCT f.path FROM symbols s JOIN files f ON f.id = s.file_id"
            f" WHERE s.name = ? AND s.parent_path IS NULL AND f.language IN {_LANGUAGES}",
            (name,),
        )
    }
    seeds |= {
        str(p)
        for (p,) in conn.execute(
            "SELECT DISTINCT f.path FROM imports i JOIN files f ON f.id = i.file_id"
            " WHERE i.kind = 'reexport' AND COALESCE(i.alias, i.name) = ?",
            (name,),
        )
    }
    wanted = re.compile(rf"\bas\s+{re.escape(name)}\b|\bexport\s*=")
    for (path,) in conn.execute(f"SELECT path FROM files WHERE language IN {_LANGUAGES}"):
        if str(path) in seeds:
            continue
        try:
            text = (root / str(path)).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        # (plain searches first: a pattern over every file of a large project is slow)
        if (f"as {name}" in text or "export =" in text or "export=" in text) and wanted.search(text):
            seeds.add(str(path))
    return _reached(stars, seeds)


class _Exports:
    """What a project module exports: each name's declaration (None: not the project's own, or not
    found), and whether names may be missing (``export *`` of a package, re-exports too deep)."""

    def __init__(self, conn: sqlite3.Connection, root: Path) -> None:
        self.conn = conn
        self.root = root
        self._memo: dict[str, tuple[dict[str, SymbolRow | None], bool]] = {}
        self._namespaces: dict[str, dict[str, str]] = {}  # module -> its `export * as name`: module

    def namespaces(self, path: str) -> dict[str, str]:
        """The namespaces a module exports by name (``export * as ns from "./impl"``, also through
        ``export *``): their modules."""
        self.of(path)
        return self._namespaces.get(path, {})

    def of(self, path: str, depth: int = 0) -> tuple[dict[str, SymbolRow | None], bool]:
        if path in self._memo:
            return self._memo[path]
        if depth > _DEPTH:
            return {}, True
        self._memo[path] = ({}, True)  # (a cycle of re-exports: unknown until read)
        table: dict[str, SymbolRow | None] = {}
        spaces: dict[str, str] = {}
        open_ = False
        top = {s.name: s for s in query_symbols(self.conn, "f.path = ? AND s.parent_path IS NULL", (path,))}
        for name, symbol in top.items():
            if symbol.exported:
                table[name] = symbol
        local, assigned = self._export_clauses(path)
        open_ = open_ or assigned
        for name, exported in local:  # (one exported under another name is no symbol of it)
            table.setdefault(exported, top.get(name) if name == exported else None)
        for name, alias, resolved, kind in self.conn.execute(
            "SELECT i.name, i.alias, i.resolved_path, i.kind FROM imports i JOIN files f ON f.id = i.file_id"
            " WHERE f.path = ? AND i.kind IN ('reexport', 'star') ORDER BY i.line",
            (path,),
        ):
            if kind == "star":
                if not resolved:
                    open_ = True
                    continue
                inner, inner_open = self.of(str(resolved), depth + 1)
                open_ = open_ or inner_open
                for exported, held_path in self._namespaces.get(str(resolved), {}).items():
                    spaces.setdefault(exported, held_path)
                for exported, held in inner.items():
                    if exported != "default":
                        table.setdefault(exported, held)
                continue
            exported = alias or name
            if not exported:
                continue
            found: SymbolRow | None = None
            if name == exported and resolved:  # (`export * as ns from`: a namespace, no symbol)
                found = self.of(str(resolved), depth + 1)[0].get(str(name))
            elif not name and resolved:
                spaces.setdefault(str(exported), str(resolved))
            table.setdefault(str(exported), found)
        self._memo[path] = (table, open_)
        self._namespaces[path] = spaces
        return table, open_

    def _export_clauses(self, path: str) -> tuple[list[tuple[str, str]], bool]:
        """The module's ``export { a as b }`` of its own names (``(a, b)``), and whether it assigns
        its exports (``export = x``: any names); read from its text (a comment's too: more names,
        never fewer)."""
        try:
            text = (self.root / path).read_text(encoding="utf-8", errors="replace")
        except OSError:
            return [], True
        out: list[tuple[str, str]] = []
        for listed in _LOCAL_EXPORTS.findall(text):
            for item in listed.split(","):
                words = item.replace("type ", " ").split()
                if words:
                    out.append((words[0], words[-1]))  # (`a as b`: a, exported as b)
        return out, bool(_ASSIGNED_EXPORTS.search(text))


def _parsed(root: Path, path: str) -> tree_sitter.Tree | None:
    try:
        return parse(path, (root / path).read_bytes())
    except OSError:
        return None


def _given_away(
    tree: tree_sitter.Tree, alias: str, by_name: bool = False, default: bool = False
) -> int | None:
    """The first line where a module (``tree``), importing a namespace as ``alias`` (``by_name``:
    ``import { alias }`` of a namespace a module re-exports), reads it as a value other than
    ``alias.name`` / ``alias["name"]``, or calling it (a default import is no namespace, unless
    ``default``: a package's default export may be its ``export =`` namespace); None when it does
    not."""
    wanted = alias.encode()
    if not by_name and not any(node.text == wanted for node in _namespace_imports(tree.root_node, default)):
        return None
    found: list[int] = []
    pending = [tree.root_node]
    while pending:
        node = pending.pop()
        if node.type in ("import_statement", "comment", "string", "template_string"):
            continue
        if node.type in _NAMES and node.text == wanted and _as_value(node):
            found.append(node.start_point.row + 1)
        pending.extend(node.children)
    return min(found, default=None)


def _loaded(tree: tree_sitter.Tree, line: int) -> int | None:
    """The line where the namespace an ``import("…")`` on ``line`` loads is read as a value other
    than one export (``(await import("./m")).name``, ``const { name } = await import("./m")``, a
    local it is given to read only so); None when it is not."""
    row = line - 1
    found: list[int] = []
    pending = [tree.root_node]
    while pending:
        node = pending.pop()
        if node.start_point.row > row or node.end_point.row < row:
            continue
        function = node.child_by_field_name("function") if node.type == "call_expression" else None
        if function is None or function.type != "import" or node.start_point.row != row:
            pending.extend(node.children)
            continue
        value = node
        while value.parent is not None and value.parent.type in (
            "await_expression",
            "parenthesized_expression",
        ):
            value = value.parent
        parent = value.parent
        if parent is None:
            continue
        if parent.type in ("member_expression", "subscript_expression") and parent.named_children[0] == value:
            index = parent.child_by_field_name("index")
            if parent.type == "member_expression" or (index is not None and index.type == "string"):
                continue  # one export
        if parent.type == "variable_declarator" and parent.child_by_field_name("value") == value:
            name = parent.child_by_field_name("name")
            if name is not None and name.type == "object_pattern":
                continue  # `const { resolve } = await import(…)`: exports by name
            if name is not None and name.type == "identifier":
                given = _given_away(tree, (name.text or b"").decode(), by_name=True)
                if given is not None:
                    found.append(given)
                continue
        found.append(node.start_point.row + 1)
    return min(found, default=None)


def _namespace_imports(root: tree_sitter.Node, default: bool = False) -> list[tree_sitter.Node]:
    """The names ``import * as name`` statements of a module bind (``default``: and ``import name
    from``)."""
    out: list[tree_sitter.Node] = []
    for statement in root.named_children:
        if statement.type != "import_statement":
            continue
        for clause in statement.named_children:
            for part in clause.named_children if clause.type == "import_clause" else ():
                if part.type == "namespace_import":
                    out += [c for c in part.named_children if c.type == "identifier"]
                elif default and part.type == "identifier":
                    out.append(part)
    return out


def _as_value(node: tree_sitter.Node) -> bool:
    """Whether an identifier naming the namespace gives the namespace object away."""
    parent = node.parent
    if parent is None:
        return False
    if parent.type in _MEMBER_READS and parent.named_children and parent.named_children[0] == node:
        return False  # `ns.name`, `ns.Type`
    if parent.type == "call_expression" and parent.child_by_field_name("function") == node:
        return False  # `ns()` (a default import called)
    if parent.type == "new_expression" and parent.child_by_field_name("constructor") == node:
        return False
    if parent.type == "subscript_expression" and parent.child_by_field_name("object") == node:
        index = parent.child_by_field_name("index")
        return index is None or index.type != "string"  # `ns["name"]`: one export
    return True
