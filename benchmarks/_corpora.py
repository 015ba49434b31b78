"""Fetch benchmark corpora from the package registries, cached in ``benchmarks/.cache``.

Corpora are third-party code: fetched by name and version at run time, never
committed (``benchmarks/.cache/`` is gitignored). Every helper returns the
extracted source directory and does nothing when it is already there.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

CACHE = Path(__file__).resolve().parent / ".cache"

__all__ = ["CACHE", "fetch_npm", "fetch_pypi_sdist", "npm_tool", "update_readme_section"]


def _extract(archive: Path, dest: Path) -> None:
    """Unpack into ``dest`` (atomic: a half-extracted tree is never left behind)."""
    tmp = dest.with_name(dest.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    if archive.suffix == ".zip":
        with zipfile.ZipFile(archive) as zf:
            zf.extractall(tmp)
    else:
        with tarfile.open(archive) as tf:
            tf.extractall(tmp, filter="data")
    shutil.rmtree(dest, ignore_errors=True)
    tmp.rename(dest)


def fetch_pypi_sdist(name: str, version: str) -> Path:
    """The extracted sdist of ``name==version`` (e.g. ``.cache/django-5.2.19``)."""
    downloads = CACHE / "downloads"
    downloads.mkdir(parents=True, exist_ok=True)
    normal = name.lower().replace("-", "_")
    dest = CACHE / f"{normal}-{version}"
    if dest.is_dir():
        return _single_child(dest)

    def find() -> Path | None:
        for candidate in downloads.iterdir():
            stem = candidate.name.lower().replace("-", "_")
            if stem.startswith(f"{normal}_{version}.") or stem.startswith(f"{normal}-{version}."):
                return candidate
        return None

    archive = find()
    if archive is None:
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--no-deps",
                "--no-binary",
                ":all:",
                "--dest",
                str(downloads),
                f"{name}=={version}",
            ],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        archive = find()
        if archive is None:
            raise RuntimeError(f"pip download of {name}=={version} left no sdist in {downloads}")
    _extract(archive, dest)
    return _single_child(dest)


def fetch_npm(name: str, version: str) -> Path:
    """The extracted ``package/`` folder of ``npm pack name@version``."""
    downloads = CACHE / "downloads"
    downloads.mkdir(parents=True, exist_ok=True)
    safe = name.lstrip("@").replace("/", "-")
    dest = CACHE / f"npm-{safe}-{version}"
    if not (dest / "package").is_dir():
        tarball = downloads / f"{safe}-{version}.tgz"
        if not tarball.is_file():
            out = subprocess.run(
                ["npm", "pack", f"{name}@{version}", "--silent", "--pack-destination", str(downloads)],
                check=True,
                capture_output=True,
                text=True,
            )
            produced = downloads / out.stdout.strip().splitlines()[-1]
            produced.rename(tarball)
        _extract(tarball, dest)
    return dest / "package"


def npm_tool(package: str, version: str, binary: str) -> Path:
    """Install an npm CLI into ``.cache/tools/<name>-<version>`` and return its executable."""
    safe = package.lstrip("@").replace("/", "-")
    prefix = CACHE / "tools" / f"{safe}-{version}"
    exe = prefix / "node_modules" / ".bin" / binary
    if not exe.exists():
        prefix.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            ["npm", "install", "--prefix", str(prefix), "--no-audit", "--no-fund", f"{package}@{version}"],
            check=True,
            stdout=subprocess.DEVNULL,
        )
    return exe


def _single_child(dest: Path) -> Path:
    # hidden folders (an index some tool left beside the sources) are not the extracted tree
    children = [p for p in dest.iterdir() if p.is_dir() and not p.name.startswith(".")]
    return children[0] if len(children) == 1 else dest


def update_readme_section(key: str, title: str, body: str) -> None:
    """Replace (or append) one section of ``benchmarks/README.md``, leaving the others alone.

    A section is everything between ``<!-- BEGIN key -->`` and ``<!-- END key -->``.
    """
    readme = Path(__file__).resolve().parent / "README.md"
    begin, end = f"<!-- BEGIN {key} -->", f"<!-- END {key} -->"
    block = f"{begin}\n## {title}\n\n{body.rstrip()}\n{end}"
    text = readme.read_text(encoding="utf-8") if readme.exists() else "# Benchmarks\n"
    start = text.find(begin)
    stop = text.find(end, start)
    if start >= 0 and stop >= 0:
        text = text[:start] + block + text[stop + len(end) :]
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    readme.write_text(text, encoding="utf-8")
