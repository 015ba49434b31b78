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

A parameter a call of the project gives a value outside code made (``fill(Template("$a"))`` with
``from string import Template``, or a name of the file such a value is assigned to) is judged so
too: ``template.substitute`` in ``fill`` may be the outside class's. So is one the function itself
gives such a value (a default, ``item = item or make()``), and one of a function or lambda handed
to a function of the project that calls it back with one (``each(lambda t: t.substitute())``). A
value is outside when read off or made from an outside module's name, or held or returned by a
symbol of the project so made (``DEFAULT = Template("$a")``, ``make()``). Mocks stand in for the
project's objects and do not count.
"""

from __future__ import annotations

import ast
import sqlite3
from pathlib import Path

from astmcp.query.common import PASSING_MODULES, project_package, query_symbols
from astmcp.query.pytrees import defined_functions, parsed_tree, per_tree

__all__ = ["OutsideFed"]

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
# outside modules whose objects stand in for anything (a mock given for a project object)
_STAND_INS = frozenset({"unittest", "mock", "pytest_mock"})
# an attribute read, the functions around it (outermost first), and the parents of the file's
# functions by id (one mapping, shared)
_Read = tuple[ast.Attribute, tuple[ast.AST, ...], dict[int, ast.AST]]


class OutsideFed:
    """Judges attribute reads of Python files under ``root``, once per function (see the module)."""

    def __init__(self, conn: sqlite3.Connection, root: Path | None) -> None:
        self.conn = conn
        self.root = root
        self._texts: dict[str, str | None] = {}
        self._functions: dict[tuple[str, int, int], bool] = {}
        self._packages: dict[str, bool] = {}
        self._given: dict[tuple[str, int, str], bool] = {}
        self._lines: dict[str, list[str]] = {}

    def read_off_parameter(self, path: str, line: int, col: int, name: str) -> bool:
        """Whether ``.name`` at ``line``/``col`` (1-based, code points) of ``path`` is read off a
        parameter of a function outside code calls with its own values."""
        tree = self._tree(path)
        if tree is None:
            return False
        source = self._line(path, line)
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
            if not any(p.arg == name for p in params):
                if _binds(function, name):
                    return False  # a local of that function
                continue
            position = next(i for i, p in enumerate(params) if p.arg == name)
            # `def draw(item=DEFAULT)`, `item = item or make()`: what the function itself may give it
            given = [*_set_again(function, name), *_default(function, name)]
            if any(self._outside_value(path, tree, value) for value in given):
                return True
            if _binds(function, name):
                return False  # set again in its body, to nothing known to be outside
            if isinstance(function, ast.Lambda):
                call = parents.get(id(function))
                return isinstance(call, ast.Call) and (
                    self._outside_callee(path, tree, call) or self._calls_back(path, call, function, position)
                )
            owner = parents.get(id(function))
            method = isinstance(owner, ast.ClassDef) and not _static(function)
            if method and params and params[0].arg == name:
                return False  # `self`/`cls`
            if self._handed_outside(path, function, position - method):
                return True
            positional = position < len(function.args.posonlyargs) + len(function.args.args)
            return self._given_outside(path, function, name, position - method if positional else None)
        return False

    def _given_outside(
        self, path: str, function: ast.FunctionDef | ast.AsyncFunctionDef, name: str, position: int | None
    ) -> bool:
        """Whether a call of the project gives parameter ``name`` (at ``position`` past ``self``, or
        None when only a keyword names it) a value outside code made: ``fill(Template("$a"))``
        with ``from string import Template`` (an outside class's instance, what an outside
        function gives or an outside module holds)."""
        key = (path, function.lineno, name)
        if key in self._given:
            return self._given[key]
        self._given[key] = False
        symbol = self._symbol(path, function)
        if symbol is None:
            return False
        for where, line in self.conn.execute(
            "SELECT f.path, r.line FROM refs r JOIN files f ON f.id = r.file_id"
            " WHERE r.symbol_id = ? AND r.kind = 'call' AND f.language = 'python'",
            (symbol,),
        ):
            tree = self._tree(where)
            for call in _calls(tree).get((line, function.name), ()) if tree is not None else ():
                given = [k.value for k in call.keywords if k.arg == name]
                if (
                    position is not None
                    and position < len(call.args)
                    and not any(isinstance(a, ast.Starred) for a in call.args[: position + 1])
                ):
                    given.append(call.args[position])
                if tree is not None and any(self._outside_value(where, tree, value) for value in given):
                    self._given[key] = True
                    return True
        return False

    def _symbol(self, path: str, function: ast.FunctionDef | ast.AsyncFunctionDef) -> int | None:
        found = query_symbols(
            self.conn,
            "f.path = ? AND s.name_line = ? AND s.name = ? AND s.kind IN ('function', 'method')",
            (path, function.lineno, function.name),
        )
        return found[0].id if found else None

    def _handed_outside(
        self, path: str, function: ast.FunctionDef | ast.AsyncFunctionDef, position: int
    ) -> bool:
        """Whether the function is handed to outside code that calls it (and the project never
        does), or to a function of the project that calls it with an outside value for the
        parameter at ``position`` (past ``self``)."""
        key = (path, function.lineno, position)
        if key in self._functions:
            return self._functions[key]
        self._functions[key] = False
        symbol = self._symbol(path, function)
        if symbol is None:
            return False
        called = self.conn.execute(
            "SELECT 1 FROM refs WHERE symbol_id = ? AND kind = 'call' LIMIT 1", (symbol,)
        ).fetchone()
        handed = False
        for where, line in self.conn.execute(
            "SELECT f.path, r.line FROM refs r JOIN files f ON f.id = r.file_id"
            " WHERE r.symbol_id = ? AND r.kind != 'call' AND f.language = 'python'",
            (symbol,),
        ):
            tree = self._tree(where)
            # (the call the reference is an argument of: `path("", views.index)`)
            call = _arguments(tree).get((line, function.name)) if tree is not None else None
            if call is None or tree is None:
                continue
            if (not called and self._outside_callee(where, tree, call)) or self._calls_back(
                where, call, _given_as(call, function.name), position
            ):
                handed = True
                break
        self._functions[key] = handed
        return handed

    def _calls_back(self, path: str, call: ast.Call, given: ast.expr | None, position: int) -> bool:
        """Whether the project function ``call`` calls (resolved by the index) calls the function
        ``given`` to it with an outside value at ``position``: ``each(lambda t: t.substitute())``
        with ``def each(fn): return fn(Template("$a"))``."""
        if given is None:
            return False
        k = next((i for i, a in enumerate(call.args) if a is given), None)
        keyword = next((w.arg for w in call.keywords if w.value is given), None)
        if (k is None and keyword is None) or any(
            isinstance(a, ast.Starred) for a in call.args[: (k or 0) + 1]
        ):
            return False
        func = call.func
        spelled = (
            func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
        )
        if spelled is None:
            return False
        for where, line in self.conn.execute(
            "SELECT f.path, s.name_line FROM refs r JOIN symbols s ON s.id = r.symbol_id JOIN files f ON"
            " f.id = s.file_id JOIN files c ON c.id = r.file_id WHERE c.path = ? AND r.line = ? AND r.name = ?"
            " AND r.kind = 'call' AND s.kind IN ('function', 'method') AND f.language = 'python'",
            (path, func.end_lineno or func.lineno, spelled),
        ).fetchall():
            tree = self._tree(where)
            callee = defined_functions(tree).get((line, spelled)) if tree is not None else None
            if tree is None or callee is None:
                continue
            params = [*callee.args.posonlyargs, *callee.args.args]
            skip = int(isinstance(func, ast.Attribute) and bool(params) and params[0].arg in ("self", "cls"))
            names = {p.arg for p in (*params, *callee.args.kwonlyargs)}
            target = params[k + skip].arg if k is not None and k + skip < len(params) else keyword
            if target is None or target not in names:
                continue
            for inner in ast.walk(callee):  # `fn(Template("$a"))`
                if (
                    isinstance(inner, ast.Call)
                    and isinstance(inner.func, ast.Name)
                    and inner.func.id == target
                    and position < len(inner.args)
                    and not any(isinstance(a, ast.Starred) for a in inner.args[: position + 1])
                    and self._outside_value(where, tree, inner.args[position])
                ):
                    return True
        return False

    def _outside_callee(self, path: str, tree: ast.Module, call: ast.Call) -> bool:
        """Whether a call's callee is read off a name a module-level import binds to a module
        outside the project that does not hand on what it is given."""
        return self._outside_value(path, tree, call.func)

    def _outside_value(self, path: str, tree: ast.Module, value: ast.expr, depth: int = 0) -> bool:
        """Whether a value is read off (or made by calling what is read off) a name a module-level
        import binds to a module outside the project that does not hand on what it is given, nor
        makes stand-ins for anything (``unittest.mock``); or is what a name of the project holds
        or a function of it returns that is so (``DEFAULT = Template("$a")``, ``def make():
        return Template("$a")``); either side of ``a or b`` and ``a if c else b``."""
        if isinstance(value, ast.BoolOp):
            return any(self._outside_value(path, tree, v, depth) for v in value.values)
        if isinstance(value, ast.IfExp):
            return any(self._outside_value(path, tree, v, depth) for v in (value.body, value.orelse))
        root = value
        while isinstance(root, (ast.Attribute, ast.Call, ast.Subscript, ast.Await)):
            root = root.func if isinstance(root, ast.Call) else root.value
        if not isinstance(root, ast.Name):
            return False
        if (
            root is value
            and depth < 2
            and any(
                self._outside_value(path, tree, assigned, depth + 1)
                for assigned in _assigned(tree).get(root.id, ())
            )
        ):
            return True  # `t = Template("$a")` then `fill(t)` (any such name of the file)
        module = _imports(tree).get(root.id)
        if module is None:
            return depth < 2 and self._held_outside(path, root, value, depth + 1)
        top = module.partition(".")[0]
        if not top or top in PASSING_MODULES or top in _STAND_INS:
            return False
        if top not in self._packages:
            self._packages[top] = project_package(self.conn, top)
        if self._packages[top]:  # the project's own module: what its name holds
            return depth < 2 and self._held_outside(path, root, value, depth + 1)
        return True

    def _held_outside(self, path: str, root: ast.Name, value: ast.expr, depth: int) -> bool:
        """Whether the project's symbol ``root`` resolves to (by the index) holds an outside value:
        a module-level variable assigned one, or — called, ``make()`` — a function returning one."""
        source = self._line(path, root.lineno)
        col = len(source.encode()[: root.col_offset].decode(errors="replace")) + 1
        called = isinstance(value, ast.Call) and value.func is root
        for where, kind, line in self.conn.execute(
            "SELECT f.path, s.kind, s.name_line FROM refs r JOIN symbols s ON s.id = r.symbol_id"
            " JOIN files f ON f.id = s.file_id JOIN files c ON c.id = r.file_id WHERE c.path = ? AND r.line = ?"
            " AND r.col = ? AND r.confidence = 'certain' AND f.language = 'python'",
            (path, root.lineno, col),
        ).fetchall():
            tree = self._tree(where)
            if tree is None:
                continue
            if kind == "variable":
                held = [
                    node.value
                    for node in tree.body
                    if isinstance(node, ast.Assign)
                    and node.lineno == line
                    and any(isinstance(t, ast.Name) and t.id == root.id for t in node.targets)
                ]
            elif kind == "function" and called:
                function = next((f for (at, _), f in defined_functions(tree).items() if at == line), None)
                held = [r.value for r in _returns(function) if r.value is not None] if function else []
            else:
                continue
            if any(self._outside_value(where, tree, v, depth) for v in held):
                return True
        return False

    def _line(self, path: str, line: int) -> str:
        """Line ``line`` (1-based) of a file :meth:`_tree` read, or ``""``."""
        lines = self._lines.get(path)
        if lines is None:
            lines = self._lines[path] = (self._texts.get(path) or "").split("\n")
        return lines[line - 1] if 0 < line <= len(lines) else ""

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


def _set_again(function: ast.AST, name: str) -> list[ast.expr]:
    """The values ``name = …`` gives in a function's body (nested functions left out)."""
    out: list[ast.expr] = []
    pending = list(ast.iter_child_nodes(function))
    while pending:
        node = pending.pop()
        if isinstance(node, (*_FUNCTIONS, ast.ClassDef)):
            continue
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in node.targets
        ):
            out.append(node.value)
        pending.extend(ast.iter_child_nodes(node))
    return out


def _default(function: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda, name: str) -> list[ast.expr]:
    """The default value of the parameter ``name``, if any."""
    args = function.args
    positional = [*args.posonlyargs, *args.args]
    pairs = list(zip(positional[len(positional) - len(args.defaults) :], args.defaults, strict=True))
    pairs += [(p, d) for p, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is not None]
    return [d for p, d in pairs if p.arg == name]


def _returns(function: ast.AST) -> list[ast.Return]:
    """A function's ``return`` statements (nested functions left out)."""
    out: list[ast.Return] = []
    pending = list(ast.iter_child_nodes(function))
    while pending:
        node = pending.pop()
        if isinstance(node, (*_FUNCTIONS, ast.ClassDef)):
            continue
        if isinstance(node, ast.Return):
            out.append(node)
        pending.extend(ast.iter_child_nodes(node))
    return out


def _static(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether a function of a class body is a ``@staticmethod`` (no ``self`` comes first)."""
    return any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in function.decorator_list)


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
def _assigned(tree: ast.Module) -> dict[str, list[ast.expr]]:
    """The values assignments of the file give plain names (``t = Template("$a")``), any scope."""
    out: dict[str, list[ast.expr]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            out.setdefault(node.targets[0].id, []).append(node.value)
        elif isinstance(node, ast.withitem) and isinstance(node.optional_vars, ast.Name):
            out.setdefault(node.optional_vars.id, []).append(node.context_expr)
    return out


def _given_as(call: ast.Call, name: str) -> ast.expr | None:
    """The argument of ``call`` naming ``name`` (``f``, ``views.f``)."""
    for arg in [*call.args, *(k.value for k in call.keywords)]:
        if (isinstance(arg, ast.Name) and arg.id == name) or (
            isinstance(arg, ast.Attribute) and arg.attr == name
        ):
            return arg
    return None


@per_tree
def _calls(tree: ast.Module) -> dict[tuple[int, str], list[ast.Call]]:
    """The calls by the line their callee's name ends on and that name (``f(…)``, ``x.f(…)``)."""
    out: dict[tuple[int, str], list[ast.Call]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, (ast.Name, ast.Attribute)):
            spelled = node.func.id if isinstance(node.func, ast.Name) else node.func.attr
            out.setdefault((node.func.end_lineno or node.func.lineno, spelled), []).append(node)
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
