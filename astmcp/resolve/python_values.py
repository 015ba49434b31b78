"""Values files give variables and attributes that their own declarations do not show.

A variable or attribute is typed by the values its module (or its class's methods) assign it. Other
code may give it more, and a reference typed by the assignments alone would then be a certain
reference of the wrong member: ``HANDLERS[k]().run()`` of ``A.run`` alone while a plugin module does
``HANDLERS["b"] = B``. Before the linker resolves any reference it records, for each file it links:

- the containers the file changes in place (fact ``changes``: ``REG.append(x)``, ``REG[k] = v``
  on an imported or attribute container): their items are unknown (value NULL), unless the file
  puts a value it knows by ``append``/``add``/``insert``/``extend`` (fact ``fills``): a list of it;
- the attributes it sets through another receiver than a method's own ``self`` (fact ``stores``:
  ``holder.handler = B()``, ``registry.HANDLER = B()``): the value's chain in that file; also
  the functions, methods and classes it binds again so (``K.make = lambda self: B()``);
- the project objects it stores into an attribute an outside class declares (``response.json_module
  = app.json``, where werkzeug's ``Response`` calls ``self.json_module.loads(…)``), or a project
  attribute overriding one a direct outside base declares (flask's ``Request.json_module``): the
  row's target is the object's class, its value ``!<outside class>.<attribute>`` (refactor.family_guard
  reads them);
- the project objects it turns into an outside class's with ``cast(T, x)``: the object's class,
  ``=<outside class>`` (code using a T calls the object's members by T's names);
- the project objects it gives to the construction of an outside class whose ``__init__`` keeps them
  in an attribute (fact ``passes``: ``URLSafeTimedSerializer(serializer=s)``): as a store into that
  attribute, ``!<outside class>.<attribute>``; or to an outside function that reads members off
  that argument (``json.dump(data, sink)`` calls ``sink.write``): ``^<outside function><key>``;
- the members of its classes that override a base's variable or attribute (``class Sub(Holder):
  handler = B()``, or ``self.handler = B()`` in Sub's methods): ``@<symbol path>`` of the
  overriding member, since ``self.handler`` in Holder's methods may be a Sub's (one only ever
  set to None adds nothing: fact ``vnone``).

Rows go to table ``py_values`` (path, ``<path>::<symbol path>`` of the target, value), read by
:meth:`ModuleLookups.value_of`. A declared target (an annotation) keeps what it declares.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator

from astmcp.resolve.python_external import (
    argument_reads,
    class_defines,
    importable,
    instance_member,
    kept_argument,
    module_variable,
)
from astmcp.resolve.python_lookups import CLASSLIKE, VALUED, Entity, Sym, alternatives
from astmcp.resolve.python_resolver import Resolver
from astmcp.resolve.python_vocab import holds_items

__all__ = ["record_values"]

Row = tuple[str, str | None]


def record_values(conn: sqlite3.Connection, resolver: Resolver, paths: list[str]) -> set[str]:
    """Records the ``py_values`` rows of ``paths`` (replacing theirs) and returns the files
    declaring a target whose rows came or went: what was resolved through those is stale."""
    before = set(conn.execute("SELECT target, value FROM py_values"))
    resolver.stores = {}  # targets are found as their own declarations show them
    for path in paths:
        if path not in resolver.file_ids:
            continue
        conn.execute("DELETE FROM py_values WHERE path = ?", (path,))
        rows = sorted(set(_rows(resolver, path)), key=lambda row: (row[0], row[1] or ""))
        conn.executemany(
            "INSERT INTO py_values(path, target, value) VALUES (?, ?, ?)", [(path, *row) for row in rows]
        )
    resolver.deps = set()
    resolver.stores = None
    resolver.forget()
    after = set(conn.execute("SELECT target, value FROM py_values"))
    return {target.partition("::")[0] for target, _ in before ^ after}


def _rows(resolver: Resolver, path: str) -> Iterator[Row]:
    facts = resolver.facts(path)
    for chain in facts.get("changes", ()):
        for target in _targets(resolver, path, chain):
            yield target, None
    for chain, value in facts.get("fills", ()):
        for target in _targets(resolver, path, chain):
            yield target, value if _holds_items(resolver, target) else None
    for chain, value in facts.get("stores", ()):
        for target in _targets(resolver, path, chain, _REBOUND):
            yield target, value
        head, _, name = chain.rpartition("/")
        if name in _MAKERS and head:
            # `C.__new__ = f` after the class: calling C runs f (a metaclass's `__call__` too)
            made = resolver.deref_class(resolver.resolve(path, head))
            if made is not None and made[0] == "s" and resolver.syms[made[1]].kind in CLASSLIKE:
                yield _key(resolver.syms[made[1]]), "^" + name
        escaped = _escape(resolver, path, chain, value)
        if escaped is not None:
            yield escaped
    for kind, value in facts.get("casts", ()):
        yield from _cast(resolver, path, kind, value)
    for callee, key, value in facts.get("passes", ()):
        yield from _kept(resolver, path, callee, key, value)
    nothing = set(facts.get("vnone", ()))  # a member only ever set to None adds no value
    for symbol_path, syms in resolver.table(path).items():
        sym = syms[0]
        owner_path, _, name = symbol_path.rpartition(".")
        if sym.kind not in VALUED or not owner_path or symbol_path in nothing:
            continue
        owner = resolver.symbol(path, owner_path)
        if owner is not None and owner.kind in CLASSLIKE:
            for base_member in resolver.overridden(owner, name):
                yield _key(base_member), "@" + symbol_path


# functions, methods and classes a store may bind again (`K.make = lambda self: B()`): a call
# of one is then unknown (ModuleLookups.stored)
_REBOUND = ("function", "method", "property", "class")
# methods that decide what calling a class gives, stored into it from outside its body
_MAKERS = frozenset({"__new__", "__call__"})


def _targets(resolver: Resolver, path: str, chain: str, rebound: tuple[str, ...] = ()) -> Iterator[str]:
    """The variables and attributes ``chain`` (in ``path``) may be (and the ``rebound`` kinds)."""
    for entity in alternatives(resolver.resolve(path, chain)):
        if entity is not None and entity[0] == "s":
            sym = resolver.syms[entity[1]]
            if sym.kind in VALUED or sym.kind in rebound:
                yield _key(sym)


def _escape(resolver: Resolver, path: str, chain: str, value: str | None) -> Row | None:
    """``(class key, "!<outside class>.<attribute>")`` when the store ``chain = value`` puts an
    instance of a project class into an attribute an outside class declares (inherited by a
    project class, ``?werkzeug.test.Client.x``, or of an outside instance, ``pkg.C.().x``)."""
    target = resolver.resolve(path, chain)
    if not value or target is None:
        return None
    if target[0] == "s":
        found = _overriding(resolver, resolver.syms[target[1]])
        if found is None:
            return None
        owner, attribute = found
    elif target[0] == "x" and str(target[1]).startswith("?"):  # inherited: `?werkzeug.test.Client.x`
        owner, _, attribute = str(target[1])[1:].rpartition(".")
        if not owner:
            return None
    elif target[0] == "x" and (member := instance_member(str(target[1]))) is not None:
        owner, attribute = member
    elif target[0] == "x" and (variable := module_variable(str(target[1]))) is not None:
        owner, attribute = variable  # `sys.stdout = sink`: print calls `sink.write`
    else:
        return None
    made = resolver.deref(resolver.resolve(path, value))
    if made is None or made[0] != "i" or not attribute.isidentifier():
        return None
    cls = resolver.syms[made[1]]
    return _key(cls), f"!{owner}.{attribute}"


def _cast(resolver: Resolver, path: str, kind: str, value: str) -> Iterator[Row]:
    """``(class key, "=<outside class>")`` for each project class whose instance ``cast(T, x)``
    turns into an outside class's: code reading a T calls its members by T's names (click yields
    ``cast(t.TextIO, _PagerWriter(…))`` and callers close it with ``pager.close()``)."""
    outside = resolver.deref_class(resolver.resolve(path, kind))
    if outside is None or outside[0] != "x" or not outside[1] or str(outside[1]).startswith("?"):
        return
    for made in alternatives(resolver.deref(resolver.resolve(path, value))):
        if made is not None and made[0] == "i":
            yield _key(resolver.syms[made[1]]), f"={outside[1]}"


def _kept(resolver: Resolver, path: str, callee: str, key: str, value: str) -> Iterator[Row]:
    """``(class key, "!<outside class>.<attribute>")`` for each project object given to the
    construction of an outside class that keeps it in an attribute (flask gives its session
    serializer to itsdangerous's ``URLSafeTimedSerializer(serializer=…)``, which calls
    ``self.serializer.loads``): as a store into that attribute."""
    made_class = resolver.resolve(path, callee)
    if made_class is None or made_class[0] != "x" or not made_class[1] or str(made_class[1]).startswith("?"):
        return
    top, dot, _ = str(made_class[1]).partition(".")
    if dot and top != "builtins" and not importable(top):
        # a package whose source is not installed where astmcp reads (nor in the project's
        # virtualenv) is given the object: it may keep it and call any of its members by name
        for made in alternatives(_held(resolver, resolver.resolve(path, value))):
            if made is not None and made[0] == "i":
                yield _key(resolver.syms[made[1]]), f"?{made_class[1]}{key}"
        return
    # members read off the argument (a known table first: `redirect_stdout(c)` keeps `c` for
    # `print` to write to), and the attribute a constructed class keeps it in
    yield from _read_argument(resolver, path, str(made_class[1]), key, value)
    kept = kept_argument(str(made_class[1]), key)
    if not kept:
        return
    for made in alternatives(_held(resolver, resolver.resolve(path, value))):
        if made is not None and made[0] == "i":
            for attribute in sorted(kept):
                yield _key(resolver.syms[made[1]]), f"!{made_class[1]}.{attribute}"


def _held(resolver: Resolver, given: Entity) -> Entity:
    """What a value is, through variables holding another's (`serializer = session_json_serializer`)."""
    for _ in range(4):
        held = resolver.deref(given)
        if held == given:
            break
        given = held
    return given


def _read_argument(resolver: Resolver, path: str, function: str, key: str, value: str) -> Iterator[Row]:
    """``(class key, "^<outside function><key>")`` for each project object given to an outside
    function that reads members off that argument (``json.dump(data, sink)`` calls
    ``sink.write``; ``print(…, file=sink)`` too): refactor.family_guard asks which members."""
    given = resolver.deref(resolver.resolve(path, value))
    instances = [made for made in alternatives(given) if made is not None and made[0] == "i"]
    if not instances or not argument_reads(function, key):
        return
    for made in instances:
        yield _key(resolver.syms[made[1]]), f"^{function}{key}"


def _overriding(resolver: Resolver, sym: Sym) -> tuple[str, str] | None:
    """``(outside class, attribute)`` when ``sym`` is a project class's attribute overriding one a
    direct outside base declares (flask's ``Request.json_module`` over werkzeug's): code of that
    base reads what the project stores there."""
    owner_path, _, attribute = sym.symbol_path.rpartition(".")
    owner = resolver.symbol(sym.path, owner_path) if owner_path and sym.kind in VALUED else None
    if owner is None or owner.kind not in CLASSLIKE:
        return None
    for base in resolver.facts(owner.path).get("bases", {}).get(owner.symbol_path, ()):
        found = resolver.deref_class(resolver.resolve(owner.path, base) if base else None)
        if found is not None and found[0] == "x" and found[1] and class_defines(str(found[1]), attribute):
            return str(found[1]), attribute
    return None


def _holds_items(resolver: Resolver, key: str) -> bool:
    """Whether the variable or attribute ``key`` holds a builtin container (a display, a new
    empty one, a union of them): what a file appends to it is then an item of it too (else, a
    project object's own ``append``, unknown)."""
    path, _, symbol_path = key.partition("::")
    chain = resolver.facts(path).get("vtypes", {}).get(symbol_path, "")
    return holds_items(chain) or chain.startswith("U:")


def _key(sym: Sym) -> str:
    return f"{sym.path}::{sym.symbol_path}"
