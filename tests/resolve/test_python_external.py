"""What astmcp reads of outside classes: their members and ancestors, from source or, where
typing makes classes with functions, from what those make."""

from __future__ import annotations

from pathlib import Path

from astmcp.resolve.python_external import (
    class_ancestors,
    class_defines,
    held_member_reads,
    holds_anything,
    kept_argument,
)
from astmcp.tools import call_tool
from astmcp.workspace import Workspaces


def test_a_class_defined_in_a_top_level_try_or_if_block_is_read() -> None:
    # abc defines ABCMeta in the `else` of `try: from _abc import …`
    assert class_defines("abc.ABCMeta", "register") is True
    assert class_defines("abc.ABCMeta", "opts") is False
    assert class_ancestors("abc.ABCMeta") == frozenset({"abc.ABCMeta", "builtins.type", "builtins.object"})


def test_an_outside_attribute_set_to_what_users_pass_may_hold_a_project_object() -> None:
    assert holds_anything("logging.LogRecord.().msg") is True  # `self.msg = msg`
    assert holds_anything("argparse.Namespace.().verbose") is True  # set by its users
    assert holds_anything("logging.LogRecord.().levelname") is False  # computed by the class
    assert holds_anything("subprocess.Popen.().stdout") is False  # `self.stdout = io.open(…)`
    assert holds_anything("logging.LogRecord.().getMessage") is False  # a method
    assert holds_anything("logging.LogRecord.getMessage") is False  # no instance's attribute
    assert holds_anything("threading.local.().user") is True  # compiled, takes any attribute
    assert holds_anything("threading.local.().__init__") is False
    assert holds_anything("logging.root.user") is True  # `root = RootLogger(WARNING)`
    assert holds_anything("logging.root.handlers") is False
    assert holds_anything("os.path.join") is False  # a module's function


def test_what_an_outside_class_keeps_of_its_construction_and_calls_on_it() -> None:
    # `StreamHandler(stream)`: `self.stream = stream`, then `self.stream.write(msg)`
    assert kept_argument("logging.StreamHandler", "#0") == frozenset({"stream"})
    assert kept_argument("logging.StreamHandler", "=stream") == frozenset({"stream"})
    assert kept_argument("logging.StreamHandler", "=level") == frozenset()
    assert {"write", "flush"} <= held_member_reads("logging.StreamHandler", "stream")
    # the first `__init__` up the bases runs: FileHandler's keeps a path made of its argument
    assert kept_argument("logging.FileHandler", "#0") == frozenset()


def test_named_tuple_and_typed_dict_bases_are_a_tuple_and_a_dict() -> None:
    assert class_defines("typing.NamedTuple", "_replace") is True
    assert class_defines("typing.NamedTuple", "count") is True
    assert class_defines("typing.NamedTuple", "command") is False
    assert class_defines("typing.TypedDict", "setdefault") is True
    assert class_defines("typing.TypedDict", "total_size") is False
    assert class_ancestors("typing.NamedTuple") == frozenset(
        {"typing.NamedTuple", "builtins.tuple", "builtins.object"}
    )


def test_a_metaclass_attribute_renames_without_an_unread_base(tmp_path: Path) -> None:
    (tmp_path / "meta.py").write_text(
        "from abc import ABCMeta\n\n\nclass Meta(ABCMeta):\n    registry = None\n\n\n"
        "class Base(metaclass=Meta):\n    pass\n\n\nprint(Meta.registry)\n",
        encoding="utf-8",
    )
    workspaces = Workspaces(tmp_path)
    try:
        plan = call_tool(
            workspaces, "ast_rename_symbol", {"selector": "meta.py::Meta.registry", "new_name": "known"}
        )
    finally:
        workspaces.close()
    assert not plan.is_error, plan.text
    assert plan.data["blocked"] is False
    assert plan.data["reference_count"] == 2
