"""A document's pages shared out among processes, each keeping its pages between steps.

Laying out a page needs two things only the whole document knows: which edge
lines repeat from page to page (running headers and footers) and the column
gutters the pages have in common; typing its lines needs a few more (see
:mod:`layoutkit.linetypes.driver`).  So a page is read, summarised, laid out and
typed in steps, with the document-level decisions taken between them::

    share (worker)                               parent
    read, words, edge lines   -- EdgeLines -->   repeating_runs
    furniture, gutters        <-- runs -------
                              -- gutters --->    shared_gutters
    segment, lay out          <-- shared -----
                              -- Pages ----->    Document
    type lines, in steps      <-> small values   decisions across pages
                              -- line types -->  Document typed

Each share keeps its glyphs, words and prepared pages where it made them; only
the small values on the arrows and the laid-out pages cross processes (the pages
while the shares lay out the next ones, the line types at the end); the parent
keeps one share itself.  One process or several, the same :class:`PageShare` steps
run on the same pages, so the result is the same.

A publication profile's section runs on from the page where it starts, so the
lay-out step also returns the section running at the end of each page; the parent
lays out again the pages whose section turns out to be another than assumed
(see :func:`layoutkit.api.parse`).
"""

from __future__ import annotations

import gc
import pickle
import selectors
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Protocol, Self, cast

from .config import LayoutConfig
from .errors import DocumentError
from .extract import open_source
from .furniture import EdgeLines, Furniture, Runs, edge_lines, page_furniture
from .linetypes.driver import PageStep, PageTyping
from .model import NO_GLYPHS, OcrQuality, Page, PageGlyphs, Word
from .ocr import is_scanned, ocr_scanned_page
from .order import body_words, layout_page
from .segment import PageCanvas, prepare, segment
from .words import words_from_glyphs

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

    from .profile import Profile, Section

__all__ = ["Gutters", "PageShare", "Shares", "collector_paused", "open_shares"]

Gutters = tuple[tuple[float, float], ...]
"""The x ranges of a page's column gutters."""


class PageShare:
    """Some pages of one document, read, laid out and typed step by step.

    The steps run in order: :meth:`read`, :meth:`gutters`, :meth:`lay_out`, then the
    steps of line typing (:meth:`type_lines`); each keeps what the next one needs (the
    one mutable holder of the pipeline, so that a worker process can keep its pages
    between steps) and yields its result page by page, as (page number, value), so
    that the parent takes in one page while the next is being made.
    """

    def __init__(self, path: Path, engine: str, numbers: Sequence[int], count: int,
                 wanted: frozenset[int], config: LayoutConfig,
                 profile: Profile | None = None) -> None:
        self.path = path
        self.engine = engine
        self.numbers = tuple(numbers)
        self.count = count
        self.wanted = wanted
        self.config = config
        self.profile = profile
        self._read: list[tuple[PageGlyphs, tuple[Word, ...], EdgeLines]] = []
        self._scanned: list[tuple[OcrQuality | None, bool]] = []
        self._prepared: list[tuple[Furniture, list[Word], PageCanvas]] = []
        self._laid_out: dict[int, Page] = {}
        """The wanted pages laid out last and not yet typed, by index among the wanted
        pages."""
        self._typing: dict[int, PageTyping] = {}
        """The wanted pages being typed, by the same index."""

    def read(self) -> Iterator[tuple[int, EdgeLines]]:
        """Read the pages' words; yields each page's candidate furniture lines."""
        self._read = []
        self._scanned = []
        with open_source(self.path, self.engine, image_dpi=self.config.image_dpi) as source:
            for g in source.pages(self.numbers):
                words = words_from_glyphs(g.glyphs, self.config)
                quality = None
                if is_scanned(self.path, g, words, self.config):
                    g, words, quality = ocr_scanned_page(self.path, g, words, self.config)
                self._scanned.append((quality, bool(words)))
                if self.profile:
                    # the profile stage, like the profile package, only with a profile
                    from .profile.stage import without_ignored

                    words = without_ignored(self.profile, g, words, self.count, self.config)
                edges = edge_lines(words, g.height, self.config)
                # a page's glyphs are dropped once they are words
                self._read.append((replace(g, glyphs=NO_GLYPHS), words, edges))
                yield g.page_no, edges

    def scanned(self) -> Iterator[tuple[int, tuple[OcrQuality | None, bool]]]:
        """Each page's OCR quality (None when it was not read by OCR) and whether it
        has any words (before a profile's ignored regions are taken out)."""
        for (g, _, _), scanned in zip(self._read, self._scanned, strict=True):
            yield g.page_no, scanned

    def gutters(self, runs: Mapping[int, Runs]) -> Iterator[tuple[int, Gutters]]:
        """Decide the pages' furniture from the repeating ``runs`` of their edge lines
        (by page number) and prepare their bodies; yields each page's own gutters."""
        self._prepared = []
        for g, words, edges in self._read:
            found = page_furniture(words, edges, runs[g.page_no], self.config)
            if self.profile:
                from .profile.stage import profile_furniture

                found = profile_furniture(self.profile, g, words, found)
            body = body_words(words, found)[0]
            canvas = prepare(body, g.rules, g.images, g.width, g.height, self.config)
            self._prepared.append((found, body, canvas))
            yield g.page_no, canvas.gutters

    def lay_out(self, shared: Gutters, entering: Mapping[int, Section | None]
                ) -> Iterator[tuple[int, tuple[Section | None, Page | None]]]:
        """Lay out the pages named in ``entering``, ``shared`` being the document's
        common gutters and ``entering`` the profile section running into each page;
        yields the section running on at its end, with the page if it is wanted."""
        for (g, words, _), (found, body, canvas) in zip(self._read, self._prepared,
                                                        strict=True):
            if g.page_no not in entering:
                continue
            leaving = None
            if self.profile:
                from .profile.stage import profile_tree

                tree, leaving = profile_tree(self.profile, g, words, body, canvas, shared,
                                             self.count, entering[g.page_no], self.config)
            else:
                tree = segment(canvas, shared)
            page = None
            if g.page_no in self.wanted:
                page = layout_page(g, words, found, tree, self.config)
                self._laid_out[sum(1 for n in self.wanted if n < g.page_no)] = page
            yield g.page_no, (leaving, page)

    def type_lines(self, step: PageStep, given: object) -> Iterator[tuple[int, Any]]:
        """Run a step of line typing (see :mod:`layoutkit.linetypes.driver`) on the
        wanted pages laid out last; yields the value each sends, by the page's index
        among the wanted pages (its index in the document)."""
        # typing starts here, from the pages laid out last: a parse whose lines are not
        # typed makes none of its values
        self._typing.update((index, PageTyping.of(page, index))
                            for index, page in self._laid_out.items())
        self._laid_out = {}
        for index, typing in self._typing.items():
            self._typing[index], sent = step(typing, given, self.config)
            yield index, sent


Step = Callable[..., Iterator[tuple[int, Any]]]
"""A method of :class:`PageShare`, called with the share first."""


class Shares(Protocol):
    """The shares of a document's pages and where they live; a context manager that
    stops worker processes on leaving."""

    def run(self, step: Step, *args: object) -> dict[int, Any]:
        """Run ``step`` on every share at once; returns its values by the number they
        come with (the page number; for line typing the page's index in the document)."""
        ...

    def __enter__(self) -> Self: ...

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None: ...


@dataclass(frozen=True, slots=True)
class _Failure:
    """An exception a step raised in a worker, sent back to be raised again."""

    error: Exception


def _serve(connection: Connection, share: PageShare, parent_ends: Sequence[Connection]) -> None:
    """A worker's life: run the steps it is sent on its share, sending back each
    value as it comes and then None (or the exception a step raised), until the
    parent says stop (None).

    ``parent_ends`` are the parent's ends of the pipes to this worker and to those
    started before it, copied by fork: closed here, so that every worker sees the
    end of its pipe when the parent dies."""
    for end in parent_ends:
        end.close()
    with connection, collector_paused():
        try:
            while (request := connection.recv()) is not None:
                step, args = request
                last: _Failure | None = None
                try:
                    for value in step(share, *args):
                        connection.send_bytes(pickle.dumps(value, pickle.HIGHEST_PROTOCOL))
                except Exception as exc:  # raised again in the parent, as serially
                    last = _Failure(exc)
                connection.send_bytes(pickle.dumps(last, pickle.HIGHEST_PROTOCOL))
        except (EOFError, BrokenPipeError):  # the parent is gone
            return


class _Worker:
    """A share kept in a worker process, driven over a pipe."""

    def __init__(self, share: PageShare, started: Sequence[_Worker]) -> None:
        import multiprocessing  # only pages read in worker processes need it

        self._path = share.path
        self.connection, child = multiprocessing.Pipe()
        parent_ends = [worker.connection for worker in started] + [self.connection]
        self._process = multiprocessing.Process(target=_serve, args=(child, share, parent_ends),
                                                daemon=True)
        self._process.start()
        child.close()

    def start(self, step: Step, *args: object) -> None:
        self.connection.send((step, args))

    def receive(self) -> tuple[int, Any] | None:
        """The next value of the running step, or None when it is done."""
        try:
            data = self.connection.recv_bytes()
        except EOFError:
            self._process.join()
            raise DocumentError(f"{self._path}: a worker process stopped while reading pages "
                                f"(exit code {self._process.exitcode})") from None
        message = pickle.loads(data)
        if isinstance(message, _Failure):
            raise message.error
        return cast(tuple[int, Any] | None, message)

    def close(self, abort: bool) -> None:
        """Stop the worker: tell it to, or kill it if ``abort`` (another share
        failed and this one may still be busy)."""
        if abort or not self._process.is_alive():
            self._process.kill()
        else:
            self.connection.send(None)
        self._process.join()
        self.connection.close()


@contextmanager
def collector_paused() -> Iterator[None]:
    """Runs the block with the cyclic garbage collector paused, and leaves it as it was.

    Reading a document makes a few hundred thousand small values (glyph runs, words,
    boxes, lines), none in a reference cycle, and each collection they trigger while
    they are made traverses all of them made so far: over a tenth of a parse.  The
    few cycles a parse leaves are collected when the collector runs again."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class _Running:
    """One share kept in this process and the others (if any) in worker processes,
    one each."""

    def __init__(self, local: PageShare, workers: Sequence[_Worker]) -> None:
        self._local = local
        self._workers = list(workers)

    def run(self, step: Step, *args: object) -> dict[int, Any]:
        """The workers' values are taken in between this process's own pages, and
        then as they arrive, so that a worker waits at most a page for its values to
        be taken (and the work of taking them in is shared out with the pages)."""
        for worker in self._workers:
            worker.start(step, *args)
        values: dict[int, Any] = {}
        with selectors.DefaultSelector() as busy:
            for worker in self._workers:
                busy.register(worker.connection, selectors.EVENT_READ, worker)

            def take_in(timeout: float | None) -> None:
                for ready, _ in busy.select(timeout):
                    message = cast(_Worker, ready.data).receive()
                    if message is None:
                        busy.unregister(ready.fileobj)
                    else:
                        values[message[0]] = message[1]

            for number, value in step(self._local, *args):
                values[number] = value
                take_in(0)
            while busy.get_map():
                take_in(None)
        return values

    def __enter__(self) -> Self:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        for worker in self._workers:
            worker.close(abort=exc_type is not None)


def open_shares(shares: Sequence[PageShare]) -> Shares:
    """The ``shares``: the first kept in this process, each other one in a worker
    process of its own.

    This process has the decisions across pages to take and the workers' pages to
    take in; a share of its own keeps it busy while the workers are, instead of a
    process more on the cores (with two processes on two cores, 1.55-1.58 -> 1.62-1.66
    times as fast as one on the 48-page 2004 City Record, in alternating rounds)."""
    workers: list[_Worker] = []
    # the objects a worker inherits are left out of its garbage collections, which would
    # otherwise touch (and so copy) their memory; unless the caller froze some itself
    freeze = len(shares) > 1 and gc.get_freeze_count() == 0
    if freeze:
        gc.freeze()
    try:
        for share in shares[1:]:
            workers.append(_Worker(share, workers))
    except BaseException:
        for worker in workers:
            worker.close(abort=True)
        raise
    finally:
        if freeze:
            gc.unfreeze()
    return _Running(shares[0], workers)
