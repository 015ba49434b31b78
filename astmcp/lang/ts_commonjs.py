"""CommonJS (``exports.x =``, ``module.exports =``), prototype methods, and
namespaces that the grammar reads as expression statements."""

from __future__ import annotations

from tree_sitter import Node

from astmcp.lang.ts_text import clip, collapse
from astmcp.lang.ts_walk import CLASS_VALUES, FUNCTION_VALUES, Scope, WalkerBase


class CommonJsWalker(WalkerBase):
    def expression_statement(self, node: Node, scope: Scope, comment: Node | None) -> None:
        expr = node.named_children[0] if node.named_children else None
        if expr is None:
            return
        if expr.type == "internal_module":
            self.namespace(expr, scope, node, comment, False)
            return
        if expr.type != "assignment_expression" or scope.kind not in ("module", "namespace"):
            return
        left = expr.child_by_field_name("left")
        right = expr.child_by_field_name("right")
        if left is None or right is None or left.type != "member_expression":
            return
        target = self.src.text_of(left)
        if target == "module.exports":
            self.module_exports(node, right, scope, comment)
            return
        obj = left.child_by_field_name("object")
        prop = left.child_by_field_name("property")
        if obj is None or prop is None or prop.type != "property_identifier":
            return
        owner = self.src.text_of(obj)
        name = self.src.text_of(prop)
        if owner in ("exports", "module.exports"):
            self.assigned(node, right, prop, name, scope, comment, exported=True)
        elif owner.endswith(".prototype") and right.type in FUNCTION_VALUES:
            cls = owner[: -len(".prototype")]
            if "." not in cls:
                self.assigned(node, right, prop, name, Scope(scope.child(cls), "class"), comment, True)

    def assigned(
        self,
        node: Node,
        value: Node,
        name_node: Node,
        name: str,
        scope: Scope,
        comment: Node | None,
        exported: bool,
    ) -> None:
        doc = self.doc_of(comment, node)
        if value.type in FUNCTION_VALUES:
            body = value.child_by_field_name("body")
            sig = collapse(self.src.slice(node.start_byte, body.start_byte if body else value.end_byte))
            kind = "method" if scope.kind == "class" else "function"
            path = self.emit(scope, name, kind, node, name_node, sig, doc=doc, exported=exported)
            if body is not None and body.type == "statement_block":
                self.block(body, Scope(path, "function", False))
        elif value.type in CLASS_VALUES:
            sig = self.header(node, value.child_by_field_name("body"), node)
            path = self.emit(scope, name, "class", node, name_node, sig, doc=doc, exported=exported)
            self.class_body(value, Scope(path, "class", exported))
        else:
            sig = clip(collapse(self.src.text_of(node)))
            self.emit(scope, name, "variable", node, name_node, sig.rstrip(";"), doc=doc, exported=exported)

    def module_exports(self, node: Node, value: Node, scope: Scope, comment: Node | None) -> None:
        self.out.statements.append(node)
        if value.type == "identifier":
            return
        if value.type in FUNCTION_VALUES or value.type in CLASS_VALUES:
            name_node = value.child_by_field_name("name")
            if name_node is not None:
                self.assigned(node, value, name_node, self.src.text_of(name_node), scope, comment, True)
            return
        if value.type != "object":
            return
        for member in value.named_children:
            if member.type == "pair":
                key = member.child_by_field_name("key")
                pair_value = member.child_by_field_name("value")
                if key is None or pair_value is None or pair_value.type == "identifier":
                    continue
                if key.type == "property_identifier":
                    self.assigned(member, pair_value, key, self.src.text_of(key), scope, None, True)
            elif member.type == "method_definition":
                self.method(member, scope, None, None)
