"""Frozen facts that flow from the language extractors into the index.

Position convention, stated once: ``line`` is 1-based; ``column`` is 1-based and
counted in Unicode code points; an end position is exclusive.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

PYTHON = "python"
TYPESCRIPT = "typescript"
JAVASCRIPT = "javascript"

LANGUAGE_BY_SUFFIX: dict[str, str] = {
    ".py": PYTHON,
    ".pyi": PYTHON,
    ".ts": TYPESCRIPT,
    ".tsx": TYPESCRIPT,
    ".mts": TYPESCRIPT,
    ".cts": TYPESCRIPT,
    ".js": JAVASCRIPT,
    ".jsx": JAVASCRIPT,
    ".mjs": JAVASCRIPT,
    ".cjs": JAVASCRIPT,
}


@dataclass(frozen=True, slots=True)
class Span:
    """A source range: 1-based line and code-point column, end exclusive."""

    line: int
    column: int
    end_line: int
    end_column: int


@dataclass(frozen=True, slots=True)
class SymbolFact:
    """One declaration found in a file.

    ``span`` covers the whole declaration including decorators; ``line`` (the
    line users cite, also used by ``@LINE``) is the line of the declaring
    keyword or name.
    """

    symbol_path: str
    name: str
    kind: str
    signature: str
    line: int
    span: Span
    name_span: Span
    doc: str | None = None
    parent_path: str | None = None
    exported: bool = False


@dataclass(frozen=True, slots=True)
class DiagnosticFact:
    code: str
    severity: str  # "error" | "warning"
    line: int
    column: int
    message: str
    source: str = "astmcp"
    symbol_path: str | None = None


@dataclass(frozen=True, slots=True)
class ImportFact:
    """An import as written: ``module`` is the specifier, ``name`` the imported
    name (None for a whole-module import), ``alias`` the local binding."""

    module: str
    name: str | None
    alias: str | None
    line: int
    level: int = 0  # Python relative-import dots
    kind: str = "import"  # import | reexport | star | require | dynamic | augment
    resolved: str | None = None  # project-relative file, when resolved


@dataclass(frozen=True, slots=True)
class FileFacts:
    """Everything one parse of one file yields."""

    language: str
    lines: int
    symbols: tuple[SymbolFact, ...] = ()
    diagnostics: tuple[DiagnosticFact, ...] = ()
    imports: tuple[ImportFact, ...] = ()
    outline_header: tuple[str, ...] = field(default=())
    parse_error: str | None = None
    has_error_nodes: bool = False
    # Payloads of per-file analyzers (see astmcp.lang.ANALYZERS), keyed by analyzer name.
    # Computed in the parse worker next to the syntax tree; must be picklable.
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Reference:
    """One occurrence of a symbol (positions as in :class:`Span`, end exclusive).

    ``confidence``: ``certain`` (scopes, imports, types), ``likely`` (a single
    candidate), ``name`` (same name, receiver unknown; ``kind`` ``string`` for
    names inside string literals).
    """

    file: str
    line: int
    column: int
    end_column: int
    kind: str
    confidence: str
    is_declaration: bool
