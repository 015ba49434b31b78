"""Occurrences: identifiers, member accesses, type references, doc links and JSX names become reference rows."""

from __future__ import annotations

import re
from abc import abstractmethod

from tree_sitter import Node, Point

from astmcp.resolve.templates import TEMPLATE_NAME, template_target
from astmcp.resolve.ts_descriptors import PRIMITIVE_NAMES, Descriptors
from astmcp.resolve.ts_fact_state import (
    ANYTHING,
    MEMBER_NAMES,
    QUOTED_NAME,
    is_ident,
    member_property,
    member_step,
    named_nodes,
    unparenthesized,
)
from astmcp.resolve.ts_reach import reexported_module
from astmcp.resolve.ts_scopes import NAMESPACE, UNTYPED_KEY, Binding, Desc, Scope

_DOC_LINK = re.compile(
    rb"(?:\{@link(?:code|plain)?\s+|@throws\s+\{)(?P<head>[A-Za-z_$][\w$]*)(?:\.(?P<member>[A-Za-z_$][\w$]*))?"
)
_KEY = ("k", UNTYPED_KEY)
_ASSERTIONS = frozenset({"as_expression", "satisfies_expression"})
_DEFAULTING = {"??=", "||=", "&&="}  # assignments that store the right side as it is
_EXPORTS = ("module.exports", "exports", "exports=module.exports")  # a CommonJS module's exports
_WORD = re.compile(rb"[A-Za-z_$][\w$]*")
_CAMEL = re.compile(rb"[a-z0-9][A-Z]")
_MAX_STRING = 20_000
_MODULE_CALLS = frozenset({"require", "import"})
# Inert string sinks (``inert_sink``): where a string's value is only shown, or compared with what
# ``typeof`` gives, so it cannot name a symbol. Test-runner calls whose first argument is a title:
_TEST_CALLS = frozenset({"describe", "it", "test", "suite", "bench", "context"})
_TEST_MODIFIERS = frozenset(
    {"skip", "only", "todo", "concurrent", "sequential", "fails", "each", "skipIf", "runIf", "for"}
)
_TEST_TABLES = frozenset({"each", "skipIf", "runIf", "for"})  # called before the title: `test.each(t)(title)`
_TEST_RUNNERS = frozenset(
    {"vitest", "@jest/globals", "jest", "mocha", "node:test", "bun:test", "@playwright/test", "uvu", "ava"}
)
# builtin error classes -> the index of their message argument (`new AggregateError(errors, msg)`)
_ERRORS = {
    "Error": 0, "TypeError": 0, "RangeError": 0, "SyntaxError": 0, "ReferenceError": 0,
    "EvalError": 0, "URIError": 0, "AggregateError": 1,
}  # fmt: skip
_CONSOLE = frozenset({"log", "info", "warn", "error", "debug", "trace"})
_EQUALITY = frozenset({"===", "!==", "==", "!="})
# what an inert sink needs of the name its callee starts with, once every declaration is known
_GLOBAL = "global"  # unbound: the builtin (`Error`, `console`)
_RUNNER = "runner"  # unbound, or imported from a test runner (`import { test } from "vitest"`)
_IMPORTED = "imported"  # imported from a test runner (`import { describe as group } from "vitest"`)
# the global objects' methods whose `(obj, "key", …)` arguments name a member of obj
_REFLECTORS = {
    "Reflect": frozenset(
        {"get", "has", "set", "deleteProperty", "defineProperty", "getOwnPropertyDescriptor"}
    ),
    "Object": frozenset({"defineProperty", "hasOwn", "getOwnPropertyDescriptor"}),
}


def _code_word(raw: bytes, word: bytes, at: int) -> bool:
    """Whether a word inside a longer string reads as code: an identifier spelled as only code
    spells it (``snake_case``, ``camelCase``, ``$x``) or accessed as a member (``x.word``)."""
    inner = word.strip(b"_$")
    if b"_" in inner or b"$" in inner or _CAMEL.search(word) or word.startswith(b"$"):
        return True
    return (
        at >= 2
        and raw[at - 1 : at] == b"."
        and (raw[at - 2 : at - 1].isalnum() or raw[at - 2 : at - 1] in b"_)]")
    )


def _is_typeof(node: Node | None) -> bool:
    """``typeof x`` (in parentheses or not): its value is one of a few fixed type names."""
    while node is not None and node.type == "parenthesized_expression" and node.named_children:
        node = node.named_children[0]
    if node is None or node.type != "unary_expression":
        return False
    operator = node.child_by_field_name("operator")
    return operator is not None and operator.type == "typeof"


def _bound_as(binding: Binding | None, need: str) -> bool:
    """Whether a callee's leading name is bound as an inert sink needs: unbound (a global), and
    for a test runner imported from one (``I:test:vitest``, ``I:default:ava``)."""
    if binding is None:
        return need != _IMPORTED
    if need == _GLOBAL or binding.chain is None or not binding.chain.startswith("I:"):
        return False
    imported, _, specifier = binding.chain[2:].partition(":")
    return specifier in _TEST_RUNNERS and (imported in _TEST_CALLS or imported == "default")


# attributes React reads itself, never a component's props
_JSX_RESERVED = frozenset({"key", "ref"})


class Occurrences(Descriptors):
    # In a later layer (functions), reached from here.
    @abstractmethod
    def expect_objects(self, node: Node, typed: Desc) -> None: ...

    # -- occurrences -----------------------------------------------------------
    def expr(self, node: Node, scope: Scope, kind: str) -> None:
        """Visit an expression whose own occurrence is a ``kind`` (call, write)."""
        kind_of = node.type
        if kind_of == "identifier":
            self.row(node, kind, ("n", scope, self.text(node)))
        elif kind_of == "member_expression":
            self.member_expression(node, scope, kind)
        elif kind_of in ("parenthesized_expression", "non_null_expression") and node.named_children:
            self.expr(node.named_children[0], scope, kind)
        else:
            self.visit(node, scope)

    def identifier(self, node: Node, scope: Scope) -> None:
        name = self.text(node)
        found = scope.lookup(name)
        if found is None or found.chain is not None:  # a local seen already is dropped now
            self.row(node, "read", ("n", scope, name), name=name)

    def type_identifier(self, node: Node, scope: Scope) -> None:
        name = self.text(node)
        if name in PRIMITIVE_NAMES:
            return  # `ZodMiniBigInt<bigint>`: the primitive type, whatever value is named so
        found = scope.lookup_type(name)
        if found is None or found.chain is not None:
            self.row(node, self.type_kind, ("n", scope, name, True), name=name)

    def shorthand(self, node: Node, scope: Scope) -> None:
        self.row(node, "read", ("n", scope, self.text(node)))
        self.row(node, "attribute", _KEY, name=self.text(node))  # the property: a name hit

    def member_expression(self, node: Node, scope: Scope, kind: str = "read") -> None:
        obj = node.child_by_field_name("object")
        prop = member_property(node)
        if obj is not None:
            self.expr(obj, scope, "read")
        if prop is None or prop.type not in MEMBER_NAMES:
            return
        asserted = obj.named_children[-1] if obj is not None and obj.type in _ASSERTIONS else None
        if asserted is not None and asserted.type in ("nested_type_identifier", "type_identifier"):
            # tree-sitter reads `x as a.b.T` as `(x as a.b).T`; TypeScript, as the type `a.b.T`
            self.row(prop, "type", self.tdesc(asserted, scope), member=True)
            return
        member_kind = "attribute" if kind == "read" else kind
        spec = self.dynamic_import(obj) if obj is not None and obj.type == "call_expression" else None
        if spec is not None and self.text(prop) not in ("then", "catch", "finally"):
            # `import("./a").Foo`: an import type naming the module's export
            self.row(prop, "type", ("k", f"I::{spec}"), member=True)
            return
        spec = self.required(obj, scope) if obj is not None and obj.type == "call_expression" else None
        if spec is not None:  # `require("./a").helper`: the module's export
            self.row(prop, member_kind, ("k", f"I::{spec}"), member=True)
            return
        receiver = self.desc(obj, scope)
        if (
            receiver is None
            and obj is not None
            and (unparenthesized(obj) or obj).type in (*_ASSERTIONS, "type_assertion")
        ):
            # `(e as NodeJS.ErrnoException).code`: asserted to a type astmcp cannot read, an
            # outside one; its members are name hits, never `likely` ones of a project member
            receiver = ANYTHING
        self.row(prop, member_kind, receiver, member=True)

    def reassigned(self, name: Node, value: Node, scope: Scope, element: bool = False) -> None:
        """JS: ``active = makeWidget("x")`` after ``let active = new Route("/")`` (``element``: an
        element given to an array literal's variable, ``items.push(x)``, ``items[i] = x``).
        Nothing checks what a variable is given again, so it holds any of its values: a variable
        typed by its initializer is typed by the union of every value given it, unknown once one
        of them is (``("u", None)``: never a ``likely`` hit). TypeScript keeps the declared type."""
        binding = scope.lookup(self.text(name))
        if binding is None or binding.type_only:
            return
        chain = binding.chain
        key = chain[2:] if chain is not None and chain.startswith("P:") else None
        if chain is not None and key is None:
            return  # an import
        current = self.vtypes.get(key) if key is not None else binding.vtype
        if element and (current is None or current[0] != "y" or len(current) != 2):
            return  # no array literal's
        held = current[1] if element and current is not None else current
        if held is None or (held[0] == "u" and held[1] is None):
            return  # typed by nothing (a parameter, `let x;`), or no longer known
        given = self.desc(value, scope)
        if given == held:
            return
        parts = self.reassigned_parts.get((id(binding), element))
        if parts is None and given is not None:
            union = f"{self.key(name)}="  # (no literal's position key)
            parts = self.reassigned_parts[(id(binding), element)] = self.unions[union] = [held]
            held = ("k", f"U:{union}")
        if parts is None or given is None:
            held = ("u", None)
        elif given not in parts:
            parts.append(given)
        typed: Desc = ("y", held) if element else held
        if key is not None:
            self.vtypes[key] = typed
        binding.vtype = typed

    def assignment(self, node: Node, scope: Scope) -> None:
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        if left is not None and left.type in ("object_pattern", "array_pattern"):
            # `({ a, b: c } = x)`: writes of the names, member reads of what x is
            self.assigned_pattern(left, scope, self.desc(right, scope) if right is not None else None)
        elif left is not None:
            self.expr(left, scope, "write")
        if right is None:
            return
        if self.javascript and left is not None and left.type == "identifier":
            self.reassigned(left, right, scope)
        elif self.javascript and left is not None and left.type == "subscript_expression":
            held = left.child_by_field_name("object")
            if held is not None and held.type == "identifier":
                self.reassigned(held, right, scope, element=True)  # `items[i] = x`
        if (
            left is not None
            and left.type == "member_expression"
            and right.type == "call_expression"
            and node.type == "assignment_expression"
        ):  # `table.getRowModel = memo(…)`: the call's value is given as that member
            member = self.desc(left, scope)
            self.value_types[right.id] = ("m", member, "()") if member is not None else None
        if (
            left is not None
            and node.type == "assignment_expression"
            and self.text(left).replace(" ", "") in _EXPORTS
        ):
            # `module.exports = require("./a")`: a CommonJS barrel, as `export * from "./a"`
            self.stars.extend(reexported_module(right, self.raw))
        if (
            left is not None
            and left.type == "member_expression"
            and (
                node.type == "assignment_expression"
                or self.text(node.child_by_field_name("operator") or node) in _DEFAULTING
            )
            and right.type in ("arrow_function", "function_expression")
        ):
            # `x.handler = (a) => …` (or `??=`): the function value is typed by the member's declared type
            target = self.desc(left, scope)
            self.callback = (target, -1, False, None) if target is not None else None
            exports = ("k", f"I::{self.self_spec}")
            if (
                right.type == "function_expression"
                and self.desc(left.child_by_field_name("object"), scope) == exports
            ):
                # `exports.render = function () { return this.fmt(1) }`: called as the module's
                # member, `this` is its exports
                self.assigned_this = exports
        elif (
            left is not None
            and left.type in ("member_expression", "subscript_expression", "identifier")
            and (
                node.type == "assignment_expression"
                or self.text(node.child_by_field_name("operator") or node) in _DEFAULTING
            )
        ):
            # `this.def = { values: [] }`, `xs[i] = {…}`, `o["k"] = {…}`, `node = {…}` after `let node:
            # RouteNode`, `cache[k] ||= {…}`: the literals are of the declared type
            target = self.desc(left, scope)
            if target is not None:
                self.expect_objects(right, target)
        self.visit(right, scope)
        self.callback = None

    def quoted_text(self, key: Node) -> tuple[Node, str] | None:
        """A pattern key that is a plain quoted string, computed or not (``"accept"``,
        ``["accept"]``): its fragment and text."""
        quoted = key.named_children[0] if key.type == "computed_property_name" and key.named_children else key
        text = self.quoted_key(quoted) if quoted.type == "string" else None
        return (quoted.named_children[0], text) if text is not None else None

    def key_read(self, key: Node, scope: Scope, typed: Desc, member: bool) -> str | None:
        """A pattern's quoted or computed key (``{ "accept": a }``, ``{ ["accept"]: a }``): a read of
        the member its text names (edited inside the quotes), and the step to it; None for any other
        computed key, which may be any member (a string hit, or code walked)."""
        found = self.quoted_text(key)
        if found is not None:
            self.row(found[0], "attribute", typed, member=member, name=found[1])
            return member_step(found[1])
        quoted = key.named_children[0] if key.type == "computed_property_name" and key.named_children else key
        if quoted.type == "string":
            self.string_hit(quoted)
        else:
            self.visit(key, scope)
        return None

    def quoted_key(self, key: Node) -> str | None:
        """The text of a quoted key that is one plain fragment (``"~run"``, ``"data-id"``)."""
        parts = key.named_children
        if len(parts) != 1 or parts[0].type != "string_fragment":
            return None
        text = self.text(parts[0])
        return text if member_step(text) is not None else None

    def assigned_pattern(self, node: Node, scope: Scope, source: Desc) -> None:
        """A destructuring assignment's pattern (no declaration): each key is a member read of
        ``source`` (a name hit when it cannot be typed), each target a write."""
        kind = node.type
        if kind == "shorthand_property_identifier_pattern":
            self.row(node, "write", ("n", scope, self.text(node)))
            self.row(node, "attribute", source if source is not None else _KEY, member=source is not None)
        elif kind == "pair_pattern":
            key = node.child_by_field_name("key")
            value = node.child_by_field_name("value")
            named = key is not None and key.type in MEMBER_NAMES
            step = self.text(key) if key is not None and named else None
            if key is not None and named:
                self.row(key, "attribute", source if source is not None else _KEY, member=source is not None)
            elif key is not None:
                # `({ "accept": a } = h)`, `({ ["accept"]: a } = h)`: the member the text names
                step = self.key_read(key, scope, source if source is not None else _KEY, source is not None)
            if value is not None:
                inner = ("m", source, step) if source is not None and step is not None else None
                self.assigned_pattern(value, scope, inner)
        elif kind in ("object_assignment_pattern", "assignment_pattern"):
            left = node.child_by_field_name("left") or (
                node.named_children[0] if node.named_children else None
            )
            right = node.child_by_field_name("right")
            if left is not None:
                self.assigned_pattern(left, scope, source)
            if right is not None:
                self.visit(right, scope)
        elif kind == "object_pattern":
            for child in node.named_children:
                self.assigned_pattern(child, scope, source)
        elif kind == "array_pattern":
            index = 0
            for child in node.children:
                if child.type == ",":
                    index += 1
                elif child.is_named:
                    part = (
                        ("m", source, f"#{index}")
                        if source is not None and child.type != "rest_pattern"
                        else None
                    )
                    self.assigned_pattern(child, scope, part)
        elif kind == "rest_pattern":
            for child in node.named_children:
                self.assigned_pattern(child, scope, None)
        else:  # an identifier, `obj.prop`, `xs[i]`: written
            self.expr(node, scope, "write")

    def update(self, node: Node, scope: Scope) -> None:
        arg = node.child_by_field_name("argument")
        if arg is not None:
            self.expr(arg, scope, "write")

    def subscript(self, node: Node, scope: Scope) -> None:
        obj = node.child_by_field_name("object")
        index = node.child_by_field_name("index")
        if obj is not None:
            self.expr(obj, scope, "read")
        if index is None:
            return
        if obj is not None and self.member_string(index, obj, scope):
            pass  # `obj["key"]` reads member `key` as `obj.key` does
        elif obj is not None and self.member_choice(index, obj, scope):
            pass  # `rect[horizontal ? "width" : "height"]` reads one of them
        elif index.type == "string":
            self.string_hit(index)
        else:
            made = index
            if index.type == "identifier":  # `const m = "on" + evt; this[m]()`
                made = next(iter(self.const_values(self.text(index))), index)
            if made.type == "template_string":
                self.computed_member(made, index)
            elif made.type in ("binary_expression", "call_expression"):
                self.concatenated_member(made, index)
            self.visit(index, scope)

    def const_values(self, name: str) -> list[Node]:
        """The initializers of the file's ``const`` declarations of ``name`` (by name, in any
        scope: what a made member name or its literal part may be), and of its classes' static
        fields (``H.P``)."""
        if self._consts is None:
            self._consts = {}
            stack = [self.src.tree.root_node]
            while stack:
                node = stack.pop()
                stack.extend(node.named_children)
                if node.type != "lexical_declaration" or (node.child(0) or node).type != "const":
                    continue
                for declarator in node.named_children:
                    key = declarator.child_by_field_name("name")
                    value = declarator.child_by_field_name("value")
                    if declarator.type == "variable_declarator" and key is not None and value is not None:
                        self._consts.setdefault(self.text(key), []).append(value)
            for field in _static_strings(self.src.tree.root_node):
                self._consts.setdefault(field[0], []).append(field[1])
        return self._consts.get(name, [])

    def computed_member(self, index: Node, at: Node | None = None) -> None:
        """``this[`visit${node.kind}`]``: a member reached by a name made at run time, stored as one
        name hit for every symbol whose name fits (resolve/templates.py; the mode ``c`` when the
        made part is a class's name, ``x.constructor.name``)."""
        parts = index.named_children
        fields = [p for p in parts if p.type == "template_substitution"]
        if len(fields) != 1 or not parts:
            return
        prefix = self.text(parts[0]) if parts[0].type == "string_fragment" else ""
        suffix = self.text(parts[-1]) if len(parts) > 1 and parts[-1].type == "string_fragment" else ""
        made = fields[0].named_children[0] if fields[0].named_children else None
        fold = self.class_name_fold(made) if made is not None else None
        target = template_target(prefix, suffix, fold is not None, fold or "")
        if target is None:
            return
        self.made_name(at if at is not None else parts[0] if prefix else index, target)

    def class_name_fold(self, made: Node) -> str | None:
        """How a made part spells a class's name: ``x.constructor.name`` as it is (""), with
        ``.toLowerCase()`` (``l``) or ``.toUpperCase()`` (``u``) after; None when it is no class's
        name."""
        fold = ""
        function = made.child_by_field_name("function") if made.type == "call_expression" else None
        arguments = made.child_by_field_name("arguments")
        if function is not None and function.type == "member_expression" and arguments is not None:
            method = self.text(function.child_by_field_name("property") or function)
            if method not in ("toLowerCase", "toUpperCase") or arguments.named_children:
                return None
            fold = "l" if method == "toLowerCase" else "u"
            made = function.child_by_field_name("object") or made
        if made.type == "member_expression" and self.text(made).endswith(".constructor.name"):
            return fold
        return None

    def made_name(self, at: Node, target: str) -> None:
        """One name hit standing for every member a made name fits (resolve/templates.py)."""
        self.pending.append(
            (TEMPLATE_NAME, at.start_point, at.end_point, "string", ("k", target), self.owner, False)
        )

    def concatenated_member(self, index: Node, at: Node | None = None) -> None:
        """``this["handle" + kind]()``, ``rules[kind + "Rule"]``: a member name made by ``+`` of
        string literals and other values, stored as :meth:`computed_member` stores a template's."""
        parts: list[Node] = []
        pending = [index]
        while pending:
            part = pending.pop()
            operator = part.child_by_field_name("operator")
            if part.type == "binary_expression" and operator is not None and self.text(operator) == "+":
                pending += [
                    c for c in (part.child_by_field_name("right"), part.child_by_field_name("left")) if c
                ]
            elif (joined := _joined_parts(part)) is not None:
                pending += reversed(joined)  # `"on".concat(evt)`, `["on", evt].join("")`
            else:
                parts.append(part)
        if len(parts) < 2 or all(p.type == "string" for p in parts):
            return
        prefix = self.literal(parts[0])
        suffix = self.literal(parts[-1])
        made = [p for p in parts if not self.literal(p)]
        fold = self.class_name_fold(made[0]) if len(made) == 1 else None
        target = template_target(prefix, suffix, fold is not None, fold or "")
        if target is not None:
            self.made_name(at if at is not None else parts[0] if prefix else index, target)

    def literal(self, node: Node) -> str:
        """The text of a plain string literal (``"handle"``), also through a ``const`` of one
        (``const PREFIX = "on"``), else ""."""
        if node.type == "identifier":
            values = self.const_values(self.text(node))
            return self.literal(values[0]) if len(values) == 1 and values[0].type == "string" else ""
        if node.type == "member_expression":  # `H.P` of `class H { static P = "on" }`
            values = self.const_values(self.text(node))
            return self.literal(values[0]) if len(values) == 1 and values[0].type == "string" else ""
        if node.type != "string":
            return ""
        fragments = [c for c in node.named_children if c.type == "string_fragment"]
        return self.text(fragments[0]) if len(fragments) == 1 and len(node.named_children) == 1 else ""

    def string_literal(self, node: Node, scope: Scope) -> None:
        """SPEC names in strings: a string that is one identifier is a name hit of it; in a longer
        one (prose, code in a template) the words only code would spell (``snake_case``,
        ``camelCase``, ``x.member``). Module specifiers and paths are not names."""
        parent = node.parent
        if parent is not None and node in (
            parent.child_by_field_name("name"),
            parent.child_by_field_name("key"),
        ):
            return  # a quoted member/key name is a declaration, not a string
        given = self.argument_strings.pop(node.id, None)
        owner = self.key_strings.pop(node.id, None)
        if owner is not None:  # `keys: (keyof T)[] = ["runId"]`: T's member
            fragment = node.named_children[0]
            self.row(fragment, "attribute", ("o", owner), name=self.text(fragment))
            return
        if parent is not None and parent.type == "arguments":
            call = parent.parent
            callee = call.child_by_field_name("function") if call is not None else None
            if callee is not None and (callee.type == "import" or self.text(callee) in _MODULE_CALLS):
                return
            obj = (
                self.reflected(node, call, callee, scope) if call is not None and callee is not None else None
            )
            if obj is not None and self.member_string(node, obj, scope, probe=True):
                return
        if (
            parent is not None
            and parent.type == "binary_expression"
            and node == parent.child_by_field_name("left")
            and self.text(parent.child_by_field_name("operator") or node) == "in"
        ):
            right = parent.child_by_field_name("right")
            if right is not None and self.member_string(node, right, scope, probe=True):
                return  # `"key" in obj` tests member `key` as `obj["key"]` reads it
        sink = self.inert_sink(node)
        if sink is not None:
            for child in node.named_children:  # `${…}` in a title or message is still code
                if child.type == "template_substitution":
                    self.visit(child, scope)
            if sink:  # judged once every declaration is known (`settle_sinks`)
                self.sinks.append((node, scope, sink[0], sink[1], self.owner))
                if given is not None:
                    self.argument_strings[node.id] = given
            return
        self.string_text(node, scope, True, given)

    def string_text(self, node: Node, scope: Scope, code: bool, given: Desc = None) -> None:
        """The name hits of a string's text (``code``: and visits its ``${…}`` substitutions).
        ``given``: the callee's parameter a string argument is given for (a ``keyof T`` there makes
        it T's member, judged by the linker: step ``=``)."""
        parts = node.named_children
        fragments = [c for c in parts if c.type == "string_fragment"]
        if len(parts) == 1 and fragments:
            text = self.text(fragments[0])
            if is_ident(text) or QUOTED_NAME.fullmatch(text):  # `"~validate"`: a quoted member name
                self.row(fragments[0], "string", ("=", given) if given is not None else None, name=text)
                return
        scan = node.end_byte - node.start_byte <= _MAX_STRING  # not an embedded bundle or data blob
        for child in parts:
            if child.type == "template_substitution":
                if code:
                    self.visit(child, scope)
            elif child.type == "string_fragment" and scan:
                self.string_words(child)

    # -- inert string sinks ----------------------------------------------------
    # strings whose sink depends on a binding: (node, scope, leading name, need, owner)
    sinks: list[tuple[Node, Scope, str, str, str | None]]

    def run(self) -> None:
        self.sinks = []
        super().run()
        self.settle_sinks()

    def inert_sink(self, node: Node) -> tuple[str, str] | tuple[()] | None:
        """Whether a string (or template) literal sits where its value cannot name a symbol:
        ``()`` always (compared with ``typeof x``: `===`/`!==`/`==`/`!=`, or a ``case`` of
        ``switch (typeof x)``), ``(name, need)`` when the callee's leading ``name`` is bound as
        ``need`` says (``_GLOBAL``, ``_RUNNER``), None elsewhere. The callee sinks: the title (first
        argument) of a test-runner call (``describe``/``it``/``test``/``suite``/``bench``/``context``
        with modifiers: ``test.skip(…)``, ``test.each(t)(…)``, ``describe.skipIf(c)(…)``); the
        message of a builtin error (``new Error(…)``, ``TypeError(…)``); an argument of
        ``console.log``/``info``/``warn``/``error``/``debug``/``trace``; the description or
        registry key of a symbol (``Symbol(…)``, ``Symbol.for(…)``). A string joined into one
        with ``+`` is where the whole is. Assertion matchers and other comparisons are no sinks:
        what they compare with may be spelled from a name (``Object.keys(o)``)."""
        parent = node.parent
        if parent is None:
            return None
        if parent.type == "binary_expression":
            operator = parent.child_by_field_name("operator")
            if operator is not None and self.text(operator) in _EQUALITY:
                sides = [parent.child_by_field_name("left"), parent.child_by_field_name("right")]
                if any(side is not None and side != node and _is_typeof(side) for side in sides):
                    return ()
        if parent.type == "switch_case" and node == parent.child_by_field_name("value"):
            switch = parent.parent.parent if parent.parent is not None else None
            if switch is not None and _is_typeof(switch.child_by_field_name("value")):
                return ()
        arg = node
        while arg.parent is not None and (
            arg.parent.type == "parenthesized_expression"
            or (
                arg.parent.type == "binary_expression"
                and self.text(arg.parent.child_by_field_name("operator") or arg.parent) == "+"
            )
        ):
            arg = arg.parent
        holder = arg.parent
        call = holder.parent if holder is not None and holder.type == "arguments" else None
        if holder is None or call is None or call.type not in ("call_expression", "new_expression"):
            return None
        index = named_nodes(holder).index(arg)
        callee = call.child_by_field_name("function" if call.type == "call_expression" else "constructor")
        if callee is None:
            return None
        if callee.type == "identifier" and _ERRORS.get(self.text(callee)) == index:
            return (self.text(callee), _GLOBAL)
        if callee.type == "identifier" and self.text(callee) == "Symbol" and index == 0:
            return ("Symbol", _GLOBAL)  # `Symbol("desc")`: a symbol's description
        if callee.type == "member_expression":
            obj, prop = callee.child_by_field_name("object"), member_property(callee)
            head = self.text(obj) if obj is not None and obj.type == "identifier" else ""
            method = self.text(prop) if prop is not None else ""
            if head == "console" and method in _CONSOLE:
                return ("console", _GLOBAL)
            if head == "Symbol" and method == "for" and index == 0:
                # `Symbol.for("app.key")`: a key of the symbol registry, which holds symbols, never
                # properties or bindings named by strings
                return ("Symbol", _GLOBAL)
        root = self.test_callee(callee) if index == 0 and call.type == "call_expression" else None
        if root is None:
            return None
        return (root, _RUNNER if root in _TEST_CALLS else _IMPORTED)

    def test_callee(self, callee: Node) -> str | None:
        """The leading name of what may be a test-runner callee (``test``, ``it.only``,
        ``test.each(t)``, ``describe.skipIf(c)``, ``test.concurrent.each(t)``; ``group.skip`` for
        an import renamed ``group``), None for any other callee."""
        names: list[str] = []
        node: Node | None = callee
        while node is not None and node.type != "identifier":
            if node.type == "call_expression":  # `test.each(table)(title, …)`
                node = node.child_by_field_name("function")
                prop = member_property(node) if node is not None else None
                if node is None or node.type != "member_expression" or prop is None:
                    return None
                if self.text(prop) not in _TEST_TABLES:
                    return None
            elif node.type == "member_expression":
                prop = member_property(node)
                if prop is None or prop.type != "property_identifier":
                    return None
                names.append(self.text(prop))
                node = node.child_by_field_name("object")
            else:
                return None
        if node is None:
            return None
        if any(name not in _TEST_MODIFIERS and name not in _TEST_CALLS for name in names):
            return None
        return self.text(node)

    def settle_sinks(self) -> None:
        """After the walk (every declaration hoisted): a sink whose leading name is bound in the
        project (``function test(name) {…}``, ``class Error``) is no sink, and its string's text
        gives the name hits any string does."""
        for node, scope, name, need, owner in self.sinks:
            if not _bound_as(scope.lookup(name), need):
                self.owner = owner
                self.string_text(node, scope, False, self.argument_strings.pop(node.id, None))
        self.owner = None

    def member_string(self, string: Node, obj: Node, scope: Scope, probe: bool = False) -> bool:
        """A string naming a member of ``obj`` (``obj["key"]``, ``"key" in obj``, ``Reflect.get(obj,
        "key")``): member ``key`` as ``obj.key`` reads it (any text: ``x["~run"]``), a name hit when
        ``obj`` cannot be typed. A ``probe`` (any key is allowed there, unlike ``obj["key"]``) names a
        member of a project type only: on an outside type it may look for a project object's member,
        a name hit. False when the string is no single plain fragment."""
        key = string.named_children if string.type in ("string", "template_string") else []
        if len(key) != 1 or key[0].type != "string_fragment":
            return False  # (a backquoted key without substitutions is a plain one: x[`key`])
        if probe:
            self.probes.add(len(self.pending))
        self.row(key[0], "string", self.desc(obj, scope), member=True, name=self.text(key[0]))
        return True

    def picked_from(self, string: Node, scope: Scope) -> Node | None:
        """The type T whose members the string literal type names as a key of the library's
        ``Pick<T, "a" | "b">`` / ``Omit<T, "a">`` (its second type argument, a union of such
        literals); None elsewhere, or where the file binds its own ``Pick``/``Omit``."""
        found = _type_argument(string)
        if found is None:
            return None
        generic, index, parts = found
        head = generic.child_by_field_name("name")
        if head is None or self.text(head) not in ("Pick", "Omit") or scope.lookup_type(self.text(head)):
            return None
        return parts[0] if len(parts) == 2 and index == 1 else None

    def member_choice(self, index: Node, obj: Node, scope: Scope) -> bool:
        """``obj[c ? "width" : "height"]`` (nested conditionals too): each plain string names a
        member of ``obj`` as in ``obj["width"]``; the conditions are read. False when a branch is
        anything else."""
        choice = unparenthesized(index)
        if choice is None or choice.type != "ternary_expression":
            return False
        leaves: list[Node] = []
        tests: list[Node] = []
        pending: list[Node | None] = [choice]
        while pending:
            node = unparenthesized(pending.pop())
            if node is None:
                return False
            if node.type == "ternary_expression":
                test = node.child_by_field_name("condition")
                if test is not None:
                    tests.append(test)
                pending += [node.child_by_field_name(f) for f in ("consequence", "alternative")]
                continue
            key = node.named_children if node.type in ("string", "template_string") else []
            if len(key) != 1 or key[0].type != "string_fragment":
                return False
            leaves.append(node)
        for leaf in leaves:
            self.member_string(leaf, obj, scope)
        for test in tests:
            self.visit(test, scope)
        return True

    def reflected(self, string: Node, call: Node, callee: Node, scope: Scope) -> Node | None:
        """The object whose member a string argument names: ``Reflect.get|has|set|deleteProperty|
        defineProperty|getOwnPropertyDescriptor(obj, "key", …)``, ``Object.defineProperty|hasOwn|
        getOwnPropertyDescriptor(obj, "key", …)``, ``Object.prototype.hasOwnProperty.call(obj, "key")``
        (``Reflect``/``Object`` the globals) and ``obj.hasOwnProperty("key")``."""
        args = named_nodes(call.child_by_field_name("arguments"))
        if callee.type != "member_expression":
            return None
        head = callee.child_by_field_name("object")
        prop = member_property(callee)
        if head is None or prop is None:
            return None
        method = self.text(prop)
        if method == "hasOwnProperty" and args[:1] == [string]:
            return head
        if len(args) < 2 or args[1] != string:
            return None
        text = self.text(callee)
        owner = text.partition(".")[0]
        if owner not in _REFLECTORS or scope.lookup(owner) is not None:
            return None  # a local `Reflect`/`Object` may be anything
        if head.type == "identifier" and method in _REFLECTORS[owner]:
            return args[0]
        if text == "Object.prototype.hasOwnProperty.call":
            return args[0]
        return None

    def string_words(self, fragment: Node) -> None:
        raw = self.raw[fragment.start_byte : fragment.end_byte]
        if b"/" in raw and not any(c in raw for c in b" \t\n"):
            return  # a path or URL, not names
        for match in _WORD.finditer(raw):
            word = match.group()
            if _code_word(raw, word, match.start()):
                start = self.point(fragment, raw, match.start())
                stop = Point(start.row, start.column + len(word))
                name = word.decode("utf-8", errors="replace")
                self.pending.append((name, start, stop, "string", None, self.owner, False))

    def string_hit(self, node: Node) -> None:
        inner = node.named_children
        if len(inner) == 1 and inner[0].type == "string_fragment":
            text = self.text(inner[0])
            if is_ident(text):
                self.row(inner[0], "string", None, name=text)

    def template_literal_type(self, node: Node, scope: Scope) -> None:
        """A template literal type without substitutions (a backquoted ``supports``) is the string
        literal type ``"supports"``, in ``Pick<T, …>`` too; one with them reads the types inside."""
        if [c.type for c in node.named_children] == ["string_fragment"]:
            self.literal_string(node, scope)
        else:
            self.children(node, scope)

    def literal_type(self, node: Node, scope: Scope) -> None:
        for child in node.named_children:
            if child.type == "string":
                self.literal_string(child, scope)

    def literal_string(self, child: Node, scope: Scope) -> None:
        """A string literal type (``"a"``, or a template one without substitutions)."""
        picked = self.picked_from(child, scope)
        key = child.named_children
        if picked is not None and len(key) == 1 and key[0].type == "string_fragment":
            # `Pick<Options, "onChange" | "debug">`: members of Options, as `Options["onChange"]`
            base = self.tdesc(picked, scope)
            self.row(
                key[0],
                "string",
                ("i", base) if base is not None else None,
                member=True,
                name=self.text(key[0]),
            )
        elif (argued := self.type_argument_of(child, scope)) is not None and len(key) == 1:
            # `PartialKeys<Options, "state">` with `PartialKeys<T, K extends keyof T>`: the
            # constraint of that type parameter, the type arguments bound, names the member
            self.row(key[0], "string", ("=", argued), name=self.text(key[0]))
        else:
            self.string_hit(child)

    def type_argument_of(self, string: Node, scope: Scope) -> Desc:
        """``("g", generic, k, site)`` when the string literal type (or a union of such) is the k-th
        type argument of a generic type reference (``G<A, "a" | "b">``); None elsewhere."""
        found = _type_argument(string)
        if found is None or [c.type for c in string.named_children] != ["string_fragment"]:
            return None
        generic, index, _ = found
        named = self.tdesc(generic.child_by_field_name("name"), scope)
        return ("g", named, index, self.type_site(generic, scope)) if named is not None else None

    def lookup_type(self, node: Node, scope: Scope) -> None:
        """``X["key"]`` names X's member ``key`` (a name hit when X cannot be typed)."""
        parts = node.named_children
        key = self.literal_name(parts[1], quoted=True) if len(parts) == 2 else None
        if key is None:
            self.children(node, scope)
            return
        self.visit(parts[0], scope)
        base = self.tdesc(parts[0], scope)
        literal = parts[1] if parts[1].type == "template_literal_type" else parts[1].named_children[0]
        fragment = literal.named_children[0]
        self.row(fragment, "string", ("i", base) if base is not None else None, member=True, name=key)

    def nested_type(self, node: Node, scope: Scope) -> None:
        parts = self.qualifier(node, scope)
        if parts is not None:
            first, last = parts
            self.row(last, self.type_kind, self.tdesc(first, scope), member=True)

    def nested_identifier(self, node: Node, scope: Scope) -> None:
        """``a.b`` before a type name (``a.b.T``): ``b`` is a member of ``a``."""
        parts = self.qualifier(node, scope)
        if parts is not None and parts[1].type in MEMBER_NAMES:
            first, last = parts
            self.row(last, "read", self.tdesc(first, scope), member=True)

    def qualifier(self, node: Node, scope: Scope) -> tuple[Node, Node] | None:
        """``a.b.T``: visits the qualifier ``a.b`` (its head is read) and gives it with the last name."""
        parts = node.named_children
        if len(parts) < 2:
            return None
        first, last = parts[0], parts[-1]
        if first.type == "identifier":
            # a namespace (or an enum, a class merged with one): a type position sees no local
            # value of the name (`const middleware = new Set<middleware.Fn>()` reads the outer one)
            self.row(first, "read", ("n", scope, self.text(first), NAMESPACE))
        else:
            self.visit(first, scope)
        return first, last

    def labeled(self, node: Node, scope: Scope) -> None:
        for child in node.named_children:
            if child.type != "statement_identifier":
                self.visit(child, scope)

    def comment(self, node: Node, scope: Scope) -> None:
        """``{@link Name}`` / ``{@link Name.member}`` / ``@throws {Name}`` in doc comments."""
        raw = self.raw[node.start_byte : node.end_byte]
        if b"@link" not in raw and b"@throws" not in raw:
            return
        for match in _DOC_LINK.finditer(raw):
            head = match.start("head")
            name = match["head"].decode("utf-8", errors="replace")
            start = self.point(node, raw, head)
            stop = Point(start.row, start.column + len(match["head"]))
            kind = "type" if match.group(0).startswith(b"@throws") else "read"
            self.pending.append((name, start, stop, kind, ("n", scope, name), self.owner, False))
            if match["member"] is not None:
                at = self.point(node, raw, match.start("member"))
                member = match["member"].decode("utf-8", errors="replace")
                stop = Point(at.row, at.column + len(match["member"]))
                self.pending.append((member, at, stop, "read", ("n", scope, name), self.owner, True))

    @staticmethod
    def point(node: Node, raw: bytes, offset: int) -> Point:
        start = node.start_point
        newlines = raw.count(b"\n", 0, offset)
        if not newlines:
            return Point(start.row, start.column + offset)
        return Point(start.row + newlines, offset - raw.rindex(b"\n", 0, offset) - 1)

    # -- scopes ----------------------------------------------------------------
    def block(self, node: Node, scope: Scope) -> None:
        self.children(node, Scope(scope, False))

    def loop(self, node: Node, scope: Scope) -> None:
        self.children(node, Scope(scope, False))

    def signature_type(self, node: Node, scope: Scope) -> None:
        """A call or construct signature, or a function or constructor type, outside an interface:
        its type parameters are its own (`const TaggedError: { <Brand>(id: string): … }` leaves the
        module's `Brand` namespace import alone for the rest of the file)."""
        self.children(node, Scope(scope, False))

    def type_parameter(self, node: Node, scope: Scope) -> None:
        """A type parameter stands for ``T:<key>``: what a call site binds it to, else its
        constraint (at a call site that does not bind it, its default first)."""
        name = node.child_by_field_name("name")
        if name is not None:
            key = self.key(name)
            scope.names[self.text(name)] = Binding(None, ("k", f"T:{key}"))
            bound = named_nodes(node.child_by_field_name("constraint"))
            default = named_nodes(node.child_by_field_name("value"))
            self.tparams[key] = (
                self.tdesc(bound[0], scope) if bound else None,
                self.tdesc(default[0], scope) if default else None,
            )
        for child in node.named_children:
            if child != name:
                self.visit(child, scope)

    def mapped_type(self, node: Node, scope: Scope) -> None:
        name = node.child_by_field_name("name")
        if name is not None:
            scope.names[self.text(name)] = Binding(None)
        for child in node.named_children:
            if child != name:
                self.visit(child, scope)

    def conditional_type(self, node: Node, scope: Scope) -> None:
        """``A extends B ? C : D``: what B infers (``infer U``) is bound in B and C only; A and D
        read the names around (an outer ``U`` there is not the inferred one)."""
        inner = Scope(scope, False)
        outside = (node.child_by_field_name("left"), node.child_by_field_name("alternative"))
        for child in node.named_children:
            self.visit(child, scope if child in outside else inner)

    def infer_type(self, node: Node, scope: Scope) -> None:
        """``infer U`` binds U; a constraint after it (``infer U extends Router``) is a type read
        like any other, not a second name bound."""
        parts = node.named_children
        if parts and parts[0].type == "type_identifier":
            scope.names[self.text(parts[0])] = Binding(None)
        for child in parts[1:]:
            self.visit(child, scope)

    # -- JSX -------------------------------------------------------------------
    def jsx(self, node: Node, scope: Scope) -> None:
        name = node.child_by_field_name("name")
        for child in node.named_children:
            if child == name and name is not None:
                if name.type == "identifier":
                    text = self.text(name)
                    if text[:1].isupper():
                        self.row(name, "call", ("n", scope, text))
                elif name.type in ("member_expression", "nested_identifier"):
                    self.member_expression(name, scope, "call") if name.type == "member_expression" else None
            else:
                self.visit(child, scope)

    def jsx_attribute(self, node: Node, scope: Scope) -> None:
        """``<Button label="Save" />`` gives ``label`` of the component's props: the declared type
        of its first parameter (unknown for a class component, so a name hit, never nothing)."""
        parts = node.named_children
        element = node.parent
        tag = element.child_by_field_name("name") if element is not None else None
        if parts and parts[0].type == "property_identifier" and tag is not None:
            name = self.text(parts[0])
            component = tag.type == "member_expression" or (
                tag.type == "identifier" and self.text(tag)[:1].isupper()
            )
            if component and name not in _JSX_RESERVED:
                target = self.desc(tag, scope)
                if target is not None:
                    self.row(parts[0], "attribute", ("o", ("p", target, 0, False, None)))
        for child in parts[1:]:
            self.visit(child, scope)


def _type_argument(string: Node) -> tuple[Node, int, list[Node]] | None:
    """``(generic, k, type arguments)`` when the string literal type (alone or in a union of such)
    is the k-th type argument of a generic type reference (``G<A, "a" | "b">``)."""
    node = string if string.type == "template_literal_type" else string.parent
    if node is None or node.type not in ("literal_type", "template_literal_type"):
        return None
    while node.parent is not None and node.parent.type == "union_type":
        node = node.parent
    args = node.parent
    generic = args.parent if args is not None and args.type == "type_arguments" else None
    if generic is None or generic.type != "generic_type" or generic.child_by_field_name("name") is None:
        return None
    parts = named_nodes(args)
    return (generic, parts.index(node), parts) if node in parts else None


def _joined_parts(node: Node) -> list[Node] | None:
    """The parts a string method call joins: ``a.concat(b, c)`` (a, b, c) and ``[a, b].join("")``
    (a, b); None for any other node."""
    if node.type != "call_expression":
        return None
    function = node.child_by_field_name("function")
    args = node.child_by_field_name("arguments")
    if function is None or args is None or function.type != "member_expression":
        return None
    receiver = function.child_by_field_name("object")
    method = function.child_by_field_name("property")
    if receiver is None or method is None:
        return None
    if method.text == b"concat" and receiver.type != "array":
        return [receiver, *args.named_children]
    if (
        method.text == b"join"
        and receiver.type == "array"
        and [a.text for a in args.named_children] in ([b'""'], [b"''"])
    ):
        return list(receiver.named_children)
    return None


def _static_strings(root: Node) -> list[tuple[str, Node]]:
    """``("H.P", value)`` for each ``static P = "…"`` field of a class declared in the file."""
    found: list[tuple[str, Node]] = []
    stack = [root]
    while stack:
        node = stack.pop()
        stack.extend(node.named_children)
        if node.type not in ("class_declaration", "abstract_class_declaration"):
            continue
        name = node.child_by_field_name("name")
        body = node.child_by_field_name("body")
        if name is None or body is None:
            continue
        for member in body.named_children:
            label = member.child_by_field_name("name")
            value = member.child_by_field_name("value")
            static = any(c.type == "static" for c in member.children)
            if (
                member.type == "public_field_definition"
                and static
                and label is not None
                and value is not None
            ):
                found.append((f"{(name.text or b'').decode()}.{(label.text or b'').decode()}", value))
    return found
