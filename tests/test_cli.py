"""`ast-tool call | index | stats` through the installed console script."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

AST_TOOL = str(Path(sys.executable).with_name("ast-tool"))


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([AST_TOOL, *args], capture_output=True, text=True, input=stdin, timeout=120)


def test_call_prints_compact_json_and_exits_zero(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text("def hello(name: str) -> str:\n    return name\n")
    done = run("call", "ast_search_symbols", "--root", str(tmp_path), "--input", '{"query":"hello"}')
    assert done.returncode == 0, done.stderr
    assert "\n" not in done.stdout.strip()
    assert json.loads(done.stdout)["symbols"][0]["selector"] == "m.py::hello"


def test_call_reads_input_from_stdin(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text("def hello(): pass\n")
    done = run(
        "call", "ast_get_outline", "--root", str(tmp_path), "--input", "-", stdin='{"file_path":"m.py"}'
    )
    assert done.returncode == 0 and "def hello()" in json.loads(done.stdout)["outline"]


def test_a_tool_error_goes_to_stderr_with_exit_one(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text("def hello(): pass\n")
    done = run(
        "call", "ast_get_symbol_source", "--root", str(tmp_path), "--input", '{"selector":"m.py::nope"}'
    )
    assert done.returncode == 1 and done.stdout == ""
    assert json.loads(done.stderr)["error"]["code"] == "NOT_FOUND"


def test_usage_errors_exit_two(tmp_path: Path) -> None:
    assert run("call", "ast_list_files", "--input", "{not json").returncode == 2
    assert run("call", "no_such_tool").returncode == 2
    assert run("frobnicate").returncode == 2


def test_index_and_stats_report_counts_and_skips(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text("def a(): pass\nclass B: pass\n")
    (tmp_path / ".gitignore").write_text("skip.py\n")
    (tmp_path / "skip.py").write_text("")
    done = run("index", "--root", str(tmp_path), "--full")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["files"] == 1 and summary["parsed"] == 1
    assert "indexing" in done.stderr  # progress, plain lines when not on a terminal
    stats = json.loads(run("stats", "--root", str(tmp_path)).stdout)
    assert stats["counts"]["files"] == 1 and stats["counts"]["symbols"] == 2
    assert stats["skipped"] == {"ignored": 1}


def test_help_lists_the_commands() -> None:
    done = run("--help")
    assert done.returncode == 0
    for command in ("call", "index", "stats", "tools"):
        assert command in done.stdout


def _run_with_state(state: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "AST_TOOL_STATE_DIR": str(state)}
    return subprocess.run([AST_TOOL, *args], capture_output=True, text=True, timeout=120, env=env)


def _prepare_hello_rename(
    root: Path, state: Path, source: str
) -> tuple[subprocess.CompletedProcess[str], dict[str, Any], Path]:
    """`ast-tool call ast_rename_symbol` hello -> greet in a one-file project: the run, the plan, its file."""
    root.mkdir()
    (root / "m.py").write_text(source)
    ask = json.dumps({"selector": "m.py::hello", "new_name": "greet"})
    prepared = _run_with_state(state, "call", "ast_rename_symbol", "--root", str(root), "--input", ask)
    assert prepared.returncode == 0, prepared.stderr
    plan = json.loads(prepared.stdout)
    return prepared, plan, state / "plans" / f"{plan['operation_id']}.astplan"


def test_a_plan_prepared_by_call_is_previewed_and_applied_by_later_calls(tmp_path: Path) -> None:
    root, state = tmp_path / "proj", tmp_path / "state"
    prepared, plan, plan_file = _prepare_hello_rename(
        root, state, "def hello():\n    return 1\n\n\nprint(hello())\n"
    )
    assert plan_file.is_file() and (plan_file.stat().st_mode & 0o777) == 0o600
    assert f"ast-tool apply {plan_file} --plan-hash {plan['plan_hash']}" in prepared.stderr
    assert (root / "m.py").read_text().count("hello") == 2  # a prepare writes nothing

    ask = json.dumps({"operation_id": plan["operation_id"]})
    preview = _run_with_state(state, "call", "ast_get_operation_preview", "--root", str(root), "--input", ask)
    assert preview.returncode == 0, preview.stderr
    assert "+def greet():" in json.loads(preview.stdout)["files"][0]["diff"]

    apply = json.dumps({"operation_id": plan["operation_id"], "plan_hash": plan["plan_hash"]})
    first = _run_with_state(state, "call", "ast_apply_operation", "--root", str(root), "--input", apply)
    assert first.returncode == 0, first.stderr
    assert json.loads(first.stdout)["idempotent_replay"] is False
    assert (root / "m.py").read_text() == "def greet():\n    return 1\n\n\nprint(greet())\n"
    again = _run_with_state(state, "apply", str(plan_file), "--plan-hash", plan["plan_hash"])
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["idempotent_replay"] is True


def test_a_tampered_plan_file_is_refused_by_a_later_call(tmp_path: Path) -> None:
    root, state = tmp_path / "proj", tmp_path / "state"
    _prepared, plan, plan_file = _prepare_hello_rename(root, state, "def hello():\n    return 1\n")
    body = json.loads(plan_file.read_text())
    body["plan"]["affected_files"][0]["updated_hash"] = "0" * 64
    plan_file.write_text(json.dumps(body))
    apply = json.dumps({"operation_id": plan["operation_id"], "plan_hash": plan["plan_hash"]})
    done = _run_with_state(state, "call", "ast_apply_operation", "--root", str(root), "--input", apply)
    assert done.returncode == 1
    assert json.loads(done.stderr.splitlines()[0])["error"]["code"] == "INVALID_INPUT"
    assert (root / "m.py").read_text() == "def hello():\n    return 1\n"
