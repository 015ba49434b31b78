"""ast_replace_symbol_body: before/after fixtures under tests/fixtures/refactor/replace_body."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from astmcp.errors import InvalidInput
from astmcp.lang import optional_module
from astmcp.refactor.body_python import replace_python_body
from astmcp.refactor.body_ts import replace_ts_body

CASES = Path(__file__).parents[1] / "fixtures" / "refactor" / "replace_body"


def _case(name: str) -> tuple[str, bytes, bytes, dict[str, Any]]:
    folder = CASES / name
    before = next(folder.glob("before.*"))
    after = next(folder.glob("after.*"))
    spec = json.loads((folder / "case.json").read_text(encoding="utf-8"))
    return before.suffix, before.read_bytes(), after.read_bytes(), spec


PY_CASES = sorted(p.name for p in CASES.iterdir() if p.name.startswith("py_"))
TS_CASES = sorted(p.name for p in CASES.iterdir() if p.name.startswith(("ts_", "js_")))


@pytest.mark.parametrize("name", PY_CASES)
def test_python_body_replacement_matches_the_after_fixture_once_applied(name: str, project: Any) -> None:
    suffix, before, after, spec = _case(name)
    p = project({f"mod{suffix}": before})
    plan = p(
        "ast_replace_symbol_body", selector=f"mod{suffix}::{spec['symbol_path']}", new_body=spec["new_body"]
    )
    assert plan["kind"] == "replace_body" and plan["blocked"] is False
    assert (p.root / f"mod{suffix}").read_bytes() == before  # prepare writes nothing
    out = p.apply(plan)
    assert out["status"] == "applied" and out["affected_files"] == [f"mod{suffix}"]
    assert (p.root / f"mod{suffix}").read_bytes() == after


@pytest.mark.parametrize("name", TS_CASES)
def test_ts_body_replacement_matches_the_after_fixture(name: str) -> None:
    suffix, before, after, spec = _case(name)
    line, col = spec["name_at"]
    out = replace_ts_body(f"mod{suffix}", before.decode("utf-8"), line, col, spec["new_body"])
    assert out.encode("utf-8") == after


@pytest.mark.parametrize("name", TS_CASES)
def test_ts_body_replacement_through_the_tool_once_the_ts_front_end_exists(name: str, project: Any) -> None:
    if optional_module("astmcp.lang.typescript") is None:
        pytest.skip("TypeScript front end not built yet")
    suffix, before, after, spec = _case(name)
    p = project({f"mod{suffix}": before})
    plan = p(
        "ast_replace_symbol_body", selector=f"mod{suffix}::{spec['symbol_path']}", new_body=spec["new_body"]
    )
    p.apply(plan)
    assert (p.root / f"mod{suffix}").read_bytes() == after


def test_python_new_body_that_does_not_parse_is_invalid_input_with_the_location(project: Any) -> None:
    p = project({"m.py": "def f():\n    return 1\n"})
    error = p.error("ast_replace_symbol_body", selector="m.py::f", new_body="x = 1\ny = = 2\n")
    assert error["code"] == "INVALID_INPUT"
    assert error["details"] == {"line": 2, "column": 5}
    assert p.read("m.py") == "def f():\n    return 1\n"


def test_ts_new_body_that_does_not_parse_is_invalid_input_with_a_location() -> None:
    with pytest.raises(InvalidInput) as caught:
        replace_ts_body("a.ts", "function f() {\n  return 1;\n}\n", 1, 10, "const x = ;\nreturn x;")
    assert caught.value.details is not None and caught.value.details["line"] == 1


def test_python_body_of_a_redefined_function_is_chosen_by_line() -> None:
    text = "def f():\n    return 1\n\n\ndef f():\n    return 2\n"
    out = replace_python_body(text, "f", 5, "return 3")
    assert out == "def f():\n    return 1\n\n\ndef f():\n    return 3\n"


def test_replacing_a_body_keeps_bom_crlf_and_file_mode(project: Any) -> None:
    p = project({"m.py": b"\xef\xbb\xbfdef f():\r\n    return 1\r\n\r\n\r\nX = 1\r\n"})
    os.chmod(p.root / "m.py", 0o751)
    plan = p("ast_replace_symbol_body", selector="m.py::f", new_body="a = 2\nreturn a")
    p.apply(plan)
    assert (
        p.root / "m.py"
    ).read_bytes() == b"\xef\xbb\xbfdef f():\r\n    a = 2\r\n    return a\r\n\r\n\r\nX = 1\r\n"
    assert os.stat(p.root / "m.py").st_mode & 0o7777 == 0o751


def test_variable_has_no_body_to_replace(project: Any) -> None:
    p = project({"m.py": "X = 1\n"})
    assert p.error("ast_replace_symbol_body", selector="m.py::X", new_body="pass")["code"] == "NOT_FOUND"


def test_empty_new_body_is_invalid_input(project: Any) -> None:
    p = project({"m.py": "def f():\n    return 1\n"})
    assert p.error("ast_replace_symbol_body", selector="m.py::f", new_body="  \n")["code"] == "INVALID_INPUT"


def test_unknown_symbol_is_not_found_with_suggestions(project: Any) -> None:
    p = project({"m.py": "def fetch():\n    return 1\n"})
    error = p.error("ast_replace_symbol_body", selector="m.py::fetc", new_body="pass")
    assert error["code"] == "NOT_FOUND" and "m.py::fetch" in error["details"]["suggestions"]


def test_body_adding_an_error_diagnostic_is_blocked_unless_allowed(project: Any) -> None:
    if optional_module("astmcp.diagnostics.delta") is None:
        pytest.skip("diagnostics engine not built yet")
    p = project({"m.py": "def f():\n    return 1\n"})
    plan = p("ast_replace_symbol_body", selector="m.py::f", new_body="return undefined_thing")
    assert plan["blocked"] is True and plan["diagnostics"]["added_errors"] == 1
    assert "error diagnostic" in plan["block_reason"]
    allowed = p(
        "ast_replace_symbol_body",
        selector="m.py::f",
        new_body="return undefined_thing",
        allow_new_errors=True,
    )
    assert allowed["blocked"] is False and allowed["block_reason"] is None
    assert allowed["plan_hash"] != plan["plan_hash"]
