"""Per-file TS/JS reference facts (runs in the parse worker on the front end's tree).

Every identifier occurrence in value and type positions becomes a row
``(name, line, col, end_col, kind, chain, owner)`` (positions as in
:class:`astmcp.model.Span`; ``owner`` is the ``line:col`` name position of the
enclosing declaration, for edges). Locals, parameters and type parameters are
resolved here and dropped; everything else carries a chain
(:mod:`astmcp.resolve.ts_scopes`) the linker resolves across files. A member
whose receiver cannot be typed has no chain: a ``name`` hit.

The payload also holds what the linker needs to resolve other files' chains
into this one: ``vtypes`` / ``rtypes`` (value and return types of symbols, by
name position), ``bases`` (extends/implements), ``exports`` (export clauses,
``export default``, ``export =``) and ``stars`` (``export * from``); for generics,
``tparams`` (constraint and default of each type parameter), ``generics`` (a
function's type parameters in order), ``ptypes`` (its declared parameter types),
``rgen`` (the head and type arguments of a generic return type) and ``calls``
(what a call site binds them with, see :class:`~astmcp.resolve.ts_scopes.Site`);
``augments``: the packages a ``declare module "pkg"`` block augments.

Two fields are for the built-in diagnostics, not the linker (:data:`LOCAL_FIELDS`):
``undefined`` (identifiers no scope binds, see :mod:`astmcp.diagnostics.ts_undefined`)
and ``ambient`` (names the file makes global).
"""

from __future__ import annotations

import sys
from typing import Any

from tree_sitter import Tree

from astmcp.diagnostics import ts_undefined
from astmcp.lang.ts_parse import TsSource
from astmcp.resolve.ts_fact_state import (
    FUNCTION_VALUES,
    FUNCTIONS,
    HANDED,
    SELF_MODULE,
    member_step,
    package_import,
)
from astmcp.resolve.ts_library import GLOBAL_OBJECTS, lib_type_members
from astmcp.resolve.ts_module_facts import ModuleFacts
from astmcp.resolve.ts_reach import FIELD as REACH
from astmcp.resolve.ts_reach import ReachFacts
from astmcp.resolve.ts_scopes import (
    GLOBAL,
    SPREAD_FALLBACK,
    UNTYPED_KEY,
    Binding,
    Desc,
    Site,
    bound,
    chain_of,
)

__all__ = ["LOCAL_FIELDS", "NAME", "QUERY_FIELDS", "UNTYPED_KEY", "analyze"]

NAME = "ts_refs"
# Payload fields that are no link facts (what other files resolve against).
LOCAL_FIELDS = frozenset({"refs", "undefined", "ambient"})
# Stored facts no other file resolves against (kept out of the file's shape).
QUERY_FIELDS = frozenset({REACH})
_CLASSES = {"class_declaration", "abstract_class_declaration", "class"}
_SKIP = {
    "string", "number", "regex", "true", "false", "null", "undefined",
    "predefined_type", "statement_identifier", "hash_bang_line", "html_comment",
}  # fmt: skip
_RECURSION = 20000


def analyze(path: str, text: str, tree: Tree) -> dict[str, Any]:
    """The file's reference rows and link facts (see the module docstring)."""
    if sys.getrecursionlimit() < _RECURSION:
        sys.setrecursionlimit(_RECURSION)
    root = tree.root_node
    walker = _Walker(TsSource.of(text, tree), ts_undefined.checked_file(path, text, root))
    walker.self_spec = SELF_MODULE
    walker.run()
    out = walker.payload()
    ambient = ts_undefined.ambient_names(path, text, root)
    if ambient:
        out["ambient"] = sorted(ambient)
    return out


def _unread_global_type(desc: Desc, depth: int = 0) -> bool:
    """Whether ``desc`` is an instance of a type no scope of the file declares and the library
    tables do not hold (``DOMException``, a global of a package's declarations), also as the
    declared type of a name (``e: ProgressEvent`` then ``e.loaded``, ``const { loaded } = e``)."""
    if desc is not None and desc[0] == "n" and len(desc) == 3 and depth < 8:
        binding = bound(desc)
        if binding is not None and binding.chain is None and binding.vtype is not None:
            return _unread_global_type(binding.vtype, depth + 1)
    if desc is None or desc[0] != "i":
        return desc is not None and desc[0] == "n" and len(desc) > 3 and bound(desc) is None
    inner = desc[1]
    while inner is not None and inner[0] == "m":  # `NodeJS.ErrnoException`: a global namespace's
        inner = inner[1]
    return inner is not None and inner[0] == "n" and bound(inner) is None


def _global_root(desc: Desc, given: frozenset[int] = frozenset()) -> bool:
    """Whether ``desc`` is read off a global variable no scope of the file binds and the library
    tables leave untyped (the browser's ``history``, ``document``, ``window``; Node's ``process``;
    a test runner's ``page`` or ``cy``), also through a local set from one (``const h =
    window.history``), of what calling one gives and of the callbacks given to one
    (``document.addEventListener("keydown", (ev) => ev.key)``; ``given``: the parameters of the
    functions handed on to one by name, ``addEventListener("keydown", onKey)``, or to a method of a
    value of a lib type, ``button.addEventListener("click", onClick)``): what it reads is the platform's, or
    a property code put there, never known to be a project member, so it is no ``likely`` hit of
    the project member of the name."""
    for _ in range(16):
        if desc is None:
            return False
        tag = desc[0]
        if tag == "n" and len(desc) == 3:
            binding = bound(desc)
            if binding is None:
                return True
            if binding.chain is None and id(binding) in given:
                return True  # a parameter of a function handed on to one by name
            if binding.chain is not None or binding.vtype is None:
                return False
            desc = binding.vtype
        elif tag in ("m", "c", "e", "w", "a", "p", "y", "q"):
            desc = desc[1]  # (`a`: a parameter of a callback given to it: `fetch(u).then((res) => …)`)
        else:
            return False
    return False


def _outside_value(value: Desc, given: frozenset[int]) -> bool:
    """Whether a value comes from outside the project: read off a global no scope binds (see
    :func:`_global_root`), of a lib type that is no standard global object (a ``KeyboardEvent``), or
    of what a package gives."""
    chain = chain_of(value)
    if chain is None:
        return _global_root(value, given)
    head = chain.partition("|")[0]
    root = head.removeprefix(GLOBAL) if head.startswith(GLOBAL) else ""
    return bool(root and root not in GLOBAL_OBJECTS) or package_import(head)


class _Walker(ModuleFacts):
    """Visits a file (the layers: ts_fact_state, ts_descriptors, ts_occurrences, ts_declarations,
    ts_functions, ts_classes, ts_narrowing, ts_module_facts) and writes its payload."""

    def __init__(self, src: TsSource, check_unbound: bool = False) -> None:
        super().__init__(src, check_unbound)
        self.handlers = {
            "identifier": self.identifier,
            "type_identifier": self.type_identifier,
            "shorthand_property_identifier": self.shorthand,
            "member_expression": self.member_expression,
            "call_expression": self.call_expression,
            "new_expression": self.new_expression,
            "assignment_expression": self.assignment,
            "augmented_assignment_expression": self.assignment,
            "update_expression": self.update,
            "subscript_expression": self.subscript,
            "nested_type_identifier": self.nested_type,
            "nested_identifier": self.nested_identifier,
            "literal_type": self.literal_type,
            "template_literal_type": self.template_literal_type,
            "lookup_type": self.lookup_type,
            "statement_block": self.block,
            "for_statement": self.loop,
            "for_in_statement": self.for_in,
            "catch_clause": self.catch,
            "lexical_declaration": self.declaration,
            "variable_declaration": self.declaration,
            "import_statement": self.import_statement,
            "export_statement": self.export_statement,
            "import_alias": self.import_alias,
            "internal_module": self.namespace,
            "module": self.namespace,
            "interface_declaration": self.interface,
            "enum_declaration": self.enum,
            "type_alias_declaration": self.type_alias,
            "object": self.object,
            "pair": self.pair,
            "jsx_opening_element": self.jsx,
            "jsx_self_closing_element": self.jsx,
            "jsx_closing_element": self.jsx,
            "jsx_attribute": self.jsx_attribute,
            "property_signature": self.member_signature,
            "method_signature": self.member_signature,
            "labeled_statement": self.labeled,
            "type_parameter": self.type_parameter,
            "call_signature": self.signature_type,
            "construct_signature": self.signature_type,
            "function_type": self.signature_type,
            "constructor_type": self.signature_type,
            "mapped_type_clause": self.mapped_type,
            "infer_type": self.infer_type,
            "conditional_type": self.conditional_type,
            "comment": self.comment,
            "return_statement": self.return_statement,
            "yield_expression": self.yield_expression,
            "if_statement": self.if_statement,
            "switch_statement": self.switch_statement,
            "binary_expression": self.binary_expression,
            "ternary_expression": self.ternary_expression,
            "as_expression": self.asserted,
            "satisfies_expression": self.asserted,
            "type_assertion": self.asserted,
        }
        for kind in FUNCTIONS | FUNCTION_VALUES | {"method_definition"}:
            self.handlers[kind] = self.function
        for kind in _CLASSES:
            self.handlers[kind] = self.class_
        for kind in _SKIP:
            self.handlers[kind] = self.skip
        self.handlers["string"] = self.string_literal
        self.handlers["template_string"] = self.string_literal

    # -- output ----------------------------------------------------------------
    def given_to_globals(self) -> frozenset[int]:
        """The ids of the parameter bindings of the functions this file declares by name and hands
        on to a global no scope binds (``document.addEventListener("keydown", onKey)``) or to a
        member of a value of a type TypeScript's lib declares that is no standard global object
        (``button.addEventListener("click", onClick)`` with ``button: HTMLButtonElement``), or to
        what a package gives (``createServer().on("request", handle)``: what ``handle`` is given is
        the package's)."""
        out: set[int] = set()
        for callee, _, name, _, _ in self.given_functions:
            binding = bound(name) if name is not None and name[0] == "n" else None
            params = self.function_params.get(id(binding)) if binding is not None else None
            if not params:
                continue
            chain = chain_of(callee)
            head = chain.partition("|")[0] if chain else ""
            root = head.removeprefix(GLOBAL) if head.startswith(GLOBAL) else ""
            if (
                (chain is None and _global_root(callee))
                or (root and root not in GLOBAL_OBJECTS)
                or package_import(head)
            ):
                out.update(id(param) for param in params)
        return frozenset(out)

    def type_given_parameters(self, given: frozenset[int]) -> None:
        """Types the parameters no annotation types of the functions this file declares by name and
        hands on (``listen("keydown", onKey)``, ``this.onKey``) as those of a callback written there:
        by what the callee declares it calls the function with (``@k.j``), else not known — never a
        ``likely`` hit of the project member of a name (``function listen(type, handler) {
        window.addEventListener(type, handler) }``: ``onKey``'s event is the platform's). A function
        handed on at several places is not known either, nor is a parameter of a function of the
        file that is given a value from outside the project (``(e) => this.onKeyPress(e)`` in a
        listener given to ``window``): it may hold the platform's values."""
        sites: dict[int, tuple[Desc, int, bool, Site | None] | None] = {}
        functions: dict[int, list[Binding | None]] = {}
        for callee, k, name, new, site in self.given_functions:
            positions = self.positions_of(name)
            if positions is not None:
                function = id(positions)
                functions[function] = positions
                sites[function] = (callee, k, new, site) if function not in sites else None
        for function, where in sites.items():
            for j, param in enumerate(functions[function]):
                if param is None or param.chain is not None or param.vtype is not None:
                    continue
                param.vtype = ("u", ("a", where[0], where[1], j, where[2], where[3]) if where else None)
        passed = [
            (positions[k], value)
            for callee, k, value, _, _ in self.given_functions
            if (positions := self.positions_of(callee)) is not None and k < len(positions)
        ]
        for _ in range(4):  # (what a parameter so typed passes on in turn)
            changed = False
            for param, value in passed:
                if param is None or param.chain is not None or param.vtype is not None:
                    continue
                if _outside_value(self.described(value), given):
                    param.vtype = ("u", None)
                    changed = True
            if not changed:
                break

    def positions_of(self, function: Desc) -> list[Binding | None] | None:
        """The parameters (by position) of a function of this file a descriptor names: a function
        declared by name, or a method read off its class or an instance (``this.onKey``)."""
        if function is None:
            return None
        if function[0] == "n" and len(function) == 3:
            binding = bound(function)
            return self.function_positions.get(id(binding)) if binding is not None else None
        if function[0] == HANDED and function[3] not in self.method_names:
            return None
        chain = chain_of(self.described(function)) if function[0] in ("m", HANDED) else None
        return self.method_positions.get(chain) if chain is not None else None

    def described(self, value: Desc) -> Desc:
        """A handed-on member read (``HANDED``) described now; any other descriptor as it is."""
        if value is None or value[0] != HANDED:
            return value
        outer, self.this = self.this, value[4]  # (`this` where it was read)
        try:
            return self.desc(value[1], value[2])
        finally:
            self.this = outer

    def payload(self) -> dict[str, Any]:
        rows: list[tuple[str, int, int, int, str, str | None, str | None]] = []
        column = self.src.column
        reach = ReachFacts(self.src.tree, self.raw, self.nsimports, self.key)
        nodes = self.row_nodes
        given = self.given_to_globals()
        self.type_given_parameters(given)
        for index, (name, start, stop, kind, desc, owner, member) in enumerate(self.pending):
            if member:
                base, step = chain_of(desc), member_step(name)
                if base is None and (_unread_global_type(desc) or _global_root(desc, given)):
                    base = UNTYPED_KEY  # a value of a global type astmcp cannot read (`x as DOMException`)
                if step is not None and index in self.probes:
                    step = "!" + step  # a probe: the member of a project type only
                target = f"{base}|{step}" if base is not None and step is not None else None
            elif desc is None:
                target = None  # a string: a name hit
            elif desc[0] == "=":  # a string given for a parameter: a member when that is `keyof T`
                base, step = chain_of(desc[1]), member_step(name)
                target = f"{base}|={step}" if base is not None and step is not None else None
            elif desc[0] == "o":  # an object-literal key: a member of its contextual type, else a name hit
                base, step = chain_of(desc[1]) or _lib_type(desc[1]), member_step(name)
                # (the object its spread parts make, where that type is not known: `^W:<key>s`)
                spread = chain_of(desc[2]) if len(desc) > 2 else None
                if base is None and spread is not None:
                    base = UNTYPED_KEY  # (resolves to nothing: the spread parts decide)
                target = f"{base}|+{step}" if base is not None and step is not None else UNTYPED_KEY
                if spread is not None and target != UNTYPED_KEY:
                    target = f"{target}{SPREAD_FALLBACK}{spread.removeprefix('W:')}"
            elif desc[0] == "n":
                binding = bound(desc)
                if binding is None:
                    reach.unbound(desc[2])
                    if kind != "inherit" or (
                        desc[2] not in GLOBAL_OBJECTS and lib_type_members(desc[2]) is None
                    ):
                        continue  # a global
                    # `extends Error`, `implements PromiseLike<T>`: the family guard asks what it defines
                    target = f"{GLOBAL}{desc[2]}"
                elif binding.chain is None:
                    continue  # a local
                else:
                    target = binding.chain
            else:
                target = chain_of(desc)
                if target is None:
                    continue
            node = nodes.get(index)
            if node is not None and target is not None:
                reach.note(node, target, member)
            rows.append(
                (
                    name,
                    start.row + 1,
                    column(start.row, start.column),
                    column(stop.row, stop.column),
                    kind,
                    target,
                    owner,
                )
            )
        out: dict[str, Any] = {"refs": rows}
        reached = reach.payload()
        if reached is not None:
            out[REACH] = reached
        if self.named:
            unbound = (node for node, scope in self.named if scope.lookup(self.text(node)) is None)
            found = ts_undefined.candidates(self.src, unbound)
            if found:
                out["undefined"] = found
        for field, table in (
            ("vtypes", self.vtypes),
            ("rtypes", self.rtypes),
            ("exports", self.exports),
            ("indexes", self.indexes),
            ("nindexes", self.nindexes),
            ("sigrets", self.sigrets),
        ):
            resolved = {k: c for k, d in table.items() if (c := chain_of(d)) is not None}
            if resolved:
                out[field] = resolved
        bases = {k: [c for d in ds if (c := chain_of(d)) is not None] for k, ds in self.bases.items()}
        if any(bases.values()):
            out["bases"] = {k: v for k, v in bases.items() if v}
        if self.psigs:
            out["psigs"] = self.psigs
        rfns = {k: c for k, d in self.rfns.items() if (c := chain_of(d)) is not None and c.startswith("T:")}
        if rfns:
            out["rfns"] = rfns
        if self.stars:
            out["stars"] = self.stars
        if self.nsimports:
            out["nsimports"] = self.nsimports
        callbacks = {
            k: {i: [chain_of(d) for d in ds] for i, ds in by_index.items()}
            for k, by_index in self.cbtypes.items()
        }
        if callbacks:
            out["cbtypes"] = callbacks
        unions = {k: [chain_of(d) for d in ds] for k, ds in self.unions.items()}
        if unions:
            out["unions"] = unions
        if self.isects:
            out["isects"] = sorted(self.isects)
        if self.augments:
            out["augments"] = sorted(self.augments)
        lspreads = {k: [chain_of(d) for d in ds] for k, ds in self.lspreads.items()}
        if lspreads:
            out["lspreads"] = lspreads
        spreads = {k: [chain_of(d) for d in ds] for k, ds in self.spreads.items()}
        if spreads:
            out["spreads"] = spreads
        if self.okeys:
            out["okeys"] = self.okeys
        itests = {k: c for k, d in self.itests.items() if (c := chain_of(d)) is not None}
        if itests:
            out["itests"] = itests
        tuples = {k: [chain_of(d) for d in ds] for k, ds in self.tuples.items()}
        # (one with a rest part is kept whatever its parts: they tell where the rest starts)
        kept = {k: v for k, v in tuples.items() if any(v) or k in self.trests}
        if kept:
            out["tuples"] = kept
        # (a rest part of no known type is "": iterating the tuple gives something not known)
        trests = {k: chain_of(d) or "" for k, d in self.trests.items()}
        if trests:
            out["trests"] = trests
        self.generic_payload(out)
        return out

    def generic_payload(self, out: dict[str, Any]) -> None:
        tparams = {k: [chain_of(c), chain_of(d)] for k, (c, d) in self.tparams.items()}
        if any(c or d for c, d in tparams.values()):
            out["tparams"] = {k: v for k, v in tparams.items() if v[0] or v[1]}
        if self.generics:
            out["generics"] = self.generics
        bargs: dict[str, dict[str, list[str | None]]] = {}
        for k, pairs in self.bargs.items():
            for base, args in pairs:
                base_chain, chains = chain_of(base), [chain_of(a) for a in args]
                if base_chain is not None and any(chains):
                    bargs.setdefault(k, {})[base_chain] = chains
        if bargs:
            out["bargs"] = bargs
        if self.shapes:
            out["shapes"] = self.shapes
        if self.lits:
            out["lits"] = self.lits
        ikeys = {name: _bound_once(descs) for name, descs in self.ikeys.items()}
        if any(ikeys.values()):
            out["ikeys"] = {name: chain for name, chain in ikeys.items() if chain}
        ckeys = {key: _bound_once([desc]) for key, desc in self.ckeys.items()}
        if any(ckeys.values()):
            out["ckeys"] = {key: chain for key, chain in ckeys.items() if chain}
        if self.olits:
            out["olits"] = sorted(self.olits)
        if self.objects:
            out["objects"] = {
                k: {n: chain_of(d) for n, d in members.items()} for k, members in self.objects.items()
            }
        for field, table in (("ftypes", self.ftypes), ("ctypes", self.ctypes)):
            params = {k: [chain_of(d) for d in ds] for k, ds in table.items()}
            if any(any(v) for v in params.values()):
                out[field] = {k: v for k, v in params.items() if any(v)}
        ptypes = {k: [chain_of(d) for d in ds] for k, ds in self.ptypes.items()}
        if any(any(v) for v in ptypes.values()):
            out["ptypes"] = {k: v for k, v in ptypes.items() if any(v)}
        thtypes = {k: chain_of(d) for k, d in self.thtypes.items()}
        if any(thtypes.values()):
            out["thtypes"] = {k: v for k, v in thtypes.items() if v}
        rgen: dict[str, Any] = {}
        for k, (head, args) in self.rgen.items():
            chains = [chain_of(d) for d in args]
            head_chain = chain_of(head)
            if head_chain is not None and any(chains):
                rgen[k] = [head_chain, chains]
        if rgen:
            out["rgen"] = rgen
        calls = {site.key: found for site in self.sites.values() if (found := site.chains())}
        if calls:
            out["calls"] = calls


def _bound_once(names: list[Desc]) -> str | None:
    """The one symbol or import a name means wherever it was read (``x[KEY]``); None when it is a
    local or differs between reads."""
    chains = set()
    for desc in names:
        binding = bound(desc) if desc is not None else None
        if binding is not None and binding.chain:
            chains.add(binding.chain)
    return chains.pop() if len(chains) == 1 else None


def _lib_type(desc: Desc) -> str | None:
    """``G:ProxyHandler`` for a value of a type TypeScript's lib declares and the file does not bind
    (`const traps: ProxyHandler<T> = { get() {…} }`): the literal's keys are that type's members."""
    if desc is None or desc[0] != "i" or desc[1] is None or desc[1][0] != "n":
        return None
    named = desc[1]
    if bound(named) is not None or lib_type_members(named[2]) is None:
        return None
    return f"{GLOBAL}{named[2]}"
