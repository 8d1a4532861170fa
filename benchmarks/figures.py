"""Figures and their captions: how many captions layoutkit finds, and how many it links to
a figure, on labelled documents.

Two measures (`layoutkit.outputs.figures`):

- on the development corpus and the held-out documents (PDFs with a text layer), every
  caption layoutkit finds (a line opening with ``Figure 3:``, ``Table 2.``, ``Şekil 1.``
  and the lines set with it) and whether a figure, a drawing or a table is linked to it;
- on the pages mined from tagged PDFs whose tags mark captions (``Caption``), every truth
  caption line and whether it is inside a caption layoutkit found, and inside one linked
  to a figure.  The tags are the producers' own, not read by layoutkit's rules.

Run alone with ``python -m benchmarks.figures [--update benchmarks/RESULTS.md]``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from benchmarks.corpus import CORPUS
from benchmarks.heldout import HELDOUT
from benchmarks.mined import MINED
from benchmarks.sections import carried_section, section_main
from layoutkit import parse
from layoutkit.outputs.figures import captions, document_figures, text_size
from layoutkit.tools.truth import load_truth, truth_files

__all__ = ["TITLE", "CaptionRow", "carried", "measure_captions", "measure_tagged", "section"]

TITLE = "## Figures and their captions"
BEFORE = "## Tokens and NLPTextDocument (layoutkit)"


@dataclass(frozen=True, slots=True)
class CaptionRow:
    """One document: its captions counted (found by layoutkit, or truth lines) and how
    many of them are found and linked to a figure, with the ones left unlinked."""

    document: str
    captions: int
    found: int | None
    """None where the captions counted are those layoutkit found."""
    linked: int
    unlinked: tuple[str, ...]


def _folded(text: str) -> str:
    return re.sub(r"\W+", "", text).casefold()


def measure_captions(roots: Sequence[Path] = (CORPUS, HELDOUT)) -> list[CaptionRow]:
    """Each truth file's document under ``roots`` with a caption layoutkit finds on
    one of its pages: the captions found on every page, and those linked."""
    rows = []
    for root in roots:
        for path in truth_files([root]):
            truth = load_truth(path)
            document = parse(truth.source)
            linked = {(f.page_no, id(f.caption_lines[0])) for f in document_figures(document)
                      if f.caption_lines}
            size = text_size(document.pages)
            found = [(page.page_no, lines) for page in document.pages
                     for lines in captions(page, size=size)]
            if found:
                missed = tuple(f"p.{page} {lines[0].text[:40]}" for page, lines in found
                               if (page, id(lines[0])) not in linked)
                rows.append(CaptionRow(truth.source.stem, len(found), None,
                                       len(found) - len(missed), missed))
    return rows


def measure_tagged(root: Path = MINED) -> list[CaptionRow]:
    """Each mined document whose tags mark captions on its labelled pages: the truth
    caption lines, and those inside a caption layoutkit found and inside one it linked."""
    rows = []
    for path in truth_files([root]):
        truth = load_truth(path)
        pages = {page.page: page.types.captions for page in truth.pages
                 if page.types is not None and page.types.captions}
        if not pages:
            continue
        document = parse(truth.source, pages=sorted(pages))
        figures = document_figures(document)
        size = text_size(document.pages)
        found = lines = linked = 0
        missed = []
        for number, truth_lines in pages.items():
            page = document.page(number)
            mine = [_folded(" ".join(line.text for line in group))
                    for group in captions(page, size=size)]
            tied = [_folded(f.caption) for f in figures if f.page_no == number and f.caption]
            for line in truth_lines:
                key = _folded(line)
                lines += 1
                found += bool(key) and any(key in text for text in mine)
                if key and any(key in text for text in tied):
                    linked += 1
                else:
                    missed.append(f"p.{number} {line[:40]}")
        rows.append(CaptionRow(truth.source.stem, lines, found, linked, tuple(missed)))
    return rows


def _table(rows: Sequence[CaptionRow], what: str) -> list[str]:
    """A markdown table of ``rows``, with a column of those found where they count
    truth captions."""
    found = any(row.found is not None for row in rows)
    lines = [f"| document | {what} |{' found |' if found else ''} linked | not linked |",
             f"| --- | ---: |{' ---: |' if found else ''} ---: | --- |"]
    for row in rows:
        cell = f" {row.found} |" if found else ""
        lines.append(f"| {row.document} | {row.captions} |{cell} {row.linked} | "
                     f"{'; '.join(row.unlinked).replace('|', '/')} |")
    total = sum(r.captions for r in rows), sum(r.found or 0 for r in rows)
    cell = f" **{total[1]}** |" if found else ""
    lines.append(f"| **all {len(rows)}** | **{total[0]}** |{cell}"
                 f" **{sum(r.linked for r in rows)}** | |")
    return lines


def section() -> list[str]:
    """The report's section: what was measured, then a table for each measure."""
    own = measure_captions()
    tagged = measure_tagged()
    return [TITLE, "",
            "Captions found and linked to a figure (`benchmarks/figures.py`,"
            " `layoutkit.outputs.figures`). Development corpus and held-out documents: each"
            " caption layoutkit finds, and whether a figure, drawing or table is linked to"
            " it (a caption on a scanned page has no drawing to link).", "",
            *_table(own, "captions"), "",
            "Pages mined from tagged PDFs whose tags mark captions: each caption line of"
            " the tags, whether it is inside a caption layoutkit finds, and inside one"
            " linked to a figure.", "",
            *_table(tagged, "caption lines")]


def carried(report: Path) -> list[str]:
    """The section as ``report`` has it, or a line saying it was not measured:
    ``benchmarks.run --quick`` carries it over."""
    return carried_section(report, TITLE, "`python -m benchmarks.figures`")


def main(argv: Sequence[str] | None = None) -> int:
    return section_main(argv, "figures", "Figures and their captions.", TITLE, BEFORE,
                        section)


if __name__ == "__main__":
    raise SystemExit(main())
