"""From per-file analyzer payloads to diagnostics: shared by the linker and the plan delta."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Sequence
from dataclasses import replace

from astmcp.diagnostics import python_checks, ts_checks
from astmcp.model import DiagnosticFact, FileFacts

__all__ = ["Owners", "analyzer_diagnostics", "injected_names", "python_payload", "undefined_name"]

_UNDEFINED = re.compile(r"^undefined name '(.+)'$")


def python_payload(facts: FileFacts) -> python_checks.PythonChecks | None:
    payload = facts.extra.get(python_checks.NAME)
    return payload if isinstance(payload, python_checks.PythonChecks) else None


def injected_names(facts: FileFacts) -> frozenset[str]:
    payload = python_payload(facts)
    return payload.injected_builtins if payload is not None else frozenset()


def undefined_name(diag: DiagnosticFact) -> str | None:
    """The name of a PY-UNDEFINED-NAME diagnostic (these are silenced by builtins injection)."""
    if diag.code != python_checks.UNDEFINED_NAME:
        return None
    match = _UNDEFINED.match(diag.message)
    return match.group(1) if match else None


def analyzer_diagnostics(facts: FileFacts) -> list[DiagnosticFact]:
    """Every built-in analyzer diagnostic of one file (before builtins-injection filtering)."""
    out: list[DiagnosticFact] = []
    payload = python_payload(facts)
    if payload is not None:
        out.extend(payload.diagnostics)
    ts_payload = facts.extra.get(ts_checks.NAME)
    if isinstance(ts_payload, tuple):
        out.extend(d for d in ts_payload if isinstance(d, DiagnosticFact))
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
