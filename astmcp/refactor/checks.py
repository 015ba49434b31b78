"""The diagnostic delta of a plan: the diagnostics engine when present, else a syntax check.

``diagnostics_delta(ws, post_images)`` of :mod:`astmcp.diagnostics.delta` compares
the project's diagnostics before and after (multiset on code, severity, file,
message). Until it exists, :func:`syntax_delta` reports new syntax errors only.
"""

from __future__ import annotations

import ast
from typing import Any

from astmcp.lang import optional_module
from astmcp.model import LANGUAGE_BY_SUFFIX, PYTHON
from astmcp.workspace import Workspace


def syntax_error(path: str, text: str) -> dict[str, Any] | None:
    """The first syntax error of a post-image, as a diagnostic; None when it parses."""
    suffix = path[path.rfind(".") :] if "." in path else ""
    language = LANGUAGE_BY_SUFFIX.get(suffix)
    if language == PYTHON:
        try:
            ast.parse(text, filename=path)
        except SyntaxError as exc:
            return _diag(path, exc.lineno or 1, exc.offset or 1, f"syntax error: {exc.msg}")
        return None
    if language is None:
        return None
    from astmcp.refactor import tsparse  # tree-sitter only when a TS/JS file is involved

    tree = tsparse.parse(path, text.encode("utf-8"))
    node = tsparse.first_error(tree.root_node)
    if node is None:
        return None
    row, col = node.start_point
    return _diag(path, row + 1, col + 1, "syntax error")


def _diag(path: str, line: int, column: int, message: str) -> dict[str, Any]:
    return {
        "code": "SYNTAX",
        "severity": "error",
        "source": "astmcp",
        "file": path,
        "line": line,
        "column": column,
        "message": message,
    }


def syntax_delta(originals: dict[str, str], post_images: dict[str, str]) -> dict[str, Any]:
    added: list[dict[str, Any]] = []
    removed: list[dict[str, Any]] = []
    for path, new_text in sorted(post_images.items()):
        before = syntax_error(path, originals.get(path, ""))
        after = syntax_error(path, new_text)
        if after is not None and before is None:
            added.append(after)
        elif before is not None and after is None:
            removed.append(before)
    return {"added": added, "removed": removed, "added_errors": sum(d["severity"] == "error" for d in added)}


def diagnostics_delta(
    ws: Workspace,
    originals: dict[str, str],
    post_images: dict[str, str],
    same_scopes: frozenset[str] = frozenset(),
) -> dict[str, Any]:
    engine = optional_module("astmcp.diagnostics.delta")
    if engine is None:
        return syntax_delta(originals, post_images)
    delta = engine.diagnostics_delta(ws, post_images, same_scopes)
    return {
        "added": list(delta.added),
        "removed": list(delta.removed),
        "added_errors": int(delta.added_errors),
    }
