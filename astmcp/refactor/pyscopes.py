"""Python scopes for rename safety: which scope binds each name, and where each
identifier occurrence sits (stdlib ``ast``; positions 1-based, code-point columns).

Used to refuse renames that would clash with, capture, or be captured by another
binding, and to find same-file references when the index has none.
"""

from __future__ import annotations

import ast
import builtins
import re
from dataclasses import dataclass, field

from astmcp.query.pytrees import parsed_tree

BUILTINS = frozenset(dir(builtins))
_DEF = re.compile(r"(?:async\s+)?(?:def|class)\s+")


@dataclass(eq=False)
class Scope:
    kind: str  # module | class | function | comprehension
    name: str
    line: int
    parent: Scope | None
    binds: dict[str, int] = field(default_factory=dict)  # name -> first line bound
    globals: set[str] = field(default_factory=set)
    nonlocals: set[str] = field(default_factory=set)
    children: list[Scope] = field(default_factory=list)

    def describe(self) -> str:
        if self.kind == "module":
            return "the module scope"
        return f"{self.kind} {self.name!r} (line {self.line})"

    def visible_parents(self) -> list[Scope]:
        """This scope, then the enclosing scopes a name lookup sees (class bodies are skipped)."""
        out: list[Scope] = [self]
        node = self.parent
        while node is not None:
            if node.kind != "class":
                out.append(node)
            node = node.parent
        return out

    def is_within(self, other: Scope) -> bool:
        node: Scope | None = self
        while node is not None:
            if node is other:
                return True
            node = node.parent
        return False


@dataclass(frozen=True, slots=True)
class Occurrence:
    name: str
    line: int
    column: int  # 1-based code point
    role: str  # bind | use | attr | kwarg
    scope: Scope


def resolve(scope: Scope, name: str) -> Scope | None:
    """The scope whose binding ``name`` means inside ``scope``; None for builtins/unbound."""
    for candidate in scope.visible_parents():
        if name in candidate.globals:
            return _module(candidate)
        if name in candidate.binds and name not in candidate.nonlocals:
            return candidate
    return None


def _module(scope: Scope) -> Scope:
    while scope.parent is not None:
        scope = scope.parent
    return scope


def code_point_column(raw: str, byte_col: int) -> int:
    """The 1-based code-point column of the UTF-8 byte offset ``ast`` gives on the line ``raw``."""
    if raw.isascii():
        return byte_col + 1
    return len(raw.encode("utf-8")[:byte_col].decode("utf-8", errors="replace")) + 1


class FileScopes(ast.NodeVisitor):
    """Walk a module once; ``occurrences[(line, column)]`` and the scope tree."""

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self.module = Scope("module", "", 1, None)
        self.scope = self.module
        self.occurrences: dict[tuple[int, int], Occurrence] = {}
        self.tree = parsed_tree(text)  # (shared: read, never changed)
        self.visit(self.tree)

    # -- positions -----------------------------------------------------------------
    def column_of(self, line: int, byte_col: int) -> int:
        return code_point_column(self.lines[line - 1] if 0 < line <= len(self.lines) else "", byte_col)

    def _add(self, name: str, line: int, column: int, role: str, scope: Scope | None = None) -> None:
        target = scope or self.scope
        self.occurrences[(line, column)] = Occurrence(name, line, column, role, target)

    def _bind(self, name: str, line: int, column: int | None) -> None:
        scope = self.scope
        if name in scope.globals:
            scope = self.module
        scope.binds.setdefault(name, line)
        if column is not None:
            self._add(name, line, column, "bind", self.scope)

    def _find(self, line: int, start_col: int, name: str) -> int | None:
        raw = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        match = re.compile(rf"\b{re.escape(name)}\b").search(raw, max(0, start_col - 1))
        return match.start() + 1 if match else None

    def _push(self, kind: str, name: str, line: int) -> Scope:
        scope = Scope(kind, name, line, self.scope)
        self.scope.children.append(scope)
        self.scope = scope
        return scope

    def _pop(self, previous: Scope) -> None:
        self.scope = previous

    # -- definitions ---------------------------------------------------------------
    def _def_name(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> None:
        raw = self.lines[node.lineno - 1]
        start = self.column_of(node.lineno, node.col_offset) - 1
        match = _DEF.match(raw, start)
        column = match.end() + 1 if match else None
        self._bind(node.name, node.lineno, column)

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda, name: str) -> None:
        for expr in [*node.args.defaults, *(d for d in node.args.kw_defaults if d is not None)]:
            self.visit(expr)
        if not isinstance(node, ast.Lambda):
            for dec in node.decorator_list:
                self.visit(dec)
            for arg in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]:
                if arg.annotation:
                    self.visit(arg.annotation)
            for extra in (node.args.vararg, node.args.kwarg):
                if extra is not None and extra.annotation:
                    self.visit(extra.annotation)
            if node.returns:
                self.visit(node.returns)
            self._def_name(node)
        previous = self.scope
        self._push("function", name, node.lineno)
        all_args = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
        all_args += [a for a in (node.args.vararg, node.args.kwarg) if a is not None]
        for arg in all_args:
            self._bind(arg.arg, arg.lineno, self.column_of(arg.lineno, arg.col_offset))
        body = node.body if isinstance(node.body, list) else [node.body]
        for stmt in body:
            self.visit(stmt)
        self._pop(previous)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._function(node, node.name)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self._function(node, node.name)

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self._function(node, "<lambda>")

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        for expr in [*node.decorator_list, *node.bases, *(k.value for k in node.keywords)]:
            self.visit(expr)
        self._def_name(node)
        previous = self.scope
        self._push("class", node.name, node.lineno)
        for stmt in node.body:
            self.visit(stmt)
        self._pop(previous)

    def _comprehension(self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp) -> None:
        self.visit(node.generators[0].iter)
        previous = self.scope
        self._push("comprehension", "<comprehension>", node.lineno)
        for number, gen in enumerate(node.generators):
            if number:
                self.visit(gen.iter)
            self.visit(gen.target)
            for cond in gen.ifs:
                self.visit(cond)
        if isinstance(node, ast.DictComp):
            self.visit(node.key)
            self.visit(node.value)
        else:
            self.visit(node.elt)
        self._pop(previous)

    visit_ListComp = visit_SetComp = visit_GeneratorExp = visit_DictComp = _comprehension

    # -- names ---------------------------------------------------------------------
    def visit_Name(self, node: ast.Name) -> None:
        column = self.column_of(node.lineno, node.col_offset)
        if isinstance(node.ctx, ast.Load):
            self._add(node.id, node.lineno, column, "use")
        else:
            self._bind(node.id, node.lineno, column)

    def visit_NamedExpr(self, node: ast.NamedExpr) -> None:
        self.visit(node.value)
        previous = self.scope
        while self.scope.kind == "comprehension" and self.scope.parent is not None:
            self.scope = self.scope.parent
        self.visit(node.target)
        self.scope = previous

    def visit_Attribute(self, node: ast.Attribute) -> None:
        self.visit(node.value)
        end_line = node.end_lineno or node.lineno
        end = self.column_of(end_line, node.end_col_offset or 0)
        self._add(node.attr, end_line, end - len(node.attr), "attr")

    def visit_keyword(self, node: ast.keyword) -> None:
        if node.arg is not None:
            self._add(node.arg, node.lineno, self.column_of(node.lineno, node.col_offset), "kwarg")
        self.visit(node.value)

    def _declare(self, node: ast.Global | ast.Nonlocal, into: set[str]) -> None:
        for name in node.names:
            into.add(name)
            column = self._find(node.lineno, self.column_of(node.lineno, node.col_offset), name)
            if column is not None:
                self._add(name, node.lineno, column, "use")

    def visit_Global(self, node: ast.Global) -> None:
        self._declare(node, self.scope.globals)

    def visit_Nonlocal(self, node: ast.Nonlocal) -> None:
        self._declare(node, self.scope.nonlocals)

    def _alias(self, alias: ast.alias) -> None:
        if alias.name == "*":
            return
        start = self.column_of(alias.lineno, alias.col_offset)
        if alias.asname:
            name_col = start
            bound = alias.asname
            column = self._find(alias.lineno, start + len(alias.name), alias.asname)
            self._add(alias.name.split(".")[-1], alias.lineno, name_col + alias.name.rfind(".") + 1, "use")
        else:
            bound = alias.name.split(".")[0]
            column = start
        self._bind(bound, alias.lineno, column)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._alias(alias)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        for alias in node.names:
            self._alias(alias)

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> None:
        if node.type:
            self.visit(node.type)
        if node.name:
            self._bind(node.name, node.lineno, self._find(node.lineno, 1, node.name))
        for stmt in node.body:
            self.visit(stmt)

    def visit_MatchAs(self, node: ast.MatchAs) -> None:
        if node.pattern:
            self.visit(node.pattern)
        if node.name:
            self._bind(node.name, node.lineno, None)

    def visit_MatchStar(self, node: ast.MatchStar) -> None:
        if node.name:
            self._bind(node.name, node.lineno, None)

    def visit_MatchMapping(self, node: ast.MatchMapping) -> None:
        self.generic_visit(node)
        if node.rest:
            self._bind(node.rest, node.lineno, None)

    def scopes(self) -> list[Scope]:
        out: list[Scope] = []
        stack = [self.module]
        while stack:
            scope = stack.pop()
            out.append(scope)
            stack.extend(scope.children)
        return out
