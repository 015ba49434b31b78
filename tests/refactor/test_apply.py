"""ast_apply_operation and ast-tool apply: the SPEC §4 sequence, rollback and receipts."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from astmcp.errors import EncodingError, InternalError, MutationBlocked
from astmcp.refactor.apply import ApplyOptions, apply_plan
from astmcp.refactor.planfile import write_plan_file
from astmcp.refactor.prepare import build_plan, load_file

FILES = {
    "a.py": "def f():\n    return 1\n",
    "b.py": "def g():\n    return 2\n",
    "c.py": "def h():\n    return 3\n",
    "unrelated.py": "Z = 0\n",
}


def _two_file_plan(p: Any, **kwargs: Any) -> Any:
    """A plan editing a.py and b.py (built directly: one operation touching two files)."""
    conn = p.ws.db()
    edits = {}
    for name, new in (("a.py", "def f():\n    return 10\n"), ("b.py", "def g():\n    return 20\n")):
        edits[name] = (load_file(p.ws, name), new)
    return build_plan(p.ws, conn, "replace_body", edits, allow_new_errors=False, **kwargs)


def test_apply_writes_and_reports_the_receipt(project: Any) -> None:
    p = project(FILES)
    plan = p("ast_replace_symbol_body", selector="a.py::f", new_body="return 5")
    out = p.apply(plan)
    assert out["operation_id"] == plan["operation_id"] and out["kind"] == "replace_body"
    assert out["status"] == "applied" and out["idempotent_replay"] is False
    assert out["affected_files"] == ["a.py"] and out["applied_at"].endswith("Z")
    assert p.read("a.py") == "def f():\n    return 5\n"
    assert (p.state / "receipts" / f"{plan['operation_id']}.json").exists()


def test_applying_twice_is_an_idempotent_replay(project: Any) -> None:
    p = project(FILES)
    plan = p("ast_replace_symbol_body", selector="a.py::f", new_body="return 5")
    first = p.apply(plan)
    second = p.apply(plan)
    assert second["idempotent_replay"] is True and second["applied_at"] == first["applied_at"]


def test_wrong_plan_hash_is_refused_and_nothing_is_written(project: Any) -> None:
    p = project(FILES)
    plan = p("ast_replace_symbol_body", selector="a.py::f", new_body="return 5")
    error = p.error("ast_apply_operation", operation_id=plan["operation_id"], plan_hash="0" * 64)
    assert error["code"] == "CONFLICT"
    assert p.read("a.py") == FILES["a.py"]


def test_expired_plan_is_refused(project: Any) -> None:
    p = project(FILES)
    now = [1_000_000.0]
    p.ws.plans.clock = lambda: now[0]
    plan = p("ast_replace_symbol_body", selector="a.py::f", new_body="return 5")
    now[0] += 15 * 60 + 1
    assert (
        p.error("ast_apply_operation", operation_id=plan["operation_id"], plan_hash=plan["plan_hash"])["code"]
        == "EXPIRED"
    )
    assert p.read("a.py") == FILES["a.py"]


def test_plan_still_fresh_at_fourteen_minutes_applies(project: Any) -> None:
    p = project(FILES)
    now = [1_000_000.0]
    p.ws.plans.clock = lambda: now[0]
    plan = p("ast_replace_symbol_body", selector="a.py::f", new_body="return 5")
    now[0] += 14 * 60
    assert p.apply(plan)["status"] == "applied"


def test_blocked_plan_is_refused_with_its_reason(project: Any) -> None:
    p = project(FILES)
    plan = _two_file_plan(p, uncertain_reason="2 uncertain references")
    assert plan.blocked and plan.block_reason == "2 uncertain references"
    error = p.error("ast_apply_operation", operation_id=plan.operation_id, plan_hash=plan.plan_hash)
    assert error["code"] == "MUTATION_BLOCKED" and "uncertain" in error["message"]
    assert p.read("a.py") == FILES["a.py"]


def test_editing_an_unrelated_file_after_prepare_makes_the_plan_stale(project: Any) -> None:
    p = project(FILES)
    plan = p("ast_replace_symbol_body", selector="a.py::f", new_body="return 5")
    p.write("unrelated.py", "Z = 1\n")
    error = p.error("ast_apply_operation", operation_id=plan["operation_id"], plan_hash=plan["plan_hash"])
    assert error["code"] == "STALE_WORKSPACE"
    assert error["details"]["changed_files"] == ["unrelated.py"]
    assert p.read("a.py") == FILES["a.py"]


def test_changing_a_config_file_after_prepare_makes_the_plan_stale(project: Any) -> None:
    p = project({**FILES, "pyproject.toml": "[project]\nname = 'x'\n"})
    plan = p("ast_replace_symbol_body", selector="a.py::f", new_body="return 5")
    p.write("pyproject.toml", "[project]\nname = 'y'\n")
    error = p.error("ast_apply_operation", operation_id=plan["operation_id"], plan_hash=plan["plan_hash"])
    assert error["details"]["changed_files"] == ["pyproject.toml"]


def test_changing_a_target_file_mode_after_prepare_makes_the_plan_stale(project: Any) -> None:
    p = project(FILES)
    plan = p("ast_replace_symbol_body", selector="a.py::f", new_body="return 5")
    os.chmod(p.root / "a.py", 0o600)
    error = p.error("ast_apply_operation", operation_id=plan["operation_id"], plan_hash=plan["plan_hash"])
    assert error["code"] == "STALE_WORKSPACE" and error["details"]["changed_files"] == ["a.py"]


def test_workspace_already_equal_to_the_post_image_records_a_replay(project: Any) -> None:
    p = project(FILES)
    plan = p("ast_replace_symbol_body", selector="a.py::f", new_body="return 5")
    p.write("a.py", "def f():\n    return 5\n")
    out = p.apply(plan)
    assert out["idempotent_replay"] is True
    assert (p.state / "receipts" / f"{plan['operation_id']}.json").exists()


def test_target_replaced_by_a_symlink_is_refused(project: Any) -> None:
    p = project(FILES)
    plan = p("ast_replace_symbol_body", selector="a.py::f", new_body="return 5")
    os.rename(p.root / "a.py", p.root / "real.txt")
    os.symlink(p.root / "real.txt", p.root / "a.py")
    error = p.error("ast_apply_operation", operation_id=plan["operation_id"], plan_hash=plan["plan_hash"])
    assert error["code"] == "INVALID_INPUT" and "regular file" in error["message"]
    assert (p.root / "real.txt").read_text(encoding="utf-8") == FILES["a.py"]


def test_non_utf8_file_is_an_encoding_error_before_anything_is_written(project: Any) -> None:
    p = project({**FILES, "latin.py": "x = 'caf\xe9'\n".encode("latin-1")})
    with pytest.raises(EncodingError):
        load_file(p.ws, "latin.py")


def test_concurrent_applies_of_one_plan_write_once_and_replay_once(project: Any) -> None:
    p = project(FILES)
    plan = _two_file_plan(p)
    results: list[Any] = []
    barrier = threading.Barrier(2)

    def run() -> None:
        barrier.wait()
        results.append(apply_plan(p.ws, plan, plan.plan_hash))

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(r.idempotent_replay for r in results) == [False, True]
    assert p.read("a.py") == "def f():\n    return 10\n"


class _FailSecond:
    """os.replace that fails on its second call, optionally after someone edits the first file."""

    def __init__(self, interfere: Path | None = None) -> None:
        self.calls = 0
        self.interfere = interfere

    def __call__(self, src: str, dst: str) -> None:
        self.calls += 1
        if self.calls == 2:
            os.unlink(src)
            if self.interfere is not None:
                self.interfere.write_text("# someone else\n", encoding="utf-8")
            raise OSError("disk full (injected)")
        os.replace(src, dst)


def test_failure_after_the_first_replacement_rolls_back_every_file(project: Any) -> None:
    p = project(FILES)
    plan = _two_file_plan(p)
    with pytest.raises(InternalError) as caught:
        apply_plan(p.ws, plan, plan.plan_hash, ApplyOptions(replace_file=_FailSecond()))
    assert "rollback complete" in caught.value.message
    assert caught.value.details is not None and caught.value.details["rollback_complete"] is True
    assert caught.value.details["restored_files"] == ["a.py"]
    assert p.read("a.py") == FILES["a.py"] and p.read("b.py") == FILES["b.py"]
    assert not [n for n in os.listdir(p.root) if n.endswith(".astmcp-tmp")]
    assert not (p.state / "receipts" / f"{plan.operation_id}.json").exists()


def test_file_changed_by_someone_else_during_rollback_is_left_alone_and_reported(project: Any) -> None:
    p = project(FILES)
    plan = _two_file_plan(p)
    with pytest.raises(InternalError) as caught:
        apply_plan(p.ws, plan, plan.plan_hash, ApplyOptions(replace_file=_FailSecond(p.root / "a.py")))
    assert "INCOMPLETE" in caught.value.message
    assert caught.value.details is not None and caught.value.details["rollback_complete"] is False
    assert caught.value.details["not_restored_files"] == ["a.py"]
    assert p.read("a.py") == "# someone else\n"
    assert p.read("b.py") == FILES["b.py"]


def test_blocked_check_comes_after_the_replay_check(project: Any) -> None:
    p = project(FILES)
    plan = _two_file_plan(p, uncertain_reason="x")
    with pytest.raises(MutationBlocked):
        apply_plan(p.ws, plan, plan.plan_hash)


def _cli(state: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "AST_TOOL_STATE_DIR": str(state)}
    return subprocess.run(
        [sys.executable, "-m", "astmcp.cli", *args], capture_output=True, text=True, env=env, check=False
    )


def test_ast_tool_apply_twice_replays_across_processes(project: Any) -> None:
    p = project(FILES)
    wire = p("ast_replace_symbol_body", selector="a.py::f", new_body="return 7")
    path = write_plan_file(p.ws, wire["operation_id"])
    first = _cli(p.state, "apply", str(path), "--plan-hash", wire["plan_hash"])
    assert first.returncode == 0, first.stderr
    assert json.loads(first.stdout)["idempotent_replay"] is False
    assert p.read("a.py") == "def f():\n    return 7\n"
    second = _cli(p.state, "apply", str(path), "--plan-hash", wire["plan_hash"])
    assert second.returncode == 0, second.stderr
    assert json.loads(second.stdout)["idempotent_replay"] is True


def test_ast_tool_apply_failure_is_one_json_error_on_stderr_with_exit_1(project: Any) -> None:
    p = project(FILES)
    wire = p("ast_replace_symbol_body", selector="a.py::f", new_body="return 7")
    path = write_plan_file(p.ws, wire["operation_id"])
    out = _cli(p.state, "apply", str(path), "--plan-hash", "a" * 64)
    assert out.returncode == 1 and out.stdout == ""
    error = json.loads(out.stderr)
    assert error["status"] == "error" and error["command"] == "apply" and error["code"] == "APPLY_ERROR"
    assert error["details"]["code"] == "CONFLICT"


def test_ast_tool_apply_refuses_a_world_readable_plan_file(project: Any) -> None:
    p = project(FILES)
    wire = p("ast_replace_symbol_body", selector="a.py::f", new_body="return 7")
    path = write_plan_file(p.ws, wire["operation_id"])
    os.chmod(path, 0o644)
    out = _cli(p.state, "apply", str(path), "--plan-hash", wire["plan_hash"])
    assert out.returncode == 1 and json.loads(out.stderr)["details"]["code"] == "INVALID_INPUT"
    assert p.read("a.py") == FILES["a.py"]


def test_ast_tool_apply_without_plan_hash_is_a_usage_error(project: Any) -> None:
    p = project(FILES)
    assert _cli(p.state, "apply", "x.astplan").returncode == 2


def test_apply_in_a_new_process_without_the_plan_replays_from_the_receipt(project: Any) -> None:
    p = project(FILES)
    plan = p("ast_replace_symbol_body", selector="a.py::f", new_body="return 5")
    p.apply(plan)
    p.ws.plans = type(p.ws.plans)(state_dir=p.state)  # a fresh process: no plans in memory
    assert p.apply(plan)["idempotent_replay"] is True
    other = "6f1f4bd6-8d3b-4bb8-9f0d-3d2f2b7c0a11"
    assert p.error("ast_apply_operation", operation_id=other, plan_hash="0" * 64)["code"] == "NOT_FOUND"


def test_apply_while_another_process_holds_the_workspace_lock_is_locked(project: Any) -> None:
    from astmcp.refactor.receipts import workspace_lock

    p = project(FILES)
    plan = _two_file_plan(p)
    with workspace_lock(p.state, p.root, 1.0), pytest.raises(Exception) as caught:
        apply_plan(p.ws, plan, plan.plan_hash, ApplyOptions(lock_timeout_s=0.0))
    assert getattr(caught.value, "code", None) == "LOCKED"
    assert p.read("a.py") == FILES["a.py"]


@pytest.mark.skipif(os.geteuid() != 0, reason="changing a file's owner needs root")
def test_plan_file_owned_by_another_user_is_refused(project: Any) -> None:
    from astmcp.errors import InvalidInput
    from astmcp.refactor.planfile import read_plan_file

    p = project(FILES)
    wire = p("ast_replace_symbol_body", selector="a.py::f", new_body="return 7")
    path = write_plan_file(p.ws, wire["operation_id"])
    os.chown(path, 12345, -1)
    with pytest.raises(InvalidInput, match="another user"):
        read_plan_file(path)
