"""TS: a project type indexed by a key some other type computes.

effect writes ``type Shared<A extends TypedArray> = SharedByName[A[typeof Symbol.toStringTag]]``:
the keys of ``SharedByName`` (``Float32Array``, …) are the ``[Symbol.toStringTag]`` literals
TypeScript's lib declares for the typed arrays, so renaming ``SharedByName.Float32Array`` made
``A[typeof Symbol.toStringTag]`` no key of it (seed 7676, a new tsc error). No project literal names
the member there (a written ``X["key"]`` is a ``string`` name hit; SPEC §3). Where an indexed
access type ``Owner[K]`` names an owner of the family and ``K`` is worked out from other types (an
indexed access ``A[…]``, a ``typeof``, a type no project declaration or type parameter binds, a
generic of a package's, or one given such a type), the member's name may be one such key: the
rename is refused with ``MUTATION_BLOCKED`` naming the place. So is ``keyof Other`` of a type
outside the renamed family, as the key or as the constraint of the type parameter or mapped key
used (``Owner[keyof Other]``, ``<K extends keyof Other>`` then ``Owner[K]``): the owner must have
every key of the other type, which keeps the old name; and a value of the owner's declared type
indexed so (``o[k]`` with ``o: Owner`` and ``k: keyof Other``, ``o[k as keyof Other]``). Literal
keys, ``keyof`` an owner, a type parameter (constrained so, or not at all; a mapped type's key, an
``infer`` name too), ``string`` / ``number`` (an index signature), a project's own type alias (whose
literals are name hits themselves) and a lib helper over such keys (``Extract<K, string>``) are keys
the rename sees.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable

import tree_sitter

from astmcp.errors import MutationBlocked
from astmcp.query.common import SymbolRow, query_symbols
from astmcp.refactor.ts_literals import TsFiles
from astmcp.workspace import Workspace

__all__ = ["check_computed_keys"]

_MEMBER_KINDS = ("property", "method", "getter", "setter")
_OWNER_KINDS = ("interface", "type", "class")
_SEEN_KEYS = frozenset({"literal_type", "template_literal_type", "predefined_type"})
# lib generics whose keys are their argument's
_SAME_KEYS = frozenset({b"Partial", b"Required", b"Readonly"})
_COMPUTED = frozenset({"lookup_type", "type_query"})
_MAX_WALK = 64  # project types walked up for the bases a member comes from
_GROUPS = frozenset({"union_type", "parenthesized_type", "intersection_type"})
# lib generics whose keys are their arguments' (`Extract<K, string>`)
_KEY_HELPERS = frozenset(
    {"Extract", "Exclude", "NonNullable", "Capitalize", "Uncapitalize", "Uppercase", "Lowercase"}
)


def check_computed_keys(
    ws: Workspace, conn: sqlite3.Connection, row: SymbolRow, family: Iterable[SymbolRow]
) -> None:
    """MUTATION_BLOCKED when an owner of a renamed TS member is indexed by a computed key."""
    owners: set[str] = set()
    owner_ids: set[int] = set()
    for member in (row, *family):
        if (
            member.kind not in _MEMBER_KINDS
            or not member.parent_path
            or member.file.endswith((".py", ".pyi"))
        ):
            continue
        for owner in query_symbols(
            conn, "f.path = ? AND s.symbol_path = ?", (member.file, member.parent_path)
        ):
            if owner.kind in _OWNER_KINDS:
                owners.add(owner.name)
                owner_ids.add(owner.id)
    if not owners:
        return
    files = TsFiles(ws)
    keys = _Keys(conn, row.name, owners, owner_ids)
    for name in sorted(owners):
        # a file indexing the owner's type (`Name[`), or one writing `keyof` (a value of it indexed
        # by a key so typed there)
        fits = re.compile(rf"(?<![\w$.]){re.escape(name)}\s*\[|(?<![\w$.])keyof(?![\w$])")
        for path, parsed in files.holding(conn, name, fits=fits):
            values = b"keyof" in (parsed.tree.root_node.text or b"")
            pending = [parsed.tree.root_node]
            while pending:
                node = pending.pop()
                pending.extend(node.named_children)
                key = _owner_key(node, name, values)
                if key is not None and keys.computed(key, _parameters(node)):
                    line = node.start_point.row + 1
                    raise MutationBlocked(
                        f"{row.name!r} is a member of {name}, which {path}:{line} indexes by a key other types"
                        f" work out (`{(node.text or b'').decode('utf-8', 'replace')[:80]}`): the member's"
                        " name may be one of those keys, which the rename cannot change",
                        {"file": path, "line": line, "owner": name},
                    )


def _owner_key(node: tree_sitter.Node, owner: str, values: bool) -> tree_sitter.Node | None:
    """The type of the key ``node`` indexes the type ``owner`` by: ``Owner[K]``'s ``K``, or, where
    ``values`` (the file writes ``keyof``, which such a key's type needs), the declared type of
    ``k`` in ``o[k]`` (``o`` declared an ``Owner``: a parameter or a variable around it) or the
    type ``o[k as keyof Other]`` casts it to; None for any other node."""
    parts = node.named_children
    if node.type == "lookup_type":
        if len(parts) == 2 and parts[0].type == "type_identifier" and parts[0].text == owner.encode():
            return parts[1]
        return None
    if node.type != "subscript_expression" or not values:
        return None
    target, index = node.child_by_field_name("object"), node.child_by_field_name("index")
    if target is None or index is None or target.type != "identifier":
        return None
    held = _declared_type(node, (target.text or b"").decode())
    if held is None or held.type != "type_identifier" or held.text != owner.encode():
        return None
    if index.type == "as_expression" and index.named_children:
        return index.named_children[-1]
    return _declared_type(node, (index.text or b"").decode()) if index.type == "identifier" else None


def _declared_type(node: tree_sitter.Node, name: str) -> tree_sitter.Node | None:
    """The type annotation of the parameter or variable ``name`` nearest around ``node`` (a
    loop's variable: the item type of what it walks, cast to an array type: ``for (const k of
    Object.keys(o) as (keyof T)[])``)."""
    current = node.parent
    while current is not None:
        left, right = current.child_by_field_name("left"), current.child_by_field_name("right")
        if current.type == "for_in_statement" and left is not None and left.text == name.encode():
            return _item_type(right)
        params = current.child_by_field_name("parameters")
        holders = [*(params.named_children if params is not None else ()), *current.named_children]
        for holder in holders:
            declarators = (
                holder.named_children
                if holder.type in ("lexical_declaration", "variable_declaration")
                else [holder]
            )
            for declared in declarators:
                if declared.type not in ("required_parameter", "optional_parameter", "variable_declarator"):
                    continue
                binding = declared.child_by_field_name("pattern") or declared.child_by_field_name("name")
                annotation = declared.child_by_field_name("type")
                if binding is not None and binding.text == name.encode() and annotation is not None:
                    return annotation.named_children[0] if annotation.named_children else None
        current = current.parent
    return None


def _item_type(walked: tree_sitter.Node | None) -> tree_sitter.Node | None:
    """The item type of an array type an iterated expression is cast to (``as K[]``,
    ``as Array<K>``, ``as readonly K[]``)."""
    cast = walked.named_children[-1] if walked is not None and walked.type == "as_expression" else None
    if cast is not None and cast.type == "readonly_type" and cast.named_children:
        cast = cast.named_children[0]
    if cast is not None and cast.type == "array_type" and cast.named_children:
        item = cast.named_children[0]
        return item.named_children[0] if item.type == "parenthesized_type" and item.named_children else item
    if cast is not None and cast.type == "generic_type":
        head = cast.child_by_field_name("name")
        arguments = next((c for c in cast.named_children if c.type == "type_arguments"), None)
        if head is not None and head.text in (b"Array", b"ReadonlyArray") and arguments is not None:
            return arguments.named_children[0] if len(arguments.named_children) == 1 else None
    return None


class _Keys:
    """Judges the keys an owner of the family is indexed by (see the module docstring)."""

    def __init__(self, conn: sqlite3.Connection, member: str, owners: set[str], owner_ids: set[int]) -> None:
        self.conn = conn
        self.member = member
        self.owners = owners
        self.owner_ids = owner_ids
        self.declared: dict[str, bool] = {}
        self.shared: dict[str, bool] = {}

    def computed(self, key: tree_sitter.Node, params: dict[str, tree_sitter.Node | None]) -> bool:
        """Whether an index type is worked out from other types."""
        if key.type == "index_type_query":
            return not self.owner_keys(key, params)
        if key.type in _SEEN_KEYS:
            return False
        if key.type in _COMPUTED:
            return True
        if key.type in _GROUPS:
            return any(self.computed(part, params) for part in key.named_children)
        if key.type == "type_identifier":
            name = (key.text or b"").decode()
            if name in params:
                bound = params[name]
                return bound is not None and self.computed(
                    bound, {k: v for k, v in params.items() if k != name}
                )
            return not self.project_type(name)
        if key.type == "generic_type":
            queries = [n for n in _descendants(key) if n.type == "index_type_query"]
            if queries:  # (`Helper<keyof Owner>`: the owner's keys, whatever the helper makes of them)
                return not all(self.owner_keys(q, params) for q in queries)
            head = key.child_by_field_name("name")
            arguments = next((c for c in key.named_children if c.type == "type_arguments"), None)
            name = (head.text or b"").decode() if head is not None else ""
            if name not in _KEY_HELPERS and (head is None or self.computed(head, params)):
                return True  # (a generic of a package's: what keys it makes is not read)
            return any(self.computed(a, params) for a in (arguments.named_children if arguments else ()))
        return False

    def project_type(self, name: str) -> bool:
        if name not in self.declared:
            self.declared[name] = (
                self.conn.execute(
                    "SELECT 1 FROM symbols WHERE name = ? AND kind IN ('type', 'interface', 'enum') LIMIT 1",
                    (name,),
                ).fetchone()
                is not None
            )
        return self.declared[name]

    def owner_keys(self, query: tree_sitter.Node, params: dict[str, tree_sitter.Node | None]) -> bool:
        """Whether ``keyof X`` takes the member's name, if at all, from the family: X is an owner
        (or ``Partial``/``Required``/``Readonly`` of one), a type parameter, or a project class or
        interface that has the member only from owners it extends, or not at all."""
        inner = query.named_children[0] if query.named_children else None
        if inner is not None and inner.type == "generic_type":
            head = inner.child_by_field_name("name")
            arguments = next((c for c in inner.named_children if c.type == "type_arguments"), None)
            given = arguments.named_children if arguments is not None else []
            if head is not None and head.text in _SAME_KEYS and len(given) == 1:
                inner = given[0]
        if inner is None or inner.type != "type_identifier":
            return False
        name = (inner.text or b"").decode()
        if name in self.owners or name in params:
            return True
        if name not in self.shared:
            types = self.conn.execute(
                "SELECT id FROM symbols WHERE name = ? AND kind IN ('interface', 'class')", (name,)
            ).fetchall()
            self.shared[name] = bool(types) and all(self._from_family(t, set()) for (t,) in types)
        return self.shared[name]

    def _from_family(self, type_id: int, seen: set[int]) -> bool:
        """Whether the project type ``type_id`` has the member only from owners (or lacks it)."""
        if type_id in self.owner_ids:
            return True
        if type_id in seen or len(seen) > _MAX_WALK:
            return False
        seen.add(type_id)
        own = self.conn.execute(
            "SELECT 1 FROM symbols m JOIN symbols t ON t.id = ? WHERE m.file_id = t.file_id"
            " AND m.symbol_path = t.symbol_path || '.' || ? LIMIT 1",
            (type_id, self.member),
        ).fetchone()
        if own is not None:
            return False
        bases = self.conn.execute(
            "SELECT dst_symbol_id FROM edges WHERE src_symbol_id = ? AND kind = 'inherits'", (type_id,)
        ).fetchall()
        return all(base is not None and self._from_family(base, seen) for (base,) in bases)


def _descendants(node: tree_sitter.Node) -> list[tree_sitter.Node]:
    out: list[tree_sitter.Node] = []
    pending = list(node.named_children)
    while pending:
        current = pending.pop()
        out.append(current)
        pending.extend(current.named_children)
    return out


def _parameters(node: tree_sitter.Node) -> dict[str, tree_sitter.Node | None]:
    """The type parameters the declarations around ``node`` bind, with the keys of the mapped
    types (``[K in keyof T]``) and the ``infer`` names of the conditional types around it, each
    with the type it is constrained to (None: unconstrained); the nearest binding of a name wins."""
    out: dict[str, tree_sitter.Node | None] = {}
    current: tree_sitter.Node | None = node
    while current is not None:
        found = current.child_by_field_name("type_parameters")
        for param in found.named_children if found is not None else ():
            name = param.child_by_field_name("name")
            constraint = param.child_by_field_name("constraint")
            bound = (
                constraint.named_children[-1]
                if constraint is not None and constraint.named_children
                else None
            )
            if name is not None and name.text:
                out.setdefault(name.text.decode(), bound)
        for clause in current.named_children if current.type == "index_signature" else ():
            name = clause.child_by_field_name("name") if clause.type == "mapped_type_clause" else None
            if name is not None and name.text:
                out.setdefault(name.text.decode(), clause.child_by_field_name("type"))
        if current.type == "conditional_type":
            pending = list(current.named_children)
            while pending:
                inner = pending.pop()
                if inner.type == "infer_type" and inner.named_children and inner.named_children[0].text:
                    out.setdefault(inner.named_children[0].text.decode(), None)
                pending.extend(inner.named_children)
        current = current.parent
    return out
