"""The members of the classes a standard-library module holds (query.stdlib_members)."""

from __future__ import annotations

import sys

from astmcp.query.stdlib_members import stdlib_class_members


def test_members_of_a_standard_module_s_classes() -> None:
    members = stdlib_class_members("inspect")
    assert {"bind", "bind_partial", "parameters", "replace"} <= members  # Signature's
    assert not any(name.startswith("__") for name in members)


def test_modules_outside_the_standard_library_give_nothing() -> None:
    assert stdlib_class_members("astmcp.query") == frozenset()
    assert stdlib_class_members("no_such_module_anywhere") == frozenset()


def test_modules_that_act_when_imported_are_never_imported() -> None:
    before = "this" in sys.modules
    assert stdlib_class_members("this") == frozenset()
    assert ("this" in sys.modules) == before
