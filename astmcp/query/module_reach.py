"""Whether a Python module-level name can be read off a receiver nobody typed (``x.name``).

A function, class or variable at a module's top level is an attribute of the module object
(and of each module that re-exports it: ``from m import name``, ``from m import *``). An untyped
receiver holds that object only if the program hands it on as a value: ``run(m)``, ``mods =
[m]``, ``self.mod = m``, ``globals()`` or ``vars()`` of a module that imported it, a package
object doing the same for its submodules (``run(pkg)`` then ``p.m.name``), or a loader giving
modules by a name made at run time (``importlib.import_module(name)``, ``sys.modules[key]``,
``__import__(name)``, ``pytest.importorskip(name)``). When none of that happens anywhere in the project, every expression that
evaluates to such a module is a static ``m.attr`` the index types, and ``x.name`` on a receiver
it could not type is some other object's member: no name hit of the module-level symbol.

The test reads each file's syntax tree that mentions a module or package name on the way (or
an alias an import gives one), so it runs once per rename of a module-level symbol that has
untyped-receiver hits at all.
"""

from __future__ import annotations

import ast
import re
import sqlite3
from pathlib import Path

from astmcp.query.common import SymbolRow
from astmcp.query.package_types import project_root
from astmcp.query.pytrees import parsed_tree
from astmcp.resolve.python_modules import module_names, path_key
from astmcp.resolve.python_scope import func_name, narrow_key

__all__ = ["ModuleReach", "holding_modules"]

_PYTHON_FILES = (".py", ".pyi")
_VALUE_KINDS = frozenset({"function", "class", "variable"})
# calls and names that hand out module objects by a name made at run time
_LOADER_CALLS = frozenset(
    {"import_module", "__import__", "reload", "getmodule", "module_from_spec", "importorskip"}
)
# calls giving the namespace a module ran in (every module it imported is a value there)
_NAMESPACE_RUNNERS = frozenset({"run_module", "run_path"})
_LOADER_WORDS = re.compile(
    r"\b(?:import_module|__import__|reload|getmodule|module_from_spec|importorskip|modules|load_module|f_globals"
    r"|f_locals|run_module|run_path)\b"
)
# what swaps an object for a mock or a fake by its dotted path or attribute name
_PATCHERS = frozenset({"patch", "object", "setattr"})
# builtins reading a module's namespace as a mapping (every module it imported is a value there)
_NAMESPACE_READERS = frozenset({"globals", "vars", "locals"})


def holding_modules(conn: sqlite3.Connection, files: set[str], names: set[str]) -> set[str]:
    """``files`` and every project module re-exporting a name of ``names`` from one of them,
    under its own name or by a star import, and so on."""
    holding = set(files)
    changed = True
    while changed:
        changed = False
        marks = ",".join("?" * len(holding))
        for path, name, alias, kind in conn.execute(
            "SELECT f.path, i.name, i.alias, i.kind FROM imports i JOIN files f ON f.id = i.file_id"
            f" WHERE i.resolved_path IN ({marks}) AND f.language = 'python'",
            tuple(sorted(holding)),
        ):
            if path in holding:
                continue
            if kind == "star" or (name in names and alias in (None, "", name)):
                holding.add(path)
                changed = True
    return holding


class ModuleReach:
    """Which module objects may hold the symbol and whether any of them can reach a receiver
    nobody typed; ``names`` are the words such an object goes by in the source (module, package
    and alias names), so a hit read off one of them (``pkg.m.name``) stays a hit."""

    def __init__(self, conn: sqlite3.Connection, declarations: list[SymbolRow]) -> None:
        self.conn = conn
        self.names: set[str] = set()
        self.aliases: set[str] = set()  # what imports call those modules in the files read
        self.escapes = True
        root = project_root(conn)
        if root is None or not declarations:
            return
        if any(
            d.parent_path or d.kind not in _VALUE_KINDS or not d.file.endswith(_PYTHON_FILES)
            for d in declarations
        ):
            return
        holding = holding_modules(conn, {d.file for d in declarations}, {d.name for d in declarations})
        dotted = {name for path in holding for name in module_names(path) if self._importable(name, path)}
        self.names = {part for name in dotted for part in name.split(".")}
        self.escapes = self._escapes(root, holding, dotted)

    def _importable(self, dotted: str, path: str) -> bool:
        """Whether ``dotted`` is a name the file is imported by: each folder it goes through is a
        package (``src/`` of a src layout is none), or a namespace package some file imports."""
        parts = dotted.split(".")
        key = path_key(path).split("/")
        base = len(key) - len(parts)
        for depth in range(1, len(parts)):
            folder = "/".join(key[: base + depth])
            prefix = ".".join(parts[:depth])
            package = self.conn.execute(
                "SELECT 1 FROM files WHERE path IN (?, ?) LIMIT 1",
                (f"{folder}/__init__.py", f"{folder}/__init__.pyi"),
            ).fetchone()
            if (
                package is None
                and not self.conn.execute(
                    "SELECT 1 FROM imports WHERE module = ? OR module LIKE ? LIMIT 1", (prefix, prefix + ".%")
                ).fetchone()
            ):
                return False
        return True

    def keeps(self, line_text: str, column: int) -> bool:
        """Whether the hit at ``column`` (1-based) of a line is still a hit: the project hands a
        module holding the symbol on, or the receiver is written as one of its names."""
        if self.escapes:
            return True
        before = line_text[: max(column - 1, 0)].rstrip()
        if not before.endswith("."):
            return True  # the receiver is on another line: unread, kept
        # a call's or an item's result is no module unless one was handed on (then escapes)
        receiver = re.search(r"([A-Za-z_]\w*)\s*$", before[:-1])
        return receiver is not None and receiver.group(1) in self.names | self.aliases

    def _escapes(self, root: Path, holding: set[str], dotted: set[str]) -> bool:
        words = re.compile(r"\b(?:" + "|".join(sorted(map(re.escape, self.names))) + r")\b")
        for (path,) in self.conn.execute("SELECT path FROM files WHERE language = 'python' ORDER BY path"):
            try:
                text = (root / path).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                return True
            loads = _LOADER_WORDS.search(text) is not None
            if not loads and not words.search(text):
                continue
            try:
                tree = parsed_tree(text)
            except (SyntaxError, ValueError):
                if path in holding or words.search(text):
                    return True
                continue
            package = path.endswith(("/__init__.py", "/__init__.pyi"))
            reader = _File(tree, path in holding, self.names, dotted, package)
            self.aliases |= reader.bound  # `import pkg._speedups as impl`: `impl.name` stays a hit
            if reader.escapes():
                return True
        return False


class _File:
    """One file's uses of module objects that may hold the symbol."""

    def __init__(
        self, tree: ast.Module, holding: bool, names: set[str], dotted: set[str], package: bool = False
    ) -> None:
        self.tree = tree
        self.holding = holding  # the file is itself a module holding the symbol
        self.dotted = dotted
        self.names = names  # module and package names on the way to a holding module
        self.bound: set[str] = set()  # the file's names that may be bound to such a module
        self.loaders = set(_LOADER_CALLS)  # (and what an import calls them here)
        self.systems = {"sys"}  # names of the `sys` module here
        self.tables: set[str] = set()  # names of `sys.modules` itself (`from sys import modules`)
        self.star = package  # a package's `__init__` holds its submodules as globals
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name == "sys" and alias.asname:
                        self.systems.add(alias.asname)
                    parts = alias.name.split(".")
                    if any(part in names for part in parts):
                        self.bound.add(alias.asname or parts[0])
            elif isinstance(node, ast.ImportFrom):
                module = node.module or ""
                for alias in node.names:
                    bound = alias.asname or alias.name
                    if alias.name in _LOADER_CALLS:
                        self.loaders.add(bound)
                    if module == "sys" and alias.name == "modules":
                        self.tables.add(bound)
                    if alias.name == "*":
                        self.star = True
                    elif alias.name in names:
                        self.bound.add(bound)
        self.binds_module = holding or self.star or bool(self.bound)

    def escapes(self) -> bool:
        parents: dict[int, ast.AST] = {}
        for node in ast.walk(self.tree):
            for child in ast.iter_child_nodes(node):
                parents[id(child)] = node
        return any(self._escape(node, parents) for node in ast.walk(self.tree))

    def _escape(self, node: ast.AST, parents: dict[int, ast.AST]) -> bool:
        parent = parents.get(id(node))
        if isinstance(node, ast.Name | ast.Attribute):
            word = node.id if isinstance(node, ast.Name) else node.attr
            if not isinstance(node.ctx, ast.Load):
                return False
            if self._module(node):
                # `run(m)`, `mods = [m]`, `self.mod = m`: the module handed on as a value
                return not (isinstance(parent, ast.Attribute) and parent.value is node)
            if word in self.loaders:
                # a loader called with a name made at run time, or handed on itself
                return not (isinstance(parent, ast.Call) and parent.func is node) or self._loads(parent)
            if word in ("f_globals", "f_locals") or (
                isinstance(node, ast.Attribute) and word == "__dict__" and self._module(node.value)
            ):
                return True  # a running frame's or a module's namespace, every module it imported a value
            table = (isinstance(node, ast.Name) and word in self.tables) or (
                isinstance(node, ast.Attribute)
                and word == "modules"
                and narrow_key(node.value) in self.systems
            )
            return table and self._hands_out(node, parent, parents)
        if isinstance(node, ast.Call) and func_name(node.func) in _NAMESPACE_RUNNERS:
            return True  # `runpy.run_module(name)`: the globals of a module run, modules among them
        if isinstance(node, ast.Call) and func_name(node.func) in _PATCHERS:
            # `@patch("pkg.winterm.win32")`, `patch.object(winterm, "win32")`: the module is
            # swapped for a mock the test is given, whose attributes stand for the module's
            return any(
                isinstance(arg, ast.Constant)
                and isinstance(arg.value, str)
                and arg.value.rpartition(".")[2] in self.names
                for arg in node.args[:2]
            )
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in _NAMESPACE_READERS
        ):
            # `globals()`, `vars()`, `locals()`: this module's namespace, every module it imported a value
            return self.binds_module and not node.args
        return False

    def _module(self, node: ast.expr) -> bool:
        """Whether ``node`` may evaluate to a module on the way to one holding the symbol: a name
        an import binds to one (any such name after a star import), or ``pkg.m`` of one."""
        if isinstance(node, ast.Name):
            return node.id in self.bound or (self.star and node.id in self.names)
        if isinstance(node, ast.Attribute):
            return node.attr in self.names and self._module(node.value)
        return False

    def _loads(self, call: ast.Call) -> bool:
        """Whether a loader's call may give a module holding the symbol."""
        first = call.args[0] if call.args else None
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            return any(first.value == d or d.startswith(first.value + ".") for d in self.dotted)
        return True

    def _hands_out(self, table: ast.AST, parent: ast.AST | None, parents: dict[int, ast.AST]) -> bool:
        """Whether a use of ``sys.modules`` may give a module holding the symbol: ``key in
        sys.modules`` asks, ``sys.modules["json"]`` and ``.get("json")`` give another module."""
        if isinstance(parent, ast.Compare):
            return False
        if isinstance(parent, ast.Subscript) and parent.value is table:
            return self._key(parent.slice)
        if isinstance(parent, ast.Attribute) and parent.attr in ("get", "pop", "setdefault"):
            call = parents.get(id(parent))
            if isinstance(call, ast.Call) and call.func is parent and call.args:
                return self._key(call.args[0])
        return True

    def _key(self, key: ast.expr) -> bool:
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            return key.value in self.dotted
        if isinstance(key, ast.Name) and key.id == "__name__":
            return self.holding  # this very module
        return True
