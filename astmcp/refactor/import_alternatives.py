"""Python: a module-level name bound both by a definition and by an import.

``try: from json import dumps as compat`` / ``except ImportError: def compat(x): …`` binds
``compat`` twice; a use means either. Renaming the definition alone leaves the import binding
the old name, so every use (renamed) is unbound whenever the import succeeds — the usual case.
The rename takes the import's binding with it: ``as compat`` becomes ``as new`` and an import
without alias gets one (``from functools import cache`` → ``… import cache as new``), and uses
that only the import binds (before the definition) are renamed too.

The other way round, a module importing the renamed name may bind it otherwise as well, by a
definition (``if WIN: from ._winconsole import stream`` / ``else: def stream(…)``, click's
``_compat``) or another import (``except ImportError: from ._native import escape``): its uses mean either, so that module keeps the name, importing ``new as old``,
and its uses are left alone (renaming them broke the branch that defines it).
"""

from __future__ import annotations

import ast
import dataclasses
import sqlite3
from collections.abc import Iterator

from astmcp.errors import AstmcpError, MutationBlocked
from astmcp.query.common import SymbolRow
from astmcp.query.pytrees import parsed_tree
from astmcp.refactor.prepare import load_file
from astmcp.refactor.rename_refs import Hit
from astmcp.workspace import Workspace

__all__ = ["IMPORT_AS", "IMPORT_KEEP", "binds_name", "import_alternatives", "keep_other_bindings"]

# a hit on an imported name that gains an alias: `cache` -> `cache as new`
IMPORT_AS = "import_as"
# an imported name kept by its importer: `stream` -> `new as stream`
IMPORT_KEEP = "import_keep"


def _module_statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Module-level statements, into `try`/`if`/`with` blocks (not functions or classes)."""
    for node in body:
        yield node
        if isinstance(node, ast.Try | ast.TryStar):
            yield from _module_statements(node.body)
            for handler in node.handlers:
                yield from _module_statements(handler.body)
            yield from _module_statements(node.orelse)
            yield from _module_statements(node.finalbody)
        elif isinstance(node, ast.If | ast.With):
            yield from _module_statements(node.body)
            yield from _module_statements(getattr(node, "orelse", []))


def _column(line: str, byte_col: int) -> int:
    """1-based code-point column of a 0-based UTF-8 byte offset in ``line``."""
    return len(line.encode("utf-8")[:byte_col].decode("utf-8", errors="replace")) + 1


def import_alternatives(
    ws: Workspace, conn: sqlite3.Connection, row: SymbolRow, hits: list[Hit]
) -> list[Hit]:
    """Hits that rename the imports binding a module-level definition's name in its own module,
    and the uses only those imports bind (empty for anything else)."""
    if row.parent_path or not row.file.endswith(".py") or row.kind not in ("function", "class", "variable"):
        return []
    try:
        text = load_file(ws, row.file).source.text
        tree = parsed_tree(text)
    except (OSError, SyntaxError, ValueError, AstmcpError):
        return []
    lines = text.split("\n")
    out: list[Hit] = []
    chains: list[str] = []
    for node in _module_statements(tree.body):
        if not isinstance(node, ast.Import | ast.ImportFrom):
            continue
        for alias in node.names:
            bound = alias.asname or alias.name
            if bound != row.name or alias.end_col_offset is None or alias.lineno != alias.end_lineno:
                continue  # `import a.b` binds `a`: never the definition's (dotted) name
            line = lines[alias.lineno - 1]
            end = _column(line, alias.end_col_offset)
            if alias.asname:  # `dumps as compat`: the alias is the last word
                out.append(Hit(row.file, alias.lineno, end - len(row.name), end, "import", "certain"))
            else:
                start = _column(line, alias.col_offset)
                out.append(Hit(row.file, alias.lineno, start, end, IMPORT_AS, "certain"))
            if isinstance(node, ast.ImportFrom):
                chains.append(f"I:{node.level}:{node.module or ''}:{alias.name}")
            else:
                chains.append(f"D:{alias.name}")
    if not out:
        return []
    seen = {(h.file, h.line, h.column) for h in hits}
    marks = ",".join("?" * len(chains))
    for line_no, col, end_col, kind in conn.execute(
        "SELECT r.line, r.col, r.end_col, r.kind FROM refs r JOIN files f ON f.id = r.file_id"
        f" WHERE f.path = ? AND r.name = ? AND r.target_key IN ({marks}) AND r.kind != 'import'",
        (row.file, row.name, *chains),
    ):
        if (row.file, line_no, col) not in seen:
            seen.add((row.file, line_no, col))
            out.append(Hit(row.file, line_no, col, end_col, kind, "certain"))
    return out


def binds_name(node: ast.stmt, name: str) -> bool:
    """Whether a simple statement itself binds ``name``: a ``def``/``class``, an assignment (not a
    bare annotation, ``x: int``), or an import (``import a.b`` binds ``a``)."""
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return node.name == name
    if isinstance(node, ast.AnnAssign) and node.value is None:
        return False
    if isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        return any(isinstance(n, ast.Name) and n.id == name for t in targets for n in ast.walk(t))
    if isinstance(node, ast.Import):
        return any((a.asname or a.name.split(".", 1)[0]) == name for a in node.names)
    if isinstance(node, ast.ImportFrom):
        return any((a.asname or a.name) == name for a in node.names)
    return False


def keep_other_bindings(ws: Workspace, row: SymbolRow, hits: list[Hit]) -> list[Hit]:
    """``hits`` with each importing module that also binds the name itself kept: its
    ``from m import old`` becomes ``from m import new as old`` and its other hits on the bare
    name are dropped (attribute reads, ``m.old``, stay)."""
    if row.parent_path or not row.file.endswith((".py", ".pyi")):
        return hits
    # file -> (lines of the `from m import old` hits to keep, the file's lines, the line ranges of
    # the scopes that keep the name: None for the module, whose functions see its binding too)
    keep: dict[str, tuple[set[int], list[str], list[tuple[int, int]] | None]] = {}
    for path in sorted({h.file for h in hits if h.kind in ("import", "export") and h.file != row.file}):
        if not path.endswith(".py"):
            continue
        try:
            text = load_file(ws, path).source.text
            tree = parsed_tree(text)
        except (OSError, SyntaxError, ValueError, AstmcpError):
            continue
        hit_lines = {h.line for h in hits if h.file == path and h.kind in ("import", "export")}
        # the module, and each function importing the name itself (`try: from fast import f` /
        # `except ImportError: from slow import f` inside a function)
        scopes: list[tuple[list[ast.stmt], tuple[int, int] | None]] = [(tree.body, None)]
        scopes += [
            (node.body, (node.lineno, node.end_lineno or node.lineno))
            for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        ]
        for body, span in scopes:
            statements = list(_module_statements(body))
            imports = {
                node.lineno
                for node in statements
                if isinstance(node, ast.ImportFrom)
                and node.lineno in hit_lines
                and any(a.name == row.name and not a.asname for a in node.names)
            }
            # another binding: a definition, or an import of the name from elsewhere (`except
            # ImportError: from ._native import escape`)
            if not imports or not any(
                binds_name(node, row.name) and node.lineno not in imports for node in statements
            ):
                continue
            if span is None and any(
                h.file == path and h.kind == "export" and h.line in imports for h in hits
            ):
                # a package re-exporting it (`from .a import f` then `from .b import f`): which one
                # `pkg.f` is depends on the order, and its importers follow the first
                raise MutationBlocked(
                    f"{path} re-exports {row.name!r} and binds that name another way too: its importers"
                    " may mean either; rename by hand",
                    {"file": path},
                )
            kept, lines, ranges = keep.get(path, (set(), text.split("\n"), []))
            keep[path] = (kept | imports, lines, None if span is None or ranges is None else [*ranges, span])
    if not keep:
        return hits
    out: list[Hit] = []
    for hit in hits:
        if hit.file not in keep:
            out.append(hit)
            continue
        kept, lines, ranges = keep[hit.file]
        inside = ranges is None or any(start <= hit.line <= end for start, end in ranges)
        if hit.kind == "import" and hit.line in kept:
            out.append(dataclasses.replace(hit, kind=IMPORT_KEEP))
        elif hit.kind == "import" or not inside or _after_dot(lines, hit):
            out.append(hit)
    return out


def _after_dot(lines: list[str], hit: Hit) -> bool:
    """Whether the hit is an attribute (``m.old``): the text before it ends with a dot."""
    line = lines[hit.line - 1] if 0 < hit.line <= len(lines) else "."
    return line[: hit.column - 1].rstrip().endswith(".")
