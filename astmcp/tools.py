"""The tool registry and the one boundary where results and errors go on the wire.

Every front door (MCP server, batch runner, ``ast-tool call``) goes through
:func:`call_tool`, so validation, bounding, TOON and error translation happen
in exactly one place.
"""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import toons
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from astmcp.errors import AstmcpError, EncodingError, InternalError, InvalidInput, OutputLimit
from astmcp.workspace import Workspace, Workspaces

log = logging.getLogger("astmcp")

DEFAULT_MAX_BYTES = 32 * 1024
MAX_MAX_BYTES = 1024 * 1024


class ToolInput(BaseModel):
    """Fields every tool takes."""

    model_config = ConfigDict(extra="forbid")

    project_root: str | None = Field(None, description="Project root; default: the server's --root.")
    max_bytes: int = Field(
        DEFAULT_MAX_BYTES, ge=256, le=MAX_MAX_BYTES, description="Cap on the serialized answer."
    )


class ToolOutput(BaseModel):
    model_config = ConfigDict(extra="forbid")


Handler = Callable[[Workspace, Any], ToolOutput]


@dataclass(frozen=True, slots=True)
class ToolSpec:
    name: str
    handler: Handler
    input_model: type[ToolInput]
    output_model: type[ToolOutput]
    description: str
    read_only: bool = True
    destructive: bool = False
    idempotent: bool = False
    list_field: str | None = None  # the paged list that bounding may shorten
    title: str | None = None


_REGISTRY: dict[str, ToolSpec] = {}


def tool(
    name: str,
    input_model: type[ToolInput],
    output_model: type[ToolOutput],
    *,
    list_field: str | None = None,
    read_only: bool = True,
    destructive: bool = False,
    idempotent: bool = False,
) -> Callable[[Handler], Handler]:
    """Register a handler; its docstring is the agent-facing description."""

    def register(handler: Handler) -> Handler:
        description = " ".join((handler.__doc__ or "").split())
        _REGISTRY[name] = ToolSpec(
            name,
            handler,
            input_model,
            output_model,
            description,
            read_only,
            destructive,
            idempotent,
            list_field,
        )
        return handler

    return register


def registry() -> dict[str, ToolSpec]:
    """All tools, in SPEC order."""
    from astmcp.query import register_all

    register_all()
    return _REGISTRY


def find_tool(name: str) -> ToolSpec | None:
    """One tool, importing tool modules in SPEC order only until it is registered:
    ``ast-tool call`` on a read tool does not pay for the refactoring engines' imports."""
    if name not in _REGISTRY:
        from astmcp.query import TOOL_MODULES, import_tool_module

        for module in TOOL_MODULES:
            import_tool_module(module)
            if name in _REGISTRY:
                break
    return _REGISTRY.get(name)


@dataclass(frozen=True, slots=True)
class ToolResult:
    data: dict[str, Any]
    text: str
    is_error: bool = False


def dumps_compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def to_wire(model: BaseModel) -> dict[str, Any]:
    """Optional fields left as None are omitted; paging's next_offset stays."""
    data = model.model_dump(mode="json", exclude_none=True)
    for key in getattr(model, "keep_null", ()):
        data.setdefault(key, None)
    return data


def error_result(error: AstmcpError) -> ToolResult:
    wire = error.to_wire()
    return ToolResult(wire, dumps_compact(wire), is_error=True)


def _validation_message(exc: ValidationError) -> tuple[str, list[dict[str, Any]]]:
    problems = [
        {"field": ".".join(str(p) for p in err["loc"]) or "(input)", "problem": err["msg"]}
        for err in exc.errors(include_url=False, include_input=False, include_context=False)
    ]
    first = problems[0]
    return f"invalid input: {first['field']}: {first['problem']}", problems


def call_tool(workspaces: Workspaces, name: str, arguments: dict[str, Any] | None) -> ToolResult:
    """Validate, run, bound and serialize one tool call. Never raises."""
    try:
        spec = find_tool(name)
        if spec is None:
            raise InvalidInput(f"unknown tool {name!r}", {"tools": sorted(registry())})
        try:
            params = spec.input_model.model_validate(arguments or {})
        except ValidationError as exc:
            message, problems = _validation_message(exc)
            raise InvalidInput(message, {"problems": problems}) from None
        ws = workspaces.get(params.project_root)
        with ws.lock:
            try:
                output = spec.handler(ws, params)
            finally:
                ws.release()
        data = to_wire(output)
        data = _bound(spec, params, data)
        if getattr(params, "output_format", "json") == "toon":
            data = uniform_rows(data)
            return ToolResult(data, _toon(data))
        return ToolResult(data, dumps_compact(data))
    except AstmcpError as error:
        return error_result(error)
    except Exception as exc:  # top of a request: log, never leak a traceback
        log.exception("tool %s failed", name)
        print(f"astmcp: internal error in {name}: {type(exc).__name__}: {exc}", file=sys.stderr)
        return error_result(InternalError(f"internal error in {name}: {type(exc).__name__}"))


def uniform_rows(value: Any) -> Any:
    """Give every object in a list the same keys (missing ones null), so TOON can write
    the list as one table instead of one block per row."""
    if isinstance(value, dict):
        return {key: uniform_rows(item) for key, item in value.items()}
    if isinstance(value, list):
        rows = [uniform_rows(item) for item in value]
        if rows and all(isinstance(row, dict) for row in rows):
            keys: dict[str, None] = {}
            for row in rows:
                keys.update(dict.fromkeys(row))
            flat = all(not isinstance(v, dict | list) for row in rows for v in row.values())
            if flat:
                return [{key: row.get(key) for key in keys} for row in rows]
        return rows
    return value


def _toon(data: dict[str, Any]) -> str:
    try:
        text: str = toons.dumps(data)
        if toons.loads(text) == data:
            return text
    except Exception:
        pass
    raise EncodingError("this result does not round-trip through TOON; use output_format json")


def _size(data: dict[str, Any]) -> int:
    return len(dumps_compact(data).encode("utf-8"))


def _bound(spec: ToolSpec, params: ToolInput, data: dict[str, Any]) -> dict[str, Any]:
    """Shorten the paged list until the answer fits ``max_bytes``; say so."""
    limit = params.max_bytes
    if _size(data) <= limit:
        return data
    field = spec.list_field
    items = data.get(field) if field else None
    if field is None or not isinstance(items, list) or not items:
        raise OutputLimit(
            f"answer is larger than max_bytes={limit}; raise max_bytes (≤ {MAX_MAX_BYTES}) or narrow the request"
        )
    lo, hi = 0, len(items)
    while lo < hi:  # largest prefix that fits
        mid = (lo + hi + 1) // 2
        trial = _cut(data, field, items, mid)
        if _size(trial) <= limit:
            lo = mid
        else:
            hi = mid - 1
    if lo == 0:
        raise OutputLimit(f"a single item is larger than max_bytes={limit}; raise max_bytes")
    return _cut(data, field, items, lo)


def _cut(data: dict[str, Any], field: str, items: list[Any], keep: int) -> dict[str, Any]:
    out = dict(data)
    out[field] = items[:keep]
    out["truncated"] = True
    offset = int(data.get("offset", 0) or 0)
    if "has_more" in data:
        out["has_more"] = True
        out["next_offset"] = offset + keep
    out["truncation"] = (
        f"cut to {keep} items to fit max_bytes; call again with offset={offset + keep} for the rest"
    )
    return out


OutputFormat = Literal["json", "toon"]
