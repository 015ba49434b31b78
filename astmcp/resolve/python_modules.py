"""Python module names for project files: packages, namespace packages, ``src/`` layouts.

A file is importable under every dotted suffix of its path that starts right
below a folder that is not a regular package (the project root, ``src/``, a
``tests/`` folder on ``sys.path``...). ``pkg/__init__.py`` is the module ``pkg``;
a ``.pyi`` beside a ``.py`` is the same module (the ``.py`` is preferred).
"""

from __future__ import annotations

import posixpath
import sys

_SUFFIXES = (".pyi", ".py")


# the `link_deps` key of what consulted the test classes deriving from a class (a fixture's value
# as each runs the tests it inherits): relinked when a test file's classes or bases change
TEST_CLASSES = "?test-classes"
SUBCLASSES = "?subclasses"  # resolved through the classes deriving from one (any file's bases)


def is_test_file(path: str) -> bool:
    """pytest/unittest naming: test_*.py, *_test.py, tests.py, conftest.py, or under tests/."""
    name = posixpath.basename(path)
    return (
        name.startswith("test_")
        or name.endswith(("_test.py", "_tests.py"))
        or name in ("tests.py", "conftest.py")
        or "/tests/" in f"/{path}"
        or "/test/" in f"/{path}"
    )


def path_key(path: str) -> str:
    """``pkg/mod.py`` and ``pkg/mod/__init__.pyi`` -> ``pkg/mod``."""
    stem = path[: -len(".pyi")] if path.endswith(".pyi") else path[: -len(".py")]
    if stem.endswith("/__init__") or stem == "__init__":
        stem = stem[: -len("__init__")].rstrip("/")
    return stem


def module_names(path: str) -> list[str]:
    """Every module name a ``.py``/``.pyi`` file may answer to, longest first (``src/pkg/mod.py``:
    ``src.pkg.mod``, ``pkg.mod``, ``mod``)."""
    key = path_key(path)
    parts = key.split("/") if key else []
    return [".".join(parts[i:]) for i in range(len(parts)) if all(p.isidentifier() for p in parts[i:])]


def twin(path: str) -> str:
    """The stub of a ``.py`` or the source of a ``.pyi``."""
    return path[:-1] if path.endswith(".pyi") else path + "i"


def is_package(path: str) -> bool:
    return path.endswith(("/__init__.py", "/__init__.pyi")) or path in ("__init__.py", "__init__.pyi")


class ModuleMap:
    """Module name -> files, and path key -> file, for one set of project paths."""

    def __init__(self, paths: list[str]) -> None:
        self.paths = set(paths)
        self.by_key: dict[str, str] = {}
        for path in sorted(paths, key=_preference):
            self.by_key.setdefault(path_key(path), path)
        self.dirs: set[str] = set()
        for path in paths:
            folder = posixpath.dirname(path)
            while folder and folder not in self.dirs:
                self.dirs.add(folder)
                folder = posixpath.dirname(folder)
        packages = {posixpath.dirname(p) for p in paths if is_package(p)}
        self.by_name: dict[str, list[str]] = {}
        self.namespaces: dict[str, str] = {}
        for key, path in sorted(self.by_key.items(), key=lambda item: (item[0].count("/"), item[0])):
            if not key:
                continue
            parts = key.split("/")
            for start in range(len(parts)):
                prefix = "/".join(parts[:start])
                if start and prefix in packages:
                    continue
                tail = parts[start:]
                if not all(part.isidentifier() for part in tail):
                    continue
                self.by_name.setdefault(".".join(tail), []).append(path)
                for cut in range(1, len(tail)):
                    name = ".".join(tail[:cut])
                    folder = "/".join(parts[: start + cut])
                    self.namespaces.setdefault(name, folder)

    def names_of(self, path: str) -> list[str]:
        """Every module name the file answers to (for re-linking what failed before)."""
        return module_names(path)

    def file(self, key: str) -> str | None:
        return self.by_key.get(key)

    def absolute(self, name: str, near: str) -> tuple[str, str] | None:
        """("m", file) or ("d", folder) for a dotted name; files under the importer's tree win."""
        files = self.by_name.get(name)
        if files:
            if len(files) > 1:
                return "m", max(files, key=lambda f: (_shared_prefix(f, near), -f.count("/")))
            return "m", files[0]
        folder = self.namespaces.get(name)
        if folder is not None and name.partition(".")[0] not in sys.stdlib_module_names:
            # a namespace package never shadows a regular module: `tests/typing/` is not `typing`
            return "d", folder
        return None

    def relative(self, path: str, level: int, module: str) -> tuple[str, str] | None:
        folder = posixpath.dirname(path)
        for _ in range(level - 1):
            folder = posixpath.dirname(folder)
        key = "/".join(p for p in [folder, *module.split(".")] if p) if module else folder
        found = self.by_key.get(key)
        if found is not None:
            return "m", found
        if key in self.dirs:
            return "d", key
        return None

    def child(self, folder: str, name: str) -> tuple[str, str] | None:
        key = f"{folder}/{name}" if folder else name
        found = self.by_key.get(key)
        if found is not None:
            return "m", found
        if key in self.dirs:
            return "d", key
        return None


def _preference(path: str) -> tuple[int, str]:
    # a package beats a module of the same name; .py beats .pyi
    return (0 if is_package(path) else 1, 0 if path.endswith(".py") else 1), path  # type: ignore[return-value]


def _shared_prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a.split("/"), b.split("/"), strict=False):
        if x != y:
            break
        n += 1
    return n
