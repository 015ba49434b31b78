"""TS/JS: a project type whose members make it one of the types TypeScript's lib declares.

``class MemoryStorage { clear… getItem… key… removeItem… setItem… }`` passed where a ``Storage``
is declared (``read(storage: Storage)``): TypeScript checks the shape, not an ``implements``
clause, and reads through ``storage`` are the library's members (confidence ``none``), so no
reference ties them to ``MemoryStorage.getItem``. Renaming it would leave the class short of a
``Storage`` wherever one is used as such. When the renamed member's owner has every member a lib
type declares (the object prototype's aside), that type declares the member's name, the project
does not declare a type of that name itself, and a TS/JS file of the project names it, the rename
is refused with ``MUTATION_BLOCKED`` naming the type and the file.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable

from astmcp.errors import MutationBlocked
from astmcp.query.common import SymbolRow, query_symbols
from astmcp.refactor.ts_literals import TsFiles
from astmcp.resolve.ts_library import lib_types_declaring
from astmcp.workspace import Workspace

__all__ = ["check_lib_shapes", "member_names"]

_MEMBER_KINDS = ("method", "property", "getter", "setter")
_OWNER_KINDS = ("interface", "type", "class")


def check_lib_shapes(
    ws: Workspace, conn: sqlite3.Connection, row: SymbolRow, family: Iterable[SymbolRow]
) -> None:
    """MUTATION_BLOCKED when a renamed member's owner has the shape of a lib type the project names."""
    files: TsFiles | None = None
    for member in [row, *family]:
        if (
            member.kind not in _MEMBER_KINDS
            or member.parent_path is None
            or member.file.endswith((".py", ".pyi"))
        ):
            continue
        declaring = lib_types_declaring(member.name)
        if not declaring:
            continue
        for owner in query_symbols(
            conn, "f.path = ? AND s.symbol_path = ?", (member.file, member.parent_path)
        ):
            if owner.kind not in _OWNER_KINDS:
                continue
            own = member_names(conn, owner)
            for lib_type, members in declaring:
                if not members <= own or _declared_in_project(conn, lib_type):
                    continue
                files = files or TsFiles(ws)
                named = re.compile(rf"(?<![\w$.]){re.escape(lib_type)}(?![\w$])")
                where = next((path for path, _ in files.holding(conn, lib_type, fits=named)), None)
                if where is not None:
                    raise MutationBlocked(
                        f"{row.name!r} is a member of {owner.name}, which has every member of {lib_type}, a"
                        f" type TypeScript's library declares and {where} names: its values may be used as"
                        f" one (TypeScript checks the shape), which keeps its {member.name!r}, so renaming"
                        f" the member would leave {owner.name} short of a {lib_type}",
                        {"library_type": lib_type, "named_in": where, "owner": owner.selector},
                    )


def member_names(conn: sqlite3.Connection, owner: SymbolRow) -> frozenset[str]:
    """The names of the members a project type declares itself."""
    prefix = f"{owner.symbol_path}."
    return frozenset(
        path[len(prefix) :]
        for (path,) in conn.execute(
            "SELECT s.symbol_path FROM symbols s JOIN files f ON f.id = s.file_id"
            " WHERE f.path = ? AND substr(s.symbol_path, 1, ?) = ?",
            (owner.file, len(prefix), prefix),
        )
        if "." not in path[len(prefix) :]
    )


def _declared_in_project(conn: sqlite3.Connection, name: str) -> bool:
    """Whether the project declares a type or value of that name (then the name is likely its own)."""
    return conn.execute("SELECT 1 FROM symbols WHERE name = ? LIMIT 1", (name,)).fetchone() is not None
