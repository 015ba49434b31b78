"""Turn new file texts into a stored plan: hashes, modes, diff, diagnostics, blocking."""

from __future__ import annotations

import difflib
import os
import sqlite3
import stat
from dataclasses import dataclass, replace
from typing import Any

from astmcp.errors import InvalidInput, MutationBlocked
from astmcp.refactor import checks
from astmcp.refactor.plan import FileChange, Plan, format_time
from astmcp.refactor.snapshot import snapshot, workspace_hash
from astmcp.refactor.textio import SourceText, sha256_hex
from astmcp.workspace import Workspace


@dataclass(frozen=True, slots=True)
class LoadedFile:
    """A file read for editing: its bytes, decoded text and mode."""

    path: str
    data: bytes
    source: SourceText
    mode: int


def load_file(ws: Workspace, path: str) -> LoadedFile:
    """Read a project file for editing; non-UTF-8 → ENCODING_ERROR."""
    full = ws.root / path
    info = os.lstat(full)
    if not stat.S_ISREG(info.st_mode):
        raise InvalidInput(f"{path} is not a regular file")
    with open(full, "rb") as handle:
        data = handle.read()
    return LoadedFile(path, data, SourceText.decode(data, path), stat.S_IMODE(info.st_mode))


def unified_diff(path: str, before: str, after: str) -> str:
    old = [line.rstrip("\r\n") + "\n" for line in before.splitlines()]
    new = [line.rstrip("\r\n") + "\n" for line in after.splitlines()]
    return "".join(difflib.unified_diff(old, new, f"a/{path}", f"b/{path}", n=3))


def build_plan(
    ws: Workspace,
    conn: sqlite3.Connection,
    kind: str,
    edits: dict[str, tuple[LoadedFile, str]],
    *,
    allow_new_errors: bool,
    reference_count: int = 0,
    uncertain: list[dict[str, Any]] | None = None,
    uncertain_reason: str | None = None,
    notes: dict[str, str] | None = None,
    same_scopes: frozenset[str] = frozenset(),
) -> Plan:
    """A stored plan for ``edits`` (path -> (file as read, new text)); unchanged files are dropped.

    ``notes`` (path -> text) go before that file's diff header, where patch tools ignore them.
    ``same_scopes``: TS/JS files whose edits only respell member names (their scopes, free
    names and declarations stay as indexed: the diagnostics check does not re-analyze them)."""
    changes: list[FileChange] = []
    originals: dict[str, str] = {}
    post_images: dict[str, str] = {}
    for path in sorted(edits):
        loaded, new_text = edits[path]
        if new_text == loaded.source.text:
            continue
        after_error = checks.syntax_error(path, new_text)
        if after_error is not None and checks.syntax_error(path, loaded.source.text) is None:
            raise MutationBlocked(
                f"the edit would leave {path} unparsable at line {after_error['line']}; nothing prepared",
                {"file": path, "line": after_error["line"], "column": after_error["column"]},
            )
        new_bytes = loaded.source.encode(new_text)
        originals[path] = loaded.source.text
        post_images[path] = new_text
        changes.append(
            FileChange(
                path,
                sha256_hex(loaded.data),
                sha256_hex(new_bytes),
                loaded.mode,
                new_bytes,
                (notes or {}).get(path, "") + unified_diff(path, loaded.source.text, new_text),
            )
        )
    if not changes:
        raise InvalidInput("the operation changes nothing")
    files = snapshot(ws.root, conn)
    for change in changes:
        files[change.file] = change.original_hash
    post = dict(files)
    for change in changes:
        post[change.file] = change.updated_hash
    delta = checks.diagnostics_delta(ws, originals, post_images, same_scopes)
    reasons = []
    if delta["added_errors"] > 0 and not allow_new_errors:
        reasons.append(f"the change adds {delta['added_errors']} error diagnostic(s); see diagnostics.added")
    if uncertain_reason:
        reasons.append(uncertain_reason)
    import uuid

    now = ws.plans.clock()
    plan = Plan(
        operation_id=str(uuid.uuid4()),
        kind=kind,
        project_root=str(ws.root),
        created_at=format_time(now),
        expires_at=format_time(now + ws.plans.ttl_s),
        files=tuple(changes),
        reference_count=reference_count,
        uncertain_references=tuple(uncertain or ()),
        workspace_hash=workspace_hash(files),
        workspace_file_count=len(files),
        diagnostics=delta,
        allow_new_errors=allow_new_errors,
        blocked=bool(reasons),
        block_reason="; ".join(reasons) or None,
        post_workspace_hash=workspace_hash(post),
        workspace_files=files,
    )
    plan = replace(plan, plan_hash=plan.compute_hash())
    ws.plans.put(plan)
    return plan
