"""Memoised resolution that records what each result consulted, shared by the linkers.

A resolver computes entities by key (a chain in a file, a module's member, a class's member).
Each result is memoised with the dependencies (``deps``: paths, or finer keys) its computation
consulted, so a memo hit adds them to the caller's. A key met again while it is being computed
is a cycle: it resolves to None there, and the result it cut short may be incomplete.

What happens to such a result is the linker's policy, :attr:`Tracking.keep_cut_short`:

- the TS/JS linker keeps it (a barrel re-exporting a module that imports it is common, and
  recomputing a cut-short result for every caller is exponential in the cycle's length);
- the Python linker recomputes it for each caller (it is not final), and likewise a result that
  rests on a value assumed while a self-referencing union is checked (:meth:`Tracking.provisional`,
  :meth:`Tracking.settled`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

Key = tuple[Any, ...]
E = TypeVar("E")


class Tracking(Generic[E]):
    def __init__(self, *, keep_cut_short: bool) -> None:
        self.keep_cut_short = keep_cut_short
        self._memo: dict[Key, tuple[E | None, frozenset[str]]] = {}
        # one copy of each distinct dependency set: most results consulted the same few files
        # (a set per memo entry was ~80 MB of django's link)
        self._dep_sets: dict[frozenset[str], frozenset[str]] = {}
        self._busy: set[Key] = set()
        self._cycles = 0  # cycles met so far
        self.deps: set[str] = set()

    def forget(self) -> None:
        """Drop the memoised results (what they rested on is about to change)."""
        self._memo.clear()

    def provisional(self) -> int:
        """How many answers so far were no final ones (cycles cut; a subclass adds its own)."""
        return self._cycles

    def settled(self, key: Key) -> bool:
        """Whether ``key``'s result is memoised even though it met a provisional answer."""
        return False

    def _tracked(self, key: Key, compute: Callable[[], E | None]) -> E | None:
        hit = self._memo.get(key)
        if hit is not None:
            self.deps |= hit[1]
            return hit[0]
        if key in self._busy:
            self._cycles += 1
            return None
        outer, self.deps = self.deps, set()
        before = self.provisional()
        self._busy.add(key)
        try:
            result = compute()
        finally:
            self._busy.discard(key)
            mine, self.deps = self.deps, outer
            self.deps |= mine
        if self.keep_cut_short or self.provisional() == before or self.settled(key):
            deps = frozenset(mine)
            self._memo[key] = (result, self._dep_sets.setdefault(deps, deps))
        return result
