"""The private state directory: plan files, receipts and workspace locks.

``<state>`` is ``$AST_TOOL_STATE_DIR`` or ``${XDG_STATE_HOME:-~/.local/state}/ast-tool``;
:func:`state_dir_from_env` is the one place that reads those variables, and
front doors pass its result down. Folders are 0700, files 0600, written
atomically, and read only when private, regular, ours and within size.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Mapping
from pathlib import Path

from astmcp.errors import InvalidInput

MAX_STATE_FILE_BYTES = 50 * 1024 * 1024


def state_dir_from_env(environ: Mapping[str, str]) -> Path:
    explicit = environ.get("AST_TOOL_STATE_DIR")
    if explicit:
        return Path(explicit)
    xdg = environ.get("XDG_STATE_HOME")
    if xdg:
        return Path(xdg) / "ast-tool"
    home = environ.get("HOME")
    base = Path(home) if home else Path.home()
    return base / ".local" / "state" / "ast-tool"


def private_dir(path: Path) -> Path:
    """Create ``path`` (0700) or check an existing one: a real folder, ours; tightened to 0700."""
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    info = os.lstat(path)
    if stat.S_ISLNK(info.st_mode) or not stat.S_ISDIR(info.st_mode):
        raise InvalidInput(f"state folder {path.name!r} is not a real directory")
    if info.st_uid != os.geteuid():
        raise InvalidInput(f"state folder {path.name!r} is owned by another user")
    if stat.S_IMODE(info.st_mode) & 0o077:
        os.chmod(path, 0o700)
    return path


def fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_private(path: Path, data: bytes) -> None:
    """Atomically write ``data`` as a 0600 file."""
    if len(data) > MAX_STATE_FILE_BYTES:
        raise InvalidInput(f"{path.name} would exceed {MAX_STATE_FILE_BYTES} bytes")
    folder = private_dir(path.parent)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=folder)
    try:
        with os.fdopen(fd, "wb") as handle:
            os.fchmod(handle.fileno(), 0o600)
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    fsync_dir(folder)


def read_private(path: Path, what: str = "state file") -> bytes:
    """The bytes of a private state file; refused when it is a symlink, not a regular
    file, owned by someone else, group/world-accessible or too large."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        raise InvalidInput(f"{what} {path.name!r} does not exist") from None
    if stat.S_ISLNK(info.st_mode):
        raise InvalidInput(f"{what} {path.name!r} is a symlink; refused")
    _check(info, path, what)
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    with os.fdopen(fd, "rb") as handle:
        opened = os.fstat(handle.fileno())
        if (opened.st_dev, opened.st_ino) != (info.st_dev, info.st_ino):
            raise InvalidInput(f"{what} {path.name!r} changed while it was opened; refused")
        _check(opened, path, what)
        data = handle.read(MAX_STATE_FILE_BYTES + 1)
    if len(data) > MAX_STATE_FILE_BYTES:
        raise InvalidInput(f"{what} {path.name!r} is larger than {MAX_STATE_FILE_BYTES} bytes; refused")
    return data


def _check(info: os.stat_result, path: Path, what: str) -> None:
    if not stat.S_ISREG(info.st_mode):
        raise InvalidInput(f"{what} {path.name!r} is not a regular file; refused")
    if info.st_uid != os.geteuid():
        raise InvalidInput(f"{what} {path.name!r} is owned by another user; refused")
    if stat.S_IMODE(info.st_mode) & 0o077:
        raise InvalidInput(
            f"{what} {path.name!r} is accessible by group or others (mode {stat.S_IMODE(info.st_mode):o});"
            " refused"
        )
    if info.st_size > MAX_STATE_FILE_BYTES:
        raise InvalidInput(f"{what} {path.name!r} is larger than {MAX_STATE_FILE_BYTES} bytes; refused")
