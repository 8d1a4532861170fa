"""Notes in a margin beside the text, read after the paragraph they stand beside
(`layoutkit.reading.sidenotes`): pages drawn with reportlab, their truth exact, and the
book in a column and a half that showed the cause."""

from __future__ import annotations

from pathlib import Path

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

import layoutkit
from layoutkit.tools.evaluate import combine, score_truth
from layoutkit.tools.truth import load_truth

ROOT = Path(__file__).resolve().parent.parent
TEXT = ("Sidenotes are like footnotes except that they go in the margin where they are "
        "more readable and a reader takes each one up where the text calls it while the "
        "margin keeps the page light and the text block narrow enough to read with ease "
        "so that every line holds about ten words of body text set in one size")
WORDS = TEXT.split()
PARAGRAPHS = [(0, 5), (6, 10), (11, 16)]
"""Each paragraph's first and last line among the text's lines."""
NOTES = [(2, ["A note beside the third", "line of the first", "paragraph."]),
         (12, ["A second note, beside", "the third paragraph."])]
"""Each note's text line it stands level with, and its lines."""


def text_lines(count: int) -> list[str]:
    """``count`` lines of the text, each about 300 points wide."""
    lines, at = [], 0
    for _ in range(count):
        line: list[str] = []
        while stringWidth(" ".join([*line, WORDS[at % len(WORDS)]]), "Times-Roman", 10) <= 300:
            line.append(WORDS[at % len(WORDS)])
            at += 1
        lines.append(" ".join(line))
    return lines


def book_page(path: Path, note_size: float) -> list[str]:
    """Draw three paragraphs of 10 pt text (each one's last line short) and two notes
    of ``note_size`` in the right margin, level with the lines that call them; return
    the text in the order a reader takes it up, each note after its paragraph."""
    lines = text_lines(17)
    for first, last in PARAGRAPHS:
        lines[first] = lines[first][0].upper() + lines[first][1:]
        lines[last] = " ".join(lines[last].split()[:4])
    canvas = Canvas(str(path), pagesize=(612, 792))
    for k, line in enumerate(lines):
        canvas.setFont("Times-Roman", 10)
        canvas.drawString(72, 650 - 13 * k, line)
    for level, note in NOTES:
        canvas.setFont("Times-Roman", note_size)
        for j, line in enumerate(note):
            canvas.drawString(400, 650 - 13 * level - (note_size + 2) * j, line)
    canvas.save()
    order: list[str] = []
    for first, last in PARAGRAPHS:
        order += lines[first:last + 1]
        order += [text for level, note in NOTES if first <= level <= last for text in note]
    return order


def body(path: Path) -> list[str]:
    page = layoutkit.parse(path, typed=False)[0]
    return [line.text for line in page.lines if not line.furniture]


def test_each_margin_note_is_read_after_the_paragraph_it_stands_beside(tmp_path: Path) -> None:
    path = tmp_path / "book.pdf"
    expected = book_page(path, 8.0)
    assert body(path) == expected


def test_a_column_in_the_texts_own_size_is_no_margin_of_notes(tmp_path: Path) -> None:
    """A narrow column set as large as the text is a column of its own, read after."""
    path = tmp_path / "sidebar.pdf"
    book_page(path, 10.0)
    lines = body(path)
    assert lines[-2:] == ["A second note, beside", "the third paragraph."]


def test_a_books_sidenotes_read_where_the_text_calls_them() -> None:
    """A kaobook page: a margin table of contents, two sidenotes and a margin note used to
    be read after the whole text block (order 0.857; pdfminer.six read 0.912)."""
    truth = load_truth(ROOT / "regions" / "corpus"
                       / "kaobook-2022-documentation-margin-stuff.truth.json")
    pages = [p for p in truth.pages if p.ordered]
    doc = layoutkit.parse(truth.source, pages=[p.page for p in pages], typed=False)
    assert combine(score_truth(page.text(), p)
                   for page, p in zip(doc, pages, strict=True)).order >= 0.90
