"""Python: fields of classes whose ``__init__`` a library generates, where the library reads more
than the field's name.

- attrs takes a field's ``__init__`` keyword from its name without leading underscores, or from
  ``alias=``: renaming ``size`` to ``_size`` keeps ``A(size=3)``, and ``_size = field(alias="size")``
  keeps ``size`` whatever the field is called (``init_keyword``).
- pydantic makes a field named with a leading underscore a private attribute, no field (and a
  ``PrivateAttr`` one whose name loses it a field); a NamedTuple refuses such a field; a pydantic
  model with an ``alias_generator`` derives each field's external name from its name
  (``check_record_field``); one configured ``from_attributes`` reads its fields off other
  objects by name (``from_attributes_hits``).
- pydantic-settings reads each field of a ``BaseSettings`` class from the environment variable
  spelled like it (with the class's ``env_prefix``), which deployments and ``.env`` files set
  outside the code (``settings_field_hits``).
- ORM models (SQLAlchemy, Django, SQLModel) name a column after its attribute unless told a name
  (``orm_column_hits``).
- pydantic validates models from data by field name, and the project's own data files (a JSON
  fixture a test loads with ``model_validate_json``) spell those names (``data_file_hits``).
"""

from __future__ import annotations

import ast
import re
import sqlite3

from astmcp.errors import AstmcpError, MutationBlocked
from astmcp.query.common import SymbolRow, ancestry, query_symbols
from astmcp.query.parameters import read_text
from astmcp.query.pytrees import parsed_tree
from astmcp.refactor.rename_refs import Hit, project_files
from astmcp.workspace import Workspace

__all__ = [
    "check_record_field",
    "data_file_hits",
    "init_keyword",
    "is_keyword_at",
    "orm_column_hits",
    "settings_field_hits",
]

_FIELD_KINDS = ("attribute", "variable", "property")
_NAMED_TUPLES = frozenset({"typing.NamedTuple", "typing_extensions.NamedTuple"})


def _ancestry(conn: sqlite3.Connection, row: SymbolRow) -> tuple[list[SymbolRow], set[int], set[str]] | None:
    """(the field's class declarations, the project classes above them, the outside ones' keys);
    None when the field's owner is no class."""
    owners = query_symbols(
        conn, "f.path = ? AND s.symbol_path = ? AND s.kind = 'class'", (row.file, row.parent_path)
    )
    if not owners:
        return None
    project, outside = ancestry(conn, [o.id for o in owners])
    return owners, project, outside


def _owner_and_field(ws: Workspace, row: SymbolRow) -> tuple[ast.ClassDef, ast.stmt | None, str] | None:
    """The class statement declaring the field ``row``, the field's statement in its body (None:
    set elsewhere) and the file's text."""
    if row.kind not in _FIELD_KINDS or not row.parent_path or not row.file.endswith(".py"):
        return None
    try:
        text = read_text(ws, row.file)
        tree = parsed_tree(text)
    except (OSError, ValueError, SyntaxError, AstmcpError):
        return None
    body: list[ast.stmt] = tree.body
    owner: ast.ClassDef | None = None
    for part in row.parent_path.split("."):
        owner = next((n for n in body if isinstance(n, ast.ClassDef) and n.name == part), None)
        if owner is None:
            return None
        body = owner.body
    assert owner is not None
    field = next((stmt for stmt in owner.body if row.name in _assigned(stmt)), None)
    return owner, field, text


def _assigned(stmt: ast.stmt) -> list[str]:
    if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
        return [stmt.target.id]
    if isinstance(stmt, ast.Assign):
        return [t.id for t in stmt.targets if isinstance(t, ast.Name)]
    return []


def init_keyword(ws: Workspace, row: SymbolRow, new_name: str) -> str | None:
    """The ``__init__`` keyword an attrs class takes for the field ``row`` once renamed to
    ``new_name`` (its ``alias=``, else the new name without leading underscores); None when the
    field is no attrs field. MUTATION_BLOCKED when the class's ``__init__`` is made by a decorator
    astmcp cannot tell apart from attrs' (a project wrapper, a re-exported ``define``) and the
    rename adds or drops a leading underscore: the keyword may or may not follow."""
    found = _owner_and_field(ws, row)
    if found is None:
        return None
    owner, field, text = found
    tree = parsed_tree(text)
    modules, bare = _attrs_names(tree)
    # decorators, and a maker applied after the class statement (`A = attrs.define(A)`)
    makers = [*owner.decorator_list, *_applied_makers(tree, owner.name)]
    kinds = {_decorator_kind(d, modules, bare) for d in makers}
    if "attrs" not in kinds:
        generated = kinds - {"dataclass"} and not any(
            isinstance(n, ast.FunctionDef) and n.name == "__init__" for n in owner.body
        )
        if generated and row.name.startswith("_") != new_name.startswith("_"):
            raise MutationBlocked(
                f"{row.parent_path} is made by a decorator astmcp cannot read, which may generate its"
                " `__init__` as attrs does (keywords without leading underscores): renaming"
                f" {row.name!r} to {new_name!r} may or may not change its keyword; rename it by hand",
                {"field": row.selector},
            )
        return None
    value = field.value if isinstance(field, ast.AnnAssign | ast.Assign) else None
    if isinstance(value, ast.Call):
        for keyword in value.keywords:
            if keyword.arg == "alias" and isinstance(keyword.value, ast.Constant):
                return str(keyword.value.value)
    return new_name.lstrip("_") or new_name


_ATTRS_MAKERS = frozenset({"define", "frozen", "mutable", "s", "attrs", "dataclass"})


def _applied_makers(tree: ast.Module, name: str) -> list[ast.expr]:
    """The callees of ``name = maker(name, …)`` statements in the module."""
    return [
        stmt.value.func
        for stmt in ast.walk(tree)
        if isinstance(stmt, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets)
        and isinstance(stmt.value, ast.Call)
        and stmt.value.args
        and isinstance(stmt.value.args[0], ast.Name)
        and stmt.value.args[0].id == name
    ]


def _attrs_names(tree: ast.Module) -> tuple[set[str], set[str]]:
    """(names bound to the attr/attrs modules, names bound to their class decorators) in a file."""
    modules: set[str] = set()
    bare: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules.update(a.asname or a.name for a in node.names if a.name in ("attr", "attrs"))
        elif isinstance(node, ast.ImportFrom) and node.module in ("attr", "attrs"):
            bare.update(a.asname or a.name for a in node.names if a.name in _ATTRS_MAKERS)
    return modules, bare


def _decorator_kind(node: ast.expr, modules: set[str], bare: set[str]) -> str:
    """``attrs`` (an attrs class maker), ``dataclass`` (the standard library's) or ``other``."""
    target = node.func if isinstance(node, ast.Call) else node
    if isinstance(target, ast.Name):
        if target.id in bare:
            return "attrs"
        return "dataclass" if target.id == "dataclass" else "other"
    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
        if target.value.id in modules and target.attr in _ATTRS_MAKERS:
            return "attrs"
        if target.value.id == "dataclasses" and target.attr == "dataclass":
            return "dataclass"
    return "other"


def is_keyword_at(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` is the keyword of a keyword argument (``A(size=3)``)."""
    after = re.match(r"\s*=(?!=)", text[end:])
    before = text[:start].rstrip()
    return after is not None and before[-1:] in ("(", ",")


def check_record_field(ws: Workspace, conn: sqlite3.Connection, row: SymbolRow, new_name: str) -> None:
    """MUTATION_BLOCKED for renaming a field of a pydantic model or NamedTuple into or out of a
    leading underscore, or any field of a pydantic model with an ``alias_generator``."""
    if row.kind not in _FIELD_KINDS or not row.parent_path or not row.file.endswith((".py", ".pyi")):
        return
    found = _ancestry(conn, row)
    if found is None:
        return
    owners, project, outside = found
    pydantic = any(key.startswith("pydantic") and key.endswith(".BaseModel") for key in outside)
    pydantic = pydantic or _pydantic_dataclass(ws, row)
    named_tuple = bool(outside & _NAMED_TUPLES)
    if not pydantic and not named_tuple:
        return
    if row.name.startswith("_") != new_name.startswith("_"):
        what = "a pydantic model takes a name starting with `_` as a private attribute, no field"
        if named_tuple:
            what = "a NamedTuple refuses field names starting with `_`"
        raise MutationBlocked(
            f"{row.parent_path}.{row.name} is a record field and {what}: renaming it to {new_name!r} changes"
            " what the class is",
            {"field": row.selector},
        )
    if pydantic and _generates_aliases(ws, conn, project | {o.id for o in owners}):
        raise MutationBlocked(
            f"{row.parent_path} derives its fields' external names from their names (alias_generator):"
            f" renaming {row.name!r} changes the key its data is read and written under",
            {"field": row.selector},
        )


def _pydantic_dataclass(ws: Workspace, row: SymbolRow) -> bool:
    """Whether the field's class is a pydantic dataclass (``@pydantic.dataclasses.dataclass``)."""
    found = _owner_and_field(ws, row)
    if found is None or "pydantic" not in found[2]:
        return False
    owner, _, text = found
    imported = re.search(r"^\s*from pydantic\.dataclasses import\b.*\bdataclass\b", text, re.M) is not None
    for decorator in owner.decorator_list:
        spelled = ast.unparse(decorator.func if isinstance(decorator, ast.Call) else decorator)
        if (spelled.endswith("dataclasses.dataclass") and "pydantic" in spelled) or (
            spelled == "dataclass" and imported
        ):
            return True
    return False


def _generates_aliases(ws: Workspace, conn: sqlite3.Connection, classes: set[int]) -> bool:
    """Whether one of the classes may have an ``alias_generator``: written in its file (its body,
    a module constant it takes its config from, a decorator's ``config=``), or anywhere in the
    project when its config is a name from elsewhere (``model_config = API_CONFIG``)."""
    borrowed = False
    for class_id in sorted(classes):
        for cls in query_symbols(conn, "s.id = ?", (class_id,)):
            try:
                text = read_text(ws, cls.file)
            except (OSError, ValueError, AstmcpError):
                continue
            if "alias_generator" in text:
                return True
            body = "\n".join(text.split("\n")[cls.start_line - 1 : cls.end_line])
            borrowed = (
                borrowed or re.search(r"\bmodel_config\s*=\s*[A-Za-z_][\w.]*\s*$", body, re.M) is not None
            )
    if borrowed:
        for (path,) in conn.execute("SELECT path FROM files WHERE language = 'python'").fetchall():
            try:
                if "alias_generator" in read_text(ws, str(path)):
                    return True
            except (OSError, ValueError, AstmcpError):
                continue
    return False


_FROM_ATTRIBUTES = ("from_attributes", "orm_mode")
_READ_MEMBERS = ("attribute", "property", "variable")


def from_attributes_hits(ws: Workspace, conn: sqlite3.Connection, row: SymbolRow) -> list[Hit]:
    """A pydantic model configured ``from_attributes=True`` (``orm_mode`` before v2) reads each
    field off the object ``model_validate`` is given by the field's name: renaming one of its
    fields is a name hit at the configuration, and renaming any other class's attribute named as
    such a field is a name hit at the field (an ORM row's ``age`` feeds ``UserOut.age``)."""
    if not row.file.endswith((".py", ".pyi")) or row.kind not in _READ_MEMBERS or not row.parent_path:
        return []
    marks: dict[str, list[tuple[int, int, int]]] = {}
    for path, line, col, end in conn.execute(
        "SELECT f.path, r.line, r.col, r.end_col FROM refs r JOIN files f ON f.id = r.file_id"
        " WHERE r.name IN (?, ?) AND f.language = 'python'"
        " UNION SELECT f.path, s.name_line, s.name_col, s.name_end_col FROM symbols s"
        " JOIN files f ON f.id = s.file_id WHERE s.name IN (?, ?) AND f.language = 'python'",
        (*_FROM_ATTRIBUTES, *_FROM_ATTRIBUTES),
    ):
        marks.setdefault(str(path), []).append((int(line), int(col), int(end)))
    owner = row.parent_path.rsplit(".", 1)[-1]
    hits: list[Hit] = []
    for path, configs in sorted(marks.items()):
        try:
            tree = parsed_tree(read_text(ws, path))
        except (OSError, SyntaxError, ValueError):
            continue
        for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
            inside = [c for c in configs if cls.lineno <= c[0] <= (cls.end_lineno or cls.lineno)]
            fields = {
                stmt.target.id: stmt.target
                for stmt in cls.body
                if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)
            }
            if not inside or row.name not in fields:
                continue
            note = (
                f"pydantic reads {row.name!r} off the objects {cls.name} is validated from (from_attributes)"
            )
            if path == row.file and cls.name == owner:  # the model's own field
                line, col, end = inside[0]
                hits.append(Hit(path, line, col, end, "string", "name", note=note))
            else:
                target = fields[row.name]
                start = target.col_offset + 1
                hits.append(
                    Hit(path, target.lineno, start, start + len(row.name), "string", "name", note=note)
                )
    return hits


# a field given its external name explicitly keeps it whatever the field is called
_EXPLICIT_NAME = re.compile(r"\b(?:alias|validation_alias|env)\s*=")


def settings_field_hits(ws: Workspace, conn: sqlite3.Connection, row: SymbolRow) -> list[Hit]:
    """A field of a pydantic-settings ``BaseSettings`` class (``pydantic.BaseSettings`` in v1) is
    read from the environment variable of its name (``DEBUG`` or ``{env_prefix}DEBUG``, any case):
    renaming it changes which variable configures it, and the variables are set where no index
    looks (deployments, CI, ``.env`` files). A name hit of kind ``data`` (never edited) at the
    class, unless the field names its variable itself (``Field(alias=…)``, ``env=``)."""
    if row.kind not in _FIELD_KINDS or not row.parent_path or not row.file.endswith((".py", ".pyi")):
        return []
    ancestors = _ancestry(conn, row)
    if ancestors is None:
        return []
    owners, _, outside = ancestors
    if not any(key.startswith("pydantic") and key.endswith(".BaseSettings") for key in outside):
        return []
    found = _owner_and_field(ws, row)
    if found is not None and found[1] is not None:
        statement = ast.get_source_segment(found[2], found[1]) or ""
        if _EXPLICIT_NAME.search(statement):
            return []
    cls = owners[0]
    note = (
        f"{cls.name} is pydantic-settings: {row.name!r} is read from the environment variable"
        f" {row.name.upper()!r} (with the class's env_prefix), set outside the code"
    )
    return [Hit.at_name(cls, "data", note)]


# data files a program reads records from; a key is a field's name
_DATA_SUFFIXES = (".json", ".jsonl", ".ndjson", ".yaml", ".yml", ".toml")
# tool configuration, not data a program validates (hidden files such as `.pre-commit-config.yaml` too)
_DATA_SKIPPED = frozenset(
    {
        "package.json",
        "package-lock.json",
        "tsconfig.json",
        "pyproject.toml",
        "mkdocs.yml",
        "mkdocs.yaml",
        "docker-compose.yml",
        "docker-compose.yaml",
        "compose.yaml",
        "codecov.yml",
        "environment.yml",
        "renovate.json",
        "Cargo.toml",
        "netlify.toml",
    }
)


def data_file_hits(ws: Workspace, conn: sqlite3.Connection, row: SymbolRow) -> list[Hit]:
    """A field of a pydantic model (``BaseModel``, ``BaseSettings`` or a pydantic dataclass) is
    read from data by its name: each key of that name in the project's data files (``"dev":``
    in JSON, ``dev:`` in YAML, ``dev =`` in TOML) is a name hit of kind ``string``, which a
    program may validate into the model (``P.model_validate_json(open("p.json").read())``)."""
    if row.kind not in _FIELD_KINDS or not row.parent_path or not row.file.endswith((".py", ".pyi")):
        return []
    if row.name.startswith("_"):
        return []  # a private attribute, no field
    ancestors = _ancestry(conn, row)
    if ancestors is None:
        return []
    _, _, outside = ancestors
    pydantic = any(
        key.startswith("pydantic") and key.endswith((".BaseModel", ".BaseSettings")) for key in outside
    )
    if not pydantic and not _pydantic_dataclass(ws, row):
        return []
    name = re.escape(row.name)
    keys = re.compile(
        rf"""(["'])(?P<json>{name})\1\s*:"""  # JSON, or a quoted YAML key
        rf"|^\s*(?:-\s+)?(?P<yaml>{name})\s*:(?:\s|$)"  # a YAML key (also of a list item)
        rf"|^\s*(?P<toml>{name})\s*="  # a TOML key
    )
    hits: list[Hit] = []
    for path in project_files(
        ws,
        lambda _, file: (
            file.endswith(_DATA_SUFFIXES) and file not in _DATA_SKIPPED and not file.startswith(".")
        ),
    ):
        try:
            text = read_text(ws, path)
        except (OSError, ValueError, AstmcpError):
            continue
        if row.name not in text:
            continue
        for number, line in enumerate(text.split("\n"), 1):
            for match in keys.finditer(line):
                group = next(g for g in ("json", "yaml", "toml") if match.group(g) is not None)
                if (group == "toml") != path.endswith(".toml"):
                    continue
                start = match.start(group) + 1
                hits.append(Hit(path, number, start, start + len(row.name), "string", "name"))
    return hits


# the packages whose model fields are table columns named like the attribute
_ORM_PACKAGES = ("sqlalchemy", "flask_sqlalchemy", "django.db", "sqlmodel")
_ORM_MAKERS = frozenset({"Column", "mapped_column", "Field", "column_property", "deferred"})


def orm_column_hits(ws: Workspace, conn: sqlite3.Connection, row: SymbolRow) -> list[Hit]:
    """An ORM model's field made by ``Column(…)``, ``mapped_column(…)``, ``models.CharField(…)``
    or SQLModel's ``Field(…)`` is the table column of its name: renaming the attribute renames
    the column the queries and migrations read, which the database and migration history hold
    outside the code. A name hit of kind ``data`` (never edited) at the field, unless it names
    its column itself (a first argument string, ``name=``, ``db_column=``, ``sa_column=``)."""
    found = _owner_and_field(ws, row)
    if found is None or found[1] is None:
        return []
    _, field, text = found
    value = field.value if isinstance(field, ast.Assign | ast.AnnAssign) else None
    if not isinstance(value, ast.Call) or not re.search(
        r"^\s*(?:from|import)\s+(?:" + "|".join(map(re.escape, _ORM_PACKAGES)) + r")\b", text, re.M
    ):
        return []
    callee = value.func.attr if isinstance(value.func, ast.Attribute) else getattr(value.func, "id", "")
    if callee not in _ORM_MAKERS and not (callee.endswith(("Field", "Key")) and callee[:1].isupper()):
        return []
    named = (
        bool(value.args) and isinstance(value.args[0], ast.Constant) and isinstance(value.args[0].value, str)
    )
    if named or any(k.arg in ("name", "db_column", "sa_column", "key") for k in value.keywords):
        return []
    note = f"{row.name!r} is an ORM field: its table column is named after it (migrations and the database hold it)"
    column = value.func.col_offset + 1
    return [
        Hit(row.file, value.lineno, column, column + len(ast.unparse(value.func)), "data", "name", note=note)
    ]
