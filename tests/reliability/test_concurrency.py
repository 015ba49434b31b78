"""Concurrency: 8 processes racing to apply 8 plans on one workspace; 16 concurrent MCP reads
while the files they read change on disk."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client

from astmcp.refactor.planfile import write_plan_file
from astmcp.server import build_server
from astmcp.tools import call_tool
from astmcp.workspace import Workspaces

HANG_GUARD_S = 120  # a hung worker fails the test instead of blocking the run; not a timing assertion
WORKERS = 8

# One apply process: applies each plan file it is sent (through the same code as `ast-tool apply`,
# with one long-lived workspace, as a server would have) and answers one JSON line per plan.
WORKER = """
import json, sys
from pathlib import Path
from astmcp.errors import AstmcpError
from astmcp.refactor.apply import ApplyOptions, apply_plan
from astmcp.refactor.planfile import read_plan_file
from astmcp.workspace import Workspaces

root, state = Path(sys.argv[1]), Path(sys.argv[2])
workspaces = Workspaces(root)
ws = workspaces.get(str(root))
ws.plans.state_dir = state
print("ready", flush=True)
for line in sys.stdin:
    plan_file, plan_hash = line.split()
    try:
        plan = read_plan_file(Path(plan_file))
        with ws.lock:
            receipt = apply_plan(ws, plan, plan_hash, ApplyOptions(state_dir=state, lock_timeout_s=60))
        answer = {"applied": receipt.operation_id, "replay": receipt.idempotent_replay}
    except AstmcpError as error:
        answer = {"code": error.code, "details": error.details}
    print(json.dumps(answer), flush=True)
workspaces.close()
"""


def pre_module(i: int) -> str:
    return f"def fn_{i}(x):\n    return x + {i}\n"


def post_module(i: int) -> str:
    return f"def renamed_{i}(x):\n    return x + {i}\n"


def main_module(renamed: set[int]) -> str:
    names = [f"renamed_{i}" if i in renamed else f"fn_{i}" for i in range(WORKERS)]
    imports = "".join(f"from mod{i} import {name}\n" for i, name in enumerate(names))
    return imports + "\n\nTOTAL = " + " + ".join(f"{name}(1)" for name in names) + "\n"


@pytest.fixture
def workers(tmp_path: Path) -> Iterator[tuple[Path, Path, list[subprocess.Popen[str]]]]:
    root = (tmp_path / "proj").resolve()
    root.mkdir()
    for i in range(WORKERS):
        (root / f"mod{i}.py").write_text(pre_module(i), encoding="utf-8")
    (root / "main.py").write_text(main_module(set()), encoding="utf-8")
    state = tmp_path / "state"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, str(root), str(state)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(WORKERS)
    ]
    try:
        for proc in procs:
            assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        yield root, state, procs
    finally:
        for proc in procs:
            if proc.stdin is not None:
                proc.stdin.close()
        for proc in procs:
            proc.wait(HANG_GUARD_S)
            if proc.stdout is not None:
                proc.stdout.close()


def test_eight_processes_racing_eight_plans_apply_one_per_round_and_never_tear_a_file(
    workers: tuple[Path, Path, list[subprocess.Popen[str]]],
) -> None:
    root, state, procs = workers
    workspaces = Workspaces(root)
    ws = workspaces.get(str(root))
    ws.plans.state_dir = state
    pending = dict(enumerate(procs))  # plan i renames fn_i (mod{i}.py and main.py) in process i
    renamed: set[int] = set()
    try:
        while pending:
            sent: dict[int, str] = {}
            for i, proc in pending.items():
                result = call_tool(
                    workspaces,
                    "ast_rename_symbol",
                    {"selector": f"mod{i}.py::fn_{i}", "new_name": f"renamed_{i}"},
                )
                assert not result.is_error, result.text
                plan = result.data
                assert sorted(f["file"] for f in plan["affected_files"]) == ["main.py", f"mod{i}.py"]
                plan_file = write_plan_file(ws, plan["operation_id"], state)
                sent[i] = plan["operation_id"]
                assert proc.stdin is not None
                proc.stdin.write(f"{plan_file} {plan['plan_hash']}\n")
            for proc in pending.values():  # all plans are out before anyone waits: they race
                assert proc.stdin is not None
                proc.stdin.flush()
            answers = {}
            for i, proc in pending.items():
                assert proc.stdout is not None
                answers[i] = json.loads(proc.stdout.readline())
            winners = [i for i, a in answers.items() if "applied" in a]
            assert len(winners) == 1, answers
            winner = winners[0]
            assert answers[winner] == {"applied": sent[winner], "replay": False}
            for i, answer in answers.items():
                if i != winner:
                    assert answer["code"] == "STALE_WORKSPACE", answer
                    assert answer["details"]["changed_files"] == sorted(["main.py", f"mod{winner}.py"])
            renamed.add(winner)
            del pending[winner]
            for i in range(WORKERS):  # every file is exactly one of its known images
                expected = post_module(i) if i in renamed else pre_module(i)
                assert (root / f"mod{i}.py").read_text(encoding="utf-8") == expected
            assert (root / "main.py").read_text(encoding="utf-8") == main_module(renamed)
            assert not list(root.rglob("*.astmcp-tmp"))
    finally:
        workspaces.close()
    assert renamed == set(range(WORKERS))


# -- 16 concurrent MCP reads while files flip between two known contents --------------------------
FLIPPING = 4
READERS = 16
CALLS_PER_READER = 6


def version(k: int, which: str) -> str:
    """Two contents of the same size: a mix of spans from one and text from the other shows."""
    name = "alpha" if which == "A" else "bravo"
    value = "'AAAA'" if which == "A" else "'BBBB'"
    return f'def {name}_{k}(x):\n    """{which} doc."""\n    return {value}\n\n\nclass {name.title()}{k}:\n    pass\n'


def write_atomically(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.swap")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)  # how editors save: the file is always one whole version


def test_concurrent_mcp_reads_while_files_change_always_match_one_whole_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AST_TOOL_STATE_DIR", str(tmp_path / "state"))
    root = (tmp_path / "proj").resolve()
    root.mkdir()
    (root / "pyproject.toml").write_text("[project]\nname = 'p'\n", encoding="utf-8")
    for k in range(FLIPPING):
        (root / f"m{k}.py").write_text(version(k, "A"), encoding="utf-8")
    app = build_server(root)

    # What each read returns for a file that is wholly A or wholly B, learned while nothing moves.
    expected: dict[tuple[str, int], dict[str, str]] = {}

    async def learn(client: Client) -> None:
        for which in ("A", "B"):
            for k in range(FLIPPING):
                write_atomically(root / f"m{k}.py", version(k, which))
            for k in range(FLIPPING):
                for kind, args in requests(k):
                    result = await client.call_tool(kind, args)
                    expected.setdefault((kind, k), {})[which] = canonical(kind, result)
        for k in range(FLIPPING):
            assert expected[("ast_get_outline", k)]["A"] != expected[("ast_get_outline", k)]["B"]

    flips: queue.Queue[int | None] = queue.Queue()

    def writer() -> None:
        state = dict.fromkeys(range(FLIPPING), "B")
        while (k := flips.get()) is not None:
            state[k] = "A" if state[k] == "B" else "B"
            write_atomically(root / f"m{k}.py", version(k, state[k]))

    answers: list[tuple[str, int, str]] = []

    async def reader(client: Client, n: int) -> None:
        for j in range(CALLS_PER_READER):
            k = (n + j) % FLIPPING
            kind, args = requests(k)[(n + j) % 3]
            result = await client.call_tool(kind, args)
            answers.append((kind, k, canonical(kind, result)))
            flips.put((n + j + 1) % FLIPPING)  # every answer moves some file on

    async def main() -> None:
        async with Client(app.server) as client:
            await learn(client)
            thread = threading.Thread(target=writer)
            thread.start()
            try:
                async with anyio.create_task_group() as tg:
                    for n in range(READERS):
                        tg.start_soon(reader, client, n)
            finally:
                flips.put(None)
                await anyio.to_thread.run_sync(thread.join)

    try:
        anyio.run(main)
    finally:
        app.workspaces.close()
    assert len(answers) == READERS * CALLS_PER_READER
    seen = set()
    for kind, k, answer in answers:
        versions = expected[(kind, k)]
        assert answer in versions.values(), f"{kind} on m{k}.py matches neither version: {answer}"
        seen.add(next(w for w, text in versions.items() if text == answer))
    assert seen == {"A", "B"}, "the files never changed under the readers"


def requests(k: int) -> list[tuple[str, dict[str, Any]]]:
    return [
        ("ast_get_outline", {"file_path": f"m{k}.py", "include_symbols": True}),
        ("ast_search_symbols", {"query": f"_{k}", "detail": "full", "file_glob": f"m{k}.py"}),
        ("ast_get_symbol_source", {"selector": f"m{k}.py::alpha_{k}"}),
    ]


def canonical(kind: str, result: Any) -> str:
    """The answer without fields that legitimately differ between calls."""
    data = result.structured_content if not result.is_error else json.loads(result.content[0].text)
    if result.is_error:
        data = {"code": data["error"]["code"]}
    return json.dumps(data, sort_keys=True)


def test_a_file_rewritten_between_the_refresh_and_the_read_never_yields_a_mixed_symbol_source(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from astmcp.query import source

    root = (tmp_path / "proj").resolve()
    root.mkdir()
    target = root / "m0.py"
    function = "def alpha_0(x):\n    return 1\n"
    target.write_text(function, encoding="utf-8")
    moved = "# a header someone added\n\n\n" + function  # same symbol, new lines
    real = source.resolve_symbol
    flips = []

    def resolve_then_flip(*args: Any, **kwargs: Any) -> Any:
        row = real(*args, **kwargs)
        if not flips:  # the index said lines 1-2; another process saves the file now
            write_atomically(target, moved)
            flips.append(row.line)
        return row

    monkeypatch.setattr(source, "resolve_symbol", resolve_then_flip)
    workspaces = Workspaces(root)
    try:
        result = call_tool(workspaces, "ast_get_symbol_source", {"selector": "m0.py::alpha_0"})
    finally:
        workspaces.close()
    assert flips == [1] and not result.is_error, result.text
    assert (result.data["line"], result.data["text"]) == (4, function)


def test_a_file_rewritten_while_references_are_collected_never_yields_mixed_context(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from astmcp.query import references

    root = (tmp_path / "proj").resolve()
    root.mkdir()
    (root / "a.py").write_text("def target():\n    pass\n", encoding="utf-8")
    user = root / "b.py"
    user.write_text("from a import target\n\ntarget()\n", encoding="utf-8")
    real = references.collect_references
    flips = []

    def collect_then_flip(*args: Any, **kwargs: Any) -> Any:
        found = real(*args, **kwargs)
        if not flips:  # positions come from the index; another process saves b.py now
            write_atomically(user, "# a header someone added\n\n\nfrom a import target\n\ntarget()\n")
            flips.append(len(found))
        return found

    monkeypatch.setattr(references, "collect_references", collect_then_flip)
    workspaces = Workspaces(root)
    try:
        result = call_tool(
            workspaces, "ast_find_references", {"selector": "a.py::target", "detail": "context"}
        )
    finally:
        workspaces.close()
    assert flips and not result.is_error, result.text
    in_b = [(r["line"], r["context"]) for r in result.data["references"] if r["file"] == "b.py"]
    assert in_b == [(4, "from a import target"), (6, "target()")]
