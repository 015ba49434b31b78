"""TS/JS: a project type whose members make it one of the types TypeScript's lib declares.

``class MemoryStorage { clear… getItem… key… removeItem… setItem… }`` passed where a ``Storage``
is declared (``read(storage: Storage)``): TypeScript checks the shape, not an ``implements``
clause, and reads through ``storage`` are the library's members (confidence ``none``), so no
reference ties them to ``MemoryStorage.getItem``. Renaming it would leave the class short of a
``Storage`` wherever one is used as such. When the renamed member's owner has every member a value
of a lib type needs (the object prototype's aside, and those every declaration marks optional:
``Iterator``'s ``return?``), that type needs the member, the project does not declare a type of
that name itself, and a TS/JS file of the project names it, the rename is refused with
``MUTATION_BLOCKED`` naming the type and the file (a name in a comment or a string does not count).

The other way round, a lib type with every member a value needs to be used as the owner (its
required ones, at least three with the renamed one among them: ``Store { get; set; has; delete }``
and ``Map``): the project's values of it may reach the owner through flows the outside-values check
does not follow (a generic call, a callback's return, ``Promise.resolve``), so where a file of the
project names the lib type, or reads a global variable of it (``localStorage``), the rename is
refused the same way, unless a member's declared returns cannot agree (``Map.set`` returns the
map: no ``set`` returning ``Promise<void>``).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable

from astmcp.errors import MutationBlocked
from astmcp.query.common import SymbolRow, query_symbols
from astmcp.refactor.ts_literals import TsFiles
from astmcp.refactor.ts_returns import returned_type, returns_disagree
from astmcp.refactor.ts_structural import owner_shapes
from astmcp.resolve.ts_library import (
    lib_global_values,
    lib_member_result,
    lib_required_members,
    lib_types_declaring,
)
from astmcp.workspace import Workspace

__all__ = ["check_lib_shapes", "member_names", "member_signatures"]

_MEMBER_KINDS = ("method", "property", "getter", "setter")
_OWNER_KINDS = ("interface", "type", "class")
_LEAST = 3  # members a value must need before a lib type having them all is taken for one


def check_lib_shapes(
    ws: Workspace, conn: sqlite3.Connection, row: SymbolRow, family: Iterable[SymbolRow]
) -> None:
    """MUTATION_BLOCKED when a renamed member's owner has the shape of a lib type the project
    names, or that type has every member the owner requires."""
    files: TsFiles | None = None
    members = [
        m
        for m in (row, *family)
        if m.kind in _MEMBER_KINDS and m.parent_path is not None and not m.file.endswith((".py", ".pyi"))
    ]
    for member in members:
        declaring = lib_types_declaring(member.name)
        if not declaring:
            continue
        for owner in query_symbols(
            conn, "f.path = ? AND s.symbol_path = ?", (member.file, member.parent_path)
        ):
            if owner.kind not in _OWNER_KINDS:
                continue
            own = member_names(conn, owner)
            for lib_type, theirs in declaring:
                needed = lib_required_members(lib_type) or theirs  # (`Iterator`: `next`, not `return?`)
                if member.name not in needed or not needed <= own or _declared_in_project(conn, lib_type):
                    continue
                files = files or TsFiles(ws)
                where = _named_in(conn, files, lib_type)
                if where is not None:
                    raise MutationBlocked(
                        f"{row.name!r} is a member of {owner.name}, which has every member a value of {lib_type}"
                        f" needs ({lib_type}: a type TypeScript's library declares, which {where} names): its"
                        f" values may be used as one (TypeScript checks the shape), which keeps its"
                        f" {member.name!r}, so renaming the member would leave {owner.name} short of a {lib_type}",
                        {"library_type": lib_type, "named_in": where, "owner": owner.selector},
                    )
    for shape in owner_shapes(conn, members):
        member, owner, required = shape.member, shape.owner, shape.required
        if shape.nominal or member.name not in required or len(required) < _LEAST:
            continue  # (an optional member: a value without it still fits once renamed)
        for lib_type, theirs in lib_types_declaring(member.name):
            if (
                not required <= theirs
                or _declared_in_project(conn, lib_type)
                or any(
                    returns_disagree(
                        returned_type(key, shape.signatures.get(key, "")), _lib_promised(lib_type, key)
                    )
                    for key in required
                )
            ):
                continue
            files = files or TsFiles(ws)
            where = _named_in(conn, files, lib_type)
            if where is not None:
                raise MutationBlocked(
                    f"{row.name!r} is a member of {owner.name}, and {lib_type}, a type TypeScript's"
                    f" library declares and {where} names, has every member a value needs to be used as"
                    f" one: its values may be (TypeScript checks the shape), and they keep their"
                    f" {member.name!r}, so renaming the member would break that",
                    {"library_type": lib_type, "named_in": where, "owner": owner.selector},
                )


def _lib_promised(lib_type: str, member: str) -> bool | None:
    """Whether a lib type's method returns a ``Promise`` (as :func:`ts_returns.promised`): the
    lib's table names what some return (``()Boolean``, ``()this``), never a ``Promise``."""
    result = lib_member_result(lib_type, member)
    if result is None or not result.startswith("()"):
        return None
    return result[2:] in ("Promise", "PromiseLike")


def _named_in(conn: sqlite3.Connection, files: TsFiles, lib_type: str) -> str | None:
    """A TS/JS file of the project whose code names the lib type or reads a global variable the
    lib declares of it (``localStorage``: a ``Storage``), or None. A comment or a string saying
    "Storage key" does not count; a JSDoc comment of a JS file, where its types are written, does."""
    for needle in (lib_type, *sorted(lib_global_values(lib_type))):
        kinds = _NAMES if needle == lib_type else _VALUES
        named = re.compile(rf"(?<![\w$]){re.escape(needle)}(?![\w$])")
        spelled = needle.encode()
        for path, parsed in files.holding(conn, needle, fits=named):
            pending = [parsed.tree.root_node]
            while pending:
                node = pending.pop()
                if node.type in kinds and node.text == spelled:
                    return path
                if (
                    node.type == "comment"
                    and not path.endswith((".ts", ".tsx", ".mts", ".cts"))
                    and (node.text or b"").startswith(b"/**")
                    and named.search((node.text or b"").decode("utf-8", "replace"))
                ):
                    return path
                if node.type not in _PROSE:
                    pending.extend(node.children)
    return None


_NAMES = frozenset({"identifier", "type_identifier"})
_VALUES = frozenset({"identifier", "property_identifier"})  # `localStorage`, `window.localStorage`
_PROSE = frozenset({"comment", "string", "template_string"})


def member_names(conn: sqlite3.Connection, owner: SymbolRow) -> frozenset[str]:
    """The names of the members a project type declares itself."""
    return frozenset(member_signatures(conn, owner))


def member_signatures(conn: sqlite3.Connection, owner: SymbolRow) -> dict[str, str]:
    """The members a project type declares itself, by name, with their signatures."""
    prefix = f"{owner.symbol_path}."
    out: dict[str, str] = {}
    for path, signature in conn.execute(
        "SELECT s.symbol_path, s.signature FROM symbols s JOIN files f ON f.id = s.file_id"
        " WHERE f.path = ? AND substr(s.symbol_path, 1, ?) = ?",
        (owner.file, len(prefix), prefix),
    ):
        name = str(path)[len(prefix) :]
        if "." not in name:
            out.setdefault(name, str(signature or ""))
    return out


def _declared_in_project(conn: sqlite3.Connection, name: str) -> bool:
    """Whether the project declares a type or value of that name (then the name is likely its own)."""
    return conn.execute("SELECT 1 FROM symbols WHERE name = ? LIMIT 1", (name,)).fetchone() is not None
