"""Unit tests of page segmentation on hand-built word boxes: bands, columns and their words.

Pages are laid out by :class:`Layout` from lines of pseudo-text set in a fixed-width
face (4 pt a character, 8 pt high, lines every 10 pt); every line of a page is
different.  Results are described by the names of the groups of words the test
added, so ``[[["c0"], ["c1"]]]`` reads "one band of two columns, the first holding
exactly the words of group c0, the second those of group c1".
"""

from __future__ import annotations

import dataclasses
import pickle
import random
from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from layoutkit.config import GuttersConfig, LayoutConfig
from layoutkit.geometry import grid as canvas_grid
from layoutkit.geometry.gutters import PageCanvas, prepare, shared_gutters
from layoutkit.geometry.segment import Leaf, Node, Split, bands_of, segment
from layoutkit.model import NO_GLYPHS, BBox, PageGlyphs, Rule, Word

CONFIG = LayoutConfig().gutters
CHAR = 4.0  # advance of every character
SIZE = 8.0  # font size and word box height
PITCH = 10.0  # distance between the tops of two lines
SPACE = 2.0  # narrowest word space
PAGE_W, PAGE_H = 612.0, 792.0
LEFT = 36.0
# three columns 174 pt wide with 6 pt gutters: 36-210 | 216-390 | 396-570
COL3 = 174.0
X3 = (36.0, 216.0, 396.0)
# two columns 267 pt wide with a 6 pt gutter: 36-303 | 309-576
COL2 = 267.0
X2 = (36.0, 309.0)

_VOCAB_TEXT = """
the of and to in a is that for it as with be on by at this from or an which shall
city council mayor ordinance resolution section chapter public works water sewer
street avenue bridge park building property contract agreement notice hearing
emergency effective budget fund payment repair improvement construction permit
district program project community development employee salary office authority
"""
VOCAB = tuple(_VOCAB_TEXT.split())

Description = list[list[list[str]]]


def word(text: str, x0: float, top: float) -> Word:
    """A word of the fixed-width face with its box's top-left corner at (x0, top)."""
    return Word(text, BBox(x0, top, x0 + CHAR * len(text), top + SIZE), "F", SIZE)


def text_lines(x0: float, width: float, top: float, count: int, seed: int, *,
               justified: bool = True) -> list[Word]:
    """``count`` lines of pseudo-text filling ``width`` from ``x0``, the first at ``top``.

    Words of varied length are drawn from ``random.Random(seed)`` until the next one
    would overflow; justified lines then spread their spaces so the last word ends
    at ``x0 + width``, ragged ones keep 2 pt spaces.  Two consecutive lines never
    start with words of the same length, so no river of word spaces lines up at a
    fixed distance from the column's edge.
    """
    rng = random.Random(seed)
    words: list[Word] = []
    previous = 0
    for k in range(count):
        texts: list[str] = []
        used = 0.0
        while True:
            text = rng.choice(VOCAB)
            if not texts and len(text) == previous:
                continue
            need = CHAR * len(text) + (SPACE if texts else 0.0)
            if used + need > width:
                break
            texts.append(text)
            used += need
        previous = len(texts[0])
        extra = (width - used) / (len(texts) - 1) if justified and len(texts) > 1 else 0.0
        x = x0
        for text in texts:
            words.append(word(text, x, top + k * PITCH))
            x += CHAR * len(text) + SPACE + extra
    return words


def placed(texts: list[str], x0: float, x1: float, top: float) -> list[Word]:
    """One line of ``texts`` justified exactly between ``x0`` and ``x1``."""
    extra = (x1 - x0 - CHAR * sum(len(t) for t in texts)) / (len(texts) - 1)
    words, x = [], x0
    for text in texts:
        words.append(word(text, x, top))
        x += CHAR * len(text) + extra
    return words


def centred(text: str, centre: float, top: float) -> list[Word]:
    """One line of ``text`` with 2 pt spaces, centred on x = ``centre``."""
    parts = text.split()
    width = CHAR * sum(len(p) for p in parts) + SPACE * (len(parts) - 1)
    words, x = [], centre - width / 2
    for part in parts:
        words.append(word(part, x, top))
        x += CHAR * len(part) + SPACE
    return words


def bottom_of(words: list[Word]) -> float:
    return max(w.bbox.bottom for w in words)


class Layout:
    """A hand-built page: named groups of words, segmented and described by group names."""

    def __init__(self) -> None:
        self.words: list[Word] = []
        self.groups: dict[str, range] = {}

    def add(self, name: str, words: list[Word]) -> Layout:
        self.groups[name] = range(len(self.words), len(self.words) + len(words))
        self.words.extend(words)
        return self

    def lines(self) -> list[str]:
        """The page's text lines (words of one group sharing a top), to check they vary."""
        rows: dict[tuple[str, float], list[str]] = {}
        for name, members in self.groups.items():
            for i in members:
                rows.setdefault((name, self.words[i].bbox.top), []).append(self.words[i].text)
        return [" ".join(texts) for texts in rows.values()]

    def prepared(self, rules: tuple[Rule, ...] = (), images: tuple[BBox, ...] = (),
                 config: GuttersConfig = CONFIG) -> PageCanvas:
        return prepare(self.words, rules, images, PAGE_W, PAGE_H, config)

    def describe(self, tree: Node) -> Description:
        """Bands of columns, each column the names of the groups it holds, in leaf order.

        A group split between columns shows as ``name[k/n]``: k of its n words.
        """
        name_of = {i: name for name, members in self.groups.items() for i in members}
        result: Description = []
        for band in bands_of(tree):
            columns = []
            for leaves in band:
                order = [i for leaf in leaves for i in leaf.words]
                names = list(dict.fromkeys(name_of[i] for i in order))
                counts = {n: sum(1 for i in order if name_of[i] == n) for n in names}
                columns.append([n if counts[n] == len(self.groups[n])
                                else f"{n}[{counts[n]}/{len(self.groups[n])}]" for n in names])
            result.append(columns)
        return result

    def bands(self, rules: tuple[Rule, ...] = (), images: tuple[BBox, ...] = (),
              shared: tuple[tuple[float, float], ...] = (),
              config: GuttersConfig = CONFIG) -> Description:
        assert len(set(self.lines())) == len(self.lines()), "the test page repeats a line"
        return self.describe(segment(self.prepared(rules, images, config), shared))


def three_columns(top: float, count: int, seed: int, prefix: str = "c",
                  layout: Layout | None = None) -> Layout:
    """Three justified columns of ``count`` lines from ``top``, groups prefix0..prefix2."""
    layout = layout or Layout()
    for c, x in enumerate(X3):
        layout.add(f"{prefix}{c}", text_lines(x, COL3, top, count, seed + c))
    return layout


def tall_page_gutters(seed: int) -> tuple[tuple[float, float], ...]:
    """The gutters prepare finds on a page of three 30-line columns."""
    return three_columns(72.0, 30, seed).prepared().gutters


def test_segment_canvas_pickles_as_what_it_is_made_of() -> None:
    """A prepared page pickled and read back (as a long document's pages wait in a file
    between passes) has every array of its canvas as it was, and segments alike; the
    pickle holds the words and rules the canvas is made of, not its occupancy grids
    (some 1 MB a page), and can fail: a canvas read back from its grids alone would
    be eight times the size."""
    layout = three_columns(72.0, 30, 3)
    rules = (Rule(BBox(36.0, 60.0, 570.0, 60.5)),)
    prepared = layout.prepared(rules)
    data = pickle.dumps(prepared, pickle.HIGHEST_PROTOCOL)
    back = pickle.loads(data)
    canvas, again = vars(prepared.canvas), vars(back.canvas)
    assert canvas.keys() == again.keys()
    for key in canvas.keys() - {"_made_of"}:
        value = canvas[key]
        if isinstance(value, np.ndarray):
            assert value.dtype == again[key].dtype and np.array_equal(value, again[key]), key
        elif isinstance(value, tuple) and value and isinstance(value[0], np.ndarray):
            assert all(np.array_equal(a, b) for a, b in zip(value, again[key], strict=True)), key
        else:
            assert value == again[key], key
    assert back.gutters == prepared.gutters and back.gutters
    assert layout.describe(segment(back)) == layout.describe(segment(prepared)) == \
        [[["c0"], ["c1"], ["c2"]]]
    assert len(data) < prepared.canvas.grid.nbytes / 8


# --------------------------------------------------------------------------- columns and bands


def test_segment_three_columns_one_band() -> None:
    """Three justified columns with 6 pt gutters, 20 lines each, are one band of 3 columns."""
    layout = three_columns(72.0, 20, 1)
    assert layout.bands() == [[["c0"], ["c1"], ["c2"]]]


def test_segment_three_ragged_columns_one_band() -> None:
    """Three ragged-right columns (flush left only) are one band of 3 columns."""
    layout = Layout()
    for c, x in enumerate(X3):
        layout.add(f"c{c}", text_lines(x, COL3, 72.0, 20, 11 + c, justified=False))
    assert layout.bands() == [[["c0"], ["c1"], ["c2"]]]


def test_segment_single_column_one_leaf() -> None:
    """One justified full-width column of 30 lines is one band of one column."""
    layout = Layout().add("body", text_lines(LEFT, 540.0, 72.0, 30, 5))
    assert layout.bands() == [[["body"]]]


def test_segment_full_width_line_between_column_runs() -> None:
    """Two columns, one full-width line, two columns again: 3 bands (columns, single, columns)."""
    layout = Layout()
    layout.add("a0", text_lines(X2[0], COL2, 72.0, 10, 1))
    layout.add("a1", text_lines(X2[1], COL2, 72.0, 10, 2))
    line_top = 72.0 + 10 * PITCH + 4.0
    layout.add("full", text_lines(LEFT, 540.0, line_top, 1, 3))
    below = line_top + PITCH + 4.0
    layout.add("b0", text_lines(X2[0], COL2, below, 12, 4))
    layout.add("b1", text_lines(X2[1], COL2, below, 12, 5))
    assert layout.bands() == [[["a0"], ["a1"]], [["full"]], [["b0"], ["b1"]]]


def test_segment_rule_separates_bands_without_text_gap() -> None:
    """A long horizontal rule between two column runs set at the usual pitch separates bands."""
    layout = three_columns(72.0, 10, 10, "a")
    three_columns(72.0 + 10 * PITCH, 10, 20, "b", layout)  # no gap beyond the usual leading
    rule = Rule(BBox(LEFT, 171.0, 570.0, 171.0))  # in the 2 pt between two lines
    assert layout.bands(rules=(rule,)) == [[["a0"], ["a1"], ["a2"]], [["b0"], ["b1"], ["b2"]]]
    assert layout.bands() == [[["a0", "b0"], ["a1", "b1"], ["a2", "b2"]]]


def test_segment_short_rule_does_not_separate_bands() -> None:
    """A horizontal rule shorter than rule_min_length inside one column leaves the band whole."""
    layout = three_columns(72.0, 10, 10, "a")
    three_columns(72.0 + 10 * PITCH, 10, 20, "b", layout)
    rule = Rule(BBox(100.0, 171.0, 100.0 + CONFIG.rule_min_length - 5.0, 171.0))
    assert layout.bands(rules=(rule,)) == [[["a0", "b0"], ["a1", "b1"], ["a2", "b2"]]]


@pytest.mark.parametrize("lower", [0, 1, 2])
def test_segment_staggered_column_tops_one_band(lower: int) -> None:
    """One column starting 40 pt lower than the other two leaves one band of 3 columns."""
    layout = Layout()
    for c, x in enumerate(X3):
        top, count = (112.0, 26) if c == lower else (72.0, 30)
        layout.add(f"c{c}", text_lines(x, COL3, top, count, 30 + c))
    assert layout.bands() == [[["c0"], ["c1"], ["c2"]]]


def test_segment_index_title_belongs_to_section_below() -> None:
    """A single-column index under three columns is a band of its own, with its centred title."""
    layout = three_columns(72.0, 20, 40)
    columns_bottom = bottom_of(layout.words)
    title_top = columns_bottom + 18.0  # farther from the columns ...
    layout.add("title", centred("Index of ordinances", PAGE_W / 2, title_top))
    index_top = title_top + SIZE + 6.0  # ... than from the index below it
    layout.add("index", text_lines(LEFT, 540.0, index_top, 20, 50, justified=False))
    assert layout.bands() == [[["c0"], ["c1"], ["c2"]], [["title", "index"]]]


def test_segment_image_across_gutters_separates_bands() -> None:
    """A picture spanning the gutters between two column runs separates them into two bands."""
    layout = three_columns(72.0, 12, 60, "a")
    three_columns(300.0, 12, 70, "b", layout)
    picture = BBox(LEFT, 196.0, 570.0, 296.0)
    assert layout.bands(images=(picture,)) == [[["a0"], ["a1"], ["a2"]],
                                               [["b0"], ["b1"], ["b2"]]]
    assert layout.bands() == [[["a0", "b0"], ["a1", "b1"], ["a2", "b2"]]]


def test_segment_picture_a_column_off_makes_no_gutter_of_a_word_space() -> None:
    """A photograph in the right column covers that column's height, not that of a
    strip in the left column's text: the word space in the left column's last line,
    running down the white beside the left column's own figure, is no gutter, and
    the line is not torn in two."""
    layout = Layout()
    layout.add("c0a", text_lines(36.0, COL2, 72.0, 4, 18650))
    layout.add("cap00", centred("caption 0 here for 0", 169.5, 184.0))
    layout.add("c1a", text_lines(309.0, COL2, 72.0, 6, 18651))
    for k, top in enumerate((284.0, 294.0, 304.0)):
        layout.add(f"cap1{k}", centred(f"caption {k} here for 1", 442.5, top))
    layout.add("c1b", text_lines(309.0, COL2, 320.0, 3, 18654))
    images = (BBox(102.75, 118.0, 236.25, 178.0), BBox(335.7, 138.0, 549.3, 278.0))
    assert not any(name.startswith("c0a[") for band in layout.bands(images=images)
                   for column in band for name in column)


def test_segment_image_with_text_across_its_edge_is_background() -> None:
    """A picture that the last lines of a column run reach into (text printed across
    its edge) is a background: it parts nothing, where the same picture clear of the
    text parts the two runs (see above)."""
    layout = three_columns(72.0, 12, 60, "a")
    three_columns(300.0, 12, 70, "b", layout)
    across = BBox(LEFT + 20.0, 150.0, 570.0, 296.0)  # under the last lines of the first run
    assert layout.bands(images=(across,)) == [[["a0", "b0"], ["a1", "b1"], ["a2", "b2"]]]


def test_segment_page_sized_image_is_background() -> None:
    """A picture larger than image_max_area of the page (a scan behind the text) is not
    one of its figures, so it leaves the columns alone; a figure across them parts them."""
    layout = three_columns(72.0, 12, 60, "a")
    three_columns(300.0, 12, 70, "b", layout)
    scan, picture = BBox(0.0, 0.0, PAGE_W, PAGE_H), BBox(LEFT, 196.0, 570.0, 296.0)
    page = PageGlyphs(1, PAGE_W, PAGE_H, NO_GLYPHS, images=(scan, picture))
    largest = LayoutConfig().sources.image_max_area
    assert page.figures(largest) == (picture,)
    assert layout.bands(images=page.figures(largest)) == [[["a0"], ["a1"], ["a2"]],
                                                          [["b0"], ["b1"], ["b2"]]]
    scanned = dataclasses.replace(page, images=(scan,))
    assert layout.bands(images=scanned.figures(largest)) == [
        [["a0", "b0"], ["a1", "b1"], ["a2", "b2"]]]


# --------------------------------------------------------------------------- not columns


def leader_table(leaders: bool) -> Layout:
    """15 rows: a left cell of 2-4 words (with dot leaders to x = 296 if ``leaders``),
    10 pt of white, then a right cell 'Ord. No. NNN-04, passed Month D'."""
    rng = random.Random(5)
    left: list[Word] = []
    right: list[Word] = []
    for k in range(15):
        top = 72.0 + k * PITCH
        x = LEFT
        for _ in range(rng.randint(2, 4)):
            text = rng.choice(VOCAB).capitalize()
            left.append(word(text, x, top))
            x += CHAR * len(text) + SPACE
        if leaders:
            dots = int((296.0 - x) / CHAR)
            left.append(word("." * dots, 296.0 - CHAR * dots, top))
        x = 306.0
        cell = ["Ord.", "No.", f"{rng.randint(100, 1999)}-04,", "passed",
                rng.choice(("May", "June", "July")), str(rng.randint(1, 30))]
        for text in cell:
            right.append(word(text, x, top))
            x += CHAR * len(text) + SPACE
    return Layout().add("left", left).add("right", right)


def test_segment_dot_leader_table_not_split() -> None:
    """A table whose left cells end in dot leaders is read row by row, not as two columns."""
    assert leader_table(leaders=True).bands() == [[["left", "right"]]]


def test_segment_table_without_leaders_is_split() -> None:
    """The same table without its leaders has a plain gutter and is cut into two columns."""
    assert leader_table(leaders=False).bands() == [[["left"], ["right"]]]


def numbered_list() -> Layout:
    """Items "(1)" to "(12)" at the left margin, their text hanging from x = 60."""
    numbers: list[Word] = []
    items: list[Word] = []
    top = 72.0
    for k in range(12):
        numbers.append(word(f"({k + 1})", LEFT, top))
        count = 2 if k % 3 == 1 else 1
        items += text_lines(60.0, 240.0, top, count, 80 + k)
        top += count * PITCH
    return Layout().add("numbers", numbers).add("items", items)


def test_segment_list_numbers_not_a_column() -> None:
    """A narrow strip of list numbers beside hanging item text is not a column of its own."""
    assert numbered_list().bands() == [[["numbers", "items"]]]


def test_segment_list_numbers_split_with_small_column_min_width() -> None:
    """The list numbers are cut off only when column_min_width_em allows 1 em wide columns."""
    config = CONFIG.replace(column_min_width_em=1.0)
    assert numbered_list().bands(config=config) == [[["numbers"], ["items"]]]


# --------------------------------------------------------------------------- shared gutters


def test_segment_shared_gutters_of_two_pages() -> None:
    """Two pages of tall three-column text share exactly their two 6 pt gutters."""
    pages = [three_columns(72.0, 30, 100 + 10 * s).prepared().gutters for s in (0, 1)]
    assert shared_gutters(pages, CONFIG) == ((210.0, 216.0), (390.0, 396.0))


def test_segment_shared_gutters_need_two_pages() -> None:
    """A gutter seen on one page only is not shared, unless grid_min_pages is 1."""
    page = three_columns(72.0, 30, 100).prepared().gutters
    assert shared_gutters([page], CONFIG) == ()
    assert shared_gutters([page], CONFIG.replace(grid_min_pages=1)) == \
        ((210.0, 216.0), (390.0, 396.0))


def test_segment_shared_gutters_split_short_run() -> None:
    """A 3-line run of three columns is split with the document's gutters, not without them."""
    shared = shared_gutters([three_columns(72.0, 30, 100 + 10 * s).prepared().gutters
                             for s in (0, 1)], CONFIG)
    layout = three_columns(72.0, 3, 120)
    assert layout.bands() == [[["c0", "c1", "c2"]]]
    assert layout.bands(shared=shared) == [[["c0"], ["c1"], ["c2"]]]


def test_segment_shared_gutters_split_short_run_above_notice() -> None:
    """A 3-line run of three columns above a full-width notice is its own band, with shared."""
    shared = shared_gutters([three_columns(72.0, 30, 100 + 10 * s).prepared().gutters
                             for s in (0, 1)], CONFIG)
    layout = three_columns(72.0, 3, 120)
    layout.add("full", text_lines(LEFT, 534.0, bottom_of(layout.words) + 8.0, 8, 130))
    assert layout.bands(shared=shared) == [[["c0"], ["c1"], ["c2"]], [["full"]]]


# --------------------------------------------------------------------------- torn lines

# The last line of a full-width paragraph justified with ~3 pt spaces, one of them
# (4 pt, x 392-396) falling inside the 390-396 gutter of the columns below.
TORN_LEFT = ["development", "avenue", "this", "to", "district", "office", "park", "office",
             "the", "a", "payment", "project", "resolution", "fund"]
TORN_RIGHT = ["agreement", "emergency", "this", "water", "in", "a", "effective"]


def test_segment_full_width_line_not_torn_by_gutter_below() -> None:
    """A full-width line above columns stays whole even if a word space lines up with a gutter."""
    layout = Layout()
    layout.add("full", text_lines(LEFT, 534.0, 72.0, 3, 130)
               + placed(TORN_LEFT, LEFT, 392.0, 102.0) + placed(TORN_RIGHT, 396.0, 570.0, 102.0))
    three_columns(120.0, 20, 140, "b", layout)
    assert layout.bands() == [[["full"]], [["b0"], ["b1"], ["b2"]]]


def test_segment_full_width_line_whole_when_space_misses_gutter() -> None:
    """The same page with that word space at x 381-386, beside the gutter, is read correctly."""
    layout = Layout()
    layout.add("full", text_lines(LEFT, 534.0, 72.0, 3, 130)
               + placed(TORN_LEFT, LEFT, 381.0, 102.0)
               + placed([*TORN_RIGHT, "too"], 386.0, 570.0, 102.0))
    three_columns(120.0, 20, 140, "b", layout)
    assert layout.bands() == [[["full"]], [["b0"], ["b1"], ["b2"]]]


def centred_title(gap: float) -> list[Word]:
    """'DIRECTORY OF CITY OFFICIALS' with ``gap`` pt word spaces, 'OF' ending at x = 303
    (the left edge of the 303-309 gutter of two columns), as on City Record 2016 page 2."""
    words, x = [], 303.0 - CHAR * 2 - gap - CHAR * 9
    for text in ("DIRECTORY", "OF", "CITY", "OFFICIALS"):
        words.append(word(text, x, 40.0))
        x += CHAR * len(text) + gap
    return words


def titled_two_columns(gap: float) -> Layout:
    """The title above two 20-line columns starting 12 pt below its top."""
    layout = Layout().add("title", centred_title(gap))
    layout.add("c0", text_lines(X2[0], COL2, 60.0, 20, 3))
    return layout.add("c1", text_lines(X2[1], COL2, 60.0, 20, 4))


def test_segment_title_above_columns_is_own_band() -> None:
    """A centred title with 4 pt word spaces above two columns is a band of its own."""
    assert titled_two_columns(4.0).bands() == [[["title"]], [["c0"], ["c1"]]]


def test_segment_title_not_split_by_shared_gutter() -> None:
    """A one-line title is not cut into columns where its word space meets a shared gutter."""
    layout = titled_two_columns(4.0)
    assert layout.bands(shared=((303.0, 309.0),)) == [[["title"]], [["c0"], ["c1"]]]


@pytest.mark.parametrize("gap", [6.0, 9.0])
def test_segment_title_with_wide_spaces_not_torn(gap: float) -> None:
    """A title whose word spaces are as wide as the gutter below, or wider, still stays
    whole: its space there is one of its evenly spaced word spaces."""
    assert titled_two_columns(gap).bands() == [[["title"]], [["c0"], ["c1"]]]


def test_segment_row_spaced_unlike_its_gap_across_joins_the_columns() -> None:
    """A first row whose words are spaced 4 pt apart but for the 6 pt gutter below,
    where it leaves the whole gutter, is not spaced evenly: it reads as a row of the
    two columns, as their first lines would."""
    layout = Layout().add("row", [word("DIRECTORY", 255.0, 40.0), word("OF", 295.0, 40.0),
                                  word("CITY", 309.0, 40.0), word("OFFICIALS", 329.0, 40.0)])
    layout.add("c0", text_lines(X2[0], COL2, 60.0, 20, 3))
    layout.add("c1", text_lines(X2[1], COL2, 60.0, 20, 4))
    assert layout.bands() == [[["row[2/4]", "c0"], ["row[2/4]", "c1"]]]


# --------------------------------------------------------------------------- stacks side by side


def spaced(text: str, x0: float, top: float, space: float = SPACE) -> list[Word]:
    """One line of ``text`` from x = ``x0``, its words ``space`` pt apart."""
    words, x = [], x0
    for part in text.split():
        words.append(word(part, x, top))
        x += CHAR * len(part) + space
    return words


SIGNED = ["interior minister", "JOHN ALEXANDER SMITH"]
"""The left signature: a title over a name, the name ending at x = 112."""

COUNTERSIGNED = ["minister of shipping and", "island policy affairs", "MARIA HELENA DOUKA"]
"""The right signature, one line taller, set from x = 118: 6 pt right of the left name."""


def signatures(left_tops: tuple[float, ...], right_tops: tuple[float, ...]) -> Layout:
    """Eight lines of text (tops 72-142), a centred heading at 166, and two stacks of
    lines below: the left one (``SIGNED``'s last lines) flush at x = 36 with tops
    ``left_tops``, the right one (``COUNTERSIGNED``'s last lines) flush at x = 118."""
    layout = Layout().add("text", text_lines(LEFT, COL2, 72.0, 8, 160))
    layout.add("title", centred("the ministers", 170.0, 166.0))
    left = SIGNED[len(SIGNED) - len(left_tops):]
    right = COUNTERSIGNED[len(COUNTERSIGNED) - len(right_tops):]
    layout.add("left", [w for text, top in zip(left, left_tops, strict=True)
                        for w in spaced(text, LEFT, top)])
    return layout.add("right", [w for text, top in zip(right, right_tops, strict=True)
                                for w in spaced(text, 118.0, top)])


def test_segment_signatures_side_by_side_are_read_one_after_the_other() -> None:
    """Two signatures set side by side under a heading, apart from the text above, each
    a title over a name, the names on one row 6 pt apart (three word spaces) and the
    right title a line taller: the block is a band of two stacks, the left signature
    read whole before the right one, where it was read row by row across both."""
    layout = signatures((196.0, 206.0), (186.0, 196.0, 206.0))
    assert layout.bands() == [[["text", "title"]], [["left"], ["right"]]]


@pytest.mark.parametrize(("left_tops", "right_tops"), [
    ((196.0, 206.0), (196.0, 206.0)),
    ((186.0, 196.0), (186.0, 196.0, 206.0)),
], ids=["level rows", "tops level"])
def test_segment_stacks_starting_level_are_a_tables_rows(
        left_tops: tuple[float, ...], right_tops: tuple[float, ...]) -> None:
    """The same stacks starting on one row (a table's rows of two cells, or a label's
    cell beside a value wrapping over three lines) are read row by row, in one leaf."""
    assert signatures(left_tops, right_tops).bands() == [[["text", "title", "left", "right"]]]


def test_segment_table_under_a_bottom_aligned_header_reads_row_by_row() -> None:
    """A borderless table of three rows under a header whose left cell wraps over two
    lines, its right cell bottom-aligned, set apart with no rule under the header: its
    cell columns end level and start apart as signatures do, but stand level across
    four rows (``stack_max_level_rows``), a table's rows repeating: read row by row,
    in one leaf."""
    layout = Layout().add("text", text_lines(LEFT, COL2, 72.0, 8, 180))
    cells = spaced("number of", LEFT, 166.0) + spaced("members present", LEFT, 176.0)
    amounts = spaced("amount paid", 150.0, 176.0)
    for k, (name, amount) in enumerate([("north district", "seven hundred"),
                                        ("south district", "eight hundred"),
                                        ("east district", "nine hundred")]):
        cells += spaced(name, LEFT, 186.0 + k * PITCH)
        amounts += spaced(amount, 150.0, 186.0 + k * PITCH)
    layout.add("cells", cells).add("amounts", amounts)
    assert layout.bands() == [[["text", "cells", "amounts"]]]


def test_segment_sentence_space_parts_no_stacks() -> None:
    """An entry whose second line runs on after a sentence's double space (4 pt, as wide
    as the line's space after its first word) over the white left of the line above is
    one stack of lines, not two stacks side by side."""
    layout = Layout().add("text", text_lines(LEFT, COL2, 72.0, 8, 170))
    layout.add("entry", spaced("registry entry of the company", LEFT, 166.0)
               + spaced("appointments.", LEFT, 176.0)
               + spaced("auditor smith.", 92.0, 176.0))
    layout.add("details", spaced("registry details volume seven", 150.0, 176.0))
    assert layout.bands() == [[["text", "entry", "details"]]]


def text_above() -> Layout:
    """Eight lines of text (tops 72-142) over what a test sets under them."""
    return Layout().add("text", text_lines(LEFT, COL2, 72.0, 8, 210))


BULLETS = ["backs up the code in case", "of a computer crash", "makes the code public"]
"""A slide's bullets: three lines set from x = 36."""

LINKS = ["sign up for an account", "the address of the site", "use the college mail",
         "send the name to staff"]
"""A box of links beside them: four lines set from x = 200, in a leading of their own."""


def leadings(left_tops: tuple[float, ...], right_tops: tuple[float, ...],
             above: Layout | None = None) -> Layout:
    """Eight lines of text (tops 72-142; or the layout ``above``), then ``BULLETS`` with
    tops ``left_tops`` beside ``LINKS`` with tops ``right_tops``."""
    layout = above or text_above()
    layout.add("left", [w for text, top in zip(BULLETS, left_tops, strict=True)
                        for w in spaced(text, LEFT, top)])
    return layout.add("right", [w for text, top in zip(LINKS, right_tops, strict=True)
                                for w in spaced(text, 200.0, top)])


def test_segment_blocks_of_their_own_leading_are_read_one_after_the_other() -> None:
    """Three lines beside four, too few to stand as columns, set apart from the text
    above, the right ones 6 pt lower and in a tighter leading, so that the two blocks
    meet level on one row of three: each is read whole, left then right, where they were
    read row by row across both ('computer crash use the college mail')."""
    layout = leadings((170.0, 184.0, 198.0), (176.0, 187.0, 198.0, 209.0))
    assert layout.bands() == [[["text"]], [["left"], ["right"]]]


@pytest.mark.parametrize("rules", [(), (Rule(BBox(180.0, 168.0, 180.0, 220.0)),)],
                         ids=["level rows", "rule down the strip"])
def test_segment_level_or_ruled_blocks_read_row_by_row(rules: tuple[Rule, ...]) -> None:
    """The same blocks standing level on every row of the left one (a table's rows), or
    parted by a rule down the white between them (a table's cells), are read as before:
    row by row, in one leaf."""
    right_tops = (170.0, 184.0, 198.0, 212.0) if not rules else (176.0, 187.0, 198.0, 209.0)
    assert leadings((170.0, 184.0, 198.0), right_tops).bands(rules) == \
        [[["text", "left", "right"]]]


def test_segment_blocks_under_two_columns_lines_are_no_stacks() -> None:
    """Under two columns' lines standing level, two lines each (too few for a gutter),
    the same blocks set apart by white across the page are the columns' next lines, not
    a block of their own: read as before, in one leaf."""
    above = text_above()
    above.add("l", text_lines(LEFT, 130.0, 166.0, 2, 213))
    above.add("r", text_lines(200.0, 130.0, 166.0, 2, 214))
    layout = leadings((196.0, 210.0, 224.0), (202.0, 213.0, 224.0, 235.0), above)
    assert layout.bands() == [[["text", "l", "r", "left", "right"]]]


def centred_table() -> Layout:
    """A borderless table under the text, each one-line label centred in its row beside
    a value wrapped over two lines (a web page's form, printed)."""
    layout = text_above()
    for k, (label, value) in enumerate([("applicant name", ("maria helena douka", "policy office")),
                                        ("postal address", ("twelve harbour street",
                                                            "north quarter")),
                                        ("phone number", ("office line by day",
                                                          "mobile phone at night"))]):
        top = 170.0 + 24.0 * k
        layout.add(f"label{k}", spaced(label, LEFT, top + 5.0))
        layout.add(f"value{k}", spaced(value[0], 200.0, top) + spaced(value[1], 200.0, top + 10.0))
    return layout


def three_cells() -> Layout:
    """A table of three cells a row: a label and a count level with each other, each
    two close lines, and between them a description of three, half a line lower."""
    layout = text_above()
    layout.add("label", spaced("issued date", LEFT, 170.0) + spaced("of the record", LEFT, 180.0))
    layout.add("about", spaced("the date of formal", 150.0, 175.0)
               + spaced("issue of the record", 150.0, 185.0)
               + spaced("in the catalogue", 150.0, 195.0))
    return layout.add("count", spaced("zero or one", 300.0, 170.0)
                      + spaced("at the most", 300.0, 180.0))


def staggered() -> Layout:
    """Two signatures, the right one wholly above the left one, and a line under both."""
    layout = text_above()
    layout.add("first", spaced("the minister of economy", 200.0, 166.0)
               + spaced("and finance", 220.0, 176.0) + spaced("GIORGETTI", 228.0, 186.0))
    layout.add("second", spaced("the minister of interior", LEFT, 200.0)
               + spaced("PIANTEDOSI", 60.0, 210.0))
    return layout.add("seen", spaced("seen the keeper of seals NORDIO", LEFT, 224.0))


def bulleted_row() -> Layout:
    """A table row of a label and a bulleted item, centred, under a row of the same
    table (a bullet between its two cells)."""
    layout = text_above()
    layout.add("row", spaced("service canada", LEFT, 166.0) + spaced("*", 200.0, 166.0)
               + spaced("offender management system", 212.0, 166.0))
    layout.add("label", spaced("department of", LEFT, 198.0)
               + spaced("national defence", LEFT, 208.0))
    return layout.add("item", spaced("*", 200.0, 193.0)
                      + spaced("sexual misconduct support", 212.0, 193.0)
                      + spaced("and resource centre peer", 212.0, 203.0)
                      + spaced("support mobile app", 212.0, 213.0))


@pytest.mark.parametrize(("layout", "expected"), [
    (centred_table, [[["text", "label0", "value0", "label1", "value1", "label2", "value2"]]]),
    (three_cells, [[["text", "label", "about", "count"]]]),
    (staggered, [[["text", "first", "second", "seen"]]]),
    (bulleted_row, [[["text", "row", "label", "item"]]]),
], ids=["centred cells", "outer cells level", "one above the other", "under a table's row"])
def test_segment_tables_and_staggered_blocks_keep_their_reading(
        layout: Callable[[], Layout], expected: Description) -> None:
    """Stacks side by side that are no blocks of their own leading read as before: a
    table's labels centred beside two-line values (no stack of close lines), a row of
    three cells whose outer cells stand level (a table, though each meets its
    neighbour only between rows), a signature wholly above another, a table's row
    under a row of the same table (its gap across the bullet's strip no word space)."""
    assert layout().bands() == expected


def test_segment_markers_on_the_right_stay_with_their_items() -> None:
    """Two numbered lists side by side, their numbers right of their items (as on a
    page set right to left), in leadings of their own: each list is read whole with
    its numbers; the widest strip parts them, not the one left of the first numbers."""
    layout = text_above()
    layout.add("first", [w for k, text in enumerate(["the council shall meet", "every second week",
                                                     "of the month in public"])
                         for w in spaced(text, LEFT, 170.0 + 10.0 * k)]
               + spaced("1.", 150.0, 170.0) + spaced("2.", 150.0, 190.0))
    layout.add("second", [w for k, text in enumerate(["budgets are approved", "by a majority",
                                                      "of the members"])
                          for w in spaced(text, 200.0, 174.0 + 11.0 * k)]
               + spaced("3.", 290.0, 174.0) + spaced("4.", 290.0, 196.0))
    assert layout.bands() == [[["text"]], [["first"], ["second"]]]


CARDS = [["delivered", "four thousand", "workshops"], ["trained", "five thousand", "instructors"],
         ["and one hundred", "instructor", "trainers"], ["in seventy one", "countries"]]
"""Four key figures, three of three lines and the last of two."""


def cards(last_tops: tuple[float, ...], *, tops: tuple[float, ...] = (166.0, 176.0, 186.0),
          flush: bool = False, layout: Layout | None = None) -> Layout:
    """Eight lines of text (tops 72-142), then ``CARDS`` side by side 130 pt apart (gutters
    of 50 pt and more), centred on their axes (or flush left, ``flush``): the first three
    with tops ``tops``, the last with ``last_tops``."""
    layout = layout or Layout().add("text", text_lines(LEFT, COL2, 72.0, 8, 190))
    for k, texts in enumerate(CARDS):
        centre, words = 90.0 + 130.0 * k, []
        for text, top in zip(texts, last_tops if k == len(CARDS) - 1 else tops, strict=True):
            words += spaced(text, centre - 40.0, top) if flush else centred(text, centre, top)
        layout.add(f"card{k}", words)
    return layout


def test_segment_cards_are_read_card_by_card() -> None:
    """Key figures centred in circles side by side, the last of two lines centred
    between the others' rows: no row repeats across them as a table's would, so each
    card is read whole, left to right, where they were read row by row across all."""
    assert cards((171.0, 181.0)).bands() == [[["text"]],
                                             [["card0"], ["card1"], ["card2"], ["card3"]]]


@pytest.mark.parametrize(("last_tops", "flush"), [
    ((166.0, 176.0), False),
    ((171.0, 181.0), True),
], ids=["level rows", "flush left"])
def test_segment_level_or_flush_stacks_are_no_cards(last_tops: tuple[float, ...],
                                                    flush: bool) -> None:
    """The same stacks standing level (a table's rows) or set flush left (the tops of
    columns of different leading) are no cards: read as before, row by row."""
    assert cards(last_tops, flush=flush).bands() == [[["text", "card0", "card1", "card2",
                                                       "card3"]]]


def big(text: str, x0: float, top: float, scale: float) -> list[Word]:
    """One line of ``text`` in a face ``scale`` times the fixed one's size, from ``x0``."""
    words, x = [], x0
    for part in text.split():
        words.append(Word(part, BBox(x, top, x + scale * CHAR * len(part), top + scale * SIZE),
                          "F", scale * SIZE))
        x += scale * (CHAR * len(part) + SPACE)
    return words


@pytest.mark.parametrize(("scale", "cards_read"), [(3.0, True), (1.5, False)],
                         ids=["display", "table head"])
def test_segment_key_figures_level_are_read_figure_by_figure(scale: float,
                                                             cards_read: bool) -> None:
    """Two key figures side by side, each a number in display type (three times the
    caption's size) over a caption of three lines flush left, the numbers level and the
    captions' rows level: each figure is read whole, left then right.  Under a head set
    only half as large again as its cells, the same rows are a table's, read across."""
    layout = Layout().add("text", text_lines(LEFT, COL2, 72.0, 8, 195))
    for k, (number, caption) in enumerate([("5844", ["times people took part", "in activities of",
                                                      "the projects"]),
                                            ("39345", ["times the tool was", "used before the",
                                                       "federal elections"])]):
        x0 = LEFT + 250.0 * k
        words = big(number, x0, 166.0, scale)
        words += [w for row, text in enumerate(caption)
                  for w in spaced(text, x0, 166.0 + scale * SIZE + 4.0 + PITCH * row)]
        layout.add(f"figure{k}", words)
    expected = ([[["text"]], [["figure0"], ["figure1"]]] if cards_read
                else [[["text", "figure0", "figure1"]]])
    assert layout.bands() == expected


def test_segment_ruled_table_cells_are_no_cards() -> None:
    """The same stacks as the last row of a ruled table (rules above, between and below
    three rows, cell walls down the gutters): cells centred in their row, read row by
    row with the table."""
    layout = Layout().add("text", text_lines(LEFT, COL2, 72.0, 8, 190))
    layout.add("head", spaced("first row of the table", 60.0, 190.0))
    layout = cards((231.0, 241.0), tops=(226.0, 236.0, 246.0), layout=layout)
    rules = tuple([Rule(BBox(36.0, y, 560.0, y)) for y in (160.0, 220.0, 260.0, 290.0)]
                  + [Rule(BBox(x, 160.0, x, 260.0)) for x in (155.0, 285.0, 415.0)])
    assert layout.bands(rules=rules) == [[["text", "head", "card0", "card1", "card2",
                                           "card3"]]]
    assert layout.bands(rules=rules[:4]) == [[["text", "head"]],
                                             [["card0"], ["card1"], ["card2"], ["card3"]]]


# --------------------------------------------------------------------------- trees and grids


def test_segment_empty_page_has_no_bands() -> None:
    """A page without words segments to an empty leaf and has no bands."""
    prepared = prepare([], [], [], PAGE_W, PAGE_H, CONFIG)
    assert prepared.gutters == ()
    assert segment(prepared) == Leaf(())
    assert bands_of(segment(prepared)) == []


def test_segment_bands_of_flattens_tree() -> None:
    """bands_of reads stacked parts as bands and side-by-side parts as columns of leaves."""
    tree = Split(False, (
        Leaf((0, 1)),
        Split(True, (Leaf((2,)), Split(False, (Leaf((3,)), Leaf(()), Leaf((4,)))))),
        Leaf(()),
    ))
    assert bands_of(tree) == [[[Leaf((0, 1))]], [[Leaf((2,))], [Leaf((3,)), Leaf((4,))]]]


def test_segment_runs_exact() -> None:
    """true_runs gives the (start, end) pairs, end exclusive, of the runs of True."""
    flags = np.array([False, True, True, False, True], dtype=bool)
    assert canvas_grid.true_runs(flags) == [(1, 3), (4, 5)]
    assert canvas_grid.true_runs(np.array([True, True, True])) == [(0, 3)]
    assert canvas_grid.true_runs(np.array([False, False])) == []
    assert canvas_grid.true_runs(np.array([], dtype=bool)) == []


def test_segment_column_runs_exact() -> None:
    """_column_runs lists the runs of True down each column at least min_length long, by
    column then row, ends exclusive; a fractional min_length rounds up."""
    flags = grid("""
        #.#
        #.#
        ##.
        .##
        ###
    """)
    def runs(min_length: float) -> list[tuple[int, ...]]:
        found = canvas_grid._column_runs(flags, min_length)
        return list(zip(*(a.tolist() for a in found), strict=True))

    assert runs(2) == [(0, 0, 3), (1, 2, 5), (2, 0, 2), (2, 3, 5)]
    assert runs(2.5) == [(0, 0, 3), (1, 2, 5)]
    assert runs(6) == []


@given(st.integers(1, 40), st.integers(1, 12), st.floats(0, 12), st.integers(0, 2**32 - 1))
@settings(max_examples=200, deadline=None)
def test_segment_column_runs_are_the_long_runs_of_each_column(
        rows: int, cols: int, min_length: float, seed: int) -> None:
    """On any grid, _column_runs gives what a scan of each column's runs keeps."""
    flags = np.random.default_rng(seed).random((rows, cols)) < 0.7
    expected = [(c, a, b) for c in range(cols) for a, b in canvas_grid.true_runs(flags[:, c])
                if b - a >= min_length]
    found = canvas_grid._column_runs(flags, min_length)
    assert list(zip(*(a.tolist() for a in found), strict=True)) == expected


def grid(picture: str) -> np.ndarray:
    """A boolean grid drawn with '#' (occupied) and '.' (empty), one row a line."""
    return np.array([[ch == "#" for ch in row] for row in picture.split()], dtype=bool)


def test_segment_occupancy_exact() -> None:
    """_occupancy marks the cells of each box (inset by a quarter cell), one cell of margin."""
    boxes = np.array([
        [1.0, 1.0, 3.0, 2.0],  # rows 2, cols 2-3
        [0.0, 0.0, 0.2, 0.1],  # a speck: still one cell, row 1 col 1
        [4.0, 3.0, 10.0, 10.0],  # runs off the grid: clipped to row 4, col 5
    ])
    assert canvas_grid._occupancy(boxes, 5, 6, 1.0).tolist() == grid("""
        ......
        .#....
        ..##..
        ......
        .....#
    """).tolist()


def test_segment_occupancy_keeps_3pt_gap_empty() -> None:
    """Two boxes 3 pt apart leave exactly 3 empty cells between them on a 1 pt grid."""
    boxes = np.array([[0.0, 0.0, 10.0, 1.0], [13.0, 0.0, 20.0, 1.0]])
    row = canvas_grid._occupancy(boxes, 3, 23, 1.0)[1]
    assert canvas_grid.true_runs(~row) == [(0, 1), (11, 14), (21, 23)]


def test_segment_occupancy_coarse_grid_and_no_boxes() -> None:
    """On a 2 pt grid a 4 x 4 pt box covers 2 x 2 cells; no boxes leave the grid empty."""
    boxes = np.array([[2.0, 2.0, 6.0, 6.0]])
    assert canvas_grid._occupancy(boxes, 5, 5, 2.0).tolist() == grid("""
        .....
        .....
        ..##.
        ..##.
        .....
    """).tolist()
    assert not canvas_grid._occupancy(np.zeros((0, 4)), 4, 4, 1.0).any()
