"""A fixture project with one of each built-in diagnostic."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture
def mixed(fixture_project: Any, caller: Any) -> Any:
    return caller(fixture_project("diagnostics/mixed"))
