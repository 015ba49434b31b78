"""`ast-tool export`: deterministic Mermaid, DOT and JSON, bounded, accepted by real parsers."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

AST_TOOL = str(Path(sys.executable).with_name("ast-tool"))
GOLDEN = Path(__file__).parent / "golden"
CACHE = Path(os.environ.get("ASTMCP_TEST_CACHE", Path.home() / ".cache" / "astmcp-tests"))
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def export(root: Path, *args: str) -> str:
    done = subprocess.run(
        [AST_TOOL, "export", "--root", str(root), *args], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("module.mmd", ["--format", "mermaid"]),
        ("module.dot", ["--format", "dot"]),
        ("module.json", ["--format", "json"]),
        ("symbol.mmd", ["--format", "mermaid", "--level", "symbol"]),
        ("symbol-focus.dot", ["--format", "dot", "--level", "symbol", "--focus", "pkg/store.py"]),
    ],
)
def test_export_matches_its_golden_file(fixture_project: Any, name: str, args: list[str]) -> None:
    text = export(fixture_project("python/basic"), *args)
    golden = GOLDEN / name
    if os.environ.get("ASTMCP_UPDATE_GOLDEN") == "1":
        golden.write_text(text)
    assert text == golden.read_text()


def test_export_is_deterministic_across_fresh_indexes(fixture_project: Any) -> None:
    root = fixture_project("python/basic")
    first = export(root, "--format", "dot", "--level", "symbol")
    shutil.rmtree(root / ".astmcp", ignore_errors=True)
    assert export(root, "--format", "dot", "--level", "symbol") == first


def test_max_nodes_keeps_the_most_connected_and_notes_the_rest(fixture_project: Any) -> None:
    root = fixture_project("python/basic")
    data = json.loads(export(root, "--format", "json", "--max-nodes", "2"))
    assert [n["id"] for n in data["nodes"]] == ["pkg/store.py", "pkg/sub/tools.py"]
    assert data["omitted"]["nodes"] == 4
    assert "left out: 4 nodes" in export(root, "--format", "mermaid", "--max-nodes", "2")


def test_output_file_option_writes_the_same_text(fixture_project: Any, tmp_path: Path) -> None:
    root = fixture_project("python/basic")
    out = tmp_path / "g.dot"
    export(root, "--format", "dot", "-o", str(out))
    assert out.read_text() == export(root, "--format", "dot")


# pydot's pyparsing grammar uses names pyparsing now deprecates: their warning, not ours.
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_dot_output_is_accepted_by_pydot(fixture_project: Any) -> None:
    pydot = pytest.importorskip("pydot")
    text = export(fixture_project("python/basic"), "--format", "dot", "--level", "symbol")
    graphs = pydot.graph_from_dot_data(text)
    assert graphs is not None and len(graphs) == 1
    edges = {(e.get_source().strip('"'), e.get_destination().strip('"')) for e in graphs[0].get_edges()}
    assert ("pkg/sub/tools.py::make_store", "pkg/store.py::Store") in edges


def _mermaid_js() -> Path:
    home = CACHE / "mermaid"
    script = home / "node_modules" / "mermaid" / "dist" / "mermaid.min.js"
    if not script.exists():
        npm = shutil.which("npm")
        if npm is None:
            pytest.skip("npm is not available")
        home.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [npm, "install", "--prefix", str(home), "--no-audit", "--no-fund", "mermaid@11"],
            check=True,
            capture_output=True,
            timeout=600,
        )
    return script


@pytest.mark.skipif(CHROMIUM is None and os.environ.get("CI") != "true", reason="chromium is not installed")
def test_mermaid_output_is_accepted_by_mermaids_own_parser(fixture_project: Any) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    root = fixture_project("python/basic")
    texts = [export(root, "--format", "mermaid"), export(root, "--format", "mermaid", "--level", "symbol")]
    script = _mermaid_js()
    with sync_api.sync_playwright() as play:
        browser = play.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page()
        page.set_content("<html><body></body></html>")
        page.add_script_tag(path=str(script))
        results = [
            page.evaluate(
                "async (t) => { try { await mermaid.parse(t); return 'ok'; } catch (e) { return String(e); } }",
                text,
            )
            for text in texts
        ]
        bad = page.evaluate(
            "async () => { try { await mermaid.parse('flowchart LR\\n  a[[[ -->'); return 'ok'; }"
            " catch (e) { return 'rejected'; } }"
        )
        browser.close()
    assert results == ["ok", "ok"]
    assert bad == "rejected"  # the parser really checks
