"""Members of classes, interfaces, object types and object literals."""

from __future__ import annotations

from tree_sitter import Node

from astmcp.lang.ts_text import clip_type, collapse
from astmcp.lang.ts_walk import (
    FUNCTION_VALUES,
    HIDDEN_MODIFIERS,
    Scope,
    WalkerBase,
    first_decorator,
    first_non_decorator,
    modifiers,
    unwrapped_value,
    value_text,
)


class MemberWalker(WalkerBase):
    def class_body(self, node: Node, scope: Scope) -> None:
        body = node.child_by_field_name("body")
        if body is None:
            return
        comment: Node | None = None
        decorator: Node | None = None
        for member in body.named_children:
            kind = member.type
            if kind == "comment":
                comment = member
                continue
            if kind == "decorator":
                decorator = decorator or member
                continue
            if kind in ("method_definition", "method_signature", "abstract_method_signature"):
                self.method(member, scope, comment, decorator)
            elif kind in ("public_field_definition", "field_definition"):
                self.field(member, scope, comment, decorator)
            comment = None
            decorator = None

    def method(self, node: Node, scope: Scope, comment: Node | None, decorator: Node | None) -> None:
        name_node = node.child_by_field_name("name")
        name = self.name_of(name_node) or "?"
        mods = modifiers(node)
        if scope.kind in ("module", "namespace"):
            kind = "function"  # `module.exports = { run() {} }`
        elif name == "constructor" and scope.kind == "class":
            kind = "constructor"
        elif "get" in mods:
            kind = "getter"
        elif "set" in mods:
            kind = "setter"
        else:
            kind = "method"
        body = node.child_by_field_name("body")
        first = first_non_decorator(node)
        sig = self.header(first, body, node)
        path = self.member(scope, name, kind, node, name_node, sig, mods, decorator, comment, decorator)
        if kind == "constructor":
            self.parameter_properties(node, scope)
        if body is not None:
            self.block(body, Scope(path, "function", False))

    def member(
        self,
        scope: Scope,
        name: str,
        kind: str,
        node: Node,
        name_node: Node | None,
        sig: str,
        mods: set[str],
        start: Node | None,
        comment: Node | None,
        decorator: Node | None,
    ) -> str:
        """Emits a class member, exported when its class is and no modifier or ``#`` hides it."""
        visible = scope.exported and not (mods & HIDDEN_MODIFIERS) and not name.startswith("#")
        return self.emit(
            scope,
            name,
            kind,
            node,
            name_node,
            sig,
            start=start,
            doc=self.doc_of(comment, decorator or node),
            exported=visible,
        )

    def parameter_properties(self, node: Node, scope: Scope) -> None:
        params = node.child_by_field_name("parameters")
        if params is None:
            return
        for param in params.named_children:
            if param.type not in ("required_parameter", "optional_parameter"):
                continue
            mods = {c.type for c in param.children}
            if not mods & {"accessibility_modifier", "readonly", "override"}:
                continue
            pattern = param.child_by_field_name("pattern")
            if pattern is None or pattern.type != "identifier":
                continue
            hidden = any(
                c.type == "accessibility_modifier" and self.src.text_of(c) in HIDDEN_MODIFIERS
                for c in param.children
            )
            self.emit(
                scope,
                self.src.text_of(pattern),
                "property",
                param,
                pattern,
                collapse(self.src.text_of(param)),
                exported=scope.exported and not hidden,
            )

    def field(self, node: Node, scope: Scope, comment: Node | None, decorator: Node | None) -> None:
        name_node = node.child_by_field_name("name") or node.child_by_field_name("property")
        if name_node is None:
            name_node = next((c for c in node.named_children if c.type != "decorator"), None)
        name = self.name_of(name_node) or "?"
        value = node.child_by_field_name("value")
        first = first_non_decorator(node)
        mods = modifiers(node)
        kind = "property"
        if value is not None and value.type in FUNCTION_VALUES:
            kind = "method"
            body = value.child_by_field_name("body")
            sig = collapse(self.src.slice(first.start_byte, body.start_byte if body else value.end_byte))
        elif value is not None:
            head = clip_type(self.src.slice(first.start_byte, value.start_byte))
            sig = head + " " + value_text(self.src, value)
        else:
            sig = self.header(first, None, node)
        start = decorator or first_decorator(node)
        path = self.member(
            scope, name, kind, node, name_node, sig.rstrip(";"), mods, start, comment, decorator
        )
        if kind == "method" and value is not None:
            body = value.child_by_field_name("body")
            if body is not None and body.type == "statement_block":
                self.block(body, Scope(path, "function", False))

    def type_members(self, body: Node, scope: Scope) -> None:
        comment: Node | None = None
        for member in body.named_children:
            kind = member.type
            if kind == "comment":
                comment = member
                continue
            if kind in ("property_signature", "method_signature"):
                name_node = member.child_by_field_name("name")
                mods = modifiers(member)
                if kind == "property_signature":
                    member_kind = "property"
                elif "get" in mods:
                    member_kind = "getter"
                elif "set" in mods:
                    member_kind = "setter"
                else:
                    member_kind = "method"
                sig = clip_type(self.src.text_of(member)).rstrip(";,")
                self.emit(
                    scope,
                    self.name_of(name_node) or "?",
                    member_kind,
                    member,
                    name_node,
                    sig,
                    doc=self.doc_of(comment, member),
                    exported=scope.exported,
                )
            comment = None

    def object_members(self, obj: Node, scope: Scope) -> None:
        """Functions in an object literal bound to a module-level name (``X.fn``)."""
        comment: Node | None = None
        for member in obj.named_children:
            kind = member.type
            if kind == "comment":
                comment = member
                continue
            if kind == "method_definition":
                self.method(member, scope, comment, None)
            elif kind == "pair":
                value = member.child_by_field_name("value")
                key = member.child_by_field_name("key")
                value = unwrapped_value(value) if value is not None else None  # `(f) as Maker`: f
                if value is None or key is None or value.type not in FUNCTION_VALUES:
                    comment = None
                    continue
                if key.type not in ("property_identifier", "string", "number"):
                    comment = None
                    continue
                body = value.child_by_field_name("body")
                sig = collapse(self.src.slice(member.start_byte, body.start_byte if body else value.end_byte))
                path = self.emit(
                    scope,
                    self.name_of(key) or "?",
                    "method",
                    member,
                    key,
                    sig,
                    doc=self.doc_of(comment, member),
                    exported=scope.exported,
                )
                if body is not None and body.type == "statement_block":
                    self.block(body, Scope(path, "function", False))
            comment = None

    # -- CommonJS and namespaces written as expressions ----------------------------
