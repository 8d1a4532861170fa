"""One request's document read in a process of its own, within a time and a memory budget.

- The process is forked from a fork server that has imported the reading pipeline
  once (`start`), so it begins reading at once, and nothing of the server's threads
  or sockets is in it.
- Its address space is capped at what it holds and ``page_max_memory`` more (the
  request's configuration: the budget a page read alone gets,
  `layoutkit.sources.alone`), so a document that would take the machine's memory
  fails alone.
- Past its time it ends itself, with every process under it (a converter in a
  session of its own: `layoutkit.batch.pool.end_below`); should it not (stuck in a
  call that never returns), the server kills it a little later.
- It ends with the server too (`layoutkit.batch.orphans.die_with_run`).
- It works in the request's own folder, where its uploads are, named as the client
  named them (so messages and outputs call them so); its temporary files, and those of
  the programs it runs, are made there too, and the server removes it once it has
  answered.

What went wrong is an `Answer` with the HTTP status that says so: 400 a bad request
(a page range, a profile, a truth file), 422 a document that cannot be read (not a
document, corrupt, past a budget), 504 past the time, 500 anything else.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import tempfile
import threading
from dataclasses import dataclass
from multiprocessing.connection import Connection

from ..errors import LayoutkitError, UsageError
from .endpoints import ENDPOINTS, Task

__all__ = ["Answer", "read", "start"]

_CONTEXT = multiprocessing.get_context("forkserver")
_PRELOAD = ["layoutkit.server.endpoints", "layoutkit.pipeline", "layoutkit.sources.pdfium",
            "layoutkit.sources.guard", "pdfminer.pdfdocument", "layoutkit.outputs.named",
            "layoutkit.outputs.markdown", "layoutkit.outputs.html", "layoutkit.outputs.alto",
            "layoutkit.batch.pool", "layoutkit.batch.orphans", "psutil"]
"""What the fork server imports once, for every worker forked from it: the reading of
a born-digital PDF and its outputs (a worker begins in a few hundredths of a second,
not the half second these take to import)."""
_TIMED_OUT = 124
"""A worker's exit status when it ended itself past its time (as timeout(1)'s)."""
_GRACE = 5.0
"""Seconds a worker past its time is given to end itself before it is killed."""
_OUT_OF_MEMORY = (signal.SIGABRT, signal.SIGSEGV, signal.SIGBUS)
"""The signals that end a reader whose allocation failed (PDFium aborts)."""


@dataclass(frozen=True, slots=True)
class Answer:
    """What a request gets: its HTTP status and body (the error's message when the
    status is not 200)."""

    status: int
    body: str


def start() -> None:
    """Start the fork server, the pipeline imported in it, so that the first request
    waits for neither."""
    _CONTEXT.set_forkserver_preload(_PRELOAD)
    worker = _CONTEXT.Process(target=_nothing)
    worker.start()
    worker.join()


def _nothing() -> None:
    """What the first worker does: nothing (it starts the fork server)."""


def read(task: Task, seconds: float) -> Answer:
    """The answer to ``task`` made in a worker process within ``seconds`` and the
    memory budget of the task's configuration; blocks until then."""
    memory = task.config().sources.page_max_memory
    receiving, sending = _CONTEXT.Pipe(duplex=False)
    worker = _CONTEXT.Process(target=_work, args=(sending, task, seconds, memory, os.getpid()),
                              name=f"layoutkit-serve{task.endpoint.replace('/', '-')}")
    worker.start()
    sending.close()
    answer = None
    try:
        if receiving.poll(seconds + _GRACE):
            with contextlib.suppress(EOFError, OSError):  # it ended without a word
                answer = receiving.recv()
    finally:
        receiving.close()
        if worker.is_alive():
            worker.kill()
        worker.join()
    if isinstance(answer, Answer):
        return answer
    return _ending(worker.exitcode, seconds, memory)


def _ending(code: int | None, seconds: float, memory: int) -> Answer:
    """The answer for a worker that ended with the exit ``code`` (negative: killed
    by that signal) without answering."""
    if code in (_TIMED_OUT, -signal.SIGKILL, None):
        return Answer(504, f"took more than {seconds:g} s to read (--timeout); it was stopped")
    if code is not None and code < 0 and signal.Signals(-code) in _OUT_OF_MEMORY:
        return Answer(422, f"needed more memory than page_max_memory ({memory:,} bytes) to "
                           "read; it was stopped")
    how = f"signal {signal.Signals(-code).name}" if code < 0 else f"exit status {code}"
    return Answer(500, f"the worker reading it ended ({how})")


def _work(conn: Connection, task: Task, seconds: float, memory: int, server: int) -> None:
    """Make the task's answer and send it on ``conn`` (the worker's whole life)."""
    from ..batch.orphans import die_with_run
    from ..batch.pool import end_below
    from ..sources.alone import cap_address_space

    die_with_run(server)

    def past_time() -> None:
        end_below()
        os._exit(_TIMED_OUT)

    threading.Timer(seconds, past_time).start()
    # what it and the programs it runs (a converter, tesseract) leave is in the
    # request's folder, which the server removes
    os.chdir(task.folder)
    tempfile.tempdir = os.environ["TMPDIR"] = str(task.folder)
    try:
        cap_address_space(memory)
        answer = Answer(200, ENDPOINTS[task.endpoint].make(task))
    except UsageError as exc:
        answer = Answer(400, str(exc))
    except LayoutkitError as exc:
        answer = Answer(422, str(exc))
    except MemoryError:
        answer = Answer(422, f"needed more memory than page_max_memory ({memory:,} bytes) "
                             "to read")
    except Exception as exc:  # a fault of layoutkit's: the request fails, not the server
        answer = Answer(500, f"{type(exc).__name__}: {exc}")
    try:
        conn.send(answer)
    except MemoryError:
        conn.send(Answer(422, f"its answer needed more memory than page_max_memory "
                              f"({memory:,} bytes)"))
    finally:
        conn.close()
        os._exit(0)
