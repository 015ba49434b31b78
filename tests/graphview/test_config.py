"""`ast-tool config CLIENT`: snippets in each client's documented format."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

AST_TOOL = str(Path(sys.executable).with_name("ast-tool"))
SERVER = str(Path(sys.executable).with_name("ast-mcp-server").absolute())


def config(client: str, *extra: str) -> str:
    done = subprocess.run([AST_TOOL, "config", client, *extra], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_claude_snippet_is_a_claude_mcp_add_command_with_the_absolute_server(tmp_path: Path) -> None:
    argv = shlex.split(config("claude", "--root", str(tmp_path)))
    assert argv[:8] == ["claude", "mcp", "add", "--scope", "user", "--transport", "stdio", "ast"]
    assert argv[8] == "--"
    assert argv[9:] == [SERVER, "--root", str(tmp_path.resolve())]


def test_hermes_snippet_uses_command_and_args() -> None:
    argv = shlex.split(config("hermes"))
    assert argv[:4] == ["hermes", "mcp", "add", "ast"]
    assert argv[argv.index("--command") + 1] == SERVER


def test_cursor_snippet_is_mcp_servers_json() -> None:
    data = json.loads(config("cursor"))
    assert data == {"mcpServers": {"ast": {"command": SERVER, "args": []}}}


def test_vscode_snippet_is_servers_json_with_stdio_type(tmp_path: Path) -> None:
    data = json.loads(config("vscode", "--root", str(tmp_path)))
    assert data == {
        "servers": {"ast": {"type": "stdio", "command": SERVER, "args": ["--root", str(tmp_path.resolve())]}}
    }


def test_opencode_snippet_is_a_local_mcp_with_command_array() -> None:
    data = json.loads(config("opencode"))
    assert data["mcp"]["ast"] == {"type": "local", "command": [SERVER], "enabled": True}
    assert data["$schema"] == "https://opencode.ai/config.json"


def test_codex_snippet_is_an_mcp_servers_toml_table(tmp_path: Path) -> None:
    data = tomllib.loads(config("codex", "--root", str(tmp_path)))
    assert data == {"mcp_servers": {"ast": {"command": SERVER, "args": ["--root", str(tmp_path.resolve())]}}}


def test_unknown_client_is_a_usage_error() -> None:
    done = subprocess.run([AST_TOOL, "config", "emacs"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
