"""Python: names a library makes from another symbol's name to call a project member.

arpeggio builds a grammar from functions (``def rrel_parent(): return "parent", "(", …``) and
names each rule after its function; a ``PTNodeVisitor`` subclass then handles a rule in the
method ``visit_<rule name>``, which arpeggio calls by the name it makes at run time
(``getattr(visitor, "visit_%s" % node.rule_name)``; ``query.references`` already reaches the
method through that template). Renaming the *function* renames the rule, and
``visit_rrel_parent`` is never called again. So when a project class deriving from an outside
class whose code makes member names from a template (``python_external.computed_members``) has
a member whose name is the template filled with the renamed symbol's name, that member is a name
hit of kind ``data`` (never edited: it is another symbol, and renaming it too is a choice only a
reader can make), and the rename is blocked by default.
"""

from __future__ import annotations

import sqlite3

from astmcp.query.common import SymbolRow, ancestry, query_symbols
from astmcp.refactor.rename_refs import Hit
from astmcp.resolve.python_external import computed_members
from astmcp.resolve.templates import FOLDS, TEMPLATE

__all__ = ["rule_name_hits"]


def rule_name_hits(conn: sqlite3.Connection, row: SymbolRow) -> list[Hit]:
    """Name hits (kind ``data``) at the project members an outside template makes from the
    name of ``row`` (see the module's docstring)."""
    if row.kind not in ("function", "class", "variable") or not row.file.endswith((".py", ".pyi")):
        return []
    found: list[Hit] = []
    for member in query_symbols(
        conn,
        "instr(s.name, ?) > 0 AND s.name != ? AND s.kind IN ('method', 'function')"
        " AND s.parent_path IS NOT NULL AND f.language = 'python'",
        (row.name, row.name),
    ):
        owner = query_symbols(
            conn, "f.path = ? AND s.symbol_path = ? AND s.kind = 'class'", (member.file, member.parent_path)
        )
        if not owner:
            continue
        for key in sorted(ancestry(conn, [owner[0].id])[1]):
            template = _filled(key, row.name, member.name)
            if template is not None:
                note = (
                    f"{key} calls {template} by a name it makes at run time; {member.name} is that"
                    f" name made from {row.name!r} (a rule or handler named after it)"
                )
                found.append(
                    Hit(
                        member.file,
                        member.name_line,
                        member.name_col,
                        member.name_end_col,
                        "data",
                        "name",
                        note=note,
                    )
                )
                break
    return found


def _filled(key: str, name: str, member: str) -> str | None:
    """The template of the outside class ``key`` (``visit_<…>``) that ``name`` fills to make
    ``member``, if one does."""
    for target in computed_members(key):
        mode, (prefix, _, suffix) = target[len(TEMPLATE)], target[len(TEMPLATE) + 1 :].partition("*")
        suffix = suffix.partition("@@")[0]
        shown = FOLDS[mode](name) if mode in FOLDS else name
        if (prefix or suffix) and member == f"{prefix}{shown}{suffix}":
            return f"{prefix}<…>{suffix}"
    return None
