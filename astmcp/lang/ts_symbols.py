"""TS/JS declarations from a tree-sitter tree: symbols with SPEC paths.

The walk visits statements and declaration bodies only (never expressions,
except a variable's initializer and ``module.exports`` objects), so the Python
side stays small on big files. Paths: ``NS.fn``, ``Cls.constructor``,
``Cls.prop`` (get/set pairs and overloads repeat a path; the index adds
``@LINE``), ``outer.inner`` for functions nested in functions.
"""

from __future__ import annotations

from tree_sitter import Node

from astmcp.lang.ts_decls import DeclarationWalker
from astmcp.lang.ts_text import clip, collapse
from astmcp.lang.ts_walk import CLASS_VALUES, FUNCTION_VALUES, Declarations, Scope, has_child

__all__ = ["Declarations", "Scope", "SymbolWalker"]

# Statements whose nested bodies may hold declarations (found through _bodies).
_CONTROL = {
    "if_statement",
    "for_statement",
    "for_in_statement",
    "while_statement",
    "do_statement",
    "try_statement",
    "labeled_statement",
    "switch_statement",
}
_BODY_FIELDS = ("body", "consequence", "alternative", "handler", "finalizer")
# Lists of statements (an ERROR node keeps the statements it swallowed).
_BLOCKS = {
    "statement_block",
    "else_clause",
    "catch_clause",
    "finally_clause",
    "switch_body",
    "switch_case",
    "switch_default",
    "ERROR",
}


class SymbolWalker(DeclarationWalker):
    """Collects :class:`SymbolFact` s for one parsed file."""

    def run(self, path: str) -> Declarations:
        """Walk the file. Names exported by clauses (``export { a }``, ``export default a``,
        ``export = a``, ``module.exports``) are found first so their members are
        exported too; a declaration file without module syntax declares globals."""
        root = self.src.tree.root_node
        module_syntax = self.prescan(root)
        global_script = not module_syntax and path.endswith((".d.ts", ".d.mts", ".d.cts"))
        self.block(root, Scope(ambient=global_script))
        return self.out

    def prescan(self, root: Node) -> bool:
        names = self.out.export_names
        module_syntax = False
        for node in root.named_children:
            kind = node.type
            if kind == "import_statement":
                module_syntax = True
                self.note_module_import(node)
            elif kind == "export_statement":
                module_syntax = True
                if node.child_by_field_name("declaration") is not None:
                    continue
                if node.child_by_field_name("source") is None:
                    for clause in node.named_children:
                        if clause.type == "export_clause":
                            for spec in clause.named_children:
                                local = spec.child_by_field_name("name")
                                if local is not None:
                                    names.add(self.name_of(local) or "")
                value = node.child_by_field_name("value") or next(
                    (c for c in node.named_children if c.type != "comment"), None
                )
                if value is not None and value.type == "identifier":
                    names.add(self.src.text_of(value))
            elif kind == "expression_statement" and node.named_children:
                expr = node.named_children[0]
                left = expr.child_by_field_name("left") if expr.type == "assignment_expression" else None
                if left is None or self.src.text_of(left) != "module.exports":
                    continue
                value = expr.child_by_field_name("right")
                if value is not None and value.type == "identifier":
                    names.add(self.src.text_of(value))
                elif value is not None and value.type == "object":
                    for member in value.named_children:
                        target = member.child_by_field_name("value") if member.type == "pair" else member
                        if target is not None and target.type in (
                            "identifier",
                            "shorthand_property_identifier",
                        ):
                            names.add(self.src.text_of(target))
        return module_syntax

    def note_module_import(self, node: Node) -> None:
        for clause in node.named_children:
            if clause.type == "import_require_clause":
                binding = next((c for c in clause.named_children if c.type == "identifier"), None)
            elif clause.type == "import_clause":
                space = next((c for c in clause.named_children if c.type == "namespace_import"), None)
                binding = (
                    next((c for c in space.named_children if c.type == "identifier"), None) if space else None
                )
            else:
                continue
            if binding is not None:
                self.module_imports[self.src.text_of(binding)] = node

    def module_reexport(self, node: Node, local: Node, exported_as: Node, scope: Scope) -> None:
        """``import * as z from "m"; export { z }`` (or ``export default z``): ``z`` names a
        module, exported from here; a namespace symbol, like ``export * as z from "m"``."""
        statement = self.module_imports.get(self.src.text_of(local))
        if statement is None or scope.path:
            return
        sig = collapse(self.src.text_of(statement)).rstrip(";")
        name = self.name_of(exported_as) or "default"
        self.emit(scope, name, "namespace", node, exported_as, sig, exported=True)

    def block(self, body: Node, scope: Scope) -> None:
        comment: Node | None = None
        for child in body.named_children:
            if child.type == "comment":
                comment = child
                continue
            self.statement(child, scope, comment)
            comment = None

    def statement(self, node: Node, scope: Scope, comment: Node | None) -> None:
        kind = node.type
        if kind == "export_statement":
            self.export_statement(node, scope, comment)
        elif kind == "import_statement":
            if scope.kind in ("module", "namespace"):
                self.out.statements.append(node)
        elif kind == "expression_statement":
            self.expression_statement(node, scope, comment)
        elif kind == "ambient_declaration":
            if scope.kind == "module":
                self.out.statements.append(node)  # `declare module "pkg" { … }` augments pkg
            self.ambient(node, scope, node, comment)
        elif kind in _CONTROL:
            for child in _bodies(node):
                self.statement(child, scope, None)
        elif kind in _BLOCKS:
            self.block(node, scope)
        else:
            self.declaration(node, scope, node, comment, exported=False)

    def export_statement(self, node: Node, scope: Scope, comment: Node | None) -> None:
        declaration = node.child_by_field_name("declaration")
        is_default = has_child(node, "default")
        if declaration is not None:
            if declaration.type == "import_alias":
                return
            self.declaration(declaration, scope, node, comment, exported=True, default=is_default)
            return
        if node.child_by_field_name("source") is not None or has_child(node, "export_clause"):
            if scope.kind in ("module", "namespace"):
                self.out.statements.append(node)
            self.namespace_export(node, scope, comment)
            if self.module_imports and node.child_by_field_name("source") is None:
                for clause in node.named_children:
                    for spec in clause.named_children if clause.type == "export_clause" else ():
                        local = spec.child_by_field_name("name")
                        if local is not None:
                            alias = spec.child_by_field_name("alias") or local
                            self.module_reexport(node, local, alias, scope)
            return
        value = node.child_by_field_name("value")
        if value is None:  # export = X;  export default X (older grammar shapes)
            value = next((c for c in node.named_children if c.type != "comment"), None)
        if value is None:
            return
        if is_default or has_child(node, "="):
            self.out.statements.append(node)
        if value.type != "identifier" and is_default:
            self.default_value(node, value, scope, comment)
        elif value.type == "identifier" and is_default and self.module_imports:
            default_kw = next(c for c in node.children if c.type == "default")
            self.module_reexport(node, value, default_kw, scope)

    def namespace_export(self, node: Node, scope: Scope, comment: Node | None) -> None:
        """``export * as ns from "m"`` binds ``ns`` in this module: a namespace symbol."""
        for child in node.named_children:
            if child.type != "namespace_export":
                continue
            name_node = next((c for c in child.named_children if c.type in ("identifier", "string")), None)
            name = self.name_of(name_node)
            if name_node is not None and name:
                sig = collapse(self.src.text_of(node)).rstrip(";")
                doc = self.doc_of(comment, node)
                self.emit(scope, name, "namespace", node, name_node, sig, doc=doc, exported=True)

    def default_value(self, wrapper: Node, value: Node, scope: Scope, comment: Node | None) -> None:
        kind = value.type
        doc = self.doc_of(comment, wrapper)
        default_kw = next(c for c in wrapper.children if c.type == "default")
        if kind in CLASS_VALUES:
            name_node = value.child_by_field_name("name")
            name = self.name_of(name_node) or "default"
            sig = self.header(wrapper, value.child_by_field_name("body"), wrapper)
            path = self.emit(
                scope, name, "class", wrapper, name_node or default_kw, sig, doc=doc, exported=True
            )
            self.class_body(value, Scope(path, "class", True, scope.ambient))
        elif kind in FUNCTION_VALUES:
            name_node = value.child_by_field_name("name")
            name = self.name_of(name_node) or "default"
            body = value.child_by_field_name("body")
            sig = self.header(wrapper, body, wrapper)
            path = self.emit(
                scope, name, "function", wrapper, name_node or default_kw, sig, doc=doc, exported=True
            )
            if body is not None and body.type == "statement_block":
                self.block(body, Scope(path, "function", False))
        else:
            sig = clip(collapse(self.src.slice(wrapper.start_byte, value.end_byte)))
            self.emit(scope, "default", "variable", wrapper, default_kw, sig, doc=doc, exported=True)


def _bodies(node: Node) -> list[Node]:
    out = []
    for name in _BODY_FIELDS:
        child = node.child_by_field_name(name)
        if child is not None:
            out.append(child)
    return out
