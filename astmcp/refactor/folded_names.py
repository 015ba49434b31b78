"""Python: names a project spells otherwise at run time: class names printed lower- or
upper-cased, names with underscores written with dashes.

traitlets shows a container trait's sample value as ``"<%s-item-1>" %
trait.__class__.__name__.lower()``, and its tests expect ``--Bar.bset <set-item-1>...``: renaming
the trait class ``Set`` changes that output, though no string holds ``Set``. When project code
folds a ``__name__`` (``.lower()``, ``.upper()``, ``.casefold()``: the index's references of
``str`` methods on the line of a ``__name__`` read), every whole word of a test file's string
literals that is the renamed class's name so folded is a name hit of kind ``string`` (blocked by
default, like the name itself in a string). So is a class name kept off a keyword or builtin by a
trailing underscore (dominate's ``class input_``, rendered ``<input>``) without it, where code
reads a ``__name__``.

Command-line layers spell names with dashes: python-fire runs ``BoolConverter.as_bool`` for the
command ``as-bool`` (``target.replace('-', '_')``), click names a command ``init-db`` after
``def init_db``, argparse's ``--dry-run`` fills ``dry_run``. Where the project imports such a layer
(fire, click, typer, …) or converts dashes and underscores itself (``.replace("-", "_")``), a
test file's string literal holding a renamed name's dashed spelling as a whole word
(``["as-bool", "True"]``) is a name hit of kind ``string``.
"""

from __future__ import annotations

import ast
import re
import sqlite3
from collections.abc import Callable, Iterator

from astmcp.query.common import SymbolRow
from astmcp.query.parameters import parse_python, read_text
from astmcp.refactor.rename_refs import Hit
from astmcp.resolve.python_modules import is_test_file
from astmcp.workspace import Workspace

__all__ = ["dashed_name_hits", "folded_name_hits"]

_FOLDS = {"lower": str.lower, "casefold": str.casefold, "upper": str.upper}


def folded_name_hits(ws: Workspace, conn: sqlite3.Connection, row: SymbolRow) -> list[Hit]:
    """Name hits of the class ``row``'s folded name in test files' strings (see the module's
    docstring)."""
    if row.kind != "class" or not row.file.endswith((".py", ".pyi")):
        return []
    sites = conn.execute(
        "SELECT DISTINCT b.name, f.path, b.line FROM refs a JOIN refs b ON b.file_id = a.file_id AND b.line = a.line"
        " AND b.col > a.col JOIN files f ON f.id = a.file_id WHERE a.name = '__name__' AND f.language = 'python'"
        " AND b.name IN ('lower', 'upper', 'casefold') AND b.target_key LIKE 'L:str/%' ORDER BY f.path, b.line"
    ).fetchall()
    words = {_FOLDS[fold](row.name): f"{path}:{line} folds a __name__" for fold, path, line in sites}
    stripped = row.name.rstrip("_")
    if stripped and stripped != row.name:
        # `class input_`: a name kept off a keyword or builtin, printed without its underscore
        # (dominate's tags render `<input>`) where code reads a `__name__`
        read = conn.execute(
            "SELECT f.path, r.line FROM refs r JOIN files f ON f.id = r.file_id WHERE r.name = '__name__'"
            " AND f.language = 'python' ORDER BY f.path, r.line LIMIT 1"
        ).fetchone()
        if read is not None:
            words.setdefault(
                stripped, f"{read[0]}:{read[1]} reads a __name__, which may be shown without its '_'"
            )
    words.pop(row.name, None)
    if not words:
        return []
    pattern = re.compile(rf"(?<![\w$])(?:{'|'.join(map(re.escape, sorted(words)))})(?![\w$])")
    return list(
        _in_test_strings(
            ws,
            conn,
            pattern,
            lambda word: f"the class's name may be printed {word!r} ({words[word]})",
        )
    )


# packages whose command lines spell Python names with dashes
_DASHING = ("fire", "click", "typer", "cyclopts", "clize", "cleo", "plac", "argh", "docopt")
_CONVERTS = re.compile(r"""\.replace\(\s*(['"])[-_]\1\s*,\s*(['"])[-_]\2\s*\)""")


def dashed_name_hits(ws: Workspace, conn: sqlite3.Connection, row: SymbolRow) -> list[Hit]:
    """Name hits of ``row``'s dashed spelling in test files' strings (see the module's
    docstring)."""
    name = row.name
    if (
        "_" not in name
        or name.startswith("_")
        or name.endswith("_")
        or not row.file.endswith((".py", ".pyi"))
    ):
        return []
    where = _dashing(ws, conn)
    if where is None:
        return []
    dashed = name.replace("_", "-")
    pattern = re.compile(rf"(?<![\w-]){re.escape(dashed)}(?![\w-])")
    note = f"{where} spells names with dashes: {dashed!r} may be {name!r}"
    return list(_in_test_strings(ws, conn, pattern, lambda _: note))


def _dashing(ws: Workspace, conn: sqlite3.Connection) -> str | None:
    """Where the project imports a command-line layer spelling names with dashes, or converts
    dashes and underscores itself; None when it does neither."""
    marks = ",".join("?" * len(_DASHING))
    found = conn.execute(
        "SELECT f.path, i.line FROM imports i JOIN files f ON f.id = i.file_id WHERE f.language = 'python'"
        f" AND (i.module IN ({marks}) OR substr(i.module, 1, instr(i.module || '.', '.') - 1) IN ({marks}))"
        " ORDER BY f.path, i.line LIMIT 1",
        (*_DASHING, *_DASHING),
    ).fetchone()
    if found is not None:
        return f"{found[0]}:{found[1]} (a command-line layer)"
    texts: dict[str, list[str]] = {}
    for path, line in conn.execute(
        "SELECT DISTINCT f.path, r.line FROM refs r JOIN files f ON f.id = r.file_id WHERE r.name = 'replace'"
        " AND f.language = 'python' ORDER BY f.path, r.line"
    ):
        if path not in texts:
            try:
                texts[path] = read_text(ws, path).split("\n")
            except OSError:
                texts[path] = []
        text = texts[path][line - 1] if line <= len(texts[path]) else ""
        if _CONVERTS.search(text):
            return f"{path}:{line}"
    return None


def _in_test_strings(
    ws: Workspace, conn: sqlite3.Connection, pattern: re.Pattern[str], note: Callable[[str], str]
) -> Iterator[Hit]:
    """Hits of ``pattern`` inside the string literals (docstrings aside) of the project's test files."""
    for (path,) in conn.execute("SELECT path FROM files WHERE language = 'python' ORDER BY path"):
        if not is_test_file(path):
            continue
        try:
            text = read_text(ws, path)
            if not pattern.search(text):
                continue
            tree = parse_python(ws, path)
        except (OSError, SyntaxError, ValueError):
            continue
        spans = _string_spans(tree)
        for number, line in enumerate(text.split("\n"), 1):
            for match in pattern.finditer(line):
                at = len(line[: match.start()].encode("utf-8"))
                if any(_inside(span, number, at) for span in spans):
                    yield Hit(
                        path,
                        number,
                        match.start() + 1,
                        match.end() + 1,
                        "string",
                        "name",
                        note=note(match.group()),
                    )


def _string_spans(tree: ast.Module) -> list[tuple[int, int, int, int]]:
    """The spans of the module's string literals, docstrings and other bare strings (prose) aside."""
    prose = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}
    return [
        (node.lineno, node.col_offset, node.end_lineno or node.lineno, node.end_col_offset or 0)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in prose
    ]


def _inside(span: tuple[int, int, int, int], line: int, column: int) -> bool:
    """Whether the byte ``column`` of ``line`` lies in a string literal's span."""
    first, start, last, end = span
    return (first, start) <= (line, column) < (last, end)
