"""Programs held in strings: decoding with source positions (resolve/python_programs.py)."""

from __future__ import annotations

import ast

from astmcp.resolve.python_programs import program_source


def _source(text: str) -> tuple[int, int, list[str]]:
    """(first line, start column, lines) of the one string expression in ``text``."""
    node = ast.parse(text).body[0].value  # type: ignore[attr-defined]
    lines = text.split("\n")[node.lineno - 1 : node.end_lineno]
    lines[-1] = lines[-1][: node.end_col_offset]
    lines[0] = lines[0][node.col_offset :]
    return node.lineno, node.col_offset, lines


def test_implicit_concatenation_maps_each_character_to_where_it_is_written() -> None:
    text = '(\n    "import pkg\\n"\n    "pkg.Widget().render()\\n"\n)\n'
    found = program_source(*_source(text))
    assert found is not None
    program, places = found
    assert program == "import pkg\npkg.Widget().render()\n"
    line, column = places[program.index("render")]
    assert (line, column) == (3, 18)  # `    "pkg.Widget().` is 18 characters
    assert text.split("\n")[line - 1][column:].startswith("render")


def test_a_dedented_script_keeps_positions_past_the_margin() -> None:
    text = '"""\\\n    from pkg import Widget\n\n    Widget().render()\n    """\n'
    found = program_source(*_source(text))
    assert found is not None
    program, places = found
    assert program.startswith("from pkg import Widget\n\nWidget().render()\n")
    line, column = places[program.index("render")]
    assert (line, column) == (4, 13)  # `    Widget().`
    assert text.split("\n")[line - 1][column:].startswith("render")


def test_no_program_without_an_import_or_with_bytes_or_other_escapes() -> None:
    for text in (
        '(\n"a = 1\\n"\n"b = 2\\n"\n)\n',  # no import
        '(\nb"import pkg\\n"\nb"pkg.f()\\n"\n)\n',  # bytes
        '(\n"import pkg\\n"\n"pkg.f(\'\\x41\')\\n"\n)\n',  # an escape not mapped one to one
        '(\n"the import of\\n"\n"this module\\n"\n)\n',  # prose
    ):
        assert program_source(*_source(text)) is None, text
