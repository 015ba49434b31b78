"""Python syntax trees shared by the checks of one prepare and the next ones.

A rename's guards each read the files they care about (the declaring module, its importers, the
files that use a record's class), and a user prepares again after a change elsewhere: parsing
each file once per text, not once per guard, saves most of a prepare's time on a real project.
A tree depends on the text alone; nothing changes one once built, so callers share them and must
not change them.
"""

from __future__ import annotations

import ast
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable
from typing import TypeVar

__all__ = ["parsed_tree", "per_tree"]

# the recent trees by text, bounded by the lines they hold (about 1 MB of tree per 1,000 lines)
_TREES: OrderedDict[str, tuple[ast.Module, int]] = OrderedDict()
_MAX_LINES = 60_000
_lines = 0
_lock = threading.Lock()

T = TypeVar("T")


def parsed_tree(text: str) -> ast.Module:
    """``text`` parsed, once per text among the recent ones (shared: read it, never change it).
    Raises SyntaxError or ValueError, as :func:`ast.parse`."""
    global _lines
    with _lock:
        found = _TREES.get(text)
        if found is not None:
            _TREES.move_to_end(text)
            return found[0]
    tree = ast.parse(text)
    size = text.count("\n") + 1
    with _lock:
        if text not in _TREES:
            _TREES[text] = (tree, size)
            _lines += size
        while _lines > _MAX_LINES and len(_TREES) > 1:
            _text, (_tree, dropped) = _TREES.popitem(last=False)
            _lines -= dropped
    return tree


def per_tree(compute: Callable[[ast.Module], T]) -> Callable[[ast.Module], T]:
    """``compute`` (a pure function of a shared tree) run once per tree, its result kept as long
    as the tree lives (so callers must not change the result either)."""
    results: weakref.WeakKeyDictionary[ast.Module, T] = weakref.WeakKeyDictionary()

    def cached(tree: ast.Module) -> T:
        try:
            return results[tree]
        except KeyError:
            result = results[tree] = compute(tree)
            return result

    cached.__doc__ = compute.__doc__
    cached.__name__ = compute.__name__
    return cached
