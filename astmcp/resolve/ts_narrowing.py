"""Narrowing by discriminants: ``switch (x.code) { case "a": … }``, ``if (x.code === "a") … else …``,
``x.code === "a" && …``, ``x.code !== "a" ? … : …`` and an early ``if (x.code !== "a") return;``
(conditions may combine tests with ``!``, ``&&``, and ``||`` of one property's values)
narrow a union-typed local ``x`` to the alternatives whose ``code`` may (or, negated, may not only)
be ``"a"`` (chain step ``~code=a``; the linker keeps an alternative it cannot judge). Boolean
literals discriminate too: ``if (x.ok)`` tests ``ok`` for ``true``, ``x.ok === false`` for ``false``.
A name assigned in the narrowed region is not narrowed there."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from tree_sitter import Node

from astmcp.resolve.ts_classes import Classes
from astmcp.resolve.ts_descriptors import DISCRIMINANT
from astmcp.resolve.ts_fact_state import member_property, named_nodes, unparenthesized
from astmcp.resolve.ts_scopes import Desc, Scope

# (name, property, negated, values): `x.code === "a"` is ("x", "code", False, ("a",)); `x instanceof
# C` is ("x", INSTANCEOF, False, (<key of C's node in instance_tests>,))
Test = tuple[str, str, bool, tuple[str, ...]]
INSTANCEOF = " instanceof"  # no property name has a space
_EQUAL = {"===": False, "==": False, "!==": True, "!=": True}
_EXITS = {"return_statement", "throw_statement", "break_statement", "continue_statement"}
_WRITES = {"assignment_expression", "augmented_assignment_expression", "update_expression"}


class Narrowing(Classes):
    def desc(self, node: Node | None, scope: Scope) -> Desc:
        if self.narrowing and node is not None and node.type == "identifier":  # cheapest test first
            name = self.text(node)
            found = self.narrowing.get(name)
            if found is not None and scope.lookup(name) is found[0]:
                return found[1]
        return super().desc(node, scope)

    @contextmanager
    def narrowed(self, tests: list[Test], scope: Scope, region: list[Node]) -> Iterator[None]:
        """While visiting ``region``, the tested names are narrowed by their tests."""
        saved = dict(self.narrowing)
        by_name: dict[str, list[Test]] = {}
        for test in tests:
            by_name.setdefault(test[0], []).append(test)
        for name, own in by_name.items():
            if any(self.assigns(node, name) for node in region):
                continue
            current = self.current(name, scope)
            for test in own:
                if test[1] == INSTANCEOF:
                    current = self.instance_narrowed(current, self.instance_tests[test[3][0]], scope)
            clauses = tuple((prop, negated, values) for _, prop, negated, values in own if prop != INSTANCEOF)
            if current is not None:
                self.narrowing[name] = (scope.lookup(name), ("d", current, clauses) if clauses else current)
        try:
            yield
        finally:
            self.narrowing = saved

    def instance_narrowed(self, current: Desc, cls: Node, scope: Scope) -> Desc:
        """``x instanceof C`` where nothing types ``x`` (a catch clause's error, an ``unknown``
        or ``any`` parameter): ``x`` is a ``C`` there. A typed ``x`` is a C where C derives from
        its type (``schema: ZodTypeAny``, then ``schema instanceof ZodOptional``: the linker
        judges, chain step ``~^<key>``); else it is kept (TypeScript narrows it to its alternatives
        assignable to C, or ``x & C``). One tested against a global class is kept (``instanceof
        Error``: a project subclass's own members may be read)."""
        value = self.desc(cls, scope)
        if current is None or value is None:
            return current
        key = f"{cls.start_byte}:{cls.end_byte}"
        self.itests[key] = value
        return ("j", current, key, value)

    def current(self, name: str, scope: Scope) -> Desc:
        """What ``name`` stands for here (already narrowed, or its binding)."""
        binding = scope.lookup(name)
        if binding is None:
            return None
        found = self.narrowing.get(name)
        if found is not None and found[0] is binding:
            return found[1]
        return ("n", scope, name)

    def assigns(self, node: Node, name: str) -> bool:
        """``name`` is written somewhere in ``node``."""
        if node.type in _WRITES:
            target = node.child_by_field_name("left") or node.child_by_field_name("argument")
            if target is not None and target.type == "identifier" and self.text(target) == name:
                return True
        return any(self.assigns(child, name) for child in node.named_children)

    def tests(self, node: Node | None, negate: bool = False) -> list[Test] | None:
        """The discriminant tests a condition makes when it holds (``negate``: when it fails);
        None when it tells nothing usable. A conjunction's tests hold together; only a single
        test can be negated."""
        node = unparenthesized(node)
        if node is not None and node.type == "unary_expression":
            operator = node.child_by_field_name("operator")
            inner = node.child_by_field_name("argument")
            return (
                self.tests(inner, not negate) if operator is not None and self.text(operator) == "!" else None
            )
        if node is not None and node.type == "member_expression":  # `if (x.ok)`: x.ok is truthy
            truthy = self.tested_member(node)
            return [(truthy[0], truthy[1], negate, ("true",))] if truthy is not None else None
        if node is None or node.type != "binary_expression":
            return None
        operator = node.child_by_field_name("operator")
        op = self.text(operator) if operator is not None else ""
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if (op == "&&" and not negate) or (op == "||" and negate):  # every test holds (`!(a || b)`: !a, !b)
            found = [t for side in (left, right) for t in (self.tests(side, negate) or [])]
            return found or None
        if op == "||":  # `x.k === "a" || x.k === "b"`: x.k is one of them
            one, other = self.tests(left), self.tests(right)
            if not one or not other or len(one) != 1 or len(other) != 1:
                return None
            first, second = one[0], other[0]
            if first[2] or second[2] or first[:2] != second[:2] or first[1] == INSTANCEOF:
                return None
            return [(first[0], first[1], False, first[3] + second[3])]
        if op == "instanceof" and not negate and left is not None and right is not None:
            if left.type != "identifier" or right.type not in ("identifier", "member_expression"):
                return None
            key = f"{right.start_byte}:{right.end_byte}"
            self.instance_tests[key] = right
            return [(self.text(left), INSTANCEOF, False, (key,))]
        if op not in _EQUAL:
            return None
        member, value = (
            (left, self.literal_value(right))
            if self.literal_value(right)
            else (right, self.literal_value(left))
        )
        tested = self.tested_member(member) if member is not None and value is not None else None
        if tested is None or value is None:
            return None
        return [(tested[0], tested[1], _EQUAL[op] != negate, (value,))]

    def tested_member(self, member: Node) -> tuple[str, str] | None:
        """``x.code``: the tested name and property, else None."""
        if member.type != "member_expression":
            return None
        obj, prop = member.child_by_field_name("object"), member_property(member)
        if obj is None or prop is None or obj.type != "identifier" or prop.type != "property_identifier":
            return None
        return (self.text(obj), self.text(prop)) if DISCRIMINANT.fullmatch(self.text(prop)) else None

    # -- statements and expressions --------------------------------------------
    def if_statement(self, node: Node, scope: Scope) -> None:
        condition = node.child_by_field_name("condition")
        consequence = node.child_by_field_name("consequence")
        alternative = node.child_by_field_name("alternative")
        if condition is not None:
            self.visit(condition, scope)
        for branch, negate in ((consequence, False), (alternative, True)):
            if branch is None:
                continue
            found = self.tests(condition, negate)
            if found:
                with self.narrowed(found, scope, [branch]):
                    self.visit(branch, scope)
            else:
                self.visit(branch, scope)

    def binary_expression(self, node: Node, scope: Scope) -> None:
        """``x.code === "a" && x.origin``: the right operand sees the left one's tests."""
        operator = node.child_by_field_name("operator")
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is not None and left.type == "private_property_identifier" and self.this is not None:
            # `#count in other`: the brand check names the enclosing class's private member
            self.row(left, "attribute", self.this, member=True)
        found = self.tests(left) if operator is not None and self.text(operator) == "&&" else None
        for child in node.named_children:
            if child == right and found:
                with self.narrowed(found, scope, [child]):
                    self.visit(child, scope)
            else:
                self.visit(child, scope)

    def ternary_expression(self, node: Node, scope: Scope) -> None:
        condition = node.child_by_field_name("condition")
        branches = {
            node.child_by_field_name("consequence"): False,
            node.child_by_field_name("alternative"): True,
        }
        for child in node.named_children:
            negate = branches.get(child)
            found = self.tests(condition, negate) if negate is not None else None
            if found:
                with self.narrowed(found, scope, [child]):
                    self.visit(child, scope)
            else:
                self.visit(child, scope)

    def switch_statement(self, node: Node, scope: Scope) -> None:
        """``switch (x.code)``: a case's statements see x narrowed to the labels that reach them
        (the case's own and those falling through to it; none after ``default``)."""
        value = node.child_by_field_name("value")
        body = node.child_by_field_name("body")
        if value is not None:
            self.visit(value, scope)
        if body is None:
            return
        subject = self.tests_subject(value)
        inner = Scope(scope, False)  # the switch body is one block
        labels: list[str] | None = []
        for case in named_nodes(body):
            if case.type not in ("switch_case", "switch_default"):
                self.visit(case, inner)
                continue
            label = case.child_by_field_name("value")
            text = self.string_value(label) if case.type == "switch_case" else None
            if label is not None:
                self.visit(label, inner)
            labels = [*labels, text] if labels is not None and text is not None else None
            statements = [c for c in case.named_children if c != label and c.type != "comment"]
            if subject is not None and labels and statements:
                name, prop = subject
                with self.narrowed([(name, prop, False, tuple(labels))], inner, statements):
                    for child in statements:
                        self.visit(child, inner)
            else:
                for child in statements:
                    self.visit(child, inner)
            if statements and self.exits(statements[-1]):
                labels = []

    def tests_subject(self, value: Node | None) -> tuple[str, str] | None:
        """``(x, prop)`` of ``switch (x.prop)``."""
        value = unparenthesized(value)
        if value is None or value.type != "member_expression":
            return None
        obj, prop = value.child_by_field_name("object"), member_property(value)
        if obj is None or prop is None or obj.type != "identifier" or prop.type != "property_identifier":
            return None
        return (self.text(obj), self.text(prop)) if DISCRIMINANT.fullmatch(self.text(prop)) else None

    def exits(self, node: Node) -> bool:
        """A statement after which control does not go on (``return``, ``throw``, ``break``,
        ``continue``, a block or ``if``/``else`` ending so)."""
        if node.type in _EXITS:
            return True
        if node.type == "statement_block":
            inner = [c for c in node.named_children if c.type != "comment"]
            return bool(inner) and self.exits(inner[-1])
        if node.type == "if_statement":
            consequence = node.child_by_field_name("consequence")
            alternative = node.child_by_field_name("alternative")
            other = [c for c in alternative.named_children if c.type != "comment"] if alternative else []
            return (
                consequence is not None and bool(other) and self.exits(consequence) and self.exits(other[-1])
            )
        return False

    def block(self, node: Node, scope: Scope) -> None:
        """A block; after ``if (x.code !== "a") return;`` its remaining statements see x narrowed."""
        self.statements(list(node.named_children), Scope(scope, False))

    def statements(self, statements: list[Node], scope: Scope) -> None:
        for at, child in enumerate(statements):
            self.visit(child, scope)
            if child.type != "if_statement" or child.child_by_field_name("alternative") is not None:
                continue
            consequence = child.child_by_field_name("consequence")
            found = self.tests(child.child_by_field_name("condition"), True)
            if found and consequence is not None and self.exits(consequence):
                rest = statements[at + 1 :]
                with self.narrowed(found, scope, rest):
                    self.statements(rest, scope)
                return
