"""Member names an outside library makes at run time from a template, off an object its code is
given rather than off its own ``self``: arpeggio's ``ParseTreeNode.visit(visitor)`` calls
``getattr(visitor, "visit_%s" % self.rule_name)``, and a rule's name is its function's. textx's
visitor methods and grammar functions were renamed and its tests broke (sixty-fifth round)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from astmcp.tools import call_tool
from astmcp.workspace import Workspaces

_GRAMMAR = """class Node:
    def __init__(self, rule_name):
        self.rule_name = rule_name

    def visit(self, visitor):
        name = "visit_%s" % self.rule_name
        if hasattr(visitor, name):
            return getattr(visitor, name)(self)
        return visitor.visit__default__(self)


class Visitor:
    def visit__default__(self, node):
        return None


def parse(rule):
    return Node(rule.__name__)


def visit_parse_tree(tree, visitor):
    return tree.visit(visitor)
"""

_APP = """from outgrammar import Visitor, parse, visit_parse_tree


def number():
    return r"\\d+"


class Calc(Visitor):
    def visit_number(self, node):
        return 1

    def total(self):
        return visit_parse_tree(parse(number), self)
"""


def _rename(
    tmp_path: Path,
    venv_package: Callable[[Path, str, dict[str, str]], None],
    selector: str,
    package: tuple[str, str] = ("outgrammar", _GRAMMAR),
    app: tuple[str, str] = ("app.py", _APP),
) -> tuple[dict[str, Any], bool]:
    """Renames ``selector`` in a project of the file ``app`` beside an installed ``package``."""
    root = tmp_path / "p"
    venv_package(root, package[0], {"__init__.py": package[1]})
    (root / app[0]).write_text(app[1], encoding="utf-8")
    workspaces = Workspaces(root)
    try:
        result = call_tool(workspaces, "ast_rename_symbol", {"selector": selector, "new_name": "renamed"})
    finally:
        workspaces.close()
    return result.data, result.is_error


def test_a_visitor_method_an_outside_node_calls_by_made_name_is_refused(
    tmp_path: Path, venv_package: Callable[[Path, str, dict[str, str]], None]
) -> None:
    data, failed = _rename(tmp_path, venv_package, "app.py::Calc.visit_number")
    assert failed and data["error"]["code"] == "MUTATION_BLOCKED"
    assert data["error"]["details"]["external_members"] == ["outgrammar.Visitor.visit_*"]


def test_a_rule_function_whose_name_makes_a_visitor_method_is_blocked(
    tmp_path: Path, venv_package: Callable[[Path, str, dict[str, str]], None]
) -> None:
    plan, failed = _rename(tmp_path, venv_package, "app.py::number")
    assert not failed and plan["blocked"] is True
    [hit] = plan["uncertain_references"]
    assert (hit["file"], hit["line"], hit["kind"]) == ("app.py", 9, "data")
    assert "visit_<…>" in hit["note"]


def test_a_member_no_template_makes_renames(
    tmp_path: Path, venv_package: Callable[[Path, str, dict[str, str]], None]
) -> None:
    plan, failed = _rename(tmp_path, venv_package, "app.py::Calc.total")
    assert not failed and plan["blocked"] is False


_PARSER = """class Parser:
    def parse(self, text):
        self.text = text
        return self._parse()
"""

_MY_PARSER = """from outparser import Parser


class Numbers(Parser):
    def _parse(self):
        return [int(word) for word in self.words()]

    def words(self):
        return self.text.split()
"""
_PARSER_PACKAGE = ("outparser", _PARSER)
_PARSER_APP = ("numbers_app.py", _MY_PARSER)


def test_a_hook_an_outside_base_calls_on_self_without_defining_it_is_refused(
    tmp_path: Path, venv_package: Callable[[Path, str, dict[str, str]], None]
) -> None:
    # (arpeggio's `Parser.parse` calls `self._parse()`, defined only by its subclasses: textx's
    # `TextXModelParser._parse` was renamed and its tests broke)
    data, failed = _rename(
        tmp_path, venv_package, "numbers_app.py::Numbers._parse", _PARSER_PACKAGE, _PARSER_APP
    )
    assert failed and data["error"]["code"] == "MUTATION_BLOCKED"
    assert data["error"]["details"]["external_members"] == ["outparser.Parser._parse"]


def test_a_member_the_outside_base_never_reads_renames(
    tmp_path: Path, venv_package: Callable[[Path, str, dict[str, str]], None]
) -> None:
    plan, failed = _rename(
        tmp_path, venv_package, "numbers_app.py::Numbers.words", _PARSER_PACKAGE, _PARSER_APP
    )
    assert not failed and plan["blocked"] is False
