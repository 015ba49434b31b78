"""``$ref`` and ``$item``: RFC 6901 pointers, earlier steps only, refused segments."""

from __future__ import annotations

from typing import Any

import pytest

from astmcp.pipeline import BatchError, compile_pipeline, parse_document
from astmcp.pipeline.refs import Item, Ref, parse_ref, resolve, split_pointer


def pipeline_with(*steps: dict[str, Any], **extra: Any) -> Any:
    return compile_pipeline(
        parse_document({"version": 1, "project_root": ".", "steps": list(steps), **extra})
    )


def failure(*steps: dict[str, Any], **extra: Any) -> tuple[str, str | None]:
    with pytest.raises(BatchError) as info:
        pipeline_with(*steps, **extra)
    return info.value.code, info.value.step_id


A = {"id": "a", "tool": "ast_list_files", "input": {}}


def uses(value: Any, sid: str = "b", **fields: Any) -> dict[str, Any]:
    return {"id": sid, "tool": "ast_get_outline", "input": {"file_path": value}, **fields}


def test_pointer_escapes_follow_rfc_6901() -> None:
    assert split_pointer("") == ()
    assert split_pointer("/a~1b/c~0d/~01") == ("a/b", "c~d", "~1")
    assert split_pointer("/") == ("",)


@pytest.mark.parametrize("pointer", ["a", "/a~2", "/a~", "~0"])
def test_malformed_pointers_are_refused(pointer: str) -> None:
    with pytest.raises(ValueError):
        split_pointer(pointer)


def test_references_decode_percent_escapes_of_the_fragment_form() -> None:
    assert parse_ref("#/steps/a/x%20y/%7E0").path == ("x y", "~")


@pytest.mark.parametrize("text", ["#/steps/a/%zz", "#/steps/a/%", "#/steps/a/%ff"])
def test_bad_percent_escapes_are_refused(text: str) -> None:
    with pytest.raises(ValueError):
        parse_ref(text)


def test_a_reference_to_an_earlier_step_compiles() -> None:
    pipeline = pipeline_with(A, uses({"$ref": "#/steps/a/files/0/file"}))
    assert pipeline.steps[1].input == {
        "file_path": Ref("#/steps/a/files/0/file", "a", ("files", "0", "file"))
    }
    assert pipeline.keep == {"a", "b"}


def test_a_forward_reference_is_refused() -> None:
    assert failure(uses({"$ref": "#/steps/c/x"}), dict(A, id="c")) == ("INVALID_REFERENCE", "b")


def test_a_step_cannot_refer_to_itself() -> None:
    assert failure(A, uses({"$ref": "#/steps/b/file"})) == ("INVALID_REFERENCE", "b")


def test_a_reference_to_a_missing_step_is_missing_reference() -> None:
    assert failure(A, uses({"$ref": "#/steps/nope/x"})) == ("MISSING_REFERENCE", "b")


@pytest.mark.parametrize(
    "value",
    [
        {"$ref": "/steps/a/x"},
        {"$ref": "other.json#/steps/a"},
        {"$ref": "#/results/a"},
        {"$ref": "#/steps"},
        {"$ref": "#"},
        {"$ref": 3},
        {"$ref": "#/steps/a", "extra": 1},
        {"$ref": "#/steps/a", "$item": ""},
        {"$ref": "#/steps/a/x~2"},
    ],
)
def test_malformed_references_are_invalid_reference(value: Any) -> None:
    assert failure(A, uses(value)) == ("INVALID_REFERENCE", "b")


@pytest.mark.parametrize("segment", ["__proto__", "prototype", "constructor"])
def test_pollution_segments_are_refused_in_refs(segment: str) -> None:
    assert failure(A, uses({"$ref": f"#/steps/a/{segment}/x"})) == ("INVALID_REFERENCE", "b")
    assert failure(A, uses({"$ref": f"#/steps/a/files/{segment}"})) == ("INVALID_REFERENCE", "b")


@pytest.mark.parametrize("segment", ["__proto__", "prototype", "constructor"])
def test_pollution_segments_are_refused_in_foreach_and_items(segment: str) -> None:
    foreach = {"$ref": f"#/steps/a/{segment}"}
    assert failure(A, uses({"$item": ""}, foreach=foreach)) == ("INVALID_REFERENCE", "b")
    item = uses({"$item": f"/{segment}"}, foreach={"$ref": "#/steps/a/files"})
    assert failure(A, item) == ("INVALID_ITEM_REFERENCE", "b")


def test_pollution_segments_are_refused_in_emit() -> None:
    assert failure(A, emit={"x": {"$ref": "#/steps/a/__proto__"}}) == ("INVALID_REFERENCE", None)


def test_a_segment_that_only_contains_a_refused_word_is_fine() -> None:
    pipeline_with(A, uses({"$ref": "#/steps/a/Cls.constructor"}))


def test_item_outside_foreach_is_refused() -> None:
    assert failure(A, uses({"$item": "/file"})) == ("INVALID_ITEM_REFERENCE", "b")


def test_item_in_emit_is_refused() -> None:
    assert failure(A, emit={"$item": ""})[0] == "INVALID_ITEM_REFERENCE"


@pytest.mark.parametrize("value", [{"$item": "file"}, {"$item": 1}, {"$item": "", "x": 1}, {"$item": "/a~3"}])
def test_malformed_item_pointers_are_invalid_item_reference(value: Any) -> None:
    assert failure(A, uses(value, foreach={"$ref": "#/steps/a/files"})) == ("INVALID_ITEM_REFERENCE", "b")


def test_emit_may_refer_to_every_step() -> None:
    pipeline = pipeline_with(A, dict(A, id="b"), emit=[{"$ref": "#/steps/a"}, {"$ref": "#/steps/b/total"}])
    assert pipeline.keep == {"a", "b"}


def test_without_emit_only_referenced_steps_and_the_last_are_kept() -> None:
    pipeline = pipeline_with(A, dict(A, id="b"), uses({"$ref": "#/steps/b/files/0/file"}, sid="c"))
    assert pipeline.keep == {"b", "c"}


def test_resolution_walks_objects_and_arrays_and_copies_containers() -> None:
    results = {"a": {"files": [{"file": "x.py"}, {"file": "y.py"}], "a/b": {"~": 7}}}
    template = {"one": Ref("", "a", ("files", "1", "file")), "esc": [Ref("", "a", ("a/b", "~"))]}
    assert resolve(template, results) == {"one": "y.py", "esc": [7]}
    whole = resolve({"all": Ref("", "a", ())}, results)
    assert whole["all"] is results["a"]
    assert resolve({"i": Item("", ("k",))}, results, {"k": [1]}) == {"i": [1]}


@pytest.mark.parametrize(
    "path", [("files", "2"), ("files", "01"), ("files", "-"), ("files", "0", "x"), ("nope",)]
)
def test_a_pointer_that_finds_nothing_is_missing_reference(path: tuple[str, ...]) -> None:
    results = {"a": {"files": [{"file": "x.py"}, {"file": "y.py"}]}}
    with pytest.raises(BatchError) as info:
        resolve(Ref("#/steps/a/…", "a", path), results)
    assert info.value.code == "MISSING_REFERENCE"
    assert info.value.details is not None and info.value.details["missing"].startswith("/")


def test_a_missing_item_field_names_the_item() -> None:
    with pytest.raises(BatchError) as info:
        resolve(Item("/file", ("file",)), {}, {"path": "x"}, 3)
    assert info.value.code == "MISSING_REFERENCE"
    assert info.value.details == {"item": "/file", "item_index": 3}
