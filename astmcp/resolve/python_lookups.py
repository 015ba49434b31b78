"""Lookups the Python resolver builds on: per-file facts and symbols, modules, module members
(re-exports, star imports, ``__all__``) and class members through project bases."""

from __future__ import annotations

import posixpath
import sqlite3
from abc import abstractmethod
from collections.abc import Iterator
from typing import Any

from astmcp.model import PYTHON
from astmcp.resolve.link_rows import cached_facts
from astmcp.resolve.python_external import class_defines, stdlib_lacks
from astmcp.resolve.python_modules import ModuleMap, is_package, twin
from astmcp.resolve.python_vocab import unknown_items
from astmcp.resolve.tracking import Tracking

Entity = tuple[Any, ...] | None  # (tag, value) or, bound by type arguments, (tag, id, bindings)
# a keyword argument landing in a `**kwargs` mapping its function uses opaquely: a name hit
OPAQUE_KEYWORD: Entity = ("k", "")
VALUED = ("variable", "attribute")  # symbols holding a value (vtypes)
CLASSLIKE = ("class",)
# a value that is one of several known things (``("e", ("v", frozenset(alternatives)))``)
_MAX_EITHER = 32
_MAX_DEREF = 8  # symbols holding symbols followed for a value
_MAX_ASSUMPTIONS = 3  # values assumed for a member given values made from its own


def either(entities: list[Entity]) -> Entity:
    """One of ``entities`` (all known): the one they agree on, else a union of them (nested
    unions spliced in); None when one is unknown or there are too many to follow."""
    found: set[Any] = set()
    for entity in entities:
        if entity is None:
            return None
        found.update(alternatives(entity))
    if len(found) == 1:
        return found.pop()  # type: ignore[no-any-return]
    if not found or len(found) > _MAX_EITHER:
        return None
    return ("e", ("v", frozenset(found)))


def alternatives(entity: Entity) -> list[Entity]:
    """The things ``entity`` may be: a union's alternatives, else itself."""
    if entity is not None and entity[0] == "e" and entity[1][0] == "v":
        return list(entity[1][1])
    return [entity]


def alike(entity: Entity) -> Entity:
    """An entity compared by what a step on it finds: things outside the project are alike
    whatever their names (``str`` and ``builtins.str.()``), containers by their items."""
    if entity is None:
        return None
    if entity[0] == "x":
        return ("x", "")
    if is_either(entity):
        return either([alike(alt) for alt in alternatives(entity)])
    if entity[0] == "e":  # a mapping's keys too
        return ("e", (entity[1][0], *(alike(part) for part in entity[1][1:])))
    return entity


def is_either(entity: Entity) -> bool:
    return entity is not None and entity[0] == "e" and entity[1][0] == "v"


class Sym:
    __slots__ = ("id", "kind", "line", "name_col", "name_line", "path", "symbol_path")

    def __init__(self, row: tuple[Any, ...], path: str) -> None:
        self.id, self.symbol_path, self.kind, self.line, self.name_line, self.name_col = row
        self.path = path


class ModuleLookups(Tracking[tuple[str, Any]]):
    """The resolver's per-file data and lookups (one instance per link run: see Resolver)."""

    def __init__(self, conn: sqlite3.Connection, fresh: dict[str, dict[str, Any]]) -> None:
        self.conn = conn
        self.fresh = fresh
        self.file_ids: dict[str, int] = {
            r[0]: r[1] for r in conn.execute("SELECT path, id FROM files WHERE language = ?", (PYTHON,))
        }
        self.modules = _module_map(frozenset(self.file_ids))
        self._facts: dict[str, dict[str, Any]] = {}
        self._tables: dict[str, dict[str, list[Sym]]] = {}
        self.syms: dict[int, Sym] = {}
        # values files give variables and attributes elsewhere (table py_values): by target key,
        # (the giving file, its value: None changed in place, "" unknown, "@<symbol path>", a chain)
        self.stores: dict[str, list[tuple[str, str | None]]] | None = None
        self._valuing: dict[int, Entity] = {}  # members being valued -> the value assumed
        # A result cut short by a cycle, or resting on an assumption, is not final: not memoised.
        Tracking.__init__(self, keep_cut_short=False)
        # unions being checked: the value assumed for a use of the union inside its own alternatives
        self._assumed: dict[tuple[Any, ...], Entity] = {}
        self._settled: set[tuple[Any, ...]] = set()  # unions whose assumption held: memoised anyway
        self._assumption_uses = 0

    # Resolving a chain (python_resolver), which lookups of re-exports and bases need.
    @abstractmethod
    def resolve(self, path: str, chain: str) -> Entity: ...

    def facts(self, path: str) -> dict[str, Any]:
        return cached_facts(self.conn, self._facts, self.fresh, path)

    def table(self, path: str) -> dict[str, list[Sym]]:
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
                    sym = Sym(row, path)
                    self.syms[sym.id] = sym
                    found.setdefault(sym.symbol_path, []).append(sym)
            self._tables[path] = found
        return found

    def symbol(self, path: str, symbol_path: str) -> Sym | None:
        self.deps.add(name_dep(path, symbol_path))
        found = self.table(path).get(symbol_path)
        return found[0] if found else None

    def imports_own_submodule(self, path: str, bind: str, name: str) -> bool:
        """Whether the package ``path`` (an ``__init__``) binds ``name`` by importing it from
        itself (``from . import name``, ``from pkg import name``): a submodule when there is one."""
        if not bind.startswith("I:") or not bind.endswith(":" + name):
            return False
        _, level, module, _ = bind.split(":", 3)
        relative = level == "1" and not module
        if not relative and not (level == "0" and module in self.modules.names_of(path)):
            return False
        folder = posixpath.dirname(path)
        self.deps.add("?@" + f"{folder}/{name}" if folder else "?@" + name)
        return self.modules.child(folder, name) is not None

    def provisional(self) -> int:
        # both only grow: the sum is unchanged exactly when neither a cycle nor an assumption was met
        return self._cycles + self._assumption_uses

    def settled(self, key: tuple[Any, ...]) -> bool:
        return key in self._settled

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
        """What a variable/attribute/property symbol holds, for a step applied to it; what that
        holds in turn when it is another such symbol (a property returning ``self._src.current``,
        itself a property: the value that one gives)."""
        for _ in range(_MAX_DEREF):
            if entity is None or entity[0] != "s":
                return entity
            sym = self.syms[entity[1]]
            if sym.kind in VALUED:
                held = self.value_of(sym)
            elif sym.kind == "property":
                chain = self.facts(sym.path).get("rtypes", {}).get(sym.symbol_path)
                made = self.resolve(sym.path, chain) if chain else None
                stub = self.stub_twin(sym) if made is None else None
                if stub is not None and stub.kind == "property":  # annotated in the stub beside
                    chain = self.facts(stub.path).get("rtypes", {}).get(stub.symbol_path)
                    made = self.resolve(stub.path, chain) if chain else None
                held = self.overridden_return(sym, made, None)
            else:
                return entity
            if held is None or held[0] != "s" or len(held) != 2 or held == entity:
                return held
            if self.syms[held[1]].kind not in VALUED and self.syms[held[1]].kind != "property":
                return held
            entity = held
        return None  # values holding one another

    def stub_twin(self, sym: Sym) -> Sym | None:
        """The declaration of the ``.py`` symbol ``sym`` in the stub beside it (``m.pyi``), whose
        annotations type what the source leaves untyped, as a type checker reads them."""
        if not sym.path.endswith(".py"):
            return None
        other = twin(sym.path)
        return self.symbol(other, sym.symbol_path) if other in self.file_ids else None

    def overridden_return(self, sym: Sym, made: Entity, shape: str | None) -> Entity:
        """``made``, or what the overrides of the method or property ``sym`` in the project's
        subclasses give too (the resolver follows them)."""
        return made

    def value_chain(self, sym: Sym) -> str | None:
        """A variable's or attribute's own value chain (``vtypes``), its items unknown when a
        file changes it in place (``from m import REG; REG.append(x)``: the display is not all it
        holds; changes inside its own module are judged by the fact pass). A declared one holds
        what its annotation says."""
        facts = self.facts(sym.path)
        chain: str | None = facts.get("vtypes", {}).get(sym.symbol_path)
        if chain is None or sym.symbol_path in facts.get("vkept", ()):
            return chain
        if any(value is None for _, value in self.stored(sym)):
            return unknown_items(chain)
        return chain

    def value_of(self, sym: Sym) -> Entity:
        """What a variable or attribute holds: its own value (:meth:`value_chain`), or any value
        other files set (``holder.handler = B()``), a project subclass's member overriding it
        holds (``class Sub(Holder): handler = B()``) or a base's member it overrides holds
        (:meth:`inherited`); unknown when one of those is. A declared
        one holds what its annotation says. A value given from its own (``frame.symbols =
        self.symbols.copy()``) is taken with the value assumed, which must then hold."""
        chain = self.value_chain(sym)
        own = self.resolve(sym.path, chain) if chain else None
        stub = self.stub_twin(sym) if own is None else None
        if stub is not None and stub.kind in VALUED:
            # `self.parser = parser` of an untyped parameter, `parser: Parser` in the stub beside
            stub_chain = self.facts(stub.path).get("vtypes", {}).get(stub.symbol_path)
            own = self.resolve(stub.path, stub_chain) if stub_chain else None
        if own is None or sym.symbol_path in self.facts(sym.path).get("vkept", ()):
            return own
        given = [(path, value) for path, value in self.stored(sym) if value is not None]
        given += self.inherited(sym)
        if not given:
            return own
        if sym.id in self._valuing:  # used in a value given to it: as assumed
            self._assumption_uses += 1
            return self._valuing[sym.id]
        assumed = own
        for _ in range(_MAX_ASSUMPTIONS):
            self._valuing[sym.id] = assumed
            uses = self._assumption_uses
            # what is being resolved around this (`frame.symbols.copy` itself) is resolved anew
            outer, self._busy = self._busy, set()
            try:
                found = self._given(own, given)
            finally:
                del self._valuing[sym.id]
                self._busy = outer
            if found is None or found == assumed or self._assumption_uses == uses:
                return found
            assumed = found
        return None

    def _given(self, own: Entity, given: list[tuple[str, str]]) -> Entity:
        """``own`` when every given value is alike (what a step on it finds), else one of them
        all, each taken for what it holds (unknown when one is unknown, unless it is a base's
        member's, ``~``: :meth:`inherited`)."""
        values: list[Entity] = [self.deref(own)]
        for path, value in given:
            self.deps.add(path)
            if not value:
                return None
            if value[0] in "@~":
                other = self.symbol(path, value[1:])
                held = self.deref(self.value_of(other)) if other is not None else None
                if held is not None or value[0] == "@":
                    values.append(held)
            else:
                values.append(self.deref(self.resolve(path, value)))
        if None in values:
            return None
        first = alike(values[0])
        if all(alike(v) == first for v in values[1:]):
            return own
        return either(values)

    def stored(self, sym: Sym) -> list[tuple[str, str | None]]:
        """The values other files (or classes) give ``sym`` (table ``py_values``)."""
        if self.stores is None:
            self.stores = {}
            for path, target, value in self.conn.execute("SELECT path, target, value FROM py_values"):
                self.stores.setdefault(target, []).append((path, value))
        return self.stores.get(f"{sym.path}::{sym.symbol_path}", [])

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
        if bind and is_package(path) and self.imports_own_submodule(path, bind, name):
            bind = None  # `from . import fields` in the package's __init__: the submodule, below
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
            if sym is None and cls.path.endswith(".pyi") and twin(cls.path) in self.file_ids:
                # a class of a stub (a type the stub beside the source declares) has what its
                # source's class has, private members the stub leaves out too
                sym = self.symbol(twin(cls.path), f"{cls.symbol_path}.{name}")
            if sym is not None:
                return ("s", sym.id)
        external = ""  # "?" then the outside class the member is inherited from, when known
        for base in self.facts(cls.path).get("bases", {}).get(cls.symbol_path, ()):
            found = self.deref_class(self.resolve(cls.path, base) if base else None)
            if found is None:
                continue
            if found[0] == "x":
                # an outside base is where the member lives unless its source shows it has none
                # (`Generic`, `ABC`, `object`): then the member is unknown, a name hit
                has = class_defines(found[1], name) if found[1] else None
                if has is None and found[1] and stdlib_lacks(found[1], name):
                    has = False  # a compiled stdlib class without it (`datetime.tzinfo`)
                if has is not False and not external:
                    external = f"?{found[1]}" if has else "?"
                continue
            if found[0] == "s":
                member = self.class_member(found[1], name, skip_self=False)
                if member is not None and member[0] != "x":
                    return member
                if member is not None and not external:
                    external = str(member[1]).rpartition(".")[0] or "?"
        # `?werkzeug.test.Client.get`: a member of that outside class (python_resolver.step reads
        # what calling it gives); `?.name`: of an outside class not known
        return ("x", f"{external}.{name}") if external else None

    def overridden(self, cls: Sym, name: str) -> Iterator[Sym]:
        """The nearest variables or attributes ``name`` of ``cls``'s project bases, on each path up."""
        seen = {cls.id}
        todo = [cls]
        while todo:
            current = todo.pop()
            for base in self.facts(current.path).get("bases", {}).get(current.symbol_path, ()):
                found = self.deref_class(self.resolve(current.path, base) if base else None)
                if found is None or found[0] != "s" or found[1] in seen:
                    continue
                seen.add(found[1])
                base_cls = self.syms[found[1]]
                if base_cls.kind not in CLASSLIKE:
                    continue
                member = self.symbol(base_cls.path, f"{base_cls.symbol_path}.{name}")
                if member is None:
                    todo.append(base_cls)
                elif member.kind in VALUED:
                    yield member

    def inherited(self, sym: Sym) -> list[tuple[str, str]]:
        """The values a class's variable or attribute may hold through the bases' members it
        overrides (``~<symbol path>`` in the base's file): ``self.item`` of a Sub that sets it only
        in some of its methods reads a base's class attribute ``item = Doc()`` until then, and a
        base's ``__init__`` may set it after a class attribute of Sub's. A base's member only ever
        set to None adds nothing (fact ``vnone``), nor does one whose value is not known (mistune's
        ``Parser.state_cls: Type[ST]`` beside ``BlockParser.state_cls = BlockState``)."""
        owner_path, _, name = sym.symbol_path.rpartition(".")
        owner = self.symbol(sym.path, owner_path) if owner_path else None
        if owner is None or owner.kind not in CLASSLIKE:
            return []
        return [
            (base.path, "~" + base.symbol_path)
            for base in self.overridden(owner, name)
            if base.symbol_path not in self.facts(base.path).get("vnone", ())
        ]

    def deref_class(self, entity: Entity) -> Entity:
        if entity is not None and entity[0] == "s":
            sym = self.syms[entity[1]]
            if sym.kind in VALUED:
                return self.deref(entity)
            if sym.kind not in CLASSLIKE:
                return None
        return entity


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
