"""Declarations: variables, destructuring patterns, ``require`` bindings and parameters bind names in scopes
and record their value types."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterator

from tree_sitter import Node, Query, QueryCursor, Tree

from astmcp.resolve.ts_descriptors import spread_tuple
from astmcp.resolve.ts_fact_state import (
    ANYTHING,
    FUNCTION_VALUES,
    MEMBER_NAMES,
    UNREAD,
    is_ident,
    named_nodes,
    own_key,
)
from astmcp.resolve.ts_occurrences import Occurrences
from astmcp.resolve.ts_reach import bound_module
from astmcp.resolve.ts_scopes import Binding, Desc, Scope, Site

_JS_PARAMETERS = {"identifier", "assignment_pattern", "object_pattern", "array_pattern", "rest_pattern"}


class Declarations(Occurrences):
    # In a later layer (object), reached from here.
    @abstractmethod
    def object(self, node: Node, scope: Scope, members: bool = False, typed: Desc = None) -> None: ...

    @abstractmethod
    def callback_types(self, node: Node, key: str, scope: Scope) -> None: ...

    # -- declarations ----------------------------------------------------------
    def declare(
        self,
        scope: Scope,
        name_node: Node,
        vtype: Desc = None,
        symbol: bool | None = None,
        type_only: bool = False,
        value_only: bool = False,
    ) -> str:
        """Bind a name (``type_only``: an interface or type alias); a symbol's definition row is
        emitted. Returns its position key."""
        key = self.key(name_node)
        is_symbol = scope.symbolic if symbol is None else symbol
        scope.bind(
            self.text(name_node),
            Binding(f"P:{key}" if is_symbol else None, vtype, type_only=type_only, value_only=value_only),
        )
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

    def member_reads_only(self, name: Node) -> bool:
        """Whether the module-level binding ``name`` declares is read in its file only as the
        object of member reads (``o.port``), and not exported."""
        statement = name.parent.parent if name.parent is not None else None
        if statement is None or (
            statement.parent is not None and statement.parent.type == "export_statement"
        ):
            return False
        for use in _uses(self.src.tree, name.text or b""):
            if use.id == name.id:
                continue
            holder = use.parent
            if use.type != "identifier" or holder is None or holder.type != "member_expression":
                return False
            if holder.child_by_field_name("object") != use:
                return False
        return True

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
            inner = named_nodes(annotation)
            if inner and inner[0].type == "generic_type":
                self.expect[value.id] = inner[0]
            if inner and inner[0].type in ("type_identifier", "nested_type_identifier", "generic_type"):
                self.stored_as[value.id] = inner[0]
        vtype = self.declared(annotation, scope) if annotation is not None else self.desc(value, scope)
        if vtype is None and annotation is not None:
            vtype = UNREAD
        if annotation is not None and value is not None:
            self.keyed_strings(annotation, value, scope)
        if vtype == ANYTHING and value is not None and value.type == "new_expression" and _const(node):
            # `const o: any = new Observable()`: declared loosely, and still that one instance
            vtype = self.desc(value, scope) or vtype
        if vtype is None and value is not None and value.type in FUNCTION_VALUES and not target.symbolic:
            vtype = self.local_function(value, scope)
        if (
            self.javascript
            and name.type == "identifier"
            and value is not None
            and not target.symbolic
            and (held := target.names.get(self.text(name))) is not None
        ):
            # JS: `var r = new Route(); …; var r = makeWidget()`: one variable given both
            self.reassigned(name, value, target)
            vtype = held.vtype if held.vtype is not None else vtype
        if name.type == "identifier":
            key = self.declare(target, name, vtype, value_only=True)
            if value is not None and value.type in FUNCTION_VALUES and target.symbolic:
                ret = value.child_by_field_name("return_type")
                if ret is not None:
                    self.rtypes[key] = self.instance(ret, scope)
                if value.child_by_field_name("type_parameters") is None:
                    # `const f = (o: { a: A }) => …`: what an object literal passed to f is checked
                    # against
                    types = self.parameter_types(value.child_by_field_name("parameters"), scope)
                    if any(t is not None for t in types):
                        self.ptypes[key] = types
                    self.callback_types(value, key, scope)  # and what a function passed to f takes
                elif annotation is None:
                    # `const f = <T extends Shape>(o: T) => …`: the function records its signature
                    # under the variable (its type parameters are bound inside it)
                    self.value_key = (value.id, key)
            outer = self.owner
            if target.symbolic:
                self.owner = key
            if annotation is not None:
                self.visit(annotation, scope)
            if value is not None:
                if value.type == "object" and target.symbolic:
                    self.object(value, scope, members=True, typed=vtype if annotation is not None else None)
                    spread = [c for c in named_nodes(value) if c.type == "spread_element"]
                    if spread and annotation is None:  # `{ ...a, ...b }`: their members are its own
                        # in source order, with the keys it writes itself (`=port`): a later one wins
                        self.spreads[key] = [
                            self.desc(c.named_children[0], scope)
                            if c.type == "spread_element"
                            else ("k", f"={own}")
                            for c in named_nodes(value)
                            if c.type == "spread_element" or (own := own_key(c)) is not None
                        ]
                    elif annotation is None and self.member_reads_only(name):
                        # `const o = { port: 8080 }; o.port`: its own key (where `o` goes on, a
                        # renamed type's member may be this key: rename_refs' literal key rule)
                        self.okeys[key] = sorted(
                            {own for c in named_nodes(value) if (own := own_key(c)) is not None}
                        )
                elif value.type == "object" and annotation is not None:
                    self.object(value, scope, typed=vtype)
                else:
                    self.inferred = None
                    if annotation is not None and vtype is not None:
                        # `const c: Config = s ? { url: s } : given`: the literals are Configs
                        self.expect_objects(value, vtype)
                    self.declared_value(annotation, value, scope)
                    if value.type in FUNCTION_VALUES and self.inferred is not None and annotation is None:
                        # (declared with a type, `const create: Create = (m) => ({ … })`: what that
                        # type's call gives)
                        self.inferred_return(target, name, key, vtype)
            self.owner = outer
            return
        self.pattern(name, target, self.desc(value, scope), local=not target.symbolic)
        for child in (annotation, value):
            if child is not None:
                self.visit(child, scope)

    def inferred_return(self, target: Scope, name: Node, key: str, vtype: Desc) -> None:
        """A function value bound to ``name`` returns what its single ``return`` gives (when it
        declares no return type): the symbol's ``rtypes``, or a local function's descriptor."""
        if target.symbolic:
            self.rtypes.setdefault(key, self.inferred)
        elif vtype is not None and vtype[0] == "f" and vtype[3] is None:
            binding = target.names.get(self.text(name))
            if binding is not None:
                binding.vtype = ("f", vtype[1], vtype[2], self.inferred, *vtype[4:])

    def function_typed_parameters(self, node: Node) -> Iterator[tuple[int, Node]]:
        """A function's parameters declared with a function type written out: (the parameter's
        index, ``this`` left out; the ``function_type`` node)."""
        index = 0
        for param in named_nodes(node.child_by_field_name("parameters")):
            pattern = param.child_by_field_name("pattern")
            if pattern is not None and pattern.type == "this":
                continue
            annotation = param.child_by_field_name("type")
            kind = named_nodes(annotation)[0] if annotation is not None and named_nodes(annotation) else None
            if kind is not None and kind.type == "union_type":  # `string | ((a: A) => R)`: the function
                functions = [p for p in self.alternatives(kind) if _function_type(p) is not None]
                kind = _function_type(functions[0]) if len(functions) == 1 else None
            if kind is not None and kind.type == "function_type":
                yield index, kind
            index += 1

    def declared_callback_returns(self, node: Node, scope: Scope) -> dict[int, Desc]:
        """The declared return types of a function's function-typed parameters, by parameter index:
        an object literal a function passed there returns is one."""
        found: dict[int, Desc] = {}
        for index, kind in self.function_typed_parameters(node):
            returned = kind.child_by_field_name("return_type")
            # `() => [...T]`: T is bound to the parts of the array the function passed returns
            returned = spread_tuple(returned) or returned
            value = self.instance(returned, scope) if returned is not None else None
            if value is not None:
                found[index] = value
        return found

    def declared_callbacks(self, node: Node, scope: Scope) -> dict[int, list[Desc]]:
        """The parameter types of a function's function-typed parameters, by parameter index."""
        found: dict[int, list[Desc]] = {}
        for index, kind in self.function_typed_parameters(node):
            types = self.parameter_types(kind.child_by_field_name("parameters"), scope, rest=True)
            if any(t is not None for t in types):
                found[index] = types
        return found

    def declared_callback_this(self, node: Node, scope: Scope) -> dict[int, Desc]:
        """The declared ``this`` of a function's function-typed parameters, by parameter index
        (``work: (this: Action<T>, state?: T) => void``: ``this`` in the function passed is an
        ``Action<T>``)."""
        found: dict[int, Desc] = {}
        for index, kind in self.function_typed_parameters(node):
            for inner in named_nodes(kind.child_by_field_name("parameters")):
                pattern = inner.child_by_field_name("pattern")
                if pattern is not None and pattern.type == "this":
                    this = self.instance(inner.child_by_field_name("type"), scope)
                    if this is not None:
                        found[index] = this
        return found

    def local_function(self, value: Node, scope: Scope) -> Desc:
        """A local name bound to a function value: ``("f", parameter types, callbacks' parameter
        types, declared return type, callbacks' declared return types)`` (see
        :func:`~astmcp.resolve.ts_scopes.chain_of`)."""
        ret = value.child_by_field_name("return_type")
        return (
            "f",
            self.parameter_types(value.child_by_field_name("parameters"), scope),
            self.declared_callbacks(value, scope),
            self.return_value(ret, scope),
            self.declared_callback_returns(value, scope),
        )

    def declared_value(self, annotation: Node | None, value: Node, scope: Scope) -> None:
        """Visit the value of a declaration annotated ``annotation`` (a variable, a parameter's
        default, a class field): a function value takes its parameter types from a declared
        function type (``const f: Handler = (a) => …``, ``(a: A) => R``)."""
        if annotation is not None and value.type in ("arrow_function", "function_expression"):
            head = named_nodes(annotation)
            if head and head[0].type == "function_type":  # `const f: (a: A) => R = (a) => …`
                self.ftype = (head[0], scope)
            else:
                self.callback = self.contextual(annotation, scope)
        elif annotation is not None:  # `_def: Def = { values: [] }`: the literals are Defs
            typed = self.instance(annotation, scope)
            if typed is not None:
                self.expect_objects(value, typed)
        self.visit(value, scope)
        self.callback, self.ftype = None, None

    def pattern(self, node: Node, target: Scope, source: Desc, local: bool) -> None:
        """Bind the names of a destructuring pattern; keys are member rows of ``source``."""
        kind = node.type
        symbol = False if local else None
        if kind == "identifier":  # typed by what it is bound to (`{ a: b } = x`: x.a; `for (b of xs)`)
            self.declare(target, node, source, symbol, value_only=True)
        elif kind == "shorthand_property_identifier_pattern":
            self.declare(
                target, node, ("m", source, self.text(node)) if source else None, symbol, value_only=True
            )
            self.row(node, "attribute", source, member=True)
        elif kind == "pair_pattern":
            key = node.child_by_field_name("key")
            value = node.child_by_field_name("value")
            step = self.text(key) if key is not None and key.type in MEMBER_NAMES else None
            if key is not None and key.type in MEMBER_NAMES:
                self.row(key, "attribute", source, member=True)
            elif key is not None:  # `{ "accept": a }`, `{ ["size"]: s }`
                step = self.key_read(key, target, source, True)
            if value is not None:
                sub = ("m", source, step) if source and step is not None else None
                self.pattern(value, target, sub, local)
        elif kind in ("object_assignment_pattern", "assignment_pattern"):
            left = node.child_by_field_name("left") or (
                node.named_children[0] if node.named_children else None
            )
            right = node.child_by_field_name("right")
            if left is not None:
                self.pattern(left, target, source, local)
            if right is not None:
                if self.javascript and left is not None and left.type in _DEFAULTED:
                    self.defaulted(left, right, target)
                self.visit(right, target)
        elif kind == "array_pattern":  # `[a, , b] = pair`: the n-th name is part n (`|#n`)
            index = 0
            for child in node.children:
                if child.type == ",":
                    index += 1
                elif child.is_named:
                    part = ("m", source, f"#{index}") if source and child.type != "rest_pattern" else None
                    self.pattern(child, target, part, local)
        elif kind in ("object_pattern", "rest_pattern"):
            for child in node.named_children:
                self.pattern(child, target, source if kind == "object_pattern" else None, local)
        elif kind in ("member_expression", "subscript_expression"):
            self.expr(node, target, "write")

    def defaulted(self, name: Node, value: Node, target: Scope) -> None:
        """JS: ``const { r = makeWidget() } = obj`` (or a parameter's default): the name holds
        what it is bound to or its default, nothing checking that they agree (TypeScript does)."""
        binding = target.names.get(self.text(name))
        given = self.desc(value, target)
        if binding is None or given == binding.vtype:
            return
        union = f"{self.key(name)}="
        self.unions[union] = [binding.vtype, given]
        binding.vtype = ("k", f"U:{union}")
        if binding.chain is not None and binding.chain.startswith("P:"):
            self.vtypes[binding.chain[2:]] = binding.vtype

    def keyed_strings(self, annotation: Node, value: Node, scope: Scope) -> None:
        """String literals a ``keyof T`` annotation types (``const keys: (keyof Globals)[] =
        ["runId", …]``): each names T's member, as TypeScript checks (``key_strings``)."""
        inner = named_nodes(annotation)
        node = inner[0] if inner else None
        array = False
        while node is not None:
            if node.type in ("parenthesized_type", "readonly_type") and named_nodes(node):
                node = named_nodes(node)[0]
            elif node.type == "array_type" and not array and named_nodes(node):
                node, array = named_nodes(node)[0], True
            elif (
                node.type == "generic_type"
                and not array
                and self.text(node.child_by_field_name("name") or node) in ("Array", "ReadonlyArray")
                and len(named_nodes(node.child_by_field_name("type_arguments"))) == 1
            ):
                node, array = named_nodes(node.child_by_field_name("type_arguments"))[0], True
            else:
                break
        if node is None:
            return
        values = [value] if not array else named_nodes(value) if value.type == "array" else []
        strings = [
            item
            for item in values
            if item.type in ("string", "template_string")
            and [c.type for c in item.named_children] == ["string_fragment"]
        ]
        if node.type in ("type_identifier", "nested_type_identifier", "generic_type"):
            # `const keys: ObserverKey[] = ["onStarted"]` with `type ObserverKey = keyof Observer`:
            # the linker judges the named type as a parameter's (step `=`; a type that is no `keyof`
            # leaves the strings name hits)
            named = self.instance(node, scope)
            for item in strings if named is not None else ():
                self.argument_strings[item.id] = named
            return
        if node.type != "index_type_query" or len(named_nodes(node)) != 1:
            return
        owner = self.instance(named_nodes(node)[0], scope)
        for item in strings if owner is not None else ():
            self.key_strings[item.id] = owner

    def require_of(self, value: Node | None) -> str | None:
        return bound_module(value, self.raw)

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
                    # `{ "fmt": f }`, `{ ["fmt"]: f }`: the quoted text names the export (edited inside)
                    quoted = self.quoted_text(key)
                    if key.type in MEMBER_NAMES:
                        original, at = self.text(key), key
                    elif quoted is not None and is_ident(quoted[1]):
                        at, original = quoted
                    else:
                        self.visit(key, target)  # any other computed key: the plain rules
                        continue
                    target.names[self.text(value)] = Binding(f"I:{original}:{spec}", alias=True)
                    self.row(at, "import", ("k", f"I:{original}:{spec}"), name=original)

    def for_in(self, node: Node, scope: Scope) -> None:
        inner = Scope(scope, False)
        left = node.child_by_field_name("left")
        kind = node.child_by_field_name("kind")
        if left is not None:
            if kind is not None:
                target = inner if self.text(kind) != "var" else scope.var_scope()
                operator = node.child_by_field_name("operator")
                iterated = self.desc(node.child_by_field_name("right"), scope)
                of = operator is not None and operator.type == "of" and iterated is not None
                self.pattern(left, target, ("e", iterated) if of else None, local=True)
            elif left.type in ("object_pattern", "array_pattern"):
                # `for ({ accept: a } of hs)`: a destructuring assignment of each element
                operator = node.child_by_field_name("operator")
                iterated = self.desc(node.child_by_field_name("right"), scope)
                of = operator is not None and operator.type == "of" and iterated is not None
                self.assigned_pattern(left, scope, ("e", iterated) if of else None)
            else:
                self.expr(left, scope, "write")
        for child in node.named_children:
            if child != left and child != kind:
                self.visit(child, inner)

    def catch(self, node: Node, scope: Scope) -> None:
        inner = Scope(scope, False)
        param = node.child_by_field_name("parameter")
        if param is not None:
            # what was thrown: anything (an annotation may only say `any` or `unknown`)
            self.pattern(param, inner, ANYTHING, local=True)
        for child in node.named_children:
            if child != param:
                self.visit(child, inner)

    def params(
        self,
        node: Node | None,
        scope: Scope,
        owner_class: Desc,
        callback: tuple[Desc, int, bool, Site | None] | None = None,
        declared: list[Desc] | None = None,
    ) -> None:
        """``declared``: the parameter types of the function type the function value was declared
        with (used for parameters without their own annotation)."""
        if node is None:
            return
        if node.type == "identifier":  # `x => …`
            vtype = (
                ("a", callback[0], callback[1], 0, callback[2], callback[3]) if callback is not None else None
            )
            if vtype is None and declared:
                vtype = declared[0]
            self.declare(scope, node, vtype, False, value_only=True)
            return
        index = 0
        for param in node.named_children:
            if param.type in _JS_PARAMETERS:  # JavaScript's grammar has no parameter wrapper
                typed: Desc = None
                if callback is not None and param.type != "rest_pattern":
                    typed = ("a", callback[0], callback[1], index, callback[2], callback[3])
                elif declared is not None and index < len(declared) and param.type != "rest_pattern":
                    typed = declared[index]
                if typed is None and _destructured(param):
                    typed = _untyped_parameter(scope, index)
                index += 1
                self.pattern(param, scope, typed, local=True)
                continue
            if param.type not in ("required_parameter", "optional_parameter"):
                self.visit(param, scope)
                continue
            pattern = param.child_by_field_name("pattern")
            annotation = param.child_by_field_name("type")
            value = param.child_by_field_name("value")
            vtype = self.declared(annotation, scope) if annotation is not None else None
            if pattern is not None and pattern.type == "this":  # `this: T` types `this` in the body
                if annotation is not None:
                    self.this = vtype
                    self.visit(annotation, scope)
                continue
            if vtype is None and callback is not None:
                vtype = ("a", callback[0], callback[1], index, callback[2], callback[3])
            if vtype is None and declared is not None and index < len(declared):
                vtype = declared[index]
            if vtype is None and pattern is not None and _destructured(pattern):
                vtype = _untyped_parameter(scope, index)
            if vtype is None and annotation is not None:
                vtype = UNREAD  # (`x: Parameters<typeof f>[0]`: typed, though by nothing read here)
            index += 1
            if pattern is not None and pattern.type == "identifier":
                self.declare(scope, pattern, vtype, False, value_only=True)
                if owner_class is not None and any(
                    c.type in ("accessibility_modifier", "readonly", "override") for c in param.children
                ):
                    key = self.definition(pattern)  # a parameter property is a class property
                    if vtype is not None:
                        self.vtypes[key] = vtype
            elif (
                pattern is not None
                and pattern.type == "rest_pattern"
                and annotation is not None
                and [c.type for c in named_nodes(pattern)] == ["identifier"]
            ):  # `...args: any[]`: the annotation types the array of the rest
                self.declare(scope, named_nodes(pattern)[0], vtype, False, value_only=True)
            elif pattern is not None and pattern.type != "this":
                self.pattern(pattern, scope, vtype, local=True)
            if annotation is not None:
                self.visit(annotation, scope)
            if value is not None:  # `(cb: Handler = (a) => …)`
                self.declared_value(annotation, value, scope)


def _destructured(param: Node) -> bool:
    """Whether a parameter is a destructuring pattern (``{ key }``, ``[a, b] = []``)."""
    if param.type == "assignment_pattern":
        param = param.child_by_field_name("left") or param
    return param.type in ("object_pattern", "array_pattern")


def _untyped_parameter(scope: Scope, index: int) -> Desc:
    """A destructured parameter nothing types (``function onKey({ key })``): a name of its own
    (``#k``, no identifier's spelling) its keys are read off, which the function's being handed on
    by name may type later (see ``ts_facts.type_given_parameters``)."""
    name = f"#{index}"
    scope.names[name] = Binding(None)
    return ("n", scope, name)


def _function_type(node: Node) -> Node | None:
    """The function type a (parenthesized) type is, else None."""
    while node.type == "parenthesized_type" and named_nodes(node):
        node = named_nodes(node)[0]
    return node if node.type == "function_type" else None


_USE_QUERIES: dict[tuple[int, bytes], Query] = {}


def _uses(tree: Tree, name: bytes) -> list[Node]:
    """The identifiers (and shorthand properties) of a file spelled ``name`` (a query the parser
    filters, not a walk of every node)."""
    key = (id(tree.language), name)
    query = _USE_QUERIES.get(key)
    if query is None:
        if len(_USE_QUERIES) > 4096:
            _USE_QUERIES.clear()
        text = name.decode("utf-8").replace("\\", "\\\\").replace('"', '\\"')
        query = _USE_QUERIES[key] = Query(
            tree.language,
            f'([(identifier) (shorthand_property_identifier)] @i (#eq? @i "{text}"))',
        )
    return list(QueryCursor(query).captures(tree.root_node).get("i", []))


def _const(declarator: Node) -> bool:
    """A ``const`` declarator (never assigned again)."""
    statement = declarator.parent
    return (
        statement is not None
        and statement.type == "lexical_declaration"
        and (statement.child(0) or statement).type == "const"
    )


# the names a default value may be given to in a pattern (`{ r = x }`, `(item = x) =>`)
_DEFAULTED = frozenset({"identifier", "shorthand_property_identifier_pattern"})
