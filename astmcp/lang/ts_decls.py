"""TS/JS declarations the symbol walk emits: functions, classes, namespaces, enums, variables
(destructuring, ``require``, values that are functions or classes) and ``declare`` forms."""

from __future__ import annotations

from tree_sitter import Node

from astmcp.lang.ts_commonjs import CommonJsWalker
from astmcp.lang.ts_members import MemberWalker
from astmcp.lang.ts_parse import TsSource
from astmcp.lang.ts_text import brief, clip, clip_alias, clip_type, collapse
from astmcp.lang.ts_walk import CLASS_VALUES, FUNCTION_VALUES, Scope, has_child, value_text

_FUNCTION_DECLS = {"function_declaration", "generator_function_declaration", "function_signature"}
_CLASS_DECLS = {"class_declaration", "abstract_class_declaration"}


class DeclarationWalker(MemberWalker, CommonJsWalker):
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
            path, body = self.declared(node, scope, wrapper, comment, visible, "interface")
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

    def ambient(self, node: Node, scope: Scope, wrapper: Node, comment: Node | None) -> None:
        """``declare …``: everything inside is visible to importers."""
        inner = Scope(scope.path, scope.kind, scope.exported, True)
        for child in node.named_children:
            if child.type == "statement_block":  # declare global { … }
                path = self.emit(scope, "global", "namespace", wrapper, None, "declare global", exported=True)
                self.block(child, Scope(path, "namespace", True, True))
            elif child.type != "comment":
                self.declaration(child, inner, wrapper, comment, exported=True)

    def function(
        self, node: Node, scope: Scope, wrapper: Node, comment: Node | None, visible: bool, default: bool
    ) -> None:
        path, body = self.declared(
            node, scope, wrapper, comment, visible, "function", "default", _default_keyword(wrapper)
        )
        if body is not None:
            self.block(body, Scope(path, "function", False))

    def klass(
        self, node: Node, scope: Scope, wrapper: Node, comment: Node | None, visible: bool, default: bool
    ) -> None:
        path, _ = self.declared(
            node, scope, wrapper, comment, visible, "class", "default", _default_keyword(wrapper)
        )
        self.class_body(node, Scope(path, "class", visible, scope.ambient))

    def declared(
        self,
        node: Node,
        scope: Scope,
        wrapper: Node,
        comment: Node | None,
        exported: bool,
        kind: str,
        unnamed: str = "?",
        anchor: Node | None = None,
    ) -> tuple[str, Node | None]:
        """Emits a declaration with a header and a body (function, class, interface, namespace, enum); one
        without a name is ``unnamed`` at ``anchor`` (``export default`` ones: ``default``, at the keyword).
        Gives its symbol path and its body."""
        name_node = node.child_by_field_name("name")
        body = node.child_by_field_name("body")
        sig = self.header(_sig_start(wrapper), body, node)
        path = self.emit(
            scope,
            self.name_of(name_node) or unnamed,
            kind,
            wrapper,
            name_node or anchor,
            sig,
            start=_span_start(wrapper),
            doc=self.doc_of(comment, wrapper),
            exported=exported,
        )
        return path, body

    def namespace(self, node: Node, scope: Scope, wrapper: Node, comment: Node | None, visible: bool) -> None:
        path, body = self.declared(
            node, scope, wrapper, comment, visible or node.type == "module", "namespace"
        )
        if body is not None:
            self.block(body, Scope(path, "namespace", visible, scope.ambient or node.type == "module"))

    def enum(self, node: Node, scope: Scope, wrapper: Node, comment: Node | None, visible: bool) -> None:
        path, body = self.declared(node, scope, wrapper, comment, visible, "enum")
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


def _default_keyword(wrapper: Node) -> Node | None:
    return next((c for c in wrapper.children if c.type == "default"), None)
