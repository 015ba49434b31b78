"""Imports and exports of a TS/JS file: what they bind, export clauses, ``export *`` and namespace imports."""

from __future__ import annotations

from tree_sitter import Node

from astmcp.resolve.ts_fact_state import FUNCTION_VALUES
from astmcp.resolve.ts_narrowing import Narrowing
from astmcp.resolve.ts_scopes import Binding, Desc, Scope


class ModuleFacts(Narrowing):
    # -- modules ---------------------------------------------------------------
    def import_statement(self, node: Node, scope: Scope) -> None:
        source = node.child_by_field_name("source")
        for clause in node.named_children:
            if clause.type == "import_require_clause":
                alias = next((c for c in clause.named_children if c.type == "identifier"), None)
                spec_node = clause.child_by_field_name("source")
                if alias is not None and spec_node is not None:
                    scope.names[self.text(alias)] = Binding(f"I::{self.text(spec_node)[1:-1]}")
                return
        if source is None:
            return
        spec = self.text(source)[1:-1]
        for clause in node.named_children:
            if clause.type != "import_clause":
                continue
            for part in clause.named_children:
                if part.type == "identifier":
                    scope.names[self.text(part)] = Binding(f"I:default:{spec}")
                    self.row(part, "import", ("k", f"I:default:{spec}"))
                elif part.type == "namespace_import":
                    alias = next((c for c in part.named_children if c.type == "identifier"), None)
                    if alias is not None:
                        self.namespace_binding(alias, spec, scope)
                elif part.type == "named_imports":
                    for item in part.named_children:
                        if item.type != "import_specifier":
                            continue
                        name = item.child_by_field_name("name")
                        alias = item.child_by_field_name("alias")
                        if name is None:
                            continue
                        original = self.text(name) if name.type != "string" else self.text(name)[1:-1]
                        chain = f"I:{original}:{spec}"
                        local = alias if alias is not None else name
                        renamed = alias is not None and self.text(alias) != original
                        scope.names[self.text(local)] = Binding(chain, alias=renamed)
                        self.row(name, "import", ("k", chain), name=original)

    def import_alias(self, node: Node, scope: Scope) -> None:
        """``import A = N.B``: a local alias holding ``N.B`` (``A.x`` reads ``N.B.x``; uses of
        ``A`` itself are no references of ``N.B``); ``N.B`` itself is read (a use of ``N`` and its
        member ``B``)."""
        alias = node.named_children[0] if node.named_children else None
        if alias is not None and alias.type == "identifier":
            target = node.named_children[1] if len(node.named_children) > 1 else None
            scope.names[self.text(alias)] = Binding(None, vtype=self._alias_value(target, scope), alias=True)
        for child in node.named_children[1:]:
            self.visit(child, scope)

    def _alias_value(self, node: Node | None, scope: Scope) -> Desc:
        """``N`` / ``N.B.C`` of an ``import A = …`` as a value descriptor (bound lazily: N may be
        declared further down)."""
        if node is None:
            return None
        if node.type == "identifier":
            return ("n", scope, self.text(node))
        if node.type == "nested_identifier" and len(node.named_children) == 2:
            base = self._alias_value(node.named_children[0], scope)
            return ("m", base, self.text(node.named_children[1])) if base is not None else None
        return None

    def export_statement(self, node: Node, scope: Scope) -> None:
        source = node.child_by_field_name("source")
        spec = self.text(source)[1:-1] if source is not None else None
        is_default = any(c.type == "default" for c in node.children)
        declaration = node.child_by_field_name("declaration")
        if declaration is not None:
            for child in node.named_children:
                if child.type == "decorator":  # `@model("x") export class A {}`: its decorators
                    self.visit(child, scope)
            self.visit(declaration, scope)
            alias = declaration.named_children[0] if declaration.type == "import_alias" else None
            if alias is not None and alias.type == "identifier" and len(declaration.named_children) > 1:
                # `export import Alias = N.M`: importers' `Alias.x` reads `N.M.x`
                value = self._alias_value(declaration.named_children[1], scope)
                if value is not None:
                    self.exports[self.text(alias)] = value
            if is_default:
                name = declaration.child_by_field_name("name")
                if name is not None:
                    self.exports["default"] = ("k", f"P:{self.key(name)}")
            return
        for child in node.named_children:
            kind = child.type
            if kind == "export_clause":
                for item in child.named_children:
                    if item.type == "export_specifier":
                        self.export_specifier(item, scope, spec)
            elif kind == "namespace_export" and spec is not None:
                alias = next((c for c in child.named_children if c.type in ("identifier", "string")), None)
                if alias is not None and alias.type == "identifier":
                    self.exports[self.text(alias)] = ("k", f"P:{self.namespace_binding(alias, spec, None)}")
                elif alias is not None:
                    self.exports[self.text(alias).strip("'\"")] = ("k", f"I::{spec}")
            elif kind == "string" and child == source:
                continue
            elif is_default or any(c.type == "=" for c in node.children):
                label = "default" if is_default else "="
                self.exports[label] = self.desc(child, scope)
                ret = child.child_by_field_name("return_type") if child.type in FUNCTION_VALUES else None
                keyword = next((c for c in node.children if c.type == "default"), None)
                if (
                    ret is not None and keyword is not None
                ):  # `export default function (): R`: the symbol `default`
                    self.rtypes[self.key(keyword)] = self.instance(ret, scope)
                if child.type == "identifier":
                    self.row(child, "export", ("n", scope, self.text(child)))
                else:
                    self.visit(child, scope)
        if spec is not None and not any(
            c.type in ("export_clause", "namespace_export") for c in node.named_children
        ):
            self.stars.append(spec)

    def namespace_binding(self, alias: Node, spec: str, scope: Scope | None) -> str:
        """``import * as ns`` / ``export * as ns``: a namespace symbol when the front end made
        one (re-exported), else the module itself (the linker falls back through ``nsimports``)."""
        key = self.key(alias)
        self.nsimports[key] = spec
        if scope is not None:
            scope.names[self.text(alias)] = Binding(f"P:{key}")
        self.row(alias, "definition", ("k", f"P:{key}"))
        return key

    def export_specifier(self, node: Node, scope: Scope, spec: str | None) -> None:
        name = node.child_by_field_name("name")
        alias = node.child_by_field_name("alias")
        if name is None:
            return
        original = self.text(name).strip("'\"")
        exported = self.text(alias).strip("'\"") if alias is not None else original
        if spec is not None:
            desc: Desc = ("k", f"I:{original}:{spec}")
            self.row(name, "export", desc, name=original)
        else:
            desc = ("n", scope, original)
            self.row(name, "export", desc, name=original)
        self.exports[exported] = desc
