"""Pages in parallel: ``parse(..., jobs=2)`` against ``jobs=1`` on the 48-page 2004 issue.

The two settings take turns, round after round, so that a change in machine load
affects both alike; the best wall time of each counts.  Besides wall time, each run
records the CPU seconds of this process (the parent: opening the document, its own
share of the pages, the decisions across pages and taking in the workers' pages and
line types) and of its worker processes (``jobs - 1`` of them, a share of the pages
each).  The processes work at once, so on an idle machine with ``jobs`` cores the
wall time is at least the longest process's CPU (the workers' split evenly) and at
least all of the CPU spread over the cores; ``cpu(jobs=1)`` over that is the speed-up
the CPU times allow (ignoring the waits between steps, so a generous bound).

Each parse runs in a fresh interpreter, as in the command, so that what the process
holds already (a benchmark's other results: forking a process of a large heap and
copying its pages on write takes time) does not count; ``layoutkit text --jobs N``
itself is timed in the same rounds, interpreter start and imports included.

Usage: ``python -m benchmarks.jobs [--rounds N]`` prints the table.
"""

from __future__ import annotations

import argparse
import gc
import json
import resource
import subprocess
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass

from benchmarks.fresh import finished, in_fresh_interpreter
from benchmarks.peers import REPO, layoutkit_cli_command
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
    """One parse of :data:`JOBS_PDF` with ``jobs`` processes; with ``command`` a run of
    ``layoutkit text --jobs N``, its CPU times not told apart (all in ``parent_cpu``)."""

    jobs: int
    wall: float
    parent_cpu: float
    workers_cpu: float
    command: bool = False

    @property
    def bound(self) -> float:
        """The wall time this run's CPU allows with ``jobs`` idle cores (see the module's
        docstring)."""
        worker = self.workers_cpu / (self.jobs - 1) if self.jobs > 1 else 0.0
        return max(self.parent_cpu, worker, (self.parent_cpu + self.workers_cpu) / self.jobs)


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


def _child(argv: Sequence[str]) -> None:
    """The fresh interpreter's side of :func:`time_fresh`: prints the run as JSON."""
    print(json.dumps(asdict(time_parse(int(argv[0])))))


def time_fresh(jobs: int) -> JobsRun:
    """:func:`time_parse` in a fresh interpreter."""
    return JobsRun(**json.loads(in_fresh_interpreter("benchmarks.jobs", "_child", [str(jobs)],
                                                     f"jobs benchmark, jobs={jobs}")))


def time_command(jobs: int) -> JobsRun:
    """``layoutkit text --jobs N`` on :data:`JOBS_PDF`, its wall and CPU time."""
    children = _children_cpu()
    wall = time.perf_counter()
    done = subprocess.run([*layoutkit_cli_command(), "text", "--jobs", str(jobs), str(JOBS_PDF)],
                          cwd=REPO, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - wall
    finished(done, f"jobs benchmark, layoutkit text --jobs {jobs}")
    return JobsRun(jobs, wall, _children_cpu() - children, 0.0, command=True)


def measure(rounds: int = ROUNDS) -> list[JobsRun]:
    """Every run, the settings of :data:`JOBS` taking turns for ``rounds`` rounds, each
    round a parse in a fresh interpreter with each, then the command with each."""
    return [timed(jobs) for _ in range(rounds) for timed in (time_fresh, time_command)
            for jobs in JOBS]


def ratio(runs: Sequence[JobsRun], command: bool = False) -> float:
    """Best wall time with ``JOBS[0]`` processes over best with ``JOBS[1]``, of the
    parses (or with ``command``, of the commands)."""
    first, second = ([r.wall for r in runs if r.jobs == jobs and r.command is command]
                     for jobs in JOBS)
    return min(first) / min(second)


def table(runs: Sequence[JobsRun]) -> list[str]:
    """The markdown table of ``runs`` (best of each setting), the ratio with its spread
    over the rounds, the bound the CPU times set, and the command's times."""
    out = ["| jobs | runs | best wall (s) | all walls (s) | parent CPU (s) | workers CPU (s) |"
           " bound (s) |",
           "| ---: | ---: | ---: | --- | ---: | ---: | ---: |"]
    parses = [r for r in runs if not r.command]
    best: dict[int, JobsRun] = {}
    for jobs in JOBS:
        mine = [r for r in parses if r.jobs == jobs]
        best[jobs] = min(mine, key=lambda r: r.wall)
        b = best[jobs]
        out.append(f"| {jobs} | {len(mine)} | {b.wall:.2f} | "
                   f"{', '.join(f'{r.wall:.2f}' for r in mine)} | {b.parent_cpu:.2f} | "
                   f"{b.workers_cpu:.2f} | {b.bound:.2f} |")
    one, two = JOBS
    per_round = [a.wall / b.wall for a, b in zip(parses[0::2], parses[1::2], strict=True)]
    allowed = min(r.bound for r in parses if r.jobs == one) / min(
        r.bound for r in parses if r.jobs == two)
    share = best[two].parent_cpu / best[one].parent_cpu
    commands = {jobs: min(r.wall for r in runs if r.command and r.jobs == jobs)
                for jobs in JOBS}
    out += ["", f"Ratio jobs {one} / jobs {two}, best walls: {ratio(runs):.2f} "
            f"(round by round: {', '.join(f'{v:.2f}' for v in per_round)}; "
            f"bar ≥ {JOBS_BAR:g}). Allowed by the CPU times on {two} idle cores: {allowed:.2f}. "
            f"The parent's CPU with jobs {two} (its share of the pages, the decisions across "
            f"pages, taking in the workers' pages) is {share:.1%} of the CPU of jobs {one}. "
            f"The command `layoutkit text --jobs N`, interpreter start and imports included: "
            f"best walls {commands[one]:.2f} s and {commands[two]:.2f} s, ratio "
            f"{ratio(runs, command=True):.2f}."]
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
