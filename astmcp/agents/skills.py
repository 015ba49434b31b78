"""The bundled ``structural-code-editing`` skill and where each agent keeps it (SPEC §7).

Nothing here reads the environment: :class:`AgentHome` carries the directories the
CLI adapter resolved (``HOME``, ``CLAUDE_CONFIG_DIR``, ``HERMES_HOME``).
"""

from __future__ import annotations

import contextlib
import importlib.resources
import os
import stat
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from astmcp.agents.errors import WriteFailed
from astmcp.errors import AstmcpError, Conflict, InvalidInput

SKILL_NAME = "structural-code-editing"
Agent = Literal["claude", "hermes"]
AGENTS: tuple[Agent, ...] = ("claude", "hermes")
Scope = Literal["user", "project"]
Outcome = Literal["installed", "unchanged", "updated"]

# The wheel force-includes the skill here; an editable install reads the repo's copy.
_PACKAGED = ("skill", "SKILL.md")
_REPO_COPY = Path(__file__).resolve().parents[2] / "skills" / SKILL_NAME / "SKILL.md"


@dataclass(frozen=True, slots=True)
class AgentHome:
    """Where the agents keep their configuration, resolved once by the CLI adapter."""

    home: Path
    claude_config_dir: Path | None = None
    hermes_home: Path | None = None

    @classmethod
    def from_environ(cls, environ: Mapping[str, str]) -> AgentHome:
        home = Path(environ["HOME"]) if environ.get("HOME") else Path.home()
        claude = environ.get("CLAUDE_CONFIG_DIR")
        hermes = environ.get("HERMES_HOME")
        return cls(home, Path(claude) if claude else None, Path(hermes) if hermes else None)

    @property
    def claude_dir(self) -> Path:
        return self.claude_config_dir or self.home / ".claude"

    @property
    def hermes_dir(self) -> Path:
        return self.hermes_home or self.home / ".hermes"


def skill_text() -> bytes:
    """The skill shipped with this install (wheel resource, else the source tree's copy)."""
    resource = importlib.resources.files("astmcp.agents").joinpath(*_PACKAGED)
    if resource.is_file():
        return resource.read_bytes()
    if _REPO_COPY.is_file():
        return _REPO_COPY.read_bytes()
    raise AstmcpError(f"the bundled {SKILL_NAME} skill is missing from this install")


def skill_path(
    agent: Agent, homes: AgentHome, scope: Scope = "user", project_root: Path | None = None
) -> Path:
    """The SKILL.md an agent reads for ``scope``; Hermes has no project scope."""
    if scope == "project":
        if agent == "hermes":
            raise InvalidInput(
                "Hermes skills belong to a Hermes profile, not a project; use --scope user for hermes"
            )
        if project_root is None:
            raise InvalidInput("--scope project needs --project-root DIR")
        return project_root / ".claude" / "skills" / SKILL_NAME / "SKILL.md"
    if agent == "claude":
        return homes.claude_dir / "skills" / SKILL_NAME / "SKILL.md"
    return homes.hermes_dir / "skills" / "software-development" / SKILL_NAME / "SKILL.md"


@dataclass(frozen=True, slots=True)
class SkillCheck:
    """What installing ``content`` at ``path`` would do; ``conflict`` means it needs ``--force``."""

    agent: Agent
    path: Path
    outcome: Outcome
    conflict: bool

    def as_json(self) -> dict[str, object]:
        return {"agent": self.agent, "path": str(self.path), "result": self.outcome}


def check_skill(agent: Agent, path: Path, content: bytes, *, force: bool) -> SkillCheck:
    """Inspect ``path`` without writing; refuses targets that are not plain files."""
    try:
        info = path.lstat()
    except FileNotFoundError:
        return SkillCheck(agent, path, "installed", conflict=False)
    if not stat.S_ISREG(info.st_mode):
        raise Conflict(
            f"{path} exists and is not a regular file; remove it to install the skill",
            {"agent": agent, "path": str(path)},
        )
    if path.read_bytes() == content:
        return SkillCheck(agent, path, "unchanged", conflict=False)
    return SkillCheck(agent, path, "updated", conflict=not force)


def conflict_error(conflicts: list[SkillCheck]) -> Conflict:
    paths = ", ".join(str(c.path) for c in conflicts)
    return Conflict(
        f"a different skill is already installed at {paths}; pass --force to replace it",
        {"conflicts": [{"agent": c.agent, "path": str(c.path)} for c in conflicts]},
    )


def write_skill(check: SkillCheck, content: bytes) -> None:
    """Write the skill atomically (temp file in the same folder, fsync, rename, fsync folder)."""
    if check.outcome == "unchanged":
        return
    if check.conflict:
        raise conflict_error([check])
    folder = check.path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(prefix=".SKILL.md.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise WriteFailed(
            f"cannot write {check.path}: {exc.strerror or exc}", {"path": str(check.path)}
        ) from exc
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(content)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(temp, 0o644)
        os.replace(temp, check.path)
    except BaseException as exc:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temp)
        if isinstance(exc, OSError):
            raise WriteFailed(
                f"cannot write {check.path}: {exc.strerror or exc}", {"path": str(check.path)}
            ) from exc
        raise
    _fsync_dir(folder)


def install_skills(targets: list[tuple[Agent, Path]], content: bytes, *, force: bool) -> list[SkillCheck]:
    """Check every target first, then write: a conflict anywhere writes nothing anywhere."""
    checks = [check_skill(agent, path, content, force=force) for agent, path in targets]
    conflicts = [c for c in checks if c.conflict]
    if conflicts:
        raise conflict_error(conflicts)
    for check in checks:
        write_skill(check, content)
    return checks


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # some platforms cannot open folders; the rename is still atomic
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
