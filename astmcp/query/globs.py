"""Real globs over project-relative paths: ``*``, ``?``, ``[...]``, ``**`` and ``{a,b}``.

A pattern without ``/`` matches a file's base name anywhere (as ripgrep and
.gitignore do); a pattern with ``/`` matches the whole path from the root.
"""

from __future__ import annotations

import re
from functools import lru_cache

from astmcp.errors import InvalidInput


def _translate(pattern: str) -> str:
    out: list[str] = []
    i = 0
    n = len(pattern)
    while i < n:
        ch = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif ch == "*":
            out.append("[^/]*")
            i += 1
        elif ch == "?":
            out.append("[^/]")
            i += 1
        elif ch == "[":
            end = pattern.find("]", i + 2)
            if end < 0:
                raise InvalidInput(f"unclosed '[' in glob {pattern!r}")
            body = pattern[i + 1 : end]
            if body.startswith("!"):
                body = "^" + body[1:]
            out.append("[" + body.replace("\\", "\\\\") + "]")
            i = end + 1
        elif ch == "{":
            end = pattern.find("}", i)
            if end < 0:
                raise InvalidInput(f"unclosed '{{' in glob {pattern!r}")
            options = pattern[i + 1 : end].split(",")
            out.append("(?:" + "|".join(_translate(o) for o in options) + ")")
            i = end + 1
        else:
            out.append(re.escape(ch))
            i += 1
    return "".join(out)


@lru_cache(maxsize=128)
def compile_glob(pattern: str) -> re.Pattern[str]:
    if not pattern or len(pattern) > 1000 or "\x00" in pattern:
        raise InvalidInput("glob must be 1-1000 characters")
    body = _translate(pattern.lstrip("/") if pattern.startswith("/") else pattern)
    if "/" not in pattern:
        body = "(?:.*/)?" + body
    try:
        return re.compile(body + r"\Z")
    except re.error as exc:
        raise InvalidInput(f"invalid glob {pattern!r}: {exc}") from None


def glob_matches(pattern: str, path: str) -> bool:
    return compile_glob(pattern).match(path) is not None
