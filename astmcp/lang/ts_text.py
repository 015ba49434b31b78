"""Small text helpers for TS/JS signatures and JSDoc."""

from __future__ import annotations

_VALUE_CHARS = 80
_TYPE_CHARS = 300  # annotations of variables and members (overload lists)
_ALIAS_CHARS = 160  # a type alias's value is its body: keep the start


def collapse(text: str) -> str:
    """One line, runs of whitespace collapsed, comments dropped."""
    if "//" in text or "/*" in text:
        text = strip_comments(text)
    return " ".join(text.split())


def clip(text: str, limit: int = _VALUE_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def clip_type(text: str) -> str:
    return clip(text, _TYPE_CHARS)


def clip_alias(text: str) -> str:
    return clip(text, _ALIAS_CHARS)


def strip_comments(text: str) -> str:
    """Drop ``//`` and ``/* */`` comments outside string and template literals."""
    out: list[str] = []
    i = 0
    n = len(text)
    quote = ""
    start = 0
    while i < n:
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 2
                continue
            if ch == quote:
                quote = ""
        elif ch in "\"'`":
            quote = ch
        elif ch == "/" and i + 1 < n and text[i + 1] in "/*":
            out.append(text[start:i])
            if text[i + 1] == "/":
                end = text.find("\n", i)
                i = n if end < 0 else end
            else:
                end = text.find("*/", i + 2)
                i = n if end < 0 else end + 2
                out.append(" ")
            start = i
            continue
        i += 1
    out.append(text[start:])
    return "".join(out)


def jsdoc_first_line(comment: str) -> str | None:
    """First descriptive line of a ``/** … */`` block (tag lines skipped), or None."""
    if not comment.startswith("/**") or comment.startswith("/**/"):
        return None
    body = comment[3:]
    if body.endswith("*/"):
        body = body[:-2]
    for raw in body.split("\n"):
        line = raw.strip()
        if line.startswith("*"):
            line = line[1:].strip()
        if line and not line.startswith("@"):
            return line[:200]
    return None
