"""Batch on a Dask cluster: the 20-document inbox of :mod:`benchmarks.batch` processed by
``layoutkit batch --executor dask`` with 1, 2 and 4 workers of a local cluster, as
documents and pages per second.

Each worker count runs once, in a fresh interpreter, on a fresh copy of the inbox and
output folder; the time counts from the call to
:func:`~layoutkit.batch.run_batch` to its summary, the cluster's start included (a
second or two: on a cluster of several machines it is started once, apart from the
runs).  The machine's load average when each run starts is told beside it: the runs
share its cores with whatever else it is doing.  Run alone with
``python -m benchmarks.cluster [--update benchmarks/RESULTS.md]``.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from benchmarks.batch import _inbox
from benchmarks.fresh import in_fresh_interpreter
from benchmarks.sections import section_main
from layoutkit.batch import BatchOptions, run_batch

__all__ = ["TITLE", "WORKERS", "ClusterRun", "measure", "section"]

TITLE = "## Batch on a Dask cluster"
WORKERS = (1, 2, 4)
"""The numbers of Dask workers compared."""


@dataclass(frozen=True, slots=True)
class ClusterRun:
    """One run: its workers, the documents and pages done, the wall seconds and the
    load average (1 minute) when it started."""

    workers: int
    documents: int
    pages: int
    seconds: float
    load: float


def _child(argv: Sequence[str]) -> None:
    """The fresh interpreter's side of :func:`measure`: prints the run as JSON."""
    inbox, out, workers = Path(argv[0]), Path(argv[1]), int(argv[2])
    load = os.getloadavg()[0]
    started = time.perf_counter()
    summary = run_batch(BatchOptions(inbox, out, workers=workers, executor="dask"))
    seconds = time.perf_counter() - started
    print(json.dumps(asdict(ClusterRun(workers, summary.done, summary.pages, seconds, load))))


def measure(workers: Sequence[int] = WORKERS) -> list[ClusterRun]:
    """A run with each number of ``workers``."""
    runs = []
    with tempfile.TemporaryDirectory(prefix="layoutkit-cluster-") as folder:
        root = Path(folder)
        _inbox(root / "inbox")
        for count in workers:
            shutil.copytree(root / "inbox", root / str(count) / "inbox")
            out = in_fresh_interpreter("benchmarks.cluster", "_child",
                                       [str(root / str(count) / "inbox"),
                                        str(root / str(count) / "out"), str(count)],
                                       f"cluster benchmark, {count} worker(s)")
            runs.append(ClusterRun(**json.loads(out.strip().splitlines()[-1])))
    return runs


def section(runs: Sequence[ClusterRun]) -> list[str]:
    """The report's section."""
    cores = os.cpu_count() or 1
    lines = [TITLE, "", f"`layoutkit batch --executor dask --workers N` (a local cluster of N"
             f" worker processes, one thread each) on the 20 synthetic gazettes of the batch"
             f" throughput part, on this machine's {cores} cores (`benchmarks/cluster.py`;"
             " the cluster's start counted).", "",
             "| workers | documents | pages | seconds | documents/s | pages/s | load at start |",
             "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    lines += [f"| {r.workers} | {r.documents} | {r.pages} | {r.seconds:.1f} | "
              f"{r.documents / r.seconds:.2f} | {r.pages / r.seconds:.1f} | {r.load:.1f} |"
              for r in runs]
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    return section_main(argv, "cluster", "Batch on a Dask cluster, 1, 2 and 4 workers.",
                        TITLE, "## Layout time against page density",
                        lambda: section(measure()))


if __name__ == "__main__":
    raise SystemExit(main())
