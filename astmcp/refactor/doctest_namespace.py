"""Python: the names a doctest runner gives the examples of a documentation file.

An example may read a name it never binds nor imports: the runner put it in the namespace.
pytest's ``doctest_namespace`` fixture does so from a ``conftest.py``
(``doctest_namespace["Version"] = semver.Version``, ``doctest_namespace.update(np=numpy)``), and
Sphinx's doctest builder runs the ``doctest_global_setup`` code of its ``conf.py`` first. Each name
so given is a chain of what the giving file imports (``semver.Version`` after ``import semver``:
``I:0:semver:Version``); a value anything else makes is not followed.

Which files a name reaches: a ``conftest.py`` gives it to the files in its folder and below, as
pytest scopes fixtures (the nearest one wins); a Sphinx ``conf.py`` to the files under its folder.
A file no such conftest covers takes a name the project's conftests give with one meaning, all
alike: a source distribution often leaves out the documentation's own conftest (a link to the
tests' one), and the project's conftests are then its only statement of what the runner gives.
"""

from __future__ import annotations

import ast
import posixpath
import sqlite3
from collections.abc import Iterable

from astmcp.errors import AstmcpError
from astmcp.refactor.prepare import load_file
from astmcp.resolve.python_doctests import import_binding
from astmcp.resolve.python_runner_names import FIXTURE, namespace_values
from astmcp.workspace import Workspace

__all__ = ["RunnerNames", "joined"]

_SPHINX_SETUP = "doctest_global_setup"


class RunnerNames:
    """What the project's conftests and Sphinx configurations give doctests, read once; ``of(path)``
    the names a runner gives one file's examples → the chain each stands for."""

    def __init__(self, ws: Workspace, conn: sqlite3.Connection) -> None:
        self.conftests: list[tuple[str, dict[str, str | None]]] = []
        self.configs: list[tuple[str, dict[str, str | None]]] = []
        for (file,) in conn.execute(
            "SELECT path FROM files WHERE language = 'python' AND (path = 'conftest.py' OR path LIKE"
            " '%/conftest.py' OR path = 'conf.py' OR path LIKE '%/conf.py') ORDER BY path"
        ):
            tree = _parse(ws, file)
            if tree is None:
                continue
            if posixpath.basename(file) == "conftest.py":
                self.conftests.append((file, _fixture_names(tree)))
            else:
                self.configs.append((file, _sphinx_setup(tree)))
        # the nearest conftest above a file first, as pytest lets it override the ones further up
        self.conftests.sort(key=lambda item: -_depth(item[0]))

    def of(self, path: str) -> dict[str, str]:
        given: dict[str, str] = {}
        covered: set[str] = set()  # names a conftest above `path` gives (with a chain or not)
        elsewhere: dict[str, set[str | None]] = {}  # what the other conftests give, name → chains
        for file, names in self.conftests:
            if _above(file, path):
                for name, chain in names.items():
                    if name not in covered:
                        covered.add(name)
                        if chain is not None:
                            given[name] = chain
            else:
                for name, chain in names.items():
                    elsewhere.setdefault(name, set()).add(chain)
        for name, chains in elsewhere.items():
            only = next(iter(chains)) if len(chains) == 1 else None
            if name not in covered and only is not None:
                given[name] = only
        for file, names in self.configs:
            if _above(file, path):
                given.update({n: c for n, c in names.items() if c is not None and n not in covered})
        return given


def _depth(file: str) -> int:
    folder = posixpath.dirname(file)
    return folder.count("/") + 1 if folder else 0


def joined(chain: str, steps: Iterable[str]) -> str:
    """``chain`` (``I:0:m:C``, or ``I:0:m:`` of a module) followed by attribute ``steps``."""
    parts = list(steps)
    if chain.endswith(":") and parts:
        chain, parts = chain + parts[0], parts[1:]
    return "/".join([chain, *parts])


def _above(file: str, path: str) -> bool:
    folder = posixpath.dirname(file)
    return not folder or path.startswith(folder + "/")


def _parse(ws: Workspace, path: str) -> ast.Module | None:
    try:
        text = load_file(ws, path).source.text
    except (OSError, AstmcpError):
        return None
    if FIXTURE not in text and _SPHINX_SETUP not in text:
        return None
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError):
        return None


def _imports(body: Iterable[ast.stmt]) -> dict[str, str]:
    """The names absolute imports among ``body``'s statements bind → their chains."""
    chains: dict[str, str] = {}
    for stmt in body:
        if isinstance(stmt, ast.Import | ast.ImportFrom):
            for alias in stmt.names:
                name, chain = import_binding(stmt, alias)
                if chain is not None:
                    chains[name] = chain
    return chains


def _value_chain(node: ast.expr, imports: dict[str, str]) -> str | None:
    """The chain of a dotted name rooted at an import (``semver.version.Version``), else None."""
    steps: list[str] = []
    while isinstance(node, ast.Attribute):
        steps.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name) or node.id not in imports:
        return None
    return joined(imports[node.id], reversed(steps))


def _fixture_names(tree: ast.Module) -> dict[str, str | None]:
    """What a conftest puts in ``doctest_namespace`` → the value's chain (None: a value not
    followed, or a name given twice with two meanings)."""
    imports = _imports(tree.body)
    names: dict[str, str | None] = {}
    for name, value in namespace_values(tree):
        chain = _value_chain(value, imports)
        names[name] = chain if names.get(name, chain) == chain else None
    return names


def _sphinx_setup(tree: ast.Module) -> dict[str, str | None]:
    """The imports of a Sphinx ``conf.py``'s ``doctest_global_setup`` code."""
    for stmt in tree.body:
        if (
            isinstance(stmt, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == _SPHINX_SETUP for t in stmt.targets)
            and isinstance(stmt.value, ast.Constant)
            and isinstance(stmt.value.value, str)
        ):
            try:
                code = ast.parse(stmt.value.value)
            except (SyntaxError, ValueError):
                return {}
            return dict(_imports(code.body))
    return {}
