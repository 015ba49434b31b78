"""TS/JS: project types that get a renamed member's name from a base outside the project.

``interface Public extends Props { rank: number }`` with ``Props`` from a package declaring
``name`` and ``label``: a ``Public`` is accepted where a ``Named { name; label }`` is declared
(``show(person)``), though no project declaration of ``label`` joins the two. Structural partners
(``ts_structural``) are the members the project declares; this finds the ones an outside base
gives. When a project type that does not hold the member itself derives from an outside class or
interface whose installed declarations (its bases in the package included) or TypeScript's lib give
the member's name, and every other member the family's type requires is its own or that base's,
renaming the member
would leave the type short of one wherever it is used so; the rename is refused with
``MUTATION_BLOCKED`` naming the type and its base. A base whose declarations are not read for
certain (a type alias, a base outside the package) is left alone (``unread_bases`` judges the
family's own classes).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable

from astmcp.errors import MutationBlocked
from astmcp.query.common import SymbolRow, ancestry, query_symbols
from astmcp.query.references import VALUE_BASE
from astmcp.refactor.ts_structural import derived_types, member_owner, type_shapes
from astmcp.resolve.ts_library import lib_instance_members
from astmcp.resolve.ts_packages import package_type_names, project_root
from astmcp.resolve.typescript import JS_GLOBAL

__all__ = ["check_outside_shapes"]

_MEMBER_KINDS = ("method", "property", "getter", "setter")


def check_outside_shapes(conn: sqlite3.Connection, row: SymbolRow, family: Iterable[SymbolRow]) -> None:
    """MUTATION_BLOCKED when a project type may be used as the renamed member's type with that
    member given by an outside base."""
    members = [m for m in (row, *family) if m.kind in _MEMBER_KINDS and m.parent_path]
    if not members or any(m.file.endswith((".py", ".pyi")) for m in members):
        return
    type_shape = type_shapes(conn)
    holders: set[int] = set()  # the family's types and those deriving from them: they hold it
    shapes: list[tuple[str, set[str]]] = []  # (type name, member names it requires)
    for member in members:
        owner = member_owner(conn, member)
        if owner is None:
            continue
        for type_id in derived_types(conn, owner.id):
            if type_id not in holders:
                holders.add(type_id)
                shapes.append((owner.name, type_shape(type_id)[1]))
    if not shapes:
        return
    reader = _OutsideNames(conn)
    for type_id, keys in _outside_derived(conn, holders):
        own, _ = type_shape(type_id)
        if row.name in own:
            continue  # its own member (or a project base's): a structural partner, judged there
        outside = [reader.names(key) for key in keys]
        if any(names is None for names in outside):
            continue  # a base not read for certain (unread_bases judges the family's own)
        given = [key for key, names in zip(keys, outside, strict=True) if names and row.name in names]
        if not given:
            continue
        for owner_name, required in shapes:
            rest = required - own - {row.name}
            if all(any(names and name in names for names in outside) for name in rest):
                found = query_symbols(conn, "s.id = ?", (type_id,))
                label = found[0].name if found else "a project type"
                raise MutationBlocked(
                    f"{row.name!r} of {owner_name}: {label} gets a {row.name!r} from"
                    f" {given[0].removeprefix('js:').removeprefix('global.')}, outside the project, and may be"
                    f" used as a {owner_name}; renaming it would leave {label} short of the member"
                )


class _OutsideNames:
    """The public member names of outside bases (``js:<package>.<Type>``: its installed
    declarations, the bases it extends in the package included; ``js:global.<Type>``: TypeScript's
    lib); None for one not read for certain."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.root = project_root(conn)
        self._found: dict[str, frozenset[str] | None] = {}

    def names(self, key: str) -> frozenset[str] | None:
        if key not in self._found:
            found: frozenset[str] | None = None
            if key.startswith(JS_GLOBAL):
                found = lib_instance_members(key[len(JS_GLOBAL) :])
            elif key.startswith("js:") and self.root is not None and not key.endswith(VALUE_BASE):
                found = package_type_names(str(self.root), key[3:])
            self._found[key] = found
        return self._found[key]


def _outside_derived(conn: sqlite3.Connection, holders: set[int]) -> list[tuple[int, list[str]]]:
    """``(type, outside base keys)`` of every project class or interface with an outside base
    (its own or a project ancestor's), not one of ``holders``."""
    found: list[tuple[int, list[str]]] = []
    rows = conn.execute(
        "SELECT DISTINCT e.src_symbol_id FROM edges e JOIN symbols s ON s.id = e.src_symbol_id"
        " JOIN files f ON f.id = s.file_id WHERE e.kind = 'inherits' AND e.dst_symbol_id IS NULL"
        " AND e.dst_key LIKE 'js:%' AND s.kind IN ('class', 'interface')"
        " AND f.path NOT LIKE '%.py' AND f.path NOT LIKE '%.pyi'"
    ).fetchall()
    seen: set[int] = set()
    for (base_id,) in rows:
        for type_id in derived_types(conn, int(base_id)):
            if type_id in seen or type_id in holders:
                continue
            seen.add(type_id)
            _, outside = ancestry(conn, [type_id])
            keys = sorted(k for k in outside if k.startswith("js:"))
            if keys:
                found.append((type_id, keys))
    return found
