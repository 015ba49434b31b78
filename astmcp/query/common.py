"""Shared pieces of the read tools: paging, symbol targets, selectors."""

from __future__ import annotations

import difflib
import hashlib
import re
import sqlite3
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from pydantic import Field, model_validator

from astmcp.errors import AmbiguousTarget, InvalidInput, NotFound
from astmcp.tools import ToolInput, ToolOutput
from astmcp.workspace import Workspace

_AT_LINE = re.compile(r"^(?P<path>.+?)@(?P<line>\d+)$")


def project_package(conn: sqlite3.Connection, top: str) -> bool:
    """Whether the project holds the top-level Python module or package ``top`` (a module of
    that name is then no outside one)."""
    found = conn.execute(
        "SELECT 1 FROM files WHERE language = 'python' AND (path = ? OR path LIKE ? OR path LIKE ?"
        " OR path LIKE ?) LIMIT 1",
        (f"{top}.py", f"{top}/%", f"%/{top}/%", f"%/{top}.py"),
    ).fetchone()
    return found is not None


# outside Python modules whose functions hand on what they are given (an item of a deque, what
# `functools.reduce` or `copy.copy` gives may be a project object)
PASSING_MODULES = frozenset(
    {
        "abc", "array", "asyncio", "bisect", "builtins", "collections", "concurrent", "contextlib",
        "copy", "dataclasses", "enum", "functools", "heapq", "itertools", "more_itertools", "operator",
        "queue", "random", "toolz", "types", "typing", "typing_extensions", "weakref",
    }
)  # fmt: skip

SYMBOL_COLUMNS = (
    "s.id, s.selector, s.symbol_path, s.name, s.kind, s.signature, s.doc, s.line, s.end_line,"
    " s.start_line, s.start_col, s.end_col, s.parent_path, f.path, s.name_line, s.name_col,"
    " s.name_end_col, s.exported"
)


@dataclass(frozen=True, slots=True)
class SymbolRow:
    id: int
    selector: str
    symbol_path: str
    name: str
    kind: str
    signature: str
    doc: str | None
    line: int
    end_line: int
    start_line: int
    start_col: int
    end_col: int
    parent_path: str | None
    file: str
    name_line: int
    name_col: int
    name_end_col: int
    exported: int

    @classmethod
    def from_db(cls, row: tuple[Any, ...]) -> SymbolRow:
        return cls(*row)


def query_symbols(conn: sqlite3.Connection, where: str, params: tuple[Any, ...] = ()) -> list[SymbolRow]:
    sql = f"SELECT {SYMBOL_COLUMNS} FROM symbols s JOIN files f ON f.id = s.file_id WHERE {where}"
    return [SymbolRow.from_db(r) for r in conn.execute(sql, params)]


class Paged(ToolInput):
    default_limit: ClassVar[int] = 100
    offset: int = Field(0, ge=0)
    limit: int | None = Field(None, ge=1, le=500, description="Page size (1-500).")

    def page_size(self) -> int:
        return self.limit if self.limit is not None else self.default_limit


class Formatted(ToolInput):
    output_format: Literal["json", "toon"] = "json"


class PageOut(ToolOutput):
    keep_null: ClassVar[tuple[str, ...]] = ("next_offset",)
    total: int
    offset: int
    limit: int
    has_more: bool
    next_offset: int | None = None
    truncated: bool | None = None
    truncation: str | None = None


def ancestry(conn: sqlite3.Connection, class_ids: list[int]) -> tuple[set[int], set[str]]:
    """The classes ``class_ids`` and every project class they derive from, and the keys of the
    outside bases found on the way (``typing.TypedDict``, ``builtins.type``)."""
    seen: set[int] = set()
    outside: set[str] = set()
    queue = list(class_ids)
    while queue:
        cls = queue.pop()
        if cls in seen:
            continue
        seen.add(cls)
        for target, key in conn.execute(
            "SELECT dst_symbol_id, dst_key FROM edges WHERE src_symbol_id = ? AND kind = 'inherits'", (cls,)
        ):
            if target is not None:
                queue.append(target)
            elif key:
                outside.add(key)
    return seen, outside


def unresolved_base(conn: sqlite3.Connection, class_ids: set[int]) -> bool:
    """Whether any of the classes ``class_ids`` has a base the index could not name."""
    if not class_ids:
        return False
    marks = ",".join("?" * len(class_ids))
    return (
        conn.execute(
            f"SELECT 1 FROM edges WHERE src_symbol_id IN ({marks}) AND kind = 'inherits'"
            " AND dst_symbol_id IS NULL AND (dst_key IS NULL OR dst_key = '') LIMIT 1",
            tuple(sorted(class_ids)),
        ).fetchone()
        is not None
    )


def classes_declare(conn: sqlite3.Connection, class_ids: set[int], name: str) -> bool:
    """Whether any of the classes ``class_ids`` declares a member ``name``."""
    if not class_ids:
        return False
    marks = ",".join("?" * len(class_ids))
    return (
        conn.execute(
            "SELECT 1 FROM symbols s JOIN symbols c ON c.file_id = s.file_id AND s.parent_path = c.symbol_path"
            f" WHERE c.id IN ({marks}) AND s.name = ? LIMIT 1",
            (*sorted(class_ids), name),
        ).fetchone()
        is not None
    )


def with_subclasses(conn: sqlite3.Connection, class_ids: set[int]) -> set[int]:
    """The classes ``class_ids`` and every project class deriving from them."""
    seen: set[int] = set()
    queue = list(class_ids)
    while queue:
        cls = queue.pop()
        if cls in seen:
            continue
        seen.add(cls)
        queue.extend(
            int(sub)
            for (sub,) in conn.execute(
                "SELECT src_symbol_id FROM edges WHERE dst_symbol_id = ? AND kind = 'inherits'"
                " AND src_symbol_id IS NOT NULL",
                (cls,),
            )
        )
    return seen


def page_fields(total: int, offset: int, limit: int) -> dict[str, Any]:
    has_more = offset + limit < total
    return {
        "total": total,
        "offset": offset,
        "limit": limit,
        "has_more": has_more,
        "next_offset": offset + limit if has_more else None,
    }


class SymbolTarget(ToolInput):
    """A symbol named by ``selector`` or by ``file_path`` + ``symbol_path``."""

    selector: str | None = Field(None, description='"<file>::<symbol_path>[@LINE]"')
    file_path: str | None = None
    symbol_path: str | None = Field(None, description="Dotted path in the file, e.g. Store.open or f@12.")

    @model_validator(mode="after")
    def _one_form(self) -> SymbolTarget:
        if self.selector is None and (self.file_path is None or self.symbol_path is None):
            raise ValueError("give either selector or both file_path and symbol_path")
        if self.selector is not None and (self.file_path is not None or self.symbol_path is not None):
            raise ValueError("give selector or file_path + symbol_path, not both")
        return self

    def parts(self) -> tuple[str, str]:
        if self.selector is not None:
            file_part, sep, symbol_part = self.selector.rpartition("::")
            if not sep or not file_part or not symbol_part:
                raise InvalidInput('selector must look like "<file>::<symbol_path>[@LINE]"')
            return file_part, symbol_part
        assert self.file_path is not None and self.symbol_path is not None
        return self.file_path, self.symbol_path


def candidate(row: SymbolRow) -> dict[str, Any]:
    return {"selector": row.selector, "kind": row.kind, "line": row.line}


def resolve_symbol(ws: Workspace, conn: sqlite3.Connection, target: SymbolTarget) -> SymbolRow:
    """Exactly one symbol for a target, or NOT_FOUND / AMBIGUOUS_TARGET (never a fuzzy stand-in)."""
    file_part, symbol_part = target.parts()
    path = ws.resolve_file(conn, file_part)
    line: int | None = None
    match = _AT_LINE.match(symbol_part)
    if match:
        symbol_part, line = match.group("path"), int(match.group("line"))
    rows = query_symbols(conn, "f.path = ? AND s.symbol_path = ? ORDER BY s.line", (path, symbol_part))
    if line is not None:
        exact = [r for r in rows if r.line == line]
        rows = exact or [r for r in rows if r.start_line <= line <= r.end_line]
    if len(rows) == 1:
        return rows[0]
    if len(rows) > 1:
        raise AmbiguousTarget(
            f"{len(rows)} declarations of {symbol_part!r} in {path}; add @LINE or use a selector",
            [candidate(r) for r in rows],
        )
    raise NotFound(f"no symbol {symbol_part!r} in {path}", suggest(conn, path, symbol_part))


def suggest(conn: sqlite3.Connection, path: str, symbol_path: str) -> list[str]:
    in_file = query_symbols(conn, "f.path = ?", (path,))
    by_path = {r.symbol_path: r.selector for r in in_file}
    close = difflib.get_close_matches(symbol_path, list(by_path), n=5, cutoff=0.6)
    out = [by_path[c] for c in close]
    last = symbol_path.rsplit(".", 1)[-1].lower()
    if len(out) < 5:
        for row in query_symbols(conn, "s.name_lower = ? LIMIT 10", (last,)):
            if row.selector not in out:
                out.append(row.selector)
            if len(out) >= 5:
                break
    return out[:5]


def read_indexed_lines(ws: Workspace, conn: sqlite3.Connection, path: str) -> list[str] | None:
    """The file's text as lines when its bytes are the ones the index was built from; None when
    it changed since the refresh (the index's line numbers would cut the wrong text)."""
    try:
        with open(ws.root / path, "rb") as handle:
            data = handle.read()
    except FileNotFoundError:
        return None
    row = conn.execute("SELECT sha256 FROM files WHERE path = ?", (path,)).fetchone()
    if row is None or hashlib.sha256(data).hexdigest() != row[0]:
        return None
    return data.decode("utf-8-sig", errors="replace").splitlines(keepends=True)


def mangled(symbol: SymbolRow) -> bool:
    """A Python class's private ``__name``: mangled to ``_Class__name``, so no other class's
    member of that name is the same, and none overrides it."""
    name = symbol.name
    return symbol.file.endswith((".py", ".pyi")) and name.startswith("__") and not name.endswith("__")


def outside_imports(conn: sqlite3.Connection, path: str) -> list[str]:
    """The modules outside the project the Python file ``path`` imports (absolute imports the
    index found no project file for), sorted."""
    return sorted(
        {
            module
            for (module,) in conn.execute(
                "SELECT DISTINCT i.module FROM imports i JOIN files f ON f.id = i.file_id"
                " WHERE f.path = ? AND i.level = 0 AND i.resolved_path IS NULL",
                (path,),
            )
            if module
        }
    )
