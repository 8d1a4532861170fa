"""A converter run as a bounded child, leaving nothing running afterwards.

A converter (pandoc, LibreOffice) is bounded so:

- It starts in a new session (`setsid`), so every process it starts (LibreOffice's
  `oosplash` starts `soffice.bin`) is one of that session.
- When it ends, or runs past its time (`convert_max_seconds`), every process of the
  session still there is killed: its process group, and any process the session holds
  that left the group, found in `/proc`.
- `RLIMIT_AS` bounds each process's address space (`convert_max_memory`): a converter
  reading `/dev/zero` fails on its own instead of taking the machine's memory.
- Where the system permits a new network namespace (`unshare --net`, as root or in a
  user namespace), it runs in one with no interface but a loopback that is down:
  nothing it reads can reach any address.  Where it does not, the converters' own
  settings refuse content from outside the document (`convert`).
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import resource
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from .alone import limit_address_space

__all__ = ["Ended", "end_session", "offline_prefix", "run_bounded"]

_log = logging.getLogger(__name__)

_STDERR_TAIL = 65_536
"""The bytes of a converter's standard error kept (its last ones), for the message."""

_KILL_ROUNDS = 50
"""Times the processes of a session are looked for and killed, 0.1 s apart, before
giving up on one that will not die (a process stuck in the kernel)."""


_POLL = 0.05
"""Seconds between looks at whether a converter has ended."""


@dataclass(frozen=True, slots=True)
class Ended:
    """How a bounded run ended: its exit status (negative: the signal that killed
    it), the end of its standard error, and whether it ran past its time (then it
    was killed)."""

    returncode: int
    stderr: str
    timed_out: bool = False


def run_bounded(command: Sequence[str], *, seconds: float, memory: int, cwd: Path,
                offline: bool = True) -> Ended:
    """Run ``command`` in ``cwd`` in a session of its own, each of its processes
    limited to ``memory`` bytes of address space, for at most ``seconds``; ``offline``
    in a network namespace of its own when the system permits one
    (`offline_prefix`).  Every process of the session is gone when this
    returns; returns how the run ended."""
    prefix = offline_prefix() if offline else ()
    with tempfile.TemporaryFile(dir=cwd) as err:
        child = subprocess.Popen([*prefix, *command], cwd=cwd, stdin=subprocess.DEVNULL,
                                 stdout=subprocess.DEVNULL, stderr=err,
                                 start_new_session=True, preexec_fn=_limits(memory))
        try:
            timed_out = not _ended(child.pid, seconds)
        finally:
            end_session(child.pid)
            child.wait()
        err.seek(max(0, err.seek(0, os.SEEK_END) - _STDERR_TAIL))
        tail = err.read().decode("utf-8", "replace")
    return Ended(child.returncode, tail, timed_out)


def _ended(pid: int, seconds: float) -> bool:
    """Whether the child ``pid`` ends within ``seconds``; it is not reaped, so that its
    pid, the session's, names no other process while the session is ended."""
    deadline = time.monotonic() + seconds
    while os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT | os.WNOHANG) is None:
        if time.monotonic() >= deadline:
            return False
        time.sleep(_POLL)
    return True


def _limits(memory: int) -> Callable[[], None]:
    """What the child runs before the converter: the address-space bound, and no
    core file (a converter that fails at the bound would write one)."""

    def limit() -> None:
        limit_address_space(memory)
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    return limit


def end_session(session: int) -> None:
    """Kill every process of the session ``session`` (its leader's pid) and wait until
    none is left running (zombies, dead already, are left to their parents)."""
    for _ in range(_KILL_ROUNDS):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(session, signal.SIGKILL)
        left = session_processes(session)
        if not left:
            return
        for pid in left:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.1)
    _log.warning("processes %s of a stopped converter would not end",
                 ", ".join(map(str, session_processes(session))))


def session_processes(session: int) -> list[int]:
    """The processes of the session ``session`` still running (zombies left out), as
    ``/proc`` lists them; the process group alone would miss one that made a group
    of its own."""
    found: list[int] = []
    if not Path("/proc").is_dir():  # no /proc to look in: the process group alone
        return found
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with Path(entry.path, "stat").open("rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue  # ended meanwhile
        # after the command's name: state, parent, process group, session
        if len(fields) > 3 and int(fields[3]) == session and fields[0] not in (b"Z", b"X"):
            found.append(int(entry.name))
    return found


@functools.cache
def offline_prefix() -> tuple[str, ...]:
    """The command that runs a converter in a network namespace of its own (``unshare
    --net``, or with ``--map-root-user`` where only a user namespace is permitted);
    empty when the system permits neither (a container without the capability), in
    which case the converters' settings alone keep them off the network."""
    unshare = shutil.which("unshare")
    if unshare is None:
        return ()
    for prefix in ((unshare, "--net"), (unshare, "--net", "--map-root-user")):
        try:
            done = subprocess.run([*prefix, "true"], capture_output=True, timeout=10,
                                  check=False)
        except (OSError, subprocess.TimeoutExpired):
            continue
        if done.returncode == 0:
            return prefix
    _log.debug("no network namespace permitted here; converters keep off the network "
               "by their settings alone")
    return ()
