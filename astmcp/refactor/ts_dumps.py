"""TS/JS: objects whose keys become data (``JSON.stringify(cfg)``, ``Object.keys(cfg)``,
``for (const k in cfg)``).

A member's name is a key of every such conversion of an object of its type: renaming the member
changes the text written and the keys listed, with no error anywhere (Python's counterpart is
:mod:`field_mappings`' ``dump_hits``). Each conversion of a value typed as the member's class,
interface or object type is an uncertain hit at the conversion.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable

import tree_sitter

from astmcp.query.common import SymbolRow, query_symbols
from astmcp.query.string_reach import namespace_escapes
from astmcp.refactor.rename_refs import Hit
from astmcp.refactor.ts_literals import TsFiles, captures
from astmcp.refactor.tsscopes import FUNCTION_NODES, TsFile
from astmcp.resolve.typescript import Resolver

__all__ = [
    "STRING_INTRINSICS",
    "enum_name_hits",
    "namespace_shape_hits",
    "owner_ids",
    "template_key_hits",
    "ts_dump_hits",
    "typed_as",
]

_MEMBER_KINDS = ("method", "property", "getter", "setter")
# `Object.keys(x)` and the like: callee object -> its functions that list or write out keys
_DUMPERS = {
    "JSON": frozenset({"stringify"}),
    "Object": frozenset({"keys", "entries", "getOwnPropertyNames", "fromEntries"}),
    "Reflect": frozenset({"ownKeys"}),
}
# a text that may hold one (checked before a file is parsed)
_MAY_CONVERT = re.compile(
    r"\.\s*json\s*\(\s*\)|\b(?:JSON\s*\.\s*(?:stringify|parse)|Object\s*\.\s*(?:keys|entries|getOwnPropertyNames|fromEntries)"
    r"|Reflect\s*\.\s*ownKeys)\b|\bfor\s*\([^;)]*\sin\s"
)
_CALLS = """
((call_expression
  function: (member_expression object: (identifier) @o property: (property_identifier) @p)
  arguments: (arguments . (_) @arg)) @call
 (#match? @o "^(JSON|Object|Reflect)$"))
"""
_FOR_IN = "(for_in_statement right: (_) @arg) @loop"
_PARSE_CALLS = """
((call_expression
  function: (member_expression property: (property_identifier) @p)) @call
 (#match? @p "^(parse|json)$"))
"""


def ts_dump_hits(
    files: TsFiles, conn: sqlite3.Connection, row: SymbolRow, family: list[SymbolRow]
) -> list[Hit]:
    if row.kind not in _MEMBER_KINDS or not row.parent_path or row.file.endswith((".py", ".pyi")):
        return []
    owners = owner_ids(conn, family)
    if not owners:
        return []
    resolver: Resolver | None = None
    out: list[Hit] = []
    for (path,) in conn.execute(
        "SELECT path FROM files WHERE language IN ('typescript', 'javascript') ORDER BY path"
    ).fetchall():
        text = files.read(str(path))
        if text is None or not _MAY_CONVERT.search(text):
            continue
        ts = files.get(str(path))
        if ts is None:
            continue
        for at, arg in _conversions(ts):
            line, column = at.start_point[0] + 1, ts.column_of(at)
            resolver = resolver or Resolver(conn, {})
            if typed_as(conn, resolver, path, arg, owners, ts) and not _keys_stay_within(
                conn, resolver, path, at.parent, owners, ts
            ):
                note = "the object's keys become data here (JSON text, a list of its keys)"
                end = column + len((at.text or b"").decode("utf-8"))
                out.append(Hit(path, line, column, end, "string", "name", note=note))
        for at, typed in _parses(ts):
            resolver = resolver or Resolver(conn, {})
            if any(_names_owner(conn, resolver, path, ts, name, owners) for name in _type_names(typed)):
                line, column = at.start_point[0] + 1, ts.column_of(at)
                note = "data parsed here is taken as the member's type: its keys are the members' names"
                end = column + len((at.text or b"").decode("utf-8"))
                out.append(Hit(path, line, column, end, "string", "name", note=note))
    return out


# what a parsed value passes through on its way to the type it is taken as
_PASSING = frozenset({"parenthesized_expression", "await_expression", "non_null_expression"})


def _parses(ts: TsFile) -> list[tuple[tree_sitter.Node, tree_sitter.Node]]:
    """(the parse call's method name, the type it is taken as) of each ``JSON.parse(…)`` or
    ``response.json()`` whose value is asserted (``as Config``, ``<Config>``), declared
    (``const c: Config = …``) or returned from a function declared to return a type."""
    found: list[tuple[tree_sitter.Node, tree_sitter.Node]] = []
    for call in captures(ts, _PARSE_CALLS, "call"):
        function = call.child_by_field_name("function")
        prop = function.child_by_field_name("property") if function is not None else None
        args = call.child_by_field_name("arguments")
        if prop is None or args is None:
            continue
        owner = function.child_by_field_name("object") if function is not None else None
        if prop.text == b"json" and args.named_children:
            continue  # `response.json()` takes no argument
        if prop.text == b"parse" and (owner is None or owner.text != b"JSON"):
            continue
        node = call
        while node.parent is not None and node.parent.type in _PASSING:
            node = node.parent
        holder = node.parent
        typed: tree_sitter.Node | None = None
        if holder is None:
            continue
        if holder.type in ("as_expression", "satisfies_expression") and holder.named_children:
            typed = holder.named_children[-1]
        elif holder.type == "type_assertion":
            typed = holder.named_children[0] if holder.named_children else None
        elif holder.type == "variable_declarator" and holder.child_by_field_name("value") == node:
            typed = holder.child_by_field_name("type")
        elif holder.type == "return_statement":
            function_node = holder.parent
            while function_node is not None and function_node.type not in FUNCTION_NODES:
                function_node = function_node.parent
            typed = function_node.child_by_field_name("return_type") if function_node is not None else None
        if typed is not None:
            found.append((prop, typed))
    return found


def _type_names(typed: tree_sitter.Node) -> list[tree_sitter.Node]:
    """The type names a type reads (``Config``, ``Config[]``, ``Promise<Config | null>``)."""
    out: list[tree_sitter.Node] = []
    pending = [typed]
    while pending:
        node = pending.pop()
        if node.type == "type_identifier":
            out.append(node)
        elif node.type not in ("object_type", "function_type", "literal_type"):
            pending.extend(node.named_children)
    return out


def _names_owner(
    conn: sqlite3.Connection,
    resolver: Resolver,
    path: str,
    ts: TsFile,
    name: tree_sitter.Node,
    owners: set[int],
) -> bool:
    """Whether the type name ``name`` (through the index's reference there) is one of ``owners``."""
    found = conn.execute(
        "SELECT r.target_key FROM refs r JOIN files f ON f.id = r.file_id WHERE f.path = ? AND r.line = ?"
        " AND r.col = ? AND r.target_key IS NOT NULL LIMIT 1",
        (path, name.start_point[0] + 1, ts.column_of(name)),
    ).fetchone()
    named = resolver.resolve(path, str(found[0])) if found is not None else None
    return named is not None and named[0] == "s" and named[1] in owners


def owner_ids(conn: sqlite3.Connection, family: list[SymbolRow]) -> set[int]:
    """The ids of the TS/JS classes, interfaces and object types declaring the family's members."""
    return {
        o.id
        for m in family
        if m.parent_path and not m.file.endswith((".py", ".pyi"))
        for o in query_symbols(conn, "f.path = ? AND s.symbol_path = ?", (m.file, m.parent_path))
    }


def _conversions(ts: TsFile) -> list[tuple[tree_sitter.Node, tree_sitter.Node]]:
    """(the node to point at, the converted expression) of each conversion in the file."""
    found: list[tuple[tree_sitter.Node, tree_sitter.Node]] = []
    for call in captures(ts, _CALLS, "call"):
        function = call.child_by_field_name("function")
        args = call.child_by_field_name("arguments")
        if function is None or args is None or not args.named_children:
            continue
        owner = function.child_by_field_name("object")
        prop = function.child_by_field_name("property")
        if owner is None or prop is None:
            continue
        names = _DUMPERS.get((owner.text or b"").decode("utf-8"))
        if names is not None and (prop.text or b"").decode("utf-8") in names:
            found.append((prop, args.named_children[0]))
    for loop in captures(ts, _FOR_IN, "loop"):
        operator = loop.child_by_field_name("operator")
        right = loop.child_by_field_name("right")
        if right is not None and operator is not None and operator.text == b"in":
            found.append((operator, right))
    return found


def _keys_stay_within(
    conn: sqlite3.Connection,
    resolver: Resolver,
    path: str,
    loop: tree_sitter.Node | None,
    owners: set[int],
    ts: TsFile,
) -> bool:
    """A ``for (const k in x)`` whose key only indexes values typed as the owner, x included
    (``merged[k] = opts[k]``, casts and parentheses aside): names go from one value of the type
    to another, and a rename keeps them matching (TanStack virtual-core's option merging)."""
    if loop is None or loop.type != "for_in_statement":
        return False
    left, body = loop.child_by_field_name("left"), loop.child_by_field_name("body")
    if left is None or left.type != "identifier" or body is None:
        return False
    uses = [n for n in _identifiers(body) if n.text == left.text]
    for use in uses:
        holder = use.parent
        if (
            holder is None
            or holder.type != "subscript_expression"
            or holder.child_by_field_name("index") != use
        ):
            return False
        indexed = holder.child_by_field_name("object")
        while indexed is not None and indexed.type in ("parenthesized_expression", "as_expression"):
            indexed = indexed.named_children[0] if indexed.named_children else None
        if indexed is None or not typed_as(conn, resolver, path, indexed, owners, ts):
            if indexed is None or indexed.type != "identifier":
                return False
            declared = _local_annotation(indexed, same_keys=True)
            if declared is None or not _names_owner(conn, resolver, path, ts, declared, owners):
                return False
    return bool(uses)


def _identifiers(node: tree_sitter.Node) -> list[tree_sitter.Node]:
    found: list[tree_sitter.Node] = []
    pending = [node]
    while pending:
        part = pending.pop()
        if part.type == "identifier":
            found.append(part)
        pending.extend(part.named_children)
    return found


def typed_as(
    conn: sqlite3.Connection,
    resolver: Resolver,
    path: str,
    arg: tree_sitter.Node,
    owners: set[int],
    ts: TsFile,
) -> bool:
    """Whether the expression ``arg`` is typed as an instance of one of ``owners`` (through the
    index's reference at its last name)."""
    last = arg
    while last.type in (
        "member_expression",
        "parenthesized_expression",
        "non_null_expression",
        "as_expression",
    ):
        inner = last.child_by_field_name("property") if last.type == "member_expression" else None
        last = inner if inner is not None else (last.named_children[0] if last.named_children else last)
        if inner is not None:
            break
    if last.type not in ("identifier", "property_identifier", "this"):
        return False
    line = last.start_point[0] + 1
    column = ts.column_of(last)
    found = conn.execute(
        "SELECT r.target_key FROM refs r JOIN files f ON f.id = r.file_id WHERE f.path = ? AND r.line = ?"
        " AND r.col = ? AND r.target_key IS NOT NULL LIMIT 1",
        (path, line, column),
    ).fetchone()
    if found is None:
        annotation = _local_annotation(last) if last.type == "identifier" else None
        if annotation is None:
            return False
        # a local or parameter declared with a type (`function merge(u: User)`): what it names
        return _names_owner(conn, resolver, path, ts, annotation, owners)
    chain = str(found[0])
    for entity in (resolver.resolve(path, chain), resolver.resolve(path, chain + "|:")):
        for alt in entity[1] if entity is not None and entity[0] == "v" else (entity,):
            if alt is not None and alt[0] == "i" and alt[1] in owners:
                return True
    return False


_FUNCTIONS = FUNCTION_NODES
_SAME_KEYS = frozenset({b"Required", b"Partial", b"Readonly"})
_PARAMETERS = frozenset({"required_parameter", "optional_parameter"})


def _local_annotation(name: tree_sitter.Node, same_keys: bool = False) -> tree_sitter.Node | None:
    """The type name a local variable or parameter ``name`` reads is declared with (``u: User``,
    ``const u: User = …`` in an enclosing block or function), or None (not found, not one name).
    ``same_keys``: also the type a const's value is asserted as (``const m = {…} as unknown as
    User``), and ``Required<User>``, ``Partial<User>``, ``Readonly<User>`` as ``User`` (the same keys)."""
    wanted = name.text
    node = name.parent
    while node is not None:
        declared: list[tuple[tree_sitter.Node | None, tree_sitter.Node | None]] = []
        if node.type in _FUNCTIONS:
            params = node.child_by_field_name("parameters")
            for param in params.named_children if params is not None else ():
                if param.type in _PARAMETERS:
                    declared.append((param.child_by_field_name("pattern"), param.child_by_field_name("type")))
        elif node.type in ("statement_block", "program"):
            for statement in node.named_children:
                if statement.type in ("lexical_declaration", "variable_declaration"):
                    for declarator in statement.named_children:
                        if declarator.type == "variable_declarator":
                            annotation = declarator.child_by_field_name("type")
                            value = declarator.child_by_field_name("value")
                            if (
                                annotation is None
                                and same_keys
                                and value is not None
                                and value.type == "as_expression"
                            ):
                                annotation = value  # `{…} as unknown as T`: its last named child, T
                            declared.append((declarator.child_by_field_name("name"), annotation))
        for bound, annotation in declared:
            if bound is None or bound.type != "identifier" or bound.text != wanted:
                continue
            kind = (
                annotation.named_children[-1 if annotation.type == "as_expression" else 0]
                if annotation is not None and annotation.named_children
                else None
            )
            while (
                same_keys
                and kind is not None
                and kind.type == "generic_type"
                and (kind.child_by_field_name("name") or kind).text in _SAME_KEYS
                and len(named := (kind.child_by_field_name("type_arguments") or kind).named_children) == 1
            ):
                kind = named[0]
            if kind is not None and kind.type == "generic_type":
                kind = kind.child_by_field_name("name")
            return kind if kind is not None and kind.type == "type_identifier" else None
        node = node.parent
    return None


_TYPE_OWNERS = ("interface", "type", "class")


def namespace_shape_hits(
    files: TsFiles, conn: sqlite3.Connection, row: SymbolRow, family: list[SymbolRow]
) -> list[Hit]:
    """A module-level value of a module whose namespace object is used as a value (``use(A)``,
    ``const f: Fmt = A``) may stand for a project type's same-named member (``interface Fmt {
    fmt(…) }``): TypeScript compares the namespace's exports with the type's members. Each such
    member is an uncertain hit of kind ``override``."""
    if row.parent_path or row.file.endswith((".py", ".pyi")) or row.kind in _MEMBER_KINDS:
        return []
    declarations = [m for m in family if not m.parent_path and not m.file.endswith((".py", ".pyi"))]
    if namespace_escapes(conn, declarations) is not True:
        return []
    out: list[Hit] = []
    for member in query_symbols(
        conn,
        "s.name = ? AND s.parent_path IS NOT NULL AND f.language IN ('typescript', 'javascript')",
        (row.name,),
    ):
        owner = query_symbols(conn, "f.path = ? AND s.symbol_path = ?", (member.file, member.parent_path))
        if member.kind in _MEMBER_KINDS and owner and owner[0].kind in _TYPE_OWNERS:
            note = "a member of a type a namespace object used as a value may stand for"
            out.append(
                Hit(
                    member.file,
                    member.name_line,
                    member.name_col,
                    member.name_end_col,
                    "override",
                    "name",
                    note=note,
                )
            )
    # object types written out (`<T extends { fmt(x: number): string }>`)
    for path, ts in files.holding(conn, row.name, typescript_only=True):
        for label in captures(ts, _SIGNATURE_NAMES, "n"):
            if label.text == row.name.encode("utf-8"):
                line, column = label.start_point[0] + 1, ts.column_of(label)
                note = "a member of an object type a namespace object used as a value may stand for"
                out.append(Hit(path, line, column, column + len(row.name), "override", "name", note=note))
    return out


_SIGNATURE_NAMES = """
(object_type (property_signature name: (property_identifier) @n))
(object_type (method_signature name: (property_identifier) @n))
"""


_SUBSCRIPTS = "(subscript_expression object: (_) @o index: (_) @i) @s"


def enum_name_hits(files: TsFiles, conn: sqlite3.Connection, row: SymbolRow) -> list[Hit]:
    """An enum member's name is data at run time where the enum object is listed
    (``Object.keys(Level)``, ``for (const k in Level)``) or indexed by a computed key: a numeric
    member's reverse mapping (``Level[level]`` gives ``"Warn"``), a name held in a variable
    (``Mode[key]``). Renaming it changes that text, with no error anywhere. Each such place is an
    uncertain hit (judged by the enum's name)."""
    if row.kind != "enum_member" or not row.parent_path or row.file.endswith((".py", ".pyi")):
        return []
    enum = row.parent_path.rsplit(".", 1)[-1]
    out: list[Hit] = []
    note = "the enum's member names become data here (its keys, its reverse mapping, a computed key)"
    for path, ts in files.holding(conn, enum):
        places: list[tree_sitter.Node] = [at for at, arg in _conversions(ts) if _names(arg, enum)]
        for subscript in captures(ts, _SUBSCRIPTS, "s"):
            owner = subscript.child_by_field_name("object")
            index = subscript.child_by_field_name("index")
            if owner is not None and index is not None and _names(owner, enum) and index.type != "string":
                places.append(subscript)
        for at in places:
            line, column = at.start_point[0] + 1, ts.column_of(at)
            end = column + len((at.text or b"").decode("utf-8").split("\n", 1)[0])
            out.append(Hit(path, line, column, end, "string", "name", note=note))
    return out


def _names(node: tree_sitter.Node, enum: str) -> bool:
    """Whether ``node`` is the enum's name, alone or as the last step (``levels.Level``)."""
    while node.type in ("parenthesized_expression", "non_null_expression") and node.named_children:
        node = node.named_children[0]
    if node.type == "member_expression":
        prop = node.child_by_field_name("property")
        return prop is not None and prop.text == enum.encode("utf-8")
    return node.type == "identifier" and node.text == enum.encode("utf-8")


_TEMPLATE_TYPES = "(template_literal_type) @t"
_STRING_TEXTS = "(string (string_fragment) @f)"


def template_key_hits(
    files: TsFiles, conn: sqlite3.Connection, row: SymbolRow, known: set[tuple[str, int, int]]
) -> list[Hit]:
    """A member's name inside the strings a template literal type over its owner's keys spells
    (``type Ev = `${keyof Options}Changed`;`` then ``on("portChanged")``, or ``change:${K}`` with
    ``K extends keyof Options``): TypeScript checks each such string against the keys, so renaming
    ``Options.port`` alone makes ``"portChanged"`` an error. Each is an uncertain hit."""
    if row.kind not in _MEMBER_KINDS or not row.parent_path or row.file.endswith((".py", ".pyi")):
        return []
    keys = re.compile(rf"\bkeyof\s+{re.escape(row.parent_path.rsplit('.', 1)[-1])}\b")
    patterns: list[re.Pattern[str]] = []
    for _path, ts in files.holding(conn, "keyof", typescript_only=True):
        for template in captures(ts, _TEMPLATE_TYPES, "t"):
            pattern = _template_pattern(template, keys)
            if pattern is not None:
                patterns.append(pattern)
    out: list[Hit] = _intrinsic_key_hits(files, conn, row, keys, known)
    if not patterns:
        return out
    note = "a string a template literal type over the owner's keys checks"
    for path, ts in files.holding(conn, row.name):
        for fragment in captures(ts, _STRING_TEXTS, "f"):
            text = (fragment.text or b"").decode("utf-8")
            for pattern in patterns:
                match = pattern.fullmatch(text)
                spans = [match.span(g) for g in pattern.groupindex] if match is not None else []
                for start, end in spans:
                    if text[start:end] != row.name:
                        continue
                    line, column = fragment.start_point[0] + 1, ts.column_of(fragment) + start
                    if (path, line, column) not in known:
                        known.add((path, line, column))
                        out.append(
                            Hit(path, line, column, column + len(row.name), "string", "name", note=note)
                        )
    return out


# TypeScript's string-changing types: `Uppercase<keyof Options>` is "PORT" | "HOST"
STRING_INTRINSICS: dict[str, Callable[[str], str]] = {
    "Uppercase": str.upper,
    "Lowercase": str.lower,
    "Capitalize": lambda text: text[:1].upper() + text[1:],
    "Uncapitalize": lambda text: text[:1].lower() + text[1:],
}


def _intrinsic_key_hits(
    files: TsFiles,
    conn: sqlite3.Connection,
    row: SymbolRow,
    keys: re.Pattern[str],
    known: set[tuple[str, int, int]],
) -> list[Hit]:
    """Strings spelling the member's name as ``Uppercase<keyof Owner>`` (or ``Lowercase``,
    ``Capitalize``, ``Uncapitalize``) makes it: TypeScript checks them against the keys."""
    spelled: set[str] = set()
    for _path, ts in files.holding(conn, "keyof", typescript_only=True):
        for generic in captures(ts, "(generic_type) @g", "g"):
            name = generic.child_by_field_name("name")
            change = STRING_INTRINSICS.get((name.text or b"").decode("utf-8")) if name is not None else None
            arguments = generic.child_by_field_name("type_arguments")
            if (
                change is not None
                and arguments is not None
                and keys.search((arguments.text or b"").decode("utf-8"))
            ):
                spelled.add(change(row.name))
    spelled.discard(row.name)  # (the name itself is judged as any string)
    out: list[Hit] = []
    note = "a string a string-changing type over the owner's keys checks (Uppercase<keyof …>)"
    for word in sorted(spelled):
        for path, ts in files.holding(conn, word):
            for fragment in captures(ts, _STRING_TEXTS, "f"):
                if fragment.text != word.encode("utf-8"):
                    continue
                line, column = fragment.start_point[0] + 1, ts.column_of(fragment)
                if (path, line, column) not in known:
                    known.add((path, line, column))
                    out.append(Hit(path, line, column, column + len(word), "string", "name", note=note))
    return out


def _template_pattern(template: tree_sitter.Node, keys: re.Pattern[str]) -> re.Pattern[str] | None:
    """The strings ``template`` (a template literal type) admits, as a pattern whose named groups
    are the owner's keys it interpolates; None when it interpolates none."""
    parts: list[str] = []
    named = 0
    for child in template.children:
        if child.type == "string_fragment":
            parts.append(re.escape((child.text or b"").decode("utf-8")))
        elif child.type == "template_type":
            inner = child.named_children[0] if child.named_children else None
            if inner is not None and _over_keys(inner, keys):
                parts.append(rf"(?P<k{named}>[A-Za-z_$][\w$]*)")
                named += 1
            else:
                parts.append(".*?")
    return re.compile("".join(parts), re.DOTALL) if named else None


def _over_keys(node: tree_sitter.Node, keys: re.Pattern[str]) -> bool:
    """Whether a type ranges over the owner's keys: ``keyof Options`` written in it, or a type
    parameter constrained so (``K extends keyof Options``) by a declaration around it."""
    text = (node.text or b"").decode("utf-8")
    if keys.search(text):
        return True
    if node.type != "type_identifier":
        return False
    holder = node.parent
    while holder is not None:
        params = holder.child_by_field_name("type_parameters")
        for param in params.named_children if params is not None else ():
            name = param.child_by_field_name("name")
            constraint = param.child_by_field_name("constraint")
            if name is not None and name.text == node.text and constraint is not None:
                return bool(keys.search((constraint.text or b"").decode("utf-8")))
        holder = holder.parent
    return False
