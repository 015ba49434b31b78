"""``ast_find_references`` through the tool boundary: shape, counts, paging, formats."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import toons


def test_find_references_counts_certain_and_lists_name_hits_after(
    fixture_project: Callable[[str], Path], caller: Any
) -> None:
    call = caller(fixture_project("python/refs/same_name"))
    out = call("ast_find_references", selector="shapes.py::File.close")
    assert out["symbol"] == "shapes.py::File.close"
    assert out["reference_count"] == 2  # declaration + f.close()
    assert out["uncertain_count"] == 1  # x.close() with an unknown receiver
    assert out["affected_files"] == ["shapes.py"]
    confidences = [r["confidence"] for r in out["references"]]
    assert confidences == ["certain", "certain", "name"]
    first = out["references"][0]
    assert first == {
        "file": "shapes.py",
        "line": 2,
        "column": 9,
        "end_column": 14,
        "kind": "definition",
        "confidence": "certain",
        "is_declaration": True,
    }


def test_find_references_without_declaration_and_with_context(
    fixture_project: Callable[[str], Path], caller: Any
) -> None:
    call = caller(fixture_project("python/refs/self_field"))
    out = call(
        "ast_find_references",
        file_path="app.py",
        symbol_path="Engine.run",
        include_declaration=False,
        detail="context",
    )
    assert [(r["line"], r["kind"], r["context"]) for r in out["references"]] == [
        (12, "call", "return self.engine.run()  # -> Engine.run, engine -> Car.engine")
    ]
    assert out["reference_count"] == 1


def test_find_references_pages_with_offset_and_limit(
    fixture_project: Callable[[str], Path], caller: Any
) -> None:
    call = caller(fixture_project("python/refs/reexport"))
    whole = call("ast_find_references", selector="pkg/core.py::helper")
    assert whole["total"] == len(whole["references"]) == 6
    page = call("ast_find_references", selector="pkg/core.py::helper", offset=2, limit=2)
    assert page["references"] == whole["references"][2:4]
    assert (page["has_more"], page["next_offset"]) == (True, 4)


def test_find_references_in_toon_round_trips(fixture_project: Callable[[str], Path], caller: Any) -> None:
    call = caller(fixture_project("python/refs/reexport"))
    result = call.raw("ast_find_references", selector="pkg/core.py::helper", output_format="toon")
    assert not result.is_error
    assert toons.loads(result.text) == call("ast_find_references", selector="pkg/core.py::helper")


def test_find_references_of_an_unknown_symbol_suggests_names(
    fixture_project: Callable[[str], Path], caller: Any
) -> None:
    call = caller(fixture_project("python/refs/self_field"))
    error = call.error("ast_find_references", selector="app.py::Engine.rnu")
    assert error["code"] == "NOT_FOUND"
    assert "app.py::Engine.run" in error["details"]["suggestions"]


def test_a_unique_member_turns_unknown_receivers_into_likely_references(tmp_path: Path, caller: Any) -> None:
    (tmp_path / "m.py").write_text(
        "class Parser:\n    def feed_tokens(self):\n        pass\n\n\ndef run(p):\n    p.feed_tokens()\n",
        encoding="utf-8",
    )
    out = caller(tmp_path)("ast_find_references", selector="m.py::Parser.feed_tokens")
    assert [(r["line"], r["confidence"]) for r in out["references"]] == [(2, "certain"), (7, "likely")]
    assert (out["reference_count"], out["uncertain_count"]) == (2, 0)
