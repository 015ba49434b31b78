"""The indexer pauses the cyclic collector while it analyses one file (speed), and must leave the
collector as it found it and the file's cyclic garbage freed."""

from __future__ import annotations

import gc
import weakref

from astmcp.index.indexer import _one_young_collection


class _Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: only the cyclic collector frees it


def test_collector_is_paused_inside_and_frees_the_cycles_after() -> None:
    assert gc.isenabled()
    with _one_young_collection():
        assert not gc.isenabled()
        ref = weakref.ref(_Node())
        assert ref() is not None  # garbage, but no collection ran
    assert gc.isenabled()
    assert ref() is None


def test_a_collector_the_host_turned_off_stays_off() -> None:
    gc.disable()
    try:
        with _one_young_collection():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
