"""Index speed and memory: astmcp and codegraph side by side on real corpora.

Every measurement runs in a fresh subprocess on a private copy of the corpus
(``benchmarks/.cache/work/<tool>/<corpus>``), and the two tools alternate
within each repetition so they share the machine's noise. Reported numbers are
medians; all samples are kept in the JSON.

    python benchmarks/index_speed.py [--corpora django,rich,effect] [--repeat 3] [--no-peer]

Memory is the peak of the summed RSS of the whole process tree (the indexer
forks parse workers), sampled from /proc every 20 ms; ``max_process_rss_mb``
is the largest single process (``wait4`` rusage of the tree).
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
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _corpora import CACHE, fetch_npm, fetch_pypi_sdist, npm_tool, update_readme_section

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results" / "index_speed.json"
PEER = ("@colbymchenry/codegraph", "1.6.1", "codegraph")
PAGE = os.sysconf("SC_PAGE_SIZE")


@dataclass(frozen=True)
class Corpus:
    name: str
    label: str
    edit_file: str  # the file the one-file-change step edits (relative to the root)
    edit_text: str  # appended, with {n} replaced by the repetition number
    query: str  # symbol name for the CLI query (search for astmcp, callers for codegraph)

    def source(self) -> Path:
        if self.name == "django":
            return fetch_pypi_sdist("django", "5.2.19")
        if self.name == "rich":
            return fetch_pypi_sdist("rich", "15.0.0")
        if self.name == "effect":
            return fetch_npm("effect", "4.1.0") / "src"
        raise ValueError(self.name)


CORPORA = {
    "django": Corpus(
        "django",
        "django 5.2.19",
        "django/db/models/query.py",
        "\n\ndef _bench_edit_{n}():\n    return {n}\n",
        "get_queryset",
    ),
    "rich": Corpus(
        "rich", "rich 15.0.0", "rich/console.py", "\n\ndef _bench_edit_{n}():\n    return {n}\n", "render"
    ),
    "effect": Corpus(
        "effect",
        "effect 4.1.0 (src)",
        "Schedule.ts",
        "\nexport const benchEdit{n} = (): number => {n}\n",
        "flatMap",
    ),
}


# -- measuring a process tree ------------------------------------------------------
def _children_map() -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", encoding="ascii", errors="replace") as handle:
                stat = handle.read()
        except OSError:
            continue
        ppid = int(stat[stat.rfind(")") + 2 :].split()[1])
        out.setdefault(ppid, []).append(int(name))
    return out


def _tree(pid: int) -> list[int]:
    children = _children_map()
    todo, seen = [pid], []
    while todo:
        p = todo.pop()
        seen.append(p)
        todo.extend(children.get(p, ()))
    return seen


_TICK = os.sysconf("SC_CLK_TCK")


def _cpu(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / _TICK
    except (OSError, IndexError, ValueError):
        return 0.0


def _rss(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/statm", encoding="ascii") as handle:
            return int(handle.read().split()[1]) * PAGE
    except (OSError, IndexError, ValueError):
        return 0


class _Sampler(threading.Thread):
    """Peak summed RSS of a process and all its descendants, and their CPU time as last seen
    (a forkserver's workers are reaped by the forkserver, so ``wait4`` alone misses them)."""

    def __init__(self, pid: int, interval: float = 0.02) -> None:
        super().__init__(daemon=True)
        self.pid, self.interval = pid, interval
        self.peak = 0
        self.cpu: dict[int, float] = {}
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            pids = _tree(self.pid)
            self.peak = max(self.peak, sum(_rss(p) for p in pids))
            for p in pids:
                self.cpu[p] = max(self.cpu.get(p, 0.0), _cpu(p))
            self.stop.wait(self.interval)


@dataclass(frozen=True)
class Run:
    seconds: float
    cpu_s: float  # user + system of the process and every descendant it waited for
    tree_rss_mb: float
    max_process_rss_mb: float
    stdout: str


def run(cmd: list[str], cwd: Path | None = None, sample: bool = False) -> Run:
    env = dict(os.environ, CODEGRAPH_TELEMETRY="0", NO_COLOR="1")
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL
    )
    sampler = _Sampler(proc.pid) if sample else None
    if sampler:
        sampler.start()
    out_chunks: list[bytes] = []
    err_chunks: list[bytes] = []
    readers = [
        threading.Thread(target=lambda: out_chunks.append(proc.stdout.read()), daemon=True),  # type: ignore[union-attr]
        threading.Thread(target=lambda: err_chunks.append(proc.stderr.read()), daemon=True),  # type: ignore[union-attr]
    ]
    for reader in readers:
        reader.start()
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    for reader in readers:
        reader.join()
    if sampler:
        sampler.stop.set()
        sampler.join()
    stdout = b"".join(out_chunks).decode("utf-8", "replace")
    if proc.returncode != 0:
        stderr = b"".join(err_chunks).decode("utf-8", "replace")
        raise RuntimeError(f"{' '.join(cmd)} exited {proc.returncode}: {stderr[-2000:]}")
    return Run(
        seconds,
        max(usage.ru_utime + usage.ru_stime, sum(sampler.cpu.values()) if sampler else 0.0),
        (sampler.peak if sampler else 0) / 2**20,
        usage.ru_maxrss / 1024,
        stdout,
    )


# -- the tools ---------------------------------------------------------------------
def _workdir(tool: str, corpus: Corpus) -> Path:
    dest = CACHE / "work" / tool / corpus.name
    shutil.rmtree(dest, ignore_errors=True)
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copytree(corpus.source(), dest, symlinks=True)
    return dest


def _ast_tool() -> str:
    exe = Path(sys.executable).with_name("ast-tool")
    return str(exe) if exe.exists() else "ast-tool"


class Astmcp:
    name = "astmcp"

    def __init__(self, root: Path, corpus: Corpus) -> None:
        self.root, self.corpus = root, corpus

    def cold(self) -> Run:
        shutil.rmtree(self.root / ".astmcp", ignore_errors=True)
        return run([_ast_tool(), "index", "--full", "--root", str(self.root)], sample=True)

    def sync(self) -> Run:
        return run([_ast_tool(), "index", "--root", str(self.root)])

    def query(self) -> Run:
        payload = json.dumps({"query": self.corpus.query, "limit": 20})
        return run([_ast_tool(), "call", "ast_search_symbols", "--root", str(self.root), "--input", payload])

    def in_process(self, repeat: int) -> dict[str, Any]:
        """Refresh timings inside one process, as a long-lived server pays them."""
        out = run(
            [
                sys.executable,
                str(Path(__file__).resolve()),
                "--probe",
                str(self.root),
                self.corpus.edit_file,
                self.corpus.edit_text,
                str(repeat),
            ]
        )
        result: dict[str, Any] = json.loads(out.stdout)
        return result


class Codegraph:
    name = "codegraph"

    def __init__(self, root: Path, corpus: Corpus, exe: Path) -> None:
        self.root, self.corpus, self.exe = root, corpus, str(exe)

    def cold(self) -> Run:
        shutil.rmtree(self.root / ".codegraph", ignore_errors=True)
        # run in the corpus folder: started from inside another git checkout (a worktree of this
        # repository) `init` returned in under a second having indexed nothing
        made = run([self.exe, "init", "-y", str(self.root)], cwd=self.root, sample=True)
        db = self.root / ".codegraph" / "codegraph.db"
        if not db.is_file() or db.stat().st_size < 100_000:
            raise RuntimeError(f"codegraph init left no index in {self.root}")
        return made

    def sync(self) -> Run:
        return run([self.exe, "sync", str(self.root)], cwd=self.root)

    def query(self) -> Run:
        return run([self.exe, "callers", self.corpus.query, "-p", str(self.root)], cwd=self.root)


# -- the in-process probe (runs in a child) ----------------------------------------
def probe(root: str, edit_file: str, edit_text: str, repeat: int) -> None:
    from astmcp.workspace import Workspace

    t0 = time.perf_counter()
    ws = Workspace(Path(root))
    first = ws.index.refresh()
    open_s = time.perf_counter() - t0
    no_change: list[float] = []
    for _ in range(repeat):
        t = time.perf_counter()
        stats = ws.index.refresh()
        no_change.append(time.perf_counter() - t)
        assert stats.parsed == 0, stats
    target = Path(root) / edit_file
    original = target.read_bytes()
    one_file: list[float] = []
    parsed: list[int] = []
    try:
        for n in range(repeat):
            target.write_bytes(original + edit_text.format(n=n).encode("utf-8"))
            t = time.perf_counter()
            stats = ws.index.refresh()
            one_file.append(time.perf_counter() - t)
            parsed.append(stats.parsed)
    finally:
        target.write_bytes(original)
        ws.index.refresh()
    print(
        json.dumps(
            {
                "open_and_first_refresh_s": open_s,
                "first_refresh_parsed": first.parsed,
                "no_change_s": no_change,
                "one_file_change_s": one_file,
                "one_file_change_parsed": parsed,
            }
        )
    )


# -- the benchmark ---------------------------------------------------------------
def _edit(root: Path, corpus: Corpus, n: int) -> bytes:
    target = root / corpus.edit_file
    original = target.read_bytes()
    target.write_bytes(original + corpus.edit_text.format(n=n).encode("utf-8"))
    return original


def _median(values: list[float]) -> float:
    return round(statistics.median(values), 3) if values else float("nan")


def bench_corpus(corpus: Corpus, repeat: int, peer_exe: Path | None) -> dict[str, Any]:
    tools: list[Any] = [Astmcp(_workdir("astmcp", corpus), corpus)]
    if peer_exe is not None:
        tools.append(Codegraph(_workdir("codegraph", corpus), corpus, peer_exe))
    samples: dict[str, dict[str, list[float]]] = {t.name: {} for t in tools}

    def add(tool: Any, key: str, value: float) -> None:
        samples[tool.name].setdefault(key, []).append(round(value, 4))

    notes: dict[str, str] = {}
    for n in range(repeat):
        for tool in list(tools):
            try:
                cold = tool.cold()
            except (RuntimeError, OSError) as exc:
                notes[tool.name] = f"skipped: {exc}"[:500]
                tools.remove(tool)
                continue
            add(tool, "cold_s", cold.seconds)
            add(tool, "cold_cpu_s", cold.cpu_s)
            add(tool, "cold_tree_rss_mb", cold.tree_rss_mb)
            add(tool, "cold_max_process_rss_mb", cold.max_process_rss_mb)
            add(tool, "no_change_cli_s", tool.sync().seconds)
            original = _edit(tool.root, corpus, 100 + n)
            try:
                add(tool, "one_file_change_cli_s", tool.sync().seconds)
            finally:
                (tool.root / corpus.edit_file).write_bytes(original)
            tool.sync()
            for _ in range(3):
                add(tool, "query_cli_s", tool.query().seconds)
    in_process = tools[0].in_process(max(5, repeat)) if tools and tools[0].name == "astmcp" else None
    result: dict[str, Any] = {"corpus": corpus.label, "edit_file": corpus.edit_file, "query": corpus.query}
    for name, series in samples.items():
        result[name] = {"median": {k: _median(v) for k, v in series.items()}, "samples": series}
    if in_process is not None:
        result["astmcp"]["in_process"] = in_process
        result["astmcp"]["median"]["no_change_s"] = _median(in_process["no_change_s"])
        result["astmcp"]["median"]["one_file_change_s"] = _median(in_process["one_file_change_s"])
    if notes:
        result["notes"] = notes
    files = run([_ast_tool(), "stats", "--root", str(tools[0].root)]) if tools else None
    if files is not None:
        stats = json.loads(files.stdout)
        result["astmcp_index"] = {
            "counts": stats["counts"],
            "languages": stats["languages"],
            "parse_errors": stats["parse_errors"],
        }
    return result


def _load() -> str:
    with open("/proc/loadavg", encoding="ascii") as handle:
        return " ".join(handle.read().split()[:3])


def _git_rev() -> str:
    try:
        return subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=HERE, capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def _fmt(value: float | None, unit: str = "s") -> str:
    if value is None or value != value:
        return "–"
    return f"{value:.0f} MB" if unit == "MB" else f"{value:.3f} s" if value < 1 else f"{value:.2f} s"


def table(report: dict[str, Any]) -> str:
    rows = [
        ("cold index", "cold_s", "s"),
        ("cold index, CPU time (user+sys, all processes)", "cold_cpu_s", "s"),
        ("cold peak RSS (process tree)", "cold_tree_rss_mb", "MB"),
        ("cold largest process RSS", "cold_max_process_rss_mb", "MB"),
        ("no-change refresh, in process", "no_change_s", "s"),
        ("no-change refresh, CLI (`index` / `sync`)", "no_change_cli_s", "s"),
        ("one-file change, in process", "one_file_change_s", "s"),
        ("one-file change, CLI (`index` / `sync`)", "one_file_change_cli_s", "s"),
        ("one CLI query (`call ast_search_symbols` / `callers`)", "query_cli_s", "s"),
    ]
    out = [
        f"Run {report['date']} on {report['machine']} (astmcp {report['astmcp_rev']}, peer codegraph {PEER[1]};"
        f" load average before/after: {report['load_before']} / {report['load_after']};"
        f" {report['repeat']} repetitions, medians).",
        "",
    ]
    for corpus in report["corpora"]:
        files = corpus.get("astmcp_index", {}).get("counts", {}).get("files", "?")
        out += [
            f"**{corpus['corpus']}** ({files} files indexed; edit: `{corpus['edit_file']}`;"
            f" query: `{corpus['query']}`)",
            "",
            "| measure | astmcp | codegraph |",
            "|---|---|---|",
        ]
        for label, key, unit in rows:
            a = corpus.get("astmcp", {}).get("median", {}).get(key)
            c = corpus.get("codegraph", {}).get("median", {}).get(key)
            out.append(f"| {label} | {_fmt(a, unit)} | {_fmt(c, unit)} |")
        for tool, note in corpus.get("notes", {}).items():
            out.append(f"\n{tool}: {note}")
        out.append("")
    return "\n".join(out)


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--corpora", default="django,rich,effect")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-peer", action="store_true", help="skip codegraph")
    parser.add_argument("--no-readme", action="store_true", help="do not rewrite benchmarks/README.md")
    parser.add_argument("--probe", nargs=4, metavar=("ROOT", "FILE", "TEXT", "N"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.probe:
        probe(args.probe[0], args.probe[1], args.probe[2], int(args.probe[3]))
        return 0
    peer: Path | None = None
    peer_note = None
    if not args.no_peer:
        try:
            peer = npm_tool(*PEER)
        except (OSError, subprocess.CalledProcessError) as exc:
            peer_note = f"codegraph could not be installed: {exc}"
    report: dict[str, Any] = {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "machine": f"{os.cpu_count()} cores, Python {platform.python_version()}, {platform.machine()}",
        "astmcp_rev": _git_rev(),
        "repeat": args.repeat,
        "load_before": _load(),
        "corpora": [],
    }
    if peer_note:
        report["peer_note"] = peer_note
    for name in args.corpora.split(","):
        corpus = CORPORA[name]
        print(f"== {corpus.label}", file=sys.stderr)
        report["corpora"].append(bench_corpus(corpus, args.repeat, peer))
        print(json.dumps(report["corpora"][-1].get("astmcp", {}).get("median")), file=sys.stderr)
        print(json.dumps(report["corpora"][-1].get("codegraph", {}).get("median")), file=sys.stderr)
    report["load_after"] = _load()
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    text = table(report)
    print(text)
    if not args.no_readme:
        update_readme_section("index_speed", "Index speed and memory (`index_speed.py`)", text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
