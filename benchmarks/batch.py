"""Batch throughput: the same 20-document inbox processed with one worker and with
two, in the same run, as pages per second and their ratio.

The inbox holds synthetic gazettes (every layout case, seeds 0-2, 2-4 pages
each).  Each configuration runs ``ROUNDS`` times, alternating, on a fresh copy
of the inbox, output folder and state database; the best time of each counts.
Run alone with ``python -m benchmarks.batch [--update benchmarks/RESULTS.md]``.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from itertools import cycle, islice
from pathlib import Path

from benchmarks.sections import section_main
from fixtures.synthetic import CASES, gazette
from layoutkit.batch import BatchOptions, run_batch

TITLE = "## Batch throughput"
DOCUMENTS = 20
"""Documents in the benchmark's inbox."""
WORKERS = (1, 2)
"""The worker counts compared; the first is the baseline."""
ROUNDS = 2
"""Runs of each worker count; the best counts."""
BAR = 1.7
"""Two workers must process at least this many times the pages per second of one."""


@dataclass(frozen=True, slots=True)
class BatchTiming:
    """The best of a worker count's runs: documents, pages and seconds, and the
    machine's load average (runnable processes, 1 minute) when it started."""

    workers: int
    documents: int
    pages: int
    seconds: float
    load: float

    @property
    def pages_per_second(self) -> float:
        return self.pages / self.seconds


def _inbox(folder: Path) -> None:
    folder.mkdir(parents=True)
    pairs = islice(((case, seed) for seed in range(3) for case in CASES), DOCUMENTS)
    for case, seed in pairs:
        (folder / f"{case}-s{seed}.pdf").write_bytes(gazette(case, "linear", seed).pdf)


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
        for n, workers in enumerate(islice(cycle(WORKERS), rounds * len(WORKERS))):
            root = Path(scratch) / str(n)
            _inbox(root / "inbox")
            load = os.getloadavg()[0]
            started = time.perf_counter()
            summary = run_batch(BatchOptions(root / "inbox", root / "out", workers=workers))
            seconds = time.perf_counter() - started
            if summary.done != DOCUMENTS:
                raise RuntimeError(f"batch benchmark: {summary.text().strip()}")
            timing = BatchTiming(workers, summary.done, summary.pages, seconds, load)
            if workers not in best or seconds < best[workers].seconds:
                best[workers] = timing
    return [best[w] for w in WORKERS]


def section(timings: Sequence[BatchTiming], machine: float) -> list[str]:
    """The report's section: what was measured, the table, the bar, and the machine's
    ceiling measured in the same run."""
    base = timings[0].pages_per_second
    lines = [TITLE, "", f"`layoutkit batch` on an inbox of {timings[0].documents} synthetic "
             f"gazettes ({timings[0].pages} pages), best of {ROUNDS} alternating runs each, "
             f"on {os.cpu_count()} CPUs (`benchmarks/batch.py`). Bar: 2 workers ≥ {BAR} × "
             "1 worker; it can only be met with 2 CPUs to spare (a load average below 1 "
             "before the run).", "",
             "| workers | documents | pages | seconds | pages/s | × 1 worker | load before |",
             "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for t in timings:
        ratio = t.pages_per_second / base
        mark = "" if t.workers == WORKERS[0] else (" ✓" if ratio >= BAR else " ✗")
        lines.append(f"| {t.workers} | {t.documents} | {t.pages} | {t.seconds:.1f} | "
                     f"{t.pages_per_second:.2f} | {ratio:.2f}{mark} | {t.load:.1f} |")
    return [*lines, "", f"The machine's ceiling in the same run: a CPU-bound loop ran "
            f"{machine:.2f} × as fast in 2 processes as in 1 (`ceiling()`)."]


def main(argv: Sequence[str] | None = None) -> int:
    return section_main(argv, "batch", "Batch throughput, 1 worker against 2.",
                        TITLE, "## Layout time against page density",
                        lambda: section(measure(), ceiling()))


if __name__ == "__main__":
    raise SystemExit(main())
