"""Per-file reference facts for Python: scopes, occurrences and local resolution.

Runs in the parse worker on the ``ast`` tree. Every identifier occurrence that
may mean a project symbol becomes a row ``(name, line, col, end_col, kind,
target, scope)``; ``target`` is a *chain* the linker resolves across files:

    base  := "S:<symbol_path>"            a symbol declared in this file
           | "D:<module>"                 the head of a dotted string ("pkg.mod.name")
           | "I:<level>:<module>:<name>"  what an import binds (empty name: the module)
           | "G:<name>"                   a global bound nowhere here (a star import may provide it)
           | "L:<type>"                   a literal of a builtin type ("", [], {...}, f"...")
           | "U:<n>"                      one of several values: the n-th entry of ``unions`` (typed
                                          when every alternative resolves to the same thing)
           | "O:<n>"                      an operation on the n-th entry of ``unions``: outside the
                                          project when every operand is (no project dunder runs)
           | "F:<name>"                   the pytest fixture a test function's parameter requests
           | "P:<n>"                      a tuple annotated part by part: the n-th entry of ``unions``
                                          holds each part's chain ("" unknown); "#k" takes part k
    chain := base ("/" step)*             step: attribute name, "()" (call result; "()2,cls": with
                                          its shape, two positional arguments and a keyword), "^" (super()),
                                          ";n" after a call's shape: the n-th entry of ``unions`` holds
                                          its positional arguments' chains ("" unknown), which bind a
                                          generic function's type variables (``gparams``),
                                          "=name" (keyword argument of a call: a dataclass-like field),
                                          "*s" / "*m" (a container annotated with these items / values),
                                          "*d" (after ``P:<n>`` of a key and a value: a mapping of both),
                                          "<n" (a generic class given the type arguments the n-th entry
                                          of ``unions`` holds: ``Box[Item]``, by its ``tparams``),
                                          "*f" (a callable annotated to give this: Callable[..., R]),
                                          "@n" (what a decorator gives the n-th parameter of the function
                                          it receives: its own `f: Callable[[A, B], R]` parameter),
                                          "%n" (the declared type of a method's n-th positional
                                          parameter: what an override's unannotated one is given),
                                          "[]" (an item by iteration), "[]#n" (its n-th part), "[i]" (x[k]),
                                          "[n]" (x[n], n a literal int: a tuple's part, else as [i]), "[:]" (x[a:b])

``target`` None means the receiver is unknown: a ``name``-confidence hit.
Positions: 1-based line, 1-based code-point column, end exclusive.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from typing import Any

from astmcp.resolve.python_doctests import run_strings
from astmcp.resolve.python_namespace import (
    globals_parameters,
    keyword_templates,
    listed_strings,
    made_returns,
    module_strings,
    namespace_templates,
    reachable,
    split_strings,
)
from astmcp.resolve.python_pytest import module_aliases, module_displays, pytest_module_marks
from astmcp.resolve.python_records import AttributeString, DoctestName, PatternKeyword, type_guards
from astmcp.resolve.python_runner_names import FIXTURE, namespace_values
from astmcp.resolve.python_scope import (
    Scope,
    decorator_name,
    generic_origin,
    instance_chain,
    is_empty_container,
    is_none,
    returned_values,
)
from astmcp.resolve.python_stmts import Statements
from astmcp.resolve.python_vocab import (
    BUILTINS,
    COPIES,
    DATA_KEY,
    EVOLVES,
    MOCK_CALLS,
    MOCK_PARAMETERS,
    PARTIALS,
    PATH_PATCHERS,
    fixture_call,
    holds_items,
    unknown_items,
)

NAME = "python_refs"
_CONTAINER_STEPS = ("/*s", "/*m", "/*d")


# an argparse parser's methods that store each option into the namespace given, by its name
_ARGPARSE_PARSES = tuple(
    f"/{name}"
    for name in ("parse_args", "parse_known_args", "parse_intermixed_args", "parse_known_intermixed_args")
)


def _mocked(callee: str) -> bool:
    """Whether a callee's chain is a mock's maker or ``configure_mock`` (from ``unittest.mock`` or
    ``mock``): its keywords name attributes."""
    last = re.split(r"[/:]", callee)[-1]
    return last in MOCK_CALLS and "mock" in callee.lower()


class _Analyzer(Statements):
    """Walks one module (the layers: python_binding, python_chains, python_pytest, python_records,
    python_exprs, python_stmts) and turns its pending occurrences into rows."""

    embedded = False  # a program held in a string of the file (python_programs)

    def embedded_rows(self, text: str) -> list[tuple[Any, ...]] | None:
        if self.embedded:
            return None
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            return None
        rows: list[tuple[Any, ...]] = analyze(self.path, text, tree, embedded=True)["refs"]
        return rows

    def finish(self) -> dict[str, Any]:
        self.walking = False
        self.settle_sinks()
        if self.lists_names:
            self.rows.extend(self.affix_tests)
        rows = self.rows
        has_star = bool(self.star)
        for p in self.pending:
            node = p.node
            if isinstance(node, ast.Name):
                # a doctest reads the module's namespace once it has run: its final bindings
                line = 0 if p.kind == "write" or isinstance(node, DoctestName) else p.line
                bound, where = self.lookup(p.scope, p.name, line)
                if not bound:
                    continue  # a local or parameter: no project symbol
                if isinstance(node, DoctestName) and bound.startswith("G:") and p.name not in BUILTINS:
                    bound = "N:" + p.name  # a name the doctest's runner may give (`doctest_namespace`)
                if bound.startswith("G:") and not has_star and p.name in BUILTINS and p.kind != "inherit":
                    continue  # (a builtin base is kept: its members are outside an override family)
                rows.append((p.name, p.line, p.col, p.end, p.kind, bound, p.owner or p.scope.path))
                if where is self.module and p.name in self.alternatives:
                    for other in self.alternatives[p.name]:
                        rows.append((p.name, p.line, p.col, p.end, p.kind, other, p.owner or p.scope.path))
            elif isinstance(node, ast.Call):
                callee = self.chain(p.scope, node.func)
                if callee in PARTIALS and node.args and not isinstance(node.args[0], ast.Starred):
                    callee = self.chain(p.scope, node.args[0])  # `partial(Point, x=1)` passes `x` to Point
                elif callee and callee.endswith("/__init__") and p.kind != "string":
                    # `super().__init__(size=3)`, `Base.__init__(self, size=3)`: a keyword of the class's
                    # construction (a dataclass's field when no `__init__` is written)
                    callee = callee.removesuffix("/__init__")
                first = p.name.split(".", 1)[0]
                if callee and _mocked(callee) and first not in MOCK_PARAMETERS:
                    # `Mock(spec=Svc, fetch=…)`, `patch.multiple(mod, helper=…)`,
                    # `configure_mock(**{"fetch.return_value": 1})`: an attribute set by name
                    rows.append((first, p.line, p.col, p.col + len(first), "string", None, p.scope.path))
                if p.kind == "string":  # a key of a `**kwargs` mapping passed to the call
                    target = f"{callee}/~{p.name}" if callee else None
                    rows.append((p.name, p.line, p.col, p.end, p.kind, target, p.scope.path))
                elif callee == "G:dict" or re.split(r"[/:]", callee or "")[-1] == "SimpleNamespace":
                    # `dict(step=f)` is `{"step": f}`: a key, a name in data (`type("Sub", (Base,),
                    # dict(step=f))` makes a class whose `step` overrides Base's); a SimpleNamespace's
                    # keywords are its attributes (a test's fake standing in for a project object);
                    # a `dict(…)`'s keys are data as a display's are (query.data_keys judges them)
                    key = DATA_KEY if callee == "G:dict" else None
                    rows.append((p.name, p.line, p.col, p.end, "string", key, p.scope.path))
                else:
                    if callee:
                        rows.append(
                            (p.name, p.line, p.col, p.end, p.kind, f"{callee}/={p.name}", p.scope.path)
                        )
                    changed = _replaced(node, callee)
                    if changed is not None:
                        # `info._replace(src=…)`, `dataclasses.replace(p, x=…)`: a field of the object
                        base = self.chain(p.scope, changed)
                        target = f"{base}/{p.name}" if base else None
                        if callee in EVOLVES:  # the constructor's keyword, as `Cls(size=…)`
                            made_by = base.removesuffix("/()").removesuffix("/(i)") if base else ""
                            target = f"{made_by}/={p.name}" if base and made_by != base else None
                        rows.append((p.name, p.line, p.col, p.end, "write", target, p.scope.path))
            elif isinstance(node, AttributeString):
                self.attribute_string_row(p)
            elif isinstance(node, PatternKeyword):  # `case Point(x=0)`: `x` of a Point
                recv = self.instance_of(p.scope, node.cls)
                target = f"{recv}/{p.name}" if recv else None
                rows.append((p.name, p.line, p.col, p.end, p.kind, target, p.scope.path))
            else:
                assert isinstance(node, ast.Attribute)
                recv = self.chain(p.scope, node.value)
                target = f"{recv}/{p.name}" if recv else None
                rows.append((p.name, p.line, p.col, p.end, p.kind, target, p.owner or p.scope.path))
        for at, call, scope in self.arg_rows:
            callee = self.chain(scope, call.func)
            if callee:  # a string given to a call: a data key if the callee is the project's
                rows[at] = (*rows[at][:5], DATA_KEY + callee, rows[at][6])
        for name, line, col, end, otherwise, owner in self.namespace_fields:
            # `"{vchar}+".format(**globals())`: the field reads the module's global, when one is bound
            rows.append((name, line, col, end, "string", self.module.binds.get(name) or otherwise, owner))
        for const in self.all_nodes:
            name = str(const.value)
            line = const.lineno
            end = self.col(line, const.end_col_offset or 0) - 1
            start = end - len(name)
            target = self.module.binds.get(name) or "G:" + name
            # A string the statement holds in a concatenation or with escapes is still found by its text.
            if self.line_text(line)[start - 1 : end - 1] == name:
                rows.append((name, line, start, end, "string", target, ""))
        if self.dynamic:
            top = [name for name, chain in self.module.binds.items() if chain]
            for line, col, end, prefix, suffix, owner, exact, local in self.dynamic:
                names = [name for name, chain in local.binds.items() if chain] if local is not None else top
                rows.extend(
                    (n, line, col, end, "read", None, owner)
                    for n in reachable(names, prefix, suffix)
                    if exact is None or n in exact
                )
        vtypes: dict[str, str] = {}
        rtypes: dict[str, str] = {}
        declared: dict[str, str] = {}
        assigned: dict[str, list[str]] = {}
        emptied: dict[str, list[str]] = {}
        nones: set[str] = set()  # values assigned None
        unknown: set[str] = set()  # module names a function gives a value no chain says (`global`)
        for table, path, node, scope, is_ann in self.deferred_types:
            assert isinstance(node, ast.expr)
            if table == "g":  # `global handler; handler = h` in a function
                if not is_none(node) and not self.chain(scope, node):
                    unknown.add(path)
                table = "v"
            if table == "v" and not is_ann and is_none(node):
                nones.add(path)
                continue
            if table == "b":  # a TypeVar's bound: the variable stands for that class
                chain = self.annotation_chain(scope, node)
            elif table == "a":  # `RegionMap = dict[Layout, Region]`: a type whose "call" makes one
                made = instance_chain(self.annotation_chain(scope, node))
                chain = f"{made}/*f" if made else None
            elif not is_ann and scope.kind == "class" and (getter := self.property_getter(scope, node)):
                chain = getter  # `headers = property(_get, _set)`: an instance reads what `_get` returns
            elif (
                not is_ann
                and scope.kind == "class"
                and isinstance(node, ast.Call)
                and self.fields_made(scope)
            ):
                # `_formatter = field()` of an attrs class: a declaration the decorator turns into
                # an `__init__` parameter; instances hold what they are given, not what field() gives
                unknown.add(path)
                continue
            else:
                chain = (
                    instance_chain(self.annotation_chain(scope, node)) if is_ann else self.chain(scope, node)
                )
            if not chain:
                continue
            if table == "r":
                rtypes.setdefault(path, chain)
            elif is_ann:
                declared.setdefault(path, chain)
            elif is_empty_container(node):
                emptied.setdefault(path, []).append(chain)
            else:
                assigned.setdefault(path, []).append(chain)
        # an annotation declares the type of every value; else the value is any of those assigned
        # (a new empty container, `self._iter = iter(())`, holds none of the other containers' items)
        for path, chains in emptied.items():
            filled = assigned.setdefault(path, [])
            if not filled or not all(c.endswith(_CONTAINER_STEPS) for c in filled):
                filled.extend(chains)
        for path, chains in assigned.items():
            union = self.union(chains) if path not in declared else None
            if union:
                vtypes[path] = self.unchanged(path, union)
        for path in unknown - declared.keys():
            vtypes.pop(path, None)
        vtypes.update(declared)
        kept = sorted(declared)  # values whose annotation says what they are, however set or changed
        only_none = sorted(nones - vtypes.keys())  # given nothing but None
        for path, function, inner in self.returns:
            returned, yielded = returned_values(function)
            if not yielded:
                inferred = self.union([self.chain(inner, v) for v in returned if not is_none(v)])
                if inferred:
                    rtypes.setdefault(path, inferred)
            else:
                # a generator: a sequence of what it yields (known when every value is; a `yield
                # from` is not)
                items = self.union([self.chain(inner, v) for v in yielded if not is_none(v)])
                if items:
                    rtypes.setdefault(path, f"{items}/*s")
        newrets: dict[str, list[str]] = {}
        for path, function, inner in self.new_returns:
            returned, yielded = returned_values(function)
            if returned and not yielded:
                newrets[path] = [self.chain(inner, v) or "" for v in returned]
        otypes: dict[str, list[list[object]]] = {}
        for path, params, method, returns, scope in self.overloads:
            gives = instance_chain(self.annotation_chain(scope, returns)) or ""  # "": unknown
            otypes.setdefault(path, []).append([params, method, gives])
        atypes: dict[str, list[str]] = {}
        for path, annotation, scope in self.receives:
            given = self.callable_params(scope, annotation)
            if given and any(given):
                atypes.setdefault(path, given)
        ptypes: dict[str, list[str]] = {}
        for path, declared_params, scope in self.param_types:
            ptypes[path] = [
                (instance_chain(self.annotation_chain(scope, a)) or "") if a is not None else ""
                for a in declared_params
            ]
        gparams: dict[str, list[list[str] | None]] = {}
        for path, declared_params, scope in self.generic_calls:
            binders = [self.binder(scope, a) for a in declared_params]
            if any(binders):
                gparams[path] = binders
        fixtures: dict[str, str] = {}
        for name, (path, function, inner) in self.fixtures.items():
            # the value of a fixture: what it returns, or yields once
            returned, yielded = returned_values(function)
            if function.returns is not None:
                value: str | None = f"S:{path}/()/[]" if yielded else f"S:{path}/()"
            else:
                value = self.union([self.chain(inner, v) for v in yielded or returned if not is_none(v)])
            if value:
                fixtures[name] = value
        ctypes: dict[str, str] = {}
        for path, function, inner, outer in self.managers:
            # what `with f() as x` gives x: the item of the annotated iterator, or what f yields
            if function.returns is not None:
                made = instance_chain(self.annotation_chain(outer, function.returns))
                entered = f"{made}/[]" if made else None
            else:
                _, yielded = returned_values(function)
                entered = self.union([self.chain(inner, v) for v in yielded if not is_none(v)])
            if entered:
                ctypes[path] = entered
        bases = {
            path: [self.chain(self.base_scopes[path], generic_origin(b)) or "" for b in exprs]
            for path, exprs in self.bases.items()
        }
        tparams = {
            path: found
            for path, exprs in self.bases.items()
            if (found := self.type_parameters(self.base_scopes[path], exprs))
        }
        binds = {k: v for k, v in self.module.binds.items() if v.startswith("I:")}
        rebound = self.rebound(rows)
        redefined = self.redefined(rows, rebound)
        changes: set[str] = set()
        fills: set[tuple[str, str]] = set()
        for scope, node, filler in self.changed_elsewhere:
            container = self.chain(scope, node)
            if container:
                value = self.filled_chain(*filler, scope, None) if filler is not None else None
                if value:
                    fills.add((container, value))
                else:
                    changes.add(container)
        stores = sorted(
            {
                (target, (self.chain(scope, value) or "") if value is not None else "")
                for scope, node, value in self.attribute_stores
                if (target := self.chain(scope, node))
            }
            | set(self.path_stores())
        )
        casts = sorted(
            {
                (kind, value)
                for scope, kind_node, value_node in self.casts
                if (kind := self.annotation_chain(scope, kind_node))
                and (value := self.chain(scope, value_node))
            }
        )
        # the values a class imported by absolute name is made of (an outside class may keep one:
        # itsdangerous's `URLSafeTimedSerializer(serializer=…)`)
        passes = sorted(
            {
                (callee, key, value)
                for scope, callee_node, key, value_node in self.passes
                if (
                    (
                        (callee := self.chain(scope, callee_node) or "").startswith("I:0:")
                        and "/" not in callee.partition(":/")[2]  # `pkg.Cls`, `mod.Cls`: no call's, member's
                        and "/" not in callee.partition(":/")[0][4:]
                    )
                    or callee == "G:print"  # `print(…, file=out)` calls `out.write`
                    # `parser.parse_args(argv, namespace=opts)` sets opts's attributes by name
                    or (key == "=namespace" and callee.endswith(_ARGPARSE_PARSES))
                    # `handler.addFilter(f)`: a logging filterer calls `f.filter` per record
                    or (callee.startswith("I:0:logging:") and callee.endswith("/addFilter"))
                )
                and (value := self.chain(scope, value_node) or "")
                and not value.startswith("L:")
            }
        )
        # places reaching attributes by a name made at run time: the receiver's chain ("": any)
        dynsites = sorted(
            {
                (line, (self.chain(scope, receiver) or "") if receiver is not None else "")
                for scope, receiver, line in self.dynamic_sites
            }
        )
        # `f.__name__` of something that may be a function (a module's, a class's is left out)
        namesites = sorted(
            {
                (line, (self.chain(scope, receiver) or "") if receiver is not None else "")
                for scope, receiver, line in self.name_sites
            }
        )
        return {
            "refs": rows,
            "binds": binds,
            "star": self.star,
            "starat": self.star_lines,
            "all": self.all_names,
            "vtypes": vtypes,
            "rtypes": rtypes,
            "bases": bases,
            **({"otypes": otypes} if otypes else {}),
            **({"selfrets": self.self_returns} if self.self_returns else {}),
            **({"dtypes": self.decorated} if self.decorated else {}),
            **({"atypes": atypes} if atypes else {}),
            **({"ptypes": ptypes} if any(any(v) for v in ptypes.values()) else {}),
            **({"unions": self.unions} if self.unions else {}),
            **({"fixtures": fixtures} if fixtures else {}),
            **({"ctypes": ctypes} if ctypes else {}),
            **({"generates": True} if self.generates else {}),
            **({"doctestns": self.runner_names()} if self.runner_values else {}),
            **({"okwargs": self.opaque_kwargs} if self.opaque_kwargs else {}),
            **({"probes": self.probes} if self.probes else {}),
            **({"nfields": self.tuple_fields} if self.tuple_fields else {}),
            **({"gparams": gparams} if gparams else {}),
            **({"tparams": tparams} if tparams else {}),
            **({"tvars": self.type_vars} if self.type_vars else {}),
            **({"changes": sorted(changes)} if changes else {}),
            **({"fills": sorted(fills)} if fills else {}),
            **({"stores": [list(pair) for pair in stores]} if stores else {}),
            **({"casts": [list(pair) for pair in casts]} if casts else {}),
            **({"passes": [list(given) for given in passes]} if passes else {}),
            **({"vkept": kept} if kept else {}),
            **({"vnone": only_none} if only_none else {}),
            **({"rtmods": sorted(self.runtime_modules)} if self.runtime_modules else {}),
            **({"rebound": rebound} if rebound else {}),
            **({"redefs": redefined} if redefined else {}),
            **({"newother": sorted(set(self.new_others))} if self.new_others else {}),
            **({"newrets": newrets} if newrets else {}),
            **({"keepers": sorted(set(self.keepers))} if self.keepers else {}),
            **({"keepmakers": sorted(set(self.keeper_makers))} if self.keeper_makers else {}),
            **(
                {"cdecos": {k: v for k, v in self.class_decorators.items() if v}}
                if any(self.class_decorators.values())
                else {}
            ),
            **({"metas": self.metaclasses} if self.metaclasses else {}),
            **({"dynsites": [list(site) for site in dynsites]} if dynsites else {}),
            **({"namesites": [list(site) for site in namesites]} if namesites else {}),
        }

    def fields_made(self, scope: Scope) -> bool:
        """Whether the class ``scope`` may have its instances' attributes made from its class
        attributes by a decorator (attrs' ``@define``, ``@attr.s``, a project's own): any decorator
        but those known to leave the class as written."""
        return any(
            decorator_name(d) not in _PLAIN_CLASS_DECORATORS for d in self.class_marks.get(scope.path, ())
        )

    def property_getter(self, scope: Scope, node: ast.expr) -> str | None:
        """What a class attribute made by calling a builtin descriptor gives when read: the return
        of the getter of ``property(fget, …)`` (or ``property(fget=…)``) and of
        ``functools.cached_property(f)``, the function ``classmethod(f)``/``staticmethod(f)`` wraps."""
        if not isinstance(node, ast.Call):
            return None
        callee = self.chain(scope, node.func)
        if callee not in _DESCRIPTOR_CALLS:
            return None
        keyword = next((k.value for k in node.keywords if k.arg == "fget"), None)
        given = node.args[0] if node.args else keyword
        if given is None or isinstance(given, ast.Starred):
            return None
        found = self.chain(scope, given)
        if not found:
            return None
        return found if callee in ("G:classmethod", "G:staticmethod") else f"{found}/()"

    def runner_names(self) -> dict[str, str]:
        """A conftest's ``doctest_namespace`` names → the chain of the value each is given ("": a
        value not known, or given twice with two meanings)."""
        names: dict[str, str] = {}
        for name, value in self.runner_values:
            chain = self.chain(self.module, value) or ""
            names[name] = chain if names.get(name, chain) == chain else ""
        return names

    def rebound(self, rows: list[Any]) -> list[str]:
        """The functions and classes whose name is bound again (`make = lambda: B()` or a second
        `def make`, an import as `make`, `self.run = …` over a method): a call of the name may run
        something else. The bindings at ``accessor_lines`` keep what the name held."""
        defined = {str(target)[2:] for _, _, _, _, kind, target, _ in rows if kind == "definition" and target}
        bound: dict[str, set[int]] = {}  # path -> lines binding it, its definitions and writes
        for _, line, _, _, kind, target, _ in rows:
            if kind in ("write", "definition") and target and str(target)[2:] in defined:
                bound.setdefault(str(target)[2:], set()).add(line)
        for path in defined:
            bound.setdefault(path, set()).update(self.binding_lines.get(_scope_and_name(path), ()))
        return sorted(
            path
            for path, lines in bound.items()
            if len({line for line in lines if (*_scope_and_name(path), line) not in self.accessor_lines}) > 1
        )

    def redefined(self, rows: list[Any], rebound: list[str]) -> list[str]:
        """Those ``rebound`` names bound only by definitions (``if PY3: def f(): … else: def f():
        …``): a call runs one of them, whose returns are known."""
        lines: dict[str, set[int]] = {}
        for _, line, _, _, kind, target, _ in rows:
            if kind == "definition" and target and str(target)[2:] in rebound:
                lines.setdefault(str(target)[2:], set()).add(line)
        return sorted(
            path
            for path in rebound
            if {
                line
                for line in self.binding_lines.get(_scope_and_name(path), ())
                if (*_scope_and_name(path), line) not in self.accessor_lines
            }
            <= lines.get(path, set())
            and not any(
                kind == "write" and target and str(target)[2:] == path for _, _, _, _, kind, target, _ in rows
            )
            and self.same_returns(path)
        )

    def same_returns(self, path: str) -> bool:
        """Whether every definition of the function ``path`` gives the same known thing (its
        annotation, else what it returns): the file's return fact then holds for any of them."""
        chains: set[str] = set()
        for entry in self.def_returns.get(path, [None]):
            if entry is None:
                return False
            node, scope, annotated = entry
            if annotated:
                assert isinstance(node, ast.expr)
                chain = instance_chain(self.annotation_chain(scope, node))
            else:
                assert isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
                returned, yielded = returned_values(node)
                chain = (
                    None
                    if yielded
                    else self.union([self.chain(scope, v) for v in returned if not is_none(v)])
                )
            if not chain:
                return False
            chains.add(chain)
        return len(chains) == 1

    def path_stores(self) -> Iterator[tuple[str, str]]:
        """``mock.patch("pkg.m.make", fake)``, ``monkeypatch.setattr("pkg.m.make", fake)``: a store
        into the object at that path (``D:`` chain), of the value given (else unknown)."""
        for scope, call in self.path_patches:
            first = call.args[0]
            if (
                not isinstance(first, ast.Constant)
                or fixture_call(self.chain(scope, call.func)) not in PATH_PATCHERS
            ):
                continue
            given = call.args[1] if len(call.args) > 1 else None
            callee = fixture_call(self.chain(scope, call.func))
            if (
                given is None
                and callee != "F:monkeypatch/setattr"
                and not any(k.arg in (None, "new", "new_callable") for k in call.keywords)
            ):
                continue  # a mock standing in for the object (python_chains.patched): as it is
            value = (
                self.chain(scope, given) if given is not None and not isinstance(given, ast.Starred) else None
            )
            yield "D:" + str(first.value).replace(".", "/"), value or ""

    def unchanged(self, path: str, chain: str) -> str:
        """The chain of a container variable or attribute as far as its values show it: one
        changed in place in the module (`HANDLERS["b"] = B` after `HANDLERS = {"a": A}`) holds
        items its displays do not show: a container of unknown items."""
        owner, _, name = path.rpartition(".")
        key = "A:" + name if owner else "N:" + name
        if key in self.changed:
            return unknown_items(chain)
        fills = self.fills.get(key)
        if not fills or not holds_items(chain):
            return chain  # (`self.s1[0] = "b"` of a project sequence: its own `__setitem__`)
        # (`self.items = [Doc()]`, `self.items.append(make())`: a list of either)
        made = [self.filled_chain(how, value, scope, chain) for how, value, scope in fills]
        if None in made:
            return unknown_items(chain)
        return self.union([chain, *made]) or unknown_items(chain)

    def filled_chain(self, how: str, value: ast.expr, scope: Scope, container: str | None) -> str | None:
        """The chain of a container holding ``value`` as a ``how`` change (Bindings.fills) puts it
        in one whose chain is ``container`` (an index or key's kind of container: unknown when
        ``container`` is None)."""
        made = self.chain(scope, value)
        if not made:
            return None
        if how == "fill*":
            return f"{made}/[]/*s"
        if how == "fill[]":
            if container is None:
                return None
            return f"{made}/*m" if container.endswith(("/*m", "/*d")) else f"{made}/*s"
        return f"{made}/*s"


# class decorators that leave the class's attributes as written (`@dataclass` takes only annotated
# fields, whose annotations say what instances hold)
_PLAIN_CLASS_DECORATORS = frozenset(
    {"dataclass", "total_ordering", "final", "runtime_checkable", "unique", "add_metaclass", "verify"}
)
# builtin descriptors a class body may make by a call (`headers = property(_get, _set)`)
_DESCRIPTOR_CALLS = frozenset(
    {
        "G:property",
        "G:classmethod",
        "G:staticmethod",
        "I:0:functools:cached_property",  # `from functools import cached_property`
        "I:0:functools:/cached_property",  # `import functools`
    }
)


def _scope_and_name(path: str) -> tuple[str, str]:
    """``K.make`` -> ``("K", "make")``, ``make`` -> ``("", "make")``."""
    scope, _, name = path.rpartition(".")
    return scope, name


def analyze(path: str, text: str, tree: ast.Module, embedded: bool = False) -> dict[str, Any]:
    """Reference facts of one parsed file (see the module docstring for the format); of a
    program a string of it holds when ``embedded`` (whose strings are not read as programs)."""
    analyzer = _Analyzer(path, text)
    analyzer.embedded = embedded
    analyzer.module_marks = pytest_module_marks(tree)
    if "parametrize" in text:
        analyzer.module_aliases = module_aliases(tree)
    analyzer.guards = type_guards(tree)
    analyzer.module_strings = module_strings(tree)
    if "return" in text and ("attr(" in text or "methodcaller" in text):  # getattr(x, f(…))
        analyzer.made_returns = made_returns(tree, analyzer.module_strings)
    if "for " in text:
        analyzer.listed_strings = listed_strings(tree)
    if "__doc__" in text or "__test__" in text:
        analyzer.run_strings = run_strings(tree)
    if "globals()" in text:
        analyzer.globals_params = globals_parameters(tree)
    analyzer.word_lists.update(id(node) for node in split_strings(tree))
    if ".format(" in text:  # (a walk of the whole tree: only where a template may be)
        analyzer.keyword_templates = keyword_templates(tree)
    if "globals()" in text or "vars()" in text or "locals()" in text:
        analyzer.namespace_templates = namespace_templates(tree)
    analyzer.sink_messages(tree)
    if "__repr__" in text:
        analyzer.sink_reprs(tree)
    if analyzer.test_file:
        analyzer.displays = module_displays(tree)
    if FIXTURE in text and path.rpartition("/")[2] == "conftest.py":
        analyzer.runner_values = namespace_values(tree)
    analyzer.generates = any(
        isinstance(stmt, ast.FunctionDef) and stmt.name == "pytest_generate_tests" for stmt in tree.body
    )
    analyzer.body(tree.body, analyzer.module, True)
    return analyzer.finish()


def _replaced(call: ast.Call, callee: str | None) -> ast.expr | None:
    """The object whose fields a call's keywords name: ``x`` of ``x._replace(…)`` (a named tuple's
    changed copy) and of ``dataclasses.replace(x, …)`` / ``copy.replace(x, …)``."""
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr == "_replace":
        return func.value
    if callee in COPIES and call.args and not isinstance(call.args[0], ast.Starred):
        return call.args[0]
    return None
