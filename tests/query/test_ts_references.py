"""``ast_find_references`` and ``ast_inspect_graph`` on TS/JS projects, through the tool boundary;
incremental re-linking and override families."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from astmcp.query.common import SymbolTarget, resolve_symbol
from astmcp.query.references import collect_references, override_family
from astmcp.workspace import Workspace


def _graph(call: Any, request: dict[str, Any]) -> dict[str, Any]:
    return call(  # type: ignore[no-any-return]
        "ast_inspect_graph", question="q", draft="smallest request", review="checked", request=request
    )


def test_find_references_counts_typed_calls_and_lists_untyped_receivers_as_name_hits(
    fixture_project: Callable[[str], Path], caller: Any
) -> None:
    call = caller(fixture_project("ts/refs/same_name"))
    out = call("ast_find_references", selector="shapes.ts::File.close", detail="context")
    assert out["reference_count"] == 2  # declaration + f.close()
    assert out["uncertain_count"] == 1  # x.close() with x: any
    assert [(r["line"], r["kind"], r["confidence"]) for r in out["references"]] == [
        (2, "definition", "certain"),
        (10, "call", "certain"),
        (12, "call", "name"),
    ]
    assert out["references"][1]["context"] == "f.close();  // -> File.close"


def test_find_references_follows_a_barrel_to_the_importer(
    fixture_project: Callable[[str], Path], caller: Any
) -> None:
    call = caller(fixture_project("ts/refs/barrel"))
    out = call("ast_find_references", selector="src/lib/core.ts::helper", include_declaration=False)
    assert out["affected_files"] == ["src/lib/core.ts", "src/main.ts"]
    assert {(r["file"], r["line"], r["kind"]) for r in out["references"]} == {
        ("src/lib/core.ts", 6, "call"),
        ("src/main.ts", 1, "import"),
        ("src/main.ts", 4, "call"),
    }


def test_an_edit_to_an_imported_file_relinks_its_importers(fixture_project: Callable[[str], Path]) -> None:
    root = fixture_project("ts/refs/barrel")
    ws = Workspace(root)
    try:
        selector = SymbolTarget(selector="src/lib/core.ts::helper")
        conn = ws.db()
        before = {(r.file, r.line) for r in collect_references(ws, conn, resolve_symbol(ws, conn, selector))}
        core = root / "src/lib/core.ts"
        core.write_text("// moved down\n\n" + core.read_text(encoding="utf-8"), encoding="utf-8")
        conn = ws.db()
        after = {(r.file, r.line) for r in collect_references(ws, conn, resolve_symbol(ws, conn, selector))}
    finally:
        ws.index.close()
    assert ("src/main.ts", 4) in before
    assert after == {(f, line + 2 if f == "src/lib/core.ts" else line) for f, line in before}


def test_extending_a_standard_global_relinks_its_readers(tmp_path: Path) -> None:
    """`Symbol.observable` is the library's until a file declares `interface SymbolConstructor`
    in `declare global`; then it may be the project's member (a name hit), in every reader."""
    root = tmp_path / "globals"
    root.mkdir()
    (root / "interop.ts").write_text("export class Interop {\n  observable = 1;\n}\n", encoding="utf-8")
    (root / "use.ts").write_text(  # it imports interop.ts: an Interop may be in its hands (query.ts_parts)
        'export const key = Symbol.observable;\nexport { Interop } from "./interop";\n', encoding="utf-8"
    )
    types = root / "types.ts"
    types.write_text("export type Id = string;\n", encoding="utf-8")
    ws = Workspace(root)
    try:
        selector = SymbolTarget(selector="interop.ts::Interop.observable")

        def hits() -> set[tuple[str, int]]:
            conn = ws.db()
            found = collect_references(ws, conn, resolve_symbol(ws, conn, selector))
            return {(r.file, r.line) for r in found if not r.is_declaration}

        before = hits()
        types.write_text(
            "export type Id = string;\n"
            "declare global {\n  interface SymbolConstructor {\n    readonly observable: symbol;\n  }\n}\n",
            encoding="utf-8",
        )
        after = hits()
    finally:
        ws.index.close()
    assert before == set()
    assert after == {("use.ts", 1)}


def test_installing_or_upgrading_a_package_relinks_its_readers(tmp_path: Path) -> None:
    """`this.store.state.count` reads State.count only where the package declares `state` as its
    type argument: unknown before `npm install`, certain after it, and the package's own member
    once an upgrade declares it otherwise. No source or config file changes on the way."""
    root = tmp_path / "app"
    root.mkdir()
    (root / "counter.ts").write_text(
        'import { Store } from "@scope/store";\n'
        "export interface State {\n  count: number;\n}\n"
        "export class Counter {\n"
        "  readonly store: Store<State> = new Store({ count: 0 });\n"
        "  read(): number {\n    return this.store.state.count;\n  }\n}\n",
        encoding="utf-8",
    )
    package = root / "node_modules" / "@scope" / "store"

    def install(state: str) -> None:
        package.mkdir(parents=True, exist_ok=True)
        (package / "index.d.ts").write_text(
            f"export declare class Store<T> {{\n  constructor(value: T);\n  get state(): {state};\n}}\n",
            encoding="utf-8",
        )
        # npm rewrites its install record on every install (a folder's contents may keep its stamp)
        (root / "node_modules" / ".package-lock.json").write_text(f'{{"state": "{state}"}}', encoding="utf-8")

    ws = Workspace(root)
    try:
        selector = SymbolTarget(selector="counter.ts::State.count")

        def hits() -> set[tuple[int, str]]:
            conn = ws.db()
            found = collect_references(ws, conn, resolve_symbol(ws, conn, selector))
            return {(r.line, r.confidence) for r in found if not r.is_declaration}

        missing = hits()
        install("T")
        installed = hits()
        install("Readonly<{ count: string }>")
        upgraded = hits()
    finally:
        ws.index.close()
    # (`new Store({ count: 0 })`: a package constructor's argument is not read, a name hit throughout)
    assert missing == {(6, "name"), (8, "name")}
    assert installed == {(6, "name"), (8, "certain")}
    assert upgraded == {(6, "name")}


def test_an_edit_to_a_type_parameter_default_relinks_the_callers(
    fixture_project: Callable[[str], Path],
) -> None:
    root = fixture_project("ts/refs/generics")
    ws = Workspace(root)
    selector = SymbolTarget(selector="core.ts::Def.kind")

    def sure() -> set[tuple[str, int]]:
        conn = ws.db()
        refs = collect_references(ws, conn, resolve_symbol(ws, conn, selector))
        return {(r.file, r.line) for r in refs if r.confidence != "name"}

    try:
        before = sure()
        core = root / "core.ts"
        text = core.read_text(encoding="utf-8")
        old = 'export function make<T extends Trait, D = T["_zod"]["def"]>('
        core.write_text(
            text.replace(old, "export function make<T extends Trait, D = Internals>("), encoding="utf-8"
        )
        after = sure()
    finally:
        ws.index.close()
    assert ("schemas.ts", 15) in before  # def.kind in make("Box", (inst, def) => …)
    assert ("schemas.ts", 15) not in after


def test_adding_an_importer_links_its_references(fixture_project: Callable[[str], Path]) -> None:
    root = fixture_project("ts/refs/barrel")
    ws = Workspace(root)
    try:
        ws.db()
        (root / "src/extra.ts").write_text('import { helper } from "./lib";\nhelper();\n', encoding="utf-8")
        conn = ws.db()
        symbol = resolve_symbol(ws, conn, SymbolTarget(selector="src/lib/core.ts::helper"))
        found = {(r.file, r.line, r.kind) for r in collect_references(ws, conn, symbol)}
    finally:
        ws.index.close()
    assert {("src/extra.ts", 1, "import"), ("src/extra.ts", 2, "call")} <= found


def test_override_family_covers_implements_extends_and_interface_members(
    fixture_project: Callable[[str], Path],
) -> None:
    ws = Workspace(fixture_project("ts/refs/interface"))
    try:
        conn = ws.db()
        symbol = resolve_symbol(ws, conn, SymbolTarget(selector="shapes.ts::Square.area"))
        family, external = override_family(conn, symbol)
    finally:
        ws.index.close()
    assert sorted(m.symbol_path for m in family) == ["Base.area", "Shape.area", "Square.area"]
    assert external == []


def test_a_type_and_a_value_sharing_a_name_are_found_apart(
    fixture_project: Callable[[str], Path], caller: Any, tmp_path: Path
) -> None:
    root = tmp_path / "merged"
    root.mkdir()
    (root / "a.ts").write_text(
        "export interface Box { size: number }\n"
        "export const Box = (size: number): Box => ({ size });\n"
        "export const small: Box = Box(1);\n",
        encoding="utf-8",
    )
    call = caller(root)
    value = call("ast_find_references", selector="a.ts::Box@2", include_declaration=False)
    kind = call("ast_find_references", selector="a.ts::Box@1", include_declaration=False)
    assert [(r["line"], r["column"]) for r in value["references"]] == [(3, 27)]
    assert [(r["line"], r["column"]) for r in kind["references"]] == [(2, 36), (3, 21)]


def test_strings_never_name_a_type_only_declaration(caller: Any, tmp_path: Path) -> None:
    """An interface or type alias exists only at compile time: `"Shape"` in a string is no use of
    it. A value of the name (`const Point`), or a class merged with an interface, is reached by
    strings at run time (here through its module's namespace object, `Object.keys(a)`), so its
    string hits stay."""
    root = tmp_path / "types"
    root.mkdir()
    (root / "a.ts").write_text(
        "export interface Shape { size: number }\n"
        "export type Alias = { size: number };\n"
        "export const Point = 1;\n"
        "export interface Box { size: number }\n"
        "export class Box {}\n",
        encoding="utf-8",
    )
    (root / "b.ts").write_text(
        'export const names = ["Shape", "Alias", "Point", "Box"];\n',
        encoding="utf-8",
    )
    (root / "c.ts").write_text(
        'import * as a from "./a";\nexport const keys = Object.keys(a);\n', encoding="utf-8"
    )
    # an entry point joins the strings' module to the others (query.ts_parts)
    (root / "main.ts").write_text('import "./b";\nimport "./c";\n', encoding="utf-8")
    call = caller(root)

    def strings(selector: str) -> list[tuple[str, int, int]]:
        out = call("ast_find_references", selector=selector, include_declaration=False)
        return [(r["file"], r["line"], r["column"]) for r in out["references"] if r["kind"] == "string"]

    assert strings("a.ts::Shape") == []
    assert strings("a.ts::Alias") == []
    assert strings("a.ts::Point") == [("b.ts", 1, 42)]
    assert strings("a.ts::Box@4") == [("b.ts", 1, 51)]


def test_graph_trace_follows_ts_calls_and_inherits(
    fixture_project: Callable[[str], Path], caller: Any
) -> None:
    call = caller(fixture_project("ts/refs/graph"))
    path = _graph(call, {"type": "trace", "from": "src/store.ts::build", "to": "src/store.ts::Store"})
    assert path["paths"][0] in (
        ["src/store.ts::build", "src/store.ts::make", "src/store.ts::Store"],  # make() returns a Store
        ["src/store.ts::build", "src/store.ts::Store.open", "src/store.ts::Store"],  # so does open()
    )
    details = _graph(call, {"type": "details", "handles": ["src/store.ts::Store"], "neighbors": True})
    edges = {(e["from"], e["to"], e["kind"]) for e in details["edges"]}
    assert ("src/store.ts::Store", "src/store.ts::Opener", "inherits") in edges


def test_graph_tests_request_finds_the_ts_test_that_exercises_a_function(
    fixture_project: Callable[[str], Path], caller: Any
) -> None:
    call = caller(fixture_project("ts/refs/graph"))
    out = _graph(call, {"type": "tests", "handles": ["src/store.ts::build"]})
    assert [n["selector"] for n in out["nodes"]] == ["test/store.test.ts::checkBuild"]
