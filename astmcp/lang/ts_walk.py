"""Shared pieces of the TS/JS declaration walk: scopes, emission, signatures, docs."""

from __future__ import annotations

from dataclasses import dataclass, field

from tree_sitter import Node

from astmcp.lang.ts_parse import TsSource
from astmcp.lang.ts_text import clip, collapse, jsdoc_first_line
from astmcp.model import SymbolFact

FUNCTION_VALUES = {"arrow_function", "function_expression", "generator_function", "function"}
CLASS_VALUES = {"class"}
HIDDEN_MODIFIERS = {"private", "protected"}


@dataclass(frozen=True, slots=True)
class Scope:
    """Where declarations are being found: the container's path and visibility."""

    path: str = ""
    kind: str = "module"  # module | namespace | class | interface | function | object
    exported: bool = True  # may members with `export`/public visibility be exported?
    ambient: bool = False  # inside `declare`: every member is visible

    def child(self, name: str) -> str:
        return f"{self.path}.{name}" if self.path else name


@dataclass(slots=True)
class Declarations:
    """What the walk found: symbols plus the names exported by clauses elsewhere."""

    symbols: list[SymbolFact] = field(default_factory=list)
    export_names: set[str] = field(default_factory=set)  # `export { a }`, `export default a`, CJS
    statements: list[Node] = field(default_factory=list)  # import/export statements, for imports


# what a value is wrapped in without changing what it is at run time
_WRAPPERS = frozenset({"parenthesized_expression", "as_expression", "satisfies_expression"})


def unwrapped_value(node: Node) -> Node:
    """The value inside parentheses and type assertions: ``((a) => make(a)) as Maker`` is the function."""
    while node.type in _WRAPPERS and node.named_children:
        node = node.named_children[0]
    return node


def has_child(node: Node, kind: str) -> bool:
    return any(child.type == kind for child in node.children)


def modifiers(node: Node) -> set[str]:
    mods: set[str] = set()
    for child in node.children:
        kind = child.type
        if kind == "accessibility_modifier":
            mods.add(child.children[0].type if child.children else "public")
        elif not child.is_named and kind in ("get", "set", "static", "async", "abstract", "readonly", "*"):
            mods.add(kind)
        elif kind in ("formal_parameters", "statement_block", "type_annotation", "="):
            break
    return mods


class WalkerBase:
    """State and emission shared by the statement, member and CommonJS walks."""

    def __init__(self, src: TsSource) -> None:
        self.src = src
        self.out = Declarations()
        # `import * as ns` / `import ns = require()` bindings: re-exporting one exports a module.
        self.module_imports: dict[str, Node] = {}

    # Implemented by the walks that combine into ts_symbols.SymbolWalker.
    def block(self, body: Node, scope: Scope) -> None:
        raise NotImplementedError

    def namespace(self, node: Node, scope: Scope, wrapper: Node, comment: Node | None, visible: bool) -> None:
        raise NotImplementedError

    def class_body(self, node: Node, scope: Scope) -> None:
        raise NotImplementedError

    def method(self, node: Node, scope: Scope, comment: Node | None, decorator: Node | None) -> None:
        raise NotImplementedError

    def listed(self, scope: Scope, name_node: Node | None) -> bool:
        """Is this module-level declaration exported by a clause elsewhere in the file?"""
        return (
            not scope.path and name_node is not None and self.src.text_of(name_node) in self.out.export_names
        )

    # -- emission ----------------------------------------------------------------
    def emit(
        self,
        scope: Scope,
        name: str,
        kind: str,
        node: Node,
        name_node: Node | None,
        signature: str,
        *,
        start: Node | None = None,
        doc: str | None = None,
        exported: bool = False,
    ) -> str:
        src = self.src
        path = scope.child(name)
        anchor = name_node or node
        line = anchor.start_point.row + 1
        name_span = src.span(anchor)
        self.out.symbols.append(
            SymbolFact(
                symbol_path=path,
                name=name,
                kind=kind,
                signature=signature,
                line=line,
                span=src.span(node, start),
                name_span=name_span,
                doc=doc,
                parent_path=scope.path or None,
                exported=exported or scope.ambient,
            )
        )
        return path

    def header(self, start: Node, stop: Node | None, end: Node) -> str:
        """Declaration text from ``start`` up to ``stop`` (the body) or ``end``'s end."""
        stop_byte = stop.start_byte if stop is not None else end.end_byte
        text = collapse(self.src.slice(start.start_byte, stop_byte))
        return text[:-1].rstrip() if text.endswith(";") else text

    def doc_of(self, comment: Node | None, node: Node) -> str | None:
        if comment is None or comment.end_point.row + 1 < node.start_point.row:
            return None
        return jsdoc_first_line(self.src.text_of(comment))

    def name_of(self, node: Node | None) -> str | None:
        if node is None:
            return None
        kind = node.type
        if kind == "string":
            text = self.src.text_of(node)
            return text[1:-1] if len(text) >= 2 else text
        return self.src.text_of(node)

    # -- statements --------------------------------------------------------------


def value_text(src: TsSource, value: Node) -> str:
    """An initializer, clipped: its first line only (``Effect.gen(function* () {…``)."""
    text = src.slice(value.start_byte, min(value.end_byte, value.start_byte + 4096))
    newline = text.find("\n")
    if newline >= 0:
        text = text[:newline].rstrip() + "…"
    return clip(collapse(text))


def first_non_decorator(node: Node) -> Node:
    for child in node.children:
        if child.type not in ("decorator", "comment"):
            return child
    return node


def first_decorator(node: Node) -> Node | None:
    first = node.children[0] if node.children else None
    return first if first is not None and first.type == "decorator" else None
