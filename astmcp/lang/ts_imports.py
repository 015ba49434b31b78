"""TS/JS imports and exports as :class:`ImportFact` s, plus the outline header.

Kinds: ``import`` (ES import, ``import x = require()``'s ES form), ``reexport``
(``export { a } from``, ``export * as ns from``), ``star`` (``export * from``),
``require`` (``require("m")``, ``import x = require("m")``), ``dynamic``
(``import("m")``), ``augment`` (``declare module "m" { … }``). ``name`` is the imported name (``default`` for a default
import, ``*`` for a star re-export, None for the whole module); ``alias`` the
local (or re-exported) binding.
"""

from __future__ import annotations

import re

from tree_sitter import Language, Node, Query, QueryCursor

from astmcp.lang.ts_parse import TsSource
from astmcp.model import ImportFact

_CALLS = """
(call_expression function: (import) arguments: (arguments . (string) @dynamic))
(call_expression
  function: (identifier) @fn
  arguments: (arguments . (string) @require .)
  (#eq? @fn "require"))
"""
_queries: dict[int, Query] = {}
# a block comment, and the modules its JSDoc types import (`@import … from "m"`, `import("m")`)
_DOC_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_DOC_IMPORT = re.compile(
    r"""@import\b[^@]*?\bfrom\s*["']([^"'\n]+)["']|\bimport\(\s*["']([^"'\n]+)["']\s*\)"""
)


def _calls_query(language: Language) -> Query:
    key = id(language)
    query = _queries.get(key)
    if query is None:
        query = _queries[key] = Query(language, _CALLS)
    return query


def _string_value(src: TsSource, node: Node | None) -> str | None:
    if node is None or node.type != "string":
        return None
    text = src.text_of(node)
    return text[1:-1] if len(text) >= 2 else ""


class ImportCollector:
    """Turns the import/export statements found by the symbol walk into facts."""

    def __init__(self, src: TsSource) -> None:
        self.src = src
        self.facts: list[ImportFact] = []
        self.exports: list[str] = []  # header fragments for local exports

    def statement(self, node: Node) -> None:
        kind = node.type
        if kind == "import_statement":
            self.import_statement(node)
        elif kind == "export_statement":
            self.export_statement(node)
        elif kind == "expression_statement":
            self.module_exports(node)
        elif kind == "ambient_declaration":
            for child in node.named_children:
                spec = (
                    _string_value(self.src, child.child_by_field_name("name"))
                    if child.type == "module"
                    else None
                )
                if spec:  # `declare module "pkg" { interface I … }` merges into pkg's I
                    self.facts.append(ImportFact(spec, None, None, node.start_point.row + 1, kind="augment"))

    def import_statement(self, node: Node) -> None:
        line = node.start_point.row + 1
        module = _string_value(self.src, node.child_by_field_name("source"))
        clause = next(
            (c for c in node.named_children if c.type in ("import_clause", "import_require_clause")), None
        )
        if clause is not None and clause.type == "import_require_clause":
            module = _string_value(self.src, clause.child_by_field_name("source"))
            alias = next((c for c in clause.named_children if c.type == "identifier"), None)
            if module is not None:
                self.facts.append(
                    ImportFact(module, None, self.src.text_of(alias) if alias else None, line, kind="require")
                )
            return
        if module is None:
            return
        if clause is None:
            self.facts.append(ImportFact(module, None, None, line))
            return
        for part in clause.named_children:
            if part.type == "identifier":
                self.facts.append(ImportFact(module, "default", self.src.text_of(part), line))
            elif part.type == "namespace_import":
                alias = next((c for c in part.named_children if c.type == "identifier"), None)
                self.facts.append(ImportFact(module, None, self.src.text_of(alias) if alias else None, line))
            elif part.type == "named_imports":
                for spec in part.named_children:
                    if spec.type != "import_specifier":
                        continue
                    name = spec.child_by_field_name("name")
                    alias = spec.child_by_field_name("alias")
                    self.facts.append(
                        ImportFact(
                            module,
                            self._name(name),
                            self._name(alias),
                            line,
                        )
                    )

    def _name(self, node: Node | None) -> str | None:
        if node is None:
            return None
        value = _string_value(self.src, node)
        return value if value is not None else self.src.text_of(node)

    def export_statement(self, node: Node) -> None:
        line = node.start_point.row + 1
        module = _string_value(self.src, node.child_by_field_name("source"))
        clause = next((c for c in node.named_children if c.type == "export_clause"), None)
        if module is None:
            if clause is not None:
                for spec in clause.named_children:
                    if spec.type == "export_specifier":
                        self.exports.append(self._spec_text(spec))
            elif any(c.type == "default" for c in node.children):
                value = node.child_by_field_name("value") or next(
                    (c for c in node.named_children if c.type != "comment"), None
                )
                if value is not None and value.type == "identifier":
                    self.exports.append(f"default = {self.src.text_of(value)}")
            elif any(c.type == "=" for c in node.children):
                value = next((c for c in node.named_children if c.type != "comment"), None)
                if value is not None:
                    self.exports.append(f"export = {self.src.text_of(value)}")
            return
        if clause is not None:
            for spec in clause.named_children:
                if spec.type != "export_specifier":
                    continue
                name = spec.child_by_field_name("name")
                alias = spec.child_by_field_name("alias")
                self.facts.append(
                    ImportFact(module, self._name(name), self._name(alias), line, kind="reexport")
                )
            return
        namespace = next((c for c in node.named_children if c.type == "namespace_export"), None)
        if namespace is not None:
            alias = next((c for c in namespace.named_children if c.type in ("identifier", "string")), None)
            self.facts.append(ImportFact(module, None, self._name(alias), line, kind="reexport"))
            return
        self.facts.append(ImportFact(module, "*", None, line, kind="star"))

    def _spec_text(self, spec: Node) -> str:
        name = self._name(spec.child_by_field_name("name")) or "?"
        alias = self._name(spec.child_by_field_name("alias"))
        return f"{name} as {alias}" if alias and alias != name else name

    def module_exports(self, node: Node) -> None:
        expr = node.named_children[0] if node.named_children else None
        right = expr.child_by_field_name("right") if expr is not None else None
        if right is None:
            return
        if right.type == "identifier":
            self.exports.append(f"module.exports = {self.src.text_of(right)}")
        elif right.type == "object":
            names = [
                self.src.text_of(m.child_by_field_name("key") or m)
                if m.type == "pair"
                else self.src.text_of(m)
                for m in right.named_children
                if m.type in ("shorthand_property_identifier", "pair")
            ]
            self.exports.append("module.exports = {" + ", ".join(names) + "}")

    def jsdoc(self) -> None:
        """The modules a doc comment's types name (``@import { Opts } from "./a.js"``,
        ``@param {import("./a.js").Opts} o``, ``@typedef {import("./a").T} X``): imported for types
        alone, recorded as kind ``dynamic`` (no binding, no diagnostic when not found)."""
        raw = self.src.raw
        if b"/*" not in raw or b"import" not in raw:
            return
        text = self.src.text
        for comment in _DOC_COMMENT.finditer(text):
            for found in _DOC_IMPORT.finditer(comment.group()):
                module = found.group(1) or found.group(2)
                line = text.count("\n", 0, comment.start() + found.start()) + 1
                self.facts.append(ImportFact(module, None, None, line, kind="dynamic"))

    def calls(self, language: Language) -> None:
        """``require("m")`` and ``import("m")`` anywhere in the file."""
        raw = self.src.raw
        if (
            b"require(" not in raw
            and b"require (" not in raw
            and b"import(" not in raw
            and b"import (" not in raw
        ):
            return
        captures = QueryCursor(_calls_query(language)).captures(self.src.tree.root_node)
        found: list[tuple[int, ImportFact]] = []
        for node in captures.get("dynamic", []):
            module = _string_value(self.src, node)
            if module is not None:
                found.append(
                    (
                        node.start_byte,
                        ImportFact(module, None, None, node.start_point.row + 1, kind="dynamic"),
                    )
                )
        for node in captures.get("require", []):
            module = _string_value(self.src, node)
            if module is None:
                continue
            call = node.parent.parent if node.parent is not None else None
            for name, alias in self._require_bindings(call):
                found.append(
                    (
                        node.start_byte,
                        ImportFact(module, name, alias, node.start_point.row + 1, kind="require"),
                    )
                )
        found.sort(key=lambda item: item[0])
        self.facts.extend(fact for _, fact in found)

    def _require_bindings(self, call: Node | None) -> list[tuple[str | None, str | None]]:
        """``const x = require()`` → (None, x); ``const {a, b: c} = require()`` → (a, None), (b, c)."""
        parent = call.parent if call is not None else None
        if parent is None or parent.type != "variable_declarator":
            return [(None, None)]
        target = parent.child_by_field_name("name")
        if target is None:
            return [(None, None)]
        if target.type == "identifier":
            return [(None, self.src.text_of(target))]
        if target.type != "object_pattern":
            return [(None, None)]
        out: list[tuple[str | None, str | None]] = []
        for part in target.named_children:
            if part.type == "shorthand_property_identifier_pattern":
                out.append((self.src.text_of(part), None))
            elif part.type == "pair_pattern":
                key = part.child_by_field_name("key")
                value = part.child_by_field_name("value")
                if key is not None and value is not None and value.type == "identifier":
                    out.append((self._name(key), self.src.text_of(value)))
        return out or [(None, None)]

    def header(self) -> list[str]:
        """``imports: …``, ``re-exports: …`` and ``exports: …`` lines for the outline."""
        imports: dict[str, list[str]] = {}
        reexports: dict[str, list[str]] = {}
        for fact in self.facts:
            if fact.kind == "dynamic":
                continue
            group = reexports if fact.kind in ("reexport", "star") else imports
            names = group.setdefault(fact.module, [])
            if fact.name is None and fact.alias is not None:
                names.append(f"* as {fact.alias}")
            elif fact.name is not None:
                names.append(
                    fact.name if not fact.alias or fact.alias == fact.name else f"{fact.name} as {fact.alias}"
                )
        lines = []
        for label, group in (("imports", imports), ("re-exports", reexports)):
            if group:
                rendered = [f"{m}({', '.join(n)})" if n else m for m, n in group.items()]
                lines.append(f"{label}: " + ", ".join(rendered))
        if self.exports:
            lines.append("exports: " + ", ".join(self.exports))
        return lines
