"""TS/JS: a project type of the same shape as a type a package the project imports declares.

ai's ``ChatMiddlewareContext { requestId, streamId, runId, … }`` has a mirror in
``@tanstack/ai-event-client``: ``DevtoolsMiddlewareContext``, declared there so that the package
need not import ai. ai puts the package's ``devtoolsMiddleware()`` where its own ``ChatMiddleware``
is declared, and TypeScript checks that the two contexts fit by shape. No reference ties the
members (a package's declarations are not the project's), so renaming ``streamId`` broke the
build (seed 505). When the renamed member's owner (an interface, a class or a type) and a type
that a package the project's TS/JS files import declares (an interface, a class or an object type
alias) both have the member's name, and the members of one all belong to the other (at least
three, and at least half as many as the other has), values may cross between them unseen: the
rename is refused with ``MUTATION_BLOCKED`` naming the package's type. Bases are not followed on
either side. A class whose instances are written as an argument of a package's function
(``persist(new Memo())``, also through a variable it initialises) is refused whenever it has all
the members of such a type, however few:
the parameter may be declared as that type (``persist(storage: StorageLike)`` of two members).

The other way round needs no mirror: where the package's type has every member a value needs to be
used as the owner (its required ones, own and inherited, at least three with the renamed one among
them; the package type's members include those its bases in the package declare), a value of the
package's type may reach the owner through any flow (a generic call, a ``Promise``, a callback's
return, a spread: of forty-four probes of such flows, twenty-eight the outside-values check does
not follow broke), so the rename is refused however many more members the package's type has,
unless a member's declared returns cannot agree (a ``Promise`` expected, none given, or the other
way round: ``SortedMap.set`` returns the map, so it is no ``StorageAdapter`` whose ``set``
returns ``Promise<void>``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from pathlib import Path

import tree_sitter

from astmcp.errors import MutationBlocked
from astmcp.query.common import SymbolRow, query_symbols
from astmcp.refactor.ts_lib_shapes import member_signatures
from astmcp.refactor.ts_returns import promised, returned_type, returns_disagree
from astmcp.refactor.ts_structural import OwnerShape, owner_shapes
from astmcp.refactor.tsparse import parse
from astmcp.resolve.ts_packages import (
    own_package_names,
    package_name,
    package_shape_members,
    package_type_shape,
    project_root,
)

__all__ = ["check_package_shapes"]

_MEMBER_KINDS = ("method", "property", "getter", "setter")
_OWNER_KINDS = ("interface", "type", "class")
_LEAST = 3  # members the smaller shape must have


def check_package_shapes(conn: sqlite3.Connection, row: SymbolRow, family: Iterable[SymbolRow]) -> None:
    """MUTATION_BLOCKED when a renamed member's owner mirrors a type an imported package declares."""
    members = [
        m
        for m in (row, *family)
        if m.kind in _MEMBER_KINDS and m.parent_path and not m.file.endswith((".py", ".pyi"))
    ]
    root = project_root(conn) if members else None
    if root is None:
        return
    packages = imported_packages(conn, str(root))
    if not packages:
        return
    for member in members:
        for owner in query_symbols(
            conn, "f.path = ? AND s.symbol_path = ?", (member.file, member.parent_path)
        ):
            if owner.kind not in _OWNER_KINDS:
                continue
            ours = member_signatures(conn, owner)
            own = frozenset(ours)
            given = owner.kind == "class" and _given_to_package(conn, root, owner)
            if len(own) < _LEAST and not given:
                continue
            for package in packages:
                for name, theirs in package_shape_members(str(root), package, member.name):
                    # (a class whose instances a package's function is given, `persist(new
                    # Memo())`: one of the package's types it has all the members of may be the
                    # parameter's, whatever their number)
                    names = frozenset(theirs)
                    if (_mirrors(own, names) or (given and names <= own)) and not _never_cross(ours, theirs):
                        raise MutationBlocked(
                            f"{row.name!r} is a member of {owner.name}, which has the shape of {name} that"
                            f" {package} declares (the members of one all belong to the other): TypeScript"
                            f" checks shapes, so values of one may be used as the other, which keeps its"
                            f" {member.name!r}; renaming the member would break that",
                            {"package": package, "package_type": name, "owner": owner.selector},
                        )
    _check_fitting(conn, str(root), packages, row, members)


def _check_fitting(
    conn: sqlite3.Connection, root: str, packages: list[str], row: SymbolRow, members: list[SymbolRow]
) -> None:
    """MUTATION_BLOCKED when a package's type has every member a value needs to be used as an
    owner of the family, or an owner (or a type deriving from it) has every member a value needs to
    be used as the package's type (at least ``_LEAST``, the renamed one among them)."""
    for shape in owner_shapes(conn, members):
        member, owner, required = shape.member, shape.owner, shape.required
        for package in packages:
            for name, theirs, needed, names in _candidates(root, package, required | {member.name}):
                if _fits(shape, required, names, theirs, into_project=True):
                    raise MutationBlocked(
                        f"{row.name!r} is a member of {owner.name}, and {name}, which {package}"
                        f" declares, has every member a value needs to be used as one: TypeScript"
                        f" checks shapes, so its values may be, and they keep their {member.name!r};"
                        f" renaming the member would break that",
                        {"package": package, "package_type": name, "owner": owner.selector},
                    )
                if needed is not None and _fits(shape, needed, None, theirs, into_project=False):
                    raise MutationBlocked(
                        f"{row.name!r} is a member of {owner.name}, whose values (or those of a type"
                        f" deriving from it) have every member a value needs to be used as {name}, which"
                        f" {package} declares: TypeScript checks shapes, so they may be given where one is"
                        f" declared, and renaming the member would leave them short of its {member.name!r}",
                        {"package": package, "package_type": name, "owner": owner.selector},
                    )


def _fits(
    shape: OwnerShape,
    required: frozenset[str],
    names: frozenset[str] | None,
    theirs: dict[str, str],
    into_project: bool,
) -> bool:
    """Whether values may cross between the family's owner and a package's type: the package's
    values into the owner (``into_project``: ``names``, the package type's, hold every member in
    ``required``, the owner's), or the owner's (or a type's deriving from it) into the package's
    type (each holder's names hold ``required``, the package type's). At least ``_LEAST`` required,
    the renamed one among them, and no member's declared returns that cannot agree."""
    if shape.member.name not in required or len(required) < _LEAST:
        return False  # (an optional member: a value without it still fits once renamed)
    if into_project:
        if shape.nominal or names is None or not required <= names:
            return False
    elif not any(required <= held for held in shape.holders):
        return False
    for key in required:
        ours = returned_type(key, shape.signatures.get(key, ""))
        other = returned_type(key, theirs[key]) if key in theirs else None
        given, expected = (other, ours) if into_project else (ours, other)
        if returns_disagree(expected, promised(given)):
            return False
    return True


def _candidates(
    root: str, package: str, required: frozenset[str]
) -> list[tuple[str, dict[str, str], frozenset[str] | None, frozenset[str]]]:
    """(name, its own members' texts, the members a value of it must have or None where that is not
    read (an object type alias, an index signature), the member names its values surely have) of
    the package's types declaring one of ``required`` themselves. What a value must have counts its
    bases' in the package (``duration?: number`` is no ``duration: number``); where it is not read,
    every member the type declares is taken for one its values have."""
    own: dict[str, dict[str, str]] = {}
    for key in sorted(required):
        for name, theirs in package_shape_members(root, package, key):
            own.setdefault(name, {}).update(theirs)
    out: list[tuple[str, dict[str, str], frozenset[str] | None, frozenset[str]]] = []
    for name, theirs in own.items():
        shape = package_type_shape(root, f"{package}.{name}")
        needed = shape[1] if shape is not None else None
        out.append((name, theirs, needed, needed if needed is not None else frozenset(theirs)))
    return out


def _never_cross(ours: dict[str, str], theirs: dict[str, str]) -> bool:
    """Whether a member both types declare returns what the other's can never stand for, either
    way (a ``Promise`` on one side, surely none on the other)."""
    for key in ours.keys() & theirs.keys():
        mine, other = returned_type(key, ours[key]), returned_type(key, theirs[key])
        if returns_disagree(mine, promised(other)) and returns_disagree(other, promised(mine)):
            return True
    return False


def _given_to_package(conn: sqlite3.Connection, root: Path, owner: SymbolRow) -> bool:
    """Whether ``new Owner(…)`` is written as an argument of a call of a name a file imports
    from a package (``persist(new Memo())``)."""
    rows: dict[str, list[tuple[int, int]]] = {}
    for path, line, col in conn.execute(
        "SELECT f.path, r.line, r.col FROM refs r JOIN files f ON f.id = r.file_id"
        " WHERE r.symbol_id = ? AND f.language IN ('typescript', 'javascript')",
        (owner.id,),
    ):
        rows.setdefault(str(path), []).append((int(line), int(col)))
    for path, places in rows.items():
        imported = {
            str(local)
            for (local,) in conn.execute(
                "SELECT COALESCE(i.alias, i.name) FROM imports i JOIN files f ON f.id = i.file_id"
                " WHERE f.path = ? AND i.external = 1",
                (path,),
            )
            if local
        }
        if not imported:
            continue
        try:
            source = (root / path).read_bytes()
        except OSError:
            continue
        tree = parse(path, source)
        lines = source.split(b"\n")
        for line, col in places:
            text = lines[line - 1] if 0 < line <= len(lines) else b""
            start = len(text.decode(errors="replace")[: col - 1].encode())
            node = tree.root_node.descendant_for_point_range((line - 1, start), (line - 1, start))
            made = node.parent if node is not None else None
            if made is None or made.type != "new_expression":
                continue
            if _package_argument(made, imported):
                return True
            # `const memo = new Memo(); persist(memo)`: the name given in the file
            holder = made.parent
            name = (
                holder.child_by_field_name("name")
                if holder is not None and holder.type == "variable_declarator"
                else None
            )
            if (
                name is not None
                and name.type == "identifier"
                and any(
                    _package_argument(use, imported) for use in _identifiers(tree.root_node, name.text or b"")
                )
            ):
                return True
    return False


def _package_argument(node: tree_sitter.Node, imported: set[str]) -> bool:
    """Whether an expression is an argument of a call of a name imported from a package."""
    args = node.parent
    call = args.parent if args is not None and args.type == "arguments" else None
    callee = call.child_by_field_name("function") if call is not None else None
    while callee is not None and callee.type == "member_expression":
        callee = callee.child_by_field_name("object")
    return callee is not None and callee.type == "identifier" and (callee.text or b"").decode() in imported


def _identifiers(root: tree_sitter.Node, name: bytes) -> list[tree_sitter.Node]:
    """The identifiers of a tree spelled ``name``."""
    out: list[tree_sitter.Node] = []
    pending = [root]
    while pending:
        node = pending.pop()
        if node.type == "identifier" and node.text == name:
            out.append(node)
        pending.extend(node.children)
    return out


def _mirrors(own: frozenset[str], theirs: frozenset[str]) -> bool:
    small, large = (own, theirs) if len(own) <= len(theirs) else (theirs, own)
    return len(small) >= _LEAST and small <= large and 2 * len(small) >= len(large)


def imported_packages(conn: sqlite3.Connection, root: str) -> list[str]:
    """The packages the project's TS/JS files import (not the project's own, not ``node:``
    builtins), in name order."""
    own = own_package_names(root)
    found = {
        package_name(str(module))
        for (module,) in conn.execute(
            "SELECT DISTINCT i.module FROM imports i JOIN files f ON f.id = i.file_id"
            " WHERE i.external = 1 AND f.language IN ('typescript', 'javascript')"
        )
        if module and not str(module).startswith("node:")
    }
    return sorted(found - own - {""})
