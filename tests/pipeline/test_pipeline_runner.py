"""Running pipelines in-process: real tool calls through call_tool, foreach, limits, emit."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest

from astmcp.pipeline import (
    BatchError,
    BatchLimits,
    check_available,
    compile_pipeline,
    parse_document,
    run_pipeline,
)
from astmcp.tools import ToolResult, call_tool
from astmcp.workspace import Workspaces


class Recorder:
    """The real call_tool, with a log of what was called (in call order)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self._lock = threading.Lock()

    def __call__(self, workspaces: Workspaces, tool: str, arguments: dict[str, Any]) -> ToolResult:
        with self._lock:
            self.calls.append((tool, dict(arguments)))
        return call_tool(workspaces, tool, arguments)


def run(
    root: Path, steps: list[dict[str, Any]], batch_limits: BatchLimits | None = None, **extra: Any
) -> tuple[dict[str, Any], Recorder]:
    recorder = Recorder()
    doc = {"version": 1, "project_root": root.name, "steps": steps, **extra}
    pipeline = compile_pipeline(parse_document(doc))
    out = run_pipeline(pipeline, root.parent, limits=batch_limits or BatchLimits(), call=recorder)
    return out, recorder


def fails(
    root: Path, steps: list[dict[str, Any]], batch_limits: BatchLimits | None = None, **extra: Any
) -> BatchError:
    with pytest.raises(BatchError) as info:
        run(root, steps, batch_limits, **extra)
    return info.value


LIST = {"id": "files", "tool": "ast_list_files", "input": {"limit": 500}}


def outline_each(sid: str = "outlines", over: str = "#/steps/files/files", **fields: Any) -> dict[str, Any]:
    return {
        "id": sid,
        "tool": "ast_get_outline",
        "foreach": {"$ref": over},
        "input": {"file_path": {"$item": "/file"}},
        **fields,
    }


def test_a_two_step_pipeline_feeds_the_first_result_into_the_second(tiny_project: Any) -> None:
    root = tiny_project(3)
    steps = [
        {
            "id": "search",
            "tool": "ast_search_symbols",
            "input": {"query": "f", "detail": "selectors", "limit": 1},
        },
        {
            "id": "source",
            "tool": "ast_get_symbol_source",
            "input": {"selector": {"$ref": "#/steps/search/symbols/0/selector"}},
        },
    ]
    out, recorder = run(root, steps)
    assert out["status"] == "ok" and out["version"] == 1
    assert out["step_count"] == 2 and out["invocation_count"] == 2
    assert out["result"]["selector"] == "m000.py::f"
    assert out["result"]["text"] == "def f():\n    return 0\n"
    assert recorder.calls[1][1]["selector"] == "m000.py::f"
    assert isinstance(out["duration_ms"], int)


def test_every_step_gets_the_document_project_root_resolved_against_its_directory(tiny_project: Any) -> None:
    root = tiny_project(1)
    _, recorder = run(root, [LIST])
    assert recorder.calls[0][1]["project_root"] == str(root)


def test_a_step_may_set_its_own_project_root_relative_to_the_document(
    tiny_project: Any, tmp_path: Path
) -> None:
    root = tiny_project(1)
    other = tmp_path / "other"
    other.mkdir()
    (other / "z.py").write_text("def z():\n    pass\n", encoding="utf-8")
    out, recorder = run(root, [{"id": "files", "tool": "ast_list_files", "input": {"project_root": "other"}}])
    assert recorder.calls[0][1]["project_root"] == str(other)
    assert [f["file"] for f in out["result"]["files"]] == ["z.py"]


def test_foreach_keeps_item_order_at_full_concurrency(tiny_project: Any) -> None:
    root = tiny_project(40)
    out, _ = run(root, [LIST, outline_each()], limits={"concurrency": 16})
    assert [o["file"] for o in out["result"]] == [f"m{i:03d}.py" for i in range(40)]
    assert out["invocation_count"] == 41


def test_foreach_resolves_every_input_before_the_first_call(tiny_project: Any) -> None:
    root = tiny_project(5)
    steps = [
        {"id": "search", "tool": "ast_search_symbols", "input": {"query": "f", "detail": "full"}},
        {
            "id": "each",
            "tool": "ast_get_outline",
            "foreach": {"$ref": "#/steps/search/symbols"},
            "input": {"file_path": {"$item": "/file"}, "include_symbols": {"$item": "/no_such_field"}},
        },
    ]
    error = fails(root, steps)
    assert (error.code, error.step_id) == ("MISSING_REFERENCE", "each")
    assert error.details is not None and error.details["item_index"] == 0


def test_foreach_fails_fast_at_the_first_failing_item(tiny_project: Any) -> None:
    root = tiny_project(5)
    (root / "m001.py").write_text("def g():\n    return 1\n", encoding="utf-8")
    each = {
        "id": "each",
        "tool": "ast_get_symbol_source",
        "foreach": {"$ref": "#/steps/files/files"},
        "input": {"file_path": {"$item": "/file"}, "symbol_path": "f"},
    }
    recorder = Recorder()
    doc = {"version": 1, "project_root": root.name, "limits": {"concurrency": 1}, "steps": [LIST, each]}
    with pytest.raises(BatchError) as info:
        run_pipeline(compile_pipeline(parse_document(doc)), root.parent, call=recorder)
    error = info.value
    assert (error.code, error.step_id) == ("TOOL_ERROR", "each")
    assert error.details is not None
    assert error.details["item_index"] == 1
    assert error.details["tool"] == "ast_get_symbol_source"
    assert error.details["error"]["code"] == "NOT_FOUND"
    assert [c[1].get("file_path") for c in recorder.calls] == [None, "m000.py", "m001.py"]


def test_a_failing_step_reports_the_tools_error_object(tiny_project: Any) -> None:
    root = tiny_project(1)
    step = {"id": "src", "tool": "ast_get_symbol_source", "input": {"selector": "m000.py::ff"}}
    error = fails(root, [step])
    assert (error.code, error.step_id) == ("TOOL_ERROR", "src")
    assert error.details is not None
    assert error.details["error"]["code"] == "NOT_FOUND"
    assert "m000.py::f" in error.details["error"]["details"]["suggestions"]


def test_invalid_tool_input_after_resolution_is_a_tool_error(tiny_project: Any) -> None:
    root = tiny_project(1)
    step = {"id": "files", "tool": "ast_list_files", "input": {"limit": "many"}}
    error = fails(root, [step])
    assert error.code == "TOOL_ERROR"
    assert error.details is not None and error.details["error"]["code"] == "INVALID_INPUT"


def test_foreach_over_something_that_is_not_an_array_is_invalid_reference(tiny_project: Any) -> None:
    root = tiny_project(1)
    error = fails(root, [LIST, outline_each(over="#/steps/files/total")])
    assert (error.code, error.step_id) == ("INVALID_REFERENCE", "outlines")


def test_a_reference_that_finds_nothing_at_run_time_is_missing_reference(tiny_project: Any) -> None:
    root = tiny_project(1)
    step = {
        "id": "o",
        "tool": "ast_get_outline",
        "input": {"file_path": {"$ref": "#/steps/files/files/5/file"}},
    }
    error = fails(root, [LIST, step])
    assert (error.code, error.step_id) == ("MISSING_REFERENCE", "o")
    assert error.details == {"ref": "#/steps/files/files/5/file", "missing": "/files/5"}


def test_two_hundred_foreach_items_run_and_two_hundred_and_one_are_refused(tiny_project: Any) -> None:
    root = tiny_project(201)
    listed = {"id": "files", "tool": "ast_list_files", "input": {"limit": 500, "offset": 1}}
    out, _ = run(root, [listed, outline_each()])
    assert len(out["result"]) == 200
    recorder = Recorder()
    with pytest.raises(BatchError) as info:
        doc = {"version": 1, "project_root": root.name, "steps": [LIST, outline_each()]}
        run_pipeline(compile_pipeline(parse_document(doc)), root.parent, call=recorder)
    assert (info.value.code, info.value.step_id) == ("FOREACH_LIMIT", "outlines")
    assert len(recorder.calls) == 1


def test_the_five_hundred_and_first_invocation_is_refused_before_its_step_runs(tiny_project: Any) -> None:
    root = tiny_project(200)
    small = {"id": "small", "tool": "ast_list_files", "input": {"limit": 99}}
    steps = [LIST, small, outline_each("a"), outline_each("b"), outline_each("c", over="#/steps/small/files")]
    recorder = Recorder()
    doc = {"version": 1, "project_root": root.name, "steps": steps}
    with pytest.raises(BatchError) as info:
        run_pipeline(compile_pipeline(parse_document(doc)), root.parent, call=recorder)
    assert (info.value.code, info.value.step_id) == ("INVOCATION_LIMIT", "c")
    assert info.value.details == {"invocations": 501, "limit": 500}
    assert len(recorder.calls) == 402


def test_exactly_the_invocation_limit_is_allowed(tiny_project: Any) -> None:
    root = tiny_project(5)
    out, _ = run(root, [LIST, outline_each()], BatchLimits(invocations=6))
    assert out["invocation_count"] == 6
    assert fails(root, [LIST, outline_each()], BatchLimits(invocations=5)).code == "INVOCATION_LIMIT"


def test_a_step_result_over_the_limit_is_result_limit(tiny_project: Any) -> None:
    root = tiny_project(3)
    each = outline_each()
    each["input"]["include_symbols"] = True
    out, _ = run(root, [LIST, each], emit={"a": {"$ref": "#/steps/files"}, "b": {"$ref": "#/steps/outlines"}})
    listed, outlines = (len(json.dumps(out["result"][k], separators=(",", ":"))) for k in "ab")
    assert listed < outlines
    assert run(root, [LIST, each], BatchLimits(result_bytes=outlines))[0]["status"] == "ok"
    error = fails(root, [LIST, each], BatchLimits(result_bytes=outlines - 1))
    assert (error.code, error.step_id) == ("RESULT_LIMIT", "outlines")


def test_retained_results_over_the_limit_are_context_limit(tiny_project: Any) -> None:
    root = tiny_project(3)
    steps = [LIST, dict(LIST, id="again"), outline_each(over="#/steps/again/files")]
    limits = BatchLimits(retained_bytes=600)
    error = fails(
        root, steps, limits, emit={"a": {"$ref": "#/steps/files/total"}, "b": {"$ref": "#/steps/outlines"}}
    )
    assert error.code == "CONTEXT_LIMIT"


def test_results_nobody_refers_to_are_not_retained(tiny_project: Any) -> None:
    root = tiny_project(3)
    one = len(str(run(root, [LIST])[0]["result"]))
    limits = BatchLimits(retained_bytes=one + 10)
    out, _ = run(root, [dict(LIST, id="unused"), dict(LIST, id="unused2"), LIST], limits)
    assert out["result"]["total"] == 3


def test_emit_builds_the_result_from_any_earlier_step(tiny_project: Any) -> None:
    root = tiny_project(2)
    emit = {
        "count": {"$ref": "#/steps/files/total"},
        "first": {"$ref": "#/steps/outlines/0/file"},
        "literal": [1, None],
    }
    out, _ = run(root, [LIST, outline_each()], emit=emit)
    assert out["result"] == {"count": 2, "first": "m000.py", "literal": [1, None]}


def test_emit_null_is_a_null_result(tiny_project: Any) -> None:
    out, _ = run(tiny_project(1), [LIST], emit=None)
    assert out["result"] is None


def test_a_prepare_step_writes_its_plan_file_and_reports_it(
    tiny_project: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("astmcp.refactor.planfile")
    root = tiny_project(1)
    monkeypatch.setenv("AST_TOOL_STATE_DIR", str(root.parent / "state"))
    steps = [
        {
            "id": "r",
            "tool": "ast_replace_symbol_body",
            "input": {"selector": "m000.py::f", "new_body": "return 42"},
        }
    ]
    out, _ = run(root, steps)
    assert out["operation_id"] == out["result"]["operation_id"]
    assert out["plan_hash"] == out["result"]["plan_hash"]
    assert Path(out["plan_file"]) == root.parent / "state" / "plans" / f"{out['operation_id']}.astplan"
    assert Path(out["plan_file"]).is_file()
    assert (root / "m000.py").read_text(encoding="utf-8") == "def f():\n    return 0\n"


def test_an_oversized_foreach_stops_calling_once_its_result_passes_the_limit(tiny_project: Any) -> None:
    root = tiny_project(10)
    each = outline_each()
    each["input"]["include_symbols"] = True
    out, _ = run(root, [LIST, each], emit={"a": {"$ref": "#/steps/files"}, "b": {"$ref": "#/steps/outlines"}})
    one = len(json.dumps(out["result"]["b"][0], separators=(",", ":")))
    assert len(json.dumps(out["result"]["a"], separators=(",", ":"))) <= 4 * one
    recorder = Recorder()
    doc = {"version": 1, "project_root": root.name, "limits": {"concurrency": 1}, "steps": [LIST, each]}
    with pytest.raises(BatchError) as info:
        pipeline = compile_pipeline(parse_document(doc))
        run_pipeline(pipeline, root.parent, limits=BatchLimits(result_bytes=4 * one), call=recorder)
    assert (info.value.code, info.value.step_id) == ("RESULT_LIMIT", "outlines")
    assert len(recorder.calls) == 1 + 4


def test_a_whole_input_reference_reaches_the_tool_which_checks_it(tiny_project: Any) -> None:
    root = tiny_project(1)
    whole = {"id": "again", "tool": "ast_get_outline", "input": {"$ref": "#/steps/files/files/0"}}
    pipeline = compile_pipeline(
        parse_document({"version": 1, "project_root": root.name, "steps": [LIST, whole]})
    )
    check_available(pipeline)
    recorder = Recorder()
    with pytest.raises(BatchError) as info:
        run_pipeline(pipeline, root.parent, call=recorder)
    assert (info.value.code, info.value.step_id) == ("TOOL_ERROR", "again")
    assert info.value.details is not None and info.value.details["error"]["code"] == "INVALID_INPUT"
    assert recorder.calls[1][1]["file"] == "m000.py"


def test_a_whole_input_that_is_not_an_object_is_invalid_reference(tiny_project: Any) -> None:
    root = tiny_project(1)
    whole = {"id": "again", "tool": "ast_get_outline", "input": {"$ref": "#/steps/files/total"}}
    error = fails(root, [LIST, whole])
    assert (error.code, error.step_id) == ("INVALID_REFERENCE", "again")


class InFlight(Recorder):
    """Counts how many calls are inside call_tool at the same time."""

    def __init__(self) -> None:
        super().__init__()
        self.now = 0
        self.most = 0

    def __call__(self, workspaces: Workspaces, tool: str, arguments: dict[str, Any]) -> ToolResult:
        with self._lock:
            self.now += 1
            self.most = max(self.most, self.now)
        try:
            return super().__call__(workspaces, tool, arguments)
        finally:
            with self._lock:
                self.now -= 1


@pytest.mark.parametrize("concurrency", [1, 3])
def test_foreach_never_runs_more_calls_at_once_than_its_concurrency(
    tiny_project: Any, concurrency: int
) -> None:
    root = tiny_project(30)
    doc = {
        "version": 1,
        "project_root": root.name,
        "limits": {"concurrency": concurrency},
        "steps": [LIST, outline_each()],
    }
    recorder = InFlight()
    out = run_pipeline(compile_pipeline(parse_document(doc)), root.parent, call=recorder)
    assert len(out["result"]) == 30
    assert 1 <= recorder.most <= concurrency
