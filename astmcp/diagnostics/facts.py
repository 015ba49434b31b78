"""From per-file analyzer payloads to diagnostics: shared by the linker and the plan delta."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from astmcp.diagnostics import python_checks, ts_checks, ts_undefined
from astmcp.model import DiagnosticFact, FileFacts
from astmcp.resolve import ts_facts

__all__ = [
    "UNDEFINED_CODES",
    "Injected",
    "Owners",
    "analyzer_diagnostics",
    "injected_names",
    "python_payload",
    "undefined_name",
]

_UNDEFINED = re.compile(r"^undefined name '(.+)'$")
UNDEFINED_CODES = (python_checks.UNDEFINED_NAME, ts_undefined.UNDEFINED_NAME)
# A name some file makes global, and the undefined-name code it silences project-wide.
Injected = tuple[str, str]


def python_payload(facts: FileFacts) -> python_checks.PythonChecks | None:
    payload = facts.extra.get(python_checks.NAME)
    return payload if isinstance(payload, python_checks.PythonChecks) else None


def ts_payload(facts: FileFacts) -> dict[str, Any]:
    payload = facts.extra.get(ts_facts.NAME)
    return payload if isinstance(payload, dict) else {}


def injected_names(facts: FileFacts) -> frozenset[Injected]:
    """``(code, name)``: names put into ``builtins`` (Python) or made global (TS/JS) by this file."""
    payload = python_payload(facts)
    if payload is not None:
        return frozenset((python_checks.UNDEFINED_NAME, n) for n in payload.injected_builtins)
    return frozenset((ts_undefined.UNDEFINED_NAME, n) for n in ts_payload(facts).get("ambient", ()))


def undefined_name(diag: DiagnosticFact) -> str | None:
    """The name of an undefined-name diagnostic (these are silenced by names other files inject)."""
    if diag.code not in UNDEFINED_CODES:
        return None
    match = _UNDEFINED.match(diag.message)
    return match.group(1) if match else None


def analyzer_diagnostics(facts: FileFacts) -> list[DiagnosticFact]:
    """Every built-in analyzer diagnostic of one file (before builtins-injection filtering)."""
    out: list[DiagnosticFact] = []
    payload = python_payload(facts)
    if payload is not None:
        out.extend(payload.diagnostics)
    checks = facts.extra.get(ts_checks.NAME)
    if isinstance(checks, tuple):
        out.extend(d for d in checks if isinstance(d, DiagnosticFact))
    for name, line, column in ts_payload(facts).get("undefined", ()):
        message = python_checks.undefined_message(name)
        out.append(DiagnosticFact(ts_undefined.UNDEFINED_NAME, "error", line, column, message))
    return out


class Owners:
    """The innermost symbol whose span contains a line."""

    def __init__(self, spans: Iterable[tuple[str, int, int]]) -> None:
        # Sorted by start; the innermost containing span is the latest-starting one that still contains.
        self._spans: Sequence[tuple[int, int, str]] = sorted((s, -e, p) for p, s, e in spans)
        self._starts = [s for s, _, _ in self._spans]

    @classmethod
    def of_facts(cls, facts: FileFacts) -> Owners:
        return cls((s.symbol_path, s.span.line, s.span.end_line) for s in facts.symbols)

    def at(self, line: int) -> str | None:
        index = bisect.bisect_right(self._starts, line)
        for start, neg_end, path in reversed(self._spans[:index]):
            if start <= line <= -neg_end:
                return path
        return None

    def attribute(self, diag: DiagnosticFact) -> DiagnosticFact:
        owner = self.at(diag.line)
        return diag if owner == diag.symbol_path else replace(diag, symbol_path=owner)
