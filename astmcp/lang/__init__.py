"""Language front ends: text in, :class:`~astmcp.model.FileFacts` out, nothing else.

Per-file analyzers (reference facts, built-in checks) run in the parse worker
right after the front end, on the same syntax tree, and leave a picklable
payload in ``FileFacts.extra[<module NAME>]``. An analyzer module exposes
``NAME: str`` and ``analyze(path: str, text: str, tree: Any) -> Any``; it is
only called when the file parsed (tree is not None).
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType
from typing import Any

from astmcp.model import JAVASCRIPT, PYTHON, TYPESCRIPT, DiagnosticFact, FileFacts

__all__ = ["ANALYZERS", "decode_source", "extract_file"]

# Analyzer modules per language, run in this order; missing modules are skipped.
ANALYZERS: dict[str, tuple[str, ...]] = {
    PYTHON: ("astmcp.resolve.python_facts", "astmcp.diagnostics.python_checks"),
    TYPESCRIPT: ("astmcp.resolve.ts_facts", "astmcp.diagnostics.ts_checks", "astmcp.resolve.ts_tests"),
    JAVASCRIPT: ("astmcp.resolve.ts_facts", "astmcp.diagnostics.ts_checks", "astmcp.resolve.ts_tests"),
}

_loaded: dict[str, ModuleType | None] = {}


def optional_module(name: str) -> ModuleType | None:
    """Import a module that may not exist yet (features land one by one)."""
    if name not in _loaded:
        try:
            _loaded[name] = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name is None or not (name == exc.name or name.startswith(exc.name + ".")):
                raise
            _loaded[name] = None
    return _loaded[name]


def decode_source(data: bytes) -> str | None:
    """UTF-8 with or without BOM; None for anything else."""
    if b"\x00" in data:
        return None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None


def parse_text(path: str, language: str, text: str) -> tuple[Any, FileFacts]:
    """The front end's syntax tree (None when unparsable) and the file's facts."""
    if language == PYTHON:
        from astmcp.lang import python

        return python.parse(text)
    if language in (TYPESCRIPT, JAVASCRIPT):
        typescript = optional_module("astmcp.lang.typescript")
        if typescript is None:  # front end not built yet
            return None, FileFacts(language, text.count("\n") + 1)
        result: tuple[Any, FileFacts] = typescript.parse(path, language, text)
        return result
    raise ValueError(f"unknown language {language!r}")


def extract_file(path: str, language: str, data: bytes) -> FileFacts:
    """Facts for one file; never raises for bad content (the file is reported instead)."""
    text = decode_source(data)
    if text is None:
        diag = DiagnosticFact("ENCODING", "warning", 1, 1, "file is not UTF-8 text; not indexed")
        return FileFacts(language, data.count(b"\n"), diagnostics=(diag,), parse_error="not UTF-8 text")
    try:
        tree, facts = parse_text(path, language, text)
        if tree is not None:
            for name in ANALYZERS.get(language, ()):
                module = optional_module(name)
                if module is None:
                    continue
                try:
                    facts.extra[module.NAME] = module.analyze(path, text, tree)
                except RecursionError:
                    print(f"astmcp: {path}: too deeply nested for {module.NAME}", file=sys.stderr)
    except Exception as exc:  # a front-end bug costs one file, not the whole index
        # the file is indexed as unparsed: its words stay uncertain references to any rename
        why = f"astmcp failed on it ({type(exc).__name__}: {exc}); please report it"
        print(f"astmcp: {path}: {why}", file=sys.stderr)
        diag = DiagnosticFact("INDEX-FAILURE", "warning", 1, 1, f"not indexed: {why}")
        return FileFacts(language, text.count("\n") + 1, diagnostics=(diag,), parse_error=why[:300])
    return facts
