"""Lines parted where the content stream draws them as two
(`layoutkit.geometry.parting`), and the documents whose columns it parts: rows of
words built by hand, their truth exact, then the pages that showed the cause."""

from __future__ import annotations

from pathlib import Path

import pytest

import layoutkit
from layoutkit.config import WordsConfig
from layoutkit.geometry.parting import parted_lines
from layoutkit.model import BBox, Word
from layoutkit.tools.evaluate import combine, score_truth
from layoutkit.tools.truth import load_truth

ROOT = Path(__file__).resolve().parent.parent
CONFIG = WordsConfig()


def row(texts: list[str], x: float, bottom: float, streams: list[int], *,
        space: float = 3.0, size: float = 10.0) -> list[Word]:
    """Words of ``texts`` set rightwards from ``x`` on a baseline at ``bottom``, each
    drawn at its place in ``streams``, 6 pt a letter and ``space`` apart."""
    words = []
    for text, stream in zip(texts, streams, strict=True):
        width = 6.0 * len(text)
        words.append(Word(text, BBox(x, bottom - size, x + width, bottom), "F", size,
                          stream=stream))
        x += width + space
    return words


def texts(lines: list[list[Word]]) -> list[str]:
    return [" ".join(w.text for w in line) for line in lines]


LEFT = ["the", "council", "met", "on"]
RIGHT = ["budget", "for", "the", "year"]


def glued(gap: float, right: list[str] = RIGHT) -> list[list[Word]]:
    """Two columns' first lines level with each other, ``gap`` apart, taken as one row,
    and the left column's second line: the stream draws the left column (words 0-7),
    then the right (words 40-43)."""
    left = row(LEFT, 72.0, 100.0, [0, 1, 2, 3])
    below = row(["to", "consider", "the"], 72.0, 112.0, [4, 5, 6])
    return [left + row(right, left[-1].bbox.x1 + gap, 100.0, [40, 41, 42, 43]), below]


def test_columns_level_with_each_other_are_parted_at_their_gap() -> None:
    assert texts(parted_lines(glued(8.0), [], CONFIG)) == [
        "the council met on", "budget for the year", "to consider the"]


def test_a_word_space_parts_nothing() -> None:
    """Two runs a word space apart are one line drawn in two runs (a link's text drawn
    apart)."""
    assert texts(parted_lines(glued(3.0), [], CONFIG))[0] == \
        "the council met on budget for the year"


def test_a_word_drawn_elsewhere_in_the_stream_stays_in_its_line() -> None:
    """An OCR layer writes a word it read again at its column's end (word 90): the run
    that goes on past it is one line with it, not two columns; a run that ends before
    the gap is a column's."""
    words = ["the", "council", "met", "on", "budget"]
    below = row(["to", "consider", "the"], 72.0, 112.0, [4, 5, 6])
    inside = row(words, 72.0, 100.0, [0, 1, 90, 2, 3], space=8.0)
    assert texts(parted_lines([inside, below], [], CONFIG))[0] == "the council met on budget"
    beside = row(words, 72.0, 100.0, [0, 1, 2, 90, 91], space=8.0)
    assert texts(parted_lines([beside, below], [], CONFIG))[:2] == [
        "the council met", "on budget"]
    # the word drawn elsewhere ends its column, right before the next column's run, and
    # that column's justified line has one wide space: the 8 pt gutter still parts them
    left = row(["the", "council", "Tho", "met", "on"], 72.0, 100.0, [0, 1, 39, 2, 3])
    right = row(["budget", "for"], left[-1].bbox.x1 + 8.0, 100.0, [40, 41])
    right += row(["the", "year"], right[-1].bbox.x1 + 9.0, 100.0, [42, 43])
    assert texts(parted_lines([left + right, below], [], CONFIG))[:2] == [
        "the council Tho met on", "budget for the year"]


def test_a_forms_fields_drawn_labels_first_are_parted_at_their_gap() -> None:
    """A form draws its labels, then their values: the runs of labels and of values each
    go on past every field's gap, and the fields are parted where the gap is wider than
    any word space of the line."""
    labels = row(["Base", "Mayoría:"], 72.0, 100.0, [0, 1])
    values = row(["Votos", "Emitidos"], labels[-1].bbox.x1 + 3.0, 100.0, [40, 41])
    more = row(["Tipo", "de", "Mayoría:"], values[-1].bbox.x1 + 40.0, 100.0, [2, 3, 4])
    rest = row(["Más", "de", "la", "mitad"], more[-1].bbox.x1 + 3.0, 100.0, [42, 43, 44, 45])
    below = row(["to", "consider", "the"], 72.0, 112.0, [5, 6, 7])
    assert texts(parted_lines([labels + values + more + rest, below], [], CONFIG))[:2] == [
        "Base Mayoría: Votos Emitidos", "Tipo de Mayoría: Más de la mitad"]
    # a field left blank is no word space of the line
    blank = row(["Fecha", "de", "alta:"], rest[-1].bbox.x1 + 40.0, 100.0, [5, 6, 7])
    after = row(["Tipo", "de", "cuenta:"], blank[-1].bbox.x1 + 80.0, 100.0, [8, 9, 10])
    value = row(["Cuenta", "de", "ahorro"], after[-1].bbox.x1 + 3.0, 100.0, [46, 47, 48])
    lines = parted_lines([labels + values + more + rest + blank + after + value, below], [],
                         CONFIG)
    assert texts(lines)[2:4] == ["Fecha de alta:", "Tipo de cuenta: Cuenta de ahorro"]


def test_a_tables_figures_and_ruled_cells_are_not_parted() -> None:
    figures = glued(20.0, ["27", "18", "28", "20"])
    assert len(parted_lines(figures, [], CONFIG)) == 2
    lines = glued(20.0)
    wall = (lines[0][3].bbox.x1 + 10.0, 80.0, 120.0)
    assert len(parted_lines(lines, [wall], CONFIG)) == 2
    assert len(parted_lines(lines, [], CONFIG)) == 3


def test_a_stream_that_tells_nothing_parts_nothing() -> None:
    shuffled = row(LEFT + RIGHT, 72.0, 100.0, [5, 0, 7, 2, 6, 1, 4, 3], space=8.0)
    assert len(parted_lines([shuffled], [], CONFIG)) == 1
    by_hand = row(LEFT + RIGHT, 72.0, 100.0, [0] * 8, space=8.0)
    assert len(parted_lines([by_hand], [], CONFIG)) == 1


def test_interleaved_lines_of_a_skewed_scan_are_taken_apart() -> None:
    """Two lines 4 pt apart, taken in as one row, their words interleaved by x: each
    run the stream draws is a line, the higher first."""
    upper = row(["noon", "of", "the", "12th"], 72.0, 100.0, [0, 1, 2, 3], space=14.0)
    lower = row(["rations", "were", "issued", "till"], 80.0, 104.0, [4, 5, 6, 7], space=14.0)
    line = sorted(upper + lower, key=lambda w: w.bbox.x0)
    assert texts(parted_lines([line], [], CONFIG)) == [
        "noon of the 12th", "rations were issued till"]


def order_of(stem: str, engine: str = "pdfium") -> float:
    """The order read on a development corpus document's labelled pages."""
    truth = load_truth(ROOT / "regions" / "corpus" / f"{stem}.truth.json")
    pages = [p for p in truth.pages if p.ordered]
    doc = layoutkit.parse(truth.source, pages=[p.page for p in pages], typed=False,
                          engine=engine)
    return combine(score_truth(page.text(), p) for page, p in zip(doc, pages, strict=True)).order


@pytest.mark.parametrize("engine", ["pdfium", "pdfminer"])
def test_a_warped_newspaper_scan_reads_column_by_column(engine: str) -> None:
    """A microfilm scan's OCR layer, seven columns whose 6-8 pt gutters lean and narrow:
    no straight strip parts them, and each row took in a line of every column (order
    0.153); the layer draws each column's lines in turn, and its runs part them
    (the stream-order peers read 0.943), but a word it wrote again elsewhere in its
    stream ('crosses the Notaway River. Tho work of') stays in its line (0.933
    before).  Read by pdfminer.six, a strip's two sides stepped across in rows level by
    their heights but in no one baseline bin once made the gutter test fail on an empty
    slice."""
    assert order_of("national-tribune-1898-11-10-front-page", engine) >= 0.94


def test_a_letter_beside_a_photo_reads_column_by_column() -> None:
    """Two justified columns whose gutter a photo and its caption close (order 0.220;
    the stream-order peers read 0.940)."""
    assert order_of("mercedes-benz-group-2023-geschaeftsbericht-contents-letter") >= 0.93
