"""Rename prepare speed: ~100 references in ~20 files, warm index (target ≤ 1 s).

Builds a synthetic project (generated here, no third-party source): ``pkg/core.py``
defines ``helper``; 20 modules import it and call it 5 times each; ``--filler``
other modules make the workspace realistic. Measures the cold index, then the
median of ``--runs`` warm prepares (``ast_rename_symbol``) and one apply.

    python benchmarks/plan_speed.py [--filler 400] [--runs 7]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from astmcp.tools import call_tool
from astmcp.workspace import Workspaces

CALLERS = 20
CALLS_PER_FILE = 5


def build(root: Path, filler: int) -> None:
    pkg = root / "pkg"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "core.py").write_text('def helper(x):\n    """Double x."""\n    return x * 2\n', encoding="utf-8")
    for i in range(CALLERS):
        calls = "\n".join(f"    total += helper({n})" for n in range(CALLS_PER_FILE))
        (pkg / f"user{i}.py").write_text(
            f"from pkg.core import helper\n\n\ndef run{i}():\n    total = 0\n{calls}\n    return total\n",
            encoding="utf-8",
        )
    for i in range(filler):
        body = "\n".join(f"def f{i}_{n}(a, b):\n    return a + b * {n}\n\n" for n in range(10))
        (pkg / f"filler{i}.py").write_text(f"import os\n\n\n{body}", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--filler", type=int, default=400)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--out", default=str(Path(__file__).parent / "results" / "plan_speed.json"))
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp).resolve() / "proj"
        build(root, args.filler)
        workspaces = Workspaces(root)
        ws = workspaces.get(None)
        ws.plans.state_dir = Path(tmp) / "state"
        t0 = time.perf_counter()
        ws.db()
        cold_index = time.perf_counter() - t0
        request = {"selector": "pkg/core.py::helper", "new_name": "assist"}
        times: list[float] = []
        plan: dict[str, object] = {}
        for _ in range(args.runs):
            t0 = time.perf_counter()
            result = call_tool(workspaces, "ast_rename_symbol", request)
            times.append(time.perf_counter() - t0)
            if result.is_error:
                print(result.text, file=sys.stderr)
                return 1
            plan = result.data
        t0 = time.perf_counter()
        applied = call_tool(
            workspaces,
            "ast_apply_operation",
            {"operation_id": plan["operation_id"], "plan_hash": plan["plan_hash"]},
        )
        apply_s = time.perf_counter() - t0
        if applied.is_error:
            print(applied.text, file=sys.stderr)
            return 1
        workspaces.close()
    result_doc = {
        "benchmark": "plan_speed",
        "files": CALLERS + args.filler + 2,
        "affected_files": len(plan["affected_files"]),  # type: ignore[arg-type]
        "reference_count": plan["reference_count"],
        "cold_index_s": round(cold_index, 3),
        "prepare_s_median": round(statistics.median(times), 3),
        "prepare_s_min": round(min(times), 3),
        "prepare_s_max": round(max(times), 3),
        "apply_s": round(apply_s, 3),
        "runs": args.runs,
        "target_prepare_s": 1.0,
    }
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result_doc, indent=2) + "\n", encoding="utf-8")
    print("| what | value |\n|---|---|")
    for key, value in result_doc.items():
        print(f"| {key} | {value} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
