"""TS/JS: object types written inline that a renamed member's type may be used as.

``greet(x: { name: string })`` accepts a ``User``: TypeScript compares members, not names. The
inline type is no symbol, so no structural partner (:mod:`ts_structural`) stands for it, and
renaming ``User.name`` alone leaves ``x.name`` reading a member ``User`` no longer has. Each
inline object type (a parameter's, a variable's, a return type, a type argument or constraint,
``infer`` patterns) that has a member of the renamed name and that the member's type, or a project
type deriving from it, satisfies (every member it names is one the type has), or that satisfies
such a type, makes that member an uncertain hit of kind ``override``: the plan is blocked for
review. (``prepareCopy(state: { base_: any; scope_: Scope })`` takes immer's ``MapState``, which
inherits ``scope_`` from ``ImmerBaseState``, which lacks ``base_``.)
"""

from __future__ import annotations

import json
import re
import sqlite3
from typing import Any

import tree_sitter

from astmcp.query.common import SymbolRow, ancestry
from astmcp.refactor.rename_refs import Hit, unsure_likely
from astmcp.refactor.textio import position_of
from astmcp.refactor.ts_literals import LITERAL_WRAPPERS, TsFiles, captures
from astmcp.refactor.ts_structural import (
    closed_owner_types,
    derived_types,
    member_fits,
    member_owner,
    owner_types,
)
from astmcp.refactor.tsscopes import TsFile
from astmcp.resolve.python import UNKNOWN_RECEIVER
from astmcp.resolve.typescript import MISSING_NAMESPACE, Resolver
from astmcp.workspace import Workspace

__all__ = [
    "inline_type_hits",
    "json_key_hits",
    "literal_key_hits",
    "literal_keys",
    "literal_member_reads",
    "not_sole",
    "spread_key_hits",
]

_MEMBER_KINDS = ("method", "property", "getter", "setter")
_SIGNATURES = frozenset({"property_signature", "method_signature"})


def inline_type_hits(
    files: TsFiles, conn: sqlite3.Connection, row: SymbolRow, known: set[tuple[str, int, int]]
) -> list[Hit]:
    types = _member_types(conn, row)
    if not types:
        return []
    out: list[Hit] = []
    for path, ts in files.holding(conn, row.name, typescript_only=True):
        for shape in _object_types(ts):
            names, _required, key = _shape(shape, row.name)
            if key is None:
                continue
            # a value of the member's type given where the shape is expected, or the other way round
            kind = (
                "method" if key.parent is not None and key.parent.type == "method_signature" else "property"
            )
            text = (key.parent.text or b"").decode("utf-8") if key.parent is not None else ""
            # (a shape naming members the type lacks, even optional ones, describes other values)
            fits = any(names <= members or required <= names for members, required in types)
            if fits and member_fits(row, kind, text):
                line, column = key.start_point[0] + 1, ts.column_of(key)
                if (path, line, column) not in known:
                    note = "an object type written out here that the member's type may be used as"
                    out.append(Hit(path, line, column, column + len(row.name), "override", "name", note=note))
    return out


def not_sole(files: TsFiles, conn: sqlite3.Connection, row: SymbolRow, hits: list[Hit]) -> list[Hit]:
    """``hits`` with its ``likely`` ones (a receiver nobody typed, read as the member because no
    other project member has its name) made uncertain when an object type written inline declares
    the name: that type's values have the member too, and no symbol stands for it. (hotkeys'
    `symbols.modifiers`, with `symbols: boolean | { modifiers?: boolean }` narrowed, was renamed
    as `ParsedModifiers.modifiers`.) So does an interface or type alias declared inside a function:
    no symbol stands for it either. (Those are no structural partners of the member: values of
    them are read through name hits, which block, and zod's test-local `type Outer = { data: C }`,
    never given a value of the member's type, would block every `data`.)"""
    if not any(h.confidence == "likely" for h in hits):
        return hits
    for _path, ts in files.holding(conn, row.name):
        if any(_shape(shape, row.name)[2] is not None for shape in _object_types(ts, local=True)):
            note = f"an object type written inline elsewhere also declares {row.name!r}"
            return unsure_likely(hits, note)
    return hits


def foreign_literal_keys(
    files: TsFiles, conn: sqlite3.Connection, family: list[SymbolRow], hits: list[Hit]
) -> list[Hit]:
    """``hits`` without the uncertain ones on a key of an object literal of no known type that can
    be a value of none of the family's types, nor a part of one: it lacks a member each of them
    (and each type deriving from them) requires, and has a key none of them declares
    (``expected.push({ frame, notification })`` into an ``any[]`` holds no
    ``VirtualTimeScheduler``, whose ``frame`` is renamed). A literal spreading something, with a
    computed or quoted key, or a family member of a type with a base outside the project, is not
    judged. Such a literal is an object with the member that no symbol stands for: a ``likely``
    hit (a receiver nobody typed, read as the member because no other project member has its name)
    may be reading it, and is made uncertain (trpc-client's ``request.end`` over ``getRequests()``'s
    ``{ state, message, end, callbacks }`` was renamed as ``Request.end``: seed 404)."""
    if not any(h.confidence == "name" and h.kind in ("attribute", "write") for h in hits):
        return hits
    types: list[tuple[set[str], set[str]]] = []
    for member in family:
        if (
            member.kind not in _MEMBER_KINDS
            or not member.parent_path
            or member.file.endswith((".py", ".pyi"))
        ):
            return hits
        found = closed_owner_types(conn, member)
        if not found:
            return hits
        types.extend(found)
    out: list[Hit] = []
    dropped: Hit | None = None
    for hit in hits:
        # (in TS files only: JS code may hand a partial object to code reading one member)
        if hit.confidence == "name" and hit.kind in ("attribute", "write") and hit.file.endswith(_TYPED):
            keys = _literal_around(files, hit)
            if keys is not None and all(
                not required <= keys and not keys <= members for members, required in types
            ):
                dropped = dropped or hit
                continue
        out.append(hit)
    if dropped is not None:
        note = f"an object literal of no known type ({dropped.file}:{dropped.line}) has the member too"
        return unsure_likely(out, note)
    return out


_TYPED = (".ts", ".tsx", ".mts", ".cts")


def literal_member_reads(files: TsFiles, conn: sqlite3.Connection, hits: list[Hit]) -> list[Hit]:
    """``hits`` without the uncertain reads of a member of an object literal's own type (``const
    o = { name: "x", size: 1 }; o.name``, ``rows[0].name`` of ``const rows = [{ name }]``, what
    a function returning a literal gives; the linker leaves them name hits, fact ``olits``)
    whose key is no hit: the read is of the literal's own key, which is renamed or kept with it
    (a key judged foreign to the family stays as it is)."""
    keys = {(h.file, h.line, h.column) for h in hits}
    resolver: Resolver | None = None
    out: list[Hit] = []
    for hit in hits:
        if hit.confidence != "name" or hit.kind not in ("attribute", "write", "call"):
            out.append(hit)
            continue
        row = conn.execute(
            "SELECT r.target_key FROM refs r JOIN files f ON f.id = r.file_id"
            " WHERE f.path = ? AND r.line = ? AND r.col = ? AND r.symbol_id IS NULL",
            (hit.file, hit.line, hit.column),
        ).fetchone()
        target = row[0] if row is not None else None
        if not target or "|" not in target or target.startswith((UNKNOWN_RECEIVER, MISSING_NAMESPACE)):
            out.append(hit)  # (no chain, or one judged through an unknown receiver or namespace)
            continue
        resolver = resolver or Resolver(conn, {})
        entity = resolver.resolve(hit.file, target)
        key = _literal_key(files, entity) if resolver.own_literal(entity) else None
        if key is None or key in keys:
            out.append(hit)
    return out


def _literal_key(files: TsFiles, entity: Any) -> tuple[str, int, int] | None:
    """(file, line, column) of the key of the object literal member ``("a", path, "line:col",
    name)``, None where it is not found."""
    path, where, name = entity[1], entity[2], entity[3]
    ts = files.get(path)
    line, _, column = where.partition(":")
    node = ts.node_at(int(line), int(column)) if ts is not None and column.isdigit() else None
    while node is not None and node.type != "object":
        node = node.parent
    key = literal_keys(node).get(name) if node is not None else None
    if key is None or ts is None:
        return None
    return path, key.start_point[0] + 1, ts.column_of(key)


def _merged_later(ts: TsFile | None, literal: tree_sitter.Node) -> bool:
    """Whether the literal, held by a variable (``const part = { … }``, ``part = { … }``), may be
    merged into another object: the variable spread (``{ ...base, ...part }``) or handed to
    ``Object.assign`` in the file, where it may be a part of a value of any type."""
    holder = literal.parent
    while holder is not None and holder.type in LITERAL_WRAPPERS:
        holder = holder.parent
    if ts is None or holder is None:
        return False
    name = None
    if holder.type == "variable_declarator":
        name = holder.child_by_field_name("name")
    elif holder.type == "assignment_expression":
        name = holder.child_by_field_name("left")
    if name is None:
        return False
    word = re.escape((name.text or b"").decode("utf-8"))
    if re.search(rf"\.\.\.\s*{word}(?![\w$])", ts.text):
        return True
    alone = re.compile(rf"(?<![\w$.]){word}(?![\w$])")
    return any(alone.search(args.group(1)) for args in _ASSIGNED.finditer(ts.text))


_ASSIGNED = re.compile(r"Object\.assign\(([^\n]*)")  # the arguments, as far as the line goes


def _literal_around(files: TsFiles, hit: Hit) -> set[str] | None:
    """The keys of the object literal whose key ``hit`` is, when each is a plain name and it spreads
    nothing; else None."""
    ts = files.get(hit.file)
    node = ts.node_at(hit.line, hit.column) if ts is not None else None
    if node is None or node.type not in ("property_identifier", "shorthand_property_identifier"):
        return None
    holder = node if node.type == "shorthand_property_identifier" else node.parent
    if holder is None or holder.type not in ("shorthand_property_identifier", "pair", "method_definition"):
        return None
    if (
        holder.type != "shorthand_property_identifier"
        and (holder.child_by_field_name("key") or holder.child_by_field_name("name")) != node
    ):
        return None  # (a value, not a key)
    literal = holder.parent
    if literal is None or literal.type != "object" or _merged_later(ts, literal):
        return None
    keys = literal_keys(literal)
    members = [m for m in literal.named_children if m.type != "comment"]
    if len(keys) != len(members):
        return None  # a spread, a computed or quoted key, a getter's or setter's twin
    return set(keys)


def _member_types(conn: sqlite3.Connection, row: SymbolRow) -> list[tuple[set[str], set[str]]]:
    """(member names, required member names) of the type declaring the TS/JS member ``row`` and of
    the project types deriving from it; empty for anything else (see ``ts_structural.owner_types``)."""
    if row.kind not in _MEMBER_KINDS or not row.parent_path or row.file.endswith((".py", ".pyi")):
        return []
    return owner_types(conn, row)


def _object_types(ts: TsFile, local: bool = False) -> list[tree_sitter.Node]:
    """Object types no symbol stands for, written inline; with ``local``, also the bodies of
    interfaces and type aliases declared inside a function or block (the index holds no symbol
    for those either)."""
    found = []
    for node in captures(ts, "(object_type) @shape", "shape"):
        parent = node.parent
        if parent is not None and parent.type == "type_alias_declaration" and not (local and _local(parent)):
            continue  # `type Named = { … }`: a symbol, judged as a named type
        found.append(node)
    if local:
        for node in captures(ts, "(interface_declaration body: (_) @shape)", "shape"):
            if node.parent is not None and _local(node.parent):
                found.append(node)
    return found


def _local(declaration: tree_sitter.Node) -> bool:
    """Whether a declaration is made inside a function or block, not a module or namespace."""
    node = declaration.parent
    while node is not None:
        if node.type == "statement_block":
            return node.parent is None or node.parent.type not in (
                "internal_module",
                "module",
                "ambient_declaration",
            )
        node = node.parent
    return False


def _shape(node: tree_sitter.Node, name: str) -> tuple[set[str], set[str], tree_sitter.Node | None]:
    """(member names, required member names, the key node named ``name``) of an object type."""
    names: set[str] = set()
    needed: set[str] = set()
    key = None
    for member in node.named_children:
        if member.type not in _SIGNATURES:
            continue
        label = member.child_by_field_name("name")
        if label is None or label.type != "property_identifier":
            continue
        text = (label.text or b"").decode("utf-8")
        names.add(text)
        optional = any(child.type == "?" for child in member.children)
        if not optional:
            needed.add(text)
        if text == name:
            key = label
    return names, needed, key


def spread_key_hits(
    files: TsFiles, conn: sqlite3.Connection, row: SymbolRow, known: set[tuple[str, int, int]]
) -> list[Hit]:
    """Uncertain hits on a key named like the member in an object literal that also spreads
    something, given untyped to a variable (``const c = { ...defaults, port: 8080 }``): where the
    spread is of the member's type, the
    key overrides that member, and the literal goes on as one (``const all: Config[] = [c]``);
    renamed alone, reads through it would find the spread's value instead."""
    if row.kind not in _MEMBER_KINDS or not row.parent_path or row.file.endswith((".py", ".pyi")):
        return []
    out: list[Hit] = []
    for path, ts in files.holding(conn, row.name):
        if "..." not in ts.text:
            continue
        # only `const c = { ...d, k }`: elsewhere the literal is typed where it goes
        for node in captures(ts, "(variable_declarator value: (object (spread_element)) @o)", "o"):
            holder = node.parent
            if holder is None or holder.child_by_field_name("type") is not None:
                continue
            key = literal_keys(node).get(row.name)
            if key is None or _spreads_lack(node, row.name):
                continue
            line, column = key.start_point[0] + 1, ts.column_of(key)
            if (path, line, column) not in known:
                note = "a key written beside a spread: it overrides the spread's member of that name"
                out.append(Hit(path, line, column, column + len(row.name), "write", "name", note=note))
    return out


def _spreads_lack(node: tree_sitter.Node, name: str) -> bool:
    """Whether no spread of the object literal ``node`` can hold a member ``name``: each spreads
    object literals written out (perhaps behind a condition: `...(signal ? { signal } : {})`,
    `...(debug && { level })`) none of which has such a key, nor spreads anything else."""
    spreads = [child for child in node.named_children if child.type == "spread_element"]
    return all(bool(spread.named_children) and _lacks(spread.named_children[0], name) for spread in spreads)


def _lacks(value: tree_sitter.Node, name: str) -> bool:
    """Whether the spread value ``value`` surely has no member ``name`` (see :func:`_spreads_lack`)."""
    kind = value.type
    if kind == "parenthesized_expression" and value.named_children:
        return _lacks(value.named_children[-1], name)
    if kind in ("null", "undefined", "true", "false"):
        return True
    if kind == "ternary_expression":
        branches = (value.child_by_field_name("consequence"), value.child_by_field_name("alternative"))
        return all(branch is not None and _lacks(branch, name) for branch in branches)
    if kind == "binary_expression":
        op = value.child_by_field_name("operator")
        right = value.child_by_field_name("right")
        # `cond && { … }`: a falsy primitive or the object (spreading a falsy value adds nothing)
        return op is not None and op.type == "&&" and right is not None and _lacks(right, name)
    if kind != "object":
        return False
    for member in value.named_children:
        if member.type == "spread_element":
            continue
        key = (
            member
            if member.type == "shorthand_property_identifier"
            else member.child_by_field_name("key") or member.child_by_field_name("name")
        )
        if key is None or key.type not in ("property_identifier", "shorthand_property_identifier"):
            return False  # a quoted, numbered or computed key: it may be the name
        if (key.text or b"").decode("utf-8") == name:
            return False
    return _spreads_lack(value, name)


# an object literal held untyped: `const o = { … }`, `o = { … }`, a class field `defaults = { … }`
_HELD_LITERALS = """
(variable_declarator value: (object) @o)
(assignment_expression right: (object) @o)
"""
# ... and the TS-only forms (a query naming a node type the JS grammar lacks captures nothing there)
_HELD_LITERALS_TS = """
(variable_declarator value: (as_expression (object) @o))
(variable_declarator value: (satisfies_expression (object) @o))
(public_field_definition value: (object) @o)
"""
_HELD_LITERALS_JS = "(field_definition value: (object) @o)"


def literal_key_hits(
    files: TsFiles, conn: sqlite3.Connection, row: SymbolRow, known: set[tuple[str, int, int]]
) -> list[Hit]:
    """Uncertain hits on a key named like the member in an object literal held untyped (``const o
    = { host: "h", port: 8080 }``) that has every member the member's type requires: TypeScript
    lets it go anywhere that type is expected (``return o`` from a ``(): Cfg``, ``[o]`` as
    ``Cfg[]``, ``new Server(o)``, ``this.cfg = o``), and renamed alone, the member would be
    missing from it there."""
    types = _member_types(conn, row)
    if not types:
        return []
    out: list[Hit] = []
    for path, ts in files.holding(conn, row.name):
        held = {
            node.id: node
            for query in (_HELD_LITERALS, _HELD_LITERALS_TS, _HELD_LITERALS_JS)
            for node in captures(ts, query, "o")
        }
        for node in sorted(held.values(), key=lambda n: n.start_byte):
            holder = node.parent
            while holder is not None and holder.type in ("as_expression", "satisfies_expression"):
                holder = holder.parent
            if holder is None or holder.child_by_field_name("type") is not None:
                continue  # `const o: Cfg = { … }`: typed where it is written
            keys = literal_keys(node)
            key = keys.get(row.name)
            whole = any(required <= set(keys) for _, required in types)
            if key is None or not (whole or any(set(keys) <= members for members, _ in types)):
                continue
            if holder.type == "variable_declarator" and not _goes_on(ts, holder):
                continue  # `const counts = { … }; counts.depth`: only its members are read
            # spread or assigned into another object (`{ ...defaults, host }`, `Object.assign(o,
            # defaults)`), or exported (spread elsewhere), a part of the type's members may be
            # all it has
            if not whole and not (holder.type == "variable_declarator" and _spread_or_exported(ts, holder)):
                continue
            line, column = key.start_point[0] + 1, ts.column_of(key)
            if (path, line, column) not in known:
                note = "a key of an object literal that has every member the type requires: it may be used as one"
                out.append(Hit(path, line, column, column + len(row.name), "write", "name", note=note))
    return out


def _spread_or_exported(ts: TsFile, declarator: tree_sitter.Node) -> bool:
    """Whether the variable ``declarator`` binds is exported, spread into an object or array
    (``{ ...defaults }``) or given to ``Object.assign``."""
    name = declarator.child_by_field_name("name")
    if name is None or name.type != "identifier":
        return False
    statement = declarator.parent
    if statement is not None and statement.parent is not None and statement.parent.type == "export_statement":
        return True
    for node in captures(ts, "(identifier) @i", "i"):
        if node.text != name.text or node.id == name.id or node.parent is None:
            continue
        holder = node.parent
        if holder.type == "spread_element":
            return True
        call = holder.parent if holder.type == "arguments" else None
        function = call.child_by_field_name("function") if call is not None else None
        if function is not None and function.text == b"Object.assign":
            return True
    return False


def _goes_on(ts: TsFile, declarator: tree_sitter.Node) -> bool:
    """Whether the variable ``declarator`` binds is exported, or used in its file other than as
    the object of a member read (``o.port``)."""
    name = declarator.child_by_field_name("name")
    if name is None or name.type != "identifier":
        return True
    statement = declarator.parent
    if statement is not None and statement.parent is not None and statement.parent.type == "export_statement":
        return True
    text = name.text
    for node in captures(ts, "[(identifier) (shorthand_property_identifier)] @i", "i"):
        if node.text != text or node.id == name.id:
            continue
        parent = node.parent
        if (
            parent is not None
            and parent.type == "member_expression"
            and parent.child_by_field_name("object") == node
        ):
            continue
        return True
    return False


def literal_keys(node: tree_sitter.Node) -> dict[str, tree_sitter.Node]:
    """The literal's own keys by name (pairs, shorthands, methods, accessors)."""
    keys: dict[str, tree_sitter.Node] = {}
    for member in node.named_children:
        key = (
            member
            if member.type == "shorthand_property_identifier"
            else member.child_by_field_name("key") or member.child_by_field_name("name")
            if member.type in ("pair", "method_definition")
            else None
        )
        if key is not None and key.type in ("property_identifier", "shorthand_property_identifier"):
            keys.setdefault((key.text or b"").decode("utf-8"), key)
    return keys


def json_key_hits(
    ws: Workspace, conn: sqlite3.Connection, row: SymbolRow, known: set[tuple[str, int, int]]
) -> list[Hit]:
    """Uncertain hits on the keys named like the member in JSON files the project imports
    (``import data from "./cfg.json"``) when an object there has every member the member's type
    requires: ``show(data)`` gives it where the type is expected, and the data cannot be renamed."""
    types = _member_types(conn, row)
    if not types:
        return []
    out: list[Hit] = []
    for (path,) in conn.execute(
        "SELECT DISTINCT i.resolved_path FROM imports i JOIN files f ON f.id = i.file_id"
        " WHERE i.resolved_path LIKE '%.json' AND f.language IN ('typescript', 'javascript')"
    ).fetchall():
        try:
            text = (ws.root / str(path)).read_text(encoding="utf-8")
            data = json.loads(text)
        except (OSError, ValueError):
            continue
        objects = [set(obj) for obj in _json_objects(data, 0) if row.name in obj]
        if not any(required <= obj for obj in objects for _, required in types):
            continue
        for match in re.finditer(rf'"{re.escape(row.name)}"\s*:', text):
            line, column = position_of(text, match.start() + 1)  # inside the quotes
            if (str(path), line, column) not in known:
                note = "a key of imported JSON data that has every member the type requires"
                out.append(Hit(str(path), line, column, column + len(row.name), "string", "name", note=note))
    return out


def _json_objects(data: object, depth: int) -> list[dict[str, object]]:
    """The objects in JSON data, to a few levels down."""
    if depth > 4:
        return []
    if isinstance(data, dict):
        return [data, *(o for v in data.values() for o in _json_objects(v, depth + 1))]
    if isinstance(data, list):
        return [o for v in data for o in _json_objects(v, depth + 1)]
    return []


# a mapped type remapping each key by a template (`[K in keyof T as `get${Capitalize<K>}`]`)
_REMAPPED_KEYS = re.compile(
    r"\[\s*([A-Za-z_$][\w$]*)\s+in\s+keyof\s[^\]]*?\bas\s+`[^`]*\$\{[^`]*\b\1\b[^`]*`"
)
_TYPE_KINDS = ("class", "interface", "enum")


def remapped_key_hits(files: TsFiles, conn: sqlite3.Connection, row: SymbolRow) -> list[Hit]:
    """A member name hit at each mapped type of the project that makes member names from the keys
    of a type by a template (``Getters<T>`` with ``get${Capitalize<K>}``) and may be given the
    member's owner: ``g.getName()`` reads ``name`` renamed, which no rename can follow. Over the
    keys of a type parameter of a type alias (``type Prefixed<A, P> = { [N in keyof A as
    `${P}.${N}`]: A[N] }``), the types given for it where the alias is used are judged: one that is
    a project class, interface or enum other than the owner and the types it derives from or that
    derive from it is no such owner; anything else (a type parameter, an alias, a type written
    out, an alias imported under another name) may be."""
    if row.kind not in ("property", "method", "getter", "setter") or row.file.endswith((".py", ".pyi")):
        return []
    related: set[str] | None = None
    out: list[Hit] = []
    for path, ts in files.holding(conn, "keyof", typescript_only=True, fits=_REMAPPED_KEYS):
        for clause in captures(ts, "(mapped_type_clause) @m", "m"):
            name, keyed, remap = (clause.child_by_field_name(f) for f in ("name", "type", "alias"))
            if (
                name is None
                or keyed is None
                or keyed.type != "index_type_query"
                or remap is None
                or remap.type != "template_literal_type"
                or not re.search(rf"\b{re.escape(_text(name))}\b", _text(remap))
            ):
                continue
            if related is None:
                related = _related_type_names(conn, row)
            if not _may_key_owner(files, conn, keyed, related):
                continue
            place = clause.parent if clause.parent is not None else clause
            line, column = place.start_point[0] + 1, ts.column_of(place)
            note = "a mapped type makes member names from the keys of a type by a template"
            out.append(Hit(path, line, column, column + 1, "string", "name", note=note))
    return out


def _text(node: tree_sitter.Node) -> str:
    return (node.text or b"").decode("utf-8")


def _related_type_names(conn: sqlite3.Connection, row: SymbolRow) -> set[str]:
    """The names of the member's owner, the project types it derives from and those deriving
    from any of them (a mapped type over the keys of any of them may have the member's key)."""
    owner = member_owner(conn, row)
    if owner is None:
        return set()
    ids = {below for top in ancestry(conn, [owner.id])[0] for below in derived_types(conn, top)}
    marks = ",".join("?" * len(ids))
    return {n for (n,) in conn.execute(f"SELECT name FROM symbols WHERE id IN ({marks})", tuple(ids))}


def _type_name(node: tree_sitter.Node) -> str | None:
    """The last part of the name of a type written as a name (``A``, ``ns.A``, ``A<T>``)."""
    if node.type == "generic_type":
        head = node.child_by_field_name("name")
        return _type_name(head) if head is not None else None
    if node.type == "type_identifier":
        return _text(node)
    if node.type == "nested_type_identifier":
        return _text(node).rsplit(".", 1)[-1].strip()
    return None


def _other_type(conn: sqlite3.Connection, node: tree_sitter.Node, related: set[str]) -> bool:
    """Whether ``node`` names a project class, interface or enum none of ``related``."""
    name = _type_name(node)
    if name is None or name in related:
        return False
    marks = ",".join("?" * len(_TYPE_KINDS))
    kinds = {
        kind
        for (kind,) in conn.execute(
            f"SELECT kind FROM symbols WHERE name = ? AND kind IN ({marks}, 'type', 'function', 'variable')",
            (name, *_TYPE_KINDS),
        )
    }
    return bool(kinds) and kinds <= set(_TYPE_KINDS)


def _may_key_owner(
    files: TsFiles, conn: sqlite3.Connection, keyed: tree_sitter.Node, related: set[str]
) -> bool:
    """Whether the type ``keyof`` is applied to here may be one holding the member."""
    target = keyed.named_children[0] if keyed.named_children else None
    if target is None:
        return True
    if _other_type(conn, target, related):
        return False
    if target.type != "type_identifier":
        return True
    alias = target.parent
    while alias is not None and alias.type != "type_alias_declaration":
        alias = alias.parent
    params = alias.child_by_field_name("type_parameters") if alias is not None else None
    names = [_text(p.named_children[0]) for p in (params.named_children if params is not None else [])]
    alias_name = alias.child_by_field_name("name") if alias is not None else None
    if alias_name is None or _text(target) not in names:
        return True  # a type parameter of a function, a class, …: bound where it is called
    index, called = names.index(_text(target)), _text(alias_name)
    renamed = re.compile(rf"\b{re.escape(called)}\s+as\b")
    used = re.compile(rf"\b{re.escape(called)}\s*(?:<|as\b)")
    for _path, ts in files.holding(conn, called, fits=used):
        if renamed.search(ts.text):
            return True  # imported or exported under another name: its uses are not all read
        for use in captures(ts, "(generic_type) @g", "g"):
            head = use.child_by_field_name("name")
            arguments = use.child_by_field_name("type_arguments")
            if head is None or _type_name(head) != called or use.parent is alias:
                continue
            given = arguments.named_children if arguments is not None else []
            if index >= len(given) or not _other_type(conn, given[index], related):
                return True
    return False
