"""Long documents: the comparison of pages across the document on 10,000 pages of
summaries.

The running headers and footers are the one step that compares pages
(:func:`layoutkit.geometry.furniture.repeating_runs`), and it sees only each page's
:class:`~layoutkit.geometry.furniture.EdgeLines`.  The summaries measured are those of
real documents of the fixtures (a gazette, a parliament's record, lecture notes, the
City Record), read once and repeated until there are as many pages as asked: their
running headers, page numbers, first and last body lines as printed.  Each count of
pages is timed ``ROUNDS`` times; the best wall time and the CPU time of that run count
(the machine is shared, the CPU time is what the step itself takes).

Usage: ``python -m benchmarks.scale [--update benchmarks/RESULTS.md]``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from benchmarks.peers import REPO
from benchmarks.sections import section_main
from layoutkit.config import LayoutConfig
from layoutkit.geometry.furniture import EdgeLines, edge_lines, repeating_runs
from layoutkit.geometry.words import words_from_glyphs
from layoutkit.sources import open_source

__all__ = ["CROSS_BAR", "SUMMARY_PDFS", "TITLE", "CrossRun", "measure_cross", "summaries"]

TITLE = "## Long documents"

SUMMARY_PDFS = tuple(REPO / "fixtures" / path for path in (
    "corpus/diario-oficial-uniao-2014-10-01.pdf",
    "corpus/bayerischer-landtag-plenarprotokoll-17-140.pdf",
    "pdf/geotopo-lecture-notes-de.pdf",
    "corpus/gazzetta-ufficiale-serie-generale-2025-111.pdf",
    "pdf/cleveland-city-record-2004-06-09.pdf"))
"""The documents whose pages' summaries are repeated (528 pages)."""

CROSS_PAGES = (1_000, 5_000, 10_000)
"""The numbers of pages the comparison across pages is timed on."""

CROSS_BAR = 1.0
"""The bar: 10,000 pages of summaries compared in under this many seconds."""

ROUNDS = 3


@dataclass(frozen=True, slots=True)
class CrossRun:
    """The comparison across ``pages`` pages of summaries: best wall and its CPU time."""

    pages: int
    wall: float
    cpu: float


def summaries(config: LayoutConfig) -> list[EdgeLines]:
    """The :class:`EdgeLines` of every page of :data:`SUMMARY_PDFS`, in order."""
    out = []
    for path in SUMMARY_PDFS:
        with open_source(path) as source:
            out += [edge_lines(words_from_glyphs(g.glyphs, config.words), g.height, config,
                               g.label or str(g.page_no))
                    for g in source.pages(list(range(1, source.page_count + 1)))]
    return out


def measure_cross(counts: Sequence[int] = CROSS_PAGES, rounds: int = ROUNDS) -> list[CrossRun]:
    """:func:`repeating_runs` timed on each count of pages of repeated summaries."""
    config = LayoutConfig()
    read = summaries(config)
    runs = []
    for count in counts:
        pages = (read * (count // len(read) + 1))[:count]
        best = None
        for _ in range(rounds):
            wall, cpu = time.perf_counter(), time.process_time()
            repeating_runs(pages, config)
            run = CrossRun(count, time.perf_counter() - wall, time.process_time() - cpu)
            best = run if best is None or run.wall < best.wall else best
        assert best is not None
        runs.append(best)
    return runs


def cross_table(runs: Sequence[CrossRun]) -> list[str]:
    """The markdown table of the comparison across pages, and the bar."""
    out = ["| pages | best wall (s) | CPU (s) | CPU per 1,000 pages (s) |",
           "| ---: | ---: | ---: | ---: |"]
    out += [f"| {r.pages:,} | {r.wall:.2f} | {r.cpu:.2f} | {1000 * r.cpu / r.pages:.3f} |"
            for r in runs]
    largest = max(runs, key=lambda r: r.pages)
    out += ["", f"Bar: {largest.pages:,} pages of summaries in under {CROSS_BAR:g} s: "
            f"{'met' if min(largest.wall, largest.cpu) < CROSS_BAR else 'not met'} "
            f"({largest.cpu:.2f} s CPU, {largest.wall:.2f} s wall)."]
    return out


def section() -> list[str]:
    """The report's section."""
    intro = ("The comparison of pages across the document (running headers and footers,"
             " `repeating_runs`) on the summaries of the pages of five fixture documents"
             f" ({', '.join(p.stem for p in SUMMARY_PDFS)}) repeated to each count of pages"
             f" (`benchmarks/scale.py`; best of {ROUNDS}). Each line is compared with the lines"
             " at its height on the pages of a window around its own"
             " (`furniture_window_pages`), found through an index of every page's lines.")
    return [TITLE, "", "### Comparison across pages", "", intro, "", *cross_table(measure_cross())]


def main(argv: Sequence[str] | None = None) -> int:
    return section_main(argv, "scale", "Long documents: the steps across pages.",
                        TITLE, "## Line types (layoutkit)", section)


if __name__ == "__main__":
    raise SystemExit(main())
