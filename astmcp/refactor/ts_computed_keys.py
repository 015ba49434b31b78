"""TS: a project type indexed by a key some other type computes.

effect writes ``type Shared<A extends TypedArray> = SharedByName[A[typeof Symbol.toStringTag]]``:
the keys of ``SharedByName`` (``Float32Array``, …) are the ``[Symbol.toStringTag]`` literals
TypeScript's lib declares for the typed arrays, so renaming ``SharedByName.Float32Array`` made
``A[typeof Symbol.toStringTag]`` no key of it (seed 7676, a new tsc error). No project literal names
the member there (a written ``X["key"]`` is a ``string`` name hit; SPEC §3). Where an indexed
access type ``Owner[K]`` names an owner of the family and ``K`` is worked out from other types (an
indexed access ``A[…]``, a ``typeof``, a type no project declaration or type parameter binds, a
generic of a package's, or one given such a type), the member's name may be one such key: the
rename is refused with ``MUTATION_BLOCKED`` naming the place. Literal keys, ``keyof``, a type
parameter (constrained where it is declared; a mapped type's key, an ``infer`` name too),
``string`` / ``number`` (an index signature), a project's own type alias (whose literals are name
hits themselves) and a lib helper over such keys (``Extract<K, string>``) are keys the rename sees.
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
_SEEN_KEYS = frozenset({"literal_type", "template_literal_type", "predefined_type", "index_type_query"})
_COMPUTED = frozenset({"lookup_type", "type_query"})
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
    if not owners:
        return
    files = TsFiles(ws)
    declared: dict[str, bool] = {}
    for name in sorted(owners):
        indexed = re.compile(rf"(?<![\w$.]){re.escape(name)}\s*\[")
        for path, parsed in files.holding(conn, name, fits=indexed):
            pending = [parsed.tree.root_node]
            while pending:
                node = pending.pop()
                pending.extend(node.named_children)
                parts = node.named_children if node.type == "lookup_type" else []
                if len(parts) != 2 or parts[0].type != "type_identifier" or parts[0].text != name.encode():
                    continue
                if _computed(conn, parts[1], _parameters(node), declared):
                    line = node.start_point.row + 1
                    raise MutationBlocked(
                        f"{row.name!r} is a member of {name}, which {path}:{line} indexes by a key other types"
                        f" work out (`{(node.text or b'').decode('utf-8', 'replace')[:80]}`): the member's"
                        " name may be one of those keys, which the rename cannot change",
                        {"file": path, "line": line, "owner": name},
                    )


def _computed(
    conn: sqlite3.Connection, key: tree_sitter.Node, params: set[str], declared: dict[str, bool]
) -> bool:
    """Whether an index type is worked out from other types (see the module docstring)."""
    if key.type in _SEEN_KEYS:
        return False
    if key.type in _COMPUTED:
        return True
    if key.type in _GROUPS:
        return any(_computed(conn, part, params, declared) for part in key.named_children)
    if key.type == "type_identifier":
        name = (key.text or b"").decode()
        if name in params:
            return False
        if name not in declared:
            declared[name] = (
                conn.execute(
                    "SELECT 1 FROM symbols WHERE name = ? AND kind IN ('type', 'interface', 'enum') LIMIT 1",
                    (name,),
                ).fetchone()
                is not None
            )
        return not declared[name]
    if key.type == "generic_type":
        if b"keyof" in (key.text or b""):
            return False
        head = key.child_by_field_name("name")
        arguments = next((c for c in key.named_children if c.type == "type_arguments"), None)
        name = (head.text or b"").decode() if head is not None else ""
        if name not in _KEY_HELPERS and (head is None or _computed(conn, head, params, declared)):
            return True  # (a generic of a package's: what keys it makes is not read)
        return any(
            _computed(conn, a, params, declared) for a in (arguments.named_children if arguments else ())
        )
    return False


def _parameters(node: tree_sitter.Node) -> set[str]:
    """The type parameters the declarations around ``node`` bind, with the keys of the mapped
    types (``[K in keyof T]``) and the ``infer`` names of the conditional types around it."""
    out: set[str] = set()
    current: tree_sitter.Node | None = node
    while current is not None:
        found = current.child_by_field_name("type_parameters")
        for param in found.named_children if found is not None else ():
            name = param.child_by_field_name("name")
            if name is not None and name.text:
                out.add(name.text.decode())
        for clause in current.named_children if current.type == "index_signature" else ():
            name = clause.child_by_field_name("name") if clause.type == "mapped_type_clause" else None
            if name is not None and name.text:
                out.add(name.text.decode())
        if current.type == "conditional_type":
            pending = list(current.named_children)
            while pending:
                inner = pending.pop()
                if inner.type == "infer_type" and inner.named_children and inner.named_children[0].text:
                    out.add(inner.named_children[0].text.decode())
                pending.extend(inner.named_children)
        current = current.parent
    return out
