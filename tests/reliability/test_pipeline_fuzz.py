"""Fuzzing the pipeline document parser and the ``$ref``/``$item`` resolver.

Every input must end in a SPEC §6 error code or a valid result, never a traceback.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from astmcp.pipeline import BATCH_CODES, BatchError, Pipeline, compile_pipeline, load_json, parse_document
from astmcp.pipeline.refs import Ref, compile_ref, resolve

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)
SEGMENTS = [
    "steps",
    "a",
    "b",
    "c",
    "0",
    "1",
    "01",
    "-",
    "",
    "__proto__",
    "prototype",
    "constructor",
    "x~0y",
    "x~1y",
    "~",
    "~2",
    "%20",
    "%zz",
    "%C3%A9",
    "files",
    "symbols",
    "selector",
]
pointers = st.lists(st.sampled_from(SEGMENTS), max_size=5).map(lambda parts: "".join("/" + p for p in parts))
ref_texts = st.one_of(pointers.map(lambda p: "#" + p), pointers, st.text(max_size=20))
ref_nodes = st.one_of(
    ref_texts.map(lambda t: {"$ref": t}),
    pointers.map(lambda p: {"$item": p}),
    st.builds(lambda t, v: {"$ref": t, "x": v}, ref_texts, scalars),
    scalars.map(lambda v: {"$item": v}),
    st.builds(lambda t, p: {"$ref": t, "$item": p}, ref_texts, pointers),
)
templated = st.recursive(
    scalars | ref_nodes,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(["file_path", "query", "k"]), inner, max_size=3)
    ),
    max_leaves=8,
)
TOOLS = [
    "ast_list_files",
    "ast_get_outline",
    "ast_search_symbols",
    "ast_rename_symbol",
    "ast_replace_symbol_body",
    "ast_apply_operation",
    "ast_get_operation_preview",
    "nope",
]


def step_strategy(ids: list[str], extra: bool, tools: list[str] = TOOLS) -> st.SearchStrategy[dict[str, Any]]:
    optional: dict[str, st.SearchStrategy[Any]] = {"foreach": ref_texts.map(lambda t: {"$ref": t})}
    if extra:
        optional.update(foreach=ref_texts.map(lambda t: {"$ref": t}) | json_values, extra=scalars)
    return st.fixed_dictionaries(
        {
            "id": st.sampled_from(ids),
            "tool": st.sampled_from(tools),
            "input": st.dictionaries(st.sampled_from(["file_path", "query", "limit"]), templated, max_size=3),
        },
        optional=optional,
    )


steps = step_strategy(["a", "b", "c"], extra=False) | step_strategy(["a", "1x", "", "a" * 65], extra=True)
documents = st.fixed_dictionaries(
    {
        "version": st.sampled_from([1] * 8 + [2, "1", True]),
        "project_root": st.sampled_from([".", ".", ".", ""]),
        "steps": st.lists(steps, max_size=4, unique_by=lambda s: s["id"]),
    },
    optional={"emit": templated, "limits": st.dictionaries(st.sampled_from(["concurrency", "x"]), scalars)},
)

# Envelope always right: only the references vary, so the resolver is reached.
well_formed = st.fixed_dictionaries(
    {
        "version": st.just(1),
        "project_root": st.just("."),
        "steps": st.lists(
            step_strategy(["a", "b", "c"], extra=False, tools=TOOLS[:3]),
            min_size=1,
            max_size=3,
            unique_by=lambda s: s["id"],
        ),
    },
    optional={"emit": templated},
)


def outcome(thunk: Any) -> Any:
    try:
        return thunk()
    except BatchError as error:
        assert error.code in BATCH_CODES, error.code
        assert isinstance(error.message, str) and error.message
        json.dumps(error.to_wire("run"))
        return error


def compile_text(raw: bytes) -> Any:
    return compile_pipeline(parse_document(load_json(raw)))


@FUZZ
@given(st.binary(max_size=200))
def test_arbitrary_bytes_end_in_an_error_code_or_a_pipeline(raw: bytes) -> None:
    result = outcome(lambda: compile_text(raw))
    assert isinstance(result, BatchError | Pipeline)


@FUZZ
@given(json_values)
def test_arbitrary_json_values_end_in_an_error_code_or_a_pipeline(value: Any) -> None:
    result = outcome(lambda: compile_text(json.dumps(value).encode()))
    assert isinstance(result, BatchError | Pipeline)


@FUZZ
@given(documents | well_formed)
def test_near_valid_documents_end_in_an_error_code_or_a_pipeline(doc: dict[str, Any]) -> None:
    result = outcome(lambda: compile_text(json.dumps(doc).encode()))
    assert isinstance(result, BatchError | Pipeline)


@FUZZ
@given(well_formed, json_values, json_values)
def test_compiled_templates_resolve_to_a_value_or_an_error_code(
    doc: dict[str, Any], result: Any, item: Any
) -> None:
    compiled = outcome(lambda: compile_text(json.dumps(doc).encode()))
    if not isinstance(compiled, Pipeline):
        return
    results = {step.id: result for step in compiled.steps}
    for step in compiled.steps:
        value = outcome(lambda s=step: resolve(s.input, results, item, 0))
        if not isinstance(value, BatchError):
            assert isinstance(value, dict)
            json.dumps(value)


@FUZZ
@given(ref_texts, json_values)
def test_any_reference_text_against_any_result_resolves_or_fails_with_a_code(text: str, result: Any) -> None:
    ref = outcome(lambda: compile_ref(text, earlier=["a", "b"], all_ids=["a", "b", "c"], refs=set()))
    if isinstance(ref, Ref):
        assert not {"__proto__", "prototype", "constructor"} & set(ref.path)
        outcome(lambda: resolve(ref, {"a": result, "b": result}))
