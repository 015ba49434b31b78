"""The Python linker over a live index: incremental re-linking, imports, edges."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from astmcp.query.common import SymbolTarget, resolve_symbol
from astmcp.query.references import collect_references, override_family
from astmcp.workspace import Workspace


def _write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    # a distinct mtime so the refresh sees the change whatever the clock granularity
    stamp = path.stat().st_mtime_ns + 3_000_000_000
    os.utime(path, ns=(stamp, stamp))


def _refs(ws: Workspace, selector: str) -> set[tuple[str, int, str]]:
    conn = ws.db()
    symbol = resolve_symbol(ws, conn, SymbolTarget(selector=selector))
    return {(r.file, r.line, r.confidence) for r in collect_references(ws, conn, symbol)}


def test_editing_a_module_relinks_the_files_that_import_it(fixture_project: Callable[[str], Path]) -> None:
    root = fixture_project("python/refs/reexport")
    ws = Workspace(root)
    before = _refs(ws, "pkg/core.py::helper")
    assert ("main.py", 6, "certain") in before
    _write(root, "pkg/core.py", "\n\ndef helper():\n    return 2\n")
    after = _refs(ws, "pkg/core.py::helper")
    assert ("main.py", 6, "certain") in after
    assert ("pkg/core.py", 3, "certain") in after
    ws.index.close()


def test_a_new_module_resolves_imports_that_failed_before(tmp_path: Path) -> None:
    _write(tmp_path, "main.py", "from later import thing\n\nthing()\n")
    ws = Workspace(tmp_path)
    conn = ws.db()
    assert conn.execute("SELECT resolved_path FROM imports").fetchone() == (None,)
    _write(tmp_path, "later.py", "def thing():\n    pass\n")
    assert ("main.py", 3, "certain") in _refs(ws, "later.py::thing")
    assert ws.db().execute("SELECT resolved_path FROM imports").fetchone() == ("later.py",)
    ws.index.close()


def test_removing_a_module_drops_the_references_into_it(tmp_path: Path) -> None:
    _write(tmp_path, "lib.py", "def f():\n    pass\n")
    _write(tmp_path, "use.py", "from lib import f\n\nf()\n")
    ws = Workspace(tmp_path)
    assert ("use.py", 3, "certain") in _refs(ws, "lib.py::f")
    (tmp_path / "lib.py").unlink()
    conn = ws.db()
    rows = conn.execute("SELECT confidence, symbol_id FROM refs WHERE name = 'f'").fetchall()
    assert rows and all(symbol is None for _, symbol in rows)
    ws.index.close()


def test_edges_record_calls_inheritance_containment_and_tests(fixture_project: Callable[[str], Path]) -> None:
    root = fixture_project("python/refs/srclayout")
    ws = Workspace(root)
    conn = ws.db()
    edges = {
        (src, dst, kind)
        for src, dst, kind in conn.execute(
            "SELECT s.selector, d.selector, e.kind FROM edges e"
            " LEFT JOIN symbols s ON s.id = e.src_symbol_id JOIN symbols d ON d.id = e.dst_symbol_id"
        )
    }
    assert ("src/proj/b.py::go", "src/proj/a.py::make", "calls") in edges
    assert ("src/proj/b.py::go", "src/proj/a.py::Store.open", "calls") in edges
    assert ("tests/test_a.py::test_open", "src/proj/a.py::Store.open", "tests") in edges
    assert ("src/proj/a.py::Store", "src/proj/a.py::Store.open", "contains") in edges
    resolved = dict(
        conn.execute(
            "SELECT f.path || ':' || i.module || ':' || coalesce(i.name, ''), i.resolved_path"
            " FROM imports i JOIN files f ON f.id = i.file_id"
        ).fetchall()
    )
    assert resolved["tests/test_a.py:proj.a:Store"] == "src/proj/a.py"
    assert resolved["src/proj/b.py::a"] == "src/proj/a.py"
    ws.index.close()


def test_override_family_spans_bases_and_subclasses(fixture_project: Callable[[str], Path]) -> None:
    root = fixture_project("python/refs/inherit")
    ws = Workspace(root)
    conn = ws.db()
    child_save = resolve_symbol(ws, conn, SymbolTarget(selector="child.py::Child.save"))
    members, external = override_family(conn, child_save)
    assert [m.selector for m in members] == ["base.py::Base.save", "child.py::Child.save"]
    assert external == []
    ws.index.close()


def test_override_family_names_members_defined_outside_the_project(tmp_path: Path) -> None:
    _write(
        tmp_path,
        "wrap.py",
        "import textwrap\n\n\nclass Wrapper(textwrap.TextWrapper):\n"
        "    def _wrap_chunks(self, chunks):\n        return []\n\n    def extra(self):\n        pass\n",
    )
    ws = Workspace(tmp_path)
    conn = ws.db()
    method = resolve_symbol(ws, conn, SymbolTarget(selector="wrap.py::Wrapper._wrap_chunks"))
    assert override_family(conn, method)[1] == ["textwrap.TextWrapper._wrap_chunks"]
    extra = resolve_symbol(ws, conn, SymbolTarget(selector="wrap.py::Wrapper.extra"))
    assert override_family(conn, extra)[1] == []
    ws.index.close()


def test_renaming_a_function_in_a_module_unresolves_its_importers(
    fixture_project: Callable[[str], Path],
) -> None:
    root = fixture_project("python/refs/reexport")
    ws = Workspace(root)
    assert ("main.py", 6, "certain") in _refs(ws, "pkg/core.py::helper")
    _write(root, "pkg/core.py", "def helper2():\n    return 2\n")
    conn = ws.db()
    rows = conn.execute(
        "SELECT r.line, r.confidence FROM refs r JOIN files f ON f.id = r.file_id"
        " WHERE f.path = 'main.py' AND r.name = 'helper'"
    ).fetchall()
    assert rows and all(confidence == "none" for _, confidence in rows)
    _write(root, "pkg/core.py", "def helper():\n    return 3\n")
    assert ("main.py", 6, "certain") in _refs(ws, "pkg/core.py::helper")
    ws.index.close()


def test_a_stub_and_its_module_are_one_symbol(fixture_project: Callable[[str], Path]) -> None:
    ws = Workspace(fixture_project("python/refs/stubs"))
    from_source = _refs(ws, "m.py::f")
    assert from_source == _refs(ws, "m.pyi::f")
    assert {("m.py", 1, "certain"), ("m.pyi", 1, "certain"), ("user.py", 5, "certain")} <= from_source
    ws.index.close()


def test_property_accessors_share_their_references(tmp_path: Path) -> None:
    _write(
        tmp_path,
        "p.py",
        "class C:\n    @property\n    def size(self):\n        return 1\n\n    @size.setter\n"
        "    def size(self, value):\n        pass\n\n\ndef use(c: C):\n    c.size = c.size\n",
    )
    ws = Workspace(tmp_path)
    getter, setter = _refs(ws, "p.py::C.size@3"), _refs(ws, "p.py::C.size@7")
    assert getter == setter
    assert {
        ("p.py", 3, "certain"),
        ("p.py", 6, "certain"),
        ("p.py", 7, "certain"),
        ("p.py", 12, "certain"),
    } <= getter
    ws.index.close()


def test_keywords_of_an_unresolved_callee_are_no_name_hits(fixture_project: Callable[[str], Path]) -> None:
    ws = Workspace(fixture_project("python/refs/fields"))
    conn = ws.db()
    rows = conn.execute("SELECT line, confidence FROM refs WHERE name = 'x' AND kind = 'write'").fetchall()
    assert (22, "none") in rows
    assert ("shapes.py", 22, "name") not in _refs(ws, "shapes.py::Point.x")
    ws.index.close()


def test_a_receiver_that_stops_resolving_after_an_edit_becomes_a_likely_candidate(tmp_path: Path) -> None:
    _write(tmp_path, "lib.py", "class Other:\n    pass\n\n\ndef make() -> Other:\n    return Other()\n")
    _write(tmp_path, "thing.py", "class Thing:\n    def unique_m(self):\n        pass\n")
    _write(tmp_path, "use.py", "from lib import make\n\nmake().unique_m()\n")
    ws = Workspace(tmp_path)
    # typed as Other, which lacks the member: a name hit, never the single candidate
    assert ("use.py", 3, "name") in _refs(ws, "thing.py::Thing.unique_m")
    _write(tmp_path, "lib.py", "def make(value):\n    return value\n")
    # the receiver is unknown now: the project's only unique_m is a likely reference
    assert ("use.py", 3, "likely") in _refs(ws, "thing.py::Thing.unique_m")
    _write(tmp_path, "lib.py", "class Other:\n    pass\n\n\ndef make() -> Other:\n    return Other()\n")
    assert ("use.py", 3, "name") in _refs(ws, "thing.py::Thing.unique_m")
    ws.index.close()


def test_a_member_an_outside_class_lacks_stays_a_name_hit_when_its_file_is_relinked(tmp_path: Path) -> None:
    errors = "class MyError(Exception):\n    def __init__(self):\n        self.template_debug = 1\n"
    _write(tmp_path, "errors.py", errors)
    use = (
        "from errors import MyError\n\n\ndef f(g):\n    try:\n        g()\n"
        "    except Exception as e:\n        return e.template_debug, MyError\n"
    )
    _write(tmp_path, "use.py", use)
    ws = Workspace(tmp_path)
    assert ("use.py", 8, "name") in _refs(ws, "errors.py::MyError.template_debug")
    # a change to a module use.py imports relinks its rows: the hit is judged anew, not lost
    _write(tmp_path, "errors.py", errors + "\n    def more(self):\n        pass\n")
    assert ("use.py", 8, "name") in _refs(ws, "errors.py::MyError.template_debug")
    ws.index.close()


def test_a_union_member_is_rejudged_when_a_base_of_an_alternative_changes(tmp_path: Path) -> None:
    classes = (
        "class A:\n    def info(self):\n        pass\n\n\nclass B:\n    def info(self):\n        pass\n\n\n"
    )
    _write(tmp_path, "types_.py", classes + "class C(B):\n    def info(self):\n        pass\n")
    _write(
        tmp_path,
        "use.py",
        "from types_ import A, C\n\n\ndef f(flag):\n    x = A() if flag else C()\n    x.info()\n",
    )
    ws = Workspace(tmp_path)
    # A.info and C.info are of unrelated families: a name hit
    assert ("use.py", 6, "name") in _refs(ws, "types_.py::A.info")
    _write(tmp_path, "types_.py", classes + "class C(A):\n    def info(self):\n        pass\n")
    # C overrides A.info now: one family, recorded as its topmost member
    assert ("use.py", 6, "certain") in _refs(ws, "types_.py::A.info")
    assert ("use.py", 6, "name") not in _refs(ws, "types_.py::B.info")
    ws.index.close()


def test_a_container_another_module_starts_or_stops_changing_is_rejudged(tmp_path: Path) -> None:
    registry = (
        "class A:\n    def run(self):\n        pass\n\n\nITEMS = [A()]\n\n\ndef go():\n    ITEMS[0].run()\n"
    )
    _write(tmp_path, "registry.py", registry)
    _write(tmp_path, "use.py", "from registry import ITEMS\n\nITEMS[0].run()\n")
    _write(tmp_path, "plugin.py", "from registry import ITEMS\n")
    ws = Workspace(tmp_path)
    certain = {("registry.py", 2, "certain"), ("registry.py", 10, "certain"), ("use.py", 3, "certain")}
    assert _refs(ws, "registry.py::A.run") == certain
    # another module puts something else in: the items are unknown, in its module and its importers
    _write(tmp_path, "plugin.py", "from registry import ITEMS\n\nITEMS.append(object())\n")
    assert _refs(ws, "registry.py::A.run") == {
        ("registry.py", 2, "certain"),
        ("registry.py", 10, "name"),
        ("use.py", 3, "name"),
    }
    _write(tmp_path, "plugin.py", "from registry import ITEMS\n")
    assert _refs(ws, "registry.py::A.run") == certain
    ws.index.close()


def test_a_subclass_overriding_an_attribute_in_another_module_is_seen_as_it_comes_and_goes(
    tmp_path: Path,
) -> None:
    holder = (
        "class A:\n    def run(self):\n        pass\n\n\n"
        "class Holder:\n    factory = A\n\n    def go(self):\n        self.factory().run()\n"
    )
    _write(tmp_path, "holder.py", holder)
    _write(tmp_path, "sub.py", "from holder import Holder\n")
    ws = Workspace(tmp_path)
    assert _refs(ws, "holder.py::A.run") == {("holder.py", 2, "certain"), ("holder.py", 10, "certain")}
    # a subclass elsewhere makes `factory` another class: `self.factory()` may be either
    _write(tmp_path, "sub.py", "from holder import Holder\n\n\nclass Sub(Holder):\n    factory = object\n")
    assert _refs(ws, "holder.py::A.run") == {("holder.py", 2, "certain"), ("holder.py", 10, "name")}
    _write(tmp_path, "sub.py", "from holder import Holder\n")
    assert _refs(ws, "holder.py::A.run") == {("holder.py", 2, "certain"), ("holder.py", 10, "certain")}
    ws.index.close()


def test_a_doctest_read_follows_the_conftest_giving_its_name(tmp_path: Path) -> None:
    _write(tmp_path, "pkg/__init__.py", "def helper():\n    return 1\n")
    doc = 'def use():\n    """Uses it.\n\n    >>> pkg.helper()\n    1\n    """\n'
    _write(tmp_path, "pkg/use.py", doc)
    plain = "import pytest\n\nimport pkg\n\n\n@pytest.fixture(autouse=True)\ndef names(doctest_namespace):\n"
    _write(tmp_path, "conftest.py", plain + "    pass\n")
    ws = Workspace(tmp_path)
    # `pkg` is bound nowhere: a member of an unknown receiver
    assert ("pkg/use.py", 4, "name") in _refs(ws, "pkg/__init__.py::helper")
    _write(tmp_path, "conftest.py", plain + '    doctest_namespace["pkg"] = pkg\n')
    # the conftest gives doctests `pkg`: an edit to it relinks the doctest's read
    assert ("pkg/use.py", 4, "certain") in _refs(ws, "pkg/__init__.py::helper")
    _write(tmp_path, "conftest.py", plain + '    doctest_namespace["pkg"] = pytest\n')
    assert not {r for r in _refs(ws, "pkg/__init__.py::helper") if r[0] == "pkg/use.py"}
    ws.index.close()
