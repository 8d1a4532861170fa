"""Benchmark runs in a fresh interpreter, as a command runs: nothing the benchmark's
own process holds (other systems' results in its heap, a batch's fork server
already started) counts in them."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence

from benchmarks.peers import REPO

__all__ = ["finished", "in_fresh_interpreter"]


def finished(done: subprocess.CompletedProcess[str], what: str) -> str:
    """The standard output of the finished run ``done``; a RuntimeError naming
    ``what`` with the run's last error line when it failed."""
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
        raise RuntimeError(f"{what}: {last}")
    return done.stdout


def in_fresh_interpreter(module: str, function: str, args: Sequence[str], what: str) -> str:
    """What ``function`` of ``module``, called with the list ``args``, prints when run
    in a fresh interpreter from the repository's root (see :func:`finished`).

    The interpreter runs ``-c`` code, so that worker processes it starts have no main
    module to import (``python -m layoutkit`` has none either)."""
    code = f"import sys; from {module} import {function}; {function}(sys.argv[1:])"
    return finished(subprocess.run([sys.executable, "-c", code, *args], cwd=REPO,
                                   capture_output=True, text=True, check=False), what)
