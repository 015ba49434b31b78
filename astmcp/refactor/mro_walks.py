"""Python: the classes a walk over a method resolution order visits.

Declarative libraries collect what classes declare by walking an MRO and reading each class's
own namespace: marshmallow's ``for base in inspect.getmro(klass)`` then ``base.__dict__`` with
``klass: SchemaMeta``. Such a ``base.__dict__`` holds the members of the classes in that MRO
only — of ``klass`` and its ancestors — not of every class of the project: a ``Field``'s
attribute is in no schema's MRO. :func:`walked_classes` names those classes when the walk's start
is known: a class a parameter is annotated with (``type[Model]``) or whose instances it is (a
metaclass: every class made by it, and those deriving from them), a class named directly, or the
class of the method's ``self``/``cls``; each with the classes below it, as any of them may be the
start.
"""

from __future__ import annotations

import ast
import sqlite3

from astmcp.query.common import ancestry, with_subclasses
from astmcp.refactor.fixtures import last_name
from astmcp.refactor.pyscopes import FileScopes

__all__ = ["walked_classes"]

_WRAPPERS = frozenset({"reversed", "list", "tuple", "iter"})


def walked_classes(
    conn: sqlite3.Connection, path: str, scopes: FileScopes, node: ast.expr
) -> set[int] | None:
    """The project classes whose own ``__dict__`` ``node`` (``base.__dict__``) may be, when
    ``base`` walks a known class's MRO (see the module); None when it does not, or the start is
    not known."""
    if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)):
        return None
    name = node.value.id
    function, owner = _enclosing(scopes.tree, node)
    if function is None:
        return None
    loops = [
        inner.iter
        for inner in ast.walk(function)
        if isinstance(inner, ast.For | ast.AsyncFor | ast.comprehension)
        and isinstance(inner.target, ast.Name)
        and inner.target.id == name
    ]
    others = [
        n
        for n in ast.walk(function)
        if isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load)
    ]
    if len(loops) != 1 or len(others) != 1:
        return None  # bound more than once: not only the walk's classes
    start = _mro_start(function, loops[0], 0)
    if start is None:
        return None
    starts = _classes_of(conn, path, scopes, function, owner, start)
    if not starts:
        return None
    below = with_subclasses(conn, starts)
    walked, _ = ancestry(conn, sorted(below))
    return walked


def _enclosing(
    tree: ast.AST, node: ast.expr
) -> tuple[ast.FunctionDef | ast.AsyncFunctionDef | None, ast.ClassDef | None]:
    """The innermost function holding ``node`` and the class that function is a method of."""
    found: tuple[ast.FunctionDef | ast.AsyncFunctionDef | None, ast.ClassDef | None] = (None, None)

    def visit(parent: ast.AST, cls: ast.ClassDef | None) -> None:
        nonlocal found
        for child in ast.iter_child_nodes(parent):
            first = getattr(child, "lineno", None)
            if first is not None and not first <= node.lineno <= (
                getattr(child, "end_lineno", None) or first
            ):
                continue  # (a node without a position, a comprehension, is looked into)
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                found = (child, cls if parent is cls else None)
                visit(child, None)
            elif isinstance(child, ast.ClassDef):
                visit(child, child)
            else:
                visit(child, cls)

    visit(tree, None)
    return found


def _mro_start(function: ast.AST, expr: ast.expr, depth: int) -> ast.expr | None:
    """``K`` of ``inspect.getmro(K)``, ``K.__mro__``, ``K.mro()``, through ``reversed(…)``,
    slices and a variable assigned once in the function."""
    if depth > 4:
        return None
    if isinstance(expr, ast.Subscript):
        return _mro_start(function, expr.value, depth + 1)
    if isinstance(expr, ast.Call):
        func = expr.func
        callee = last_name(func)
        if callee in _WRAPPERS and len(expr.args) == 1:
            return _mro_start(function, expr.args[0], depth + 1)
        if callee == "getmro" and len(expr.args) == 1:
            return expr.args[0]
        if callee == "mro" and isinstance(func, ast.Attribute) and not expr.args:
            return func.value
        return None
    if isinstance(expr, ast.Attribute) and expr.attr == "__mro__":
        return expr.value
    if isinstance(expr, ast.Name):
        values = [
            n.value
            for n in ast.walk(function)
            if isinstance(n, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == expr.id for t in n.targets)
        ]
        stores = [
            n
            for n in ast.walk(function)
            if isinstance(n, ast.Name) and n.id == expr.id and not isinstance(n.ctx, ast.Load)
        ]
        if len(values) == 1 and len(stores) == 1:
            return _mro_start(function, values[0], depth + 1)
    return None


def _classes_of(
    conn: sqlite3.Connection,
    path: str,
    scopes: FileScopes,
    function: ast.FunctionDef | ast.AsyncFunctionDef,
    owner: ast.ClassDef | None,
    start: ast.expr,
) -> set[int]:
    """The classes the walk may start at (empty: not known)."""
    positional = [*function.args.posonlyargs, *function.args.args]
    params = [*positional, *function.args.kwonlyargs]
    first = positional[0].arg if positional and owner is not None else None
    decorators = {d.id for d in function.decorator_list if isinstance(d, ast.Name)}
    # `type(self)`, `self.__class__`: the method's class
    if (
        isinstance(start, ast.Call)
        and isinstance(start.func, ast.Name)
        and start.func.id == "type"
        and len(start.args) == 1
        and isinstance(start.args[0], ast.Name)
    ) or (
        isinstance(start, ast.Attribute) and start.attr == "__class__" and isinstance(start.value, ast.Name)
    ):
        me = start.args[0] if isinstance(start, ast.Call) else start.value
        if (
            first is not None
            and isinstance(me, ast.Name)
            and me.id == first
            and "staticmethod" not in decorators
        ):
            return _owner_ids(conn, path, owner)
        return set()
    if not isinstance(start, ast.Name):
        return set()
    if start.id == first and ("classmethod" in decorators or function.name == "__init_subclass__"):
        return _owner_ids(conn, path, owner)
    param = next((p for p in params if p.arg == start.id), None)
    if param is not None:
        annotation = param.annotation
        if annotation is None:
            return set()
        wanted_class = isinstance(annotation, ast.Subscript) and last_name(annotation.value) in (
            "type",
            "Type",
        )
        target = annotation.slice if isinstance(annotation, ast.Subscript) and wanted_class else annotation
        found = _class_at(conn, path, scopes, target)
        if found is None:
            return set()
        if wanted_class:
            return {found}
        return _made_by(conn, found) if _is_metaclass(conn, found) else set()
    if any(
        isinstance(n, ast.Name) and n.id == start.id and not isinstance(n.ctx, ast.Load)
        for n in ast.walk(function)
    ):
        return set()  # a local variable
    found = _class_at(conn, path, scopes, start)  # a class named directly
    return {found} if found is not None else set()


def _owner_ids(conn: sqlite3.Connection, path: str, owner: ast.ClassDef | None) -> set[int]:
    if owner is None:
        return set()
    return {
        int(row[0])
        for row in conn.execute(
            "SELECT s.id FROM symbols s JOIN files f ON f.id = s.file_id WHERE f.path = ? AND s.kind = 'class'"
            " AND s.name = ? AND s.name_line = ?",
            (path, owner.name, owner.lineno),
        )
    }


def _class_at(conn: sqlite3.Connection, path: str, scopes: FileScopes, node: ast.expr) -> int | None:
    """The project class the name ``node`` (``SchemaMeta``, ``mod.Model``) resolves to."""
    if not isinstance(node, ast.Name | ast.Attribute):
        return None
    line = node.end_lineno or node.lineno
    end = scopes.column_of(line, node.end_col_offset or 0)
    row = conn.execute(
        "SELECT s.id FROM refs r JOIN files f ON f.id = r.file_id JOIN symbols s ON s.id = r.symbol_id"
        " WHERE f.path = ? AND r.line = ? AND r.end_col = ? AND s.kind = 'class'"
        " AND r.confidence IN ('certain', 'likely')",
        (path, line, end),
    ).fetchone()
    return int(row[0]) if row else None


def _is_metaclass(conn: sqlite3.Connection, class_id: int) -> bool:
    _, outside = ancestry(conn, [class_id])
    return bool(outside & {"builtins.type", "abc.ABCMeta", "enum.EnumMeta", "enum.EnumType"})


def _made_by(conn: sqlite3.Connection, meta: int) -> set[int]:
    """The classes made by the metaclass ``meta`` or one deriving from it (``metaclass=`` in their
    header, by name)."""
    metas = with_subclasses(conn, {meta})
    names = {
        str(row[0])
        for row in conn.execute(
            f"SELECT name FROM symbols WHERE id IN ({', '.join('?' * len(metas))})", tuple(sorted(metas))
        )
    }
    made: set[int] = set()
    for class_id, signature in conn.execute(
        "SELECT id, signature FROM symbols WHERE kind = 'class' AND signature LIKE '%metaclass%'"
    ):
        header = str(signature).strip().split("\n")[-1]
        try:
            tree = ast.parse(header + ": pass")
        except SyntaxError:
            made.add(int(class_id))  # unreadable: it may be one
            continue
        cls = tree.body[0] if tree.body else None
        if isinstance(cls, ast.ClassDef) and any(
            k.arg == "metaclass" and last_name(k.value) in names for k in cls.keywords
        ):
            made.add(int(class_id))
    return made
