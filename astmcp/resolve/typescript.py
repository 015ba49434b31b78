"""TS/JS linker: resolves the chains of :mod:`astmcp.resolve.ts_facts` across files
(through ``imports.resolved_path``, export clauses and ``export *`` barrels) and
writes ``refs`` and ``edges`` in the shape the Python linker uses.

Entities: ``("m", path)`` a module, ``("s", id)`` a symbol, ``("i", id)`` an
instance of a class/interface, ``("x", name)`` something outside the project (``("b", name)``
a standard global such as ``Object`` or its instance, ``("z", name)`` one of its members)
(or no symbol), ``("r", element)`` an array whose elements are instances of the
declaration ``element``, ``("p", value)`` a promise of instances of ``value``, ``("l", array,
method)`` a library method of such an array (``xs.find``), promise (``p.then``) or map,
``("g", entries)`` a map whose entries are the tuple type ``entries``, ``("T", parts)`` a
tuple of instances (what ``Promise.all([a(), b()])`` settles to), ``("Y", value)`` a settled
result of ``Promise.allSettled`` (``value`` an instance or None),
``None`` unknown. An instance of a generic declaration and a member
reached through it carry the type parameters' bindings as a third item (type
arguments of the reference, the rest defaults), so ``def.in`` with ``in: A`` is typed
by what ``A`` is bound to.

Incremental: each linked file records in ``link_deps`` the files its resolution
consulted; a change re-links the changed files and those that consulted them.
Adding or removing a TS/JS file, or a config change, re-links the whole project
(a specifier may now resolve elsewhere).
"""

from __future__ import annotations

import json
import posixpath
import re
import sqlite3
from collections.abc import Callable, Iterable
from typing import Any

from astmcp.index.indexer import Changes
from astmcp.resolve.link_rows import cached_facts, drop_indexes, remap_symbol_ids
from astmcp.resolve.python import UNKNOWN_RECEIVER
from astmcp.resolve.templates import TEMPLATE
from astmcp.resolve.tracking import Tracking
from astmcp.resolve.ts_descriptors import INDEXED, KEYS, REST_PARTS
from astmcp.resolve.ts_fact_state import SELF_MODULE, is_ident
from astmcp.resolve.ts_facts import LOCAL_FIELDS, UNTYPED_KEY
from astmcp.resolve.ts_facts import NAME as FACTS
from astmcp.resolve.ts_library import (
    ARRAY_METHODS,
    ARRAY_TAKERS,
    GLOBAL_OBJECTS,
    JS_LIBRARY_MEMBERS,
    LIBRARY_TYPE_MEMBERS,
    MAP_METHODS,
    global_type_names,
    lib_global_types,
    lib_member_result,
)
from astmcp.resolve.ts_packages import (
    PackageFunction,
    own_package_names,
    package_constructor,
    package_function,
    package_member,
    package_name,
    package_overloads,
    package_parameter_closed,
    project_root,
    qualified_spec,
)
from astmcp.resolve.ts_reach import FIELD as REACH
from astmcp.resolve.ts_scopes import EVERY_SINK, GLOBAL, MAPPED, SAME_RETURNS, SPREAD_FALLBACK
from astmcp.resolve.ts_shape import name_shapes, shape
from astmcp.resolve.ts_types import (
    CALLABLE,
    CLASSLIKE,
    HOLDS_PROJECT,
    THIS,
    TYPED,
    Entity,
    Subst,
    Sym,
    Table,
    TypeSteps,
    common_entity,
    frozen,
    one_alternative,
    unknown_alternative,
)
from astmcp.resolve.ts_types import alternatives as _alternatives

_LANGUAGES = ("typescript", "javascript")
# The library interfaces behind arrays, maps, sets and promises (a project declaring one extends them).
_SETTLED_TYPES = frozenset({"PromiseSettledResult", "PromiseFulfilledResult", "PromiseRejectedResult"})
_CONTAINER_TYPES = frozenset(
    {
        "Array",
        "ReadonlyArray",
        "Map",
        "ReadonlyMap",
        "WeakMap",
        "Set",
        "ReadonlySet",
        "Promise",
        "PromiseLike",
    }
)
# The library interfaces a project may extend for the standard globals (`declare global {
# interface SymbolConstructor { … } }`), and the link_deps key of the files that read one.
_GLOBAL_TYPES = (
    frozenset(t for name in GLOBAL_OBJECTS for t in global_type_names(name))
    | _CONTAINER_TYPES
    | lib_global_types()
)
_GLOBAL_DEP = f"{GLOBAL}*"
# what a file consults when it asks which packages the project augments (`declare module "pkg"`)
_AUGMENT_DEP = "<augments>"
# sources TypeScript checks: what a lib member gives is followed there alone
_TYPED_SOURCES = (".ts", ".tsx", ".mts", ".cts")
JS_GLOBAL = "js:global."  # the dst_key of an inherits edge to a standard global (`js:global.Error`)
_EDGE_KIND = {
    "call": "calls",
    "import": "imports",
    "export": "imports",
    "inherit": "inherits",
}
_BULK = 500
_UNSEEN: Any = object()
_NO_SYMBOL = ("x", "")
# `o.port` of `const o = { port: … }`: the literal's own key, no symbol; what it holds is not known here
_OWN_KEY = ("x", "", "own key")
# A member an object type written out does not declare (it has no index signature): no project
# symbol when read (`params.coerce` of `Raw & { coerce?: true }` is the written-out part's), a name
# hit as an object literal's key (excess keys pass where the type is a type parameter's constraint)
_UNDECLARED = ("x", "", "undeclared")
# aliases one outermost generic alias may unfold (each once per bindings): in zod, router-core and
# redux-toolkit none needs 40 (measured); @tanstack/form-core's recursive `DeepKeysAndValuesImpl`
# would unfold exponentially (its index ran over 15 minutes without finishing)
_ALIAS_WORK = 500
# the chain of a type reference by name, with its type arguments or none (`P:3:18|:/12:40`)
_NAMED_TYPE = re.compile(r"([^|]+)\|:(?:/[\d:]+)?")
# the library methods whose first argument is an event's name (`el.addEventListener("click", f)`)
_LISTENERS = frozenset({"addEventListener", "removeEventListener"})
_TYPE_MEANING = ("interface", "type", "class", "enum", "namespace")
_VALUE_MEANING = ("variable", "function", "class", "enum", "namespace")
_TEST_SUFFIXES = (".test", ".spec", "_test", "-test", ".e2e")
# Stored before the target of a name hit ``ns.x`` whose ``import * as ns`` module is not found
# (a project file that may define ``x``: an exported non-member counts it as a name hit).
MISSING_NAMESPACE = "N:"


class Resolver(TypeSteps, Tracking[tuple[Any, ...]]):
    """Lazy, memoised resolution over the index; one instance per link run."""

    def __init__(self, conn: sqlite3.Connection, fresh: dict[str, dict[str, Any]]) -> None:
        self.conn = conn
        self.fresh = fresh
        self.file_ids: dict[str, int] = {
            r[0]: r[1]
            for r in conn.execute("SELECT path, id FROM files WHERE language IN (?, ?)", _LANGUAGES)
        }
        self._facts: dict[str, dict[str, Any]] = {}
        self._tables: dict[str, Table] = {}
        self._specs: dict[str, dict[str, tuple[str | None, int]]] = {}
        self.syms: dict[int, Sym] = {}
        self._alias_depth = 0
        self._alias_work = 0  # aliases unfolded since the outermost one (see alias_instance)
        self._extended: frozenset[str] | None = None
        self._root: str | None = None
        self._augmented: frozenset[str] | None = None
        self._own: frozenset[str] | None = None
        self._olits: dict[str, frozenset[str]] = {}  # per file, the keys of its literals' own types
        # A result cut short by a cycle (a barrel re-exporting a module that imports it) is kept
        # too: recomputing it for every caller is exponential in the cycle's length.
        Tracking.__init__(self, keep_cut_short=True)

    # -- per-file data -----------------------------------------------------------
    def facts(self, path: str) -> dict[str, Any]:
        return cached_facts(self.conn, self._facts, self.fresh, path)

    def table(self, path: str) -> Table:
        found = self._tables.get(path)
        if found is None:
            found = Table()
            file_id = self.file_ids.get(path)
            if file_id is not None:
                for row in self.conn.execute(
                    "SELECT id, symbol_path, kind, name_line, name_col, exported, line FROM symbols"
                    " WHERE file_id = ? ORDER BY line",
                    (file_id,),
                ):
                    sym = Sym(row, path)
                    self.syms[sym.id] = sym
                    found.by_path.setdefault(sym.symbol_path, []).append(sym)
                    found.by_key.setdefault(sym.key, sym)
                    found.parents.add(sym.symbol_path.rpartition(".")[0])
            self._tables[path] = found
        return found

    def specs(self, path: str) -> dict[str, tuple[str | None, int]]:
        found = self._specs.get(path)
        if found is None:
            found = {}
            file_id = self.file_ids.get(path)
            if file_id is not None:
                for module, resolved, external in self.conn.execute(
                    "SELECT module, resolved_path, external FROM imports WHERE file_id = ?", (file_id,)
                ):
                    if resolved is not None or module not in found:
                        found[module] = (resolved, external)
            self._specs[path] = found
        return found

    def symbol(self, path: str, symbol_path: str) -> Sym | None:
        self.deps.add(path)
        self.deps.add(f"{path}::{symbol_path.partition('.')[0]}")  # see ts_shape.name_shapes
        found = self.table(path).by_path.get(symbol_path)
        return found[0] if found else None

    # -- chains ------------------------------------------------------------------
    def resolve(self, path: str, chain: str) -> Entity:
        return self._tracked(("c", path, chain), lambda: self._resolve(path, chain))

    def _resolve(self, path: str, chain: str) -> Entity:
        head, sep, step = chain.rpartition("|")
        if sep:
            return self.apply(self.resolve(path, head), head, step, path, None)
        return self.base(path, chain)

    def apply(self, entity: Entity, head: str, step: str, path: str, subst: Subst | None) -> Entity:
        """One chain step of ``path`` after ``head`` (resolved to ``entity``), type parameters
        bound by ``subst`` when resolving a declaration for a use (see :meth:`resolve_in`)."""
        if entity is not None and entity[0] == "v" and one_alternative(entity[1]):
            entity = entity[1][0]  # `[A, ...A[]]`'s element: one A
        if step.startswith("!"):  # a probe (`"key" in x`, ts_occurrences.member_string)
            return self.apply(self.project_part(entity), head, step[1:], path, subst)
        if step.startswith("+"):  # a key of an object literal of the type `entity`: that type's member;
            # one it does not declare stays a name hit even where any key is allowed (`Record<string,
            # T>`): such keys are often read back as member names (`o[key]`)
            step, _, spread = step.partition(SPREAD_FALLBACK)
            if spread and entity is None:
                # of no known type: the project member its spread parts give (one of an object type
                # written out stays a name hit, as that type's member is where a rename is reviewed)
                found = self.step(self.resolve(path, f"W:{spread}"), step[1:].removeprefix('"'))
                return found if found is not None and found[0] == "s" else None
            found = self.step(entity, step[1:].removeprefix('"'))
            leaves = list(_alternatives(found))
            if _UNDECLARED in leaves and not any(a is not None and a[0] in ("s", "S", "a") for a in leaves):
                return None
            return found
        if step[:1] == "=":  # a string literal given where `keyof T` is declared
            found = self.key_member(entity, step[1:].removeprefix('"'))
            if found is None and self.event_name(path, head, subst):
                return _NO_SYMBOL  # `ws.addEventListener("close", …)` of a WebSocket: an event's name
            return found
        if step.startswith('"'):  # a quoted member name (see ts_fact_state.member_step)
            return self.step(entity, step[1:])
        if step[:1] == "[" and step not in ("[]", "[i]"):  # `x[KEY]`
            return self.computed_member(entity, step, path)
        step, _, site = step.partition("/")
        if (
            site
            and entity is not None
            and len(entity) == 2
            and entity[0] == "x"
            and entity[1]
            and not entity[1].startswith(HOLDS_PROJECT)
            and (step == "()" or step[:1] == "@" or (step[:1] == "&" and step.lstrip("&").isdigit()))
            and self.given_project(path, site, subst, step)
        ):  # `useRef<Profile>(…).current`: a package's generic function given a project type (the
            # constructor of a package's class: `new Store<State>({…})`, `&&0`)
            found = self.package_call(entity[1], step, path, site, subst)
            if found is not None:
                return found
        if (
            step[:1] == "@"
            and site
            and entity is not None
            and entity[0] == "x"
            and entity[1]
            and not entity[1].startswith(HOLDS_PROJECT)
            and self.given_project(path, site, subst, step)
        ):  # `React.useMemo<Ctx>(() => ({ … }))`: what a package's function passes to or takes back
            # from a callback may be a project type given it: not known to be the package's
            return ("x", f"{HOLDS_PROJECT}.{entity[1]}.{step}")
        if "|" not in head and entity is not None and entity[0] == "s" and (step == "()" or is_ident(step)):
            entity = self.value_meaning(entity)
        if (
            step == "prototype"
            and entity is not None
            and entity[0] == "s"
            and self.syms[entity[1]].kind == "class"
        ):
            return ("i", entity[1])  # `X.prototype.m`: a member of X's instances
        if (
            step == "()"
            and entity is not None
            and entity[0] == "s"
            and self.this_argument(self.syms[entity[1]])
        ):
            receiver, dot, _ = head.rpartition("|")
            it = self.as_instance(self.resolve_in(path, receiver, subst)) if dot else None
            if it is not None:
                entity = ("s", entity[1], frozen({**dict(entity[2] if len(entity) > 2 else ()), THIS: it}))
        this = (
            self.returns_this(self.syms[entity[1]])
            if step == "()" and entity is not None and entity[0] == "s"
            else False
        )
        if this is None:
            return None  # `self(): this; self(x: number): A`
        if this:
            receiver, dot, _ = head.rpartition("|")
            return self.as_instance(self.resolve_in(path, receiver, subst)) if dot else None
        if step[:2] == "^g" and step[2:].isdigit():
            return self.type_argument_constraint(entity, int(step[2:]), path, site, subst)
        if step[0] == "%":
            return self.function_type_parameter(entity, step, path, site)
        if step == "&this":  # `f.call(o)`: the declared `this` of f
            return self.this_parameter(entity)
        if step[0] == "&":
            if entity is not None and entity[0] == "l":  # `xs.push({…})`: the element type of the array
                if entity[1][0] == "g":  # `m.set(k, {…})`: the map's key and value types
                    part = {"set&0": "#0", "set&1": "#1"}.get(f"{entity[2]}{step}")
                    return self.step(entity[1][1], part) if part is not None else None
                return self.step(entity[1][1], ":") if entity[2] in ARRAY_TAKERS else None
            if entity is None and step == "&0" and head.rpartition("|")[2] in ARRAY_TAKERS:
                return self.element_of(self.resolve_in(path, head.rpartition("|")[0], subst))
            closed = self.closed_parameter(entity, step)
            if closed is not None:
                return closed
            if entity is not None and entity[0] == "x" and len(entity) == 4:  # a package's method
                keys = self.package_step(entity, step)
                if keys is not None:
                    return keys
            return self.parameter_type(entity, step, path, site)
        if step.startswith("~^"):  # tested by `instanceof C`: a C where C derives from its type
            return self.instance_test(entity, path, step[2:])
        if step[0] == "~":  # a variable's value, narrowed; anything else is kept as it is
            value = self.as_instance(entity) if entity is not None and entity[0] == "s" else entity
            return self.narrow(value, step[1:]) if value is not None else entity
        if step == ":":
            return self.instance_of(entity, path, site, subst)
        if site:
            if step == "()" and entity is not None and entity[0] == "l" and entity[2] == "map":
                made = self.mapped(entity, path, site)
                if made is not None:
                    return made
            if step == "()" and entity is not None and entity[0] in ("z", "l"):
                made = self.library_call(entity, path, site, subst)
                if made is not None:
                    return made
            found = self.site_step(entity, step, path, site)
            if found is not None:
                return found
            if (
                step == "()"
                and entity is not None
                and entity[0] == "x"
                and entity[1]
                and not entity[1].startswith(HOLDS_PROJECT)
                and self.given_project(path, site, subst)
            ):  # `useState<Todo>(…)`, `cloneDeep(todo)`: what a package's function gives may be
                # built from the project values or types given it (`todo.title`): not known
                return ("x", f"{HOLDS_PROJECT}.{entity[1]}.()")
            if (
                step == "()"
                and entity is not None
                and entity[0] == "s"
                and self.syms[entity[1]].kind in ("function", "method")
                and "t" in self.facts(path).get("calls", {}).get(site, {})
            ):  # `string<"a">()`: type arguments may pick an overload a plain call would not
                bound = dict(entity[2]) if len(entity) > 2 else None
                return self.returned(self.syms[entity[1]], bound, explicit=True)
        if entity is not None and entity[0] == "z" and not path.endswith(_TYPED_SOURCES):
            # JS: nothing checks what a lib member gives is used as the lib declares it
            # (`document.getElementById("x").refresh()` of a project's custom element)
            return None
        return self.step(entity, step)

    def literal_key_call(self, sym: Sym) -> Entity:
        """What calling a function-valued key of an object literal gives, when its own function
        says nothing (no declared return type, none inferred) and the literal initialises a
        variable declared with a type (``const files: Files = { load: async (p) => … }``): what
        the declared type's member gives, as TypeScript reads ``files.load(p)``."""
        owner_path, dot, name = sym.symbol_path.rpartition(".")
        owner = self.symbol(sym.path, owner_path) if dot and sym.kind in ("method", "property") else None
        if owner is None or owner.kind != "variable" or "." in owner_path:
            return None
        declared = self.facts(owner.path).get("vtypes", {}).get(owner.key)
        if not declared:
            return None
        member = self.step(self.resolve(owner.path, declared), name)
        if member is None or member[0] != "s" or member[1] == sym.id:
            return None
        return self.step(member, "()")

    def type_argument_constraint(
        self, entity: Entity, index: int, path: str, site: str, subst: Subst | None
    ) -> Entity:
        """``^g<k>``: the constraint of the k-th type parameter of the generic type ``entity``, its
        type parameters bound by the type arguments written at ``site`` (``PartialKeys<Options,
        "state">`` of ``PartialKeys<T, K extends keyof T>``: keyof Options)."""
        if entity is None or entity[0] != "s":
            return None
        sym = self.syms[entity[1]]
        facts = self.facts(sym.path)
        order = facts.get("generics", {}).get(sym.key, ())
        if index >= len(order):
            return None
        bound = facts.get("tparams", {}).get(order[index], (None, None))[0]
        if not bound:
            return None
        args = self.facts(path).get("calls", {}).get(site, {}).get("t", ()) if site else ()
        given = {key: self.resolve_in(path, arg, subst) for key, arg in zip(order, args, strict=False) if arg}
        return self.resolve_in(sym.path, bound, given)

    def event_name(self, path: str, head: str, subst: Subst | None) -> bool:
        """Whether ``head`` is the first parameter of ``addEventListener`` / ``removeEventListener``
        of a standard global's instance (``WebSocket``, ``HTMLElement``, ``window``): the string
        given there names an event of the library's event map, no member of anything."""
        callee, _, parameter = head.rpartition("|")
        if (
            parameter.partition("/")[0] != "&0"
            or callee.rpartition("|")[2].partition("/")[0] not in _LISTENERS
        ):
            return False
        found = self.resolve_in(path, callee, subst) if subst else self.resolve(path, callee)
        return found is not None and found[0] == "z"

    def key_member(self, entity: Entity, name: str) -> Entity:
        """``=name``: a string literal given for a parameter declared ``keyof T`` (or a type
        parameter constrained by it) names T's member ``name``, as TypeScript checks: that member
        when every alternative is a project member; else None (the string stays a name hit)."""
        if entity is None:
            return None
        if entity[0] == "v":  # `keyof A | keyof B`: a member of each
            each = tuple(self.key_member(alt, name) for alt in entity[1])
            return None if any(alt is None for alt in each) else ("v", each)
        if entity[0] != "N":
            return None
        found = self.step(entity[1], name)
        leaves = list(_alternatives(found))
        if not leaves or any(alt is None or alt[0] not in ("s", "S") for alt in leaves):
            return None
        return found

    def named_key(self, keys: Entity, name: str) -> Entity:
        """Key ``name`` of a ``Record<K, V>`` whose K is member names (``keyof T``, or a union of
        them and string literals): the member of each T declaring it (``("S", id)``: which member
        is known, what it holds is not); None when K is anything else or no T declares it."""
        if keys is not None and keys[0] == "s" and self.syms[keys[1]].kind == "type":
            keys = self.as_instance(keys)  # `type Methods = keyof A | keyof B`
        alternatives = list(_alternatives(keys)) if keys is not None and keys[0] == "v" else [keys]
        found: list[Entity] = []
        for alt in alternatives:
            if alt is None or alt[0] != "N":
                return None
            member = self.step(alt[1], name)
            if member is not None and member[0] in ("s", "S"):
                found.append(("S", member[1]))
        if not found:
            return None
        return found[0] if len(found) == 1 else ("v", tuple(found))

    def mapped_type(self, path: str, chain: str, subst: Subst | None) -> Entity:
        """``Y:<key>``: a mapped object type whose members each hold what the second chain gives
        (``("K", keys, held)``; ``("K", keys)`` when that is not known); without the keys' type,
        nothing known."""
        parts = self.facts(path).get("unions", {}).get(chain[len(MAPPED) :], ())
        if len(parts) != 2 or not parts[0]:
            return None
        keys, held = (
            (self.resolve_in(path, part, subst) if subst else self.resolve(path, part)) if part else None
            for part in parts
        )
        if keys is None:
            return None
        return ("K", keys, held) if held is not None else ("K", keys)

    def mapped(self, entity: tuple[Any, ...], path: str, site: str) -> Entity:
        """``xs.map((x) => x.owner)`` of an array xs: an array of what the callback returns (one
        typed value, or a promise of one); None otherwise."""
        if entity[1] is None or entity[1][0] != "r":
            return None
        chain = self.facts(path).get("calls", {}).get(site, {}).get("m")
        made = self.resolve(path, chain) if chain else None
        value = self.value_type(made)
        if value is None and made is not None and made[0] in ("p", "o"):
            # `ids.map((id) => load(id))`: an array of promises; `(id) => ({ id })`: of those objects
            return ("r", made)
        return ("r", value) if value is not None else None

    def library_call(self, entity: tuple[Any, ...], path: str, site: str, subst: Subst | None) -> Entity:
        """What a call of the library's gives from its arguments: ``Array.from(items)`` and
        ``Object.values(byId)`` an array of the items of their one argument (a ``Record``'s values),
        ``Object.entries(byId)`` an array of ``[key, value]`` pairs, ``xs.reduce(fn, initial)`` of
        an array what its initial value is (TypeScript takes the accumulator's type from it); None
        for other calls or other arguments (``Array.from(xs, fn)``: what fn gives)."""
        args = self.facts(path).get("calls", {}).get(site, {}).get("a", ())
        if entity[0] == "l":
            reduced = entity[1] is not None and entity[1][0] == "r" and entity[2] in ("reduce", "reduceRight")
            return self.resolve_in(path, args[1], subst) if reduced and len(args) == 2 and args[1] else None
        if entity[1] in ("Promise.all", "Promise.allSettled"):
            return self.combined(entity[1], path, args[0] if len(args) == 1 else None, subst)
        if (
            entity[1] not in ("Array.from", "Object.values", "Object.entries")
            or len(args) != 1
            or not args[0]
        ):
            return None
        item = self.resolve_in(path, f"{args[0]}|[i]", subst)
        if item is None:
            return None
        return ("r", ("T", (("b", "String"), item))) if entity[1] == "Object.entries" else ("r", item)

    def combined(self, name: str, path: str, given: str | None, subst: Subst | None) -> Entity:
        """``Promise.all(values)``: a promise of what awaiting each value gives, an array of them,
        or for an array literal (a tuple: see ``ts_descriptors.parts_value``) each part alone;
        ``Promise.allSettled(values)`` of a settled result of each (``("Y", value)``: its ``status``
        and ``reason`` the lib's, its ``value`` that value), even where the values are not known."""
        settled = name == "Promise.allSettled"
        values = self.resolve_in(path, given, subst) if given else None
        if values is not None and values[0] == "t":  # `[loadUser(), loadTeam()]`
            parts = self.facts(values[1]).get("tuples", {}).get(values[2], ())
            found = tuple(
                self.awaited_instance(self.resolve(values[1], part) if part else None) for part in parts
            )
            return ("p", ("T", tuple(("Y", v) for v in found) if settled else found))
        item = self.awaited_instance(self.resolve_in(path, f"{given}|[i]", subst)) if given else None
        if settled:
            return ("p", ("r", ("Y", item)))
        return ("p", ("r", item)) if item is not None else None

    def awaited_instance(self, value: Entity) -> Entity:
        """The instance awaiting ``value`` gives (None when not known)."""
        awaited = self.awaited(value)
        return self.step(awaited, ":") if awaited is not None else None

    def instance_test(self, entity: Entity, path: str, key: str) -> Entity:
        """``x instanceof C`` where x is typed: an instance of C where C is a project class deriving
        from x's class or interface (or C itself); else x's value as it is (a union, an unrelated
        or outside type: TypeScript narrows those to alternatives, or to ``x & C``)."""
        value = self.as_instance(entity) if entity is not None and entity[0] == "s" else entity
        chain = self.facts(path).get("itests", {}).get(key)
        tested = self.resolve(path, chain) if chain else None
        if value is None or value[0] != "i" or tested is None or tested[0] != "s":
            return value
        cls = self.syms[tested[1]]
        if cls.kind != "class" or not self.derives(cls, self.syms[value[1]], 0):
            return value
        return ("i", cls.id)

    def derives(self, cls: Sym, ancestor: Sym, depth: int) -> bool:
        """Whether the class ``cls`` is ``ancestor`` or derives from it (``extends``/``implements``,
        through its bases), one declaration of a merged name counting for all."""
        if cls.id == ancestor.id or (cls.path, cls.symbol_path) == (ancestor.path, ancestor.symbol_path):
            return True
        if depth > 12:
            return False
        for base in self.facts(cls.path).get("bases", {}).get(cls.key, ()):
            found = self.resolve(cls.path, base)
            if (
                found is not None
                and found[0] == "s"
                and self.syms[found[1]].kind in CLASSLIKE
                and self.derives(self.syms[found[1]], ancestor, depth + 1)
            ):
                return True
        return False

    def project_part(self, entity: Entity) -> Entity:
        """``entity`` when a probe of its member names a project member: not on anything else (a
        package's or the library's type), which may be looking for a project object's member
        (``"color" in stream``), nor on a union with such an alternative (whose own member of the
        name, if any, the probe tests as well)."""
        if entity is None or entity[0] in ("x", "b", "z"):
            return None
        if entity[0] == "v" and any(alt is not None and alt[0] in ("x", "b", "z") for alt in entity[1]):
            return None
        return entity

    def base(self, path: str, chain: str) -> Entity:
        if chain.startswith("P:"):
            self.deps.add(path)
            sym = self.table(path).by_key.get(chain[2:])
            if sym is not None:
                self.deps.add(f"{path}::{sym.symbol_path.partition('.')[0]}")
                return ("s", sym.id)
            spec = self.facts(path).get("nsimports", {}).get(chain[2:])
            # a declaration the outline does not hold (a local enum): unknown, never outside
            return self.module(path, spec) if spec is not None else None
        if chain.startswith("T:"):
            self.deps.add(path)
            return self.type_param(path, chain[2:], None)
        if chain.startswith("Q:"):  # a tuple type
            return ("t", path, chain[2:])
        if chain.startswith("L:"):  # an object type written out
            return ("o", path, chain[2:])
        if chain.startswith("W:"):  # a local object literal spreading others
            return ("O", path, chain[2:])
        if chain.startswith(("U:", SAME_RETURNS)):
            alternatives = self.facts(path).get("unions", {}).get(chain[2:], ())
            if unknown_alternative(path, alternatives):
                return None  # (never a likely hit, as a value typed `any`)
            found = tuple(self.resolve(path, alt) if alt else None for alt in alternatives)
            return ("v", found) if chain[0] == "U" else common_entity(found)
        if chain.startswith(MAPPED):
            return self.mapped_type(path, chain, None)
        if chain.startswith(EVERY_SINK):
            alternatives = self.facts(path).get("unions", {}).get(chain[2:], ())
            found = tuple(self.resolve(path, alt) if alt else None for alt in alternatives)
            return ("v", found) if found and all(alt is not None for alt in found) else None
        if chain.startswith(GLOBAL):  # a standard global: the library's, unless the project extends it
            self.deps.add(_GLOBAL_DEP)
            name = chain[len(GLOBAL) :]
            return None if self.extended_globals() & set(global_type_names(name)) else ("b", name)
        if chain.startswith("I:"):
            name, _, spec = chain[2:].partition(":")
            module = self.module(path, spec)
            if module is not None and module[0] == "x" and module[1] and name:
                return ("x", f"{module[1]}.{name}")  # a package's export (`react.Component`)
            if module is None or module[0] == "x" or not name:
                return module
            return self.member(module, name)
        return None

    def package_step(self, entity: tuple[Any, ...], step: str) -> Entity:
        """A step on an instance of a package's generic type given project types (``("x",
        "?*.<pkg>.<Type>", type arguments)``) or on a method of one (a fourth item: its
        :class:`PackageMember`). The member is the package's; a step on it, when it is declared as
        a type parameter, is on what the instance binds it to (``store.state`` of a
        ``Store<State>`` holds a State), as is a method's return (``store.get()``) and its
        callback's parameters and return (``store.setState((prev) => ({ ...prev, n }))``). A member
        whose declaration names no type parameter is the package's own; anything else is unknown."""
        qualified, args = entity[1].removeprefix(f"{HOLDS_PROJECT}."), entity[2]
        if len(entity) == 3:
            if step == ":":
                return entity
            member = package_member(self.root, qualified, step) if is_ident(step) and self.root else None
            if member is None:
                return None
            if member.method or member.value is not None:
                return ("x", f"{entity[1]}.{step}", args, member)  # the package's member
            return None if member.generic else ("x", f"{qualified}.{step}")
        member = entity[3]
        if not member.method:  # a step on the member's value: on what the instance binds it to
            value = self.step(args[member.value], ":") if member.value < len(args) else None
            return value if step == ":" else self.step(value, step)
        index: int | None = None
        if step == "()":
            index = member.returns
            if index is None and not member.generic:
                return ("x", f"{qualified}.()")
        elif step[:1] == "@":
            k, _, j = step[1:].partition(".")
            callback = member.callbacks[int(k)] if k.isdigit() and int(k) < len(member.callbacks) else None
            if callback is not None and j == "return":
                index = callback[1]
            elif callback is not None and j.isdigit() and int(j) < len(callback[0]):
                index = callback[0][int(j)]
        elif step[:1] == "&" and step[1:].isdigit():  # `client.on("started", …)`: a key of T
            given = int(step[1:])
            keyed = member.keys[given] if given < len(member.keys) else None
            found = self.step(args[keyed], ":") if keyed is not None and keyed < len(args) else None
            return ("N", found) if found is not None else None
        return self.step(args[index], ":") if index is not None and index < len(args) else None

    def package_call(self, qualified: str, step: str, path: str, site: str, subst: Subst | None) -> Entity:
        """A call of a package's generic function at ``site`` (``()``), the type its parameter k
        takes (``&k``: an object literal passed there) or what its callback takes or returns
        (``@k.j``), where the package declares it as a type parameter (or a generic type of the
        package given them: ``useRef<T>(initialValue: T): RefObject<T>``); None otherwise."""
        if step[:2] == "&&":
            return self.package_construct(qualified, int(step[2:]), path, site, subst)
        fn = package_function(self.root, qualified) if self.root else None
        if fn is None and step[:1] == "@":
            fn = self.callback_overload(qualified, step, path, site)
        if fn is None:
            return None
        ref: Any = None
        if step == "()":
            ref = fn.returns
        elif step[:1] == "&":
            k = int(step[1:])
            ref = fn.params[k] if k < len(fn.params) else None
        else:
            k_text, _, j = step[1:].partition(".")
            k = int(k_text) if k_text.isdigit() else len(fn.callbacks)
            callback = fn.callbacks[k] if k < len(fn.callbacks) else None
            index = None
            if callback is not None and j == "return":
                index = callback[1]
            elif callback is not None and j.isdigit() and int(j) < len(callback[0]):
                index = callback[0][int(j)]
            ref = ("p", index) if index is not None else None
        if ref is None:
            return None
        bound = self.package_bindings(fn, path, site, subst)
        return self.package_type(ref, bound, qualified.rpartition(".")[0])

    def callback_overload(self, qualified: str, step: str, path: str, site: str) -> PackageFunction | None:
        """For ``@k.j`` (what the function given as argument k takes or returns) of an overloaded
        package function: the overload TypeScript picks, the first taking as many arguments as the
        call gives, when it declares a function type for parameter k and every later one that
        takes as many and a function there types the callback alike (``createStore<T>(getValue:
        (prev?: NoInfer<T>) => T)`` before ``createStore<T>(initialValue: T)``: given a function,
        ``prev`` is a T). A later overload picked instead, where a plain type parameter takes the
        function, would leave its parameters untyped, which a strict project does not allow."""
        overloads = package_overloads(self.root, qualified) if self.root else None
        call = self.facts(path).get("calls", {}).get(site, {})
        given = len(call.get("a", ())) or call.get("n", 0)
        k_text = step[1:].partition(".")[0]
        if overloads is None or not k_text.isdigit():
            return None
        k = int(k_text)
        fitting = [o.function for o in overloads if o.least <= given and (o.most is None or given <= o.most)]
        typed = [f for f in fitting if k < len(f.callbacks) and f.callbacks[k] is not None]
        if not typed or typed[0] is not fitting[0]:
            return None
        first = typed[0].callbacks[k]
        if any(f.tparams != typed[0].tparams or f.callbacks[k] != first for f in typed):
            return None  # (the overloads taking a function there read it differently)
        return typed[0]

    def package_construct(self, qualified: str, k: int, path: str, site: str, subst: Subst | None) -> Entity:
        """``&&k`` of ``new Store<State>({…})``: the type the package class's constructor declares
        for its parameter k, its type parameters bound by the explicit type arguments, when every
        overload the call may pick declares it alike (an object literal passed there picks no
        overload taking a function there, nor one needing more arguments or taking fewer); else
        None."""
        made = package_constructor(self.root, qualified) if self.root else None
        call = self.facts(path).get("calls", {}).get(site, {})
        given, explicit = len(call.get("a", ())) or call.get("n", 0), call.get("t", ())
        if made is None or not explicit:
            return None
        refs = {
            o.params[k]
            for o in made.overloads
            if k < len(o.params)
            and not o.functions[k]
            and o.least <= given
            and (o.most is None or given <= o.most)
        }
        ref = refs.pop() if len(refs) == 1 else None
        if ref is None:
            return None
        bound: list[Entity] = [None] * made.tparams
        for index, arg in enumerate(explicit[: made.tparams]):
            bound[index] = self.resolve_in(path, arg, subst) if arg else None
        return self.package_type(ref, bound, qualified.rpartition(".")[0])

    def package_bindings(
        self, fn: PackageFunction, path: str, site: str, subst: Subst | None
    ) -> list[Entity]:
        """What a call binds a package function's type parameters to: its explicit type arguments,
        else the arguments passed for parameters declared as one (a parameter bound twice to
        different things is not known)."""
        call = self.facts(path).get("calls", {}).get(site, {})
        bound: list[Entity] = [None] * fn.tparams
        explicit = call.get("t", ())
        if explicit:
            for k, arg in enumerate(explicit[: fn.tparams]):
                bound[k] = self.resolve_in(path, arg, subst) if arg else None
            return bound
        clashed: set[int] = set()
        for ref, arg in zip(fn.params, call.get("a", ()), strict=False):
            if ref is not None and arg:
                self.unify(ref, self.resolve_in(path, arg, subst), bound, clashed)
        for callback, body in zip(fn.callbacks, call.get("b", ()), strict=False):
            # `createStore(() => new Route())` for `createStore<S>(make: () => S)`: S is a Route
            if callback is not None and callback[1] is not None and body:
                self.unify(("p", callback[1]), self.resolve_in(path, body, subst), bound, clashed)
        returned = fn.returns
        held: object = returned[1] if returned is not None and returned[0] == "p" else None
        if (
            isinstance(held, int)
            and held < len(bound)
            and bound[held] is None
            and held not in clashed
            and call.get("v")
        ):  # `const value: Ctx = useMemo(() => ({ … }), deps)`: what it returns is stored as a Ctx
            bound[held] = self.resolve_in(path, call["v"], subst)
        return [None if k in clashed else b for k, b in enumerate(bound)]

    def unify(
        self, ref: Any, value: Entity, bound: list[Entity], clashed: set[int], typed: bool = False
    ) -> None:
        """Bind the type parameters ``ref`` names from ``value``: an argument's value, or (``typed``)
        a type argument of a package type it is an instance of."""
        if not typed and value is not None and value[0] == "s":
            value = self.as_instance(value)  # a variable or property: the value it holds
        if ref[0] == "p" and ref[1] < len(bound):
            found = value if typed or (value is not None and value[0] == "i") else None
            if found is None:
                return
            if bound[ref[1]] is not None and bound[ref[1]] != found:
                clashed.add(ref[1])
            bound[ref[1]] = found
        elif ref[0] == "r" and value is not None and value[0] == "r":  # `items: T[]` given a `Route[]`
            self.unify(ref[1], self.step(value, "[i]"), bound, clashed, typed)
        elif (
            ref[0] == "g"
            and value is not None
            and value[0] == "x"
            and len(value) == 3
            and str(value[1]).rpartition(".")[2] == ref[1]
        ):  # `useContext(ctx: Context<T>)` given a `Context<Settings>`
            for inner, given in zip(ref[2], value[2], strict=False):
                if inner is not None:
                    self.unify(inner, given, bound, clashed, typed=True)

    def package_type(self, ref: Any, bound: list[Entity], package: str) -> Entity:
        """A :data:`TypeRef` of ``package`` with its type parameters ``bound``."""
        if ref[0] == "p":
            return self.step(bound[ref[1]], ":") if ref[1] < len(bound) else None  # an instance of it
        if ref[0] == "r":  # an array of what the element type is bound to
            element = self.package_type(ref[1], bound, package)
            return ("r", element) if element is not None else None
        if ref[0] == "t":  # a tuple: what each part holds (`const [todo, setTodo] = useState<Todo>()`)
            return (
                "T",
                tuple(self.package_type(p, bound, package) if p is not None else None for p in ref[1]),
            )
        args = tuple(
            bound[a[1]] if a is not None and a[0] == "p" and a[1] < len(bound) else None for a in ref[2]
        )
        return ("x", f"{HOLDS_PROJECT}.{package}.{ref[1]}", args)

    @property
    def root(self) -> str:
        """The project's root folder ("" when the index is not in one)."""
        if self._root is None:
            found = project_root(self.conn)
            self._root = str(found) if found is not None else ""
        return self._root

    def library_member(self, kind: str, step: str) -> Entity:
        """Another member of a library container (``xs.length``, ``m.delete(k)``, ``p.catch(f)``):
        the library's (what it gives is not followed), unless the project extends the containers."""
        if not is_ident(step):
            return None
        self.deps.add(_GLOBAL_DEP)
        return None if self.extended_globals() & _CONTAINER_TYPES else ("z", f"{kind}.{step}")

    def lib_result(self, member: str, step: str) -> Entity:
        """A step on a lib type's member (``("z", "AbortController.signal")``): on what the lib
        declares it gives when that is one plain type (``signal: AbortSignal``, ``split(): string[]``,
        ``set(): this``: calling a method, reading a property), unless the project extends that
        type; else None (``Object.assign(x)`` is x, generic members are not followed)."""
        owner, _, name = member.partition(".")
        given = lib_member_result(owner, name) if is_ident(name) else None
        if given is None or given.startswith("()") != (step == "()"):
            return None
        given = given.removeprefix("()")
        element = given.removesuffix("[]")
        element = owner if element == "this" else element
        self.deps.add(_GLOBAL_DEP)
        if self.extended_globals() & set(global_type_names(element)):
            return None
        value: Entity = ("r", ("b", element)) if given.endswith("[]") else ("b", element)
        return value if step == "()" else self.step(value, step)

    def closed_parameter(self, entity: Entity, step: str) -> Entity:
        """``&k`` (``&&k`` of a constructor) of a package's own callable whose parameter k the
        package declares with a type of its own that declares its keys
        (``aiEventClient.emit("text:request:started", { requestId, … })``): ``("P", callable)``,
        whose members an object literal given there has (see
        :func:`~astmcp.resolve.ts_packages.package_parameter_closed`); None otherwise, and for a
        package the project augments (``declare module "pkg"`` may add its own types there)."""
        if (
            entity is None
            or entity[0] != "x"
            or len(entity) != 2
            or not entity[1]
            or entity[1].startswith(HOLDS_PROJECT)
            or not step.lstrip("&").isdigit()
            or not self.root
        ):
            return None
        qualified = f"{entity[1]}.:" if step.startswith("&&") else entity[1]
        package = package_name(qualified_spec(qualified))
        self.deps.add(_AUGMENT_DEP)
        if any(name == package or name.startswith(f"{package}/") for name in self.augmented()):
            return None
        if package in self.own_packages():
            return None  # the project's own package by name: TypeScript reads its sources
        if not package_parameter_closed(self.root, qualified, int(step.lstrip("&"))):
            return None
        return ("P", qualified)

    def own_packages(self) -> frozenset[str]:
        """The project's own package names (see :func:`~astmcp.resolve.ts_packages.own_package_names`)."""
        if self._own is None:
            self._own = own_package_names(self.root) if self.root else frozenset()
        return self._own

    def augmented(self) -> frozenset[str]:
        """The names of the project's namespaces: among them the packages it augments (``declare
        module "pkg"`` declares a namespace of that name)."""
        if self._augmented is None:
            self._augmented = frozenset(
                name
                for (name,) in self.conn.execute("SELECT DISTINCT name FROM symbols WHERE kind = 'namespace'")
            )
        return self._augmented

    def extended_globals(self) -> frozenset[str]:
        """The library interfaces of standard globals the project declares (augments) itself: in
        ``declare global { … }``, or at the top of a script (a file without module syntax, whose
        declarations are global); an ES module's own ``interface Array`` is its own type."""
        if self._extended is None:
            marks = ",".join("?" * len(_GLOBAL_TYPES))
            self._extended = frozenset(
                name
                for name, symbol_path, path in self.conn.execute(
                    f"SELECT s.name, s.symbol_path, f.path FROM symbols s JOIN files f ON f.id = s.file_id"
                    f" WHERE s.name IN ({marks}) AND f.language IN (?, ?)",
                    (*sorted(_GLOBAL_TYPES), *_LANGUAGES),
                )
                if symbol_path == f"global.{name}"
                or (symbol_path == name and not _is_module(self.facts(path)))
            )
        return self._extended

    def module(self, path: str, spec: str) -> Entity:
        if spec == SELF_MODULE:  # a CommonJS file's own `exports`
            return ("m", path)
        resolved, external = self.specs(path).get(spec, (None, 0))
        if resolved is None or resolved not in self.file_ids:
            return ("x", spec) if external else None
        self.deps.add(resolved)
        return ("m", resolved)

    def member(self, module: tuple[str, Any], name: str) -> Entity:
        return self._tracked(("m", module[1], name), lambda: self._member(module[1], name))

    def _member(self, path: str, name: str) -> Entity:
        self.deps.add(path)
        self.deps.add(f"{path}::{name}")
        facts = self.facts(path)
        exports = facts.get("exports", {})
        chain = exports.get(name)
        if chain is not None:
            return self.resolve(path, chain)
        syms = self.table(path).by_path.get(name)
        if syms:
            chosen = next((s for s in syms if s.exported), syms[0])
            return ("s", chosen.id)
        if name != "default":
            for spec in facts.get("stars", ()):
                module = self.module(path, spec)
                if module is not None and module[0] == "m":
                    found = self.member(module, name)
                    if found is not None and found[0] != "x":
                        return found
        whole = exports.get("=")
        if name == "default" and whole is not None:
            # `export = api` / `module.exports = …` imported by default (esModuleInterop, Node's
            # ESM loader): the default is the whole export
            return self.resolve(path, whole)
        if whole is not None:
            return self.step(self.resolve(path, whole), name)
        commonjs = (facts.get(REACH, {}).get("cjs") and not _is_module(facts)) or path.endswith(
            (".cts", ".cjs")
        )
        if name == "default" and commonjs:
            # a CommonJS module (`exports.fmt = fmt`, or a `.cts` TypeScript compiles to one)
            # imported by default without a default export: its exports object
            return ("m", path)
        return None

    def typed(self, sym: Sym, field: str, bound: Subst | None = None) -> Entity:
        chain = self.facts(sym.path).get(field, {}).get(sym.key)
        if not chain:
            return None
        return self.resolve_in(sym.path, chain, bound) if bound is not None else self.resolve(sym.path, chain)

    def step(self, entity: Entity, step: str) -> Entity:
        if entity is None:
            return None
        if step == "[]":  # the array type whose elements are `entity`'s instances
            return ("r", entity)
        if step == "^q":  # the promise type whose values are `entity`'s instances
            return ("p", entity)
        if step == "^w":  # what awaiting the value gives
            return self.awaited(entity)
        if step == "^h":  # the `ThisType<T>` marker of T
            return ("h", entity)
        if step == "^K":  # an object keyed by the members of `entity`'s type
            return ("K", entity)
        if step == "^N":  # the names of `entity`'s members (`keyof T`)
            return ("N", entity)
        if step == "^t":  # `this` in a method of an object literal of this contextual type
            return self.literal_this(entity)
        tag, value = entity[0], entity[1]
        if tag == "P":  # a value of a package's own type: a member of it is the package's (what
            # that holds is not read: `{ options: { … } }` given for `options: Record<string, unknown>`)
            if step == ":":
                return entity
            plain = step[:1].isalpha() or step[:1] in ("_", "$")
            return ("P", "") if value and plain else None
        if tag == "N":  # a member name: what `keyof T` holds is a string of no project type
            return entity if step == ":" else None
        if tag == "V":  # the values of an array literal, a tuple type parameter was bound to
            if step == ":":
                return entity
            parts = entity[2]
            index = int(step[1:]) if step[:1] == "#" and step[1:].isdigit() else -1
            chain = parts[index] if 0 <= index < len(parts) else None
            return self.resolve(value, chain) if chain else None
        if tag == "p":  # a promise: its own instance; `then` (its callback takes a value); no project member
            if step == ":":
                return entity
            return ("l", entity, step) if step == "then" else self.library_member("Promise", step)
        if step == "^m" and tag == "t":  # a map of entries [K, V]
            return ("g", entity)
        if tag == "g":  # a map: its own instance; `[i]` an entry; its methods; no project member
            if step == ":" or step == "[i]":
                return entity if step == ":" else value
            return ("l", entity, step) if step in MAP_METHODS else self.library_member("Map", step)
        if tag == "Y":  # a settled result (`Promise.allSettled`): `value` what the promise gave
            if step in ("status", "reason"):  # (the lib's, unless the project extends the types)
                self.deps.add(_GLOBAL_DEP)
                return (
                    None
                    if self.extended_globals() & _SETTLED_TYPES
                    else ("z", f"PromiseRejectedResult.{step}")
                )
            return entity if step == ":" else value if step == "value" else None
        if tag == "T":  # a tuple a package's function gives: its parts
            known = bool(value) and all(alt is not None for alt in value)
            if step == "[i]":  # iterated: each part, when every part is typed
                return ("v", value) if known else None
            if step in ARRAY_METHODS:  # `(await Promise.all([a(), b()])).map((x) => …)`
                return ("l", _array_of(value), step) if known else None
            index = int(step[1:]) if step[:1] == "#" and step[1:].isdigit() else -1
            return entity if step == ":" else value[index] if 0 <= index < len(value) else None
        if tag == "O":  # a local object literal spreading others (`{ ...state, ...patch }`)
            if step == ":":
                return entity
            parts = self.facts(value).get("lspreads", {}).get(entity[2])
            return self.spread_part(value, parts, step) if parts and is_ident(step) else None
        if tag == "o":  # an object type written out: its members are no symbols
            if step == ":":
                return entity
            if step == "()":  # a function type written out: what its call signature gives
                chain = self.facts(value).get("sigrets", {}).get(entity[2])
                return (
                    self.resolve_in(value, chain, dict(entity[3]) if len(entity) > 3 else None)
                    if chain
                    else None
                )
            members = self.facts(value).get("objects", {}).get(entity[2], {})
            if step not in members and members.get(KEYS) and is_ident(step):
                named = self.named_key(self.resolve(value, members[KEYS]), step)
                if named is not None:
                    return named
            if step not in members and INDEXED in members and is_ident(step):
                if members[INDEXED] is None:
                    return None  # any key, of no known type: as untyped as `any`
                step = INDEXED  # a member it does not declare: its string index signature's value
            if step in members:
                return ("a", value, entity[2], step)
            return _UNDECLARED if is_ident(step) else None
        if tag == "a":  # a member of one: what its declared type gives
            return self.step(self.anonymous_member(entity), step)
        if tag == "t":  # a tuple type: its own instance; `#n` its part n (an instance); `[i]` any part
            # (a rest part's elements, `[A, ...B[]]`, follow the parts: any of them, and #1 on)
            fixed = self.facts(value).get("tuples", {}).get(entity[2], ())
            rest = self.facts(value).get("trests", {}).get(entity[2])
            parts = tuple(fixed) if rest is None else (*fixed, rest or None)
            if step == "[i]":  # iterated: each part, when every part is typed
                found = tuple(self.step(self.resolve(value, part), ":") if part else None for part in parts)
                return ("v", found) if parts and all(alt is not None for alt in found) else None
            if step in ARRAY_METHODS:  # `[A, ...A[]].map((a) => …)`: a method of an array of its parts
                types = tuple(self.resolve(value, part) if part else None for part in parts)
                if not parts or any(alt is None for alt in types):
                    return None
                return ("l", _array_of(types), step)
            if step == ":" or not step.startswith("#") or not step[1:].isdigit():
                return entity if step == ":" else None
            index = int(step[1:])
            part = fixed[index] if index < len(fixed) else rest
            return self.step(self.resolve(value, part), ":") if part else None
        if (
            tag == "r"
        ):  # an array: its own instance; `[i]`, `#n` an element; a library method; no project member
            if step == ":" or step == "[i]" or step.startswith("#"):
                return entity if step == ":" else self.step(value, ":")
            return ("l", entity, step) if step in ARRAY_METHODS else self.library_member("Array", step)
        if tag == "l":  # a library method of an array (`xs.find`): its result, its callback's parameters
            return self.array_method(entity, step)
        if tag == "h":  # a marker has no members
            return entity if step == ":" else None
        if tag == "K":  # keyed by another type's members: each names that member, holding anything
            # (or, a third item, what every member holds: `{ [k in keyof S]: Optional<S[k]> }`)
            if step == ":":
                return entity
            member = self.step(value, step) if is_ident(step) else None
            held = entity[2] if len(entity) > 2 else None
            if member is not None and member[0] == "s":
                return ("S", member[1]) if held is None else ("S", member[1], held)
            # (which member is not known, as before, but what it holds is)
            return ("H", held) if held is not None else None
        if tag == "S":  # such a member: which one it is is known, what it holds is not (or is
            # the third item: a member of a mapped type)
            return self.step(entity[2], step) if len(entity) > 2 else None
        if tag == "H":  # a member of a mapped type not known by name (a name hit), holding `value`
            return self.step(value, step)
        if tag == "b":  # a standard global (`Object`) or its instance: its members are the library's
            return ("b", value) if step == ":" else ("z", f"{value}.{step}") if is_ident(step) else None
        if tag == "z":  # such a member: what the lib declares it gives, when that is one plain type
            if value == "Promise.allSettled" and step == "()":
                return self.combined(value, "", None, None)  # (of values not known)
            return self.lib_result(value, step)
        if step == "[i]" and tag == "i":  # `x[k]`: what the index signature of x's type gives
            return self.indexed(entity, signatures=("indexes", "nindexes"))
        if (
            step == "[i]"
            and tag == "x"
            and value
            and not value.startswith(HOLDS_PROJECT)
            and len(entity) == 2
        ):
            # an element of a package's value given no project type (`for (const m of tx.mutations)`):
            # the package's, as its part `#0` and its members are
            return ("x", f"{value}.[i]")
        if step == "[i]" and tag != "v" and (tag != "s" or self.syms[value].kind not in TYPED):
            return None  # an element of something not known to be an array (a typed symbol may be)
        if tag == "x":
            if len(entity) > 2 and value.startswith(HOLDS_PROJECT):
                return self.package_step(entity, step)
            if value.startswith(HOLDS_PROJECT) or entity == _OWN_KEY:  # may be a project object: unknown
                return None
            return ("x", f"{value}.{step}") if value else ("x", "")
        if tag == "m":  # a module's namespace; `:`, what a promise of it settles to (`import("m")`)
            return entity if step == ":" else self.member(entity, step) if step != "()" else None
        if tag == "v":  # a union: the step on each alternative
            stepped = tuple(self.step(alt, step) for alt in value)
            declared = tuple(alt for alt in stepped if alt != _UNDECLARED)
            if len(declared) < len(stepped) and any(alt is not None for alt in declared):
                # `params.errorMap` of `Raw & { coerce?: true }`: the member of the parts declaring it
                # (TypeScript reads a member of a union only where narrowed to those parts)
                return declared[0] if len(declared) == 1 else ("v", declared)
            return ("v", stepped)
        sym = self.syms[value]
        if step[0] == "@":
            return self.callback_parameter(sym, step, entity) if tag == "s" else None
        if tag == "i":
            if step in ("()", ":"):
                return entity if step == ":" else self.signature_return(entity)
            if step[:1] == "#" and step[1:].isdigit():  # `x[0]`: what a (number) index signature gives
                element = self.indexed(entity, signatures=("nindexes", "indexes"))
                if element is not None:
                    return element
            member = self.class_member(value, step)
            if member is None and is_ident(step):  # a member it does not declare: its index signature's
                return self.indexed(entity)
            if member is not None and member[0] == "s":
                # the instance's bindings, or those its class gives a generic base declaring the
                # member (`class ZodString extends ZodType<string, ZodStringDef>`: `_def` is a
                # ZodStringDef)
                if len(entity) > 2:
                    bound = self.member_bindings(value, member[1], dict(entity[2]))
                    return ("s", member[1], frozen(bound)) if bound is not None else member
                bound = self.member_bindings(value, member[1], {})
                return ("s", member[1], frozen(bound)) if bound else member
            return member
        kind = sym.kind
        bound = dict(entity[2]) if len(entity) > 2 else None
        if step == ":":
            if kind == "enum":
                return ("i", value)
            if kind in CLASSLIKE or self.twin(sym, CLASSLIKE) is not None or self.is_shape(sym):
                return self.instance_of(entity, sym.path, "", None)
            if kind == "type" and self.facts(sym.path).get("sigrets", {}).get(sym.key):
                # a function type (`type F = () => R`): an instance is a function of that signature
                return ("i", value, frozen(bound)) if bound else ("i", value)
            if kind == "type" and self.facts(sym.path).get("generics", {}).get(sym.key):
                # a generic type alias: its unbound type parameters take their defaults
                return self.alias_instance(sym, bound if bound is not None else {})
            if kind in TYPED:
                if (
                    kind == "variable"
                    and sym.key not in self.facts(sym.path).get("vtypes", {})
                    and sym.symbol_path in self.table(sym.path).parents
                ):
                    return entity  # `[A, B]` with `const B = { setup() {} }`: the object itself
                # (a getter's value is what it returns: `T["shape"]` of a class with `get shape()`)
                typed = self.typed(sym, "rtypes" if kind == "getter" else "vtypes", bound)
                if typed is not None and typed[0] == "s" and typed[1] == value:
                    return None  # (`const X: X`, the chain meaning the value: as untyped)
                return self.step(typed, ":")
            return None
        if step == "()":
            if kind in ("function", "method"):
                return (
                    self.returned(sym, bound) or self.declared_call(sym, bound) or self.literal_key_call(sym)
                )
            if kind in CALLABLE:
                return self.typed(sym, "rtypes", bound)
            if kind in ("variable", "property"):
                return (
                    self.typed(sym, "rtypes", bound)
                    or self.call_alias(sym, bound)
                    or self.declared_call(sym, bound)
                    or self.written_call(sym, bound)
                    or self.literal_key_call(sym)
                )
            twin = self.twin(sym, CALLABLE)
            if twin is not None:
                return self.typed(twin, "rtypes")
            if kind in ("type", "interface"):
                # a function type, as what a function value declared with it returns is typed by
                # (`const make: Make = () => ({ … })`)
                return self.signature_return(("i", value, *entity[2:]))
            return None
        child = self.symbol(sym.path, f"{sym.symbol_path}.{step}")
        if child is not None:
            return ("s", child.id)
        if kind == "class":
            return self.class_member(value, step)
        if kind == "variable" and sym.key in self.facts(sym.path).get("spreads", {}):
            return self.spread_member(sym, step)
        if kind == "variable" and step in self.facts(sym.path).get("okeys", {}).get(sym.key, ()):
            return _OWN_KEY  # `const o = { port: 8080 }; o.port`: the literal's own key, no symbol
        if kind in ("variable", "property"):
            return self.step(self.typed(sym, "vtypes", bound), step)
        if kind == "function" and sym.key in self.facts(sym.path).get("vtypes", {}):
            # `const inRange: FilterFn<any> = (…) => …`, then `inRange.resolveFilterValue = …`: a
            # member of the declared type
            return self.step(self.typed(sym, "vtypes", bound), step)
        if kind == "getter":
            return self.step(self.typed(sym, "rtypes", bound), step)
        if kind == "namespace":
            spec = self.facts(sym.path).get("nsimports", {}).get(sym.key)
            module = self.module(sym.path, spec) if spec is not None else None
            return self.member(module, step) if module is not None and module[0] == "m" else module
        return None

    def computed_member(self, entity: Entity, step: str, path: str) -> Entity:
        """``x[KEY]`` where a module binds KEY: the member declared ``[KEY]: T`` with that same KEY
        (``[DRAFT_STATE]: MapState``; of each alternative of a union); else an element, what an index
        signature gives."""
        key = self.facts(path).get("ikeys", {}).get(step[1:-1])
        wanted = self.resolve(path, key) if key else None
        if wanted is not None:
            found = self.step(entity, step)
            # (an alternative without it: a part of an intersection, `{ [KEY]: T } & Base`)
            leaves = [leaf for leaf in _alternatives(found) if leaf is not None]
            if leaves and all(self.keyed_by(leaf, wanted) for leaf in leaves):
                return found
        return self.step(entity, "[i]")

    def keyed_by(self, member: Entity, wanted: Entity) -> bool:
        """Whether ``member`` is a member declared ``[KEY]: T`` whose KEY means ``wanted`` (of an
        object type written out: ``("a", path, key, "[KEY]")``)."""
        if member is not None and member[0] == "a":
            chain = self.facts(member[1]).get("ckeys", {}).get(f"{member[2]}.{member[3]}")
            return chain is not None and self.resolve(member[1], chain) == wanted
        if member is None or member[0] != "s":
            return False
        sym = self.syms[member[1]]
        chain = self.facts(sym.path).get("ckeys", {}).get(sym.key)
        return chain is not None and self.resolve(sym.path, chain) == wanted

    def signature_return(self, entity: tuple[Any, ...], depth: int = 0) -> Entity:
        """Calling an instance of an interface or type with a call signature (``interface
        UnaryFunction<T, R> { (source: T): R }``, also through the bases it extends with type
        arguments, ``OperatorFunction<T, R> extends UnaryFunction<Obs<T>, Obs<R>>``): its return type,
        the instance's type arguments bound; None when no signature is known."""
        sym = self.syms[entity[1]]
        bound = dict(entity[2]) if len(entity) > 2 else {}
        facts = self.facts(sym.path)
        chain = facts.get("sigrets", {}).get(sym.key)
        if chain:
            return self.resolve_in(sym.path, chain, bound)
        if depth > 8:
            return None
        for base in facts.get("bases", {}).get(sym.key, ()):
            found = self.resolve(sym.path, base)
            if found is None or found[0] != "s" or self.syms[found[1]].kind not in CLASSLIKE:
                continue
            base_sym = self.syms[found[1]]
            mapped = self.base_bindings(sym, base, base_sym, bound, depth + 1)
            made = self.signature_return(("i", base_sym.id, frozen(mapped)), depth + 1)
            if made is not None:
                return made
        return None

    def spread_member(self, sym: Sym, name: str) -> Entity:
        """A member an object literal bound to ``sym`` does not write out: the last of the objects it
        spreads (``{ ...a, ...b }``) that has it; None when one that comes later is not known."""
        return self.spread_part(sym.path, self.facts(sym.path)["spreads"][sym.key], name)

    def spread_part(self, path: str, parts: list[str | None], name: str) -> Entity:
        """Member ``name`` of an object literal of ``path`` that spreads the chains ``parts`` (in
        source order; ``=key`` a key it writes itself): the last spread's that has it; for a property
        (which may be optional, letting an earlier spread's show through) only when every spread
        that has one gives the same. None when a part is not known or is a key of that name."""
        found: Entity = None
        for chain in reversed(parts):
            if chain and chain.startswith("="):
                if chain[1:] == name:
                    return None  # `{ ...defaults, port: 8080 }`: its own key, no spread's member
                continue
            source = self.resolve(path, chain) if chain else None
            if source is None:
                return None
            member = self.step(source, name)
            if member is None or member == _UNDECLARED:  # (a part whose type lacks it: not there)
                continue
            if found is not None and member[:2] != found[:2]:
                return None
            if found is None and not (member[0] == "s" and self.syms[member[1]].kind == "property"):
                return member  # a method, function or module export: the later spread's wins
            found = found or member
        return found

    def declared_call(self, sym: Sym, bound: Subst | None) -> Entity:
        """Calling a function value declared with a named function type (``const create:
        CreateServerFn<R> = (options) => …``, its body's return type not written): what that
        type's call signature gives."""
        value = self.typed(sym, "vtypes", bound)
        if value is None or value[0] != "i" or self.syms[value[1]].kind not in ("type", "interface"):
            return None
        return self.signature_return(value)

    def written_call(self, sym: Sym, bound: Subst | None) -> Entity:
        """Calling a value declared with function types written out, joined (``pipe: ((o1: Op<T,
        O>) => Builder<O>) & (<T2, O>(o1: …, o2: …) => Builder<O>)``, overloads) or either: what
        one of them returns (each alternative's return, a union)."""
        value = self.typed(sym, "vtypes", bound)
        leaves = list(_alternatives(value)) if value is not None and value[0] == "v" else []
        if not leaves or any(leaf is None or leaf[0] != "o" for leaf in leaves):
            return None
        return self.step(value, "()")

    def call_alias(self, sym: Sym, bound: Subst | None) -> Entity:
        """Calling a variable or property that holds another function (``const number =
        ZodNumber.create``, ``const f = g``): what calling that function returns. Only a function,
        method or another such variable is followed (never an instance: calling an object is its
        type's call signature, which the value's own ``rtypes`` would give), to a bounded depth."""
        if self._alias_depth > 24:
            return None
        value = self.typed(sym, "vtypes", bound)
        if value is None or value[0] != "s":
            return None
        target = self.syms[value[1]]
        if target.id == sym.id or target.kind not in ("function", "method", "variable", "property"):
            return None
        self._alias_depth += 1
        try:
            return self.step(value, "()")
        finally:
            self._alias_depth -= 1

    def aliased_class(self, sym: Sym) -> int | None:
        """The project class or interface a type alias names (``type A = B<T>``, ``type R =
        Pick<B, "x">``, ``Partial<B>``, …): its id, else None (an object type written out, a union, a
        conditional type, anything outside). Only the name is resolved: no alias is unfolded."""
        chain = self.facts(sym.path).get("vtypes", {}).get(sym.key) if sym.kind == "type" else None
        named = _NAMED_TYPE.fullmatch(chain) if isinstance(chain, str) else None
        if named is None:
            return None
        found = self.resolve(sym.path, named.group(1))
        if found is None or found[0] != "s" or found[1] == sym.id:
            return None
        cls = self.syms[found[1]]
        if cls.kind not in CLASSLIKE:
            cls = self.twin(cls, CLASSLIKE) or cls
        return cls.id if cls.kind in CLASSLIKE and cls.id != sym.id else None

    def intersected(self, sym: Sym) -> list[int]:
        """The project classes and interfaces a type alias of an intersection names (``type Both =
        Base & Extra & { id: string }``: Base, Extra); empty for anything else."""
        chain = self.facts(sym.path).get("vtypes", {}).get(sym.key) if sym.kind == "type" else None
        if not isinstance(chain, str) or not chain.startswith("U:"):
            return []
        facts = self.facts(sym.path)
        if chain[2:] not in facts.get("isects", ()):
            return []
        out: list[int] = []
        for part in facts.get("unions", {}).get(chain[2:], ()):
            # only the name is resolved (as `aliased_class` does): no generic alias is unfolded
            named = _NAMED_TYPE.fullmatch(part) if part else None
            head = named.group(1) if named is not None else part if part and "|" not in part else None
            found = self.resolve(sym.path, head) if head else None
            if found is not None and found[0] == "s" and found[1] != sym.id:
                cls = self.syms[found[1]]
                if cls.kind in CLASSLIKE and cls.id not in out:
                    out.append(cls.id)
        return out

    def declared_chain(self, entity: Entity) -> str | None:
        """The chain of the type a symbol's declaration writes (``list: D[]``: ``P:…|[]|:``), as
        the file's facts hold it; None for anything else."""
        if entity is None or entity[0] != "s":
            return None
        sym = self.syms[entity[1]]
        chain = self.facts(sym.path).get("vtypes", {}).get(sym.key)
        return chain if isinstance(chain, str) else None

    def own_literal(self, entity: Entity) -> bool:
        """Whether ``entity`` is a member of an object literal's own type (``("a", path, key,
        name)`` with key in fact ``olits``): no symbol, judged with the literal's key."""
        if entity is None or entity[0] != "a":
            return False
        found = self._olits.get(entity[1])
        if found is None:
            found = self._olits[entity[1]] = frozenset(self.facts(entity[1]).get("olits", ()))
        return entity[2] in found

    def anonymous_member(self, entity: tuple[Any, ...]) -> Entity:
        """The value of a member of an object type written out (``("a", path, key, name)``)."""
        chain = self.facts(entity[1]).get("objects", {}).get(entity[2], {}).get(entity[3])
        return self.resolve(entity[1], chain) if chain else None

    def alias_instance(self, sym: Sym, bound: Subst) -> Entity:
        """An instance of what a generic type alias stands for, its type parameters bound: once
        per alias and bindings, to a bounded depth and, from the outermost alias, a bounded number
        of aliases (a recursive conditional alias, ``DeepKeysAndValuesImpl<T[K], …>`` in each of its
        branches, unfolds exponentially): past either it is of no known type."""
        if self._alias_depth == 0:
            self._alias_work = 0
        if self._alias_depth > 24 or self._alias_work > _ALIAS_WORK:
            return None
        self._alias_work += 1
        try:
            key: tuple[Any, ...] = ("a", sym.id, frozen(bound))
            hash(key)
        except TypeError:  # (bindings holding something unhashable: computed each time)
            key = ()
        self._alias_depth += 1
        try:
            if not key:
                return self.step(self.typed(sym, "vtypes", bound), ":")
            return self._tracked(key, lambda: self.step(self.typed(sym, "vtypes", bound), ":"))
        finally:
            self._alias_depth -= 1

    def returned(self, sym: Sym, bound: Subst | None = None, explicit: bool = False) -> Entity:
        """What calling a function returns: what its declarations with a declared return type
        give (overloads come first; the implementation's own, often ``any``, is not visible), or
        unknown when its overloads give different things (which one a call picks is not judged;
        instances of one class with different type arguments are that class, its type parameters
        unbound). An overload whose parameter list is written as an earlier one's is never picked
        by a call without type arguments (``explicit``): TypeScript takes the first that fits."""
        decls = [d for d in self.table(sym.path).by_path.get(sym.symbol_path, (sym,)) if d.kind == sym.kind]
        if not explicit and len(decls) > 2:
            psigs, seen = self.facts(sym.path).get("psigs", {}), set()
            for decl in list(decls):
                written = psigs.get(decl.key)
                if written is not None and written in seen:
                    decls.remove(decl)
                elif written is not None:
                    seen.add(written)
        found: list[Entity] = []
        rtypes = self.facts(sym.path).get("rtypes", {})
        overloads = sum(1 for decl in decls if rtypes.get(decl.key))
        for decl in decls:
            given = self.typed(decl, "rtypes", bound)
            declared = rtypes.get(decl.key)
            if overloads > 1 and declared and (given is None or given[0] != "i" or declared.startswith("T:")):
                # an overload returning what is not known here (`this`), or what the call's type
                # arguments decide (`T`, `InstanceType<K>`): which one a call picks is not judged
                return None
            if given is not None and given not in found:
                found.append(given)
            if given is not None and len(decls) == 1:
                break
        if len(found) > 1 and len(decls) > 2:
            # overloads (and an implementation): drop the implementation's own when it differs
            found = [f for f in found if f != self.typed(decls[-1], "rtypes", bound)] or found
        classes = {f[1] for f in found if f is not None and f[0] == "i"}
        if len(found) > 1 and len(classes) == 1 and all(f is not None and f[0] == "i" for f in found):
            return ("i", classes.pop())  # instances of one class, bound apart: its members are known
        return found[0] if len(found) == 1 else None

    def value_meaning(self, entity: tuple[Any, ...]) -> Entity:
        """A name read as a value (`x.m`, `x()`) means its value
        declaration when a type shares the name (``const s = …`` + ``type s = …``, one binding
        in the analyzer's scope): the type alias or interface has no members of its own to read."""
        sym = self.syms[entity[1]]
        if sym.kind not in ("interface", "type"):
            return entity
        twin = self.twin(sym, _VALUE_MEANING)
        return ("s", twin.id) if twin is not None else entity

    def meaning(self, symbol_id: int, kind: str) -> int:
        """The declaration of a type or value name that a type (value) position means, when a
        type and a value share the name (``interface X`` + ``const X``)."""
        if kind in ("import", "export", "definition"):
            return symbol_id
        sym = self.syms[symbol_id]
        twins = self.table(sym.path).by_path.get(sym.symbol_path, ())
        if len(twins) < 2:
            return symbol_id
        wanted = (
            _TYPE_MEANING
            if kind == "type"
            else ("class", "interface")
            if kind == "inherit"
            else _VALUE_MEANING
        )
        if sym.kind in wanted:
            return symbol_id
        return next((t.id for t in twins if t.kind in wanted), symbol_id)

    def callback_parameter(self, sym: Sym, step: str, entity: tuple[Any, ...]) -> Entity:
        """``@k.j``: the declared type of parameter j of the callback parameter k of a function
        (``@@``: of a class's constructor; of a variable or property declared with a function type,
        ``setPagination: (updater: Updater<State>) => void``, through that type)."""
        target, chain = self.callback_chain(sym, step)
        if target is not None and chain:
            bound = dict(entity[2]) if len(entity) > 2 and entity[2] else None
            # a method of a generic class's instance (`box.map((v) => …)` of a `Box<User>`): its
            # class's type parameters as the instance binds them
            return self.resolve_in(target.path, chain, bound) if bound else self.resolve(target.path, chain)
        k, _, j = step.lstrip("@").partition(".")
        if step.startswith("@@") or not k.isdigit() or not (j.isdigit() or j == "return"):
            return None
        if target is None:
            called = self.called(entity) if sym.kind in ("variable", "property") else None
            declared = called(int(k)) if called is not None else None
        else:
            # a parameter declared with a function type alias or a callable interface (`h: Handler`)
            decl, chain = self.parameter_chain(target, int(k))
            declared = self.resolve(decl.path, chain) if chain else None
        if j == "return":  # an object literal the callback returns has the declared return type
            return self.returned_by(declared)
        signature = self.signature_of(declared) if declared is not None else None
        return signature(int(j)) if signature is not None else None

    def returned_by(self, typed: Entity, depth: int = 0) -> Entity:
        """What calling a value of the type ``typed`` gives (an instance of a function type alias,
        a callable interface or a function type written out); of a union, that of its only
        alternative with a call signature (``T | ((old: T) => T)``)."""
        if typed is None or depth > 8:
            return None
        if typed[0] == "v":
            callables = [alt for alt in typed[1] if self.signature_of(alt) is not None]
            return self.returned_by(callables[0], depth + 1) if len(callables) == 1 else None
        if typed[0] == "o":
            chain = self.facts(typed[1]).get("sigrets", {}).get(typed[2])
            bound = dict(typed[3]) if len(typed) > 3 else None
            return self.resolve_in(typed[1], chain, bound) if chain else None
        if typed[0] == "i" and self.syms[typed[1]].kind in ("type", "interface"):
            sym = self.syms[typed[1]]
            if sym.kind == "interface" or self.facts(sym.path).get("sigrets", {}).get(sym.key):
                return self.signature_return(typed)
            bound = dict(typed[2]) if len(typed) > 2 else None
            return self.returned_by(self.typed(sym, "vtypes", bound), depth + 1)
        return None

    def callback_chain(self, sym: Sym, step: str) -> tuple[Sym | None, str | None]:
        """The function declaring the callback parameter of ``@k.j`` and the chain of its type."""
        target: Sym | None = sym
        if step.startswith("@@"):
            target = self.symbol(sym.path, f"{sym.symbol_path}.constructor") if sym.kind == "class" else None
        elif sym.kind not in CALLABLE:
            target = self.twin(sym, CALLABLE)
        if target is None:
            return None, None
        k, _, j = step.lstrip("@").partition(".")
        if j in ("this", "return"):  # the declared `this` / return type of the callback
            found = self.facts(target.path).get("cbtypes", {}).get(target.key, {}).get(f"{k}{j}", ())
            return target, found[0] if found else None
        chains = self.facts(target.path).get("cbtypes", {}).get(target.key, {}).get(k, ())
        index = int(j)
        last = len(chains) - 1
        if chains and index >= last and chains[last] and chains[last].endswith(f"|{REST_PARTS}"):
            # `(...args: [...T]) => R`: parameter j is part j - last of T
            return target, f"{chains[last].removesuffix(REST_PARTS)}#{index - last}"
        return target, chains[index] if index < len(chains) else None

    def class_member(self, class_id: int, name: str) -> Entity:
        return self._tracked(("k", class_id, name), lambda: self._class_member(class_id, name))

    def _class_member(self, class_id: int, name: str) -> Entity:
        cls = self.syms[class_id]
        if cls.kind not in CLASSLIKE:
            own = self.symbol(cls.path, f"{cls.symbol_path}.{name}") if self.is_shape(cls) else None
            return ("s", own.id) if own is not None else None
        sym = self.symbol(cls.path, f"{cls.symbol_path}.{name}")
        if sym is not None:
            return ("s", sym.id)
        external = False
        holding = False  # a package's generic class given a project type (`React.Component<Props>`)
        for base in self.facts(cls.path).get("bases", {}).get(cls.key, ()):
            found = self.resolve(cls.path, base)
            if (
                found is not None
                and found[0] == "s"
                and self.syms[found[1]].kind in TYPED
                and not self.is_shape(self.syms[found[1]])  # `type Base = { a: A }`: its members
            ):
                twin = self.twin(self.syms[found[1]], CLASSLIKE)  # `interface X` + `const X`: the type
                found = ("s", twin.id) if twin is not None else self.typed(self.syms[found[1]], "vtypes")
            if found is None:
                continue
            if found[0] in ("x", "b"):  # a package's class, a standard global (`extends Error`)
                external = external or bool(found[1])
                if found[1] and self.given_project_type(cls, base):
                    args = self.facts(cls.path).get("bargs", {}).get(cls.key, {}).get(base, ())
                    given = tuple(self.resolve(cls.path, arg) if arg else None for arg in args)
                    if found[0] == "x":
                        # `extends Component<Props>`: `this.props` where the package declares `props: P`
                        member = self.package_step(("x", f"{HOLDS_PROJECT}.{found[1]}", given), name)
                        if member is not None:
                            return member
                    elif found[1] in ("Array", "ReadonlyArray") and len(given) == 1 and name in ARRAY_METHODS:
                        return ("l", ("r", given[0]), name)  # `extends Array<Job>`: `this.reduce(…)`
                    # (`extends Map<string, Job>`: what `this.get(k)` gives may be a Job)
                    holding = True
                continue
            if found[0] in ("s", "i"):
                member = self.class_member(found[1], name)
                if member is not None and member[0] != "x":
                    return member
                external = external or member is not None
        if holding:  # its member may be built from the project type (`this.props.title`)
            return ("x", f"{HOLDS_PROJECT}.{name}")
        return ("x", f"?.{name}") if external else None

    def given_project_type(self, cls: Sym, base: str) -> bool:
        """Whether the class gives its base ``base`` a type argument naming a project type."""
        args = self.facts(cls.path).get("bargs", {}).get(cls.key, {}).get(base, ())
        return any(
            (found := self.resolve(cls.path, arg)) is not None and found[0] in ("s", "i", "o")
            for arg in args
            if arg
        )


def _is_module(facts: dict[str, Any]) -> bool:
    """Whether a file has module syntax (top-level import/export): its declarations are its own."""
    return bool(facts.get(REACH, {}).get("esm"))


def _extends_globals(facts: dict[str, Any], names: Iterable[str]) -> bool:
    """Whether a file's top-level names (before or after a change) may extend a standard global:
    a ``declare global`` block, or a library interface's name declared in a script."""
    found = set(names)
    return "global" in found or (not _is_module(facts) and bool(found & _GLOBAL_TYPES))


def is_test_file(path: str) -> bool:
    """``*.test.ts``, ``*.spec.js``, ``__tests__/``, ``test/`` and ``tests/`` folders."""
    stem = posixpath.basename(path).split(".", 1)
    rest = "." + stem[1] if len(stem) > 1 else ""
    return any(rest.startswith(s + ".") or stem[0].endswith(s) for s in _TEST_SUFFIXES) or any(
        f"/{d}/" in f"/{path}" for d in ("__tests__", "test", "tests")
    )


class TsLinker:
    def __call__(self, conn: sqlite3.Connection, changes: Changes) -> None:
        fresh: dict[str, dict[str, Any]] = {}
        for path, facts in changes.facts.items():
            if facts.language in _LANGUAGES:
                fresh[path] = facts.extra.get(FACTS) or {"refs": []}
        removed = [
            p
            for p in changes.removed_paths
            if p.endswith((".ts", ".tsx", ".js", ".jsx", ".mts", ".cts", ".mjs", ".cjs"))
        ]
        if not fresh and not removed and not changes.configs_changed:
            return
        resolver = Resolver(conn, fresh)
        if not resolver.file_ids and not removed:
            return
        previous: dict[str, list[Any]] = {}
        for path in fresh:
            row = conn.execute("SELECT symbols FROM module_facts WHERE path = ?", (path,)).fetchone()
            if row is not None:
                previous[path] = json.loads(row[0]) or ["", [], "", {}]
        added = any(path not in previous for path in fresh)
        for path in removed:
            conn.execute("DELETE FROM module_facts WHERE path = ?", (path,))
        reshaped: list[str] = []  # changed files whose shape (what importers see) changed
        id_map: list[tuple[int, int]] = []
        for path, payload in fresh.items():
            data = json.dumps(
                {k: v for k, v in payload.items() if k not in LOCAL_FIELDS}, separators=(",", ":")
            )
            syms = sorted(
                (sym for group in resolver.table(path).by_path.values() for sym in group),
                key=lambda sym: (sym.line, sym.key, sym.id),
            )
            digest = shape(payload, ((sym.symbol_path, sym.kind, sym.key) for sym in syms))
            rest, names = name_shapes(payload, ((sym.symbol_path, sym.kind, sym.key, sym.id) for sym in syms))
            old_digest, old_ids, old_rest, old_names = previous.get(path, ["", [], "", {}])
            if old_digest == digest and len(old_ids) == len(syms):
                id_map.extend(zip(old_ids, (sym.id for sym in syms), strict=True))
            elif old_rest == rest:
                # only some names changed: the files that consulted them are re-linked, the rest remapped
                for name in old_names.keys() | names.keys():
                    old, new = old_names.get(name), names.get(name)
                    if old is not None and new is not None and old[0] == new[0]:
                        id_map.extend(zip(old[1], new[1], strict=True))
                    else:
                        reshaped.append(f"{path}::{name}")
            else:
                reshaped.append(path)
            if old_digest != digest and _extends_globals(payload, old_names.keys() | names.keys()):
                reshaped.append(_GLOBAL_DEP)  # a standard global's type extended (or no longer)
            if old_digest != digest and payload.get("augments"):
                reshaped.append(_AUGMENT_DEP)  # a package's types augmented
            record = json.dumps([digest, [sym.id for sym in syms], rest, names], separators=(",", ":"))
            conn.execute(
                "INSERT OR REPLACE INTO module_facts(path, data, symbols) VALUES (?, ?, ?)",
                (path, data, record),
            )
        full = changes.full or changes.configs_changed or added or bool(removed)
        if full:
            targets = list(resolver.file_ids)
        else:
            remap_symbol_ids(conn, id_map)
            targets = sorted(set(fresh) | self.dependants(conn, resolver, reshaped))
        bulk = full and len(targets) > _BULK
        old_rows = _take_rows(conn, resolver, targets) if bulk else None
        dropped = drop_indexes(conn) if bulk else []
        try:
            for path in targets:
                if path in resolver.file_ids:
                    self.link_file(conn, resolver, path, old_rows)
        finally:
            for sql in dropped:
                conn.execute(sql)

    @staticmethod
    def dependants(conn: sqlite3.Connection, resolver: Resolver, paths: list[str]) -> set[str]:
        if not paths:
            return set()
        ids: set[int] = set()
        for start in range(0, len(paths), 500):
            chunk = paths[start : start + 500]
            ids.update(
                row[0]
                for row in conn.execute(
                    f"SELECT DISTINCT file_id FROM link_deps WHERE dep IN ({','.join('?' * len(chunk))})",
                    chunk,
                )
            )
        by_id = {v: k for k, v in resolver.file_ids.items()}
        return {by_id[i] for i in ids if i in by_id}

    def link_file(
        self,
        conn: sqlite3.Connection,
        resolver: Resolver,
        path: str,
        old_rows: dict[int, list[tuple[Any, ...]]] | None = None,
    ) -> None:
        """(Re-)link one file; ``old_rows``: every target's stored rows, taken out in bulk."""
        file_id = resolver.file_ids[path]
        payload = resolver.fresh.get(path)
        if payload is not None:
            rows: list[tuple[Any, ...]] = [tuple(r) for r in payload.get("refs", ())]
        elif old_rows is not None:
            rows = old_rows.get(file_id, [])
        else:
            # once each: a union member's rows for its other alternatives are made again
            rows = list(
                dict.fromkeys(
                    conn.execute(
                        "SELECT name, line, col, end_col, kind, target_key, scope_path FROM refs"
                        " WHERE file_id = ? ORDER BY id",
                        (file_id,),
                    )
                )
            )
            conn.execute("DELETE FROM refs WHERE file_id = ?", (file_id,))
        if old_rows is None:
            conn.execute("DELETE FROM edges WHERE file_id = ?", (file_id,))
            conn.execute("DELETE FROM link_deps WHERE file_id = ?", (file_id,))
        resolver.deps = set()
        table = resolver.table(path)
        tests = is_test_file(path)
        seen: dict[str, Any] = {}  # chains resolved in this file (their deps are recorded once)
        out: list[tuple[Any, ...]] = []
        edges: dict[tuple[int | None, int | None, str | None, str], int] = {}
        for name, line, col, end_col, kind, target, owner in rows:
            symbol_id: int | None = None
            if target is not None and target.startswith((MISSING_NAMESPACE, UNKNOWN_RECEIVER)):  # judge anew
                target = target[1 if target[0] == UNKNOWN_RECEIVER else len(MISSING_NAMESPACE) :]
            if target is None or target == UNTYPED_KEY or target.startswith(TEMPLATE):
                confidence = "name"  # a string, an untyped key, a member name made at run time
            else:
                entity = seen.get(target, _UNSEEN)
                if entity is _UNSEEN:
                    entity = seen[target] = resolver.resolve(path, target)
                if entity is not None and entity[0] == "S":  # a member known by name only
                    entity = ("s", entity[1])
                if entity is not None and entity[0] == "H":  # which member is not known
                    entity = None
                if resolver.own_literal(entity):
                    entity = None  # an object literal's own member: judged with its key (a name hit)
                if entity is not None and entity[0] == "v":
                    row = (file_id, target, name, line, col, end_col, kind, owner)
                    entity = _union_symbol(entity, out, row, resolver.own_literal)
                if entity is None:
                    confidence = "name" if "|" in target else "none"
                    if confidence == "name" and resolver.through_missing_namespace(path, target):
                        target = MISSING_NAMESPACE + target
                    elif confidence == "name" and (
                        _unknown_element(resolver, path, target) or _as_untyped(target)
                    ):
                        target = UNKNOWN_RECEIVER + target  # as untyped as a receiver without a chain
                elif entity[0] != "s":
                    if kind == "inherit" and entity[0] in ("x", "b") and entity[1]:
                        # `extends Error` / a package's class: the family guard asks what it defines
                        src_sym = table.by_key.get(owner) if owner else None
                        if src_sym is not None:
                            base = f"{JS_GLOBAL}{entity[1]}" if entity[0] == "b" else f"js:{entity[1]}"
                            edges.setdefault((src_sym.id, None, base, "inherits"), line)
                    if (
                        target.startswith("P:")
                        and "|" not in target
                        and (entity == _NO_SYMBOL or entity[0] == "m")
                    ):
                        # a local declaration without a symbol, or a namespace import standing for its
                        # module: both follow from this file alone, which is re-parsed when it changes
                        continue
                    confidence = "none"
                else:
                    symbol_id = resolver.meaning(entity[1], kind)
                    confidence = "certain"
                    sym = resolver.syms[symbol_id]
                    if sym.path == path and sym.key == f"{line}:{col}":
                        kind = "definition"
            out.append((file_id, symbol_id, target, name, line, col, end_col, kind, confidence, owner))
            if symbol_id is None or kind == "definition":
                continue
            src_sym = table.by_key.get(owner) if owner else None
            src = src_sym.id if src_sym is not None else None
            if src == symbol_id:
                continue
            edges.setdefault((src, symbol_id, None, _EDGE_KIND.get(kind, "references")), line)
            if tests and src is not None and kind in ("call", "read", "type"):
                edges.setdefault((src, symbol_id, None, "tests"), line)
        for symbol_path, syms in table.by_path.items():
            parent = symbol_path.rpartition(".")[0]
            parent_syms = table.by_path.get(parent) if parent else None
            for sym in syms:
                edges.setdefault(
                    (parent_syms[0].id if parent_syms else None, sym.id, None, "contains"), sym.line
                )
                aliased = resolver.aliased_class(sym)
                if aliased is not None:
                    # `type Reader = Pick<Index, "supports">`: a class implementing Reader overrides
                    # Index's members (override families walk inherits edges through the alias)
                    edges.setdefault((sym.id, aliased, None, "inherits"), sym.line)
                for part in resolver.intersected(sym):
                    # `type Both = Base & Extra`: it has the members of each (structural partners
                    # find Extra's `label` in an interface extending Both)
                    edges.setdefault((sym.id, part, None, "inherits"), sym.line)
        conn.executemany(
            "INSERT INTO refs(file_id, symbol_id, target_key, name, line, col, end_col, kind, confidence,"
            " scope_path) VALUES (?,?,?,?,?,?,?,?,?,?)",
            out,
        )
        conn.executemany(
            "INSERT INTO edges(file_id, src_symbol_id, dst_symbol_id, dst_key, kind, line) VALUES (?,?,?,?,?,?)",
            [(file_id, src, dst, key, kind, line) for (src, dst, key, kind), line in edges.items()],
        )
        resolver.deps.discard(path)
        conn.executemany(
            "INSERT INTO link_deps(file_id, dep) VALUES (?, ?)",
            [(file_id, dep) for dep in sorted(resolver.deps)],
        )


# an instance of an array type written `X[]`, of a tuple type written out (`[A, B]`)
_WRITTEN_ARRAY = re.compile(r"\|\[\]\|:(/[^|]*)?$")
_WRITTEN_TUPLE = re.compile(r"Q:[^|]*\|:(/[^|]*)?$")


def _unknown_element(resolver: Resolver, path: str, target: str) -> bool:
    """A member of an element (``xs[i].m``, ``xs[0].m``, ``for (x of xs) x.m``) of something not known to be an
    array (a record, an index signature), narrowed or not: the receiver is as unknown as one without a chain."""
    receiver = target.rpartition("|")[0]
    last = receiver.rpartition("|")[2]
    while last[:1] == "~":  # narrowed by discriminants (`{ done: false }`): still the element
        receiver = receiver.rpartition("|")[0]
        last = receiver.rpartition("|")[2]
    element = (last[:1] == "[" and last != "[]") or (last[:1] == "#" and last[1:].isdigit())
    anything = receiver.startswith(UNTYPED_KEY + "|")  # an element of a value typed `any`: anything
    if not element or anything or resolver.resolve(path, receiver) is not None:
        return False
    container = receiver.rpartition("|")[0]
    if _written_elements(container):
        return False  # an element of an array written `X[]` (a part of a tuple written out): typed, though not read
    # an element of what a package gives (`const [todo] = useState<Todo>(…)`) is no receiver
    # nobody typed: the package's type may give anything there, so the one project member of a
    # name is no likely reference of it
    held = resolver.resolve(path, container)
    if _written_elements(resolver.declared_chain(held) or ""):
        return False  # (of a member declared so: `items: D[]`, then `o.items[0].m`)
    return not (held is not None and held[0] == "x" and str(held[1]).startswith(HOLDS_PROJECT))


def _written_elements(chain: str) -> bool:
    """Whether ``chain`` is an instance of an array type written ``X[]`` or of a tuple type written out."""
    return _WRITTEN_ARRAY.search(chain) is not None or _WRITTEN_TUPLE.match(chain) is not None


def _as_untyped(target: str) -> bool:
    """A chain, left unknown on the way, from a type TypeScript's lib declares that is no standard
    global object (``G:ProxyHandler|:|get|%0|type_``: the trap's parameter) or from an object
    literal's spreads (``W:12:5|memoize``, spreads that give different members): as untyped as a
    receiver without a chain, which such values had before these were read. Not a key of an object
    literal handed to such a type's constructor or function (``G:IntersectionObserver|&&1|+threshold``):
    the literal is what the lib's parameter takes, no value of a project type, so the key is never
    read as the project's one member of that name (start-client-core's ``{ rootMargin, threshold
    }`` was renamed with ``VisibleHydrationOptions.threshold``: seed 404)."""
    if target.startswith("W:"):
        return True
    name = target.partition("|")[0].removeprefix(GLOBAL) if target.startswith(GLOBAL) else ""
    steps = target.split("|")
    if steps[-1][:1] == "+" and any(step[:1] == "&" for step in steps[1:-1]):
        return False
    return bool(name) and name not in GLOBAL_OBJECTS and "|" in target


def _array_of(parts: tuple[Entity, ...]) -> Entity:
    """An array of a tuple's parts (each known): of the one entity they all are, else of their union."""
    return ("r", parts[0] if one_alternative(parts) else ("v", parts))


def _union_symbol(
    entity: tuple[str, Any],
    out: list[tuple[Any, ...]],
    row: tuple[Any, ...],
    own_literal: Callable[[Entity], bool],
) -> Entity:
    """A member of a union type is a reference of the member of every alternative that has
    it in the project (TypeScript's union property; nested unions and intersections alike): rows
    for all but the first are added here, the first is returned. None when no alternative resolved.
    An alternative outside the project (``(delegate || Date).now()``), or an object type written
    out whose member has that name, adds a row of no symbol (confidence ``none``) with the same
    target at the same place: the rename guard refuses to rename the project's member read there."""
    found: list[int] = []
    # (a member of a mapped type not known by name is as unknown as any other)
    leaves = [None if alt is not None and alt[0] == "H" else alt for alt in _alternatives(entity)]
    if any(own_literal(alt) for alt in leaves):
        return None  # (an object literal's own member: a name hit, judged with the literal's key)
    for alt in leaves:
        if alt is not None and alt[0] in ("s", "S") and alt[1] not in found:
            found.append(alt[1])
    if not found:
        # (the member of an object type written out, the others lacking it, `Base & { parse: … }`,
        # has no symbol, as where that type is written alone: `x: { parse: … }`)
        written_out = any(alt is not None and alt[0] == "a" for alt in leaves)
        return ("x", "") if written_out or all(alt is not None for alt in leaves) else None
    file_id, target, name, line, col, end_col, kind, owner = row
    for other in found[1:]:
        out.append((file_id, other, target, name, line, col, end_col, kind, "certain", owner))
    if any(_is_outside(alt, name) or (alt is not None and alt[0] == "a") for alt in leaves):
        # (or a member of an object type written out, which has no symbol to rename with it:
        # `HydrationRuntimeGate & { when: HydrationWhen }`)
        out.append((file_id, None, target, name, line, col, end_col, kind, "none", owner))
    return ("s", found[0])


def _is_outside(entity: Entity, name: str) -> bool:
    """A member ``name`` of a type outside the project: a package's (a key of a literal given where a
    package declares a type of its own, too), a library method of an array,
    map or promise, or a standard global's member when its type has one of that name (``Date.now``;
    not ``remove`` on the array of a ``Subscription[] | Subscription`` narrowed by ``Array.isArray``,
    which this reading does not follow)."""
    if entity is None:
        return False
    if entity[0] == "l":
        return True
    if entity[0] == "z":
        known = LIBRARY_TYPE_MEMBERS.get(entity[1].partition(".")[0])
        return name in (known if known is not None else JS_LIBRARY_MEMBERS)
    return entity[0] == "P" or (entity[0] == "x" and bool(entity[1]))


def _take_rows(
    conn: sqlite3.Connection, resolver: Resolver, targets: list[str]
) -> dict[int, list[tuple[Any, ...]]]:
    """Stored rows of the targets not re-parsed, then every target's refs/edges/deps removed,
    in a few statements (per-file statements on a big project scan tables per file)."""
    conn.execute("CREATE TEMP TABLE IF NOT EXISTS ts_link_targets (id INTEGER PRIMARY KEY)")
    conn.execute("DELETE FROM ts_link_targets")
    ids = [resolver.file_ids[p] for p in targets if p in resolver.file_ids]
    conn.executemany("INSERT OR IGNORE INTO ts_link_targets(id) VALUES (?)", [(i,) for i in ids])
    out: dict[int, list[tuple[Any, ...]]] = {}
    for file_id, *row in conn.execute(
        "SELECT file_id, name, line, col, end_col, kind, target_key, scope_path FROM refs"
        " WHERE file_id IN (SELECT id FROM ts_link_targets) ORDER BY id"
    ):
        out.setdefault(file_id, []).append(tuple(row))
    for file_id, rows in out.items():  # once each: a union member's other rows are made again
        out[file_id] = list(dict.fromkeys(rows))
    for table in ("refs", "edges", "link_deps"):
        conn.execute(f"DELETE FROM {table} WHERE file_id IN (SELECT id FROM ts_link_targets)")
    conn.execute("DELETE FROM ts_link_targets")
    return out


def make_linker() -> Callable[[sqlite3.Connection, Changes], None]:
    return TsLinker()
