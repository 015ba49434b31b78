"""The plan delta: post-images analyzed in memory against the indexed baseline."""

from __future__ import annotations

from typing import Any

from astmcp.diagnostics.delta import DiagnosticsDelta, diagnostics_delta


def delta(project: Any, images: dict[str, str]) -> DiagnosticsDelta:
    project("ast_list_files")  # open and index the workspace
    return diagnostics_delta(project.workspaces.get(None), images)


def keys(items: list[dict[str, Any]]) -> set[tuple[str, str, str]]:
    return {(d["file"], d["code"], d["message"]) for d in items}


def test_removing_a_name_reports_the_importers_that_are_not_in_the_post_image(mixed: Any) -> None:
    result = delta(mixed, {"app/core.py": "VALUE = 1\n"})
    assert keys(result.added) == {
        ("app/use.py", "PY-UNRESOLVED-IMPORT", "cannot import name 'run' from '.core'")
    }
    assert result.removed == [] and result.added_errors == 1


def test_fixing_files_shows_up_as_removed_diagnostics(mixed: Any) -> None:
    result = delta(
        mixed,
        {
            "app/bad.py": "class Service:\n    def start(self) -> object:\n        return 1\n",
            "app/broken.py": "def oops():\n    pass\n",
            "app/nothing.py": "",
        },
    )
    assert keys(result.removed) == {
        ("app/bad.py", "PY-UNDEFINED-NAME", "undefined name 'undefined_helper'"),
        ("app/broken.py", "PY-SYNTAX", "invalid syntax"),
        ("app/use.py", "PY-UNRESOLVED-IMPORT", "cannot resolve module 'app.nothing'"),
    }
    assert result.added == [] and result.added_errors == 0


def test_moving_code_without_changing_it_is_no_change(mixed: Any) -> None:
    moved = "\n\n\nclass Service:\n    def start(self) -> object:\n        return undefined_helper()\n"
    result = delta(
        mixed, {"app/bad.py": moved, "web/main.ts": "\n" + (mixed.root / "web/main.ts").read_text()}
    )
    assert result == DiagnosticsDelta([], [], 0)


def test_new_errors_carry_position_severity_and_owning_symbol(mixed: Any) -> None:
    result = delta(
        mixed, {"app/extra.py": "def helper():\n    return nope\n", "web/util.ts": "export const b = 1;\n"}
    )
    by_code = {d["code"]: d for d in result.added}
    assert by_code["PY-UNDEFINED-NAME"] == {
        "code": "PY-UNDEFINED-NAME",
        "severity": "error",
        "source": "astmcp",
        "file": "app/extra.py",
        "line": 2,
        "column": 12,
        "message": "undefined name 'nope'",
        "symbol": "app/extra.py::helper",
    }
    assert result.added_errors == 1  # web/util.ts losing `a` is not judged by name for TS


def test_a_post_image_that_drops_a_builtins_injection_reports_its_users(mixed: Any) -> None:
    result = delta(mixed, {"app/inject.py": "import builtins\n"})
    assert keys(result.added) == {("app/uses_injected.py", "PY-UNDEFINED-NAME", "undefined name 'tr'")}


def test_the_delta_writes_nothing(mixed: Any) -> None:
    before = {p: p.read_bytes() for p in mixed.root.rglob("*") if p.is_file() and ".astmcp" not in p.parts}
    delta(mixed, {"app/core.py": "VALUE = 2\n", "app/new.py": "x = 1\n"})
    after = {p: p.read_bytes() for p in mixed.root.rglob("*") if p.is_file() and ".astmcp" not in p.parts}
    assert before == after
    assert mixed("ast_get_diagnostics")["total"] == 7
