"""Python: the names a doctest runner gives the examples of a documentation file.

An example may read a name it never binds nor imports: the runner put it in the namespace.
pytest's ``doctest_namespace`` fixture does so from a ``conftest.py``
(``doctest_namespace["Version"] = semver.Version``): those names are the linker's ``N:`` chains
(:meth:`astmcp.resolve.python_resolver.Resolver.runner_name`, from the conftests' ``doctestns``
facts), resolved for a documentation file as for a docstring. Sphinx's doctest builder runs the
``doctest_global_setup`` code of its ``conf.py`` first: its absolute imports give the files under
that folder their names (``I:0:semver:Version``).
"""

from __future__ import annotations

import ast
import posixpath
import sqlite3
from collections.abc import Iterable

from astmcp.errors import AstmcpError
from astmcp.query.pytrees import parsed_tree
from astmcp.refactor.prepare import load_file
from astmcp.resolve.python_doctests import import_binding
from astmcp.workspace import Workspace

__all__ = ["SphinxSetups", "joined"]

_SPHINX_SETUP = "doctest_global_setup"


class SphinxSetups:
    """The imports of the project's Sphinx ``doctest_global_setup`` code, read once; ``of(path)``
    the names they give one file's examples → the chain each stands for."""

    def __init__(self, ws: Workspace, conn: sqlite3.Connection) -> None:
        self.configs: list[tuple[str, dict[str, str]]] = []
        for (file,) in conn.execute(
            "SELECT path FROM files WHERE language = 'python' AND (path = 'conf.py' OR path LIKE"
            " '%/conf.py') ORDER BY path"
        ):
            try:
                text = load_file(ws, file).source.text
            except (OSError, AstmcpError):
                continue
            if _SPHINX_SETUP in text:
                self.configs.append((file, _setup_imports(text)))

    def of(self, path: str) -> dict[str, str]:
        given: dict[str, str] = {}
        for file, names in self.configs:
            folder = posixpath.dirname(file)
            if not folder or path.startswith(folder + "/"):
                given.update(names)
        return given


def joined(chain: str, steps: Iterable[str]) -> str:
    """``chain`` (``I:0:m:C``, or ``I:0:m:`` of a module) followed by attribute ``steps``."""
    parts = list(steps)
    if chain.endswith(":") and parts:
        chain, parts = chain + parts[0], parts[1:]
    return "/".join([chain, *parts])


def _setup_imports(text: str) -> dict[str, str]:
    """The names the absolute imports of a ``conf.py``'s ``doctest_global_setup`` code bind."""
    try:
        tree = parsed_tree(text)
    except (SyntaxError, ValueError):
        return {}
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
            chains: dict[str, str] = {}
            for node in code.body:
                if isinstance(node, ast.Import | ast.ImportFrom):
                    for alias in node.names:
                        name, chain = import_binding(node, alias)
                        if chain is not None:
                            chains[name] = chain
            return chains
    return {}
