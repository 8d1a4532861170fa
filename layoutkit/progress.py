"""Progress of a long command on a terminal: a bar on standard error.

It is shown once the command has run for `DELAY` seconds (a short one shows nothing),
never when standard error is not a terminal.
"""

from __future__ import annotations

import time
from typing import IO, TYPE_CHECKING

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

__all__ = ["DELAY", "PagesBar", "pages_bar"]

DELAY = 2.0
"""Seconds a command runs before its bar is shown."""


class PagesBar:
    """A `PageProgress` drawn on ``stream``: the phase, the
    pages done of its pages, pages per second and the pages read by OCR."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream
        self.began = self.phase_began = time.monotonic()
        self.phase, self.total, self.done, self.ocr = "", 0, 0, 0
        self.bar: Progress | None = None
        self.task: TaskID | None = None

    def start(self, phase: str, total: int) -> None:
        self.phase, self.total, self.done = phase, total, 0
        self.phase_began = time.monotonic()
        self._show()

    def advance(self, ocr: bool) -> None:
        self.done += 1
        self.ocr += ocr
        self._show()
        if self.done == self.total and self.phase == "laying out":
            self.close()

    def _show(self) -> None:
        """Draw the bar, once `DELAY` seconds have passed."""
        now = time.monotonic()
        if self.bar is None:
            if now - self.began < DELAY or self.done == self.total:
                return
            # rich is imported by a run long enough to show a bar
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

            self.bar = Progress(TextColumn("{task.description:<10}"), BarColumn(),
                                MofNCompleteColumn(), TextColumn("pages {task.fields[rate]}"),
                                TextColumn("{task.fields[ocr]}"),
                                console=Console(file=self.stream), transient=True)
            self.task = self.bar.add_task(self.phase, total=self.total, rate="", ocr="")
            self.bar.start()
        assert self.task is not None
        seconds = now - self.phase_began
        self.bar.update(self.task, description=self.phase, total=self.total,
                        completed=self.done,
                        rate=f"{self.done / seconds:.1f}/s" if seconds > 0 else "",
                        ocr=f"OCR {self.ocr}" if self.ocr else "")

    def close(self) -> None:
        """Take the bar away."""
        if self.bar is not None:
            self.bar.stop()
            self.bar = None


def pages_bar(stream: IO[str], quiet: bool) -> PagesBar | None:
    """A bar on ``stream`` if it is a terminal and the command is not ``quiet``."""
    return None if quiet or not stream.isatty() else PagesBar(stream)
