"""Python private-name mangling: inside a class body, ``__name`` (two leading underscores, not two
trailing) is spelled ``_Class__name``, where ``Class`` is the innermost enclosing class.

A rename must not move a reference across that line: ``o.run()`` renamed to ``o.__go()`` outside
the class reads ``__go`` while the class defines ``_C__go``; inside a subclass body ``self.__go``
reads ``_D__go``; a module-level ``__helper`` used in a method is looked up as ``_C__helper``.
And a mangled member is also reached by its spelled-out name (``obj._C__secret``), which is no
reference of ``__secret``: renaming it would leave those behind.
"""

from __future__ import annotations

import sqlite3

from astmcp.errors import MutationBlocked
from astmcp.query.common import SymbolRow, query_symbols
from astmcp.refactor.rename_refs import Hit

__all__ = ["check_mangling", "mangled_form"]


def mangled_form(name: str) -> bool:
    return name.startswith("__") and not name.endswith("__")


def _innermost_classes(conn: sqlite3.Connection, hits: list[Hit]) -> dict[tuple[str, int], SymbolRow | None]:
    """For each hit's (file, line), the innermost class whose body holds it (None: no class)."""
    out: dict[tuple[str, int], SymbolRow | None] = {}
    for path in {h.file for h in hits}:
        classes = query_symbols(conn, "f.path = ? AND s.kind = 'class'", (path,))
        for hit in hits:
            if hit.file != path:
                continue
            holding = [c for c in classes if c.line < hit.line <= c.end_line]
            out[(path, hit.line)] = max(holding, key=lambda c: c.line) if holding else None
    return out


def check_mangling(conn: sqlite3.Connection, row: SymbolRow, new_name: str, hits: list[Hit]) -> None:
    """MUTATION_BLOCKED when renaming ``row`` to ``new_name`` would change how mangling reads one
    of ``hits`` (the references to edit), or when the old name is spelled out mangled somewhere."""
    if not row.file.endswith((".py", ".pyi")):
        return
    owner = None
    if row.parent_path:
        found = query_symbols(
            conn, "f.path = ? AND s.symbol_path = ? AND s.kind = 'class'", (row.file, row.parent_path)
        )
        owner = found[0] if found else None
    if mangled_form(new_name) and not mangled_form(row.name):
        where = _innermost_classes(conn, hits)
        moved = [
            f"{path}:{line}"
            for (path, line), cls in sorted(where.items())
            if (cls.id if cls else None) != (owner.id if owner else None)
        ]
        # a name in a string is never mangled: `hasattr(self, "__cache")` asks for `__cache`
        # where `self.__cache` in the same body is `_Account__cache`
        moved += sorted({f"{h.file}:{h.line}" for h in hits if h.kind == "string"} - set(moved))
        if moved:
            raise MutationBlocked(
                f"{new_name!r} starts with two underscores: Python mangles it inside class bodies"
                f" (`_{(owner.name if owner else 'Class').lstrip('_')}{new_name}`), so the references at"
                f" {', '.join(moved[:5])} would no longer reach it; choose a name without the leading `__`",
                {"references": moved},
            )
    if row.kind == "class":
        # `obj._Account__balance` spells the class's name: renamed, the class mangles its private
        # names as `_Wallet__balance`, and that read would find nothing
        prefix = f"_{row.name.lstrip('_')}__"
        spelled_out = conn.execute(
            "SELECT f.path, r.line FROM refs r JOIN files f ON f.id = r.file_id"
            " WHERE substr(r.name, 1, ?) = ? AND f.language = 'python' ORDER BY f.path, r.line",
            (len(prefix), prefix),
        ).fetchall()
        if spelled_out:
            places = [f"{path}:{line}" for path, line in spelled_out]
            raise MutationBlocked(
                f"{row.name!r} is spelled inside mangled names ({prefix}…: {', '.join(places[:5])}), which"
                " name its private members from outside; renamed, the class would mangle them otherwise."
                " Rename those by hand",
                {"references": places},
            )
    if mangled_form(row.name) and owner is not None:
        spelled = f"_{owner.name.lstrip('_')}{row.name}"
        found_refs = conn.execute(
            "SELECT f.path, r.line FROM refs r JOIN files f ON f.id = r.file_id WHERE r.name = ?"
            " ORDER BY f.path, r.line",
            (spelled,),
        ).fetchall()
        if found_refs:
            places = [f"{path}:{line}" for path, line in found_refs]
            raise MutationBlocked(
                f"{row.name!r} is also reached by its mangled spelling {spelled!r} ({', '.join(places[:5])}),"
                " which is no reference of it; rename those by hand",
                {"references": places},
            )
