"""Small text helpers for TS/JS signatures and JSDoc."""

from __future__ import annotations

import re

# Comments, and the literals inside which "//" and "/*" are not comments.
_COMMENT_OR_STRING = re.compile(
    r"//[^\n]*|/\*.*?\*/|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`", re.S
)
_VALUE_CHARS = 80
_TYPE_CHARS = 300  # annotations of variables and members (overload lists)
_ALIAS_CHARS = 160  # a type alias's value is its body: keep the start


def collapse(text: str) -> str:
    """One line, runs of whitespace collapsed, comments dropped."""
    if "//" in text or "/*" in text:
        text = strip_comments(text)
    return " ".join(text.split())


def brief(text: str, limit: int) -> str:
    """``clip(collapse(text), limit)`` without collapsing megabytes first."""
    return clip(collapse(text[: limit * 8]), limit)


def clip(text: str, limit: int = _VALUE_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def clip_type(text: str) -> str:
    """Collapsed and clipped to the length kept for type annotations."""
    return brief(text, _TYPE_CHARS)


def clip_alias(text: str) -> str:
    """Collapsed and clipped to the length kept for type alias declarations."""
    return brief(text, _ALIAS_CHARS)


def strip_comments(text: str) -> str:
    """Drop ``//`` and ``/* */`` comments outside string and template literals."""
    return _COMMENT_OR_STRING.sub(_keep_strings, text)


def _keep_strings(match: re.Match[str]) -> str:
    token = match.group(0)
    return " " if token[0] == "/" else token


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
