"""``ast-tool apply PLAN_FILE --plan-hash HEX``: apply a plan file written by a prepare (SPEC §6)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from astmcp.errors import AstmcpError
from astmcp.refactor.apply import ApplyOptions, apply_plan
from astmcp.refactor.planfile import read_plan_file
from astmcp.refactor.state import state_dir_from_env
from astmcp.tools import dumps_compact
from astmcp.workspace import Workspaces

EXIT_OK, EXIT_FAILED = 0, 1


def add_commands(subparsers: Any) -> None:
    apply = subparsers.add_parser("apply", help="apply a reviewed plan file (written by a prepare step)")
    apply.add_argument("plan_file", metavar="PLAN_FILE", help="<state>/plans/<operation_id>.astplan")
    apply.add_argument("--plan-hash", required=True, metavar="HEX", help="the plan_hash you reviewed")
    apply.set_defaults(func=_cmd_apply)


def _cmd_apply(args: argparse.Namespace) -> int:
    state = state_dir_from_env(os.environ)
    workspaces: Workspaces | None = None
    try:
        plan = read_plan_file(Path(args.plan_file))
        workspaces = Workspaces(Path(plan.project_root))
        ws = workspaces.get(plan.project_root)
        ws.plans.state_dir = state
        with ws.lock:
            receipt = apply_plan(ws, plan, args.plan_hash, ApplyOptions(state_dir=state))
    except AstmcpError as error:
        details: dict[str, Any] = {"code": error.code}
        if error.details:
            details.update(error.details)
        failure = {
            "status": "error",
            "command": "apply",
            "code": "APPLY_ERROR",
            "message": error.message,
            "details": details,
        }
        print(dumps_compact(failure), file=sys.stderr)
        return EXIT_FAILED
    finally:
        if workspaces is not None:
            workspaces.close()
    print(dumps_compact(receipt.wire()))
    return EXIT_OK
