"""Soak: 10,000 mixed read calls against one ``ast-mcp-server`` process on rich 15.0.0.

    python benchmarks/soak.py [--calls 10000] [--seed 7] [--warmup 500]

Starts the installed server over real stdio with the MCP SDK client, builds a
pool of targets (files, selectors, names) from the index, then issues a seeded
mix of every read tool, one call at a time. Reports per-tool and overall
latency percentiles of the whole round trip, error count, and the server
process's RSS (``/proc/<pid>/status`` VmRSS) after the warm-up and at the end;
RSS growth is measured from the end of the warm-up (the index connection,
caches and imported engines are in place by then). Target: growth ≤ 10 %, no
errors. Results go to ``benchmarks/results/soak.json`` and the ``soak``
section of ``benchmarks/README.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _corpora import fetch_pypi_sdist, update_readme_section

RESULTS = Path(__file__).resolve().parent / "results" / "soak.json"
SERVER = Path(sys.executable).with_name("ast-mcp-server")
TARGET_RSS_GROWTH = 0.10

Call = tuple[str, dict[str, Any]]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text(encoding="utf-8").splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for pid {pid}")


def server_pid() -> int:
    """The one ``ast-mcp-server`` child of this process (the SDK does not expose the pid)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text(encoding="utf-8").rsplit(")", 1)[1].split()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if int(fields[1]) == os.getpid() and b"ast-mcp-server" in cmdline:
            found.append(int(entry.name))
    if len(found) != 1:
        raise RuntimeError(f"expected one ast-mcp-server child, found {found}")
    return found[0]


def structured(result: Any) -> dict[str, Any]:
    data = result.structured_content
    if data is None:
        data = json.loads(result.content[0].text)
    return dict(data)


def make_mix(pool: dict[str, list[str]], rng: random.Random) -> list[Callable[[], Call]]:
    """Weighted generators of calls, roughly what an agent's read flow looks like."""

    def pick(key: str) -> str:
        return rng.choice(pool[key])

    def q() -> str:
        name = pick("names")
        return name[: rng.randint(3, len(name))] if len(name) > 3 else name

    mix: list[tuple[int, Callable[[], Call]]] = [
        (20, lambda: ("ast_search_symbols", {"query": q(), "detail": rng.choice(["selectors", "summary"])})),
        (15, lambda: ("ast_get_outline", {"file_path": pick("files")})),
        (15, lambda: ("ast_get_symbol_source", {"selector": pick("selectors"), "max_bytes": 8192})),
        (15, lambda: ("ast_find_references", {"selector": pick("selectors"), "limit": 50})),
        (10, lambda: ("ast_list_files", {"glob": "rich/*.py", "offset": rng.randint(0, 80), "limit": 20})),
        (10, lambda: ("ast_get_diagnostics", {"file_path": pick("files")})),
        (
            10,
            lambda: (
                "ast_inspect_graph",
                {
                    "question": "who calls this",
                    "draft": "details of one symbol",
                    "review": "smallest request",
                    "request": rng.choice(
                        [
                            {"type": "details", "handles": [pick("selectors")], "neighbors": False},
                            {"type": "lookup", "query": pick("names"), "limit": 5},
                            {"type": "trace", "from": pick("selectors"), "direction": "reverse"},
                        ]
                    ),
                },
            ),
        ),
        (
            5,
            lambda: (
                "ast_get_outline",
                {"file_path": pick("files"), "include_symbols": True, "max_bytes": 1 << 20},
            ),
        ),
    ]
    weighted: list[Callable[[], Call]] = []
    for weight, make in mix:
        weighted.extend([make] * weight)
    return weighted


async def soak(root: Path, calls: int, warmup: int, seed: int, state: Path) -> dict[str, Any]:
    params = StdioServerParameters(
        command=str(SERVER),
        args=["--root", str(root), "--no-warm"],
        env={**os.environ, "AST_TOOL_STATE_DIR": str(state)},
    )
    rng = random.Random(seed)
    async with Client(params) as client:
        pid = server_pid()
        rss_start = rss_kib(pid)
        started = time.perf_counter()
        listing = structured(await client.call_tool("ast_list_files", {"glob": "rich/*.py", "limit": 500}))
        index_s = time.perf_counter() - started
        files = [f["file"] for f in listing["files"]]
        symbols: list[dict[str, Any]] = []
        for kind in ("class", "function", "method"):
            found = structured(
                await client.call_tool(
                    "ast_search_symbols",
                    {"query": "_", "kinds": [kind], "detail": "full", "limit": 200, "max_bytes": 1 << 20},
                )
            )
            symbols.extend(found["symbols"])
        pool = {
            "files": files,
            "selectors": [s["selector"] for s in symbols],
            "names": sorted({s["name"] for s in symbols}),
        }
        mix = make_mix(pool, rng)
        latencies: dict[str, list[float]] = defaultdict(list)
        errors: Counter[str] = Counter()
        error_samples: list[str] = []
        rss_after_warmup = rss_start
        rss_samples: list[tuple[int, int]] = []
        for i in range(warmup + calls):
            if i == warmup:
                rss_after_warmup = rss_kib(pid)
            name, arguments = rng.choice(mix)()
            t0 = time.perf_counter()
            result = await client.call_tool(name, arguments)
            elapsed = (time.perf_counter() - t0) * 1000
            if i < warmup:
                continue
            latencies[name].append(elapsed)
            if result.is_error:
                text = result.content[0].text if result.content else ""
                code = json.loads(text).get("error", {}).get("code", "?") if text.startswith("{") else "?"
                # NOT_FOUND/AMBIGUOUS on a random prefix are answers, not failures of the server.
                if code not in ("NOT_FOUND", "AMBIGUOUS_TARGET"):
                    errors[f"{name}:{code}"] += 1
                    if len(error_samples) < 5:
                        error_samples.append(f"{name} {json.dumps(arguments)[:200]} -> {text[:300]}")
            if (i - warmup) % 1000 == 999:
                rss_samples.append((i - warmup + 1, rss_kib(pid)))
                print(f"  {i - warmup + 1} calls, RSS {rss_samples[-1][1] / 1024:.1f} MiB", file=sys.stderr)
        rss_end = rss_kib(pid)
    everything = [v for values in latencies.values() for v in values]
    growth = (rss_end - rss_after_warmup) / rss_after_warmup
    return {
        "corpus": "rich 15.0.0",
        "calls": calls,
        "warmup_calls": warmup,
        "seed": seed,
        "first_call_with_index_s": round(index_s, 2),
        "pool": {k: len(v) for k, v in pool.items()},
        "latency_ms": {
            "p50": round(percentile(everything, 0.50), 2),
            "p95": round(percentile(everything, 0.95), 2),
            "p99": round(percentile(everything, 0.99), 2),
            "max": round(max(everything), 2),
        },
        "per_tool": {
            name: {
                "calls": len(values),
                "p50_ms": round(percentile(values, 0.50), 2),
                "p95_ms": round(percentile(values, 0.95), 2),
                "p99_ms": round(percentile(values, 0.99), 2),
            }
            for name, values in sorted(latencies.items())
        },
        "errors": sum(errors.values()),
        "errors_by_tool_code": dict(errors),
        "error_samples": error_samples,
        "rss_mib": {
            "start": round(rss_start / 1024, 1),
            "after_warmup": round(rss_after_warmup / 1024, 1),
            "end": round(rss_end / 1024, 1),
            "samples": [[n, round(kib / 1024, 1)] for n, kib in rss_samples],
        },
        "rss_growth": round(growth, 4),
        "ok": growth <= TARGET_RSS_GROWTH and not errors,
    }


def readme_body(r: dict[str, Any]) -> str:
    lat = r["latency_ms"]
    rss = r["rss_mib"]
    rows = "\n".join(
        f"| `{name}` | {t['calls']} | {t['p50_ms']} | {t['p95_ms']} | {t['p99_ms']} |"
        for name, t in r["per_tool"].items()
    )
    return (
        f"`python benchmarks/soak.py --calls {r['calls']} --seed {r['seed']}` — {r['corpus']}, one "
        f"`ast-mcp-server` over stdio (MCP SDK client), {r['calls']:,} mixed read calls one at a time after "
        f"{r['warmup_calls']} warm-up calls; latency is the client's round trip (each call re-stats the tree).\n\n"
        f"- latency p50 **{lat['p50']} ms**, p95 **{lat['p95']} ms**, p99 **{lat['p99']} ms** (max {lat['max']} ms)\n"
        f"- errors: **{r['errors']}** (NOT_FOUND on random name prefixes counts as an answer)\n"
        f"- server RSS: {rss['start']} MiB at start, {rss['after_warmup']} MiB after warm-up, {rss['end']} MiB "
        f"at the end → growth **{r['rss_growth'] * 100:.1f} %** (target ≤ 10 %)\n\n"
        "| tool | calls | p50 ms | p95 ms | p99 ms |\n|---|---|---|---|---|\n" + rows + "\n\n"
        "Raw numbers, RSS every 1,000 calls: `benchmarks/results/soak.json`."
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=10_000)
    parser.add_argument("--warmup", type=int, default=500)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--no-readme", action="store_true", help="print only; do not write results")
    args = parser.parse_args()
    root = fetch_pypi_sdist("rich", "15.0.0")
    state = Path(tempfile.mkdtemp(prefix="astmcp-soak-state-"))
    try:
        result = anyio.run(soak, root, args.calls, args.warmup, args.seed, state)
    finally:
        shutil.rmtree(state, ignore_errors=True)
    print(json.dumps(result, indent=2))
    if not args.no_readme:
        RESULTS.parent.mkdir(parents=True, exist_ok=True)
        RESULTS.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
        update_readme_section("soak", "Soak: 10,000 read calls on one server (rich)", readme_body(result))
    if not result["ok"]:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
