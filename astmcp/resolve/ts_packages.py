"""Installed packages' type declarations (``node_modules``): their ``.d.ts`` texts, and what a
generic class or interface of theirs gives back of its type arguments.

``store: Store<State>`` (``Store`` from ``@tanstack/store``) holds a project type: the package
declares ``get state(): T`` and ``setState(updater: (prev: T) => T)``, so ``store.state.count``
reads ``State.count`` and a key of the object ``setState``'s callback returns is one of
``State``'s. :func:`package_member` reads such a member's declared type where it is exactly a type
parameter of its class (or a function type whose parameters or return are), and whether the member
mentions the type parameters at all. Anything it cannot read for certain is ``None``: the package is
not installed, the type is declared under that name more than once and differently (or as
something other than one class or interface), or its body does not declare the member (it may
inherit it). :func:`package_function` reads a generic function alike (``useRef<T>(initialValue:
T): RefObject<T>``), when every overload of it reads the same.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from tree_sitter import Node, Tree

from astmcp.lang.ts_parse import parse_bytes

__all__ = [
    "FunctionOverload",
    "PackageConstructor",
    "PackageFunction",
    "PackageMember",
    "TypeRef",
    "declarations",
    "installed_fingerprint",
    "keyof_part",
    "own_package_names",
    "package_constructor",
    "package_function",
    "package_member",
    "package_name",
    "package_overloads",
    "package_parameter_closed",
    "package_shape_members",
    "package_shapes",
    "package_type_names",
    "package_value_names",
    "project_root",
    "qualified_spec",
]

_MAX_FILES = 2_000
_MAX_BYTES = 20_000_000
_TYPES = ("class_declaration", "abstract_class_declaration", "interface_declaration")
_OTHER_DECLARATIONS = ("type_alias_declaration", "enum_declaration", "function_signature")
_MEMBERS = (
    "public_field_definition",
    "property_signature",
    "method_signature",
    "abstract_method_signature",
    "method_definition",
)

# a callback parameter's declared type: its parameters' and its return's type-parameter indices
Callback = tuple[tuple[int | None, ...], int | None]


# a declared type as far as it is read: ("p", k) type parameter k; ("g", name, arguments) a
# generic type of the same package given them (`RefObject<T>`); ("t", parts) a tuple type; ("r",
# element) an array type (`T[]`); `| null`, `| undefined` left out
TypeRef = tuple[object, ...]


@dataclass(frozen=True)
class PackageFunction:
    """A package's generic function (every overload reads alike, ``null``/``undefined`` aside)."""

    tparams: int  # how many type parameters it declares
    params: tuple[TypeRef | None, ...]  # per parameter: its declared type
    callbacks: tuple[Callback | None, ...]  # per parameter: a function type's parameters and return
    returns: TypeRef | None


@dataclass(frozen=True)
class FunctionOverload:
    """One declaration of a package's overloaded function, with how many arguments it takes."""

    function: PackageFunction
    least: int
    most: int | None  # (None: a rest parameter takes any number)


@dataclass(frozen=True)
class Overload:
    """One constructor signature of a package's class."""

    params: tuple[TypeRef | None, ...]  # per parameter: its declared type
    functions: tuple[bool, ...]  # per parameter: whether it takes a function
    least: int  # how many arguments it needs
    most: int | None  # how many it takes (None: a rest parameter)


@dataclass(frozen=True)
class PackageConstructor:
    """The constructor overloads of a package's generic class."""

    tparams: int
    overloads: tuple[Overload, ...]


@dataclass(frozen=True)
class PackageMember:
    """A member of a package's generic class or interface, with type parameters numbered in the
    order the type declares them."""

    method: bool  # a method, or a property declared with a function type
    value: int | None  # a property or getter declared as type parameter k
    returns: int | None  # a method returning type parameter k
    callbacks: tuple[Callback | None, ...]  # per parameter: a function type's, else None
    generic: bool  # whether its declaration names the type's type parameters at all
    # per parameter: k when it takes the names of type parameter k's members (`keyof T`, a type
    # parameter constrained by it: `on<E extends keyof TEventMap & string>(name: E)`), else None
    keys: tuple[int | None, ...] = ()


def project_root(conn: sqlite3.Connection) -> Path | None:
    """The project an index belongs to: its database lives in ``<root>/.astmcp/``."""
    for _seq, name, file in conn.execute("PRAGMA database_list"):
        if name == "main" and file:
            return Path(file).parent.parent
    return None


def package_name(spec: str) -> str:
    """The package a module specifier is in (``react/jsx-runtime`` -> ``react``, ``@a/b/c`` ->
    ``@a/b``)."""
    parts = spec.split("/")
    return "/".join(parts[:2]) if spec.startswith("@") else parts[0]


_FOUND: dict[tuple[str, str], tuple[str, ...]] = {}


def declarations(root: str, package: str) -> tuple[str, ...]:
    """The ``.d.ts`` texts of ``package`` and ``@types/<package>`` in the nearest
    ``node_modules`` folders above ``root`` (bounded); kept once found (a package installed
    later is looked up again)."""
    key = (root, package)
    if key not in _FOUND:
        texts = _read_declarations(root, package)
        if not texts:
            return texts
        if len(_FOUND) > 64:
            _FOUND.clear()
        _FOUND[key] = texts
    return _FOUND[key]


def _read_declarations(root: str, package: str) -> tuple[str, ...]:
    typed = package[1:].replace("/", "__") if package.startswith("@") else package
    texts: list[str] = []
    size = 0
    for folder in (Path(root), *Path(root).parents):
        modules = folder / "node_modules"
        for directory in (modules / package, modules / "@types" / typed):
            if not directory.is_dir():
                continue
            for path in sorted(directory.rglob("*.d.*ts")):
                if "node_modules" in path.relative_to(directory).parts or len(texts) >= _MAX_FILES:
                    continue
                try:
                    text = path.read_text(encoding="utf-8", errors="replace")
                except OSError:
                    continue
                size += len(text)
                if size > _MAX_BYTES:
                    break
                texts.append(text)
        if texts:
            break
    return tuple(texts)


# a value a declaration file may export: `export declare function f`, `const c`, `class K`, … (any
# nesting: an ambient namespace's members are its exports)
_VALUE_DECLARATION = re.compile(r"\b(?:function\*?|const|let|var|class|enum|namespace)\s+([A-Za-z_$][\w$]*)")
_EXPORT_LIST = re.compile(r"\bexport\s+(?:type\s+)?\{([^}]*)\}")
_VALUES: dict[tuple[str, str], frozenset[str] | None] = {}


def package_value_names(root: str, spec: str) -> frozenset[str] | None:
    """The names of the values the module ``spec`` may export (what ``import * as ns from spec``
    may have), over-read: every function, variable, class, enum and namespace any of the package's
    declaration files declares, and every name an export list gives; None when the package is not
    installed."""
    package = package_name(spec)
    key = (root, package)
    if key not in _VALUES:
        if len(_VALUES) > 64:
            _VALUES.clear()
        texts = declarations(root, package)
        names: set[str] = set()
        for text in texts:
            names.update(_VALUE_DECLARATION.findall(text))
            for listed in _EXPORT_LIST.findall(text):
                for item in listed.split(","):
                    words = item.split()
                    if words:
                        names.add(words[-1])  # (`a as b` exports b)
        _VALUES[key] = frozenset(names) if texts else None
    return _VALUES[key]


_READ: dict[tuple[str, str, str, str], object] = {}

# what package managers rewrite in `node_modules` on every install, and their lockfiles beside it
_INSTALL_RECORDS = (".package-lock.json", ".modules.yaml", ".yarn-state.yml", ".yarn-integrity")
_LOCKFILES = (
    "package-lock.json",
    "npm-shrinkwrap.json",
    "yarn.lock",
    "pnpm-lock.yaml",
    "bun.lock",
    "bun.lockb",
)
_INSTALLED: dict[str, str] = {}  # project root -> its last fingerprint


def installed_fingerprint(root: Path) -> str:
    """A digest of the packages :func:`declarations` reads for a project: each ``node_modules``
    folder at its root or above, the packages in it (each folder's stamp: a reinstall replaces
    it), the package managers' install records in it and the lockfiles beside it. Facts the index
    drew from their declarations are stale when it changes; so are the declarations kept here for
    every project, which are dropped then (a package installed or upgraded while a server runs is
    read from then on). Empty when no ``node_modules`` folder is there."""
    parts: list[str] = []
    for folder in (root, *root.parents):
        modules = folder / "node_modules"
        try:
            entries = sorted(os.scandir(modules), key=lambda e: e.name)
        except OSError:
            continue
        parts.append(str(modules))
        for entry in entries:
            if entry.name.startswith("."):
                if entry.name in _INSTALL_RECORDS:
                    parts.append(f"{entry.name}\0{_stamp(entry.path)}")
                continue
            parts.append(f"{entry.name}\0{_stamp(entry.path)}")
            if entry.name.startswith("@"):  # a scope: its packages
                try:
                    scoped = sorted(os.scandir(entry.path), key=lambda e: e.name)
                except OSError:
                    continue
                parts.extend(f"{entry.name}/{inner.name}\0{_stamp(inner.path)}" for inner in scoped)
        parts.extend(f"{name}\0{_stamp(str(folder / name))}" for name in _LOCKFILES)
    found = hashlib.sha256("\n".join(parts).encode("utf-8", "surrogateescape")).hexdigest() if parts else ""
    key = str(root)
    if _INSTALLED.get(key, found) != found:
        _FOUND.clear()
        _READ.clear()
    _INSTALLED[key] = found
    return found


def _stamp(path: str) -> int:
    """A file's or folder's modification time (0 when it is not there)."""
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return 0


def _read(root: str, qualified: str, kind: str) -> object:
    """What the package named at the front of ``qualified`` declares under its last name, read as
    ``"type"`` (:func:`_type_members`), ``"shape"`` (:func:`_type_shape`), ``"constructor"`` (:func:`_constructor`) or
    ``"function"`` (:func:`_function`); kept once read."""
    head, _, name = qualified.rpartition(".")
    package = _export_assigned(root, head)  # `React.useRef` of `import React from "react"`
    if not package or not name:
        return None
    key = (root, package, name, kind)
    if key not in _READ:
        if len(_READ) > 512:
            _READ.clear()
        texts = declarations(root, package_name(package))
        _READ[key] = (
            _type_members(texts, name)
            if kind == "type"
            else _type_shape(texts, name, 0)
            if kind == "shape"
            else _constructor(texts, name)
            if kind == "constructor"
            else _overloads(texts, name)
            if kind == "overloads"
            else _function(texts, name)
        )
    return _READ[key]


def package_type_names(root: str, qualified: str) -> frozenset[str] | None:
    """Every member name an instance of the class or interface ``qualified`` has: its own (static
    ones aside) and those of the bases it extends in the same package; None when the package is not
    installed or one of them is not a class or interface read here."""
    found = _read(root, qualified, "shape")
    return found[0] if isinstance(found, tuple) else None


def package_type_shape(root: str, qualified: str) -> tuple[frozenset[str], frozenset[str]] | None:
    """As :func:`package_type_names`, with the names an instance must have (its members not
    declared optional with ``?``): ``(names, required)``; None also when the type or a base it
    extends declares an index signature (``[key: string]: T``: any member may be there)."""
    found = _read(root, qualified, "shape")
    return found[:2] if isinstance(found, tuple) and not found[2] else None


_Shape = tuple[frozenset[str], frozenset[str], bool]  # names, required names, an index signature


def _type_shape(texts: tuple[str, ...], name: str, depth: int) -> _Shape | None:
    """The public instance members of the class or interface ``name`` and of the bases it extends
    in the same package (see :data:`_Shape`); None when one of them is not read here."""
    if depth > 8:
        return None
    names: set[str] = set()
    required: set[str] = set()
    indexed = False
    found = False
    for node in _class_declarations(texts, name):
        if node is None or node.type not in _TYPES:
            return None
        own = _public_names(node)
        if own is None:
            return None
        found = True
        names.update(own)
        required.update(own - _optional_names(node))
        body = node.child_by_field_name("body")
        indexed = indexed or (
            body is not None and any(c.type == "index_signature" for c in body.named_children)
        )
        bases = _heritage(node)
        if bases is None:
            return None
        for base, _ in bases:
            inherited = _type_shape(texts, base, depth + 1)
            if inherited is None:
                return None
            names.update(inherited[0])
            required.update(inherited[1])
            indexed = indexed or inherited[2]
    return (frozenset(names), frozenset(required), indexed) if found else None


def _optional_names(node: Node) -> set[str]:
    """The names of a class or interface declaration's members declared optional (``x?: T``)."""
    body = node.child_by_field_name("body")
    out: set[str] = set()
    for child in body.named_children if body is not None else ():
        name = child.child_by_field_name("name")
        if child.type in _MEMBERS and name is not None and any(c.type == "?" for c in child.children):
            out.add(_text(name))
    return out


def _public_names(node: Node) -> set[str] | None:
    """The names of a class or interface declaration's public instance members."""
    body = node.child_by_field_name("body")
    if body is None:
        return None
    out: set[str] = set()
    for child in body.named_children:
        if child.type not in _MEMBERS or any(c.type == "static" for c in child.children):
            continue
        hidden = any(c.type == "accessibility_modifier" and _text(c) != "public" for c in child.children)
        name = child.child_by_field_name("name")
        if (
            not hidden
            and name is not None
            and name.type == "property_identifier"
            and _text(name) != "constructor"
        ):
            out.add(_text(name))
    return out


def package_member(root: str, qualified: str, member: str) -> PackageMember | None:
    """``member`` of the class or interface ``qualified`` (``@tanstack/store.Store``: the
    package, then the type's name) as the package's declarations give it; None when not known
    (see the module's docstring)."""
    members = _read(root, qualified, "type")
    return members.get(member) if isinstance(members, dict) else None


def package_function(root: str, qualified: str) -> PackageFunction | None:
    """The function ``qualified`` (``react.useRef``: the package, then the function's name) as the
    package's declarations give it: None when not installed, not declared as functions only, or
    when its overloads read differently."""
    found = _read(root, qualified, "function")
    return found if isinstance(found, PackageFunction) else None


def package_overloads(root: str, qualified: str) -> tuple[FunctionOverload, ...] | None:
    """Each declaration of the function ``qualified`` in the order written (the order TypeScript
    tries them in): None when not installed or not declared as functions only."""
    found = _read(root, qualified, "overloads")
    return found if isinstance(found, tuple) else None


def _overloads(texts: tuple[str, ...], name: str) -> tuple[FunctionOverload, ...] | None:
    out: list[FunctionOverload] = []
    for node in _declared_as(texts, name):
        if node.type not in ("function_signature", "function_declaration"):
            return None
        tparams = _names(node.child_by_field_name("type_parameters"))
        _, callbacks = _signature(node, tparams, hides=False)
        params = _parameters(node.child_by_field_name("parameters"))
        types = tuple(
            None if _rest(p) else _ref(p.child_by_field_name("type"), tparams, taken=True) for p in params
        )
        ref = _ref(node.child_by_field_name("return_type"), tparams)
        least = sum(1 for p in params if p.type == "required_parameter" and not _rest(p))
        most = None if any(_rest(p) for p in params) else len(params)
        out.append(FunctionOverload(PackageFunction(len(tparams), types, callbacks, ref), least, most))
    return tuple(out) or None


def package_constructor(root: str, qualified: str) -> PackageConstructor | None:
    """The constructors of the class ``qualified`` (``@tanstack/store.Store``) as the package's
    declarations give them, over the class's type parameters (``constructor(initialValue: T)`` of
    ``class Store<T>``): None when not installed, not declared as one class, or declaring no
    constructor of its own (it may inherit one)."""
    found = _read(root, qualified, "constructor")
    return found if isinstance(found, PackageConstructor) else None


def _constructor(texts: tuple[str, ...], name: str) -> PackageConstructor | None:
    found: set[PackageConstructor] = set()
    for node in _class_declarations(texts, name):
        if node is None:
            return None
        if node.type not in ("class_declaration", "abstract_class_declaration"):
            return None  # also an interface, a function or a variable of that name
        tparams = _names(node.child_by_field_name("type_parameters"))
        body = node.child_by_field_name("body")
        overloads: list[Overload] = []
        for member in body.named_children if body is not None else ():
            name_node = member.child_by_field_name("name")
            if (
                member.type not in ("method_signature", "method_definition")
                or name_node is None
                or _text(name_node) != "constructor"
            ):
                continue
            params = _parameters(member.child_by_field_name("parameters"))
            types = tuple(
                None if _rest(param) else _ref(param.child_by_field_name("type"), tparams) for param in params
            )
            functions = tuple(_is_function_type(param.child_by_field_name("type")) for param in params)
            least = sum(1 for param in params if param.type == "required_parameter" and not _rest(param))
            most = None if any(_rest(param) for param in params) else len(params)
            overloads.append(Overload(types, functions, least, most))
        if overloads:
            found.add(PackageConstructor(len(tparams), tuple(overloads)))
    return found.pop() if len(found) == 1 else None


def _rest(param: Node) -> bool:
    return any(c.type == "rest_pattern" for c in param.named_children)


def _is_function_type(node: Node | None) -> bool:
    """Whether a parameter's declared type is a function type (a union with one included)."""
    node = _unwrapped(node)
    if node is None:
        return False
    if node.type == "union_type":
        return any(_is_function_type(part) for part in _union_parts(node))
    return node.type in ("function_type", "constructor_type")


def _function(texts: tuple[str, ...], name: str) -> PackageFunction | None:
    overloads = _overloads(texts, name)  # (None also: a type, a class or a variable of that name)
    found = {o.function for o in overloads or ()}
    if len(found) <= 1:
        return found.pop() if found else None
    # overloads that differ in their parameters only (`useState<S>(initial: S | (() => S))` and
    # `useState<S>()`): what a call returns is known; what its callbacks take is not; an argument
    # k is read only as the one type every overload declaring a parameter k gives it (an overload
    # without one is never the one a call passing it picks)
    first = next(iter(found))
    if any(f.tparams != first.tparams or f.returns != first.returns for f in found):
        return None
    params: list[TypeRef | None] = []
    for k in range(max(len(f.params) for f in found)):
        refs = {f.params[k] for f in found if k < len(f.params)}
        params.append(refs.pop() if len(refs) == 1 else None)
    return PackageFunction(first.tparams, tuple(params), (), first.returns)


def _ref(node: Node | None, tparams: tuple[str, ...], depth: int = 0, taken: bool = False) -> TypeRef | None:
    """A declared type as a :data:`TypeRef`, None when it is anything else (``taken``: a
    parameter's, where the function types of a union are left out as well: an object literal
    given for ``S | (() => S)`` is an S)."""
    node = _unwrapped(node)
    if node is None or depth > 8:
        return None
    if node.type == "union_type":
        parts = [p for p in _union_parts(node) if _text(p) not in ("null", "undefined")]
        if taken and any(p.type != "function_type" for p in parts):
            parts = [p for p in parts if p.type != "function_type"]
        return _ref(parts[0], tparams, depth + 1) if len(parts) == 1 else None
    if node.type == "type_identifier":
        index = _index(node, tparams)
        return ("p", index) if index is not None else None
    if node.type == "array_type":  # `items: T[]`: an array of what T is bound to
        inner = _ref(node.named_children[0] if node.named_children else None, tparams, depth + 1)
        return ("r", inner) if inner is not None else None
    if node.type == "readonly_type":  # `readonly T[]`
        return _ref(node.named_children[0] if node.named_children else None, tparams, depth + 1, taken)
    if node.type == "tuple_type":  # `[S, Dispatch<S>]`
        return ("t", tuple(_ref(part, tparams, depth + 1) for part in node.named_children))
    if node.type == "generic_type":
        head, args = node.child_by_field_name("name"), node.child_by_field_name("type_arguments")
        if head is None or head.type != "type_identifier" or args is None or _text(head) in tparams:
            return None
        given = tuple(_ref(arg, tparams, depth + 1) for arg in args.named_children)
        if _text(head) == "Readonly" and len(given) == 1:
            return given[0]
        return ("g", _text(head), given)
    return None


def _union_parts(node: Node) -> list[Node]:
    parts: list[Node] = []
    for child in node.named_children:
        child = _unwrapped(child) or child
        parts.extend(_union_parts(child) if child.type == "union_type" else [child])
    return parts


def _export_assigned(root: str, package: str) -> str:
    """``react`` for ``react.default``, the default import of a package whose declarations assign
    its exports (``export = React``: the default import is the namespace); else as given."""
    if package.endswith(".default"):
        given = package.removesuffix(".default")
        if any(_EXPORT_ASSIGNED.search(text) for text in declarations(root, package_name(given))):
            return given
    return package


_EXPORT_ASSIGNED = re.compile(r"^\s*export\s*=", re.MULTILINE)


def _type_members(texts: tuple[str, ...], name: str) -> dict[str, PackageMember] | None:
    """The members of the one class or interface named ``name`` the texts declare (the same
    declaration repeated, as ``.d.ts`` beside ``.d.cts``, counts once)."""
    found: list[dict[str, PackageMember]] = []
    for node in _class_declarations(texts, name):
        if node is None or node.type not in _TYPES:
            return None  # `type Store<T> = …`, `declare function Store`: not read here
        members = _members(node)
        if members is None:
            return None
        if members not in found:
            found.append(members)
    return found[0] if len(found) == 1 else None


def _class_declarations(texts: tuple[str, ...], name: str, depth: int = 0) -> Iterator[Node | None]:
    """The declarations of ``name``, an alias of a class followed (``type X<T> = Impl<T>`` and
    ``declare const X: typeof Impl``, with ``import { X as Impl }`` beside them: a package choosing
    its implementation in one file): those of the aliased name instead, none for an alias of a
    class declared under the same name elsewhere (it is read there). None marks an alias of a name
    not declared (nothing about ``name`` is known then)."""
    for node in _declared_as(texts, name):
        target = _aliased(node)
        if target is None:
            yield node
        elif target != name:
            followed = list(_class_declarations(texts, target, depth + 1)) if depth < 4 else [None]
            yield from followed if followed else [None]


def _aliased(node: Node) -> str | None:
    """The name a declaration is only an alias of (see :func:`_class_declarations`), with the
    file's ``import { Name as Alias }`` undone; None for any other declaration."""
    target: Node | None = None
    if node.type == "type_alias_declaration":
        value = _unwrapped(node.child_by_field_name("value"))
        params = _names(node.child_by_field_name("type_parameters"))
        if value is not None and value.type == "type_identifier" and not params:
            target = value
        elif value is not None and value.type == "generic_type":
            args = value.child_by_field_name("type_arguments")
            given = tuple(_text(a) for a in args.named_children) if args is not None else ()
            head = value.child_by_field_name("name")
            if given == params and head is not None and head.type == "type_identifier":
                target = head
    elif node.type == "variable_declarator":
        declared = _unwrapped(node.child_by_field_name("type"))
        inner = declared.named_children if declared is not None and declared.type == "type_query" else []
        if len(inner) == 1 and inner[0].type == "identifier":
            target = inner[0]
    if target is None:
        return None
    alias = _text(target)
    found = _import_of(node, alias)
    return found[1] if found is not None else alias


def _import_of(node: Node, local: str) -> tuple[str, str] | None:
    """``(specifier, imported name)`` of the named import binding ``local`` in ``node``'s file."""
    file = node
    while file.parent is not None:
        file = file.parent
    for statement in file.named_children:
        if statement.type != "import_statement":
            continue
        source = statement.child_by_field_name("source")
        spec = _text(source).strip("\"'") if source is not None else ""
        for found in _descendants(statement, "import_specifier"):
            imported, alias = found.child_by_field_name("name"), found.child_by_field_name("alias")
            if imported is not None and _text(alias or imported) == local:
                return spec, _text(imported)
    return None


def _descendants(node: Node, kind: str) -> Iterator[Node]:
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == kind:
            yield current
        stack.extend(current.named_children)


def _declared_as(texts: tuple[str, ...], name: str) -> Iterator[Node]:
    """Every declaration of ``name`` in the declaration texts (those not naming it skipped unparsed)."""
    named = re.compile(rf"(?<![\w$.]){re.escape(name)}(?![\w$])")
    for text in texts:
        if named.search(text):
            yield from _declarations_in(text).get(name, ())


_PARSED: dict[str, tuple[Tree, dict[str, list[Node]]]] = {}
_PARSED_LIMIT = 32  # declaration files kept parsed (a package's big index.d.ts is read for many names)


# text -> member -> shapes, each (type name, {member name: its declaration's text})
_SHAPES: dict[str, dict[str, tuple[tuple[str, dict[str, str]], ...]]] = {}


def package_shapes(root: str, package: str, member: str) -> list[tuple[str, frozenset[str]]]:
    """The interfaces, classes and object type aliases the declarations of ``package`` hold that
    declare ``member``, each as (its name, its own member names; bases are not followed)."""
    return [(name, frozenset(members)) for name, members in package_shape_members(root, package, member)]


def package_shape_members(root: str, package: str, member: str) -> list[tuple[str, dict[str, str]]]:
    """As :func:`package_shapes`, each type's own members with the text declaring them
    (``get(key: K): V | undefined;``)."""
    out: list[tuple[str, dict[str, str]]] = []
    for text in declarations(root, package):
        if member not in text:
            continue
        shapes = _SHAPES.get(text)
        if shapes is None:
            if len(_SHAPES) >= _PARSED_LIMIT * 4:
                _SHAPES.clear()
            shapes = _SHAPES[text] = _shapes_in(text)
        out.extend(shapes.get(member, ()))
    return out


def _shapes_in(text: str) -> dict[str, tuple[tuple[str, dict[str, str]], ...]]:
    by_member: dict[str, list[tuple[str, dict[str, str]]]] = {}
    for name, nodes in _declarations_in(text).items():
        for node in nodes:
            members = _shape_members(node)
            for member in members:
                by_member.setdefault(member, []).append((name, members))
    return {member: tuple(found) for member, found in by_member.items()}


def _shape_members(node: Node) -> dict[str, str]:
    """The members a class, interface or object type alias declares itself, by name, each with the
    text declaring it."""
    if node.type in _TYPES:
        body = node.child_by_field_name("body")
    elif node.type == "type_alias_declaration":
        body = node.child_by_field_name("value")
        body = body if body is not None and body.type == "object_type" else None
    else:
        body = None
    members: dict[str, str] = {}
    for child in body.named_children if body is not None else ():
        found = child.child_by_field_name("name") if child.type in _MEMBERS else None
        if found is not None and found.type == "property_identifier":
            members.setdefault(_text(found), " ".join(_text(child).split()))
    return members


def _declarations_in(text: str) -> dict[str, list[Node]]:
    """A declaration file's declarations by name, anywhere in it (namespaces and modules
    included); the most recent files are kept."""
    found = _PARSED.pop(text, None)
    if found is None:
        tree = parse_bytes("package.d.ts", "typescript", text.encode("utf-8"))
        found = (tree, {})  # (the tree is kept with its nodes)
        _declared(tree.root_node, found[1])
        if len(_PARSED) >= _PARSED_LIMIT:
            del _PARSED[next(iter(_PARSED))]
    _PARSED[text] = found  # (most recent last)
    return found[1]


def _declared(node: Node, out: dict[str, list[Node]]) -> None:
    for child in node.named_children:
        if child.type in _TYPES or child.type in _OTHER_DECLARATIONS or child.type == "variable_declarator":
            found = child.child_by_field_name("name")
            if found is not None:
                out.setdefault(_text(found), []).append(child)
            if child.type in _TYPES or child.type == "variable_declarator":
                continue
        _declared(child, out)


def _members(node: Node) -> dict[str, PackageMember] | None:
    tparams = _names(node.child_by_field_name("type_parameters"))
    body = node.child_by_field_name("body")
    if body is None:
        return None
    members: dict[str, PackageMember] = {}
    conflicting: set[str] = set()
    for child in body.named_children:
        if child.type not in _MEMBERS or any(c.type == "static" for c in child.children):
            continue
        name_node = child.child_by_field_name("name")
        if name_node is None or name_node.type != "property_identifier":
            continue  # `[Symbol.iterator]()`, `#private`
        if any(c.type == "set" for c in child.children):
            continue  # a setter: the getter of the name says what reading it gives
        read = _member(child, tparams)
        name = _text(name_node)
        if name in members and members[name] != read:
            conflicting.add(name)  # overloads that differ: which one a call picks is not judged
        members[name] = read
    for name in conflicting:
        members[name] = PackageMember(members[name].method, None, None, (), True)
    return members


def _member(node: Node, tparams: tuple[str, ...]) -> PackageMember:
    own = set(_names(node.child_by_field_name("type_parameters")))
    visible = tuple(t if t not in own else "" for t in tparams)
    generic = _mentions(node, visible)
    if node.type in ("public_field_definition", "property_signature"):
        declared = _unwrapped(node.child_by_field_name("type"))
        if declared is not None and declared.type == "function_type":
            returns, callbacks = _signature(declared, visible)
            return PackageMember(True, None, returns, callbacks, generic)
        return PackageMember(False, _index(declared, visible), None, (), generic)
    if any(c.type == "get" for c in node.children):
        return PackageMember(
            False, _index(node.child_by_field_name("return_type"), visible), None, (), generic
        )
    returns, callbacks = _signature(node, visible)
    return PackageMember(True, None, returns, callbacks, generic, _key_parameters(node, visible))


def _key_parameters(node: Node, tparams: tuple[str, ...]) -> tuple[int | None, ...]:
    """Per parameter of a method, the index of the type parameter whose member names it takes
    (see :attr:`PackageMember.keys`); empty when none does."""
    constraints: dict[str, Node | None] = {}
    own = node.child_by_field_name("type_parameters")
    for param in own.named_children if own is not None else ():
        name = param.child_by_field_name("name")
        if param.type == "type_parameter" and name is not None:
            constraint = param.child_by_field_name("constraint")
            constraints[_text(name)] = constraint.named_children[0] if constraint is not None else None
    out: list[int | None] = []
    for param in _parameters(node.child_by_field_name("parameters")):
        declared = _unwrapped(param.child_by_field_name("type"))
        if declared is not None and declared.type == "type_identifier" and _text(declared) in constraints:
            declared = constraints[_text(declared)]
        out.append(_keys_of(declared, tparams))
    return tuple(out) if any(k is not None for k in out) else ()


def _keys_of(node: Node | None, tparams: tuple[str, ...]) -> int | None:
    """k when ``node`` is ``keyof T`` of type parameter k (see :func:`keyof_part`)."""
    node = _unwrapped(node)
    keys = keyof_part(node) if node is not None else None
    inner = keys.named_children if keys is not None else []
    return _index(inner[0], tparams) if len(inner) == 1 else None


def keyof_part(node: Node) -> Node | None:
    """The ``keyof T`` of ``keyof T`` alone or of ``keyof T & string`` (``string & keyof T``, ``&
    number``, nested, parenthesized): an intersection of one ``keyof`` with primitives holds only
    T's member names; None for any other type."""
    parts: list[Node] = []
    pending = [node]
    while pending:
        part = pending.pop()
        while part.type == "parenthesized_type" and part.named_children:
            part = part.named_children[0]
        if part.type == "intersection_type":
            pending.extend(part.named_children)
        else:
            parts.append(part)
    keys = [p for p in parts if p.type == "index_type_query"]
    others = [p for p in parts if p.type != "index_type_query"]
    if len(keys) != 1 or any(
        p.type != "predefined_type" or _text(p) not in ("string", "number", "symbol") for p in others
    ):
        return None
    return keys[0]


def _signature(
    node: Node, tparams: tuple[str, ...], hides: bool = True
) -> tuple[int | None, tuple[Callback | None, ...]]:
    """What a method or function type returns and its parameters' callback types, as indices of
    ``tparams`` (a method's or function type's own type parameters hide the names they declare,
    unless ``tparams`` are the function's own: ``hides`` False)."""
    own = set(_names(node.child_by_field_name("type_parameters"))) if hides else set()
    visible = tuple(t if t not in own else "" for t in tparams)
    callbacks: list[Callback | None] = []
    params = node.child_by_field_name("parameters")
    for param in _parameters(params):
        declared = _unwrapped(param.child_by_field_name("type"))
        rest = any(c.type == "rest_pattern" for c in param.named_children)
        if declared is None or declared.type != "function_type" or rest:
            callbacks.append(None)
            continue
        inner = set(_names(declared.child_by_field_name("type_parameters")))
        shown = tuple(t if t not in inner else "" for t in visible)
        given = declared.child_by_field_name("parameters")
        indices = tuple(
            None
            if any(c.type == "rest_pattern" for c in p.named_children)
            else _index(p.child_by_field_name("type"), shown)
            for p in _parameters(given)
        )
        callbacks.append((indices, _index(declared.child_by_field_name("return_type"), shown)))
    return _index(node.child_by_field_name("return_type"), visible), tuple(callbacks)


def _parameters(params: Node | None) -> list[Node]:
    """A parameter list's parameters (comments left out)."""
    return [p for p in params.named_children if p.type != "comment"] if params is not None else []


def _index(node: Node | None, tparams: tuple[str, ...]) -> int | None:
    """The index of the type parameter ``node`` is exactly (``T``, ``(T)``, ``Readonly<T>``)."""
    node = _unwrapped(node)
    if node is not None and node.type == "generic_type":
        head, args = node.child_by_field_name("name"), node.child_by_field_name("type_arguments")
        if (
            head is not None
            and _text(head) == "Readonly"
            and args is not None
            and len(args.named_children) == 1
        ):
            node = _unwrapped(args.named_children[0])
    if node is None or node.type != "type_identifier":
        return None
    name = _text(node)
    return tparams.index(name) if name and name in tparams else None


def _unwrapped(node: Node | None) -> Node | None:
    """The type an annotation, parentheses or ``NoInfer<T>`` (T itself, only kept from inference)
    stand for."""
    while node is not None:
        if node.type in ("type_annotation", "parenthesized_type"):
            node = node.named_children[0] if node.named_children else None
        elif (inner := no_infer(node)) is not None:
            node = inner
        else:
            return node
    return node


def no_infer(node: Node) -> Node | None:
    """T of ``NoInfer<T>`` (the lib's intrinsic, or a project's older stand-in for it: each is T
    to whatever reads the type, kept from inferring the function's type parameters), else None."""
    if node.type != "generic_type":
        return None
    head, args = node.child_by_field_name("name"), node.child_by_field_name("type_arguments")
    if head is None or head.text != b"NoInfer" or args is None:
        return None
    given = [a for a in args.named_children if a.type != "comment"]
    return given[0] if len(given) == 1 else None


def _mentions(node: Node, tparams: tuple[str, ...]) -> bool:
    names = {t for t in tparams if t}
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type == "type_identifier" and _text(current) in names:
            return True
        stack.extend(current.named_children)
    return False


def _names(params: Node | None) -> tuple[str, ...]:
    if params is None:
        return ()
    out: list[str] = []
    for param in params.named_children:
        name = param.child_by_field_name("name")
        if param.type == "type_parameter" and name is not None:
            out.append(_text(name))
    return tuple(out)


def _text(node: Node) -> str:
    return node.text.decode("utf-8", "replace") if node.text is not None else ""


# -- parameters of the package's own types -------------------------------------------------------
# (the type a declaration gives a name: the declaration's type parameters bound to type nodes, each
# read in its own package's texts; None for one nothing binds)
@dataclass(frozen=True)
class _Scope:
    texts: tuple[str, ...]
    bound: tuple[tuple[str, tuple[Node, _Scope] | None], ...] = ()

    def binds(self, name: str) -> bool:
        """Whether ``name`` is a type parameter of the declaration read."""
        return any(param == name for param, _ in self.bound)

    def binding(self, name: str) -> tuple[Node, _Scope] | None:
        """What type parameter ``name`` is bound to (None: nothing)."""
        return next((value for param, value in self.bound if param == name), None)


_CLOSED: dict[tuple[str, str, int], bool] = {}
_WRAPPERS = frozenset({"Partial", "Readonly", "Required"})
_DEPTH = 8


def package_parameter_closed(root: str, qualified: str, k: int) -> bool:
    """Whether parameter ``k`` of the package callable ``qualified`` takes, in every declaration of
    it, a type of the packages' own that declares its keys, so that an object literal given there
    is a value of that type (its keys the type's members, never a project type's). The callable is a
    function (``seroval.toCrossJSONStream``), a method of a value the package declares
    (``@tanstack/ai-event-client.aiEventClient.emit``), a method of an instance of its class
    (``pkg.Cls.:.method``) or its class's constructor (``pkg.Cls.:``). Such a type is an interface,
    a class or an object type written out without index signatures or mapped keys (its bases alike),
    a union or intersection of such and primitives, ``Partial``/``Readonly``/``Required`` of one, or a
    member picked from one (``TEventMap[TEvent]`` where every member is such a type); a type parameter
    is one only where a package declaration binds it to one (``class AiEventClient extends
    EventClient<AIDevtoolsEventMap>``), never the callable's own (a call infers those from its
    arguments, project values included)."""
    key = (root, qualified, k)
    if key not in _CLOSED:
        if len(_CLOSED) > 4096:
            _CLOSED.clear()
        found = _callable(root, qualified)
        _CLOSED[key] = bool(found) and all(_parameter_closed(node, scope, k) for node, scope in found or ())
    return _CLOSED[key]


_OWN_DEPTH = 4  # folders below the root searched for the project's own package.json files
_OWN_FOLDERS = 5_000


def own_package_names(root: str) -> frozenset[str]:
    """The names the project's own ``package.json`` files give (``node_modules`` and hidden
    folders aside; bounded): a package may import itself by name, and TypeScript then reads its
    sources, not a copy installed beside them."""
    names: set[str] = set()
    seen = 0
    for folder, dirs, files in os.walk(root):
        depth = os.path.relpath(folder, root).count(os.sep) + (folder != root)
        dirs[:] = (
            [] if depth >= _OWN_DEPTH else [d for d in dirs if d != "node_modules" and not d.startswith(".")]
        )
        seen += 1
        if seen > _OWN_FOLDERS:
            break
        if "package.json" not in files:
            continue
        try:
            data = json.loads(Path(folder, "package.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        name = data.get("name") if isinstance(data, dict) else None
        if isinstance(name, str) and name:
            names.add(name)
    return frozenset(names)


def qualified_spec(qualified: str) -> str:
    """The module specifier a qualified name starts with (``@scope/pkg/sub`` of
    ``@scope/pkg/sub.Client.emit``)."""
    slash = qualified.rfind("/")
    dot = qualified.find(".", slash + 1)
    return qualified[:dot] if dot >= 0 else qualified


def _callable(root: str, qualified: str) -> list[tuple[Node, _Scope]] | None:
    """The declarations (overloads) of a package callable, each with what binds its type's
    type parameters; None when they are not all read."""
    package = qualified_spec(qualified)
    names = qualified[len(package) + 1 :].split(".")
    texts = declarations(root, package_name(package))
    if not texts or not names[0]:
        return None
    scope = _Scope(texts)
    if len(names) == 1:  # a function
        found = list(_declared_as(texts, names[0]))
        if not found or any(n.type not in ("function_signature", "function_declaration") for n in found):
            return None
        return [(n, scope) for n in found]
    if names[1:] == [":"]:  # a class's constructor
        return _members_of(root, names[0], (), scope, "constructor", 0)
    if len(names) == 3 and names[1] == ":":  # a method of an instance of a class
        return _members_of(root, names[0], (), scope, names[2], 0)
    if len(names) == 2:  # a method of a value the package declares (`declare const client: Client`)
        values = list(_declared_as(texts, names[0]))
        types = {_text(v.child_by_field_name("type") or v) for v in values}
        if not values or any(v.type != "variable_declarator" for v in values) or len(types) != 1:
            return None  # (the same declaration in `.d.ts` and `.d.cts` counts once)
        declared = _unwrapped(values[0].child_by_field_name("type"))
        head, args = _type_head(declared)
        given = tuple((arg, scope) for arg in args)
        return _members_of(root, head, given, scope, names[1], 0) if head else None
    return None


def _type_head(node: Node | None) -> tuple[str, tuple[Node, ...]]:
    """The name and type arguments of a type reference (``Client<Map>``); ("", ()) for anything
    else."""
    if node is not None and node.type == "type_identifier":
        return _text(node), ()
    if node is not None and node.type == "generic_type":
        head, args = node.child_by_field_name("name"), node.child_by_field_name("type_arguments")
        if head is not None and head.type == "type_identifier":
            return _text(head), tuple(args.named_children) if args is not None else ()
    return "", ()


def _members_of(
    root: str,
    name: str,
    args: tuple[tuple[Node, _Scope] | None, ...],
    scope: _Scope,
    member: str,
    depth: int,
) -> list[tuple[Node, _Scope]] | None:
    """The declarations of method ``member`` (``constructor`` too) of the class or interface
    ``name``, read in ``scope``'s texts and given type arguments ``args``: its own, else those of
    the bases declaring it (a base imported from another package is read there); None when not
    all are read."""
    if depth > _DEPTH:
        return None
    decls = list(_class_declarations(scope.texts, name))
    if not decls or any(d is None or d.type not in _TYPES for d in decls):
        return None
    out: list[tuple[Node, _Scope]] = []
    for decl in decls:
        assert decl is not None
        tparams = decl.child_by_field_name("type_parameters")
        bound: list[tuple[str, tuple[Node, _Scope] | None]] = []
        params = [p for p in tparams.named_children if p.type == "type_parameter"] if tparams else []
        for index, param in enumerate(params):
            given: tuple[Node, _Scope] | None = args[index] if index < len(args) else None
            default = param.child_by_field_name("value")
            if index >= len(args) and default is not None and default.named_children:
                given = (default.named_children[0], _Scope(scope.texts))
            bound.append((_text(param.child_by_field_name("name") or param), given))
        own = _Scope(scope.texts, tuple(bound))
        body = decl.child_by_field_name("body")
        named = [
            child
            for child in (body.named_children if body is not None else ())
            if child.type in _MEMBERS
            and not any(c.type == "static" for c in child.children)
            and _text(child.child_by_field_name("name") or child) == member
        ]
        if any(child.type not in _METHODS for child in named):
            return None  # a property of that name: not read here
        if named:
            out.extend((child, own) for child in named)
            continue
        bases = _heritage(decl)
        if bases is None:
            return None
        inherited: list[tuple[Node, _Scope]] = []
        for base, base_args in bases:
            texts, original = _base_texts(root, decl, base, scope.texts)
            if not texts:
                return None
            given_args = tuple(_bound(arg, own) for arg in base_args)
            found = _members_of(root, original, given_args, _Scope(texts), member, depth + 1)
            if found is None:
                return None
            inherited.extend(found)
        if not inherited:
            return None
        out.extend(inherited)
    return out


_METHODS = ("method_signature", "method_definition", "abstract_method_signature")


def _bound(node: Node, scope: _Scope) -> tuple[Node, _Scope] | None:
    """A type argument as written in ``scope``: the binding of a type parameter it names, else
    the node read there."""
    node = _unwrapped(node) or node
    if node.type == "type_identifier" and scope.binds(_text(node)):
        return scope.binding(_text(node))
    return (node, scope)


def _heritage(decl: Node) -> list[tuple[str, tuple[Node, ...]]] | None:
    """The bases a class or interface extends, with their type arguments; None when one is not a
    plain name (``ns.Base``, a call)."""
    out: list[tuple[str, tuple[Node, ...]]] = []
    for child in decl.named_children:
        clauses = child.named_children if child.type == "class_heritage" else [child]
        for clause in clauses:
            if clause.type not in ("extends_clause", "extends_type_clause"):
                continue
            parts = clause.named_children
            for index, part in enumerate(parts):
                if part.type == "type_arguments":
                    continue
                if part.type == "identifier" or part.type == "type_identifier":
                    following = parts[index + 1] if index + 1 < len(parts) else None
                    args = (
                        following.named_children
                        if following is not None and following.type == "type_arguments"
                        else []
                    )
                    out.append((_text(part), tuple(args)))
                    continue
                head, args_of = _type_head(part)
                if not head:
                    return None
                out.append((head, args_of))
    return out


def _base_texts(root: str, decl: Node, base: str, texts: tuple[str, ...]) -> tuple[tuple[str, ...], str]:
    """Where base ``base`` of ``decl`` is declared: the texts of the package its file imports it
    from (and the name it is exported as there), else ``texts``."""
    found = _import_of(decl, base)
    if found is None:
        return texts, base
    spec, imported = found
    if spec.startswith("."):
        return texts, imported
    return declarations(root, package_name(spec)) if root else (), imported


def _parameter_closed(node: Node, scope: _Scope, k: int) -> bool:
    """Whether a method's or function's parameter k is declared with a closed type (see
    :func:`package_parameter_closed`)."""
    params = _parameters(node.child_by_field_name("parameters"))
    if k >= len(params) or any(c.type == "rest_pattern" for c in params[k].named_children):
        return False
    own = frozenset(_names(node.child_by_field_name("type_parameters")))
    return _closed(params[k].child_by_field_name("type"), scope, own, 0)


def _closed(node: Node | None, scope: _Scope, own: frozenset[str], depth: int) -> bool:
    """Whether a type declares the keys of every object it holds (``own``: type parameters a call
    infers, never closed)."""
    node = _unwrapped(node)
    if node is None or depth > _DEPTH:
        return False
    kind = node.type
    if kind == "union_type":
        return all(_closed(part, scope, own, depth + 1) for part in _union_parts(node))
    if kind == "intersection_type":
        return all(_closed(part, scope, own, depth + 1) for part in node.named_children)
    if kind in ("predefined_type", "literal_type", "template_literal_type"):
        return True  # no object (an object literal is never one of them)
    if kind == "object_type":
        return not any(c.type == "index_signature" for c in node.named_children)
    if kind == "lookup_type":  # `TEventMap[TEvent]`: one of the object's members
        parts = node.named_children
        return len(parts) == 2 and _members_closed(parts[0], scope, own, depth + 1)
    name, args = _type_head(node)
    if not name or name in own:
        return False
    if scope.binds(name):  # a type parameter of the declaring type
        binding = scope.binding(name)
        return binding is not None and _closed(binding[0], binding[1], frozenset(), depth + 1)
    if name in _WRAPPERS and len(args) == 1:
        return _closed(args[0], scope, own, depth + 1)
    return _named_closed(scope.texts, name, depth + 1)


def _named_closed(texts: tuple[str, ...], name: str, depth: int) -> bool:
    """Whether the package type ``name`` is closed: an interface or class without index signatures
    whose bases are too, or an alias of a closed type (its type parameters bound to nothing)."""
    decls = list(_class_declarations(texts, name))
    if not decls or depth > _DEPTH:
        return False
    for decl in decls:
        if decl is None:
            return False
        if decl.type == "type_alias_declaration":
            unbound = tuple((p, None) for p in _names(decl.child_by_field_name("type_parameters")))
            if not _closed(decl.child_by_field_name("value"), _Scope(texts, unbound), frozenset(), depth + 1):
                return False
            continue
        if decl.type not in _TYPES:
            return False
        body = decl.child_by_field_name("body")
        if body is None or any(c.type == "index_signature" for c in body.named_children):
            return False
        bases = _heritage(decl)
        if bases is None or any(not _named_closed(texts, base, depth + 1) for base, _ in bases):
            return False
    return True


def _members_closed(node: Node, scope: _Scope, own: frozenset[str], depth: int) -> bool:
    """Whether every member type of the object type ``node`` is closed (``TEventMap`` of
    ``TEventMap[TEvent]``, bound to an event map)."""
    node = _unwrapped(node) or node
    name, _ = _type_head(node)
    if name and name not in own and scope.binds(name):
        binding = scope.binding(name)
        return binding is not None and _members_closed(binding[0], binding[1], frozenset(), depth + 1)
    if depth > _DEPTH:
        return False
    if node.type == "object_type":
        bodies: list[tuple[Node, _Scope]] = [(node, scope)]
    elif name and name not in own:
        decls = list(_class_declarations(scope.texts, name))
        if not decls or any(d is None or d.type not in _TYPES for d in decls):
            return False
        bodies = []
        for decl in decls:
            assert decl is not None
            if _heritage(decl):
                return False  # (inherited members are not read here)
            body = decl.child_by_field_name("body")
            if body is None:
                return False
            bodies.append((body, _Scope(scope.texts)))
    else:
        return False
    for body, where in bodies:
        for child in body.named_children:
            if child.type == "index_signature":
                return False
            if child.type == "property_signature":
                if not _closed(child.child_by_field_name("type"), where, frozenset(), depth + 1):
                    return False
            elif child.type not in ("comment",):
                return False
    return True
