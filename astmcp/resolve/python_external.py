"""Members of classes defined outside the project (stdlib, installed packages).

Read from the source files found on ``sys.path`` with ``ast`` (nothing is
imported, nothing executed); builtins are looked up on the interpreter's own
types. Used to tell whether a method overrides something the project does not own.
"""

from __future__ import annotations

import ast
import builtins
import functools
import os
import sys

from astmcp.resolve.python_namespace import self_templates

_MAX_DEPTH = 6


@functools.lru_cache(maxsize=256)
def _module_file(module: str) -> str | None:
    parts = module.split(".")
    for entry in sys.path:
        base = os.path.join(entry or os.getcwd(), *parts)
        for candidate in (base + ".py", base + ".pyi", os.path.join(base, "__init__.py")):
            if os.path.isfile(candidate):
                return candidate
    return None


@functools.lru_cache(maxsize=256)
def _parse(path: str) -> ast.Module | None:
    try:
        with open(path, encoding="utf-8") as handle:
            return ast.parse(handle.read())
    except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
        return None


def is_module(qualified: str) -> bool:
    """Whether ``pkg.mod`` is a module outside the project (a builtin one, or a source file on
    ``sys.path``)."""
    return bool(qualified) and (qualified in sys.builtin_module_names or _module_file(qualified) is not None)


def _package_of(module: str, path: str) -> str:
    return module if path.endswith("__init__.py") else module.rpartition(".")[0]


@functools.lru_cache(maxsize=4096)
def class_defines(qualified: str, member: str) -> bool | None:
    """Whether the external class ``qualified`` (``pkg.mod.Cls``) has ``member``.

    None when the class cannot be found (not installed, built dynamically).
    """
    module, _, name = qualified.rpartition(".")
    if module == "builtins":
        value = getattr(builtins, name, None)
        return hasattr(value, member) if isinstance(value, type) else None
    if not module:
        return None
    return _defines(module, name, member, 0)


def _defines(module: str, name: str, member: str, depth: int) -> bool | None:
    if depth > _MAX_DEPTH:
        return None
    path = _module_file(module)
    tree = _parse(path) if path else None
    if tree is None or path is None:
        return None
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == name:
            if _body_defines(node, member):
                return True
            unknown = False
            for base in node.bases:
                found = _base_defines(tree, module, path, base, member, depth + 1)
                if found:
                    return True
                unknown = unknown or found is None
            return None if unknown else False
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if (alias.asname or alias.name) == name:
                    source = _absolute(module, path, node)
                    return _defines(source, alias.name, member, depth + 1)
    for source in _star_sources(tree, module, path):  # `collections.abc`: `from _collections_abc import *`
        found = _defines(source, name, member, depth + 1)
        if found is not None:
            return found
    return None


def _star_sources(tree: ast.Module, module: str, path: str) -> list[str]:
    """The modules ``module`` star-imports (``from m import *``), in order."""
    return [
        _absolute(module, path, node)
        for node in tree.body
        if isinstance(node, ast.ImportFrom) and any(alias.name == "*" for alias in node.names)
    ]


def _body_defines(node: ast.ClassDef, member: str) -> bool:
    """A method, nested class, class attribute or ``self.member = …`` of the class body."""
    for stmt in ast.walk(node):
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and stmt.name == member:
            return True
        if isinstance(stmt, ast.Name) and isinstance(stmt.ctx, ast.Store) and stmt.id == member:
            return True
        if (
            isinstance(stmt, ast.Attribute)
            and isinstance(stmt.ctx, ast.Store)
            and stmt.attr == member
            and isinstance(stmt.value, ast.Name)
            and stmt.value.id == "self"
        ):
            return True
    return False


def _absolute(module: str, path: str, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = _package_of(module, path)
    for _ in range(node.level - 1):
        package = package.rpartition(".")[0]
    return f"{package}.{node.module}" if node.module else package


def _base_defines(
    tree: ast.Module, module: str, path: str, base: ast.expr, member: str, depth: int
) -> bool | None:
    if isinstance(base, ast.Name):
        if base.id == "object":
            return hasattr(object, member)
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and node.name == base.id:
                return _defines(module, base.id, member, depth)
            if isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    if (alias.asname or alias.name) == base.id:
                        return _defines(_absolute(module, path, node), alias.name, member, depth)
        builtin = getattr(builtins, base.id, None)
        if isinstance(builtin, type):
            return hasattr(builtin, member)
        return None
    if isinstance(base, ast.Attribute) and isinstance(base.value, ast.Name):
        for node in tree.body:
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if (alias.asname or alias.name) == base.value.id:
                        return _defines(alias.name, base.attr, member, depth)
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
    module, _, name = qualified.rpartition(".")
    if module == "builtins":
        value = getattr(builtins, name, None)
        if not isinstance(value, type):
            return False
        found.update(f"builtins.{c.__name__}" for c in value.__mro__ if c.__module__ == "builtins")
        return True
    path = _module_file(module) if module and depth <= _MAX_DEPTH else None
    tree = _parse(path) if path else None
    if tree is None or path is None:
        return False
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == name:
            return all(
                (base := _base_name(tree, module, path, expr)) is not None
                and _collect_ancestors(base, found, depth + 1)
                for expr in node.bases
            )
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if (alias.asname or alias.name) == name:
                    found.discard(qualified)  # a re-export: the class is the imported one
                    return _collect_ancestors(
                        f"{_absolute(module, path, node)}.{alias.name}", found, depth + 1
                    )
    for source in _star_sources(tree, module, path):
        if _declares(source, name):
            found.discard(qualified)
            return _collect_ancestors(f"{source}.{name}", found, depth + 1)
    return False


def _declares(module: str, name: str) -> bool:
    """Whether ``module``'s source defines a class ``name`` at its top level."""
    path = _module_file(module)
    tree = _parse(path) if path else None
    return tree is not None and any(isinstance(n, ast.ClassDef) and n.name == name for n in tree.body)


def _base_name(tree: ast.Module, module: str, path: str, base: ast.expr) -> str | None:
    """The qualified name of a base class expression of a class in ``module``."""
    if isinstance(base, ast.Subscript):  # `Generic[T]`, `Mapping[str, int]`
        base = base.value
    if isinstance(base, ast.Name):
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and node.name == base.id:
                return f"{module}.{base.id}"
            if isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    if (alias.asname or alias.name) == base.id:
                        return f"{_absolute(module, path, node)}.{alias.name}"
        return f"builtins.{base.id}" if isinstance(getattr(builtins, base.id, None), type) else None
    if isinstance(base, ast.Attribute) and isinstance(base.value, ast.Name):
        for node in tree.body:
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if (alias.asname or alias.name) == base.value.id:
                        return f"{alias.name}.{base.attr}"
    return None


@functools.lru_cache(maxsize=1024)
def computed_members(qualified: str) -> tuple[str, ...]:
    """The member names the outside class ``qualified`` (or a class it derives from) computes
    and reads from its own object, as ``python_namespace.member_template`` stores them:
    ``ast.NodeVisitor`` calls ``visit_<node class name>``, ``cmd.Cmd`` ``do_<command>``. A
    project subclass's ``visit_Name`` is reached from outside by that name."""
    found: set[str] = set()
    for cls in sorted(class_ancestors(qualified) or {qualified}):
        module, _, name = cls.rpartition(".")
        path = _module_file(module) if module and module != "builtins" else None
        tree = _parse(path) if path else None
        for node in tree.body if tree is not None else ():
            if isinstance(node, ast.ClassDef) and node.name == name:
                for item in node.body:
                    if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                        found |= self_templates(item)
    return tuple(sorted(found))
