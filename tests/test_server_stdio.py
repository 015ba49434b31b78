"""The installed ``ast-mcp-server`` over real stdio: the SDK client, raw JSON-RPC, the MCP Inspector CLI."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from test_server import EXAMPLES, LISTED, TOOL_NAMES, compact, example_call, make_project, text_of

from astmcp import __version__
from astmcp.tools import registry

SERVER = Path(sys.executable).with_name("ast-mcp-server")
INSPECTOR_VERSION = "2.12.0"
INSPECTOR_HOME = Path(os.path.expanduser("~/.cache/astmcp-tests/inspector"))
HANG_GUARD_S = 60  # a hung server fails the test instead of blocking the run; not a timing assertion


@pytest.fixture
def state_env(tmp_path: Path) -> dict[str, str]:
    """Plan files, receipts and locks of spawned servers go to a throwaway state dir."""
    state = tmp_path / "state"
    return {"AST_TOOL_STATE_DIR": str(state)}


@pytest.fixture(autouse=True)
def _state_dir_here(monkeypatch: pytest.MonkeyPatch, state_env: dict[str, str]) -> None:
    for key, value in state_env.items():
        monkeypatch.setenv(key, value)


def params(root: Path, env: dict[str, str]) -> StdioServerParameters:
    return StdioServerParameters(command=str(SERVER), args=["--root", str(root)], env=env)


@contextmanager
def spawn(root: Path, *extra: str) -> Iterator[subprocess.Popen[str]]:
    """The server as a child process; its pipes are closed and it is reaped afterwards."""
    with subprocess.Popen(
        [str(SERVER), "--root", str(root), *extra],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
    ) as proc:
        try:
            yield proc
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.wait(HANG_GUARD_S)


class Wire:
    """Raw newline-delimited JSON-RPC with a spawned server."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.proc = proc
        self.next_id = 0

    def send(self, method: str, params: dict[str, Any] | None = None, notify: bool = False) -> None:
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        if not notify:
            self.next_id += 1
            message["id"] = self.next_id
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()

    def line(self) -> str:
        assert self.proc.stdout is not None
        return self.proc.stdout.readline()

    def request(self, method: str, params: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
        self.send(method, params)
        raw = self.line()
        message: dict[str, Any] = json.loads(raw)
        assert message["id"] == self.next_id, raw
        return raw, message

    def handshake(self) -> dict[str, Any]:
        _, message = self.request(
            "initialize",
            {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "t", "version": "0"},
            },
        )
        self.send("notifications/initialized", notify=True)
        result: dict[str, Any] = message["result"]
        return result


# -- the SDK client over stdio -------------------------------------------------------------------
def test_the_installed_server_lists_and_calls_every_tool_over_stdio(
    tmp_path: Path, state_env: dict[str, str]
) -> None:
    root = make_project(tmp_path / "proj")
    order = [n for n in TOOL_NAMES if n != "ast_apply_operation"] + [
        n for n in TOOL_NAMES if n == "ast_apply_operation"
    ]

    async def main() -> tuple[list[str], dict[str, Any]]:
        async with Client(params(root, state_env)) as client:
            listed = [t.name for t in (await client.list_tools()).tools]
            results = {name: await example_call(client, name) for name in order}
            return listed, results

    listed, results = anyio.run(main)
    assert listed == LISTED
    for name, result in results.items():
        text = text_of(result)
        assert not result.is_error, f"{name}: {text}"
        assert text == compact(result.structured_content)


def test_prepare_preview_apply_round_trip_over_stdio(tmp_path: Path, state_env: dict[str, str]) -> None:
    needed = {"ast_rename_symbol", "ast_get_operation_preview", "ast_apply_operation"}
    if not needed <= set(registry()):
        pytest.skip("the refactor tools are not registered yet")
    root = make_project(tmp_path / "proj")

    async def main() -> tuple[Any, Any, Any, Any]:
        async with Client(params(root, state_env)) as client:
            plan = (
                await client.call_tool("ast_rename_symbol", EXAMPLES["ast_rename_symbol"])
            ).structured_content
            preview = (
                await client.call_tool("ast_get_operation_preview", {"operation_id": plan["operation_id"]})
            ).structured_content
            ticket = {"operation_id": plan["operation_id"], "plan_hash": plan["plan_hash"]}
            applied = (await client.call_tool("ast_apply_operation", ticket)).structured_content
            replay = (await client.call_tool("ast_apply_operation", ticket)).structured_content
            return plan, preview, applied, replay

    plan, preview, applied, replay = anyio.run(main)
    assert plan["status"] == "prepared" and not plan["blocked"]
    assert preview["plan_hash"] == plan["plan_hash"]
    diffs = "".join(f["diff"] for f in preview["files"])
    assert "-def helper(x):" in diffs and "+def assist(x):" in diffs
    assert applied["status"] == "applied" and applied["idempotent_replay"] is False
    assert replay["idempotent_replay"] is True
    assert "def assist(x):" in (root / "pkg" / "store.py").read_text(encoding="utf-8")
    assert applied["affected_files"] == [f["file"] for f in plan["affected_files"]]


# -- raw JSON-RPC ---------------------------------------------------------------------------------
def test_every_line_on_stdout_is_one_compact_json_message(tmp_path: Path) -> None:
    root = make_project(tmp_path / "proj")
    with spawn(root) as proc:
        wire = Wire(proc)
        init = wire.handshake()
        raw_list, listed = wire.request("tools/list")
        raw_call, called = wire.request(
            "tools/call", {"name": "ast_search_symbols", "arguments": {"query": "helper"}}
        )
    assert init["serverInfo"] == {"name": "astmcp", "version": __version__}
    assert "Step aside" in init["instructions"]
    for raw in (raw_list, raw_call):
        assert raw.endswith("\n") and raw.count("\n") == 1
        assert raw == compact(json.loads(raw)) + "\n"  # no indentation, no spaces after separators
    assert [t["name"] for t in listed["result"]["tools"]] == LISTED
    result = called["result"]
    text = result["content"][0]["text"]
    assert len(result["content"]) == 1
    assert text == compact(result["structuredContent"])
    assert "\n" not in text


def test_the_server_exits_cleanly_at_end_of_input(tmp_path: Path) -> None:
    with spawn(make_project(tmp_path / "proj")) as proc:
        wire = Wire(proc)
        wire.handshake()
        wire.request("tools/call", {"name": "ast_list_files", "arguments": {}})
        assert proc.stdin is not None and proc.stderr is not None
        proc.stdin.close()
        assert proc.wait(HANG_GUARD_S) == 0
        assert "Traceback" not in proc.stderr.read()


def test_the_server_exits_cleanly_on_sigterm(tmp_path: Path) -> None:
    with spawn(make_project(tmp_path / "proj")) as proc:
        wire = Wire(proc)
        wire.handshake()
        _, listed = wire.request("tools/call", {"name": "ast_list_files", "arguments": {}})
        assert listed["result"]["isError"] is False
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(HANG_GUARD_S) == 0
        assert proc.stderr is not None
        assert "Traceback" not in proc.stderr.read()


def test_the_handshake_does_not_wait_for_the_index(tmp_path: Path) -> None:
    """With warm-up off nothing is indexed until the first tool call."""
    root = make_project(tmp_path / "proj")
    with spawn(root, "--no-warm") as proc:
        Wire(proc).handshake()
        assert not (root / ".astmcp").exists()


def test_version_and_help_and_a_missing_root(tmp_path: Path) -> None:
    version = subprocess.run([str(SERVER), "--version"], capture_output=True, text=True, check=True)
    assert version.stdout.strip() == f"astmcp {__version__}"
    helped = subprocess.run([str(SERVER), "--help"], capture_output=True, text=True, check=True)
    assert "--root" in helped.stdout
    missing = subprocess.run(
        [str(SERVER), "--root", str(tmp_path / "nope")],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
    )
    assert missing.returncode == 2
    assert "not a directory" in missing.stderr


# -- a third-party client: the MCP Inspector CLI -----------------------------------------------
def _inspector() -> Path:
    npm = shutil.which("npm")
    if npm is None:
        if os.environ.get("CI") == "true":
            pytest.fail("npm is required in CI for the MCP Inspector test")
        pytest.skip("npm is not available")
    exe = INSPECTOR_HOME / "node_modules" / ".bin" / "mcp-inspector"
    if not exe.exists():
        INSPECTOR_HOME.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [
                npm,
                "install",
                "--prefix",
                str(INSPECTOR_HOME),
                "--no-audit",
                "--no-fund",
                f"@modelcontextprotocol/inspector@{INSPECTOR_VERSION}",
            ],
            check=True,
            capture_output=True,
            timeout=600,
        )
    return exe


def _inspect(
    tmp_path: Path, root: Path, state: dict[str, str], *args: str
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **state, "MCP_CATALOG_PATH": str(tmp_path / "inspector-catalog.json")}
    return subprocess.run(
        [str(_inspector()), "--cli", *args, "--", str(SERVER), "--root", str(root)],
        capture_output=True,
        text=True,
        env=env,
        timeout=HANG_GUARD_S * 3,
    )


def test_the_mcp_inspector_lists_the_tools_without_portability_errors(
    tmp_path: Path, state_env: dict[str, str]
) -> None:
    root = make_project(tmp_path / "proj")
    done = _inspect(tmp_path, root, state_env, "--strict", "--method", "tools/list")
    assert done.returncode == 0, done.stderr
    assert "Warning" not in done.stderr and "Error" not in done.stderr, done.stderr
    assert [t["name"] for t in json.loads(done.stdout)["tools"]] == LISTED


def test_the_mcp_inspector_calls_a_tool_and_sees_structured_content(
    tmp_path: Path, state_env: dict[str, str]
) -> None:
    root = make_project(tmp_path / "proj")
    done = _inspect(
        tmp_path,
        root,
        state_env,
        "--method",
        "tools/call",
        "--tool-name",
        "ast_get_outline",
        "--tool-arg",
        "file_path=pkg/store.py",
        "include_symbols=true",
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["isError"] is False
    assert "pkg/store.py::Store.open" in [s["selector"] for s in result["structuredContent"]["symbols"]]
    assert result["content"][0]["text"] == compact(result["structuredContent"])


def test_the_mcp_inspector_sees_an_error_with_its_suggestions(
    tmp_path: Path, state_env: dict[str, str]
) -> None:
    root = make_project(tmp_path / "proj")
    done = _inspect(
        tmp_path,
        root,
        state_env,
        "--method",
        "tools/call",
        "--tool-name",
        "ast_get_symbol_source",
        "--tool-arg",
        "selector=pkg/store.py::helpr",
    )
    # The Inspector prints the result and exits 5 when the tool reported isError.
    assert done.returncode == 5, done.stderr
    result = json.loads(done.stdout)
    assert result["isError"] is True
    assert "structuredContent" not in result
    error = json.loads(result["content"][0]["text"])["error"]
    assert error["code"] == "NOT_FOUND"
    assert "pkg/store.py::helper" in error["details"]["suggestions"]
