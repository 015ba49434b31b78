"""Compile and run a pipeline: the allow-list, foreach, limits, ``emit``.

Steps call tools through :func:`astmcp.tools.call_tool`, the same boundary the
MCP server uses, so validation, bounding and error objects are identical.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from astmcp.pipeline.calls import ToolCall, checked, fan_out, result_limit, result_size
from astmcp.pipeline.errors import BatchError
from astmcp.pipeline.model import DEFAULT_LIMITS, BatchLimits, Document
from astmcp.pipeline.refs import Item, Ref, compile_ref, compile_value, resolve
from astmcp.tools import call_tool, registry
from astmcp.workspace import Workspaces

READ_TOOLS = (
    "ast_list_files",
    "ast_get_outline",
    "ast_get_symbol_source",
    "ast_search_symbols",
    "ast_find_references",
    "ast_get_diagnostics",
    "ast_inspect_graph",
)
PREPARE_TOOLS = ("ast_rename_symbol", "ast_replace_symbol_body")
ALLOWED_TOOLS = READ_TOOLS + PREPARE_TOOLS


@dataclass(frozen=True, slots=True)
class CompiledStep:
    id: str
    tool: str
    input: Any  # template
    foreach: Ref | None
    prepare: bool


@dataclass(frozen=True, slots=True)
class Pipeline:
    document: Document
    steps: tuple[CompiledStep, ...]
    emit: Any  # template, or None without emit
    keep: frozenset[str]  # step ids whose results are needed later

    @property
    def prepares(self) -> bool:
        return any(step.prepare for step in self.steps)


def compile_pipeline(doc: Document) -> Pipeline:
    """Every check that needs no tool registry: allow-list, prepare rules, references."""
    ids = [step.id for step in doc.steps]
    compiled: list[CompiledStep] = []
    keep: set[str] = set()
    for position, step in enumerate(doc.steps):
        if step.tool not in ALLOWED_TOOLS:
            raise BatchError(
                "FORBIDDEN_TOOL",
                f"tool {step.tool!r} cannot run in a pipeline (read tools and the two prepare tools only;"
                " preview and apply are separate, reviewed steps)",
                step_id=step.id,
                details={"allowed": list(ALLOWED_TOOLS)},
            )
        prepare = step.tool in PREPARE_TOOLS
        if prepare and any(s.tool in PREPARE_TOOLS for s in doc.steps[:position]):
            raise BatchError("INVALID_BATCH", "a pipeline holds at most one prepare step", step_id=step.id)
        if prepare and position != len(doc.steps) - 1:
            raise BatchError("INVALID_BATCH", "the prepare step must be the last step", step_id=step.id)
        if prepare and step.foreach is not None:
            raise BatchError("INVALID_BATCH", "a prepare step cannot use foreach", step_id=step.id)
        earlier = ids[:position]
        try:
            foreach = (
                compile_ref(step.foreach.ref, earlier=earlier, all_ids=ids, refs=keep)
                if step.foreach is not None
                else None
            )
            template = compile_value(
                step.input, earlier=earlier, all_ids=ids, in_foreach=foreach is not None, refs=keep
            )
        except BatchError as error:
            raise error.with_step(step.id) from None
        compiled.append(CompiledStep(step.id, step.tool, template, foreach, prepare))
    emit = None
    if doc.has_emit:
        emit = compile_value(doc.emit, earlier=ids, all_ids=ids, in_foreach=False, refs=keep)
    else:
        keep.add(ids[-1])
    return Pipeline(doc, tuple(compiled), emit, frozenset(keep))


def check_available(pipeline: Pipeline) -> None:
    """Tools exist in this install, and literal input keys are ones the tool takes."""
    tools = registry()
    for step in pipeline.steps:
        spec = tools.get(step.tool)
        if spec is None:
            raise BatchError(
                "INVALID_BATCH",
                f"tool {step.tool!r} is not available in this installation",
                step_id=step.id,
                details={"available": [t for t in ALLOWED_TOOLS if t in tools]},
            )
        known = set(spec.input_model.model_fields)
        whole = isinstance(step.input, Ref | Item)  # the input is one reference, checked by the tool
        unknown = [] if whole else sorted(set(step.input) - known)
        if unknown:
            raise BatchError(
                "INVALID_BATCH",
                f"{step.tool} takes no input {unknown[0]!r}",
                step_id=step.id,
                details={"unknown": unknown, "accepted": sorted(known)},
            )


@dataclass
class _State:
    results: dict[str, Any] = field(default_factory=dict)
    invocations: int = 0
    retained: int = 0


def run_pipeline(
    pipeline: Pipeline,
    base_dir: Path,
    *,
    limits: BatchLimits = DEFAULT_LIMITS,
    call: ToolCall = call_tool,
) -> dict[str, Any]:
    """Run every step and return the success object (SPEC §6); raises BatchError."""
    started = time.perf_counter()
    root = _absolute(pipeline.document.project_root, base_dir)
    workspaces = Workspaces(Path(root))
    state = _State()
    extra: dict[str, Any] = {}
    try:
        for step in pipeline.steps:
            try:
                value, inputs = _run_step(step, pipeline, state, workspaces, root, base_dir, limits, call)
                if step.prepare:
                    extra = _write_plan(workspaces, inputs[0].get("project_root"), value)
            except BatchError as error:
                raise error.with_step(step.id) from None
        result = resolve(pipeline.emit, state.results) if pipeline.document.has_emit else value
    finally:
        workspaces.close()
    out: dict[str, Any] = {
        "version": 1,
        "status": "ok",
        "duration_ms": round((time.perf_counter() - started) * 1000),
        "step_count": len(pipeline.steps),
        "invocation_count": state.invocations,
        "result": result,
    }
    out.update(extra)
    return out


def _absolute(path: str, base_dir: Path) -> str:
    expanded = os.path.expanduser(path)
    return expanded if os.path.isabs(expanded) else os.path.normpath(base_dir / expanded)


def _run_step(
    step: CompiledStep,
    pipeline: Pipeline,
    state: _State,
    workspaces: Workspaces,
    root: str,
    base_dir: Path,
    limits: BatchLimits,
    call: ToolCall,
) -> tuple[Any, list[dict[str, Any]]]:
    if step.foreach is None:
        inputs = [_input(resolve(step.input, state.results), None)]
    else:
        items = resolve(step.foreach, state.results)
        if not isinstance(items, list):
            raise BatchError(
                "INVALID_REFERENCE",
                f"foreach {step.foreach.text!r} is a {type(items).__name__}, not an array",
            )
        if len(items) > limits.foreach_items:
            raise BatchError(
                "FOREACH_LIMIT",
                f"foreach has {len(items)} items; at most {limits.foreach_items}",
                details={"items": len(items), "limit": limits.foreach_items},
            )
        # Every input is resolved before the first call: a bad item fails the step untouched.
        inputs = [_input(resolve(step.input, state.results, item, i), i) for i, item in enumerate(items)]
    if state.invocations + len(inputs) > limits.invocations:
        raise BatchError(
            "INVOCATION_LIMIT",
            f"this step would bring the pipeline to {state.invocations + len(inputs)} tool calls;"
            f" at most {limits.invocations}",
            details={"invocations": state.invocations + len(inputs), "limit": limits.invocations},
        )
    for arguments in inputs:
        _place_root(arguments, root, base_dir)
    state.invocations += len(inputs)
    value: Any
    if step.foreach is None:
        value = checked(call(workspaces, step.tool, inputs[0]), step.tool, None)
        size = result_size(value)
        if size > limits.result_bytes:
            raise result_limit(size, limits)
    else:
        concurrency = pipeline.document.limits.concurrency
        value, size = fan_out(step.tool, inputs, workspaces, concurrency, call, limits)
    if step.id in pipeline.keep:
        state.retained += size
        if state.retained > limits.retained_bytes:
            raise BatchError(
                "CONTEXT_LIMIT",
                f"results kept for later steps reach {state.retained} bytes; at most {limits.retained_bytes}",
                details={"bytes": state.retained, "limit": limits.retained_bytes},
            )
        state.results[step.id] = value
    return value, inputs


def _input(value: Any, index: int | None) -> dict[str, Any]:
    """A resolved input: an object of its own (a whole-input reference is copied, never shared)."""
    if not isinstance(value, dict):
        where = "" if index is None else f" for item {index}"
        details = {} if index is None else {"item_index": index}
        raise BatchError(
            "INVALID_REFERENCE",
            f"the step's input resolved to {type(value).__name__}{where}; a tool input is an object",
            details=details,
        )
    return dict(value)


def _place_root(arguments: Any, root: str, base_dir: Path) -> None:
    if not isinstance(arguments, dict):
        return
    given = arguments.get("project_root")
    if given is None:
        arguments["project_root"] = root
    elif isinstance(given, str) and given:
        arguments["project_root"] = _absolute(given, base_dir)


def _write_plan(workspaces: Workspaces, project_root: str | None, plan: Any) -> dict[str, Any]:
    """Persist the prepared plan so ``ast-tool apply`` can apply it in a later process."""
    from astmcp.errors import AstmcpError

    try:
        from astmcp.refactor.planfile import write_plan_file
    except ImportError:
        raise BatchError(
            "TOOL_ERROR", "plan files are not available in this installation (astmcp.refactor.planfile)"
        ) from None
    operation_id = plan.get("operation_id") if isinstance(plan, dict) else None
    if not isinstance(operation_id, str):
        raise BatchError("TOOL_ERROR", "the prepare step returned no operation_id")
    try:
        ws = workspaces.get(project_root)
        path = write_plan_file(ws, operation_id)
    except AstmcpError as error:
        raise BatchError(
            "TOOL_ERROR", f"writing the plan file failed: {error.message}", details=error.to_wire()
        ) from None
    return {"operation_id": operation_id, "plan_hash": plan.get("plan_hash"), "plan_file": str(path)}
