"""The project's own checkers (tsc, basedpyright/pyright, mypy), run on an overlay copy.

Never installed by astmcp and never required: a checker named in
``Config.diagnostics`` runs only when the project has it (``node_modules/.bin/tsc``
with a ``tsconfig.json``; ``basedpyright``/``pyright``/``mypy`` in the project's
virtualenv or on PATH). Every run happens in a temporary copy of the indexed
tree with post-image files written in, so the user's files, caches and build
info are never touched. A checker that fails or times out contributes nothing
(and says so on stderr).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import astuple, dataclass
from pathlib import Path

from astmcp.diagnostics.facts import Owners
from astmcp.diagnostics.project import Located
from astmcp.model import DiagnosticFact
from astmcp.workspace import Workspace

__all__ = ["Checker", "available_checkers", "run_external", "run_external_pair"]

_CONFIG_NAMES = frozenset(
    {
        "package.json",
        "pyproject.toml",
        "setup.cfg",
        "mypy.ini",
        ".mypy.ini",
        "pyrightconfig.json",
        "tox.ini",
    }
)
_NEVER_COPY = frozenset({".git", ".astmcp", ".hg", ".svn"})
_TSC_LINE = re.compile(
    r"^(?P<file>.+?)\((?P<line>\d+),(?P<col>\d+)\): (?P<sev>error|warning) (?P<code>TS\d+): (?P<msg>.*)$"
)
_MYPY_LINE = re.compile(
    r"^(?P<file>[^:\n]+):(?P<line>\d+):(?:(?P<col>\d+):)? (?P<sev>error|warning): (?P<msg>.*?)(?:  \[(?P<code>[\w-]+)\])?$"
)

_PY_FILES = "\x00python-files"  # placeholder in argv for the indexed Python files
Parser = Callable[[str, Path], list[tuple[str, DiagnosticFact]]]


@dataclass(frozen=True, slots=True)
class Checker:
    name: str  # source of its diagnostics: tsc | pyright | mypy
    argv: tuple[str, ...]
    parse: Parser


def _project_tool(root: Path, names: tuple[str, ...]) -> str | None:
    for name in names:
        for venv in (".venv", "venv", "env"):
            candidate = root / venv / "bin" / name
            if candidate.is_file() and os.access(candidate, os.X_OK):
                return str(candidate)
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    return None


def available_checkers(ws: Workspace) -> list[Checker]:
    root = ws.root
    out: list[Checker] = []
    for name in ws.config.diagnostics:
        if name == "tsc":
            tsc = root / "node_modules" / ".bin" / "tsc"
            if tsc.exists() and (root / "tsconfig.json").is_file():
                out.append(
                    Checker(
                        "tsc",
                        (str(tsc), "--noEmit", "--pretty", "false", "-p", "tsconfig.json"),
                        _parse_tsc,
                    )
                )
        elif name == "pyright":
            tool = _project_tool(root, ("basedpyright", "pyright"))
            if tool:
                out.append(Checker("pyright", (tool, "--outputjson"), _parse_pyright))
        elif name == "mypy":
            tool = _project_tool(root, ("mypy",))
            if tool:
                argv = (
                    tool,
                    "--no-error-summary",
                    "--show-column-numbers",
                    "--show-error-codes",
                    "--no-color-output",
                    "--no-pretty",
                    "--cache-dir",
                    ".astmcp-mypy-cache",
                )
                out.append(Checker("mypy", (*argv, *_mypy_targets(root)), _parse_mypy))
    return out


def _mypy_targets(root: Path) -> tuple[str, ...]:
    """mypy checks its configured ``files`` when given no targets; otherwise the indexed files."""
    for name in ("mypy.ini", ".mypy.ini", "setup.cfg", "pyproject.toml"):
        path = root / name
        if path.is_file():
            text = path.read_text(encoding="utf-8", errors="replace")
            if ("mypy" in text) and re.search(r"^\s*files\s*=", text, re.MULTILINE):
                return ()
    return (_PY_FILES,)


def _relative(raw: str, overlay: Path) -> str | None:
    path = Path(raw)
    if not path.is_absolute():
        path = overlay / path
    try:
        rel = Path(os.path.normpath(path)).relative_to(overlay)
    except ValueError:
        return None
    return rel.as_posix()


def _parse_tsc(output: str, overlay: Path) -> list[tuple[str, DiagnosticFact]]:
    out = []
    for line in output.splitlines():
        match = _TSC_LINE.match(line)
        if match and (file := _relative(match["file"], overlay)):
            fact = DiagnosticFact(
                match["code"],
                match["sev"],
                int(match["line"]),
                int(match["col"]),
                match["msg"].strip(),
                "tsc",
            )
            out.append((file, fact))
    return out


def _parse_mypy(output: str, overlay: Path) -> list[tuple[str, DiagnosticFact]]:
    out = []
    for line in output.splitlines():
        match = _MYPY_LINE.match(line)
        if match and (file := _relative(match["file"], overlay)):
            column = int(match["col"]) if match["col"] else 1
            code = match["code"] or "mypy"
            fact = DiagnosticFact(
                code, match["sev"], int(match["line"]), column, match["msg"].strip(), "mypy"
            )
            out.append((file, fact))
    return out


def _parse_pyright(output: str, overlay: Path) -> list[tuple[str, DiagnosticFact]]:
    try:
        report = json.loads(output[output.find("{") :])
    except ValueError:
        return []
    out = []
    for item in report.get("generalDiagnostics", []):
        severity = item.get("severity")
        if severity not in ("error", "warning"):
            continue
        file = _relative(str(item.get("file", "")), overlay)
        if not file:
            continue
        start = item.get("range", {}).get("start", {})
        fact = DiagnosticFact(
            str(item.get("rule") or "pyright"),
            severity,
            int(start.get("line", 0)) + 1,
            int(start.get("character", 0)) + 1,
            " ".join(str(item.get("message", "")).split()),
            "pyright",
        )
        out.append((file, fact))
    return out


def _build_overlay(root: Path, files: list[str], post_images: dict[str, str], dest: Path) -> None:
    """Indexed files and config files copied, other top-level folders linked, post-images written."""
    indexed_dirs = {f.split("/", 1)[0] for f in files if "/" in f}
    folders = {os.path.dirname(f) for f in files}
    for rel in files:
        if rel in post_images:
            continue
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            shutil.copyfile(root / rel, target)
        except OSError:
            continue
    for folder in folders:
        try:
            entries = os.listdir(root / folder)
        except OSError:
            continue
        for entry in entries:
            if entry in _CONFIG_NAMES or (entry.startswith("tsconfig") and entry.endswith(".json")):
                source = root / folder / entry
                if source.is_file() and not source.is_symlink():
                    (dest / folder).mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(source, dest / folder / entry)
    for top in os.scandir(root):
        if top.name in _NEVER_COPY or (dest / top.name).exists():
            continue
        if top.is_dir() and top.name not in indexed_dirs:  # node_modules, virtualenvs: linked
            os.symlink(os.path.realpath(top.path), dest / top.name)
        elif top.is_file(follow_symlinks=False):
            shutil.copyfile(top.path, dest / top.name)
    for rel, text in post_images.items():
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(target, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)


def _run(
    checker: Checker, ws: Workspace, files: list[str], post_images: dict[str, str]
) -> list[tuple[str, DiagnosticFact]]:
    with tempfile.TemporaryDirectory(prefix="astmcp-check-") as temp:
        overlay = Path(os.path.realpath(temp)) / "tree"  # checkers report real paths
        overlay.mkdir()
        _build_overlay(ws.root, files, post_images, overlay)
        argv: list[str] = []
        for arg in checker.argv:
            argv.extend([f for f in files if f.endswith((".py", ".pyi"))] if arg == _PY_FILES else [arg])
        try:
            done = subprocess.run(
                argv,
                cwd=overlay,
                capture_output=True,
                text=True,
                encoding="utf-8",
                errors="replace",
                timeout=ws.config.checker_timeout_s,
                check=False,
            )
        except subprocess.TimeoutExpired:
            print(f"astmcp: {checker.name} timed out after {ws.config.checker_timeout_s}s", file=sys.stderr)
            return []
        except OSError as exc:
            print(f"astmcp: {checker.name} could not run: {exc}", file=sys.stderr)
            return []
        return checker.parse(done.stdout + "\n" + done.stderr, overlay)


def _locate(conn: sqlite3.Connection, found: list[tuple[str, DiagnosticFact]]) -> list[Located]:
    owners: dict[str, Owners] = {}
    out = []
    for file, fact in found:
        if file not in owners:
            owners[file] = Owners(
                conn.execute(
                    "SELECT s.symbol_path, s.start_line, s.end_line FROM symbols s JOIN files f ON f.id = s.file_id"
                    " WHERE f.path = ?",
                    (file,),
                )
            )
        out.append(Located(file, owners[file].attribute(fact)))
    return out


def _indexed_files(conn: sqlite3.Connection) -> list[str]:
    return [row[0] for row in conn.execute("SELECT path FROM files ORDER BY path")]


_CACHE_SCHEMA = "CREATE TABLE IF NOT EXISTS diag_external (key TEXT PRIMARY KEY, results TEXT NOT NULL)"


def _baseline_key(ws: Workspace, conn: sqlite3.Connection, checker: Checker) -> str:
    """Identifies one checker's baseline: its command, every indexed file's hash, the config files."""
    digest = hashlib.sha256("\x00".join(checker.argv).encode("utf-8"))
    for path, sha in conn.execute("SELECT path, sha256 FROM files ORDER BY path"):
        digest.update(f"{path}\x00{sha}\x00".encode())
    for entry in sorted(os.scandir(ws.root), key=lambda e: e.name):
        if entry.is_file() and (entry.name in _CONFIG_NAMES or entry.name.startswith("tsconfig")):
            stat = entry.stat()
            digest.update(f"{entry.name}\x00{stat.st_size}\x00{stat.st_mtime_ns}\x00".encode())
    tool = checker.argv[0]
    if os.path.exists(tool):
        digest.update(f"{os.path.realpath(tool)}\x00{os.stat(tool).st_mtime_ns}".encode())
    return f"{checker.name}:{digest.hexdigest()}"


def _baseline(
    ws: Workspace, conn: sqlite3.Connection, checker: Checker, files: list[str]
) -> list[tuple[str, DiagnosticFact]]:
    """The checker's answer for the tree as indexed, cached in the index by content."""
    cache = ws.index.conn  # the writer: query connections are read-only
    cache.execute(_CACHE_SCHEMA)
    key = _baseline_key(ws, conn, checker)
    row = cache.execute("SELECT results FROM diag_external WHERE key = ?", (key,)).fetchone()
    if row is not None:
        return [(file, DiagnosticFact(*fact)) for file, fact in json.loads(row[0])]
    found = _run(checker, ws, files, {})
    encoded = json.dumps([(file, astuple(fact)) for file, fact in found])
    with contextlib.suppress(sqlite3.Error):  # a busy index only costs the next call a re-run
        cache.execute("DELETE FROM diag_external WHERE key LIKE ? OR key = ?", (f"{checker.name}:%", key))
        cache.execute("INSERT OR REPLACE INTO diag_external(key, results) VALUES (?, ?)", (key, encoded))
    return found


def run_external(ws: Workspace, conn: sqlite3.Connection, post_images: dict[str, str]) -> list[Located]:
    """Diagnostics of every enabled and available external checker for one state of the tree."""
    files = _indexed_files(conn)
    found: list[tuple[str, DiagnosticFact]] = []
    for checker in available_checkers(ws):
        if post_images:
            found.extend(_run(checker, ws, files, post_images))
        else:
            found.extend(_baseline(ws, conn, checker, files))
    return _locate(conn, found)


def run_external_pair(
    ws: Workspace, conn: sqlite3.Connection, post_images: dict[str, str]
) -> tuple[list[Located], list[Located]]:
    """Baseline (cached by content) and post-image runs, side by side."""
    files = _indexed_files(conn)
    before: list[tuple[str, DiagnosticFact]] = []
    after: list[tuple[str, DiagnosticFact]] = []
    with ThreadPoolExecutor(max_workers=2) as pool:
        for checker in available_checkers(ws):
            second = pool.submit(_run, checker, ws, files, post_images)
            before.extend(_baseline(ws, conn, checker, files))
            after.extend(second.result())
    return _locate(conn, before), _locate(conn, after)
