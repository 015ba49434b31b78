"""Python: doctests kept in text files, which a test run executes as code.

``pytest --doctest-glob='*.md'`` (or its default ``test*.txt``), ``doctest.testfile("README.txt")``,
``doctest.DocFileSuite(…)`` and Sphinx's ``sphinx.ext.doctest`` run the ``>>>`` examples of
documentation files: ``>>> from pkg.m import helper`` there imports the symbol, and ``P().dev``
reads its member. No index covers these files, so each word of such an example that spells a
renamed Python name — on a prompt line, a ``...`` continuation or the expected output after it,
which doctest compares as written — is a name hit of kind ``string``: the plan is blocked for
review and ``uncertain: include`` edits it, except where the examples themselves say what the word
is (a file's examples run in one namespace): ``>>> from pkg.m import helper`` of the symbol's own
module and the reads of ``helper`` after it, ``Metadata.from_raw`` of an imported class, ``r.url``
where every binding of ``r`` is ``r = Requirement(…)`` of one — certain references, renamed with
the symbol. Examples in files nothing runs are documentation.
"""

from __future__ import annotations

import ast
import fnmatch
import posixpath
import re
import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace

from astmcp.errors import AstmcpError
from astmcp.model import PYTHON
from astmcp.query.common import SymbolRow
from astmcp.query.printed_names import PrintedNames
from astmcp.query.pytrees import parsed_tree
from astmcp.refactor.doctest_namespace import SphinxSetups, joined
from astmcp.refactor.identifiers import language_of
from astmcp.refactor.prepare import load_file
from astmcp.refactor.rename_refs import Hit, config_files, project_files
from astmcp.resolve.python_doctests import Position, doctest_names, import_binding
from astmcp.resolve.python_external import module_defines
from astmcp.resolve.python_resolver import Resolver
from astmcp.resolve.python_vocab import IDENT
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


def doctest_file_hits(
    ws: Workspace,
    conn: sqlite3.Connection,
    family: list[SymbolRow],
    new_name: str = "",
    certain: Iterable[tuple[str, int, int]] = (),
) -> list[Hit]:
    names = {m.name for m in family if language_of(m.file) == PYTHON}
    if not names:
        return []
    # a member (attribute, method) is only reached after a `.`, as a keyword (`P(dev=1)`), in a
    # string or in printed output, unless an example declares a class (`class Sub(P): dev = 4`)
    member = all(m.parent_path for m in family if language_of(m.file) == PYTHON)
    globs = _pytest_globs(ws)
    words = re.compile(r"(?<![\w])(" + "|".join(map(re.escape, sorted(names))) + r")(?![\w])")
    found: dict[str, list[Hit]] = {}
    printing: dict[tuple[str, int, int], tuple[int, int]] = {}  # an output word → its example's lines
    fenced: dict[str, list[Hit]] = {}  # the words of fenced Python blocks (```python)
    texts: dict[str, str] = {}
    for path in project_files(
        ws, lambda _, name: name.endswith(_TEXT_SUFFIXES) or any(fnmatch.fnmatch(name, g) for g in globs)
    ):
        try:
            text = load_file(ws, path).source.text
        except (OSError, AstmcpError):
            continue
        blocks = _code_blocks(text)
        fences = _fenced_blocks(text) if "```" in text or "~~~" in text else []
        if (">>>" not in text and not blocks and not fences) or not words.search(text):
            continue
        fenced[path] = [
            Hit(path, number, match.start() + 1, match.end() + 1, "string", "name")
            for block in fences
            for number, code, strings in block.code_lines()
            for match in words.finditer(code)
            if not (member and not block.declares and _bare(code, match, strings, True))
        ]
        hits = []
        for example in _examples(text):
            span = (example.lines[0][0], max(n for n, _, code, _ in example.lines if code))
            for number, line, code, strings in example.lines:
                for match in words.finditer(line):
                    prompt = number == example.lines[0][0]
                    if member and code and not example.declares and _bare(line, match, strings, prompt):
                        continue
                    hits.append(Hit(path, number, match.start() + 1, match.end() + 1, "string", "name"))
                    if not code:  # a word of its expected output
                        printing[(path, number, match.start() + 1)] = span
        # `.. testsetup::`, `.. testcode::`, `.. testcleanup::` (and MyST's ```{testsetup}```): code
        # Sphinx's doctest builder runs beside the examples
        hits += [
            Hit(path, number, match.start() + 1, match.end() + 1, "string", "name")
            for block in blocks
            for number, code, strings in block.code_lines()
            for match in words.finditer(code)
            if not (member and not block.declares and _bare(code, match, strings, True))
        ]
        if hits or fenced[path]:
            found[path] = hits
            texts[path] = text
    if not found:
        return []
    run, executed = _doctested(ws, conn, sorted(found), globs)
    resolver = Resolver(conn, {})
    sphinx = SphinxSetups(ws, conn)
    out: list[Hit] = []
    python = [m for m in family if language_of(m.file) == PYTHON]
    printed = PrintedNames(conn, python[0], python, set(certain))
    for path in sorted(found):
        if path in executed:  # its fenced blocks run as they are: every word a hit
            out += fenced[path]
        if path not in run:
            continue
        given = sphinx.of(path)
        judged = _resolved(ws, resolver, path, texts[path], family, new_name, given)
        printed.certain |= {(path, line, column) for (line, column), verdict in judged.items() if verdict}
        outside: bool | None = None  # whether a module outside the project the examples import defines it
        for hit in found[path]:
            verdict = judged.get((hit.line, hit.column))
            printer = printing.get((path, hit.line, hit.column))
            if verdict is None and printer is not None:
                # a word an example prints: the symbol's name shown when nothing else may print
                # it (query.printed_names; a class's, unless an outside module defines the name)
                if outside is None:
                    outside = _outside_defines(resolver, path, texts[path], python[0].name)
                verdict = printed.shown(path, *printer, outside=outside) or None
            if verdict is None:
                out.append(hit)
            elif verdict:  # the symbol itself; another symbol's word is no hit
                out.append(replace(hit, confidence="certain"))
    return out


_IMPORTED = re.compile(r"^\s*(?:>>>|\.\.\.)\s+(?:from\s+([\w.]+)\s+import|import\s+([\w.]+))", re.M)


def _outside_defines(resolver: Resolver, path: str, text: str, name: str) -> bool:
    """Whether a module outside the project that the examples of ``path`` import defines or
    imports ``name`` at its top level."""
    for match in _IMPORTED.finditer(text):
        module = match.group(1) or match.group(2)
        if resolver.module(path, 0, module) is None and module_defines(module, name):
            return True
    return False


def _resolved(
    ws: Workspace,
    resolver: Resolver,
    path: str,
    text: str,
    family: list[SymbolRow],
    new_name: str,
    given: dict[str, str],
) -> dict[Position, bool]:
    """The words of ``path``'s examples that its own imports, or the names its runner gives them
    (Sphinx's setup: ``given``; pytest's ``doctest_namespace``: the linker's ``N:`` chains), show to be the renamed symbol (True) or another symbol of the
    project (False): the import of it from its module and the reads after it, a member of an
    imported class (``C.m``), of what a call makes (``C.parse(s).m``) or of what one made
    (``v.m`` after ``v = C(…)`` or ``v = C.parse(…)``). Nothing when the examples bind
    ``new_name`` (the renamed word would be theirs) or do not parse (``python_doctests``)."""
    lines = _star_imports_spelled(resolver, path, text.split("\n"))
    text = "\n".join(lines)
    names = doctest_names(lines, 1, len(lines))
    if not new_name or new_name in names.binds:
        return {}
    # what the setup blocks import (a name the examples read and never bind); a name bound twice
    # anywhere (but by imports of the same thing: tenacity's blocks import `stop_after_attempt`
    # again), or blocks that do not parse, resolve nothing
    setup: dict[str, str] = {}
    setup_at: dict[Position, str] = {}
    bound: dict[str, int] = {}
    for block in _code_blocks(text):
        if block.tree is None:
            return {}
        for node in ast.walk(block.tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                for alias in node.names:
                    name, chain = import_binding(node, alias)
                    again = chain is not None and setup.get(name) == chain
                    bound[name] = bound.get(name, 0) + (0 if again else 1)
                    if chain is None:
                        continue
                    setup[name] = chain
                    if isinstance(node, ast.ImportFrom):  # `from pkg.m import helper`: the symbol itself
                        at = block.position(alias.lineno, alias.col_offset, alias.name)
                        if at is not None:
                            setup_at[at] = chain
            elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                bound[node.id] = bound.get(node.id, 0) + 1
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                bound[node.name] = bound.get(node.name, 0) + 1
    if new_name in bound or new_name in given or resolver.runner_name(path, new_name) is not None:
        return {}
    setup = {n: c for n, c in setup.items() if bound.get(n) == 1 and n not in names.binds}
    # what the runner gives and nothing in the file binds (a setup block's import overrides it)
    read = {_word(lines, at) for at in names.globals_read}
    read |= {
        root for node in [*names.attributes.values(), *names.members.values()] if (root := _chain_root(node))
    }
    runner = {n: f"N:{n}" for n in sorted(read) if resolver.runner_name(path, n) is not None}
    given = {**runner, **given}
    setup = {**{n: c for n, c in given.items() if n not in bound and n not in names.binds}, **setup}
    setup_at = {at: c for at, c in setup_at.items() if c in setup.values()}
    imports = {**setup, **names.imports}
    ids = {m.id for m in family if language_of(m.file) == PYTHON}
    homes = {m.file for m in family if language_of(m.file) == PYTHON and not m.parent_path}
    imported_on: dict[str, int] = {}  # each import's chain → the first line importing it
    for at, (chain, kind) in names.imported.items():
        if kind == "import":
            imported_on[chain] = min(at[0], imported_on.get(chain, at[0]))

    def ours(chain: str) -> bool | None:
        """True: the renamed symbol; False: another symbol of the project; None: not known."""
        entity = resolver.resolve(path, chain)
        if entity is None or entity[0] != "s":
            return None
        if entity[1] not in ids:
            return False
        # what holds it: `C` of `I:0:m:C/from_raw`, the module m of `I:0:m:f` (`from m import f`)
        head = chain.rpartition("/")[0] if "/" in chain else chain.rpartition(":")[0] + ":"
        module = resolver.resolve(path, head)
        symbol = resolver.syms.get(entity[1])
        # a module-level name is renamed where its own module is named, not through a re-export
        # (`from pkg import f` of `pkg/__init__.py`'s `from .m import f as f` keeps the old name)
        if (
            symbol is None
            or "." in symbol.symbol_path
            or (module is not None and module[0] == "m" and module[1] in homes)
        ):
            return True
        if (
            module is not None
            and module[0] == "m"
            and _passes_on(ws, resolver, module[1], symbol.symbol_path, homes, new_name)
        ):
            return True  # `from .m import f` in `pkg/__init__.py`: renamed there, so `pkg.f` is too
        return None

    judged: dict[Position, bool] = {}

    def judge(at: Position, chain: str) -> None:
        verdict = ours(chain)
        if verdict is not None:
            judged[at] = verdict

    for at, (chain, _kind) in names.imported.items():
        line = imported_on.get(chain)
        if line is not None and line <= at[0]:
            judge(at, chain)
    for at, chain in setup_at.items():  # the setup's own `from pkg.m import helper`
        judge(at, chain)
    for at in names.globals_read:  # an example's read of what the setup imported
        word = _word(lines, at)
        if word in setup:
            judge(at, setup[word])
    for block in _code_blocks(text):  # the blocks' own reads of it (`@cached(…)` in a testcode)
        for at, chain in _block_reads(block, setup):
            judge(at, chain)
    for at, node in names.attributes.items():
        attribute = _chain(node, imports)
        root = _chain_root(node)
        line = imported_on.get(imports[root]) if root in imports else None
        if attribute is not None and (line is None or line < at[0]):
            judge(at, attribute)
    for at, maker in names.members.items():
        made = _chain(maker, imports)
        root = _chain_root(maker)
        word = _word(lines, at)
        line = imported_on.get(imports[root]) if root in imports else None
        if made is not None and word and (line is None or line < at[0]):
            judge(at, f"{made}/()/{word}")
    return judged


_STAR_IMPORT = re.compile(r"^(\s*(?:(?:>>>|\.\.\.)\s+)?from\s+([\w.]+)\s+import\s+)\*(\s*)$")


def _star_imports_spelled(resolver: Resolver, path: str, lines: list[str]) -> list[str]:
    """``lines`` with each ``from pkg import *`` of a project module in an example or a Sphinx
    setup block (tenacity's ``.. testsetup::``) spelled out as the names of the project's
    symbols it gives that the code reads (``from pkg import Schema, Required``): a star import
    leaves every name unknown to ``doctest_names``, while the index knows what a project module
    holds. A public name alone, as a star import takes."""
    words: set[str] | None = None
    out = list(lines)
    for index, line in enumerate(lines):
        match = _STAR_IMPORT.match(line)
        if match is None or resolver.module(path, 0, match.group(2)) is None:
            continue
        if words is None:
            blocks = {
                number for block in _code_blocks("\n".join(lines)) for number, _, _ in block.code_lines()
            }
            words = {
                word.group()
                for number, text in enumerate(lines, 1)
                if number in blocks or _PROMPT.match(text) or text.lstrip().startswith("... ")
                for word in IDENT.finditer(text)
                if not word.group().startswith("_")
            }
        given = sorted(
            w
            for w in words
            if (e := resolver.resolve(path, f"I:0:{match.group(2)}:{w}")) is not None and e[0] == "s"
        )
        if given:
            out[index] = match.group(1) + ", ".join(given) + match.group(3)
    return out


def _passes_on(
    ws: Workspace, resolver: Resolver, module: str, name: str, homes: set[str], new_name: str
) -> bool:
    """Whether ``module`` re-exports ``name`` by a top-level ``from <home> import name`` of its
    home module, without an alias: the rename renames that import, and the name ``module``
    offers with it (an ``as name`` alias would keep it). A ``from <home> import *`` passes on the
    new name too, when nothing else in ``module`` binds the name and a star import still takes
    it (a public name, or the home's ``__all__``, which the rename edits)."""
    try:
        tree = parsed_tree(load_file(ws, module).source.text)
    except (OSError, AstmcpError, SyntaxError, ValueError):
        return False
    found = False
    for stmt in tree.body:
        if not isinstance(stmt, ast.ImportFrom):
            for node in ast.walk(stmt):
                bound = node.id if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load) else None
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    bound = node.name
                if bound == name:
                    return False  # bound otherwise too
            continue
        source = resolver.module(module, stmt.level, stmt.module or "")
        for alias in stmt.names:
            if alias.name == "*":
                if (
                    source is not None
                    and source[1] in homes
                    and (not new_name.startswith("_") or _declares_all(ws, source[1]))
                ):
                    found = True
                continue
            if (alias.asname or alias.name) != name:
                continue
            if alias.asname is not None or alias.name != name or source is None or source[1] not in homes:
                return False  # bound otherwise too, or an alias keeping the name
            found = True
    return found


def _declares_all(ws: Workspace, module: str) -> bool:
    """Whether the Python file ``module`` assigns ``__all__`` at its top level."""
    try:
        tree = parsed_tree(load_file(ws, module).source.text)
    except (OSError, AstmcpError, SyntaxError, ValueError):
        return False
    return any(
        isinstance(stmt, ast.Assign | ast.AnnAssign | ast.AugAssign)
        and any(isinstance(t, ast.Name) and t.id == "__all__" for t in ast.walk(stmt))
        for stmt in tree.body
    )


def _chain_root(node: ast.expr) -> str | None:
    while isinstance(node, ast.Attribute | ast.Call):
        node = node.value if isinstance(node, ast.Attribute) else node.func
    return node.id if isinstance(node, ast.Name) else None


def _chain(node: ast.expr, imports: dict[str, str]) -> str | None:
    """The chain of an expression of members and calls (``C.parse(s).m``) starting from a name
    the examples import or their runner gives; None from anything else."""
    steps: list[str] = []
    while isinstance(node, ast.Attribute | ast.Call):
        steps.append(node.attr if isinstance(node, ast.Attribute) else "()")
        node = node.value if isinstance(node, ast.Attribute) else node.func
    if not isinstance(node, ast.Name) or node.id not in imports:
        return None
    return joined(imports[node.id], reversed(steps))


_RST_BLOCK = re.compile(r"^(\s*)\.\.\s+(?:testsetup|testcode|testcleanup)::")
_MYST_BLOCK = re.compile(r"^(\s*)(`{3,}|:{3,})\s*\{(?:testsetup|testcode|testcleanup)\}")


@dataclass
class _Block:
    """A Sphinx doctest code block: its first line's number, its lines as written, and the code
    parsed (None when it does not parse)."""

    first: int
    lines: list[str]
    indent: int
    tree: ast.Module | None
    declares: bool

    def code_lines(self) -> Iterator[tuple[int, str, list[tuple[int, int]]]]:
        """(file line, the line with its comment blanked, its string spans) of each line."""
        quote = _Quote()
        for n, line in enumerate(self.lines):
            code = quote.code(line)
            yield self.first + n, code, quote.strings

    def position(self, lineno: int, byte_col: int, word: str) -> Position | None:
        """The file position of a parsed node's (line, UTF-8 byte column) when ``word`` is there."""
        if not 0 < lineno <= len(self.lines):
            return None
        code = self.lines[lineno - 1][self.indent :]
        col = len(code.encode("utf-8")[:byte_col].decode("utf-8", errors="replace"))
        return (
            (self.first + lineno - 1, self.indent + col + 1) if code[col : col + len(word)] == word else None
        )


def _code_blocks(text: str) -> list[_Block]:
    """The ``.. testsetup::`` / ``testcode`` / ``testcleanup`` blocks of reStructuredText (the
    lines indented under the directive, its options left out) and MyST's fenced
    ```` ```{testsetup} ```` ones."""
    lines = text.split("\n")
    out: list[_Block] = []
    index = 0
    while index < len(lines):
        rst, myst = _RST_BLOCK.match(lines[index]), _MYST_BLOCK.match(lines[index])
        index += 1
        if rst is not None:
            depth = len(rst.group(1))
            start = index
            while index < len(lines) and (not lines[index].strip() or _indent(lines[index]) > depth):
                index += 1
            body = [(n, line) for n, line in enumerate(lines[start:index], start) if line.strip()]
            body = [(n, line) for n, line in body if not line.strip().startswith(":")]  # options
        elif myst is not None:
            fence = myst.group(2)
            start = index
            while index < len(lines) and not lines[index].strip().startswith(fence):
                index += 1
            body = [(n, line) for n, line in enumerate(lines[start:index], start) if line.strip()]
            body = [(n, line) for n, line in body if not line.strip().startswith(":")]
            index += 1
        else:
            continue
        if body:
            out.append(_block(lines, body[0][0], body[-1][0]))
    return out


def _block(lines: list[str], first: int, last: int) -> _Block:
    """The code block on ``lines[first..last]`` (0-based), parsed without its indentation."""
    block_lines = lines[first : last + 1]
    indent = min(_indent(line) for line in block_lines if line.strip())
    try:
        tree: ast.Module | None = ast.parse("\n".join(line[indent:] for line in block_lines))
    except (SyntaxError, ValueError):
        tree = None
    declares = tree is None or any(isinstance(n, ast.ClassDef) for n in ast.walk(tree))
    return _Block(first + 1, block_lines, indent, tree, declares)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _block_reads(block: _Block, setup: dict[str, str]) -> Iterator[tuple[Position, str]]:
    """(position, chain) of each read in a code block of a name the setup imports, or of a member
    of one (``structlog.configure``)."""
    for node in ast.walk(block.tree) if block.tree is not None else ():
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in setup:
            at = block.position(node.lineno, node.col_offset, node.id)
            if at is not None:
                yield at, setup[node.id]
        elif (
            isinstance(node, ast.Attribute)
            and node.end_lineno is not None
            and node.end_col_offset is not None
        ):
            steps, root = [node.attr], node.value
            while isinstance(root, ast.Attribute):
                steps.append(root.attr)
                root = root.value
            if isinstance(root, ast.Name) and root.id in setup:
                col = node.end_col_offset - len(node.attr.encode("utf-8"))
                at = block.position(node.end_lineno, col, node.attr)
                if at is not None:
                    yield at, joined(setup[root.id], reversed(steps))


def _word(lines: list[str], at: Position) -> str:
    line, column = at
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    match = re.match(r"\w+", text[column - 1 :])
    return match.group() if match else ""


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


def _bare(line: str, match: re.Match[str], strings: list[tuple[int, int]], prompt: bool) -> bool:
    """Whether the word ``match`` of a code line is a plain name: not after a ``.``, not a keyword
    (``dev=``: inside a call's parentheses; on a prompt line with none open before it, ``marker =
    Marker(…)`` binds a variable), not inside a string."""
    if any(start <= match.start() < end for start, end in strings):
        return False
    before = line[: match.start()].rstrip()
    after = line[match.end() :].lstrip()
    if before.endswith("."):
        return False
    if not after.startswith("=") or after.startswith("=="):
        return True
    shown = "".join(" " if any(a <= i < b for a, b in strings) else c for i, c in enumerate(before))
    return prompt and sum(shown.count(o) - shown.count(c) for o, c in ("()", "[]", "{}")) == 0


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


def _doctested(
    ws: Workspace, conn: sqlite3.Connection, paths: list[str], globs: list[str]
) -> tuple[set[str], set[str]]:
    """Those of ``paths`` a doctest runner executes: matched by a pytest glob, named by a
    ``doctest.testfile``/``DocFileSuite`` call of the project, or under the folder of a Sphinx
    ``conf.py`` that loads ``sphinx.ext.doctest``; and those whose fenced Python blocks run as
    code: named by a project file that calls ``exec``/``compile`` (a test running the README's
    examples: python-slugify's), or any Markdown file where a plugin running them is in use
    (``--markdown-docs``, ``--codeblocks``, ``mktestdocs``, ``phmdoctest``)."""
    run = {p for p in paths if any(fnmatch.fnmatch(posixpath.basename(p), g) for g in globs)}
    named: list[tuple[str, str]] = []  # (calling file, the string it names)
    executing: list[tuple[str, str]] = []  # (a file calling `exec`, a documentation file it names)
    sphinx: list[str] = []  # folders of Sphinx projects that run doctests
    plugin = False
    for path in config_files(ws):
        try:
            plugin = plugin or any(p in load_file(ws, path).source.text for p in _BLOCK_RUNNERS)
        except (OSError, AstmcpError):
            continue
    for (path,) in conn.execute("SELECT path FROM files WHERE language = 'python' ORDER BY path"):
        try:
            text = load_file(ws, path).source.text
        except (OSError, AstmcpError):
            continue
        if posixpath.basename(path) == "conf.py" and _SPHINX_DOCTEST in text:
            sphinx.append(posixpath.dirname(path))
        if any(runner in text for runner in _FILE_RUNNERS):
            named += [(path, value) for value in _runner_strings(text)]
        plugin = plugin or any(p in text for p in _BLOCK_RUNNERS)
        if _EXEC.search(text):
            executing += [(path, value) for value in _named_documents(text)]

    def names(path: str, caller: str, value: str) -> bool:
        here = posixpath.normpath(posixpath.join(posixpath.dirname(caller), value))
        return path in (here, posixpath.normpath(value)) or path.endswith("/" + value.lstrip("./"))

    executed: set[str] = set()
    for path in paths:
        if any(folder == "" or path.startswith(folder + "/") for folder in sphinx):
            run.add(path)
        if any(names(path, caller, value) for caller, value in named):
            run.add(path)
        if (plugin and path.endswith((".md", ".markdown"))) or any(
            names(path, caller, value) for caller, value in executing
        ):
            executed.add(path)
    return run, executed


_EXEC = re.compile(r"\b(?:exec|compile)\(")
# pytest plugins and libraries running the fenced code blocks of Markdown files
_BLOCK_RUNNERS = ("--markdown-docs", "--codeblocks", "mktestdocs", "phmdoctest", "pytest_markdown_docs")


def _named_documents(text: str) -> list[str]:
    """The documentation files a Python file names by a string (``"README.md"``)."""
    try:
        tree = parsed_tree(text)
    except (SyntaxError, ValueError):
        return []
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and node.value.endswith(_TEXT_SUFFIXES)
        and "\n" not in node.value
    ]


_FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*(?:python3?|py)\s*$")


def _fenced_blocks(text: str) -> list[_Block]:
    """The fenced Python blocks of Markdown (```` ```python ````, ```` ```py ````, ``~~~``)."""
    lines = text.split("\n")
    out: list[_Block] = []
    index = 0
    while index < len(lines):
        fence = _FENCE.match(lines[index])
        index += 1
        if fence is None:
            continue
        mark = fence.group(2)
        start = index
        while index < len(lines) and not lines[index].strip().startswith(mark):
            index += 1
        body = [n for n in range(start, index) if lines[n].strip()]
        index += 1
        if body:
            out.append(_block(lines, body[0], body[-1]))
    return out


def _runner_strings(text: str) -> list[str]:
    """The string arguments of ``testfile(…)``/``DocFileSuite(…)`` calls in Python ``text``."""
    try:
        tree = parsed_tree(text)
    except (SyntaxError, ValueError):
        return []
    assigned: dict[str, list[ast.expr]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            assigned.setdefault(node.targets[0].id, []).append(node.value)
    out: list[str] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        callee = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
        if callee in _FILE_RUNNERS:
            out += [value for a in node.args if (value := _path_text(a, assigned, 0))]
    return out


_JOINS = frozenset({"join", "Path", "PurePath", "joinpath"})


def _path_text(node: ast.expr, assigned: dict[str, list[ast.expr]], depth: int) -> str | None:
    """The file a runner's argument names, as a path relative to the calling file's folder:
    a string, or the string parts a path is joined from after a folder it cannot read
    (``os.path.join(_HERE, "..", "README.md")`` with ``_HERE`` the test's folder: ``../README.md``),
    through a name assigned once."""
    if depth > 4:
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name) and len(assigned.get(node.id, ())) == 1:
        return _path_text(assigned[node.id][0], assigned, depth + 1)
    parts: list[ast.expr] = []
    if isinstance(node, ast.Call) and (
        (node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)) in _JOINS
    ):
        parts = [
            *(
                [node.func.value]
                if isinstance(node.func, ast.Attribute) and node.func.attr == "joinpath"
                else []
            ),
            *node.args,
        ]
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        parts = [node.left, node.right]
    texts = [_path_text(p, assigned, depth + 1) for p in parts]
    tail: list[str] = []
    for text in reversed(texts):
        if text is None:
            break  # (the folder it starts from: taken to be the calling file's)
        tail.insert(0, text)
    return "/".join(tail) if tail else None
