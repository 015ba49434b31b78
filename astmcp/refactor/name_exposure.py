"""Python: a function's or class's name read at run time (``f.__name__``), then shown.

``@traced``, whose body reads ``f.__name__``, puts the name of what it decorates into its output
(``CALLS.append(f"{f.__name__} called")``); a test comparing that output holds the name as a word
of prose (``"compute called"``), which the string rules (identifiers, code in strings) leave
alone, so renaming ``compute`` broke the test without a word. When the renamed function or class
shows its name so, every word that is its name in a string a test may compare with output is a
name hit: any string of a test file, elsewhere one under a comparison, an ``assert`` or a text
check (``assertEqual``, ``re.match``, ``pytest.raises(match=…)``); never a docstring. The name is
shown when:

- it is decorated by, or given to (``register(handler)``), a project function or class whose
  code reads ``__name__`` / ``__qualname__`` of one of its parameters (``f.__name__``);
- its name is read directly (``compute.__name__``, ``Square.__qualname__``);
- a class: its code or a project ancestor's reads its own (``type(self).__name__``,
  ``self.__class__.__name__``, ``cls.__name__``), a ``__repr__`` included (``"%s[%r]" %
  (self.__class__.__name__, …)`` shows ``Selector[Element[div]]``, no code a string rule reads).

Where every such read goes straight into f-strings or ``%`` formats (directly, or through a
variable assigned it), a word must sit as it does there (``f"invalid value for {name} field"``:
``"invalid value for String field"``, not ``"Not a valid String."``).
"""

from __future__ import annotations

import ast
import bisect
import re
import sqlite3
from collections.abc import Iterator

from astmcp.query.common import SymbolRow, ancestry, classes_declare
from astmcp.query.parameters import read_text
from astmcp.query.pytrees import parsed_tree
from astmcp.refactor.fixtures import last_name
from astmcp.refactor.param_readers import takers
from astmcp.refactor.pyscopes import code_point_column
from astmcp.refactor.rename_refs import Hit
from astmcp.resolve.python_external import class_ancestors
from astmcp.workspace import Workspace

__all__ = ["name_word_hits"]

_NAME_ATTRIBUTES = ("__name__", "__qualname__")
_OWN_RECEIVER = re.compile(r"(?:\btype\(\s*(?:self|cls)\s*\)|\bself\.__class__|\bcls)\.\Z")
_OWN_NAME = re.compile(r"(?:\btype\(\s*(?:self|cls)\s*\)|\bself\.__class__|\bcls)\.__(?:qual)?name__\b")
_AROUND = 10  # characters of an f-string's text around the name that a compared string must have
# a run of characters a source string spells as its value (no escapes, no quotes)
_PLAIN_END = re.compile(r"[\w \-:,.;!?()\[\]<>=/`]*$")
_PLAIN_START = re.compile(r"[\w \-:,.;!?()\[\]<>=/`]*")
_PLAIN_NAME = re.compile(
    r"(?<![\w.])(?:self\.)?(\w+)\.__(?:qual)?name__\b"
)  # `f.__name__`, `self.f.__name__`
_LINE_BREAK = re.compile(r"\r\n|\r|\n")  # the line ends the parser counts
_DEFAULT_REPR = re.compile(r"\bobject at\b")  # `<pkg.m.Name object at 0x7f…>`
_DECORATOR = re.compile(r"^\s*@\s*([\w.]+)", re.MULTILINE)


def name_word_hits(
    ws: Workspace, conn: sqlite3.Connection, row: SymbolRow, seen: set[tuple[str, int, int]]
) -> list[Hit]:
    """Name hits at the words of strings that are ``row``'s name, when its name is shown at run
    time (see the module); none otherwise, or at places ``seen`` already holds."""
    if row.kind not in ("function", "method", "class") or not row.file.endswith(".py"):
        return []
    files = _Sources(ws)
    out = _default_repr_hits(conn, row, files, seen)
    shown = _shown_by(ws, conn, row, files)
    if shown is None:
        return out
    reason, reads = shown
    contexts = _contexts(files, reads)
    word = re.compile(rf"(?<!\w){re.escape(row.name)}(?!\w)")
    # with the contexts known, a file is parsed only when its text holds the name as one has it
    sitting = (
        word
        if contexts is None
        else re.compile("|".join(re.escape(b) + re.escape(row.name) + re.escape(a) for b, a in contexts))
    )
    for (path,) in conn.execute("SELECT path FROM files WHERE language = 'python' ORDER BY path"):
        source = files.get(path, sitting) if path.endswith(".py") else None
        if source is None:
            continue
        for _node, line, text, match, _end in _string_words(source, path, row.name, word):
            column = match.start() + 1
            if (path, line, column) in seen or not _fits(contexts, text, match.start(), match.end()):
                continue
            seen.add((path, line, column))
            out.append(Hit(path, line, column, column + len(row.name), "string", "name", note=reason))
    return out


def _default_repr_hits(
    conn: sqlite3.Connection, row: SymbolRow, files: _Sources, seen: set[tuple[str, int, int]]
) -> list[Hit]:
    """A class's instances show its module and name where nothing else names them (``repr(x)``,
    ``f"{x}"`` of an object with no ``__repr__``: ``<pkg.m.MemoryStorage object at 0x…>``): the
    words that are its name in a compared string spelling such a text (``object at``, as a
    regular expression too) are name hits (tinydb's table repr test broke renaming
    ``MemoryStorage``)."""
    if row.kind != "class":
        return []
    if classes_declare(conn, ancestry(conn, [row.id])[0], "__repr__"):
        return []  # its own `__repr__` (or a project ancestor's) shows something else
    word = re.compile(rf"(?<!\w){re.escape(row.name)}(?!\w)")
    # a file is parsed only when its text holds the word `object` and the name
    both = re.compile(rf"\A(?=[\s\S]*\bobject\b)[\s\S]*?(?<!\w){re.escape(row.name)}(?!\w)")
    note = (
        f"a default repr shows {row.name!r} (`<module.{row.name} object at 0x…>`), which this string spells"
    )
    out: list[Hit] = []
    for (path,) in conn.execute("SELECT path FROM files WHERE language = 'python' ORDER BY path"):
        source = files.get(path, both) if path.endswith(".py") else None
        if source is None:
            continue
        spelling: dict[int, bool] = {}  # a string node's id -> whether it holds `object at`
        for node, line, text, match, end in _string_words(source, path, row.name, word):
            if id(node) not in spelling:
                first, last = node.lineno, node.end_lineno or node.lineno
                spelling[id(node)] = bool(
                    _DEFAULT_REPR.search("\n".join(source.line(n) for n in range(first, last + 1)))
                )
            column = match.start() + 1
            # (`"MemoryStorage object"` is a repr's part without `at`)
            spelled = spelling[id(node)] or text[match.end() : end].startswith(" object")
            if spelled and (path, line, column) not in seen:
                seen.add((path, line, column))
                out.append(Hit(path, line, column, column + len(row.name), "string", "name", note=note))
    return out


def _string_words(
    source: _Source, path: str, name: str, word: re.Pattern[str]
) -> Iterator[tuple[ast.expr, int, str, re.Match[str], int]]:
    """Each word ``name`` (``word`` matches it) in a string of ``source`` that may be compared
    with what a program shows (see ``_strings``): (string node, line, the line's text, the match,
    the string's end column on the line)."""
    holding = [n for n, text in enumerate(source.lines, 1) if name in text and word.search(text)]
    for node in _strings(source.tree, _test_file(path), holding):
        first, last = node.lineno, node.end_lineno or node.lineno
        for line in range(first, last + 1):
            text = source.line(line)
            start = source.column(line, node.col_offset) - 1 if line == first else 0
            end = source.column(line, node.end_col_offset or 0) - 1 if line == last else len(text)
            for match in word.finditer(text, start, end):
                yield node, line, text, match, end


class _Source:
    """A file's lines and syntax tree (no scopes: strings and names are all that is read)."""

    def __init__(self, text: str) -> None:
        self.lines = _LINE_BREAK.split(text)
        self.tree = parsed_tree(text)
        self._parents: dict[int, ast.AST] | None = None
        self._name_reads: dict[int, list[ast.Attribute]] | None = None

    @property
    def parents(self) -> dict[int, ast.AST]:
        """Each node's parent by the child's id (made once: every read of a file asks)."""
        if self._parents is None:
            self._parents = {
                id(child): node for node in ast.walk(self.tree) for child in ast.iter_child_nodes(node)
            }
        return self._parents

    @property
    def name_reads(self) -> dict[int, list[ast.Attribute]]:
        """The file's ``x.__name__`` / ``x.__qualname__`` nodes by their line (made once)."""
        if self._name_reads is None:
            self._name_reads = {}
            for node in ast.walk(self.tree):
                if isinstance(node, ast.Attribute) and node.attr in _NAME_ATTRIBUTES:
                    self._name_reads.setdefault(node.lineno, []).append(node)
        return self._name_reads

    def line(self, number: int) -> str:
        return self.lines[number - 1] if 0 < number <= len(self.lines) else ""

    def column(self, number: int, byte_col: int) -> int:
        return code_point_column(self.line(number), byte_col)


class _Sources:
    """The project's Python files, each read and parsed once."""

    def __init__(self, ws: Workspace) -> None:
        self.ws = ws
        self.loaded: dict[str, _Source | None] = {}

    def get(self, path: str, holding: re.Pattern[str] | None = None) -> _Source | None:
        """The parsed file (None when it cannot be read or parsed, or when ``holding`` is given
        and does not occur in its text)."""
        if path not in self.loaded:
            try:
                text = read_text(self.ws, path)
            except (OSError, ValueError):
                self.loaded[path] = None
                return None
            if holding is not None and holding.search(text) is None:
                return None  # (not kept: another caller may want it whatever it holds)
            try:
                self.loaded[path] = _Source(text)
            except (SyntaxError, ValueError, RecursionError):
                self.loaded[path] = None
        return self.loaded[path]


def _shown_by(
    ws: Workspace, conn: sqlite3.Connection, row: SymbolRow, files: _Sources
) -> tuple[str, list[tuple[str, int]]] | None:
    """Why ``row``'s name is read at run time, and every line reading it; None when it is not."""
    at = sorted(
        {
            (str(path), int(line))
            for path, line in conn.execute(
                "SELECT f.path, r.line FROM refs r JOIN files f ON f.id = r.file_id"
                " WHERE r.name IN (?, ?) AND r.kind = 'attribute' AND f.path LIKE '%.py'",
                _NAME_ATTRIBUTES,
            )
        }
    )
    raised = row.kind == "class" and _exception_class(conn, row)
    if not at and not raised:
        return None
    reasons: list[str] = []
    found: list[tuple[str, int]] = []
    # `compute.__name__`: a reference to it right before the read
    for path, line, end_col in conn.execute(
        "SELECT f.path, r.line, r.end_col FROM refs r JOIN files f ON f.id = r.file_id WHERE r.symbol_id = ?",
        (row.id,),
    ):
        parsed = files.get(path) if (path, line) in at else None
        text = parsed.line(line) if parsed is not None else ""
        if text[end_col - 1 :].startswith((".__name__", ".__qualname__")):
            reasons.append(f"its name is read at {path}:{line}")
            found.append((path, line))
    # decorated by, or given to, code reading the name of what it is given (`f.__name__`)
    names = {m.rpartition(".")[2] for m in _DECORATOR.findall(row.signature)} | takers(ws, conn, row)
    if names:
        marks = ", ".join("?" * len(names))
        for path, name, start, end in conn.execute(
            "SELECT f.path, s.name, s.start_line, s.end_line FROM symbols s JOIN files f ON f.id = s.file_id"
            f" WHERE s.kind IN ('function', 'method', 'class') AND s.name IN ({marks}) ORDER BY f.path, s.start_line",
            sorted(names),
        ):
            parsed = files.get(path)
            lines = [n for p, n in at if p == path and start <= n <= end]
            if parsed is None or not lines:
                continue
            given = _parameters(parsed.tree, start, end)
            for line in lines:
                if any(m.group(1) in given for m in _PLAIN_NAME.finditer(parsed.line(line))):
                    reasons.append(
                        f"{name!r}, which {row.name!r} is decorated by or given to, reads the name of what it"
                        f" is given ({path}:{line})"
                    )
                    found.append((path, line))
    # `f"<{cls.__name__}(file="` with `cls` of unknown type (a parametrized fixture): text that
    # may hold its name, so the strings that sit as the name does there are compared with it
    for path, line in _untyped_reads(conn, row, files):
        reasons.append(f"a name read off a value of unknown type is put into text at {path}:{line}")
        found.append((path, line))
    if row.kind == "class":
        # its own code, or a project ancestor's, naming its class (`type(self).__name__`), a
        # `__repr__`'s too: its text is no Python a string rule reads as code when it is
        # `Selector[Element[div]]` (cssselect's parser tests compare such reprs)
        classes, _ = ancestry(conn, [row.id])
        for path, start, end in conn.execute(
            "SELECT f.path, s.start_line, s.end_line FROM symbols s JOIN files f ON f.id = s.file_id"
            f" WHERE s.id IN ({', '.join('?' * len(classes))})",
            sorted(classes),
        ):
            parsed = files.get(path)
            if parsed is None:
                continue
            for p, line in at:
                if p == path and start <= line <= end and _OWN_NAME.search(parsed.line(line)):
                    reasons.append(f"its class's code reads its name ({path}:{line})")
                    found.append((path, line))
    if raised:
        # `SyntaxException: Expected …` on stderr, `SyntaxException('…')`: a traceback's last line
        # and an exception's repr show its class's name (mako's tests read one back)
        reasons.append("it is an exception class, whose name tracebacks and its repr show")
        found.append(_SHOWN_RAISED)
    if not found:
        return None
    return f"{reasons[0]}: a string may hold it as a word", found


# an exception class's name as tracebacks and reprs show it: `Name: message`, `Name('message')`,
# `pkg.errors.Name` (a read of no line: the interpreter's)
_SHOWN_RAISED = ("", 0)
_RAISED_CONTEXTS = [("", ":"), ("", "("), (".", "")]


def _exception_class(conn: sqlite3.Connection, row: SymbolRow) -> bool:
    """Whether the class derives from ``BaseException``."""
    _, outside = ancestry(conn, [row.id])
    return any("builtins.BaseException" in (class_ancestors(key) or {key}) for key in outside)


def _untyped_reads(conn: sqlite3.Connection, row: SymbolRow, files: _Sources) -> list[tuple[str, int]]:
    """The lines reading ``x.__name__`` / ``x.__qualname__`` where ``x`` may be ``row`` for all the
    index knows (a parametrized fixture, a parameter nobody typed: no reference to another project
    symbol, no ``type(self)`` form, which names its own class), each read put into f-strings with
    text around it (the contexts :func:`_fits` needs); a read used any other way is left out."""
    out: list[tuple[str, int]] = []
    for path, line, col in conn.execute(
        "SELECT DISTINCT f.path, r.line, r.col FROM refs r JOIN files f ON f.id = r.file_id"
        " WHERE r.name IN (?, ?) AND r.kind = 'attribute' AND f.path LIKE '%.py' ORDER BY f.path, r.line",
        _NAME_ATTRIBUTES,
    ):
        parsed = files.get(path)
        if parsed is None or (path, line) in out:
            continue
        before = parsed.line(line)[: col - 1]
        if not before.endswith(".") or _OWN_RECEIVER.search(before):
            continue  # (`type(self).__name__` names its own class)
        other = conn.execute(
            "SELECT 1 FROM refs r JOIN files f ON f.id = r.file_id WHERE f.path = ? AND r.line = ?"
            " AND r.end_col = ? AND r.symbol_id IS NOT NULL AND r.symbol_id != ? LIMIT 1",
            (path, line, col - 1, row.id),
        ).fetchone()
        if other is not None:
            continue  # `Other.__name__`: another symbol's name
        contexts = _contexts(files, [(path, line)])
        if contexts and all((before + after).strip() for before, after in contexts):
            out.append((path, line))
    return out


def _contexts(files: _Sources, reads: list[tuple[str, int]]) -> list[tuple[str, str]] | None:
    """The text around each place the name read at ``reads`` is put into an f-string (``f"{f.__name__}
    called"``: ``("", " called")``), directly or through a variable assigned it; None when one
    is used any other way (returned, stored, transformed, formatted otherwise): then any word may
    hold it."""
    out: list[tuple[str, str]] = []
    for path, line in reads:
        if (path, line) == _SHOWN_RAISED:
            out.extend(_RAISED_CONTEXTS)
            continue
        parsed = files.get(path)
        if parsed is None:
            return None
        tree, parents = parsed.tree, parsed.parents
        for node in parsed.name_reads.get(line, ()):
            parent = parents.get(id(node))
            if isinstance(parent, ast.FormattedValue):
                out.append(_around(parents.get(id(parent)), parent))
                continue
            formatted = _percent_around(parent, node, parents)
            if formatted is not None:
                out.append(formatted)
                continue
            if not (
                isinstance(parent, ast.Assign)
                and len(parent.targets) == 1
                and isinstance(parent.targets[0], ast.Name)
            ):
                return None
            variable = parent.targets[0].id
            scope = parents.get(id(parent))
            while scope is not None and not isinstance(
                scope, ast.FunctionDef | ast.AsyncFunctionDef | ast.Module
            ):
                scope = parents.get(id(scope))
            uses = [
                n
                for n in ast.walk(scope or tree)
                if isinstance(n, ast.Name) and n.id == variable and n is not parent.targets[0]
            ]
            for use in uses:
                holder = parents.get(id(use))
                if not isinstance(use.ctx, ast.Load) or not isinstance(holder, ast.FormattedValue):
                    return None
                out.append(_around(parents.get(id(holder)), holder))
    return out


def _around(joined: ast.AST | None, value: ast.FormattedValue) -> tuple[str, str]:
    """The literal text right before and after ``value`` in its f-string (a few plain characters)."""
    if not isinstance(joined, ast.JoinedStr):
        return "", ""
    parts = joined.values
    at = next(i for i, part in enumerate(parts) if part is value)
    before = parts[at - 1] if at > 0 else None
    after = parts[at + 1] if at + 1 < len(parts) else None
    prefix = str(before.value) if isinstance(before, ast.Constant) else ""
    suffix = str(after.value) if isinstance(after, ast.Constant) else ""
    return _PLAIN_END.search(prefix[-_AROUND:]).group(), _PLAIN_START.match(suffix[:_AROUND]).group()  # type: ignore[union-attr]


_PERCENT_FIELD = re.compile(r"%(?:\([^)]*\))?[#0 +-]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[hlL]?([diouxXeEfFgGcrsa%])")


def _percent_around(
    parent: ast.AST | None, value: ast.AST, parents: dict[int, ast.AST]
) -> tuple[str, str] | None:
    """The literal text right before and after ``value`` where it fills a ``%`` field of a
    literal format (``"%s[%r]" % (self.__class__.__name__, x)``: ``("", "[")``); None when it is
    not so placed."""
    items: list[ast.expr] = [value]  # type: ignore[list-item]
    binop = parent
    if isinstance(parent, ast.Tuple):
        items, binop = parent.elts, parents.get(id(parent))
    if not (
        isinstance(binop, ast.BinOp)
        and isinstance(binop.op, ast.Mod)
        and isinstance(binop.left, ast.Constant)
        and isinstance(binop.left.value, str)
        and binop.right is (parent if isinstance(parent, ast.Tuple) else value)
    ):
        return None
    at = next((i for i, item in enumerate(items) if item is value), None)
    fields = [m for m in _PERCENT_FIELD.finditer(binop.left.value) if m.group(1) != "%"]
    if at is None or len(fields) != len(items):
        return None
    text = binop.left.value
    prefix = text[fields[at - 1].end() if at > 0 else 0 : fields[at].start()]
    suffix = text[fields[at].end() : fields[at + 1].start() if at + 1 < len(fields) else len(text)]
    return _PLAIN_END.search(prefix[-_AROUND:]).group(), _PLAIN_START.match(suffix[:_AROUND]).group()  # type: ignore[union-attr]


def _fits(contexts: list[tuple[str, str]] | None, text: str, start: int, end: int) -> bool:
    """Whether the word at ``start``:``end`` of a line sits as the name does in one of ``contexts``."""
    return contexts is None or any(
        text[:start].endswith(before) and text[end:].startswith(after) for before, after in contexts
    )


def _parameters(tree: ast.AST, start: int, end: int) -> set[str]:
    """The parameter names of the functions defined within lines ``start``..``end``."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            and start <= node.lineno <= end
        ):
            args = node.args
            out.update(a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs))
            out.update(a.arg for a in (args.vararg, args.kwarg) if a is not None)
    return out


def _strings(tree: ast.AST, test_file: bool, lines: list[int]) -> list[ast.expr]:
    """The string literals and f-strings of ``tree`` on any of ``lines`` (sorted) that may be
    compared with what a program shows: every one of a test file, elsewhere those under a
    comparison, an ``assert`` or a call checking text (``assertEqual``, ``re.match``,
    ``pytest.raises(match=…)``) and those a ``__repr__``/``__str__`` returns. Never a string that is a statement of its own (a docstring); an
    f-string's literal parts are read through it (their own positions are not kept before Python
    3.12)."""
    out: list[ast.expr] = []

    def visit(node: ast.AST, checked: bool, shown: bool = False) -> None:
        first = getattr(node, "lineno", None)
        if first is not None:
            at = bisect.bisect_left(lines, first)
            if at == len(lines) or lines[at] > (getattr(node, "end_lineno", None) or first):
                return  # no line of it holds the word
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            return  # a docstring, or a string as a statement: no value
        if (test_file or checked) and (
            isinstance(node, ast.JoinedStr)
            or (isinstance(node, ast.Constant) and isinstance(node.value, str))
        ):
            out.append(node)
        if isinstance(node, ast.JoinedStr):
            for part in node.values:
                if isinstance(part, ast.FormattedValue):
                    visit(part.value, checked, shown)
            return
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
            shown = isinstance(node, ast.FunctionDef) and node.name in _SHOWN_METHODS
        checked = (
            checked
            or isinstance(node, ast.Compare | ast.Assert)
            or _checks_text(node)
            or (shown and isinstance(node, ast.Return))
        )
        for child in ast.iter_child_nodes(node):
            visit(child, checked, shown)

    visit(tree, False)
    return out


# what these return is the text a test compares (`repr(x).startswith(f"<{cls.__name__}(")`)
_SHOWN_METHODS = frozenset({"__repr__", "__str__"})
_TEXT_CHECKS = frozenset({"match", "fullmatch", "search", "raises", "warns", "expect", "check_output"})


def _checks_text(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    name = last_name(node.func) or ""
    return name.startswith("assert") or name in _TEXT_CHECKS


def _test_file(path: str) -> bool:
    folder, _, name = path.rpartition("/")
    parts = folder.split("/") if folder else []
    return (
        name.startswith("test_")
        or name.endswith("_test.py")
        or name == "conftest.py"
        or any(p in ("test", "tests", "testing") for p in parts)
    )
