"""Contents after a front matter, on PDFs generated with reportlab: page labels read
by both engines, and the contents page they make one of the first pages."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from reportlab.pdfgen.canvas import Canvas

import layoutkit
from layoutkit.sources import ENGINES

FOREWORD = ("This report was written over two winters and owes much to the readers of "
            "its drafts, who found more mistakes in it than anyone would like to admit.")
ENTRIES = (("Introduction", 1), ("Background", 2), ("Methods", 3), ("Results", 3))


def report(*, labelled: bool) -> bytes:
    """Six pages: a title page, two of foreword, a contents page whose entries end in
    page numbers (no section numbers), two pages of text; with ``labelled`` the front
    matter is numbered i-iii and the text from 1 on, as LaTeX labels it."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(612, 792))
    canvas.setFont("Helvetica-Bold", 24)
    canvas.drawString(72, 600, "A Report on Reports")
    canvas.showPage()
    for heading in ("Foreword", "Acknowledgements"):
        canvas.setFont("Helvetica-Bold", 16)
        canvas.drawString(72, 700, heading)
        canvas.setFont("Helvetica", 10)
        for k in range(12):
            canvas.drawString(72, 670 - 14 * k, FOREWORD[: 60 + k % 3 * 10])
        canvas.showPage()
    canvas.setFont("Helvetica-Bold", 16)
    canvas.drawString(72, 700, "Contents")
    canvas.setFont("Helvetica", 10)
    for k, (title, page) in enumerate(ENTRIES):
        canvas.drawString(72, 670 - 16 * k, f"{title} " + ". " * 30)
        canvas.drawRightString(540, 670 - 16 * k, str(page))
    canvas.showPage()
    for k in range(2):
        canvas.setFont("Helvetica", 10)
        for j in range(20):
            canvas.drawString(72, 700 - 14 * j, f"{FOREWORD[:70]} ({k}.{j})")
        canvas.showPage()
    if labelled:
        canvas.addPageLabel(0, "ROMAN_LOWER")
        canvas.addPageLabel(3, "ARABIC")
    canvas.save()
    return buffer.getvalue()


@pytest.fixture(scope="module")
def pdfs(tmp_path_factory: pytest.TempPathFactory) -> dict[bool, Path]:
    folder = tmp_path_factory.mktemp("reports")
    paths = {labelled: folder / f"report-{'labelled' if labelled else 'plain'}.pdf"
             for labelled in (True, False)}
    for labelled, path in paths.items():
        path.write_bytes(report(labelled=labelled))
    return paths


@pytest.mark.parametrize(("engine", "jobs"), [(engine, 1) for engine in ENGINES] + [("pdfium", 2)])
def test_toc_page_labels_read(pdfs: dict[bool, Path], engine: str, jobs: int) -> None:
    """Each engine gives every page its label, and none to a document without labels;
    pages laid out in other processes keep theirs."""
    assert [p.label for p in layoutkit.parse(pdfs[True], engine=engine, jobs=jobs)] == [
        "i", "ii", "iii", "1", "2", "3"]
    assert {p.label for p in layoutkit.parse(pdfs[False], engine=engine, jobs=jobs)} == {""}


@pytest.mark.parametrize(("engine", "jobs"), [(engine, 1) for engine in ENGINES] + [("pdfium", 2)])
def test_toc_contents_after_front_matter(pdfs: dict[bool, Path], engine: str,
                                         jobs: int) -> None:
    """With page labels the contents page (PDF page 4, labelled 1) is one of the first
    toc_last_page pages and its entries are typed toc, also when the pages are typed in
    other processes; without them it lies beyond toc_last_page and nothing is.  The
    page's title is a level 1 heading: the report's title, alone on the first page,
    opens no level above it."""
    page = layoutkit.parse(pdfs[True], engine=engine, jobs=jobs)[3]
    assert [(x.code, x.text.split()[0]) for x in page.body_lines] == [
        ("h_1", "Contents"), *[("toc", title) for title, _ in ENTRIES]]
    plain = layoutkit.parse(pdfs[False], engine=engine, jobs=jobs)
    assert "toc" not in {x.code for p in plain for x in p.lines}
