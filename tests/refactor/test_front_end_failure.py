"""A file a front end fails on (a bug in astmcp, not in the file) costs that file, not the index:
it is indexed as unparsed, its outline says so, and every word of a renamed name in it is an
uncertain reference, so the rename is blocked rather than silently missing it."""

from __future__ import annotations

from typing import Any

import pytest

from astmcp.lang import python, typescript


def _failing_on(real: Any, marker: str) -> Any:
    def parse(*args: Any) -> Any:
        if marker in args[-1]:
            raise IndexError("list index out of range")
        return real(*args)

    return parse


def test_python_file_the_front_end_fails_on_blocks_a_rename_through_it(
    project: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(python, "parse", _failing_on(python.parse, "# odd"))
    p = project(
        {
            "a.py": "def helper():\n    return 1\n",
            "b.py": "# odd\nfrom a import helper\n\nvalue = helper()\n",
        }
    )
    outline = p("ast_get_outline", file_path="b.py")["outline"]
    assert outline.startswith("(not parsed: astmcp failed on it (IndexError: list index out of range)")
    plan = p("ast_rename_symbol", selector="a.py::helper", new_name="assist")
    assert plan["blocked"] is True
    assert sorted((u["file"], u["line"]) for u in plan["uncertain_references"]) == [("b.py", 2), ("b.py", 4)]


def test_typescript_file_the_front_end_fails_on_blocks_a_rename_through_it(
    project: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(typescript, "parse", _failing_on(typescript.parse, "// odd"))
    p = project(
        {
            "a.ts": "export function helper(): number {\n  return 1;\n}\n",
            "b.ts": "// odd\nimport { helper } from './a';\n\nexport const value = helper();\n",
        }
    )
    plan = p("ast_rename_symbol", selector="a.ts::helper", new_name="assist")
    assert plan["blocked"] is True
    assert sorted((u["file"], u["line"]) for u in plan["uncertain_references"]) == [("b.ts", 2), ("b.ts", 4)]
