"""Python names in strings and bytes (SPEC §3): which words of a literal become name-hit rows."""

from __future__ import annotations

import ast

from astmcp.resolve.python_facts import analyze


def _rows(text: str, kind: str = "string") -> list[tuple[str, int, int]]:
    out = analyze("m.py", text, ast.parse(text))
    return [(name, line, col) for name, line, col, _end, k, _t, _o in out["refs"] if k == kind]


def test_a_triple_quoted_program_gives_each_member_access_its_own_line_and_column() -> None:
    text = 'CODE = """\\\nimport m\nm.run()\n  x.y.show()\n"""\n'
    assert _rows(text) == [("run", 3, 3), ("y", 4, 5), ("show", 4, 7)]


def test_bytes_are_read_as_strings_are() -> None:
    text = 'A = b"max_len"\nB = b"the size of it"\nC = b"""\nimport m\nm.run()\n"""\n'
    assert _rows(text) == [("max_len", 1, 7), ("run", 5, 3)]


def test_a_long_single_line_string_is_read_and_a_huge_one_is_not() -> None:
    long = "word " * 100 + "m.run()"  # past the old 200-character limit
    huge = "x_y " * 10_000  # embedded data: no names, and no quadratic work
    text = f'A = "{long}"\nB = "{huge}"\n'
    assert _rows(text) == [("run", 1, 6 + len(long) - len("run()"))]


def test_a_computed_key_into_the_module_namespace_reaches_the_names_it_fits() -> None:
    text = (
        "def _a(): pass\n"
        "def b(): pass\n"
        "def __getattr__(name):\n"
        '    return globals()[f"_{name}"]\n'
        "def local(key):\n"
        "    return vars()[key]\n"
    )
    # a read of every fitting top-level name at the lookup (SPEC kinds: `read`), no target: a name hit
    assert sorted(_rows(text, "read")) == [("__getattr__", 4, 12), ("_a", 4, 12)]


def test_messages_of_builtin_exceptions_print_assert_and_warnings_are_inert() -> None:
    text = (
        "import warnings\n"
        'raise ValueError("size")\n'
        'raise KeyError("a_b " + "size", "size")\n'
        'assert ok, "size"\n'
        'print("size", sep="size")\n'
        'warnings.warn("size")\n'
        'assert x == "size"\n'
        'raise StopIteration("size")\n'
        'raise ValueError("%(size)s" % vars(o), "size".format(o))\n'
        'x = "size"\n'
    )
    # kept: print's sep=, an assertion's comparison, a generator's return value, a %/format
    # template (its receiver and the names a template reads are code), a plain string
    assert _rows(text) == [
        ("size", 5, 20),
        ("size", 7, 14),
        ("size", 8, 22),
        ("size", 9, 21),
        ("size", 9, 41),
        ("size", 10, 6),
    ]


def test_pytest_reasons_and_ids_are_inert_but_conditions_and_module_names_are_not() -> None:
    text = (
        "import pytest\n"
        "from pytest import mark, skip\n"
        'pytest.fail("size")\n'
        'skip("size")\n'
        'pytest.importorskip("size", reason="size")\n'
        '@mark.skipif("size", reason="size")\n'
        '@pytest.mark.parametrize("a", [pytest.param(1, id="size")], ids=["size"])\n'
        "def test_x(a): pass\n"
    )
    assert _rows(text) == [("size", 5, 22), ("size", 6, 15)]


def test_a_shadowed_or_star_imported_callee_keeps_its_string_hits() -> None:
    text = (
        "def f():\n"
        '    print("size")\n'
        '    raise ValueError("size")\n'
        "def print(x): pass\n"
        "class ValueError(Exception): pass\n"
        "from mymod import warn, fail\n"
        'warn("size")\n'
        'fail("size")\n'
    )
    assert _rows(text) == [("size", 2, 12), ("size", 3, 23), ("size", 7, 7), ("size", 8, 7)]
    assert _rows('from m import *\nprint("size")\n') == [("size", 2, 8)]


def _targets(text: str, path: str = "m.py") -> list[tuple[str, int, int, str | None]]:
    out = analyze(path, text, ast.parse(text))
    return [(name, line, col, t) for name, line, col, _end, k, t, _o in out["refs"] if k == "string"]


def test_a_string_naming_an_attribute_of_a_receiver_is_that_attribute() -> None:
    """``getattr(b, "size")`` reads ``b.size``: the receiver's chain, as an attribute read has;
    a receiver that cannot be typed, or is any object, keeps the name hit (no chain)."""
    text = (
        "class Box:\n"
        "    size = 1\n"
        "def f(b: Box, o: object, u):\n"
        '    return getattr(b, "size"), hasattr(o, "size"), setattr(u, "size", 1), delattr(b, "size")\n'
    )
    assert _targets(text) == [
        ("size", 4, 24, "S:Box/(i)/size"),
        ("size", 4, 44, None),
        ("size", 4, 64, None),
        ("size", 4, 87, "S:Box/(i)/size"),
    ]


def test_monkeypatch_and_mock_patch_object_name_an_attribute_of_their_first_argument() -> None:
    text = (
        "import sys\n"
        "from unittest import mock\n"
        "class Box:\n"
        "    size = 1\n"
        "def test_patch(monkeypatch):\n"
        '    monkeypatch.setattr(sys, "stdout", None)\n'
        '    mock.patch.object(Box, "size")\n'
    )
    assert _targets(text, "tests/test_m.py") == [
        ("stdout", 6, 31, "I:0:sys:/stdout"),
        ("size", 7, 29, "S:Box/size"),
    ]


def test_a_shadowed_getattr_or_a_prefixed_string_keeps_the_plain_string_rule() -> None:
    text = (
        "class Box:\n"
        "    size = 1\n"
        "def f(b: Box):\n"
        '    getattr(b, r"size")\n'
        "    getattr = print\n"
        '    getattr(b, "size")\n'
    )
    # (no attribute of b: a string given to the callable the local name holds, `print`)
    assert _targets(text) == [("size", 4, 18, "*K:G:print"), ("size", 6, 17, "*K:G:print")]
