"""NAME_COLLISION: a rename must not clash with, capture, or be captured by another binding.

Checked per touched file: every scope between a reference and the binding it
means (the new name must be free there), every use of the new name that the
renamed binding would capture, class members of each family class, and
public names of re-exporting modules.
"""

from __future__ import annotations

import ast
import posixpath
import re
import sqlite3
from typing import Any, Protocol

from astmcp.errors import NameCollision
from astmcp.model import PYTHON
from astmcp.query.common import SymbolRow, query_symbols
from astmcp.query.pytrees import parsed_tree
from astmcp.refactor.identifiers import language_of
from astmcp.refactor.pyscopes import BUILTINS, FileScopes, Scope, resolve
from astmcp.refactor.tsscopes import FUNCTION_NODES, TsFile, merged_enum_bodies
from astmcp.resolve.python_doctests import PROMPT as DOCTEST_PROMPT
from astmcp.resolve.python_doctests import doctest_names
from astmcp.resolve.python_external import class_defines
from astmcp.resolve.ts_library import lib_type_members
from astmcp.resolve.typescript import Resolver

_MEMBER_KINDS = {"method", "property", "attribute", "getter", "setter", "enum_member", "constructor"}


class Located(Protocol):
    line: int
    column: int
    kind: str


def _clash(new: str, where: str, details: dict[str, Any]) -> NameCollision:
    return NameCollision(f"renaming to {new!r} would clash: {where}", {"new_name": new, **details})


def check(
    conn: sqlite3.Connection,
    family: list[SymbolRow],
    files: dict[str, tuple[str, list[Any]]],
    old: str,
    new: str,
) -> None:
    _members(conn, family, new)
    _slots(family, files, new)
    _submodules(conn, family, new)
    word = re.compile(rf"(?<![\w$]){re.escape(new)}(?![\w$])")
    for path, (text, hits) in sorted(files.items()):
        if not word.search(text):
            continue  # the new name is nowhere in this file: nothing to clash with or capture
        if language_of(path) == PYTHON:
            _python(path, text, hits, old, new)
        elif language_of(path) is not None:  # (a configuration file has no scopes)
            _typescript(path, text, hits, old, new)


def ts_file(path: str, text: str) -> TsFile | None:
    return None if language_of(path) in (PYTHON, None) else TsFile(path, text)


def _members(conn: sqlite3.Connection, family: list[SymbolRow], new: str) -> None:
    """A member renamed to a name its class (or a class it inherits from) already has."""
    for member in family:
        if member.parent_path is None and language_of(member.file) not in (PYTHON, None):
            # CommonJS exports (`exports.bar = …` beside `exports.other = …`) are no lexical bindings
            rows = query_symbols(
                conn, "f.path = ? AND s.parent_path IS NULL AND s.name = ?", (member.file, new)
            )
            if rows:
                raise _clash(
                    new,
                    f"{rows[0].selector} ({rows[0].kind}) is already declared at the top of {member.file}",
                    {"clash": rows[0].selector, "file": rows[0].file, "line": rows[0].line},
                )
        if (
            member.kind not in _MEMBER_KINDS
            and member.parent_path
            and language_of(member.file) not in (PYTHON, None)
        ):
            # a namespace's or enum's member: its other blocks (`namespace NS {…} namespace NS {…}`
            # merge) may export the new name already
            siblings = query_symbols(
                conn,
                "f.path = ? AND s.parent_path = ? AND s.name = ?",
                (member.file, member.parent_path, new),
            )
            if siblings:
                raise _clash(
                    new,
                    f"{siblings[0].selector} ({siblings[0].kind}) already exists in {member.parent_path}",
                    {"clash": siblings[0].selector, "file": siblings[0].file, "line": siblings[0].line},
                )
        if member.kind not in _MEMBER_KINDS or member.parent_path is None:
            continue
        rows = query_symbols(
            conn, "f.path = ? AND s.parent_path = ? AND s.name = ?", (member.file, member.parent_path, new)
        )
        own, related = related_classes(conn, member)
        rows += inherited(conn, related, new)
        if language_of(member.file) not in (PYTHON, None):
            rows += _augmenting_members(conn, member, new)
            # TS/JS: a class's static side and its instances' are two namespaces
            rows = [r for r in rows if _static(r) == _static(member)]
        if not rows and language_of(member.file) not in (PYTHON, None):
            _assigned(conn, own | related, member, new)
        if not rows and language_of(member.file) == PYTHON:
            _set_on_instances(conn, member, new)
        outside = None if rows else outside_inherited(conn, own | related, new)
        if outside is not None:
            raise _clash(
                new,
                f"{outside} (outside the project) is inherited by {member.parent_path} or a class related to it",
                {"clash": outside},
            )
        if rows:
            clash = rows[0]
            raise _clash(
                new,
                f"{clash.selector} ({clash.kind}) already exists as a member of {member.parent_path}"
                + ("" if clash.parent_path == member.parent_path else " or of a class related to it"),
                {"clash": clash.selector, "file": clash.file, "line": clash.line},
            )


def _augmenting_members(conn: sqlite3.Connection, member: SymbolRow, new: str) -> list[SymbolRow]:
    """TS: members named ``new`` of the declarations that merge into the member's owner from
    other blocks (``declare module "./t.js" { interface Req { user?: number } }`` in another file
    adds ``user`` to ``Req``)."""
    found: list[SymbolRow] = []
    for owner in query_symbols(conn, "f.path = ? AND s.symbol_path = ?", (member.file, member.parent_path)):
        for path, symbol_path in conn.execute(
            "SELECT f.path, s.symbol_path FROM refs r JOIN files f ON f.id = r.file_id"
            " JOIN symbols s ON s.file_id = r.file_id AND s.name_line = r.line AND s.name_col = r.col"
            " WHERE r.symbol_id = ? AND r.kind = 'type' AND r.confidence = 'certain' AND s.id != ?",
            (owner.id, owner.id),
        ):
            found += query_symbols(
                conn, "f.path = ? AND s.parent_path = ? AND s.name = ?", (path, symbol_path, new)
            )
    return found


_STATIC = re.compile(r"^\s*(?:[\w\s]*\s)?static\s")


_FUNCTION_OWN = {"name": "its name", "length": "its parameter count", "caller": "", "arguments": ""}


def check_static_function_name(member: SymbolRow, new: str) -> None:
    """NAME_COLLISION for a TS/JS static member renamed to a property every function has of its
    own (``K.name`` is the class's name: a registry keyed by it would read the member instead)."""
    if (
        new in _FUNCTION_OWN
        and member.parent_path
        and language_of(member.file) not in (PYTHON, None)
        and _static(member)
    ):
        raise _clash(
            new,
            f"{new!r} is a property of the class itself ({_FUNCTION_OWN[new] or 'a function property'});"
            " a static member of that name replaces it for every reader",
            {"member": member.selector},
        )


def _static(member: SymbolRow) -> bool:
    return bool(_STATIC.match(member.signature))


def _set_on_instances(conn: sqlite3.Connection, member: SymbolRow, new: str) -> None:
    """Python: a member renamed to a name code sets on the class's instances without the class
    declaring it (``p = P(); p.tag = "t"``): a property renamed so has no setter, a method would be
    replaced by the value. Instances are matched by the class's name in the receiver's chain."""
    owner = re.escape(member.parent_path.rsplit(".", 1)[-1]) if member.parent_path else ""
    instance = re.compile(rf"(?:^|[:./]){owner}/\(i?\)\d*$")
    for path, line, target in conn.execute(
        "SELECT f.path, r.line, r.target_key FROM refs r JOIN files f ON f.id = r.file_id"
        " WHERE r.name = ? AND r.kind = 'write' AND f.language = 'python' AND r.target_key IS NOT NULL",
        (new,),
    ):
        receiver, sep, _ = str(target).rpartition("/" + new)
        if sep and instance.search(receiver):
            raise _clash(
                new,
                f"{path}:{line} sets {new!r} on an instance of {member.parent_path}, which would replace or"
                " fail on the renamed member",
                {"file": path, "line": line},
            )


def _slots(family: list[SymbolRow], files: dict[str, tuple[str, list[Any]]], new: str) -> None:
    """Python: a member renamed to a name its class lists in ``__slots__`` (a slot is a member the
    index does not declare): the class would no longer build (``'tag' in __slots__ conflicts with
    class variable``) or the slot would shadow it."""
    trees: dict[str, ast.Module | None] = {}  # each file parsed once, for all its members
    for member in family:
        if member.parent_path is None or language_of(member.file) != PYTHON or member.file not in files:
            continue
        text = files[member.file][0]
        if new not in text:
            continue  # (a slot naming it spells it)
        if member.file not in trees:
            try:
                trees[member.file] = parsed_tree(text)
            except (SyntaxError, ValueError):
                trees[member.file] = None
        tree = trees[member.file]
        if tree is None:
            continue
        owner = member.parent_path.rsplit(".", 1)[-1]
        for node in ast.walk(tree):
            if not isinstance(node, ast.ClassDef) or node.name != owner:
                continue
            if not node.lineno <= member.line <= (node.end_lineno or node.lineno):
                continue
            for item in node.body:
                targets = (
                    item.targets
                    if isinstance(item, ast.Assign)
                    else [item.target]
                    if isinstance(item, ast.AnnAssign)
                    else []
                )
                value = getattr(item, "value", None)
                if not any(isinstance(t, ast.Name) and t.id == "__slots__" for t in targets) or value is None:
                    continue
                slots = {
                    n.value
                    for n in ast.walk(value)
                    if isinstance(n, ast.Constant) and isinstance(n.value, str)
                }
                if new in slots:
                    raise _clash(
                        new,
                        f"{member.parent_path} lists {new!r} in __slots__ ({member.file}:{item.lineno})",
                        {"file": member.file, "line": item.lineno},
                    )


def _assigned(conn: sqlite3.Connection, classes: set[int], member: SymbolRow, new: str) -> None:
    """TS/JS: a member renamed to a name the code assigns on the class's instances or on the class
    or object itself without declaring it (``this.name = name`` in a JS constructor, ``Foo.other =
    …``, ``api.other = …``): the assignment would replace the renamed member."""
    for class_id in sorted(classes):
        for owner in query_symbols(conn, "s.id = ?", (class_id,)):
            key = f"P:{owner.name_line}:{owner.name_col}"
            found = conn.execute(
                "SELECT r.line FROM refs r JOIN files f ON f.id = r.file_id WHERE f.path = ? AND r.name = ?"
                " AND r.kind = 'write' AND r.target_key IN (?, ?) LIMIT 1",
                (owner.file, new, f"{key}|:|{new}", f"{key}|{new}"),
            ).fetchone()
            if found is not None:
                raise _clash(
                    new,
                    f"{owner.file}:{found[0]} assigns {new!r} on {owner.name} or its instances, which would"
                    f" replace {member.parent_path}'s renamed member",
                    {"file": owner.file, "line": found[0]},
                )
    # elsewhere: `const b = new Base(); b.extra = 5` (or `b["extra"]`, a read of it) in any file,
    # on a receiver typed as one
    resolver: Resolver | None = None
    for path, line, target in conn.execute(
        "SELECT f.path, r.line, r.target_key FROM refs r JOIN files f ON f.id = r.file_id WHERE r.name = ?"
        " AND r.kind IN ('write', 'string', 'attribute', 'call') AND r.symbol_id IS NULL"
        " AND f.language IN ('typescript', 'javascript') AND (r.target_key LIKE ? OR r.target_key LIKE ?)",
        (new, f"%|{new}", f"%|!{new}"),
    ).fetchall():
        resolver = resolver or Resolver(conn, {})
        chain = str(target).rpartition("|")[0]  # (`"extra" in b` probes: `…|!extra`)
        receivers = (resolver.resolve(str(path), chain), resolver.resolve(str(path), chain + "|:"))
        if any(r is not None and r[0] in ("i", "s") and r[1] in classes for r in receivers):
            raise _clash(
                new,
                f"{path}:{line} assigns {new!r} on {member.parent_path} or its instances, which would replace"
                " the renamed member",
                {"file": path, "line": line},
            )


def _submodules(conn: sqlite3.Connection, family: list[SymbolRow], new: str) -> None:
    """A package's module-level name renamed to one of its submodules' (``pkg.util``): importing
    the submodule sets that attribute of the package, so one replaces the other."""
    from astmcp.refactor.star_imports import star_importers

    packages: set[str] = set()
    for member in family:
        if member.parent_path is not None or not member.file.endswith((".py", ".pyi")):
            continue
        # the package itself, and packages whose `__init__` takes the name on (`from .core import
        # *`, `from .core import helper`): importing a submodule sets their attribute too
        packages.add(member.file)
        packages |= star_importers(conn, member.file, member.name)
        packages |= {
            str(path)
            for (path,) in conn.execute(
                "SELECT f.path FROM refs r JOIN files f ON f.id = r.file_id WHERE r.symbol_id = ?"
                " AND r.kind IN ('import', 'export')",
                (member.id,),
            )
        }
    for package in sorted(packages):
        if posixpath.basename(package) not in ("__init__.py", "__init__.pyi"):
            continue
        folder = posixpath.dirname(package)
        prefix = f"{folder}/{new}" if folder else new
        clash = conn.execute(
            "SELECT path FROM files WHERE path IN (?, ?, ?) OR path LIKE ? ESCAPE '\\' LIMIT 1",
            (f"{prefix}.py", f"{prefix}.pyi", f"{prefix}/__init__.py", prefix.replace("_", "\\_") + "/%.py"),
        ).fetchone()
        if clash is not None:
            raise _clash(
                new,
                f"{prefix.replace('/', '.')} is a submodule of the package {package}: importing it"
                " sets the package's attribute of that name",
                {"file": clash[0]},
            )


def _walk(conn: sqlite3.Connection, start: list[int], upward: bool) -> set[int]:
    """The project classes above (``upward``) or below the classes ``start``, transitively."""
    sql = (
        "SELECT dst_symbol_id FROM edges WHERE src_symbol_id = ? AND kind = 'inherits' AND dst_symbol_id IS NOT NULL"
        if upward
        else "SELECT src_symbol_id FROM edges WHERE dst_symbol_id = ? AND kind = 'inherits'"
        " AND src_symbol_id IS NOT NULL"
    )
    seen: set[int] = set()
    queue = list(start)
    while queue:
        for (related,) in conn.execute(sql, (queue.pop(),)):
            if related not in seen:
                seen.add(related)
                queue.append(related)
    return seen


def related_classes(conn: sqlite3.Connection, member: SymbolRow) -> tuple[set[int], set[int]]:
    """The member's own class, and the classes whose instances also get the renamed member: its
    ancestors and descendants (both would now override), and the other bases of its descendants
    (`class D(M, C)`: M.new and C's renamed member meet in D's MRO, one hiding the other)."""
    own = [
        c.id
        for c in query_symbols(conn, "f.path = ? AND s.symbol_path = ?", (member.file, member.parent_path))
    ]
    below = _walk(conn, own, upward=False)
    related = _walk(conn, own, upward=True) | below | _walk(conn, list(below), upward=True)
    return set(own), related - set(own)


def inherited(conn: sqlite3.Connection, related: set[int], new: str) -> list[SymbolRow]:
    """Members named ``new`` in the ``related`` classes."""
    out: list[SymbolRow] = []
    for related_id in sorted(related):
        for row in query_symbols(conn, "s.id = ?", (related_id,)):
            out += query_symbols(
                conn, "f.path = ? AND s.parent_path = ? AND s.name = ?", (row.file, row.symbol_path, new)
            )
    return out


def outside_inherited(conn: sqlite3.Connection, everyone: set[int], new: str) -> str | None:
    """An outside class (``dict``, ``threading.Thread``; TS: a standard type such as ``Array``) that
    one of ``everyone`` (the member's class and its relatives) derives from and that defines ``new``
    (``builtins.dict.get``); a package's TS class is not looked up here."""
    for class_id in sorted(everyone):
        for (key,) in conn.execute(
            "SELECT dst_key FROM edges WHERE src_symbol_id = ? AND kind = 'inherits' AND dst_symbol_id IS NULL"
            " AND dst_key IS NOT NULL",
            (class_id,),
        ):
            key = str(key)
            if key.startswith("js:global."):
                members = lib_type_members(key.removeprefix("js:global."))
                if members is not None and new in members:
                    return f"{key.removeprefix('js:global.')}.{new}"
            elif not key.startswith("js:") and class_defines(key, new):
                return f"{key}.{new}"
    return None


# -- Python ---------------------------------------------------------------------------
def _python(path: str, text: str, hits: list[Any], old: str, new: str) -> None:
    scopes = FileScopes(text)
    bindings: list[Scope] = []
    _doctests(path, text, hits, new)
    for hit in hits:
        occ = scopes.occurrences.get((hit.line, hit.column))
        if occ is None or occ.role in ("attr", "kwarg"):
            continue  # strings, attributes, keyword arguments: members are checked by the index
        binding = resolve(occ.scope, old) or scopes.module
        for scope in occ.scope.visible_parents():
            if new in scope.binds and new not in scope.globals:
                raise _clash(
                    new,
                    f"{new!r} is already bound in {scope.describe()} of {path} (line {scope.binds[new]})",
                    {"file": path, "line": scope.binds[new]},
                )
            if scope is binding:
                break
        if binding not in bindings:
            bindings.append(binding)
    for binding in bindings:
        _captures(path, scopes, binding, new)


def _doctests(path: str, text: str, hits: list[Any], new: str) -> None:
    """A renamed name in a doctest example the doctest binds ``new`` in (``>>> grow = 2`` then
    ``>>> scale(grow)``): after the rename the example would read the doctest's variable."""
    lines = text.split("\n")
    prompts = {h.line for h in hits if 0 < h.line <= len(lines) and DOCTEST_PROMPT.match(lines[h.line - 1])}
    if not prompts:
        return
    try:
        tree = parsed_tree(text)
    except (SyntaxError, ValueError):
        return
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)):
            continue
        first, last = node.lineno, node.end_lineno or node.lineno
        inside = isinstance(node.value.value, str) and any(first <= line <= last for line in prompts)
        if inside and new in doctest_names(lines, first, last).binds:
            raise _clash(
                new,
                f"a doctest in {path} (line {first}) binds {new!r} where it reads the renamed name",
                {"file": path, "line": first},
            )


def _captures(path: str, scopes: FileScopes, binding: Scope, new: str) -> None:
    """Uses of ``new`` that today mean something outside ``binding`` but would then mean it."""
    for occ in scopes.occurrences.values():
        if occ.name != new or occ.role not in ("use", "bind") or not occ.scope.is_within(binding):
            continue
        if binding not in occ.scope.visible_parents():
            continue
        target = resolve(occ.scope, new)
        if target is None or not target.is_within(binding):
            meaning = "the builtin" if new in BUILTINS and target is None else "an outer binding"
            raise _clash(
                new,
                f"the use of {new!r} at {path}:{occ.line} means {meaning} and would be captured",
                {"file": path, "line": occ.line, "column": occ.column},
            )


# -- TypeScript / JavaScript ----------------------------------------------------------
def _enum_body_of(node: Any) -> Any:
    """The ``enum_body`` declaring the member ``node`` names (None: no enum member's name)."""
    if node is None or node.type != "property_identifier" or node.parent is None:
        return None
    if node.parent.type == "enum_body":
        return node.parent
    holder = node.parent
    if holder.type == "enum_assignment" and holder.child_by_field_name("name") == node:
        return holder.parent if holder.parent is not None and holder.parent.type == "enum_body" else None
    return None


def _scope_id_not_in(scope: Any, scopes: list[Any]) -> bool:
    return scope.id not in [s.id for s in scopes]


def _paired_scope(scope: Any) -> Any:
    """A function's body block for the function (whose scope holds its parameters), the function
    for its body block; None for any other scope."""
    if scope.type in _FUNCTION_SCOPES:
        body = scope.child_by_field_name("body")
        return body if body is not None and body.type == "statement_block" else None
    parent = scope.parent
    if scope.type == "statement_block" and parent is not None and parent.type in _FUNCTION_SCOPES:
        return parent if parent.child_by_field_name("body") == scope else None
    return None


_FUNCTION_SCOPES = FUNCTION_NODES


def _typescript(path: str, text: str, hits: list[Any], old: str, new: str) -> None:
    ts = TsFile(path, text)
    exports_clause = False
    declaring: list[Any] = []
    for hit in hits:
        node = ts.node_at(hit.line, hit.column)
        body = _enum_body_of(node)
        for block in merged_enum_bodies(body) if body is not None else []:
            if _scope_id_not_in(block, declaring):
                declaring.append(block)  # an enum member: the enum's initializers read it by bare name
        if node is None or node.type in ("property_identifier", "string_fragment", "string"):
            continue
        if node.parent is not None and node.parent.type == "export_specifier":
            exports_clause = exports_clause or node.parent.child_by_field_name("alias") is None
        for scope in ts.chain(node):
            if new in ts.declared(scope):
                row = scope.start_point[0] + 1
                raise _clash(
                    new,
                    f"{new!r} is already declared in the {scope.type} at {path}:{row}",
                    {"file": path, "line": row},
                )
            if old in ts.declared(scope):
                # a function's parameters and the top level of its body are one scope to the
                # language: `constructor(public y) { const y = 2 }` does not compile
                paired = _paired_scope(scope)
                if paired is not None and new in ts.declared(paired):
                    row = paired.start_point[0] + 1
                    raise _clash(
                        new,
                        f"{new!r} is already declared in the {paired.type} at {path}:{row}, which shares"
                        " the function's parameter scope",
                        {"file": path, "line": row},
                    )
                if scope.id not in [d.id for d in declaring]:
                    declaring.append(scope)
                break
    if exports_clause and new in ts.exported_names():
        raise _clash(new, f"{path} already exports a name {new!r}", {"file": path})
    for scope in declaring:
        for use in ts.identifiers(scope, new):
            inner = ts.chain(use)
            between = inner[: next((i for i, s in enumerate(inner) if s.id == scope.id), len(inner))]
            if not any(new in ts.declared(s) for s in between):
                row = use.start_point[0] + 1
                raise _clash(
                    new,
                    f"the use of {new!r} at {path}:{row} would be captured by the renamed declaration",
                    {"file": path, "line": row},
                )
