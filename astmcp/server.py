"""``ast-mcp-server``: the MCP stdio adapter, and the only module that imports the MCP SDK.

It serves every tool in :func:`astmcp.tools.registry` generically: the handler
docstring is the description, the pydantic models give compact input and output
schemas, the ``ToolSpec`` flags give the annotations, and every call goes through
:func:`astmcp.tools.call_tool` (validation, bounding, TOON, error wire format).

It uses the SDK's low-level ``mcp.server.Server`` (public API) rather than
``MCPServer``: ``MCPServer`` derives schemas from function signatures and
validates arguments itself, which would replace the SPEC's ``INVALID_INPUT``
object with SDK text and publish pydantic's verbose schemas.
"""

from __future__ import annotations

import argparse
import importlib.util
import logging
import os
import signal
import sys
import threading
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import anyio
import anyio.to_thread
from mcp import types
from mcp.server import Server, ServerRequestContext
from mcp.server.stdio import stdio_server

from astmcp import __version__
from astmcp.tools import ToolResult, ToolSpec, call_tool, registry
from astmcp.workspace import Workspaces

log = logging.getLogger("astmcp")

SERVER_NAME = "astmcp"
SHUTDOWN_GRACE_S = 10.0  # how long SIGTERM waits for in-flight calls (an apply) to finish
FLUSH_GRACE_S = 0.2  # then for their answers to reach stdout
PROJECT_MARKERS = (
    ".git",
    ".astmcp",
    "pyproject.toml",
    "setup.py",
    "setup.cfg",
    "package.json",
    "tsconfig.json",
)

# (tools that must be registered, the line) — lines for missing tools are left out.
_INSTRUCTION_LINES: tuple[tuple[tuple[str, ...], str], ...] = (
    (
        (),
        "astmcp answers from an index of this project's Python and TypeScript/JavaScript code: "
        "symbols, signatures, references and calls/imports, each cited as file:line.",
    ),
    (
        ("ast_search_symbols", "ast_get_outline", "ast_get_symbol_source"),
        "It helps when the answer depends on code structure: find a symbol by name "
        "(ast_search_symbols), skim a file's declarations (ast_get_outline), read one "
        "symbol (ast_get_symbol_source).",
    ),
    (
        ("ast_find_references",),
        "ast_find_references lists who uses a symbol, with a confidence for each hit.",
    ),
    (
        ("ast_get_diagnostics",),
        "ast_get_diagnostics reports what is already broken, per file and symbol.",
    ),
    (
        ("ast_inspect_graph",),
        "ast_inspect_graph answers how things connect (callers, impact, tests, a tour) "
        "without source bodies.",
    ),
    (
        ("ast_rename_symbol",),
        "Renames and body edits are plans: prepare, review the preview, then apply with its plan_hash.",
    ),
    (
        (),
        "Step aside when the question is not about code structure (configs, docs, prose, plain "
        "text search, other languages, a quick look at a small file): your usual tools are "
        "better there. Cited positions are exact; certain and likely references need no re-reading, "
        "name-only hits deserve a look.",
    ),
)


# Which module registers which tool (astmcp.query.TOOL_MODULES), so the handshake can
# word its instructions without importing the handlers (libcst and friends cost ~0.3 s).
_TOOL_MODULE = {
    "ast_search_symbols": "astmcp.query.search",
    "ast_get_outline": "astmcp.query.outline",
    "ast_get_symbol_source": "astmcp.query.source",
    "ast_find_references": "astmcp.query.references",
    "ast_get_diagnostics": "astmcp.query.diagnostics",
    "ast_inspect_graph": "astmcp.query.graph",
    "ast_rename_symbol": "astmcp.refactor.tools",
}


def instructions(tool_names: set[str]) -> str:
    return "\n".join(line for needs, line in _INSTRUCTION_LINES if all(n in tool_names for n in needs))


def available_tools() -> set[str]:
    """Tools the instructions may name: those whose module is installed (found, not imported)."""
    return {name for name, module in _TOOL_MODULE.items() if importlib.util.find_spec(module) is not None}


# -- schemas --------------------------------------------------------------------------------
_SCHEMA_MAPS = ("properties", "$defs", "definitions", "patternProperties", "dependentSchemas")
_SCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
_SCHEMA_ONE = ("items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames")
_NULL = {"type": "null"}


def compact_schema(
    schema: dict[str, Any], *, output: bool, keep_null: tuple[str, ...] = ()
) -> dict[str, Any]:
    """Pydantic's JSON schema without the noise an agent pays for on every turn.

    Drops titles, ``default: null`` and the OpenAPI-only ``discriminator``; an
    optional ``X | None`` becomes plain ``X`` (inputs never need to send null;
    outputs omit None fields, so they also leave ``required``), except the output
    fields the wire keeps as null (``keep_null``). Output schemas also drop
    ``additionalProperties: false`` so a bounded answer's ``truncated`` and
    ``truncation`` notes never fail a client's validation.
    """
    out = _compact(schema, output=output)
    out.pop("description", None)  # the tool description already says it
    if output:
        for name in keep_null:
            prop = schema.get("properties", {}).get(name)
            if prop is not None:
                out["properties"][name] = _nullable(_compact(prop, output=True, field=True))
    return out


def _nullable(node: dict[str, Any]) -> dict[str, Any]:
    # anyOf rather than a type array: single-type dialects (Gemini's OpenAPI subset) reject arrays.
    return {"anyOf": [node, _NULL]}


def _is_nullable(node: Any) -> bool:
    return isinstance(node, dict) and (node == _NULL or _NULL in node.get("anyOf", ()))


def _compact(node: dict[str, Any], *, output: bool, field: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in ("title", "discriminator") or (key == "default" and value is None):
            continue
        if key == "additionalProperties" and (value is True or (output and value is False)):
            continue  # true is the default; false only on inputs (see the docstring)
        if key == "properties" and isinstance(value, dict):
            out[key] = {name: _compact(sub, output=output, field=True) for name, sub in value.items()}
        elif key in _SCHEMA_MAPS and isinstance(value, dict):
            out[key] = {name: _compact(sub, output=output) for name, sub in value.items()}
        elif key in _SCHEMA_LISTS and isinstance(value, list):
            out[key] = [_compact(sub, output=output) for sub in value]
        elif key in _SCHEMA_ONE and isinstance(value, dict):
            out[key] = _compact(value, output=output)
        else:
            out[key] = value
    if output and "required" in out:
        optional = {name for name, sub in node.get("properties", {}).items() if _is_nullable(sub)}
        out["required"] = [name for name in out["required"] if name not in optional]
        if not out["required"]:
            del out["required"]
    members = out.get("anyOf")
    # Outputs drop None fields, but a null inside a list or map would still be sent.
    if isinstance(members, list) and _NULL in members and (field or not output):
        rest = [m for m in members if m != _NULL]
        del out["anyOf"]
        if len(rest) == 1:
            out = {**rest[0], **out}
        elif rest:
            out["anyOf"] = rest
    return out


def tool_definition(spec: ToolSpec) -> types.Tool:
    annotations = types.ToolAnnotations(
        title=spec.title,
        read_only_hint=spec.read_only,
        destructive_hint=None if spec.read_only else spec.destructive,
        idempotent_hint=None if spec.read_only else spec.idempotent,
        open_world_hint=False,
    )
    return types.Tool(
        name=spec.name,
        description=spec.description,
        input_schema=compact_schema(spec.input_model.model_json_schema(), output=False),
        output_schema=compact_schema(
            spec.output_model.model_json_schema(mode="serialization"),
            output=True,
            keep_null=tuple(getattr(spec.output_model, "keep_null", ())),
        ),
        annotations=annotations,
    )


def ordered_specs() -> list[ToolSpec]:
    """Registered tools in SPEC order (``astmcp.query.TOOL_MODULES``, then source order within a
    module), whatever order their modules happened to be imported in."""
    from astmcp.query import TOOL_MODULES

    rank = {module: i for i, module in enumerate(TOOL_MODULES)}

    def key(spec: ToolSpec) -> tuple[int, int]:
        code = getattr(spec.handler, "__code__", None)
        return rank.get(spec.handler.__module__, len(rank)), code.co_firstlineno if code else 0

    return sorted(registry().values(), key=key)


# -- results --------------------------------------------------------------------------------
def to_call_result(result: ToolResult) -> types.CallToolResult:
    """The canonical dict as structured content, and the compact text (JSON or TOON) once.

    An error carries its SPEC object as text only: TypeScript SDK clients (the MCP
    Inspector, Claude Code) validate ``structuredContent`` against the tool's output
    schema even when ``isError`` is set, and an error object never matches it.
    """
    if result.is_error:
        return types.CallToolResult(content=[types.TextContent(type="text", text=result.text)], is_error=True)
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=result.text)],
        structured_content=result.data,
    )


class _InFlight:
    """Counts running tool calls so SIGTERM can let an apply finish before exiting."""

    def __init__(self) -> None:
        self.count = 0
        self._idle: anyio.Event | None = None

    def enter(self) -> None:
        self.count += 1

    def leave(self) -> None:
        self.count -= 1
        if self.count == 0 and self._idle is not None:
            self._idle.set()
            self._idle = None

    async def wait_idle(self) -> None:
        if self.count == 0:
            return
        if self._idle is None:
            self._idle = anyio.Event()
        await self._idle.wait()


class AstServer:
    """The MCP server object (the SDK's ``Server``) bound to one set of workspaces.

    ``warm_root``: refresh that project's index in a background thread once the
    handshake is done (``notifications/initialized`` or the first request), so the
    warm-up never competes with answering ``initialize``.
    """

    def __init__(self, workspaces: Workspaces, warm_root: Path | None = None) -> None:
        self.workspaces = workspaces
        self.in_flight = _InFlight()
        self.warm_root = warm_root
        self.warm_thread: threading.Thread | None = None
        self._tools: list[types.Tool] | None = None
        self.server: Server[Any] = Server(
            SERVER_NAME,
            version=__version__,
            instructions=instructions(available_tools()),
            on_list_tools=self._list_tools,
            on_call_tool=self._call_tool,
        )
        self.server.add_notification_handler(
            "notifications/initialized", types.NotificationParams, self._ready
        )

    def tools(self) -> list[types.Tool]:
        if self._tools is None:
            self._tools = [tool_definition(spec) for spec in ordered_specs()]
        return self._tools

    def start_warm(self) -> None:
        if self.warm_root is not None and self.warm_thread is None:
            self.warm_thread = _warm(self.workspaces, self.warm_root)
            self.warm_root = None

    async def _ready(self, ctx: ServerRequestContext[Any], params: types.NotificationParams) -> None:
        self.start_warm()

    async def _list_tools(
        self, ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        self.start_warm()
        return types.ListToolsResult(tools=await anyio.to_thread.run_sync(self.tools))

    async def _call_tool(
        self, ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        self.start_warm()
        self.in_flight.enter()
        try:
            # call_tool blocks (SQLite, parsing, file writes) and takes the workspace lock.
            result = await anyio.to_thread.run_sync(
                call_tool, self.workspaces, params.name, dict(params.arguments or {})
            )
        finally:
            self.in_flight.leave()
        return to_call_result(result)


def build_server(root: Path | None = None, warm: bool = False) -> AstServer:
    return AstServer(Workspaces(root), warm_root=root if warm else None)


# -- process --------------------------------------------------------------------------------
def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ast-mcp-server",
        description="MCP stdio server: code graph and reviewed refactoring plans for Python and "
        "TypeScript/JavaScript projects.",
    )
    parser.add_argument("--root", default=None, help="project root (default: current directory)")
    parser.add_argument(
        "--no-warm",
        action="store_true",
        help="do not refresh the index in the background after the handshake (each call refreshes it anyway)",
    )
    parser.add_argument("--version", action="version", version=f"astmcp {__version__}")
    return parser


def _warm(workspaces: Workspaces, root: Path) -> threading.Thread | None:
    """Refresh the index off the handshake path, only for a directory that looks like a project."""
    if not any((root / marker).exists() for marker in PROJECT_MARKERS):
        return None

    def run() -> None:
        try:
            ws = workspaces.get(str(root))
            with ws.lock:
                ws.index.refresh()
        except Exception as exc:  # a failed warm-up is only a slower first call
            log.warning("background index refresh failed: %s: %s", type(exc).__name__, exc)

    thread = threading.Thread(target=run, name="astmcp-warm", daemon=True)
    thread.start()
    return thread


async def _serve(app: AstServer, on_signal: Callable[[], None]) -> None:
    async with anyio.create_task_group() as tg:

        async def watch_signals() -> None:
            with anyio.open_signal_receiver(signal.SIGTERM, signal.SIGINT) as signals:
                async for _ in signals:
                    with anyio.move_on_after(SHUTDOWN_GRACE_S):
                        await app.in_flight.wait_idle()
                        # The last answers are written by the SDK's stdout task; give it a moment.
                        await anyio.sleep(FLUSH_GRACE_S)
                    on_signal()

        tg.start_soon(watch_signals)
        async with stdio_server() as (read_stream, write_stream):
            await app.server.run(read_stream, write_stream, app.server.create_initialization_options())
        tg.cancel_scope.cancel()


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    root = Path(os.path.realpath(os.path.expanduser(args.root or os.getcwd())))
    if not root.is_dir():
        print(f"ast-mcp-server: --root {args.root!r} is not a directory", file=sys.stderr)
        return 2
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="%(name)s: %(message)s")
    app = build_server(root, warm=not args.no_warm)

    def finish(code: int) -> None:
        warm = app.warm_thread
        busy = (warm is not None and warm.is_alive()) or app.in_flight.count > 0
        if not busy:
            app.workspaces.close()
        sys.stderr.flush()
        if busy:
            # A cold index is mid-refresh (or a call outlived the grace period); SQLite (WAL)
            # makes an abrupt exit safe, while waiting could take as long as a whole index.
            os._exit(code)

    def on_signal() -> None:
        # The SDK reads stdin in a worker thread that only returns at EOF, so the
        # event loop cannot finish on its own; exit once no call is running.
        finish(0)
        os._exit(0)

    anyio.run(partial(_serve, app, on_signal))
    finish(0)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
