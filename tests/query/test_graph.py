"""``ast_inspect_graph``: every request type answers in shape, bounded, with a next step."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

NODE_KEYS = {"selector", "name", "kind", "file", "line", "end_line", "signature", "doc", "errors"}
EXTRA_NODE_KEYS = {"fan_in", "role", "members", "edges_in", "edges_out"}
REQUESTS: list[dict[str, Any]] = [
    {"type": "overview"},
    {"type": "overview", "aspect": "hotspots"},
    {"type": "lookup", "query": "store"},
    {"type": "details", "handles": ["src/proj/a.py::Store"], "neighbors": True},
    {"type": "trace", "from": "src/proj/b.py::go", "direction": "forward"},
    {"type": "trace", "from": "src/proj/a.py::Store.open", "direction": "impact"},
    {"type": "tests", "handles": ["src/proj/a.py::Store.open"]},
    {"type": "tour", "query": "open a store"},
    {"type": "escape", "reason": "asks how fast the disk is"},
]


def _ask(call: Any, request: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return call(  # type: ignore[no-any-return]
        "ast_inspect_graph",
        question="How is a store opened?",
        draft="the smallest request that answers it",
        review="checked",
        request=request,
        **extra,
    )


@pytest.fixture
def call(fixture_project: Callable[[str], Path], caller: Any) -> Any:
    return caller(fixture_project("python/refs/srclayout"))


@pytest.mark.parametrize("request_", REQUESTS, ids=[f"{r['type']}-{n}" for n, r in enumerate(REQUESTS)])
def test_every_request_type_answers_in_shape_within_the_default_cap(
    call: Any, request_: dict[str, Any]
) -> None:
    out = _ask(call, request_)
    assert out["type"] == request_["type"]
    assert out["truncated"] is False
    assert out["next"]["action"] in ("answer", "inspect", "outside")
    assert len(json.dumps(out).encode()) <= 4096
    for node in out.get("nodes", []):
        assert (
            {"selector", "name", "kind", "file", "line", "end_line"}
            <= set(node)
            <= NODE_KEYS | EXTRA_NODE_KEYS
        )
    for edge in out.get("edges", []):
        assert set(edge) == {"from", "to", "kind", "line", "confidence"}
        assert edge["confidence"] in ("certain", "likely")
        assert edge["kind"] in ("calls", "imports", "inherits", "references", "tests", "contains")


def test_graph_answers_never_contain_bodies(call: Any) -> None:
    text = json.dumps([_ask(call, r) for r in REQUESTS])
    assert "return self" not in text and "return Store()" not in text


def test_trace_with_to_returns_the_call_path(call: Any) -> None:
    out = _ask(call, {"type": "trace", "from": "src/proj/a.py::build", "to": "src/proj/a.py::Store"})
    assert out["paths"] == [["src/proj/a.py::build", "src/proj/a.py::make", "src/proj/a.py::Store"]]


def test_tests_request_finds_the_test_that_exercises_a_method(call: Any) -> None:
    out = _ask(call, {"type": "tests", "handles": ["src/proj/a.py::Store.open"]})
    assert [n["selector"] for n in out["nodes"]] == ["tests/test_a.py::test_open"]


def test_tour_names_entry_points_flow_and_anchors(call: Any) -> None:
    out = _ask(call, {"type": "tour", "query": "make store"})
    roles = {n["selector"]: n["role"] for n in out["nodes"]}
    assert roles["src/proj/a.py::make"] == "entry"
    assert 1 <= len(out["anchors"]) <= 5
    assert all(set(a) == {"selector", "file", "lines", "why"} for a in out["anchors"])


def test_a_small_cap_cuts_the_answer_and_says_what_to_ask_next(call: Any) -> None:
    out = _ask(call, {"type": "overview"}, max_bytes=700)
    assert out["truncated"] is True
    assert len(json.dumps(out, separators=(",", ":")).encode()) <= 700
    assert out["next"]["action"] in ("inspect", "answer")


def test_unknown_handles_are_reported_with_a_lookup_to_try(call: Any) -> None:
    out = _ask(call, {"type": "details", "handles": ["src/proj/a.py::Shop"]})
    assert out["missing"][0]["code"] == "NOT_FOUND"
    assert out["next"] == {
        "action": "inspect",
        "request": {"type": "lookup", "query": "Shop"},
        "reason": "handle not found; look it up by name",
    }


def test_the_chain_of_thought_fields_are_required(call: Any) -> None:
    error = call.error("ast_inspect_graph", question="q", request={"type": "overview"})
    assert error["code"] == "INVALID_INPUT"
    bad = call.error("ast_inspect_graph", question="q", draft="d", review="r", request={"type": "guess"})
    assert bad["code"] == "INVALID_INPUT"
