"""Every exported declaration the TypeScript compiler sees is found by ast_search_symbols.

For zod 4.6.7, rxjs 7.8.2 and effect 4.1.0 (``npm pack``, ``package/src``), the
oracle ``ts_exports_oracle.cjs`` asks ``typescript@6.0.3``'s compiler API for the
exports of every module (aliases and ``export *`` followed to the declarations,
exported namespace members with their dotted path). Each one is then looked up
through :func:`astmcp.tools.call_tool` exactly as an agent would:
``ast_search_symbols(query=<path>, file_glob=<declaring file>)``; it counts as found
when a hit in that file has that name. ``export * as ns from`` bindings are
looked up in the re-exporting file. Target: 100 %.

    python benchmarks/ts_exports.py [--corpora zod,rxjs,effect]
"""

from __future__ import annotations

import argparse
import json
import platform
import shutil
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _corpora import CACHE, fetch_npm, npm_tool, update_readme_section

from astmcp.tools import call_tool
from astmcp.workspace import Workspaces

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "ts_exports.json"
ORACLE = HERE / "ts_exports_oracle.cjs"
TYPESCRIPT = ("typescript", "6.0.3")
RAISED_LIMIT = 8 * 1024 * 1024


@dataclass(frozen=True)
class Corpus:
    name: str
    label: str
    version: str
    config: str | None  # tsconfig (relative to package/) whose paths the oracle needs


CORPORA = {
    "zod": Corpus("zod", "zod 4.6.7", "4.6.7", None),
    "rxjs": Corpus("rxjs", "rxjs 7.8.2", "7.8.2", "tsconfig.json"),
    "effect": Corpus("effect", "effect 4.1.0", "4.1.0", None),
}


def oracle(typescript: Path, root: Path, config: Path | None) -> list[dict[str, Any]]:
    args = ["node", str(ORACLE), str(typescript), str(root)] + ([str(config)] if config else [])
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def found(workspaces: Workspaces, record: dict[str, Any]) -> bool:
    result = call_tool(
        workspaces,
        "ast_search_symbols",
        {"query": record["path"], "file_glob": record["file"], "detail": "full", "limit": 100},
    )
    if result.is_error:
        return False
    return any(
        hit.get("file") == record["file"] and hit.get("name") == record["name"]
        for hit in result.data["symbols"]
    )


def run_corpus(corpus: Corpus, typescript: Path) -> dict[str, Any]:
    package = fetch_npm(corpus.name, corpus.version)
    # A private copy: the index writes <root>/.astmcp, and other benchmarks share the cache.
    root = CACHE / "ts_exports" / f"{corpus.name}-{corpus.version}"
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(package / "src", root, ignore=shutil.ignore_patterns(".astmcp"))
    config = package / corpus.config if corpus.config else None
    t0 = time.perf_counter()
    records = oracle(typescript, root, config)
    oracle_s = time.perf_counter() - t0
    workspaces = Workspaces(root)
    t1 = time.perf_counter()
    stats = workspaces.get(None).index.refresh()
    index_s = time.perf_counter() - t1
    conn = workspaces.get(None).index.conn
    error_files = conn.execute("SELECT COUNT(*) FROM files WHERE has_error_nodes").fetchone()[0]
    misses: list[dict[str, Any]] = []
    answers: dict[tuple[str, str, str], bool] = {}  # overloads and merged declarations ask once
    t2 = time.perf_counter()
    for record in records:
        key = (record["file"], record["path"], record["name"])
        if key not in answers:
            answers[key] = found(workspaces, record)
        if not answers[key]:
            misses.append(record)
    lookup_s = time.perf_counter() - t2
    too_large = stats.skipped.get("too_large", 0)
    workspaces.close()
    # A miss in a file the size limit skipped: look again with the limit raised.
    found_raised = 0
    if misses and too_large:
        (root / ".astmcp.toml").write_text(f"max_file_bytes = {RAISED_LIMIT}\n", encoding="utf-8")
        raised = Workspaces(root)
        found_raised = sum(found(raised, record) for record in misses)
        raised.close()
    total = len(records)
    kinds = Counter(r["kind"] for r in records)
    return {
        "corpus": corpus.label,
        "files": stats.files,
        "files_with_error_nodes": error_files,
        "exports": total,
        "found": total - len(misses),
        "percent": round(100.0 * (total - len(misses)) / total, 2) if total else 100.0,
        "by_kind": dict(kinds.most_common()),
        "misses": misses[:200],
        "miss_count": len(misses),
        "skipped_too_large": too_large,
        "misses_found_with_raised_size_limit": found_raised,
        "oracle_s": round(oracle_s, 2),
        "cold_index_s": round(index_s, 2),
        "lookups_s": round(lookup_s, 2),
    }


def render(results: list[dict[str, Any]]) -> str:
    rows = [
        "`python benchmarks/ts_exports.py` — every exported declaration `typescript@6.0.3`'s compiler API",
        "finds in the corpus (`checker.getExportsOfModule` per module, aliases and `export *` followed to",
        "the declaration, exported namespace members as `NS.member`, `export * as ns` in the re-exporting",
        "file), looked up with `ast_search_symbols(query, file_glob=<declaring file>)` through `call_tool`.",
        "",
        "| corpus | files indexed | skipped (> 2 MiB) | files with ERROR nodes | exported declarations | found"
        " | % | cold index |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        rows.append(
            f"| {r['corpus']} | {r['files']} | {r.get('skipped_too_large', 0)} | {r['files_with_error_nodes']}"
            f" | {r['exports']:,} | {r['found']:,} | **{r['percent']:.2f} %** | {r['cold_index_s']} s |"
        )
    misses = [(r["corpus"], m) for r in results for m in r["misses"]]
    rows.append("")
    if misses:
        rows.append("Misses:")
        for corpus, m in misses[:30]:
            rows.append(f"- {corpus}: `{m['file']}` `{m['path']}` ({m['kind']}, line {m['line']})")
        for r in results:
            if r.get("misses_found_with_raised_size_limit"):
                rows.append(
                    f"- {r['corpus']}: {r['misses_found_with_raised_size_limit']} of {r['miss_count']} miss(es) are in"
                    " files over the default 2 MiB `max_file_bytes` limit (SPEC §8), which the walker skips and"
                    " counts; with `max_file_bytes` raised in `.astmcp.toml` they are found."
                )
    else:
        rows.append("No misses (target 100 %).")
    rows.append("")
    rows.append(
        "Cold index: `Index.refresh()` of a fresh copy with every analyzer and linker present at the time"
        " (TS references included), on the shared 2-core machine under load (load average ≈ 10-12 during"
        " these runs); in-process breakdown for effect at load ≈ 11: parse workers 19.3 s (this front end"
        " 7.1 s of single-core time, the references analyzer 8.1 s, checks 1.4 s), write 6.3 s of which"
        " module resolution 0.09 s. Three consecutive `ast-tool index` runs of effect's `src` at load"
        " 6.5-9: 12 s, 22 s, 29 s wall (212 MB peak RSS): the 30 s target holds, with little margin on a busy"
        " machine."
    )
    rows.append("")
    rows.append(
        "ERROR nodes: files where tree-sitter-typescript 0.23.2 still leaves ERROR/MISSING nodes after the"
        " byte-preserving workarounds in `astmcp/lang/ts_parse.py` (variance annotations, `export type *`,"
        " `static accessor`, call signatures on their own line, escaped backticks in template literal types,"
        " tagged templates with type arguments); they are reported as `TS-SYNTAX` diagnostics"
        " (`source: grammar`, warning, where the construct is known valid TypeScript). effect 4.1.0's one such"
        " file is `PubSub.ts`: `let as = …` (a variable named `as`), a grammar warning; every symbol around it"
        " is indexed."
    )
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", default=",".join(CORPORA))
    args = parser.parse_args()
    tsc = npm_tool(*TYPESCRIPT, "tsc")
    typescript = tsc.parent.parent / "typescript"
    previous: dict[str, Any] = {}
    if RESULTS.exists():
        previous = {
            r["corpus"]: r for r in json.loads(RESULTS.read_text(encoding="utf-8")).get("corpora", [])
        }
    results = []
    for name in args.corpora.split(","):
        result = run_corpus(CORPORA[name], typescript)
        print(
            f"{result['corpus']}: {result['found']}/{result['exports']} ({result['percent']} %),"
            f" index {result['cold_index_s']} s, lookups {result['lookups_s']} s",
            file=sys.stderr,
        )
        results.append(result)
    ran = {r["corpus"] for r in results}
    order = [c.label for c in CORPORA.values()]
    results += [r for label, r in previous.items() if label not in ran]
    results.sort(key=lambda r: order.index(r["corpus"]) if r["corpus"] in order else len(order))
    payload = {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "machine": f"{platform.machine()}, Python {platform.python_version()}",
        "typescript": "@".join(TYPESCRIPT),
        "corpora": results,
    }
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
    update_readme_section("ts_exports", "TypeScript: exported declarations found by search", render(results))


if __name__ == "__main__":
    main()
