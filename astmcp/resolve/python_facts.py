"""Per-file reference facts for Python: scopes, occurrences and local resolution.

Runs in the parse worker on the ``ast`` tree. Every identifier occurrence that
may mean a project symbol becomes a row ``(name, line, col, end_col, kind,
target, scope)``; ``target`` is a *chain* the linker resolves across files:

    base  := "S:<symbol_path>"            a symbol declared in this file
           | "D:<module>"                 the head of a dotted string ("pkg.mod.name")
           | "I:<level>:<module>:<name>"  what an import binds (empty name: the module)
           | "G:<name>"                   a global bound nowhere here (a star import may provide it)
           | "L:<type>"                   a literal of a builtin type ("", [], {...}, f"...")
           | "U:<n>"                      one of several values: the n-th entry of ``unions`` (typed
                                          when every alternative resolves to the same thing)
           | "O:<n>"                      an operation on the n-th entry of ``unions``: outside the
                                          project when every operand is (no project dunder runs)
           | "F:<name>"                   the pytest fixture a test function's parameter requests
    chain := base ("/" step)*             step: attribute name, "()" (call result), "^" (super()),
                                          "=name" (keyword argument of a call: a dataclass-like field),
                                          "*s" / "*m" (a container annotated with these items / values),
                                          "[]" (an item by iteration), "[]#n" (its n-th part), "[i]" (x[k])

``target`` None means the receiver is unknown: a ``name``-confidence hit.
Positions: 1-based line, 1-based code-point column, end exclusive.
"""

from __future__ import annotations

import ast
import builtins
import re
from collections.abc import Sequence
from typing import Any

NAME = "python_refs"

_BUILTINS = frozenset(dir(builtins))
_IDENT = re.compile(r"[^\W\d]\w*")
_DOTTED = re.compile(r"[^\W\d]\w*(?:\.[^\W\d]\w*)+")
_DEF_NAME = re.compile(r"(?:async\s+)?(?:def|class)\s+")
_WRAPPERS = frozenset({"Optional", "Annotated", "ClassVar", "Final", "Required", "NotRequired", "ReadOnly"})
# subscripted forms that are no instance of their head
_SPECIAL_FORMS = frozenset(
    {
        "Literal",
        "Callable",
        "type",
        "Type",
        "TypeGuard",
        "TypeIs",
        "Unpack",
        "Concatenate",
        "Generic",
        "Protocol",
    }
)
# subscripted containers whose items a loop or subscript yields (the first argument; tuple[X, ...])
_SEQUENCES = frozenset(
    {
        "list",
        "List",
        "set",
        "Set",
        "frozenset",
        "FrozenSet",
        "Sequence",
        "MutableSequence",
        "Iterable",
        "Iterator",
        "Collection",
        "AbstractSet",
        "MutableSet",
        "Generator",
        "AsyncIterator",
        "AsyncIterable",
        "AsyncGenerator",
        "deque",
        "Deque",
        "tuple",
        "Tuple",
        "KeysView",
        "ValuesView",
        "Reversible",
    }
)
# mappings: the value type (the last argument) is what `m[k]`, `.values()`, `.items()` give
_MAPPINGS = frozenset(
    {"dict", "Dict", "Mapping", "MutableMapping", "OrderedDict", "defaultdict", "DefaultDict", "ChainMap"}
)
_CASTS = frozenset(
    {"I:0:typing:cast", "I:0:typing:/cast", "I:0:typing_extensions:cast", "I:0:typing_extensions:/cast"}
)
# builtins whose items are the items of their first argument; enumerate and zip pair them up
_SAME_ITEMS = frozenset({"sorted", "reversed", "list", "tuple", "set", "frozenset", "iter"})
_ITEM_WRAPPERS = _SAME_ITEMS | {"enumerate", "zip"}
# builtins making a new builtin container of an iterable's items (not iter/reversed: a class's
# __iter__/__reversed__ may give a project object)
_NEW_CONTAINERS = frozenset({"sorted", "list", "tuple", "set", "frozenset"})
# builtins returning (an item of) an argument: their result is no builtin object
_PASS_THROUGH = frozenset({"max", "min", "next", "anext", "getattr", "type"})
_TYPE_VARS = frozenset({"TypeVar", "ParamSpec", "TypeVarTuple"})
# calls whose first argument names what they declare: `T = TypeVar("T")`
_NAMES_ITSELF = _TYPE_VARS | {"NewType", "NamedTuple", "TypedDict", "namedtuple"}
_EXITS = (ast.Return, ast.Raise, ast.Continue, ast.Break)
_STR_ATTR_FUNCS = frozenset({"getattr", "setattr", "hasattr", "delattr"})
_MAX_STRING = 200
# literals and displays: builtin objects, whose members are outside the project
_LITERALS: dict[type, str] = {
    ast.JoinedStr: "str",
    ast.List: "list",
    ast.ListComp: "list",
    ast.Dict: "dict",
    ast.DictComp: "dict",
    ast.Set: "set",
    ast.SetComp: "set",
    ast.Tuple: "tuple",
}
# decorators that keep what calling the function returns (a return may be inferred through them)
_TRANSPARENT = frozenset(
    {"staticmethod", "classmethod", "property", "cached_property", "cache", "lru_cache", "abstractmethod"}
)
_FIXTURES = frozenset({"I:0:pytest:/fixture", "I:0:pytest:fixture"})
_NESTED = (ast.keyword, ast.arguments, ast.comprehension, ast.withitem, ast.match_case, ast.arg, ast.alias)

Row = tuple[str, int, int, int, str, str | None, str]


class _Scope:
    __slots__ = (
        "binds",
        "bound_at",
        "cls",
        "globals",
        "kind",
        "nonlocals",
        "parent",
        "path",
        "self_chain",
        "self_name",
        "values",
    )

    def __init__(self, kind: str, path: str, parent: _Scope | None) -> None:
        self.kind = kind  # module | class | function | comp
        self.path = path  # symbol path of the innermost def/class ("" at module level)
        self.parent = parent
        # name -> target chain of what the name means here; "" = a local that is no symbol
        self.binds: dict[str, str] = {}
        self.bound_at: dict[str, int] = {}  # class scopes: line of a name's first binding
        # locals that are no symbol: name -> where their type comes from
        self.values: dict[str, list[tuple[str, ast.AST | str, _Scope]]] = {}
        self.globals: set[str] = set()
        self.nonlocals: set[str] = set()
        self.cls = ""  # for methods: the class path
        self.self_chain = ""
        self.self_name = ""


class _Pending:
    """An occurrence whose target is computed once every binding is known."""

    __slots__ = ("col", "end", "kind", "line", "name", "node", "owner", "scope")

    def __init__(self, name: str, line: int, col: int, end: int, kind: str, node: ast.AST, scope: _Scope):
        self.owner: str | None = None  # the scope path to report, when not the scope's own
        self.name = name
        self.line = line
        self.col = col
        self.end = end
        self.kind = kind
        self.node = node
        self.scope = scope


class _Analyzer:
    def __init__(self, path: str, text: str) -> None:
        self.text = text
        self.ascii = text.isascii()
        self.lines = text.split("\n")
        self.is_init = path.endswith(("__init__.py", "__init__.pyi"))
        self.pending: list[_Pending] = []
        self.rows: list[Row] = []
        self.module = _Scope("module", "", None)
        self.star: list[str] = []
        self.all_names: list[str] | None = None
        self.all_nodes: list[ast.Constant] = []
        self.deferred_types: list[
            tuple[str, str, ast.AST, _Scope, bool]
        ] = []  # (table, path, node, scope, ann)
        self.bases: dict[str, list[ast.expr]] = {}
        self.base_scopes: dict[str, _Scope] = {}
        self._chain_memo: dict[int, str | None] = {}
        self._resolving: set[int] = set()
        self.line = 0  # the statement being visited
        self.alternatives: dict[str, list[str]] = {}  # module-level names bound more than one way
        self.keep: list[ast.AST] = []  # parsed string annotations (their node ids key the memo)
        # `isinstance(x, C)` narrowing: what is narrowed where the walk is (key: `x`, `self.x`),
        # and the uses it typed (node id -> the class expression and its scope)
        self.narrowed: dict[str, tuple[ast.expr, _Scope]] = {}
        self.typed_uses: dict[int, tuple[ast.expr, _Scope]] = {}
        self.named_strings: dict[int, str] = {}  # `T = TypeVar("T")`: the string's node -> T
        self.unions: list[list[str]] = []  # alternatives of the `U:<n>` chains
        self.union_ids: dict[tuple[str, ...], int] = {}
        # unannotated functions: (path, return values, body scope, yields) to infer what a call gives
        self.returns: list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef, _Scope]] = []
        self.fixtures: dict[str, tuple[str, ast.FunctionDef | ast.AsyncFunctionDef, _Scope]] = {}
        self.comp_scopes: dict[int, _Scope] = {}  # comprehension node -> the scope of its targets
        self._locals_busy: set[tuple[int, str]] = set()
        self._local_unions: dict[tuple[int, str], int] = {}  # self-referencing locals -> their union
        self.test_file = _is_test_module(path)
        self.module_marks: list[ast.expr] = []  # `pytestmark = pytest.mark.parametrize(...)`
        self.class_marks: dict[str, list[ast.expr]] = {}  # class path -> its decorators
        self.generates = False  # the module defines pytest_generate_tests: any argument may be given

    # -- positions -------------------------------------------------------------
    def col(self, line: int, byte_col: int) -> int:
        if self.ascii:
            return byte_col + 1
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        if text.isascii():
            return byte_col + 1
        return len(text.encode("utf-8")[:byte_col].decode("utf-8", errors="replace")) + 1

    def line_text(self, line: int) -> str:
        return self.lines[line - 1] if 0 < line <= len(self.lines) else ""

    # -- bindings --------------------------------------------------------------
    def bind(
        self,
        scope: _Scope,
        name: str,
        target: str,
        source: tuple[str, ast.AST | str] | None = None,
        source_scope: _Scope | None = None,
    ) -> None:
        if scope.kind == "comp" and target == "":
            if scope.binds.setdefault(name, "") == "":
                scope.values.setdefault(name, []).append(
                    (source[0], source[1], source_scope or scope) if source else ("none", "", scope)
                )
            return
        if name in scope.globals:
            scope = self.module
            if not target:
                target = "S:" + name
        elif name in scope.nonlocals:
            return
        if scope.kind in ("module", "class") and target == "":
            target = "S:" + (f"{scope.path}.{name}" if scope.path else name)
        if name not in scope.binds:
            scope.binds[name] = target
            if scope.kind == "class":
                scope.bound_at[name] = self.line
        elif scope.kind == "module" and target and target != scope.binds[name]:
            # `try: from x import f` / `except ImportError: def f(...)`: a use means either
            others = self.alternatives.setdefault(name, [])
            if target not in others:
                others.append(target)
        if target == "" and scope.binds.get(name) == "":
            slot = scope.values.setdefault(name, [])
            if source is not None:
                slot.append((source[0], source[1], source_scope or scope))
            else:
                slot.append(("none", "", scope))

    def lookup(self, scope: _Scope, name: str, line: int = 0) -> tuple[str, _Scope | None]:
        """What ``name`` means at a use in ``scope`` (on ``line``): (target, binding scope)."""
        if name in scope.globals:
            return self.module.binds.get(name, "G:" + name), self.module
        first = True
        current: _Scope | None = scope
        while current is not None:
            visible = (first or current.kind != "class") and name in current.binds
            # A class body runs top to bottom: a name bound later in it is still the outer one.
            later = current.kind == "class" and line and current.bound_at.get(name, 0) >= line
            if visible and not later and name not in current.nonlocals:
                return current.binds[name], current
            if name in current.globals:
                return self.module.binds.get(name, "G:" + name), self.module
            first = False
            current = current.parent
        return "G:" + name, None

    # -- chains ----------------------------------------------------------------
    def local_type(self, scope: _Scope, name: str) -> str | None:
        sources = scope.values.get(name)
        if not sources:
            return None
        declared = next(((node, where) for kind, node, where in sources if kind == "ann"), None)
        if declared is not None:
            # `x: T` declares the type of every value x is given in the scope
            assert isinstance(declared[0], ast.expr)
            return _instance(self.annotation_chain(declared[1], declared[0]))
        key = (id(scope), name)
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

    def local_values(self, sources: list[tuple[str, ast.AST | str, _Scope]]) -> list[str | None]:
        """The chains of the values a local is given ([None] when one is unknown)."""
        chains: list[str | None] = []
        for kind, node, where in sources:
            if kind == "chain":
                assert isinstance(node, str)
                chains.append(node)
            elif kind == "expr":
                assert isinstance(node, ast.expr)
                if not _is_none(node):  # `x = None` first: x is an Optional of its other values
                    chains.append(self.chain(where, node))
            elif kind == "enter":
                assert isinstance(node, ast.expr)
                manager = self.chain(where, node)
                chains.append(f"{manager}/__enter__/()" if manager else None)
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

    def alternatives_chain(self, scope: _Scope, values: list[ast.expr]) -> str | None:
        """``a or b``, ``a if c else b``: either value (a literal None is no alternative)."""
        return self.union([self.chain(scope, v) for v in values if not _is_none(v)])

    def chain(self, scope: _Scope, node: ast.expr) -> str | None:
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
        self._chain_memo[key] = result
        return result

    def _chain(self, scope: _Scope, node: ast.expr) -> str | None:
        if self.typed_uses:
            narrowed = self.typed_uses.get(id(node))
            if narrowed is not None:
                return _instance(self.chain(narrowed[1], narrowed[0]))
        if isinstance(node, ast.Name):
            target, where = self.lookup(scope, node.id)
            if target:
                return target
            return self.local_type(where, node.id) if where is not None else None
        if isinstance(node, ast.Attribute):
            base = self.chain(scope, node.value)
            return f"{base}/{node.attr}" if base else None
        if isinstance(node, ast.Call):
            func = node.func
            if (
                isinstance(func, ast.Name)
                and func.id == "super"
                and self.lookup(scope, "super")[0] == "G:super"
            ):
                cls = _enclosing_class(scope)
                return f"S:{cls}/^" if cls else None
            base = self.chain(scope, func)
            if base is not None and base[2:] in _PASS_THROUGH and base == "G:" + base[2:]:
                if base == "G:type" and len(node.args) == 1:
                    # `type(self)`: the class of an instance
                    of = self.chain(scope, node.args[0])
                    return of[:-3] if of and of.endswith("/()") else None
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
            if (
                base is not None
                and base[2:] in _NEW_CONTAINERS
                and base == "G:" + base[2:]
                and len(node.args) == 1
                and not isinstance(node.args[0], ast.Starred)
            ):
                # `list(xs)`, `sorted(xs)`: a new builtin container of the items of xs
                items = self.chain(scope, node.args[0])
                return f"{items}/[]/*s" if items else f"L:{base[2:]}"
            if base in _CASTS and len(node.args) == 2:
                return _instance(self.annotation_chain(scope, node.args[0]))
            return f"{base}/()" if base else None
        if isinstance(node, ast.Subscript) and not isinstance(node.slice, ast.Slice):
            items = self.chain(scope, node.value)
            return f"{items}/[i]" if items else None
        if isinstance(node, ast.BoolOp):
            return self.alternatives_chain(scope, node.values)
        if isinstance(node, ast.BinOp):
            # `tmp_path / "x"`: outside the project when both operands are
            left, right = self.chain(scope, node.left), self.chain(scope, node.right)
            return f"O:{self.entry([left, right])}" if left and right else None
        if isinstance(node, ast.IfExp):
            return self.alternatives_chain(scope, [node.body, node.orelse])
        if isinstance(node, ast.NamedExpr):
            return self.chain(scope, node.value)
        if isinstance(node, ast.Constant):
            kind = type(node.value)
            return f"L:{kind.__name__}" if kind in (str, bytes, int, float, complex, bool) else None
        return self.display_chain(scope, node)

    def display_chain(self, scope: _Scope, node: ast.expr) -> str | None:
        """A display or comprehension: a container of its elements' type when they agree."""
        literal = _LITERALS.get(type(node)) or ("generator" if isinstance(node, ast.GeneratorExp) else None)
        if literal is None:
            return None
        items: str | None = None
        if isinstance(node, ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp):
            inner = self.comp_scopes.get(id(node))
            if inner is not None:
                items = self.chain(inner, node.value if isinstance(node, ast.DictComp) else node.elt)
        elif isinstance(node, ast.List | ast.Tuple | ast.Set) and node.elts:
            if not any(isinstance(e, ast.Starred) for e in node.elts):
                items = self.alternatives_chain(scope, node.elts)
        elif isinstance(node, ast.Dict) and node.values and all(k is not None for k in node.keys):
            items = self.alternatives_chain(scope, node.values)
        if items is None:
            return f"L:{literal}"
        return f"{items}/*m" if literal == "dict" else f"{items}/*s"

    def annotation_chain(self, scope: _Scope, node: ast.expr | None) -> str | None:
        """The class an annotation names (not an instance), when it names one."""
        if node is None:
            return None
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if len(node.value) > 200:
                return None
            try:
                parsed = ast.parse(node.value.strip(), mode="eval").body
            except (SyntaxError, ValueError):
                return None
            self.keep.append(parsed)  # alive while the memo keys on node ids
            return self.annotation_chain(scope, parsed)
        if isinstance(node, ast.Subscript):
            head = node.value
            name = (
                head.attr
                if isinstance(head, ast.Attribute)
                else head.id
                if isinstance(head, ast.Name)
                else ""
            )
            if name in _WRAPPERS:
                inner = node.slice
                if isinstance(inner, ast.Tuple) and inner.elts:
                    inner = inner.elts[0]
                return self.annotation_chain(scope, inner)
            if name == "Union":
                elts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
                sides = [s for s in elts if not _is_none(s)]
                return self.annotation_chain(scope, sides[0]) if len(sides) == 1 else None
            if name in ("type", "Type") and not isinstance(node.slice, ast.Tuple):
                # `type[C]` is the class C itself: `/*c` is dropped where an instance would be made
                of = self.annotation_chain(scope, node.slice)
                return f"{of}/*c" if of and not of.endswith(("/*s", "/*m", "/*c")) else None
            if name in _SPECIAL_FORMS:
                return None
            if name in _SEQUENCES or name in _MAPPINGS:
                # the instance of a container of known items: `<item>/*s` (`<value>/*m` for mappings)
                args = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
                homogeneous = len(args) == 2 and isinstance(args[1], ast.Constant) and args[1].value is ...
                if name in ("tuple", "Tuple") and not homogeneous:
                    return self.annotation_chain(scope, head)
                items = _instance(self.annotation_chain(scope, args[-1] if name in _MAPPINGS else args[0]))
                if items is None:
                    return self.annotation_chain(scope, head)
                return f"{items}/*m" if name in _MAPPINGS else f"{items}/*s"
            # `Box[int]`: an instance of a generic class is an instance of the class
            return self.annotation_chain(scope, head)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            sides = [s for s in (node.left, node.right) if not _is_none(s)]
            return self.annotation_chain(scope, sides[0]) if len(sides) == 1 else None
        if isinstance(node, ast.Name | ast.Attribute):
            if isinstance(node, ast.Name) and node.id == "Self":
                cls = _enclosing_class(scope)
                return f"S:{cls}" if cls else None
            return self.chain(scope, node)
        return None

    # -- occurrences -----------------------------------------------------------
    def name_occurrence(self, node: ast.Name, scope: _Scope, kind: str) -> None:
        line = node.lineno
        col = self.col(line, node.col_offset)
        self.pending.append(_Pending(node.id, line, col, col + len(node.id), kind, node, scope))

    def attr_occurrence(self, node: ast.Attribute, scope: _Scope, kind: str) -> None:
        line = node.end_lineno or node.lineno
        end = self.col(line, node.end_col_offset or 0)
        self.pending.append(_Pending(node.attr, line, end - len(node.attr), end, kind, node, scope))

    def direct(self, name: str, line: int, col: int, kind: str, target: str | None, scope: _Scope) -> None:
        self.rows.append((name, line, col, col + len(name), kind, target, scope.path))

    def def_name(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> tuple[int, int]:
        line = node.lineno
        text = self.line_text(line)
        start = self.col(line, node.col_offset) - 1
        match = _DEF_NAME.match(text, start)
        return line, (match.end() if match else start) + 1

    # -- traversal -------------------------------------------------------------
    def body(self, stmts: list[ast.stmt], scope: _Scope, docstring: bool) -> None:
        saved = self.narrowed
        for n, stmt in enumerate(stmts):
            if (
                n == 0
                and docstring
                and isinstance(stmt, ast.Expr)
                and isinstance(stmt.value, ast.Constant)
                and isinstance(stmt.value.value, str)
            ):
                continue
            self.stmt(stmt, scope)
            if type(stmt) is ast.If and not stmt.orelse and isinstance(stmt.body[-1], _EXITS):
                # `if not isinstance(x, C): return`: the rest of the block sees x as a C
                self.narrow(self.isinstance_tests(stmt.test, scope, False), stmts[n + 1 :], scope)
        self.narrowed = saved

    def stmt(self, node: ast.stmt, scope: _Scope) -> None:
        self.line = node.lineno
        handler = _STMT.get(type(node))
        if handler is not None:
            handler(self, node, scope)
        else:
            self.generic(node, scope, "read")

    def generic(self, node: ast.AST, scope: _Scope, kind: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.stmt):
                self.stmt(child, scope)
            elif isinstance(child, ast.expr):
                self.expr(child, scope, kind)
            elif isinstance(child, ast.excepthandler):
                self.except_handler(child, scope)
            elif isinstance(child, ast.pattern):
                self.pattern(child, scope)
            elif isinstance(child, _NESTED):
                self.generic(child, scope, kind)

    def expr(self, node: ast.expr, scope: _Scope, kind: str) -> None:
        cls = type(node)
        if cls is ast.Name:
            assert isinstance(node, ast.Name)
            ctx = type(node.ctx)
            if ctx is ast.Load:
                if self.narrowed and node.id in self.narrowed:
                    self.typed_uses[id(node)] = self.narrowed[node.id]
                self.name_occurrence(node, scope, kind)
            else:
                self.bind(scope, node.id, "")
                self.name_occurrence(node, scope, "write")
        elif cls is ast.Attribute:
            assert isinstance(node, ast.Attribute)
            ctx = type(node.ctx)
            self.expr(node.value, scope, "type" if kind == "type" else "read")
            if self.narrowed and ctx is ast.Load:
                key = _key(node)
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
            self.expr(node.func, scope, "call")
            cast = len(node.args) == 2 and self.chain(scope, node.func) in _CASTS
            for n, arg in enumerate(node.args):
                self.expr(arg, scope, "type" if cast and n == 0 else "read")
            for keyword in node.keywords:
                self.expr(keyword.value, scope, "read")
                if keyword.arg is not None:
                    # `Cls(field=...)`: a field of a class without its own __init__ (dataclass-like)
                    line = keyword.lineno
                    col = self.col(line, keyword.col_offset)
                    end = col + len(keyword.arg)
                    self.pending.append(_Pending(keyword.arg, line, col, end, "write", node, scope))
        elif cls is ast.Constant:
            assert isinstance(node, ast.Constant)
            if self.named_strings and id(node) in self.named_strings:
                self.named_string(node, self.named_strings[id(node)], scope)
            elif type(node.value) is str and (kind != "type" or not self.string_annotation(node, scope)):
                self.string(node, scope)
        elif cls is ast.Subscript:
            assert isinstance(node, ast.Subscript)
            typed = kind in ("type", "inherit")  # `class A(Base[T])` inherits from Base
            self.expr(node.value, scope, kind if typed else "read")
            self.expr(node.slice, scope, "type" if typed else "read")
            if type(node.ctx) is not ast.Load:
                pass
        elif cls is ast.Lambda:
            assert isinstance(node, ast.Lambda)
            self.arguments_defaults(node.args, scope)
            inner = _Scope("function", scope.path, scope)
            self.bind_params(node.args, inner, None)
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
                if isinstance(node.op, ast.And):
                    self.narrow(self.isinstance_tests(value, scope, True), node.values, scope)
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
            self.bind(target_scope, node.target.id, "", ("expr", node.value))
            self.name_occurrence(node.target, scope, "write")
        elif cls is ast.Starred:
            assert isinstance(node, ast.Starred)
            self.expr(node.value, scope, kind)
        elif cls is ast.JoinedStr:
            assert isinstance(node, ast.JoinedStr)
            for value in node.values:
                if isinstance(value, ast.FormattedValue):
                    self.expr(value.value, scope, "read")
                    if value.format_spec is not None:
                        self.expr(value.format_spec, scope, "read")
        else:
            self.generic(node, scope, "type" if kind == "type" else "read")

    def comprehension(self, node: ast.expr, scope: _Scope) -> None:
        generators: list[ast.comprehension] = node.generators  # type: ignore[attr-defined]
        inner = _Scope("comp", scope.path, scope)
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
        self, node: ast.expr, scope: _Scope, value: ast.expr | None, ann: ast.expr | None = None
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
            if scope.kind in ("module", "class") and not (
                ann is None and isinstance(value, ast.Call) and _func_name(value.func) in _TYPE_VARS
            ):  # `x: T` with `T = TypeVar("T")` is any type: no instance of what TypeVar returns
                path = f"{scope.path}.{node.id}" if scope.path else node.id
                if ann is not None:
                    self.deferred_types.append(("v", path, ann, scope, True))
                elif value is not None:
                    self.deferred_types.append(("v", path, value, scope, False))
        elif isinstance(node, ast.Tuple | ast.List):
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
        else:
            self.expr(node, scope, "read")

    # -- statements ------------------------------------------------------------
    def function(self, node: ast.FunctionDef | ast.AsyncFunctionDef, scope: _Scope) -> None:
        for dec in node.decorator_list:
            self.expr(dec, scope, "call")
        self.arguments_defaults(node.args, scope)
        for arg in _all_args(node.args):
            if arg.annotation is not None:
                self.expr(arg.annotation, scope, "type")
        if node.returns is not None:
            self.expr(node.returns, scope, "type")
        path = f"{scope.path}.{node.name}" if scope.path else node.name
        if scope.kind == "comp":
            path = node.name
        self.bind(scope, node.name, "S:" + path)
        line, col = self.def_name(node)
        self.direct(node.name, line, col, "definition", "S:" + path, scope)
        inner = _Scope("function", path, scope)
        if scope.kind == "class":
            decorators = {_decorator_name(d) for d in node.decorator_list}
            if "staticmethod" not in decorators:
                inner.cls = scope.path
                classy = "classmethod" in decorators or node.name in ("__new__", "__init_subclass__")
                inner.self_chain = f"S:{scope.path}" if classy else f"S:{scope.path}/()"
        self.bind_params(node.args, inner, node)
        if scope.kind == "module" or (inner.cls and scope.path.rpartition(".")[2].startswith("Test")):
            self.pytest_function(node, inner, path)
        if node.returns is not None:
            self.deferred_types.append(("r", path, node.returns, scope, True))
        elif isinstance(node, ast.FunctionDef) and all(
            _decorator_name(d) in _TRANSPARENT or self.chain(scope, _decorator_call(d)) in _FIXTURES
            for d in node.decorator_list
        ):
            self.returns.append((path, node, inner))  # what a call gives is what it returns
        saved = self.narrowed
        self.narrowed = {}  # a nested function runs later: a narrowing may no longer hold
        self.body(node.body, inner, True)
        self.narrowed = saved

    def pytest_function(self, node: ast.FunctionDef | ast.AsyncFunctionDef, inner: _Scope, path: str) -> None:
        """A pytest fixture records its name; the parameters of a test or fixture function
        without a default or annotation request the fixture of their name (``F:<name>``)."""
        fixture = next(
            (
                d
                for d in node.decorator_list
                if self.chain(inner.parent or inner, _decorator_call(d)) in _FIXTURES
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
        given = _parametrized(node.decorator_list)  # values from the test's own marks
        outer = _parametrized(self.module_marks + (self.class_marks.get(inner.cls, []) if inner.cls else []))
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

    def arguments_defaults(self, args: ast.arguments, scope: _Scope) -> None:
        for default in args.defaults:
            self.expr(default, scope, "read")
        for kw_default in args.kw_defaults:
            if kw_default is not None:
                self.expr(kw_default, scope, "read")

    def bind_params(self, args: ast.arguments, inner: _Scope, node: ast.AST | None) -> None:
        params = _all_args(args)
        for n, arg in enumerate(params):
            if n == 0 and inner.self_chain and arg in (args.posonlyargs + args.args)[:1]:
                inner.self_name = arg.arg
                self.bind(inner, arg.arg, "", ("chain", inner.self_chain))
            elif arg.annotation is not None and arg is not args.vararg and arg is not args.kwarg:
                self.bind(inner, arg.arg, "", ("ann", arg.annotation))
            else:
                self.bind(inner, arg.arg, "")

    def klass(self, node: ast.ClassDef, scope: _Scope) -> None:
        for dec in node.decorator_list:
            self.expr(dec, scope, "call")
        path = f"{scope.path}.{node.name}" if scope.path else node.name
        first = len(self.pending)
        for base in node.bases:
            self.expr(base, scope, "inherit")
        for keyword in node.keywords:
            self.expr(keyword.value, scope, "read")
        for pending in self.pending[first:]:
            pending.owner = path  # a base belongs to the class it is listed by
        self.bind(scope, node.name, "S:" + path)
        line, col = self.def_name(node)
        self.direct(node.name, line, col, "definition", "S:" + path, scope)
        self.bases[path] = list(node.bases)
        self.class_marks[path] = list(node.decorator_list)
        self.base_scopes[path] = scope
        inner = _Scope("class", path, scope)
        self.body(node.body, inner, True)

    def assign(self, node: ast.Assign, scope: _Scope) -> None:
        first = node.targets[0]
        value = node.value
        if (
            scope.kind in ("module", "class")
            and len(node.targets) == 1
            and isinstance(first, ast.Name)
            and isinstance(value, ast.Call)
            and _func_name(value.func) in _NAMES_ITSELF
            and value.args
            and isinstance(value.args[0], ast.Constant)
            and value.args[0].value == first.id
        ):
            # `T = TypeVar("T")`: the string is the declared name, renamed with it
            path = f"{scope.path}.{first.id}" if scope.path else first.id
            self.named_strings[id(value.args[0])] = "S:" + path
        if not (scope.kind == "module" and isinstance(first, ast.Name) and first.id == "__all__"):
            self.expr(node.value, scope, "read")  # __all__ strings are certain rows, not name hits
        single = len(node.targets) == 1
        for target in node.targets:
            if scope.kind == "module" and isinstance(target, ast.Name) and target.id == "__all__":
                self.dunder_all(node.value, replace=True)
            self.target(target, scope, node.value if single else None)

    def ann_assign(self, node: ast.AnnAssign, scope: _Scope) -> None:
        self.expr(node.annotation, scope, "type")
        if node.value is not None:
            self.expr(node.value, scope, "read")
        target = node.target
        if isinstance(target, ast.Name) and node.value is None and scope.kind == "function":
            # `x: int` alone declares a local without binding a value.
            self.bind(scope, target.id, "", ("ann", node.annotation))
            self.name_occurrence(target, scope, "write")
            return
        self.target(target, scope, node.value, node.annotation)

    def aug_assign(self, node: ast.AugAssign, scope: _Scope) -> None:
        target = node.target
        if not (isinstance(target, ast.Name) and target.id == "__all__" and scope.kind == "module"):
            self.expr(node.value, scope, "read")
        if isinstance(target, ast.Name):
            self.bind(scope, target.id, "")
            self.name_occurrence(target, scope, "write")
            if (
                scope.kind == "module"
                and target.id == "__all__"
                and isinstance(node.op, ast.Add)
                and self.all_names is not None
            ):
                self.dunder_all(node.value, replace=False)
        else:
            self.expr(target, scope, "read")

    def dunder_all(self, value: ast.expr, replace: bool) -> None:
        if not isinstance(value, ast.List | ast.Tuple):
            return
        names = [e for e in value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        if replace or self.all_names is None:
            self.all_names = []
        self.all_names.extend(str(e.value) for e in names)
        self.all_nodes.extend(names)

    # -- isinstance narrowing ----------------------------------------------------
    def isinstance_tests(self, test: ast.expr, scope: _Scope, truth: bool) -> list[tuple[str, ast.expr]]:
        """``(key, class)`` of what ``test`` being ``truth`` proves: ``isinstance(x, C)`` (and
        ``and``-ed ones) when true, ``not isinstance(x, C)`` when false."""
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            return self.isinstance_tests(test.operand, scope, not truth)
        if isinstance(test, ast.BoolOp):
            if truth and isinstance(test.op, ast.And):
                return [pair for value in test.values for pair in self.isinstance_tests(value, scope, True)]
            return []
        if (
            truth
            and isinstance(test, ast.Call)
            and isinstance(test.func, ast.Name)
            and test.func.id == "isinstance"
            and len(test.args) == 2
            and not test.keywords
            and isinstance(test.args[1], ast.Name | ast.Attribute)
            and self.lookup(scope, "isinstance")[0] == "G:isinstance"
        ):
            key = _key(test.args[0])
            if key:
                return [(key, test.args[1])]
        return []

    def narrow(self, tests: list[tuple[str, ast.expr]], region: list[Any], scope: _Scope) -> None:
        """Narrow the keys of ``tests`` for the walk of ``region`` (statements or expressions),
        unless the region rebinds them: then a use may be of the new value."""
        if not tests:
            return
        stores = {_stored(n) for part in region for n in ast.walk(part)}
        added = {key: cls for key, cls in tests if key not in stores}
        if added:
            self.narrowed = {**self.narrowed, **{k: (c, scope) for k, c in added.items()}}

    def if_(self, node: ast.If, scope: _Scope) -> None:
        self.expr(node.test, scope, "read")
        saved = self.narrowed
        self.narrow(self.isinstance_tests(node.test, scope, True), node.body, scope)
        self.body(node.body, scope, False)
        self.narrowed = saved
        self.narrow(self.isinstance_tests(node.test, scope, False), node.orelse, scope)
        self.body(node.orelse, scope, False)
        self.narrowed = saved

    def loop_target(
        self, node: ast.expr, scope: _Scope, items: ast.expr, items_scope: _Scope | None = None
    ) -> None:
        """A ``for`` / comprehension target: a local name is typed as an item of ``items``
        (the n-th of each item for ``a, b`` targets)."""
        if scope.kind not in ("function", "comp"):
            self.target(node, scope, None)
            return
        items = self.same_items(items, items_scope or scope)
        wrapper = self.item_wrapper(items, items_scope or scope)
        if wrapper and isinstance(node, ast.Tuple | ast.List) and len(node.elts) == 2:
            # `for i, x in enumerate(xs)`, `for a, b in zip(xs, ys)`: x, b are items of xs, ys
            assert isinstance(items, ast.Call)
            inner = [self.same_items(arg, items_scope or scope) for arg in items.args]
            pairs = [(node.elts[1], inner[0])] if wrapper == "enumerate" else []
            if wrapper == "zip" and len(inner) == 2:
                pairs = [(node.elts[0], inner[0]), (node.elts[1], inner[1])]
            for elt in node.elts:
                source = next((arg for e, arg in pairs if e is elt), None)
                if source is not None and isinstance(elt, ast.Name):
                    self.bind(scope, elt.id, "", ("iter", source), items_scope)
                    self.name_occurrence(elt, scope, "write")
                else:
                    self.target(elt, scope, None)
            return
        if isinstance(node, ast.Name):
            self.bind(scope, node.id, "", ("iter", items), items_scope)
            self.name_occurrence(node, scope, "write")
            return
        if isinstance(node, ast.Tuple | ast.List) and not any(isinstance(e, ast.Starred) for e in node.elts):
            for n, elt in enumerate(node.elts):
                if isinstance(elt, ast.Name):
                    self.bind(scope, elt.id, "", (f"iter#{n}", items), items_scope)
                    self.name_occurrence(elt, scope, "write")
                else:
                    self.target(elt, scope, None)
            return
        self.target(node, scope, None)

    def same_items(self, items: ast.expr, scope: _Scope) -> ast.expr:
        """``sorted(list(xs))`` iterates over the items of ``xs``."""
        while self.item_wrapper(items, scope) in _SAME_ITEMS:
            assert isinstance(items, ast.Call)
            items = items.args[0]
        return items

    def item_wrapper(self, items: ast.expr, scope: _Scope) -> str:
        """The builtin wrapping an iterable (``sorted(xs)``, ``enumerate(xs)``), if any."""
        if (
            isinstance(items, ast.Call)
            and isinstance(items.func, ast.Name)
            and items.func.id in _ITEM_WRAPPERS
            and items.args
            and not isinstance(items.args[0], ast.Starred)
            and self.lookup(scope, items.func.id)[0] == "G:" + items.func.id
        ):
            return items.func.id
        return ""

    def for_(self, node: ast.For | ast.AsyncFor, scope: _Scope) -> None:
        self.expr(node.iter, scope, "read")
        self.loop_target(node.target, scope, node.iter)
        self.body(node.body, scope, False)
        self.body(node.orelse, scope, False)

    def with_(self, node: ast.With | ast.AsyncWith, scope: _Scope) -> None:
        for item in node.items:
            self.expr(item.context_expr, scope, "read")
            target = item.optional_vars
            if isinstance(target, ast.Name) and scope.kind == "function":
                # `with Cls() as x`: x is what Cls.__enter__ returns
                self.bind(scope, target.id, "", ("enter", item.context_expr))
                self.name_occurrence(target, scope, "write")
            elif isinstance(target, ast.Name) and scope.kind == "module" and target.id not in scope.binds:
                # a module-level `with ... as x` declares no symbol: x is typed like a local
                scope.binds[target.id] = ""
                scope.values[target.id] = [("enter", item.context_expr, scope)]
            elif target is not None:
                self.target(target, scope, None)
        self.body(node.body, scope, False)

    def import_(self, node: ast.Import, scope: _Scope) -> None:
        for alias in node.names:
            if alias.asname:
                self.bind(scope, alias.asname, f"I:0:{alias.name}:")
            else:
                head = alias.name.split(".", 1)[0]
                self.bind(scope, head, f"I:0:{head}:")

    def import_from(self, node: ast.ImportFrom, scope: _Scope) -> None:
        module = node.module or ""
        level = node.level or 0
        for alias in node.names:
            if alias.name == "*":
                if scope.kind == "module":
                    self.star.append(f"I:{level}:{module}:")
                continue
            target = f"I:{level}:{module}:{alias.name}"
            self.bind(scope, alias.asname or alias.name, target)
            line = getattr(alias, "lineno", node.lineno)
            col = self.col(line, getattr(alias, "col_offset", node.col_offset))
            kind = "export" if self.is_init and scope.kind == "module" else "import"
            self.rows.append((alias.name, line, col, col + len(alias.name), kind, target, scope.path))
            if alias.asname == alias.name:  # `import X as X`: the re-export idiom names it twice
                text = self.line_text(line)
                at = text.find(f" as {alias.name}", col - 1 + len(alias.name))
                if at >= 0:
                    start = at + 5
                    self.rows.append(
                        (alias.name, line, start, start + len(alias.name), kind, target, scope.path)
                    )

    def global_(self, node: ast.Global | ast.Nonlocal, scope: _Scope) -> None:
        if isinstance(node, ast.Global):
            scope.globals.update(node.names)
        else:
            scope.nonlocals.update(node.names)

    def except_handler(self, node: ast.excepthandler, scope: _Scope) -> None:
        assert isinstance(node, ast.ExceptHandler)
        if node.type is not None:
            self.expr(node.type, scope, "read")
        if node.name:
            self.bind(scope, node.name, "")
        self.body(node.body, scope, False)

    def pattern(self, node: ast.pattern, scope: _Scope) -> None:
        if isinstance(node, ast.MatchAs | ast.MatchStar) and node.name:
            self.bind(scope, node.name, "")
        elif isinstance(node, ast.MatchMapping) and node.rest:
            self.bind(scope, node.rest, "")
        if isinstance(node, ast.MatchClass):
            self.expr(node.cls, scope, "type")
            for sub in node.patterns:
                self.pattern(sub, scope)
            for sub in node.kwd_patterns:
                self.pattern(sub, scope)
            return
        self.generic(node, scope, "read")

    def expr_stmt(self, node: ast.Expr, scope: _Scope) -> None:
        self.expr(node.value, scope, "read")

    # -- strings ---------------------------------------------------------------
    def string_annotation(self, node: ast.Constant, scope: _Scope) -> bool:
        """Names inside a quoted annotation (``"Conn"``) as type occurrences."""
        value = str(node.value)
        line = node.lineno
        if node.end_lineno != line or len(value) > _MAX_STRING:
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

    def named_string(self, node: ast.Constant, target: str, scope: _Scope) -> None:
        name = str(node.value)
        line = node.lineno
        start = self.col(line, node.col_offset)  # the quote
        if self.line_text(line)[start : start + len(name) + 1] == name + self.line_text(line)[start - 1]:
            self.rows.append((name, line, start + 1, start + 1 + len(name), "string", target, scope.path))
        else:
            self.string(node, scope)

    def string(self, node: ast.Constant, scope: _Scope) -> None:
        value = str(node.value)
        if not value or len(value) > _MAX_STRING or node.end_lineno != node.lineno:
            return
        whole = _IDENT.fullmatch(value) is not None
        dotted = not whole and _DOTTED.fullmatch(value) is not None
        if not whole and not dotted and "_" not in value:
            return
        line = node.lineno
        text = self.line_text(line)
        start = self.col(line, node.col_offset) - 1
        end = self.col(line, node.end_col_offset or 0) - 1
        if dotted and text[start] in "'\"" and text[start + 1 : end - 1] == value:
            # "pkg.mod.name" (mock.patch, monkeypatch.setattr): a path the linker follows from the
            # top-level module; a part it does not reach keeps the plain string rule
            col = start + 2
            chain = ""
            for part in value.split("."):
                chain = f"{chain}/{part}" if chain else f"D:{part}"
                self.rows.append((part, line, col, col + len(part), "string", chain, scope.path))
                col += len(part) + 1
            return
        segment = text[start:end]
        for match in _IDENT.finditer(segment):
            word = match.group()
            if word == value if whole else ("_" in word.strip("_") and word in value):
                col = start + match.start() + 1
                self.rows.append((word, line, col, col + len(word), "string", None, scope.path))
                if whole:
                    return

    # -- finish ----------------------------------------------------------------
    def finish(self) -> dict[str, Any]:
        rows = self.rows
        has_star = bool(self.star)
        for p in self.pending:
            node = p.node
            if isinstance(node, ast.Name):
                bound, where = self.lookup(p.scope, p.name, 0 if p.kind == "write" else p.line)
                if not bound:
                    continue  # a local or parameter: no project symbol
                if bound.startswith("G:") and not has_star and p.name in _BUILTINS:
                    continue
                rows.append((p.name, p.line, p.col, p.end, p.kind, bound, p.owner or p.scope.path))
                if where is self.module and p.name in self.alternatives:
                    for other in self.alternatives[p.name]:
                        rows.append((p.name, p.line, p.col, p.end, p.kind, other, p.owner or p.scope.path))
            elif isinstance(node, ast.Call):
                callee = self.chain(p.scope, node.func)
                if callee:
                    rows.append((p.name, p.line, p.col, p.end, p.kind, f"{callee}/={p.name}", p.scope.path))
            else:
                assert isinstance(node, ast.Attribute)
                recv = self.chain(p.scope, node.value)
                target = f"{recv}/{p.name}" if recv else None
                rows.append((p.name, p.line, p.col, p.end, p.kind, target, p.owner or p.scope.path))
        for const in self.all_nodes:
            name = str(const.value)
            line = const.lineno
            end = self.col(line, const.end_col_offset or 0) - 1
            start = end - len(name)
            target = self.module.binds.get(name) or "G:" + name
            # A string the statement holds in a concatenation or with escapes is still found by its text.
            if self.line_text(line)[start - 1 : end - 1] == name:
                rows.append((name, line, start, end, "string", target, ""))
        vtypes: dict[str, str] = {}
        rtypes: dict[str, str] = {}
        declared: dict[str, str] = {}
        assigned: dict[str, list[str]] = {}
        for table, path, node, scope, is_ann in self.deferred_types:
            assert isinstance(node, ast.expr)
            chain = _instance(self.annotation_chain(scope, node)) if is_ann else self.chain(scope, node)
            if not chain:
                continue
            if table == "r":
                rtypes.setdefault(path, chain)
            elif is_ann:
                declared.setdefault(path, chain)
            else:
                assigned.setdefault(path, []).append(chain)
        # an annotation declares the type of every value; else the value is any of those assigned
        for path, chains in assigned.items():
            union = self.union(chains) if path not in declared else None
            if union:
                vtypes[path] = union
        vtypes.update(declared)
        for path, function, inner in self.returns:
            returned, yielded = _returned(function)
            if not yielded:
                inferred = self.union([self.chain(inner, v) for v in returned if not _is_none(v)])
                if inferred:
                    rtypes.setdefault(path, inferred)
        fixtures: dict[str, str] = {}
        for name, (path, function, inner) in self.fixtures.items():
            # the value of a fixture: what it returns, or yields once
            returned, yielded = _returned(function)
            if function.returns is not None:
                value: str | None = f"S:{path}/()/[]" if yielded else f"S:{path}/()"
            else:
                value = self.union([self.chain(inner, v) for v in yielded or returned if not _is_none(v)])
            if value:
                fixtures[name] = value
        bases = {
            path: [self.chain(self.base_scopes[path], _generic_origin(b)) or "" for b in exprs]
            for path, exprs in self.bases.items()
        }
        binds = {k: v for k, v in self.module.binds.items() if v.startswith("I:")}
        return {
            "refs": rows,
            "binds": binds,
            "star": self.star,
            "all": self.all_names,
            "vtypes": vtypes,
            "rtypes": rtypes,
            "bases": bases,
            **({"unions": self.unions} if self.unions else {}),
            **({"fixtures": fixtures} if fixtures else {}),
            **({"generates": True} if self.generates else {}),
        }


def _instance(chain: str | None) -> str | None:
    if chain and chain.endswith(("/*s", "/*m")):
        return chain  # an annotated container is an instance already
    if chain and chain.endswith("/*c"):
        return chain[:-3]  # a value of type[C] is the class C
    return f"{chain}/()" if chain else None


def _returned(function: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[list[ast.expr], list[ast.expr]]:
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


def _is_test_module(path: str) -> bool:
    """A file pytest collects tests from by default (test_*.py, *_test.py)."""
    name = path.rpartition("/")[2]
    return name.endswith(".py") and (name.startswith("test_") or name.endswith("_test.py"))


def _decorator_call(node: ast.expr) -> ast.expr:
    """``@fixture(scope=...)`` is the decorator ``fixture`` called with options."""
    return node.func if isinstance(node, ast.Call) else node


def _parametrized(marks: list[ast.expr]) -> dict[str, list[ast.expr] | None]:
    """What ``@pytest.mark.parametrize("a, b", [(1, 2), pytest.param(3, 4)])`` marks give each
    argument: its values, or None when they cannot be read (``indirect``, a computed list);
    ``"*"`` when the names themselves cannot be read (every argument may be given)."""
    out: dict[str, list[ast.expr] | None] = {}
    for mark in marks:
        if not (isinstance(mark, ast.Call) and _func_name(mark.func) == "parametrize"):
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
            if isinstance(row, ast.Call) and _func_name(row.func) == "param":
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


def _module_marks(tree: ast.Module) -> list[ast.expr]:
    """The marks ``pytestmark = ...`` applies to every test of a module."""
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "pytestmark" for t in stmt.targets
        ):
            value = stmt.value
            return list(value.elts) if isinstance(value, ast.List | ast.Tuple) else [value]
    return []


def _generic_origin(node: ast.expr) -> ast.expr:
    """``Base[T]`` in a class's bases: the class it inherits from is ``Base``."""
    return node.value if isinstance(node, ast.Subscript) else node


def _key(node: ast.AST) -> str:
    """``x`` / ``x.a.b``: the text of a name or attribute path narrowing can apply to, else ""."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = _key(node.value)
        return f"{inner}.{node.attr}" if inner else ""
    return ""


def _stored(node: ast.AST) -> str:
    """The key a node (re)binds: assignment targets, and names bound by except/def/class/import/match."""
    if isinstance(node, ast.Name | ast.Attribute):
        return "" if isinstance(node.ctx, ast.Load) else _key(node)
    if isinstance(node, ast.ExceptHandler | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return node.name or ""
    if isinstance(node, ast.MatchAs | ast.MatchStar):
        return node.name or ""
    if isinstance(node, ast.alias):
        return (node.asname or node.name).partition(".")[0]
    return ""


def _is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _all_args(args: ast.arguments) -> list[ast.arg]:
    out = [*args.posonlyargs, *args.args]
    if args.vararg is not None:
        out.append(args.vararg)
    out.extend(args.kwonlyargs)
    if args.kwarg is not None:
        out.append(args.kwarg)
    return out


def _func_name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    return node.attr if isinstance(node, ast.Attribute) else ""


def _decorator_name(node: ast.expr) -> str:
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _enclosing_class(scope: _Scope) -> str:
    current: _Scope | None = scope
    while current is not None:
        if current.cls:
            return current.cls
        if current.kind == "class":
            return current.path
        current = current.parent
    return ""


_STMT: dict[type, Any] = {
    ast.FunctionDef: _Analyzer.function,
    ast.AsyncFunctionDef: _Analyzer.function,
    ast.ClassDef: _Analyzer.klass,
    ast.Assign: _Analyzer.assign,
    ast.AnnAssign: _Analyzer.ann_assign,
    ast.AugAssign: _Analyzer.aug_assign,
    ast.For: _Analyzer.for_,
    ast.If: _Analyzer.if_,
    ast.AsyncFor: _Analyzer.for_,
    ast.With: _Analyzer.with_,
    ast.AsyncWith: _Analyzer.with_,
    ast.Import: _Analyzer.import_,
    ast.ImportFrom: _Analyzer.import_from,
    ast.Global: _Analyzer.global_,
    ast.Nonlocal: _Analyzer.global_,
    ast.Expr: _Analyzer.expr_stmt,
}


def analyze(path: str, text: str, tree: ast.Module) -> dict[str, Any]:
    """Reference facts of one parsed file (see the module docstring for the format)."""
    analyzer = _Analyzer(path, text)
    analyzer.module_marks = _module_marks(tree)
    analyzer.generates = any(
        isinstance(stmt, ast.FunctionDef) and stmt.name == "pytest_generate_tests" for stmt in tree.body
    )
    analyzer.body(tree.body, analyzer.module, True)
    return analyzer.finish()
