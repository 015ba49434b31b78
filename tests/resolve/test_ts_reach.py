"""The analyzer's ``reach`` facts: which uses of imported names and namespace bindings let a
string reach a module's bindings (see :mod:`astmcp.resolve.ts_reach`)."""

from __future__ import annotations

from typing import Any

import pytest
import tree_sitter_typescript as tst
from tree_sitter import Language, Parser

from astmcp.resolve.ts_facts import analyze

_PARSER = Parser(Language(tst.language_tsx()))
_HEAD = 'import * as ns from "./m";\nimport { z } from "./z";\n'
_NS = "P:1:13"


def _reach(body: str, head: str = _HEAD) -> dict[str, Any]:
    text = head + body + "\n"
    out = analyze("m.tsx", text, _PARSER.parse(text.encode()))
    return out.get("reach", {})  # type: ignore[no-any-return]


@pytest.mark.parametrize(
    "body",
    [
        "ns.a(); new ns.C(); ns.a.b(); ns; ns.sub;",
        "type T = ns.T; let v: ns.a.T;",
        "(ns).a(); ns!.a(); (ns as any).a(); ns?.a();",
        "z.core.regexes.string();",
        "export { ns, ns as other }; export default ns;",
        "async function f() { const m = await import('./m'); m.a(); }",
        "const r = require('./m'); r.a(); require('./m').b();",
        "async function f() { (await import('./m')).a(); }",
    ],
)
def test_static_member_reads_callees_qualifiers_and_exports_are_no_escape(body: str) -> None:
    assert _reach(body) == {"esm": 1}


@pytest.mark.parametrize(
    ("body", "chain"),
    [
        ("ns[k];", _NS),
        ('ns["a"];', _NS),
        ("Object.keys(ns);", _NS),
        ("f(ns);", _NS),
        ("function g() { return { ...ns }; }", _NS),
        ("let o = { ...ns };", _NS),
        ("const o = { ns };", _NS),
        ("for (const k in ns) {}", _NS),
        ("const { a, b: c } = ns;", f"{_NS}|b"),
        ("const { a, ...rest } = ns;", _NS),
        ("const { [k]: v } = ns;", _NS),
        ("const y = ns;", _NS),
        ("const get = () => ns;", _NS),
        ("function g() { return ns; }", _NS),
        ("type K = keyof typeof ns;", _NS),
        ('type A = (typeof ns)["a"];', _NS),
        ("(ns as any)[k];", _NS),
        ("const c = <ns.sub.Comp />;", f"{_NS}|sub|Comp"),
        ("type K = keyof typeof ns.sub;", f"{_NS}|sub"),
        ("ns.sub[k];", f"{_NS}|sub"),
        ("import B = ns;", _NS),  # an alias's uses are not followed
        ("import A = ns.sub;", f"{_NS}|sub"),
        ("Object.keys(z.core);", "I:z:./z|core"),
        ("const { regexes } = z.core;", "I:z:./z|core|regexes"),
        ("async function f() { const m = await import('./m'); g(m); }", "I::./m"),
        ("async function f() { const { b, c: d } = await import('./m'); }", "I::./m|c"),
    ],
)
def test_a_namespace_used_as_a_value_is_recorded(body: str, chain: str) -> None:
    assert chain in _reach(body).get("dynamic", [])


@pytest.mark.parametrize(
    "body",
    [
        "import('./m').then(f);",
        "async function f() { (await import('./m'))[k]; }",
        "async function f() { const { a, ...rest } = await import('./m'); }",
        "const m = await import('./m');",  # a module-level binding is a symbol: not followed
        "type T = typeof import('./m');",
        "require('./m')[k];",
        "module.exports = require('./m');",
    ],
)
def test_a_module_loaded_other_than_into_bindings_is_loose(body: str) -> None:
    assert _reach(body, head="").get("loose") == ["./m"]


def test_a_computed_module_specifier_is_flagged() -> None:
    assert _reach("async function f(p: string) { await import(p); }", head="") == {"anyload": 1}
    assert _reach("const m = require(name);", head="") == {"anyload": 1}
    glob = 'export const routes = import.meta.glob("./routes/*.ts", { eager: true });'
    assert _reach(glob, head="") == {"anyload": 1, "esm": 1}
    mock = 'vi.mock("./m", async (importOriginal) => ({ ...(await importOriginal()) }));'
    assert _reach(mock, head="")["anyload"] == 1
    prose = "/** A record from `import.meta.glob` or `require.context` works. */ export const c = x.context;"
    assert _reach(prose, head="") == {"esm": 1}


def test_a_module_level_const_spreading_a_namespace_is_a_copy_whose_uses_are_judged() -> None:
    reach = _reach("const c = { ...ns, sub: ns.sub };\nc.a();\nexport const d = { ...c };\nf(d.sub);")
    assert reach["copies"] == {"3:7": [_NS], "5:14": ["P:3:7"]}
    assert reach["dynamic"] == [f"{_NS}|sub", "P:5:14|sub"]


def test_module_syntax_eval_and_commonjs_are_flagged() -> None:
    assert _reach("function f() {}", head="") == {}
    assert _reach("export function f() {}", head="") == {"esm": 1}
    assert _reach('export function f() { eval("f"); }', head="") == {"esm": 1, "eval": 1}
    assert _reach("export const a = 1; module.exports.b = 2;", head="") == {"cjs": 1, "esm": 1}
    assert _reach("exports.b = 2;", head="") == {"cjs": 1}


def test_an_arrow_function_body_that_is_a_name_is_a_reference() -> None:
    text = 'import { foo } from "./m";\nexport const h = () => foo;\nexport const g = (x) => x;\n'
    rows = analyze("m.ts", text, _PARSER.parse(text.encode()))["refs"]
    assert [(name, line, col, kind) for name, line, col, _end, kind, _t, _o in rows if name == "foo"] == [
        ("foo", 1, 10, "import"),
        ("foo", 2, 24, "read"),
    ]
