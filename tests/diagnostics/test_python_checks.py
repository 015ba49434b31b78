"""The Python undefined-name analyzer: real mistakes reported, valid dynamic code quiet."""

from __future__ import annotations

import ast
import textwrap

from astmcp.diagnostics import python_checks


def undefined(source: str, path: str = "m.py") -> list[tuple[int, str]]:
    text = textwrap.dedent(source)
    result = python_checks.analyze(path, text, ast.parse(text))
    return [(d.line, d.message) for d in result.diagnostics]


def test_a_name_bound_nowhere_is_reported_with_line_and_column() -> None:
    text = "import os\nvalue = os.sep + missing_name\n"
    result = python_checks.analyze("m.py", text, ast.parse(text))
    [diag] = result.diagnostics
    assert (diag.code, diag.severity, diag.line, diag.column) == ("PY-UNDEFINED-NAME", "error", 2, 18)
    assert diag.message == "undefined name 'missing_name'"


def test_conditional_and_guarded_imports_stay_quiet() -> None:
    assert not undefined(
        """
        import sys
        from typing import TYPE_CHECKING
        if TYPE_CHECKING:
            from collections import OrderedDict
        try:
            import simplejson as json
        except ImportError:
            json = None
        if sys.platform == "win32":
            import winreg
        def f(x: "OrderedDict[str, int]") -> object:
            return json, winreg, OrderedDict
        """
    )


def test_names_used_before_a_later_definition_stay_quiet() -> None:
    assert not undefined(
        """
        def first():
            return second()
        def second():
            return LATER
        LATER = 1
        """
    )


def test_class_variables_are_not_visible_in_methods() -> None:
    found = undefined(
        """
        class C:
            size = 1
            doubled = size * 2
            def method(self, default=size):
                return size
        """
    )
    assert found == [(6, "undefined name 'size'")]


def test_class_variables_are_not_visible_in_comprehension_bodies() -> None:
    found = undefined(
        """
        class C:
            items = [1, 2]
            factor = 2
            ok = [x for x in items]
            bad = [x * factor for x in items]
        """
    )
    assert found == [(6, "undefined name 'factor'")]


def test_comprehension_targets_global_and_nonlocal_bindings_stay_quiet() -> None:
    assert not undefined(
        """
        def setup():
            global CONFIG
            CONFIG = {}
        def counter():
            count = 0
            def bump():
                nonlocal count
                count += 1
                return count
            return bump
        squares = {k: v for k, v in [(1, 2)] if k and v}
        last = [y for row in [[1]] for y in row]
        if (n := 10) > 5:
            print(n, CONFIG)
        """
    )


def test_deleted_names_and_dunders_stay_quiet() -> None:
    assert not undefined(
        """
        import os
        del os
        print(__file__, __name__, __doc__, __spec__, __loader__, __path__, __builtins__)
        class K:
            print(__module__, __qualname__)
            def m(self):
                return __class__
        __all__ = ["K"]
        __all__ += ["more"]
        """
    )


def test_star_import_or_exec_makes_the_whole_file_quiet() -> None:
    assert not undefined("from os.path import *\nprint(join, nothing_here)\n")
    assert not undefined("exec('x = 1')\nprint(x)\n")
    assert not undefined("globals()['y'] = 1\nprint(y)\n")


def test_name_error_handlers_and_noqa_silence_a_read() -> None:
    assert not undefined(
        """
        try:
            text_type = unicode_compat
        except NameError:
            text_type = str
        value = deliberately_missing  # noqa: F821
        """
    )
    assert undefined("value = missing  # noqa: E501\n") == [(1, "undefined name 'missing'")]


def test_builtins_of_other_versions_and_platforms_stay_quiet() -> None:
    assert not undefined("print(WindowsError, unicode, xrange, aiter, ExceptionGroup, reveal_type)\n")


def test_names_injected_into_builtins_are_collected_and_silence_the_file() -> None:
    text = textwrap.dedent(
        """
        import builtins
        import builtins as b2
        builtins.gettext_ = str
        setattr(builtins, "injected", 1)
        b2.__dict__["other"] = 2
        print(gettext_, injected, other)
        """
    )
    result = python_checks.analyze("m.py", text, ast.parse(text))
    assert result.injected_builtins == {"gettext_", "injected", "other"}
    assert result.diagnostics == ()


def test_lambdas_and_decorated_functions_are_placed_in_their_own_scope() -> None:
    found = undefined(
        """
        import functools
        @functools.lru_cache
        def top(self):
            return self
        pick = lambda item: item + offset_missing
        """
    )
    assert found == [(6, "undefined name 'offset_missing'")]


def test_payload_lists_module_bindings_dynamic_flag_and_guarded_imports() -> None:
    text = "try:\n    from . import fast\nexcept ImportError:\n    fast = None\ndef helper(): pass\n"
    result = python_checks.analyze("m.py", text, ast.parse(text))
    assert {"fast", "helper"} <= result.module_names
    assert result.guarded_imports == {2}
    assert not result.dynamic
    dynamic = "def __getattr__(name):\n    return name\n"
    assert python_checks.analyze("m.py", dynamic, ast.parse(dynamic)).dynamic
