"""Warm ``ast_find_references`` latency on django 5.2.19.

    python benchmarks/query_speed.py [--symbols 200] [--seed 3]

Indexes django once (cold build timed and reported), then calls the tool
through ``tools.call_tool`` (the boundary every front door uses) for a seeded
sample of symbols across kinds, twice each; the second round is the warm one.
Reports p50/p95 of the whole call (which re-stats the tree first, SPEC §8) and
of the query alone (``collect_references`` on an already refreshed index).
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _corpora import fetch_pypi_sdist, update_readme_section

from astmcp.query.common import query_symbols
from astmcp.query.references import collect_references
from astmcp.tools import call_tool
from astmcp.workspace import Workspaces

RESULTS = Path(__file__).resolve().parent / "results" / "query_speed.json"
KINDS = ("function", "class", "method", "property", "attribute", "variable")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--symbols", type=int, default=200)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--keep-index", action="store_true", help="reuse an existing index (no cold build)")
    args = parser.parse_args()
    root = fetch_pypi_sdist("django", "5.2.19")
    if not args.keep_index:
        shutil.rmtree(root / ".astmcp", ignore_errors=True)
    workspaces = Workspaces(root)
    ws = workspaces.get(str(root))
    started = time.perf_counter()
    stats = ws.index.refresh()
    cold_s = time.perf_counter() - started
    conn = ws.index.conn
    rows = [
        r
        for r in query_symbols(
            conn, "s.kind IN ('function','class','method','property','attribute','variable')"
        )
    ]
    rng = random.Random(args.seed)
    rows = [r for r in rows if "@" not in r.selector]
    sample = rng.sample(rows, min(args.symbols, len(rows)))
    call_ms: list[float] = []
    query_ms: list[float] = []
    counts: list[int] = []
    for round_ in range(2):
        for row in sample:
            t0 = time.perf_counter()
            result = call_tool(workspaces, "ast_find_references", {"selector": row.selector})
            t1 = time.perf_counter()
            refs = collect_references(ws, conn, row)
            t2 = time.perf_counter()
            assert not result.is_error, result.text
            if round_:
                call_ms.append((t1 - t0) * 1000)
                query_ms.append((t2 - t1) * 1000)
                counts.append(len(refs))
    refresh_t0 = time.perf_counter()
    ws.index.refresh()
    refresh_ms = (time.perf_counter() - refresh_t0) * 1000
    out: dict[str, Any] = {
        "corpus": "django 5.2.19",
        "files": stats.files,
        "cold_index_s": round(cold_s, 2),
        "cold_parse_s": round(stats.parse_s, 2),
        "cold_write_and_link_s": round(stats.write_s, 2),
        "symbols": len(sample),
        "call_p50_ms": round(statistics.median(call_ms), 1),
        "call_p95_ms": round(percentile(call_ms, 0.95), 1),
        "query_p50_ms": round(statistics.median(query_ms), 1),
        "query_p95_ms": round(percentile(query_ms, 0.95), 1),
        "query_max_ms": round(max(query_ms), 1),
        "refresh_nothing_changed_ms": round(refresh_ms, 1),
        "refs_p50": statistics.median(counts),
        "refs_max": max(counts),
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(out, indent=1), encoding="utf-8")
    body = "\n".join(
        [
            f"`python benchmarks/query_speed.py --symbols {args.symbols} --seed {args.seed}` — {len(sample)} symbols",
            "sampled across kinds; each asked twice, the second (warm) round timed. *call* goes through",
            "`tools.call_tool` and includes the refresh that re-stats the tree; *query* is `collect_references`",
            "alone on the refreshed index.",
            "",
            "| what | value | target |",
            "|---|---|---|",
            f"| warm call p50 / p95 | {out['call_p50_ms']} / {out['call_p95_ms']} ms | 30 / 150 ms |",
            f"| warm query p50 / p95 (max) | {out['query_p50_ms']} / {out['query_p95_ms']} ms ({out['query_max_ms']}) |"
            " |",
            f"| refresh, nothing changed | {out['refresh_nothing_changed_ms']} ms | 500 ms |",
            f"| references per symbol p50 / max | {out['refs_p50']} / {out['refs_max']} | |",
            f"| cold index incl. linking ({out['files']} files) | {out['cold_index_s']} s (parse {out['cold_parse_s']} s,"
            f" write+link {out['cold_write_and_link_s']} s) | 30 s |",
        ]
    )
    update_readme_section("query_speed", "ast_find_references speed on django", body)
    print(json.dumps(out, indent=1))
    workspaces.close()


if __name__ == "__main__":
    main()
