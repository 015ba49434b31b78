"""Batch runner failures (SPEC §6): one exception, a code, the step it happened in.

Tool errors stay tool errors (``astmcp.errors``); a failing step is reported as
``TOOL_ERROR`` with the tool's own error object in ``details``.
"""

from __future__ import annotations

from typing import Any

BATCH_CODES: tuple[str, ...] = (
    "USAGE",
    "INPUT_LIMIT",
    "INVALID_JSON",
    "INVALID_BATCH",
    "INVALID_REFERENCE",
    "MISSING_REFERENCE",
    "INVALID_ITEM_REFERENCE",
    "FORBIDDEN_TOOL",
    "FOREACH_LIMIT",
    "INVOCATION_LIMIT",
    "RESULT_LIMIT",
    "CONTEXT_LIMIT",
    "OUTPUT_LIMIT",
    "ENCODING_ERROR",
    "TOOL_ERROR",
    "APPLY_ERROR",
)


class BatchError(Exception):
    """A pipeline failure with a stable SPEC §6 code."""

    def __init__(
        self,
        code: str,
        message: str,
        *,
        step_id: str | None = None,
        details: dict[str, Any] | None = None,
    ) -> None:
        assert code in BATCH_CODES or code == "INTERNAL_ERROR", code
        super().__init__(message)
        self.code = code
        self.message = message
        self.step_id = step_id
        self.details = details

    def with_step(self, step_id: str) -> BatchError:
        if self.step_id is None:
            self.step_id = step_id
        return self

    def to_wire(self, command: str) -> dict[str, Any]:
        body: dict[str, Any] = {"status": "error", "command": command, "code": self.code}
        if self.step_id is not None:
            body["step_id"] = self.step_id
        body["message"] = self.message
        if self.details:
            body["details"] = self.details
        return body
