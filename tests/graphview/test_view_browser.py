"""`ast-tool view` in a real headless Chromium: search a symbol, click it, see its callers."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

AST_TOOL = str(Path(sys.executable).with_name("ast-tool"))
ARTIFACTS = Path(__file__).resolve().parents[1] / ".artifacts"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

if CHROMIUM is None and os.environ.get("CI") != "true":
    pytest.skip("chromium is not installed (CI installs it)", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")


def write_page(root: Path, out: Path, *extra: str) -> None:
    done = subprocess.run(
        [AST_TOOL, "view", "--root", str(root), "--output", str(out), *extra],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr


def test_the_page_is_self_contained_with_no_remote_assets(fixture_project: Any, tmp_path: Path) -> None:
    out = tmp_path / "graph.html"
    write_page(fixture_project("python/basic"), out)
    html = out.read_text()
    assert "cytoscape" in html
    assert 'src="http' not in html and 'href="http' not in html
    assert "<script src=" not in html and "<link " not in html


def test_module_level_page_lists_importers(fixture_project: Any, tmp_path: Path) -> None:
    out = tmp_path / "modules.html"
    write_page(fixture_project("python/basic"), out, "--level", "module")
    html = out.read_text()
    assert '"source":"pkg/__init__.py","target":"pkg/store.py","kind":"imports"' in html


def test_search_click_and_callers_in_headless_chromium(fixture_project: Any, tmp_path: Path) -> None:
    from astmcp.graphview.view import make_server

    root = fixture_project("python/basic")
    out = tmp_path / "graph.html"
    write_page(root, out)
    server = make_server(out.read_text(), 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        with sync_api.sync_playwright() as play:
            browser = play.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
            page = browser.new_page(viewport={"width": 1200, "height": 800})
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(f"http://127.0.0.1:{server.server_port}/")
            page.fill("#search", "store")
            page.click("#results li[data-id='pkg/store.py::Store']")
            page.wait_for_selector("#callers li")
            callers = page.locator("#callers li").all_inner_texts()
            location = page.inner_text("#location")
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "graph-view.png"))
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    assert errors == []
    assert location == "pkg/store.py:19"
    assert "make_store" in callers  # pkg/sub/tools.py::make_store calls Store()
