"""Which methods give their receiver's kind (fact ``selfrets``): called on a subclass, they give
that subclass's instance."""

from __future__ import annotations

import ast

import pytest

from astmcp.resolve.python_stmts import _returns_receivers_kind


def method(source: str) -> ast.FunctionDef:
    node = ast.parse(source).body[0]
    assert isinstance(node, ast.FunctionDef)
    return node


@pytest.mark.parametrize(
    ("source", "classy"),
    [
        ("def chain(self):\n    self.n += 1\n    return self", False),
        ("def copy(self):\n    return type(self)(self.items)", False),
        ("def copy(self):\n    return self.__class__(self.items)", False),
        ("def load(cls, d):\n    if not d:\n        return cls()\n    return cls(**d)", True),
        # falling off the end gives None: what a read off the result expects is the receiver
        ("def maybe(self):\n    if self.ok:\n        return self", False),
    ],
)
def test_methods_giving_their_receivers_kind(source: str, classy: bool) -> None:
    assert _returns_receivers_kind(method(source), classy)


@pytest.mark.parametrize(
    ("source", "classy"),
    [
        ("def root(self):\n    return self.parent.root() if self.parent else self", False),
        ("def make(cls):\n    return cls", True),  # the class itself, no instance
        ("def copy(self):\n    return Base(self.items)", False),
        ("def gen(self):\n    yield self", False),
        ("def other(self, x):\n    return x", False),
    ],
)
def test_other_methods_do_not(source: str, classy: bool) -> None:
    assert not _returns_receivers_kind(method(source), classy)
