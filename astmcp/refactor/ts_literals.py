"""TS/JS: keys of object literals held by module variables, where the literal flows on.

``const opts = { verbose: true }`` / ``run(opts)`` with ``run(o: Opts)``: the literal is used as
an ``Opts`` without naming it, and, held in a variable, TypeScript does not even check its keys
for excess. Renaming ``Opts.verbose`` alone leaves ``opts.verbose`` behind: it compiles, and
``o.loud`` is ``undefined`` at run time. A literal written inside a function is indexed as keys of
no known type (name hits); one a module variable holds is indexed as that variable's own
declarations (so ``opts.verbose`` resolves to it), which no rename of a type's member reached.

Such a key is a name hit of a member rename when a use of the variable hands the object holding it
(``run(opts)``, ``run(cfg.inner)`` for a key inside ``inner``; not ``opts.depth``, which reads past
it) to a place whose declared type names the member's type: a parameter of the called project
function (``run(o: Opts)``) or an annotated variable (``const o: Opts = opts``). Keys of literals
handed elsewhere (``schema.parse(objA)`` taking ``unknown``) stay unflagged: a type of the same
member name there is a coincidence, not a use as the renamed member's type.
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
from collections import OrderedDict
from collections.abc import Callable, Iterator

import tree_sitter

from astmcp.errors import AstmcpError, MutationBlocked
from astmcp.query.common import SymbolRow, query_symbols
from astmcp.refactor.prepare import load_file
from astmcp.refactor.rename_refs import Hit
from astmcp.refactor.tsscopes import TsFile
from astmcp.workspace import Workspace

__all__ = ["LITERAL_WRAPPERS", "TsFiles", "check_literal_member", "literal_key_hits"]

_MEMBER_KINDS = ("method", "property", "getter", "setter")
# `.name` / `?.name` after a use: the path it reads into the object
_STEP = re.compile(r"\s*(?:\?\.|\.)\s*([\w$]+)")
# what a literal may be wrapped in where a variable is declared with it
LITERAL_WRAPPERS = frozenset(
    {"as_expression", "satisfies_expression", "parenthesized_expression", "non_null_expression"}
)


# files parsed by earlier prepares of this process, by path and text: a plan's scans parse
# every file holding the name, and an agent renames several symbols in a row
_PARSED: OrderedDict[tuple[str, str], TsFile] = OrderedDict()
_PARSED_MAX = 2048


def _parsed(path: str, text: str) -> TsFile:
    key = (path, hashlib.sha1(text.encode("utf-8"), usedforsecurity=False).hexdigest())
    found = _PARSED.get(key)
    if found is None:
        found = _PARSED[key] = TsFile(path, text)
        while len(_PARSED) > _PARSED_MAX:
            _PARSED.popitem(last=False)
    else:
        _PARSED.move_to_end(key)
    return found


def captures(ts: TsFile, source: str, name: str) -> list[tree_sitter.Node]:
    """The nodes a tree-sitter query captures as ``name`` ([] when the grammar lacks its node
    types), kept with the parsed file (which later prepares share)."""
    key = f"{name}\n{source}"
    found = ts.captured.get(key)
    if found is None:
        found = ts.captured[key] = _run(ts.tree, source, name)
    return found


def _run(tree: tree_sitter.Tree, source: str, name: str) -> list[tree_sitter.Node]:
    language = tree.language
    key = (id(language), source)
    if key not in _QUERIES:
        try:
            _QUERIES[key] = tree_sitter.Query(language, source)
        except (tree_sitter.QueryError, ValueError):
            _QUERIES[key] = None
    query = _QUERIES[key]
    if query is None:
        return []
    return tree_sitter.QueryCursor(query).captures(tree.root_node).get(name, [])


_QUERIES: dict[tuple[int, str], tree_sitter.Query | None] = {}


class TsFiles:
    """Parsed TS/JS files, each read once (None: unreadable)."""

    def __init__(self, ws: Workspace) -> None:
        self.ws = ws
        self.parsed: dict[str, TsFile | None] = {}
        self.texts: dict[str, str] = {}  # read, not parsed yet
        self.paths: dict[tuple[str, ...], list[str]] = {}  # the project's files by languages
        self.holders: dict[tuple[str, bool], list[str]] = {}  # the files whose text holds a needle

    def read(self, path: str) -> str | None:
        """``path``'s text, read once (None: unreadable)."""
        if path in self.parsed:
            found = self.parsed[path]
            return found.text if found is not None else None
        text = self.texts.get(path)
        if text is None:
            try:
                text = self.texts[path] = load_file(self.ws, path).source.text
            except (OSError, AstmcpError):
                self.parsed[path] = None
                return None
        return text

    def holding(
        self,
        conn: sqlite3.Connection,
        needle: str,
        typescript_only: bool = False,
        fits: re.Pattern[str] | None = None,
    ) -> Iterator[tuple[str, TsFile]]:
        """(path, parsed file) of each project TS/JS file (TS alone with ``typescript_only``)
        whose text holds ``needle`` (and a match of ``fits``, when given), in path order."""
        languages = ("typescript",) if typescript_only else ("typescript", "javascript")
        paths = self.paths.get(languages)
        if paths is None:
            marks = ",".join("?" * len(languages))
            paths = self.paths[languages] = [
                path
                for (path,) in conn.execute(
                    f"SELECT path FROM files WHERE language IN ({marks}) ORDER BY path", languages
                )
            ]
        holders = self.holders.get((needle, typescript_only))
        if holders is None:  # (texts are read once; a file is parsed when a caller gets to it)
            holders = self.holders[(needle, typescript_only)] = [
                path for path in paths if needle in (self.read(path) or "")
            ]
        for path in holders:
            if fits is not None and fits.search(self.read(path) or "") is None:
                continue
            ts = self.get(path)
            if ts is not None:
                yield path, ts

    def text_has(self, path: str, needle: str) -> TsFile | None:
        """``path`` parsed, when its text holds ``needle`` (the text is read once; parsed on need)."""
        text = self.read(path)
        return self.get(path) if text is not None and needle in text else None

    def get(self, path: str) -> TsFile | None:
        if path not in self.parsed:
            if path in self.texts:
                self.parsed[path] = _parsed(path, self.texts.pop(path))
                return self.parsed[path]
            try:
                self.parsed[path] = _parsed(path, load_file(self.ws, path).source.text)
            except (OSError, AstmcpError):
                self.parsed[path] = None
        return self.parsed[path]


def literal_key_hits(
    ws: Workspace, conn: sqlite3.Connection, row: SymbolRow, known: set[tuple[str, int, int]]
) -> list[Hit]:
    """Name hits on the same-named keys of module variables' object literals that flow on."""
    if row.kind not in _MEMBER_KINDS or not row.parent_path or row.file.endswith((".py", ".pyi")):
        return []
    keys = conn.execute(
        "SELECT f.path, r.line, r.col, r.end_col FROM refs r JOIN files f ON f.id = r.file_id"
        " WHERE r.name = ? AND r.kind = 'definition' AND r.confidence = 'none' AND r.symbol_id IS NULL"
        " AND r.target_key = 'P:' || r.line || ':' || r.col AND f.language IN ('typescript', 'javascript')",
        (row.name,),
    ).fetchall()
    files = TsFiles(ws)
    hits: list[Hit] = []
    owner = re.compile(rf"(?<![\w$]){re.escape(row.parent_path.rsplit('.', 1)[-1])}(?![\w$])")

    def names_owner(declared: str) -> bool:
        return bool(owner.search(declared))

    for path, line, col, end_col in keys:
        if (path, line, col) in known:
            continue
        holders = query_symbols(
            conn,
            "f.path = ? AND s.kind = 'variable' AND s.parent_path IS NULL AND s.line <= ? AND s.end_line >= ?",
            (path, line, line),
        )
        if not holders:
            continue
        parsed = files.get(path)
        steps = _key_path(parsed.node_at(line, col), holders[0].name) if parsed is not None else None
        if steps is None:
            continue  # not a key of the variable's own literal (`const x = make({ k })`: an argument)
        where = _flows_on(ws, conn, holders[0], steps, names_owner)
        if where is not None:
            note = f"a key of the object held by {holders[0].name}, used as it is at {where}: it may be used as the renamed member's type"
            hits.append(Hit(path, line, col, end_col, "attribute", "name", note=note))
    return hits


def check_literal_member(ws: Workspace, conn: sqlite3.Connection, row: SymbolRow) -> None:
    """MUTATION_BLOCKED for a member of a module variable's object literal (``hooks.onEnd`` of
    ``export const hooks = { onEnd() {…} }``) when the object is handed, as it is, to a place
    declared with a project type that has a member of that name (``runWith(hooks)`` with
    ``runWith(h: Hooks)``): the key provides that member, and renamed alone it would stop
    providing it (an optional one silently). Renaming the type's member renames the key too."""
    if row.kind not in _MEMBER_KINDS or not row.parent_path or row.file.endswith((".py", ".pyi")):
        return
    head, *steps = row.parent_path.split(".")
    holders = query_symbols(
        conn, "f.path = ? AND s.symbol_path = ? AND s.kind = 'variable'", (row.file, head)
    )
    if not holders:
        return
    provided: list[str] = []

    def matches(declared: str) -> bool:
        for name in re.findall(r"[A-Za-z_$][\w$]*", declared.partition(":")[2] or declared):
            if query_symbols(
                conn,
                "s.name = ? AND s.kind IN ('method', 'property', 'getter', 'setter')"
                " AND (s.parent_path = ? OR s.parent_path LIKE ?)",
                (row.name, name, f"%.{name}"),
            ):
                provided.append(name)
                return True
        return False

    where = _flows_on(ws, conn, holders[0], steps, matches)
    if where is not None:
        raise MutationBlocked(
            f"{row.parent_path} is used as a {provided[-1]} at {where}, and its {row.name!r} provides"
            f" {provided[-1]}.{row.name}: rename {provided[-1]}.{row.name} instead (it renames this key too)",
            {"used_as": provided[-1], "at": where},
        )


def _key_path(node: tree_sitter.Node | None, variable: str) -> list[str] | None:
    """The keys leading from the variable's literal to the object holding ``node`` (``[]`` for a
    key of the literal itself); None when ``node`` is not a key of nested literals the variable
    is declared with."""
    if node is None or node.parent is None or node.parent.type not in ("pair", "method_definition"):
        return None
    steps: list[str] = []
    current = node.parent.parent  # the object
    while current is not None and current.type == "object":
        holder = current.parent
        while holder is not None and holder.type in LITERAL_WRAPPERS:
            holder = holder.parent
        if holder is None:
            return None
        if holder.type == "variable_declarator":
            name = holder.child_by_field_name("name")
            return steps[::-1] if name is not None and name.text == variable.encode() else None
        key = holder.child_by_field_name("key") if holder.type == "pair" else None
        if key is None or key.type not in ("property_identifier", "string"):
            return None
        steps.append((key.text or b"").decode("utf-8").strip("'\""))
        current = holder.parent
    return None


def _flows_on(
    ws: Workspace,
    conn: sqlite3.Connection,
    holder: SymbolRow,
    steps: list[str],
    matches: Callable[[str], bool],
) -> str | None:
    """``file:line`` of a use of the variable that hands the object at ``steps`` (or one holding
    it), as it is, to a place whose declared type ``matches``: an argument of a project function
    whose parameter is declared so (the props spread into a component's JSX, ``<Button
    {...common} />``, are its first), or a variable declared so. None when no use does."""
    files = TsFiles(ws)
    for path, line, col, end_col in conn.execute(
        "SELECT f.path, r.line, r.col, r.end_col FROM refs r JOIN files f ON f.id = r.file_id"
        " WHERE r.symbol_id = ? AND r.kind NOT IN ('definition', 'import', 'export')",
        (holder.id,),
    ):
        parsed = files.get(path)
        if parsed is None:
            continue
        text = parsed.lines[line - 1] if 0 < line <= len(parsed.lines) else ""
        rest = text[end_col - 1 :]
        read: list[str] = []
        while len(read) <= len(steps):
            step = _STEP.match(rest)
            if step is None:
                break
            read.append(step.group(1))
            rest = rest[step.end() :]
        if len(read) > len(steps) or steps[: len(read)] != read:
            continue  # it reads past the key's object
        declared = _declared_type(conn, path, parsed, parsed.node_at(line, col), len(read))
        if declared is not None and matches(declared):
            return f"{path}:{line}"
    return None


def _declared_type(
    conn: sqlite3.Connection, path: str, parsed: TsFile, node: tree_sitter.Node | None, reads: int
) -> str | None:
    """The declared type of where the expression starting at ``node`` (``reads`` member reads
    long) goes: the parameter of the called project function it is an argument of, or the
    annotation of the variable it initializes; None elsewhere."""
    for _ in range(reads):
        if node is None or node.parent is None:
            return None
        node = node.parent
    while node is not None and node.parent is not None and node.parent.type in LITERAL_WRAPPERS:
        node = node.parent
    parent = node.parent if node is not None else None
    if node is None or parent is None:
        return None
    if parent.type == "variable_declarator":
        annotation = parent.child_by_field_name("type")
        return (annotation.text or b"").decode("utf-8") if annotation is not None else None
    callee: tree_sitter.Node | None
    element = parent.parent.parent if parent.type == "spread_element" and parent.parent is not None else None
    if element is not None and element.type in ("jsx_self_closing_element", "jsx_opening_element"):
        # `<Button {...common} />`: the props, the component's first parameter
        position, callee = 0, element.child_by_field_name("name") or element.named_children[0]
    elif parent.type != "arguments" or parent.parent is None:
        return None
    else:
        position = [c.id for c in parent.named_children].index(node.id)
        call = parent.parent
        callee = call.child_by_field_name("function") or call.child_by_field_name("constructor")
    if callee is not None and callee.type == "member_expression":
        callee = callee.child_by_field_name("property")
    if callee is None:
        return None
    line, column = callee.start_point[0] + 1, parsed.column_of(callee)
    found = conn.execute(
        "SELECT s.signature FROM refs r JOIN files f ON f.id = r.file_id JOIN symbols s ON s.id = r.symbol_id"
        " WHERE f.path = ? AND r.line = ? AND r.col = ? AND s.kind IN ('function', 'method', 'class', 'variable')",
        (path, line, column),
    ).fetchone()
    parameters = _parameters(str(found[0])) if found is not None else []
    return parameters[position] if position < len(parameters) else None


def _parameters(signature: str) -> list[str]:
    """The declared parameter texts of a signature (``run(o: Opts, n = 1)`` -> ``["o: Opts", "n = 1"]``)."""
    start = signature.find("(")
    if start < 0:
        return []
    out: list[str] = []
    depth = 0
    current = ""
    for char in signature[start + 1 :]:
        if char in "([{<":
            depth += 1
        elif char in ")]}>":
            if depth == 0:
                break
            depth -= 1
        if char == "," and depth == 0:
            out.append(current.strip())
            current = ""
        else:
            current += char
    return [*out, current.strip()] if current.strip() else out
