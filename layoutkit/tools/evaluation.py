"""Evaluating a reading against truth files: what `layoutkit evaluate` and its plugin run.

- A truth file (`layoutkit.truth/1`, `truth`) is first checked against its document
  (`truth.read_truth`).
- Its labelled pages are parsed and each is scored (`evaluate_page`) with the metrics
  of `evaluate`: found, order and leak on a page labelled with lines, the precision and
  recall of its line types on a page labelled with types.
- The truth lines missing from the output and the places where its order breaks are
  listed, so that a report says why a score is what it is.
- Scores are combined per document and pooled over every document
  (`evaluate.combine`); `Bounds` say which scores fail.
- The reports are text (`text_report`) and JSON of schema `layoutkit.evaluation/1`
  (`json_report`); the HTML report is in `report`.

Everything here is pure but for `evaluate_document`, which reads the document.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..config import LayoutConfig
from ..errors import UsageError
from ..files import text_name
from ..model import Document, Page
from ..nlp.breaks import footnotes
from ..nlp.paragraphs import paragraphs_of
from ..outputs.structure import FURNITURE
from ..parallel import Jobs
from ..pipeline import parse
from ..sources import DEFAULT_ENGINE
from .evaluate import (
    MIN_LINE_CHARS,
    OrderBreak,
    PageScore,
    TypeScore,
    combine,
    missing_lines,
    order_breaks,
    reduce,
    score_list_items,
    score_page,
    score_typed_lines,
)
from .truth import DocumentTruth, PageTruth, PageTypes, read_truth, truth_files

if TYPE_CHECKING:
    from ..profile import Profile

__all__ = [
    "JSON_KINDS",
    "SCHEMA",
    "TYPE_KINDS",
    "Bounds",
    "DocumentEvaluation",
    "Evaluation",
    "PageEvaluation",
    "break_text",
    "evaluate",
    "evaluate_document",
    "evaluate_page",
    "json_report",
    "labelled_kinds",
    "share_text",
    "text_report",
    "type_scores",
]

SCHEMA = "layoutkit.evaluation/1"
"""The schema name of the JSON report."""

TYPE_KINDS = ("headings", "list items", "tables", "contents", "footnotes", "paragraphs")
"""The line types scored on a page labelled with types, in report order."""

_FOOTNOTE = "fn"
"""The code a footnote's line is scored under: no line type, a part of the text
outputs (`layoutkit.nlp.breaks.footnotes`)."""
_START = "par"
"""The code a line that starts a paragraph in the text outputs is scored under
(`paragraph_starts`)."""


@dataclass(frozen=True)
class Bounds:
    """The scores a reading must reach: the least ``found`` and ``order`` and the most
    ``leak`` of each page and of the pooled score; None sets no bound."""

    min_order: float | None = None
    min_found: float | None = None
    max_leak: float | None = None

    def misses(self, score: PageScore) -> list[str]:
        """Return what ``score`` misses, each as ``order 0.800 < 0.950``; empty when it
        keeps every bound (a score with nothing to count keeps them all)."""
        found, order, leak = _counted(score)
        missed = []
        if self.min_found is not None and score.lines and score.found < self.min_found:
            missed.append(f"found {found} < {self.min_found:.3f}")
        if self.min_order is not None and score.pairs and score.order < self.min_order:
            missed.append(f"order {order} < {self.min_order:.3f}")
        if self.max_leak is not None and score.furniture and score.leak > self.max_leak:
            missed.append(f"leak {leak} > {self.max_leak:.3f}")
        return missed

    def checked(self) -> Bounds:
        """The bounds, each checked to be a share from 0 to 1; raises UsageError naming
        the option otherwise (a bound of 1.5 would fail every page, -1 pass them all)."""
        for option, value in (("--min-order", self.min_order), ("--min-found", self.min_found),
                              ("--max-leak", self.max_leak)):
            if value is not None and not 0.0 <= value <= 1.0:
                raise UsageError(f"{option} {value}: expected a share from 0 to 1")
        return self

    @property
    def given(self) -> bool:
        """Whether any bound is set."""
        return any(b is not None for b in (self.min_order, self.min_found, self.max_leak))


@dataclass(frozen=True)
class PageEvaluation:
    """One labelled page scored: its ``score`` (None for a page labelled for its line
    types alone), its line types' scores by kind (empty without types), the truth
    lines ``missing`` from the output and the ``breaks`` of the truth's order."""

    page: int
    score: PageScore | None
    types: Mapping[str, TypeScore] = field(default_factory=dict)
    missing: tuple[str, ...] = ()
    breaks: tuple[OrderBreak, ...] = ()

    @property
    def perfect(self) -> bool:
        """Whether the page has nothing to show: every line found, in order, no leak."""
        return self.score is None or (self.score.found == 1.0 and self.score.order == 1.0
                                      and self.score.leak == 0.0)


@dataclass(frozen=True)
class DocumentEvaluation:
    """A truth file's pages scored against the ``document`` parsed from them."""

    truth: DocumentTruth
    document: Document
    pages: tuple[PageEvaluation, ...]

    @property
    def score(self) -> PageScore:
        """The document's pages' scores combined (`combine`)."""
        return combine(p.score for p in self.pages if p.score is not None)

    @property
    def types(self) -> dict[str, TypeScore]:
        """The document's line-type scores, summed over its pages, by kind."""
        return _summed(p.types for p in self.pages)


@dataclass(frozen=True)
class Evaluation:
    """Every truth file evaluated, with the bounds the scores are held to."""

    documents: tuple[DocumentEvaluation, ...]
    bounds: Bounds = Bounds()

    @property
    def score(self) -> PageScore:
        """The pooled score: every page of every document combined."""
        return combine(p.score for d in self.documents for p in d.pages if p.score is not None)

    @property
    def types(self) -> dict[str, TypeScore]:
        """The pooled line-type scores by kind."""
        return _summed(p.types for d in self.documents for p in d.pages)

    @property
    def failures(self) -> list[str]:
        """Each bound missed, as one line naming the page (truth file and page number)
        or the pooled score, and what it missed."""
        found = [f"{_name(d.truth.path)} page {p.page}: {', '.join(missed)}"
                 for d in self.documents for p in d.pages if p.score is not None
                 for missed in [self.bounds.misses(p.score)] if missed]
        pooled = self.bounds.misses(self.score)
        return found + ([f"pooled: {', '.join(pooled)}"] if pooled else [])

    @property
    def unchecked(self) -> list[tuple[Path, int]]:
        """The labelled pages still checked ``TODO`` (truth file, page): drafts nobody
        has compared with the page yet, whose scores say nothing."""
        return [(d.truth.path, p.page) for d in self.documents for p in d.truth.pages
                if p.unchecked]

    @property
    def stale_types(self) -> list[tuple[Path, int, str]]:
        """The line types that name no line of their page's truth (truth file, page,
        text): left behind when a person edited the lines of a draft (split a line
        glued across columns, corrected its text), they score against text no longer
        labelled.  Only pages labelled with lines are looked at."""
        stale = []
        for d in self.documents:
            for p in d.truth.pages:
                if p.types is None or not p.lines:
                    continue
                texts = [reduce(line) for line in (*p.lines, *p.furniture)]
                # a list item may leave out what stands before its marker (a bill's
                # line number): a type names a line it is part of
                stale += [(d.truth.path, p.page, text) for text in p.types.texts
                          if not any(reduce(text) in line for line in texts)]
        return stale

    def shown(self, page: PageEvaluation) -> bool:
        """Whether a report shows ``page`` in detail: it misses a bound, or, when no
        bound is set, it is not perfect."""
        if self.bounds.given:
            return page.score is not None and bool(self.bounds.misses(page.score))
        return not page.perfect


def _summed(pages: Iterable[Mapping[str, TypeScore]]) -> dict[str, TypeScore]:
    """The type scores of ``pages`` summed by kind, in `TYPE_KINDS` order."""
    total: dict[str, TypeScore] = {}
    for types in pages:
        for kind, score in types.items():
            total[kind] = total[kind] + score if kind in total else score
    return {kind: total[kind] for kind in TYPE_KINDS if kind in total}


def labelled_kinds(truth: DocumentTruth) -> frozenset[str]:
    """Return the kinds of `TYPE_KINDS` that some page of ``truth`` labels (a
    contents page labels contents): a document labelled for its list items alone says
    nothing of its headings, so they are not scored there."""
    kinds = set()
    for types in (p.types for p in truth.pages if p.types is not None):
        for kind, lines in zip(TYPE_KINDS, (types.headings, types.list_items, types.tables,
                                            types.contents, types.footnotes,
                                            types.paragraphs), strict=True):
            if lines:
                kinds.add(kind)
        if types.contents_page:
            kinds.add("contents")
    return frozenset(kinds)


def type_scores(types: PageTypes, page: Page, kinds: Iterable[str] = TYPE_KINDS,
                labelled_lines: Sequence[str] = ()) -> dict[str, TypeScore]:
    """Return the line-type scores of a parsed ``page`` against the ``types`` labelled,
    for the ``kinds`` of `TYPE_KINDS` the document labels (`labelled_kinds`).

    Headings are matched whatever their level (lines typed ``h_*``), list items
    against lines typed ``lb``/``ln``, tables against ``tab``, contents against
    ``toc`` and footnotes against the lines every text output sets apart as footnotes
    (`layoutkit.nlp.breaks.footnotes`) (`score_typed_lines`); a line labelled ``either`` counts
    neither way.  Paragraphs are matched against the lines at which the text outputs
    start one (`paragraph_starts`), among the page's ``labelled_lines`` (its body) when
    given (a chart's labels, the furniture, are none), the lines of the other types
    and the page's first line counting neither way.  On a page labelled a
    contents page without its contents lines, every body line of the parse that is not
    a labelled heading (or ``either``) is a contents line.  The precision of list items is None in
    reports: their continuation lines carry the type too."""
    typed = [(line.code, line.text) for line in page.lines]
    notes = footnotes(page)
    contents: Sequence[str] = types.contents
    headings = {reduce(text) for _, text in types.headings}
    either = types.either
    if types.contents_page and not contents:
        others = headings | {reduce(text) for text in either}
        contents = [x.text for x in page.body_lines if reduce(x.text) not in others]
    scores = {
        "headings": score_typed_lines(typed, [text for _, text in types.headings], ["h_"],
                                      either),
        "list items": score_list_items(typed, types.list_items, either),
        "tables": score_typed_lines(typed, types.tables, ["tab"], either),
        "contents": score_typed_lines(typed, contents, ["toc"], either),
        "footnotes": score_typed_lines(
            [(_FOOTNOTE if k in notes else code, text) for k, (code, text) in enumerate(typed)],
            types.footnotes, [_FOOTNOTE], either),
    }
    if types.paragraphs:
        starts, first = paragraph_starts(page)
        body = [reduce(text) for text in labelled_lines]
        starts = frozenset(k for k in starts if not body or _labelled(page.lines[k].text, body))
        # the lines of other types start their own blocks, and whether the page's first
        # line starts a paragraph is the page before's to say
        neither = (*types.texts, *types.captions, *types.footnotes,
                   *(() if first is None else (page.lines[first].text,)))
        scores["paragraphs"] = score_typed_lines(
            [(_START if k in starts else code, text) for k, (code, text) in enumerate(typed)],
            types.paragraphs, [_START], neither)
    wanted = set(kinds)
    return {kind: s for kind, s in scores.items() if kind in wanted}


def _labelled(text: str, body: Sequence[str]) -> bool:
    """Whether a line reading ``text`` is one of the labelled lines ``body`` (reduced):
    ends with one, as a typed line matches a labelled one (`score_typed_lines`, whose
    hits these starts are scored by: a number may stand before it), or is the end of
    one when long enough to be scored (`MIN_LINE_CHARS`: a figure's panel letter 'a'
    ends many a line)."""
    line = reduce(text)
    return bool(line) and any(line.endswith(b) or (len(line) >= MIN_LINE_CHARS
                                                   and b.endswith(line)) for b in body if b)


def paragraph_starts(page: Page) -> tuple[frozenset[int], int | None]:
    """The indexes (among ``page``'s lines) of the lines at which every text output
    starts a paragraph or another block (`layoutkit.nlp.paragraphs.paragraphs_of`, the
    running header and footer left out, a footnote not counted), but its first, which
    may go on with the page before, and the index of that first (None: none)."""
    found = [paragraph.pieces[0].index
             for paragraph in paragraphs_of((page,), FURNITURE) if not paragraph.footnote]
    return frozenset(found[1:]), found[0] if found else None


def evaluate_page(truth: PageTruth, page: Page, kinds: Iterable[str] = TYPE_KINDS
                  ) -> PageEvaluation:
    """Return the evaluation of a parsed ``page`` against its ``truth``: the page's
    body text ([`Page.text`][layoutkit.model.layout.Page.text]) scored on the truth's lines and
    furniture, with the missing lines and order breaks, and the ``kinds`` of its line types when the
    truth has types."""
    types = {} if truth.types is None else type_scores(truth.types, page, kinds,
                                                       truth.lines)
    if not truth.ordered:
        return PageEvaluation(truth.page, None, types)
    output = page.text()
    return PageEvaluation(truth.page, score_page(output, truth.lines, truth.furniture), types,
                          tuple(missing_lines(output, truth.lines)),
                          tuple(order_breaks(output, truth.lines)))


def evaluate_document(truth: DocumentTruth, config: LayoutConfig | None = None, *,
                      profile: Profile | None = None, engine: str = DEFAULT_ENGINE,
                      jobs: Jobs = 1) -> DocumentEvaluation:
    """Return ``truth`` evaluated: its labelled pages parsed (the context pages they
    need are read by the parse itself) and each scored by `evaluate_page`.
    Tables are looked for only when a page labels table lines."""
    tables = any(p.types is not None and p.types.tables for p in truth.pages)
    document = parse(truth.source, config, [p.page for p in truth.pages], engine=engine,
                     jobs=jobs, profile=profile, tables=tables)
    parsed = {page.page_no: page for page in document.pages}
    kinds = labelled_kinds(truth)
    return DocumentEvaluation(truth, document, tuple(evaluate_page(p, parsed[p.page], kinds)
                                                     for p in truth.pages))


def evaluate(paths: Iterable[Path], config: LayoutConfig | None = None, *,
             profile: Profile | None = None, engine: str = DEFAULT_ENGINE, jobs: Jobs = 1,
             bounds: Bounds = Bounds()) -> Evaluation:
    """Return the evaluation of the truth files named by ``paths`` (files, or folders
    searched for ``*.truth.json``).  Every file is checked against its document before
    any document is parsed, so bad input is told at once.

    Raises UsageError when ``paths`` name no truth file, or when nothing in them can
    be scored (no page with lines long enough to score, nor line types): a check
    that scores nothing must not pass."""
    given = list(paths)
    files = truth_files(given)
    if not files:
        raise UsageError(f"{', '.join(map(str, given))}: no *.truth.json file to evaluate")
    truths = [read_truth(path, engine) for path in files]
    evaluation = Evaluation(tuple(evaluate_document(t, config, profile=profile, engine=engine,
                                                    jobs=jobs) for t in truths),
                            bounds.checked())
    if not evaluation.score.lines and not any(s.expected for s in evaluation.types.values()):
        raise UsageError(f"{', '.join(map(str, files))}: nothing to score: no labelled page "
                         f"has lines of {MIN_LINE_CHARS} or more letters and digits, or line "
                         f"types")
    return evaluation


# --------------------------------------------------------------------------- reports


def share_text(value: float, hits: int, total: int) -> str:
    """A share with its count, as ``0.950 (19/20)``: how the reports show a score."""
    return f"{value:.3f} ({hits}/{total})"


def _counted(score: PageScore) -> tuple[str, str, str]:
    """``score``'s found, order and leak, each with its count (`share_text`)."""
    return (share_text(score.found, score.found_lines, score.lines),
            share_text(score.order, score.ordered_pairs, score.pairs),
            share_text(score.leak, score.leaked, score.furniture))


def _score_text(score: PageScore) -> str:
    """``score`` as one line of found, order and leak with their counts."""
    found, order, leak = _counted(score)
    return f"found {found}  order {order}  leak {leak}"


def _types_text(types: Mapping[str, TypeScore]) -> str:
    """Line-type scores as one line, each kind's precision and recall with counts."""
    return "  ".join(f"{kind}{_precision_text(kind, s)} "
                     f"R {share_text(s.recall, s.hits, s.expected)}" for kind, s in types.items())


def _precision_text(kind: str, score: TypeScore) -> str:
    """`` P 0.950 (19/20)``, or nothing for list items (see `type_scores`)."""
    if kind == "list items":
        return ""
    return f" P {share_text(score.precision, score.hits, score.predicted)}"


def break_text(item: OrderBreak) -> str:
    """An order break as a reader needs it: the line, the one expected after it, and
    what came instead (the truth line, or else the output text after it)."""
    came = (f"«{item.instead}»" if item.instead is not None
            else f"text «{item.following}»" if item.following
            else "the end of the page" if item.after_at is not None
            else "nothing: that line itself is " + ("not in the output" if item.kind == "missing"
                                                    else "in the output more than once"))
    note = "" if item.kind == "order" or item.after_at is None else (
        " (the expected line is " + ("not in the output)" if item.kind == "missing"
                                     else "in the output more than once)"))
    return f"after «{item.after}» expected «{item.expected}»{note}, came {came}"


def _name(path: Path | str) -> str:
    """A file's ``path`` as a report (UTF-8) can hold it: bytes of its name that are
    not UTF-8 written ``\\xNN`` (`text_name`)."""
    return text_name(str(path))


def text_report(evaluation: Evaluation) -> str:
    """Return the text report: per document its pages' scores, the missing lines and
    order breaks of the pages `Evaluation.shown` picks, the document's scores, then
    the pooled scores and the bounds missed."""
    out: list[str] = []
    for doc in evaluation.documents:
        out.append(f"{_name(doc.truth.path)} ({_name(os.path.normpath(doc.truth.source))})")
        for page in doc.pages:
            if page.score is not None:
                out.append(f"  page {page.page}: {_score_text(page.score)}")
            if page.types:
                out.append(f"  page {page.page} types: {_types_text(page.types)}")
            if evaluation.shown(page):
                out.extend(f"    missing «{line}»" for line in page.missing)
                out.extend(f"    {break_text(item)}" for item in page.breaks)
        if any(page.score is not None for page in doc.pages):
            out.append(f"  document: {_score_text(doc.score)}")
        if doc.types:
            out.append(f"  document types: {_types_text(doc.types)}")
    out.append(f"pooled ({len(evaluation.documents)} document(s)): "
               f"{_score_text(evaluation.score)}")
    if evaluation.types:
        out.append(f"pooled types: {_types_text(evaluation.types)}")
    out.extend(f"note: {_name(path)} page {page}: its types name «{text}», which is not one of its "
               f"lines" for path, page, text in evaluation.stale_types)
    unchecked = evaluation.unchecked
    if unchecked:
        pages = sum(len(d.truth.pages) for d in evaluation.documents)
        out.append(f"note: {len(unchecked)} of {pages} labelled page(s) still checked TODO, "
                   f"drafts nobody compared with the page: "
                   + ", ".join(f"{_name(path)} page {page}" for path, page in unchecked))
    failures = evaluation.failures
    out.extend(f"FAILED {failure}" for failure in failures)
    return "\n".join(out) + "\n"


def _score_json(score: PageScore) -> dict[str, Any]:
    return {"found": score.found, "order": score.order, "leak": score.leak,
            "lines": score.lines, "pairs": score.pairs, "furniture": score.furniture}


JSON_KINDS = {"headings": "headings", "list items": "listItems", "tables": "tables",
              "contents": "contents", "footnotes": "footnotes", "paragraphs": "paragraphs"}
"""Each line-type kind as the JSON report names it: as the truth format does."""


def _types_json(types: Mapping[str, TypeScore]) -> dict[str, Any]:
    return {JSON_KINDS[kind]: {"precision": None if kind == "list items" else s.precision,
                   "recall": s.recall, "predicted": s.predicted,
                   "expected": s.expected, "hits": s.hits} for kind, s in types.items()}


def _break_json(item: OrderBreak) -> dict[str, Any]:
    return {"after": item.after, "expected": item.expected, "instead": item.instead,
            "following": item.following, "kind": item.kind}


def json_report(evaluation: Evaluation) -> str:
    """Return the JSON report (schema ``layoutkit.evaluation/1``): the bounds, the pooled
    scores, the bounds missed, and per document and page the scores, line-type scores,
    missing lines and order breaks (every page's, shown or not), and the labelled pages
    still checked TODO."""
    bounds = evaluation.bounds
    data = {
        "schema": SCHEMA,
        "bounds": {"minOrder": bounds.min_order, "minFound": bounds.min_found,
                   "maxLeak": bounds.max_leak},
        "score": _score_json(evaluation.score),
        "types": _types_json(evaluation.types),
        "failures": evaluation.failures,
        "unchecked": [{"truth": _name(path), "page": page} for path, page in evaluation.unchecked],
        "documents": [{
            "truth": _name(doc.truth.path), "document": _name(os.path.normpath(doc.truth.source)),
            "score": _score_json(doc.score), "types": _types_json(doc.types),
            "pages": [{"page": page.page,
                       "score": None if page.score is None else _score_json(page.score),
                       "types": _types_json(page.types), "missing": list(page.missing),
                       "orderBreaks": [_break_json(item) for item in page.breaks]}
                      for page in doc.pages]}
            for doc in evaluation.documents],
    }
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"
