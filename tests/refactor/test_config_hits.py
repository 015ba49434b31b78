"""Configuration files name Python objects by dotted path: pytest's ``filterwarnings`` names a
warning class (marshmallow's pyproject names ``marshmallow.warnings.ChangedInMarshmallow4Warning``;
renaming the class left pytest unable to start), entry points name functions (``pkg.cli:main``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from astmcp.tools import call_tool
from astmcp.workspace import Workspaces

_PYPROJECT = """[project]
name = "pkg"

[project.scripts]
pkg = "pkg.cli:main"

[tool.pytest.ini_options]
filterwarnings = [
  "error",
  "ignore:Old style:pkg.warn.OldWarning",
  "ignore::pkg.warn.OldWarningTwo",
]
"""

_WARN = """class OldWarning(UserWarning):
    pass


class OldWarningTwo(UserWarning):
    pass
"""

_CLI = """from pkg.warn import OldWarning


def main() -> OldWarning:
    return OldWarning("Old style")
"""


def _rename(tmp_path: Path, selector: str, new_name: str, uncertain: str = "block") -> dict[str, Any]:
    (tmp_path / "src" / "pkg").mkdir(parents=True, exist_ok=True)
    (tmp_path / "pyproject.toml").write_text(_PYPROJECT, encoding="utf-8")
    (tmp_path / "src" / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "src" / "pkg" / "warn.py").write_text(_WARN, encoding="utf-8")
    (tmp_path / "src" / "pkg" / "cli.py").write_text(_CLI, encoding="utf-8")
    workspaces = Workspaces(tmp_path)
    try:
        result = call_tool(
            workspaces,
            "ast_rename_symbol",
            {"selector": selector, "new_name": new_name, "uncertain": uncertain},
        )
    finally:
        workspaces.close()
    assert not result.is_error, result.text
    return result.data


def test_a_dotted_path_in_the_configuration_is_a_name_hit(tmp_path: Path) -> None:
    plan = _rename(tmp_path, "src/pkg/warn.py::OldWarning", "LegacyWarning")
    assert plan["blocked"] is True
    hits = [(h["file"], h["line"], h["column"], h["end_column"]) for h in plan["uncertain_references"]]
    # `pkg.warn.OldWarningTwo` is another name
    assert hits == [("pyproject.toml", 10, 30, 40)]


def test_with_uncertain_include_the_configuration_is_edited(tmp_path: Path) -> None:
    plan = _rename(tmp_path, "src/pkg/warn.py::OldWarning", "LegacyWarning", uncertain="include")
    assert plan["blocked"] is False
    assert "pyproject.toml" in [f["file"] for f in plan["affected_files"]]
    assert '+  "ignore:Old style:pkg.warn.LegacyWarning",' in plan["preview"]
    assert '-  "ignore::pkg.warn.OldWarningTwo",' not in plan["preview"]  # another name: untouched


def test_an_entry_point_names_a_function(tmp_path: Path) -> None:
    plan = _rename(tmp_path, "src/pkg/cli.py::main", "run")
    assert [(h["file"], h["line"]) for h in plan["uncertain_references"]] == [("pyproject.toml", 5)]
