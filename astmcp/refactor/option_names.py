"""Python: attributes argparse (and optparse) make from option strings.

``parser.add_argument("--verbosity")`` gives the parsed namespace an attribute ``verbosity``
(``--dry-run``: ``dry_run``; ``dest=`` names it outright). No symbol stands for it, so a project
class whose member is the only one named ``verbosity`` took an untyped ``args.verbosity`` as its
own (a ``likely`` reference) and renamed it, while argparse kept making ``verbosity``. Where the
project declares such an option, those reads are uncertain instead.
"""

from __future__ import annotations

import ast
import sqlite3
from collections.abc import Iterator

from astmcp.query.common import SymbolRow
from astmcp.query.parameters import parse_python, read_text
from astmcp.refactor.rename_refs import Hit, unsure_likely
from astmcp.workspace import Workspace

__all__ = ["made_dests", "option_dest", "option_made"]


def option_made(ws: Workspace, conn: sqlite3.Connection, row: SymbolRow, hits: list[Hit]) -> list[Hit]:
    """``hits`` with its ``likely`` ones made uncertain when an ``add_argument`` of the project
    makes an attribute named like ``row`` (noted with where)."""
    if not any(h.confidence == "likely" for h in hits):
        return hits
    made = _declared_at(ws, conn, row.name)
    if made is None:
        return hits
    note = f"argparse makes an attribute {row.name!r} from the option declared at {made}"
    return unsure_likely(hits, note)


def _declared_at(ws: Workspace, conn: sqlite3.Connection, name: str) -> str | None:
    """``file:line`` of an ``add_argument`` (optparse: ``add_option``) call whose destination is
    ``name``, else None."""
    for path, _, call in _method_calls(ws, conn, ("add_argument", "add_option")):
        if option_dest(call) == name:
            return f"{path}:{call.lineno}"
    return None


def _method_calls(
    ws: Workspace, conn: sqlite3.Connection, methods: tuple[str, ...]
) -> Iterator[tuple[str, str, ast.Call]]:
    """(path, method, call) of each project call of a method named one of ``methods`` (``x.add_argument(…)``);
    only the files whose text names one are parsed."""
    for (path,) in conn.execute("SELECT path FROM files WHERE language = 'python' ORDER BY path"):
        try:
            if not any(method in read_text(ws, path) for method in methods):
                continue
            tree = parse_python(ws, path)
        except (OSError, SyntaxError, ValueError):
            continue
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in methods
            ):
                yield str(path), node.func.attr, node


_DECLARING = ("add_argument", "add_option", "set_defaults", "add_subparsers")


def made_dests(ws: Workspace, conn: sqlite3.Connection) -> frozenset[str] | None:
    """Every attribute the project's argparse (and optparse) declarations make on a namespace:
    each ``add_argument``'s destination, each keyword of ``set_defaults(func=…)``, the ``dest=``
    of ``add_subparsers``; None when one of them is not written out (``add_argument(*flags)``,
    ``set_defaults(**defaults)``), since it may make any name."""
    made: set[str] = {"_unrecognized_args"}  # (argparse's own, for `parse_known_args`)
    for _, method, call in _method_calls(ws, conn, _DECLARING):
        if method in ("add_argument", "add_option"):
            dest = option_dest(call)
            if dest is None:
                return None
            made.add(dest)
        elif method == "set_defaults":
            if any(keyword.arg is None for keyword in call.keywords):
                return None
            made.update(str(keyword.arg) for keyword in call.keywords)
        else:  # add_subparsers
            for keyword in call.keywords:
                if keyword.arg is None:
                    return None
                if keyword.arg == "dest":
                    value = keyword.value
                    if not (isinstance(value, ast.Constant) and isinstance(value.value, str)):
                        return None
                    made.add(value.value)
    return frozenset(made)


def option_dest(call: ast.Call) -> str | None:
    """The attribute ``add_argument(...)`` stores its value under, as argparse derives it: ``dest=``,
    else the first long option (``--dry-run`` → ``dry_run``), else the first short one, else the
    positional name; None when it is not written out."""
    for keyword in call.keywords:
        if keyword.arg == "dest":
            value = keyword.value
            return value.value if isinstance(value, ast.Constant) and isinstance(value.value, str) else None
    strings = [a.value for a in call.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    if len(strings) != len(call.args) or not strings:
        return None
    long = [s for s in strings if s.startswith("--")]
    short = [s for s in strings if s.startswith("-") and not s.startswith("--")]
    chosen = long[0] if long else short[0] if short else strings[0]
    return chosen.lstrip("-").replace("-", "_") or None
