"""ast_get_diagnostics: filters, paging, counts and TOON."""

from __future__ import annotations

from typing import Any

import toons


def test_severity_filter_keeps_counts_for_everything(mixed: Any) -> None:
    errors = mixed("ast_get_diagnostics", severity="error")
    warnings = mixed("ast_get_diagnostics", severity="warning")
    assert {d["severity"] for d in errors["diagnostics"]} == {"error"}
    assert [d["code"] for d in warnings["diagnostics"]] == ["ENCODING"]
    assert errors["error_count"] == warnings["error_count"] == 6
    assert errors["warning_count"] == 1
    assert errors["total"] == 6 and warnings["total"] == 1


def test_file_path_narrows_to_one_file_and_accepts_a_suffix(mixed: Any) -> None:
    out = mixed("ast_get_diagnostics", file_path="use.py")
    assert {d["file"] for d in out["diagnostics"]} == {"app/use.py"}
    assert out["error_count"] == 2


def test_paging_walks_the_sorted_list_without_gaps(mixed: Any) -> None:
    everything = mixed("ast_get_diagnostics")["diagnostics"]
    first = mixed("ast_get_diagnostics", limit=3)
    rest = mixed("ast_get_diagnostics", limit=10, offset=first["next_offset"])
    assert first["has_more"] and first["next_offset"] == 3
    assert first["diagnostics"] + rest["diagnostics"] == everything
    assert rest["has_more"] is False and rest["next_offset"] is None
    assert everything == sorted(everything, key=lambda d: (d["file"], d["line"], d["column"]))


def test_toon_output_round_trips_to_the_json_answer(mixed: Any) -> None:
    as_json = mixed.raw("ast_get_diagnostics")
    as_toon = mixed.raw("ast_get_diagnostics", output_format="toon")
    assert not as_toon.is_error
    assert toons.loads(as_toon.text) == as_json.data
    assert len(as_toon.text) < len(as_json.text)


def test_an_unknown_file_is_not_found_with_suggestions(mixed: Any) -> None:
    error = mixed.error("ast_get_diagnostics", file_path="app/usee.py")
    assert error["code"] == "NOT_FOUND"
    assert "app/use.py" in error["details"]["suggestions"]
