"""Plans: canonical plan_hash, workspace hash, the store, preview, plan files."""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from astmcp.errors import InvalidInput
from astmcp.refactor.plan import canonical_json
from astmcp.refactor.planfile import read_plan_file, write_plan_file
from astmcp.refactor.store import PlanStore

FILES = {
    "pkg/__init__.py": "",
    "pkg/a.py": "def f():\n    return 1\n" + "".join(f"\nX{i} = {i}\n" for i in range(8)),
    "pkg/b.py": "def g():\n    return 2\n",
    "pyproject.toml": "[project]\nname = 'x'\n",
}


def _prepare(p: Any, body: str = "return 10") -> dict[str, Any]:
    result: dict[str, Any] = p("ast_replace_symbol_body", selector="pkg/a.py::f", new_body=body)
    return result


def test_prepared_plan_carries_every_spec_field(project: Any) -> None:
    p = project(FILES)
    plan = _prepare(p)
    assert set(plan) == {
        "operation_id", "plan_hash", "kind", "status", "project_root", "created_at", "expires_at",
        "affected_files", "reference_count", "uncertain_references", "workspace_hash",
        "workspace_file_count", "diagnostics", "allow_new_errors", "blocked", "block_reason",
        "preview", "preview_truncated",
    }  # fmt: skip
    assert plan["status"] == "prepared" and len(plan["plan_hash"]) == 64
    assert plan["affected_files"][0]["file"] == "pkg/a.py"
    assert plan["diagnostics"] == {"added": [], "removed": [], "added_errors": 0}
    assert plan["block_reason"] is None and plan["preview_truncated"] is False
    # three indexed sources + pyproject.toml
    assert plan["workspace_file_count"] == 4


def test_plan_hash_is_sha256_of_canonical_json_without_preview_fields(project: Any) -> None:
    p = project(FILES)
    wire = _prepare(p)
    plan = p.ws.plans.get(wire["operation_id"])
    fields = plan.hashed_fields()
    assert "preview" not in fields and "block_reason" not in fields and "plan_hash" not in fields
    assert fields["file_modes"] == {"pkg/a.py": os.stat(p.root / "pkg/a.py").st_mode & 0o7777}
    assert "post_workspace_hash" in fields
    import hashlib

    assert hashlib.sha256(canonical_json(fields).encode()).hexdigest() == wire["plan_hash"]
    assert canonical_json({"b": 1, "a": [1, 2]}) == '{"a":[1,2],"b":1}'


def test_plan_hash_changes_with_any_hashed_field_but_not_with_block_reason(project: Any) -> None:
    p = project(FILES)
    plan = p.ws.plans.get(_prepare(p)["operation_id"])
    assert replace(plan, reference_count=5).compute_hash() != plan.plan_hash
    assert replace(plan, allow_new_errors=True).compute_hash() != plan.plan_hash
    assert replace(plan, post_workspace_hash="0" * 64).compute_hash() != plan.plan_hash
    moved = replace(plan.files[0], mode=0o777)
    assert replace(plan, files=(moved,)).compute_hash() != plan.plan_hash
    assert replace(plan, block_reason="anything").compute_hash() == plan.plan_hash


def test_workspace_hash_covers_resolution_config_files(project: Any) -> None:
    p = project(
        {
            **FILES,
            "web/app.ts": "export const a = 1;\n",
            "web/tsconfig.json": '{"extends": "../base.json"}',
            "base.json": "{}",
        }
    )
    first = _prepare(p)
    assert first["workspace_file_count"] == 7  # 4 sources, pyproject, tsconfig, the extended base
    (p.root / "base.json").write_text('{"compilerOptions": {}}', encoding="utf-8")
    second = _prepare(p)
    assert second["workspace_hash"] != first["workspace_hash"]


def test_preview_is_a_unified_diff_with_three_lines_of_context(project: Any) -> None:
    p = project(FILES)
    plan = _prepare(p)
    out = p("ast_get_operation_preview", operation_id=plan["operation_id"])
    assert out["plan_hash"] == plan["plan_hash"]
    assert [f["file"] for f in out["files"]] == ["pkg/a.py"]
    diff = out["files"][0]["diff"]
    assert diff.startswith("--- a/pkg/a.py\n+++ b/pkg/a.py\n@@ -1,5 +1,5 @@\n")
    assert "-    return 1\n+    return 10\n" in diff
    assert plan["preview"] == diff
    only = p("ast_get_operation_preview", operation_id=plan["operation_id"], file="a.py")
    assert only["files"] == out["files"]
    error = p.error("ast_get_operation_preview", operation_id=plan["operation_id"], file="pkg/b.py")
    assert error["code"] == "INVALID_INPUT"


def test_preview_of_an_unknown_operation_is_not_found(project: Any) -> None:
    p = project(FILES)
    error = p.error("ast_get_operation_preview", operation_id="6f1f4bd6-8d3b-4bb8-9f0d-3d2f2b7c0a11")
    assert error["code"] == "NOT_FOUND"


def test_preview_over_100000_characters_is_null_and_marked_truncated(project: Any) -> None:
    p = project(FILES)
    body = "\n".join(f"v{i} = {i} * 1000000" for i in range(6000)) + "\nreturn 0"
    plan = p("ast_replace_symbol_body", selector="pkg/a.py::f", new_body=body, max_bytes=1024 * 1024)
    assert plan["preview"] is None and plan["preview_truncated"] is True


def test_store_evicts_the_oldest_beyond_capacity_and_expired_plans_after_a_grace_ttl(project: Any) -> None:
    p = project(FILES)
    now = [1000.0]
    store = PlanStore(clock=lambda: now[0], capacity=2)
    plan = p.ws.plans.get(_prepare(p)["operation_id"])
    plans = [replace(plan, operation_id=f"{i}", expires_at=plan.expires_at) for i in range(3)]
    for item in plans:
        store.put(item)
    assert store.get("0") is None and store.get("1") is not None and len(store) == 2
    now[0] = plan.expires_ts() + 1  # expired, still held so apply can say EXPIRED
    assert store.get("2") is not None
    now[0] = plan.expires_ts() + store.ttl_s + 1
    assert store.get("2") is None


def test_plan_file_round_trips_with_private_permissions(project: Any) -> None:
    p = project(FILES)
    wire = _prepare(p)
    path = write_plan_file(p.ws, wire["operation_id"])
    assert path == p.state / "plans" / f"{wire['operation_id']}.astplan"
    assert os.stat(path).st_mode & 0o777 == 0o600
    assert os.stat(path.parent).st_mode & 0o777 == 0o700
    assert os.stat(p.state).st_mode & 0o777 == 0o700
    loaded = read_plan_file(path)
    assert loaded == p.ws.plans.get(wire["operation_id"])


@pytest.mark.parametrize("mode", [0o640, 0o604, 0o644])
def test_plan_file_readable_by_group_or_others_is_refused(project: Any, mode: int) -> None:
    p = project(FILES)
    path = write_plan_file(p.ws, _prepare(p)["operation_id"])
    os.chmod(path, mode)
    with pytest.raises(InvalidInput, match="group or others"):
        read_plan_file(path)


def test_plan_file_that_is_a_symlink_is_refused(project: Any, tmp_path: Path) -> None:
    p = project(FILES)
    path = write_plan_file(p.ws, _prepare(p)["operation_id"])
    link = tmp_path / "link.astplan"
    link.symlink_to(path)
    with pytest.raises(InvalidInput, match="symlink"):
        read_plan_file(link)


@pytest.mark.parametrize(
    "tamper",
    [
        lambda body: body["plan"].__setitem__("allow_new_errors", True),
        lambda body: body["plan"].__setitem__("blocked", False) or body["plan"].__setitem__("kind", "rename"),
        lambda body: body["internal"]["files"][0].__setitem__("new_bytes", "cHJpbnQoMSkK"),
        lambda body: body["internal"]["files"][0].__setitem__("mode", 0o777),
        lambda body: body["internal"]["workspace_files"].__setitem__("pkg/b.py", "0" * 64),
    ],
)
def test_tampered_plan_file_is_refused(project: Any, tamper: Any) -> None:
    p = project(FILES)
    path = write_plan_file(p.ws, _prepare(p)["operation_id"])
    body = json.loads(path.read_bytes())
    tamper(body)
    path.write_bytes(json.dumps(body).encode())
    with pytest.raises(InvalidInput, match="tampered"):
        read_plan_file(path)


def test_plan_file_with_another_schema_version_is_refused(project: Any) -> None:
    p = project(FILES)
    path = write_plan_file(p.ws, _prepare(p)["operation_id"])
    body = json.loads(path.read_bytes())
    body["schema_version"] = 99
    path.write_bytes(json.dumps(body).encode())
    with pytest.raises(InvalidInput, match="schema_version"):
        read_plan_file(path)


def test_plan_output_drops_the_preview_then_trims_uncertain_references_to_fit_max_bytes(project: Any) -> None:
    from astmcp.refactor.tools import plan_output

    p = project(FILES)
    plan = p.ws.plans.get(_prepare(p)["operation_id"])
    many = tuple({"file": "pkg/a.py", "line": n, "column": 1, "end_column": 2, "kind": "string",
                  "confidence": "name"} for n in range(400))  # fmt: skip
    big = replace(plan, uncertain_references=many)
    from astmcp.tools import dumps_compact, to_wire

    out = to_wire(plan_output(big, 8 * 1024))
    assert out["preview"] is None and out["preview_truncated"] is True
    assert out["truncated"] is True and 0 < len(out["uncertain_references"]) < 400
    assert out["plan_hash"] == plan.plan_hash
    assert len(dumps_compact(out).encode()) <= 8 * 1024


def test_write_tools_are_registered_with_their_annotations() -> None:
    from astmcp.tools import registry

    tools = registry()
    for name in ("ast_rename_symbol", "ast_replace_symbol_body", "ast_get_operation_preview"):
        assert tools[name].read_only is True and tools[name].destructive is False
    apply = tools["ast_apply_operation"]
    assert apply.read_only is False and apply.destructive is True and apply.idempotent is True
