"""The TS/JS fact walker's state, output rows and tree walk (see :mod:`astmcp.resolve.ts_facts`)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from tree_sitter import Node

from astmcp.lang.ts_parse import JAVASCRIPT, TsSource
from astmcp.resolve.ts_scopes import UNTYPED_KEY, Binding, Desc, Scope, Site

# The target of an object-literal key of unknown type: a name hit that never becomes `likely`
# (no chain has this form; ``None`` is a receiver nobody could type, which may).
# what a value typed `any` or `unknown` (a catch clause's variable too) holds: anything, its
# members name hits that never become `likely` (a Node error's `e.code` is no project member)
ANYTHING: Desc = ("k", UNTYPED_KEY)
# what a value declared with a type astmcp cannot read holds (`x: Parameters<typeof f>[0]`, a
# function-local interface): something typed, its members name hits that never become `likely`
UNREAD: Desc = ("u", None)
FUNCTIONS = {"function_declaration", "generator_function_declaration", "function_signature"}
FUNCTION_VALUES = {"function_expression", "generator_function", "arrow_function", "function"}
MEMBER_NAMES = {"property_identifier", "private_property_identifier"}
_VALUE_NAMES = {"identifier", "shorthand_property_identifier"}
_UNSEEN = object()
_ASCII_IDENT = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")


def named_nodes(node: Node | None) -> list[Node]:
    """Named children without comments (``f(/* why */ x)``: x is still the first argument)."""
    return [c for c in node.named_children if c.type != "comment"] if node is not None else []


def member_property(node: Node) -> Node | None:
    """The property of a member expression: its last ``property`` field. (tree-sitter answers
    ``child_by_field_name`` for ``typeof a.b.c`` in a type with the inner ``b``.)"""
    found = node.children_by_field_name("property")
    return found[-1] if found else None


def unparenthesized(node: Node | None) -> Node | None:
    """``((x))`` is x."""
    while node is not None and node.type == "parenthesized_expression" and len(named_nodes(node)) == 1:
        node = named_nodes(node)[0]
    return node


def is_ident(text: str) -> bool:
    if text.isascii():  # the common case, without a loop over the characters
        return _ASCII_IDENT.fullmatch(text) is not None
    return (
        bool(text) and (text[0].isalpha() or text[0] in "_$") and all(c.isalnum() or c in "_$" for c in text)
    )


# a quoted member name that is no identifier (`"~validate"`, `"~standard"`)
QUOTED_NAME = re.compile(r"[^\s/]{1,64}")


def member_step(name: str) -> str | None:
    """A member's chain step: its name, or ``"`` + a quoted member name that is no identifier
    (``"~validate"``), which could otherwise read as a special step (``~`` narrowing, ``@``, ``&``);
    None for a name holding a chain separator (``|``, ``/``): left to the name-hit rule."""
    if is_ident(name):
        return name
    return None if "|" in name or "/" in name else '"' + name


# a module specifier no import spells: the file's own module (chain `I::<self>`)
SELF_MODULE = "<self>"


# a member read handed on as an argument (`this.onKey`), described once the file is walked:
# (HANDED, node, scope, member name, what `this` is there)
HANDED = "H"


def package_import(head: str) -> bool:
    """Whether a chain's head is an import from a bare specifier (``I:createServer:node:http``,
    ``I::react``): a package's, or a path alias of the project's."""
    if not head.startswith("I:"):
        return False
    spec = head[2:].partition(":")[2]
    return bool(spec) and not spec.startswith((".", "/")) and spec != SELF_MODULE


class FactState:
    def __init__(self, src: TsSource, check_unbound: bool = False) -> None:
        self.src = src
        # the specifier naming the file itself (its CommonJS `exports`): SELF_MODULE when analyzed
        self.self_spec: str | None = None
        # Value identifiers looked up by name, with their scope (only when the file is judged).
        self.named: list[tuple[Node, Scope]] | None = [] if check_unbound else None
        self.raw = src.raw
        self.module = Scope(None, True, symbolic=True)
        # `declare module "spec" { … }`: the body scope and the module it augments, while walked
        self.augmenting: tuple[Scope, str] | None = None
        self.augments: set[str] = set()  # the packages it augments so (`declare module "pkg"`)
        # the bodies of each namespace declared in a scope, by (scope, name) (see ts_classes.namespace)
        self.namespace_bodies: dict[tuple[int, str], list[Scope]] = {}
        self.pending: list[tuple[str, Any, Any, str, Desc, str | None, bool]] = []
        self._consts: dict[str, list[Node]] | None = None  # see Occurrences.const_values
        self.row_nodes: dict[int, Node] = {}  # index in pending -> the row's node (rows with a chain)
        # index in pending of member strings that probe (`"key" in x`): their step is `!key`
        self.probes: set[int] = set()
        self.by_id: dict[int, Any] = {}
        self.vtypes: dict[str, Desc] = {}
        self.rtypes: dict[str, Desc] = {}
        self.bases: dict[str, list[Desc]] = {}
        self.exports: dict[str, Desc] = {}
        self.stars: list[str] = []
        self.nsimports: dict[str, str] = {}
        self.unions: dict[str, list[Desc]] = {}  # `A | B` annotations by position
        # JS: the values a variable typed by its initializer is given again (`Occurrences.reassigned`)
        self.reassigned_parts: dict[tuple[int, bool], list[Desc]] = {}
        self.javascript = src.tree.language == JAVASCRIPT
        self.isects: set[str] = set()  # which of them are intersections (`A & B`)
        self.lspreads: dict[str, list[Desc]] = {}  # object literals spreading others, by position
        self.cbtypes: dict[str, dict[str, list[Desc]]] = {}  # callback parameter types of functions
        self.callback: tuple[Desc, int, bool, Site | None] | None = None  # set while visiting an argument
        self.tparams: dict[str, tuple[Desc, Desc]] = {}  # type parameter -> (constraint, default)
        self.generics: dict[str, list[str]] = {}  # function -> its type parameters
        self.ptypes: dict[str, list[Desc]] = {}  # function -> declared parameter types (instances)
        self.thtypes: dict[str, Desc] = {}  # function -> its declared `this` (`function f(this: T)`)
        # (function value node id, key): the field or variable a generic function value is held by
        self.value_key: tuple[int, str] | None = None
        self.psigs: dict[str, str] = {}  # overload signature -> its parameter list as written
        self.rfns: dict[str, Desc] = {}  # generic function returning a function -> what that returns
        # call node id -> what calling the value it gives must give (`getContext: memo(…)`: a Ctx)
        self.value_types: dict[int, Desc] = {}
        self.key_strings: dict[int, Desc] = {}  # string literal node id -> the type it is a key of
        # string literal argument node id -> the callee's parameter it is given for (``("p", …)``)
        self.argument_strings: dict[int, Desc] = {}
        # functions passed by name: (the callee's descriptor, the argument's position, the name's,
        # whether a constructor is called, the call's site); the parameters of the functions
        # declared by name, by the id of that name's binding, all and by position (``None`` for a
        # pattern)
        self.given_functions: list[tuple[Desc, int, Desc, bool, Site | None]] = []
        self.function_params: dict[int, list[Binding]] = {}
        self.function_positions: dict[int, list[Binding | None]] = {}
        self.method_positions: dict[str, list[Binding | None]] = {}  # a class's, by its chain
        self.method_names: set[str] = set()
        self.rgen: dict[str, tuple[Desc, list[Desc]]] = {}  # function -> generic return (head, arguments)
        self.ftypes: dict[str, list[Desc]] = {}  # function type alias -> its parameter types (instances)
        self.bargs: dict[str, list[tuple[Desc, list[Desc]]]] = {}  # class/interface -> (base, type arguments)
        self.ctypes: dict[str, list[Desc]] = {}  # interface/type with a construct signature -> its parameters
        # interface/type with one call signature (or a function type) -> what calling one gives
        self.sigrets: dict[str, Desc] = {}
        self.shapes: list[str] = []  # type aliases of an object type (their members are symbols)
        self.objects: dict[str, dict[str, Desc]] = {}  # object types written out -> member types
        self.olits: set[str] = set()  # ... of them, those an object literal has as its own type
        self.tuples: dict[str, list[Desc]] = {}  # tuple types -> their parts (declarations)
        self.trests: dict[str, Desc] = {}  # tuple types with a rest part (`[A, ...B[]]`) -> B
        self.spreads: dict[str, list[Desc]] = {}  # object-literal variables -> what they spread
        self.okeys: dict[str, list[str]] = {}  # object-literal variables (no spread) -> their own keys
        self.indexes: dict[
            str, Desc
        ] = {}  # interfaces/object type aliases -> what their index signature gives
        self.nindexes: dict[str, Desc] = {}  # ... what their number index signature gives (`x[0]`)
        self.lits: dict[str, list[str]] = {}  # members declared with string literal types -> the literals
        # `x[KEY]` read by a name: KEY's descriptors (the name it binds, fact `ikeys`), and the members
        # declared `[KEY]: T` -> that name (fact `ckeys`)
        self.ikeys: dict[str, list[Desc]] = {}
        self.ckeys: dict[str, Desc] = {}
        self.returning: tuple[str, Any] | None = None  # what types the function values returned here
        self.return_type: Desc = None  # the declared return type: what object literals returned here are
        self.expected_objects: dict[tuple[int, int], Desc] = {}  # returned object literal span -> its type
        # an object literal a const holds and hands on only to typed places (span) -> what they are
        self.held_types: dict[tuple[int, int], Desc] = {}
        # ... and those (span) read only by their members: of their own type, which nothing else is
        self.closed_literals: set[tuple[int, int]] = set()
        # a function passed in a branch of a conditional argument (span) -> its callback typing
        self.expected_callbacks: dict[tuple[int, int], tuple[Any, ...]] = {}
        self.ftype: tuple[Node, Scope] | None = None  # a written-out function type of the next function value
        # the declared types of the next function value's parameters where no function type is
        # written (a `ProxyHandler<T>` trap's: its target is a T)
        self.given_params: list[Desc] | None = None
        self.literal_this: Desc = None  # `this` of the next object-literal method
        self.assigned_this: Desc = None  # `this` of the next function expression (`exports.f = function`)
        self.returns: list[Desc] | None = None  # what the function being visited returns
        self.yields: list[Desc] | None = None  # ... and yields (a generator)
        self.inferred: Desc = None  # what the function value visited last returns (one typed `return`)
        self.narrowing: dict[str, tuple[Binding | None, Desc]] = {}  # name -> (its binding, narrowed value)
        self.instance_tests: dict[str, Node] = {}  # `x instanceof C`: C's node by its span
        self.itests: dict[str, Desc] = {}  # C of a typed `x instanceof C`, by C's span (fact `itests`)
        self.sites: dict[int, Site] = {}  # call node id -> its site
        self.expect: dict[int, Node] = {}  # call node id -> generic annotation of the variable it initialises
        self.stored_as: dict[int, Node] = {}  # call node id -> the annotation of the variable it initialises
        self.owner: str | None = None
        self.this: Desc = None
        self.super: Desc = None  # an instance of the enclosing class's base
        self.type_kind = "type"
        # node type -> its visit method, filled by the final walker (ts_facts)
        self.handlers: dict[str, Callable[[Node, Scope], None]] = {}

    def pos(self, node: Node) -> tuple[int, int, int]:
        start, end = node.start_point, node.end_point
        column = self.src.column
        return start.row + 1, column(start.row, start.column), column(end.row, end.column)

    def key(self, node: Node) -> str:
        line, col, _ = self.pos(node)
        return f"{line}:{col}"

    def text(self, node: Node) -> str:
        return self.raw[node.start_byte : node.end_byte].decode("utf-8", errors="replace")

    def row(self, node: Node, kind: str, desc: Desc, member: bool = False, name: str | None = None) -> None:
        # positions are converted in payload(), for the rows kept
        named = self.named
        by_name = not member and desc is not None and desc[0] == "n"
        if named is not None and by_name and node.type in _VALUE_NAMES:
            named.append((node, desc[1]))  # type: ignore[index]
        if desc is not None:
            self.row_nodes[len(self.pending)] = node
        self.pending.append(
            (name or self.text(node), node.start_point, node.end_point, kind, desc, self.owner, member)
        )

    def run(self) -> None:
        self.children(self.src.tree.root_node, self.module)

    def visit(self, node: Node, scope: Scope) -> None:
        kind_id = node.kind_id
        handler = self.by_id.get(kind_id, _UNSEEN)
        if handler is _UNSEEN:
            handler = self.by_id[kind_id] = self.handlers.get(node.type)
        if handler is not None:
            handler(node, scope)
        elif node.named_child_count:
            for child in node.named_children:
                self.visit(child, scope)

    def children(self, node: Node, scope: Scope) -> None:
        for child in node.named_children:
            self.visit(child, scope)

    def skip(self, node: Node, scope: Scope) -> None:
        return None


def own_key(node: Node) -> str | None:
    """The name of a key an object literal writes out (``port: 1``, ``port``, ``port() {}``)."""
    if node.type == "shorthand_property_identifier":
        return node.text.decode("utf-8") if node.text else None
    if node.type in ("pair", "method_definition"):
        key = node.child_by_field_name("key") or node.child_by_field_name("name")
        if key is not None and key.type == "property_identifier" and key.text:
            return key.text.decode("utf-8")
    return None
