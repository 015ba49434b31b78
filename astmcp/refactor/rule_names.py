"""Python: names a library makes from another symbol's name to call a project member.

arpeggio builds a grammar from functions (``def rrel_parent(): return "parent", "(", …``) and
names each rule after its function; a ``PTNodeVisitor`` subclass then handles a rule in the
method ``visit_<rule name>``, which arpeggio calls by the name it makes at run time
(``getattr(visitor, "visit_%s" % node.rule_name)``; ``query.references`` already reaches the
method through that template). Renaming the *function* renames the rule, and
``visit_rrel_parent`` is never called again. So when a project class deriving from an outside
class whose code makes member names from a template (``python_external.computed_members``), or
any project class where the project's own code makes such names from any text (arpeggio itself:
its ``PEGVisitor.visit_sufix`` handles its grammar's ``sufix`` rule), has a member whose name is
the template filled with the renamed symbol's name, that member is a name hit of kind ``data`` (never edited: it is another symbol, and renaming it too is a choice only a
reader can make), and the rename is blocked by default.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator

from astmcp.query.common import SymbolRow, ancestry, query_symbols
from astmcp.refactor.rename_refs import Hit
from astmcp.resolve.python_external import computed_members
from astmcp.resolve.templates import FOLDS, TEMPLATE, TEMPLATE_NAME, TEMPLATE_OWNER

__all__ = ["rule_name_hits"]


def rule_name_hits(conn: sqlite3.Connection, row: SymbolRow) -> list[Hit]:
    """Name hits (kind ``data``) at the project members a template makes from the name of
    ``row`` (see the module's docstring)."""
    if row.kind not in ("function", "class", "variable") or not row.file.endswith((".py", ".pyi")):
        return []
    project = _project_templates(conn)
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
        classes, outside = ancestry(conn, [owner[0].id])
        made = next((t for t in _project_made(conn, project, classes, row.name, member.name)), None)
        for key in sorted(outside) if made is None else ():
            made = _filled(key, row.name, member.name, row.kind)
            if made is not None:
                made = f"{key} calls {made}"
                break
        if made is not None:
            note = f"{made} by a name it makes at run time; {member.name} is that name made from {row.name!r}"
            found.append(Hit.at_name(member, "data", note))
    return found


def _project_templates(conn: sqlite3.Connection) -> list[tuple[str, str, str, str]]:
    """``(prefix, suffix, owner, where)`` of each name the project's Python code makes from any
    text (mode ``m``: ``getattr(visitor, "visit_%s" % node.rule_name)``); ``owner``: the class
    whose ``self`` it is read off (``file::Class``), else empty."""
    found = []
    for target, path, line in conn.execute(
        "SELECT r.target_key, f.path, MIN(r.line) FROM refs r JOIN files f ON f.id = r.file_id"
        " WHERE r.name = ? AND r.confidence = 'name' AND f.language = 'python' AND r.target_key LIKE ?"
        " GROUP BY r.target_key, f.path ORDER BY f.path",
        (TEMPLATE_NAME, TEMPLATE + "m%"),
    ):
        body, _, owner = str(target)[len(TEMPLATE) + 1 :].partition(TEMPLATE_OWNER)
        prefix, _, suffix = body.partition("*")
        if prefix or suffix:
            found.append((prefix, suffix, owner, f"{path}:{line}"))
    return found


def _project_made(
    conn: sqlite3.Connection,
    templates: list[tuple[str, str, str, str]],
    classes: set[int],
    name: str,
    member: str,
) -> Iterator[str]:
    """Where project code makes ``member``'s name from ``name``, read off the ``self`` of one of
    ``classes`` (the member's class and its project ancestors), or off any object in the file
    defining one of them (arpeggio's parse tree nodes call the ``visit_<rule>`` of visitors
    deriving from the ``PTNodeVisitor`` beside them; an example script's ``"test" + name`` is no
    ``TestCase``'s)."""
    files: set[str] | None = None
    for prefix, suffix, owner, where in templates:
        if member != f"{prefix}{name}{suffix}":
            continue
        if not owner:
            if files is None:
                marks = ",".join("?" * len(classes))
                files = {
                    str(path)
                    for (path,) in conn.execute(
                        f"SELECT f.path FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.id IN ({marks})",
                        tuple(classes),
                    )
                }
            if where.rpartition(":")[0] not in files:
                continue
        else:
            path, _, class_path = owner.partition("::")
            held = conn.execute(
                "SELECT s.id FROM symbols s JOIN files f ON f.id = s.file_id WHERE f.path = ? AND s.symbol_path = ?",
                (path, class_path),
            ).fetchone()
            if held is None or held[0] not in classes:
                continue
        yield f"{where} makes {prefix}<…>{suffix}"


def _filled(key: str, name: str, member: str, kind: str) -> str | None:
    """The template of the outside class ``key`` (``visit_<…>``) that ``name`` fills to make
    ``member``, if one does (a made class name only from a class's)."""
    for target in computed_members(key):
        mode, (prefix, _, suffix) = target[len(TEMPLATE)], target[len(TEMPLATE) + 1 :].partition("*")
        suffix = suffix.partition(TEMPLATE_OWNER)[0]
        if mode in "clu" and kind != "class":
            continue
        shown = FOLDS[mode](name) if mode in FOLDS else name
        if (prefix or suffix) and member == f"{prefix}{shown}{suffix}":
            return f"{prefix}<…>{suffix}"
    return None
