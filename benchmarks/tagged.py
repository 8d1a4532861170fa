"""Truth mined from tagged PDFs against the hand truth of the same pages.

Usage::

    python -m benchmarks.tagged            # a markdown table over the tagged corpus documents
    python -m benchmarks.tagged NAME...    # the same for some of them

Each development-corpus document that is tagged (``pdfinfo``: Tagged yes) has its
labelled pages mined (`layoutkit.tools.tagged`), and the mined body lines are scored
as if they were a reader's output against the hand truth: found and order as
`layoutkit.tools.evaluate.score_page` scores any reader, headings (found whatever the
level, then with the level), list items, tables and contents as the line-type scorers
score them (precision and recall of the mined types against the hand types, the hand
truth's ``either`` lines counting neither way).  A document whose tags are refused is
listed with the reason.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from benchmarks.peers import REPO
from layoutkit.tools.evaluate import (
    PageScore,
    TypeScore,
    combine,
    score_heading_lines,
    score_page,
    score_typed_lines,
)
from layoutkit.tools.tagged import TagsRefusedError, mine_truth
from layoutkit.tools.truth import DocumentTruth, load_truth

__all__ = ["TAGGED", "Agreement", "agreement", "main", "measure", "table"]

TAGGED = ("barnes-county-nd-election-abstract-2008", "bayerischer-landtag-plenarprotokoll-17-140",
          "borme-2015-02-10-caceres", "cooleman-ridge-newsletter-2017-08",
          "ercot-fact-sheet-2024-02", "kpmg-commodity-insights-iron-ore-2013-12",
          "lake-evesham-news-2020-02", "mount-calvary-preschool-news-september",
          "pusep-magneto-photoluminescence-abstract", "ridgeway-repeater-group-newsletter-2008-04",
          "uufom-candle-flame")
"""The tagged documents of the development corpus."""
CORPUS_REGIONS, CORPUS_PDFS = REPO / "regions" / "corpus", REPO / "fixtures" / "corpus"


@dataclass(frozen=True)
class Agreement:
    """How a document's mined truth agrees with its hand truth: reading order (found,
    order, leak of the hand furniture into the mined body), headings (found whatever
    the level; with the level), list items, tables, contents; ``refused`` the reasons
    pages were refused (all of them: no scores)."""

    name: str
    order: PageScore | None = None
    headings: TypeScore | None = None
    levels: TypeScore | None = None
    lists: TypeScore | None = None
    tables: TypeScore | None = None
    contents: TypeScore | None = None
    refused: str = ""


def agreement(name: str, mined: DocumentTruth, hand: DocumentTruth) -> Agreement:
    """The `Agreement` of ``mined`` with ``hand`` (the truth of the same pages)."""
    orders, heads, levels = [], TypeScore(0, 0, 0), TypeScore(0, 0, 0)
    lists = tables = contents = TypeScore(0, 0, 0)
    for page in hand.pages:
        other = mined.page(page.page)
        if other is None or not page.ordered:
            continue
        orders.append(score_page("\n".join(other.lines), page.lines, page.furniture))
        types, mine = page.types, other.types
        if types is None or mine is None:
            continue
        either = types.either
        found, levelled = score_heading_lines(mine.headings, types.headings, either)
        heads, levels = heads + found, levels + levelled
        lists += score_typed_lines([("lb", t) for t in mine.list_items], types.list_items,
                                   ["lb"], either)
        tables += score_typed_lines([("tb", t) for t in mine.tables], types.tables, ["tb"],
                                    either)
        contents += score_typed_lines([("tc", t) for t in mine.contents], types.contents,
                                      ["tc"], either)
    return Agreement(name, combine(orders), heads, levels, lists, tables, contents)


def measure(names: Sequence[str] = TAGGED, out: Path | None = None) -> list[Agreement]:
    """The `Agreement` of each named corpus document's mined truth with its hand truth,
    page by page: a page refused is left out and named (the mined truth files written
    to ``out`` when given)."""
    rows = []
    for name in names:
        hand = load_truth(CORPUS_REGIONS / f"{name}.truth.json")
        target = (out or CORPUS_REGIONS) / f"{name}.mined.truth.json"
        pages, refused = [], []
        for page in hand.pages:
            try:
                pages += mine_truth(CORPUS_PDFS / f"{name}.pdf", target, str(page.page)).pages
            except TagsRefusedError as error:
                refused.append(str(error).split(": ", 1)[-1])
        if not pages:
            rows.append(Agreement(name, refused="; ".join(refused)))
            continue
        mined = DocumentTruth(target, f"{name}.pdf", hand.sha256, tuple(pages))
        if out is not None:
            from layoutkit.tools.truth import write_truth

            write_truth(mined)
        rows.append(replace(agreement(name, mined, hand), refused="; ".join(refused)))
    return rows


def _pr(score: TypeScore | None) -> str:
    """A type score as the hits over the mined lines (precision) and over the hand's
    (recall), or a dash when both are empty."""
    if score is None or (score.expected == 0 and score.predicted == 0):
        return "–"
    return f"{score.hits}/{score.predicted} · {score.hits}/{score.expected}"


def table(rows: Sequence[Agreement]) -> list[str]:
    """The markdown table of ``rows``: found, order and leak; for each type the hits
    over the lines mined so (precision) · over the hand's lines (recall); for headings'
    levels the found headings given the hand's level."""
    lines = ["| document | found | order | leak | headings | levels | list items | tables "
             "| contents |", "|---|---|---|---|---|---|---|---|---|"]
    for row in rows:
        if row.order is None:
            lines.append(f"| {row.name} | refused: {row.refused} | | | | | | | |")
            continue
        level = (f"{row.levels.hits}/{row.headings.hits}" if row.levels and row.headings
                 and row.headings.hits else "–")
        lines.append(f"| {row.name} | {row.order.found:.3f} | {row.order.order:.3f} | "
                     f"{row.order.leak:.2f} | {_pr(row.headings)} | {level} | "
                     f"{_pr(row.lists)} | {_pr(row.tables)} | {_pr(row.contents)} |"
                     + (f" refused {row.refused}" if row.refused else ""))
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    """Print the table for the documents named in ``argv`` (default: all tagged)."""
    names = list(argv if argv is not None else sys.argv[1:]) or list(TAGGED)
    print("\n".join(table(measure(names))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
