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
from typing import Generic, TypeVar

__all__ = ["TextCache", "parsed_tree", "per_tree"]

T = TypeVar("T")


class TextCache(Generic[T]):
    """Values built from a text (a parse), the recent ones kept, bounded by the lines of their
    texts (about 1 MB of syntax tree per 1,000 lines)."""

    def __init__(self, max_lines: int) -> None:
        self.max_lines = max_lines
        self.lines = 0
        self.values: OrderedDict[str, tuple[T, int]] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, text: str, build: Callable[[str], T]) -> T:
        """``build(text)``, or its value kept from before (an exception is not kept)."""
        with self.lock:
            found = self.values.get(text)
            if found is not None:
                self.values.move_to_end(text)
                return found[0]
        value = build(text)
        size = text.count("\n") + 1
        with self.lock:
            if text not in self.values:
                self.values[text] = (value, size)
                self.lines += size
            while self.lines > self.max_lines and len(self.values) > 1:
                _text, (_value, dropped) = self.values.popitem(last=False)
                self.lines -= dropped
        return value


_TREES: TextCache[ast.Module] = TextCache(60_000)


def parsed_tree(text: str) -> ast.Module:
    """``text`` parsed, once per text among the recent ones (shared: read it, never change it).
    Raises SyntaxError or ValueError, as :func:`ast.parse`."""
    return _TREES.get(text, ast.parse)


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


@per_tree
def defined_functions(tree: ast.Module) -> dict[tuple[int, str], ast.FunctionDef | ast.AsyncFunctionDef]:
    """The module's functions and methods, at any depth, by the line of their ``def`` and their
    name (a symbol's ``line`` and ``name``)."""
    return {
        (node.lineno, node.name): node
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    }
