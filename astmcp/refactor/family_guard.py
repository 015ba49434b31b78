"""A safety net under the override family: a class member is refused when a related class
defines the same name but is not in the family. Classes relate through the bases the index
linked, and through the base names written in class headers that it did not link (or a TS/JS
variable's type annotation, for the members of its object literal).

The reference engine links bases through resolved edges; a base it could not link (a
subscripted generic, a dynamic base) would otherwise let a rename split an override
family silently. Matching such a base by name may over-refuse; it never lets a break through.
A Python class whose base is a value holding some class (`class Other(serializer.signer)`) or
resolves to nothing may derive from any class: its same-named members are returned to be made
uncertain references of the rename (blocked by default), not refused.
"""

from __future__ import annotations

import ast
import re
import sqlite3
from collections.abc import Iterable

from astmcp.errors import AstmcpError, InvalidInput, MutationBlocked
from astmcp.query.common import SymbolRow, mangled, query_symbols
from astmcp.query.package_types import project_root
from astmcp.query.parameters import parse_python, read_text
from astmcp.query.pytrees import parsed_tree, per_tree
from astmcp.refactor.collisions import inherited, outside_inherited, related_classes
from astmcp.refactor.prepare import load_file
from astmcp.refactor.tsscopes import TsFile
from astmcp.resolve.python_external import (
    argument_reads,
    class_ancestors,
    class_defines,
    held_member_reads,
    is_module,
)
from astmcp.resolve.python_scope import written_bases
from astmcp.workspace import Workspace

_MEMBER_KINDS = ("method", "property", "attribute", "getter", "setter")
_MADE_BASE = "()"  # a base written as a call: no class is named so
_TS_HERITAGE = re.compile(r"\b(?:extends|implements)\s+([^{]+)")


def unresolved_bases(conn: sqlite3.Connection, family: Iterable[SymbolRow]) -> list[tuple[SymbolRow, str]]:
    """``(class, base)`` for each Python class of the family's members (or a project class above
    one) with a base astmcp could not resolve (an unknown name, a class a module loaded at run time
    holds, a parameter): it may define the member, which then overrides it."""
    classes = _Classes(conn)
    owners = {c for c in (classes.owner(m) for m in family if m.parent_path) if c is not None}
    out: list[tuple[SymbolRow, str]] = []
    for class_id in sorted(owners | classes.ancestors(owners)):
        for base in classes.unknown_bases(class_id):
            out.extend(
                (row, base) for row in query_symbols(conn, "s.id = ? AND s.kind = 'class'", (class_id,))
            )
    return out


def unknown_based(conn: sqlite3.Connection, class_ids: Iterable[int]) -> bool:
    """Whether one of the Python classes or of their project ancestors has a base astmcp could not
    resolve (which may give it any member)."""
    classes = _Classes(conn)
    ids = set(class_ids)
    return any(classes.unknown_bases(c) for c in sorted(ids | classes.ancestors(ids)))


def _python_bases(signature: str) -> list[str]:
    header = signature.strip().split("\n")[-1]
    try:
        tree = ast.parse(header + ": pass")
    except SyntaxError:
        return []
    node = tree.body[0] if tree.body else None
    if not isinstance(node, ast.ClassDef):
        return []
    out: list[str] = []
    for base in written_bases(node.bases):
        while isinstance(base, ast.Subscript):
            base = base.value
        if isinstance(base, ast.Name):
            out.append(base.id)
        elif isinstance(base, ast.Attribute):
            out.append(base.attr)
        elif isinstance(base, ast.Call):
            out.append(_MADE_BASE)  # `class Sub(with_logging(Base))`: a class a call makes, any
    return out


def _ts_bases(signature: str) -> list[str]:
    names: list[str] = []
    for clause in _TS_HERITAGE.findall(signature):
        while "<" in clause and clause != (stripped := re.sub(r"<[^<>]*>", "", clause)):
            clause = stripped  # innermost type arguments first: Base<Map<K, V>> -> Base
        for part in re.split(r",|\bimplements\b", clause):
            word = part.strip().split(".")[-1].strip()
            if re.fullmatch(r"[A-Za-z_$][\w$]*", word):
                names.append(word)
    return names


_TS_ANNOTATED = re.compile(r"^(?:export\s+)?(?:declare\s+)?(?:const|let|var)\s+[\w$]+\s*:\s*([^=]+?)\s*=")


def _ts_annotation(signature: str) -> list[str]:
    """The type names a TS/JS variable is annotated with (``const memo: Memoizer = {...}``): an
    object literal's members must provide that type's members, so the type is its base."""
    match = _TS_ANNOTATED.match(signature.strip())
    if match is None:
        return []
    clause = match.group(1)
    while "<" in clause and clause != (stripped := re.sub(r"<[^<>]*>", "", clause)):
        clause = stripped
    names = []
    for part in re.split(r"[|&]", clause):
        word = part.strip().split(".")[-1].strip()
        if re.fullmatch(r"[A-Za-z_$][\w$]*", word):
            names.append(word)
    return names


def _found_outside(qualified: str) -> bool:
    """Whether the module of the outside class ``pkg.mod.Cls`` (or ``pkg.mod.Outer.Inner``) is found:
    a base the index linked to a module that is nowhere (``from nowhere import Base``) is unlinked,
    and so is a member of an outside class's instance (``types.SimpleNamespace.().Base``: a value
    holding some class)."""
    if ".()" in qualified:
        return False
    parts = qualified.split(".")
    return any(is_module(".".join(parts[:n])) for n in range(len(parts) - 1, 0, -1))


_TYPE_TESTS = re.compile(r"\b(?:isinstance|issubclass)\s*\(")


def _type_test(text: str, columns: list[int]) -> bool:
    """Whether the classes read at ``columns`` (1-based) of a line are only tested against:
    ``isinstance(x, (A, B))``, ``issubclass(k, (A, B))``, ``except (A, B):``. Such a line makes
    no class of both."""
    if text.lstrip().startswith("except"):
        return True
    for match in _TYPE_TESTS.finditer(text):
        depth, end = 0, len(text)
        for at in range(match.end() - 1, len(text)):
            depth += {"(": 1, ")": -1}.get(text[at], 0)
            if depth == 0:
                end = at
                break
        if all(match.end() <= column - 1 < end for column in columns):
            return True
    return False


class _Classes:
    """Project classes (and TS/JS variables typed by an annotation) and how they relate: through
    the bases the index linked (its ``inherits`` edges) and, for a base written in a header that it
    did not link, every project class of that name."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self._named: dict[str, list[int]] = {}
        self._parents: dict[int, set[int]] = {}
        self._unknown: dict[int, bool] = {}
        self._unknown_names: dict[int, list[str]] = {}
        self._declarations: dict[int, tuple[str, str, str] | None] = {}

    def named(self, name: str) -> list[int]:
        if name not in self._named:
            self._named[name] = [
                i
                for (i,) in self.conn.execute(
                    "SELECT id FROM symbols WHERE kind IN ('class', 'variable') AND name = ?", (name,)
                )
            ]
        return self._named[name]

    def owner(self, member: SymbolRow) -> int | None:
        """The class (or variable) ``member`` belongs to."""
        found = self.conn.execute(
            "SELECT s.id FROM symbols s JOIN files f ON f.id = s.file_id WHERE f.path = ? AND s.symbol_path = ?"
            " ORDER BY s.line LIMIT 1",
            (member.file, member.parent_path),
        ).fetchone()
        return found[0] if found else None

    def parents(self, class_id: int) -> set[int]:
        if class_id not in self._parents:
            found: set[int] = set()
            linked: set[str] = set()
            outside: set[str] = set()  # outside bases whose module is not found
            # `class Other(serializer.signer)` linked to the attribute `Serializer.signer`: a value
            # holding some class, not a class
            unknown = False
            edges = self.conn.execute(
                "SELECT e.dst_symbol_id, e.dst_key, d.name, d.kind FROM edges e"
                " LEFT JOIN symbols d ON d.id = e.dst_symbol_id WHERE e.src_symbol_id = ? AND e.kind = 'inherits'",
                (class_id,),
            ).fetchall()
            written = self.written_bases(class_id)
            for target, key, name, kind in edges:
                if target is not None:
                    found.add(target)
                    linked.add(name)
                    unknown = unknown or kind not in ("class", "interface")
                elif key and (not self.python(class_id) or _found_outside(key)):
                    linked.add(re.split(r"[.:/#]", key)[-1])
                elif key:
                    outside.add(re.split(r"[.:/#]", key)[-1])
            # a base is unknown when fewer were linked than written (`class S(DBStore)`, imported
            # `as DBStore`, is linked under its own name) and its name is no project class
            short = len({(t, k) for t, k, _, _ in edges}) < len(written)
            unknown_names: list[str] = []
            for name in written:
                if name not in linked:
                    named = self.named(name)
                    found.update(named)
                    if short and not named and name not in outside:
                        unknown = True
                        unknown_names.append(name)
            self._parents[class_id] = found
            self._unknown[class_id] = unknown and self.python(class_id)
            self._unknown_names[class_id] = unknown_names if self.python(class_id) else []
        return self._parents[class_id]

    def used_together(self, class_id: int, others: set[int]) -> bool:
        """Python: whether the class and one of ``others`` are read as values on one line
        (``type("Job", (StepMixin, Base), {})``, ``combine(StepMixin, Base)``, ``BASES = (StepMixin,
        Base)``): a class made from both at run time may put one's member before the other's."""
        if not others or not self.python(class_id):
            return False
        marks = ",".join("?" * len(others))
        rows = self.conn.execute(
            "SELECT f.path, a.line, a.end_col, b.end_col, a.col, b.col FROM refs a JOIN refs b"
            " ON b.file_id = a.file_id AND b.line = a.line JOIN files f ON f.id = a.file_id"
            f" WHERE a.symbol_id = ? AND a.kind = 'read' AND b.symbol_id IN ({marks}) AND b.kind = 'read'",
            (class_id, *others),
        )
        root = project_root(self.conn)
        texts: dict[str, list[str]] = {}
        for path, line, end_a, end_b, *columns in rows:
            if path not in texts:
                try:
                    texts[path] = (root / path).read_text(encoding="utf-8").split("\n") if root else []
                except (OSError, UnicodeDecodeError):
                    texts[path] = []
            lines = texts[path]
            text = lines[line - 1] if 0 < line <= len(lines) else ""
            if any(text[end - 1 :].lstrip().startswith(".") for end in (end_a, end_b)):
                continue  # `AnsiBack.BLACK: (winterm.back, WinColor.BLACK)`: an attribute of one
            if not _type_test(text, columns):
                return True
        return False

    def unknown_base(self, class_ids: Iterable[int]) -> bool:
        """Whether one of ``class_ids`` (Python) has a base written in its header that is neither
        linked nor the name of a project class: it may derive from any class."""
        for class_id in class_ids:
            self.parents(class_id)
            if self._unknown[class_id]:
                return True
        return False

    def unknown_bases(self, class_id: int) -> list[str]:
        """Python: the bases written in the class's header that are neither linked nor the name
        of a project class (``class X(htmlparser.HTMLParser)`` of a module loaded at run time)."""
        self.parents(class_id)
        return self._unknown_names.get(class_id, [])

    def declaration(self, class_id: int) -> tuple[str, str, str] | None:
        """(path, signature, kind) of a class or variable."""
        if class_id not in self._declarations:
            self._declarations[class_id] = self.conn.execute(
                "SELECT f.path, s.signature, s.kind FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.id = ?",
                (class_id,),
            ).fetchone()
        return self._declarations[class_id]

    def python(self, class_id: int) -> bool:
        found = self.declaration(class_id)
        return found is not None and found[0].endswith((".py", ".pyi"))

    def written_bases(self, class_id: int) -> list[str]:
        found = self.declaration(class_id)
        if found is None:
            return []
        path, signature, kind = found
        python = path.endswith((".py", ".pyi"))
        if kind == "variable":
            return [] if python else _ts_annotation(signature)
        if kind != "class":
            return []
        return _python_bases(signature) if python else _ts_bases(signature)

    def ancestors(self, class_ids: Iterable[int]) -> set[int]:
        seen: set[int] = set()
        stack = list(class_ids)
        while stack:
            for parent in self.parents(stack.pop()):
                if parent not in seen:
                    seen.add(parent)
                    stack.append(parent)
        return seen


def check_family(conn: sqlite3.Connection, row: SymbolRow, family: Iterable[SymbolRow]) -> list[SymbolRow]:
    """MUTATION_BLOCKED when a same-named member of a related class is missing from ``family``;
    the same-named members of classes whose base may be any class (unresolved, or a value holding
    a class), which may or may not override it, and every other one when a family class's base
    may be any class (which may override them): their uses are uncertain references."""
    if row.kind not in _MEMBER_KINDS or not row.parent_path or mangled(row):
        return []
    family = list(family)
    members = {(m.file.removesuffix("i"), m.parent_path) for m in family}
    classes = _Classes(conn)
    family_classes = {c for c in (classes.owner(m) for m in family if m.parent_path) if c is not None}
    marks = ",".join("?" * len(_MEMBER_KINDS))
    candidates = query_symbols(conn, f"s.name = ? AND s.kind IN ({marks})", (row.name, *_MEMBER_KINDS))
    family_ancestors = classes.ancestors(family_classes)
    # `class LoggingUndefined(base)` of a parameter `base`: the family may override any class's member
    family_unknown = classes.unknown_base(family_classes | family_ancestors)
    missed: list[str] = []
    maybe: list[SymbolRow] = []
    for other in candidates:
        if not other.parent_path or (other.file.removesuffix("i"), other.parent_path) in members:
            continue
        owner = classes.owner(other)
        if owner is None or owner in family_classes:
            continue
        above = classes.ancestors([owner])
        if owner in family_ancestors or above & family_classes:
            missed.append(other.selector)
        elif (
            family_unknown
            or classes.unknown_base({owner} | above)
            or classes.used_together(owner, family_classes)
        ):
            maybe.append(other)
    if missed:
        raise MutationBlocked(
            f"{row.name!r} is also defined by related class member(s) the index did not link into its"
            f" override family ({', '.join(sorted(missed)[:5])}); renaming one would split the family",
            {"unlinked_members": sorted(missed)},
        )
    return maybe


def outside_reads(
    ws: Workspace, conn: sqlite3.Connection, row: SymbolRow, members: Iterable[SymbolRow]
) -> list[str]:
    """Python: ``<outside class>.<attribute>.<name>`` for each outside attribute holding an
    instance of a class of the family ``members`` (or of one deriving from one of them) whose
    outside class reads ``row``'s name off it.

    ``response.json_module = app.json`` puts flask's JSON provider into an attribute werkzeug's
    ``Response`` declares, and werkzeug calls ``self.json_module.loads(…)``: renaming the
    provider's ``loads`` breaks it, though no project code names the call. The linker records such
    stores (``py_values`` rows: the class's key, ``!<outside class>.<attribute>``; see
    :mod:`astmcp.resolve.python_values`); each read found is a family member outside the project.
    An instance turned into an outside class's by ``cast(T, obj)`` (rows ``=<outside class>``)
    has every member T declares called by T's users: ``<outside class>.<name>``. An instance given
    to a callable of a package astmcp cannot read (rows ``?<callable><key>``) may have any member
    called: ``<callable>(<argument>).<name>?``, the trailing ``?`` marking it unread."""
    classes = _Classes(conn)
    family = {c for c in (classes.owner(m) for m in members if m.parent_path) if c is not None}
    found: list[str] = []
    for target, value in conn.execute(
        "SELECT DISTINCT target, value FROM py_values WHERE value LIKE '!%' OR value LIKE '=%' OR value LIKE '^%'"
        " OR value LIKE '?%' ORDER BY target, value"
    ):
        path, _, symbol_path = str(target).partition("::")
        held = conn.execute(
            "SELECT s.id FROM symbols s JOIN files f ON f.id = s.file_id"
            " WHERE f.path = ? AND s.symbol_path = ? AND s.kind = 'class'",
            (path, symbol_path),
        ).fetchone()
        if held is None or not ({held[0]} | classes.ancestors([held[0]])) & family:
            continue
        if str(value).startswith("?"):  # given to a package not installed here: it may call anything
            parts = _FUNCTION_KEY.match(str(value)[1:])
            if parts is not None:
                given = f"{parts[2][1:]}=…" if parts[2][0] == "=" else f"argument {int(parts[2][1:]) + 1}"
                found.append(f"{parts[1]}({given}).{row.name}?")
            continue
        if str(value).startswith("^"):  # `json.dump(data, obj)`: json.dump calls `obj.write`
            parts = _FUNCTION_KEY.match(str(value)[1:])
            reads = argument_reads(parts[1], parts[2]) if parts is not None else frozenset()
            if parts is not None and "*" in reads and parts[1].startswith("argparse."):
                # `parse_args(namespace=obj)` sets the attributes the parser's options name: the
                # project's own declarations (unless one is not written out)
                from astmcp.refactor.option_names import made_dests  # (it builds on rename_refs)

                dests = made_dests(ws, conn)
                reads = reads if dests is None else dests
            if parts is not None and (row.name in reads or "*" in reads):
                given = f"{parts[2][1:]}=…" if parts[2][0] == "=" else f"argument {int(parts[2][1:]) + 1}"
                found.append(f"{parts[1]}({given}).{'*' if '*' in reads else row.name}")
            continue
        if str(value).startswith("="):  # `cast(T, obj)`: whoever uses the T calls T's members
            if class_defines(str(value)[1:], row.name) is not False:  # (unreadable: it may)
                found.append(f"{str(value)[1:]}.{row.name}")
            continue
        owner, _, attribute = str(value)[1:].rpartition(".")
        if row.name in held_member_reads(owner, attribute):
            found.append(f"{owner}.{attribute}.{row.name}")
    return found


# `json.dump#1`, `builtins.print=file`: an outside function and the argument it was given
_FUNCTION_KEY = re.compile(r"^(.+?)([#=][^#=]+)$")
_AUGMENTING = re.compile(r"declare\s+(?:global\b|module\s+[\"'])")
_RELATIVE_AUGMENTATION = re.compile(r"declare\s+module\s+[\"'][./]")  # `declare module "./a.js"`


def check_augmentation(conn: sqlite3.Connection, row: SymbolRow) -> None:
    """TS/JS: a declaration directly inside ``declare global { … }`` or ``declare module "pkg"
    { … }`` merges with the declaration of its name outside the project (rxjs adds ``observable``
    to the library's ``SymbolConstructor`` that way): renamed, it would merge with nothing and
    what it adds would be gone (``MUTATION_BLOCKED``). So are the members of the types declared
    there: they describe what outside code has (``ProcessEnv.API_KEY``, an environment variable; a
    shim's ``declare module "untyped-client" { class Client { connect(): void } }``), which a
    rename cannot change. The block itself names no declaration (``INVALID_INPUT``)."""
    if row.file.endswith((".py", ".pyi")):
        return
    if row.kind == "namespace" and _AUGMENTING.match(row.signature):
        raise InvalidInput(
            f"`{row.signature}` names the scope it adds to (the global scope, or the package), not a"
            " declaration of the project: there is nothing to rename"
        )
    path = row.parent_path
    # through namespaces (`declare global { namespace NodeJS { … } }`) and the types whose members
    # these are (`interface ProcessEnv { API_KEY: string }`, a shim's `class Client { connect() }`:
    # they describe what outside code has)
    while path is not None:
        found = query_symbols(conn, "f.path = ? AND s.symbol_path = ?", (row.file, path))
        if not found:
            return
        if found[0].kind == "namespace" and _AUGMENTING.match(found[0].signature):
            if _RELATIVE_AUGMENTATION.match(found[0].signature):  # a module of the project's own
                raise MutationBlocked(
                    f"{row.name!r} is declared in `{found[0].signature}`: it adds to that module's"
                    " declaration of the name, which astmcp does not merge with this one, so renamed"
                    " here alone it would add to nothing and its uses would be left behind; rename it and"
                    " its uses by hand",
                    {"augments": found[0].signature},
                )
            raise MutationBlocked(
                f"{row.name!r} is declared in `{found[0].signature}`: it adds to the declaration of"
                " that name outside the project, and renamed it would add to nothing",
                {"augments": found[0].signature},
            )
        path = found[0].parent_path


def check_script_global(ws: Workspace, row: SymbolRow) -> None:
    """MUTATION_BLOCKED for a declaration in a TypeScript script (a ``.ts``/``.d.ts`` file without
    import or export, such as a ``types.d.ts`` of global interfaces): its top-level names are
    global, used by every file without an import, and the index does not link those uses (they
    read as names of the standard library), so a rename would leave them behind. Members too: a
    global type's uses are not typed."""
    if not row.file.endswith((".ts", ".tsx", ".cts")) or row.file.endswith((".mts", ".d.mts")):
        return
    try:
        script = not TsFile(row.file, read_text(ws, row.file)).is_module()
    except (OSError, ValueError):
        return
    if script:
        raise MutationBlocked(
            f"{row.name!r} is declared in {row.file}, a script (no import or export): its names are global,"
            " used by other files without an import, which astmcp does not follow; add an export to"
            " make it a module (and import it where used), then rename",
            {"file": row.file},
        )


_ITERATOR_STEPS = frozenset({"next", "return", "throw"})
_ITERATOR_HOOK = re.compile(r"\[\s*Symbol\s*\.\s*(?:async)?[iI]terator\s*\]")


def check_iterator_protocol(ws: Workspace, conn: sqlite3.Connection, row: SymbolRow) -> None:
    """TS/JS: ``next``/``return``/``throw`` of a class or object that is its own iterator
    (``[Symbol.iterator]() { return this }``) without naming ``Iterator``: spread, ``for…of``
    and destructuring call them by name (MUTATION_BLOCKED)."""
    if row.name not in _ITERATOR_STEPS or not row.parent_path or row.file.endswith((".py", ".pyi")):
        return
    owners = query_symbols(conn, "f.path = ? AND s.symbol_path = ?", (row.file, row.parent_path))
    if not owners:
        return
    try:
        lines = read_text(ws, row.file).split("\n")
    except (OSError, ValueError):
        return
    body = "\n".join(lines[owners[0].start_line - 1 : owners[0].end_line])
    if _ITERATOR_HOOK.search(body):
        raise MutationBlocked(
            f"{owners[0].name} is an iterator ([Symbol.iterator]), whose {row.name!r} spread, for…of and"
            " destructuring call by name: renamed, it would no longer iterate",
            {"protocol": f"Iterator.{row.name}"},
        )


def check_mapping_protocol(conn: sqlite3.Connection, row: SymbolRow, new_name: str) -> None:
    """Python: MUTATION_BLOCKED for renaming ``keys`` from or to on a class that has (or whose
    relatives have) ``__getitem__``: ``dict(**obj)``, ``{**obj}`` and ``dict.update(obj)`` take such
    an object as a mapping and call its ``keys()`` by name."""
    if "keys" not in (row.name, new_name) or not row.parent_path or not row.file.endswith((".py", ".pyi")):
        return
    own, related = related_classes(conn, row)
    if not own or not inherited(conn, own | related, "__getitem__"):
        return
    raise MutationBlocked(
        f"{row.parent_path} has __getitem__, so dict(**obj), {{**obj}} and dict.update(obj) read it as a"
        " mapping and call its keys() by name: renaming from or to 'keys' changes what they do",
        {"protocol": "Mapping.keys"},
    )


def check_nested_class(conn: sqlite3.Connection, row: SymbolRow) -> None:
    """MUTATION_BLOCKED for a Python class nested in a class (``class Meta:``, ``class Inner:``)
    when a related class, in the project or outside it, has a member of that name: the nested
    classes override one another like methods (``self.Inner()`` in the base makes the subclass's),
    and a framework base reads its own (wtforms' and marshmallow's ``Meta``), but nested classes
    are not linked into override families, so renaming one would split them silently."""
    if row.kind != "class" or not row.parent_path or not row.file.endswith((".py", ".pyi")):
        return
    owner = query_symbols(conn, "f.path = ? AND s.symbol_path = ?", (row.file, row.parent_path))
    if not owner or owner[0].kind != "class":
        return  # a class defined inside a function is local
    own, related = related_classes(conn, row)
    clashes = [m.selector for m in inherited(conn, related, row.name)]
    outside = outside_inherited(conn, own | related, row.name)
    if outside is not None:
        clashes.append(f"{outside} (outside the project)")
    if not clashes and _Classes(conn).unknown_base(own | related):
        clashes.append("a base astmcp could not resolve, which may define it")
    if clashes:
        raise MutationBlocked(
            f"{row.name!r} is a class nested in {row.parent_path}, and a related class has a member of that"
            f" name ({', '.join(sorted(clashes)[:5])}): nested classes override one another but are not"
            " renamed as a family; rename them together by hand",
            {"related_members": sorted(clashes)},
        )


def check_metaclass_attribute(conn: sqlite3.Connection, row: SymbolRow) -> None:
    """MUTATION_BLOCKED for an attribute of a Python metaclass (a class deriving from ``type``):
    what its methods set on ``cls`` (``cls._hooks = …`` in ``SchemaMeta.__init__``) lands on the
    classes it makes, whose own code reads and declares it (marshmallow's ``Schema._hooks``, seed 12
    broke): those are not linked to the metaclass's attribute, so the rename is refused."""
    if row.kind != "attribute" or not row.parent_path or not row.file.endswith((".py", ".pyi")):
        return
    methods = query_symbols(
        conn, "f.path = ? AND s.parent_path = ? AND s.kind = 'method'", (row.file, row.parent_path)
    )
    if not any(m.line < row.name_line <= m.end_line for m in methods):
        return  # declared in the metaclass's body (`OPTIONS_CLASS: type`), not set on `cls` by a method
    classes = _Classes(conn)
    owner = classes.owner(row)
    if owner is None:
        return
    seen: set[int] = set()
    queue = [owner]
    while queue:
        class_id = queue.pop()
        if class_id in seen:
            continue
        seen.add(class_id)
        queue.extend(classes.parents(class_id))
        for (key,) in conn.execute(
            "SELECT dst_key FROM edges WHERE src_symbol_id = ? AND kind = 'inherits' AND dst_key IS NOT NULL",
            (class_id,),
        ):
            ancestors: frozenset[str] = class_ancestors(str(key)) or frozenset()
            if str(key) == "builtins.type" or "builtins.type" in ancestors:
                raise MutationBlocked(
                    f"{row.name!r} is an attribute of the metaclass {row.parent_path}: what its methods set"
                    " on `cls` belongs to the classes it makes, whose own code reads it under this name;"
                    " rename it there together by hand",
                    {"metaclass": row.parent_path},
                )


def check_metaclass_set(ws: Workspace, conn: sqlite3.Connection, row: SymbolRow) -> None:
    """The other side of :func:`check_metaclass_attribute`: an attribute of a class made by a
    project metaclass (``class Schema(metaclass=SchemaMeta)``, or a base's) that the metaclass also
    has (it sets ``cls._hooks``): renaming the class's alone leaves the metaclass setting the old name."""
    if row.kind != "attribute" or not row.parent_path or not row.file.endswith(".py"):
        return
    classes = _Classes(conn)
    owner = classes.owner(row)
    seen: set[int] = set()
    queue = [owner] if owner is not None else []
    while queue:
        class_id = queue.pop()
        if class_id in seen:
            continue
        seen.add(class_id)
        queue.extend(classes.parents(class_id))
        found = query_symbols(conn, "s.id = ?", (class_id,))
        if not found:
            continue
        cls = found[0]
        try:
            tree = parsed_tree(load_file(ws, cls.file).source.text)
        except (OSError, SyntaxError, ValueError, AstmcpError):
            continue
        for node in class_statements(tree).get(cls.name, ()):
            if node.lineno > cls.name_line:
                continue
            for keyword in node.keywords:
                meta = keyword.value
                name = (
                    meta.attr
                    if isinstance(meta, ast.Attribute)
                    else meta.id
                    if isinstance(meta, ast.Name)
                    else None
                )
                if keyword.arg != "metaclass" or name is None:
                    continue
                if query_symbols(
                    conn, "s.parent_path = ? AND s.name = ? AND s.kind = 'attribute'", (name, row.name)
                ):
                    raise MutationBlocked(
                        f"{row.name!r} is also set by the metaclass {name} of {cls.name} (on `cls`): renaming"
                        " the class's attribute alone leaves the metaclass setting the old name",
                        {"metaclass": name},
                    )


_FORWARDING_KINDS = ("method", "property")


def forwarding_members(
    ws: Workspace,
    conn: sqlite3.Connection,
    row: SymbolRow,
    family: Iterable[SymbolRow],
    uses: Iterable[tuple[str, int]],
) -> list[SymbolRow]:
    """Python: same-named methods and properties of classes outside ``family`` that only forward to
    a member of it (``uses``: the file and line of each reference found): the body, docstring
    aside, is ``return <receiver>.<name>(…)`` (or the call alone, or the attribute read).

    ``TZP.create_timezone`` returns ``self.__provider.create_timezone(tz)``: a proxy gives its
    users the provider's interface under the provider's names, and Python code hands one where the
    other is expected without a type checker objecting at run time (icalendar's tests pass a
    ``PYTZ`` provider to ``to_tz(tzp=…)``, annotated ``TZP``). Renaming the provider's member alone
    leaves the proxy's, and every such place breaks; the proxy's member is a partner of the rename
    whose uses are uncertain. A member that does more (``return self.key.as_const(ctx),
    self.value.as_const(ctx)``; a signer deriving a key first) is a user of the family, no proxy."""
    if row.kind not in _FORWARDING_KINDS or not row.parent_path or mangled(row):
        return []
    known = {m.id for m in family}
    lines: dict[str, set[int]] = {}
    for path, line in uses:
        lines.setdefault(path, set()).add(line)
    marks = ",".join("?" * len(_FORWARDING_KINDS))
    found: list[SymbolRow] = []
    for other in query_symbols(conn, f"s.name = ? AND s.kind IN ({marks})", (row.name, *_FORWARDING_KINDS)):
        if other.id in known or not other.parent_path or not other.file.endswith(".py"):
            continue
        within = [line for line in lines.get(other.file, ()) if other.start_line <= line <= other.end_line]
        if within and _forwards(ws, other, within):
            found.append(other)
    return found


def forwarded_members(
    ws: Workspace, conn: sqlite3.Connection, family: Iterable[SymbolRow]
) -> list[SymbolRow]:
    """Python, the other way round: the same-named members of other classes that a member of
    ``family`` only forwards to (renaming ``TZP.create_timezone`` alone breaks the places a
    provider is handed where a ``TZP`` is expected, as renaming the provider's does). Only those a
    reference resolves to (certain or likely); their own families are the caller's to add."""
    family = list(family)
    known = {m.id for m in family}
    found: dict[int, SymbolRow] = {}
    for member in family:
        if member.kind not in _FORWARDING_KINDS or not member.parent_path or not member.file.endswith(".py"):
            continue
        targets = [
            (int(symbol_id), int(line))
            for symbol_id, line in conn.execute(
                "SELECT DISTINCT r.symbol_id, r.line FROM refs r JOIN files f ON f.id = r.file_id"
                " WHERE f.path = ? AND r.name = ? AND r.line BETWEEN ? AND ? AND r.symbol_id IS NOT NULL"
                " AND r.confidence IN ('certain', 'likely') AND r.kind NOT IN ('definition', 'import', 'export')",
                (member.file, member.name, member.start_line, member.end_line),
            )
            if symbol_id not in known
        ]
        if targets and _forwards(ws, member, [line for _, line in targets]):
            for symbol_id, _ in targets:
                for target in query_symbols(conn, "s.id = ?", (symbol_id,)):
                    if target.kind in _FORWARDING_KINDS and target.parent_path:
                        found.setdefault(target.id, target)
    return list(found.values())


def _forwards(ws: Workspace, member: SymbolRow, uses: list[int]) -> bool:
    """Whether ``member``'s body only hands on a same-named call or read found on a line of ``uses``."""
    try:
        tree = parse_python(ws, member.file)
    except (OSError, SyntaxError, ValueError):
        return False
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or node.name != member.name:
            continue
        if node.lineno != member.name_line:
            continue  # (another def of the name: nested, or a property's setter)
        body = node.body
        if (
            body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            body = body[1:]  # the docstring
        if len(body) != 1 or not isinstance(body[0], (ast.Return, ast.Expr)) or body[0].value is None:
            return False
        value = body[0].value
        if isinstance(value, ast.Await):
            value = value.value
        target = value.func if isinstance(value, ast.Call) else value
        return (
            isinstance(target, ast.Attribute)
            and target.attr == member.name
            and not (isinstance(target.value, ast.Call) and _named(target.value.func) == "super")
            and (target.end_lineno or target.lineno) in uses
        )
    return False


def _named(node: ast.expr) -> str:
    return node.id if isinstance(node, ast.Name) else ""


@per_tree
def class_statements(tree: ast.Module) -> dict[str, tuple[ast.ClassDef, ...]]:
    """The ``class`` statements of a (shared) module tree by name, nested ones included."""
    found: dict[str, list[ast.ClassDef]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            found.setdefault(node.name, []).append(node)
    return {name: tuple(nodes) for name, nodes in found.items()}


def check_borrowed_methods(ws: Workspace, conn: sqlite3.Connection, row: SymbolRow) -> None:
    """Python: MUTATION_BLOCKED for renaming a member of a class (or a related class) whose body
    takes an outside class's functions as its own (pyrsistent's ``PSet``: ``__and__ =
    Set.__and__``) when that outside class defines the member: those functions run on the
    project's instances and call it by name (``Set.__and__`` calls ``self._from_iterable``)."""
    if not row.parent_path or not row.file.endswith(".py"):
        return
    own, related = related_classes(conn, row)
    for class_id in sorted(own | related):
        found = query_symbols(conn, "s.id = ?", (class_id,))
        if not found or not found[0].file.endswith(".py"):
            continue
        cls = found[0]
        try:
            tree = parse_python(ws, cls.file)
        except (OSError, SyntaxError, ValueError):
            continue
        imported = {  # `from collections.abc import Set`: Set -> collections.abc.Set
            alias.asname or alias.name: f"{node.module}.{alias.name}"
            for node in tree.body
            if isinstance(node, ast.ImportFrom) and node.module and not node.level
            for alias in node.names
        }
        for node in class_statements(tree).get(cls.name, ()):
            if node.lineno > cls.name_line:
                continue
            for stmt in node.body:
                value = stmt.value if isinstance(stmt, ast.Assign) else None
                if not (isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name)):
                    continue
                outside = imported.get(value.value.id)
                if outside is not None and class_defines(outside, row.name) is True:
                    raise MutationBlocked(
                        f"{cls.name} takes {value.value.id}.{value.attr} from {outside} as its own, and"
                        f" {outside} calls {row.name!r} on the instances it runs on: renamed, it would"
                        " no longer be found",
                        {"outside": f"{outside}.{row.name}"},
                    )
