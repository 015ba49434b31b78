"""Project-level diagnostics in the index, kept current as files come and go."""

from __future__ import annotations

from typing import Any


def keyed(out: dict[str, Any]) -> set[tuple[str, str, str]]:
    return {(d["file"], d["code"], d["message"]) for d in out["diagnostics"]}


def test_index_reports_each_builtin_check_once_with_owning_symbol(mixed: Any) -> None:
    out = mixed("ast_get_diagnostics", limit=500)
    assert keyed(out) == {
        ("app/bad.py", "PY-UNDEFINED-NAME", "undefined name 'undefined_helper'"),
        ("app/broken.py", "PY-SYNTAX", "invalid syntax"),
        ("app/use.py", "PY-UNRESOLVED-IMPORT", "cannot resolve module 'app.nothing'"),
        ("app/use.py", "PY-UNRESOLVED-IMPORT", "cannot import name 'missing_name' from 'app.core'"),
        ("web/main.ts", "TS-UNRESOLVED-IMPORT", "cannot resolve module './gone'"),
        ("web/main.ts", "TS-DUPLICATE-DECLARATION", "cannot redeclare block-scoped name 'z'"),
        ("app/latin1.py", "ENCODING", "file is not UTF-8 text; not indexed"),
    }
    by_code = {d["code"]: d for d in out["diagnostics"]}
    assert by_code["PY-UNDEFINED-NAME"]["symbol"] == "app/bad.py::Service.start"
    assert by_code["PY-UNDEFINED-NAME"]["source"] == "astmcp"
    assert (by_code["PY-UNDEFINED-NAME"]["line"], by_code["PY-UNDEFINED-NAME"]["column"]) == (3, 16)
    assert by_code["TS-DUPLICATE-DECLARATION"]["symbol"] == "web/main.ts::render"
    assert by_code["PY-SYNTAX"]["symbol"] is None


def test_adding_the_missing_module_clears_the_importers_diagnostic(mixed: Any) -> None:
    mixed("ast_get_diagnostics")
    (mixed.root / "app" / "nothing.py").write_text("", encoding="utf-8")
    (mixed.root / "web" / "gone.ts").write_text("export default 1;\n", encoding="utf-8")
    messages = {d["message"] for d in mixed("ast_get_diagnostics", limit=500)["diagnostics"]}
    assert "cannot resolve module 'app.nothing'" not in messages
    assert "cannot resolve module './gone'" not in messages


def test_removing_or_emptying_a_module_reports_its_unchanged_importers(mixed: Any) -> None:
    mixed("ast_get_diagnostics")
    (mixed.root / "web" / "util.ts").unlink()
    (mixed.root / "app" / "core.py").write_text("VALUE = 1\n", encoding="utf-8")
    found = keyed(mixed("ast_get_diagnostics", limit=500))
    assert ("web/main.ts", "TS-UNRESOLVED-IMPORT", "cannot resolve module './util'") in found
    assert ("app/use.py", "PY-UNRESOLVED-IMPORT", "cannot import name 'run' from '.core'") in found


def test_names_injected_into_builtins_elsewhere_stay_quiet_until_the_injection_goes(mixed: Any) -> None:
    assert not any(d["file"] == "app/uses_injected.py" for d in mixed("ast_get_diagnostics")["diagnostics"])
    (mixed.root / "app" / "inject.py").write_text("import builtins\n", encoding="utf-8")
    found = keyed(mixed("ast_get_diagnostics", limit=500))
    assert ("app/uses_injected.py", "PY-UNDEFINED-NAME", "undefined name 'tr'") in found
    (mixed.root / "app" / "inject.py").write_text("import builtins\nbuiltins.tr = str\n", encoding="utf-8")
    assert not any(d["file"] == "app/uses_injected.py" for d in mixed("ast_get_diagnostics")["diagnostics"])


def test_fixing_a_file_removes_its_diagnostics(mixed: Any) -> None:
    mixed("ast_get_diagnostics")
    (mixed.root / "app" / "bad.py").write_text("class Service:\n    pass\n", encoding="utf-8")
    assert not any(d["file"] == "app/bad.py" for d in mixed("ast_get_diagnostics")["diagnostics"])


def test_a_package_under_tests_does_not_shadow_an_installed_one_elsewhere(tmp_path: Any, caller: Any) -> None:
    root = tmp_path / "proj"
    (root / "tests" / "sphinx").mkdir(parents=True)
    (root / "docs").mkdir()
    (root / "tests" / "sphinx" / "__init__.py").write_text("", encoding="utf-8")
    (root / "tests" / "test_x.py").write_text("from sphinx import nothing_here\n", encoding="utf-8")
    (root / "docs" / "conf.py").write_text("from sphinx import version_info\n", encoding="utf-8")
    found = {(d["file"], d["message"]) for d in caller(root)("ast_get_diagnostics")["diagnostics"]}
    assert found == {("tests/test_x.py", "cannot import name 'nothing_here' from 'sphinx'")}


def test_javascript_require_in_bundles_is_not_judged_but_es_imports_are(tmp_path: Any, caller: Any) -> None:
    root = tmp_path / "js"
    root.mkdir()
    (root / "bundle.js").write_text(
        "var a = require('./addons/base');\nimport b from './missing.js';\n", encoding="utf-8"
    )
    found = [(d["line"], d["message"]) for d in caller(root)("ast_get_diagnostics")["diagnostics"]]
    assert found == [(2, "cannot resolve module './missing.js'")]


def test_a_tsconfig_paths_alias_that_finds_no_file_is_unresolved(tmp_path: Any, caller: Any) -> None:
    root = tmp_path / "aliased"
    (root / "src" / "lib").mkdir(parents=True)
    (root / "node_modules" / "@vendor" / "kit").mkdir(parents=True)
    (root / "tsconfig.json").write_text(
        '{"compilerOptions": {"baseUrl": ".", "paths": {"@lib/*": ["src/lib/*"], "@vendor/*": ["src/vendor/*"]}}}\n',
        encoding="utf-8",
    )
    (root / "src" / "lib" / "ok.ts").write_text("export const ok = 1;\n", encoding="utf-8")
    (root / "src" / "main.ts").write_text(
        'import { ok } from "@lib/ok";\nimport { no } from "@lib/missing";\n'
        'import kit from "@vendor/kit";\nimport React from "react";\n',
        encoding="utf-8",
    )
    found = [(d["line"], d["message"]) for d in caller(root)("ast_get_diagnostics")["diagnostics"]]
    assert found == [(2, "cannot resolve module '@lib/missing'")]


def test_editing_tsconfig_paths_rejudges_unchanged_importers(tmp_path: Any, caller: Any) -> None:
    root = tmp_path / "aliased"
    (root / "src" / "lib").mkdir(parents=True)
    config = '{"compilerOptions": {"baseUrl": ".", "paths": {"@lib/*": ["src/%s/*"]}}}\n'
    (root / "tsconfig.json").write_text(config % "lib", encoding="utf-8")
    (root / "src" / "lib" / "ok.ts").write_text("export const ok = 1;\n", encoding="utf-8")
    (root / "src" / "main.ts").write_text('import { ok } from "@lib/ok";\n', encoding="utf-8")
    project = caller(root)
    assert project("ast_get_diagnostics")["diagnostics"] == []
    (root / "tsconfig.json").write_text(config % "moved", encoding="utf-8")
    found = [(d["file"], d["message"]) for d in project("ast_get_diagnostics")["diagnostics"]]
    assert found == [("src/main.ts", "cannot resolve module '@lib/ok'")]


def test_a_module_declaration_is_no_import_to_resolve(tmp_path: Any, caller: Any) -> None:
    root = tmp_path / "ambient"
    (root / "src").mkdir(parents=True)
    (root / "src" / "lib.ts").write_text("export interface Shape {\n  size: number;\n}\n", encoding="utf-8")
    (root / "src" / "shims.ts").write_text(
        'import "./lib";\ndeclare module "./lib" {\n  interface Shape {\n    color: string;\n  }\n}\n'
        'declare module "./gone" {\n  interface Shape {}\n}\nimport { x } from "./gone";\n',
        encoding="utf-8",
    )
    found = [(d["line"], d["message"]) for d in caller(root)("ast_get_diagnostics")["diagnostics"]]
    # `declare module "./gone"` may declare a module nothing provides; the import of it may not
    assert found == [(10, "cannot resolve module './gone'")]
