"""Python facts from the stdlib ``ast`` (fast enough for large repos; libcst is for edits).

Facts only: symbols with SPEC paths, imports, syntax diagnostics, outline header.
"""

from __future__ import annotations

import ast
import re
from collections import deque
from collections.abc import Iterable, Iterator

from astmcp.model import PYTHON, DiagnosticFact, FileFacts, ImportFact, Span, SymbolFact

_PROPERTY_DECORATORS = {"property", "cached_property", "functools.cached_property", "abc.abstractproperty"}
_DEF_NAME = re.compile(r"(?:async\s+)?(?:def|class)\s+([^\W\d]\w*)")
_MAX_VALUE_CHARS = 80


class _Text:
    """Source lines with code-point column conversion from ast's UTF-8 offsets."""

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self._encoded: dict[int, bytes] = {}

    def line(self, lineno: int) -> str:
        return self.lines[lineno - 1] if 0 < lineno <= len(self.lines) else ""

    def column(self, lineno: int, byte_col: int) -> int:
        """1-based code-point column of a UTF-8 byte offset."""
        line = self.line(lineno)
        if line.isascii():
            return byte_col + 1
        raw = self._encoded.get(lineno)
        if raw is None:
            raw = self._encoded[lineno] = line.encode("utf-8")
        return len(raw[:byte_col].decode("utf-8", errors="replace")) + 1

    def span(self, node: ast.AST, start: ast.AST | None = None) -> Span:
        first = start or node
        line = first.lineno  # type: ignore[attr-defined]
        end_line = node.end_lineno or line  # type: ignore[attr-defined]
        return Span(
            line,
            self.column(line, first.col_offset),  # type: ignore[attr-defined]
            end_line,
            self.column(end_line, node.end_col_offset or 0),  # type: ignore[attr-defined]
        )

    def slice(self, start_line: int, start_col: int, end_line: int, end_col: int) -> str:
        """Text between two (1-based line, 0-based code-point column) positions."""
        if start_line == end_line:
            return self.line(start_line)[start_col:end_col]
        parts = [self.line(start_line)[start_col:]]
        parts.extend(self.line(n) for n in range(start_line + 1, end_line))
        parts.append(self.line(end_line)[:end_col])
        return "\n".join(parts)


def _header(text: _Text, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> str:
    """The declaration header as written (``def f(a: int = 1) -> str``), one line."""
    line = node.lineno
    col = text.column(line, node.col_offset) - 1
    if node.body:
        first = node.body[0]
        stop_line = first.lineno
        stop_col = text.column(stop_line, first.col_offset) - 1
        # A decorator-less docstring or statement can start on the header line.
        raw = text.slice(line, col, stop_line, stop_col)
    else:
        raw = text.line(line)[col:]
    return _cut_at_colon(raw)


_HEADER_SPECIAL = re.compile(r"""["'#()\[\]{}:]""")
_STRING_END = {q: re.compile(r"\\.|" + re.escape(q), re.S) for q in ('"""', "'''", '"', "'")}


def _cut_at_colon(raw: str) -> str:
    """The header up to its top-level colon, comments dropped, strings kept."""
    out: list[str] = []
    depth = 0
    copied = 0  # raw[copied:i] is still to be copied
    i = 0
    while (special := _HEADER_SPECIAL.search(raw, i)) is not None:
        i = special.start()
        ch = raw[i]
        if ch in "\"'":
            quote = raw[i : i + 3] if raw[i : i + 3] in ('"""', "'''") else ch
            for end in _STRING_END[quote].finditer(raw, i + len(quote)):
                if end.group() == quote:
                    i = end.end()
                    break
            else:  # unterminated: the rest is string
                i = len(raw)
            continue
        if ch == "#":
            newline = raw.find("\n", i)
            out.append(raw[copied:i])
            if newline < 0:
                copied = i = len(raw)
                break
            copied = i = newline
            continue
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif depth <= 0:  # the colon that ends the header
            out.append(raw[copied:i])
            copied = i = len(raw)
            break
        i += 1
    out.append(raw[copied:])
    sig = "".join(out)
    sig = re.sub(r"\s*\n\s*", " ", sig).strip()
    sig = sig.replace("( ", "(").replace(", )", ")").replace(" )", ")").replace(",)", ")")
    return sig


def _decorator_names(text: _Text, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> list[str]:
    names = []
    for dec in node.decorator_list:
        seg = text.slice(
            dec.lineno,
            text.column(dec.lineno, dec.col_offset) - 1,
            dec.end_lineno or dec.lineno,
            text.column(dec.end_lineno or dec.lineno, dec.end_col_offset or 0) - 1,
        )
        names.append("@" + re.sub(r"\s*\n\s*", " ", seg))
    return names


def _first_doc_line(node: ast.AST) -> str | None:
    try:
        doc = ast.get_docstring(node, clean=True)  # type: ignore[arg-type]
    except TypeError:
        return None
    lines = (doc or "").strip().splitlines()  # (a docstring of blank lines has none)
    return lines[0].strip()[:200] or None if lines else None


def _target_names(target: ast.expr) -> Iterator[ast.Name]:
    if isinstance(target, ast.Name):
        yield target
    elif isinstance(target, ast.Tuple | ast.List):
        for elt in target.elts:
            yield from _target_names(elt)
    elif isinstance(target, ast.Starred):
        yield from _target_names(target.value)


class _Extractor:
    def __init__(self, text: _Text) -> None:
        self.text = text
        self.symbols: list[SymbolFact] = []
        self.imports: list[ImportFact] = []
        self.module_imports: list[ImportFact] = []
        self._variables_seen: set[str] = set()
        self.all_names: set[str] | None = None

    # -- symbols ---------------------------------------------------------------
    def block(self, body: Iterable[ast.stmt], container: str, container_kind: str) -> None:
        for stmt in body:
            self.statement(stmt, container, container_kind)

    def statement(self, stmt: ast.stmt, container: str, container_kind: str) -> None:
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            self.function(stmt, container, container_kind)
        elif isinstance(stmt, ast.ClassDef):
            self.klass(stmt, container)
        elif isinstance(stmt, ast.Assign | ast.AnnAssign | ast.AugAssign):
            if container_kind in ("module", "class"):
                self.assignment(stmt, container, container_kind)
        elif isinstance(stmt, ast.Import | ast.ImportFrom):
            start = len(self.imports)
            self.import_(stmt)
            if container_kind == "module":  # the outline summarises module-level imports only
                self.module_imports.extend(self.imports[start:])
        elif isinstance(stmt, ast.If | ast.For | ast.AsyncFor | ast.While | ast.With | ast.AsyncWith):
            self.block(stmt.body, container, container_kind)
            self.block(getattr(stmt, "orelse", ()), container, container_kind)
        elif isinstance(stmt, ast.Try | ast.TryStar):
            self.block(stmt.body, container, container_kind)
            for handler in stmt.handlers:
                self.block(handler.body, container, container_kind)
            self.block(stmt.orelse, container, container_kind)
            self.block(stmt.finalbody, container, container_kind)
        elif isinstance(stmt, ast.Match):
            for case in stmt.cases:
                self.block(case.body, container, container_kind)

    def _name_span(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> Span:
        line = node.lineno
        text = self.text.line(line)
        start = self.text.column(line, node.col_offset) - 1
        match = _DEF_NAME.match(text, start)
        col = match.start(1) if match else start
        return Span(line, col + 1, line, col + 1 + len(node.name))

    def function(
        self, node: ast.FunctionDef | ast.AsyncFunctionDef, container: str, container_kind: str
    ) -> None:
        path = f"{container}.{node.name}" if container else node.name
        decorators = _decorator_names(self.text, node)
        dec_plain = {d[1:].split("(")[0] for d in decorators}
        if container_kind == "class":
            is_property = bool(dec_plain & _PROPERTY_DECORATORS) or any(
                d.endswith((".setter", ".getter", ".deleter")) for d in dec_plain
            )
            kind = "property" if is_property else "method"
        else:
            kind = "function"
        signature = "\n".join([*decorators, _header(self.text, node)])
        start = node.decorator_list[0] if node.decorator_list else None
        self.symbols.append(
            SymbolFact(
                symbol_path=path,
                name=node.name,
                kind=kind,
                signature=signature,
                line=node.lineno,
                span=self.text.span(node, start),
                name_span=self._name_span(node),
                doc=_first_doc_line(node),
                parent_path=container or None,
                exported=not node.name.startswith("_") or node.name.startswith("__"),
            )
        )
        self.block(node.body, path, "function")
        if kind == "method":
            self.instance_attributes(node, container)

    def klass(self, node: ast.ClassDef, container: str) -> None:
        path = f"{container}.{node.name}" if container else node.name
        decorators = _decorator_names(self.text, node)
        start = node.decorator_list[0] if node.decorator_list else None
        self.symbols.append(
            SymbolFact(
                symbol_path=path,
                name=node.name,
                kind="class",
                signature="\n".join([*decorators, _header(self.text, node)]),
                line=node.lineno,
                span=self.text.span(node, start),
                name_span=self._name_span(node),
                doc=_first_doc_line(node),
                parent_path=container or None,
                exported=not node.name.startswith("_"),
            )
        )
        self.block(node.body, path, "class")

    def assignment(self, stmt: ast.Assign | ast.AnnAssign | ast.AugAssign, container: str, kind: str) -> None:
        targets: list[ast.expr] = list(stmt.targets) if isinstance(stmt, ast.Assign) else [stmt.target]
        if isinstance(stmt, ast.AugAssign):
            return
        for target in targets:
            for name in _target_names(target):
                self.variable(name, stmt, container, "attribute" if kind == "class" else "variable")
        if not container and isinstance(stmt, ast.Assign | ast.AnnAssign):
            for target in targets:
                if isinstance(target, ast.Name) and target.id == "__all__":
                    self.all_names = _string_items(stmt.value)

    def variable(self, name: ast.Name, stmt: ast.stmt, container: str, kind: str) -> None:
        path = f"{container}.{name.id}" if container else name.id
        if path in self._variables_seen:
            return
        self._variables_seen.add(path)
        line = stmt.lineno
        first = self.text.line(line)[self.text.column(line, stmt.col_offset) - 1 :].strip()
        signature = first if len(first) <= _MAX_VALUE_CHARS else first[: _MAX_VALUE_CHARS - 1] + "…"
        self.symbols.append(
            SymbolFact(
                symbol_path=path,
                name=name.id,
                kind=kind,
                signature=signature,
                line=line,
                span=self.text.span(stmt),
                name_span=self.text.span(name),
                parent_path=container or None,
                exported=not name.id.startswith("_"),
            )
        )

    def instance_attributes(self, method: ast.FunctionDef | ast.AsyncFunctionDef, cls: str) -> None:
        if not method.args.args:
            return
        self_name = method.args.args[0].arg
        for node in _statements_breadth_first(method):
            targets: list[ast.expr] = []
            if isinstance(node, ast.Assign):
                targets = list(node.targets)
            elif isinstance(node, ast.AnnAssign):
                targets = [node.target]
            for target in _flat_targets(targets):
                if (
                    isinstance(target, ast.Attribute)
                    and isinstance(target.value, ast.Name)
                    and target.value.id == self_name
                ):
                    path = f"{cls}.{target.attr}"
                    if path in self._variables_seen:
                        continue
                    self._variables_seen.add(path)
                    span = self.text.span(target)
                    end = span.end_column
                    self.symbols.append(
                        SymbolFact(
                            symbol_path=path,
                            name=target.attr,
                            kind="attribute",
                            signature=_clip(self.text.line(node.lineno).strip()),
                            line=node.lineno,
                            span=self.text.span(node),
                            name_span=Span(span.end_line, end - len(target.attr), span.end_line, end),
                            parent_path=cls,
                            exported=not target.attr.startswith("_"),
                        )
                    )

    # -- imports ---------------------------------------------------------------
    def import_(self, stmt: ast.Import | ast.ImportFrom) -> None:
        if isinstance(stmt, ast.Import):
            for alias in stmt.names:
                self.imports.append(ImportFact(alias.name, None, alias.asname, stmt.lineno))
            return
        module = stmt.module or ""
        for alias in stmt.names:
            kind = "star" if alias.name == "*" else "import"
            self.imports.append(ImportFact(module, alias.name, alias.asname, stmt.lineno, stmt.level, kind))


_STATEMENT_FIELDS = ("body", "handlers", "orelse", "finalbody", "cases")


def _statements_breadth_first(root: ast.stmt) -> Iterator[ast.stmt]:
    """The statements under ``root`` in ``ast.walk`` order, without visiting expressions.

    Expressions never contain statements, so skipping them keeps the breadth-first
    order of the statements (which decides the first binding of an attribute) and
    saves most of the walk. The fields are listed in ``_fields`` order.
    """
    queue: deque[ast.AST] = deque((root,))
    while queue:
        node = queue.popleft()
        if isinstance(node, ast.stmt):
            yield node
        for name in _STATEMENT_FIELDS:
            children = getattr(node, name, None)
            if children:
                queue.extend(children)


def _flat_targets(targets: list[ast.expr]) -> Iterator[ast.expr]:
    """Assignment targets with tuple/list unpacking (``a, (b, *c) = ...``) taken apart."""
    for target in targets:
        if isinstance(target, ast.Tuple | ast.List):
            yield from _flat_targets(target.elts)
        elif isinstance(target, ast.Starred):
            yield from _flat_targets([target.value])
        else:
            yield target


def _clip(text: str) -> str:
    return text if len(text) <= _MAX_VALUE_CHARS else text[: _MAX_VALUE_CHARS - 1] + "…"


def dunder_all_strings(value: ast.expr | None) -> list[ast.Constant] | None:
    """The string entries of an ``__all__`` value: a list, tuple or set literal, their sum
    (``["a"] + ["b"]``, ``__all__ + ["c"]``: the names of ``__all__`` itself are already counted),
    or one passed to ``sorted``/``list``/``tuple``/``set``; None for any other form (its names are
    unknown: a string naming the renamed symbol there blocks)."""
    if isinstance(value, ast.List | ast.Tuple | ast.Set):
        return [e for e in value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    if isinstance(value, ast.Name) and value.id == "__all__":
        return []
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add):
        left, right = dunder_all_strings(value.left), dunder_all_strings(value.right)
        return None if left is None or right is None else left + right
    if (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id in ("sorted", "list", "tuple", "set")
        and len(value.args) == 1
        and not value.keywords
    ):
        return dunder_all_strings(value.args[0])
    return None


def _string_items(value: ast.expr | None) -> set[str] | None:
    found = dunder_all_strings(value)
    return None if found is None else {str(e.value) for e in found}


def _imports_summary(imports: list[ImportFact]) -> str | None:
    parts: dict[str, list[str]] = {}
    for imp in imports:
        module = "." * imp.level + imp.module
        names = parts.setdefault(module, [])
        if imp.name is not None:
            names.append(imp.name if not imp.alias else f"{imp.name} as {imp.alias}")
    if not parts:
        return None
    rendered = [f"{m}({_few(n)})" if n else m for m, n in parts.items()]
    return "imports: " + ", ".join(rendered)


def _few(names: list[str], keep: int = 4) -> str:
    """A summary, not a listing: long name lists are cut (the source has them all)."""
    if len(names) <= keep:
        return ", ".join(names)
    return ", ".join(names[: keep - 1]) + f", +{len(names) - keep + 1} more"


def extract(source: str) -> FileFacts:
    """Parse Python source text into facts. A syntax error yields no symbols."""
    return parse(source)[1]


def parse(source: str) -> tuple[ast.Module | None, FileFacts]:
    """The syntax tree (None when it does not parse) and the file's facts."""
    line_count = source.count("\n") + (0 if source.endswith("\n") or not source else 1)
    try:
        tree = ast.parse(source, type_comments=False)
    except SyntaxError as exc:
        line = exc.lineno or 1
        column = exc.offset or 1
        message = f"{exc.msg}"
        diag = DiagnosticFact("PY-SYNTAX", "error", line, column, message)
        return None, FileFacts(
            PYTHON, line_count, diagnostics=(diag,), parse_error=f"{line}:{column}: {message}"
        )
    except (RecursionError, MemoryError, ValueError) as exc:
        message = "file too deeply nested to parse" if isinstance(exc, RecursionError) else str(exc)
        diag = DiagnosticFact("PY-PARSE-LIMIT", "error", 1, 1, message)
        return None, FileFacts(PYTHON, line_count, diagnostics=(diag,), parse_error=message)
    text = _Text(source)
    extractor = _Extractor(text)
    try:
        extractor.block(tree.body, "", "module")
    except RecursionError:
        diag = DiagnosticFact("PY-PARSE-LIMIT", "error", 1, 1, "file too deeply nested to index")
        return None, FileFacts(PYTHON, line_count, diagnostics=(diag,), parse_error="too deeply nested")
    header: list[str] = []
    module_doc = _first_doc_line(tree)
    if module_doc:
        header.append(f'"""{module_doc}"""')
    summary = _imports_summary(extractor.module_imports)
    if summary:
        header.append(summary)
    if extractor.all_names is not None:
        header.append("__all__: " + ", ".join(sorted(extractor.all_names)))
    symbols = extractor.symbols
    if extractor.all_names is not None:
        exported = extractor.all_names
        symbols = [s if s.parent_path else _with_exported(s, s.name in exported) for s in symbols]
    symbols.sort(key=lambda s: (s.span.line, s.span.column))
    return tree, FileFacts(
        PYTHON,
        line_count,
        symbols=tuple(symbols),
        imports=tuple(extractor.imports),
        outline_header=tuple(header),
    )


def _with_exported(symbol: SymbolFact, exported: bool) -> SymbolFact:
    if symbol.exported == exported:
        return symbol
    from dataclasses import replace

    return replace(symbol, exported=exported)
