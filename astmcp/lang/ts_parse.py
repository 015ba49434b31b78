"""Parsing TypeScript/JavaScript with tree-sitter, shared by every TS/JS pass.

tree-sitter-typescript 0.23.2 rejects a few constructs that TypeScript accepts.
Where the fix is a keyword the tree does not need, the keyword is blanked out in
a *copy* of the source with the same byte length (so every offset in the tree
still points into the original text) before parsing:

- variance annotations ``<in out T>``, ``<in T>``, ``<out T>``;
- ``export type * from "m"`` / ``export type * as ns from "m"``;
- ``static accessor x`` (auto-accessors after ``static``).

Tagged templates with type arguments (``sql<Row>`...```) need no fix for the
index: the grammar reads them as comparisons without an ERROR node, so every
identifier is still in the tree.

:class:`TsSource` pairs the tree with the original text and converts tree-sitter
byte positions to the project's 1-based code-point columns.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass, field

import tree_sitter_javascript
import tree_sitter_typescript
from tree_sitter import Language, Node, Parser, Tree

from astmcp.model import Span

_CONTINUATION = re.compile(rb"[\x80-\xbf]")

_TS = Language(tree_sitter_typescript.language_typescript())
_TSX = Language(tree_sitter_typescript.language_tsx())
_JS = Language(tree_sitter_javascript.language())
JAVASCRIPT = _JS  # the grammar JS files are parsed with (a tree's `language` tells)

# Each pattern's group "kw" is blanked; patterns start with a literal (fast in `re`).
_EXPORT_TYPE_STAR = re.compile(rb"export\s+(?P<kw>type)(?=\s+\*)")
_STATIC_ACCESSOR = re.compile(rb"static\s+(?P<kw>accessor)(?=\s+[#\w$\[])")
_WORKAROUNDS = (
    (b"type", _EXPORT_TYPE_STAR),
    (b"accessor", _STATIC_ACCESSOR),
)
# After `<in `/`, out ` (found with bytes.find): an optional `out`, then a type
# parameter name and what may follow it in a type parameter list.
_VARIANCE_REST = re.compile(rb"(?P<kw>(?:[ \t]+out)?)[ \t\r\n]+[A-Za-z_$][\w$]*[ \t\r\n]*(?:extends\b|=|,|>)")
_SPACE = b" \t\r\n"
# `tag<T>`...`` : the grammar reads simple type arguments as comparisons, and
# fails on object types; the type arguments are blanked (the tag call remains).
_TAG_TYPE_END = re.compile(rb">[ \t]*`")
_TAG_SCAN_LIMIT = 2000


def language_for(path: str, language: str) -> Language:
    """The tree-sitter grammar for a file: TSX for .tsx, JS (with JSX) for JS files."""
    if language == "javascript":
        return _JS
    return _TSX if path.endswith(".tsx") else _TS


def _blank(match: re.Match[bytes]) -> bytes:
    start, end = match.span("kw")
    whole = match.group(0)
    offset = match.start(0)
    keyword = whole[start - offset : end - offset]
    return whole[: start - offset] + re.sub(rb"\S", b" ", keyword) + whole[end - offset :]


# A member of an object type that starts with `(` or `<` on its own line (an
# overload call signature) is glued to the previous member's type, because the
# grammar's automatic-semicolon rule never fires before `(`/`<`. A `;` written
# into the indentation separates them; only used after a line that ends a type.
_SIGNATURE_LINE = re.compile(
    rb"\n[ \t]*(?P<gap>[ \t])"
    rb"(?:\(|in\??:|<[ \t]*(?:\r?\n|(?:const[ \t]+)?[A-Za-z_$][\w$]*[ \t]*(?:[,=>]|extends\b)))"
)
_TYPE_END = re.compile(rb"(?:[\w$\])}]|(?<!=)>)$")
_CONTINUING_KEYWORD = re.compile(
    rb"\b(?:extends|keyof|typeof|infer|is|as|satisfies|in|of|instanceof|return|yield|await|new|"
    rb"delete|throw|case|else|do|readonly|unique|asserts|export|default|type|const|let|var|declare)$"
)


def _separate_call_signatures(raw: bytes) -> bytes:
    edits: list[int] = []
    for match in _SIGNATURE_LINE.finditer(raw):
        before = _code_before(raw, match.start())
        if before and _TYPE_END.search(before) and not _CONTINUING_KEYWORD.search(before):
            edits.append(match.start("gap"))
    if not edits:
        return raw
    out = bytearray(raw)
    for pos in edits:
        out[pos] = 0x3B  # ";"
    return bytes(out)


def _code_before(raw: bytes, end: int) -> bytes:
    """The code line before ``end``, skipping blank lines and comments (best effort)."""
    while end > 0:
        i = end - 1
        while i >= 0 and raw[i] in b" \t\r\n":
            i -= 1
        if i <= 0:
            return b""
        if raw[i] == 0x2F and raw[i - 1] == 0x2A:  # a block comment ends here
            opener = raw.rfind(b"/*", 0, i - 1)
            if opener < 0:
                return b""
            end = opener
            continue
        line_start = raw.rfind(b"\n", 0, i) + 1
        line = raw[line_start : i + 1]
        comment = line.find(b"//")
        if comment >= 0:
            line = line[:comment].rstrip()
            if not line:
                end = line_start
                continue
        return line
    return b""


def _blank_tag_type_arguments(raw: bytes) -> bytes:
    spans: list[tuple[int, int]] = []
    for match in _TAG_TYPE_END.finditer(raw):
        end = match.start()
        if end == 0 or raw[end - 1] in b"=-":  # `=> `x`` is an arrow body
            continue
        depth = braces = 0
        i = end
        limit = max(0, end - _TAG_SCAN_LIMIT)
        while i > limit:
            ch = raw[i]
            if ch == 0x3E and raw[i - 1] != 0x3D:  # ">" not in "=>"
                depth += 1
            elif ch == 0x3C:  # "<"
                depth -= 1
                if depth == 0:
                    break
            elif ch in b"}])":
                braces += 1
            elif ch in b"{[(":
                braces -= 1
                if braces < 0:
                    break
            elif ch == 0x60 or (ch == 0x3B and braces == 0):  # "`", or ";" outside an object type
                break
            i -= 1
        if (
            depth == 0
            and braces == 0
            and raw[i] == 0x3C
            and i > 0
            and (chr(raw[i - 1]).isalnum() or raw[i - 1] in b"_$")
        ):
            spans.append((i, end + 1))
    if not spans:
        return raw
    out = bytearray(raw)
    for start, stop in spans:
        out[start:stop] = re.sub(rb"[^\n]", b" ", raw[start:stop])
    return bytes(out)


def _prev_code_byte(raw: bytes, i: int) -> int:
    """Index of the last byte before ``i`` that is not whitespace or in a block comment."""
    j = i - 1
    while j >= 0:
        if raw[j] in _SPACE:
            j -= 1
        elif raw[j] == 0x2F and j > 0 and raw[j - 1] == 0x2A:  # "*/"
            j = raw.rfind(b"/*", 0, j - 1) - 1
            if j < -1:
                return -1
        else:
            return j
    return j


def _blank_variance(raw: bytes, out: bytearray) -> None:
    """``<in out T>`` → ``<       T>``."""
    for word in (b"in ", b"out "):
        i = raw.find(word)
        while i >= 0:
            j = _prev_code_byte(raw, i)
            if j >= 0 and raw[j] in b"<,":
                match = _VARIANCE_REST.match(raw, i + len(word) - 1)
                if match is not None:
                    out[i : i + len(word) - 1] = b" " * (len(word) - 1)
                    kw_start, kw_end = match.span("kw")
                    out[kw_start:kw_end] = b" " * (kw_end - kw_start)
            i = raw.find(word, i + 1)


def _blank_escaped_backticks(raw: bytes, out: bytearray) -> None:
    """The grammar has no escapes in template literal *types*, where an escaped
    backtick ends the type; two spaces are as harmless as ``\\` `` in any literal."""
    i = raw.find(b"\\`")
    while i >= 0:
        j = i
        while j > 0 and raw[j - 1] == 0x5C:
            j -= 1
        if (i - j) % 2 == 0:  # an odd run of backslashes escapes the backtick
            out[i : i + 2] = b"  "
        i = raw.find(b"\\`", i + 2)


def neutralize(raw: bytes, tsx: bool = False) -> bytes:
    """A copy of TS source with grammar-rejected syntax neutralized (same length)."""
    out = raw if tsx else _separate_call_signatures(raw)
    out = _blank_tag_type_arguments(out)
    for probe, pattern in _WORKAROUNDS:
        if probe in out:
            out = pattern.sub(_blank, out)
    edited = bytearray(out)
    _blank_variance(out, edited)
    _blank_escaped_backticks(out, edited)
    return bytes(edited)


def parse_bytes(path: str, language: str, raw: bytes) -> Tree:
    """Parse UTF-8 source (workarounds applied for TypeScript); offsets match ``raw``.

    A file cut off inside several blocks (an edit in progress) parses as one ERROR
    node; then the parse is retried with the open blocks closed *after* the end of
    the text, so offsets are unchanged and the declarations are kept (see
    :meth:`TsSource.unclosed_blocks`)."""
    grammar = language_for(path, language)
    source = raw if grammar is _JS else neutralize(raw, grammar is _TSX)
    parser = Parser(grammar)
    tree = parser.parse(source)
    if tree.root_node.has_error:
        depth = source.count(b"{") - source.count(b"}")
        if 0 < depth <= _MAX_CLOSERS:
            closed = parser.parse(source + b"\n" + b"}" * depth)
            if _error_weight(closed.root_node) < _error_weight(tree.root_node):
                return closed
    return tree


_MAX_CLOSERS = 64
_MAX_ERROR_NODES = 200


def _error_weight(root: Node) -> int:
    """Bytes inside ERROR nodes plus one per MISSING node (the first few hundred)."""
    weight = seen = 0
    stack = [root]
    while stack and seen < _MAX_ERROR_NODES:
        node = stack.pop()
        if node.is_error:
            weight += node.end_byte - node.start_byte
            seen += 1
        elif node.is_missing:
            weight += 1
            seen += 1
        elif node.has_error:
            stack.extend(node.children)
    return weight


@dataclass(slots=True)
class TsSource:
    """The original text of a parsed file, with position helpers for its tree."""

    text: str
    raw: bytes
    tree: Tree
    _ascii: bool = True
    _lines: list[bytes] | None = field(default=None, repr=False)
    # per non-ASCII line: the byte offsets of its UTF-8 continuation bytes (a column is then a
    # bisect, not a decode of the line's prefix: minified one-line files have 100k names a line)
    _continuations: dict[int, list[int]] = field(default_factory=dict, repr=False)

    @classmethod
    def parse(cls, path: str, language: str, text: str) -> TsSource:
        raw = text.encode("utf-8")
        return cls(text, raw, parse_bytes(path, language, raw), text.isascii())

    @classmethod
    def of(cls, text: str, tree: Tree) -> TsSource:
        """Position helpers for a tree already parsed by :func:`parse_bytes`."""
        return cls(text, text.encode("utf-8"), tree, text.isascii())

    def column(self, row: int, byte_col: int) -> int:
        """1-based code-point column of a tree-sitter (row, byte column) point."""
        if self._ascii:
            return byte_col + 1
        if self._lines is None:
            self._lines = self.raw.split(b"\n")
        if byte_col == 0:
            return 1
        found = self._continuations.get(row)
        if found is None:
            line = self._lines[row] if row < len(self._lines) else b""
            found = self._continuations[row] = [m.start() for m in _CONTINUATION.finditer(line)]
        return byte_col - bisect_left(found, byte_col) + 1

    def unclosed_blocks(self) -> int:
        """How many ``}`` the parser was given after the end of the text (0: none)."""
        return max(0, self.tree.root_node.end_byte - len(self.raw) - 1)

    def span(self, node: Node, start: Node | None = None) -> Span:
        """Span of ``node`` (optionally starting at ``start``), end exclusive, within the text."""
        first = (start or node).start_point
        if node.end_byte > len(self.raw):  # ends in the closers added after the text
            end_row = self.raw.count(b"\n")
            end_col = len(self.raw) - (self.raw.rfind(b"\n") + 1)
        else:
            end_row, end_col = node.end_point
        return Span(
            first.row + 1,
            self.column(first.row, first.column),
            end_row + 1,
            self.column(end_row, end_col),
        )

    def slice(self, start_byte: int, end_byte: int) -> str:
        return self.raw[start_byte:end_byte].decode("utf-8", errors="replace")

    def text_of(self, node: Node) -> str:
        """The node's text in the original source (not the neutralized copy)."""
        return self.raw[node.start_byte : node.end_byte].decode("utf-8", errors="replace")
