"""TS/JS: a class's or function's name read at run time (``C.name``) into text, then compared.

``for (const Logger of [WriteLogger, PrintLogger]) expect(String(new Logger())).toBe(`<${Logger.name}>`)``
compares what ``toString`` returns (``"<WriteLogger>"``) with the class's run-time name: renaming
``WriteLogger`` changes ``Logger.name`` and leaves the string, and the string rules leave a
capitalized word alone (it is prose to them). So where a ``.name`` that may be the symbol's — no
project member called ``name`` is read there (``user.name``), the receiver is no reference to
another project symbol — sits in a template literal with text around it (``<${Logger.name}>``),
each word that is the symbol's name and sits so (``"<WriteLogger>"``) in a string a test may
compare is a name hit: any string of a test file, elsewhere one under a comparison, given to
``expect``/``assert…``, or returned by ``toString``/``toJSON``/``inspect``. This is
``refactor/name_exposure.py``'s rule for Python's ``f"<{cls.__name__}(…"``.
"""

from __future__ import annotations

import re
import sqlite3

import tree_sitter

from astmcp.query.common import SymbolRow
from astmcp.refactor.rename_refs import Hit
from astmcp.refactor.ts_literals import TsFiles, captures

__all__ = ["ts_name_word_hits"]

_NAME_READS = re.compile(r"\$\{\s*[\w$.()!?]*\.name\s*\}")
_SUBSTITUTIONS = "(template_substitution (member_expression property: (property_identifier) @p))"
_STRINGS = "[(string) (template_string)] @s"
_AROUND = 10  # characters of a template's text around the name that a compared string must have
_PLAIN = re.compile(r"[\w \-:,.;!?()\[\]<>=/`'\"#@|]")
_SHOWN_METHODS = frozenset({"toString", "toJSON", "inspect"})
_CHECKS = re.compile(
    r"^(?:expect|assert\w*|strictEqual|equal|deepEqual|match|toBe|toEqual|toMatch|toThrow\w*)$"
)
_COMPARISONS = frozenset({"===", "!==", "==", "!="})
_TEST_PARTS = frozenset({"test", "tests", "__tests__", "spec", "specs", "__test__"})


def ts_name_word_hits(
    files: TsFiles, conn: sqlite3.Connection, row: SymbolRow, known: set[tuple[str, int, int]]
) -> list[Hit]:
    """Name hits at the words that are ``row``'s name in compared strings, when a ``.name`` that
    may be its name is put into a template literal with text around it (see the module)."""
    if row.kind not in ("class", "function") or row.file.endswith((".py", ".pyi")):
        return []
    contexts, reads = _contexts(files, conn, row)
    if not contexts:
        return []
    word = re.compile(rf"(?<![\w$]){re.escape(row.name)}(?![\w$])")
    # a file is parsed only when its text holds the name as some context has it
    sitting = re.compile(
        "|".join(re.escape(before) + re.escape(row.name) + re.escape(after) for before, after in contexts)
    )
    note = f"a name read at run time is put into text ({reads[0]}): a string may hold it as a word"
    out: list[Hit] = []
    for path, ts in files.holding(conn, row.name, fits=sitting):
        test_file = _test_file(path)
        for string in captures(ts, _STRINGS, "s"):
            if string.parent is not None and string.parent.type in ("string", "template_string"):
                continue
            if not test_file and not _compared(string):
                continue
            text = (string.text or b"").decode("utf-8", errors="replace")
            for match in word.finditer(text):
                if not any(
                    text[: match.start()].endswith(before) and text[match.end() :].startswith(after)
                    for before, after in contexts
                ):
                    continue
                line, column = _position(ts.lines, string, text, match.start())
                if (path, line, column) in known:
                    continue
                known.add((path, line, column))
                out.append(Hit(path, line, column, column + len(row.name), "string", "name", note=note))
    return out


def _contexts(
    files: TsFiles, conn: sqlite3.Connection, row: SymbolRow
) -> tuple[list[tuple[str, str]], list[str]]:
    """The text around each ``${x.name}`` of the project that may read ``row``'s name, and where."""
    contexts: list[tuple[str, str]] = []
    reads: list[str] = []
    for (path,) in conn.execute(
        "SELECT path FROM files WHERE language IN ('typescript', 'javascript') ORDER BY path"
    ):
        text = files.read(path)
        if text is None or _NAME_READS.search(text) is None:
            continue
        ts = files.get(path)
        if ts is None:
            continue
        for prop in captures(ts, _SUBSTITUTIONS, "p"):
            member = prop.parent
            substitution = member.parent if member is not None else None
            if prop.text != b"name" or member is None or substitution is None:
                continue
            line, column = prop.start_point[0] + 1, ts.column_of(prop)
            if _other_symbol(conn, path, line, column, member, row):
                continue
            around = _around(substitution)
            if around is not None:
                contexts.append(around)
                reads.append(f"{path}:{line}")
    return contexts, reads


def _other_symbol(
    conn: sqlite3.Connection,
    path: str,
    line: int,
    column: int,
    member: tree_sitter.Node,
    row: SymbolRow,
) -> bool:
    """Whether the ``.name`` read is a project member's (``user.name``), or its receiver a reference
    to another project symbol (``Other.name``)."""
    found = conn.execute(
        "SELECT 1 FROM refs r JOIN files f ON f.id = r.file_id WHERE f.path = ? AND r.line = ?"
        " AND r.col = ? AND r.name = 'name' AND r.symbol_id IS NOT NULL LIMIT 1",
        (path, line, column),
    ).fetchone()
    if found is not None:
        return True
    receiver = member.child_by_field_name("object")
    if receiver is None:
        return False
    end_line = receiver.end_point[0] + 1
    other = conn.execute(
        "SELECT 1 FROM refs r JOIN files f ON f.id = r.file_id WHERE f.path = ? AND r.line = ?"
        " AND r.end_col = ? AND r.symbol_id IS NOT NULL AND r.symbol_id != ? LIMIT 1",
        (path, end_line, column - 1, row.id),
    ).fetchone()
    return other is not None


def _around(substitution: tree_sitter.Node) -> tuple[str, str] | None:
    """The plain text right before and after a template substitution (a few characters each);
    None when there is none but spaces on either side (then any word could be the name)."""
    before = substitution.prev_sibling
    after = substitution.next_sibling
    prefix = _text(before) if before is not None and before.type == "string_fragment" else ""
    suffix = _text(after) if after is not None and after.type == "string_fragment" else ""
    prefix, suffix = prefix[-_AROUND:], suffix[:_AROUND]
    start = len(prefix)
    while start > 0 and _PLAIN.fullmatch(prefix[start - 1]):
        start -= 1
    stop = 0
    while stop < len(suffix) and _PLAIN.fullmatch(suffix[stop]):
        stop += 1
    prefix, suffix = prefix[start:], suffix[:stop]
    # a space alone would let any word be the name
    return (prefix, suffix) if (prefix + suffix).strip() else None


def _text(node: tree_sitter.Node) -> str:
    return (node.text or b"").decode("utf-8", errors="replace")


def _compared(string: tree_sitter.Node) -> bool:
    """Whether a string outside test files may be compared with shown text: an operand of a
    comparison, an argument of ``expect``/``assert…``, or returned by ``toString``/``toJSON``/``inspect``."""
    node: tree_sitter.Node | None = string
    while node is not None and node.parent is not None:
        parent = node.parent
        if parent.type == "binary_expression":
            operator = parent.child_by_field_name("operator")
            if operator is not None and _text(operator) in _COMPARISONS:
                return True
        elif parent.type == "arguments":
            call = parent.parent
            callee = call.child_by_field_name("function") if call is not None else None
            while callee is not None and callee.type == "member_expression":
                callee = callee.child_by_field_name("property")
            return callee is not None and _CHECKS.match(_text(callee)) is not None
        elif parent.type == "return_statement":
            method = parent.parent
            while method is not None and method.type not in ("method_definition", "function_declaration"):
                if method.type in ("arrow_function", "function_expression", "class_body"):
                    return False
                method = method.parent
            name = method.child_by_field_name("name") if method is not None else None
            return name is not None and _text(name) in _SHOWN_METHODS
        elif parent.type in ("statement_block", "program", "class_body"):
            return False
        node = parent
    return False


def _position(lines: list[str], string: tree_sitter.Node, text: str, offset: int) -> tuple[int, int]:
    """The 1-based line and code-point column of character ``offset`` of a string node's text."""
    head = text[:offset]
    line = string.start_point[0] + 1 + head.count("\n")
    if "\n" in head:
        return line, len(head.rsplit("\n", 1)[1]) + 1
    raw = lines[string.start_point[0]] if string.start_point[0] < len(lines) else ""
    start = len(raw.encode("utf-8")[: string.start_point[1]].decode("utf-8", errors="replace"))
    return line, start + offset + 1


def _test_file(path: str) -> bool:
    folder, _, name = path.rpartition("/")
    return any(p in _TEST_PARTS for p in folder.split("/")) or any(
        f".{mark}." in name for mark in ("test", "spec")
    )
