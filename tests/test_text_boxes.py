"""Text boxes read whole: boxes of prose side by side whose rows stand level, with a
picture or a box's edge closing off the strip between them, and boxes drawn round text
in a pinwheel (no straight cut parts them), as a PowerPoint newsletter sets them.

Pages are hand-built as in :mod:`tests.test_segment` (words added in the order the
stream draws them unless the test says otherwise), plus the newsletter page itself.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import layoutkit
from layoutkit.config import GuttersConfig
from layoutkit.geometry.segment import bands_of, segment
from layoutkit.model import BBox, Rule, Word
from layoutkit.tools.evaluate import score_truth
from layoutkit.tools.truth import load_truth
from tests.test_segment import CHAR, CONFIG, PITCH, SPACE, VOCAB, Layout, text_lines, word
from tests.test_stream_evidence import rows_of, with_stream

REPO = Path(__file__).resolve().parent.parent
NEWSLETTER = "mount-calvary-preschool-news-september.truth.json"

# a picture over the left box and the strip beside it, whose foot stands level with the
# right box's heading: the strip between the boxes is open everywhere but there
PICTURE = BBox(12.0, 12.0, 462.0, 68.0)


def frame(x0: float, top: float, x1: float, bottom: float) -> tuple[Rule, ...]:
    """The four edges of a rectangle stroked round a text box."""
    return (Rule(BBox(x0, top, x1, top)), Rule(BBox(x0, bottom, x1, bottom)),
            Rule(BBox(x0, top, x0, bottom)), Rule(BBox(x1, top, x1, bottom)))


def heading(text: str, x0: float, top: float, height: float) -> list[Word]:
    """A heading line of the fixed-width face set ``height`` points high from ``top``."""
    words, x = [], x0
    for part in text.split():
        small = word(part, x, top)
        words.append(Word(part, BBox(x, top, small.bbox.x1, top + height), "F-Bold", height))
        x = small.bbox.x1 + SPACE
    return words


def boxes_side_by_side() -> Layout:
    """Two boxes of ragged prose 294 pt apart, their rows level, 10 pt apart: the left
    box (x 20-170) of 30 lines, the right box (x 464-600) of a 14 pt heading beside the
    picture's foot, then 30 lines from the left box's first row on."""
    layout = Layout().add("left", text_lines(20.0, 150.0, 78.0, 30, 21, justified=False))
    layout.add("events", heading("UP COMING EVENTS", 464.0, 64.0, 14.0))
    return layout.add("right", text_lines(464.0, 136.0, 78.0, 30, 22, justified=False))


BOX_FRAMES = (*frame(14.0, 60.0, 174.0, 390.0), *frame(458.0, 60.0, 604.0, 390.0))


@pytest.mark.parametrize("rules", [(), BOX_FRAMES], ids=["bare", "framed"])
def test_boxes_level_rows_read_box_by_box(rules: tuple[Rule, ...]) -> None:
    """The picture over the left box reaches down beside the right box's heading, so the
    strip between the boxes is empty over their height but the picture's last 4 points,
    and no band can end there: no word stands across the strip, so the boxes are two
    columns, each read whole, where each pair of level rows used to be read as one line
    ('We go outside and Greet 9am-11:30')."""
    layout = boxes_side_by_side()
    assert layout.bands(rules, (PICTURE,)) == [[["left"], ["events", "right"]]]


def test_boxes_level_rows_drawn_row_by_row_are_a_table() -> None:
    """The same boxes drawn row after row, the stream stepping across the strip from
    each left row to the right row level with it, are a table's cells: read row by row."""
    layout = boxes_side_by_side()
    by_rows = with_stream(layout, [i for row in rows_of(layout) for i in row])
    assert by_rows.bands((), (PICTURE,)) == [[["left", "events", "right"]]]


def two_column_table() -> Layout:
    """A borderless table of 20 rows: a label of one to three words at x 20, a cell of
    two words at x 464, drawn row by row (label, then cell), with the picture's foot
    level with a heading over the cells."""
    labels: list[Word] = []
    cells: list[Word] = []
    order: list[int] = []
    for k in range(20):
        top = 78.0 + k * PITCH
        row = []
        x = 20.0
        for text in VOCAB[k % 7: k % 7 + 1 + k % 3]:
            row.append(word(text, x, top))
            x += CHAR * len(text) + SPACE
        labels.extend(row)
        cell = [word(VOCAB[40 + k], 464.0, top)]
        cell.append(word(f"{1000 + 37 * k}", cell[0].bbox.x1 + SPACE, top))
        cells.extend(cell)
    layout = Layout().add("labels", labels).add("events", heading("AMOUNT", 464.0, 64.0, 14.0))
    layout.add("cells", cells)
    for row in rows_of(layout):
        order.extend(row)
    return with_stream(layout, order)


def test_boxes_two_column_table_reads_row_by_row() -> None:
    """A real two-column table whose cells stand level across a wide strip, drawn cell
    after cell, stays one column read row by row beside the same picture."""
    assert two_column_table().bands((), (PICTURE,)) == [[["labels", "events", "cells"]]]


def pinwheel() -> tuple[Layout, tuple[Rule, ...]]:
    """Five boxes as the newsletter sets them: a left column box (x 14-174); a framed
    picture (x 178-452, top 58-302) over a note box (x 180-380, 310-560); a tall right
    box (x 458-604, 50-358) whose last lines stand level with the note's first; a wide
    box (x 388-604, 366-560) under the right box, reaching left beside the note.  No
    straight cut parts the note, the right box and the wide box (a pinwheel)."""
    layout = Layout().add("left", text_lines(20.0, 150.0, 66.0, 40, 31, justified=False))
    layout.add("note", text_lines(186.0, 190.0, 316.0, 20, 32, justified=False))
    layout.add("right", text_lines(464.0, 136.0, 56.0, 30, 33, justified=False))
    layout.add("wide", text_lines(394.0, 206.0, 372.0, 15, 34, justified=False))
    rules = (*frame(14.0, 60.0, 174.0, 560.0), *frame(178.0, 58.0, 452.0, 302.0),
             *frame(180.0, 310.0, 380.0, 560.0), *frame(458.0, 50.0, 604.0, 358.0),
             *frame(388.0, 366.0, 604.0, 560.0))
    return layout, rules


def read(layout: Layout, rules: tuple[Rule, ...], images: tuple[BBox, ...],
         config: GuttersConfig = CONFIG) -> list[str]:
    """The groups of the layout in the order its segmentation reads them: leaf by leaf,
    each leaf's groups top to bottom, a group named again where it resumes after
    another (a box read in two parts shows twice)."""
    name_of = {i: name for name, members in layout.groups.items() for i in members}
    order: list[str] = []
    tree = segment(layout.prepared(rules, images, config))
    for band in bands_of(tree):
        for leaves in band:
            for leaf in leaves:
                tops: dict[str, float] = {}
                for i in leaf.words:
                    top = layout.words[i].bbox.top
                    tops[name_of[i]] = min(tops.get(name_of[i], top), top)
                for name in sorted(tops, key=tops.__getitem__):
                    if not order or order[-1] != name:
                        order.append(name)
    return order


PINWHEEL_PICTURE = BBox(180.0, 60.0, 450.0, 300.0)


def test_boxes_pinwheel_reads_each_box_whole() -> None:
    """The band under the strip beside the right box would end below its last line,
    cutting the note box in two; a box drawn round text on one side of a strip is read
    whole, so no band ends inside it: left box, note, right box, wide box."""
    layout, rules = pinwheel()
    assert read(layout, rules, (PINWHEEL_PICTURE,)) == ["left", "note", "right", "wide"]


def test_boxes_pinwheel_needs_the_frames() -> None:
    """Without the note's frame nothing tells its first lines from the rows of the band
    beside the right box: the note is read in two parts, the right box between them."""
    layout, rules = pinwheel()
    unframed = tuple(rule for rule in rules if rule not in frame(180.0, 310.0, 380.0, 560.0))
    assert read(layout, unframed, (PINWHEEL_PICTURE,)) == \
        ["left", "note", "right", "note", "wide"]


def test_boxes_frame_corners_meet_within_two_points() -> None:
    """A frame's edges meet where their ends lie within 2 points: with the note's sides
    drawn 1.5 pt short of its top and bottom edges the note is still a box, read whole;
    drawn 3 pt short, it is no box."""
    layout, rules = pinwheel()

    def gapped(short: float) -> tuple[Rule, ...]:
        return tuple(Rule(BBox(r.bbox.x0, 310.0 + short, r.bbox.x1, 560.0 - short))
                     if r.bbox.x0 in (180.0, 380.0) and not r.horizontal else r
                     for r in rules)

    assert read(layout, gapped(1.5), (PINWHEEL_PICTURE,)) == ["left", "note", "right", "wide"]
    assert read(layout, gapped(3.0), (PINWHEEL_PICTURE,)) == \
        ["left", "note", "right", "note", "wide"]


def test_boxes_newsletter_reads_box_by_box() -> None:
    """The PowerPoint newsletter's page: a left box, a prayer box under the middle
    column's picture, the events box and the tooth-brushing box under it.  The clip art
    over the left box reaches 2 pt below the top of the events heading, closing the
    strip between the left box and the rest; the prayer box's first lines stand level
    with the events box's last.  Successor order was 0.231."""
    truth = load_truth(REPO / "regions" / "corpus" / NEWSLETTER)
    page = layoutkit.parse(truth.source, pages=[1], typed=False)[0]
    score = score_truth(page.text(), truth.pages[0])
    assert score.found == 1.0
    assert score.order >= 0.98
