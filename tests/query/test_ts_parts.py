"""``query.ts_parts``: which TS/JS files no import chain joins to a declaring file."""

from __future__ import annotations

from pathlib import Path

import pytest

from astmcp.query.ts_parts import ModuleParts
from astmcp.workspace import Workspace

_TREES = {
    "a/model.ts": "export class Model {\n  params = 1;\n}\n",
    "a/use.ts": 'import { Model } from "./model";\nexport const m = new Model();\n',
    "b/read.ts": "export function read(x: any): unknown {\n  return x.params;\n}\n",
    "b/read.test.ts": 'import { test } from "vitest";\nimport { read } from "./read";\ntest("r", () => read({}));\n',
    "a/model.test.ts": 'import { test } from "vitest";\nimport { m } from "./use";\ntest("m", () => m);\n',
}


def _apart(tmp_path: Path, extra: dict[str, str]) -> tuple[bool, bool]:
    """(b/read.ts apart from a/model.ts, a/use.ts apart from a/model.ts)."""
    for name, text in {**_TREES, **extra}.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    ws = Workspace(tmp_path)
    try:
        parts = ModuleParts(ws.db())
        return parts.apart("b/read.ts", ["a/model.ts"]), parts.apart("a/use.ts", ["a/model.ts"])
    finally:
        ws.release()
        ws.index.close()


def test_two_trees_only_their_tests_share_a_package_with_are_apart(tmp_path: Path) -> None:
    # both test files import vitest: runners give each test file modules of its own
    assert _apart(tmp_path, {}) == (True, False)


@pytest.mark.parametrize(
    "extra",
    [
        # a file importing both trees may hand a Model to read()
        {"main.ts": 'import { read } from "./b/read";\nimport { m } from "./a/use";\nread(m);\n'},
        # a package both trees' sources use holds state either side may read
        {
            "a/bus.ts": 'import mitt from "mitt";\nimport { m } from "./use";\nmitt().emit("m", m);\n',
            "b/listen.ts": 'import mitt from "mitt/src";\nimport { read } from "./read";\nmitt().on("m", read);\n',
        },
        # a script's top-level names are globals
        {"c/legacy.ts": "var registry: unknown[] = [];\n"},
        # `import(name)` may load any module of the project
        {"c/load.ts": "export const load = (name: string) => import(name);\n"},
        # an import that found nothing may be of any file
        {"c/broken.ts": 'import { gone } from "./missing";\nexport const g = gone;\n'},
        # the declaring file declares globals
        {
            "a/model.ts": _TREES["a/model.ts"]
            + "declare global {\n  interface Window {\n    m: Model;\n  }\n}\n"
        },
    ],
    ids=[
        "importer-of-both",
        "shared-package",
        "script",
        "computed-import",
        "broken-import",
        "declare-global",
    ],
)
def test_a_way_across_the_trees_keeps_them_together(tmp_path: Path, extra: dict[str, str]) -> None:
    assert _apart(tmp_path, extra) == (False, False)


def test_a_declaration_file_script_is_read_by_anyone_but_joins_nothing(tmp_path: Path) -> None:
    globals_ = {"types/env.d.ts": "declare const VERSION: string;\n"}
    assert _apart(tmp_path, globals_) == (True, False)
    ws = Workspace(tmp_path)
    try:
        assert not ModuleParts(ws.db()).apart("b/read.ts", ["types/env.d.ts"])
    finally:
        ws.release()
        ws.index.close()
