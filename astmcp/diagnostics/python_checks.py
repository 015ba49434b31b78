"""Built-in Python checks run in the parse worker: undefined names, module bindings.

Scope semantics come from the compiler itself (:mod:`symtable`: class scopes,
comprehensions, ``global``/``nonlocal``, ``del`` are exactly Python's); the
syntax tree is walked only to place the rare candidates. The check is
conservative: a file with a star import, ``exec`` or ``globals()`` writes is
skipped, and dunder names, builtins of any Python version and names injected
into ``builtins`` stay quiet.
"""

from __future__ import annotations

import ast
import builtins
import re
import symtable
from dataclasses import dataclass

from astmcp.diagnostics.builtin_names import PYTHON_BUILTINS
from astmcp.model import DiagnosticFact

__all__ = ["NAME", "UNDEFINED_NAME", "PythonChecks", "analyze", "undefined_message"]

NAME = "py_checks"
UNDEFINED_NAME = "PY-UNDEFINED-NAME"

_STAR_IMPORT = re.compile(r"\bimport\s*\(?\s*\*")
_DYNAMIC = re.compile(r"\b(?:exec|execfile)\s*\(|\bglobals\s*\(\s*\)|\bsys\.modules\s*\[\s*__name__\s*\]")
_DYNAMIC_WORDS = ("exec", "globals", "sys.modules")
_NOQA = re.compile(r"#\s*(?P<kind>noqa|type:\s*ignore)\b(?::?\s*(?P<codes>[A-Z0-9, ]+))?", re.IGNORECASE)
_BUILTINS_MODULES = frozenset({"builtins", "__builtin__", "__builtins__"})
_CLASS_IMPLICIT = frozenset({"__module__", "__qualname__", "__doc__", "__dict__", "__annotations__"})
_KNOWN = PYTHON_BUILTINS | frozenset(dir(builtins))

ScopeKey = tuple[str, str, int]


@dataclass(frozen=True, slots=True)
class PythonChecks:
    """One file's payload: diagnostics, its module-level bindings and builtins it injects."""

    diagnostics: tuple[DiagnosticFact, ...]
    module_names: frozenset[str]  # names bound at module level (for `from m import name` checks)
    dynamic: bool  # star import, module __getattr__, exec or globals(): any name may exist
    injected_builtins: frozenset[str]
    guarded_imports: frozenset[int] = frozenset()  # lines of imports inside `try: … except ImportError`


def undefined_message(name: str) -> str:
    return f"undefined name '{name}'"


def analyze(path: str, text: str, tree: ast.Module) -> PythonChecks:
    guarded = _guarded_imports(tree.body, False, set()) if "except" in text else frozenset()
    star = "*" in text and bool(_STAR_IMPORT.search(text)) and _has_star_import(tree)
    dynamic_text = any(word in text for word in _DYNAMIC_WORDS) and bool(_DYNAMIC.search(text))
    injected = _injected_builtins(tree) if "builtins" in text or "__builtin__" in text else frozenset()
    try:
        table = symtable.symtable(text, path, "exec")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return PythonChecks((), frozenset(), True, injected, guarded)
    module_names = _module_bindings(table)
    dynamic = star or dynamic_text or "__getattr__" in module_names
    diagnostics: tuple[DiagnosticFact, ...] = ()
    if not (star or dynamic_text):
        candidates = _candidates(table, module_names | injected)
        if candidates:
            diagnostics = tuple(_locate(tree, text, candidates))
    return PythonChecks(diagnostics, frozenset(module_names), dynamic, injected, guarded)


_NAME_ERRORS = frozenset({"NameError", "BaseException"})
_IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError", "Exception", "BaseException"})


def _guarded_imports(body: list[ast.stmt], guarded: bool, out: set[int]) -> frozenset[int]:
    """Import statements whose failure is handled (statement walk only: cheap)."""
    for stmt in body:
        if isinstance(stmt, ast.Import | ast.ImportFrom):
            if guarded:
                out.add(stmt.lineno)
        elif isinstance(stmt, ast.Try | ast.TryStar):
            catches = any(_catches(h, _IMPORT_ERRORS) for h in stmt.handlers)
            _guarded_imports(stmt.body, guarded or catches, out)
            for handler in stmt.handlers:
                _guarded_imports(handler.body, guarded, out)
            _guarded_imports(stmt.orelse, guarded, out)
            _guarded_imports(stmt.finalbody, guarded, out)
        elif isinstance(stmt, ast.Match):
            for case in stmt.cases:
                _guarded_imports(case.body, guarded, out)
        else:
            for field in ("body", "orelse", "finalbody"):
                block = getattr(stmt, field, None)
                if isinstance(block, list):
                    _guarded_imports(block, guarded, out)
    return frozenset(out)


def _has_star_import(tree: ast.Module) -> bool:
    return any(
        isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names) for node in ast.walk(tree)
    )


def _module_bindings(table: symtable.SymbolTable) -> set[str]:
    names = {s.get_name() for s in table.get_symbols() if s.is_local() or s.is_imported() or s.is_assigned()}
    stack = list(table.get_children())
    while stack:  # `global x` + assignment in any function binds a module name
        child = stack.pop()
        stack.extend(child.get_children())
        for sym in child.get_symbols():
            if sym.is_declared_global() and (sym.is_assigned() or sym.is_imported()):
                names.add(sym.get_name())
    return names


def _quiet(name: str) -> bool:
    return (name.startswith("__") and name.endswith("__")) or name in _KNOWN


def _candidates(table: symtable.SymbolTable, bound: set[str]) -> dict[ScopeKey, set[str]]:
    """Names each scope reads that no scope binds, keyed by (type, name, line) of the scope."""
    found: dict[ScopeKey, list[set[str]]] = {}
    stack = [table]
    while stack:
        tab = stack.pop()
        kind = tab.get_type()
        kind_name = kind if isinstance(kind, str) else str(kind)
        names: set[str] = set()
        if kind_name in ("module", "function", "class"):
            for sym in tab.get_symbols():
                name = sym.get_name()
                if not sym.is_referenced() or name in bound or _quiet(name):
                    continue
                if kind_name == "module":
                    undefined = not (sym.is_local() or sym.is_imported() or sym.is_assigned())
                else:  # symtable calls locals of a function named "top" global: check both ways
                    undefined = (
                        sym.is_global()
                        and not sym.is_declared_global()
                        and not (sym.is_local() or sym.is_parameter() or sym.is_free())
                        and not (sym.is_assigned() or sym.is_imported())
                    )
                if undefined and not (kind_name == "class" and name in _CLASS_IMPLICIT):
                    names.add(name)
        else:  # annotation / type-parameter scopes (3.12+): not placed, stay quiet
            names = set()
        key: ScopeKey = (kind_name, tab.get_name(), tab.get_lineno())
        found.setdefault(key, []).append(names)
        stack.extend(tab.get_children())
    out: dict[ScopeKey, set[str]] = {}
    for key, sets in found.items():
        common = set.intersection(*sets)  # same key twice (two lambdas on a line): only sure names
        if common:
            out[key] = common
    return out


_COMPREHENSIONS: dict[type[ast.AST], str] = {
    ast.ListComp: "listcomp",
    ast.SetComp: "setcomp",
    ast.DictComp: "dictcomp",
    ast.GeneratorExp: "genexpr",
}


class _Locator:
    """Walks the tree with the symtable's scope keys and places candidate reads."""

    def __init__(self, text: str, candidates: dict[ScopeKey, set[str]]) -> None:
        self.lines = text.splitlines()
        self.candidates = candidates
        self.found: list[DiagnosticFact] = []

    def visit(self, node: ast.AST, key: ScopeKey, quiet: bool) -> None:
        if isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Load) and not quiet and node.id in self.candidates.get(key, ()):
                self.report(node)
            return
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            self.function(node, key, quiet)
        elif isinstance(node, ast.ClassDef):
            for child in (*node.decorator_list, *node.bases, *node.keywords):
                self.visit(child, key, quiet)
            inner: ScopeKey = ("class", node.name, node.lineno)
            for stmt in node.body:
                self.visit(stmt, inner, quiet)
        elif type(node) in _COMPREHENSIONS:
            self.comprehension(node, key, quiet)
        elif isinstance(node, ast.Try | ast.TryStar):
            body_quiet = quiet or any(_catches(h, _NAME_ERRORS) for h in node.handlers)
            for stmt in node.body:
                self.visit(stmt, key, body_quiet)
            for part in (*node.handlers, *node.orelse, *node.finalbody):
                self.visit(part, key, quiet)
        else:
            for child in ast.iter_child_nodes(node):
                self.visit(child, key, quiet)

    def function(
        self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda, key: ScopeKey, quiet: bool
    ) -> None:
        args = node.args
        outer: list[ast.AST] = [*args.defaults, *(d for d in args.kw_defaults if d is not None)]
        every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
        outer.extend(a.annotation for a in every if a is not None and a.annotation is not None)
        if isinstance(node, ast.Lambda):
            inner: ScopeKey = ("function", "lambda", node.lineno)
            body: list[ast.AST] = [node.body]
        else:
            outer.extend(node.decorator_list)
            if node.returns is not None:
                outer.append(node.returns)
            inner = ("function", node.name, node.lineno)
            body = list(node.body)
        for child in outer:
            self.visit(child, key, quiet)
        for child in body:
            self.visit(child, inner, quiet)

    def comprehension(self, node: ast.AST, key: ScopeKey, quiet: bool) -> None:
        generators: list[ast.comprehension] = node.generators  # type: ignore[attr-defined]
        self.visit(generators[0].iter, key, quiet)
        inner: ScopeKey = ("function", _COMPREHENSIONS[type(node)], node.lineno)  # type: ignore[attr-defined]
        for index, gen in enumerate(generators):
            self.visit(gen.target, inner, quiet)
            if index:
                self.visit(gen.iter, inner, quiet)
            for cond in gen.ifs:
                self.visit(cond, inner, quiet)
        for field in ("elt", "key", "value"):
            part = getattr(node, field, None)
            if isinstance(part, ast.AST):
                self.visit(part, inner, quiet)

    def report(self, node: ast.Name) -> None:
        line = node.lineno
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        if _silenced(text):
            return
        raw = text.encode("utf-8")[: node.col_offset]
        column = len(raw.decode("utf-8", errors="replace")) + 1
        self.found.append(DiagnosticFact(UNDEFINED_NAME, "error", line, column, undefined_message(node.id)))


def _silenced(line: str) -> bool:
    """``# noqa`` (bare or naming F821) or ``# type: ignore`` on the line: the author knows."""
    match = _NOQA.search(line)
    if match is None:
        return False
    codes = match.group("codes")
    return match.group("kind") != "noqa" or not codes or "F821" in codes


def _catches(handler: ast.ExceptHandler, errors: frozenset[str]) -> bool:
    kind = handler.type
    if kind is None:
        return True
    names = kind.elts if isinstance(kind, ast.Tuple) else [kind]
    return any(
        (isinstance(n, ast.Name) and n.id in errors) or (isinstance(n, ast.Attribute) and n.attr in errors)
        for n in names
    )


def _locate(tree: ast.Module, text: str, candidates: dict[ScopeKey, set[str]]) -> list[DiagnosticFact]:
    locator = _Locator(text, candidates)
    for stmt in tree.body:
        locator.visit(stmt, ("module", "top", 0), False)
    return locator.found


def _injected_builtins(tree: ast.Module) -> frozenset[str]:
    """Names a file puts into builtins: ``builtins.x = …``, ``setattr(builtins, "x", …)``,
    ``__builtins__["x"] = …``."""
    aliases = set(_BUILTINS_MODULES)
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            aliases.update(a.asname for a in node.names if a.name in _BUILTINS_MODULES and a.asname)
        elif isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Attribute) and _is_builtins(target.value, aliases):
                    names.add(target.attr)
                elif isinstance(target, ast.Subscript) and _is_builtins(target.value, aliases):
                    key = target.slice
                    if isinstance(key, ast.Constant) and isinstance(key.value, str):
                        names.add(key.value)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr":
            args = node.args
            given = args[1].value if len(args) >= 2 and isinstance(args[1], ast.Constant) else None
            if isinstance(given, str) and _is_builtins(args[0], aliases):
                names.add(given)
    return frozenset(names)


def _is_builtins(node: ast.expr, aliases: set[str]) -> bool:
    if isinstance(node, ast.Name):
        return node.id in aliases
    if isinstance(node, ast.Attribute) and node.attr == "__dict__":
        return _is_builtins(node.value, aliases)
    return False
