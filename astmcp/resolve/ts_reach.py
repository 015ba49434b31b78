"""What decides whether a string can reach a module-level binding of a TS/JS file (index side).

A top-level binding of an ES module is no property of ``globalThis``: a string reaches it
only through a module namespace object used as a value (``ns[k]``, ``Object.keys(ns)``,
``f(ns)``, ``{...ns}``, ``keyof typeof ns``), a ``require``/``import()`` of its module, or a
direct ``eval`` in its own file. The analyzer records per file (payload field ``reach``, see
:data:`FIELD`): ``esm`` (the file has top-level import/export syntax), ``cjs`` (it reads the
free ``module`` or ``exports``), ``eval`` (it names the free ``eval``), ``anyload`` (it calls
``import()``/``require()`` with a computed specifier, or names a loader that hands out
namespaces by pattern or to a test double: ``import.meta.glob``, ``require.context``,
``vi.importActual``, ``jest.requireActual``, a mock factory's ``importOriginal``), ``loose``:
the specifiers of modules it loads other than into bindings (``f(require("m"))``,
``import("m").then``, ``typeof import("m")``), and ``dynamic``: the chains of imported names and namespace bindings, possibly
followed by static member reads (``I:z:zod|core``), that are used other than as a static
member read's receiver, a callee, a type qualifier, a statement of its own or an export
specifier (those are followed through the export facts); a declarator destructuring named
members (``const { a } = ns``) uses each of them (``ns.a``) as a value.
:mod:`astmcp.query.string_reach` judges a symbol's string hits from these.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tree_sitter import Language, Node, Query, QueryCursor, Tree

from astmcp.resolve.ts_fact_state import (
    FUNCTION_VALUES,
    FUNCTIONS,
    MEMBER_NAMES,
    SELF_MODULE,
    is_ident,
    member_property,
)

__all__ = ["FIELD", "ReachFacts", "bound_module"]

FIELD = "reach"
_MODULE_SYNTAX = frozenset({"import_statement", "export_statement"})
# parents under which a name is a declaration or an export followed through the export facts
_DECLARING = frozenset(
    {
        "import_specifier",
        "import_clause",
        "namespace_import",
        "namespace_export",
        "export_specifier",
        "export_statement",
    }
)
_FLAGS = {"eval": "eval", "module": "cjs", "exports": "cjs"}
# wrappers that give their operand's value itself: `(ns).x`, `ns!.x`, `(ns as any).x`
_SAME_VALUE = frozenset(
    {"parenthesized_expression", "non_null_expression", "as_expression", "satisfies_expression"}
)


_LOADS = """
(call_expression function: (import) arguments: (arguments) @args)
(call_expression function: (identifier) @fn arguments: (arguments) @args (#eq? @fn "require"))
"""
_queries: dict[int, Query] = {}
# loaders that hand out namespace objects of modules a pattern or a test double names, by the
# name that calls them and what it must be read from (None: any receiver, or a plain name)
_PATTERN_LOADERS = {
    "glob": "meta_property",  # import.meta.glob
    "webpackContext": "meta_property",  # import.meta.webpackContext
    "context": "require",  # require.context
    "importOriginal": None,  # a mock factory's parameter
    "importActual": None,
    "requireActual": None,
    "importMock": None,
    "requireMock": None,
}
_LOADER_NAMES = """
([(identifier) (property_identifier)] @name
  (#any-of? @name "glob" "webpackContext" "context" "importOriginal" "importActual" "requireActual"
    "importMock" "requireMock"))
"""
_loader_queries: dict[int, Query] = {}
_FUNCTION_NODES = FUNCTIONS | FUNCTION_VALUES | {"method_definition"}


def _calls_loader(language: Language, root: Node, raw: bytes) -> bool:
    """Whether the code (not a comment) names a pattern or test-double loader."""
    query = _loader_queries.get(id(language))
    if query is None:
        query = _loader_queries[id(language)] = Query(language, _LOADER_NAMES)
    for node in QueryCursor(query).captures(root).get("name", []):
        receiver = _PATTERN_LOADERS.get(
            raw[node.start_byte : node.end_byte].decode("utf-8", errors="replace")
        )
        if receiver is None:
            return True
        parent = node.parent
        obj = (
            parent.child_by_field_name("object")
            if parent is not None and parent.type == "member_expression"
            else None
        )
        if obj is not None and (
            obj.type == receiver or raw[obj.start_byte : obj.end_byte] == receiver.encode()
        ):
            return True
    return False


def bound_module(value: Node | None, raw: bytes) -> str | None:
    """The module of ``require("m")`` / ``await import("m")`` when that is a declarator's value:
    the declared names are bound to the module's exports object (``I::m``), so their uses are
    rows like an import's."""
    if value is None:
        return None
    call = value
    if value.type == "await_expression" and value.named_child_count == 1:
        call = value.named_children[0]
        if call.type != "call_expression" or _callee(call, raw) != "import" or not _in_function(value):
            return None  # a module-level `const m = await import()` declares a symbol
        declarator = value.parent
        name = declarator.child_by_field_name("name") if declarator is not None else None
        if (
            declarator is None
            or declarator.type != "variable_declarator"
            or name is None
            or name.type != "identifier"
        ):
            return None  # `const { a } = await import()`: the analyzer types the pattern by the module
    elif value.type != "call_expression" or _callee(value, raw) != "require":
        return None
    args = call.child_by_field_name("arguments")
    first = args.named_children[0] if args is not None and args.named_children else None
    if first is None or first.type != "string":
        return None
    return raw[first.start_byte + 1 : first.end_byte - 1].decode("utf-8", errors="replace")


def reexported_module(value: Node | None, raw: bytes) -> list[str]:
    """CommonJS re-exports in what is assigned to (or merged into) a module's exports:
    ``require("./a")`` itself, or spread into an object (``{ ...require("./a"), extra }``)."""
    if value is None:
        return []
    if value.type == "call_expression" and _callee(value, raw) == "require":
        spec = _string_argument(value, raw)
        return [spec] if spec is not None else []
    if value.type == "object":
        return [
            spec
            for child in value.named_children
            if child.type == "spread_element" and child.named_children
            for spec in reexported_module(child.named_children[0], raw)
        ]
    return []


def _string_argument(call: Node, raw: bytes) -> str | None:
    args = call.child_by_field_name("arguments")
    first = args.named_children[0] if args is not None and args.named_children else None
    if first is None or first.type != "string":
        return None
    return raw[first.start_byte + 1 : first.end_byte - 1].decode("utf-8", errors="replace")


def _in_function(node: Node) -> bool:
    parent = node.parent
    while parent is not None:
        if parent.type in _FUNCTION_NODES:
            return True
        parent = parent.parent
    return False


def _callee(call: Node, raw: bytes) -> str | None:
    fn = call.child_by_field_name("function")
    if fn is None or fn.type not in ("import", "identifier"):
        return None
    return raw[fn.start_byte : fn.end_byte].decode("utf-8", errors="replace")


class ReachFacts:
    """Collects a file's ``reach`` facts while the analyzer writes its rows."""

    def __init__(self, tree: Tree, raw: bytes, nsimports: dict[str, str], key: Callable[[Node], str]) -> None:
        root = tree.root_node
        self.raw = raw
        self.nsimports = nsimports
        self.key = key  # a name node's position key, as chains spell it
        self.rows: list[tuple[Node, str, bool]] = []  # rows that may stand for a namespace or a copy
        self.flags: set[str] = set()
        if any(child.type in _MODULE_SYNTAX for child in root.named_children):
            self.flags.add("esm")
        self.dynamic: set[str] = set()
        self.loose: set[str] = set()  # modules loaded by `require`/`import()` other than into a binding
        if b"require" in raw or b"import" in raw:
            self._loads(tree.language, root, raw)
        if any(name.encode() in raw for name in _PATTERN_LOADERS) and _calls_loader(tree.language, root, raw):
            self.flags.add("anyload")

    def _loads(self, language: Language, root: Node, raw: bytes) -> None:
        query = _queries.get(id(language))
        if query is None:
            query = _queries[id(language)] = Query(language, _LOADS)
        for args in QueryCursor(query).captures(root).get("args", []):
            first = next((c for c in args.named_children if c.type != "comment"), None)
            parts = first.named_children if first is not None and first.type == "string" else []
            if len(parts) != 1 or parts[0].type != "string_fragment":
                self.flags.add("anyload")  # `import(name)`: any module, ours too
            else:
                spec = raw[parts[0].start_byte : parts[0].end_byte].decode("utf-8", errors="replace")
                call = args.parent
                typed = call is not None and call.parent is not None and call.parent.type == "type_query"
                # (`let m: typeof import("./a.js")`: values typed as the namespace, read anywhere)
                use = _bound(call, raw) if call is not None and not typed else None
                if use is None:
                    self.loose.add(spec)
                else:
                    self.dynamic.update(f"I::{spec}|{key}" for key in use)

    def unbound(self, name: str) -> None:
        """A value name no scope binds (a global)."""
        flag = _FLAGS.get(name)
        if flag is not None:
            self.flags.add(flag)

    def note(self, node: Node, target: str, member: bool) -> None:
        """A row's node and its chain: judged in :meth:`payload`, once the copies are known."""
        # (a CommonJS file's own `exports`: the file is flagged `cjs`, every string keeps its hits)
        if target.startswith(("I:", "P:")) and not target.startswith(f"I::{SELF_MODULE}"):
            self.rows.append((node, target, member))

    def payload(self) -> dict[str, Any] | None:
        copies = self._copies()
        for node, target, member in self.rows:
            expr = _expression(node, member)
            if expr is None or not self._namespace_like(target, copies) or _copied_into(expr) is not None:
                continue
            use = _use(expr, self.raw)
            if use == ():
                self.dynamic.add(target)
            elif use is not None:
                self.dynamic.update(f"{target}|{key}" for key in use)
        if not self.flags and not self.dynamic and not self.loose and not copies:
            return None
        out: dict[str, Any] = {flag: 1 for flag in sorted(self.flags)}
        if self.dynamic:
            out["dynamic"] = sorted(self.dynamic)
        if self.loose:
            out["loose"] = sorted(self.loose)
        if copies:
            out["copies"] = {k: sorted(v) for k, v in sorted(copies.items())}
        return out

    def _copies(self) -> dict[str, set[str]]:
        """Module-level ``const x = { ...ns, … }``: x's position -> the namespaces spread into it
        (a copy of a copy too); x then stands for them, its uses judged as theirs."""
        copies: dict[str, set[str]] = {}
        changed = True
        while changed:
            changed = False
            for node, target, member in self.rows:
                expr = _expression(node, member)
                name = _copied_into(expr) if expr is not None else None
                if name is None or not self._namespace_like(target, copies):
                    continue
                sources = copies.setdefault(self.key(name), set())
                if target not in sources:
                    sources.add(target)
                    changed = True
        return copies

    def _namespace_like(self, target: str, copies: dict[str, set[str]]) -> bool:
        """Only an import, a namespace binding or a copy, followed by plain member names, can be
        a namespace object (any other step, ``()``, ``:``, ``[]``, leaves module space)."""
        root, *steps = target.split("|")
        if not root.startswith("I:") and root[2:] not in self.nsimports and root[2:] not in copies:
            return False
        return all(is_ident(step) for step in steps)


def _expression(node: Node, member: bool) -> Node | None:
    """The expression a row stands for: a value name, or the static member read it ends."""
    if member:
        parent = node.parent
        if parent is None or parent.type not in ("member_expression", "nested_identifier"):
            return None  # a string key, a type name: the receiver's own row decides
        return parent
    return node if node.type in ("identifier", "shorthand_property_identifier") else None


def _copied_into(node: Node) -> Node | None:
    """The name of the module-level ``const`` whose object literal spreads ``node``
    (``const x = { ...node }``), else None."""
    parent = node.parent
    while parent is not None and parent.type in _SAME_VALUE and parent.named_children[0] == node:
        node, parent = parent, parent.parent
    literal = parent.parent if parent is not None and parent.type == "spread_element" else None
    declarator = literal.parent if literal is not None and literal.type == "object" else None
    if declarator is None or declarator.type != "variable_declarator":
        return None
    name = declarator.child_by_field_name("name")
    declaration = declarator.parent
    if (
        declarator.child_by_field_name("value") != literal
        or name is None
        or name.type != "identifier"
        or declaration is None
        or declaration.type != "lexical_declaration"
        or declaration.children[0].type != "const"
        or declaration.parent is None
        or declaration.parent.type not in ("program", "export_statement")
    ):
        return None
    return name


def _bound(call: Node, raw: bytes) -> tuple[str, ...] | None:
    """How a ``require``/``import()`` gives the module away: ``()`` only to names bound to it
    (``const m = …``, ``const { a, b: c } = require(…)``, see :func:`bound_module`) or to a
    static member read (``require("m").x``, ``(await import("m")).x``); the member names
    destructured from ``await import("m")`` (their values are used: ``m.a``); None otherwise."""
    node = call
    parent = node.parent
    imported = _callee(call, raw) == "import"
    if imported:
        if parent is None or parent.type != "await_expression":
            return None  # a promise of the module, or a type (`typeof import("m")`)
        node, parent = parent, parent.parent
    while parent is not None and parent.type == "parenthesized_expression":
        node, parent = parent, parent.parent
    if parent is None:
        return None
    if parent.type == "member_expression":
        prop = member_property(parent)
        static = (
            parent.child_by_field_name("object") == node and prop is not None and prop.type in MEMBER_NAMES
        )
        return () if static else None
    if parent.type != "variable_declarator" or parent.child_by_field_name("value") != node:
        return None
    name = parent.child_by_field_name("name")
    if name is None:
        return None
    if name.type == "identifier":
        return () if bound_module(node, raw) is not None else None
    keys = _destructured(name, raw)
    if not keys:
        return None
    if imported:
        return keys
    simple = all(  # what require_binding binds: `a` and `b: c`
        part.type == "shorthand_property_identifier_pattern"
        or (part.child_by_field_name("value") or part).type == "identifier"
        for part in name.named_children
    )
    return () if simple else None


def _use(node: Node, raw: bytes) -> tuple[str, ...] | None:
    """How the value of ``node`` (a name or a static member read) is used: None when it is not
    used as a value (the receiver of a static member read, a callee, a type qualifier, a
    declaration or export specifier, a statement of its own); the member names a declarator
    destructures from it (``const { a, b: c } = ns``: ``ns.a`` and ``ns.b`` are used as values);
    else ``()``, the value itself."""
    parent = node.parent
    while parent is not None and parent.type in _SAME_VALUE and parent.named_children[0] == node:
        node, parent = parent, parent.parent
    if parent is None:
        return ()
    kind = parent.type
    if kind == "member_expression":
        prop = member_property(parent)
        static = (
            parent.child_by_field_name("object") == node and prop is not None and prop.type in MEMBER_NAMES
        )
        return None if static else ()
    if kind in ("nested_identifier", "nested_type_identifier"):
        return None if parent.named_children[0] == node else ()
    if kind == "call_expression":
        return None if parent.child_by_field_name("function") == node else ()
    if kind == "new_expression":
        return None if parent.child_by_field_name("constructor") == node else ()
    if kind == "variable_declarator":
        if parent.child_by_field_name("value") != node:
            return None  # the declared name
        keys = _destructured(parent.child_by_field_name("name"), raw)
        return keys if keys else ()
    return None if kind in _DECLARING or kind == "expression_statement" else ()


def _destructured(pattern: Node | None, raw: bytes) -> tuple[str, ...]:
    """The member names an object pattern reads, when it reads only named members (no rest,
    no computed key); else ``()``."""
    if pattern is None or pattern.type != "object_pattern":
        return ()
    keys: list[str] = []
    for part in pattern.named_children:
        key = part.child_by_field_name("key") if part.type == "pair_pattern" else part
        if key is None or key.type not in ("shorthand_property_identifier_pattern", "property_identifier"):
            return ()
        keys.append(raw[key.start_byte : key.end_byte].decode("utf-8", errors="replace"))
    return tuple(keys)
