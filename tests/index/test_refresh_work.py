"""How much work a refresh does: nothing when nothing changed, a re-hash for racy files,
the same facts whether parsed in worker processes or in-process."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from linkers import Recorder

from astmcp.config import Config
from astmcp.index.indexer import Index


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
def index(tmp_path: Path, recorder: Recorder) -> Iterator[Index]:
    (tmp_path / "a.py").write_text("def first(): pass\n", encoding="utf-8")
    (tmp_path / "b.py").write_text("class B: pass\n", encoding="utf-8")
    made = Index(tmp_path, Config(), [recorder])
    yield made
    made.close()


def _age(path: Path, seconds: int) -> int:
    """Set the file's mtime ``seconds`` in the past (well outside the racy window)."""
    mtime_ns = time.time_ns() - seconds * 1_000_000_000
    os.utime(path, ns=(mtime_ns, mtime_ns))
    return mtime_ns


def test_a_refresh_with_nothing_changed_parses_and_links_nothing(
    tmp_path: Path, index: Index, recorder: Recorder
) -> None:
    for name in ("a.py", "b.py"):
        _age(tmp_path / name, 3600)
    assert index.refresh().parsed == 2
    recorder.calls.clear()
    again = index.refresh()
    assert (again.files, again.parsed, again.removed) == (2, 0, 0)
    assert recorder.calls == []


def test_a_racy_file_is_rehashed_and_an_edit_behind_an_unchanged_stat_is_seen(
    tmp_path: Path, index: Index, recorder: Recorder
) -> None:
    target = tmp_path / "a.py"
    mtime_ns = target.stat().st_mtime_ns  # just written: inside the racy window
    assert index.refresh().parsed == 2
    target.write_text("def other(): pass\n", encoding="utf-8")  # same size
    os.utime(target, ns=(mtime_ns, mtime_ns))
    recorder.calls.clear()
    assert index.refresh().parsed == 1
    assert recorder.calls[0].changed_paths == ["a.py"]
    names = [row[0] for row in index.conn.execute("SELECT name FROM symbols ORDER BY name")]
    assert names == ["B", "other"]


def test_a_racy_file_with_unchanged_content_is_not_parsed_again(
    tmp_path: Path, index: Index, recorder: Recorder
) -> None:
    assert index.refresh().parsed == 2
    recorder.calls.clear()
    # Both files are still racy (written a moment ago): re-hashed, found equal, not parsed.
    assert index.refresh().parsed == 0
    assert recorder.calls == []


def test_many_touched_files_with_unchanged_content_are_settled_without_the_parser_pool(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for n in range(240):  # above the threshold for parallel parsing
        (tmp_path / f"m{n:03}.py").write_text(f"def f{n}(): pass\n", encoding="utf-8")
    index = Index(tmp_path, Config(workers=2))
    try:
        assert index.refresh().parsed == 240
        for n in range(240):  # a checkout or a formatter rewrote the same bytes
            _age(tmp_path / f"m{n:03}.py", 60)

        def no_pool(*args: object, **kwargs: object) -> None:
            raise AssertionError("unchanged files were sent to the parser pool")

        monkeypatch.setattr("concurrent.futures.ProcessPoolExecutor", no_pool)
        assert index.refresh().parsed == 0
        (tmp_path / "m007.py").write_text("def g(): pass\n", encoding="utf-8")  # one real edit
        assert index.refresh().parsed == 1
        assert [r[0] for r in index.conn.execute("SELECT name FROM symbols WHERE name = 'g'")] == ["g"]
    finally:
        index.close()


def test_facts_parsed_in_worker_processes_equal_facts_parsed_in_process(tmp_path: Path) -> None:
    for n in range(240):  # above the threshold for parallel parsing
        (tmp_path / f"m{n:03}.py").write_text(
            f'"""Module {n}."""\nimport os\n\n\n@dec\nclass C{n}(Base):\n'
            f"    x: int = {n}\n\n    def m(self, a: int = {n}) -> str:\n        self.y = a\n"
            f"        return 'é{n}'\n\n\ndef f{n}(*args, **kw): ...\n",
            encoding="utf-8",
        )
    (tmp_path / "broken.py").write_text("def (:\n", encoding="utf-8")
    tables = ("files", "symbols", "imports", "diagnostics")

    def dump(workers: int) -> dict[str, list[tuple[object, ...]]]:
        index = Index(tmp_path, Config(workers=workers))
        try:
            index.refresh(full=True)
            out = {}
            for table in tables:
                columns = [r[1] for r in index.conn.execute(f"PRAGMA table_info({table})")]
                keep = [c for c in columns if c not in ("id", "file_id", "indexed_ns")]
                out[table] = sorted(index.conn.execute(f"SELECT {', '.join(keep)} FROM {table}").fetchall())
            return out
        finally:
            index.close()

    parallel = dump(2)
    assert len(parallel["files"]) == 241 and len(parallel["symbols"]) >= 240 * 5
    assert parallel == dump(1)


def test_progress_reports_parsing_then_linking_then_done(tmp_path: Path, index: Index) -> None:
    seen: list[tuple[str, int, int]] = []
    index.refresh(full=True, progress=lambda phase, done, total: seen.append((phase, done, total)))
    assert [s for s in seen if s[0] == "parse"][-1] == ("parse", 2, 2)
    assert [s[0] for s in seen][-2:] == ["link", "done"]
    assert seen[-1] == ("done", 2, 2)


def test_a_full_index_records_its_timings_per_linker(index: Index) -> None:
    index.refresh(full=True)
    stored = dict(index.conn.execute("SELECT key, value FROM stats").fetchall())
    for key in ("last_full_s", "last_full_parse_s", "last_full_link_s", "last_full_link_Recorder_s"):
        assert float(stored[key]) >= 0
    assert stored["last_full_parsed"] == "2"
