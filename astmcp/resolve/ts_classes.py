"""Classes, interfaces, enums, type aliases and namespaces: their members, bases and type arguments."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from astmcp.resolve.ts_fact_state import FUNCTION_VALUES, MEMBER_NAMES, UNREAD, named_nodes
from astmcp.resolve.ts_functions import Functions
from astmcp.resolve.ts_scopes import Binding, Desc, Scope


class Classes(Functions):
    # -- classes and types -----------------------------------------------------
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
            if clause.type == "comment":
                continue
            # JS: `class_heritage` holds the base expression itself (TS wraps it in an extends_clause)
            written = clause.type in ("extends_clause", "implements_clause")
            extends = clause.type == "extends_clause" or not written
            for part in clause.named_children if written else [clause]:
                if part.type == "type_arguments":
                    if bases:
                        bargs.append((bases[-1], [self.targ(a, scope) for a in named_nodes(part)]))
                    self.type_kind = "type"
                    self.visit(part, scope)
                    self.type_kind = "inherit"
                    continue
                base = self.desc(part, scope) if extends else self.tdesc(part, scope)
                bases.append(base)
                if part.type == "generic_type":
                    args = named_nodes(part.child_by_field_name("type_arguments"))
                    bargs.append((base, [self.targ(a, scope) for a in args]))
                if extends and self.super is None and base is not None:
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
                outer_owner, outer_this = self.owner, self.this
                # an initializer runs on the instance (`min = this.gte`), a static one on the class
                self.this = me if static else (("i", me) if me is not None else None)
                if name is not None and name.type in MEMBER_NAMES and me is not None:
                    key = self.definition(name)
                    vtype = (
                        self.instance(annotation, scope)
                        if annotation is not None
                        else self.desc(value, scope)
                    )
                    if vtype is not None:
                        self.vtypes[key] = vtype
                    self.discriminant(key, annotation)
                    self.function_typed(key, annotation, scope)
                elif name is not None and me is not None and annotation is not None and _named_by_value(name):
                    # `[DRAFT_STATE]: MapState`, read `this[DRAFT_STATE]`
                    vtype = self.instance(annotation, scope)
                    if vtype is not None:
                        self.vtypes[self.key(name)] = vtype
                        self.ckeys[self.key(name)] = ("n", scope, self.text(named_nodes(name)[0]))
                if key is not None and value is not None and value.type in FUNCTION_VALUES:
                    self.owner = key
                    ret = value.child_by_field_name("return_type")
                    if ret is not None:
                        self.rtypes[key] = self.instance(ret, scope)
                    if annotation is None and value.child_by_field_name("type_parameters") is None:
                        # `onScroll = ({ moved }: { moved: boolean }) => …`: what an object literal
                        # passed to it is checked against (as for `const f = (o: …) => …`)
                        types = self.parameter_types(value.child_by_field_name("parameters"), scope)
                        if any(t is not None for t in types):
                            self.ptypes[key] = types
                        # `set = (updater: (prev: State) => State) => …`: a function passed to it too
                        self.callback_types(value, key, scope)
                    elif annotation is None:
                        # `static create = <T extends Shape>(shape: T) => …`: the function records
                        # its signature under the field (its type parameters are bound inside it)
                        self.value_key = (value.id, key)
                self.inferred = None
                for child in member.named_children:
                    if child == value:  # `handler: Handler = (a) => …`
                        self.declared_value(annotation, child, scope)
                    elif child != name or child.type not in MEMBER_NAMES:
                        self.visit(child, scope)
                functional = value is not None and value.type in FUNCTION_VALUES
                if key is not None and functional and annotation is None and self.inferred is not None:
                    self.rtypes.setdefault(key, self.inferred)  # `static make = () => new Num()`
                self.owner, self.this = outer_owner, outer_this
            elif kind == "abstract_method_signature" or kind == "method_signature":
                self.member_signature(member, scope, owned=me is not None)
            else:
                self.visit(member, scope)

    def member_signature(self, node: Node, scope: Scope, owned: bool = False) -> None:
        name = node.child_by_field_name("name")
        inner = Scope(scope, True)
        key = None
        if name is not None and name.type in MEMBER_NAMES and owned:
            key = self.definition(name)
            if node.type == "property_signature":
                self.discriminant(key, node.child_by_field_name("type"))
                kind = named_nodes(node.child_by_field_name("type"))
                if kind and kind[0].type == "function_type":
                    self.ftypes[key] = self.parameter_types(kind[0].child_by_field_name("parameters"), inner)
                self.function_typed(key, node.child_by_field_name("type"), inner)
            else:
                self.signature(node, key, inner)
                self.callback_types(node, key, inner)  # a function passed to it is typed by them
        elif owned and node.type == "property_signature" and _named_by_value(name):
            annotation = node.child_by_field_name("type")
            typed = self.instance(annotation, inner) if annotation is not None else None
            if typed is not None and name is not None:  # `[DRAFT_STATE]: MapState` of an interface
                self.vtypes[self.key(name)] = typed
                self.ckeys[self.key(name)] = ("n", scope, self.text(named_nodes(name)[0]))
        for child in node.named_children:
            if child == name:
                if child.type not in MEMBER_NAMES:
                    self.visit(child, scope)
                continue
            if child.type == "formal_parameters":
                self.params(child, inner, None)
                continue
            if key is not None and child.type == "type_annotation":
                typed = self.instance(child, inner)
                if node.type == "method_signature":
                    typed = ("u", typed)  # a return type not read here (`InstanceType<K>`): not known
                if typed is not None:
                    (self.rtypes if node.type != "property_signature" else self.vtypes)[key] = typed
            self.visit(child, inner)

    def function_typed(self, key: str, annotation: Node | None, scope: Scope) -> None:
        """A member annotated with a function type (``connector: () => SubjectLike<T>``, optional
        ones too): calling it gives what the type returns (``rtypes``)."""
        kind = named_nodes(annotation) if annotation is not None else []
        if kind and kind[0].type == "function_type":
            ret = kind[0].child_by_field_name("return_type")
            made = self.instance(ret, scope) if ret is not None else None
            if made is not None:
                self.rtypes[key] = made

    def index_signature(self, member: Node, key: str, scope: Scope) -> None:
        """An interface's or object type alias' index signature: what ``x[k]`` gives (``indexes``;
        a number index signature, what ``x[0]`` gives: ``nindexes``)."""
        value = self.index_value(member, scope)
        if value is not None:
            self.indexes[key] = value
        value = self.index_value(member, scope, "number")
        if value is not None:
            self.nindexes[key] = value

    def discriminant(self, key: str, annotation: Node | None) -> None:
        """A member declared with string literal types (``code: "a" | "b"``) can tell a union's
        alternatives apart (``lits``)."""
        values = self.literal_values(annotation) if annotation is not None else None
        if values:
            self.lits[key] = values

    def interface(self, node: Node, scope: Scope) -> None:
        name = node.child_by_field_name("name")
        inner = Scope(scope, False)
        # a local interface is no symbol: a value of it holds nothing known, yet it is typed (its
        # members' uses are name hits that never become `likely`, as a local alias's are: the
        # interface's own members may share the name of the project's one member of it)
        local = not scope.symbolic
        key = (
            self.declare(scope, name, UNREAD if local else None, not local, type_only=True)
            if name is not None
            else self.key(node)
        )
        if name is not None and self.augmenting is not None and self.augmenting[0] is scope:
            # merged into the interface of that name the augmented module exports: a reference
            # to it, renamed with it
            self.row(name, "type", ("k", f"I:{self.text(name)}:{self.augmenting[1]}"))
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
                        args = named_nodes(part.child_by_field_name("type_arguments"))
                        self.bargs.setdefault(key, []).append(
                            (bases[-1], [self.targ(a, inner) for a in args])
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
                        self.index_signature(member, key, inner)
                        if member.type == "construct_signature":
                            self.construct_signature(member, key, inner)
                        elif member.type == "call_signature" and key not in self.ftypes:
                            # a function value of this type takes its parameter types (`%j`)
                            self.ftypes[key] = self.parameter_types(
                                member.child_by_field_name("parameters"), inner
                            )
                        if member.type == "call_signature":
                            self.call_signature(member, key, inner)
                        self.visit(member, inner)
            else:
                self.visit(child, inner)
        self.owner = outer

    def call_signature(self, node: Node, key: str, scope: Scope) -> None:
        """What calling a value of the type ``key`` gives: its call signature's (or function
        type's) declared return type; nothing when it has several call signatures (overloads)."""
        if key in self.sigrets:
            self.sigrets[key] = None
            return
        ret = node.child_by_field_name("return_type")
        self.sigrets[key] = self.instance(ret, scope) if ret is not None else None

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
            if member_name is not None and member_name.type in MEMBER_NAMES:
                # `All = Read | Write`: the member itself (renamed with it)
                inner.names[self.text(member_name)] = Binding(f"P:{self.key(member_name)}")
        for member in body.named_children:
            if member.type in MEMBER_NAMES:
                self.definition(member)
            elif member.type == "enum_assignment":
                member_name = member.child_by_field_name("name")
                if member_name is not None and member_name.type in MEMBER_NAMES:
                    self.definition(member_name)
                value = member.child_by_field_name("value")
                if value is not None:
                    self.visit(value, inner)

    def type_alias(self, node: Node, scope: Scope) -> None:
        name = node.child_by_field_name("name")
        inner = Scope(scope, False)
        value = node.child_by_field_name("value")
        if name is not None:
            # a local alias is no symbol: it stands for the type it names (of an object type
            # written out, for nothing known: its values' uses are name hits)
            local = not scope.symbolic
            key = self.declare(scope, name, None, not local, type_only=True)
            self.type_parameters(node, key)
            # `type A<T> = B<T>`: an instance of B, T bound by A's (an object type's members are its own)
            shape = (
                value is not None
                and value.type == "object_type"
                and self.homomorphic(value) is None
                and self.keyed(value) is None
            )
            found = self.targ(value, inner) if not shape else None
            if local:
                binding = scope.lookup_type(self.text(name))
                if binding is not None:
                    # a type it names that cannot be read (`Parameters<Observer["subscribe"]>[0]`, an
                    # object type written out) types its values all the same: their members are name
                    # hits that never become `likely` (as a module-level alias's are), not reads off a
                    # receiver nobody typed
                    binding.vtype = found if found is not None else ("u", None)
            elif found is not None:
                self.vtypes[key] = found
            if value is not None and value.type == "function_type":
                self.ftypes[key] = self.parameter_types(value.child_by_field_name("parameters"), inner)
                self.call_signature(value, key, inner)
            if shape:
                self.shapes.append(key)
            for member in named_nodes(value) if value is not None and value.type == "object_type" else ():
                self.index_signature(member, key, inner)
                if member.type == "construct_signature":
                    self.construct_signature(member, key, inner)
                elif member.type == "call_signature" and key not in self.ftypes:
                    self.ftypes[key] = self.parameter_types(member.child_by_field_name("parameters"), inner)
                if member.type == "call_signature":
                    self.call_signature(member, key, inner)
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

    def namespace(self, node: Node, scope: Scope) -> None:
        name = node.child_by_field_name("name")
        inner = Scope(scope, True, symbolic=True)
        if name is not None and name.type == "identifier":
            self.declare(scope, name, None, True)
        elif name is not None and name.type == "nested_identifier" and name.named_children:
            first = name.named_children[0]
            if first.type == "identifier":
                self.declare(scope, first, None, True)
                last = name.named_children[-1]
                if len(name.named_children) == 2 and last.type == "property_identifier":
                    # `namespace A.B { … }` is `namespace A { export namespace B { … } }`: another
                    # `namespace A` body sees B (the symbol `A.B`), and this body sees A's exports
                    holder = Scope(scope, True, symbolic=True)
                    holder.names[self.text(last)] = Binding(f"P:{self.key(name)}")
                    holder.exports = frozenset({self.text(last)})
                    self.merged_body(scope, self.text(first), holder)
                    inner = Scope(holder, True, symbolic=True)
        body = node.child_by_field_name("body")
        if body is None:
            return
        if name is not None and name.type == "identifier":
            self.merged_body(scope, self.text(name), inner)
        outer = self.augmenting
        if name is not None and name.type == "string" and len(self.text(name)) > 2:
            self.augmenting = (inner, self.text(name)[1:-1])  # `declare module "pkg" { … }`
            if not self.augmenting[1].startswith("."):
                self.augments.add(self.augmenting[1])
        self.children(body, inner)
        self.augmenting = outer
        inner.exports = frozenset(_exported_names(body))

    def merged_body(self, scope: Scope, name: str, body: Scope) -> None:
        """Join ``body`` to the other bodies of the namespace ``name`` declared in ``scope``
        (`namespace A { … }` twice): each sees the others' exports unqualified."""
        siblings = self.namespace_bodies.setdefault((id(scope), name), [])
        siblings.append(body)
        body.merged = siblings


def _exported_names(body: Node) -> Iterator[str]:
    """The names a namespace body's ``export`` statements declare."""
    for statement in body.named_children:
        declaration = (
            statement.child_by_field_name("declaration") if statement.type == "export_statement" else None
        )
        if declaration is None:
            continue
        name = declaration.child_by_field_name("name")
        if name is not None and name.text is not None:
            yield name.text.decode()
        for declarator in declaration.named_children:
            target = (
                declarator.child_by_field_name("name") if declarator.type == "variable_declarator" else None
            )
            if target is not None and target.type == "identifier" and target.text is not None:
                yield target.text.decode()


def _named_by_value(name: Node | None) -> bool:
    """A member named by a value (``[DRAFT_STATE]: T``, ``[Symbol.iterator]``): a computed name of one
    identifier, which ``x[DRAFT_STATE]`` reads."""
    return (
        name is not None
        and name.type == "computed_property_name"
        and [c.type for c in named_nodes(name)] == ["identifier"]
    )
