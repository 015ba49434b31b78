"""Functions and what is passed to them: signatures, callback parameter types, calls, arguments and object literals."""

from __future__ import annotations

import re
from typing import Any

from tree_sitter import Node

from astmcp.lang.ts_walk import unwrapped_value
from astmcp.resolve.ts_declarations import Declarations
from astmcp.resolve.ts_descriptors import DISCRIMINANT
from astmcp.resolve.ts_fact_state import (
    FUNCTION_VALUES,
    FUNCTIONS,
    HANDED,
    MEMBER_NAMES,
    named_nodes,
    unparenthesized,
)
from astmcp.resolve.ts_reach import reexported_module
from astmcp.resolve.ts_scopes import EVERY_SINK, SAME_RETURNS, Binding, Desc, Scope, Site, bound, chain_of


class Functions(Declarations):
    # -- functions -------------------------------------------------------------
    def function(
        self, node: Node, scope: Scope, owner_class: Desc = None, static: bool = False, member: bool = False
    ) -> None:
        kind = node.type
        name = node.child_by_field_name("name")
        outer_owner, outer_this = self.owner, self.this
        # parameters (their defaults, type parameters, a function expression's own name) have a
        # scope of their own: a default does not see the body's declarations (`(size = limit) =>
        # { const limit = 3 }` reads the outer `limit`)
        head = Scope(scope, True)
        inner = Scope(head, True)
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
                head.names[self.text(name)] = Binding(None)
        if self.value_key is not None and self.value_key[0] == node.id:
            key = self.value_key[1]  # a generic function value held by a field: its signature is the field's
        self.value_key = None
        callback, self.callback = self.callback, None
        if callback is None and self.expected_callbacks:
            callback = self.expected_callbacks.pop((node.start_byte, node.end_byte), None)
        ftype, self.ftype = self.ftype, None
        given_params, self.given_params = self.given_params, None
        if given_params is not None:
            callback = None  # (what the lib's declaration gives the others is not read)
        literal_this, self.literal_this = self.literal_this, None
        assigned_this, self.assigned_this = self.assigned_this, None
        outer_returns, self.returns = self.returns, []
        outer_yields, self.yields = self.yields, []
        ret = node.child_by_field_name("return_type")
        outer_returning, outer_return_type = self.returning, self.return_type
        # what a function value it returns is typed by: its declared return type, else the return
        # type of the function type it was declared with (`const f: () => Handler = () => (a) => …`)
        if ret is not None:
            self.returning = self.expectation(named_nodes(ret)[0] if named_nodes(ret) else None, inner)
        elif ftype is not None:
            self.returning = self.expectation(ftype[0].child_by_field_name("return_type"), ftype[1])
        elif callback is not None and callback[1] < 0 and callback[0] is not None:
            # typed by a named function type (`(): Link => (runtime) => ({ op }) => …` with `type
            # Link = (r: Runtime) => OperationLink`): a function it returns is what calling one gives
            self.returning = ("named", (("m", ("i", callback[0]), "()"), -1, False, None))
        elif callback is not None and callback[1] >= 0:
            # passed where a function type is declared (`use((name) => (ctx) => …)` with `use(factory:
            # (name: string) => Handler)`): a function it returns is typed by that type's return type
            given = ("a", callback[0], callback[1], "return", callback[2], callback[3])
            self.returning = ("named", (given, -1, False, None))
        else:
            self.returning = None
        self.return_type = self.literal_return(node, ret, ftype, callback, inner)
        for literal, uses in _held_literals(node):
            # `const info = { … }; return info` from a function declared `(): Info`: the literal is
            # an Info; `records.push(record)`, `show(record)`: what that argument is declared as;
            # several such places: each of their types (fact `unions`, chain `V:<key>`)
            if not uses:
                # `const o = { name: "x" }; o.name`, read only by its members: a value of no other
                # type, its keys its own (not fact `olits`: no name hits)
                span = (literal.start_byte, literal.end_byte)
                self.closed_literals.add(span)
                self.expected_objects.setdefault(span, ("k", f"L:{self.key(literal)}"))
                continue
            sinks: list[Desc] = []
            for use in uses:
                if use.type == "return_statement":
                    if self.return_type is None or ret is None:
                        break
                    sinks.append(self.return_type)
                    continue
                if use.type == "assignment_expression":  # `current = frame`: what current holds
                    left = use.child_by_field_name("left")
                    # (TS only: in JS, `this.frame = frame` may be what declares the member)
                    held = self.desc(left, inner) if left is not None and not self.javascript else None
                    if held is None:
                        break
                    sinks.append(held)
                    continue
                call = use.parent.parent if use.parent is not None else None
                callee = call.child_by_field_name("function") if call is not None else None
                if callee is None or use.parent is None:
                    break
                k = named_nodes(use.parent).index(use)
                sinks.append(("p", self.desc(callee, inner), k, False, None))
            else:
                span = (literal.start_byte, literal.end_byte)
                if len(sinks) == 1:
                    self.expected_objects.setdefault(span, sinks[0])
                elif sinks:
                    where = self.key(literal)
                    self.unions[where] = sinks
                    self.expected_objects.setdefault(span, ("k", f"{EVERY_SINK}{where}"))
                if span in self.expected_objects:
                    # (`frame.nested`: the const is read as what it is handed on as, as its keys are)
                    self.held_types[span] = self.expected_objects[span]
        declared = (
            self.parameter_types(ftype[0].child_by_field_name("parameters"), ftype[1])
            if ftype
            else given_params
        )
        # the implementation of overloads: callers see only the overload signatures' return types
        hidden = key is not None and _implements_overloads(node, name)
        if key is not None:
            self.callback_types(node, key, inner)
            self.signature(node, key, inner)
            self.owner = key
            if ret is not None and not hidden:
                # an overload signature whose return type is not read here (`InstanceType<K>`):
                # what a call gives is not known (not another overload's type)
                made = self.instance(ret, inner)
                if made is not None and made[0] == "f":  # `(): (s: number) => Ctx`: a function value
                    made = self.function_value(ret, inner)
                self.rtypes[key] = ("u", made) if kind == "function_signature" else made
        if kind == "method_definition" and owner_class is None:  # of an object literal
            self.this = literal_this
        elif kind == "method_definition":
            self.this = owner_class if static else ("i", owner_class)
        elif kind != "arrow_function":
            # a function passed where a callback declares `this: T` sees a T (its own `this:`
            # parameter, visited below, wins)
            self.this = (
                ("a", callback[0], callback[1], "this", callback[2], callback[3])
                if callback is not None and callback[1] >= 0
                else assigned_this
            )
        body = node.child_by_field_name("body") if kind == "arrow_function" else None
        for child in node.named_children:
            if child == name:
                continue
            field = child.type
            if field == "formal_parameters":
                owner = owner_class if kind == "method_definition" else None
                self.params(child, head, owner, callback, declared)
            elif field == "identifier" and kind == "arrow_function" and child != body:  # `x => …`
                self.params(child, head, None, callback, declared)
            elif field == "statement_block":
                self.statements(list(child.named_children), inner)
            elif child == body:  # `() => (a) => …`: the body is returned
                self.returned(child, inner)
            else:
                self.visit(child, head)
        self.owner, self.this = outer_owner, outer_this
        self.returning, self.return_type = outer_returning, outer_return_type
        declared_as = _declared_name(node, name)
        named = scope.names.get(self.text(declared_as)) if declared_as is not None else None
        positions = [
            head.names.get(spelled) if spelled is not None else None for spelled in _positional_names(node)
        ]
        if named is not None:  # (a function handed on by name: `addEventListener("keydown", onKey)`)
            self.function_params[id(named)] = list(head.names.values())
            self.function_positions[id(named)] = positions
        elif kind == "method_definition" and owner_class is not None and name is not None:
            # (a method handed on: `addEventListener("keydown", this.onKey)`, by the chain of
            # reading it off the class's instances, or the class for a static one)
            chain = chain_of(("m", owner_class if static else ("i", owner_class), self.text(name)))
            if chain is not None:
                self.method_positions[chain] = positions
                self.method_names.add(self.text(name))
        self.inferred = self.single_return(node) if ret is None else None
        if ret is None and _generator(node):
            self.inferred = self.yielded(node)
        self.returns, self.yields = outer_returns, outer_yields
        if key is not None and self.inferred is not None and not hidden:
            self.rtypes[key] = self.inferred

    def literal_return(
        self,
        node: Node,
        ret: Node | None,
        ftype: tuple[Node, Scope] | None,
        callback: tuple[Desc, int, bool, Site | None] | None,
        scope: Scope,
    ) -> Desc:
        """The type an object literal returned by this function is contextually typed by: its
        declared return type, else that of the function type it was declared with, else that of
        the function type of the parameter it is passed to, or of the typed member it is the value
        of (`getContext: () => ({ … })`); none for a generator or an async function (whose
        declared type is a promise of it)."""
        tokens = {c.type for c in node.children}
        if "*" in tokens:
            return None
        if "async" in tokens and ret is not None:  # `async (): Promise<Cfg>` returns Cfgs
            return self.promised(ret, scope)
        found: Desc = None
        if ret is not None:
            found = self.instance(ret, scope)
        elif ftype is not None:
            head = ftype[0].child_by_field_name("return_type")
            found = self.instance(head, ftype[1]) if head is not None else None
        elif callback is not None and callback[1] >= 0:
            found = ("a", callback[0], callback[1], "return", callback[2], callback[3])
        elif callback is not None and callback[0] is not None:
            # the value of a typed member or variable (`getContext: () => ({ … })`): what calling it gives
            found = ("m", callback[0], "()")
        # (an async function typed by its context: what awaiting the promise it must give gives,
        # `readFile: async (p) => ({ … })` for `readFile: (p: string) => Promise<{ … }>`)
        return ("w", found) if "async" in tokens and found is not None else found

    def promised(self, ret: Node, scope: Scope) -> Desc:
        """``T`` of a declared return type ``Promise<T>`` (None for any other)."""
        head = named_nodes(ret)[0] if named_nodes(ret) else None
        if head is None or head.type != "generic_type":
            return None
        name = head.child_by_field_name("name")
        args = named_nodes(head.child_by_field_name("type_arguments"))
        if name is None or self.text(name) != "Promise" or len(args) != 1:
            return None
        return self.instance(args[0], scope)

    def single_return(self, node: Node) -> Desc:
        """What a function without a declared return type returns when its ``return``s give one
        typed value (an arrow's expression body too; an async function's is a promise of it); None
        for a generator or ``return this``. ``return``s written differently give what they all
        resolve to when that is one thing (``this._add({ … })`` twice, each call's arguments its
        own: fact ``unions``, chain ``R:<key>``), else nothing known."""
        found = self.returns
        if found is None or not found or None in found:
            return None
        tokens = {c.type for c in node.children}
        if "*" in tokens or node.type in ("generator_function", "generator_function_declaration"):
            return None
        returned = found[0]
        # (no `return` is made a chain here: that would fix its call sites' chains before a
        # function declared further down is known; `R:` compares what they give once it is)
        if any(d != returned for d in found[1:]):
            key = self.key(node)
            self.unions[key] = list(found)
            returned = ("k", f"{SAME_RETURNS}{key}")
        return ("q", returned) if "async" in tokens else returned

    def statements(self, statements: list[Node], scope: Scope) -> None:
        """A function body's statements (a later layer narrows names after early exits)."""
        for child in statements:
            self.visit(child, scope)

    def expectation(self, head: Node | None, scope: Scope) -> tuple[str, Any] | None:
        """What a function value standing for a value of the type ``head`` is typed by: a named
        function type (``("named", callback)``), or a function type written out (``("inline",
        (node, scope))``)."""
        if head is None:
            return None
        if head.type == "function_type":
            return ("inline", (head, scope))
        found = self.named_context(head, scope)
        return ("named", found) if found is not None else None

    def expect_function(self, expected: tuple[str, Any] | None) -> None:
        """The next function value visited is typed by ``expected``."""
        if expected is None:
            return
        if expected[0] == "named":
            self.callback = expected[1]
        else:
            self.ftype = expected[1]

    def yield_expression(self, node: Node, scope: Scope) -> None:
        """A value a generator yields (``yield* xs``: each of xs's elements)."""
        values = named_nodes(node)
        if self.yields is not None and values:
            value = self.desc(values[0], scope)
            delegated = any(c.type == "*" for c in node.children)
            self.yields.append(("e", value) if delegated and value is not None else value)
        self.children(node, scope)

    def yielded(self, node: Node) -> Desc:
        """What calling the generator ``node`` (no return type declared) gives: an iterable of what
        it yields, when each value is typed (a bare ``yield`` adds nothing); else None."""
        found = self.yields
        if not found or None in found:
            return None
        values = list(dict.fromkeys(found))
        if len(values) == 1:
            return ("y", values[0])
        key = self.key(node)
        self.unions[key] = values
        return ("y", ("k", f"U:{key}"))

    def return_statement(self, node: Node, scope: Scope) -> None:
        for child in node.named_children:
            self.returned(child, scope)

    def returned(self, node: Node, scope: Scope) -> None:
        """A returned value: a function value is typed by the enclosing function's return type."""
        inner = unparenthesized(node)
        if inner is not None and inner.type == "call_expression" and self.return_type is not None:
            # `(): (t: T) => () => Model => (t) => memo(…)`: calling what memo gives gives a Model
            typed = self.return_type
            self.value_types[inner.id] = typed[3] if typed[0] == "f" else ("m", typed, "()")
        # `return null` adds nothing: a function returning an X or null gives an X where it gives one
        if self.returns is not None and node.type != "comment" and not self.nullish(node, scope):
            self.returns.append(self.desc(node, scope) if node.type != "this" else None)
        inner = unparenthesized(node)
        if inner is not None and inner.type in FUNCTION_VALUES:
            self.expect_function(self.returning)
            self.visit(inner, scope)
            self.callback, self.ftype = None, None
        elif self.return_type is not None:
            self.returned_value(node, scope, self.return_type)
        else:
            self.visit(node, scope)

    def returned_value(self, node: Node, scope: Scope, typed: Desc) -> None:
        """A returned value whose object literals (``return {…}``, ``ctx || {…}``, ``c ? {…} :
        {…}``) are contextually typed by the declared return type: their keys are its members.
        The value is visited as any other (narrowing included); :meth:`object` takes the type."""
        self.expect_objects(node, typed)
        self.visit(node, scope)

    def expect_objects(self, node: Node, typed: Desc) -> None:
        """Note the object literals ``node`` gives as a whole (itself, in parentheses, either
        branch of ``c ? … : …``, the right of ``a || …``/``a ?? …``/``a && …``, a literal spread
        into one: ``{ ...(c && { k: 1 }) }``) as contextually typed by
        ``typed``: :meth:`object` takes the type when the walk reaches them. The elements of an
        array literal are typed by its element type (``const xs: Item[] = [{ … }]``), and the
        argument of ``Object.freeze(…)`` as the frozen value."""
        pending: list[tuple[Node, Desc]] = [(node, typed)]
        while pending:
            part, typed = pending.pop()
            if part.type == "object":
                self.expected_objects[(part.start_byte, part.end_byte)] = typed
                # `{ ...state, ...(done && { status: "idle" }) }`: a literal spread in gives its keys
                spreads = [c for c in named_nodes(part) if c.type == "spread_element"]
                pending.extend((named_nodes(c)[0], typed) for c in spreads if named_nodes(c))
            elif part.type == "parenthesized_expression" and len(named_nodes(part)) == 1:
                pending.append((named_nodes(part)[0], typed))
            elif part.type == "as_expression" and self.text(part).endswith("const"):
                # `({ removed } as const)` given where a T is expected is still checked as a T
                inner = named_nodes(part)
                if len(inner) == 1 or (len(inner) == 2 and self.text(inner[1]) == "const"):
                    pending.append((inner[0], typed))
            elif part.type == "binary_expression" and self.text_of(part, "operator") in ("||", "??", "&&"):
                pending.extend((c, typed) for c in (part.child_by_field_name("right"),) if c is not None)
            elif part.type == "ternary_expression":
                branches = (part.child_by_field_name("consequence"), part.child_by_field_name("alternative"))
                pending.extend((c, typed) for c in branches if c is not None)
            elif part.type == "array" and typed is not None:
                pending.extend((c, ("e", typed)) for c in named_nodes(part) if c.type != "spread_element")
            elif (
                part.type == "call_expression"
                and self.text_of(part, "function").replace(" ", "") == "Object.freeze"
            ):
                args = named_nodes(part.child_by_field_name("arguments"))
                if len(args) == 1:
                    pending.append((args[0], typed))

    def text_of(self, node: Node, field: str) -> str:
        child = node.child_by_field_name(field)
        return self.text(child) if child is not None else ""

    def signature(self, node: Node, key: str, scope: Scope) -> None:
        """What binds a generic function's type parameters at a call: their order, the declared
        parameter types and a generic return type's arguments."""
        self.type_parameters(node, key)
        params = node.child_by_field_name("parameters")
        if node.type in _SIGNATURES and params is not None:
            # which overload a call picks (`psigs`): the parameter list, when it does not name
            # the signature's own type parameters (`(x: T)` would not mean one thing everywhere)
            written = " ".join(self.text(params).split())
            tparams = node.child_by_field_name("type_parameters")
            own = _TYPE_PARAMETER.findall(self.text(tparams)) if tparams is not None else []
            if not any(re.search(rf"(?<![\w$]){re.escape(name)}(?![\w$])", written) for name in own):
                self.psigs[key] = written
        types = self.parameter_types(params, scope)
        if any(t is not None for t in types):
            self.ptypes[key] = types
        this = next(
            (
                self.instance(param.child_by_field_name("type"), scope)
                for param in named_nodes(params)
                if (pattern := param.child_by_field_name("pattern")) is not None and pattern.type == "this"
            ),
            None,
        )
        if this is not None:  # what `f.call(o)`, `f.bind(o)` and `f.apply(o)` check `o` against
            self.thtypes[key] = this
        if key not in self.generics:
            return
        ret = node.child_by_field_name("return_type")
        inner = named_nodes(ret)[0] if ret is not None and named_nodes(ret) else None
        if inner is not None and inner.type == "generic_type":
            head = inner.child_by_field_name("name")
            args = inner.child_by_field_name("type_arguments")
            if head is not None and args is not None:
                self.rgen[key] = (self.tdesc(head, scope), [self.tdesc(a, scope) for a in named_nodes(args)])
        elif inner is not None and inner.type == "function_type":
            # `memo(…): (depArgs?: A) => TResult`: what a call gives may be typed by where it goes
            given = inner.child_by_field_name("return_type")
            if given is not None:
                self.rfns[key] = self.instance(given, scope)

    def callback_types(self, node: Node, key: str, scope: Scope) -> None:
        """Parameter types of the function-typed parameters of a declared function (their
        declared ``this`` at ``"<k>this"``)."""
        found = {str(k): types for k, types in self.declared_callbacks(node, scope).items()}
        found.update({f"{k}this": [this] for k, this in self.declared_callback_this(node, scope).items()})
        found.update({f"{k}return": [r] for k, r in self.declared_callback_returns(node, scope).items()})
        if found:
            self.cbtypes[key] = found

    # -- calls -----------------------------------------------------------------
    def call_expression(self, node: Node, scope: Scope) -> None:
        self.call(node, scope, node.child_by_field_name("function"), False)

    def new_expression(self, node: Node, scope: Scope) -> None:
        self.call(node, scope, node.child_by_field_name("constructor"), True)

    def call(self, node: Node, scope: Scope, callee: Node | None, new: bool) -> None:
        """A call or ``new``: the callee is called, its arguments are passed to it."""
        if callee is not None:
            self.expr(callee, scope, "call")
            args = node.child_by_field_name("arguments")
            given = args.named_children if args is not None else []
            merged = self.text(callee).replace(" ", "") == "Object.assign" and given
            if self.javascript and callee.type == "member_expression":
                self.array_given(callee, given, scope)
            if merged and self.text(given[0]).replace(" ", "") in ("module.exports", "exports"):
                # `Object.assign(exports, require("./a"))`: a CommonJS barrel
                for source in given[1:]:
                    self.stars.extend(reexported_module(source, self.raw))
        for child in node.named_children:
            if child.type == "arguments":
                self.arguments(child, scope, callee, new)
            elif child != callee:
                self.visit(child, scope)

    def array_given(self, callee: Node, given: list[Node], scope: Scope) -> None:
        """JS: ``items.push(x)``, ``items.unshift(x)``, ``items.splice(i, n, x)`` give the array
        literal ``items`` was declared with more elements (see ``Occurrences.reassigned``)."""
        held, prop = callee.child_by_field_name("object"), callee.child_by_field_name("property")
        skip = _ADDING.get(self.text(prop)) if prop is not None else None
        if held is None or held.type != "identifier" or skip is None:
            return
        for value in given[skip:]:
            if value.type != "comment":
                self.reassigned(held, value, scope, element=True)

    def arguments(self, node: Node, scope: Scope, callee: Node | None, new: bool) -> None:
        """A function passed as the k-th argument has its parameters typed by the callee's
        declared callback type (``operate((source, subscriber) => …)``)."""
        target = self.desc(callee, scope) if callee is not None else None
        call = node.parent
        site = (
            self.site(call, scope)
            if call is not None
            and (
                call.type == "call_expression"
                # `new Box<User>({ … })`: the class's type arguments bind its constructor's parameters
                or (call.type == "new_expression" and call.child_by_field_name("type_arguments") is not None)
            )
            else None
        )
        for child in node.named_children:
            if child.type == "comment":
                self.visit(child, scope)
        given = named_nodes(node)
        assigned = (
            self.desc(given[0], scope)
            if callee is not None and given and self.text(callee).replace(" ", "") == "Object.assign"
            else None
        )
        for k, arg in enumerate(given):
            if target is not None and arg.type in ("arrow_function", "function_expression"):
                self.callback = (target, k, new, site)
                if site is not None:
                    site.given_functions = True
            handed = _handed_function(arg)
            if target is not None and handed is not None:
                # `onKey`, `this.onKey`, `this.onKey.bind(this)`: a function handed on by name
                # (a member read is described once the file is walked, and only when a method of
                # the file has its name: `HANDED`)
                given_desc = (
                    ("n", scope, self.text(handed))
                    if handed.type == "identifier"
                    else (
                        HANDED,
                        handed,
                        scope,
                        self.text(handed.child_by_field_name("property") or handed),
                        self.this,
                    )
                )
                self.given_functions.append((target, k, given_desc, new, site))
            bound = _bound_function(callee) if k == 0 and arg.type == "object" else None
            if bound is not None:
                # `computedOper.bind({ value: undefined, … })` of `function computedOper(this:
                # ComputedNode)`: the literal is the function's `this`, checked against its type
                self.object(arg, scope, typed=("p", self.desc(bound, scope), "this", False, None))
                continue
            if assigned is not None and k > 0 and arg.type == "object":
                # `Object.assign(row, { groupingColumnId: id })`: keys the target's type declares are
                # its members (one it does not declare stays a name hit)
                self.object(arg, scope, typed=assigned)
                continue
            if target is not None and arg.type == "object":
                self.object(arg, scope, typed=("p", target, k, new, site))
                continue
            if target is not None and arg.type in ("string", "template_string"):
                # `makeStateUpdater("columnVisibility", …)` for `key: K` where `K extends keyof
                # TableState`: the string names the member (step `=`), TypeScript checks it
                self.argument_strings[arg.id] = ("p", target, k, new, site)
            if target is not None and arg.type == "ternary_expression":
                # `new Observable(scheduler ? (s) => … : (s) => …)`: each branch is the argument,
                # also in nested conditionals (`push(a ? {…} : b ? {…} : {…})`)
                pending: list[Node | None] = [arg]
                while pending:
                    branch = unparenthesized(pending.pop())
                    span = (branch.start_byte, branch.end_byte) if branch is not None else (0, 0)
                    if branch is None:
                        continue
                    if branch.type == "ternary_expression":
                        pending += [branch.child_by_field_name(f) for f in ("consequence", "alternative")]
                    elif branch.type in ("arrow_function", "function_expression"):
                        self.expected_callbacks[span] = (target, k, new, site)
                    elif branch.type == "object":
                        self.expected_objects[span] = ("p", target, k, new, site)
            self.visit(arg, scope)
            self.callback = None
            if k == 0 and site is not None and arg.type in ("arrow_function", "function_expression"):
                method = callee.child_by_field_name("property") if callee is not None else None
                if method is not None and self.text(method) == "map":
                    site.mapped = self.inferred  # what `xs.map(…)` holds, when xs is an array

    # -- object literals -------------------------------------------------------
    def asserted(self, node: Node, scope: Scope) -> None:
        """``{…} as T`` / ``{…} satisfies T``: the object literal's keys are members of T (also
        of literals it gives as a whole: ``(c ? { first: x } : { each: x }) as T``, and through
        ``as unknown as T``); ``<T>{…}``, the older spelling, too."""
        parts = named_nodes(node)
        if node.type == "type_assertion":  # (`<T>` first: its type arguments hold the type)
            types = named_nodes(parts[0]) if len(parts) == 2 else []
            if len(types) != 1:
                self.children(node, scope)
                return
            parts = [parts[1], types[0]]
        if len(parts) == 2 and parts[0].type == "object":
            self.object(parts[0], scope, typed=self.instance(parts[1], scope))
            self.visit(parts[1], scope)
            return
        subject = parts[0] if len(parts) == 2 else None
        if subject is not None and subject.type == "as_expression" and node.type != "satisfies_expression":
            # `{ gap: 0 } as unknown as Options`: the value read as an Options holds these keys
            inner = named_nodes(subject)
            if len(inner) == 2 and self.text(inner[1]) in ("unknown", "any"):
                subject = inner[0]
        if subject is not None and subject.type in (
            "parenthesized_expression",
            "ternary_expression",
            "object",
        ):
            typed = self.instance(parts[1], scope)
            if typed is not None:
                self.expect_objects(subject, typed)
        self.children(node, scope)

    def object(self, node: Node, scope: Scope, members: bool = False, typed: Desc = None) -> None:
        if self.expected_objects and not members:
            typed = self.expected_objects.pop((node.start_byte, node.end_byte), typed)
        if typed is not None and not members:
            typed = self.discriminated(node, typed)
        holder = node.parent
        left = (
            holder.child_by_field_name("left")
            if holder is not None and holder.type == "assignment_expression"
            else None
        )
        # `module.exports = { fmt, go() { return this.fmt(1) } }`: `this` is the module's exports
        exported = left is not None and self.desc(left, scope) == ("k", f"I::{self.self_spec}")
        # `{ ...join, from: x }` of no known contextual type: a key a spread part declares
        # overrides that member (only the keys: its values are not typed by it)
        spread = self.spread_keys(node, scope) if not members else None
        for child in node.named_children:
            kind = child.type
            if kind == "pair":
                self.pair(child, scope, members, typed, spread)
            elif kind == "method_definition":
                name = child.child_by_field_name("name")
                # `this` in it: the T of a `ThisType<T>` in the contextual type, else that type
                self.literal_this = (
                    ("t", typed) if typed is not None else ("k", f"I::{self.self_spec}") if exported else None
                )
                if typed is not None and name is not None and name.type in MEMBER_NAMES:
                    # its parameters are those of the declared type's member
                    self.callback = (("m", typed, self.text(name)), -1, False, None)
                    self.given_params = _trap_target(typed)
                if members and name is not None and name.type in MEMBER_NAMES:
                    self.function(child, scope, None, member=True)
                    if typed is not None:  # it also provides a member of the declared type
                        self.row(name, "write", ("o", typed))
                else:
                    if name is not None and name.type in MEMBER_NAMES:
                        self.row(name, "attribute", ("o", typed))
                    self.function(child, scope, None)
                self.callback = None
            elif kind == "shorthand_property_identifier" and (typed or spread) is not None and not members:
                # `{ origin }`: reads the local and gives the member of the contextual type
                self.row(child, "read", ("n", scope, self.text(child)))
                self.row(child, "attribute", ("o", typed, spread))
            else:
                if kind == "spread_element" and typed is not None and not members:
                    # `{ ...state, ...(ok && { data: v }) }`: the literal spread in gives its keys
                    for literal in _spread_literals(child):
                        self.expected_objects[(literal.start_byte, literal.end_byte)] = typed
                self.visit(child, scope)

    def nested(self, node: Node, scope: Scope, typed: Desc) -> None:
        """An object literal (or an array of them) typed by ``typed`` (None: untyped)."""
        if node.type == "object":
            self.object(node, scope, typed=typed)
            return
        element = ("e", typed) if typed is not None else None
        for child in named_nodes(node):
            if child.type == "object":
                self.object(child, scope, typed=element)
            else:
                self.visit(child, scope)

    def discriminated(self, node: Node, typed: Desc) -> Desc:
        """The contextual type of an object literal narrowed by the literal values it gives its
        keys (``{ code: "too_small", … }`` against a union: the alternatives whose ``code`` can be
        ``"too_small"``), as TypeScript picks the alternative of a discriminated union."""
        clauses = []
        for pair in named_nodes(node):
            key = pair.child_by_field_name("key") if pair.type == "pair" else None
            if key is None or key.type not in MEMBER_NAMES or not DISCRIMINANT.fullmatch(self.text(key)):
                continue
            value = self.literal_value(pair.child_by_field_name("value"))
            if value is not None:
                clauses.append((self.text(key), False, (value,)))
        return ("d", typed, tuple(clauses)) if clauses else typed

    def member_value(self, key: str, value: Node, scope: Scope) -> None:
        """What calling a function-valued member of an object literal bound to a name gives
        (``const api = { get: (): Item => …, make: () => new Item() }``): its declared return
        type, else what its single ``return`` gives. TypeScript types the member by its
        initializer, so whatever is assigned to it later returns that too."""
        value = unwrapped_value(value)  # `((arg) => make(arg)) as Maker`: the function itself
        if value.type not in FUNCTION_VALUES:
            return
        ret = value.child_by_field_name("return_type")
        made = self.instance(ret, scope) if ret is not None else self.inferred
        if made is not None:
            self.rtypes.setdefault(key, made)

    def spread_keys(self, node: Node, scope: Scope) -> Desc:
        """The object an object literal's spread parts make (``W:<key>s``, its own keys left out),
        which its keys override; None without a spread."""
        parts = [c for c in named_nodes(node) if c.type == "spread_element"]
        # (under `<key>s`: the literal's own object, `W:<key>`, has its keys too)
        return self.spread_object(node, parts, scope, suffix="s")

    def pair(
        self, node: Node, scope: Scope, members: bool = False, typed: Desc = None, spread: Desc = None
    ) -> None:
        key = node.child_by_field_name("key")
        value = node.child_by_field_name("value")
        member_key = None
        if key is not None:
            if key.type in MEMBER_NAMES:
                if members:
                    member_key = self.definition(key)
                    if typed is not None:
                        self.row(key, "write", ("o", typed))
                else:
                    self.row(key, "attribute", ("o", typed, spread))
            elif key.type == "string" and typed is not None and self.quoted_key(key) is not None:
                # `{ "~run": … }` of a contextual type: that type's member, as an identifier key is
                fragment = key.named_children[0]
                self.row(
                    fragment, "write" if members else "attribute", ("o", typed), name=self.text(fragment)
                )
            elif key.type == "string":
                self.string_hit(key)
            else:
                self.visit(key, scope)
        if value is not None:
            if value.type in ("object", "array") and typed is not None and key is not None:
                # a literal nested in a typed one is typed by the member it gives (an array's
                # object literals by the member's elements); a computed or quoted key: untyped
                inner = ("m", typed, self.text(key)) if key.type in MEMBER_NAMES else None
                self.nested(value, scope, inner)
            else:
                functional = value.type in ("arrow_function", "function_expression")
                if typed is not None and key is not None and key.type in MEMBER_NAMES and functional:
                    self.callback = (("m", typed, self.text(key)), -1, False, None)
                if (
                    typed is not None
                    and key is not None
                    and key.type in MEMBER_NAMES
                    and value.type == "call_expression"
                ):
                    # `{ getContext: memo(…) }`: calling what memo gives gives what the member's does
                    self.value_types[value.id] = ("m", ("m", typed, self.text(key)), "()")
                self.inferred = None
                self.visit(value, scope)
                self.callback = None
                if member_key is not None and typed is None:
                    self.member_value(member_key, value, scope)


_TYPE_PARAMETER = re.compile(r"(?:^<|,)\s*(?:(?:const|in|out)\s+)*([A-Za-z_$][\w$]*)")
_SIGNATURES = {"function_signature", "method_signature", "abstract_method_signature"}


def _implements_overloads(node: Node, name: Node | None) -> bool:
    """A function or method with a body right after a signature of the same name (``function
    f(a: A): R; function f(a) {…}``): the implementation, whose own signature callers never see."""
    if name is None or node.type not in ("function_declaration", "method_definition"):
        return False
    here = node.parent if node.parent is not None and node.parent.type == "export_statement" else node
    before = here.prev_named_sibling
    while before is not None and before.type == "comment":
        before = before.prev_named_sibling
    if before is not None and before.type == "export_statement":
        before = next((c for c in before.named_children if c.type in _SIGNATURES), None)
    if before is None or before.type not in _SIGNATURES:
        return False
    other = before.child_by_field_name("name")
    return other is not None and other.text == name.text


# `const name = {` somewhere in a function body (else it holds no literal to follow)
_HELD_LITERAL = re.compile(rb"\bconst\s+[\w$]+\s*=\s*\{")
_MAX_SINKS = 8  # places one held literal goes on, at most


def _bound_function(callee: Node | None) -> Node | None:
    """``f`` of a callee ``f.call``, ``f.bind`` or ``f.apply`` (whose first argument is the
    ``this`` f runs with), else None."""
    if callee is None or callee.type != "member_expression":
        return None
    prop = callee.child_by_field_name("property")
    if prop is None or prop.text not in (b"call", b"bind", b"apply"):
        return None
    return callee.child_by_field_name("object")


def _held_literals(function: Node) -> list[tuple[Node, list[Node]]]:
    """The object literals a function's ``const`` holds (declared once in it, without a type) and
    the places each goes on as a whole: ``return info`` (the return statement) or
    ``records.push(record)`` / ``show(record)`` (the call, a direct argument) in the function's own
    statements, or in a closure of it that sees the callee the function sees (``() =>
    close(record)``), or ``current = frame`` (the assignment, in the function's own statements).
    A const read as a whole anywhere else (``{ record }``, ``[record]``) gives nothing: the literal
    may go where no type is known. One read as a whole nowhere (only ``o.name``) goes on nowhere
    (and spreads nothing): given with no places."""
    body = function.child_by_field_name("body")
    if body is None or body.type != "statement_block" or not _HELD_LITERAL.search(body.text or b""):
        return []
    held: dict[str, list[Node | None]] = {}
    uses: dict[str, list[Node]] = {}
    pending: list[tuple[Node, bool]] = [(child, True) for child in body.named_children]
    while pending:
        node, own = pending.pop()
        nested = node.type in FUNCTION_VALUES or node.type in FUNCTIONS or node.type == "class_declaration"
        if node.type == "lexical_declaration" and own:
            const = (node.child(0) or node).type == "const"
            for declarator in node.named_children:
                name = declarator.child_by_field_name("name")
                value = declarator.child_by_field_name("value")
                if name is None or name.type != "identifier":
                    continue
                literal = value if const and declarator.child_by_field_name("type") is None else None
                found = literal if literal is not None and literal.type == "object" else None
                held.setdefault((name.text or b"").decode("utf-8"), []).append(found)
        elif node.type in ("lexical_declaration", "variable_declaration"):
            for declarator in node.named_children:
                name = declarator.child_by_field_name("name")
                if name is not None:
                    held.setdefault((name.text or b"").decode("utf-8"), []).append(None)
        if node.type in ("identifier", "shorthand_property_identifier"):
            parent = node.parent
            declared = (
                parent is not None
                and parent.type == "variable_declarator"
                and parent.child_by_field_name("name") == node
            )
            read_off = (
                parent is not None
                and parent.type == "member_expression"
                and parent.child_by_field_name("object") == node
            )
            if not declared and not read_off and not _in_shadowing_function(node, function):
                uses.setdefault((node.text or b"").decode("utf-8"), []).append(node)
        pending.extend((child, own and not nested) for child in node.named_children)
    out: list[tuple[Node, list[Node]]] = []
    for key in sorted(held):
        holders, read = held[key], uses.get(key, [])
        if len(holders) != 1 or holders[0] is None or len(read) > _MAX_SINKS:
            continue
        if not read:  # read only by its members (or not at all)
            if not any(_spreads_or_has_this(part) for part in holders[0].named_children):
                out.append((holders[0], []))
            continue
        sinks = [_sink(use, function) for use in read]
        if all(sink is not None for sink in sinks):
            out.append((holders[0], [sink for sink in sinks if sink is not None]))
    return out


def _spreads_or_has_this(part: Node) -> bool:
    """Whether a part of an object literal spreads a value, or is a method or a function (whose
    ``this``, the object, may be handed on whole: ``greet() { register(this) }``)."""
    if part.type in ("spread_element", "method_definition"):
        return True
    value = part.child_by_field_name("value") if part.type == "pair" else None
    return value is not None and value.type in ("function_expression", "function", "generator_function")


def _sink(use: Node, function: Node) -> Node | None:
    """Where a held literal read as a whole at ``use`` goes on: the function's own ``return``
    statement, or ``use`` itself as a direct argument of a call (see :func:`_held_literals`)."""
    where = use.parent
    if where is None:
        return None
    if where.type == "return_statement" and named_nodes(where) == [use]:
        return where if _own_statement(where, function) else None
    if where.type == "assignment_expression" and where.child_by_field_name("right") == use:
        return where if _own_statement(where, function) else None
    call = where.parent
    if where.type != "arguments" or call is None or call.type != "call_expression":
        return None
    return use if _own_statement(call, function) or _closure_sees(call, function) else None


def _is_function(node: Node) -> bool:
    """A function of any kind: declared, a value, or a method."""
    return node.type in FUNCTION_VALUES or node.type in FUNCTIONS or node.type == "method_definition"


def _own_statement(node: Node, function: Node) -> bool:
    """Whether ``node`` runs in ``function`` itself (no function between them)."""
    current = node.parent
    while current is not None and current != function:
        if _is_function(current):
            return False
        current = current.parent
    return current == function


def _closure_sees(call: Node, function: Node) -> bool:
    """Whether ``call``, in function values nested in ``function``, calls what the same callee
    means in ``function``: its root (``close`` of ``close(x)``, ``this`` of ``this.add(x)``) is
    declared by none of them (``this``: all arrows)."""
    root = call.child_by_field_name("function")
    while root is not None and root.type == "member_expression":
        root = root.child_by_field_name("object")
    if root is None or root.type not in ("identifier", "this"):
        return False
    name = root.text or b""
    current = call.parent
    while current is not None and current != function:
        if current.type in FUNCTIONS or current.type in ("class", "class_declaration", "method_definition"):
            return False
        if current.type in FUNCTION_VALUES and (
            (root.type == "this" and current.type != "arrow_function") or _declares(current, name)
        ):
            return False
        current = current.parent
    return current == function


def _in_shadowing_function(node: Node, function: Node) -> bool:
    """Whether the name ``node`` is, or is read in, a function value or declaration nested in
    ``function`` whose parameters declare it (``(record: WindowRecord) => record.seen``): another
    binding than the function's own."""
    name = node.text or b""
    current = node.parent
    while current is not None and current != function:
        if _is_function(current):
            single = current.child_by_field_name("parameter")  # `record => …`
            if single is not None and single.text == name:
                return True
            parameters = current.child_by_field_name("parameters")
            if parameters is not None and name in _parameter_names(parameters):
                return True
        current = current.parent
    return False


def _parameter_names(parameters: Node) -> set[bytes]:
    """The names a parameter list declares (destructured ones too; not what defaults read)."""
    names: set[bytes] = set()
    pending = [
        part.child_by_field_name("pattern") or part
        for part in parameters.named_children
        if part.type
        in (
            "required_parameter",
            "optional_parameter",
            "identifier",
            "rest_pattern",
            "assignment_pattern",
            "object_pattern",
            "array_pattern",
        )
    ]
    while pending:
        part = pending.pop()
        if part.type in ("identifier", "shorthand_property_identifier_pattern"):
            names.add(part.text or b"")
        elif part.type in ("object_pattern", "array_pattern", "rest_pattern"):
            pending.extend(part.named_children)
        elif part.type == "pair_pattern":
            value = part.child_by_field_name("value")
            if value is not None:
                pending.append(value)
        elif part.type in ("assignment_pattern", "object_assignment_pattern"):
            left = part.child_by_field_name("left")
            if left is not None:
                pending.append(left)
    return names


def _declares(node: Node, name: bytes) -> bool:
    """Whether a name ``name`` is declared anywhere in ``node`` (a parameter, variable, function
    or class of it or of anything nested)."""
    pending = [node]
    while pending:
        part = pending.pop()
        if part.type in ("identifier", "shorthand_property_identifier_pattern") and part.text == name:
            parent = part.parent
            if parent is not None and parent.type not in (
                "call_expression",
                "arguments",
                "member_expression",
                "binary_expression",
                "expression_statement",
            ):
                return True
        pending.extend(part.named_children)
    return False


def _spread_literals(spread: Node) -> list[Node]:
    """The object literals a spread element spreads in: ``...{ a }``, ``...(ok && { a })``,
    ``...(ok ? { a } : { b })`` (an operand of ``&&``/``||``/``??`` or a branch of a conditional)."""
    inner = named_nodes(spread)
    pending = [unparenthesized(inner[0])] if inner else []
    found: list[Node] = []
    while pending:
        node = pending.pop()
        if node is None:
            continue
        if node.type == "object":
            found.append(node)
        elif node.type == "binary_expression":
            operator = node.child_by_field_name("operator")
            if operator is not None and operator.type in ("&&", "||", "??"):
                pending.append(unparenthesized(node.child_by_field_name("right")))
        elif node.type == "ternary_expression":
            for field in ("consequence", "alternative"):
                pending.append(unparenthesized(node.child_by_field_name(field)))
    return found


def _positional_names(node: Node) -> list[str | None]:
    """The name of each parameter of a function, by position: ``(type, handler = noop, ...rest)``
    gives ``type``, ``handler``, ``rest``; a destructuring pattern at position k is ``#k`` (see
    ``ts_declarations._untyped_parameter``); ``None`` for anything else. A ``this:`` parameter has no
    position."""
    params = node.child_by_field_name("parameters")
    if params is None:
        params = node.child_by_field_name("parameter")  # `x => …`
        return [(params.text or b"").decode()] if params is not None and params.type == "identifier" else []
    out: list[str | None] = []
    for param in params.named_children:
        if param.type == "comment":
            continue
        inner = param.child_by_field_name("pattern") or param
        if inner.type == "this":
            continue
        if inner.type == "assignment_pattern":
            inner = inner.child_by_field_name("left") or inner
        if inner.type == "rest_pattern":
            inner = next(iter(named_nodes(inner)), inner)
        if inner.type in ("object_pattern", "array_pattern"):
            out.append(f"#{len(out)}")
        else:
            out.append((inner.text or b"").decode() if inner.type == "identifier" else None)
    return out


# JS array methods adding their arguments (past how many) as elements
_ADDING = {"push": 0, "unshift": 0, "splice": 2}


def _handed_function(arg: Node) -> Node | None:
    """The function an argument hands on by name: ``onKey``, ``this.onKey``, ``view.onKey``, and
    the function of ``onKey.bind(this)``; None for anything else."""
    if arg.type == "call_expression":
        callee = arg.child_by_field_name("function")
        prop = (
            callee.child_by_field_name("property")
            if callee is not None and callee.type == "member_expression"
            else None
        )
        if prop is None or prop.text != b"bind" or callee is None:
            return None
        arg = callee.child_by_field_name("object") or arg
    if arg.type == "identifier":
        return arg
    if arg.type == "member_expression":
        prop = arg.child_by_field_name("property")
        return arg if prop is not None and prop.type == "property_identifier" else None
    return None


def _declared_name(node: Node, name: Node | None) -> Node | None:
    """The name a function is declared by: its own (``function onKey(e)``), or the variable's
    whose value it is (``const onKey = (e) => …``)."""
    if node.type in FUNCTIONS:
        return name if name is not None and name.type == "identifier" else None
    parent = node.parent
    if (
        node.type in ("arrow_function", "function_expression")
        and parent is not None
        and parent.type == "variable_declarator"
        and parent.child_by_field_name("value") == node
    ):
        found = parent.child_by_field_name("name")
        return found if found is not None and found.type == "identifier" else None
    return None


def _generator(node: Node) -> bool:
    """Whether the function ``node`` is a generator (``function*``, a ``*method()``)."""
    return node.type in ("generator_function", "generator_function_declaration") or any(
        c.type == "*" for c in node.children
    )


def _trap_target(typed: Desc) -> list[Desc] | None:
    """``[T]`` where ``typed`` is the lib's ``ProxyHandler<T>`` (a trap's first parameter is the
    proxy's target, a T: `get(state, prop)` of `const traps: ProxyHandler<State> = { … }`)."""
    if typed is None or typed[0] != "i" or len(typed) < 3 or not isinstance(typed[2], Site):
        return None
    named = typed[1]
    if named is None or named[0] != "n" or named[2] != "ProxyHandler" or bound(named) is not None:
        return None
    targs = typed[2].targs
    return [("i", targs[0])] if len(targs) == 1 and targs[0] is not None else None
