"""The literal text of f-strings, found in the source with every column kept."""

from __future__ import annotations

import pytest

from astmcp.resolve.python_fstrings import literal_text


@pytest.mark.parametrize(
    ("source", "literal"),
    [
        ('f"{ctx} = context.save()"', "))))))) = context.save())"),
        ('f"visit_{type(node).__name__}"', "))visit_))))))))))))))))))))))"),
        ('f"{{a}}_b {x!r:>{w}} c_d"', ")){{a}}_b )))))))))) c_d)"),
        ('"a_b" f"{x[\'k\']}_c"', ")a_b))))))))))))_c)"),
        ('f"""x_y\n{z}.a_b"""', "))))x_y\n))).a_b)))"),
        ('(\n  "a_b"  # note\n  f"{c}"\n)', None),
        ('"a_b"  # a_c\n  f"{c}"', ")a_b))))))))\n))))))))"),
    ],
)
def test_everything_but_literal_text_is_masked(source: str, literal: str | None) -> None:
    assert literal_text(source) == literal


@pytest.mark.parametrize("source", ['f"{x', 'f"abc', "name", 'f"{x["k"]}"'])
def test_what_cannot_be_read_as_string_literals_gives_none(source: str) -> None:
    assert literal_text(source) is None
