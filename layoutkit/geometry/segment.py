"""Page segmentation: whitespace gutters, column bands and the reading-order tree.

The body of a page is cut recursively, in the spirit of XY-cut, but a cut is
only made where the column structure changes::

    +---------------------------+      1. a strip of whitespace empty over the whole
    | col 1  |  col 2  |  col 3 |         region, with columns of text on both sides,
    |        |         |        |         cuts it vertically (a gutter);
    +---------------------------+      2. otherwise the tallest gutter that is blocked
    |   full-width ordinance    |         by a line crossing it (a full-width item, a
    +---------------------------+         rule) ends its band: the region is cut
    | col 1  |  col 2  |  col 3 |         horizontally at the widest empty gap where
    +---------------------------+         the columns stop and the crossing line starts.

Horizontal gaps inside a band of columns are never cut, however wide, so columns
keep their flow from top to bottom.  Whitespace is found on an occupancy grid
(``grid_resolution`` points a cell) of the words and of the horizontal rules long
enough to separate bands; vertical rules sit in gutters and are ignored.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from ..config import LayoutConfig
from ..model import BBox, Rule, Word

__all__ = [
    "Leaf", "Node", "PageCanvas", "Split", "bands_of", "force_columns", "prepare", "segment",
    "shared_gutters",
]

Ints = NDArray[np.intp]


@dataclass(frozen=True, slots=True)
class Leaf:
    """A region read as one column: the indexes of its words."""

    words: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Split:
    """A region cut into parts, read in order: side by side (``vertical``) or stacked."""

    vertical: bool
    parts: tuple[Node, ...]


Node = Leaf | Split


@dataclass(frozen=True, slots=True)
class _Gutter:
    """A whitespace strip: x range, y range (points) and the cells it spans."""

    x0: float
    x1: float
    top: float
    bottom: float


class _Canvas:
    """The arrays one page's segmentation works on, computed once per page."""

    def __init__(self, words: Sequence[Word], rules: Sequence[Rule], images: Sequence[BBox],
                 width: float, height: float, config: LayoutConfig) -> None:
        self.config = config
        self.res = config.gutters.grid_resolution
        self.box = np.array([(w.bbox.x0, w.bbox.top, w.bbox.x1, w.bbox.bottom) for w in words],
                            dtype=float).reshape(-1, 4)
        self.leader = np.array([_is_leader(w.text) for w in words], dtype=bool)
        sizes = np.array([w.size for w in words], dtype=float)
        weights = np.array([len(w.text) for w in words], dtype=float)
        self.size = _weighted_median(sizes, weights) if len(words) else 10.0
        self.baseline = np.round(self.box[:, 3] / max(config.gutters.baseline_bin_em * self.size,
                                                      self.res))
        # each word's baseline as a dense number, so that baselines are counted by
        # np.bincount instead of being sorted again for every strip tried
        self.row = np.unique(self.baseline, return_inverse=True)[1].reshape(-1)
        self.row_count = int(self.row.max()) + 1 if len(self.row) else 0
        # the narrowest gap between two columns' lines: wider than the page's word
        # spaces, so rivers of aligned spaces in justified text are not gutters
        self.space = _word_space(self.box, self.baseline,
                                 config.gutters.word_space_max_em * self.size)
        self.min_gap = max(config.gutters.gutter_min_width,
                           config.gutters.gutter_space_ratio * self.space)
        rows = int(np.ceil(height / self.res)) + 2
        cols = int(np.ceil(width / self.res)) + 2
        blocking = [r.bbox for r in rules
                    if r.horizontal and r.bbox.width >= config.gutters.rule_min_length]
        rule_box = np.array([(b.x0, b.top, b.x1, b.top) for b in blocking],
                            dtype=float).reshape(-1, 4)
        page_area = width * height
        largest = config.gutters.image_max_area * page_area
        pictures = [b for b in images if b.width * b.height <= largest]
        image_box = np.array([(b.x0, b.top, b.x1, b.bottom) for b in pictures],
                             dtype=float).reshape(-1, 4)
        self.grid = _occupancy(np.vstack([self.box, rule_box, image_box]), rows, cols, self.res)
        # free[r, c]: the window of cells c .. c + window - 1 of row r is empty
        self.window = max(1, round(config.gutters.gutter_min_width / self.res))
        empty, starts = ~self.grid, cols - self.window + 1
        self.free = np.logical_and.reduce([empty[:, k:k + starts] for k in range(self.window)])
        # the page's runs of free cells down each column, as long as the shortest strip
        # any region takes or longer: found once here, cut to each region's rows there
        fewest = min(config.gutters.gutter_min_lines, config.gutters.gutter_min_lines_on_grid)
        self.runs = _column_runs(self.free, fewest * self.size / self.res)

    def cells(self, idx: Ints) -> tuple[int, int, int, int]:
        """Grid bounds (r0, r1, c0, c1), end exclusive, tight around words ``idx``."""
        b = self.box[idx]
        hull = np.array([[b[:, 0].min(), b[:, 1].min(), b[:, 2].max(), b[:, 3].max()]])
        c0, r0, c1, r1 = (int(v[0]) for v in _cell_bounds(hull, self.res))
        return r0, r1, c0, c1

    def lines(self, idx: Ints) -> int:
        """How many distinct baselines the words ``idx`` stand on."""
        return _distinct(self.row[idx])

    def is_column(self, idx: Ints, min_lines: int) -> bool:
        """Whether words ``idx`` stand as a column does: ``min_lines`` lines or more,
        stacked densely enough to cover ``column_min_density`` of their height (a few
        labels strewn down a table's margin do not)."""
        lines = self.lines(idx)
        if lines < min_lines:
            return False
        box = self.box[idx]
        extent = float(box[:, 3].max() - box[:, 1].min())
        gutters = self.config.gutters
        return lines * gutters.line_pitch_em * self.size >= gutters.column_min_density * extent

    def _edges(self, idx: Ints, last: bool) -> tuple[NDArray[np.bool_], NDArray[np.float64]]:
        """Per text row of the page (by :attr:`row`): whether words ``idx`` stand on it,
        and the end of its last word (``last``) or the start of its first one."""
        rows = self.row[idx]
        present = np.zeros(self.row_count, dtype=np.bool_)
        present[rows] = True
        per_row = np.full(self.row_count, -np.inf if last else np.inf)
        (np.maximum if last else np.minimum).at(per_row, rows, self.box[idx, 2 if last else 0])
        return present, per_row

    def separates(self, left: Ints, right: Ints, x0: float, x1: float) -> bool:
        """Whether the strip from ``x0`` to ``x1`` between words ``left`` and ``right``
        separates columns rather than being a river of aligned word spaces.

        Two tests, on the rows next to the strip: the narrowest gap across it must
        be at least ``gutter_space_ratio`` times the page's median word space (a
        river is no wider than the spaces it is made of), and one side must be
        flush against it in ``column_min_flush`` of the rows (justified line ends
        on the left, or line starts on the right), where a river meanders.
        """
        left, right = self._adjacent(left, right, x0, x1)
        if not len(left) or not len(right):
            return False
        gaps = self._row_gaps(left, right)
        if len(gaps) and float(gaps.min()) < self.min_gap:
            return False
        ends = np.compress(*self._edges(left, last=True))
        starts = np.compress(*self._edges(right, last=False))
        tolerance = max(1.0, self.config.gutters.flush_tolerance_em * self.size)
        flush_left = float(np.mean(ends >= ends.max() - tolerance))
        flush_right = float(np.mean(starts <= starts.min() + tolerance))
        return max(flush_left, flush_right) >= self.config.gutters.column_min_flush

    def crosses(self, row_words: Ints, x0: float, x1: float, usual: float) -> bool:
        """Whether one text row (words ``row_words``) runs across the strip from ``x0``
        to ``x1``: the gap it leaves there is narrower than ``crossing_gap_ratio`` of
        the ``usual`` gap across the strip and no wider than ``word_space_ratio`` times
        the row's other word spaces.  A title set in a larger font can leave an
        ordinary word space of its own where the columns below have their gutter; the
        rows of the columns leave the whole gutter."""
        box = self.box[row_words[np.argsort(self.box[row_words, 0])]]
        gaps = box[1:, 0] - box[:-1, 2]
        across = (box[:-1, 2] <= x0 + self.res) & (box[1:, 0] >= x1 - self.res)
        others = gaps[~across & (gaps > 0)]
        if not across.any() or not len(others):
            return False
        return self.runs_on(float(gaps[across].max()), usual, float(np.median(others)))

    def runs_on(self, gap: float, usual: float, space: float) -> bool:
        """Whether a text row that leaves ``gap`` across a strip runs on across it: the
        gap is narrower than ``crossing_gap_ratio`` of the ``usual`` gap across the
        strip and no wider than ``word_space_ratio`` times the row's word ``space``.

        The one test of a row crossing a gutter, for :meth:`crosses` (auto mode) and
        for the full-width rows of :func:`force_columns` alike, which only measure the
        gap and the row's word space each their own way."""
        return (gap < self.config.gutters.crossing_gap_ratio * usual
                and gap <= self.config.gutters.word_space_ratio * space)

    def _adjacent(self, left: Ints, right: Ints, x0: float,
                  x1: float) -> tuple[Ints, Ints]:
        """The words of ``left`` and ``right`` within a column's width of the strip
        from ``x0`` to ``x1``: the neighbouring columns, not the ones beyond."""
        reach = self.config.gutters.column_min_width_em * self.size
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
        ``left`` and ``right`` next to it; infinite when no row has both sides."""
        gaps = self._row_gaps(*self._adjacent(left, right, x0, x1))
        return float(np.median(gaps)) if len(gaps) else float("inf")

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
        """Whether dot leaders of two or more lines among ``idx`` run up to ``x``: the
        strip after them separates a table's cells (or an index's page numbers),
        not columns of text."""
        reach = self.config.gutters.leader_reach_em * self.size
        near = idx[self.leader[idx] & (self.box[idx, 2] >= x - reach)]
        return self.lines(near) >= 2

    def is_gutter(self, left: Ints, right: Ints, x0: float, x1: float, lines: int, *,
                  edges: tuple[float, float] | None = None, on_grid: bool = False) -> bool:
        """Whether the strip from ``x0`` to ``x1`` is a gutter between columns: words
        ``left`` and ``right`` on both sides of it, each side at least
        ``column_min_width_em`` wide from the strip to its outer edge (``edges``, left
        and right; by default where the side's own words end), no dot leaders running
        up to it (see :meth:`leads_into`), and either the strip lies on the document's
        column grid (``on_grid``, the caller's test) or both sides stand as columns of
        ``lines`` lines or more that it separates (see :meth:`is_column`,
        :meth:`separates`).

        The one test of a gutter, for the strips that cut a region into columns and
        for the tall strips that end a band alike."""
        if not len(left) or not len(right):
            return False
        if edges is None:
            edges = (float(self.box[left, 0].min()), float(self.box[right, 2].max()))
        min_width = self.config.gutters.column_min_width_em * self.size
        if (x0 - edges[0] < min_width or edges[1] - x1 < min_width
                or self.leads_into(left, x0)):
            return False
        return on_grid or (self.is_column(left, lines) and self.is_column(right, lines)
                           and self.separates(left, right, x0, x1))


_LEADER_CHARS = ".·…_"


def _is_leader(text: str) -> bool:
    """Whether a word is a run of leader dots (or a single spaced leader dot)."""
    return not text.strip(_LEADER_CHARS) and (len(text) >= 3 or text in ".…·")


def _word_space(box: NDArray[np.float64], baseline: NDArray[np.float64], widest: float) -> float:
    """The median gap between neighbouring words of a text row (gaps of ``widest`` or
    more, which are gutters or tab stops, left out); 0 when the page has no such gaps."""
    order = np.lexsort((box[:, 0], baseline))
    b, row = box[order], baseline[order]
    gap = b[1:, 0] - b[:-1, 2]
    spaces = gap[(row[1:] == row[:-1]) & (gap > 0) & (gap < widest)]
    return float(np.median(spaces)) if len(spaces) else 0.0


def _weighted_median(values: NDArray[np.float64], weights: NDArray[np.float64]) -> float:
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
    """A boolean grid, True where any box covers a cell (see :func:`_cell_bounds`).

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
    covered = cv2.integral(diff, sdepth=cv2.CV_32F)  # one more row and column, of zeros
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


def _runs(flags: NDArray[np.bool_]) -> list[tuple[int, int]]:
    """The (start, end) index pairs, end exclusive, of the runs of True in ``flags``."""
    padded = np.concatenate(([False], flags, [False])).astype(np.int8)
    edges = np.flatnonzero(np.diff(padded))
    return list(zip(edges[::2].tolist(), edges[1::2].tolist(), strict=True))


@dataclass(frozen=True, slots=True)
class PageCanvas:
    """A page body prepared for segmentation, with the gutters found on it alone."""

    canvas: _Canvas
    gutters: tuple[tuple[float, float], ...]


def prepare(words: Sequence[Word], rules: Sequence[Rule], images: Sequence[BBox], width: float,
            height: float, config: LayoutConfig) -> PageCanvas:
    """A page body's occupancy grid and its tall gutters (x ranges).

    ``rules`` are the page's ruling lines (long horizontal ones separate bands),
    ``images`` the boxes of its pictures (a picture across a gutter separates bands).
    """
    canvas = _Canvas(words, rules, images, width, height, config)
    everything = np.arange(len(words), dtype=np.intp)
    found = _tall_gutters(canvas, everything) if len(words) else []
    widest = config.gutters.column_min_width_em * canvas.size  # wider strips are empty areas
    return PageCanvas(canvas, tuple((g.x0, g.x1) for g in found if g.x1 - g.x0 <= widest))


def shared_gutters(pages: Sequence[Sequence[tuple[float, float]]],
                   config: LayoutConfig) -> tuple[tuple[float, float], ...]:
    """The gutter x ranges found on at least ``grid_min_pages`` pages of a document,
    given each page's own gutters (:attr:`PageCanvas.gutters`).

    A publication keeps its column grid from page to page, so a gutter seen beside
    long columns elsewhere also separates the short column runs of a page (three
    lines above a figure, a few lines before a full-width item).  Overlapping
    ranges form one gutter, represented by the medians of their edges.
    """
    ranges = sorted((x0, x1, p) for p, gutters in enumerate(pages) for x0, x1 in gutters)
    shared: list[tuple[float, float]] = []
    k = 0
    while k < len(ranges):
        members = [ranges[k]]
        reach = ranges[k][1]
        k += 1
        while k < len(ranges) and ranges[k][0] <= reach:
            members.append(ranges[k])
            reach = max(reach, ranges[k][1])
            k += 1
        if len({m[2] for m in members}) >= config.gutters.grid_min_pages:
            shared.append((float(np.median([m[0] for m in members])),
                           float(np.median([m[1] for m in members]))))
    return tuple(shared)


def _on_grid(x0s: NDArray[np.float64], x1s: NDArray[np.float64],
             known: Sequence[tuple[float, float]], overlap: float) -> NDArray[np.bool_]:
    """Whether each strip (from ``x0s`` to ``x1s``) lies on the document's column grid:
    it shares at least ``overlap`` of the narrower of the two with one of the gutters
    ``known``.  Works on every strip of a region at once; a single strip is an array
    of one."""
    found = np.zeros(len(x0s), dtype=np.bool_)
    for g0, g1 in known:
        found |= (np.minimum(x1s, g1) - np.maximum(x0s, g0)
                  >= overlap * np.minimum(x1s - x0s, g1 - g0))
    return found


def segment(page: PageCanvas, shared: Sequence[tuple[float, float]] = (),
            words: Sequence[int] | None = None) -> Node:
    """The reading-order tree of a prepared page body (leaves hold word indexes).

    ``shared`` are gutters of the document (see :func:`shared_gutters`) that may
    cut short column runs on this page too.  ``words`` (indexes) limits the cut to
    part of the page, such as a profile's region.
    """
    idx = _indexes(page, words)
    if not len(idx):
        return Leaf(())
    return _cut(page.canvas, idx, shared)


def _indexes(page: PageCanvas, words: Sequence[int] | None) -> Ints:
    if words is None:
        return np.arange(len(page.canvas.box), dtype=np.intp)
    return np.array(sorted(words), dtype=np.intp)


def force_columns(page: PageCanvas, count: int, gutters: Sequence[float] = (),
                  words: Sequence[int] | None = None) -> Node:
    """The words (indexes, default all) read as ``count`` columns split at ``gutters``
    (x centres), or at the emptiest vertical strips near the even divisions of the
    region.  Text rows with a word across a gutter, or that run on across it with an
    ordinary word space, are full-width rows, and so are the rows at their line
    spacing just above or below them: each run of them is a band between bands of
    columns.

    Exists for profiles that know a page's column count where auto mode would not
    find it (a few lines per column, gutters crossed by table cells).
    """
    idx = _indexes(page, words)
    if count < 2 or not len(idx):
        return Leaf(tuple(idx.tolist()))
    canvas = page.canvas
    cuts = np.array(sorted(gutters) if gutters else _emptiest(canvas, idx, count))
    box = canvas.box[idx]
    crossing = ((box[:, 0][:, None] < cuts) & (box[:, 2][:, None] > cuts)).any(axis=1)
    rows = canvas.baseline[idx]
    full = np.isin(rows, np.concatenate([rows[crossing], _spanning_rows(canvas, idx, cuts)]))
    ordered = np.unique(rows)
    flags = _close_rows(canvas, idx, ordered, np.isin(ordered, rows[full]))
    slabs: list[tuple[float, Node]] = []
    for a, b in _runs(flags) + _runs(~flags):
        inside = idx[(rows >= ordered[a]) & (rows <= ordered[b - 1])]
        top = float(canvas.box[inside, 1].min())
        if flags[a]:
            node: Node = Leaf(tuple(inside.tolist()))
        else:
            column = np.searchsorted(cuts, (canvas.box[inside, 0] + canvas.box[inside, 2]) / 2)
            node = Split(True, tuple(Leaf(tuple(inside[column == k].tolist()))
                                     for k in range(len(cuts) + 1)))
        slabs.append((top, node))
    parts = tuple(node for _, node in sorted(slabs, key=lambda s: s[0]))
    return parts[0] if len(parts) == 1 else Split(False, parts)


def _close_rows(canvas: _Canvas, idx: Ints, ordered: NDArray[np.float64],
                flags: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """``flags`` (full-width rows, by baseline key ``ordered``) extended over the rows
    that stand at the full-width rows' own line spacing above or below them: the
    short last line of a full-width paragraph, a title set just above it."""
    rows = canvas.baseline[idx]
    tops = np.array([canvas.box[idx[rows == r], 1].min() for r in ordered])
    bottoms = np.array([canvas.box[idx[rows == r], 3].max() for r in ordered])
    gaps = tops[1:] - bottoms[:-1]
    inner = gaps[flags[1:] & flags[:-1]]
    close = (float(np.median(inner)) if len(inner) else 0.0) + \
        canvas.config.profile.span_gap_em * canvas.size
    flags = flags.copy()
    for k in range(1, len(flags)):
        flags[k] |= flags[k - 1] and gaps[k - 1] <= close
    for k in range(len(flags) - 2, -1, -1):
        flags[k] |= flags[k + 1] and gaps[k] <= close
    return flags


def _spanning_rows(canvas: _Canvas, idx: Ints,
                   cuts: NDArray[np.float64]) -> NDArray[np.float64]:
    """The rows (baseline keys) of words ``idx`` that run on across a cut with an
    ordinary word space (a title whose word gap happens to fall on the gutter), by
    :meth:`_Canvas.runs_on`: the gap across the cut measured against the usual gap
    there and the row's other word spaces (the page's, for a row of two words)."""
    rows = canvas.baseline[idx]
    centre = (canvas.box[idx, 0] + canvas.box[idx, 2]) / 2
    spanning: list[float] = []
    for cut in cuts.tolist():
        gaps: dict[float, float] = {}
        for row in np.unique(rows).tolist():
            words = idx[rows == row]
            left, right = words[centre[rows == row] < cut], words[centre[rows == row] >= cut]
            if len(left) and len(right):
                gaps[row] = float(canvas.box[right, 0].min() - canvas.box[left, 2].max())
        usual = float(np.median(list(gaps.values()))) if gaps else 0.0
        for row, gap in gaps.items():
            ordered = np.sort(canvas.box[idx[rows == row]][:, [0, 2]], axis=0)
            spaces = ordered[1:, 0] - ordered[:-1, 1]
            others = spaces[(spaces > 0) & (spaces < gap)]
            space = float(np.median(others)) if len(others) else canvas.space
            if canvas.runs_on(gap, usual, space):
                spanning.append(row)
    return np.array(spanning, dtype=float)


def _emptiest(canvas: _Canvas, idx: Ints, count: int) -> list[float]:
    """The x centres of the ``count - 1`` least occupied grid columns of the region,
    one near each even division of its width (within half a column of it)."""
    r0, r1, c0, c1 = canvas.cells(idx)
    load = canvas.grid[r0:r1, c0:c1].sum(axis=0)
    width = c1 - c0
    cuts = []
    for k in range(1, count):
        lo = max(1, round((k - 0.5) * width / count))
        hi = min(width - 1, round((k + 0.5) * width / count))
        window = load[lo:hi]
        best = _runs(window == window.min())
        a, b = max(best, key=lambda run: run[1] - run[0])
        cuts.append((c0 + lo + (a + b) / 2 - 1) * canvas.res)
    return cuts


def _cut(canvas: _Canvas, idx: Ints, known: Sequence[tuple[float, float]]) -> Node:
    """Cut the region holding words ``idx``: gutters first, then band boundaries."""
    parts = _vertical_parts(canvas, idx, known)
    if parts is not None:
        return Split(True, tuple(_cut(canvas, part, known) for part in parts))
    for gutter in _tall_gutters(canvas, idx, known):
        slabs = _band_slabs(canvas, idx, gutter)
        if slabs is not None:
            return Split(False, tuple(_cut(canvas, slab, known) for slab in slabs))
    return Leaf(tuple(sorted(idx.tolist())))


def _vertical_parts(canvas: _Canvas, idx: Ints,
                    known: Sequence[tuple[float, float]]) -> list[Ints] | None:
    """The columns of a region, split at whitespace strips empty over its whole height.

    A strip counts when both sides hold text at least ``column_min_width_em`` wide
    and either it runs beside ``gutter_min_lines`` lines on each side or it lies on
    the document's column grid (``known``) with two lines or more on each side (short
    column runs before a full-width item keep the document's gutters).
    """
    config, res = canvas.config, canvas.res
    r0, r1, c0, c1 = canvas.cells(idx)
    empty = np.logical_not(canvas.grid[r0:r1, c0:c1].any(axis=0))
    min_cells = max(1, round(config.gutters.gutter_min_width / res))
    box = canvas.box[idx]
    cuts: list[float] = []
    left_edge = float(box[:, 0].min())
    region_right = float(box[:, 2].max())
    for a, b in _runs(empty):
        if b - a < min_cells or a == 0 or b == len(empty):
            continue
        x_left, x_right = (c0 + a - 1) * res, (c0 + b - 1) * res
        left = idx[(box[:, 2] <= x_left + res) & (box[:, 0] >= left_edge - res)]
        right = idx[box[:, 0] >= x_right - res]
        usual = canvas.usual_gap(left, right, x_left, x_right) if len(left) and len(right) \
            else 0.0
        if any(canvas.crosses(row, x_left, x_right, usual) for row in canvas.end_rows(idx)):
            continue
        on_grid = (min(canvas.lines(left), canvas.lines(right)) >= 2
                   and bool(_on_grid(np.array([x_left]), np.array([x_right]), known,
                                     config.gutters.grid_overlap)[0]))
        if canvas.is_gutter(left, right, x_left, x_right, config.gutters.gutter_min_lines,
                            edges=(left_edge, region_right), on_grid=on_grid):
            cuts.append((x_left + x_right) / 2)
            left_edge = x_right
    if not cuts:
        return None
    centre = (box[:, 0] + box[:, 2]) / 2
    column = np.searchsorted(np.array(cuts), centre)
    return [idx[column == k] for k in range(len(cuts) + 1)]


def _tall_gutters(canvas: _Canvas, idx: Ints,
                  known: Sequence[tuple[float, float]] = ()) -> list[_Gutter]:
    """Whitespace strips of the region that run beside enough lines of text on both
    sides to separate columns, tallest first.  A strip where the document's column
    grid (``known``) has a gutter needs fewer lines than one elsewhere."""
    config, res = canvas.config, canvas.res
    r0, r1, c0, c1 = canvas.cells(idx)
    w = canvas.window
    if c1 - c0 <= w + 2:
        return []
    # windows that lie wholly inside the region see only the region's cells
    free = canvas.free[r0:r1, c0:c1 - w + 1]
    height, width = free.shape
    gutters = config.gutters
    fewest = min(gutters.gutter_min_lines, gutters.gutter_min_lines_on_grid) if known else \
        gutters.gutter_min_lines
    # the page's runs of free cells in the region's columns cut to its rows: the region's
    # runs, in its cells, those long enough for a strip
    page_col, page_start, page_end = canvas.runs
    inside = (page_col >= c0) & (page_col < c0 + width)
    run_col = page_col[inside] - c0
    run_start = np.maximum(page_start[inside], r0) - r0
    run_end = np.minimum(page_end[inside], r0 + height) - r0
    long = (run_end > run_start) & (run_end - run_start >= fewest * canvas.size / res)
    run_col, run_start, run_end = run_col[long], run_start[long], run_end[long]
    # the strips: runs off the region's edge columns; the same run in neighbouring
    # columns is one strip, kept at its leftmost column
    keep = np.flatnonzero((run_col >= 1) & (run_col <= width - 2))
    keep = keep[np.lexsort((run_col[keep], run_end[keep], run_start[keep]))]
    repeat = ((run_start[keep][1:] == run_start[keep][:-1])
              & (run_end[keep][1:] == run_end[keep][:-1])
              & (run_col[keep][1:] == run_col[keep][:-1] + 1))
    keep = keep[np.concatenate(([True], ~repeat))[: len(keep)]]
    keep = keep[np.argsort(run_start[keep] - run_end[keep], kind="stable")]  # tallest first
    col, rs, re = run_col[keep], run_start[keep], run_end[keep]
    # each strip widened over the columns next to it that are free over the same rows:
    # those with a run that holds its rows
    holds = (run_start <= rs[:, None]) & (run_end >= re[:, None])
    free_over = np.zeros((len(keep), width), dtype=np.bool_)
    strip_at, run_at = np.divmod(np.flatnonzero(holds), holds.shape[1])
    free_over[strip_at, run_col[run_at]] = True
    columns = np.arange(width)
    lo = np.where(~free_over & (columns < col[:, None]), columns, -1).max(axis=1, initial=-1) + 1
    hi = np.where(~free_over & (columns > col[:, None]), columns, width).min(
        axis=1, initial=width) - 1
    x0s, x1s = (c0 + lo - 1) * res, (c0 + hi + w - 1) * res
    on_grid = _on_grid(x0s, x1s, known, config.gutters.grid_overlap)
    box = canvas.box[idx]
    centre_y = (box[:, 1] + box[:, 3]) / 2
    # the words by height on the page: those beside a strip are a slice of them
    by_y = np.argsort(centre_y, kind="stable")
    y_sorted, row_by_y = centre_y[by_y], canvas.row[idx[by_y]]
    end_by_y, start_by_y = box[by_y, 2], box[by_y, 0]
    found: list[_Gutter] = []
    judged = np.zeros_like(free)  # cells of strips already judged, kept or not
    for column, first, end, left_col, right_col, x0, x1, grid in zip(
            col.tolist(), rs.tolist(), re.tolist(), lo.tolist(), hi.tolist(), x0s.tolist(),
            x1s.tolist(), on_grid.tolist(), strict=True):
        if judged[first:end, column].all():
            continue
        top, bottom = (r0 + first - 1) * res, (r0 + end - 1) * res
        judged[first:end, left_col:right_col + 1] = True
        if any(x0 < g.x1 and g.x0 < x1 and top < g.bottom and g.top < bottom for g in found):
            continue  # a shorter run beside ragged line ends of a gutter already found
        lines = config.gutters.gutter_min_lines_on_grid if grid else config.gutters.gutter_min_lines
        near = slice(y_sorted.searchsorted(top, "left"), y_sorted.searchsorted(bottom, "right"))
        if (_distinct(row_by_y[near][end_by_y[near] <= x0 + res]) < lines
                or _distinct(row_by_y[near][start_by_y[near] >= x1 - res]) < lines):
            continue  # trimming the run below can only take lines away
        top, bottom = _trim_crossing(canvas, idx, centre_y, top, bottom, x0, x1)
        beside = (centre_y >= top) & (centre_y <= bottom)
        left = idx[beside & (box[:, 2] <= x0 + res)]
        right = idx[beside & (box[:, 0] >= x1 - res)]
        if not canvas.is_gutter(left, right, x0, x1, lines):
            continue
        found.append(_Gutter(x0, x1, top, bottom))
    return found


def _distinct(rows: Ints) -> int:
    """How many distinct values the (small, non-negative) ``rows`` hold."""
    return int(np.count_nonzero(np.bincount(rows)))


def _trim_crossing(canvas: _Canvas, idx: Ints, centre_y: NDArray[np.float64], top: float,
                   bottom: float, x0: float, x1: float) -> tuple[float, float]:
    """The run of a strip from ``top`` to ``bottom`` without the text rows at its ends
    that run across it (see :meth:`_Canvas.crosses`): the run ends above (below) such
    a row, which then blocks the gutter like any full-width line."""
    for _ in range(3):
        beside = idx[(centre_y >= top) & (centre_y <= bottom)]
        left = beside[canvas.box[beside, 2] <= x0 + canvas.res]
        right = beside[canvas.box[beside, 0] >= x1 - canvas.res]
        if not len(left) or not len(right):
            break
        usual = canvas.usual_gap(left, right, x0, x1)
        rows = canvas.end_rows(beside)
        first, last = rows[0], rows[-1]
        if canvas.crosses(first, x0, x1, usual):
            top = float(canvas.box[first, 3].max())
        elif len(rows) > 1 and canvas.crosses(last, x0, x1, usual):
            bottom = float(canvas.box[last, 1].min())
        else:
            break
    return top, bottom


def _band_slabs(canvas: _Canvas, idx: Ints, gutter: _Gutter) -> list[Ints] | None:
    """The region cut into stacked slabs so that ``gutter`` spans one slab's height.

    Where the gutter's columns end (one side of it has run out of text) and the
    line that blocks it begins, the cut goes through the widest horizontal gap;
    gaps within ``cut_tie_ratio`` of the widest count as equal and the one
    nearest the blocking line wins, so the tail of a longer column stays with its
    columns.  Returns None when no cut is possible.
    """
    res = canvas.res
    r0, r1, c0, c1 = canvas.cells(idx)
    box = canvas.box[idx]
    region_top, region_bottom = float(box[:, 1].min()), float(box[:, 3].max())
    centre_y = (box[:, 1] + box[:, 3]) / 2
    beside = (centre_y >= gutter.top) & (centre_y <= gutter.bottom)
    left = box[beside & (box[:, 2] <= gutter.x0 + res)]
    right = box[beside & (box[:, 0] >= gutter.x1 - res)]
    core_top = max(left[:, 1].min(), right[:, 1].min())
    core_bottom = min(left[:, 3].max(), right[:, 3].max())
    gaps = [((r0 + a - 1) * res, (r0 + b - 1) * res)
            for a, b in _runs(np.logical_not(canvas.grid[r0:r1, c0:c1].any(axis=1)))]
    cuts: list[float] = []
    if gutter.top > region_top + 2 * res:
        above = [g for g in gaps if g[1] <= core_top + res and g[0] >= gutter.top - 2 * res]
        cut = _widest(above, canvas.config.gutters.cut_tie_ratio, prefer_low=False)
        if cut is not None:
            cuts.append(cut)
    if gutter.bottom < region_bottom - 2 * res:
        below = [g for g in gaps if g[0] >= core_bottom - res and g[1] <= gutter.bottom + 2 * res]
        cut = _widest(below, canvas.config.gutters.cut_tie_ratio, prefer_low=True)
        if cut is not None:
            cuts.append(cut)
    if not cuts:
        return None
    slab = np.searchsorted(np.array(sorted(cuts)), centre_y)
    slabs = [idx[slab == k] for k in range(len(cuts) + 1)]
    slabs = [s for s in slabs if len(s)]
    return slabs if len(slabs) > 1 else None


def _widest(gaps: Sequence[tuple[float, float]], tie_ratio: float, *,
            prefer_low: bool) -> float | None:
    """The middle of the widest gap; among near-equal ones the lowest (or highest)."""
    if not gaps:
        return None
    widest = max(b - a for a, b in gaps)
    ties = [g for g in gaps if g[1] - g[0] >= tie_ratio * widest]
    a, b = max(ties) if prefer_low else min(ties)
    return (a + b) / 2


def bands_of(tree: Node) -> list[list[list[Leaf]]]:
    """The tree flattened into bands (top to bottom) of columns (left to right) of
    leaves (in reading order)."""
    if isinstance(tree, Leaf):
        return [[[tree]]] if tree.words else []
    if not tree.vertical:
        return [band for part in tree.parts for band in bands_of(part)]
    return [[_leaves(part) for part in tree.parts]]


def _leaves(tree: Node) -> list[Leaf]:
    if isinstance(tree, Leaf):
        return [tree] if tree.words else []
    return [leaf for part in tree.parts for leaf in _leaves(part)]
