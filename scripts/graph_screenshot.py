"""Regenerate the README's screenshot of rich's symbol graph (`docs/images/rich-graph.png`).

    python scripts/graph_screenshot.py [--out docs/images/rich-graph.png]

Needs Debian's `chromium` and the `playwright` package (both in the test set-up); rich 15.0.0 is fetched
from PyPI into benchmarks/.cache.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--out", default=str(REPO / "docs" / "images" / "rich-graph.png"))
    parser.add_argument("--max-nodes", default="80")
    args = parser.parse_args()
    from _corpora import fetch_pypi_sdist
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        print("chromium is not installed (apt-get install chromium)", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory() as tmp:
        rich = Path(tmp) / "rich"
        shutil.copytree(fetch_pypi_sdist("rich", "15.0.0") / "rich", rich)
        page_file = Path(tmp) / "graph.html"
        ast_tool = str(Path(sys.executable).with_name("ast-tool"))
        subprocess.run(
            [
                ast_tool,
                "view",
                "--root",
                str(rich),
                "--max-nodes",
                args.max_nodes,
                "--output",
                str(page_file),
            ],
            check=True,
        )
        with sync_playwright() as play:
            browser = play.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.goto(page_file.as_uri())
            page.fill("#search", "Console")
            page.click("#results li[data-id='console.py::Console']")
            page.wait_for_selector("#callers li")
            page.screenshot(path=args.out)
            browser.close()
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
