"""Parameters whose values outside code gives (Python): an attribute read off one is no ``likely``
reference of the project's one member of that name.

A function no call of the project reaches, handed as an argument to a function of a module outside
the project (``path("", views.index)`` of Django, ``signal.signal(SIGINT, on_signal)``), is called
by that code, with its values: ``request.user`` in the view is Django's request's, whatever the
project's ``Profile.user`` is. So is a lambda written as such an argument. Modules that hand on
what they are given (``functools``, ``itertools``, … :data:`~astmcp.query.common.PASSING_MODULES`)
and builtins (``map(show, jobs)``: the jobs are given back) do not count, nor does a function the
project also calls (its parameters may hold the project's values too), nor one never handed on (a
library's public function is called by its users with the library's own objects).
"""

from __future__ import annotations

import ast
import sqlite3
from pathlib import Path

from astmcp.query.common import PASSING_MODULES, project_package, query_symbols
from astmcp.query.pytrees import parsed_tree, per_tree

__all__ = ["OutsideFed"]

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
# an attribute read, the functions around it (outermost first), and the parents of the file's
# functions by id (one mapping, shared)
_Read = tuple[ast.Attribute, tuple[ast.AST, ...], dict[int, ast.AST]]


class OutsideFed:
    """Judges attribute reads of Python files under ``root``, once per function (see the module)."""

    def __init__(self, conn: sqlite3.Connection, root: Path | None) -> None:
        self.conn = conn
        self.root = root
        self._texts: dict[str, str | None] = {}
        self._functions: dict[tuple[str, int], bool] = {}
        self._packages: dict[str, bool] = {}

    def read_off_parameter(self, path: str, line: int, col: int, name: str) -> bool:
        """Whether ``.name`` at ``line``/``col`` (1-based, code points) of ``path`` is read off a
        parameter of a function outside code calls with its own values."""
        tree = self._tree(path)
        if tree is None:
            return False
        text = self._texts[path] or ""
        lines = text.split("\n")
        source = lines[line - 1] if 0 < line <= len(lines) else ""
        for attribute, functions, parents in _attributes(tree).get(line, ()):
            start = (attribute.end_col_offset or 0) - len(attribute.attr.encode())
            if attribute.attr != name or len(source.encode()[:start].decode(errors="replace")) + 1 != col:
                continue
            root = attribute.value
            while isinstance(root, ast.Attribute):
                root = root.value
            if not isinstance(root, ast.Name):
                return False
            return self._fed(path, tree, root.id, functions, parents)
        return False

    def _fed(
        self,
        path: str,
        tree: ast.Module,
        name: str,
        functions: tuple[ast.AST, ...],
        parents: dict[int, ast.AST],
    ) -> bool:
        for function in reversed(functions):  # the innermost declaring the name decides
            assert isinstance(function, _FUNCTIONS)
            params = [*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs]
            if _binds(function, name):
                return False  # a local of that function, or a parameter set again in its body
            if not any(p.arg == name for p in params):
                continue
            if isinstance(function, ast.Lambda):
                call = parents.get(id(function))
                return isinstance(call, ast.Call) and self._outside_callee(path, tree, call)
            owner = parents.get(id(function))
            if isinstance(owner, ast.ClassDef) and params and params[0].arg == name:
                return False  # `self`/`cls`
            return self._handed_outside(path, function)
        return False

    def _handed_outside(self, path: str, function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
        key = (path, function.lineno)
        if key in self._functions:
            return self._functions[key]
        self._functions[key] = False
        found = query_symbols(
            self.conn,
            "f.path = ? AND s.name_line = ? AND s.name = ? AND s.kind IN ('function', 'method')",
            (path, function.lineno, function.name),
        )
        if not found:
            return False
        symbol = found[0].id
        if self.conn.execute(
            "SELECT 1 FROM refs WHERE symbol_id = ? AND kind = 'call' LIMIT 1", (symbol,)
        ).fetchone():
            return False  # the project calls it too
        handed = False
        for where, line in self.conn.execute(
            "SELECT f.path, r.line FROM refs r JOIN files f ON f.id = r.file_id"
            " WHERE r.symbol_id = ? AND r.kind != 'call' AND f.language = 'python'",
            (symbol,),
        ):
            tree = self._tree(where)
            # (the call the reference is an argument of: `path("", views.index)`)
            call = _arguments(tree).get((line, function.name)) if tree is not None else None
            if call is not None and tree is not None and self._outside_callee(where, tree, call):
                handed = True
                break
        self._functions[key] = handed
        return handed

    def _outside_callee(self, path: str, tree: ast.Module, call: ast.Call) -> bool:
        """Whether a call's callee is read off a name a module-level import binds to a module
        outside the project that does not hand on what it is given."""
        root = call.func
        while isinstance(root, ast.Attribute):
            root = root.value
        if not isinstance(root, ast.Name):
            return False
        module = _imports(tree).get(root.id)
        if module is None:
            return False
        top = module.partition(".")[0]
        if not top or top in PASSING_MODULES:
            return False
        if top not in self._packages:
            self._packages[top] = project_package(self.conn, top)
        return not self._packages[top]

    def _tree(self, path: str) -> ast.Module | None:
        if path not in self._texts:
            try:
                self._texts[path] = (self.root / path).read_text(encoding="utf-8") if self.root else None
            except (OSError, UnicodeDecodeError):
                self._texts[path] = None
        text = self._texts[path]
        if text is None:
            return None
        try:
            return parsed_tree(text)
        except (SyntaxError, ValueError):
            return None


def _binds(function: ast.AST, name: str) -> bool:
    """Whether ``name`` is set in a function's body (nested functions left out)."""
    pending = list(ast.iter_child_nodes(function))
    while pending:
        node = pending.pop()
        if isinstance(node, (*_FUNCTIONS, ast.ClassDef)):
            continue
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Store):
            return True
        pending.extend(ast.iter_child_nodes(node))
    return False


@per_tree
def _attributes(tree: ast.Module) -> dict[int, list[_Read]]:
    """Attribute reads by the line their name ends on, with the functions around each (outermost
    first); the parents of the file's functions (by id) are shared by all."""
    out: dict[int, list[_Read]] = {}
    parents: dict[int, ast.AST] = {}
    pending: list[tuple[ast.AST, tuple[ast.AST, ...]]] = [(tree, ())]
    while pending:
        node, functions = pending.pop()
        inner = (*functions, node) if isinstance(node, _FUNCTIONS) else functions
        for child in ast.iter_child_nodes(node):
            if isinstance(child, _FUNCTIONS):
                parents[id(child)] = node
            pending.append((child, inner))
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) and functions:
            out.setdefault(node.end_lineno or node.lineno, []).append((node, functions, parents))
    return out


@per_tree
def _imports(tree: ast.Module) -> dict[str, str]:
    """The names module-level imports bind, to the absolute module each is read off
    (``from django.urls import path``: ``path`` -> ``django.urls``), and the names a module-level
    assignment binds to what calling one gives (``app = Flask(__name__)``: ``app`` -> ``flask``)."""
    out: dict[str, str] = {}
    made: dict[str, ast.expr] = {}
    for node in tree.body:
        if isinstance(node, ast.Import):
            for alias in node.names:
                out[alias.asname or alias.name.partition(".")[0]] = alias.name
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                out[alias.asname or alias.name] = node.module
        elif (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Call)
        ):  # `app = Flask(__name__)`: what the module's function made is read off it too
            made[node.targets[0].id] = node.value.func
    for name, callee in made.items():
        while isinstance(callee, ast.Attribute):
            callee = callee.value
        if isinstance(callee, ast.Name) and callee.id in out and name not in out:
            out[name] = out[callee.id]
    return out


@per_tree
def _arguments(tree: ast.Module) -> dict[tuple[int, str], ast.Call]:
    """The calls names (``f``) and attribute reads (``views.f``) given as arguments are arguments
    of (directly, or as items of a list, tuple or set display given), by the line the name ends on
    and the name; columns are not compared."""
    out: dict[tuple[int, str], ast.Call] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        given: list[ast.expr] = [*node.args, *(k.value for k in node.keywords)]
        while given:
            arg = given.pop()
            if isinstance(arg, (ast.List, ast.Tuple, ast.Set)):
                given.extend(arg.elts)
            elif isinstance(arg, (ast.Attribute, ast.Name)):
                spelled = arg.attr if isinstance(arg, ast.Attribute) else arg.id
                out.setdefault((arg.end_lineno or arg.lineno, spelled), node)
    return out
