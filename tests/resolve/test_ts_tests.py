"""Which TS/JS calls are test blocks (``astmcp.resolve.ts_tests``), read from source."""

from __future__ import annotations

from astmcp.lang import extract_file

SOURCE = """\
describe.each`
  a    | b
  ${1} | ${2}
`("table $a", ({ a, b }) => {
  it.concurrent.skip("inner", async function () { run(); });
  test.skipIf(process.env.CI)("skips", () => {});
  test.describe.serial("pw suite", () => { test("pw", async ({ page }) => {}); });
  bench("speed", () => {});
  re.test("not a test: a regex", () => {});
  it.todo("no body");
  register("not a test function", () => {});
  it(name, () => {});
  suite(`tmpl ${x}`, () => {});
});
"""


def _blocks(path: str, language: str = "typescript") -> list[tuple[list[str], str, str, int]]:
    facts = extract_file(path, language, SOURCE.encode())
    return [(names, kind, signature, line) for names, kind, signature, line, *_ in facts.extra["ts_tests"]]


def test_test_calls_with_modifiers_nest_under_their_suites() -> None:
    assert _blocks("src/table.test.ts") == [
        (["table $a"], "suite", 'describe.each("table $a")', 1),
        (["table $a", "inner"], "test", 'it.concurrent.skip("inner")', 5),
        (["table $a", "skips"], "test", 'test.skipIf("skips")', 6),
        (["table $a", "pw suite"], "suite", 'test.describe.serial("pw suite")', 7),
        (["table $a", "pw suite", "pw"], "test", 'test("pw")', 7),
        (["table $a", "tmpl ${x}"], "suite", 'suite("tmpl ${x}")', 13),
    ]


def test_javascript_test_files_have_the_same_blocks() -> None:
    assert _blocks("src/table.spec.js", "javascript") == _blocks("src/table.test.ts")


def test_files_that_are_no_test_files_have_no_blocks() -> None:
    assert _blocks("src/table.ts") == []
