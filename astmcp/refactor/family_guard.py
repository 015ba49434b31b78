"""A safety net under the override family: a class member is refused when a related class
(by the base names written in class headers, or a TS/JS variable's type annotation for the
members of its object literal) defines the same name but is not in the family.

The reference engine links bases through resolved edges; a base it could not link (a
subscripted generic, a dynamic base) would otherwise let a rename split an override
family silently. Matching by name may over-refuse; it never lets a break through.
"""

from __future__ import annotations

import ast
import re
import sqlite3
from collections.abc import Iterable

from astmcp.errors import MutationBlocked
from astmcp.query.common import SymbolRow, query_symbols

_MEMBER_KINDS = ("method", "property", "attribute", "getter", "setter")
_TS_HERITAGE = re.compile(r"\b(?:extends|implements)\s+([^{]+)")


def _python_bases(signature: str) -> list[str]:
    header = signature.strip().split("\n")[-1]
    try:
        tree = ast.parse(header + ": pass")
    except SyntaxError:
        return []
    node = tree.body[0] if tree.body else None
    if not isinstance(node, ast.ClassDef):
        return []
    out: list[str] = []
    for base in node.bases:
        while isinstance(base, ast.Subscript):
            base = base.value
        if isinstance(base, ast.Name):
            out.append(base.id)
        elif isinstance(base, ast.Attribute):
            out.append(base.attr)
    return out


def _ts_bases(signature: str) -> list[str]:
    names: list[str] = []
    for clause in _TS_HERITAGE.findall(signature):
        while "<" in clause and clause != (stripped := re.sub(r"<[^<>]*>", "", clause)):
            clause = stripped  # innermost type arguments first: Base<Map<K, V>> -> Base
        for part in re.split(r",|\bimplements\b", clause):
            word = part.strip().split(".")[-1].strip()
            if re.fullmatch(r"[A-Za-z_$][\w$]*", word):
                names.append(word)
    return names


_TS_ANNOTATED = re.compile(r"^(?:export\s+)?(?:declare\s+)?(?:const|let|var)\s+[\w$]+\s*:\s*([^=]+?)\s*=")


def _ts_annotation(signature: str) -> list[str]:
    """The type names a TS/JS variable is annotated with (``const memo: Memoizer = {...}``): an
    object literal's members must provide that type's members, so the type is its base."""
    match = _TS_ANNOTATED.match(signature.strip())
    if match is None:
        return []
    clause = match.group(1)
    while "<" in clause and clause != (stripped := re.sub(r"<[^<>]*>", "", clause)):
        clause = stripped
    names = []
    for part in re.split(r"[|&]", clause):
        word = part.strip().split(".")[-1].strip()
        if re.fullmatch(r"[A-Za-z_$][\w$]*", word):
            names.append(word)
    return names


class _Bases:
    """Base names of project classes by class name (all declarations of that name merged)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.cache: dict[str, set[str]] = {}

    def of(self, name: str) -> set[str]:
        if name not in self.cache:
            found: set[str] = set()
            for path, signature, kind in self.conn.execute(
                "SELECT f.path, s.signature, s.kind FROM symbols s JOIN files f ON f.id = s.file_id"
                " WHERE s.kind IN ('class', 'variable') AND s.name = ?",
                (name,),
            ):
                python = path.endswith((".py", ".pyi"))
                if kind == "variable":
                    found.update([] if python else _ts_annotation(signature))
                else:
                    found.update(_python_bases(signature) if python else _ts_bases(signature))
            self.cache[name] = found
        return self.cache[name]

    def ancestors(self, name: str) -> set[str]:
        seen: set[str] = set()
        stack = [name]
        while stack:
            for base in self.of(stack.pop()):
                if base not in seen:
                    seen.add(base)
                    stack.append(base)
        return seen


def _class_name(path: str) -> str:
    return path.rsplit(".", 1)[-1]


def check_family(conn: sqlite3.Connection, row: SymbolRow, family: Iterable[SymbolRow]) -> None:
    """MUTATION_BLOCKED when a same-named member of a related class is missing from ``family``."""
    if row.kind not in _MEMBER_KINDS or not row.parent_path:
        return
    members = {(m.file.removesuffix("i"), m.parent_path) for m in family}
    family_classes = {_class_name(m.parent_path) for m in family if m.parent_path}
    bases = _Bases(conn)
    marks = ",".join("?" * len(_MEMBER_KINDS))
    candidates = query_symbols(conn, f"s.name = ? AND s.kind IN ({marks})", (row.name, *_MEMBER_KINDS))
    family_ancestors = set().union(*(bases.ancestors(c) for c in family_classes))
    missed: list[str] = []
    for other in candidates:
        if not other.parent_path or (other.file.removesuffix("i"), other.parent_path) in members:
            continue
        owner = _class_name(other.parent_path)
        if owner in family_classes:
            # a namesake of a class the family already links (zod's v3 and v4 `ZodType`): the relation
            # by name is that class's; the index resolved its bases, and this one is not among them
            continue
        if owner in family_ancestors or bases.ancestors(owner) & family_classes:
            missed.append(other.selector)
    if missed:
        raise MutationBlocked(
            f"{row.name!r} is also defined by related class member(s) the index did not link into its"
            f" override family ({', '.join(sorted(missed)[:5])}); renaming one would split the family",
            {"unlinked_members": sorted(missed)},
        )
