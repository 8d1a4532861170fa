"""Line-type accuracy: headers and footers, headings, contents and lists against
the synthetic truth and the hand-labelled real documents (issue 4's bars), and
headings, contents, lists and tables on the development corpus by precision, recall
and F1 (issue 19's bars).

Usage::

    python -m benchmarks.linetypes     # prints the markdown section of RESULTS.md
    python -m benchmarks.linetypes --update benchmarks/RESULTS.md   # replaces it there

:func:`measure` gives every row; ``benchmarks.run`` puts :func:`section` of it in the
report and ``tests/test_linetype_bars.py`` asserts issue 4's bars.  The development
corpus is measured once per process (:func:`corpus_types`): its rows in
:func:`measure` and its tables in :func:`section` share that measurement.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import layoutkit
from benchmarks.peers import REPO
from benchmarks.sections import section_main
from fixtures.synthetic import suite
from layoutkit.linetypes import outline
from layoutkit.model import Document, Page
from layoutkit.tools.evaluate import (
    TypeScore,
    score_furniture,
    score_heading_lines,
    score_headings,
    score_list_items,
    score_typed_lines,
)
from layoutkit.tools.train import item_starts, page_scores
from layoutkit.tools.truth import SUFFIX, PageTypes, labelled_pages, load_truth, truth_files

__all__ = ["BOXED_CONTENTS", "CITY_RECORDS", "CORPUS_CLASSES", "LECTURE_NOTES",
           "CorpusTypes", "Row", "boxed_contents", "city_record_headings", "contents_page",
           "corpus_bars", "corpus_page_types", "corpus_tables", "corpus_types",
           "item_starts", "lecture_notes", "lists", "measure", "real_furniture", "section",
           "synthetic", "table"]

REGIONS, PDFS = REPO / "regions", REPO / "fixtures" / "pdf"
TITLE = "## Line types (layoutkit)"
LECTURE_NOTES = "geotopo-lecture-notes-de"
LIST_DOCUMENTS = ("senate-bill-equality-act", "copyright-office-dmca-summary")
CITY_RECORDS = ("cleveland-city-record-2016-04-27", "cleveland-city-record-2004-06-09")
CITY_RECORD_PROFILE = "cleveland-city-record"
BOXED_CONTENTS = "wikipedia-ocr-printout"
"""The scanned web printout whose boxed contents list has section numbers but no page
numbers (read by OCR)."""
CORPUS_REGIONS, CORPUS_PDFS = REGIONS / "corpus", REPO / "fixtures" / "corpus"
CORPUS_CLASSES = ("headings", "contents", "list items", "tables")
"""The line-type classes scored on the development corpus, in report order."""
CORPUS_F1_BARS = {"headings": 0.90, "contents": 0.95, "list items": 0.90, "tables": 0.90}
"""Issue 19's bars on the pooled F1 of each class."""
CORPUS_LEVEL_BAR = 0.90
"""Issue 19's bar on heading level agreement: found headings given the labelled level."""
CORPUS_PRECISION_BAR, CORPUS_PRECISION_MIN_LINES = 0.85, 5
"""Issue 19's bar on the precision of each class in each document that has at least
that many truth lines of the class."""


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
    min_f1: float | None = None

    @property
    def ok(self) -> bool:
        return ((self.min_precision is None or self.score.precision >= self.min_precision)
                and (self.min_recall is None or self.score.recall >= self.min_recall)
                and (self.min_f1 is None or self.score.f1 >= self.min_f1))


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


@dataclass(frozen=True)
class CorpusTypes:
    """The line types of one development-corpus document (its labelled pages):
    ``scores`` per class of :data:`CORPUS_CLASSES`, and ``levels``, whose ``hits``
    are the found headings given their labelled level (its ``predicted`` and
    ``expected`` are the headings')."""

    document: str
    pages: int
    scores: dict[str, TypeScore]
    levels: TypeScore

    @property
    def level_agreement(self) -> TypeScore:
        """The found headings (``predicted``, ``expected``) and those of them with the
        labelled level (``hits``): its recall is the level agreement."""
        found = self.scores["headings"].hits
        return TypeScore(found, found, self.levels.hits)


def corpus_page_types(page: Page, types: PageTypes) -> tuple[dict[str, TypeScore], TypeScore]:
    """One labelled page's scores per class of :data:`CORPUS_CLASSES` and its heading
    lines matched with their level (see :class:`CorpusTypes`), as
    `layoutkit.tools.train.page_scores` scores a page for ``layoutkit train``."""
    scores = page_scores(page, types)
    return scores.scores, scores.levels


@cache
def corpus_types() -> tuple[CorpusTypes, ...]:
    """Every development-corpus document whose labelled pages have line types, its
    pages read as a user would (``layoutkit.parse(pdf, pages=...)``: auto mode, no
    profile, default configuration) and scored by :func:`corpus_page_types`."""
    out = []
    for path in truth_files([CORPUS_REGIONS]):
        truth = load_truth(path)
        pages = [p for p in truth.pages if p.types is not None]
        if not pages:
            continue
        document = layoutkit.parse(CORPUS_PDFS / truth.document, pages=[p.page for p in pages])
        parsed = {page.page_no: page for page in document}
        scores = dict.fromkeys(CORPUS_CLASSES, TypeScore(0, 0, 0))
        levels = TypeScore(0, 0, 0)
        for labelled in pages:
            assert labelled.types is not None
            page_scores, page_levels = corpus_page_types(parsed[labelled.page], labelled.types)
            scores = {kind: scores[kind] + page_scores[kind] for kind in CORPUS_CLASSES}
            levels += page_levels
        out.append(CorpusTypes(path.name.removesuffix(SUFFIX), len(pages), scores, levels))
    return tuple(out)


def _pooled(documents: Iterable[CorpusTypes]) -> CorpusTypes:
    """The corpus documents' scores summed, as one."""
    chosen = list(documents)
    return CorpusTypes("pooled", sum(d.pages for d in chosen),
                       {kind: sum((d.scores[kind] for d in chosen), TypeScore(0, 0, 0))
                        for kind in CORPUS_CLASSES},
                       sum((d.levels for d in chosen), TypeScore(0, 0, 0)))


def corpus_bars(documents: Sequence[CorpusTypes]) -> list[Row]:
    """Issue 19's bars on the development corpus: pooled F1 per class, heading level
    agreement, and precision in every document with at least
    :data:`CORPUS_PRECISION_MIN_LINES` truth lines of a class (the worst such
    document's row)."""
    pooled = _pooled(documents)
    rows = [Row(f"{kind}, development corpus pooled", pooled.scores[kind], None, None,
                min_f1=CORPUS_F1_BARS[kind]) for kind in CORPUS_CLASSES]
    rows.insert(1, Row("heading level agreement, development corpus pooled (typed and truth:"
                       " headings found; found: with the labelled level)",
                       pooled.level_agreement, None, CORPUS_LEVEL_BAR))
    for kind in CORPUS_CLASSES:
        barred = [d for d in documents
                  if d.scores[kind].expected >= CORPUS_PRECISION_MIN_LINES]
        if not barred:
            continue
        worst = min(barred, key=lambda d: d.scores[kind].precision)
        below = sum(1 for d in barred if d.scores[kind].precision < CORPUS_PRECISION_BAR)
        rows.append(Row(f"{kind} precision, each corpus document with ≥ "
                        f"{CORPUS_PRECISION_MIN_LINES} truth lines ({below} of {len(barred)}"
                        f" below; worst: {worst.document})", worst.scores[kind],
                        CORPUS_PRECISION_BAR, None))
    return rows


def _share(value: float, count: int) -> str:
    """A share for the corpus tables: "–" when nothing was counted."""
    return f"{value:.3f}" if count else "–"


def _cells(score: TypeScore) -> str:
    """Typed, truth, found, precision, recall and F1 as table cells ("–": nothing to
    share; F1 "–" when neither the system nor the truth has a line of the class)."""
    f1 = f"{score.f1:.3f}" if score.predicted or score.expected else "–"
    return (f"{score.predicted} | {score.expected} | {score.hits} | "
            f"{_share(score.precision, score.predicted)} | "
            f"{_share(score.recall, score.expected)} | {f1}")


def corpus_tables(documents: Sequence[CorpusTypes]) -> list[str]:
    """The development corpus's markdown tables: per class pooled, then each class
    per document (headings with their level agreement)."""
    pooled = _pooled(documents)
    head = "| typed | truth | found | precision | recall | F1 |"
    rule = "| ---: | ---: | ---: | ---: | ---: | ---: |"
    out = [f"| class {head}", f"| --- {rule}"]
    for kind in CORPUS_CLASSES:
        out.append(f"| {kind} | {_cells(pooled.scores[kind])} |")
        if kind == "headings":
            out.append(f"| headings with their level | {_cells(pooled.levels)} |")
            out.append(f"| heading level agreement | {_cells(pooled.level_agreement)} |")
    for kind in CORPUS_CLASSES:
        extra = kind == "headings"
        out += ["", f"**{kind[0].upper()}{kind[1:]}, per document**", "",
                f"| document | pages {head}" + (" right level | agreement |" if extra else ""),
                f"| --- | ---: {rule}" + (" ---: | ---: |" if extra else "")]
        for d in (*documents, pooled):
            name = f"**{d.document}**" if d is pooled else d.document
            row = f"| {name} | {d.pages} | {_cells(d.scores[kind])} |"
            if extra:
                agreement = d.level_agreement
                row += (f" {d.levels.hits} | "
                        f"{_share(agreement.recall, agreement.expected)} |")
            out.append(row)
    return out


def measure() -> list[Row]:
    """Every line-type row of the report, with issue 4's bars and issue 19's."""
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
        *corpus_bars(corpus_types()),
    ]


def table(rows: list[Row]) -> list[str]:
    """The markdown table of ``rows``."""
    def bar(value: float | None) -> str:
        return "" if value is None else f"≥ {value:.2f}"
    out = ["| what | typed | truth | found | precision | recall | F1 | bar P | bar R | bar F1 "
           "| ok |",
           "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
    for row in rows:
        s = row.score
        precision = f"{s.precision:.3f}" if row.precision_meaningful else "n/a"
        f1 = f"{s.f1:.3f}" if row.precision_meaningful else "n/a"
        out.append(f"| {row.what} | {s.predicted} | {s.expected} | {s.hits} | "
                   f"{precision} | {s.recall:.3f} | {f1} | {bar(row.min_precision)} | "
                   f"{bar(row.min_recall)} | {bar(row.min_f1)} | "
                   f"{'pass' if row.ok else 'FAIL'} |")
    return out


def section(rows: list[Row], corpus: Sequence[CorpusTypes] | None = None) -> list[str]:
    """The report's section: title, what was measured, the table of ``rows``, then
    the development corpus's tables (``corpus``, by default :func:`corpus_types`)."""
    documents = corpus_types() if corpus is None else corpus
    return [TITLE, "", "Lines typed h/f, h_N, toc, lb/ln against the synthetic truth and the"
            " hand-labelled documents (`benchmarks/linetypes.py`, `regions/*.truth.json`).",
            "", *table(rows), "",
            "### Development corpus: line types by precision, recall and F1", "",
            f"The labelled pages of `regions/corpus/` ({len(documents)} documents, "
            f"{sum(d.pages for d in documents)} pages), each document read by "
            "`layoutkit.parse(pdf, pages=...)` in auto mode, no profile, default "
            "configuration (ruled tables are not looked for: `tables=False`). Headings are "
            "lines typed `h_*`, contents `toc`, tables `tab`; list items are the lines "
            "typed `lb`/`ln` that open an item (a marker, or a line of another type "
            "before). A line labelled `either` counts neither way. Development figures: "
            "the heuristics are tuned on these pages.", "", *corpus_tables(documents)]


def main(argv: Sequence[str] | None = None) -> int:
    return section_main(argv, "linetypes",
                        "Line-type accuracy against issue 4's and issue 19's bars.", TITLE,
                        "## Tokens and NLPTextDocument (layoutkit)", lambda: section(measure()))


if __name__ == "__main__":
    raise SystemExit(main())
