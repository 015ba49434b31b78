"""The expression walk of the Python fact pass: uses, targets, comprehensions, patterns."""

from __future__ import annotations

import ast
import re
from abc import abstractmethod

from astmcp.resolve.python_namespace import folded, member_template, namespace_key
from astmcp.resolve.python_records import PatternKeyword, Records
from astmcp.resolve.python_scope import Pending, Scope, all_args, func_name, is_none, narrow_key
from astmcp.resolve.python_vocab import (
    ALIASABLE,
    CASTS,
    DOTTED,
    IDENT,
    MAX_STRING,
    MOCK_CALLS,
    NESTED,
    STR_ATTR_FUNCS,
    TYPE_VARS,
)
from astmcp.resolve.templates import TEMPLATE, TEMPLATE_NAME, TEMPLATE_OWNER, template_target


class Expressions(Records):
    # The statement walk (python_stmts) an expression's subtree can reach.
    @abstractmethod
    def stmt(self, node: ast.stmt, scope: Scope) -> None: ...

    @abstractmethod
    def except_handler(self, node: ast.excepthandler, scope: Scope) -> None: ...

    def generic(self, node: ast.AST, scope: Scope, kind: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.stmt):
                self.stmt(child, scope)
            elif isinstance(child, ast.expr):
                self.expr(child, scope, kind)
            elif isinstance(child, ast.excepthandler):
                self.except_handler(child, scope)
            elif isinstance(child, ast.pattern):
                self.pattern(child, scope)
            elif isinstance(child, NESTED):
                self.generic(child, scope, kind)

    def expr(self, node: ast.expr, scope: Scope, kind: str) -> None:
        cls = type(node)
        if cls is ast.Name:
            assert isinstance(node, ast.Name)
            ctx = type(node.ctx)
            if ctx is ast.Load:
                if self.narrowed and node.id in self.narrowed:
                    self.typed_uses[id(node)] = self.narrowed[node.id]
                self.name_occurrence(node, scope, kind)
                if (
                    kind != "call"
                    and id(node) not in self.reduce_readers
                    and (
                        node.id in ("attrgetter", "methodcaller")
                        or (node.id in _NAME_READERS and self.lookup(scope, node.id)[0] == "G:" + node.id)
                    )
                ):
                    # `map(getattr, objs, names)`, `default=vars`: called elsewhere, with anything
                    self.dynamic_sites.append((scope, None, node.lineno))
            else:
                if not (ctx is ast.Del and scope.kind in ("module", "class")):
                    # (`del toolz` after a module's last use of an import: no new value; the
                    # uses before it read the import)
                    self.bind(scope, node.id, "")
                self.name_occurrence(node, scope, "write")
        elif cls is ast.Attribute:
            assert isinstance(node, ast.Attribute)
            ctx = type(node.ctx)
            self.expr(node.value, scope, "type" if kind == "type" else "read")
            if node.attr in _NAMESPACES:  # `x.__dict__[k]`, `super().__reduce__()`: of self
                self.dynamic_sites.append((scope, _self_if_super(node.value), node.lineno))
                self.lists_names = self.lists_names or node.attr == "__dict__"
            elif node.attr in ("f_globals", "f_locals"):
                self.lists_names = True  # a caller's namespace, read whole (ply's `yacc()`)
            elif node.attr in ("__name__", "__qualname__") and ctx is ast.Load:
                self.name_sites.append((scope, node.value, node.lineno))  # `f.__name__`
            elif node.attr in ("co_name", "co_qualname", "funcName") and ctx is ast.Load:
                # the name of whatever function a frame or log record ran: any function's
                self.name_sites.append((scope, None, node.lineno))
            elif kind != "call" and node.attr in ("attrgetter", "methodcaller"):
                self.dynamic_sites.append((scope, None, node.lineno))  # `key=operator.attrgetter`
            if self.narrowed and ctx is ast.Load:
                key = narrow_key(node)
                if key in self.narrowed:
                    self.typed_uses[id(node)] = self.narrowed[key]
            if ctx is not ast.Load:
                occ = "write"
            elif kind == "read":
                occ = "attribute"
            else:
                occ = kind
            self.attr_occurrence(node, scope, occ)
        elif cls is ast.Call:
            assert isinstance(node, ast.Call)
            self.namespace_read(node, scope)
            self.note_attr_paths(node)  # (before the receiver of `"x y".split()` is read)
            self.expr(node.func, scope, "call")
            cast = (
                len(node.args) == 2
                and func_name(node.func) == "cast"
                and self.chain(scope, node.func) in CASTS
            )
            if cast:  # `cast(TextIO, writer)`: the value is used as a T from here on
                self.casts.append((scope, node.args[0], node.args[1]))
            # `TypeVar("Self", bound="PathSpec")`, `TypeVar("T", "A", "B")`: types, strings too
            typevar = func_name(node.func) == "TypeVar" and (self.chain(scope, node.func) or "").startswith(
                ("I:0:typing:", "I:0:typing_extensions:")
            )
            self.passes.extend(
                (scope, node.func, key, value)
                for key, given in (
                    *((f"#{n}", a) for n, a in enumerate(node.args) if not isinstance(a, ast.Starred)),
                    *((f"={k.arg}", k.value) for k in node.keywords if k.arg is not None),
                )
                # `select.select([conn], …)`: each item of a display is given too
                for value in (given.elts if isinstance(given, ast.List | ast.Tuple | ast.Set) else (given,))
                if isinstance(value, ast.Name | ast.Attribute | ast.Call)
            )
            first = node.args[0] if node.args else None
            if (
                isinstance(first, ast.Constant)
                and isinstance(first.value, str)
                and DOTTED.fullmatch(first.value)
            ):
                self.path_patches.append((scope, node))  # `mock.patch("pkg.m.make", fake)`?
            # (and the items of a display given: `invoke(cli, ["cmd", "--help"])`)
            self.call_args.update(
                (id(arg), (node, scope))
                for given in (*node.args, *(k.value for k in node.keywords))
                for arg in _shown_strings(given)
            )
            named = self.attribute_string(node, scope)  # `getattr(x, "name")`: read as `x.name`
            if named is None:
                self.computed_member(node, scope)
                self.dynamic_site(node, scope)
                self.affix_call(node, scope)
            self.named_keys.update(
                id(k.value) for k in node.keywords if k.arg is None and isinstance(k.value, ast.Dict)
            )
            self.sink_arguments(node)
            self.item_lambda(node, scope)
            for n, arg in enumerate(node.args):
                if arg is not named:
                    self.expr(arg, scope, "type" if (cast and n == 0) or (typevar and n > 0) else "read")
            for keyword in node.keywords:
                self.expr(keyword.value, scope, "type" if typevar and keyword.arg == "bound" else "read")
                if (
                    keyword.arg is None
                    and isinstance(keyword.value, ast.Dict)
                    and func_name(node.func) in MOCK_CALLS
                ):
                    self.mock_keys(keyword.value, scope)
                if keyword.arg is not None:
                    # `Cls(field=...)`: a field of a class without its own __init__ (dataclass-like)
                    line = keyword.lineno
                    col = self.col(line, keyword.col_offset)
                    end = col + len(keyword.arg)
                    self.pending.append(Pending(keyword.arg, line, col, end, "write", node, scope))
        elif cls is ast.Constant:
            assert isinstance(node, ast.Constant)
            if self.named_strings and id(node) in self.named_strings:
                self.named_string(node, self.named_strings[id(node)], scope)
            elif self.key_strings and id(node) in self.key_strings:
                self.key_string(node, self.key_strings[id(node)], scope)
            elif self.sink_strings and id(node) in self.sink_strings:
                self.sink_string(node, scope)
            elif type(node.value) is bytes or (  # bytes too: code run from them (`input=b"..."`)
                type(node.value) is str and (kind != "type" or not self.string_annotation(node, scope))
            ):
                self.string(node, scope)
        elif cls is ast.Subscript:
            assert isinstance(node, ast.Subscript)
            self.namespace_read(node, scope)
            typed = kind in ("type", "inherit")  # `class A(Base[T])` inherits from Base
            # `Handler = Callable[["Job"], bool]`: a typing construct's arguments are types anywhere
            # (quoted ones forward references), not only in annotations
            form = self.typing_form(node.value, scope)
            typed = typed or bool(form)
            if not typed and isinstance(node.slice, ast.Constant) and type(node.slice.value) is str:
                self.data_keys.add(id(node.slice))  # `row["name"]`
            self.expr(node.value, scope, kind if kind in ("type", "inherit") else "read")
            if form == "Literal":
                # `Literal["stdout"]`: values (data, as a dict's keys), no forward reference
                values = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
                self.data_keys.update(
                    id(v) for v in values if isinstance(v, ast.Constant) and type(v.value) is str
                )
                self.expr(node.slice, scope, "read")
            elif form == "Annotated" and isinstance(node.slice, ast.Tuple) and node.slice.elts:
                # `Annotated[int, "Job"]`: a type, then metadata (values)
                first, *metadata = node.slice.elts
                self.expr(first, scope, "type")
                for extra in metadata:
                    self.expr(extra, scope, "read")
            else:
                self.expr(node.slice, scope, "type" if typed else "read")
        elif cls is ast.Tuple and (reduced := _reduced(node)) is not None:
            # `return getattr, (self.__class__, self.name)` (a `__reduce__`): called with those
            self.reduce_readers.add(id(reduced[0]))
            self.dynamic_sites.append((scope, reduced[1], node.lineno))
            self.generic(node, scope, "type" if kind == "type" else "read")
        elif cls is ast.Compare:
            # `x == "name"`, `suffix in {"command", "cmd"}`: compared with data
            assert isinstance(node, ast.Compare)
            self.affix_slice(node, scope)
            self.data_keys.update(
                id(item) for operand in (node.left, *node.comparators) for item in _shown_strings(operand)
            )
            self.generic(node, scope, "type" if kind == "type" else "read")
        elif cls is ast.Dict:
            assert isinstance(node, ast.Dict)
            if kind != "type" and id(node) not in self.named_keys:
                self.data_keys.update(
                    id(k) for k in node.keys if isinstance(k, ast.Constant) and type(k.value) is str
                )
            self.generic(node, scope, "type" if kind == "type" else "read")
        elif cls is ast.Lambda:
            assert isinstance(node, ast.Lambda)
            self.arguments_defaults(node.args, scope)
            inner = Scope("function", scope.path, scope)
            self.comp_scopes[id(node)] = inner
            self.bind_params(node.args, inner, None)
            items = self.lambda_items.pop(id(node), None)
            positional = node.args.posonlyargs + node.args.args
            if items is not None and positional:
                inner.values[positional[0].arg] = [("iter", items, scope)]
            saved = self.narrowed
            self.narrowed = {}  # a lambda runs later: a narrowing may no longer hold
            self.expr(node.body, inner, "read")
            self.narrowed = saved
        elif cls is ast.BoolOp:
            assert isinstance(node, ast.BoolOp)
            # `isinstance(x, C) and x.m`: the operands after the test see x as a C
            saved = self.narrowed
            for value in node.values:
                self.expr(value, scope, "read")
                # (`not isinstance(x, C) or x.m`: the operands after a false one see x as a C)
                truth = isinstance(node.op, ast.And)
                self.narrow(self.isinstance_tests(value, scope, truth), node.values, scope)
            self.narrowed = saved
        elif cls in (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp):
            self.comprehension(node, scope)
        elif cls is ast.IfExp:
            assert isinstance(node, ast.IfExp)
            # `x.m if isinstance(x, C) else d`: the branch the test selects sees x as a C
            self.expr(node.test, scope, "read")
            saved = self.narrowed
            self.narrow(self.isinstance_tests(node.test, scope, True), [node.body], scope)
            self.expr(node.body, scope, kind)
            self.narrowed = saved
            self.narrow(self.isinstance_tests(node.test, scope, False), [node.orelse], scope)
            self.expr(node.orelse, scope, kind)
            self.narrowed = saved
        elif cls is ast.NamedExpr:
            assert isinstance(node, ast.NamedExpr)
            self.expr(node.value, scope, "read")
            target_scope = scope
            while target_scope.kind == "comp" and target_scope.parent is not None:
                target_scope = target_scope.parent
            if target_scope.kind == "module" and node.target.id not in target_scope.binds:
                # a module-level `(x := …)` declares no symbol: x is typed like a local
                target_scope.binds[node.target.id] = ""
                target_scope.values[node.target.id] = [("expr", node.value, target_scope)]
            else:
                self.bind(target_scope, node.target.id, "", ("expr", node.value))
            self.name_occurrence(node.target, scope, "write")
        elif cls is ast.Starred:
            assert isinstance(node, ast.Starred)
            self.expr(node.value, scope, kind)
        elif cls is ast.JoinedStr:
            assert isinstance(node, ast.JoinedStr)
            if self.sink_strings and id(node) in self.sink_strings:
                self.sink_string(node, scope)
            else:
                self.fstring(node, scope)
            fields = [v for v in node.values if isinstance(v, ast.FormattedValue)]
            while fields:  # the fields' code; a format spec's literal text is part of the f-string's
                value = fields.pop()
                self.expr(value.value, scope, "read")
                if isinstance(value.format_spec, ast.JoinedStr):
                    fields.extend(v for v in value.format_spec.values if isinstance(v, ast.FormattedValue))
        else:
            self.generic(node, scope, "type" if kind == "type" else "read")

    def comprehension(self, node: ast.expr, scope: Scope) -> None:
        generators: list[ast.comprehension] = node.generators  # type: ignore[attr-defined]
        inner = Scope("comp", scope.path, scope)
        self.comp_scopes[id(node)] = inner
        tests = []
        for n, gen in enumerate(generators):
            self.expr(gen.iter, scope if n == 0 else inner, "read")
            self.loop_target(gen.target, inner, gen.iter, scope if n == 0 else inner)
            for cond in gen.ifs:
                self.expr(cond, inner, "read")
                tests.extend(self.isinstance_tests(cond, inner, True))
        saved = self.narrowed
        # `[p for p in ps if isinstance(p, C)]`: the element sees p as a C
        elements = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]  # type: ignore[attr-defined]
        self.narrow(tests, elements, inner)
        for element in elements:
            self.expr(element, inner, "read")
        self.narrowed = saved

    def target(
        self, node: ast.expr, scope: Scope, value: ast.expr | None, ann: ast.expr | None = None
    ) -> None:
        """An assignment target: binds names, records writes and value types."""
        if isinstance(node, ast.Name):
            if ann is not None:
                source: tuple[str, ast.AST | str] | None = ("ann", ann)
            elif value is not None:
                source = ("expr", value)
            else:
                source = None
            self.bind(scope, node.id, "", source)
            self.name_occurrence(node, scope, "write")
            type_var = ann is None and isinstance(value, ast.Call) and func_name(value.func) in TYPE_VARS
            if scope.kind in ("module", "class") and type_var:
                # `x: T` with `T = TypeVar("T")` is any type: no instance of what TypeVar returns; with
                # `bound=B`, a B or a subclass (whose members are B's override families): as a B
                assert isinstance(value, ast.Call)
                if func_name(value.func) == "TypeVar":
                    self.type_vars.append(f"{scope.path}.{node.id}" if scope.path else node.id)
                bound = next((k.value for k in value.keywords if k.arg == "bound"), None)
                if bound is not None and len(value.args) == 1:
                    path = f"{scope.path}.{node.id}" if scope.path else node.id
                    self.deferred_types.append(("b", path, bound, scope, True))
            elif scope.kind in ("module", "class"):
                path = f"{scope.path}.{node.id}" if scope.path else node.id
                if ann is not None:
                    self.deferred_types.append(("v", path, ann, scope, True))
                elif isinstance(value, ast.Subscript) and func_name(value.value) in ALIASABLE:
                    self.deferred_types.append(("a", path, value, scope, True))
                elif value is not None:
                    self.deferred_types.append(("v", path, value, scope, False))
            elif node.id in scope.globals and ann is None:
                # `global handler; handler = B()` in a function: another value of the module's name
                # (unknown when none is given: a loop or unpacking target)
                self.deferred_types.append(
                    ("g", node.id, value or ast.Name(id="?", ctx=ast.Load()), scope, False)
                )
        elif isinstance(node, ast.Tuple | ast.List):
            whole = (
                value is not None
                and scope.kind == "function"
                and not any(isinstance(e, ast.Starred) for e in node.elts)
            )
            starred = [e for e in node.elts if isinstance(e, ast.Starred)]
            if whole:
                assert value is not None
                self.part_targets(node, scope, "part", value, None)  # `a, b = pair`
            elif value is not None and scope.kind == "function" and len(starred) == 1:
                # `first, *mid, last = key`: each name but the starred one is an item of key
                for elt in node.elts:
                    named = elt.value if isinstance(elt, ast.Starred) else elt
                    if isinstance(named, ast.Name):  # (the starred one a list of items)
                        self.bind(scope, named.id, "", ("rest" if elt is not named else "iter", value))
                        self.name_occurrence(named, scope, "write")
                    else:
                        self.target(elt, scope, None)
            else:
                for elt in node.elts:
                    self.target(elt, scope, None)
        elif isinstance(node, ast.Starred):
            self.target(node.value, scope, None)
        elif isinstance(node, ast.Attribute):
            self.expr(node, scope, "read")
            recv = node.value
            where = self.lookup(scope, recv.id)[1] if isinstance(recv, ast.Name) else None
            if where is not None and where.cls and isinstance(recv, ast.Name) and where.self_name == recv.id:
                path = f"{where.cls}.{node.attr}"
                if ann is not None:
                    self.deferred_types.append(("v", path, ann, scope, True))
                elif value is not None:
                    self.deferred_types.append(("v", path, value, scope, False))
            elif value is None or not is_none(value):
                # `holder.handler = B()`, `registry.HANDLER = B()`: a value its declaration and
                # its class's methods do not show (-> ``stores``)
                self.attribute_stores.append((scope, node, value))
        else:
            self.expr(node, scope, "read")

    def loop_target(
        self, node: ast.expr, scope: Scope, items: ast.expr, items_scope: Scope | None = None
    ) -> None:
        """A ``for`` / comprehension target: a local name is typed as an item of ``items``
        (the n-th of each item for ``a, b`` targets)."""
        if scope.kind == "module" and isinstance(node, ast.Name) and node.id not in scope.binds:
            # a module-level `for x in …` declares no symbol: x is typed like a local
            scope.binds[node.id] = ""
            scope.values[node.id] = [("iter", self.same_items(items, scope), scope)]
            self.name_occurrence(node, scope, "write")
            return
        if scope.kind not in ("function", "comp"):
            self.target(node, scope, None)
            return
        items = self.same_items(items, items_scope or scope)
        if isinstance(node, ast.Name):
            self.bind(scope, node.id, "", ("iter", items), items_scope)
            self.name_occurrence(node, scope, "write")
            return
        if isinstance(node, ast.Tuple | ast.List) and not any(isinstance(e, ast.Starred) for e in node.elts):
            self.part_targets(node, scope, "iter", items, items_scope)
            return
        self.target(node, scope, None)

    def part_targets(
        self, node: ast.Tuple | ast.List, scope: Scope, kind: str, value: ast.expr, value_scope: Scope | None
    ) -> None:
        """``a, (b, c)`` unpacking ``value`` (``kind`` "part") or each item of it ("iter"): a name is
        the n-th part (``part#1``, ``iter#1``), a nested one the part of a part (``iter#1/#0``)."""
        for n, elt in enumerate(node.elts):
            sub = f"{kind}#{n}"
            if isinstance(elt, ast.Name):
                self.bind(scope, elt.id, "", (sub, value), value_scope)
                self.name_occurrence(elt, scope, "write")
            elif isinstance(elt, ast.Tuple | ast.List) and not any(
                isinstance(e, ast.Starred) for e in elt.elts
            ):
                self.part_targets(elt, scope, f"{sub}/", value, value_scope)
            else:
                self.target(elt, scope, None)

    def arguments_defaults(self, args: ast.arguments, scope: Scope) -> None:
        for default in args.defaults:
            self.expr(default, scope, "read")
        for kw_default in args.kw_defaults:
            if kw_default is not None:
                self.expr(kw_default, scope, "read")

    def item_lambda(self, node: ast.Call, scope: Scope) -> None:
        """``sorted(xs, key=lambda c: …)`` (``min``/``max`` of one iterable), ``map``/``filter(lambda
        c: …, xs)``: the builtin calls the lambda with the items of xs (``lambda_items``)."""
        func, args = node.func, node.args
        if not isinstance(func, ast.Name) or not args or any(isinstance(a, ast.Starred) for a in args):
            return
        if func.id in ("sorted", "min", "max") and len(args) == 1:
            key = next((k.value for k in node.keywords if k.arg == "key"), None)
            lam, items = key, args[0]
        elif func.id in ("map", "filter") and len(args) >= 2:
            lam, items = args[0], args[1]
        else:
            return
        if isinstance(lam, ast.Lambda) and self.lookup(scope, func.id)[0] == "G:" + func.id:
            self.lambda_items[id(lam)] = items

    def bind_params(
        self, args: ast.arguments, inner: Scope, node: ast.AST | None, given: str | None = None
    ) -> None:
        """Binds the parameters; ``given``: the chain of a decorator that receives the function,
        whose own parameter's ``Callable[[A, B], R]`` says what the positional ones are given."""
        params = all_args(args)
        positional = args.posonlyargs + args.args
        # `def getter(val, field=field)` / `lambda v, f=f: …` nested in a function: the default
        # captures a value of the enclosing scope, which the parameter holds (callers leave it)
        captured = (
            {
                arg.arg: default
                for arg, default in (
                    *zip(positional[len(positional) - len(args.defaults) :], args.defaults, strict=True),
                    *zip(args.kwonlyargs, args.kw_defaults, strict=True),
                )
                if isinstance(default, ast.Name)
            }
            if inner.parent is not None and inner.parent.kind in ("function", "comp")
            else {}
        )
        for n, arg in enumerate(params):
            if arg is args.vararg or arg is args.kwarg:
                # `*args: T` is a `tuple[T, ...]`, `**kwargs: T` a `dict[str, T]`; unannotated, a
                # tuple and a dict of unknown items
                held = self.packed_annotation(arg, arg is args.vararg, inner)
                if held is not None:
                    self.bind(inner, arg.arg, "", ("ann", held), inner.parent)
                else:
                    self.bind(inner, arg.arg, "", ("chain", "L:tuple" if arg is args.vararg else "L:dict"))
            elif n == 0 and inner.self_chain and arg in positional[:1]:
                inner.self_name = arg.arg
                self.bind(inner, arg.arg, "", ("chain", inner.self_chain))
            elif arg.annotation is not None:
                # read where Python evaluates it: the enclosing scope (a method's: its class body,
                # so `finalize: _FinalizeInfo` names the nested class)
                self.bind(inner, arg.arg, "", ("ann", arg.annotation), inner.parent)
                self.param_annotations.add(id(arg.annotation))
            elif given and not inner.self_chain and arg in positional:
                self.bind(inner, arg.arg, "", ("chain", f"{given}/@{n}"))
            elif inner.self_chain and inner.cls and n > 0 and arg in positional and overriding(node):
                # an override's parameter is given what the overridden method declares it takes
                method = overriding(node)
                self.bind(inner, arg.arg, "", ("chain", f"S:{inner.cls}/^/{method}/%{n}"))
            elif arg.arg in captured:
                self.bind(inner, arg.arg, "", ("expr", captured[arg.arg]), inner.parent)
            else:
                self.bind(inner, arg.arg, "")

    def packed_annotation(self, arg: ast.arg, positional: bool, inner: Scope) -> ast.expr | None:
        """``tuple[T, ...]`` for ``*args: T``, ``dict[str, T]`` for ``**kwargs: T`` (made here, at
        the annotation's place), when the builtin is what the name means there; None unannotated,
        for ``Unpack[…]`` (``**kwargs: Unpack[Movie]`` is the TypedDict itself) and a starred
        ``*args: *Ts``."""
        annotation = arg.annotation
        if annotation is None or isinstance(annotation, ast.Starred) or inner.parent is None:
            return None
        head = annotation.value if isinstance(annotation, ast.Subscript) else None
        if (
            isinstance(head, ast.Name | ast.Attribute)
            and (head.id if isinstance(head, ast.Name) else head.attr) == "Unpack"
        ):
            return None
        builtin = "tuple" if positional else "dict"
        if self.lookup(inner.parent, builtin)[0] != "G:" + builtin:
            return None  # (the module binds a `tuple` or `dict` of its own)
        other: ast.expr = ast.Constant(Ellipsis) if positional else ast.Name("str", ast.Load())
        parts = [annotation, other] if positional else [other, annotation]
        head = ast.Name(builtin, ast.Load())
        items = ast.Tuple(parts, ast.Load())
        made = ast.Subscript(head, items, ast.Load())
        for node in (made, head, items, other):  # (the annotation keeps its own place)
            ast.copy_location(node, annotation)
        self.packed.append(made)  # (kept alive: chains are memoized by node id)
        return made

    def pattern(self, node: ast.pattern, scope: Scope) -> None:
        if isinstance(node, ast.MatchAs | ast.MatchStar) and node.name:
            self.bind(scope, node.name, "")
        elif isinstance(node, ast.MatchMapping) and node.rest:
            self.bind(scope, node.rest, "")
        if isinstance(node, ast.MatchClass):
            self.expr(node.cls, scope, "type")
            for sub in node.patterns:
                self.pattern(sub, scope)
            for name, sub in zip(node.kwd_attrs, node.kwd_patterns, strict=True):
                self.pattern_keyword(node, name, sub, scope)
                self.pattern(sub, scope)
            return
        self.generic(node, scope, "read")

    def mock_keys(self, mapping: ast.Dict, scope: Scope) -> None:
        """``MagicMock(Svc, **{"fetch.return_value": 1})``, ``m.configure_mock(**{…})``: each key's
        first part names an attribute the mock is given (a name hit, never edited)."""
        for key in mapping.keys:
            if not isinstance(key, ast.Constant) or type(key.value) is not str:
                continue
            first = key.value.split(".", 1)[0]
            start = self.col(key.lineno, key.col_offset)  # the quote
            if IDENT.fullmatch(first) and self.line_text(key.lineno)[start : start + len(first)] == first:
                self.rows.append(
                    (first, key.lineno, start + 1, start + 1 + len(first), "string", None, scope.path)
                )

    def pattern_keyword(self, node: ast.MatchClass, name: str, sub: ast.pattern, scope: Scope) -> None:
        """``case Point(x=0)`` reads ``x`` of the subject, a Point: found before its pattern."""
        line = sub.lineno
        before = self.line_text(line)[: self.col(line, sub.col_offset) - 1]
        found = re.search(rf"(?<![\w.]){re.escape(name)}\s*=\s*$", before)
        if found is None:  # the keyword on a line of its own, before its pattern's
            return
        keyword = PatternKeyword(value=node.cls, attr=name, ctx=ast.Load())
        keyword.cls = node.cls
        col = found.start() + 1
        self.pending.append(Pending(name, line, col, col + len(name), "attribute", keyword, scope))

    def namespace_read(self, node: ast.Subscript | ast.Call, scope: Scope) -> None:
        """``globals()[f"_{name}"]`` and the like (python_namespace): noted for ``finish``, which
        gives each top-level name the key may be a name hit here. A parameter the module's calls
        give ``globals()`` (``module_globals.get(f"_DEPRECATED_{name}")``) is that namespace."""
        node = self.as_globals(node, scope)
        # `locals()[f"_{name}"]` in a function: one of the function's own names (textx picks its
        # nested `_setattr` so)
        local = scope.kind == "function" and _reads_locals(node)
        found = namespace_key(
            node,
            lambda name: self.lookup(scope, name)[0] == "G:" + name,
            lambda expr: self.chain(scope, expr),
            scope.kind == "module" or local,
        )
        if found is not None:
            # (the key: `globals()[k]`, `globals().get(k, d)`, `getattr(sys.modules[__name__], k)`)
            at = 1 if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) else 0
            key = (
                node.slice
                if isinstance(node, ast.Subscript)
                else node.args[at]
                if len(node.args) > at
                else None
            )
            exact = _exact_names(key, self.known_strings) if key is not None else None
            self.dynamic.append(
                (*self.first_line_span(node), *found, scope.path, exact, scope if local else None)
            )

    def as_globals(self, node: ast.Subscript | ast.Call, scope: Scope) -> ast.Subscript | ast.Call:
        """``node`` read off ``globals()`` instead of a parameter given it (see namespace_read)."""
        if isinstance(node, ast.Subscript):
            receiver = node.value
        elif isinstance(node.func, ast.Attribute):
            receiver = node.func.value
        else:
            return node
        if not (
            isinstance(receiver, ast.Name)
            and scope.kind == "function"
            and (scope.path, receiver.id) in self.globals_params
            and self.lookup(scope, receiver.id)[1] is scope
        ):
            return node
        made = ast.copy_location(
            ast.Call(func=ast.Name(id="globals", ctx=ast.Load()), args=[], keywords=[]), receiver
        )
        if isinstance(node, ast.Subscript):
            return ast.copy_location(ast.Subscript(value=made, slice=node.slice, ctx=node.ctx), node)
        assert isinstance(node.func, ast.Attribute)
        func = ast.copy_location(ast.Attribute(value=made, attr=node.func.attr, ctx=ast.Load()), node.func)
        return ast.copy_location(ast.Call(func=func, args=node.args, keywords=node.keywords), node)

    def made_by_call(self, made: ast.expr) -> ast.expr:
        """What a call of one of the module's functions returning a made member name gives (that
        function's returned expression, python_namespace.made_returns); ``made`` otherwise."""
        if not isinstance(made, ast.Call) or not self.made_returns:
            return made
        func = made.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        return self.made_returns.get(name, made)

    def computed_member(self, node: ast.Call, scope: Scope) -> None:
        """``getattr(self, f"visit_{type(n).__name__}")`` (also ``hasattr``/``setattr``/``delattr``,
        ``"do_" + cmd``): a member reached by a name made at run time, stored as one name hit for
        every symbol whose name fits (python_namespace.member_template)."""
        func, args = node.func, node.args
        if func_name(func) == "methodcaller" and args and not isinstance(args[0], ast.Starred):
            at = 0  # `operator.methodcaller("on_" + evt)`
        elif (
            isinstance(func, ast.Name)
            and func.id in STR_ATTR_FUNCS
            and len(args) >= 2
            and not isinstance(args[1], ast.Starred)
            and self.lookup(scope, func.id)[0] == "G:" + func.id
        ):
            at = 1
        else:
            return
        made, fold = folded(args[at])  # (`getattr(self, name.lower())`)
        if isinstance(made, ast.Name) and scope.kind == "function":
            sources = scope.values.get(made.id, [])  # `name = "visit_" + cls.__name__` just before
            if len(sources) == 1 and sources[0][0] == "expr" and isinstance(sources[0][1], ast.expr):
                made = sources[0][1]
        made = self.made_by_call(made)  # `getattr(self, self._cls_to_func(token.__name__))`
        made, again = folded(made)  # (`name = cls.__name__.upper()` just before)
        fold = fold or again
        exact = _exact_names(made, self.known_strings) if not fold else None
        if exact:
            # `setattr(new, "_" + attr, …)` in `for attr in self._options`: the names it makes, each
            # a name hit (whose text is not the name: never edited)
            line, col, end = self.first_line_span(args[at])
            for name in sorted(exact):
                self.rows.append((name, line, col, end, "string", None, scope.path))
            return
        target = member_template(made, self.module_strings, fold)
        receiver = args[0] if at == 1 else None
        where = self.lookup(scope, receiver.id)[1] if isinstance(receiver, ast.Name) else None
        own = (
            isinstance(receiver, ast.Name)
            and where is not None
            and bool(where.cls)
            and where.self_name == receiver.id
        )
        if (
            target is None
            and own
            and isinstance(made, ast.Attribute)
            and made.attr in ("__name__", "__qualname__")
        ):
            # `getattr(self, node_class.__name__.upper())` (pyflakes's handlers): the whole name
            # is a class's, no literal part; only the object's own members can be reached so
            target = f"{TEMPLATE}{fold or 'c'}*"
        if target is not None and own and where is not None:
            target += f"{TEMPLATE_OWNER}{self.path}::{where.cls}"  # `getattr(self, "parse_" + n)`
        if target is not None:
            line, col, end = self.first_line_span(args[at])
            prefix = target[len(TEMPLATE) + 1 :].partition("*")[0]
            at = self.line_text(line).find(prefix, col - 1, end - 1) if prefix else -1
            if at >= 0:  # the hit is the literal prefix (`visit_` of `f"visit_{name}"`)
                col, end = at + 1, at + 1 + len(prefix)
            self.rows.append((TEMPLATE_NAME, line, col, end, "string", target, scope.path))

    def affix_call(self, node: ast.Call, scope: Scope) -> None:
        """``name.startswith("p_")`` (or ``endswith``, a tuple of literals): see ``affix_test``."""
        func = node.func
        if not (
            isinstance(func, ast.Attribute)
            and func.attr in ("startswith", "endswith")
            and isinstance(func.value, ast.Name)
            and len(node.args) == 1
        ):
            return
        given = node.args[0]
        for part in given.elts if isinstance(given, ast.Tuple) else [given]:
            if isinstance(part, ast.Constant) and type(part.value) is str:
                self.affix_test(part, part.value, func.attr == "startswith", scope)

    def affix_slice(self, node: ast.Compare, scope: Scope) -> None:
        """``f[:2] == "t_"`` (or ``!=``; ``f[-4:] == "_rule"``): see ``affix_test``."""
        if len(node.ops) != 1 or type(node.ops[0]) not in (ast.Eq, ast.NotEq):
            return
        for cut, literal in ((node.left, node.comparators[0]), (node.comparators[0], node.left)):
            if not (
                isinstance(literal, ast.Constant)
                and type(literal.value) is str
                and isinstance(cut, ast.Subscript)
                and isinstance(cut.value, ast.Name)
                and isinstance(cut.slice, ast.Slice)
                and cut.slice.step is None
            ):
                continue
            lower, upper = cut.slice.lower, cut.slice.upper
            if lower is None and isinstance(upper, ast.Constant) and upper.value == len(literal.value):
                self.affix_test(literal, literal.value, True, scope)
            elif (
                upper is None
                and isinstance(lower, ast.UnaryOp)
                and isinstance(lower.op, ast.USub)
                and isinstance(lower.operand, ast.Constant)
                and lower.operand.value == len(literal.value)
            ):
                self.affix_test(literal, literal.value, False, scope)

    def affix_test(self, literal: ast.Constant, text: str, head: bool, scope: Scope) -> None:
        """A name tested by its first or last letters (``head``: first): a made name ``text*`` (or
        ``*text``) reaching every name that fits, kept when the module lists an object's names
        (facts ``finish``): ply finds a lexer's rules as ``[f for f in dir(m) if f[:2] == "t_"]``
        and reads the rest of each name (``t_ignore`` is no rule), so renaming one is no rename of
        a plain member."""
        target = template_target(text, "", False) if head else template_target("", text, False)
        if target is None:
            return
        line, col, end = self.first_line_span(literal)
        self.affix_tests.append((TEMPLATE_NAME, line, col, end, "string", target, scope.path))

    def dynamic_site(self, node: ast.Call, scope: Scope) -> None:
        """Note a call reaching attributes by a name made at run time, with its receiver:
        ``getattr(x, name)`` (and ``setattr``/``hasattr``/``delattr``, ``object.__setattr__(x,
        name, v)``, ``super().__setattr__(name, v)``, ``monkeypatch.setattr(x, name, v)``,
        ``mock.patch.object(x, name)``), ``vars(x)``, ``dir(x)``, ``inspect.getmembers(x)``; with
        no receiver (any object): ``operator.attrgetter(name)``, ``methodcaller(name)``,
        ``type(name, bases, namespace)``."""
        func, args = node.func, node.args
        name = func_name(func)
        if name in MOCK_CALLS and any(
            k.arg is None and not isinstance(k.value, ast.Dict) for k in node.keywords
        ):
            # `m.configure_mock(**config)`, `Mock(spec=C, **attrs)`: attributes set by names in data
            self.dynamic_sites.append((scope, None, node.lineno))
        if any(isinstance(a, ast.Starred) for a in args):
            if name in _DYNAMIC_CALLS:
                self.dynamic_sites.append((scope, None, node.lineno))
            return
        builtin = isinstance(func, ast.Name) and self.lookup(scope, func.id)[0] == "G:" + func.id
        receiver: ast.expr | None = None
        named: ast.expr | None = None
        if isinstance(func, ast.Attribute) and name in _DUNDER_ACCESS:
            if isinstance(func.value, ast.Name) and func.value.id in ("object", "type"):
                receiver, named = (args[0], args[1]) if len(args) > 1 else (None, None)
            elif isinstance(func.value, ast.Call) and func_name(func.value.func) == "super":
                receiver, named = _self_if_super(func.value), args[0] if args else None
            else:
                receiver, named = func.value, args[0] if args else None
        elif name == "getattr_static" and len(args) > 1:  # `inspect.getattr_static(x, name)`
            receiver, named = args[0], args[1]
        elif name in STR_ATTR_FUNCS and (builtin or isinstance(func, ast.Attribute)):
            if len(args) < 2 or (isinstance(args[0], ast.Constant) and not builtin):
                return  # `monkeypatch.setattr("pkg.m.name", v)`: a dotted path (the string rules)
            receiver, named = args[0], args[1]
        elif name == "object" and isinstance(func, ast.Attribute) and func_name(func.value) == "patch":
            receiver, named = (args[0], args[1]) if len(args) > 1 else (None, None)
        elif (name in ("vars", "dir") and builtin and len(args) == 1) or (name in _LISTERS and args):
            # (also what lists an object's attributes by name: `typing.get_type_hints(C)`)
            self.dynamic_sites.append((scope, args[0], node.lineno))
            self.lists_names = True
            return
        elif name in ("globals", "locals") and builtin:
            self.lists_names = True
            if name == "locals":
                self.dynamic_sites.append((scope, None, node.lineno))  # (a class body's namespace)
            return
        elif name in ("attrgetter", "methodcaller"):
            if not (args and all(isinstance(a, ast.Constant) and type(a.value) is str for a in args)):
                self.dynamic_sites.append((scope, None, node.lineno))
            return
        elif name == "type" and builtin and len(args) == 3:
            self.dynamic_sites.append((scope, None, node.lineno))
            return
        elif name in ("eval", "exec", "compile") and builtin:
            if not (args and isinstance(args[0], ast.Constant)):
                self.dynamic_sites.append((scope, None, node.lineno))  # code made at run time
            return
        else:
            return
        if named is None or not (isinstance(named, ast.Constant) and type(named.value) is str):
            self.dynamic_sites.append((scope, receiver, node.lineno))

    def typing_form(self, head: ast.expr, scope: Scope) -> str:
        """The name of the construct of ``typing`` (or ``typing_extensions``, ``collections.abc``)
        that ``head`` is (``Callable`` of ``typing.Callable`` or of ``from typing import
        Callable``), or the builtin generic class it is (``list``); "" for anything else."""
        last = head.id if isinstance(head, ast.Name) else head.attr if isinstance(head, ast.Attribute) else ""
        if not last[:1].isupper() and last not in _BUILTIN_GENERIC_NAMES:
            return ""  # (`xs[i]`, `self.rows[k]`: no chain looked up for the subscripts of values)
        chain = self.chain(scope, head) or ""
        if chain in _BUILTIN_GENERICS:
            return chain[2:]
        for prefix in _TYPING_MODULES:
            if chain.startswith(prefix):
                rest = chain[len(prefix) :].lstrip("/")
                return rest if rest.isidentifier() else ""
        return ""

    def first_line_span(self, node: ast.expr) -> tuple[int, int, int]:
        """(line, column, end column) of ``node`` on its first line (to the line's end when it
        goes on), 1-based code-point columns."""
        line = node.lineno
        end = (
            self.col(line, node.end_col_offset or 0)
            if node.end_lineno == line
            else len(self.line_text(line)) + 1
        )
        return line, self.col(line, node.col_offset), end

    def string_annotation(self, node: ast.Constant, scope: Scope) -> bool:
        """Names inside a quoted annotation (``"Conn"``) as type occurrences."""
        value = str(node.value)
        line = node.lineno
        if node.end_lineno != line or len(value) > MAX_STRING:
            return False
        text = self.line_text(line)
        start = self.col(line, node.col_offset) - 1
        end = self.col(line, node.end_col_offset or 0) - 1
        if text[start + 1 : end - 1] != value or text[start] not in "'\"":
            return False
        try:
            parsed = ast.parse(value, mode="eval")
        except (SyntaxError, ValueError):
            return False
        shift = node.col_offset + 1
        for inner in ast.walk(parsed.body):
            if isinstance(inner, ast.expr):
                inner.lineno = inner.end_lineno = line
                inner.col_offset += shift
                inner.end_col_offset = (inner.end_col_offset or 0) + shift
        self.keep.append(parsed)
        self.expr(parsed.body, scope, "type")
        return True


def overriding(node: ast.AST | None) -> str | None:
    """The name of a method that may override a base's, whose parameter types it then shares;
    None for anything else and for constructors (a subclass's often takes other arguments)."""
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name not in _CONSTRUCTORS:
        return node.name
    return None


_CONSTRUCTORS = ("__init__", "__new__", "__init_subclass__")
# where the constructs whose subscripts are type expressions come from (fact-pass chains)
_TYPING_MODULES = ("I:0:typing:", "I:0:typing_extensions:", "I:0:collections.abc:", "I:0:collections:/abc/")
_BUILTIN_GENERIC_NAMES = frozenset({"list", "dict", "tuple", "set", "frozenset", "type"})
_BUILTIN_GENERICS = frozenset(f"G:{name}" for name in _BUILTIN_GENERIC_NAMES)
# special methods reaching an attribute by the name given (`object.__setattr__(x, name, v)`)
_DUNDER_ACCESS = frozenset({"__getattribute__", "__getattr__", "__setattr__", "__delattr__"})


def _exact_names(key: ast.expr, known: dict[str, frozenset[str]]) -> frozenset[str] | None:
    """The names a made key can be when its one variable part is a name an enclosing test
    says holds one of some strings (``f"_{name}"`` under ``if name in {"Option", …}``)."""
    if not known:
        return None
    if isinstance(key, ast.JoinedStr):
        fields = [v for v in key.values if isinstance(v, ast.FormattedValue)]
        if len(fields) != 1 or fields[0].conversion != -1 or fields[0].format_spec is not None:
            return None
        variable = fields[0].value
        pieces = [(str(v.value) if isinstance(v, ast.Constant) else None) for v in key.values]
    elif isinstance(key, ast.BinOp) and isinstance(key.op, ast.Add):
        variable = key.right if isinstance(key.left, ast.Constant) else key.left
        other = key.left if variable is key.right else key.right
        if not (isinstance(other, ast.Constant) and isinstance(other.value, str)):
            return None
        pieces = [other.value, None] if variable is key.right else [None, other.value]
    else:
        variable, pieces = key, [None]
    if not isinstance(variable, ast.Name) or variable.id not in known:
        return None
    return frozenset("".join(p if p is not None else v for p in pieces) for v in known[variable.id])


def _shown_strings(node: ast.expr) -> list[ast.Constant]:
    """The string literals ``node`` is, or holds as the items of a list, tuple or set display."""
    items = node.elts if isinstance(node, ast.List | ast.Tuple | ast.Set) else [node]
    return [item for item in items if isinstance(item, ast.Constant) and type(item.value) is str]


def _self_if_super(node: ast.expr) -> ast.expr:
    """``self`` for ``super()`` (the instance the method runs on), else ``node``."""
    if isinstance(node, ast.Call) and func_name(node.func) == "super":
        found = ast.Name(id="self", ctx=ast.Load())
        return ast.copy_location(found, node)
    return node


def _reduced(node: ast.expr) -> tuple[ast.Name, ast.expr] | None:
    """``(getattr, (receiver, name))``, a ``__reduce__`` value: the reader and its receiver."""
    if not isinstance(node, ast.Tuple) or len(node.elts) < 2:
        return None
    reader, given = node.elts[0], node.elts[1]
    if (
        isinstance(reader, ast.Name)
        and reader.id in _NAME_READERS
        and isinstance(given, ast.Tuple)
        and given.elts
    ):
        return reader, given.elts[0]
    return None


# attributes holding or listing an object's attributes by name
_NAMESPACES = frozenset(
    {
        "__dict__",
        "__slots__",
        "__annotations__",
        "__match_args__",
        "__getstate__",
        "__reduce__",
        "__reduce_ex__",
        "__abstractmethods__",
    }
)
# functions listing an object's attributes by name (or giving them as keys)
_LISTERS = frozenset({"getmembers", "getmembers_static", "get_type_hints", "get_annotations"})
# builtins reaching attributes by a name they are given, or listing them
_NAME_READERS = frozenset({"getattr", "setattr", "hasattr", "delattr", "vars", "dir"})
# calls reaching attributes by name: with unpacked arguments, of any object
_DYNAMIC_CALLS = (
    STR_ATTR_FUNCS
    | _DUNDER_ACCESS
    | _LISTERS
    | {"attrgetter", "methodcaller", "vars", "type", "eval", "exec", "compile"}
)


def _reads_locals(node: ast.Subscript | ast.Call) -> bool:
    """Whether ``node`` reads the mapping ``locals()`` (or ``vars()``) gives: ``locals()[k]``,
    ``locals().get(k)``."""
    if isinstance(node, ast.Subscript):
        mapping: ast.expr | None = node.value
    else:
        mapping = node.func.value if isinstance(node.func, ast.Attribute) else None
    return (
        isinstance(mapping, ast.Call)
        and isinstance(mapping.func, ast.Name)
        and mapping.func.id in ("locals", "vars")
        and not mapping.args
        and not mapping.keywords
    )
