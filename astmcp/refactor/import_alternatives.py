"""Python: a module-level name bound both by a definition and by an import.

``try: from json import dumps as compat`` / ``except ImportError: def compat(x): …`` binds
``compat`` twice; a use means either. Renaming the definition alone leaves the import binding
the old name, so every use (renamed) is unbound whenever the import succeeds — the usual case.
The rename takes the import's binding with it: ``as compat`` becomes ``as new`` and an import
without alias gets one (``from functools import cache`` → ``… import cache as new``), and uses
that only the import binds (before the definition) are renamed too.
"""

from __future__ import annotations

import ast
import sqlite3
from collections.abc import Iterator

from astmcp.errors import AstmcpError
from astmcp.query.common import SymbolRow
from astmcp.refactor.prepare import load_file
from astmcp.refactor.rename_refs import Hit
from astmcp.workspace import Workspace

__all__ = ["IMPORT_AS", "import_alternatives"]

# a hit on an imported name that gains an alias: `cache` -> `cache as new`
IMPORT_AS = "import_as"


def _module_statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Module-level statements, into `try`/`if`/`with` blocks (not functions or classes)."""
    for node in body:
        yield node
        if isinstance(node, ast.Try | ast.TryStar):
            yield from _module_statements(node.body)
            for handler in node.handlers:
                yield from _module_statements(handler.body)
            yield from _module_statements(node.orelse)
            yield from _module_statements(node.finalbody)
        elif isinstance(node, ast.If | ast.With):
            yield from _module_statements(node.body)
            yield from _module_statements(getattr(node, "orelse", []))


def _column(line: str, byte_col: int) -> int:
    """1-based code-point column of a 0-based UTF-8 byte offset in ``line``."""
    return len(line.encode("utf-8")[:byte_col].decode("utf-8", errors="replace")) + 1


def import_alternatives(
    ws: Workspace, conn: sqlite3.Connection, row: SymbolRow, hits: list[Hit]
) -> list[Hit]:
    """Hits that rename the imports binding a module-level definition's name in its own module,
    and the uses only those imports bind (empty for anything else)."""
    if row.parent_path or not row.file.endswith(".py") or row.kind not in ("function", "class", "variable"):
        return []
    try:
        text = load_file(ws, row.file).source.text
        tree = ast.parse(text)
    except (OSError, SyntaxError, ValueError, AstmcpError):
        return []
    lines = text.split("\n")
    out: list[Hit] = []
    chains: list[str] = []
    for node in _module_statements(tree.body):
        if not isinstance(node, ast.Import | ast.ImportFrom):
            continue
        for alias in node.names:
            bound = alias.asname or alias.name
            if bound != row.name or alias.end_col_offset is None or alias.lineno != alias.end_lineno:
                continue  # `import a.b` binds `a`: never the definition's (dotted) name
            line = lines[alias.lineno - 1]
            end = _column(line, alias.end_col_offset)
            if alias.asname:  # `dumps as compat`: the alias is the last word
                out.append(Hit(row.file, alias.lineno, end - len(row.name), end, "import", "certain"))
            else:
                start = _column(line, alias.col_offset)
                out.append(Hit(row.file, alias.lineno, start, end, IMPORT_AS, "certain"))
            if isinstance(node, ast.ImportFrom):
                chains.append(f"I:{node.level}:{node.module or ''}:{alias.name}")
            else:
                chains.append(f"D:{alias.name}")
    if not out:
        return []
    seen = {(h.file, h.line, h.column) for h in hits}
    marks = ",".join("?" * len(chains))
    for line_no, col, end_col, kind in conn.execute(
        "SELECT r.line, r.col, r.end_col, r.kind FROM refs r JOIN files f ON f.id = r.file_id"
        f" WHERE f.path = ? AND r.name = ? AND r.target_key IN ({marks}) AND r.kind != 'import'",
        (row.file, row.name, *chains),
    ):
        if (row.file, line_no, col) not in seen:
            seen.add((row.file, line_no, col))
            out.append(Hit(row.file, line_no, col, end_col, kind, "certain"))
    return out
