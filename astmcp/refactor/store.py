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
    is None the first use resolves it from the process environment once.
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

    def get(self, operation_id: str) -> Plan | None:
        with self._lock:
            self._purge()
            return self._plans.get(operation_id)

    def __len__(self) -> int:
        with self._lock:
            return len(self._plans)

    def _purge(self) -> None:
        now = self.clock()
        for key in [k for k, p in self._plans.items() if p.expires_ts() + self.ttl_s < now]:
            del self._plans[key]
