"""Rename safety on real code: a seeded sample of symbols renamed with astmcp, each applied rename
checked by an independent oracle, then reverted.

- ``--corpus click``: click 8.5.1 (``pip download``), checked by click's own test suite.
- ``--corpus zod``: zod 4.6.7 ``src`` (``npm pack``), checked by ``tsc --noEmit`` from typescript 7
  (``npm install`` into the work dir): a rename is broken when it adds any diagnostic
  (multiset on code, file, message; positions ignored).

Outcomes per symbol: ``clean`` (applied, tests pass), ``broken`` (applied, tests fail — a bug),
``blocked`` (plan prepared but blocked: uncertain references or new errors), ``refused``
(NAME_COLLISION / MUTATION_BLOCKED / other error before a plan). The corpus is fetched with
``pip download`` at run time; nothing third-party is committed.

    python benchmarks/rename_safety.py [--corpus click|zod] [--sample 50] [--seed 0] [--workdir DIR]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import subprocess
import sys
import tarfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from astmcp.tools import call_tool
from astmcp.workspace import Workspaces

CLICK = "click==8.5.1"
ZOD = "zod@4.6.7"
TYPESCRIPT = "typescript@7.0.2"
KINDS = ("function", "method", "class", "variable", "property", "attribute")
TS_KINDS = ("function", "method", "class", "interface", "type", "enum", "variable", "property")
TSCONFIG = {
    "compilerOptions": {
        "strict": True,
        "noEmit": True,
        "target": "es2022",
        "module": "nodenext",
        "moduleResolution": "nodenext",
        "skipLibCheck": True,
        "lib": ["es2022", "dom"],
        "types": [],
    },
    "include": ["src"],
}


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


def fetch_zod(workdir: Path) -> Path:
    pristine = workdir / "pristine"
    if pristine.is_dir():
        return pristine
    workdir.mkdir(parents=True, exist_ok=True)
    subprocess.run(["npm", "pack", ZOD], cwd=workdir, check=True, capture_output=True)
    tools = workdir / "tsc"
    tools.mkdir(exist_ok=True)
    subprocess.run(
        ["npm", "install", "--no-save", "--no-audit", "--no-fund", TYPESCRIPT],
        cwd=tools,
        check=True,
        capture_output=True,
    )
    archive = next(workdir.glob("zod-*.tgz"))
    unpacked = workdir / "unpacked"
    with tarfile.open(archive) as tar:
        tar.extractall(unpacked, filter="data")
    pristine.mkdir()
    shutil.copytree(unpacked / "package" / "src", pristine / "src")
    (pristine / "tsconfig.json").write_text(json.dumps(TSCONFIG, indent=2), encoding="utf-8")
    (pristine / "package.json").write_text('{"type": "module"}\n', encoding="utf-8")
    return pristine


def tsc_errors(root: Path, tsc: Path) -> list[str]:
    proc = subprocess.run([str(tsc), "-p", "."], cwd=root, capture_output=True, text=True, check=False)
    out = []
    for line in proc.stdout.splitlines():
        match = re.match(r"^(.+?)\(\d+,\d+\): error (TS\d+): (.*)$", line)
        if match:
            out.append(f"{match.group(2)} {match.group(1)} {match.group(3)}")
    return sorted(out)


def ts_oracle(root: Path, tsc: Path, baseline: list[str]) -> tuple[bool, str]:
    added = list((Counter(tsc_errors(root, tsc)) - Counter(baseline)).elements())
    return not added, f"{len(added)} new tsc error(s)" + (f": {added[0][:160]}" if added else "")


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


def sample(workspaces: Workspaces, size: int, seed: int, corpus: str = "click") -> list[dict[str, Any]]:
    conn = workspaces.get(None).db()
    kinds = KINDS if corpus == "click" else TS_KINDS
    where = (
        "f.path LIKE 'src/click/%'"
        if corpus == "click"
        else "f.path NOT LIKE '%test%' AND f.path LIKE 'src/%'"
    )
    marks = ",".join("?" * len(kinds))
    rows = conn.execute(
        f"SELECT s.selector, s.name, s.kind FROM symbols s JOIN files f ON f.id = s.file_id"
        f" WHERE {where} AND s.kind IN ({marks}) ORDER BY s.selector",
        kinds,
    ).fetchall()
    rows = [r for r in rows if not (r[1].startswith("__") and r[1].endswith("__"))]
    picked = random.Random(seed).sample(rows, min(size, len(rows)))
    return [{"selector": s, "name": n, "kind": k} for s, n, k in picked]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", choices=("click", "zod"), default="click")
    parser.add_argument("--sample", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workdir", default=None)
    parser.add_argument("--out", default=None)
    args = parser.parse_args(argv)
    workdir = Path(args.workdir or f"/tmp/rename-safety-{args.corpus}")
    out_default = Path(__file__).parent / "results" / f"rename_safety_{args.corpus}.json"
    pristine = fetch(workdir) if args.corpus == "click" else fetch_zod(workdir)
    root = workdir / "work"
    if root.exists():
        shutil.rmtree(root)
    shutil.copytree(pristine, root)
    if args.corpus == "click":
        baseline_ok, baseline_tail = run_tests(root)
        if not baseline_ok:
            print(f"click's tests fail before any rename: {baseline_tail}", file=sys.stderr)
            return 1

        def oracle() -> tuple[bool, str]:
            return run_tests(root)
    else:
        tsc = workdir / "tsc" / "node_modules" / ".bin" / "tsc"
        baseline = tsc_errors(root, tsc)

        def oracle() -> tuple[bool, str]:
            return ts_oracle(root, tsc, baseline)

    workspaces = Workspaces(root.resolve())
    workspaces.get(None).plans.state_dir = workdir / "state"
    results: list[dict[str, Any]] = []
    for item in sample(workspaces, args.sample, args.seed, args.corpus):
        new_name = f"{item['name']}_rn" if args.corpus == "click" else f"{item['name']}Rn"
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
                ok, tail = oracle()
                if not ok:  # tell a real break from a flaky test: a break fails again
                    again, _ = oracle()
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
    out = Path(args.out) if args.out else out_default
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    print("| outcome | count |\n|---|---|")
    for outcome in ("clean", "broken", "blocked", "refused", "apply_failed"):
        print(f"| {outcome} | {counts.get(outcome, 0)} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
