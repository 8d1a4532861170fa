"""A page scanned askew: its skew told from its words, and its words set level.

A page fed askew into a scanner carries its text at a small angle, and so does an OCR
text layer on it: lines of neighbouring columns run into each other and no straight
strip of white parts the columns.  Words are grouped and gutters found along the
page's axes, so a leaning page is read in the frame where it stands level:

1. `skew_of`: the skew is the slope of the page's lines.  Runs of words that follow
   one another in the content stream (or OCR's order) along a line are fitted, and
   the page's slope is the median of the runs' slopes, each counted by its length.
2. The skew is corrected only when it is clear (more runs lean its way than the
   other by three times the spread chance gives) and when it matters: across the
   text's width it drifts further than words of one baseline may stand apart
   (`baseline_tolerance` of a line's height), which splits or merges lines.
3. `level_boxes` turns the page about its centre: each box's centre turned, its size
   kept.  A word's letters move with the word's centre, so a word an OCR layer set
   level stays whole.
4. `levelled` makes the glyphs into words again, so a word whose letters climbed
   across a row of glyphs (drawn turned, as other OCR layers set them) is one word.
5. `restored` turns the laid-out page back: every word where it stands on the page,
   each line, block, column and band the box of its words.

Text set in another direction (turned a quarter, diagonal) is turned with the rest and
gives no evidence.  A born-digital page's runs have slope 0 and nothing is turned.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

import numpy as np
import numpy.typing as npt

from ..config import WordsConfig
from ..model import BBox, Line, Page, PageGlyphs, Word, from_columns
from ..model.layout import rebuilt_bands
from ..sources.base import UPRIGHT_MAX_SLOPE
from .links import linked
from .words import words_and_members, words_from_glyphs

__all__ = ["level_boxes", "levelled", "restored", "skew_of"]

_CLEAR_SIGMAS = 3.0
"""How many times the spread of a fair count (the square root of the runs counted) the
runs leaning the skew's way must outnumber those leaning the other: a sign test at three
standard deviations, which chance passes about once in a thousand pages."""


def skew_of(words: Sequence[Word], config: WordsConfig) -> float:
    """The slope (points down per point rightwards, top-left origin) by which the page's
    lines of upright ``words`` lean, where it is clear and matters (see the module's
    docstring); 0.0 where it is not, or where the words tell nothing of it."""
    runs = _runs(words)
    if runs is None:
        return 0.0
    slopes, lengths = runs
    slope = _weighted_median(slopes, lengths)
    leaning = int(np.count_nonzero(np.sign(slopes) == np.sign(slope)))
    against = int(np.count_nonzero(np.sign(slopes) == -np.sign(slope)))
    if not slope or leaning - against <= _CLEAR_SIGMAS * math.sqrt(leaning + against):
        return 0.0
    upright = [w for w in words if w.direction == 0]
    extent = max(w.bbox.x1 for w in upright) - min(w.bbox.x0 for w in upright)
    height = float(np.median([w.bbox.height for w in upright]))
    if abs(slope) * extent <= config.baseline_tolerance * height:
        return 0.0
    return slope


def _runs(words: Sequence[Word]
          ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]] | None:
    """The slope and length of each run of upright ``words`` (taken in the order they
    were drawn) each of which follows the one before on its line: it starts right of
    the one before's start, at most a line's height (the taller word's) after its end,
    and its centre stands no further above or below than a baseline upright text leans
    (`UPRIGHT_MAX_SLOPE`).  Each run's slope is the least
    squares fit to its words' centres, its length the run of their centres across.
    None when no run holds two words."""
    drawn = np.array([(w.stream, w.bbox.x0, w.bbox.top, w.bbox.x1, w.bbox.bottom)
                      for w in words if w.direction == 0], dtype=np.float64).reshape(-1, 5)
    if len(drawn) < 2:
        return None
    box = drawn[np.argsort(drawn[:, 0], kind="stable"), 1:]
    x, y = (box[:, 0] + box[:, 2]) / 2, (box[:, 1] + box[:, 3]) / 2
    height = box[:, 3] - box[:, 1]
    gap = box[1:, 0] - box[:-1, 2]
    taller = np.maximum(height[1:], height[:-1])
    across = np.diff(x)
    follows = ((box[1:, 0] > box[:-1, 0]) & (gap <= taller) & (gap >= -taller / 2)
               & (np.abs(np.diff(y)) <= UPRIGHT_MAX_SLOPE * across))
    run = np.cumsum(np.concatenate(([True], ~follows)))  # each word's run, from 1
    sizes = np.bincount(run)
    kept = sizes[run] >= 2
    if not kept.any():
        return None
    run, x, y = run[kept], x[kept], y[kept]
    starts = np.flatnonzero(np.concatenate(([True], run[1:] != run[:-1])))
    count = np.diff(np.append(starts, len(run))).astype(np.float64)
    mean_x = np.add.reduceat(x, starts) / count
    mean_y = np.add.reduceat(y, starts) / count
    repeats = count.astype(np.intp)
    dx, dy = x - np.repeat(mean_x, repeats), y - np.repeat(mean_y, repeats)
    spread = np.add.reduceat(dx * dx, starts)
    wide = spread > 0  # a run whose centres stand one above another tells no slope
    if not wide.any():
        return None
    slopes = np.add.reduceat(dx * dy, starts)[wide] / spread[wide]
    lengths = (np.maximum.reduceat(x, starts) - np.minimum.reduceat(x, starts))[wide]
    return slopes, lengths


def _weighted_median(values: npt.NDArray[np.float64], weights: npt.NDArray[np.float64]
                     ) -> float:
    """The value below and above which lie at most half the ``weights``."""
    order = np.argsort(values, kind="stable")
    cumulative = np.cumsum(weights[order])
    return float(values[order][np.searchsorted(cumulative, cumulative[-1] / 2)])


def level_boxes(boxes: npt.NDArray[np.float64], slope: float, width: float, height: float
                ) -> npt.NDArray[np.float64]:
    """``boxes`` (rows of ``x0, top, x1, bottom`` on a ``width`` by ``height`` page)
    on the page turned about its centre so that lines leaning by ``slope`` (points
    down per point rightwards) stand level: each box's centre turned, its size kept.
    ``level_boxes(b, -slope, ...)`` turns them back."""
    angle = -math.atan(slope)
    cos, sin = math.cos(angle), math.sin(angle)
    cx, cy = width / 2, height / 2
    x, y = (boxes[:, 0] + boxes[:, 2]) / 2 - cx, (boxes[:, 1] + boxes[:, 3]) / 2 - cy
    shift_x = cx + x * cos - y * sin - (boxes[:, 0] + boxes[:, 2]) / 2
    shift_y = cy + x * sin + y * cos - (boxes[:, 1] + boxes[:, 3]) / 2
    return boxes + np.stack([shift_x, shift_y, shift_x, shift_y], axis=1)


def levelled(page: PageGlyphs, words: tuple[Word, ...], config: WordsConfig
             ) -> tuple[PageGlyphs, tuple[Word, ...], float]:
    """The ``page`` and its ``words`` (made from its glyphs, or read by OCR when it has
    none) in the frame where its lines stand level, and the slope they leaned by
    (`skew_of`); the page and words as they are, and 0.0, when its skew is not
    corrected.  A page's glyphs are turned and made into words again, so that a word
    whose letters climbed across a row of glyphs is one word; OCR's words are turned."""
    slope = skew_of(words, config)
    if not slope:
        return page, words, 0.0
    if not len(page.glyphs):
        return page, tuple(_turned(words, slope, page.width, page.height)), slope
    boxes = page.glyphs.boxes
    made, member_of = words_and_members(page.glyphs, config)
    # each word's letters move with the word's centre, so that a word set level on the
    # page (as many OCR layers set each word) stays level, whole, in the levelled frame
    word_boxes = np.array([(w.bbox.x0, w.bbox.top, w.bbox.x1, w.bbox.bottom) for w in made],
                          dtype=np.float64).reshape(len(made), 4)
    moves = np.vstack([level_boxes(word_boxes, slope, page.width, page.height) - word_boxes,
                       np.zeros((1, 4))])
    own = level_boxes(boxes, slope, page.width, page.height) - boxes
    moved = np.where((member_of >= 0)[:, None], moves[member_of], own)
    glyphs = replace(page.glyphs, boxes=boxes + moved)
    links = [replace(link, bbox=_levelled_box(link.bbox, slope, page)) for link in page.links]
    return (replace(page, glyphs=glyphs), linked(words_from_glyphs(glyphs, config), links),
            slope)


def _levelled_box(box: BBox, slope: float, page: PageGlyphs) -> BBox:
    """``box`` of ``page`` in the frame where lines leaning by ``slope`` stand level."""
    row = np.array([[box.x0, box.top, box.x1, box.bottom]], dtype=np.float64)
    return BBox(*level_boxes(row, slope, page.width, page.height)[0].tolist())


def _turned(words: Sequence[Word], slope: float, width: float, height: float) -> list[Word]:
    """``words`` with their boxes levelled by ``slope`` (`level_boxes`)."""
    if not words:
        return []
    boxes = np.array([(w.bbox.x0, w.bbox.top, w.bbox.x1, w.bbox.bottom) for w in words],
                     dtype=np.float64)
    x0, top, x1, bottom = level_boxes(boxes, slope, width, height).T.tolist()
    count = len(words)
    return from_columns(Word, count, [w.text for w in words],
                        from_columns(BBox, count, x0, top, x1, bottom), [w.font for w in words],
                        [w.size for w in words], [w.direction for w in words],
                        [w.stream for w in words], [w.weight for w in words],
                        [w.link for w in words])


def restored(page: Page, slope: float) -> Page:
    """``page``, laid out in the frame where lines leaning by ``slope`` stand level
    (`levelled`), turned back onto the page: each word's box where the word
    stands, each line's the box of its words on the page, each block's, column's and
    band's the box of its lines.  ``page`` itself when ``slope`` is 0."""
    if not slope:
        return page
    return replace(page, bands=rebuilt_bands(
        page, lambda line: _line_back(line, slope, page.width, page.height)))


def _line_back(line: Line, slope: float, width: float, height: float) -> Line:
    """A line of a levelled page with its words turned back (see `restored`)."""
    words = _turned(line.words, -slope, width, height)
    bbox = BBox.union(w.bbox for w in words).on_page(width, height) if words else line.bbox
    return replace(line, words=tuple(words), bbox=bbox)

