"""The line-typing bars of issue 4 on real documents and the synthetic suite
(measured by ``benchmarks/linetypes.py``, which reports the same numbers)."""

from __future__ import annotations

import dataclasses

import pytest

import layoutkit
from benchmarks import linetypes as bench
from layoutkit.linetypes.toc import is_first_page

LECTURE_NOTES_PDF = bench.PDFS / f"{bench.LECTURE_NOTES}.pdf"


def test_linetype_bar_real_furniture_precision() -> None:
    """Every line typed h/f on the labelled real pages is labelled furniture."""
    score = bench.real_furniture()
    assert score.expected >= 20
    assert score.precision >= 0.99, score


def test_linetype_bar_real_furniture_recall() -> None:
    """At least 98 % of the labelled furniture lines, the Federal Register page-1
    masthead among them, are typed h/f."""
    assert bench.real_furniture().recall >= 0.98


def test_linetype_bar_synthetic_furniture_headings_and_no_contents() -> None:
    """Headers and footers of the synthetic suite: precision >= 0.99, recall >= 0.98;
    every bold heading line of the suite is typed a heading; its numbered lists and
    headings are never typed contents."""
    furniture, headings, contents = bench.synthetic()
    assert furniture.expected > 100 and headings.expected > 100
    assert furniture.precision >= 0.99 and furniture.recall >= 0.98, furniture
    assert headings.recall >= 0.98, headings
    assert contents.predicted == 0, contents


def test_linetype_bar_lecture_notes_headings() -> None:
    """At least 95 % of the contents page's entries are headings of the right level."""
    score = bench.lecture_notes()
    assert score.expected == 34
    assert score.recall >= 0.95, score


def test_linetype_bar_lecture_notes_contents_page() -> None:
    """With the default configuration every entry of the contents page (PDF page 4,
    labelled 1 after the front matter i-iii) is typed toc."""
    score = bench.contents_page()
    assert score.expected == 34  # the page's 34 entries, each one line
    assert score.recall == 1.0, score


def test_linetype_bar_lecture_notes_contents_by_page_label() -> None:
    """The contents page is reached by its label (1), not by its place in the file
    (4, beyond toc_last_page 3); the labels 2 and 3 that follow reach no contents. The
    page's title is a heading."""
    document = layoutkit.parse(LECTURE_NOTES_PDF, pages="1-6")
    assert [p.label for p in document] == ["i", "ii", "iii", "1", "2", "3"]
    title = document[3].body_lines[0]
    assert (title.code, title.text) == ("h_1", "Inhaltsverzeichnis")
    assert {p.page_no for p in document for x in p.lines if x.code == "toc"} == {4}
    assert not is_first_page(dataclasses.replace(document[3], label=""),
                             layoutkit.LayoutConfig().linetypes)


@pytest.mark.parametrize("stem", bench.LIST_DOCUMENTS)
def test_linetype_bar_lists(stem: str) -> None:
    """At least 95 % of the labelled list items are typed lb or ln."""
    score = bench.lists(stem)
    assert score.expected >= 13
    assert score.recall >= 0.95, score


def test_linetype_bar_senate_bill_section_heading() -> None:
    """The bill's bold section heading is a heading, its line number (a margin of
    line numbers, 1 to 25) set aside."""
    page = layoutkit.parse(bench.PDFS / "senate-bill-equality-act.pdf", pages="1-3")[1]
    assert [x.text for x in page.lines if x.code.startswith("h_")] == [
        "SEC. 2. FINDINGS AND PURPOSE."]


def test_linetype_bar_city_record_headings() -> None:
    """The City Records' labelled heading lines (2016 p3, p5, p7; 2004 p9, p10, each
    issue parsed whole with its profile): precision and recall >= 0.9, and every
    heading found has its labelled level."""
    lines, levelled = bench.city_record_headings()
    assert lines.expected == 43
    assert lines.precision >= 0.9 and lines.recall >= 0.95, lines
    assert levelled.hits == lines.hits, levelled
