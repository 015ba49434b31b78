"""A trace from any declaration of an overloaded symbol follows the edges of all of them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

GRAPH_ARGS = {"question": "who calls schedule", "draft": "reverse trace", "review": "one trace"}


def test_reverse_trace_from_the_implementation_signature_finds_callers_of_the_overloads(
    tmp_path: Path, caller: Any
) -> None:
    (tmp_path / "schedule.ts").write_text(
        "export function schedule(a: number): void;\n"
        "export function schedule(a: string): void;\n"
        "export function schedule(a: unknown): void {\n"
        "  console.log(a);\n"
        "}\n"
    )
    (tmp_path / "user.ts").write_text(
        "import { schedule } from './schedule';\n\nexport function run(): void {\n  schedule(1);\n}\n"
    )
    call = caller(tmp_path)
    for line in (1, 2, 3):
        out = call(
            "ast_inspect_graph",
            **GRAPH_ARGS,
            request={"type": "trace", "from": f"schedule.ts::schedule@{line}", "direction": "reverse"},
        )
        assert "user.ts::run" in {n["selector"] for n in out["nodes"]}, line
        assert {(e["from"], e["line"]) for e in out["edges"]} == {("user.ts::run", 4)}
