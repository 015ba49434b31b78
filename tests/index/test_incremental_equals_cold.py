"""After any edit, the incrementally refreshed index holds what a cold index of the
edited tree holds: the same references, edges, resolved imports and diagnostics
(symbol ids compared through their selectors, file ids through their paths)."""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from astmcp.workspace import Workspace

PYTHON_PROJECT = {
    "lib.py": "def a():\n    return 1\n\n\ndef b():\n    return 2\n\n\nclass C:\n    def m(self):\n        return a()\n",
    "reexp.py": "from lib import a as a2, b\n",
    "star.py": "from lib import *\n",
    "use_name.py": "from lib import a, C\n\na()\nC().m()\n",
    "use_star.py": "from star import *\n\nb()\nd()\nC().m()\n",
    "use_reexp.py": "from reexp import a2, b\n\na2()\nb()\n",
    "use_module.py": "import lib\n\nlib.a()\nlib.d()\nlib.C().m()\n",
    "other.py": "def unrelated():\n    return 0\n",
    "use_other.py": "from other import unrelated\n\nunrelated()\n",
    # name hits kept with their chains: a member an outside class lacks (`X:`), one of a union of
    # unrelated families (`E:`); lib.py's edits relink them
    "hits.py": "from lib import C\n\n\nclass Err(Exception):\n    def __init__(self):\n        self.extra = 1\n\n\n"
    "class D:\n    def m(self):\n        return 2\n\n\ndef f(g, flag):\n    try:\n        g()\n"
    "    except Exception as e:\n        return e.extra\n    x = C() if flag else D()\n    return x.m()\n",
    # a test runs in its class and in each subclass, with the fixtures as each has them: a subclass
    # coming, overriding or going relinks the base's tests (`made.m()` certain, then a name hit)
    "test_made.py": "import pytest\n\nfrom lib import C\n\n\nclass TestMade:\n    @pytest.fixture()\n"
    "    def factory(self):\n        return C\n\n    @pytest.fixture()\n    def made(self, factory):\n"
    "        return factory()\n\n    def test_m(self, made):\n        assert made.m()\n",
    "test_made_sub.py": "import pytest\n",
}
SUBCLASS = "from test_made import TestMade\n\n\nclass TestSub(TestMade):\n"
LIB_ORIGINAL = PYTHON_PROJECT["lib.py"]
PYTHON_EDITS = [
    ("lib.py", LIB_ORIGINAL + "\n\ndef d():\n    return 4\n"),  # a new name, used by star and module users
    ("lib.py", LIB_ORIGINAL.replace("def b():\n    return 2\n\n\n", "")),  # b removed
    ("lib.py", LIB_ORIGINAL.replace("def a()", "def a_renamed()").replace("return a()", "return 0")),
    ("lib.py", "__all__ = ['a', 'C']\n\n" + LIB_ORIGINAL),  # b no longer through the star import
    ("lib.py", LIB_ORIGINAL.replace("return 2", "return 22")),  # a body edit
    ("lib.py", LIB_ORIGINAL.replace("def m(self)", "def m2(self)")),  # a method renamed
    ("reexp.py", "from lib import b as a2, a as b\n"),  # a re-export pointed elsewhere
    ("star.py", "from other import *\n"),  # a star import pointed elsewhere
    ("lib.py", LIB_ORIGINAL),
    ("test_made_sub.py", "import pytest\n\n" + SUBCLASS + "    pass\n"),
    (
        "test_made_sub.py",
        "import pytest\n\n" + SUBCLASS + "    @pytest.fixture()\n    def factory(self):\n        return 1\n",
    ),
    ("test_made_sub.py", "import pytest\n\n" + SUBCLASS.replace("(TestMade)", "") + "    pass\n"),
]

TS_PROJECT = {
    "lib.ts": "export function a(): number {\n  return 1\n}\n\nexport function b(): number {\n  return 2\n}\n\n"
    "export class C {\n  m(): number {\n    return a()\n  }\n}\n",
    "reexp.ts": "export { a as a2, b } from './lib'\n",
    "star.ts": "export * from './lib'\n",
    "use_name.ts": "import { a, C } from './lib'\n\na()\nnew C().m()\n",
    "use_star.ts": "import { b, d, C } from './star'\n\nb()\nd()\nnew C().m()\n",
    "use_reexp.ts": "import { a2, b } from './reexp'\n\na2()\nb()\n",
    "use_namespace.ts": "import * as lib from './lib'\n\nlib.a()\nlib.d()\nnew lib.C().m()\n",
    "make.ts": "export class D {\n  n(): number {\n    return 1\n  }\n}\n\n"
    "export function make(): D {\n  return new D()\n}\n\nexport const inst = make()\n\n"
    "export class E {\n  n(): number {\n    return 2\n  }\n}\n\nexport const either: D | E = new E()\n",
    "use_alias.ts": "import { inst, either } from './make'\n\ninst.n()\neither.n()\n",
    "kinds.ts": 'export interface A {\n  kind: "a"\n  x: number\n}\n\nexport interface B {\n  kind: "b"\n  x: number\n}\n\n'
    "export type AB = A | B\n",
    "use_kinds.ts": 'import type { AB } from "./kinds"\n\nexport function f(v: AB): number {\n  switch (v.kind) {\n'
    '    case "a":\n      return v.x\n  }\n  return 0\n}\n',
    "anon.ts": 'import { D } from "./make"\n\nexport function get(): { item: D } {\n  return { item: new D() }\n}\n',
    "use_anon.ts": 'import { get } from "./anon"\n\nget().item.n()\n',
    "other.ts": "export function unrelated(): number {\n  return 0\n}\n",
    "use_other.ts": "import { unrelated } from './other'\n\nunrelated()\n",
}
TS_ORIGINAL = TS_PROJECT["lib.ts"]
TS_EDITS = [
    ("lib.ts", TS_ORIGINAL + "\nexport const d = (): number => 4\n"),
    ("lib.ts", TS_ORIGINAL.replace("export function b(): number {\n  return 2\n}\n\n", "")),
    ("lib.ts", TS_ORIGINAL.replace("function a()", "function aRenamed()").replace("return a()", "return 0")),
    ("lib.ts", TS_ORIGINAL.replace("return 2", "return 22")),
    ("lib.ts", TS_ORIGINAL.replace("  m(): number", "  m2(): number")),
    ("reexp.ts", "export { b as a2, a as b } from './lib'\n"),
    ("star.ts", "export * from './other'\n"),
    ("lib.ts", TS_ORIGINAL),
    # a name another name's facts lead to: alias() is make(), whose return type changes
    ("make.ts", TS_PROJECT["make.ts"].replace("make(): D", "make(): number")),
    ("make.ts", TS_PROJECT["make.ts"] + "export * from './other'\n"),  # the whole file's importers
    # a discriminant's literal type: the alternative `case "a"` narrows to changes
    ("kinds.ts", TS_PROJECT["kinds.ts"].replace('kind: "a"', 'kind: "c"')),
    ("kinds.ts", TS_PROJECT["kinds.ts"]),
    # an object type written out: moved (same shape), then a member's type changed
    ("anon.ts", "\n" + TS_PROJECT["anon.ts"]),
    ("anon.ts", TS_PROJECT["anon.ts"].replace("item: D", "item: number")),
    ("anon.ts", TS_PROJECT["anon.ts"]),
]


def _write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.write_text(text, encoding="utf-8")
    # a distinct mtime so the refresh sees the change whatever the clock granularity
    stamp = path.stat().st_mtime_ns + 3_000_000_000
    os.utime(path, ns=(stamp, stamp))


def index_dump(conn: sqlite3.Connection) -> dict[str, list[tuple[Any, ...]]]:
    """The linkers' output with ids replaced by paths and selectors, sorted."""
    queries = {
        "refs": "SELECT f.path, r.line, r.col, r.end_col, r.name, r.kind, r.confidence, r.target_key,"
        " r.scope_path, s.selector FROM refs r JOIN files f ON f.id = r.file_id"
        " LEFT JOIN symbols s ON s.id = r.symbol_id",
        "edges": "SELECT f.path, src.selector, dst.selector, e.dst_key, e.kind, e.line FROM edges e"
        " JOIN files f ON f.id = e.file_id LEFT JOIN symbols src ON src.id = e.src_symbol_id"
        " LEFT JOIN symbols dst ON dst.id = e.dst_symbol_id",
        "imports": "SELECT f.path, i.line, i.module, i.name, i.alias, i.kind, i.resolved_path, i.external"
        " FROM imports i JOIN files f ON f.id = i.file_id",
        "diagnostics": "SELECT f.path, d.code, d.line, d.col, d.message, d.symbol_path"
        " FROM diagnostics d JOIN files f ON f.id = d.file_id",
        "dangling": "SELECT 'refs', r.symbol_id FROM refs r LEFT JOIN symbols s ON s.id = r.symbol_id"
        " WHERE r.symbol_id IS NOT NULL AND s.id IS NULL UNION ALL"
        " SELECT 'edges', e.dst_symbol_id FROM edges e LEFT JOIN symbols s ON s.id = e.dst_symbol_id"
        " WHERE e.dst_symbol_id IS NOT NULL AND s.id IS NULL",
    }
    return {name: sorted(conn.execute(sql).fetchall(), key=repr) for name, sql in queries.items()}


def _cold_dump(root: Path, tmp_path: Path) -> dict[str, list[tuple[Any, ...]]]:
    copy = tmp_path / "cold"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(root, copy, ignore=shutil.ignore_patterns(".astmcp"))
    ws = Workspace(copy)
    try:
        ws.index.refresh()
        return index_dump(ws.index.conn)
    finally:
        ws.index.close()


@pytest.mark.parametrize(
    ("project", "edits"), [(PYTHON_PROJECT, PYTHON_EDITS), (TS_PROJECT, TS_EDITS)], ids=["python", "ts"]
)
def test_each_edit_leaves_the_index_a_cold_index_would_build(
    tmp_path: Path, project: dict[str, str], edits: list[tuple[str, str]]
) -> None:
    root = tmp_path / "project"
    root.mkdir()
    for rel, text in project.items():
        _write(root, rel, text)
    ws = Workspace(root)
    try:
        ws.index.refresh()
        assert index_dump(ws.index.conn) == _cold_dump(root, tmp_path)
        for step, (rel, text) in enumerate(edits):
            _write(root, rel, text)
            assert ws.index.refresh().parsed == 1
            incremental = index_dump(ws.index.conn)
            cold = _cold_dump(root, tmp_path)
            for table in cold:
                assert incremental[table] == cold[table], (step, rel, table)
    finally:
        ws.index.close()
