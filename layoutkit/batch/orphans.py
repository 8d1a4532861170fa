"""Workers that do not outlive the run that started them.

A local worker is forked from the fork server, which ends when the run's process
ends (its pipe from the run closes); each worker asks the kernel (``prctl``'s
``PR_SET_PDEATHSIG``, through ctypes, on Linux) to be killed when the fork server
ends, so that a run killed by ``kill -9`` leaves no worker behind writing into a
staging folder the next run uses.  Where the call is missing (not Linux), a thread
watches the parent instead.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import sys
import threading
import time

__all__ = ["die_with_parent"]

_PR_SET_PDEATHSIG = 1
"""``prctl`` option: the signal the calling process gets when its parent ends."""

WATCH_INTERVAL = 1.0
"""Seconds between two looks at the parent where ``prctl`` is missing."""


def die_with_parent() -> None:
    """Arrange for this process to end when its parent does (the initializer of a
    batch's worker processes); returns at once."""
    parent = os.getppid()
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        if libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0:
            if os.getppid() != parent:  # the parent ended before the call
                os._exit(1)
            return
    threading.Thread(target=_watch, args=(parent,), daemon=True).start()


def _watch(parent: int) -> None:
    """End this process once ``parent`` is no longer its parent."""
    while os.getppid() == parent:
        time.sleep(WATCH_INTERVAL)
    os._exit(1)
