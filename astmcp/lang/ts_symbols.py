"""TS/JS declarations from a tree-sitter tree: symbols with SPEC paths.

The walk visits statements and declaration bodies only (never expressions,
except a variable's initializer and ``module.exports`` objects), so the Python
side stays small on big files. Paths: ``NS.fn``, ``Cls.constructor``,
``Cls.prop`` (get/set pairs and overloads repeat a path; the index adds
``@LINE``), ``outer.inner`` for functions nested in functions.
"""

from __future__ import annotations

from tree_sitter import Node

from astmcp.lang.ts_commonjs import CommonJsWalker
from astmcp.lang.ts_members import MemberWalker
from astmcp.lang.ts_parse import TsSource
from astmcp.lang.ts_text import brief, clip, clip_alias, clip_type, collapse
from astmcp.lang.ts_walk import CLASS_VALUES, FUNCTION_VALUES, Declarations, Scope, has_child, value_text

__all__ = ["Declarations", "Scope", "SymbolWalker"]

_FUNCTION_DECLS = {"function_declaration", "generator_function_declaration", "function_signature"}
_CLASS_DECLS = {"class_declaration", "abstract_class_declaration"}
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


class SymbolWalker(MemberWalker, CommonJsWalker):
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
            self.ambient(node, scope, node, comment)
        elif kind in _CONTROL:
            for child in _bodies(node):
                self.statement(child, scope, None)
        elif kind in _BLOCKS:
            self.block(node, scope)
        else:
            self.declaration(node, scope, node, comment, exported=False)

    def ambient(self, node: Node, scope: Scope, wrapper: Node, comment: Node | None) -> None:
        """``declare …``: everything inside is visible to importers."""
        inner = Scope(scope.path, scope.kind, scope.exported, True)
        for child in node.named_children:
            if child.type == "statement_block":  # declare global { … }
                path = self.emit(scope, "global", "namespace", wrapper, None, "declare global", exported=True)
                self.block(child, Scope(path, "namespace", True, True))
            elif child.type != "comment":
                self.declaration(child, inner, wrapper, comment, exported=True)

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

    # -- declarations ------------------------------------------------------------
    def declaration(
        self,
        node: Node,
        scope: Scope,
        wrapper: Node,
        comment: Node | None,
        *,
        exported: bool,
        default: bool = False,
    ) -> None:
        kind = node.type
        visible = exported and (scope.exported or scope.ambient)
        if not visible and scope.kind == "module":
            visible = self.listed(scope, node.child_by_field_name("name"))
        if kind in _FUNCTION_DECLS:
            self.function(node, scope, wrapper, comment, visible, default)
        elif kind in _CLASS_DECLS:
            self.klass(node, scope, wrapper, comment, visible, default)
        elif kind in ("lexical_declaration", "variable_declaration"):
            self.variables(node, scope, wrapper, comment, visible)
        elif scope.kind == "function":
            return  # types and namespaces inside functions are implementation detail
        elif kind == "interface_declaration":
            name_node = node.child_by_field_name("name")
            body = node.child_by_field_name("body")
            sig = self.header(_sig_start(wrapper), body, node)
            path = self.emit(
                scope,
                self.name_of(name_node) or "?",
                "interface",
                wrapper,
                name_node,
                sig,
                start=_span_start(wrapper),
                doc=self.doc_of(comment, wrapper),
                exported=visible,
            )
            if body is not None:
                self.type_members(body, Scope(path, "interface", visible, scope.ambient))
        elif kind == "type_alias_declaration":
            name_node = node.child_by_field_name("name")
            value = node.child_by_field_name("value")
            full = self.src.slice(_sig_start(wrapper).start_byte, node.end_byte).rstrip()
            sig = clip_alias(full[:-1] if full.endswith(";") else full)
            path = self.emit(
                scope,
                self.name_of(name_node) or "?",
                "type",
                wrapper,
                name_node,
                sig,
                start=_span_start(wrapper),
                doc=self.doc_of(comment, wrapper),
                exported=visible,
            )
            if value is not None and value.type == "object_type":
                self.type_members(value, Scope(path, "interface", visible, scope.ambient))
        elif kind == "enum_declaration":
            self.enum(node, scope, wrapper, comment, visible)
        elif kind in ("internal_module", "module"):
            self.namespace(node, scope, wrapper, comment, visible)
        elif kind == "ambient_declaration":
            self.ambient(node, scope, wrapper, comment)

    def function(
        self, node: Node, scope: Scope, wrapper: Node, comment: Node | None, visible: bool, default: bool
    ) -> None:
        path, body = self.declared(node, scope, wrapper, comment, visible, "function")
        if body is not None:
            self.block(body, Scope(path, "function", False))

    def klass(
        self, node: Node, scope: Scope, wrapper: Node, comment: Node | None, visible: bool, default: bool
    ) -> None:
        path, _ = self.declared(node, scope, wrapper, comment, visible, "class")
        self.class_body(node, Scope(path, "class", visible, scope.ambient))

    def declared(
        self, node: Node, scope: Scope, wrapper: Node, comment: Node | None, visible: bool, kind: str
    ) -> tuple[str, Node | None]:
        """Emits a function or class declaration (an anonymous ``export default`` one is ``default``,
        named at the keyword): its symbol path and its body."""
        name_node = node.child_by_field_name("name")
        body = node.child_by_field_name("body")
        sig = self.header(_sig_start(wrapper), body, node)
        default_kw = next((c for c in wrapper.children if c.type == "default"), None)
        path = self.emit(
            scope,
            self.name_of(name_node) or "default",
            kind,
            wrapper,
            name_node or default_kw,
            sig,
            start=_span_start(wrapper),
            doc=self.doc_of(comment, wrapper),
            exported=visible,
        )
        return path, body

    def namespace(self, node: Node, scope: Scope, wrapper: Node, comment: Node | None, visible: bool) -> None:
        name_node = node.child_by_field_name("name")
        body = node.child_by_field_name("body")
        name = self.name_of(name_node) or "?"
        sig = self.header(_sig_start(wrapper), body, node)
        path = self.emit(
            scope,
            name,
            "namespace",
            wrapper,
            name_node,
            sig,
            start=_span_start(wrapper),
            doc=self.doc_of(comment, wrapper),
            exported=visible or node.type == "module",
        )
        if body is not None:
            self.block(body, Scope(path, "namespace", visible, scope.ambient or node.type == "module"))

    def enum(self, node: Node, scope: Scope, wrapper: Node, comment: Node | None, visible: bool) -> None:
        name_node = node.child_by_field_name("name")
        body = node.child_by_field_name("body")
        sig = self.header(_sig_start(wrapper), body, node)
        path = self.emit(
            scope,
            self.name_of(name_node) or "?",
            "enum",
            wrapper,
            name_node,
            sig,
            start=_span_start(wrapper),
            doc=self.doc_of(comment, wrapper),
            exported=visible,
        )
        if body is None:
            return
        inner = Scope(path, "enum", visible, scope.ambient)
        comment = None
        for member in body.named_children:
            if member.type == "comment":
                comment = member
                continue
            member_name = member.child_by_field_name("name") if member.type == "enum_assignment" else member
            self.emit(
                inner,
                self.name_of(member_name) or "?",
                "enum_member",
                member,
                member_name,
                brief(self.src.text_of(member), 80),
                doc=self.doc_of(comment, member),
                exported=visible,
            )
            comment = None

    def variables(self, node: Node, scope: Scope, wrapper: Node, comment: Node | None, visible: bool) -> None:
        doc = self.doc_of(comment, wrapper)
        start = _sig_start(wrapper)
        for declarator in node.named_children:
            if declarator.type != "variable_declarator":
                continue
            name_node = declarator.child_by_field_name("name")
            value = declarator.child_by_field_name("value")
            if name_node is None:
                continue
            prefix = self.src.slice(start.start_byte, node.start_byte) + _keyword(self.src, node)
            if name_node.type == "identifier":
                shown = visible or self.listed(scope, name_node)
                self.variable(declarator, name_node, value, scope, wrapper, prefix, doc, shown)
            elif scope.kind != "function":
                sig = clip(collapse(prefix + " " + self.src.text_of(declarator)))
                for target in _pattern_names(name_node):
                    self.emit(
                        scope,
                        self.src.text_of(target),
                        "variable",
                        wrapper,
                        target,
                        sig,
                        start=_span_start(wrapper),
                        doc=doc,
                        exported=visible,
                    )

    def variable(
        self,
        declarator: Node,
        name_node: Node,
        value: Node | None,
        scope: Scope,
        wrapper: Node,
        prefix: str,
        doc: str | None,
        visible: bool,
    ) -> None:
        value_kind = value.type if value is not None else None
        if value_kind in FUNCTION_VALUES:
            assert value is not None
            kind = "function"
        elif value_kind in CLASS_VALUES:
            kind = "class"
        elif scope.kind == "function":
            return  # local variables are not outline material
        else:
            kind = "variable"
        name = self.src.text_of(name_node)
        head = self.src.slice(
            declarator.start_byte, value.start_byte if value is not None else declarator.end_byte
        )
        if value is None:
            sig = collapse(prefix + " " + head)
        elif kind == "variable":
            type_part = clip_type(head)
            sig = collapse(prefix) + " " + type_part + " " + value_text(self.src, value)
        else:
            body = value.child_by_field_name("body")
            sig = collapse(
                prefix
                + " "
                + head
                + self.src.slice(value.start_byte, body.start_byte if body else value.end_byte)
            )
        path = self.emit(
            scope,
            name,
            kind,
            wrapper,
            name_node,
            sig.rstrip(";"),
            start=_span_start(wrapper),
            doc=doc,
            exported=visible,
        )
        if value is None:
            return
        if kind == "function":
            body = value.child_by_field_name("body")
            if body is not None and body.type == "statement_block":
                self.block(body, Scope(path, "function", False))
        elif kind == "class":
            self.class_body(value, Scope(path, "class", visible, scope.ambient))
        elif value_kind == "object" and scope.kind in ("module", "namespace"):
            self.object_members(value, Scope(path, "object", visible, scope.ambient))

    # -- members -----------------------------------------------------------------


def _bodies(node: Node) -> list[Node]:
    out = []
    for name in _BODY_FIELDS:
        child = node.child_by_field_name(name)
        if child is not None:
            out.append(child)
    return out


def _keyword(src: TsSource, node: Node) -> str:
    """``const``/``let``/``var`` (with ``await using``/``using``) of a declaration."""
    first = node.children[0] if node.children else None
    if first is None or first.is_named:
        return ""
    declarators = [c for c in node.children if c.type == "variable_declarator"]
    stop = declarators[0].start_byte if declarators else first.end_byte
    return src.slice(first.start_byte, stop).rstrip()


def _pattern_names(pattern: Node) -> list[Node]:
    """Identifiers bound by a destructuring pattern, in source order."""
    out: list[Node] = []
    stack = [pattern]
    while stack:
        node = stack.pop()
        kind = node.type
        if kind in ("identifier", "shorthand_property_identifier_pattern"):
            out.append(node)
        elif kind == "pair_pattern":
            value = node.child_by_field_name("value")
            if value is not None:
                stack.append(value)
        elif kind in ("assignment_pattern", "object_assignment_pattern"):
            left = node.child_by_field_name("left")
            if left is not None:
                stack.append(left)
        else:
            stack.extend(reversed(node.named_children))
    return out


def _sig_start(wrapper: Node) -> Node:
    """First child that is not a decorator or comment (signatures omit decorators)."""
    if wrapper.type != "export_statement" and not has_child(wrapper, "decorator"):
        return wrapper
    for child in wrapper.children:
        if child.type not in ("decorator", "comment"):
            return child
    return wrapper


def _span_start(wrapper: Node) -> Node | None:
    return None if wrapper.type != "export_statement" else wrapper
