"""A project object turned into an outside class's with ``cast(T, obj)`` has its members called by
T's names wherever the T is used: click yields ``t.cast(t.TextIO, _PagerWriter(…))`` from
``get_pager_file`` and its callers close the pager with ``pager.close()``, which a rename of
``_PagerWriter.close`` left reaching the wrapped stream through ``__getattr__``."""

from __future__ import annotations

import typing
from pathlib import Path
from typing import Any

from astmcp.resolve.python_external import class_defines
from astmcp.tools import call_tool
from astmcp.workspace import Workspaces

_PAGER = """import contextlib
import io
import typing as t


class _Writer:
    def __init__(self, stream: t.TextIO) -> None:
        self._stream = stream
        self.color = False

    def write(self, text: str) -> int:
        return self._stream.write(text)

    def close(self) -> None:
        self._stream.flush()

    def __getattr__(self, name: str) -> t.Any:
        return getattr(self._stream, name)


class _Plain:
    def close(self) -> None:
        pass


@contextlib.contextmanager
def pager_file() -> t.Iterator[t.TextIO]:
    writer = _Writer(io.StringIO())
    yield t.cast(t.TextIO, writer)


def plain() -> _Plain:
    return _Plain()
"""

_USE = """from pager import pager_file


def show() -> None:
    with pager_file() as pager:
        pager.write("x")
        pager.close()
"""


def _rename(tmp_path: Path, selector: str) -> tuple[bool, dict[str, Any]]:
    root = tmp_path / "p"
    root.mkdir(parents=True)
    (root / "pager.py").write_text(_PAGER, encoding="utf-8")
    (root / "use.py").write_text(_USE, encoding="utf-8")
    workspaces = Workspaces(root)
    try:
        result = call_tool(workspaces, "ast_rename_symbol", {"selector": selector, "new_name": "renamed"})
    finally:
        workspaces.close()
    return result.is_error, result.data


def test_a_member_the_outside_class_declares_is_refused_on_a_cast_object(tmp_path: Path) -> None:
    refused, data = _rename(tmp_path, "pager.py::_Writer.close")
    assert refused and data["error"]["code"] == "MUTATION_BLOCKED"
    assert data["error"]["details"]["external_members"] == ["typing.TextIO.close"]
    refused, data = _rename(tmp_path / "write", "pager.py::_Writer.write")
    assert refused and data["error"]["details"]["external_members"] == ["typing.TextIO.write"]


def test_members_the_outside_class_does_not_declare_and_uncast_classes_rename(tmp_path: Path) -> None:
    refused, data = _rename(tmp_path, "pager.py::_Writer.color")
    assert not refused and data["blocked"] is False
    refused, data = _rename(tmp_path / "plain", "pager.py::_Plain.close")
    assert not refused and data["blocked"] is False


def test_a_generic_outside_base_gives_its_members() -> None:
    # `class TextIO(IO[str])`: IO's members are TextIO's (a subscripted base is its origin's)
    assert typing.TextIO.__mro__[1] is typing.IO
    assert class_defines("typing.TextIO", "close") is True
    assert class_defines("typing.TextIO", "color") is False
