"""Agent-workflow token benchmark: grep + read vs astmcp on real corpora.

    python benchmarks/workflows/run.py [--tasks ID,ID] [--no-readme]

Fetches the corpora from the registries (cached in benchmarks/.cache), builds each
index once (timed apart), replays both strategies of every task and writes
benchmarks/results/workflows.json and a table in benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from harness import Astmcp, GrepRead, score  # noqa: E402

TASKS = HERE / "tasks.json"


def load_tasks(ids: set[str] | None = None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    spec = json.loads(TASKS.read_text(encoding="utf-8"))
    tasks = [t for t in spec["tasks"] if ids is None or t["id"] in ids]
    return spec["corpora"], tasks


def corpus_root(corpora: dict[str, Any], name: str) -> Path:
    from _corpora import fetch_npm, fetch_pypi_sdist

    info = corpora[name]
    if "pypi" in info:
        package, version = info["pypi"].split("==")
        return fetch_pypi_sdist(package, version)
    package, _, version = info["npm"].rpartition("@")
    root = fetch_npm(package, version)
    return root / info["subdir"] if info.get("subdir") else root


def run_tasks(tasks: list[dict[str, Any]], corpora: dict[str, Any]) -> dict[str, Any]:
    agents: dict[str, tuple[GrepRead, Astmcp]] = {}
    index_seconds: dict[str, float] = {}
    rows = []
    for task in tasks:
        name = task["corpus"]
        if name not in agents:
            root = corpus_root(corpora, name)
            start = time.perf_counter()
            astmcp = Astmcp(root)
            index_seconds[name] = round(time.perf_counter() - start, 2)
            agents[name] = (GrepRead(root), astmcp)
        grep_read, astmcp = agents[name]
        baseline = score(task, grep_read.run(task["baseline"]))
        ours = score(task, astmcp.run(task["astmcp"]))
        rows.append(
            {
                "id": task["id"],
                "corpus": name,
                "kind": task["kind"],
                "baseline": baseline,
                "astmcp": ours,
                "saving": round(baseline["tokens"] / max(ours["tokens"], 1), 2),
            }
        )
    savings = [r["saving"] for r in rows]
    return {
        "tasks": rows,
        "median_saving": round(statistics.median(savings), 2) if savings else None,
        "median_baseline_tokens": statistics.median(r["baseline"]["tokens"] for r in rows) if rows else None,
        "median_astmcp_tokens": statistics.median(r["astmcp"]["tokens"] for r in rows) if rows else None,
        "evidence_lost": [r["id"] for r in rows if not r["astmcp"]["evidence_complete"]],
        "baseline_evidence_lost": [r["id"] for r in rows if not r["baseline"]["evidence_complete"]],
        "index_seconds": index_seconds,
    }


def table(result: dict[str, Any]) -> str:
    lines = [
        "| task | kind | baseline tokens / trips | astmcp tokens / trips | saving | evidence (base / astmcp)"
        " | wall ms (base / astmcp) |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in result["tasks"]:
        b, a = r["baseline"], r["astmcp"]
        ev = f"{'ok' if b['evidence_complete'] else 'MISSING'} / {'ok' if a['evidence_complete'] else 'MISSING'}"
        lines.append(
            f"| {r['id']} | {r['kind']} | {b['tokens']:,} / {b['round_trips']} | {a['tokens']:,} / {a['round_trips']}"
            f" | {r['saving']}x | {ev} | {b['seconds'] * 1000:.0f} / {a['seconds'] * 1000:.0f} |"
        )
    lines.append(
        f"| **median** | | {result['median_baseline_tokens']:,.0f} | {result['median_astmcp_tokens']:,.0f}"
        f" | **{result['median_saving']}x** | | |"
    )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tasks", help="comma-separated task ids (default: all)")
    parser.add_argument("--no-readme", action="store_true")
    args = parser.parse_args()
    ids = set(args.tasks.split(",")) if args.tasks else None
    corpora, tasks = load_tasks(ids)
    result = run_tasks(tasks, corpora)
    out = HERE.parent / "results" / "workflows.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(table(result))
    for r in result["tasks"]:
        for side in ("baseline", "astmcp"):
            if r[side]["missing"]:
                print(f"{r['id']} {side} missing: {r[side]['missing']}", file=sys.stderr)
    if not args.no_readme and ids is None:
        from _corpora import update_readme_section

        update_readme_section(
            "workflows", "Agent workflows: grep + read vs astmcp (o200k tokens)", table(result)
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
