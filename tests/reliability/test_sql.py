"""Every SQL statement astmcp runs is built from literals only; values travel as parameters.

An audit by the syntax tree, not by regex: for each ``execute``/``executemany``/``executescript``
call in ``astmcp/``, the SQL argument is traced back (f-string parts, ``+``, local and module
bindings, loop variables, and through a helper's parameters to every caller) until it is made
only of string literals and placeholder lists (``",".join("?" * n)``). Whatever cannot be
traced so must be listed in ``AUDITED`` with the reason it is not user input; entries that
no longer match anything fail the test, so the list stays honest. (Read paths opening the
index read-only is tested in tests/index/test_walk_and_refresh.py.)
"""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

import astmcp

PACKAGE = Path(astmcp.__file__).resolve().parent
EXECUTE = {"execute", "executemany", "executescript"}
# Calls that return a string or collection made only of their safe arguments' text.
PASS_THROUGH = {"join", "split", "strip", "sorted", "tuple", "list", "set", "frozenset", "upper", "lower"}

# (module relative to astmcp/, the untraceable expression's first 60 characters, whitespace
# collapsed) -> why it is not user input.
_MASTER = 'conn.execute( "SELECT name, sql FROM sqlite_master WHERE typ'
_WHY_MASTER = "names and CREATE INDEX statements of our own indexes, read from sqlite_master"
_WHY_DROP = "the CREATE INDEX statements link_rows.drop_indexes read from sqlite_master, re-run verbatim"
AUDITED: dict[tuple[str, str], str] = {
    ("resolve/link_rows.py", _MASTER): _WHY_MASTER,
    ("resolve/python.py", "drop_indexes(conn)"): _WHY_DROP,
    ("resolve/typescript.py", "drop_indexes(conn)"): _WHY_DROP,
}


@dataclass
class Module:
    rel: str
    tree: ast.Module
    source: str
    parents: dict[ast.AST, ast.AST] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for node in ast.walk(self.tree):
            for child in ast.iter_child_nodes(node):
                self.parents[child] = node

    def enclosing_functions(self, node: ast.AST) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
        while node in self.parents:
            node = self.parents[node]
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                yield node


class Audit:
    def __init__(self, modules: list[Module]) -> None:
        self.modules = modules
        self.problems: list[str] = []
        self.used: set[tuple[str, str]] = set()
        self._active: set[tuple[int, str]] = set()

    def run(self) -> int:
        count = 0
        for module in self.modules:
            for node in ast.walk(module.tree):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and node.func.attr in EXECUTE
                    and node.args
                ):
                    count += 1
                    self.safe(module, node.args[0], node)
        return count

    def flag(self, module: Module, expr: ast.AST, at: ast.AST) -> bool:
        text = ast.get_source_segment(module.source, expr) or ast.dump(expr)
        key = (module.rel, " ".join(text.split())[:60])
        if key in AUDITED:
            self.used.add(key)
            return True
        self.problems.append(f"astmcp/{module.rel}:{getattr(at, 'lineno', '?')}: SQL built from {text!r}")
        return False

    def safe(self, module: Module, expr: ast.AST, at: ast.AST) -> bool:
        """True when every string ``expr`` can produce comes from literals in our code."""
        match expr:
            case ast.Constant():
                return True
            case ast.JoinedStr(values=values):
                return all(self.safe(module, v, at) for v in values)
            case ast.FormattedValue(value=value):
                return self.safe(module, value, at)
            case (
                ast.BinOp(op=ast.Mult(), left=ast.Constant(), right=_)
                | ast.BinOp(op=ast.Mult(), left=_, right=ast.Constant())
            ):
                return True  # "?" * n, ["?"] * n: a literal repeated
            case ast.BinOp(op=ast.Add(), left=left, right=right):
                return self.safe(module, left, at) and self.safe(module, right, at)
            case ast.IfExp(body=body, orelse=orelse):
                return self.safe(module, body, at) and self.safe(module, orelse, at)
            case ast.Tuple(elts=elts) | ast.List(elts=elts) | ast.Set(elts=elts):
                return all(self.safe(module, e, at) for e in elts)
            case ast.GeneratorExp(elt=elt) | ast.ListComp(elt=elt):
                return self.safe(module, elt, at)
            case ast.Call(func=ast.Attribute(attr=attr, value=base), args=args) if attr in PASS_THROUGH:
                return self.safe(module, base, at) and all(self.safe(module, a, at) for a in args)
            case ast.Call(func=ast.Name(id=name), args=args) if name in PASS_THROUGH:
                return all(self.safe(module, a, at) for a in args)
            case ast.Call(func=ast.Name(id="len")):
                return True
            case ast.Name(id=name):
                return self.safe_name(module, name, at, expr)
        return self.flag(module, expr, at)

    def safe_name(self, module: Module, name: str, at: ast.AST, expr: ast.AST) -> bool:
        guard = (id(at), name)
        if guard in self._active:
            return True  # a cycle (x = x + "..."): the other bindings decide
        self._active.add(guard)
        try:
            for function in module.enclosing_functions(at):
                bound = list(bindings(function, name))
                if bound:
                    return all(self.safe(module, value, value) for value in bound)
                if name in parameter_names(function):
                    return self.safe_parameter(module, function, name, expr)
            bound = list(bindings(module.tree, name, top_level=True))
            if bound:
                return all(self.safe(module, value, value) for value in bound)
            source = self.imported_from(module, name)
            if source is not None:
                return self.safe_name(source, name, source.tree, expr)
            return self.flag(module, expr, at)
        finally:
            self._active.discard(guard)

    def imported_from(self, module: Module, name: str) -> Module | None:
        """The module of ours that ``from astmcp.x import name`` at top level refers to."""
        for node in module.tree.body:
            if (
                isinstance(node, ast.ImportFrom)
                and node.module
                and node.level == 0
                and any(a.name == name and a.asname in (None, name) for a in node.names)
            ):
                rel = node.module.removeprefix("astmcp.").replace(".", "/") + ".py"
                return next((m for m in self.modules if m.rel == rel), None)
        return None

    def safe_parameter(self, module: Module, function: ast.AST, name: str, expr: ast.AST) -> bool:
        """A helper's parameter is safe when every call of the helper passes something safe."""
        assert isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef)
        params = [a.arg for a in (*function.args.posonlyargs, *function.args.args)]
        index = params.index(name) if name in params else None
        if index is not None and params and params[0] in ("self", "cls"):
            index -= 1
        calls = 0
        ok = True
        for other in self.modules:
            for node in ast.walk(other.tree):
                if not isinstance(node, ast.Call):
                    continue
                callee = (
                    node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
                )
                if callee != function.name:
                    continue
                calls += 1
                given = [k.value for k in node.keywords if k.arg == name]
                if not given and index is not None and index < len(node.args):
                    given = [node.args[index]]
                for value in given:
                    ok = self.safe(other, value, node) and ok
        if calls == 0:
            return self.flag(module, expr, function)
        return ok


def parameter_names(function: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    a = function.args
    names = {x.arg for x in (*a.posonlyargs, *a.args, *a.kwonlyargs)}
    names |= {x.arg for x in (a.vararg, a.kwarg) if x is not None}
    return names


def bindings(scope: ast.AST, name: str, top_level: bool = False) -> Iterator[ast.AST]:
    """Values ``name`` is bound to in ``scope`` (for loop targets: the iterable, element-wise)."""
    nodes = ast.iter_child_nodes(scope) if top_level else ast.walk(scope)
    for node in nodes:
        match node:
            case ast.Assign(targets=targets, value=value) if any(binds(t, name) for t in targets):
                yield value
            case ast.AnnAssign(target=target, value=value) if value is not None and binds(target, name):
                yield value
            case ast.AugAssign(target=target, value=value) if binds(target, name):
                yield value
            case ast.NamedExpr(target=target, value=value) if binds(target, name):
                yield value
            case ast.For(target=target, iter=iterable) | ast.comprehension(target=target, iter=iterable) if (
                binds(target, name)
            ):
                yield iterable
            case ast.With(items=items):
                for item in items:
                    if item.optional_vars is not None and binds(item.optional_vars, name):
                        yield item.context_expr


def binds(target: ast.AST, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(target))


def load(path: Path, rel: str) -> Module:
    source = path.read_text(encoding="utf-8")
    return Module(rel, ast.parse(source), source)


def test_every_sql_statement_in_astmcp_is_built_from_literals_only() -> None:
    modules = [load(p, p.relative_to(PACKAGE).as_posix()) for p in sorted(PACKAGE.rglob("*.py"))]
    audit = Audit(modules)
    count = audit.run()
    assert count > 100, "the audit found too few statements: did the search break?"
    assert audit.problems == []
    assert set(AUDITED) - audit.used == set(), "AUDITED lists expressions that no longer exist"


def test_the_audit_flags_user_input_formatted_into_sql() -> None:
    source = textwrap.dedent(
        """
        TABLES = ("files", "symbols")

        def fine(conn, ids):
            marks = ",".join("?" * len(ids))
            for table in TABLES:
                conn.execute(f"DELETE FROM {table} WHERE id IN ({marks})", ids)

        def lookup(conn, where):
            return conn.execute("SELECT 1 FROM files WHERE " + where)

        def search(conn, query):
            conn.execute(f"SELECT * FROM symbols WHERE name = '{query}'")
            lookup(conn, "path = ?")
            lookup(conn, query.strip())
        """
    )
    audit = Audit([Module("probe.py", ast.parse(source), source)])
    assert audit.run() == 3
    assert [p.split(": ", 1)[1] for p in audit.problems] == [
        "SQL built from 'query'",
        "SQL built from 'query'",
    ]


@pytest.mark.parametrize("keep", [0.5, 0.1, 0.0])
def test_a_truncated_index_is_detected_and_rebuilt_not_trusted(
    tmp_path: Path, caller: Any, keep: float
) -> None:
    for i in range(40):
        pad = "".join(f"\n\ndef pad_{i}_{j}(x):\n    return fn_{i}(x)\n" for j in range(20))
        (tmp_path / f"m{i}.py").write_text(f"def fn_{i}(x):\n    return x\n{pad}", encoding="utf-8")
    first = caller(tmp_path)
    assert first("ast_list_files", limit=1)["total"] == 40
    first.close()
    db = tmp_path / ".astmcp" / "index.db"
    for suffix in ("-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    size = db.stat().st_size
    with open(db, "r+b") as handle:
        handle.truncate(max(1, int(size * keep)))
    again = caller(tmp_path)
    assert again("ast_list_files", limit=1)["total"] == 40
    assert again("ast_search_symbols", query="fn_39")["symbols"][0]["selector"] == "m39.py::fn_39"
    refs = again("ast_find_references", selector="m7.py::fn_7")
    assert refs["references"][0]["file"] == "m7.py"


@pytest.mark.parametrize(
    "query", ["'; DROP TABLE files; --", 'fn" OR "1"="1', "fn_1*", "fn_1 AND NOT x", "fn\x00_1", "%_%"]
)
def test_hostile_search_queries_leave_the_index_intact(tmp_path: Path, caller: Any, query: str) -> None:
    (tmp_path / "m.py").write_text("def fn_1():\n    return 1\n", encoding="utf-8")
    call = caller(tmp_path)
    result = call.raw("ast_search_symbols", query=query)
    assert not result.is_error or result.data["error"]["code"] == "INVALID_INPUT", result.text
    assert call("ast_list_files")["total"] == 1
    assert call("ast_search_symbols", query="fn_1")["symbols"][0]["selector"] == "m.py::fn_1"
