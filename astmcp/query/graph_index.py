"""Graph reads over the index for one ``ast_inspect_graph`` request: symbols as nodes, their edges,
fan-in, tests."""

from __future__ import annotations

import posixpath
import sqlite3
from collections import Counter
from typing import Any

from astmcp.errors import AstmcpError
from astmcp.query.common import SymbolRow, SymbolTarget, query_symbols, resolve_symbol
from astmcp.query.graph_likely import EDGE_KIND, Likely, is_python
from astmcp.query.graph_tests import TestBlocks, is_block_selector
from astmcp.query.references import twins
from astmcp.resolve.python import untyped
from astmcp.resolve.python_modules import is_test_file
from astmcp.workspace import Workspace

_SIG_CHARS = 160
_DATA_KINDS = frozenset({"variable", "attribute", "property", "enum_member", "type", "interface"})
# (other end: symbol id, or a test block's negated id; edge kind; line; certain/likely)
Edge = tuple[int, str, int, str]


def _node(row: SymbolRow, errors: int = 0) -> dict[str, Any]:
    node: dict[str, Any] = {
        "selector": row.selector,
        "name": row.name,
        "kind": row.kind,
        "file": row.file,
        "line": row.line,
        "end_line": row.end_line,
    }
    signature = row.signature.split("\n")[-1]
    if signature:
        node["signature"] = signature if len(signature) <= _SIG_CHARS else signature[: _SIG_CHARS - 1] + "…"
    if row.doc:
        node["doc"] = row.doc
    if errors:
        node["errors"] = errors
    return node


class Graph:
    """Read helpers over the index for one request."""

    def __init__(self, ws: Workspace, conn: sqlite3.Connection) -> None:
        self.ws = ws
        self.conn = conn
        self._rows: dict[int, SymbolRow | None] = {}
        self.blocks = TestBlocks(conn)
        self.likely = Likely(conn)

    def row(self, symbol_id: int) -> SymbolRow | None:
        """A symbol, or a TS/JS test block for a negative id."""
        if symbol_id < 0:
            block = self.blocks.block(-symbol_id)
            return block.row if block is not None else None
        if symbol_id not in self._rows:
            found = query_symbols(self.conn, "s.id = ?", (symbol_id,))
            self._rows[symbol_id] = found[0] if found else None
        return self._rows[symbol_id]

    def resolve(self, selector: str) -> SymbolRow:
        if is_block_selector(selector):
            return self.blocks.resolve(selector)
        row = resolve_symbol(self.ws, self.conn, SymbolTarget.model_validate({"selector": selector}))
        self._rows[row.id] = row
        return row

    def resolve_quiet(self, selector: str) -> SymbolRow | None:
        try:
            return self.resolve(selector)
        except AstmcpError:
            return None

    def nodes(self, rows: list[SymbolRow]) -> list[dict[str, Any]]:
        errors: Counter[tuple[str, str]] = Counter()
        files = sorted({r.file for r in rows})
        if files:
            marks = ",".join("?" * len(files))
            for path, symbol_path, count in self.conn.execute(
                "SELECT f.path, d.symbol_path, COUNT(*) FROM diagnostics d JOIN files f ON f.id = d.file_id"
                f" WHERE d.severity = 'error' AND d.symbol_path IS NOT NULL AND f.path IN ({marks})"
                " GROUP BY 1, 2",
                files,
            ):
                errors[(path, symbol_path)] = count
        return [_node(r, errors[(r.file, r.symbol_path)]) for r in rows]

    def out_edges(self, symbol_id: int, kinds: tuple[str, ...]) -> list[Edge]:
        """(target, kind, line, confidence) of the edges from a symbol or a test block, certain
        ones from the index and ``likely`` ones from untyped member uses; one per target and kind."""
        if symbol_id < 0:
            return self._block_edges(symbol_id, kinds)
        marks = ",".join("?" * len(kinds))
        out: dict[tuple[int, str], Edge] = {}
        for dst, kind, line in self.conn.execute(
            f"SELECT dst_symbol_id, kind, MIN(line) FROM edges WHERE src_symbol_id = ? AND kind IN ({marks})"
            " AND dst_symbol_id IS NOT NULL GROUP BY 1, 2 ORDER BY 3",
            (symbol_id, *kinds),
        ):
            out[(dst, kind)] = (dst, kind, line, "certain")
        row = self.row(symbol_id)
        if row is not None and row.kind not in _DATA_KINDS and ("calls" in kinds or "references" in kinds):
            python = is_python(row.file)
            for name, ref_kind, line in self.likely.uses_in(row):
                kind = EDGE_KIND.get(ref_kind, "references")
                target = self.likely.target(name, python) if kind in kinds else None
                if target is not None and target.id != symbol_id:
                    out.setdefault((target.id, kind), (target.id, kind, line, "likely"))
        return sorted(out.values(), key=lambda e: e[2])

    def _block_edges(self, block_id: int, kinds: tuple[str, ...]) -> list[Edge]:
        """A test block's uses: ``tests`` edges when asked for, else calls/references."""
        block = self.blocks.block(-block_id)
        if block is None:
            return []
        if "contains" in kinds:
            return [(-child.id, "contains", child.line, "certain") for child in self.blocks.children(block)]
        python = is_python(block.row.file)
        out: dict[tuple[int, str], Edge] = {}
        for symbol_id, name, ref_kind, line, confidence, target_key in self.blocks.uses(block):
            kind = "tests" if "tests" in kinds else EDGE_KIND.get(ref_kind, "references")
            if kind not in kinds:
                continue
            if symbol_id is not None and confidence == "certain":
                out.setdefault((symbol_id, kind), (symbol_id, kind, line, "certain"))
            elif confidence == "name" and untyped(target_key):
                target = self.likely.target(name, python)
                if target is not None:
                    out.setdefault((target.id, kind), (target.id, kind, line, "likely"))
        return sorted(out.values(), key=lambda e: e[2])

    def in_edges(self, symbol_id: int, kinds: tuple[str, ...]) -> list[Edge]:
        """(source, kind, line, confidence) of the edges into a symbol: the index's, test blocks
        (``tests``, when asked for) and ``likely`` untyped member uses."""
        if symbol_id < 0:
            return []
        marks = ",".join("?" * len(kinds))
        out: dict[tuple[int, str], Edge] = {}
        for src, kind, line in self.conn.execute(
            f"SELECT src_symbol_id, kind, MIN(line) FROM edges WHERE dst_symbol_id = ? AND kind IN ({marks})"
            " AND src_symbol_id IS NOT NULL GROUP BY 1, 2 ORDER BY 3, kind = 'tests' DESC",
            (symbol_id, *kinds),
        ):
            out[(src, kind)] = (src, kind, line, "certain")
        tests = "tests" in kinds
        if tests:
            for block, line in self.blocks.reaching(symbol_id):
                out.setdefault((block, "tests"), (block, "tests", line, "certain"))
        row = self.row(symbol_id)
        if row is not None:
            for file_id, path, line, col, ref_kind, scope in self.likely.uses_of(row):
                kind = EDGE_KIND.get(ref_kind, "references")
                if is_python(path):
                    src = self._python_scope(file_id, scope)
                elif file_id in self.blocks.files():
                    src = self.blocks.source(file_id, line, col, scope)
                    kind = "tests" if src is not None and src < 0 else kind
                else:
                    src = self.blocks.owner_symbol(file_id, scope)
                if src is not None and src != symbol_id and kind in kinds:
                    out.setdefault((src, kind), (src, kind, line, "likely"))
        order = sorted(out.values(), key=lambda e: (e[2], e[1] != "tests"))
        return order

    def twins(self, row: SymbolRow) -> list[SymbolRow]:
        return [row] if row.id < 0 else twins(self.conn, row)

    def _python_scope(self, file_id: int, scope: str | None) -> int | None:
        if scope is None:
            return None
        found = self.conn.execute(
            "SELECT id FROM symbols WHERE file_id = ? AND symbol_path = ? ORDER BY line LIMIT 1",
            (file_id, scope),
        ).fetchone()
        return found[0] if found else None

    def fan_in(self, ids: list[int]) -> dict[int, int]:
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        return dict(
            self.conn.execute(
                f"SELECT dst_symbol_id, COUNT(DISTINCT src_symbol_id) FROM edges WHERE dst_symbol_id IN ({marks})"
                " AND kind IN ('calls', 'references', 'inherits') GROUP BY 1",
                ids,
            ).fetchall()
        )

    def is_test(self, row: SymbolRow) -> bool:
        if row.id < 0:
            return True  # a TS/JS test block
        if not is_test_file(row.file) and "test" not in posixpath.basename(row.file):
            return False
        name = row.name
        return name.startswith(("test", "Test")) or name.endswith(("Test", "Tests", "TestCase"))


def edge_of(src: SymbolRow, dst: SymbolRow, kind: str, line: int, confidence: str) -> dict[str, Any]:
    return {"from": src.selector, "to": dst.selector, "kind": kind, "line": line, "confidence": confidence}
