"""What a docstring's doctest examples read, from the file's text (``>>> code`` and its ``...`` lines).

doctest runs the examples of every docstring of a module (a class's and a method's too) in a
copy of the module's namespace, one after another. So a name an example reads that no example
binds is the module's global once the module has run; a name an example binds is the doctest's
own variable, except one bound by absolute imports of one thing alone (``from m import f``), which
is ``m``'s ``f``; ``C.m`` of such a global or imported ``C`` is its member; and ``v.m``, where
every binding of ``v`` is a ``v = C(…)`` of such a ``C``, reads ``m`` of what the last such
``C(…)`` of an earlier example gives. Positions are (line, column) of the file, 1-based, the
column counted in characters.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections import Counter
from dataclasses import dataclass, field

__all__ = [
    "PROMPT",
    "DoctestNames",
    "Position",
    "continues",
    "doctest_names",
    "import_binding",
    "run_strings",
]

# a doctest example's line: `>>> code` or its continuation `... code`
PROMPT = re.compile(r"\s*(?:>>>|\.\.\.)(?: |$)")

Position = tuple[int, int]
# an example: its lines as (file line, column where the code starts (0-based), code)
Example = list[tuple[int, int, str]]


@dataclass
class DoctestNames:
    globals_read: set[Position] = field(default_factory=set)  # names of the module's namespace
    bound: set[Position] = field(default_factory=set)  # names the doctest binds, where they stand
    # names the doctest binds before it could read them (`>>> first = spy(it)` before any `first`):
    # never the module's global there
    shadowed: set[Position] = field(default_factory=set)
    # `v.m` → what made v: the global C of `v = C(…)`, `C.parse` of `v = C.parse(…)`
    members: dict[Position, ast.expr] = field(default_factory=dict)
    comments: dict[int, int] = field(default_factory=dict)  # line → column its comment starts at
    binds: set[str] = field(default_factory=set)  # the names the doctest binds
    # `f(k=…)` of a global f, `C(…).m(k=…)` of a global C: → the callee (f, `C(…).m`)
    keywords: dict[Position, ast.expr] = field(default_factory=dict)
    # names the doctest binds by absolute imports of one thing alone → the chain they give them
    imports: dict[str, str] = field(default_factory=dict)
    # a read of such a name, or a name its `from m import …` imports → (chain, row kind)
    imported: dict[Position, tuple[str, str]] = field(default_factory=dict)
    # `C.m`, `mod.f`, `C.m.n`: a member of a global or of an imported name, read where the
    # doctest's names are bound (``Records.doctest``)
    attributes: dict[Position, ast.Attribute] = field(default_factory=dict)


def doctest_names(lines: list[str], first: int, last: int) -> DoctestNames:
    """The names of the doctest examples on file lines ``first..last``. Nothing at all when an
    example does not parse as written in the file (the closing quotes on its line) or one
    star-imports (any name may then be the import's)."""
    examples = _examples(lines, first, last)
    found = DoctestNames()
    trees: list[tuple[Example, ast.Module]] = []
    for example in examples:
        source = "\n".join(code for _, _, code in example)
        try:
            trees.append((example, ast.parse(source)))
            tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
        except (SyntaxError, ValueError, tokenize.TokenError):
            return DoctestNames()
        for tok in tokens:
            if tok.type == tokenize.COMMENT and 0 < tok.start[0] <= len(example):
                line, start, _ = example[tok.start[0] - 1]
                found.comments[line] = start + tok.start[1] + 1
    binds: Counter[str] = Counter()
    names: list[tuple[Example, ast.Name]] = []
    skipped: set[int] = set()  # nodes inside f-strings (positions there are not reliable)
    for example, tree in trees:
        skipped |= {id(n) for f in ast.walk(tree) if isinstance(f, ast.JoinedStr) for n in ast.walk(f)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Name):
                if not isinstance(node.ctx, ast.Load):
                    binds[node.id] += 1
                names.append((example, node))
            else:
                binds.update(_binds(node))
                if isinstance(node, ast.arg):  # a parameter: a name the doctest binds
                    param = ast.Name(
                        id=node.arg, ctx=ast.Store(), lineno=node.lineno, col_offset=node.col_offset
                    )
                    names.append((example, param))
                elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    defined = _def_name(example, node)  # `def last(xs):`: a name the doctest binds
                    if defined is not None:
                        names.append((example, defined))
    if "*" in binds:
        return DoctestNames()
    found.binds = set(binds)
    found.imports = _imports(trees, binds)
    for example, tree in trees:  # the names `from m import …` imports: the module's symbols
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and not node.level and node.module:
                for alias in node.names:
                    at = _position(example, alias.lineno, alias.col_offset, alias.name)
                    if at is not None:
                        found.imported[at] = (f"I:0:{node.module}:{alias.name}", "import")
    shadows = _bound_first([tree for _, tree in trees], set(binds) - set(found.imports))
    for example, name in names:
        at = _position(example, name.lineno, name.col_offset, name.id) if id(name) not in skipped else None
        if at is not None:
            load = isinstance(name.ctx, ast.Load)
            if load and name.id in found.imports:
                found.imported[at] = (found.imports[name.id], "read")
                continue
            if name.id in shadows:
                found.shadowed.add(at)
                continue
            local = name.id in binds or not load
            (found.bound if local else found.globals_read).add(at)
    # the module's or an imported name (not one the doctest binds otherwise)
    known = set(found.imports) | {name.id for _, name in names if name.id not in binds}
    # keywords given to a global function or class (`bucketize(xs, key=…)`), or to a member of one
    # (`Specifier(">=1").contains("1.3a1", prereleases=True)`)
    for example, tree in trees:
        for node in ast.walk(tree):
            root = _root(node.func) if isinstance(node, ast.Call) else None
            if isinstance(node, ast.Call) and isinstance(root, ast.Name) and root.id in known:
                for keyword in node.keywords:
                    if keyword.arg is not None and id(keyword) not in skipped:
                        at = _position(example, keyword.lineno, keyword.col_offset, keyword.arg)
                        if at is not None:
                            found.keywords[at] = node.func
    # `v = C(…)`, `v = C.parse(…)`: v → [(the example's index, the callee)]
    made: dict[str, list[tuple[int, ast.expr]]] = {}
    for index, (_, tree) in enumerate(trees):
        for stmt in tree.body:
            if (
                isinstance(stmt, ast.Assign)
                and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)
                and isinstance(stmt.value, ast.Call)
                and _dotted_root(stmt.value.func) in known
            ):
                made.setdefault(stmt.targets[0].id, []).append((index, stmt.value.func))
    for index, (example, tree) in enumerate(trees):
        for node in ast.walk(tree):
            if (
                not isinstance(node, ast.Attribute)
                or id(node) in skipped
                or node.end_lineno is None
                or node.end_col_offset is None
            ):
                continue
            end = _position(example, node.end_lineno, node.end_col_offset, "")
            if end is None:
                continue
            at = (end[0], end[1] - len(node.attr))
            root = _root(node.value)  # `C.m`, `C.m.n`, `C(…).m` (`Version("1.2").dev`), `f(…).m`
            if not isinstance(root, ast.Name):
                continue
            if root.id in known:
                found.attributes[at] = node
                continue
            if not isinstance(node.ctx, ast.Load) or root is not node.value:
                continue
            # every binding of v is such an assignment; the last one before this example (one in
            # this example: which comes first is not told) says what v is
            values = made.get(root.id, [])
            if not values or len(values) != binds[root.id] or any(i == index for i, _ in values):
                continue
            before = [maker for i, maker in values if i < index]
            if before:
                found.members[at] = before[-1]
    return found


def _dotted_root(node: ast.expr) -> str | None:
    """The name a dotted name starts from (``C`` of ``C.parse``), None for anything else."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _root(node: ast.expr) -> ast.expr:
    """The name an expression of members and calls starts from (``C`` of ``C(…).m(…).n``)."""
    while isinstance(node, ast.Attribute | ast.Call):
        node = node.value if isinstance(node, ast.Attribute) else node.func
    return node


def _def_name(
    example: Example, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
) -> ast.Name | None:
    """The name a ``def``/``class`` of an example binds, as a stored name where it stands."""
    if not 0 < node.lineno <= len(example):
        return None
    code = example[node.lineno - 1][2].encode("utf-8")
    head = re.compile(rb"(?:async\s+)?(?:def|class)\s+").match(code, node.col_offset)
    if head is None or not code.startswith(node.name.encode("utf-8"), head.end()):
        return None
    return ast.Name(id=node.name, ctx=ast.Store(), lineno=node.lineno, col_offset=head.end())


def _bound_first(trees: list[ast.Module], names: set[str]) -> set[str]:
    """Those of ``names`` an example's statement binds unconditionally (``first = …``,
    ``first, rest = …``, ``def first``) before any statement of the doctest reads them."""
    found: set[str] = set()
    left = set(names)
    for tree in trees:
        for stmt in tree.body:
            read = {n.id for n in ast.walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
            at_once = _binds_at_once(stmt)
            left -= read | (_binds_anywhere(stmt) - at_once)  # may read the global, or bind it or not
            found |= at_once & left
            left -= at_once
    return found


def _binds_at_once(stmt: ast.stmt) -> set[str]:
    """The names a statement binds whenever it runs to its end: assignment targets (unpacked too),
    a ``def`` or ``class``."""
    if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return {stmt.name}
    targets: list[ast.expr] = []
    if isinstance(stmt, ast.Assign):
        targets = list(stmt.targets)
    elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
        targets = [stmt.target]
    out: set[str] = set()
    while targets:
        target = targets.pop()
        if isinstance(target, ast.Name):
            out.add(target.id)
        elif isinstance(target, ast.Tuple | ast.List):
            targets.extend(target.elts)
        elif isinstance(target, ast.Starred):
            targets.append(target.value)
    return out


def _binds_anywhere(stmt: ast.stmt) -> set[str]:
    """Every name a statement may bind, however nested (a loop's target, a walrus, an import)."""
    out: set[str] = set()
    for node in ast.walk(stmt):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            out.add(node.id)
        else:
            out.update(_binds(node))
    return out


def _imports(trees: list[tuple[Example, ast.Module]], binds: Counter[str]) -> dict[str, str]:
    """The names the doctest binds by absolute imports of one thing and nothing else → the chain
    they give them (``from m import f`` → ``m``'s ``f``; ``import a.b`` → the module ``a``)."""
    chains: dict[str, set[str]] = {}
    counts: Counter[str] = Counter()
    for _, tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                for alias in node.names:
                    name, chain = import_binding(node, alias)
                    if chain is not None:
                        chains.setdefault(name, set()).add(chain)
                        counts[name] += 1
    # bound by imports alone, each of the same thing (a file's examples repeat `from m import C`)
    return {
        name: next(iter(found))
        for name, found in chains.items()
        if len(found) == 1 and counts[name] == binds[name]
    }


def import_binding(node: ast.Import | ast.ImportFrom, alias: ast.alias) -> tuple[str, str | None]:
    """The name one alias of an import binds, and the chain it gives it: ``import a.b`` → ``a``,
    the module a; ``import a.b as c`` → ``c``, the module a.b; ``from m import f as g`` → ``g``, m's
    f. No chain for a relative or star import."""
    if isinstance(node, ast.Import):
        name = alias.asname or alias.name.split(".", 1)[0]
        return name, f"I:0:{alias.name if alias.asname else name}:"
    name = alias.asname or alias.name
    if node.level or not node.module or alias.name == "*":
        return name, None
    return name, f"I:0:{node.module}:{alias.name}"


def _examples(lines: list[str], first: int, last: int) -> list[Example]:
    """A ``>>>`` line and the ``...`` lines right after it make one example (a ``...`` line
    after output is the expected output's ellipsis)."""
    examples: list[Example] = []
    for line in range(first, last + 1):
        text = lines[line - 1] if 0 < line <= len(lines) else ""
        if examples and examples[-1][-1][0] == line - 1 and continues(examples[-1][-1][2]):
            # `>>> f(x) == \` then `    y`: the docstring's value joins the lines, and so does
            # Python's own backslash continuation of the code as written
            examples[-1].append((line, 0, text))
            continue
        prompt = PROMPT.match(text)
        if prompt is None:
            continue
        if text.lstrip().startswith(">>>"):
            examples.append([])
        elif not examples or examples[-1][-1][0] != line - 1:
            continue
        examples[-1].append((line, prompt.end(), text[prompt.end() :]))
    return examples


def continues(code: str) -> bool:
    """Whether a line of a (non-raw) docstring ends in a backslash escaping its newline."""
    return (len(code) - len(code.rstrip("\\"))) % 2 == 1


def _position(example: Example, lineno: int, byte_col: int, word: str) -> Position | None:
    """The file position of an example's (line, UTF-8 byte column), when ``word`` stands there."""
    if not 0 < lineno <= len(example):
        return None
    line, start, code = example[lineno - 1]
    col = len(code.encode("utf-8")[:byte_col].decode("utf-8", errors="replace"))
    return (line, start + col + 1) if code[col : col + len(word)] == word else None


def _binds(node: ast.AST) -> list[str]:
    """The names ``node`` binds other than by a stored :class:`ast.Name`."""
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return [node.name]
    if isinstance(node, ast.Import | ast.ImportFrom):
        return [a.asname or a.name.split(".", 1)[0] for a in node.names]
    if isinstance(node, ast.arg):
        return [node.arg]
    if isinstance(node, ast.Global | ast.Nonlocal):
        return list(node.names)
    if isinstance(node, ast.ExceptHandler | ast.MatchAs | ast.MatchStar):
        return [node.name] if node.name else []
    if isinstance(node, ast.MatchMapping):
        return [node.rest] if node.rest else []
    return []


def run_strings(tree: ast.Module) -> set[int]:
    """The ids of the string literals doctest runs as a module's docstrings though written
    elsewhere: the value given to the module's ``__doc__`` (``__doc__ = doc.replace("$V", v)``
    after ``doc = \"\"\"…\"\"\"``: the string the expression starts from, through method calls,
    ``%``/``+`` and a module-level name assigned one string) and the values of its ``__test__``
    dict (``__test__ = {"usage": USAGE}``), whose examples doctest runs in the module's namespace;
    likewise a value ``+=`` adds to ``__doc__`` and one a module-level statement gives a function's or
    class's ``__doc__`` (``parse.__doc__ = TEMPLATE % …``)."""
    assigned: dict[str, list[ast.expr]] = {}
    docs: list[ast.expr] = []  # values given to `__doc__`: the module's (`+=` too), a function's or class's
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign):
            for target in stmt.targets:
                if isinstance(target, ast.Name):
                    assigned.setdefault(target.id, []).append(stmt.value)
                if isinstance(target, ast.Name | ast.Attribute) and _doc_target(target):
                    docs.append(stmt.value)
        elif isinstance(stmt, ast.AugAssign) and _doc_target(stmt.target):
            docs.append(stmt.value)
    found: set[int] = set()

    def source(node: ast.expr, depth: int) -> None:
        while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            node = node.func.value  # `doc.replace(…).format(…)`
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod | ast.Add):
            source(node.left, depth)
            if isinstance(node.op, ast.Add):
                source(node.right, depth)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            found.add(id(node))
        elif isinstance(node, ast.Name) and len(assigned.get(node.id, ())) == 1 and depth < 4:
            source(assigned[node.id][0], depth + 1)

    for value in docs:
        source(value, 0)
    for value in assigned.get("__test__", ()):
        if isinstance(value, ast.Dict):
            for item in value.values:
                source(item, 0)
    return found


def _doc_target(target: ast.expr) -> bool:
    """``__doc__`` or ``f.__doc__`` (a name's)."""
    if isinstance(target, ast.Name):
        return target.id == "__doc__"
    return (
        isinstance(target, ast.Attribute) and target.attr == "__doc__" and isinstance(target.value, ast.Name)
    )
