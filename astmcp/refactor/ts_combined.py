"""TS: types combined with a renamed member's owner (``type Row = User & Meta``, ``User | Meta``).

An intersection merges the members of its operands, and a union's ``in`` tests tell them apart:
renaming ``User.name`` to a name ``Meta`` already has makes two members one (``{ name: "n",
created: 1 }`` then names ``created`` twice) or collapses ``"name" in x``. So does spreading a
User beside a key of the new name (``{ ...user, created: 1 }``, or a spread of a value that has
one: ``{ ...defaults, ...user }``: one key replaces the other). The
rename is refused with ``NAME_COLLISION``, naming the place.
"""

from __future__ import annotations

import re
import sqlite3
import weakref

import tree_sitter

from astmcp.errors import NameCollision
from astmcp.query.common import SymbolRow, query_symbols
from astmcp.refactor.rename_refs import Hit
from astmcp.refactor.ts_dumps import owner_ids, typed_as
from astmcp.refactor.ts_inline_types import literal_keys
from astmcp.refactor.ts_literals import TsFiles, captures
from astmcp.refactor.tsscopes import TsFile
from astmcp.resolve.ts_scopes import SPREAD_FALLBACK
from astmcp.resolve.ts_types import Entity
from astmcp.resolve.typescript import Resolver

__all__ = ["combined_clash", "spread_clash", "spread_into_hits"]

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
    known: dict[str, bool] = {}
    for owner in sorted(owners):
        named = re.compile(rf"(?<![\w$]){re.escape(owner)}(?![\w$])")
        given = _given(files, conn, owner, named)
        paths = {path: ts for path, ts in files.holding(conn, owner, typescript_only=True)}
        for alias in sorted({alias for alias, _ in given}):
            paths.update(files.holding(conn, alias, typescript_only=True))
        for path, ts in sorted(paths.items()):
            for operands, raw, params in _combinations(ts):
                # a type parameter bounded by the owner stands for it (`T & { created: … }` with
                # `<T extends User>`)
                texts = [
                    _bounded(param, named, given, owner) or text
                    for text, param in zip(raw, params, strict=True)
                ]
                if not any(named.search(t) for t in texts):
                    continue
                for operand, text in zip(operands, texts, strict=True):
                    if named.search(text) or not _has_member(conn, operand, text, word, new, known):
                        continue
                    line = operand.start_point[0] + 1
                    raise NameCollision(
                        f"renaming to {new!r} would clash: {owner} is combined with {text.strip()[:60]}"
                        f" at {path}:{line}, which already has {new!r}",
                        {"new_name": new, "clash": text.strip()[:60], "file": path, "line": line},
                    )


def _given(
    files: TsFiles, conn: sqlite3.Connection, owner: str, named: re.Pattern[str]
) -> set[tuple[str, int]]:
    """(generic type's name, argument index) of each ``Name<…, Owner, …>`` in the project: the
    declaration's type parameter at that index stands for the owner there."""
    given: set[tuple[str, int]] = set()
    for _, ts in files.holding(conn, owner, typescript_only=True):
        for name, arguments in _generics(ts):
            given.update(
                (name, index)
                for index, argument in enumerate(arguments)
                if owner in argument and named.search(argument)  # (the plain test first: most hold no owner)
            )
    # only the project's own generic types are declared where the combination can be read
    return {
        (name, index)
        for name, index in given
        if conn.execute(
            "SELECT 1 FROM symbols WHERE name = ? AND kind IN ('type', 'interface', 'class') LIMIT 1", (name,)
        ).fetchone()
    }


def _bounded(
    param: tuple[str, int, str] | None, named: re.Pattern[str], given: set[tuple[str, int]], owner: str
) -> str | None:
    """What a type parameter operand (``param``: see :func:`_parameter`) stands for, when it may
    be the owner: its constraint when that names the owner (``<T extends User>``), or the owner
    when the declaration is a generic type given the owner there (``type WithMeta<T> = T & Meta``
    with ``WithMeta<User>``); else None."""
    if param is None:
        return None
    title, index, constraint = param
    if (title, index) in given:
        return owner
    return constraint if named.search(constraint) else None


def _parameter(operand: tree_sitter.Node) -> tuple[str, int, str] | None:
    """The declaration a type parameter operand names (the innermost declaring it): its name,
    the parameter's index and its constraint's text; None for another operand."""
    if operand.type != "type_identifier":
        return None
    label = operand.text
    node = operand.parent
    while node is not None:
        params = node.child_by_field_name("type_parameters")
        declared = node.child_by_field_name("name")
        title = (declared.text or b"").decode("utf-8") if declared is not None else ""
        for index, param in enumerate(params.named_children if params is not None else ()):
            name = param.child_by_field_name("name")
            if name is not None and name.text == label:
                bound = param.child_by_field_name("constraint")
                return title, index, (bound.text or b"").decode("utf-8") if bound is not None else ""
        node = node.parent
    return None


# per parsed file (shared by later prepares): its outermost combined types, each as its
# operands, their texts and the type parameter each names; its generic types' arguments
_COMBINATIONS: weakref.WeakKeyDictionary[
    TsFile, list[tuple[list[tree_sitter.Node], list[str], list[tuple[str, int, str] | None]]]
] = weakref.WeakKeyDictionary()
_GENERICS: weakref.WeakKeyDictionary[TsFile, list[tuple[str, list[str]]]] = weakref.WeakKeyDictionary()


def _combinations(
    ts: TsFile,
) -> list[tuple[list[tree_sitter.Node], list[str], list[tuple[str, int, str] | None]]]:
    found = _COMBINATIONS.get(ts)
    if found is None:
        found = []
        for combined in captures(ts, _COMBINED, "c"):
            if combined.parent is not None and combined.parent.type in ("intersection_type", "union_type"):
                continue  # judged with the whole (`A & B & C` nests)
            operands = _operands(combined)
            texts = [(o.text or b"").decode("utf-8") for o in operands]
            found.append((operands, texts, [_parameter(o) for o in operands]))
        _COMBINATIONS[ts] = found
    return found


def _generics(ts: TsFile) -> list[tuple[str, list[str]]]:
    """Each ``Name<…>`` of the file: its name and its type arguments' texts."""
    found = _GENERICS.get(ts)
    if found is None:
        found = []
        for generic in captures(ts, "(generic_type) @g", "g"):
            name = generic.child_by_field_name("name")
            arguments = generic.child_by_field_name("type_arguments")
            if name is not None and arguments is not None:
                texts = [(a.text or b"").decode("utf-8") for a in arguments.named_children]
                found.append(((name.text or b"").decode("utf-8"), texts))
        _GENERICS[ts] = found
    return found


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
    conn: sqlite3.Connection,
    operand: tree_sitter.Node,
    text: str,
    word: re.Pattern[str],
    new: str,
    known: dict[str, bool],
) -> bool:
    """Whether a type operand may have a member ``new``: written in it (``{ created: number }``,
    ``Record<"created", number>``), or a project type of that name declaring one (``known``: the
    answers by type name so far)."""
    if word.search(text):
        return True
    name = operand.child_by_field_name("name") if operand.type == "generic_type" else operand
    if name is None or name.type != "type_identifier":
        return False
    label = (name.text or b"").decode("utf-8")
    if label not in known:
        known[label] = (
            conn.execute(
                "SELECT 1 FROM symbols WHERE name = ? AND (parent_path = ? OR parent_path LIKE ?) LIMIT 1",
                (new, label, f"%.{label}"),
            ).fetchone()
            is not None
        )
    return known[label]


_SPREADS = "(object (spread_element) @s)"


def spread_clash(files: TsFiles, conn: sqlite3.Connection, family: list[SymbolRow], new: str) -> None:
    """NAME_COLLISION when a value of the renamed member's owner type is spread into an object
    literal that also writes the new name (``{ ...user, created: 1 }``, ``{ created: 1, ...user }``):
    one key would replace the other, silently."""
    owners = owner_ids(conn, [m for m in family if m.kind in _MEMBER_KINDS])
    if not owners:
        return
    # the types that already have the new name: a spread of one of them sets it too
    having = owner_ids(conn, query_symbols(conn, "s.name = ? AND s.parent_path IS NOT NULL", (new,)))
    resolver: Resolver | None = None
    for path, ts in files.holding(conn, "..."):
        named = new in ts.text
        for spread in captures(ts, _SPREADS, "s"):
            literal = spread.parent
            value = spread.named_children[0] if spread.named_children else None
            if literal is None or value is None:
                continue
            others = [c for c in literal.named_children if c.type == "spread_element" and c != spread]
            if not others and not named:
                continue
            resolver = resolver or Resolver(conn, {})
            if not typed_as(conn, resolver, path, value, owners, ts):
                continue
            if (named and new in literal_keys(literal)) or any(
                _spread_sets(conn, resolver, path, ts, other, having, new) for other in others
            ):
                line = spread.start_point[0] + 1
                raise NameCollision(
                    f"renaming to {new!r} would clash: {path}:{line} spreads a value of the renamed"
                    f" member's type into an object that also sets {new!r} (one key would replace the other)",
                    {"new_name": new, "file": path, "line": line},
                )


def _spread_sets(
    conn: sqlite3.Connection,
    resolver: Resolver,
    path: str,
    ts: TsFile,
    spread: tree_sitter.Node,
    having: set[int],
    new: str,
) -> bool:
    """Whether another spread of the same literal sets ``new``: its value is typed as a project
    type that has it, is an object literal that writes it, or names a variable of the file
    declared with one (``const defaults = { created: 0 }`` … ``{ ...defaults, ...user }``)."""
    value = spread.named_children[0] if spread.named_children else None
    if value is None:
        return False
    if value.type == "object":
        return new in literal_keys(value)
    if value.type == "new_expression":  # `{ ...new Rec(), ...user }`: a project class's own fields
        made = value.child_by_field_name("constructor")
        label = (made.text or b"").decode("utf-8") if made is not None and made.type == "identifier" else ""
        found = conn.execute(
            "SELECT 1 FROM symbols WHERE name = ? AND (parent_path = ? OR parent_path LIKE ?) LIMIT 1",
            (new, label, f"%.{label}"),
        ).fetchone()
        return bool(label) and found is not None
    if having and typed_as(conn, resolver, path, value, having, ts):
        return True
    if value.type != "identifier":
        return False
    name = value.text or b""
    for declarator in captures(ts, "(variable_declarator) @d", "d"):
        bound = declarator.child_by_field_name("name")
        held = declarator.child_by_field_name("value")
        if (
            bound is not None
            and bound.text == name
            and held is not None
            and held.type == "object"
            and new in literal_keys(held)
        ):
            return True
    return False


def spread_into_hits(
    files: TsFiles, conn: sqlite3.Connection, family: list[SymbolRow], known: set[tuple[str, int, int]]
) -> list[Hit]:
    """Uncertain hits where a value of the renamed member's owner type is spread into an object
    literal of another known type that declares a member of that name (``const _def:
    Procedure["_def"] = { ...builder._def, type }`` with ``_def: { …; inputs: Parser[] }``): that
    member takes the spread one's value, and renamed alone, the spread no longer gives it. A literal
    writing the name itself, or one of a family type, is left to the other rules."""
    members = [m for m in family if m.kind in _MEMBER_KINDS]
    owners = owner_ids(conn, members)
    if not owners or not members:
        return []
    name, ids = members[0].name, {m.id for m in family}
    resolver: Resolver | None = None
    out: list[Hit] = []
    for path, ts in files.holding(conn, "..."):
        for spread in captures(ts, _SPREADS, "s"):
            literal = spread.parent
            value = spread.named_children[0] if spread.named_children else None
            if literal is None or value is None or name in literal_keys(literal):
                continue
            resolver = resolver or Resolver(conn, {})
            if not typed_as(conn, resolver, path, value, owners, ts):
                continue
            typed = _literal_type(conn, resolver, path, ts, literal)
            if typed is None:
                continue
            found = resolver.step(typed, name)
            leaves = found[1] if found is not None and found[0] == "v" else (found,)
            if all(leaf is None or (leaf[0] == "s" and leaf[1] in ids) for leaf in leaves):
                continue
            if all(leaf is not None and leaf[0] == "x" and not leaf[1] for leaf in leaves):
                continue  # declared by none of its parts (an object type written out without it)
            line, column = spread.start_point[0] + 1, ts.column_of(spread)
            if (path, line, column) not in known:
                note = f"spreads a value of the member's type into an object of another type, whose {name!r} takes it"
                out.append(Hit(path, line, column, column + 3, "override", "name", note=note))
    return out


def _literal_type(
    conn: sqlite3.Connection, resolver: Resolver, path: str, ts: TsFile, literal: tree_sitter.Node
) -> Entity:
    """The contextual type of an object literal, read off the index's chain of one of its keys
    (``<type>|+key``); None when no key says."""
    for key in literal_keys(literal).values():
        found = conn.execute(
            "SELECT r.target_key FROM refs r JOIN files f ON f.id = r.file_id WHERE f.path = ? AND r.line = ?"
            " AND r.col = ? AND r.target_key IS NOT NULL",
            (path, key.start_point[0] + 1, ts.column_of(key)),
        ).fetchall()
        for (target,) in found:
            head, sep, _ = str(target).partition(SPREAD_FALLBACK)[0].rpartition("|+")
            if sep and head:
                typed = resolver.resolve(path, head)
                if typed is not None:
                    return typed
    return None
