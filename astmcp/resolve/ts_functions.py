"""Functions and what is passed to them: signatures, callback parameter types, calls, arguments and object literals."""

from __future__ import annotations

from tree_sitter import Node

from astmcp.resolve.ts_declarations import Declarations
from astmcp.resolve.ts_fact_state import FUNCTIONS, MEMBER_NAMES, named_nodes
from astmcp.resolve.ts_scopes import Binding, Desc, Scope


class Functions(Declarations):
    # -- functions -------------------------------------------------------------
    def function(
        self, node: Node, scope: Scope, owner_class: Desc = None, static: bool = False, member: bool = False
    ) -> None:
        kind = node.type
        name = node.child_by_field_name("name")
        outer_owner, outer_this = self.owner, self.this
        inner = Scope(scope, True)
        key = None
        if name is not None:
            if kind in FUNCTIONS:
                key = self.declare(scope, name, None, True)
            elif kind == "method_definition":
                if name.type not in MEMBER_NAMES:
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
        inner = named_nodes(ret)[0] if ret is not None and named_nodes(ret) else None
        if inner is not None and inner.type == "generic_type":
            head = inner.child_by_field_name("name")
            args = inner.child_by_field_name("type_arguments")
            if head is not None and args is not None:
                self.rgen[key] = (self.tdesc(head, scope), [self.tdesc(a, scope) for a in named_nodes(args)])

    def callback_types(self, node: Node, key: str, scope: Scope) -> None:
        """Parameter types of the function-typed parameters of a declared function."""
        params = node.child_by_field_name("parameters")
        if params is None:
            return
        found: dict[str, list[Desc]] = {}
        index = 0
        for param in named_nodes(params):
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
                for sub in named_nodes(inner):
                    sub_pattern = sub.child_by_field_name("pattern")
                    if sub_pattern is not None and sub_pattern.type == "this":
                        continue
                    types.append(self.instance(sub.child_by_field_name("type"), scope))
                if any(t is not None for t in types):
                    found[str(index)] = types
            index += 1
        if found:
            self.cbtypes[key] = found

    def parameter_types(self, params: Node | None, scope: Scope) -> list[Desc]:
        """Declared types (instances) of a parameter list, ``this`` left out."""
        out: list[Desc] = []
        for param in named_nodes(params):
            pattern = param.child_by_field_name("pattern")
            if pattern is None or pattern.type != "this":
                out.append(self.instance(param.child_by_field_name("type"), scope))
        return out

    # -- calls -----------------------------------------------------------------
    def call_expression(self, node: Node, scope: Scope) -> None:
        self.call(node, scope, node.child_by_field_name("function"), False)

    def new_expression(self, node: Node, scope: Scope) -> None:
        self.call(node, scope, node.child_by_field_name("constructor"), True)

    def call(self, node: Node, scope: Scope, callee: Node | None, new: bool) -> None:
        """A call or ``new``: the callee is called, its arguments are passed to it."""
        if callee is not None:
            self.expr(callee, scope, "call")
        for child in node.named_children:
            if child.type == "arguments":
                self.arguments(child, scope, callee, new)
            elif child != callee:
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
        for k, arg in enumerate(named_nodes(node)):
            if target is not None and arg.type in ("arrow_function", "function_expression"):
                self.callback = (target, k, new, site)
            if target is not None and arg.type == "object":
                self.object(arg, scope, typed=("p", target, k, new, site))
                continue
            self.visit(arg, scope)
            self.callback = None

    # -- object literals -------------------------------------------------------
    def object(self, node: Node, scope: Scope, members: bool = False, typed: Desc = None) -> None:
        for child in node.named_children:
            kind = child.type
            if kind == "pair":
                self.pair(child, scope, members, typed)
            elif kind == "method_definition":
                name = child.child_by_field_name("name")
                if typed is not None and name is not None and name.type in MEMBER_NAMES:
                    # its parameters are those of the declared type's member
                    self.callback = (("m", typed, self.text(name)), -1, False, None)
                if members and name is not None and name.type in MEMBER_NAMES:
                    self.function(child, scope, None, member=True)
                    if typed is not None:  # it also provides a member of the declared type
                        self.row(name, "write", ("o", typed))
                else:
                    if name is not None and name.type in MEMBER_NAMES:
                        self.row(name, "attribute", ("o", typed))
                    self.function(child, scope, None)
                self.callback = None
            else:
                self.visit(child, scope)

    def pair(self, node: Node, scope: Scope, members: bool = False, typed: Desc = None) -> None:
        key = node.child_by_field_name("key")
        value = node.child_by_field_name("value")
        if key is not None:
            if key.type in MEMBER_NAMES:
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
                if typed is not None and key is not None and key.type in MEMBER_NAMES and functional:
                    self.callback = (("m", typed, self.text(key)), -1, False, None)
                self.visit(value, scope)
                self.callback = None
