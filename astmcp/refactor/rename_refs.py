"""Where a renamed symbol occurs: the reference engine's hits for its whole family, plus
this package's safety nets (same-path declarations, a local's lexical uses, TS destructuring).

Until :mod:`astmcp.query.references` exists, a Python symbol's same-file references come
from :mod:`astmcp.refactor.pyscopes`.
"""

from __future__ import annotations

import ast
import bisect
import os
import re
import sqlite3
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any

from astmcp.errors import AstmcpError, InternalError, MutationBlocked
from astmcp.lang import optional_module
from astmcp.model import PYTHON
from astmcp.query.common import SymbolRow, ancestry, query_symbols
from astmcp.query.parameters import parse_python
from astmcp.query.pytrees import parsed_tree
from astmcp.refactor.family_guard import (
    check_family,
    forwarded_members,
    forwarding_members,
    outside_reads,
    unknown_based,
    unresolved_bases,
)
from astmcp.refactor.identifiers import language_of
from astmcp.refactor.prepare import load_file
from astmcp.refactor.pyscopes import FileScopes, resolve
from astmcp.refactor.ts_namespaces import namespace_partners
from astmcp.refactor.ts_structural import static_partners
from astmcp.refactor.ts_structural import structural_partners as ts_structural_partners
from astmcp.resolve.python import EITHER_MEMBER, either_keys
from astmcp.resolve.python_modules import module_names
from astmcp.workspace import Workspace

RANK = {"certain": 0, "likely": 1, "name": 2}
_FUNCTION_KINDS = {"function", "method", "property", "constructor", "getter", "setter"}
_MEMBER_KINDS = frozenset({"method", "property", "attribute", "getter", "setter"})
_MODULE_VALUES = frozenset({"function", "variable", "class", "enum"})


@dataclass(frozen=True, slots=True)
class Hit:
    """One reference: 1-based line, 1-based code-point columns, end exclusive."""

    file: str
    line: int
    column: int
    end_column: int
    kind: str
    confidence: str  # certain | likely | name
    is_declaration: bool = False
    note: str = ""  # why an uncertain hit is one, where its line does not say

    @classmethod
    def of(cls, ref: Any) -> Hit:
        return cls(
            ref.file, ref.line, ref.column, ref.end_column, ref.kind, ref.confidence, bool(ref.is_declaration)
        )

    @classmethod
    def at_name(cls, symbol: SymbolRow, kind: str, note: str) -> Hit:
        """An uncertain hit (confidence ``name``) at ``symbol``'s name, which ``note`` explains."""
        return cls(
            symbol.file, symbol.name_line, symbol.name_col, symbol.name_end_col, kind, "name", note=note
        )

    def wire(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "end_column": self.end_column,
            "kind": self.kind,
            "confidence": self.confidence,
        }
        if self.note:
            out["note"] = self.note
        return out


def structural_partners(
    conn: sqlite3.Connection, row: SymbolRow, family: list[SymbolRow], memo: Any, engine: Any
) -> list[SymbolRow]:
    """Same-named members of the project's Protocol classes outside ``family`` (a class member's
    rename): a class implements a Protocol by having its members, so a call through a value typed
    as the Protocol (``self.serializer.loads``) may reach this member without naming its class.
    A Protocol no class of the family (nor a project class below one) can implement, lacking
    another of its members, is left out (``data: Data`` with ``keys`` and ``__getitem__`` is no
    exception class whose ``keys`` attribute lists names)."""
    if not row.parent_path:
        return []
    known = {m.id for m in family}
    protocols = conn.execute(
        "SELECT s.id, s.symbol_path, f.path FROM edges e JOIN symbols s ON s.id = e.src_symbol_id"
        f" JOIN files f ON f.id = s.file_id WHERE e.kind = 'inherits' AND e.dst_key IN"
        f" ({','.join('?' * len(engine.STRUCTURAL_BASES))})",
        tuple(sorted(engine.STRUCTURAL_BASES)),
    ).fetchall()
    out: list[SymbolRow] = []
    classes: list[int] | None = None
    for protocol_id, class_path, path in protocols:
        for member in query_symbols(
            conn, "f.path = ? AND s.symbol_path = ?", (path, f"{class_path}.{row.name}")
        ):
            if member.id in known:
                continue
            if classes is None:
                classes = _family_classes(conn, memo, family)
            if _may_implement(conn, memo, engine, classes, protocol_id, row.name):
                out.append(member)
    return out


def _family_classes(conn: sqlite3.Connection, memo: Any, family: list[SymbolRow]) -> list[int]:
    """The classes declaring a member of ``family`` and every project class below them."""
    down = [
        cls.id
        for m in family
        if m.parent_path
        for cls in query_symbols(
            conn, "f.path = ? AND s.symbol_path = ? AND s.kind = 'class'", (m.file, m.parent_path)
        )
    ]
    seen: list[int] = []
    while down:
        cls_id = down.pop()
        if cls_id not in seen:
            seen.append(cls_id)
            down.extend(memo.subclasses(cls_id))
    return seen


def _may_implement(
    conn: sqlite3.Connection, memo: Any, engine: Any, classes: list[int], protocol_id: int, name: str
) -> bool:
    """Whether an instance of one of ``classes`` may have every member the Protocol declares
    besides ``name``: its own or a project ancestor's, one an outside base has (or may have: a
    base astmcp cannot read, one it could not resolve), or any through ``__getattr__``."""
    protocol = query_symbols(conn, "s.id = ?", (protocol_id,))
    if not protocol or not classes:
        return True
    required = {
        m.name
        for m in query_symbols(
            conn, "f.path = ? AND s.parent_path = ?", (protocol[0].file, protocol[0].symbol_path)
        )
    } - {name}
    for cls_id in classes:
        if any(memo.defines_above(cls_id, hook) for hook in ("__getattr__", "__getattribute__")):
            return True
        if _made_members(conn, cls_id):
            return True
        outside = [key for _, key in memo.outside_bases([cls_id]) if key not in engine.STRUCTURAL_BASES]
        if all(
            memo.defines_above(cls_id, member)
            or any(engine.external_defines(memo, key, member) is not False for key in outside)
            for member in required
        ):
            return True
        if unknown_based(conn, [cls_id]):
            return True
    return False


def _made_members(conn: sqlite3.Connection, cls_id: int) -> bool:
    """Whether the class or a project class above it has a decorator or a metaclass, which may
    give it members its body does not declare (``@total_ordering`` its ``__lt__``)."""
    above, _ = ancestry(conn, [cls_id])
    return any(
        sym.signature.lstrip().startswith("@") or "metaclass" in sym.signature
        for sym in query_symbols(conn, f"s.id IN ({','.join('?' * len(above))})", tuple(sorted(above)))
    )


_RUNTIME_CHECK = re.compile(r"\b(?:isinstance|issubclass)\s*\(")


def _runtime_checks(ws: Workspace, conn: sqlite3.Connection, member: SymbolRow) -> list[Hit]:
    """``isinstance(x, HasDev)`` of a ``@runtime_checkable`` Protocol declaring ``member``: the
    check looks for a member of that name on any object, so renaming a class's same-named member
    changes its answer. A name hit of kind ``data`` (never edited) at each such check."""
    if not member.parent_path:
        return []
    owners = query_symbols(
        conn, "f.path = ? AND s.symbol_path = ? AND s.kind = 'class'", (member.file, member.parent_path)
    )
    if not owners:
        return []
    try:
        lines = load_file(ws, member.file).source.text.split("\n")
    except (OSError, AstmcpError):
        return []
    owner = owners[0]
    above = lines[max(0, owner.line - 6) : owner.line]  # its decorators
    if not any("runtime_checkable" in line for line in above):
        return []
    hits: list[Hit] = []
    texts: dict[str, list[str]] = {}
    for path, line, col, end in conn.execute(
        "SELECT f.path, r.line, r.col, r.end_col FROM refs r JOIN files f ON f.id = r.file_id"
        " WHERE r.symbol_id = ? AND r.kind NOT IN ('definition', 'import', 'export')",
        (owner.id,),
    ):
        if path not in texts:
            try:
                texts[path] = load_file(ws, path).source.text.split("\n")
            except (OSError, AstmcpError):
                texts[path] = []
        text = texts[path][line - 1] if 0 < line <= len(texts[path]) else ""
        if _RUNTIME_CHECK.search(text[: col - 1]):
            note = (
                f"isinstance against the runtime-checkable {owner.name} looks for a member named"
                f" {member.name!r} on any object"
            )
            hits.append(Hit(path, line, col, end, "data", "name", note=note))
    return hits


def family_and_references(
    ws: Workspace, conn: sqlite3.Connection, row: SymbolRow
) -> tuple[list[SymbolRow], list[Hit]]:
    engine = optional_module("astmcp.query.references")
    if engine is None:
        if language_of(row.file) != PYTHON:
            raise InternalError("TypeScript/JavaScript references are not available in this build")
        return [row, *_same_path(conn, [row])], local_references(ws, row)
    memo = engine.FamilyMemo(conn)  # each member's references walk the same classes
    members, external = engine.override_family(conn, row, memo)
    # a family member outside code calls on a project object it holds
    held = outside_reads(ws, conn, row, members) if language_of(row.file) == PYTHON else []
    unread = [h.removesuffix("?") for h in held if h.endswith("?")]  # given to packages not installed
    held = [h for h in held if not h.endswith("?")]
    if unread and not external and not held:
        raise MutationBlocked(
            f"a project object with {row.name!r} is given to code outside the project that astmcp cannot"
            f" read ({', '.join(sorted(unread))}): it may keep the object and call {row.name!r} on it by"
            " name. Install the project's dependencies where astmcp reads them (a .venv, venv or env"
            " folder in the project, or $VIRTUAL_ENV), then prepare again: astmcp then reads which"
            " members that code calls",
            {"unread_callers": sorted(unread)},
        )
    external = [*external, *held, *unread]
    if external:
        names = sorted(str(n) for n in external)
        raise MutationBlocked(
            f"{row.name!r} belongs to an override family with members outside the project ({', '.join(names)});"
            " renaming it would break the override"
            + (
                "; `*`: code outside calls members by a name it makes at run time"
                if any("*" in n for n in names)
                else ""
            )
            + (
                f"; outside code holds a project object there and calls {row.name!r} on it"
                f" ({', '.join(held)})"
                if held
                else ""
            )
            + (
                "; a Protocol is implemented by whatever has its members, without naming it"
                " (`json` implements a `dumps` protocol), so objects from outside the project may stand"
                " in for it: add the new member beside the old one, move the implementations and"
                " callers over, then remove the old member"
                if any(n.rpartition(".")[0] in engine.STRUCTURAL_BASES for n in names)
                else ""
            ),
            {"external_members": names},
        )
    family: list[SymbolRow] = [row, *(m for m in members if m.id != row.id)]
    family += _same_path(conn, family)
    best: dict[tuple[str, int, int], Hit] = {}
    collected: set[int] = set()
    for _ in range(_MAX_UNION_JOINS):
        for member in family:
            if member.id in collected:
                continue
            collected.add(member.id)
            for ref in engine.collect_references(
                ws, conn, member, include_name_hits=True, memo=memo, family=family
            ):
                hit = Hit.of(ref)
                key = (hit.file, hit.line, hit.column)
                if key not in best or RANK[hit.confidence] < RANK[best[key].confidence]:
                    best[key] = hit
        # a member's references reach its own override relatives (an interface extending two
        # hierarchies joins them): whatever declaration is edited belongs to the family
        known = {m.id for m in family}
        family += [
            s
            for s in query_symbols(conn, "s.name = ?", (row.name,))
            if s.id not in known and (s.file, s.name_line, s.name_col) in best
        ]
        if language_of(row.file) == PYTHON:
            # `from ._make import Factory` in `attr/__init__.py`, described by `attr/__init__.pyi`'s
            # own `def Factory`: the stub's declaration is the re-exported name's, renamed with it
            stubs = [s for s in reexport_stubs(ws, conn, row, best.values()) if s.id not in known]
            family += stubs
            family += _same_path(conn, stubs)
            # `child.canonical()` with `child: Leaf | Node`: Node's member is renamed with Leaf's
            joined = either_partners(conn, row, family)
            if not joined:
                if stubs:
                    continue
                break
        else:
            # `x.old` with `x: A | B` reads both: B's member (and its family) is renamed with A's
            joined = union_partners(conn, row, family, best)
            if not joined:
                break
        for partner in joined:
            relatives, outside = engine.override_family(conn, partner, memo)
            if outside:
                raise MutationBlocked(
                    f"{row.name!r} is read through a union with {partner.selector}, whose override family"
                    f" has members outside the project ({', '.join(sorted(outside))}): the two cannot be"
                    " renamed together; narrow those reads to one type first, then prepare again",
                    {"union_members": [partner.selector], "external_members": sorted(outside)},
                )
            known = {m.id for m in family}
            added = [m for m in (partner, *relatives) if m.id not in known]
            family += added
            family += _same_path(conn, added)
    else:
        check_union_partners(conn, row, family, best)  # still growing: refuse, naming them
    maybe = check_family(conn, row, family)
    if language_of(row.file) == PYTHON:
        # `def create_timezone(self, tz): return self.__provider.create_timezone(tz)`: a proxy's
        # member under the same name, and its uses, may stand for the family's
        uses = [(h.file, h.line) for h in best.values() if not h.is_declaration]
        maybe += [m for m in forwarding_members(ws, conn, row, family, uses) if m not in maybe]
        # and the other way round: `TZP.create_timezone` itself, with the providers' family
        for target in forwarded_members(ws, conn, family):
            relatives, _ = engine.override_family(conn, target, memo)
            maybe += [m for m in (target, *relatives) if m not in maybe and m not in family]
    if language_of(row.file) != PYTHON:
        # a type used as another (`use(new B())` with `use(a: Runner)`) keeps its members' names
        # (never one no import chain joins to the family: no value is used as the other's type)
        files = {m.file for m in family}
        maybe += [
            m
            for m in (*ts_structural_partners(conn, row, family, ws), *static_partners(ws, conn, row, family))
            if m not in maybe and not memo.parts.apart(m.file, files)
        ]
        # (a module's namespace object used as the type: `const r: Resolver = impl`)
        maybe += [m for m in namespace_partners(conn, row, family) if m not in maybe]
    for member in maybe:
        # `class Other(serializer.signer)`: Other.old may override it or not (TS: a type usable as
        # the member's type or the other way round); it and its uses are uncertain (kind
        # `override` when declared), renamed only with `uncertain: include`
        for ref in engine.collect_references(ws, conn, member, include_name_hits=False, memo=memo):
            hit = Hit.of(ref)
            kind = "override" if hit.is_declaration else hit.kind
            best.setdefault((hit.file, hit.line, hit.column), replace(hit, kind=kind, confidence="name"))
    if language_of(row.file) == PYTHON:
        for member in structural_partners(conn, row, family, memo, engine):
            # a Protocol's member called where this class's instances may be passed as one
            for ref in engine.collect_references(ws, conn, member, include_name_hits=False, memo=memo):
                hit = Hit.of(ref)
                if not hit.is_declaration:
                    best.setdefault((hit.file, hit.line, hit.column), replace(hit, confidence="name"))
            for hit in _runtime_checks(ws, conn, member):
                best.setdefault((hit.file, hit.line, hit.column), hit)
    for cls, base in engine.unread_bases(conn, family, memo):
        # an outside base astmcp cannot read may define the member: the class is an uncertain hit
        # (kind `base`, never edited) naming it, so the plan is blocked for review
        note = f"{cls.name} derives from {base}, which astmcp could not read; it may define {row.name!r}"
        hit = Hit.at_name(cls, "base", note)
        best.setdefault((cls.file, cls.name_line, cls.name_col), hit)
    if language_of(row.file) == PYTHON and row.parent_path:
        for cls, base in unresolved_bases(conn, family):
            # a base nothing resolves (a module loaded at run time, a parameter) may define it
            note = (
                f"{cls.name} derives from {base}, which astmcp could not resolve; it may define {row.name!r}"
            )
            hit = Hit.at_name(cls, "base", note)
            best.setdefault((cls.file, cls.name_line, cls.name_col), hit)
    if language_of(row.file) != PYTHON:
        check_union_partners(conn, row, family, best)  # a library's alternative (`Date.now`) stays
    if language_of(row.file) != PYTHON and not is_local(ws, conn, row):
        for hit in destructuring_hits(conn, ws, row, set(best)):
            best[(hit.file, hit.line, hit.column)] = hit
        from astmcp.refactor.ts_literals import literal_key_hits  # (it builds on Hit)

        for hit in literal_key_hits(ws, conn, row, set(best)):
            best.setdefault((hit.file, hit.line, hit.column), hit)
    if is_local(ws, conn, row):  # a local binding: its own file's scopes see every use
        for hit in lexical_references(ws, row):
            key = (hit.file, hit.line, hit.column)
            if key not in best or RANK[hit.confidence] < RANK[best[key].confidence]:
                best[key] = hit
    for hit in parameter_property_uses(ws, family):
        best.setdefault((hit.file, hit.line, hit.column), hit)
    return family, sorted(best.values(), key=lambda h: (RANK[h.confidence], h.file, h.line, h.column))


# rounds of joining union partners to a rename's family before it is refused as too wide
_MAX_UNION_JOINS = 6


def _joinable(row: SymbolRow) -> bool:
    """A member, or a module-level value of a TS/JS module (a member of its namespace object)."""
    return row.kind in _MEMBER_KINDS or (
        language_of(row.file) != PYTHON and row.parent_path is None and row.kind in _MODULE_VALUES
    )


def _same_read(one: str, other: str) -> bool:
    """Whether two references at one place are one read of a union (``x.old`` of ``x: A | B``:
    both member reads), not a shorthand property's key and the variable it reads (``{ close }``),
    nor a destructured variable's declaration and the member it reads (``const { close } = A``)."""
    if "definition" in (one, other):
        return False
    return (one == "read") == (other == "read")


def union_partners(
    conn: sqlite3.Connection, row: SymbolRow, family: list[SymbolRow], best: dict[tuple[str, int, int], Hit]
) -> list[SymbolRow]:
    """Members outside ``family`` read at the same certain sites as it: ``x.old`` with
    ``x: A | B`` is a reference of ``A.old`` and ``B.old`` alike; so is ``p.setup()`` with ``p``
    one of the namespace objects in ``[A, B]`` of the modules each exporting a ``setup``."""
    if not _joinable(row):
        return []
    ids = {m.id for m in family}
    partners: set[int] = set()
    for path, line, col, symbol_id, kind in conn.execute(
        "SELECT f.path, r.line, r.col, r.symbol_id, r.kind FROM refs r JOIN files f ON f.id = r.file_id"
        " WHERE r.name = ? AND r.confidence = 'certain' AND r.kind NOT IN ('definition', 'import', 'export')",
        (row.name,),
    ):
        hit = best.get((path, line, col))
        # (the same read: `{ close }` is a key of one and a read of another, no union)
        if (
            symbol_id is not None
            and symbol_id not in ids
            and hit is not None
            and hit.confidence == "certain"
            and _same_read(hit.kind, kind)
        ):
            partners.add(symbol_id)
    if not partners:
        return []
    return query_symbols(conn, f"s.id IN ({','.join('?' * len(partners))})", tuple(sorted(partners)))


def either_partners(conn: sqlite3.Connection, row: SymbolRow, family: list[SymbolRow]) -> list[SymbolRow]:
    """Python: the members outside ``family`` read at the same places as one of it, where a value
    is one of several project types whose members are of unrelated override families (``child:
    Leaf | Node``, then ``child.canonical()``; stored as ``E:`` and the members' keys, each
    alternative known): renaming one alone would leave the read failing for the others."""
    if row.kind not in _MEMBER_KINDS:
        return []
    keys = {f"{m.file}::{m.symbol_path}" for m in family}
    wanted: set[str] = set()
    for (target,) in conn.execute(
        "SELECT r.target_key FROM refs r WHERE r.name = ? AND r.confidence = 'name' AND r.target_key LIKE ?",
        (row.name, f"{EITHER_MEMBER}%"),
    ):
        listed = either_keys(target)
        if listed & keys:
            wanted |= listed - keys
    found: list[SymbolRow] = []
    for key in sorted(wanted):
        path, _, symbol_path = key.partition("::")
        found += query_symbols(conn, "f.path = ? AND s.symbol_path = ?", (path, symbol_path))[:1]
    return found


def check_union_partners(
    conn: sqlite3.Connection, row: SymbolRow, family: list[SymbolRow], best: dict[tuple[str, int, int], Hit]
) -> None:
    """MUTATION_BLOCKED when a use of the member is also a use of another type's member: ``x.old``
    with ``x: A | B`` reads both ``A.old`` and ``B.old``, and renaming one leaves the other unreadable
    there (TypeScript: "property does not exist on type B"); so does a union with a type outside the
    project (``(delegate || Date).now()``), whose member cannot be renamed with it."""
    if not _joinable(row):
        return
    ids = {m.id for m in family}
    partners: dict[int, list[str]] = {}
    for path, line, col, symbol_id, kind in conn.execute(
        "SELECT f.path, r.line, r.col, r.symbol_id, r.kind FROM refs r JOIN files f ON f.id = r.file_id"
        " WHERE r.name = ? AND r.confidence = 'certain' AND r.kind NOT IN ('definition', 'import', 'export')",
        (row.name,),
    ):
        hit = best.get((path, line, col))
        if (
            symbol_id not in ids
            and hit is not None
            and hit.confidence == "certain"
            and _same_read(hit.kind, kind)
        ):
            partners.setdefault(symbol_id, []).append(f"{path}:{line}")
    outside = sorted(
        f"{path}:{line}"
        for path, line, col in conn.execute(
            "SELECT f.path, r.line, r.col FROM refs r JOIN files f ON f.id = r.file_id"
            " WHERE r.name = ? AND r.confidence = 'none' AND r.symbol_id IS NULL AND EXISTS (SELECT 1"
            " FROM refs c WHERE c.file_id = r.file_id AND c.line = r.line AND c.col = r.col"
            " AND c.name = r.name AND c.target_key = r.target_key AND c.confidence = 'certain')",
            (row.name,),
        )
        if (hit := best.get((path, line, col))) is not None and hit.confidence == "certain"
    )
    if outside:
        raise MutationBlocked(
            f"{row.name!r} is read through a union or intersection with a type outside the project or an"
            f" object type written out (e.g. {outside[0]}, as `(provider || Date).now()` or `Gate & {{"
            f" {row.name}: T }}`): renaming the project's member would leave that read unreadable; narrow"
            " those reads to the project's type first, then prepare again",
            {"sites": outside[:20]},
        )
    if not partners:
        return
    names = sorted(
        s.selector for s in query_symbols(conn, f"s.id IN ({','.join('?' * len(partners))})", tuple(partners))
    )
    sites = sorted({site for found in partners.values() for site in found})
    raise MutationBlocked(
        f"{row.name!r} is read through a union with {', '.join(names[:5])} (e.g. {sites[0]}): renaming"
        " one member would leave the others unreadable there; narrow those reads to one type first"
        " (`if (x.kind === ...)`, a typed variable), then prepare again",
        {"union_members": names, "sites": sites[:20]},
    )


def destructuring_hits(
    conn: sqlite3.Connection, ws: Workspace, row: SymbolRow, known: set[tuple[str, int, int]]
) -> list[Hit]:
    """Name hits the index may lack: TS/JS destructuring that reads a property of the same name
    (``const { old } = await import("./m")``) in files that mention the name. One the index
    resolved (to this symbol or, typed, to another: ``const { x } = this`` in another class) is
    not one it lacks; the analyzer gives every pattern key a row, so only files it has no facts
    of (it gave up on them: ``{}``, as a file with nothing in it) are read."""
    from astmcp.refactor.tsscopes import TsFile

    known = known | {
        (path, line, col)
        for path, line, col in conn.execute(
            "SELECT f.path, r.line, r.col FROM refs r JOIN files f ON f.id = r.file_id"
            " WHERE r.name = ? AND r.kind = 'attribute' AND r.symbol_id IS NOT NULL"
            " AND r.confidence IN ('certain', 'likely')",
            (row.name,),
        )
    }
    word = re.compile(rf"(?<![\w$]){re.escape(row.name)}(?![\w$])")
    hits: list[Hit] = []
    for (path,) in conn.execute(
        "SELECT path FROM files WHERE language IN ('typescript', 'javascript')"
        " AND path NOT IN (SELECT path FROM module_facts WHERE data != '{}')"
    ):
        try:
            text = load_file(ws, path).source.text
        except (OSError, AstmcpError):
            continue
        if not word.search(text):
            continue
        for line, column, end in TsFile(path, text).destructured(row.name):
            if (path, line, column) not in known:
                hits.append(Hit(path, line, column, end, "attribute", "name"))
    return hits


_PARAMETER_MODIFIER = re.compile(r"\b(?:private|public|protected|readonly|override)\b")


def parameter_property_uses(ws: Workspace, family: list[SymbolRow]) -> list[Hit]:
    """TS/JS: a member declared as a constructor parameter property (``constructor(private
    size = 0)``) is also that parameter; its uses in the constructor are renamed with it, as
    TypeScript does (renaming only the property left ``Math.max(1, size)`` undefined)."""
    from astmcp.refactor.tsscopes import TsFile

    hits: list[Hit] = []
    lines: dict[str, list[str]] = {}
    parsed: dict[str, TsFile] = {}
    for member in family:
        if language_of(member.file) == PYTHON or member.kind not in ("property", "attribute"):
            continue
        if member.file not in lines:
            lines[member.file] = load_file(ws, member.file).source.text.splitlines()
        text = lines[member.file]
        before = text[member.name_line - 1][: member.name_col - 1] if member.name_line <= len(text) else ""
        if not _PARAMETER_MODIFIER.search(before):
            continue  # a parameter property is declared with `private`/`public`/`protected`/`readonly`
        if member.file not in parsed:
            parsed[member.file] = TsFile(member.file, load_file(ws, member.file).source.text)
        ts = parsed[member.file]
        if not ts.parameter_property(member.name_line, member.name_col):
            continue
        for line, column, end in ts.lexical_references(member.name_line, member.name_col, member.name):
            hits.append(Hit(member.file, line, column, end, "read", "certain", False))
    return hits


def lexical_references(ws: Workspace, row: SymbolRow) -> list[Hit]:
    """Same-file uses that lexically mean ``row`` (certain), from this module's own scope models."""
    if language_of(row.file) == PYTHON:
        return [h for h in local_references(ws, row) if h.confidence == "certain"]
    from astmcp.refactor.tsscopes import TsFile

    ts = TsFile(row.file, load_file(ws, row.file).source.text)
    return [
        Hit(row.file, line, column, end, "read", "certain", (line, column) == (row.name_line, row.name_col))
        for line, column, end in ts.lexical_references(row.name_line, row.name_col, row.name)
    ]


def unsure_likely(hits: list[Hit], note: str) -> list[Hit]:
    """``hits`` with the ``likely`` ones (an untyped receiver read as the only project member of
    the name) made uncertain, saying why in ``note``: something no symbol stands for has the name
    too."""
    return [replace(h, confidence="name", note=note) if h.confidence == "likely" else h for h in hits]


def reexport_stubs(
    ws: Workspace, conn: sqlite3.Connection, row: SymbolRow, hits: Iterable[Hit]
) -> list[SymbolRow]:
    """Python: the declarations of ``row``'s name in the stubs ``m.pyi`` of the modules ``m.py``
    that re-export it (a certain or likely hit on a top-level ``from … import name``, unaliased):
    the stub describes the name the module takes from elsewhere, so the two are one name."""
    if row.parent_path is not None:
        return []
    lines: dict[str, set[int]] = {}
    for hit in hits:
        if hit.confidence != "name" and hit.file.endswith(".py") and not hit.is_declaration:
            lines.setdefault(hit.file, set()).add(hit.line)
    found: list[SymbolRow] = []
    for path, hit_lines in sorted(lines.items()):
        stub = path + "i"
        declared = query_symbols(conn, "f.path = ? AND s.symbol_path = ?", (stub, row.name))
        if not declared or not hit_lines & reexport_lines(ws, path, row.name):
            continue
        found += declared
    return found


def reexport_lines(ws: Workspace, path: str, name: str) -> set[int]:
    """The lines of the top-level ``from … import name`` statements of ``path`` (also inside
    ``if``, ``try`` and other blocks) that bind ``name`` under its own name."""
    try:
        tree = parse_python(ws, path)
    except (OSError, SyntaxError, ValueError):
        return set()
    out: set[int] = set()
    for node in top_statements(tree):
        if isinstance(node, ast.ImportFrom) and any(
            a.name == name and a.asname in (None, name) for a in node.names
        ):
            out.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    return out


def top_statements(tree: ast.Module) -> list[ast.stmt]:
    """A module's top-level statements and those of the blocks they hold (``if``, ``try``, ``for``,
    ``while``, ``with``), whose bindings are the module's too; not the bodies of functions or
    classes."""
    out: list[ast.stmt] = []
    pending: list[ast.stmt] = list(tree.body)
    while pending:
        node = pending.pop()
        out.append(node)
        if isinstance(node, (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith)):
            pending += [*node.body, *getattr(node, "orelse", ())]
        elif isinstance(node, (ast.Try, ast.TryStar)):
            pending += [
                *node.body,
                *node.orelse,
                *node.finalbody,
                *(s for h in node.handlers for s in h.body),
            ]
    return out


def _same_path(conn: sqlite3.Connection, family: list[SymbolRow]) -> list[SymbolRow]:
    """Other declarations of the same path in the same file (overloads, property setters,
    get/set accessors, redefinitions): one name, renamed together."""
    seen = {m.id for m in family}
    extra: list[SymbolRow] = []
    for member in list(family):
        for other in query_symbols(
            conn, "f.path = ? AND s.symbol_path = ?", (member.file, member.symbol_path)
        ):
            if other.id not in seen:
                seen.add(other.id)
                extra.append(other)
    return extra


def local_references(ws: Workspace, row: SymbolRow) -> list[Hit]:
    """Same-file references of a Python symbol by scope (fallback without the reference engine)."""
    scopes = FileScopes(load_file(ws, row.file).source.text)
    declared = scopes.occurrences.get((row.name_line, row.name_col))
    if declared is None:
        raise InternalError(f"cannot find the declaration of {row.name!r} in {row.file}")
    binding = resolve(declared.scope, row.name) or declared.scope
    hits: list[Hit] = []
    for occ in scopes.occurrences.values():
        if occ.name != row.name:
            continue
        end = occ.column + len(occ.name)
        if occ.role in ("bind", "use") and resolve(occ.scope, occ.name) is binding:
            is_decl = (occ.line, occ.column) == (row.name_line, row.name_col)
            kind = "definition" if is_decl else ("write" if occ.role == "bind" else "read")
            hits.append(Hit(row.file, occ.line, occ.column, end, kind, "certain", is_decl))
        elif occ.role in ("attr", "kwarg"):
            hits.append(Hit(row.file, occ.line, occ.column, end, "attribute", "name"))
    hits += _string_hits(row.file, scopes, row.name, binding.kind == "module")
    return sorted(hits, key=lambda h: (RANK[h.confidence], h.line, h.column))


def _string_hits(path: str, scopes: FileScopes, name: str, module_level: bool) -> list[Hit]:
    """``__all__`` entries (certain) and other exact string occurrences (name hits of kind string).
    ``__all__`` lists module-level names: for a name bound elsewhere (a nested function,
    ``def factory(): def make(): …``) its entries are another binding's (``make = factory()``),
    no hits."""
    in_all: set[int] = set()
    tree = scopes.tree
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign | ast.AugAssign | ast.AnnAssign):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
                in_all.update(id(n) for n in ast.walk(stmt))
    hits: list[Hit] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and node.value == name and node.end_col_offset is not None:
            if id(node) in in_all and not module_level:
                continue
            confidence = "certain" if id(node) in in_all else "name"
            start = scopes.column_of(node.lineno, node.col_offset)  # the opening quote
            end = scopes.column_of(node.end_lineno or node.lineno, node.end_col_offset)
            hits.append(Hit(path, node.lineno, start, end, "string", confidence))
    return hits


def prose_hits(ws: Workspace, hits: list[Hit]) -> tuple[list[Hit], dict[str, list[int]]]:
    """Python string name hits in a string statement (an attribute docstring such as
    ``X = 1`` + ``\"\"\"See :data:`X`.\"\"\"``; the engine already skips real docstrings) are
    prose, like comments: nothing uses the value, so they never block and are never edited; the
    preview note lists their lines per file. One holding a doctest (``>>>``) keeps its hits."""
    candidates = {
        h.file for h in hits if h.kind == "string" and h.confidence == "name" and h.file.endswith(".py")
    }
    spans: dict[str, list[tuple[int, int]]] = {}
    for path in candidates:
        try:
            tree = parsed_tree(load_file(ws, path).source.text)
        except (OSError, SyntaxError, ValueError, AstmcpError):
            continue
        spans[path] = [
            (node.lineno, node.end_lineno or node.lineno)
            for node in ast.walk(tree)
            if isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
            and ">>>" not in node.value.value
        ]
    kept: list[Hit] = []
    prose: dict[str, list[int]] = {}
    for hit in hits:
        inside = hit.kind == "string" and hit.confidence == "name"
        if inside and any(lo <= hit.line <= hi for lo, hi in spans.get(hit.file, ())):
            prose.setdefault(hit.file, []).append(hit.line)
        else:
            kept.append(hit)
    return kept, prose


def is_local(ws: Workspace, conn: sqlite3.Connection, row: SymbolRow) -> bool:
    """A def/class nested in a function is a local binding: no attribute or string names it.
    So is a top-level declaration an ES module does not export: no other file can name it, and
    a module's own scope is no object a string or receiver could reach."""
    if not row.parent_path:
        if language_of(row.file) == PYTHON or row.exported:
            return False
        from astmcp.refactor.tsscopes import TsFile

        if row.file.endswith((".d.ts", ".d.mts", ".d.cts")):
            return False  # a declaration file exports what it declares
        ts = TsFile(row.file, load_file(ws, row.file).source.text)
        return ts.is_module() and row.name not in ts.exported_names()
    if row.kind in _MEMBER_KINDS:
        return False  # `Foo.prototype.bar = function…` of a constructor function: an instance's member
    parents = query_symbols(conn, "f.path = ? AND s.symbol_path = ?", (row.file, row.parent_path))
    return bool(parents) and all(p.kind in _FUNCTION_KINDS for p in parents)


def local_lookups(conn: sqlite3.Connection, row: SymbolRow) -> list[Hit]:
    """Python: the places a function looks a name of its own up by a key made at run time
    (``locals()[f"_{name}"]``) that may be the local ``row``: name hits, though no attribute or
    string names a local otherwise (textx installs its nested ``_setattr`` so)."""
    if not row.parent_path or language_of(row.file) != PYTHON:
        return []
    return [
        Hit(row.file, line, col, end, "read", "name", note=f"{row.parent_path}'s locals() read by a made key")
        for line, col, end in conn.execute(
            "SELECT r.line, r.col, r.end_col FROM refs r JOIN files f ON f.id = r.file_id WHERE f.path = ?"
            " AND r.name = ? AND r.scope_path = ? AND r.kind = 'read' AND r.confidence = 'name'"
            " AND r.symbol_id IS NULL AND r.target_key IS NULL ORDER BY r.line, r.col",
            (row.file, row.name, row.parent_path),
        )
    ]


# Project configuration files that name Python objects by dotted path (pytest's `filterwarnings`
# and `addopts`, entry points `pkg.mod:main`, mypy plugins, tox commands), read at the root
CONFIG_FILES = ("pyproject.toml", "setup.cfg", "tox.ini", "pytest.ini", "mypy.ini", ".flake8")


# (and the commands of scripts, CI workflows and plain lists: `python -c "from pkg.m import f"`,
# `pkg.handlers:EmailHandler` in a `plugins.txt`)
_CONFIG_SUFFIXES = (
    ".toml",
    ".cfg",
    ".ini",
    ".conf",
    ".yaml",
    ".yml",
    ".json",
    ".env",
    ".sh",
    ".bash",
    ".txt",
)
_CONFIG_NAMES = ("Procfile", "Dockerfile", ".env", "Makefile", "justfile")  # (`.env.production` too)
_CONFIG_FOLDERS = frozenset({".github", ".circleci", ".gitlab"})  # hidden folders holding CI commands
_MAX_CONFIG_BYTES = 256 * 1024
_CONFIG_DEPTH = 3  # folders below the project's top that are searched
_SKIPPED_FOLDERS = frozenset(
    {"node_modules", "__pycache__", "site-packages", "dist", "build", "_build", "htmlcov", "venv"}
)


def config_files(ws: Workspace) -> list[str]:
    """The project's configuration files: the known ones, and files with a configuration suffix
    or name (``logging.ini``, ``conf/plugins.toml``, ``settings.json``, ``Procfile``, ``.env``) at
    its top or up to three folders down (not in hidden or package folders, but in CI ones)."""
    found = [c for c in CONFIG_FILES if (ws.root / c).is_file()]
    for path in project_files(
        ws,
        lambda _, name: name.endswith(_CONFIG_SUFFIXES) or name.startswith(_CONFIG_NAMES),
        depth=_CONFIG_DEPTH,
        hidden=_CONFIG_FOLDERS,
    ):
        if path not in found:
            found.append(path)
    return found


def config_hits(ws: Workspace, family: list[SymbolRow], conn: sqlite3.Connection | None = None) -> list[Hit]:
    """Python: each dotted path to a family member in the project's configuration files
    (``marshmallow.warnings.ChangedInMarshmallow4Warning`` in pyproject's ``filterwarnings``;
    ``pkg.cli:main`` in entry points): name hits of kind ``string`` on the member's name, which the
    configuration reads at run time (pytest refused to start when a rename left one behind)."""
    paths: dict[str, set[str]] = {}
    for member in family:
        if not member.file.endswith((".py", ".pyi")) or "<" in member.symbol_path:
            continue
        # with at least one package above it, unless it is a top-level module
        modules = [m for m in module_names(member.file) if "." in m] or module_names(member.file)
        for module in modules:
            paths.setdefault(member.name, set()).update(
                (
                    f"{module}.{member.symbol_path}",
                    f"{module}:{member.symbol_path}",
                    f"from {module} import {member.symbol_path}",
                )
            )
        if conn is not None and member.parent_path is None:
            from astmcp.refactor.star_imports import star_importers

            # modules that take it on (`from .cli import main` or `from .cli import *` in
            # `pkg/__init__.py`: `pkg:main`)
            importers = {
                str(path)
                for (path,) in conn.execute(
                    "SELECT DISTINCT f.path FROM refs r JOIN files f ON f.id = r.file_id WHERE r.symbol_id = ?"
                    " AND r.kind IN ('import', 'export') AND f.language = 'python'",
                    (member.id,),
                )
            } | star_importers(conn, member.file, member.name)
            for importer in sorted(importers):
                for module in module_names(importer):
                    paths.setdefault(member.name, set()).update(
                        (f"{module}.{member.name}", f"{module}:{member.name}")
                    )
    patterns = {
        name: re.compile(
            r"(?<![\w.])(?:" + "|".join(map(re.escape, sorted(dotted, key=len, reverse=True))) + r")(?!\w)"
        )
        for name, dotted in paths.items()
    }
    found: list[Hit] = []
    for config in config_files(ws) if patterns else ():
        try:
            text = load_file(ws, config).source.text
        except (OSError, AstmcpError):
            continue
        for number, line in enumerate(text.split("\n"), 1):
            for name, pattern in patterns.items():
                for match in pattern.finditer(line):
                    end = match.end() + 1
                    found.append(Hit(config, number, end - len(name), end, "string", "name"))
    return found


# Template files an engine renders with objects of the program: Jinja, Django, Mako, Handlebars,
# Angular (`.html` beside a component); single-file components (Vue, Svelte, Astro) hold a
# script astmcp does not index beside their template
_TEMPLATE_SUFFIXES: tuple[str, ...] = (".html", ".htm", ".jinja", ".jinja2", ".j2", ".tmpl", ".tpl")
_TEMPLATE_SUFFIXES += (".mako", ".njk", ".hbs", ".handlebars", ".mustache", ".liquid", ".djhtml")
_COMPONENT_SUFFIXES = (".vue", ".svelte", ".astro")
# the code in a template: `{{ user.name }}`, `{% for x in obj.items %}`, `${obj.name}`, and
# Angular and Vue bindings (`[value]="user.name"`, `(click)="save()"`, `*ngIf="…"`, `v-if="…"`,
# `:title="…"`, `@click="…"`)
_TEMPLATE_CODE = re.compile(
    r"\{\{(.*?)\}\}|\{%(.*?)%\}|\$\{(.*?)\}"
    r'|(?:\[[\w.-]+\]|\([\w.-]+\)|\*\w+|v-[\w:.-]+|[:@][\w.:-]+)\s*=\s*"([^"]*)"'
    # a `str.format` field: `{user.nick}`, `{0.name!r}`, `{user.name:>10}`
    r"|(?<!\{)\{([\w.\[\]]+)(?:![rsa])?(?::[^{}]*)?\}",
    re.S,
)
# a folder whose files are templates, whatever their suffix (`templates/hello.txt`)
_TEMPLATE_FOLDERS = frozenset({"templates", "template"})
_SOURCE_SUFFIXES = (".py", ".pyi", ".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")


def template_hits(ws: Workspace, family: list[SymbolRow]) -> list[Hit]:
    """Members named in the project's templates, which an engine reads by name at run time
    (``{{ user.display_name() }}``): name hits of kind ``string`` — a member after a dot in a
    template's code; a TS member named anywhere in it too (an Angular or Vue template reads its
    component's members bare); a Python function used as a filter (``{{ v | format_money }}``,
    registered under its ``__name__``); and any word of a single-file component (``.vue``),
    whose script is not indexed."""
    filters = {m.name for m in family if m.kind == "function" and language_of(m.file) == PYTHON}
    members = {m.name for m in family if m.kind in _MEMBER_KINDS} | filters
    bare = {m.name for m in family if m.kind in _MEMBER_KINDS and language_of(m.file) != PYTHON}
    scripts = {m.name for m in family if language_of(m.file) != PYTHON}
    if not members and not scripts:
        return []
    found: list[Hit] = []
    for path in project_files(ws, _template_file):
        component = path.endswith(_COMPONENT_SUFFIXES)
        names = (members | scripts) if component else members
        if not names:
            continue
        try:
            text = load_file(ws, path).source.text
        except (OSError, AstmcpError):
            continue
        word = re.compile(r"(?<![\w$])(" + "|".join(map(re.escape, sorted(names))) + r")(?![\w$])")
        starts = [0, *(m.end() for m in re.finditer("\n", text))]
        spans = (
            [(0, len(text))]
            if component
            else [
                (m.start(g), m.end(g))
                for m in _TEMPLATE_CODE.finditer(text)
                for g in range(1, _TEMPLATE_CODE.groups + 1)
                if m.group(g)
            ]
        )
        for lo, hi in spans:
            for match in word.finditer(text, lo, hi):
                dotted = text[match.start() - 1 : match.start()] == "."
                filtered = match.group(1) in filters and text[lo : match.start()].rstrip().endswith("|")
                if not (
                    component
                    or (dotted and match.group(1) not in filters)
                    or filtered
                    or match.group(1) in bare
                ):
                    continue
                line = bisect.bisect_right(starts, match.start())
                col = match.start() - starts[line - 1] + 1
                found.append(Hit(path, line, col, col + len(match.group(1)), "string", "name"))
    return found


def project_files(
    ws: Workspace,
    wanted: Callable[[str, str], bool],
    depth: int | None = None,
    hidden: frozenset[str] = frozenset(),
) -> list[str]:
    """The project's files ``wanted(folder, name)`` accepts, up to the size a configuration file
    may have, at its top or up to ``depth`` folders down (any depth: None), not in hidden folders
    (but ``hidden``) nor package, build or virtualenv ones."""
    found: list[str] = []
    for folder, dirs, names in os.walk(ws.root):
        rel = os.path.relpath(folder, ws.root)
        below = 0 if rel == "." else rel.count(os.sep) + 1
        dirs[:] = (
            []
            if depth is not None and below >= depth
            else sorted(
                d for d in dirs if (not d.startswith(".") or d in hidden) and d not in _SKIPPED_FOLDERS
            )
        )
        for name in sorted(names):
            if not wanted(rel, name):
                continue
            path = name if rel == "." else f"{rel.replace(os.sep, '/')}/{name}"
            full = ws.root / path
            if full.is_file() and full.stat().st_size <= _MAX_CONFIG_BYTES:
                found.append(path)
    return found


def _template_file(folder: str, name: str) -> bool:
    """A template by its suffix, or any file but source in a ``templates`` folder (``templates/hello.txt``)."""
    if name.endswith(_TEMPLATE_SUFFIXES + _COMPONENT_SUFFIXES):
        return True
    return bool(_TEMPLATE_FOLDERS.intersection(folder.split(os.sep))) and not name.endswith(_SOURCE_SUFFIXES)


def unparsed_hits(ws: Workspace, conn: sqlite3.Connection, family: list[SymbolRow]) -> list[Hit]:
    """Each whole-word occurrence of the name in a project file of its language astmcp could not
    read (Python: a syntax error, or syntax newer than the interpreter astmcp runs on: ``type X =
    …``, ``def f[T]()``; any: a file too deeply nested, or one astmcp's front end failed on): name
    hits of kind ``unparsed``. Nothing in such a file was read, so any of them may be a
    reference; none can be edited (a post-image must parse)."""
    python = {m.name for m in family if m.file.endswith((".py", ".pyi"))}
    scripts = {m.name for m in family if not m.file.endswith((".py", ".pyi"))}
    found: list[Hit] = []
    if python:
        found += _unparsed_in(ws, conn, "language = 'python'", _unparsed_spellings(python))
    if scripts:
        words = "|".join(map(re.escape, sorted(scripts)))
        found += _unparsed_in(
            ws, conn, "language != 'python'", re.compile(rf"(?<![\w$])(?P<whole>{words})(?![\w$])")
        )
    return found


def _unparsed_in(
    ws: Workspace, conn: sqlite3.Connection, language: str, pattern: re.Pattern[str]
) -> list[Hit]:
    found: list[Hit] = []
    for (path,) in conn.execute(
        f"SELECT path FROM files WHERE {language} AND parse_error IS NOT NULL ORDER BY path"
    ):
        try:
            text = load_file(ws, path).source.text
        except (OSError, AstmcpError):
            continue
        for number, line in enumerate(text.split("\n"), 1):
            for match in pattern.finditer(line):
                at = match.lastgroup or 0
                start = match.start(at) + 1
                found.append(Hit(path, number, start, match.end(at) + 1, "unparsed", "name"))
    return found


def _unparsed_spellings(names: set[str]) -> re.Pattern[str]:
    """``names`` as spelled in Python source: the words themselves, and their mangled forms
    (``_Box__val`` holds the class ``Box`` and the private ``__val``)."""

    def one_of(words: Iterable[str]) -> str:
        return "|".join(map(re.escape, sorted(set(words))))

    spellings = [rf"(?<!\w)(?P<whole>{one_of(names)})(?!\w)"]
    owners = [n.lstrip("_") for n in names if n.strip("_")]
    if owners:
        spellings.append(rf"(?<!\w)_+(?P<owner>{one_of(owners)})__\w")
    private = [n for n in names if n.startswith("__") and not n.endswith("__")]
    if private:
        spellings.append(rf"(?<!\w)_[A-Za-z0-9]\w*?(?P<private>{one_of(private)})(?!\w)")
    return re.compile("|".join(spellings))
