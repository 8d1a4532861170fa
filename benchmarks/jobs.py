"""Pages in parallel: ``parse(..., jobs=2)`` against ``jobs=1`` on the 48-page 2004 issue.

The two settings take turns, round after round, so that a change in machine load
affects both alike; the best wall time of each counts.  Besides wall time, each run
records the CPU seconds of this process (the parent: opening the document, the
decisions across pages, taking in the laid-out pages and typing their lines from the
workers' line types) and of its worker processes.  Counting the parent's part as
serial and the workers' part as shared among them, ``cpu(jobs=1) / (parent + workers
/ jobs)`` is the speed-up the structure allows on an idle machine with ``jobs`` cores
(Amdahl's bound, ignoring uneven shares; the parent takes in most pages while the
workers lay out the next ones, so the bound is a cautious one).

Usage: ``python -m benchmarks.jobs [--rounds N]`` prints the table.
"""

from __future__ import annotations

import argparse
import gc
import resource
import time
from collections.abc import Sequence
from dataclasses import dataclass

from benchmarks.peers import REPO
from layoutkit import parse

JOBS_PDF = REPO / "fixtures" / "pdf" / "cleveland-city-record-2004-06-09.pdf"
"""The document of the parallel part: 48 pages of three-column City Record."""

JOBS = (1, 2)
"""The process counts compared; the ratio of the first to the second is the bar's."""

ROUNDS = 3
"""Runs of each setting; the best counts, and the spread of the ratio is reported."""

JOBS_BAR = 1.6
"""The speed issue's bar: ``jobs=2`` at least this many times faster than ``jobs=1``."""


@dataclass(frozen=True, slots=True)
class JobsRun:
    """One parse of :data:`JOBS_PDF` with ``jobs`` processes."""

    jobs: int
    wall: float
    parent_cpu: float
    workers_cpu: float

    @property
    def bound(self) -> float:
        """The wall time this run's CPU allows with ``jobs`` idle cores."""
        return self.parent_cpu + self.workers_cpu / self.jobs


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def time_parse(jobs: int) -> JobsRun:
    """Parse :data:`JOBS_PDF` once with ``jobs`` processes; returns its times."""
    gc.collect()
    children = _children_cpu()
    cpu = time.process_time()
    wall = time.perf_counter()
    parse(JOBS_PDF, jobs=jobs)
    wall = time.perf_counter() - wall
    return JobsRun(jobs, wall, time.process_time() - cpu, _children_cpu() - children)


def measure(rounds: int = ROUNDS) -> list[JobsRun]:
    """Every run, the settings of :data:`JOBS` taking turns for ``rounds`` rounds."""
    return [time_parse(jobs) for _ in range(rounds) for jobs in JOBS]


def ratio(runs: Sequence[JobsRun]) -> float:
    """Best wall time with ``JOBS[0]`` processes over best with ``JOBS[1]``."""
    first, second = ([r.wall for r in runs if r.jobs == jobs] for jobs in JOBS)
    return min(first) / min(second)


def table(runs: Sequence[JobsRun]) -> list[str]:
    """The markdown table of ``runs`` (best of each setting), the ratio with its spread
    over the rounds, and Amdahl's bound from the CPU times."""
    out = ["| jobs | runs | best wall (s) | all walls (s) | parent CPU (s) | workers CPU (s) |"
           " parent + workers / jobs (s) |",
           "| ---: | ---: | ---: | --- | ---: | ---: | ---: |"]
    best: dict[int, JobsRun] = {}
    for jobs in JOBS:
        mine = [r for r in runs if r.jobs == jobs]
        best[jobs] = min(mine, key=lambda r: r.wall)
        b = best[jobs]
        out.append(f"| {jobs} | {len(mine)} | {b.wall:.2f} | "
                   f"{', '.join(f'{r.wall:.2f}' for r in mine)} | {b.parent_cpu:.2f} | "
                   f"{b.workers_cpu:.2f} | {b.bound:.2f} |")
    one, two = JOBS
    per_round = [a.wall / b.wall for a, b in zip(runs[0::2], runs[1::2], strict=True)]
    allowed = min(r.bound for r in runs if r.jobs == one) / min(
        r.bound for r in runs if r.jobs == two)
    share = best[two].parent_cpu / best[one].parent_cpu
    out += ["", f"Ratio jobs {one} / jobs {two}, best walls: {ratio(runs):.2f} "
            f"(round by round: {', '.join(f'{v:.2f}' for v in per_round)}; "
            f"bar ≥ {JOBS_BAR:g}). Allowed by the CPU times on {two} idle cores: {allowed:.2f}. "
            f"The parent's CPU with jobs {two} is {share:.1%} of the CPU of jobs {one}."]
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Measure and print the table."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.jobs",
                                     description="parse with jobs=1 against jobs=2")
    parser.add_argument("--rounds", type=int, default=ROUNDS, help="runs of each setting")
    args = parser.parse_args(argv)
    print("\n".join(table(measure(args.rounds))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
