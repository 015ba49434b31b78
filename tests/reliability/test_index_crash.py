"""The index survives an indexer killed mid-run: the next query rebuilds what it needs."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

AST_TOOL = str(Path(sys.executable).with_name("ast-tool"))


def make_project(root: Path, files: int) -> None:
    for i in range(files):
        folder = root / f"pkg{i % 20}"
        folder.mkdir(exist_ok=True)
        (folder / f"mod{i}.py").write_text(
            f"def func_{i}(x):\n    return x + {i}\n\n\nclass Cls{i}:\n    pass\n"
        )


def test_a_killed_cold_index_leaves_a_usable_index(tmp_path: Path, caller: Any) -> None:
    make_project(tmp_path, 1200)
    proc = subprocess.Popen(
        [AST_TOOL, "index", "--full", "--root", str(tmp_path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    assert proc.stderr is not None
    proc.stderr.readline()  # the first progress line: parsing is under way
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=60)
    proc.stderr.close()
    call = caller(tmp_path)
    assert call("ast_list_files", limit=1)["total"] == 1200
    assert (
        call("ast_search_symbols", query="func_1199")["symbols"][0]["selector"]
        == "pkg19/mod1199.py::func_1199"
    )


def test_a_killed_refresh_after_edits_is_completed_by_the_next_query(tmp_path: Path, caller: Any) -> None:
    make_project(tmp_path, 300)
    assert (
        subprocess.run(
            [AST_TOOL, "index", "--root", str(tmp_path)], capture_output=True, timeout=300
        ).returncode
        == 0
    )
    for i in range(0, 300, 2):
        path = tmp_path / f"pkg{i % 20}" / f"mod{i}.py"
        path.write_text(path.read_text().replace(f"func_{i}(", f"renamed_{i}("))
    proc = subprocess.Popen(
        [AST_TOOL, "index", "--root", str(tmp_path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    assert proc.stderr is not None
    proc.stderr.readline()
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=60)
    proc.stderr.close()
    call = caller(tmp_path)
    assert call("ast_search_symbols", query="renamed_298")["total"] == 1
    assert call("ast_search_symbols", query="func_298")["total"] == 0
