"""Small pieces: text round trips, edits, the state-dir rule, private files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from astmcp.errors import EncodingError, InvalidInput
from astmcp.refactor.state import read_private, state_dir_from_env, write_private
from astmcp.refactor.textio import SourceText, TextEdit, apply_edits


def test_source_text_round_trips_bom_and_crlf_and_localizes_inserted_newlines() -> None:
    data = b"\xef\xbb\xbfa = 1\r\nb = 2\r\n"
    source = SourceText.decode(data, "m.py")
    assert source.bom and source.newline == "\r\n" and source.text == "a = 1\r\nb = 2\r\n"
    assert source.encode(source.text) == data
    assert source.localize("x\ny\n") == "x\r\ny\r\n"


def test_mixed_line_endings_keep_every_untouched_byte() -> None:
    data = b"a = 1\nb = 2\r\nc = 3\n"
    source = SourceText.decode(data, "m.py")
    edited = apply_edits(source.text, [TextEdit(0, 1, "z")])
    assert source.encode(edited) == b"z = 1\nb = 2\r\nc = 3\n"


def test_non_utf8_bytes_are_an_encoding_error() -> None:
    with pytest.raises(EncodingError):
        SourceText.decode("café".encode("latin-1"), "m.py")


def test_overlapping_edits_are_refused_and_duplicates_applied_once() -> None:
    assert apply_edits("abcdef", [TextEdit(1, 3, "X"), TextEdit(1, 3, "X")]) == "aXdef"
    with pytest.raises(ValueError):
        apply_edits("abcdef", [TextEdit(1, 3, "X"), TextEdit(2, 4, "Y")])


def test_state_dir_prefers_the_explicit_variable_then_xdg_then_home() -> None:
    assert state_dir_from_env({"AST_TOOL_STATE_DIR": "/s", "XDG_STATE_HOME": "/x", "HOME": "/h"}) == Path(
        "/s"
    )
    assert state_dir_from_env({"XDG_STATE_HOME": "/x", "HOME": "/h"}) == Path("/x/ast-tool")
    assert state_dir_from_env({"HOME": "/h"}) == Path("/h/.local/state/ast-tool")


def test_private_files_are_written_0600_in_0700_folders_and_read_back(tmp_path: Path) -> None:
    target = tmp_path / "state" / "plans" / "x.astplan"
    write_private(target, b"{}")
    assert os.stat(target).st_mode & 0o777 == 0o600
    assert os.stat(target.parent).st_mode & 0o777 == 0o700
    assert read_private(target) == b"{}"
    assert not [n for n in os.listdir(target.parent) if n.startswith(".tmp-")]


def test_a_missing_private_file_is_invalid_input(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="does not exist"):
        read_private(tmp_path / "nope.astplan")
