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

A region is cut at, in turn: gutters, side headings, band boundaries, gutters closed
off by a picture or a rule alone, and blocks of stacks set side by side.

- Horizontal gaps inside a band of columns are never cut, however wide, so columns
  keep their flow from top to bottom.
- Whitespace is found on the page's occupancy grid (`grid`); the gutters of the page
  and of the document come from `gutters`.
- A strip parts columns with text `column_min_width_em` wide on each side and
  `gutter_min_lines` lines beside it, or on the column grid (`grid_overlap`) with
  `grid_cut_min_lines`, or down a vertical rule; a ruled table's cell wall parts none.
- Side headings in a left margin start level with a line of their text, baselines
  within `side_head_align_em`; each reads before the text down to the next heading.
- Among gaps nearly as wide as the widest, the one nearest the crossing line wins
  (`cut_tie_ratio`).
- The head of one column, above the other columns' first lines, closes the band above
  when the white under it is `band_lead_gap_ratio` times the white over it (an address
  line under a masthead, beside the top of a sidebar).
- Stacks of lines set side by side (signatures, addresses) stand apart by
  `stack_gap_em` above and below, and share at most `stack_max_level_rows` level rows;
  more are a table's rows, read row by row.  Cards (stacks each headed by a number in
  display type, or centred stacks one of which stands level with none of the others)
  are read stack by stack too, and so are stacks of two rows or more set at heights
  of their own, level on fewer than half the rows of the shorter (`_interleaved`).
- `force_columns` reads a region as a profile's number of columns instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations, pairwise

import numpy as np
from numpy.typing import NDArray

from .grid import Canvas, Gutter, Ints, distinct, true_runs
from .gutters import Gutters, PageCanvas, on_column_grid, tall_gutters

__all__ = ["Leaf", "Node", "Split", "bands_of", "force_columns", "mirrored", "segment"]

_SPAN_GAP_EM = 0.25
"""With a profile's forced columns, a row joins the full-width rows next to it when the
gap between them exceeds their own line gap by at most this many times the font size
(the short last line of a full-width paragraph, a title just above).  Not a parameter:
half or twice it reads the profiled publications' labelled pages alike."""

_SIDE_HEAD_GAP_EM = 1.6
"""Lines of a side heading (in the margin beside its text) stand no further apart than
this many times the body font size; a wider gap starts the next heading.  Not a
parameter: half or twice it reads the labelled pages alike."""


_DISPLAY_SIZE_RATIO = 2.0
"""A key figure's number is set at least this many times the size of its caption.  Not
a parameter: the labelled key-figure pages set theirs three to eight times as large."""


@dataclass(frozen=True, slots=True)
class Leaf:
    """A region read as one column: the indexes of its words."""

    words: tuple[int, ...]
    whole: bool = False
    """Read as it stands (a profile's single or positional layout): its lines in the
    page's order, never in the content stream's (`layoutkit.reading.stream`)."""


@dataclass(frozen=True, slots=True)
class Split:
    """A region cut into parts, read in order: side by side (``vertical``) or stacked."""

    vertical: bool
    parts: tuple[Node, ...]


Node = Leaf | Split


def segment(page: PageCanvas, shared: Gutters = (),
            words: Sequence[int] | None = None) -> Node:
    """The reading-order tree of a prepared page body (leaves hold word indexes).

    ``shared`` are gutters of the document (see
    `shared_gutters`) that may
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


def force_columns(page: PageCanvas, count: int,
                  gutters: Sequence[float] = (), words: Sequence[int] | None = None) -> Node:
    """The words (indexes, default all) read as ``count`` columns split at ``gutters``
    (x centres), or at the emptiest vertical strips near the even divisions of the
    region.  Text rows with a word across a gutter, or that run on across it with an
    ordinary word space, are full-width rows, and so are the rows at their line
    spacing (up to `_SPAN_GAP_EM` more) just above or below them: each
    run of them is a band between bands of columns.

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
    for a, b in true_runs(flags) + true_runs(~flags):
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


def _close_rows(canvas: Canvas, idx: Ints, ordered: NDArray[np.float64],
                flags: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """``flags`` (full-width rows, by baseline key ``ordered``) extended over the rows
    that stand at the full-width rows' own line spacing (up to `_SPAN_GAP_EM` times
    the font size more) above or below them: the short last line of a full-width
    paragraph, a title set just above it."""
    rows = canvas.baseline[idx]
    tops = np.array([canvas.box[idx[rows == r], 1].min() for r in ordered])
    bottoms = np.array([canvas.box[idx[rows == r], 3].max() for r in ordered])
    gaps = tops[1:] - bottoms[:-1]
    inner = gaps[flags[1:] & flags[:-1]]
    close = (float(np.median(inner)) if len(inner) else 0.0) + \
        _SPAN_GAP_EM * canvas.size
    flags = flags.copy()
    for k in range(1, len(flags)):
        flags[k] |= flags[k - 1] and gaps[k - 1] <= close
    for k in range(len(flags) - 2, -1, -1):
        flags[k] |= flags[k + 1] and gaps[k] <= close
    return flags


def _spanning_rows(canvas: Canvas, idx: Ints,
                   cuts: NDArray[np.float64]) -> NDArray[np.float64]:
    """The rows (baseline keys) of words ``idx`` that run on across a cut with an
    ordinary word space (a title whose word gap happens to fall on the gutter), by
    `Canvas.runs_on`: the gap across the cut measured against the usual gap
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


def _emptiest(canvas: Canvas, idx: Ints, count: int) -> list[float]:
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
        best = true_runs(window == window.min())
        a, b = max(best, key=lambda run: run[1] - run[0])
        cuts.append((c0 + lo + (a + b) / 2 - 1) * canvas.res)
    return cuts


def _cut(canvas: Canvas, idx: Ints, known: Gutters) -> Node:
    """Cut the region holding words ``idx``: gutters first, then side headings, then
    band boundaries, then gutters closed off by a picture or a rule alone, then blocks
    of stacks set side by side."""
    parts = _vertical_parts(canvas, idx, known)
    if parts is not None:
        return Split(True, tuple(_cut(canvas, part, known) for part in parts))
    heads = _side_heads(canvas, idx)
    if heads is not None:
        return Split(False, tuple(
            Split(True, tuple(_cut(canvas, part, known) for part in pair if len(part)))
            for pair in heads))
    gutters = tall_gutters(canvas, idx, known)
    for gutter in gutters:
        slabs = _band_slabs(canvas, idx, gutter)
        if slabs is not None:
            return Split(False, tuple(_cut(canvas, slab, known) for slab in slabs))
    parts = _closed_columns(canvas, idx, gutters)
    if parts is not None:
        return Split(True, tuple(_cut(canvas, part, known) for part in parts))
    stacked = _stacked_blocks(canvas, idx)
    if stacked is not None:
        above, stacks, below = stacked
        side_by_side = Split(True, tuple(Leaf(tuple(sorted(s.tolist()))) for s in stacks))
        return Split(False, tuple([*([_cut(canvas, above, known)] if len(above) else []),
                                   side_by_side,
                                   *([_cut(canvas, below, known)] if len(below) else [])]))
    return Leaf(tuple(sorted(idx.tolist())))


def _closed_columns(canvas: Canvas, idx: Ints, gutters: Sequence[Gutter]) -> list[Ints] | None:
    """The region's two sides of the tallest of its ``gutters`` (none of which ends a
    band) that no word of the region stands across, each side a column of
    ``gutter_min_lines`` lines or more (`Canvas.is_column`); None when there is
    no such gutter.

    Such a gutter's strip is closed off at an end by a picture or a rule alone (a
    picture over one column reaching down beside the other's first line, a box's
    edge), so it is no strip empty over the whole region; yet no text runs across it
    and no band ends beside it: its columns are read each whole, as a reader reads two
    text boxes side by side, rather than row by row across the strip.  The rules that
    let a strip part fewer lines (one on the column grid, one a rule runs down) do not
    hold here: a ruled table's row, closed off by its own rules, holds cells of a few
    lines side by side that read across."""
    box, res, lines = canvas.box[idx], canvas.res, canvas.config.gutter_min_lines
    for gutter in gutters:
        left, right = box[:, 2] <= gutter.x0 + res, box[:, 0] >= gutter.x1 - res
        if ((left | right).all()
                and canvas.is_column(idx[left], lines) and canvas.is_column(idx[right], lines)
                and not _parts_no_columns(canvas, idx, idx[left], idx[right], gutter.x0,
                                          gutter.x1)):
            return [idx[left], idx[right]]
    return None


def _stacked_blocks(canvas: Canvas, idx: Ints) -> tuple[Ints, list[Ints], Ints] | None:
    """The region parted round a block of stacks of lines set side by side, read one
    stack after the other: (the words above the block, the stacks' words left to right,
    the words below); None when the region holds no such block.

    A block is a run of the region's text rows set apart from the rows above and below
    it (`_apart_rows`); its stacks are parted by whitespace strips empty down its
    whole height (`_stacks_of`).  Too short to stand as columns, such blocks are
    what a reader meets at the foot of a decree (ministers' signatures, a name under
    each title) or in a letterhead (addresses), and reads block by block."""
    rows = canvas.row[idx]
    for first, last in _apart_rows(canvas, idx):
        if last == first:
            continue
        inside = (rows >= first) & (rows <= last)
        stacks = _stacks_of(canvas, idx[inside], (idx[rows < first], idx[rows > last]))
        if stacks is not None:
            return idx[rows < first], stacks, idx[rows > last]
    return None


def _apart_rows(canvas: Canvas, idx: Ints) -> list[tuple[int, int]]:
    """The runs of text rows (first and last row, by `Canvas.row`) of the words
    ``idx`` that the white between rows parts: more than the region's usual (median)
    white between rows by ``stack_gap_em`` times the body font size."""
    rows = canvas.row[idx]
    tops = np.full(canvas.row_count, np.inf)
    bottoms = np.full(canvas.row_count, -np.inf)
    np.minimum.at(tops, rows, canvas.box[idx, 1])
    np.maximum.at(bottoms, rows, canvas.box[idx, 3])
    present = np.flatnonzero(np.isfinite(tops))
    white = tops[present][1:] - bottoms[present][:-1]
    if not len(white):
        return []
    parted = white > float(np.median(white)) + canvas.config.stack_gap_em * canvas.size
    starts = [0, *(np.flatnonzero(parted) + 1).tolist()]
    ends = [*starts[1:], len(present)]
    return [(int(present[a]), int(present[b - 1])) for a, b in zip(starts, ends, strict=True)]


def _stacks_of(canvas: Canvas, block: Ints, around: tuple[Ints, Ints]) -> list[Ints] | None:
    """The stacks, left to right, of a block of text rows (words ``block``) set side by
    side, the region's words ``around`` it (above, below); None when the block is not so
    set.

    Whitespace strips empty down the block's whole height (`_strips`) part it,
    no row running on across one (`_runs_on`).  Stacks set in leadings of their own
    are read one after the other (`_interleaved`).  Else the parts are read one after the
    other when they are cards (`_cards`), or when each is a stack
    (`_stack_rows`) and the stacks end on the same row, do not all start on the
    same one, and share no more than ``stack_max_level_rows`` rows.  Stacks that end
    level and start apart are blocks set to close on one line (a title or two above
    each name); the cells of a table's row start level, and its rows repeat across, so
    a table reads row by row as before, a header wrapped over two lines above it
    too."""
    strips = _strips(canvas, block)
    if not strips:
        return None
    interleaved = _interleaved(canvas, block, strips, around)
    if interleaved is not None:
        return interleaved
    box = canvas.box[block]
    side = np.searchsorted(np.array([(a + b) / 2 for a, b in strips]), (box[:, 0] + box[:, 2]) / 2)
    stacks = [block[side == k] for k in range(len(strips) + 1)]
    if any(_runs_on(canvas, row, strip, strips) for row in _rows_of(canvas, block)
           for strip in strips):
        return None
    if _cards(canvas, stacks, strips):
        return stacks
    spans = []
    for stack in stacks:
        span = _stack_rows(canvas, stack, block)
        if span is None:
            return None
        spans.append(span)
    firsts, lasts = zip(*spans, strict=True)
    level = lasts[0] - max(firsts) + 1  # the rows every stack has a line on
    if len(set(lasts)) > 1 or len(set(firsts)) == 1 \
            or level > canvas.config.stack_max_level_rows:
        return None
    return stacks


def _interleaved(canvas: Canvas, block: Ints, strips: Sequence[tuple[float, float]],
                 around: tuple[Ints, Ints]) -> list[Ints] | None:
    """The stacks, left to right, of a block of text rows (words ``block``) whose
    lines stand at heights of their own beside each other (`_own_leadings`); None when
    the block is not so set.

    The block is cut down the ``strips``, widest first, that have text
    `column_min_width_em` wide on each side up to the cuts made (a list's markers stand
    beside their items, on either side, not as stacks of their own), that run on
    through neither of the nearest rows of the region's words ``around`` the block
    (above, below; `_runs_past`: two columns' lines run on past it), with no rule down
    them (a table's cells, boxes drawn side by side) and no row running on across them
    (`_runs_on`).  A slide's bullets beside a box of links, or two short notices side
    by side, too few lines for columns, are read one after the other."""
    box, res = canvas.box[block], canvas.res
    widest = canvas.config.column_min_width_em * canvas.size
    top, bottom = float(box[:, 1].min()), float(box[:, 3].max())
    cuts: list[tuple[float, float]] = []
    for x0, x1 in sorted(strips, key=lambda strip: strip[0] - strip[1]):  # widest first
        start = max((b for a, b in cuts if b <= x0), default=-np.inf)
        end = min((a for a, b in cuts if a >= x1), default=np.inf)
        left = box[(box[:, 0] >= start - res) & (box[:, 2] <= x0 + res)]
        right = box[(box[:, 0] >= x1 - res) & (box[:, 2] <= end + res)]
        if len(left) and len(right) and float(np.ptp(left[:, [0, 2]])) >= widest \
                and float(np.ptp(right[:, [0, 2]])) >= widest \
                and not any(_runs_past(canvas, side, float(left[:, 2].max()),
                                       float(right[:, 0].min()), strips, above=k == 0)
                            for k, side in enumerate(around)) \
                and not canvas.walled(x0 - res, x1 + res, top, bottom) \
                and not canvas.ruled(x0 - res, x1 + res, top, bottom):
            cuts.append((x0, x1))
    cuts.sort()
    if not cuts or any(_runs_on(canvas, row, strip, cuts) for row in _rows_of(canvas, block)
                       for strip in cuts):
        return None
    side = np.searchsorted(np.array([(a + b) / 2 for a, b in cuts]), (box[:, 0] + box[:, 2]) / 2)
    stacks = [block[side == k] for k in range(len(cuts) + 1)]
    return stacks if _own_leadings(canvas, stacks) else None


def _own_leadings(canvas: Canvas, stacks: Sequence[Ints]) -> bool:
    """Whether ``stacks`` of lines set side by side each keep a leading of their own:
    each two text rows or more but fewer than ``gutter_min_lines`` (more stand as
    columns where a gutter parts them, and where none does, as on a skewed scan, are
    no short blocks), set close (less white between two of its rows than the height
    of its words), and of every two stacks, neither wholly above the other, and
    of the rows of the one with fewer, fewer than half and no more than
    ``stack_max_level_rows`` level with a row of the other.

    A table's cells start level row after row, and a river of word spaces runs down
    lines level on both its sides; where a table centres its cells in their rows, the
    shorter cells stand a row's height apart, no stack of close lines.  Two blocks set
    in leadings of their own (a slide's bullets beside a box of links, two notices of
    unequal length) meet level only by chance."""
    rows: list[set[int]] = []
    for stack in stacks:
        lines = _rows_of(canvas, stack)
        if not 2 <= len(lines) < canvas.config.gutter_min_lines:
            return False
        box = canvas.box[stack]
        white = [float(canvas.box[b, 1].min() - canvas.box[a, 3].max())
                 for a, b in pairwise(lines)]
        if max(white) >= float(np.median(box[:, 3] - box[:, 1])):
            return False
        rows.append({int(canvas.row[line[0]]) for line in lines})
    for mine, theirs in combinations(rows, 2):
        level = len(mine & theirs)
        if max(mine) < min(theirs) or max(theirs) < min(mine) \
                or 2 * level >= min(len(mine), len(theirs)) \
                or level > canvas.config.stack_max_level_rows:
            return False
    return True


def _runs_past(canvas: Canvas, side: Ints, x0: float, x1: float,
               strips: Sequence[tuple[float, float]], *, above: bool) -> bool:
    """Whether the row of the words ``side`` nearest a block (the lowest, ``above`` it;
    else the highest) holds two columns' lines beside the block's stacks, whose text
    ends at ``x0`` on the left and starts at ``x1`` on the right: a gap wider than a
    word space (`Canvas.runs_on`) parts its words ending before ``x1`` from those
    starting after ``x0``.  Its gaps across the block's other ``strips`` are no word
    spaces (a table's row, whose cells part there too)."""
    if not len(side):
        return False
    rows = canvas.row[side]
    row = side[rows == (rows.max() if above else rows.min())]
    box = canvas.box[row[np.argsort(canvas.box[row, 0])]]
    gaps = box[1:, 0] - box[:-1, 2]
    parting = (box[:-1, 2] <= x1) & (box[1:, 0] >= x0)
    if not parting.any():
        return False
    across = np.logical_or.reduce([(box[:-1, 2] <= a + canvas.res) & (box[1:, 0] >= b - canvas.res)
                                   for a, b in strips])
    spaces = gaps[~parting & ~across & (gaps > 0)]
    return not canvas.runs_on(float(gaps[parting].max()), float("inf"),
                              float(spaces.max()) if len(spaces) else canvas.space)


def _cards(canvas: Canvas, stacks: Sequence[Ints], strips: Sequence[tuple[float, float]]) -> bool:
    """Whether ``stacks`` of lines, parted by ``strips``, are cards: each two lines or
    more, no ruled table's cell wall (`Canvas.walled`) down a strip between them, and
    either each headed by a line in display type (`_headed`: a key figure's number over
    its caption) or each centred on one axis (`_centred`), one of them standing level
    with none of the others.

    Key figures in circles or boxes (a kicker, a number, a caption) are centred in
    their frames, so a card of fewer lines stands at heights of their own: a table's
    cells stand in its rows, and the tops of columns are set flush left.  A table's
    rows are set in one size, its head no larger than twice its cells."""
    rows = [set(canvas.row[stack].tolist()) for stack in stacks]
    if any(len(mine) < 2 for mine in rows):
        return False
    box = canvas.box[np.concatenate(stacks)]
    top, bottom = float(box[:, 1].min()), float(box[:, 3].max())
    if any(canvas.walled(x0, x1, top, bottom) for x0, x1 in strips):
        return False
    if all(_headed(canvas, stack) for stack in stacks):
        return True
    alone = any(all(not rows[k] & rows[j] for j in range(len(rows)) if j != k)
                for k in range(len(rows)))
    return alone and all(_centred(canvas, stack) for stack in stacks)


def _headed(canvas: Canvas, stack: Ints) -> bool:
    """Whether the first line of the words ``stack`` is set in display type: its
    words' median size `_DISPLAY_SIZE_RATIO` times the size of its other lines or more
    (an icon's glyph beside a caption's first word does not make it so)."""
    rows = _rows_of(canvas, stack)
    rest = np.concatenate(rows[1:])
    return float(np.median(canvas.sizes[rows[0]])) >= \
        _DISPLAY_SIZE_RATIO * float(np.median(canvas.sizes[rest]))


def _runs_on(canvas: Canvas, row: Ints, strip: tuple[float, float],
             strips: Sequence[tuple[float, float]]) -> bool:
    """Whether one text row (words ``row``) runs on across ``strip`` as one line
    (`Canvas.runs_on`): its gap there is no wider, by ``word_space_ratio``, than the
    widest space it leaves elsewhere (a sentence's double space; the page's word space
    where it leaves none), its gaps across the block's other ``strips`` not counted.
    The lines of stacks leave more between them than any of their words do."""
    spaced = canvas.spaces_across(row, *strip, strips)
    if spaced is None:
        return False
    gap, others = spaced
    return canvas.runs_on(gap, float("inf"), float(others.max()) if len(others) else canvas.space)


def _rows_of(canvas: Canvas, idx: Ints) -> list[Ints]:
    """The words ``idx`` by text row, top to bottom."""
    rows = canvas.row[idx]
    return [idx[rows == row] for row in np.unique(rows).tolist()]


def _stack_rows(canvas: Canvas, stack: Ints, block: Ints) -> tuple[int, int] | None:
    """The first and last rows (ranks among the rows of ``block``) of the words
    ``stack`` when they stand as a stack of lines; None when not.  A stack is at least
    ``column_min_width_em`` wide, has a line on every row of ``block`` from its first
    to its last, and sets its lines on one axis: flush left, flush right or centred,
    within ``flush_tolerance_em``."""
    if not len(stack):
        return None
    box = canvas.box[stack]
    if float(box[:, 2].max() - box[:, 0].min()) < canvas.config.column_min_width_em * canvas.size:
        return None
    ranks = np.searchsorted(np.unique(canvas.row[block]), canvas.row[stack])
    first, last = int(ranks.min()), int(ranks.max())
    if distinct(ranks) != last - first + 1:
        return None  # a row of the block without a line of the stack
    if min(_spreads(canvas, stack)) > _flush_tolerance(canvas):
        return None
    return first, last


def _spreads(canvas: Canvas, stack: Ints) -> tuple[float, float, float]:
    """How far apart the left ends, the right ends and the centres of the lines (text
    rows) of the words ``stack`` stand, each the widest distance between two of them."""
    lines = np.array([(canvas.box[row, 0].min(), canvas.box[row, 2].max())
                      for row in _rows_of(canvas, stack)])
    return (float(np.ptp(lines[:, 0])), float(np.ptp(lines[:, 1])),
            float(np.ptp(lines.mean(axis=1))))


def _flush_tolerance(canvas: Canvas) -> float:
    """How far apart line ends may stand and still be flush: ``flush_tolerance_em`` of
    the body font size, at least a point."""
    return max(1.0, canvas.config.flush_tolerance_em * canvas.size)


def _centred(canvas: Canvas, stack: Ints) -> bool:
    """Whether the lines of the words ``stack`` are centred on one axis and flush at
    neither side: their centres within twice the flush tolerance (a centre carries the
    side bearings of both a line's ends), their left ends and their right ends not
    within it."""
    left, right, centre = _spreads(canvas, stack)
    tolerance = _flush_tolerance(canvas)
    return centre <= 2 * tolerance and left > tolerance and right > tolerance


def _side_heads(canvas: Canvas, idx: Ints) -> list[tuple[Ints, Ints]] | None:
    """The region read as side headings in a left-hand margin beside their text:
    (heading, text) word indexes, top to bottom; None when it is not so set.

    A whitespace strip empty over the whole region (`_strips`), no end row
    running across it, parts a margin of short blocks from a column of text (each side
    at least ``column_min_width_em`` wide, the margin the narrower and no column, the
    text a column of ``gutter_min_lines`` lines), and every block of the margin (its
    lines no further apart than `_SIDE_HEAD_GAP_EM`) starts level with a line of the
    text, their baselines within ``side_head_align_em``.  Each heading then reads
    before the text from its line to the next heading's, as a heading above its text
    would."""
    config, res = canvas.config, canvas.res
    box = canvas.box[idx]
    region_left, region_right = float(box[:, 0].min()), float(box[:, 2].max())
    min_width = config.column_min_width_em * canvas.size
    for x_left, x_right in _strips(canvas, idx):
        margin, text = idx[box[:, 2] <= x_left + res], idx[box[:, 0] >= x_right - res]
        if (x_left - region_left < min_width or region_right - x_right < min_width
                or x_left - region_left >= region_right - x_right
                or canvas.is_column(margin, config.gutter_min_lines)
                or not canvas.is_column(text, config.gutter_min_lines)
                or any(canvas.blocks(row, margin, text, x_left, x_right)
                       for row in canvas.end_rows(idx))):
            continue
        by_top = margin[np.argsort(canvas.box[margin, 1], kind="stable")]
        tops = canvas.box[by_top, 1]
        first = np.concatenate(([True], np.diff(tops) > _SIDE_HEAD_GAP_EM * canvas.size))
        starts = tops[first]
        # a heading in larger type stands level with its text by the baseline
        baselines = canvas.box[by_top[first], 3]
        text_baselines = np.unique(canvas.box[text, 3])
        nearest = np.abs(text_baselines[None, :] - baselines[:, None]).min(axis=1)
        if len(starts) < 2 or (nearest > config.side_head_align_em * canvas.size).any():
            continue
        cuts = starts[1:] - res
        centre_y = (canvas.box[:, 1] + canvas.box[:, 3]) / 2
        slab_of_margin = np.searchsorted(cuts, centre_y[margin])
        slab_of_text = np.searchsorted(cuts, centre_y[text])
        pairs = [(margin[slab_of_margin == k], text[slab_of_text == k])
                 for k in range(len(starts))]
        above = text[canvas.box[text, 3] <= starts[0]]  # text before the first heading
        if len(above):
            pairs[0] = (pairs[0][0], np.setdiff1d(pairs[0][1], above))
            pairs.insert(0, (margin[:0], above))
        return pairs
    return None


def _strips(canvas: Canvas, idx: Ints) -> list[tuple[float, float]]:
    """The x ranges, left to right, of the whitespace strips at least a gutter wide that
    are empty over the whole height of the region holding words ``idx`` (and inside it)."""
    res = canvas.res
    r0, r1, c0, c1 = canvas.cells(idx)
    empty = np.logical_not(canvas.grid[r0:r1, c0:c1].any(axis=0))
    return [((c0 + a - 1) * res, (c0 + b - 1) * res) for a, b in true_runs(empty)
            if b - a >= canvas.window and a > 0 and b < len(empty)]


def _vertical_parts(canvas: Canvas, idx: Ints,
                    known: Gutters) -> list[Ints] | None:
    """The columns of a region, split at whitespace strips empty over its whole height.

    A strip counts when both sides hold text at least ``column_min_width_em`` wide
    and either it runs beside ``gutter_min_lines`` lines on each side or it lies on
    the document's column grid (``known``) with two lines or more on each side (short
    column runs before a full-width item keep the document's gutters), or a vertical
    rule runs down it (`Canvas.ruled`).  A strip down a ruled table's cell wall
    (`Canvas.walled`) parts no columns: the table's rows read across it.
    """
    config, res = canvas.config, canvas.res
    box = canvas.box[idx]
    cuts: list[float] = []
    left_edge = float(box[:, 0].min())
    region_right = float(box[:, 2].max())
    top, bottom = float(box[:, 1].min()), float(box[:, 3].max())
    for x_left, x_right in _strips(canvas, idx):
        left = idx[(box[:, 2] <= x_left + res) & (box[:, 0] >= left_edge - res)]
        right = idx[box[:, 0] >= x_right - res]
        if _parts_no_columns(canvas, idx, left, right, x_left, x_right):
            continue
        on_grid = (min(canvas.lines(left), canvas.lines(right)) >= config.grid_cut_min_lines
                   and bool(on_column_grid(np.array([x_left]), np.array([x_right]), known,
                                     config.grid_overlap)[0])
                   ) or canvas.ruled(x_left, x_right, top, bottom)
        if canvas.is_gutter(left, right, x_left, x_right, config.gutter_min_lines,
                            edges=(left_edge, region_right), on_grid=on_grid):
            cuts.append((x_left + x_right) / 2)
            left_edge = x_right
    if not cuts:
        return None
    centre = (box[:, 0] + box[:, 2]) / 2
    column = np.searchsorted(np.array(cuts), centre)
    return [idx[column == k] for k in range(len(cuts) + 1)]


def _parts_no_columns(canvas: Canvas, idx: Ints, left: Ints, right: Ints, x0: float,
                      x1: float) -> bool:
    """Whether the strip from ``x0`` to ``x1`` down the region of words ``idx``, between
    words ``left`` and ``right``, parts no columns however it stands: a ruled table's
    cell wall runs down it (`Canvas.walled`; the table's rows read across it), or
    the region's first or last row runs across it (`Canvas.blocks`)."""
    box = canvas.box[idx]
    top, bottom = float(box[:, 1].min()), float(box[:, 3].max())
    return canvas.walled(x0, x1, top, bottom) or any(
        canvas.blocks(row, left, right, x0, x1) for row in canvas.end_rows(idx))


def _band_slabs(canvas: Canvas, idx: Ints, gutter: Gutter) -> list[Ints] | None:
    """The region cut into stacked slabs so that ``gutter`` spans one slab's height.

    Where the gutter's columns end (one side of it has run out of text, or of the
    pictures standing against the gutter, `Canvas.against`) and the
    line that blocks it begins, the cut goes through the widest horizontal gap;
    gaps within ``cut_tie_ratio`` of the widest count as equal and the one
    nearest the blocking line wins, so the tail of a longer column stays with its
    columns.  No cut parts the lines of a box drawn round text on one side of the
    gutter (`Canvas.parts_frame`).  Returns None when no cut is possible.
    """
    res = canvas.res
    r0, r1, c0, c1 = canvas.cells(idx)
    box = canvas.box[idx]
    region_top, region_bottom = float(box[:, 1].min()), float(box[:, 3].max())
    centre_y = (box[:, 1] + box[:, 3]) / 2
    beside = (centre_y >= gutter.top) & (centre_y <= gutter.bottom)
    pictures = canvas.against(gutter.x0, gutter.x1, gutter.top, gutter.bottom)
    left = np.vstack([box[beside & (box[:, 2] <= gutter.x0 + res)], pictures[0]])
    right = np.vstack([box[beside & (box[:, 0] >= gutter.x1 - res)], pictures[1]])
    core_top = max(left[:, 1].min(), right[:, 1].min())
    core_bottom = min(left[:, 3].max(), right[:, 3].max())
    gaps = [((r0 + a - 1) * res, (r0 + b - 1) * res)
            for a, b in true_runs(np.logical_not(canvas.grid[r0:r1, c0:c1].any(axis=1)))]
    cuts: list[float] = []
    if gutter.top > region_top + 2 * res:
        above = [g for g in gaps if g[1] <= core_top + res and g[0] >= gutter.top - 2 * res]
        cut = _widest(above, canvas.config.cut_tie_ratio, prefer_low=False)
        if cut is not None:
            cuts.append(_lead_cut(canvas, idx, cut, core_top))
    if gutter.bottom < region_bottom - 2 * res:
        below = [g for g in gaps if g[0] >= core_bottom - res and g[1] <= gutter.bottom + 2 * res]
        cut = _widest(below, canvas.config.cut_tie_ratio, prefer_low=True)
        if cut is not None:
            cuts.append(cut)
    cuts = [cut for cut in cuts if not canvas.parts_frame(idx, cut, gutter.x0, gutter.x1)]
    if not cuts:
        return None
    slab = np.searchsorted(np.array(sorted(cuts)), centre_y)
    slabs = [idx[slab == k] for k in range(len(cuts) + 1)]
    slabs = [s for s in slabs if len(s)]
    return slabs if len(slabs) > 1 else None


def _lead_cut(canvas: Canvas, idx: Ints, cut: float, core_top: float) -> float:
    """Where the band above a gutter's columns ends, given the ``cut`` through the widest
    gap over them and the top of the columns' common part (``core_top``): the lines
    between the two (the head of one column, above the other's first line) stay with
    the columns unless the white under them, down to the next line in their column,
    is at least ``band_lead_gap_ratio`` times the white over them (an address line set
    under a masthead, beside the top of a sidebar): then they close the band above,
    cut off at ``core_top``."""
    box = canvas.box[idx]
    centre_y = (box[:, 1] + box[:, 3]) / 2
    lead = box[(centre_y > cut) & (centre_y < core_top)]
    over = box[centre_y <= cut]
    if not len(lead) or not len(over):
        return cut
    top, bottom = float(lead[:, 1].min()), float(lead[:, 3].max())
    x0, x1 = float(lead[:, 0].min()), float(lead[:, 2].max())
    under = box[(box[:, 1] >= bottom) & (box[:, 0] < x1) & (box[:, 2] > x0)]
    if not len(under):
        return cut
    gap_over = max(top - float(over[:, 3].max()), canvas.res)
    gap_under = float(under[:, 1].min()) - bottom
    return core_top if gap_under >= canvas.config.band_lead_gap_ratio * gap_over else cut


def _widest(gaps: Sequence[tuple[float, float]], tie_ratio: float, *,
            prefer_low: bool) -> float | None:
    """The middle of the widest gap; among near-equal ones the lowest (or highest)."""
    if not gaps:
        return None
    widest = max(b - a for a, b in gaps)
    ties = [g for g in gaps if g[1] - g[0] >= tie_ratio * widest]
    a, b = max(ties) if prefer_low else min(ties)
    return (a + b) / 2


def mirrored(tree: Node) -> Node:
    """``tree`` with the parts of every side-by-side split in reverse order: the
    columns of a page of a right-to-left script read right to left."""
    if isinstance(tree, Leaf):
        return tree
    parts = tuple(mirrored(part) for part in tree.parts)
    return Split(tree.vertical, parts[::-1] if tree.vertical else parts)


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
