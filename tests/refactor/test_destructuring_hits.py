"""``rename_refs.destructuring_hits``: the safety net for destructuring patterns that read a
property of the renamed member's name in files the TS/JS analyzer gave up on."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from astmcp.query.common import SymbolTarget, resolve_symbol
from astmcp.refactor.rename_refs import destructuring_hits
from astmcp.workspace import Workspace

_USE = """export function read(value: any, other: any): number {
  const {
    // the store's count
    count,
  } = value;
  const { a, /* then */ count: c = 1 } = other;
  const { count = 2 }: { count?: number } = other;
  return count + c + a + other.count + value.counts;
}
"""


def _hits(ws: Workspace) -> list[tuple[str, int, int]]:
    conn = ws.db()
    try:
        row = resolve_symbol(ws, conn, SymbolTarget(selector="store.ts::Store.count"))
        return sorted((h.file, h.line, h.column) for h in destructuring_hits(conn, ws, row, set()))
    finally:
        ws.release()


def test_patterns_over_lines_and_comments_in_a_file_without_facts_are_found(tmp_path: Path) -> None:
    (tmp_path / "store.ts").write_text("export class Store {\n  count = 0;\n}\n", encoding="utf-8")
    (tmp_path / "use.ts").write_text(_USE, encoding="utf-8")
    (tmp_path / "plain.ts").write_text("export const count = (s: any) => s.count;\n", encoding="utf-8")
    ws = Workspace(tmp_path)
    try:
        assert _hits(ws) == []  # the analyzer gave each pattern key a row: nothing is missing
        # as if the analyzer had given up on use.ts (a RecursionError): no facts, no rows
        with sqlite3.connect(tmp_path / ".astmcp" / "index.db") as writer:
            writer.execute("UPDATE module_facts SET data = '{}' WHERE path = 'use.ts'")
            writer.execute("DELETE FROM refs WHERE file_id = (SELECT id FROM files WHERE path = 'use.ts')")
        assert _hits(ws) == [("use.ts", 4, 5), ("use.ts", 6, 25), ("use.ts", 7, 11)]
    finally:
        ws.index.close()
