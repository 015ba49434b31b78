"""One root exception with a stable wire code per subclass (SPEC §5).

Errors are raised anywhere inside astmcp and translated to the wire object
``{"error": {"code", "message", "details"?}}`` at exactly one boundary
(:func:`astmcp.tools.call_tool`).
"""

from __future__ import annotations

from typing import Any, ClassVar


class AstmcpError(Exception):
    """Root of every error astmcp reports to a caller."""

    code: ClassVar[str] = "INTERNAL_ERROR"

    def __init__(self, message: str, details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.details = details

    def to_wire(self) -> dict[str, Any]:
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.details:
            body["details"] = self.details
        return {"error": body}


class InvalidInput(AstmcpError):
    code = "INVALID_INPUT"


class ProjectNotFound(AstmcpError):
    code = "PROJECT_NOT_FOUND"


class NotFound(AstmcpError):
    code = "NOT_FOUND"

    def __init__(self, message: str, suggestions: list[str] | None = None) -> None:
        super().__init__(message, {"suggestions": suggestions or []})


class AmbiguousTarget(AstmcpError):
    code = "AMBIGUOUS_TARGET"

    def __init__(self, message: str, candidates: list[dict[str, Any]]) -> None:
        super().__init__(message, {"candidates": candidates})


class NameCollision(AstmcpError):
    code = "NAME_COLLISION"


class StaleWorkspace(AstmcpError):
    code = "STALE_WORKSPACE"


class MutationBlocked(AstmcpError):
    code = "MUTATION_BLOCKED"


class Conflict(AstmcpError):
    code = "CONFLICT"


class Expired(AstmcpError):
    code = "EXPIRED"


class Locked(AstmcpError):
    code = "LOCKED"


class EncodingError(AstmcpError):
    code = "ENCODING_ERROR"


class OutputLimit(AstmcpError):
    code = "OUTPUT_LIMIT"


class InternalError(AstmcpError):
    code = "INTERNAL_ERROR"


ERROR_CODES: tuple[str, ...] = (
    "INVALID_INPUT",
    "PROJECT_NOT_FOUND",
    "NOT_FOUND",
    "AMBIGUOUS_TARGET",
    "NAME_COLLISION",
    "STALE_WORKSPACE",
    "MUTATION_BLOCKED",
    "CONFLICT",
    "EXPIRED",
    "LOCKED",
    "ENCODING_ERROR",
    "OUTPUT_LIMIT",
    "INTERNAL_ERROR",
)
