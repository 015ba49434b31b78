"""Chains: what a Python expression, local or annotation stands for (see :mod:`astmcp.resolve.python_facts`)."""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence

from astmcp.resolve.python_binding import Bindings
from astmcp.resolve.python_scope import (
    Scope,
    call_head,
    call_step,
    class_instance,
    enclosing_class,
    func_name,
    instance_chain,
    is_empty_container,
    is_none,
    string_annotation,
    subscript_args,
    union_sides,
)
from astmcp.resolve.python_vocab import (
    ANY_TYPES,
    ASSERT_RAISES,
    CASTS,
    COPIES,
    DOTTED,
    ITERATORS,
    LITERALS,
    MAPPINGS,
    NEW_CONTAINERS,
    OBJECT_STRINGS,
    PARTIALS,
    PASS_THROUGH,
    PATCHES,
    PYTEST_PARAMS,
    RAISES,
    SELF_TYPES,
    SEQUENCES,
    SPECIAL_FORMS,
    WRAPPERS,
)

# displays and comprehensions: a new builtin container of their items
# `importlib.import_module` (or `pytest.importorskip`) as `import importlib` or `from importlib import import_module` gives it
_IMPORT_MODULE = frozenset(
    {
        "I:0:importlib:/import_module",
        "I:0:importlib:import_module",
        "I:0:pytest:/importorskip",
        "I:0:pytest:importorskip",
    }
)
_SKIP_KEYWORDS = frozenset({"reason", "minversion", "exc_type"})
# an absolute module name: `pkg.mod`
_MODULE_NAME = re.compile(r"[^\W\d]\w*(?:\.[^\W\d]\w*)*")
_DISPLAYS = (ast.List, ast.Tuple, ast.Set, ast.Dict, ast.ListComp, ast.SetComp, ast.DictComp)


# `itertools.chain` as `import itertools` or `from itertools import chain` spell it
_CHAINS = frozenset({"I:0:itertools:/chain", "I:0:itertools:chain"})


def _mapping(node: ast.AST | str) -> bool:
    """Whether ``node`` makes a new dict (a display, a comprehension, ``dict(…)``)."""
    if isinstance(node, ast.Call):
        return isinstance(node.func, ast.Name) and node.func.id in ("dict", "defaultdict", "OrderedDict")
    return isinstance(node, ast.Dict | ast.DictComp)


class Chains(Bindings):
    def local_type(self, scope: Scope, name: str) -> str | None:
        sources = scope.values.get(name)
        if not sources:
            return None
        declared = next(((node, where) for kind, node, where in sources if kind == "ann"), None)
        key = (id(scope), name)
        if declared is not None:
            # `x: T` declares the type of every value x is given in the scope (an annotation naming
            # the local itself, `x: "x | None"`, declares nothing)
            assert isinstance(declared[0], ast.expr)
            if key in self._locals_busy:
                return None
            self._locals_busy.add(key)
            try:
                annotated = instance_chain(self.annotation_chain(declared[1], declared[0]))
                parameter = id(declared[0]) in self.param_annotations
                given = [(node, where) for kind, node, where in sources if parameter and kind == "expr"]
                if annotated is None or not given:
                    return annotated
                # `def humanize(self, locale: str = …)` then `locale = get_locale(locale)`: a
                # parameter the body gives another value is the annotation's or that value's
                # (Python does not check it), unknown when a value is
                values = [self.chain(where, node) for node, where in given if isinstance(node, ast.expr)]
                # (an annotated union's instance, `U:<n>/(i)`: an instance of each alternative)
                number, instance, rest = annotated[2:].partition("/")
                parts = (
                    [f"{part}{instance}{rest}" for part in self.unions[int(number)]]
                    if annotated.startswith("U:") and number.isdigit() and rest in ("", "(i)")
                    else [annotated]
                )
                return self.union([*parts, *values])
            finally:
                self._locals_busy.discard(key)
        if key in self._locals_busy:
            # `x = x.copy()`: a value of x made from x itself; x is the union of its values
            if key not in self._local_unions:
                self._local_unions[key] = len(self.unions)
                self.unions.append([])
            return f"U:{self._local_unions[key]}"
        self._locals_busy.add(key)
        try:
            chains = self.local_values(sources)
        finally:
            self._locals_busy.discard(key)
        if key in self._local_unions:
            n = self._local_unions[key]
            self.unions[n] = (
                list(dict.fromkeys(c for c in chains if c)) if chains and None not in chains else []
            )
            return f"U:{n}"
        return self.union(chains)

    def local_values(self, sources: list[tuple[str, ast.AST | str, Scope]]) -> list[str | None]:
        """The chains of the values a local is given ([None] when one is unknown)."""
        chains: list[str | None] = []
        # `xs = []` then `xs.append(v)`: a list of v; `xs = [a, b] if ... else []`: of a and b
        filled = any(
            kind.startswith("fill")
            or (kind == "expr" and isinstance(node, _DISPLAYS) and not is_empty_container(node))
            for kind, node, _where in sources
        )
        # `table = {…}` then `table[k] = v`: a mapping of v too (a list of v, `items[0] = v`, else)
        mapping = any(kind == "expr" and _mapping(node) for kind, node, _where in sources)
        for kind, node, where in sources:
            if filled and kind == "expr" and is_empty_container(node):
                continue
            if kind.startswith("fill"):
                assert isinstance(node, ast.expr)
                value = self.chain(where, node)
                how, slash, wraps = kind.partition("/")  # (`fill/*s`: in a container inside the local)
                step = "/[]/*s" if how == "fill*" else "/*m" if how == "fill[]" and mapping else "/*s"
                chains.append(f"{value}{step}{slash}{wraps}" if value else None)
            elif kind == "chain":
                assert isinstance(node, str)
                chains.append(node)
            elif kind == "expr":
                assert isinstance(node, ast.expr)
                if not is_none(node):  # `x = None` first: x is an Optional of its other values
                    chains.append(self.chain(where, node))
            elif kind == "enter" or kind.startswith("enter#"):
                # `with m as x`, `with m as (x, y)` (``enter#1``: the second part)
                assert isinstance(node, ast.expr)
                raised = self.raised(where, node) if kind == "enter" else None
                manager = self.chain(where, node)
                part = f"/{kind[5:]}" if kind != "enter" else ""
                stand_in = self.patched(where, node) if kind == "enter" else None
                if raised is not None:
                    chains.append(f"{raised}/*x")
                elif stand_in is not None:
                    chains.append(stand_in)
                else:
                    chains.append(f"{manager}/__enter__/(){part}" if manager else None)
            elif kind.startswith("part#"):
                # `a, b = pair`: a is the first part of pair's tuple type
                assert isinstance(node, ast.expr)
                whole = self.chain(where, node)
                chains.append(f"{whole}/{kind[4:]}" if whole else None)
            elif kind == "exc":
                # `except A as e`, `except (A, B) as e`: an instance of the class (of either)
                assert isinstance(node, ast.expr)
                chains.append(self.instance_of(where, node))
            elif kind == "rest":
                # `first, *rest = xs`: rest is a list of items of xs
                assert isinstance(node, ast.expr)
                items = self.chain(where, node)
                chains.append(f"{items}/[]/*s" if items else None)
            elif kind.startswith("iter"):
                # `for x in xs` (`iter`), `for k, v in xs` (`iter#1`: the second of each item)
                assert isinstance(node, ast.expr)
                items = self.chain(where, node)
                chains.append(f"{items}/[]{kind[4:]}" if items else None)
            else:
                return [None]
            if None in chains:
                return [None]
        return chains

    def raised(self, scope: Scope, manager: ast.expr) -> str | None:
        """``pytest.raises(E)``, ``self.assertRaises(E)``: an instance of E (the exception the
        ``as`` target holds, as ``*x``), else None."""
        if not isinstance(manager, ast.Call) or not manager.args or isinstance(manager.args[0], ast.Starred):
            return None
        func = manager.func
        unittest = isinstance(func, ast.Attribute) and func.attr in ASSERT_RAISES
        if not unittest and self.chain(scope, func) not in RAISES:
            return None
        return self.instance_of(scope, manager.args[0])

    def union(self, chains: Sequence[str | None]) -> str | None:
        """One chain for a value that is any of ``chains`` (all must be known)."""
        if not chains or None in chains:
            return None
        distinct = [c for c in dict.fromkeys(chains) if c is not None]
        return distinct[0] if len(distinct) == 1 else f"U:{self.entry(distinct)}"

    def entry(self, chains: list[str]) -> int:
        """The index of ``chains`` in the ``unions`` table (added once)."""
        key = tuple(chains)
        found = self.union_ids.get(key)
        if found is None:
            found = self.union_ids[key] = len(self.unions)
            self.unions.append(chains)
        return found

    def patched(self, scope: Scope, node: ast.expr) -> str | None:
        """``with patch("pkg.m.obj") as m``: the mock stands in for ``pkg.m.obj`` (its attributes,
        what the code under test calls on it, are that object's), so m is typed as it is (``M:``
        and the path, python_resolver); None for anything else (a ``new`` given in its place:
        that object itself)."""
        if not (
            isinstance(node, ast.Call)
            and len(node.args) == 1
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
            and DOTTED.fullmatch(node.args[0].value)
            and not any(k.arg in (None, "new", "new_callable") for k in node.keywords)
        ):
            return None
        callee = self.chain(scope, node.func) or ""
        # (`try: from unittest.mock import patch` / `except ImportError: from mock import patch`)
        callees = self.unions[int(callee[2:])] if callee.startswith("U:") else [callee]
        if not all(c in PATCHES for c in callees):
            return None
        return "M:" + node.args[0].value.replace(".", "/")

    def alternatives_chain(self, scope: Scope, values: list[ast.expr]) -> str | None:
        """``a or b``, ``a if c else b``: either value. A literal None is no alternative, nor is an
        empty container beside a typed one (``params or []`` iterates over params' items)."""
        values = [v for v in values if not is_none(v)]
        filled = [v for v in values if not is_empty_container(v)]
        return self.union([self.chain(scope, v) for v in (filled or values)])

    def chain(self, scope: Scope, node: ast.expr) -> str | None:
        key = id(node)
        if key in self._chain_memo:
            return self._chain_memo[key]
        if key in self._resolving:
            # a local's own values may use it (`x = x.copy()`): local_type guards that recursion
            return self._chain(scope, node) if isinstance(node, ast.Name) else None
        self._resolving.add(key)
        try:
            result = self._chain(scope, node)
        finally:
            self._resolving.discard(key)
        if not self.walking:
            # during the walk, names bound further on are not bound yet and a local may get more
            # values: a chain computed then (a decorator, a cast's callee) is not kept
            self._chain_memo[key] = result
        return result

    def _chain(self, scope: Scope, node: ast.expr) -> str | None:
        if self.typed_uses:
            narrowed = self.typed_uses.get(id(node))
            if narrowed is not None:
                expr, narrowed_in, value = narrowed
                if not value:
                    return self.instance_of(narrowed_in, expr)
                if isinstance(node, ast.Name) and _one_value(narrowed_in, node.id):
                    return self.chain(narrowed_in, expr)
        if isinstance(node, ast.Name):
            target, where = self.lookup(scope, node.id)
            if target and where is self.module and node.id in self.alternatives:
                # `try: import pkg._cext as impl` / `except ImportError: import pkg._pure as impl`
                return self.union([target, *self.alternatives[node.id]])
            if target:
                return target
            return self.local_type(where, node.id) if where is not None else None
        if isinstance(node, ast.Attribute):
            if node.attr == "param" and isinstance(node.value, ast.Name) and self.fixture_params:
                given = self.request_param(scope, node.value.id)
                if given is not None:
                    return self.alternatives_chain(given[1], given[0])
            if node.attr in OBJECT_STRINGS:
                return "L:str"  # `type(x).__name__`, `x.__module__`: whatever x is
            if node.attr == "__dict__":
                return "L:dict"
            base = self.chain(scope, node.value)
            if node.attr == "__class__":
                return call_head(base)  # as `type(x)`
            return f"{base}/{node.attr}" if base else None
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Attribute) and node.func.attr == "__enter__" and not node.args:
                stand_in = self.patched(scope, node.func.value)  # (`with patch("m.obj") as x`)
                if stand_in is not None:
                    return stand_in
            func = node.func
            if (
                isinstance(func, ast.Name)
                and func.id == "super"
                and self.lookup(scope, "super")[0] == "G:super"
            ):
                cls = enclosing_class(scope)
                return f"S:{cls}/^" if cls else None
            if (
                isinstance(func, ast.Attribute)
                and func.attr == "__new__"
                and node.args
                and not isinstance(node.args[0], ast.Starred)
            ):
                # `object.__new__(cls)`, `super().__new__(mcs, name, bases, ns)`: an instance of
                # the class given, not of the class whose `__new__` is called
                return class_instance(self.chain(scope, node.args[0]))
            base = self.chain(scope, func)
            if (
                base in _IMPORT_MODULE
                and len(node.args) == 1
                # (`importorskip("m", reason=…)`: its keywords never change the module)
                and all(k.arg in _SKIP_KEYWORDS and "importorskip" in base for k in node.keywords)
            ):
                # `importlib.import_module("pkg.mod")`: that module (a relative name needs `package=`)
                named = node.args[0]
                if (
                    isinstance(named, ast.Constant)
                    and isinstance(named.value, str)
                    and _MODULE_NAME.fullmatch(named.value)
                ):
                    return f"I:0:{named.value}:"
            if base in PYTEST_PARAMS and node.args and not any(isinstance(a, ast.Starred) for a in node.args):
                # `pytest.param(v, id=…)` in a parametrize list: the test is given v (or the values)
                if len(node.args) == 1:
                    return self.chain(scope, node.args[0])
                parts = [self.chain(scope, a) or "" for a in node.args]
                return f"P:{self.entry(parts)}" if any(parts) else None
            if base in RAISES and len(node.args) > 1:
                # `pytest.raises(E, f, *args)` calls f: what it gives holds the E raised
                raised = (
                    self.instance_of(scope, node.args[0])
                    if not isinstance(node.args[0], ast.Starred)
                    else None
                )
                return f"{raised}/*x" if raised else None
            if base is not None and base[2:] in PASS_THROUGH and base == "G:" + base[2:]:
                if base == "G:type" and len(node.args) == 1:
                    # `type(self)`: the class of an instance
                    of = self.chain(scope, node.args[0])
                    return call_head(of)
                args = node.args
                if (
                    base in ("G:max", "G:min", "G:next")
                    and args
                    and not any(isinstance(a, ast.Starred) for a in args)
                ):
                    if len(args) > 1 and base != "G:next":
                        return self.alternatives_chain(scope, args)  # `max(a, b)`: one of them
                    if not any(k.arg == "default" for k in node.keywords) and len(args) == 1:
                        items = self.chain(scope, args[0])  # `max(xs)`, `next(it)`: an item
                        return f"{items}/[]" if items else None
                return None  # `getattr(o, n)`: one of their arguments, not a builtin
            if base in ("G:enumerate", "G:zip") and node.args:
                return self.pairs_chain(scope, base, node.args)
            if base in _CHAINS and node.args and not node.keywords:
                # `itertools.chain(docs, temps)`: an iterator over the items of each
                if any(isinstance(a, ast.Starred) for a in node.args):
                    return None
                items = self.union([self.item_of(scope, a) for a in node.args])
                return f"{items}/*s" if items else None
            if base == "G:dict" and not node.args and node.keywords and all(k.arg for k in node.keywords):
                # `dict(a=Doc(), b=make())`: a mapping of the keywords' values
                values = self.union([self.chain(scope, k.value) for k in node.keywords])
                return f"{values}/*m" if values else "L:dict"
            if (
                base is not None
                and base[2:] in NEW_CONTAINERS | ITERATORS
                and base == "G:" + base[2:]
                and len(node.args) == 1
                and not isinstance(node.args[0], ast.Starred)
            ):
                # `list(xs)`, `sorted(xs)`: a new builtin container of the items of xs; `iter(xs)`,
                # `reversed(xs)`: an iterator over them (its items, by `next()` or `for`)
                items = self.chain(scope, node.args[0])
                if items:
                    return f"{items}/[]/*s"
                return f"L:{base[2:]}" if base[2:] in NEW_CONTAINERS else None
            if base in CASTS and len(node.args) == 2:
                # `cast(T, x)` is a claim no checker verifies (cssselect's tests cast a Function
                # to a FunctionalPseudoElement): settled at link time (python_resolver, `C:`)
                claimed = instance_chain(self.annotation_chain(scope, node.args[0]))
                if claimed is None:
                    return None
                return f"C:{self.entry([claimed, self.chain(scope, node.args[1]) or ''])}"
            if base in (COPIES | PARTIALS) and node.args and not isinstance(node.args[0], ast.Starred):
                # `copy.deepcopy(x)`: what x is; `partial(Signer, key=k)`: called, a Signer is made
                return self.chain(scope, node.args[0])
            return f"{base}/{call_step(node)}{self.call_arguments(scope, base, node)}" if base else None
        if isinstance(node, ast.Subscript):
            items = self.chain(scope, node.value)
            if isinstance(node.slice, ast.Slice):
                return f"{items}/[:]" if items else None  # `xs[1:]`
            index = node.slice
            if isinstance(index, ast.Constant) and type(index.value) is int and 0 <= index.value < 64:
                return f"{items}/[{index.value}]" if items else None  # `pair[1]`: a tuple's part
            return f"{items}/[i]" if items else None
        if isinstance(node, ast.BoolOp):
            return self.alternatives_chain(scope, node.values)
        if isinstance(node, ast.BinOp):
            if (
                isinstance(node.op, ast.Mod)
                and isinstance(node.left, ast.Constant)
                and isinstance(node.left.value, str | bytes)
            ):
                return f"L:{type(node.left.value).__name__}"  # `"%s" % x`: formatted, whatever x is
            # `tmp_path / "x"`: outside the project when both operands are
            left, right = self.chain(scope, node.left), self.chain(scope, node.right)
            return f"O:{self.entry([left, right])}" if left and right else None
        if isinstance(node, ast.IfExp):
            return self.alternatives_chain(scope, [node.body, node.orelse])
        if isinstance(node, ast.NamedExpr):
            return self.chain(scope, node.value)
        if isinstance(node, ast.Lambda):
            # a callable whose call gives its body's value (`*f`)
            inner = self.comp_scopes.get(id(node))
            body = self.chain(inner, node.body) if inner is not None else None
            return f"{body}/*f" if body else None
        if isinstance(node, ast.Constant):
            kind = type(node.value)
            return f"L:{kind.__name__}" if kind in (str, bytes, int, float, complex, bool) else None
        return self.display_chain(scope, node)

    def request_param(self, scope: Scope, name: str) -> tuple[list[ast.expr], Scope] | None:
        """The values ``<name>.param`` is one of when ``name`` is the ``request`` a parametrized
        fixture is given (and never rebound), else None."""
        _, where = self.lookup(scope, name)
        given = self.fixture_params.get(id(where)) if where is not None and name == "request" else None
        sources = where.values.get(name, ()) if where is not None else ()
        if given is None or len(sources) != 1 or sources[0][0] not in ("chain", "ann"):
            return None
        return given

    def display_chain(self, scope: Scope, node: ast.expr) -> str | None:
        """A display or comprehension: a container of its elements' type when they agree."""
        literal = LITERALS.get(type(node)) or ("generator" if isinstance(node, ast.GeneratorExp) else None)
        if literal is None:
            return None
        items: str | None = None
        if isinstance(node, ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp):
            inner = self.comp_scopes.get(id(node))
            if inner is not None:
                items = self.chain(inner, node.value if isinstance(node, ast.DictComp) else node.elt)
        elif (
            isinstance(node, ast.Tuple)
            and node.elts
            and not any(isinstance(e, ast.Starred) for e in node.elts)
        ):
            # `(layout, region)`: each position its own value (`P:<n>`, as `tuple[A, B]`)
            parts = [self.chain(scope, e) or "" for e in node.elts]
            return f"P:{self.entry(parts)}" if any(parts) else "L:tuple"
        elif isinstance(node, ast.List | ast.Tuple | ast.Set) and node.elts:
            # `[*params, extra]`: the items of params or extra
            items = self.union(
                [
                    self.item_of(scope, e.value) if isinstance(e, ast.Starred) else self.chain(scope, e)
                    for e in node.elts
                    if not is_none(e)
                ]
            )
        elif isinstance(node, ast.Dict) and node.values and all(k is not None for k in node.keys):
            items = self.alternatives_chain(scope, node.values)
        if items is None:
            return f"L:{literal}"
        return f"{items}/*m" if literal == "dict" else f"{items}/*s"

    def pairs_chain(self, scope: Scope, func: str, args: list[ast.expr]) -> str | None:
        """``enumerate(xs)``: an iterator of (int, item of xs) tuples; ``zip(xs, ys)``: of
        (item of xs, item of ys) ones (``P:<n>/*s``; an unknown part is "")."""
        if any(isinstance(a, ast.Starred) for a in args):
            return None
        iterables = args[:1] if func == "G:enumerate" else args
        parts = [self.item_of(scope, a) or "" for a in iterables]
        if not any(parts):
            return None
        return f"P:{self.entry(['L:int', *parts] if func == 'G:enumerate' else parts)}/*s"

    def instance_of(self, scope: Scope, classes: ast.expr) -> str | None:
        """An instance of the class ``classes`` names, or of any of a tuple of them."""
        parts = classes.elts if isinstance(classes, ast.Tuple) else [classes]
        return self.union([class_instance(self.chain(scope, c)) for c in parts])

    def call_arguments(self, scope: Scope, callee: str, node: ast.Call) -> str:
        """``;<n>``: the ``unions`` entry holding the chains of a call's positional arguments ("" for
        an unknown one), which bind a generic function's type variables; "" when none is known, a
        ``*`` argument hides them, or the callee is no function: a member of a value made by a call
        (a method), a builtin, or named as classes are (``Segment(a, b)``: calls of one class with
        other arguments keep one chain)."""
        if not node.args or any(isinstance(a, ast.Starred) for a in node.args):
            return ""
        if ("()" in callee or "(i)" in callee) and not (
            callee.endswith("/" + func_name(node.func)) and _class_given(node.args)
        ):
            # a method called on an instance: when it is given a class (`node.find_all(Name)`)
            return ""
        if callee.startswith("G:") and not self.star:
            return ""
        if func_name(node.func).lstrip("_")[:1].isupper():
            return ""
        if any(k.arg is None for k in node.keywords):
            return ""
        chains = [self.chain(scope, a) or "" for a in node.args]
        return f";{self.entry(chains)}" if any(chains) else ""

    def binder(self, scope: Scope, annotation: ast.expr | None) -> list[str] | None:
        """How a parameter annotated ``annotation`` binds the name it holds, when that may be a
        type variable: ``[<its chain>, how]``, how: ``v`` (``T``, ``Optional[T]``: the argument),
        ``[]`` (``Iterable[T]``, ``list[T]``...: an item of it), ``[i]`` (``Mapping[K, T]``: a value
        of it), ``c`` (``type[T]``: an instance of the class given)."""
        if isinstance(annotation, ast.Constant):
            annotation = string_annotation(annotation)
            if annotation is not None:
                self.keep.append(annotation)  # alive while the memo keys on node ids
        if annotation is None:
            return None
        sides = [side for side in union_sides(annotation) if not is_none(side)]
        subscripts = [side for side in sides if isinstance(side, ast.Subscript)]
        if len(sides) == 2 and len(subscripts) == 2:
            # `type[T] | tuple[type[T], ...]` (as `isinstance` takes): the class given, or any of them
            ways = [self.binder(scope, side) for side in subscripts]
            tupled = [
                self.binder(scope, subscript_args(side)[0])
                for side in subscripts
                if func_name(side.value) in ("tuple", "Tuple") and len(subscript_args(side)) == 2
            ]
            if ways[0] is not None and ways[0][1] == "c" and tupled == [ways[0]]:
                return ways[0]
            if ways[1] is not None and ways[1][1] == "c" and tupled == [ways[1]]:
                return ways[1]
        if len(sides) != 1:
            return None
        node, how = sides[0], "v"
        if isinstance(node, ast.Subscript):
            head = node.value
            name = func_name(head)
            args = subscript_args(node)
            if name in ("type", "Type") and len(args) == 1:
                how = "c"
            elif name in MAPPINGS and len(args) == 2:
                how, args = "[i]", args[1:]
            elif (
                name in ("tuple", "Tuple")
                and len(args) == 2
                and isinstance(args[1], ast.Constant)
                and args[1].value is ...
            ):
                how, args = "[]", args[:1]
            elif name in SEQUENCES and name not in ("tuple", "Tuple") and len(args) <= 3:
                how, args = "[]", args[:1]  # `Generator[T, None, None]`: what it yields
            else:
                return None
            node = args[0]
        if not isinstance(node, ast.Name | ast.Attribute):
            return None
        chain = self.chain(scope, node)
        return [chain, how] if chain and chain[0] in "SI" else None

    def type_parameters(self, scope: Scope, bases: list[ast.expr]) -> list[str]:
        """The chains of what may be a class's type variables, in order: ``Generic[K, V]``'s
        (``Protocol[T]``'s), else the names its subscripted bases are given (``Base[T]``)."""
        chosen: list[ast.expr] = []
        for base in bases:
            if isinstance(base, ast.Subscript):
                args = subscript_args(base)
                if func_name(base.value) in ("Generic", "Protocol"):
                    chosen = args
                    break
                chosen.extend(args)
        found: list[str] = []
        for arg in chosen:
            chain = self.chain(scope, arg) if isinstance(arg, ast.Name | ast.Attribute) else None
            if chain and chain[0] in "SI" and chain not in found:
                found.append(chain)
        return found

    def item_of(self, scope: Scope, node: ast.expr) -> str | None:
        """An item of the iterable ``node`` (``*xs`` in a display, an argument of ``zip``)."""
        iterable = self.chain(scope, node)
        return f"{iterable}/[]" if iterable else None

    def union_annotation(self, scope: Scope, node: ast.expr) -> str | None:
        """``A | B | None``, ``Union[A, B]``: the one class left without None, else a ``U:<n>`` of the
        classes (an instance, ``U:<n>/()``, is typed where every alternative agrees; a member read
        on it is settled at link time, ``python_families``)."""
        sides = [s for s in union_sides(node) if not is_none(s)]
        if len(sides) == 1:
            return self.annotation_chain(scope, sides[0])
        chains = [self.annotation_chain(scope, s) for s in sides]
        plain = all(
            c and not c.endswith(("/*s", "/*m", "/*d", "/*f", "/*c")) and not c.startswith("P:")
            for c in chains
        )
        return f"U:{self.entry([c for c in chains if c])}" if sides and plain else None

    def callable_params(self, scope: Scope, node: ast.expr) -> list[str] | None:
        """The instance chains ("" unknown) of the positional parameters a
        ``Callable[[A, B], R]`` / ``Callable[Concatenate[A, B, P], R]`` annotation gives."""
        if not (
            isinstance(node, ast.Subscript)
            and func_name(node.value) == "Callable"
            and isinstance(node.slice, ast.Tuple)
            and len(node.slice.elts) == 2
        ):
            return None
        params = node.slice.elts[0]
        if (
            isinstance(params, ast.Subscript)
            and func_name(params.value) == "Concatenate"
            and isinstance(params.slice, ast.Tuple)
        ):
            elts = params.slice.elts[:-1]  # the last is the ParamSpec of the rest
        elif isinstance(params, ast.List):
            elts = params.elts
        else:
            return None
        return [instance_chain(self.annotation_chain(scope, e)) or "" for e in elts]

    def annotation_chain(self, scope: Scope, node: ast.expr | None) -> str | None:
        """The class an annotation names (not an instance), when it names one."""
        if node is None:
            return None
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            parsed = string_annotation(node)
            if parsed is None:
                return None
            self.keep.append(parsed)  # alive while the memo keys on node ids
            return self.annotation_chain(scope, parsed)
        if isinstance(node, ast.Subscript):
            head = node.value
            name = func_name(head)
            if name in WRAPPERS:
                inner = node.slice
                if isinstance(inner, ast.Tuple) and inner.elts:
                    inner = inner.elts[0]
                return self.annotation_chain(scope, inner)
            if name == "Union":
                return self.union_annotation(scope, node)
            if name == "Callable" and isinstance(node.slice, ast.Tuple) and len(node.slice.elts) == 2:
                # `Callable[..., R]`: a callable whose call gives an R (`*f`, dropped by the call)
                gives = instance_chain(self.annotation_chain(scope, node.slice.elts[1]))
                return f"{gives}/*f" if gives else None
            if name in ("type", "Type") and not isinstance(node.slice, ast.Tuple):
                # `type[C]` is the class C itself: `/*c` is dropped where an instance would be made
                of = self.annotation_chain(scope, node.slice)
                return f"{of}/*c" if of and not of.endswith(("/*s", "/*m", "/*d", "/*c")) else None
            if name in SPECIAL_FORMS:
                return None
            if name in SEQUENCES or name in MAPPINGS:
                # the instance of a container of known items: `<item>/*s` (`<value>/*m` for mappings)
                args = subscript_args(node)
                homogeneous = len(args) == 2 and isinstance(args[1], ast.Constant) and args[1].value is ...
                if name in ("tuple", "Tuple") and not homogeneous:
                    # `tuple[str, Command]`: each position its own type (`P:<n>`, the entry of `unions`)
                    parts = [instance_chain(self.annotation_chain(scope, a)) or "" for a in args]
                    if any(parts) and not any(isinstance(a, ast.Starred) for a in args):
                        return f"P:{self.entry(parts)}"
                    return self.annotation_chain(scope, head)
                items = instance_chain(
                    self.annotation_chain(scope, args[-1] if name in MAPPINGS else args[0])
                )
                if name in MAPPINGS and len(args) == 2:
                    # `dict[Layout, Region]`: keys of a type of the project's too (`P:<n>/*d`)
                    key = instance_chain(self.annotation_chain(scope, args[0]))
                    if key and not key.startswith("G:"):
                        return f"P:{self.entry([key, items or ''])}/*d"
                if items is None:
                    return self.annotation_chain(scope, head)
                return f"{items}/*m" if name in MAPPINGS else f"{items}/*s"
            # `Box[Item]`: the class given its type arguments (an instance of it: of the class, its
            # type variables bound to them)
            klass = self.annotation_chain(scope, head)
            args = subscript_args(node)
            given = [instance_chain(self.annotation_chain(scope, a)) or "" for a in args]
            return f"{klass}/<{self.entry(given)}" if klass and any(given) else klass
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            return self.union_annotation(scope, node)
        if isinstance(node, ast.Name | ast.Attribute):
            named = self.chain(scope, node)
            if named in SELF_TYPES or (isinstance(node, ast.Name) and node.id == "Self"):
                cls = enclosing_class(scope)  # `-> te.Self`: the class of the method
                return f"S:{cls}" if cls else None
            return None if named in ANY_TYPES else named  # `x: Any`: anything, not a class
        return None


def _class_given(args: list[ast.expr]) -> bool:
    """Whether a call's arguments include what reads as a class (``Name``, ``nodes.Name``) or a
    tuple of them: what a method's ``type[T]`` parameter binds."""
    for arg in args:
        parts = arg.elts if isinstance(arg, ast.Tuple) else [arg]
        if parts and all(func_name(p).lstrip("_")[:1].isupper() for p in parts):
            return True
    return False


def _one_value(scope: Scope, name: str) -> bool:
    """Whether the value last assigned to local ``name`` is all a use after it can see: not when
    an annotation declares every value (``x: T``) or the scope fills the container it holds
    (``xs.append(v)``)."""
    return not any(kind == "ann" or kind.startswith("fill") for kind, _, _ in scope.values.get(name, ()))
