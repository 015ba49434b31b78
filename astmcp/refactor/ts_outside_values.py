"""TS/JS: values of outside types used as a project type whose member is renamed.

``#queries: QueryStore`` with ``this.#queries = new Map<string, Query>()``: TypeScript accepts the
``Map`` because it has every member ``QueryStore`` declares (``has``, ``get``, ``delete``...).
Renaming ``QueryStore.delete`` cannot rename ``Map.delete``, so the ``Map`` no longer fits (or, where
the member is optional, silently no longer provides it). Structural partners (``ts_structural``)
are the project's own types; this finds outside ones where they meet a declaration: a value made by
``new X(…)`` of a class outside the project, or an array literal, given to a variable, field or
return type that names the member's type (``const s: Store = new Map()``, ``this.f = new Set()``
for a field ``f: Store``, ``return new Map()`` in a function declared ``(): Store``). The rename is
refused with ``MUTATION_BLOCKED`` naming the outside type and the place. So is one where such a
value is an argument the project gives a parameter of that type (``use(new Map())`` for
``use(s: Store)``, ``new Cache(new Map())`` for its constructor's). A standard global object is
such a value too (``parser: Parser = JSON``, ``storage: Storage = window.localStorage``), also as
a default (``config.parser || JSON``, ``ok ? window : null``), through the local variable
holding it (``const parser = config.parser || JSON; sync(parser)``) and through an import of
another module's (``import tool from "./tool"``: its default export's value). A property an
interface or object type alias declares with the type (``storage: StorageLike``) is given values
too: an object literal's key linked to it (``{ storage: localStorage }``, ``{ storage }``) and
``x.storage = value``; a method declared to return the type (``make(): UriResolver``), what the
literal's function or method for it returns. An array declared of the type (``UriResolver[]``,
``Array<UriResolver>``) is given the elements of the array literals it is given, and a property of
an object type written out where a variable or return is declared (``(): { resolver: UriResolver
}``), the key's value in the object literals given there. A library container made or declared to hold
the type (``new Map<string, Store>()``, ``items: Set<Store>``, ``all: Store[]``) is given what its
``set`` / ``add`` / ``push`` calls on that variable or field store.

The member's type may also be reached inside another project type: a property's type, a method's
or a function type's return (``Promise<…>`` and arrays of it too), an alias of it. An outside value
used as that *container* brings its own parts: ``getFetch(): FetchEsque`` returning
``globalThis.fetch``, where ``FetchEsque`` returns ``Promise<ResponseEsque>`` whose ``body`` is a
``WebReadableStreamEsque``, makes the library's ``ReadableStream`` one, so renaming
``WebReadableStreamEsque.getReader`` is refused too (trpc-client seed 57 broke). Containers are
followed up to ``_CONTAINER_DEPTH`` types out, and only a standard global object's parts count:
``new Map<string, Query>()`` used as a ``QueryStore`` holds the project's own Queries.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator

import tree_sitter

from astmcp.errors import MutationBlocked
from astmcp.query.common import SymbolRow, query_symbols
from astmcp.refactor.ts_literals import TsFiles
from astmcp.refactor.tsscopes import FUNCTION_NODES, TsFile
from astmcp.resolve.ts_library import GLOBAL_OBJECTS
from astmcp.workspace import Workspace

__all__ = ["FUNCTION_NODES", "check_outside_values"]

_MEMBER_KINDS = ("method", "property", "getter", "setter")
_OWNER_KINDS = ("interface", "type", "class")
# type nodes a declared type may wrap the owner's name in and still be that type (`Store | null`)
_TYPE_WRAPPERS = frozenset({"generic_type", "union_type", "parenthesized_type", "readonly_type"})
# expression wrappers a value may sit in (`new Map() as Store`)
_WRAPPERS = frozenset(
    {"as_expression", "satisfies_expression", "parenthesized_expression", "non_null_expression"}
)
_PARAMETERS = frozenset({"required_parameter", "optional_parameter"})
# the standard global objects a value may be (`JSON`, `window.localStorage`), as the library declares them
_GLOBAL_VALUES = GLOBAL_OBJECTS | {"globalThis", "window", "self", "document", "process", "Buffer"}
_DEFAULTS = frozenset({"||", "??", "&&"})  # `a || JSON` may be either side (`a && b`: b, or a falsy a)
_HOPS = 4  # local variables followed back to what they were declared with
_CONTAINER_DEPTH = 3  # project types holding the member's type, followed outwards
# a type's parts that stay outside values when the whole is one (`Promise<R>` resolves to one)
_PART_TYPES = frozenset(
    {"union_type", "parenthesized_type", "readonly_type", "intersection_type", "array_type"}
)
_PART_GENERICS = frozenset({b"Promise", b"PromiseLike", b"Array", b"ReadonlyArray"})
_DECLARATIONS = frozenset({"interface_declaration", "type_alias_declaration"})


def check_outside_values(
    ws: Workspace, conn: sqlite3.Connection, row: SymbolRow, family: Iterable[SymbolRow]
) -> None:
    """MUTATION_BLOCKED when a value of an outside type is used as the type of a renamed member."""
    owners: dict[int, SymbolRow] = {}
    for member in [row, *family]:
        if member.kind not in _MEMBER_KINDS or member.parent_path is None or member.file.endswith(".py"):
            continue
        for owner in query_symbols(
            conn, "f.path = ? AND s.symbol_path = ?", (member.file, member.parent_path)
        ):
            if owner.kind in _OWNER_KINDS:
                owners[owner.id] = owner
    if not owners:
        return
    files = TsFiles(ws)
    for owner, holder in _with_containers(conn, files, owners):
        for path, line, col in _type_uses(conn, holder):
            ts = files.get(path)
            node = ts.node_at(line, col) if ts is not None else None
            if ts is None or node is None:
                continue
            declaration = _declaration(node)
            given = [(path, ts, value) for value in _values_given(declaration)]
            if declaration is not None and declaration.type in _PARAMETERS:
                given += _arguments(ws, conn, files, path, ts, declaration)
            if declaration is not None and declaration.type in ("property_signature", "method_signature"):
                given += _properties_given(conn, files, path, ts, declaration)
                given += [(path, ts, value) for value in _inline_given(declaration)]
            elements = _element_declaration(node)
            if elements is not None:  # `all: UriResolver[] = [new UriTool()]`
                given += [
                    (path, ts, element)
                    for value in _values_given(elements)
                    for element in _array_elements(value)
                ]
                given += [(path, ts, value) for value in _pushed(elements)]  # `all.push(v)`
            # `new Map<string, UriResolver>()`, then `registry.set("a", new UriTool())`
            given += [(path, ts, value) for value in _stored_in_container(node)]
            fits = _declared_outside(declaration)
            for where, where_ts, value in given:
                # an outside value used as a container: only a standard global object's parts are
                # outside values for sure (`new Map<string, Query>()` holds the project's Queries)
                outside = _outside_type(
                    conn, where, where_ts, value, globals_only=holder is not owner, files=files
                )
                if outside is not None and outside.partition("<")[0].partition(".")[0] not in fits:
                    at = f"{where}:{value.start_point[0] + 1}"
                    used = owner.name if holder is owner else f"{holder.name} (a type holding {owner.name})"
                    raise MutationBlocked(
                        f"{row.name!r} is a member of {owner.name}, and {outside}, a type outside the project,"
                        f" is used as a {used} at {at}: it keeps its {row.name!r}, so renaming the member"
                        " would leave it behind",
                        {"outside_type": outside, "at": at},
                    )


def _with_containers(
    conn: sqlite3.Connection, files: TsFiles, owners: dict[int, SymbolRow]
) -> Iterator[tuple[SymbolRow, SymbolRow]]:
    """``(owner, holder)``: each owner with itself, then with each project type holding it (a
    property's or a return's type, an alias), up to ``_CONTAINER_DEPTH`` types out."""
    for owner in owners.values():
        seen = {owner.id}
        level = [owner]
        yield owner, owner
        for _ in range(_CONTAINER_DEPTH):
            found: list[SymbolRow] = []
            for inner in level:
                for holder in _containers(conn, files, inner):
                    if holder.id not in seen:
                        seen.add(holder.id)
                        found.append(holder)
                        yield owner, holder
            level = found


def _containers(conn: sqlite3.Connection, files: TsFiles, inner: SymbolRow) -> Iterator[SymbolRow]:
    """The interfaces and type aliases one of whose properties or returns is typed ``inner``."""
    for path, line, col in _type_uses(conn, inner):
        ts = files.get(path)
        node = ts.node_at(line, col) if ts is not None else None
        declaration = _holding_declaration(node) if ts is not None and node is not None else None
        name = declaration.child_by_field_name("name") if declaration is not None else None
        if ts is None or name is None:
            continue
        yield from query_symbols(
            conn,
            "f.path = ? AND s.name_line = ? AND s.name_col = ? AND s.kind IN ('interface', 'type')",
            (path, name.start_point[0] + 1, ts.column_of(name)),
        )


def _holding_declaration(node: tree_sitter.Node) -> tree_sitter.Node | None:
    """The interface or type alias whose property type, return type or value the type name
    ``node`` is (or a part of, as ``_PART_TYPES`` / ``_PART_GENERICS`` say), else None."""
    if node.type not in ("type_identifier", "nested_type_identifier"):
        return None
    current, parent = node, node.parent
    while parent is not None:
        if parent.type in _PART_TYPES or parent.type == "type_arguments":
            current, parent = parent, parent.parent
        elif parent.type == "generic_type":
            head = parent.child_by_field_name("name")
            if current != head and (head is None or head.text not in _PART_GENERICS):
                return None  # `Map<K, Store>`: a library generic's parts are its own
            current, parent = parent, parent.parent  # `Store<T>` itself, or `Promise<Store>`
        elif parent.type == "function_type" and parent.child_by_field_name("return_type") == current:
            current, parent = parent, parent.parent
        elif parent.type == "type_annotation" and parent.parent is not None:
            member = parent.parent
            if member.type not in ("property_signature", "method_signature") or member.parent is None:
                return None
            body = member.parent
            if body.type == "interface_body":
                return body.parent if body.parent is not None and body.parent.type in _DECLARATIONS else None
            if body.type != "object_type":
                return None
            current, parent = body, body.parent
        elif parent.type in _DECLARATIONS and parent.child_by_field_name("value") == current:
            return parent
        else:
            return None
    return None


def _arguments(
    ws: Workspace,
    conn: sqlite3.Connection,
    files: TsFiles,
    path: str,
    ts: TsFile,
    parameter: tree_sitter.Node,
) -> list[tuple[str, TsFile, tree_sitter.Node]]:
    """The arguments the project's calls give ``parameter`` (``use(new Map())`` for ``use(s:
    Store)``; ``new Cache(new Map())`` for a constructor's), found through the index's references
    to the function, method or class."""
    params = parameter.parent
    function = params.parent if params is not None and params.type == "formal_parameters" else None
    if params is None or function is None:
        return []
    position = [c.id for c in params.named_children if c.type != "comment"].index(parameter.id)
    name = function.child_by_field_name("name")
    if name is None and function.parent is not None and function.parent.type == "variable_declarator":
        name = function.parent.child_by_field_name("name")  # `const use = (s: Store) => …`
    if name is None:
        return []
    rows = conn.execute(
        "SELECT s.id, s.kind, s.parent_path FROM symbols s JOIN files f ON f.id = s.file_id"
        " WHERE f.path = ? AND s.name_line = ? AND s.name_col = ?",
        (path, name.start_point[0] + 1, ts.column_of(name)),
    ).fetchall()
    ids = []
    for symbol_id, kind, parent_path in rows:
        if kind == "constructor":  # `new Cache(…)` names the class
            ids += [
                o.id for o in query_symbols(conn, "f.path = ? AND s.symbol_path = ?", (path, parent_path))
            ]
        else:
            ids.append(symbol_id)
    found: list[tuple[str, TsFile, tree_sitter.Node]] = []
    for symbol_id in ids:
        for where, where_ts, use in _uses(conn, files, symbol_id):
            argument = _argument(use, position)
            if argument is not None:
                found.append((where, where_ts, argument))
    return found


def _uses(
    conn: sqlite3.Connection, files: TsFiles, symbol_id: int
) -> Iterator[tuple[str, TsFile, tree_sitter.Node]]:
    """The places the index links to a symbol (its definition aside), as nodes of their files."""
    for where, line, col in conn.execute(
        "SELECT f.path, r.line, r.col FROM refs r JOIN files f ON f.id = r.file_id"
        " WHERE r.symbol_id = ? AND r.kind != 'definition'",
        (symbol_id,),
    ).fetchall():
        where_ts = files.get(str(where))
        use = where_ts.node_at(line, col) if where_ts is not None else None
        if where_ts is not None and use is not None:
            yield str(where), where_ts, use


def _properties_given(
    conn: sqlite3.Connection, files: TsFiles, path: str, ts: TsFile, member: tree_sitter.Node
) -> list[tuple[str, TsFile, tree_sitter.Node]]:
    """The values the project gives a property an interface or object type alias declares with
    the type (``resolver: UriResolver``): an object literal's ``resolver: value`` or ``{ resolver
    }`` where the index links the key to it, and ``x.resolver = value``; for a method declared to
    return the type (``make(): UriResolver``), what the literal's function or method returns."""
    method = member.type == "method_signature"
    name = member.child_by_field_name("name")
    if name is None:
        return []
    found: list[tuple[str, TsFile, tree_sitter.Node]] = []
    for (symbol_id,) in conn.execute(
        "SELECT s.id FROM symbols s JOIN files f ON f.id = s.file_id"
        " WHERE f.path = ? AND s.name_line = ? AND s.name_col = ?",
        (path, name.start_point[0] + 1, ts.column_of(name)),
    ).fetchall():
        for where, where_ts, use in _uses(conn, files, symbol_id):
            parent = use.parent
            value: tree_sitter.Node | None = None
            if use.type == "shorthand_property_identifier":
                value = use  # `{ resolver }`: the local of that name
            elif parent is not None and parent.type == "pair" and parent.child_by_field_name("key") == use:
                value = parent.child_by_field_name("value")
            elif (
                parent is not None
                and parent.type == "member_expression"
                and parent.child_by_field_name("property") == use
                and parent.parent is not None
                and parent.parent.type == "assignment_expression"
                and parent.parent.child_by_field_name("left") == parent
            ):
                value = parent.parent.child_by_field_name("right")
            elif method and parent is not None and parent.type == "method_definition":
                value = parent  # `{ make() { return new UriTool(); } }`
            if value is not None and method:
                found += [
                    (where, where_ts, v)
                    for v in _values_given(value if value.type in FUNCTION_NODES else None)
                ]
            elif value is not None:
                found.append((where, where_ts, value))
    return found


# a library container's type parameter that holds the values, and the methods that store them
# (argument index; None: every argument)
_CONTAINERS: dict[bytes, tuple[int, dict[bytes, int | None]]] = {
    b"Map": (1, {b"set": 1}),
    b"WeakMap": (1, {b"set": 1}),
    b"Set": (0, {b"add": 0}),
    b"WeakSet": (0, {b"add": 0}),
    b"Array": (0, {b"push": None, b"unshift": None}),
}


def _stored_in_container(node: tree_sitter.Node) -> list[tree_sitter.Node]:
    """The values stored into a library container whose held type ``node`` names, declared or
    made so (``registry: Map<string, Store>``, ``const registry = new Map<string, Store>()``,
    ``this.f = new Set<Store>()``): the arguments of ``registry.set(k, v)`` / ``.add(v)`` /
    ``.push(v)`` on that variable (or ``this.f`` in its class)."""
    arguments = node.parent
    made = arguments.parent if arguments is not None and arguments.type == "type_arguments" else None
    if arguments is None or made is None or made.type not in ("generic_type", "new_expression"):
        return []
    head = made.child_by_field_name("name" if made.type == "generic_type" else "constructor")
    spec = _CONTAINERS.get(head.text or b"") if head is not None else None
    if spec is None:
        return []
    position, methods = spec
    given = [c for c in arguments.named_children if c.type != "comment"]
    if position >= len(given) or given[position] != node:
        return []
    holder = made.parent
    if made.type == "generic_type":  # `registry: Map<string, Store>`
        holder = holder.parent if holder is not None and holder.type == "type_annotation" else None
    elif holder is not None and holder.type == "assignment_expression":  # `this.f = new Map<…>()`
        left = holder.child_by_field_name("left")
        member = left if left is not None and left.type == "member_expression" else None
        prop = member.child_by_field_name("property") if member is not None else None
        obj = member.child_by_field_name("object") if member is not None else None
        if prop is None or obj is None or obj.type != "this":
            return []
        return _stores(_class_of(holder), prop.text or b"", True, methods)
    return _stored_into(holder, methods) if holder is not None else []


def _pushed(declaration: tree_sitter.Node) -> list[tree_sitter.Node]:
    """What ``all.push(v)`` / ``.unshift(v)`` gives an array variable or field declared of the type."""
    return _stored_into(declaration, _CONTAINERS[b"Array"][1])


def _stored_into(holder: tree_sitter.Node, methods: dict[bytes, int | None]) -> list[tree_sitter.Node]:
    """What the storing ``methods`` called on a variable or field (``holder``, its declaration) give."""
    name = holder.child_by_field_name("name")
    if holder.type not in ("variable_declarator", "public_field_definition") or name is None:
        return []
    field = holder.type == "public_field_definition"
    scope = _class_of(holder) if field else _enclosing_scope(holder)
    return _stores(scope, name.text or b"", field, methods)


def _class_of(node: tree_sitter.Node) -> tree_sitter.Node | None:
    current = node.parent
    while current is not None and current.type != "class_body":
        current = current.parent
    return current


def _stores(
    scope: tree_sitter.Node | None, name: bytes, field: bool, methods: dict[bytes, int | None]
) -> list[tree_sitter.Node]:
    """The arguments ``name.set(k, v)`` (``this.name`` for a field) gives the storing methods."""
    out: list[tree_sitter.Node] = []
    stack = [scope] if scope is not None else []
    while stack:
        current = stack.pop()
        stack.extend(current.named_children)
        if current.type != "call_expression":
            continue
        callee = current.child_by_field_name("function")
        if callee is None or callee.type != "member_expression":
            continue
        method = callee.child_by_field_name("property")
        target = callee.child_by_field_name("object")
        if method is None or target is None or (method.text or b"") not in methods:
            continue
        if not _names(target, name, field):
            continue
        args = current.child_by_field_name("arguments")
        values = [a for a in args.named_children if a.type != "comment"] if args is not None else []
        index = methods[method.text or b""]
        out += values if index is None else values[index : index + 1]
    return out


def _inline_given(member: tree_sitter.Node) -> list[tree_sitter.Node]:
    """The values given to a property of an object type written out where a variable, field or
    function's return is declared (``(): { resolver: UriResolver }``, which no symbol holds): the
    key's value in each object literal given there (``return { resolver: x }``, ``{ resolver }``)."""
    body = member.parent
    annotation = body.parent if body is not None and body.type == "object_type" else None
    declaration = (
        annotation.parent if annotation is not None and annotation.type == "type_annotation" else None
    )
    name = member.child_by_field_name("name")
    if declaration is None or name is None or member.type != "property_signature":
        return []
    out: list[tree_sitter.Node] = []
    for value in _values_given(declaration):
        while value.type in _WRAPPERS and value.named_children:
            value = value.named_children[0]
        if value.type != "object":
            continue
        for entry in value.named_children:
            if entry.type == "shorthand_property_identifier" and entry.text == name.text:
                out.append(entry)
            elif entry.type == "pair":
                key = entry.child_by_field_name("key")
                found = entry.child_by_field_name("value")
                if key is not None and key.text == name.text and found is not None:
                    out.append(found)
    return out


def _element_declaration(node: tree_sitter.Node) -> tree_sitter.Node | None:
    """The variable, field or function declared as an array of the type named by ``node``
    (``UriResolver[]``, ``readonly UriResolver[]``, ``Array<UriResolver>``)."""
    parent = node.parent
    if parent is None:
        return None
    if parent.type == "array_type":
        current = parent
    elif (
        parent.type == "type_arguments" and parent.parent is not None and parent.parent.type == "generic_type"
    ):
        head = parent.parent.child_by_field_name("name")
        if head is None or head.text not in (b"Array", b"ReadonlyArray") or len(parent.named_children) != 1:
            return None
        current = parent.parent
    else:
        return None
    while current.parent is not None and current.parent.type in ("readonly_type", "parenthesized_type"):
        current = current.parent
    annotation = current.parent
    return annotation.parent if annotation is not None and annotation.type == "type_annotation" else None


def _array_elements(value: tree_sitter.Node) -> list[tree_sitter.Node]:
    """The elements an array literal writes out (spread ones aside)."""
    while value.type in _WRAPPERS and value.named_children:
        value = value.named_children[0]
    if value.type != "array":
        return []
    return [e for e in value.named_children if e.type not in ("comment", "spread_element")]


def _argument(use: tree_sitter.Node, position: int) -> tree_sitter.Node | None:
    """The ``position``-th argument of the call or ``new`` whose callee ``use`` names."""
    callee = use
    while callee.parent is not None and callee.parent.type == "member_expression":
        if callee.parent.child_by_field_name("property") != callee:
            return None
        callee = callee.parent
    call = callee.parent
    if call is None or call.type not in ("call_expression", "new_expression"):
        return None
    if call.child_by_field_name("function" if call.type == "call_expression" else "constructor") != callee:
        return None
    arguments = call.child_by_field_name("arguments")
    if arguments is None:
        return None
    given = [a for a in arguments.named_children if a.type != "comment"]
    if any(a.type == "spread_element" for a in given[: position + 1]) or position >= len(given):
        return None
    return given[position]


def _type_uses(conn: sqlite3.Connection, owner: SymbolRow) -> Iterator[tuple[str, int, int]]:
    rows = conn.execute(
        "SELECT f.path, r.line, r.col FROM refs r JOIN files f ON f.id = r.file_id"
        " WHERE r.symbol_id = ? AND f.language != 'python'",
        (owner.id,),
    )
    yield from rows


def _declaration(node: tree_sitter.Node) -> tree_sitter.Node | None:
    """The variable, field or function whose declared type ``node`` (the owner's name) is (an
    async function's too, declared to return ``Promise<Store>``)."""
    current = node
    promised = False
    if current.type in ("type_identifier", "identifier", "nested_type_identifier"):
        parent = current.parent
        while parent is not None and (parent.type in _TYPE_WRAPPERS or parent.type == "type_arguments"):
            if parent.type == "type_arguments":
                generic = parent.parent
                head = generic.child_by_field_name("name") if generic is not None else None
                if (
                    generic is None
                    or promised
                    or head is None
                    or head.text not in _PROMISES
                    or len(parent.named_children) != 1
                ):
                    return None
                promised = True  # `Promise<Store>`: what an async function returns is a Store
                current, parent = generic, generic.parent
                continue
            # `Array<Store>` holds Stores: only the generic's own name is the type
            elif (
                parent.type == "generic_type"
                and parent.child_by_field_name("name") != current
                and not promised
            ):
                return None
            current, parent = parent, parent.parent
        if parent is None or parent.type != "type_annotation":
            return None
        declaration = parent.parent
        if promised and (declaration is None or not _is_async(declaration)):
            return None
        return declaration
    return None


_PROMISES = (b"Promise", b"PromiseLike")


def _is_async(node: tree_sitter.Node) -> bool:
    """Whether ``node`` is a function declared ``async``."""
    return node.type in FUNCTION_NODES and any(c.type == "async" for c in node.children)


def _values_given(declaration: tree_sitter.Node | None) -> Iterator[tree_sitter.Node]:
    if declaration is None:
        return
    if declaration.type in _PARAMETERS:
        value = declaration.child_by_field_name("value")
        if value is not None:
            yield value  # `(r: Store = new Map())`
        return
    if declaration.type in ("variable_declarator", "public_field_definition"):
        value = declaration.child_by_field_name("value")
        if value is not None:
            yield value
        name = declaration.child_by_field_name("name")
        if name is None:
            return
        field = declaration.type == "public_field_definition"
        scope = declaration.parent if field else _enclosing_scope(declaration)
        yield from _assigned(scope, name.text or b"", field)
    elif declaration.type in FUNCTION_NODES:
        body = declaration.child_by_field_name("body")
        if body is not None and body.type != "statement_block":
            yield body  # `(): Store => new Map()`
        elif body is not None:
            yield from _returned(body)


def _enclosing_scope(node: tree_sitter.Node) -> tree_sitter.Node | None:
    current = node.parent
    while current is not None and current.type not in ("statement_block", "program", *FUNCTION_NODES):
        current = current.parent
    return current


def _assigned(scope: tree_sitter.Node | None, name: bytes, field: bool) -> Iterator[tree_sitter.Node]:
    """Right-hand sides of ``name = …`` (``this.name = …`` for a field) within ``scope``."""
    if scope is None:
        return
    stack = [scope]
    while stack:
        node = stack.pop()
        if node.type == "assignment_expression":
            left = node.child_by_field_name("left")
            right = node.child_by_field_name("right")
            if left is not None and right is not None and _names(left, name, field):
                yield right
        stack.extend(node.named_children)


def _names(left: tree_sitter.Node, name: bytes, field: bool) -> bool:
    if not field:
        return left.type == "identifier" and left.text == name
    if left.type != "member_expression":
        return False
    obj, prop = left.child_by_field_name("object"), left.child_by_field_name("property")
    return obj is not None and obj.type == "this" and prop is not None and prop.text == name


def _returned(body: tree_sitter.Node) -> Iterator[tree_sitter.Node]:
    stack = list(body.named_children)
    while stack:
        node = stack.pop()
        if node.type in FUNCTION_NODES or node.type == "class_body":
            continue
        if node.type == "return_statement" and node.named_children:
            yield node.named_children[0]
            continue
        stack.extend(node.named_children)


def _outside_type(
    conn: sqlite3.Connection,
    path: str,
    ts: TsFile,
    value: tree_sitter.Node,
    hops: int = 0,
    globals_only: bool = False,
    files: TsFiles | None = None,
) -> str | None:
    """The outside type ``value`` is made of: ``Map`` for ``new Map<…>()`` of a class no project
    declaration binds, ``Array`` for an array literal, ``JSON`` / ``window.localStorage`` for a
    standard global object; of either side of ``a || b`` / ``a ?? b`` and either branch of a
    conditional, and of what a local ``const`` was declared with (an imported one's too, in the
    module exporting it: ``import tool from "./tool"`` of ``export default new UriTool() as Tool``);
    None otherwise. With ``globals_only``, only a standard global object counts."""
    while value.type in _WRAPPERS and value.named_children:
        value = value.named_children[0]
    if value.type == "array":
        return None if globals_only else "Array"
    sides: list[tree_sitter.Node | None] = []
    if value.type == "binary_expression":
        operator = value.child_by_field_name("operator")
        if operator is not None and operator.type in _DEFAULTS:
            sides = [value.child_by_field_name("left"), value.child_by_field_name("right")]
    elif value.type == "ternary_expression":
        sides = [value.child_by_field_name("consequence"), value.child_by_field_name("alternative")]
    for side in sides:
        found = _outside_type(conn, path, ts, side, hops, globals_only, files) if side is not None else None
        if found is not None:
            return found
    if value.type in ("identifier", "member_expression", "shorthand_property_identifier"):
        return _global_value(conn, path, ts, value, hops, globals_only, files)
    if value.type != "new_expression" or globals_only:
        return None
    made = value.child_by_field_name("constructor")
    if made is None or made.type not in ("identifier", "member_expression"):
        return None
    head = _head(made)
    if head is None:
        return None
    name = (head.text or b"").decode("utf-8")
    if any(name in ts.declared(scope) for scope in ts.chain(head) if scope.type != "program"):
        return None  # `const F: any = inst.constructor; new F()`: a local, of no known type
    # `new Map()` of no project binding; `new z.ZodError()` through a namespace import of the
    # project's own package names a project class by its last name
    last = made.child_by_field_name("property") if made.type == "member_expression" else None
    for named in (head, last):
        if named is None:
            continue
        linked = conn.execute(
            "SELECT 1 FROM refs r JOIN files f ON f.id = r.file_id"
            " WHERE f.path = ? AND r.line = ? AND r.col = ? AND r.symbol_id IS NOT NULL LIMIT 1",
            (path, named.start_point[0] + 1, ts.column_of(named)),
        ).fetchone()
        if linked is not None:
            return None
    if query_symbols(conn, "f.path = ? AND s.name = ? AND s.parent_path IS NULL", (path, name)):
        return None  # declared in the file itself
    return (made.text or b"").decode("utf-8")


def _head(node: tree_sitter.Node) -> tree_sitter.Node | None:
    """The identifier a (dotted) name starts with: ``window`` of ``window.localStorage``."""
    while node.type == "member_expression":
        inner = node.child_by_field_name("object")
        if inner is None:
            return None
        node = inner
    return node if node.type in ("identifier", "shorthand_property_identifier") else None


def _global_value(
    conn: sqlite3.Connection,
    path: str,
    ts: TsFile,
    value: tree_sitter.Node,
    hops: int,
    globals_only: bool,
    files: TsFiles | None = None,
) -> str | None:
    """``JSON``, ``window.localStorage``: a standard global object (or a member of one) no project
    declaration binds; for a local variable, what it was declared with (``const p = c.p || JSON``)."""
    head = _head(value)
    if head is None:
        return None
    name = (head.text or b"").decode("utf-8")
    declared = [scope for scope in ts.chain(head) if name in ts.declared(scope)]
    if declared:
        if value.type not in ("identifier", "shorthand_property_identifier") or hops >= _HOPS:
            return None
        initial = _declared_with(declared[0], name)
        if initial is None and declared[0].type == "program" and files is not None:
            imported = _imported_value(conn, files, path, ts, name)
            if imported is not None:
                where, where_ts, exported = imported
                return _outside_type(conn, where, where_ts, exported, hops + 1, globals_only, files)
        return (
            _outside_type(conn, path, ts, initial, hops + 1, globals_only, files)
            if initial is not None
            else None
        )
    if name not in _GLOBAL_VALUES:
        return None
    if query_symbols(conn, "f.path = ? AND s.name = ? AND s.parent_path IS NULL", (path, name)):
        return None  # declared in the file itself
    return (value.text or b"").decode("utf-8")


def _imported_value(
    conn: sqlite3.Connection, files: TsFiles, path: str, ts: TsFile, local: str
) -> tuple[str, TsFile, tree_sitter.Node] | None:
    """What the project module ``path`` imports as ``local`` was declared with there: its default
    export (``export default tool`` of ``const tool = …``, or the value exported), or the named
    export's ``const`` (not a namespace import: a module object)."""
    if any(
        part.type == "namespace_import" and any(c.text == local.encode("utf-8") for c in part.named_children)
        for statement in ts.tree.root_node.named_children
        if statement.type == "import_statement"
        for clause in statement.named_children
        if clause.type == "import_clause"
        for part in clause.named_children
    ):
        return None
    found = conn.execute(
        "SELECT i.name, i.resolved_path FROM imports i JOIN files f ON f.id = i.file_id WHERE f.path = ?"
        " AND i.kind = 'import' AND COALESCE(i.alias, i.name) = ? AND i.resolved_path IS NOT NULL",
        (path, local),
    ).fetchone()
    target = files.get(str(found[1])) if found is not None else None
    if found is None or target is None:
        return None
    program = target.tree.root_node
    name = found[0]
    if name is not None and name != "default":
        value = _declared_with(program, str(name))
        return (str(found[1]), target, value) if value is not None else None
    for statement in program.named_children:
        if statement.type != "export_statement" or not any(c.type == "default" for c in statement.children):
            continue
        value = statement.child_by_field_name("value") or next(
            (c for c in statement.named_children if c.type != "comment"), None
        )
        if value is not None and value.type == "identifier":
            value = _declared_with(program, (value.text or b"").decode("utf-8"))
        return (str(found[1]), target, value) if value is not None else None
    return None


def _declared_with(scope: tree_sitter.Node, name: str) -> tree_sitter.Node | None:
    """The value a ``const``/``let``/``var`` declarator directly in ``scope`` gives ``name``."""
    for child in scope.named_children:
        if child.type == "export_statement":
            child = child.child_by_field_name("declaration") or child
        if child.type not in ("lexical_declaration", "variable_declaration"):
            continue
        for declarator in child.named_children:
            if declarator.type != "variable_declarator":
                continue
            named = declarator.child_by_field_name("name")
            if named is not None and named.type == "identifier" and named.text == name.encode("utf-8"):
                return declarator.child_by_field_name("value")
    return None


def _declared_outside(declaration: tree_sitter.Node | None) -> set[str]:
    """The alternatives of a declared union that are outside types by name (``Subscription[] |
    Subscription``: ``Array``; ``Map<K, V> | Store``: ``Map``): a value of one of those fits it,
    not the project type."""
    if declaration is None:
        return set()
    annotation = declaration.child_by_field_name("type") or declaration.child_by_field_name("return_type")
    pending = [c for c in annotation.named_children] if annotation is not None else []
    found: set[str] = set()
    while pending:
        node = pending.pop()
        if node.type in ("union_type", "parenthesized_type"):
            pending.extend(node.named_children)
        elif node.type in ("array_type", "tuple_type", "readonly_type"):
            found.add("Array")
        elif node.type == "generic_type":
            head = node.child_by_field_name("name")
            name = (head.text or b"").decode("utf-8") if head is not None else ""
            found.add("Array" if name in ("Array", "ReadonlyArray") else name)
        elif node.type == "type_identifier":
            found.add((node.text or b"").decode("utf-8"))
    return found
