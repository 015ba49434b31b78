"""Dump the fact tables of an astmcp index as sorted text rows, for checking that a refactor keeps
behaviour: index a project before and after, dump both, diff.

Row ids are replaced by what they point at (file path, ``path::selector``); timestamps, mtimes and the
``stats`` timings are left out. Tables this script does not know (e.g. the diagnostics' own) are dumped
whole, without their ``id`` column.

    ast-tool index --root DIR && python scripts/dump_index_facts.py DIR/.astmcp/index.db OUT.txt
"""

from __future__ import annotations

import json
import sqlite3
import sys
from collections.abc import Iterable
from typing import Any

_KNOWN = {"meta", "files", "symbols", "imports", "diagnostics", "refs", "edges", "module_facts", "link_deps"}
_SKIPPED = {"stats"}  # timings only


def _canonical(text: str) -> str:
    return json.dumps(json.loads(text), sort_keys=True, ensure_ascii=False)


def dump(db: str) -> list[str]:
    conn = sqlite3.connect(db)
    paths: dict[int, str] = dict(conn.execute("SELECT id, path FROM files"))
    symbols = {
        i: f"{paths.get(f)}::{s}" for i, f, s in conn.execute("SELECT id, file_id, selector FROM symbols")
    }
    lines: list[str] = []

    def sym(symbol_id: int | None) -> str | None:
        return symbols.get(symbol_id) if symbol_id is not None else None

    def emit(table: str, rows: Iterable[tuple[Any, ...]]) -> None:
        lines.extend(f"{table}\t{r}" for r in sorted(repr(row) for row in rows))

    def columns(table: str, drop: set[str]) -> list[str]:
        return [r[1] for r in conn.execute(f"PRAGMA table_info({table})") if r[1] not in drop]

    emit(
        "files",
        conn.execute(
            "SELECT path, language, size, sha256, lines, parse_error, has_error_nodes, outline_header FROM files"
        ),
    )
    for table in ("symbols", "imports", "diagnostics"):
        cols = columns(table, {"id", "file_id"})
        rows = conn.execute(f"SELECT file_id, {', '.join(cols)} FROM {table}")
        emit(table, ((paths[r[0]], *r[1:]) for r in rows))
    emit(
        "refs",
        (
            (paths[r[0]], sym(r[1]), *r[2:])
            for r in conn.execute(
                "SELECT file_id, symbol_id, target_key, name, line, col, end_col, kind, confidence, scope_path"
                " FROM refs"
            )
        ),
    )
    emit(
        "edges",
        (
            (paths[r[0]], sym(r[1]), sym(r[2]), *r[3:])
            for r in conn.execute(
                "SELECT file_id, src_symbol_id, dst_symbol_id, dst_key, kind, line FROM edges"
            )
        ),
    )
    # JSON columns in a canonical form: an object's key order may follow set iteration
    emit(
        "module_facts",
        (
            (p, _canonical(d), _canonical(s))
            for p, d, s in conn.execute("SELECT path, data, symbols FROM module_facts")
        ),
    )
    emit("link_deps", ((paths[r[0]], r[1]) for r in conn.execute("SELECT file_id, dep FROM link_deps")))
    for (table,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"):
        if table in _KNOWN or table in _SKIPPED:
            continue
        cols = columns(table, {"id"})
        if "file_id" in cols:
            rest = [c for c in cols if c != "file_id"]
            rows = conn.execute(f"SELECT file_id, {', '.join(rest)} FROM {table}")
            emit(table, ((paths.get(r[0]), *r[1:]) for r in rows))
        else:
            emit(table, conn.execute(f"SELECT {', '.join(cols)} FROM {table}"))
    conn.close()
    return lines


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: dump_index_facts.py INDEX_DB OUT_TXT", file=sys.stderr)
        return 2
    with open(argv[1], "w", encoding="utf-8") as out:
        out.write("\n".join(dump(argv[0])) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
