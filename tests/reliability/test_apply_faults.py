"""Faults during apply: a process killed at each stage, disk full, read-only targets, a concurrent edit.

After any fault the workspace must end all-original or all-post-image (never torn), and the
next apply must say which: a real apply when nothing was replaced, an idempotent replay when
the killed apply had started replacing (its journal is rolled forward first).
"""

from __future__ import annotations

import errno
import json
import os
import signal
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from astmcp.refactor import apply as apply_module
from astmcp.refactor.apply import STAGES
from astmcp.refactor.journal import journal_path
from astmcp.refactor.planfile import write_plan_file
from astmcp.tools import call_tool
from astmcp.workspace import Workspaces

AST_TOOL = str(Path(sys.executable).with_name("ast-tool"))
HANG_GUARD_S = 120  # a hung child fails the test instead of blocking the run; not a timing assertion

PRE = {
    "a.py": "def helper():\n    return 1\n",
    "pkg/b.py": "from a import helper\n\nVALUE = helper()\n",
    "pkg/c.py": "from a import helper\n\n\ndef use():\n    return helper() + 1\n",
    "other.py": "Z = 0\n",
}
POST = {
    "a.py": "def assist():\n    return 1\n",
    "pkg/b.py": "from a import assist\n\nVALUE = assist()\n",
    "pkg/c.py": "from a import assist\n\n\ndef use():\n    return assist() + 1\n",
    "other.py": "Z = 0\n",
}

# Runs one apply in a child process and parks it at a stage until the parent kills it.
DRIVER = """
import sys
from pathlib import Path
from astmcp.refactor.apply import ApplyOptions, apply_plan
from astmcp.refactor.planfile import read_plan_file
from astmcp.workspace import Workspaces

plan_file, plan_hash, state, stop_at = sys.argv[1:]

def hook(stage):
    if stage == stop_at:
        print(stage, flush=True)
        sys.stdin.readline()  # parked: the parent sends SIGKILL

plan = read_plan_file(Path(plan_file))
workspaces = Workspaces(Path(plan.project_root))
ws = workspaces.get(plan.project_root)
ws.plans.state_dir = Path(state)
apply_plan(ws, plan, plan_hash, ApplyOptions(state_dir=Path(state), stage_hook=hook))
print("finished", flush=True)
"""


class Fixture:
    def __init__(self, root: Path, state: Path) -> None:
        self.root = root
        self.state = state
        self.workspaces = Workspaces(root)
        self.ws.plans.state_dir = state

    @property
    def ws(self) -> Any:
        return self.workspaces.get(str(self.root))

    def call(self, tool: str, **arguments: Any) -> tuple[bool, dict[str, Any]]:
        result = call_tool(self.workspaces, tool, arguments)
        return result.is_error, result.data

    def prepare(self) -> dict[str, Any]:
        failed, plan = self.call("ast_rename_symbol", selector="a.py::helper", new_name="assist")
        assert not failed, plan
        assert sorted(f["file"] for f in plan["affected_files"]) == ["a.py", "pkg/b.py", "pkg/c.py"]
        return plan

    def apply(self, plan: dict[str, Any]) -> tuple[bool, dict[str, Any]]:
        return self.call(
            "ast_apply_operation", operation_id=plan["operation_id"], plan_hash=plan["plan_hash"]
        )

    def image(self) -> str:
        """'pre', 'post' or 'torn' (some files pre, some post), failing on bytes that are neither."""
        seen = set()
        for rel in PRE:
            text = (self.root / rel).read_text(encoding="utf-8")
            assert text in (PRE[rel], POST[rel]), f"{rel} holds bytes that are neither image: {text!r}"
            if PRE[rel] != POST[rel]:
                seen.add("pre" if text == PRE[rel] else "post")
        return seen.pop() if len(seen) == 1 else "torn"

    def litter(self) -> list[str]:
        return sorted(str(p.relative_to(self.root)) for p in self.root.rglob("*.astmcp-tmp"))

    def receipt(self, plan: dict[str, Any]) -> Path:
        return self.state / "receipts" / f"{plan['operation_id']}.json"


@pytest.fixture
def fx(tmp_path: Path) -> Iterator[Fixture]:
    root = tmp_path / "proj"
    for rel, text in PRE.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    made = Fixture(root.resolve(), tmp_path / "state")
    yield made
    made.workspaces.close()


def cli_apply(fx: Fixture, plan_file: Path, plan_hash: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "AST_TOOL_STATE_DIR": str(fx.state)}
    return subprocess.run(
        [AST_TOOL, "apply", str(plan_file), "--plan-hash", plan_hash],
        capture_output=True,
        text=True,
        env=env,
        timeout=HANG_GUARD_S,
        check=False,
    )


def kill_apply_at(fx: Fixture, plan_file: Path, plan_hash: str, stage: str) -> None:
    with subprocess.Popen(
        [sys.executable, "-c", DRIVER, str(plan_file), plan_hash, str(fx.state), stage],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as proc:
        assert proc.stdout is not None
        reached = proc.stdout.readline().strip()
        if reached != stage:
            proc.kill()
            _, err = proc.communicate(timeout=HANG_GUARD_S)
            pytest.fail(f"the apply did not park at {stage}: {reached!r} {err}")
        proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=HANG_GUARD_S)
        assert proc.returncode == -signal.SIGKILL


# After the kill: what is on disk, and whether the next apply is a replay.
EXPECTED = {
    "before_staging": ("pre", False),
    "after_staging": ("pre", False),
    "after_first_replacement": ("torn", True),
    "before_receipt": ("post", True),
}


def test_every_stage_of_apply_is_covered_by_the_kill_tests() -> None:
    assert tuple(EXPECTED) == STAGES


@pytest.mark.parametrize("stage", STAGES)
def test_an_apply_killed_at_any_stage_is_finished_or_redone_by_the_next_apply(
    fx: Fixture, stage: str
) -> None:
    plan = fx.prepare()
    plan_file = write_plan_file(fx.ws, plan["operation_id"], fx.state)
    kill_apply_at(fx, plan_file, plan["plan_hash"], stage)

    on_disk, replay = EXPECTED[stage]
    assert fx.image() == on_disk
    assert not fx.receipt(plan).exists()
    if on_disk == "torn":  # unavoidable for a multi-file write; the journal says how to finish it
        assert journal_path(fx.state, fx.root).exists()

    second = cli_apply(fx, plan_file, plan["plan_hash"])
    assert second.returncode == 0, second.stderr
    assert json.loads(second.stdout)["idempotent_replay"] is replay
    assert fx.image() == "post"
    assert fx.litter() == []
    assert not journal_path(fx.state, fx.root).exists()
    assert fx.receipt(plan).exists()

    third = cli_apply(fx, plan_file, plan["plan_hash"])
    assert third.returncode == 0, third.stderr
    assert json.loads(third.stdout)["idempotent_replay"] is True


def test_a_killed_apply_is_finished_before_another_plan_is_judged_stale(fx: Fixture) -> None:
    plan = fx.prepare()
    plan_file = write_plan_file(fx.ws, plan["operation_id"], fx.state)
    kill_apply_at(fx, plan_file, plan["plan_hash"], "after_first_replacement")
    assert fx.image() == "torn"

    failed, other = fx.call("ast_rename_symbol", selector="other.py::Z", new_name="W")
    assert not failed, other  # prepared on the torn workspace
    failed, error = fx.apply(other)
    assert failed and error["error"]["code"] == "STALE_WORKSPACE", error
    assert error["error"]["details"]["changed_files"] == ["pkg/b.py", "pkg/c.py"]
    assert fx.image() == "post"  # the killed apply was rolled forward under the lock first
    assert (fx.root / "other.py").read_text(encoding="utf-8") == PRE["other.py"]


def test_a_target_edited_after_a_kill_is_never_clobbered_by_the_recovery(fx: Fixture) -> None:
    plan = fx.prepare()
    plan_file = write_plan_file(fx.ws, plan["operation_id"], fx.state)
    kill_apply_at(fx, plan_file, plan["plan_hash"], "after_first_replacement")
    mine = "# edited by hand after the crash\n"
    (fx.root / "pkg/c.py").write_text(mine, encoding="utf-8")

    second = cli_apply(fx, plan_file, plan["plan_hash"])
    assert second.returncode == 1
    error = json.loads(second.stderr)
    assert error["details"]["code"] == "STALE_WORKSPACE"
    assert "pkg/c.py" in error["details"]["changed_files"]
    assert (fx.root / "pkg/c.py").read_text(encoding="utf-8") == mine
    assert (fx.root / "pkg/b.py").read_text(encoding="utf-8") == POST["pkg/b.py"]
    assert fx.litter() == []


def _fail_second_staged_write(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """os.fdopen whose handle, for the second staged temp file, writes half then hits ENOSPC."""
    real_fdopen = os.fdopen
    staged: list[str] = []

    class Full:
        def __init__(self, handle: Any) -> None:
            self.handle = handle

        def __enter__(self) -> Full:
            return self

        def __exit__(self, *exc: object) -> None:
            self.handle.close()

        def write(self, data: bytes) -> int:
            self.handle.write(data[: len(data) // 2])
            self.handle.flush()
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), staged[-1])

        def __getattr__(self, name: str) -> Any:
            return getattr(self.handle, name)

    def fdopen(fd: int, *args: Any, **kwargs: Any) -> Any:
        handle = real_fdopen(fd, *args, **kwargs)
        target = os.readlink(f"/proc/self/fd/{fd}")
        if target.endswith(".astmcp-tmp"):
            staged.append(target)
            if len(staged) == 2:
                return Full(handle)
        return handle

    monkeypatch.setattr(os, "fdopen", fdopen)
    return staged


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc to tell temp files apart")
def test_disk_full_while_staging_changes_nothing_and_says_so(
    fx: Fixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    plan = fx.prepare()
    with monkeypatch.context() as patch:
        staged = _fail_second_staged_write(patch)
        failed, data = fx.apply(plan)
    assert len(staged) == 2, "the fault was not injected"
    assert failed
    error = data["error"]
    assert error["code"] == "INTERNAL_ERROR"
    assert "nothing was changed" in error["message"] and "No space left on device" in error["message"]
    assert str(fx.root) not in json.dumps(error)
    assert fx.image() == "pre" and fx.litter() == []
    assert not fx.receipt(plan).exists() and not journal_path(fx.state, fx.root).exists()

    failed, receipt = fx.apply(plan)  # space is back: the same plan applies
    assert not failed and receipt["idempotent_replay"] is False
    assert fx.image() == "post"


def test_a_target_made_read_only_after_prepare_is_refused_and_kept(fx: Fixture) -> None:
    plan = fx.prepare()
    os.chmod(fx.root / "pkg/b.py", 0o444)
    failed, data = fx.apply(plan)
    assert failed and data["error"]["code"] == "STALE_WORKSPACE"
    assert data["error"]["details"]["changed_files"] == ["pkg/b.py"]
    assert fx.image() == "pre"
    assert stat.S_IMODE(os.stat(fx.root / "pkg/b.py").st_mode) == 0o444


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a read-only folder anyway")
def test_a_read_only_folder_of_one_target_changes_nothing(fx: Fixture) -> None:
    plan = fx.prepare()
    os.chmod(fx.root / "pkg", 0o555)
    try:
        failed, data = fx.apply(plan)
    finally:
        os.chmod(fx.root / "pkg", 0o755)
    assert failed and "nothing was changed" in data["error"]["message"]
    assert "Permission denied" in data["error"]["message"]
    assert fx.image() == "pre" and fx.litter() == []


class _Refuse:
    """os.replace refusing the n-th target with EACCES: what a read-only folder or an immutable
    file does to a non-root user (root bypasses mode bits, so CI, running as root, needs this)."""

    def __init__(self, nth: int) -> None:
        self.nth = nth
        self.calls = 0

    def __call__(self, src: str, dst: str) -> None:
        self.calls += 1
        if self.calls == self.nth:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), src, None, dst)
        os.replace(src, dst)


@pytest.mark.parametrize("nth", [1, 2, 3])
def test_a_permission_error_on_any_replacement_leaves_every_file_original(
    fx: Fixture, monkeypatch: pytest.MonkeyPatch, nth: int
) -> None:
    plan = fx.prepare()
    refuse = _Refuse(nth)
    real = apply_module.ApplyOptions

    def options(*args: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("replace_file", refuse)
        return real(*args, **kwargs)

    monkeypatch.setattr(apply_module, "ApplyOptions", options)
    failed, data = fx.apply(plan)
    assert refuse.calls == nth
    assert failed and data["error"]["code"] == "INTERNAL_ERROR"
    error = data["error"]
    if nth == 1:
        assert "nothing was changed" in error["message"]
    else:
        assert "rollback complete" in error["message"] and error["details"]["rollback_complete"] is True
    assert "Permission denied" in json.dumps(error)
    assert str(fx.root) not in json.dumps(error)
    assert fx.image() == "pre" and fx.litter() == []
    assert not fx.receipt(plan).exists()


def test_a_target_edited_by_someone_else_between_prepare_and_apply_is_stale_and_kept(fx: Fixture) -> None:
    plan = fx.prepare()
    theirs = PRE["pkg/c.py"] + "\n\nEXTRA = 1\n"
    (fx.root / "pkg/c.py").write_text(theirs, encoding="utf-8")
    failed, data = fx.apply(plan)
    assert failed and data["error"]["code"] == "STALE_WORKSPACE"
    assert data["error"]["details"]["changed_files"] == ["pkg/c.py"]
    assert (fx.root / "pkg/c.py").read_text(encoding="utf-8") == theirs
    assert (fx.root / "a.py").read_text(encoding="utf-8") == PRE["a.py"]
    assert (fx.root / "pkg/b.py").read_text(encoding="utf-8") == PRE["pkg/b.py"]
