"""Gutters: the whitespace strips that separate columns, and the document's column grid.

- `prepare` makes a page body's `Canvas` and finds its own tall gutters
  (`gutter_min_lines` lines on each side, text `column_min_width_em` wide); a gutter's
  run is cut back at most `crossing_max_trims` times where a row runs across it.
- `shared_gutters` keeps those that recur on enough pages (`grid_min_pages`), the
  document's grid, which lets a short run of columns on one page be split too: a strip
  on it (`grid_overlap`) needs only `gutter_min_lines_on_grid` lines.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ..config import GuttersConfig
from ..model import BBox, Rule, Word
from .grid import Canvas, Gutter, Ints, distinct

__all__ = ["Gutters", "PageCanvas", "on_column_grid", "prepare", "shared_gutters",
           "tall_gutters"]

Gutters = tuple[tuple[float, float], ...]
"""The x ranges (left, right) of a page's or a document's column gutters."""


@dataclass(frozen=True, slots=True)
class PageCanvas:
    """A page body prepared for segmentation, with the gutters found on it alone."""

    canvas: Canvas
    gutters: Gutters

    @property
    def gridded(self) -> bool:
        """Whether the page's rules draw a ruled table's grid: a vertical rule crossed by
        horizontal rules on both its sides between rows (a cell wall,
        `Canvas.cell_walls`).  Only such a page is worth handing to a table finder
        that reads the document once more."""
        return bool(self.canvas.cell_walls.any())


def prepare(words: Sequence[Word], rules: Sequence[Rule], images: Sequence[BBox], width: float,
            height: float, config: GuttersConfig) -> PageCanvas:
    """A page body's occupancy grid and its tall gutters (x ranges).

    ``rules`` are the page's ruling lines (long horizontal ones separate bands),
    ``images`` the boxes of its figures (a figure across a gutter separates bands;
    a background picture, [`figures`][layoutkit.model.PageGlyphs.figures], is not one).
    """
    canvas = Canvas(words, rules, images, width, height, config)
    everything = np.arange(len(words), dtype=np.intp)
    found = tall_gutters(canvas, everything) if len(words) else []
    widest = config.column_min_width_em * canvas.size  # wider strips are empty areas
    return PageCanvas(canvas, tuple((g.x0, g.x1) for g in found if g.x1 - g.x0 <= widest))


def shared_gutters(pages: Sequence[Gutters], config: GuttersConfig) -> Gutters:
    """The gutter x ranges found on at least ``grid_min_pages`` pages of a document,
    given each page's own gutters (`PageCanvas.gutters`).

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
        if len({m[2] for m in members}) >= config.grid_min_pages:
            shared.append((float(np.median([m[0] for m in members])),
                           float(np.median([m[1] for m in members]))))
    return tuple(shared)


def on_column_grid(x0s: NDArray[np.float64], x1s: NDArray[np.float64],
             known: Gutters, overlap: float) -> NDArray[np.bool_]:
    """Whether each strip (from ``x0s`` to ``x1s``) lies on the document's column grid:
    it shares at least ``overlap`` of the narrower of the two with one of the gutters
    ``known``.  Works on every strip of a region at once; a single strip is an array
    of one."""
    found = np.zeros(len(x0s), dtype=np.bool_)
    for g0, g1 in known:
        found |= (np.minimum(x1s, g1) - np.maximum(x0s, g0)
                  >= overlap * np.minimum(x1s - x0s, g1 - g0))
    return found


def tall_gutters(canvas: Canvas, idx: Ints,
                  known: Gutters = ()) -> list[Gutter]:
    """Whitespace strips of the region that run beside enough lines of text on both
    sides to separate columns, tallest first.  A strip where the document's column
    grid (``known``) has a gutter needs fewer lines than one elsewhere; a picture
    standing against a strip counts the lines its height holds
    (`layoutkit.geometry.grid.Canvas.against`)."""
    config, res = canvas.config, canvas.res
    r0, r1, c0, c1 = canvas.cells(idx)
    w = canvas.window
    if c1 - c0 <= w + 2:
        return []
    # windows that lie wholly inside the region see only the region's cells
    free = canvas.free[r0:r1, c0:c1 - w + 1]
    height, width = free.shape
    gutters = config
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
    on_grid = on_column_grid(x0s, x1s, known, config.grid_overlap)
    box = canvas.box[idx]
    centre_y = (box[:, 1] + box[:, 3]) / 2
    # the words by height on the page: those beside a strip are a slice of them
    by_y = np.argsort(centre_y, kind="stable")
    y_sorted, row_by_y = centre_y[by_y], canvas.row[idx[by_y]]
    end_by_y, start_by_y = box[by_y, 2], box[by_y, 0]
    found: list[Gutter] = []
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
        ruled = canvas.ruled(x0, x1, top, bottom)
        lines = config.gutter_min_lines_on_grid if grid or ruled else config.gutter_min_lines
        near = slice(y_sorted.searchsorted(top, "left"), y_sorted.searchsorted(bottom, "right"))
        beside = (distinct(row_by_y[near][end_by_y[near] <= x0 + res]),
                  distinct(row_by_y[near][start_by_y[near] >= x1 - res]))
        if min(beside) < lines and any(
                count + canvas.picture_lines(side) < lines
                for count, side in zip(beside, canvas.against(x0, x1, top, bottom), strict=True)):
            continue  # trimming the run below can only take lines away
        top, bottom = _trim_crossing(canvas, idx, centre_y, top, bottom, x0, x1)
        if _judged_gutter(canvas, idx, centre_y, top, bottom, x0, x1, lines, ruled):
            found.append(Gutter(x0, x1, top, bottom))
    return found


def _judged_gutter(canvas: Canvas, idx: Ints, centre_y: NDArray[np.float64], top: float,
                   bottom: float, x0: float, x1: float, lines: int, ruled: bool) -> bool:
    """Whether the strip from ``x0`` to ``x1``, running from ``top`` to ``bottom``, is
    a gutter (`Canvas.is_gutter`) beside the words of region ``idx`` along its
    run, or else beside those where both its sides have text, out to the white space
    around them: a strip running on past one side's column (down a picture beside
    headings, say) takes in text that stands as no column.  The gutter keeps its
    whole run either way, so where its band ends is chosen as for any other.  A
    ``ruled`` strip (a vertical rule down it) is judged as one on the column grid."""
    box, res = canvas.box[idx], canvas.res

    def beside(upper: float, lower: float) -> tuple[Ints, Ints]:
        near = (centre_y >= upper) & (centre_y <= lower)
        return idx[near & (box[:, 2] <= x0 + res)], idx[near & (box[:, 0] >= x1 - res)]

    left, right = beside(top, bottom)
    if canvas.is_gutter(left, right, x0, x1, lines, on_grid=ruled):
        return True
    if not len(left) or not len(right):
        return False
    first = max(float(canvas.box[left, 1].min()), float(canvas.box[right, 1].min()))
    last = min(float(canvas.box[left, 3].max()), float(canvas.box[right, 3].max()))
    left, right = beside(max([top, *box[box[:, 3] <= first, 3].tolist()]),
                         min([bottom, *box[box[:, 1] >= last, 1].tolist()]))
    return canvas.is_gutter(left, right, x0, x1, lines, on_grid=ruled)


def _trim_crossing(canvas: Canvas, idx: Ints, centre_y: NDArray[np.float64], top: float,
                   bottom: float, x0: float, x1: float) -> tuple[float, float]:
    """The run of a strip from ``top`` to ``bottom`` without the text rows at its ends
    that run across it (see `Canvas.crosses`): the run ends above (below) such
    a row, which then blocks the gutter like any full-width line."""
    for _ in range(canvas.config.crossing_max_trims):
        beside = idx[(centre_y >= top) & (centre_y <= bottom)]
        left = beside[canvas.box[beside, 2] <= x0 + canvas.res]
        right = beside[canvas.box[beside, 0] >= x1 - canvas.res]
        if not len(left) or not len(right):
            break
        rows = canvas.end_rows(beside)
        first, last = rows[0], rows[-1]
        if canvas.blocks(first, left, right, x0, x1):
            top = float(canvas.box[first, 3].max())
        elif len(rows) > 1 and canvas.blocks(last, left, right, x0, x1):
            bottom = float(canvas.box[last, 1].min())
        else:
            break
    return top, bottom
