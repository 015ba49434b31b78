"""Scopes and pending occurrences of the Python fact pass, and the small AST readings it shares."""

from __future__ import annotations

import ast

Row = tuple[str, int, int, int, str, str | None, str]


class Scope:
    __slots__ = (
        "binds",
        "bound_at",
        "cls",
        "globals",
        "kind",
        "nonlocals",
        "parent",
        "path",
        "runner",
        "self_chain",
        "self_name",
        "values",
    )

    def __init__(self, kind: str, path: str, parent: Scope | None) -> None:
        self.kind = kind  # module | class | function | comp
        self.path = path  # symbol path of the innermost def/class ("" at module level)
        self.parent = parent
        # name -> target chain of what the name means here; "" = a local that is no symbol
        self.binds: dict[str, str] = {}
        self.bound_at: dict[str, int] = {}  # class and module scopes: line of a name's first binding
        # locals that are no symbol: name -> where their type comes from
        self.values: dict[str, list[tuple[str, ast.AST | str, Scope]]] = {}
        self.globals: set[str] = set()
        self.nonlocals: set[str] = set()
        self.cls = ""  # for methods: the class path
        self.self_chain = ""
        self.self_name = ""
        # a doctest's namespace: a name nothing binds may be one its runner gives (`N:` chain)
        self.runner = False


class Pending:
    """An occurrence whose target is computed once every binding is known."""

    __slots__ = ("col", "end", "kind", "line", "name", "node", "owner", "scope")

    def __init__(self, name: str, line: int, col: int, end: int, kind: str, node: ast.AST, scope: Scope):
        self.owner: str | None = None  # the scope path to report, when not the scope's own
        self.name = name
        self.line = line
        self.col = col
        self.end = end
        self.kind = kind
        self.node = node
        self.scope = scope


def is_class_expr(node: ast.expr) -> bool:
    """``C``, ``mod.C`` or a tuple of them (``isinstance(x, (A, B))``, ``except (A, B)``)."""
    if isinstance(node, ast.Tuple):
        return bool(node.elts) and all(isinstance(e, ast.Name | ast.Attribute) for e in node.elts)
    return isinstance(node, ast.Name | ast.Attribute)


def class_instance(chain: str | None) -> str | None:
    """An instance of the class a runtime class expression names (``isinstance(x, C)``,
    ``except C as e``); unknown when it is no class (a tuple of classes held in a name, a
    container): ``TYPES = (A, B)`` then ``isinstance(x, TYPES)`` leaves x untyped."""
    if not chain:
        return None
    if chain.endswith("/*c"):
        return chain[:-3]  # a value of type[C] is the class C
    if chain.endswith(("/*s", "/*m", "/*d", "/*f")) or (chain[:2] in ("P:", "L:") and "/" not in chain):
        return None
    return f"{chain}/(i)"


def instance_chain(chain: str | None) -> str | None:
    if chain and (
        chain.endswith(("/*s", "/*m", "/*d", "/*f")) or (chain.startswith("P:") and "/" not in chain)
    ):
        return chain  # an annotated container, tuple or callable is an instance already
    if chain and chain.endswith("/*c"):
        return chain[:-3]  # a value of type[C] is the class C
    return f"{chain}/(i)" if chain else None


def returned_values(
    function: ast.FunctionDef | ast.AsyncFunctionDef,
) -> tuple[list[ast.expr], list[ast.expr]]:
    """The values ``function`` returns and yields (bare ``return``/``yield`` give None),
    not counting nested functions, lambdas and classes."""
    returned: list[ast.expr] = []
    yielded: list[ast.expr] = []
    todo: list[ast.AST] = list(function.body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            continue
        if isinstance(node, ast.Return):
            returned.append(node.value or ast.Constant(None))
        elif isinstance(node, ast.Yield | ast.YieldFrom):
            # `yield from` gives the items of another iterable: no value of its own here
            yielded.append(node if isinstance(node, ast.YieldFrom) else node.value or ast.Constant(None))
        todo.extend(ast.iter_child_nodes(node))
    return returned, yielded


# builtin classes whose `__new__` makes an instance of the class given
_BUILTIN_MAKERS = frozenset(
    {"object", "str", "int", "float", "complex", "bytes", "tuple", "frozenset", "type", "bool"}
)


def makes_own_instance(
    function: ast.FunctionDef | ast.AsyncFunctionDef,
    method: str = "__new__",
    bases: frozenset[str] = frozenset(),
) -> bool:
    """Whether a ``__new__`` returns only what a ``__new__`` given its own first parameter makes
    (``super().__new__(cls)``, ``object.__new__(cls, …)``, ``Base.__new__(cls, …)`` of a base the
    class lists in ``bases``, as written), or a metaclass's ``__call__`` only what
    ``super().__call__(…)`` makes: directly, through a name or a cache it alone fills
    (``cls._inst = super().__new__(cls)`` … ``return cls._inst``, ``cache.setdefault(k, made)``).
    A call of the class then gives an instance of it, not of another class."""
    positional = function.args.posonlyargs + function.args.args
    if not positional:
        return False
    first = positional[0].arg

    def made(value: ast.expr | None) -> bool:
        if (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Attribute)
            and value.func.attr == "setdefault"
            and len(value.args) == 2
        ):
            return made(value.args[1])  # `cls._cache.setdefault(key, super().__new__(cls))`
        if not (
            isinstance(value, ast.Call)
            and isinstance(value.func, ast.Attribute)
            and value.func.attr == method
        ):
            return False
        maker = value.func.value
        if isinstance(maker, ast.Call):  # `super().__new__(cls)`, `super().__call__(*a, **k)`
            given = method == "__call__" or (
                bool(value.args) and isinstance(value.args[0], ast.Name) and value.args[0].id == first
            )
            return given and isinstance(maker.func, ast.Name) and maker.func.id == "super"
        # `object.__new__(cls)`, `str.__new__(cls, s)`, `type.__call__(cls, …)`, a listed base's
        # (`datetime.__new__(cls, …)`: what a project base's may make is judged with that base);
        # not another class's, which may make something else (`D.__new__(cls)`)
        makers = _BUILTIN_MAKERS | bases if method == "__new__" else frozenset({"type"}) | bases
        return (
            bool(value.args)
            and isinstance(value.args[0], ast.Name)
            and value.args[0].id == first
            and isinstance(maker, ast.Name | ast.Attribute)
            and ast.unparse(maker) in makers
        )

    bound: dict[str, bool] = {}  # a name, attribute or item stored to -> only what was made
    todo: list[ast.AST] = list(function.body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            continue
        if isinstance(node, ast.Name | ast.Attribute | ast.Subscript) and isinstance(
            node.ctx, ast.Store | ast.Del
        ):
            bound[ast.unparse(node)] = False  # any binding but the plain assignments below
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name | ast.Attribute | ast.Subscript):
                    key = ast.unparse(target)
                    bound[key] = bound.get(key, True) and made(node.value)
                    todo.extend(ast.iter_child_nodes(target))  # (`cls._inst`: its parts are read)
                else:
                    todo.append(target)
            todo.extend([node.value] if node.value else [])
            continue
        todo.extend(ast.iter_child_nodes(node))
    if first in bound:
        return False  # `cls = Other` first
    returned, yielded = returned_values(function)
    return (
        bool(returned) and not yielded and all(made(v) or bound.get(ast.unparse(v), False) for v in returned)
    )


def keeps_first(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether a class decorator hands back the class it is given, unchanged: every ``return``
    returns its first parameter, and nothing stores into it (``cls.make = …``, ``setattr(cls,
    …)``, ``del cls.x``, ``vars(cls)``/``cls.__dict__`` changes) or binds the name again."""
    positional = function.args.posonlyargs + function.args.args
    if not positional:
        return False
    first = positional[0].arg
    todo: list[ast.AST] = list(function.body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            continue
        if isinstance(node, ast.Name) and node.id == first and isinstance(node.ctx, ast.Store | ast.Del):
            return False
        if isinstance(node, ast.Attribute | ast.Subscript) and isinstance(node.ctx, ast.Store | ast.Del):
            base = node.value
            while isinstance(base, ast.Attribute | ast.Subscript):
                base = base.value
            if isinstance(base, ast.Name) and base.id == first:
                return False
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Name):
            callee = node.func.id if isinstance(node.func, ast.Name) else None
            if node.args[0].id == first and callee in ("setattr", "delattr", "vars"):
                return False
        todo.extend(ast.iter_child_nodes(node))
    returned, yielded = returned_values(function)
    return bool(returned) and not yielded and all(isinstance(v, ast.Name) and v.id == first for v in returned)


def makes_keepers(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether a decorator factory (``@register("name")``) returns only functions it defines
    that keep the class they are given (see ``keeps_first``)."""
    nested = {n.name: n for n in function.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}
    returned, yielded = returned_values(function)
    return (
        bool(returned)
        and not yielded
        and all(isinstance(v, ast.Name) and v.id in nested and keeps_first(nested[v.id]) for v in returned)
    )


def generic_origin(node: ast.expr) -> ast.expr:
    """``Base[T]`` in a class's bases: the class it inherits from is ``Base``."""
    return node.value if isinstance(node, ast.Subscript) else node


def narrow_key(node: ast.AST) -> str:
    """``x`` / ``x.a.b``: the text of a name or attribute path narrowing can apply to, else ""."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = narrow_key(node.value)
        return f"{inner}.{node.attr}" if inner else ""
    return ""


def stored_key(node: ast.AST) -> str:
    """The key a node (re)binds: assignment targets, and names bound by except/def/class/import/match."""
    if isinstance(node, ast.Name | ast.Attribute):
        return "" if isinstance(node.ctx, ast.Load) else narrow_key(node)
    if isinstance(node, ast.ExceptHandler | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return node.name or ""
    if isinstance(node, ast.MatchAs | ast.MatchStar):
        return node.name or ""
    if isinstance(node, ast.alias):
        return (node.asname or node.name).partition(".")[0]
    return ""


def rebinds(stored: str, key: str) -> bool:
    """Whether storing ``stored`` rebinds narrowing key ``key`` (``x`` rebinds ``x`` and ``x.a``)."""
    return stored == key or key.startswith(stored + ".")


def is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def is_empty_container(node: ast.AST | str) -> bool:
    """``[]``, ``{}``, ``()``, ``set()``, ``list()``, ``defaultdict(list)``: a new container with
    nothing in it yet; ``iter(())``: an iterator over nothing."""
    if isinstance(node, ast.List | ast.Tuple):
        return not node.elts
    if isinstance(node, ast.Dict):
        return not node.keys
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "iter"
        and len(node.args) == 1
        and not node.keywords
    ):
        return is_empty_container(node.args[0])
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("list", "set", "dict", "tuple", "frozenset")
        and not node.args
        and not node.keywords
    ):
        return True
    # `defaultdict(list)`, `collections.OrderedDict()`: a new mapping, its defaults new containers
    func = node.func if isinstance(node, ast.Call) and not node.keywords and len(node.args) <= 1 else None
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
    return (
        isinstance(node, ast.Call)
        and name in ("defaultdict", "OrderedDict")
        and all(isinstance(a, ast.Name) and a.id in ("list", "dict", "set") for a in node.args)
    )


def all_args(args: ast.arguments) -> list[ast.arg]:
    out = [*args.posonlyargs, *args.args]
    if args.vararg is not None:
        out.append(args.vararg)
    out.extend(args.kwonlyargs)
    if args.kwarg is not None:
        out.append(args.kwarg)
    return out


def signature(args: ast.arguments) -> list[list[object]]:
    """Parameters as ``[name, kind, has_default]`` (kind: ``p`` positional-only, ``a``
    positional or keyword, ``*``, ``k`` keyword-only, ``**``), for matching a call's shape; a
    positional one adds what its annotation says it takes: ``"v"`` plain values only (``str |
    None``: no function), ``"f"`` a function (``Callable[..., T]``), ``"s"`` a ``slice``."""
    positional = [*args.posonlyargs, *args.args]
    defaults = len(positional) - len(args.defaults)
    out: list[list[object]] = [
        [a.arg, "p" if n < len(args.posonlyargs) else "a", n >= defaults, *_takes(a.annotation)]
        for n, a in enumerate(positional)
    ]
    if args.vararg is not None:
        out.append([args.vararg.arg, "*", True])
    out.extend([a.arg, "k", d is not None] for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True))
    if args.kwarg is not None:
        out.append([args.kwarg.arg, "**", True])
    return out


_PLAIN = frozenset({"str", "bytes", "int", "float", "complex", "bool", "None", "Literal"})


def plain(node: ast.expr | None) -> bool:
    """An annotation of plain values only (``str``, ``int | None``, ``Optional[str]``,
    ``Literal["a"]``): no function or class is one of them."""
    return node is not None and all(_plain_side(side) for side in union_sides(node))


def _plain_side(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return node.value is None
    if isinstance(node, ast.Subscript):
        return _head_name(node.value) == "Literal"
    return isinstance(node, ast.Name | ast.Attribute) and _head_name(node) in _PLAIN


def subscript_args(node: ast.Subscript) -> list[ast.expr]:
    """The arguments of ``X[a, b]`` (``[a, b]``) or ``X[a]`` (``[a]``)."""
    return node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]


def union_sides(node: ast.expr) -> list[ast.expr]:
    """The alternatives of ``A | B``, ``Union[A, B]``, ``Optional[A]`` (nested ones flattened;
    ``Optional`` adds ``None``); any other annotation is its only alternative."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return union_sides(node.left) + union_sides(node.right)
    head = _head_name(node.value) if isinstance(node, ast.Subscript) else ""
    if isinstance(node, ast.Subscript) and head in ("Union", "Optional"):
        parts = subscript_args(node)
        extra = [ast.Constant(value=None)] if head == "Optional" else []
        return [side for part in parts for side in union_sides(part)] + extra
    return [node]


def string_annotation(node: ast.Constant) -> ast.expr | None:
    """The annotation a string holds (``"list[T]"``), when it parses (at most 200 characters)."""
    if not isinstance(node.value, str) or len(node.value) > 200:
        return None
    try:
        return ast.parse(node.value.strip(), mode="eval").body
    except (SyntaxError, ValueError):
        return None


def annotation_names(node: ast.expr) -> set[str]:
    """The plain names an annotation uses, inside string annotations too."""
    names: set[str] = set()
    for part in ast.walk(node):
        if isinstance(part, ast.Name):
            names.add(part.id)
        elif isinstance(part, ast.Constant) and (parsed := string_annotation(part)) is not None:
            names |= annotation_names(parsed)
    return names


def _head_name(node: ast.expr) -> str:
    return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else ""


def _takes(node: ast.expr | None) -> list[str]:
    if plain(node):
        return ["v"]
    head = node.value if isinstance(node, ast.Subscript) else node
    name = head.id if isinstance(head, ast.Name) else getattr(head, "attr", "")
    if name == "slice":
        return ["s"]
    return ["f"] if "Callable" in name else []


def call_step(node: ast.Call) -> str:
    """The step of a call with its shape when the call shows it: ``()2`` (two positional
    arguments), ``()1,cls`` (one positional, the keyword ``cls``); ``()`` when a ``*`` or ``**``
    argument hides it. An overloaded function is called as the overloads its shape fits say."""
    if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
        return "()"
    return f"(){len(node.args)}" + "".join("," + str(k.arg) for k in node.keywords)


def call_head(chain: str | None) -> str | None:
    """The callee of a chain ending in a call step (``S:C/()1`` -> ``S:C``) or an instance of the
    class (``self``: ``S:C/(i)`` -> ``S:C``), else None."""
    if not chain:
        return None
    head, _, step = chain.rpartition("/")
    return head if step.startswith("()") or step == "(i)" else None


def func_name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    return node.attr if isinstance(node, ast.Attribute) else ""


def decorator_name(node: ast.expr) -> str:
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def decorator_call(node: ast.expr) -> ast.expr:
    """``@fixture(scope=...)`` is the decorator ``fixture`` called with options."""
    return node.func if isinstance(node, ast.Call) else node


def enclosing_class(scope: Scope) -> str:
    current: Scope | None = scope
    while current is not None:
        if current.cls:
            return current.cls
        if current.kind == "class":
            return current.path
        current = current.parent
    return ""


def is_test_module(path: str) -> bool:
    """A file pytest collects tests from by default (test_*.py, *_test.py)."""
    name = path.rpartition("/")[2]
    return name.endswith(".py") and (name.startswith("test_") or name.endswith("_test.py"))


def written_bases(bases: list[ast.expr]) -> list[ast.expr]:
    """A class statement's bases, those of ``with_metaclass(Meta, *bases)`` (six, future,
    jinja2's compat) in its place: the class it makes derives from them."""
    out: list[ast.expr] = []
    for base in bases:
        if isinstance(base, ast.Call) and func_name(base.func) == "with_metaclass" and base.args:
            out.extend(a for a in base.args[1:] if not isinstance(a, ast.Starred))
        else:
            out.append(base)
    return out
