"""``ast-mcp-server``: placeholder until the MCP adapter lands (issue 7)."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    print(
        "ast-mcp-server: the MCP stdio server is not built yet; use `ast-tool call` meanwhile.",
        file=sys.stderr,
    )
    return 2
