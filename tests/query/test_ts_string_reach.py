"""Strings that cannot name a module-level value of an ES module are no hits of it; those that
may (through a namespace object used as a value, ``eval``, a script or CommonJS) stay hits."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

_DECLARED = "export function string(): number {\n  return 1;\n}\n"
_STRINGS = 'export const words = ["string", `call x.string()`];\n'
_INDEX = 'export * from "./a";\nexport * as ns from "./a";\nimport * as z from "./a";\nexport { z, z as default };\n'


def _string_hits(caller: Any, root: Path, files: dict[str, str], selector: str = "a.ts::string") -> list[str]:
    root.mkdir()
    # an entry point importing the strings' module and the declaring one: values of either may
    # meet (no import chain joining them would make every string no hit: query.ts_parts)
    script = selector.partition("::")[0].endswith(".js")
    joiner = "app.js" if script else "app.ts"
    strings = "s.js" if script else "s.ts"
    files = {**files, joiner: f'import "./{strings}";\nimport "./{selector.partition("::")[0]}";\n'}
    for name, text in files.items():
        (root / name).write_text(text, encoding="utf-8")
    out = caller(root)("ast_find_references", selector=selector, include_declaration=False)
    return [r["file"] for r in out["references"] if r["kind"] == "string"]


@pytest.mark.parametrize(
    "user",
    [
        'import * as a from "./a";\na.string();\ntype T = typeof a.string;\nexport const f = a?.string;\n',
        'import * as lib from "./index";\nlib.string();\nlib.ns.string();\nlib.z.string();\n',
        'import { z } from "./index";\nimport zz from "./index";\nz.string();\nzz.string();\n',
        'import * as a from "./a";\nexport { a };\n',  # re-exported, and nobody imports it
        'import * as lib from "./index";\nconst { string: s } = lib;\ns();\nlib;\n',
        'import * as a from "./a";\nconst copy = { ...a, extra: 1 };\ncopy.string();\n',
        'export async function f() {\n  const m = await import("./a");\n  return m.string();\n}\n',
        'export async function f() {\n  const { string: s } = await import("./index");\n  return s();\n}\n',
    ],
)
def test_strings_are_no_hits_when_every_namespace_is_read_by_static_names(
    caller: Any, tmp_path: Path, user: str
) -> None:
    files = {"a.ts": _DECLARED, "index.ts": _INDEX, "user.ts": user, "s.ts": _STRINGS}
    assert _string_hits(caller, tmp_path / "p", files) == []


@pytest.mark.parametrize(
    "user",
    [
        'import * as a from "./a";\nexport const g = (k: string) => (a as any)[k];\n',
        'import * as a from "./a";\nexport const keys = Object.keys(a);\n',
        'import * as a from "./a";\ndeclare function take(x: object): void;\ntake(a);\n',
        'import * as a from "./a";\nexport type K = keyof typeof a;\n',
        'import * as a from "./a";\nconst all = { ...a };\nexport const k = (s: string) => (all as any)[s];\n',
        'import * as a from "./a";\nexport const get = () => a;\n',
        'import * as lib from "./index";\nexport const g = (k: string) => (lib as any)[k];\n',
        'import * as lib from "./index";\nexport const keys = Object.keys(lib.ns);\n',
        'import { z } from "./index";\nexport const keys = Object.keys(z);\n',
        'import zz from "./index";\nfor (const k in zz) console.log(k);\n',
        'import * as lib from "./index";\nconst { ns } = lib;\nexport const keys = Object.keys(ns);\n',
        'export const p = import("./index").then((m) => m);\n',
        'import * as a from "./a";\nconst copy = { ...a };\nexport const keys = Object.keys(copy);\n',
        'import * as lib from "./index";\nexport const copy = { ...lib };\nexport const k = (s: string) => (copy.ns as any)[s];\n',
        "export const load = (name: string) => import(name);\n",  # any module, this one too
        'export async function f(k: string) {\n  const m = await import("./a");\n  return (m as any)[k];\n}\n',
    ],
)
def test_strings_stay_hits_when_a_namespace_escapes(caller: Any, tmp_path: Path, user: str) -> None:
    files = {"a.ts": _DECLARED, "index.ts": _INDEX, "user.ts": user, "s.ts": _STRINGS}
    assert _string_hits(caller, tmp_path / "p", files) == ["s.ts", "s.ts"]


def test_strings_stay_hits_when_the_module_calls_eval(caller: Any, tmp_path: Path) -> None:
    files = {"a.ts": _DECLARED + "export const run = (code: string) => eval(code);\n", "s.ts": _STRINGS}
    assert _string_hits(caller, tmp_path / "p", files) == ["s.ts", "s.ts"]


def test_strings_stay_hits_of_a_script_and_of_commonjs(caller: Any, tmp_path: Path) -> None:
    script = {"a.js": "function string() {\n  return 1;\n}\n", "s.js": 'var words = ["string"];\n'}
    assert _string_hits(caller, tmp_path / "script", script, "a.js::string") == ["s.js"]
    cjs = {
        "a.js": "function string() {\n  return 1;\n}\nmodule.exports = { string };\n",
        "s.js": 'const words = ["string"];\nmodule.exports = { words };\n',
    }
    assert _string_hits(caller, tmp_path / "cjs", cjs, "a.js::string") == ["s.js"]


def test_strings_stay_hits_when_an_exported_copy_escapes_elsewhere(caller: Any, tmp_path: Path) -> None:
    copy = 'import * as lib from "./index";\nexport const copy = { ...lib };\n'
    user = 'import { copy } from "./copy";\nexport const keys = Object.keys(copy.ns);\n'
    files = {"a.ts": _DECLARED, "index.ts": _INDEX, "copy.ts": copy, "user.ts": user, "s.ts": _STRINGS}
    assert _string_hits(caller, tmp_path / "p", files) == ["s.ts", "s.ts"]
    static = 'import { copy } from "./copy";\nexport const n = copy.ns.string();\n'
    files["user.ts"] = static
    assert _string_hits(caller, tmp_path / "q", files) == []


def test_strings_stay_hits_when_an_unresolved_import_may_be_the_module(caller: Any, tmp_path: Path) -> None:
    user = 'import * as m from "./missing";\nexport const keys = Object.keys(m);\n'
    files = {"a.ts": _DECLARED, "user.ts": user, "s.ts": _STRINGS}
    assert _string_hits(caller, tmp_path / "p", files) == ["s.ts", "s.ts"]
