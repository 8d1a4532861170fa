"""A document's pages shared out among processes, each keeping its pages between steps.

Laying out a page needs two things only the whole document knows: which edge
lines repeat from page to page (running headers and footers) and the column
gutters the pages have in common.  So a page is read, summarised, and laid out
in three steps, with the document-level decisions taken between them::

    share (worker)                               parent
    read, words, edge lines   -- EdgeLines -->   repeating_runs
    furniture, gutters        <-- runs -------
                              -- gutters --->    shared_gutters
    segment, lay out          <-- shared -----
                              -- Pages ----->    Document

Each share keeps its glyphs, words and prepared pages where it made them; only
the small values on the arrows and the laid-out pages cross processes.  One
process or several, the same :class:`PageShare` steps run on the same pages, so
the result is the same.
"""

from __future__ import annotations

import gc
import multiprocessing
import pickle
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol, Self

from .config import LayoutConfig
from .errors import DocumentError
from .extract import open_source
from .furniture import EdgeLines, Furniture, edge_lines, page_furniture
from .model import Page, PageGlyphs, Word
from .order import body_words, layout_page
from .segment import PageCanvas, prepare, segment
from .words import words_from_glyphs

__all__ = ["Gutters", "PageShare", "Shares", "open_shares"]

Gutters = tuple[tuple[float, float], ...]
"""The x ranges of a page's column gutters."""


class PageShare:
    """Some pages of one document, read and laid out step by step.

    The steps run in order: :meth:`read`, :meth:`gutters`, :meth:`lay_out`; each
    keeps what the next one needs (the one mutable holder of the pipeline, so that
    a worker process can keep its pages between steps).
    """

    def __init__(self, path: Path, engine: str, numbers: Sequence[int],
                 wanted: frozenset[int], config: LayoutConfig) -> None:
        self.path = path
        self.engine = engine
        self.numbers = tuple(numbers)
        self.wanted = wanted
        self.config = config
        self._read: list[tuple[PageGlyphs, tuple[Word, ...]]] = []
        self._edges: list[EdgeLines] = []
        self._prepared: list[tuple[Furniture, PageCanvas]] = []

    def read(self) -> list[EdgeLines]:
        """Read the pages' words; returns each page's candidate furniture lines."""
        with open_source(self.path, self.engine) as source:
            # a page's glyphs are dropped once they are words
            self._read = [(replace(g, glyphs=()),
                           words_from_glyphs(g.glyphs, self.config))
                          for g in source.pages(self.numbers)]
        self._edges = [edge_lines(words, g.height, self.config) for g, words in self._read]
        return self._edges

    def gutters(self, runs: Sequence[tuple[int, int]]) -> list[Gutters]:
        """Decide the pages' furniture from the repeating ``runs`` of their edge lines
        and prepare their bodies; returns each page's own gutters."""
        self._prepared = []
        for (g, words), edges, page_runs in zip(self._read, self._edges, runs, strict=True):
            found = page_furniture(words, edges, page_runs, self.config)
            self._prepared.append((found, prepare(body_words(words, found)[0], g.rules,
                                                  g.images, g.width, g.height, self.config)))
        return [canvas.gutters for _, canvas in self._prepared]

    def lay_out(self, shared: Gutters) -> list[Page]:
        """The wanted pages laid out, ``shared`` being the document's common gutters."""
        return [layout_page(g, words, found, segment(canvas, shared), self.config)
                for (g, words), (found, canvas) in zip(self._read, self._prepared, strict=True)
                if g.page_no in self.wanted]


Step = Callable[..., Any]
"""A method of :class:`PageShare`, called with the share first."""


class _Holder(Protocol):
    """Where a share lives: this process or a worker."""

    def start(self, step: Step, *args: object) -> None: ...

    def result(self) -> Any: ...

    def close(self, abort: bool) -> None: ...


class _Here:
    """A share kept in this process; a step runs as soon as it is started."""

    def __init__(self, share: PageShare) -> None:
        self._share = share
        self._result: Any = None

    def start(self, step: Step, *args: object) -> None:
        self._result = step(self._share, *args)

    def result(self) -> Any:
        return self._result

    def close(self, abort: bool) -> None:
        self._result = None


@dataclass(frozen=True, slots=True)
class _Failure:
    """An exception a step raised in a worker, sent back to be raised again."""

    error: Exception


def _serve(connection: Connection, share: PageShare, parent_ends: Sequence[Connection]) -> None:
    """A worker's life: run the steps it is sent on its share and send back the
    results (or the exception a step raised) until the parent says stop (None).

    ``parent_ends`` are the parent's ends of the pipes to this worker and to those
    started before it, copied by fork: closed here, so that every worker sees the
    end of its pipe when the parent dies."""
    for end in parent_ends:
        end.close()
    with connection:
        try:
            while (request := connection.recv()) is not None:
                step, args = request
                try:
                    reply: object = step(share, *args)
                except Exception as exc:  # raised again in the parent, as serially
                    reply = _Failure(exc)
                connection.send_bytes(pickle.dumps(reply, protocol=pickle.HIGHEST_PROTOCOL))
        except (EOFError, BrokenPipeError):  # the parent is gone
            return


class _Worker:
    """A share kept in a worker process, driven over a pipe."""

    def __init__(self, share: PageShare, started: Sequence[_Worker]) -> None:
        self._path = share.path
        self._connection, child = multiprocessing.Pipe()
        parent_ends = [worker._connection for worker in started] + [self._connection]
        self._process = multiprocessing.Process(target=_serve, args=(child, share, parent_ends),
                                                daemon=True)
        self._process.start()
        child.close()

    def start(self, step: Step, *args: object) -> None:
        self._connection.send((step, args))

    def result(self) -> Any:
        try:
            data = self._connection.recv_bytes()
        except EOFError:
            self._process.join()
            raise DocumentError(f"{self._path}: a worker process stopped while reading pages "
                                f"(exit code {self._process.exitcode})") from None
        reply = _unpickle(data)
        if isinstance(reply, _Failure):
            raise reply.error
        return reply

    def close(self, abort: bool) -> None:
        """Stop the worker: tell it to, or kill it if ``abort`` (another share
        failed and this one may still be busy)."""
        if abort or not self._process.is_alive():
            self._process.kill()
        else:
            self._connection.send(None)
        self._process.join()
        self._connection.close()


def _unpickle(data: bytes) -> Any:
    """``pickle.loads(data)`` with the cyclic garbage collector paused: laid-out pages
    are a few hundred thousand small objects, none in a cycle, and collections
    triggered while they are built would double the time."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return pickle.loads(data)
    finally:
        if enabled:
            gc.enable()


class Shares:
    """The shares of a document's pages and where they live; a context manager that
    stops the worker processes on leaving."""

    def __init__(self, holders: Sequence[_Holder]) -> None:
        self._holders = list(holders)

    def run(self, step: Step, args: Sequence[tuple[object, ...]] | None = None) -> list[Any]:
        """Run ``step`` on every share at once (with that share's ``args``); returns
        the results, share by share, when all are done."""
        for k, holder in enumerate(self._holders):
            holder.start(step, *(args[k] if args is not None else ()))
        return [holder.result() for holder in self._holders]

    def __enter__(self) -> Self:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        for holder in self._holders:
            holder.close(abort=exc_type is not None)


def open_shares(shares: Sequence[PageShare]) -> Shares:
    """The ``shares``, one in this process, or each in a worker process of its own."""
    if len(shares) == 1:
        return Shares([_Here(shares[0])])
    workers: list[_Worker] = []
    try:
        for share in shares:
            workers.append(_Worker(share, workers))
    except BaseException:
        for worker in workers:
            worker.close(abort=True)
        raise
    return Shares(workers)
