"""``ast-tool validate | run`` as a user runs them: exit codes, one JSON value, stdout/stderr discipline."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import toons

from astmcp.pipeline import BATCH_CODES

SEARCH_SOURCE = [
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
LIST = {"id": "files", "tool": "ast_list_files", "input": {"limit": 500}}


def document(root: str, steps: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"version": 1, "project_root": root, "steps": steps, **extra}


def test_validate_prints_valid_and_the_step_count(ast_tool: Any, write_doc: Any) -> None:
    out = ast_tool("validate", str(write_doc(document(".", SEARCH_SOURCE)))).ok()
    assert out == {"version": 1, "status": "valid", "step_count": 2}


def test_validate_reads_the_document_from_stdin(ast_tool: Any) -> None:
    out = ast_tool("validate", "-", stdin=json.dumps(document(".", SEARCH_SOURCE))).ok()
    assert out["status"] == "valid"


def test_run_prints_one_json_value_with_the_spec_envelope(
    ast_tool: Any, write_doc: Any, tiny_project: Callable[[int], Path]
) -> None:
    root = tiny_project(2)
    out = ast_tool("run", str(write_doc(document(root.name, SEARCH_SOURCE), root.parent))).ok()
    assert set(out) == {"version", "status", "duration_ms", "step_count", "invocation_count", "result"}
    assert (out["version"], out["status"], out["step_count"], out["invocation_count"]) == (1, "ok", 2, 2)
    assert out["result"]["text"] == "def f():\n    return 0\n"


def test_a_relative_project_root_is_resolved_against_the_documents_directory(
    ast_tool: Any, write_doc: Any, tiny_project: Callable[[int], Path], tmp_path: Path
) -> None:
    root = tiny_project(1)
    path = write_doc(document(f"../{root.name}", [LIST]), tmp_path / "docs")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    out = ast_tool("run", str(path), cwd=elsewhere).ok()
    assert [f["file"] for f in out["result"]["files"]] == ["m000.py"]


def test_run_from_stdin_resolves_project_root_against_the_working_directory(
    ast_tool: Any, tiny_project: Callable[[int], Path]
) -> None:
    root = tiny_project(1)
    out = ast_tool("run", "-", stdin=json.dumps(document(".", [LIST])), cwd=root).ok()
    assert out["result"]["total"] == 1


def test_toon_output_round_trips_to_the_json_output(
    ast_tool: Any, write_doc: Any, tiny_project: Callable[[int], Path]
) -> None:
    root = tiny_project(3)
    path = str(write_doc(document(root.name, [LIST]), root.parent))
    as_json = ast_tool("run", path).ok()
    completed = ast_tool("run", path, "--output-format", "toon")
    assert completed.code == 0 and completed.stderr == ""
    as_toon = toons.loads(completed.stdout)
    as_json.pop("duration_ms"), as_toon.pop("duration_ms")
    assert as_toon == as_json
    assert len(completed.stdout) < len(json.dumps(as_json))


def test_toon_is_refused_for_a_prepare_pipeline_before_anything_runs(
    ast_tool: Any, write_doc: Any, tmp_path: Path
) -> None:
    steps = [
        {"id": "p", "tool": "ast_replace_symbol_body", "input": {"selector": "m.py::f", "new_body": "pass"}}
    ]
    error = ast_tool("run", str(write_doc(document(".", steps))), "--output-format", "toon").error(2)
    assert error["code"] == "USAGE" and error["command"] == "run"
    assert not (tmp_path / "state").exists()


@pytest.mark.parametrize(
    ("args", "stdin"),
    [((), None), (("missing.json",), None), (("-", "--output-format", "yaml"), "{}")],
)
def test_command_line_mistakes_are_usage_errors(
    ast_tool: Any, args: tuple[str, ...], stdin: str | None
) -> None:
    error = ast_tool("run", *args, stdin=stdin).error(2)
    assert error["code"] == "USAGE"
    assert "Traceback" not in error["message"]


def test_invalid_json_exits_2_with_one_error_object_on_stderr(ast_tool: Any) -> None:
    completed = ast_tool("run", "-", stdin='{"version": 1,')
    error = completed.error(2)
    assert len(completed.stderr.strip().splitlines()) == 1
    assert set(error) == {"status", "command", "code", "message", "details"}
    assert (error["command"], error["code"]) == ("run", "INVALID_JSON")
    assert ast_tool("validate", "-", stdin="[1,]").error(2)["command"] == "validate"


def test_a_document_over_one_mebibyte_is_an_input_limit(ast_tool: Any, write_doc: Any) -> None:
    doc = document(".", [LIST], emit="x" * (1024 * 1024))
    assert ast_tool("validate", str(write_doc(doc))).error(2)["code"] == "INPUT_LIMIT"
    assert ast_tool("run", "-", stdin=json.dumps(doc)).error(2)["code"] == "INPUT_LIMIT"
    raw = json.dumps(document(".", [LIST], emit=""))
    exact = raw.replace('"emit": ""', '"emit": "' + "x" * (1024 * 1024 - len(raw)) + '"')
    assert len(exact.encode()) == 1024 * 1024
    assert ast_tool("validate", "-", stdin=exact).ok()["status"] == "valid"


STATIC_FAILURES = {
    "forward reference": (
        [
            {"id": "a", "tool": "ast_get_outline", "input": {"file_path": {"$ref": "#/steps/b/x"}}},
            dict(LIST, id="b"),
        ],
        "INVALID_REFERENCE",
        "a",
    ),
    "reference to a missing step": (
        [LIST, {"id": "b", "tool": "ast_get_outline", "input": {"file_path": {"$ref": "#/steps/zz/x"}}}],
        "MISSING_REFERENCE",
        "b",
    ),
    "item outside foreach": (
        [LIST, {"id": "b", "tool": "ast_get_outline", "input": {"file_path": {"$item": "/file"}}}],
        "INVALID_ITEM_REFERENCE",
        "b",
    ),
    "pollution segment": (
        [
            LIST,
            {
                "id": "b",
                "tool": "ast_get_outline",
                "input": {"file_path": {"$ref": "#/steps/files/__proto__"}},
            },
        ],
        "INVALID_REFERENCE",
        "b",
    ),
    "apply as a step": (
        [LIST, {"id": "b", "tool": "ast_apply_operation", "input": {"operation_id": "x", "plan_hash": "y"}}],
        "FORBIDDEN_TOOL",
        "b",
    ),
    "preview as a step": (
        [LIST, {"id": "b", "tool": "ast_get_operation_preview", "input": {"operation_id": "x"}}],
        "FORBIDDEN_TOOL",
        "b",
    ),
    "two prepares": (
        [
            {"id": "a", "tool": "ast_replace_symbol_body", "input": {}},
            {"id": "b", "tool": "ast_rename_symbol", "input": {}},
        ],
        "INVALID_BATCH",
        "a",
    ),
    "prepare not last": (
        [{"id": "a", "tool": "ast_replace_symbol_body", "input": {}}, dict(LIST, id="b")],
        "INVALID_BATCH",
        "a",
    ),
    "unknown input key": (
        [{"id": "a", "tool": "ast_list_files", "input": {"pattern": "*"}}],
        "INVALID_BATCH",
        "a",
    ),
    "unknown document key": ([dict(LIST, retries=2)], "INVALID_BATCH", "files"),
}


@pytest.mark.parametrize("case", sorted(STATIC_FAILURES))
@pytest.mark.parametrize("command", ["validate", "run"])
def test_static_rule_violations_exit_2_before_any_tool_runs(
    ast_tool: Any, write_doc: Any, command: str, case: str
) -> None:
    steps, code, step_id = STATIC_FAILURES[case]
    error = ast_tool(command, str(write_doc(document(".", steps)))).error(2)
    assert (error["command"], error["code"], error["step_id"]) == (command, code, step_id)


def test_a_failing_tool_exits_1_with_nothing_on_stdout_even_after_earlier_steps_succeeded(
    ast_tool: Any, write_doc: Any, tiny_project: Callable[[int], Path]
) -> None:
    root = tiny_project(1)
    steps = [LIST, {"id": "src", "tool": "ast_get_symbol_source", "input": {"selector": "m000.py::missing"}}]
    error = ast_tool("run", str(write_doc(document(root.name, steps), root.parent))).error(1)
    assert (error["code"], error["step_id"]) == ("TOOL_ERROR", "src")
    assert error["details"]["error"]["code"] == "NOT_FOUND"
    assert error["details"]["tool"] == "ast_get_symbol_source"


def test_a_missing_project_root_is_a_tool_error(ast_tool: Any, write_doc: Any) -> None:
    error = ast_tool("run", str(write_doc(document("no-such-dir", [LIST])))).error(1)
    assert error["details"]["error"]["code"] == "PROJECT_NOT_FOUND"


def test_two_hundred_and_one_foreach_items_exit_1_with_foreach_limit(
    ast_tool: Any, write_doc: Any, tiny_project: Callable[[int], Path]
) -> None:
    root = tiny_project(201)
    each = {
        "id": "each",
        "tool": "ast_get_outline",
        "foreach": {"$ref": "#/steps/files/files"},
        "input": {"file_path": {"$item": "/file"}},
    }
    error = ast_tool("run", str(write_doc(document(root.name, [LIST, each]), root.parent))).error(1)
    assert (error["code"], error["step_id"]) == ("FOREACH_LIMIT", "each")


@pytest.fixture(scope="module")
def big_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Eleven modules whose one function's source is just over 1 MiB."""
    root = tmp_path_factory.mktemp("big")
    line = "        " + repr("x" * 100) + ",\n"
    body = "def big():\n    return [\n" + line * (1024 * 1024 // len(line) + 50) + "    ]\n"
    for i in range(11):
        (root / f"b{i:02d}.py").write_text(body, encoding="utf-8")
    return root


def big_sources(count: int) -> list[dict[str, Any]]:
    return [
        {"id": "files", "tool": "ast_list_files", "input": {"limit": count}},
        {
            "id": "sources",
            "tool": "ast_get_symbol_source",
            "foreach": {"$ref": "#/steps/files/files"},
            "input": {"file_path": {"$item": "/file"}, "symbol_path": "big", "max_bytes": 1024 * 1024},
        },
    ]


def test_a_step_result_over_ten_mebibytes_exits_1_with_result_limit(
    ast_tool: Any, write_doc: Any, big_project: Path
) -> None:
    error = ast_tool("run", str(write_doc(document(str(big_project), big_sources(11))))).error(1)
    assert (error["code"], error["step_id"]) == ("RESULT_LIMIT", "sources")
    assert error["details"]["limit"] == 10 * 1024 * 1024


def test_an_output_over_ten_mebibytes_exits_1_with_output_limit(
    ast_tool: Any, write_doc: Any, big_project: Path
) -> None:
    twice = [{"$ref": "#/steps/sources"}, {"$ref": "#/steps/sources"}]
    once = document(str(big_project), big_sources(6), emit=twice[:1])
    assert ast_tool("run", str(write_doc(once))).ok()["invocation_count"] == 7
    error = ast_tool("run", str(write_doc(document(str(big_project), big_sources(6), emit=twice)))).error(1)
    assert error["code"] == "OUTPUT_LIMIT" and "step_id" not in error


def test_every_error_code_a_user_can_see_is_a_spec_code() -> None:
    assert set(BATCH_CODES) == {
        "USAGE",
        "INPUT_LIMIT",
        "INVALID_JSON",
        "INVALID_BATCH",
        "INVALID_REFERENCE",
        "MISSING_REFERENCE",
        "INVALID_ITEM_REFERENCE",
        "FORBIDDEN_TOOL",
        "FOREACH_LIMIT",
        "INVOCATION_LIMIT",
        "RESULT_LIMIT",
        "CONTEXT_LIMIT",
        "OUTPUT_LIMIT",
        "ENCODING_ERROR",
        "TOOL_ERROR",
        "APPLY_ERROR",
    }


def test_toon_output_that_would_not_round_trip_is_an_encoding_error(
    ast_tool: Any, write_doc: Any, tiny_project: Callable[[int], Path]
) -> None:
    root = tiny_project(1)
    path = str(write_doc(document(root.name, [LIST], emit={"big": 1e100}), root.parent))
    assert ast_tool("run", path).ok()["result"] == {"big": 1e100}
    error = ast_tool("run", path, "--output-format", "toon").error(1)
    assert error["code"] == "ENCODING_ERROR"


def test_tool_logs_never_reach_stderr_so_a_failure_is_exactly_one_json_value(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from astmcp.pipeline import cli

    def crash() -> str:
        print("astmcp: internal error in some_tool: Boom", file=sys.stderr)
        raise RuntimeError("boom")

    assert cli._quietly("run", crash) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    error = json.loads(captured.err)
    assert (error["code"], error["details"]["exception"]) == ("INTERNAL_ERROR", "RuntimeError")

    def noisy() -> str:
        print("a warning", file=sys.stderr)
        return '{"ok":1}'

    assert cli._quietly("run", noisy) == 0
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ('{"ok":1}\n', "")
