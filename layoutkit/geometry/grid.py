"""A page body's occupancy grid and the questions segmentation asks of it.

`Canvas` holds one page's arrays, computed once: the words' boxes, their text rows
(word bottoms within `baseline_bin_em`), the page's font size and word space, the
occupancy grid (`grid_resolution` points a cell) of the words, of the rules long enough
to separate bands (`rule_min_length`) and of the pictures, and the long vertical runs of
free cells.  Its methods are the rules of a gutter, each written once.

`Canvas.is_gutter`: a strip is a gutter between columns when

- it is at least `gutter_min_width` wide, with text at least `column_min_width_em` wide
  on each side (narrower strips are list numbers or table cells);
- no dot leaders run up to it, on `leader_min_lines` lines ending within
  `leader_reach_em` (it would part a table's cells or an index's page numbers);
- it lies on the document's column grid, or both sides stand as columns of
  `gutter_min_lines` lines: dense stacks (`column_min_density` at `line_pitch_em`),
  one side flush against it (`column_min_flush`, within `flush_tolerance_em`);
- or its sides are sparse stacks beside a strip `sparse_column_gap_em` wide, one side
  flush and the stream reading the sides one after the other (a sidebar of figures);
- or a vertical rule runs down `ruled_gutter_min_share` of it, unless the rule is a
  ruled table's cell wall, crossed by rules over `cell_wall_min_rows` rows;
- the content stream does not read straight across it, in `stream_across_share` of the
  rows beside it and at least `stream_across_min_rows` of them (a table's rows);
- with neither side flush, the stream reads one side after the other, stepping across
  no more than twice or in `stream_down_max_share` of the rows.

`Canvas.runs_on`: a text row runs across a gutter (a title, the last line of a
full-width paragraph) when its gap there is narrower than `crossing_gap_ratio` of the
gutter's usual width and no wider than `word_space_ratio` of its own word spaces, or
when it is evenly spaced (`even_space_tolerance`, `even_space_min_spaces`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from ..config import GuttersConfig
from ..model import BBox, Rule, Word

__all__ = ["OVERPRINT_INSET", "Boxes", "Canvas", "Gutter", "Ints", "distinct", "overlapping",
           "true_runs", "weighted_median"]

Ints = NDArray[np.intp]
Boxes = NDArray[np.float64]
"""Boxes as rows of x0, top, x1 and bottom."""
_NO_BOXES: Boxes = np.empty((0, 4))

OVERPRINT_INSET = 1.0
"""Two boxes overlap, one printed over the other, when they share more than this many
points on every side (boxes that merely touch do not): a picture with text printed
across it is a background; a rotated word over the text, a watermark.  Not a
parameter: half or twice it reads the labelled pages alike."""

_CELL_RULE_JOIN = 2.0
"""Rules this many points apart or less meet (a table's rules, drawn cell by cell; the
edges of a box drawn round text, which is read whole: no band ends inside it).  Not a
parameter: half or twice it reads the labelled pages alike."""

_WORD_SPACE_MAX_EM = 2.0
"""Gaps between the words of a row wider than this many times the font size are
gutters or tab stops, left out of the page's median word space.  Not a parameter: half
or twice it reads the labelled pages alike."""
"""Indexes into a page's words (or a grid's cells)."""


@dataclass(frozen=True, slots=True)
class Gutter:
    """A whitespace strip: its x range and y range, in points."""

    x0: float
    x1: float
    top: float
    bottom: float


class Canvas:
    """The arrays one page's segmentation works on, computed once per page.

    A canvas pickles as what it is made from (the words, rules, pictures, size and
    settings) and is made again when unpickled: its occupancy grids take some 1 MB a
    page, its words a few KB, and the words are pickled with the page anyway."""

    def __init__(self, words: Sequence[Word], rules: Sequence[Rule], images: Sequence[BBox],
                 width: float, height: float, config: GuttersConfig) -> None:
        self._made_of = (words, rules, images, width, height, config)
        self.config = config
        self.res = config.grid_resolution
        self.box = np.array([(w.bbox.x0, w.bbox.top, w.bbox.x1, w.bbox.bottom) for w in words],
                            dtype=float).reshape(-1, 4)
        self.leader = np.array([_is_leader(w.text) for w in words], dtype=bool)
        self.stream = np.array([w.stream for w in words], dtype=np.int64)
        # each word's successor in the content stream among these words (-1: the last)
        drawn = np.argsort(self.stream, kind="stable")
        self.successor = np.full(len(words), -1, dtype=np.intp)
        self.successor[drawn[:-1]] = drawn[1:]
        sizes = self.sizes = np.array([w.size for w in words], dtype=float)
        weights = np.array([len(w.text) for w in words], dtype=float)
        self.size = weighted_median(sizes, weights) if len(words) else 10.0
        self.baseline = np.round(self.box[:, 3] / max(config.baseline_bin_em * self.size,
                                                      self.res))
        # each word's baseline as a dense number, so that baselines are counted by
        # np.bincount instead of being sorted again for every strip tried
        self.row = np.unique(self.baseline, return_inverse=True)[1].reshape(-1)
        self.row_count = int(self.row.max()) + 1 if len(self.row) else 0
        # the page's usual word space, against which a row's gap across a strip is told
        # from its own spaces where its words have none to judge by
        self.space = _word_space(self.box, self.baseline,
                                 _WORD_SPACE_MAX_EM * self.size)
        rows = int(np.ceil(height / self.res)) + 2
        cols = int(np.ceil(width / self.res)) + 2
        self.vertical, rule_box = _long_rules(rules, config.rule_min_length)
        """The page's long vertical rules: x, top and bottom of each."""
        self.cell_walls = _cell_walls(self.vertical, rule_box, _CELL_RULE_JOIN,
                                      config.cell_wall_min_rows)
        """Which of `vertical` are a ruled table's cell walls (`_cell_walls`)."""
        self.frames = _frames(self.vertical, rule_box, _CELL_RULE_JOIN)
        """The boxes drawn around text (`_frames`): x0, top, x1 and bottom of each."""
        image_box = np.array([(b.x0, b.top, b.x1, b.bottom) for b in images],
                             dtype=float).reshape(-1, 4)
        # a picture with text printed across it is a background, not a figure that
        # parts bands or columns
        image_box = image_box[~_behind_text(image_box, self.box, OVERPRINT_INSET)]
        self.pictures = image_box
        """The page's figures (x0, top, x1 and bottom of each), backgrounds left out."""
        self.grid = _occupancy(np.vstack([self.box, rule_box, image_box]), rows, cols, self.res)
        # free[r, c]: the window of cells c .. c + window - 1 of row r is empty
        self.window = max(1, round(config.gutter_min_width / self.res))
        empty, starts = ~self.grid, cols - self.window + 1
        self.free = np.logical_and.reduce([empty[:, k:k + starts] for k in range(self.window)])
        # the page's runs of free cells down each column, as long as the shortest strip
        # any region takes or longer: found once here, cut to each region's rows there
        fewest = min(config.gutter_min_lines, config.gutter_min_lines_on_grid)
        self.runs = _column_runs(self.free, fewest * self.size / self.res)

    def ruled(self, x0: float, x1: float, top: float, bottom: float) -> bool:
        """Whether a vertical rule runs down the strip from ``x0`` to ``x1`` over at least
        ``ruled_gutter_min_share`` of its run from ``top`` to ``bottom``."""
        if not len(self.vertical) or bottom <= top:
            return False
        x, rule_top, rule_bottom = self.vertical.T
        covered = np.minimum(rule_bottom, bottom) - np.maximum(rule_top, top)
        return bool(((x >= x0) & (x <= x1) & (covered >= self.config.ruled_gutter_min_share
                                              * (bottom - top))).any())

    def walled(self, x0: float, x1: float, top: float, bottom: float) -> bool:
        """Whether a ruled table's cell wall (`_cell_walls`) runs down the strip
        from ``x0`` to ``x1`` anywhere between ``top`` and ``bottom``: the strip parts a
        table's cells, which read row by row across it, not columns."""
        x, rule_top, rule_bottom = self.vertical[self.cell_walls].T
        return bool(((x >= x0) & (x <= x1) & (rule_top < bottom) & (rule_bottom > top)).any())

    def parts_frame(self, idx: Ints, y: float, x0: float, x1: float) -> bool:
        """Whether a band cut at height ``y`` across the region of words ``idx`` parts the
        lines of a box drawn around text (`frames`) standing wholly on one side of
        the strip from ``x0`` to ``x1``: words of the box stand above the cut and below
        it.  A boxed note is read whole, so no band of the strip's columns ends inside
        one (a box running on past the end of the strip, beside the text that ends it)."""
        res = self.res
        f0, top, f1, bottom = self.frames.T
        across = ((f1 <= x0 + res) | (f0 >= x1 - res)) & (top < y) & (bottom > y)
        box = self.box[idx]
        centre_y = (box[:, 1] + box[:, 3]) / 2
        for fx0, ftop, fx1, fbottom in self.frames[across].tolist():
            inside = ((box[:, 0] >= fx0 - res) & (box[:, 2] <= fx1 + res)
                      & (box[:, 1] >= ftop - res) & (box[:, 3] <= fbottom + res))
            if (centre_y[inside] < y).any() and (centre_y[inside] > y).any():
                return True
        return False

    def __reduce__(self) -> tuple[type[Canvas], tuple[Sequence[Word], Sequence[Rule],
                                                      Sequence[BBox], float, float,
                                                      GuttersConfig]]:
        """The canvas pickled as what it is made from (see the class docstring)."""
        return Canvas, self._made_of

    def cells(self, idx: Ints) -> tuple[int, int, int, int]:
        """Grid bounds (r0, r1, c0, c1), end exclusive, tight around words ``idx``."""
        b = self.box[idx]
        hull = np.array([[b[:, 0].min(), b[:, 1].min(), b[:, 2].max(), b[:, 3].max()]])
        c0, r0, c1, r1 = (int(v[0]) for v in _cell_bounds(hull, self.res))
        return r0, r1, c0, c1

    def lines(self, idx: Ints) -> int:
        """How many distinct baselines the words ``idx`` stand on."""
        return distinct(self.row[idx])

    def is_column(self, idx: Ints, min_lines: int, pictures: Boxes = _NO_BOXES,
                  fill: Boxes = _NO_BOXES) -> bool:
        """Whether words ``idx``, with the ``pictures`` standing among them, stand as a
        column does: ``min_lines`` lines or more, stacked densely enough to cover
        ``column_min_density`` of their height at the pitch of their own type (a few
        labels strewn down a table's margin do not; a column of headings in large type
        does).  A picture fills a column as lines do: it counts the lines its height
        holds (`picture_lines`), so a picture over its short caption stands as a
        column beside the text.  The pictures of ``fill`` cover the column's height as
        lines do, but count toward none of its ``min_lines``: a column of text must stand
        on lines of its own where its pictures stand clear of the strip beside it (a
        photograph centred under its caption), or a picture beside two fragments of
        lines would make them a column."""
        lines = self.lines(idx) + self.picture_lines(pictures)
        if lines < min_lines:
            return False
        box = np.vstack([self.box[idx], pictures, fill])
        extent = float(box[:, 3].max() - box[:, 1].min())
        gutters = self.config
        size = max(self.size, float(np.median(self.sizes[idx]))) if len(idx) else self.size
        covered = lines + self.picture_lines(fill)
        return covered * gutters.line_pitch_em * size >= gutters.column_min_density * extent

    def picture_lines(self, pictures: Boxes) -> int:
        """How many lines of the page's body type, at the usual pitch
        (``line_pitch_em``), the heights of ``pictures`` (x0, top, x1, bottom rows) hold
        together: what they stand for among the lines of a column."""
        if not len(pictures):
            return 0
        height = float((pictures[:, 3] - pictures[:, 1]).sum())
        return int(height // (self.config.line_pitch_em * self.size))

    def against(self, x0: float, x1: float, top: float,
                bottom: float) -> tuple[Boxes, Boxes]:
        """The pictures (`pictures`) standing against the strip from ``x0`` to
        ``x1`` level with its run from ``top`` to ``bottom``: those on its left, their
        right edge at the strip's left edge, and those on its right, their left edge at
        its right edge (within a grid cell and ``flush_tolerance_em``: nothing stands
        between them and the strip); each cut to the run's height.  They stand in the
        columns on either side as text would, and give a side its edge."""
        return self._flanking(x0, x1, top, bottom)[0]

    def _flanking(self, x0: float, x1: float, top: float, bottom: float
                  ) -> tuple[tuple[Boxes, Boxes], tuple[Boxes, Boxes]]:
        """The pictures level with the run of the strip from ``x0`` to ``x1`` from
        ``top`` to ``bottom`` wholly on its left and on its right, each cut to the
        run's height: those against the strip (`against`), and those clear of it,
        each group as (left, right)."""
        pictures = self.pictures
        if not len(pictures):
            return (_NO_BOXES, _NO_BOXES), (_NO_BOXES, _NO_BOXES)
        near = self.res + max(1.0, self.config.flush_tolerance_em * self.size)
        level = _cut_to(pictures[(pictures[:, 1] < bottom) & (pictures[:, 3] > top)], top,
                        bottom)
        left, right = level[level[:, 2] <= x0 + near], level[level[:, 0] >= x1 - near]
        return ((left[left[:, 2] >= x0 - near], right[right[:, 0] <= x1 + near]),
                (left[left[:, 2] < x0 - near], right[right[:, 0] > x1 + near]))

    def _filling(self, left: Ints, right: Ints, x0: float, x1: float, top: float,
                 bottom: float) -> tuple[Boxes, Boxes]:
        """The pictures clear of the strip from ``x0`` to ``x1`` (`_flanking`) that stand
        in the column of words ``left`` or ``right`` next to it along its run from
        ``top`` to ``bottom``: inside the span of that side's words (a photograph under
        a caption centred over it; not one at the page's edge past a line's far end), with
        no other strip a gutter wide (`window`) empty over the run between it and the
        strip: a picture a column further off fills no column here (a word space in a
        line's end running down the white beside a figure).  Each side holds words."""
        left_pictures, right_pictures = self._flanking(x0, x1, top, bottom)[1]
        left_pictures = left_pictures[left_pictures[:, 2] > self.box[left, 0].min()]
        right_pictures = right_pictures[right_pictures[:, 0] < self.box[right, 2].max()]
        return (left_pictures[[not self._strip_between(p[2], x0, top, bottom)
                               for p in left_pictures]].reshape(-1, 4),
                right_pictures[[not self._strip_between(x1, p[0], top, bottom)
                                for p in right_pictures]].reshape(-1, 4))

    def _strip_between(self, x0: float, x1: float, top: float, bottom: float) -> bool:
        """Whether a strip at least a gutter wide (`window` cells) runs empty from ``top``
        to ``bottom`` somewhere between ``x0`` and ``x1``."""
        c0, r0, c1, r1 = (int(v[0]) for v in _cell_bounds(np.array([[x0, top, x1, bottom]]),
                                                            self.res))
        empty = np.logical_not(self.grid[r0:r1, c0:c1].any(axis=0))
        return any(b - a >= self.window for a, b in true_runs(empty))

    def _edges(self, idx: Ints, last: bool) -> tuple[NDArray[np.bool_], NDArray[np.float64]]:
        """Per text row of the page (by `row`): whether words ``idx`` stand on it,
        and the end of its last word (``last``) or the start of its first one."""
        rows = self.row[idx]
        present = np.zeros(self.row_count, dtype=np.bool_)
        present[rows] = True
        per_row = np.full(self.row_count, -np.inf if last else np.inf)
        (np.maximum if last else np.minimum).at(per_row, rows, self.box[idx, 2 if last else 0])
        return present, per_row

    def flush(self, left: Ints, right: Ints, x0: float, x1: float,
              pictures: tuple[Boxes, Boxes] = (_NO_BOXES, _NO_BOXES)
              ) -> tuple[float, float] | None:
        """How flush the rows next to the strip from ``x0`` to ``x1`` stand against it:
        the share of the line ends of ``left`` at its left edge and of the line starts of
        ``right`` at its right edge (justified columns are flush on both sides, ragged
        ones on one); None when a side has nothing beside the strip.  The ``pictures``
        against the strip on each side (`against`) count as the lines they hold
        (`picture_lines`), flush where their edge is: a picture's edge is
        straight."""
        left, right = self._adjacent(left, right, x0, x1)
        tolerance = max(1.0, self.config.flush_tolerance_em * self.size)
        shares = []
        for words, beside, last in ((left, pictures[0], True), (right, pictures[1], False)):
            if not len(words) and not len(beside):
                return None
            towards = 1.0 if last else -1.0  # the larger, the nearer the strip
            ends = towards * np.compress(*self._edges(words, last=last))
            facing = towards * beside[:, 2 if last else 0]
            edge = max(ends.max(initial=-np.inf), facing.max(initial=-np.inf)) - tolerance
            flush = np.count_nonzero(ends >= edge) + self.picture_lines(beside[facing >= edge])
            total = len(ends) + self.picture_lines(beside)
            shares.append(float(flush / total) if total else 1.0)
        return shares[0], shares[1]

    def reads_across(self, left: Ints, right: Ints) -> bool:
        """Whether the content stream reads the rows beside a strip straight across it:
        in ``stream_across_share`` of the rows with words of ``left`` and ``right`` (the
        words on either side) on both sides, and ``stream_across_min_rows`` at least,
        the stream steps from a word on one side to the next word of the row on the other
        (level with it: their heights overlap by more than half the smaller; a word set in
        another font may sit a little higher).
        The rows counted are those of the side with fewer, level with the other side's
        or not, from the first to the last row level on both: a table's rows stand level
        across it, while the lines of two columns of a scan stand level only here and
        there, where an OCR layer may join them.

        The rows of a table or a form are drawn so; a page of columns is drawn column
        by column, and a stream drawn in no order (lines or blocks shuffled) steps
        across within a row by chance alone, so it gives no such evidence."""
        both = self._edges(left, last=True)[0] & self._edges(right, last=False)[0]
        side = np.zeros(len(self.box), dtype=np.int8)
        side[left], side[right] = 1, 2
        here = np.concatenate([left, right])
        after = self.successor[here]
        has = after >= 0
        here, after = here[has], after[has]
        box = self.box
        overlap = (np.minimum(box[here, 3], box[after, 3]) - np.maximum(box[here, 1], box[after, 1])
                   > 0.5 * np.minimum(box[here, 3] - box[here, 1], box[after, 3] - box[after, 1]))
        across = (side[after] > 0) & (side[after] != side[here]) & overlap
        rows = distinct(self.row[here[across]]) if across.any() else 0
        config = self.config
        if rows < config.stream_across_min_rows:
            return False
        level = np.flatnonzero(both)
        if not len(level):  # level only by their heights, not in one baseline bin
            level = np.unique(self.row[here[across]])
        beside = [int(np.count_nonzero(self._edges(words, last=True)[0][level[0]:level[-1] + 1]))
                  for words in (left, right)]
        return rows >= config.stream_across_share * min(beside)

    def reads_down(self, left: Ints, right: Ints) -> bool:
        """Whether the content stream reads the words of ``left`` and of ``right`` (the
        words on either side of a strip) one side after the other: it steps from one
        side to the other no more than twice, or in ``stream_down_max_share`` of the
        rows beside the strip.  Columns are drawn so, whether the stream is in reading
        order or its blocks are shuffled; rows of a table and shuffled lines are not."""
        both = np.concatenate([left, right])
        side = np.concatenate([np.zeros(len(left), np.int8), np.ones(len(right), np.int8)])
        drawn = side[np.argsort(self.stream[both], kind="stable")]
        switches = int(np.count_nonzero(drawn[1:] != drawn[:-1]))
        rows = distinct(self.row[both])
        return switches <= max(2.0, self.config.stream_down_max_share * rows)

    def crosses(self, row_words: Ints, x0: float, x1: float, usual: float) -> bool:
        """Whether one text row (words ``row_words``) runs across the strip from ``x0``
        to ``x1``: the gap it leaves there is narrower than ``crossing_gap_ratio`` of
        the ``usual`` gap across the strip and no wider than ``word_space_ratio`` times
        the row's other word spaces, or it is one of the row's evenly spaced word
        spaces (`evenly_spaced`).  A title set in a larger font can leave an
        ordinary word space of its own where the columns below have their gutter, and
        a title spaced out over them a space as wide as the gutter; the rows of the
        columns leave the whole gutter, between two lines spaced each its own way."""
        spaced = self.spaces_across(row_words, x0, x1)
        if spaced is None or not len(spaced[1]):
            return False
        gap, others = spaced
        return (self.evenly_spaced(gap, others)
                or self.runs_on(gap, usual, float(np.median(others))))

    def evenly_spaced(self, gap: float, others: NDArray[np.float64]) -> bool:
        """Whether a text row's ``gap`` across a strip and its ``others`` word spaces
        (``even_space_min_spaces`` of them at least) are all alike: none wider than the
        narrowest by more than ``even_space_tolerance`` of it."""
        if len(others) < self.config.even_space_min_spaces:
            return False
        narrowest = min(gap, float(others.min()))
        widest = max(gap, float(others.max()))
        return widest <= (1.0 + self.config.even_space_tolerance) * narrowest

    def spaces_across(self, row_words: Ints, x0: float, x1: float,
                      others: Sequence[tuple[float, float]] = ()
                      ) -> tuple[float, NDArray[np.float64]] | None:
        """The gap one text row (words ``row_words``) leaves across the strip from ``x0``
        to ``x1``, and the other spaces between its words, but those across the ``others``
        strips; None when no gap of the row spans the strip (it ends before the strip,
        starts after it or has a word in it)."""
        box = self.box[row_words[np.argsort(self.box[row_words, 0])]]
        gaps = box[1:, 0] - box[:-1, 2]

        def spanning(a: float, b: float) -> NDArray[np.bool_]:
            return (box[:-1, 2] <= a + self.res) & (box[1:, 0] >= b - self.res)

        across = spanning(x0, x1)
        if not across.any():
            return None
        parting = np.logical_or.reduce([across, *(spanning(a, b) for a, b in others)])
        return float(gaps[across].max()), gaps[~parting & (gaps > 0)]

    def blocks(self, row_words: Ints, left: Ints, right: Ints, x0: float, x1: float) -> bool:
        """Whether one text row (words ``row_words``) runs across the strip from ``x0``
        to ``x1`` (`crosses`), measured against the usual gap across it of the
        other rows of ``left`` and ``right`` (the words on either side): the row's own
        gap is no measure of the strip it would block."""
        if not self.crosses(row_words, x0, x1, float("inf")):
            return False  # its gap is no word space: it crosses no strip, however wide
        return self.crosses(row_words, x0, x1, self.usual_gap(
            np.setdiff1d(left, row_words), np.setdiff1d(right, row_words), x0, x1))

    def runs_on(self, gap: float, usual: float, space: float) -> bool:
        """Whether a text row that leaves ``gap`` across a strip runs on across it: the
        gap is narrower than ``crossing_gap_ratio`` of the ``usual`` gap across the
        strip and no wider than ``word_space_ratio`` times the row's word ``space``.

        The one test of a row crossing a gutter, for `crosses` (auto mode) and
        for the full-width rows of `force_columns`
        alike, which only measure the gap and the row's word space each their own
        way."""
        return (gap < self.config.crossing_gap_ratio * usual
                and gap <= self.config.word_space_ratio * space)

    def _adjacent(self, left: Ints, right: Ints, x0: float,
                  x1: float) -> tuple[Ints, Ints]:
        """The words of ``left`` and ``right`` within a column's width of the strip
        from ``x0`` to ``x1``: the neighbouring columns, not the ones beyond."""
        reach = self.config.column_min_width_em * self.size
        return (left[self.box[left, 2] >= x0 - reach],
                right[self.box[right, 0] <= x1 + reach])

    def _row_gaps(self, left: Ints, right: Ints) -> NDArray[np.float64]:
        """The gap across a strip in every row with words on both sides of it."""
        if not len(left) or not len(right):
            return np.empty(0)
        left_rows, ends = self._edges(left, last=True)
        right_rows, starts = self._edges(right, last=False)
        both = left_rows & right_rows
        return starts[both] - ends[both]

    def usual_gap(self, left: Ints, right: Ints, x0: float, x1: float) -> float:
        """The median gap across the strip from ``x0`` to ``x1`` between the words of
        ``left`` and ``right`` next to it, in the rows with words on both sides; where
        no row has both (side columns set in other fonts, their baselines apart), the
        gap between the sides' facing edges; infinite when a side is empty."""
        if not len(left) or not len(right):
            return float("inf")
        gaps = self._row_gaps(*self._adjacent(left, right, x0, x1))
        if len(gaps):
            return float(np.median(gaps))
        return float(self.box[right, 0].min() - self.box[left, 2].max())

    def end_rows(self, idx: Ints) -> list[Ints]:
        """The words of the first and of the last text row of ``idx`` (one list when
        they are the same row)."""
        rows = self.baseline[idx]
        first, last = rows.min(), rows.max()
        ends = [idx[rows == first]]
        if last != first:
            ends.append(idx[rows == last])
        return ends

    def leads_into(self, idx: Ints, x: float) -> bool:
        """Whether dot leaders of ``leader_min_lines`` lines among ``idx`` run up to ``x``,
        each the last word of its row before ``x``: the strip after them separates a
        table's cells (or an index's page numbers), not columns of text.  Leaders
        followed by their page numbers end a contents column like any line."""
        reach = self.config.leader_reach_em * self.size
        near = idx[self.leader[idx] & (self.box[idx, 2] >= x - reach)]
        if not len(near):
            return False
        _, row_ends = self._edges(idx[self.box[idx, 2] <= x + self.res], last=True)
        last = near[self.box[near, 2] >= row_ends[self.row[near]]]
        return self.lines(last) >= self.config.leader_min_lines

    def is_gutter(self, left: Ints, right: Ints, x0: float, x1: float, lines: int, *,
                  edges: tuple[float, float] | None = None, on_grid: bool = False) -> bool:
        """Whether the strip from ``x0`` to ``x1`` is a gutter between columns: words
        ``left`` and ``right`` on both sides of it, each side at least
        ``column_min_width_em`` wide from the strip to its outer edge (``edges``, left
        and right; by default where the side's own words end), no dot leaders running
        up to it (see `leads_into`), and either the strip lies on the document's
        column grid (``on_grid``, the caller's test) or both sides stand as columns of
        ``lines`` lines or more that it separates (see `is_column`,
        `flush`: one side flush against it; sparse stacks beside a wide strip, see
        `_sparse_columns`).  A strip the content stream reads straight across
        (`reads_across`) is a gap between the cells of rows, not a gutter, however
        straight its edges (a table's number columns are flush too); and with neither
        side flush (a ragged column beside an indented list), the stream must read the
        two sides one after the other (`reads_down`).  The pictures standing
        against the strip level with the words (`against`) are part of the columns on
        either side: a photograph over its three-line caption is a column beside the
        text, as tall as the picture.  Those clear of the strip in the column next to it
        (`_filling`) cover its height too, but make it no lines: a photograph centred
        under a notice's caption.

        The one test of a gutter, for the strips that cut a region into columns and
        for the tall strips that end a band alike."""
        if not len(left) or not len(right):
            return False
        both = self.box[np.concatenate([left, right])]
        top, bottom = float(both[:, 1].min()), float(both[:, 3].max())
        pictures = self.against(x0, x1, top, bottom)
        if edges is None:
            edges = (float(self.box[left, 0].min()), float(self.box[right, 2].max()))
        edges = (min([edges[0], *pictures[0][:, 0].tolist()]),
                 max([edges[1], *pictures[1][:, 2].tolist()]))
        min_width = self.config.column_min_width_em * self.size
        if (x0 - edges[0] < min_width or edges[1] - x1 < min_width
                or self.leads_into(left, x0)):
            return False
        flush = self.flush(left, right, x0, x1, pictures)
        least = self.config.column_min_flush
        filling = self._filling(left, right, x0, x1, top, bottom)
        if not on_grid and (flush is None or not (
                (self.is_column(left, lines, pictures[0], filling[0])
                 and self.is_column(right, lines, pictures[1], filling[1]))
                or self._sparse_columns(left, right, x1 - x0, lines, flush))):
            return False
        if self.reads_across(left, right):
            return False
        return on_grid or (flush is not None and max(flush) >= least) \
            or self.reads_down(left, right)

    def _sparse_columns(self, left: Ints, right: Ints, width: float, lines: int,
                        flush: tuple[float, float]) -> bool:
        """Whether sparse stacks of ``lines`` lines or more on both sides of a strip
        ``width`` wide stand as columns all the same: the strip is at least
        ``sparse_column_gap_em`` wide, one side flush against it and the stream
        reads one side after the other (see `is_gutter`)."""
        config = self.config
        return (width >= config.sparse_column_gap_em * self.size
                and max(flush) >= config.column_min_flush
                and min(self.lines(left), self.lines(right)) >= lines
                and self.reads_down(left, right))


_LEADER_CHARS = ".·…_"


def _long_rules(rules: Sequence[Rule], min_length: float
                ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The ``rules`` at least ``min_length`` long: the vertical ones as rows of x, top
    and bottom, the horizontal ones as rows of x0, y, x1, y."""
    vertical = np.array([((r.bbox.x0 + r.bbox.x1) / 2, r.bbox.top, r.bbox.bottom)
                         for r in rules if not r.horizontal and r.bbox.height >= min_length],
                        dtype=float).reshape(-1, 3)
    horizontal = np.array([(r.bbox.x0, r.bbox.top, r.bbox.x1, r.bbox.top) for r in rules
                           if r.horizontal and r.bbox.width >= min_length],
                          dtype=float).reshape(-1, 4)
    return vertical, horizontal


def table_walls(rules: Sequence[Rule], config: GuttersConfig) -> list[tuple[float, float, float]]:
    """The x, top and bottom of each of the page's ``rules`` that is a ruled table's
    inner cell wall (`_cell_walls`), however short each piece a table draws cell by
    cell: the rules a table's rows read across."""
    vertical, horizontal = _long_rules(rules, 0.0)
    walls = _cell_walls(vertical, horizontal, _CELL_RULE_JOIN, config.cell_wall_min_rows)
    return [(x, top, bottom) for x, top, bottom in vertical[walls].tolist()]


def _cell_walls(vertical: NDArray[np.float64], horizontal: NDArray[np.float64],
                join: float, rows: int) -> NDArray[np.bool_]:
    """Which ``vertical`` rules (x, top, bottom) are a ruled table's inner cell walls:
    the run of rules it belongs to (rules at its x, within ``join`` points, each
    starting where the one above ends, as a table draws a wall cell by cell) is crossed
    by ``horizontal`` rules (x0, y, x1, y) running on to both its sides (one rule, or
    two meeting at it) at ``rows`` + 1 heights or more: the rules above, between and
    below ``rows`` table rows.  A rule between a page's columns meets a band's rules at
    its two ends at most, and a table's outer frame has rules on one side only."""
    walls = np.zeros(len(vertical), dtype=bool)
    if not len(vertical) or not len(horizontal):
        return walls
    x0, y, x1 = horizontal[:, 0], horizontal[:, 1], horizontal[:, 2]
    level = np.round(y / join)
    order = np.lexsort((vertical[:, 1], np.round(vertical[:, 0] / join)))
    run: list[int] = []
    for k in [*order.tolist(), -1]:
        if run and (k < 0 or abs(vertical[k, 0] - vertical[run[-1], 0]) > join
                    or vertical[k, 1] > vertical[run, 2].max() + join):
            x = float(np.median(vertical[run, 0]))
            top, bottom = vertical[run, 1].min() - join, vertical[run, 2].max() + join
            beside = (y >= top) & (y <= bottom)
            left = beside & (x0 < x - join) & (x1 >= x - join)
            right = beside & (x1 > x + join) & (x0 <= x + join)
            walls[run] = len(np.intersect1d(level[left], level[right])) > rows
            run = []
        if k >= 0:
            run.append(k)
    return walls


def _frames(vertical: NDArray[np.float64], horizontal: NDArray[np.float64],
            join: float) -> NDArray[np.float64]:
    """The boxes drawn around text, as rows of x0, top, x1 and bottom: a ``horizontal``
    rule (x0, y, x1, y) and the nearest one under it spanning the same x range, both
    ends within ``join`` points, joined at both ends by a ``vertical`` rule (x, top,
    bottom) running from one to the other (a stroked rectangle's four edges; a table's
    ruled cells and rows are boxes too)."""
    frames: list[tuple[float, float, float, float]] = []
    rules = horizontal[np.argsort(horizontal[:, 0], kind="stable")]
    sides = vertical[np.argsort(vertical[:, 0], kind="stable")]

    def near(ordered: NDArray[np.float64], x: float) -> NDArray[np.float64]:
        """The rows of ``ordered`` (sorted by their first value) within ``join`` of x."""
        return ordered[np.searchsorted(ordered[:, 0], x - join, "left"):
                       np.searchsorted(ordered[:, 0], x + join, "right")]

    for x0, y, x1, _ in rules.tolist():
        same = near(rules, x0)
        under = same[(np.abs(same[:, 2] - x1) <= join) & (same[:, 1] > y + join), 1]
        if not len(under):
            continue
        bottom = float(under.min())
        if all(((edge[:, 1] <= y + join) & (edge[:, 2] >= bottom - join)).any()
               for edge in (near(sides, x0), near(sides, x1))):
            frames.append((x0, y, x1, bottom))
    return np.array(frames, dtype=float).reshape(-1, 4)


def _is_leader(text: str) -> bool:
    """Whether a word is a run of leader dots (or a single spaced leader dot)."""
    return not text.strip(_LEADER_CHARS) and (len(text) >= 3 or text in ".…·")


def _cut_to(boxes: Boxes, top: float, bottom: float) -> Boxes:
    """``boxes`` (x0, top, x1, bottom rows) cut to the height from ``top`` to ``bottom``."""
    cut = boxes.copy()
    cut[:, 1] = np.maximum(cut[:, 1], top)
    cut[:, 3] = np.minimum(cut[:, 3], bottom)
    return cut


def overlapping(boxes: NDArray[np.float64], others: NDArray[np.float64],
                inset: float) -> NDArray[np.bool_]:
    """For each of ``boxes`` (x0, top, x1, bottom rows), which of ``others`` it overlaps
    by more than ``inset`` on every side (a matrix: boxes by others)."""
    result: NDArray[np.bool_] = ((boxes[:, None, 0] < others[None, :, 2] - inset)
                                 & (boxes[:, None, 2] > others[None, :, 0] + inset)
                                 & (boxes[:, None, 1] < others[None, :, 3] - inset)
                                 & (boxes[:, None, 3] > others[None, :, 1] + inset))
    return result


def _behind_text(images: NDArray[np.float64], words: NDArray[np.float64],
                 inset: float) -> NDArray[np.bool_]:
    """Whether each of the ``images`` has text printed across it: a word overlapping it
    that also runs out over its edge (a figure's own labels stand inside it)."""
    if not len(images) or not len(words):
        return np.zeros(len(images), dtype=np.bool_)
    outside = ((words[None, :, 0] < images[:, None, 0] - inset)
               | (words[None, :, 2] > images[:, None, 2] + inset)
               | (words[None, :, 1] < images[:, None, 1] - inset)
               | (words[None, :, 3] > images[:, None, 3] + inset))
    return np.asarray((overlapping(images, words, inset) & outside).any(axis=1))


def _word_space(box: NDArray[np.float64], baseline: NDArray[np.float64], widest: float) -> float:
    """The median gap between neighbouring words of a text row (gaps of ``widest`` or
    more, which are gutters or tab stops, left out); 0 when the page has no such gaps."""
    order = np.lexsort((box[:, 0], baseline))
    b, row = box[order], baseline[order]
    gap = b[1:, 0] - b[:-1, 2]
    spaces = gap[(row[1:] == row[:-1]) & (gap > 0) & (gap < widest)]
    return float(np.median(spaces)) if len(spaces) else 0.0


def weighted_median(values: NDArray[np.float64], weights: NDArray[np.float64]) -> float:
    """The median of ``values``, each counted ``weights`` times (a page's usual font
    size: its words' sizes weighted by their characters)."""
    order = np.argsort(values)
    cumulative = np.cumsum(weights[order])
    return float(values[order][np.searchsorted(cumulative, cumulative[-1] / 2)])


def _cell_bounds(boxes: NDArray[np.float64],
                 res: float) -> tuple[Ints, Ints, Ints, Ints]:
    """Grid cells (c0, r0, c1, r1), end exclusive, covered by each box, one cell of
    margin all round.  Boxes are inset by a quarter cell sideways, so a box never
    widens by a whole cell and a 3 pt gutter stays empty on a 1 pt grid."""
    inset = 0.25 * res
    c0 = np.floor((boxes[:, 0] + inset) / res).astype(np.intp) + 1
    c1 = np.maximum(np.ceil((boxes[:, 2] - inset) / res).astype(np.intp) + 1, c0 + 1)
    r0 = np.floor(boxes[:, 1] / res).astype(np.intp) + 1
    r1 = np.maximum(np.ceil(boxes[:, 3] / res).astype(np.intp) + 1, r0 + 1)
    return c0, r0, c1, r1


def _occupancy(boxes: NDArray[np.float64], rows: int, cols: int,
               res: float) -> NDArray[np.bool_]:
    """A boolean grid, True where any box covers a cell (see `_cell_bounds`).

    Each box adds one at its top-left corner and at its bottom-right one and takes
    one away at the other two; the sums over all cells above and to the left
    (OpenCV's integral image, several times faster than two ``np.cumsum``) count
    the boxes covering each cell.  Small whole numbers are exact in float32.
    """
    diff = np.zeros((rows + 1, cols + 1), dtype=np.float32)
    if len(boxes):
        c0, r0, c1, r1 = _cell_bounds(boxes, res)
        c0, c1 = np.clip(c0, 0, cols), np.clip(c1, 0, cols)
        r0, r1 = np.clip(r0, 0, rows), np.clip(r1, 0, rows)
        np.add.at(diff, (r0, c0), 1)
        np.add.at(diff, (r0, c1), -1)
        np.add.at(diff, (r1, c0), -1)
        np.add.at(diff, (r1, c1), 1)
    try:
        covered = cv2.integral(diff, sdepth=cv2.CV_32F)  # one more row and column, of zeros
    except cv2.error as exc:  # OpenCV's failed allocation, as Python names one
        if exc.code == cv2.Error.StsNoMem:
            raise MemoryError(str(exc)) from None
        raise
    return covered[1:rows + 1, 1:cols + 1] > 0


def _column_runs(flags: NDArray[np.bool_], min_length: float) -> tuple[Ints, Ints, Ints]:
    """The runs of True down each column of ``flags`` at least ``min_length`` long: their
    columns, first rows and ends (exclusive), by column, then top to bottom.

    Most runs of a page's free cells are the gaps between lines, a few cells each; the
    cells that start ``length`` True cells in a row are found first (by windows that
    double, then two that overlap), so that only the long runs are listed: each run of
    such starting cells is one of them, ``length - 1`` cells shorter."""
    length = max(1, math.ceil(min_length))
    if length > len(flags):
        empty = np.zeros(0, dtype=np.intp)
        return empty, empty, empty
    window, starts = 1, flags
    while 2 * window <= length:
        starts = starts[:-window] & starts[window:]
        window *= 2
    starts = starts[:len(flags) - length + 1] & starts[length - window:]
    padded = np.zeros((len(starts) + 2, flags.shape[1]), dtype=np.bool_)
    padded[1:-1] = starts
    # np.nonzero of a 2-d array takes twenty times as long as of a flat one
    row, col = np.divmod(np.flatnonzero(padded[1:] != padded[:-1]), padded.shape[1])
    order = np.lexsort((row, col))  # a column's changes alternate: starts, ends, ...
    row, col = row[order], col[order]
    return col[::2], row[::2], row[1::2] + length - 1


def true_runs(flags: NDArray[np.bool_]) -> list[tuple[int, int]]:
    """The (start, end) index pairs, end exclusive, of the runs of True in ``flags``."""
    padded = np.concatenate(([False], flags, [False])).astype(np.int8)
    edges = np.flatnonzero(np.diff(padded))
    return list(zip(edges[::2].tolist(), edges[1::2].tolist(), strict=True))


def distinct(rows: Ints) -> int:
    """How many distinct values the (small, non-negative) ``rows`` hold."""
    return int(np.count_nonzero(np.bincount(rows)))
