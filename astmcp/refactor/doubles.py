"""Python: stand-ins given where a family's class is declared.

A test builds a class of its own that has none of the family's classes among its bases and hands
it, or an instance of it, to project code whose parameter is annotated with one of them
(beautifulsoup4's ``class Mock: def initialize_soup(self, soup): …`` given as
``BeautifulSoup("", builder=Mock)``, where ``builder: Optional[Union[TreeBuilder,
Type[TreeBuilder]]]``). The project code then calls the stand-in's members by the declared class's
names (``self.builder.initialize_soup(self)``), which the index reads as certain references of
``TreeBuilder.initialize_soup``: renaming it leaves the stand-in's member behind and the test
fails. Each same-named member of such a stand-in is an uncertain hit of kind ``double`` (never
edited: it is another class's member, renamed on purpose or not at all), so the rename is blocked
by default.

A stand-in is found where it is given: in the file defining it (or a class deriving from it) and
in each file reading one, a call with the class (``builder=Mock``), a new instance (``Mock()``) or
a variable the file assigns one (``builder = Mock(**kw)``) as an argument, whose callee the index
resolved to a project function, method or class (its ``__init__``), and whose parameter's
annotation names a class of the family (through ``Optional``, ``Union``, ``Type``, ``|``: not a
container's items); or a store of one into an attribute (``soup.builder = Mock()``) that a
project class declares so (``builder: TreeBuilder``).
"""

from __future__ import annotations

import ast
import sqlite3
from collections.abc import Iterator

from astmcp.query.common import SymbolRow, ancestry, query_symbols
from astmcp.query.parameters import parse_python
from astmcp.query.pytrees import defined_functions, per_tree
from astmcp.refactor.rename_refs import Hit
from astmcp.workspace import Workspace

__all__ = ["double_hits"]


def double_hits(
    ws: Workspace, conn: sqlite3.Connection, row: SymbolRow, family: list[SymbolRow]
) -> list[Hit]:
    """Uncertain hits (kind ``double``) at the same-named members of classes given where a class
    of the family is declared (see the module's docstring)."""
    if not row.parent_path or not row.file.endswith((".py", ".pyi")):
        return []
    owners = _owner_classes(conn, family)
    if not owners:
        return []
    related, _ = ancestry(conn, list(owners))
    owner_names = {name for (name,) in _names(conn, owners)}
    declaring = _declaring(conn, owner_names)
    if not declaring[0] and not declaring[1]:
        return []  # no signature names a class of the family: nothing is declared one
    members = {m.id for m in family}
    trees: _Trees = {}  # each file parsed once for all the candidates
    found: list[Hit] = []
    for member in query_symbols(
        conn,
        "s.name_lower = ? AND s.name = ? AND s.parent_path IS NOT NULL AND f.language = 'python'",
        (row.name.lower(), row.name),
    ):
        if member.id in members:
            continue
        stand_in = _class_of(conn, member)
        if stand_in is None or stand_in.id in related or ancestry(conn, [stand_in.id])[0] & owners:
            continue
        declared = _given_as(ws, conn, trees, stand_in, owner_names, declaring)
        if declared is not None:
            note = (
                f"{stand_in.name} is given where {declared} is declared ({declared!r} names a class of"
                f" the renamed member's family): code calling {row.name!r} on it calls this member"
            )
            found.append(Hit.at_name(member, "double", note))
    return found


_Trees = dict[str, ast.Module | None]


def _tree(ws: Workspace, trees: _Trees, path: str) -> ast.Module | None:
    if path not in trees:
        try:
            trees[path] = parse_python(ws, path)
        except (OSError, SyntaxError, ValueError):
            trees[path] = None
    return trees[path]


def _owner_classes(conn: sqlite3.Connection, family: list[SymbolRow]) -> set[int]:
    owners: set[int] = set()
    for member in family:
        if member.parent_path and member.file.endswith((".py", ".pyi")):
            owner = _class_at(conn, member.file, member.parent_path)
            if owner is not None:
                owners.add(owner.id)
    return owners


def _names(conn: sqlite3.Connection, ids: set[int]) -> list[tuple[str]]:
    marks = ",".join("?" * len(ids))
    return list(conn.execute(f"SELECT name FROM symbols WHERE id IN ({marks})", tuple(ids)))


def _class_at(conn: sqlite3.Connection, path: str, symbol_path: str) -> SymbolRow | None:
    found = query_symbols(conn, "f.path = ? AND s.symbol_path = ? AND s.kind = 'class'", (path, symbol_path))
    return found[0] if found else None


def _class_of(conn: sqlite3.Connection, member: SymbolRow) -> SymbolRow | None:
    return _class_at(conn, member.file, member.parent_path) if member.parent_path else None


def _given_as(
    ws: Workspace,
    conn: sqlite3.Connection,
    trees: _Trees,
    stand_in: SymbolRow,
    owner_names: set[str],
    declaring: tuple[set[str], set[str]],
) -> str | None:
    """The annotation naming one of ``owner_names`` of a parameter the class ``stand_in``, a
    project class deriving from it or an instance of one is given to, or of a project attribute
    one is stored into, in the file defining the class or one reading it; None when none is."""
    spellings: dict[str, set[str]] = {}
    for cls in [stand_in, *_descendants(conn, stand_in.id)]:
        spellings.setdefault(cls.file, set()).add(cls.name)
        for path, name in conn.execute(
            "SELECT DISTINCT f.path, r.name FROM refs r JOIN files f ON f.id = r.file_id WHERE r.symbol_id = ?",
            (cls.id,),
        ):
            spellings.setdefault(path, set()).add(name)
    # (a declaration naming the class itself or one it derives from, `parent: Field | Schema`, says
    # the value may be one: a use through it reads a union, which the rename handles as such)
    itself = {name for (name,) in _names(conn, ancestry(conn, [stand_in.id])[0])}
    calling, attributes = declaring
    for path, names in sorted(spellings.items()):
        tree = _tree(ws, trees, path) if path in calling or attributes else None
        if tree is None:
            continue
        for call, key in _uses_given(tree, names):
            if (call is None and key not in attributes) or (call is not None and path not in calling):
                continue
            annotations = (
                [_parameter_annotation(ws, conn, trees, path, call, key)]
                if call is not None
                else _attribute_annotations(conn, str(key))
            )
            for annotation in annotations:
                named = _named(annotation) if annotation is not None else set()
                if annotation is not None and named & owner_names and not named & itself:
                    return ast.unparse(annotation)
    return None


def _declaring(conn: sqlite3.Connection, owner_names: set[str]) -> tuple[set[str], set[str]]:
    """The files calling a project function, method or class whose signature names one of
    ``owner_names`` (a parameter may be declared one), and the names of the project attributes
    whose declaration does: where a stand-in may be given, cheaply found before any file is
    parsed."""
    callables: set[int] = set()
    attributes: set[str] = set()
    for owner in sorted(owner_names):
        for sid, kind, name, parent, path, signature in conn.execute(
            "SELECT s.id, s.kind, s.name, s.parent_path, f.path, s.signature FROM symbols s JOIN files f"
            " ON f.id = s.file_id WHERE f.language = 'python' AND instr(s.signature, ?) > 0"
            " AND s.kind IN ('function', 'method', 'attribute', 'variable')",
            (owner,),
        ):
            if kind in ("function", "method"):
                callables.add(sid)
                made = _class_at(conn, path, parent) if name == "__init__" and parent else None
                if made is not None:
                    callables.add(made.id)
            elif parent and ":" in str(signature):
                attributes.add(name)
    marks = ",".join("?" * len(callables))
    calling = {
        path
        for (path,) in conn.execute(
            f"SELECT DISTINCT f.path FROM refs r JOIN files f ON f.id = r.file_id WHERE r.symbol_id IN ({marks})",
            tuple(callables),
        )
    }
    return calling, attributes


def _descendants(conn: sqlite3.Connection, class_id: int) -> list[SymbolRow]:
    """The project classes deriving from the class ``class_id``, however far below."""
    found: dict[int, SymbolRow] = {}
    queue = [class_id]
    while queue and len(found) < 200:
        current = queue.pop()
        for sub in query_symbols(
            conn,
            "s.id IN (SELECT src_symbol_id FROM edges WHERE dst_symbol_id = ? AND kind = 'inherits')",
            (current,),
        ):
            if sub.id not in found and sub.id != class_id:
                found[sub.id] = sub
                queue.append(sub.id)
    return list(found.values())


def _uses_given(tree: ast.Module, names: set[str]) -> Iterator[tuple[ast.Call | None, int | str]]:
    """Calls given the class called one of ``names``, an instance of it or a variable assigned one
    (each with the argument's position or keyword), and attributes one is stored into
    (``soup.builder = Mock()``: None and the attribute's name)."""
    uses = _given_values(tree)
    holders = set(names) | {v for name in names for v in uses.holders.get(name, ())}
    for name in sorted(names):
        yield from uses.made.get(name, ())
    for name in sorted(holders):
        yield from uses.named.get(name, ())


class _Uses:
    """A module's values given to calls and stored into attributes, by the name they spell."""

    def __init__(self) -> None:
        self.named: dict[str, list[tuple[ast.Call | None, int | str]]] = {}  # `f(Mock)`, `f(builder)`
        self.made: dict[str, list[tuple[ast.Call | None, int | str]]] = {}  # `f(Mock())`
        self.holders: dict[str, set[str]] = {}  # `builder = Mock(…)`: Mock -> {builder}

    def note(self, value: ast.expr, use: tuple[ast.Call | None, int | str]) -> None:
        if isinstance(value, ast.Name):
            self.named.setdefault(value.id, []).append(use)
        elif isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
            self.made.setdefault(value.func.id, []).append(use)


@per_tree
def _given_values(tree: ast.Module) -> _Uses:
    uses = _Uses()
    for node in _walk_expected_to_work(tree):
        if isinstance(node, ast.Assign):
            value = node.value
            if isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
                uses.holders.setdefault(value.func.id, set()).update(
                    t.id for t in node.targets if isinstance(t, ast.Name)
                )
            for target in node.targets:
                if isinstance(target, ast.Attribute):
                    uses.note(value, (None, target.attr))
        elif isinstance(node, ast.Call):
            for n, arg in enumerate(node.args):
                if isinstance(arg, ast.Starred):
                    break
                uses.note(arg, (node, n))
            for keyword in node.keywords:
                if keyword.arg is not None:
                    uses.note(keyword.value, (node, keyword.arg))
    return uses


# context managers a test expects the code in their block to raise in (a value given there is
# one the callee is to reject: marshmallow's `fields.List(ASchema)` under `pytest.raises`)
_RAISES = frozenset({"raises", "assertRaises", "assertRaisesRegex", "assertRaisesRegexp"})


def _walk_expected_to_work(tree: ast.Module) -> Iterator[ast.AST]:
    """The module's nodes, as ``ast.walk`` gives them, but those in the blocks of ``with
    pytest.raises(…)`` (``self.assertRaises(…)``)."""
    pending: list[ast.AST] = [tree]
    while pending:
        node = pending.pop()
        yield node
        if isinstance(node, ast.With | ast.AsyncWith) and any(
            isinstance(item.context_expr, ast.Call)
            and (
                (isinstance(item.context_expr.func, ast.Attribute) and item.context_expr.func.attr in _RAISES)
                or (isinstance(item.context_expr.func, ast.Name) and item.context_expr.func.id in _RAISES)
            )
            for item in node.items
        ):
            pending.extend(item.context_expr for item in node.items)
            continue
        pending.extend(ast.iter_child_nodes(node))


def _attribute_annotations(conn: sqlite3.Connection, name: str) -> list[ast.expr]:
    """The annotations of the project classes' attributes called ``name`` (``builder:
    TreeBuilder``, ``self.builder: TreeBuilder = …``)."""
    found: list[ast.expr] = []
    for (signature,) in conn.execute(
        "SELECT s.signature FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.name_lower = ? AND s.name = ?"
        " AND s.kind IN ('attribute', 'variable') AND s.parent_path IS NOT NULL AND f.language = 'python'",
        (name.lower(), name),
    ):
        try:
            statement = ast.parse(str(signature)).body
        except SyntaxError:
            continue
        if statement and isinstance(statement[0], ast.AnnAssign):
            found.append(statement[0].annotation)
    return found


def _parameter_annotation(
    ws: Workspace, conn: sqlite3.Connection, trees: _Trees, path: str, call: ast.Call, key: int | str
) -> ast.expr | None:
    """The annotation of the parameter ``key`` of the project callable ``call`` calls (the index's
    reference at its name), if any."""
    func = call.func
    name, line = (
        (func.id, func.lineno)
        if isinstance(func, ast.Name)
        else (func.attr, func.end_lineno or func.lineno)
        if isinstance(func, ast.Attribute)
        else (None, 0)
    )
    if name is None:
        return None
    callees = query_symbols(
        conn,
        "s.id IN (SELECT r.symbol_id FROM refs r JOIN files g ON g.id = r.file_id"
        " WHERE g.path = ? AND r.line = ? AND r.name = ?) AND s.kind IN ('class', 'function', 'method')",
        (path, line, name),
    )
    for callee in callees:
        method = callee.kind != "function"
        if callee.kind == "class":
            found = query_symbols(
                conn, "f.path = ? AND s.symbol_path = ?", (callee.file, f"{callee.symbol_path}.__init__")
            )
            if not found:
                continue
            callee = found[0]
        annotation = _annotation_in(ws, trees, callee, key, method)
        if annotation is not None:
            return annotation
    return None


def _annotation_in(
    ws: Workspace, trees: _Trees, callee: SymbolRow, key: int | str, method: bool
) -> ast.expr | None:
    tree = _tree(ws, trees, callee.file)
    node = None if tree is None else defined_functions(tree).get((callee.line, callee.name))
    if node is None:
        return None
    static = any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in node.decorator_list)
    positional = node.args.posonlyargs + node.args.args
    if isinstance(key, int):
        at = key + (1 if method and not static else 0)
        return positional[at].annotation if at < len(positional) else None
    for arg in (*positional, *node.args.kwonlyargs):
        if arg.arg == key:
            return arg.annotation
    return None


# annotations whose arguments are what the value itself may be (`dict[str, Field]` holds Fields,
# it is none)
_WRAPPERS = frozenset({"Optional", "Union", "Type", "type", "Annotated", "Final", "ClassVar"})


def _named(annotation: ast.expr) -> set[str]:
    """The classes an annotation says the value itself may be, or be a class of
    (``Optional[Union[A, Type[b.B]]]``: A, B; ``A | None``: A, None), through string annotations
    too; not what a container it names holds (``list[A]``)."""
    if isinstance(annotation, ast.Name):
        return {annotation.id}
    if isinstance(annotation, ast.Attribute):
        return {annotation.attr}
    if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
        return _named(annotation.left) | _named(annotation.right)
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        try:
            return _named(ast.parse(annotation.value, mode="eval").body)
        except SyntaxError:
            return set()
    if isinstance(annotation, ast.Subscript) and _named(annotation.value) & _WRAPPERS:
        inner = annotation.slice
        parts = inner.elts if isinstance(inner, ast.Tuple) else [inner]
        if _named(annotation.value) == {"Annotated"}:
            parts = parts[:1]
        return set().union(*(_named(part) for part in parts))
    return set()
