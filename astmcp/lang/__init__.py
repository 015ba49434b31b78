"""Language front ends: text in, :class:`~astmcp.model.FileFacts` out, nothing else."""

from __future__ import annotations

from astmcp.model import JAVASCRIPT, PYTHON, TYPESCRIPT, DiagnosticFact, FileFacts

__all__ = ["decode_source", "extract_file"]


def decode_source(data: bytes) -> str | None:
    """UTF-8 with or without BOM; None for anything else."""
    if b"\x00" in data:
        return None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None


def extract_file(path: str, language: str, data: bytes) -> FileFacts:
    """Facts for one file; never raises for bad content (the file is reported instead)."""
    text = decode_source(data)
    if text is None:
        diag = DiagnosticFact("ENCODING", "warning", 1, 1, "file is not UTF-8 text; not indexed")
        return FileFacts(language, data.count(b"\n"), diagnostics=(diag,), parse_error="not UTF-8 text")
    if language == PYTHON:
        from astmcp.lang import python

        return python.extract(text)
    if language in (TYPESCRIPT, JAVASCRIPT):
        import importlib

        try:
            typescript = importlib.import_module("astmcp.lang.typescript")
        except ModuleNotFoundError:  # front end not built yet
            return FileFacts(language, text.count("\n") + 1)
        facts: FileFacts = typescript.extract(path, language, text)
        return facts
    raise ValueError(f"unknown language {language!r}")
