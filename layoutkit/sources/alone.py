"""A page read in a process of its own, within a time and a memory budget.

The structure check (`guard`) finds the pages that draw far more than an ordinary
page; a glyph engine may run on for minutes over such a page, or, PDFium, abort the
process when an allocation fails.  `read_alone` reads one in a child forked for it:

- its address space capped at `page_max_memory` more than the reading process holds;
- its time bounded by `page_max_seconds`, then it is killed;

so that what goes wrong costs the page, reported unreadable, and not the document.
Ordinary pages are read in the reading process and pay nothing for this.
"""

from __future__ import annotations

import os
import pickle
import resource
import select
import signal
import time
from pathlib import Path

from ..config import LayoutConfig
from ..errors import DocumentError
from ..model import PageGlyphs

__all__ = ["cap_address_space", "limit_address_space", "read_alone"]

_OUT_OF_MEMORY = (signal.SIGABRT, signal.SIGSEGV, signal.SIGBUS)
"""The signals that end a reader whose allocation failed (PDFium aborts; a C library
may touch memory it did not get)."""


def read_alone(path: Path, engine: str, page_no: int, config: LayoutConfig
               ) -> PageGlyphs | str:
    """Page ``page_no`` of ``path`` read by ``engine`` in a child process within the
    budgets of ``config.sources``; or why it could not be read within them (a reason
    to report, beginning with a verb).  A page the engine cannot load is the
    DocumentError it raises, as in this process."""
    sources = config.sources
    receiving, sending = os.pipe()
    child = os.fork()
    if child == 0:  # the child, which ends in os._exit
        os.close(receiving)
        _child(sending, path, engine, page_no, config)
    os.close(sending)
    data = None
    try:
        data = _received(receiving, time.monotonic() + sources.page_max_seconds)
    finally:
        os.close(receiving)
        if data is None:
            os.kill(child, signal.SIGKILL)
        status = os.waitpid(child, 0)[1]
    if data is None:
        return (f"took more than page_max_seconds ({sources.page_max_seconds:g} s) to read, "
                f"in a process of its own")
    result = _unpickled(data)
    if isinstance(result, DocumentError):
        raise result
    if isinstance(result, PageGlyphs):
        return result
    if result == MemoryError.__name__ or (os.WIFSIGNALED(status)
                                         and os.WTERMSIG(status) in _OUT_OF_MEMORY):
        return (f"needed more memory than page_max_memory ({sources.page_max_memory:,} "
                f"bytes) to read, in a process of its own")
    return f"stopped its reader ({_ending(status)}), in a process of its own"


def _unpickled(data: bytes) -> object:
    """What the child sent, None for nothing whole (it ended as it wrote)."""
    try:
        return pickle.loads(data)
    except (pickle.UnpicklingError, EOFError, ValueError):
        return None


def _ending(status: int) -> str:
    """How a child process ended, in words."""
    if os.WIFSIGNALED(status):
        return f"signal {signal.Signals(os.WTERMSIG(status)).name}"
    return f"exit code {os.waitstatus_to_exitcode(status)}"


def _received(fd: int, deadline: float) -> bytes | None:
    """All a child writes to ``fd`` until it closes it; None when ``deadline`` (of
    `time.monotonic`) passes first."""
    chunks: list[bytes] = []
    while True:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            return None
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def _child(fd: int, path: Path, engine: str, page_no: int, config: LayoutConfig) -> None:
    """Read the page, write its glyphs (or the DocumentError, or the name MemoryError)
    pickled to ``fd`` and end the process, whatever happens."""
    try:
        # what an engine prints as it aborts is the parent's to put in words
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 2)
        cap_address_space(config.sources.page_max_memory)
        from . import open_source

        with open_source(path, engine) as source:
            result: object = next(iter(source.pages([page_no])))
    except MemoryError:
        result = MemoryError.__name__
    except DocumentError as exc:
        result = exc
    except BaseException:  # any other end is told by the exit code
        os._exit(3)
    try:
        try:
            data = pickle.dumps(result, pickle.HIGHEST_PROTOCOL)
        except MemoryError:
            data = pickle.dumps(MemoryError.__name__)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os._exit(0)


def cap_address_space(budget: int) -> None:
    """Limit this process's address space to what it holds now and ``budget`` more,
    within the limit it already has."""
    holding = int(Path("/proc/self/statm").read_text().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    limit_address_space(holding + budget)


def limit_address_space(cap: int) -> None:
    """Limit this process's address space to ``cap`` bytes, or to the limit it already
    has where that is lower (raising the soft limit past it would fail)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    for limit in (soft, hard):
        if limit != resource.RLIM_INFINITY:
            cap = min(cap, limit)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
