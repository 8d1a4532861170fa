"""Workers that do not outlive the run that started them.

A local worker is forked from the fork server, not from the run's process, and each
holds the pipe that keeps the fork server going: killed alone (`kill -9`), the run
would leave its fork server and workers running for good, still writing into staging
folders the next run uses.

- Each worker watches the run's process (`die_with_run`, as it starts) and ends as
  soon as it ends, with the processes under it (a converter).
- Once the workers are gone, the fork server and the resource tracker see their pipes
  close and end too.
"""

from __future__ import annotations

import os
import select
import threading
import time

from .pool import end_below

__all__ = ["die_with_run"]

WATCH_INTERVAL = 1.0
"""Seconds between two looks at the run's process where it cannot be waited for
(no ``pidfd_open``: not Linux, or a kernel older than 5.3)."""


def die_with_run(run: int) -> None:
    """Start a thread that ends this process (status 1) and the processes under it
    when the process ``run`` ends; returns at once."""
    threading.Thread(target=_watch, args=(run,), daemon=True, name="die-with-run").start()


def _watch(run: int) -> None:
    """Wait for the process ``run`` to end, then end the processes under this one, and
    this one."""
    try:
        handle = os.pidfd_open(run)
    except (AttributeError, OSError):  # no pidfd here: look every WATCH_INTERVAL
        while _running(run):
            time.sleep(WATCH_INTERVAL)
    else:
        select.select([handle], [], [])  # readable once the process has ended
    end_below()
    os._exit(1)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
