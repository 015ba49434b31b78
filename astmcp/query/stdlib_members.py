"""Python: the members of the classes a standard-library module defines.

A project member whose name no other project class has is the ``likely`` meaning of
``x.name`` on a receiver nobody typed, unless the file works with outside objects that have a
member of that name too: a file importing ``inspect`` calls ``sigspec.bind(…)`` on an
``inspect.Signature`` (toolz's ``is_valid_args``), never on toolz's ``curry.bind``. The
standard library is read by importing the module the file imports, as the interpreter running
astmcp has it; modules that act when imported are never imported.
"""

from __future__ import annotations

import ast
import functools
import importlib
import sys
import warnings

__all__ = ["stdlib_class_members"]

# modules that open windows, print, or change the interpreter when imported
_ACTING = frozenset(
    {
        "__main__", "antigravity", "this", "idlelib", "tkinter", "turtle", "turtledemo", "ensurepip",
        "venv", "pydoc", "pydoc_data", "lib2to3", "msilib", "winreg", "winsound", "msvcrt", "site",
        "test", "sitecustomize", "usercustomize",
    }
)  # fmt: skip


@functools.lru_cache(maxsize=512)
def stdlib_class_members(module: str) -> frozenset[str]:
    """The public, non-dunder member names of the public classes ``module`` (a standard-library
    module, dotted) holds; empty for any other module or one that fails to import."""
    top = module.partition(".")[0]
    if top not in sys.stdlib_module_names or top in _ACTING or top.startswith("_"):
        return frozenset()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            loaded = importlib.import_module(module)
    except Exception:  # (a module this platform lacks, or one failing to import)
        return frozenset()
    names: set[str] = set()
    for key, value in list(vars(loaded).items()):
        if key.startswith("_") or not isinstance(value, type):
            continue
        try:
            names.update(n for n in dir(value) if not n.startswith("__"))
        except Exception:  # (a class whose dir() fails)
            continue
        home = sys.modules.get(getattr(value, "__module__", "") or "")
        names.update(_instance_attributes(getattr(home, "__file__", None)).get(value.__name__, ()))
    return frozenset(names)


@functools.lru_cache(maxsize=256)
def _instance_attributes(path: str | None) -> dict[str, frozenset[str]]:
    """Per top-level class of a pure-Python module's source, the attributes its methods set on
    instances (``self.source = source`` in ``doctest.Example.__init__``), which ``dir()`` of the
    class does not list."""
    if not path or not path.endswith(".py"):
        return {}
    try:
        with open(path, "rb") as handle:
            tree = ast.parse(handle.read())
    except (OSError, SyntaxError, ValueError):
        return {}
    out: dict[str, frozenset[str]] = {}
    for cls in tree.body:
        if not isinstance(cls, ast.ClassDef):
            continue
        names: set[str] = set()
        for node in ast.walk(cls):
            targets: list[ast.expr] = []
            if isinstance(node, ast.Assign):
                targets = node.targets
            elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
                targets = [node.target]
            for target in targets:
                for part in ast.walk(target):
                    if (
                        isinstance(part, ast.Attribute)
                        and isinstance(part.value, ast.Name)
                        and part.value.id == "self"
                        and not part.attr.startswith("__")
                    ):
                        names.add(part.attr)
        out[cls.name] = frozenset(names)
    return out
