"""Is a new name one identifier of the file's language, and not a keyword?"""

from __future__ import annotations

import keyword
import unicodedata

from astmcp.errors import InvalidInput, MutationBlocked, NameCollision
from astmcp.model import LANGUAGE_BY_SUFFIX, PYTHON
from astmcp.query.references import RUNTIME_CALLED

# ECMAScript reserved words plus the TypeScript words that cannot name a binding.
TS_RESERVED = frozenset(
    [
        "break",
        "case",
        "catch",
        "class",
        "const",
        "continue",
        "debugger",
        "default",
        "delete",
        "do",
        "else",
        "enum",
        "export",
        "extends",
        "false",
        "finally",
        "for",
        "function",
        "if",
        "import",
        "in",
        "instanceof",
        "new",
        "null",
        "return",
        "super",
        "switch",
        "this",
        "throw",
        "true",
        "try",
        "typeof",
        "var",
        "void",
        "while",
        "with",
        "implements",
        "interface",
        "let",
        "package",
        "private",
        "protected",
        "public",
        "static",
        "yield",
        "await",
        "arguments",
        "eval",
    ]
)


def language_of(path: str) -> str | None:
    dot = path.rfind(".")
    return LANGUAGE_BY_SUFFIX.get(path[dot:]) if dot >= 0 else None


def _ts_identifier(name: str) -> bool:
    if not name:
        return False
    first, rest = name[0], name[1:]
    if not (first in "$_" or first.isalpha() or unicodedata.category(first) == "Nl"):
        return False
    return all(
        ch in "$_\u200c\u200d" or ch.isalnum() or unicodedata.category(ch) in ("Mn", "Mc", "Pc", "Nl")
        for ch in rest
    )


def check_new_name(new_name: str, path: str) -> None:
    """INVALID_INPUT unless ``new_name`` is one non-keyword identifier for ``path``'s language."""
    if language_of(path) == PYTHON:
        if not new_name.isidentifier():
            raise InvalidInput(f"{new_name!r} is not a Python identifier")
        if keyword.iskeyword(new_name):
            raise InvalidInput(f"{new_name!r} is a Python keyword")
        return
    if not _ts_identifier(new_name):
        raise InvalidInput(f"{new_name!r} is not a TypeScript/JavaScript identifier")
    if new_name in TS_RESERVED:
        raise InvalidInput(f"{new_name!r} is a reserved word")


def _special(name: str) -> bool:
    return len(name) > 4 and name.startswith("__") and name.endswith("__")


def check_special_name(name: str, new_name: str, path: str) -> None:
    """Python: MUTATION_BLOCKED for a rename from or to a ``__special__`` name. Python and its
    libraries look these up by name (``len(x)`` calls ``__len__``, ``@total_ordering`` reads
    ``__lt__``, ``dataclass`` calls ``__post_init__``, a module's ``__getattr__`` serves missing
    names), so such a rename changes what the program does with no reference left behind."""
    if language_of(path) != PYTHON:
        return
    for special in (name, new_name):
        if _special(special):
            raise MutationBlocked(
                f"{special!r} is a special name: Python and libraries look it up by name (len() calls"
                " __len__, dataclasses call __post_init__), so renaming from or to it changes behaviour"
                " silently; edit it by hand if that is what you mean",
                {"special_name": special},
            )


# TS/JS names a declaration of some kind cannot take, or takes only by changing what it is
_TS_TYPE_KEYWORDS = frozenset(
    [
        "any",
        "unknown",
        "number",
        "bigint",
        "boolean",
        "string",
        "symbol",
        "object",
        "never",
        "void",
        "undefined",
    ]
)
_TS_MEMBER_MEANINGS = {
    "constructor": "a class's constructor (the method would construct, and a property would be the"
    " object's constructor link)",
    "prototype": "the class's prototype object (a static member may not take it)",
    "__proto__": "the object's prototype link (`{ __proto__: x }` sets the prototype, not a property)",
}
_TS_GLOBAL_VALUES = frozenset(["undefined", "NaN", "Infinity", "globalThis", "eval", "arguments"])


def check_declaration_name(new_name: str, path: str, kind: str, member: bool) -> None:
    """INVALID_INPUT for a TS/JS new name that changes what the declaration is: a member named
    ``constructor``/``prototype``/``__proto__``, a type named like a built-in type (TS2414), a
    top-level value named ``undefined`` (legal, but it hides the global every file reads)."""
    if language_of(path) == PYTHON:
        return
    if member and new_name in _TS_MEMBER_MEANINGS:
        raise InvalidInput(f"{new_name!r} names {_TS_MEMBER_MEANINGS[new_name]}; choose another name")
    if member and new_name in RUNTIME_CALLED:
        # `then` makes `await` adopt the object, `toJSON` changes JSON.stringify's output
        raise NameCollision(
            f"{new_name!r} is a name the runtime calls by itself ({RUNTIME_CALLED[new_name]}.{new_name}):"
            " renamed to it, the member would be called where it was not; choose another name",
            {"runtime_member": f"{RUNTIME_CALLED[new_name]}.{new_name}"},
        )
    if not member and kind in ("class", "interface", "type", "enum") and new_name in _TS_TYPE_KEYWORDS:
        raise InvalidInput(f"{new_name!r} is a built-in type's name; a {kind} cannot take it")
    if not member and new_name in _TS_GLOBAL_VALUES:
        raise InvalidInput(f"{new_name!r} would hide the global of that name; choose another name")
