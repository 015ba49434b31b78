"""Python: a field of a class constructed with a ``**mapping`` (``Point(**row)``).

A class whose ``__init__`` is generated from its fields (a dataclass, attrs, a NamedTuple: no
``__init__`` written in it or its project bases) takes each field as a keyword. A call passing
``**mapping`` may hold the field's name as a key (``Config(**json.load(f))``, ``Row(**r) for r in
csv.DictReader(…)``): renaming the field leaves the key behind and the call raises TypeError. Such
calls are uncertain hits at the ``**`` (never edited: the key is in data, not code).

The other way round, a field's name becomes a key wherever its record is turned into a mapping
(``asdict(row)``, ``m.model_dump()``, ``p._asdict()``) and the keys are read by name (``RowDTO(**asdict(row))``, ``Public.model_validate(m.model_dump())``),
and data wherever its fields are listed by name (``fields(cls)``, ``get_type_hints(cls)``,
``cls.__annotations__``, ``Model.model_fields``: a loader reading ``APP_<FIELD>``). In the files
that use the field's class, each such conversion or listing is an uncertain hit.
"""

from __future__ import annotations

import ast
import builtins
import re
import sqlite3

from astmcp.query.common import SymbolRow, ancestry, query_symbols, unresolved_base, with_subclasses
from astmcp.query.parameter_calls import PythonFiles
from astmcp.query.parameters import read_text
from astmcp.query.pytrees import parsed_tree, per_tree
from astmcp.refactor.mro_walks import walked_classes
from astmcp.refactor.pyscopes import FileScopes
from astmcp.refactor.rename_refs import Hit
from astmcp.resolve.python_lookups import Entity, alternatives
from astmcp.resolve.python_resolver import Resolver as PythonResolver
from astmcp.resolve.python_scope import all_args, func_name
from astmcp.resolve.python_vocab import SLOT_NAME
from astmcp.workspace import Workspace

__all__ = ["dump_hits", "mapping_hits", "typed_dict_keys"]

_FIELD_KINDS = ("attribute", "variable", "property")


def _constructed_classes(conn: sqlite3.Connection, member: SymbolRow) -> list[SymbolRow]:
    """The member's class and its subclasses, as long as none of them or their project bases
    writes an ``__init__`` (then keywords are that method's parameters, judged elsewhere)."""
    owners = query_symbols(
        conn, "f.path = ? AND s.symbol_path = ? AND s.kind = 'class'", (member.file, member.parent_path)
    )
    out: list[SymbolRow] = []
    queue = list(owners)
    seen: set[int] = set()
    while queue:
        cls = queue.pop()
        if cls.id in seen:
            continue
        seen.add(cls.id)
        if _writes_init(conn, cls, set()):
            continue
        out.append(cls)
        for (sub,) in conn.execute(
            "SELECT src_symbol_id FROM edges WHERE dst_symbol_id = ? AND kind = 'inherits' AND src_symbol_id IS NOT NULL",
            (cls.id,),
        ):
            queue.extend(query_symbols(conn, "s.id = ?", (sub,)))
    return out


def _writes_init(conn: sqlite3.Connection, cls: SymbolRow, seen: set[int]) -> bool:
    if cls.id in seen:
        return False
    seen.add(cls.id)
    if query_symbols(
        conn, "f.path = ? AND s.parent_path = ? AND s.name = '__init__'", (cls.file, cls.symbol_path)
    ):
        return True
    for (base,) in conn.execute(
        "SELECT dst_symbol_id FROM edges WHERE src_symbol_id = ? AND kind = 'inherits' AND dst_symbol_id IS NOT NULL",
        (cls.id,),
    ):
        if any(_writes_init(conn, b, seen) for b in query_symbols(conn, "s.id = ?", (base,))):
            return True
    return False


def mapping_hits(ws: Workspace, conn: sqlite3.Connection, family: list[SymbolRow]) -> list[Hit]:
    """Uncertain hits at each ``**mapping`` of a call constructing a class the renamed field is
    an ``__init__`` keyword of: by name, and in the code of that class and the classes below it
    by ``cls(**…)``, ``type(self)(**…)``, ``self.__class__(**…)`` and ``super().__init__(**…)``
    (a ``from_dict`` classmethod, a subclass forwarding its ``**kwargs``)."""
    classes: dict[int, SymbolRow] = {}
    below: set[int] = set()
    for member in family:
        if member.kind in _FIELD_KINDS and member.parent_path and member.file.endswith((".py", ".pyi")):
            for cls in _constructed_classes(conn, member):
                classes[cls.id] = cls
            below |= _classes_below(conn, member)
    files = PythonFiles(ws)
    if not classes or _keywordless(conn, files, set(classes) | below):
        return []
    out: list[Hit] = _forwarded_mappings(conn, files, below)
    out += _replace_mappings(ws, conn, files, {m.name for m in family})
    marks = ",".join("?" * len(classes))
    for path, line, end_col in conn.execute(
        "SELECT DISTINCT f.path, r.line, r.end_col FROM refs r JOIN files f ON f.id = r.file_id"
        f" WHERE r.symbol_id IN ({marks}) AND r.kind = 'call' AND r.confidence IN ('certain', 'likely')",
        tuple(classes),
    ):
        parsed = files.get(path)
        call = parsed.by_callee.get((line, end_col)) if parsed is not None else None
        for keyword in call.keywords if call is not None and parsed is not None else []:
            if keyword.arg is None and not isinstance(keyword.value, ast.Dict):
                column = parsed.scopes.column_of(keyword.lineno, keyword.col_offset)  # type: ignore[union-attr]
                note = "a `**mapping` given to the constructor may hold the field's name as a key"
                out.append(Hit(path, keyword.lineno, column, column + 2, "call", "name", note=note))
    return out


# calls making a copy of a record with some fields replaced, by keyword: `dataclasses.replace(obj,
# **changes)`, `copy.replace` (3.13), attrs' `evolve`, a named tuple's `_replace(**changes)`
_REPLACERS = frozenset({"replace", "evolve"})


def _replace_mappings(
    ws: Workspace, conn: sqlite3.Connection, files: PythonFiles, names: set[str]
) -> list[Hit]:
    """Uncertain hits at each ``**mapping`` given to a record-copying call (``replace(cfg, **overrides)``,
    ``point._replace(**row)``): its keys are field names. Where the mapping is the enclosing
    function's own ``**kwargs`` (``def with_changes(obj, **changes): return replace(obj, **changes)``),
    the same-named keywords of that function's calls are hits too."""
    out: list[Hit] = []
    for (path,) in conn.execute("SELECT path FROM files WHERE language = 'python' ORDER BY path"):
        if not path.endswith(".py"):
            continue
        try:
            text = read_text(ws, path)
        except (OSError, ValueError):
            continue
        if "**" not in text or not ("replace" in text or "evolve" in text):
            continue
        if path not in files.parsed and not _copies_by_mapping(text):
            continue  # (no record-copying call given a `**mapping`: the file's scopes are not built)
        parsed = files.get(path, text)
        if parsed is None:
            continue
        aliases = _replacer_aliases(parsed.scopes.tree)
        for function in ast.walk(parsed.scopes.tree):
            for node in _own_calls(function):
                if not _copies_record(node, aliases):
                    continue
                for keyword in node.keywords:
                    if not _mapping_keyword(keyword):
                        continue
                    column = parsed.scopes.column_of(keyword.lineno, keyword.col_offset)
                    note = "a `**mapping` given to a record-copying call may hold the field's name as a key"
                    out.append(Hit(path, keyword.lineno, column, column + 2, "call", "name", note=note))
                    if (
                        isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef))
                        and function.args.kwarg is not None
                        and isinstance(keyword.value, ast.Name)
                        and keyword.value.id == function.args.kwarg.arg
                    ):
                        out += _keywords_at_calls(conn, files, path, function, names)
    return out


_RECORD_MODULES = frozenset({"dataclasses", "copy", "attr", "attrs"})


def _mapping_keyword(keyword: ast.keyword) -> bool:
    """``**mapping`` (not ``**{…}``, whose keys are written out)."""
    return keyword.arg is None and not isinstance(keyword.value, ast.Dict)


def _copies_by_mapping(text: str) -> bool:
    """Whether the module ``text`` makes a record-copying call given a ``**mapping`` (a plain
    parse: the cheap test before the file's scopes are built)."""
    try:
        tree = parsed_tree(text)
    except (SyntaxError, ValueError):
        return False
    given = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and any(_mapping_keyword(keyword) for keyword in node.keywords)
    ]
    if not given:
        return False
    aliases = _replacer_aliases(tree)
    return any(_copies_record(node, aliases) for node in given)


def _replacer_aliases(tree: ast.AST) -> tuple[set[str], set[str]]:
    """(names bound to ``replace``/``evolve``, names bound to their modules) by the file's imports
    (``from dataclasses import replace as rep``, ``import dataclasses as dc``)."""
    functions, modules = set(_REPLACERS), set(_RECORD_MODULES)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "") in _RECORD_MODULES:
            functions.update(a.asname or a.name for a in node.names if a.name in _REPLACERS)
        elif isinstance(node, ast.Import):
            modules.update(a.asname or a.name for a in node.names if a.name in _RECORD_MODULES)
    return functions, modules


def _copies_record(node: ast.Call, aliases: tuple[set[str], set[str]]) -> bool:
    """``replace(obj, …)``/``evolve(obj, …)``, ``dataclasses.replace``, ``copy.replace``,
    ``attrs.evolve`` (or aliases) or ``obj._replace(…)`` (a ``str``'s or ``datetime``'s
    ``.replace`` is none)."""
    functions, modules = aliases
    func = node.func
    if isinstance(func, ast.Name):
        return func.id in functions and bool(node.args)
    if not isinstance(func, ast.Attribute):
        return False
    if func.attr == "_replace":
        return True
    return (
        func.attr in _REPLACERS
        and isinstance(func.value, ast.Name)
        and func.value.id in modules
        and bool(node.args)
    )


def _own_calls(function: ast.AST) -> list[ast.Call]:
    """The calls in a module's, class body's, function's or lambda's own code (not in nested
    ones); [] for other nodes."""
    if not isinstance(
        function, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
    ):
        return []
    found: list[ast.Call] = []
    stack = list(ast.iter_child_nodes(function))
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if isinstance(node, ast.Call):
            found.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return found


def _keywords_at_calls(
    conn: sqlite3.Connection,
    files: PythonFiles,
    path: str,
    function: ast.FunctionDef | ast.AsyncFunctionDef,
    names: set[str],
) -> list[Hit]:
    """Uncertain hits at the keywords named like a renamed field in the project's calls of
    ``function`` (declared in ``path``)."""
    out: list[Hit] = []
    for symbol in query_symbols(
        conn, "f.path = ? AND s.name = ? AND s.name_line = ?", (path, function.name, function.lineno)
    ):
        for call_path, line, end_col in conn.execute(
            "SELECT DISTINCT f.path, r.line, r.end_col FROM refs r JOIN files f ON f.id = r.file_id"
            " WHERE r.symbol_id = ? AND r.kind = 'call'",
            (symbol.id,),
        ):
            parsed = files.get(call_path)
            call = parsed.by_callee.get((line, end_col)) if parsed is not None else None
            if parsed is None or call is None:
                continue
            for keyword in call.keywords:
                if keyword.arg is not None and keyword.arg in names:
                    column = parsed.scopes.column_of(keyword.lineno, keyword.col_offset)
                    note = f"a keyword {function.name}() forwards into a record-copying call"
                    out.append(
                        Hit(
                            call_path,
                            keyword.lineno,
                            column,
                            column + len(keyword.arg),
                            "call",
                            "name",
                            note=note,
                        )
                    )
    return out


_SELF_MAKERS = ("cls", "type(self)", "self.__class__", "super().__init__", "type(cls)")


def _forwarded_mappings(conn: sqlite3.Connection, files: PythonFiles, classes: set[int]) -> list[Hit]:
    """Uncertain hits at the ``**mapping`` of each call in the body of one of ``classes`` that makes
    an instance of its own class (or runs its base's ``__init__``) from a mapping."""
    if not classes:
        return []
    marks = ",".join("?" * len(classes))
    out: list[Hit] = []
    rows = conn.execute(
        f"SELECT f.path, s.line, s.end_line FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.id IN ({marks})",
        tuple(classes),
    ).fetchall()
    for path, first, last in rows:
        parsed = files.get(path) if path.endswith(".py") else None
        if parsed is None:
            continue
        for node in ast.walk(parsed.scopes.tree):
            if not isinstance(node, ast.Call) or not first <= node.lineno <= last:
                continue
            maker = ast.unparse(node.func).replace(" ", "")
            if (
                maker not in _SELF_MAKERS
                and not maker.startswith("super(")
                and not maker.endswith(".__init__")
            ):
                continue
            explicit = maker.endswith(".__init__") and not maker.startswith("super(")
            self_first = bool(node.args) and isinstance(node.args[0], ast.Name) and node.args[0].id == "self"
            if explicit and not self_first:  # `Base.__init__(self, **kw)`: only with `self` first
                continue
            for keyword in node.keywords:
                if keyword.arg is None and not isinstance(keyword.value, ast.Dict):
                    column = parsed.scopes.column_of(keyword.lineno, keyword.col_offset)
                    note = "a `**mapping` given to the class's own constructor may hold the field's name as a key"
                    out.append(Hit(path, keyword.lineno, column, column + 2, "call", "name", note=note))
    return out


# calls that turn a record (a dataclass, attrs class, pydantic model, named tuple) into a mapping
# keyed by its fields' names (`vars(o)` and `o.__dict__` only where the keys become names
# elsewhere, `View(**vars(row))`: any object has them), and those that list its fields by name
# (`for f in fields(cls)`, `get_type_hints(cls).items()`: a settings loader reading `APP_<NAME>`)
_DUMP_FUNCTIONS = frozenset({"asdict", "get_type_hints"})
_DUMP_METHODS = frozenset({"model_dump", "model_dump_json", "dict", "_asdict"})
# `fields` and `get_annotations` are such functions only as imported from these modules
_FIELD_LISTERS = {
    "fields": frozenset({"dataclasses", "attr", "attrs"}),
    "get_annotations": frozenset({"inspect"}),
}
# attributes holding the fields by name
_FIELD_TABLES = frozenset(
    {"__annotations__", "__dataclass_fields__", "model_fields", "__fields__", "_fields"}
)
# a word every conversion, listing and attribute mapping `_dumps` finds is spelled with
_DUMP_WORDS = re.compile(
    r"\b(?:vars|__dict__|__setstate__|asdict|_asdict|get_type_hints|fields|get_annotations|model_dump"
    r"|model_dump_json|__annotations__|__dataclass_fields__|model_fields|__fields__|_fields)\b|\.dict\("
)
# the field tables only a named tuple or an outside base (pydantic) gives a class
_OUTSIDE_TABLES = frozenset({"_fields", "model_fields", "__fields__"})


def _attribute_mapping(node: ast.expr) -> ast.expr | None:
    """The callee or attribute of ``vars(x)`` / ``x.__dict__``: an object's attributes by name."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "vars"
        and node.args
    ):
        return node.func
    if isinstance(node, ast.Attribute) and node.attr == "__dict__" and isinstance(node.ctx, ast.Load):
        return node
    return None


def _unpacked_state(node: ast.AST) -> list[ast.expr]:
    """``**state`` in ``def __setstate__(self, state)``: an unpickled object's attributes by name
    (``self.__init__(**state)``), given as keywords."""
    if not isinstance(node, ast.FunctionDef) or node.name != "__setstate__" or len(node.args.args) < 2:
        return []
    state = node.args.args[1].arg
    return [
        keyword.value
        for call in ast.walk(node)
        if isinstance(call, ast.Call)
        for keyword in call.keywords
        if keyword.arg is None and isinstance(keyword.value, ast.Name) and keyword.value.id == state
    ]


# builtins that read no key of a mapping given to them (`print` only shows it)
# (`hasattr(C.__dict__, "keys")` asks the mapping for a method, not for a key)
_INERT_TAKERS = frozenset({"len", "id", "bool", "isinstance", "hash", "type", "print", "hasattr", "callable"})


def _unpacked_attributes(node: ast.AST) -> list[ast.expr]:
    """``vars(x)`` / ``x.__dict__`` whose keys become names elsewhere: unpacked into a call's
    keywords (``View(**vars(row))``), merged (``o.__dict__.update(vars(d))``) or given to a call
    (``db.execute(sql, vars(row))``)."""
    found: list[ast.expr] = []
    if isinstance(node, ast.Dict):  # `{**vars(self), **changes}`
        for key, value in zip(node.keys, node.values, strict=True):
            mapping = _attribute_mapping(value) if key is None else None
            if mapping is not None:
                found.append(mapping)
    if isinstance(node, ast.Call):
        given = [k.value for k in node.keywords if k.arg is None]
        if isinstance(node.func, ast.Attribute) and node.func.attr == "update":
            given += [*node.args, node.func.value]
        elif not (isinstance(node.func, ast.Name) and node.func.id in _INERT_TAKERS):
            # given on (`db.execute(sql, vars(user))` fills named parameters by key)
            given += [*node.args, *(k.value for k in node.keywords if k.arg is not None)]
        for value in given:
            mapping = _attribute_mapping(value)
            if mapping is not None:
                found.append(mapping)
    return found


def _plain_functions(tree: ast.AST) -> dict[str, frozenset[str]]:
    """Names the file binds once, by an undecorated ``def`` (no other assignment, parameter,
    import, class or ``def`` of the name anywhere in it), wherever read a function object: each
    with the keys its annotations may have (its parameters' names and ``return``)."""
    bound: dict[str, int] = {}
    plain: dict[str, frozenset[str]] = {}
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.append(node.name)
            if not isinstance(node, ast.ClassDef) and not node.decorator_list:
                plain[node.name] = frozenset({"return", *(a.arg for a in all_args(node.args))})
        elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            names.append(node.id)
        elif isinstance(node, ast.arg):
            names.append(node.arg)
        elif isinstance(node, ast.alias):
            names.append((node.asname or node.name).partition(".")[0])
        elif isinstance(node, ast.ExceptHandler | ast.MatchAs | ast.MatchStar) and node.name:
            names.append(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            names.append(node.rest)
        for name in names:
            bound[name] = bound.get(name, 0) + 1
    return {name: keys for name, keys in plain.items() if bound.get(name) == 1}


@per_tree
def _function_listings(tree: ast.AST) -> dict[int, frozenset[str]]:
    """The listings and mappings :func:`_dumps` finds that are a plain function's own, by node id
    (the attribute, or a call's callee), each with the names it may hold: ``f.__annotations__``,
    ``get_type_hints(f)`` and ``inspect.get_annotations(f)`` hold f's parameters' names (a field
    of the same name may be read through them), ``f.__dict__`` and ``vars(f)`` the function's own
    attributes, no class member's (see :func:`_plain_functions`)."""
    functions = _plain_functions(tree)
    out: dict[int, frozenset[str]] = {}
    if not functions:
        return out
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            keys = functions.get(node.value.id)
            if keys is not None and node.attr in ("__annotations__", "__dict__"):
                out[id(node)] = keys if node.attr == "__annotations__" else frozenset()
        elif (
            isinstance(node, ast.Call)
            and len(node.args) == 1
            and isinstance(node.args[0], ast.Name)
            and node.args[0].id in functions
        ):
            func = node.func
            called = func_name(func)
            if called == "vars" and isinstance(func, ast.Name):
                out[id(func)] = frozenset()
            elif called in ("get_type_hints", "get_annotations"):
                out[id(func)] = functions[node.args[0].id]
    return out


@per_tree
def _dumps(tree: ast.AST) -> tuple[tuple[ast.expr, bool], ...]:
    """Each conversion to a mapping (False) or listing of a record's fields (True) (per tree: the
    trees are shared, see :func:`parsed_tree`)."""
    imported = {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
        if alias.name in _FIELD_LISTERS and (node.module or "") in _FIELD_LISTERS[alias.name]
    }
    out: list[tuple[ast.expr, bool]] = []
    for node in ast.walk(tree):
        for mapping in _unpacked_attributes(node):
            out.append((mapping, True))
        out.extend((state, True) for state in _unpacked_state(node))
        if isinstance(node, ast.Call) and node.args:  # (`asdict(row, recurse=False)` too)
            func = node.func
            if isinstance(func, ast.Name) and (func.id in _DUMP_FUNCTIONS or func.id in imported):
                out.append((func, func.id != "asdict"))
            elif isinstance(func, ast.Attribute) and func.attr in ("asdict", "get_type_hints"):
                # `dataclasses.asdict(row)`, `attrs.asdict(row)`, `typing.get_type_hints(cls)`
                out.append((func, func.attr != "asdict"))
            elif (
                isinstance(func, ast.Attribute)
                and isinstance(func.value, ast.Name)
                and func.value.id in _FIELD_LISTERS.get(func.attr, ())
            ):
                out.append((func, True))  # `dataclasses.fields(cls)`, `inspect.get_annotations(cls)`
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in _DUMP_METHODS
            and not node.args
        ):
            out.append((node.func, False))
        elif (
            isinstance(node, ast.Attribute) and node.attr in _FIELD_TABLES and isinstance(node.ctx, ast.Load)
        ):
            out.append((node, True))  # `cls.__annotations__`, `Model.model_fields`
    return tuple(out)


def dump_hits(ws: Workspace, conn: sqlite3.Connection, family: list[SymbolRow]) -> list[Hit]:
    """Uncertain hits at each conversion of a record to a mapping of its fields (``asdict``,
    ``model_dump``, ``_asdict``) in a file that uses the renamed field's class (or a subclass),
    when that class has a generated ``__init__``: the field's name is a key there, which may be
    read by name; and at each listing of fields by name (``fields``, ``get_type_hints``,
    ``__annotations__``, ``model_fields``) in a file that uses the class or a subclass, whatever
    its ``__init__`` (a hand-written one may be the loader: ``for name, typ in
    self.__annotations__.items(): setattr(self, name, …)``)."""
    records: set[int] = set()
    owners: set[int] = set()
    for member in family:
        if (
            member.kind not in _FIELD_KINDS
            or not member.parent_path
            or not member.file.endswith((".py", ".pyi"))
        ):
            continue
        records.update(cls.id for cls in _constructed_classes(conn, member))
        owners.update(_classes_below(conn, member))
    if not owners:
        return []
    related, outside = ancestry(conn, sorted(owners))  # a `self` of these may be an instance of the class
    # a base's own methods list the fields of whatever subclass they run on (mako's
    # `dataclasses.fields(cls)` in `ReadsCfg.from_cfg_file` lists `Config`'s, read from setup.cfg);
    # there, only listings of declared fields count (no object's attribute mapping)
    using = _using_files(conn, owners)
    bases_only = _class_files(conn, related - owners) - using
    by_kind = {False: _using_files(conn, records), True: using | bases_only}
    # an instance of an outside class is none of these when they derive from no outside class
    # but the roots every class may have (an unresolved base, key NULL, counts as outside)
    foreign = bool(outside - _ROOT_BASES) or unresolved_base(conn, related)
    resolver = PythonResolver(conn, {})
    declaring = {  # the classes whose own namespace holds a member of the family
        cls.id
        for member in family
        if member.parent_path and not _instance_only(conn, member)
        for cls in query_symbols(
            conn, "f.path = ? AND s.symbol_path = ? AND s.kind = 'class'", (member.file, member.parent_path)
        )
    }
    # `x._fields` lists a named tuple's fields, `model_fields` a pydantic model's: a class with
    # neither base (no `NamedTuple`, nothing outside the project) has no such table
    # (nor does a class whose metaclass or decorator may add one)
    records_only = not foreign and _plain(resolver, conn, related | owners)
    # an attribute only ever set on instances (`self._names = names` in a method) is in no field
    # table or record conversion (those list what the class body declares): only an object's
    # attribute mapping (`vars(o)`, `o.__dict__`) holds it
    set_on_instances = all(
        m.kind == "attribute" and m.signature.startswith("self.")
        for m in family
        if m.kind in _FIELD_KINDS and m.parent_path
    )
    # (a property is no entry of an instance's `__dict__`; a data member set there by name is:
    # `self.__dict__.update(options)` in a base's `__init__` may set a subclass's `timeout`)
    properties_only = all(m.kind == "property" for m in family if m.kind in _FIELD_KINDS and m.parent_path)
    # a member its class lists in `__slots__` is never an entry of an instance's `__dict__` (the
    # slot takes every `obj.x = …`, and reads go past the mapping): `vars(o)`, `o.__dict__` hold no
    # slot, whatever the class of o (parsimonious' `smoo.__dict__` of a slotted Expression)
    slotted = _slotted(conn, family)
    names = {m.name for m in family}
    files = PythonFiles(ws)
    out: list[Hit] = []
    for path in sorted(p for p in by_kind[True] | by_kind[False] if p.endswith(".py")):
        try:
            if not _DUMP_WORDS.search(read_text(ws, path)):
                continue  # (no word a conversion or listing is spelled with: not parsed)
        except (OSError, ValueError):
            continue
        parsed = files.get(path)
        if parsed is None:
            continue
        dumps = _dumps(parsed.scopes.tree)
        objects = (  # an object's attributes by name (`vars(o)`, `**state` of `__setstate__`)
            {
                id(mapping)
                for node in ast.walk(parsed.scopes.tree)
                for mapping in (*_unpacked_attributes(node), *_unpacked_state(node))
            }
            if set_on_instances and dumps
            else set()
        )
        selves = _own_attribute_maps(parsed.scopes.tree) if dumps else {}
        copies = _instance_copies(parsed.scopes.tree) if dumps else set()
        if dumps:  # (`__setstate__` putting back what pickle or copy took: same names both sides)
            copies |= _restored_states(parsed.scopes.tree)
        modules = _module_dicts(parsed.scopes.tree) if dumps else set()
        given = _vars_arguments(parsed.scopes.tree) if dumps else {}
        base_maps = (  # in a base's file alone, an object's attribute mapping holds no property
            {
                id(mapping)
                for node in ast.walk(parsed.scopes.tree)
                for mapping in (*_unpacked_attributes(node), *_unpacked_state(node))
            }
            if path in bases_only and path not in by_kind[False] and properties_only
            else set()
        )
        functions = _function_listings(parsed.scopes.tree) if dumps else {}
        for node, listing in dumps:
            if path not in by_kind[listing] or id(node) in copies or id(node) in base_maps:
                continue
            held = functions.get(id(node))
            if held is not None and not held & names:
                continue  # `p_set.__annotations__` with no parameter of the name: the function's own
            if records_only and isinstance(node, ast.Attribute) and node.attr in _OUTSIDE_TABLES:
                continue
            if set_on_instances and id(node) not in objects:
                continue
            if slotted and _attribute_map(node):
                continue
            if (
                isinstance(node, ast.Attribute)
                and node.attr == "__dict__"
                and (_module_namespace(node.value) or id(node) in modules)
            ):
                continue  # `sys.modules[name].__dict__`: a module's globals, no object's attributes
            named = _named_namespace(resolver, conn, path, parsed.scopes, given.get(id(node)) or node)
            if named is not None and not named & declaring:
                continue  # `vars(pp.__diag__)`: that class's own namespace, or a module's
            own = selves.get(id(node))
            if own is not None and not _is_related(conn, path, own, related):
                continue  # `self.__dict__.update(kw)` in an unrelated class: its own attributes only
            if own is None and not foreign and _outside_instance(resolver, conn, path, node, parsed.scopes):
                continue  # `record.__dict__` of a `logging.LogRecord`: no project class's attributes
            if own is None and _unrelated_instance(resolver, conn, path, node, parsed.scopes, related):
                continue  # `smoo.__dict__` of a `Smoo()`: that class's attributes, none of the family's
            walked = walked_classes(conn, path, parsed.scopes, node) if own is None else None
            if walked is not None and not walked & declaring:
                continue  # `base.__dict__` over a schema's MRO: the classes in it declare no such member
            name = node.attr if isinstance(node, ast.Attribute) else node.id  # type: ignore[attr-defined]
            line = node.end_lineno or node.lineno
            end = parsed.scopes.column_of(line, node.end_col_offset or 0)
            if isinstance(node, ast.Attribute) and _project_member(conn, path, line, end - len(name)):
                continue  # wtforms' `self._fields`: the project's own attribute, not a field table
            note = "a record's fields listed or turned into a mapping: the field's name is data there"
            out.append(Hit(path, line, end - len(name), end, "call", "name", note=note))
    return out


def _slotted(conn: sqlite3.Connection, family: list[SymbolRow]) -> bool:
    """Whether every data member of ``family`` is a slot its class or a project class above it
    lists in ``__slots__``."""
    fields = [m for m in family if m.kind in _FIELD_KINDS and m.parent_path]
    if not fields:
        return False
    for member in fields:
        owners = query_symbols(
            conn, "f.path = ? AND s.symbol_path = ? AND s.kind = 'class'", (member.file, member.parent_path)
        )
        above, _ = ancestry(conn, [c.id for c in owners])
        if not above or not any(_lists_slot(conn, cls, member.name) for cls in sorted(above)):
            return False
    return True


def _lists_slot(conn: sqlite3.Connection, class_id: int, name: str) -> bool:
    """Whether the class's ``__slots__`` lists ``name`` (a slot string the index stored)."""
    return (
        conn.execute(
            "SELECT 1 FROM refs r JOIN symbols s ON s.file_id = r.file_id WHERE s.id = ? AND r.name = ?"
            " AND r.target_key = ? || s.symbol_path LIMIT 1",
            (class_id, name, SLOT_NAME),
        ).fetchone()
        is not None
    )


def _attribute_map(node: ast.AST) -> bool:
    """Whether a listing node is ``x.__dict__`` or the callee of ``vars(x)``."""
    return (isinstance(node, ast.Attribute) and node.attr == "__dict__") or (
        isinstance(node, ast.Name) and node.id == "vars"
    )


def _vars_arguments(tree: ast.AST) -> dict[int, ast.expr]:
    """The argument of each ``vars(x)`` by the id of its callee (what ``_dumps`` keeps)."""
    return {
        id(node.func): node.args[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "vars"
        and len(node.args) == 1
    }


def _named_namespace(
    resolver: PythonResolver, conn: sqlite3.Connection, path: str, scopes: FileScopes, node: ast.expr
) -> set[int] | None:
    """The class whose own namespace ``vars(C)`` / ``C.__dict__`` (``node``: the argument, or the
    ``__dict__`` attribute) reads, when ``C`` is a name or attribute the index resolves to a
    project class (its id) or module (no class); None for anything else (an instance, unknown)."""
    if isinstance(node, ast.Attribute) and node.attr == "__dict__":
        node = node.value
    if not isinstance(node, ast.Name | ast.Attribute):
        return None
    line = node.end_lineno or node.lineno
    if line != node.lineno:
        return None
    end = scopes.column_of(line, node.end_col_offset or 0)
    name = node.id if isinstance(node, ast.Name) else node.attr
    row = conn.execute(
        "SELECT s.kind, s.id FROM refs r JOIN files f ON f.id = r.file_id JOIN symbols s ON s.id = r.symbol_id"
        " WHERE f.path = ? AND r.line = ? AND r.col = ? AND r.name = ? AND r.confidence = 'certain'",
        (path, line, end - len(name), name),
    ).fetchone()
    if row is None:
        # `import glom` then `glom.__dict__`: a project module's globals (modules are no symbols)
        target = conn.execute(
            "SELECT r.target_key FROM refs r JOIN files f ON f.id = r.file_id"
            " WHERE f.path = ? AND r.line = ? AND r.col = ? AND r.name = ?",
            (path, line, end - len(name), name),
        ).fetchone()
        found = resolver.resolve(path, str(target[0])) if target and target[0] else None
        return set() if found is not None and found[0] == "m" else None
    if row[0] == "class":
        return {int(row[1])}
    return set() if row[0] == "module" else None


# attributes only a module object has (a class or an instance has none of them unless it sets them)
_MODULE_ATTRIBUTES = frozenset(
    {"__file__", "__spec__", "__loader__", "__path__", "__package__", "__cached__"}
)


def _module_dicts(tree: ast.AST) -> set[int]:
    """The ids of the ``m.__dict__`` nodes whose ``m`` the same function (or module body) also reads
    a module's own attribute off (``compile(src, module.__file__, "exec")`` then ``exec(code,
    module.__dict__)`` in an import hook): a module's globals, no object's attributes."""
    out: set[int] = set()
    for scope in ast.walk(tree):
        if not isinstance(scope, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        reads: list[tuple[str, str, int]] = []  # (object's name, attribute, node id)
        stack = list(ast.iter_child_nodes(scope))
        while stack:
            node = stack.pop()
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                continue
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                reads.append((node.value.id, node.attr, id(node)))
            stack.extend(ast.iter_child_nodes(node))
        modules = {name for name, attr, _ in reads if attr in _MODULE_ATTRIBUTES}
        out.update(node for name, attr, node in reads if attr == "__dict__" and name in modules)
    return out


def _module_namespace(node: ast.expr) -> bool:
    """``sys.modules[…]`` (or ``modules[…]``, ``.get(…)`` of either): a module object."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get":
        node = node.func.value
    elif isinstance(node, ast.Subscript):
        node = node.value
    else:
        return False
    return (
        isinstance(node, ast.Attribute) and node.attr == "modules" and ast.unparse(node.value) == "sys"
    ) or (isinstance(node, ast.Name) and node.id == "modules")


def _instance_only(conn: sqlite3.Connection, member: SymbolRow) -> bool:
    """Whether ``member`` is only ever an instance's attribute (``self.fields = {}`` in a method):
    its class's ``__dict__`` never holds it, unless ``__slots__`` puts a descriptor there."""
    if member.kind != "attribute" or not member.signature.startswith("self."):
        return False
    slots = conn.execute(
        "SELECT 1 FROM symbols s JOIN files f ON f.id = s.file_id WHERE f.path = ? AND s.symbol_path = ? LIMIT 1",
        (member.file, f"{member.parent_path}.__slots__"),
    ).fetchone()
    return slots is None


_ROOT_BASES = frozenset(
    {"builtins.object", "abc.ABC", "typing.Generic", "typing.Protocol", "typing_extensions.Protocol"}
)


# builtin exception classes: their constructors take no keyword arguments
_EXCEPTIONS = frozenset(
    f"builtins.{name}"
    for name, value in vars(builtins).items()
    if isinstance(value, type) and issubclass(value, BaseException)
)


def _keywordless(conn: sqlite3.Connection, files: PythonFiles, classes: set[int]) -> bool:
    """Whether no constructor of ``classes`` takes their fields as keywords: they and their
    project ancestors write no ``__init__`` (checked before), and no ``__new__`` but one handing
    its ``**kwargs`` on to ``super().__new__`` alone, derive from nothing outside but ``object``,
    ``ABC``, ``Generic``, ``Protocol`` and builtin exceptions, are no named tuples and have no
    decorator or metaclass (which may make one that does: ``@dataclass``)."""
    related, outside = ancestry(conn, sorted(classes))
    if (
        outside - _ROOT_BASES - _EXCEPTIONS
        or unresolved_base(conn, related)
        or not _plain(PythonResolver(conn, {}), conn, related)
    ):
        return False
    for cls in query_symbols(conn, f"s.id IN ({', '.join('?' * len(related))})", tuple(sorted(related))):
        for method in query_symbols(
            conn, "f.path = ? AND s.parent_path = ? AND s.name = '__new__'", (cls.file, cls.symbol_path)
        ):
            parsed = files.get(method.file)
            if parsed is None or not _forwards_to_super(parsed.scopes.tree, method.name_line):
                return False
    return True


def _forwards_to_super(tree: ast.AST, line: int) -> bool:
    """Whether the ``__new__`` named at ``line`` takes ``cls``, ``*args`` and ``**kwargs`` only and
    uses its ``**kwargs`` nowhere but as the ``**kwargs`` of ``super().__new__(…)``."""
    method = next(
        (
            n
            for n in ast.walk(tree)
            if isinstance(n, ast.FunctionDef) and n.name == "__new__" and n.lineno == line
        ),
        None,
    )
    args = method.args if method is not None else None
    if method is None or args is None or args.kwarg is None or len(args.args) > 1 or args.kwonlyargs:
        return False
    kwargs = args.kwarg.arg
    allowed = {
        id(keyword.value)
        for call in ast.walk(method)
        if isinstance(call, ast.Call) and ast.unparse(call.func).replace(" ", "") == "super().__new__"
        for keyword in call.keywords
        if keyword.arg is None
    }
    return all(id(n) in allowed for n in ast.walk(method) if isinstance(n, ast.Name) and n.id == kwargs)


def _plain(resolver: PythonResolver, conn: sqlite3.Connection, classes: set[int]) -> bool:
    """Whether none of ``classes`` is a named tuple or has a decorator or a metaclass (which may
    give it a generated ``__init__`` or field tables)."""
    rows = query_symbols(conn, f"s.id IN ({', '.join('?' * len(classes))})", tuple(sorted(classes)))
    return not any(
        "metaclass" in cls.signature
        or cls.signature.lstrip().startswith("@")
        or cls.symbol_path in resolver.facts(cls.file).get("nfields", {})
        for cls in rows
    )


def _outside_instance(
    resolver: PythonResolver, conn: sqlite3.Connection, path: str, node: ast.expr, scopes: FileScopes
) -> bool:
    """Whether ``x.__dict__`` (``node``) is the mapping of an object the index types as an
    instance of an outside class only (``record: logging.LogRecord``)."""
    found = _receiver(resolver, conn, path, node, scopes)
    if found is None:
        return False
    return all(alt is not None and alt[0] == "x" and alt[1].endswith(".()") for alt in alternatives(found))


def _unrelated_instance(
    resolver: PythonResolver,
    conn: sqlite3.Connection,
    path: str,
    node: ast.expr,
    scopes: FileScopes,
    related: set[int],
) -> bool:
    """Whether ``x.__dict__`` (``node``) is the mapping of an object the index types as an
    instance of project classes none of which is related to the renamed member's (neither one of
    its classes nor above them; a class deriving from one of those is among them, so no
    instance of these may be one of theirs)."""
    found = _receiver(resolver, conn, path, node, scopes)
    if found is None:
        return False
    choices = alternatives(found)
    if not all(alt is not None and alt[0] == "i" for alt in choices):
        return False
    classes: set[int] = {alt[1] for alt in choices if alt is not None}
    # (a base nothing resolves may be a class of the family's: a module loaded at run time)
    return not classes & related and not unresolved_base(conn, ancestry(conn, sorted(classes))[0])


def _receiver(
    resolver: PythonResolver, conn: sqlite3.Connection, path: str, node: ast.expr, scopes: FileScopes
) -> Entity:
    """What the receiver of ``x.__dict__`` (``node``) resolves to, by the chain the index stored."""
    if not isinstance(node, ast.Attribute):
        return None  # `vars(x)`: the argument is not typed here
    line = node.end_lineno or node.lineno
    column = scopes.column_of(line, node.end_col_offset or 0) - len(node.attr)
    row = conn.execute(
        "SELECT r.target_key FROM refs r JOIN files f ON f.id = r.file_id WHERE f.path = ? AND r.line = ?"
        " AND r.col = ? AND r.name = '__dict__'",
        (path, line, column),
    ).fetchone()
    if row is None or not row[0]:
        return None
    chain = row[0].removeprefix("?")
    head, _, step = chain.rpartition("/")
    if step != "__dict__" or not head:
        return None
    return resolver.resolve(path, head)


def _own_attribute_maps(tree: ast.AST) -> dict[int, str]:
    """``self.__dict__`` / ``vars(self)`` (the callee) in a method of a class, by node id: the
    class's path in the file (``Outer.AttrDict``). ``self`` is the method's first parameter
    (not of a static or class method)."""
    out: dict[int, str] = {}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                path = f"{prefix}{child.name}"
                for item in child.body:
                    if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                        _mark_self(item, path, out)
                visit(child, path + ".")
            elif not isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                visit(child, prefix)

    visit(tree, "")
    return out


def _instance_copies(tree: ast.AST) -> set[int]:
    """The ``__dict__`` attributes of ``rv.__dict__.update(self.__dict__)`` where ``rv`` was made in
    the same function as another instance of ``self``'s class (``object.__new__(self.__class__)``,
    ``object.__new__(type(self))``, ``self.__class__.__new__(self.__class__)``, ``copy.copy(self)``):
    a copy, whose attributes keep their names on both sides (jinja2's ``Environment.overlay``)."""
    out: set[int] = set()
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        made: dict[str, list[ast.expr]] = {}
        for node in ast.walk(function):
            if (
                isinstance(node, ast.Assign)
                and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
            ):
                made.setdefault(node.targets[0].id, []).append(node.value)
        for node in ast.walk(function):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "update"
                and len(node.args) == 1
                and not node.keywords
            ):
                continue
            target, source = node.func.value, node.args[0]
            copy, original = _dict_of(target), _dict_of(source)
            values = made.get(copy or "", [])
            if copy and original and len(values) == 1 and _copy_of(values[0], original):
                out.update((id(target), id(source)))
    return out


@per_tree
def _restored_states(tree: ast.AST) -> frozenset[int]:
    """The ``self.__dict__`` of ``self.__dict__.update(state)`` in ``def __setstate__(self, state)``
    (neither name rebound there): pickle's or copy's restore of what ``__getstate__`` gave, by
    default the instance's own ``__dict__``, so its keys are the attributes' names on both sides.
    A state made by hand spells a field's name as a string or keyword (``dict(total=self.total)``,
    ``del state["_lock"]``), each a hit of its own, or takes it from the instance again."""
    out: set[int] = set()
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef) or function.name != "__setstate__":
            continue
        positional = [*function.args.posonlyargs, *function.args.args]
        if len(positional) != 2:
            continue
        me, state = positional[0].arg, positional[1].arg
        if any(
            isinstance(n, ast.Name) and n.id in (me, state) and not isinstance(n.ctx, ast.Load)
            for n in ast.walk(function)
        ):
            continue
        for node in ast.walk(function):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "update"
                and len(node.args) == 1
                and not node.keywords
                and isinstance(node.args[0], ast.Name)
                and node.args[0].id == state
                and _dict_of(node.func.value) == me
            ):
                out.add(id(node.func.value))
    return frozenset(out)


def _dict_of(node: ast.expr) -> str | None:
    """``name`` of ``name.__dict__``, else None."""
    if isinstance(node, ast.Attribute) and node.attr == "__dict__" and isinstance(node.value, ast.Name):
        return node.value.id
    return None


def _copy_of(value: ast.expr, original: str) -> bool:
    """Whether ``value`` makes another instance of ``original``'s class."""
    if not isinstance(value, ast.Call):
        return False
    text = ast.unparse(value).replace(" ", "")
    return text in {
        f"object.__new__({original}.__class__)",
        f"object.__new__(type({original}))",
        f"{original}.__class__.__new__({original}.__class__)",
        f"type({original}).__new__(type({original}))",
        f"copy.copy({original})",
        f"copy({original})",
    }


def _mark_self(method: ast.FunctionDef | ast.AsyncFunctionDef, cls: str, out: dict[int, str]) -> None:
    decorators = {d.id for d in method.decorator_list if isinstance(d, ast.Name)}
    positional = [*method.args.posonlyargs, *method.args.args]
    if decorators & {"staticmethod", "classmethod"} or not positional:
        return
    me = positional[0].arg
    rebound = any(
        isinstance(n, ast.Name) and n.id == me and not isinstance(n.ctx, ast.Load) for n in ast.walk(method)
    )
    if rebound:
        return  # `self = other` somewhere in it: no longer the instance
    for state in _unpacked_state(method):
        out[id(state)] = cls  # `self.__init__(**state)`: the unpickled object is an instance of cls
    for node in ast.walk(method):
        if (
            isinstance(node, ast.Attribute)
            and node.attr == "__dict__"
            and isinstance(node.value, ast.Name)
            and node.value.id == me
        ):
            out[id(node)] = cls
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "vars"
            and len(node.args) == 1
            and isinstance(node.args[0], ast.Name)
            and node.args[0].id == me
        ):
            out[id(node.func)] = cls


def _is_related(conn: sqlite3.Connection, path: str, cls: str, related: set[int]) -> bool:
    """Whether the class ``cls`` of ``path`` is one of ``related`` (an instance of it may be one of
    the renamed field's class); True when the index does not know the class."""
    found = query_symbols(conn, "f.path = ? AND s.symbol_path = ? AND s.kind = 'class'", (path, cls))
    return not found or any(sym.id in related for sym in found)


def _project_member(conn: sqlite3.Connection, path: str, line: int, column: int) -> bool:
    """Whether the attribute read at ``path:line:column`` resolves to a member the project declares."""
    return (
        conn.execute(
            "SELECT 1 FROM refs r JOIN files f ON f.id = r.file_id WHERE f.path = ? AND r.line = ?"
            " AND r.col = ? AND r.symbol_id IS NOT NULL AND r.confidence IN ('certain', 'likely') LIMIT 1",
            (path, line, column),
        ).fetchone()
        is not None
    )


def _class_files(conn: sqlite3.Connection, classes: set[int]) -> set[str]:
    """The files declaring ``classes``."""
    if not classes:
        return set()
    marks = ",".join("?" * len(classes))
    return {
        path
        for (path,) in conn.execute(
            f"SELECT DISTINCT f.path FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.id IN ({marks})",
            tuple(classes),
        )
    }


def _using_files(conn: sqlite3.Connection, classes: set[int]) -> set[str]:
    """The files referring to any of ``classes`` (their own files included)."""
    if not classes:
        return set()
    marks = ",".join("?" * len(classes))
    return {
        path
        for (path,) in conn.execute(
            f"SELECT DISTINCT f.path FROM refs r JOIN files f ON f.id = r.file_id WHERE r.symbol_id IN ({marks})",
            tuple(classes),
        )
    }


def _classes_below(conn: sqlite3.Connection, member: SymbolRow) -> set[int]:
    """The member's class and every project class deriving from it."""
    owners = query_symbols(
        conn, "f.path = ? AND s.symbol_path = ? AND s.kind = 'class'", (member.file, member.parent_path)
    )
    return with_subclasses(conn, {cls.id for cls in owners})


_TYPED_DICTS = frozenset({"typing.TypedDict", "typing_extensions.TypedDict"})


def typed_dict_keys(conn: sqlite3.Connection, row: SymbolRow, hits: list[Hit]) -> list[Hit]:
    """A field of a ``TypedDict`` (or of a project class deriving from one) is a key of plain
    dicts: ``Payload(user_id=7)`` makes ``{"user_id": 7}``, which goes on to ``json.dumps``, a
    ``**`` call or a reader of the key by name. Its references are then uncertain hits of kind
    ``string``; the others are returned as they are."""
    if row.kind not in _FIELD_KINDS or not row.parent_path or not row.file.endswith((".py", ".pyi")):
        return hits
    owners = query_symbols(
        conn, "f.path = ? AND s.symbol_path = ? AND s.kind = 'class'", (row.file, row.parent_path)
    )
    _, outside = ancestry(conn, [o.id for o in owners])
    if not outside & _TYPED_DICTS:
        return hits
    note = "a TypedDict's field is a key of plain dicts: renamed, the data it makes changes too"
    return [
        h
        if h.is_declaration or h.confidence == "name"
        else Hit(h.file, h.line, h.column, h.end_column, "string", "name", note=note)
        for h in hits
    ]
