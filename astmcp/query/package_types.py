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
from pathlib import Path

from astmcp.resolve.ts_packages import declarations, package_name, project_root

__all__ = ["package_defines", "project_root"]


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
        texts = declarations(str(root), package_name(package))
        if texts:
            return texts, name
    return None
