"""Steps run over pages kept where they were made, in this process and in workers.

Worker processes are started when there are several shares.

- A `Step` takes the states of the pages a share keeps (by number) and the value the
  caller gives it, and yields each page's new state and a value to send back.
- The runner knows no step by name: `open_shares` starts a worker per share after the
  first (which this process keeps), and `Shares.run` runs one step on every share at
  once, keeping the new states where they are and returning the values sent, by page.
- Only the values sent and the steps (module-level callables with their small
  arguments) cross processes; a step's states stay in its share between steps.
- One share or several, the same steps run on the same pages, so the result is the
  same.
"""

from __future__ import annotations

import gc
import os
import pickle
import selectors
import signal
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Literal, Self, cast

from ..errors import DocumentError

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

__all__ = ["AUTO", "MOST_PROCESSES", "PAGES_PER_PROCESS", "EachPage", "Jobs", "Shares", "Step",
           "collector_paused", "open_shares", "processes", "processors"]

AUTO: Literal["auto"] = "auto"
"""The processes to read a document in, chosen by `processes` from the processors
and the pages."""

Jobs = int | Literal["auto"]
"""The processes to read a document in: a number, or `AUTO`."""

PAGES_PER_PROCESS = 2
"""The fewest pages a process of its own is started for when the processes are
chosen (`AUTO`): a worker costs a fork and opening the document again, about what
reading a page costs, so a one-page document is read in one process.  Four pages
already read faster in two processes than in one (a four-page paper 0.64-0.82 s ->
0.55-0.59 s, in alternating rounds on two processors)."""

Step = Callable[[Mapping[int, Any], Any], Iterator[tuple[int, Any, Any]]]
"""A step over some pages: given their states by number and the value the caller
gave, yields (number, new state, value sent back) for pages among those it was
given, in order; the states of the pages it yields nothing for are kept as they
were."""


def processors() -> int:
    """The processors this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


MOST_PROCESSES = 8
"""The most processes `AUTO` chooses, however many processors there are: each process
holds a chunk of pages at a time (a peak of about 150 MB), and the work this process
does alone (the decisions across pages, the output) bounds what more of them gain."""


def processes(jobs: Jobs, pages: int) -> int:
    """The processes to read ``pages`` pages in: ``jobs``, or for `AUTO` one per
    processor this process may run on (`MOST_PROCESSES` at most), each with
    `PAGES_PER_PROCESS` pages at least."""
    if jobs != AUTO:
        return int(jobs)
    return max(1, min(processors(), MOST_PROCESSES, pages // PAGES_PER_PROCESS))


@dataclass(frozen=True, slots=True)
class EachPage:
    """A [`Step`][layoutkit.parallel.runner.Step] that calls ``function(state, given)`` on every
    page alone, which returns its new state and the value it sends back.  A frozen value that
    pickles as its function: a module-level one, or a ``functools.partial`` of one
    with the (small) arguments it binds."""

    function: Callable[[Any, Any], tuple[Any, Any]]

    def __call__(self, states: Mapping[int, Any], given: Any) -> Iterator[tuple[int, Any, Any]]:
        for number, state in states.items():
            yield number, *self.function(state, given)


class _Share:
    """The states of some pages, kept between steps where the share lives."""

    def __init__(self, states: Mapping[int, Any]) -> None:
        self.states = dict(states)

    def run(self, step: Step, given: object) -> Iterator[tuple[int, Any]]:
        """Run ``step`` on the pages, keeping their new states; yields each page's
        number and the value it sends back as soon as it is made, so that the
        caller takes in one page while the next is being made."""
        for number, state, sent in step(self.states, given):
            self.states[number] = state
            yield number, sent


@dataclass(frozen=True, slots=True)
class _Failure:
    """An exception a step raised in a worker, sent back to be raised again."""

    error: Exception


def _serve(connection: Connection, share: _Share, parent_ends: Sequence[Connection]) -> None:
    """A worker's life: run the steps it is sent on its share, sending back each
    value as it comes and then None (or the exception a step raised), until the
    parent says stop (None).

    ``parent_ends`` are the parent's ends of the pipes to this worker and to those
    started before it, copied by fork: closed here, so that every worker sees the
    end of its pipe when the parent dies.  A terminal's Ctrl-C (SIGINT to the whole
    process group) is the parent's: it kills its workers as it stops (each printed a
    traceback of its own)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for end in parent_ends:
        end.close()
    with connection, collector_paused():
        try:
            while (request := connection.recv()) is not None:
                step, given = request
                last: _Failure | None = None
                try:
                    for value in share.run(step, given):
                        connection.send_bytes(pickle.dumps(value, pickle.HIGHEST_PROTOCOL))
                except Exception as exc:  # raised again in the parent, as serially
                    last = _Failure(exc)
                connection.send_bytes(_pickled(last))
        except (EOFError, BrokenPipeError):  # the parent is gone
            return


def _pickled(failure: _Failure | None) -> bytes:
    """The end of a step, or the exception it raised, for the parent; an exception
    that cannot be pickled goes as a RuntimeError naming its type and message, so
    that the parent sees why the step failed rather than a worker that stopped."""
    try:
        return pickle.dumps(failure, pickle.HIGHEST_PROTOCOL)
    except Exception:  # the exception (or a value it holds) does not pickle
        assert failure is not None, "None pickles"
        error = failure.error
        return pickle.dumps(_Failure(RuntimeError(f"{type(error).__name__}: {error}")),
                            pickle.HIGHEST_PROTOCOL)


class _Worker:
    """A share kept in a worker process, driven over a pipe."""

    def __init__(self, share: _Share, started: Sequence[_Worker], path: Path) -> None:
        import multiprocessing  # only pages kept in worker processes need it

        self._path = path
        self.connection, child = multiprocessing.Pipe()
        parent_ends = [worker.connection for worker in started] + [self.connection]
        self._process = multiprocessing.Process(target=_serve, args=(child, share, parent_ends),
                                                daemon=True)
        self._process.start()
        child.close()

    def start(self, step: Step, given: object) -> None:
        """Send the worker ``step`` to run with ``given``."""
        try:
            self.connection.send((step, given))
        except (BrokenPipeError, ConnectionResetError):
            raise self._stopped() from None

    def receive(self) -> tuple[int, Any] | None:
        """The next value of the running step, or None when it is done."""
        try:
            data = self.connection.recv_bytes()
        except (EOFError, ConnectionResetError):
            raise self._stopped() from None
        message = pickle.loads(data)
        if isinstance(message, _Failure):
            raise message.error
        return cast(tuple[int, Any] | None, message)

    def _stopped(self) -> DocumentError:
        """The error of a worker that stopped without a word (killed, out of memory)."""
        self._process.join()
        return DocumentError(f"{self._path}: a worker process stopped while reading pages "
                             f"(exit code {self._process.exitcode})")

    def close(self, abort: bool) -> None:
        """Stop the worker: tell it to, or kill it if ``abort`` (another share
        failed and this one may still be busy)."""
        if abort or not self._process.is_alive():
            self._process.kill()
        else:
            try:
                self.connection.send(None)
            except (BrokenPipeError, ConnectionResetError):  # it stopped meanwhile
                self._process.kill()
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


class Shares:
    """One share kept in this process and the others (if any) in worker processes,
    one each; a context manager that stops the workers on leaving."""

    def __init__(self, local: _Share, workers: Sequence[_Worker]) -> None:
        self._local = local
        self._workers = list(workers)

    def run(self, step: Step, given: object = None,
            each: Callable[[int, Any], None] | None = None) -> dict[int, Any]:
        """Run ``step`` on every share at once; returns the values the pages sent, by
        page number (and hands each to ``each`` with its page's number as it comes).

        The workers' values are taken in between this process's own pages, and
        then as they arrive, so that a worker waits at most a page for its values to
        be taken (and the work of taking them in is shared out with the pages)."""
        for worker in self._workers:
            worker.start(step, given)
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
                        if each is not None:
                            each(*message)

            for number, value in self._local.run(step, given):
                values[number] = value
                if each is not None:
                    each(number, value)
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


def open_shares(shares: Sequence[Mapping[int, Any]], path: Path) -> Shares:
    """The pages of ``shares`` (each their first states by number) kept for steps: the
    first share in this process, each other one in a worker process of its own;
    ``path`` names the document in the error raised when a worker dies.

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
        for states in shares[1:]:
            workers.append(_Worker(_Share(states), workers, path))
    except BaseException:
        for worker in workers:
            worker.close(abort=True)
        raise
    finally:
        if freeze:
            gc.unfreeze()
    return Shares(_Share(shares[0]), workers)
