"""TS/JS test blocks as graph nodes (``describe``/``it``/``test`` calls; see
:mod:`astmcp.resolve.ts_tests`).

A block is no symbol, so the graph gives it a negative id and a :class:`SymbolRow`
of kind ``suite`` or ``test`` whose selector is ``<file>::"outer" > "inner"``.
What a block exercises is read from the references inside its span: a reference
belongs to the innermost block around it unless its enclosing declaration is a
symbol (a helper function of the test file), whose own edges then count.
"""

from __future__ import annotations

import difflib
import json
import sqlite3
from typing import Any

from astmcp.errors import AmbiguousTarget, NotFound
from astmcp.query.common import SymbolRow

__all__ = ["Block", "TestBlocks", "is_block_selector"]

_BLOCK_COLUMNS = (
    "b.id, b.selector, b.name, b.names, b.kind, b.signature, b.line, b.col, b.end_line, b.end_col"
)
# Occurrences that are uses (a declaration or an import line exercises nothing).
NOT_USES = ("definition", "import", "export", "string")


def is_block_selector(selector: str) -> bool:
    return selector.partition("::")[2].startswith('"')


class Block:
    __slots__ = ("col", "end_col", "end_line", "file_id", "id", "line", "row")

    def __init__(self, file_id: int, path: str, data: tuple[Any, ...]) -> None:
        block_id, selector, name, names, kind, signature, line, col, end_line, end_col = data
        self.id, self.file_id = block_id, file_id
        self.line, self.col, self.end_line, self.end_col = line, col, end_line, end_col
        chain = " > ".join(json.dumps(n, ensure_ascii=False) for n in json.loads(names))
        self.row = SymbolRow(
            -block_id, selector, chain, name, kind, signature, None, line, end_line,
            line, col, end_col, None, path, line, col, col, 0,
        )  # fmt: skip

    def contains(self, line: int, col: int) -> bool:
        return (self.line, self.col) <= (line, col) < (self.end_line, self.end_col)


class TestBlocks:
    """Test blocks of the index, read per file on demand for one request."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self._files: dict[int, list[Block]] = {}
        self._by_id: dict[int, Block] = {}
        self._block_files: set[int] | None = None
        self._paths: set[str] | None = None
        self._owners: dict[tuple[int, str], int | None] = {}

    def files(self) -> set[int]:
        """Ids of the files that have test blocks."""
        if self._block_files is None:
            self._block_files = {r[0] for r in self.conn.execute("SELECT DISTINCT file_id FROM test_blocks")}
        return self._block_files

    def paths(self) -> set[str]:
        """Paths of the files that have test blocks."""
        if self._paths is None:
            self._paths = {
                r[0]
                for r in self.conn.execute(
                    "SELECT path FROM files WHERE id IN (SELECT DISTINCT file_id FROM test_blocks)"
                )
            }
        return self._paths

    def children(self, block: Block) -> list[Block]:
        """The blocks directly inside ``block``."""
        return [
            other
            for other in self.in_file(block.file_id)
            if other is not block
            and block.contains(other.line, other.col)
            and self.innermost_around(other) is block
        ]

    def innermost_around(self, block: Block) -> Block | None:
        inside = None
        for other in self.in_file(block.file_id):
            if other is block or other.line > block.line:
                break
            if other.contains(block.line, block.col):
                inside = other
        return inside

    def in_file(self, file_id: int) -> list[Block]:
        found = self._files.get(file_id)
        if found is None:
            path = self.conn.execute("SELECT path FROM files WHERE id = ?", (file_id,)).fetchone()
            found = [
                Block(file_id, path[0], row)
                for row in self.conn.execute(
                    f"SELECT {_BLOCK_COLUMNS} FROM test_blocks b WHERE b.file_id = ? ORDER BY b.line, b.col",
                    (file_id,),
                )
            ]
            self._files[file_id] = found
            self._by_id.update((b.id, b) for b in found)
        return found

    def block(self, block_id: int) -> Block | None:
        if block_id not in self._by_id:
            row = self.conn.execute("SELECT file_id FROM test_blocks WHERE id = ?", (block_id,)).fetchone()
            if row is None:
                return None
            self.in_file(row[0])
        return self._by_id.get(block_id)

    def resolve(self, selector: str) -> SymbolRow:
        row = self.conn.execute(
            "SELECT id, file_id FROM test_blocks WHERE selector = ?", (selector,)
        ).fetchone()
        if row is None:
            repeated = self.conn.execute(
                "SELECT selector, kind, line FROM test_blocks WHERE selector > ? AND selector < ? ORDER BY line",
                (selector + "@", selector + "A"),  # the selector followed by "@LINE"
            ).fetchall()
            if repeated:
                raise AmbiguousTarget(
                    f"{selector.partition('::')[2]} is declared {len(repeated)} times; add @LINE",
                    [{"selector": sel, "kind": kind, "line": line} for sel, kind, line in repeated],
                )
            path = selector.partition("::")[0]
            known = [
                r[0]
                for r in self.conn.execute(
                    "SELECT b.selector FROM test_blocks b JOIN files f ON f.id = b.file_id WHERE f.path = ?",
                    (path,),
                )
            ]
            close = difflib.get_close_matches(selector, known, n=5, cutoff=0.5)
            raise NotFound(f"no test block {selector.partition('::')[2]!r} in {path}", close)
        found = self.block(row[0])
        assert found is not None
        return found.row

    def innermost(self, file_id: int, line: int, col: int) -> Block | None:
        inside = None
        for block in self.in_file(file_id):
            if block.line > line:
                break
            if block.contains(line, col):
                inside = block  # blocks are in start order: a later one that contains is nested
        return inside

    def owner_symbol(self, file_id: int, scope: str | None) -> int | None:
        """The symbol a TS reference's ``scope_path`` (``line:col`` of its enclosing
        declaration's name) names, if it is one."""
        if scope is None:
            return None
        key = (file_id, scope)
        if key not in self._owners:
            line, _, col = scope.partition(":")
            found = self.conn.execute(
                "SELECT id FROM symbols WHERE file_id = ? AND name_line = ? AND name_col = ? ORDER BY line LIMIT 1",
                (file_id, int(line), int(col or 0)),
            ).fetchone()
            self._owners[key] = found[0] if found else None
        return self._owners[key]

    def source(self, file_id: int, line: int, col: int, scope: str | None) -> int | None:
        """The graph id (block ids negative) a reference in a test-block file comes from:
        its enclosing symbol, else its innermost block; None at module level."""
        owner = self.owner_symbol(file_id, scope)
        if owner is not None:
            return owner
        block = self.innermost(file_id, line, col)
        return -block.id if block is not None else None

    def reaching(self, symbol_id: int) -> list[tuple[int, int]]:
        """(block graph id, line) of the blocks whose own code references the symbol (certain)."""
        files = self.files()
        if not files:
            return []
        out: dict[int, int] = {}
        for file_id, line, col, scope in self.conn.execute(
            "SELECT file_id, line, col, scope_path FROM refs WHERE symbol_id = ? AND confidence = 'certain'"
            f" AND kind NOT IN ({','.join('?' * len(NOT_USES))})",
            (symbol_id, *NOT_USES),
        ):
            if file_id not in files or self.owner_symbol(file_id, scope) is not None:
                continue
            block = self.innermost(file_id, line, col)
            if block is not None:
                out.setdefault(-block.id, line)
        return sorted(out.items(), key=lambda item: item[1])

    def uses(self, block: Block) -> list[tuple[int | None, str, str, int, str, str | None]]:
        """(symbol id, name, kind, line, confidence, target_key) of the references the block's own
        code makes (not those of nested blocks or of helper symbols)."""
        out = []
        for symbol_id, name, kind, line, col, confidence, target, scope in self.conn.execute(
            "SELECT symbol_id, name, kind, line, col, confidence, target_key, scope_path FROM refs"
            " WHERE file_id = ? AND line BETWEEN ? AND ? ORDER BY line, col",
            (block.file_id, block.line, block.end_line),
        ):
            if kind in NOT_USES or not block.contains(line, col):
                continue
            if self.source(block.file_id, line, col, scope) != -block.id:
                continue
            out.append((symbol_id, name, kind, line, confidence, target))
        return out
