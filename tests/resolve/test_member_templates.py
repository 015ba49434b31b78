"""Names made at run time from literal parts (``resolve.python_namespace.member_template``):
which expressions make one, and what the stored target says."""

from __future__ import annotations

import ast

import pytest

from astmcp.resolve.python_namespace import folded, member_template
from astmcp.resolve.templates import template_reaches


def _target(source: str) -> str | None:
    key, fold = folded(ast.parse(source, mode="eval").body)
    return member_template(key, None, fold)


@pytest.mark.parametrize(
    ("source", "target"),
    [
        ('f"visit_{type(node).__name__}"', "*T:cvisit_*"),
        ('"do_" + cmd', "*T:mdo_*"),
        ('"_process_{cls}".format(cls=type(t).__name__)', "*T:c_process_*"),
        ('"_process_{cls}".format(cls=type(t).__name__).lower()', "*T:l_process_*"),
        ('"_Strip_" + type(t).__name__.lower()', "*T:l_Strip_*"),
        ('"{}_{}".format("on", evt)', "*T:mon_*"),
        ('"on_{0}_done".format(evt)', "*T:mon_*_done"),
        ('("ON_" + evt).upper()', "*T:mON_*"),
    ],
)
def test_made_names(source: str, target: str) -> None:
    assert _target(source) == target


@pytest.mark.parametrize(
    "source",
    [
        '"on_{!r}".format(evt)',  # a repr's quotes are no name's part
        '"on_{:>8}".format(evt)',  # padded
        '"on_{0.name}".format(evt)',  # reads into its argument
        '"on_{}".format(*names)',
        '"on_{x}".format(y=evt)',  # a field given nothing
        '"on_{}".format("literal")',  # no made part
    ],
)
def test_no_made_name(source: str) -> None:
    assert _target(source) is None


def test_lowered_class_name_reaches_the_lowered_member() -> None:
    target = "*T:l_process_*"
    names = {"_process_values"}
    assert template_reaches(target, "Values", "class", names.__contains__)
    assert not template_reaches(target, "Where", "class", names.__contains__)
    assert template_reaches(target, "_process_values", "method", names.__contains__)
    # a class's name as it is does not reach the lowered member
    assert not template_reaches("*T:c_process_*", "Values", "class", names.__contains__)
