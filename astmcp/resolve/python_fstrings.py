"""The literal text of f-strings, located in the source.

Python 3.11 gives an f-string's literal parts the position of the whole string, so the words in
them are found from the source text: ``literal_text`` copies a run of adjacent string literals
with everything that is not literal text (prefixes, quotes, ``{…}`` replacement fields, what lies
between the literals) replaced by ``)``, which keeps every column and, before a dot, still reads
as a value whose member is taken (``f"{ctx}.save()"``).
"""

from __future__ import annotations

MASK = ")"
_PREFIX = frozenset("rRbBuUfF")


def literal_text(text: str) -> str | None:
    """``text`` (the source of one or more adjacent string literals, comments and line breaks
    between them allowed) with all but the literal text masked; None when it is not that."""
    out = list(text)
    i, n = 0, len(text)
    seen = False
    while i < n:
        c = text[i]
        if c in " \t\r\n\\\f":
            if c != "\n":
                out[i] = MASK
            i += 1
            continue
        if c == "#":  # a comment between the parts of an implicit concatenation
            while i < n and text[i] != "\n":
                out[i] = MASK
                i += 1
            continue
        start = i
        while i < n and text[i] in _PREFIX and i - start < 3:
            i += 1
        if i >= n or text[i] not in "'\"":
            return None
        prefix = text[start:i].lower()
        quote = text[i : i + 3] if text[i : i + 3] in ('"""', "'''") else text[i]
        i += len(quote)
        for k in range(start, i):
            out[k] = MASK
        i = _body(text, out, i, quote, "f" in prefix)
        if i < 0:
            return None
        seen = True
    return "".join(out) if seen else None


def _body(text: str, out: list[str], i: int, quote: str, formatted: bool) -> int:
    """Masks the replacement fields of a literal's body from ``i`` and its closing quote; the
    index after it (-1: unterminated)."""
    n = len(text)
    while i < n:
        if text.startswith(quote, i):
            for k in range(i, i + len(quote)):
                out[k] = MASK
            return i + len(quote)
        c = text[i]
        if c == "\\" or (formatted and text.startswith(("{{", "}}"), i)):
            i += 2
        elif formatted and c == "{":
            end = _field_end(text, i, quote)
            if end < 0:
                return -1
            for k in range(i, end):
                if text[k] != "\n":
                    out[k] = MASK
            i = end
        else:
            i += 1
    return -1


def _field_end(text: str, i: int, quote: str) -> int:
    """The index after the ``}`` closing the replacement field opened at ``i`` (-1: none before
    the literal's own closing quote)."""
    depth = 0
    n = len(text)
    while i < n:
        c = text[i]
        if text.startswith(quote, i) and depth <= 1 and quote in ('"""', "'''"):
            return -1
        if c in "'\"" and depth:
            inner = text[i : i + 3] if text[i : i + 3] in ('"""', "'''") else c
            if inner == quote:
                return -1
            close = text.find(inner, i + len(inner))
            if close < 0:
                return -1
            i = close + len(inner)
            continue
        if c in "{[(":
            depth += 1
        elif c in "}])":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return -1
