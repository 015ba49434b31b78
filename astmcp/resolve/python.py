"""Python linker: resolves the per-file chains of :mod:`astmcp.resolve.python_facts`
across the project and writes ``refs``, ``edges``, ``imports.resolved_path``.

Entities met while resolving a chain:
``("m", file)`` module, ``("d", folder)`` namespace package, ``("s", id)`` symbol,
``("i", id)`` instance of a class, ``("u", id)`` ``super()`` of a class,
``("x", name)`` something outside the project (or no symbol), ``None`` unknown.

Incremental: each linked file records what its resolution consulted
(``link_deps``): a module's top-level name ``path::name`` (the name's symbols and
per-name facts), or the whole ``path`` (its star imports, ``__all__``, unions,
fixtures); a change re-links the changed files and the files that consulted what
changed, not the project.
"""

from __future__ import annotations

import json
import posixpath
import sqlite3
from collections.abc import Callable, Iterable
from typing import Any

from astmcp.index.indexer import Changes
from astmcp.model import PYTHON
from astmcp.resolve.python_external import class_defines
from astmcp.resolve.python_facts import NAME as FACTS
from astmcp.resolve.python_modules import ModuleMap, is_package, path_key, twin
from astmcp.resolve.tracking import Tracking

Entity = tuple[str, Any] | None
# stored before a chain whose receiver resolved to nothing known: such a `name` hit is as
# untyped as one without a chain (the unique-member rule may make it `likely`)
UNKNOWN_RECEIVER = "?"
_EDGE_KIND = {
    "call": "calls",
    "import": "imports",
    "export": "imports",
    "inherit": "inherits",
    "read": "references",
    "write": "references",
    "attribute": "references",
    "type": "references",
    "string": "references",
}
# container methods that give no item (`xs.pop()`, `m.get(k)` may be a project object: unknown)
_NO_ITEM_METHODS = frozenset(
    {
        "append",
        "extend",
        "insert",
        "remove",
        "clear",
        "sort",
        "reverse",
        "index",
        "count",
        "add",
        "discard",
        "update",
        "keys",
        "issubset",
        "issuperset",
        "isdisjoint",
    }
)
# pytest's own fixtures: outside the project unless a conftest.py or the module defines the name
_PYTEST_FIXTURES = frozenset(
    {
        "request",
        "tmp_path",
        "tmp_path_factory",
        "tmpdir",
        "tmpdir_factory",
        "monkeypatch",
        "capsys",
        "capsysbinary",
        "capfd",
        "capfdbinary",
        "caplog",
        "recwarn",
        "pytestconfig",
        "record_property",
        "record_xml_attribute",
        "record_testsuite_property",
        "pytester",
        "testdir",
        "cache",
        "doctest_namespace",
    }
)
_CLASSLIKE = ("class",)
_VALUED = ("variable", "attribute")
_CALLABLE = ("function", "method", "property")


class _Sym:
    __slots__ = ("id", "kind", "line", "name_col", "name_line", "path", "symbol_path")

    def __init__(self, row: tuple[Any, ...], path: str) -> None:
        self.id, self.symbol_path, self.kind, self.line, self.name_line, self.name_col = row
        self.path = path


class Resolver(Tracking[tuple[str, Any]]):
    """Lazy, memoised resolution over the index; one instance per link run."""

    def __init__(self, conn: sqlite3.Connection, fresh: dict[str, dict[str, Any]]) -> None:
        self.conn = conn
        self.fresh = fresh
        self.file_ids: dict[str, int] = {
            r[0]: r[1] for r in conn.execute("SELECT path, id FROM files WHERE language = ?", (PYTHON,))
        }
        self.modules = _module_map(frozenset(self.file_ids))
        self._facts: dict[str, dict[str, Any]] = {}
        self._tables: dict[str, dict[str, list[_Sym]]] = {}
        self.syms: dict[int, _Sym] = {}
        # A result cut short by a cycle, or resting on an assumption, is not final: not memoised.
        Tracking.__init__(self, keep_cut_short=False)
        # unions being checked: the value assumed for a use of the union inside its own alternatives
        self._assumed: dict[tuple[Any, ...], Entity] = {}
        self._settled: set[tuple[Any, ...]] = set()  # unions whose assumption held: memoised anyway
        self._assumption_uses = 0

    # -- per-file data -----------------------------------------------------------
    def facts(self, path: str) -> dict[str, Any]:
        found = self._facts.get(path)
        if found is None:
            found = self.fresh.get(path)
            if found is None:
                row = self.conn.execute("SELECT data FROM module_facts WHERE path = ?", (path,)).fetchone()
                found = json.loads(row[0]) if row else {}
            self._facts[path] = found
        return found

    def table(self, path: str) -> dict[str, list[_Sym]]:
        found = self._tables.get(path)
        if found is None:
            found = {}
            file_id = self.file_ids.get(path)
            if file_id is not None:
                for row in self.conn.execute(
                    "SELECT id, symbol_path, kind, line, name_line, name_col FROM symbols"
                    " WHERE file_id = ? ORDER BY line",
                    (file_id,),
                ):
                    sym = _Sym(row, path)
                    self.syms[sym.id] = sym
                    found.setdefault(sym.symbol_path, []).append(sym)
            self._tables[path] = found
        return found

    def symbol(self, path: str, symbol_path: str) -> _Sym | None:
        self.deps.add(name_dep(path, symbol_path))
        found = self.table(path).get(symbol_path)
        return found[0] if found else None

    # -- memo with dependency tracking --------------------------------------------
    def provisional(self) -> int:
        # both only grow: the sum is unchanged exactly when neither a cycle nor an assumption was met
        return self._cycles + self._assumption_uses

    def settled(self, key: tuple[Any, ...]) -> bool:
        return key in self._settled

    # -- chains ------------------------------------------------------------------
    def resolve(self, path: str, chain: str) -> Entity:
        key = ("c", path, chain)
        hit = self._memo.get(key)
        if hit is not None:
            if hit[1]:
                self.deps |= hit[1]
            return hit[0]
        if key in self._assumed:
            self._assumption_uses += 1  # what depends on an assumption is not memoised
            return self._assumed[key]
        return self._tracked(key, lambda: self._resolve(path, chain))

    def _resolve(self, path: str, chain: str) -> Entity:
        head, sep, step = chain.rpartition("/")
        if sep:
            return self.step(self.resolve(path, head), step)
        return self.base(path, chain)

    def base(self, path: str, chain: str) -> Entity:
        tag = chain[0]
        if tag == "S":
            sym = self.symbol(path, chain[2:])
            return ("s", sym.id) if sym else ("x", "")
        if tag == "I":
            _, level, module, name = chain.split(":", 3)
            mod = self.module(path, int(level), module)
            if not name:
                return mod
            if mod is None or mod[0] == "x":
                return ("x", f"{module}.{name}")
            member = self.member(mod, name)
            if member is None and mod[0] == "m":  # `from ns import sub` of a namespace sibling
                return ("x", f"{module}.{name}")
            return member
        if tag == "D":
            return self.module(path, 0, chain[2:])
        if tag == "L":
            return ("x", chain[2:])
        if tag in "UOG":
            self.deps.add(path)  # the module's unions, star imports
        if tag == "U":
            return self.union(path, chain, self.facts(path).get("unions", [])[int(chain[2:])])
        if tag == "F":
            return self.fixture(path, chain[2:])
        if tag == "O":
            operands = self.facts(path).get("unions", [])[int(chain[2:])]
            outside = all(_alike(self.deref(self.resolve(path, c))) == ("x", "") for c in operands)
            return ("x", "") if outside else None
        if tag == "G":
            name = chain[2:]
            for star in self.facts(path).get("star", ()):
                mod = self.resolve(path, star)
                if mod is not None and mod[0] in ("m", "d"):
                    found = self.member(mod, name, exported_only=True)
                    if found is not None and found[0] != "x":
                        return found
            return ("x", name)
        return None

    def union(self, path: str, union: str, chains: list[str]) -> Entity:
        """A value that is any of ``chains``: what they all resolve to, else unknown (values
        outside the project alike are outside). Alternatives that use the value itself
        (``x = x or X()``, ``opts = opts.copy()``) must give it back when it is assumed."""
        found: set[Entity] = set()
        recursive = []
        for chain in chains:
            cycles = self._cycles
            entity = _alike(self.deref(self.resolve(path, chain)))  # a property, variable: what it holds
            if self._cycles != cycles:  # cut short by a cycle (`U:1/items/()/[]#1/*m`)
                recursive.append(chain)
            else:
                found.add(entity)
        if None in found or len(found) != 1:
            return None
        value = found.pop()
        if recursive:
            # the uses outside (`x.copy` while resolving x) are computed again under the assumption
            key = ("c", path, union)
            self._assumed[key] = value
            outer, self._busy = self._busy, {key}
            try:
                if any(_alike(self.deref(self.resolve(path, chain))) != value for chain in recursive):
                    return None
            finally:
                del self._assumed[key]
                self._busy = outer
            if not self._assumed:  # inside another union's check the result rests on its assumption
                self._settled.add(key)
        return value

    def fixture(self, path: str, name: str) -> Entity:
        """The value of the pytest fixture ``name`` for a test in ``path``: the module's own,
        else the nearest ``conftest.py`` up the folders'."""
        self.deps.add(path)
        chain = self.facts(path).get("fixtures", {}).get(name)
        if chain is not None:
            return self.resolve(path, chain)
        folder = posixpath.dirname(path)
        while True:
            conftest = f"{folder}/conftest.py" if folder else "conftest.py"
            if conftest in self.file_ids:
                self.deps.add(conftest)
                if self.facts(conftest).get("generates"):
                    return None  # its pytest_generate_tests may parametrize any argument
                chain = self.facts(conftest).get("fixtures", {}).get(name)
                if chain is not None:
                    return self.resolve(conftest, chain)
            else:
                self.deps.add("?@" + path_key(conftest))
            if not folder:
                break
            folder = posixpath.dirname(folder)
        return ("x", f"pytest.{name}") if name in _PYTEST_FIXTURES else None

    def module(self, path: str, level: int, module: str) -> Entity:
        if level:
            found = self.modules.relative(path, level, module)
            if found is None:
                folder = posixpath.dirname(path)
                for _ in range(level - 1):
                    folder = posixpath.dirname(folder)
                self.deps.add("?@" + "/".join(p for p in [folder, *module.split(".")] if p))
                return ("x", module)
        else:
            found = self.modules.absolute(module, path)
            if found is None:
                self.deps.add("?" + module)
                return ("x", module)
        if found[0] == "m":
            self.deps.add(found[1])
        else:
            self.deps.add("?@" + found[1])
        return found

    def deref(self, entity: Entity) -> Entity:
        """What a variable/attribute/property symbol holds, for a step applied to it."""
        if entity is None or entity[0] != "s":
            return entity
        sym = self.syms[entity[1]]
        if sym.kind in _VALUED:
            chain = self.facts(sym.path).get("vtypes", {}).get(sym.symbol_path)
            return self.resolve(sym.path, chain) if chain else None
        if sym.kind == "property":
            chain = self.facts(sym.path).get("rtypes", {}).get(sym.symbol_path)
            return self.resolve(sym.path, chain) if chain else None
        return entity

    def step(self, entity: Entity, step: str) -> Entity:
        if entity is None:
            # `list[Alias]`: a list whatever its items are
            return ("e", (step[1], None)) if step in ("*s", "*m") else None
        if step[0] in "*[":
            return self.item_step(self.deref(entity), step)
        if entity[0] == "x":
            return ("x", f"{entity[1]}.{step}") if entity[1] else ("x", "")
        entity = self.deref(entity)
        if entity is None:
            return None
        tag, value = entity
        if tag == "e":
            return self.item_step(entity, step)
        if tag == "x":
            return ("x", f"{value}.{step}")
        if step == "()":
            if tag != "s":
                return None
            sym = self.syms[value]
            if sym.kind in _CLASSLIKE:
                return ("i", value)
            if sym.kind in _CALLABLE:
                chain = self.facts(sym.path).get("rtypes", {}).get(sym.symbol_path)
                return self.resolve(sym.path, chain) if chain else None
            return None
        if step[0] == "=":
            if tag != "s" or self.syms[value].kind not in _CLASSLIKE:
                return ("x", "")
            init = self.class_member(value, "__init__", skip_self=False)
            if init is not None and init[0] == "s":
                return ("x", "")  # a parameter of a hand-written __init__, no symbol
            field = self.class_member(value, step[1:], skip_self=False)
            if field is not None and field[0] == "s" and self.syms[field[1]].kind == "attribute":
                return field
            return ("x", "")
        if step == "^":
            if tag == "s" and self.syms[value].kind in _CLASSLIKE:
                return ("u", value)
            return None
        if tag in ("m", "d"):
            return self.member(entity, step)
        if tag in ("s", "i"):
            if self.syms[value].kind not in _CLASSLIKE:
                return None
            return self.class_member(value, step, skip_self=False)
        if tag == "u":
            return self.class_member(value, step, skip_self=True)
        return None

    def item_step(self, entity: Entity, step: str) -> Entity:
        """Steps through annotated containers: ``*s`` / ``*m`` make a sequence of / a mapping
        to the entity; ``[]`` iterates, ``[]#n`` takes the n-th of each item, ``[i]`` subscripts.
        A container's own methods are outside the project; an item of anything else is unknown
        (``max(xs)[0]`` may be a project object)."""
        if entity is None:
            return None
        if step in ("*s", "*m"):
            return ("e", (step[1], entity))
        if entity[0] == "i" and step == "[]":
            # a project class iterates as its `__iter__` is annotated: `-> Iterator[Item]`
            method = self.class_member(entity[1], "__iter__", skip_self=False)
            if method is None or method[0] != "s":
                return None
            entity = self.step(method, "()")
            if entity is None or entity[0] != "e" or entity[1][0] != "s":
                return None
        if entity[0] != "e":
            return None
        kind: str = entity[1][0]
        item: Entity = entity[1][1]
        if kind == "s":
            if step in ("[]", "[i]"):
                return item
            return self.container_method(step, item)
        if kind == "m":
            if step == "[i]":
                return item
            if step in ("values", "items"):
                return ("e", (step, item))
            return self.container_method(step, item)
        if kind == "r":
            return None  # `xs.pop()`: an item or another value
        if step == "()":
            return ("e", ("s" if kind == "values" else "p", item))
        if kind == "p" and step == "[]#1":
            return item
        return None

    @staticmethod
    def container_method(step: str, item: Entity) -> Entity:
        """A member of a typed builtin container is the container's (outside the project);
        calling one that may give an item (``pop``, ``get``) gives an unknown value."""
        if step in _NO_ITEM_METHODS or step[0] in "[*=^(":
            return ("x", "") if step in _NO_ITEM_METHODS else None
        return ("e", ("r", item))

    # -- lookups -----------------------------------------------------------------
    def member(self, module: Entity, name: str, exported_only: bool = False) -> Entity:
        assert module is not None
        hit = self._memo.get(("m", module, name, exported_only))
        if hit is not None:
            self.deps |= hit[1]
            return hit[0]
        return self._tracked(
            ("m", module, name, exported_only), lambda: self._member(module, name, exported_only)
        )

    def _member(self, module: tuple[str, Any], name: str, exported_only: bool) -> Entity:
        tag, where = module
        if tag == "d":
            self.deps.add("?@" + f"{where}/{name}")
            child = self.modules.child(where, name)
            if child is not None and child[0] == "m":
                self.deps.add(child[1])
            return child
        path: str = where
        facts = self.facts(path)
        if exported_only:
            self.deps.add(path)  # its __all__
            names = facts.get("all")
            if names is not None and name not in names:
                return None
            if names is None and name.startswith("_"):
                return None
        sym = self.symbol(path, name)
        if sym is not None:
            return ("s", sym.id)
        fallback: Entity = None
        bind = facts.get("binds", {}).get(name)
        if bind:
            found = self.resolve(path, bind)
            if found is not None and found[0] != "x":
                return found
            fallback = found
        if is_package(path):
            folder = posixpath.dirname(path)
            self.deps.add("?@" + f"{folder}/{name}" if folder else "?@" + name)
            child = self.modules.child(folder, name)
            if child is not None:
                if child[0] == "m":
                    self.deps.add(child[1])
                return child
        self.deps.add(path)  # its star imports
        for star in facts.get("star", ()):
            mod = self.resolve(path, star)
            if mod is not None and mod[0] in ("m", "d"):
                found = self.member(mod, name, exported_only=True)
                if found is not None and found[0] != "x":
                    return found
        other = twin(path)
        if other in self.file_ids:
            sym = self.symbol(other, name)
            if sym is not None:
                return ("s", sym.id)
        return fallback

    def class_member(self, class_id: int, name: str, skip_self: bool) -> Entity:
        hit = self._memo.get(("k", class_id, name, skip_self))
        if hit is not None:
            self.deps |= hit[1]
            return hit[0]
        return self._tracked(
            ("k", class_id, name, skip_self), lambda: self._class_member(class_id, name, skip_self)
        )

    def _class_member(self, class_id: int, name: str, skip_self: bool) -> Entity:
        cls = self.syms[class_id]
        if not skip_self:
            sym = self.symbol(cls.path, f"{cls.symbol_path}.{name}")
            if sym is not None:
                return ("s", sym.id)
        external = False
        for base in self.facts(cls.path).get("bases", {}).get(cls.symbol_path, ()):
            found = self.deref_class(self.resolve(cls.path, base) if base else None)
            if found is None:
                continue
            if found[0] == "x":
                # an outside base is where the member lives unless its source shows it has none
                # (`Generic`, `ABC`, `object`): then the member is unknown, a name hit
                external = external or (bool(found[1]) and class_defines(found[1], name) is not False)
                continue
            if found[0] == "s":
                member = self.class_member(found[1], name, skip_self=False)
                if member is not None and member[0] != "x":
                    return member
                external = external or member is not None
        return ("x", f"?.{name}") if external else None

    def deref_class(self, entity: Entity) -> Entity:
        if entity is not None and entity[0] == "s":
            sym = self.syms[entity[1]]
            if sym.kind in _VALUED:
                return self.deref(entity)
            if sym.kind not in _CLASSLIKE:
                return None
        return entity


def _alike(entity: Entity) -> Entity:
    """An entity compared by what a step on it finds: things outside the project are alike
    whatever their names (``str`` and ``builtins.str.()``), containers by their items."""
    if entity is None:
        return None
    if entity[0] == "x":
        return ("x", "")
    if entity[0] == "e":
        return ("e", (entity[1][0], _alike(entity[1][1])))
    return entity


def _classify(
    resolver: Resolver, path: str, row: tuple[Any, ...], entity: Entity
) -> tuple[int | None, str, str]:
    """(symbol id, kind, confidence) of one occurrence."""
    _, line, col, _, kind, target, _ = row
    if target is None:
        return None, kind, "name"
    if target[0] == "D" and (entity is None or entity[0] != "s"):
        # a part of a dotted string that reaches no project symbol: the plain string rule
        name = row[0]
        return None, kind, ("name" if "_" in name.strip("_") else "none")
    if entity is None:
        # an attribute of an unknown receiver is a name hit; a keyword of an unknown callee is nothing
        last = target.rpartition("/")[2]
        return None, kind, ("name" if last and last[0] != "=" and "/" in target else "none")
    if entity[0] != "s":
        return None, kind, "none"
    sym = resolver.syms[entity[1]]
    if sym.name_line == line and sym.name_col == col and sym.path == path:
        kind = "definition"
    return sym.id, kind, "certain"


def untyped(target: str | None) -> bool:
    """Whether a stored ``target_key`` leaves the receiver unknown (no chain, or one resolving
    to nothing known)."""
    return target is None or target.startswith(UNKNOWN_RECEIVER)


def is_test_file(path: str) -> bool:
    """pytest/unittest naming: test_*.py, *_test.py, tests.py, conftest.py, or under tests/."""
    name = posixpath.basename(path)
    return (
        name.startswith("test_")
        or name.endswith(("_test.py", "_tests.py"))
        or name in ("tests.py", "conftest.py")
        or "/tests/" in f"/{path}"
        or "/test/" in f"/{path}"
    )


def _test_symbols(table: dict[str, list[_Sym]], facts: dict[str, Any]) -> set[str]:
    """Symbol paths of pytest/unittest tests in a test file."""
    bases = facts.get("bases", {})
    classes = set()
    for path, syms in table.items():
        if syms[0].kind != "class":
            continue
        name = path.rsplit(".", 1)[-1]
        base_names = [b.rsplit("/", 1)[-1].rsplit(":", 1)[-1] for b in bases.get(path, ())]
        if name.startswith("Test") or any(b.endswith(("TestCase", "Test", "Tests")) for b in base_names):
            classes.add(path)
    out = set(classes)
    for path, syms in table.items():
        if syms[0].kind not in ("function", "method"):
            continue
        parent, _, name = path.rpartition(".")
        if name.startswith("test") and (not parent or parent in classes):
            out.add(path)
    return out


class PythonLinker:
    def __call__(self, conn: sqlite3.Connection, changes: Changes) -> None:
        fresh: dict[str, dict[str, Any]] = {}
        for path, facts in changes.facts.items():
            if facts.language == PYTHON:
                fresh[path] = facts.extra.get(FACTS) or {"refs": []}
        if not fresh and not changes.removed_paths:
            return
        resolver = Resolver(conn, fresh)
        existing = conn.execute("SELECT 1 FROM module_facts LIMIT 1").fetchone() is not None
        for path in changes.removed_paths:
            conn.execute("DELETE FROM module_facts WHERE path = ?", (path,))
        reshaped: list[str] = []  # changed files whose module-wide facts changed
        renamed: list[str] = []  # `path::name` of top-level names whose symbols or facts changed
        id_map: list[tuple[int, int]] = []
        for path, payload in fresh.items():
            data = json.dumps(
                {k: v for k, v in payload.items() if k != "refs"}, separators=(",", ":"), sort_keys=True
            )
            symbols = [(sym.symbol_path, sym.kind, sym.id) for sym in _in_order(resolver.table(path))]
            old = conn.execute("SELECT data, symbols FROM module_facts WHERE path = ?", (path,)).fetchone()
            old_rest, old_names = _by_name(json.loads(old[0]), json.loads(old[1])) if old else ("", {})
            new_rest, new_names = _by_name(json.loads(data), symbols)
            if old is None or old_rest != new_rest:
                reshaped.append(path)
            else:
                # What others resolved into an unchanged name is unchanged but for symbol ids.
                for name in old_names.keys() | new_names.keys():
                    before, after = old_names.get(name), new_names.get(name)
                    if before is not None and after is not None and before[0] == after[0]:
                        id_map.extend(zip(before[1], after[1], strict=True))
                    else:
                        renamed.append(name_dep(path, name))
            conn.execute(
                "INSERT OR REPLACE INTO module_facts(path, data, symbols) VALUES (?, ?, ?)",
                (path, data, json.dumps(symbols, separators=(",", ":"))),
            )
        full = changes.full or not existing
        if full:
            targets = list(resolver.file_ids)
        else:
            _remap(conn, id_map)
            targets = sorted(
                set(fresh) | self.dependants(conn, resolver, [*reshaped, *changes.removed_paths], renamed)
            )
        # A bulk load is faster into unindexed tables; the indexes come back at the end.
        dropped = _drop_indexes(conn) if full else []
        try:
            for path in targets:
                if path in resolver.file_ids:
                    self.link_file(conn, resolver, path)
        finally:
            for sql in dropped:
                conn.execute(sql)

    @staticmethod
    def dependants(
        conn: sqlite3.Connection, resolver: Resolver, paths: Iterable[str], names: Iterable[str] = ()
    ) -> set[str]:
        """Files that consulted any of ``paths`` (whole modules: any of their names too)
        or any of ``names`` (``path::name`` keys)."""
        keys: set[str] = set(names)
        ids: set[int] = set()
        for path in paths:
            if not path.endswith((".py", ".pyi")):
                continue
            keys.add(path)
            keys.add("?@" + path_key(path))
            keys.update("?" + name for name in resolver.modules.names_of(path))
            prefix = name_dep(path, "")
            ids.update(
                row[0]
                for row in conn.execute(
                    "SELECT DISTINCT file_id FROM link_deps WHERE dep >= ? AND dep < ?",
                    (prefix, prefix[:-1] + chr(ord(prefix[-1]) + 1)),
                )
            )
        if keys:
            ids.update(
                row[0]
                for row in conn.execute(
                    f"SELECT DISTINCT file_id FROM link_deps WHERE dep IN ({','.join('?' * len(keys))})",
                    tuple(keys),
                )
            )
        by_id = {v: k for k, v in resolver.file_ids.items()}
        return {by_id[i] for i in ids if i in by_id}

    def link_file(self, conn: sqlite3.Connection, resolver: Resolver, path: str) -> None:
        file_id = resolver.file_ids[path]
        payload = resolver.fresh.get(path)
        # A dependant keeps its rows and gets only those whose resolution changed updated;
        # a changed file's rows went with its old version and are inserted here.
        stored: list[tuple[int, int | None, str, str, str | None]] = []
        if payload is not None:
            rows: list[tuple[Any, ...]] = [tuple(r) for r in payload.get("refs", ())]
        else:
            rows = []
            for row_id, symbol_id, confidence, *row in conn.execute(
                "SELECT id, symbol_id, confidence, name, line, col, end_col, kind, target_key, scope_path"
                " FROM refs WHERE file_id = ?",
                (file_id,),
            ):
                stored.append((row_id, symbol_id, row[4], confidence, row[5]))
                if row[5] and row[5].startswith(UNKNOWN_RECEIVER):
                    row[5] = row[5][1:]
                rows.append(tuple(row))
            conn.execute("DELETE FROM edges WHERE file_id = ?", (file_id,))
            conn.execute("DELETE FROM link_deps WHERE file_id = ?", (file_id,))
        resolver.deps = set()
        table = resolver.table(path)
        facts = resolver.facts(path)
        tests = _test_symbols(table, facts) if is_test_file(path) else set()
        out = []
        edges: dict[tuple[int | None, int | None, str | None, str], int] = {}
        for row in rows:
            name, line, col, end_col, kind, target, scope = row
            entity = resolver.resolve(path, target) if target is not None else None
            symbol_id, kind, confidence = _classify(resolver, path, row, entity)
            stored_target = target
            if confidence == "name" and target is not None and target[0] != "D" and "/" in target:
                receiver = target.rpartition("/")[0]
                if resolver.resolve(path, receiver) is None:
                    stored_target = UNKNOWN_RECEIVER + target
            out.append((file_id, symbol_id, stored_target, name, line, col, end_col, kind, confidence, scope))
            if kind == "definition" or confidence == "name":
                continue
            src_sym = table.get(scope) if scope else None
            src = src_sym[0].id if src_sym else None
            if symbol_id is not None:
                edge_kind = _EDGE_KIND.get(kind, "references")
                key = (src, symbol_id, None, edge_kind)
                edges.setdefault(key, line)
                if tests and scope and symbol_id != src:
                    test_path = _enclosing_test(scope, tests)
                    if test_path is not None and resolver.syms[symbol_id].symbol_path not in tests:
                        tsrc = table[test_path][0].id
                        edges.setdefault((tsrc, symbol_id, None, "tests"), line)
            elif kind == "inherit" and entity is not None and entity[0] == "x" and entity[1]:
                edges.setdefault((src, None, _external_name(target, entity[1]), "inherits"), line)
        for symbol_path, syms in table.items():
            parent = symbol_path.rpartition(".")[0]
            parent_syms = table.get(parent) if parent else None
            for sym in syms:
                edges.setdefault(
                    (parent_syms[0].id if parent_syms else None, sym.id, None, "contains"), sym.line
                )
        if payload is not None:
            conn.executemany(
                "INSERT INTO refs(file_id, symbol_id, target_key, name, line, col, end_col, kind, confidence,"
                " scope_path) VALUES (?,?,?,?,?,?,?,?,?,?)",
                out,
            )
        else:
            conn.executemany(
                "UPDATE refs SET symbol_id = ?, kind = ?, confidence = ?, target_key = ? WHERE id = ?",
                [
                    (new[1], new[7], new[8], new[2], old[0])
                    for old, new in zip(stored, out, strict=True)
                    if (old[1], old[2], old[3], old[4]) != (new[1], new[7], new[8], new[2])
                ],
            )
        conn.executemany(
            "INSERT INTO edges(file_id, src_symbol_id, dst_symbol_id, dst_key, kind, line) VALUES (?,?,?,?,?,?)",
            [(file_id, src, dst, key, kind, line) for (src, dst, key, kind), line in edges.items()],
        )
        self.resolve_imports(conn, resolver, path, file_id)
        own = name_dep(path, "")
        conn.executemany(
            "INSERT INTO link_deps(file_id, dep) VALUES (?, ?)",
            [(file_id, dep) for dep in sorted(resolver.deps) if dep != path and not dep.startswith(own)],
        )

    @staticmethod
    def resolve_imports(conn: sqlite3.Connection, resolver: Resolver, path: str, file_id: int) -> None:
        updates = []
        for import_id, module, name, level in conn.execute(
            "SELECT id, module, name, level FROM imports WHERE file_id = ?", (file_id,)
        ):
            found = resolver.module(path, level, module)
            target = found[1] if found is not None and found[0] == "m" else None
            if name and name != "*" and found is not None and found[0] in ("m", "d"):
                member = resolver.member(found, name)
                if member is not None and member[0] == "m" and (found[0] == "d" or is_package(found[1])):
                    target = member[1]
            updates.append((target, import_id))
        conn.executemany("UPDATE imports SET resolved_path = ? WHERE id = ?", updates)


_MODULE_MAPS: dict[frozenset[str], ModuleMap] = {}


def _module_map(paths: frozenset[str]) -> ModuleMap:
    """The module map of a set of paths, kept for the next refresh (most change no path)."""
    found = _MODULE_MAPS.get(paths)
    if found is None:
        _MODULE_MAPS.clear()
        found = _MODULE_MAPS[paths] = ModuleMap(sorted(paths))
    return found


def name_dep(path: str, symbol_path: str) -> str:
    """The ``link_deps`` key of the top-level name ``symbol_path`` is under in ``path``."""
    return f"{path}::{symbol_path.partition('.')[0]}"


# per-name facts (keyed by symbol path or top-level name); the rest is module-wide
_PER_NAME = ("binds", "vtypes", "rtypes", "bases")


def _by_name(data: dict[str, Any], symbols: list[Any]) -> tuple[str, dict[str, tuple[list[Any], list[int]]]]:
    """A module's facts split into the module-wide part (as JSON) and, per top-level name,
    what resolving it can read (its symbols' paths and kinds in order, its per-name facts)
    with its symbols' ids."""
    names: dict[str, tuple[list[Any], list[int]]] = {}
    for symbol_path, kind, symbol_id in symbols:
        found = names.setdefault(symbol_path.partition(".")[0], ([], []))
        found[0].append((symbol_path, kind))
        found[1].append(symbol_id)
    for key in _PER_NAME:
        for symbol_path, value in sorted(data.get(key, {}).items()):
            names.setdefault(symbol_path.partition(".")[0], ([], []))[0].append((key, symbol_path, value))
    rest = json.dumps({k: v for k, v in data.items() if k not in _PER_NAME}, sort_keys=True)
    return rest, names


def _in_order(table: dict[str, list[_Sym]]) -> list[_Sym]:
    return sorted((sym for syms in table.values() for sym in syms), key=lambda s: (s.line, s.name_col, s.id))


def _remap(conn: sqlite3.Connection, id_map: list[tuple[int, int]]) -> None:
    pairs = [(old, new) for old, new in id_map if old != new]
    if not pairs:
        return
    conn.execute(
        "CREATE TEMP TABLE IF NOT EXISTS symbol_remap (old INTEGER PRIMARY KEY, new INTEGER NOT NULL)"
    )
    conn.execute("DELETE FROM symbol_remap")
    conn.executemany("INSERT OR REPLACE INTO symbol_remap(old, new) VALUES (?, ?)", pairs)
    for table, column in (("refs", "symbol_id"), ("edges", "src_symbol_id"), ("edges", "dst_symbol_id")):
        conn.execute(
            f"UPDATE {table} SET {column} = (SELECT new FROM symbol_remap WHERE old = {table}.{column})"
            f" WHERE {column} IN (SELECT old FROM symbol_remap)"
        )
    conn.execute("DELETE FROM symbol_remap")


def _drop_indexes(conn: sqlite3.Connection) -> list[str]:
    rows = conn.execute(
        "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('refs', 'edges', 'link_deps')"
        " AND sql IS NOT NULL"
    ).fetchall()
    for name, _ in rows:
        conn.execute(f'DROP INDEX "{name}"')
    return [sql for _, sql in rows]


def _enclosing_test(scope: str, tests: set[str]) -> str | None:
    current = scope
    while current:
        if current in tests:
            return current
        current = current.rpartition(".")[0]
    return None


def _external_name(target: str, resolved: str) -> str:
    if target.startswith("G:"):
        return f"builtins.{resolved}" if "." not in resolved else resolved
    return resolved


def make_linker() -> Callable[[sqlite3.Connection, Changes], None]:
    return PythonLinker()
