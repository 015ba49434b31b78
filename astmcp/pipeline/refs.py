"""``$ref`` and ``$item`` (SPEC §6): parse once, check statically, resolve at run time.

``{"$ref": "#/steps/<id>/…"}`` is an RFC 6901 pointer in its URI-fragment form
(percent-escapes decoded, then ``~1`` → ``/`` and ``~0`` → ``~``) into the
result of an *earlier* step. ``{"$item": ""|"/…"}`` is a plain RFC 6901 pointer
into the current foreach item. Segments ``__proto__``, ``prototype`` and
``constructor`` are refused wherever they appear, so a document written for a
JavaScript runner cannot smuggle prototype pollution through this one.

A value is first *compiled* into a template (static errors: exit 2), then
*resolved* per invocation (a pointer that finds nothing: ``MISSING_REFERENCE``).
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote_to_bytes

from astmcp.pipeline.errors import BatchError

FORBIDDEN_SEGMENTS = frozenset({"__proto__", "prototype", "constructor"})
_INDEX = re.compile(r"^(?:0|[1-9][0-9]*)$")
_BAD_ESCAPE = re.compile(r"~(?![01])")
_PERCENT = re.compile(r"%(?![0-9A-Fa-f]{2})")


@dataclass(frozen=True, slots=True)
class Ref:
    """A pointer into an earlier step's result."""

    text: str
    step: str
    path: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Item:
    """A pointer into the current foreach item."""

    text: str
    path: tuple[str, ...]


def split_pointer(pointer: str) -> tuple[str, ...]:
    """RFC 6901 segments of ``""`` or ``"/a/b~1c"``; ValueError when malformed."""
    if pointer == "":
        return ()
    if not pointer.startswith("/"):
        raise ValueError("a JSON pointer is empty or starts with '/'")
    if _BAD_ESCAPE.search(pointer):
        raise ValueError("'~' must be followed by 0 or 1")
    segments = tuple(s.replace("~1", "/").replace("~0", "~") for s in pointer[1:].split("/"))
    bad = FORBIDDEN_SEGMENTS.intersection(segments)
    if bad:
        raise ValueError(f"segment {sorted(bad)[0]!r} is refused")
    return segments


def parse_ref(text: str) -> Ref:
    """A ``#/steps/<id>/…`` reference; ValueError when malformed."""
    if not text.startswith("#"):
        raise ValueError("only local references '#/steps/<id>/…' are allowed")
    fragment = text[1:]
    if _PERCENT.search(fragment):
        raise ValueError("'%' must start a two-digit hex escape")
    try:
        pointer = unquote_to_bytes(fragment).decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError("percent-escapes do not decode as UTF-8") from None
    segments = split_pointer(pointer)
    if len(segments) < 2 or segments[0] != "steps":
        raise ValueError("a reference must start with '#/steps/<id>'")
    return Ref(text, segments[1], segments[2:])


def compile_value(
    value: Any,
    *,
    earlier: Collection[str],
    all_ids: Collection[str],
    in_foreach: bool,
    refs: set[str],
) -> Any:
    """A template of ``value`` with every ref node replaced by :class:`Ref`/:class:`Item`.

    ``refs`` collects the step ids referred to (the runner keeps only those results).
    """
    if isinstance(value, list):
        return [
            compile_value(v, earlier=earlier, all_ids=all_ids, in_foreach=in_foreach, refs=refs)
            for v in value
        ]
    if not isinstance(value, dict):
        return value
    if "$ref" in value or "$item" in value:
        return _compile_node(value, earlier, all_ids, in_foreach, refs)
    return {
        k: compile_value(v, earlier=earlier, all_ids=all_ids, in_foreach=in_foreach, refs=refs)
        for k, v in value.items()
    }


def _compile_node(
    node: dict[str, Any], earlier: Collection[str], all_ids: Collection[str], in_foreach: bool, refs: set[str]
) -> Ref | Item:
    if "$ref" in node:
        text = node["$ref"]
        if len(node) != 1:
            raise BatchError("INVALID_REFERENCE", 'a {"$ref"} object takes no other keys')
        if not isinstance(text, str):
            raise BatchError("INVALID_REFERENCE", "$ref must be a string")
        return compile_ref(text, earlier=earlier, all_ids=all_ids, refs=refs)
    text = node["$item"]
    if not in_foreach:
        raise BatchError("INVALID_ITEM_REFERENCE", "$item is only allowed in the input of a foreach step")
    if len(node) != 1 or not isinstance(text, str):
        raise BatchError("INVALID_ITEM_REFERENCE", "$item must be the only key and a string pointer")
    try:
        return Item(text, split_pointer(text))
    except ValueError as exc:
        raise BatchError("INVALID_ITEM_REFERENCE", f"bad $item pointer {text!r}: {exc}") from None


def compile_ref(text: str, *, earlier: Collection[str], all_ids: Collection[str], refs: set[str]) -> Ref:
    try:
        ref = parse_ref(text)
    except ValueError as exc:
        raise BatchError("INVALID_REFERENCE", f"bad $ref {text!r}: {exc}") from None
    if ref.step not in all_ids:
        raise BatchError(
            "MISSING_REFERENCE", f"$ref {text!r} names no step", details={"ref": text, "steps": list(all_ids)}
        )
    if ref.step not in earlier:
        raise BatchError(
            "INVALID_REFERENCE", f"$ref {text!r} points at a step that has not run yet (earlier steps only)"
        )
    refs.add(ref.step)
    return ref


def walk(value: Any, path: tuple[str, ...]) -> tuple[Any, int]:
    """Follow ``path``; returns (value, -1) or (None, index of the first missing segment)."""
    for depth, segment in enumerate(path):
        if isinstance(value, dict):
            if segment not in value:
                return None, depth
            value = value[segment]
        elif isinstance(value, list):
            if not _INDEX.match(segment) or int(segment) >= len(value):
                return None, depth
            value = value[int(segment)]
        else:
            return None, depth
    return value, -1


def _where(path: tuple[str, ...], depth: int) -> str:
    return "".join("/" + s.replace("~", "~0").replace("/", "~1") for s in path[: depth + 1])


def resolve(template: Any, results: dict[str, Any], item: Any = None, item_index: int | None = None) -> Any:
    """The value of a template for one invocation (containers copied, leaves shared)."""
    if isinstance(template, Ref):
        value, missing = walk(results[template.step], template.path)
        if missing >= 0:
            raise BatchError(
                "MISSING_REFERENCE",
                f"$ref {template.text!r}: step {template.step!r} has no "
                f"{_where(template.path, missing)!r} in its result",
                details={"ref": template.text, "missing": _where(template.path, missing)},
            )
        return value
    if isinstance(template, Item):
        value, missing = walk(item, template.path)
        if missing >= 0:
            raise BatchError(
                "MISSING_REFERENCE",
                f"$item {template.text!r}: item {item_index} has no {_where(template.path, missing)!r}",
                details={"item": template.text, "item_index": item_index},
            )
        return value
    if isinstance(template, list):
        return [resolve(v, results, item, item_index) for v in template]
    if isinstance(template, dict):
        return {k: resolve(v, results, item, item_index) for k, v in template.items()}
    return template
