"""A page whose text runs turned: read in the frame where it reads upright.

A page set sideways or upside down (a landscape table drawn turned on a portrait page,
a page whose ``/Rotate`` turns text drawn upright, a page scanned the wrong way up with
its OCR layer) is read as an upright page is, turned upright first:

1. `page_turn`: the page is turned when more than half of its letters run in one
   quarter or half turn (90, 180 or 270 degrees), as their words' directions say,
   and every other word stands where running headers and footers stand (within
   `furniture_top` of the page's top or `furniture_bottom` of its bottom: an upright
   page number under a turned table).  Vertical writing (CJK columns running down the
   page) is left as it stands: its columns are read by rules of their own.
2. `upturned` turns the page: its size (a quarter turn swaps width and height), every
   word (its box by [`turned_boxes`][layoutkit.model.turned_boxes], its direction
   less the turn), rule and picture.  Its running headers and footers, gutters
   shared with the other pages, rules and pictures are then found and used as on any
   upright page.
3. `turned_back` turns the laid-out page back: every word where it stands, with its
   own direction, each line, block, column and band the box of its words.

A page with a turned block among upright text (a title above it, a paragraph below) is
not turned: the block is read in its own frame where it stands (`layoutkit.reading.page`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from ..config import FurnitureConfig
from ..model import BBox, Line, Page, PageGlyphs, Rule, Word, from_columns, turned_boxes
from ..model.glyphs import NO_GLYPHS, is_cjk
from ..model.layout import rebuilt_bands
from .words import VERTICAL

__all__ = ["page_turn", "turned_back", "upturned"]

_TURNS = (90, 180, 270)


def page_turn(words: Sequence[Word], height: float, config: FurnitureConfig) -> int:
    """The turn (90, 180 or 270 degrees) in which more than half of the letters of
    ``words`` (on a page ``height`` high) run, when every other word stands within
    ``furniture_top`` or ``furniture_bottom`` of the page's edges; 0 when no turn has
    most letters, when another word stands between those margins, or when the turned
    words run down the page in vertical writing (a CJK letter among them)."""
    if not any(w.direction for w in words):
        return 0
    letters = Counter[int]()
    for w in words:
        letters[w.direction] += len(w.text)
    turn, most = max(((d, letters[d]) for d in _TURNS), key=lambda pair: pair[1])
    if 2 * most <= sum(letters.values()):
        return 0
    top, bottom = config.furniture_top * height, (1 - config.furniture_bottom) * height
    if any(w.direction != turn and w.bbox.bottom > top and w.bbox.top < bottom
           for w in words):
        return 0
    if turn == VERTICAL and any(is_cjk(ch) for w in words if w.direction == turn
                                for ch in w.text):
        return 0
    return turn


def _boxes(boxes: Sequence[BBox], turn: int, width: float, height: float) -> list[BBox]:
    """``boxes`` of a ``width`` by ``height`` page on the page turned by ``turn``."""
    if not boxes:
        return []
    rows = np.array([(b.x0, b.top, b.x1, b.bottom) for b in boxes], dtype=np.float64)
    return [BBox(*row) for row in turned_boxes(rows, turn, width, height).tolist()]


def _words(words: Sequence[Word], turn: int, width: float, height: float) -> list[Word]:
    """``words`` of a ``width`` by ``height`` page on the page turned by ``turn``, their
    directions less the turn."""
    count = len(words)
    boxes = _boxes([w.bbox for w in words], turn, width, height)
    return from_columns(Word, count, [w.text for w in words], boxes, [w.font for w in words],
                        [w.size for w in words], [(w.direction - turn) % 360 for w in words],
                        [w.stream for w in words], [w.weight for w in words],
                        [w.link for w in words])


def upturned(page: PageGlyphs, words: Sequence[Word], config: FurnitureConfig
             ) -> tuple[PageGlyphs, tuple[Word, ...], int]:
    """``page`` (its glyphs dropped) and its ``words`` turned upright by the turn of
    `page_turn`, and that turn; ``page`` and ``words`` as they are, and 0, for a page
    that is not turned."""
    turn = page_turn(words, page.height, config)
    if not turn:
        return page, tuple(words), 0
    w, h = page.width, page.height
    size = (h, w) if turn != 180 else (w, h)
    rules = tuple(Rule(box) for box in _boxes([r.bbox for r in page.rules], turn, w, h))
    turned = replace(page, width=size[0], height=size[1], glyphs=NO_GLYPHS,
                     rules=rules, images=tuple(_boxes(page.images, turn, w, h)))
    return turned, tuple(_words(words, turn, w, h)), turn


def turned_back(page: Page, turn: int) -> Page:
    """``page``, laid out turned upright by ``turn`` (`upturned`), turned back onto the
    page as it stands; ``page`` itself when ``turn`` is 0."""
    if not turn:
        return page
    back = (360 - turn) % 360
    width, height = (page.height, page.width) if turn != 180 else (page.width, page.height)

    def line_back(line: Line) -> Line:
        words = _words(line.words, back, page.width, page.height)
        bbox = BBox.union(w.bbox for w in words) if words else \
            _boxes([line.bbox], back, page.width, page.height)[0]
        return replace(line, words=tuple(words), bbox=bbox)

    bands = rebuilt_bands(page, line_back,
                          lambda box: _boxes([box], back, page.width, page.height)[0])
    return replace(page, width=width, height=height, bands=bands)
