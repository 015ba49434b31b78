"""TS/JS module resolution: every rule on fixture projects, and incremental re-resolution."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from astmcp.resolve.ts_config import parse_jsonc
from astmcp.resolve.ts_modules import TsProject, resolve_specifier

Row = tuple[str | None, int]


def resolved(project: Any) -> dict[tuple[str, str], Row]:
    """(importing file, specifier) -> (resolved_path, external), after a refresh."""
    conn = project.workspaces.get(None).db()
    rows = conn.execute(
        "SELECT f.path, i.module, i.resolved_path, i.external FROM imports i JOIN files f ON f.id = i.file_id"
    ).fetchall()
    return {(path, module): (target, external) for path, module, target, external in rows}


@pytest.fixture
def esm(fixture_project: Any, caller: Any) -> Any:
    return caller(fixture_project("ts/esm"))


@pytest.fixture
def workspace(fixture_project: Any, caller: Any) -> Any:
    return caller(fixture_project("ts/workspace"))


@pytest.fixture
def paths(fixture_project: Any, caller: Any) -> Any:
    return caller(fixture_project("ts/paths"))


# -- relative specifiers --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("specifier", "target"),
    [
        ("./a.js", "src/a.ts"),  # NodeNext: .js names the .ts source
        ("./b.ts", "src/b.ts"),  # allowImportingTsExtensions
        ("./Card.js", "src/Card.tsx"),
        ("./m.mjs", "src/m.mts"),
        ("./c.cjs", "src/c.cts"),
        ("./util/index.js", "src/util/index.ts"),
        ("./util", "src/util/index.ts"),  # directory index
        ("./plain.js", "src/plain.js"),  # no TypeScript twin: the .js itself
        ("./data.json", "src/data.json"),  # not indexed, but a real file
        ("./types.js", "src/types.d.ts"),
        ("./lazy.js", "src/lazy.ts"),  # dynamic import()
    ],
)
def test_relative_specifiers_resolve_like_typescript(esm: Any, specifier: str, target: str) -> None:
    assert resolved(esm)[("src/index.ts", specifier)] == (target, 0)


def test_a_missing_relative_file_is_unresolved_not_external(esm: Any) -> None:
    assert resolved(esm)[("src/index.ts", "./missing.js")] == (None, 0)


def test_commonjs_requires_resolve_with_and_without_extensions(fixture_project: Any, caller: Any) -> None:
    rows = resolved(caller(fixture_project("ts/cjs")))
    assert rows[("index.js", "./lib/format")] == ("lib/format.js", 0)
    assert rows[("index.js", "./lib")] == ("lib/index.js", 0)
    assert rows[("index.js", "./data.json")] == ("data.json", 0)
    assert rows[("index.js", "./lib/lazy.mjs")] == ("lib/lazy.mjs", 0)
    assert rows[("index.js", "path")] == (None, 1)
    assert rows[("lib/App.jsx", "../index.js")] == ("index.js", 0)


# -- tsconfig -------------------------------------------------------------------------------


def test_paths_and_base_url_come_through_a_relative_extends_with_comments(paths: Any) -> None:
    rows = resolved(paths)
    main = "apps/web/src/main.ts"
    assert rows[(main, "@app/util")] == ("apps/web/src/util.ts", 0)  # wildcard pattern
    assert rows[(main, "@shared")] == ("libs/shared/index.ts", 0)  # exact pattern
    assert rows[(main, "@multi/strings")] == ("libs/shared/strings.ts", 0)  # second substitution
    assert rows[(main, "libs/shared/strings")] == ("libs/shared/strings.ts", 0)  # baseUrl
    assert rows[(main, "lodash/debounce")] == (None, 1)


def test_paths_without_base_url_are_relative_to_their_config_and_scoped_to_it(paths: Any) -> None:
    rows = resolved(paths)
    page = "apps/admin/src/page.ts"
    assert rows[(page, "~/widgets")] == ("apps/admin/src/widgets/index.ts", 0)
    # admin's tsconfig does not extend the base, so the base's aliases do not apply there.
    assert rows[(page, "@app/util")] == (None, 1)


def test_a_package_based_extends_brings_its_paths(workspace: Any) -> None:
    rows = resolved(workspace)
    assert rows[("packages/app/src/index.ts", "@acme/testing")] == ("packages/testing/src/index.ts", 0)


# -- packages ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("specifier", "row"),
    [
        ("@acme/core", ("packages/core/src/index.ts", 0)),  # exports "." → dist, mapped to src
        ("@acme/core/utils", ("packages/core/src/utils.ts", 0)),  # exports subpath
        ("@acme/core/feature/alpha", ("packages/core/src/feature/alpha.ts", 0)),  # exports pattern
        ("@acme/ui", ("packages/ui/src/main.ts", 0)),  # main/types, build dir mapped to src
        ("@acme/ui/src/button", ("packages/ui/src/button.ts", 0)),  # no exports: any subpath
        ("#internal/db", ("packages/app/src/internal/db.ts", 0)),  # package.json imports pattern
        ("#env", ("packages/app/src/env.node.ts", 0)),  # first condition that exists
        ("react", (None, 1)),
        ("node:fs", (None, 1)),
        ("@acme/missing", (None, 1)),
    ],
)
def test_workspace_packages_resolve_through_their_manifests(workspace: Any, specifier: str, row: Row) -> None:
    assert resolved(workspace)[("packages/app/src/index.ts", specifier)] == row


def test_resolve_specifier_is_usable_outside_the_index(fixture_project: Any) -> None:
    root = fixture_project("ts/workspace")
    files = [p.relative_to(root).as_posix() for p in root.rglob("*.ts")]
    project = TsProject.from_disk(root, files)
    assert (
        resolve_specifier(project, "packages/app/src/index.ts", "@acme/core/utils")
        == "packages/core/src/utils.ts"
    )
    assert (
        resolve_specifier(project, "packages/core/src/index.ts", "./utils.js") == "packages/core/src/utils.ts"
    )
    assert resolve_specifier(project, "packages/core/src/index.ts", "../../../../outside") is None


# -- incremental --------------------------------------------------------------------------------


def test_adding_a_file_resolves_imports_of_unchanged_importers(esm: Any) -> None:
    assert resolved(esm)[("src/index.ts", "./missing.js")] == (None, 0)
    (esm.root / "src" / "missing.ts").write_text("export const gone = 1;\n", encoding="utf-8")
    assert resolved(esm)[("src/index.ts", "./missing.js")] == ("src/missing.ts", 0)


def test_removing_a_file_unresolves_imports_of_unchanged_importers(esm: Any) -> None:
    assert resolved(esm)[("src/index.ts", "./a.js")] == ("src/a.ts", 0)
    (esm.root / "src" / "a.ts").unlink()
    assert resolved(esm)[("src/index.ts", "./a.js")] == (None, 0)


def test_a_new_twin_takes_precedence_over_the_js_file(esm: Any) -> None:
    assert resolved(esm)[("src/index.ts", "./plain.js")] == ("src/plain.js", 0)
    (esm.root / "src" / "plain.ts").write_text('export const plain = "ts";\n', encoding="utf-8")
    assert resolved(esm)[("src/index.ts", "./plain.js")] == ("src/plain.ts", 0)


def test_editing_a_tsconfig_re_resolves_every_importer(paths: Any) -> None:
    assert resolved(paths)[("apps/web/src/main.ts", "@shared")] == ("libs/shared/index.ts", 0)
    config = paths.root / "tsconfig.base.json"
    text = config.read_text(encoding="utf-8").replace('"libs/shared/index.ts"', '"libs/shared/strings.ts"')
    config.write_text(text, encoding="utf-8")
    assert resolved(paths)[("apps/web/src/main.ts", "@shared")] == ("libs/shared/strings.ts", 0)


def test_adding_a_package_json_makes_a_package_resolvable(workspace: Any) -> None:
    assert resolved(workspace)[("packages/app/src/index.ts", "@acme/missing")] == (None, 1)
    folder = workspace.root / "packages" / "missing"
    (folder / "src").mkdir(parents=True)
    (folder / "src" / "index.ts").write_text("export const nothing = 0;\n", encoding="utf-8")
    manifest = {"name": "@acme/missing", "exports": "./src/index.ts"}
    (folder / "package.json").write_text(json.dumps(manifest), encoding="utf-8")
    assert resolved(workspace)[("packages/app/src/index.ts", "@acme/missing")] == (
        "packages/missing/src/index.ts",
        0,
    )


def test_editing_only_an_importer_resolves_its_new_imports(esm: Any) -> None:
    resolved(esm)
    path = esm.root / "src" / "b.ts"
    path.write_text('import { a } from "./a.js";\nexport const b = a;\n', encoding="utf-8")
    assert resolved(esm)[("src/b.ts", "./a.js")] == ("src/a.ts", 0)


# -- tsconfig dialect ----------------------------------------------------------------------------


def test_tsconfig_json_may_have_comments_and_trailing_commas() -> None:
    text = '{\n  // line\n  "a": "http://x/*not a comment*/", /* block */\n  "b": [1, 2, /* c */ ],\n}\n'
    assert parse_jsonc(text) == {"a": "http://x/*not a comment*/", "b": [1, 2]}


def test_an_extends_cycle_or_a_broken_config_does_not_break_resolution(tmp_path: Path) -> None:
    config = '{ "extends": ["./broken.json", "./other.json"], "compilerOptions": { "paths": { "@x": ["./b.ts"] } } }'
    (tmp_path / "tsconfig.json").write_text(config, encoding="utf-8")
    (tmp_path / "other.json").write_text('{ "extends": "./tsconfig.json" }', encoding="utf-8")
    (tmp_path / "broken.json").write_text('{ "compilerOptions": {', encoding="utf-8")
    (tmp_path / "a.ts").write_text("", encoding="utf-8")
    project = TsProject.from_disk(tmp_path, ["a.ts", "b.ts"])
    assert resolve_specifier(project, "a.ts", "@x") == "b.ts"
    assert resolve_specifier(project, "a.ts", "./b") == "b.ts"
    assert project.resolve("a.ts", "left-pad").external


def test_only_declared_workspace_members_capture_package_names(tmp_path: Path) -> None:
    (tmp_path / "pnpm-workspace.yaml").write_text('packages:\n  - "libs/**"  # nested\n', encoding="utf-8")
    for folder, name in (("libs/a/b", "@x/b"), ("fixtures/other", "other")):
        (tmp_path / folder).mkdir(parents=True)
        manifest = {"name": name, "main": "index.ts"}
        (tmp_path / folder / "package.json").write_text(json.dumps(manifest), encoding="utf-8")
        (tmp_path / folder / "index.ts").write_text("export {};\n", encoding="utf-8")
    project = TsProject.from_disk(tmp_path, ["libs/a/b/index.ts", "fixtures/other/index.ts", "app.ts"])
    assert resolve_specifier(project, "app.ts", "@x/b") == "libs/a/b/index.ts"
    assert project.resolve("app.ts", "other").external  # not a member: an installed package wins
    missing = project.resolve("app.ts", "@x/b/missing")  # the repo's package, without that module
    assert missing.path is None and not missing.external


def test_tsx_files_resolve_through_base_url_and_extensionless_specifiers(
    fixture_project: Any, caller: Any
) -> None:
    rows = resolved(caller(fixture_project("ts/tsx")))
    assert rows[("src/components/Button.tsx", "theme")] == ("src/theme.ts", 0)  # baseUrl "src"
    assert rows[("src/App.tsx", "./components/Button")] == ("src/components/Button.tsx", 0)
    assert rows[("src/components/Button.tsx", "react")] == (None, 1)


@pytest.mark.parametrize(
    ("base", "own", "expected"),
    [
        ({"strict": True}, {}, True),
        ({"strict": True}, {"strictNullChecks": False}, False),
        ({"strictNullChecks": False}, {"strict": True}, False),  # the explicit flag wins, wherever it is
        ({}, {"strictNullChecks": True}, True),
        ({}, {}, False),  # unset: off, as TypeScript 5 has it
    ],
)
def test_strict_null_checks_merge_along_extends(
    tmp_path: Path, base: dict[str, Any], own: dict[str, Any], expected: bool
) -> None:
    from astmcp.resolve.ts_config import TsConfigs

    (tmp_path / "tsconfig.base.json").write_text(json.dumps({"compilerOptions": base}))
    config = {"extends": "./tsconfig.base.json", "compilerOptions": own}
    (tmp_path / "tsconfig.json").write_text("// comment\n" + json.dumps(config))
    assert TsConfigs(tmp_path, {}).strict_null_checks("tsconfig.json") is expected
