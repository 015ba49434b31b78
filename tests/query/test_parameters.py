"""The shared syntax trees every Python guard of a prepare reads (:mod:`astmcp.query.pytrees`)
and the ``def`` lookup on them."""

from __future__ import annotations

import ast

from astmcp.query.common import SymbolRow
from astmcp.query.parameters import function_node
from astmcp.query.pytrees import TextCache, parsed_tree, per_tree

SOURCE = """\
import functools


@functools.cache
def run(x):
    return x


class A:
    def run(self):
        def run():
            return 1

        return run()
"""


def _row(name: str, line: int, name_line: int) -> SymbolRow:
    return SymbolRow(
        0, "", name, name, "function", "", None, line, line, line, 0, 0, None, "m.py", name_line, 0, 0, 0
    )


def test_function_node_by_decorator_line_or_def_line() -> None:
    tree = parsed_tree(SOURCE)
    decorated = function_node(tree, _row("run", 4, 5))  # indexed from its decorator's line
    assert decorated is not None and decorated.lineno == 5 and decorated.decorator_list
    method = function_node(tree, _row("run", 10, 10))
    inner = function_node(tree, _row("run", 11, 11))
    assert method is not None and inner is not None
    assert method.lineno == 10 and inner.lineno == 11 and inner in method.body
    assert function_node(tree, _row("run", 7, 7)) is None  # no def on that line
    assert function_node(tree, _row("walk", 10, 10)) is None  # nor of that name


def test_parsed_tree_is_shared_per_text() -> None:
    assert parsed_tree(SOURCE) is parsed_tree("".join(SOURCE))  # an equal text, another object
    assert parsed_tree(SOURCE) is not parsed_tree(SOURCE + "\n")


def test_per_tree_computes_once_per_tree() -> None:
    calls: list[int] = []

    @per_tree
    def count_defs(tree: ast.Module) -> int:
        calls.append(1)
        return sum(isinstance(node, ast.FunctionDef) for node in ast.walk(tree))

    assert count_defs(parsed_tree(SOURCE)) == 3
    assert count_defs(parsed_tree(SOURCE)) == 3 and len(calls) == 1
    assert count_defs(ast.parse("def f(): pass")) == 1 and len(calls) == 2


def test_text_cache_keeps_the_recent_texts_within_its_lines() -> None:
    built: list[str] = []
    cache: TextCache[int] = TextCache(max_lines=4)

    def build(text: str) -> int:
        built.append(text)
        return len(text)

    assert cache.get("a\nb", build) == 3 and cache.get("a\nb", build) == 3 and built == ["a\nb"]
    cache.get("c\nd", build)  # 4 lines held: both kept
    cache.get("a\nb", build)  # (now the most recent)
    cache.get("e", build)  # 5 lines: the least recent, "c\nd", goes
    assert list(cache.values) == ["a\nb", "e"] and cache.lines == 3
    cache.get("c\nd", build)
    assert built == ["a\nb", "c\nd", "e", "c\nd"]
