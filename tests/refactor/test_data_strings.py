"""Strings holding a member's name as data (query.data_keys) are no hits: the plan is not
blocked by them, never edits them, and its preview says where they are."""

from __future__ import annotations

from pathlib import Path
from typing import Any

APP = """\
class Param:
    def __init__(self, required=False):
        self.required = required

    def to_info_dict(self):
        return {"required": self.required}


def describe(param):
    return "*" if param.to_info_dict()["required"] else ""
"""


def test_data_strings_are_left_alone_and_named_in_the_preview(caller: Any, tmp_path: Path) -> None:
    root = tmp_path / "p"
    root.mkdir()
    (root / "app.py").write_text(APP, encoding="utf-8")
    call = caller(root)
    plan = call("ast_rename_symbol", selector="app.py::Param.required", new_name="mandatory")
    assert plan["blocked"] is False
    assert plan["uncertain_references"] == []
    assert plan["reference_count"] == 2  # the declaring write and the read
    note = "# note: strings holding 'required' as data, not as a name, are not changed: app.py line(s) 6, 10"
    assert note in plan["preview"]
    assert '"required": self.mandatory' in plan["preview"]
    call.close()


def test_a_setattr_loop_keeps_them_name_hits(caller: Any, tmp_path: Path) -> None:
    root = tmp_path / "p"
    root.mkdir()
    (root / "app.py").write_text(
        APP
        + "\n\ndef load(param, data):\n    for key, value in data.items():\n        setattr(param, key, value)\n",
        encoding="utf-8",
    )
    call = caller(root)
    plan = call("ast_rename_symbol", selector="app.py::Param.required", new_name="mandatory")
    assert plan["blocked"] is True
    assert [(h["line"], h["kind"]) for h in plan["uncertain_references"]] == [(6, "string"), (10, "string")]
    assert "as data" not in plan["preview"]
    call.close()
