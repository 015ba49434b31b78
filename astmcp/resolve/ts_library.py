"""Members of the JavaScript built-in types any TS/JS code handles (ES2023 + DOM basics).

A project member sharing one of these names is never the single candidate for an
untyped receiver (``x.map`` is far more often ``Array.prototype.map``).
"""

from __future__ import annotations

__all__ = ["JS_LIBRARY_MEMBERS"]

JS_LIBRARY_MEMBERS = frozenset(
    ["constructor", "toString", "toLocaleString", "valueOf", "hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable", "length", "at", "concat", "copyWithin", "entries", "every", "fill", "filter", "find", "findIndex", "findLast", "findLastIndex", "flat", "flatMap", "forEach", "includes", "indexOf", "join", "keys", "lastIndexOf", "map", "pop", "push", "reduce", "reduceRight", "reverse", "shift", "slice", "some", "sort", "splice", "unshift", "values", "with", "toReversed", "toSorted", "toSpliced", "from", "of", "isArray", "charAt", "charCodeAt", "codePointAt", "endsWith", "localeCompare", "match", "matchAll", "normalize", "padEnd", "padStart", "repeat", "replace", "replaceAll", "search", "split", "startsWith", "substring", "substr", "toLowerCase", "toUpperCase", "trim", "trimEnd", "trimStart", "raw", "get", "set", "has", "delete", "clear", "size", "add", "forEach", "then", "catch", "finally", "resolve", "reject", "all", "allSettled", "any", "race", "apply", "bind", "call", "name", "getTime", "getFullYear", "getMonth", "getDate", "getDay", "getHours", "getMinutes", "getSeconds", "getMilliseconds", "toISOString", "toJSON", "setTime", "now", "parse", "UTC", "exec", "test", "source", "flags", "global", "lastIndex", "message", "stack", "cause", "next", "return", "throw", "done", "value", "assign", "create", "defineProperty", "defineProperties", "freeze", "fromEntries", "getOwnPropertyNames", "getOwnPropertyDescriptor", "getPrototypeOf", "is", "isFrozen", "setPrototypeOf", "stringify", "log", "warn", "error", "info", "debug", "addEventListener", "removeEventListener", "dispatchEvent", "emit", "on", "once", "off"]
)
