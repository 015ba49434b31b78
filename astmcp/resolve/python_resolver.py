"""The Python resolver: what a chain (see :mod:`astmcp.resolve.python_facts`) means across files:
bases, unions, fixtures and steps (attributes, calls, items of containers)."""

from __future__ import annotations

import posixpath
import re
import sqlite3
from collections.abc import Iterator
from typing import Any

from astmcp.resolve.python_external import class_defines, holds_anything, importable, member_type
from astmcp.resolve.python_lookups import (
    CLASSLIKE,
    OPAQUE_KEYWORD,
    Entity,
    ModuleLookups,
    Sym,
    alike,
    alternatives,
    either,
    is_either,
)
from astmcp.resolve.python_modules import SUBCLASSES, TEST_CLASSES, is_test_file, path_key
from astmcp.resolve.python_vocab import BUILTINS, CLOSED_ORIGINS, IDENT, MODULE_NAMES

# container methods that give no item (`xs.pop()`, `m.get(k)` may be a project object: unknown)
# container methods whose call gives an item: "g" whatever the arguments, "g1" with one (no default)
_ITEM_GIVERS = ("g", "g1")
# builtin containers of untyped items (`L:dict` of a `**kwargs` or a `{}` literal)
_LITERAL_CONTAINERS = frozenset({"dict", "list", "tuple", "set", "frozenset"})
# instances of the standard library's containers: what their methods hand out is what the program
# put in (cachetools' `item = self.__items.pop(key)` of an `OrderedDict` of its `_Item`s)
_OUTSIDE_CONTAINERS = frozenset(
    f"collections.{name}.()"
    for name in ("OrderedDict", "defaultdict", "Counter", "deque", "ChainMap", "UserDict", "UserList")
)
# decoders given a hook (or a decoder class) give whatever it makes (a call's shape names them)
_HOOKED_DECODERS = frozenset(
    {"json.loads", "json.load", "json.JSONDecoder", "simplejson.loads", "simplejson.load"}
)
_DECODER_HOOKS = frozenset({"object_hook", "object_pairs_hook", "cls", "parse_float", "parse_int"})
# outside callables that hand back objects the program made elsewhere, whatever they are given:
# importers (a project module), deserializers (any pickled object), queues (what was put)
_MAKES_ANYTHING = frozenset(
    {
        "importlib.import_module",
        "importlib.reload",
        # a module loaded from a file (a plugin): any project module
        "importlib.util.module_from_spec",
        "importlib._bootstrap.module_from_spec",
        "importlib.machinery.SourceFileLoader.load_module",
        "importlib.machinery.SourcelessFileLoader.load_module",
        "importlib.abc.Loader.load_module",
        "imp.load_source",
        "imp.load_module",
        "builtins.__import__",
        # pytest's test-time import (`m = pytest.importorskip(request.param)`)
        "pytest.importorskip",
        "_pytest.outcomes.importorskip",
        "builtins.eval",
        "pickle.load",
        "pickle.loads",
        "pickle.Unpickler.load",
        "_pickle.load",
        "_pickle.loads",
        "dill.load",
        "dill.loads",
        "cloudpickle.load",
        "cloudpickle.loads",
        # containers and context stacks holding whatever the program put there
        "contextlib.ExitStack.enter_context",
        "contextlib.AsyncExitStack.enter_context",
        "contextlib.AsyncExitStack.enter_async_context",
        "weakref.ref",
        # functions giving back one of the items they are given, or (a proxy) the object itself:
        # a heap or sequence of project objects hands them out (cachetools' `heapq.heappop(order)`
        # of `_Item`s, whose list the index sees no item of)
        "weakref.proxy",
        "heapq.heappop",
        "heapq.heapreplace",
        "heapq.heappushpop",
        "random.choice",
        "random.Random.choice",
        "secrets.choice",
        "statistics.median_low",
        "statistics.median_high",
        "statistics.mode",
        "operator.getitem",
        "functools.reduce",
        *(f"weakref.{kind}.{get}" for kind in ("WeakValueDictionary", "WeakKeyDictionary") for get in ("get", "pop", "setdefault")),
        *(f"collections.{kind}.{get}" for kind in ("ChainMap", "UserDict") for get in ("get", "pop", "setdefault")),
        "collections.UserList.pop",
        # a context variable gives what was set; getters give an item or attribute of anything
        "contextvars.ContextVar.get",
        "operator.itemgetter",
        "operator.attrgetter",
        "operator.methodcaller",
        *(f"{queue}.{get}" for queue in (
            "queue.Queue", "queue.SimpleQueue", "queue.LifoQueue", "queue.PriorityQueue", "asyncio.Queue",
            "asyncio.LifoQueue", "asyncio.PriorityQueue", "multiprocessing.Queue", "multiprocessing.SimpleQueue",
            "multiprocessing.JoinableQueue",
        ) for get in ("get", "get_nowait")),
    }
)  # fmt: skip
# event loops and futures (however reached: `asyncio.new_event_loop().run_until_complete`) and
# their methods giving back what the program's coroutines and functions returned
_RUNNERS = ("asyncio.", "concurrent.futures.")
_RUN_RESULTS = frozenset({"run", "run_until_complete", "result", "wait_for", "shield"})
# mocks stand in for project objects: every attribute (and what calling one gives) is anything
_MOCKS = tuple(
    f"{module}.{name}"
    for module in ("unittest.mock", "mock")
    for name in (
        "Mock",
        "MagicMock",
        "AsyncMock",
        "NonCallableMock",
        "NonCallableMagicMock",
        "patch",
        "create_autospec",
    )
)
_NO_ITEM_METHODS = frozenset(
    {
        "append",
        "extend",
        "insert",
        "remove",
        "clear",
        "sort",
        "reverse",
        "index",
        "count",
        "add",
        "discard",
        "update",
        "keys",
        "issubset",
        "issuperset",
        "isdisjoint",
    }
)
# pytest's own fixtures: outside the project unless a conftest.py or the module defines the name
# what pytest's `request` gives that the tests made: a fixture's `params` value, another fixture
_REQUEST_VALUES = frozenset({"param", "getfixturevalue"})
_PYTEST_FIXTURES = frozenset(
    {
        "request",
        "tmp_path",
        "tmp_path_factory",
        "tmpdir",
        "tmpdir_factory",
        "monkeypatch",
        "capsys",
        "capsysbinary",
        "capfd",
        "capfdbinary",
        "caplog",
        "recwarn",
        "pytestconfig",
        "record_property",
        "record_xml_attribute",
        "record_testsuite_property",
        "pytester",
        "testdir",
        "cache",
        "doctest_namespace",
    }
)
_CALLABLE = ("function", "method", "property")
_UNIONS = re.compile(r"\b[UC]:(\d+)")
_MAX_TEST_SUBCLASSES = 64  # test classes followed below one that requests a fixture
# marks an outside generic class given a project type (`contextvars.ContextVar[*]`): see `parameterized`
_HOLDS_PROJECT = "[*]"
_PLAIN_LOOKUP = frozenset({"object.__getattribute__", "builtins.object.__getattribute__"})
_MAX_SUBCLASSES = 512  # classes followed below one reading a member only its subclasses declare
# a class's own code reading a member off its instances or itself: `S:<class>/(i)/x` (`self.x`),
# `S:<class>/()/x`, `S:<class>/x`
_SELF_READ = re.compile(r"S:([\w.]+?)/(?:\(i?\)/)?(\w+)")


class Resolver(ModuleLookups):
    """Lazy, memoised resolution over the index; one instance per link run."""

    def __init__(self, conn: sqlite3.Connection, fresh: dict[str, dict[str, Any]]) -> None:
        super().__init__(conn, fresh)
        # type variables bound by calls (`B:<n>`), and the return annotations' tuples and unions
        # made with them (`Q:<n>`, `V:<n>`): (path, chains)
        self._bound: list[Entity] = []
        self._bound_ids: dict[Entity, int] = {}
        self._made: list[tuple[str, tuple[str, ...]]] = []
        self._made_ids: dict[tuple[str, tuple[str, ...]], int] = {}
        self._stepping: set[tuple[Any, ...]] = set()  # steps from variables holding unions
        # test files' classes by the last name of each base (see `test_subclasses`)
        self._test_bases: dict[str, list[tuple[str, str]]] | None = None
        self._all_bases: dict[str, list[tuple[str, str]]] | None = None  # every file's (`subclasses`)
        self._self_reads: dict[str, dict[str, set[str]]] = {}  # path -> class -> names (`self_reads`)
        self._conftests: list[str] | None = None  # the project's conftest.py files (`runner_name`)

    def resolve(self, path: str, chain: str) -> Entity:
        key = ("c", path, chain)
        hit = self._memo.get(key)
        if hit is not None:
            if hit[1]:
                self.deps |= hit[1]
            return hit[0]
        if key in self._assumed:
            self._assumption_uses += 1  # what depends on an assumption is not memoised
            return self._assumed[key]
        return self._tracked(key, lambda: self._resolve(path, chain))

    def _resolve(self, path: str, chain: str) -> Entity:
        head, sep, step = chain.rpartition("/")
        if not sep:
            return self.base(path, chain)
        entity = self.resolve(path, head)
        if step[0] == "<":  # `Box[Item]`: the class given its type arguments
            return self.parameterized(path, entity, int(step[1:]))
        if ";" in step:  # `f(xs)`: a call with its arguments' chains
            step, _, entry = step.partition(";")
            outside = entity is not None and any(a is not None and a[0] == "x" for a in alternatives(entity))
            if outside and self.given_project(path, int(entry)):
                # `copy.copy(obj)`, `random.choice(cells)`: what an outside function makes of a
                # project object may be that object
                return None
            bound = self.generic_call(path, entity, int(entry))
            if bound is not None:
                return self.resolve(*bound)
        if step.startswith("()") and entity is not None and entity[0] == "s" and len(entity) == 2:
            made = self.receivers_kind(path, head, entity[1])
            if made is not None:
                return made
        if step.startswith("()") and head.rpartition("/")[0].endswith("/^"):
            # `super().make()`: the declaration super() reaches runs, not an override below it
            decided, made = self.super_call(entity, step[2:] or None)
            if decided:
                return made
        return self.step(entity, step)

    def receivers_kind(self, path: str, head: str, method_id: int) -> Entity:
        """``Sub.from_file(p)``, ``sub.copy()``: a method of a base class every return of which
        gives its receiver or a new instance of the receiver's class (``return self``, ``return
        cls(**kw)`` in a classmethod; fact ``selfrets``), called on a project subclass or its
        instance, gives an instance of that subclass (mako's ``Config.from_cfg_file``). A method
        annotated to give the base (``def root(self) -> Node``) gives what it says: another node
        may be of another subclass. None otherwise."""
        method = self.syms[method_id]
        owner = method.symbol_path.rpartition(".")[0]
        if method.kind != "method" or not owner:
            return None
        if method.symbol_path not in self.facts(method.path).get("selfrets", ()):
            return None
        receiver_chain, sep, _ = head.rpartition("/")
        receiver = self.resolve(path, receiver_chain) if sep else None
        if receiver is None or receiver[0] not in ("s", "i") or len(receiver) != 2:
            return None
        cls = self.syms[receiver[1]]
        if cls.kind not in CLASSLIKE or (cls.symbol_path == owner and cls.path == method.path):
            return None
        if not any(a.path == method.path and a.symbol_path == owner for a in self.project_ancestors(cls.id)):
            return None
        return ("i", cls.id)

    def any_definition(self, sym: Sym, shape: str | None) -> Entity:
        """What calling a name defined more than once by ``def``, each giving the same (fact
        ``redefs``), gives; nothing known when one of them is no function."""
        defs = self.table(sym.path).get(sym.symbol_path, [])
        if not defs or any(d.kind not in ("function", "method") for d in defs):
            return None
        return self.overridden_return(sym, self.own_return(sym, shape), shape)

    def super_call(self, entity: Entity, shape: str | None) -> tuple[bool, Entity]:
        """(True, what calling the method ``super()`` reached gives): what it returns, by its own
        declaration, when no project class joins two classes below its owner (a diamond puts
        another override between the caller and it); (False, None) when this does not decide."""
        if entity is None or entity[0] != "s":
            return False, None
        sym = self.syms[entity[1]]
        owner_path = sym.symbol_path.rpartition(".")[0]
        owner = self.symbol(sym.path, owner_path) if owner_path else None
        if sym.kind not in ("function", "method") or owner is None or owner.kind not in CLASSLIKE:
            return False, None
        if sym.symbol_path in self.facts(sym.path).get("rebound", ()) or self.bound_again(sym):
            return False, None
        joined = self._tracked(("dia", owner.id), lambda: ("b", self._joined_below(owner.id)))
        if joined is None or joined[1]:
            return False, None
        return True, self.own_return(sym, shape)

    def _joined_below(self, class_id: int) -> bool:
        """Whether a project class derives from ``class_id`` along two paths (``class D(Sub,
        Other)`` with both below it), or there are too many subclasses to tell."""
        below = self._below(class_id)
        return below is None or below[1]

    def _below(self, class_id: int) -> tuple[list[Sym], bool] | None:
        """The project classes deriving from ``class_id``, directly or not (each once), and
        whether one of them derives from it along two paths; None when there are too many."""
        self.deps.add(SUBCLASSES)
        found: list[Sym] = []
        joined = False
        seen = {class_id}
        todo = [class_id]
        while todo:
            if len(seen) >= _MAX_SUBCLASSES:
                return None
            for sub in self.direct_subclasses(todo.pop()):
                if sub.id in seen:
                    joined = True
                    continue
                seen.add(sub.id)
                todo.append(sub.id)
                found.append(sub)
        return found, joined

    def parameterized(self, path: str, entity: Entity, entry: int) -> Entity:
        """A project generic class given type arguments (the ``entry``-th of ``path``'s unions):
        ``("s", class, bindings)`` with each of its type variables they bind (``B:<n>``); the class
        itself when it binds none; anything else as it is."""
        cls = self.deref_class(entity)
        if cls is not None and cls[0] == "x" and cls[1] and not str(cls[1]).startswith("?"):
            # an outside generic class given a project type (`ContextVar[RequestContext]`): what its
            # members give may be a project object (`_cv_request.get().url_adapter`)
            for argument in self.facts(path).get("unions", [])[entry]:
                value = self.deref(self.resolve(path, argument)) if argument else None
                if value is not None and value[0] != "x":
                    return ("x", f"{cls[1]}{_HOLDS_PROJECT}")
            return entity
        if cls is None or cls[0] != "s" or self.syms[cls[1]].kind not in CLASSLIKE:
            return entity
        sym = self.syms[cls[1]]
        params = [  # its type variables, in order (the names given to its bases may be classes too)
            p
            for p in self.facts(sym.path).get("tparams", {}).get(sym.symbol_path, ())
            if self.is_type_var(sym.path, p)
        ]
        if not params:
            return cls
        self.deps.update((path, sym.path))
        heads: dict[str, str] = {}
        for param, argument in zip(params, self.facts(path).get("unions", [])[entry], strict=False):
            if argument:
                value = self.deref(self.resolve(path, argument))
                if value is not None and value[0] != "x":  # outside the project (`Any` too): unbound
                    heads[param] = f"B:{self.bound_id(value)}"
        return ("s", cls[1], tuple(sorted(heads.items()))) if heads else cls

    def bound_step(
        self, entity: tuple[str, int, tuple[tuple[str, str], ...]], step: str, shape: str | None
    ) -> Entity:
        """A step from a generic class given type arguments, an instance of it, or a member of that
        instance the class itself declares: what the member's declared type says, the class's type
        variables bound. Anything else is as without them."""
        tag, value, binds = entity
        sym = self.syms[value]
        call = "()" + (shape or "")
        plain = call if step == "()" else step
        if tag == "s" and sym.kind in CLASSLIKE:
            if step != "()":
                return self.step(("s", value), plain)
            # (a call that may make something else, as for the class alone, gives nothing known)
            return ("i", value, binds) if self.step(("s", value), "()") is not None else None
        if tag == "i":
            if step == "[]":  # iterated as its `__iter__` is annotated
                method = self.bound_step(entity, "__iter__", None)
                made = (
                    self.bound_step(method, "()", None) if method is not None and len(method) == 3 else None
                )
                return self.item_step(made, "[]") if made is not None else self.step(("i", value), step)
            if step == "[i]":  # indexed as its `__getitem__` is annotated
                method = self.bound_step(entity, "__getitem__", None)
                if method is not None and len(method) == 3:
                    return self.bound_step(method, "()", "[i]")
                return self.step(("i", value), step)
            if not IDENT.fullmatch(step):
                return self.step(("i", value), plain)
            member = self.class_member(value, step, skip_self=False)
            if member is not None and member[0] == "s" and _declared_in(self.syms[member[1]], sym):
                return ("s", member[1], binds)
            return member
        facts = self.facts(sym.path)
        if sym.kind in _CALLABLE and sym.kind != "property":
            overloads = facts.get("otypes", {}).get(sym.symbol_path)
            if step == "()" and overloads is not None:
                # the overloads the call fits (an index, `[i]`: those taking no `slice`), each
                # return with the type variables bound; unknown when one's is
                fits = _index_chains(overloads) if shape == "[i]" else overload_chains(overloads, shape)
                if not fits or "" in fits:
                    return None
                given = {
                    alike(self.resolve(sym.path, self.substituted(sym.path, c, dict(binds)))) for c in fits
                }
                return given.pop() if len(given) == 1 else either(list(given))
            chain = (
                facts.get("rtypes", {}).get(sym.symbol_path) if step == "()" and overloads is None else None
            )
            if chain is None:
                return self.step(("s", value), plain)
            return self.resolve(sym.path, self.substituted(sym.path, chain, dict(binds)))
        chain = (
            facts.get("rtypes", {}).get(sym.symbol_path) if sym.kind == "property" else self.value_chain(sym)
        )
        if chain is None:
            return self.step(("s", value), plain)
        return self.step(self.resolve(sym.path, self.substituted(sym.path, chain, dict(binds))), plain)

    def named_tuple(self, class_id: int) -> bool:
        cls = self.syms[class_id]
        return cls.symbol_path in self.facts(cls.path).get("nfields", {})

    def given_project(self, path: str, entry: int) -> bool:
        """Whether a call's positional arguments (the ``entry``-th of ``path``'s unions) include a
        project object: an instance, class or function of the project, or a container that may
        hold one."""
        self.deps.add(path)
        for argument in self.facts(path).get("unions", [])[entry]:
            if argument and _holds_project(self.deref(self.resolve(path, argument))):
                return True
        return False

    def generic_call(self, path: str, callee: Entity, entry: int) -> tuple[str, str] | None:
        """A call of a project function whose return annotation names type variables its
        parameters' annotations bind (``def first(xs: Iterable[T]) -> T``): its return chain with
        each variable the arguments bind (the ``entry``-th of ``path``'s unions: their chains) put
        in, as (callee's path, chain); None when it is no such call or no variable is bound."""
        callee = self.deref(callee) if callee is not None and callee[0] == "s" else callee
        if callee is None or callee[0] != "s" or self.syms[callee[1]].kind not in ("function", "method"):
            return None
        sym = self.syms[callee[1]]
        facts = self.facts(sym.path)
        binders = facts.get("gparams", {}).get(sym.symbol_path)
        returned = facts.get("rtypes", {}).get(sym.symbol_path)
        if not binders or not returned:
            return None
        self.deps.update((path, sym.path))
        arguments = self.facts(path).get("unions", [])[entry]
        bound: dict[str, Entity] = {}
        clashing: set[str] = set()
        for binder, argument in zip(binders, arguments, strict=False):
            if not binder or not argument or not self.is_type_var(sym.path, binder[0]):
                continue
            variable, how = binder
            value = self.deref(self.resolve(path, argument))
            if how == "c" and value is not None and value[0] == "e" and value[1][0] == "t":
                value = either([self.step(part, "()") for part in value[1][1]])  # a tuple of classes
            elif how != "v":
                value = self.step(value, "()" if how == "c" else how)
            if value is None or value[0] == "x" or bound.get(variable, value) != value:
                # unknown, outside the project (`Any` too), or bound to two things: left unbound
                clashing.add(variable)
            bound[variable] = value
        heads = {v: f"B:{self.bound_id(e)}" for v, e in bound.items() if v not in clashing}
        return (sym.path, self.substituted(sym.path, returned, heads)) if heads else None

    def is_type_var(self, path: str, chain: str) -> bool:
        """Whether ``chain`` (in ``path``) names a ``TypeVar`` declared at module or class level."""
        found = self.resolve(path, chain)
        if found is None or found[0] != "s":
            return False
        sym = self.syms[found[1]]
        return sym.kind == "variable" and sym.symbol_path in self.facts(sym.path).get("tvars", ())

    def bound_id(self, entity: Entity) -> int:
        """The ``B:<n>`` base standing for a type variable bound to ``entity`` (an instance of it)."""
        found = self._bound_ids.get(entity)
        if found is None:
            found = self._bound_ids[entity] = len(self._bound)
            self._bound.append(entity)
        return found

    def substituted(self, path: str, chain: str, heads: dict[str, str]) -> str:
        """``chain`` (in ``path``) with the bases in ``heads`` replaced, also inside the tuples and
        unions it starts from (``Q:<n>`` / ``V:<n>``: such entries made here)."""
        base, sep, rest = chain.partition("/")
        if base in heads:
            return heads[base] + sep + rest
        if base[:2] in ("P:", "U:"):
            parts = self.facts(path).get("unions", [])[int(base[2:])]
            made = [self.substituted(path, c, heads) if c else c for c in parts]
            if made != parts:
                key = (path, tuple(made))
                found = self._made_ids.get(key)
                if found is None:
                    found = self._made_ids[key] = len(self._made)
                    self._made.append(key)
                return f"{'Q' if base[0] == 'P' else 'V'}:{found}{sep}{rest}"
        return chain

    def written_at_run_time(self, path: str, module: str) -> bool:
        """Whether ``module``, found neither in the project nor where Python would import it from,
        is one ``path`` may write before importing it (``runtime_modules``): its objects are
        unknown, not an outside library's."""
        top = module.split(".", 1)[0]
        return top in self.facts(path).get("rtmods", ()) and not importable(top)

    def base(self, path: str, chain: str) -> Entity:
        if not chain:
            return None  # an unknown part ("": an overload without a return annotation)
        tag = chain[0]
        if tag == "S":
            sym = self.symbol(path, chain[2:])
            # no symbol declares it (a name bound where the outline lists none): its value is unknown
            return ("s", sym.id) if sym else None
        if tag == "I":
            _, level, module, name = chain.split(":", 3)
            mod = self.module(path, int(level), module)
            if mod is not None and mod[0] == "x" and self.written_at_run_time(path, module):
                return None
            if not name:
                return mod
            if mod is None or mod[0] == "x":
                return ("x", f"{module}.{name}")
            member = self.member(mod, name)
            if member is None and mod[0] == "m":  # `from ns import sub` of a namespace sibling
                return ("x", f"{module}.{name}")
            return member
        if tag == "D":
            return self.module(path, 0, chain[2:])
        if tag == "M":
            # `with patch("pkg.m.obj") as x`: a mock standing in for a project object is typed as
            # that object; for anything else it is a mock (whatever is asked of it, it has)
            found = self.module(path, 0, chain[2:])
            return found if found is not None and found[0] != "x" else ("x", "unittest.mock.MagicMock")
        if tag == "L":
            return ("x", chain[2:])
        if tag == "P":
            # a tuple annotated part by part: `tuple[str, Command]`
            self.deps.add(path)
            parts = self.facts(path).get("unions", [])[int(chain[2:])]
            return ("e", ("t", tuple(self.resolve(path, c) if c else None for c in parts)))
        if tag == "B":  # a type variable a call bound: what it stands for is made by `()`
            return ("e", ("f", self._bound[int(chain[2:])]))
        if tag in "QV":  # a tuple / union of a generic function's return annotation, bound
            made_path, made = self._made[int(chain[2:])]
            if tag == "V":
                return self.union(made_path, chain, list(made))
            return ("e", ("t", tuple(self.resolve(made_path, c) if c else None for c in made)))
        if tag == "N":  # a doctest's read of a name nothing binds: its runner's, else a global
            given = self.runner_name(path, chain[2:])
            if given is not None:
                return given
            chain, tag = "G:" + chain[2:], "G"
        if tag in "UOG":
            self.deps.add(path)  # the module's unions, star imports
        if tag == "U":
            return self.union(path, chain, self.facts(path).get("unions", [])[int(chain[2:])])
        if tag == "F":
            return self.fixture(path, chain[2:])
        if tag == "C":
            # `cast(T, x)`: an outside T is taken at its word (what a project object cast so
            # reaches is python_values's); a project T may be a wrong claim, so the value is T or
            # whatever x is (unknown when x is)
            claimed, actual = self.facts(path).get("unions", [])[int(chain[2:])]
            typed = self.resolve(path, claimed)
            if typed is None or typed[0] == "x":
                return typed
            return self.union(path, chain, [claimed, actual]) if actual else None
        if tag == "O":
            operands = [
                self.deref(self.resolve(path, c)) for c in self.facts(path).get("unions", [])[int(chain[2:])]
            ]
            if all(alike(o) == ("x", "") for o in operands):
                return ("x", "")
            # `docs + temps` of two lists: a list of the items of both
            if all(o is not None and o[0] == "e" and o[1][0] == "s" for o in operands):
                items = either([o[1][1] for o in operands])  # type: ignore[index]
                return ("e", ("s", items)) if items is not None else None
            return None
        if tag == "G":
            name = chain[2:]
            outside_star = False
            for star in self.facts(path).get("star", ()):
                mod = self.resolve(path, star)
                if mod is not None and mod[0] in ("m", "d"):
                    found = self.member(mod, name, exported_only=True)
                    if found is not None and found[0] != "x":
                        return found
                else:
                    outside_star = True
            # a builtin, or what an outside module's `import *` may bring; any other name nothing
            # binds (a class-body name read from a method, one made by `exec`) is unknown
            return ("x", name) if name in BUILTINS or name in MODULE_NAMES or outside_star else None
        return None

    def union(self, path: str, union: str, chains: list[str]) -> Entity:
        """A value that is any of ``chains``: what they all resolve to, else unknown (values
        outside the project alike are outside). Alternatives that use the value itself
        (``x = x or X()``, ``opts = opts.copy()``) must give it back when it is assumed."""
        found: set[Entity] = set()
        held: list[Entity] = []
        recursive = []
        for chain in chains:
            cycles = self._cycles
            entity = self.deref(self.resolve(path, chain))  # a property, variable: what it holds
            if self._cycles != cycles:  # cut short by a cycle (`U:1/items/()/[]#1/*m`)
                recursive.append(chain)
            else:
                found.add(alike(entity))
                held.append(entity)
        if None in found:
            return None
        if len(found) != 1:
            # one of several known things: steps are taken from each (see `step`); outside ones
            # keep their names (`Doc()` or a `string.Template()`: a member read off it may be the
            # Template's, which no rename of Doc's may touch)
            return either(held) if not recursive else None
        value = found.pop()
        if recursive:
            # the uses outside (`x.copy` while resolving x) are computed again under the assumption
            key = ("c", path, union)
            self._assumed[key] = value
            outer, self._busy = self._busy, {key}
            try:
                if any(alike(self.deref(self.resolve(path, chain))) != value for chain in recursive):
                    return None
            finally:
                del self._assumed[key]
                self._busy = outer
            if not self._assumed:  # inside another union's check the result rests on its assumption
                self._settled.add(key)
        return value

    def fixture(self, path: str, name: str) -> Entity:
        """The value of the pytest fixture ``name`` for a test in ``path``: the module's own,
        else the nearest ``conftest.py`` up the folders'. ``Class:name``: for a test of that
        class, which runs in the class and in each of its project subclasses, the value in
        each (:meth:`runner_fixture`), one of them all."""
        self.deps.add(path)
        if ":" in name:
            cls, _, name = name.rpartition(":")
            if cls.startswith("#"):  # `F:#<class id>:name`: as the subclass with that id runs it
                return self.runner_fixture(int(cls[1:]), name)
            sym = self.symbol(path, cls)
            if sym is None or sym.kind not in CLASSLIKE:
                return None
            return either([self.runner_fixture(r, name) for r in [sym.id, *self.test_subclasses(sym.id)]])
        chain = self.facts(path).get("fixtures", {}).get(name)
        if chain is not None:
            return self.resolve(path, chain)
        folder = posixpath.dirname(path)
        while True:
            conftest = f"{folder}/conftest.py" if folder else "conftest.py"
            if conftest in self.file_ids:
                self.deps.add(conftest)
                if self.facts(conftest).get("generates"):
                    return None  # its pytest_generate_tests may parametrize any argument
                chain = self.facts(conftest).get("fixtures", {}).get(name)
                if chain is not None:
                    return self.resolve(conftest, chain)
            else:
                self.deps.add("?@" + path_key(conftest))
            if not folder:
                break
            folder = posixpath.dirname(folder)
        return ("x", f"pytest.{name}") if name in _PYTEST_FIXTURES else None

    def runner_name(self, path: str, name: str) -> Entity:
        """What pytest's ``doctest_namespace`` gives ``name`` in the doctests of ``path``: the value
        the nearest ``conftest.py`` up the folders puts there (``python_runner_names``); when none
        above does, the value the project's other conftests give it, all alike (a source
        distribution often leaves out the documentation's own conftest). None: no conftest gives
        it, or a value not known."""
        folder = posixpath.dirname(path)
        while True:
            conftest = f"{folder}/conftest.py" if folder else "conftest.py"
            if conftest in self.file_ids:
                self.deps.add(conftest)
                chain = self.facts(conftest).get("doctestns", {}).get(name)
                if chain is not None:
                    return self.resolve(conftest, chain) if chain else None
            else:
                self.deps.add("?@" + path_key(conftest))
            if not folder:
                break
            folder = posixpath.dirname(folder)
        if self._conftests is None:
            self._conftests = sorted(p for p in self.file_ids if p.rpartition("/")[2] == "conftest.py")
        found: set[Entity] = set()
        for conftest in self._conftests:
            self.deps.add(conftest)
            chain = self.facts(conftest).get("doctestns", {}).get(name)
            if chain is not None:
                found.add(self.resolve(conftest, chain) if chain else None)
        return found.pop() if len(found) == 1 else None

    def runner_fixture(self, runner: int, name: str) -> Entity:
        """The fixture ``name`` as a test run in the test class ``runner`` (a symbol id) gets it:
        the class's own or inherited one, else its module's (or a conftest's). One a base class
        makes from other fixtures (``return signer_factory()``) takes those as ``runner`` has
        them (a subclass overrides ``signer_factory``); used otherwise than as its value's head,
        they leave it unknown."""
        sym = self.syms[runner]
        found = self._class_fixture(sym.path, sym.symbol_path, name, 0)
        if found is None:
            return self.fixture(sym.path, name)
        path, chain, owner = found
        head = f"F:{owner}:"
        made = chain.startswith(head)  # made from other fixtures: taken as `runner` has them
        rest = chain[len(head) :] if made else chain
        if self._uses_fixtures(path, rest):
            return None
        return self.resolve(path, f"F:#{runner}:{rest}" if made else chain)

    def _uses_fixtures(self, path: str, chain: str) -> bool:
        """Whether ``chain`` (or a union it holds) takes the value of a fixture."""
        if "F:" in chain:
            return True
        unions = self.facts(path).get("unions", [])
        return any("F:" in "\n".join(unions[int(n)]) for n in _UNIONS.findall(chain) if int(n) < len(unions))

    def subclass_member(self, class_id: int, name: str) -> Entity:
        """A member ``name`` no class at or above ``class_id`` declares: the nearest declaration on
        each path down. Where the class reads it off its own instances or itself
        (``self.validation_attrs`` in wtforms' ``Input.__call__``, declared by each input
        subclass), they are one override family with the class as its root
        (:func:`python_families.family_member`); read off an instance typed as the class
        elsewhere (``isinstance(v, Item) and v.pretty()``), the value is one of those subclasses'
        (``python_families``). None when no subclass declares it, or the class may make
        attributes up (``__getattr__``, ``__getattribute__``; a base outside the project may:
        then only its own reads are taken so)."""
        made = self.makes_attributes(class_id)
        if made or (made is None and name not in self.self_reads(class_id)):
            return None
        found = self.declared_below(class_id, name)
        if not found:
            return None
        return ("s", found[0]) if len(found) == 1 else either([("s", i) for i in found])

    def makes_attributes(self, class_id: int) -> bool | None:
        """Whether the class, or a base, declares ``__getattr__`` or ``__getattribute__``: a member
        no class declares may be one of its making; None when a base outside the project may."""
        found: bool | None = False
        for hook in ("__getattr__", "__getattribute__"):
            member = self.class_member(class_id, hook, skip_self=False)
            if member is not None and member[0] == "s":
                return True
            # (`class Item(object)`: object's own `__getattribute__` makes nothing up)
            if member is not None and str(member[1]).lstrip("?") not in _PLAIN_LOOKUP:
                found = None
        return found

    def self_reads(self, class_id: int) -> set[str]:
        """The names the class's own code reads off its instances or itself (``self.x``,
        ``cls.x``: targets ``S:<class>/(i)/x``, ``S:<class>/()/x``, ``S:<class>/x``) that it does not declare."""
        cls = self.syms[class_id]
        self.deps.add(cls.path)
        by_class = self._self_reads.get(cls.path)
        if by_class is None:
            by_class = self._self_reads[cls.path] = {}
            payload = self.fresh.get(cls.path)
            if payload is not None:  # a file linked afresh: its rows' targets
                rows = [(row[4], row[5]) for row in payload.get("refs", ())]
            else:  # else as stored (a name hit's target may carry a prefix and the chain after a tab)
                rows = [
                    (kind, (target or "").rpartition("\t")[2].removeprefix("?"))
                    for kind, target in self.conn.execute(
                        "SELECT kind, target_key FROM refs WHERE file_id = ?", (self.file_ids.get(cls.path),)
                    )
                ]
            for kind, target in rows:
                match = _SELF_READ.fullmatch(target or "") if kind != "definition" else None
                if match is not None:
                    by_class.setdefault(match[1], set()).add(match[2])
        names = by_class.get(cls.symbol_path, set())
        return {n for n in names if self.symbol(cls.path, f"{cls.symbol_path}.{n}") is None}

    def all_bases(self) -> dict[str, list[tuple[str, str]]]:
        """The project classes by the last name of each base they list: (file, class path)."""
        if self._all_bases is None:
            self._all_bases = {}
            for path in sorted(self.file_ids):
                if path.endswith((".py", ".pyi")):
                    for cls, bases in self.facts(path).get("bases", {}).items():
                        for base in bases:
                            last = base.rpartition("/")[2].rpartition(":")[2].rpartition(".")[2]
                            self._all_bases.setdefault(last, []).append((path, cls))
        return self._all_bases

    def direct_subclasses(self, class_id: int) -> Iterator[Sym]:
        """The project classes listing the project class ``class_id`` among their bases."""
        for path, cls in self.all_bases().get(self.syms[class_id].symbol_path.rpartition(".")[2], ()):
            sub = self.symbol(path, cls)
            written = self.facts(path).get("bases", {}).get(cls, ()) if sub is not None else ()
            if sub is not None and any(
                self.deref_class(self.resolve(path, b) if b else None) == ("s", class_id) for b in written
            ):
                yield sub

    def declared_below(self, class_id: int, name: str) -> list[int]:
        """The nearest declarations of ``name`` in the project classes deriving from ``class_id``
        (a class declaring it, or deriving it from another base, ends its path down); none when an
        outside base may give it."""
        self.deps.add(SUBCLASSES)
        found: list[int] = []
        seen = {class_id}
        todo = [class_id]
        while todo and len(seen) < _MAX_SUBCLASSES:
            for sym in self.direct_subclasses(todo.pop()):
                if sym.id in seen:
                    continue
                seen.add(sym.id)
                # its own declaration, or one another of its bases gives it (a mixin's `self.request`
                # may be the view's): the nearest on this path
                member = self.class_member(sym.id, name, skip_self=False)
                if member is None:
                    todo.append(sym.id)
                elif member[0] != "s":
                    return []  # an outside base may give it: unknown
                elif member[1] not in found:
                    found.append(member[1])
        return sorted(found)

    def test_subclasses(self, class_id: int) -> list[int]:
        """The project classes in test files deriving from ``class_id``, directly or not: each
        runs the tests it inherits (pytest collects test classes from test files only)."""
        self.deps.add(TEST_CLASSES)
        if self._test_bases is None:
            self._test_bases = {}
            for path in sorted(self.file_ids):
                if path.endswith(".py") and is_test_file(path):
                    for cls, bases in self.facts(path).get("bases", {}).items():
                        for base in bases:
                            last = base.rpartition("/")[2].rpartition(":")[2]
                            self._test_bases.setdefault(last, []).append((path, cls))
        found: list[int] = []
        todo = [class_id]
        while todo and len(found) < _MAX_TEST_SUBCLASSES:
            parent = todo.pop()
            for path, cls in self._test_bases.get(self.syms[parent].symbol_path.rpartition(".")[2], ()):
                sym = self.symbol(path, cls)
                if sym is None or sym.id in found or sym.id == class_id:
                    continue
                bases = self.facts(path).get("bases", {}).get(cls, ())
                if any(
                    self.deref_class(self.resolve(path, b) if b else None) == ("s", parent) for b in bases
                ):
                    found.append(sym.id)
                    todo.append(sym.id)
        return found

    def _class_fixture(self, path: str, cls: str, name: str, depth: int) -> tuple[str, str, str] | None:
        """(path, chain, defining class) of the fixture ``name`` the test class ``cls`` of ``path``
        defines or inherits."""
        chain = self.facts(path).get("fixtures", {}).get(f"{cls}:{name}")
        if chain is not None:
            return path, chain, cls
        if depth > 8:
            return None
        for base in self.facts(path).get("bases", {}).get(cls, ()):
            found = self.deref_class(self.resolve(path, base) if base else None)
            if found is not None and found[0] == "s":
                sym = self.syms[found[1]]
                self.deps.add(sym.path)
                inherited = self._class_fixture(sym.path, sym.symbol_path, name, depth + 1)
                if inherited is not None:
                    return inherited
        return None

    def step(self, entity: Entity, step: str) -> Entity:
        if is_either(entity):  # a value that is one of several: the step from each
            return either([self.step(alt, step) for alt in alternatives(entity)])
        shape = None
        if step.startswith("()"):
            shape, step = step[2:] or None, "()"  # `()1,cls`: a call and its shape
        if step == "(i)":  # `self`, `x: C`: an instance of the class, whatever calling it may make
            if entity is not None and entity[0] == "s" and self.syms[entity[1]].kind in CLASSLIKE:
                return ("i", entity[1], entity[2]) if len(entity) == 3 else ("i", entity[1])
            step = "()"
        if step[0] == "@":
            return self.given_param(entity, int(step[1:]))
        if step[0] == "~":
            return self.forwarded_key(entity, step[1:])
        if step[0] == "%":
            return self.declared_param(entity, int(step[1:]))
        if entity is None:
            # `list[Alias]`: a list whatever its items are
            return ("e", (step[1], None)) if step in ("*s", "*m") else None
        if len(entity) == 3:  # a generic class given type arguments, its instance, their members
            return self.bound_step(entity, step, shape)
        if entity[0] == "x" and _HOLDS_PROJECT in entity[1]:
            # an outside generic class given a project type, or its instance: its members are
            # outside ones, and what they give is unknown unless declared to be an outside class
            head, _, rest = entity[1].partition(_HOLDS_PROJECT)
            if step == "()":
                return ("x", f"{head}{_HOLDS_PROJECT}.()") if not rest else None
            return ("x", f"?{head}.{step}") if IDENT.fullmatch(step) else None
        if step[0] in "*[#":
            value = self.deref(entity)
            if value is not None and len(value) == 3 and value[0] == "i" and step in ("[]", "[i]"):
                # an attribute holding a generic class's instance (`self.procs: Registry[Proc]`):
                # iterated or indexed with its type variables bound
                return self.bound_step(value, step, shape)
            return self.item_step(value, step)
        if entity[0] == "x":
            made_by = entity[1].lstrip("?").replace(".()", "")
            if step == "()" and (
                made_by in _MAKES_ANYTHING
                # what an event loop runs or a future holds: the value a coroutine or a function
                # of the program gave (`loop.run_until_complete(make())`, `ex.submit(f).result()`)
                or (made_by.startswith(_RUNNERS) and made_by.rpartition(".")[2] in _RUN_RESULTS)
                # a builtin (`G:__import__`) is named without its module
                or ("." not in made_by and f"builtins.{made_by}" in _MAKES_ANYTHING)
                # `json.loads(s, object_hook=make)`: what the hook makes
                or (made_by in _HOOKED_DECODERS and bool(_DECODER_HOOKS & set((shape or "").split(","))))
                # `stack.enter_context(Conn())` of a `with ExitStack() as stack`: what Conn gives
                or (
                    made_by.startswith("contextlib.")
                    and made_by.endswith(("enter_context", "enter_async_context"))
                )
            ):
                return None  # `pickle.loads(data)`, `queue.get()`: any object the program made
            if entity[1].startswith("?"):
                # a method a project class inherits from an outside base may give the instance
                # itself (`qs.filter()`) or an item of it (`class Stack(list[T])`), an attribute it
                # inherits may hold project objects (`node.parent` of a tree mixin): unknown, but
                # for a method or property annotated to give another outside class
                owner, _, member = entity[1][1:].rpartition(".")
                typed = member_type(owner, member, step == "()") if owner else None
                if typed is None:
                    return None
                return ("x", f"{typed}.()") if step == "()" else ("x", f"{typed}.().{step}")
            if entity[1].lstrip("?").startswith(_MOCKS):
                return None  # `Mock(spec=Client).download`: a mock has every attribute asked of it
            if entity[1] == "pytest.request" and step in _REQUEST_VALUES:
                return None  # a parametrized fixture's `request.param`: one of the project's values
            if holds_anything(entity[1]):
                return None  # `ctx.obj.info` of a `click.Context`: its `obj: Any` may be a project object
            if step != "()" and _untyped_result_attribute(entity[1]):
                # `click.get_current_context().obj.load_app()`: an attribute of what an outside
                # function returns, its class unknown, may hold a project object
                return None
            if entity[1] in _OUTSIDE_CONTAINERS and step != "()":
                return self.container_method(step, None)  # `od.pop(k)`: an item of any kind
            if entity[1] in _LITERAL_CONTAINERS:
                if step in ("()", "(i)"):
                    # `dict(pairs)`, `set()`, `x: list`: a builtin container, as a literal is
                    # (the class and its instances are one entity: calling an instance is no code)
                    return entity
                # `kw.pop("engine")` of `**kw`, `{}.get(k)`, `[].pop()`: items of any kind
                return self.container_method(step, None)
            return ("x", f"{entity[1]}.{step}") if entity[1] else ("x", "")
        entity = self.deref(entity)
        if entity is None:
            return None
        if is_either(entity):  # a variable holding one of several things
            key = (entity, step, shape)
            if key in self._stepping:  # variables holding one another
                self._cycles += 1
                return None
            self._stepping.add(key)
            try:
                return self.step(entity, step if shape is None else f"(){shape}")
            finally:
                self._stepping.discard(key)
        if len(entity) == 3:  # a variable or property holding one
            return self.bound_step(entity, step, shape)
        tag, value = entity
        if tag == "e" and value[0] in ("w", "n"):
            # `with f() as x` of a `@contextmanager` f: `__enter__` (`n`), called, gives the value
            if value[0] == "w":
                return ("e", ("n", value[1])) if step in ("__enter__", "__aenter__") else None
            return value[1] if step == "()" else None
        if tag == "e" and value[0] in _ITEM_GIVERS:
            # `xs.pop()`, `xs.pop(i)`: an item of a sequence; `d.get(k)`, `d.pop(k)`: a value of
            # a mapping (with a default, the default's type or a value)
            whole = value[0] == "g" or (shape or "").split(",") == ["1"]
            return value[1] if step == "()" and whole else None
        if tag == "e":
            return self.item_step(entity, step)
        if tag == "x":
            # what a variable holds is judged as that outside value itself (`d = {}` then
            # `d.get(k)`: an item of any kind, not the library's)
            return self.step(entity, step if shape is None else f"(){shape}")
        if step == "()":
            if tag == "i" and self.syms[value].kind in CLASSLIKE and not self.metaclass(value):
                # calling an instance runs its class's `__call__` (tinydb's `Middleware(cls)()`
                # gives the middleware itself)
                call = self.class_member(value, "__call__", skip_self=False)
                if call is None or call[0] != "s" or self.syms[call[1]].kind not in _CALLABLE:
                    return None
                return self.step(call, "()" if shape is None else f"(){shape}")
            if tag != "s":
                return None
            sym = self.syms[value]
            facts = self.facts(sym.path)
            if sym.symbol_path in facts.get("redefs", ()) and not self.bound_again(sym):
                return self.any_definition(sym, shape)  # `if PY3: def f(): … else: def f(): …`
            if sym.symbol_path in facts.get("rebound", ()) or self.bound_again(sym):
                return None  # `make = lambda: B()` after `def make`, `K.make = …`: either may run
            if sym.kind in CLASSLIKE:
                return None if self.constructs_other(value) else ("i", value)
            if sym.kind in _CALLABLE:
                return self.overridden_return(sym, self.own_return(sym, shape), shape)
            return None
        if step[0] == "=":
            if tag == "u":  # `super().__init__(name=…)`: the first base constructing with it
                init = self.class_member(value, "__init__", skip_self=True)
                if init is not None and init[0] == "s":
                    return self.keyword(init[1], step[1:])
                field = self.class_member(value, step[1:], skip_self=True)
                if field is not None and field[0] == "s" and self.syms[field[1]].kind == "attribute":
                    return field
                return ("x", "")
            if tag != "s":
                return ("x", "")
            if self.syms[value].kind not in CLASSLIKE:
                return self.keyword(value, step[1:])
            init = self.class_member(value, "__init__", skip_self=False)
            if init is not None and init[0] == "s":
                return self.keyword(init[1], step[1:])  # a parameter of a hand-written __init__
            new = self.class_member(value, "__new__", skip_self=False)
            if new is not None and new[0] == "s":
                # `Token("DELIM", " ", pos=0)` of a tuple subclass whose `__new__` takes `pos`
                return self.keyword(new[1], step[1:])
            field = self.class_member(value, step[1:], skip_self=False)
            if field is not None and field[0] == "s" and self.syms[field[1]].kind == "attribute":
                return field
            if not step.startswith("=_"):
                # attrs makes the parameter `size` of the private field `_size` (a dataclass would
                # take `_size`, so a call that runs with `size=` means the attrs field)
                field = self.class_member(value, "_" + step[1:], skip_self=False)
                if field is not None and field[0] == "s" and self.syms[field[1]].kind == "attribute":
                    return field
            return ("x", "")
        if step == "^":
            if tag == "s" and self.syms[value].kind in CLASSLIKE:
                return ("u", value)
            return None
        if tag in ("m", "d"):
            return self.member(entity, step)
        if tag in ("s", "i"):
            if self.syms[value].kind not in CLASSLIKE:
                return self.decorated_step(value, step) if tag == "s" else None
            if tag == "i" and self.metaclass(value):
                # an instance of a metaclass is a class: its own attributes come first
                return None
            if tag == "s" and step in _MRO_STEPS:
                # `for cls in type(self).__mro__: getattr(cls, "msgs", {})`: each item is the class
                # or an ancestor, whose member of a name is the class's own or one it overrides
                seq: Entity = ("e", ("s", entity))
                return seq if step == "__mro__" else ("e", ("f", seq))
            found = self.class_member(value, step, skip_self=False)
            return self.subclass_member(value, step) if found is None and IDENT.fullmatch(step) else found
        if tag == "u":
            return self.class_member(value, step, skip_self=True)
        return None

    def bound_again(self, sym: Sym) -> bool:
        """Whether code elsewhere stores into the function, method or class ``sym``'s name
        (``K.make = …``, ``monkeypatch.setattr(m, "make", fake)``; table ``py_values``; the rows
        marked ``!``, ``=``, ``^``, ``@`` and ``?`` say other things of a class: ``?`` that an
        instance is given to a package not installed here, which stores nothing into the name)."""
        if any(not value or value[0] not in "!=^@?" for _, value in self.stored(sym)):
            return True
        if sym.kind in CLASSLIKE and self.decorated_away(sym):
            return True
        return "." not in sym.symbol_path and self.starred_over(sym)

    def decorated_away(self, sym: Sym) -> bool:
        """Whether a project decorator of the class ``sym`` may hand back something else, or change
        it (``cls.make = …``, ``return B``): its name then holds what the decorator made. A project
        function that returns the class it is given untouched (a registry's ``register``), or a
        factory of such functions, keeps it; outside decorators (``dataclass``) are judged elsewhere."""
        facts = self.facts(sym.path)
        for chain in facts.get("cdecos", {}).get(sym.symbol_path, ()):
            factory = chain.endswith("/()")
            found = self.resolve(sym.path, chain.removesuffix("/()")) if chain else None
            if found is None or found[0] != "s":
                continue
            decorator = self.syms[found[1]]
            if decorator.kind not in ("function", "method"):
                continue
            kept = self.facts(decorator.path).get("keepmakers" if factory else "keepers", ())
            if decorator.symbol_path not in kept:
                return True
        return False

    def starred_over(self, sym: Sym) -> bool:
        """Whether an ``import *`` below the module-level ``sym`` may bind its name again (``from
        ._speedups import *`` at the end of a module replaces the pure-Python ``def``s): the
        module imported exports the name, or is no project module (what it brings is not known)."""
        for chain, line in self.facts(sym.path).get("starat", ()):
            if line <= sym.line:
                continue
            mod = self.resolve(sym.path, chain)
            if mod is None or mod[0] not in ("m", "d"):
                return True
            found = self.member(mod, sym.symbol_path, exported_only=True)
            if found is not None and found[0] != "x":
                return True
        return False

    def own_return(self, sym: Sym, shape: str | None) -> Entity:
        """What calling the project function or method ``sym`` gives, by its own declaration, or
        by the stub beside its module when that declares it (as a type checker reads the package:
        parse's `parse(format, string)` gives a `Result`, by the stub's overloads)."""
        stub = self.stub_twin(sym)
        if stub is not None and stub.kind == sym.kind:
            declared = self.own_return(stub, shape)
            if declared is not None:
                return declared
        facts = self.facts(sym.path)
        entered = facts.get("ctypes", {}).get(sym.symbol_path)
        if entered is not None:  # a `@contextmanager` function: what entering it gives
            return ("e", ("w", self.resolve(sym.path, entered)))
        overloads = facts.get("otypes", {}).get(sym.symbol_path)
        if overloads is not None:  # one of the returns of the overloads the call fits
            made = {alike(self.resolve(sym.path, c)) for c in overload_chains(overloads, shape)}
            return made.pop() if len(made) == 1 else either(list(made))
        chain = facts.get("rtypes", {}).get(sym.symbol_path)
        return self.resolve(sym.path, chain) if chain else None

    def overridden_return(self, sym: Sym, made: Entity, shape: str | None) -> Entity:
        """What a call of the method ``sym`` (a read of the property) gives on an instance that
        may be of a project subclass: ``made``, or what an override below returns (``class
        Sub(K): def make(self): return B()``); unknown when an override's return is, or it is no
        method (``make = other``)."""
        owner_path, _, name = sym.symbol_path.rpartition(".")
        owner = self.symbol(sym.path, owner_path) if owner_path and made is not None else None
        if owner is None or owner.kind not in CLASSLIKE:
            return made
        found = self._tracked(("ob", owner.id, name), lambda: self._overrides_below(owner.id, name))
        if found is None:
            return None
        values = [made]
        for other_id in found[1]:
            other = self.syms[other_id]
            if other_id == sym.id:
                continue
            if (other.kind == "property") != (sym.kind == "property") or other.kind not in _CALLABLE:
                return None  # (a property overridden by a method or an attribute: unknown)
            values.append(self.own_return(other, shape))
        if None in values:
            return None
        first = alike(values[0])
        return made if all(alike(v) == first for v in values[1:]) else either(values)

    def _overrides_below(self, class_id: int, name: str) -> Entity:
        """``("l", ids)``: the declarations of ``name`` in the project classes deriving from
        ``class_id``, directly or not (one a class inherits is declared above it); None when
        there are too many to follow."""
        below = self._below(class_id)
        if below is None:
            return None
        found = set()
        for sub in below[0]:
            own = self.symbol(sub.path, f"{sub.symbol_path}.{name}")  # (one it inherits is above)
            if own is not None:
                found.add(own.id)
        return ("l", tuple(sorted(found)))

    def constructs_other(self, class_id: int) -> bool:
        """Whether calling the project class ``class_id`` may give what is no instance of it: a
        ``__new__`` it may run returns something else, or its metaclass (its own or a project
        base's) has a ``__call__`` of ours that may."""
        made = self._tracked(("new", class_id), lambda: ("b", self._constructs_other(class_id)))
        return made is not None and bool(made[1])

    def _constructs_other(self, class_id: int) -> bool:
        if self._makes_other(class_id, "__new__"):
            return True
        for cls in self.project_ancestors(class_id):
            meta = self.facts(cls.path).get("metas", {}).get(cls.symbol_path)
            if meta is None:
                continue
            found = self.deref_class(self.resolve(cls.path, meta)) if meta else None
            if found is None:
                return True  # `metaclass=make_meta()`: unknown
            if (
                found[0] == "s"
                and self.syms[found[1]].kind in CLASSLIKE
                and self._makes_other(found[1], "__call__")
            ):
                return True
        return False

    def _makes_other(self, class_id: int, method: str) -> bool:
        """Whether a ``__new__`` (or a metaclass's ``__call__``) the project class ``class_id`` or
        a project class above it declares may return what is no instance of the class made:
        written so, or not written as a method (``__new__ = staticmethod(f)``). Any of them may
        run (``super().__new__(cls)`` runs the next one up); outside bases are not read."""
        for cls in self.project_ancestors(class_id):
            if any(value == "^" + method for _, value in self.stored(cls)):
                return True  # `C.__new__ = f` after the class body
            own = self.symbol(cls.path, f"{cls.symbol_path}.{method}")
            if own is not None and (
                own.kind not in ("function", "method")
                or (
                    own.symbol_path in self.facts(own.path).get("newother", ())
                    and not self.returns_own(own, class_id)
                )
            ):
                return True
        return False

    def returns_own(self, new: Sym, class_id: int) -> bool:
        """Whether every ``return`` of the ``__new__`` ``new`` gives an instance of the project class
        ``class_id`` or of a class deriving from it, as what it calls is declared to give
        (jinja2's ``return env.from_string(source, template_class=cls)``, ``-> Template``), whatever
        ``__new__`` itself is annotated as."""
        chains = self.facts(new.path).get("newrets", {}).get(new.symbol_path)
        if not chains:
            return False
        for chain in chains:
            made = self.resolve(new.path, chain) if chain else None
            if made is None or made[0] != "i" or is_either(made):
                return False
            if made[1] != class_id and all(c.id != class_id for c in self.project_ancestors(made[1])):
                return False
        return True

    def project_ancestors(self, class_id: int) -> Iterator[Sym]:
        """The project class ``class_id`` and the project classes it derives from, directly or not."""
        seen = {class_id}
        todo = [class_id]
        while todo:
            cls = self.syms[todo.pop()]
            yield cls
            for base in self.facts(cls.path).get("bases", {}).get(cls.symbol_path, ()):
                found = self.deref_class(self.resolve(cls.path, base) if base else None)
                if (
                    found is not None
                    and found[0] == "s"
                    and found[1] not in seen
                    and self.syms[found[1]].kind in CLASSLIKE
                ):
                    seen.add(found[1])
                    todo.append(found[1])

    def metaclass(self, class_id: int, seen: frozenset[int] = frozenset()) -> bool:
        """Whether the project class ``class_id`` derives from ``type`` (or an outside metaclass)."""
        cls = self.syms[class_id]
        for base in self.facts(cls.path).get("bases", {}).get(cls.symbol_path, ()):
            found = self.deref_class(self.resolve(cls.path, base) if base else None)
            if found is None:
                continue
            if found[0] == "x" and str(found[1]).rpartition(".")[2] in _METACLASSES:
                return True
            if (
                found[0] == "s"
                and found[1] not in seen
                and self.syms[found[1]].kind in CLASSLIKE
                and self.metaclass(found[1], seen | {class_id})
            ):
                return True
        return False

    def keyword(self, sym_id: int, name: str) -> Entity:
        """A keyword argument of a call to the project function ``sym_id``: no symbol (a parameter),
        or, when it lands in a ``**kwargs`` mapping the function uses other than by key
        (``setattr(obj, k, v)`` over its items), ``OPAQUE_KEYWORD``: it may name any attribute."""
        sym = self.syms[sym_id]
        named = self.facts(sym.path).get("okwargs", {}).get(sym.symbol_path)
        return OPAQUE_KEYWORD if named is not None and name not in named else ("x", "")

    def forwarded_key(self, entity: Entity, name: str) -> Entity:
        """A key of a ``**kwargs`` mapping passed to the callee ``entity`` (python_keys): a field
        of a project class without its own ``__init__`` (as ``Cls(name=...)``), a parameter of a
        project function or class (outside the project: no symbol); unknown for any other callee,
        which may set attributes by it (``SimpleNamespace(**kw)``, ``dataclasses.replace(o, **kw)``)."""
        entity = self.deref(entity) if entity is not None and entity[0] == "s" else entity
        if entity is None or entity[0] != "s":
            return None
        kind = self.syms[entity[1]].kind
        if kind in CLASSLIKE:
            return self.step(entity, "=" + name)
        return self.keyword(entity[1], name) if kind in ("function", "method") else None

    def given_param(self, entity: Entity, n: int) -> Entity:
        """What the project function ``entity``, as a decorator, gives the n-th parameter of the
        function it receives (its first parameter annotated ``Callable[[A, B], R]``)."""
        if entity is None or entity[0] != "s" or self.syms[entity[1]].kind != "function":
            return None
        sym = self.syms[entity[1]]
        gives = self.facts(sym.path).get("atypes", {}).get(sym.symbol_path, [])
        return self.resolve(sym.path, gives[n]) if n < len(gives) and gives[n] else None

    def declared_param(self, entity: Entity, n: int) -> Entity:
        """An instance of what the project method ``entity`` declares its n-th positional parameter
        to be (``self`` is 0); None when not annotated or not a project method."""
        entity = self.deref(entity) if entity is not None and entity[0] == "s" else entity
        if entity is None or entity[0] != "s" or self.syms[entity[1]].kind not in _CALLABLE:
            return None
        sym = self.syms[entity[1]]
        declared = self.facts(sym.path).get("ptypes", {}).get(sym.symbol_path, [])
        return self.resolve(sym.path, declared[n]) if n < len(declared) and declared[n] else None

    def decorated_step(self, sym_id: int, step: str) -> Entity:
        """A member of a decorated function is one of what its outermost decorator made of it
        (``@command()`` gives a ``Command``), when that is a project object."""
        sym = self.syms[sym_id]
        chain = self.facts(sym.path).get("dtypes", {}).get(sym.symbol_path)
        made = self.deref(self.resolve(sym.path, chain)) if chain else None
        if made is None or made[0] not in ("i", "e"):
            if chain is None and sym.kind in ("function", "method") and self.plain_function(sym):
                # `_decorator._args = ()`, `f.__name__`: an attribute of the function object
                # itself, which no project class declares
                return ("x", "")
            return None
        return self.step(made, step)

    def plain_function(self, sym: Sym) -> bool:
        """Whether the name of a ``def`` holds that function: no decorator (which may make it
        anything) and no other binding (``f = wrap(f)``, ``if …: def f(): …``)."""
        facts = self.facts(sym.path)
        if sym.symbol_path in facts.get("redefs", ()) or sym.symbol_path in facts.get("rebound", ()):
            return False
        if self.bound_again(sym):
            return False
        found = self.conn.execute(
            "SELECT start_line, name_line FROM symbols WHERE id = ?", (sym.id,)
        ).fetchone()
        return found is not None and found[0] == found[1]

    def item_step(self, entity: Entity, step: str) -> Entity:
        """Steps through annotated containers: ``*s`` / ``*m`` make a sequence of / a mapping
        to the entity; ``[]`` iterates, ``[]#n`` takes the n-th of each item, ``[i]`` subscripts.
        A container's own methods are outside the project; an item of anything else is unknown
        (``max(xs)[0]`` may be a project object)."""
        if entity is None:
            return None
        if is_either(entity):
            return either([self.item_step(alt, step) for alt in alternatives(entity)])
        if step[0] == "[" and step[1:-1].isdigit():  # `x[1]`: a tuple's part, else any item
            if (entity[0] == "e" and entity[1][0] == "t") or (
                entity[0] == "i" and self.named_tuple(entity[1])
            ):
                return self.item_step(entity, f"#{step[1:-1]}")
            step = "[i]"
        if step in ("*s", "*m", "*f", "*x"):
            return ("e", (step[1], entity))
        if step == "*d":  # a mapping of keys and values both known (a tuple of the two: `P:<n>/*d`)
            pair: tuple[Entity, ...] = entity[1][1] if entity[0] == "e" and entity[1][0] == "t" else ()
            return ("e", ("m", pair[1], pair[0])) if len(pair) == 2 else None
        if entity[0] == "i" and step[0] == "#":
            # `text, style = segment` of a NamedTuple: its n-th field; of another class, an item
            # of what its `__iter__` gives (unpacking iterates)
            cls = self.syms[entity[1]]
            fields = self.facts(cls.path).get("nfields", {}).get(cls.symbol_path)
            n = int(step[1:])
            if fields is None:
                return self.item_step(entity, "[]")
            return (
                self.class_member(entity[1], fields[n], skip_self=False)
                if fields and n < len(fields)
                else None
            )
        if step == "[:]":
            # a slice of a sequence is one of the same items; of something outside, outside
            sequence = entity[0] == "e" and entity[1][0] == "s"
            return entity if sequence or entity[0] == "x" else None
        if entity[0] == "i" and step == "[i]":
            # `x[k]` of a project class is what its `__getitem__` is annotated to give
            method = self.class_member(entity[1], "__getitem__", skip_self=False)
            return self.step(method, "()1") if method is not None and method[0] == "s" else None
        if entity[0] == "i" and step == "[]":
            # a project class iterates as its `__iter__` is annotated: `-> Iterator[Item]`
            method = self.class_member(entity[1], "__iter__", skip_self=False)
            if method is None or method[0] != "s":
                return None
            entity = self.step(method, "()")
            if entity is not None and entity[0] == "i":
                # `__iter__` gives a project iterator: an item is what its `__next__` gives
                following = self.class_member(entity[1], "__next__", skip_self=False)
                return self.step(following, "()") if following is not None and following[0] == "s" else None
            if entity is None or entity[0] != "e" or entity[1][0] != "s":
                return None
        if entity[0] == "x" and str(entity[1]).partition(".")[0] in CLOSED_ORIGINS:
            return ("x", "")  # an item of what `re`, `os` or a str made: never a project object
        if entity[0] != "e":
            return None
        kind: str = entity[1][0]
        item: Entity = entity[1][1]
        key: Entity = entity[1][2] if len(entity[1]) > 2 else None  # a mapping's, when known
        if step.startswith("[]#") and kind == "s":
            # `for name, cmd in pairs`: the n-th part of each item (a tuple annotated part by part)
            return self.item_step(item, step[2:])
        if kind == "t":
            parts: tuple[Entity, ...] = entity[1][1]
            if step[0] == "#":
                n = int(step[1:])
                return parts[n] if 0 <= n < len(parts) else None
            if step in ("[]", "[i]"):  # any part: known when every part is
                kinds = {alike(p) for p in parts}
                if None in kinds or not parts:
                    return None
                # parts alike are one; instances of different classes, either of them (`for env in
                # Environment(), SandboxedEnvironment()`; `(Doc(), make())` of a Template: the
                # Template's member is no Doc's)
                if len(kinds) == 1:
                    return parts[0]
                return either(list(parts)) if all(_instance(p) for p in parts) else None
            return self.container_method(step, None) if step[0] not in "[*" else None
        if step[0] == "#":
            return item if kind == "s" else None  # `a, b = xs` of a list: items
        if kind == "f":
            return item if step == "()" else None  # a member of a callable: unknown
        if kind == "x":
            # what `pytest.raises(E)` / `case.assertRaises(E)` gives: the exception raised, its
            # class (unknown: E or a subclass), or the helper's own members
            return item if step in _RAISED else None if step == "type" else ("x", "")
        if kind in ("s", "m") and step == "copy":
            return ("e", ("n", entity))  # `xs.copy()`: a container of the same items
        if kind == "s":
            if step in ("[]", "[i]"):
                return item
            return ("e", ("g", item)) if step in ("pop", "popleft") else self.container_method(step, item)
        if kind == "m":
            if step == "[i]":
                return item
            if step == "[]":  # `for k in d`: its keys
                return key
            if step in ("values", "items") or (step == "keys" and key is not None):
                return ("e", (step, item, key) if key is not None else (step, item))
            return ("e", ("g1", item)) if step in ("get", "pop") else self.container_method(step, item)
        if kind == "r":
            return None  # `xs.pop()`: an item or another value
        if step == "()":
            if kind == "keys":
                return ("e", ("s", key))
            if kind == "items" and key is not None:
                return ("e", ("p", item, key))
            return ("e", ("s" if kind == "values" else "p", item))
        if kind == "p" and step == "[]#1":
            return item
        if kind == "p" and step == "[]#0":
            return key
        return None

    @staticmethod
    def container_method(step: str, item: Entity) -> Entity:
        """A member of a typed builtin container is the container's (outside the project);
        calling one that may give an item (``pop``, ``get``) gives an unknown value."""
        if step in _NO_ITEM_METHODS or step[0] in "[*=^(":
            return ("x", "") if step in _NO_ITEM_METHODS else None
        return ("e", ("r", item))


_RAISED = frozenset({"value", "exception"})
_MRO_STEPS = frozenset({"__mro__", "mro"})  # a class's method resolution order (`mro()` called)
# outside metaclasses: a project class deriving from one makes classes
_METACLASSES = frozenset({"type", "ABCMeta", "EnumMeta", "EnumType", "_ProtocolMeta"})


def overload_chains(overloads: list[list[object]], shape: str | None) -> set[str]:
    """What a call of an overloaded function may give: the returns of the overloads whose
    parameters accept the call's shape (a method's as bound or not)."""
    if shape is None:
        chains = {str(o[-1]) for o in overloads}
    else:
        count, *keywords = shape.split(",")
        function = count.endswith("f")  # the positional argument is a function (a decorator's)
        chains = set()
        for params, method, chain in overloads:
            assert isinstance(params, list)
            for drop in (0, 1) if method else (0,):
                taken = params[drop:]
                first = taken[0] if taken and taken[0][1] in ("p", "a") else None
                if function and first is not None and first[3:] == ["v"]:
                    continue  # declared to take plain values (`name: str | None`), not a function
                if _accepts(taken, int(count.rstrip("f")), keywords):
                    if function and not chains and first is not None and first[3:] == ["f"]:
                        return {str(chain)}  # the first overload that takes a function is the one called
                    chains.add(str(chain))
    return chains


def _index_chains(overloads: list[list[object]]) -> set[str]:
    """What ``x[k]`` gives by an overloaded ``__getitem__`` when ``k`` is no slice (a slice is the
    step ``[:]``): the returns of the overloads whose key parameter is not annotated ``slice``."""
    chains = set()
    for params, _method, chain in overloads:
        assert isinstance(params, list)
        positional = [p for p in params if p[1] in ("p", "a")]
        if len(positional) == 2 and positional[1][3:] != ["s"]:
            chains.add(str(chain))
    return chains


def _accepts(params: list[list[object]], count: int, keywords: list[str]) -> bool:
    """Whether parameters ``[name, kind, has_default]`` (kind: ``p`` positional-only,
    ``a`` positional or keyword, ``*``, ``k`` keyword-only, ``**``) take ``count``
    positional arguments and ``keywords``."""
    positional = [p for p in params if p[1] in ("p", "a")]
    if count > len(positional) and not any(p[1] == "*" for p in params):
        return False
    given = {str(p[0]) for p in positional[:count]}
    named = {str(p[0]) for p in params if p[1] in ("a", "k")} - given
    if any(k not in named for k in keywords) and not any(p[1] == "**" for p in params):
        return False
    missing = [p for p in params if p[1] in ("p", "a", "k") and not p[2] and str(p[0]) not in given]
    return all(p[1] != "p" and str(p[0]) in keywords for p in missing)


def _instance(entity: Entity) -> bool:
    """Whether ``entity`` is an instance of a known class, the project's or an outside one."""
    return entity is not None and (entity[0] == "i" or (entity[0] == "x" and str(entity[1]).endswith(".()")))


def _holds_project(entity: Entity, depth: int = 0) -> bool:
    """Whether ``entity`` is or may hold a project object (a builtin container's unknown items may)."""
    if entity is None or depth > 8:
        return depth > 0  # an unknown item of a typed container may be anything
    if entity[0] == "e":
        kind, *parts = entity[1]
        if kind == "v":
            return any(_holds_project(p, depth + 1) for p in parts[0])
        if kind == "t":
            return any(_holds_project(p, depth + 1) for p in parts[0])
        return any(_holds_project(p, depth + 1) for p in parts)
    return bool(entity[0] != "x")


def _declared_in(member: Sym, cls: Sym) -> bool:
    """Whether ``member`` is declared by the class ``cls`` itself (its type variables are the class's)."""
    return member.path == cls.path and member.symbol_path.rpartition(".")[0] == cls.symbol_path


_RESULT_ATTRIBUTE = re.compile(
    r"^(?P<callee>[\w.]+(?:\.\(\)\.[A-Za-z_]\w*)?)\.\(\)\.(?P<attribute>[A-Za-z_]\w*)$"
)


def _untyped_result_attribute(value: str) -> bool:
    """``click.get_current_context.().obj``: an attribute of the result of calling an outside
    callable that is no class astmcp can read (a function: what it returns is not typed here); or
    of what a method of an outside instance returns (``parser.parse_args().job``, where a
    namespace holds what the program set)."""
    found = _RESULT_ATTRIBUTE.match(value)
    if found is None:
        return False
    return ".()." in found["callee"] or class_defines(found["callee"], "__init__") is None
