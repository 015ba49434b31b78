"""TS-UNDEFINED-NAME: value identifiers no scope binds and no environment declares, quiet when unsure."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

from astmcp.diagnostics.delta import diagnostics_delta
from astmcp.diagnostics.facts import analyzer_diagnostics
from astmcp.diagnostics.ts_undefined import UNDEFINED_NAME
from astmcp.lang import extract_file


def undefined(source: str, path: str = "m.ts", language: str = "typescript") -> list[tuple[int, str]]:
    text = textwrap.dedent(source)
    facts = extract_file(path, language, text.encode("utf-8"))
    found = [d for d in analyzer_diagnostics(facts) if d.code == UNDEFINED_NAME]
    assert all(d.severity == "error" and d.source == "astmcp" for d in found)
    return [(d.line, d.message.split("'")[1]) for d in found]


def test_names_bound_nowhere_are_reported_in_value_positions() -> None:
    found = undefined(
        """
        import { helper } from "./helper";
        export function run(items: string[]) {
          const total = helpr(items);
          return { total, missingShorthand, [computedKey]: 1 };
        }
        export class Child extends MissingBase {}
        counter = 1;
        export { notDeclared };
        """
    )
    assert found == [
        (4, "helpr"),
        (5, "missingShorthand"),
        (5, "computedKey"),
        (7, "MissingBase"),
        (8, "counter"),
        (9, "notDeclared"),
    ]


def test_hoisting_catch_destructuring_classes_enums_namespaces_and_imports_are_bound() -> None:
    assert not undefined(
        """
        import type { Shape } from "./shape";
        import Default, * as ns from "./ns";
        import { type Kind, value as renamed } from "./kind";
        import Alias = ns.inner;
        export const early = hoisted() + later + Later.name + Color.Red + Space.x;
        function hoisted(): number { return arguments.length; }
        var later = 1;
        class Later { static make() { return new Later(); } }
        enum Color { Red = 1, Blue = Red << 1 }
        namespace Space { export const x = 1; }
        const { a, b: [c, ...rest], d = a, ...others } = Default as any;
        try { renamed(a, c, rest, d, others, Alias); } catch (error) { console.error(error); } catch {}
        for (const [key, item] of Object.entries(others)) { key + item; }
        outer: for (let i = 0; i < 2; i++) { if (i) continue outer; else break outer; }
        const klass = class Named { self() { return Named; } };
        const fn = function inner(n: number): number { return n ? inner(n - 1) : 0; };
        export const shape: Shape = { kind: "k" as Kind, klass, fn, nested: { deep: 1 } };
        """
    )


def test_type_positions_declarations_and_ambient_contexts_are_not_judged() -> None:
    assert not undefined(
        """
        export let x: UnknownType<Other> = 1 as unknown as Cast;
        export type F = (param: string, ...more: Param[]) => typeof notAValue;
        export interface I extends Base { [key: string]: number; method(arg: Arg): void }
        export function isT(v: unknown): v is T { return true; }
        export function overload(a: string): void;
        export function overload(a?: string) {}
        declare const ambientConst: number;
        declare function ambientFn(): void;
        declare namespace AmbientNs { const inside: number; }
        declare module "virtual" { export const fromModule: Unknown; }
        export const used = ambientConst + ambientFn() + AmbientNs.inside;
        let timer: NodeJS.Timeout;
        """
    )


def test_known_globals_and_special_names_stay_quiet() -> None:
    assert not undefined(
        """
        import { x } from "./x";
        export async function env() {
          console.log(process.env.HOME, Buffer.from(""), __dirname, window.location, document.title);
          await Promise.all([fetch("/"), structuredClone({}), new URL("http://a"), Intl.DateTimeFormat()]);
          describe("suite", () => { it("works", () => { expect(vi.fn()).toBeTruthy(); jest.fn(); }); });
          globalThis.setTimeout(() => undefined, 1);
          return [new.target, import.meta.url, this, Symbol.iterator, NaN, Infinity, __DEV__, __APP_VERSION__];
        }
        """
    )


def test_typeof_guards_global_probes_dead_branches_and_comment_directives_stay_quiet() -> None:
    assert not undefined(
        """
        /* global injectedByScript, another: writable */
        import { x } from "./x";
        if (typeof maybeGlobal !== "undefined") { maybeGlobal(); }
        const touch = window.DocumentTouch && document instanceof DocumentTouch;
        const dead = false ? profiler.span("x") : 1;
        if (false) { removedByBundler(); }
        injectedByScript(another);
        // @ts-ignore
        ignoredOnThisLine();
        /* @ts-expect-error */
        expectedError();
        export { touch, dead };
        """
    )


def test_jsx_intrinsics_attributes_and_namespaced_names_are_no_references() -> None:
    source = """
        import { Button } from "./button";
        export const view = (props: { label: string }) => (
          <div className="x" onClick={() => Button}>
            <svg:rect width={1} />
            <Button label={props.label} />
            <Missing />
            <span>{unknownInJsx}</span>
          </div>
        );
        """
    assert undefined(source, "view.tsx") == [(7, "Missing"), (8, "unknownInJsx")]
    assert undefined(source.replace(": { label: string }", ""), "view.jsx", "javascript") == [
        (7, "Missing"),
        (8, "unknownInJsx"),
    ]


def test_javascript_parameters_and_patterns_are_bound() -> None:
    found = undefined(
        """
        import x from "y";
        export function f(a, b = a, { c, d: [e] }, ...rest) { return a + b + c + e + rest + typo; }
        export const g = (p, q = p) => p + q;
        """,
        "m.js",
        "javascript",
    )
    assert found == [(3, "typo")]


def test_files_whose_environment_is_unknown_are_skipped() -> None:
    body = "export const a = notDefinedAnywhere;\n"
    assert undefined(body) == [(1, "notDefinedAnywhere")]
    assert not undefined("const a = notDefinedAnywhere;\n")  # a script: it may run beside others
    assert not undefined(body, "types.d.ts")
    assert not undefined("// @ts-nocheck\n" + body)
    assert not undefined('/// <reference types="vite/client" />\n' + body)
    assert not undefined("with (scope) { use(); }\n" + body, "m.js", "javascript")
    assert not undefined('eval("var notDefinedAnywhere = 1");\n' + body)


def test_a_statement_the_grammar_cannot_read_is_not_judged_and_may_bind_its_names() -> None:
    found = undefined(
        """
        export const ok = stillReported;
        let as = 1, kept = as + unseen;
        export const later = as + kept + typo;
        """
    )
    assert found == [(2, "stillReported"), (4, "typo")]  # line 3: valid TS the grammar misreads


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")


def undefined_in_index(project: Any) -> set[tuple[str, str]]:
    out = project("ast_get_diagnostics", limit=500)["diagnostics"]
    return {(d["file"], d["message"]) for d in out if d["code"] == UNDEFINED_NAME}


def test_project_ambient_declarations_silence_names_and_are_refreshed_incrementally(
    tmp_path: Path, caller: Any
) -> None:
    write(
        tmp_path,
        {
            "src/app.ts": """
                import { helper } from "./helper";
                export function main() {
                  return helper() + fromDts + fromGlobalBlock + fromScript + fromGlobalThis + stillMissing;
                }
                """,
            "src/helper.ts": "export const helper = () => 1;\n",
            "types/env.d.ts": "declare const fromDts: number;\n",
            "types/globals.d.ts": "export {};\ndeclare global { var fromGlobalBlock: number; }\n",
            "public/legacy.js": "var fromScript = 1;\n",
            "src/setup.ts": "export {};\nglobalThis.fromGlobalThis = 2;\n",
        },
    )
    project = caller(tmp_path)
    assert undefined_in_index(project) == {("src/app.ts", "undefined name 'stillMissing'")}
    out = project("ast_get_diagnostics", file_path="src/app.ts")["diagnostics"]
    assert [(d["line"], d["column"], d["symbol"]) for d in out] == [(4, 79, "src/app.ts::main")]

    (tmp_path / "types/env.d.ts").unlink()
    (tmp_path / "public/legacy.js").write_text("var renamedScriptGlobal = 1;\n", encoding="utf-8")
    assert undefined_in_index(project) == {
        ("src/app.ts", "undefined name 'stillMissing'"),
        ("src/app.ts", "undefined name 'fromDts'"),
        ("src/app.ts", "undefined name 'fromScript'"),
    }
    write(tmp_path, {"types/env.d.ts": "declare var fromDts: number, stillMissing: number;\n"})
    assert undefined_in_index(project) == {("src/app.ts", "undefined name 'fromScript'")}


def test_plan_delta_reports_a_typo_and_a_dropped_ambient_declaration(tmp_path: Path, caller: Any) -> None:
    write(
        tmp_path,
        {
            "app.ts": 'import { helper } from "./helper";\nexport const run = () => helper() + fromDts;\n',
            "helper.ts": "export const helper = () => 1;\n",
            "env.d.ts": "declare const fromDts: number;\n",
        },
    )
    project = caller(tmp_path)
    project("ast_list_files")
    ws = project.workspaces.get(None)
    typo = diagnostics_delta(ws, {"app.ts": (tmp_path / "app.ts").read_text().replace("helper()", "helpr()")})
    assert [(d["code"], d["file"], d["message"]) for d in typo.added] == [
        (UNDEFINED_NAME, "app.ts", "undefined name 'helpr'")
    ]
    assert typo.added_errors == 1
    dropped = diagnostics_delta(ws, {"env.d.ts": "declare const other: number;\n"})
    assert [(d["file"], d["message"]) for d in dropped.added] == [("app.ts", "undefined name 'fromDts'")]


def test_replace_body_introducing_an_undefined_identifier_in_a_ts_file_is_blocked(
    tmp_path: Path, caller: Any
) -> None:
    write(
        tmp_path,
        {
            "lib.ts": "export function total(items: number[]): number {\n  return items.length;\n}\n",
            "main.ts": 'import { total } from "./lib";\nexport const n = total([1]);\n',
        },
    )
    project = caller(tmp_path)
    plan = project("ast_replace_symbol_body", selector="lib.ts::total", new_body="return itemz.length;")
    assert plan["blocked"] is True and plan["diagnostics"]["added_errors"] == 1
    assert plan["diagnostics"]["added"][0]["code"] == UNDEFINED_NAME
    assert plan["diagnostics"]["added"][0]["symbol"] == "lib.ts::total"
    fine = project("ast_replace_symbol_body", selector="lib.ts::total", new_body="return items.length * 2;")
    assert fine["blocked"] is False


def test_globals_of_installed_types_packages_stay_quiet(tmp_path: Path, caller: Any) -> None:
    write(
        tmp_path,
        {
            "app.ts": 'import { x } from "./x";\nexport const y = [x, google.maps, $, FakeUmd, fromBlock, nope];\n',
            "x.ts": "export const x = 1;\n",
            "node_modules/@types/google.maps/index.d.ts": "declare namespace google.maps { class Map {} }\n",
            "node_modules/@types/jquery/index.d.ts": "declare const $: JQueryStatic;\nexport as namespace FakeUmd;\n",
        },
    )
    project = caller(tmp_path)
    assert undefined_in_index(project) == {
        ("app.ts", "undefined name 'fromBlock'"),
        ("app.ts", "undefined name 'nope'"),
    }
    write(
        tmp_path,
        {
            "node_modules/@types/extra/package.json": "{}\n",
            "node_modules/@types/extra/index.d.ts": "export {};\ndeclare global {\n  var fromBlock: number;\n}\n",
            "x.ts": "export const x = 2;\n",  # the next refresh re-reads the @types folder
        },
    )
    assert undefined_in_index(project) == {("app.ts", "undefined name 'nope'")}
