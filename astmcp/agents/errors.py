"""Setup failures, each with a stable code (the CLI prints them as SPEC §6-style JSON)."""

from __future__ import annotations

from astmcp.errors import AstmcpError


class AgentNotFound(AstmcpError):
    """A requested agent CLI is not on PATH, or does not answer ``--version``."""

    code = "AGENT_NOT_FOUND"


class AgentCliFailed(AstmcpError):
    """An agent CLI call failed or printed something setup cannot read."""

    code = "AGENT_CLI_FAILED"


class VerificationFailed(AstmcpError):
    """The agent could not start or list the server after registration."""

    code = "VERIFICATION_FAILED"


class ServerNotFound(AstmcpError):
    """This install has no ``ast-mcp-server`` executable to register."""

    code = "SERVER_NOT_FOUND"


class Cancelled(AstmcpError):
    """The user answered no at the confirmation prompt."""

    code = "CANCELLED"


class WriteFailed(AstmcpError):
    """The skill file could not be written; the previous file, if any, is intact."""

    code = "WRITE_FAILED"
