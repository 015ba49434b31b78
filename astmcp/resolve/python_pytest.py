"""Pytest facts: fixtures a test requests, and the values ``parametrize`` marks (on the test, its
class or the module's ``pytestmark``) give its arguments."""

from __future__ import annotations

import ast

from astmcp.resolve.python_chains import Chains
from astmcp.resolve.python_scope import Scope, decorator_call, func_name
from astmcp.resolve.python_vocab import FIXTURES, PARAMETRIZE


class PytestFacts(Chains):
    def pytest_function(self, node: ast.FunctionDef | ast.AsyncFunctionDef, inner: Scope, path: str) -> None:
        """A pytest fixture records its name; the parameters of a test or fixture function
        without a default or annotation request the fixture of their name (``F:<name>``)."""
        fixture = next(
            (
                d
                for d in node.decorator_list
                if self.chain(inner.parent or inner, decorator_call(d)) in FIXTURES
            ),
            None,
        )
        if fixture is not None and inner.parent is self.module:
            name = node.name
            if isinstance(fixture, ast.Call):
                for keyword in fixture.keywords:
                    if keyword.arg == "name" and isinstance(keyword.value, ast.Constant):
                        name = str(keyword.value.value)
            self.fixtures.setdefault(name, (path, node, inner))
        if fixture is None and not (self.test_file and node.name.startswith("test")):
            return
        args = node.args
        positional = [*args.posonlyargs, *args.args]
        with_default = {a.arg for a in positional[len(positional) - len(args.defaults) :]}
        with_default |= {
            a.arg for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is not None
        }
        given = parametrize_values(node.decorator_list)  # values from the test's own marks
        outer = parametrize_values(
            self.module_marks + (self.class_marks.get(inner.cls, []) if inner.cls else [])
        )
        if "*" in given or "*" in outer or self.generates:
            return  # any argument may be parametrized
        for arg in [*positional, *args.kwonlyargs]:
            name = arg.arg
            if arg.annotation is not None or name in with_default or name in outer or name == inner.self_name:
                continue
            if name in given:
                values = given[name]
                if values is not None:
                    # `@parametrize("x", [A(), A()])`: x is any of the values
                    inner.values[name] = [("expr", v, inner.parent or inner) for v in values]
                continue
            inner.values[name] = [("chain", f"F:{name}", inner)]

    def argnames(self, marks: list[ast.expr], scope: Scope) -> list[ast.Constant]:
        """The strings of ``@pytest.mark.parametrize`` marks that name the arguments of the tests
        they apply to (``("chain", "expect")``, ``"a,b"``): parameters, not symbols. With
        ``indirect`` they name fixtures, which may be project functions: not taken."""
        out: list[ast.Constant] = []
        for mark in marks:
            if not isinstance(mark, ast.Call) or self.chain(scope, mark.func) not in PARAMETRIZE:
                continue
            options = {k.arg: k.value for k in mark.keywords if k.arg}
            if "indirect" in options:
                continue
            first = mark.args[0] if mark.args else options.get("argnames")
            elements = first.elts if isinstance(first, ast.List | ast.Tuple) else [first]
            out.extend(e for e in elements if isinstance(e, ast.Constant) and isinstance(e.value, str))
        return out


def parametrize_values(marks: list[ast.expr]) -> dict[str, list[ast.expr] | None]:
    """What ``@pytest.mark.parametrize("a, b", [(1, 2), pytest.param(3, 4)])`` marks give each
    argument: its values, or None when they cannot be read (``indirect``, a computed list);
    ``"*"`` when the names themselves cannot be read (every argument may be given)."""
    out: dict[str, list[ast.expr] | None] = {}
    for mark in marks:
        if not (isinstance(mark, ast.Call) and func_name(mark.func) == "parametrize"):
            continue
        options = {k.arg: k.value for k in mark.keywords if k.arg}
        first = mark.args[0] if mark.args else options.get("argnames")
        rows = mark.args[1] if len(mark.args) > 1 else options.get("argvalues")
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            names = [part.strip() for part in first.value.split(",") if part.strip()]
        elif isinstance(first, ast.List | ast.Tuple) and all(
            isinstance(e, ast.Constant) and isinstance(e.value, str) for e in first.elts
        ):
            names = [str(e.value) for e in first.elts]  # type: ignore[attr-defined]
        else:
            out["*"] = None
            continue
        columns: list[list[ast.expr]] = [[] for _ in names]
        readable = "indirect" not in options and isinstance(rows, ast.List | ast.Tuple)
        for row in rows.elts if readable and isinstance(rows, ast.List | ast.Tuple) else []:
            if isinstance(row, ast.Call) and func_name(row.func) == "param":
                parts: list[ast.expr] = list(row.args)
            elif len(names) == 1:
                parts = [row]
            else:
                parts = list(row.elts) if isinstance(row, ast.List | ast.Tuple) else []
            if len(parts) != len(names) or any(isinstance(p, ast.Starred) for p in parts):
                readable = False
                break
            for n, part in enumerate(parts):
                columns[n].append(part)
        for n, name in enumerate(names):
            out[name] = columns[n] if readable and name not in out else None
    return out


def pytest_module_marks(tree: ast.Module) -> list[ast.expr]:
    """The marks ``pytestmark = ...`` applies to every test of a module."""
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "pytestmark" for t in stmt.targets
        ):
            value = stmt.value
            return list(value.elts) if isinstance(value, ast.List | ast.Tuple) else [value]
    return []
