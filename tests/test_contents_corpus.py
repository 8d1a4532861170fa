"""Contents on development-corpus pages (issue 19, item 3): entries whose page numbers
are the document's page labels, entries over several lines with dot leaders or the
number alone, the lines between the page's title and the first entry; and pages whose
lines end in numbers that point to no page (a table of counts, footnote marks) with
no contents.  Each page is read as the benchmark reads it (the labelled pages of its
document, default configuration)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

import layoutkit
from layoutkit.linetypes.toc import PageNumbers, type_toc
from layoutkit.model import Document, Page
from layoutkit.nlp.paragraphs import ignored_codes, kept_lines
from tests.linetype_pages import BOLD, L, codes, document

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "fixtures" / "corpus"
CONFIG = layoutkit.LayoutConfig().linetypes
CONFIG_NLP = layoutkit.LayoutConfig().nlp


@cache
def _parsed(stem: str, pages: tuple[int, ...]) -> Document:
    return layoutkit.parse(CORPUS / f"{stem}.pdf", pages=list(pages))


def _page(stem: str, pages: tuple[int, ...], number: int) -> Page:
    return next(p for p in _parsed(stem, pages) if p.page_no == number)


def _contents(page: Page) -> list[str]:
    return [x.text for x in page.lines if x.code == "toc"]


def test_contents_corpus_page_labels_of_a_parliament_record() -> None:
    """The Bayerischer Landtag's record of 151 pages is labelled 12833 on: its agenda's
    speeches end in those labels (several to a speaker, wrapped onto a line of their
    own), and every line from the first item to the last is contents, the agenda
    items' titles over several lines without a number of their own too."""
    stem, pages = "bayerischer-landtag-plenarprotokoll-17-140", (1, 3)
    document = _parsed(stem, pages)
    assert document.page_count == 151 and document[0].label == "12833"
    assert PageNumbers.of(document).arabic(12898) and not PageNumbers.of(document).arabic(12990)
    toc = _contents(_page(stem, pages, 1))
    assert len(toc) == 53
    assert toc[0].startswith("Geschäftliches") and toc[-1].startswith("Schlussabstimmung")
    assert {"Regierungserklärung", "des Ministerpräsidenten", "12868", "12882",
            "Prof. Dr. Michael Piazolo"} <= set(toc)
    assert not _contents(_page(stem, pages, 3))


def test_contents_corpus_gazette_entries_over_several_lines() -> None:
    """The Diário da República's index (pages labelled 21 on, 12 pages) lists acts over
    up to seven lines, the last ending in a dot leader and the page number: all 36
    lines under the title, the ministries' names between the acts too, are contents;
    the title ÍNDICE is not."""
    page = _page("diario-da-republica-2010-01-05", (1, 3), 1)
    toc = _contents(page)
    assert len(toc) == 36
    assert toc[0] == "Assembleia da República"
    assert toc[-1].startswith("Negócios, S. A.") and toc[-1].endswith("23")
    assert "ÍNDICE" not in toc


def test_contents_corpus_entry_running_on_from_the_page_before() -> None:
    """The Gazzetta Ufficiale's contents run on from its first page: the decree whose
    page number stands on the third line of the second page is contents from its
    first line."""
    toc = _contents(_page("gazzetta-ufficiale-serie-generale-2025-111", (2, 5), 2))
    assert len(toc) == 77
    assert toc[:3] == ["DECRETO 8 maggio 2025.", "Emissione decreto operatività REPO maggio",
                       "2025, contenente l’emissione dei buoni del Tesoro"]


def test_contents_corpus_column_head_under_the_title() -> None:
    """The Diário Oficial's summary: the column head PÁGINA between the title Sumário
    and the first entry is contents, the title and a lone dot are not."""
    page = _page("diario-oficial-uniao-2014-10-01", (1, 2), 1)
    toc = _contents(page)
    assert len(toc) == 30
    assert toc[0] == "PÁGINA" and "Sumário" not in toc and "." not in toc


@pytest.mark.parametrize(("stem", "pages"), [
    ("kpmg-commodity-insights-iron-ore-2013-12", (1, 2)),
    ("barnes-county-nd-election-abstract-2008", (1, 2)),
])
def test_contents_corpus_numbers_that_point_to_no_page(stem: str,
                                                       pages: tuple[int, ...]) -> None:
    """A report's sentences ending in footnote marks set small (``reduce. 2, 3``) and
    an election abstract's rows of vote counts (``SCATTERING 0 0 0 1 1``, counts beyond
    its 2 pages) are not contents."""
    assert not [x.text for page in _parsed(stem, pages) for x in page.lines
                if x.code == "toc"]


def test_contents_roman_page_numbers_of_front_matter() -> None:
    """Front matter entries end in Roman page numbers after a leader or a wide gap,
    the text's in Arabic ones: all are contents; a line ending in a Roman numeral set
    close (a war's name) is none."""
    page = [L("Contents", 72, 0, 16, BOLD),
            L("Foreword . . . . . . vii", 100, 1), L("Preface . . . . . . xi", 112, 1),
            L("Abbreviations | xiv", 124, 1), L("1 Introduction . . . . . 1", 136, 1),
            L("2 Methods . . . . . 5", 148, 1)]
    typed = codes(type_toc(document(page, page_count=40), CONFIG))
    assert [c for c, _ in typed] == ["b"] + ["toc"] * 5
    close = [L("The aftermath of World War I", 72, 0), L("The treaties of World War II", 84, 0),
             L("Between the wars . . . 4", 96, 0)]
    assert {c for c, _ in codes(type_toc(document(close, page_count=40), CONFIG))} == {"b"}


def test_contents_labels_run_on_into_a_number_are_no_entries() -> None:
    """A CV's labels (``Item 1``, ``Person 2``) end in ascending numbers of its pages,
    set close after a word and short of the column's edge: no contents.  The same
    entries with most numbers set off by a gap are."""
    text = "A paragraph that runs across the whole column to its right edge, and on."
    labels = [L("Interests", 72, 0, 12, BOLD), L("Item 1", 90, 1), L("Item 2", 102, 1),
              L("Item 3", 114, 1), L("Person 1", 126, 2), L("Person 2", 138, 2),
              L(text, 150, 3)]
    assert {c for c, _ in codes(type_toc(document(labels, page_count=4), CONFIG))} == {"b"}
    set_off = [L("Interests", 72, 0, 12, BOLD), L("Item | 1", 90, 1), L("Item | 2", 102, 1),
               L("Item 3", 114, 1), L("Person | 4", 126, 2), L(text, 150, 3)]
    assert [c for c, _ in codes(type_toc(document(set_off, page_count=4), CONFIG))] \
        == ["b", "toc", "toc", "toc", "toc", "b"]
    page = _page("moderncv-classic-cv-template", (1, 2), 2)
    assert not _contents(page)


def test_contents_corpus_heads_of_a_tables_parts_between_rows_of_figures() -> None:
    """The Melrose election results: ``QUESTION 1`` to ``QUESTION 4`` end in numbers of
    its pages, ascending, but each stands over rows of vote counts by precinct (``YES
    319 389 429 ...``); they are the heads of the table's parts, not contents, and the
    rows between them are kept by ``layoutkit tokens``, which leaves contents out."""
    document = _parsed("melrose-election-results-2016", (1, 2, 3, 4, 5))
    page = _page("melrose-election-results-2016", (1, 2, 3, 4, 5), 2)
    assert not [x.text for p in document for x in p.lines if x.code == "toc"]
    counts = "YES 319 389 429 334 344 357 368 396 397 358 366 391 393 391 5232"
    assert [x.code for x in page.lines if x.text in ("QUESTION 1", counts)] == ["tab", "tab"]
    kept = {line.text for line, _ in kept_lines(document.pages, ignored_codes(CONFIG_NLP))}
    assert {"QUESTION 1", counts} <= kept
