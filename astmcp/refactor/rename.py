"""``ast_rename_symbol``: references (:mod:`astmcp.refactor.rename_refs`) → collision checks →
edits → plan."""

from __future__ import annotations

import io
import re
import sqlite3
import tokenize
from typing import TYPE_CHECKING, Any

from astmcp.errors import AstmcpError, InvalidInput, MutationBlocked
from astmcp.model import PYTHON
from astmcp.query.common import SymbolRow, query_symbols
from astmcp.query.ts_parts import ModuleParts
from astmcp.refactor import collisions
from astmcp.refactor.docstring_names import announced_name_hits, docstring_name_hits
from astmcp.refactor.doctest_files import doctest_file_hits
from astmcp.refactor.doubles import double_hits
from astmcp.refactor.family_guard import (
    check_augmentation,
    check_borrowed_methods,
    check_iterator_protocol,
    check_mapping_protocol,
    check_metaclass_attribute,
    check_metaclass_set,
    check_nested_class,
    check_script_global,
)
from astmcp.refactor.field_mappings import dump_hits, mapping_hits, typed_dict_keys
from astmcp.refactor.fixtures import (
    check_collected_name,
    check_conditional_builtin,
    check_enum_value,
    check_fallback_class_member,
    check_fixture,
    check_global_rebinding,
    check_made_class,
    check_submodule_name,
)
from astmcp.refactor.folded_names import dashed_name_hits, folded_name_hits
from astmcp.refactor.identifiers import (
    check_declaration_name,
    check_new_name,
    check_special_name,
    language_of,
)
from astmcp.refactor.import_alternatives import (
    IMPORT_AS,
    IMPORT_KEEP,
    import_alternatives,
    keep_other_bindings,
)
from astmcp.refactor.jsdoc_refs import jsdoc_hits
from astmcp.refactor.mangling import check_mangling
from astmcp.refactor.name_exposure import name_word_hits
from astmcp.refactor.name_lookups import lookup_hits
from astmcp.refactor.namespace_mirrors import namespace_mirror_hits
from astmcp.refactor.option_names import option_made
from astmcp.refactor.pickled import pickled_hits
from astmcp.refactor.plan import Plan
from astmcp.refactor.prepare import LoadedFile, build_plan, load_file
from astmcp.refactor.record_fields import (
    check_record_field,
    data_file_hits,
    from_attributes_hits,
    init_keyword,
    is_keyword_at,
    orm_column_hits,
    settings_field_hits,
)
from astmcp.refactor.reexport_aliases import through_aliases
from astmcp.refactor.rename_refs import (
    Hit,
    config_hits,
    family_and_references,
    is_local,
    local_lookups,
    prose_hits,
    template_hits,
    unparsed_hits,
)
from astmcp.refactor.rule_names import rule_name_hits
from astmcp.refactor.star_imports import check_star_exports, check_star_importers
from astmcp.refactor.stub_only import check_stub_only, stub_provider
from astmcp.refactor.textio import TextEdit, apply_edits, offset_of
from astmcp.refactor.ts_combined import combined_clash, spread_clash, spread_into_hits
from astmcp.refactor.ts_computed_keys import check_computed_keys
from astmcp.refactor.ts_decorators import decorator_hits
from astmcp.refactor.ts_dumps import enum_name_hits, namespace_shape_hits, template_key_hits, ts_dump_hits
from astmcp.refactor.ts_inline_types import (
    foreign_literal_keys,
    inline_type_hits,
    json_key_hits,
    literal_key_hits,
    literal_member_reads,
    not_sole,
    remapped_key_hits,
    spread_key_hits,
)
from astmcp.refactor.ts_lib_shapes import check_lib_shapes
from astmcp.refactor.ts_literals import TsFiles, check_literal_member
from astmcp.refactor.ts_merged import merged_block_hits
from astmcp.refactor.ts_mixins import mixin_hits
from astmcp.refactor.ts_name_exposure import ts_name_word_hits
from astmcp.refactor.ts_outside_shapes import check_outside_shapes
from astmcp.refactor.ts_outside_values import check_outside_values
from astmcp.refactor.ts_package_shapes import check_package_shapes
from astmcp.refactor.ts_template_names import template_name_hits
from astmcp.refactor.unbound_calls import unbound_call_hits, unbound_callee_reads
from astmcp.resolve.python_vocab import DATA_KEY
from astmcp.workspace import Workspace

if TYPE_CHECKING:
    from astmcp.refactor.tsscopes import TsFile

__all__ = ["Hit", "comment_note", "data_note", "file_edits", "prepare_rename", "with_context"]
_MAX_NOTED_FILES = 10

_MEMBER_KINDS = {"method", "property", "attribute", "getter", "setter", "enum_member"}


def _replacement(
    text: str, old: str, new: str, span: str, hit: Hit, member: bool, ts: Any, home: bool = True
) -> tuple[int, int, str]:
    """Where inside ``span`` the name sits and what replaces it.

    TS shorthand names a property and a variable at once; only the renamed side changes:
    ``{ old }`` in an object literal becomes ``{ old: new }`` when the variable is renamed and
    ``{ new: old }`` when the property is; a destructuring ``{ old }`` declares a variable
    (``{ old: new }`` when that variable is renamed) and reads a property (``{ new: old }``).
    Both sides change where both are renamed: the module's exports (``module.exports = { old }``,
    whose importers are renamed) and a destructured ``require`` (``const { old } = require(…)``,
    an import whose uses are renamed)."""
    if span == old and hit.kind == IMPORT_AS:
        return 0, len(span), f"{old} as {new}"
    if span == old and hit.kind == IMPORT_KEEP:
        return 0, len(span), f"{new} as {old}"
    if span == old:
        shorthand = ts.shorthand(hit) if ts is not None else None
        if shorthand == "object":
            return 0, len(span), f"{new}: {old}" if member else f"{old}: {new}"
        if shorthand == "pattern" and hit.kind != "import":
            renames_variable = hit.is_declaration and not member
            return 0, len(span), f"{old}: {new}" if renames_variable else f"{new}: {old}"
        if shorthand == "exports" and not home:
            # `const { bar } = require("./a"); module.exports = { bar }`: a barrel re-exporting an
            # import keeps its public name (its importers are not linked to the renamed symbol)
            return 0, len(span), f"{old}: {new}"
        return 0, len(span), new
    if old.startswith("_") and span == old.lstrip("_") and new.lstrip("_"):
        # an attrs private field's `__init__` keyword (`Conf(size=…)` for `_size`)
        return 0, len(span), new.lstrip("_")
    match = re.search(rf"(?<![\w$]){re.escape(old)}(?![\w$])", span)
    if match is None:
        raise MutationBlocked(
            f"the reference at {hit.file}:{hit.line}:{hit.column} does not hold {old!r}; the index is behind",
            {"file": hit.file, "line": hit.line},
        )
    return match.start(), match.end(), new


def _one_per_span(hits: list[Hit]) -> list[Hit]:
    """One hit per span: an import the definition's own module rebinds (``from ._parser import
    _tzparser`` then ``_tzparser = wrap(_tzparser)``) is also a re-export of that name; the
    alias its own rule gives (``_tzparser as _new``) is the edit."""
    by_span: dict[tuple[int, int, int], Hit] = {}
    for hit in hits:
        key = (hit.line, hit.column, hit.end_column)
        held = by_span.get(key)
        if held is None or (
            hit.kind in (IMPORT_AS, IMPORT_KEEP) and held.kind not in (IMPORT_AS, IMPORT_KEEP)
        ):
            by_span[key] = hit
    return list(by_span.values())


def file_edits(
    loaded: LoadedFile,
    hits: list[Hit],
    old: str,
    new: str,
    member: bool,
    ts: Any = None,
    home: bool = True,
    keyword: str | None = None,
) -> str:
    """The file's text with each hit renamed (``home``: the file declares the renamed symbol;
    ``keyword``: what a keyword argument naming it becomes, where that is not the new name)."""
    text = loaded.source.text
    starts = loaded.source.line_starts()
    edits: list[TextEdit] = []
    for hit in _one_per_span(hits):
        start = offset_of(starts, hit.line, hit.column)
        end = offset_of(starts, hit.line, hit.end_column) if hit.end_column > hit.column else start + len(old)
        if keyword is not None and hit.kind == "write" and is_keyword_at(text, start, end):
            edits.append(TextEdit(start, end, keyword))  # an attrs field's `__init__` keyword
            continue
        lo, hi, replacement = _replacement(text, old, new, text[start:end], hit, member, ts, home)
        edits.append(TextEdit(start + lo, start + hi, replacement))
    return apply_edits(text, edits)


def with_context(ws: Workspace, hits: list[Hit], loaded: dict[str, LoadedFile]) -> list[dict[str, Any]]:
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


def load_checked(
    ws: Workspace, conn: sqlite3.Connection, family: list[SymbolRow], chosen: list[Hit], old: str, new: str
) -> tuple[dict[str, list[Hit]], dict[str, LoadedFile]]:
    """The hits to edit grouped by file, each file loaded once, and no collision in any of them
    (`NameCollision` otherwise)."""
    by_file: dict[str, list[Hit]] = {}
    for hit in chosen:
        by_file.setdefault(hit.file, []).append(hit)
    loaded = {path: load_file(ws, path) for path in by_file}
    collisions.check(conn, family, {p: (loaded[p].source.text, by_file[p]) for p in by_file}, old, new)
    return by_file, loaded


def check_computed_key(row: SymbolRow) -> None:
    """A TS/JS member keyed by a computed value (``[Symbol.iterator]()``, ``[KEY]: 1``) has no
    name: its key is a symbol or whatever the expression gives at run time, and the language's
    protocols (``for … of``, ``await``, ``instanceof``) read the well-known symbols. Renaming it
    to a name would change the key, silently where nothing type-checks the uses."""
    if language_of(row.file) == PYTHON or not row.name.startswith("["):
        return
    inner = row.name[1:-1].strip() if row.name.endswith("]") else ""
    if inner[:1] in ("'", '"') and inner[-1:] == inner[:1]:
        return  # `["~validate"]`: a string key is a name
    protocol = inner.startswith("Symbol.")
    raise MutationBlocked(
        f"{row.name!r} is keyed by a computed value, not a name"
        + (
            f": {inner} is a symbol the language's protocols read (as `for … of` reads"
            " Symbol.iterator), defined outside the project"
            if protocol
            else f": the key is whatever {inner!r} gives at run time"
        )
        + "; renaming it to a name would change the key. Change the key expression by hand if that is meant",
        {"computed_key": row.name},
    )


def _check_jsx_tags(by_file: dict[str, list[Hit]], loaded: dict[str, LoadedFile], new: str) -> None:
    """INVALID_INPUT when a JSX tag (`<List …>`, `</List>`) would be renamed to a name starting
    with a lowercase letter: JSX reads that as an HTML element, not the component."""
    for path, hits in by_file.items():
        if not path.endswith((".tsx", ".jsx", ".js")):
            continue
        lines = loaded[path].source.text.split("\n")
        for hit in hits:
            before = lines[hit.line - 1][: hit.column - 1].rstrip() if hit.line <= len(lines) else ""
            opener = before.removesuffix("/").removesuffix("<") if before.endswith(("<", "</")) else None
            # `<List` after an operator or at a line's start; `useState<List>` is a type argument
            if opener is not None and not re.search(r"[\w$)\]]\s*$", opener):
                raise InvalidInput(
                    f"{path}:{hit.line} uses it as a JSX tag; JSX reads a tag starting with a lowercase"
                    f" letter ({new!r}) as an HTML element, not the component: choose a capitalized name"
                )


def _spells(lines: list[str], hit: Hit, name: str) -> bool:
    """Whether the text at a hit's span is ``name`` itself (1-based code-point columns)."""
    line = lines[hit.line - 1] if 0 < hit.line <= len(lines) else ""
    return line[hit.column - 1 : hit.end_column - 1] == name


def prepare_rename(
    ws: Workspace,
    conn: sqlite3.Connection,
    row: SymbolRow,
    new_name: str,
    uncertain: str,
    allow_new_errors: bool,
) -> Plan:
    if row.name.startswith("#") and language_of(row.file) != PYTHON:
        # a private member stays private: `#count` -> `total` or `#total` both give `#total`
        new_name = "#" + new_name.removeprefix("#")
        check_new_name(new_name[1:], row.file)
    else:
        check_new_name(new_name, row.file)
    if row.name == "default" and row.parent_path is None and language_of(row.file) != PYTHON:
        raise InvalidInput("an anonymous default export has no name to rename; importers choose their own")
    if new_name == row.name:
        raise InvalidInput(f"{row.name!r} already has that name")
    row = merged_into(conn, row)
    row = stub_provider(ws, conn, row) or row
    check_computed_key(row)
    check_declaration_name(new_name, row.file, row.kind, row.kind in _MEMBER_KINDS)
    collisions.check_static_function_name(row, new_name)
    check_special_name(row.name, new_name, row.file)
    check_augmentation(conn, row)
    check_script_global(ws, row)
    check_iterator_protocol(ws, conn, row)
    check_mapping_protocol(conn, row, new_name)
    check_borrowed_methods(ws, conn, row)
    check_record_field(ws, conn, row, new_name)
    check_fixture(ws, row)
    check_enum_value(ws, conn, row)
    check_made_class(ws, conn, row)
    check_conditional_builtin(ws, row)
    check_fallback_class_member(ws, row)
    check_global_rebinding(ws, row)
    check_collected_name(ws, row, new_name)
    check_submodule_name(ws, conn, row)
    check_metaclass_attribute(conn, row)
    check_metaclass_set(ws, conn, row)
    check_nested_class(conn, row)
    family, hits = family_and_references(ws, conn, row)
    check_outside_values(ws, conn, row, family)
    check_lib_shapes(ws, conn, row, family)
    check_computed_keys(ws, conn, row, family)
    check_outside_shapes(conn, row, family)
    check_package_shapes(conn, row, family)
    check_literal_member(ws, conn, row)
    hits = through_aliases(conn, row, hits)
    hits, docstrings = prose_hits(ws, hits)
    seen = {(h.file, h.line, h.column) for h in hits}
    hits += [h for h in docstring_name_hits(ws, conn, family) if (h.file, h.line, h.column) not in seen]
    seen = {(h.file, h.line, h.column) for h in hits}
    hits += [h for h in announced_name_hits(ws, conn, family) if (h.file, h.line, h.column) not in seen]
    hits += config_hits(ws, family, conn)
    certain = [(h.file, h.line, h.column) for h in hits if h.confidence == "certain"]
    doctested = doctest_file_hits(ws, conn, family, new_name, certain)
    # a word the examples' imports resolve is that reference, whatever else read it as a name
    resolved = {(h.file, h.line, h.column) for h in doctested if h.confidence == "certain"}
    hits = [h for h in hits if h.confidence != "name" or (h.file, h.line, h.column) not in resolved]
    hits += doctested
    hits += template_hits(ws, family)
    hits += double_hits(ws, conn, row, family)
    hits += rule_name_hits(conn, row)
    hits += folded_name_hits(ws, conn, row)
    hits += dashed_name_hits(ws, conn, row)
    hits += unparsed_hits(ws, conn, family)
    if language_of(row.file) != PYTHON:
        ts_files = TsFiles(ws)  # each file read and parsed once for both
        combined_clash(ts_files, conn, family, new_name)
        spread_clash(ts_files, conn, family, new_name)
        shaped = len(hits)
        hits += mixin_hits(ts_files, conn, row, {(h.file, h.line, h.column) for h in hits})
        hits += inline_type_hits(ts_files, conn, row, {(h.file, h.line, h.column) for h in hits})
        hits = not_sole(ts_files, conn, row, hits)
        hits = foreign_literal_keys(ts_files, conn, family, hits)
        hits += spread_key_hits(ts_files, conn, row, {(h.file, h.line, h.column) for h in hits})
        hits += spread_into_hits(ts_files, conn, family, {(h.file, h.line, h.column) for h in hits})
        hits += literal_key_hits(ts_files, conn, row, {(h.file, h.line, h.column) for h in hits})
        hits += remapped_key_hits(ts_files, conn, row)
        hits += ts_dump_hits(ts_files, conn, row, family)
        hits += template_key_hits(ts_files, conn, row, {(h.file, h.line, h.column) for h in hits})
        hits += template_name_hits(ts_files, conn, row, {(h.file, h.line, h.column) for h in hits})
        hits += namespace_shape_hits(ts_files, conn, row, family)
        # a shape, literal or dump in a file no import chain joins to the family's declarations
        # holds no value of their types (query.ts_parts), as for receivers and strings
        trees, declaring = ModuleParts(conn), {m.file for m in family}
        hits[shaped:] = [
            h for h in hits[shaped:] if h.confidence != "name" or not trees.apart(h.file, declaring)
        ]
        hits += json_key_hits(ws, conn, row, {(h.file, h.line, h.column) for h in hits})
        hits = literal_member_reads(ts_files, conn, hits)
        hits += enum_name_hits(ts_files, conn, row)
        hits += jsdoc_hits(ts_files, conn, row, hits)
        hits += decorator_hits(ts_files, conn, family)
        hits += merged_block_hits(ts_files, conn, row, {(h.file, h.line, h.column) for h in hits})
        hits += ts_name_word_hits(ts_files, conn, row, {(h.file, h.line, h.column) for h in hits})
    hits += import_alternatives(ws, conn, row, hits)
    hits = keep_other_bindings(ws, row, hits)
    hits += mapping_hits(ws, conn, family)
    if language_of(row.file) == PYTHON:
        hits = option_made(ws, conn, row, hits)
        hits += unbound_call_hits(ws, conn, row, family)
        hits = unbound_callee_reads(ws, conn, row, hits)
        hits += from_attributes_hits(ws, conn, row)
        hits += settings_field_hits(ws, conn, row)
        hits += data_file_hits(ws, conn, row)
        hits += pickled_hits(conn, row, hits)
        hits += orm_column_hits(ws, conn, row)
        hits += namespace_mirror_hits(conn, row)
    hits = typed_dict_keys(conn, row, hits)
    seen = {(h.file, h.line, h.column) for h in hits}
    hits += [h for h in dump_hits(ws, conn, family) if (h.file, h.line, h.column) not in seen]
    if language_of(row.file) == PYTHON:
        hits += name_word_hits(ws, conn, row, {(h.file, h.line, h.column) for h in hits})
    hits += lookup_hits(ws, conn, row, new_name, hits)
    sure = [h for h in hits if h.confidence in ("certain", "likely")]
    unsure = (
        [h for h in hits if h.confidence == "name"]
        if not is_local(ws, conn, row)
        else local_lookups(conn, row)
    )
    # `base`: a class whose outside base could not be read; there is nothing to edit there
    # (nor in a file that could not be parsed: its post-image could not be checked)
    chosen = sure + (
        [h for h in unsure if h.kind not in ("base", "unparsed", "data")] if uncertain == "include" else []
    )
    check_stub_only(ws, conn, row, family, chosen)
    check_mangling(conn, row, new_name, chosen)
    check_star_importers(conn, row, new_name, chosen)
    check_star_exports(conn, row, new_name)
    by_file, loaded = load_checked(ws, conn, family, chosen, row.name, new_name)
    if not new_name[:1].isupper():
        _check_jsx_tags(by_file, loaded, new_name)
    # a hit whose text is not the name (`globals()[f"_{name}"]` computes it) has nothing to rewrite
    for path in list(by_file):
        lines = loaded[path].source.text.split("\n")
        by_file[path] = [h for h in by_file[path] if h.confidence != "name" or _spells(lines, h, row.name)]
        if not by_file[path]:
            del by_file[path], loaded[path]
    member = row.kind in _MEMBER_KINDS
    keyword = init_keyword(ws, row, new_name)
    edits: dict[str, tuple[LoadedFile, str]] = {}
    same_scopes: set[str] = set()
    for path, file_hits in by_file.items():
        ts = collisions.ts_file(path, loaded[path].source.text)
        # (a destructured `require` in a barrel joins the family as a variable: not its home)
        home = any(m.file == path and m.kind == row.kind for m in family)
        edits[path] = (
            loaded[path],
            file_edits(loaded[path], file_hits, row.name, new_name, member, ts, home, keyword),
        )
        if member and ts is not None and all(_member_name(ts, h) for h in file_hits):
            same_scopes.add(path)
    reason = None
    if unsure and uncertain == "block":
        strings = sum(1 for h in unsure if h.kind == "string")
        overrides = sum(1 for h in unsure if h.kind == "override")
        bases = sum(1 for h in unsure if h.kind == "base")
        unparsed = sum(1 for h in unsure if h.kind == "unparsed")
        data = sum(1 for h in unsure if h.kind == "data")
        doubles = sum(1 for h in unsure if h.kind == "double")
        parts = [f"{strings} in string(s)"] if strings else []
        unknown = len(unsure) - strings - overrides - bases - unparsed - data - doubles
        if unknown:
            parts.append(f"{unknown} on a receiver of unknown type")
        if data:
            parts.append(
                f"{data} place(s) where the name itself is data the code does not hold (a decorator is"
                " told it, an environment variable or a table column is named after it, a runtime"
                " Protocol check looks it up; see each note), which a rename cannot edit"
            )
        if unparsed:
            parts.append(
                f"{unparsed} in file(s) astmcp could not parse (a syntax error, syntax newer than the"
                " Python astmcp runs on, nesting too deep, or a failure of astmcp's own, reported on"
                " stderr), which it cannot edit: fix them or run astmcp on that Python, or rename there"
                " yourself"
            )
        if bases:
            parts.append(
                f"{bases} class(es) deriving from an outside class astmcp could not read (its package is not"
                " installed where astmcp runs), which may define the member: install it there, or check it"
                " yourself"
            )
        if doubles:
            parts.append(
                f"{doubles} same-named member(s) of classes given where a class of the renamed member is"
                " declared (a test double standing in for it; see each note): rename them too"
                " (uncertain: include) or keep them on purpose"
            )
        if overrides:
            parts.append(
                f"{overrides} same-named member(s) of related types (a class whose base is unknown,"
                " which may override it; TS: a type that may be used as this one or the other way round)"
            )
        reason = (
            f"{len(unsure)} uncertain reference(s) ({', '.join(parts)}); review uncertain_references,"
            " then prepare again with uncertain: include or skip"
        )
    notes = {
        path: comment_note(path, loaded[path].source.text, row.name, docstrings.get(path, []))
        for path in loaded
    }
    held = data_note(conn, row, hits)
    if held and row.file in notes:
        notes[row.file] = held + notes[row.file]
    return build_plan(
        ws,
        conn,
        "rename",
        edits,
        allow_new_errors=allow_new_errors,
        reference_count=len(sure),
        uncertain=with_context(ws, unsure, loaded),
        uncertain_reason=reason,
        notes={p: n for p, n in notes.items() if n},
        same_scopes=frozenset(same_scopes),
    )


# TS/JS tokens that name a member or sit in a string: respelling one binds or frees no name
_MEMBER_NAME_NODES = frozenset({"property_identifier", "private_property_identifier", "string_fragment"})


def _member_name(ts: TsFile, hit: Hit) -> bool:
    node = ts.node_at(hit.line, hit.column)
    return node is not None and node.type in _MEMBER_NAME_NODES and node.start_point[0] == hit.line - 1


def merged_into(conn: sqlite3.Connection, row: SymbolRow) -> SymbolRow:
    """The declaration a TS module augmentation merges into (``declare module "pkg" { interface
    I … }`` names pkg's ``I``): one symbol, renamed from either end; else ``row`` itself."""
    if language_of(row.file) == PYTHON:
        return row
    found = conn.execute(
        "SELECT r.symbol_id FROM refs r JOIN files f ON f.id = r.file_id WHERE f.path = ? AND r.line = ?"
        " AND r.col = ? AND r.kind = 'type' AND r.confidence = 'certain' AND r.symbol_id IS NOT NULL"
        " AND r.symbol_id != ?",
        (row.file, row.name_line, row.name_col, row.id),
    ).fetchone()
    if found is None:
        return row
    merged = query_symbols(conn, "s.id = ?", (found[0],))
    return merged[0] if merged and merged[0].name == row.name else row


def data_note(conn: sqlite3.Connection, row: SymbolRow, hits: list[Hit]) -> str:
    """A preview note listing the Python strings that hold a member's name as data
    (``{"name": …}``, ``echo("name")``: query.data_keys) and so are no hits: never edited."""
    if language_of(row.file) != PYTHON or not row.parent_path:
        return ""
    found = {(h.file, h.line, h.column) for h in hits}
    held: dict[str, set[int]] = {}
    for path, line, col in conn.execute(
        "SELECT f.path, r.line, r.col FROM refs r JOIN files f ON f.id = r.file_id WHERE r.name = ?"
        " AND r.kind = 'string' AND r.target_key LIKE ? AND f.language = 'python' ORDER BY f.path, r.line",
        (row.name, DATA_KEY.replace("%", "") + "%"),
    ):
        if (path, line, col) not in found:
            held.setdefault(path, set()).add(line)
    if not held:
        return ""
    shown = list(held.items())[:_MAX_NOTED_FILES]
    where = "; ".join(f"{path} line(s) {', '.join(map(str, sorted(lines)))}" for path, lines in shown)
    more = f" and {len(held) - len(shown)} more file(s)" if len(held) > len(shown) else ""
    return f"# note: strings holding {row.name!r} as data, not as a name, are not changed: {where}{more}\n"


def comment_note(path: str, text: str, name: str, docstrings: list[int] | None = None) -> str:
    """A preview note listing comments (and docstring lines) that mention ``name``: never
    edited, never blocking."""
    word = re.compile(rf"(?<![\w$]){re.escape(name)}(?![\w$])")
    marker = "#" if language_of(path) == PYTHON else "/"
    lines = list(docstrings or [])
    # no comment marker before the name on any line: skip the tokenizer
    if any(marker in line and word.search(line, line.find(marker)) for line in text.splitlines()):
        lines += [number for number, comment in _comments(path, text) if word.search(comment)]
    if not lines:
        return ""
    what = "comments and docstrings" if docstrings else "comments"
    where = ", ".join(str(n) for n in sorted(set(lines)))
    return f"# note: {what} mentioning {name!r} are not changed: {path} line(s) {where}\n"


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
