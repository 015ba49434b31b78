"""TS/JS: whether a member's declared return is a ``Promise``, as far as its written text says.

A value of an outside type fits a project type only if each member the project type requires
returns what the project declares: ``Map.set`` returns the map, so a ``Map`` is no
``StorageAdapter { set: (key: string, value: string) => Promise<void> }`` although it has every
member's name. The shape rules (``ts_package_shapes``, ``ts_lib_shapes``) compare names; this
tells the ones whose returns cannot agree apart, reading the declarations' text only: a return is
a ``Promise`` (every part of its union is one), surely not one (every part a primitive, a literal,
``this``, an array), or unknown (a type parameter, another name, text cut short).
"""

from __future__ import annotations

import re

from astmcp.refactor.ts_structural import union_parts

__all__ = ["promised", "returned_type", "returns_disagree"]

_PROMISE = re.compile(r"^(?:Promise|PromiseLike)\s*<")
_NEVER_PROMISES = frozenset(
    {"string", "number", "boolean", "bigint", "symbol", "void", "undefined", "null", "this", "object"}
)
_LITERAL = re.compile(r"""^(?:"[^"]*"|'[^']*'|-?\d[\d_.]*|true|false)$""")
_PAIRS = {"(": ")", "[": "]", "{": "}", "<": ">"}
_ANYTHING = frozenset({"void", "any", "unknown"})  # an expected return any function's fits


def returned_type(name: str, text: str) -> str | None:
    """The type the method or function-typed property ``name`` declared by ``text`` returns, as
    written (``get(key: string): Promise<X>`` and ``get: (key: string) => Promise<X>``: ``Promise<X>``);
    None when ``text`` declares no function of that name, writes no return or is cut short."""
    if text.rstrip().endswith("…"):
        return None
    found = re.search(rf"(?<![\w$#]){re.escape(name)}(?![\w$])", text)
    if found is None:
        return None
    rest = text[found.end() :].lstrip().removeprefix("?").lstrip()
    arrow = rest.startswith(":")
    if arrow:  # a property: its type must be a function type
        rest = rest[1:].lstrip()
    after = _past_brackets(rest, "<")
    if after is None or not after.startswith("("):
        return None
    rest = after
    after = _past_brackets(rest, "(")
    if after is None:
        return None
    rest = after
    lead = "=>" if arrow else ":"
    if not rest.startswith(lead):
        return None
    returned = rest[len(lead) :].strip().rstrip(";").strip()
    return returned or None


def promised(returned: str | None) -> bool | None:
    """True when every part of the written type is a ``Promise``, False when none can be one (a
    primitive, a literal, ``this``, an array), None when it is not known."""
    if returned is None:
        return None
    parts = union_parts(returned.strip())
    if not parts:
        return None
    if all(_PROMISE.match(part) for part in parts):
        return True
    if all(part in _NEVER_PROMISES or _LITERAL.match(part) or part.endswith("[]") for part in parts):
        return False
    return None


def returns_disagree(expected: str | None, given: bool | None) -> bool:
    """Whether a function whose return is a ``Promise`` (``given`` True), or surely not one
    (False), can never be given where ``expected`` (a written return type) is declared."""
    if expected is None or given is None or expected.strip() in _ANYTHING:
        return False
    wanted = promised(expected)
    return wanted is not None and wanted != given


def _past_brackets(text: str, opening: str) -> str | None:
    """``text`` after the bracketed run it starts with (when it starts with ``opening``), else
    ``text`` itself; None when the brackets do not close."""
    if not text.startswith(opening):
        return text
    stack: list[str] = []
    i = 0
    while i < len(text):
        char = text[i]
        if char == "=" and text.startswith("=>", i):
            i += 2  # an arrow's `>` closes nothing
            continue
        if char in _PAIRS:
            stack.append(_PAIRS[char])
        elif stack and char == stack[-1]:
            stack.pop()
            if not stack:
                return text[i + 1 :].lstrip()
        i += 1
    return None
