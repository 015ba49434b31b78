"""A member of a value that is one of several types (a ``U:<n>`` union whose alternatives do
not agree): certain when, for every alternative, the member is of one override family.

``@pytest.mark.parametrize("obj", [IntRange(0, 1), FloatRange(0, 1)])`` then ``obj.to_info_dict()``:
each alternative finds a ``to_info_dict`` below ``ParamType``'s, so the occurrence is a reference
of that family (recorded as the topmost member, as a ``ParamType``-typed receiver would be). An
alternative that is unknown or outside the project leaves it a name hit; members of unrelated
families (``obj: Command | Parameter``, then ``obj.shell_complete()``) make it a name hit of those
members alone (stored as ``E:`` and their keys, sorted out by query.references).
"""

from __future__ import annotations

import collections
import re

from astmcp.resolve.python_external import class_defines, instance_member
from astmcp.resolve.python_lookups import CLASSLIKE, Entity, alternatives
from astmcp.resolve.python_resolver import Resolver
from astmcp.resolve.python_vocab import IDENT

_MAX_ALTERNATIVES = 64
_ITEM_OF_ITEMS = re.compile(r"/\*s/\[(?:i|\d*)\](?=/|$)")


def union_member(resolver: Resolver, path: str, target: str) -> tuple[Entity, list[int]]:
    """What ``target`` (``U:<n>[/step...]/name``, whose union did not resolve) means when, taking
    the steps from every alternative of the union, each finds ``name`` in one override family
    (else None), and the members the alternatives find when each finds a project one (else [],
    as when the union or a step is unknown): the occurrence is a name hit of those alone."""
    head, _, name = target.rpartition("/")
    union, *steps = head.split("/")
    if not union.startswith("U:") or IDENT.fullmatch(name) is None:
        return None, []
    receivers = _receivers(resolver, path, union, steps, set())
    if not receivers:
        return None, []
    members: set[int] = set()
    for receiver in receivers:
        if (
            receiver is not None
            and receiver[0] == "e"
            and receiver[1][0] in _CONTAINER_KINDS
            and not any(hasattr(t, name) for t in _CONTAINERS)
        ):
            # `d = Headers(); d["b"] = 1` makes d a mapping too, and no builtin container has
            # `d.mixed()`: reading it off one raises, so the value read is the other alternative
            continue
        member = resolver.step(receiver, name)
        for alt in alternatives(member):
            if alt is not None and alt[0] == "x" and _never_has(resolver, str(alt[1])):
                continue  # `other: B | str`, then `other._pre`: a str has none, the value is a B
            if alt is None or alt[0] != "s":
                return None, []
            members.add(alt[1])
    if not members:
        return None, []
    return family_member(resolver, members, name)


def union_receivers(resolver: Resolver, path: str, receiver: str) -> list[Entity] | None:
    """What the receiver chain ``U:<n>[/step...]`` is, alternative by alternative (each as it
    resolves, outside things keeping their names); None when it is no such chain or one is not
    known."""
    union, *steps = receiver.split("/")
    if not union.startswith("U:"):
        return None
    return _receivers(resolver, path, union, steps, set())


# the builtin containers a container value (``("e", (kind, …))``: a sequence, a mapping, a tuple) may be
_CONTAINERS = (list, dict, set, frozenset, tuple, collections.deque, collections.OrderedDict)
_CONTAINER_KINDS = frozenset({"s", "m", "t"})


def _never_has(resolver: Resolver, value: str) -> bool:
    """Whether ``value`` (``str.()._pre``) is a member an outside class's instances do not have,
    and no project class derives from that class (whose instances might): reading it off such an
    alternative of a union raises, so the alternative is not what the code reads."""
    found = instance_member(value)
    if found is None:
        return False
    cls, member = found
    qualified = cls if "." in cls else f"builtins.{cls}"
    if class_defines(qualified, member) is not False:
        return False
    # (by the base's last name, as listed: what the linker knows before the class graph is written)
    return not resolver.all_bases().get(cls.rpartition(".")[2])


def either_member(resolver: Resolver, entity: Entity, name: str) -> tuple[Entity, list[int]]:
    """What a member ``name`` found as one of several things (``entity``, a union) means:
    :func:`family_member` of them when each is a project member, else nothing known."""
    members: set[int] = set()
    for alt in alternatives(entity):
        if alt is None or alt[0] != "s":
            return None, []
        members.add(alt[1])
    return family_member(resolver, members, name)


def family_member(resolver: Resolver, members: set[int], name: str) -> tuple[Entity, list[int]]:
    """Members ``name`` a value may reach: the family's topmost member when they are of one
    override family, else None and the members and their families' roots (a name hit of those)."""
    roots: set[int] | None = None
    every_root: set[int] = set()
    for member_id in members:
        found = _roots(resolver, member_id, name)
        every_root |= found
        roots = found if roots is None else roots & found
    assert roots is not None
    if not roots:
        # unrelated families: a name hit of the members found and of their families' roots
        tops = {_member_of(resolver, root, name) for root in every_root}
        return None, sorted(members | {top for top in tops if top is not None})
    if len(members) == 1:
        return ("s", members.pop()), []
    top = min(roots, key=lambda i: (resolver.syms[i].path, resolver.syms[i].line))
    found_member = _member_of(resolver, top, name)
    if found_member is None:  # a root reading what its subclasses declare: any member stands for it
        found_member = min(members, key=lambda i: (resolver.syms[i].path, resolver.syms[i].line))
    return ("s", found_member), []


def _member_of(resolver: Resolver, root: int, name: str) -> int | None:
    """The member ``name`` of a root class (a root that is no class is the member itself)."""
    sym = resolver.syms[root]
    if sym.kind not in CLASSLIKE:
        return root
    found = resolver.symbol(sym.path, f"{sym.symbol_path}.{name}")
    return found.id if found is not None else None


def _receivers(
    resolver: Resolver, path: str, union: str, steps: list[str], seen: set[tuple[str, ...]]
) -> list[Entity] | None:
    """What taking ``steps`` from each alternative of the ``U:<n>`` union gives, each known
    (nested unions expanded); else None. A union met again with the same steps is a value made
    from itself (``params = [*params, extra]``): it adds nothing the other alternatives do not."""
    key = (union, *steps)
    if key in seen:
        return []
    if any(k[0] == union for k in seen):
        return None  # met again with other steps (`node = node.parent`): a chain without end
    seen.add(key)
    resolver.deps.add(path)
    chains = resolver.facts(path).get("unions", [])[int(union[2:])]
    out: list[Entity] = []
    for chain in chains:
        full = _ITEM_OF_ITEMS.sub("", "/".join([chain, *steps]))  # `xs/*s/[]`: an item of xs
        entity = resolver.deref(resolver.resolve(path, full))
        if entity is not None:
            found: list[Entity] | None = alternatives(entity)
        elif full.startswith("U:"):
            inner, *more = full.split("/")
            found = _receivers(resolver, path, inner, more, seen)
        else:
            return None
        if found is None:
            return None
        out.extend(e for e in found if e not in out)
        if len(out) > _MAX_ALTERNATIVES:
            return None
    return out


def _roots(resolver: Resolver, member_id: int, name: str) -> set[int]:
    """The topmost project classes at or above ``member_id``'s class that define ``name`` (the
    roots of its override family); a member of no class is its own root."""
    sym = resolver.syms[member_id]
    owner_path = sym.symbol_path.rpartition(".")[0]
    owner = resolver.symbol(sym.path, owner_path) if owner_path else None
    if owner is None or owner.kind not in CLASSLIKE:
        return {member_id}
    return _defining_roots(resolver, owner.id, name, set()) or {owner.id}


def _defining_roots(resolver: Resolver, class_id: int, name: str, seen: set[int]) -> set[int]:
    if class_id in seen:
        return set()
    seen.add(class_id)
    cls = resolver.syms[class_id]
    above: set[int] = set()
    for base in resolver.facts(cls.path).get("bases", {}).get(cls.symbol_path, ()):
        found = resolver.deref_class(resolver.resolve(cls.path, base) if base else None)
        if found is not None and found[0] == "s" and resolver.syms[found[1]].kind in CLASSLIKE:
            above |= _defining_roots(resolver, found[1], name, seen)
    if above:
        return above
    declared = resolver.symbol(cls.path, f"{cls.symbol_path}.{name}") is not None
    # a class reading a member only its subclasses declare roots their declarations' family
    return {class_id} if declared or name in resolver.self_reads(class_id) else set()
