"""Reading order from evidence other than whitespace: the content stream's order, dot
leaders, diagonal text.  Pages are hand-built (see :mod:`tests.test_segment`) with
each word's place in the stream set as the test says, or drawn with reportlab."""

from __future__ import annotations

import dataclasses
import math
import random
from pathlib import Path

import pytest
from reportlab.pdfgen.canvas import Canvas

import layoutkit
from layoutkit.geometry.words import words_from_glyphs
from layoutkit.model import Word
from layoutkit.sources import open_source
from layoutkit.sources.base import direction_of
from tests.test_segment import CHAR, LEFT, PITCH, SPACE, VOCAB, Layout, text_lines, word


def drawn(words: list[Word], order: list[int]) -> list[Word]:
    """``words`` with their places in the stream: word ``order[k]`` drawn k-th."""
    place = {index: k for k, index in enumerate(order)}
    return [dataclasses.replace(w, stream=place[i]) for i, w in enumerate(words)]


def rows_of(layout: Layout) -> list[list[int]]:
    """The indexes of the layout's words by row (top), each row left to right."""
    rows: dict[float, list[int]] = {}
    for i, w in enumerate(layout.words):
        rows.setdefault(w.bbox.top, []).append(i)
    return [sorted(r, key=lambda i: layout.words[i].bbox.x0) for _, r in sorted(rows.items())]


def results_table(rows: int = 12, seed: int = 3) -> Layout:
    """A borderless results table: ragged labels of 2-4 words at the left margin, three
    number cells from x = 306 (the first flush there), one row every line."""
    rng = random.Random(seed)
    labels: list[Word] = []
    numbers: list[Word] = []
    for k in range(rows):
        top = 72.0 + k * PITCH
        x = LEFT
        for _ in range(rng.randint(2, 4)):
            text = rng.choice(VOCAB).capitalize()
            labels.append(word(text, x, top))
            x += CHAR * len(text) + SPACE
        for column, cell in enumerate(rng.sample(range(100, 9999), 3)):
            numbers.append(word(str(cell), 306.0 + 60.0 * column, top))
    return Layout().add("labels", labels).add("numbers", numbers)


def with_stream(layout: Layout, order: list[int]) -> Layout:
    """The layout with its words drawn in ``order``."""
    out = Layout()
    out.words = drawn(layout.words, order)
    out.groups = dict(layout.groups)
    return out


def test_stream_table_drawn_by_rows_reads_by_rows() -> None:
    """A borderless table whose stream draws each row's cells one after another is one
    column read row by row; the same boxes drawn column by column are two columns."""
    table = results_table()
    by_rows = [i for row in rows_of(table) for i in row]
    by_columns = list(range(len(table.words)))
    assert with_stream(table, by_rows).bands() == [[["labels", "numbers"]]]
    assert with_stream(table, by_columns).bands() == [[["labels"], ["numbers"]]]


def test_stream_definitions_drawn_by_rows_read_by_rows(tmp_path: Path) -> None:
    """A list of definitions, each term (set in another font, sitting 2 pt higher) level
    with the first line of its definition and drawn just before it: the stream reads
    across the strip between them in every row, so the terms are no column of their
    own, however the fonts' heights differ."""
    path = tmp_path / "definitions.pdf"
    canvas = Canvas(str(path), pagesize=(612, 792))
    items = [("marker", ["A marker is an empty element. It is used to denote a location",
                         "within a document."]),
             ("inline", ["An inline is an element that can be placed within text content,",
                         "similar to a span element, holding other inlines or text."]),
             ("block", ["A block is an element presented as a block-like structure, and",
                        "holds no direct child text content."]),
             ("content", ["A content is an element presented as a block-like structure,",
                          "and holds a mixture of text and elements."])]
    y = 690.0
    for k, (term, text) in enumerate(items):
        canvas.setFont("Helvetica", 11)
        canvas.drawString(77, y, str(k + 1))
        canvas.setFont("Courier", 11)
        canvas.drawString(100, y + 2, f"<{term}>")
        canvas.setFont("Helvetica", 11)
        for j, line in enumerate(text):
            canvas.drawString(200, y - 14 * j, line)
        y -= 14 * len(text) + 10
    canvas.save()
    lines = [line.text for line in layoutkit.parse(path, typed=False)[0].lines]
    assert lines[:3] == [f"1 <marker> {items[0][1][0]}", items[0][1][1],
                         f"2 <inline> {items[1][1][0]}"]


def test_stream_columns_split_whatever_order_their_lines_are_drawn_in() -> None:
    """Two justified columns are two columns whether the stream draws them in reading
    order or their lines in random order (no evidence either way)."""
    layout = Layout()
    layout.add("left", text_lines(LEFT, 267.0, 72.0, 20, 4))
    layout.add("right", text_lines(309.0, 267.0, 72.0, 20, 5))
    lines = [[i for i in row if i in layout.groups[name]]
             for row in rows_of(layout) for name in ("left", "right")]
    assert with_stream(layout, [i for line in lines for i in line]).bands() == \
        [[["left", "right"]]]
    for seed in range(5):
        random.Random(seed).shuffle(lines)
        shuffled = with_stream(layout, [i for line in lines for i in line])
        assert shuffled.bands() == [[["left"], ["right"]]], seed


def side_list() -> Layout:
    """Ragged text at the left margin and, 40 pt to its right, a list whose entries
    alternate between two indents: neither side is flush against the strip between."""
    layout = Layout().add("text", text_lines(LEFT, 300.0, 72.0, 24, 9, justified=False))
    rng = random.Random(2)
    entries = []
    for k in range(24):
        x = 376.0 + (10.0 if k % 2 else 0.0)
        texts = [rng.choice(VOCAB) for _ in range(2)] + [f"n{k}"]
        for text in texts:
            entries.append(word(text, x, 72.0 + k * PITCH))
            x += CHAR * len(text) + SPACE
    return layout.add("list", entries)


def test_stream_side_list_split_where_the_stream_reads_each_side_whole() -> None:
    """The strip beside an indented side list is a gutter when the stream draws the text,
    then the list; with the lines drawn in random order it is no evidence, and the
    strip, flush on neither side, is not taken for a gutter."""
    layout = side_list()
    assert with_stream(layout, list(range(len(layout.words)))).bands() == \
        [[["text"], ["list"]]]
    rows = [row for row in rows_of(layout)]
    lines = [[i for i in row if i in layout.groups[name]]
             for row in rows for name in ("text", "list")]
    random.Random(7).shuffle(lines)
    shuffled = with_stream(layout, [i for line in lines for i in line])
    assert shuffled.bands() == [[["text", "list"]]]


def test_stream_contents_page_numbers_end_their_column() -> None:
    """Contents entries with dot leaders and their page numbers form a column: the strip
    after the page numbers is a gutter, as the leaders are not the rows' last words."""
    layout = Layout()
    entries: list[Word] = []
    rng = random.Random(5)
    for k in range(20):
        top = 72.0 + k * PITCH
        x = LEFT
        for _ in range(rng.randint(2, 3)):
            text = rng.choice(VOCAB).capitalize()
            entries.append(word(text, x, top))
            x += CHAR * len(text) + SPACE
        dots = int((230.0 - x) / CHAR)
        entries.append(word("." * dots, 230.0 - CHAR * dots, top))
        entries.append(word(str(k * 7 + 1).rjust(3), 234.0, top))
    layout.add("contents", entries)
    layout.add("text", text_lines(270.0, 300.0, 72.0, 20, 8))
    assert layout.bands() == [[["contents"], ["text"]]]


@pytest.mark.parametrize(("degrees", "direction"), [
    (0.0, 0), (3.0, 0), (-3.0, 0), (30.0, 30), (45.0, 45), (90.0, 90), (93.0, 90),
    (180.0, 180), (-90.0, 270), (-45.0, 315)])
def test_stream_direction_by_angle(degrees: float, direction: int) -> None:
    """A glyph's baseline within about 6 degrees of an axis runs along it (0, 90, 180
    or 270); one turned further keeps its angle, so that a diagonal watermark is not
    upright and is read apart from the lines it crosses."""
    a, b = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    assert direction_of(a, b, -b, a) == direction


def watermarked(path: Path) -> tuple[list[str], list[str]]:
    """A letter page of two ragged columns of 30 lines, drawn in reading order, with a
    watermark of 30 pt letters at 45 degrees across both; returns the columns' lines."""
    canvas = Canvas(str(path), pagesize=(612.0, 792.0))
    rng = random.Random(11)
    columns: list[list[str]] = []
    for x in (54.0, 324.0):
        lines = []
        for k in range(30):
            text = " ".join(rng.choice(VOCAB) for _ in range(5)) + f" {x:.0f}x{k}"
            canvas.setFont("Helvetica", 10)
            canvas.drawString(x, 720.0 - 14.0 * k, text)
            lines.append(text)
        columns.append(lines)
    canvas.saveState()
    canvas.translate(120.0, 200.0)
    canvas.rotate(45.0)
    canvas.setFont("Helvetica-Bold", 30)
    canvas.drawString(0.0, 0.0, "COPY FOR SUBSCRIBERS ONLY")
    canvas.restoreState()
    canvas.save()
    return columns[0], columns[1]


@pytest.mark.parametrize("engine", ["pdfium", "pdfminer"])
def test_stream_diagonal_watermark_keeps_columns_apart(tmp_path: Path, engine: str) -> None:
    """A diagonal watermark across the gutter does not glue the columns: both engines
    mark its letters not upright, and the page reads column 1, then column 2."""
    path = tmp_path / "watermarked.pdf"
    left, right = watermarked(path)
    with open_source(path, engine) as source:
        glyphs = next(iter(source.pages([1]))).glyphs
    words = words_from_glyphs(glyphs, layoutkit.LayoutConfig().words)
    # the letters of the watermark's words, alone or in runs of one word
    assert all(w.text in "COPY FOR SUBSCRIBERS ONLY" for w in words if not w.upright)
    assert sum(len(w.text) for w in words if not w.upright) == len("COPYFORSUBSCRIBERSONLY")
    page = layoutkit.parse(path, engine=engine)[0]
    body = [line.text for line in page.body_lines if line.words[0].upright]
    assert body == left + right


def test_stream_narrow_gutter_between_justified_columns() -> None:
    """Three justified columns 4 pt apart, their word spaces mostly wider than that, are
    three columns: both sides of each gutter are flush against it, which a river of
    word spaces never is."""
    layout = Layout()
    width = (540.0 - 2 * 4.0) / 3
    for c in range(3):
        layout.add(f"c{c}", text_lines(LEFT + c * (width + 4.0), width, 72.0, 30, 20 + c))
    assert layout.prepared().canvas.space > 4.0  # the page's median word space
    assert layout.bands() == [[["c0"], ["c1"], ["c2"]]]
