"""Descriptors: what a TS/JS expression or type annotation stands for, as a :data:`~astmcp.resolve.ts_scopes.Desc`
(turned into a chain for the linker); call sites and contextual types."""

from __future__ import annotations

import re
from collections.abc import Callable

from tree_sitter import Node

from astmcp.resolve.ts_fact_state import (
    ANYTHING,
    FUNCTION_VALUES,
    FUNCTIONS,
    MEMBER_NAMES,
    QUOTED_NAME,
    UNREAD,
    FactState,
    is_ident,
    member_property,
    member_step,
    named_nodes,
    own_key,
    package_import,
    unparenthesized,
)
from astmcp.resolve.ts_packages import keyof_part, no_infer
from astmcp.resolve.ts_scopes import GLOBAL, MAPPED, NAMESPACE, Desc, Scope, Site

_NULLISH = {"null", "undefined", "void"}
_ARRAYS = {"Array", "ReadonlyArray"}
_PROMISES = {"Promise", "PromiseLike"}
_MAPS = {"Map", "ReadonlyMap", "WeakMap"}  # (a WeakMap: `get`, `set`, `has`, `delete` alike)
_CONTAINERS = _ARRAYS | _PROMISES | _MAPS | {"Set", "ReadonlySet"}
_EMPTY_CONTAINERS = frozenset({"Map", "Set", "WeakMap", "WeakSet", "Array"})
_COMBINATORS = frozenset({"Promise.all", "Promise.allSettled"})  # (their array literals: tuples)
# Library types whose members are those of their first type argument (``Pick<T, K>`` has some of
# T's; reading one of them reads T's member): found only when the name is not the project's own.
# (`Exclude<U, X>`, `Extract<U, X>`: some of U's alternatives, read as U's, a union whose member
# reads are each alternative's that has the member)
_MEMBERWISE = {"Pick", "Omit", "Partial", "Required", "Readonly", "NonNullable", "Exclude", "Extract"}
_ANY = {"any", "unknown"}
# Library types whose type is that of one value (see `Descriptors.value_helper`)
_VALUE_HELPERS = {"ReturnType", "InstanceType", "Awaited"}
# primitive type names tree-sitter-typescript 0.23.2 reads as plain type names (`bigint`): no
# declaration can take them (TypeScript rejects `type bigint`), so a value named so (zod's `bigint()`
# function) is never what they mean
PRIMITIVE_NAMES = frozenset({"bigint"})
# primitive types: their values have the members of the standard global's interface
_PRIMITIVES = {
    "string": "String",
    "number": "Number",
    "boolean": "Boolean",
    "bigint": "BigInt",
    "symbol": "Symbol",
}
# The member of an object type that stands for its index signature (``xs[k]`` reads it: step ``[i]``).
INDEXED = "[i]"
# The member of a ``Record<K, V>`` object type holding its key type K, when that is named
# elsewhere (``Record<Methods, V>`` of ``type Methods = keyof A | keyof B``): the linker reads it.
KEYS = "^k"
REST_PARTS = "^r"  # `...args: [...T]`: the parameters from there on are the parts of T
# Characters a discriminant value may have to be written into a chain step (`~code=too_small`).
DISCRIMINANT = re.compile(r"[\w$.\-]+")


# array methods whose result holds the values given to them (TypeScript checks their type; in JS
# they may be anything)
_ADDING = frozenset({"concat", "fill", "with", "toSpliced"})


def _method_name(state: FactState, callee: Node | None) -> str | None:
    """The member a call's callee reads (``xs.concat`` -> ``concat``); None for any other callee."""
    prop = (
        callee.child_by_field_name("property")
        if callee is not None and callee.type == "member_expression"
        else None
    )
    return state.text(prop) if prop is not None else None


def _accumulator_declared(state: FactState, call: Node, targs: Node | None, callback: Node) -> bool:
    """Whether ``call`` is ``xs.reduce(fn, initial)`` (``reduceRight``) whose accumulator's type
    is declared apart from the initial value: by a type argument, or by an annotation of the
    callback's first parameter (``(acc: Widget | Route, w) => …``): TypeScript takes it from there."""
    if _method_name(state, call.child_by_field_name("function")) not in ("reduce", "reduceRight"):
        return False
    if targs is not None:
        return True
    params = callback.child_by_field_name("parameters") if callback.type in _CALLBACKS else None
    first = named_nodes(params)[0] if params is not None and named_nodes(params) else None
    return first is not None and first.child_by_field_name("type") is not None


_CALLBACKS = ("arrow_function", "function_expression", "function")


def _annotated(annotation: Node) -> Node:
    """The type an annotation (``: X``) writes; any other node as it is."""
    parts = named_nodes(annotation) if annotation.type == "type_annotation" else []
    return parts[0] if parts else annotation


def _element_type(annotation: Node) -> Node | None:
    """The element type of a rest parameter's array type (``X[]``, ``Array<X>``,
    ``ReadonlyArray<X>``); None for any other (a tuple: each argument its own part)."""
    node: Node | None = _annotated(annotation)
    while node is not None and node.type == "parenthesized_type" and named_nodes(node):
        node = named_nodes(node)[0]
    if node is None:
        return None
    if node.type == "array_type":
        return named_nodes(node)[0] if named_nodes(node) else None
    if node.type == "generic_type":
        name = node.child_by_field_name("name")
        args = named_nodes(node.child_by_field_name("type_arguments"))
        if name is not None and name.text in (b"Array", b"ReadonlyArray") and len(args) == 1:
            return args[0]
    return None


def _type_name(annotation: Node) -> Node | None:
    """The type named by an annotation that is a plain name (``: Items``), else None."""
    node = _annotated(annotation)
    return node if node.type == "type_identifier" else None


class Descriptors(FactState):
    # -- descriptors -----------------------------------------------------------
    def spread_object(self, node: Node, parts: list[Node], scope: Scope, suffix: str = "") -> Desc:
        """``{ ...state, ...patch, done }``: an object whose members are its own keys and those of
        what it spreads (fact ``lspreads``, chain ``W:``: the last part that has a member gives
        it); None without a spread, or with a key not written as a name (``[k]: v``)."""
        if not any(part.type == "spread_element" for part in parts):
            return None
        spread: list[Desc] = []
        pending = list(reversed(parts))
        while pending:
            part = pending.pop()
            if part.type == "comment":
                continue
            given = named_nodes(part) if part.type == "spread_element" else []
            inner = unparenthesized(given[0]) if given else None
            if inner is not None and inner.type == "object":
                pending.extend(reversed(named_nodes(inner)))  # `...{ a: 1 }`: its keys are written out
                continue
            if part.type == "spread_element":
                spread.append(self.desc(inner, scope) if inner is not None else None)
                continue
            own = own_key(part)
            if own is None:
                return None
            spread.append(("k", f"={own}"))
        key = f"{self.key(node)}{suffix}"
        self.lspreads[key] = spread
        return ("k", f"W:{key}")

    def desc(self, node: Node | None, scope: Scope) -> Desc:
        """What an expression's value is, as far as the file tells."""
        if node is None:
            return None
        kind = node.type
        if kind == "identifier":
            if self.self_spec and self.text(node) == "exports" and scope.lookup("exports") is None:
                return ("k", f"I::{self.self_spec}")  # CommonJS: the module's own exports object
            return ("n", scope, self.text(node))
        if kind == "this":
            return self.this
        if kind == "object":  # `{ ...state }`: a copy of one value, holding its members
            parts = [c for c in named_nodes(node) if c.type != "comment"]
            if len(parts) == 1 and parts[0].type == "spread_element" and named_nodes(parts[0]):
                return self.desc(named_nodes(parts[0])[0], scope)
            made = self.spread_object(node, parts, scope) or self.held_types.get(
                (node.start_byte, node.end_byte)
            )
            return made if made is not None or self.javascript else self.own_object(node, parts, scope)
        if kind == "super":
            return self.super
        if kind == "member_expression":
            prop = member_property(node)
            if prop is None or prop.type not in MEMBER_NAMES:
                return None
            target = node.child_by_field_name("object")
            if (
                self.self_spec
                and self.text(prop) == "exports"
                and target is not None
                and target.type == "identifier"
                and self.text(target) == "module"
                and scope.lookup("module") is None
            ):
                return ("k", f"I::{self.self_spec}")  # `module.exports`: the module's own exports
            spec = (
                self.dynamic_import(target)
                if target is not None and target.type == "call_expression"
                else None
            )
            if spec is not None and self.text(prop) not in ("then", "catch", "finally"):
                # `import("./a").Foo` (a type: an import type; a promise has no such member): the
                # module's export
                return ("m", ("k", f"I::{spec}"), self.text(prop))
            base = self.desc(target, scope)
            return ("m", base, self.text(prop)) if base is not None else None
        if kind == "subscript_expression":  # `x["key"]` is `x.key`; `xs[i]`, an element of the array xs
            index = node.child_by_field_name("index")
            base = self.desc(node.child_by_field_name("object"), scope)
            if base is None or index is None:
                return None
            if index.type == "number" and self.text(index).isdigit():  # `pair[1]`: a tuple's part, an element
                return ("m", base, f"#{int(self.text(index))}")
            if index.type == "identifier":  # `this[KEY]`: the member declared `[KEY]: T`, else an element
                named = ("n", scope, self.text(index))
                self.ikeys.setdefault(named[2], []).append(named)
                return ("e", base, named)
            if index.type not in ("string", "template_string"):
                return ("e", base)
            key = self.string_value(index)  # (backquoted without substitutions too)
            if key is None and index.type == "template_string":
                return ("e", base)
            return ("m", base, key) if key is not None and is_ident(key) else None
        if kind == "array":  # `[new A(), b]`: an array of what its elements are (each typed)
            elements = named_nodes(node)
            if not elements:
                return None
            values: list[Desc] = []
            for element in elements:  # stops at the first untyped one (data tables are long)
                if element.type == "spread_element":
                    # `[...xs, ...ys]`: what iterating each gives
                    spread = named_nodes(element)
                    items = self.desc(spread[0], scope) if spread else None
                    value: Desc = ("e", items) if items is not None else None
                else:
                    value = self.desc(element, scope)
                if value is None:
                    return None
                values.append(value)
            if len(values) == 1:
                return ("y", values[0])
            key = self.key(node)
            self.unions[key] = values
            return ("y", ("k", f"U:{key}"))
        if kind == "call_expression":
            spec = self.dynamic_import(node)
            if spec is not None:  # `import("./m")`: a promise of the module's namespace
                return ("q", ("k", f"I::{spec}"))
            callee = node.child_by_field_name("function")
            if self.javascript and _method_name(self, callee) in _ADDING:
                return None  # `[new Route()].concat([makeWidget()])`: nothing checks what JS adds
            base = self.desc(callee, scope)
            return ("c", base, self.site(node, scope)) if base is not None else None
        if kind == "new_expression":
            ctor = node.child_by_field_name("constructor")
            targs = node.child_by_field_name("type_arguments")
            if ctor is not None and targs is not None and self.text(ctor) in _CONTAINERS:
                made = self.container(node, self.text(ctor), targs, scope)  # `new Map<K, V>()`
                return ("i", made) if made is not None else None
            base = self.desc(ctor, scope)
            if base is None:
                return None
            site = self.site(node, scope)
            if targs is not None:
                # `new Box<User>(…)`: an instance whose type parameters the type arguments bind
                if site is not None and site.targs and all(t is not None for t in site.targs):
                    return ("i", base, site)
                return ("i", base)
            # `new Store(state)`: the arguments ride along (a package's class given a project value
            # may hold it: the linker's `given_project`; a project class binds no type argument so)
            return ("i", base, site) if site is not None else ("i", base)
        if kind in ("parenthesized_expression", "non_null_expression", "await_expression"):
            inner = node.named_children
            if kind == "await_expression":  # `await import("./m")`: the module's namespace
                spec = self.dynamic_import(inner[0]) if inner else None
                if spec is not None:
                    return ("k", f"I::{spec}")
                value = self.desc(inner[0], scope) if inner else None  # `await p`: what p settles to
                return ("w", value) if value is not None else None
            if kind == "non_null_expression" and inner:
                return self.desc(non_null_operand(inner[0]), scope)
            return self.desc(inner[0], scope) if inner else None
        if kind == "binary_expression":  # `x ?? null`: an x where it is anything
            operator = node.child_by_field_name("operator")
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if operator is None or operator.type not in ("??", "||") or left is None or right is None:
                return None
            return self.either(node, left, right, scope)  # `subject ?? connector()`
        if kind == "ternary_expression":  # `ok ? a : b`
            consequence = node.child_by_field_name("consequence")
            alternative = node.child_by_field_name("alternative")
            if consequence is None or alternative is None:
                return None
            return self.either(node, consequence, alternative, scope)
        if kind == "assignment_expression":  # `(subject = make())` is the value assigned
            right = node.child_by_field_name("right")
            return self.desc(right, scope) if right is not None else None
        if kind == "augmented_assignment_expression":  # `(ref.current ??= make())`: either
            operator = node.child_by_field_name("operator")
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if operator is None or operator.type not in ("??=", "||=") or left is None or right is None:
                return None
            return self.either(node, left, right, scope)
        if kind in ("as_expression", "satisfies_expression"):
            parts = node.named_children
            if len(parts) == 2:
                typed = (
                    self.declared(parts[1], scope)
                    if kind == "as_expression"
                    else self.instance(parts[1], scope)
                )
                if typed == ANYTHING and self.text(parts[1]) == "any":
                    # `(this as any).storage = s`: no type is checked there, but the value is still
                    # `this`: a member its type declares is that member (renamed with it), one it
                    # lacks stays a name hit
                    return self.desc(parts[0], scope) or typed
                return typed if typed is not None or kind == "as_expression" else self.desc(parts[0], scope)
            if len(parts) == 1 and kind == "as_expression" and self.text(node).endswith("const"):
                return self.const_value(parts[0], scope)  # `[a, "x"] as const`
        if kind == "type_assertion":  # `<T>value`, the older spelling of `value as T`
            parts = node.named_children
            asserted = named_nodes(parts[0]) if parts and parts[0].type == "type_arguments" else []
            return self.declared(asserted[0], scope) if len(asserted) == 1 else None
        return None

    def either(self, node: Node, one: Node, other: Node, scope: Scope) -> Desc:
        """Either side's value (a union, as of an array's elements), the other side when one is
        ``null``/``undefined`` or an empty array or object literal (``state.queries || []``: an
        array of no elements holds nothing the other's do not; ``context?.options ?? {}``: an
        object of no members has none the other lacks); unknown when a side is."""
        if self.nullish(other, scope) or self.empty(other, scope):
            return self.desc(one, scope)
        if self.nullish(one, scope) or self.empty(one, scope):
            return self.desc(other, scope)
        sides = [self.desc(one, scope), self.desc(other, scope)]
        if sides[0] is None or sides[1] is None:
            return None
        if sides[0] == sides[1]:
            return sides[0]
        key = self.key(node)
        self.unions[key] = sides
        return ("k", f"U:{key}")

    def nullish(self, node: Node, scope: Scope) -> bool:
        """``null``, or ``undefined`` when the name is not the project's own."""
        if node.type == "null" or node.type == "undefined":
            return True
        return (
            node.type == "identifier" and self.text(node) == "undefined" and scope.lookup("undefined") is None
        )

    def own_object(self, node: Node, parts: list[Node], scope: Scope) -> Desc:
        """The type TypeScript gives an object literal of no contextual type (``const o = { name:
        "x" }``, ``[{ name }]``, ``() => ({ name })``): an object type of its own keys (``L:<key>``,
        as one written out; fact ``olits``), each holding what its value is (a method: no known
        value); reading another member is no project member's read, and reading one of these is
        judged with the literal's key (the linker leaves it a name hit). None for ``{}``, or a
        literal with a key not written as a name (``[k]: v``, ``"a-b": 1``), a getter or a setter."""
        key = self.key(node)
        if key in self.objects:
            return ("k", f"L:{key}")
        if not parts:
            return None  # `{}`: filled later (`Object.assign({}, a)`, `reduce(…, {})`), or a placeholder
        members: dict[str, Desc] = {}
        for part in parts:
            name = own_key(part)
            if name is None or name in members:
                return None
            if part.type == "method_definition":
                if any(child.type in ("get", "set") for child in part.children):
                    return None
                members[name] = None
            elif part.type == "pair":
                members[name] = self.desc(part.child_by_field_name("value"), scope)
            else:
                members[name] = self.desc(part, scope)
        self.objects[key] = members
        if (node.start_byte, node.end_byte) not in self.closed_literals:
            self.olits.add(key)
        return ("k", f"L:{key}")

    def empty(self, node: Node, scope: Scope) -> bool:
        """``[]``, ``{}`` or a new empty container without type arguments (``new Map()``, ``new
        Set()``: beside another value, TypeScript infers its type arguments from that value's type,
        ``(state.appends ||= new Map())``), the container's name not the project's own."""
        if _empty_literal(node):
            return True
        inner = unparenthesized(node)
        if inner is None or inner.type != "new_expression" or inner.child_by_field_name("type_arguments"):
            return False
        ctor, args = inner.child_by_field_name("constructor"), inner.child_by_field_name("arguments")
        return (
            ctor is not None
            and ctor.type == "identifier"
            and self.text(ctor) in _EMPTY_CONTAINERS
            and scope.lookup(self.text(ctor)) is None
            and (args is None or not named_nodes(args))
        )

    def const_value(self, node: Node, scope: Scope) -> Desc:
        """A value under ``as const``: an array literal is a tuple of what its elements are (nested
        ones too; ``Q:<key>``, fact ``tuples``), anything else what it is."""
        if node.type != "array":
            return self.desc(node, scope)
        elements = named_nodes(node)
        if any(e.type == "spread_element" for e in elements):
            return None
        return self.tuple_of(node, [self.const_value(e, scope) for e in elements])

    def tuple_of(self, node: Node, parts: list[Desc]) -> Desc:
        """The tuple an array literal makes of ``parts`` (``Q:<key>``, fact ``tuples``); None when
        no part is typed."""
        if not any(parts):
            return None
        key = self.key(node)
        self.tuples[key] = parts
        return ("k", f"Q:{key}")

    def required(self, node: Node, scope: Scope) -> str | None:
        """The specifier of a CommonJS ``require("spec")`` (the global ``require``), else None."""
        callee = node.child_by_field_name("function") if node.type == "call_expression" else None
        if callee is None or callee.type != "identifier" or self.text(callee) != "require":
            return None
        if scope.lookup("require") is not None:
            return None
        args = named_nodes(node.child_by_field_name("arguments"))
        parts = args[0].named_children if len(args) == 1 and args[0].type == "string" else []
        return self.text(parts[0]) if len(parts) == 1 and parts[0].type == "string_fragment" else None

    def dynamic_import(self, node: Node) -> str | None:
        """The specifier of ``import("spec")`` (a plain string), else None."""
        callee = node.child_by_field_name("function") if node.type == "call_expression" else None
        if callee is None or callee.type != "import":
            return None
        args = named_nodes(node.child_by_field_name("arguments"))
        if len(args) != 1 or args[0].type != "string":
            return None
        parts = args[0].named_children
        return self.text(parts[0]) if len(parts) == 1 and parts[0].type == "string_fragment" else None

    def tdesc(self, node: Node | None, scope: Scope) -> Desc:
        """The declaration a type names (not an instance of it)."""
        if node is None:
            return None
        kind = node.type
        if kind == "type_annotation" or kind == "parenthesized_type":
            inner = node.named_children
            return self.tdesc(inner[0], scope) if inner else None
        if kind == "type_identifier":
            if self.text(node) in PRIMITIVE_NAMES:
                return ("k", f"{GLOBAL}{_PRIMITIVES[self.text(node)]}")
            return ("n", scope, self.text(node), True)
        if kind == "identifier":
            # the qualifier of a type (`middleware.Fn`): a namespace, never a local value nor a
            # type parameter
            return ("n", scope, self.text(node), NAMESPACE)
        if kind == "function_type":  # `(a: A) => R`: a value of it is a function (calling it gives an R)
            ret = node.child_by_field_name("return_type")
            params = self.parameter_types(node.child_by_field_name("parameters"), scope)
            return ("f", params, {}, self.return_value(ret, scope))
        if kind == "predefined_type":  # `string`: a String (the library's members, unless extended)
            wrapper = _PRIMITIVES.get(self.text(node))
            return ("k", f"{GLOBAL}{wrapper}") if wrapper is not None else None
        if kind == "union_type":  # `T | null | undefined` is a T; `A | B` is either
            kept = self.alternatives(node)
            if len(kept) == 1:
                return self.tdesc(kept[0], scope)
            key = self.key(node)
            self.unions[key] = [self.alternative(part, scope) for part in kept]
            return ("k", f"U:{key}")
        if kind == "intersection_type":  # `A & B` has the members of both: as a union, each part's
            names = keyof_part(node)
            if names is not None:  # `keyof T & string`: some of T's member names
                return self.tdesc(names, scope)
            key = self.key(node)
            # (a function type a part: one overload, `((a: A) => R) & ((b: B) => R)`; calling the
            # value gives what one of them returns)
            self.unions[key] = [self.alternative(part, scope) for part in self.parts(node)]
            self.isects.add(key)
            return ("k", f"U:{key}")
        if kind == "conditional_type":  # `T extends any ? X<T> : never` is an X<T> for each T
            branch = self.distributed(node)
            if branch is not None:
                return self.targ(branch, scope)
            # `T extends A ? X : T extends B ? Y : Z` is one of X, Y, Z (`never` is none)
            branches = self.branches(node)
            if len(branches) == 1:
                return self.targ(branches[0], scope)
            key = self.key(node)
            self.unions[key] = [self.alternative(part, scope) for part in branches]
            return ("k", f"U:{key}") if branches else None
        if kind == "object_type":  # `{ [k in keyof T]: T[k] }` has T's members
            source = self.homomorphic(node)
            if source is not None:
                return self.targ(source, scope)
            keys = self.keyed(node)  # `{ [k in keyof T]: V }`: keyed by T's members
            keyed = self.instance(keys, scope) if keys is not None else None
            if keyed is None:
                return self.anonymous(node, scope)
            held = self.mapped_value(node, scope)
            if held is None:
                return ("K", keyed)
            # each member holds a V (`{ [k in keyof S]: Optional<S[k]> }`: an Optional, whatever
            # S[k] is): the keys and V by position (fact `unions`, chain `Y:<key>`)
            key = self.key(node)
            self.unions[key] = [keyed, held]
            return ("k", f"{MAPPED}{key}")
        if kind == "array_type":  # `T[]`: an array whose elements are T's
            inner = named_nodes(node)
            element = _element(self.tdesc(inner[0], scope) if inner else None)
            return ("y", element) if element is not None else None
        if kind == "tuple_type":  # `[A, B]`: its parts by position (`Q:<key>`, fact `tuples`)
            return self.tuple_type(node, scope)
        if kind == "readonly_type":  # `readonly T[]`
            inner = named_nodes(node)
            wrapped = bool(inner) and inner[0].type in ("array_type", "tuple_type")
            return self.tdesc(inner[0], scope) if wrapped else None
        if kind == "generic_type" and self.text(node.child_by_field_name("name") or node) in _CONTAINERS:
            head = node.child_by_field_name("name") or node
            found = self.container(node, self.text(head), node.child_by_field_name("type_arguments"), scope)
            # elements of no known type (`Set<unknown>`): still the library's container
            return found if found is not None or scope.lookup(self.text(head)) else self.tdesc(head, scope)
        if kind == "generic_type":
            helper = self.value_helper(node, scope)
            if helper is not None:
                # `ReturnType<typeof make>`: what calling make gives; `InstanceType<typeof C>`: a C;
                # `Awaited<…>` of either: what awaiting it gives (a value's type, as `typeof x`)
                name, given = helper
                of = self.tdesc(given, scope)
                if of is None:
                    return None
                return (
                    ("m", of, "()")
                    if name == "ReturnType"
                    else ("i", of)
                    if name == "InstanceType"
                    else ("w", of)
                )
            arg = self.memberwise(node, scope)
            if arg is not None:
                return self.targ(arg, scope)
            record = self.record(node, scope)
            if record is not None:
                return record
            marker = self.this_type(node, scope)
            if marker is not None:
                return marker
            return self.tdesc(node.child_by_field_name("name") or node.named_children[0], scope)
        if kind == "type_query":  # `typeof x`: x's own type (its instance is x: the chain `x|:`)
            inner = named_nodes(node)
            if len(inner) != 1:
                return None
            called = inner[0].child_by_field_name("function") if inner[0].type == "call_expression" else None
            if called is not None and called.type == "import":
                # `typeof import("./a.js")`: the module's namespace, not the promise `import()` gives
                loaded = self.desc(inner[0], scope)
                return ("w", loaded) if loaded is not None else None
            return self.desc(inner[0], scope)
        if kind == "this_type":  # a method returning `this` returns its receiver (the linker knows it)
            return ("k", "this")
        if kind == "index_type_query":  # `keyof T`: the names of T's members (`^N`)
            inner = named_nodes(node)
            keyed = self.instance(inner[0], scope) if len(inner) == 1 else None
            return ("N", keyed) if keyed is not None else None
        if kind == "lookup_type":  # `X["key"]`: the declared type of X's member `key`
            parts = node.named_children
            member = self.literal_name(parts[1], quoted=True) if len(parts) == 2 else None
            base = self.tdesc(parts[0], scope) if member is not None else None
            if member is not None and not is_ident(member):
                member = member_step(member)  # `X["~standard"]`: the quoted step
            if base is not None and self.value_type(parts[0]):
                return ("m", base, member)  # `(typeof Cls)["create"]`: the class's own member
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

    def tuple_type(self, node: Node, scope: Scope) -> Desc:
        """A tuple type (``[A, label: B, C?]``): ``Q:<key>``, its parts' declarations in ``tuples``
        (none from a rest part on; a rest part's elements, ``...B[]``, in ``trests``)."""
        key = self.key(node)
        if key not in self.tuples:
            parts: list[Desc] = []
            for part in named_nodes(node):
                if part.type == "rest_type":
                    rest = named_nodes(part)
                    array = len(rest) == 1 and rest[0].type == "array_type" and named_nodes(rest[0])
                    self.trests[key] = self.targ(named_nodes(rest[0])[0], scope) if array else None
                    break
                if part.type in ("required_parameter", "optional_parameter"):
                    part = part.child_by_field_name("type") or part
                elif part.type == "optional_type":
                    part = named_nodes(part)[0] if named_nodes(part) else part
                parts.append(self.targ(part, scope))
            self.tuples[key] = parts
        return ("k", f"Q:{key}")

    def container(self, node: Node, name: str, targs: Node | None, scope: Scope) -> Desc:
        """A library container type (unless the project declares the name): ``Array<T>`` and
        ``Set<T>`` are arrays of T's, ``Promise<T>`` a promise of a T, ``Map<K, V>`` (``WeakMap<K,
        V>``) a map (a tuple ``[K, V]`` of its entries, step ``|^m``)."""
        args = named_nodes(targs)
        if scope.lookup(name) is not None or len(args) != (2 if name in _MAPS else 1):
            return None
        if name in _MAPS:
            key = self.key(node)
            if key not in self.tuples:
                self.tuples[key] = [self.targ(a, scope) for a in args]
            return ("k", f"Q:{key}|^m") if any(self.tuples[key]) else None
        element = _element(self.tdesc(args[0], scope))
        if element is None:
            return None
        # (of elements whose type no chain reaches, `Set<ReturnType<typeof setTimeout>>`: still the
        # library's container, whose own members, `size`, `add`, are no project member's)
        return ("q" if name in _PROMISES else "y"), element, f"{GLOBAL}{name}"

    def alternative(self, node: Node, scope: Scope) -> Desc:
        """A union's alternative; a function type written out there is a type of its own
        (``L:<key>``: no members, its parameter types in ``ftypes``), so a function value passed
        where ``T | ((old: T) => T)`` is expected has its parameters typed (``setState(old => …)``)."""
        inner = self.unwrapped(node)
        if inner is not None and inner.type == "function_type":
            key = self.key(inner)
            self.ftypes.setdefault(key, self.parameter_types(inner.child_by_field_name("parameters"), scope))
            ret = inner.child_by_field_name("return_type")
            self.sigrets.setdefault(key, self.instance(ret, scope) if ret is not None else None)
            return ("k", f"L:{key}")
        return self.targ(node, scope)

    def function_value(self, node: Node, scope: Scope, depth: int = 0) -> Desc:
        """A value of the function type ``node`` writes out (or a method signature), as a type of its own (``L:<key>``:
        its parameter types in ``ftypes``, what calling it gives in ``sigrets``, a function type
        there alike: ``(): (s: number) => () => Ctx``), so calling it is typed; None otherwise."""
        inner = self.unwrapped(node)
        if inner is None or inner.type not in ("function_type", "method_signature") or depth > 4:
            return None
        key = self.key(inner)
        self.ftypes.setdefault(key, self.parameter_types(inner.child_by_field_name("parameters"), scope))
        ret = inner.child_by_field_name("return_type")
        given = self.function_value(ret, scope, depth + 1) if ret is not None else None
        self.sigrets.setdefault(key, given or (self.instance(ret, scope) if ret is not None else None))
        return ("k", f"L:{key}")

    def anonymous(self, node: Node, scope: Scope) -> Desc:
        """An object type written out (``{ a: A; f(): void }``): ``L:<key>``, its members' declared
        types in ``objects`` (a method's: a function of its signature, see :meth:`function_value`;
        an index signature's: none), its call signature's parameter types in ``ftypes``."""
        key = self.key(node)
        if key not in self.objects:
            members: dict[str, Desc] = {}
            self.objects[key] = members
            for member in named_nodes(node):
                name = member.child_by_field_name("name")
                value = self.index_value(member, scope)
                if value is not None:
                    members[INDEXED] = value
                elif member.type == "index_signature" and not self.numeric_index(member):
                    # keys of no known kind, or values of no known type: a member it does not
                    # declare may be anything (kept apart from a closed type's missing member)
                    members.setdefault(INDEXED, None)
                if member.type == "call_signature" and key not in self.ftypes:
                    self.ftypes[key] = self.parameter_types(member.child_by_field_name("parameters"), scope)
                if member.type not in ("property_signature", "method_signature") or name is None:
                    continue
                parts = named_nodes(name) if name.type == "computed_property_name" else []
                if member.type == "property_signature" and [p.type for p in parts] == ["identifier"]:
                    # `{ [DRAFT_STATE]: T }`, read `x[DRAFT_STATE]`: the member keyed by that value
                    annotation = member.child_by_field_name("type")
                    if annotation is not None:
                        step = f"[{self.text(parts[0])}]"
                        members[step] = self.instance(annotation, scope)
                        self.ckeys[f"{key}.{step}"] = ("n", scope, self.text(parts[0]))
                    continue
                if name.type in MEMBER_NAMES and member.type == "method_signature":
                    # `{ unwatched(sub: Node): void }`: a function of that signature (overloaded: of
                    # no known one)
                    label = self.text(name)
                    members[label] = None if label in members else self.function_value(member, scope)
                    continue
                if name.type in MEMBER_NAMES:
                    annotation = member.child_by_field_name("type")
                    typed = member.type == "property_signature" and annotation is not None
                    members[self.text(name)] = self.instance(annotation, scope) if typed else None
                    literals = self.literal_values(annotation) if typed else None
                    if literals:  # `{ kind: "min"; … }`: a discriminant of the unions it is part of
                        self.lits[f"{key}.{self.text(name)}"] = literals
        return ("k", f"L:{key}")

    def numeric_index(self, member: Node) -> bool:
        """Whether an index signature is ``[i: number]: V`` (no identifier is such a key)."""
        index = member.child_by_field_name("index_type")
        return index is not None and self.text(index) == "number"

    def index_value(self, member: Node, scope: Scope, keys: str = "string") -> Desc:
        """What a string index signature (``[k: string]: V``, not a mapped type's) gives: a V (for
        ``x[k]`` and for any member the type does not declare); with ``keys`` "number", what a
        number index signature gives (for ``x[0]`` alone)."""
        index = member.child_by_field_name("index_type") if member.type == "index_signature" else None
        if index is None or self.text(index) != keys:
            return None
        return self.instance(member.child_by_field_name("type"), scope)

    def record(self, node: Node, scope: Scope) -> Desc:
        """The library's ``Record<K, V>`` (unless the project declares the name) as the object type
        ``{ [k: K]: V }``: ``L:<key>`` with only an index signature; over ``keyof T``, an object
        whose members are named by T's (``("K", T)``)."""
        head = node.child_by_field_name("name")
        args = named_nodes(node.child_by_field_name("type_arguments"))
        if (
            head is None
            or self.text(head) != "Record"
            or len(args) != 2
            or scope.lookup("Record") is not None
        ):
            return None
        given = self.key_subset(args[0], scope)
        keys = given.named_children[0] if given.type == "index_type_query" and given.named_children else None
        if (
            keys is not None
        ):  # `Record<keyof Foo, V>`, `Record<keyof typeof Color, V>`: keyed by their members
            keyed = self.instance(keys, scope)
            if keyed is not None:
                return ("K", keyed)
        key = self.key(node)
        if key not in self.objects:
            value = self.instance(args[1], scope)
            self.objects[key] = {INDEXED: value}  # every key (also when V is of no known type)
            if args[0].type in ("type_identifier", "generic_type", "nested_type_identifier", "union_type"):
                # `Record<Methods, V>`: if Methods turns out to be member names (`keyof A | keyof B`),
                # each key names the member (judged by the linker)
                keyed = self.instance(args[0], scope)
                if keyed is not None:
                    self.objects[key][KEYS] = keyed
        return ("k", f"L:{key}")

    def key_subset(self, node: Node, scope: Scope) -> Node:
        """The keys a ``Record``'s key type picks from: ``keyof T`` of ``Exclude<keyof T, "k">`` or
        ``Extract<keyof T, K>`` (the library's, unless the project declares the name; nested too),
        each key of which is one of T's member names; else ``node`` itself."""
        while node.type == "generic_type":
            head = node.child_by_field_name("name")
            args = named_nodes(node.child_by_field_name("type_arguments"))
            name = self.text(head) if head is not None else ""
            if name not in ("Exclude", "Extract") or len(args) != 2 or scope.lookup(name) is not None:
                break
            node = args[0]
        return node

    def this_type(self, node: Node, scope: Scope) -> Desc:
        """The library's ``ThisType<T>`` marker (unless the project declares the name): in the
        contextual type of an object literal, its methods' ``this`` is a T (``("h", T)``, step ``^h``)."""
        head = node.child_by_field_name("name")
        args = named_nodes(node.child_by_field_name("type_arguments"))
        if head is None or self.text(head) != "ThisType" or len(args) != 1 or scope.lookup("ThisType"):
            return None
        inner = self.instance(args[0], scope)
        return ("h", inner) if inner is not None else None

    def parameter_types(self, params: Node | None, scope: Scope, rest: bool = False) -> list[Desc]:
        """Declared types (instances) of a parameter list, ``this`` left out. With ``rest``, a last
        ``...args: [...T]`` (a tuple type parameter spread out, perhaps in ``NoInfer<…>``) is
        ``T|^r``: the parameters from there on are T's parts in turn."""
        out: list[Desc] = []
        for param in named_nodes(params):
            pattern = param.child_by_field_name("pattern")
            if pattern is not None and pattern.type == "this":
                continue
            spread = spread_tuple(param.child_by_field_name("type")) if rest else None
            if spread is not None and pattern is not None and pattern.type == "rest_pattern":
                found = self.tdesc(spread, scope)
                out.append(("m", found, REST_PARTS) if found is not None else None)
                continue
            declared = param.child_by_field_name("type")
            if pattern is not None and pattern.type == "rest_pattern":
                named = _type_name(declared) if declared is not None else None
                if named is not None:  # `...items: Items`: the arguments from here on are its parts
                    found = self.tdesc(named, scope)
                    out.append(("m", found, REST_PARTS) if found is not None else None)
                    continue
                # `...args: Array<Partial<T>>`: an argument there is one element of it
                out.append(self.instance(_element_type(declared), scope) if declared is not None else None)
                continue
            out.append(self.instance(declared, scope))
        return out

    def targ(self, node: Node | None, scope: Scope) -> Desc:
        """A type as a part of another (a union's alternative, a type argument): a generic reference
        is an instance with its own type arguments (``Box<A> | B``, ``F<Box<A>>``), else the
        declaration the type names."""
        inner = self.unwrapped(node)
        if (
            inner is not None
            and inner.type == "generic_type"
            and self.memberwise(inner, scope) is None
            and not self.value_type(inner, scope)
        ):
            found = self.tdesc(inner, scope)
            return (
                ("i", found, self.type_site(inner, scope))
                if found is not None and found[0] not in ("y", "q", "h", "K")
                else found
            )
        return self.tdesc(node, scope)

    def value_type(self, node: Node | None, scope: Scope | None = None) -> bool:
        """Whether the type ``node`` is that of one value (``typeof x``, ``(typeof X)["key"]``;
        in ``scope``, ``ReturnType<typeof make>`` too)."""
        inner = self.unwrapped(node)
        if inner is None:
            return False
        if inner.type == "lookup_type":
            parts = inner.named_children
            return len(parts) == 2 and self.value_type(parts[0])
        if scope is not None and inner.type == "generic_type":
            return self.value_helper(inner, scope) is not None
        return inner.type == "type_query"

    def value_helper(self, node: Node, scope: Scope) -> tuple[str, Node] | None:
        """``("ReturnType", typeof make)`` of ``ReturnType<typeof make>``, alike ``InstanceType<typeof
        C>`` and ``Awaited<T>`` of such a type: the lib's helpers whose type is one value's (unless
        the file declares that name); None for any other type."""
        head = node.child_by_field_name("name")
        if head is None or head.type != "type_identifier":
            return None
        name = self.text(head)
        args = named_nodes(node.child_by_field_name("type_arguments"))
        if name not in _VALUE_HELPERS or len(args) != 1 or scope.lookup(name) is not None:
            return None
        arg = args[0]
        if name == "Awaited":
            return (name, arg) if arg.type == "generic_type" and self.value_helper(arg, scope) else None
        return (name, arg) if arg.type == "type_query" else None

    def unwrapped(self, node: Node | None) -> Node | None:
        """The type a (parenthesized) annotation, ``NoInfer<T>`` or a distributive conditional type
        stands for."""
        while node is not None:
            if node.type in ("type_annotation", "parenthesized_type"):
                inner = named_nodes(node)
                node = inner[0] if inner else None
            elif (held := no_infer(node)) is not None:  # `NoInfer<T>`: T
                node = held
            elif node.type == "conditional_type":
                branch = self.distributed(node)
                if branch is None:
                    return node
                node = branch
            else:
                return node
        return None

    def distributed(self, node: Node) -> Node | None:
        """The true branch of ``T extends any ? X : …`` (``unknown`` too): every T takes it. And
        ``this`` when each branch is ``this`` or ``this & X`` (``refine(): C extends … ? this & Y
        : this``): either way a value with the members of ``this``."""
        right = node.child_by_field_name("right")
        if right is not None and right.type == "predefined_type" and self.text(right) in _ANY:
            return node.child_by_field_name("consequence")
        branches = [node.child_by_field_name("consequence"), node.child_by_field_name("alternative")]
        this = [b for b in branches if b is not None and b.type == "this_type"]
        if this and all(b is not None and _holds_this(b) for b in branches):
            return this[0]
        return None

    def homomorphic(self, node: Node) -> Node | None:
        """``T`` of a mapped object type ``{ [k in keyof T]: T[k] }`` (modifiers and ``| undefined``
        allowed): its members are T's."""
        mapped = _mapped_over_keys(node)
        if mapped is None or mapped[2] is None:
            return None
        name, source, value = mapped
        parts = named_nodes(value)
        if len(parts) != 1:
            return None
        lookup = parts[0]
        if lookup.type == "union_type":
            kept = self.alternatives(lookup)
            lookup = kept[0] if len(kept) == 1 else lookup
        pair = named_nodes(lookup) if lookup.type == "lookup_type" else []
        if (
            len(pair) == 2
            and self.text(pair[0]) == self.text(source)
            and self.text(pair[1]) == self.text(name)
        ):
            return source
        return None

    def mapped_value(self, node: Node, scope: Scope) -> Desc:
        """What each member of a mapped object type ``{ [k in keyof T]: V }`` holds, when V is one
        generic class or interface of the project's (``Optional<T[k]>``, ``Box<string>``): an
        instance of it, its type arguments riding along (one naming k binds nothing, so that
        type parameter takes its constraint). None for any other V (``T[k]``, a union, a
        conditional on k, a primitive): what a member holds stays unknown."""
        mapped = _mapped_over_keys(node)
        value = mapped[2] if mapped is not None else None
        parts = named_nodes(value) if value is not None else []
        if len(parts) != 1 or parts[0].type not in ("generic_type", "type_identifier"):
            return None
        head = parts[0].child_by_field_name("name") if parts[0].type == "generic_type" else parts[0]
        binding = scope.lookup(self.text(head)) if head is not None else None
        if binding is None or binding.chain is None or not binding.chain.startswith(("P:", "I:")):
            return None  # (a type parameter, a library type, a local alias)
        found = self.instance(parts[0], scope)
        return found if found is not None and found[0] == "i" else None

    def keyed(self, node: Node) -> Node | None:
        """``T`` of a mapped object type ``{ [k in keyof T]: V }`` whose values are anything: its
        members are named by T's (``("K", T)``, step ``^K``), what they hold is not T's."""
        mapped = _mapped_over_keys(node)
        return mapped[1] if mapped is not None else None

    def memberwise(self, node: Node, scope: Scope) -> Node | None:
        """The first type argument of ``Pick<T, K>``, ``Partial<T>``, … (library types whose
        members are T's; ``Exclude<U, X>`` and ``Extract<U, X>`` keep some of U's alternatives),
        unless the project declares that name."""
        head = node.child_by_field_name("name")
        if head is None or head.type != "type_identifier":
            return None
        name = self.text(head)
        if name not in _MEMBERWISE or scope.lookup(name) is not None:
            return None
        args = named_nodes(node.child_by_field_name("type_arguments"))
        return args[0] if args else None

    def literal_values(self, annotation: Node | None) -> list[str] | None:
        """The literals a type is made of (``"a"``, ``"a" | "b" | undefined``, ``true``), else None."""
        inner = self.unwrapped(annotation)
        if inner is None:
            return None
        parts = self.alternatives(inner) if inner.type == "union_type" else [inner]
        values = [
            self.literal_value(p.named_children[0])
            if p.type == "literal_type" and p.named_children
            else self.string_value(p)
            if p.type == "template_literal_type"  # backquoted, without substitutions
            else None
            for p in parts
        ]
        return [v for v in values if v is not None] if values and all(v is not None for v in values) else None

    def literal_value(self, node: Node | None) -> str | None:
        """A discriminant literal: a plain string's text, or ``true`` / ``false``."""
        if node is not None and node.type in ("true", "false"):
            return node.type
        return self.string_value(node)

    def string_value(self, node: Node | None) -> str | None:
        """The text of a plain string literal usable as a discriminant (``"too_small"``, or
        backquoted without substitutions), else None."""
        quoted = ("string", "template_string", "template_literal_type")
        frags = node.named_children if node is not None and node.type in quoted else []
        if len(frags) == 1 and frags[0].type == "string_fragment":
            text = self.text(frags[0])
            return text if DISCRIMINANT.fullmatch(text) else None
        return None

    def parts(self, node: Node) -> list[Node]:
        """The parts of a (nested) intersection type."""
        out: list[Node] = []
        for part in named_nodes(node):
            out += self.parts(part) if part.type == "intersection_type" else [part]
        return out

    def branches(self, node: Node) -> list[Node]:
        """The types a conditional type may stand for: its branches, nested ones flattened,
        ``never`` left out."""
        out: list[Node] = []
        pending = [node.child_by_field_name("alternative"), node.child_by_field_name("consequence")]
        while pending:
            part = pending.pop()
            while part is not None and part.type == "parenthesized_type" and named_nodes(part):
                part = named_nodes(part)[0]
            if part is None or self.text(part) == "never":
                continue
            if part.type == "conditional_type":
                pending += [part.child_by_field_name("alternative"), part.child_by_field_name("consequence")]
            else:
                out.append(part)
        return out

    def alternatives(self, node: Node) -> list[Node]:
        out: list[Node] = []
        for part in node.named_children:
            if part.type == "union_type":
                out += self.alternatives(part)
            elif self.text(part) not in _NULLISH:
                out.append(part)
        return out

    def declared(self, node: Node | None, scope: Scope) -> Desc:
        """What a value declared with the type ``node`` holds (a parameter's, a variable's, an
        assertion's): an instance of it; anything when it is ``any`` or ``unknown``; an array
        (its methods the library's) of anything when it is ``any[]`` or ``unknown[]``."""
        inner = self.unwrapped(node)
        if inner is not None and inner.type == "predefined_type" and self.text(inner) in _ANY:
            return ANYTHING
        parts = named_nodes(inner) if inner is not None and inner.type == "array_type" else []
        if parts and parts[0].type == "predefined_type" and self.text(parts[0]) in _ANY:
            return ("i", ("k", f"{GLOBAL}Array"))
        if inner is not None and inner.type == "constructor_type":
            # `make: new () => User`: a class-like value, `new make()` a User (as of a class held)
            made = inner.child_by_field_name("type")
            return self.tdesc(made, scope) if made is not None else None
        return self.instance(node, scope)

    def return_value(self, node: Node | None, scope: Scope) -> Desc:
        """What calling a function whose return type is ``node`` gives: an instance of it; when it
        is not read (`() => Parameters<typeof f>[0]`), something typed all the same (``UNREAD``),
        never a receiver nobody typed; None where no return type is written."""
        if node is None:
            return None
        found = self.instance(node, scope)
        return found if found is not None else UNREAD

    def instance(self, node: Node | None, scope: Scope) -> Desc:
        """An instance of the type ``node`` names; a generic reference's type arguments ride
        along as a :class:`Site` (``X<A>``: ``…|:/<key>``)."""
        found = self.tdesc(node, scope)
        if found is None or found[0] == "f":  # a function value has no instance of its own
            return found
        inner = self.unwrapped(node)
        if self.value_type(inner, scope):
            # a value of `typeof x` is x (of `typeof SomeClass`: the class itself); of
            # `(typeof Cls)["create"]`, the class's own member
            return found
        if (
            inner is not None
            and inner.type == "generic_type"
            and found[0] not in ("y", "q", "h", "K")
            and self.memberwise(inner, scope) is None
        ):
            return ("i", found, self.type_site(inner, scope))
        return ("i", found)

    def type_site(self, node: Node, scope: Scope) -> Site:
        """The type arguments of a generic type reference, as a site keyed by its position."""
        found = self.sites.get(node.id)
        if found is None:
            args = named_nodes(node.child_by_field_name("type_arguments"))
            found = self.sites[node.id] = Site(self.key(node), [self.targ(a, scope) for a in args], None, [])
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
        values = named_nodes(args)
        returns = {k: parts for k, a in enumerate(values) if (parts := self.returned_parts(a, scope))}
        # (what a package's function given these may give back: `createStore(() => new Route())`
        # binds the callee's type parameter to a project type, as the value itself would; read for
        # a package's functions only, the ones a type argument so inferred is not read for)
        package = _calls_package(node, scope)
        bodies = [self.given_result(a, scope) for a in values] if package else []
        held = (
            [d for a in values if a.type in ("object", "array") for d in self.held_values(a, scope)]
            if package
            else []
        )
        combined = self.promise_combinator(node, scope)
        descs = [
            self.parts_value(a, scope) if combined and a.type == "array" else self.desc(a, scope)
            for a in values
        ]
        if len(descs) == 2 and _accumulator_declared(self, node, targs_node, values[0]):
            descs[1] = None  # (what `xs.reduce(fn, initial)` gives is then not the initial value's type)
        found = Site(self.key(args), targs, expected, descs, returns)
        found.bodies = bodies if any(b is not None for b in bodies) else []
        found.held = held
        found.called = node.type == "call_expression"
        found.spread = next((k for k, a in enumerate(values) if a.type == "spread_element"), None)
        found.goes = self.value_types.pop(node.id, None)
        stored = self.stored_as.get(node.id)
        found.stored = self.tdesc(stored, scope) if stored is not None else None
        self.sites[node.id] = found
        return found

    def promise_combinator(self, node: Node, scope: Scope) -> bool:
        """Whether a call is the global ``Promise.all(…)`` or ``Promise.allSettled(…)``."""
        callee = node.child_by_field_name("function")
        return (
            callee is not None
            and self.text(callee) in _COMBINATORS
            and node.type == "call_expression"
            and scope.lookup("Promise") is None
        )

    def parts_value(self, node: Node, scope: Scope) -> Desc:
        """An array literal given to ``Promise.all``/``Promise.allSettled``: a tuple of what its
        elements are, each alone (``Q:<key>``, fact ``tuples``), as TypeScript infers one there (the
        lib declares ``T extends readonly unknown[] | []``); with a spread part, an array."""
        elements = [e for e in named_nodes(node) if e.type != "comment"]
        if any(e.type == "spread_element" for e in elements):
            return self.desc(node, scope)
        return self.tuple_of(node, [self.desc(e, scope) for e in elements])

    def returned_parts(self, node: Node, scope: Scope) -> list[Desc] | None:
        """The parts of the array literal a function without parameters returns as its
        expression body (``() => [table.getState(), rows]``): what binds ``T`` of a callee's
        ``() => [...T]`` (the values are read in the enclosing scope: no parameter shadows them)."""
        body, local = self.returned_node(node)
        if body is None or body.type != "array":
            return None
        parts = [c for c in named_nodes(body) if c.type != "comment"]
        if not parts or any(c.type == "spread_element" for c in parts):
            return None
        return [None if _reads_any(c, local, self.text) else self.desc(c, scope) for c in parts]

    def held_values(self, node: Node, scope: Scope, depth: int = 0) -> list[Desc]:
        """The values an object or array literal given as an argument holds, nested ones too
        (``createSlice({ initial: new Route() })``, ``{ compute: () => new Route() }``): a
        package's generic function may give them back."""
        out: list[Desc] = []
        for part in named_nodes(node):
            value = part.child_by_field_name("value") if part.type == "pair" else part
            if part.type == "shorthand_property_identifier":
                value = part
            if value is None or depth > 3:
                continue
            if value.type in ("object", "array"):
                out.extend(self.held_values(value, scope, depth + 1))
            elif value.type == "arrow_function":
                out.append(self.given_result(value, scope))
            elif value.type == "shorthand_property_identifier":
                out.append(("n", scope, self.text(value)))
            elif value.type not in ("comment", "spread_element", "method_definition", "function_expression"):
                out.append(self.desc(value, scope))
        return [d for d in out if d is not None]

    def given_result(self, node: Node, scope: Scope) -> Desc:
        """What an arrow function without parameters returns (``() => new Route()``), read in the
        enclosing scope; None when that is an array literal (see :meth:`returned_parts`), reads a
        name its body declares, or is not one value."""
        body, local = self.returned_node(node)
        if body is None or body.type == "array" or _reads_any(body, local, self.text):
            return None
        return self.desc(body, scope)

    def returned_node(self, node: Node) -> tuple[Node | None, set[str]]:
        """The expression an arrow function without parameters returns (its expression body, or
        its body's one ``return``, last) and the names its body declares."""
        if node.type != "arrow_function" or named_nodes(node.child_by_field_name("parameters")):
            return None, set()
        if node.child_by_field_name("parameter") is not None:
            return None, set()
        body = node.child_by_field_name("body")
        body = unparenthesized(body) if body is not None else None
        local: set[str] = set()
        if body is not None and body.type == "statement_block":
            # `() => { const range = …; return [this.options.rangeExtractor, range] }`: the array its
            # one return gives, last; a part reading a name the body declares is of no known type
            body, local = _block_return(body, self.text)
        return body, local

    def contextual(self, annotation: Node, scope: Scope) -> tuple[Desc, int, bool, Site | None] | None:
        """A function value's parameters typed by the declared function type of the variable
        (``const f: Handler<X> = (a, b) => …``): callback index -1, the annotation's type
        arguments as the site."""
        inner = named_nodes(annotation)
        return self.named_context(inner[0] if inner else None, scope)

    def named_context(self, head: Node | None, scope: Scope) -> tuple[Desc, int, bool, Site | None] | None:
        """:meth:`contextual` for the type node itself (``Handler<X>``)."""
        if head is None or head.type not in (
            "type_identifier",
            "nested_type_identifier",
            "generic_type",
            "object_type",
        ):
            return None
        site = self.type_site(head, scope) if head.type == "generic_type" else None
        found = self.tdesc(head, scope)
        return (found, -1, False, site) if found is not None else None

    def literal_name(self, node: Node, quoted: bool = False) -> str | None:
        """The identifier a string literal type (``"key"``, or backquoted without substitutions)
        spells, else None; ``quoted``: also a quoted member name that is no identifier
        (``"~standard"``)."""
        if node.type == "template_literal_type":
            frags = node.named_children
        else:
            inner = node.named_children[0] if node.type == "literal_type" and node.named_children else None
            frags = inner.named_children if inner is not None and inner.type == "string" else []
        if len(frags) != 1 or frags[0].type != "string_fragment":
            return None
        text = self.text(frags[0])
        if is_ident(text) or (quoted and member_step(text) is not None and QUOTED_NAME.fullmatch(text)):
            return text
        return None


_SCOPE_CUTS = FUNCTIONS | FUNCTION_VALUES | {"class_declaration", "class", "method_definition"}
_DECLARATORS = {"variable_declarator", "function_declaration", "class_declaration", "catch_clause"}


def _calls_package(call: Node, scope: Scope) -> bool:
    """Whether a call's callee is read off a name imported from a package (``createStore(…)``,
    ``React.useMemo(…)``), judged by that name's import alone."""
    callee = call.child_by_field_name("function") or call.child_by_field_name("constructor")
    while callee is not None and callee.type == "member_expression":
        callee = callee.child_by_field_name("object")
    if callee is None or callee.type != "identifier":
        return False
    binding = scope.lookup((callee.text or b"").decode())
    return (
        binding is not None and binding.chain is not None and package_import(binding.chain.partition("|")[0])
    )


def _block_return(block: Node, text: Callable[[Node], str]) -> tuple[Node | None, set[str]]:
    """The value of a function body's one ``return``, its last statement (None when it has other
    returns or none), and the names the body declares (any pattern or declaration in it)."""
    statements = [c for c in named_nodes(block) if c.type != "comment"]
    last = statements[-1] if statements else None
    if last is None or last.type != "return_statement" or not named_nodes(last):
        return None, set()
    declared: set[str] = set()
    returns = 0
    pending = list(named_nodes(block))
    while pending:
        node = pending.pop()
        if node.type == "return_statement":
            returns += 1
        if node.type in _DECLARATORS or node.type == "for_in_statement":
            declared.update(text(n) for n in _pattern_names(node))
        if node.type not in _SCOPE_CUTS:
            pending.extend(named_nodes(node))
    return (unparenthesized(named_nodes(last)[0]) if returns == 1 else None), declared


def _pattern_names(node: Node) -> list[Node]:
    """The identifiers a declaration binds (its name or the names of its pattern)."""
    target = node.child_by_field_name("name") or node.child_by_field_name("left")
    if node.type == "catch_clause":
        target = node.child_by_field_name("parameter")
    out: list[Node] = []
    pending = [target] if target is not None else []
    while pending:
        part = pending.pop()
        if part.type in ("identifier", "shorthand_property_identifier_pattern"):
            out.append(part)
        elif part.type not in ("property_identifier",):
            pending.extend(named_nodes(part))
    return out


def _reads_any(node: Node, names: set[str], text: Callable[[Node], str]) -> bool:
    """Whether an expression reads one of ``names`` (an identifier anywhere in it)."""
    if not names:
        return False
    pending = [node]
    while pending:
        part = pending.pop()
        if part.type == "identifier" and text(part) in names:
            return True
        pending.extend(named_nodes(part))
    return False


def _empty_literal(node: Node) -> bool:
    """``[]`` or ``{}`` (in parentheses too)."""
    inner = unparenthesized(node)
    return inner is not None and inner.type in ("array", "object") and not named_nodes(inner)


def _holds_this(node: Node) -> bool:
    """``this``, or an intersection with ``this`` among its parts."""
    if node.type == "this_type":
        return True
    return node.type == "intersection_type" and any(_holds_this(part) for part in named_nodes(node))


def _mapped_over_keys(node: Node) -> tuple[Node, Node, Node | None] | None:
    """``(k, T, V)`` of a mapped object type ``{ [k in keyof T]: V }``, else None."""
    members = named_nodes(node)
    if len(members) != 1 or members[0].type != "index_signature":
        return None
    clause = next((c for c in members[0].named_children if c.type == "mapped_type_clause"), None)
    name = clause.child_by_field_name("name") if clause is not None else None
    keys = clause.child_by_field_name("type") if clause is not None else None
    source = named_nodes(keys) if keys is not None and keys.type == "index_type_query" else []
    if name is None or len(source) != 1:
        return None
    return name, source[0], members[0].child_by_field_name("type")


def non_null_operand(node: Node) -> Node:
    """What a ``!`` applies to: tree-sitter reads ``a && b!.c`` as ``(a && b)!.c`` (a binary
    expression under the ``!`` is never parenthesized there); TypeScript, as ``a && (b!.c)``."""
    while node.type == "binary_expression":
        right = node.child_by_field_name("right")
        if right is None:
            break
        node = right
    return node


def spread_tuple(node: Node | None) -> Node | None:
    """The type parameter T of ``[...T]`` (also ``readonly [...T]``, ``NoInfer<[...T]>``)."""
    while node is not None:
        if node.type in ("type_annotation", "readonly_type", "parenthesized_type") and named_nodes(node):
            node = named_nodes(node)[0]
        elif node.type == "generic_type":
            node = no_infer(node)
        elif node.type == "tuple_type":
            parts = named_nodes(node)
            if len(parts) != 1 or parts[0].type != "rest_type" or not named_nodes(parts[0]):
                return None
            inner = named_nodes(parts[0])[0]
            return inner if inner.type == "type_identifier" else None
        else:
            return None
    return None


def _element(found: Desc) -> Desc:
    """A container's element type: a function type written out (``Set<() => void>``) has no chain
    of its own, which would leave the container with none; its values are Functions."""
    return ("k", f"{GLOBAL}Function") if found is not None and found[0] == "f" else found
