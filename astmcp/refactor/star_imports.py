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
from astmcp.resolve.python_modules import is_package, module_names, path_key

__all__ = ["check_star_exports", "check_star_importers"]


def _absolute(importer: str, spec: str) -> str | None:
    """``pkg.a`` for the star chain ``I:1:a:`` in ``pkg/b.py``; None when it climbs too far."""
    _, level, module, _ = [*spec.split(":", 3), "", "", "", ""][:4]
    if not level.isdigit() or int(level) == 0:
        return module or None
    parts = path_key(importer).split("/")
    package = parts if is_package(importer) else parts[:-1]
    up = int(level) - 1
    if up > len(package):
        return None
    base = package[: len(package) - up]
    return ".".join([*base, module] if module else base) or None


def _exports(name: str, all_names: list[str] | None) -> bool:
    return name in all_names if all_names is not None else not name.startswith("_")


def check_star_importers(conn: sqlite3.Connection, row: SymbolRow, new_name: str, hits: list[Hit]) -> None:
    if row.parent_path or not row.file.endswith((".py", ".pyi")):
        return
    own = conn.execute("SELECT data FROM module_facts WHERE path = ?", (row.file,)).fetchone()
    all_names = json.loads(own[0]).get("all") if own else None
    old_out = _exports(row.name, all_names)
    # `__all__` entries are renamed with the name: a listed name stays listed
    new_out = old_out if all_names is not None else _exports(new_name, None)
    if not old_out and not new_out:
        return
    names = set(module_names(row.file))
    for path, data in conn.execute('SELECT path, data FROM module_facts WHERE data LIKE \'%"star":["%\''):
        if path == row.file or not any(_absolute(path, s) in names for s in json.loads(data).get("star", [])):
            continue
        if old_out and not new_out and any(h.file == path for h in hits):
            raise MutationBlocked(
                f"{path} takes {row.name!r} with an `import *` of {row.file}, which leaves out names starting"
                f" with `_`: {new_name!r} would be undefined there",
                {"file": path},
            )
        if new_out:
            bound = new_name in json.loads(data).get("binds", {}) or query_symbols(
                conn, "f.path = ? AND s.name = ? AND s.parent_path IS NULL", (path, new_name)
            )
            if bound:
                raise NameCollision(
                    f"{path} already binds {new_name!r} and takes {row.file}'s names with `import *`:"
                    " the renamed name would replace its own",
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
