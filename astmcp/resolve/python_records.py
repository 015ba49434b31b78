"""Occurrences and bindings recorded without walking a subtree: names, imports, ``__all__``, isinstance narrowing, strings."""

from __future__ import annotations

import ast
import builtins
import io
import keyword
import re
import tokenize
from typing import Any

from astmcp.lang.python import dunder_all_strings
from astmcp.resolve.python_binding import Narrowing
from astmcp.resolve.python_doctests import PROMPT as DOCTEST_PROMPT
from astmcp.resolve.python_doctests import continues, doctest_names
from astmcp.resolve.python_fstrings import literal_text
from astmcp.resolve.python_namespace import folded, member_template
from astmcp.resolve.python_programs import placed_rows, program_source
from astmcp.resolve.python_pytest import PytestFacts
from astmcp.resolve.python_scope import (
    Pending,
    Scope,
    annotation_names,
    func_name,
    is_class_expr,
    narrow_key,
    rebinds,
    stored_key,
)
from astmcp.resolve.python_vocab import (
    ANY_OBJECT,
    ATTR_PATCHERS,
    DATA_KEY,
    DEF_NAME,
    DOCTEST_LOCAL,
    DOCTEST_OUTPUT,
    DOTTED,
    IDENT,
    MAX_STRING,
    MODULE_LOADERS,
    PARAMETRIZE,
    SAME_ITEMS,
    SLOT_NAME,
    STR_ATTR_FUNCS,
    fixture_call,
)
from astmcp.resolve.templates import TEMPLATE_NAME

# a string that lists names, apart from what it is used for: by commas (`"title,author"`,
# `"x, y"`), or one name with an ordering sign (`"-created"`, Django's `ordering`)
_NAME_LIST = re.compile(
    r"[-+][A-Za-z_]\w+|[A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)+|[A-Za-z_]\w*\s+(?:ASC|DESC|asc|desc)"
)
# calls whose second argument lists names (`namedtuple("P", "x y")`, `Enum("Color", "RED GREEN")`)
_NAMED_LISTS = frozenset({"namedtuple", "Enum", "IntEnum", "StrEnum", "Flag", "IntFlag"})

# the last part of a dotted string that names a file (`"parent.html"`, `"setup.cfg"`), not a member
_FILE_SUFFIXES = frozenset(
    {
        "html",
        "htm",
        "xml",
        "json",
        "yaml",
        "yml",
        "toml",
        "ini",
        "cfg",
        "conf",
        "txt",
        "md",
        "rst",
        "csv",
        "tsv",
        "log",
        "py",
        "pyi",
        "pyc",
        "js",
        "ts",
        "css",
        "j2",
        "jinja",
        "jinja2",
        "tmpl",
        "tpl",
        "png",
        "jpg",
        "jpeg",
        "gif",
        "svg",
        "ico",
        "pdf",
        "zip",
        "gz",
        "tar",
        "tgz",
        "whl",
        "egg",
        "so",
        "dll",
        "exe",
        "sh",
        "bat",
        "sql",
        "db",
        "sqlite",
        "lock",
        "pem",
        "crt",
        "key",
    }
)


class AttributeString(ast.Attribute):
    """The string of ``getattr(x, "name")`` read as the attribute ``x.name`` it names: a pending
    occurrence whose callee is judged once every binding is known (``attribute_string_row``)."""

    call: ast.Call
    const: ast.Constant


class DoctestName(ast.Name):
    """A name a doctest example reads that the doctest does not bind: the module's global of that
    name once the module has run (doctest's globals are the module's), judged with every binding
    known."""


class PatternKeyword(ast.Attribute):
    """The keyword of a class pattern (``case Point(x=0)``), read as the attribute ``x`` of an
    instance of the class named: a pending occurrence judged once every binding is known."""

    cls: ast.expr


# Inert string sinks (``Records.sink_arguments``): calls whose string arguments are only shown, so
# cannot name a symbol. Builtin exception classes take a message (not StopIteration: its argument
# is the value a generator returns).
_EXCEPTIONS = frozenset(
    name
    for name, value in vars(builtins).items()
    if isinstance(value, type) and issubclass(value, BaseException)
) - {"StopIteration", "StopAsyncIteration"}
_WARN = frozenset({"I:0:warnings:warn", "I:0:warnings:/warn"})
_PYTEST_OUTCOMES = {  # pytest.fail/skip/xfail("reason") and importorskip(mod, reason=...)
    f"I:0:pytest:{sep}{name}": name for name in ("fail", "skip", "xfail", "importorskip") for sep in ("", "/")
}
_PYTEST_MARKS = frozenset(
    f"I:0:pytest:{sep}mark/{name}" for name in ("skip", "skipif", "xfail") for sep in ("", "/")
)
_PYTEST_PARAM = frozenset({"I:0:pytest:param", "I:0:pytest:/param"})
# `ContextVar("request_id")`: the name is only shown (the variable's repr)
_CONTEXT_VAR = frozenset({"I:0:contextvars:ContextVar", "I:0:contextvars:/ContextVar"})
# `_("deprecated")` with `from gettext import gettext as _`: a message to translate and show
_GETTEXT_NAMES = frozenset({"_", "gettext", "ngettext", "pgettext", "npgettext", "dgettext", "dngettext"})
_GETTEXT = frozenset(
    f"I:0:gettext:{sep}{name}"
    for name in ("gettext", "ngettext", "pgettext", "npgettext", "dgettext", "dngettext")
    for sep in ("", "/")
)
# what a sink's callee must resolve to: ``G:<name>`` a builtin, else one of the chains
Sink = tuple[ast.Call, frozenset[str]]


class Records(PytestFacts):
    def __init__(self, path: str, text: str) -> None:
        super().__init__(path, text)
        self.sink_strings: dict[int, Sink | None] = {}  # string -> its sink (None: always inert)
        self.probes: list[str] = []  # "line:col" of attribute strings that probe (hasattr, getattr(x, n, d))
        self.sunk: list[tuple[ast.Constant | ast.JoinedStr, Sink, Scope]] = []  # judged in settle_sinks
        self.attr_paths: set[int] = set()  # strings given to an attribute getter (`attrgetter("a.b")`)
        self.module_strings: dict[str, str] = {}  # module-level `PREFIX = "on_"`, bound once
        # the module's functions returning a made member name, by name (python_namespace.made_returns)
        self.made_returns: dict[str, ast.expr] = {}
        self.word_lists: set[int] = set()  # strings listing names: `"x y".split()`, `__slots__ = "x y"`
        # format templates whose fields `.format(a=…)` gives by keyword: string id -> the keywords
        self.keyword_templates: dict[int, frozenset[str]] = {}
        # templates filled from the module's namespace (`.format(**globals())`): string id -> the
        # placeholder form and the call's keywords; their fields, resolved once the module's names
        # are known (name, line, col, end, chain otherwise, owner)
        self.namespace_templates: dict[int, tuple[int, frozenset[str]]] = {}
        self.namespace_fields: list[tuple[str, int, int, int, str | None, str]] = []
        # strings used as data keys: a dict display's keys (not one given as `**`), subscripts
        self.data_keys: set[int] = set()
        # dict displays whose keys are names, not data: `f(**{"name": v})`, `__slots__ = {…}`
        self.named_keys: set[int] = set()
        # the strings a class body's `__slots__` lists: string id -> the class's symbol path
        self.slot_strings: dict[int, str] = {}
        # places that reach attributes by a name made at run time (`getattr(x, n)`, `x.__dict__`,
        # `vars(x)`): the receiver (None: any object) -> facts ``dynsites`` (query.data_keys)
        self.dynamic_sites: list[tuple[Scope, ast.expr | None, int]] = []
        # `f[:2] == "t_"`, `name.startswith("p_")`: names tested by what they start or end with,
        # made hits of the names fitting when the module lists an object's names (`dir(m)`,
        # `vars(c)`, `x.__dict__`, `inspect.getmembers`), as ply finds its token and grammar rules
        self.affix_tests: list[tuple[Any, ...]] = []
        self.lists_names = False
        self.reduce_readers: set[int] = set()  # `getattr` of `return getattr, (cls, name)`
        # `f.__name__`: a function's name read as data (facts ``namesites``, query.data_keys)
        self.name_sites: list[tuple[Scope, ast.expr | None, int]] = []
        # strings given to a call (`echo("stdout")`) -> the call; their rows, judged by the callee
        self.call_args: dict[int, tuple[ast.Call, Scope]] = {}
        self.arg_rows: list[tuple[int, ast.Call, Scope]] = []

    # -- occurrences -----------------------------------------------------------
    def name_occurrence(self, node: ast.Name, scope: Scope, kind: str) -> None:
        line = node.lineno
        col = self.col(line, node.col_offset)
        self.pending.append(Pending(node.id, line, col, col + len(node.id), kind, node, scope))

    def attr_occurrence(self, node: ast.Attribute, scope: Scope, kind: str) -> None:
        line = node.end_lineno or node.lineno
        end = self.col(line, node.end_col_offset or 0)
        self.pending.append(Pending(node.attr, line, end - len(node.attr), end, kind, node, scope))

    def direct(self, name: str, line: int, col: int, kind: str, target: str | None, scope: Scope) -> None:
        self.rows.append((name, line, col, col + len(name), kind, target, scope.path))

    def def_name(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> tuple[int, int]:
        line = node.lineno
        text = self.line_text(line)
        start = self.col(line, node.col_offset) - 1
        match = DEF_NAME.match(text, start)
        return line, (match.end() if match else start) + 1

    # -- imports and __all__ ---------------------------------------------------
    def runtime_module(self, scope: Scope, level: int, module: str) -> None:
        """Note ``module`` when a function imports it and a string of the file spells its top
        name (``"cfg_app"``, ``"cfg_app.py"``): a module the file may write at run time."""
        top = module.split(".", 1)[0]
        if scope.kind == "module" or level or not top or top in self.runtime_modules:
            return
        if re.search(rf"""(["']){re.escape(top)}(?:\.py)?\1""", self.text):
            self.runtime_modules.add(top)

    def import_(self, node: ast.Import, scope: Scope) -> None:
        for alias in node.names:
            self.runtime_module(scope, 0, alias.name)
            if alias.asname:
                self.bind(scope, alias.asname, f"I:0:{alias.name}:")
            else:
                head = alias.name.split(".", 1)[0]
                self.bind(scope, head, f"I:0:{head}:")

    def import_from(self, node: ast.ImportFrom, scope: Scope) -> None:
        module = node.module or ""
        level = node.level or 0
        self.runtime_module(scope, level, module)
        for alias in node.names:
            if alias.name == "*":
                if scope.kind == "module":
                    self.star.append(f"I:{level}:{module}:")
                    self.star_lines.append((f"I:{level}:{module}:", node.lineno))
                continue
            target = f"I:{level}:{module}:{alias.name}"
            self.bind(scope, alias.asname or alias.name, target)
            line = getattr(alias, "lineno", node.lineno)
            col = self.col(line, getattr(alias, "col_offset", node.col_offset))
            kind = "export" if self.is_init and scope.kind == "module" else "import"
            self.rows.append((alias.name, line, col, col + len(alias.name), kind, target, scope.path))
            if alias.asname == alias.name:  # `import X as X`: the re-export idiom names it twice
                text = self.line_text(line)
                at = text.find(f" as {alias.name}", col - 1 + len(alias.name))
                if at >= 0:
                    start = at + 5
                    self.rows.append(
                        (alias.name, line, start, start + len(alias.name), kind, target, scope.path)
                    )

    def global_(self, node: ast.Global | ast.Nonlocal, scope: Scope) -> None:
        if isinstance(node, ast.Nonlocal):
            scope.nonlocals.update(node.names)
            return
        scope.globals.update(node.names)
        # `global counter` names the module's variable: a rename that left it would make the
        # function's assignments local ones (UnboundLocalError on `counter += 1`)
        line = node.lineno
        text = self.line_text(line)
        at = self.col(line, node.col_offset) - 1 + len("global")
        for name in node.names:
            found = re.compile(rf"(?<!\w){re.escape(name)}(?!\w)").search(text, at)
            if found is None:
                continue  # continued on another line
            at = found.end()
            self.rows.append((name, line, found.start() + 1, at + 1, "read", f"S:{name}", scope.path))

    def dunder_all(self, value: ast.expr, replace: bool) -> bool:
        """Records ``__all__``'s entries (certain rows); False for a form whose names are unknown."""
        names = dunder_all_strings(value)
        extends = isinstance(value, ast.BinOp) and _extends_all(value)
        if replace and not extends:
            self.all_opaque = names is None
            self.all_names = None
        if names is None:
            self.all_names = None
            self.all_opaque = True
            return False
        if not self.all_opaque:
            self.all_names = [*(self.all_names or []), *(str(e.value) for e in names)]
        self.all_nodes.extend(names)
        return True

    # -- isinstance narrowing --------------------------------------------------
    def isinstance_tests(self, test: ast.expr, scope: Scope, truth: bool) -> list[tuple[str, ast.expr]]:
        """``(key, class)`` of what ``test`` being ``truth`` proves: ``isinstance(x, C)`` (and
        ``and``-ed ones) when true, ``not isinstance(x, C)`` when false."""
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            return self.isinstance_tests(test.operand, scope, not truth)
        if isinstance(test, ast.BoolOp):
            if truth and isinstance(test.op, ast.And):
                return [pair for value in test.values for pair in self.isinstance_tests(value, scope, True)]
            return []
        if (
            truth
            and isinstance(test, ast.Call)
            and isinstance(test.func, ast.Name)
            and test.func.id in self.guards
        ):
            # `is_node(x)` of a module function declared `-> TypeGuard[Node]` (or `TypeIs`), or one
            # returning `isinstance` of two of its parameters (`_safe_isinstance(x, Node)`)
            guarded, given = self.guards[test.func.id]
            args = test.args
            if (
                self.lookup(scope, test.func.id)[0] == "S:" + test.func.id
                and not test.keywords
                and len(args) > max(guarded, given if isinstance(given, int) else 0)
                and not any(isinstance(a, ast.Starred) for a in args)
            ):
                cls = args[given] if isinstance(given, int) else given
                key = narrow_key(args[guarded])
                if key and is_class_expr(cls):
                    return [(key, cls)]
            return []
        if (
            truth
            and isinstance(test, ast.Call)
            and isinstance(test.func, ast.Name)
            and test.func.id == "isinstance"
            and len(test.args) == 2
            and not test.keywords
            and is_class_expr(test.args[1])
            and self.lookup(scope, "isinstance")[0] == "G:isinstance"
        ):
            key = narrow_key(test.args[0])
            if key:
                return [(key, test.args[1])]
        return []

    def narrow(
        self, tests: list[tuple[str, ast.expr]], region: list[Any], scope: Scope, value: bool = False
    ) -> None:
        """Narrow the keys of ``tests`` for the walk of ``region`` (statements or expressions) to
        instances of the classes (``value``: to the values of the expressions).
        A region that rebinds a key (``x``, or ``x`` of ``x.a``) keeps the narrowing only for
        the statements before the first one that does: from there a use may be of the new value."""
        if not tests:
            return
        stores = [{stored_key(n) for n in ast.walk(part)} - {""} for part in region]
        added: dict[str, Narrowing] = {}
        for key, cls in tests:
            first = next((n for n, part in enumerate(stores) if any(rebinds(s, key) for s in part)), None)
            if first is not None and _assigned_after_value(region[first], key):
                # `obj = obj.inner`: the value is read before the name is rebound
                first += 1
                if first == len(region):
                    first = None
            if first is None:
                added[key] = (cls, scope, value)
            elif first > 0 and isinstance(region[first], ast.stmt):
                added[key] = (cls, scope, value)
                self.narrowing_ends.setdefault(id(region[first]), []).append(key)
        if added:
            self.narrowed = {**self.narrowed, **added}

    def end_narrowings(self, stmt: ast.stmt) -> None:
        """Drop the narrowings that end at ``stmt`` (it rebinds their key)."""
        ended = self.narrowing_ends.pop(id(stmt), None)
        if ended and self.narrowed:
            self.narrowed = {k: v for k, v in self.narrowed.items() if k not in ended}

    def same_items(self, items: ast.expr, scope: Scope) -> ast.expr:
        """``sorted(list(xs))`` iterates over the items of ``xs`` (the builtins, not shadowed)."""
        while (
            isinstance(items, ast.Call)
            and isinstance(items.func, ast.Name)
            and items.func.id in SAME_ITEMS
            and items.args
            and not isinstance(items.args[0], ast.Starred)
            and self.lookup(scope, items.func.id)[0] == "G:" + items.func.id
        ):
            items = items.args[0]
        return items

    # -- strings ---------------------------------------------------------------
    def named_string(self, node: ast.Constant, target: str, scope: Scope) -> None:
        name = str(node.value)
        line = node.lineno
        start = self.col(line, node.col_offset)  # the quote
        if self.line_text(line)[start : start + len(name) + 1] == name + self.line_text(line)[start - 1]:
            self.rows.append((name, line, start + 1, start + 1 + len(name), "string", target, scope.path))
        else:
            self.string(node, scope)

    def key_string(self, node: ast.Constant, calls: list[ast.Call], scope: Scope) -> None:
        """A string naming a parameter: a keyword of each of ``calls`` (none: of the function
        itself), which the linker resolves as ``callee/~key``; no name hit."""
        if not calls:
            return
        name = str(node.value)
        line = node.lineno
        start = self.col(line, node.col_offset)  # the quote
        text = self.line_text(line)
        if IDENT.fullmatch(name) is None or text[start : start + len(name) + 1] != name + text[start - 1]:
            self.string(node, scope)
            return
        for call in calls:
            self.pending.append(Pending(name, line, start + 1, start + 1 + len(name), "string", call, scope))

    def attribute_string(self, call: ast.Call, scope: Scope) -> ast.Constant | None:
        """``getattr(x, "name"[, d])`` and ``hasattr``/``setattr``/``delattr``,
        ``monkeypatch.setattr(x, "name", v)``, ``mock.patch.object(x, "name")``: the string argument
        naming an attribute of ``x``, noted as the attribute ``x.name`` (None: no such call)."""
        args = call.args
        func = call.func
        if (
            len(args) < 2
            or isinstance(args[0], ast.Starred)
            or not isinstance(args[1], ast.Constant)
            or type(args[1].value) is not str
            or not (
                (isinstance(func, ast.Name) and func.id in STR_ATTR_FUNCS)
                or (isinstance(func, ast.Attribute) and func.attr in ("setattr", "delattr", "object"))
            )
        ):
            return None
        const = args[1]
        name = str(const.value)
        line = const.lineno
        start = self.col(line, const.col_offset)  # the quote
        text = self.line_text(line)
        if IDENT.fullmatch(name) is None or text[start : start + len(name) + 1] != name + text[start - 1]:
            return None  # escapes, prefixes, concatenation: the plain string rule
        node = AttributeString(value=args[0], attr=name, ctx=ast.Load())
        node.call = call
        node.const = const
        self.pending.append(Pending(name, line, start + 1, start + 1 + len(name), "string", node, scope))
        return const

    def attribute_string_row(self, p: Pending) -> None:
        """The row of an ``attribute_string``: the member its receiver is typed to have, as for
        ``x.name``; a name hit when the receiver cannot be typed, is any object (``o: object``,
        ``Any``) or a module loaded by name (``sys.modules[k]``); the plain string rule when the
        callee is no builtin or patcher after all (a local ``getattr``, a star import)."""
        node = p.node
        assert isinstance(node, AttributeString)
        func = node.call.func
        if isinstance(func, ast.Name):
            names = not self.star and self.lookup(p.scope, func.id, p.line)[0] == "G:" + func.id
        else:
            # (also pytest's `monkeypatch` handed to a helper: `def _run(cli, monkeypatch)`)
            names = fixture_call(self.chain(p.scope, func)) in ATTR_PATCHERS or (
                self.test_file
                and isinstance(func, ast.Attribute)
                and func.attr in ("setattr", "delattr")
                and isinstance(func.value, ast.Name)
                and func.value.id == "monkeypatch"
            )
        if not names:
            self.string(node.const, p.scope)
            return
        recv = self.chain(p.scope, node.value)
        if recv in ANY_OBJECT or (recv or "").startswith(MODULE_LOADERS):
            recv = None  # any object, or a module loaded by name: any project class or module
        target = f"{recv}/{p.name}" if recv else None
        self.rows.append((p.name, p.line, p.col, p.end, "string", target, p.owner or p.scope.path))
        call = node.call
        setter = func.id == "setattr" if isinstance(func, ast.Name) else func_name(func) != "delattr"
        if recv and setter:
            # `setattr(x, "name", v)`, `monkeypatch.setattr(K, "make", fake)`, `mock.patch.object(…)`:
            # a store into `x.name` (a function or method patched so is called as something else)
            given = call.args[2] if len(call.args) > 2 and not isinstance(call.args[2], ast.Starred) else None
            self.attribute_stores.append((p.scope, node, given))
        if isinstance(func, ast.Name) and (
            func.id == "hasattr" or (func.id == "getattr" and len(call.args) > 2)
        ):
            # it expects the member may be missing: the object may be of another type than declared
            self.probes.append(f"{p.line}:{p.col}")

    # -- inert string sinks ----------------------------------------------------
    def sink_arguments(self, node: ast.Call | ast.Assert) -> None:
        """Notes the strings of ``node`` whose value is only shown, so cannot name a symbol (SPEC §3
        names in strings): the message of ``assert c, "msg"``; the positional arguments of a
        builtin exception class (``raise ValueError("msg")``) and of ``print``; the message of
        ``warnings.warn``; the reason of ``pytest.fail``/``skip``/``xfail`` (``reason=`` of
        ``importorskip`` and of the marks ``skip``/``skipif``/``xfail``); ``ids=`` of
        ``pytest.mark.parametrize``, ``id=`` of ``pytest.param``, the name of a
        ``contextvars.ContextVar`` and the messages given to ``gettext``'s functions (``_`` when
        imported so). A string joined into one with
        ``+`` is where the whole is. A call is a sink only if its callee resolves to the builtin,
        ``warnings`` or ``pytest`` (judged in ``settle_sinks``, once every binding is known).
        Not ``%``/``.format`` templates (``"%(name)s" % vars(o)`` reads attributes by name), nor
        assertion comparisons (``assert f.__name__ == "name"``)."""
        if isinstance(node, ast.Assert):
            for const in _string_parts(node.msg):
                self.sink_strings[id(const)] = None
            return
        shown, accepted = _shown(node)
        for expr in shown:
            for const in _string_parts(expr):
                self.sink_strings[id(const)] = (node, accepted)

    def sink_messages(self, tree: ast.Module) -> None:
        """``msg = f"… {x}"`` then ``raise ValueError(msg)`` (the style ruff's EM rules ask for):
        a message held by a name assigned once in its function and read once, as what a sink
        shows, is only shown too. Noted before the walk, which meets the assignment first."""
        scopes: list[ast.AST] = [
            tree,
            *(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)),
        ]
        for scope in scopes:
            assigned: dict[str, list[ast.expr]] = {}
            loads: dict[str, list[ast.Name]] = {}
            calls: list[ast.Call] = []
            todo = list(ast.iter_child_nodes(scope))
            while todo:
                node = todo.pop()
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
                    continue  # (its own scope)
                if (
                    isinstance(node, ast.Assign)
                    and len(node.targets) == 1
                    and isinstance(node.targets[0], ast.Name)
                ):
                    assigned.setdefault(node.targets[0].id, []).append(node.value)
                elif isinstance(node, ast.Name):
                    if isinstance(node.ctx, ast.Load):
                        loads.setdefault(node.id, []).append(node)
                    elif isinstance(node.ctx, ast.Store | ast.Del):
                        assigned.setdefault(node.id, []).append(node)  # (bound otherwise too: not judged)
                elif isinstance(node, ast.Call):
                    calls.append(node)
                todo.extend(ast.iter_child_nodes(node))
            for call in calls:
                shown, accepted = _shown(call)
                for arg in shown:
                    if (
                        not isinstance(arg, ast.Name)
                        or len(assigned.get(arg.id, [])) != 2  # the Assign's value and its target
                        or len(loads.get(arg.id, [])) != 1
                    ):
                        continue
                    value = next(v for v in assigned[arg.id] if not isinstance(v, ast.Name))
                    for const in _string_parts(value):
                        self.sink_strings[id(const)] = (call, accepted)

    def sink_reprs(self, tree: ast.Module) -> None:
        """The text a class's ``__repr__`` returns when it reads as no code (``"<marshmallow.missing>"``,
        ``f"<Rule {self.path!r}>"``: it starts with ``<``, which no expression does): only shown. A
        repr that could be evaluated back (``"Point(x=1)"``) keeps its hits."""
        for cls in ast.walk(tree):
            if not isinstance(cls, ast.ClassDef):
                continue
            for method in cls.body:
                if not isinstance(method, ast.FunctionDef) or method.name != "__repr__":
                    continue
                todo: list[ast.AST] = list(method.body)
                while todo:
                    node = todo.pop()
                    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
                        continue
                    value = node.value if isinstance(node, ast.Return) else None
                    if _angled(value):
                        self.sink_strings[id(value)] = None
                    todo.extend(ast.iter_child_nodes(node))

    def note_attr_paths(self, node: ast.Call) -> None:
        """The string arguments of a callee named for attributes (``operator.attrgetter``, a
        project's ``rgetattr``/``deep_getattr``): dotted paths of members, whatever they end in.
        Also strings listing names: split into them (``"title author".split()``), or the fields of
        ``namedtuple("P", "x y")`` and the members of ``Enum("Color", "RED GREEN")``."""
        name = func_name(node.func)
        if "attr" in name.lower():
            for arg in (*node.args, *(k.value for k in node.keywords)):
                if isinstance(arg, ast.Constant) and type(arg.value) is str:
                    self.attr_paths.add(id(arg))
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "split" and isinstance(func.value, ast.Constant):
            self.word_lists.add(id(func.value))
        elif len(node.args) > 1 and isinstance(node.args[1], ast.Constant):
            # `re.split(r"\s+", "title author")`, `namedtuple("P", "x y")`
            regex_split = (
                isinstance(func, ast.Attribute)
                and func.attr == "split"
                and isinstance(func.value, ast.Name)
                and func.value.id == "re"
            )
            if regex_split or name in _NAMED_LISTS:
                self.word_lists.add(id(node.args[1]))

    def sink_string(self, node: ast.Constant | ast.JoinedStr, scope: Scope) -> None:
        """A string ``sink_arguments`` noted: no name hits, or judged later."""
        sink = self.sink_strings[id(node)]
        if sink is not None:
            self.sunk.append((node, sink, scope))

    def settle_sinks(self) -> None:
        """A noted string whose callee is not what the sink needs after all (a project ``print``,
        ``class ValueError``, a star import that may bring either) gives the name hits any string
        does; for ``pytest.skip(…)`` the mark and the outcome differ in which arguments are reasons."""
        for const, (call, accepted), scope in self.sunk:
            func = call.func
            if isinstance(func, ast.Name):
                found = "" if self.star else self.lookup(scope, func.id, call.lineno)[0]
            else:
                found = self.chain(scope, func) or ""
            if found not in accepted or not self.reason_of(const, call, found):
                if isinstance(const, ast.JoinedStr):
                    self.fstring(const, scope)
                else:
                    self.string(const, scope)

    @staticmethod
    def reason_of(const: ast.Constant | ast.JoinedStr, call: ast.Call, found: str) -> bool:
        """``pytest.skip("why")`` and ``pytest.mark.skip("why")`` give a reason positionally;
        ``pytest.mark.skipif(cond, …)`` only by ``reason=`` (a string condition is code), as
        ``importorskip(module, …)``."""
        if found.endswith("mark/skip") or (
            found not in _PYTEST_MARKS and _PYTEST_OUTCOMES.get(found) != "importorskip"
        ):
            return True
        return any(k.arg == "reason" and const in _string_parts(k.value) for k in call.keywords)

    def string(self, node: ast.Constant, scope: Scope) -> None:
        value = node.value.decode("latin-1") if isinstance(node.value, bytes) else str(node.value)
        if id(node) in self.run_strings and ">>>" in value:  # `__doc__ = doc`: a docstring, any length
            self.doctest(node, scope)
            return
        if not value or len(value) > MAX_STRING:
            return
        if node.end_lineno != node.lineno:
            self.string_lines(node, scope)
            return
        whole = IDENT.fullmatch(value) is not None
        # (a file's name, `"parent.html"`, is no dotted path: the plain rule; but a string given to
        # an attribute getter is one, `attrgetter("body.html")`)
        dotted = (
            not whole
            and DOTTED.fullmatch(value) is not None
            and (value.rpartition(".")[2] not in _FILE_SUFFIXES or id(node) in self.attr_paths)
        )
        line = node.lineno
        text = self.line_text(line)
        start = self.col(line, node.col_offset) - 1
        end = self.col(line, node.end_col_offset or 0) - 1
        placed: set[int] = set()
        if any(c in value for c in "%{$"):
            # format keys (`"%(name)s" % vars(obj)`, `"{name}".format(**obj.__dict__)`, `$name` of a
            # Template): a mapping made from an object's attributes is read by them; a field the
            # `.format` call gives by keyword (`.format(possibilities=s)`) is that keyword only
            form, filled = self.namespace_templates.get(id(node), (0, frozenset()))
            given = self.keyword_templates.get(id(node), filled)
            for match in _PLACEHOLDER.finditer(text, start, end):
                at = next(n for n in range(1, 4) if match.group(n) is not None)
                if IDENT.fullmatch(match.group(at)) and not match.group(at)[0].isdigit():
                    col = match.start(at) + 1
                    placed.add(col)
                    if at == 2 and match.group(at) in given:
                        continue
                    if at == form:  # the module's global
                        word = match.group(at)
                        self.namespace_fields.append((word, line, col, col + len(word), DATA_KEY, scope.path))
                        continue
                    # a key of a mapping the string is formatted with: data unless a mapping of an
                    # object's attributes can be made (`vars(x)`, `x.__dict__`: query.data_keys)
                    self.rows.append(
                        (
                            match.group(at),
                            line,
                            col,
                            col + len(match.group(at)),
                            "string",
                            DATA_KEY,
                            scope.path,
                        )
                    )
        if not whole and (id(node) in self.word_lists or _NAME_LIST.fullmatch(value)):
            # names listed (`"title,author"`, `"x y".split()`), or one with an ordering sign
            # (`"-created"`): each is a name hit
            for match in IDENT.finditer(text, start + 1, end - 1):
                col = match.start() + 1
                if col not in placed and not match.group()[0].isdigit():
                    self.rows.append(
                        (match.group(), line, col, col + len(match.group()), "string", None, scope.path)
                    )
            return
        entry = None if whole or dotted else _ENTRY_POINT.fullmatch(value)
        if entry is not None and text[start] in "'\"" and text[start + 1 : end - 1] == value:
            # "pkg.cli:main", "x = pkg.cli:main" (entry points, `uvicorn.run("pkg.main:app")`): the
            # module's path, then the object's in it
            col = start + 2 + entry.start(1)
            chain = ""
            for part in f"{entry.group(1)}.{entry.group(2)}".split("."):
                chain = f"{chain}/{part}" if chain else f"D:{part}"
                self.rows.append((part, line, col, col + len(part), "string", chain, scope.path))
                col += len(part) + 1
            return
        if not whole and not dotted and not any(c in value for c in "_.(<"):
            return
        if dotted and text[start] in "'\"" and text[start + 1 : end - 1] == value:
            # "pkg.mod.name" (mock.patch, monkeypatch.setattr): a path the linker follows from the
            # top-level module; a part it does not reach keeps the plain string rule
            col = start + 2
            chain = ""
            for part in value.split("."):
                chain = f"{chain}/{part}" if chain else f"D:{part}"
                self.rows.append((part, line, col, col + len(part), "string", chain, scope.path))
                col += len(part) + 1
            return
        segment = text[start:end]
        for match in IDENT.finditer(segment):
            word = match.group()
            member = _code_at(segment, match.start(), match.end())  # code in a string: `x.word`, `word(`
            if word == value if whole else (("_" in word.strip("_") and word in value) or member):
                col = start + match.start() + 1
                if col in placed:
                    continue
                # a data key (`{"name": …}`, `d["name"]`) and a string given to a call (its
                # callee's chain added at the end) are told apart: query.data_keys
                target = DATA_KEY if whole and id(node) in self.data_keys else None
                if whole and id(node) in self.slot_strings:  # the attribute a slot declares
                    target = SLOT_NAME + self.slot_strings[id(node)]
                if whole and id(node) in self.call_args:
                    self.arg_rows.append((len(self.rows), *self.call_args[id(node)]))
                self.rows.append((word, line, col, col + len(word), "string", target, scope.path))
                if whole:
                    return

    def fstring(self, node: ast.JoinedStr, scope: Scope) -> None:
        """The words of an f-string's literal text, by the rules of ``string`` for a string that is
        no identifier (SPEC §3: f-strings too): ``f"{ref} = context.eval_ctx.save()"`` is code
        reading ``save``. Replacement fields are code of their own, walked as expressions. One
        without replacement fields (``f"dev"``) is a plain string."""
        parts = [part for part in node.values if isinstance(part, ast.Constant)]
        if len(parts) == len(node.values):
            plain = ast.Constant(value="".join(str(part.value) for part in parts))
            ast.copy_location(plain, node)
            self.string(plain, scope)
            return
        self.called_fields(node, scope)
        first, start, lines = self.source_lines(node)
        source = "\n".join(lines)
        if len(source) > MAX_STRING:
            return
        text = literal_text(source)
        if text is None:
            return
        for match in IDENT.finditer(text):
            at = match.start()
            word = match.group()
            if (at and text[at - 1] == "\\") or not (
                "_" in word.strip("_") or _code_at(text, at, match.end())
            ):
                continue  # an escape (`\\n`), or a word prose has too
            newlines = text.count("\n", 0, at)
            line = first + newlines
            col = at - text.rfind("\n", 0, at) if newlines else start + at + 1
            self.rows.append((word, line, col, col + len(word), "string", None, scope.path))

    def called_fields(self, node: ast.JoinedStr, scope: Scope) -> None:
        """Code an f-string writes that calls a name made at run time (jinja2's compiler: ``f_name =
        f"make_module{self.choose_async('_async')}"``, then ``f"{f_name}(context.get_all(), …)"``):
        a field followed by ``(`` whose value is a made name (or a name bound once to one) reaches
        every member or function that fits it, as ``getattr(x, f"visit_{…}")`` does."""
        values = node.values
        for at, part in enumerate(values[:-1]):
            after = values[at + 1]
            if not (
                isinstance(part, ast.FormattedValue)
                and isinstance(after, ast.Constant)
                and str(after.value).startswith("(")
            ):
                continue
            made, fold = folded(part.value)
            if isinstance(made, ast.Name) and scope.kind == "function":
                sources = scope.values.get(made.id, [])
                if len(sources) == 1 and sources[0][0] == "expr" and isinstance(sources[0][1], ast.expr):
                    made = sources[0][1]
            target = member_template(made, self.module_strings, fold)
            if target is not None:  # (the hit: the field's code, `f_name` of `{f_name}(`)
                line = part.value.lineno
                col = self.col(line, part.value.col_offset)
                end = (
                    self.col(line, part.value.end_col_offset or 0)
                    if part.value.end_lineno == line
                    else col + 1
                )
                self.rows.append((TEMPLATE_NAME, line, col, end, "string", target, scope.path))

    def source_lines(self, node: ast.expr) -> tuple[int, int, list[str]]:
        """(first line, 0-based start column on it, the source lines) of ``node``, cut to its span."""
        first, last = node.lineno, node.end_lineno or node.lineno
        start = self.col(first, node.col_offset) - 1
        lines = [self.line_text(n) for n in range(first, last + 1)]
        lines[-1] = lines[-1][: self.col(last, node.end_col_offset or 0) - 1]
        lines[0] = lines[0][start:]
        return first, start, lines

    def string_lines(self, node: ast.Constant, scope: Scope) -> None:
        """A string over several lines (``"import m\\n" "m.C().convert()\\n"``): the members its
        code would access (``x.word``) are name hits; comments between its parts are not read."""
        first, start, lines = self.source_lines(node)
        program = program_source(first, start, lines) if "import " in str(node.value) else None
        if program is not None:
            found = self.embedded_rows(program[0])  # a program run by `python -c`: its code
            if found is not None:
                self.rows.extend(placed_rows(found, *program, scope.path))
                return
        try:
            tokens = list(tokenize.generate_tokens(io.StringIO("\n".join(lines)).readline))
        except (tokenize.TokenError, SyntaxError):
            return
        form, filled = self.namespace_templates.get(id(node), (0, frozenset()))  # `.format(**globals())`
        given = self.keyword_templates.get(id(node), filled)  # `.format(length=…)`'s keywords
        for tok in tokens:
            if tok.type != tokenize.STRING:
                continue
            row, col = tok.start
            shift = (start if row == 1 else 0) + col
            keys = {
                m.start(n): n == form
                for m in _PLACEHOLDER.finditer(tok.string)
                for n in range(1, 4)
                if m.group(n) is not None and not (n == 2 and m.group(n) in given)
            }
            for match in IDENT.finditer(tok.string):
                at = match.start()
                if at in keys or _code_at(tok.string, at, match.end()):
                    word = match.group()
                    # a triple-quoted part spans lines: the word's own line and column
                    newlines = tok.string.count("\n", 0, at)
                    begin = at - tok.string.rfind("\n", 0, at) if newlines else shift + at + 1
                    line = first + row - 1 + newlines
                    if keys.get(at):  # a field the module's namespace fills: its global
                        self.namespace_fields.append((word, line, begin, begin + len(word), None, scope.path))
                    else:
                        self.rows.append((word, line, begin, begin + len(word), "string", None, scope.path))

    def embedded_rows(self, text: str) -> list[tuple[Any, ...]] | None:
        """The rows of the program ``text`` analysed as a module of its own (python_facts);
        None when not analysed."""
        return None

    def doctest(self, node: ast.Constant, scope: Scope) -> None:
        """A docstring's doctest examples (``>>> helper(2)``) are code doctest runs
        (``python_doctests``): a name they read and never bind is a read of the module's global,
        renamed with it; ``v.m`` of a ``v = C(…)`` is ``C(…).m``; a name they bind is the
        doctest's variable (a name hit of module-level symbols alone); every other word on a
        prompt line (a member of anything else, a keyword, text in their strings) is a name hit,
        as is every word of a doctest that does not parse as written in the file. The expected
        output of an example (the lines after it up to a blank line: a repr, a traceback, a
        ``__name__``) and a ``>>>`` not at a line's start (``\"\"\">>> f(2)``) are name hits too:
        doctest compares or runs them as written (an output word keeps the example's lines, where
        query.printed_names may find it the name of what the example printed). Comments in
        examples and prose around them are not read."""
        names = doctest_names(self.lines, node.lineno, node.end_lineno or node.lineno)
        # the doctest's namespace: its imports, its own variables, then the module's globals
        space = Scope("function", scope.path, self.module)
        space.runner = True
        space.binds.update(dict.fromkeys(names.binds, ""))
        space.binds.update(names.imports)
        output = False  # on the expected output of an example
        continued = False  # the line before was code ending in a backslash that joins this one
        example = (0, 0)  # the code lines of the example whose output follows
        for line in range(node.lineno, (node.end_lineno or node.lineno) + 1):
            text = self.line_text(line)
            prompt = DOCTEST_PROMPT.match(text)
            code = prompt.end() if prompt is not None else 0 if continued else None
            continued = code is not None and continues(text)
            if code is None:
                inline = text.find(">>>")
                output = output and bool(text.strip())
                if output or inline >= 0:
                    # a word of the output: printed by the example on the lines before it
                    shown = f"{DOCTEST_OUTPUT}{example[0]}-{example[1]}" if output else None
                    for match in IDENT.finditer(text, 0 if output else inline):
                        if not keyword.iskeyword(match.group()):
                            col = match.start() + 1
                            self.rows.append(
                                (
                                    match.group(),
                                    line,
                                    col,
                                    col + len(match.group()),
                                    "string",
                                    shown,
                                    scope.path,
                                )
                            )
                continue
            if example[1] == line - 1:
                example = (example[0], line)
            elif text.lstrip().startswith(">>>") or not output:
                example = (line, line)
            # (else a `...` after the output: its ellipsis, the example is the one before)
            output = True
            end = names.comments.get(line, len(text) + 1) - 1
            for match in IDENT.finditer(text, code, end):
                word = match.group()
                if keyword.iskeyword(word) or (match.start() and text[match.start() - 1] == "\\"):
                    continue
                col = match.start() + 1
                at = (line, col)
                called = text[match.end() : match.end() + 1] == "("
                if at in names.globals_read:
                    read = DoctestName(id=word, ctx=ast.Load())
                    self.pending.append(Pending(word, line, col, col + len(word), "read", read, self.module))
                elif at in names.imported:  # `from m import f` and its reads: m's f
                    chain, kind = names.imported[at]
                    self.rows.append((word, line, col, col + len(word), kind, chain, scope.path))
                elif (
                    at in names.keywords
                ):  # `f(k=…)` of the module's or an imported f: a keyword of its calls
                    made = ast.Call(func=names.keywords[at], args=[], keywords=[])
                    self.pending.append(Pending(word, line, col, col + len(word), "write", made, space))
                elif at in names.members:
                    made = ast.Call(func=names.members[at], args=[], keywords=[])
                    member = ast.Attribute(value=made, attr=word, ctx=ast.Load())
                    kind = "call" if called else "attribute"
                    self.pending.append(Pending(word, line, col, col + len(word), kind, member, space))
                elif at in names.attributes and names.attributes[at].attr == word:
                    attribute = names.attributes[at]
                    stored = not isinstance(attribute.ctx, ast.Load)
                    kind = "write" if stored else "call" if called else "attribute"
                    self.pending.append(Pending(word, line, col, col + len(word), kind, attribute, space))
                elif at in names.shadowed:
                    continue  # the doctest's variable, bound before it could read the global
                else:
                    target = DOCTEST_LOCAL if at in names.bound else None
                    self.rows.append((word, line, col, col + len(word), "string", target, scope.path))


# the text of a string right before a name an import statement in it brings: `from m import A, `
# or `import m as ` (at the string's start, or after a `;` or a line break)
_IMPORTED = re.compile(
    r"(?:^|[;\n]|['\"])\s*(?:from\s+\.*[\w.]*\s+import\s+\(?\s*(?:\w+(?:\s+as\s+\w+)?\s*,\s*)*"
    r"|import\s+[\w.]+\s+as\s+)(?:\w+\s+as\s+)?$"
)
# a format key: `%(name)s`, `{name}` / `{name!r}` / `{name:>4}` / `{name.attr}` / `{name[0]}`, `$name` / `${name}`
_PLACEHOLDER = re.compile(r"%\((\w+)\)|(?<!\{)\{(\w+)(?=[}!:.\[])|\$\{?(\w+)")


def _code_at(text: str, at: int, end: int) -> bool:
    """Whether the word at ``at:end`` in a string's text reads as code or its printed form: a
    member (``x.word``), a keyword of a printed call (``"P(word=1)"``), a call (``word(``:
    ``"Regexp(regex=…)"`` is what a repr prints; not one letter, as a regex's ``T(?P<time>…)``
    has), a class's tag (``"<Regexp …>"``: a capital, not HTML's ``<style>``), a class whose
    member is read (``"state=ConnectionState.OPEN"``: an enum member prints so; a capital, not a
    file's name ``"Makefile.txt"``) or a name an import statement brings (``"from pkg.mod import
    Formatter"`` run by ``python -c``)."""
    if _member_at(text, at) or _repr_keyword(text, at, end) or _entry_object_at(text, at):
        return True
    if "import" in text and _IMPORTED.search(text, 0, at) is not None:
        return True
    if text[at].isupper() and text[end : end + 1] == ".":
        after = IDENT.match(text, end + 1)
        if after is not None and after.group().lower() not in _FILE_SUFFIXES:
            return True
    if text[end : end + 1] == "(" and end - at > 1:
        return True
    return at >= 1 and text[at - 1] == "<" and text[at].isupper()


def _repr_keyword(text: str, at: int, end: int) -> bool:
    """Whether the word at ``at:end`` is a keyword of a call's printed form (``"P(dev=1, tag='t')"``:
    the repr of a dataclass, a NamedTuple or an attrs class names its fields so)."""
    if text[end : end + 1] != "=" or text[end : end + 2] == "==":
        return False
    depth = 0
    for i in range(at - 1, -1, -1):
        if text[i] == ")":
            depth += 1
        elif text[i] == "(":
            if depth == 0:
                return i > 0 and (text[i - 1].isalnum() or text[i - 1] == "_")
            depth -= 1
    return False


def _entry_object_at(text: str, at: int) -> bool:
    """Whether the word at ``at`` is the object of an entry point's ``module:object`` spelled in
    pieces (``f"{pkg}.cli:main"``, ``base + ".cli:main"``): a dotted module path right before the
    colon."""
    if at < 2 or text[at - 1] != ":":
        return False
    start = at - 1
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] in "_."):
        start -= 1
    module = text[start : at - 1]
    return "." in module and not module.endswith(".") and (module[-1].isalnum() or module[-1] == "_")


def _member_at(text: str, at: int) -> bool:
    """Whether the word at ``at`` in a string's text is accessed as a member (``x.word``,
    ``f().word``, a template's ``{}.word``), as code run from a string (``python -c``, ``exec``)
    would, or as a regex matching such code spells it (``tmpl\\.render\\(``)."""
    if at < 2 or text[at - 1] != ".":
        return False
    before = at - 2
    while before >= 0 and text[before] == "\\":
        before -= 1  # `tmpl\.render\(` of a regex matching the source of a traceback
    if before < 0 or not (text[before].isalnum() or text[before] in "_)]}"):
        return False
    start = before
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_"):
        start -= 1
    # `"1.0.dev"`, a version: a number has no members; `"{0.dev}"` formats argument 0's member
    return not text[start].isdigit() or (start > 0 and text[start - 1] == "{")


def _shown(node: ast.Call) -> tuple[list[ast.expr | None], frozenset[str]]:
    """The arguments of a call whose value is only shown if the callee is one of the chains
    returned (see ``sink_arguments``); none for any other call."""
    func = node.func
    name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
    keywords = {k.arg: k.value for k in node.keywords if k.arg}
    first: list[ast.expr | None] = (
        [node.args[0]] if node.args and not isinstance(node.args[0], ast.Starred) else []
    )
    if isinstance(func, ast.Name) and (name in _EXCEPTIONS or name == "print"):
        return [a for a in node.args if not isinstance(a, ast.Starred)], frozenset({"G:" + name})
    if name == "warn":
        return [*first, keywords.get("message")], _WARN
    if name in ("fail", "skip", "skipif", "xfail", "importorskip"):
        return [*first, keywords.get("reason"), keywords.get("msg")], frozenset(
            _PYTEST_OUTCOMES
        ) | _PYTEST_MARKS
    ids = keywords.get("ids")
    if name == "parametrize" and isinstance(ids, ast.List | ast.Tuple):
        return list(ids.elts), PARAMETRIZE
    if name == "param":
        return [keywords.get("id")], _PYTEST_PARAM
    if name == "ContextVar":
        return [*first, keywords.get("name")], _CONTEXT_VAR
    if name in _GETTEXT_NAMES:
        return [a for a in node.args if not isinstance(a, ast.Starred)], _GETTEXT
    return [], frozenset()


def _angled(value: ast.expr | None) -> bool:
    """A string or f-string whose text starts with ``<``."""
    if isinstance(value, ast.JoinedStr) and value.values:
        value = value.values[0]
    return isinstance(value, ast.Constant) and isinstance(value.value, str) and value.value.startswith("<")


def _string_parts(expr: ast.expr | None) -> list[ast.Constant | ast.JoinedStr]:
    """The string literals whose text becomes ``expr``'s value as it is: ``expr`` itself (an
    f-string too), or the operands of a ``+`` concatenation (not a ``%``/``.format`` template,
    which reads names)."""
    if (isinstance(expr, ast.Constant) and type(expr.value) is str) or isinstance(expr, ast.JoinedStr):
        return [expr]
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
        return _string_parts(expr.left) + _string_parts(expr.right)
    return []


def _assigned_after_value(part: Any, key: str) -> bool:
    """Whether ``part`` is an assignment that rebinds ``key`` only by its targets, after its value
    has been read (``x = x.inner``; not ``x = (x := f())`` or ``x += 1``)."""
    if not isinstance(part, ast.Assign | ast.AnnAssign) or part.value is None:
        return False
    return not any(rebinds(stored_key(n), key) for n in ast.walk(part.value) if stored_key(n))


def type_guards(tree: ast.Module) -> dict[str, tuple[int, ast.expr | int]]:
    """Module functions that tell what their argument is: ``def f(x) -> TypeGuard[C]`` (also
    ``TypeIs``) guards its first parameter as a C; a body returning ``isinstance(a, b)`` of two
    parameters (perhaps in a ``try`` whose handlers return a constant) guards a as the class
    given for b. Name -> (guarded parameter's position, the class or the position giving it)."""
    out: dict[str, tuple[int, ast.expr | int]] = {}
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef) or node.decorator_list:
            continue
        params = [a.arg for a in node.args.posonlyargs + node.args.args]
        returns = node.returns
        if (
            isinstance(returns, ast.Subscript)
            and func_name(returns.value) in ("TypeGuard", "TypeIs")
            and is_class_expr(returns.slice)
            and params
        ):
            out[node.name] = (0, returns.slice)
            continue
        checked = _returned_isinstance(node.body)
        if checked is None or not isinstance(checked[0], ast.Name) or checked[0].id not in params:
            continue
        cls = checked[1]
        if isinstance(cls, ast.Name) and cls.id in params:
            out[node.name] = (params.index(checked[0].id), params.index(cls.id))
        elif is_class_expr(cls) and not (annotation_names(cls) & set(params)):
            out[node.name] = (params.index(checked[0].id), cls)  # `isinstance(x, Node)`
    return out


def _returned_isinstance(body: list[ast.stmt]) -> tuple[ast.expr, ast.expr] | None:
    """``return isinstance(a, b)`` as a body's one statement (after a docstring; in a ``try``
    whose handlers only return a constant): its two arguments."""
    stmts = (
        body[1:]
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
        else body
    )
    if len(stmts) != 1:
        return None
    stmt = stmts[0]
    if isinstance(stmt, ast.Try) and not stmt.orelse and not stmt.finalbody:
        if not all(
            len(h.body) == 1
            and isinstance(h.body[0], ast.Return)
            and isinstance(h.body[0].value, ast.Constant)
            for h in stmt.handlers
        ):
            return None
        return _returned_isinstance(stmt.body)
    value = stmt.value if isinstance(stmt, ast.Return) else None
    if (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id == "isinstance"
        and len(value.args) == 2
        and not value.keywords
    ):
        return value.args[0], value.args[1]
    return None


# an entry point's object reference, `module.path:object.path` (optionally `name = …` first)
_ENTRY_POINT = re.compile(r"(?:[\w.-]+\s*=\s*)?([^\W\d]\w*(?:\.[^\W\d]\w*)*):([^\W\d]\w*(?:\.[^\W\d]\w*)*)")


def _extends_all(value: ast.expr) -> bool:
    """``__all__ + [...]``: the new value keeps the old entries."""
    if isinstance(value, ast.Name):
        return value.id == "__all__"
    return isinstance(value, ast.BinOp) and (_extends_all(value.left) or _extends_all(value.right))
