"""Running headers and stamps of a page alone in its file, read end to end."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from reportlab.pdfgen.canvas import Canvas

import layoutkit
from layoutkit.model import LineType
from tests.test_segment import VOCAB


def gazette_page(path: Path, *, header_gap: float, stamp_gap: float) -> list[str]:
    """A letter page alone in its file, set as a daily record is: three columns of
    8 pt type on a 9 pt leading, under a 12 pt running header ('S1984', the title, the
    date, in pieces) whose glyph boxes stand ``header_gap`` points over the first
    line's, and a 6.5 pt proof stamp ``stamp_gap`` points under the last line; returns
    the body's lines, column by column."""
    canvas = Canvas(str(path), pagesize=(612.0, 792.0))
    canvas.setFont("Times-Roman", 12)
    canvas.drawString(36.0, 762.0, "S1984")
    canvas.drawCentredString(306.0, 762.0, "CONGRESSIONAL RECORD — SENATE")
    canvas.drawRightString(576.0, 762.0, "March 20, 2013")
    # a box is a font size high, its foot a fifth of it under the baseline
    first = 762.0 - 0.2 * 12.0 - header_gap - 0.8 * 8.0
    rng = random.Random(3)
    lines = []
    canvas.setFont("Times-Roman", 8)
    for x in (36.0, 222.0, 408.0):
        for k in range(76):
            text = " ".join(rng.choice(VOCAB) for _ in range(4)) + f" {x:.0f}x{k}"
            canvas.drawString(x, first - 9.0 * k, text)
            lines.append(text)
    canvas.setFont("Times-Roman", 6.5)
    stamp = first - 9.0 * 75 - 0.2 * 8.0 - stamp_gap - 0.8 * 6.5
    canvas.drawString(36.0, stamp, "VerDate Mar 15 2010 07:23 Oct 03, 2013 Jkt 029060 "
                                   "PO 00000 Frm 00018 Fmt 0624 Sfmt 0634 S20MR3")
    canvas.save()
    return lines


def test_furniture_alone_header_and_stamp_left_out(tmp_path: Path) -> None:
    """The running header, parted from a closely set body by less than its own size
    but far more than the body's lines are from each other, and the small stamp far
    under the text are header and footer: the page's text is its columns alone."""
    path = tmp_path / "record.pdf"
    body = gazette_page(path, header_gap=5.0, stamp_gap=30.0)
    page = layoutkit.parse(path, typed=False)[0]
    assert [line.text for line in page.body_lines] == body
    assert [line.text for line in page.lines if line.line_type is LineType.HEADER] == \
        ["S1984 CONGRESSIONAL RECORD — SENATE March 20, 2013"]
    assert [line.text for line in page.lines if line.line_type is LineType.FOOTER] == \
        ["VerDate Mar 15 2010 07:23 Oct 03, 2013 Jkt 029060 PO 00000 Frm 00018 Fmt 0624 "
         "Sfmt 0634 S20MR3"]


@pytest.mark.parametrize(("header_gap", "stamp_gap"), [(1.0, 30.0), (5.0, 3.0)])
def test_furniture_alone_at_the_body_spacing_is_body(tmp_path: Path, header_gap: float,
                                                     stamp_gap: float) -> None:
    """A header at the body's own spacing, or a small line close under the text (a
    footnote), is read with the body."""
    path = tmp_path / "record.pdf"
    gazette_page(path, header_gap=header_gap, stamp_gap=stamp_gap)
    page = layoutkit.parse(path, typed=False)[0]
    furniture = [line.text for line in page.lines
                 if line.line_type in (LineType.HEADER, LineType.FOOTER)]
    assert ("VerDate" in " ".join(furniture)) is (stamp_gap > 10.0)
    assert ("CONGRESSIONAL" in " ".join(furniture)) is (header_gap > 2.0)


def test_furniture_alone_a_note_numbered_as_its_page_is_body(tmp_path: Path) -> None:
    """The first page's first footnote opens with '1', the page's own number, set apart
    under the text: a folio line by its number, but the text calls note 1 (a smaller
    figure raised after a word), so it is the page's note, kept in the body."""
    path = tmp_path / "note.pdf"
    canvas = Canvas(str(path), pagesize=(612.0, 792.0))
    rng = random.Random(5)
    body = [" ".join(rng.choice(VOCAB) for _ in range(9)) for _ in range(40)]
    for k, text in enumerate(body):
        canvas.setFont("Times-Roman", 12)
        canvas.drawString(72.0, 720.0 - 16.0 * k, text)
        if k == 3:  # the call, drawn right after its word
            canvas.setFont("Times-Roman", 7)
            canvas.drawString(72.0 + canvas.stringWidth(text, "Times-Roman", 12) + 0.5,
                              720.0 - 16.0 * 3 + 5.0, "1")
    note = "1 Available at the council's archive, volume of minutes for the year"
    canvas.setFont("Times-Roman", 9)
    canvas.drawString(72.0, 52.0, note)
    canvas.save()
    page = layoutkit.parse(path, typed=False)[0]
    kept = [line.text for line in page.lines if not line.furniture]
    assert kept[-1] == note
    assert kept[3] == f"{body[3]} 1"
