"""Line-type accuracy: headers and footers, headings, contents and lists against
the synthetic truth and the hand-labelled real documents (issue 4's bars).

Usage::

    python -m benchmarks.linetypes     # prints the markdown section of RESULTS.md
    python -m benchmarks.linetypes --update benchmarks/RESULTS.md   # replaces it there

:func:`measure` gives every row; ``benchmarks.run`` puts :func:`section` of it in the
report and ``tests/test_linetype_bars.py`` asserts the same bars.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import layoutkit
from benchmarks.peers import REPO
from benchmarks.sections import section_main
from fixtures.synthetic import suite
from layoutkit.linetypes import outline
from layoutkit.model import Document
from layoutkit.tools.evaluate import (
    TypeScore,
    score_furniture,
    score_heading_lines,
    score_headings,
    score_list_items,
    score_typed_lines,
)
from layoutkit.tools.truth import SUFFIX, labelled_pages, load_truth

__all__ = ["BOXED_CONTENTS", "CITY_RECORDS", "LECTURE_NOTES", "Row", "boxed_contents",
           "city_record_headings", "contents_page", "lecture_notes", "lists", "measure",
           "real_furniture", "section", "synthetic", "table"]

REGIONS, PDFS = REPO / "regions", REPO / "fixtures" / "pdf"
TITLE = "## Line types (layoutkit)"
LECTURE_NOTES = "geotopo-lecture-notes-de"
LIST_DOCUMENTS = ("senate-bill-equality-act", "copyright-office-dmca-summary")
CITY_RECORDS = ("cleveland-city-record-2016-04-27", "cleveland-city-record-2004-06-09")
CITY_RECORD_PROFILE = "cleveland-city-record"
BOXED_CONTENTS = "wikipedia-ocr-printout"
"""The scanned web printout whose boxed contents list has section numbers but no page
numbers (read by OCR)."""


@dataclass(frozen=True)
class Row:
    """One measured line type: what, its score, and the bars (None: no bar)."""

    what: str
    score: TypeScore
    min_precision: float | None
    min_recall: float | None
    precision_meaningful: bool = True
    """False where the truth holds only some of the lines the type covers (list
    items' first lines, not their continuations)."""

    @property
    def ok(self) -> bool:
        return ((self.min_precision is None or self.score.precision >= self.min_precision)
                and (self.min_recall is None or self.score.recall >= self.min_recall))


@cache
def _parsed(stem: str, profile: str | None = None) -> Document:
    return layoutkit.parse(PDFS / f"{stem}.pdf", profile=profile)


def real_furniture() -> TypeScore:
    """Lines typed h/f on every labelled real page against its furniture lines."""
    total = TypeScore(0, 0, 0)
    for truth in labelled_pages([REGIONS]):
        page = layoutkit.parse(PDFS / truth.document, pages=[truth.page])[0]
        total += score_furniture([(x.code, x.text) for x in page.lines], truth.furniture)
    return total


def synthetic() -> tuple[TypeScore, TypeScore, TypeScore]:
    """Furniture, heading lines (any level) and contents of the synthetic suite, seed 0
    (its gazettes have no contents: every line typed toc is wrong)."""
    furniture, headings, contents = TypeScore(0, 0, 0), TypeScore(0, 0, 0), TypeScore(0, 0, 0)
    with tempfile.TemporaryDirectory() as folder:
        for doc in suite():
            path = Path(folder) / f"{doc.name}.pdf"
            path.write_bytes(doc.pdf)
            for page, truth in zip(layoutkit.parse(path), doc.pages, strict=True):
                typed = [(x.code, x.text) for x in page.lines]
                furniture += score_furniture(typed, truth.furniture)
                headings += score_typed_lines(typed, truth.headings, ["h_"])
                contents += score_typed_lines(typed, [], ["toc"])
    return furniture, headings, contents


def lecture_notes() -> TypeScore:
    """The lecture notes' headings (with level) against the entries of its contents page."""
    truth = load_truth(REGIONS / f"{LECTURE_NOTES}{SUFFIX}")
    found = [(h.level, h.text) for h in outline(_parsed(LECTURE_NOTES))]
    return score_headings(found, truth.outline)


def contents_page() -> TypeScore:
    """Lines typed toc on the lecture notes' contents page (its title, a heading, is
    not an entry) against the page's other lines, in the default configuration: the
    page is PDF page 4, labelled 1 after a front matter numbered i-iii."""
    truth = load_truth(REGIONS / f"{LECTURE_NOTES}{SUFFIX}")
    document = _parsed(LECTURE_NOTES)
    total = TypeScore(0, 0, 0)
    for labelled in truth.pages:
        if labelled.types is None or not labelled.types.contents_page:
            continue
        lines = document[labelled.page - 1].body_lines[1:]
        total += score_typed_lines([(x.code, x.text) for x in lines], [x.text for x in lines],
                                   ["toc"])
    return total


@cache
def _boxed_contents_document() -> Document:
    return layoutkit.parse(REPO / "fixtures" / "scanned" / f"{BOXED_CONTENTS}.pdf")


def boxed_contents() -> TypeScore:
    """Lines typed toc on the web printout's scanned page against the entries of its
    boxed contents list (``regions/scanned/``)."""
    truth = load_truth(REGIONS / "scanned" / f"{BOXED_CONTENTS}{SUFFIX}")
    total = TypeScore(0, 0, 0)
    for page in _boxed_contents_document():
        labelled = truth.page(page.page_no)
        entries = labelled.types.contents if labelled and labelled.types else ()
        total += score_typed_lines([(x.code, x.text) for x in page.lines], entries, ["toc"])
    return total


def lists(stem: str) -> TypeScore:
    """The labelled list items of ``stem`` against its lines typed lb/ln."""
    truth = load_truth(REGIONS / f"{stem}{SUFFIX}")
    document = _parsed(stem)
    total = TypeScore(0, 0, 0)
    for labelled in truth.pages:
        if labelled.types is not None and labelled.types.list_items:
            total += score_list_items([(x.code, x.text) for x in document[labelled.page - 1].lines],
                                      labelled.types.list_items)
    return total


def city_record_headings() -> tuple[TypeScore, TypeScore]:
    """The City Records' labelled heading lines against the lines typed ``h_*`` on
    their pages (each issue parsed whole with its profile), and the same with the
    level: ``hits`` of the second over those of the first is the level agreement."""
    lines, levelled = TypeScore(0, 0, 0), TypeScore(0, 0, 0)
    for stem in CITY_RECORDS:
        truth = load_truth(REGIONS / f"{stem}{SUFFIX}")
        document = _parsed(stem, CITY_RECORD_PROFILE)
        for labelled in truth.pages:
            if labelled.types is None or not labelled.types.headings:
                continue
            found = [(x.level, x.text) for x in document[labelled.page - 1].lines
                     if x.code.startswith("h_")]
            any_level, with_level = score_heading_lines(found, labelled.types.headings)
            lines, levelled = lines + any_level, levelled + with_level
    return lines, levelled


def measure() -> list[Row]:
    """Every line-type row of the report, with issue 4's bars."""
    furniture, headings, contents = synthetic()
    city, levelled = city_record_headings()
    return [
        Row("headers/footers, synthetic suite (seed 0)", furniture, 0.99, 0.98),
        Row("headers/footers, labelled real pages", real_furniture(), 0.99, 0.98),
        Row("headings (bold lines), synthetic suite", headings, None, None),
        Row("contents (none), synthetic suite", contents, 1.0, None),
        Row("headings with level, lecture notes vs its contents page", lecture_notes(), None,
            0.95),
        Row("contents page typed toc, lecture notes (default config)", contents_page(),
            None, 1.0),
        Row("contents entries typed toc, web printout's boxed list (OCR)", boxed_contents(),
            1.0, 1.0),
        *[Row(f"list items, {stem}", lists(stem), None, 0.95, precision_meaningful=False)
          for stem in LIST_DOCUMENTS],
        Row("headings, City Record pages (2016 p3, p5, p7; 2004 p9, p10)", city, 0.9, 0.9),
        Row("headings with level, same pages", levelled, None, None),
    ]


def table(rows: list[Row]) -> list[str]:
    """The markdown table of ``rows``."""
    def bar(value: float | None) -> str:
        return "" if value is None else f"≥ {value:.2f}"
    out = ["| what | typed | truth | found | precision | recall | bar P | bar R | ok |",
           "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
    for row in rows:
        s = row.score
        precision = f"{s.precision:.3f}" if row.precision_meaningful else "n/a"
        out.append(f"| {row.what} | {s.predicted} | {s.expected} | {s.hits} | "
                   f"{precision} | {s.recall:.3f} | {bar(row.min_precision)} | "
                   f"{bar(row.min_recall)} | {'pass' if row.ok else 'FAIL'} |")
    return out


def section(rows: list[Row]) -> list[str]:
    """The report's section: title, what was measured, the table."""
    return [TITLE, "", "Lines typed h/f, h_N, toc, lb/ln against the synthetic truth and the"
            " hand-labelled documents (`benchmarks/linetypes.py`, `regions/*.truth.json`).",
            "", *table(rows)]


def main(argv: Sequence[str] | None = None) -> int:
    return section_main(argv, "linetypes", "Line-type accuracy against issue 4's bars.",
                        TITLE, "## Tokens and NLPTextDocument (layoutkit)",
                        lambda: section(measure()))


if __name__ == "__main__":
    raise SystemExit(main())
