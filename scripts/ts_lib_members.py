"""Regenerate `astmcp/resolve/ts_lib_types.py`: the members of the types TypeScript's own lib declares.

    python scripts/ts_lib_members.py [--typescript benchmarks/.cache/tools/typescript-6.0.3/node_modules/typescript]

Every `lib.*.d.ts` of the typescript package (ES5 to ESNext, DOM, web workers, scripthost) is parsed
with astmcp's tree-sitter front end. For each top-level interface (declarations of one name merged, as
TypeScript merges them) it records the interfaces it extends and the names of its properties and
methods; for each `declare var X: …` the members of its constructor side (`SetConstructor`, or the
object type written out, as the DOM writes `HTMLElement`'s). A project class that extends or implements
one of these types overrides exactly these names (the family guard's question), no others: the
hand-kept ES2023 superset missed ES2025's `Set.prototype.isSubsetOf`, and types such as `PromiseLike`,
`Iterator` or `HTMLElement` were no outside base at all.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tree_sitter import Node  # noqa: E402
from ts_lib_globals import lib_sources  # noqa: E402

from astmcp.lang.ts_parse import TsSource  # noqa: E402

OUT = REPO / "astmcp/resolve/ts_lib_types.py"
_MEMBERS = {"property_signature", "method_signature", "public_field_definition", "method_definition"}

# Called by the platform on a class that extends a built-in type, declared by no lib interface:
# custom elements' lifecycle callbacks (HTML standard, "custom element reactions") and the statics
# `customElements.define` reads. Renaming one in a `class X extends HTMLElement` stops it running.
PLATFORM_CALLBACKS = {
    "HTMLElement": (
        "connectedCallback disconnectedCallback adoptedCallback attributeChangedCallback connectedMoveCallback"
        " formAssociatedCallback formResetCallback formDisabledCallback formStateRestoreCallback"
        " observedAttributes formAssociated disabledFeatures"
    ),
}


def _text(node: Node | None) -> str:
    return node.text.decode("utf-8") if node is not None and node.text else ""


def _statements(root: Node) -> Iterator[Node]:
    """Top-level statements, `declare …` unwrapped (namespaces' contents are left out)."""
    for statement in root.named_children:
        if statement.type == "ambient_declaration":
            yield from statement.named_children
        else:
            yield statement


def _type_name(node: Node) -> str | None:
    """`Foo` of `Foo` / `Foo<T>`; None for anything else (a namespace member, an object type)."""
    if node.type == "generic_type":
        node = node.named_children[0]
    return _text(node) if node.type == "type_identifier" else None


def _member_names(body: Node) -> Iterator[str]:
    for member in body.named_children:
        if member.type in _MEMBERS:
            name = member.child_by_field_name("name")
            if name is not None and name.type in ("property_identifier", "private_property_identifier"):
                yield _text(name)


def collect(libs: list[Path]) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """(own members, extended types) of every top-level interface; a `declare var X` adds its
    constructor side's members to ``X`` (and its constructor interface to ``X``'s bases)."""
    members: dict[str, set[str]] = defaultdict(set)
    bases: dict[str, set[str]] = defaultdict(set)
    for lib in libs:
        src = TsSource.parse(lib.name, "typescript", lib.read_text(encoding="utf-8"))
        for statement in _statements(src.tree.root_node):
            if statement.type == "interface_declaration":
                name = _text(statement.child_by_field_name("name"))
                members[name]  # an interface with no members of its own still names its bases
                for child in statement.named_children:
                    if child.type == "extends_type_clause":
                        bases[name].update(n for n in map(_type_name, child.named_children) if n)
                    elif child.type in ("interface_body", "object_type"):
                        members[name].update(_member_names(child))
            elif statement.type in ("variable_declaration", "lexical_declaration"):
                for declarator in statement.named_children:
                    name = _text(declarator.child_by_field_name("name"))
                    annotation = declarator.child_by_field_name("type")
                    side = annotation.named_children[0] if annotation is not None else None
                    if not name or side is None:
                        continue
                    if side.type == "object_type":
                        members[name].update(_member_names(side))
                    elif (constructor := _type_name(side)) is not None and constructor != name:
                        bases[name].add(constructor)
    for name, extra in PLATFORM_CALLBACKS.items():
        members[name].update(extra.split())
    return members, bases


def render(members: dict[str, set[str]], bases: dict[str, set[str]], version: str) -> str:
    lines = []
    for name in sorted(set(members) | set(bases)):
        own = " ".join(sorted(members.get(name, ())))
        lines.append(f"{name}:{','.join(sorted(bases.get(name, ())))}:{own}")
    body = "\n".join(lines)
    return (
        f'"""Members of the types declared by TypeScript {version}\'s lib.*.d.ts (ES, DOM, web workers,\n'
        "scripthost), one type a line: `Name:Extended,Types:own members` (a `declare var`'s constructor side\n"
        "folded into its type), plus the custom-element callbacks the platform calls on `HTMLElement`s.\n\n"
        "Generated by scripts/ts_lib_members.py; do not edit by hand.\n"
        '"""\n\n'
        '_TYPES = """\n'
        f"{body}\n"
        '"""\n'
    )


def main() -> int:
    found = lib_sources(__doc__ or "", OUT)
    if found is None:
        return 2
    args, libs, version = found
    members, bases = collect(libs)
    text = render(members, bases, version)
    args.out.write_text(text, encoding="utf-8")
    print(f"{len(members)} types from {len(libs)} lib files -> {args.out} ({len(text)} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
