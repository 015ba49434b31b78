"""Parameters a call of the project gives an outside value (TS/JS): a member read off one is no
``likely`` reference of the project's one member of that name.

``function draw(item) { return item.render(); }`` called as ``draw(makeWidget("x"))``, with
``makeWidget`` imported from a package, may be given the package's objects: ``item.render`` may be
theirs, whatever the project's ``Route.render`` is. The file declaring ``draw`` cannot tell (the
index reads one file at a time, and types a parameter of a function given such a value in its own
file already: ``resolve.ts_facts``), so the calls the index resolved to the function are read here,
once per function and parameter, with what the function sets the parameter to again (``item =
item || make()``). A value is outside when read off or made from a package import, or held or
returned by a symbol of the project so made (``export const DEFAULT = makeWidget("d")``). A
parameter with a type annotation is what it says, never judged.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tree_sitter import Node

from astmcp.lang.ts_parse import TsSource

__all__ = ["TsOutsideFed"]

_FUNCTIONS = frozenset(
    {
        "function_declaration", "function_expression", "arrow_function", "method_definition",
        "generator_function_declaration", "generator_function",
    }
)  # fmt: skip
# what a value is read off or made from: the callee, the object, the awaited value
_WRAPPERS = frozenset(
    {"call_expression", "new_expression", "member_expression", "subscript_expression", "await_expression",
     "parenthesized_expression", "non_null_expression"}
)  # fmt: skip


class TsOutsideFed:
    """Judges member reads of TS/JS files under ``root`` (see the module)."""

    def __init__(self, conn: sqlite3.Connection, root: Path | None) -> None:
        self.conn = conn
        self.root = root
        self._sources: dict[str, TsSource | None] = {}
        self._given: dict[tuple[str, int, int, int], bool] = {}
        self._initialised: dict[str, dict[str, list[Node]]] = {}
        self._lines: dict[str, list[str]] = {}  # a parsed file's lines, for positions

    def read_off_parameter(self, path: str, line: int, col: int, name: str) -> bool:
        """Whether ``.name`` at ``line``/``col`` (1-based, code points) of ``path`` is read off an
        untyped parameter of a function a call of the project gives a value from outside it."""
        found = self._parameter_of(path, line, col, name)
        if found is None:
            return False
        src, function, spelled, position = found
        # `item = item || make()`: what the function itself gives it
        if any(self._outside(path, src, v) for v in _set_again(src, function, spelled)):
            return True
        declared = _declared_name(function)
        return declared is not None and self._given_outside(path, src, declared, position)

    def read_off_named_parameter(self, path: str, line: int, col: int, name: str) -> bool:
        """Whether ``.name`` there is read off an untyped parameter of a function declared by name:
        its calls are the ones :meth:`read_off_parameter` judges (a callback passed inline has no
        calls the index resolves)."""
        found = self._parameter_of(path, line, col, name)
        return found is not None and _declared_name(found[1]) is not None

    def _parameter_of(
        self, path: str, line: int, col: int, name: str
    ) -> tuple[TsSource, Node, str, int] | None:
        """(source, function, parameter name, position) when ``.name`` there is read off an
        untyped plain parameter of an enclosing function."""
        src = self._source(path)
        node = self._at(path, src, line, col, name) if src is not None else None
        if src is None or node is None:
            return None
        member = node.parent
        if (
            member is None
            or member.type != "member_expression"
            or member.child_by_field_name("property") != node
        ):
            return None
        root = member.child_by_field_name("object")
        while root is not None and root.type in _WRAPPERS:
            root = _inner(root)
        if root is None or root.type != "identifier":
            return None
        spelled = src.text_of(root)
        function = member.parent
        while function is not None:
            if function.type in _FUNCTIONS:
                position = _parameter(src, function, spelled)
                if position is not None:
                    return (src, function, spelled, position) if position >= 0 else None  # (typed: -1)
            function = function.parent
        return None

    def _given_outside(self, path: str, src: TsSource, declared: Node, position: int) -> bool:
        start = declared.start_point
        line, col = start[0] + 1, src.column(start[0], start[1])
        key = (path, line, col, position)
        if key in self._given:
            return self._given[key]
        self._given[key] = False
        found = self.conn.execute(
            "SELECT r.symbol_id FROM refs r JOIN files f ON f.id = r.file_id WHERE f.path = ? AND r.line = ?"
            " AND r.col = ? AND r.kind = 'definition' AND r.symbol_id IS NOT NULL LIMIT 1",
            (path, line, col),
        ).fetchone()
        if found is None:
            return False
        for where, at, column in self.conn.execute(
            "SELECT f.path, r.line, r.col FROM refs r JOIN files f ON f.id = r.file_id"
            " WHERE r.symbol_id = ? AND r.kind = 'call' AND f.language IN ('typescript', 'javascript')",
            (found[0],),
        ).fetchall():
            caller = self._source(where)
            callee = (
                self._at(where, caller, at, column, src.text_of(declared)) if caller is not None else None
            )
            argument = _argument(callee, position) if callee is not None else None
            if caller is not None and argument is not None and self._outside(where, caller, argument):
                self._given[key] = True
                return True
        return False

    def _outside(self, path: str, src: TsSource, value: Node, depth: int = 0) -> bool:
        """Whether a value is read off (or made from) a name imported from a package: the index
        leaves such an import unresolved (``I:makeWidget:widgetlib``, confidence ``none``); or
        is a variable of the file such a value initialises (``const w = makeWidget()``), or what a
        symbol of the project the name resolves to holds (``export const DEFAULT =
        makeWidget()``) or, called, returns (``make()``); either side of ``||``/``??`` and of a
        conditional."""
        if value.type == "binary_expression" and src.text_of(
            value.child_by_field_name("operator") or value
        ) in (
            "||",
            "??",
            "&&",
        ):
            sides = (value.child_by_field_name("left"), value.child_by_field_name("right"))
            return any(side is not None and self._outside(path, src, side, depth) for side in sides)
        if value.type == "ternary_expression":
            sides = (value.child_by_field_name("consequence"), value.child_by_field_name("alternative"))
            return any(side is not None and self._outside(path, src, side, depth) for side in sides)
        root: Node | None = value
        while root is not None and root.type in _WRAPPERS:
            root = _inner(root)
        if root is None or root.type != "identifier":
            return False
        if root == value and depth < 2:
            if path not in self._initialised:
                self._initialised[path] = _initialised(src)
            for held in self._initialised[path].get(src.text_of(root), ()):
                if self._outside(path, src, held, depth + 1):
                    return True
        start = root.start_point
        found = self.conn.execute(
            "SELECT r.target_key, r.confidence, r.symbol_id FROM refs r JOIN files f ON f.id = r.file_id"
            " WHERE f.path = ? AND r.line = ? AND r.col = ? AND r.confidence IN ('none', 'certain')",
            (path, start[0] + 1, src.column(start[0], start[1])),
        ).fetchall()
        called = value.type == "call_expression" and value.child_by_field_name("function") == root
        for target, confidence, symbol in found:
            spec = str(target or "").partition("|")[0].split(":", 2)
            if (
                confidence == "none"
                and spec[0] == "I"
                and len(spec) == 3
                and not spec[2].startswith((".", "/"))
            ):
                return True
            if (
                confidence == "certain"
                and symbol is not None
                and depth < 2
                and self._held(symbol, called, depth + 1)
            ):
                return True
        return False

    def _held(self, symbol: int, called: bool, depth: int) -> bool:
        """Whether a variable of the project is declared with an outside value, or a function of
        it (``called``) returns one."""
        row = self.conn.execute(
            "SELECT f.path, s.kind, s.name, s.name_line, s.name_col FROM symbols s JOIN files f ON f.id = s.file_id"
            " WHERE s.id = ? AND f.language IN ('typescript', 'javascript')",
            (symbol,),
        ).fetchone()
        if row is None:
            return False
        where, kind, name, line, col = row
        src = self._source(where)
        node = self._at(where, src, line, col, name) if src is not None else None
        declarator = node.parent if node is not None else None
        if src is None or declarator is None:
            return False
        value = declarator.child_by_field_name("value") if declarator.type == "variable_declarator" else None
        if kind == "variable" and value is not None and value.type not in _FUNCTIONS:
            return self._outside(where, src, value, depth)
        function = value if value is not None and value.type in _FUNCTIONS else declarator
        if not called or function.type not in _FUNCTIONS:
            return False
        body = function.child_by_field_name("body")
        returned = _returned(body) if body is not None and body.type == "statement_block" else [body]
        return any(v is not None and self._outside(where, src, v, depth) for v in returned)

    def _at(self, path: str, src: TsSource, line: int, col: int, name: str) -> Node | None:
        """The identifier spelled ``name`` starting at ``line``/``col`` (1-based, code points)."""
        lines = self._lines.get(path)
        if lines is None:
            lines = self._lines[path] = src.text.split("\n")
        if not 0 < line <= len(lines):
            return None
        start = len(lines[line - 1][: col - 1].encode())
        point = (line - 1, start)
        node = src.tree.root_node.descendant_for_point_range(point, (line - 1, start + len(name.encode())))
        if node is None or src.text_of(node) != name:
            return None
        return node

    def _source(self, path: str) -> TsSource | None:
        if path not in self._sources:
            language = "typescript" if path.endswith((".ts", ".tsx", ".mts", ".cts")) else "javascript"
            try:
                text = (self.root / path).read_text(encoding="utf-8") if self.root else None
            except (OSError, UnicodeDecodeError):
                text = None
            self._sources[path] = TsSource.parse(path, language, text) if text is not None else None
        return self._sources[path]


def _initialised(src: TsSource) -> dict[str, list[Node]]:
    """The values variables of the file are declared with, by name (any scope)."""
    out: dict[str, list[Node]] = {}
    pending = [src.tree.root_node]
    while pending:
        node = pending.pop()
        if node.type == "variable_declarator":
            name, value = node.child_by_field_name("name"), node.child_by_field_name("value")
            if name is not None and value is not None and name.type == "identifier":
                out.setdefault(src.text_of(name), []).append(value)
        pending.extend(node.named_children)
    return out


def _inner(node: Node) -> Node | None:
    """What a wrapper reads off or makes from (see ``_WRAPPERS``)."""
    field = {"call_expression": "function", "new_expression": "constructor"}.get(node.type, "object")
    inner = node.child_by_field_name(field)
    if inner is None and node.named_children:
        inner = node.named_children[0]
    return inner


def _parameter(src: TsSource, function: Node, name: str) -> int | None:
    """The position of the parameter ``name`` of a function; -1 when it is typed or not a plain
    name (a pattern's part), or the function's body declares the name again; None when the
    function has no parameter of that name."""
    params = function.child_by_field_name("parameters")
    if params is None:
        single = function.child_by_field_name("parameter")  # `item => item.render()`
        return 0 if single is not None and src.text_of(single) == name else None
    position = 0
    for param in params.named_children:
        if param.type == "comment":
            continue
        pattern = param.child_by_field_name("pattern") if param.type.endswith("_parameter") else param
        if pattern is not None and pattern.type == "assignment_pattern":  # `item = fallback`
            pattern = pattern.child_by_field_name("left")
        if pattern is not None and pattern.type == "identifier" and src.text_of(pattern) == name:
            typed = param.child_by_field_name("type") is not None
            return -1 if typed or _redeclares(src, function, name) else position
        position += 1
    return None


def _redeclares(src: TsSource, function: Node, name: str) -> bool:
    body = function.child_by_field_name("body")
    pending = [body] if body is not None else []
    while pending:
        node = pending.pop()
        if node.type == "variable_declarator":
            declared = node.child_by_field_name("name")
            if declared is not None and declared.type == "identifier" and src.text_of(declared) == name:
                return True
        pending.extend(c for c in node.named_children if c.type not in _FUNCTIONS)
    return False


def _set_again(src: TsSource, function: Node, name: str) -> list[Node]:
    """The values ``name = …`` gives in a function's body (nested functions left out)."""
    out: list[Node] = []
    body = function.child_by_field_name("body")
    pending = [body] if body is not None else []
    while pending:
        node = pending.pop()
        if node.type == "assignment_expression":
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if (
                left is not None
                and right is not None
                and left.type == "identifier"
                and src.text_of(left) == name
            ):
                out.append(right)
        pending.extend(c for c in node.named_children if c.type not in _FUNCTIONS)
    return out


def _returned(body: Node) -> list[Node]:
    """What a function body's ``return`` statements give (nested functions left out)."""
    out: list[Node] = []
    pending = [body]
    while pending:
        node = pending.pop()
        if node.type == "return_statement":
            out.extend(c for c in node.named_children if c.type != "comment")
            continue
        pending.extend(c for c in node.named_children if c.type not in _FUNCTIONS)
    return out


def _declared_name(function: Node) -> Node | None:
    """The name a function is declared by: its own, a method's, or the variable's whose value it
    is (``const draw = (item) => …``)."""
    name = function.child_by_field_name("name")
    if name is not None:
        return name
    parent = function.parent
    if parent is not None and parent.type == "variable_declarator":
        declared = parent.child_by_field_name("name")
        return declared if declared is not None and declared.type == "identifier" else None
    return None


def _argument(callee: Node, position: int) -> Node | None:
    """The argument at ``position`` of the call ``callee`` (``draw``, or ``.draw`` of a member
    read) is called in, when no spread comes first."""
    expression = callee
    parent = callee.parent
    if (
        parent is not None
        and parent.type == "member_expression"
        and parent.child_by_field_name("property") == callee
    ):
        expression = parent
    call = expression.parent
    if call is None or call.type != "call_expression" or call.child_by_field_name("function") != expression:
        return None
    arguments = call.child_by_field_name("arguments")
    given = [a for a in arguments.named_children if a.type != "comment"] if arguments is not None else []
    if position >= len(given) or any(a.type == "spread_element" for a in given[: position + 1]):
        return None
    return given[position]
