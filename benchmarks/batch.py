"""Batch throughput: the same 20-document inbox processed with one worker and with
two, in the same run, as pages per second and their ratio.

The inbox holds synthetic gazettes (every layout case, seeds 0-2, 2-4 pages
each).  Each configuration runs ``ROUNDS`` times, alternating, on a fresh copy
of the inbox, output folder and state database, in a fresh interpreter (as each
``layoutkit batch`` command is, so that no run finds the workers' fork server of
an earlier one already started); the best time of each counts.  Besides the wall
time of :func:`~layoutkit.batch.run_batch`, each run records the CPU seconds of
the run's own process (the parent: registering, moving, recording), of the fork
server (importing what the workers need, before the first document can start)
and of the workers (the documents' actions).  Run alone with
``python -m benchmarks.batch [--update benchmarks/RESULTS.md]``.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from itertools import cycle, islice
from pathlib import Path

import psutil

from benchmarks.fresh import in_fresh_interpreter
from benchmarks.sections import section_main
from fixtures.synthetic import CASES, gazette
from layoutkit.batch import BatchOptions, run_batch

TITLE = "## Batch throughput"
DOCUMENTS = 20
"""Documents in the benchmark's inbox."""
WORKERS = (1, 2)
"""The worker counts compared; the first is the baseline."""
ROUNDS = 3
"""Runs of each worker count; the best counts."""
BAR = 1.7
"""Two workers must process at least this many times the pages per second of one."""


@dataclass(frozen=True, slots=True)
class BatchTiming:
    """One run of a worker count: documents, pages and wall seconds; the CPU seconds
    of the run's process (``parent``), of the workers' fork server (with
    multiprocessing's resource tracker), of the workers, and of every other process
    on the machine meanwhile (``others``: what the run had to share its CPUs with);
    and the machine's load average (1 minute) when it started."""

    workers: int
    documents: int
    pages: int
    seconds: float
    parent: float
    server: float
    worker_cpu: float
    others: float
    load: float

    @property
    def pages_per_second(self) -> float:
        return self.pages / self.seconds

    @property
    def bound(self) -> float:
        """The wall seconds this run's CPU allows on idle cores, one per worker: the
        fork server's imports, which every worker waits for, then the workers' CPU
        shared evenly (the parent's own work runs beside them)."""
        return self.server + self.worker_cpu / self.workers


def _inbox(folder: Path) -> None:
    folder.mkdir(parents=True)
    pairs = islice(((case, seed) for seed in range(3) for case in CASES), DOCUMENTS)
    for case, seed in pairs:
        (folder / f"{case}-s{seed}.pdf").write_bytes(gazette(case, "linear", seed).pdf)


def _cpu(usage: resource.struct_rusage) -> float:
    return usage.ru_utime + usage.ru_stime


def _machine_busy() -> float:
    """CPU seconds the whole machine has spent on anything but waiting (including
    what the hypervisor gave other machines; guest time, which Linux counts in user
    time already, not twice)."""
    times = psutil.cpu_times()
    waiting = ("idle", "iowait", "guest", "guest_nice")
    return sum(times) - sum(getattr(times, name, 0.0) for name in waiting)


def run_alone(inbox: Path, out: Path, workers: int) -> BatchTiming:
    """One batch run in this process, which must be a fresh one: its times.

    The fork server and the resource tracker are this process's only children;
    the workers are the fork server's, which it has reaped (adding their CPU time
    to its children's) once the run has shut its pool down.
    """
    load = os.getloadavg()[0]
    busy = _machine_busy()
    before = _cpu(resource.getrusage(resource.RUSAGE_SELF))
    started = time.perf_counter()
    summary = run_batch(BatchOptions(inbox, out, workers=workers))
    seconds = time.perf_counter() - started
    parent = _cpu(resource.getrusage(resource.RUSAGE_SELF)) - before
    busy = _machine_busy() - busy
    if summary.done != DOCUMENTS:
        raise RuntimeError(f"batch benchmark: {summary.text().strip()}")
    helpers = [child.cpu_times() for child in psutil.Process().children()]
    server = sum(t.user + t.system for t in helpers)
    worker_cpu = sum(t.children_user + t.children_system for t in helpers)
    return BatchTiming(workers, summary.done, summary.pages, seconds, parent, server,
                       worker_cpu, max(0.0, busy - parent - server - worker_cpu), load)


def _child(argv: Sequence[str]) -> None:
    """The fresh interpreter's side of :func:`_timed`: prints the run's times as JSON."""
    inbox, out, workers = argv
    print(json.dumps(asdict(run_alone(Path(inbox), Path(out), int(workers)))))


def _timed(root: Path, workers: int) -> BatchTiming:
    """Process a copy of the inbox in ``root`` in a fresh interpreter; its times."""
    shutil.copytree(root / "inbox", root / str(workers) / "inbox")
    out = in_fresh_interpreter("benchmarks.batch", "_child",
                               [str(root / str(workers) / "inbox"),
                                str(root / str(workers) / "out"), str(workers)],
                               f"batch benchmark, {workers} worker(s)")
    shutil.rmtree(root / str(workers))
    return BatchTiming(**json.loads(out))


def _spin(count: int) -> int:
    """CPU-bound work with nothing to share: the ceiling's unit."""
    return sum(i * i for i in range(count))


def ceiling(rounds: int = ROUNDS) -> float:
    """How many times faster the same CPU-bound work runs in 2 processes than in 1
    on this machine now: the most any 2-worker batch can gain here (2.0 on 2 idle
    CPUs, 1.0 on a machine with none to spare)."""
    best: dict[int, float] = {}
    for workers in islice(cycle(WORKERS), rounds * len(WORKERS)):
        started = time.perf_counter()
        with ProcessPoolExecutor(max_workers=workers) as pool:
            list(pool.map(_spin, [3_000_000] * 4))
        seconds = time.perf_counter() - started
        best[workers] = min(seconds, best.get(workers, seconds))
    return best[WORKERS[0]] / best[WORKERS[-1]]


def measure(rounds: int = ROUNDS) -> list[BatchTiming]:
    """The best run of each worker count in :data:`WORKERS`."""
    best: dict[int, BatchTiming] = {}
    with tempfile.TemporaryDirectory(prefix="layoutkit-batch-bench-") as scratch:
        _inbox(Path(scratch) / "inbox")
        for workers in islice(cycle(WORKERS), rounds * len(WORKERS)):
            timing = _timed(Path(scratch), workers)
            if workers not in best or timing.seconds < best[workers].seconds:
                best[workers] = timing
    return [best[w] for w in WORKERS]


def section(timings: Sequence[BatchTiming], machine: float) -> list[str]:
    """The report's section: what was measured, the table, the bar, and the machine's
    ceiling measured in the same run."""
    base = timings[0]
    lines = [TITLE, "", f"`layoutkit batch` on an inbox of {base.documents} synthetic "
             f"gazettes ({base.pages} pages), best of {ROUNDS} alternating runs each, "
             f"each in a fresh interpreter, on {os.cpu_count()} CPUs (`benchmarks/batch.py`)."
             f" Bar: 2 workers ≥ {BAR} × 1 worker; it can only be met with 2 CPUs to spare "
             "(a load average below 1 before the run). CPU seconds of the run's own "
             "process (parent), of the fork server the workers are started from (the "
             "imports they need) and of the workers; *bound* is the wall time that CPU "
             "allows on idle cores, one per worker: server + workers / workers; *others* "
             "is the CPU time every other process on the machine took during the run.",
             "", "| workers | documents | pages | seconds | pages/s | × 1 worker | CPU parent "
             "| CPU server | CPU workers | bound | bound × 1 worker | CPU others | load before |",
             "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
             "| ---: | ---: |"]
    for t in timings:
        ratio = t.pages_per_second / base.pages_per_second
        mark = "" if t.workers == WORKERS[0] else (" ✓" if ratio >= BAR else " ✗")
        lines.append(f"| {t.workers} | {t.documents} | {t.pages} | {t.seconds:.2f} | "
                     f"{t.pages_per_second:.2f} | {ratio:.2f}{mark} | {t.parent:.2f} | "
                     f"{t.server:.2f} | {t.worker_cpu:.2f} | {t.bound:.2f} | "
                     f"{base.bound / t.bound:.2f} | {t.others:.2f} | {t.load:.1f} |")
    return [*lines, "", f"The machine's ceiling in the same run: a CPU-bound loop ran "
            f"{machine:.2f} × as fast in 2 processes as in 1 (`ceiling()`)."]


def main(argv: Sequence[str] | None = None) -> int:
    return section_main(argv, "batch", "Batch throughput, 1 worker against 2.",
                        TITLE, "## Layout time against page density",
                        lambda: section(measure(), ceiling()))


if __name__ == "__main__":
    raise SystemExit(main())
