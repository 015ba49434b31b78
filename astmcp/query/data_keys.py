"""Whether a Python string used as data can name a class's member.

``{"info_name": self.info_name}``, ``row["choices"]`` and ``echo("stdout")`` hold a member's
name as data: renaming the member leaves the string as it was, and everything reading it still
finds it. Such a string names the member only when something turns data into attribute names,
and in Python that takes one of:

- code reaching attributes by a name made at run time: ``getattr(x, k)`` (``setattr``,
  ``hasattr``, ``delattr``, ``object.__setattr__``, ``monkeypatch.setattr(x, k, v)``), ``x.__dict__``,
  ``vars(x)``, ``dir(x)``, ``inspect.getmembers(x)``, and with any object ``attrgetter(k)``,
  ``methodcaller(k)``, ``type(name, bases, namespace)`` or such a builtin handed on as a value
  (``map(getattr, objs, names)``) (the index's ``dynsites`` facts, each with its receiver's chain);
- a class whose own machinery maps names to members: one defining ``__getattr__``,
  ``__getitem__``, ``__setstate__`` and the like, made by a metaclass defining ``__new__``,
  ``__call__`` and the like, changed by a class decorator (a dataclass's keywords are its
  fields), or deriving from an outside class other than ``object``, ``ABC``, ``Generic`` and the
  builtin exceptions (pydantic, marshmallow, an ORM, a ``TypedDict``, an ``Enum``: all read
  their members by name);
- outside code given the string: ``operator.attrgetter("name")``, ``lib.set_value(obj, "name")``.

The strings judged here are the keys of dict displays (not ``f(**{"name": v})``: keywords),
subscripts, and strings given directly to a call of a project function or class (the callee
stored with the row). One is no hit of a member of class C when no class related to C (its
project ancestors, the classes deriving from it and their ancestors) has such machinery, and
the receiver of every such place in the project is typed as something that cannot be one of
them (another class, a module, a function, an outside type, what an outside module made of no
project value). A receiver nobody typed, or typed as ``object``/``Any``, may be anything: then
every such string stays a hit. What is not judged: a data key handed on to outside code that
reaches attributes of a project object by it (``lib.populate(obj, {"name": v})``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator

from astmcp.query.common import SymbolRow, project_package
from astmcp.resolve.python_lookups import CLASSLIKE, Entity, alternatives
from astmcp.resolve.python_modules import is_test_file
from astmcp.resolve.python_resolver import Resolver
from astmcp.resolve.python_vocab import DATA_KEY

__all__ = ["DataKeys", "data_keys_reach"]

# special methods that reach members by a name the program gives
_NAME_HOOKS = frozenset(
    {
        "__getattr__",
        "__getattribute__",
        "__setattr__",
        "__delattr__",
        "__dir__",
        "__getitem__",
        "__setitem__",
        "__delitem__",
        "__getstate__",
        "__setstate__",
        "__reduce__",
        "__reduce_ex__",
        "__replace__",
        "__init_subclass__",
        "__set_name__",
        "__slots__",
        "__match_args__",
    }
)
# what a metaclass may define to make or reach its classes' members by name
_META_HOOKS = _NAME_HOOKS | {"__new__", "__init__", "__call__", "__prepare__"}
# outside bases adding no machinery that maps names to members
_INERT_BASES = frozenset(
    {
        "builtins.object",
        "abc.ABC",
        "typing.Generic",
        "typing_extensions.Generic",
    }
)
_ANY = frozenset(
    {"builtins.object", "builtins.type", "typing.Any", "typing_extensions.Any", "object", "type"}
)
_MAX_CLASSES = 200
_CALLABLE_KINDS = frozenset({"function", "method", "class"})
_FUNCTION_KINDS = frozenset({"function", "method", "property"})
_PLAIN_METACLASSES = frozenset({"type", "builtins.type", "abc.ABCMeta"})
# standard-library modules whose calls make fresh objects of their own, holding nothing the
# program stored earlier (parsers, paths, processes, text and number types, archives)
_FRESH_MODULES = frozenset(
    {
        "optparse", "argparse", "configparser", "re", "os", "pathlib", "subprocess", "socket",
        "datetime", "time", "decimal", "fractions", "urllib", "email", "http", "xml", "csv", "io",
        "tempfile", "shutil", "string", "textwrap", "hashlib", "base64", "struct", "zipfile",
        "tarfile", "sqlite3", "platform", "locale", "codecs", "unicodedata", "math", "uuid",
        "ipaddress", "shlex", "glob", "fnmatch", "difflib", "html", "calendar", "getpass", "stat",
    }
)  # fmt: skip


class DataKeys:
    """The data keys of one renamed symbol: which are no hits (judged once, at the first)."""

    def __init__(self, conn: sqlite3.Connection, symbol: SymbolRow) -> None:
        self.conn = conn
        self.symbol = symbol
        self._reach: bool | None = None
        self._resolver: Resolver | None = None

    def sealed(self) -> bool:
        """Whether nothing in the project turns data into the member's name (see the module): a
        keyword landing in a ``**kwargs`` mapping its function uses opaquely (``_create_progress(
        width=8)`` then ``setattr(progress, key, value)`` of another class) is data too."""
        if self._reach is None:
            self._reach = data_keys_reach(self.conn, self.symbol)
        return not self._reach

    def inert(self, path: str, target: str) -> bool:
        """Whether the data key stored with ``target`` in ``path`` is no hit: a dict display's
        key or a subscript (``*K:``), or a string given to a project function or class
        (``*K:<callee>``: ``echo("stdout")``; one given to outside code stays a hit)."""
        if not self.sealed():
            return False
        callee = target[len(DATA_KEY) :]
        if not callee:
            return True
        if self._resolver is None:
            self._resolver = Resolver(self.conn, {})
        found = self._resolver.resolve(path, callee)
        if found is None or found[0] != "s":
            return False
        return self._resolver.syms[found[1]].kind in _CALLABLE_KINDS


def data_keys_reach(conn: sqlite3.Connection, symbol: SymbolRow) -> bool:
    """Whether a data key (a dict display's key, a subscript string) may name the Python class
    member ``symbol`` (see the module); True keeps such strings as name hits."""
    if not symbol.parent_path or not symbol.file.endswith((".py", ".pyi")) or symbol.kind == "class":
        return True  # (a nested class's name is read at run time: `type(self).__name__`)
    if symbol.kind in _FUNCTION_KINDS and is_test_file(symbol.file):
        return True  # a test runner lists test methods by name (`item.name == "test_slow"`)
    resolver = Resolver(conn, {})
    owner = resolver.symbol(symbol.file, symbol.parent_path)
    if owner is None or owner.kind not in CLASSLIKE:
        return True
    related = _related(resolver, owner.id)
    if related is None:
        return True
    if symbol.kind in _FUNCTION_KINDS and _name_read(
        conn, resolver, symbol.name, _bare_property(conn, symbol)
    ):
        return True  # `HANDLERS[f.__name__]` with `f` one of the methods of that name
    return _machinery(conn, resolver, related) or _reached(conn, resolver, related)


def _name_read(conn: sqlite3.Connection, resolver: Resolver, name: str, bare: bool = False) -> bool:
    """Whether some ``x.__name__`` may read the name of a function or method called ``name``:
    x nobody typed, or typed as such a function (a class's or a module's name is another). A
    ``bare`` property's getter is no value a receiver nobody typed may hold (see
    :func:`_bare_property`): only a read typed as the property counts."""
    for path, chain in _sites(conn, resolver, "namesites"):
        entity = resolver.resolve(path, chain) if chain else None
        for alt in alternatives(resolver.deref(entity)):
            if alt is None:
                if not bare and not _outside_made(conn, chain):
                    return True
                continue
            if alt[0] == "s":
                sym = resolver.syms.get(alt[1])
                if sym is None or (
                    sym.kind in _FUNCTION_KINDS and sym.symbol_path.rpartition(".")[2] == name
                ):
                    return True
    return False


# decorators that make a property of a getter (what it holds is no function value)
_PROPERTY_DECORATORS = frozenset({"property", "cached_property", "setter", "getter", "deleter"})


def _bare_property(conn: sqlite3.Connection, symbol: SymbolRow) -> bool:
    """Whether ``symbol`` is a property whose getter no code can hold as a value: decorated by
    ``@property`` (``@functools.cached_property``, ``@x.setter``) alone, and nothing in the
    project reads a property's ``fget``/``fset``/``fdel``. Then no ``f.__name__`` reads its name
    but one off the property itself (Python 3.13's ``property.__name__``)."""
    if symbol.kind != "property":
        return False
    decorators = [
        line.strip()[1:].split("(")[0]
        for line in symbol.signature.splitlines()
        if line.strip().startswith("@")
    ]
    if not decorators or any(d.rpartition(".")[2] not in _PROPERTY_DECORATORS for d in decorators):
        return False
    held = conn.execute(
        "SELECT 1 FROM refs WHERE name IN ('fget', 'fset', 'fdel') AND kind IN ('attribute', 'call') LIMIT 1"
    ).fetchone()
    return held is None


def _related(resolver: Resolver, class_id: int) -> set[int] | None:
    """The project classes a value of class ``class_id`` or one deriving from it may be an
    instance of, with their project ancestors; None when one derives from an outside class that
    may read members by name, or from something unknown."""
    below = {class_id}
    todo = [class_id]
    while todo:
        for sub in resolver.direct_subclasses(todo.pop()):
            if sub.id not in below:
                below.add(sub.id)
                todo.append(sub.id)
        if len(below) > _MAX_CLASSES:
            return None
    related: set[int] = set()
    for cls_id in below:
        for cls in resolver.project_ancestors(cls_id):
            related.add(cls.id)
    for cls_id in related:
        cls = resolver.syms[cls_id]
        for base in resolver.facts(cls.path).get("bases", {}).get(cls.symbol_path, ()):
            found = resolver.deref_class(resolver.resolve(cls.path, base) if base else None)
            if found is None:
                return None
            if found[0] == "s" and resolver.syms[found[1]].kind in CLASSLIKE:
                continue
            if found[0] != "x" or not _inert_base(str(found[1])):
                return None
    return related


def _inert_base(qualified: str) -> bool:
    name = qualified.lstrip("?")
    if name in _INERT_BASES or f"builtins.{name}" in _INERT_BASES:
        return True
    module, _, last = name.rpartition(".")
    return module in ("", "builtins") and (
        last.endswith(("Error", "Exception", "Warning")) or last == "BaseException"
    )


def _machinery(conn: sqlite3.Connection, resolver: Resolver, related: set[int]) -> bool:
    """Whether a related class maps names to members itself: a special method doing so, a
    metaclass other than ABCMeta, a class decorator."""
    for cls_id in related:
        cls = resolver.syms[cls_id]
        facts = resolver.facts(cls.path)
        if facts.get("cdecos", {}).get(cls.symbol_path):
            return True
        meta = facts.get("metas", {}).get(cls.symbol_path)
        if meta is not None and _making_metaclass(conn, resolver, cls.path, str(meta)):
            return True
        if resolver.metaclass(cls_id) or _defines(conn, cls.path, cls.symbol_path, _NAME_HOOKS):
            return True  # a class deriving from `type`, or defining a name hook
    return False


def _making_metaclass(conn: sqlite3.Connection, resolver: Resolver, path: str, chain: str) -> bool:
    """Whether the metaclass ``chain`` (of a class in ``path``) may make or reach members by
    name: anything but ABCMeta or a project metaclass defining none of the hooks doing so
    (``_FakeSubclassCheck`` with ``__subclasscheck__`` only)."""
    found = resolver.deref_class(resolver.resolve(path, chain) if chain else None)
    if found is None:
        return True
    if found[0] == "x":
        return str(found[1]) not in _PLAIN_METACLASSES
    if found[0] != "s":
        return True
    for meta in resolver.project_ancestors(found[1]):
        if _defines(conn, meta.path, meta.symbol_path, _META_HOOKS):
            return True
        for base in resolver.facts(meta.path).get("bases", {}).get(meta.symbol_path, ()):
            outer = resolver.deref_class(resolver.resolve(meta.path, base) if base else None)
            if outer is None or (outer[0] == "x" and str(outer[1]) not in _PLAIN_METACLASSES):
                return True
    return False


def _defines(conn: sqlite3.Connection, path: str, class_path: str, names: frozenset[str]) -> bool:
    """Whether the class ``class_path`` of ``path`` declares a member named one of ``names``."""
    found = conn.execute(
        "SELECT 1 FROM symbols s JOIN files f ON f.id = s.file_id WHERE f.path = ?"
        f" AND s.parent_path = ? AND s.name IN ({','.join('?' * len(names))}) LIMIT 1",
        (path, class_path, *sorted(names)),
    ).fetchone()
    return found is not None


def _reached(conn: sqlite3.Connection, resolver: Resolver, related: set[int]) -> bool:
    """Whether a place reaching attributes by a made name may have a receiver of a related class
    (its instance, or the class itself)."""
    held = _held_outside(conn, resolver, related)
    for path, chain in _sites(conn, resolver, "dynsites"):
        if not chain:
            return True
        entity = resolver.resolve(path, chain)
        if entity is None and _outside_made(conn, chain):
            continue
        if _may_be(resolver, entity, related, held):
            return True
    return False


def _sites(conn: sqlite3.Connection, resolver: Resolver, key: str) -> Iterator[tuple[str, str]]:
    """(path, receiver chain) of each place a file's facts list under ``key`` (``dynsites``,
    ``namesites``), reading only the files that have some."""
    for (path,) in conn.execute(f"SELECT path FROM module_facts WHERE data LIKE '%\"{key}\"%' ORDER BY path"):
        for _, chain in resolver.facts(path).get(key, ()):
            yield path, chain


def _held_outside(conn: sqlite3.Connection, resolver: Resolver, related: set[int]) -> set[str]:
    """The outside variables and attributes the project stores an instance of a related class
    into (``sys.stdout = Sink()``, ``_state.current = Config()`` of a ``threading.local``), as
    py_values's ``!`` rows name them: a value read from one may be that instance."""
    keys = [f"{resolver.syms[c].path}::{resolver.syms[c].symbol_path}" for c in related]
    if not keys:
        return set()
    return {
        str(value)[1:]
        for (value,) in conn.execute(
            f"SELECT DISTINCT value FROM py_values WHERE target IN ({','.join('?' * len(keys))})"
            " AND value LIKE '!%'",
            keys,
        )
    }


def _outside_made(conn: sqlite3.Connection, chain: str) -> bool:
    """Whether the receiver ``chain`` nobody typed is something a standard-library module that
    makes fresh objects made, given no project value (``options, args = parser.parse_args(argv)``
    of optparse): an outside object. Libraries may hold and hand back project objects (caches,
    registries, proxies, loggers' handlers, context variables): what they give stays unknown."""
    if not chain.startswith("I:0:") or ";" in chain:
        return False
    top = chain[4:].partition(":")[0].partition(".")[0]
    if top not in _FRESH_MODULES:
        return False
    return not project_package(conn, top)


def _may_be(resolver: Resolver, entity: Entity, related: set[int], held: set[str]) -> bool:
    """Whether ``entity`` may be a related class or its instance: unknown, ``object``/``Any``,
    one of them, or an outside variable or attribute the project stores one into (``held``)."""
    for alt in alternatives(resolver.deref(entity)):
        if alt is None:
            return True
        tag = alt[0]
        if tag in ("s", "i"):
            sym = resolver.syms.get(alt[1])
            if sym is None or (sym.kind in CLASSLIKE and alt[1] in related):
                return True
        elif tag == "x":
            name = str(alt[1]).lstrip("?").removesuffix(".()")
            if name in _ANY or name.replace(".().", ".") in held:
                return True
        elif tag in ("e", "m"):
            continue  # a container or a mapping, a module: no instance of a class
        else:
            return True
    return False
