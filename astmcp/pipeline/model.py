"""The pipeline document (SPEC §6): strict parsing and the runner's limits.

Strict means: unknown keys anywhere in the envelope are errors, types are not
coerced (``"version": "1"`` is refused), step ids are unique, and the JSON text
itself must be plain RFC 8259 (no NaN/Infinity, no duplicate keys).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from astmcp.pipeline.errors import BatchError

MIB = 1024 * 1024
STEP_ID_PATTERN = r"^[A-Za-z][A-Za-z0-9_-]{0,63}$"
MAX_STEPS = 50
MAX_DEPTH = 64  # nesting of the document's JSON; deeper is refused as INPUT_LIMIT


@dataclass(frozen=True, slots=True)
class BatchLimits:
    """Every size and count limit of SPEC §6, as one object the runner is given."""

    document_bytes: int = 1 * MIB
    invocations: int = 500
    foreach_items: int = 200
    result_bytes: int = 10 * MIB
    output_bytes: int = 10 * MIB
    retained_bytes: int = 50 * MIB


DEFAULT_LIMITS = BatchLimits()


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, populate_by_name=False)


class RefValue(_Strict):
    ref: str = Field(alias="$ref")


class Limits(_Strict):
    concurrency: int = Field(4, ge=1, le=16)


class Step(_Strict):
    id: str = Field(pattern=STEP_ID_PATTERN)
    tool: str = Field(min_length=1, max_length=100)
    input: dict[str, Any]
    foreach: RefValue | None = None


class Document(_Strict):
    version: int = Field(ge=1, le=1, description="must be 1")
    project_root: str = Field(min_length=1)
    limits: Limits = Field(default_factory=lambda: Limits(concurrency=4))
    steps: list[Step] = Field(min_length=1, max_length=MAX_STEPS)
    emit: Any = None

    @property
    def has_emit(self) -> bool:
        return "emit" in self.model_fields_set


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"duplicate key {key!r}")
        out[key] = value
    return out


def _depth_ok(value: Any, limit: int) -> bool:
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict | list):
            if depth > limit:
                return False
            children = node.values() if isinstance(node, dict) else node
            stack.extend((child, depth + 1) for child in children)
    return True


def load_json(raw: bytes, limits: BatchLimits = DEFAULT_LIMITS) -> Any:
    """The document's JSON value; INPUT_LIMIT or INVALID_JSON when it is not one."""
    if len(raw) > limits.document_bytes:
        raise BatchError(
            "INPUT_LIMIT",
            f"the document is larger than {limits.document_bytes} bytes",
            details={"limit_bytes": limits.document_bytes},
        )
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise BatchError("INVALID_JSON", f"the document is not UTF-8 (byte {exc.start})") from None
    try:
        value = json.loads(text, parse_constant=_no_constants, object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as exc:
        raise BatchError(
            "INVALID_JSON",
            f"the document is not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}",
            details={"line": exc.lineno, "column": exc.colno},
        ) from None
    except ValueError as exc:
        raise BatchError("INVALID_JSON", f"the document is not JSON: {exc}") from None
    except RecursionError:
        value = None
        deep = True
    else:
        deep = not _depth_ok(value, MAX_DEPTH)
    if deep:
        raise BatchError(
            "INPUT_LIMIT",
            f"the document is nested deeper than {MAX_DEPTH} levels",
            details={"max_depth": MAX_DEPTH},
        )
    return value


def parse_document(value: Any) -> Document:
    """The strict document model; INVALID_BATCH with every problem listed."""
    if not isinstance(value, dict):
        raise BatchError("INVALID_BATCH", "the document must be a JSON object")
    try:
        doc = Document.model_validate(value)
    except ValidationError as exc:
        problems = [
            {"field": "/".join(str(p) for p in err["loc"]) or "(document)", "problem": err["msg"]}
            for err in exc.errors(include_url=False, include_input=False, include_context=False)
        ]
        step_id = _step_id_of(value, exc)
        first = problems[0]
        raise BatchError(
            "INVALID_BATCH",
            f"invalid pipeline: {first['field']}: {first['problem']}",
            step_id=step_id,
            details={"problems": problems[:20]},
        ) from None
    seen: set[str] = set()
    for step in doc.steps:
        if step.id in seen:
            raise BatchError("INVALID_BATCH", f"step id {step.id!r} is used twice", step_id=step.id)
        seen.add(step.id)
    return doc


def _step_id_of(value: dict[str, Any], exc: ValidationError) -> str | None:
    loc = exc.errors()[0]["loc"]
    if len(loc) >= 2 and loc[0] == "steps" and isinstance(loc[1], int):
        steps = value.get("steps")
        if isinstance(steps, list) and loc[1] < len(steps) and isinstance(steps[loc[1]], dict):
            step_id = steps[loc[1]].get("id")
            if isinstance(step_id, str) and len(step_id) <= 64:
                return step_id
    return None
