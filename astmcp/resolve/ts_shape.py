"""What other files can see of a TS/JS file, independent of where things sit in it.

The analyzer keys its link facts by name positions (``P:line:col``); an edit above a
declaration moves every key without changing what importers resolve to. The *shape*
renames each position to the symbol declared there (``path#n`` for the n-th declaration
of a path), so an edit that keeps the shape lets the linker remap symbol ids instead of
re-linking every importer.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from typing import Any

from astmcp.resolve.ts_facts import LOCAL_FIELDS

__all__ = ["shape"]

_POSITION = re.compile(r"P:(\d+:\d+)")
_UNION = re.compile(r"U:\d+:\d+")  # a union annotation's position: no symbol, only its alternatives count


def shape(payload: dict[str, Any], symbols: Iterable[tuple[str, str, str]]) -> str:
    """A digest of the payload's link facts (``refs`` left out) and the symbol list
    ``(symbol_path, kind, "line:col")`` in file order."""
    names: dict[str, str] = {}
    listed: list[tuple[str, str]] = []
    seen: dict[str, int] = {}
    for symbol_path, kind, key in symbols:
        n = seen.get(symbol_path, 0)
        seen[symbol_path] = n + 1
        names.setdefault(key, f"{symbol_path}#{n}")
        listed.append((symbol_path, kind))

    def rename(text: str) -> str:
        return _UNION.sub("U:?", _POSITION.sub(lambda m: "P:" + names.get(m.group(1), "?"), text))

    facts: dict[str, Any] = {}
    for field, value in payload.items():
        if field in LOCAL_FIELDS:
            continue
        if isinstance(value, dict):
            facts[field] = sorted(
                (names.get(k, rename("P:" + k)), rename(json.dumps(v, separators=(",", ":"))))
                for k, v in value.items()
            )
        else:
            facts[field] = value
    text = json.dumps([listed, facts], separators=(",", ":"), sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
