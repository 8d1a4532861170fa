"""Line numbers printed in a margin (`layoutkit.geometry.line_numbers`) and letters
raised into a word (`layoutkit.geometry.words.words_from_glyphs`): pages drawn
with reportlab, their truth exact, and the review copy that showed both."""

from __future__ import annotations

from pathlib import Path

import pytest
from reportlab.pdfgen.canvas import Canvas

import layoutkit
from layoutkit.geometry.line_numbers import line_numbers
from layoutkit.model import BBox, Word
from tests.test_parting import order_of

ROOT = Path(__file__).resolve().parent.parent
CVPR = ROOT / "fixtures" / "corpus" / "cvpr-2023-author-guidelines-review.pdf"
TEXT = ["Minutes of the council meeting held on Tuesday", "The council met to consider the",
        "budget for the coming year and agreed", "to raise the levy by two percent after",
        "a long debate about roads and schools"]


def ruled_page(path: Path, *, step: int = 1, pitch: float = 24.0) -> None:
    """Pleading paper: numbers 1, 1 + ``step``, ... every ``pitch`` points down the left
    margin, beside five lines of text set 24 points apart."""
    canvas = Canvas(str(path), pagesize=(612, 792))
    canvas.setFont("Helvetica", 11)
    for k in range(28):
        canvas.drawRightString(60, 700 - k * pitch, str(1 + k * step))
    for k, line in enumerate(TEXT):
        canvas.drawString(90, 604 - k * 24, line)
    canvas.save()


def body(path: Path) -> list[str]:
    page = layoutkit.parse(path, typed=False)[0]
    return [line.text for line in page.lines if not line.furniture]


def test_pleading_papers_numbers_are_a_margin_not_text(tmp_path: Path) -> None:
    path = tmp_path / "pleading.pdf"
    ruled_page(path)
    assert body(path) == TEXT


def test_numbers_spaced_unevenly_are_text(tmp_path: Path) -> None:
    """A column of numbers whose steps take different heights is a table's or a list's,
    not a ruler: it stays in the text."""
    path = tmp_path / "uneven.pdf"
    canvas = Canvas(str(path), pagesize=(612, 792))
    canvas.setFont("Helvetica", 11)
    top = 640.0
    for k in range(12):
        canvas.drawRightString(60, top, str(k + 1))
        canvas.drawString(90, top, f"item {k + 1} of the list")
        top -= 20 + 9 * (k % 3)
    canvas.save()
    lines = body(path)
    assert lines[0] == "1 item 1 of the list" and len(lines) == 12


def word(text: str, x: float, top: float) -> Word:
    return Word(text, BBox(x, top, x + 12.0, top + 10.0), "F", 10.0)


def test_a_ruler_counts_evenly_in_a_strip_of_its_own() -> None:
    ruler = [word(f"{k:03d}", 20.0, 70.0 + 12.0 * k) for k in range(40)]
    text = [word("Abstract", 60.0, 70.0), word("the", 60.0, 82.0)]
    assert line_numbers(ruler + text) == set(range(40))
    skipping = [word(str(k * k), 20.0, 70.0 + 12.0 * k) for k in range(1, 40)]
    assert line_numbers(skipping + text) == set()
    crossed = [*ruler, Word("across", BBox(10.0, 200.0, 90.0, 210.0), "F", 10.0)]
    assert line_numbers(crossed) == set()


def test_a_review_copys_ruler_and_latex_logo_read_as_printed() -> None:
    """The review ruler's numbers (000-107) used to join the lines beside them
    ('012 Abstract such papers ... 066'), and the LaTeX logo's raised A came out after
    its word ('LTEX A')."""
    page = layoutkit.parse(CVPR, pages=[1], typed=False)[0]
    lines = [line.text for line in page.lines if not line.furniture]
    assert lines[:4] == ["LATEX Author Guidelines for CVPR Proceedings",
                         "Anonymous CVPR submission", "Paper ID *****", "Abstract"]
    assert "E = m · c 2 (1)" in lines
    assert not any(text[:3].isdigit() for text in lines)


def test_a_letter_raised_into_a_word_is_spelled_in_its_place(tmp_path: Path) -> None:
    """The LaTeX logo's A, kerned into the word over its neighbours, is spelled in
    place; an exponent set after its letter overlaps nothing and stays a word."""
    path = tmp_path / "logo.pdf"
    canvas = Canvas(str(path), pagesize=(300, 200))
    canvas.setFont("Times-Roman", 12)
    canvas.drawString(50, 100, "L")
    canvas.setFont("Times-Roman", 8.5)
    canvas.drawString(54.5, 102.5, "A")
    canvas.setFont("Times-Roman", 12)
    canvas.drawString(59.5, 100, "TEX users")
    canvas.drawString(50, 80, "x")
    canvas.setFont("Times-Roman", 8)
    canvas.drawString(56, 84.5, "2")
    canvas.setFont("Times-Roman", 12)
    canvas.drawString(64, 80, "+ y")
    canvas.save()
    assert body(path) == ["LATEX users", "x 2 + y"]


def test_a_ruler_counting_by_five_marks_every_fifth_line() -> None:
    """A patent numbers every fifth line of its columns: text stands between its marks."""
    ruler = [word(str(5 * k), 300.0, 70.0 + 60.0 * k) for k in range(1, 12)]
    text = [word("claim", 60.0, 70.0 + 12.0 * k) for k in range(5, 66)]
    assert line_numbers(ruler + text) == set(range(len(ruler)))


def test_a_pin_tables_numbers_counting_by_two_are_text(tmp_path: Path) -> None:
    """A connector's pinout numbers its pins 1, 3, 5 beside 2, 4, 6, each level with its
    row's signal names and none between: a table's cells, read in its rows."""
    path = tmp_path / "pinout.pdf"
    canvas = Canvas(str(path), pagesize=(612, 792))
    canvas.setFont("Helvetica", 10)
    for k in range(25):
        y = 700 - 16 * k
        canvas.drawString(72, y, "GND" if k % 2 else f"SPI_{k}")
        canvas.drawRightString(250, y, str(2 * k + 1))
        canvas.drawString(270, y, str(2 * k + 2))
        canvas.drawString(320, y, f"ETH_{k}")
    canvas.save()
    lines = body(path)
    assert lines[0] == "SPI_0 1 2 ETH_0" and lines[-1] == "SPI_24 49 50 ETH_24"


def test_a_contents_pages_numbers_are_its_entries(tmp_path: Path) -> None:
    """A contents page numbering its chapters 1 to 18, evenly set, counts as a ruler
    does; its heading, set in the same column, crosses the numbers' strip: they are
    the entries' numbers, kept on their lines."""
    path = tmp_path / "contents.pdf"
    canvas = Canvas(str(path), pagesize=(612, 792))
    canvas.setFont("Helvetica-Bold", 14)
    canvas.drawString(72, 720, "Contents")
    canvas.setFont("Helvetica", 11)
    for k in range(18):
        canvas.drawString(72, 690 - 18 * k, str(k + 1))
        canvas.drawString(100, 690 - 18 * k, f"Chapter {k + 1} ........ {3 * k + 3}")
    canvas.save()
    lines = body(path)
    assert lines[:3] == ["Contents", "1 Chapter 1 ........ 3", "2 Chapter 2 ........ 6"]


@pytest.mark.parametrize("engine", ["pdfium", "pdfminer"])
def test_a_patents_ruler_under_its_running_header(engine: str) -> None:
    """A patent's scan numbers every fifth line in the gutter (5, 10, ... 65); read by
    pdfminer.six its running header, the patent's number, stands across the ruler's
    strip far above it and is no word of the strip: the numbers stay out of the
    columns' lines (order 0.884 while the whole page's height was asked free)."""
    assert order_of("us-patent-6285999-pagerank-scan", engine) >= 0.98
