"""Pytest facts: fixtures a test requests, and the values ``parametrize`` marks (on the test, its
class or the module's ``pytestmark``) give its arguments."""

from __future__ import annotations

import ast
from collections.abc import Iterator

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
        outer_scope = inner.parent
        if fixture is not None and outer_scope is not None and (outer_scope is self.module or inner.cls):
            name = node.name
            if isinstance(fixture, ast.Call):
                for keyword in fixture.keywords:
                    if keyword.arg == "name" and isinstance(keyword.value, ast.Constant):
                        name = str(keyword.value.value)
            # a test class's own fixture serves its methods: `<class path>:<name>`
            key = name if outer_scope is self.module else f"{inner.cls}:{name}"
            self.fixtures.setdefault(key, (path, node, inner))
            params = self.fixture_param_values(fixture)
            if params is not None:
                self.fixture_params[id(inner)] = (params, outer_scope)
        if fixture is None and not (self.test_file and node.name.startswith("test")):
            return
        args = node.args
        positional = [*args.posonlyargs, *args.args]
        with_default = {a.arg for a in positional[len(positional) - len(args.defaults) :]}
        with_default |= {
            a.arg for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is not None
        }
        given = parametrize_values(node.decorator_list, self.displays)  # the test's own marks
        listed = parametrize_lists(node.decorator_list)
        outer = parametrize_values(
            self.module_marks + (self.class_marks.get(inner.cls, []) if inner.cls else []), self.displays
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
                elif name in listed:
                    # `@parametrize("x", FIELDS)` of a list made elsewhere: an item of it
                    inner.values[name] = [(listed[name][0], listed[name][1], inner.parent or inner)]
                continue
            request = f"F:{inner.cls}:{name}" if inner.cls else f"F:{name}"
            inner.values[name] = [("chain", request, inner)]

    def fixture_param_values(self, fixture: ast.expr) -> list[ast.expr] | None:
        """The values ``@pytest.fixture(params=[...])`` gives ``request.param`` (a display, or a
        module constant holding one; ``pytest.param(v, ...)`` gives v); None when unreadable."""
        if not isinstance(fixture, ast.Call):
            return None
        params = next((k.value for k in fixture.keywords if k.arg == "params"), None)
        if isinstance(params, ast.Name):
            params = self.displays.get(params.id)
        if not isinstance(params, ast.List | ast.Tuple) or not params.elts:
            return None
        values: list[ast.expr] = []
        for value in params.elts:
            if isinstance(value, ast.Starred):
                return None
            if isinstance(value, ast.Call) and func_name(value.func) == "param":
                if len(value.args) != 1 or isinstance(value.args[0], ast.Starred):
                    return None
                value = value.args[0]
            values.append(value)
        return values

    def argnames(self, marks: list[ast.expr], scope: Scope) -> list[ast.Constant]:
        """The strings of ``@pytest.mark.parametrize`` marks that name the arguments of the tests
        they apply to (``("chain", "expect")``, ``"a,b"``): parameters, not symbols. With
        ``indirect`` they name fixtures, which may be project functions: not taken."""
        out: list[ast.Constant] = []
        for mark in marks:
            if not isinstance(mark, ast.Call) or self.mark_chain(scope, mark.func) not in PARAMETRIZE:
                continue
            options = {k.arg: k.value for k in mark.keywords if k.arg}
            if "indirect" in options:
                continue
            first = mark.args[0] if mark.args else options.get("argnames")
            elements = first.elts if isinstance(first, ast.List | ast.Tuple) else [first]
            out.extend(e for e in elements if isinstance(e, ast.Constant) and isinstance(e.value, str))
        return out

    def mark_chain(self, scope: Scope, func: ast.expr) -> str | None:
        """The chain of a mark's callee, through a module's alias of it (``parametrize =
        pytest.mark.parametrize``, then ``@parametrize("a", …)``)."""
        chain = self.chain(scope, func)
        if (
            chain not in PARAMETRIZE
            and isinstance(func, ast.Name)
            and func.id in self.module_aliases
            and self.lookup(scope, func.id)[1] is self.module
        ):
            return self.chain(self.module, self.module_aliases[func.id])
        return chain


def _parametrize_marks(
    marks: list[ast.expr],
) -> Iterator[tuple[dict[str, ast.expr], ast.expr | None, ast.expr | None]]:
    """(keywords, argnames, argvalues) of each ``parametrize(...)`` mark among ``marks``."""
    for mark in marks:
        if isinstance(mark, ast.Call) and func_name(mark.func) == "parametrize":
            options = {k.arg: k.value for k in mark.keywords if k.arg}
            first = mark.args[0] if mark.args else options.get("argnames")
            yield options, first, mark.args[1] if len(mark.args) > 1 else options.get("argvalues")


def parametrize_values(
    marks: list[ast.expr], displays: dict[str, ast.List | ast.Tuple] | None = None
) -> dict[str, list[ast.expr] | None]:
    """What ``@pytest.mark.parametrize("a, b", [(1, 2), pytest.param(3, 4)])`` marks give each
    argument: its values, or None when they cannot be read (``indirect``, a computed list);
    ``"*"`` when the names themselves cannot be read (every argument may be given).
    ``displays``: module constants read in place of their name (``CASES``, ``pytest.param(*CASE)``)."""
    displays = displays or {}
    out: dict[str, list[ast.expr] | None] = {}
    for options, first, rows in _parametrize_marks(marks):
        if isinstance(rows, ast.Name):
            rows = displays.get(rows.id, rows)
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
                parts: list[ast.expr] = _unpacked(row.args, displays)
            elif len(names) == 1:
                parts = [row]
            else:
                row = displays.get(row.id, row) if isinstance(row, ast.Name) else row
                parts = list(row.elts) if isinstance(row, ast.List | ast.Tuple) else []
            if len(parts) != len(names) or any(isinstance(p, ast.Starred) for p in parts):
                readable = False
                break
            for n, part in enumerate(parts):
                columns[n].append(part)
        for n, name in enumerate(names):
            out[name] = columns[n] if readable and name not in out else None
    return out


def parametrize_lists(marks: list[ast.expr]) -> dict[str, tuple[str, ast.expr]]:
    """What the parametrize marks whose values are a list named or made elsewhere
    (``parametrize("cls", ALL_FIELDS)``, ``parametrize("a, b", cases())``) give each argument:
    ``("iter", rows)`` (an item) or ``("iter#n", rows)`` (the n-th part of each item)."""
    out: dict[str, tuple[str, ast.expr]] = {}
    for options, first, rows in _parametrize_marks(marks):
        if "indirect" in options or rows is None or isinstance(rows, ast.List | ast.Tuple | ast.Starred):
            continue
        if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
            continue
        names = [part.strip() for part in first.value.split(",") if part.strip()]
        for n, name in enumerate(names):
            out.setdefault(name, ("iter" if len(names) == 1 else f"iter#{n}", rows))
    return out


def _unpacked(args: list[ast.expr], displays: dict[str, ast.List | ast.Tuple]) -> list[ast.expr]:
    """``pytest.param(*CASE, id=...)`` with ``CASE = (value, expected)``: the display's elements."""
    out: list[ast.expr] = []
    for arg in args:
        if isinstance(arg, ast.Starred) and isinstance(arg.value, ast.Name) and arg.value.id in displays:
            out.extend(displays[arg.value.id].elts)
        else:
            out.append(arg)
    return out


def module_displays(tree: ast.Module) -> dict[str, ast.List | ast.Tuple]:
    """Module-level names bound once, to a list or tuple display, and never rebound or changed
    in place anywhere in the module (see :func:`_bound_once`)."""
    return {
        name: value for name, value in _bound_once(tree).items() if isinstance(value, ast.List | ast.Tuple)
    }


def module_aliases(tree: ast.Module) -> dict[str, ast.expr]:
    """Module-level names bound once, to a name or attribute (``parametrize =
    pytest.mark.parametrize``), and never rebound or changed anywhere in the module."""
    return {
        name: value
        for name, value in _bound_once(tree).items()
        if isinstance(value, ast.Name | ast.Attribute)
    }


def _bound_once(tree: ast.Module) -> dict[str, ast.expr]:
    """Names a module statement assigns (``NAME = value``) and nothing else binds or changes
    anywhere in the module: no other store, ``del`` or ``global`` rebinding, no module-level
    import, ``def`` or ``class`` of the name, no item store or mutating method call on it."""
    found: dict[str, ast.expr] = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            name = stmt.targets[0].id
            found[name] = stmt.value if name not in found else _REBOUND
    values = {name: value for name, value in found.items() if value is not _REBOUND}
    if not values:
        return {}
    stores: dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            stores[node.id] = stores.get(node.id, 0) + 1
        elif isinstance(node, ast.Global | ast.Nonlocal):
            for name in node.names:
                stores[name] = stores.get(name, 0) + 2
        elif isinstance(node, ast.Subscript | ast.Attribute) and isinstance(node.value, ast.Name):
            changed = not isinstance(node.ctx, ast.Load) or (
                isinstance(node, ast.Attribute) and node.attr in _MUTATORS
            )
            if changed:
                stores[node.value.id] = stores.get(node.value.id, 0) + 2
    for name in _module_bindings(tree):  # (`def NAME`, `import NAME` at module level)
        stores[name] = stores.get(name, 0) + 2
    return {name: value for name, value in values.items() if stores.get(name, 0) == 1}


def _module_bindings(tree: ast.Module) -> Iterator[str]:
    """The names module-level ``def``, ``class`` and import statements bind (also inside
    module-level ``if``/``try``/``with`` blocks; not inside functions or classes)."""
    pending: list[ast.AST] = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield node.name
        elif isinstance(node, ast.Import | ast.ImportFrom):
            yield from ((a.asname or a.name).partition(".")[0] for a in node.names)
        elif isinstance(node, ast.stmt | ast.excepthandler | ast.match_case):
            pending.extend(
                child
                for child in ast.iter_child_nodes(node)
                if isinstance(child, ast.stmt | ast.excepthandler | ast.match_case)
            )


_REBOUND = ast.Tuple(elts=[])
_MUTATORS = frozenset({"append", "extend", "insert", "remove", "pop", "clear", "sort", "reverse"})


def pytest_module_marks(tree: ast.Module) -> list[ast.expr]:
    """The marks ``pytestmark = ...`` applies to every test of a module."""
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "pytestmark" for t in stmt.targets
        ):
            value = stmt.value
            return list(value.elts) if isinstance(value, ast.List | ast.Tuple) else [value]
    return []
