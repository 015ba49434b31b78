"""Apply a plan exactly as SPEC §4 orders it: hash, lock, replay, expiry, blocked,
per-file safety, freshness, staged atomic replacement, read-back, receipt, rollback."""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from astmcp.errors import (
    AstmcpError,
    Conflict,
    Expired,
    InternalError,
    InvalidInput,
    MutationBlocked,
    NotFound,
    StaleWorkspace,
)
from astmcp.refactor import journal
from astmcp.refactor.plan import FileChange, Plan, format_time
from astmcp.refactor.receipts import Receipt, load_receipt, save_receipt, workspace_lock
from astmcp.refactor.snapshot import changed_files, snapshot
from astmcp.refactor.state import fsync_dir
from astmcp.refactor.textio import sha256_hex
from astmcp.workspace import Workspace

ReplaceFile = Callable[[str, str], None]
StageHook = Callable[[str], None]
# Stages passed to ApplyOptions.stage_hook, in order (only when the apply writes).
STAGES = ("before_staging", "after_staging", "after_first_replacement", "before_receipt")


def _no_hook(stage: str) -> None:
    return None


@dataclass(slots=True)
class ApplyOptions:
    """Seams for tests and front doors; defaults are the real thing."""

    state_dir: Path | None = None
    lock_timeout_s: float = 30.0
    replace_file: ReplaceFile = field(default=os.replace)
    # Called with each name of STAGES as the write reaches it; tests use it to stop (or
    # kill) an apply at an exact point. Never set by the front doors.
    stage_hook: StageHook | None = None


def replay_only(
    ws: Workspace, operation_id: str, plan_hash: str, options: ApplyOptions | None = None
) -> Receipt:
    """Apply of a plan this process no longer holds: a verified replay, or NOT_FOUND."""
    opts = options or ApplyOptions()
    state = opts.state_dir or ws.plans.state_dir
    with workspace_lock(state, ws.root, opts.lock_timeout_s):
        journal.recover(state, ws.root)
        receipt = replay_receipt(ws, state, operation_id, plan_hash)
    if receipt is None:
        raise NotFound(
            f"no prepared plan {operation_id!r}; plans live 15 minutes in the process that made them"
        )
    return receipt


def apply_plan(ws: Workspace, plan: Plan, plan_hash: str, options: ApplyOptions | None = None) -> Receipt:
    opts = options or ApplyOptions()
    state = opts.state_dir or ws.plans.state_dir
    if plan_hash.lower() != plan.plan_hash:
        raise Conflict("plan_hash does not match this operation; review the plan again")
    with workspace_lock(state, ws.root, opts.lock_timeout_s):
        journal.recover(state, ws.root)  # an apply killed while writing is finished first
        replay = replay_receipt(ws, state, plan.operation_id, plan.plan_hash)
        if replay is not None:
            return replay
        if ws.plans.clock() > plan.expires_ts():
            raise Expired(f"plan expired at {plan.expires_at}; prepare it again")
        if plan.blocked:
            raise MutationBlocked(
                f"plan is blocked: {plan.block_reason}", {"block_reason": plan.block_reason}
            )
        for change in plan.files:
            _check_target(ws.root, change.file)
        current = _current(ws, plan)
        originals = {c.file: current.data[c.file] for c in plan.files}
        post = dict(plan.workspace_files)
        post.update({c.file: c.updated_hash for c in plan.files})
        if current.hashes == post and current.modes_match:
            return _record(state, plan, ws.plans.clock(), replay=True)
        if current.hashes != plan.workspace_files or not current.modes_match:
            changed = changed_files(plan.workspace_files, current.hashes)
            changed += [f for f in current.mode_changed if f not in changed]
            raise StaleWorkspace(
                f"{len(changed)} file(s) changed since the plan was prepared; prepare it again",
                {"changed_files": sorted(changed)},
            )
        hook = opts.stage_hook or _no_hook
        entry = journal.begin(state, ws.root, plan)
        hook("before_staging")
        _write_all(ws.root, plan, originals, opts.replace_file, hook, entry)
        hook("before_receipt")
        receipt = _record(state, plan, ws.plans.clock(), replay=False)
        journal.end(entry)
        return receipt


def replay_receipt(ws: Workspace, state: Path, operation_id: str, plan_hash: str) -> Receipt | None:
    """The receipt of an applied operation, verified against the disk; None when never applied."""
    receipt = load_receipt(state, operation_id)
    if receipt is None:
        return None
    if receipt.plan_hash != plan_hash.lower():
        raise Conflict("this operation was applied with a different plan_hash")
    differs = [f for f, h in receipt.updated_hashes.items() if _hash_or_none(ws.root / f) != h]
    if differs:
        raise Conflict(
            "this plan was applied, but its files have changed since",
            {"changed_files": sorted(differs)},
        )
    return Receipt(
        receipt.operation_id,
        receipt.plan_hash,
        receipt.kind,
        receipt.applied_at,
        receipt.updated_hashes,
        True,
    )


def _record(state: Path, plan: Plan, now: float, replay: bool) -> Receipt:
    receipt = Receipt(
        plan.operation_id,
        plan.plan_hash,
        plan.kind,
        format_time(now),
        {c.file: c.updated_hash for c in plan.files},
        replay,
    )
    save_receipt(state, receipt)
    return receipt


def _hash_or_none(path: Path) -> str | None:
    try:
        with open(path, "rb") as handle:
            return hashlib.sha256(handle.read()).hexdigest()
    except OSError:
        return None


def _check_target(root: Path, rel: str) -> None:
    """A target must be a regular file (no symlink) whose real path is inside the root."""
    full = root / rel
    try:
        info = os.lstat(full)
    except FileNotFoundError:
        raise StaleWorkspace(f"{rel} no longer exists", {"changed_files": [rel]}) from None
    if stat.S_ISLNK(info.st_mode) or not stat.S_ISREG(info.st_mode):
        raise InvalidInput(f"{rel} is not a regular file; refused", {"file": rel})
    real = Path(os.path.realpath(full))
    if real != Path(os.path.normpath(full)) or not real.is_relative_to(root):
        raise InvalidInput(f"{rel} resolves outside the project root or through a symlink", {"file": rel})


@dataclass(slots=True)
class _Current:
    hashes: dict[str, str]
    data: dict[str, bytes]
    mode_changed: list[str]

    @property
    def modes_match(self) -> bool:
        return not self.mode_changed


def _current(ws: Workspace, plan: Plan) -> _Current:
    hashes = snapshot(ws.root, ws.db())
    data: dict[str, bytes] = {}
    mode_changed: list[str] = []
    for change in plan.files:
        full = ws.root / change.file
        with open(full, "rb") as handle:
            data[change.file] = handle.read()
        hashes[change.file] = sha256_hex(data[change.file])
        if stat.S_IMODE(os.stat(full).st_mode) != change.mode:
            mode_changed.append(change.file)
    return _Current(hashes, data, mode_changed)


def _stage(target: Path, data: bytes, mode: int, operation_id: str = "") -> str:
    prefix = journal.tmp_prefix(target, operation_id) if operation_id else f".{target.name}."
    fd, tmp = tempfile.mkstemp(prefix=prefix, suffix=journal.TMP_SUFFIX, dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fchmod(handle.fileno(), mode)
            os.fsync(handle.fileno())
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    return tmp


def _write_all(
    root: Path,
    plan: Plan,
    originals: dict[str, bytes],
    replace_file: ReplaceFile,
    hook: StageHook,
    entry: Path,
) -> None:
    staged: dict[str, str] = {}
    replaced: list[FileChange] = []
    try:
        for change in plan.files:
            staged[change.file] = _stage(root / change.file, change.new_bytes, change.mode, plan.operation_id)
        hook("after_staging")
        for change in plan.files:
            replace_file(staged[change.file], str(root / change.file))
            del staged[change.file]  # only now: a refused replacement leaves its temp file to clean up
            replaced.append(change)
            if len(replaced) == 1:
                hook("after_first_replacement")
        bad = [c.file for c in plan.files if _hash_or_none(root / c.file) != c.updated_hash]
        if bad:
            raise Conflict("a written file did not read back as planned", {"files": bad})
        for folder in sorted({(root / c.file).parent for c in plan.files}):
            fsync_dir(folder)
    except BaseException as exc:
        for tmp in staged.values():
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
        journal.end(entry)
        if not replaced and isinstance(exc, OSError):
            raise InternalError(
                f"apply failed before any file was replaced; nothing was changed: {_describe(exc)}",
                {"rollback_complete": True, "restored_files": [], "not_restored_files": []},
            ) from exc
        if not replaced:
            raise
        _raise_after_rollback(root, replaced, originals, exc)


def _describe(exc: BaseException) -> str:
    """An exception for a message: OS errors by their errno text only (their filenames are
    absolute paths)."""
    if isinstance(exc, AstmcpError):
        return exc.message
    if isinstance(exc, OSError) and exc.strerror:
        return f"{type(exc).__name__}: {exc.strerror}"
    return f"{type(exc).__name__}: {exc}"


def _raise_after_rollback(
    root: Path, replaced: list[FileChange], originals: dict[str, bytes], cause: BaseException
) -> None:
    restored: list[str] = []
    left_alone: list[str] = []
    for change in replaced:
        target = root / change.file
        if _hash_or_none(target) != change.updated_hash:
            left_alone.append(change.file)  # someone else wrote it since; never clobber
            continue
        try:
            os.replace(_stage(target, originals[change.file], change.mode), target)
            restored.append(change.file)
        except OSError:
            left_alone.append(change.file)
    complete = not left_alone
    details = {
        "rollback_complete": complete,
        "restored_files": restored,
        "not_restored_files": left_alone,
        "cause": _describe(cause),
    }
    state = (
        "rollback complete: every file is back to its original"
        if complete
        else (f"rollback INCOMPLETE: {len(left_alone)} file(s) left as they are now: {', '.join(left_alone)}")
    )
    error_type = Conflict if isinstance(cause, Conflict) else InternalError
    raise error_type(f"apply failed after writing started; {state}", details) from cause
