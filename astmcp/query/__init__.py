"""Read tools. Importing a module registers its handler with :mod:`astmcp.tools`."""

from __future__ import annotations

import importlib

# SPEC order; modules that do not exist yet are skipped so tools land one by one.
TOOL_MODULES = (
    "astmcp.query.files",
    "astmcp.query.outline",
    "astmcp.query.source",
    "astmcp.query.search",
    "astmcp.query.references",
    "astmcp.query.diagnostics",
    "astmcp.query.graph",
    "astmcp.refactor.tools",
)


def register_all() -> None:
    for name in TOOL_MODULES:
        import_tool_module(name)


def import_tool_module(name: str) -> None:
    """Import (and so register) one tool module; a module not written yet is skipped."""
    try:
        importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name is None or not (name == exc.name or name.startswith(exc.name + ".")):
            raise
