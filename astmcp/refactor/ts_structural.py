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

import posixpath
import re
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from astmcp.query.common import SymbolRow, query_symbols
from astmcp.resolve.ts_config import TsConfigs
from astmcp.resolve.ts_packages import package_type_shape, project_root
from astmcp.workspace import Workspace

__all__ = [
    "OwnerShape",
    "derived_types",
    "member_fits",
    "member_owner",
    "owner_requirements",
    "owner_shapes",
    "owner_types",
    "static_partners",
    "structural_partners",
    "type_shapes",
]

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

    def __init__(self, kind: str, name: str, signature: str, params: frozenset[str] = frozenset()) -> None:
        self.callable = kind == "method"
        self.signature = signature
        rest = signature[signature.find(name) + len(name) :] if name in signature else ""
        self.optional = rest.startswith("?")
        rest = rest.removeprefix("?").strip()
        self.unit: str | None = None
        self.plain = False
        self.primitives: frozenset[str] | None = None  # `number | null`: exactly those
        self.parts: tuple[str, ...] | None = None  # the union's parts, when the type is written out
        self.params = params  # the owner's type parameters (`T` may stand for `null`)
        if rest.startswith(":"):
            declared = rest[1:].strip().rstrip(";").strip()
            self.unit = declared if _UNIT.match(declared) else None
            parts = frozenset(part.strip() for part in declared.split("|"))
            self.primitives = parts if parts <= _PRIMITIVES else None
            self.parts = union_parts(declared)
        elif rest.startswith("="):
            self.plain = bool(_PLAIN.match(rest[1:].strip().rstrip(";").strip()))

    def empties(self) -> frozenset[str]:
        """``null`` and ``undefined``, as far as this member's value may be either."""
        found = frozenset(self.parts or ()) & _EMPTY
        return found | {"undefined"} if self.optional else found

    def takes(self, empty: str, closed: Callable[[str, frozenset[str]], bool]) -> bool:
        """Whether ``null`` or ``undefined`` may be given where this member is declared (under
        ``strictNullChecks``): not when each part of its union is a type that never holds it."""
        if self.parts is None or (empty == "undefined" and self.optional):
            return True
        return any(part in _OPEN or not closed(part, self.params) for part in self.parts)

    def fits(self, expected: _Member, closed: Callable[[str, frozenset[str]], bool] | None = None) -> bool:
        """Whether this member may be given where ``expected`` is declared (``closed``, under
        ``strictNullChecks``: whether a written type never holds ``null`` or ``undefined``)."""
        if closed is not None and not all(expected.takes(e, closed) for e in self.empties()):
            return False  # `parent: Context | null` is no `parent: Context`
        if expected.unit is not None:
            return self.unit == expected.unit
        if self.primitives is not None and expected.primitives is not None:
            return self.primitives <= expected.primitives
        if self.unit is not None and expected.primitives is not None:
            # `version: 1` is no `version?: string` (a literal's type is its primitive's)
            primitive = _unit_primitive(self.unit)
            if primitive is not None:
                return primitive in expected.primitives
        if (self.callable and expected.primitives is not None) or (
            self.primitives is not None and expected.callable
        ):
            return False  # a method is no `boolean`, a `number` field no method
        if expected.callable:
            return not (self.plain or self.unit is not None)
        return not (expected.plain and self.callable)


def _unit_primitive(unit: str) -> str | None:
    """The primitive type a literal type belongs to (``"a"``: string, ``3``: number), or None
    (``typeof x``, an enum member)."""
    if unit[0] in "\"'":
        return "string"
    if unit in ("true", "false"):
        return "boolean"
    if unit in ("null", "undefined"):
        return unit
    return "number" if unit[0] in "-0123456789" else None


_EMPTY = frozenset({"null", "undefined"})
_OPEN = frozenset({"null", "undefined", "any", "unknown", "void", "never"})  # part of a type taking them
# types of the language that never hold `null` or `undefined`
_CLOSED_NAMES = frozenset(
    {"string", "number", "boolean", "bigint", "symbol", "object", "true", "false", "Date", "RegExp", "Error"}
    | {"Map", "Set", "WeakMap", "WeakSet", "Array", "ReadonlyArray", "Promise", "Record", "Function"}
)
_BRACKETS = {"(": ")", "[": "]", "{": "}", "<": ">"}
_NAMED = re.compile(r"^([\w$]+(?:\.[\w$]+)*)\s*(<.*>)?$", re.S)
_MAPPED = re.compile(r"^\{\s*(?:[+-]?readonly\s+)?\[\s*[\w$]+\s+in\s")
_LITERAL = re.compile(r"""^(?:"[^"]*"|'[^']*'|-?\d[\d_.]*)$""")


def union_parts(declared: str, separator: str = "|") -> tuple[str, ...] | None:
    """The parts of the union type ``declared`` at its top level (``A<B | C> | null``: ``A<B |
    C>``, ``null``; with ``separator="&"``, of an intersection); None when its brackets do not pair
    up (a type cut short)."""
    parts: list[str] = []
    stack: list[str] = []
    start = i = 0
    while i < len(declared):
        char = declared[i]
        if char in "\"'`":  # a string literal type: its text is no bracket
            end = declared.find(char, i + 1)
            if end < 0:
                return None
            i = end
        elif char == "=" and declared[i + 1 : i + 2] == ">" and not stack:
            break  # `(a: A) => B | C`: the rest is the function type's return type
        elif char in _BRACKETS:
            stack.append(_BRACKETS[char])
        elif char in ")]}" or (char == ">" and declared[i - 1 : i] != "="):  # not the arrow of `=>`
            if not stack or stack.pop() != char:
                return None
        elif char == separator and not stack:
            parts.append(declared[start:i].strip())
            start = i + 1
        i += 1
    if stack or (i < len(declared) and union_parts(declared[i + 2 :], separator) is None):
        return None  # brackets left open (in the return type, when stopped at its `=>`)
    parts.append(declared[start:].strip())
    return tuple(p for p in parts if p) or None


class _Type:
    """One class or interface: its members (own and inherited) and those it requires."""

    def __init__(self, members: dict[str, _Member], required: set[str], nominal: bool, open_: bool) -> None:
        self.members = members
        self.required = required
        self.nominal = nominal  # has a private member: only its subclasses satisfy it
        self.open = open_  # a base outside the project: any member may be there

    def satisfies(self, other: _Type, closed: Callable[[str, frozenset[str]], bool] | None = None) -> bool:
        """Whether a value of this type may be used where ``other`` is expected (``closed``: see
        ``_Member.fits``)."""
        if other.nominal:
            return False
        for name in other.required:
            if name not in self.members and not self.open:
                return False
            if name in self.members and name not in self.required:
                return False  # optional here, required there: never assignable
        # a member it has must fit, optional there or not (`nullable?: boolean` takes no method)
        return all(
            mine.fits(other.members[name], closed)
            for name, mine in self.members.items()
            if name in other.members
        )


class _Types:
    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self._types: dict[int, _Type] = {}
        self._closed: dict[str, bool] = {}
        self._root: Path | None = None

    def declaration(self, type_id: int, signature: str) -> str:
        """A type alias's whole declaration, on one line, when its stored signature is cut short
        (``export type ZodTypeAny<Output = unknown, …> =…``: long type parameters); else the
        signature."""
        if not signature.rstrip().endswith("…"):
            return signature
        found = self.conn.execute(
            "SELECT f.path, s.start_line, s.end_line, s.end_col FROM symbols s JOIN files f ON f.id = s.file_id"
            " WHERE s.id = ?",
            (type_id,),
        ).fetchone()
        self._root = self._root or project_root(self.conn)
        if found is None or self._root is None:
            return signature
        path, start, end, end_col = found
        try:
            lines = (self._root / path).read_text(encoding="utf-8").split("\n")[start - 1 : end]
        except (OSError, UnicodeDecodeError):
            return signature
        if not lines:
            return signature
        lines[-1] = lines[-1][:end_col]
        return " ".join(" ".join(lines).split()).rstrip(";").rstrip()

    def closed(self, part: str, params: frozenset[str]) -> bool:
        """Whether the type written ``part`` (one part of a union) never holds ``null`` or
        ``undefined``: a literal, an array, a tuple, an object or function type, a type of the
        language that holds neither, or a project class, interface or enum (not a type alias: it
        may name a union; not a type parameter: it may stand for one)."""
        part = part.strip()
        if part.startswith("readonly "):
            return self.closed(part.removeprefix("readonly "), params)
        if _MAPPED.match(part):
            return False  # `{ [K in keyof T]: … }` is `null` where T is
        if _LITERAL.match(part) or part.endswith("[]") or part.startswith(("[", "{")):
            return True  # `3`, `T[]`, `[A, B]`, `{ a: A }` (not `T["k"]`: it may be `null`)
        if part.startswith(("(", "<", "new ")):
            inner = union_parts(part[1:-1]) if part.startswith("(") and part.endswith(")") else None
            if inner is not None and "=>" not in part:  # `(A | null)`
                return all(p not in _OPEN and self.closed(p, params) for p in inner)
            return "=>" in part  # a function or constructor type
        named = _NAMED.match(part)
        if named is None:
            return False
        name = named.group(1)
        if name.split(".")[0] in params:
            return False
        last = name.rsplit(".", 1)[-1]
        if last in _CLOSED_NAMES:
            return True
        found = self._closed.get(last)
        if found is None:
            kinds = {
                kind
                for (kind,) in self.conn.execute(
                    "SELECT kind FROM symbols WHERE name = ? AND kind IN ('class', 'interface', 'enum', 'type')",
                    (last,),
                )
            }
            found = self._closed[last] = bool(kinds) and kinds <= {"class", "interface", "enum"}
        return found

    def memberwise(
        self, type_id: int, helper: str, arguments: str
    ) -> tuple[frozenset[str], frozenset[str]] | None:
        """``(names, required)`` of ``Omit<B, "k">``, ``Pick<B, "k">``, ``Partial<B>``, … (``helper``
        with its written ``arguments``) in the heritage of the type ``type_id``, when B is a class or
        interface its file imports from a package whose declarations give its members; else None."""
        parts = union_parts(arguments[1:-1], ",") if arguments.startswith("<") else None
        if not parts or len(parts) > 2 or (len(parts) == 2) != (helper in ("Omit", "Pick")):
            return None
        base = _NAMED.match(parts[0])
        if base is None or "." in base.group(1):
            return None
        written = union_parts(parts[1]) if len(parts) == 2 else ()
        if written is None or not all(_STRING_KEY.match(key) for key in written):
            return None  # `Omit<B, keyof C>`: which keys is not read here
        keys = {key[1:-1] for key in written}
        imported = self.conn.execute(
            "SELECT i.module, i.name FROM imports i JOIN symbols s ON s.file_id = i.file_id WHERE s.id = ?"
            " AND i.external = 1 AND i.name IS NOT NULL AND COALESCE(i.alias, i.name) = ?",
            (type_id, base.group(1)),
        ).fetchone()
        self._root = self._root or project_root(self.conn)
        if imported is None or self._root is None:
            return None
        shape = package_type_shape(str(self._root), f"{imported[0]}.{imported[1]}")
        if shape is None:
            return None
        names, required = shape
        if helper == "Omit":
            return names - keys, required - keys
        if helper == "Pick":
            return names & keys, required & keys
        return names, (frozenset() if helper == "Partial" else names if helper == "Required" else required)

    def of(self, type_id: int, seen: frozenset[int] = frozenset()) -> _Type:
        found = self._types.get(type_id)
        if found is not None:
            return found
        members: dict[str, _Member] = {}
        required: set[str] = set()
        nominal = False
        open_ = False
        linked: set[str] = set()  # the names of the project types it derives from
        for base_id, key, base_name in self.conn.execute(
            "SELECT e.dst_symbol_id, e.dst_key, b.name FROM edges e LEFT JOIN symbols b ON b.id = e.dst_symbol_id"
            " WHERE e.src_symbol_id = ? AND e.kind = 'inherits'",
            (type_id,),
        ):
            if base_id is None:
                open_ = open_ or key is not None
                continue
            linked.add(base_name)
            if base_id in seen:
                continue
            base = self.of(base_id, seen | {type_id})
            members.update(base.members)
            required |= base.required
            nominal = nominal or base.nominal
            open_ = open_ or base.open
        marks = ",".join("?" * len(_MEMBER_KINDS))
        row = self.conn.execute("SELECT signature FROM symbols WHERE id = ?", (type_id,)).fetchone()
        params = _type_parameters(row[0] if row else "")
        # `interface A extends Omit<B, "k">`: some of B's members, which no inherits edge names;
        # read from B's declarations when a package declares it, else any member may be there
        for part in _extends_parts(row[0] if row else ""):
            named = _NAMED.match(part)
            if named is None or named.group(1) not in _MEMBERWISE:
                continue
            shape = self.memberwise(type_id, named.group(1), named.group(2) or "")
            if shape is None:
                open_ = True
                continue
            for name in shape[0]:
                members.setdefault(name, _Member("property", name, ""))
            required |= shape[1]
        declares = False  # (an alias declaring members is an object type written out)
        for name, kind, signature in self.conn.execute(
            "SELECT m.name, m.kind, m.signature FROM symbols t JOIN symbols m ON m.file_id = t.file_id"
            f" AND m.symbol_path = t.symbol_path || '.' || m.name WHERE t.id = ? AND m.kind IN ({marks})",
            (type_id, *_MEMBER_KINDS),
        ):
            declares = True
            if name.startswith("#") or _PRIVATE.match(signature):
                nominal = True
                continue
            if _STATIC.match(signature):
                continue
            members[name] = _Member(kind, name, signature, params)
            if _optional(name, signature):
                required.discard(name)
            else:
                required.add(name)
        kind_row = self.conn.execute("SELECT kind FROM symbols WHERE id = ?", (type_id,)).fetchone()
        signature = row[0] if row else ""
        if (
            kind_row is not None
            and kind_row[0] == "type"
            and not declares
            and not _OBJECT_ALIAS.match(signature)
            and not _named_alias(self.declaration(type_id, signature), linked)
        ):
            # a base that is an alias of something other than an object type written out or the
            # project types it names (`type Reader = Pick<Index, "k">`, `type Id = A | B`): which
            # members it has, and which it requires, are not read here
            members, required, open_ = {}, set(), True
        found = _Type(members, required, nominal, open_)
        self._types[type_id] = found
        return found


_DECLARED = re.compile(r"\b(?:class|interface|type)\s+[\w$]+\s*<")
_ALIAS_HEAD = re.compile(r"^\s*(?:export\s+)?(?:declare\s+)?type\s+[\w$]+\s*")


def _named_alias(signature: str, linked: set[str]) -> bool:
    """Whether a type alias stands for exactly the project types it is linked to: ``type
    ZodNonEmptyArray<T> = ZodArray<T, "atleastone">`` or ``type Both = Base & Extra<T>``, each part a
    type named with the name of one of ``linked`` (its members are theirs, all of them). Not a
    memberwise helper (``Pick<B, "k">``), a union, an object type written out, a type parameter or
    a type cut short in the signature."""
    head = _ALIAS_HEAD.match(signature)
    if head is None or signature.rstrip().endswith("…"):
        return False
    rest = signature[head.end() :]
    if rest.startswith("<"):  # its type parameters, whose defaults may hold `=`
        depth = 0
        for i, char in enumerate(rest):
            depth += {"<": 1, ">": -1}.get(char, 0)
            if depth == 0:
                rest = rest[i + 1 :].lstrip()
                break
        else:
            return False
    if not rest.startswith("="):
        return False
    parts = union_parts(rest[1:].strip().removeprefix("&"), "&")
    if not parts:
        return False
    for part in parts:
        named = _NAMED.match(part)
        if named is None or named.group(1).rsplit(".", 1)[-1] not in linked or named.group(1) in _MEMBERWISE:
            return False
    return True


def _type_parameters(signature: str) -> frozenset[str]:
    """Every name inside the type parameter list of a class, interface or type alias
    (``class Box<T extends Item = Item>``: ``T``, ``Item``; more than the parameters is safe)."""
    found = _DECLARED.search(signature)
    if found is None:
        return frozenset()
    depth, end = 0, len(signature)
    for i in range(found.end() - 1, len(signature)):
        if signature[i] == "<":
            depth += 1
        elif signature[i] == ">" and signature[i - 1] != "=":
            depth -= 1
            if depth == 0:
                end = i
                break
    return frozenset(re.findall(r"[A-Za-z_$][\w$]*", signature[found.end() : end]))


_INTERFACE_HEAD = re.compile(r"^\s*(?:export\s+)?(?:declare\s+)?interface\s+[\w$]+\s*")
_MEMBERWISE = frozenset({"Omit", "Pick", "Partial", "Required", "Readonly", "NonNullable"})
_STRING_KEY = re.compile(r"""^(?:"[\w$]+"|'[\w$]+')$""")


def _extends_parts(signature: str) -> tuple[str, ...]:
    """The bases an interface's header extends, as written."""
    head = _INTERFACE_HEAD.match(signature)
    if head is None:
        return ()
    rest = signature[head.end() :]
    if rest.startswith("<"):  # its type parameters (`<T extends Partial<X> = {}>`)
        depth = 0
        for i, char in enumerate(rest):
            if char == "<":
                depth += 1
            elif char == ">" and rest[i - 1 : i] != "=":
                depth -= 1
                if depth == 0:
                    rest = rest[i + 1 :]
                    break
        else:
            return ()
    rest = rest.strip()
    if not rest.startswith("extends"):
        return ()
    # its bases, split at their top-level commas (a comma inside `Omit<B, "k">` splits nothing)
    return union_parts(rest[len("extends") :], ",") or ()


def _optional(name: str, signature: str) -> bool:
    at = signature.find(name)
    return at >= 0 and signature[at + len(name) : at + len(name) + 1] == "?"


def structural_partners(
    conn: sqlite3.Connection, row: SymbolRow, family: list[SymbolRow], ws: Workspace | None = None
) -> list[SymbolRow]:
    """Same-named members of project classes, interfaces and object type aliases outside ``family`` whose type may be
    used as the type of a member of ``family``, or the other way round. Every member's type counts, not only
    the renamed one's: ``x.id`` with ``x: A | B`` joins ``A.id`` to ``B.id``, and a C that may be used as an A
    (``matches(c)`` with ``matches(x: A | B)``) keeps its ``id`` whichever of the two was selected.
    With ``ws`` and ``strictNullChecks`` on where both types are declared, a member that may be
    ``null`` fits none declared without it."""
    if row.kind not in _MEMBER_KINDS or not row.parent_path or _hidden(row):
        return []
    types = _Types(conn)
    strict = _StrictNulls(ws)
    family_owners: dict[int, _Type | None] = {}  # None: a type whose member is private
    family_files: set[str] = set()
    for member in family:
        owner = _owner(conn, member) if member.parent_path else None
        if owner is not None and owner.id not in family_owners:
            family_owners[owner.id] = None if _hidden(member) else types.of(owner.id)
            family_files.add(owner.file)
    # a type deriving from an owner carries the member too (`interface Public extends Base, Extra`
    # has Extra's `label`, and may be used as a `Named { name; label }`)
    mines = [
        types.of(below)
        for owner_id, mine in family_owners.items()
        if mine is not None
        for below in derived_types(conn, owner_id)
    ]
    strict_family = all(strict.at(file) for file in family_files)
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
        closed = types.closed if strict_family and strict.at(other_owner.file) else None
        if any(
            theirs.satisfies(mine, closed) or mine.satisfies(theirs, closed)
            for theirs in (types.of(below) for below in derived_types(conn, other_owner.id))
            for mine in mines
        ):
            out.append(other)
    return out


def owner_requirements(conn: sqlite3.Connection, family: list[SymbolRow]) -> list[frozenset[str]]:
    """Per type owning a member of ``family`` (a class, interface or object type alias; never one
    with a private member, which only its subclasses satisfy): the names of the members a value
    must have to be used as it (own and inherited; optional and static ones aside)."""
    return [shape.required for shape in owner_shapes(conn, family) if not shape.nominal]


class OwnerShape(NamedTuple):
    """A type owning a member of a family, as a value must be to be used as it, and what its
    values (and those of the types deriving from it) have."""

    member: SymbolRow  # the family's member it owns
    owner: SymbolRow
    required: frozenset[str]  # the members a value must have (own and inherited)
    signatures: dict[str, str]  # each member's signature as the index keeps it
    nominal: bool  # a private member: only its subclasses satisfy it
    holders: tuple[frozenset[str], ...]  # the public member names of it and each type deriving from it


def owner_shapes(conn: sqlite3.Connection, family: list[SymbolRow]) -> list[OwnerShape]:
    """Per type owning a member of ``family``, as :func:`owner_requirements` (nominal ones too,
    marked so), with its members' signatures and the members of the types deriving from it."""
    types = _Types(conn)
    seen: set[int] = set()
    out: list[OwnerShape] = []
    for member in family:
        owner = _owner(conn, member) if member.parent_path and not _hidden(member) else None
        if owner is None or owner.id in seen:
            continue
        seen.add(owner.id)
        found = types.of(owner.id)
        signatures = {name: found.members[name].signature for name in found.members}
        holders = tuple(frozenset(types.of(type_id).members) for type_id in derived_types(conn, owner.id))
        out.append(OwnerShape(member, owner, frozenset(found.required), signatures, found.nominal, holders))
    return out


def derived_types(conn: sqlite3.Connection, type_id: int) -> list[int]:
    """``type_id`` and the project types deriving from it (through ``inherits`` edges), bounded."""
    out: list[int] = []
    queue, seen = [type_id], {type_id}
    while queue and len(out) < _MAX_BELOW:
        current = queue.pop(0)
        out.append(current)
        for (below,) in conn.execute(
            "SELECT src_symbol_id FROM edges WHERE dst_symbol_id = ? AND kind = 'inherits'"
            " AND src_symbol_id IS NOT NULL",
            (current,),
        ):
            if below not in seen:
                seen.add(below)
                queue.append(below)
    return out


class _StrictNulls:
    """Whether ``strictNullChecks`` is on for a file: in the nearest tsconfig.json above it."""

    def __init__(self, ws: Workspace | None) -> None:
        self.ws = ws
        self.configs = TsConfigs(ws.root, {}) if ws is not None else None
        self._folders: dict[str, bool] = {}

    def at(self, file: str) -> bool:
        if self.ws is None or self.configs is None:
            return False
        folder = posixpath.dirname(file)
        found = self._folders.get(folder)
        if found is None:
            probe, found = folder, False
            while True:
                config = f"{probe}/tsconfig.json" if probe else "tsconfig.json"
                if (self.ws.root / config).is_file():
                    found = self.configs.strict_null_checks(config)
                    break
                if not probe:
                    break
                probe = posixpath.dirname(probe)
            self._folders[folder] = found
        return found


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
    shape = type_shapes(conn)
    return [shape(type_id) for type_id in derived_types(conn, owner.id)]


def closed_owner_types(conn: sqlite3.Connection, member: SymbolRow) -> list[tuple[set[str], set[str]]] | None:
    """As :func:`owner_types`, but None when one of the types may have members the index does not
    show (a base outside the project), or the member is private or has no owner."""
    owner = None if _hidden(member) else _owner(conn, member)
    if owner is None:
        return None
    types = _Types(conn)
    below = derived_types(conn, owner.id)
    out: list[tuple[set[str], set[str]]] = []
    for type_id in below:
        found = types.of(type_id)
        if found.open:
            return None
        out.append((set(found.members), set(found.required)))
    return out if len(below) < _MAX_BELOW else None


def member_owner(conn: sqlite3.Connection, member: SymbolRow) -> SymbolRow | None:
    """The class, interface or object type alias declaring ``member``."""
    return _owner(conn, member)


def type_shapes(conn: sqlite3.Connection) -> Callable[[int], tuple[set[str], set[str]]]:
    """(public member names, required member names), own and inherited, of a project type; the
    types read on the way are kept for the next one asked."""
    types = _Types(conn)

    def shape(type_id: int) -> tuple[set[str], set[str]]:
        found = types.of(type_id)
        return set(found.members), set(found.required)

    return shape


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
    # (an alias has members only where it is an object type written out, whatever its signature,
    # clipped when long, shows: `type Params<T extends object = Record<…>, …> = { … }`)
    return found[0] if found else None
