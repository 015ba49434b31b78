"""The plan: what a prepare produced, bound to a canonical SHA-256 ``plan_hash`` (SPEC §4)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

PLAN_TTL_S = 15 * 60
PREVIEW_LIMIT = 100_000

# Wire fields that do not take part in the hash (SPEC §4).
_UNHASHED = ("plan_hash", "preview", "preview_truncated", "block_reason")


@dataclass(frozen=True, slots=True)
class FileChange:
    """One affected file: hashes of the bytes before and after, its mode, the new bytes."""

    file: str
    original_hash: str
    updated_hash: str
    mode: int
    new_bytes: bytes
    diff: str

    def wire(self) -> dict[str, Any]:
        return {"file": self.file, "original_hash": self.original_hash, "updated_hash": self.updated_hash}


@dataclass(frozen=True, slots=True)
class Plan:
    operation_id: str
    kind: str  # rename | replace_body
    project_root: str
    created_at: str
    expires_at: str
    files: tuple[FileChange, ...]
    reference_count: int
    uncertain_references: tuple[dict[str, Any], ...]
    workspace_hash: str
    workspace_file_count: int
    diagnostics: dict[str, Any]
    allow_new_errors: bool
    blocked: bool
    block_reason: str | None
    post_workspace_hash: str
    # Prepared-time hash of every file the workspace hash covers (to name changed files).
    workspace_files: dict[str, str]
    status: str = "prepared"
    plan_hash: str = ""

    @property
    def preview(self) -> str | None:
        text = "".join(change.diff for change in self.files)
        return text if len(text) <= PREVIEW_LIMIT else None

    def hashed_fields(self) -> dict[str, Any]:
        """Everything the hash covers: the wire fields but the unhashed ones, plus
        the post-workspace hash and each file's mode."""
        data = {k: v for k, v in self._wire_fields().items() if k not in _UNHASHED}
        data["post_workspace_hash"] = self.post_workspace_hash
        data["file_modes"] = {change.file: change.mode for change in self.files}
        return data

    def compute_hash(self) -> str:
        return canonical_hash(self.hashed_fields())

    def _wire_fields(self) -> dict[str, Any]:
        preview = self.preview
        return {
            "operation_id": self.operation_id,
            "plan_hash": self.plan_hash,
            "kind": self.kind,
            "status": self.status,
            "project_root": self.project_root,
            "created_at": self.created_at,
            "expires_at": self.expires_at,
            "affected_files": [change.wire() for change in self.files],
            "reference_count": self.reference_count,
            "uncertain_references": [dict(u) for u in self.uncertain_references],
            "workspace_hash": self.workspace_hash,
            "workspace_file_count": self.workspace_file_count,
            "diagnostics": self.diagnostics,
            "allow_new_errors": self.allow_new_errors,
            "blocked": self.blocked,
            "block_reason": self.block_reason,
            "preview": preview,
            "preview_truncated": preview is None,
        }

    def wire(self) -> dict[str, Any]:
        """The SPEC §4 fields, as tools return them."""
        return self._wire_fields()

    def expires_ts(self) -> float:
        return parse_time(self.expires_at)

    def change(self, file: str) -> FileChange | None:
        return next((c for c in self.files if c.file == file), None)


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def canonical_hash(value: Any) -> str:
    return hashlib.sha256(canonical_json(value).encode("utf-8")).hexdigest()


def format_time(ts: float) -> str:
    """UTC ISO-8601 with microseconds, so plans made in one second stay distinct."""
    return datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def parse_time(text: str) -> float:
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC).timestamp()
