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

from astmcp.resolve.ts_facts import LOCAL_FIELDS, QUERY_FIELDS

__all__ = ["name_shapes", "shape"]

_POSITION = re.compile(r"P:(\d+:\d+)")
# a union's, a written-out object type's or a tuple type's position: no symbol, only its parts count
_UNION = re.compile(r"(?<=[ULQW]:)\d+:\d+")
_UNSHAPED = LOCAL_FIELDS | QUERY_FIELDS


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
        return _UNION.sub("?", _POSITION.sub(lambda m: "P:" + names.get(m.group(1), "?"), text))

    facts: dict[str, Any] = {}
    for field, value in payload.items():
        if field in _UNSHAPED:
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


def name_shapes(
    payload: dict[str, Any], symbols: Iterable[tuple[str, str, str, int]]
) -> tuple[str, dict[str, tuple[str, list[int]]]]:
    """The shape split by top-level name: per name, a digest of its symbols
    ``(symbol_path, kind)`` in file order and of the link facts keyed by their positions
    or by the name as exported, with the symbols' ids; and a digest of the rest (star
    exports, ``export =``, facts at positions of no symbol). An edit that keeps the rest
    changes only the names whose digest changed: the resolver records ``path::name`` for each
    name it looks up or reaches a symbol under, and files that consulted none of the changed
    names resolve as before. ``symbols``: ``(symbol_path, kind, "line:col", id)`` in file order."""
    names: dict[str, str] = {}
    owner: dict[str, str] = {}
    listed: dict[str, list[Any]] = {}
    ids: dict[str, list[int]] = {}
    seen: dict[str, int] = {}
    for symbol_path, kind, key, symbol_id in symbols:
        n = seen.get(symbol_path, 0)
        seen[symbol_path] = n + 1
        names.setdefault(key, f"{symbol_path}#{n}")
        top = symbol_path.partition(".")[0]
        owner.setdefault(key, top)
        listed.setdefault(top, []).append((symbol_path, kind))
        ids.setdefault(top, []).append(symbol_id)

    def rename(text: str) -> str:
        return _UNION.sub("?", _POSITION.sub(lambda m: "P:" + names.get(m.group(1), "?"), text))

    facts: dict[str, list[Any]] = {}
    rest: list[Any] = []
    for field, value in payload.items():
        if field in _UNSHAPED:
            continue
        if not isinstance(value, dict):
            rest.append([field, value])
            continue
        for k, v in value.items():
            entry = [field, names.get(k, rename("P:" + k)), rename(json.dumps(v, separators=(",", ":")))]
            name = (k if k != "=" else None) if field == "exports" else owner.get(k)
            if name is None:
                rest.append(entry)
            else:
                facts.setdefault(name, []).append(entry)
    out: dict[str, tuple[str, list[int]]] = {}
    for top in listed.keys() | facts.keys():
        text = json.dumps([listed.get(top, []), sorted(facts.get(top, []))], separators=(",", ":"))
        out[top] = (hashlib.sha256(text.encode("utf-8")).hexdigest(), ids.get(top, []))
    rest_text = json.dumps(sorted(rest, key=lambda e: json.dumps(e, sort_keys=True)), sort_keys=True)
    return hashlib.sha256(rest_text.encode("utf-8")).hexdigest(), out
