"""The in-memory plan store of one workspace (SPEC §4: TTL 15 min, at most 100, oldest evicted)."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path

from astmcp.refactor.plan import PLAN_TTL_S, Plan

MAX_PLANS = 100
Clock = Callable[[], float]


class PlanStore:
    """Plans by operation id. Expired plans linger one more TTL so apply can say EXPIRED
    rather than NOT_FOUND; beyond ``capacity`` the oldest is evicted.

    ``state_dir`` (receipts, locks, plan files) is given by the front door; when it
    is None the first use resolves it from the process environment once. With ``persist``
    (the CLI, whose process ends after one call) every plan put is also written as a plan file
    (SPEC §4) and a plan not in memory is read back from its file, so a later
    ``ast-tool call ast_apply_operation`` or ``ast-tool apply`` finds it.
    """

    def __init__(
        self,
        clock: Clock = time.time,
        state_dir: Path | None = None,
        capacity: int = MAX_PLANS,
        ttl_s: float = PLAN_TTL_S,
    ) -> None:
        self.clock = clock
        self._state_dir = state_dir
        self.capacity = capacity
        self.ttl_s = ttl_s
        self._plans: OrderedDict[str, Plan] = OrderedDict()
        self._lock = threading.Lock()
        self.persist = False
        self.root: str | None = None  # a persisted plan of another project is not this store's

    @property
    def state_dir(self) -> Path:
        if self._state_dir is None:
            import os

            from astmcp.refactor.state import state_dir_from_env

            self._state_dir = state_dir_from_env(os.environ)
        return self._state_dir

    @state_dir.setter
    def state_dir(self, value: Path) -> None:
        self._state_dir = value

    def put(self, plan: Plan) -> None:
        with self._lock:
            self._purge()
            self._plans[plan.operation_id] = plan
            while len(self._plans) > self.capacity:
                self._plans.popitem(last=False)
        if self.persist:
            self.plan_file(plan.operation_id)

    def get(self, operation_id: str) -> Plan | None:
        with self._lock:
            self._purge()
            found = self._plans.get(operation_id)
        if found is not None or not self.persist:
            return found
        from astmcp.refactor.planfile import plan_file_path, read_plan_file

        path = plan_file_path(self.state_dir, operation_id)
        if not path.exists() and not path.is_symlink():
            return None
        plan = read_plan_file(path)  # refuses unsafe or tampered files (INVALID_INPUT)
        if self.root is not None and plan.project_root != self.root:
            return None
        with self._lock:
            self._plans[operation_id] = plan
        return plan

    def plan_file(self, operation_id: str) -> Path:
        """Write the stored plan ``operation_id`` to ``<state>/plans/`` (0600); its path."""
        from astmcp.refactor.planfile import save_plan_file

        return save_plan_file(self._plans[operation_id], self.state_dir)

    def __len__(self) -> int:
        with self._lock:
            return len(self._plans)

    def _purge(self) -> None:
        now = self.clock()
        for key in [k for k, p in self._plans.items() if p.expires_ts() + self.ttl_s < now]:
            del self._plans[key]
