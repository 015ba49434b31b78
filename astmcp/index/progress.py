"""Progress of ``ast-tool index``: a redrawn bar on a terminal, a few plain lines otherwise.

It receives :data:`astmcp.index.indexer.Progress` calls: ``("parse", done, total)`` as
files are parsed, ``("link", 0, changed)`` before the write transaction (the linkers
report nothing, so a ticking clock shows the run is alive), and ``("done", parsed, files)``.
"""

from __future__ import annotations

import threading
import time
from typing import TextIO

_REDRAW_S = 0.1
_TICK_S = 0.25
_WIDTH = 30


class TerminalProgress:
    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.tty = stream.isatty()
        self.started = time.perf_counter()
        self._drawn = 0.0
        self._decile = -1
        self._stop = threading.Event()
        self._ticker: threading.Thread | None = None

    def __call__(self, phase: str, done: int, total: int) -> None:
        if phase == "parse":
            self._parse(done, total)
        elif phase == "link":
            self._link(total)
        elif phase == "done":
            self._done(done, total)

    def _parse(self, done: int, total: int) -> None:
        if total <= 0:
            return
        now = time.perf_counter()
        if not self.tty:
            decile = done * 10 // total
            if decile != self._decile:
                self._decile = decile
                self._line(f"indexing: parsed {done}/{total} files ({done * 100 // total}%)")
            return
        if done < total and now - self._drawn < _REDRAW_S:
            return
        self._drawn = now
        elapsed = now - self.started
        filled = done * _WIDTH // total
        left = elapsed / done * (total - done) if done else 0.0
        eta = f", about {left:.0f} s left" if left >= 1 else ""
        self._draw(
            f"indexing [{'#' * filled}{'-' * (_WIDTH - filled)}] {done}/{total} files"
            f" {done * 100 // total}%  {elapsed:.1f} s{eta}"
        )

    def _link(self, changed: int) -> None:
        label = f"indexing: linking {changed} changed files"
        if not self.tty:
            self._line(label)
            return

        def tick() -> None:
            while not self._stop.is_set():
                self._draw(f"{label}  {time.perf_counter() - self.started:.1f} s")
                self._stop.wait(_TICK_S)

        self._ticker = threading.Thread(target=tick, name="astmcp-progress", daemon=True)
        self._ticker.start()

    def _done(self, parsed: int, files: int) -> None:
        self.close()
        summary = (
            f"indexing: done, {files} files ({parsed} parsed) in {time.perf_counter() - self.started:.1f} s"
        )
        if self.tty:
            self._draw(summary)
            self.stream.write("\n")
            self.stream.flush()
        else:
            self._line(summary)

    def close(self) -> None:
        """Stop the ticking clock (also when the refresh failed)."""
        self._stop.set()
        if self._ticker is not None:
            self._ticker.join()
            self._ticker = None

    def _draw(self, text: str) -> None:
        self.stream.write(f"\r\x1b[K{text}")
        self.stream.flush()

    def _line(self, text: str) -> None:
        self.stream.write(text + "\n")
        self.stream.flush()
