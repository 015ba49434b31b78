"""The error envelope never leaks environment values or absolute paths outside the project (SPEC §5).

Every error code we can reach is driven through ``call_tool`` (the one boundary of the MCP
server, the batch runner and ``ast-tool call``) and through the CLIs, with a distinctive HOME,
state dir and secret in the environment; then every envelope is searched for them and for any
absolute path that is neither inside the project nor part of the caller's own input.
"""

from __future__ import annotations

import dataclasses
import errno
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from astmcp.errors import ERROR_CODES
from astmcp.refactor import apply as apply_module
from astmcp.refactor.planfile import write_plan_file
from astmcp.refactor.receipts import workspace_lock
from astmcp.tools import _REGISTRY, call_tool, registry
from astmcp.workspace import Workspaces

AST_TOOL = str(Path(sys.executable).with_name("ast-tool"))
SECRET = "s3cr3t-CANARY-value-8d1e"
ABS_PATH = re.compile(r"(?<![\w.~])/(?:[\w.@+-]+/)*[\w.@+-]+")

FILES = {
    "a.py": "def f():\n    return 1\n\n\ndef g():\n    return 2\n",
    "pkg1/util.py": "def u1():\n    return 1\n",
    "pkg2/util.py": "def u2():\n    return 2\n",
    "dyn.py": "class Job:\n    def run(self):\n        return 1\n\n\ndef go(thing):\n    return thing.run()\n",
    "big.py": "".join(f"def function_number_{i}(argument):\n    return argument\n\n\n" for i in range(60)),
    "latin.py": "def h():\n    return 'caf!'\n",
}


class Env:
    def __init__(self, tmp_path: Path) -> None:
        self.home = tmp_path / "home-CANARY-HOME-3b7"
        self.state = tmp_path / "state-CANARY-STATE-9c2"
        self.root = (tmp_path / "proj").resolve()
        self.home.mkdir()
        for rel, content in FILES.items():
            path = self.root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, bytes):
                path.write_bytes(content)
            else:
                path.write_text(content, encoding="utf-8")
        self.vars = {
            "HOME": str(self.home),
            "AST_TOOL_STATE_DIR": str(self.state),
            "ASTMCP_TEST_SECRET": SECRET,
            "XDG_STATE_HOME": str(self.home / "xdg-state"),
        }
        self.workspaces = Workspaces(self.root)
        self.ws.plans.state_dir = self.state
        self.envelopes: list[tuple[str, str, str]] = []  # (where, caller input, envelope text)

    @property
    def ws(self) -> Any:
        return self.workspaces.get(str(self.root))

    def call(self, tool: str, **arguments: Any) -> dict[str, Any]:
        result = call_tool(self.workspaces, tool, arguments)
        if result.is_error:
            self.envelopes.append((f"call_tool {tool}", json.dumps(arguments), result.text))
        return result.data

    def error(self, tool: str, **arguments: Any) -> str:
        data = self.call(tool, **arguments)
        assert "error" in data, f"{tool} {arguments} did not fail: {data}"
        code: str = data["error"]["code"]
        return code

    def cli(self, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        env = {**os.environ, **self.vars}
        out = subprocess.run(
            [AST_TOOL, *args],
            input=stdin,
            capture_output=True,
            text=True,
            env=env,
            cwd=self.root,
            check=False,
        )
        self.envelopes.append((f"ast-tool {args[0]}", " ".join(args) + stdin, out.stdout + out.stderr))
        return out

    def leaks(self) -> list[str]:
        found = []
        forbidden = [SECRET, str(self.home), str(self.state), "CANARY-HOME", "CANARY-STATE", sys.prefix]
        for where, given, text in self.envelopes:
            for value in forbidden:
                if value in text:
                    found.append(f"{where}: {value!r} in {text[:300]}")
            for path in ABS_PATH.findall(text):
                inside = path == str(self.root) or path.startswith(f"{self.root}/")
                if not inside and path not in given:
                    found.append(f"{where}: absolute path {path!r} outside the project in {text[:300]}")
        return found


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Env]:
    made = Env(tmp_path)
    for key, value in made.vars.items():
        monkeypatch.setenv(key, value)
    yield made
    made.workspaces.close()


def test_no_error_of_any_tool_code_leaks_environment_values_or_outside_paths(
    env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    reached: dict[str, str] = {}

    def expect(code: str, tool: str, **arguments: Any) -> None:
        got = env.error(tool, **arguments)
        assert got == code, f"{tool} {arguments}: {got}"
        reached[code] = tool

    expect("INVALID_INPUT", "ast_no_such_tool")
    expect("INVALID_INPUT", "ast_get_outline", file_path="a.py", bogus=1)
    expect("INVALID_INPUT", "ast_get_outline", file_path="../outside.py")
    expect("INVALID_INPUT", "ast_get_outline", file_path=str(env.home / ".bashrc"))
    expect("INVALID_INPUT", "ast_get_outline", file_path="/etc/passwd")
    expect("INVALID_INPUT", "ast_rename_symbol", selector="a.py::f", new_name="class")
    expect("PROJECT_NOT_FOUND", "ast_list_files", project_root="~/no-such-project")
    expect("PROJECT_NOT_FOUND", "ast_list_files", project_root="relative/none")
    expect("NOT_FOUND", "ast_get_symbol_source", selector="a.py::nope")
    expect("NOT_FOUND", "ast_get_outline", file_path="nowhere.py")
    expect("NOT_FOUND", "ast_get_operation_preview", operation_id="6f1f4bd6-8d3b-4bb8-9f0d-3d2f2b7c0a11")
    expect("AMBIGUOUS_TARGET", "ast_get_outline", file_path="util.py")
    expect("NAME_COLLISION", "ast_rename_symbol", selector="a.py::f", new_name="g")
    # A file swapped for Latin-1 bytes of the same size and mtime (as rsync or tar may leave it):
    # the index still has its symbols, the prepare reads the bytes.
    latin = env.root / "latin.py"
    os.utime(latin, ns=(1_600_000_000_000_000_000,) * 2)
    env.call("ast_list_files")
    latin.write_bytes("def h():\n    return 'caf\xe9'\n".encode("latin-1"))
    os.utime(latin, ns=(1_600_000_000_000_000_000,) * 2)
    expect("ENCODING_ERROR", "ast_replace_symbol_body", selector="latin.py::h", new_body="return 1")
    expect("OUTPUT_LIMIT", "ast_get_outline", file_path="big.py", include_symbols=True, max_bytes=256)

    plan = env.call("ast_replace_symbol_body", selector="a.py::f", new_body="return 5")
    expect("CONFLICT", "ast_apply_operation", operation_id=plan["operation_id"], plan_hash="0" * 64)
    blocked = env.call("ast_rename_symbol", selector="dyn.py::Job.run", new_name="execute")
    assert blocked["blocked"] is True
    expect(
        "MUTATION_BLOCKED",
        "ast_apply_operation",
        operation_id=blocked["operation_id"],
        plan_hash=blocked["plan_hash"],
    )

    real_options = apply_module.ApplyOptions
    with monkeypatch.context() as patch:  # someone else holds the project's apply lock
        patch.setattr(apply_module, "ApplyOptions", lambda: real_options(lock_timeout_s=0.0))
        with workspace_lock(env.state, env.root, 1.0):
            expect(
                "LOCKED",
                "ast_apply_operation",
                operation_id=plan["operation_id"],
                plan_hash=plan["plan_hash"],
            )

    def refuse(src: str, dst: str) -> None:
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(env.home / ".ssh" / "id_rsa"))

    with monkeypatch.context() as patch:  # an OS error whose filename is outside the project
        patch.setattr(apply_module, "ApplyOptions", lambda: real_options(replace_file=refuse))
        expect(
            "INTERNAL_ERROR",
            "ast_apply_operation",
            operation_id=plan["operation_id"],
            plan_hash=plan["plan_hash"],
        )

    (env.root / "a.py").write_text(FILES["a.py"] + "\n# edited\n", encoding="utf-8")
    expect(
        "STALE_WORKSPACE",
        "ast_apply_operation",
        operation_id=plan["operation_id"],
        plan_hash=plan["plan_hash"],
    )

    now = [env.ws.plans.clock()]
    env.ws.plans.clock = lambda: now[0]
    fresh = env.call("ast_replace_symbol_body", selector="a.py::g", new_body="return 6")
    now[0] += 16 * 60
    expect("EXPIRED", "ast_apply_operation", operation_id=fresh["operation_id"], plan_hash=fresh["plan_hash"])

    spec = registry()["ast_list_files"]

    def explode(ws: Any, params: Any) -> Any:
        raise OSError(errno.EIO, f"I/O error reading {env.home}/.netrc with token {SECRET}")

    monkeypatch.setitem(_REGISTRY, "ast_list_files", dataclasses.replace(spec, handler=explode))
    expect("INTERNAL_ERROR", "ast_list_files")

    assert set(ERROR_CODES) - set(reached) == set(), "an error code was not exercised"
    assert env.leaks() == []


def test_no_cli_error_leaks_environment_values_or_outside_paths(env: Env) -> None:
    assert env.cli("call", "ast_get_outline", "--input", '{"file_path": "../x.py"}').returncode == 1
    assert env.cli("call", "ast_get_outline", "--input", "{not json").returncode == 2
    assert env.cli("call", "ast_nope", "--input", "{}").returncode != 0
    assert env.cli("call", "ast_list_files", "--root", "/definitely/missing", "--input", "{}").returncode != 0
    assert env.cli("validate", "-", stdin="{not json").returncode == 2
    assert env.cli("validate", "no-such-pipeline.json").returncode == 2
    step = {"id": "s", "tool": "ast_apply_operation", "input": {}}
    forbidden = {"version": 1, "project_root": ".", "steps": [step]}
    assert env.cli("validate", "-", stdin=json.dumps(forbidden)).returncode == 2
    failing = {
        "version": 1,
        "project_root": str(env.root),
        "steps": [{"id": "src", "tool": "ast_get_symbol_source", "input": {"selector": "a.py::missing"}}],
    }
    assert env.cli("run", "-", stdin=json.dumps(failing)).returncode == 1
    outside = {"version": 1, "project_root": "../../elsewhere", "steps": failing["steps"]}
    assert env.cli("run", "-", stdin=json.dumps(outside)).returncode != 0

    plan = env.call("ast_replace_symbol_body", selector="a.py::f", new_body="return 7")
    plan_file = write_plan_file(env.ws, plan["operation_id"], env.state)
    assert env.cli("apply", str(plan_file), "--plan-hash", "a" * 64).returncode == 1
    os.chmod(plan_file, 0o644)
    assert env.cli("apply", str(plan_file), "--plan-hash", plan["plan_hash"]).returncode == 1
    os.chmod(plan_file, 0o600)
    (env.root / "a.py").write_text(FILES["a.py"] + "# edited\n", encoding="utf-8")
    assert env.cli("apply", str(plan_file), "--plan-hash", plan["plan_hash"]).returncode == 1
    assert (
        env.cli("apply", str(env.state / "plans" / "missing.astplan"), "--plan-hash", "0" * 64).returncode
        == 1
    )

    codes = set()
    for _, _, text in env.envelopes:
        for line in text.splitlines():
            if line.startswith("{"):
                body = json.loads(line)
                codes.add(body.get("code") or body.get("error", {}).get("code"))
    assert {"INVALID_INPUT", "USAGE", "INVALID_JSON", "FORBIDDEN_TOOL", "TOOL_ERROR", "APPLY_ERROR"} <= codes
    assert env.leaks() == []


@pytest.mark.parametrize("kind", ["PermissionError", "RuntimeError"])
def test_an_unexpected_failure_inside_the_batch_runner_keeps_its_text_to_itself(
    env: Env, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    from astmcp import cli
    from astmcp.pipeline import cli as pipeline_cli

    def explode(*args: Any, **kwargs: Any) -> Any:
        secret_file = str(env.home / ".aws" / "credentials")
        if kind == "PermissionError":
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), secret_file)
        raise RuntimeError(f"could not use {secret_file}: token {SECRET}")

    monkeypatch.setattr(pipeline_cli, "run_pipeline", explode)
    doc = env.root / "pipeline.json"
    steps = [{"id": "files", "tool": "ast_list_files", "input": {}}]
    doc.write_text(json.dumps({"version": 1, "project_root": ".", "steps": steps}), encoding="utf-8")
    assert cli.main(["run", str(doc)]) == 1
    captured = capsys.readouterr()
    error = json.loads(captured.err)
    assert error["code"] == "INTERNAL_ERROR" and error["details"]["exception"] == kind
    env.envelopes.append(("ast-tool run (in process)", str(doc), captured.out + captured.err))
    assert env.leaks() == []
