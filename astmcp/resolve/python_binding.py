"""The Python fact pass's state, positions and name binding (which scope a name means what in)."""

from __future__ import annotations

import ast

from astmcp.resolve.python_scope import Pending, Row, Scope, is_none, is_test_module
from astmcp.resolve.python_vocab import BUILTINS

# what a narrowing says a key is: an instance of a class expression (False) or the value of an
# expression (True), read in a scope
Narrowing = tuple[ast.expr, Scope, bool]


class Bindings:
    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.text = text
        self.ascii = text.isascii()
        self.lines = text.split("\n")
        self.is_init = path.endswith(("__init__.py", "__init__.pyi"))
        self.pending: list[Pending] = []
        self.rows: list[Row] = []
        self.module = Scope("module", "", None)
        self.star: list[str] = []
        self.star_lines: list[tuple[str, int]] = []  # (star import, its line): what it may rebind
        # modules a function imports by a name a string of the file also spells (a test writing
        # `app_mod.py` to a folder on `sys.path`, then importing it): see `Resolver.base`
        self.runtime_modules: set[str] = set()
        self.all_names: list[str] | None = None
        self.all_nodes: list[ast.Constant] = []
        self.all_opaque = False  # `__all__` was given a value whose names are unknown
        self.deferred_types: list[
            tuple[str, str, ast.AST, Scope, bool]
        ] = []  # (table, path, node, scope, ann)
        self.bases: dict[str, list[ast.expr]] = {}
        self.base_scopes: dict[str, Scope] = {}
        self._chain_memo: dict[int, str | None] = {}
        self._resolving: set[int] = set()
        self.walking = True  # the module walk is under way (finish() resolves what it recorded)
        self.line = 0  # the statement being visited
        self.alternatives: dict[str, list[str]] = {}  # module-level names bound more than one way
        self.keep: list[ast.AST] = []  # parsed string annotations (their node ids key the memo)
        # `isinstance(x, C)` narrowing: what is narrowed where the walk is (key: `x`, `self.x`),
        # and the uses it typed (node id -> the class expression, its scope, and False; or, after
        # `x = value` in a function, the value expression, its scope, and True)
        self.narrowed: dict[str, Narrowing] = {}
        self.typed_uses: dict[int, Narrowing] = {}
        # module functions telling what their argument is (python_records.type_guards)
        self.guards: dict[str, tuple[int, ast.expr | int]] = {}
        # a narrowing whose region rebinds its key later ends at that statement (id -> keys)
        self.narrowing_ends: dict[int, list[str]] = {}
        # a lambda a builtin calls with the items of an iterable (`sorted(xs, key=lambda c: …)`)
        self.lambda_items: dict[int, ast.expr] = {}
        self.tuple_fields: dict[str, list[str]] = {}  # NamedTuple classes: their fields in order
        self.named_strings: dict[int, str] = {}  # `T = TypeVar("T")`: the string's node -> T
        # strings that name parameters (a `**kwargs` key, a parametrize argname) -> the calls
        # whose keywords they are (python_keys)
        self.key_strings: dict[int, list[ast.Call]] = {}
        # functions whose `**kwargs` mapping is used other than by key: their named parameters
        self.opaque_kwargs: dict[str, list[str]] = {}
        # reads of the module's namespace by a computed key (`globals()[f"_{name}"]`): (line, col,
        # end, the key's literal prefix and suffix, scope path)
        self.dynamic: list[tuple[int, int, int, str, str, str, frozenset[str] | None, Scope | None]] = []
        # names an enclosing `if name in {"a", "b"}:` (or `== "a"`) says hold one of those strings
        self.known_strings: dict[str, frozenset[str]] = {}
        # lists of strings the module keeps whole (python_namespace.listed_strings)
        self.listed_strings: dict[str, frozenset[str]] = {}
        # strings doctest runs as the module's docstrings (python_doctests.run_strings)
        self.run_strings: set[int] = set()
        # annotations of parameters (ids): a parameter given another value in the body is either
        self.param_annotations: set[int] = set()
        # parameters of its functions the module gives `globals()` (python_namespace.globals_parameters)
        self.globals_params: set[tuple[str, str]] = set()
        self.unions: list[list[str]] = []  # alternatives of the `U:<n>` chains
        self.union_ids: dict[tuple[str, ...], int] = {}
        # unannotated functions: (path, return values, body scope, yields) to infer what a call gives
        self.returns: list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef, Scope]] = []
        # methods every return of which gives the receiver's kind (`return self`, `return cls(…)`)
        self.self_returns: list[str] = []
        self.fixtures: dict[str, tuple[str, ast.FunctionDef | ast.AsyncFunctionDef, Scope]] = {}
        # parametrized fixtures' bodies (scope ids): the `params=` values `request.param` is one of
        # (evaluated in the scope the fixture is defined in)
        self.fixture_params: dict[int, tuple[list[ast.expr], Scope]] = {}
        # `@contextmanager` functions: (path, function, body scope, scope) -> ``ctypes``
        self.managers: list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef, Scope, Scope]] = []
        # `@overload` signatures: (path, parameters, is a method, return annotation, scope)
        self.overloads: list[tuple[str, list[list[object]], bool, ast.expr | None, Scope]] = []
        self.decorated: dict[str, str] = {}  # function path -> what its outermost decorator makes
        # `C.__new__` / `Meta.__call__` that may return what is no instance of the class made
        self.new_others: list[str] = []
        # `__new__`s that may make something else: what their returns give (fact `newrets`)
        self.new_returns: list[tuple[str, ast.FunctionDef, Scope]] = []
        # module functions that hand back the class they decorate unchanged, and factories of them
        self.keepers: list[str] = []
        # function path -> per definition: (returns annotation, scope, True) or (the def, its
        # scope, False) or None (decorated: not known); judges names defined more than once
        self.def_returns: dict[str, list[tuple[ast.AST, Scope, bool] | None]] = {}
        self.keeper_makers: list[str] = []
        # class path -> its decorators' chains ("()" after a factory's: `@register("x")`)
        self.class_decorators: dict[str, list[str]] = {}
        self.metaclasses: dict[str, str] = {}  # class path -> the chain of its `metaclass=`
        # module and class scopes: (scope path, name) -> the lines binding it; the bindings at
        # `accessor_lines` are none other (`@x.setter def x`, `@overload`, `f = lru_cache(f)`)
        self.binding_lines: dict[tuple[str, str], set[int]] = {}
        self.accessor_lines: set[tuple[str, str, int]] = set()
        # functions whose first parameter is annotated (a decorator's `f: Callable[[A], R]`)
        self.receives: list[tuple[str, ast.expr, Scope]] = []
        # methods with annotated positional parameters: (path, annotations, scope) -> ``ptypes``
        self.param_types: list[tuple[str, list[ast.expr | None], Scope]] = []
        # functions whose return annotation names what a parameter's annotation does (a TypeVar,
        # perhaps): (path, positional annotations, scope) -> ``gparams``
        self.generic_calls: list[tuple[str, list[ast.expr | None], Scope]] = []
        # containers changed in place (`NAMES.append(x)`, `self.table[k] = v`): `N:<name>` of a
        # name, `A:<attr>` of an attribute; what their displays hold is not all they hold
        self.changed: set[str] = set()
        # ... and those given a value one knows (`self.items.append(x)`, `table[k] = x`): by the
        # same key, (how: `fill`, `fill*` its items, `fill[]` at an index or key; value, scope)
        self.fills: dict[str, list[tuple[str, ast.expr, Scope]]] = {}
        # (scope, container, (how, value) when known) -> ``changes`` and ``fills``
        self.changed_elsewhere: list[tuple[Scope, ast.expr, tuple[str, ast.expr] | None]] = []
        # attributes set through another receiver than the method's self: (scope, target, value)
        self.attribute_stores: list[tuple[Scope, ast.Attribute, ast.expr | None]] = []
        # calls given a dotted path first (`mock.patch("pkg.m.make", …)`), judged by their callee
        self.path_patches: list[tuple[Scope, ast.Call]] = []
        self.casts: list[tuple[Scope, ast.expr, ast.expr]] = []  # `cast(T, x)`: -> ``casts``
        # arguments given to imported callables: (scope, callee, `=name` or `#n`, value) -> ``passes``
        self.passes: list[tuple[Scope, ast.expr, str, ast.expr]] = []
        self.type_vars: list[str] = []  # `T = TypeVar("T")` at module or class level: their paths
        # comprehension node -> the scope of its targets; lambda -> the scope of its body
        self.comp_scopes: dict[int, Scope] = {}
        self._locals_busy: set[tuple[int, str]] = set()
        self._local_unions: dict[tuple[int, str], int] = {}  # self-referencing locals -> their union
        self.test_file = is_test_module(path)
        self.displays: dict[str, ast.List | ast.Tuple] = {}  # module constants parametrize may name
        self.module_marks: list[ast.expr] = []  # `pytestmark = pytest.mark.parametrize(...)`
        self.module_aliases: dict[str, ast.expr] = {}  # `parametrize = pytest.mark.parametrize`
        self.packed: list[ast.expr] = []  # `tuple[T, ...]` made for `*args: T` (see bind_params)
        self.class_marks: dict[str, list[ast.expr]] = {}  # class path -> its decorators
        self.generates = False  # the module defines pytest_generate_tests: any argument may be given
        # a conftest's `doctest_namespace["X"] = v`: (X, v) in the order written
        self.runner_values: list[tuple[str, ast.expr]] = []

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
        scope: Scope,
        name: str,
        target: str,
        source: tuple[str, ast.AST | str] | None = None,
        source_scope: Scope | None = None,
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
        if scope.kind in ("module", "class"):
            self.binding_lines.setdefault((scope.path, name), set()).add(self.line)
        if scope.kind in ("module", "class") and target == "":
            target = "S:" + (f"{scope.path}.{name}" if scope.path else name)
        if name not in scope.binds:
            scope.binds[name] = target
            if scope.kind in ("class", "module"):
                scope.bound_at[name] = self.line
        elif scope.kind == "function" and target.startswith("I:") and scope.binds[name] == "":
            # `app = tmp / "pkg"` then `from pkg import app` in one function: a local given
            # either value
            scope.values.setdefault(name, []).append(("chain", target, scope))
        elif (
            scope.kind == "module"
            and target
            and target != scope.binds[name]
            and not (
                source is not None
                and source[0] == "expr"
                and isinstance(source[1], ast.expr)
                and is_none(source[1])
            )
        ):
            # `try: from x import f` / `except ImportError: def f(...)`: a use means either (`except
            # ImportError: colorama = None` is none: what is read off the name is the module's)
            others = self.alternatives.setdefault(name, [])
            if target not in others:
                others.append(target)
        if target == "" and scope.binds.get(name) == "":
            slot = scope.values.setdefault(name, [])
            if source is not None:
                slot.append((source[0], source[1], source_scope or scope))
            else:
                slot.append(("none", "", scope))

    def lookup(self, scope: Scope, name: str, line: int = 0) -> tuple[str, Scope | None]:
        """What ``name`` means at a use in ``scope`` (on ``line``): (target, binding scope)."""
        if name in scope.globals:
            return self.module.binds.get(name, "G:" + name), self.module
        first = True
        current: Scope | None = scope
        while current is not None:
            visible = (first or current.kind != "class") and name in current.binds
            # A class body runs top to bottom: a name bound later in it is still the outer one.
            # So does a module's: a builtin's name read at module level before the module binds
            # it (`ExceptionGroup = ExceptionGroup`) is the builtin.
            later = (
                line
                and current.bound_at.get(name, 0) >= line
                and (
                    current.kind == "class"
                    or (current.kind == "module" and first and name in BUILTINS and not self.star)
                )
            )
            if visible and not later and name not in current.nonlocals:
                return current.binds[name], current
            if name in current.globals:
                return self.module.binds.get(name, "G:" + name), self.module
            first = False
            current = current.parent
        if scope.runner and name not in BUILTINS:
            return "N:" + name, None  # a doctest's: what its runner gives (`doctest_namespace`)
        return "G:" + name, None
