"""Is a new name one identifier of the file's language, and not a keyword?"""

from __future__ import annotations

import keyword
import unicodedata

from astmcp.errors import InvalidInput
from astmcp.model import LANGUAGE_BY_SUFFIX, PYTHON

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
