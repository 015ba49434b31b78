"""Python front end: symbols, paths, signatures, docs, parse failures."""

from __future__ import annotations

from astmcp.lang import extract_file
from astmcp.lang.python import extract

SOURCE = '''"""Module doc."""
import os
from .store import Store as S, helper

CONSTANT: int = 3
a, (b, c) = 1, (2, 3)
a = 5


class Widget(Base, metaclass=Meta):
    """A widget."""

    colour = "red"

    def __init__(self, size: int = 1) -> None:
        self.size = size

    @property
    def area(self) -> int:
        return self.size ** 2

    @area.setter
    def area(self, value: int) -> None:
        pass

    @classmethod
    def make(
        cls,
        size: int,
    ) -> "Widget":  # trailing comment: with colon
        return cls(size)

    async def load(self, *args, key: str = "a:b", **kw) -> None:
        def helper():
            pass

    class Inner:
        def run(self): ...


def f(x, y=(1, 2)): return x


def f(x): return x
'''


def by_path(source: str) -> dict[str, list[object]]:
    out: dict[str, list[object]] = {}
    for symbol in extract(source).symbols:
        out.setdefault(symbol.symbol_path, []).append(symbol)
    return out


def test_every_python_symbol_kind_gets_its_spec_path_and_kind() -> None:
    symbols = {s.symbol_path: s.kind for s in extract(SOURCE).symbols}
    assert symbols == {
        "CONSTANT": "variable",
        "a": "variable",
        "b": "variable",
        "c": "variable",
        "Widget": "class",
        "Widget.colour": "attribute",
        "Widget.__init__": "method",
        "Widget.size": "attribute",
        "Widget.area": "property",
        "Widget.make": "method",
        "Widget.load": "method",
        "Widget.load.helper": "function",
        "Widget.Inner": "class",
        "Widget.Inner.run": "method",
        "f": "function",
    }


def test_redefinitions_and_accessor_pairs_are_separate_declarations() -> None:
    paths = by_path(SOURCE)
    assert len(paths["f"]) == 2
    assert len(paths["Widget.area"]) == 2
    assert len(paths["a"]) == 1  # a variable is one symbol: its first binding


def test_signatures_are_written_form_on_one_line_with_decorators() -> None:
    symbols = {s.symbol_path: s for s in extract(SOURCE).symbols}
    assert symbols["Widget"].signature == "class Widget(Base, metaclass=Meta)"
    assert symbols["Widget.make"].signature == '@classmethod\ndef make(cls, size: int) -> "Widget"'
    assert symbols["Widget.load"].signature == 'async def load(self, *args, key: str = "a:b", **kw) -> None'
    assert symbols["CONSTANT"].signature == "CONSTANT: int = 3"


def test_docstrings_give_their_first_line() -> None:
    facts = extract(SOURCE)
    symbols = {s.symbol_path: s for s in facts.symbols}
    assert symbols["Widget"].doc == "A widget."
    assert symbols["Widget.make"].doc is None
    assert facts.outline_header[0] == '"""Module doc."""'
    assert "imports: os, .store(Store as S, helper)" in facts.outline_header


def test_a_docstring_of_blank_lines_is_no_doc() -> None:
    # (Arpeggio's tests hold one: indexing them raised IndexError)
    source = 'def empty():\n    """\n    """\n\n\nclass Spaces:\n    """   \t  """\n'
    symbols = {s.symbol_path: s for s in extract(source).symbols}
    assert symbols["empty"].doc is None
    assert symbols["Spaces"].doc is None


def test_symbol_line_is_the_def_line_and_span_includes_decorators() -> None:
    symbols = {s.symbol_path: s for s in extract(SOURCE).symbols}
    make = symbols["Widget.make"]
    assert make.span.line == make.line - 1  # the @classmethod line
    assert make.name_span.line == make.line
    assert SOURCE.splitlines()[make.line - 1][make.name_span.column - 1 :].startswith("make(")


def test_columns_count_code_points_not_bytes() -> None:
    source = 's = "héllo"; value = 1\ndef größe(): pass\n'
    symbols = {s.symbol_path: s for s in extract(source).symbols}
    assert symbols["value"].name_span.column == len('s = "héllo"; ') + 1
    assert symbols["größe"].name_span.column == 5
    assert symbols["größe"].name_span.end_column == 5 + len("größe")


def test_a_file_that_does_not_parse_has_a_syntax_fact_and_no_symbols() -> None:
    facts = extract("def ok():\n    return 1\n\ndef broken(:\n    pass\n")
    assert facts.symbols == ()
    assert facts.parse_error is not None
    assert [(d.code, d.severity, d.line) for d in facts.diagnostics] == [("PY-SYNTAX", "error", 4)]


def test_non_utf8_bytes_are_reported_not_parsed() -> None:
    facts = extract_file("x.py", "python", b"caf\xe9 = 1\n")
    assert facts.symbols == ()
    assert facts.parse_error == "not UTF-8 text"
    assert facts.diagnostics[0].code == "ENCODING"


def test_a_utf8_bom_is_accepted() -> None:
    facts = extract_file("x.py", "python", b"\xef\xbb\xbfdef f():\n    pass\n")
    assert [s.symbol_path for s in facts.symbols] == ["f"]
    assert facts.symbols[0].name_span.column == 5


def test_deep_nesting_is_reported_not_fatal() -> None:
    source = "x = " + "(" * 5000 + ")" * 5000 + "\n"
    facts = extract(source)
    assert facts.parse_error is not None
    assert facts.symbols == ()
