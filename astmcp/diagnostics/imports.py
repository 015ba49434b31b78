"""Unresolved project imports, decided from the set of project files alone.

Shared by the linker (index) and the plan delta (index plus post-images). A
Python import is only judged when it is relative or names a top-level regular
package of the project; a TS/JS specifier only when it is relative. Whatever
cannot be decided stays quiet, and a file that exists on disk but is not
indexed (extension modules, ignored or generated files) counts as present.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "PY_UNRESOLVED",
    "TS_UNRESOLVED",
    "ImportResult",
    "PyModules",
    "check_python_import",
    "check_ts_import",
    "on_disk_checker",
]

PY_UNRESOLVED = "PY-UNRESOLVED-IMPORT"
TS_UNRESOLVED = "TS-UNRESOLVED-IMPORT"

# path -> (module-level names, dynamic) or None when unknown (file did not parse)
NamesOf = Callable[[str], tuple[frozenset[str], bool] | None]
OnDisk = Callable[[str], bool]
AliasTest = Callable[
    [str, str], bool
]  # (importer, specifier): does a tsconfig `paths` pattern claim it?  # project-relative path without suffix: anything importable there?

_TS_CODE_SUFFIXES = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")
_TS_TRY_SUFFIXES = (".ts", ".tsx", ".d.ts", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")
_JS_TO_TS = {".js": (".ts", ".tsx", ".d.ts"), ".mjs": (".mts", ".d.mts"), ".cjs": (".cts", ".d.cts")}


@dataclass(frozen=True, slots=True)
class ImportResult:
    message: str | None  # None: resolved or not judged
    targets: tuple[str, ...]  # project files the import depends on


class PyModules:
    """Python modules of a set of project files: source roots, packages, files."""

    def __init__(self, paths: Iterable[str]) -> None:
        self.files = {p for p in paths if p.endswith((".py", ".pyi"))}
        self.dirs: set[str] = set()
        for path in self.files:
            parent = posixpath.dirname(path)
            while parent and parent not in self.dirs:
                self.dirs.add(parent)
                parent = posixpath.dirname(parent)
        roots = {"", "src"}
        for path in self.files:
            if posixpath.basename(path) in ("__init__.py", "__init__.pyi"):
                package = posixpath.dirname(path)
                parent = posixpath.dirname(package)
                if not self._is_package(parent):
                    roots.add(parent)
        self.roots = tuple(sorted(roots))

    def _is_package(self, folder: str) -> bool:
        return bool(folder) and (
            f"{folder}/__init__.py" in self.files or f"{folder}/__init__.pyi" in self.files
        )

    def fingerprint(self) -> str:
        tops = sorted(f"{r}:{d}" for r in self.roots for d in self.dirs if posixpath.dirname(d) == r)
        return "|".join(self.roots) + "#" + "|".join(t for t in tops if self._is_package(t.split(":", 1)[1]))

    def module_files(self, folder: str, parts: list[str]) -> list[str] | None:
        """Files of a module ([] for a namespace folder); None when it does not exist."""
        rel = "/".join(p for p in (folder, *parts) if p)
        found = [
            f
            for f in (f"{rel}.py", f"{rel}.pyi", f"{rel}/__init__.py", f"{rel}/__init__.pyi")
            if f in self.files
        ]
        if found:
            return found
        return [] if rel in self.dirs else None

    def package_roots(self, top: str) -> list[str]:
        """Source roots where ``top`` is a regular package of the project."""
        return [r for r in self.roots if self._is_package("/".join(p for p in (r, top) if p))]


def check_python_import(
    mods: PyModules,
    importer: str,
    module: str,
    name: str | None,
    level: int,
    names_of: NamesOf,
    on_disk: OnDisk,
) -> ImportResult:
    parts = [p for p in module.split(".") if p]
    dotted = "." * level + module
    if level:
        folder = posixpath.dirname(importer)
        for _ in range(level - 1):
            if not folder:
                return ImportResult(None, ())  # above the project: not ours to judge
            folder = posixpath.dirname(folder)
        if not folder:
            return ImportResult(None, ())  # the root itself may be a package inside a larger tree
        bases = [folder]
    else:
        if not parts:
            return ImportResult(None, ())
        # A root other than the project's own or src/ (tests/, a tool folder) is on sys.path only
        # for the files under it: elsewhere the same name is most likely an installed package.
        bases = [r for r in mods.package_roots(parts[0]) if r in ("", "src") or importer.startswith(r + "/")]
        if not bases:
            return ImportResult(None, ())  # not a project package
    last: ImportResult | None = None
    for base in bases:
        result = _check_in(mods, base, parts, dotted, name, names_of, on_disk)
        if result.message is None:
            return result
        last = result
    assert last is not None
    return last


def _check_in(
    mods: PyModules,
    base: str,
    parts: list[str],
    dotted: str,
    name: str | None,
    names_of: NamesOf,
    on_disk: OnDisk,
) -> ImportResult:
    files = mods.module_files(base, parts)
    if files is None:
        if on_disk("/".join(p for p in (base, *parts) if p)):
            return ImportResult(None, ())
        return ImportResult(f"cannot resolve module '{dotted}'", ())
    if name is None or name == "*":
        return ImportResult(None, tuple(files))
    sub = mods.module_files(base, [*parts, name])
    if sub is not None:
        return ImportResult(None, (*files, *sub))
    if files:
        for path in files:
            info = names_of(path)
            if info is None or info[1] or name in info[0]:
                return ImportResult(None, tuple(files))
    if on_disk("/".join(p for p in (base, *parts, name) if p)):
        return ImportResult(None, tuple(files))
    return ImportResult(f"cannot import name '{name}' from '{dotted}'", tuple(files))


def check_ts_import(
    paths: set[str],
    importer: str,
    specifier: str,
    resolved: str | None,
    on_disk: OnDisk,
    aliased: AliasTest | None = None,
) -> ImportResult:
    """A relative or tsconfig-``paths`` specifier that resolves to no project file;
    package names are not judged."""
    if resolved:
        return ImportResult(None, (resolved,))
    if not (specifier.startswith(("./", "../")) or specifier in (".", "..")):
        if aliased is not None and aliased(importer, specifier):
            return ImportResult(f"cannot resolve module '{specifier}'", ())
        return ImportResult(None, ())
    clean = specifier.split("?", 1)[0].split("#", 1)[0]
    target = posixpath.normpath(posixpath.join(posixpath.dirname(importer), clean))
    if target.startswith("../") or target == "..":
        return ImportResult(None, ())
    suffix = posixpath.splitext(target)[1]
    if suffix and suffix not in _TS_CODE_SUFFIXES:
        return ImportResult(None, ())  # assets, json, css: not judged
    found = _ts_lookup(paths, target, suffix)
    if found is not None:
        return ImportResult(None, (found,))
    if on_disk(target):
        return ImportResult(None, ())
    return ImportResult(f"cannot resolve module '{specifier}'", ())


def _ts_lookup(paths: set[str], target: str, suffix: str) -> str | None:
    candidates: list[str] = []
    if suffix:
        stem = target[: -len(suffix)]
        candidates.append(target)
        candidates.extend(stem + s for s in _JS_TO_TS.get(suffix, ()))
    folder = "" if target == "." else target
    if folder:
        candidates.extend(target + s for s in _TS_TRY_SUFFIXES)
    candidates.extend(f"{folder}/index{s}".lstrip("/") for s in _TS_TRY_SUFFIXES)
    return next((c for c in candidates if c in paths), None)


def alias_test(root: Path, paths: Iterable[str], configs: Iterable[str] | None = None) -> AliasTest:
    """Matches specifiers against the governing tsconfig's ``paths`` (catch-all ``*`` excluded:
    it claims every package name). Built lazily: most projects never need it."""
    from astmcp.lang import optional_module

    modules = optional_module("astmcp.resolve.ts_modules")  # TS resolution may not be installed
    files = list(paths)
    state: dict[str, Any] = {}

    def claimed(importer: str, specifier: str) -> bool:
        if modules is None:
            return False
        if "project" not in state:
            maker = modules.TsProject
            state["project"] = (
                maker(root, files, configs) if configs is not None else maker.from_disk(root, files)
            )
        project = state["project"]
        config = project.governing_config(posixpath.dirname(importer))
        if config is None:
            return False
        for pattern, _targets in project.tsconfigs.effective(config).paths:
            head, star, tail = pattern.partition("*")
            if star:
                fits = bool(head) and specifier.startswith(head) and specifier.endswith(tail)
                fits = fits and len(specifier) >= len(head) + len(tail)
            else:
                fits = pattern == specifier
            if fits:  # TypeScript falls back to node_modules when the mapping finds nothing
                parts = specifier.split("/")
                package = "/".join(parts[:2]) if specifier.startswith("@") else parts[0]
                return not (root / "node_modules" / package).exists()
        return False

    return claimed


def on_disk_checker(root: Path) -> OnDisk:
    """Anything importable at a project-relative stem: a folder, or any file stem.*."""

    def exists(stem: str) -> bool:
        full = root / stem
        if full.is_dir() or full.is_file():
            return True
        folder = full.parent
        base = full.name + "."
        try:
            return any(entry.startswith(base) for entry in os.listdir(folder))
        except OSError:
            return False

    return exists
