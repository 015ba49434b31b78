"""TS/JS members a type must keep to stay usable as another (SPEC §3: "members a class must
provide to satisfy an interface it is used as").

TypeScript types are structural: ``use(new B())`` with ``use(a: Runner)`` compiles because B has
every member Runner requires, whether or not B names Runner. Renaming ``Runner.run`` alone then
breaks every place a B is used as a Runner, and renaming ``B.run`` alone breaks them too. Where a B
flows is not in the index, so the same-named members of the types that may be used as one another
are partners of a rename: a type outside the member's override family that has every member the
other requires (own or inherited; optional and static members are not required). A type with a
private member (``private``, ``#x``) is satisfied by its subclasses alone. A type with a base
outside the project may have any member.
"""

from __future__ import annotations

import re
import sqlite3

from astmcp.query.common import SymbolRow, query_symbols
from astmcp.workspace import Workspace

__all__ = ["member_fits", "owner_types", "static_partners", "structural_partners"]

_MEMBER_KINDS = ("method", "property", "getter", "setter")
_TYPE_KINDS = ("class", "interface")
_PRIVATE = re.compile(r"^\s*(?:[\w\s]*\s)?(?:private|protected)\s")
_STATIC = re.compile(r"^\s*(?:[\w\s]*\s)?static\s")


# a unit type (`"small"`, `3`, `true`, `typeof Kind.a`, `Kind.A`): only the same one is assignable
_UNIT = re.compile(
    r"""^(?:"[^"]*"|'[^']*'|-?\d[\d_.]*|true|false|null|undefined|typeof [\w$.]+|[\w$]+\.[\w$]+)$"""
)
_PRIMITIVES = frozenset({"number", "bigint", "string", "boolean", "symbol", "null", "undefined"})
# a class field set to a string, number or boolean (`size = 2`): not callable
_PLAIN = re.compile(r"""^(?:"[^"]*"|'[^']*'|`[^`$]*`|-?\d[\d_.]*|true|false)$""")


class _Member:
    """What a member's declaration says of its type, as far as assignability needs it."""

    def __init__(self, kind: str, name: str, signature: str) -> None:
        self.callable = kind == "method"
        rest = signature[signature.find(name) + len(name) :] if name in signature else ""
        rest = rest.removeprefix("?").strip()
        self.unit: str | None = None
        self.plain = False
        self.primitives: frozenset[str] | None = None  # `number | null`: exactly those
        if rest.startswith(":"):
            declared = rest[1:].strip().rstrip(";").strip()
            self.unit = declared if _UNIT.match(declared) else None
            parts = frozenset(part.strip() for part in declared.split("|"))
            self.primitives = parts if parts <= _PRIMITIVES else None
        elif rest.startswith("="):
            self.plain = bool(_PLAIN.match(rest[1:].strip().rstrip(";").strip()))

    def fits(self, expected: _Member) -> bool:
        """Whether this member may be given where ``expected`` is declared."""
        if expected.unit is not None:
            return self.unit == expected.unit
        if self.primitives is not None and expected.primitives is not None:
            return self.primitives <= expected.primitives
        if (self.callable and expected.primitives is not None) or (
            self.primitives is not None and expected.callable
        ):
            return False  # a method is no `boolean`, a `number` field no method
        if expected.callable:
            return not (self.plain or self.unit is not None)
        return not (expected.plain and self.callable)


class _Type:
    """One class or interface: its members (own and inherited) and those it requires."""

    def __init__(self, members: dict[str, _Member], required: set[str], nominal: bool, open_: bool) -> None:
        self.members = members
        self.required = required
        self.nominal = nominal  # has a private member: only its subclasses satisfy it
        self.open = open_  # a base outside the project: any member may be there

    def satisfies(self, other: _Type) -> bool:
        """Whether a value of this type may be used where ``other`` is expected."""
        if other.nominal:
            return False
        for name in other.required:
            if name not in self.members and not self.open:
                return False
        # a member it has must fit, optional there or not (`nullable?: boolean` takes no method)
        return all(
            mine.fits(other.members[name]) for name, mine in self.members.items() if name in other.members
        )


class _Types:
    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self._types: dict[int, _Type] = {}

    def of(self, type_id: int, seen: frozenset[int] = frozenset()) -> _Type:
        found = self._types.get(type_id)
        if found is not None:
            return found
        members: dict[str, _Member] = {}
        required: set[str] = set()
        nominal = False
        open_ = False
        for base_id, key in self.conn.execute(
            "SELECT dst_symbol_id, dst_key FROM edges WHERE src_symbol_id = ? AND kind = 'inherits'",
            (type_id,),
        ):
            if base_id is None:
                open_ = open_ or key is not None
                continue
            if base_id in seen:
                continue
            base = self.of(base_id, seen | {type_id})
            members.update(base.members)
            required |= base.required
            nominal = nominal or base.nominal
            open_ = open_ or base.open
        marks = ",".join("?" * len(_MEMBER_KINDS))
        for name, kind, signature in self.conn.execute(
            "SELECT m.name, m.kind, m.signature FROM symbols t JOIN symbols m ON m.file_id = t.file_id"
            f" AND m.symbol_path = t.symbol_path || '.' || m.name WHERE t.id = ? AND m.kind IN ({marks})",
            (type_id, *_MEMBER_KINDS),
        ):
            if name.startswith("#") or _PRIVATE.match(signature):
                nominal = True
                continue
            if _STATIC.match(signature):
                continue
            members[name] = _Member(kind, name, signature)
            if _optional(name, signature):
                required.discard(name)
            else:
                required.add(name)
        found = _Type(members, required, nominal, open_)
        self._types[type_id] = found
        return found


def _optional(name: str, signature: str) -> bool:
    at = signature.find(name)
    return at >= 0 and signature[at + len(name) : at + len(name) + 1] == "?"


def structural_partners(conn: sqlite3.Connection, row: SymbolRow, family: list[SymbolRow]) -> list[SymbolRow]:
    """Same-named members of project classes, interfaces and object type aliases outside ``family`` whose type may be
    used as the type of a member of ``family``, or the other way round. Every member's type counts, not only
    the renamed one's: ``x.id`` with ``x: A | B`` joins ``A.id`` to ``B.id``, and a C that may be used as an A
    (``matches(c)`` with ``matches(x: A | B)``) keeps its ``id`` whichever of the two was selected."""
    if row.kind not in _MEMBER_KINDS or not row.parent_path or _hidden(row):
        return []
    types = _Types(conn)
    family_owners: dict[int, _Type | None] = {}  # None: a type whose member is private
    for member in family:
        owner = _owner(conn, member) if member.parent_path else None
        if owner is not None and owner.id not in family_owners:
            family_owners[owner.id] = None if _hidden(member) else types.of(owner.id)
    mines = [mine for mine in family_owners.values() if mine is not None]
    known = {m.id for m in family}
    out: list[SymbolRow] = []
    marks = ",".join("?" * len(_MEMBER_KINDS))
    candidates = query_symbols(conn, f"s.name = ? AND s.kind IN ({marks})", (row.name, *_MEMBER_KINDS))
    for other in candidates:
        if (
            other.id in known
            or not other.parent_path
            or other.file.endswith((".py", ".pyi"))
            or _hidden(other)
        ):
            continue  # a private or protected member stands for no public one
        other_owner = _owner(conn, other)
        if other_owner is None or other_owner.id in family_owners:
            continue
        theirs = types.of(other_owner.id)
        if any(theirs.satisfies(mine) or mine.satisfies(theirs) for mine in mines):
            out.append(other)
    return out


# a construct signature in an interface or object type (`new (): Shape`, `new <T>(x: T): Box<T>`)
_CONSTRUCT = re.compile(r"(?:^|[{;,\s])new\s*[(<]")


def static_partners(
    ws: Workspace, conn: sqlite3.Connection, row: SymbolRow, family: list[SymbolRow]
) -> list[SymbolRow]:
    """The static side of classes: a class itself is a value whose type has its static members
    and a construct signature, so ``const ctors: ShapeCtor[] = [Circle]`` with ``interface
    ShapeCtor { new (): Shape; kind: string }`` needs ``Circle.kind`` static. A static member's
    partners are the same-named members of project interfaces and object types with a construct
    signature; such a type's member's partners are the same-named static members of classes.
    Where a class flows is not in the index, so each is a partner. Every member of ``family``
    counts (a union may join a static member to a constructible type's member)."""
    if row.kind not in _MEMBER_KINDS or not row.parent_path or _hidden(row):
        return []
    texts: dict[str, list[str]] = {}  # the lines of each file read for construct signatures
    static = constructible = False  # a static member in the family; a constructible type's member
    for member in family:
        owner = _owner(conn, member) if member.parent_path and not _hidden(member) else None
        if owner is None or member.file.endswith((".py", ".pyi")):
            continue
        if owner.kind == "class":
            static = static or bool(_STATIC.match(member.signature))
        elif not _STATIC.match(member.signature) and not constructible:
            constructible = _constructible(ws, owner, texts)
    if not static and not constructible:
        return []
    known = {m.id for m in family}
    marks = ",".join("?" * len(_MEMBER_KINDS))
    out: list[SymbolRow] = []
    for other in query_symbols(conn, f"s.name = ? AND s.kind IN ({marks})", (row.name, *_MEMBER_KINDS)):
        if (
            other.id in known
            or not other.parent_path
            or other.file.endswith((".py", ".pyi"))
            or _hidden(other)
        ):
            continue
        other_owner = _owner(conn, other)
        if other_owner is None:
            continue
        if (static and other_owner.kind != "class" and _constructible(ws, other_owner, texts)) or (
            constructible and other_owner.kind == "class" and _STATIC.match(other.signature)
        ):
            out.append(other)
    return out


def _constructible(ws: Workspace, owner: SymbolRow, texts: dict[str, list[str]] | None = None) -> bool:
    """Whether an interface or object type's declaration has a construct signature (``texts``:
    the lines of files already read)."""
    texts = {} if texts is None else texts
    lines = texts.get(owner.file)
    if lines is None:
        try:
            lines = (ws.root / owner.file).read_text(encoding="utf-8", errors="replace").split("\n")
        except OSError:
            lines = []
        texts[owner.file] = lines
    return bool(_CONSTRUCT.search("\n".join(lines[owner.start_line - 1 : owner.end_line])))


_MAX_BELOW = 256  # project types followed below the owner


def owner_types(conn: sqlite3.Connection, member: SymbolRow) -> list[tuple[set[str], set[str]]]:
    """(public member names, required member names), own and inherited, of the class, interface or
    object type alias declaring ``member``, then of each project type deriving from it, which holds
    the member too (``interface MapState extends ImmerBaseState``): a value of any of them carries
    the member. Empty when there is none or the member is private."""
    if _hidden(member):
        return []
    owner = _owner(conn, member)
    if owner is None:
        return []
    types = _Types(conn)
    out: list[tuple[set[str], set[str]]] = []
    queue, seen = [owner.id], {owner.id}
    while queue and len(out) < _MAX_BELOW:
        type_id = queue.pop(0)
        found = types.of(type_id)
        out.append((set(found.members), set(found.required)))
        for (below,) in conn.execute(
            "SELECT src_symbol_id FROM edges WHERE dst_symbol_id = ? AND kind = 'inherits'"
            " AND src_symbol_id IS NOT NULL",
            (type_id,),
        ):
            if below not in seen:
                seen.add(below)
                queue.append(below)
    return out


def member_fits(member: SymbolRow, kind: str, text: str) -> bool:
    """Whether ``member`` and a same-named member written ``text`` (``type: "map"``; ``kind``
    method or property) may stand for each other: ``type: "map"`` never fits ``type: "string"``."""
    mine = _Member(member.kind, member.name, member.signature)
    theirs = _Member(kind, member.name, text)
    return mine.fits(theirs) or theirs.fits(mine)


def _hidden(member: SymbolRow) -> bool:
    return member.name.startswith("#") or bool(_PRIVATE.match(member.signature))


# `type HasBar = { bar(): string }`: an object type written out is a type like an interface (an
# alias of a union, an intersection or a mapped type is not: its members are not all required)
_OBJECT_ALIAS = re.compile(r"^\s*(?:export\s+)?(?:declare\s+)?type\s+[\w$]+\s*(?:<[^=]*>)?\s*=\s*\{")


def _owner(conn: sqlite3.Connection, member: SymbolRow) -> SymbolRow | None:
    found = query_symbols(
        conn,
        f"f.path = ? AND s.symbol_path = ? AND s.kind IN ({','.join('?' * (len(_TYPE_KINDS) + 1))})",
        (member.file, member.parent_path, *_TYPE_KINDS, "type"),
    )
    found = [t for t in found if t.kind != "type" or _OBJECT_ALIAS.match(t.signature)]
    return found[0] if found else None
