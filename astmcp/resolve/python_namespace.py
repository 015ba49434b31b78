"""Reads of a module's own namespace by a computed key.

``globals()[f"_{name}"]`` (a module ``__getattr__`` serving deprecated aliases), ``globals().get(key)``,
``vars()[key]`` at module level and ``getattr(sys.modules[__name__], key)`` may reach any top-level
name of the module whose name fits the key's literal parts: each such name gets a name hit there, so
renaming it is never silent. A literal key (``globals()["x"]``) is a plain string, already a hit.

A member name computed the same way (``getattr(self, f"visit_{type(node).__name__}")``) may be any
member whose name fits, in any file: ``member_template`` stores it for the query to match.
"""

from __future__ import annotations

import ast
import string
from collections import Counter
from collections.abc import Callable

from astmcp.resolve.python_keys import KEY_METHODS
from astmcp.resolve.python_scope import func_name, returned_values
from astmcp.resolve.templates import FOLDS, template_target

# what `sys.modules` is to the fact pass's chains (`import sys` / `from sys import modules`)
SYS_MODULES = frozenset({"I:0:sys:/modules", "I:0:sys:modules"})


def namespace_key(
    node: ast.Subscript | ast.Call,
    builtin: Callable[[str], bool],
    chain: Callable[[ast.expr], str | None],
    module_level: bool,
) -> tuple[str, str] | None:
    """The literal prefix and suffix a computed key of a namespace read must have (``f"_{name}"``:
    ``("_", "")``; any other expression: ``("", "")``), or None when ``node`` is no such read.
    ``builtin(name)``: the name means the builtin here; ``chain``: an expression's chain."""
    if isinstance(node, ast.Subscript):
        if not isinstance(node.ctx, ast.Load) or not _is_namespace(node.value, builtin, chain, module_level):
            return None
        return _key_pattern(node.slice)
    func = node.func
    if isinstance(func, ast.Attribute) and func.attr in KEY_METHODS:
        namespace, args = func.value, node.args
    elif isinstance(func, ast.Name) and func.id == "getattr" and builtin("getattr") and node.args:
        namespace, args = node.args[0], node.args[1:]
        if not _is_module_object(namespace, chain):
            return None
    else:
        return None
    if not args or isinstance(args[0], ast.Starred):
        return None
    if not _is_namespace(namespace, builtin, chain, module_level) and not _is_module_object(namespace, chain):
        return None
    return _key_pattern(args[0])


def _is_namespace(
    node: ast.expr,
    builtin: Callable[[str], bool],
    chain: Callable[[ast.expr], str | None],
    module_level: bool,
) -> bool:
    """``globals()``, or ``vars()`` / ``locals()`` where they are the module's namespace."""
    if not (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.args and not node.keywords
    ):
        return False
    name = node.func.id
    return (name == "globals" or (module_level and name in ("vars", "locals"))) and builtin(name)


def _is_module_object(node: ast.expr, chain: Callable[[ast.expr], str | None]) -> bool:
    """``sys.modules[__name__]``: the module itself."""
    return (
        isinstance(node, ast.Subscript)
        and isinstance(node.slice, ast.Name)
        and node.slice.id == "__name__"
        and chain(node.value) in SYS_MODULES
    )


def _key_pattern(key: ast.expr) -> tuple[str, str] | None:
    if isinstance(key, ast.Constant):
        return None  # a literal: the string rule finds it (a non-string key names no symbol)
    if isinstance(key, ast.JoinedStr):
        parts = key.values
        prefix = _literal(parts[0]) if parts else ""
        suffix = _literal(parts[-1]) if len(parts) > 1 else ""
        return prefix, suffix
    if isinstance(key, ast.BinOp) and isinstance(key.op, ast.Add):  # `"_" + name`
        prefix = _literal(key.left)
        suffix = _literal(key.right)
        return ("", "") if prefix and suffix else (prefix, suffix)
    return "", ""


def _literal(node: ast.expr) -> str:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else ""


def reachable(names: list[str], prefix: str, suffix: str) -> list[str]:
    """The names a key with these literal parts may be."""
    least = len(prefix) + len(suffix)
    return [n for n in names if len(n) >= least and n.startswith(prefix) and n.endswith(suffix)]


def module_strings(tree: ast.Module) -> dict[str, str]:
    """The module's names bound once, at its top level, to a string (``PREFIX = "on_"``); and, as
    ``.NAME``, class attributes its classes bind to a string, when they agree (``self.PREFIX``)."""
    found = {name: str(node.value) for name, node in module_string_nodes(tree).items()}
    seen: dict[str, set[str]] = {}
    for cls in ast.walk(tree):
        if isinstance(cls, ast.ClassDef):
            for stmt in cls.body:
                target = stmt.targets[0] if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 else None
                if isinstance(stmt, ast.AnnAssign):
                    target = stmt.target
                value = stmt.value if isinstance(stmt, ast.Assign | ast.AnnAssign) else None
                if (
                    isinstance(target, ast.Name)
                    and isinstance(value, ast.Constant)
                    and type(value.value) is str
                ):
                    seen.setdefault(target.id, set()).add(value.value)
    found.update({f".{name}": values.pop() for name, values in seen.items() if len(values) == 1})
    return found


def split_strings(tree: ast.Module) -> list[ast.Constant]:
    """The module-level string constants split into words somewhere (``FIELDS = "title author"``
    with ``FIELDS.split()``)."""
    nodes = module_string_nodes(tree)
    return [
        nodes[node.func.value.id]
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "split"
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id in nodes
    ]


# translation calls handing their message (or the one picked by count) on unchanged
_TRANSLATORS = frozenset(
    {"_", "gettext", "ngettext", "pgettext", "npgettext", "lazy_gettext", "gettext_lazy", "ngettext_lazy"}
)


def keyword_templates(tree: ast.Module) -> dict[int, frozenset[str]]:
    """Format templates whose fields the ``.format`` call applied to them gives by explicit
    keywords (``"Did you mean {possibility}?".format(possibility=s)``, also through a translation
    call, ``ngettext("… {x}", "… {xs}", n).format(x=a, xs=b)``): each string by id, with those
    keywords. A field named so is that keyword, never an attribute or a mapping's key. None for a
    call that also unpacks a mapping (``**vars(self)``) or passes positional values."""
    out: dict[int, frozenset[str]] = {}
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "format"
            and not node.args
            and node.keywords
            and all(k.arg is not None for k in node.keywords)
        ):
            continue
        names = frozenset(k.arg for k in node.keywords if k.arg is not None)
        template = node.func.value
        strings: list[ast.expr] = [template]
        if isinstance(template, ast.Call):
            strings = list(template.args) if func_name(template.func) in _TRANSLATORS else []
        for value in strings:
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                out[id(value)] = names
    return out


def namespace_templates(tree: ast.Module) -> dict[int, tuple[int, frozenset[str]]]:
    """Templates filled from the module's own namespace: ``"{vchar}+".format(**globals())``,
    ``.format_map(globals())``, ``"%(name)s" % globals()`` (``vars()`` / ``locals()`` in a
    module-level statement too). A field they name (not one a keyword of the call gives) reads the
    module's global of that name, as the code would. Each string by id, with the placeholder form
    its fields take (``_PLACEHOLDER``'s group: 1 ``%(name)``, 2 ``{name}``) and the keywords the
    call gives by name. None where those names are rebound in the module, or the call unpacks
    another mapping too."""
    rebound = (
        {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
        | {
            n.name
            for n in ast.walk(tree)
            if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        }
        | {
            (a.asname or a.name).partition(".")[0]
            for n in ast.walk(tree)
            if isinstance(n, ast.Import | ast.ImportFrom)
            for a in n.names
        }
    )

    def namespace(node: ast.expr, module_level: bool) -> bool:
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)) or node.args or node.keywords:
            return False
        name = node.func.id
        return name not in rebound and (name == "globals" or (module_level and name in ("vars", "locals")))

    out: dict[int, tuple[int, frozenset[str]]] = {}
    pending: list[tuple[ast.AST, bool]] = [(tree, True)]
    while pending:
        node, module_level = pending.pop()
        for child in ast.iter_child_nodes(node):
            nested = isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef)
            pending.append((child, module_level and not nested))
        template: ast.expr | None = None
        form, given = 2, frozenset[str]()
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            unpacked = [k.value for k in node.keywords if k.arg is None]
            if node.func.attr == "format" and len(unpacked) == 1 and namespace(unpacked[0], module_level):
                template = node.func.value
                given = frozenset(k.arg for k in node.keywords if k.arg is not None)
            elif (
                node.func.attr == "format_map"
                and len(node.args) == 1
                and not node.keywords
                and namespace(node.args[0], module_level)
            ):
                template = node.func.value
        elif (
            isinstance(node, ast.BinOp)
            and isinstance(node.op, ast.Mod)
            and namespace(node.right, module_level)
        ):
            template, form = node.left, 1
        if isinstance(template, ast.Constant) and isinstance(template.value, str):
            out[id(template)] = (form, given)
    return out


def module_string_nodes(tree: ast.Module) -> dict[str, ast.Constant]:
    """The strings the module's names bound once at its top level hold (``PREFIX = "on_"``,
    ``PREFIX: Final = "on_"``)."""
    stores = Counter(
        node.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del)
    )
    found: dict[str, ast.Constant] = {}
    for stmt in tree.body:
        target = (
            stmt.targets[0]
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
            else stmt.target
            if isinstance(stmt, ast.AnnAssign)
            else None
        )
        value = stmt.value if isinstance(stmt, ast.Assign | ast.AnnAssign) else None
        if (
            isinstance(target, ast.Name)
            and isinstance(value, ast.Constant)
            and type(value.value) is str
            and stores[target.id] == 1
        ):
            found[target.id] = value
    return found


def _known_string(part: ast.expr, strings: dict[str, str]) -> ast.expr:
    """A part of a made name that is a known string constant (``PREFIX``, ``self.PREFIX``), as
    that string."""
    if isinstance(part, ast.Name) and part.id in strings:
        return ast.Constant(strings[part.id])
    if isinstance(part, ast.Attribute) and f".{part.attr}" in strings:
        return ast.Constant(strings[f".{part.attr}"])
    return part


_FOLDS = {"lower": "l", "casefold": "l", "upper": "u"}


def folded(key: ast.expr) -> tuple[ast.expr, str]:
    """``made.lower()`` as (``made``, ``"l"``), ``.upper()`` with ``"u"``; any other key as
    itself, unfolded."""
    if (
        isinstance(key, ast.Call)
        and isinstance(key.func, ast.Attribute)
        and key.func.attr in _FOLDS
        and not key.args
        and not key.keywords
    ):
        return key.func.value, _FOLDS[key.func.attr]
    return key, ""


def member_template(key: ast.expr, strings: dict[str, str] | None = None, fold: str = "") -> str | None:
    """The stored target of a computed member name (``f"visit_{name}"``, ``"do_" + cmd``,
    ``"visit_%s" % cls.__name__``, ``"_process_{cls}".format(cls=…)``, ``PREFIX + cmd`` with
    ``strings`` giving the module's string constants), or None: a literal, no literal parts, or
    too short ones. ``fold`` (``l``/``u``): the whole made name is lower- or upper-cased after
    (``getattr(self, name.lower())``), as a ``.lower()`` on ``key`` says too."""
    key, outer = folded(key)
    fold = fold or outer
    if isinstance(key, ast.JoinedStr):
        parts: list[ast.expr] = list(key.values)
        if strings:  # `f"{PREFIX}{evt}"`
            parts = [
                ast.Constant(strings[p.value.id])
                if isinstance(p, ast.FormattedValue)
                and isinstance(p.value, ast.Name)
                and p.value.id in strings
                else p
                for p in parts
            ]
    elif (  # `"on_{}".format(evt)`, `"{}_{}".format("on", evt)`, `"_process_{cls}".format(cls=…)`
        isinstance(key, ast.Call)
        and isinstance(key.func, ast.Attribute)
        and key.func.attr == "format"
        and isinstance(key.func.value, ast.Constant)
        and isinstance(key.func.value.value, str)
    ):
        found = _format_parts(key.func.value.value, key)
        if found is None:
            return None
        parts = found
    elif (  # `"_".join(("on", evt))`
        isinstance(key, ast.Call)
        and isinstance(key.func, ast.Attribute)
        and key.func.attr == "join"
        and isinstance(key.func.value, ast.Constant)
        and isinstance(key.func.value.value, str)
        and len(key.args) == 1
        and isinstance(key.args[0], ast.Tuple | ast.List)
        and key.args[0].elts
    ):
        parts = []
        for n, item in enumerate(key.args[0].elts):
            parts += [ast.Constant(key.func.value.value), item] if n else [item]
    elif isinstance(key, ast.BinOp) and isinstance(key.op, ast.Add):
        parts = _added(key)
    elif (
        isinstance(key, ast.BinOp)
        and isinstance(key.op, ast.Mod)
        and isinstance(key.left, ast.Constant)
        and isinstance(key.left.value, str)
        and key.left.value.count("%") == 1
        and "%s" in key.left.value
    ):
        before, _, after = key.left.value.partition("%s")
        parts = [ast.Constant(before), key.right, ast.Constant(after)]
    else:
        return None
    if strings:
        parts = [_known_string(p, strings) for p in parts]
    parts = _merged(parts)
    if all(isinstance(p, ast.Constant) for p in parts):
        return None
    prefix = _literal(parts[0])
    suffix = _literal(parts[-1]) if len(parts) > 1 else ""
    middle = [p for p in parts if not isinstance(p, ast.Constant)]
    if len(middle) != 1:
        return None
    value, inner = folded(middle[0].value if isinstance(middle[0], ast.FormattedValue) else middle[0])
    named = isinstance(value, ast.Attribute) and value.attr in ("__name__", "__qualname__")
    if fold:  # the literal parts are cased with the rest
        prefix, suffix = FOLDS[fold](prefix), FOLDS[fold](suffix)
    return template_target(prefix, suffix, named, fold or inner)


def made_returns(tree: ast.Module, strings: dict[str, str]) -> dict[str, ast.expr]:
    """Functions and methods of the module (by name) whose one ``return`` gives a made member
    name (``def _cls_to_func(cls, name): return "render_{}".format(snake(name))``): a call of one
    (``getattr(self, self._cls_to_func(token.__name__))``) makes such a name too. A name defined
    twice counts only when every definition returns the same kind of name."""
    found: dict[str, ast.expr] = {}
    dropped: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) or node.name in dropped:
            continue
        returned, yielded = returned_values(node)
        value = returned[0] if len(returned) == 1 and not yielded else None
        target = member_template(value, strings) if value is not None else None
        earlier = found.get(node.name)
        if target is None or (earlier is not None and member_template(earlier, strings) != target):
            dropped.add(node.name)
            found.pop(node.name, None)
        elif value is not None:
            found[node.name] = value
    return found


def _format_parts(template: str, call: ast.Call) -> list[ast.expr] | None:
    """The parts ``template.format(…)`` joins: its literal text and the arguments its fields
    take (``{}``, ``{0}``, ``{cls}``); None for a field that converts (``{!r}``), formats
    (``{:>8}``) or reads into its argument (``{0.name}``), or takes an argument not given."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    named = {k.arg: k.value for k in call.keywords if k.arg is not None}
    try:
        pieces = list(string.Formatter().parse(template))
    except ValueError:
        return None
    parts: list[ast.expr] = []
    auto = 0
    for literal, field, spec, conversion in pieces:
        parts.append(ast.Constant(literal))
        if field is None:
            continue
        if spec or conversion not in (None, "s"):
            return None
        if field == "":
            field, auto = str(auto), auto + 1
        value = (
            (call.args[int(field)] if int(field) < len(call.args) else None)
            if field.isdigit()
            else named.get(field)
        )
        if value is None:
            return None
        parts.append(value)
    return parts


def _merged(parts: list[ast.expr]) -> list[ast.expr]:
    """``parts`` with neighbouring string constants joined (``"on" "_" evt`` -> ``"on_" evt``)."""
    out: list[ast.expr] = []
    for part in parts:
        if (
            out
            and isinstance(part, ast.Constant)
            and isinstance(part.value, str)
            and isinstance(out[-1], ast.Constant)
            and isinstance(out[-1].value, str)
        ):
            out[-1] = ast.Constant(out[-1].value + part.value)
        else:
            out.append(part)
    return out


def _added(node: ast.expr) -> list[ast.expr]:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _added(node.left) + _added(node.right)
    return [node]


def self_templates(func: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """The computed member names a method reads from its own object (``getattr(self, name)``
    with ``name = "visit_" + node.__class__.__name__`` or the template in place): stored targets
    as ``member_template`` gives them."""
    params = func.args.posonlyargs + func.args.args
    return computed_reads(func, {params[0].arg}) if params else set()


def parameter_templates(func: ast.FunctionDef | ast.AsyncFunctionDef, method: bool) -> set[str]:
    """The computed member names a function reads from an object it is given (arpeggio's
    ``ParseTreeNode.visit(self, visitor)`` calls ``getattr(visitor, "visit_%s" % self.rule_name)``),
    a method's own object (``self``) aside: as ``member_template`` gives them."""
    params = func.args.posonlyargs + func.args.args + func.args.kwonlyargs
    given = {a.arg for a in params[1:]} if method else {a.arg for a in params}
    return computed_reads(func, given) if given else set()


def computed_reads(func: ast.FunctionDef | ast.AsyncFunctionDef, receivers: set[str]) -> set[str]:
    """The computed member names ``func`` reads (``getattr``, ``hasattr``) off the variables
    ``receivers`` (a name made in place, or assigned once in the function before)."""
    assigned: dict[str, list[ast.expr]] = {}
    calls: list[ast.Call] = []
    for node in ast.walk(func):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            assigned.setdefault(node.targets[0].id, []).append(node.value)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "hasattr")
            and len(node.args) >= 2
            and isinstance(node.args[0], ast.Name)
            and node.args[0].id in receivers
        ):
            calls.append(node)
    found = set()
    for call in calls:
        key, fold = folded(call.args[1])
        if isinstance(key, ast.Name) and len(assigned.get(key.id, ())) == 1:
            key = assigned[key.id][0]
        target = member_template(key, None, fold)
        if target is not None:
            found.add(target)
    return found


def listed_strings(tree: ast.Module) -> dict[str, frozenset[str]]:
    """Lists of names a module keeps whole: a module-level name (``N:<name>``) or a class's
    attribute set on ``self`` (``A:<Class>.<attr>``) bound only to displays of string literals
    (``self._options = ["start", "end"]``) and never changed in place, augmented or stored into
    (no method is called on it anywhere, under any receiver; it is read only whole). A loop over
    one holds one of those strings (``for attr in self._options``)."""
    out: dict[str, set[str]] = {}
    spoiled: set[str] = set()
    module_names: set[str] = set()
    for stmt in tree.body:
        for target, value in _bindings(stmt):
            if isinstance(target, ast.Name):
                module_names.add(target.id)
                _listed(out, spoiled, f"N:{target.id}", value)
    for cls in ast.walk(tree):
        if not isinstance(cls, ast.ClassDef):
            continue
        for method in cls.body:
            if not isinstance(method, ast.FunctionDef | ast.AsyncFunctionDef) or not method.args.args:
                continue
            me = method.args.args[0].arg
            for node in ast.walk(method):
                for target, value in _bindings(node):
                    if (
                        isinstance(target, ast.Attribute)
                        and isinstance(target.value, ast.Name)
                        and target.value.id == me
                    ):
                        _listed(out, spoiled, f"A:{cls.name}.{target.attr}", value)
    # anything calling a method on such a list, augmenting it or storing into it spoils it, under
    # any receiver (`other._options.append(x)`); so does a name bound other than at the top level
    attrs_changed: set[str] = set()
    names_changed: set[str] = set()
    for node in ast.walk(tree):
        changed: ast.expr | None = None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            changed = node.func.value
        elif isinstance(node, ast.AugAssign):
            changed = node.target
        elif isinstance(node, ast.Subscript) and not isinstance(node.ctx, ast.Load):
            changed = node.value
        elif isinstance(node, ast.Global | ast.Nonlocal):
            names_changed.update(node.names)
        if isinstance(changed, ast.Attribute):
            attrs_changed.add(changed.attr)
        elif isinstance(changed, ast.Name):
            names_changed.add(changed.id)
    found: dict[str, frozenset[str]] = {}
    for key, values in out.items():
        kind, _, rest = key.partition(":")
        name = rest.rpartition(".")[2]
        if (
            key in spoiled
            or (kind == "A" and name in attrs_changed)
            or (kind == "N" and name in names_changed)
        ):
            continue
        found[key] = frozenset(values)
    return found


def _bindings(node: ast.AST) -> list[tuple[ast.expr, ast.expr | None]]:
    if isinstance(node, ast.Assign):
        return [(t, node.value) for t in node.targets]
    if isinstance(node, ast.AnnAssign):
        return [(node.target, node.value)]
    if isinstance(node, ast.AugAssign):
        return [(node.target, None)]
    return []


def _listed(out: dict[str, set[str]], spoiled: set[str], key: str, value: ast.expr | None) -> None:
    items = value.elts if isinstance(value, ast.List | ast.Tuple | ast.Set) else None
    if items is None or not all(isinstance(i, ast.Constant) and type(i.value) is str for i in items):
        spoiled.add(key)
        return
    out.setdefault(key, set()).update(str(i.value) for i in items if isinstance(i, ast.Constant))


def globals_parameters(tree: ast.Module) -> set[tuple[str, str]]:
    """``(function, parameter)`` of the module's top-level functions given the module's own
    namespace at a call in it (``_warn(name, module_globals=globals())``, or positionally): the
    parameter is ``globals()`` there, its computed keys module-level names."""
    params: dict[str, list[str]] = {
        stmt.name: [a.arg for a in (*stmt.args.posonlyargs, *stmt.args.args)]
        for stmt in tree.body
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef)
    }
    found: set[tuple[str, str]] = set()
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in params):
            continue
        names = params[node.func.id]
        for index, arg in enumerate(node.args):
            if isinstance(arg, ast.Starred):
                break
            if _globals_call(arg) and index < len(names):
                found.add((node.func.id, names[index]))
        for keyword in node.keywords:
            if keyword.arg is not None and _globals_call(keyword.value):
                found.add((node.func.id, keyword.arg))
    return found


def _globals_call(node: ast.expr) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "globals"
        and not node.args
        and not node.keywords
    )
