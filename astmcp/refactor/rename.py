"""``ast_rename_symbol``: references (whole override family) → collision checks → edits → plan.

References come from :mod:`astmcp.query.references` (project-wide, with
confidences). Until that engine is present, a Python symbol's same-file
references are found through :mod:`astmcp.refactor.pyscopes`.
"""

from __future__ import annotations

import ast
import io
import re
import sqlite3
import tokenize
from dataclasses import dataclass
from typing import Any

from astmcp.errors import AstmcpError, InternalError, InvalidInput, MutationBlocked
from astmcp.lang import optional_module
from astmcp.model import PYTHON
from astmcp.query.common import SymbolRow, query_symbols
from astmcp.refactor import collisions
from astmcp.refactor.family_guard import check_family
from astmcp.refactor.identifiers import check_new_name, language_of
from astmcp.refactor.plan import Plan
from astmcp.refactor.prepare import LoadedFile, build_plan, load_file
from astmcp.refactor.pyscopes import FileScopes, resolve
from astmcp.refactor.textio import TextEdit, apply_edits, offset_of
from astmcp.workspace import Workspace

_RANK = {"certain": 0, "likely": 1, "name": 2}
_FUNCTION_KINDS = {"function", "method", "property", "constructor", "getter", "setter"}
_MEMBER_KINDS = {"method", "property", "attribute", "getter", "setter", "enum_member"}


@dataclass(frozen=True, slots=True)
class Hit:
    """One reference: 1-based line, 1-based code-point columns, end exclusive."""

    file: str
    line: int
    column: int
    end_column: int
    kind: str
    confidence: str  # certain | likely | name
    is_declaration: bool = False

    @classmethod
    def of(cls, ref: Any) -> Hit:
        return cls(
            ref.file, ref.line, ref.column, ref.end_column, ref.kind, ref.confidence, bool(ref.is_declaration)
        )

    def wire(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "end_column": self.end_column,
            "kind": self.kind,
            "confidence": self.confidence,
        }


def family_and_references(
    ws: Workspace, conn: sqlite3.Connection, row: SymbolRow
) -> tuple[list[SymbolRow], list[Hit]]:
    engine = optional_module("astmcp.query.references")
    if engine is None:
        if language_of(row.file) != PYTHON:
            raise InternalError("TypeScript/JavaScript references are not available in this build")
        return [row, *_same_path(conn, [row])], local_references(ws, row)
    members, external = engine.override_family(conn, row)
    if external:
        names = sorted(str(n) for n in external)
        raise MutationBlocked(
            f"{row.name!r} belongs to an override family with members outside the project ({', '.join(names)});"
            " renaming it would break the override",
            {"external_members": names},
        )
    family: list[SymbolRow] = [row, *(m for m in members if m.id != row.id)]
    family += _same_path(conn, family)
    check_family(conn, row, family)
    best: dict[tuple[str, int, int], Hit] = {}
    for member in family:
        for ref in engine.collect_references(ws, conn, member, include_name_hits=True):
            hit = Hit.of(ref)
            key = (hit.file, hit.line, hit.column)
            if key not in best or _RANK[hit.confidence] < _RANK[best[key].confidence]:
                best[key] = hit
    if language_of(row.file) != PYTHON and not _is_local(conn, row):
        for hit in destructuring_hits(conn, ws, row, set(best)):
            best[(hit.file, hit.line, hit.column)] = hit
    if _is_local(conn, row):  # a local binding: its own file's scopes see every use
        for hit in lexical_references(ws, row):
            key = (hit.file, hit.line, hit.column)
            if key not in best or _RANK[hit.confidence] < _RANK[best[key].confidence]:
                best[key] = hit
    return family, sorted(best.values(), key=lambda h: (_RANK[h.confidence], h.file, h.line, h.column))


def destructuring_hits(
    conn: sqlite3.Connection, ws: Workspace, row: SymbolRow, known: set[tuple[str, int, int]]
) -> list[Hit]:
    """Name hits the index may lack: TS/JS destructuring that reads a property of the same name
    (``const { old } = await import("./m")``) in files that mention the name."""
    from astmcp.refactor.tsscopes import TsFile

    word = re.compile(rf"(?<![\w$]){re.escape(row.name)}(?![\w$])")
    hits: list[Hit] = []
    for (path,) in conn.execute("SELECT path FROM files WHERE language IN ('typescript', 'javascript')"):
        try:
            text = load_file(ws, path).source.text
        except (OSError, AstmcpError):
            continue
        if not word.search(text):
            continue
        for line, column, end in TsFile(path, text).destructured(row.name):
            if (path, line, column) not in known:
                hits.append(Hit(path, line, column, end, "attribute", "name"))
    return hits


def lexical_references(ws: Workspace, row: SymbolRow) -> list[Hit]:
    """Same-file uses that lexically mean ``row`` (certain), from this module's own scope models."""
    if language_of(row.file) == PYTHON:
        return [h for h in local_references(ws, row) if h.confidence == "certain"]
    from astmcp.refactor.tsscopes import TsFile

    ts = TsFile(row.file, load_file(ws, row.file).source.text)
    return [
        Hit(row.file, line, column, end, "read", "certain", (line, column) == (row.name_line, row.name_col))
        for line, column, end in ts.lexical_references(row.name_line, row.name_col, row.name)
    ]


def _same_path(conn: sqlite3.Connection, family: list[SymbolRow]) -> list[SymbolRow]:
    """Other declarations of the same path in the same file (overloads, property setters,
    get/set accessors, redefinitions): one name, renamed together."""
    seen = {m.id for m in family}
    extra: list[SymbolRow] = []
    for member in list(family):
        for other in query_symbols(
            conn, "f.path = ? AND s.symbol_path = ?", (member.file, member.symbol_path)
        ):
            if other.id not in seen:
                seen.add(other.id)
                extra.append(other)
    return extra


def local_references(ws: Workspace, row: SymbolRow) -> list[Hit]:
    """Same-file references of a Python symbol by scope (fallback without the reference engine)."""
    scopes = FileScopes(load_file(ws, row.file).source.text)
    declared = scopes.occurrences.get((row.name_line, row.name_col))
    if declared is None:
        raise InternalError(f"cannot find the declaration of {row.name!r} in {row.file}")
    binding = resolve(declared.scope, row.name) or declared.scope
    hits: list[Hit] = []
    for occ in scopes.occurrences.values():
        if occ.name != row.name:
            continue
        end = occ.column + len(occ.name)
        if occ.role in ("bind", "use") and resolve(occ.scope, occ.name) is binding:
            is_decl = (occ.line, occ.column) == (row.name_line, row.name_col)
            kind = "definition" if is_decl else ("write" if occ.role == "bind" else "read")
            hits.append(Hit(row.file, occ.line, occ.column, end, kind, "certain", is_decl))
        elif occ.role in ("attr", "kwarg"):
            hits.append(Hit(row.file, occ.line, occ.column, end, "attribute", "name"))
    hits += _string_hits(row.file, scopes, row.name)
    return sorted(hits, key=lambda h: (_RANK[h.confidence], h.line, h.column))


def _string_hits(path: str, scopes: FileScopes, name: str) -> list[Hit]:
    """``__all__`` entries (certain) and other exact string occurrences (name hits of kind string)."""
    in_all: set[int] = set()
    tree = scopes.tree
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign | ast.AugAssign | ast.AnnAssign):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
                in_all.update(id(n) for n in ast.walk(stmt))
    hits: list[Hit] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and node.value == name and node.end_col_offset is not None:
            confidence = "certain" if id(node) in in_all else "name"
            start = scopes.column_of(node.lineno, node.col_offset)  # the opening quote
            end = scopes.column_of(node.end_lineno or node.lineno, node.end_col_offset)
            hits.append(Hit(path, node.lineno, start, end, "string", confidence))
    return hits


def _replacement(
    text: str, old: str, new: str, span: str, hit: Hit, member: bool, ts: Any
) -> tuple[int, int, str]:
    """Where inside ``span`` the name sits and what replaces it.

    TS shorthand names a property and a variable at once; only the renamed side changes:
    ``{ old }`` in an object literal becomes ``{ old: new }`` when the variable is renamed and
    ``{ new: old }`` when the property is; a destructuring ``{ old }`` declares a variable
    (``{ old: new }`` when that variable is renamed) and reads a property (``{ new: old }``)."""
    if span == old:
        shorthand = ts.shorthand(hit) if ts is not None else None
        if shorthand == "object":
            return 0, len(span), f"{new}: {old}" if member else f"{old}: {new}"
        if shorthand == "pattern":
            renames_variable = hit.is_declaration and not member
            return 0, len(span), f"{old}: {new}" if renames_variable else f"{new}: {old}"
        return 0, len(span), new
    match = re.search(rf"(?<![\w$]){re.escape(old)}(?![\w$])", span)
    if match is None:
        raise MutationBlocked(
            f"the reference at {hit.file}:{hit.line}:{hit.column} does not hold {old!r}; the index is behind",
            {"file": hit.file, "line": hit.line},
        )
    return match.start(), match.end(), new


def file_edits(loaded: LoadedFile, hits: list[Hit], old: str, new: str, member: bool, ts: Any = None) -> str:
    text = loaded.source.text
    starts = loaded.source.line_starts()
    edits: list[TextEdit] = []
    for hit in hits:
        start = offset_of(starts, hit.line, hit.column)
        end = offset_of(starts, hit.line, hit.end_column) if hit.end_column > hit.column else start + len(old)
        lo, hi, replacement = _replacement(text, old, new, text[start:end], hit, member, ts)
        edits.append(TextEdit(start + lo, start + hi, replacement))
    return apply_edits(text, edits)


def _is_local(conn: sqlite3.Connection, row: SymbolRow) -> bool:
    """A def/class nested in a function is a local binding: no attribute or string names it."""
    if not row.parent_path:
        return False
    parents = query_symbols(conn, "f.path = ? AND s.symbol_path = ?", (row.file, row.parent_path))
    return bool(parents) and all(p.kind in _FUNCTION_KINDS for p in parents)


def _with_context(ws: Workspace, hits: list[Hit], loaded: dict[str, LoadedFile]) -> list[dict[str, Any]]:
    """Uncertain hits on the wire, each with its source line (trimmed) so it can be reviewed."""
    lines: dict[str, list[str]] = {}
    out = []
    for hit in hits:
        if hit.file not in lines:
            try:
                source = loaded[hit.file] if hit.file in loaded else load_file(ws, hit.file)
                lines[hit.file] = source.source.text.splitlines()
            except (OSError, AstmcpError):
                lines[hit.file] = []
        text = lines[hit.file][hit.line - 1].strip() if 0 < hit.line <= len(lines[hit.file]) else ""
        out.append({**hit.wire(), "context": text[:160]})
    return out


def prepare_rename(
    ws: Workspace,
    conn: sqlite3.Connection,
    row: SymbolRow,
    new_name: str,
    uncertain: str,
    allow_new_errors: bool,
) -> Plan:
    check_new_name(new_name, row.file)
    if row.name == "default" and language_of(row.file) != PYTHON:
        raise InvalidInput("an anonymous default export has no name to rename; importers choose their own")
    if new_name == row.name:
        raise InvalidInput(f"{row.name!r} already has that name")
    family, hits = family_and_references(ws, conn, row)
    sure = [h for h in hits if h.confidence in ("certain", "likely")]
    unsure = [h for h in hits if h.confidence == "name"] if not _is_local(conn, row) else []
    chosen = sure + (unsure if uncertain == "include" else [])
    by_file: dict[str, list[Hit]] = {}
    for hit in chosen:
        by_file.setdefault(hit.file, []).append(hit)
    loaded = {path: load_file(ws, path) for path in by_file}
    collisions.check(
        conn, family, {p: (loaded[p].source.text, by_file[p]) for p in by_file}, row.name, new_name
    )
    member = row.kind in _MEMBER_KINDS
    edits: dict[str, tuple[LoadedFile, str]] = {}
    for path, file_hits in by_file.items():
        ts = collisions.ts_file(path, loaded[path].source.text)
        edits[path] = (loaded[path], file_edits(loaded[path], file_hits, row.name, new_name, member, ts))
    reason = None
    if unsure and uncertain == "block":
        reason = (
            f"{len(unsure)} uncertain reference(s) (same name, receiver unknown); review uncertain_references,"
            " then prepare again with uncertain: include or skip"
        )
    notes = {path: comment_note(path, loaded[path].source.text, row.name) for path in loaded}
    return build_plan(
        ws,
        conn,
        "rename",
        edits,
        allow_new_errors=allow_new_errors,
        reference_count=len(sure),
        uncertain=_with_context(ws, unsure, loaded),
        uncertain_reason=reason,
        notes={p: n for p, n in notes.items() if n},
    )


def comment_note(path: str, text: str, name: str) -> str:
    """A preview note listing comments that mention ``name``: never edited, never blocking."""
    word = re.compile(rf"(?<![\w$]){re.escape(name)}(?![\w$])")
    marker = "#" if language_of(path) == PYTHON else "/"
    if not any(marker in line and word.search(line, line.find(marker)) for line in text.splitlines()):
        return ""  # no comment marker before the name on any line: skip the tokenizer
    lines = [number for number, comment in _comments(path, text) if word.search(comment)]
    if not lines:
        return ""
    where = ", ".join(str(n) for n in sorted(set(lines)))
    return f"# note: comments mentioning {name!r} are not changed: {path} line(s) {where}\n"


def _comments(path: str, text: str) -> list[tuple[int, str]]:
    if language_of(path) == PYTHON:
        out: list[tuple[int, str]] = []
        try:
            for token in tokenize.generate_tokens(io.StringIO(text).readline):
                if token.type == tokenize.COMMENT:
                    out.append((token.start[0], token.string))
        except (tokenize.TokenError, SyntaxError):
            return out
        return out
    from astmcp.refactor import tsparse

    tree = tsparse.parse(path, text.encode("utf-8"))
    found: list[tuple[int, str]] = []
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        if node.type == "comment":
            found.append((node.start_point[0] + 1, (node.text or b"").decode("utf-8", "replace")))
        stack.extend(node.children)
    return found
