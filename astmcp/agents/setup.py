"""``ast-tool setup``: preflight every selected agent, then register, install the skill, verify.

Nothing is written until every check passed for every selected agent: a conflicting
``ast`` registration or skill anywhere stops the whole run before its first write.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from astmcp.agents.clients import CLIENTS, SERVER_NAME, AgentCli, ServerCommand
from astmcp.agents.errors import AgentNotFound, VerificationFailed
from astmcp.agents.process import Runner
from astmcp.agents.skills import AGENTS, Agent, AgentHome, SkillCheck, check_skill, skill_path, write_skill
from astmcp.errors import AstmcpError, Conflict

RegistrationState = Literal["registered", "unchanged"]


@dataclass(frozen=True, slots=True)
class Missing:
    """An agent that ``--agents all`` skips because it is not installed."""

    agent: Agent
    reason: str

    def as_json(self) -> dict[str, Any]:
        return {"agent": self.agent, "status": "skipped", "reason": self.reason}


@dataclass(frozen=True, slots=True)
class AgentPlan:
    """What setup will do for one agent, decided before any write."""

    cli: AgentCli
    register: bool
    skill: SkillCheck


@dataclass(slots=True)
class AgentResult:
    plan: AgentPlan
    verified: bool = False
    verification: str = ""
    tools: list[str] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        cli = self.plan.cli
        registration: RegistrationState = "registered" if self.plan.register else "unchanged"
        out: dict[str, Any] = {
            "agent": cli.agent,
            "status": "ok" if self.verified else "failed",
            "executable": str(cli.executable),
            "version": cli.version,
            "registration": registration,
            "skill": {"path": str(self.plan.skill.path), "result": self.plan.skill.outcome},
            "verified": self.verified,
            "verification": self.verification,
        }
        if self.tools:
            out["tools"] = self.tools
        return out


def detect(runner: Runner, agents: Sequence[Agent] = AGENTS) -> dict[Agent, AgentCli | Missing]:
    """Each agent's CLI, or why it is unavailable."""
    found: dict[Agent, AgentCli | Missing] = {}
    for agent in agents:
        try:
            found[agent] = CLIENTS[agent].detect(runner)
        except AgentNotFound as missing:
            found[agent] = Missing(agent, missing.message)
    return found


def preflight(
    clis: Sequence[AgentCli], server: ServerCommand, homes: AgentHome, skill: bytes, *, force_skill: bool
) -> list[AgentPlan]:
    """Decide every agent's steps, or fail naming every conflict; writes nothing."""
    plans: list[AgentPlan] = []
    conflicts: list[dict[str, str]] = []
    for cli in clis:
        existing = cli.registration()
        if existing is not None and not cli.matches(existing, server):
            conflicts.append(
                {
                    "agent": cli.agent,
                    "kind": "registration",
                    "existing": existing.describe(),
                    "fix": _removal_hint(cli.agent, existing.scope),
                }
            )
        check = check_skill(cli.agent, skill_path(cli.agent, homes), skill, force=force_skill)
        if check.conflict:
            conflicts.append(
                {
                    "agent": cli.agent,
                    "kind": "skill",
                    "existing": str(check.path),
                    "fix": "pass --force-skill to replace it",
                }
            )
        plans.append(AgentPlan(cli, register=existing is None, skill=check))
    if conflicts:
        named = "; ".join(f"{c['agent']} {c['kind']}: {c['existing']}" for c in conflicts)
        raise Conflict(
            f"setup would overwrite existing configuration ({named}); nothing was changed",
            {"conflicts": conflicts},
        )
    return plans


def apply(plans: Sequence[AgentPlan], server: ServerCommand, skill: bytes) -> list[AgentResult]:
    """Register where needed, install the skill, then ask each agent to start the server."""
    results: list[AgentResult] = []
    done: list[str] = []
    for plan in plans:
        try:
            if plan.register:
                plan.cli.register(server)
                done.append(f"{plan.cli.agent}: registered")
            write_skill(plan.skill, skill)
        except AstmcpError as error:
            # Say what was already written so a re-run (which finds it identical) is not a surprise.
            error.details = {**(error.details or {}), "completed": done}
            raise
        if plan.skill.outcome != "unchanged":
            done.append(f"{plan.cli.agent}: skill {plan.skill.outcome}")
        results.append(AgentResult(plan))
    for result in results:
        check = result.plan.cli.verify()
        result.verified = check.ok
        result.verification = check.detail
        result.tools = list(check.tools)
    return results


def summary(
    server: ServerCommand, results: Sequence[AgentResult], skipped: Sequence[Missing]
) -> dict[str, Any]:
    ok = all(r.verified for r in results)
    return {
        "status": "ok" if ok else "error",
        "server": {"name": SERVER_NAME, **server.as_json()},
        "agents": [r.as_json() for r in results] + [m.as_json() for m in skipped],
    }


def verification_error(results: Sequence[AgentResult]) -> VerificationFailed:
    failed = [r.plan.cli.agent for r in results if not r.verified]
    return VerificationFailed(
        f"registered, but {', '.join(failed)} could not start the server; see `verification`",
        {"agents": failed},
    )


def _removal_hint(agent: Agent, scope: str) -> str:
    if agent == "claude":
        return f"inspect it with `claude mcp get {SERVER_NAME}`, remove it with `claude mcp remove {SERVER_NAME} -s {scope}`"
    return (
        f"inspect it with `hermes mcp test {SERVER_NAME}`, remove it with `hermes mcp remove {SERVER_NAME}`"
    )
