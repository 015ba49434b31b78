"""A class reading a member only its subclasses declare (``self.validation_attrs`` in wtforms'
``Input.__call__``) roots one family of those declarations; a subclass added later joins it."""

from __future__ import annotations

from pathlib import Path

from astmcp.tools import call_tool
from astmcp.workspace import Workspaces

_BASE = """class Input:
    def __call__(self, flags: dict[str, object]) -> list[str]:
        return [k for k in flags if k in self.validation_attrs]


class Plain(Input):
    pass
"""

_SUB = """from base import Input


class RangeInput(Input):
    validation_attrs = ["min", "max"]
"""


def test_a_subclass_added_later_joins_the_family_its_base_reads(tmp_path: Path) -> None:
    (tmp_path / "base.py").write_text(_BASE, encoding="utf-8")
    workspaces = Workspaces(tmp_path)
    try:
        # nothing declares it yet: the read is a name hit of nothing to rename
        found = call_tool(workspaces, "ast_find_references", {"selector": "base.py::Plain"})
        assert not found.is_error
        (tmp_path / "sub.py").write_text(_SUB, encoding="utf-8")
        plan = call_tool(
            workspaces,
            "ast_rename_symbol",
            {"selector": "sub.py::RangeInput.validation_attrs", "new_name": "checked"},
        )
        assert not plan.is_error, plan.text
        assert plan.data["blocked"] is False
        assert plan.data["uncertain_references"] == []
        assert sorted(f["file"] for f in plan.data["affected_files"]) == ["base.py", "sub.py"]
        assert "self.checked" in plan.data["preview"]
    finally:
        workspaces.close()


def test_a_subclass_added_to_another_existing_file_joins_the_family(tmp_path: Path) -> None:
    (tmp_path / "base.py").write_text(_BASE, encoding="utf-8")
    (tmp_path / "sub.py").write_text("from base import Input\n\n\nclass Other:\n    pass\n", encoding="utf-8")
    workspaces = Workspaces(tmp_path)
    try:
        found = call_tool(workspaces, "ast_find_references", {"selector": "base.py::Plain"})
        assert not found.is_error
        # a new class in a file whose module-wide facts stay as they were: base.py is linked again
        (tmp_path / "sub.py").write_text(_SUB + "\n\nclass Other:\n    pass\n", encoding="utf-8")
        plan = call_tool(
            workspaces,
            "ast_rename_symbol",
            {"selector": "sub.py::RangeInput.validation_attrs", "new_name": "checked"},
        )
        assert not plan.is_error, plan.text
        assert plan.data["blocked"] is False
        assert plan.data["reference_count"] == 2
    finally:
        workspaces.close()
