"""Python linker: resolves the per-file chains of :mod:`astmcp.resolve.python_facts`
across the project and writes ``refs``, ``edges``, ``imports.resolved_path``.

Entities met while resolving a chain:
``("m", file)`` module, ``("d", folder)`` namespace package, ``("s", id)`` symbol,
``("i", id)`` instance of a class, ``("u", id)`` ``super()`` of a class,
``("x", name)`` something outside the project (or no symbol), ``None`` unknown.

Incremental: each linked file records what its resolution consulted
(``link_deps``): a module's top-level name ``path::name`` (the name's symbols and
per-name facts), or the whole ``path`` (its star imports, ``__all__``, unions,
fixtures); a change re-links the changed files and the files that consulted what
changed, not the project.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable
from typing import Any

from astmcp.index.indexer import Changes
from astmcp.model import PYTHON
from astmcp.resolve.link_rows import drop_indexes, remap_symbol_ids
from astmcp.resolve.python_external import (
    class_defines,
    environment_fingerprint,
    importable,
    instance_member,
    is_module,
)
from astmcp.resolve.python_facts import NAME as FACTS
from astmcp.resolve.python_families import either_member, union_member, union_receivers
from astmcp.resolve.python_lookups import (
    CLASSLIKE,
    OPAQUE_KEYWORD,
    Entity,
    Sym,
    alternatives,
    is_either,
    name_dep,
)
from astmcp.resolve.python_modules import SUBCLASSES, TEST_CLASSES, is_package, is_test_file, path_key
from astmcp.resolve.python_resolver import Resolver
from astmcp.resolve.python_values import record_values
from astmcp.resolve.python_vocab import DATA_KEY, DOCTEST_LOCAL, DOCTEST_OUTPUT, SLOT_NAME
from astmcp.resolve.templates import TEMPLATE

# stored before a chain whose receiver resolved to nothing known: such a `name` hit is as
# untyped as one without a chain (the unique-member rule may make it `likely`)
UNKNOWN_RECEIVER = "?"
# the stored target of a name hit on an instance of an outside class lacking the member
OUTSIDE_INSTANCE = "X:"
# a member of a value that is one of several project types whose members are of unrelated
# override families: ``E:`` and the members' keys (``<file>::<symbol path>``, one per line)
EITHER_MEMBER = "E:"
# a value that is one of several things, some of them outside the project's (``r = Doc()`` then
# ``r = make()`` of a ``Template``): a name hit the unique-member rule never makes ``likely``
MIXED_RECEIVER = "M:"
# all three keep the occurrence's chain after a tab, for the row to be judged anew when relinked
CHAIN_KEPT = "\t"


def _named_outside(resolver: Resolver, path: str, target: str, choices: list[Entity]) -> bool:
    """Whether an alternative of the receiver of ``target`` is a named thing outside the project
    (``string.Template.()``: what an outside class or function made), not merely a value of no
    known origin (an item of ``**kwargs``, of a builtin container), which the linker folds into
    the same anonymous outside entity when it joins alternatives; a ``U:`` union's are read one by
    one for their names."""
    if any(c is not None and c[0] == "x" and c[1] for c in choices):
        return True
    found = union_receivers(resolver, path, target.rpartition("/")[0])
    return any(r is not None and r[0] == "x" and r[1] for r in found or ())


def judged(target: str) -> str:
    """What a stored ``X:``/``E:`` target says (the chain it keeps left out)."""
    return target.partition(CHAIN_KEPT)[0]


def either_keys(target: str | None) -> set[str]:
    """The members (``<file>::<symbol path>``) a stored ``E:`` target lists; none for another."""
    if target is None or not target.startswith(EITHER_MEMBER):
        return set()
    return set(judged(target)[len(EITHER_MEMBER) :].split("\n"))


_EDGE_KIND = {
    "call": "calls",
    "import": "imports",
    "export": "imports",
    "inherit": "inherits",
    "read": "references",
    "write": "references",
    "attribute": "references",
    "type": "references",
    "string": "references",
}


def _classify(
    resolver: Resolver, path: str, row: tuple[Any, ...], entity: Entity
) -> tuple[int | None, str, str]:
    """(symbol id, kind, confidence) of one occurrence."""
    _, line, col, _, kind, target, _ = row
    if target is None or target.startswith((TEMPLATE, DOCTEST_LOCAL, DOCTEST_OUTPUT, DATA_KEY, SLOT_NAME)):
        return None, kind, "name"  # no chain, a member name made at run time, a doctest's variable
    if target[0] == "D" and (entity is None or entity[0] != "s"):
        # a part of a dotted string that reaches no project symbol: the plain string rule, unless
        # the path reaches nothing at all (`attrgetter("pos.x")`, `"node.parent.name"`): then it is
        # no module path but a chain of attribute names, each one a hit
        name = row[0]
        chained = entity is None or not importable(target[2:].partition("/")[0])
        return None, kind, ("name" if "_" in name.strip("_") or chained else "none")
    if entity is None:
        # an attribute of an unknown receiver is a name hit; a keyword of an unknown callee is nothing
        last = target.rpartition("/")[2]
        return None, kind, ("name" if last and last[0] != "=" and "/" in target else "none")
    if entity == OPAQUE_KEYWORD:
        return None, kind, "name"
    if entity[0] != "s":
        probe = f"{line}:{col}" in resolver.facts(path).get("probes", ())
        if kind == "string" and _probe_outside(resolver, path, target, probe):
            return None, kind, "name"
        if kind in ("attribute", "call", "write") and (
            undeclared_member_class(target, entity) or _made_at_run_time(entity)
        ):
            return None, kind, "name"
        return None, kind, "none"
    sym = resolver.syms[entity[1]]
    if sym.name_line == line and sym.name_col == col and sym.path == path:
        kind = "definition"
    return sym.id, kind, "certain"


def _made_at_run_time(entity: Entity) -> bool:
    """Whether ``entity`` is read, through attributes, off what calling an outside call's result
    gives (``namedtuple("Spec", ("spec", "openapi"))(spec, converter).openapi``,
    ``functools.partial(f)().x``): an instance of a class made at run time, whose attributes hold
    what it was given, or whatever a wrapped callable returns. No outside class declares what
    it holds, and it may be a project object."""
    if entity is None or entity[0] != "x":
        return False
    made, _, rest = str(entity[1]).partition(".().()")
    return bool(made) and rest.startswith(".")


def undeclared_member_class(target: str, entity: Entity) -> str:
    """``x.name`` where x is an instance of an outside class that does not have ``name``: the
    class (qualified), else "". Code reads such a member where x is a project subclass
    (``except Exception as e:`` then ``e.template_debug``, set on django's own errors): a name
    hit of the members of the class's project subclasses (stored as ``X:<class>``, sorted out by
    query.references), not something outside."""
    if entity is None or entity[0] != "x":
        return ""
    found = instance_member(str(entity[1]))
    if found is None:
        return ""
    cls, member = found
    if target.startswith("G:") and "." not in cls:
        cls = f"builtins.{cls}"
    return cls if class_defines(cls, member) is False else ""


def _held_class(resolver: Resolver, symbol_id: int) -> int:
    """The class a base written as a value holds (``class Other(serializer.signer)`` of a
    ``signer: type[Signer]``: Signer or a subclass, whose members Other's override), else the
    symbol itself (a class, or a value of unknown type: a base that may be any class)."""
    if resolver.syms[symbol_id].kind in CLASSLIKE:
        return symbol_id
    held = resolver.deref_class(("s", symbol_id))
    if held is not None and held[0] == "s" and resolver.syms[held[1]].kind in CLASSLIKE:
        return int(held[1])
    return symbol_id


def _held_outside(resolver: Resolver, symbol_id: int) -> str | None:
    """The outside class a base written as a variable holds (``real_datetime = datetime.datetime``
    then ``class FakeDatetime(real_datetime)``): its name, so the family guard reads its members
    as those of a base written out; None for a class or anything else."""
    if resolver.syms[symbol_id].kind in CLASSLIKE:
        return None
    held = resolver.deref_class(("s", symbol_id))
    if held is not None and held[0] == "x" and held[1] and not str(held[1]).startswith("?"):
        return str(held[1])
    return None


def _outside_member(target: str, entity: Entity) -> bool:
    """Whether ``entity``, one thing a member may be, is something outside the project's: a
    builtin container's member, or an outside value's that its class declares."""
    return entity is not None and entity[0] in ("x", "e") and not undeclared_member_class(target, entity)


def _probe_outside(resolver: Resolver, path: str, target: str, probe: bool = False) -> bool:
    """Whether an attribute string (``getattr(x, "name")``, python_records.attribute_string) whose
    member is outside the project may still name a project member: unless x is an outside module
    (``sys``) or an outside class, or an instance of one, that declares the member (``stream: TextIO``
    and ``"encoding"``), it probes what the type does not promise (``hasattr(stream: IO, "color")`` for a
    project writer passed there), as an attribute read could not."""
    receiver, _, member = target.rpartition("/")
    if not receiver or not member.isidentifier():
        return False  # no attribute string (`callee/~key`: a keyword of an outside callee)
    outside = resolver.deref(resolver.resolve(path, receiver))  # `self._stream`: what it holds
    if outside is None or outside[0] != "x":
        return False
    value = str(outside[1])
    instance = value.endswith(".()")
    if probe and instance:
        # `getattr(stream, "read1", None)`, `hasattr(…)`: the code expects the member may be
        # missing, so the object may be another type than declared, a project one duck-typing it
        # (click's _FixupStream gets an EchoingStdin as its BinaryIO): even a declared member probes
        return True
    if class_defines(value[:-3] if instance else value, member) is True:
        return False
    return instance or not is_module(value)


def untyped(target: str | None) -> bool:
    """Whether a stored ``target_key`` leaves the receiver unknown (no chain, or one resolving
    to nothing known)."""
    return target is None or target.startswith(UNKNOWN_RECEIVER)


def _test_symbols(table: dict[str, list[Sym]], facts: dict[str, Any]) -> set[str]:
    """Symbol paths of pytest/unittest tests in a test file."""
    bases = facts.get("bases", {})
    classes = set()
    for path, syms in table.items():
        if syms[0].kind != "class":
            continue
        name = path.rsplit(".", 1)[-1]
        base_names = [b.rsplit("/", 1)[-1].rsplit(":", 1)[-1] for b in bases.get(path, ())]
        if name.startswith("Test") or any(b.endswith(("TestCase", "Test", "Tests")) for b in base_names):
            classes.add(path)
    out = set(classes)
    for path, syms in table.items():
        if syms[0].kind not in ("function", "method"):
            continue
        parent, _, name = path.rpartition(".")
        if name.startswith("test") and (not parent or parent in classes):
            out.add(path)
    return out


class PythonLinker:
    def __call__(self, conn: sqlite3.Connection, changes: Changes) -> None:
        fresh: dict[str, dict[str, Any]] = {}
        for path, facts in changes.facts.items():
            if facts.language == PYTHON:
                fresh[path] = facts.extra.get(FACTS) or {"refs": []}
        # what outside modules astmcp can read changed (a dependency installed, a virtualenv found):
        # every file's outside facts are judged again
        environment = environment_fingerprint()
        stored = conn.execute("SELECT value FROM meta WHERE key = 'py_environment'").fetchone()
        moved = stored is not None and stored[0] != environment
        if stored is None or moved:
            conn.execute(
                "INSERT OR REPLACE INTO meta(key, value) VALUES ('py_environment', ?)", (environment,)
            )
        if not fresh and not changes.removed_paths and not moved:
            return
        resolver = Resolver(conn, fresh)
        existing = conn.execute("SELECT 1 FROM module_facts LIMIT 1").fetchone() is not None and not moved
        for path in changes.removed_paths:
            conn.execute("DELETE FROM module_facts WHERE path = ?", (path,))
        reshaped: list[str] = []  # changed files whose module-wide facts changed
        renamed: list[str] = []  # `path::name` of top-level names whose symbols or facts changed
        id_map: list[tuple[int, int]] = []
        for path, payload in fresh.items():
            data = json.dumps(
                {k: v for k, v in payload.items() if k != "refs"}, separators=(",", ":"), sort_keys=True
            )
            symbols = [(sym.symbol_path, sym.kind, sym.id) for sym in _in_order(resolver.table(path))]
            old = conn.execute("SELECT data, symbols FROM module_facts WHERE path = ?", (path,)).fetchone()
            old_rest, old_names = _by_name(json.loads(old[0]), json.loads(old[1])) if old else ("", {})
            new_rest, new_names = _by_name(json.loads(data), symbols)
            if old is None or old_rest != new_rest:
                reshaped.append(path)
            else:
                # What others resolved into an unchanged name is unchanged but for symbol ids.
                for name in old_names.keys() | new_names.keys():
                    before, after = old_names.get(name), new_names.get(name)
                    if before is not None and after is not None and before[0] == after[0]:
                        id_map.extend(zip(before[1], after[1], strict=True))
                    else:
                        renamed.append(name_dep(path, name))
            conn.execute(
                "INSERT OR REPLACE INTO module_facts(path, data, symbols) VALUES (?, ?, ?)",
                (path, data, json.dumps(symbols, separators=(",", ":"))),
            )
        full = changes.full or not existing
        if full:
            targets = list(resolver.file_ids)
        else:
            remap_symbol_ids(conn, id_map)
            targets = sorted(
                set(fresh) | self.dependants(conn, resolver, [*reshaped, *changes.removed_paths], renamed)
            )
        # Values files give what others declare (python_values), recorded before any file is
        # linked; where those moved, the declaring modules and what consulted them are linked too.
        if full:
            conn.execute("DELETE FROM py_values")
        else:
            for path in changes.removed_paths:
                conn.execute("DELETE FROM py_values WHERE path = ?", (path,))
        moved = record_values(conn, resolver, targets)
        if moved and not full:
            targets = sorted(set(targets) | moved | self.dependants(conn, resolver, moved))
        # A bulk load is faster into unindexed tables; the indexes come back at the end.
        dropped = drop_indexes(conn) if full else []
        try:
            for path in targets:
                if path in resolver.file_ids:
                    self.link_file(conn, resolver, path)
        finally:
            for sql in dropped:
                conn.execute(sql)

    @staticmethod
    def dependants(
        conn: sqlite3.Connection, resolver: Resolver, paths: Iterable[str], names: Iterable[str] = ()
    ) -> set[str]:
        """Files that consulted any of ``paths`` (whole modules: any of their names too)
        or any of ``names`` (``path::name`` keys)."""
        paths = list(paths)
        keys: set[str] = set(names)
        ids: set[int] = set()
        if any(is_test_file(p) for p in paths) or any(is_test_file(n.partition("::")[0]) for n in keys):
            keys.add(TEST_CLASSES)  # a test class may have come, gone or changed its bases
        if any(p.endswith((".py", ".pyi")) for p in [*paths, *(n.partition("::")[0] for n in keys)]):
            keys.add(SUBCLASSES)  # a class may have come, gone or changed its bases
        for path in paths:
            if not path.endswith((".py", ".pyi")):
                continue
            keys.add(path)
            keys.add("?@" + path_key(path))
            keys.update("?" + name for name in resolver.modules.names_of(path))
            prefix = name_dep(path, "")
            ids.update(
                row[0]
                for row in conn.execute(
                    "SELECT DISTINCT file_id FROM link_deps WHERE dep >= ? AND dep < ?",
                    (prefix, prefix[:-1] + chr(ord(prefix[-1]) + 1)),
                )
            )
        if keys:
            ids.update(
                row[0]
                for row in conn.execute(
                    f"SELECT DISTINCT file_id FROM link_deps WHERE dep IN ({','.join('?' * len(keys))})",
                    tuple(keys),
                )
            )
        by_id = {v: k for k, v in resolver.file_ids.items()}
        return {by_id[i] for i in ids if i in by_id}

    def link_file(self, conn: sqlite3.Connection, resolver: Resolver, path: str) -> None:
        file_id = resolver.file_ids[path]
        payload = resolver.fresh.get(path)
        # A dependant keeps its rows and gets only those whose resolution changed updated;
        # a changed file's rows went with its old version and are inserted here.
        stored: list[tuple[int, int | None, str, str, str | None]] = []
        if payload is not None:
            rows: list[tuple[Any, ...]] = [tuple(r) for r in payload.get("refs", ())]
        else:
            rows = []
            for row_id, symbol_id, confidence, *row in conn.execute(
                "SELECT id, symbol_id, confidence, name, line, col, end_col, kind, target_key, scope_path"
                " FROM refs WHERE file_id = ?",
                (file_id,),
            ):
                stored.append((row_id, symbol_id, row[4], confidence, row[5]))
                if row[5] and row[5].startswith(UNKNOWN_RECEIVER):
                    row[5] = row[5][1:]
                elif row[5] and CHAIN_KEPT in row[5]:
                    row[5] = row[5].partition(CHAIN_KEPT)[2]  # `X:`, `E:`: judged anew
                rows.append(tuple(row))
            conn.execute("DELETE FROM edges WHERE file_id = ?", (file_id,))
            conn.execute("DELETE FROM link_deps WHERE file_id = ?", (file_id,))
        resolver.deps = set()
        table = resolver.table(path)
        facts = resolver.facts(path)
        tests = _test_symbols(table, facts) if is_test_file(path) else set()
        out = []
        edges: dict[tuple[int | None, int | None, str | None, str], int] = {}
        for row in rows:
            name, line, col, end_col, kind, target, scope = row
            chained = target and not target.startswith(
                (TEMPLATE, DOCTEST_LOCAL, DOCTEST_OUTPUT, DATA_KEY, SLOT_NAME)
            )
            entity = resolver.resolve(path, target) if chained else None
            either: list[int] = []
            mixed = False  # one of several things, not all of the project: as untyped as unknown
            outside_part = False  # ... and one of them is known to be outside it
            if is_either(entity):  # one of several things: a member of one family, else a name hit
                assert target is not None
                choices = alternatives(entity)
                entity, either = either_member(resolver, entity, target.rpartition("/")[2])
                if entity is None and not either and target.startswith("U:"):
                    entity, either = union_member(resolver, path, target)  # the alternatives one by one
                if entity is None and not either and all(_outside_member(target, c) for c in choices):
                    entity = ("x", "")  # `DEFAULTS.copy()` of a dict of values of several kinds
                mixed = entity is None and not either
                outside_part = mixed and _named_outside(resolver, path, target, choices)
            elif entity is None and target is not None and target.startswith("U:"):
                entity, either = union_member(resolver, path, target)
            symbol_id, kind, confidence = _classify(resolver, path, row, entity)
            stored_target = target
            if (
                confidence == "name"
                and target is not None
                and target[0] != "D"
                and "/" in target
                and not target.startswith(DATA_KEY)  # (a string given to a call: kept as it is)
                and not target.startswith(TEMPLATE)  # (a made name's owner class: `@@file::C`)
            ):
                receiver = target.rpartition("/")[0]
                outside = undeclared_member_class(target, entity)
                if either:
                    keys = (f"{resolver.syms[i].path}::{resolver.syms[i].symbol_path}" for i in either)
                    stored_target = EITHER_MEMBER + "\n".join(keys) + CHAIN_KEPT + target
                elif outside:
                    stored_target = OUTSIDE_INSTANCE + outside + CHAIN_KEPT + target
                elif outside_part:
                    stored_target = MIXED_RECEIVER + CHAIN_KEPT + target
                elif mixed or resolver.resolve(path, receiver) is None:
                    stored_target = UNKNOWN_RECEIVER + target
            out.append((file_id, symbol_id, stored_target, name, line, col, end_col, kind, confidence, scope))
            if kind == "definition" or confidence == "name":
                continue
            src_sym = table.get(scope) if scope else None
            src = src_sym[0].id if src_sym else None
            if symbol_id is not None:
                edge_kind = _EDGE_KIND.get(kind, "references")
                if kind == "inherit":
                    held = _held_outside(resolver, symbol_id)
                    if held is not None:  # `class FakeDatetime(real_datetime)`: datetime.datetime
                        edges.setdefault((src, None, held, "inherits"), line)
                        continue
                    symbol_id = _held_class(resolver, symbol_id)
                key = (src, symbol_id, None, edge_kind)
                edges.setdefault(key, line)
                if tests and scope and symbol_id != src:
                    test_path = _enclosing_test(scope, tests)
                    if test_path is not None and resolver.syms[symbol_id].symbol_path not in tests:
                        tsrc = table[test_path][0].id
                        edges.setdefault((tsrc, symbol_id, None, "tests"), line)
            elif kind == "inherit" and entity is not None and entity[0] == "x" and entity[1]:
                edges.setdefault((src, None, _external_name(target, entity[1]), "inherits"), line)
        for symbol_path, syms in table.items():
            parent = symbol_path.rpartition(".")[0]
            parent_syms = table.get(parent) if parent else None
            for sym in syms:
                edges.setdefault(
                    (parent_syms[0].id if parent_syms else None, sym.id, None, "contains"), sym.line
                )
        if payload is not None:
            conn.executemany(
                "INSERT INTO refs(file_id, symbol_id, target_key, name, line, col, end_col, kind, confidence,"
                " scope_path) VALUES (?,?,?,?,?,?,?,?,?,?)",
                out,
            )
        else:
            conn.executemany(
                "UPDATE refs SET symbol_id = ?, kind = ?, confidence = ?, target_key = ? WHERE id = ?",
                [
                    (new[1], new[7], new[8], new[2], old[0])
                    for old, new in zip(stored, out, strict=True)
                    if (old[1], old[2], old[3], old[4]) != (new[1], new[7], new[8], new[2])
                ],
            )
        conn.executemany(
            "INSERT INTO edges(file_id, src_symbol_id, dst_symbol_id, dst_key, kind, line) VALUES (?,?,?,?,?,?)",
            [(file_id, src, dst, key, kind, line) for (src, dst, key, kind), line in edges.items()],
        )
        self.resolve_imports(conn, resolver, path, file_id)
        own = name_dep(path, "")
        conn.executemany(
            "INSERT INTO link_deps(file_id, dep) VALUES (?, ?)",
            [(file_id, dep) for dep in sorted(resolver.deps) if dep != path and not dep.startswith(own)],
        )

    @staticmethod
    def resolve_imports(conn: sqlite3.Connection, resolver: Resolver, path: str, file_id: int) -> None:
        updates = []
        for import_id, module, name, level in conn.execute(
            "SELECT id, module, name, level FROM imports WHERE file_id = ?", (file_id,)
        ):
            found = resolver.module(path, level, module)
            target = found[1] if found is not None and found[0] == "m" else None
            if name and name != "*" and found is not None and found[0] in ("m", "d"):
                member = resolver.member(found, name)
                if member is not None and member[0] == "m" and (found[0] == "d" or is_package(found[1])):
                    target = member[1]
            updates.append((target, import_id))
        conn.executemany("UPDATE imports SET resolved_path = ? WHERE id = ?", updates)


# per-name facts (keyed by symbol path or top-level name); the rest is module-wide
_PER_NAME = ("binds", "vtypes", "rtypes", "otypes", "dtypes", "atypes", "bases")


def _by_name(data: dict[str, Any], symbols: list[Any]) -> tuple[str, dict[str, tuple[list[Any], list[int]]]]:
    """A module's facts split into the module-wide part (as JSON) and, per top-level name,
    what resolving it can read (its symbols' paths and kinds in order, its per-name facts)
    with its symbols' ids."""
    names: dict[str, tuple[list[Any], list[int]]] = {}
    for symbol_path, kind, symbol_id in symbols:
        found = names.setdefault(symbol_path.partition(".")[0], ([], []))
        found[0].append((symbol_path, kind))
        found[1].append(symbol_id)
    for key in _PER_NAME:
        for symbol_path, value in sorted(data.get(key, {}).items()):
            names.setdefault(symbol_path.partition(".")[0], ([], []))[0].append((key, symbol_path, value))
    rest = json.dumps({k: v for k, v in data.items() if k not in _PER_NAME}, sort_keys=True)
    return rest, names


def _in_order(table: dict[str, list[Sym]]) -> list[Sym]:
    return sorted((sym for syms in table.values() for sym in syms), key=lambda s: (s.line, s.name_col, s.id))


def _enclosing_test(scope: str, tests: set[str]) -> str | None:
    current = scope
    while current:
        if current in tests:
            return current
        current = current.rpartition(".")[0]
    return None


def _external_name(target: str, resolved: str) -> str:
    if target.startswith("G:"):
        return f"builtins.{resolved}" if "." not in resolved else resolved
    return resolved


def make_linker() -> Callable[[sqlite3.Connection, Changes], None]:
    return PythonLinker()
