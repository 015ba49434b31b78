"""TypeScript/JavaScript block scopes for rename safety (tree-sitter).

A scope is the program, a block, a function (its parameters) or a loop/catch
head; a name is declared in a scope by let/const/var, function, class,
interface, type, enum, namespace, import and parameters.
"""

from __future__ import annotations

import tree_sitter

from astmcp.refactor import tsparse

SCOPES = {
    "program",
    "statement_block",
    "class_body",
    "switch_body",
    "for_statement",
    "for_in_statement",
    "catch_clause",
    "function_declaration",
    "generator_function_declaration",
    "function_expression",
    "function",
    "generator_function",
    "arrow_function",
    "method_definition",
    "enum_body",  # its initializers read the enum's members by bare name (`B = A + 1`)
    "class_static_block",  # `static { var x }`: a function body of its own
}
_NAMED_DECLS = {
    "function_declaration",
    "generator_function_declaration",
    "class_declaration",
    "abstract_class_declaration",
    "interface_declaration",
    "type_alias_declaration",
    "enum_declaration",
    "internal_module",
    "module",
}
_IDENTS = {"identifier", "shorthand_property_identifier_pattern", "type_identifier"}
_SHORTHAND = {"shorthand_property_identifier", "shorthand_property_identifier_pattern"}


def _pattern_names(node: tree_sitter.Node | None, out: set[str]) -> None:
    if node is None:
        return
    if node.type in _IDENTS:
        out.add(_text(node))
        return
    if node.type == "pair_pattern":
        _pattern_names(node.child_by_field_name("value"), out)
        return
    if node.type in ("object_assignment_pattern", "assignment_pattern"):
        # `{ delay = timeout / 10 }`, `(a = b) =>`: the default value reads names, binds none
        left = node.child_by_field_name("left") or (node.named_children[0] if node.named_children else None)
        _pattern_names(left, out)
        return
    if node.type in ("required_parameter", "optional_parameter"):  # not its type or default value
        _pattern_names(node.child_by_field_name("pattern"), out)
        return
    for child in node.named_children:
        if child.type not in ("type_annotation", "property_identifier") and child.type != "number":
            _pattern_names(child, out)


# function nodes of the TS/JS grammars (`function` names a function expression in older ones)
FUNCTION_NODES = frozenset(
    {
        "function_declaration",
        "function_expression",
        "arrow_function",
        "method_definition",
        "generator_function_declaration",
        "generator_function",
        "function",
    }
)


# scopes a `var` anywhere in their body (not in a nested function) is declared in
_VAR_SCOPES = frozenset(
    {
        "program",
        "function_declaration",
        "generator_function_declaration",
        "function_expression",
        "function",
        "generator_function",
        "arrow_function",
        "method_definition",
        "class_static_block",
    }
)


def _hoisted_vars(scope: tree_sitter.Node, names: set[str]) -> None:
    """The names ``var`` declares in nested blocks of ``scope`` (``if (x) { var n = 1 }`` declares
    ``n`` in the whole function)."""
    stack = list(scope.named_children)
    while stack:
        node = stack.pop()
        if node.type in _VAR_SCOPES or node.type == "class_body":
            continue
        if node.type == "variable_declaration":
            for decl in node.named_children:
                if decl.type == "variable_declarator":
                    _pattern_names(decl.child_by_field_name("name"), names)
        elif node.type == "for_in_statement":
            kind = node.child_by_field_name("kind")
            if kind is not None and kind.type == "var":  # `for (var k in o)`
                _pattern_names(node.child_by_field_name("left"), names)
        stack.extend(node.named_children)


def merged_enum_bodies(body: tree_sitter.Node) -> list[tree_sitter.Node]:
    """The bodies of every block of the enum ``body`` belongs to (`enum E {…} enum E {…}` merge)."""
    declaration = body.parent
    holder = declaration.parent if declaration is not None else None
    if holder is not None and holder.type == "export_statement":
        holder = holder.parent
    name = declaration.child_by_field_name("name") if declaration is not None else None
    if holder is None or name is None:
        return [body]
    found: list[tree_sitter.Node] = []
    for sibling in holder.named_children:
        node = (
            sibling.named_children[0]
            if sibling.type == "export_statement" and sibling.named_children
            else sibling
        )
        if node.type == "enum_declaration":
            label = node.child_by_field_name("name")
            block = node.child_by_field_name("body")
            if label is not None and label.text == name.text and block is not None:
                found.append(block)
    return found or [body]


def enum_members(body: tree_sitter.Node) -> set[str]:
    """The member names an ``enum_body`` declares."""
    names: set[str] = set()
    for member in body.named_children:
        label = member.child_by_field_name("name") if member.type == "enum_assignment" else member
        if label is not None and label.type == "property_identifier":
            names.add(_text(label))
    return names


def _text(node: tree_sitter.Node) -> str:
    return (node.text or b"").decode("utf-8")


class TsFile:
    def __init__(self, path: str, text: str) -> None:
        self.text = text
        self.lines = text.split("\n")
        self.tree = tsparse.parse(path, text.encode("utf-8"))
        self._declared: dict[int, set[str]] = {}
        self.captured: dict[
            str, list[tree_sitter.Node]
        ] = {}  # query source -> its captures (refactor.ts_literals)

    def column_of(self, node: tree_sitter.Node) -> int:
        """The 1-based code-point column where ``node`` starts (tree-sitter counts bytes)."""
        row, byte_col = node.start_point
        raw = self.lines[row] if row < len(self.lines) else ""
        if raw.isascii():
            return byte_col + 1
        return len(raw.encode("utf-8")[:byte_col].decode("utf-8", errors="replace")) + 1

    def node_at(self, line: int, column: int) -> tree_sitter.Node | None:
        raw = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        point = (line - 1, len(raw[: column - 1].encode("utf-8")))
        return self.tree.root_node.named_descendant_for_point_range(point, point)

    def shorthand(self, hit: object) -> str | None:
        """``"object"`` for ``{ old }`` in an object literal, ``"pattern"`` in a destructuring;
        ``"exports"`` for one that is a CommonJS module's exports (``module.exports = { old }``): its
        keys are the names importers use, and the index links those uses (renamed with them). An
        ``export default { old }`` object's keys are not linked to its importers' reads: the key stays."""
        node = self.node_at(getattr(hit, "line", 0), getattr(hit, "column", 0))
        if node is None or node.type not in _SHORTHAND:
            return None
        if node.type == "shorthand_property_identifier_pattern":
            return "pattern"
        literal = node.parent
        holder = literal.parent if literal is not None else None
        if holder is not None and holder.type == "assignment_expression":
            left = holder.child_by_field_name("left")
            if left is not None and _text(left).replace(" ", "") == "module.exports":
                return "exports"
        if (
            holder is not None
            and holder.type == "export_statement"
            and any(c.type == "=" for c in holder.children)
        ):
            return "exports"  # `export = { old }` (TS): the module's exports, as above
        call = holder.parent if holder is not None and holder.type == "arguments" else None
        if call is not None and call.type == "call_expression" and holder is not None:
            # `Object.assign(module.exports, { old })`: the module's exports, as above
            callee = call.child_by_field_name("function")
            given = holder.named_children
            if (
                callee is not None
                and _text(callee).replace(" ", "") == "Object.assign"
                and given
                and given[0] != literal
                and _text(given[0]).replace(" ", "") in ("module.exports", "exports")
            ):
                return "exports"
        return "object"

    def chain(self, node: tree_sitter.Node) -> list[tree_sitter.Node]:
        out: list[tree_sitter.Node] = []
        current = node.parent
        while current is not None:
            if current.type in SCOPES:
                out.append(current)
            current = current.parent
        return out

    def declared(self, scope: tree_sitter.Node) -> set[str]:
        cached = self._declared.get(scope.id)
        if cached is not None:
            return cached
        names: set[str] = set()
        if scope.type == "enum_body":
            for body in merged_enum_bodies(scope):
                names.update(enum_members(body))
        # a `var` belongs to the function (or program) around it, not to a block: `var options =
        # options || {}` in a function body is its parameter `options`, declared again
        block = scope.type not in _VAR_SCOPES
        for child in scope.named_children:
            if not (block and child.type == "variable_declaration"):
                self._declarations(child, names)
        params = scope.child_by_field_name("parameters") or scope.child_by_field_name("parameter")
        _pattern_names(params, names)
        if scope.type == "catch_clause":
            _pattern_names(scope.child_by_field_name("parameter"), names)
        kind = scope.child_by_field_name("kind") if scope.type == "for_in_statement" else None
        if kind is not None and kind.type != "var":
            # `for (const x of xs)` declares x; `for (x of xs)` assigns an outer x
            _pattern_names(scope.child_by_field_name("left"), names)
        initializer = scope.child_by_field_name("initializer") if scope.type == "for_statement" else None
        if initializer is not None and initializer.type != "variable_declaration":
            self._declarations(initializer, names)
        if scope.type in _VAR_SCOPES:
            _hoisted_vars(scope, names)
        self._declared[scope.id] = names
        return names

    def _declarations(self, node: tree_sitter.Node | None, names: set[str]) -> None:
        if node is None:
            return
        if node.type == "export_statement":
            for child in node.named_children:
                if child.type != "export_clause":
                    self._declarations(child, names)
        elif node.type in ("lexical_declaration", "variable_declaration"):
            for decl in node.named_children:
                if decl.type == "variable_declarator":
                    _pattern_names(decl.child_by_field_name("name"), names)
        elif node.type in _NAMED_DECLS:
            name = node.child_by_field_name("name")
            if name is not None:
                names.add(_text(name))
        elif node.type == "import_statement":
            for clause in node.named_children:
                if clause.type == "import_clause":
                    self._import_names(clause, names)

    def _import_names(self, clause: tree_sitter.Node, names: set[str]) -> None:
        for part in clause.named_children:
            if part.type == "identifier":
                names.add(_text(part))
            elif part.type == "namespace_import":
                _pattern_names(part, names)
            elif part.type == "named_imports":
                for spec in part.named_children:
                    if spec.type == "import_specifier":
                        bound = spec.child_by_field_name("alias") or spec.child_by_field_name("name")
                        if bound is not None:
                            names.add(_text(bound))

    def is_module(self) -> bool:
        """Whether the file has ES module syntax: then its top level is its own scope (a file
        without import/export is a script whose top-level names are global)."""
        return any(
            s.type in ("import_statement", "export_statement") for s in self.tree.root_node.named_children
        )

    def exported_names(self) -> set[str]:
        """Names this module exports (declarations and export clauses, aliases applied)."""
        names: set[str] = set()
        for stmt in self.tree.root_node.named_children:
            if stmt.type != "export_statement":
                continue
            for child in stmt.named_children:
                if child.type == "export_clause":
                    for spec in child.named_children:
                        public = spec.child_by_field_name("alias") or spec.child_by_field_name("name")
                        if public is not None:
                            names.add(_text(public))
                else:
                    self._declarations(child, names)
        return names

    def identifiers(self, scope: tree_sitter.Node, name: str) -> list[tree_sitter.Node]:
        out: list[tree_sitter.Node] = []
        stack = [scope]
        while stack:
            node = stack.pop()
            if (
                node.type in ("identifier", "type_identifier", "shorthand_property_identifier")
                and _text(node) == name
                and not _other_scope_name(node)
            ):
                out.append(node)
            stack.extend(node.named_children)
        return out

    def lexical_references(self, name_line: int, name_col: int, name: str) -> list[tuple[int, int, int]]:
        """(line, column, end_column) of every identifier in the file that lexically means the
        declaration whose name starts at (``name_line``, ``name_col``)."""
        decl = self.node_at(name_line, name_col)
        if decl is None or _text(decl) != name:
            return []
        home = next((s for s in self.chain(decl) if name in self.declared(s)), None)
        if home is None:
            return []
        out: list[tuple[int, int, int]] = []
        for node in self.identifiers(home, name):
            if node.type == "type_identifier" and decl.type != "type_identifier":
                continue  # another namespace (a type of the same name), unless the symbol is a type
            nearest = next((s for s in self.chain(node) if name in self.declared(s)), None)
            if nearest is None or nearest.id != home.id:
                continue
            row, byte_col = node.start_point
            raw = self.lines[row].encode("utf-8")
            column = len(raw[:byte_col].decode("utf-8", errors="replace")) + 1
            out.append((row + 1, column, column + len(name)))
        return out

    def parameter_property(self, line: int, column: int) -> bool:
        """Whether the name at (``line``, ``column``) declares a constructor parameter property
        (``constructor(private size = 0)``: a property and a parameter at once)."""
        node = self.node_at(line, column)
        param = node.parent if node is not None else None
        if param is None or param.type not in ("required_parameter", "optional_parameter"):
            return False
        return any(c.type in ("accessibility_modifier", "readonly", "override") for c in param.children)

    def destructured(self, name: str) -> list[tuple[int, int, int]]:
        """Destructuring patterns that read a property ``name`` (``{ name }``, ``{ name: x }``)."""
        out: list[tuple[int, int, int]] = []
        stack = [self.tree.root_node]
        while stack:
            node = stack.pop()
            key: tree_sitter.Node | None = None
            if node.type == "shorthand_property_identifier_pattern":
                key = node
            elif node.type == "pair_pattern":
                key = node.child_by_field_name("key")
            if key is not None and _text(key) == name:
                row, byte_col = key.start_point
                raw = self.lines[row].encode("utf-8")
                column = len(raw[:byte_col].decode("utf-8", errors="replace")) + 1
                out.append((row + 1, column, column + len(name)))
            stack.extend(node.named_children)
        return out


_JSX_ELEMENTS = frozenset({"jsx_opening_element", "jsx_closing_element", "jsx_self_closing_element"})


def _other_scope_name(node: tree_sitter.Node) -> bool:
    """Whether ``node`` is a name no binding of the file's scopes is: a member of a namespace
    (``Filter`` of ``AST.Filter<T>``), another module's export the file imports under an alias
    (``isPlainObject`` of ``import { isPlainObject as _iPO }``) or re-exports (``export { a }
    from "./m"``), a public name an export clause gives another binding (``pub`` of ``export {
    a as pub }``), or a JSX tag starting with a lowercase letter (``<label>``: JSX reads it as an
    HTML element, never a binding)."""
    parent = node.parent
    if parent is None:
        return False
    if parent.type == "nested_type_identifier":
        return parent.child_by_field_name("name") == node
    if parent.type in _JSX_ELEMENTS and parent.child_by_field_name("name") == node:
        return _text(node)[:1].islower()  # `<label>`: an HTML element, whatever the file binds
    if parent.type == "import_specifier":
        return parent.child_by_field_name("alias") is not None and parent.child_by_field_name("name") == node
    if parent.type == "export_specifier":
        local = parent.child_by_field_name("name")
        if parent.child_by_field_name("alias") == node and (local is None or _text(local) != _text(node)):
            return True  # (`export { a as a }` keeps naming the binding it exports)
        statement = parent.parent.parent if parent.parent is not None else None
        return statement is not None and statement.child_by_field_name("source") is not None
    return False
