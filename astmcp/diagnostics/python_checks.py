"""Built-in Python checks run in the parse worker: undefined names, module bindings.

Scope semantics come from the compiler itself (``_symtable``: class scopes,
comprehensions, ``global``/``nonlocal``, ``del`` are exactly Python's); the
syntax tree is walked only to place the rare candidates. The check is
conservative: a file with a star import, ``exec`` or ``globals()`` writes is
skipped, and dunder names, builtins of any Python version and names injected
into ``builtins`` stay quiet.
"""

from __future__ import annotations

import ast
import builtins
import importlib
import re
from dataclasses import dataclass
from typing import Any

from astmcp.diagnostics.builtin_names import PYTHON_BUILTINS
from astmcp.model import DiagnosticFact

__all__ = ["NAME", "UNDEFINED_NAME", "PythonChecks", "analyze", "undefined_message"]

NAME = "py_checks"
UNDEFINED_NAME = "PY-UNDEFINED-NAME"

_STAR_IMPORT = re.compile(r"import[ \t]*\(?[ \t]*\*")
_DYNAMIC = (  # each starts with a literal so the scan is fast; a preceding name char is rejected
    re.compile(r"exec(?:file)?\s*\("),
    re.compile(r"globals\s*\(\s*\)"),
    re.compile(r"sys\.modules\s*\[\s*__name__\s*\]"),
)
_DYNAMIC_WORDS = ("exec", "globals", "sys.modules")
_NOQA = re.compile(r"#\s*(?P<kind>noqa|type:\s*ignore)\b(?::?\s*(?P<codes>[A-Z0-9, ]+))?", re.IGNORECASE)
_BUILTINS_MODULES = frozenset({"builtins", "__builtin__", "__builtins__"})
_CLASS_IMPLICIT = frozenset({"__module__", "__qualname__", "__doc__", "__dict__", "__annotations__"})
_KNOWN = PYTHON_BUILTINS | frozenset(dir(builtins))

ScopeKey = tuple[str, str, int]
# The compiler's own symbol tables (what :mod:`symtable` wraps), read directly for speed.
_ST: Any = importlib.import_module("_symtable")


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
    guarded = _guarded_imports(text) if "try" in text else frozenset()
    star = "*" in text and bool(_STAR_IMPORT.search(text)) and _has_star_import(tree)
    dynamic_text = any(
        word in text and _dynamic(pattern, text)
        for word, pattern in zip(_DYNAMIC_WORDS, _DYNAMIC, strict=True)
    )
    injected = _injected_builtins(tree) if "builtins" in text or "__builtin__" in text else frozenset()
    try:
        table = _ST.symtable(text, path, "exec")
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
_TRY_LINE = re.compile(r"^([ \t]*)try[ \t]*:(?P<rest>.*)$", re.MULTILINE)
_HANDLER = re.compile(r"^([ \t]*)except\b(?P<what>[^:]*):")
_IMPORT_LINE = re.compile(r"^[ \t]*(?:from|import)[ \t]")
_IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError", "Exception", "BaseException"})


def _guarded_imports(text: str) -> frozenset[int]:
    """Lines of imports inside ``try:`` blocks whose handlers catch import failures.

    Read from the text by indentation (Python's own block structure), which is
    several times cheaper than walking every statement of every file.
    """
    out: set[int] = set()
    lines: list[str] | None = None
    row, pos = 0, 0
    for match in _TRY_LINE.finditer(text):
        row += text.count("\n", pos, match.start())
        pos = match.start()
        if lines is None:
            lines = text.splitlines()
        width = len(match.group(1))
        found = [row + 1] if _IMPORT_LINE.match(match.group("rest")) else []
        i = row + 1
        while i < len(lines) and _inside(lines[i], width):
            if _IMPORT_LINE.match(lines[i]):
                found.append(i + 1)
            i += 1
        catches = False
        while i < len(lines) and found and not catches:
            handler = _HANDLER.match(lines[i])
            if handler is None or len(handler.group(1)) != width:
                break
            what = handler.group("what")
            catches = not what.strip() or any(name in what for name in _IMPORT_ERRORS)
            i += 1
            while i < len(lines) and _inside(lines[i], width):
                i += 1
        if catches:
            out.update(found)
    return frozenset(out)


def _inside(line: str, width: int) -> bool:
    """Blank, comment, or indented deeper than ``width``: still inside the block."""
    stripped = line.lstrip()
    return not stripped or stripped.startswith("#") or len(line) - len(stripped) > width


def _dynamic(pattern: re.Pattern[str], text: str) -> bool:
    for match in pattern.finditer(text):
        before = text[match.start() - 1] if match.start() else " "
        if not (before.isalnum() or before in "_."):
            return True
    return False


def _has_star_import(tree: ast.Module) -> bool:
    return any(
        isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names) for node in ast.walk(tree)
    )


def _module_bindings(table: Any) -> set[str]:
    names = {name for name, flags in table.symbols.items() if flags & _ST.DEF_BOUND}
    stack = list(table.children)
    while stack:  # `global x` + assignment in any function binds a module name
        child = stack.pop()
        stack.extend(child.children)
        for name, flags in child.symbols.items():
            if flags & _ST.DEF_GLOBAL and flags & (_ST.DEF_LOCAL | _ST.DEF_IMPORT):
                names.add(name)
    return names


def _quiet(name: str) -> bool:
    return (name.startswith("__") and name.endswith("__")) or name in _KNOWN


def _candidates(table: Any, bound: set[str]) -> dict[ScopeKey, set[str]]:
    """Names each scope reads that no scope binds, keyed by (type, name, line) of the scope.

    Works on the raw compiler entries (flags per name): the public ``symtable``
    wrappers cost more than the compiler pass itself on large trees.
    """
    kinds = {_ST.TYPE_MODULE: "module", _ST.TYPE_FUNCTION: "function", _ST.TYPE_CLASS: "class"}
    found: dict[ScopeKey, list[set[str]]] = {}
    stack = [table]
    while stack:
        entry = stack.pop()
        stack.extend(entry.children)
        kind = kinds.get(entry.type)
        names: set[str] = set()
        if kind is not None:  # annotation / type-parameter scopes (3.12+) are not placed: quiet
            for name, flags in entry.symbols.items():
                if not flags & _ST.USE or flags & _ST.DEF_BOUND or name in bound or _quiet(name):
                    continue
                if kind != "module" and (flags >> _ST.SCOPE_OFF) & _ST.SCOPE_MASK != _ST.GLOBAL_IMPLICIT:
                    continue
                if not (kind == "class" and name in _CLASS_IMPLICIT):
                    names.add(name)
        key: ScopeKey = (kind or "other", entry.name.strip("<>"), entry.lineno)
        found.setdefault(key, []).append(names)
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
