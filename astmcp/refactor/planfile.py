"""Plan files for the CLI: ``<state>/plans/<operation_id>.astplan`` (SPEC §4).

A plan file holds the wire plan plus what apply needs (new bytes, modes, the
prepared workspace). Loading re-checks everything the ``plan_hash`` binds, so a
file edited by hand is refused rather than applied.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

from astmcp.errors import InvalidInput, NotFound
from astmcp.refactor.plan import FileChange, Plan
from astmcp.refactor.receipts import check_operation_id
from astmcp.refactor.snapshot import workspace_hash
from astmcp.refactor.state import private_dir, read_private, write_private
from astmcp.refactor.textio import sha256_hex
from astmcp.workspace import Workspace

SCHEMA_VERSION = 1
SUFFIX = ".astplan"


def plan_file_path(state_dir: Path, operation_id: str) -> Path:
    return state_dir / "plans" / f"{check_operation_id(operation_id)}{SUFFIX}"


def write_plan_file(ws: Workspace, operation_id: str, state_dir: Path | None = None) -> Path:
    """Write the stored plan ``operation_id`` of ``ws`` to the state dir; returns its path."""
    plan = ws.plans.get(operation_id)
    if plan is None:
        raise NotFound(f"no prepared plan {operation_id!r} in this process")
    return save_plan_file(plan, state_dir or ws.plans.state_dir)


def save_plan_file(plan: Plan, state: Path) -> Path:
    """Write ``plan`` to ``<state>/plans/<operation_id>.astplan`` (folders 0700, file 0600, atomic)."""
    path = plan_file_path(state, plan.operation_id)
    private_dir(state)
    private_dir(path.parent)
    write_private(path, dump_plan(plan))
    return path


def dump_plan(plan: Plan) -> bytes:
    body = {
        "schema_version": SCHEMA_VERSION,
        "plan": plan.wire(),
        "internal": {
            "post_workspace_hash": plan.post_workspace_hash,
            "workspace_files": plan.workspace_files,
            "files": [
                {
                    "file": c.file,
                    "mode": c.mode,
                    "new_bytes": base64.b64encode(c.new_bytes).decode("ascii"),
                    "diff": c.diff,
                }
                for c in plan.files
            ],
        },
    }
    return json.dumps(body, ensure_ascii=False, sort_keys=True).encode("utf-8")


def read_plan_file(path: Path) -> Plan:
    """Load a plan file, refusing unsafe files (see state.read_private) and tampered content."""
    data = read_private(path, "plan file")
    try:
        return _load(json.loads(data))
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise InvalidInput(f"plan file {path.name!r} is malformed: {type(exc).__name__}") from None


def _load(body: dict[str, Any]) -> Plan:
    if body.get("schema_version") != SCHEMA_VERSION:
        raise InvalidInput(f"plan file schema_version {body.get('schema_version')!r} is not supported")
    wire = body["plan"]
    internal = body["internal"]
    extras = {f["file"]: f for f in internal["files"]}
    changes = []
    for entry in wire["affected_files"]:
        extra = extras[entry["file"]]
        new_bytes = base64.b64decode(extra["new_bytes"], validate=True)
        if sha256_hex(new_bytes) != entry["updated_hash"]:
            raise InvalidInput(
                f"plan file is tampered: new content of {entry['file']} does not match its hash"
            )
        changes.append(
            FileChange(
                entry["file"],
                entry["original_hash"],
                entry["updated_hash"],
                int(extra["mode"]),
                new_bytes,
                str(extra["diff"]),
            )
        )
    files = {str(k): str(v) for k, v in internal["workspace_files"].items()}
    if workspace_hash(files) != wire["workspace_hash"]:
        raise InvalidInput("plan file is tampered: the workspace snapshot does not match workspace_hash")
    plan = Plan(
        operation_id=check_operation_id(wire["operation_id"]),
        kind=wire["kind"],
        project_root=wire["project_root"],
        created_at=wire["created_at"],
        expires_at=wire["expires_at"],
        files=tuple(changes),
        reference_count=int(wire["reference_count"]),
        uncertain_references=tuple(wire["uncertain_references"]),
        workspace_hash=wire["workspace_hash"],
        workspace_file_count=int(wire["workspace_file_count"]),
        diagnostics=wire["diagnostics"],
        allow_new_errors=bool(wire["allow_new_errors"]),
        blocked=bool(wire["blocked"]),
        block_reason=wire["block_reason"],
        post_workspace_hash=internal["post_workspace_hash"],
        workspace_files=files,
        status=wire["status"],
        plan_hash=wire["plan_hash"],
    )
    if plan.compute_hash() != plan.plan_hash:
        raise InvalidInput("plan file is tampered: its content does not match its plan_hash")
    return plan
