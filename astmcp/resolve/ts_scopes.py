"""Lexical scopes of the TS/JS reference analyzer and the lazy value descriptors it resolves.

A *chain* is the linker's key for what an occurrence means (``|`` separates steps):
``P:<line>:<col>`` the symbol declared at that name position in this file,
``I:<name>:<specifier>`` an imported name (``""`` the module itself, ``default``),
then steps ``|<member>``, ``|+<key>`` (a key written in an object literal of that type), ``|()``
(call result) and ``|:`` (instance of a class/type).

A *descriptor* is a tuple built while walking, resolved to a chain after the
walk, when every hoisted declaration is known:
``("n", scope, name)`` a name, ``("k", chain)`` a fixed chain, ``("m", desc, name)`` a member,
``("c", desc, site)`` a call result, ``("i", desc)`` an instance, ``("f", parameters,
callbacks, returned)`` a local function value (its declared parameter types, those of its
function-typed parameters by index, its declared return type: calls, arguments and callbacks
passed to it are typed by them), ``("a", callee, k, j, new, site)``
the j-th parameter of a function passed as the k-th argument (chain step ``|@k.j``, ``|@@k.j``
for a constructor; ``|%j`` the j-th parameter of a function typed by a declared function type or
member), ``("p", callee, k, new, site)`` the declared type of the callee's k-th parameter (an
object literal passed there; ``|&k``, ``|&&k`` for a constructor), ``("y", desc)`` the array
type of elements ``desc`` (``T[]``, ``Array<T>``; step ``|[]``) and ``("e", desc)`` an element of
the array ``desc`` (``for (x of xs)``; step ``|[i]``; ``("e", desc, name)`` for ``x[KEY]``, step ``|[KEY]`` when a
module binds KEY: the member declared ``[KEY]: T`` with that KEY where there is one, else an element), ``("q", desc)`` the promise type of values ``desc`` (``Promise<T>``; step
``|^q``), ``("w", desc)`` what awaiting ``desc`` gives (``await p``; step ``|^w``), ``("h", desc)`` the ``ThisType<T>`` marker of T
(step ``|^h``), ``("K", desc)`` an object whose members are named by those of ``desc`` but hold
anything (``{ [k in keyof T]?: V }``; step ``|^K``), ``("N", desc)`` the names of ``desc``'s members
(``keyof T``; step ``|^N``: a string literal given for a parameter of that type names the member,
step ``|=<name>``), ``("g", desc, k, site)`` the constraint of the k-th type parameter of the generic
type ``desc``, its type arguments at ``site`` bound (step ``|^g<k>``), ``("t", desc)`` ``this`` in a method of an object literal of contextual type ``desc``
(step ``|^t``: the T of a ``ThisType<T>`` in it, else ``desc`` itself), ``("d", desc, clauses)`` a union value narrowed
by discriminants (``(prop, negated, values)``: ``switch (x.code) { case "a": }``, ``{ code: "a" }``
against a union; step ``|~code=a``, ``|~code!=a``, clauses joined by ``;``).
A type parameter is ``T:<line>:<col>`` (its name position). A call whose
:class:`Site` tells something about the callee's type parameters (explicit type arguments, the
declared type of the variable it initialises, typed arguments) adds ``/<line>:<col>`` to its
``()`` / ``@k.j`` step, so the linker can bind them.
"""

from __future__ import annotations

from typing import Any

from astmcp.resolve.ts_library import lib_global

Desc = tuple[Any, ...] | None

_MAX_DEPTH = 24
GLOBAL = "G:"  # chain head: a standard global object (`G:Object`)


class Binding:
    """A declared name: ``chain`` for a symbol or import (None: a local), ``vtype``
    the descriptor of its value (locals), ``alias`` for renamed imports (their uses
    are the alias', not the original's)."""

    __slots__ = ("alias", "chain", "type_only", "value_only", "vtype")

    def __init__(
        self,
        chain: str | None,
        vtype: Desc = None,
        alias: bool = False,
        type_only: bool = False,
        value_only: bool = False,
    ) -> None:
        self.chain = chain
        self.vtype = vtype
        self.alias = alias
        self.type_only = type_only  # an interface or type alias: no value
        self.value_only = value_only  # a parameter, variable or function: no type


class Scope:
    """A lexical scope; ``function`` scopes receive ``var`` declarations, declarations in
    ``symbolic`` scopes (module, namespace) are symbols."""

    __slots__ = ("exports", "function", "merged", "names", "parent", "symbolic", "types")

    def __init__(self, parent: Scope | None, function: bool, symbolic: bool = False) -> None:
        self.parent = parent
        self.function = function
        self.symbolic = symbolic
        self.names: dict[str, Binding] = {}
        # a namespace's body: the names it exports, and the bodies of the namespace's other
        # declarations in the file (`namespace A { … }` twice), whose exports it sees unqualified
        self.exports: frozenset[str] = frozenset()
        self.merged: list[Scope] | None = None
        # a local scope's interfaces and type aliases named like one of its values (`const t =
        # …; type t = …`): types and values are apart (a module's are symbols, which the linker
        # tells apart itself)
        self.types: dict[str, Binding] = {}

    def lookup(self, name: str) -> Binding | None:
        scope: Scope | None = self
        while scope is not None:
            found = scope.names.get(name) or scope.merged_export(name)
            if found is not None:
                return found
            scope = scope.parent
        return None

    def merged_export(self, name: str) -> Binding | None:
        """``name`` as another declaration of this namespace exports it."""
        for other in self.merged or ():
            if other is not self and name in other.exports:
                return other.names.get(name)
        return None

    def lookup_type(self, name: str, namespace: bool = False) -> Binding | None:
        """The binding a type position's ``name`` means; with ``namespace``, the head of a
        qualified type name (``Rpc`` of ``Rpc.SuccessChunk<R>``), which no type parameter is (a
        class's ``<Rpc extends Rpc.Any>`` leaves ``Rpc.SuccessChunk`` the module's)."""
        scope: Scope | None = self
        while scope is not None:
            found = scope.types.get(name) or scope.names.get(name) or scope.merged_export(name)
            # a local value names no type (`show(Widget: Widget)`: the annotation is the outer type)
            if (
                found is not None
                and not (found.value_only and not scope.symbolic)
                and not (namespace and found.chain is None and _type_parameter(found.vtype))
            ):
                return found
            scope = scope.parent
        return None

    def bind(self, name: str, binding: Binding) -> None:
        """Declare ``name`` here; in a local scope a type and a value of one name both stay."""
        current = self.names.get(name)
        if current is not None and not self.symbolic and current.type_only != binding.type_only:
            if binding.type_only:
                self.types[name] = binding
                return
            self.types[name] = current
        self.names[name] = binding

    def var_scope(self) -> Scope:
        scope = self
        while not scope.function and scope.parent is not None:
            scope = scope.parent
        return scope


# the fourth part of a name descriptor read as a qualified type name's head (`Rpc` of `Rpc.X`)
NAMESPACE = "ns"


def _type_parameter(vtype: Desc) -> bool:
    return vtype is not None and vtype[0] == "k" and str(vtype[1]).startswith("T:")


def bound(desc: tuple[Any, ...]) -> Binding | None:
    """The binding of a name descriptor: ``("n", scope, name)``, ``("n", scope, name, True)``
    written in a type position, or ``("n", scope, name, NAMESPACE)`` as a qualified type name's
    head."""
    scope: Scope = desc[1]
    return scope.lookup_type(desc[2], desc[3] == NAMESPACE) if len(desc) > 3 else scope.lookup(desc[2])


class Site:
    """A call's facts for binding the callee's type parameters: explicit type arguments
    (type descriptors), the expected type (head and arguments of the initialised variable's
    generic annotation) and the arguments (value descriptors)."""

    __slots__ = (
        "_chains",
        "args",
        "bodies",
        "called",
        "expected",
        "given_functions",
        "goes",
        "held",
        "key",
        "mapped",
        "returns",
        "spread",
        "stored",
        "targs",
    )

    def __init__(
        self,
        key: str,
        targs: list[Desc],
        expected: tuple[Desc, list[Desc]] | None,
        args: list[Desc],
        returns: dict[int, list[Desc]] | None = None,
    ):
        self.key = key
        self.targs = targs
        self.expected = expected
        self.args = args
        # argument k is a function returning an array literal (`() => [a, b]`): its parts' values
        self.returns = returns
        self.mapped: Desc = None  # `xs.map((x) => x.owner)`: what the callback returns (chain "m")
        self.bodies: list[Desc] = []  # per argument: what it returns, a function without parameters
        self.held: list[Desc] = []  # what the object and array literals given hold
        self.called = False  # a call (not `new`)
        self.spread: int | None = None  # the first argument spread out (`f(a, ...xs)`: 1)
        self.given_functions = False  # a function is written as one of its arguments
        self.goes: Desc = None  # what calling the call's value must give, where it goes
        self.stored: Desc = None  # the declared type of the variable the call's value initialises
        self._chains: dict[str, Any] | None = None

    def chains(self) -> dict[str, Any]:
        """The site's link fact (empty when nothing in it could be typed)."""
        if self._chains is None:
            out: dict[str, Any] = {}
            self._chains = out  # a site whose arguments refer back to it (`x = f(x)`) sees itself empty
            targs = [chain_of(d) for d in self.targs]
            if any(targs) or (targs and self.called):
                # (a call's untyped ones too: type arguments pick overloads apart, `Resolver.returned`)
                out["t"] = targs
            if self.expected is not None:
                head = chain_of(self.expected[0])
                eargs = [chain_of(d) for d in self.expected[1]]
                if head is not None and any(eargs):
                    out["e"] = [head, eargs]
            args = [chain_of(d) for d in self.args]
            if any(args):
                out["a"] = args
                if self.spread is not None:  # (the arguments from there on are at no known place)
                    out["s"] = self.spread
            held = [c for d in self.held if (c := chain_of(d))]
            if held:
                out["h"] = held
            if any(_untyped_value(d) for d in (*self.args, *self.held)):
                out["u"] = 1  # (an argument no declaration types: `each(routes, …)` of JS)
            elif ("t" in out or self.given_functions) and args:
                # how many arguments (the overloads of a package constructor, or of a function
                # given a callback: their count picks)
                out["n"] = len(args)
            bodies = [chain_of(d) for d in self.bodies]
            if any(bodies):
                out["b"] = bodies
            returns = {str(k): [chain_of(d) for d in parts] for k, parts in (self.returns or {}).items()}
            returns = {k: parts for k, parts in returns.items() if any(parts)}
            if returns:
                out["r"] = returns
            mapped = chain_of(self.mapped)
            if mapped:
                out["m"] = mapped
            goes = chain_of(self.goes)
            if goes:
                out["x"] = goes
            stored = chain_of(self.stored)
            if stored:
                out["v"] = stored
        return self._chains

    def suffix(self) -> str:
        return f"/{self.key}" if self.chains() else ""


# The target of an object-literal key of unknown type, and the chain of a value typed `any`: a name
# hit that never becomes `likely` (no chain has this form; ``None`` is a receiver nobody could type,
# which may).
UNTYPED_KEY = "key"
# Between an object-literal key's chain (``A|+from``) and the chain of the object its spread parts
# make (``W:<key>s``): the key is that object's member where A is not known (``join.map((j) => ({
# ...j, from: x }))``: what the callback returns is inferred from the literal itself).
SPREAD_FALLBACK = "^W:"
# chain head: what a function's `return`s, written differently, all give (fact `unions`); not
# `E:`, `X:` or `?`, which stored Python targets start with (kept apart for clarity: query.references
# judges those on Python rows only)
SAME_RETURNS = "R:"
# chain head: the places one object literal goes on as a whole (fact `unions`), read as a union of
# their types when every one is known (a key is the member of each that declares it), else unknown
EVERY_SINK = "V:"
# chain head: a mapped object type whose members each hold one known type (fact `unions`: the chain
# of the type whose members name its keys, then the chain of what each holds)
MAPPED = "Y:"


def chain_of(desc: Desc, depth: int = 0) -> str | None:
    """The chain a descriptor stands for, None when it cannot be typed."""
    if desc is None or depth > _MAX_DEPTH:
        return None
    tag = desc[0]
    if tag == "k":
        chain: str | None = desc[1]
        return chain
    if tag == "u":  # a declared type that must not be left out: what is not read holds anything
        return chain_of(desc[1], depth + 1) or UNTYPED_KEY
    if tag == "n":
        binding = bound(desc)
        if binding is None:  # a global: a standard one's members are the library's
            return f"{GLOBAL}{desc[2]}" if lib_global(desc[2]) else None
        if binding.chain is not None:
            found: str = binding.chain
            return found
        return chain_of(binding.vtype, depth + 1)
    if tag == "f":  # a local function value: no chain of its own
        return None
    if tag in ("a", "p", "c"):
        local = _local_function(desc[1])
        if local is not None:  # what a local function's declared types tell
            return chain_of(_local_type(local, tag, desc), depth + 1)
    if tag == "j":  # `x instanceof C` (judged once every name is bound: C may be declared later)
        return _instance_tested(desc, depth)
    if tag in ("y", "q") and len(desc) > 2:  # a library container; its own type when no chain reaches T
        inner = chain_of(desc[1], depth + 1)
        return desc[2] if inner is None else f"{inner}|[]" if tag == "y" else f"{inner}|^q"
    base = chain_of(desc[1], depth + 1)
    if base is None:
        return None
    if tag == "m":
        return f"{base}|{desc[2]}"
    if tag == "y":  # the array type of elements `base`
        return f"{base}|[]"
    if tag == "e":  # an element of the array `base`; `[KEY]` read by a name a module binds (see ikeys)
        binding = bound(desc[2]) if len(desc) > 2 else None
        return f"{base}|[{desc[2][2]}]" if binding is not None and binding.chain else f"{base}|[i]"
    if tag == "q":  # the promise type of values `base` (`Promise<T>`)
        return f"{base}|^q"
    if tag == "w":  # what awaiting `base` gives
        return f"{base}|^w"
    if tag == "h":  # `ThisType<T>`: a marker carrying T
        return f"{base}|^h"
    if tag == "K":  # an object keyed by the members of `base` (a mapped type over `keyof T`)
        return f"{base}|^K"
    if tag == "N":  # the names of the members of `base` (`keyof T`)
        return f"{base}|^N"
    if tag == "g":  # what the k-th type parameter of the generic type `base` is constrained to
        site = desc[3]
        return f"{base}|^g{desc[2]}{site.suffix() if site is not None else ''}"
    if tag == "t":  # `this` in a method of an object literal whose contextual type is `base`
        return f"{base}|^t"
    if tag == "c":
        site = desc[2] if len(desc) > 2 else None
        return f"{base}|()" + (site.suffix() if site is not None else "")
    if tag == "i":
        site = desc[2] if len(desc) > 2 else None
        if site is not None and site.suffix():  # a generic reference with its type arguments
            return f"{base}|:{site.suffix()}"
        return base if base.endswith("|:") else f"{base}|:"
    if tag == "p":  # the declared type of parameter k of a callee (of a constructor: "&&")
        site = desc[4]
        suffix = site.suffix() if site is not None else ""
        return f"{base}|{'&&' if desc[3] else '&'}{desc[2]}{suffix}"
    if tag == "d":  # narrowed by discriminants: `~code=a,b` (alternatives whose `code` may be a or b), `!=`
        clauses = ";".join(
            f"{prop}{'!=' if negate else '='}{','.join(values)}" for prop, negate, values in desc[2]
        )
        return f"{base}|~{clauses}"
    if tag == "a":  # parameter j of the callback passed as argument k (of a constructor: "@@")
        site = desc[5] if len(desc) > 5 else None
        suffix = site.suffix() if site is not None else ""
        if desc[2] == -1:  # parameter j of a function value whose declared type is the type `base`
            return f"{base}|%{desc[3]}{suffix}"
        return f"{base}|{'@@' if desc[4] else '@'}{desc[2]}.{desc[3]}{suffix}"
    return None


def _untyped_value(desc: Desc) -> bool:
    """Whether a value is read off a name that nothing types: a parameter without a declared or
    contextual type (JS's, ``function serve(routes)``), a variable declared without a value."""
    for _ in range(_MAX_DEPTH):
        if desc is None or desc[0] not in ("n", "m", "e", "w"):
            return False
        if desc[0] == "n":
            binding = bound(desc) if len(desc) == 3 else None
            return binding is not None and binding.chain is None and binding.vtype is None
        desc = desc[1]
    return False


def _instance_tested(desc: tuple[Any, ...], depth: int) -> str | None:
    """``("j", x, key, C)``: x where ``x instanceof C`` holds. Tested against a global class
    (``instanceof Error``: a project subclass's own members may be read), x is kept; else an
    untyped x is a C, and a typed one a C where C derives from its type (chain step ``~^<key>``,
    C's chain in the fact ``itests``: the linker judges)."""
    value, key, tested = desc[1], desc[2], desc[3]
    if tested[0] == "n" and tested[1].lookup(tested[2]) is None:
        return chain_of(value, depth + 1)
    base = chain_of(value, depth + 1)
    if base is None or base.partition("|")[0] == UNTYPED_KEY:  # untyped, or `any`/`unknown` (a catch's error)
        return chain_of(("i", tested), depth + 1)
    return f"{base}|~^{key}"


def _local_function(callee: Desc) -> Desc:
    """The ``("f", …)`` descriptor of a local name bound to a function value, else None."""
    if callee is None or callee[0] != "n":
        return None
    binding = callee[1].lookup(callee[2])
    vtype = binding.vtype if binding is not None and binding.chain is None else None
    return vtype if vtype is not None and vtype[0] == "f" else None


def _local_type(local: tuple[Any, ...], tag: str, desc: tuple[Any, ...]) -> Desc:
    """For a call of a local function ``("f", parameters, callbacks, returned[, callbacks'
    returns])``: its declared return type (``c``), the declared type of parameter k (``p``), or of
    parameter j of its function-typed parameter k, or that parameter's declared return type (``a``:
    what an object literal the function passed there returns is)."""
    if tag == "c":
        returned: Desc = local[3]
        return returned
    k = desc[2]
    if tag == "p":  # (`this`, of `f.call(o)`: a local arrow has none)
        return local[1][k] if isinstance(k, int) and 0 <= k < len(local[1]) else None
    if desc[3] == "return":
        returns: dict[int, Desc] = local[4] if len(local) > 4 else {}
        return returns.get(k) if k >= 0 else None
    params = local[2].get(k) if k >= 0 else None
    if params is None or not isinstance(desc[3], int):  # `this` of the callback: not recorded for locals
        return None
    return params[desc[3]] if desc[3] < len(params) else None
