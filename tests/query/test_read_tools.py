"""The four read tools over a Python fixture: addressing, paging, bounds and errors."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
import toons

from astmcp.tools import uniform_rows


@pytest.fixture
def basic(fixture_project: Any, caller: Any) -> Any:
    return caller(fixture_project("python/basic"))


def test_list_files_reports_language_lines_and_symbol_counts(basic: Any) -> None:
    out = basic("ast_list_files")
    files = {f["file"]: f for f in out["files"]}
    assert "pkg/store.py" in files
    assert files["pkg/store.py"]["language"] == "python"
    assert files["pkg/store.py"]["lines"] == len((basic.root / "pkg/store.py").read_text().splitlines())
    assert files["pkg/broken.py"]["symbols"] == 0
    assert out["total"] == len(out["files"])
    assert out["has_more"] is False and out["next_offset"] is None


def test_list_files_glob_and_paging(basic: Any) -> None:
    out = basic("ast_list_files", glob="pkg/sub/*.py")
    assert [f["file"] for f in out["files"]] == ["pkg/sub/tools.py"]
    everywhere = basic("ast_list_files", glob="tools.py")
    assert [f["file"] for f in everywhere["files"]] == ["pkg/sub/tools.py"]
    first = basic("ast_list_files", limit=2)
    assert len(first["files"]) == 2 and first["has_more"] and first["next_offset"] == 2
    second = basic("ast_list_files", limit=2, offset=2)
    assert second["files"][0]["file"] not in {f["file"] for f in first["files"]}


def test_outline_shows_signatures_and_spans_but_no_bodies(basic: Any) -> None:
    out = basic("ast_get_outline", file_path="pkg/store.py", include_symbols=True)
    outline = out["outline"]
    assert "class Store(Base)" in outline
    assert 'def open(self, path: str) -> "Store"' in outline
    assert "return" not in outline  # no bodies
    assert "normalise" not in outline  # nested implementation detail is not outline
    selectors = {s["selector"] for s in out["symbols"]}
    assert "pkg/store.py::Store.open" in selectors
    assert "pkg/store.py::Store.size@27" in selectors and "pkg/store.py::Store.size@32" in selectors


def test_outline_of_an_unparsable_file_says_so(basic: Any) -> None:
    out = basic("ast_get_outline", file_path="pkg/broken.py")
    assert out["outline"].startswith("(not parsed: 4:")


def test_symbol_source_is_exact_text_including_decorators(basic: Any) -> None:
    out = basic("ast_get_symbol_source", selector="pkg/store.py::Store.join")
    assert out["text"] == (
        "    @staticmethod\n    def join(a: str, b: str) -> str:\n        return os.path.join(a, b)\n"
    )
    assert (out["line"], out["end_line"], out["kind"], out["truncated"]) == (36, 37, "method", False)


def test_file_path_plus_symbol_path_equals_the_selector_form(basic: Any) -> None:
    a = basic("ast_get_symbol_source", file_path="pkg/store.py", symbol_path="Store.Meta.run")
    b = basic("ast_get_symbol_source", selector="pkg/store.py::Store.Meta.run")
    assert a == b
    nested = basic("ast_get_symbol_source", selector="pkg/store.py::outer.inner")
    assert nested["text"].strip().startswith("def inner")


def test_at_line_selects_one_of_several_declarations(basic: Any) -> None:
    error = basic.error("ast_get_symbol_source", selector="pkg/store.py::convert")
    assert error["code"] == "AMBIGUOUS_TARGET"
    candidates = error["details"]["candidates"]
    assert [c["line"] for c in candidates] == [58, 60, 61]
    assert candidates[0]["selector"] == "pkg/store.py::convert@58"
    out = basic("ast_get_symbol_source", selector="pkg/store.py::convert@61")
    assert out["text"].startswith("def convert(value):")


def test_unknown_symbol_is_not_found_with_suggestions_never_a_substitute(basic: Any) -> None:
    error = basic.error("ast_get_symbol_source", selector="pkg/store.py::Store.opn")
    assert error["code"] == "NOT_FOUND"
    assert "pkg/store.py::Store.open" in error["details"]["suggestions"]


def test_file_path_by_unique_suffix_and_absolute_path(basic: Any) -> None:
    out = basic("ast_get_outline", file_path="sub/tools.py")
    assert out["file"] == "pkg/sub/tools.py"
    absolute = basic("ast_get_outline", file_path=str(basic.root / "pkg" / "store.py"))
    assert absolute["file"] == "pkg/store.py"


def test_ambiguous_file_suffix_lists_candidates(basic: Any) -> None:
    (basic.root / "pkg" / "sub" / "store.py").write_text("x = 1\n")
    error = basic.error("ast_get_outline", file_path="store.py")
    assert error["code"] == "AMBIGUOUS_TARGET"
    assert {c["selector"] for c in error["details"]["candidates"]} == {"pkg/store.py", "pkg/sub/store.py"}


@pytest.mark.parametrize("path", ["../outside.py", "/etc/passwd", "pkg/../../x.py"])
def test_paths_outside_the_root_are_invalid_input(basic: Any, path: str) -> None:
    assert basic.error("ast_get_outline", file_path=path)["code"] == "INVALID_INPUT"


def test_a_symlink_pointing_outside_is_neither_indexed_nor_readable(basic: Any, tmp_path: Path) -> None:
    secret = tmp_path / "secret.py"
    secret.write_text("def secret(): pass\n")
    os.symlink(secret, basic.root / "pkg" / "link.py")
    files = {f["file"] for f in basic("ast_list_files")["files"]}
    assert "pkg/link.py" not in files
    assert basic.error("ast_get_outline", file_path="pkg/link.py")["code"] == "INVALID_INPUT"
    assert basic("ast_search_symbols", query="secret")["total"] == 0


def test_unknown_file_is_not_found_with_suggestions(basic: Any) -> None:
    error = basic.error("ast_get_outline", file_path="pkg/stor.py")
    assert error["code"] == "NOT_FOUND"
    assert "pkg/store.py" in error["details"]["suggestions"]


def test_missing_project_root_is_project_not_found(basic: Any, tmp_path: Path) -> None:
    error = basic.error("ast_list_files", project_root=str(tmp_path / "nope"))
    assert error["code"] == "PROJECT_NOT_FOUND"


def test_bad_input_is_invalid_input_naming_the_field(basic: Any) -> None:
    error = basic.error("ast_search_symbols", query="x", limit=0)
    assert error["code"] == "INVALID_INPUT" and "limit" in error["message"]
    assert basic.error("ast_search_symbols", query="x", bogus=1)["code"] == "INVALID_INPUT"
    both = basic.error("ast_get_symbol_source", selector="pkg/store.py::Store", file_path="pkg/store.py")
    assert both["code"] == "INVALID_INPUT"


def test_search_ranks_exact_before_prefix_before_substring_before_words(basic: Any) -> None:
    out = basic("ast_search_symbols", query="store", detail="full", limit=50)
    matches = [s["match"] for s in out["symbols"]]
    assert matches == sorted(
        matches, key=["exact_selector", "exact_path", "exact_name", "prefix", "substring", "word"].index
    )
    assert out["symbols"][0]["selector"] == "pkg/store.py::Store"
    words = basic("ast_search_symbols", query="make store")
    assert words["symbols"][0]["selector"] == "pkg/sub/tools.py::make_store"
    assert words["symbols"][0]["match"] == "word"


def test_search_by_selector_and_by_dotted_path(basic: Any) -> None:
    out = basic("ast_search_symbols", query="pkg/store.py::Store.open")
    assert out["symbols"][0] == {
        "selector": "pkg/store.py::Store.open",
        "kind": "method",
        "signature": 'def open(self, path: str) -> "Store"',
        "line": 43,
        "match": "exact_selector",
    }
    dotted = basic("ast_search_symbols", query="Store.open", detail="selectors")
    assert dotted["symbols"][0] == {
        "selector": "pkg/store.py::Store.open",
        "kind": "method",
        "match": "exact_path",
    }


def test_search_filters_by_kind_glob_and_language(basic: Any) -> None:
    out = basic("ast_search_symbols", query="helper", kinds=["function"], file_glob="pkg/sub/**")
    assert [s["selector"] for s in out["symbols"]] == ["pkg/sub/tools.py::helper"]
    assert basic("ast_search_symbols", query="helper", language="typescript")["total"] == 0


@pytest.mark.parametrize("query", ['"a" OR b', "*", "store' OR 1=1 --", "%", "NEAR(a b)", "\\"])
def test_hostile_search_queries_are_inert(basic: Any, query: str) -> None:
    out = basic("ast_search_symbols", query=query)
    assert out["total"] == 0


def test_like_wildcards_in_queries_match_literally(basic: Any) -> None:
    out = basic("ast_search_symbols", query="_", limit=100, detail="full")
    assert out["total"] > 0
    assert all("_" in s["symbol_path"] for s in out["symbols"])


def test_huge_or_nul_queries_are_refused(basic: Any) -> None:
    assert basic.error("ast_search_symbols", query="x" * 1_000_000)["code"] == "INVALID_INPUT"


def test_toon_output_round_trips_to_the_json_result(basic: Any) -> None:
    json_out = basic.raw("ast_search_symbols", query="s")
    toon_out = basic.raw("ast_search_symbols", query="s", output_format="toon")
    assert not toon_out.is_error
    assert toons.loads(toon_out.text) == toon_out.data == uniform_rows(json_out.data)
    assert len(toon_out.text) < len(json_out.text)


def test_toon_rows_missing_optional_fields_still_form_one_table(basic: Any) -> None:
    out = basic.raw("ast_search_symbols", query="store", detail="full", output_format="toon", limit=50)
    rows = out.data["symbols"]
    assert any(row["doc"] is None for row in rows) and any(row["doc"] for row in rows)
    headers = [line for line in out.text.splitlines() if line.startswith("symbols[")]
    assert (
        len(headers) == 1
        and "{selector,kind,signature,file,symbol_path,name,line,end_line,doc,match}" in headers[0]
    )


def test_answers_are_bounded_by_max_bytes_and_say_how_to_continue(basic: Any) -> None:
    out = basic("ast_search_symbols", query="e", detail="full", limit=500, max_bytes=1024)
    assert len(json.dumps(out, separators=(",", ":")).encode()) <= 1024
    assert out["truncated"] is True and out["has_more"] is True
    assert out["next_offset"] == len(out["symbols"])
    rest = basic("ast_search_symbols", query="e", detail="full", limit=500, offset=out["next_offset"])
    assert rest["symbols"][0]["selector"] not in {s["selector"] for s in out["symbols"]}


def test_long_symbol_source_is_cut_at_a_line_and_says_so(basic: Any) -> None:
    body = "".join(f"    x{i} = {i}\n" for i in range(2000))
    (basic.root / "big.py").write_text(f"def big():\n{body}")
    out = basic("ast_get_symbol_source", selector="big.py::big", max_bytes=2048)
    assert out["truncated"] is True
    assert len(json.dumps(out).encode()) <= 2048
    assert out["text"].endswith("\n") and out["text"].startswith("def big():")
    full = basic("ast_get_symbol_source", selector="big.py::big", max_bytes=1024 * 1024)
    assert full["truncated"] is False and full["text"].count("\n") == 2001


def test_outline_collapses_constant_runs_and_skips_body_details(tmp_path: Path, caller: Any) -> None:
    (tmp_path / "m.py").write_text(
        "from typing import Any, Dict, List, Optional, Tuple\n"
        "import enum\n\n\n"
        "class Colour(enum.Enum):\n"
        "    RED = 1\n    GREEN = 2\n    BLUE = 3\n    BLACK = 4\n\n\n"
        "class Box:\n"
        "    def __init__(self) -> None:\n"
        "        import os\n"
        "        self.width = 1\n\n"
        "    @property\n"
        "    def area(self) -> int:\n"
        "        def helper() -> int:\n"
        "            return 1\n\n"
        "        return helper()\n"
    )
    outline = caller(tmp_path)("ast_get_outline", file_path="m.py")["outline"]
    assert "imports: typing(Any, Dict, List, +2 more), enum" in outline
    assert "6-9: RED, GREEN, BLUE, BLACK" in outline
    assert "width" not in outline  # an instance attribute lives in __init__'s body
    assert "helper" not in outline and " os" not in outline
    assert "@property def area(self) -> int" in outline
