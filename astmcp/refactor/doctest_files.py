"""Python: doctests kept in text files, which a test run executes as code.

``pytest --doctest-glob='*.md'`` (or its default ``test*.txt``), ``doctest.testfile("README.txt")``,
``doctest.DocFileSuite(…)`` and Sphinx's ``sphinx.ext.doctest`` run the ``>>>`` examples of
documentation files: ``>>> from pkg.m import helper`` there imports the symbol, and ``P().dev``
reads its member. No index covers these files, so each word of such an example that spells a
renamed Python name — on a prompt line, a ``...`` continuation or the expected output after it,
which doctest compares as written — is a name hit of kind ``string``: the plan is blocked for
review and ``uncertain: include`` edits it. Examples in files nothing runs are documentation.
"""

from __future__ import annotations

import ast
import fnmatch
import posixpath
import re
import sqlite3
from dataclasses import dataclass, field

from astmcp.errors import AstmcpError
from astmcp.model import PYTHON
from astmcp.query.common import SymbolRow
from astmcp.refactor.identifiers import language_of
from astmcp.refactor.prepare import load_file
from astmcp.refactor.rename_refs import Hit, config_files, project_files
from astmcp.workspace import Workspace

__all__ = ["doctest_file_hits"]

# documentation files a doctest runner may be pointed at (a `--doctest-glob` may name others)
_TEXT_SUFFIXES = (".md", ".markdown", ".rst", ".txt", ".mdx")
_PYTEST_DEFAULT_GLOB = "test*.txt"
_GLOB_OPTION = re.compile(r"""--doctest-glob(?:=|\s+)["']?([^\s"',\]]+)""")
_FILE_RUNNERS = frozenset({"testfile", "DocFileSuite", "DocFileTest"})
_SPHINX_DOCTEST = "sphinx.ext.doctest"
_PROMPT = re.compile(r"^(\s*)>>> ?")
_CLASS = re.compile(r"\s*(?:@|class\s)")  # a class statement (or its decorator) in an example


def doctest_file_hits(ws: Workspace, conn: sqlite3.Connection, family: list[SymbolRow]) -> list[Hit]:
    names = {m.name for m in family if language_of(m.file) == PYTHON}
    if not names:
        return []
    # a member (attribute, method) is only reached after a `.`, as a keyword (`P(dev=1)`), in a
    # string or in printed output, unless an example declares a class (`class Sub(P): dev = 4`)
    member = all(m.parent_path for m in family if language_of(m.file) == PYTHON)
    globs = _pytest_globs(ws)
    words = re.compile(r"(?<![\w])(" + "|".join(map(re.escape, sorted(names))) + r")(?![\w])")
    found: dict[str, list[Hit]] = {}
    for path in project_files(
        ws, lambda _, name: name.endswith(_TEXT_SUFFIXES) or any(fnmatch.fnmatch(name, g) for g in globs)
    ):
        try:
            text = load_file(ws, path).source.text
        except (OSError, AstmcpError):
            continue
        if ">>>" not in text or not words.search(text):
            continue
        hits = [
            Hit(path, number, match.start() + 1, match.end() + 1, "string", "name")
            for example in _examples(text)
            for number, line, code, strings in example.lines
            for match in words.finditer(line)
            if not (member and code and not example.declares and _bare(line, match, strings))
        ]
        if hits:
            found[path] = hits
    if not found:
        return []
    run = _doctested(ws, conn, sorted(found), globs)
    return [hit for path in sorted(found) if path in run for hit in found[path]]


def _pytest_globs(ws: Workspace) -> list[str]:
    """The ``--doctest-glob`` patterns the project's configuration, CI and task files give pytest;
    pytest's own default when they give none."""
    globs: list[str] = []
    for path in [*config_files(ws), *(p for p in ("noxfile.py", "tasks.py") if (ws.root / p).is_file())]:
        try:
            text = load_file(ws, path).source.text
        except (OSError, AstmcpError):
            continue
        globs += [g for g in _GLOB_OPTION.findall(text) if g not in globs]
    return globs or [_PYTEST_DEFAULT_GLOB]


@dataclass
class _Example:
    """One ``>>>`` example: its lines (number, text after the prompt blanked to the same columns,
    whether it is code rather than expected output, the spans of its string literals), and
    whether it declares a class (whose body may override a member by a bare name)."""

    lines: list[tuple[int, str, bool, list[tuple[int, int]]]] = field(default_factory=list)
    declares: bool = False


def _examples(text: str) -> list[_Example]:
    """The ``>>>`` examples of a text: each prompt line, its ``...`` continuations and the
    expected output up to a blank line or the next prompt. Comments are blanked."""
    out: list[_Example] = []
    lines = text.split("\n")
    index = 0
    while index < len(lines):
        prompt = _PROMPT.match(lines[index])
        if prompt is None:
            index += 1
            continue
        indent = prompt.group(1)
        quote = _Quote()
        example = _Example()
        code = quote.code(" " * prompt.end() + lines[index][prompt.end() :])
        example.lines.append((index + 1, code, True, quote.strings))
        index += 1
        while index < len(lines) and lines[index].strip() and not _PROMPT.match(lines[index]):
            line = lines[index]
            if line.startswith(indent + "..."):
                code = quote.code(" " * (len(indent) + 3) + line[len(indent) + 3 :])
                example.lines.append((index + 1, code, True, quote.strings))
            else:
                example.lines.append((index + 1, line, False, []))
            index += 1
        example.declares = any(code and _CLASS.match(text) for _, text, code, _ in example.lines)
        out.append(example)
    return out


def _bare(line: str, match: re.Match[str], strings: list[tuple[int, int]]) -> bool:
    """Whether the word ``match`` of a code line is a plain name: not after a ``.``, not a keyword
    (``dev=``), not inside a string."""
    if any(start <= match.start() < end for start, end in strings):
        return False
    before = line[: match.start()].rstrip()
    after = line[match.end() :].lstrip()
    return not before.endswith(".") and not (after.startswith("=") and not after.startswith("=="))


class _Quote:
    """The string an example's code is inside of, line to line, so that a comment (``>>> # use
    unbind_contextvars to …``: prose doctest never runs) is blanked and a ``#`` in a string is
    not."""

    def __init__(self) -> None:
        self.open = ""  # the triple quote the last line left open, else ""
        self.strings: list[tuple[int, int]] = []  # the last line's string spans

    def code(self, line: str) -> str:
        """``line`` with its comment blanked to the same columns (``strings``: its string spans)."""
        self.strings = []
        begin = 0  # where the string open at ``at`` began on this line
        at = 0
        while at < len(line):
            if self.open:
                if line[at] == "\\":
                    at += 2
                elif line.startswith(self.open, at):
                    at += len(self.open)
                    self.open = ""
                    self.strings.append((begin, at))
                else:
                    at += 1
                continue
            char = line[at]
            if char == "#":
                return line[:at] + " " * (len(line) - at)
            if char in "\"'":
                begin = at
                self.open = char * 3 if line.startswith(char * 3, at) else char
                at += len(self.open)
                continue
            at += 1
        if self.open:
            self.strings.append((begin, len(line)))
        if len(self.open) == 1:
            self.open = ""  # a one-quote string ends with its line
        return line


def _doctested(ws: Workspace, conn: sqlite3.Connection, paths: list[str], globs: list[str]) -> set[str]:
    """Those of ``paths`` a doctest runner executes: matched by a pytest glob, named by a
    ``doctest.testfile``/``DocFileSuite`` call of the project, or under the folder of a Sphinx
    ``conf.py`` that loads ``sphinx.ext.doctest``."""
    run = {p for p in paths if any(fnmatch.fnmatch(posixpath.basename(p), g) for g in globs)}
    named: list[tuple[str, str]] = []  # (calling file, the string it names)
    sphinx: list[str] = []  # folders of Sphinx projects that run doctests
    for (path,) in conn.execute("SELECT path FROM files WHERE language = 'python' ORDER BY path"):
        try:
            text = load_file(ws, path).source.text
        except (OSError, AstmcpError):
            continue
        if posixpath.basename(path) == "conf.py" and _SPHINX_DOCTEST in text:
            sphinx.append(posixpath.dirname(path))
        if any(runner in text for runner in _FILE_RUNNERS):
            named += [(path, value) for value in _runner_strings(text)]
    for path in paths:
        if any(folder == "" or path.startswith(folder + "/") for folder in sphinx):
            run.add(path)
        for caller, value in named:
            here = posixpath.normpath(posixpath.join(posixpath.dirname(caller), value))
            if path in (here, posixpath.normpath(value)) or path.endswith("/" + value.lstrip("./")):
                run.add(path)
    return run


def _runner_strings(text: str) -> list[str]:
    """The string arguments of ``testfile(…)``/``DocFileSuite(…)`` calls in Python ``text``."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    out: list[str] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        callee = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
        if callee in _FILE_RUNNERS:
            out += [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    return out
