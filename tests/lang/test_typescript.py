"""TypeScript/JavaScript front end: every symbol kind, SPEC addressing through the read
tools, signatures, docs, imports, grammar workarounds and syntax errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from astmcp.lang import extract_file
from astmcp.lang.ts_parse import TsSource, neutralize
from astmcp.lang.typescript import parse
from astmcp.model import FileFacts, SymbolFact

FIXTURES = Path(__file__).parent.parent / "fixtures" / "ts"


def facts_of(relative: str) -> FileFacts:
    path = FIXTURES / relative
    language = "javascript" if path.suffix in (".js", ".jsx", ".mjs", ".cjs") else "typescript"
    return extract_file(relative, language, path.read_bytes())


def by_path(facts: FileFacts) -> dict[str, list[SymbolFact]]:
    out: dict[str, list[SymbolFact]] = {}
    for symbol in facts.symbols:
        out.setdefault(symbol.symbol_path, []).append(symbol)
    return out


def one(facts: FileFacts, path: str) -> SymbolFact:
    [symbol] = by_path(facts)[path]
    return symbol


@pytest.fixture
def symbols_project(fixture_project: Any, caller: Any) -> Any:
    return caller(fixture_project("ts/symbols"))


# -- symbol kinds ---------------------------------------------------------------------


def test_every_typescript_declaration_kind_gets_a_symbol() -> None:
    kinds = {s.symbol_path: s.kind for s in facts_of("symbols/src/kinds.ts").symbols}
    expected = {
        "parse": "function",
        "parse.normalise": "function",
        "ids": "function",
        "Shape": "class",
        "Shape.constructor": "constructor",
        "Shape.count": "property",
        "Shape.id": "property",
        "Shape.area": "method",
        "Shape.name": "setter",
        "Shape.onClick": "method",
        "Shape.create": "method",
        "Circle": "class",
        "Circle.radius": "property",
        "Measured": "interface",
        "Measured.size": "property",
        "Measured.measure": "method",
        "Measured.total": "getter",
        "Point": "type",
        "Point.x": "property",
        "Color": "enum",
        "Color.Red": "enum_member",
        "Flag.Off": "enum_member",
        "Geometry": "namespace",
        "Geometry.origin": "variable",
        "Geometry.distance": "function",
        "Geometry.Inner.Vector": "class",
        "legacy-lib.legacyCall": "function",
        "global.Window.appVersion": "property",
        "VERSION": "variable",
        "RELEASE": "variable",
        "counter": "variable",
        "legacy": "variable",
        "alpha": "variable",
        "renamed": "variable",
        "others": "variable",
        "first": "variable",
        "double": "function",
        "triple": "function",
        "Mixin": "class",
        "Mixin.mixed": "method",
        "api.list": "method",
        "api.get": "method",
        "Registry": "class",
        "Registry.register": "method",
    }
    assert {path: kinds.get(path) for path in expected} == expected
    assert "api.version" not in kinds  # plain data in an object literal is not a symbol
    assert "beta" not in kinds  # the destructured key is not bound, its alias is


def test_get_set_pairs_and_overloads_repeat_one_path_in_source_order() -> None:
    symbols = by_path(facts_of("symbols/src/kinds.ts"))
    assert [(s.kind, s.line) for s in symbols["Shape.name"]] == [("getter", 37), ("setter", 41)]
    assert [s.line for s in symbols["Shape.scale"]] == [45, 46, 47]
    assert [s.line for s in symbols["parse"]] == [4, 5, 6]


def test_default_exports_and_export_equals_are_symbols() -> None:
    assert one(facts_of("symbols/src/helpers.ts"), "default").kind == "function"
    assert one(facts_of("symbols/src/defaultValue.ts"), "default").kind == "variable"
    legacy = facts_of("symbols/src/exportEquals.ts")
    assert one(legacy, "Legacy").exported and one(legacy, "Legacy.run").exported
    assert "exports: export = Legacy" in legacy.outline_header


def test_export_flags_follow_export_keywords_clauses_and_visibility() -> None:
    facts = facts_of("symbols/src/kinds.ts")
    exported = {s.symbol_path for s in facts.symbols if s.exported}
    assert {"parse", "Shape", "Shape.name", "Geometry.Inner.Vector", "hidden", "internal"} <= exported
    assert (
        not {"counter", "legacy", "parse.normalise", "Shape.label", "Shape.#secret", "Shape.owner"} & exported
    )


def test_declarations_in_a_global_declaration_file_are_exported() -> None:
    facts = facts_of("symbols/types/global.d.ts")
    assert all(s.exported for s in facts.symbols)
    assert {s.symbol_path for s in facts.symbols} == {
        "globalHelper",
        "GLOBAL_FLAG",
        "GlobalThing",
        "GlobalThing.id",
    }


def test_commonjs_exports_prototype_methods_and_classes_are_symbols() -> None:
    facts = facts_of("cjs/index.js")
    kinds = {s.symbol_path: (s.kind, s.exported) for s in facts.symbols}
    assert kinds["greet"] == ("function", True)  # via module.exports = { greet }
    assert kinds["Counter.increment"] == ("method", True)
    assert kinds["shout"] == ("function", True)
    assert kinds["version"] == ("variable", True)
    assert kinds["run"] == ("function", True)
    assert kinds["Queue"] == ("class", False)
    assert kinds["Queue.push"][0] == "method"
    assert one(facts_of("cjs/lib/index.js"), "help").exported


def test_tsx_components_hooks_and_class_components_are_symbols() -> None:
    facts = facts_of("tsx/src/components/Button.tsx")
    kinds = {s.symbol_path: s.kind for s in facts.symbols}
    assert kinds["Button"] == "function"
    assert kinds["IconButton"] == "function"
    assert kinds["Panel"] == "class" and kinds["Panel.render"] == "method"
    assert kinds["useToggle"] == "function"
    assert not facts.has_error_nodes
    assert one(facts_of("cjs/lib/App.jsx"), "App").kind == "function"


# -- signatures, docs, spans --------------------------------------------------------------


def test_signatures_are_one_line_as_written_without_bodies() -> None:
    facts = facts_of("symbols/src/kinds.ts")
    signature = {s.symbol_path: s.signature for s in facts.symbols}
    assert signature["Shape"] == "export abstract class Shape<T> implements Measured"
    assert signature["Shape.constructor"] == "constructor(public readonly id: string, private owner?: T)"
    assert signature["Shape.onClick"] == "onClick = (event: MouseEvent): void =>"
    assert signature["double"] == "export const double = (n: number): number =>"
    assert signature["ids"] == "export function* ids(start = 0): Generator<number>"
    assert signature["Geometry"] == "export namespace Geometry"
    assert signature["RELEASE"] == "export const RELEASE: number = 3"
    assert all("\n" not in s.signature and "{ return" not in s.signature for s in facts.symbols)


def test_decorators_are_in_the_span_but_the_line_is_the_declaration() -> None:
    facts = facts_of("symbols/src/kinds.ts")
    circle = one(facts, "Circle")
    assert (circle.span.line, circle.line) == (58, 59)
    area = one(facts, "Circle.area")
    assert (area.span.line, area.line, area.span.end_line) == (62, 63, 65)
    assert circle.signature == "export class Circle extends Shape<number>"


def test_first_jsdoc_line_becomes_the_doc() -> None:
    facts = facts_of("symbols/src/kinds.ts")
    assert one(facts, "Shape").doc == "A shape with an area."
    assert one(facts, "Shape.area").doc == "Area in square units."
    assert by_path(facts)["parse"][0].doc == "Parse one thing."
    assert one(facts, "ids").doc is None


def test_columns_are_code_points_on_lines_with_non_ascii_text() -> None:
    facts = facts_of("symbols/src/unicode.ts")
    line1 = (FIXTURES / "symbols/src/unicode.ts").read_text(encoding="utf-8").splitlines()[0]
    grosse = one(facts, "größe")
    assert grosse.name_span.column == line1.index("größe") + 1
    assert grosse.name_span.end_column == grosse.name_span.column + len("größe")
    line2 = (FIXTURES / "symbols/src/unicode.ts").read_text(encoding="utf-8").splitlines()[1]
    assert one(facts, "Zoë").name_span.column == line2.index("Zoë") + 1
    assert one(facts, "emoji").name_span.column == line2.index("emoji") + 1


# -- imports and the outline header -------------------------------------------------------


def test_imports_reexports_requires_and_dynamic_imports_are_facts() -> None:
    index = facts_of("esm/src/index.ts")
    rows = {(i.module, i.name, i.alias, i.kind) for i in index.imports}
    assert ("./a.js", "a", None, "import") in rows
    assert ("./util", "u", "u2", "import") in rows
    assert ("./data.json", "default", "data", "import") in rows
    assert ("./a.js", "*", None, "star") in rows
    assert ("./b.ts", "b", "bee", "reexport") in rows
    assert ("./util", None, "utilities", "reexport") in rows
    assert ("./lazy.js", None, None, "dynamic") in rows
    cjs = {(i.module, i.name, i.alias, i.kind) for i in facts_of("cjs/index.js").imports}
    assert ("path", None, "path", "require") in cjs
    assert ("./lib/format", "parse", "parseValue", "require") in cjs
    assert ("./lib/lazy.mjs", None, None, "dynamic") in cjs


def test_import_equals_require_and_side_effect_imports_are_facts() -> None:
    source = 'import fs = require("fs");\nimport "./polyfill";\nfoo("not-a-module");\nrequire(name);\n'
    _, facts = parse("x.ts", "typescript", source)
    assert [(i.module, i.alias, i.kind, i.line) for i in facts.imports] == [
        ("fs", "fs", "require", 1),
        ("./polyfill", None, "import", 2),
    ]


def test_outline_header_summarises_imports_reexports_and_exports() -> None:
    header = facts_of("esm/src/index.ts").outline_header
    assert header[0].startswith("imports: ./a.js(a), ./b.ts(b)")
    assert "./data.json(default as data)" in header[0]
    assert header[1] == "re-exports: ./a.js(*), ./b.ts(b as bee), ./util(* as utilities)"
    assert "exports: hidden, internal as exposed" in facts_of("symbols/src/kinds.ts").outline_header


# -- grammar gaps and syntax errors ---------------------------------------------------------


def test_variance_annotations_parse_cleanly_with_identical_offsets() -> None:
    source = "export interface P<in out T, out U extends string = 'x'> { a: T }\n"
    raw = source.encode()
    fixed = neutralize(raw)
    assert len(fixed) == len(raw)
    assert b"in out" not in fixed and b"<" in fixed
    _, facts = parse("p.ts", "typescript", source)
    assert not facts.has_error_nodes
    assert facts.symbols[0].signature == "export interface P<in out T, out U extends string = 'x'>"


def test_grammar_gaps_in_real_code_index_fully() -> None:
    facts = facts_of("symbols/src/gaps.ts")
    assert not facts.has_error_nodes, facts.diagnostics
    paths = {s.symbol_path for s in facts.symbols}
    assert {
        "Producer",
        "Channel.send",
        "Store.instances",
        "rows",
        "Message",
        "overloaded",
        "afterGaps",
    } <= paths
    assert one(facts, "Helpers").kind == "namespace"  # export type * as Helpers from …
    kinds = {(i.module, i.kind) for i in facts.imports}
    assert ("./kinds", "star") in kinds and ("./helpers", "reexport") in kinds


def test_refactoring_parses_with_the_same_workarounds_as_the_index() -> None:
    # renames and body replacements read scopes, shorthands and post-image errors from
    # refactor.tsparse: a raw parse of such code is ERROR nodes, in which `return f` inside a
    # function body once read as a shorthand property (and was "expanded" into `return g: f`)
    from astmcp.refactor.tsparse import first_error
    from astmcp.refactor.tsparse import parse as refactor_parse

    raw = (FIXTURES / "symbols/src/gaps.ts").read_bytes()
    tree = refactor_parse("gaps.ts", raw)
    assert first_error(tree.root_node) is None
    assert tree.root_node.end_byte == len(raw)  # the offsets are the text's


def test_neutralizing_leaves_comparisons_arrows_and_jsx_alone() -> None:
    source = (
        b"const ok = a < b && c > d;\nconst f = () => `x`;\nfor (const k in obj) {}\n"
        b"const leading = items.length\n  < limit && other\n"  # operators first on the line (dprint)
    )
    assert neutralize(source) == source
    jsx = b"const el = (\n  <div>\n    <span>x</span>\n  </div>\n);\n"
    assert neutralize(jsx, tsx=True) == jsx


def test_symbols_around_a_syntax_error_survive_and_the_error_is_reported() -> None:
    facts = facts_of("symbols/src/broken.ts")
    assert {"before", "After", "After.method", "tail"} <= {s.symbol_path for s in facts.symbols}
    assert facts.has_error_nodes
    [diag] = facts.diagnostics
    assert (diag.code, diag.severity, diag.source, diag.line) == ("TS-SYNTAX", "error", "astmcp", 5)
    assert diag.symbol_path == "broken"


def test_known_grammar_false_positives_are_grammar_warnings() -> None:
    _, facts = parse("g.ts", "typescript", "function f() {\n  let as = 1;\n  return as;\n}\n")
    [diag] = facts.diagnostics
    assert (diag.code, diag.severity, diag.source) == ("TS-SYNTAX", "warning", "grammar")
    assert facts.has_error_nodes


def test_the_tree_is_returned_for_analyzers_with_offsets_into_the_original_text() -> None:
    source = "export interface Q<in T> { q: T }\nconst x = 1;\n"
    tree, _ = parse("q.ts", "typescript", source)
    assert tree is not None
    src = TsSource.of(source, tree)
    declaration = tree.root_node.children[0]
    assert src.text_of(declaration).startswith("export interface Q<in T>")


# -- addressing through the read tools ------------------------------------------------------


def test_search_finds_typescript_symbols_by_path_with_selectors(symbols_project: Any) -> None:
    out = symbols_project("ast_search_symbols", query="Geometry.distance", detail="full")
    top = out["symbols"][0]
    assert top["selector"] == "src/kinds.ts::Geometry.distance"
    assert top["match"] == "exact_path" and top["kind"] == "function"
    constructor = symbols_project("ast_search_symbols", query="Shape.constructor", detail="selectors")
    assert constructor["symbols"][0]["selector"] == "src/kinds.ts::Shape.constructor"


def test_accessor_pairs_and_overloads_are_addressed_by_line(symbols_project: Any) -> None:
    out = symbols_project("ast_search_symbols", query="Shape.name", detail="selectors")
    assert {s["selector"] for s in out["symbols"]} >= {
        "src/kinds.ts::Shape.name@37",
        "src/kinds.ts::Shape.name@41",
    }
    setter = symbols_project("ast_get_symbol_source", selector="src/kinds.ts::Shape.name@41")
    assert setter["kind"] == "setter" and setter["text"].lstrip().startswith("set name(value: string)")
    ambiguous = symbols_project.error(
        "ast_get_symbol_source", file_path="src/kinds.ts", symbol_path="Shape.scale"
    )
    assert ambiguous["code"] == "AMBIGUOUS_TARGET"
    assert [c["line"] for c in ambiguous["details"]["candidates"]] == [45, 46, 47]


def test_symbol_source_of_a_decorated_exported_class_starts_at_the_decorator(symbols_project: Any) -> None:
    out = symbols_project("ast_get_symbol_source", selector="src/kinds.ts::Circle")
    assert out["text"].startswith("@sealed\nexport class Circle")
    assert out["line"] == 59 and out["end_line"] == 66


def test_outline_of_a_typescript_file_has_header_and_signatures_without_bodies(symbols_project: Any) -> None:
    out = symbols_project("ast_get_outline", file_path="src/kinds.ts")
    outline = out["outline"]
    assert out["language"] == "typescript"
    assert outline.startswith("imports: ./helpers(helper)")
    assert "25-56: export abstract class Shape<T> implements Measured  # A shape with an area." in outline
    assert "  37-39: get name(): string" in outline
    assert "normalise" not in outline  # nested in a function body
    assert "return" not in outline


def test_list_files_counts_typescript_and_javascript(fixture_project: Any, caller: Any) -> None:
    project = caller(fixture_project("ts/cjs"))
    out = project("ast_list_files", language="javascript")
    files = {f["file"]: f for f in out["files"]}
    assert set(files) == {
        "index.js",
        "lib/App.jsx",
        "lib/format.cjs",
        "lib/format.js",
        "lib/index.js",
        "lib/lazy.mjs",
    }
    assert files["index.js"]["symbols"] == len(facts_of("cjs/index.js").symbols)


def test_search_filters_by_kind_and_language(symbols_project: Any) -> None:
    out = symbols_project("ast_search_symbols", query="re", kinds=["enum_member"], detail="selectors")
    assert {s["selector"] for s in out["symbols"]} == {"src/kinds.ts::Color.Red", "src/kinds.ts::Color.Green"}
    enums = symbols_project("ast_search_symbols", query="Color", kinds=["enum"], detail="selectors")
    assert [s["selector"] for s in enums["symbols"]] == ["src/kinds.ts::Color"]
    none = symbols_project("ast_search_symbols", query="Shape", language="python")
    assert none["total"] == 0


def test_an_edited_typescript_file_is_reindexed_before_answering(symbols_project: Any) -> None:
    path = symbols_project.root / "src" / "helpers.ts"
    path.write_text(path.read_text(encoding="utf-8") + "export const added = 1;\n", encoding="utf-8")
    out = symbols_project("ast_search_symbols", query="added", detail="selectors")
    assert out["symbols"][0]["selector"] == "src/helpers.ts::added"


def test_reexported_module_namespaces_are_namespace_symbols() -> None:
    source = (
        'import * as z from "./external.js";\n'
        'import fs = require("fs");\n'
        'export * as core from "./core.js";\n'
        "export { z, z as default, fs };\n"
    )
    _, facts = parse("index.ts", "typescript", source)
    namespaces = {(s.name, s.line, s.signature) for s in facts.symbols if s.kind == "namespace"}
    assert namespaces == {
        ("core", 3, 'export * as core from "./core.js"'),
        ("z", 4, 'import * as z from "./external.js"'),
        ("default", 4, 'import * as z from "./external.js"'),
        ("fs", 4, 'import fs = require("fs")'),
    }
    _, plain = parse("x.ts", "typescript", 'import { a } from "./a";\nexport { a };\n')
    assert plain.symbols == ()  # a re-exported named import is not a declaration here


def test_a_file_cut_off_inside_blocks_keeps_its_declarations() -> None:
    source = "export class Editor {\n  save(): void {\n    if (dirty) {\n"
    tree, facts = parse("edit.ts", "typescript", source)
    assert tree is not None
    assert [(s.symbol_path, s.span.line, s.span.end_line) for s in facts.symbols] == [
        ("Editor", 1, 4),
        ("Editor.save", 2, 4),
    ]
    [diag] = facts.diagnostics
    assert (diag.code, diag.severity, diag.line, diag.symbol_path) == ("TS-SYNTAX", "error", 3, "Editor.save")
    assert "3 block(s)" in diag.message
    assert facts.has_error_nodes
