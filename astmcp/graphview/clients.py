"""Registration snippets for MCP clients, with this install's absolute server path."""

from __future__ import annotations

import json
import shlex
import shutil
import sys
from pathlib import Path

CLIENTS = ("claude", "hermes", "cursor", "codex", "opencode", "vscode")


def server_command() -> str:
    """The absolute path of the ``ast-mcp-server`` installed next to this interpreter."""
    beside = Path(sys.executable).with_name("ast-mcp-server")
    if beside.exists():
        return str(beside.absolute())
    found = shutil.which("ast-mcp-server")
    return str(Path(found).absolute()) if found else str(beside.absolute())


def snippet(client: str, root: str | None) -> str:
    command = server_command()
    args = ["--root", root] if root else []
    if client == "claude":
        return (
            shlex.join(
                [
                    "claude",
                    "mcp",
                    "add",
                    "--scope",
                    "user",
                    "--transport",
                    "stdio",
                    "ast",
                    "--",
                    command,
                    *args,
                ]
            )
            + "\n"
        )
    if client == "hermes":
        parts = ["hermes", "mcp", "add", "ast", "--command", command]
        if args:
            parts += ["--args", *args]
        return shlex.join(parts) + "\n"
    if client == "cursor":  # ~/.cursor/mcp.json or <project>/.cursor/mcp.json
        return json.dumps({"mcpServers": {"ast": {"command": command, "args": args}}}, indent=2) + "\n"
    if client == "vscode":  # <project>/.vscode/mcp.json
        return (
            json.dumps({"servers": {"ast": {"type": "stdio", "command": command, "args": args}}}, indent=2)
            + "\n"
        )
    if client == "opencode":  # opencode.json
        return (
            json.dumps(
                {
                    "$schema": "https://opencode.ai/config.json",
                    "mcp": {"ast": {"type": "local", "command": [command, *args], "enabled": True}},
                },
                indent=2,
            )
            + "\n"
        )
    if client == "codex":  # ~/.codex/config.toml
        return f"[mcp_servers.ast]\ncommand = {json.dumps(command)}\nargs = {json.dumps(args)}\n"
    raise ValueError(f"unknown client {client!r}")
