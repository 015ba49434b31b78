"""A test linker shared by the refresh tests."""

from __future__ import annotations

import sqlite3

from astmcp.index.indexer import Changes


class Recorder:
    """A linker that remembers what each refresh handed it."""

    def __init__(self) -> None:
        self.calls: list[Changes] = []

    def __call__(self, conn: sqlite3.Connection, changes: Changes) -> None:
        self.calls.append(changes)
