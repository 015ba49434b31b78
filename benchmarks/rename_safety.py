"""Rename safety on real code: a seeded sample of click 8.5.1 symbols, renamed with astmcp and
checked by click's own test suite after each applied rename.

Outcomes per symbol: ``clean`` (applied, tests pass), ``broken`` (applied, tests fail — a bug),
``blocked`` (plan prepared but blocked: uncertain references or new errors), ``refused``
(NAME_COLLISION / MUTATION_BLOCKED / other error before a plan). The corpus is fetched with
``pip download`` at run time; nothing third-party is committed.

    python benchmarks/rename_safety.py [--sample 50] [--seed 0] [--workdir /tmp/rename-safety]
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
import tarfile
import time
from pathlib import Path
from typing import Any

from astmcp.tools import call_tool
from astmcp.workspace import Workspaces

CLICK = "click==8.5.1"
KINDS = ("function", "method", "class", "variable", "property", "attribute")


def fetch(workdir: Path) -> Path:
    pristine = workdir / "pristine"
    if pristine.is_dir():
        return pristine
    workdir.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--no-binary",
            ":all:",
            CLICK,
            "-d",
            str(workdir),
        ],
        check=True,
        capture_output=True,
    )
    archive = next(workdir.glob("click-*.tar.gz"))
    with tarfile.open(archive) as tar:
        tar.extractall(workdir, filter="data")
    next(p for p in workdir.iterdir() if p.is_dir() and p.name.startswith("click-")).rename(pristine)
    return pristine


def run_tests(root: Path) -> tuple[bool, str]:
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "tests", "-x", "-q", "-p", "no:cacheprovider"],
        cwd=root,
        env={"PYTHONPATH": str(root / "src"), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    lines = proc.stdout.strip().splitlines() or [""]
    failed = [line for line in lines if line.startswith(("FAILED", "ERROR"))]
    return proc.returncode == 0, "; ".join([lines[-1], *failed[:3]])


def sample(workspaces: Workspaces, size: int, seed: int) -> list[dict[str, Any]]:
    conn = workspaces.get(None).db()
    marks = ",".join("?" * len(KINDS))
    rows = conn.execute(
        f"SELECT s.selector, s.name, s.kind FROM symbols s JOIN files f ON f.id = s.file_id"
        f" WHERE f.path LIKE 'src/click/%' AND s.kind IN ({marks}) ORDER BY s.selector",
        KINDS,
    ).fetchall()
    rows = [r for r in rows if not (r[1].startswith("__") and r[1].endswith("__"))]
    picked = random.Random(seed).sample(rows, min(size, len(rows)))
    return [{"selector": s, "name": n, "kind": k} for s, n, k in picked]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sample", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workdir", default="/tmp/rename-safety")
    parser.add_argument("--out", default=str(Path(__file__).parent / "results" / "rename_safety.json"))
    args = parser.parse_args(argv)
    workdir = Path(args.workdir)
    pristine = fetch(workdir)
    root = workdir / "work"
    if root.exists():
        shutil.rmtree(root)
    shutil.copytree(pristine, root)
    baseline_ok, baseline_tail = run_tests(root)
    if not baseline_ok:
        print(f"click's tests fail before any rename: {baseline_tail}", file=sys.stderr)
        return 1
    workspaces = Workspaces(root.resolve())
    workspaces.get(None).plans.state_dir = workdir / "state"
    results: list[dict[str, Any]] = []
    for item in sample(workspaces, args.sample, args.seed):
        new_name = f"{item['name']}_rn"
        t0 = time.perf_counter()
        prepared = call_tool(
            workspaces, "ast_rename_symbol", {"selector": item["selector"], "new_name": new_name}
        )
        record = {**item, "new_name": new_name, "prepare_s": round(time.perf_counter() - t0, 3)}
        if prepared.is_error:
            record.update(
                outcome="refused",
                detail=prepared.data["error"]["code"] + ": " + prepared.data["error"]["message"],
            )
        elif prepared.data["blocked"]:
            record.update(outcome="blocked", detail=prepared.data["block_reason"])
        else:
            plan = prepared.data
            applied = call_tool(
                workspaces,
                "ast_apply_operation",
                {"operation_id": plan["operation_id"], "plan_hash": plan["plan_hash"]},
            )
            if applied.is_error:
                record.update(outcome="apply_failed", detail=applied.text)
            else:
                ok, tail = run_tests(root)
                if not ok:  # tell a real break from a flaky test: a break fails again
                    again, _ = run_tests(root)
                    if again:
                        tail = f"flaky: failed once ({tail}), passed on rerun"
                    ok = again
                record.update(
                    outcome="clean" if ok else "broken",
                    detail=tail,
                    references=plan["reference_count"],
                    files=len(plan["affected_files"]),
                )
                for changed in applied.data["affected_files"]:
                    (root / changed).write_bytes((pristine / changed).read_bytes())
        results.append(record)
        print(f"{record['outcome']:>8}  {item['selector']}  {record.get('detail', '')[:110]}", flush=True)
    workspaces.close()
    counts: dict[str, int] = {}
    for record in results:
        counts[record["outcome"]] = counts.get(record["outcome"], 0) + 1
    summary = {
        "corpus": CLICK,
        "sample": len(results),
        "seed": args.seed,
        "counts": counts,
        "results": results,
    }
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    print("| outcome | count |\n|---|---|")
    for outcome in ("clean", "broken", "blocked", "refused", "apply_failed"):
        print(f"| {outcome} | {counts.get(outcome, 0)} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
