"""Members of the JavaScript built-in types any TS/JS code handles (ES2023 + DOM basics).

A project member sharing one of these names is never the single candidate for an
untyped receiver (``x.map`` is far more often ``Array.prototype.map``).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

__all__ = [
    "ARRAY_CALLBACKS",
    "ARRAY_METHODS",
    "ARRAY_RESULTS",
    "ARRAY_TAKERS",
    "GLOBAL_OBJECTS",
    "JS_LIBRARY_MEMBERS",
    "LIBRARY_TYPE_MEMBERS",
    "MAP_METHODS",
    "lib_global",
    "lib_global_types",
    "lib_global_values",
    "lib_instance_members",
    "lib_required_members",
    "lib_type_members",
    "lib_types_declaring",
]

# `Object.prototype`'s members: every object has them
_OBJECT_PROTOTYPE = (
    "constructor",
    "toString",
    "toLocaleString",
    "valueOf",
    "hasOwnProperty",
    "isPrototypeOf",
    "propertyIsEnumerable",
)

JS_LIBRARY_MEMBERS = frozenset(
    [
        *_OBJECT_PROTOTYPE,
        "length",
        "at",
        "concat",
        "copyWithin",
        "entries",
        "every",
        "fill",
        "filter",
        "find",
        "findIndex",
        "findLast",
        "findLastIndex",
        "flat",
        "flatMap",
        "forEach",
        "includes",
        "indexOf",
        "join",
        "keys",
        "lastIndexOf",
        "map",
        "pop",
        "push",
        "reduce",
        "reduceRight",
        "reverse",
        "shift",
        "slice",
        "some",
        "sort",
        "splice",
        "unshift",
        "values",
        "with",
        "toReversed",
        "toSorted",
        "toSpliced",
        "from",
        "of",
        "isArray",
        "charAt",
        "charCodeAt",
        "codePointAt",
        "endsWith",
        "localeCompare",
        "match",
        "matchAll",
        "normalize",
        "padEnd",
        "padStart",
        "repeat",
        "replace",
        "replaceAll",
        "search",
        "split",
        "startsWith",
        "substring",
        "substr",
        "toLowerCase",
        "toUpperCase",
        "trim",
        "trimEnd",
        "trimStart",
        "raw",
        "get",
        "set",
        "has",
        "delete",
        "clear",
        "size",
        "add",
        "forEach",
        "then",
        "catch",
        "finally",
        "resolve",
        "reject",
        "all",
        "allSettled",
        "any",
        "race",
        "apply",
        "bind",
        "call",
        "name",
        "toFixed",
        "toPrecision",
        "toExponential",
        "isInteger",
        "isFinite",
        "isNaN",
        "isSafeInteger",
        "parseFloat",
        "parseInt",
        "description",
        "getTime",
        "getFullYear",
        "getMonth",
        "getDate",
        "getDay",
        "getHours",
        "getMinutes",
        "getSeconds",
        "getMilliseconds",
        "toISOString",
        "toJSON",
        "setTime",
        "now",
        "parse",
        "UTC",
        "exec",
        "test",
        "source",
        "flags",
        "global",
        "lastIndex",
        "message",
        "stack",
        "cause",
        "next",
        "return",
        "throw",
        "done",
        "value",
        "assign",
        "create",
        "defineProperty",
        "defineProperties",
        "freeze",
        "fromEntries",
        "getOwnPropertyNames",
        "getOwnPropertyDescriptor",
        "getPrototypeOf",
        "is",
        "isFrozen",
        "setPrototypeOf",
        "stringify",
        "log",
        "warn",
        "error",
        "info",
        "debug",
        "addEventListener",
        "removeEventListener",
        "dispatchEvent",
        "emit",
        "on",
        "once",
        "off",
    ]
)

# Methods of ``Array<T>`` (lib.es5 to es2023) the linker follows on a typed array: what a call gives
# (``"element"``: a T, ``"array"``: a T[] again)...
ARRAY_RESULTS = {
    **dict.fromkeys(("at", "find", "findLast", "pop", "shift"), "element"),
    **dict.fromkeys(
        ("concat", "copyWithin", "fill", "filter", "reverse", "slice", "sort", "splice", "toReversed",
         "toSorted", "toSpliced", "with"),
        "array",
    ),
}  # fmt: skip
# ... which parameters of the callback passed first are elements, and which one is the array itself...
ARRAY_CALLBACKS: dict[str, tuple[tuple[int, ...], int | None]] = {
    **dict.fromkeys(
        ("every", "filter", "find", "findIndex", "findLast", "findLastIndex", "flatMap", "forEach", "map", "some"),
        ((0,), 2),
    ),
    **dict.fromkeys(("reduce", "reduceRight"), ((1,), 3)),
    **dict.fromkeys(("sort", "toSorted"), ((0, 1), None)),
}  # fmt: skip
# ... and which take elements as their arguments (an object literal passed there has the element type;
# a ``Set<T>`` is read as an array of T's, whose ``add`` takes one).
ARRAY_TAKERS = frozenset({"push", "unshift", "add"})
ARRAY_METHODS = frozenset(ARRAY_RESULTS) | frozenset(ARRAY_CALLBACKS) | ARRAY_TAKERS
# Methods of ``Map<K, V>`` the linker follows: ``get`` gives a V, ``values``/``keys``/``entries`` iterate
# the values, keys, entries, ``forEach((value, key) => …)``, ``set(k, v)`` takes a K and a V and gives
# the map back.
MAP_METHODS = frozenset({"entries", "forEach", "get", "keys", "set", "values"})


# Standard global objects and classes (ES2023 + the web platform's common ones) whose members and
# instances' members belong to the library: `Object.create`, `JSON.parse`, `new URL(u).href`.
# Left out: the global object itself (`globalThis`, `window`, `self`, `global`), `document`
# and `process`, whose types projects commonly extend (`declare global { var x }`, `ProcessEnv`).
GLOBAL_OBJECTS = frozenset(
    [
        "Object", "Function", "Array", "Math", "JSON", "Reflect", "Promise", "Number", "String",
        "Boolean", "Symbol", "BigInt", "Date", "RegExp", "Error", "TypeError", "RangeError",
        "SyntaxError", "ReferenceError", "EvalError", "URIError", "AggregateError", "Map", "Set",
        "WeakMap", "WeakSet", "WeakRef", "FinalizationRegistry", "Proxy", "Intl", "ArrayBuffer",
        "SharedArrayBuffer", "DataView", "Atomics", "Int8Array", "Uint8Array", "Uint8ClampedArray",
        "Int16Array", "Uint16Array", "Int32Array", "Uint32Array", "Float32Array", "Float64Array",
        "BigInt64Array", "BigUint64Array", "console", "URL", "URLSearchParams", "TextEncoder",
        "TextDecoder", "AbortController", "AbortSignal", "Headers", "Request", "Response",
        "FormData", "Blob", "XMLHttpRequest", "WebSocket", "EventTarget", "Event", "CustomEvent",
        "performance", "crypto", "navigator", "location", "localStorage", "sessionStorage",
    ]
)  # fmt: skip


def global_type_names(name: str) -> tuple[str, ...]:
    """The library interfaces a project would declare to extend the global ``name`` (its
    constructor's and its instances'): declaring one of them makes its members the project's."""
    if name == "console":
        return ("Console", "console")
    return (name, f"{name}Constructor")


# Members of the standard types a project value is most often joined with (`x ?? []`, `n: number | Opts`),
# as instances and as their constructors (a function's own members included): a union of one with a
# project type reads these names from it (`(delegate || Date).now()`), no other name.
_OBJECT_MEMBERS = (*_OBJECT_PROTOTYPE, "apply", "bind", "call", "name", "length", "prototype")
LIBRARY_TYPE_MEMBERS: dict[str, frozenset[str]] = {
    name: frozenset(_OBJECT_MEMBERS + members)
    for name, members in {
        "Boolean": (),
        "Number": ("toFixed", "toPrecision", "toExponential", "isInteger", "isFinite", "isNaN", "isSafeInteger",
                   "parseFloat", "parseInt", "EPSILON", "MAX_VALUE", "MIN_VALUE", "MAX_SAFE_INTEGER",
                   "MIN_SAFE_INTEGER", "NaN", "POSITIVE_INFINITY", "NEGATIVE_INFINITY"),
        "String": ("at", "charAt", "charCodeAt", "codePointAt", "concat", "endsWith", "includes", "indexOf",
                   "isWellFormed", "lastIndexOf", "localeCompare", "match", "matchAll", "normalize", "padEnd",
                   "padStart", "repeat", "replace", "replaceAll", "search", "slice", "split", "startsWith",
                   "substring", "substr", "toLocaleLowerCase", "toLocaleUpperCase", "toLowerCase", "toUpperCase",
                   "toWellFormed", "trim", "trimEnd", "trimStart", "fromCharCode", "fromCodePoint", "raw"),
        "Array": ("at", "concat", "copyWithin", "entries", "every", "fill", "filter", "find", "findIndex",
                  "findLast", "findLastIndex", "flat", "flatMap", "forEach", "includes", "indexOf", "join", "keys",
                  "lastIndexOf", "map", "pop", "push", "reduce", "reduceRight", "reverse", "shift", "slice", "some",
                  "sort", "splice", "toReversed", "toSorted", "toSpliced", "unshift", "values", "with", "from",
                  "fromAsync", "of", "isArray"),
        "Promise": ("then", "catch", "finally", "resolve", "reject", "all", "allSettled", "any", "race",
                    "withResolvers"),
        "Map": ("get", "set", "has", "delete", "clear", "size", "forEach", "entries", "keys", "values", "groupBy"),
        "Set": ("add", "has", "delete", "clear", "size", "forEach", "entries", "keys", "values", "union",
                "intersection", "difference", "symmetricDifference", "isSubsetOf", "isSupersetOf", "isDisjointFrom"),
        "Symbol": ("description", "for", "keyFor", "iterator", "asyncIterator", "hasInstance", "toPrimitive",
                   "toStringTag"),
    }.items()
}  # fmt: skip


@cache
def _lib_types() -> dict[str, tuple[tuple[str, ...], frozenset[str]]]:
    """name -> (extended types, own members) of the types TypeScript's lib declares."""
    from astmcp.resolve.ts_lib_types import _TYPES

    out: dict[str, tuple[tuple[str, ...], frozenset[str]]] = {}
    for line in _TYPES.split("\n"):
        name, _, rest = line.partition(":")
        extended, _, own = rest.partition(":")
        if name:
            out[name] = (tuple(b for b in extended.split(",") if b), frozenset(own.split()))
    return out


@cache
def lib_type_members(name: str) -> frozenset[str] | None:
    """Every member a value of the lib type ``name`` has (``Set``: ``add`` … ``isSubsetOf``, its
    constructor side's and what every object and function has too), its extended types' included;
    None when TypeScript's lib declares no such type."""
    declared = lib_instance_members(name)
    return None if declared is None else declared | frozenset(_OBJECT_MEMBERS)


@cache
def lib_instance_members(name: str) -> frozenset[str] | None:
    """The members the lib type ``name`` and the types it extends declare (``Array``: ``at`` …
    ``with``, ``length``; the table holds its constructor side's too, ``from``), without what every
    object and function has (``name``, ``call``); None when TypeScript's lib declares no such type."""
    if name not in _lib_types():
        return None
    return frozenset(member for _, own in _lib_closure(name) for member in own)


def _lib_closure(name: str) -> Iterator[tuple[str, frozenset[str]]]:
    """(type, its own members) of the lib type ``name`` and every type it extends, once each."""
    types = _lib_types()
    queue, seen = [name], set()
    while queue:
        current = queue.pop()
        if current in seen or current not in types:
            continue
        seen.add(current)
        extended, own = types[current]
        yield current, own
        queue.extend(extended)


@cache
def _lib_results() -> dict[str, dict[str, str]]:
    """name -> member -> what it gives (``_RESULTS`` of the generated table)."""
    from astmcp.resolve.ts_lib_types import _RESULTS

    out: dict[str, dict[str, str]] = {}
    for line in _RESULTS.split("\n"):
        name, _, given = line.partition(":")
        if name:
            out[name] = dict(item.split("=", 1) for item in given.split())
    return out


@cache
def lib_member_result(name: str, member: str) -> str | None:
    """What ``member`` of the lib type ``name`` gives, as TypeScript's lib declares it: ``String``
    (a property of that type), ``()String[]`` (a method returning an array of strings), ``()this``;
    None when a declaration of it, on the instance or the constructor side (one entity stands for
    both: ``Response.json()`` static and ``json()`` of a response differ), gives anything else."""
    results = _lib_results()
    found = {results.get(current, {}).get(member) for current, own in _lib_closure(name) if member in own}
    return found.pop() if len(found) == 1 else None


def lib_global(name: str) -> bool:
    """Whether an unbound name is a standard global (``GLOBAL_OBJECTS``) or a type TypeScript's lib
    declares (``IDBObjectStore``, ``KeyboardEvent``, ``HTMLElement``: capitalised; not the global
    variables it types, ``document``, ``history``, which code writes its own properties onto)."""
    return name in GLOBAL_OBJECTS or (name[:1].isupper() and name in _lib_types())


@cache
def lib_global_types() -> frozenset[str]:
    """The capitalised types TypeScript's lib declares: a project declaring one globally extends it."""
    return frozenset(name for name in _lib_types() if name[:1].isupper())


@cache
def _declaring() -> dict[str, tuple[tuple[str, frozenset[str]], ...]]:
    """member name -> (type, every member of it) for the capitalised types TypeScript's lib
    declares, members of extended types included, the object prototype's and ``prototype`` aside."""
    out: dict[str, list[tuple[str, frozenset[str]]]] = {}
    for name in lib_global_types():
        members = (lib_type_members(name) or frozenset()) - set(_OBJECT_MEMBERS) - {"prototype"}
        for member in members:
            out.setdefault(member, []).append((name, frozenset(members)))
    return {member: tuple(sorted(found)) for member, found in out.items()}


def lib_global_values(name: str) -> frozenset[str]:
    """The global variables TypeScript's lib declares of the type ``name`` or of one extending it
    (``Storage``: ``localStorage``, ``sessionStorage``)."""
    return _global_values().get(name, frozenset())


@cache
def _global_values() -> dict[str, frozenset[str]]:
    out: dict[str, set[str]] = {}
    for name, (extended, own) in _lib_types().items():
        if name[:1].islower() and extended and not own:  # `localStorage:Storage:`: a `declare var`
            for current, _ in _lib_closure(name):
                if current != name:
                    out.setdefault(current, set()).add(name)
    return {name: frozenset(found) for name, found in out.items()}


@cache
def lib_required_members(name: str) -> frozenset[str] | None:
    """The members of the lib type ``name`` (as :func:`lib_types_declaring` has them) a value of it
    must have: those every declaration marks optional left out (``Iterator``: ``next``, not
    ``return?``); None when the lib declares no such type."""
    if name not in _lib_types():
        return None
    optional = _lib_optional()
    members = (lib_type_members(name) or frozenset()) - set(_OBJECT_MEMBERS) - {"prototype"}
    needed = {
        member
        for current, own in _lib_closure(name)
        for member in own
        if member not in optional.get(current, ())
    }
    return frozenset(members & needed)


@cache
def _lib_optional() -> dict[str, frozenset[str]]:
    """name -> the members every declaration of that interface marks optional (``_OPTIONAL``)."""
    from astmcp.resolve.ts_lib_types import _OPTIONAL

    out: dict[str, frozenset[str]] = {}
    for line in _OPTIONAL.split("\n"):
        name, _, names = line.partition(":")
        if name:
            out[name] = frozenset(names.split())
    return out


def lib_types_declaring(member: str) -> tuple[tuple[str, frozenset[str]], ...]:
    """The lib types declaring ``member``, each with every member it has (see :func:`_declaring`)."""
    return _declaring().get(member, ())
