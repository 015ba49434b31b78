"""ast_rename_symbol within one file: edits, uncertain handling, name checks and Python collisions.

These run with or without the project-wide reference engine.
"""

from __future__ import annotations

import textwrap
from typing import Any

import pytest

MODULE = '''
"""Module."""

__all__ = ["helper", "use"]


def helper(x):
    return x + 1


def use(obj):
    total = helper(2)
    obj.helper(3)
    return total


class C:
    def run(self):
        return helper(1)


import sys

THIS = sys.modules[__name__]  # the module handed on as a value: `obj` above may be it
'''


def test_rename_updates_the_definition_every_reference_and_dunder_all(project: Any) -> None:
    p = project({"m.py": MODULE})
    plan = p("ast_rename_symbol", selector="m.py::helper", new_name="assist", uncertain="skip")
    assert plan["kind"] == "rename" and plan["blocked"] is False
    assert plan["reference_count"] >= 4
    p.apply(plan)
    text = p.read("m.py")
    assert '__all__ = ["assist", "use"]' in text
    assert "def assist(x):" in text and "total = assist(2)" in text and "return assist(1)" in text
    assert "obj.helper(3)" in text  # a name hit, skipped
    assert "helper(" not in text.replace("obj.helper(", "")


def test_rename_with_name_hits_is_prepared_but_blocked_by_default(project: Any) -> None:
    p = project({"m.py": MODULE})
    plan = p("ast_rename_symbol", selector="m.py::helper", new_name="assist")
    assert plan["blocked"] is True
    assert plan["block_reason"].startswith("1 uncertain reference(s) (1 on a receiver of unknown type)")
    assert [(u["line"], u["confidence"], u["context"]) for u in plan["uncertain_references"]] == [
        (12, "name", "obj.helper(3)")
    ]
    error = p.error("ast_apply_operation", operation_id=plan["operation_id"], plan_hash=plan["plan_hash"])
    assert error["code"] == "MUTATION_BLOCKED"


def test_rename_with_uncertain_include_renames_the_name_hits_too(project: Any) -> None:
    p = project({"m.py": MODULE})
    plan = p("ast_rename_symbol", selector="m.py::helper", new_name="assist", uncertain="include")
    assert plan["blocked"] is False
    p.apply(plan)
    assert "obj.assist(3)" in p.read("m.py")


def test_names_in_strings_are_uncertain_and_block_by_default(project: Any) -> None:
    p = project(
        {
            "m.py": """
            def helper():
                return 1


            def dyn(obj):
                return getattr(obj, "helper")()


            def test_repr():
                assert repr(dyn) != "helper"
            """
        }
    )
    plan = p("ast_rename_symbol", selector="m.py::helper", new_name="assist")
    assert plan["blocked"] is True
    assert sorted(u["line"] for u in plan["uncertain_references"] if u["kind"] == "string") == [6, 10]
    assert plan["block_reason"].startswith("2 uncertain reference(s) (2 in string(s));")


def test_a_member_reached_by_a_computed_name_blocks_and_is_never_half_renamed(project: Any) -> None:
    p = project(
        {
            "m.py": """
            class Visitor:
                def visit(self, node):
                    return getattr(self, f"visit_{type(node).__name__}")(node)

                def visit_Block(self, node):
                    return node


            class Block:
                pass
            """
        }
    )
    for selector in ("m.py::Visitor.visit_Block", "m.py::Block"):
        plan = p("ast_rename_symbol", selector=selector, new_name="renamed")
        assert plan["blocked"] is True
        assert [(u["line"], u["kind"]) for u in plan["uncertain_references"]] == [(3, "string")]
    # included, the computed name has no text to rewrite: the declaration alone changes
    plan = p(
        "ast_rename_symbol", selector="m.py::Visitor.visit_Block", new_name="visit_Node", uncertain="include"
    )
    p.apply(plan)
    assert 'f"visit_{type(node).__name__}"' in p.read("m.py")
    assert "def visit_Node(self, node):" in p.read("m.py")


@pytest.mark.parametrize("bad", ["2x", "a-b", "class", "None", "two words", ""])
def test_new_name_that_is_not_one_python_identifier_is_invalid_input(project: Any, bad: str) -> None:
    p = project({"m.py": "def helper():\n    return 1\n"})
    assert p.error("ast_rename_symbol", selector="m.py::helper", new_name=bad)["code"] == "INVALID_INPUT"


def test_soft_keywords_are_valid_python_names(project: Any) -> None:
    p = project({"m.py": "def helper():\n    return 1\n"})
    assert p("ast_rename_symbol", selector="m.py::helper", new_name="match")["blocked"] is False


def test_renaming_to_the_same_name_is_invalid_input(project: Any) -> None:
    p = project({"m.py": "def helper():\n    return 1\n"})
    assert p.error("ast_rename_symbol", selector="m.py::helper", new_name="helper")["code"] == "INVALID_INPUT"


COLLISIONS = {
    "module_binding": (
        "def helper():\n    return 1\n\n\ndef assist():\n    return 2\n",
        "m.py::helper",
        "line 5",
    ),
    "local_shadowing": (
        "def helper():\n    return 1\n\n\ndef use():\n    assist = 3\n    return helper() + assist\n",
        "m.py::helper",
        "function 'use'",
    ),
    "parameter_shadowing": (
        "def helper():\n    return 1\n\n\ndef use(assist):\n    return helper() + assist\n",
        "m.py::helper",
        "function 'use'",
    ),
    "class_attribute_vs_method": (
        "class C:\n    assist = 1\n\n    def helper(self):\n        return 1\n",
        "m.py::C.helper",
        "C.assist",
    ),
    "import_clash": (
        "from os.path import join as assist\n\n\ndef helper():\n    return assist('a')\n",
        "m.py::helper",
        "line 1",
    ),
    "global_statement": (
        "def helper():\n    return 1\n\n\ndef setup():\n    global assist\n    assist = 2\n",
        "m.py::helper",
        "module scope",
    ),
    "captures_a_builtin_use": (
        "def helper():\n    return 1\n\n\ndef use(xs):\n    return assist(xs) + helper()\n",
        "m.py::helper",
        "would be captured",
    ),
}


@pytest.mark.parametrize("case", sorted(COLLISIONS))
def test_rename_that_would_clash_is_a_name_collision_naming_the_clash(project: Any, case: str) -> None:
    text, selector, expected = COLLISIONS[case]
    if case == "captures_a_builtin_use":
        text = text.replace("assist(xs)", "len(xs)")
        new_name = "len"
        expected = "'len' at m.py:6 means the builtin"
    else:
        new_name = "assist"
    p = project({"m.py": text})
    error = p.error("ast_rename_symbol", selector=selector, new_name=new_name)
    assert error["code"] == "NAME_COLLISION", error
    assert expected in error["message"]
    assert p.read("m.py") == text


def test_a_local_of_the_same_new_name_in_an_unrelated_function_is_no_collision(project: Any) -> None:
    p = project(
        {"m.py": "def helper():\n    return 1\n\n\ndef other():\n    assist = 2\n    return assist\n"}
    )
    plan = p("ast_rename_symbol", selector="m.py::helper", new_name="assist")
    assert plan["blocked"] is False


def test_rename_keeps_bom_and_crlf(project: Any) -> None:
    p = project({"m.py": b"\xef\xbb\xbfdef helper():\r\n    return 1\r\n\r\n\r\nX = helper()\r\n"})
    p.apply(p("ast_rename_symbol", selector="m.py::helper", new_name="assist"))
    assert (
        p.root / "m.py"
    ).read_bytes() == b"\xef\xbb\xbfdef assist():\r\n    return 1\r\n\r\n\r\nX = assist()\r\n"


def test_comments_naming_the_symbol_are_listed_in_the_preview_but_neither_changed_nor_blocking(
    project: Any,
) -> None:
    p = project(
        {"m.py": "# helper does things\ndef helper():\n    return 1  # see helper\n\n\nX = helper()\n"}
    )
    plan = p("ast_rename_symbol", selector="m.py::helper", new_name="assist")
    assert plan["blocked"] is False and plan["uncertain_references"] == []
    assert plan["preview"].startswith(
        "# note: comments mentioning 'helper' are not changed: m.py line(s) 1, 3\n"
    )
    p.apply(plan)
    assert (
        p.read("m.py")
        == "# helper does things\ndef assist():\n    return 1  # see helper\n\n\nX = assist()\n"
    )


def test_a_nested_function_is_local_so_same_name_attributes_elsewhere_do_not_block(project: Any) -> None:
    p = project(
        {
            "m.py": """
            def outer(ctx):
                def callback(value):
                    return value

                ctx.callback = callback
                return ctx.callback(1)
            """
        }
    )
    plan = p("ast_rename_symbol", selector="m.py::outer.callback", new_name="on_value")
    assert plan["blocked"] is False and plan["uncertain_references"] == []
    p.apply(plan)
    assert "def on_value(value):" in p.read("m.py")
    assert "ctx.callback = on_value" in p.read("m.py") and "ctx.callback(1)" in p.read("m.py")


def test_a_property_with_its_setter_is_renamed_as_one_name(project: Any) -> None:
    p = project(
        {
            "m.py": """
            class Box:
                def __init__(self):
                    self._size = 0

                @property
                def size(self):
                    return self._size

                @size.setter
                def size(self, value):
                    self._size = value


            def grow(box: Box):
                box.size = box.size + 1
            """
        }
    )
    plan = p("ast_rename_symbol", selector="m.py::Box.size@6", new_name="volume", uncertain="include")
    p.apply(plan)
    text = p.read("m.py")
    assert "def size" not in text and "@volume.setter" in text and text.count("def volume") == 2
    assert "box.volume = box.volume + 1" in text


def test_overloads_are_renamed_together(project: Any) -> None:
    p = project(
        {
            "m.py": """
            from typing import overload


            @overload
            def conv(x: int) -> int: ...
            @overload
            def conv(x: str) -> str: ...
            def conv(x):
                return x


            y = conv(1)
            """
        }
    )
    plan = p("ast_rename_symbol", selector="m.py::conv@5", new_name="convert")
    p.apply(plan)
    text = p.read("m.py")
    assert "conv(" not in text.replace("convert(", "") and text.count("def convert") == 3


def test_an_anonymous_default_export_has_no_name_to_rename(project: Any) -> None:
    p = project({"locale.ts": "export default function (): number {\n  return 1;\n}\n"})
    outline = p("ast_get_outline", file_path="locale.ts", include_symbols=True)
    selector = next(s["selector"] for s in outline["symbols"] if s["name"] == "default")
    error = p.error("ast_rename_symbol", selector=selector, new_name="localeRn")
    assert error["code"] == "INVALID_INPUT" and "default export" in error["message"]


def test_a_method_named_default_is_renamable(project: Any) -> None:
    p = project({"box.ts": "export class Box {\n  default(): number {\n    return 1;\n  }\n}\n"})
    plan = p("ast_rename_symbol", selector="box.ts::Box.default", new_name="fallback", uncertain="skip")
    p.apply(plan)
    assert "fallback(): number" in p.read("box.ts")


def test_strings_that_are_only_shown_do_not_block_a_python_rename(project: Any) -> None:
    shown = """
    import warnings


    def helper():
        return 1


    def check(x):
        if not x:
            raise ValueError("helper")
        assert x, "helper"
        print("helper")
        warnings.warn("helper")
        return helper()
    """
    plan = project({"m.py": shown})("ast_rename_symbol", selector="m.py::helper", new_name="assist")
    assert plan["blocked"] is False and plan["uncertain_references"] == []
    # the same call to a project `print` may use its argument as a name
    shadowed = textwrap.dedent(shown) + "\n\ndef print(name):\n    return globals()[name]\n"
    plan = project({"m.py": shadowed})("ast_rename_symbol", selector="m.py::helper", new_name="assist")
    assert plan["blocked"] is True
    assert [u["line"] for u in plan["uncertain_references"] if u["kind"] == "string"] == [12]


def test_strings_that_are_only_shown_do_not_block_a_ts_rename(project: Any) -> None:
    files = {
        "size.ts": (
            "export function size(x: unknown): number {\n"
            '  if (typeof x === "string") return x.length;\n'
            '  if (x === undefined) throw new Error("size");\n'
            '  console.warn("size");\n'
            "  return 0;\n"
            "}\n"
        ),
        "size.test.ts": (
            'import { describe, test } from "vitest";\n'
            'import { size } from "./size";\n'
            'describe("size", () => {\n'
            '  test.each([1])("size", () => size(1));\n'
            "});\n"
        ),
    }
    plan = project(files)("ast_rename_symbol", selector="size.ts::size", new_name="measure")
    assert plan["blocked"] is False and plan["uncertain_references"] == []
    # a project's own `test` may use its title as a key
    files["size.test.ts"] = files["size.test.ts"].replace('from "vitest"', 'from "./registry"')
    files["registry.ts"] = "export function describe(n: string, f: () => void) {}\nexport const test = {};\n"
    # (strings reach a module-level function only through its module's namespace used as a value)
    files["keys.ts"] = 'import * as sizes from "./size";\nexport const keys = Object.keys(sizes);\n'
    plan = project(files)("ast_rename_symbol", selector="size.ts::size", new_name="measure")
    assert plan["blocked"] is True
    assert [u["line"] for u in plan["uncertain_references"] if u["kind"] == "string"] == [3, 4]
