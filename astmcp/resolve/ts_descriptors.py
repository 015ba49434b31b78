"""Descriptors: what a TS/JS expression or type annotation stands for, as a :data:`~astmcp.resolve.ts_scopes.Desc`
(turned into a chain for the linker); call sites and contextual types."""

from __future__ import annotations

from tree_sitter import Node

from astmcp.resolve.ts_fact_state import MEMBER_NAMES, FactState, is_ident, named_nodes
from astmcp.resolve.ts_scopes import Desc, Scope, Site

_NULLISH = {"null", "undefined", "void"}
_ARRAYS = {"Array", "ReadonlyArray"}


class Descriptors(FactState):
    # -- descriptors -----------------------------------------------------------
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
            if prop is None or prop.type not in MEMBER_NAMES:
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
        if kind == "array_type":  # `T[]`: an array whose elements are T's
            inner = named_nodes(node)
            element = self.tdesc(inner[0], scope) if inner else None
            return ("y", element) if element is not None else None
        if kind == "readonly_type":  # `readonly T[]`
            inner = named_nodes(node)
            return self.tdesc(inner[0], scope) if inner and inner[0].type == "array_type" else None
        if kind == "generic_type" and self.text(node.child_by_field_name("name") or node) in _ARRAYS:
            args = named_nodes(node.child_by_field_name("type_arguments"))
            name = self.text(node.child_by_field_name("name") or node)
            if len(args) != 1 or scope.lookup(name) is not None:  # a project's own `Array<T>`
                return None
            element = self.tdesc(args[0], scope)
            return ("y", element) if element is not None else None
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
        for part in named_nodes(node):
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
            inner = named_nodes(inner)[0] if named_nodes(inner) else None
        if inner is not None and inner.type == "generic_type" and found[0] != "y":
            return ("i", found, self.type_site(inner, scope))
        return ("i", found)

    def type_site(self, node: Node, scope: Scope) -> Site:
        """The type arguments of a generic type reference, as a site keyed by its position."""
        found = self.sites.get(node.id)
        if found is None:
            args = named_nodes(node.child_by_field_name("type_arguments"))
            found = self.sites[node.id] = Site(self.key(node), [self.tdesc(a, scope) for a in args], None, [])
        return found

    def type_parameters(self, node: Node, key: str) -> None:
        """Record the order of a declaration's type parameters (``generics``)."""
        tparams = node.child_by_field_name("type_parameters")
        if tparams is not None:
            names = [n for p in named_nodes(tparams) if (n := p.child_by_field_name("name")) is not None]
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
        targs = [self.tdesc(t, scope) for t in named_nodes(targs_node)]
        expected = None
        annotation = self.expect.get(node.id)
        if annotation is not None:
            head = annotation.child_by_field_name("name")
            eargs = annotation.child_by_field_name("type_arguments")
            if head is not None and eargs is not None:
                expected = (self.tdesc(head, scope), [self.tdesc(t, scope) for t in named_nodes(eargs)])
        found = Site(self.key(args), targs, expected, [self.desc(a, scope) for a in named_nodes(args)])
        self.sites[node.id] = found
        return found

    def contextual(self, annotation: Node, scope: Scope) -> tuple[Desc, int, bool, Site | None] | None:
        """A function value's parameters typed by the declared function type of the variable
        (``const f: Handler<X> = (a, b) => …``): callback index -1, the annotation's type
        arguments as the site."""
        inner = named_nodes(annotation)
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
        if len(frags) == 1 and frags[0].type == "string_fragment" and is_ident(self.text(frags[0])):
            return self.text(frags[0])
        return None
