"""The statement walk of the Python fact pass: definitions, assignments, blocks."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Any

from astmcp.resolve.python_exprs import Expressions
from astmcp.resolve.python_keys import kwargs_keys, opaque_kwargs
from astmcp.resolve.python_scope import (
    Scope,
    all_args,
    annotation_names,
    decorator_call,
    decorator_name,
    func_name,
    generic_origin,
    is_class_expr,
    is_empty_container,
    is_none,
    keeps_first,
    makes_keepers,
    makes_own_instance,
    returned_values,
    signature,
    written_bases,
)
from astmcp.resolve.python_vocab import (
    CONTEXT_MANAGERS,
    EXITS,
    FIXTURES,
    NAME_LISTS,
    NAMES_ITSELF,
    TRANSPARENT,
)


class Statements(Expressions):
    def body(self, stmts: list[ast.stmt], scope: Scope, docstring: bool) -> None:
        saved = self.narrowed
        for n, stmt in enumerate(stmts):
            if (
                n == 0
                and docstring
                and isinstance(stmt, ast.Expr)
                and isinstance(stmt.value, ast.Constant)
                and isinstance(stmt.value.value, str)
            ):
                if ">>>" in stmt.value.value:
                    self.doctest(stmt.value, scope)
                continue
            if self.narrowing_ends:
                self.end_narrowings(stmt)
            self.stmt(stmt, scope)
            if type(stmt) is ast.Assert:
                # `assert isinstance(x, C)`: the rest of the block sees x as a C
                self.narrow(self.isinstance_tests(stmt.test, scope, True), stmts[n + 1 :], scope)
            elif type(stmt) is ast.If and not stmt.orelse and isinstance(stmt.body[-1], EXITS):
                # `if not isinstance(x, C): return`: the rest of the block sees x as a C
                self.narrow(self.isinstance_tests(stmt.test, scope, False), stmts[n + 1 :], scope)
            elif type(stmt) is ast.Assign and scope.kind == "function":
                # `x = value`: the rest of the block sees that value, not any x is given elsewhere
                self.narrow(self.assigned(stmt, scope), stmts[n + 1 :], scope, value=True)
        self.narrowed = saved

    def stmt(self, node: ast.stmt, scope: Scope) -> None:
        self.line = node.lineno
        handler = _STMT.get(type(node))
        if handler is not None:
            handler(self, node, scope)
        else:
            self.generic(node, scope, "read")

    def function(self, node: ast.FunctionDef | ast.AsyncFunctionDef, scope: Scope) -> None:
        self.key_strings.update((id(s), []) for s in self.argnames(node.decorator_list, scope))
        for dec in node.decorator_list:
            self.expr(dec, scope, "call")
        self.arguments_defaults(node.args, scope)
        for arg in all_args(node.args):
            if arg.annotation is not None:
                self.expr(arg.annotation, scope, "type")
        if node.returns is not None:
            self.expr(node.returns, scope, "type")
        path = f"{scope.path}.{node.name}" if scope.path else node.name
        if scope.kind == "comp":
            path = node.name
        self.bind(scope, node.name, "S:" + path)
        if any(decorator_name(d) in _NO_REBINDING for d in node.decorator_list):
            self.accessor_lines.add((scope.path, node.name, self.line))
        line, col = self.def_name(node)
        self.direct(node.name, line, col, "definition", "S:" + path, scope)
        inner = Scope("function", path, scope)
        if scope.kind == "module" and keeps_first(node):
            self.keepers.append(path)
        if scope.kind == "module" and makes_keepers(node):
            self.keeper_makers.append(path)
        if scope.kind == "class":
            listed = frozenset(ast.unparse(generic_origin(b)) for b in self.bases.get(scope.path, ()))
            if node.name in ("__new__", "__call__") and not makes_own_instance(node, node.name, listed):
                self.new_others.append(f"{scope.path}.{node.name}")
                if node.name == "__new__" and isinstance(node, ast.FunctionDef):
                    self.new_returns.append((path, node, inner))  # judged by what each return gives
            decorators = {decorator_name(d) for d in node.decorator_list}
            if decorators <= {"classmethod"} and _returns_receivers_kind(node, bool(decorators)):
                self.self_returns.append(path)  # (a decorator may make it give anything)
            if "staticmethod" not in decorators:
                inner.cls = scope.path
                classy = "classmethod" in decorators or node.name in ("__new__", "__init_subclass__")
                inner.self_chain = f"S:{scope.path}" if classy else f"S:{scope.path}/(i)"
        innermost = node.decorator_list[-1] if node.decorator_list else None
        receiver = (
            self.chain(scope, innermost)
            if isinstance(innermost, ast.Name | ast.Attribute)
            and decorator_name(innermost) not in TRANSPARENT
            else None
        )  # `@pass_context def cli(ctx)`: pass_context's parameter says what ctx is given
        self.bind_params(node.args, inner, node, receiver)
        if scope.kind == "module" or (inner.cls and scope.path.rpartition(".")[2].startswith("Test")):
            self.pytest_function(node, inner, path)
        names = [decorator_name(d) for d in node.decorator_list]
        positional = node.args.posonlyargs + node.args.args
        if positional and positional[0].annotation is not None and scope.kind != "class":
            self.receives.append((path, positional[0].annotation, scope))
        if scope.kind == "class" and any(a.annotation is not None for a in positional[1:]):
            self.param_types.append((path, [a.annotation for a in positional], scope))
        if node.returns is not None and all(n in TRANSPARENT for n in names):
            # a method's arguments, called on an instance, start after self (or cls)
            given = positional[1:] if scope.kind == "class" and "staticmethod" not in names else positional
            returned = annotation_names(node.returns)
            if any(a.annotation is not None and annotation_names(a.annotation) & returned for a in given):
                self.generic_calls.append((path, [a.annotation for a in given], scope))
        if "overload" in names:
            method = scope.kind == "class" and "staticmethod" not in names
            self.overloads.append((path, signature(node.args), method, node.returns, scope))
        elif node.decorator_list and self.chain(scope, node.decorator_list[0]) in CONTEXT_MANAGERS:
            self.managers.append((path, node, inner, scope))  # `with f() as x`: what f yields
        elif node.decorator_list and names[0] not in TRANSPARENT:
            # `@command()`: the name holds what the outermost decorator makes of the function
            made = self.chain(scope, node.decorator_list[0])
            if made:
                self.decorated[path] = f"{made}/()1f"  # one positional argument: a function
        if node.returns is not None and "overload" not in names:
            self.deferred_types.append(("r", path, node.returns, scope, True))
            self.def_returns.setdefault(path, []).append((node.returns, scope, True))
        elif isinstance(node, ast.FunctionDef) and all(
            decorator_name(d) in TRANSPARENT or self.chain(scope, decorator_call(d)) in FIXTURES
            for d in node.decorator_list
        ):
            self.returns.append((path, node, inner))  # what a call gives is what it returns
            self.def_returns.setdefault(path, []).append((node, inner, False))
        else:
            self.def_returns.setdefault(path, []).append(None)  # what it gives is not known here
        keys = kwargs_keys(node)
        if keys is not None:
            self.key_strings.update(keys)
        elif opaque_kwargs(node):
            named = [*node.args.args, *node.args.kwonlyargs]  # not positional-only ones
            self.opaque_kwargs[path] = [a.arg for a in named]
        saved = self.narrowed
        self.narrowed = {}  # a nested function runs later: a narrowing may no longer hold
        self.body(node.body, inner, True)
        self.narrowed = saved

    def klass(self, node: ast.ClassDef, scope: Scope) -> None:
        self.key_strings.update((id(s), []) for s in self.argnames(node.decorator_list, scope))
        for dec in node.decorator_list:
            self.expr(dec, scope, "call")
        path = f"{scope.path}.{node.name}" if scope.path else node.name
        first = len(self.pending)
        bases = written_bases(node.bases)
        for base in node.bases:
            if base in bases:
                self.expr(base, scope, "inherit")
            elif isinstance(base, ast.Call):  # `with_metaclass(Meta, Base)`: its bases are the class's
                self.expr(base.func, scope, "call")
                for n, arg in enumerate(base.args):
                    self.expr(arg, scope, "inherit" if n and arg in bases else "read")
        for keyword in node.keywords:
            self.expr(keyword.value, scope, "read")
            if keyword.arg == "metaclass":
                meta = self.chain(scope, keyword.value)
                self.metaclasses[path] = meta or ""
        # six's spellings: `class C(with_metaclass(Meta, Base))`, `@add_metaclass(Meta)`
        helped = [b for b in node.bases if isinstance(b, ast.Call) and func_name(b.func) == "with_metaclass"]
        helped += [
            d for d in node.decorator_list if isinstance(d, ast.Call) and func_name(d.func) == "add_metaclass"
        ]
        for call in helped:
            if call.args and path not in self.metaclasses:
                self.metaclasses[path] = self.chain(scope, call.args[0]) or ""
        for pending in self.pending[first:]:
            pending.owner = path  # a base belongs to the class it is listed by
        self.bind(scope, node.name, "S:" + path)
        line, col = self.def_name(node)
        self.direct(node.name, line, col, "definition", "S:" + path, scope)
        self.bases[path] = bases
        if any(func_name(generic_origin(b)) == "NamedTuple" for b in node.bases):
            # `class Segment(NamedTuple)`: unpacking an instance gives its fields in order
            self.tuple_fields[path] = [
                stmt.target.id
                for stmt in node.body
                if isinstance(stmt, ast.AnnAssign)
                and isinstance(stmt.target, ast.Name)
                and func_name(generic_origin(stmt.annotation)) != "ClassVar"
            ]
        self.class_marks[path] = list(node.decorator_list)
        self.class_decorators[path] = [
            (self.chain(scope, d.func) or "") + "/()"
            if isinstance(d, ast.Call)
            else self.chain(scope, d) or ""
            for d in node.decorator_list
        ]
        self.base_scopes[path] = scope
        inner = Scope("class", path, scope)
        self.body(node.body, inner, True)

    def assign(self, node: ast.Assign, scope: Scope) -> None:
        first = node.targets[0]
        value = node.value
        if (
            scope.kind in ("module", "class")
            and len(node.targets) == 1
            and isinstance(first, ast.Name)
            and isinstance(value, ast.Call)
            and func_name(value.func) in NAMES_ITSELF
            and value.args
            and isinstance(value.args[0], ast.Constant)
            and value.args[0].value == first.id
        ):
            # `T = TypeVar("T")`: the string is the declared name, renamed with it
            path = f"{scope.path}.{first.id}" if scope.path else first.id
            self.named_strings[id(value.args[0])] = "S:" + path
        if (
            scope.kind in ("module", "class")
            and len(node.targets) == 1
            and isinstance(first, ast.Name)
            and _same_wrapped(value, first.id)
        ):
            # `make = functools.lru_cache(make)`, `make = staticmethod(make)`, `C = dataclass(C)`:
            # the name keeps what it held (as under the decorator), no other binding
            self.accessor_lines.add((scope.path, first.id, self.line))
        if scope.kind == "module" and isinstance(first, ast.Name):
            # `pytestmark = [...]`, or a mark kept to decorate tests with (`param_prop =
            # pytest.mark.parametrize("prop", [...])`, then `@param_prop`)
            marks = (
                value.elts
                if first.id == "pytestmark" and isinstance(value, ast.List | ast.Tuple)
                else [value]
            )
            self.key_strings.update((id(s), []) for s in self.argnames(marks, scope))
        if scope.kind == "class" and isinstance(first, ast.Name) and first.id == "__slots__":
            listed = value.elts if isinstance(value, ast.Tuple | ast.List | ast.Set) else [value]
            for item in listed:
                if isinstance(item, ast.Constant) and isinstance(item.value, str):
                    self.slot_strings[id(item)] = scope.path  # `__slots__ = ("x",)`: the class's x
        if isinstance(first, ast.Name) and first.id in NAME_LISTS and isinstance(value, ast.Constant):
            self.word_lists.add(id(value))  # `__slots__ = "x y"`, an Enum's `_order_ = "RED GREEN"`
        if isinstance(first, ast.Name) and first.id.startswith("__") and isinstance(value, ast.Dict):
            self.named_keys.add(id(value))  # `__slots__ = {"x": "doc"}`: its keys are names
        is_all = scope.kind == "module" and isinstance(first, ast.Name) and first.id == "__all__"
        # __all__ strings are certain rows, not name hits (when its form lists them)
        if not (is_all and self.dunder_all(node.value, replace=True)):
            self.expr(node.value, scope, "read")
        single = len(node.targets) == 1
        for target in node.targets:
            if isinstance(target, ast.Subscript):
                stored = single and not isinstance(target.slice, ast.Slice)
                self.changed_in_place(target.value, scope, ("fill[]", node.value) if stored else None)
                if stored and isinstance(target.value, ast.Name):
                    # `table["b"] = make()`: a value of the local table is a container of it too
                    self.fill(target.value, "fill[]", node.value, scope)
            self.target(target, scope, node.value if single else None)

    def assigned(self, node: ast.Assign, scope: Scope) -> list[tuple[str, ast.expr]]:
        """``x = value`` binding a local of a function: ``[(x, value)]`` (not ``x = None``, whose
        uses wait for another value, nor a new empty container, which later statements fill, nor a
        value made from x itself, ``x = x or X()``: the union of x's values settles that)."""
        target = node.targets[0]
        if (
            len(node.targets) != 1
            or not isinstance(target, ast.Name)
            or scope.binds.get(target.id) != ""
            or target.id in scope.globals
            or target.id in scope.nonlocals
            or is_none(node.value)
            or is_empty_container(node.value)
            or any(isinstance(n, ast.Name) and n.id == target.id for n in ast.walk(node.value))
        ):
            return []
        return [(target.id, node.value)]

    def ann_assign(self, node: ast.AnnAssign, scope: Scope) -> None:
        self.expr(node.annotation, scope, "type")
        is_all = scope.kind == "module" and isinstance(node.target, ast.Name) and node.target.id == "__all__"
        if node.value is not None and not (is_all and self.dunder_all(node.value, replace=True)):
            self.expr(node.value, scope, "read")
        target = node.target
        if isinstance(target, ast.Name) and node.value is None and scope.kind == "function":
            # `x: int` alone declares a local without binding a value.
            self.bind(scope, target.id, "", ("ann", node.annotation))
            self.name_occurrence(target, scope, "write")
            return
        self.target(target, scope, node.value, node.annotation)

    def aug_assign(self, node: ast.AugAssign, scope: Scope) -> None:
        target = node.target
        self.changed_in_place(target.value if isinstance(target, ast.Subscript) else target, scope)
        is_all = isinstance(target, ast.Name) and target.id == "__all__" and scope.kind == "module"
        if not (is_all and isinstance(node.op, ast.Add) and self.dunder_all(node.value, replace=False)):
            self.expr(node.value, scope, "read")
        if isinstance(target, ast.Name):
            self.bind(scope, target.id, "")
            self.name_occurrence(target, scope, "write")
        else:
            self.expr(target, scope, "read")

    def if_(self, node: ast.If, scope: Scope) -> None:
        self.expr(node.test, scope, "read")
        saved = self.narrowed
        self.narrow(self.isinstance_tests(node.test, scope, True), node.body, scope)
        known = self.known_strings
        self.known_strings = {**known, **literal_tests(node.test, node.body)}
        self.body(node.body, scope, False)
        self.known_strings = known
        self.narrowed = saved
        self.narrow(self.isinstance_tests(node.test, scope, False), node.orelse, scope)
        self.body(node.orelse, scope, False)
        self.narrowed = saved

    def for_(self, node: ast.For | ast.AsyncFor, scope: Scope) -> None:
        self.expr(node.iter, scope, "read")
        self.loop_target(node.target, scope, node.iter)
        known = self.known_strings
        listed = self.listed_items(node.iter, scope)
        if listed and isinstance(node.target, ast.Name) and not _rebinds(node.body, node.target.id):
            # `for attr in self._options:` / `for name in ("a", "b"):`: attr holds one of them
            self.known_strings = {**known, node.target.id: listed}
        self.body(node.body, scope, False)
        self.known_strings = known
        self.body(node.orelse, scope, False)

    def listed_items(self, iterable: ast.expr, scope: Scope) -> frozenset[str] | None:
        """The strings a loop over ``iterable`` goes through, when all are known: a display of
        string literals, a module-level name bound only to such displays, or such an attribute of
        the method's own class read off its ``self`` (python_namespace.listed_strings)."""
        if isinstance(iterable, ast.List | ast.Tuple | ast.Set):
            items = [i.value for i in iterable.elts if isinstance(i, ast.Constant) and type(i.value) is str]
            return frozenset(items) if items and len(items) == len(iterable.elts) else None
        if isinstance(iterable, ast.Name):
            if self.lookup(scope, iterable.id)[1] is not self.module:
                return None
            return self.listed_strings.get(f"N:{iterable.id}")
        if (
            isinstance(iterable, ast.Attribute)
            and isinstance(iterable.value, ast.Name)
            and scope.kind == "function"
        ):
            where = self.lookup(scope, iterable.value.id)[1]
            if where is None or not where.cls or where.self_name != iterable.value.id:
                return None
            return self.listed_strings.get(f"A:{where.cls.rpartition('.')[2]}.{iterable.attr}")
        return None

    def with_(self, node: ast.With | ast.AsyncWith, scope: Scope) -> None:
        entered: list[tuple[str, ast.expr]] = []
        for item in node.items:
            self.expr(item.context_expr, scope, "read")
            target = item.optional_vars
            if isinstance(target, ast.Name) and scope.kind == "function":
                # `with Cls() as x`: x is what Cls.__enter__ returns
                self.bind(scope, target.id, "", ("enter", item.context_expr))
                self.name_occurrence(target, scope, "write")
                if (
                    target.id not in scope.globals
                    and target.id not in scope.nonlocals
                    and self.raised(scope, item.context_expr) is None
                ):
                    # the body sees that value, not any other x is given in the function (`f =
                    # TOMLFile(p)` after `with open(p, "wb") as f`), until it rebinds x
                    made = ast.Attribute(value=item.context_expr, attr="__enter__", ctx=ast.Load())
                    enter = ast.Call(func=ast.copy_location(made, item.context_expr), args=[], keywords=[])
                    entered.append((target.id, ast.copy_location(enter, item.context_expr)))
            elif isinstance(target, ast.Name) and scope.kind == "module" and target.id not in scope.binds:
                # a module-level `with ... as x` declares no symbol: x is typed like a local
                scope.binds[target.id] = ""
                scope.values[target.id] = [("enter", item.context_expr, scope)]
            elif (
                isinstance(target, ast.Tuple | ast.List)
                and scope.kind == "function"
                and not any(isinstance(e, ast.Starred) for e in target.elts)
            ):
                # `with f() as (out, err)`: the parts of what entering gives
                self.part_targets(target, scope, "enter", item.context_expr, None)
            elif target is not None:
                self.target(target, scope, None)
        saved = self.narrowed
        self.narrow(entered, node.body, scope, value=True)
        self.body(node.body, scope, False)
        self.narrowed = saved

    def except_handler(self, node: ast.excepthandler, scope: Scope) -> None:
        assert isinstance(node, ast.ExceptHandler)
        if node.type is not None:
            self.expr(node.type, scope, "read")
        if node.name:
            # `except (A, B) as e`: e is an A or a B (``exc``); `except A as e` narrows e to an A
            # in the handler, whatever other handlers of the scope bind e to
            self.bind(scope, node.name, "", ("exc", node.type) if node.type is not None else None)
        if node.type is not None and self.lookup(scope, "sys")[0] == _SYS:
            for read in _exception_reads(node.body):
                # `e = sys.exc_info()[1]`, `sys.exception()`: the exception caught, as `except A as e`
                self.typed_uses[id(read)] = (node.type, scope, False)
        saved = self.narrowed
        if node.name and node.type is not None and is_class_expr(node.type):
            self.narrow([(node.name, node.type)], node.body, scope)
        self.body(node.body, scope, False)
        self.narrowed = saved

    def expr_stmt(self, node: ast.Expr, scope: Scope) -> None:
        self.expr(node.value, scope, "read")
        self.filled(node.value, scope)
        value = node.value
        if (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Attribute)
            and value.func.attr in CHANGERS
        ):
            arity = FILLERS.get(value.func.attr)
            plain = not value.keywords and not any(isinstance(a, ast.Starred) for a in value.args)
            filler = (arity[1], value.args[-1]) if arity and plain and len(value.args) == arity[0] else None
            self.changed_in_place(value.func.value, scope, filler)

    def changed_in_place(
        self, container: ast.expr, scope: Scope, filler: tuple[str, ast.expr] | None = None
    ) -> None:
        """Notes a container changed in place (see Bindings.changed; Bindings.fills when
        ``filler`` says what it is given), and one perhaps declared in another module (an
        imported name, an attribute of an object) for ``changes`` and ``fills``."""
        if isinstance(container, ast.Name):
            key = "N:" + container.id
        elif isinstance(container, ast.Attribute):
            key = "A:" + container.attr
        else:
            return
        if filler is None:
            self.changed.add(key)
        else:
            self.fills.setdefault(key, []).append((*filler, scope))
        self.changed_elsewhere.append((scope, container, filler))

    def filled(self, node: ast.expr, scope: Scope) -> None:
        """``xs.append(v)`` (``add``, ``insert``, ``extend``) on a local of this function or of
        one it is nested in: a value of xs is a container of v (see Chains.local_values); also on
        a container inside it (``rows[0].append(v)``, ``d.setdefault(k, []).append(v)``: a
        container of containers of v)."""
        call = node if isinstance(node, ast.Call) and not node.keywords else None
        func = call.func if call is not None else None
        if (
            call is None
            or not isinstance(func, ast.Attribute)
            or any(isinstance(a, ast.Starred) for a in call.args)
        ):
            return
        arity = FILLERS.get(func.attr)
        if arity is None or len(call.args) != arity[0]:
            return
        container, wraps = func.value, ""
        while not isinstance(container, ast.Name):
            if isinstance(container, ast.Subscript) and not isinstance(container.slice, ast.Slice):
                index = container.slice
                listed = isinstance(index, ast.Constant) and type(index.value) is int
                wraps += "/*s" if listed else "/*m"
                container = container.value
            elif (
                isinstance(container, ast.Call)
                and isinstance(container.func, ast.Attribute)
                and container.func.attr == "setdefault"
            ):
                wraps += "/*m"
                container = container.func.value
            else:
                return
        self.fill(container, arity[1] + wraps, call.args[-1], scope)

    def fill(self, container: ast.Name, kind: str, value: ast.expr, scope: Scope) -> None:
        """Notes ``value`` put into ``container`` when that is a local of this function or of
        one it is nested in (``kind``: ``fill``, ``fill*`` its items, ``fill[]`` stored at an index or key;
        then the steps of the containers holding that one, ``fill/*s`` for ``rows[0].append(v)``)."""
        target, where = self.lookup(scope, container.id)
        if target != "" or where is None or (where is not scope and where.kind != "function"):
            return
        if where.self_name == container.id:
            return  # `self.append(t)` in a list subclass: a method of the instance, which stays one
        where.values.setdefault(container.id, []).append((kind, value, scope))

    def assert_(self, node: ast.Assert, scope: Scope) -> None:
        self.sink_arguments(node)  # the message is only shown
        self.generic(node, scope, "read")


def _same_wrapped(value: ast.expr, name: str) -> bool:
    """``name`` itself, or ``name`` given to a wrapper that keeps what it calls or makes."""
    if isinstance(value, ast.Name):
        return value.id == name
    return (
        isinstance(value, ast.Call)
        and decorator_name(value.func) in _KEEPING_WRAPPERS
        and len(value.args) == 1
        and isinstance(value.args[0], ast.Name)
        and value.args[0].id == name
    )


# wrappers whose result is called as what they wrap, or is the class given
_KEEPING_WRAPPERS = TRANSPARENT | {"dataclass", "total_ordering", "final", "runtime_checkable", "unique"}
# decorators of a def that binds its name again without making another function of it
_NO_REBINDING = frozenset({"overload", "setter", "getter", "deleter"})
# container methods that put values into it
CHANGERS = frozenset(
    {"append", "extend", "insert", "add", "update", "setdefault", "appendleft", "extendleft"}
)
# a container method putting one value (`fill`) or the items of one (`fill*`) into it: its arity
FILLERS = {"append": (1, "fill"), "add": (1, "fill"), "insert": (2, "fill"), "extend": (1, "fill*")}

_STMT: dict[type, Any] = {
    ast.FunctionDef: Statements.function,
    ast.AsyncFunctionDef: Statements.function,
    ast.ClassDef: Statements.klass,
    ast.Assign: Statements.assign,
    ast.AnnAssign: Statements.ann_assign,
    ast.AugAssign: Statements.aug_assign,
    ast.For: Statements.for_,
    ast.If: Statements.if_,
    ast.AsyncFor: Statements.for_,
    ast.With: Statements.with_,
    ast.AsyncWith: Statements.with_,
    ast.Import: Statements.import_,
    ast.ImportFrom: Statements.import_from,
    ast.Global: Statements.global_,
    ast.Nonlocal: Statements.global_,
    ast.Expr: Statements.expr_stmt,
    ast.Assert: Statements.assert_,
}


def _rebinds(body: list[ast.stmt], name: str) -> bool:
    """Whether ``body`` binds ``name`` again (an assignment, a loop or ``with`` target, …)."""
    return any(
        isinstance(inner, ast.Name) and inner.id == name and not isinstance(inner.ctx, ast.Load)
        for stmt in body
        for inner in ast.walk(stmt)
    )


def literal_tests(test: ast.expr, body: list[ast.stmt]) -> dict[str, frozenset[str]]:
    """``name in {"a", "b"}`` / ``name == "a"`` / ``name := {"old": "new"}.get(key)``: the
    strings the name holds where the test is true (``body``, which must not bind it again)."""
    if isinstance(test, ast.NamedExpr) and isinstance(test.target, ast.Name):
        # (a module `__getattr__` serving deprecated names: `globals()[name]` is one of the values)
        looked_up = _looked_up_strings(test.value)
        name = test.target.id
        return {name: looked_up} if looked_up and not _rebinds(body, name) else {}
    if not (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.In | ast.Eq)
        and isinstance(test.left, ast.Name)
    ):
        return {}
    given = test.comparators[0]
    equal = isinstance(test.ops[0], ast.Eq)
    items = [given] if equal else given.elts if isinstance(given, ast.Set | ast.Tuple | ast.List) else []
    values = [item.value for item in items if isinstance(item, ast.Constant) and type(item.value) is str]
    if len(values) != len(items) or not values:
        return {}
    name = test.left.id
    return {} if _rebinds(body, name) else {name: frozenset(values)}


def _looked_up_strings(node: ast.expr) -> frozenset[str] | None:
    """The strings a lookup in a dict display of string values gives, when it gives one
    (``{"tagMap": "TAG_MAP"}.get(attr)``, with a string default too; ``{…}[attr]``)."""
    default: list[ast.expr] = []
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "get"
        and 1 <= len(node.args) <= 2
        and not node.keywords
    ):
        table, default = node.func.value, node.args[1:]
    elif isinstance(node, ast.Subscript):
        table = node.value
    else:
        return None
    if not isinstance(table, ast.Dict) or None in table.keys:
        return None  # (`{**other, …}` may bring any value)
    values = [*table.values, *(d for d in default if not (isinstance(d, ast.Constant) and d.value is None))]
    if not values or not all(isinstance(v, ast.Constant) and type(v.value) is str for v in values):
        return None
    return frozenset(str(v.value) for v in values if isinstance(v, ast.Constant))


def _returns_receivers_kind(function: ast.FunctionDef | ast.AsyncFunctionDef, classy: bool) -> bool:
    """Whether every return of the method ``function`` gives its receiver (``return self``) or
    a new instance of the receiver's class (``return cls(…)`` in a classmethod, ``type(self)(…)``,
    ``self.__class__(…)``): called on a subclass, it gives that subclass's kind."""
    positional = function.args.posonlyargs + function.args.args
    if not positional:
        return False
    me = positional[0].arg
    returned, yielded = returned_values(function)
    if yielded or not returned:
        return False
    for value in returned:
        if classy:
            made = isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == me
        else:
            func = value.func if isinstance(value, ast.Call) else None
            made = (isinstance(value, ast.Name) and value.id == me) or (
                isinstance(func, ast.Attribute)
                and func.attr == "__class__"
                and isinstance(func.value, ast.Name)
                and func.value.id == me
            )
            made = made or (
                isinstance(func, ast.Call)
                and isinstance(func.func, ast.Name)
                and func.func.id == "type"
                and len(func.args) == 1
                and isinstance(func.args[0], ast.Name)
                and func.args[0].id == me
            )
        if not made:
            return False
    return True


_SYS = "I:0:sys:"  # what `import sys` binds


def _exception_reads(body: list[ast.stmt]) -> Iterator[ast.expr]:
    """``sys.exc_info()[1]`` and ``sys.exception()`` in a handler's own statements (not in the
    functions, classes or lambdas it defines, which may run after it)."""
    pending: list[ast.AST] = list(body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            continue
        if isinstance(node, ast.expr) and _caught_read(node):
            yield node
        pending.extend(ast.iter_child_nodes(node))


def _caught_read(node: ast.expr) -> bool:
    """Whether ``node`` is ``sys.exc_info()[1]`` or ``sys.exception()``."""
    if isinstance(node, ast.Subscript):
        index = node.slice
        return isinstance(index, ast.Constant) and index.value == 1 and _sys_call(node.value, "exc_info")
    return _sys_call(node, "exception")


def _sys_call(node: ast.expr, name: str) -> bool:
    """Whether ``node`` is ``sys.<name>()``, without arguments."""
    return (
        isinstance(node, ast.Call)
        and not node.args
        and not node.keywords
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == name
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "sys"
    )
