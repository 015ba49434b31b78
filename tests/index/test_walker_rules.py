"""The walker's fast .gitignore path answers exactly as pathspec does."""

from __future__ import annotations

from pathlib import Path

import pathspec
import pytest

from astmcp.config import Config
from astmcp.index.walker import walk

TREE = (
    "a.py",
    "b.pyc.py",
    "build/x.py",
    "src/build/y.py",
    "src/app.py",
    "src/app_test.py",
    "src/gen/z.py",
    "src/deep/er/gen/w.py",
    "docs/conf.py",
    "docs/_build/html.py",
    "pkg/[x].py",
    "pkg/weird name.py",
    "pkg/#hash.py",
    "pkg/m1.py",
    "pkg/m22.py",
    "tests/report/r.py",
    "tests/unit/t.py",
    "lib/vendor/v.py",
    "vendor/top.py",
)

PATTERNS = (
    ("build/",),
    ("/build/",),
    ("*_test.py", "docs/_build/"),
    ("src/**/gen/",),
    ("**/gen",),
    ("pkg/m?.py",),
    ("pkg/\\[x\\].py", "pkg/weird name.py"),
    ("\\#hash.py", "# a comment", ""),
    ("/vendor", "tests/*/"),
    ("*.py",),
    ("src/*", "!src/app.py"),
    ("*.py", "!a.py", "!**/t.py"),
)


def expected(root: Path, lines: tuple[str, ...]) -> set[str]:
    """git's answer: a file is out when it or any folder above it matches."""
    spec = pathspec.GitIgnoreSpec.from_lines(lines)
    out = set()
    for rel in TREE:
        parts = rel.split("/")
        folders = ["/".join(parts[:n]) + "/" for n in range(1, len(parts))]
        if any(spec.match_file(folder) for folder in folders) or spec.match_file(rel):
            continue
        out.add(rel)
    return out


@pytest.mark.parametrize("lines", PATTERNS, ids=lambda lines: " | ".join(lines))
def test_gitignore_rules_select_the_same_files_as_pathspec(tmp_path: Path, lines: tuple[str, ...]) -> None:
    for rel in TREE:
        target = tmp_path / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("", encoding="utf-8")
    (tmp_path / ".gitignore").write_text("\n".join(lines) + "\n", encoding="utf-8")
    found = {entry.path for entry in walk(tmp_path, Config()).files}
    assert found == expected(tmp_path, lines)


def test_configured_excludes_use_the_same_rules(tmp_path: Path) -> None:
    for rel in TREE:
        target = tmp_path / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text("", encoding="utf-8")
    lines = ("src/**/gen/", "*_test.py")
    found = {entry.path for entry in walk(tmp_path, Config(exclude=lines)).files}
    assert found == expected(tmp_path, lines)
