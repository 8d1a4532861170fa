"""The local workers of a batch run: processes that each hold one job at a time.

The run then knows which job a worker held when it died.

- A worker that dies (SIGKILL from the kernel when memory runs out, SIGABRT or SIGSEGV
  from a native library) costs only the job it held: that job ends `Lost`, with the
  signal in words, and a new worker takes the dead one's place for the jobs left (a
  `ProcessPoolExecutor` fails every job queued behind it with `BrokenProcessPool`).
- A terminal's Ctrl-C (SIGINT to the whole foreground process group) is the run's to
  handle: the workers ignore it.
- When the run stops early (Ctrl-C, an error), every worker is ended at once with the
  processes under it (a converter, a page read in a process of its own), their process
  groups and sessions when they have their own (a converter's, `bounded`), so the run
  ends within a second and leaves nothing running.
- What the workers had written is scratch the next run clears (see
  `actions.clear_scratch`).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import suppress
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any, Generic, TypeVar

from ..sources.bounded import end_session

__all__ = ["Lost", "end_below", "end_tree", "run_jobs"]

J = TypeVar("J")
R = TypeVar("R")

STOP_SECONDS = 5.0
"""How long the run waits for a worker it killed to be gone (it always is within
milliseconds: SIGKILL cannot be caught) before it goes on without it."""


@dataclass(frozen=True, slots=True)
class Lost:
    """A job whose worker died before it returned the job's result: why, in words
    (``its worker was ended by SIGKILL``)."""

    reason: str


class _Worker(Generic[J]):
    """A worker process, the parent's end of its pipe and the job it holds."""

    def __init__(self, context: Any, work: Callable[[J], Any], start: Callable[..., None],
                 start_args: tuple[Any, ...]) -> None:
        self.connection, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child, work, start, start_args),
                                       daemon=True, name="layoutkit-batch-worker")
        self.process.start()
        child.close()  # the worker's end lives in the worker alone: its death is an EOF here
        self.job: J | None = None

    def give(self, job: J | None) -> None:
        """Send the worker ``job`` to do (None: stop)."""
        self.job = job
        with suppress(BrokenPipeError, ConnectionResetError):  # dead: its sentinel tells
            self.connection.send(job)

    def death(self) -> str:
        """Why the worker ended, in words, once it has."""
        self.process.join()
        code = self.process.exitcode
        if code is not None and code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            return f"its worker was ended by {name}"
        return f"its worker exited with status {code}"


def run_jobs(jobs: Sequence[J], workers: int, work: Callable[[J], R],
             start: Callable[..., None], start_args: tuple[Any, ...] = ()
             ) -> Iterator[tuple[J, R | Lost]]:
    """Each job with ``work(job)`` as ``workers`` processes (at most one a job) return
    it, as they finish, or with `Lost` when the worker doing it died.

    Each worker, forked from the fork server (its modules loaded once), runs
    ``start(*start_args)`` first.  ``work`` and ``start`` are module-level functions
    (they are sent to the workers by name).  Leaving the iteration early (closing it,
    or an exception in the caller's loop such as Ctrl-C's KeyboardInterrupt) ends every
    worker and the processes under it (`end_tree`)."""
    if not jobs:
        return
    context = multiprocessing.get_context("forkserver")
    waiting: deque[J] = deque(jobs)
    busy: list[_Worker[J]] = []
    try:
        for _ in range(min(workers, len(waiting))):
            busy.append(_Worker(context, work, start, start_args))
            busy[-1].give(waiting.popleft())
        while busy:
            ready = set(wait([w.connection for w in busy] + [w.process.sentinel for w in busy]))
            for worker in [w for w in busy if w.connection in ready or w.process.sentinel in ready]:
                job, result = worker.job, _result(worker)
                if job is not None:
                    yield job, result
                if isinstance(result, Lost) or job is None:
                    busy.remove(worker)
                    worker.connection.close()
                    if isinstance(result, Lost) and waiting:  # a new worker takes its place
                        busy.append(_Worker(context, work, start, start_args))
                        busy[-1].give(waiting.popleft())
                else:
                    worker.give(waiting.popleft() if waiting else None)
    finally:
        for worker in busy:
            end_tree(worker.process.pid)
        for worker in busy:
            worker.process.join(STOP_SECONDS)
            worker.connection.close()


def _result(worker: _Worker[J]) -> Any:
    """What the worker sent for its job, or `Lost` when it died instead (or,
    having no job, the worker's end)."""
    try:
        if worker.connection.poll():
            return worker.connection.recv()
    except (EOFError, OSError):
        pass
    return Lost(worker.death())


def _serve(connection: Connection, work: Callable[[Any], Any], start: Callable[..., None],
           start_args: tuple[Any, ...]) -> None:
    """A worker's life: ``start(*start_args)``, then each job it is sent done and its
    result sent back, until it is sent None or the run is gone.  A terminal's Ctrl-C
    is the run's process's to handle (it ends the workers)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    start(*start_args)
    try:
        while (job := connection.recv()) is not None:
            connection.send(work(job))
    except (EOFError, BrokenPipeError, ConnectionResetError):  # the run is gone
        return


def end_tree(pid: int | None) -> None:
    """End the process ``pid`` (SIGKILL) and every process under it (see
    `end_below`); returns at once.  The process is stopped (SIGSTOP) first, so
    that it starts no process while the ones under it are found."""
    import psutil  # only the run's process needs it, when it stops its workers

    if pid is None:
        return
    try:
        top = psutil.Process(pid)
        top.suspend()
        below = top.children(recursive=True)
        top.kill()
    except psutil.Error:  # gone already: what was under it is found no more
        return
    _end(below)


def end_below() -> None:
    """End every process under this one (SIGKILL), with the process groups of those
    that have one of their own (a converter run in a session of its own; never this
    process's group); returns at once."""
    import psutil  # only a worker whose run has ended needs it

    with suppress(psutil.Error):
        _end(psutil.Process().children(recursive=True))


def _end(processes: Sequence[Any]) -> None:
    """SIGKILL each of ``processes`` (psutil's), the process group of each that leads
    or belongs to one other than this process's, and every process of each session
    other than this process's (a converter's, see `layoutkit.sources.bounded.end_session`: it
    may hold processes no longer under it)."""
    import psutil

    group, session = os.getpgrp(), os.getsid(0)
    sessions: set[int] = set()
    for process in processes:
        with suppress(psutil.Error, OSError):
            own_group, own_session = os.getpgid(process.pid), os.getsid(process.pid)
            if own_session not in (session, 0, 1):  # its groups go with the session
                sessions.add(own_session)
            elif own_group not in (group, 0, 1):
                os.killpg(own_group, signal.SIGKILL)
            process.kill()
    for other in sessions:
        end_session(other)
