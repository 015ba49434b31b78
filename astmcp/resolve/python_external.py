"""Members of classes defined outside the project (stdlib, installed packages).

Read from the source files found on ``sys.path`` (then the project's own virtualenv:
``search_project_environment``) with ``ast`` (nothing is
imported, nothing executed); builtins are looked up on the interpreter's own
types. Used to tell whether a method overrides something the project does not own.
"""

from __future__ import annotations

import ast
import builtins
import collections
import functools
import hashlib
import importlib
import os
import sys
import typing
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from astmcp.resolve.python_namespace import parameter_templates, self_templates

_MAX_DEPTH = 6
# folders searched after ``sys.path``: the site-packages of the project's own virtualenv, when
# astmcp runs from another environment (a tool install); see ``search_project_environment``
_EXTRA_PATHS: list[str] = []


def search_project_environment(root: Path) -> None:
    """Also read outside modules from the project's virtualenv: ``$VIRTUAL_ENV``, else a
    ``.venv``, ``venv`` or ``env`` folder of ``root`` holding a ``pyvenv.cfg``. Its site-packages
    come after astmcp's own path; lookups cached before are dropped when it adds any."""
    found: list[str] = []
    virtual_env = os.environ.get("VIRTUAL_ENV")
    for folder in [
        *([Path(virtual_env)] if virtual_env else []),
        *(root / n for n in (".venv", "venv", "env")),
    ]:
        if not (folder / "pyvenv.cfg").is_file():
            continue
        found += sorted(str(p) for p in folder.glob("lib/python3*/site-packages") if p.is_dir())
        if (folder / "Lib" / "site-packages").is_dir():  # Windows layout
            found.append(str(folder / "Lib" / "site-packages"))
    added = [p for p in found if p not in sys.path and p not in _EXTRA_PATHS]
    if added:
        _EXTRA_PATHS.extend(added)
        _clear_caches()


def _clear_caches() -> None:
    for cached in (
        _module_file,
        importable,
        _parse,
        class_defines,
        class_ancestors,
        computed_members,
        member_type,
        holds_anything,
    ):
        cached.cache_clear()


def environment_fingerprint() -> str:
    """A digest of the outside modules astmcp can read: the interpreter's version and the entries
    of each site-packages folder on its path and the project's virtualenv's. Facts the index drew
    from outside sources (``py_values``, outside bases, members) are stale when it changes; so are
    the lookups this module cached, which are dropped then (a package installed while a server
    runs is read from then on)."""
    global _FINGERPRINT
    parts = [sys.version]
    for entry in [*sys.path, *_EXTRA_PATHS]:
        if os.path.basename(entry.rstrip(os.sep)) not in ("site-packages", "dist-packages"):
            continue
        try:
            names = sorted(os.listdir(entry))
        except OSError:
            names = []
        parts.append(entry + "\0" + "\0".join(names))
    found = hashlib.sha256("\n".join(parts).encode("utf-8", "surrogateescape")).hexdigest()
    if _FINGERPRINT and found != _FINGERPRINT:
        _clear_caches()
    _FINGERPRINT = found
    return found


_FINGERPRINT = ""


@functools.lru_cache(maxsize=256)
def _module_file(module: str) -> str | None:
    parts = module.split(".")
    for entry in [*sys.path, *_EXTRA_PATHS]:
        base = os.path.join(entry or os.getcwd(), *parts)
        for candidate in (base + ".py", base + ".pyi", os.path.join(base, "__init__.py")):
            if os.path.isfile(candidate):
                return candidate
    return None


@functools.lru_cache(maxsize=256)
def importable(top: str) -> bool:
    """Whether the top-level module ``top`` is the standard library's or is found where astmcp or
    the project's environment would import it from: a source or stub file, a package folder
    (namespace packages included) or a compiled extension."""
    if top in sys.stdlib_module_names or top in sys.builtin_module_names or _module_file(top):
        return True
    for entry in [*sys.path, *_EXTRA_PATHS]:
        folder = entry or os.getcwd()
        if os.path.isdir(os.path.join(folder, top)):
            return True
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        if any(n.startswith(top + ".") and n.endswith((".so", ".pyd")) for n in names):
            return True
    return False


@dataclass(frozen=True)
class _Class:
    """What the lookups need of an outside class: its base expressions, every name its body
    defines (see ``_body_defines``) and the computed member names its methods read."""

    bases: tuple[ast.expr, ...]
    defines: frozenset[str]
    templates: frozenset[str]
    # what the annotations of its members say calling (True) or reading (False) them gives
    types: dict[str, tuple[bool, ast.expr]]
    # (attribute, member) of each `self.attribute.member` its methods read
    held_reads: frozenset[tuple[str, str]]
    # the names its body defines with `def` (methods and properties: no attribute set by users)
    functions: frozenset[str]
    # attributes its methods set to what they were given (`self.obj = obj`): whatever users pass
    given: frozenset[str]
    # its `__init__`'s parameters after self, and the attributes it stores each of them in
    init: tuple[tuple[str, ...], dict[str, frozenset[str]]] | None
    # what its methods read or call off `self` that its body never defines: hooks a subclass is to
    # provide (arpeggio's `Parser.parse` calls `self._parse()`, which only subclasses define)
    hooks: frozenset[str] = frozenset()


@dataclass(frozen=True)
class _Module:
    """An outside module's top level, summarised once: its classes and its imports (a parsed
    tree of every module a project's classes derive from would hold ~100 MB on django)."""

    classes: dict[str, _Class]
    imports: tuple[ast.Import | ast.ImportFrom, ...]
    # module-level variables: the annotation (`g: _AppCtxGlobals = LocalProxy(…)`), else the
    # callee of the call assigned (`local = Local()`), each defined once
    values: dict[str, tuple[bool, ast.expr]]
    # module-level functions: their parameters in order, and the members each parameter's value
    # is read for in the body (`fp.write(chunk)`, `read = fsrc.read`: `write`, `read`)
    functions: dict[str, tuple[tuple[str, ...], dict[str, frozenset[str]]]]


@functools.lru_cache(maxsize=512)
def _parse(path: str) -> _Module | None:
    try:
        with open(path, encoding="utf-8") as handle:
            tree = ast.parse(handle.read())
    except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
        return None
    classes: dict[str, _Class] = {}
    given = _given_templates(tree)
    for node in _module_level(tree.body):
        if isinstance(node, ast.ClassDef) and node.name not in classes:
            templates: set[str] = set(given)
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                    templates |= self_templates(item)
            defines = _body_defines(node)
            classes[node.name] = _Class(
                tuple(node.bases),
                defines,
                frozenset(templates),
                _member_types(node),
                _held_reads(node),
                frozenset(
                    item.name
                    for item in node.body
                    if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
                ),
                _given_attributes(node),
                _init_stores(node),
                _self_hooks(node, defines),
            )
    imports = tuple(n for n in _module_level(tree.body) if isinstance(n, ast.Import | ast.ImportFrom))
    functions = {
        node.name: _parameter_reads(node)
        for node in _module_level(tree.body)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    }
    return _Module(classes, imports, _module_values(tree.body), functions)


def _given_templates(tree: ast.Module) -> set[str]:
    """The computed member names the module's functions and methods read off objects they are
    given (``parameter_templates``): a class of the module may be such an object (arpeggio's
    visitors, whose ``visit_<rule name>`` a parse tree node's ``visit(visitor)`` calls), and so may
    a project class deriving from one."""
    found: set[str] = set()
    methods: set[ast.AST] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            methods.update(
                item for item in node.body if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
            )
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found |= parameter_templates(node, node in methods)
    return found


def _parameter_reads(
    function: ast.FunctionDef | ast.AsyncFunctionDef,
) -> tuple[tuple[str, ...], dict[str, frozenset[str]]]:
    """A function's parameters in order and the members its body reads off each (``p.member``)."""
    args = function.args
    params = tuple(a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs))
    reads: dict[str, set[str]] = {}
    for node in ast.walk(function):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in params:
            reads.setdefault(node.value.id, set()).add(node.attr)
    return params, {name: frozenset(found) for name, found in reads.items()}


# functions written in C whose arguments' members they call: what `print(…, file=out)` writes
# with, what `csv.writer(out)` and `pickle.dump(obj, out)` write with, what `pickle.load(src)` reads
_WRITES = frozenset({"write", "flush"})
_PICKLE_READS = frozenset({"read", "readline", "readinto", "peek"})
_FILENO = frozenset({"fileno"})
_BUILTIN_ARGUMENT_READS = {
    **{(name, "=file"): _WRITES for name in ("print", "builtins.print")},
    **{(f"{m}.{f}", "#0"): _WRITES for m in ("csv", "_csv") for f in ("writer", "DictWriter")},
    **{(f"{m}.DictWriter", "=f"): _WRITES for m in ("csv", "_csv")},
    **{(f"{m}.dump", k): _WRITES for m in ("pickle", "_pickle", "marshal") for k in ("#1", "=file")},
    **{(f"{m}.Pickler", k): _WRITES for m in ("pickle", "_pickle") for k in ("#0", "=file")},
    **{
        (f"{m}.{f}", k): _PICKLE_READS
        for m in ("pickle", "_pickle")
        for f in ("load", "Unpickler")
        for k in ("#0", "=file")
    },
    **{("marshal.load", k): _PICKLE_READS for k in ("#0", "=file")},
    # the stream given is kept and written to later (by `print`, the printer, the runner)
    **{
        (f"contextlib.{f}", k): _WRITES
        for f in ("redirect_stdout", "redirect_stderr")
        for k in ("#0", "=new_target")
    },
    **{(f"pprint.{f}", k): _WRITES for f in ("pprint", "pp", "PrettyPrinter") for k in ("=stream",)},
    ("pprint.pprint", "#1"): _WRITES,
    **{
        (f"traceback.{f}", "=file"): _WRITES
        for f in ("print_exc", "print_exception", "print_stack", "print_tb", "print_last")
    },
    **{
        (f"unittest.{f}", k): _WRITES for f in ("TextTestRunner", "TextTestResult") for k in ("#0", "=stream")
    },
    # options are stored into the namespace given by their names (`*`: any member may be set)
    **{
        (f"argparse.ArgumentParser.().{f}", "=namespace"): frozenset({"*"})
        for f in ("parse_args", "parse_known_args", "parse_intermixed_args", "parse_known_intermixed_args")
    },
    # the object's file descriptor is asked for by number
    **{("select.select", k): _FILENO for k in ("#0", "#1", "#2")},
    **{
        (f"subprocess.{f}", f"={k}"): _FILENO
        for f in ("Popen", "run", "call", "check_call", "check_output")
        for k in ("stdin", "stdout", "stderr")
    },
}


def argument_reads(qualified: str, key: str) -> frozenset[str]:
    """The members the outside function ``qualified`` (``json.dump``) reads off its argument
    ``key`` (``=name`` a keyword, ``#n`` the n-th positional): ``json.dump(obj, fp)`` calls
    ``fp.write``. Found in its source (one ``from m import f`` followed); empty when unknown."""
    builtin = _BUILTIN_ARGUMENT_READS.get((qualified, key))
    if builtin is not None:
        return builtin
    module, _, method = qualified.partition(".")
    if module == "logging" and method.endswith(".addFilter") and key in ("#0", "=filter"):
        return frozenset({"filter"})  # a logger or handler keeps it, and calls its `filter` per record
    module, _, name = qualified.rpartition(".")
    for _ in range(2):
        path = _module_file(module) if module and module != "builtins" else None
        summary = _parse(path) if path else None
        if summary is None or path is None:
            return frozenset()
        function = summary.functions.get(name)
        if function is not None:
            params, reads = function
            if key.startswith("="):
                param = key[1:]
            else:
                index = int(key[1:])
                param = params[index] if index < len(params) else ""
            return reads.get(param, frozenset())
        source = _imported_from(summary, module, path, name)
        if source is None:
            return frozenset()
        module, name = source
    return frozenset()


def _module_values(body: list[ast.stmt]) -> dict[str, tuple[bool, ast.expr]]:
    """``name -> (annotated, expr)`` of the module-level variables whose value is typed by an
    annotation (True) or made by calling something (False: the callee), assigned once."""

    def bindings() -> Iterator[tuple[list[str], tuple[bool, ast.expr] | None]]:
        for node in _module_level(body):
            if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                yield [node.target.id], (True, node.annotation)
            elif isinstance(node, ast.Assign):
                called = (False, node.value.func) if isinstance(node.value, ast.Call) else None
                yield [t.id for t in node.targets if isinstance(t, ast.Name)], called

    return _defined_once(bindings())


def _defined_once(
    bindings: Iterable[tuple[list[str], tuple[bool, ast.expr] | None]],
) -> dict[str, tuple[bool, ast.expr]]:
    """``name -> typed`` for the names bound once, with a type (a second binding drops it)."""
    found: dict[str, tuple[bool, ast.expr]] = {}
    seen: set[str] = set()
    for names, typed in bindings:
        for name in names:
            if name in seen or typed is None:
                found.pop(name, None)
            else:
                found[name] = typed
            seen.add(name)
    return found


def _module_level(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """A module's top-level statements and those of its top-level ``if``/``try`` blocks (``abc``
    defines ``ABCMeta`` in the ``else`` of a ``try``), in source order."""
    for node in body:
        yield node
        if isinstance(node, ast.If):
            yield from _module_level(node.body)
            yield from _module_level(node.orelse)
        elif isinstance(node, ast.Try):
            yield from _module_level(node.body)
            for handler in node.handlers:
                yield from _module_level(handler.body)
            yield from _module_level(node.orelse)
            yield from _module_level(node.finalbody)


_PLAIN_DECORATORS = frozenset({"staticmethod", "classmethod", "abstractmethod"})
_PROPERTIES = frozenset({"property", "cached_property"})


def _member_types(node: ast.ClassDef) -> dict[str, tuple[bool, ast.expr]]:
    """``name -> (called, annotation)`` for the class body's members whose type an annotation
    gives, each defined once: a plain method (``def``, no decorator but staticmethod, classmethod
    or abstractmethod: what calling it gives), a property or cached_property (what reading it
    gives) and an annotated class attribute (``headers: Headers``)."""

    def bindings() -> Iterator[tuple[list[str], tuple[bool, ast.expr] | None]]:
        for item in node.body:
            if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                typed: tuple[bool, ast.expr] | None = None
                decorators = {_decorator_name(d) for d in getattr(item, "decorator_list", [])}
                if isinstance(item, ast.FunctionDef) and item.returns is not None:
                    if decorators <= _PLAIN_DECORATORS:
                        typed = (True, item.returns)
                    elif len(decorators) == 1 and decorators <= _PROPERTIES:
                        typed = (False, item.returns)
                yield [item.name], typed
            elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                yield [item.target.id], (False, item.annotation)
            elif isinstance(item, ast.Assign):
                yield [t.id for t in item.targets if isinstance(t, ast.Name)], None

    return _defined_once(bindings())


def _given_attributes(node: ast.ClassDef) -> frozenset[str]:
    """The attributes a method of the class sets to one of its parameters (``self.obj = obj``,
    ``self.obj = obj or default``)."""
    return frozenset(
        attribute
        for item in node.body
        if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
        for _, attribute in _parameter_stores(item)
    )


def _init_stores(node: ast.ClassDef) -> tuple[tuple[str, ...], dict[str, frozenset[str]]] | None:
    """The class's own ``__init__``: its parameters after self (positional first) and the
    attributes it sets to each (``self.serializer = serializer``); None without one."""
    # the last definition: overloads (`@t.overload def __init__`) come before the implementation
    inits = [i for i in node.body if isinstance(i, ast.FunctionDef) and i.name == "__init__"]
    if not inits:
        return None
    args = inits[-1].args
    params = tuple(a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs))[1:]
    stored: dict[str, set[str]] = {}
    for param, attribute in _parameter_stores(inits[-1]):
        stored.setdefault(param, set()).add(attribute)
    return params, {k: frozenset(v) for k, v in stored.items()}


def _parameter_stores(function: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[tuple[str, str]]:
    """``(parameter, attribute)`` of each ``self.attribute = parameter`` (or ``parameter or …``)
    in the method."""
    args = function.args
    params = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)} - {"self"}
    for stmt in ast.walk(function):
        if isinstance(stmt, ast.Assign):
            targets, value = stmt.targets, stmt.value
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            targets, value = [stmt.target], stmt.value
        else:
            continue
        for source in value.values if isinstance(value, ast.BoolOp) else [value]:
            if isinstance(source, ast.Name) and source.id in params:
                for target in targets:
                    held = _self_attribute(target)
                    if held is not None:
                        yield source.id, held


def kept_argument(qualified: str, key: str) -> frozenset[str]:
    """The attributes of an instance of the outside class ``qualified`` holding the argument
    ``key`` of its construction (``=name`` a keyword, ``#n`` the n-th positional), by the first
    ``__init__`` found in it or a class it derives from: ``URLSafeTimedSerializer(…,
    serializer=s)`` keeps s in ``serializer``. Empty when unknown."""
    for cls in _mro_classes(qualified):
        if cls.init is None:
            continue
        params, stored = cls.init
        if key.startswith("="):
            param = key[1:]
        else:
            index = int(key[1:])
            param = params[index] if index < len(params) else ""
        return stored.get(param, frozenset())
    return frozenset()


def _held_reads(node: ast.ClassDef) -> frozenset[tuple[str, str]]:
    """``(attribute, member)`` of each ``self.attribute.member`` in the class body, also through
    a local set to it (``use = self.serializer`` then ``use.loads(…)``)."""
    found: set[tuple[str, str]] = set()
    for function in ast.walk(node):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        aliases = {
            target.id: held
            for stmt in ast.walk(function)
            if isinstance(stmt, ast.Assign) and (held := _self_attribute(stmt.value)) is not None
            for target in stmt.targets
            if isinstance(target, ast.Name)
        }
        for item in ast.walk(function):
            if not isinstance(item, ast.Attribute):
                continue
            held = _self_attribute(item.value)
            if held is not None:
                found.add((held, item.attr))
            elif isinstance(item.value, ast.Name) and item.value.id in aliases:
                found.add((aliases[item.value.id], item.attr))
    return frozenset(found)


def _self_attribute(node: ast.expr) -> str | None:
    """``attribute`` of ``self.attribute``."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        return node.attr
    return None


# outside module variables the interpreter itself uses: `sys.stdout = sink` has `print` call
# `sink.write`; an import runs `find_spec` of each finder on `sys.meta_path`
_MODULE_HELD_READS: dict[tuple[str, str], frozenset[str]] = {
    **{("sys", name): _WRITES for name in ("stdout", "stderr", "__stdout__", "__stderr__")},
    **{
        ("sys", name): _PICKLE_READS | {"readlines", "__iter__", "__next__"}
        for name in ("stdin", "__stdin__")
    },
}


def held_member_reads(qualified: str, attribute: str) -> frozenset[str]:
    """The members the outside class ``qualified`` (or a class it derives from) reads of what
    its attribute ``attribute`` holds (``self.json_module.loads``: ``loads``); for an outside
    module's variable, what the interpreter reads of it (``sys.stdout``: ``write``)."""
    module_reads = _MODULE_HELD_READS.get((qualified, attribute))
    if module_reads is not None:
        return module_reads
    return frozenset(
        member for cls in _read_classes(qualified) for held, member in cls.held_reads if held == attribute
    )


def _read_classes(qualified: str) -> Iterator[_Class]:
    """The outside class ``qualified`` and the classes it derives from, as far as their source
    is found (the class alone when a base cannot be read)."""
    for qualified_class in sorted(class_ancestors(qualified) or {qualified}):
        module, _, name = qualified_class.rpartition(".")
        path = _module_file(module) if module and module != "builtins" else None
        summary = _parse(path) if path else None
        cls = summary.classes.get(name) if summary is not None else None
        if cls is not None:
            yield cls


def _mro_classes(qualified: str) -> Iterator[_Class]:
    """The outside class ``qualified`` then its bases, breadth first in the order listed (enough
    to find the ``__init__`` that runs: the first one)."""
    queue, seen = [(qualified, 0)], set()
    while queue:
        current, depth = queue.pop(0)
        module, _, name = current.rpartition(".")
        path = _module_file(module) if module and module != "builtins" and depth <= _MAX_DEPTH else None
        summary = _parse(path) if path else None
        if summary is None or path is None or current in seen:
            continue
        seen.add(current)
        cls = summary.classes.get(name)
        if cls is None:
            imported = _imported_from(summary, module, path, name)
            if imported is not None:
                queue.append((".".join(imported), depth + 1))
            continue
        yield cls
        for base in cls.bases:
            found = _base_name(summary, module, path, base)
            if found is not None:
                queue.append((found, depth + 1))


def _decorator_name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    return node.attr if isinstance(node, ast.Attribute) else ""


def module_variable(value: str) -> tuple[str, str] | None:
    """``(module, variable)`` of an outside module variable the interpreter reads members of
    (``sys.stdout``), else None."""
    module, _, name = value.rpartition(".")
    return (module, name) if (module, name) in _MODULE_HELD_READS else None


def instance_member(value: str) -> tuple[str, str] | None:
    """``(class, member)`` of an outside value that is a member of an instance of an outside class
    (``pkg.mod.Cls.().member``), else None."""
    receiver, _, member = value.rpartition(".")
    if not receiver.endswith(".()") or "()" in receiver[:-3] or not member.isidentifier():
        return None
    return receiver[:-3], member


def is_module(qualified: str) -> bool:
    """Whether ``pkg.mod`` is a module outside the project (a builtin one, or a source file on
    ``sys.path``)."""
    return bool(qualified) and (qualified in sys.builtin_module_names or _module_file(qualified) is not None)


def _package_of(module: str, path: str) -> str:
    return module if path.endswith("__init__.py") else module.rpartition(".")[0]


# typing's class-making functions: a class deriving from one is a named tuple (tuple's members and
# `_asdict`, `_replace`, `_fields`, …) or a dict; none of them is a class whose source can be read
_NAMED_TUPLE = collections.namedtuple("_NAMED_TUPLE", ())
_SPECIAL_BASES: dict[str, type] = {
    f"{module}.{name}": kind
    for module in ("typing", "typing_extensions")
    for name, kind in (("NamedTuple", _NAMED_TUPLE), ("TypedDict", dict))
}


def _typing_alias(qualified: str) -> str | None:
    """The class a ``typing`` alias stands for (``typing.Iterator``, made by ``_alias(
    collections.abc.Iterator, 1)``, is ``collections.abc.Iterator``; ``typing.List`` is
    ``builtins.list``): no class statement in typing's source declares it."""
    module, _, name = qualified.rpartition(".")
    if module not in ("typing", "typing_extensions") or not name:
        return None
    value = getattr(typing, name, None)
    origin = getattr(value, "__origin__", None)
    if value is None or isinstance(value, type) or not isinstance(origin, type):
        return None
    return f"{origin.__module__}.{origin.__qualname__}"


@functools.lru_cache(maxsize=4096)
def class_defines(qualified: str, member: str) -> bool | None:
    """Whether the external class ``qualified`` (``pkg.mod.Cls``) has ``member``.

    None when the class cannot be found (not installed, built dynamically).
    """
    special = _SPECIAL_BASES.get(qualified)
    if special is not None:
        return hasattr(special, member)
    alias = _typing_alias(qualified)
    if alias is not None:
        return class_defines(alias, member)
    module, _, name = qualified.rpartition(".")
    if module == "builtins" or not module:  # a builtin is named bare (`class A(object)`)
        value = getattr(builtins, name, None)
        return hasattr(value, member) if isinstance(value, type) else None
    return _defines(module, name, member, 0)


def _defines(module: str, name: str, member: str, depth: int) -> bool | None:
    if depth > _MAX_DEPTH:
        return None
    if module in ("typing", "typing_extensions") and _typing_alias(f"{module}.{name}") is not None:
        return class_defines(f"{module}.{name}", member)
    path = _module_file(module)
    summary = _parse(path) if path else None
    if summary is None or path is None:
        return _compiled_stdlib_defines(module, name, member) if path is None else None
    cls = summary.classes.get(name)
    compiled = _compiled_replacement(summary, module, path, name) if cls is not None else None
    if compiled is not None:
        return _compiled_stdlib_defines(compiled, name, member)
    if cls is not None:
        if member in cls.defines or member in cls.hooks:
            return True
        unknown = False
        for base in cls.bases:
            found = _base_defines(summary, module, path, base, member, depth + 1)
            if found:
                return True
            unknown = unknown or found is None
        return None if unknown else False
    imported = _imported_from(summary, module, path, name)
    if imported is not None:
        return _defines(*imported, member, depth + 1)
    for source in _star_sources(summary, module, path):  # `collections.abc`: `from _collections_abc import *`
        found = _defines(source, name, member, depth + 1)
        if found is not None:
            return found
    return None


def _compiled_replacement(summary: _Module, module: str, path: str, name: str) -> str | None:
    """The compiled module whose class the standard-library ``module`` binds ``name`` to in the
    end, over the Python class its source defines (``datetime`` ends with ``from _datetime import
    *``: ``datetime.time`` is ``_datetime.time``, which has no ``_getstate``); None when the
    Python class stays."""
    if module.partition(".")[0] not in sys.stdlib_module_names:
        return None
    for source in _star_sources(summary, module, path):
        if _module_file(source) is not None:
            continue
        try:
            bound = getattr(importlib.import_module(module), name, None)
            compiled = getattr(importlib.import_module(source), name, None)
        except Exception:  # a module this platform lacks
            continue
        if isinstance(compiled, type) and bound is compiled:
            return source
    return None


def _compiled_stdlib_defines(module: str, name: str, member: str) -> bool | None:
    """A class of a standard-library module without Python source (``_io.TextIOWrapper``,
    ``_ctypes.Structure``), asked of the interpreter (stdlib is the only code astmcp imports):
    True when it has the member; else None, not False, since compiled code may read names its
    subclasses give (``ctypes.Structure`` reads ``_fields_``) without having them itself."""
    if module.partition(".")[0] not in sys.stdlib_module_names:
        return None
    try:
        value = getattr(importlib.import_module(module), name, None)
    except Exception:  # a module this platform lacks (`_winapi`) reads as unknown
        return None
    return True if isinstance(value, type) and hasattr(value, member) else None


def stdlib_lacks(qualified: str, member: str) -> bool:
    """Whether the standard-library class ``qualified`` (``io.IOBase``, whose compiled base
    ``_io._IOBase`` has no source to read) has no ``member`` on the interpreter, and ``member`` is
    no hook compiled code looks up on subclasses without defining it: dunders, ``_sunder_`` names
    (``ctypes.Structure`` reads ``_fields_``) and ``_COMPILED_HOOKS`` (``pickle.Pickler`` calls a
    subclass's ``reducer_override``)."""
    module, _, name = qualified.rpartition(".")
    if not module or module.partition(".")[0] not in sys.stdlib_module_names:
        return False
    if (len(member) > 2 and member[0] == "_" and member[-1] == "_") or member in _COMPILED_HOOKS:
        return False
    try:
        value = getattr(importlib.import_module(module), name, None)
    except Exception:  # a module this platform lacks (`_winapi`)
        return False
    return isinstance(value, type) and not hasattr(value, member)


# plain names compiled standard-library code looks up on subclasses, or on the objects it is
# given, without its classes defining them: pickle's `reducer_override`; the I/O stack's optional
# methods and attributes (`_io._IOBase.readline` calls a `peek`, `TextIOWrapper` a buffer's
# `read1`, buffered objects a raw's `_dealloc_warn`); an XML parser's target's `doctype`,
# `start_ns`, `end_ns`
_COMPILED_HOOKS = frozenset(
    {
        "reducer_override",
        "peek",
        "read1",
        "readinto1",
        "raw",
        "buffer",
        "name",
        "mode",
        "_dealloc_warn",
        "doctype",
        "start_ns",
        "end_ns",
    }
)


def _imported_from(summary: _Module, module: str, path: str, name: str) -> tuple[str, str] | None:
    """(module, name) a ``from m import name [as alias]`` of ``module`` binds ``name`` to."""
    for node in summary.imports:
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if (alias.asname or alias.name) == name:
                    return _absolute(module, path, node), alias.name
    return None


def _imported_module(summary: _Module, name: str) -> str | None:
    """The module an ``import m [as name]`` of the module binds ``name`` to."""
    for node in summary.imports:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if (alias.asname or alias.name) == name:
                    return alias.name
    return None


def _star_sources(summary: _Module, module: str, path: str) -> list[str]:
    """The modules ``module`` star-imports (``from m import *``), in order."""
    return [
        _absolute(module, path, node)
        for node in summary.imports
        if isinstance(node, ast.ImportFrom) and any(alias.name == "*" for alias in node.names)
    ]


def _self_hooks(node: ast.ClassDef, defines: frozenset[str]) -> frozenset[str]:
    """What the class's methods read off their own ``self`` (``self._parse()``) that the class
    body does not define (``defines``, from ``_body_defines``): a subclass's member of that name
    is called from the outside class's code."""
    found: set[str] = set()
    for item in node.body:
        if not isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        params = item.args.posonlyargs + item.args.args
        if not params or any(
            isinstance(d, ast.Name) and d.id in ("staticmethod", "classmethod") for d in item.decorator_list
        ):
            continue
        me = params[0].arg
        for inner in ast.walk(item):
            if (
                isinstance(inner, ast.Attribute)
                and isinstance(inner.ctx, ast.Load)
                and isinstance(inner.value, ast.Name)
                and inner.value.id == me
                and not (inner.attr.startswith("__") and inner.attr.endswith("__"))
            ):
                found.add(inner.attr)
    return frozenset(found - defines)


def _body_defines(node: ast.ClassDef) -> frozenset[str]:
    """What the class body defines: methods, nested classes and class attributes (names its body
    binds, under ``if``/``try`` too) and the ``self.x = …`` of its methods, anywhere in them.
    A method's local variables are not members (``_collections_abc.MutableMapping.pop`` binds
    ``value``: no ``MutableMapping.value``)."""
    found: set[str] = set()
    methods: list[ast.AST] = []
    queue: list[ast.AST] = list(node.body)
    while queue:
        stmt = queue.pop()
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found.add(stmt.name)
            if not isinstance(stmt, ast.ClassDef):
                methods.append(stmt)
            queue.extend(stmt.decorator_list)
            continue
        if isinstance(stmt, ast.Lambda):
            continue  # its parameters are its own
        if isinstance(stmt, ast.Name) and isinstance(stmt.ctx, ast.Store):
            found.add(stmt.id)
        queue.extend(ast.iter_child_nodes(stmt))
    for method in methods:
        for inner in ast.walk(method):
            if (
                isinstance(inner, ast.Attribute)
                and isinstance(inner.ctx, ast.Store)
                and isinstance(inner.value, ast.Name)
                and inner.value.id == "self"
            ):
                found.add(inner.attr)
    return frozenset(found)


def _absolute(module: str, path: str, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = _package_of(module, path)
    for _ in range(node.level - 1):
        package = package.rpartition(".")[0]
    return f"{package}.{node.module}" if node.module else package


def _base_defines(
    summary: _Module, module: str, path: str, base: ast.expr, member: str, depth: int
) -> bool | None:
    if isinstance(base, ast.Subscript):  # `class TextIO(IO[str])`: the generic class's members
        base = base.value
    if isinstance(base, ast.Name):
        if base.id == "object":
            return hasattr(object, member)
        if base.id in summary.classes:
            return _defines(module, base.id, member, depth)
        imported = _imported_from(summary, module, path, base.id)
        if imported is not None:
            return _defines(*imported, member, depth)
        builtin = getattr(builtins, base.id, None)
        if isinstance(builtin, type):
            return hasattr(builtin, member)
        return None
    if isinstance(base, ast.Attribute) and isinstance(base.value, ast.Name):
        source = _imported_module(summary, base.value.id)
        if source is not None:
            return _defines(source, base.attr, member, depth)
    return None


@functools.lru_cache(maxsize=256)
def class_ancestors(qualified: str) -> frozenset[str] | None:
    """The outside class ``qualified`` and every class it derives from, qualified
    (``builtins.ValueError`` -> ``builtins.Exception``, …); None when a base cannot be found."""
    found: set[str] = set()
    return frozenset(found) if _collect_ancestors(qualified, found, 0) else None


def _collect_ancestors(qualified: str, found: set[str], depth: int) -> bool:
    if qualified in found:
        return True
    found.add(qualified)
    special = _SPECIAL_BASES.get(qualified)
    if special is not None:  # a named tuple is a tuple, a TypedDict a dict
        found.update(f"builtins.{c.__name__}" for c in special.__mro__ if c.__module__ == "builtins")
        return True
    alias = _typing_alias(qualified)
    if alias is not None:  # `typing.Iterator`: the class it stands for
        found.discard(qualified)
        return _collect_ancestors(alias, found, depth + 1)
    module, _, name = qualified.rpartition(".")
    if module == "builtins":
        value = getattr(builtins, name, None)
        if not isinstance(value, type):
            return False
        found.update(f"builtins.{c.__name__}" for c in value.__mro__ if c.__module__ == "builtins")
        return True
    path = _module_file(module) if module and depth <= _MAX_DEPTH else None
    summary = _parse(path) if path else None
    if summary is None or path is None:
        return False
    cls = summary.classes.get(name)
    if cls is not None:
        return all(
            (base := _base_name(summary, module, path, expr)) is not None
            and _collect_ancestors(base, found, depth + 1)
            for expr in cls.bases
        )
    imported = _imported_from(summary, module, path, name)
    if imported is not None:
        found.discard(qualified)  # a re-export: the class is the imported one
        return _collect_ancestors(".".join(imported), found, depth + 1)
    for source in _star_sources(summary, module, path):
        if _declares(source, name):
            found.discard(qualified)
            return _collect_ancestors(f"{source}.{name}", found, depth + 1)
    return False


def _declares(module: str, name: str) -> bool:
    """Whether ``module``'s source defines a class ``name`` at its top level."""
    path = _module_file(module)
    summary = _parse(path) if path else None
    return summary is not None and name in summary.classes


def _base_name(summary: _Module, module: str, path: str, base: ast.expr) -> str | None:
    """The qualified name of a base class expression of a class in ``module``."""
    if isinstance(base, ast.Subscript):  # `Generic[T]`, `Mapping[str, int]`
        base = base.value
    if isinstance(base, ast.Name):
        if base.id in summary.classes:
            return f"{module}.{base.id}"
        imported = _imported_from(summary, module, path, base.id)
        if imported is not None:
            return ".".join(imported)
        return f"builtins.{base.id}" if isinstance(getattr(builtins, base.id, None), type) else None
    if isinstance(base, ast.Attribute) and isinstance(base.value, ast.Name):
        source = _imported_module(summary, base.value.id)
        if source is not None:
            return f"{source}.{base.attr}"
    return None


@functools.lru_cache(maxsize=256)
def module_defines(module: str, name: str, depth: int = 0) -> bool:
    """Whether the outside module's source defines or imports ``name`` at its top level, through
    its star imports too (asyncio's ``from .base_events import *``; a compiled module's may bring
    any name, but a standard library accelerator's). False when the module's own source is not
    found (a compiled module)."""
    path = _module_file(module)
    summary = _parse(path) if path is not None else None
    if path is None or summary is None:
        return False
    if name in summary.classes or name in summary.functions or name in summary.values:
        return True
    for node in summary.imports:
        for alias in node.names:
            if alias.name != "*":
                if (alias.asname or alias.name).partition(".")[0] == name:
                    return True
                continue
            source = _absolute(module, path, node) if isinstance(node, ast.ImportFrom) else ""
            if _module_file(source) is None:
                # a compiled module: a standard library one speeds up what its Python module
                # defines itself (heapq's `from _heapq import *`); any other may bring anything
                if source not in _COMPILED_STDLIB:
                    return True
            elif depth >= _MAX_DEPTH or module_defines(source, name, depth + 1):
                return True
    return False


_COMPILED_STDLIB = frozenset(sys.stdlib_module_names) | frozenset(sys.builtin_module_names)


def module_class_members(module: str) -> frozenset[str]:
    """The member names (no dunders) of the public classes an outside module holds: those it
    defines and those it imports from its own package (``from .models import Response``,
    ``from .models import *``), as their sources say. Empty when its source is not found."""
    path = _module_file(module)
    summary = _parse(path) if path is not None else None
    if path is None or summary is None:
        return frozenset()
    found: set[str] = set()
    for name, cls in summary.classes.items():
        if not name.startswith("_"):
            found |= cls.defines
    top = module.partition(".")[0]
    for node in summary.imports:
        if not isinstance(node, ast.ImportFrom):
            continue
        source = _absolute(module, path, node)
        if source.partition(".")[0] != top or source == module:
            continue  # (another package's classes are that package's)
        source_path = _module_file(source)
        other = _parse(source_path) if source_path is not None else None
        if other is None:
            continue
        for alias in node.names:
            picked = (
                [c for n, c in other.classes.items() if not n.startswith("_")]
                if alias.name == "*"
                else [other.classes[alias.name]]
                if alias.name in other.classes and not alias.name.startswith("_")
                else []
            )
            for cls in picked:
                found |= cls.defines
    return frozenset(n for n in found if not n.startswith("__"))


@functools.lru_cache(maxsize=1024)
def computed_members(qualified: str) -> tuple[str, ...]:
    """The member names the outside class ``qualified`` (or a class it derives from) computes
    and reads from its own object, or its module's code from an object it is given, as
    ``python_namespace.member_template`` stores them: ``ast.NodeVisitor`` calls ``visit_<node
    class name>``, ``cmd.Cmd`` ``do_<command>``, arpeggio's parse tree nodes a
    ``PTNodeVisitor``'s ``visit_<rule name>``. A project subclass's ``visit_Name`` is reached
    from outside by that name."""
    return tuple(sorted({template for cls in _read_classes(qualified) for template in cls.templates}))


@functools.lru_cache(maxsize=4096)
def member_type(qualified: str, member: str, called: bool) -> str | None:
    """The outside class (qualified) whose instance calling (``called``) or reading the member
    ``member`` of the outside class ``qualified`` gives, by the annotation of the definition its
    instances use: werkzeug's ``Client.get`` -> ``werkzeug.test.TestResponse``, ``Request.form``
    (a cached_property) -> ``werkzeug.datastructures.ImmutableMultiDict``. None when that is
    unknown: no annotation, anything but one class (or ``X | None``, or a generic class given
    builtin types only), a class ``qualified`` derives from or is (``-> Self``, ``-> "Headers"``
    on ``Headers.copy``: the value may be the project subclass's instance), a method read or a
    property called, or a definition astmcp cannot find."""
    found = _member_type(qualified, member, called, 0)
    if found is None or found.startswith("builtins."):
        return found
    ancestors = class_ancestors(qualified)
    if ancestors is None or found in ancestors or not _is_class(found, 0):
        return None
    return found


@functools.lru_cache(maxsize=4096)
def holds_anything(value: str) -> bool:
    """Whether ``value``, an attribute read from an instance of an outside class
    (``click.Context.().obj``), may hold any object, a project one included: the class (or a
    base) declares it ``Any``, or another class its subclasses (``parent: Context | None``), or
    sets it, undeclared, to what a method was given (``self.prog = prog``), or does not define
    it at all (set on the object by its users). A method's or property's value, an attribute the
    class computes itself (``self.stdout = io.open(…)``) and one of a class astmcp cannot read
    (compiled) are the library's."""
    owner, marker, attribute = value.rpartition(".().")
    if not marker:  # an attribute of a module-level instance (`flask.g.user`)
        instance, _, attribute = value.rpartition(".")
        owner = _instance_class(instance, 0) or ""
    if not owner or not attribute.isidentifier():
        return False
    defined = class_defines(owner, attribute)
    if defined is None:
        return _open_compiled_instance(owner, attribute)
    if not defined:
        return True
    definers = [cls for cls in _read_classes(owner) if attribute in cls.defines]
    if not definers or any(attribute in cls.functions for cls in definers):
        return False  # a method or property computes what it gives; a compiled class's own attribute
    typed = member_type(owner, attribute, False)
    if typed is not None:
        return typed in _ANY
    annotated = any(attribute in cls.types for cls in definers)
    return annotated or any(attribute in cls.given for cls in definers)  # `X | None` of a subclassable X


_ANY = frozenset({"typing.Any", "typing_extensions.Any", "builtins.object"})


def _instance_class(qualified: str, depth: int) -> str | None:
    """The class of the outside module-level variable ``qualified`` (``flask.g``: declared
    ``g: _AppCtxGlobals``; ``local = Local()``), through re-exports; None for anything else."""
    module, _, name = qualified.rpartition(".")
    path = _module_file(module) if module and depth <= _MAX_DEPTH else None
    summary = _parse(path) if path else None
    if summary is None or path is None or name in summary.classes:
        return None
    value = summary.values.get(name)
    if value is None:
        imported = _imported_from(summary, module, path, name)
        return _instance_class(".".join(imported), depth + 1) if imported is not None else None
    annotated, expr = value
    found = (
        _annotated_class(summary, module, path, expr)
        if annotated
        else _base_name(summary, module, path, expr)
    )
    return found if found is not None and _is_class(found, 0) else None


def _open_compiled_instance(qualified: str, attribute: str) -> bool:
    """Whether ``attribute`` of an instance of the standard library's class ``qualified``, which
    has no Python source, is set by its users: the class lacks it and its instances take any
    attribute (``threading.local``, an object with a ``__dict__``)."""
    module, _, name = qualified.rpartition(".")
    if not module or module.partition(".")[0] not in sys.stdlib_module_names:
        return False
    try:
        value = getattr(importlib.import_module(module), name, None)
    except Exception:  # a module this platform lacks
        return False
    if not isinstance(value, type) or hasattr(value, attribute):
        return False
    return value.__dictoffset__ != 0 or getattr(value, "__setattr__", None) is not object.__setattr__


def _member_type(qualified: str, member: str, called: bool, depth: int) -> str | None:
    module, _, name = qualified.rpartition(".")
    path = _module_file(module) if module and module != "builtins" and depth <= _MAX_DEPTH else None
    summary = _parse(path) if path else None
    if summary is None or path is None:
        return None
    cls = summary.classes.get(name)
    if cls is None:
        imported = _imported_from(summary, module, path, name)
        return _member_type(".".join(imported), member, called, depth + 1) if imported is not None else None
    if member in cls.defines:
        typed = cls.types.get(member)
        if typed is None or typed[0] != called:
            return None
        return _annotated_class(summary, module, path, typed[1])
    for expr in cls.bases:
        base = _base_name(summary, module, path, expr)
        if base is None:
            return None
        has = class_defines(base, member)
        if has:
            return _member_type(base, member, called, depth + 1)
        if has is None:
            return None
    return None


def _annotated_class(summary: _Module, module: str, path: str, annotation: ast.expr) -> str | None:
    """The qualified class a return annotation names: ``Cls``, ``mod.Cls``, ``"Cls"``, ``Cls |
    None``, ``Optional[Cls]``; None for anything else (generics, unions, type variables)."""
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        try:
            annotation = ast.parse(annotation.value, mode="eval").body
        except SyntaxError:
            return None
    if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
        sides = [annotation.left, annotation.right]
        kept = [s for s in sides if not (isinstance(s, ast.Constant) and s.value is None)]
        return _annotated_class(summary, module, path, kept[0]) if len(kept) == 1 else None
    if isinstance(annotation, ast.Subscript):
        if _decorator_name(annotation.value) == "Optional":
            return _annotated_class(summary, module, path, annotation.slice)
        # a generic class given builtin types (`MultiDict[str, str]`): what it holds is no
        # project object; given others (`t.Any`, a type variable) it may hold one: unknown
        given = annotation.slice.elts if isinstance(annotation.slice, ast.Tuple) else [annotation.slice]
        if not all(_builtin_type(summary, module, path, arg) for arg in given):
            return None
        annotation = annotation.value
        if isinstance(annotation, ast.Name) and not (
            annotation.id in summary.classes or _imported_from(summary, module, path, annotation.id)
        ):
            return None  # `list[str]`, `type[str]`: a builtin container or a class object
    if isinstance(annotation, ast.Name | ast.Attribute):
        return _base_name(summary, module, path, annotation)
    return None


def _builtin_type(summary: _Module, module: str, path: str, node: ast.expr) -> bool:
    """Whether a type argument is a builtin scalar type (``str``, ``bytes``, ``int``, …)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            node = ast.parse(node.value, mode="eval").body
        except SyntaxError:
            return False
    named = _base_name(summary, module, path, node) if isinstance(node, ast.Name) else None
    return named in _SCALARS


_SCALARS = frozenset(f"builtins.{n}" for n in ("str", "bytes", "int", "float", "bool", "complex"))


def _is_class(qualified: str, depth: int) -> bool:
    """Whether ``pkg.mod.Cls`` is a class statement of outside source (through re-exports)."""
    module, _, name = qualified.rpartition(".")
    path = _module_file(module) if module and depth <= _MAX_DEPTH else None
    summary = _parse(path) if path else None
    if summary is None or path is None:
        return False
    if name in summary.classes:
        return True
    imported = _imported_from(summary, module, path, name)
    return imported is not None and _is_class(".".join(imported), depth + 1)
