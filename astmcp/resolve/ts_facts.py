"""Per-file TS/JS reference facts (runs in the parse worker on the front end's tree).

Every identifier occurrence in value and type positions becomes a row
``(name, line, col, end_col, kind, chain, owner)`` (positions as in
:class:`astmcp.model.Span`; ``owner`` is the ``line:col`` name position of the
enclosing declaration, for edges). Locals, parameters and type parameters are
resolved here and dropped; everything else carries a chain
(:mod:`astmcp.resolve.ts_scopes`) the linker resolves across files. A member
whose receiver cannot be typed has no chain: a ``name`` hit.

The payload also holds what the linker needs to resolve other files' chains
into this one: ``vtypes`` / ``rtypes`` (value and return types of symbols, by
name position), ``bases`` (extends/implements), ``exports`` (export clauses,
``export default``, ``export =``) and ``stars`` (``export * from``); for generics,
``tparams`` (constraint and default of each type parameter), ``generics`` (a
function's type parameters in order), ``ptypes`` (its declared parameter types),
``rgen`` (the head and type arguments of a generic return type) and ``calls``
(what a call site binds them with, see :class:`~astmcp.resolve.ts_scopes.Site`).

Two fields are for the built-in diagnostics, not the linker (:data:`LOCAL_FIELDS`):
``undefined`` (identifiers no scope binds, see :mod:`astmcp.diagnostics.ts_undefined`)
and ``ambient`` (names the file makes global).
"""

from __future__ import annotations

import re
import sys
from typing import Any

from tree_sitter import Node, Point, Tree

from astmcp.diagnostics import ts_undefined
from astmcp.lang.ts_parse import TsSource
from astmcp.resolve.ts_scopes import Binding, Desc, Scope, Site, chain_of

__all__ = ["LOCAL_FIELDS", "NAME", "UNTYPED_KEY", "analyze"]

NAME = "ts_refs"
# Payload fields that are no link facts (what other files resolve against).
LOCAL_FIELDS = frozenset({"refs", "undefined", "ambient"})

_FUNCTIONS = {"function_declaration", "generator_function_declaration", "function_signature"}
_FUNCTION_VALUES = {"function_expression", "generator_function", "arrow_function", "function"}
_CLASSES = {"class_declaration", "abstract_class_declaration", "class"}
_WRITES = {"assignment_expression", "augmented_assignment_expression"}
_MEMBER_NAMES = {"property_identifier", "private_property_identifier"}
_VALUE_NAMES = {"identifier", "shorthand_property_identifier"}
_JS_PARAMETERS = {"identifier", "assignment_pattern", "object_pattern", "array_pattern", "rest_pattern"}
_SKIP = {
    "string", "number", "regex", "true", "false", "null", "undefined",
    "predefined_type", "statement_identifier", "hash_bang_line", "html_comment",
}  # fmt: skip
_RECURSION = 20000
_UNSEEN = object()
_NULLISH = {"null", "undefined", "void"}
_DOC_LINK = re.compile(
    rb"(?:\{@link(?:code|plain)?\s+|@throws\s+\{)(?P<head>[A-Za-z_$][\w$]*)(?:\.(?P<member>[A-Za-z_$][\w$]*))?"
)
# The target of an object-literal key of unknown type: a name hit that never becomes `likely`
# (no chain has this form; ``None`` is a receiver nobody could type, which may).
UNTYPED_KEY = "key"
_KEY = ("k", UNTYPED_KEY)


def analyze(path: str, text: str, tree: Tree) -> dict[str, Any]:
    """The file's reference rows and link facts (see the module docstring)."""
    if sys.getrecursionlimit() < _RECURSION:
        sys.setrecursionlimit(_RECURSION)
    root = tree.root_node
    walker = _Walker(TsSource.of(text, tree), ts_undefined.checked_file(path, text, root))
    walker.run()
    out = walker.payload()
    ambient = ts_undefined.ambient_names(path, text, root)
    if ambient:
        out["ambient"] = sorted(ambient)
    return out


def _named(node: Node | None) -> list[Node]:
    """Named children without comments (``f(/* why */ x)``: x is still the first argument)."""
    return [c for c in node.named_children if c.type != "comment"] if node is not None else []


def _ident(text: str) -> bool:
    return (
        bool(text) and (text[0].isalpha() or text[0] in "_$") and all(c.isalnum() or c in "_$" for c in text)
    )


class _Walker:
    def __init__(self, src: TsSource, check_unbound: bool = False) -> None:
        self.src = src
        # Value identifiers looked up by name, with their scope (only when the file is judged).
        self.named: list[tuple[Node, Scope]] | None = [] if check_unbound else None
        self.raw = src.raw
        self.module = Scope(None, True, symbolic=True)
        self.pending: list[tuple[str, Any, Any, str, Desc, str | None, bool]] = []
        self.by_id: dict[int, Any] = {}
        self.vtypes: dict[str, Desc] = {}
        self.rtypes: dict[str, Desc] = {}
        self.bases: dict[str, list[Desc]] = {}
        self.exports: dict[str, Desc] = {}
        self.stars: list[str] = []
        self.nsimports: dict[str, str] = {}
        self.unions: dict[str, list[Desc]] = {}  # `A | B` annotations by position
        self.cbtypes: dict[str, dict[str, list[Desc]]] = {}  # callback parameter types of functions
        self.callback: tuple[Desc, int, bool, Site | None] | None = None  # set while visiting an argument
        self.tparams: dict[str, tuple[Desc, Desc]] = {}  # type parameter -> (constraint, default)
        self.generics: dict[str, list[str]] = {}  # function -> its type parameters
        self.ptypes: dict[str, list[Desc]] = {}  # function -> declared parameter types (instances)
        self.rgen: dict[str, tuple[Desc, list[Desc]]] = {}  # function -> generic return (head, arguments)
        self.ftypes: dict[str, list[Desc]] = {}  # function type alias -> its parameter types (instances)
        self.bargs: dict[str, list[tuple[Desc, list[Desc]]]] = {}  # class/interface -> (base, type arguments)
        self.ctypes: dict[str, list[Desc]] = {}  # interface/type with a construct signature -> its parameters
        self.shapes: list[str] = []  # type aliases of an object type (their members are symbols)
        self.nevers: list[str] = []  # members declared `never`
        self.sites: dict[int, Site] = {}  # call node id -> its site
        self.expect: dict[int, Node] = {}  # call node id -> generic annotation of the variable it initialises
        self.owner: str | None = None
        self.this: Desc = None
        self.super: Desc = None  # an instance of the enclosing class's base
        self.type_kind = "type"
        self.handlers = {
            "identifier": self.identifier,
            "type_identifier": self.type_identifier,
            "shorthand_property_identifier": self.shorthand,
            "member_expression": self.member_expression,
            "call_expression": self.call_expression,
            "new_expression": self.new_expression,
            "assignment_expression": self.assignment,
            "augmented_assignment_expression": self.assignment,
            "update_expression": self.update,
            "subscript_expression": self.subscript,
            "nested_type_identifier": self.nested_type,
            "nested_identifier": self.nested_identifier,
            "literal_type": self.literal_type,
            "lookup_type": self.lookup_type,
            "statement_block": self.block,
            "for_statement": self.loop,
            "for_in_statement": self.for_in,
            "catch_clause": self.catch,
            "lexical_declaration": self.declaration,
            "variable_declaration": self.declaration,
            "import_statement": self.import_statement,
            "export_statement": self.export_statement,
            "import_alias": self.import_alias,
            "internal_module": self.namespace,
            "module": self.namespace,
            "interface_declaration": self.interface,
            "enum_declaration": self.enum,
            "type_alias_declaration": self.type_alias,
            "object": self.object,
            "pair": self.pair,
            "jsx_opening_element": self.jsx,
            "jsx_self_closing_element": self.jsx,
            "jsx_closing_element": self.jsx,
            "jsx_attribute": self.jsx_attribute,
            "property_signature": self.member_signature,
            "method_signature": self.member_signature,
            "labeled_statement": self.labeled,
            "type_parameter": self.type_parameter,
            "mapped_type_clause": self.mapped_type,
            "infer_type": self.infer_type,
            "comment": self.comment,
        }
        for kind in _FUNCTIONS | _FUNCTION_VALUES | {"method_definition"}:
            self.handlers[kind] = self.function
        for kind in _CLASSES:
            self.handlers[kind] = self.class_
        for kind in _SKIP:
            self.handlers[kind] = self.skip

    # -- output -------------------------------------------------------------------
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
        self.pending.append(
            (name or self.text(node), node.start_point, node.end_point, kind, desc, self.owner, member)
        )

    def payload(self) -> dict[str, Any]:
        rows: list[tuple[str, int, int, int, str, str | None, str | None]] = []
        column = self.src.column
        for name, start, stop, kind, desc, owner, member in self.pending:
            if member:
                base = chain_of(desc)
                target = f"{base}|{name}" if base is not None else None
            elif desc is None:
                target = None  # a string: a name hit
            elif desc[0] == "o":  # an object-literal key: a member of its contextual type, else a name hit
                base = chain_of(desc[1])
                target = f"{base}|{name}" if base is not None else UNTYPED_KEY
            elif desc[0] == "n":
                binding = desc[1].lookup(desc[2])
                if binding is None or binding.chain is None:
                    continue  # a local or a global
                target = binding.chain
            else:
                target = chain_of(desc)
                if target is None:
                    continue
            rows.append(
                (
                    name,
                    start.row + 1,
                    column(start.row, start.column),
                    column(stop.row, stop.column),
                    kind,
                    target,
                    owner,
                )
            )
        out: dict[str, Any] = {"refs": rows}
        if self.named:
            unbound = (node for node, scope in self.named if scope.lookup(self.text(node)) is None)
            found = ts_undefined.candidates(self.src, unbound)
            if found:
                out["undefined"] = found
        for field, table in (("vtypes", self.vtypes), ("rtypes", self.rtypes), ("exports", self.exports)):
            resolved = {k: c for k, d in table.items() if (c := chain_of(d)) is not None}
            if resolved:
                out[field] = resolved
        bases = {k: [c for d in ds if (c := chain_of(d)) is not None] for k, ds in self.bases.items()}
        if any(bases.values()):
            out["bases"] = {k: v for k, v in bases.items() if v}
        if self.stars:
            out["stars"] = self.stars
        if self.nsimports:
            out["nsimports"] = self.nsimports
        callbacks = {
            k: {i: [chain_of(d) for d in ds] for i, ds in by_index.items()}
            for k, by_index in self.cbtypes.items()
        }
        if callbacks:
            out["cbtypes"] = callbacks
        unions = {k: [chain_of(d) for d in ds] for k, ds in self.unions.items()}
        if unions:
            out["unions"] = unions
        self.generic_payload(out)
        return out

    def generic_payload(self, out: dict[str, Any]) -> None:
        tparams = {k: [chain_of(c), chain_of(d)] for k, (c, d) in self.tparams.items()}
        if any(c or d for c, d in tparams.values()):
            out["tparams"] = {k: v for k, v in tparams.items() if v[0] or v[1]}
        if self.generics:
            out["generics"] = self.generics
        bargs: dict[str, dict[str, list[str | None]]] = {}
        for k, pairs in self.bargs.items():
            for base, args in pairs:
                base_chain, chains = chain_of(base), [chain_of(a) for a in args]
                if base_chain is not None and any(chains):
                    bargs.setdefault(k, {})[base_chain] = chains
        if bargs:
            out["bargs"] = bargs
        if self.shapes:
            out["shapes"] = self.shapes
        if self.nevers:
            out["nevers"] = self.nevers
        for field, table in (("ftypes", self.ftypes), ("ctypes", self.ctypes)):
            params = {k: [chain_of(d) for d in ds] for k, ds in table.items()}
            if any(any(v) for v in params.values()):
                out[field] = {k: v for k, v in params.items() if any(v)}
        ptypes = {k: [chain_of(d) for d in ds] for k, ds in self.ptypes.items()}
        if any(any(v) for v in ptypes.values()):
            out["ptypes"] = {k: v for k, v in ptypes.items() if any(v)}
        rgen: dict[str, Any] = {}
        for k, (head, args) in self.rgen.items():
            chains = [chain_of(d) for d in args]
            head_chain = chain_of(head)
            if head_chain is not None and any(chains):
                rgen[k] = [head_chain, chains]
        if rgen:
            out["rgen"] = rgen
        calls = {site.key: found for site in self.sites.values() if (found := site.chains())}
        if calls:
            out["calls"] = calls

    # -- walk ---------------------------------------------------------------------
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

    def expr(self, node: Node, scope: Scope, kind: str) -> None:
        """Visit an expression whose own occurrence is a ``kind`` (call, write)."""
        kind_of = node.type
        if kind_of == "identifier":
            self.row(node, kind, ("n", scope, self.text(node)))
        elif kind_of == "member_expression":
            self.member_expression(node, scope, kind)
        elif kind_of in ("parenthesized_expression", "non_null_expression") and node.named_children:
            self.expr(node.named_children[0], scope, kind)
        else:
            self.visit(node, scope)

    # -- descriptors ----------------------------------------------------------------
    def desc(self, node: Node | None, scope: Scope) -> Desc:
        """What an expression's value is, as far as the file tells."""
        if node is None:
            return None
        kind = node.type
        if kind == "identifier":
            return ("n", scope, self.text(node))
        if kind == "this":
            return self.this
        if kind == "super":
            return self.super
        if kind == "member_expression":
            prop = node.child_by_field_name("property")
            if prop is None or prop.type not in _MEMBER_NAMES:
                return None
            base = self.desc(node.child_by_field_name("object"), scope)
            return ("m", base, self.text(prop)) if base is not None else None
        if kind == "call_expression":
            base = self.desc(node.child_by_field_name("function"), scope)
            return ("c", base, self.site(node, scope)) if base is not None else None
        if kind == "new_expression":
            base = self.desc(node.child_by_field_name("constructor"), scope)
            return ("i", base) if base is not None else None
        if kind in ("parenthesized_expression", "non_null_expression", "await_expression"):
            inner = node.named_children
            return self.desc(inner[0], scope) if inner and kind != "await_expression" else None
        if kind in ("as_expression", "satisfies_expression"):
            parts = node.named_children
            if len(parts) == 2:
                typed = self.instance(parts[1], scope)
                return typed if typed is not None or kind == "as_expression" else self.desc(parts[0], scope)
        return None

    def tdesc(self, node: Node | None, scope: Scope) -> Desc:
        """The declaration a type names (not an instance of it)."""
        if node is None:
            return None
        kind = node.type
        if kind == "type_annotation" or kind == "parenthesized_type":
            inner = node.named_children
            return self.tdesc(inner[0], scope) if inner else None
        if kind in ("type_identifier", "identifier"):
            return ("n", scope, self.text(node))
        if kind == "union_type":  # `T | null | undefined` is a T; `A | B` is either
            kept = self.alternatives(node)
            if len(kept) == 1:
                return self.tdesc(kept[0], scope)
            key = self.key(node)
            self.unions[key] = [self.tdesc(part, scope) for part in kept]
            return ("k", f"U:{key}")
        if kind == "intersection_type":  # `A & B` has the members of both: as a union, each part's
            key = self.key(node)
            self.unions[key] = [self.tdesc(part, scope) for part in self.parts(node)]
            return ("k", f"U:{key}")
        if kind == "generic_type":
            return self.tdesc(node.child_by_field_name("name") or node.named_children[0], scope)
        if kind == "this_type":  # a method returning `this` returns its receiver (the linker knows it)
            return ("k", "this")
        if kind == "lookup_type":  # `X["key"]`: the declared type of X's member `key`
            parts = node.named_children
            member = self.literal_name(parts[1]) if len(parts) == 2 else None
            base = self.tdesc(parts[0], scope) if member is not None else None
            return ("m", ("i", base), member) if base is not None else None
        if kind in ("nested_type_identifier", "nested_identifier", "member_expression"):
            parts = node.named_children
            if len(parts) >= 2:
                base = (
                    self.desc(parts[0], scope)
                    if parts[0].type != "nested_identifier"
                    else self.tdesc(parts[0], scope)
                )
                return ("m", base, self.text(parts[-1])) if base is not None else None
        return None

    def parts(self, node: Node) -> list[Node]:
        """The parts of a (nested) intersection type."""
        out: list[Node] = []
        for part in _named(node):
            out += self.parts(part) if part.type == "intersection_type" else [part]
        return out

    def alternatives(self, node: Node) -> list[Node]:
        out: list[Node] = []
        for part in node.named_children:
            if part.type == "union_type":
                out += self.alternatives(part)
            elif self.text(part) not in _NULLISH:
                out.append(part)
        return out

    def instance(self, node: Node | None, scope: Scope) -> Desc:
        """An instance of the type ``node`` names; a generic reference's type arguments ride
        along as a :class:`Site` (``X<A>``: ``…|:/<key>``)."""
        found = self.tdesc(node, scope)
        if found is None:
            return None
        inner = node
        while inner is not None and inner.type in ("type_annotation", "parenthesized_type"):
            inner = _named(inner)[0] if _named(inner) else None
        if inner is not None and inner.type == "generic_type":
            return ("i", found, self.type_site(inner, scope))
        return ("i", found)

    def type_site(self, node: Node, scope: Scope) -> Site:
        """The type arguments of a generic type reference, as a site keyed by its position."""
        found = self.sites.get(node.id)
        if found is None:
            args = _named(node.child_by_field_name("type_arguments"))
            found = self.sites[node.id] = Site(self.key(node), [self.tdesc(a, scope) for a in args], None, [])
        return found

    def type_parameters(self, node: Node, key: str) -> None:
        """Record the order of a declaration's type parameters (``generics``)."""
        tparams = node.child_by_field_name("type_parameters")
        if tparams is not None:
            names = [n for p in _named(tparams) if (n := p.child_by_field_name("name")) is not None]
            if names:
                self.generics[key] = [self.key(n) for n in names]

    def site(self, node: Node, scope: Scope) -> Site | None:
        """The call's :class:`Site` (one per call node), keyed by its arguments' position."""
        found = self.sites.get(node.id)
        if found is not None:
            return found
        args = node.child_by_field_name("arguments")
        if args is None or args.type != "arguments":
            return None
        targs_node = node.child_by_field_name("type_arguments")
        targs = [self.tdesc(t, scope) for t in _named(targs_node)]
        expected = None
        annotation = self.expect.get(node.id)
        if annotation is not None:
            head = annotation.child_by_field_name("name")
            eargs = annotation.child_by_field_name("type_arguments")
            if head is not None and eargs is not None:
                expected = (self.tdesc(head, scope), [self.tdesc(t, scope) for t in _named(eargs)])
        found = Site(self.key(args), targs, expected, [self.desc(a, scope) for a in _named(args)])
        self.sites[node.id] = found
        return found

    def contextual(self, annotation: Node, scope: Scope) -> tuple[Desc, int, bool, Site | None] | None:
        """A function value's parameters typed by the declared function type of the variable
        (``const f: Handler<X> = (a, b) => …``): callback index -1, the annotation's type
        arguments as the site."""
        inner = _named(annotation)
        head = inner[0] if inner else None
        if head is None or head.type not in ("type_identifier", "nested_type_identifier", "generic_type"):
            return None
        site = self.type_site(head, scope) if head.type == "generic_type" else None
        found = self.tdesc(head, scope)
        return (found, -1, False, site) if found is not None else None

    def literal_name(self, node: Node) -> str | None:
        """The identifier a string literal type (``"key"``) spells, else None."""
        inner = node.named_children[0] if node.type == "literal_type" and node.named_children else None
        frags = inner.named_children if inner is not None and inner.type == "string" else []
        if len(frags) == 1 and frags[0].type == "string_fragment" and _ident(self.text(frags[0])):
            return self.text(frags[0])
        return None

    # -- occurrences ------------------------------------------------------------------
    def identifier(self, node: Node, scope: Scope) -> None:
        name = self.text(node)
        found = scope.lookup(name)
        if found is None or found.chain is not None:  # a local seen already is dropped now
            self.row(node, "read", ("n", scope, name), name=name)

    def type_identifier(self, node: Node, scope: Scope) -> None:
        name = self.text(node)
        found = scope.lookup(name)
        if found is None or found.chain is not None:
            self.row(node, self.type_kind, ("n", scope, name), name=name)

    def shorthand(self, node: Node, scope: Scope) -> None:
        self.row(node, "read", ("n", scope, self.text(node)))
        self.row(node, "attribute", _KEY, name=self.text(node))  # the property: a name hit

    def member_expression(self, node: Node, scope: Scope, kind: str = "read") -> None:
        obj = node.child_by_field_name("object")
        prop = node.child_by_field_name("property")
        if obj is not None:
            self.expr(obj, scope, "read")
        if prop is not None and prop.type in _MEMBER_NAMES:
            member_kind = "attribute" if kind == "read" else kind
            self.row(prop, member_kind, self.desc(obj, scope), member=True)

    def call_expression(self, node: Node, scope: Scope) -> None:
        fn = node.child_by_field_name("function")
        if fn is not None:
            self.expr(fn, scope, "call")
        for child in node.named_children:
            if child.type == "arguments":
                self.arguments(child, scope, fn, False)
            elif child != fn:
                self.visit(child, scope)

    def new_expression(self, node: Node, scope: Scope) -> None:
        ctor = node.child_by_field_name("constructor")
        if ctor is not None:
            self.expr(ctor, scope, "call")
        for child in node.named_children:
            if child.type == "arguments":
                self.arguments(child, scope, ctor, True)
            elif child != ctor:
                self.visit(child, scope)

    def arguments(self, node: Node, scope: Scope, callee: Node | None, new: bool) -> None:
        """A function passed as the k-th argument has its parameters typed by the callee's
        declared callback type (``operate((source, subscriber) => …)``)."""
        target = self.desc(callee, scope) if callee is not None else None
        call = node.parent
        site = self.site(call, scope) if call is not None and call.type == "call_expression" else None
        for child in node.named_children:
            if child.type == "comment":
                self.visit(child, scope)
        for k, arg in enumerate(_named(node)):
            if target is not None and arg.type in ("arrow_function", "function_expression"):
                self.callback = (target, k, new, site)
            if target is not None and arg.type == "object":
                self.object(arg, scope, typed=("p", target, k, new, site))
                continue
            self.visit(arg, scope)
            self.callback = None

    def assignment(self, node: Node, scope: Scope) -> None:
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        if left is not None:
            self.expr(left, scope, "write")
        if right is not None:
            self.visit(right, scope)

    def update(self, node: Node, scope: Scope) -> None:
        arg = node.child_by_field_name("argument")
        if arg is not None:
            self.expr(arg, scope, "write")

    def subscript(self, node: Node, scope: Scope) -> None:
        obj = node.child_by_field_name("object")
        index = node.child_by_field_name("index")
        if obj is not None:
            self.expr(obj, scope, "read")
        if index is None:
            return
        if index.type == "string":
            self.string_hit(index)
        else:
            self.visit(index, scope)

    def string_hit(self, node: Node) -> None:
        inner = node.named_children
        if len(inner) == 1 and inner[0].type == "string_fragment":
            text = self.text(inner[0])
            if _ident(text):
                self.row(inner[0], "string", None, name=text)

    def literal_type(self, node: Node, scope: Scope) -> None:
        for child in node.named_children:
            if child.type == "string":
                self.string_hit(child)

    def lookup_type(self, node: Node, scope: Scope) -> None:
        """``X["key"]`` names X's member ``key`` (a name hit when X cannot be typed)."""
        parts = node.named_children
        key = self.literal_name(parts[1]) if len(parts) == 2 else None
        if key is None:
            self.children(node, scope)
            return
        self.visit(parts[0], scope)
        base = self.tdesc(parts[0], scope)
        fragment = parts[1].named_children[0].named_children[0]
        self.row(fragment, "string", ("i", base) if base is not None else None, member=True, name=key)

    def nested_type(self, node: Node, scope: Scope) -> None:
        parts = node.named_children
        if len(parts) < 2:
            return
        first, last = parts[0], parts[-1]
        if first.type == "identifier":
            self.row(first, "read", ("n", scope, self.text(first)))
        else:
            self.visit(first, scope)
        self.row(last, self.type_kind, self.tdesc(first, scope), member=True)

    def nested_identifier(self, node: Node, scope: Scope) -> None:
        """``a.b`` before a type name (``a.b.T``): ``b`` is a member of ``a``."""
        parts = node.named_children
        if len(parts) < 2:
            return
        first, last = parts[0], parts[-1]
        if first.type == "identifier":
            self.row(first, "read", ("n", scope, self.text(first)))
        else:
            self.visit(first, scope)
        if last.type in _MEMBER_NAMES:
            self.row(last, "read", self.tdesc(first, scope), member=True)

    def labeled(self, node: Node, scope: Scope) -> None:
        for child in node.named_children:
            if child.type != "statement_identifier":
                self.visit(child, scope)

    def comment(self, node: Node, scope: Scope) -> None:
        """``{@link Name}`` / ``{@link Name.member}`` / ``@throws {Name}`` in doc comments."""
        raw = self.raw[node.start_byte : node.end_byte]
        if b"@link" not in raw and b"@throws" not in raw:
            return
        for match in _DOC_LINK.finditer(raw):
            head = match.start("head")
            name = match["head"].decode("utf-8", errors="replace")
            start = self.point(node, raw, head)
            stop = Point(start.row, start.column + len(match["head"]))
            kind = "type" if match.group(0).startswith(b"@throws") else "read"
            self.pending.append((name, start, stop, kind, ("n", scope, name), self.owner, False))
            if match["member"] is not None:
                at = self.point(node, raw, match.start("member"))
                member = match["member"].decode("utf-8", errors="replace")
                stop = Point(at.row, at.column + len(match["member"]))
                self.pending.append((member, at, stop, "read", ("n", scope, name), self.owner, True))

    @staticmethod
    def point(node: Node, raw: bytes, offset: int) -> Point:
        start = node.start_point
        newlines = raw.count(b"\n", 0, offset)
        if not newlines:
            return Point(start.row, start.column + offset)
        return Point(start.row + newlines, offset - raw.rindex(b"\n", 0, offset) - 1)

    # -- scopes ---------------------------------------------------------------------
    def block(self, node: Node, scope: Scope) -> None:
        self.children(node, Scope(scope, False))

    def loop(self, node: Node, scope: Scope) -> None:
        self.children(node, Scope(scope, False))

    def for_in(self, node: Node, scope: Scope) -> None:
        inner = Scope(scope, False)
        left = node.child_by_field_name("left")
        kind = node.child_by_field_name("kind")
        if left is not None:
            if kind is not None:
                target = inner if self.text(kind) != "var" else scope.var_scope()
                self.pattern(left, target, None, local=True)
            else:
                self.expr(left, scope, "write")
        for child in node.named_children:
            if child != left and child != kind:
                self.visit(child, inner)

    def catch(self, node: Node, scope: Scope) -> None:
        inner = Scope(scope, False)
        param = node.child_by_field_name("parameter")
        if param is not None:
            self.pattern(param, inner, None, local=True)
        for child in node.named_children:
            if child != param:
                self.visit(child, inner)

    def type_parameter(self, node: Node, scope: Scope) -> None:
        """A type parameter stands for ``T:<key>``: what a call site binds it to, else its
        constraint (at a call site that does not bind it, its default first)."""
        name = node.child_by_field_name("name")
        if name is not None:
            key = self.key(name)
            scope.names[self.text(name)] = Binding(None, ("k", f"T:{key}"))
            bound = _named(node.child_by_field_name("constraint"))
            default = _named(node.child_by_field_name("value"))
            self.tparams[key] = (
                self.tdesc(bound[0], scope) if bound else None,
                self.tdesc(default[0], scope) if default else None,
            )
        for child in node.named_children:
            if child != name:
                self.visit(child, scope)

    def mapped_type(self, node: Node, scope: Scope) -> None:
        name = node.child_by_field_name("name")
        if name is not None:
            scope.names[self.text(name)] = Binding(None)
        for child in node.named_children:
            if child != name:
                self.visit(child, scope)

    def infer_type(self, node: Node, scope: Scope) -> None:
        for child in node.named_children:
            if child.type == "type_identifier":
                scope.names[self.text(child)] = Binding(None)

    # -- declarations ---------------------------------------------------------------
    def declare(self, scope: Scope, name_node: Node, vtype: Desc = None, symbol: bool | None = None) -> str:
        """Bind a name; a symbol's definition row is emitted. Returns its position key."""
        key = self.key(name_node)
        is_symbol = scope.symbolic if symbol is None else symbol
        scope.names[self.text(name_node)] = Binding(f"P:{key}" if is_symbol else None, vtype)
        if is_symbol:
            self.row(name_node, "definition", ("k", f"P:{key}"))
            if vtype is not None:
                self.vtypes[key] = vtype
        return key

    def definition(self, name_node: Node) -> str:
        """A member's definition row (class, interface, enum, object members)."""
        key = self.key(name_node)
        self.row(name_node, "definition", ("k", f"P:{key}"))
        return key

    def declaration(self, node: Node, scope: Scope) -> None:
        kind = node.children[0].type if node.children else "let"
        target = scope.var_scope() if kind == "var" else scope
        for child in node.named_children:
            if child.type == "variable_declarator":
                self.declarator(child, scope, target)
            else:
                self.visit(child, scope)

    def declarator(self, node: Node, scope: Scope, target: Scope) -> None:
        name = node.child_by_field_name("name")
        annotation = node.child_by_field_name("type")
        value = node.child_by_field_name("value")
        if name is None:
            return
        spec = self.require_of(value)
        if spec is not None:
            self.require_binding(name, target, spec)
            return
        if annotation is not None and value is not None and value.type == "call_expression":
            inner = _named(annotation)
            if inner and inner[0].type == "generic_type":
                self.expect[value.id] = inner[0]
        vtype = self.instance(annotation, scope) if annotation is not None else self.desc(value, scope)
        if name.type == "identifier":
            key = self.declare(target, name, vtype)
            if value is not None and value.type in _FUNCTION_VALUES and target.symbolic:
                ret = value.child_by_field_name("return_type")
                if ret is not None:
                    self.rtypes[key] = self.instance(ret, scope)
            outer = self.owner
            if target.symbolic:
                self.owner = key
            if annotation is not None:
                self.visit(annotation, scope)
            if value is not None:
                if value.type == "object" and target.symbolic:
                    self.object(value, scope, members=True, typed=vtype if annotation is not None else None)
                elif value.type == "object" and annotation is not None:
                    self.object(value, scope, typed=vtype)
                else:
                    if annotation is not None and value.type in ("arrow_function", "function_expression"):
                        self.callback = self.contextual(annotation, scope)
                    self.visit(value, scope)
                    self.callback = None
            self.owner = outer
            return
        self.pattern(name, target, self.desc(value, scope), local=not target.symbolic)
        for child in (annotation, value):
            if child is not None:
                self.visit(child, scope)

    def pattern(self, node: Node, target: Scope, source: Desc, local: bool) -> None:
        """Bind the names of a destructuring pattern; keys are member rows of ``source``."""
        kind = node.type
        symbol = False if local else None
        if kind == "identifier":
            self.declare(target, node, None, symbol)
        elif kind == "shorthand_property_identifier_pattern":
            self.declare(target, node, ("m", source, self.text(node)) if source else None, symbol)
            self.row(node, "attribute", source, member=True)
        elif kind == "pair_pattern":
            key = node.child_by_field_name("key")
            value = node.child_by_field_name("value")
            if key is not None and key.type in _MEMBER_NAMES:
                self.row(key, "attribute", source, member=True)
            if value is not None:
                sub = ("m", source, self.text(key)) if source and key is not None else None
                self.pattern(value, target, sub, local)
        elif kind in ("object_assignment_pattern", "assignment_pattern"):
            left = node.child_by_field_name("left") or (
                node.named_children[0] if node.named_children else None
            )
            right = node.child_by_field_name("right")
            if left is not None:
                self.pattern(left, target, source, local)
            if right is not None:
                self.visit(right, target)
        elif kind in ("object_pattern", "array_pattern", "rest_pattern"):
            for child in node.named_children:
                self.pattern(child, target, source if kind == "object_pattern" else None, local)
        elif kind in ("member_expression", "subscript_expression"):
            self.expr(node, target, "write")

    def require_of(self, value: Node | None) -> str | None:
        if value is None or value.type != "call_expression":
            return None
        fn = value.child_by_field_name("function")
        args = value.child_by_field_name("arguments")
        if fn is None or args is None or self.text(fn) != "require" or not args.named_children:
            return None
        first = args.named_children[0]
        if first.type != "string":
            return None
        return self.text(first)[1:-1]

    def require_binding(self, name: Node, target: Scope, spec: str) -> None:
        if name.type == "identifier":
            target.names[self.text(name)] = Binding(f"I::{spec}")
            return
        if name.type != "object_pattern":
            return
        for part in name.named_children:
            if part.type == "shorthand_property_identifier_pattern":
                text = self.text(part)
                target.names[text] = Binding(f"I:{text}:{spec}")
                self.row(part, "import", ("k", f"I:{text}:{spec}"))
            elif part.type == "pair_pattern":
                key = part.child_by_field_name("key")
                value = part.child_by_field_name("value")
                if key is not None and value is not None and value.type == "identifier":
                    original = self.text(key)
                    target.names[self.text(value)] = Binding(f"I:{original}:{spec}", alias=True)
                    self.row(key, "import", ("k", f"I:{original}:{spec}"))

    def params(
        self,
        node: Node | None,
        scope: Scope,
        owner_class: Desc,
        callback: tuple[Desc, int, bool, Site | None] | None = None,
    ) -> None:
        if node is None:
            return
        if node.type == "identifier":  # `x => …`
            vtype = (
                ("a", callback[0], callback[1], 0, callback[2], callback[3]) if callback is not None else None
            )
            self.declare(scope, node, vtype, False)
            return
        index = 0
        for param in node.named_children:
            if param.type in _JS_PARAMETERS:  # JavaScript's grammar has no parameter wrapper
                self.pattern(param, scope, None, local=True)
                continue
            if param.type not in ("required_parameter", "optional_parameter"):
                self.visit(param, scope)
                continue
            pattern = param.child_by_field_name("pattern")
            annotation = param.child_by_field_name("type")
            value = param.child_by_field_name("value")
            vtype = self.instance(annotation, scope) if annotation is not None else None
            if pattern is not None and pattern.type == "this":  # `this: T` types `this` in the body
                if annotation is not None:
                    self.this = vtype
                    self.visit(annotation, scope)
                continue
            if vtype is None and callback is not None:
                vtype = ("a", callback[0], callback[1], index, callback[2], callback[3])
            index += 1
            if pattern is not None and pattern.type == "identifier":
                self.declare(scope, pattern, vtype, False)
                if owner_class is not None and any(
                    c.type in ("accessibility_modifier", "readonly", "override") for c in param.children
                ):
                    key = self.definition(pattern)  # a parameter property is a class property
                    if vtype is not None:
                        self.vtypes[key] = vtype
            elif pattern is not None and pattern.type != "this":
                self.pattern(pattern, scope, vtype, local=True)
            for child in (annotation, value):
                if child is not None:
                    self.visit(child, scope)

    def function(
        self, node: Node, scope: Scope, owner_class: Desc = None, static: bool = False, member: bool = False
    ) -> None:
        kind = node.type
        name = node.child_by_field_name("name")
        outer_owner, outer_this = self.owner, self.this
        inner = Scope(scope, True)
        key = None
        if name is not None:
            if kind in _FUNCTIONS:
                key = self.declare(scope, name, None, True)
            elif kind == "method_definition":
                if name.type not in _MEMBER_NAMES:
                    self.visit(name, scope)
                elif member:
                    key = self.definition(name)
            elif name.type == "identifier":  # a named function expression sees its own name
                inner.names[self.text(name)] = Binding(None)
        callback, self.callback = self.callback, None
        ret = node.child_by_field_name("return_type")
        if key is not None:
            self.callback_types(node, key, inner)
            self.signature(node, key, inner)
            self.owner = key
            if ret is not None:
                self.rtypes[key] = self.instance(ret, inner)
        if kind == "method_definition":
            self.this = owner_class if static else (("i", owner_class) if owner_class is not None else None)
        elif kind != "arrow_function":
            self.this = None
        for child in node.named_children:
            if child == name:
                continue
            field = child.type
            if field == "formal_parameters":
                self.params(child, inner, owner_class if kind == "method_definition" else None, callback)
            elif field == "identifier" and kind == "arrow_function":
                self.params(child, inner, None, callback)
            elif field == "statement_block":
                self.children(child, inner)
            else:
                self.visit(child, inner)
        self.owner, self.this = outer_owner, outer_this

    def signature(self, node: Node, key: str, scope: Scope) -> None:
        """What binds a generic function's type parameters at a call: their order, the declared
        parameter types and a generic return type's arguments."""
        self.type_parameters(node, key)
        types = self.parameter_types(node.child_by_field_name("parameters"), scope)
        if any(t is not None for t in types):
            self.ptypes[key] = types
        if key not in self.generics:
            return
        ret = node.child_by_field_name("return_type")
        inner = _named(ret)[0] if ret is not None and _named(ret) else None
        if inner is not None and inner.type == "generic_type":
            head = inner.child_by_field_name("name")
            args = inner.child_by_field_name("type_arguments")
            if head is not None and args is not None:
                self.rgen[key] = (self.tdesc(head, scope), [self.tdesc(a, scope) for a in _named(args)])

    def callback_types(self, node: Node, key: str, scope: Scope) -> None:
        """Parameter types of the function-typed parameters of a declared function."""
        params = node.child_by_field_name("parameters")
        if params is None:
            return
        found: dict[str, list[Desc]] = {}
        index = 0
        for param in _named(params):
            pattern = param.child_by_field_name("pattern")
            if pattern is not None and pattern.type == "this":
                continue
            annotation = param.child_by_field_name("type")
            kind = (
                annotation.named_children[0] if annotation is not None and annotation.named_children else None
            )
            if kind is not None and kind.type == "function_type":
                inner = kind.child_by_field_name("parameters")
                types = []
                for sub in _named(inner):
                    sub_pattern = sub.child_by_field_name("pattern")
                    if sub_pattern is not None and sub_pattern.type == "this":
                        continue
                    types.append(self.instance(sub.child_by_field_name("type"), scope))
                if any(t is not None for t in types):
                    found[str(index)] = types
            index += 1
        if found:
            self.cbtypes[key] = found

    def class_(self, node: Node, scope: Scope) -> None:
        name = node.child_by_field_name("name")
        inner = Scope(scope, False)
        if name is not None:
            if node.type == "class":
                inner.names[self.text(name)] = Binding(None)
                key = self.key(name)
            else:
                key = self.declare(scope, name, None, True)
        else:
            key = self.key(node)
        me: Desc = ("k", f"P:{key}") if name is not None and node.type != "class" else None
        self.type_parameters(node, key)
        outer, outer_super = self.owner, self.super
        self.owner = key if me is not None else outer
        self.super = None
        for child in node.named_children:
            if child == name:
                continue
            if child.type == "class_heritage":
                self.heritage(child, inner, key)
            elif child.type == "class_body":
                self.class_body(child, inner, me)
            else:
                self.visit(child, inner)
        self.owner, self.super = outer, outer_super

    def heritage(self, node: Node, scope: Scope, key: str) -> None:
        bases = self.bases.setdefault(key, [])
        bargs = self.bargs.setdefault(key, [])
        outer_kind, self.type_kind = self.type_kind, "inherit"
        for clause in node.named_children:
            for part in clause.named_children:
                if part.type == "type_arguments":
                    if bases:
                        bargs.append((bases[-1], [self.tdesc(a, scope) for a in _named(part)]))
                    self.type_kind = "type"
                    self.visit(part, scope)
                    self.type_kind = "inherit"
                    continue
                base = self.tdesc(part, scope) if clause.type != "extends_clause" else self.desc(part, scope)
                bases.append(base)
                if part.type == "generic_type":
                    args = _named(part.child_by_field_name("type_arguments"))
                    bargs.append((base, [self.tdesc(a, scope) for a in args]))
                if clause.type == "extends_clause" and self.super is None and base is not None:
                    self.super = ("i", base)
                if part.type == "identifier":
                    self.row(part, "inherit", ("n", scope, self.text(part)))
                elif part.type == "member_expression":
                    self.member_expression(part, scope, "inherit")
                else:
                    self.visit(part, scope)
        self.type_kind = outer_kind

    def class_body(self, node: Node, scope: Scope, me: Desc) -> None:
        for member in node.named_children:
            kind = member.type
            static = any(c.type == "static" for c in member.children)
            if kind == "method_definition":
                self.function(member, scope, me, static, member=me is not None)
            elif kind in ("public_field_definition", "property_signature"):
                name = member.child_by_field_name("name")
                annotation = member.child_by_field_name("type")
                value = member.child_by_field_name("value")
                key = None
                if name is not None and name.type in _MEMBER_NAMES and me is not None:
                    key = self.definition(name)
                    vtype = (
                        self.instance(annotation, scope)
                        if annotation is not None
                        else self.desc(value, scope)
                    )
                    if vtype is not None:
                        self.vtypes[key] = vtype
                outer_owner, outer_this = self.owner, self.this
                self.this = me if static else (("i", me) if me is not None else None)
                if key is not None and value is not None and value.type in _FUNCTION_VALUES:
                    self.owner = key
                    ret = value.child_by_field_name("return_type")
                    if ret is not None:
                        self.rtypes[key] = self.instance(ret, scope)
                for child in member.named_children:
                    if child != name or child.type not in _MEMBER_NAMES:
                        self.visit(child, scope)
                self.owner, self.this = outer_owner, outer_this
            elif kind == "abstract_method_signature" or kind == "method_signature":
                self.member_signature(member, scope, owned=me is not None)
            else:
                self.visit(member, scope)

    def member_signature(self, node: Node, scope: Scope, owned: bool = False) -> None:
        name = node.child_by_field_name("name")
        inner = Scope(scope, True)
        key = None
        if name is not None and name.type in _MEMBER_NAMES and owned:
            key = self.definition(name)
            if (
                node.type == "property_signature"
                and self.text(node.child_by_field_name("type") or name) == ": never"
            ):
                self.nevers.append(key)  # a discriminant placeholder: never read through a union
            if node.type == "property_signature":
                kind = _named(node.child_by_field_name("type"))
                if kind and kind[0].type == "function_type":
                    self.ftypes[key] = self.parameter_types(kind[0].child_by_field_name("parameters"), inner)
            else:
                self.signature(node, key, inner)
        for child in node.named_children:
            if child == name:
                if child.type not in _MEMBER_NAMES:
                    self.visit(child, scope)
                continue
            if child.type == "formal_parameters":
                self.params(child, inner, None)
                continue
            if key is not None and child.type == "type_annotation":
                typed = self.instance(child, inner)
                if typed is not None:
                    (self.rtypes if node.type != "property_signature" else self.vtypes)[key] = typed
            self.visit(child, inner)

    def interface(self, node: Node, scope: Scope) -> None:
        name = node.child_by_field_name("name")
        inner = Scope(scope, False)
        key = self.declare(scope, name, None, True) if name is not None else self.key(node)
        self.type_parameters(node, key)
        outer = self.owner
        self.owner = key
        for child in node.named_children:
            if child == name:
                continue
            if child.type == "extends_type_clause":
                bases = self.bases.setdefault(key, [])
                outer_kind, self.type_kind = self.type_kind, "inherit"
                for part in child.named_children:
                    bases.append(self.tdesc(part, inner))
                    if part.type == "generic_type":
                        args = _named(part.child_by_field_name("type_arguments"))
                        self.bargs.setdefault(key, []).append(
                            (bases[-1], [self.tdesc(a, inner) for a in args])
                        )
                    if part.type == "generic_type":
                        head = part.child_by_field_name("name") or part.named_children[0]
                        self.visit(head, inner)
                        self.type_kind = "type"
                        for rest in part.named_children[1:]:
                            self.visit(rest, inner)
                        self.type_kind = "inherit"
                    else:
                        self.visit(part, inner)
                self.type_kind = outer_kind
            elif child.type in ("interface_body", "object_type"):
                for member in child.named_children:
                    if member.type in ("property_signature", "method_signature"):
                        self.member_signature(member, inner, owned=True)
                    else:
                        if member.type == "construct_signature":
                            self.construct_signature(member, key, inner)
                        self.visit(member, inner)
            else:
                self.visit(child, inner)
        self.owner = outer

    def enum(self, node: Node, scope: Scope) -> None:
        name = node.child_by_field_name("name")
        if name is not None:
            self.declare(scope, name, None, True)
        body = node.child_by_field_name("body")
        if body is None:
            return
        inner = Scope(scope, False)  # initializers see the enum's members by name
        for member in body.named_children:
            member_name = member.child_by_field_name("name") if member.type == "enum_assignment" else member
            if member_name is not None and member_name.type in _MEMBER_NAMES:
                inner.names[self.text(member_name)] = Binding(None)
        for member in body.named_children:
            if member.type in _MEMBER_NAMES:
                self.definition(member)
            elif member.type == "enum_assignment":
                member_name = member.child_by_field_name("name")
                if member_name is not None and member_name.type in _MEMBER_NAMES:
                    self.definition(member_name)
                value = member.child_by_field_name("value")
                if value is not None:
                    self.visit(value, inner)

    def type_alias(self, node: Node, scope: Scope) -> None:
        name = node.child_by_field_name("name")
        inner = Scope(scope, False)
        value = node.child_by_field_name("value")
        if name is not None:
            key = self.declare(scope, name, None, True)
            found = self.tdesc(value, inner)
            if found is not None:
                self.vtypes[key] = found
            self.type_parameters(node, key)
            if value is not None and value.type == "function_type":
                self.ftypes[key] = self.parameter_types(value.child_by_field_name("parameters"), inner)
            if value is not None and value.type == "object_type":
                self.shapes.append(key)
            for member in _named(value) if value is not None and value.type == "object_type" else ():
                if member.type == "construct_signature":
                    self.construct_signature(member, key, inner)
        for child in node.named_children:
            if child == value and value.type == "object_type" and name is not None:
                for member in child.named_children:  # its members are the alias' own
                    if member.type in ("property_signature", "method_signature"):
                        self.member_signature(member, inner, owned=True)
                    else:
                        self.visit(member, inner)
            elif child != name:
                self.visit(child, inner)

    def construct_signature(self, node: Node, key: str, scope: Scope) -> None:
        """``new (def: D): T`` in an interface or object type: its parameter types (the first
        such signature; ``new X(…)`` of a value of that type takes its arguments)."""
        if key not in self.ctypes:
            self.ctypes[key] = self.parameter_types(node.child_by_field_name("parameters"), scope)

    def parameter_types(self, params: Node | None, scope: Scope) -> list[Desc]:
        """Declared types (instances) of a parameter list, ``this`` left out."""
        out: list[Desc] = []
        for param in _named(params):
            pattern = param.child_by_field_name("pattern")
            if pattern is None or pattern.type != "this":
                out.append(self.instance(param.child_by_field_name("type"), scope))
        return out

    def namespace(self, node: Node, scope: Scope) -> None:
        name = node.child_by_field_name("name")
        inner = Scope(scope, True, symbolic=True)
        if name is not None and name.type == "identifier":
            self.declare(scope, name, None, True)
        elif name is not None and name.type == "nested_identifier" and name.named_children:
            first = name.named_children[0]
            if first.type == "identifier":
                self.declare(scope, first, None, True)
        body = node.child_by_field_name("body")
        if body is not None:
            self.children(body, inner)

    def object(self, node: Node, scope: Scope, members: bool = False, typed: Desc = None) -> None:
        for child in node.named_children:
            kind = child.type
            if kind == "pair":
                self.pair(child, scope, members, typed)
            elif kind == "method_definition":
                name = child.child_by_field_name("name")
                if typed is not None and name is not None and name.type in _MEMBER_NAMES:
                    # its parameters are those of the declared type's member
                    self.callback = (("m", typed, self.text(name)), -1, False, None)
                if members and name is not None and name.type in _MEMBER_NAMES:
                    self.function(child, scope, None, member=True)
                    if typed is not None:  # it also provides a member of the declared type
                        self.row(name, "write", ("o", typed))
                else:
                    if name is not None and name.type in _MEMBER_NAMES:
                        self.row(name, "attribute", ("o", typed))
                    self.function(child, scope, None)
                self.callback = None
            else:
                self.visit(child, scope)

    def pair(self, node: Node, scope: Scope, members: bool = False, typed: Desc = None) -> None:
        key = node.child_by_field_name("key")
        value = node.child_by_field_name("value")
        if key is not None:
            if key.type in _MEMBER_NAMES:
                if members:
                    self.definition(key)
                    if typed is not None:
                        self.row(key, "write", ("o", typed))
                else:
                    self.row(key, "attribute", ("o", typed))
            elif key.type == "string":
                self.string_hit(key)
            else:
                self.visit(key, scope)
        if value is not None:
            if value.type == "object" and typed is not None and key is not None:
                self.object(value, scope, typed=None)
            else:
                functional = value.type in ("arrow_function", "function_expression")
                if typed is not None and key is not None and key.type in _MEMBER_NAMES and functional:
                    self.callback = (("m", typed, self.text(key)), -1, False, None)
                self.visit(value, scope)
                self.callback = None

    # -- modules --------------------------------------------------------------------
    def import_statement(self, node: Node, scope: Scope) -> None:
        source = node.child_by_field_name("source")
        for clause in node.named_children:
            if clause.type == "import_require_clause":
                alias = next((c for c in clause.named_children if c.type == "identifier"), None)
                spec_node = clause.child_by_field_name("source")
                if alias is not None and spec_node is not None:
                    scope.names[self.text(alias)] = Binding(f"I::{self.text(spec_node)[1:-1]}")
                return
        if source is None:
            return
        spec = self.text(source)[1:-1]
        for clause in node.named_children:
            if clause.type != "import_clause":
                continue
            for part in clause.named_children:
                if part.type == "identifier":
                    scope.names[self.text(part)] = Binding(f"I:default:{spec}")
                    self.row(part, "import", ("k", f"I:default:{spec}"))
                elif part.type == "namespace_import":
                    alias = next((c for c in part.named_children if c.type == "identifier"), None)
                    if alias is not None:
                        self.namespace_binding(alias, spec, scope)
                elif part.type == "named_imports":
                    for item in part.named_children:
                        if item.type != "import_specifier":
                            continue
                        name = item.child_by_field_name("name")
                        alias = item.child_by_field_name("alias")
                        if name is None:
                            continue
                        original = self.text(name) if name.type != "string" else self.text(name)[1:-1]
                        chain = f"I:{original}:{spec}"
                        local = alias if alias is not None else name
                        renamed = alias is not None and self.text(alias) != original
                        scope.names[self.text(local)] = Binding(chain, alias=renamed)
                        self.row(name, "import", ("k", chain), name=original)

    def import_alias(self, node: Node, scope: Scope) -> None:
        """``import A = N.B``: a local alias (its uses are no references of ``N.B``)."""
        alias = node.named_children[0] if node.named_children else None
        if alias is not None and alias.type == "identifier":
            scope.names[self.text(alias)] = Binding(None)

    def export_statement(self, node: Node, scope: Scope) -> None:
        source = node.child_by_field_name("source")
        spec = self.text(source)[1:-1] if source is not None else None
        is_default = any(c.type == "default" for c in node.children)
        declaration = node.child_by_field_name("declaration")
        if declaration is not None:
            self.visit(declaration, scope)
            if is_default:
                name = declaration.child_by_field_name("name")
                if name is not None:
                    self.exports["default"] = ("k", f"P:{self.key(name)}")
            return
        for child in node.named_children:
            kind = child.type
            if kind == "export_clause":
                for item in child.named_children:
                    if item.type == "export_specifier":
                        self.export_specifier(item, scope, spec)
            elif kind == "namespace_export" and spec is not None:
                alias = next((c for c in child.named_children if c.type in ("identifier", "string")), None)
                if alias is not None and alias.type == "identifier":
                    self.exports[self.text(alias)] = ("k", f"P:{self.namespace_binding(alias, spec, None)}")
                elif alias is not None:
                    self.exports[self.text(alias).strip("'\"")] = ("k", f"I::{spec}")
            elif kind == "string" and child == source:
                continue
            elif is_default or any(c.type == "=" for c in node.children):
                label = "default" if is_default else "="
                self.exports[label] = self.desc(child, scope)
                if child.type == "identifier":
                    self.row(child, "export", ("n", scope, self.text(child)))
                else:
                    self.visit(child, scope)
        if spec is not None and not any(
            c.type in ("export_clause", "namespace_export") for c in node.named_children
        ):
            self.stars.append(spec)

    def namespace_binding(self, alias: Node, spec: str, scope: Scope | None) -> str:
        """``import * as ns`` / ``export * as ns``: a namespace symbol when the front end made
        one (re-exported), else the module itself (the linker falls back through ``nsimports``)."""
        key = self.key(alias)
        self.nsimports[key] = spec
        if scope is not None:
            scope.names[self.text(alias)] = Binding(f"P:{key}")
        self.row(alias, "definition", ("k", f"P:{key}"))
        return key

    def export_specifier(self, node: Node, scope: Scope, spec: str | None) -> None:
        name = node.child_by_field_name("name")
        alias = node.child_by_field_name("alias")
        if name is None:
            return
        original = self.text(name).strip("'\"")
        exported = self.text(alias).strip("'\"") if alias is not None else original
        if spec is not None:
            desc: Desc = ("k", f"I:{original}:{spec}")
            self.row(name, "export", desc, name=original)
        else:
            desc = ("n", scope, original)
            self.row(name, "export", desc, name=original)
        self.exports[exported] = desc

    # -- JSX ----------------------------------------------------------------------
    def jsx(self, node: Node, scope: Scope) -> None:
        name = node.child_by_field_name("name")
        for child in node.named_children:
            if child == name and name is not None:
                if name.type == "identifier":
                    text = self.text(name)
                    if text[:1].isupper():
                        self.row(name, "call", ("n", scope, text))
                elif name.type in ("member_expression", "nested_identifier"):
                    self.member_expression(name, scope, "call") if name.type == "member_expression" else None
            else:
                self.visit(child, scope)

    def jsx_attribute(self, node: Node, scope: Scope) -> None:
        for child in node.named_children[1:]:
            self.visit(child, scope)
