"""TS: types combined with a renamed member's owner (``type Row = User & Meta``, ``User | Meta``).

An intersection merges the members of its operands, and a union's ``in`` tests tell them apart:
renaming ``User.name`` to a name ``Meta`` already has makes two members one (``{ name: "n",
created: 1 }`` then names ``created`` twice) or collapses ``"name" in x``. So does spreading a
User beside a key of the new name (``{ ...user, created: 1 }``: one key replaces the other). The
rename is refused with ``NAME_COLLISION``, naming the place.
"""

from __future__ import annotations

import re
import sqlite3

import tree_sitter

from astmcp.errors import NameCollision
from astmcp.query.common import SymbolRow
from astmcp.refactor.ts_dumps import owner_ids, typed_as
from astmcp.refactor.ts_inline_types import literal_keys
from astmcp.refactor.ts_literals import TsFiles, captures
from astmcp.resolve.typescript import Resolver

__all__ = ["combined_clash", "spread_clash"]

_MEMBER_KINDS = ("method", "property", "getter", "setter")


_COMBINED = "[(intersection_type) (union_type)] @c"


def combined_clash(files: TsFiles, conn: sqlite3.Connection, family: list[SymbolRow], new: str) -> None:
    """NAME_COLLISION when a renamed member's owner type is combined with a type that already has
    the new name (``type Row = User & Meta``, ``User | Meta``, ``<T extends User & { created: … }>``):
    the rename would merge two members into one, or collapse an ``in`` test on the union."""
    owners = {m.parent_path.rsplit(".", 1)[-1] for m in family if m.kind in _MEMBER_KINDS and m.parent_path}
    if not owners:
        return
    word = re.compile(rf"(?<![\w$]){re.escape(new)}(?![\w$])")
    for owner in sorted(owners):
        named = re.compile(rf"(?<![\w$]){re.escape(owner)}(?![\w$])")
        for path, ts in files.holding(conn, owner, typescript_only=True):
            for combined in captures(ts, _COMBINED, "c"):
                if combined.parent is not None and combined.parent.type in (
                    "intersection_type",
                    "union_type",
                ):
                    continue  # judged with the whole (`A & B & C` nests)
                operands = _operands(combined)
                texts = [(o.text or b"").decode("utf-8") for o in operands]
                if not any(named.search(t) for t in texts):
                    continue
                for operand, text in zip(operands, texts, strict=True):
                    if named.search(text) or not _has_member(conn, operand, text, word, new):
                        continue
                    line = operand.start_point[0] + 1
                    raise NameCollision(
                        f"renaming to {new!r} would clash: {owner} is combined with {text.strip()[:60]}"
                        f" at {path}:{line}, which already has {new!r}",
                        {"new_name": new, "clash": text.strip()[:60], "file": path, "line": line},
                    )


def _operands(node: tree_sitter.Node) -> list[tree_sitter.Node]:
    out: list[tree_sitter.Node] = []
    for child in node.named_children:
        if child.type == node.type or (child.type == "parenthesized_type" and child.named_children):
            inner = child if child.type == node.type else child.named_children[0]
            out.extend(_operands(inner) if inner.type in ("intersection_type", "union_type") else [inner])
        elif child.type != "comment":
            out.append(child)
    return out


def _has_member(
    conn: sqlite3.Connection, operand: tree_sitter.Node, text: str, word: re.Pattern[str], new: str
) -> bool:
    """Whether a type operand may have a member ``new``: written in it (``{ created: number }``,
    ``Record<"created", number>``), or a project type of that name declaring one."""
    if word.search(text):
        return True
    name = operand.child_by_field_name("name") if operand.type == "generic_type" else operand
    if name is None or name.type != "type_identifier":
        return False
    label = (name.text or b"").decode("utf-8")
    found = conn.execute(
        "SELECT 1 FROM symbols WHERE name = ? AND (parent_path = ? OR parent_path LIKE ?) LIMIT 1",
        (new, label, f"%.{label}"),
    ).fetchone()
    return found is not None


_SPREADS = "(object (spread_element) @s)"


def spread_clash(files: TsFiles, conn: sqlite3.Connection, family: list[SymbolRow], new: str) -> None:
    """NAME_COLLISION when a value of the renamed member's owner type is spread into an object
    literal that also writes the new name (``{ ...user, created: 1 }``, ``{ created: 1, ...user }``):
    one key would replace the other, silently."""
    owners = owner_ids(conn, [m for m in family if m.kind in _MEMBER_KINDS])
    if not owners:
        return
    resolver: Resolver | None = None
    for path, ts in files.holding(conn, new):
        if "..." not in ts.text:
            continue
        for spread in captures(ts, _SPREADS, "s"):
            literal = spread.parent
            value = spread.named_children[0] if spread.named_children else None
            if literal is None or value is None or new not in literal_keys(literal):
                continue
            resolver = resolver or Resolver(conn, {})
            if typed_as(conn, resolver, path, value, owners, ts):
                line = spread.start_point[0] + 1
                raise NameCollision(
                    f"renaming to {new!r} would clash: {path}:{line} spreads a value of the renamed"
                    f" member's type into an object that also sets {new!r} (one key would replace the other)",
                    {"new_name": new, "file": path, "line": line},
                )
