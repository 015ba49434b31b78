"""Python: a callable a ``__reduce__`` returns is stored by name in every pickle of the object.

``def __reduce__(self): return pytz._p, (self.zone,)`` makes pickle write ``pytz`` and ``_p``
into the data, and ``pickle.loads`` looks the callable up by those names; renaming ``_p`` leaves
every pickle made before unloadable (pytz's tests load pickles written by pytz 2006j). Each
reference to the renamed module-level function or class inside a ``__reduce__`` /
``__reduce_ex__`` is then an uncertain hit of kind ``data``: nothing to edit there (the code is
renamed as any reference is), but the rename is blocked by default and says why.
"""

from __future__ import annotations

import sqlite3

from astmcp.query.common import SymbolRow
from astmcp.refactor.rename_refs import Hit

__all__ = ["pickled_hits"]

_REDUCERS = ("__reduce__", "__reduce_ex__")
_NOTE = (
    "a __reduce__ returns it: pickles store it by module and name, so data pickled before the"
    " rename would no longer load"
)


def pickled_hits(conn: sqlite3.Connection, row: SymbolRow, hits: list[Hit]) -> list[Hit]:
    """A ``data`` hit at each certain reference of ``row`` (a module-level function or class)
    made in a ``__reduce__`` or ``__reduce_ex__``."""
    if row.parent_path or row.kind not in ("function", "class") or not row.file.endswith(".py"):
        return []
    out: list[Hit] = []
    for hit in hits:
        if hit.confidence != "certain" or hit.is_declaration or not hit.file.endswith(".py"):
            continue
        found = conn.execute(
            "SELECT r.scope_path FROM refs r JOIN files f ON f.id = r.file_id"
            " WHERE f.path = ? AND r.line = ? AND r.col = ? AND r.name = ?",
            (hit.file, hit.line, hit.column, row.name),
        ).fetchone()
        if found is not None and str(found[0] or "").rpartition(".")[2] in _REDUCERS:
            out.append(Hit(hit.file, hit.line, hit.column, hit.end_column, "data", "name", note=_NOTE))
    return out
