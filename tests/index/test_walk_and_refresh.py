"""The walker's skips and the index following the disk between queries."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from astmcp.config import Config, load_config
from astmcp.errors import InvalidInput
from astmcp.index.walker import walk


def paths(root: Path, config: Config | None = None) -> set[str]:
    return {e.path for e in walk(root, config or Config()).files}


def test_nested_gitignore_rules_and_negations_are_honoured(tmp_path: Path) -> None:
    (tmp_path / ".gitignore").write_text("build/\n*.gen.py\n!keep.gen.py\n")
    (tmp_path / "build").mkdir()
    (tmp_path / "build" / "x.py").write_text("")
    (tmp_path / "a.gen.py").write_text("")
    (tmp_path / "keep.gen.py").write_text("")
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / ".gitignore").write_text("local.py\n")
    (sub / "local.py").write_text("")
    (sub / "kept.py").write_text("")
    (tmp_path / "local.py").write_text("")  # only ignored below sub/
    result = walk(tmp_path, Config())
    assert {e.path for e in result.files} == {"keep.gen.py", "sub/kept.py", "local.py"}
    assert result.skipped["ignored"] == 3


def test_fixed_folders_and_virtualenvs_are_always_skipped(tmp_path: Path) -> None:
    for folder in (".git", "node_modules", "__pycache__", ".astmcp", "env_with_cfg"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "m.py").write_text("")
    (tmp_path / "env_with_cfg" / "pyvenv.cfg").write_text("")
    (tmp_path / "main.py").write_text("")
    assert paths(tmp_path) == {"main.py"}


def test_symlinks_are_never_followed_and_are_counted(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.py").write_text("")
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.py").write_text("")
    os.symlink(outside, root / "linked_dir")
    os.symlink(outside / "secret.py", root / "linked.py")
    os.symlink(root, root / "loop")
    result = walk(root, Config())
    assert {e.path for e in result.files} == {"a.py"}
    assert result.skipped["symlink"] == 3


def test_size_and_count_limits_skip_and_count(tmp_path: Path) -> None:
    (tmp_path / "big.py").write_text("x = 1\n" * 100)
    for i in range(5):
        (tmp_path / f"f{i}.py").write_text("")
    result = walk(tmp_path, Config(max_file_bytes=100, max_files=3))
    assert len(result.files) == 3
    assert result.skipped["too_large"] == 1
    assert result.skipped["file_limit"] == 2


def test_only_source_languages_are_indexed(tmp_path: Path) -> None:
    for name in (
        "a.py",
        "b.pyi",
        "c.ts",
        "d.tsx",
        "e.mts",
        "f.cts",
        "g.js",
        "h.jsx",
        "i.mjs",
        "j.cjs",
        "k.txt",
        "l.json",
        "Makefile",
    ):
        (tmp_path / name).write_text("")
    assert paths(tmp_path) == {
        "a.py",
        "b.pyi",
        "c.ts",
        "d.tsx",
        "e.mts",
        "f.cts",
        "g.js",
        "h.jsx",
        "i.mjs",
        "j.cjs",
    }


def test_the_index_lives_in_a_self_ignoring_folder(tmp_path: Path, caller: Any) -> None:
    (tmp_path / "a.py").write_text("def f(): pass\n")
    caller(tmp_path)("ast_list_files")
    assert (tmp_path / ".astmcp" / "index.db").is_file()
    assert (tmp_path / ".astmcp" / ".gitignore").read_text() == "*\n"


def test_answers_follow_edits_additions_and_deletions(tmp_path: Path, caller: Any) -> None:
    (tmp_path / "a.py").write_text("def first(): pass\n")
    call = caller(tmp_path)
    assert call("ast_search_symbols", query="first")["total"] == 1
    (tmp_path / "a.py").write_text("def second(): pass\n")
    assert call("ast_search_symbols", query="first")["total"] == 0
    assert call("ast_search_symbols", query="second")["total"] == 1
    (tmp_path / "b.py").write_text("def third(): pass\n")
    assert call("ast_search_symbols", query="third")["total"] == 1
    (tmp_path / "b.py").unlink()
    assert call("ast_search_symbols", query="third")["total"] == 0
    assert [f["file"] for f in call("ast_list_files")["files"]] == ["a.py"]


def test_same_size_same_mtime_edit_is_still_seen(tmp_path: Path, caller: Any) -> None:
    target = tmp_path / "a.py"
    target.write_text("def aaaa(): pass\n")
    stat = target.stat()
    call = caller(tmp_path)
    assert call("ast_search_symbols", query="aaaa")["total"] == 1
    target.write_text("def bbbb(): pass\n")
    os.utime(target, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert call("ast_search_symbols", query="bbbb")["total"] == 1


def test_symbol_source_reads_the_current_disk(tmp_path: Path, caller: Any) -> None:
    target = tmp_path / "a.py"
    target.write_text("def f():\n    return 1\n")
    call = caller(tmp_path)
    assert "return 1" in call("ast_get_symbol_source", selector="a.py::f")["text"]
    target.write_text("\n\ndef f():\n    return 2\n")
    out = call("ast_get_symbol_source", selector="a.py::f")
    assert out["line"] == 3 and "return 2" in out["text"]


def test_a_corrupted_index_is_rebuilt_not_trusted(tmp_path: Path, caller: Any) -> None:
    (tmp_path / "a.py").write_text("def f(): pass\n")
    call = caller(tmp_path)
    assert call("ast_search_symbols", query="f")["total"] == 1
    call.close()
    db = tmp_path / ".astmcp" / "index.db"
    for suffix in ("-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    db.write_bytes(b"this is not a database" * 100)
    assert caller(tmp_path)("ast_search_symbols", query="f")["total"] == 1


def test_unknown_configuration_keys_are_errors_naming_the_key(tmp_path: Path) -> None:
    (tmp_path / ".astmcp.toml").write_text("max_files = 10\nmax_filez = 3\n")
    with pytest.raises(InvalidInput, match="max_filez"):
        load_config(tmp_path)


def test_configuration_from_pyproject_applies(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.astmcp]\nmax_file_bytes = 10\nexclude = ["gen/"]\n')
    config = load_config(tmp_path)
    assert config.max_file_bytes == 10 and config.exclude == ("gen/",)


def test_malformed_configuration_is_reported(tmp_path: Path) -> None:
    (tmp_path / ".astmcp.toml").write_text("max_files = = 3\n")
    with pytest.raises(InvalidInput, match="malformed"):
        load_config(tmp_path)


def test_query_connections_are_read_only(tmp_path: Path) -> None:
    import sqlite3

    from astmcp.workspace import Workspace

    (tmp_path / "a.py").write_text("def f(): pass\n")
    ws = Workspace(tmp_path)
    try:
        conn = ws.db()
        assert conn.execute("SELECT COUNT(*) FROM files").fetchone()[0] == 1
        with pytest.raises(sqlite3.OperationalError):
            conn.execute("DELETE FROM files")
        assert ws.db().execute("SELECT COUNT(*) FROM files").fetchone()[0] == 1
    finally:
        ws.index.close()
