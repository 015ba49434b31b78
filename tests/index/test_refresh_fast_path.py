"""A refresh where nothing changed reuses the folders' listings and the known files; every
kind of change is still seen by the very next refresh."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from linkers import Recorder

from astmcp.config import Config
from astmcp.index import listing
from astmcp.index.indexer import Index

HOUR_NS = 3600 * 1_000_000_000
TREE = {
    "a.py": "def alpha(): pass\n",
    "pkg/__init__.py": "",
    "pkg/mod.py": "def beta(): pass\n",
    "pkg/sub/deep.py": "def gamma(): pass\n",
    "other/o.py": "def omega(): pass\n",
    "pyproject.toml": '[project]\nname = "p"\n',
}


@pytest.fixture
def listed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The folders each walk lists afresh. Listings are trusted however recently their folder
    changed (no racy window), so the tree's folders get an old mtime below: every entry change
    then moves it, whatever the timestamp tick."""
    calls: list[str] = []
    real = listing.list_folder

    def spy(directory: str) -> listing.Listing | None:
        calls.append(Path(directory).name)
        return real(directory)

    monkeypatch.setattr(listing, "list_folder", spy)
    monkeypatch.setattr(listing, "RACY_NS", -HOUR_NS)
    return calls


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
def index(tmp_path: Path, listed: list[str], recorder: Recorder) -> Iterator[Index]:
    for rel, text in TREE.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    made = Index(tmp_path, Config(), [recorder])
    for folder in (tmp_path, tmp_path / "pkg", tmp_path / "pkg" / "sub", tmp_path / "other"):
        _age(folder)
    assert made.refresh().parsed == 5
    _fast_refresh(made, listed)
    recorder.calls.clear()
    yield made
    made.close()


def _age(path: Path) -> int:
    old = time.time_ns() - HOUR_NS
    os.utime(path, ns=(old, old))
    return old


def _fast_refresh(index: Index, listed: list[str]) -> None:
    """A refresh that finds nothing changed and lists no folder."""
    listed.clear()
    stats = index.refresh()
    assert (stats.parsed, stats.removed, listed) == (0, 0, [])


def _files(index: Index) -> list[str]:
    return [row[0] for row in index.conn.execute("SELECT path FROM files ORDER BY path")]


def _names(index: Index) -> list[str]:
    return [row[0] for row in index.conn.execute("SELECT name FROM symbols ORDER BY name")]


def test_a_refresh_with_nothing_changed_lists_no_folder(index: Index, listed: list[str]) -> None:
    _fast_refresh(index, listed)
    assert _files(index) == ["a.py", "other/o.py", "pkg/__init__.py", "pkg/mod.py", "pkg/sub/deep.py"]


def test_an_edit_keeping_size_and_timestamp_is_seen(tmp_path: Path, index: Index) -> None:
    target = tmp_path / "pkg" / "mod.py"
    before = target.stat()
    target.write_text("def bbbb(): pass\n", encoding="utf-8")  # same size as "def beta(): pass"
    os.utime(target, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert index.refresh().parsed == 1
    assert "bbbb" in _names(index) and "beta" not in _names(index)


def test_a_file_added_to_a_nested_folder_is_seen(tmp_path: Path, index: Index, listed: list[str]) -> None:
    (tmp_path / "pkg" / "sub" / "new.py").write_text("def fresh(): pass\n", encoding="utf-8")
    assert index.refresh().parsed == 1
    assert listed == ["sub"]  # only the folder whose entries changed is listed again
    assert "pkg/sub/new.py" in _files(index)


def test_deleted_and_renamed_files_are_seen(tmp_path: Path, index: Index) -> None:
    (tmp_path / "a.py").unlink()
    (tmp_path / "pkg" / "mod.py").rename(tmp_path / "pkg" / "renamed.py")
    (tmp_path / "other" / "o.py").rename(tmp_path / "pkg" / "sub" / "moved.py")
    stats = index.refresh()
    assert (stats.parsed, stats.removed) == (2, 3)
    assert _files(index) == ["pkg/__init__.py", "pkg/renamed.py", "pkg/sub/deep.py", "pkg/sub/moved.py"]


def test_new_and_removed_folders_are_seen(tmp_path: Path, index: Index) -> None:
    (tmp_path / "pkg" / "added" / "inner").mkdir(parents=True)
    (tmp_path / "pkg" / "added" / "inner" / "n.py").write_text("def n(): pass\n", encoding="utf-8")
    shutil.rmtree(tmp_path / "pkg" / "sub")
    stats = index.refresh()
    assert (stats.parsed, stats.removed) == (1, 1)
    assert "pkg/added/inner/n.py" in _files(index) and "pkg/sub/deep.py" not in _files(index)


def test_two_folders_swapping_names_are_listed_again(tmp_path: Path, index: Index) -> None:
    (tmp_path / "pkg" / "sub").rename(tmp_path / "swap")
    (tmp_path / "other").rename(tmp_path / "pkg" / "sub")
    (tmp_path / "swap").rename(tmp_path / "other")
    index.refresh()
    assert _files(index) == ["a.py", "other/deep.py", "pkg/__init__.py", "pkg/mod.py", "pkg/sub/o.py"]


def test_a_file_and_a_folder_trading_places_and_a_new_link_are_seen(tmp_path: Path, index: Index) -> None:
    (tmp_path / "a.py").unlink()
    (tmp_path / "a.py").mkdir()  # a folder named like a source file
    (tmp_path / "a.py" / "inside.py").write_text("def inside(): pass\n", encoding="utf-8")
    shutil.rmtree(tmp_path / "other")
    (tmp_path / "other").symlink_to(tmp_path / "pkg")  # links are never followed
    stats = index.refresh()
    assert (stats.removed, stats.skipped.get("symlink")) == (2, 1)
    assert _files(index) == ["a.py/inside.py", "pkg/__init__.py", "pkg/mod.py", "pkg/sub/deep.py"]


def test_a_new_gitignore_and_one_edited_in_place_are_seen(
    tmp_path: Path, index: Index, listed: list[str]
) -> None:
    (tmp_path / "pkg" / ".gitignore").write_text("b.py\n", encoding="utf-8")  # ignores nothing yet
    _age(tmp_path / "pkg")
    assert index.refresh().removed == 0
    _fast_refresh(index, listed)
    ignore = tmp_path / "pkg" / ".gitignore"
    before = ignore.stat()
    ignore.write_text("m*.py", encoding="utf-8")  # the folder's stat does not move
    os.utime(ignore, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert index.refresh().removed == 1
    assert listed == []
    assert "pkg/mod.py" not in _files(index)


def test_a_config_edit_keeping_size_and_timestamp_is_seen(
    tmp_path: Path, index: Index, recorder: Recorder
) -> None:
    config = tmp_path / "pyproject.toml"
    before = config.stat()
    config.write_text('[project]\nname = "q"\n', encoding="utf-8")
    os.utime(config, ns=(before.st_atime_ns, before.st_mtime_ns))
    index.refresh()
    assert [call.configs_changed for call in recorder.calls] == [True]


def test_a_new_config_file_is_seen(tmp_path: Path, index: Index, recorder: Recorder) -> None:
    (tmp_path / "pkg" / "package.json").write_text("{}", encoding="utf-8")
    index.refresh()
    assert [sorted(call.configs) for call in recorder.calls] == [["pkg/package.json", "pyproject.toml"]]
    assert recorder.calls[0].configs_changed


def test_an_entry_added_behind_a_restored_folder_mtime_is_seen(tmp_path: Path, index: Index) -> None:
    folder = tmp_path / "pkg"
    listed_stat = folder.stat()
    (folder / "hidden.py").write_text("def hidden(): pass\n", encoding="utf-8")
    # As `tar x` or `rsync -a` do: the folder's mtime put back. Only its ctime tells.
    while True:
        os.utime(folder, ns=(listed_stat.st_atime_ns, listed_stat.st_mtime_ns))
        if folder.stat().st_ctime_ns != listed_stat.st_ctime_ns:  # the next timestamp tick
            break
    assert index.refresh().parsed == 1
    assert "pkg/hidden.py" in _files(index)


def _settle(tmp_path: Path, index: Index) -> None:
    """Every file out of the racy window, and a refresh that writes nothing loads the known files."""
    for rel in TREE:
        _age(tmp_path / rel)
    index.refresh()
    assert index.refresh().parsed == 0


def test_a_refresh_after_its_own_write_parses_nothing_again(tmp_path: Path, index: Index) -> None:
    _settle(tmp_path, index)
    (tmp_path / "a.py").write_text("def changed(): pass\n", encoding="utf-8")
    assert index.refresh().parsed == 1
    assert index.refresh().parsed == 0  # re-hashed (racy), found equal to what was just written


def test_a_refresh_reloads_the_files_another_connection_wrote(tmp_path: Path, index: Index) -> None:
    _settle(tmp_path, index)
    (tmp_path / "a.py").write_text("def changed(): pass\n", encoding="utf-8")
    other = Index(tmp_path, Config())
    try:
        assert other.refresh().parsed == 1
    finally:
        other.close()
    # The other connection's row is current: nothing is parsed again here.
    assert index.refresh().parsed == 0
    assert "changed" in _names(index)


def test_a_folder_changed_within_the_racy_window_is_listed_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "a.py").write_text("", encoding="utf-8")  # the folder changed just now
    listings = listing.Listings()
    listings.begin()
    first = listings.get(str(tmp_path))
    listings.begin()
    assert listings.get(str(tmp_path)) is not first
    _age(tmp_path)
    monkeypatch.setattr(listing, "RACY_NS", -HOUR_NS)  # ctime is recent too: trust it for this check
    listings.begin()
    aged = listings.get(str(tmp_path))
    listings.begin()
    assert listings.get(str(tmp_path)) is aged
