"""Strings that name parameters, not symbols: the keys of a function's own ``**kwargs`` mapping.

``kwargs.setdefault("expose_value", False); return option(*decls, **kwargs)`` names a parameter of
``option``: renaming an attribute ``expose_value`` must not touch it. Such a key is a keyword of
every call the mapping is passed to (the linker's ``~key`` step); a mapping used any other way
(``.items()``, iteration, passed positionally, returned, stored, rebound, used in a nested scope)
may set attributes, so its keys stay plain strings, and a keyword a call gives it is a name hit
(``opaque_kwargs``).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator

# methods of a mapping that take a key and use it only as a key
KEY_METHODS = frozenset({"get", "setdefault", "pop"})
_SCOPES = (
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.Lambda,
    ast.ClassDef,
    ast.ListComp,
    ast.SetComp,
    ast.DictComp,
    ast.GeneratorExp,
)


def kwargs_keys(function: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[int, list[ast.Call]] | None:
    """The string keys of ``function``'s own ``**kwargs`` (node ids), each with the calls the mapping
    is passed to as ``**kwargs`` (none: the keys name ``function``'s own keywords); None when the
    mapping is used in any other way (``.items()``, iteration, ``setattr``, returned, stored): then
    a keyword the function is given by no parameter's name may set any attribute."""
    kwarg = function.args.kwarg
    if kwarg is None:
        return {}
    name = kwarg.arg
    keys: list[ast.Constant] = []
    calls: list[ast.Call] = []
    called: dict[int, ast.Call] = {}  # a `**` keyword or a method attribute -> its call
    for node, parent in _own_nodes(function):
        if isinstance(node, _SCOPES):
            if _uses_outer(node, name):
                return None
            continue
        if isinstance(node, ast.Call):
            called.update((id(k), node) for k in node.keywords)
            called[id(node.func)] = node
        if not (isinstance(node, ast.Name) and node.id == name):
            continue
        if not isinstance(node.ctx, ast.Load):  # `kwargs = {...}`, `del kwargs`
            return None
        use = _key_use(node, parent, called.get(id(parent)))
        if use is None or use is True:  # (a computed key, `kwargs.get(k)`, may be any keyword)
            return None
        if isinstance(use, ast.Call):
            calls.append(use)
        elif isinstance(use, ast.Constant):
            keys.append(use)
    return {id(key): calls for key in keys}


def opaque_kwargs(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether ``function``'s own ``**kwargs`` mapping is used other than by string key and ``**``
    forwarding, here or in a nested scope sharing it (``def decorator(f): cls(**attrs)`` only
    forwards): then a keyword the function is given by no parameter's name may set any attribute."""
    kwarg = function.args.kwarg
    if kwarg is None:
        return False
    name = kwarg.arg
    called: dict[int, ast.Call] = {}
    for node, parent in _own_nodes(function, lambda scope: not _binds(scope, name)):
        if isinstance(node, _SCOPES) and _binds(node, name) and _uses_outer(node, name):
            return True
        if isinstance(node, ast.Call):
            called.update((id(k), node) for k in node.keywords)
            called[id(node.func)] = node
        if not (isinstance(node, ast.Name) and node.id == name):
            continue
        use = _key_use(node, parent, called.get(id(parent)))
        if not isinstance(node.ctx, ast.Load) or use is None or use is True:
            return True  # (a computed key, `kwargs.get(k, f.default)`, reads any keyword)
    return False


def _key_use(
    node: ast.Name, parent: ast.AST | None, call: ast.Call | None
) -> ast.Call | ast.Constant | bool | None:
    """What a load of the mapping is: the call it is passed on to (``f(**kwargs)``), the string key
    it is used with (``kwargs["k"]``, ``kwargs.get("k")``, ``"k" in kwargs``), True for a key use
    with a computed key, None for any other use. ``call``: the call ``parent`` belongs to."""
    if isinstance(parent, ast.keyword) and parent.arg is None:
        return call
    if isinstance(parent, ast.Subscript) and parent.value is node:
        return _string(parent.slice) or True
    if isinstance(parent, ast.Attribute) and parent.attr in KEY_METHODS:
        if call is not None and call.func is parent and call.args:
            if isinstance(call.args[0], ast.Starred):
                return None
            return _string(call.args[0]) or True
        return None
    if (
        isinstance(parent, ast.Compare)
        and len(parent.ops) == 1
        and isinstance(parent.ops[0], ast.In | ast.NotIn)
        and parent.comparators[0] is node
    ):
        return _string(parent.left) or True
    return None


def _string(node: ast.expr) -> ast.Constant | None:
    return node if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _own_nodes(
    function: ast.FunctionDef | ast.AsyncFunctionDef, enter: Callable[[ast.AST], bool] = lambda scope: False
) -> Iterator[tuple[ast.AST, ast.AST | None]]:
    """The nodes of ``function``'s body, each before its children, with their parents; nested
    scopes are yielded but entered only when ``enter`` says so."""
    todo: list[tuple[ast.AST, ast.AST | None]] = [(stmt, None) for stmt in reversed(function.body)]
    while todo:
        node, parent = todo.pop()
        yield node, parent
        if not isinstance(node, _SCOPES) or enter(node):
            todo.extend((child, node) for child in reversed(list(ast.iter_child_nodes(node))))


def _binds(scope: ast.AST, name: str) -> bool:
    """Whether a nested function or lambda has a parameter ``name`` (its own mapping)."""
    if not isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
        return False
    args = scope.args
    own = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
    return any(a is not None and a.arg == name for a in own)


def _uses_outer(scope: ast.AST, name: str) -> bool:
    """Whether a nested scope uses the enclosing function's ``name`` (a nested function with a
    parameter of that name has its own)."""
    if _binds(scope, name):
        assert isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
        # its own mapping; what runs in the enclosing scope may still use the outer one
        args = scope.args
        outer = [*getattr(scope, "decorator_list", []), *args.defaults, *args.kw_defaults]
        return any(isinstance(n, ast.Name) and n.id == name for e in outer if e for n in ast.walk(e))
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(scope))
