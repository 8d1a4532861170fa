"""The content stream's order as a reading of its own (:mod:`layoutkit.reading.stream`):
taken where it reads down and runs on better than the page's geometry, never where the
stream is drawn out of order.  Pages are drawn with reportlab, their truth exact."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

import layoutkit
from layoutkit.config import LayoutConfig
from layoutkit.model import BBox, Line, Word
from layoutkit.reading.page import _rebuilt
from layoutkit.reading.stream import drawn_down, kept_below, runs_into, runs_on, stream_reading

STORY = (
    "The council met on Tuesday evening to consider the budget for the coming year. After "
    "a long debate about roads, schools, parks and the library, it agreed to raise the levy "
    "by two percent. Several members said that the town should look for savings before "
    "asking residents to pay more, and the mayor promised a review of every department by "
    "the end of the summer. The review will be led by the finance committee, which meets "
    "again in March. Residents who wish to speak may write to the clerk before the meeting, "
    "or ask for a place on the agenda. The library will keep its evening hours through the "
    "winter, and the pool will open in May as usual. "
)


def shuffled_page(path: Path) -> list[str]:
    """Draw two columns of a story, its lines in random order, and return the truth:
    the left column, then the right."""
    words = (STORY * 8).split()
    lines: list[tuple[float, float, str]] = []
    for x in (72.0, 318.0):
        for row in range(50):
            text: list[str] = []
            while words and stringWidth(" ".join([*text, words[0]]), "Helvetica", 10) <= 222:
                text.append(words.pop(0))
            lines.append((x, 72.0 + 12.0 * row, " ".join(text)))
    truth = [text for _, _, text in lines]
    random.Random(4).shuffle(lines)
    canvas = Canvas(str(path), pagesize=(612, 792))
    canvas.setFont("Helvetica", 10)
    for x, top, text in lines:
        canvas.drawString(x, 792 - top - 10, text)
    canvas.save()
    return truth


def test_stream_drawn_shuffled_leaves_the_geometry(tmp_path: Path) -> None:
    """Two columns whose lines are drawn in random order: the stream does not read
    down, so the geometry's reading stands, column by column."""
    path = tmp_path / "shuffled.pdf"
    truth = shuffled_page(path)
    page = layoutkit.parse(path, typed=False)[0]
    assert [line.text for line in page.body_lines] == truth
    assert stream_reading(page.body_lines, 6) is None


def line(text: str, x0: float, top: float, x1: float, stream: int) -> Line:
    """A line of one word whose box is (x0, top, x1, top + 10) drawn ``stream``-th."""
    box = BBox(x0, top, x1, top + 10.0)
    return Line(text, box, (Word(text, box, "F", 10.0, stream=stream),), 1, 0, 0, 0)


def test_runs_on_counts_joins_and_breaks() -> None:
    """A hyphenated word completed into a word of the page counts two, a sentence
    running on one; a part before a capital or a full stop before lower case minus one."""
    vocabulary = {"information", "the"}
    joined = [line("the infor-", 0, 0, 50, 0), line("mation is", 0, 12, 50, 1)]
    assert runs_on(joined, vocabulary) == 2
    assert runs_on([line("and the", 0, 0, 50, 0), line("town said", 0, 12, 50, 1)],
                   vocabulary) == 1
    assert runs_on([line("the infor-", 0, 0, 50, 0), line("Town", 0, 12, 50, 1)],
                   vocabulary) == -1
    assert runs_on([line("it ended.", 0, 0, 50, 0), line("then", 0, 12, 50, 1)],
                   vocabulary) == -1


def test_drawn_down_and_kept_below() -> None:
    """The stream's order with each line after the lines it stands under in the same
    column: a line drawn before the one above it waits for it; lines beside one another
    keep the stream's order."""
    top, under, beside = (line("a", 0, 0, 100, 2), line("b", 10, 12, 100, 0),
                          line("c", 120, 0, 220, 1))
    assert [ln.text for ln in drawn_down([top, under, beside])] == ["c", "a", "b"]
    assert kept_below([top, under, beside]) == 1
    assert kept_below([top, beside, under]) == 0


BANDED = [("The council met on", 0, 0), ("Tuesday to hear the infor-", 0, 12),
          ("Several members said", 120, 0), ("that the town should", 120, 12),
          ("mation the clerk had", 0, 40), ("gathered on the levy, and", 0, 52),
          ("look for savings before", 120, 40), ("asking for information.", 120, 52)]
"""Two columns of two lines over two more, read as two bands by a geometry that took
the gap for a band's end (each band's left column, then its right); the story runs
down the left column, then the right, as the stream draws it."""


def banded(stream: list[int]) -> list[Line]:
    """The lines of :data:`BANDED` in the geometry's order, the k-th drawn ``stream[k]``-th."""
    return [line(text, x, top, x + 100, stream[k])
            for k, (text, x, top) in enumerate(BANDED)]


def test_stream_reading_follows_a_stream_that_reads_down_and_runs_on() -> None:
    """The stream reads each column whole: it reads down, keeps two more lines right
    under the line above them, and completes a hyphenated word: it is taken."""
    lines = banded([0, 1, 4, 5, 2, 3, 6, 7])
    drawn = stream_reading(lines, 4)
    assert drawn is not None
    assert [ln.text for ln in drawn] == [BANDED[k][0] for k in (0, 1, 4, 5, 2, 3, 6, 7)]


def test_stream_reading_reads_each_column_down() -> None:
    """The same lines with the right column's two parts drawn bottom first: each
    line still comes after the line it stands under, the stream breaking the ties."""
    drawn = stream_reading(banded([0, 1, 6, 7, 2, 3, 4, 5]), 4)
    assert drawn is not None
    assert [ln.text for ln in drawn] == [BANDED[k][0] for k in (0, 1, 4, 5, 2, 3, 6, 7)]


def test_stream_reading_needs_evidence() -> None:
    """The stream drawing the geometry's own order, or each band's columns right to
    left, gains nothing: the geometry stands."""
    assert stream_reading(banded(list(range(8))), 4) is None
    assert stream_reading(banded([2, 3, 0, 1, 6, 7, 4, 5]), 4) is None


def test_stream_reading_rebuilds_bands_and_columns() -> None:
    """The lines the stream reads column by column become one band of two columns,
    each line numbered into its band, column and block."""
    drawn = stream_reading(banded([0, 1, 4, 5, 2, 3, 6, 7]), 4)
    assert drawn is not None
    bands = _rebuilt(drawn, LayoutConfig())
    assert [[[ln.text for ln in column.lines] for column in band.columns] for band in bands] \
        == [[[BANDED[k][0] for k in (0, 1, 4, 5)], [BANDED[k][0] for k in (2, 3, 6, 7)]]]
    assert [(ln.band, ln.column) for ln in bands[0].lines] == [(0, 0)] * 4 + [(0, 1)] * 4


def test_stream_reading_reads_a_table_drawn_cell_by_cell_by_rows() -> None:
    """Two rows of a table whose cells run over two lines, drawn cell by cell: the
    stream's reading completes each cell's words, but goes back up the page at every
    cell, not once a column: the geometry's reading, row by row, stands."""
    cells = [("Procure-", 0, 0), ("ment of trucks", 0, 12), ("Procurement by", 120, 0),
             ("trading company", 120, 12), ("Supply of furni-", 0, 30), ("ture and desks", 0, 42),
             ("Accra Office", 120, 30), ("furniture limited", 120, 42)]
    lines = [line(text, x, top, x + 100, k) for k, (text, x, top) in enumerate(cells)]
    by_rows = sorted(lines, key=lambda ln: (ln.bbox.top, ln.bbox.x0))
    assert stream_reading(by_rows, 2) is not None  # columns of two lines would be read
    assert stream_reading(by_rows, 4) is None


@pytest.mark.parametrize(("end", "start", "expected"), [
    ("an unfortunate", "abundance of subsidies", True), ("trans-", "port", True),
    ("closed.", "and then", False), ("Anglo-", "Figure 3", False), ("a list:", "Next", False),
])
def test_text_runs_into_the_next_line_as_runs_on_counts(end: str, start: str,
                                                       expected: bool) -> None:
    """Text runs on from one line into another as the stream's run-on count has it: a
    sentence open before lower case, a hyphenated word completed in lower case; not a
    full stop before lower case, nor a hyphen before a capital (a caption after a
    note)."""
    assert runs_into(end, start) is expected
