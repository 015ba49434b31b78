"""Whether a JS/TS package's class (a base outside the project) declares a member, read from the
package's installed type declarations.

A project class ``extends Component`` (from ``react``) that defines ``render`` overrides the
package's member: renaming it would stop the override silently (TypeScript checks nothing, the
framework calls ``render`` by name). The package's ``.d.ts`` files (its own, and ``@types/…``)
are searched for the member declared under that name anywhere in them: a superset, so a rename
may be refused more often than needed, never less. A package that is not installed is unknown.
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

__all__ = ["package_defines", "project_root"]

_MAX_FILES = 2_000
_MAX_BYTES = 20_000_000


def project_root(conn: sqlite3.Connection) -> Path | None:
    """The project an index belongs to: its database lives in ``<root>/.astmcp/``."""
    for _seq, name, file in conn.execute("PRAGMA database_list"):
        if name == "main" and file:
            return Path(file).parent.parent
    return None


def package_defines(root: Path, qualified: str, member: str) -> bool | None:
    """Whether ``qualified`` (``react.Component``: a package, then the class' name) declares
    ``member`` in the package's installed declarations; None when the package is not found."""
    found = _package(root, qualified)
    if found is None:
        return None
    texts, name = found
    if not any(re.search(rf"(?<![\w$]){re.escape(name)}(?![\w$])", text) for text in texts):
        return None  # the class is not declared where we looked
    declared = re.compile(rf"(?<![\w$.]){re.escape(member)}\s*[?!]?\s*[(:<]")
    return any(declared.search(text) for text in texts)


def _package(root: Path, qualified: str) -> tuple[tuple[str, ...], str] | None:
    """The declaration texts of the longest installed package prefix of ``qualified`` and the
    class' name after it (``lodash.debounce.X``: the package ``lodash.debounce`` if installed)."""
    parts = qualified.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        package, name = ".".join(parts[:cut]), parts[cut]
        texts = _declarations(str(root), _package_name(package))
        if texts:
            return texts, name
    return None


def _package_name(spec: str) -> str:
    """The package a module specifier is in (``react/jsx-runtime`` -> ``react``, ``@a/b/c`` ->
    ``@a/b``)."""
    parts = spec.split("/")
    return "/".join(parts[:2]) if spec.startswith("@") else parts[0]


_FOUND: dict[tuple[str, str], tuple[str, ...]] = {}


def _declarations(root: str, package: str) -> tuple[str, ...]:
    """The ``.d.ts`` texts of ``package`` and ``@types/<package>`` in the nearest
    ``node_modules`` folders above ``root`` (bounded); kept once found (a package installed
    later is looked up again)."""
    key = (root, package)
    if key not in _FOUND:
        texts = _read_declarations(root, package)
        if not texts:
            return texts
        if len(_FOUND) > 64:
            _FOUND.clear()
        _FOUND[key] = texts
    return _FOUND[key]


def _read_declarations(root: str, package: str) -> tuple[str, ...]:
    typed = package[1:].replace("/", "__") if package.startswith("@") else package
    texts: list[str] = []
    size = 0
    for folder in (Path(root), *Path(root).parents):
        modules = folder / "node_modules"
        for directory in (modules / package, modules / "@types" / typed):
            if not directory.is_dir():
                continue
            for path in sorted(directory.rglob("*.d.*ts")):
                if "node_modules" in path.relative_to(directory).parts or len(texts) >= _MAX_FILES:
                    continue
                try:
                    text = path.read_text(encoding="utf-8", errors="replace")
                except OSError:
                    continue
                size += len(text)
                if size > _MAX_BYTES:
                    break
                texts.append(text)
        if texts:
            break
    return tuple(texts)
