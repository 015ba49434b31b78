"""Tool invocations of one step: error translation, fan-out for foreach, result size.

Each invocation goes through the caller-supplied ``call`` (``astmcp.tools.call_tool``
in production), so the MCP server and the runner share one boundary.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import Any

from astmcp.pipeline.errors import BatchError
from astmcp.pipeline.model import BatchLimits
from astmcp.tools import ToolResult, dumps_compact
from astmcp.workspace import Workspaces

ToolCall = Callable[[Workspaces, str, dict[str, Any]], ToolResult]


def checked(result: ToolResult, tool: str, index: int | None) -> dict[str, Any]:
    """The result data, or TOOL_ERROR carrying the tool's own error object."""
    if not result.is_error:
        return result.data
    error = result.data.get("error", {})
    details: dict[str, Any] = {"tool": tool, "error": error}
    where = ""
    if index is not None:
        details["item_index"] = index
        where = f" (item {index})"
    raise BatchError(
        "TOOL_ERROR", f"{tool}{where} failed: {error.get('code')}: {error.get('message')}", details=details
    )


def result_size(value: Any) -> int:
    return len(dumps_compact(value).encode("utf-8"))


def result_limit(size: int, limits: BatchLimits, at_least: bool = False) -> BatchError:
    return BatchError(
        "RESULT_LIMIT",
        f"the step's result is {'at least ' if at_least else ''}{size} bytes; at most {limits.result_bytes}",
        details={"bytes": size, "limit": limits.result_bytes},
    )


def fan_out(
    tool: str,
    inputs: list[dict[str, Any]],
    workspaces: Workspaces,
    concurrency: int,
    call: ToolCall,
    limits: BatchLimits,
) -> tuple[list[dict[str, Any]], int]:
    """Run every input, at most ``concurrency`` at once; (results in input order, serialized size).

    Fail-fast: after the first error nothing new starts; calls already running
    finish, and the error of the lowest failing item is reported. The result
    size is checked as results arrive, so an oversized step stops early.
    """
    outputs: list[dict[str, Any]] = [{} for _ in inputs]
    failures: dict[int, BatchError] = {}
    size = 2 + max(len(inputs) - 1, 0)  # brackets and commas of the array

    def one(index: int) -> tuple[dict[str, Any], int]:
        data = checked(call(workspaces, tool, inputs[index]), tool, index)
        return data, result_size(data)

    with ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="astmcp-step") as pool:
        running: dict[Future[tuple[dict[str, Any], int]], int] = {}
        queue = iter(range(len(inputs)))
        too_big: BatchError | None = None
        while True:
            while not failures and too_big is None and len(running) < concurrency:
                index = next(queue, None)
                if index is None:
                    break
                running[pool.submit(one, index)] = index
            if not running:
                break
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                index = running.pop(future)
                error = future.exception()
                if isinstance(error, BatchError):
                    failures[index] = error
                elif error is not None:
                    raise error
                else:
                    outputs[index], item_size = future.result()
                    size += item_size
                    if size > limits.result_bytes and too_big is None:
                        too_big = result_limit(size, limits, at_least=True)
    if failures:
        raise failures[min(failures)]
    if too_big is not None:
        raise too_big
    return outputs, size
