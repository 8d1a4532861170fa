"""Progress of a batch run: a bar on a terminal, one plain line per item otherwise."""

from __future__ import annotations

from types import TracebackType
from typing import IO, Self

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn
from rich.progress import Progress as RichProgress

__all__ = ["Progress", "counted"]


def counted(number: int, noun: str) -> str:
    """``1 page``, ``2 pages``: a count and its noun, in the plural but for one."""
    return f"{number} {noun}{'' if number == 1 else 's'}"


class Progress:
    """Counts ``total`` items done on ``stream``: a rich bar when the stream is a
    terminal, else a line ``[3/20] name: outcome`` per item (nothing when None)."""

    def __init__(self, stream: IO[str] | None, total: int) -> None:
        self.stream, self.total, self.count = stream, total, 0
        self.bar: RichProgress | None = None
        if stream is not None and stream.isatty() and total:
            self.bar = RichProgress(TextColumn("{task.description}"), BarColumn(),
                                    MofNCompleteColumn(), TimeRemainingColumn(),
                                    console=Console(file=stream), transient=True)
            self.task = self.bar.add_task("layoutkit batch", total=total)

    def __enter__(self) -> Self:
        if self.bar is not None:
            self.bar.start()
        return self

    def advance(self, name: str, outcome: str) -> None:
        """One more item done: ``name`` and what became of it."""
        self.count += 1
        if self.bar is not None:
            self.bar.update(self.task, advance=1, description=name[-40:])
        elif self.stream is not None:
            print(f"layoutkit: batch: [{self.count}/{self.total}] {name}: {outcome}",
                  file=self.stream, flush=True)

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self.bar is not None:
            self.bar.stop()
