"""A TS class extending a package's class: members the package declares are an override
family reaching outside the project (refused); the others rename as usual."""

from __future__ import annotations

from pathlib import Path

from astmcp.query.package_types import package_defines
from astmcp.tools import call_tool
from astmcp.workspace import Workspaces

_DECLARATIONS = """export declare class Component<P> {
  props: P;
  render(): string;
  setState(next: Partial<P>): void;
}
export interface Plugin {
  setup(): void;
}
export declare function install(plugin: Plugin): void;
"""

_APP = """import { Component } from "fakelib";
import * as lib from "fakelib";

export class App extends Component<{ n: number }> {
  render(): string {
    return "x" + this.handle();
  }
  handle(): number {
    return 1;
  }
}

export class Other extends lib.Component<{}> {
  setState(): void {}
}

export const plugin: lib.Plugin = {
  setup(): void {},
};
lib.install(plugin);
"""


def _project(root: Path, *, installed: bool = True) -> Path:
    root.mkdir()
    if installed:
        package = root / "node_modules" / "fakelib"
        package.mkdir(parents=True)
        (package / "package.json").write_text('{"name": "fakelib", "types": "index.d.ts"}', encoding="utf-8")
        (package / "index.d.ts").write_text(_DECLARATIONS, encoding="utf-8")
    (root / "app.ts").write_text(_APP, encoding="utf-8")
    return root


def _rename(root: Path, selector: str, new_name: str) -> dict[str, object]:
    workspaces = Workspaces(root)
    try:
        result = call_tool(workspaces, "ast_rename_symbol", {"selector": selector, "new_name": new_name})
    finally:
        workspaces.close()
    return result.data


def test_a_member_the_package_base_declares_is_refused(tmp_path: Path) -> None:
    root = _project(tmp_path / "app")
    before = (root / "app.ts").read_bytes()
    for selector, member in (("app.ts::App.render", "render"), ("app.ts::Other.setState", "setState")):
        out = _rename(root, selector, "renamed")
        error = out["error"]
        assert isinstance(error, dict) and error["code"] == "MUTATION_BLOCKED", out
        assert error["details"]["external_members"] == [f"fakelib.Component.{member}"]
    assert (root / "app.ts").read_bytes() == before


def test_a_literal_member_a_package_type_declares_is_refused(tmp_path: Path) -> None:
    # `install(plugin)` calls `plugin.setup()` inside the package: renaming the key breaks it
    root = _project(tmp_path / "app")
    out = _rename(root, "app.ts::plugin.setup", "prepare")
    error = out["error"]
    assert isinstance(error, dict) and error["code"] == "MUTATION_BLOCKED", out
    assert error["details"]["external_members"] == ["Plugin.setup"]


def test_a_member_the_package_base_lacks_renames(tmp_path: Path) -> None:
    out = _rename(_project(tmp_path / "app"), "app.ts::App.handle", "compute")
    assert "error" not in out and out["blocked"] is False
    assert out["reference_count"] == 2


def test_package_declarations_are_read_from_node_modules_and_types(tmp_path: Path) -> None:
    root = _project(tmp_path / "app")
    assert package_defines(root, "fakelib.Component", "render") is True
    assert package_defines(root, "fakelib.Component", "handle") is False
    assert package_defines(root, "missing.Component", "render") is None  # not installed: unknown
    typed = root / "node_modules" / "@types" / "scope__ui"
    typed.mkdir(parents=True)
    (typed / "index.d.ts").write_text("export class Widget { mount(el: unknown): void }\n", encoding="utf-8")
    assert package_defines(root, "@scope/ui/widgets.Widget", "mount") is True
