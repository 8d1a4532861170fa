"""Long documents: the comparison of pages across the document on 10,000 pages of
summaries, and the memory and time of ``layoutkit text``, ``parse``, ``tokens`` and
``nlptext`` on documents of 500 and 5,000 pages.

The running headers and footers are the one step that compares pages
(:func:`layoutkit.geometry.furniture.repeating_runs`), and it sees only each page's
:class:`~layoutkit.geometry.furniture.EdgeLines`.  The summaries measured are those of
real documents of the fixtures (a gazette, a parliament's record, lecture notes, the
City Record), read once and repeated until there are as many pages as asked: their
running headers, page numbers, first and last body lines as printed.  Each count of
pages is timed ``ROUNDS`` times; the best wall time and the CPU time of that run count
(the machine is shared, the CPU time is what the step itself takes).

The long documents are made at run time from the 117 pages of lecture notes in the
fixtures (:data:`LONG_SOURCE`, one column, running headers), their pages imported
again and again with PDFium until there are as many as asked, in a process of their
own.  Each command runs as a process of its own; its peak resident memory and CPU time
are its own (``wait4``).  The commands are timed before anything else: a process
forked from this one starts with this one's resident memory as its peak, so this one
keeps no more than its imports until they have run.

Usage: ``python -m benchmarks.scale [--update benchmarks/RESULTS.md]``.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pypdfium2 as pdfium

from benchmarks.fresh import in_fresh_interpreter
from benchmarks.peers import REPO, layoutkit_cli_command
from benchmarks.sections import section_main
from layoutkit.config import LayoutConfig
from layoutkit.geometry.furniture import EdgeLines, edge_lines, repeating_runs
from layoutkit.geometry.words import words_from_glyphs
from layoutkit.sources import open_source

__all__ = ["CROSS_BAR", "LONG_SOURCE", "MEMORY_BAR", "SUMMARY_PDFS", "TIME_BAR", "TITLE",
           "CrossRun", "LongRun", "long_document", "measure_cross", "measure_long", "summaries"]

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

LONG_SOURCE = REPO / "fixtures" / "pdf" / "geotopo-lecture-notes-de.pdf"
"""The pages the long documents are made of."""

LONG_PAGES = (500, 5_000)
"""The lengths of the long documents."""

LONG_COMMANDS = ("text", "parse", "tokens", "nlptext")

MEMORY_BAR = 300.0
"""The bar: peak memory (MB) of each command at 5,000 pages."""

TIME_BAR = 1.2
"""The bar: time per page at 5,000 pages within this many times that at 500."""


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


@dataclass(frozen=True, slots=True)
class LongRun:
    """One command on a long document: its wall and CPU time (its workers' included),
    its peak memory (MB, the largest of its processes)."""

    command: str
    pages: int
    wall: float
    cpu: float
    peak: float
    jobs: int = 1


def long_document(pages: int, target: Path) -> Path:
    """A document of ``pages`` pages at ``target``: the pages of :data:`LONG_SOURCE`
    over and over, made in a process of its own (see the module's docstring)."""
    in_fresh_interpreter("benchmarks.scale", "_make_long", [str(pages), str(target)],
                         f"long documents, making {pages} pages")
    return target


def _make_long(argv: Sequence[str]) -> None:
    """The fresh interpreter's side of :func:`long_document`."""
    pages, target = int(argv[0]), Path(argv[1])
    source = pdfium.PdfDocument(LONG_SOURCE)
    out = pdfium.PdfDocument.new()
    while len(out) < pages:
        out.import_pages(source, list(range(min(len(source), pages - len(out)))))
    out.save(target)


def run_command(command: str, path: Path, out: Path, jobs: int = 1) -> LongRun:
    """``layoutkit COMMAND PATH -o OUT --jobs N`` in a process of its own, measured."""
    wall = time.perf_counter()
    process = subprocess.Popen([*layoutkit_cli_command(), command, str(path), "-o", str(out),
                                "--jobs", str(jobs)],
                               cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - wall
    if status != 0:
        assert process.stderr is not None
        raise RuntimeError(f"long documents, layoutkit {command} on {path.name}: "
                           f"{process.stderr.read().decode().strip() or status}")
    document = pdfium.PdfDocument(path)
    pages = len(document)
    document.close()
    return LongRun(command, pages, wall, usage.ru_utime + usage.ru_stime,
                   usage.ru_maxrss / 1024, jobs)


def measure_long(counts: Sequence[int] = LONG_PAGES) -> list[LongRun]:
    """Each command of :data:`LONG_COMMANDS` on a document of each count of pages."""
    runs = []
    with tempfile.TemporaryDirectory(prefix="layoutkit-long-") as folder:
        for count in counts:
            path = long_document(count, Path(folder) / f"long-{count}.pdf")
            runs += [run_command(command, path, Path(folder) / f"out-{command}")
                     for command in LONG_COMMANDS]
            path.unlink()
    return runs


JOBS_PAGES = 500
"""The long document ``--jobs`` is timed on, beside the City Record."""


def measure_jobs() -> list[LongRun]:
    """``layoutkit text`` with one process and with two, taking turns, on a long
    document of :data:`JOBS_PAGES` pages and on the 48-page City Record of 2004."""
    with tempfile.TemporaryDirectory(prefix="layoutkit-jobs-") as folder:
        long = long_document(JOBS_PAGES, Path(folder) / f"long-{JOBS_PAGES}.pdf")
        record = REPO / "fixtures" / "pdf" / "cleveland-city-record-2004-06-09.pdf"
        return [run_command("text", path, Path(folder) / "out.txt", jobs)
                for path in (long, record) for jobs in (1, 2)]


def jobs_table(runs: Sequence[LongRun]) -> list[str]:
    """The markdown table of ``--jobs``: wall and CPU time, and the speed-up."""
    out = ["| document | pages | jobs | wall (s) | CPU (s) | peak memory (MB) |",
           "| --- | ---: | ---: | ---: | ---: | ---: |"]
    out += [f"| {'long document' if r.pages == JOBS_PAGES else 'City Record 2004'} | "
            f"{r.pages} | {r.jobs} | {r.wall:.1f} | {r.cpu:.1f} | {r.peak:.0f} |" for r in runs]
    ratios = [f"{one.wall / two.wall:.2f} on {one.pages} pages"
              for one, two in zip(runs[0::2], runs[1::2], strict=True)]
    return [*out, "", f"Speed-up of `--jobs 2`, wall times: {', '.join(ratios)} (on a machine "
                      f"whose load average was {os.getloadavg()[0]:.1f} on its "
                      f"{os.cpu_count()} cores at the end)."]


def long_table(runs: Sequence[LongRun]) -> list[str]:
    """The markdown table of the long documents, and the bars."""
    out = ["| command | pages | wall (s) | CPU (s) | CPU per page (ms) | peak memory (MB) |",
           "| --- | ---: | ---: | ---: | ---: | ---: |"]
    out += [f"| `layoutkit {r.command}` | {r.pages:,} | {r.wall:.1f} | {r.cpu:.1f} | "
            f"{1000 * r.cpu / r.pages:.1f} | {r.peak:.0f} |" for r in runs]
    short, long = min(LONG_PAGES), max(LONG_PAGES)
    notes = []
    for command in LONG_COMMANDS:
        mine = {r.pages: r for r in runs if r.command == command}
        if short not in mine or long not in mine:
            continue
        ratio = (mine[long].cpu / long) / (mine[short].cpu / short)
        notes.append(f"`{command}`: peak {mine[long].peak:.0f} MB at {long:,} pages (bar "
                     f"≤ {MEMORY_BAR:g}: {'met' if mine[long].peak <= MEMORY_BAR else 'not met'}),"
                     f" CPU per page at {long:,} pages {ratio:.2f} times that at {short:,} "
                     f"(bar ≤ {TIME_BAR:g}: {'met' if ratio <= TIME_BAR else 'not met'})")
    return [*out, "", "Bars: " + "; ".join(notes) + "."] if notes else out


def section() -> list[str]:
    """The report's section."""
    intro = ("The comparison of pages across the document (running headers and footers,"
             " `repeating_runs`) on the summaries of the pages of five fixture documents"
             f" ({', '.join(p.stem for p in SUMMARY_PDFS)}) repeated to each count of pages"
             f" (`benchmarks/scale.py`; best of {ROUNDS}). Each line is compared with the lines"
             " at its height on the pages of a window around its own"
             " (`furniture_window_pages`), found through an index of every page's lines.")
    long_intro = (f"`layoutkit text`, `parse`, `tokens` and `nlptext FILE -o OUT` on documents"
                  f" made of the pages of {LONG_SOURCE.name} over and over, each command a process"
                  " of its own (its peak resident memory and CPU time). The pages are read once,"
                  " kept in a temporary file, and laid out a chunk of `stream_chunk_pages` at a"
                  " time (`layoutkit.iter_pages`), the column grid and the line types decided"
                  " over the whole document in passes over the pages kept in files; `tokens` and"
                  " `nlptext` take the pages once for the document's language and words, then"
                  " read them back and write them.")
    jobs_intro = ("`layoutkit text FILE -o OUT --jobs N` with one process and with two, on"
                  f" the long document of {JOBS_PAGES} pages and on the 48-page City Record of"
                  " 2004: the pages of each chunk are shared out among the processes.")
    long, jobs = long_table(measure_long()), jobs_table(measure_jobs())  # forked first
    return [TITLE, "", "### Comparison across pages", "", intro, "", *cross_table(measure_cross()),
            "", "### Memory and time", "", long_intro, "", *long, "", "### Pages in parallel", "",
            jobs_intro, "", *jobs]


def main(argv: Sequence[str] | None = None) -> int:
    return section_main(argv, "scale", "Long documents: the steps across pages.",
                        TITLE, "## Line types (layoutkit)", section)


if __name__ == "__main__":
    raise SystemExit(main())
