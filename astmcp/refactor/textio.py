"""Source files as bytes and text: BOM, line endings and code-point positions.

Edits are computed on decoded text (without the BOM) and encoded back with the
file's BOM and line-ending style, so everything not edited keeps its bytes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass

from astmcp.errors import EncodingError

BOM = b"\xef\xbb\xbf"


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True, slots=True)
class SourceText:
    """One file's decoded text plus how to write it back byte-for-byte."""

    text: str
    bom: bool
    newline: str  # the dominant line ending: "\n" or "\r\n"

    @classmethod
    def decode(cls, data: bytes, path: str) -> SourceText:
        bom = data.startswith(BOM)
        body = data[len(BOM) :] if bom else data
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            raise EncodingError(f"{path} is not UTF-8 text; nothing was written", {"file": path}) from None
        if "\x00" in text:
            raise EncodingError(f"{path} contains NUL bytes; nothing was written", {"file": path})
        crlf = text.count("\r\n")
        newline = "\r\n" if crlf and crlf * 2 >= text.count("\n") else "\n"
        return cls(text, bom, newline)

    def encode(self, text: str) -> bytes:
        data = text.encode("utf-8")
        return BOM + data if self.bom else data

    def localize(self, snippet: str) -> str:
        """Inserted text uses the file's line ending."""
        if self.newline == "\n":
            return snippet
        return snippet.replace("\r\n", "\n").replace("\n", "\r\n")

    def line_starts(self) -> list[int]:
        starts = [0]
        for i, ch in enumerate(self.text):
            if ch == "\n":
                starts.append(i + 1)
        return starts


@dataclass(frozen=True, slots=True)
class TextEdit:
    """Replace ``[start, end)`` (offsets into the decoded text) with ``new``."""

    start: int
    end: int
    new: str


def offset_of(starts: list[int], line: int, column: int) -> int:
    """Offset of a 1-based line and 1-based code-point column."""
    if line < 1 or line > len(starts):
        raise ValueError(f"line {line} is outside the file")
    return starts[line - 1] + column - 1


def position_of(text: str, offset: int) -> tuple[int, int]:
    """The 1-based line and 1-based code-point column of an offset of ``text``."""
    return text.count("\n", 0, offset) + 1, offset - text.rfind("\n", 0, offset)


def apply_edits(text: str, edits: Iterable[TextEdit]) -> str:
    """Apply non-overlapping edits; identical duplicates are applied once."""
    ordered = sorted(set(edits), key=lambda e: (e.start, e.end))
    out: list[str] = []
    pos = 0
    for edit in ordered:
        if edit.start < pos:
            raise ValueError(f"overlapping edits at offset {edit.start}")
        out.append(text[pos : edit.start])
        out.append(edit.new)
        pos = edit.end
    out.append(text[pos:])
    return "".join(out)
