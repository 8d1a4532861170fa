"""The PDF's outline (bookmarks) and page labels: read alike by both engines, written by
``parse --toc``, guiding the headings, and selecting pages by label (``--pages ii-iii``);
on a generated report and on the lecture notes of ``fixtures/pdf``."""

from __future__ import annotations

import io
import json
from collections.abc import Iterable
from pathlib import Path

import pytest
from reportlab.pdfgen.canvas import Canvas

import layoutkit
from layoutkit.config import LayoutConfig
from layoutkit.errors import PageRangeError
from layoutkit.linetypes.bookmarks import MIN_RATIO, same_title
from layoutkit.model import OutlineEntry, Page
from layoutkit.model.codec import store_dumps, store_loads
from layoutkit.page_spec import describe_labels, parse_page_spec
from layoutkit.sources import ENGINES, open_source
from tests.test_cli import error_line, run

NOTES = Path("fixtures/pdf/geotopo-lecture-notes-de.pdf")
TEXT = ("The survey of the district was made over two summers by the staff of the office, "
        "who walked every road of it")
OUTLINE = (("Preface", 1, 1, 72.0), ("1 Roads", 1, 3, 72.0), ("1.1 Paved roads", 2, 3, 302.0),
           ("1.2 Tracks", 2, 4, 72.0), ("2 Bridges", 1, 5, 72.0),
           ("2.1 Stone bridges", 2, 5, 302.0), ("Index", 1, 6, 72.0))
"""The generated report's outline: (title, level, page, top), as `report` draws it."""
LABELS = ["i", "ii", "1", "2", "3", "4"]


def report(*, outline: bool) -> bytes:
    """Six pages, the first two numbered i-ii and the rest from 1 (page labels): each
    entry of `OUTLINE` drawn on its page at its height, a chapter in bold 16 pt, a
    section in the body's regular 10 pt (only the outline tells it is a heading), each
    over lines of text; with ``outline`` each is bookmarked at its height."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(612, 792))
    by_page: dict[int, list[tuple[str, int, float]]] = {}
    for title, level, page, top in OUTLINE:
        by_page.setdefault(page, []).append((title, level, top))
    for page in range(1, 7):
        for k, (title, level, top) in enumerate(by_page.get(page, [])):
            canvas.setFont("Helvetica-Bold" if level == 1 else "Helvetica",
                           16 if level == 1 else 10)
            canvas.drawString(72, 792 - top - 12, title)
            if outline:
                key = f"p{page}-{k}"
                canvas.bookmarkPage(key, fit="XYZ", left=0, top=792 - top)
                canvas.addOutlineEntry(title, key, level=level - 1)
            canvas.setFont("Helvetica", 10)
            for j in range(12):
                canvas.drawString(72, 792 - top - 40 - 14 * j, f"{TEXT[:60 + j % 3 * 8]} {j}.")
        canvas.showPage()
    canvas.addPageLabel(0, "ROMAN_LOWER")
    canvas.addPageLabel(2, "ARABIC")
    canvas.save()
    return buffer.getvalue()


@pytest.fixture(scope="module")
def pdfs(tmp_path_factory: pytest.TempPathFactory) -> dict[bool, Path]:
    folder = tmp_path_factory.mktemp("bookmarks")
    paths = {with_outline: folder / f"survey-{'outline' if with_outline else 'plain'}.pdf"
             for with_outline in (True, False)}
    for with_outline, path in paths.items():
        path.write_bytes(report(outline=with_outline))
    return paths


@pytest.mark.parametrize("engine", list(ENGINES))
def test_bookmarks_outline_read_alike_by_each_engine(pdfs: dict[bool, Path], engine: str) -> None:
    """Each engine gives the outline's entries in order: title, level, page and the
    height the destination points to, from the page's top (none on a heavy page);
    none without an outline."""
    with open_source(pdfs[True], engine) as source:
        assert source.outline() == tuple(OutlineEntry(*entry) for entry in OUTLINE)
        assert list(source.labels()) == LABELS
        # a page too heavy to open unguarded is not opened for its entries' heights
        assert [(e.page_no, e.top) for e in source.outline({3}) if e.page_no == 3] == [
            (3, None), (3, None)]
    with open_source(pdfs[False], engine) as source:
        assert source.outline() == ()


def test_bookmarks_parse_toc_is_the_outline(pdfs: dict[bool, Path], tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """``parse --toc`` writes the outline exactly (titles, levels, pages, heights) and
    says it came from the outline; the JSON gives each page its label."""
    out = tmp_path / "survey.json"
    assert run(capsys, "parse", str(pdfs[True]), "-o", str(out), "--toc").status == 0
    toc = json.loads(out.with_suffix(".toc.json").read_text(encoding="utf-8"))
    assert toc["source"] == "outline"
    assert [(h["text"], h["level"], h["page"], h["top"]) for h in toc["headings"]] == [
        *OUTLINE]
    pages = json.loads(out.read_text(encoding="utf-8"))["pages"]
    assert [p["label"] for p in pages] == LABELS


def test_bookmarks_outline_kept_by_the_store(pdfs: dict[bool, Path]) -> None:
    """A stored document reads back with its outline; one parsed without typing its
    lines has none (the outline guides the headings, and is read for them)."""
    document = layoutkit.parse(pdfs[True], pages="ii-1")
    assert store_loads(store_dumps(document)) == document
    assert len(document.outline) == len(OUTLINE)
    assert layoutkit.parse(pdfs[True], pages="1", typed=False).outline == ()


def test_bookmarks_parse_toc_from_headings_without_outline(
        pdfs: dict[bool, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Without an outline the contents are the headings typed, and say so."""
    out = tmp_path / "plain.json"
    assert run(capsys, "parse", str(pdfs[False]), "-o", str(out), "--toc").status == 0
    toc = json.loads(out.with_suffix(".toc.json").read_text(encoding="utf-8"))
    assert toc["source"] == "headings"
    assert [h["text"] for h in toc["headings"] if h["level"] == 1] == [
        "Preface", "1 Roads", "2 Bridges", "Index"]


def _codes(pages: Iterable[Page]) -> dict[str, str]:
    """The type of each line of `OUTLINE`'s titles."""
    return {line.text: line.code for page in pages for line in page.lines
            if line.text in {title for title, *_ in OUTLINE}}


def test_bookmarks_outline_types_its_titles_headings(pdfs: dict[bool, Path]) -> None:
    """A section set in the body's own type is a heading at its outline level where the
    outline lists it, also where the pages are typed in other processes or a few at a
    time; without the outline it is body text."""
    def codes(path: Path) -> dict[str, str]:
        return _codes(layoutkit.parse(path))

    expected = {title: f"h_{level}" for title, level, *_ in OUTLINE}
    assert codes(pdfs[True]) == expected
    assert _codes(layoutkit.parse(pdfs[True], jobs=2)) == expected
    streamed = layoutkit.iter_pages(pdfs[True], LayoutConfig().replace(
        stream_chunk_pages=2, stream_whole_chunks=1))
    assert _codes(streamed) == expected
    plain = codes(pdfs[False])
    assert plain["1.1 Paved roads"] == plain["2.1 Stone bridges"] == "b"
    assert plain["1 Roads"] == "h_1"


def test_bookmarks_pages_by_label(pdfs: dict[bool, Path], capsys: pytest.CaptureFixture[str]
                                  ) -> None:
    """``--pages ii-2`` selects the pages labelled ii to 2 (the second to the fourth);
    numbers are places in the file; a label no page has is one error line naming the
    labels there are."""
    assert [p.page_no for p in layoutkit.parse(pdfs[True], pages="ii-2")] == [2, 3, 4]
    assert [p.page_no for p in layoutkit.parse(pdfs[True], pages="i,4")] == [1, 4]
    result = run(capsys, "text", str(pdfs[True]), "--pages", "v")
    assert result.status == 2
    assert "no page is labelled 'v'; the document's labels: i-ii, 1-4" in error_line(result.err)


def test_bookmarks_page_spec_by_labels() -> None:
    """Labels, ranges of labels (open at either end), labels that hold a dash, and
    numbers, which stay places in the file."""
    labels = ["i", "ii", "iii", "A-1", "A-2", "A-3", "1", "2"]
    assert parse_page_spec("ii-iii", 8, labels) == [2, 3]
    assert parse_page_spec("A-3", 8, labels) == [6]
    assert parse_page_spec("A-1-A-2,2", 8, labels) == [2, 4, 5]
    assert parse_page_spec("iii-", 8, labels) == [3, 4, 5, 6, 7, 8]
    assert parse_page_spec("-ii", 8, labels) == [1, 2]
    assert parse_page_spec("1-2", 8, labels) == [1, 2]
    with pytest.raises(PageRangeError, match="runs backwards"):
        parse_page_spec("iii-i", 8, labels)
    with pytest.raises(PageRangeError, match=r"labels: i-iii, A-1-A-3, 1-2$"):
        parse_page_spec("B-1", 8, labels)
    with pytest.raises(PageRangeError, match="has no page labels"):
        parse_page_spec("ii", 8, [""] * 8)
    assert describe_labels([str(n) for n in range(5, 20)] + ["x"]) == "5-19, x"


def test_bookmarks_titles_match_with_their_numbers_or_without() -> None:
    """A title matches its line with or without the section number, case and
    punctuation aside; another heading does not."""
    assert same_title("Introduction", "1 Introduction") >= MIN_RATIO
    assert same_title("2.1 Une famille", "2.1 UNE FAMILLE") >= MIN_RATIO
    assert same_title("Comité de Evaluación", "COMITE DE EVALUACION") >= MIN_RATIO
    assert same_title("Results", "Methods") < MIN_RATIO


@pytest.mark.parametrize("engine", list(ENGINES))
def test_bookmarks_lecture_notes_outline(engine: str) -> None:
    """The lecture notes' outline (hyperref's bookmarks): 35 entries, chapters and
    sections, each pointing to its page, the same by either engine."""
    with open_source(NOTES, engine) as source:
        entries = source.outline()
    assert len(entries) == 35
    assert [(e.level, e.title, e.page_no) for e in entries[:3]] == [
        (1, "1 Topologische Grundbegriffe", 6), (2, "1.1 Topologische Räume", 6),
        (2, "1.2 Metrische Räume", 10)]
    assert (entries[-1].level, entries[-1].title, entries[-1].page_no) == (
        1, "Stichwortverzeichnis", 114)
    assert entries[1].top == pytest.approx(157.3)


def test_bookmarks_lecture_notes_pages_by_label() -> None:
    """The front matter is labelled i-iii, the text from 1: ``ii-2`` is PDF pages 2 to
    5, and ``1`` stays the first page of the file."""
    assert [(p.page_no, p.label) for p in layoutkit.parse(NOTES, pages="ii-2", typed=False)] == [
        (2, "ii"), (3, "iii"), (4, "1"), (5, "2")]
    assert [p.page_no for p in layoutkit.parse(NOTES, pages="1", typed=False)] == [1]


def test_bookmarks_lecture_notes_headings_below_the_outline() -> None:
    """On two pages read alone, the outline's chapter and section are headings at its
    levels, and the definitions and remarks under the section, which the outline
    leaves out and are set otherwise, one level below it, not at the chapter's level
    where typography alone puts them (the whole document read at once types them
    body)."""
    document = layoutkit.parse(NOTES, pages="6-7")
    headings = [(line.code, line.text) for page in document for line in page.lines
                if line.code.startswith("h_")]
    assert headings[:4] == [("h_1", "1 Topologische Grundbegriffe"),
                            ("h_2", "1.1 Topologische Räume"), ("h_3", "Definition 1"),
                            ("h_3", "Bemerkung 1 (Mengen, die offen & abgeschlossen sind, ex.)")]
    assert len(document.outline) == 35
