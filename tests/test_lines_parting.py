"""Lines that respect the content stream and the type (:mod:`layoutkit.geometry.parting`):
pages drawn with reportlab whose lines are known exactly, and a real OCR layer of a
seven-column newspaper page."""

from __future__ import annotations

import random
from pathlib import Path

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

import layoutkit
from layoutkit.config import LayoutConfig
from layoutkit.geometry.words import group_lines
from layoutkit.model import BBox, Word
from layoutkit.tools.evaluate import score_page
from tests.test_segment import VOCAB

REPO = Path(__file__).resolve().parent.parent
CONFIG = LayoutConfig()


def ocr_layer(path: Path, *, seed: int = 1, specks: float = 0.08, shuffled: bool = False
              ) -> list[str]:
    """Seven justified columns of 80 lines of 7 pt text, 9 pt apart, their baselines
    level, every word its own text object drawn column by column, line by line (as an
    OCR engine writes its layer), with a speck of ink read as a mark ("'", "|"...) just
    right of a line's end in a share ``specks`` of the lines, which the gutters then
    hold; ``shuffled`` draws the lines in a random order.  Returns the lines in
    reading order."""
    rng = random.Random(seed)
    width, gutter, size, left = 140.0, 9.0, 7.0, 30.0
    page = (2 * left + 7 * width + 6 * gutter, 120.0 + 80 * size * 1.15)
    canvas = Canvas(str(path), pagesize=page)
    space = stringWidth(" ", "Helvetica", size)
    drawn: list[list[tuple[float, float, str]]] = []
    lines: list[str] = []
    for column in range(7):
        x0 = left + column * (width + gutter)
        for k in range(80):
            y = page[1] - 60.0 - k * size * 1.15
            words: list[tuple[str, float]] = []
            used = 0.0
            while True:
                text = rng.choice(VOCAB)
                advance = stringWidth(text, "Helvetica", size)
                if used + advance + (space if words else 0.0) > width:
                    break
                used += advance + (space if words else 0.0)
                words.append((text, advance))
            extra = (width - sum(a for _, a in words)) / max(1, len(words) - 1)
            x, strokes = x0, []
            for text, advance in words:
                strokes.append((x, y, text))
                x += advance + extra
            if column < 6 and rng.random() < specks:
                strokes.append((x0 + width + 1.0, y, rng.choice("'-.,l|")))
            drawn.append(strokes)
            lines.append(" ".join(text for text, _ in words))
    if shuffled:
        rng.shuffle(drawn)
    canvas.setFont("Helvetica", size)
    for strokes in drawn:
        for x, y, text in strokes:
            canvas.drawString(x, y, text)
    canvas.save()
    return lines


def test_lines_ocr_layer_of_seven_narrow_columns_reads_column_by_column(tmp_path: Path) -> None:
    """An OCR layer of seven columns whose gutters hold specks (so no gutter is found
    down the whole page): words of neighbouring columns on one baseline are drawn far
    apart in the stream with a gap between them, so they are never one line, and the
    columns, each drawn down by the stream, read one after the other (0.29 when the
    rows were glued across the gutters)."""
    path = tmp_path / "ocr.pdf"
    lines = ocr_layer(path)
    text = layoutkit.parse(path)[0].text()
    score = score_page(text, lines, [], None)
    assert (score.found, score.order) == (1.0, 1.0)
    assert len(text.split("\n")) == len(lines)  # no line glued to another, none cut


def test_lines_ocr_layer_drawn_shuffled_parts_no_line(tmp_path: Path) -> None:
    """The same layer with its lines drawn in a random order: the stream still puts
    the words of neighbouring columns far apart, so every line is found whole, but one
    drawn right before the line level with it across the gutter, which joins it (the
    stream draws them one after the other); a shuffled stream says nothing of the
    columns' order, which reads as it did."""
    path = tmp_path / "ocr.pdf"
    lines = ocr_layer(path, shuffled=True)
    read = layoutkit.parse(path)[0].text().split("\n")
    assert score_page("\n".join(read), lines, [], None).found == 1.0
    assert len(read) == len(lines) - 1
    # a line read is a line drawn, a speck after it or not, but for the two joined
    odd = [line for line in read
           if not any(line.startswith(t) and len(line) - len(t) <= 2 for t in lines)]
    assert len(odd) == 1


def test_lines_display_title_over_taglines(tmp_path: Path) -> None:
    """A cover's title in 96 pt letters, its box reaching down over the first of three
    14 pt taglines: its letters are never spliced into the taglines' words (they were:
    "WFor digital treansform ationCare") and it is a line of its own, read first."""
    path = tmp_path / "cover.pdf"
    canvas = Canvas(str(path), pagesize=(595.0, 842.0))
    canvas.setFont("Helvetica-Bold", 96)
    canvas.drawString(40.0, 600.0, "We Care")
    canvas.setFont("Helvetica", 14)
    taglines = ["For digital transformation", "For a greener planet", "For the people we serve"]
    for k, text in enumerate(taglines):
        canvas.drawString(60.0, 586.0 - 18.0 * k, text)
    canvas.save()
    page = layoutkit.parse(path)[0]
    assert [line.text for line in page.body_lines] == ["We Care", *taglines]


def test_lines_headline_beside_small_text_reads_forwards(tmp_path: Path) -> None:
    """A 30 pt headline level with the 9 pt lines of the next column: its words read
    left to right as a line of their own (they were read backwards, each taken for a
    drop capital of the small text, "Mattarella di L'altolà line 0 ...")."""
    path = tmp_path / "headline.pdf"
    canvas = Canvas(str(path), pagesize=(595.0, 842.0))
    canvas.setFont("Times-Bold", 30)
    canvas.drawString(40.0, 700.0, "L'altol\u00e0 di Mattarella")
    canvas.setFont("Times-Roman", 9)
    column = [f"line {k} of the next column runs on here" for k in range(8)]
    for k, text in enumerate(column):
        canvas.drawString(340.0, 712.0 - 11.0 * k, text)
    canvas.save()
    page = layoutkit.parse(path)[0]
    assert [line.text for line in page.body_lines] == ["L'altol\u00e0 di Mattarella", *column]


def word(text: str, x0: float, top: float, *, size: float = 10.0, stream: int = 0) -> Word:
    """A word of ``size`` whose box starts at ``x0`` and ``top``, 5 pt a letter wide."""
    return Word(text, BBox(x0, top, x0 + 5.0 * len(text), top + size), "F", size,
                stream=stream)


def test_lines_stream_parts_words_far_apart_across_a_gap() -> None:
    """Two columns' lines level with each other, each line drawn whole, the left column
    first: a 12 pt gap (four word spaces) parts each row, and the left column reads
    first; the same rows drawn word after word across the gap (a tab stop) stay whole,
    and so do rows of words with no place in the stream (built by hand)."""
    rows = 8
    left = [[word("alpha", 0.0, 12.0 * k), word("beta", 28.0, 12.0 * k)] for k in range(rows)]
    right = [[word("gamma", 60.0, 12.0 * k), word("delta", 88.0, 12.0 * k)]
             for k in range(rows)]
    drawn = [line for line in [*left, *right]]
    stream = iter(range(4 * rows))
    numbered = [[Word(w.text, w.bbox, w.font, w.size, stream=next(stream)) for w in line]
                for line in drawn]
    words = [w for line in numbered for w in line]
    texts = [[w.text for w in line] for line in group_lines(words, CONFIG)]
    assert texts == [["alpha", "beta"]] * rows + [["gamma", "delta"]] * rows
    across = iter(range(4 * rows))
    tabbed = [Word(w.text, w.bbox, w.font, w.size, stream=next(across))
              for k in range(rows) for w in [*left[k], *right[k]]]
    assert [[w.text for w in line] for line in group_lines(tabbed, CONFIG)] \
        == [["alpha", "beta", "gamma", "delta"]] * rows
    unplaced = [w for k in range(rows) for w in [*left[k], *right[k]]]
    assert [[w.text for w in line] for line in group_lines(unplaced, CONFIG)] \
        == [["alpha", "beta", "gamma", "delta"]] * rows


def test_lines_footnote_mark_stays_with_its_note() -> None:
    """A footnote's number, smaller and raised, 9 pt before its note: a mark smaller
    than its line is never display type, and joins the note."""
    note = [word("1", 0.0, -1.0, size=6.0, stream=0), word("See", 14.0, 0.0, stream=1),
            word("the", 34.0, 0.0, stream=2), word("act", 52.0, 0.0, stream=3)]
    assert [[w.text for w in line] for line in group_lines(note, CONFIG)] \
        == [["1", "See", "the", "act"]]


def test_lines_ocr_newspaper_page_reads_its_first_column_down() -> None:
    """The National Tribune, 10 Nov 1898, p. 1 (an NDNP page, OCR text layer): the
    first column, whose lines stood level with the seventh across a picture and whose
    neighbouring lines a skewed scan made overlap, reads down, line after line."""
    path = REPO / "fixtures" / "corpus" / "national-tribune-1898-11-10-front-page.pdf"
    lines = layoutkit.parse(path)[0].text().split("\n")
    column = ["In this movement they started on the after-",
              "noon of the 12th, short of provisions, and no",
              "rations were issued till the afternoon of the",
              "loth, except some fresh beef just as they were",
              "starting. We are not certain from the re-",
              "marks occasionally dropped by the boys that",
              "this long fast made them any more religious."]
    start = lines.index(column[0])
    assert lines[start:start + 5] == column[:5]
    # the page set level as a whole (geometry.skew), the foot of the sheet, which was not
    # flat, still leans: a line there takes words of the third column
    assert column[5] not in lines
