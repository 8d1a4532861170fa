"""layoutkit ``text`` against the fast readers: ``pdftotext`` and PyMuPDF's ``page.get_text()``.

Three documents: the City Record (the speed document), the longest document of the
fixtures (no 619-page manual is among them) and a long scan whose every page carries
an OCR text layer (ten patents, 98 pages).  In each of `ROUNDS` rounds the readers
take turns on a document, so that a change in the machine's load touches them alike;
each reader's median wall time counts.  layoutkit and pdftotext run as a user runs
them, a command in a fresh process (layoutkit's time includes starting Python and
its imports); PyMuPDF runs in this process, its import paid once before.  pdfminer.six
(``extract_text``, one run: it is the slowest) gives the ratio the speed section has
always reported.  Run alone with
``python -m benchmarks.fastreaders [--update benchmarks/RESULTS.md]``.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from benchmarks.peers import REPO
from benchmarks.sections import section_main
from layoutkit.parallel import MOST_PROCESSES, PAGES_PER_PROCESS, processors

__all__ = ["DOCUMENTS", "ROUNDS", "TITLE", "FastRow", "measure", "section", "table"]

TITLE = "### Against the fast readers"

ROUNDS = 5
"""Rounds of the readers taking turns on a document; the median counts."""

DOCUMENTS = (
    REPO / "fixtures" / "pdf" / "cleveland-city-record-2016-04-27.pdf",
    REPO / "fixtures" / "corpus" / "bayerischer-landtag-plenarprotokoll-17-140.pdf",
    REPO / "fixtures" / "scanned" / "us-patents-ocr-layer-98pp.pdf",
)
"""The City Record, the longest fixture (151 pages) and the scan with an OCR layer."""

SCAN_BAR = 25.0
"""Most times pdftotext's wall time that layoutkit may take on the scan with a layer."""


@dataclass(frozen=True, slots=True)
class FastRow:
    """One document: its pages, each reader's median wall time (seconds) over `ROUNDS`
    rounds (layoutkit's as it runs by default and in one process), pdfminer.six's one
    run, and the pages layoutkit read by OCR."""

    document: str
    pages: int
    layoutkit: float
    one_process: float
    pdftotext: float
    pymupdf: float
    pdfminer: float
    ocr_pages: int


def _timed(work: Callable[[], object]) -> float:
    started = time.perf_counter()
    work()
    return time.perf_counter() - started


def _layoutkit(path: Path, *options: str) -> Callable[[], object]:
    """``layoutkit text`` on ``path`` with ``options`` in a fresh process, this
    checkout's code."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return lambda: subprocess.run([sys.executable, "-m", "layoutkit", "text", "-q", str(path),
                                   "-o", os.devnull, *options], check=True, env=env)


def _pdftotext(path: Path) -> Callable[[], object]:
    return lambda: subprocess.run(["pdftotext", str(path), os.devnull], check=True)


def _pymupdf(path: Path) -> Callable[[], object]:
    import pymupdf  # type: ignore[import-untyped]

    def work() -> int:
        with pymupdf.open(path) as document:
            return sum(len(page.get_text()) for page in document)

    return work


def _pdfminer(path: Path) -> Callable[[], object]:
    from pdfminer.high_level import extract_text

    return lambda: extract_text(str(path))


def _ocr_pages(path: Path) -> tuple[int, int]:
    """The pages of ``path`` and how many of them layoutkit reads by OCR."""
    import layoutkit

    document = layoutkit.parse(path)
    return len(document.pages), sum(q.done for q in document.ocr)


def measure(documents: Sequence[Path] = DOCUMENTS, rounds: int = ROUNDS) -> list[FastRow]:
    """Each document's row: the readers taking turns ``rounds`` times, medians kept."""
    rows = []
    for path in documents:
        readers = {"layoutkit": _layoutkit(path), "one process": _layoutkit(path, "--jobs", "1"),
                   "pdftotext": _pdftotext(path), "pymupdf": _pymupdf(path)}
        times: dict[str, list[float]] = {name: [] for name in readers}
        for _ in range(rounds):
            for name, work in readers.items():
                times[name].append(_timed(work))
        pages, ocr = _ocr_pages(path)
        median = {name: statistics.median(values) for name, values in times.items()}
        rows.append(FastRow(path.name, pages, median["layoutkit"], median["one process"],
                            median["pdftotext"], median["pymupdf"], _timed(_pdfminer(path)), ocr))
        print(f"{path.name}: {median}", file=sys.stderr)
    return rows


def table(rows: Sequence[FastRow]) -> list[str]:
    """The markdown table: wall times and layoutkit's ratios to each reader."""
    lines = ["| document | pages | pages OCR'd | layoutkit (s) | in one process (s) | "
             "pdftotext (s) | PyMuPDF (s) | pdfminer.six (s) | layoutkit / pdftotext | "
             "in one process / pdftotext | layoutkit / PyMuPDF | layoutkit / pdfminer.six |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in rows:
        lines.append(f"| {r.document} | {r.pages} | {r.ocr_pages} | {r.layoutkit:.3f} | "
                     f"{r.one_process:.3f} | {r.pdftotext:.3f} | {r.pymupdf:.3f} | "
                     f"{r.pdfminer:.3f} | {r.layoutkit / r.pdftotext:.1f} | "
                     f"{r.one_process / r.pdftotext:.1f} | {r.layoutkit / r.pymupdf:.1f} | "
                     f"{r.layoutkit / r.pdfminer:.3f} |")
    return lines


def section(rows: Sequence[FastRow]) -> list[str]:
    """The report's subsection: what was measured, the table and the scan's bar."""
    scan = next((r for r in rows if r.document == DOCUMENTS[-1].name), None)
    verdict = []
    if scan is not None:
        met = scan.layoutkit <= SCAN_BAR * scan.pdftotext and not scan.ocr_pages
        verdict = ["", f"Bar for the scan with an OCR layer: at most {SCAN_BAR:.0f} times "
                   f"pdftotext with no page OCR'd: {scan.layoutkit / scan.pdftotext:.1f} times "
                   f"as the command runs by default ({scan.one_process / scan.pdftotext:.1f} "
                   f"in one process), {scan.ocr_pages} page(s) OCR'd "
                   f"({'met' if met else 'not met'})."]
    return [TITLE, "", f"Median wall time of {ROUNDS} rounds, the readers taking turns "
            "(`benchmarks/fastreaders.py`): `layoutkit text` (by default in as many processes "
            f"as the machine has processors, {MOST_PROCESSES} at most, here "
            f"{min(processors(), MOST_PROCESSES)}, with {PAGES_PER_PROCESS} pages each at "
            "least), `layoutkit text --jobs 1` and `pdftotext` each a command "
            "in a fresh process, PyMuPDF's `page.get_text()` in the measuring process; "
            "pdfminer.six's `extract_text` one run.", "", *table(rows), *verdict]


def main(argv: Sequence[str] | None = None) -> int:
    return section_main(argv, "fastreaders", "layoutkit text against pdftotext and PyMuPDF.",
                        TITLE, "## Where the time goes", lambda: section(measure()))


if __name__ == "__main__":
    raise SystemExit(main())
