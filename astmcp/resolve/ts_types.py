"""Type-level steps of the TS/JS linker (:mod:`astmcp.resolve.typescript`).

Generics: a type parameter (``T:<key>``) is bound at a call site (explicit type arguments, the
generic annotation of the variable the call initialises, an argument passed for a parameter
declared as ``T``), else takes its default, else its constraint; an instance of a generic
class/interface carries its bindings (third item of the entity) to the members reached through
it, mapped through the type arguments of the base that declares them. Also: declared parameter
types (``&k``: object literals passed there; ``%j``: function values typed by a declared
function type or member), methods returning ``this``, object type aliases, library containers
(arrays, maps, promises), index signatures and discriminant narrowing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from pathlib import PurePosixPath
from typing import Any

from astmcp.model import JAVASCRIPT, LANGUAGE_BY_SUFFIX
from astmcp.resolve.ts_descriptors import REST_PARTS
from astmcp.resolve.ts_library import ARRAY_CALLBACKS, ARRAY_RESULTS
from astmcp.resolve.ts_scopes import MAPPED, SAME_RETURNS, UNTYPED_KEY

__all__ = [
    "CALLABLE",
    "CLASSLIKE",
    "HOLDS_PROJECT",
    "TYPED",
    "Entity",
    "Subst",
    "Sym",
    "Table",
    "TypeSteps",
    "common_entity",
    "frozen",
    "one_alternative",
]

# (tag, value) or, for an instance of a generic class/interface and a member reached through
# one, (tag, value, bindings): its type parameters' bindings as sorted (key, entity) pairs
Entity = tuple[Any, ...] | None
Subst = dict[str, Entity]
CLASSLIKE = ("class", "interface")
TYPED = ("variable", "property", "getter", "setter", "type")
CALLABLE = ("function", "method", "getter", "constructor")
# the value prefix of what a package's generic type gives when it is given a project type: a member
# a project class inherits from it (`props` of `class Frame extends React.Component<Props>`), an
# instance of it (`store: Store<State>`, whose `store.state` is a State)
HOLDS_PROJECT = "?*"
THIS = "this"  # the binding of the type `this` in what a method returns (see `this_argument`)
_EXCLUDED: Any = object()  # an alternative a discriminant test leaves out
_BOOLEANS = frozenset({"true", "false"})
_PRIMITIVE_TYPES = frozenset({"String", "Number", "Boolean", "BigInt", "Symbol"})
_TRUTHY = frozenset({"true"})  # `if (x.ok)` tests `ok` for true


class Sym:
    """A symbol row as the linker reads it (``key``: its name position ``line:col``)."""

    __slots__ = ("exported", "id", "key", "kind", "line", "path", "symbol_path")

    def __init__(self, row: tuple[Any, ...], path: str) -> None:
        self.id, self.symbol_path, self.kind, line, col, self.exported, self.line = row
        self.key = f"{line}:{col}"
        self.path = path


class Table:
    """A file's symbols by symbol path (declarations in line order) and by name position."""

    __slots__ = ("by_key", "by_path", "parents")

    def __init__(self) -> None:
        self.by_path: dict[str, list[Sym]] = {}
        self.by_key: dict[str, Sym] = {}
        self.parents: set[str] = set()  # symbol paths with members (`B` of `const B = { setup() {} }`)


class TypeSteps:
    """The linker's type-level steps; the chain resolution they rely on is the resolver's."""

    syms: dict[int, Sym]
    file_ids: dict[str, int]
    deps: set[str]  # what the link being made reads (the resolver's tracking)

    # implemented by the resolver (astmcp.resolve.typescript.Resolver)
    def facts(self, path: str) -> dict[str, Any]:
        raise NotImplementedError

    def anonymous_member(self, entity: tuple[Any, ...]) -> Entity:
        raise NotImplementedError

    def table(self, path: str) -> Table:
        raise NotImplementedError

    def specs(self, path: str) -> dict[str, tuple[str | None, int]]:
        raise NotImplementedError

    def symbol(self, path: str, symbol_path: str) -> Sym | None:
        raise NotImplementedError

    def resolve(self, path: str, chain: str) -> Entity:
        raise NotImplementedError

    def apply(self, entity: Entity, head: str, step: str, path: str, subst: Subst | None) -> Entity:
        raise NotImplementedError

    def step(self, entity: Entity, step: str) -> Entity:
        raise NotImplementedError

    def typed(self, sym: Sym, field: str, bound: Subst | None = None) -> Entity:
        raise NotImplementedError

    def class_member(self, class_id: int, name: str) -> Entity:
        raise NotImplementedError

    def mapped_type(self, path: str, chain: str, subst: Subst | None) -> Entity:
        raise NotImplementedError

    def callback_chain(self, sym: Sym, step: str) -> tuple[Sym | None, str | None]:
        raise NotImplementedError

    def resolve_in(self, path: str, chain: str, subst: Subst | None, depth: int = 0) -> Entity:
        """``chain`` of ``path`` with its type parameters bound by ``subst`` (a call site's, or
        those of the generic instance a member is reached through)."""
        if chain == "this" and subst is not None and THIS in subst:
            return subst[THIS]  # the receiver of the call a `DeepPartial<this>` is returned by
        own = self.own_instance(path, chain, subst)
        if own is not None:
            entity, rest = own
            for step in rest:
                entity = self.apply(entity, chain, step, path, subst)
            return entity
        if (
            subst is None
            or depth > 8
            or (
                "T:" not in chain
                and "/" not in chain
                and not chain.startswith(("U:", SAME_RETURNS, "L:", MAPPED))
            )
        ):
            return self.resolve(path, chain)
        first, *steps = chain.split("|")
        if first.startswith("T:"):
            entity = self.type_param(path, first[2:], subst, depth + 1)
        elif first.startswith(("U:", SAME_RETURNS)):  # a union's alternatives may name the type parameters
            alternatives = self.facts(path).get("unions", {}).get(first[2:], ())
            if unknown_alternative(path, alternatives):
                return None  # (never a likely hit, as a value typed `any`)
            found = tuple(
                self.resolve_in(path, alt, subst, depth + 1) if alt else None for alt in alternatives
            )
            # (`R:`: several `return`s, known when they all give one thing)
            entity = ("v", found) if first[0] == "U" else common_entity(found)
        elif first.startswith(MAPPED):  # its keys and what its members hold may name them too
            entity = self.mapped_type(path, first, subst)
        elif first.startswith("L:") and subst:
            # an object or function type written out inside a generic one (`type Updater<T> = T |
            # ((old: T) => T)`): its declared types read the type parameters bound here
            entity = ("o", path, first[2:], tuple(subst.items()))
        else:
            entity = self.resolve(path, first)
        head = first
        for step in steps:
            entity = self.apply(entity, head, step, path, subst)
            head = f"{head}|{step}"
        return entity

    def own_instance(self, path: str, chain: str, subst: Subst | None) -> tuple[Entity, list[str]] | None:
        """``this`` in a member of a generic class (chain ``P:<class>|:…``) read for an instance whose
        type parameters ``subst`` binds: that instance, bound alike (``get shape() { return
        this._def.shape(); }`` of a ``ZodObject<S>`` gives an S), and the chain's steps after it;
        None for other chains."""
        head, sep, rest = chain.partition("|:")
        if not subst or not sep or not head.startswith("P:") or "|" in head or rest[:1] not in ("", "|"):
            return None
        params = self.facts(path).get("generics", {}).get(head[2:])
        sym = self.table(path).by_key.get(head[2:]) if params else None
        if sym is None or sym.kind != "class" or not any(k in subst for k in params):
            return None
        self.deps.update((path, f"{path}::{sym.symbol_path.partition('.')[0]}"))
        return ("i", sym.id, frozen({k: subst[k] for k in params if k in subst})), rest.split("|")[1:]

    def instance_of(self, entity: Entity, path: str, site: str, subst: Subst | None) -> Entity:
        """``:`` (with the reference's type arguments at ``site``): an instance, a generic
        class/interface's type parameters bound (unbound ones take their defaults)."""
        if entity is not None and entity[0] == "s":
            sym = self.syms[entity[1]]
            cls = sym if sym.kind in CLASSLIKE else self.twin(sym, CLASSLIKE)
            if cls is None and self.is_shape(sym):
                cls = sym  # an object type: its members, or its construct signature for `new`
            alias = cls is None and sym.kind == "type"
            if alias and sym.key in self.facts(sym.path).get("ftypes", {}):
                cls, alias = sym, False  # a function type: an instance is a function of that signature
            if cls is not None or alias:
                target = cls if cls is not None else sym
                order = self.facts(target.path).get("generics", {}).get(target.key)
                if not order:
                    return ("i", target.id) if not alias else self.step(entity, ":")
                args = self.facts(path).get("calls", {}).get(site, {}).get("t", ()) if site else ()
                bound = {
                    key: self.resolve_in(path, arg, subst)
                    for key, arg in zip(order, args, strict=False)
                    if arg
                }
                if alias:  # `type A<T> = …`: what it stands for, T bound
                    return self.step(("s", sym.id, frozen(bound)), ":")
                return ("i", target.id, frozen(bound))
        if (
            entity is not None
            and entity[0] == "x"
            and entity[1]
            and site
            and self.given_project(path, site, subst)
        ):
            # `Store<State>` of a package: what its members give may be built from State
            # (`store.state.count`), so they are not known to be the package's; the type
            # arguments are kept for the members declared as one of them (see `package_step`)
            args = self.facts(path).get("calls", {}).get(site, {}).get("t", ())
            given = tuple(self.resolve_in(path, arg, subst) if arg else None for arg in args)
            return ("x", f"{HOLDS_PROJECT}.{entity[1]}", given)
        return self.step(entity, ":")

    def given_project(self, path: str, site: str, subst: Subst | None, step: str = "") -> bool:
        """Whether a generic reference's or a call's type arguments, or a call's arguments (at
        ``site``), may be or hold a project type: one that resolves to a project declaration, or
        to nothing known (a type parameter without a constraint may be bound to one); those known
        to be outside (`Date`) or of no chain (primitives, literals) do not. For what a callback
        is given (``step`` ``@k.j``) the callback itself is left out: the package gives a project
        function given it what it has (``server.on("request", handle)``), not that function."""
        call = self.facts(path).get("calls", {}).get(site, {})
        if call.get("u"):
            return True  # an argument nothing types (JS: `each(routes, (r) => r.url)`)
        stored = (call["v"],) if call.get("v") else ()  # (the annotated type its value is stored as)
        given = list(call.get("a", ()))
        callback = step[1:].partition(".")[0] if step[:1] == "@" else ""
        if callback.isdigit() and int(callback) < len(given):
            given[int(callback)] = None
        # (`createStore(() => new Route())`: what a function given returns binds the same way)
        for arg in (*call.get("t", ()), *given, *call.get("b", ()), *call.get("h", ()), *stored):
            if not arg:
                continue
            found = self.resolve_in(path, arg, subst)
            if found is None or any(
                a is None or a[0] not in ("x", "b", "z") or (a[0] == "x" and a[1].startswith(HOLDS_PROJECT))
                for a in alternatives(found)
            ):  # (a package's value holding a project type given it, `React.Context<Ctx>`, holds one)
                return True
        return False

    def member_bindings(self, class_id: int, member_id: int, bound: Subst, depth: int = 0) -> Subst | None:
        """The bindings valid where a member of an instance of ``class_id`` is declared: the
        instance's own, or mapped through the type arguments of the base declaring it."""
        cls, member = self.syms[class_id], self.syms[member_id]
        if member.path == cls.path and member.symbol_path.rpartition(".")[0] == cls.symbol_path:
            return bound
        if depth > 8:
            return None
        facts = self.facts(cls.path)
        for base in facts.get("bases", {}).get(cls.key, ()):
            found = self.resolve(cls.path, base)
            if found is None or found[0] != "s":
                continue
            base_sym = self.syms[found[1]]
            if base_sym.kind not in CLASSLIKE:
                base_sym = self.twin(base_sym, CLASSLIKE) or base_sym
            if base_sym.kind not in CLASSLIKE or self.class_member(
                base_sym.id, member.symbol_path.rpartition(".")[2]
            ) != ("s", member_id):
                continue
            mapped = self.base_bindings(cls, base, base_sym, bound, depth + 1)
            return self.member_bindings(base_sym.id, member_id, mapped, depth + 1)
        return None

    def base_bindings(self, cls: Sym, base: str, base_sym: Sym, bound: Subst, depth: int = 0) -> Subst:
        """The bindings of ``base_sym``'s type parameters where ``cls`` extends it (``base``, its
        chain in ``cls``'s bases) with type arguments, ``cls``'s own bound by ``bound``."""
        order = self.facts(base_sym.path).get("generics", {}).get(base_sym.key, ())
        args = self.facts(cls.path).get("bargs", {}).get(cls.key, {}).get(base, ())
        return {
            key: self.resolve_in(cls.path, arg, bound, depth)
            for key, arg in zip(order, args, strict=False)
            if arg
        }

    def type_param(self, path: str, key: str, subst: dict[str, Entity] | None, depth: int = 0) -> Entity:
        """A type parameter: its binding, else (at a call site) its default, else its constraint."""
        if subst is not None and key in subst:
            return subst[key]
        if depth > 8:
            return None
        bound, default = self.facts(path).get("tparams", {}).get(key, (None, None))
        if subst is not None and default:
            return self.resolve_in(path, default, subst, depth + 1)
        return self.resolve_in(path, bound, subst, depth + 1) if bound else None

    def site_step(self, entity: Entity, step: str, path: str, site: str) -> Entity:
        """A call result or callback parameter whose declared type is a type parameter of the
        callee, bound at the call site (``path``, ``site``); None when nothing binds it."""
        if entity is None or entity[0] != "s":
            return None
        sym = self.callable(self.syms[entity[1]])
        if sym is None:
            return None
        if step == "()":
            target: Sym | None = sym
            chain = self.facts(sym.path).get("rtypes", {}).get(sym.key)
        elif step.startswith("@"):
            target, chain = self.callback_chain(sym, step)
        else:
            return None
        # a type parameter, or a generic type whose type arguments may be (`Box<T>`)
        if target is None or not chain or not (chain.startswith("T:") or "/" in chain):
            return None
        # (with what the callee was reached through binds: the type parameters of the generic
        # instance it is a member of, the receiver for `this` in `refine(…): Effects<this>`)
        reached = dict(entity[2]) if len(entity) > 2 else {}
        subst = self.substitution(target, path, site)
        return self.resolve_in(target.path, chain, {**reached, **subst} if subst else reached or None)

    def substitution(self, fn: Sym, path: str, site: str) -> dict[str, Entity] | None:
        """What the call at ``site`` of ``path`` binds ``fn``'s type parameters to: explicit type
        arguments, else the generic annotation of the variable it initialises matched against
        the declared return type, else an argument passed for a parameter declared as ``T``."""
        facts = self.facts(fn.path)
        order = facts.get("generics", {}).get(fn.key)
        call = self.facts(path).get("calls", {}).get(site)
        if not order or not call:
            return None
        subst: dict[str, Entity] = {}
        for key, chain in zip(order, call.get("t", ()), strict=False):
            if chain:
                subst[key] = self.resolve(path, chain)
        expected, declared = call.get("e"), facts.get("rgen", {}).get(fn.key)
        if (
            expected
            and declared
            and self.same(self.resolve(path, expected[0]), self.resolve(fn.path, declared[0]))
        ):
            for mine, theirs in zip(declared[1], expected[1], strict=False):
                if mine and theirs and mine.startswith("T:") and "|" not in mine and mine[2:] not in subst:
                    subst[mine[2:]] = self.resolve(path, theirs)
        given, returned = call.get("x"), facts.get("rfns", {}).get(fn.key)
        if given and returned and returned.endswith("|:") and "|" not in returned[2:-2]:
            # `getContext: memo(…)` where `getContext: () => Ctx` and memo returns `() => TResult`:
            # TResult is what the member's function gives (`given`)
            key = returned[2:-2]
            made = self.resolve(path, given) if key not in subst else None
            if made is not None:
                subst[key] = made
        callbacks = facts.get("cbtypes", {}).get(fn.key, {})
        for k, parts in call.get("r", {}).items():
            # `memo(() => [a, b], (x, y) => …)` with `getDeps: () => [...T]`: T is the tuple [a, b]
            declared = callbacks.get(f"{k}return", ())
            key = declared[0][2:-2] if declared and declared[0] else ""
            if declared and declared[0].startswith("T:") and declared[0].endswith("|:") and "|" not in key:
                subst.setdefault(key, ("V", path, tuple(parts)))
        elements: dict[str, list[Entity]] = {}
        declared_types, args = facts.get("ptypes", {}).get(fn.key, ()), call.get("a", ())
        rest = declared_types[-1] if declared_types else None
        if rest and rest.startswith("T:") and rest.endswith(f"|{REST_PARTS}") and "s" not in call:
            # `args<Items extends …>(...items: Items)`: Items is the tuple of the arguments from there
            key = rest[2 : -len(REST_PARTS) - 1]
            if "|" not in key and key not in subst:
                subst[key] = ("V", path, tuple(args[len(declared_types) - 1 :]))
        for declared_type, arg in zip(declared_types, args[: call.get("s")], strict=False):
            if not declared_type or not arg or not declared_type.endswith("|:"):
                continue
            key = declared_type[2:-2]
            if declared_type.startswith("T:") and "|" not in key and key not in subst:
                value = self.value_type(self.resolve(path, arg))
                if value is not None:
                    subst[key] = value
            elif declared_type.startswith("T:") and key.endswith("|[]") and "|" not in key[:-3]:
                given = self.resolve(path, arg)  # `difference<T>(a: Array<T>, b: Array<T>)`
                if given is not None and given[0] == "s":
                    given = self.as_instance(given)  # a variable or property holding the array
                elements.setdefault(key[:-3], []).append(given[1] if given and given[0] == "r" else None)
        for key, found in elements.items():
            # bound by the arrays' elements when every array passed for it has elements of one type
            if key not in subst and found[0] is not None and all(self.same(e, found[0]) for e in found):
                subst[key] = found[0]
        return subst

    def returns_this(self, sym: Sym) -> bool | None:
        """A method declared to return ``this`` (every declaration with a return type: its
        overloads); None when some overloads return ``this`` and others not (which one a call
        picks is not judged)."""
        if sym.kind != "method":
            return False
        rtypes = self.facts(sym.path).get("rtypes", {})
        found = {
            rtypes[decl.key] == "this|:"
            for decl in self.table(sym.path).by_path.get(sym.symbol_path, (sym,))
            if decl.kind == sym.kind and rtypes.get(decl.key) is not None
        }
        return None if len(found) > 1 else found == {True}

    def this_argument(self, sym: Sym) -> bool:
        """A method whose declared return type passes ``this`` as a type argument
        (``deepPartial(): DeepPartial<this>``): what a call gives depends on its receiver."""
        if sym.kind != "method":
            return False
        facts = self.facts(sym.path)
        chain = facts.get("rtypes", {}).get(sym.key) or ""
        calls = facts.get("calls", {})
        sites = (part.partition("/")[2] for part in chain.split("|") if "/" in part)
        return any(THIS in calls.get(site, {}).get("t", ()) for site in sites)

    def as_instance(self, value: Entity) -> Entity:
        """The instance a receiver value is (a method returning ``this`` returns it)."""
        if value is None or value[0] == "i":
            return value
        if value[0] == "s" and self.syms[value[1]].kind in ("variable", "property", "getter"):
            field = "rtypes" if self.syms[value[1]].kind == "getter" else "vtypes"
            typed = self.typed(self.syms[value[1]], field)
            return self.step(typed, ":") if typed is not None else None
        return None

    def function_type_parameter(self, entity: Entity, step: str, path: str, site: str) -> Entity:
        """``%j``: the declared type of parameter j of a function type alias or of an interface's
        call signature (their type parameters bound by the annotation's type arguments at
        ``site``), of a function-typed property or of a method (a function value standing for that
        member of a declared type), or of the call signature of a property's declared type."""
        index = int(step[1:])
        if entity is not None and entity[0] == "v":
            return self.union_parameter(entity, step, path, site)
        if entity is not None and entity[0] in ("a", "o"):  # of an object type written out
            called = self.called(entity)
            return called(index) if called is not None else None
        if entity is not None and entity[0] == "i" and self.syms[entity[1]].kind in ("type", "interface"):
            # a value of a function type (what calling a `Link` gives: an `OperationLink`): its type's
            entity = ("s", *entity[1:])
        if entity is None or entity[0] != "s":
            return None
        sym = self.syms[entity[1]]
        bound = dict(entity[2]) if len(entity) > 2 else None
        if sym.kind in ("function", "method"):
            decl, chain = self.parameter_chain(sym, index)
            return self.resolve_in(decl.path, chain, bound) if chain else None
        chains = self.facts(sym.path).get("ftypes", {}).get(sym.key, ())
        chain = chains[index] if index < len(chains) else None
        if not chain:
            called = self.called(entity)  # `handler: Handler`, Handler with a call signature
            return called(index) if called is not None else None
        if sym.kind in ("type", "interface"):
            subst = self.substitution(sym, path, site) if site else None
            return self.resolve_in(sym.path, chain, subst if subst is not None else {})
        return self.resolve_in(sym.path, chain, bound)

    def union_parameter(self, entity: tuple[Any, ...], step: str, path: str, site: str) -> Entity:
        """``%j`` of a member read through a union or intersection (``header`` of `ColumnDef`'s
        alternatives, declared `string` in one and a `(props: HeaderContext) => any` template in
        another): what the function-typed alternatives give, one type or a union of them. A part
        without the member (of an intersection) and one declared a primitive (no call signature)
        are left out; any other alternative whose parameter is not known leaves it unknown."""
        found: list[Entity] = []
        for alt in alternatives(entity):
            if alt is None or self.primitive_member(alt):
                continue
            given = self.function_type_parameter(alt, step, path, site)
            if given is None:
                return None
            if given not in found:
                found.append(given)
        if not found:
            return None
        return found[0] if len(found) == 1 else ("v", tuple(found))

    def primitive_member(self, entity: tuple[Any, ...]) -> bool:
        """A property declared with a primitive type (``header: string``): no function."""
        if entity[0] != "s" or self.syms[entity[1]].kind not in ("property", "variable"):
            return False
        typed = self.typed(self.syms[entity[1]], "vtypes")
        return typed is not None and typed[0] == "b" and typed[1] in _PRIMITIVE_TYPES

    def called(self, entity: tuple[Any, ...]) -> Callable[[int], Entity] | None:
        """For a value whose declared type has a call signature (a variable or property declared
        with it, a member of an object type written out, an instance of it): the function giving
        its parameter types by index; else None."""
        if entity[0] == "o":
            typed: Entity = entity
        elif entity[0] == "a":
            typed = self.anonymous_member(entity)
        elif entity[0] == "i":  # an instance of a function type (`h: Handler`, then `h({…})`)
            typed = entity
        elif entity[0] == "s" and (
            self.syms[entity[1]].kind in ("variable", "property")
            or self.syms[entity[1]].key in self.facts(self.syms[entity[1]].path).get("vtypes", {})
        ):  # (a field holding an arrow is a method, its declared type still types its parameters:
            # `update: UpdateFn = (options) => …`)
            sym = self.syms[entity[1]]
            bound = dict(entity[2]) if len(entity) > 2 else None
            chains = self.facts(sym.path).get("ftypes", {}).get(sym.key)
            if chains:  # declared with a function type written out (`run: (info: Info) => void`)
                return lambda index: (
                    self.resolve_in(sym.path, chains[index], bound)
                    if index < len(chains) and chains[index]
                    else None
                )
            typed = self.step(self.typed(sym, "vtypes", bound), ":")
        else:
            return None
        return self.signature_of(typed)

    def signature_of(self, typed: Entity, depth: int = 0) -> Callable[[int], Entity] | None:
        """The call signature of a type (see :meth:`called`); of a union, its only alternative
        that has one (``"throw" | Handler``: a function value passed there is a Handler)."""
        if typed is not None and typed[0] == "v" and depth < 8:
            found = [f for alt in typed[1] if (f := self.signature_of(alt, depth + 1)) is not None]
            return found[0] if len(found) == 1 else None
        if typed is not None and typed[0] == "i" and self.syms[typed[1]].kind in ("type", "interface"):
            cls, bound = self.syms[typed[1]], dict(typed[2]) if len(typed) > 2 else {}
            if self.facts(cls.path).get("ftypes", {}).get(cls.key):
                return lambda index: self.call_parameter(cls, index, bound)
            if cls.kind == "type":  # `type Updater<T> = T | ((old: T) => T)`: what the alias stands for
                return self.signature_of(self.typed(cls, "vtypes", bound), depth + 1)
        if typed is not None and typed[0] == "o":
            chains = self.facts(typed[1]).get("ftypes", {}).get(typed[2])
            if chains:
                path, given = typed[1], dict(typed[3]) if len(typed) > 3 else None
                return lambda index: (
                    self.resolve_in(path, chains[index], given)
                    if index < len(chains) and chains[index]
                    else None
                )
        return None

    def call_parameter(self, sym: Sym, index: int, bound: Subst) -> Entity:
        """The declared type of parameter ``index`` of the call signature of an interface or
        object type (an instance's type parameters bound by ``bound``)."""
        chains = self.facts(sym.path).get("ftypes", {}).get(sym.key, ())
        chain = chains[index] if index < len(chains) else None
        return (
            self.resolve_in(sym.path, chain, bound) if chain and sym.kind in ("type", "interface") else None
        )

    def element_of(self, receiver: Entity) -> Entity:
        """An element of an array value (``("r", …)``, or a variable/property declared as one)."""
        if (
            receiver is not None
            and receiver[0] == "s"
            and self.syms[receiver[1]].kind in ("variable", "property")
        ):
            receiver = self.typed(
                self.syms[receiver[1]], "vtypes", dict(receiver[2]) if len(receiver) > 2 else None
            )
        return self.step(receiver[1], ":") if receiver is not None and receiver[0] == "r" else None

    def map_method(self, entries: tuple[Any, ...], method: str, step: str) -> Entity:
        """A step after a method of a map whose entries are the tuple ``entries`` ([K, V])."""
        if step == "()":
            if method == "get":
                return self.step(entries, "#1")
            if method == "set":  # `m.set(k, v)` gives the map back
                return ("g", entries)
            iterated = {"values": "#1", "keys": "#0"}.get(method)
            if iterated is not None:
                part = self.step(entries, iterated)
                return ("r", part) if part is not None else None
            return ("r", entries) if method == "entries" else None
        if method == "forEach" and step in ("@0.0", "@0.1"):
            return self.step(entries, "#1" if step == "@0.0" else "#0")
        return None

    def awaited(self, value: Entity, depth: int = 0) -> Entity:
        """What ``await`` gives for a value: a promise's value, the value itself otherwise (each
        alternative of a union alike; a variable, property or getter by its declared type)."""
        if value is None or depth > 8:
            return value
        if value[0] in ("b", "z"):  # a standard global's value: what it resolves to is unknown
            return None
        if value[0] == "v":
            return ("v", tuple(self.awaited(alt, depth + 1) for alt in value[1]))
        if value[0] == "p":
            return self.step(value[1], ":")
        if value[0] == "s" and self.syms[value[1]].kind in ("variable", "property", "getter"):
            typed = self.as_instance(value)
            return self.awaited(typed, depth + 1) if typed is not None and typed[0] in ("p", "v") else value
        return value

    def array_method(self, entity: tuple[Any, ...], step: str) -> Entity:
        """A step after a library method of an array (``("l", array, method)``): its call's result
        (``xs.find(…)`` an element, ``xs.filter(…)`` the array), or a parameter of the callback passed
        to it first (``xs.map((x, i, all) => …)``: ``x`` an element, ``all`` the array)."""
        array, method = entity[1], entity[2]
        if array[0] == "p":  # `p.then((value) => …)`
            return self.step(array[1], ":") if step == "@0.0" else None
        if array[0] == "g":  # a map: `m.get(k)`, `m.values()`, `m.forEach((value, key) => …)`
            return self.map_method(array[1], method, step)
        if step == "()":
            result = ARRAY_RESULTS.get(method)
            return array if result == "array" else self.step(array[1], ":") if result == "element" else None
        k, dot, j = step[1:].partition(".")
        if step[:1] != "@" or not dot or k != "0" or not j.isdigit():
            return None
        elements, whole = ARRAY_CALLBACKS.get(method, ((), None))
        if int(j) in elements:
            return self.step(array[1], ":")
        return array if int(j) == whole else None

    def indexed(
        self, instance: tuple[Any, ...], depth: int = 0, signatures: tuple[str, ...] = ("indexes",)
    ) -> Entity:
        """What ``x[k]`` gives for an instance of an interface or object type alias: its index
        signature's value (``[k: string]: V``), its own or a base's; None without one.
        ``signatures``: the facts to read, first found first (``nindexes``: a number index
        signature's value, ``[i: number]: V``)."""
        sym = self.syms[instance[1]]
        facts = self.facts(sym.path)
        chain = next((c for field in signatures if (c := facts.get(field, {}).get(sym.key))), None)
        if chain:
            return self.resolve_in(sym.path, chain, dict(instance[2]) if len(instance) > 2 else None)
        if depth > 8 or sym.kind not in CLASSLIKE:
            return None
        for base in facts.get("bases", {}).get(sym.key, ()):
            found = self.resolve(sym.path, base)
            if found is not None and found[0] == "s" and self.syms[found[1]].kind in CLASSLIKE:
                value = self.indexed(("i", found[1]), depth + 1, signatures)
                if value is not None:
                    return value
        return None

    def literal_this(self, contextual: Entity) -> Entity:
        """``this`` in a method of an object literal of the contextual type ``contextual``: the T of a
        ``ThisType<T>`` among its (intersected) parts, else the contextual type itself."""
        if contextual is None:
            return None
        pending, seen = [contextual], 0
        while pending and seen < 64:
            part = pending.pop()
            seen += 1
            if part is not None and part[0] == "h":
                return self.step(part[1], ":")
            if part is not None and part[0] == "v":
                pending.extend(part[1])
        return contextual

    def narrow(self, entity: Entity, clauses: str) -> Entity:
        """``~code=a;kind!=b``: a union's alternatives that may satisfy every clause (an alternative
        whose member is declared with string literal types none of which is ``a``, or all of which
        are ``b``, is left out; one that cannot be judged is kept). Nested unions and intersections
        are narrowed alike; when nothing would be left, the value is kept as it was."""
        tests: list[tuple[str, bool, frozenset[str]]] = []
        excluded: dict[str, frozenset[str]] = {}  # `!= a` and `!= b` on one member: neither a nor b
        for clause in clauses.split(";"):
            if "!=" in clause:
                prop, _, values = clause.partition("!=")
                excluded[prop] = excluded.get(prop, frozenset()) | frozenset(values.split(","))
            else:
                prop, _, values = clause.partition("=")
                tests.append((prop, False, frozenset(values.split(","))))
        tests.extend((prop, True, values) for prop, values in excluded.items())
        found = self.narrowed(entity, tests, 0)
        return found if found is not _EXCLUDED else entity

    def narrowed(self, entity: Entity, tests: list[tuple[str, bool, frozenset[str]]], depth: int) -> Any:
        if entity is None or depth > 16:
            return entity
        if entity[0] == "v":
            kept = tuple(
                alt for alt in (self.narrowed(a, tests, depth + 1) for a in entity[1]) if alt is not _EXCLUDED
            )
            return ("v", kept) if kept else _EXCLUDED
        if entity[0] not in ("i", "o"):
            return entity
        for prop, negated, values in tests:
            if entity[0] == "o":  # an object type written out: its member's literals by its key
                literals = self.facts(entity[1]).get("lits", {}).get(f"{entity[2]}.{prop}")
            else:
                member = self.class_member(entity[1], prop)
                if member is None or member[0] != "s":
                    continue
                declared = self.syms[member[1]]
                literals = self.facts(declared.path).get("lits", {}).get(declared.key)
            if values == _TRUTHY and not set(literals or ()) <= _BOOLEANS:
                continue  # truthiness tells only a boolean member's alternatives apart
            if literals and (set(literals) <= values if negated else not values.intersection(literals)):
                return _EXCLUDED
        return entity

    def parameter_chain(self, sym: Sym, index: int) -> tuple[Sym, str | None]:
        """The declared type of parameter ``index`` of a function (its first declaration
        declaring parameter types: overloads come first)."""
        ptypes = self.facts(sym.path).get("ptypes", {})
        for decl in self.table(sym.path).by_path.get(sym.symbol_path, (sym,)):
            chains = ptypes.get(decl.key)
            if decl.kind == sym.kind and chains is not None:
                return decl, chains[index] if index < len(chains) else None
        return sym, None

    def this_parameter(self, entity: Entity) -> Entity:
        """``&this``: the declared ``this`` of a function (``function f(this: Node)``), which a
        literal given to ``f.call``, ``f.bind`` or ``f.apply`` is checked against."""
        if entity is None or entity[0] != "s":
            return None
        sym = self.syms[entity[1]]
        fn = self.callable(sym) or sym
        chains = self.facts(fn.path).get("thtypes", {})
        for decl in self.table(fn.path).by_path.get(fn.symbol_path, (fn,)):
            chain = chains.get(decl.key)
            if chain:
                return self.resolve(decl.path, chain)
        return None

    def parameter_type(self, entity: Entity, step: str, path: str, site: str) -> Entity:
        """``&k``: the declared type of the callee's parameter k (an object literal passed there
        is checked against it); ``&&k`` of a constructor: the class's constructor, or the construct
        signature of the callee's declared type (``const X: Ctor<Y>``; ``new X({…})``)."""
        index = int(step.lstrip("&"))
        if entity is not None and not step.startswith("&&"):
            called = self.called(entity)
            if called is not None:  # a value whose type has a call signature
                return called(index)
        if entity is None or entity[0] not in ("s", "i"):
            return None
        sym = self.syms[entity[1]]
        if step.startswith("&&"):
            if entity[0] == "s" and sym.kind == "class":
                # its own constructor, else the one it inherits, with the base's type parameters
                # bound by the type arguments of `extends` (`class S extends Base<Def>`: `def: D` is a Def)
                member = self.class_member(sym.id, "constructor")
                if member is None or member[0] != "s":
                    return None
                bound = self.member_bindings(sym.id, member[1], {})
                explicit = self.substitution(sym, path, site) if site else None
                if explicit:  # `new Box<User>(…)`: the class's own type parameters
                    bound = {**(bound or {}), **explicit}
                decl, chain = self.parameter_chain(self.syms[member[1]], index)
                if not chain:
                    return None
                return self.resolve_in(decl.path, chain, bound) if bound else self.resolve(decl.path, chain)
            if entity[0] == "s":
                value = sym if sym.kind in TYPED else self.twin(sym, ("variable",))
                entity = self.typed(value, "vtypes") if value is not None and value.kind != "type" else None
                entity = self.step(entity, ":") if entity is not None and entity[0] == "s" else entity
            if entity is None or entity[0] != "i":
                return None
            target = self.syms[entity[1]]
            chains = self.facts(target.path).get("ctypes", {}).get(target.key, ())
            chain = chains[index] if index < len(chains) else None
            bound = dict(entity[2]) if len(entity) > 2 else None
            return self.resolve_in(target.path, chain, bound) if chain else None
        fn = self.callable(sym) if entity[0] == "s" else None
        if fn is None and entity[0] == "s" and sym.kind in ("variable", "property"):
            fn = sym  # a variable or field bound to a function value (its declared parameter types, if any)
        if fn is None:
            return None
        decl, chain = self.parameter_chain(fn, index)
        for _ in range(4):
            if chain or fn.kind not in ("variable", "property"):
                break
            # `const stringType = ZodString.create`: the parameters of the function it holds
            held = self.typed(fn, "vtypes")
            if held is None or held[0] != "s" or held[1] == fn.id:
                break
            fn = self.callable(self.syms[held[1]]) or self.syms[held[1]]
            decl, chain = self.parameter_chain(fn, index)
        if not chain:
            return None
        subst = self.substitution(decl, path, site) if site else None
        if len(entity) > 2 and entity[2]:
            # a method of a generic class's instance (`repo.add({ … })` of a `Repo<User>`): its
            # class's type parameters as the instance binds them
            subst = {**dict(entity[2]), **(subst or {})}
        return self.resolve_in(decl.path, chain, subst)

    def value_type(self, value: Entity) -> Entity:
        """The declared class/interface of a value (an instance, or a variable typed as one)."""
        if value is not None and value[0] == "s" and self.syms[value[1]].kind in ("variable", "property"):
            value = self.typed(self.syms[value[1]], "vtypes")
        return ("s", value[1]) if value is not None and value[0] == "i" else None

    def same(self, a: Entity, b: Entity) -> bool:
        """Two entities name the same declaration (a type and a value of one name count as one)."""
        if a is None or b is None or a[0] != "s" or b[0] != "s":
            return False
        left, right = self.syms[a[1]], self.syms[b[1]]
        return (left.path, left.symbol_path) == (right.path, right.symbol_path)

    def twin(self, sym: Sym, kinds: tuple[str, ...]) -> Sym | None:
        """The declaration of ``sym``'s name, in its file, of one of ``kinds`` (``interface X`` +
        ``const X``: the type is the interface, calling it calls the value)."""
        return next(
            (t for t in self.table(sym.path).by_path.get(sym.symbol_path, ()) if t.kind in kinds), None
        )

    def callable(self, sym: Sym) -> Sym | None:
        return sym if sym.kind in CALLABLE or sym.kind == "class" else self.twin(sym, CALLABLE)

    def through_missing_namespace(self, path: str, target: str) -> bool:
        """``ns.x`` where ``ns`` is ``import * as ns`` (or ``await import(...)``) of a module that is
        neither found in the project nor a package (a broken or unknown path)."""
        head, sep, _ = target.rpartition("|")
        if not sep or "|" in head:
            return False
        if head.startswith("I::"):  # `(await import("./m")).x`
            spec = head[3:]
        elif head.startswith("P:"):
            spec = self.facts(path).get("nsimports", {}).get(head[2:])
        else:
            return False
        if spec is None:
            return False
        resolved, external = self.specs(path).get(spec, (None, 0))
        return (resolved is None or resolved not in self.file_ids) and not external

    def is_shape(self, sym: Sym) -> bool:
        """A type alias of an object type (``type X = { a: A }``: ``X.a`` is a symbol)."""
        facts = self.facts(sym.path)
        return sym.kind == "type" and (
            sym.key in facts.get("shapes", ()) or sym.key in facts.get("ctypes", {})
        )


def frozen(bound: Subst) -> tuple[tuple[str, Entity], ...]:
    return tuple(sorted(bound.items(), key=lambda item: item[0]))


def one_alternative(alternatives: tuple[Entity, ...]) -> bool:
    """A union whose alternatives are all one known entity."""
    return (
        bool(alternatives) and alternatives[0] is not None and all(a == alternatives[0] for a in alternatives)
    )


def common_entity(found: tuple[Entity, ...]) -> Entity:
    """What several alternatives all are (``R:`` chains): one known entity, or instances of one
    declaration binding its type parameters differently (``WindowRecord<T>`` read through a
    parameter and through ``WindowRecord<T>[]``'s ``push``), then with the bindings they share."""
    if one_alternative(found):
        return found[0]
    first = found[0] if found else None
    if first is None or first[0] != "i" or len(first) != 3:
        return None
    shared = set(first[2])
    for other in found[1:]:
        if other is None or other[0] != "i" or len(other) != 3 or other[1] != first[1]:
            return None
        shared &= set(other[2])
    return ("i", first[1], tuple(item for item in first[2] if item in shared))


def alternatives(entity: Entity, depth: int = 0) -> Iterator[Entity]:
    """The alternatives of a (nested) union, flattened."""
    if entity is not None and entity[0] == "v" and depth < 16:
        for alt in entity[1]:
            yield from alternatives(alt, depth + 1)
    else:
        yield entity


def unknown_alternative(path: str, alternatives: Iterable[str | None]) -> bool:
    """Whether a union of values is unknown: it has an alternative typed ``any`` (``f ? new
    Route() : extra`` of ``extra: any``: the whole is ``any``, whose members TypeScript does not
    check) or, in the JS file ``path``, one nothing typed (an untyped parameter, ``const { item =
    new Route() } = options``). A member read off it is then no ``likely`` hit, as one off a value
    typed ``any`` (or a JS variable given an unknown value again) is not. In TS, an alternative of
    another type the index does not read is one the checker holds to the members read off the
    union: the typed alternatives stand for it."""
    found = list(alternatives)
    if UNTYPED_KEY in found:
        return True
    return LANGUAGE_BY_SUFFIX.get(PurePosixPath(path).suffix) == JAVASCRIPT and not all(found)
