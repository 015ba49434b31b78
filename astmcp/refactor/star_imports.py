"""Python: modules that take a renamed module-level name through ``from m import *``.

A star import binds the module's public names (those not starting with ``_``), or its ``__all__``.
So a rename can take the name away from an importer (``helper`` → ``_helper`` leaves
``from .a import *`` without it: NameError at its uses), or bring the new name into an importer
that already binds it (``_priv`` → ``other`` overrides the importer's own ``other``, silently).
"""

from __future__ import annotations

import json
import sqlite3

from astmcp.errors import MutationBlocked, NameCollision
from astmcp.query.common import SymbolRow, query_symbols
from astmcp.refactor.rename_refs import Hit

__all__ = ["check_star_exports", "check_star_importers", "star_importers"]


def _exports(name: str, all_names: list[str] | None) -> bool:
    return name in all_names if all_names is not None else not name.startswith("_")


def _all_of(conn: sqlite3.Connection, path: str) -> list[str] | None:
    own = conn.execute("SELECT data FROM module_facts WHERE path = ?", (path,)).fetchone()
    found = json.loads(own[0]).get("all") if own else None
    return list(found) if isinstance(found, list) else None


def _star_sources(conn: sqlite3.Connection, path: str) -> list[str]:
    return [
        str(p)
        for (p,) in conn.execute(
            "SELECT i.resolved_path FROM imports i JOIN files f ON f.id = i.file_id WHERE f.path = ?"
            " AND i.kind = 'star' AND i.resolved_path IS NOT NULL",
            (path,),
        )
    ]


def _passes(conn: sqlite3.Connection, path: str, name: str, listed_as: str) -> bool:
    """Whether ``from path import *`` passes ``name`` on: listed in its ``__all__`` (as
    ``listed_as``, the entry a rename edits), or public when it has none."""
    all_names = _all_of(conn, path)
    if all_names is None:
        return not name.startswith("_")
    return listed_as in all_names


def star_importers(
    conn: sqlite3.Connection, source: str, name: str, listed_as: str | None = None
) -> set[str]:
    """The modules ``name`` of ``source`` reaches through ``from m import *``, directly or through
    other such modules (a module whose ``__all__`` leaves the name out, or that has none and the
    name is private, passes it no further). ``listed_as``: the spelling ``__all__`` lists it by."""
    reached: set[str] = set()
    queue = [source]
    while queue:
        current = queue.pop()
        for (path,) in conn.execute(
            "SELECT f.path FROM imports i JOIN files f ON f.id = i.file_id WHERE i.kind = 'star'"
            " AND i.resolved_path = ?",
            (current,),
        ).fetchall():
            path = str(path)
            if path in reached or path == source:
                continue
            reached.add(path)
            if _passes(conn, path, name, listed_as or name):
                queue.append(path)
    return reached


def _provides(conn: sqlite3.Connection, path: str, name: str, skip: str, depth: int = 0) -> bool:
    """Whether ``import *`` of the Python module ``path`` binds ``name`` (not by way of ``skip``)."""
    if path == skip or depth > 8:
        return False
    all_names = _all_of(conn, path)
    if all_names is not None and name not in all_names:
        return False
    if all_names is None and name.startswith("_"):
        return False
    own = conn.execute("SELECT data FROM module_facts WHERE path = ?", (path,)).fetchone()
    defined = query_symbols(conn, "f.path = ? AND s.name = ? AND s.parent_path IS NULL", (path, name))
    if own and name in json.loads(own[0]).get("binds", {}):
        # `from pkg.error import Error` of ``skip`` itself passes on the very object: no other one
        sources = {
            str(source)
            for (source,) in conn.execute(
                "SELECT i.resolved_path FROM imports i JOIN files f ON f.id = i.file_id WHERE f.path = ?"
                " AND (i.alias = ? OR ((i.alias IS NULL OR i.alias = '') AND i.name = ?))",
                (path, name, name),
            )
        }
        return bool(defined) or not sources or sources != {skip}
    if defined:
        return True
    return any(_provides(conn, source, name, skip, depth + 1) for source in _star_sources(conn, path))


def check_star_importers(conn: sqlite3.Connection, row: SymbolRow, new_name: str, hits: list[Hit]) -> None:
    """Python: MUTATION_BLOCKED when the rename takes the name out of an ``import *`` that passes
    it on (``run`` -> ``_run`` with ``from .core import *`` in the package's ``__init__`` and
    ``pkg.run()`` elsewhere); NAME_COLLISION when it brings the new name into a module that
    already binds it, itself or through another ``import *``, or when a file the rename edits
    takes the new name from an ``import *`` of another module."""
    if row.parent_path or not row.file.endswith((".py", ".pyi")):
        return
    all_names = _all_of(conn, row.file)
    old_out = _exports(row.name, all_names)
    # `__all__` entries are renamed with the name: a listed name stays listed
    new_out = old_out if all_names is not None else _exports(new_name, None)
    edited = {h.file for h in hits}
    for path in sorted(edited | {row.file}):
        clash = next((m for m in _star_sources(conn, path) if _provides(conn, m, new_name, row.file)), None)
        if clash is not None:
            raise NameCollision(
                f"{path} takes {clash}'s names with `import *`, which include {new_name!r}: the renamed"
                " name would meet that one there",
                {"file": path, "new_name": new_name},
            )
    if not old_out and not new_out:
        return
    old_reach = star_importers(conn, row.file, row.name) if old_out else set()
    new_reach = star_importers(conn, row.file, new_name, row.name) if new_out else set()
    for path in sorted(old_reach):
        twin = next(
            (
                m
                for m in _star_sources(conn, path)
                if m != row.file and _provides(conn, m, row.name, row.file)
            ),
            None,
        )
        if twin is not None:
            raise MutationBlocked(
                f"{path} takes {row.name!r} with `import *` from {row.file} and from {twin} (one or the other,"
                f" as `try`/`except ImportError` picks): uses of {path}'s {row.name!r} may mean either, and"
                " renaming one would leave them to the other",
                {"file": path, "other": twin},
            )
    lost = old_reach - new_reach
    through = sorted(
        path
        for path in edited
        if path in lost
        or (
            lost
            and conn.execute(
                "SELECT 1 FROM imports i JOIN files f ON f.id = i.file_id WHERE f.path = ? AND i.resolved_path IN"
                f" ({','.join('?' * len(lost))}) LIMIT 1",
                (path, *sorted(lost)),
            ).fetchone()
        )
    )
    if through:
        raise MutationBlocked(
            f"{through[0]} takes {row.name!r} from {row.file} through `import *`, which leaves out names"
            f" starting with `_` (where no `__all__` lists them): {new_name!r} would be undefined there",
            {"file": through[0], "importers": sorted(lost)},
        )
    for path in sorted(new_reach):
        others = [m for m in _star_sources(conn, path) if m != row.file]
        bound = bool(
            (
                new_name in json.loads(own[0]).get("binds", {})
                if (own := conn.execute("SELECT data FROM module_facts WHERE path = ?", (path,)).fetchone())
                else False
            )
            or query_symbols(conn, "f.path = ? AND s.name = ? AND s.parent_path IS NULL", (path, new_name))
        )
        if not bound and path not in old_reach:
            # the name arrives where it did not: a read of the new name there (a builtin's,
            # `format(…)`) would take the renamed one
            bound = (
                conn.execute(
                    "SELECT 1 FROM refs r JOIN files f ON f.id = r.file_id WHERE f.path = ? AND r.name = ? LIMIT 1",
                    (path, new_name),
                ).fetchone()
                is not None
            )
        clash = path if bound else next((m for m in others if _provides(conn, m, new_name, row.file)), None)
        if clash is not None:
            raise NameCollision(
                f"{path} takes {row.file}'s names with `import *` and already has {new_name!r} (from"
                f" {clash}): the renamed name would replace one or the other",
                {"file": path, "new_name": new_name},
            )


def _exports_name(conn: sqlite3.Connection, path: str, name: str) -> bool:
    """Whether the TS/JS module ``path`` exports ``name`` of its own (a declaration or a named
    export / re-export), not counting its `export *`."""
    declared = conn.execute(
        "SELECT 1 FROM symbols s JOIN files f ON f.id = s.file_id WHERE f.path = ? AND s.parent_path IS NULL"
        " AND s.name = ? AND s.exported = 1 LIMIT 1",
        (path, name),
    ).fetchone()
    named = conn.execute(
        "SELECT 1 FROM imports i JOIN files f ON f.id = i.file_id WHERE f.path = ? AND i.kind != 'star'"
        " AND i.kind != 'import' AND COALESCE(i.alias, i.name) = ? LIMIT 1",
        (path, name),
    ).fetchone()
    return declared is not None or named is not None


def check_star_exports(conn: sqlite3.Connection, row: SymbolRow, new_name: str) -> None:
    """TS/JS: NAME_COLLISION when a module passing the renamed export on with `export * from`
    (directly or through other such modules) already exports the new name: its own export wins
    silently, or two `export *` sources make the name ambiguous (TS2308) and it is dropped."""
    if row.parent_path or row.file.endswith((".py", ".pyi")) or not row.exported:
        return
    star = (
        "SELECT f.path FROM imports i JOIN files f ON f.id = i.file_id WHERE i.kind = 'star'"
        " AND i.resolved_path = ?"
    )
    seen = {row.file}
    queue = [row.file]
    while queue:
        source = queue.pop()
        for (path,) in conn.execute(star, (source,)).fetchall():
            if path in seen:
                continue
            seen.add(path)
            queue.append(path)
            others = [
                str(p)
                for (p,) in conn.execute(
                    "SELECT i.resolved_path FROM imports i JOIN files f ON f.id = i.file_id WHERE f.path = ?"
                    " AND i.kind = 'star' AND i.resolved_path IS NOT NULL AND i.resolved_path != ?",
                    (path, source),
                )
            ]
            clash = path if _exports_name(conn, path, new_name) else None
            clash = clash or next((o for o in others if _exports_name(conn, o, new_name)), None)
            if clash is not None:
                raise NameCollision(
                    f"{path} passes {row.file}'s exports on with `export *` and {new_name!r} is already"
                    f" exported there (by {clash}): the renamed export would be hidden or made ambiguous",
                    {"file": path, "new_name": new_name},
                )
