"""Parameter rename safety on click 8.5.1: a seeded sample of function/method parameters of
``src/click`` renamed with astmcp (``<file>::<function>.<param>`` selectors), each applied rename
checked by click's own test suite, then reverted.

Outcomes as in ``rename_safety.py``: ``clean`` (applied, tests pass), ``broken`` (applied, tests
fail), ``blocked`` (uncertain references: calls reached by name only, ``**mapping`` arguments,
decorator strings), ``refused`` (NAME_COLLISION / MUTATION_BLOCKED / other error). ``self``/``cls``
are left out (no call passes them by keyword).

    python benchmarks/param_rename_safety.py [--sample 50] [--seed 0] [--keywords] [--workdir DIR]
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import time
from pathlib import Path
from typing import Any

from _corpora import fetch_pypi_sdist, update_readme_section
from rename_safety import run_tests

from astmcp.query.common import query_symbols
from astmcp.query.parameters import parameters_of
from astmcp.tools import call_tool
from astmcp.workspace import Workspaces

TITLE = "Parameter rename safety (click 8.5.1, click's tests as the oracle)"
RESULTS = Path(__file__).parent / "results"
OUTCOMES = ("clean", "broken", "blocked", "refused", "apply_failed")


def sample(workspaces: Workspaces, size: int, seed: int, keywords: bool) -> list[dict[str, Any]]:
    """Parameters of ``src/click`` functions; with ``keywords``, only names some call in the
    project passes as ``name=`` (the renames that must edit call sites)."""
    ws = workspaces.get(None)
    conn = ws.db()
    passed = {
        name
        for (name,) in conn.execute(
            "SELECT DISTINCT r.name FROM refs r WHERE r.kind = 'write' AND r.target_key LIKE '%/=' || r.name"
        )
    }
    functions = query_symbols(
        conn, "f.path LIKE 'src/click/%' AND s.kind IN ('function', 'method') ORDER BY s.selector"
    )
    params = [
        {"selector": p.selector, "name": p.name, "kind": p.kind}
        for function in functions
        for p in parameters_of(ws, function)
        if p.name not in ("self", "cls") and (not keywords or p.name in passed)
    ]
    return random.Random(seed).sample(params, min(size, len(params)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sample", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workdir", default=None)
    parser.add_argument("--keywords", action="store_true", help="only names some call passes as name=")
    parser.add_argument("--out", default=None)
    args = parser.parse_args(argv)
    suffix = "_keywords" if args.keywords else ""
    workdir = Path(args.workdir or f"/tmp/param-rename-safety-click{suffix}")
    pristine = fetch_pypi_sdist("click", "8.5.1")
    root = workdir / "work"
    shutil.rmtree(root, ignore_errors=True)
    # a fresh index, as a new user's: none a tool left in the cached corpus
    shutil.copytree(pristine, root, ignore=shutil.ignore_patterns(".astmcp"))
    baseline_ok, baseline_tail = run_tests(root)
    if not baseline_ok:
        print(f"click's tests fail before any rename: {baseline_tail}", file=sys.stderr)
        return 1
    workspaces = Workspaces(root.resolve())
    workspaces.get(None).plans.state_dir = workdir / "state"
    results: list[dict[str, Any]] = []
    for item in sample(workspaces, args.sample, args.seed, args.keywords):
        new_name = f"{item['name']}_rn"
        t0 = time.perf_counter()
        prepared = call_tool(
            workspaces, "ast_rename_symbol", {"selector": item["selector"], "new_name": new_name}
        )
        record = {**item, "new_name": new_name, "prepare_s": round(time.perf_counter() - t0, 3)}
        if prepared.is_error:
            error = prepared.data["error"]
            record.update(outcome="refused", detail=f"{error['code']}: {error['message']}")
        elif prepared.data["blocked"]:
            uncertain = prepared.data["uncertain_references"]
            record.update(outcome="blocked", detail=f"{len(uncertain)} uncertain: {uncertain[0]['context']}")
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
                    tail = f"flaky: failed once ({tail}), passed on rerun" if again else tail
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
    prepare = sorted(r["prepare_s"] for r in results)
    summary = {
        "corpus": "click==8.5.1",
        "sample": len(results),
        "seed": args.seed,
        "keywords": args.keywords,
        "counts": counts,
        "prepare_median_s": prepare[len(prepare) // 2] if prepare else None,
        "prepare_max_s": prepare[-1] if prepare else None,
    }
    out = Path(args.out) if args.out else RESULTS / f"param_rename_safety_click{suffix}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({**summary, "results": results}, indent=2) + "\n", encoding="utf-8")
    if args.out is None:
        update_readme_section("param_rename_safety", TITLE, readme_body())
    print(json.dumps(summary))
    return 0


def readme_body() -> str:
    """Both samples (all parameters; parameters some call passes by keyword) from their result files."""
    rows = []
    for suffix, what in (("", "any parameter"), ("_keywords", "passed as `name=` somewhere")):
        path = RESULTS / f"param_rename_safety_click{suffix}.json"
        if not path.exists():
            continue
        data = json.loads(path.read_text(encoding="utf-8"))
        counts = data["counts"]
        cells = " | ".join(str(counts.get(o, 0)) for o in OUTCOMES)
        flag = " --keywords" if data.get("keywords") else ""
        rows.append(
            f"| {what} (`--sample {data['sample']} --seed {data['seed']}{flag}`) | {cells}"
            f" | {data.get('prepare_median_s')} s / {data.get('prepare_max_s')} s |"
        )
    return (
        "`python benchmarks/param_rename_safety.py [--keywords]`: parameters of `src/click` functions and"
        " methods (not `self`/`cls`) renamed to `<name>_rn` through `<file>::<function>.<param>` selectors;"
        " an applied rename counts as clean only if click's 2,434 tests still pass (then it is reverted).\n\n"
        f"| sample | {' | '.join(OUTCOMES)} | prepare median / max |\n"
        f"|---|{'---|' * len(OUTCOMES)}---|\n" + "\n".join(rows) + "\n\n"
        "Blocked plans are `name` hits: calls reached by name only, `**mapping` arguments, decorator strings"
        ' (`@click.option("--name")`), keywords passed into another function\'s forwarded `**kwargs`, calls'
        " that take the function as an argument (`ctx.invoke(f, name=…)`).\n"
    )


if __name__ == "__main__":
    raise SystemExit(main())
