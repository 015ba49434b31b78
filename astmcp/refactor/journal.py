"""The apply journal: what an apply was writing, so a process killed mid-write is finished by the next one.

Several ``os.replace`` calls are not one atomic step: a process killed (SIGKILL,
power loss) between two of them leaves some targets new and others old, and no
``except`` runs. Before staging, apply writes ``<state>/journals/<sha256(root)>.json``
naming the operation and each target's original and updated hash; staged files
are named ``.<name>.<operation_id>.<random>.astmcp-tmp`` next to their targets.
The journal is removed once the receipt is saved or the failure was rolled back.

:func:`recover` runs under the workspace lock at the start of every apply. When
a journal is left over: if any target already holds its updated bytes (writing
had started), every target still holding its original bytes is rolled forward
from its staged file (fsynced before the first replacement), so the workspace is
the plan's post-image and the next apply of that plan records its receipt as a
replay; otherwise nothing was replaced and the staged files are discarded. A
target that holds neither (edited since) is left alone. Staged files of the
operation are removed either way.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
from pathlib import Path
from typing import Any

from astmcp.errors import InvalidInput
from astmcp.refactor.plan import Plan
from astmcp.refactor.state import fsync_dir, private_dir, read_private, write_private

log = logging.getLogger("astmcp")

TMP_SUFFIX = ".astmcp-tmp"


def journal_path(state_dir: Path, root: Path) -> Path:
    name = hashlib.sha256(str(root).encode("utf-8")).hexdigest()
    return state_dir / "journals" / f"{name}.json"


def tmp_prefix(target: Path, operation_id: str) -> str:
    return f".{target.name}.{operation_id}."


def begin(state_dir: Path, root: Path, plan: Plan) -> Path:
    body = {
        "schema_version": 1,
        "operation_id": plan.operation_id,
        "plan_hash": plan.plan_hash,
        "files": [
            {"file": c.file, "original_hash": c.original_hash, "updated_hash": c.updated_hash}
            for c in plan.files
        ],
    }
    path = journal_path(state_dir, root)
    private_dir(private_dir(state_dir) / "journals")
    write_private(path, json.dumps(body, sort_keys=True).encode("utf-8"))
    return path


def end(path: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)
    fsync_dir(path.parent)


def recover(state_dir: Path, root: Path) -> dict[str, Any] | None:
    """Finish or discard an apply that was killed while writing; None when there was none."""
    path = journal_path(state_dir, root)
    if not path.exists() and not path.is_symlink():
        return None
    try:
        body = json.loads(read_private(path, "apply journal"))
        operation_id = str(body["operation_id"])
        entries = [(str(e["file"]), str(e["original_hash"]), str(e["updated_hash"])) for e in body["files"]]
    except (ValueError, KeyError, TypeError):
        raise InvalidInput("the apply journal of this project is damaged; refused") from None
    current = {rel: _hash_or_none(root / rel) for rel, _, _ in entries}
    started = any(current[rel] == updated for rel, _, updated in entries)
    rolled_forward: list[str] = []
    left_alone: list[str] = []
    for rel, original, updated in entries:
        target = root / rel
        staged = _staged_files(target, operation_id)
        if started and current[rel] == original:
            ready = next((s for s in staged if _hash_or_none(s) == updated), None)
            if ready is not None and not target.is_symlink():
                os.replace(ready, target)
                staged.remove(ready)
                rolled_forward.append(rel)
            else:
                left_alone.append(rel)
        elif started and current[rel] != updated:
            left_alone.append(rel)
        for leftover in staged:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(leftover)
    for folder in sorted({(root / rel).parent for rel, _, _ in entries}):
        with contextlib.suppress(OSError):
            fsync_dir(folder)
    end(path)
    outcome = {
        "operation_id": operation_id,
        "rolled_forward": started,
        "rolled_forward_files": rolled_forward,
        "left_alone_files": left_alone,
    }
    # INFO, not WARNING: `ast-tool apply` owes stderr exactly one JSON value on failure.
    log.info("finished an interrupted apply: %s", json.dumps(outcome))
    return outcome


def _staged_files(target: Path, operation_id: str) -> list[Path]:
    prefix = tmp_prefix(target, operation_id)
    try:
        names = os.listdir(target.parent)
    except OSError:
        return []
    return [target.parent / n for n in sorted(names) if n.startswith(prefix) and n.endswith(TMP_SUFFIX)]


def _hash_or_none(path: Path) -> str | None:
    try:
        with open(path, "rb") as handle:
            return hashlib.sha256(handle.read()).hexdigest()
    except OSError:
        return None
