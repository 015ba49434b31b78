"""Project configuration: ``.astmcp.toml`` or ``[tool.astmcp]`` in pyproject.toml.

Configuration is an object passed down; nothing below this module reads files
or the environment for settings. Unknown keys are errors that name the key.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from astmcp.errors import InvalidInput

DEFAULT_MAX_FILE_BYTES = 2 * 1024 * 1024
DEFAULT_MAX_FILES = 200_000


@dataclass(frozen=True, slots=True)
class Config:
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES
    max_files: int = DEFAULT_MAX_FILES
    exclude: tuple[str, ...] = ()  # extra gitignore-style patterns
    diagnostics: tuple[str, ...] = ("builtin",)
    checker_timeout_s: float = 120.0
    workers: int = 0  # 0 = one per core


_KEYS = {f.name for f in fields(Config)}


def _from_table(table: dict[str, Any], origin: str) -> Config:
    unknown = sorted(set(table) - _KEYS)
    if unknown:
        raise InvalidInput(
            f"unknown key {unknown[0]!r} in {origin}",
            {"unknown_keys": unknown, "known_keys": sorted(_KEYS)},
        )
    values: dict[str, Any] = {}
    for key, value in table.items():
        default = getattr(Config(), key)
        if isinstance(default, tuple):
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise InvalidInput(f"{origin}: {key} must be a list of strings")
            values[key] = tuple(value)
        elif isinstance(default, bool) or not isinstance(value, type(default)):
            if isinstance(default, float) and isinstance(value, int) and not isinstance(value, bool):
                values[key] = float(value)
                continue
            raise InvalidInput(f"{origin}: {key} must be {type(default).__name__}")
        else:
            values[key] = value
    for key in ("max_file_bytes", "max_files"):
        if key in values and values[key] < 1:
            raise InvalidInput(f"{origin}: {key} must be positive")
    return Config(**values)


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise InvalidInput(f"malformed configuration file {path.name}: {exc}") from None


def load_config(root: Path) -> Config:
    """Read ``.astmcp.toml`` (preferred) or ``[tool.astmcp]`` of pyproject.toml."""
    dedicated = root / ".astmcp.toml"
    if dedicated.is_file():
        return _from_table(_read_toml(dedicated), ".astmcp.toml")
    pyproject = root / "pyproject.toml"
    if pyproject.is_file():
        table = _read_toml(pyproject).get("tool", {}).get("astmcp")
        if isinstance(table, dict):
            return _from_table(table, "pyproject.toml [tool.astmcp]")
    return Config()


CONFIG_FILE_NAMES = (
    "pyproject.toml",
    "setup.cfg",
    ".astmcp.toml",
    "package.json",
)
