"""An ordinal's suffix raised against its number reads as one word with it ('16th',
'3rd', '1er'), as it is printed; a note's call or an exponent stays a word of its own."""

from __future__ import annotations

from pathlib import Path

import pytest
from reportlab.pdfgen.canvas import Canvas

import layoutkit
from layoutkit.model import BBox, Word
from layoutkit.reading.text import line_text


def _word(text: str, x0: float, *, size: float = 12.0, raised: float = 0.0) -> Word:
    """``text`` set from ``x0`` at ``size``, 0.5 em a letter, on the baseline at 100 pt
    raised by ``raised`` points (its box an em high, a quarter of it under the baseline)."""
    bottom = 100.0 + 0.25 * size - raised
    return Word(text, BBox(x0, bottom - size, x0 + 0.5 * size * len(text), bottom), "F", size)


@pytest.mark.parametrize(("words", "text"), [
    # the suffix raised against the number
    ([_word("Our", 0.0), _word("16", 24.0), _word("th", 36.0, size=7.0, raised=4.0),
      _word("Year!", 48.0)], "Our 16th Year!"),
    ([_word("le", 0.0), _word("1", 16.0), _word("er", 22.0, size=7.0, raised=4.0),
      _word("mai", 34.0)], "le 1er mai"),
    # set apart from the number by a word space
    ([_word("16", 0.0), _word("th", 15.0, size=7.0, raised=4.0)], "16 th"),
    # on the baseline: small type, not a suffix
    ([_word("16", 0.0), _word("th", 12.0, size=7.0)], "16 th"),
    # a call after a word, an exponent after a number, a table's note letter after a
    # figure, letters that end no ordinal
    ([_word("word", 0.0), _word("a", 24.0, size=7.0, raised=4.0)], "word a"),
    ([_word("10", 0.0), _word("13", 12.0, size=7.0, raised=4.0)], "10 13"),
    ([_word("0.05", 0.0), _word("a", 24.0, size=7.0, raised=4.0)], "0.05 a"),
    ([_word("23", 0.0), _word("b", 12.0, size=7.0, raised=4.0)], "23 b"),
    ([_word("23", 0.0), _word("km", 12.0, size=7.0, raised=4.0)], "23 km"),
])
def test_ordinal_suffix_joins_its_number(words: list[Word], text: str) -> None:
    """An ordinal's ending raised and set smaller against the end of a whole number joins
    it; set apart, on the baseline, after a word, after a decimal, in figures, or
    letters that end no ordinal (a note's call), they stay a word of their own."""
    assert line_text(words) == text


def test_ordinal_suffix_on_a_page(tmp_path: Path) -> None:
    """On a page set by reportlab, the suffixes set 7 pt and raised 4 pt right after
    their numbers read with them."""
    path = tmp_path / "ordinals.pdf"
    canvas = Canvas(str(path), pagesize=(612.0, 792.0))
    x = 72.0
    for text, suffix in (("Our 16", "th"), (" Year! Since May 2, 2007, lunch on the 3", "rd")):
        canvas.setFont("Helvetica", 12)
        canvas.drawString(x, 700.0, text)
        x += canvas.stringWidth(text, "Helvetica", 12)
        canvas.setFont("Helvetica", 7)
        canvas.drawString(x, 704.0, suffix)
        x += canvas.stringWidth(suffix, "Helvetica", 7)
    canvas.save()
    page = layoutkit.parse(path, typed=False)[0]
    assert [line.text for line in page.lines] == \
        ["Our 16th Year! Since May 2, 2007, lunch on the 3rd"]


def test_ordinal_suffix_in_a_right_to_left_line() -> None:
    """In a right-to-left line whose Latin words a comma is set against, the ordinal
    still reads as one word."""
    words = [_word("SCOOT", 0.0), _word("\u060cSCATS", 40.0), _word("16", 90.0),
             _word("th", 102.0, size=7.0, raised=4.0),
             _word("\u0627\u0644\u0645\u062f\u064a\u0646\u0629", 120.0),
             _word("\u0627\u0644\u0645\u0646\u0648\u0631\u0629", 170.0)]
    assert "16th" in line_text(words)
