"""Receipts of applied plans, kept in ``<state>/receipts`` so a replay works across processes."""

from __future__ import annotations

import hashlib
import json
import re
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from astmcp.errors import InvalidInput, Locked
from astmcp.refactor.state import private_dir, read_private, write_private

_UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


def check_operation_id(operation_id: str) -> str:
    if not _UUID.match(operation_id):
        raise InvalidInput("operation_id must be the uuid4 a prepare returned")
    return operation_id


@dataclass(frozen=True, slots=True)
class Receipt:
    operation_id: str
    plan_hash: str
    kind: str
    applied_at: str
    updated_hashes: dict[str, str]  # file -> SHA-256 of the bytes written
    idempotent_replay: bool = False

    def wire(self) -> dict[str, Any]:
        return {
            "operation_id": self.operation_id,
            "kind": self.kind,
            "status": "applied",
            "applied_at": self.applied_at,
            "affected_files": sorted(self.updated_hashes),
            "idempotent_replay": self.idempotent_replay,
        }


def receipt_path(state_dir: Path, operation_id: str) -> Path:
    return state_dir / "receipts" / f"{check_operation_id(operation_id)}.json"


def save_receipt(state_dir: Path, receipt: Receipt) -> None:
    body = {
        "schema_version": 1,
        "operation_id": receipt.operation_id,
        "plan_hash": receipt.plan_hash,
        "kind": receipt.kind,
        "applied_at": receipt.applied_at,
        "updated_hashes": receipt.updated_hashes,
    }
    private_dir(state_dir)
    write_private(receipt_path(state_dir, receipt.operation_id), json.dumps(body, sort_keys=True).encode())


def load_receipt(state_dir: Path, operation_id: str) -> Receipt | None:
    path = receipt_path(state_dir, operation_id)
    if not path.exists() and not path.is_symlink():
        return None
    try:
        body = json.loads(read_private(path, "receipt"))
        return Receipt(
            body["operation_id"],
            body["plan_hash"],
            body["kind"],
            body["applied_at"],
            dict(body["updated_hashes"]),
        )
    except (ValueError, KeyError, TypeError):
        raise InvalidInput(f"receipt {path.name!r} is damaged; refused") from None


def workspace_lock(state_dir: Path, root: Path, timeout_s: float) -> AbstractContextManager[Any]:
    """The cross-process lock of one project: ``<state>/locks/<sha256(root)>.lock``."""
    import portalocker  # imported on use: it costs more than the rest of this module

    folder = private_dir(private_dir(state_dir) / "locks")
    name = hashlib.sha256(str(root).encode("utf-8")).hexdigest()
    return _Held(portalocker.Lock(str(folder / f"{name}.lock"), mode="a", timeout=timeout_s))


class _Held(AbstractContextManager[Any]):
    def __init__(self, lock: Any) -> None:
        self._lock = lock

    def __enter__(self) -> Any:
        import portalocker

        try:
            return self._lock.acquire()
        except portalocker.LockException:
            raise Locked("another apply holds this project's lock; try again") from None

    def __exit__(self, *exc: object) -> None:
        self._lock.release()
