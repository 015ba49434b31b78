"""``ast_inspect_graph`` on TS/JS test blocks (``describe``/``it``/``test`` calls) and on
``likely`` edges (an untyped receiver's use of the project's only member of that name)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

SUITE = 'tests/math.test.ts::"math"'
ADDS = 'tests/math.test.ts::"math" > "adds"'
CALC = 'tests/math.test.ts::"math" > "calc"'
PLUS = 'tests/math.test.ts::"math" > "calc" > "plus %i"'


def _ask(call: Any, request: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = call(
        "ast_inspect_graph", question="which tests", draft="one request", review="checked", request=request
    )
    assert len(json.dumps(out, separators=(",", ":")).encode()) <= 4096
    return out


@pytest.fixture
def ts(fixture_project: Callable[[str], Path], caller: Any) -> Any:
    return caller(fixture_project("ts/testblocks"))


def test_a_test_block_that_calls_a_function_is_a_test_of_it(ts: Any) -> None:
    out = _ask(ts, {"type": "tests", "handles": ["src/math.ts::add"]})
    assert [n["selector"] for n in out["nodes"]] == [ADDS]
    assert out["nodes"][0]["kind"] == "test"
    assert out["nodes"][0]["signature"] == 'it("adds")'
    assert (out["nodes"][0]["line"], out["nodes"][0]["end_line"]) == (9, 11)
    assert out["edges"] == [
        {"from": ADDS, "to": "src/math.ts::add", "kind": "tests", "line": 10, "confidence": "certain"}
    ]


def test_a_test_each_block_reaches_a_function_through_a_helper_of_the_test_file(ts: Any) -> None:
    out = _ask(ts, {"type": "tests", "handles": ["src/math.ts::makeCalc"]})
    assert [n["selector"] for n in out["nodes"]] == [PLUS]
    assert out["nodes"][0]["signature"] == 'test.each("plus %i")'
    assert out["edges"][0]["to"] == "tests/math.test.ts::fresh"


def test_a_call_with_a_string_and_a_callback_that_is_no_test_function_is_no_test(ts: Any) -> None:
    out = _ask(ts, {"type": "tests", "handles": ["src/math.ts::unused"]})
    assert out["nodes"] == []


def test_describe_blocks_nest_their_tests(ts: Any) -> None:
    out = _ask(ts, {"type": "details", "handles": [SUITE, CALC]})
    suite, calc = out["nodes"]
    assert suite["kind"] == calc["kind"] == "suite"
    assert suite["members"] == ["adds:test@9", "calc:suite@13"]
    assert calc["members"] == ["plus %i:test@14", "works:test@18"]


def test_a_forward_trace_from_a_test_block_follows_its_calls(ts: Any) -> None:
    out = _ask(ts, {"type": "trace", "from": PLUS, "direction": "forward"})
    # `fresh()` returns what its single `return makeCalc()` gives: `.total` reads Calc.total
    assert [n["selector"] for n in out["nodes"]] == [
        PLUS,
        "tests/math.test.ts::fresh",
        "src/math.ts::Calc.total",
        "src/math.ts::makeCalc",
    ]
    assert {(e["from"], e["to"], e["kind"]) for e in out["edges"]} == {
        (PLUS, "tests/math.test.ts::fresh", "calls"),
        (PLUS, "src/math.ts::Calc.total", "references"),
        ("tests/math.test.ts::fresh", "src/math.ts::makeCalc", "calls"),
    }


def test_an_impact_trace_lists_the_test_blocks_that_exercise_a_symbol(ts: Any) -> None:
    out = _ask(ts, {"type": "trace", "from": "src/math.ts::add", "direction": "impact"})
    assert (ADDS, "src/math.ts::add", "tests") in {(e["from"], e["to"], e["kind"]) for e in out["edges"]}


def test_an_unknown_test_block_handle_is_not_found_with_suggestions(ts: Any) -> None:
    out = _ask(ts, {"type": "details", "handles": ['tests/math.test.ts::"math" > "add"']})
    assert out["missing"][0]["code"] == "NOT_FOUND"
    assert ADDS in out["missing"][0]["details"]["suggestions"]
    assert out["next"]["action"] == "inspect"
    assert out["next"]["request"]["type"] == "details"


@pytest.fixture
def likely(fixture_project: Callable[[str], Path], caller: Any) -> Any:
    return caller(fixture_project("python/likely"))


def test_a_reverse_trace_includes_a_likely_caller_as_find_references_rates_it(likely: Any) -> None:
    target = "app.py::Command.make_context"
    out = _ask(likely, {"type": "trace", "from": target, "direction": "reverse"})
    assert out["edges"] == [
        {"from": "app.py::Group.invoke", "to": target, "kind": "calls", "line": 11, "confidence": "likely"}
    ]
    refs = likely("ast_find_references", selector=target)["references"]
    assert {(r["line"], r["confidence"]) for r in refs if not r["is_declaration"]} == {(11, "likely")}
    forward = _ask(likely, {"type": "trace", "from": "app.py::Group.invoke", "direction": "forward"})
    assert {(e["to"], e["confidence"]) for e in forward["edges"]} == {(target, "likely")}


def test_a_second_member_of_the_name_makes_the_edge_unsure_and_drops_it(
    fixture_project: Callable[[str], Path], caller: Any
) -> None:
    root = fixture_project("python/likely")
    with (root / "app.py").open("a", encoding="utf-8") as handle:
        handle.write("\n\nclass Other:\n    def make_context(self, name):\n        return None\n")
    call = caller(root)
    out = _ask(call, {"type": "trace", "from": "app.py::Command.make_context", "direction": "reverse"})
    assert out["edges"] == []
    refs = call("ast_find_references", selector="app.py::Command.make_context")["references"]
    assert all(r["confidence"] != "likely" for r in refs)


def test_test_blocks_follow_edits_of_the_test_file(
    fixture_project: Callable[[str], Path], caller: Any
) -> None:
    root = fixture_project("ts/testblocks")
    call = caller(root)
    assert _ask(call, {"type": "tests", "handles": ["src/math.ts::unused"]})["nodes"] == []
    test_file = root / "tests" / "math.test.ts"
    test_file.write_text(
        test_file.read_text(encoding="utf-8").replace('register("not a test"', 'test("now a test"'),
        encoding="utf-8",
    )
    out = _ask(call, {"type": "tests", "handles": ["src/math.ts::unused"]})
    assert [n["selector"] for n in out["nodes"]] == ['tests/math.test.ts::"now a test"']


def test_a_repeated_test_name_is_ambiguous_until_its_line_is_given(ts: Any) -> None:
    out = _ask(ts, {"type": "details", "handles": ['tests/math.test.ts::"dup" > "same"']})
    assert out["missing"][0]["code"] == "AMBIGUOUS_TARGET"
    candidates = [c["selector"] for c in out["missing"][0]["details"]["candidates"]]
    assert candidates == ['tests/math.test.ts::"dup" > "same"@31', 'tests/math.test.ts::"dup" > "same"@32']
    found = _ask(ts, {"type": "details", "handles": [candidates[1]]})
    assert [n["line"] for n in found["nodes"]] == [32]


def test_the_overview_counts_test_blocks(ts: Any) -> None:
    out = _ask(ts, {"type": "overview", "aspect": "all"})
    assert out["counts"]["test_blocks"] == {"suite": 3, "test": 5}
