"""The pipeline document: strict schema, JSON rules, static rules of SPEC §6."""

from __future__ import annotations

import json
from typing import Any

import pytest

import astmcp.pipeline
from astmcp.pipeline import BatchError, BatchLimits, compile_pipeline, load_json, parse_document


def doc(*steps: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"version": 1, "project_root": ".", "steps": list(steps), **extra}


def step(sid: str, tool: str = "ast_list_files", **fields: Any) -> dict[str, Any]:
    return {"id": sid, "tool": tool, "input": fields.pop("input", {}), **fields}


def code_of(value: Any) -> tuple[str, str | None]:
    with pytest.raises(BatchError) as info:
        compile_pipeline(parse_document(value))
    return info.value.code, info.value.step_id


def test_package_exports_what_it_means_to() -> None:
    assert sorted(astmcp.pipeline.__all__) == sorted(
        [
            "BATCH_CODES",
            "BatchError",
            "BatchLimits",
            "Pipeline",
            "check_available",
            "compile_pipeline",
            "load_json",
            "parse_document",
            "run_pipeline",
        ]
    )


def test_a_minimal_document_compiles() -> None:
    pipeline = compile_pipeline(parse_document(doc(step("a"))))
    assert [s.id for s in pipeline.steps] == ["a"]
    assert pipeline.document.limits.concurrency == 4
    assert not pipeline.prepares


@pytest.mark.parametrize(
    "value",
    [
        doc(step("a"), extra_key=1),
        doc({"id": "a", "tool": "ast_list_files", "input": {}, "when": True}),
        doc(step("a"), limits={"concurrency": 4, "timeout": 3}),
        doc(step("a"), limits={"concurrency": 0}),
        doc(step("a"), limits={"concurrency": 17}),
        doc(step("a"), limits={"concurrency": "4"}),
        {"version": 2, "project_root": ".", "steps": [step("a")]},
        {"version": "1", "project_root": ".", "steps": [step("a")]},
        {"version": True, "project_root": ".", "steps": [step("a")]},
        {"version": 1, "steps": [step("a")]},
        {"version": 1, "project_root": "", "steps": [step("a")]},
        doc(),
        doc(*[step(f"s{i}") for i in range(51)]),
        doc(step("1abc")),
        doc(step("a" * 65)),
        doc(step("a b")),
        doc({"id": "a", "tool": "ast_list_files"}),
        doc({"id": "a", "tool": "ast_list_files", "input": []}),
        doc(step("a", foreach={"$ref": "#/steps/x", "extra": 1})),
        [doc(step("a"))],
        "pipeline",
    ],
)
def test_schema_violations_are_invalid_batch(value: Any) -> None:
    assert code_of(value)[0] == "INVALID_BATCH"


def test_a_schema_error_inside_a_step_names_the_step() -> None:
    assert code_of(doc(step("a"), {"id": "b", "tool": "ast_list_files", "input": {}, "x": 1})) == (
        "INVALID_BATCH",
        "b",
    )


def test_fifty_steps_and_ids_of_sixty_four_characters_are_accepted() -> None:
    ids = ["a" * 64] + [f"s{i}" for i in range(49)]
    pipeline = compile_pipeline(parse_document(doc(*[step(i) for i in ids])))
    assert len(pipeline.steps) == 50


def test_duplicate_step_ids_are_refused() -> None:
    assert code_of(doc(step("a"), step("a"))) == ("INVALID_BATCH", "a")


@pytest.mark.parametrize(
    "tool", ["ast_apply_operation", "ast_get_operation_preview", "ast_nonexistent", "call"]
)
def test_preview_apply_and_unknown_tools_are_forbidden(tool: str) -> None:
    assert code_of(doc(step("a"), step("b", tool))) == ("FORBIDDEN_TOOL", "b")


def test_two_prepare_steps_are_refused() -> None:
    value = doc(step("a", "ast_rename_symbol"), step("b", "ast_replace_symbol_body"))
    assert code_of(value) == ("INVALID_BATCH", "a")


def test_a_prepare_step_that_is_not_last_is_refused() -> None:
    assert code_of(doc(step("a", "ast_rename_symbol"), step("b"))) == ("INVALID_BATCH", "a")


def test_a_prepare_step_with_foreach_is_refused() -> None:
    value = doc(step("a"), step("b", "ast_rename_symbol", foreach={"$ref": "#/steps/a/files"}))
    assert code_of(value) == ("INVALID_BATCH", "b")


def test_one_prepare_step_last_is_a_prepare_pipeline() -> None:
    assert compile_pipeline(parse_document(doc(step("a"), step("b", "ast_rename_symbol")))).prepares


def test_documents_over_one_mebibyte_are_refused_before_parsing() -> None:
    with pytest.raises(BatchError) as info:
        load_json(b" " * (1024 * 1024 + 1))
    assert info.value.code == "INPUT_LIMIT"
    assert load_json(b" " * (1024 * 1024 - 2) + b"{}") == {}


def test_the_document_limit_is_configurable() -> None:
    with pytest.raises(BatchError) as info:
        load_json(b'{"a": 1}', BatchLimits(document_bytes=4))
    assert info.value.code == "INPUT_LIMIT"


@pytest.mark.parametrize(
    "raw",
    [b"", b"{", b"{'a': 1}", b'{"a": NaN}', b'{"a": Infinity}', b'{"a": 1, "a": 2}', b"\xff\xfe{}", b"{} {}"],
)
def test_text_that_is_not_plain_json_is_invalid_json(raw: bytes) -> None:
    with pytest.raises(BatchError) as info:
        load_json(raw)
    assert info.value.code == "INVALID_JSON"


def test_a_utf8_byte_order_mark_is_accepted() -> None:
    assert load_json(b"\xef\xbb\xbf" + json.dumps(doc(step("a"))).encode()) == doc(step("a"))


@pytest.mark.parametrize("depth", [65, 5000])
def test_deeply_nested_documents_are_an_input_limit(depth: int) -> None:
    with pytest.raises(BatchError) as info:
        load_json(b"[" * depth + b"]" * depth)
    assert info.value.code == "INPUT_LIMIT"


def test_sixty_four_levels_of_nesting_are_accepted() -> None:
    assert load_json(b"[" * 64 + b"]" * 64) is not None
