"""A name a stub declares that the module beside it does not.

``m.pyi`` describes ``m.py`` to type checkers; at run time only ``m.py`` counts. When the stub
declares a name ``m.py`` never defines (pydash's ``AllFuncs.pyi`` lists every function a chain
forwards through ``__getattr__``; a module's stub lists what ``from ._impl import *`` brings in),
something else provides it at run time: a ``__getattr__``, a star import, a ``setattr`` loop.
Renaming the stub's declaration renames the code that reads it, typed through the stub, while the
provider keeps the old name, so every renamed read fails at run time. Such a rename is refused
(``MUTATION_BLOCKED``), unless it edits stubs only (a ``TypeVar`` or alias the stubs use among
themselves changes nothing at run time).
"""

from __future__ import annotations

import ast
import sqlite3
from collections.abc import Iterable

from astmcp.errors import MutationBlocked
from astmcp.query.common import SymbolRow, query_symbols
from astmcp.query.parameters import parse_python
from astmcp.query.references import twins
from astmcp.refactor.rename_refs import Hit, reexport_lines, top_statements
from astmcp.workspace import Workspace

__all__ = ["check_stub_only", "stub_provider"]


def stub_provider(ws: Workspace, conn: sqlite3.Connection, row: SymbolRow) -> SymbolRow | None:
    """For a top-level declaration of ``m.pyi`` that ``m.py`` re-exports (``from ._make import
    Factory``, beside ``def Factory`` in the stub): the declaration the import resolves to, which a
    rename starts from (the stub's is renamed with it); else None."""
    if not row.file.endswith(".pyi") or row.parent_path is not None:
        return None
    module = row.file[:-1]
    lines = reexport_lines(ws, module, row.name)
    if not lines:
        return None
    found = conn.execute(
        "SELECT r.symbol_id, r.line FROM refs r JOIN files f ON f.id = r.file_id"
        " WHERE f.path = ? AND r.name = ? AND r.confidence = 'certain' AND r.symbol_id IS NOT NULL",
        (module, row.name),
    ).fetchall()
    ids = sorted({symbol_id for symbol_id, line in found if line in lines})
    if len(ids) != 1:
        return None
    provider = query_symbols(conn, "s.id = ?", (ids[0],))
    return provider[0] if provider and provider[0].name == row.name else None


def check_stub_only(
    ws: Workspace, conn: sqlite3.Connection, row: SymbolRow, family: Iterable[SymbolRow], hits: Iterable[Hit]
) -> None:
    """MUTATION_BLOCKED for renaming a declaration of ``m.pyi`` that the project's ``m.py`` lacks
    when the rename would edit a file that runs (anything but a stub). A name ``m.py`` binds by an
    import or an assignment (``from ._make import attrib``: the stub's ``attrib``, or its class's
    members) is the name the module provides, and is left to the references that follow it; so is
    a member whose override family holds a module's declaration (a base class in ``m.py`` that
    defines what the stub's subclass redeclares), which the rename renames too."""
    if not row.file.endswith(".pyi"):
        return
    module = row.file[:-1]
    if conn.execute("SELECT 1 FROM files WHERE path = ?", (module,)).fetchone() is None:
        return  # a stub with no module beside it (an extension module's): nothing to compare
    if any(twin.file == module for twin in twins(conn, row)):
        return
    if any(not member.file.endswith(".pyi") for member in family):
        return  # a module's class renamed with it (a base's `transition` the stub's subclass narrows)
    if row.symbol_path.split(".")[0] in _bound_otherwise(ws, module):
        return
    running = sorted({h.file for h in hits if not h.file.endswith(".pyi")})
    if not running:
        return
    shown = ", ".join(running[:5]) + (f" and {len(running) - 5} more" if len(running) > 5 else "")
    raise MutationBlocked(
        f"{row.symbol_path!r} is declared in the stub {row.file} but not in {module}, which provides"
        f" it at run time some other way (a __getattr__, a star import, a setattr); renaming the stub's"
        f" declaration would rename the code that uses it ({shown}) while that provider keeps the old"
        f" name: rename where {module} makes the name first, then the stub",
        {"stub": row.file, "module": module, "files": running},
    )


def _bound_otherwise(ws: Workspace, module: str) -> set[str]:
    """The names ``module`` binds at its top level other than by ``def`` and ``class`` (imports,
    assignments, ``for`` and ``with`` targets), also inside the blocks they hold."""
    try:
        tree = parse_python(ws, module)
    except (OSError, SyntaxError, ValueError):
        return set()
    names: set[str] = set()
    for node in top_statements(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For, ast.AsyncFor)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            names.update(
                n.id
                for item in node.items
                if item.optional_vars
                for n in ast.walk(item.optional_vars)
                if isinstance(n, ast.Name)
            )
    return names
