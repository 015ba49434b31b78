"""The write tools (SPEC §3): prepare a plan, preview it, apply it."""

from __future__ import annotations

import sqlite3
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, Field

from astmcp.errors import AmbiguousTarget, InvalidInput, NotFound
from astmcp.model import LANGUAGE_BY_SUFFIX, PYTHON
from astmcp.query.common import SymbolRow, SymbolTarget, resolve_symbol
from astmcp.query.parameters import Parameter, rebound_parameter, resolve_target
from astmcp.refactor.apply import apply_plan, replay_only
from astmcp.refactor.plan import Plan
from astmcp.refactor.prepare import build_plan, load_file
from astmcp.refactor.receipts import check_operation_id
from astmcp.tools import ToolInput, ToolOutput, dumps_compact, tool
from astmcp.workspace import Workspace


class AffectedFile(BaseModel):
    file: str
    original_hash: str
    updated_hash: str


class PlanOutput(ToolOutput):
    keep_null: ClassVar[tuple[str, ...]] = ("preview", "block_reason")
    operation_id: str
    plan_hash: str
    kind: str
    status: str
    project_root: str
    created_at: str
    expires_at: str
    affected_files: list[AffectedFile]
    reference_count: int
    uncertain_references: list[dict[str, Any]]
    workspace_hash: str
    workspace_file_count: int
    diagnostics: dict[str, Any]
    allow_new_errors: bool
    blocked: bool
    block_reason: str | None = None
    preview: str | None = None
    preview_truncated: bool
    truncated: bool | None = None
    truncation: str | None = None


def plan_output(plan: Plan, max_bytes: int) -> PlanOutput:
    """The plan on the wire, fitted to ``max_bytes``: first the preview goes (the preview tool
    pages it per file), then the tail of ``uncertain_references`` (``truncated`` says so)."""
    data = plan.wire()
    budget = max_bytes - 512
    if _size(data) > budget:
        data["preview"] = None
        data["preview_truncated"] = True
    uncertain = data["uncertain_references"]
    if _size(data) > budget and uncertain:
        keep = len(uncertain)
        while keep > 0 and _size({**data, "uncertain_references": uncertain[:keep]}) > budget:
            keep = keep * 3 // 4
        data["uncertain_references"] = uncertain[:keep]
        data["truncated"] = True
        data["truncation"] = (
            f"showing {keep} of {len(uncertain)} uncertain references; raise max_bytes for all"
        )
    return PlanOutput.model_validate(data)


def _size(data: dict[str, Any]) -> int:
    return len(dumps_compact(data).encode("utf-8"))


class ReplaceBodyInput(SymbolTarget):
    new_body: str = Field(description="Python: the statement block; TS/JS: the text inside the braces.")
    allow_new_errors: bool = False


@tool("ast_replace_symbol_body", ReplaceBodyInput, PlanOutput, read_only=True)
def replace_symbol_body(ws: Workspace, params: ReplaceBodyInput) -> PlanOutput:
    """Prepare (never write) replacing one function/method/class body; returns a plan with plan_hash,
    diagnostics delta and diff. Signature, decorators, comments and (Python) the docstring are kept.
    Review, then ast_apply_operation."""
    from astmcp.refactor.body_python import replace_python_body  # libcst: imported when used
    from astmcp.refactor.body_ts import replace_ts_body

    conn = ws.db()
    row = resolve_symbol(ws, conn, params)
    loaded = load_file(ws, row.file)
    language = LANGUAGE_BY_SUFFIX.get("." + row.file.rsplit(".", 1)[-1])
    if language == PYTHON:
        new_text = replace_python_body(loaded.source.text, row.name, row.name_line, params.new_body)
    else:
        new_text = replace_ts_body(row.file, loaded.source.text, row.name_line, row.name_col, params.new_body)
    plan = build_plan(
        ws, conn, "replace_body", {row.file: (loaded, new_text)}, allow_new_errors=params.allow_new_errors
    )
    return plan_output(plan, params.max_bytes)


class RenameInput(SymbolTarget):
    new_name: str = Field(description="One identifier of the file's language, not a keyword.")
    allow_new_errors: bool = False
    uncertain: Literal["block", "skip", "include"] = Field(
        "block", description="Same-name hits of unknown receiver: block the plan, skip them, or rename them."
    )


@tool("ast_rename_symbol", RenameInput, PlanOutput, read_only=True)
def rename_symbol(ws: Workspace, params: RenameInput) -> PlanOutput:
    """Prepare (never write) a project-wide rename: every certain/likely reference, imports, re-exports,
    __all__, override families, stubs; a parameter (<file>::<function>.<param>) with its name= call
    keywords. Refuses clashes (NAME_COLLISION) and families reaching outside the project
    (MUTATION_BLOCKED). Review, then ast_apply_operation."""
    from astmcp.refactor.rename import prepare_rename
    from astmcp.refactor.rename_param import prepare_parameter_rename

    conn = ws.db()
    try:
        target = resolve_target(ws, conn, params)
    except AmbiguousTarget as error:
        # a property with its setter, overloads, get/set accessors, a function merged with a
        # namespace: declarations of one path in one file, renamed together whichever is named
        target = _one_name(ws, conn, params, error)
    if not isinstance(target, Parameter):
        # `def log_function(x)` inside the function whose parameter it rebinds: the parameter's name
        target = rebound_parameter(ws, conn, target) or target
    if isinstance(target, Parameter):
        plan = prepare_parameter_rename(
            ws, conn, target, params.new_name, params.uncertain, params.allow_new_errors
        )
    else:
        plan = prepare_rename(ws, conn, target, params.new_name, params.uncertain, params.allow_new_errors)
    return plan_output(plan, params.max_bytes)


def _one_name(
    ws: Workspace, conn: sqlite3.Connection, params: RenameInput, error: AmbiguousTarget
) -> SymbolRow | Parameter:
    candidates = (error.details or {}).get("candidates", [])
    paths = {str(c.get("selector", "")).rpartition("@")[0] for c in candidates}
    if len(paths) != 1 or "" in paths or any(c.get("kind") == "parameter" for c in candidates):
        raise error
    return resolve_target(ws, conn, params.model_copy(update={"selector": str(candidates[0]["selector"])}))


class PreviewInput(ToolInput):
    operation_id: str
    file: str | None = Field(None, description="Only this affected file.")


class FileDiff(BaseModel):
    file: str
    diff: str


class PreviewOutput(ToolOutput):
    operation_id: str
    plan_hash: str
    files: list[FileDiff]
    truncated: bool | None = None
    truncation: str | None = None


def stored_plan(ws: Workspace, operation_id: str) -> Plan:
    plan = ws.plans.get(check_operation_id(operation_id))
    if plan is None:
        raise NotFound(
            f"no prepared plan {operation_id!r}; plans live 15 minutes in the process that made them"
        )
    return plan


@tool("ast_get_operation_preview", PreviewInput, PreviewOutput, list_field="files")
def get_operation_preview(ws: Workspace, params: PreviewInput) -> PreviewOutput:
    """Unified diff (3 lines of context) of a prepared plan, per file."""
    plan = stored_plan(ws, params.operation_id)
    changes = list(plan.files)
    if params.file is not None:
        wanted = params.file.replace("\\", "/").lstrip("./")
        changes = [c for c in changes if c.file == wanted or c.file.endswith("/" + wanted)]
        if not changes:
            raise InvalidInput(
                f"{params.file!r} is not affected by this plan",
                {"affected_files": [c.file for c in plan.files]},
            )
    return PreviewOutput(
        operation_id=plan.operation_id,
        plan_hash=plan.plan_hash,
        files=[FileDiff(file=c.file, diff=c.diff) for c in changes],
    )


class ApplyInput(ToolInput):
    operation_id: str
    plan_hash: str = Field(pattern=r"^[0-9a-fA-F]{64}$", description="The plan_hash you reviewed.")


class ApplyOutput(ToolOutput):
    operation_id: str
    kind: str
    status: Literal["applied"]
    applied_at: str
    affected_files: list[str]
    idempotent_replay: bool


@tool("ast_apply_operation", ApplyInput, ApplyOutput, read_only=False, destructive=True, idempotent=True)
def apply_operation(ws: Workspace, params: ApplyInput) -> ApplyOutput:
    """Apply a reviewed plan: checks plan_hash, locks, refuses stale/expired/blocked plans, writes
    atomically with rollback. Applying the same plan again is an idempotent replay."""
    operation_id = check_operation_id(params.operation_id)
    plan = ws.plans.get(operation_id)
    receipt = (
        apply_plan(ws, plan, params.plan_hash)
        if plan is not None
        else replay_only(ws, operation_id, params.plan_hash)
    )
    return ApplyOutput.model_validate(receipt.wire())
