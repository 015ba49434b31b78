"""Hostile trees: code that must never run, odd paths, odd bytes, parser abuse."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from astmcp.tools import registry

MARKER_MODULE = """import pathlib
pathlib.Path({marker!r}).write_text("executed")


def trap():
    pathlib.Path({marker!r}).write_text("executed")


if __name__ == "__main__":
    trap()
"""


def test_project_code_is_never_executed_by_any_tool(tmp_path: Path, caller: Any) -> None:
    root = tmp_path / "proj"
    root.mkdir()
    marker = tmp_path / "marker.txt"
    (root / "trap.py").write_text(MARKER_MODULE.format(marker=str(marker)))
    (root / "conftest.py").write_text(MARKER_MODULE.format(marker=str(marker)))
    (root / "setup.py").write_text(MARKER_MODULE.format(marker=str(marker)))
    (root / "trap.js").write_text(
        f"require('fs').writeFileSync({str(marker)!r}, 'x');\nfunction trap() {{}}\n"
    )
    call = caller(root)
    tools = registry()
    call("ast_list_files")
    call("ast_search_symbols", query="trap")
    call("ast_get_outline", file_path="trap.py")
    call("ast_get_symbol_source", selector="trap.py::trap")
    if "ast_find_references" in tools:
        call("ast_find_references", selector="trap.py::trap")
    if "ast_get_diagnostics" in tools:
        call("ast_get_diagnostics")
    if "ast_rename_symbol" in tools:
        call.raw("ast_rename_symbol", selector="trap.py::trap", new_name="snare")
    if "ast_replace_symbol_body" in tools:
        call.raw("ast_replace_symbol_body", selector="trap.py::trap", new_body="return 1\n")
    assert not marker.exists()


@pytest.mark.parametrize(
    "name",
    ["with space.py", "ünïcødé.py", "new\nline.py", "quote'\"s.py", "semi;colon.py", "-dash.py"],
)
def test_odd_file_names_are_indexed_and_addressable(tmp_path: Path, caller: Any, name: str) -> None:
    (tmp_path / name).write_text("def odd(): pass\n")
    call = caller(tmp_path)
    hit = call("ast_search_symbols", query="odd", detail="full")["symbols"][0]
    assert hit["file"] == name
    out = call("ast_get_symbol_source", selector=hit["selector"])
    assert out["text"] == "def odd(): pass\n"


def test_symlink_loops_and_escapes_are_refused_not_followed(tmp_path: Path, caller: Any) -> None:
    root = tmp_path / "proj"
    root.mkdir()
    (root / "a.py").write_text("def a(): pass\n")
    os.symlink(root / "loop1", root / "loop2")
    os.symlink(root / "loop2", root / "loop1")
    os.symlink("/etc", root / "etc_link")
    call = caller(root)
    assert [f["file"] for f in call("ast_list_files")["files"]] == ["a.py"]
    for path in ("loop1", "etc_link/passwd", "../proj/../../etc/passwd"):
        assert call.error("ast_get_outline", file_path=path)["code"] == "INVALID_INPUT"


@pytest.mark.parametrize(
    ("content", "expected_symbols"),
    [
        (b"\x00\x01\x02binary\xff\xfe", 0),
        (b"def f():\x00 pass\n", 0),
        (b"def f(): pass\n\xff\xfe\n", 0),
        ("def f(): pass\n".encode("utf-16"), 0),
        (b"\xef\xbb\xbfdef f(): pass\n", 1),
    ],
)
def test_binary_nul_invalid_utf8_and_utf16_files_are_reported_not_fatal(
    tmp_path: Path, caller: Any, content: bytes, expected_symbols: int
) -> None:
    (tmp_path / "odd.py").write_bytes(content)
    (tmp_path / "good.py").write_text("def good(): pass\n")
    call = caller(tmp_path)
    files = {f["file"]: f for f in call("ast_list_files")["files"]}
    assert files["odd.py"]["symbols"] == expected_symbols
    assert call("ast_search_symbols", query="good")["total"] == 1


def test_a_50_megabyte_file_is_skipped_by_the_size_limit(tmp_path: Path, caller: Any) -> None:
    with open(tmp_path / "huge.py", "wb") as handle:
        handle.truncate(50 * 1024 * 1024)
    (tmp_path / "small.py").write_text("def small(): pass\n")
    call = caller(tmp_path)
    assert [f["file"] for f in call("ast_list_files")["files"]] == ["small.py"]


@pytest.mark.parametrize(
    "source",
    [
        "x = " + "(" * 1000 + "1" + ")" * 1000 + "\n",
        "x = " + "[" * 1000 + "]" * 1000 + "\n",
        "x = a" + "".join(f".m{i}()" for i in range(3000)) + "\n",
        "x = " + " + ".join(["1"] * 20000) + "\n",
        "x = '" + "a" * 1_500_000 + "'\n",
        "def f():\n" + "".join("    " * (i + 1) + "if x:\n" for i in range(90)) + "    " * 91 + "pass\n",
    ],
    ids=["parens", "brackets", "call-chain", "long-sum", "huge-string", "deep-blocks"],
)
def test_parser_abuse_is_answered_and_the_process_survives(tmp_path: Path, caller: Any, source: str) -> None:
    (tmp_path / "abuse.py").write_text(source)
    (tmp_path / "fine.py").write_text("def fine(): pass\n")
    call = caller(tmp_path)
    assert call("ast_search_symbols", query="fine")["total"] == 1
    call("ast_get_outline", file_path="abuse.py")
    call("ast_list_files")
