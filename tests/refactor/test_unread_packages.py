"""A project object given to a package astmcp cannot read may have any member called by name:
renaming one is refused until the dependency can be read; installing it (a ``.venv`` in the
project) relinks the index, and the package's own source then decides."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

APP = """\
from astmcp_fake_serializers import Wrapper


class Codec:
    def dumps(self, value):
        return str(value)

    def describe(self):
        return "codec"


wrapper = Wrapper(serializer=Codec())
"""

PACKAGE = """\
class Wrapper:
    def __init__(self, serializer=None):
        self.serializer = serializer

    def dump(self, value):
        return self.serializer.dumps(value)
"""


def _install(root: Path) -> None:
    """A virtualenv in the project holding the package (as `pip install` into `.venv` would)."""
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    site = root / ".venv" / "lib" / version / "site-packages" / "astmcp_fake_serializers"
    site.mkdir(parents=True)
    (root / ".venv" / "pyvenv.cfg").write_text("home = /usr/bin\n", encoding="utf-8")
    (site / "__init__.py").write_text(PACKAGE, encoding="utf-8")


def test_members_of_objects_given_to_unread_packages_are_refused_until_installed(
    caller: Any, tmp_path: Path
) -> None:
    root = tmp_path / "p"
    root.mkdir()
    (root / "app.py").write_text(APP, encoding="utf-8")
    before = caller(root)
    for member in ("dumps", "describe"):
        error = before.error("ast_rename_symbol", selector=f"app.py::Codec.{member}", new_name="renamed")
        assert error["code"] == "MUTATION_BLOCKED"
        assert error["details"]["unread_callers"] == [
            f"astmcp_fake_serializers.Wrapper(serializer=…).{member}"
        ]
        assert ".venv" in error["message"]
    before.close()

    _install(root)  # the index built before is reused, and relinked: the package is read now
    after = caller(root)
    error = after.error("ast_rename_symbol", selector="app.py::Codec.dumps", new_name="renamed")
    assert error["details"]["external_members"] == ["astmcp_fake_serializers.Wrapper.serializer.dumps"]
    plan = after("ast_rename_symbol", selector="app.py::Codec.describe", new_name="renamed")
    assert plan["blocked"] is False  # the package calls `dumps` only
