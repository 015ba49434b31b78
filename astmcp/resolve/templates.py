"""Member names made at run time from literal parts, in any language.

``getattr(self, f"visit_{type(node).__name__}")`` (Python) and ``this[`visit${node.kind}`]``
(TS/JS) reach every member whose name fits the literal parts. Each is stored as one name hit named
``*`` whose target is ``*T:`` + mode + prefix + ``*`` + suffix; the mode ``c`` says the made part is
a class's name (renaming a class ``Block`` leaves ``visit_Block`` unreached), ``l``/``u`` a class's
name lower-/upper-cased (``"_process_" + cls.__name__.lower()`` reaches ``_process_block``), ``m``
any text.
A name read off a method's own ``self`` (Python) carries ``@@`` + ``file::Class`` after (no name
part holds an ``@``): it may be a member of that class's family only. query.references matches the stored targets against the
name of the symbol asked for.
"""

from __future__ import annotations

import re
from collections.abc import Callable

TEMPLATE = "*T:"  # no chain of either language starts so
TEMPLATE_NAME = "*"
TEMPLATE_OWNER = "@@"
LEAST_LITERAL = 2  # `_` or `x` alone could be most of a project's names: too vague to block on
_NAME_PART = re.compile(r"[\w$]*")


FOLDS = {"l": str.lower, "u": str.upper}


def template_target(prefix: str, suffix: str, class_name: bool, fold: str = "") -> str | None:
    """The stored target of a name made as ``prefix + <something> + suffix`` (``fold``: ``l``
    or ``u`` when a class's name is lower- or upper-cased in it); None when the literal parts are
    too short or could not be part of a name."""
    if len(prefix) + len(suffix) < LEAST_LITERAL and (prefix, suffix) != ("", "_"):
        # (but `name + "_"` is the usual way to a name kept off a builtin or keyword, `map` →
        # `map_`, and few names end so: pydash's chains call `sum_` as `.sum()`)
        return None
    if not (_NAME_PART.fullmatch(prefix) and _NAME_PART.fullmatch(suffix)):
        return None
    mode = (fold or "c") if class_name else "m"
    return f"{TEMPLATE}{mode}{prefix}*{suffix}"


def template_reaches(target: str, name: str, kind: str, names: Callable[[str], bool]) -> bool:
    """Whether the made name stored as ``target`` may reach a symbol ``name`` of ``kind``: a
    member or function whose name fits the literal parts; a class whose name, in them, is the name
    of something (``names(n)``: some project symbol is called n)."""
    target = target.partition(TEMPLATE_OWNER)[0]  # (the class whose self it is read off, after)
    mode, prefix, _, suffix = target[len(TEMPLATE)], *target[len(TEMPLATE) + 1 :].partition("*")
    if kind == "class":
        shown = FOLDS[mode](name) if mode in FOLDS else name
        return mode in "clu" and names(f"{prefix}{shown}{suffix}")
    if not prefix and not suffix:
        # a class's name alone, as it is or cased (stored only for a name read off `self`):
        # a member spelled so (`IFEXP` of `IfExp`), never one in other case
        return (mode in FOLDS and name == FOLDS[mode](name)) or (mode == "c" and name[:1].isupper())
    # (the made part may be empty: `"get" + field` with `const field = "Name"` is `getName`)
    return len(name) >= len(prefix) + len(suffix) and name.startswith(prefix) and name.endswith(suffix)
