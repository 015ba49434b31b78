"""The strings a Python class body's ``__slots__`` lists, judged for one renamed symbol.

``__slots__ = ("children", "flags")`` declares the attributes ``children`` and ``flags`` on its
class: a slot of a class declaring a member of the renamed family (``self.children = …`` in its
methods) is that member's declaration, renamed with it — left behind, a slotted class's instances
could no longer hold the new name (``AttributeError``). A slot of a project class no instance of the
member's class can be (neither its ancestor, its descendant, nor an ancestor of a descendant) is
that other class's own attribute: no hit. Any other slot (an ancestor's that siblings may use
too) stays a name hit, and so does every slot when code reads a ``__slots__`` as a value (semver's
``NAMES = tuple([item[1:] for item in __slots__])`` makes its public names of them): the strings
are data then. A slot never names a module's variable or function, so none is a hit of one.
"""

from __future__ import annotations

import sqlite3
from typing import Literal

from astmcp.query.common import SymbolRow
from astmcp.resolve.python_lookups import CLASSLIKE
from astmcp.resolve.python_resolver import Resolver
from astmcp.resolve.python_vocab import SLOT_NAME

__all__ = ["SlotNames"]

Verdict = Literal["certain", "name", "none"]


class SlotNames:
    """Judges the slot strings of one rename; the member's related classes are found once."""

    def __init__(self, conn: sqlite3.Connection, family: list[SymbolRow]) -> None:
        self.conn = conn
        self.declaring = {(m.file, m.parent_path) for m in family if m.parent_path}
        self._resolver: Resolver | None = None
        self._related: set[int] | None = None
        self._slots_read: bool | None = None

    def _reads_slots(self) -> bool:
        """Whether Python code reads a ``__slots__`` as a value anywhere (``for s in
        self.__slots__``, a class body's ``NAMES = tuple(__slots__)``, ``getattr(c, "__slots__")``):
        then the strings are data whose words the rename would change."""
        found = self.conn.execute(
            "SELECT 1 FROM refs r JOIN files f ON f.id = r.file_id WHERE r.name = '__slots__'"
            " AND r.kind != 'definition' AND f.language = 'python' LIMIT 1"
        ).fetchone()
        return found is not None

    def verdict(self, path: str, target: str) -> Verdict:
        """What the slot string stored with ``target`` (``*L:<class path>``) in ``path`` is."""
        if not self.declaring:
            return "none"  # a module-level name: no slot names it
        if self._slots_read is None:
            self._slots_read = self._reads_slots()
        if self._slots_read:
            return "name"  # the slots are data too (`NAMES = tuple(s[1:] for s in __slots__)`)
        owner = target[len(SLOT_NAME) :]
        if (path, owner) in self.declaring:
            return "certain"
        resolver = self._resolver = self._resolver or Resolver(self.conn, {})
        cls = resolver.symbol(path, owner)
        if cls is None or cls.kind not in CLASSLIKE:
            return "name"
        return "name" if cls.id in self.related(resolver) else "none"

    def related(self, resolver: Resolver) -> set[int]:
        """The project classes an instance of a declaring class may also be: the declaring
        classes' descendants and every project ancestor of those."""
        if self._related is None:
            below: set[int] = set()
            todo = [
                cls.id
                for file, parent in sorted(self.declaring)
                if (cls := resolver.symbol(file, parent)) is not None and cls.kind in CLASSLIKE
            ]
            while todo:
                class_id = todo.pop()
                if class_id in below:
                    continue
                below.add(class_id)
                todo += [sub.id for sub in resolver.direct_subclasses(class_id)]
            self._related = {cls.id for class_id in below for cls in resolver.project_ancestors(class_id)}
        return self._related
