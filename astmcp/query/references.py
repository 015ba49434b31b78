"""``ast_find_references`` and the reference API the refactor tools share.

``collect_references`` answers from the ``refs`` table the linkers fill:
certain rows point at the symbol (or its stub twin, ``m.py`` + ``m.pyi`` being
one symbol); ``name`` rows share the name with an unknown receiver. A member
that is the only one of its name in the project turns its attribute ``name``
hits into ``likely`` ones. Occurrences through an import alias
(``from m import old as other; other()``) are not occurrences of the name:
the import site is listed, the alias' uses are the alias'.
"""

from __future__ import annotations

import functools
import re
import sqlite3
from collections import deque
from collections.abc import Iterable
from pathlib import Path
from typing import ClassVar, Literal

from pydantic import BaseModel, Field

from astmcp.errors import Conflict
from astmcp.model import Reference
from astmcp.query.common import (
    PASSING_MODULES,
    Formatted,
    Paged,
    PageOut,
    SymbolRow,
    SymbolTarget,
    ancestry,
    classes_declare,
    mangled,
    outside_imports,
    page_fields,
    project_package,
    query_symbols,
    read_indexed_lines,
    unresolved_base,
    with_subclasses,
)
from astmcp.query.data_keys import DataKeys
from astmcp.query.module_reach import ModuleReach
from astmcp.query.outside_fed import OutsideFed
from astmcp.query.package_members import JS_FILES, PackageMembers
from astmcp.query.package_types import package_defines, project_root
from astmcp.query.parameters import Parameter, resolve_target
from astmcp.query.printed_names import PrintedNames
from astmcp.query.slot_names import SlotNames
from astmcp.query.stdlib_members import stdlib_class_members
from astmcp.query.string_reach import namespace_escapes, strings_cannot_reach
from astmcp.query.ts_outside_fed import TsOutsideFed
from astmcp.query.ts_parts import ModuleParts
from astmcp.resolve.python import OUTSIDE_INSTANCE, UNKNOWN_RECEIVER, either_keys, judged, untyped
from astmcp.resolve.python_external import (
    class_ancestors,
    class_defines,
    computed_members,
    module_class_members,
    stdlib_lacks,
)
from astmcp.resolve.python_lookups import alternatives
from astmcp.resolve.python_resolver import Resolver as PythonResolver
from astmcp.resolve.python_vocab import DATA_KEY, DOCTEST_LOCAL, DOCTEST_OUTPUT, SLOT_NAME
from astmcp.resolve.templates import TEMPLATE, TEMPLATE_NAME, TEMPLATE_OWNER, template_reaches
from astmcp.resolve.ts_library import (
    GLOBAL_OBJECTS,
    JS_LIBRARY_MEMBERS,
    lib_type_members,
    lib_types_declaring,
)
from astmcp.resolve.ts_scopes import GLOBAL
from astmcp.resolve.typescript import JS_GLOBAL, MISSING_NAMESPACE
from astmcp.tools import tool
from astmcp.workspace import Workspace

__all__ = [
    "STRUCTURAL_BASES",
    "VALUE_BASE",
    "FamilyMemo",
    "Reference",
    "collect_references",
    "external_defines",
    "find_references",
    "override_family",
    "single_candidate",
    "twins",
    "unread_bases",
]

_MEMBER_KINDS = ("method", "property", "attribute", "getter", "setter", "constructor")
# outside modules whose containers and iterators hold what the caller gave them (project objects)
_MAX_JOINED = 4096  # classes walked below an override family's roots for the bases they join
_CONFIDENCE_ORDER = {"certain": 0, "likely": 1, "name": 2}
# a receiver a mock library made (`with patch("subprocess.Popen") as m`, `Mock()`, `mocker.patch`;
# `M:`: a mock standing in for a project object, python_resolver)
_MOCK_ROOT = re.compile(
    r"\??(?:I:\d+:(?:unittest\.mock|mock|pytest_mock)[:/.]|I:\d+:unittest:/?mock/|F:mocker/|M:)"
)
# what every mock has of its own (unittest.mock's API): never a project member off a mock
_MOCK_API = frozenset(
    {
        "return_value", "side_effect", "called", "call_count", "call_args", "call_args_list",
        "mock_calls", "method_calls", "assert_called", "assert_called_once", "assert_called_with",
        "assert_called_once_with", "assert_any_call", "assert_has_calls", "assert_not_called",
        "reset_mock", "configure_mock", "attach_mock", "mock_add_spec", "await_count", "await_args",
        "await_args_list", "assert_awaited", "assert_awaited_once", "assert_awaited_with",
        "assert_awaited_once_with", "assert_any_await", "assert_has_awaits", "assert_not_awaited",
    }
)  # fmt: skip
_CONTEXT_CHARS = 200
_READ_ATTEMPTS = 5


# outside bases that make a class a structural type: a member's implementations need not name it
STRUCTURAL_BASES = frozenset({"typing.Protocol", "typing_extensions.Protocol"})


def twins(conn: sqlite3.Connection, symbol: SymbolRow) -> list[SymbolRow]:
    """The symbol with every declaration that is the same symbol: redefinitions, overloads and
    property accessors of its path in its file, and the same path in the stub beside it
    (``m.py`` and ``m.pyi``). The symbol itself comes first."""
    files = [symbol.file]
    if symbol.file.endswith(".py"):
        files.append(symbol.file + "i")
    elif symbol.file.endswith(".pyi"):
        files.append(symbol.file[:-1])
    elif symbol.file.endswith(".d.ts"):  # a hand-written declaration file and its source
        files += [symbol.file[:-5] + ".ts", symbol.file[:-5] + ".js"]
    elif symbol.file.endswith((".ts", ".js")) and not symbol.file.endswith(".d.ts"):
        files.append(symbol.file[:-3] + ".d.ts")
    found = query_symbols(
        conn,
        f"f.path IN ({','.join('?' * len(files))}) AND s.symbol_path = ? ORDER BY f.path, s.line",
        (*files, symbol.symbol_path),
    )
    return [symbol, *(row for row in found if row.id != symbol.id)]


def _library_members() -> frozenset[str]:
    """Members of the types any Python code handles; a project member sharing one of these
    names is never the single candidate for an untyped receiver."""
    import collections
    import contextvars
    import datetime
    import io
    import logging
    import pathlib
    import queue
    import re
    import threading
    import xml.etree.ElementTree

    kinds: list[type] = [
        str, bytes, bytearray, list, dict, set, frozenset, tuple, int, float, complex, object, type,
        BaseException, re.Match, re.Pattern, io.TextIOWrapper, io.BytesIO, io.StringIO, pathlib.Path,
        collections.OrderedDict, collections.deque, collections.Counter, datetime.datetime, datetime.date,
        datetime.timedelta, threading.Thread, memoryview, range, slice, property,
        threading.Event, threading.Lock().__class__, contextvars.ContextVar, queue.Queue, logging.Logger,
        xml.etree.ElementTree.Element,
    ]  # fmt: skip
    return frozenset(name for kind in kinds for name in dir(kind))


_LIBRARY_MEMBERS = _library_members()


def _unique_member(conn: sqlite3.Connection, symbol: SymbolRow, family: list[SymbolRow]) -> bool:
    python = symbol.file.endswith((".py", ".pyi"))
    library = _LIBRARY_MEMBERS if python else JS_LIBRARY_MEMBERS
    if symbol.kind not in _MEMBER_KINDS or symbol.name.startswith("__") or symbol.name in library:
        return False
    marks = ",".join("?" * len(_MEMBER_KINDS))
    owners = {
        (row[0].removesuffix("i"), row[1])
        for row in conn.execute(
            f"SELECT f.path, s.symbol_path FROM symbols s JOIN files f ON f.id = s.file_id"
            f" WHERE s.name_lower = ? AND s.name = ? AND s.kind IN ({marks})",
            (symbol.name.lower(), symbol.name, *_MEMBER_KINDS),
        )
    }
    mine = {(s.file.removesuffix("i"), s.symbol_path) for s in family}
    return owners <= mine


def single_candidate(conn: sqlite3.Connection, symbol: SymbolRow, memo: FamilyMemo | None = None) -> bool:
    """Whether untyped-receiver uses of the symbol's name are its ``likely`` references: the
    rule and the family :func:`collect_references` applies (the graph's likely edges use it)."""
    memo = memo or FamilyMemo(conn)
    same = memo.twins(symbol)
    if not symbol.file.endswith((".py", ".pyi")):
        same = _ts_meaning(memo, symbol, same)[0]
    return _unique_member(conn, symbol, same)


def collect_references(
    ws: Workspace,
    conn: sqlite3.Connection,
    symbol: SymbolRow,
    *,
    include_name_hits: bool = True,
    memo: FamilyMemo | None = None,
    family: list[SymbolRow] | None = None,
) -> list[Reference]:
    """Every occurrence of ``symbol``: certain/likely first (file, line, column), then name hits
    (left out with ``include_name_hits=False``; ``likely`` ones are always kept).

    The declaration(s) are included with ``is_declaration`` set. ``ws`` is kept for
    callers that re-read text; resolution comes from the index alone. ``memo`` shares
    class-graph lookups between the calls of one request (see :class:`FamilyMemo`). ``family``:
    the override family a rename edits together; an untyped receiver's use of the name is its
    ``likely`` reference when no project member of that name is outside it.
    """
    del ws
    memo = memo or FamilyMemo(conn)
    same = memo.twins(symbol)
    shared: list[int] = []  # TS: import/export specifiers of a same-named declaration of another meaning
    if not symbol.file.endswith((".py", ".pyi")):
        same, other = _ts_meaning(memo, symbol, same)
        shared = [s.id for s in other]
    ids = [s.id for s in same]
    declarations = {(s.file, s.name_line, s.name_col) for s in same}
    out: dict[tuple[str, int, int], Reference] = {}
    marks = ",".join("?" * len(ids))
    # an attrs private field `_size` is the `__init__` keyword `size`, linked to the field
    alias = symbol.name.lstrip("_") if symbol.file.endswith((".py", ".pyi")) else ""
    for path, line, col, end_col, kind in conn.execute(
        f"SELECT f.path, r.line, r.col, r.end_col, r.kind FROM refs r JOIN files f ON f.id = r.file_id"
        f" WHERE r.symbol_id IN ({marks}) AND r.name IN (?, ?)",
        (*ids, symbol.name, alias or symbol.name),
    ):
        key = (path, line, col)
        is_decl = key in declarations
        out[key] = Reference(path, line, col, end_col, "definition" if is_decl else kind, "certain", is_decl)
    if shared:
        for path, line, col, end_col, kind in conn.execute(
            f"SELECT f.path, r.line, r.col, r.end_col, r.kind FROM refs r JOIN files f ON f.id = r.file_id"
            f" WHERE r.symbol_id IN ({','.join('?' * len(shared))}) AND r.name = ? AND r.kind IN ('import', 'export')",
            (*shared, symbol.name),
        ):
            out.setdefault((path, line, col), Reference(path, line, col, end_col, kind, "certain", False))
    for s in same:
        key = (s.file, s.name_line, s.name_col)
        if key not in out:
            out[key] = Reference(
                s.file, s.name_line, s.name_col, s.name_end_col, "definition", "certain", True
            )
    likely = _unique_member(conn, symbol, same if family is None else [*same, *family])
    # name hits come from files of the symbol's language family; a TS/JS symbol that is no
    # member is never reached through a receiver, so only its names in strings are hits, and
    # for an exported one `ns.name` where `import * as ns` names a module that is not found
    python = symbol.file.endswith((".py", ".pyi"))
    languages = ("python",) if python else ("typescript", "javascript")
    strings_only = not python and symbol.kind not in _MEMBER_KINDS
    # a TS type (interface, type alias) exists only at compile time: no string names it at run
    # time, and type-level strings (`keyof`, `T["k"]`) name members, never the type itself
    type_only = strings_only and all(s.kind in _TS_TYPE_KINDS for s in same)
    # a module-level value of an ES module whose namespace objects are only read by static
    # member names: no string names it (query.string_reach; judged at the first string hit)
    unreachable: bool | None = None if strings_only and not type_only else False
    # ... and one whose namespace or exports object is used as a value (`run(A)`, `[A, B]`, a
    # computed `import(name)`) is read as `p.setup()` on receivers nobody typed (judged once)
    escaping: bool | frozenset[str] | None = None if strings_only and not type_only else False
    shown: bool | None = None  # whether its run-time name (`.name`) is read (judged once)
    outside: set[str] | None = None
    # Python: a module-level value is read off an untyped receiver only if the project hands a
    # module holding it on as a value (query.module_reach; judged at the first such hit)
    module_level = python and not symbol.parent_path and symbol.kind in ("function", "class", "variable")
    reach: ModuleReach | None = None
    data_keys = DataKeys(conn, symbol) if python and symbol.parent_path else None
    texts: dict[str, list[str]] = {}
    keys = {f"{s.file}::{s.symbol_path}" for s in same}
    family_keys = keys | {f"{s.file}::{s.symbol_path}" for s in family or ()}
    files = {s.file for s in same}
    # a class's private `__name` is `_Class__name`: only code in a class of that name spells it so
    private = (
        symbol.parent_path.rpartition(".")[2].lstrip("_") if mangled(symbol) and symbol.parent_path else None
    )
    classes: dict[tuple[str, str], str | None] = {}
    printed: PrintedNames | None = None
    slots: SlotNames | None = None
    if include_name_hits or likely:
        for path, line, col, end_col, kind, target, scope, language in conn.execute(
            "SELECT f.path, r.line, r.col, r.end_col, r.kind, r.target_key, r.scope_path, f.language FROM refs r"
            " JOIN files f ON f.id = r.file_id WHERE r.name = ? AND r.confidence = 'name'"
            " AND f.language IN (?, ?)",
            (symbol.name, languages[0], languages[-1]),
        ):
            if private is not None and scope is not None:
                inner = _innermost_class(conn, path, scope, classes)
                if inner is None or inner.lstrip("_") != private:
                    continue  # `cls.__instances` in another class is `_Other__instances`
            if python and symbol.parent_path and kind == "read" and end_col - col != len(symbol.name):
                continue  # `globals()[name]` reads the module's globals, no class's member
            key = (path, line, col)
            missing = symbol.exported and target is not None and target.startswith(MISSING_NAMESPACE)
            if key in out:
                continue
            if strings_only and kind != "string" and not missing:
                if kind not in ("attribute", "call", "write"):
                    continue
                if escaping is None:
                    escaping = namespace_escapes(conn, same)
                if not escaping or (isinstance(escaping, frozenset) and path not in escaping):
                    continue
            if target == DOCTEST_LOCAL and symbol.kind in _MEMBER_KINDS:
                continue  # a doctest's own variable: a bare name, never a member
            if python and target is not None and target.startswith(SLOT_NAME):
                # `__slots__ = ("name",)`: the attribute its class declares (query.slot_names)
                slots = slots or SlotNames(conn, [*same, *(family or [])])
                verdict = slots.verdict(path, target)
                if verdict == "none":
                    continue
                if verdict == "certain":
                    out[key] = Reference(path, line, col, end_col, kind, "certain", False)
                    continue
            if python and target is not None and target.startswith(DOCTEST_OUTPUT):
                # a word an example prints: the symbol's name shown (`func=isin`) when nothing
                # else may print it (query.printed_names)
                printed = printed or PrintedNames(
                    conn, symbol, same, {k for k, r in out.items() if r.confidence == "certain"}
                )
                if printed.shown_at(path, target):
                    out[key] = Reference(path, line, col, end_col, kind, "certain", False)
                    continue
            if module_level and kind in ("attribute", "call", "write") and path.endswith(".py"):
                reach = reach or ModuleReach(conn, same)
                if not reach.escapes and not reach.keeps(_line(texts, conn, path, line), col):
                    continue  # no module holding it reaches a receiver nobody typed
            # (Python targets: a TS chain's head is never judged so)
            listed = either_keys(target) if python else set()
            either = bool(listed)
            if either and not keys & listed:
                continue  # a value of one of several project types: a hit of the members it may be
            if either and listed <= family_keys:
                # ... each of them renamed with the family (rename_refs.either_partners): certain
                out[key] = Reference(path, line, col, end_col, kind, "certain", False)
                continue
            if python and target is not None and target.startswith(OUTSIDE_INSTANCE):
                # an outside class's instance lacking the member: a hit of its project subclasses'
                if outside is None:
                    outside = _outside_ancestors(conn, symbol, memo)
                if "*" not in outside and judged(target)[len(OUTSIDE_INSTANCE) :] not in outside:
                    continue
            # `{"name": v}`, `row["name"]`, `echo("name")`: data, unless something makes such
            # strings attribute names (query.data_keys)
            if (
                data_keys is not None
                and (target or "").startswith(DATA_KEY)
                and data_keys.inert(path, str(target))
            ):
                continue
            if (
                data_keys is not None
                and kind == "write"
                and judged(str(target)).rpartition("/")[2] == f"={symbol.name}"
                and data_keys.sealed()
            ):
                continue  # `f(width=8)` into an opaque `**kwargs`: a key of data, as `{"width": 8}`
            if kind == "string" and unreachable is None:
                unreachable = strings_cannot_reach(conn, same)
            if (type_only or unreachable) and kind == "string":
                # ... but a string that is the name itself may be compared with the name read at
                # run time (`x.constructor.name === "WriteLogger"`, `fmt.name`)
                if type_only or not _quoted(_line(texts, conn, path, line), col, end_col):
                    continue
                if shown is None:
                    shown = _name_shown(conn, symbol, same, texts)
                if not shown:
                    continue
            # only a receiver nobody could type is a candidate; a typed one lacking the member is not
            if not python and memo.parts.apart(path, files):
                continue  # TS/JS: no import chain joins the file to the symbol's (query.ts_parts)
            mocked = python and _MOCK_ROOT.match(str(target)) is not None
            if mocked and symbol.name in _MOCK_API:
                continue  # `mock_popen.return_value` of a `patch(…)`: the mock's own attribute
            confidence = (
                "likely"
                if likely
                # (TypeScript types every receiver: one astmcp could not type holds a value of a
                # type it did not read, which may declare the name; seen on a handful of the
                # thousands of renames measured, each a break. JS and Python receivers may be untyped)
                and language != "typescript"
                and kind != "string"
                and end_col - col == len(symbol.name)  # (not a name made at run time there)
                and untyped(target)
                and not memo.outside_rooted(target)
                and not (python and memo.stdlib_named(path, symbol.name))
                and not memo.outside_fed(path, line, col, symbol.name, python)
                and not (not python and memo.lib_typed_elsewhere(target, symbol))
                and not (not python and memo.package_named(path, line, col, symbol.name))
                else "name"
            )
            if confidence == "name" and not include_name_hits:
                continue
            out[key] = Reference(path, line, col, end_col, kind, confidence, False)
    if include_name_hits and python and symbol.parent_path:
        for path, line, col, end_col, kind in _held_variable_uses(conn, symbol, memo):
            out.setdefault((path, line, col), Reference(path, line, col, end_col, kind, "name", False))
    reaches: dict[str, set[int] | None] = {}  # a made name's owner class -> the classes self may be
    # TS/JS: a made name reaches members (`this[…]`), and classes by `x.constructor.name`; what
    # else a module holds is read by name through its namespace object alone (string_reach)
    if include_name_hits and not type_only and (python or symbol.kind in (*_MEMBER_KINDS, "class")):
        for path, line, col, end_col, target in conn.execute(
            "SELECT f.path, r.line, r.col, r.end_col, r.target_key FROM refs r JOIN files f ON f.id = r.file_id"
            " WHERE r.name = ? AND r.confidence = 'name' AND f.language IN (?, ?)",
            (TEMPLATE_NAME, languages[0], languages[-1]),
        ):
            # `getattr(self, f"visit_{type(node).__name__}")`, `this[`visit${kind}`]`: a member
            # whose name fits, or a class whose name makes one (resolve/templates.py)
            owner = str(target).partition(TEMPLATE_OWNER)[2]
            if (
                str(target).startswith(TEMPLATE)
                and template_reaches(
                    str(target),
                    symbol.name,
                    symbol.kind,
                    # (read off `self`: a name of the object's members)
                    functools.partial(_owner_member, conn, owner, reaches=reaches)
                    if owner
                    else (lambda name: _named(conn, name)),
                )
                and (python or not memo.parts.apart(path, files))
            ):
                if owner and symbol.kind != "class" and not _self_reaches(conn, owner, symbol, reaches):
                    continue  # `getattr(self, "parse_" + name)`: a member of self's classes only
                key = (path, line, col)
                out.setdefault(key, Reference(path, line, col, end_col, "string", "name", False))
    return sorted(
        out.values(), key=lambda r: (_CONFIDENCE_ORDER[r.confidence] // 2, r.file, r.line, r.column)
    )


def _innermost_class(
    conn: sqlite3.Connection, path: str, scope: str, found: dict[tuple[str, str], str | None]
) -> str | None:
    """The name of the innermost class whose body ``scope`` (a dotted symbol path in ``path``) is
    in, which Python mangles ``__name`` with; None when no class holds it."""
    if (path, scope) not in found:
        parts = scope.split(".")
        name = None
        for end in range(len(parts), 0, -1):
            if query_symbols(
                conn, "f.path = ? AND s.symbol_path = ? AND s.kind = 'class'", (path, ".".join(parts[:end]))
            ):
                name = parts[end - 1]
                break
        found[(path, scope)] = name
    return found[(path, scope)]


def _owner_member(
    conn: sqlite3.Connection, owner: str, name: str, reaches: dict[str, set[int] | None]
) -> bool:
    """Whether a member of the classes a ``self`` of ``owner`` (``file::Class``) may be is called
    ``name`` (any project symbol so called when the owner is not found)."""
    reach = _owner_reach(conn, owner, reaches)
    return _named(conn, name) if reach is None else classes_declare(conn, reach, name)


def _owner_reach(
    conn: sqlite3.Connection, owner: str, reaches: dict[str, set[int] | None]
) -> set[int] | None:
    """The classes a ``self`` of ``owner`` may be: it, those deriving from it and all their
    ancestors; None when the owner is not found."""
    if owner not in reaches:
        file, _, path = owner.partition("::")
        found = {
            c.id
            for c in query_symbols(
                conn, "f.path = ? AND s.symbol_path = ? AND s.kind = 'class'", (file, path)
            )
        }
        reaches[owner] = ancestry(conn, sorted(with_subclasses(conn, found)))[0] if found else None
    return reaches[owner]


def _self_reaches(
    conn: sqlite3.Connection, owner: str, symbol: SymbolRow, reaches: dict[str, set[int] | None]
) -> bool:
    """Whether a name made in a method of ``owner`` (``file::Class``) and read off its ``self``
    may be ``symbol``: a member of the class, of a class deriving from it, or of any of their
    ancestors (a mixin beside it); a class with a base the index could not name may be any."""
    if not symbol.parent_path:
        return False  # a module's function is no attribute of an instance
    reach = _owner_reach(conn, owner, reaches)
    if reach is None:
        return True
    classes = [
        c.id
        for c in query_symbols(
            conn, "f.path = ? AND s.symbol_path = ? AND s.kind = 'class'", (symbol.file, symbol.parent_path)
        )
    ]
    if not classes or any(c in reach for c in classes):
        return True
    return unresolved_base(conn, ancestry(conn, classes)[0])


def _held_variable_uses(
    conn: sqlite3.Connection, symbol: SymbolRow, memo: FamilyMemo
) -> list[tuple[str, int, int, int, str]]:
    """Uses of a Python member off an outside variable or attribute the project stores an
    instance of the member's class into (``sys.stdout = _NamedTextIOWrapper(…)``, then
    ``sys.stdout._original_fd = fd``; ``_state.current = Config()`` of a ``threading.local``):
    read as the outside value's member, they may be the project object's (py_values rows
    ``!sys.stdout``, ``!threading.local.current``). (path, line, col, end col, kind) each."""
    if conn.execute("SELECT 1 FROM py_values WHERE value LIKE '!%' LIMIT 1").fetchone() is None:
        return []  # (no project instance is stored into anything outside)
    owner = query_symbols(
        conn, "f.path = ? AND s.symbol_path = ? AND s.kind = 'class'", (symbol.file, symbol.parent_path)
    )
    if not owner:
        return []
    seen = {cls.id for cls in owner}
    todo = list(seen)
    while todo and len(seen) < _MAX_JOINED:
        for sub in memo.subclasses(todo.pop()):
            if sub not in seen:
                seen.add(sub)
                todo.append(sub)
    classes = query_symbols(conn, f"s.id IN ({','.join('?' * len(seen))})", tuple(seen))
    keys = [f"{cls.file}::{cls.symbol_path}" for cls in classes]
    marks = ",".join("?" * len(keys))
    held = {
        str(value)[1:]
        for (value,) in conn.execute(
            f"SELECT DISTINCT value FROM py_values WHERE target IN ({marks}) AND value LIKE '!%'", keys
        )
    }
    if not held:
        return []
    resolver = PythonResolver(conn, {})
    found: list[tuple[str, int, int, int, str]] = []
    for path, line, col, end_col, kind, target in conn.execute(
        "SELECT f.path, r.line, r.col, r.end_col, r.kind, r.target_key FROM refs r JOIN files f ON f.id = r.file_id"
        " WHERE r.name = ? AND r.confidence = 'none' AND f.language = 'python' AND r.target_key LIKE ?",
        (symbol.name, f"%/{symbol.name}"),
    ):
        receiver = judged(str(target)).rpartition("/")[0]
        if not receiver or receiver[0] == "D":
            continue
        for alt in alternatives(resolver.resolve(path, receiver)):
            if alt is not None and alt[0] == "x" and _held_name(str(alt[1])) in held:
                found.append((path, line, col, end_col, kind))
                break
    return found


def _held_name(qualified: str) -> str:
    """An outside value's name as py_values's ``!`` rows spell it (``threading.local.().current``
    -> ``threading.local.current``)."""
    return qualified.lstrip("?").replace(".().", ".").removesuffix(".()")


def _line(texts: dict[str, list[str]], conn: sqlite3.Connection, path: str, line: int) -> str:
    """Line ``line`` of an indexed file, read once per file (empty when unreadable)."""
    if path not in texts:
        root = project_root(conn)
        try:
            texts[path] = (root / path).read_text(encoding="utf-8").split("\n") if root is not None else []
        except (OSError, UnicodeDecodeError):
            texts[path] = []
    lines = texts[path]
    return lines[line - 1] if 0 < line <= len(lines) else ""


def _quoted(text: str, col: int, end_col: int) -> bool:
    """Whether the hit at ``col``..``end_col`` (1-based) of a line is a whole string literal."""
    before, after = text[col - 2 : col - 1], text[end_col - 1 : end_col]
    return before in ("'", '"', "`") and after == before


def _name_shown(
    conn: sqlite3.Connection, symbol: SymbolRow, same: list[SymbolRow], texts: dict[str, list[str]]
) -> bool:
    """TS/JS: whether the project reads a run-time name that may be ``symbol``'s, a class's or a
    function's: ``x.constructor.name`` (any object's class, for a class) or ``.name`` right after
    a reference to it (``WriteLogger.name``)."""
    if symbol.kind not in ("class", "function"):
        return False
    if symbol.kind == "class":
        for path, line, col in conn.execute(
            "SELECT f.path, r.line, r.col FROM refs r JOIN files f ON f.id = r.file_id WHERE r.name = 'name'"
            " AND r.kind IN ('attribute', 'call') AND f.language IN ('typescript', 'javascript')"
        ):
            if _CONSTRUCTOR_READ.search(_line(texts, conn, path, line)[: col - 1]):
                return True
    marks = ", ".join("?" * len(same))
    for path, line, end_col in conn.execute(
        "SELECT f.path, r.line, r.end_col FROM refs r JOIN files f ON f.id = r.file_id"
        f" WHERE r.symbol_id IN ({marks})",
        tuple(s.id for s in same),
    ):
        if _NAME_READ.match(_line(texts, conn, path, line)[end_col - 1 :]):
            return True
    return False


_CONSTRUCTOR_READ = re.compile(r"\bconstructor\s*\??\.\s*$")  # `x.constructor.` before `name`
_NAME_READ = re.compile(r"\s*\??\.\s*name\b")  # `.name` / `?.name` right after a reference


def _named(conn: sqlite3.Connection, name: str) -> bool:
    """Whether some symbol of the project is called ``name``."""
    found = conn.execute(
        "SELECT 1 FROM symbols WHERE name_lower = ? AND name = ? LIMIT 1", (name.lower(), name)
    )
    return found.fetchone() is not None


_TS_TYPE_KINDS = ("interface", "type")
_TS_MEANINGS = {
    "interface": 1,
    "type": 1,
    "variable": 2,
    "function": 2,
    "class": 3,
    "enum": 3,
    "namespace": 3,
}


def _ts_meaning(
    memo: FamilyMemo, symbol: SymbolRow, same: list[SymbolRow]
) -> tuple[list[SymbolRow], list[SymbolRow]]:
    """TS/JS: declarations of the symbol's meaning (a type and a value may share a name, as
    ``interface X`` + ``const X``: TypeScript finds the one asked for), and the others; a
    class member's override family (extends/implements) is one symbol, as for TypeScript."""
    mine = _TS_MEANINGS.get(symbol.kind, 3)
    keep = [s for s in same if _TS_MEANINGS.get(s.kind, 3) & mine]
    other = [s for s in same if not _TS_MEANINGS.get(s.kind, 3) & mine]
    if symbol.kind in _MEMBER_KINDS and symbol.parent_path:
        seen = {s.id for s in keep}
        for member in override_family(memo.conn, symbol, memo)[0]:
            if member.id not in seen:
                seen.add(member.id)
                keep.append(member)
    return keep, other


# the key of a TS/JS base that is a variable or function holding some class
VALUE_BASE = ".(value)"


def external_defines(memo: FamilyMemo, key: str, name: str) -> bool | None:
    """Whether the base outside the project an inherits edge names defines ``name``: a Python
    class found on the path; a standard JS type (``js:global.Set``, ``js:global.HTMLElement``) when
    TypeScript's lib gives it ``name`` (any built-in type's member for a global the lib does not
    declare: a superset, which may refuse more than needed, never less); a package's
    JS class (``js:react.Component``) by its installed declarations (None when not installed)."""
    if key.endswith(VALUE_BASE):
        return None  # a variable or function holding some class (FamilyMemo._base_value)
    if key.startswith(JS_GLOBAL):
        members = lib_type_members(key[len(JS_GLOBAL) :])
        return name in (JS_LIBRARY_MEMBERS if members is None else members)
    if key.startswith("js:"):
        root = memo.root()
        return package_defines(root, key[3:], name) if root is not None else None
    return class_defines(key, name)


def unread_bases(
    conn: sqlite3.Connection, members: list[SymbolRow], memo: FamilyMemo | None = None
) -> list[tuple[SymbolRow, str]]:
    """``(class, outside base)`` for each outside class that a class of ``members`` or one of its
    project ancestors derives from and whose members cannot be read (a package not installed where
    astmcp runs, a module it cannot parse): it may define the name, and a rename would then break
    the override without a word. Structural bases (Protocols) are judged by :func:`override_family`."""
    memo = memo or FamilyMemo(conn)
    name = members[0].name if members else ""
    queue: deque[int] = deque()
    for member in members:
        if member.parent_path and member.kind in _MEMBER_KINDS:
            owner = query_symbols(
                conn,
                "f.path = ? AND s.symbol_path = ? AND s.kind IN ('class', 'interface')",
                (member.file, member.parent_path),
            )
            queue.extend(row.id for row in owner)
    out: list[tuple[SymbolRow, str]] = []
    for cls, key in memo.outside_bases(queue):
        if (
            key not in STRUCTURAL_BASES
            # `js:events`: a CommonJS module whose export is the class (`require("events")`)
            and ("." in key.removeprefix("js:") or key.startswith("js:"))
            and external_defines(memo, key, name) is None
            and not stdlib_lacks(key, name)  # `io.IOBase`: compiled below, asked of the interpreter
        ):
            out.extend((row, _shown(key)) for row in query_symbols(conn, "s.id = ?", (cls,)))
    return out


def _shown(key: str) -> str:
    """An external base as a user reads it (``js:global.Error`` -> ``Error``)."""
    if key.endswith(VALUE_BASE):
        return f"the value {key.removeprefix('js:').removesuffix(VALUE_BASE)}"
    return key.removeprefix(JS_GLOBAL).removeprefix("js:")


def override_family(
    conn: sqlite3.Connection, symbol: SymbolRow, memo: FamilyMemo | None = None
) -> tuple[list[SymbolRow], list[str]]:
    """Same-named members of related classes that override one another, and the
    members of that family defined outside the project (``module.Class.name``).

    The family is every definition of the name in the classes below the topmost
    project ancestors that define it. An object-literal member whose key the index links to a
    class/interface member (a contextually typed literal) is in that member's family; any other
    symbol that is no class member is its own family.
    """
    memo = memo or FamilyMemo(conn)
    if not symbol.parent_path or symbol.kind not in _MEMBER_KINDS or mangled(symbol):
        return memo.twins(symbol), []
    # (a TS object type alias, `type Spec = { run(): void }`, declares members as an interface does)
    owner = query_symbols(
        conn,
        "f.path = ? AND s.symbol_path = ? AND s.kind IN ('class', 'interface', 'type')",
        (symbol.file, symbol.parent_path),
    )
    if not owner:
        literal, outside = _literal_family(conn, symbol, memo)
        if symbol.name in RUNTIME_CALLED and not symbol.file.endswith((".py", ".pyi")):
            outside = sorted({*outside, f"{RUNTIME_CALLED[symbol.name]}.{symbol.name}"})
        return literal, outside
    name = symbol.name
    roots, external = _roots(memo, owner[0].id, name, symbol.kind)
    for twin in memo.twins(symbol):
        # a stub's class and its module's are one class: subclasses name either (`from .core
        # import Machine` finds core.py, not core.pyi), so the family grows from both
        if twin.file == symbol.file or not twin.parent_path:
            continue
        for cls in query_symbols(
            conn, "f.path = ? AND s.symbol_path = ? AND s.kind = 'class'", (twin.file, twin.parent_path)
        ):
            more, outside = _roots(memo, cls.id, name, twin.kind)
            roots += [r for r in more if r not in roots]
            external += [e for e in outside if e not in external]
    if symbol.file.endswith((".py", ".pyi")):
        roots, external = _joined_roots(memo, roots, external, name, symbol.kind)
    below, below_external = memo.below(tuple(roots), name)
    members = dict(below)
    external += below_external
    if name in RUNTIME_CALLED and not symbol.file.endswith((".py", ".pyi")):
        # every object inherits Object.prototype's; JSON.stringify, `await`, `${x}`, `+x` call these by name
        external.append(f"{RUNTIME_CALLED[name]}.{name}")
    for twin in memo.twins(symbol):
        members.setdefault(twin.id, twin)
    if not symbol.file.endswith((".py", ".pyi")):
        for provider in memo.providers(tuple(members), name):
            members.setdefault(provider.id, provider)
    ordered = sorted(members.values(), key=lambda s: (s.file, s.line))
    return ordered, sorted(set(external))


def _roots(memo: FamilyMemo, start: int, name: str, kind: str) -> tuple[list[int], list[str]]:
    """The topmost classes at or above ``start`` that define ``name`` (walking every base), and
    the outside bases on the way that define it too (``module.Class.name``)."""
    external: list[str] = []
    roots: list[int] = []
    seen: set[int] = set()
    queue = deque([start])
    while queue:
        cls = queue.popleft()
        if cls in seen:
            continue
        seen.add(cls)
        defining_above = False
        for base_id, key in memo.bases(cls):
            if base_id is None:
                if key in STRUCTURAL_BASES:
                    # whatever has the member implements the protocol, named or not (`json` a
                    # `dumps` protocol): the implementations outside the family keep the old name.
                    # A name the protocol does not declare is no part of it: `class Once(WithFunc)`
                    # implements `WithFunc(Protocol)`, and `Once.called` is its own
                    # A protocol the project only ever derives from (no annotation, `isinstance`
                    # or value names it) types no value: nothing outside stands in for it
                    if memo.defines_above(cls, name) and memo.named_beyond_bases(cls):
                        external.append(f"{key}.{name}")
                elif key and external_defines(memo, key, name):
                    external.append(f"{_shown(key)}.{name}")
                elif key and not key.startswith("js:"):
                    # `ast.NodeVisitor` calls `visit_<node class>`: a fitting name is reached from outside
                    external += [
                        f"{key}.{target[len(TEMPLATE) + 1 :]}"
                        for target in computed_members(key)
                        if template_reaches(target, name, kind, lambda _: False)
                    ]
                continue
            queue.append(base_id)
            if memo.defines_above(base_id, name):
                defining_above = True
        if not defining_above and (memo.member(cls, name) is not None or memo.self_reads(cls, name)):
            roots.append(cls)
    return roots, external


def _joined_roots(
    memo: FamilyMemo, roots: list[int], external: list[str], name: str, kind: str
) -> tuple[list[int], list[str]]:
    """Python: roots grown by the classes a subclass joins them with (``class Job(StepMixin,
    Base)``: for a Job, ``StepMixin.step`` overrides ``Base.step``, so both are one family; an
    outside base there defining the name, ``class Job(Base, LibView)``, is a member outside the
    project), until no class below them adds one."""
    found = list(roots)
    external = list(external)
    walked: set[int] = set()
    pending = deque(found)
    while pending and len(walked) < _MAX_JOINED:
        cls = pending.popleft()
        if cls in walked:
            continue
        walked.add(cls)
        for sub in memo.subclasses(cls):
            more, outside = _roots(memo, sub, name, kind)
            external += [e for e in outside if e not in external]
            for root in more:
                if root not in found:
                    found.append(root)
                    pending.append(root)
            pending.append(sub)
    return found, external


# TS/JS members the language runtime calls by name on any object, and who declares them
RUNTIME_CALLED = {
    **{name: "Object.prototype" for name in ("toString", "valueOf", "toLocaleString", "hasOwnProperty",
                                             "isPrototypeOf", "propertyIsEnumerable")},
    "toJSON": "JSON.stringify",
    "then": "PromiseLike",
    "handleEvent": "EventListenerObject",  # addEventListener(type, obj) calls obj.handleEvent
}  # fmt: skip


def _outside_ancestors(conn: sqlite3.Connection, symbol: SymbolRow, memo: FamilyMemo) -> set[str]:
    """The outside classes a Python member's class derives from (``builtins.ValueError``,
    ``builtins.Exception``, …), through its project bases; empty for no class member. An outside
    base whose own bases cannot be read counts as anything (the set holds ``*``)."""
    if not symbol.parent_path or symbol.kind not in _MEMBER_KINDS:
        return set()
    owner = query_symbols(
        conn, "f.path = ? AND s.symbol_path = ? AND s.kind = 'class'", (symbol.file, symbol.parent_path)
    )
    if not owner:
        return set()
    found = {"builtins.object"}  # every class is one (`x: object` then `x.name`: any class's)
    for _, key in memo.outside_bases(cls.id for cls in owner):
        found |= class_ancestors(key) or {key, "*"}
    return found


def _literal_family(
    conn: sqlite3.Connection, symbol: SymbolRow, memo: FamilyMemo
) -> tuple[list[SymbolRow], list[str]]:
    """An object-literal member typed by a declared type (`const m: Api = { run() {} }`)
    provides that type's member: one family with it, as TypeScript renames them."""
    provided = None if symbol.id in memo.providing else memo.provides(symbol)
    if provided is None:
        # `const traps: ProxyHandler<T> = { get() {…} }`: the runtime calls the lib type's member
        return memo.twins(symbol), memo.provides_outside(symbol)
    memo.providing.add(symbol.id)
    try:
        members, external = override_family(conn, provided, memo)
    finally:
        memo.providing.discard(symbol.id)
    known = {m.id for m in members}
    extra = [t for t in memo.twins(symbol) if t.id not in known]
    return sorted([*members, *extra], key=lambda s: (s.file, s.line)), external


class FamilyMemo:
    """Class-graph lookups for one request over an index that does not change meanwhile.

    Renaming an override family asks for the family of every member; each walks the same
    classes, so bases, subclasses, members and the walk down from a set of roots are looked
    up once (zod's ``_zod``, 113 members, made ~30,000 queries without it).
    """

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self._root: tuple[Path | None] | None = None
        self._twins: dict[int, list[SymbolRow]] = {}
        self._bases: dict[int, list[tuple[int | None, str | None]]] = {}
        self._subclasses: dict[int, list[int]] = {}
        self._members: dict[tuple[int, str], SymbolRow | None] = {}
        self._base_values: dict[int, int | str | None] = {}  # TS/JS bases that are values
        self._above: dict[tuple[int, str], bool] = {}
        self._self_reads: dict[tuple[int, str], bool] = {}
        self._below: dict[tuple[tuple[int, ...], str], tuple[dict[int, SymbolRow], list[str]]] = {}
        self.providing: set[int] = set()  # object-literal members being resolved (no cycles)
        self.parts = ModuleParts(conn)  # TS/JS: files no import chain joins
        self._packages: dict[str, bool] = {}  # top-level Python package -> whether the project has it
        self._stdlib: dict[str, frozenset[str]] = {}  # Python file -> its standard classes' members
        self._outside_derived: dict[int, bool] = {}  # TS/JS member -> whether its class derives from outside
        self._fed: OutsideFed | None = None  # Python: parameters outside code gives values
        self._ts_fed: TsOutsideFed | None = None  # TS/JS: parameters a call gives outside values
        self._package_members: PackageMembers | None = None  # JS: what imported packages spell

    def package_named(self, path: str, line: int, col: int, name: str) -> bool:
        """JS: whether a package whose values may reach the read ``.name`` at ``line``/``col`` of
        ``path`` spells a member ``name``: then ``x.name`` on a receiver nobody typed there may be
        one of its objects' (a widget ``makeWidget()`` made, yielded by a generator beside a Route),
        however unique the name is among the project's members (:mod:`astmcp.query.package_members`).
        The packages are the file's imports and, unless the receiver is a parameter of a function
        declared by name (whose calls :meth:`outside_fed` judges), its part's."""
        if not path.endswith(JS_FILES):
            return False
        if self._package_members is None:
            self._package_members = PackageMembers(self.conn, self.root(), self.parts)
        if self._package_members.spelled(path, name, part=False):
            return True
        if self._ts_fed is None:
            self._ts_fed = TsOutsideFed(self.conn, self.root())
        if self._ts_fed.read_off_named_parameter(path, line, col, name):
            return False
        return self._package_members.spelled(path, name, part=True)

    def lib_typed_elsewhere(self, target: str | None, symbol: SymbolRow) -> bool:
        """TS/JS: whether an unknown receiver comes from a type TypeScript's lib declares that is
        no standard global object (``G:MutationObserver|@@0.0|[i]`` of ``new MutationObserver((records)
        => … record.attributeName)``), the member read is one a lib type declares, and the
        symbol's class derives from nothing outside the project: then the read is most likely the
        lib type's (a probe renamed ``record.attributeName`` with ``Change.attributeName``). A
        project class extending one (``class Widget extends HTMLElement``) may be what such a
        chain gives (``page.body.firstElementChild.refresh()``)."""
        chain = (target or "").removeprefix(UNKNOWN_RECEIVER)
        root = chain.partition("|")[0]
        if not root.startswith(GLOBAL) or root[len(GLOBAL) :] in GLOBAL_OBJECTS:
            return False
        if not lib_types_declaring(chain.rpartition("|")[2]):
            return False
        if symbol.id not in self._outside_derived:
            self._outside_derived[symbol.id] = self._derives_outside(symbol)
        return not self._outside_derived[symbol.id]

    def _derives_outside(self, symbol: SymbolRow) -> bool:
        """Whether the class holding ``symbol`` derives from a class or type outside the project."""
        found = self.conn.execute(
            "SELECT s.id FROM symbols s JOIN files f ON f.id = s.file_id WHERE f.path = ? AND s.symbol_path = ?"
            " ORDER BY s.id LIMIT 1",
            (symbol.file, symbol.parent_path or ""),
        ).fetchone()
        return found is not None and bool(ancestry(self.conn, [int(found[0])])[1])

    def outside_fed(self, path: str, line: int, col: int, name: str, python: bool) -> bool:
        """Whether an attribute read is off a parameter of a function outside code may give its
        values: Python — one only outside code calls (a view handed to Django's ``path``), or one
        a call of the project gives an outside value (:mod:`astmcp.query.outside_fed`); TS/JS — an
        untyped one a call gives a package's value (:mod:`astmcp.query.ts_outside_fed`)."""
        if python:
            if self._fed is None:
                self._fed = OutsideFed(self.conn, self.root())
            return self._fed.read_off_parameter(path, line, col, name)
        if self._ts_fed is None:
            self._ts_fed = TsOutsideFed(self.conn, self.root())
        return self._ts_fed.read_off_parameter(path, line, col, name)

    def stdlib_named(self, path: str, name: str) -> bool:
        """Whether a class of an outside module the Python file ``path`` imports (the standard
        library's, or an installed package's as its source says) has a member ``name``: then
        ``x.name`` on a receiver nobody typed there may well be that class's
        (``sigspec.bind(…)`` of an ``inspect.Signature``), however unique the name is among the
        project's members (query.stdlib_members, resolve.python_external)."""
        members = self._stdlib.get(path)
        if members is None:
            members = frozenset().union(
                *(
                    stdlib_class_members(m) or module_class_members(m)
                    for m in outside_imports(self.conn, path)
                )
            )
            self._stdlib[path] = members
        return name in members

    def outside_rooted(self, target: str | None) -> bool:
        """Whether an unknown Python receiver is an item (or a tuple's part) of a container a module outside the
        project made (``I:0:xml.etree.ElementTree:/Element/(i)/iter/()0/[]``, ``archive.infolist()``):
        such items are most likely outside objects too, so a project member being the only one of
        its name says nothing of them (``el.set(…)`` of an ElementTree element is no ``likely``
        call of python-markdown's ``State.set``). Modules that hand on what they are given
        (``itertools``, ``collections``, ``contextlib``, …) and whatever outside calls give
        (``ExitStack().enter_context(conn)``, a mock) keep the rule."""
        chain = (target or "").rpartition("\t")[2].removeprefix("?")
        # an item (`[`), a part of a tuple (`#1`: `x, y = socket.socketpair()`) or what iterating
        # gives (`*`)
        if not chain.startswith("I:0:") or not any(step[:1] in ("[", "#", "*") for step in chain.split("/")):
            return False
        top = chain[4:].partition(":")[0].partition(".")[0]
        if top in PASSING_MODULES:
            return False
        if top not in self._packages:
            self._packages[top] = project_package(self.conn, top)
        return not self._packages[top]

    def twins(self, symbol: SymbolRow) -> list[SymbolRow]:
        if symbol.id not in self._twins:
            self._twins[symbol.id] = twins(self.conn, symbol)
        return [symbol, *self._twins[symbol.id][1:]]

    def provides(self, symbol: SymbolRow) -> SymbolRow | None:
        """The class/interface member an object-literal member's key is a certain write of (the
        literal is contextually typed by a declared type), or None."""
        rows = query_symbols(
            self.conn,
            "s.id IN (SELECT r.symbol_id FROM refs r JOIN files f ON f.id = r.file_id"
            " WHERE f.path = ? AND r.line = ? AND r.col IN (?, ?) AND r.name = ? AND r.confidence = 'certain'"
            " AND r.symbol_id != ?)",
            (symbol.file, symbol.name_line, symbol.name_col, symbol.name_col + 1, symbol.name, symbol.id),
        )
        for row in rows:
            if row.kind in _MEMBER_KINDS and row.parent_path:
                return row
        return None

    def provides_outside(self, symbol: SymbolRow) -> list[str]:
        """``["ProxyHandler.get"]`` when an object-literal member's key writes the member of a type
        outside the project (the literal is contextually typed by a type TypeScript's lib or an
        installed package declares: whoever takes the object calls that member), else empty."""
        rows = self.conn.execute(
            "SELECT r.target_key FROM refs r JOIN files f ON f.id = r.file_id WHERE f.path = ? AND r.line = ?"
            " AND r.col = ? AND r.name = ? AND r.kind = 'write' AND r.confidence = 'none'",
            (symbol.file, symbol.name_line, symbol.name_col, symbol.name),
        ).fetchall()
        out = []
        for (target,) in rows:
            head, _, step = str(target).rpartition("|+")
            if step != symbol.name:
                continue
            lib, _, rest = head.removeprefix(GLOBAL).partition("|")
            if head.startswith(GLOBAL) and rest.partition("/")[0] in ("", ":"):  # `G:ProxyHandler|:/2:14`
                members = lib_type_members(lib)
                if members is not None and symbol.name in members:
                    out.append(f"{lib}.{symbol.name}")
            elif head.startswith("I:") and "|" not in head.removesuffix("|:"):  # `I:Plugin:plug|:`
                name, _, spec = head[2:].removesuffix("|:").partition(":")
                out.append(f"{spec}.{name}.{symbol.name}")
            else:  # `P:1:13|Plugin|:` (`lib.Plugin` of a namespace import), …: named by its last step
                steps = [part for part in head.split("|") if part.isidentifier()]
                out.append(f"{steps[-1] if steps else 'outside type'}.{symbol.name}")
        return out

    def providers(self, member_ids: tuple[int, ...], name: str) -> list[SymbolRow]:
        """TS/JS: the object-literal members that provide any of ``member_ids`` (their keys are
        certain writes of them: ``const p: Provider = { clear() {…} }``), the reverse of
        :meth:`provides`; reads through the literal's own name resolve to them."""
        if not member_ids:
            return []
        marks = ",".join("?" * len(member_ids))
        return query_symbols(
            self.conn,
            "s.id IN (SELECT p.id FROM refs r JOIN symbols p ON p.file_id = r.file_id"
            # a quoted key's symbol starts at its quote, the key's row at its text (`"~run"`)
            " AND p.name_line = r.line AND p.name_col IN (r.col, r.col - 1) AND p.name = r.name"
            f" WHERE r.symbol_id IN ({marks}) AND r.name = ? AND r.kind = 'write'"
            f" AND r.confidence = 'certain' AND p.id NOT IN ({marks}))",
            (*member_ids, name, *member_ids),
        )

    def root(self) -> Path | None:
        """The project's folder (where installed packages' declarations are looked up)."""
        if self._root is None:
            self._root = (project_root(self.conn),)
        return self._root[0]

    def bases(self, class_id: int) -> list[tuple[int | None, str | None]]:
        if class_id not in self._bases:
            self._bases[class_id] = list(
                self.conn.execute(
                    "SELECT dst_symbol_id, dst_key FROM edges WHERE src_symbol_id = ? AND kind = 'inherits'",
                    (class_id,),
                )
            )
        return self._bases[class_id]

    def outside_bases(self, class_ids: Iterable[int]) -> list[tuple[int, str]]:
        """``(class, key)`` of every outside base of the classes and of their project ancestors."""
        queue = deque(class_ids)
        seen: set[int] = set()
        out: list[tuple[int, str]] = []
        while queue:
            cls = queue.popleft()
            if cls in seen:
                continue
            seen.add(cls)
            if not self.bases(cls):
                written = self._unlinked_base(cls)
                if written is not None:
                    out.append((cls, written))
            for base_id, key in self.bases(cls):
                if base_id is not None:
                    if base_id not in self._base_values:
                        self._base_values[base_id] = self._base_value(base_id)
                    value = self._base_values[base_id]
                    if value is None:
                        queue.append(base_id)
                    elif isinstance(value, int):
                        queue.append(value)
                    else:
                        out.append((cls, value))
                elif key:
                    out.append((cls, key))
        return out

    def _unlinked_base(self, class_id: int) -> str | None:
        """TS/JS: the key of a base the index did not link (``class Side extends mix(Up)``: a
        call's result), which may be any class; None when the class extends nothing."""
        rows = query_symbols(self.conn, "s.id = ? AND s.kind = 'class'", (class_id,))
        if not rows or rows[0].file.endswith((".py", ".pyi")):
            return None
        written = re.search(r"\bextends\s+([\w$.]+)\s*\(", rows[0].signature)
        return f"js:{written.group(1)}(){VALUE_BASE}" if written is not None else None

    def _base_value(self, base_id: int) -> int | str | None:
        """TS/JS: a base linked to a variable or function, not a class (``const T =
        require("stream").Transform``, ``extends mix(Base)``): the class it aliases when it is
        ``const Base = Up`` of a class in its file, else an outside key naming it, whose members
        are not read (it may be any class); None for a class or interface."""
        rows = query_symbols(self.conn, "s.id = ?", (base_id,))
        if not rows or rows[0].kind not in ("variable", "function") or rows[0].file.endswith((".py", ".pyi")):
            return None
        alias = re.fullmatch(
            r"(?:export\s+)?(?:const|let|var)\s+[\w$]+\s*=\s*([\w$]+);?", rows[0].signature.strip()
        )
        if alias is not None:
            found = query_symbols(
                self.conn,
                "f.path = ? AND s.name = ? AND s.kind = 'class' AND s.parent_path IS NULL",
                (rows[0].file, alias.group(1)),
            )
            if found:
                return found[0].id
        return f"js:{rows[0].name}{VALUE_BASE}"

    def subclasses(self, class_id: int) -> list[int]:
        if class_id not in self._subclasses:
            self._subclasses[class_id] = [
                sub
                for (sub,) in self.conn.execute(
                    "SELECT src_symbol_id FROM edges WHERE dst_symbol_id = ? AND kind = 'inherits'",
                    (class_id,),
                )
                if sub is not None
            ]
        return self._subclasses[class_id]

    def member(self, class_id: int, name: str) -> SymbolRow | None:
        key = (class_id, name)
        if key not in self._members:
            rows = query_symbols(
                self.conn,
                "s.file_id = (SELECT file_id FROM symbols WHERE id = ?)"
                " AND s.symbol_path = (SELECT symbol_path FROM symbols WHERE id = ?) || '.' || ? ORDER BY s.line",
                (class_id, class_id, name),
            )
            self._members[key] = rows[0] if rows else None
        return self._members[key]

    def self_reads(self, class_id: int, name: str) -> bool:
        """Whether the class's own code reads ``name`` off its instances or itself (``self.name``,
        ``cls.name``) without declaring it: its subclasses' declarations are one family rooted
        there (the linker's ``Resolver.subclass_member``)."""
        key = (class_id, name)
        if key not in self._self_reads:
            found = self.conn.execute(
                "SELECT 1 FROM refs r JOIN symbols s ON s.file_id = r.file_id WHERE s.id = ?"
                " AND r.name = ? AND r.kind != 'definition'"
                " AND r.target_key IN ('S:' || s.symbol_path || '/(i)/' || ?,"
                " 'S:' || s.symbol_path || '/()/' || ?, 'S:' || s.symbol_path || '/' || ?)"
                " LIMIT 1",
                (class_id, name, name, name, name),
            ).fetchone()
            self._self_reads[key] = found is not None and self.member(class_id, name) is None
        return self._self_reads[key]

    def named_beyond_bases(self, class_id: int) -> bool:
        """Whether the project names the class anywhere but its definition, class statements'
        bases, imports and exports (by reference, by its name left unresolved, or in a string)."""
        row = self.conn.execute("SELECT name FROM symbols WHERE id = ?", (class_id,)).fetchone()
        return row is None or (
            self.conn.execute(
                "SELECT 1 FROM refs WHERE (symbol_id = ? OR (name = ? AND (symbol_id IS NULL OR kind = 'string')))"
                " AND kind NOT IN ('definition', 'inherit', 'import', 'export') LIMIT 1",
                (class_id, row[0]),
            ).fetchone()
            is not None
        )

    def defines_above(self, class_id: int, name: str) -> bool:
        """Whether the class or one of its project ancestors defines ``name``."""
        key = (class_id, name)
        if key not in self._above:
            self._above[key] = self._defines_above(class_id, name, set())
        return self._above[key]

    def _defines_above(self, class_id: int, name: str, seen: set[int]) -> bool:
        if class_id in seen:
            return False
        seen.add(class_id)
        if self.member(class_id, name) is not None or self.self_reads(class_id, name):
            return True
        return any(
            base_id is not None and self._defines_above(base_id, name, seen)
            for base_id, _ in self.bases(class_id)
        )

    def below(self, roots: tuple[int, ...], name: str) -> tuple[dict[int, SymbolRow], list[str]]:
        """Every definition of ``name`` (with its twins) in ``roots`` and the classes below them,
        and the external bases of those classes (each has the member, its own or inherited) that
        define it too."""
        key = (roots, name)
        if key in self._below:
            return self._below[key]
        members: dict[int, SymbolRow] = {}
        external: list[str] = []
        down: deque[int] = deque(roots)
        visited: set[int] = set()
        while down:
            cls = down.popleft()
            if cls in visited:
                continue
            visited.add(cls)
            found = self.member(cls, name)
            if found is not None:
                for twin in self.twins(found):
                    members[twin.id] = twin
            # (a class below a root has the family's member, its own or inherited: `class Tool
            # extends Base implements PkgResolver` implements PkgResolver's with Base's)
            for base_id, base_key in self.bases(cls):
                if base_id is None and base_key and external_defines(self, base_key, name):
                    external.append(f"{_shown(base_key)}.{name}")
            down.extend(self.subclasses(cls))
        self._below[key] = (members, external)
        return members, external


# -- the tool ---------------------------------------------------------------------


class ReferencesInput(SymbolTarget, Paged, Formatted):
    default_limit: ClassVar[int] = 100
    include_declaration: bool = True
    detail: Literal["locations", "context"] = Field("locations", description="context adds the source line")


class ReferenceOut(BaseModel):
    file: str
    line: int
    column: int
    end_column: int
    kind: str
    confidence: str
    is_declaration: bool
    context: str | None = None


class ReferencesOutput(PageOut):
    symbol: str
    reference_count: int
    uncertain_count: int
    affected_files: list[str]
    references: list[ReferenceOut]


def _context_lines(
    ws: Workspace, conn: sqlite3.Connection, window: list[Reference]
) -> dict[str, list[str]] | None:
    """The lines of every file in ``window`` as indexed; None when one changed since the refresh."""
    lines: dict[str, list[str]] = {}
    for path in sorted({r.file for r in window}):
        read = read_indexed_lines(ws, conn, path)
        if read is None:
            return None
        lines[path] = read
    return lines


@tool("ast_find_references", ReferencesInput, ReferencesOutput, list_field="references")
def find_references(ws: Workspace, params: ReferencesInput) -> ReferencesOutput:
    """Every reference to one symbol across the project, resolved through scopes, imports
    and types: confidence certain/likely (counted) then name hits (same name, receiver
    unknown; strings). kind: definition/read/write/call/import/export/type/attribute/
    inherit/string. detail=context adds each line. A parameter is `<file>::<function>.<param>`
    (body uses and name= keywords at resolved calls)."""
    for _ in range(_READ_ATTEMPTS):  # a context file rewritten after the refresh: refresh again
        conn = ws.db()
        target = resolve_target(ws, conn, params)
        if isinstance(target, Parameter):
            from astmcp.query.parameter_refs import parameter_references

            refs = parameter_references(ws, conn, target).all()
        else:
            refs = collect_references(ws, conn, target)
        if not params.include_declaration:
            refs = [r for r in refs if not r.is_declaration]
        sure = [r for r in refs if r.confidence != "name"]
        limit = params.page_size()
        window = refs[params.offset : params.offset + limit]
        read = _context_lines(ws, conn, window) if params.detail == "context" else {}
        if read is not None:
            lines = read
            break
    else:
        raise Conflict("files kept changing while their references were read; call again")
    out = []
    for ref in window:
        context = None
        if params.detail == "context":
            text = lines[ref.file]
            raw = text[ref.line - 1] if 0 < ref.line <= len(text) else ""
            context = raw.rstrip("\r\n").strip()[:_CONTEXT_CHARS]
        out.append(
            ReferenceOut(
                file=ref.file,
                line=ref.line,
                column=ref.column,
                end_column=ref.end_column,
                kind=ref.kind,
                confidence=ref.confidence,
                is_declaration=ref.is_declaration,
                context=context,
            )
        )
    return ReferencesOutput(
        symbol=target.selector,
        reference_count=len(sure),
        uncertain_count=len(refs) - len(sure),
        affected_files=sorted({r.file for r in sure}),
        references=out,
        **page_fields(len(refs), params.offset, limit),
    )
