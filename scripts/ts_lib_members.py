"""Regenerate `astmcp/resolve/ts_lib_types.py`: the members of the types TypeScript's own lib declares.

    python scripts/ts_lib_members.py [--typescript benchmarks/.cache/tools/typescript-6.0.3/node_modules/typescript]

TypeScript 7's npm package ships the same lib files in its platform package (``--typescript
benchmarks/.cache/tools/typescript-7.0.2/node_modules/@typescript/typescript-linux-x64``); 6.0.3's and
7.0.2's give the same tables.

Every `lib.*.d.ts` of the typescript package (ES5 to ESNext, DOM, web workers, scripthost) is parsed
with astmcp's tree-sitter front end. For each top-level interface (declarations of one name merged, as
TypeScript merges them) it records the interfaces it extends and the names of its properties and
methods; for each `declare var X: …` the members of its constructor side (`SetConstructor`, or the
object type written out, as the DOM writes `HTMLElement`'s). A project class that extends or implements
one of these types overrides exactly these names (the family guard's question), no others: the
hand-kept ES2023 superset missed ES2025's `Set.prototype.isSubsetOf`, and types such as `PromiseLike`,
`Iterator` or `HTMLElement` were no outside base at all.

It also records what a member gives when every declaration of it agrees on one plain type: a property
`signal: AbortSignal`, a method `split(…): string[]`, `match(…): RegExpMatchArray | null` (null and
undefined aside), `set(…): this`. Generic members, type parameters, function types and other shapes
are left out (the linker then knows nothing of the value, as before). And it records the members
every declaration of an interface declares optional (``Iterator``'s ``return?`` and ``throw?``): a
value of the type need not have them.
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
from astmcp.resolve.ts_descriptors import _PRIMITIVES  # noqa: E402  (`string` -> `String`, …)

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


def _plain(node: Node | None, params: frozenset[str], names: frozenset[str]) -> str | None:
    """``String``, ``AbortSignal``, ``String[]`` or ``this`` for a plain type (null and undefined
    left out of a union); None for anything else."""
    if node is None:
        return None
    if node.type == "readonly_type" and node.named_children:
        return _plain(node.named_children[0], params, names)
    if node.type == "parenthesized_type" and node.named_children:
        return _plain(node.named_children[0], params, names)
    if node.type == "predefined_type":
        return _PRIMITIVES.get(_text(node))
    if node.type == "this_type":
        return "this"
    if node.type == "type_identifier":
        name = _text(node)
        return name if name in names and name not in params and name[:1].isupper() else None
    if node.type == "array_type" and node.named_children:
        element = _plain(node.named_children[0], params, names)
        return (
            f"{element}[]"
            if element is not None and not element.endswith("[]") and element != "this"
            else None
        )
    if node.type == "union_type":
        parts = [
            p
            for p in _union_parts(node)
            if not (p.type == "literal_type" and _text(p) in ("null", "undefined"))
        ]
        parts = [p for p in parts if not (p.type == "predefined_type" and _text(p) in ("undefined", "void"))]
        return _plain(parts[0], params, names) if len(parts) == 1 else None
    return None


def _union_parts(node: Node) -> Iterator[Node]:
    for part in node.named_children:
        if part.type == "union_type":
            yield from _union_parts(part)
        else:
            yield part


def _type_params(node: Node) -> frozenset[str]:
    """The names of a declaration's own type parameters (``T`` of ``interface Array<T>``)."""
    found = node.child_by_field_name("type_parameters")
    if found is None:
        return frozenset()
    return frozenset(
        _text(p.child_by_field_name("name")) for p in found.named_children if p.type == "type_parameter"
    )


def _results(body: Node, params: frozenset[str], names: frozenset[str]) -> Iterator[tuple[str, str | None]]:
    """(member, what it gives) of an interface body or object type: ``String`` for a property of that
    plain type, ``()String[]`` for a method returning one, None for anything else."""
    for member in body.named_children:
        if member.type not in ("property_signature", "method_signature"):
            continue
        name = member.child_by_field_name("name")
        if name is None or name.type != "property_identifier":
            continue
        annotation = member.child_by_field_name(
            "return_type" if member.type == "method_signature" else "type"
        )
        if annotation is None and member.type == "method_signature":
            annotation = next((c for c in member.named_children if c.type == "type_annotation"), None)
        own = params | _type_params(member)
        kind = _plain(
            annotation.named_children[0] if annotation is not None and annotation.named_children else None,
            own,
            names,
        )
        if member.type == "method_signature":
            yield _text(name), f"(){kind}" if kind is not None else None
        else:
            yield _text(name), kind


def collect_results(libs: list[Path], names: frozenset[str]) -> dict[str, dict[str, str]]:
    """type -> member -> what it gives (see :func:`_results`), for the members every declaration
    of which agrees on it; a `declare var X`'s constructor side counts as ``X``'s."""
    seen: dict[tuple[str, str], set[str | None]] = defaultdict(set)
    for lib in libs:
        src = TsSource.parse(lib.name, "typescript", lib.read_text(encoding="utf-8"))
        for statement in _statements(src.tree.root_node):
            if statement.type == "interface_declaration":
                name = _text(statement.child_by_field_name("name"))
                params = _type_params(statement)
                for child in statement.named_children:
                    if child.type in ("interface_body", "object_type"):
                        for member, kind in _results(child, params, names):
                            seen[(name, member)].add(kind)
            elif statement.type in ("variable_declaration", "lexical_declaration"):
                for declarator in statement.named_children:
                    name = _text(declarator.child_by_field_name("name"))
                    annotation = declarator.child_by_field_name("type")
                    side = annotation.named_children[0] if annotation is not None else None
                    if name and side is not None and side.type == "object_type":
                        for member, kind in _results(side, frozenset(), names):
                            seen[(name, member)].add(kind)
    out: dict[str, dict[str, str]] = defaultdict(dict)
    for (name, member), kinds in seen.items():
        if len(kinds) == 1 and (kind := next(iter(kinds))) is not None:
            out[name][member] = kind
    return out


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


def collect_optional(libs: list[Path]) -> dict[str, set[str]]:
    """type -> the members every interface declaration of it declares optional (``return?`` of
    ``Iterator``): a value of it need not have them."""
    optional: dict[str, set[str]] = defaultdict(set)
    required: dict[str, set[str]] = defaultdict(set)
    for lib in libs:
        src = TsSource.parse(lib.name, "typescript", lib.read_text(encoding="utf-8"))
        for statement in _statements(src.tree.root_node):
            if statement.type != "interface_declaration":
                continue
            name = _text(statement.child_by_field_name("name"))
            for child in statement.named_children:
                if child.type not in ("interface_body", "object_type"):
                    continue
                for member in child.named_children:
                    found = member.child_by_field_name("name") if member.type in _MEMBERS else None
                    if found is None or found.type not in (
                        "property_identifier",
                        "private_property_identifier",
                    ):
                        continue
                    marked = any(c.type == "?" for c in member.children)
                    (optional if marked else required)[name].add(_text(found))
    return {
        name: names - required.get(name, set())
        for name, names in optional.items()
        if names - required.get(name, set())
    }


def render(
    members: dict[str, set[str]],
    bases: dict[str, set[str]],
    results: dict[str, dict[str, str]],
    version: str,
    optional: dict[str, set[str]] | None = None,
) -> str:
    lines = []
    for name in sorted(set(members) | set(bases)):
        own = " ".join(sorted(members.get(name, ())))
        lines.append(f"{name}:{','.join(sorted(bases.get(name, ())))}:{own}")
    body = "\n".join(lines)
    given = "\n".join(
        f"{name}:{' '.join(f'{m}={k}' for m, k in sorted(results[name].items()))}"
        for name in sorted(results)
        if results[name]
    )
    unneeded = "\n".join(
        f"{name}:{' '.join(sorted(found))}" for name, found in sorted((optional or {}).items())
    )
    return (
        f'"""Members of the types declared by TypeScript {version}\'s lib.*.d.ts (ES, DOM, web workers,\n'
        "scripthost), one type a line: `Name:Extended,Types:own members` (a `declare var`'s constructor side\n"
        "folded into its type), plus the custom-element callbacks the platform calls on `HTMLElement`s.\n"
        "`_RESULTS`: what members give, one type a line: `Name:member=Type method=()Type[] other=()this`,\n"
        "for the members every declaration of which gives one plain type (null and undefined aside).\n"
        "`_OPTIONAL`: the members every interface declaration of a type declares optional (`Name:a b`).\n\n"
        "Generated by scripts/ts_lib_members.py; do not edit by hand.\n"
        '"""\n\n'
        '_TYPES = """\n'
        f"{body}\n"
        '"""\n\n'
        '_RESULTS = """\n'
        f"{given}\n"
        '"""\n\n'
        '_OPTIONAL = """\n'
        f"{unneeded}\n"
        '"""\n'
    )


def main() -> int:
    found = lib_sources(__doc__ or "", OUT)
    if found is None:
        return 2
    args, libs, version = found
    members, bases = collect(libs)
    results = collect_results(libs, frozenset(set(members) | set(bases)))
    text = render(members, bases, results, version, collect_optional(libs))
    args.out.write_text(text, encoding="utf-8")
    print(f"{len(members)} types from {len(libs)} lib files -> {args.out} ({len(text)} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
