"""Vertical writing: columns of upright CJK glyphs, their punctuation and their ruby.

- Glyphs drawn one under another in the content stream stack into columns
  (`vertical_max_gap_em`); a lone glyph over or under a column's end joins it
  (`vertical_hanging_gap_em`).  The figures of a number set across a column, side by
  side in one cell ('1月21日', tate-chū-yoko), stack as one glyph.
- Ruby (small kana beside a column, a reading aid) and full-width punctuation (drawn
  off a column's axis by some typesetters) are passed over while stacking, so that
  neither parts a column nor lifts a glyph out of it; ruby is set smaller than
  `line_like_size_ratio` of the column glyph it stands level with.  Ruby over a line
  of horizontal writing stacks with none of the line's glyphs: glyphs of unlike sizes
  do not stack where the larger is set in a row (`_over_a_row`).
- Upright Latin glyphs and figures drawn in the stream right after (before) a column's
  glyph and standing under (over) it in its cell, within `vertical_max_gap_em`, are set
  in the column: a note's call, even in the ruby position ('妻す#1。').
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..config import WordsConfig
from ..model import CODE_POINTS, Glyphs, char_test, is_cjk

__all__ = ["Columns", "vertical_columns"]

_CELL_SLACK = 1.05
"""How much wider than its size a column's cell may be drawn: two half-width figures fill
it exactly, give or take the rounding of their advances."""
_DOWN = 270
"""The direction of a glyph turned a quarter to read down the page, as a vertical
font's glyphs and a sign turned to stand in a column are."""


def vertical_columns(glyphs: Glyphs, ids: npt.NDArray[np.int64], blank: npt.NDArray[np.bool_],
                     config: WordsConfig) -> Columns:
    """Which glyphs (their texts' ``ids``: code points, or ids above every code point for
    texts of several characters; ``blank`` for whitespace) are set in vertical writing
    (the ruby beside its columns too), and the glyph each punctuation mark of a column
    belongs to (see `Columns`).

    Upright glyphs drawn one after another (in the content stream's order, whitespace,
    ruby and punctuation passed over) stack into a column when each stands under the
    one before (overlapping it across by half the narrower, below its middle, at most
    ``vertical_max_gap_em`` under its foot, plus the height of the punctuation passed
    over: a full-width mark takes a cell of the column even where it is drawn off the
    column's axis), in runs that hold a CJK character; a lone CJK glyph hung a little
    further over or under the end of such a run (``vertical_hanging_gap_em``) joins it.
    A punctuation mark joins the column of the glyph before it when it overlaps that
    glyph across (or, an opening mark, of the glyph after it).  Ruby (`_ruby`) is
    set aside first, so that it never parts a column.  A font's writing mode is not told
    by every engine; the glyphs' places are."""
    n = len(glyphs)
    none = Columns(np.zeros(n, dtype=np.bool_), np.full(n, -1, dtype=np.intp))
    codes = np.where(ids < CODE_POINTS, ids, -1)
    cjk = char_test(codes, is_cjk)
    if np.count_nonzero(~blank) < 2 or not cjk.any():
        return none
    box, sizes = glyphs.boxes, glyphs.sizes
    upright = (glyphs.directions == 0) & ~blank
    punct = char_test(codes, _is_punctuation) & cjk & upright
    # a sign turned a quarter to stand in a column ('＝' in '1L＝18W') stacks in it too
    stands = upright | ((glyphs.directions == _DOWN) & ~blank)
    maybe_ruby = _ruby(box, sizes, cjk & upright & ~punct, upright, config)
    vertical, cells = _columns(box, sizes, stands, cjk, ~blank & ~maybe_ruby & ~punct,
                               punct, config)
    if maybe_ruby.any():  # ruby only beside a column: small type beside a heading is text
        ruby = _ruby(box, sizes, maybe_ruby, vertical & ~maybe_ruby, config)
        if (ruby != maybe_ruby).any():
            vertical, cells = _columns(box, sizes, stands, cjk, ~blank & ~ruby & ~punct,
                                       punct, config)
    else:
        ruby = maybe_ruby
    if not vertical.any():
        return Columns(vertical | ruby, none.host)
    vertical |= _in_holes(box, sizes, stands & ~blank & ~ruby & ~punct & ~vertical, cjk,
                          vertical | punct, config)
    set_in = _set_in_columns(box, sizes, vertical, upright & ~cjk & ~vertical & ~ruby,
                             ~blank & ~ruby & ~punct, config)
    vertical |= set_in >= 0
    host = _punctuation_hosts(box, vertical, punct, ~blank & ~ruby & ~punct)
    # a mark after a note's call stands in the column the call is set in
    through = set_in[np.maximum(host, 0)]
    host = np.where((host >= 0) & (through >= 0), through, np.maximum(host, set_in))
    vertical[punct] = host[punct] >= 0
    host = np.where(vertical & (cells >= 0), cells, host)
    host = _on_axis(box, vertical & upright & ~cjk & (host < 0), vertical & cjk & ~punct, host)
    # a cell's figure stands by its first, which may stand by a glyph of the column
    further = host[np.maximum(host, 0)]
    host = np.where((host >= 0) & (further >= 0), further, host)
    return Columns(vertical | ruby, host)


def _share_column(a: npt.NDArray[np.float64], b: npt.NDArray[np.float64]
                  ) -> npt.NDArray[np.bool_]:
    """Whether the glyph boxes ``a`` and ``b`` (rows, broadcast against each other)
    overlap across by half the narrower or more: they stand in one column."""
    across = np.minimum(a[..., 2], b[..., 2]) - np.maximum(a[..., 0], b[..., 0])
    narrower = np.minimum(a[..., 2] - a[..., 0], b[..., 2] - b[..., 0])
    return across >= 0.5 * narrower


def _in_holes(box: npt.NDArray[np.float64], sizes: npt.NDArray[np.float64],
              strays: npt.NDArray[np.bool_], cjk: npt.NDArray[np.bool_],
              columns: npt.NDArray[np.bool_], config: WordsConfig) -> npt.NDArray[np.bool_]:
    """Which of the ``strays`` (upright glyphs stacked in no column) stand in a column
    whatever the order they are drawn in: in the cell between two glyphs of the
    ``columns`` (its characters and punctuation) that they overlap across, within
    ``vertical_max_gap_em`` of each, or, a CJK character, right under (over) the one
    drawn just before (after) it.  A producer may draw a column's turned sign before
    the letter over it ('1L＝18W'), which parts the column where it is read in drawing
    order; a footer set in the margin under the columns is drawn apart from them."""
    found = np.zeros(len(box), dtype=np.bool_)
    members = np.flatnonzero(columns)
    if not len(members):
        return found
    b = box[members]
    for k in np.flatnonzero(strays).tolist():
        reach = config.vertical_max_gap_em * sizes[k]
        on = _share_column(b, box[k])
        over = on & (b[:, 3] <= box[k, 1] + reach) & (b[:, 3] >= box[k, 1] - reach)
        under = on & (b[:, 1] >= box[k, 3] - reach) & (b[:, 1] <= box[k, 3] + reach)
        hung = (k - 1 in members[over]) or (k + 1 in members[under])
        found[k] = (over.any() and under.any()) or (bool(cjk[k]) and hung)
    return found


def _on_axis(box: npt.NDArray[np.float64], strays: npt.NDArray[np.bool_],
             axis: npt.NDArray[np.bool_], host: npt.NDArray[np.intp]) -> npt.NDArray[np.intp]:
    """``host`` with each of the ``strays`` (upright Latin glyphs and figures stacked in a
    column) given the column glyph of ``axis`` (its CJK characters) drawn nearest before
    it, or else after it, that it overlaps across: a narrow letter centred in the
    column ('L' of '1L') starts right of the column's edge, and would otherwise part
    from it when the column is read as a line."""
    on = np.flatnonzero(axis)
    if not len(on) or not strays.any():
        return host
    host = host.copy()
    for k in np.flatnonzero(strays).tolist():
        at = int(np.searchsorted(on, k))
        for j in (at - 1, at):
            if 0 <= j < len(on) and min(box[k, 2], box[on[j], 2]) > max(box[k, 0], box[on[j], 0]):
                host[k] = on[j]
                break
    return host


@dataclass(frozen=True, slots=True)
class Columns:
    """Vertical writing among a page's glyphs: which glyphs are set in it
    (``vertical``: its columns, and the ruby beside them, which is read as lines of its
    own since it stands on another axis), and for each punctuation mark of a column the
    glyph whose column it stands in, and the same for each upright Latin glyph or figure
    set in a column, and for each figure set beside another in one of its cells, the
    cell's first (``host``, -1 for every other glyph): a mark drawn right of the
    column's axis, a note's call in its ruby position, or the '1' of '21' set across
    the column is grouped as standing on it."""

    vertical: npt.NDArray[np.bool_]
    host: npt.NDArray[np.intp]


def _is_punctuation(char: str) -> bool:
    return unicodedata.category(char).startswith("P")


def _columns(box: npt.NDArray[np.float64], sizes: npt.NDArray[np.float64],
             upright: npt.NDArray[np.bool_], cjk: npt.NDArray[np.bool_],
             stacking: npt.NDArray[np.bool_], punct: npt.NDArray[np.bool_],
             config: WordsConfig) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.intp]]:
    """Which of the glyphs ``stacking`` (boxes in drawing order) stack into columns of
    vertical writing, the ``punct`` glyphs drawn between two of them widening the gap
    allowed between those two by their height (see `vertical_columns`); and for each glyph
    set beside another in one cell of a column (the figures of a number set across it,
    `_in_one_cell`), the cell's first glyph (-1 for every other glyph)."""
    vertical = np.zeros(len(box), dtype=np.bool_)
    cells = np.full(len(box), -1, dtype=np.intp)
    seq = np.flatnonzero(stacking)
    if len(seq) < 2:
        return vertical, cells
    heights = np.concatenate(([0.0], np.cumsum(np.where(punct, box[:, 3] - box[:, 1], 0.0))))
    between = heights[seq[1:]] - heights[seq[:-1] + 1]
    beside = _in_one_cell(box[seq[:-1]], box[seq[1:]], sizes[seq[:-1]])
    vertical[seq] = _stacked(box[seq], sizes[seq], upright[seq], cjk[seq], between, beside,
                             config)
    beside &= vertical[seq[:-1]] & vertical[seq[1:]]
    for k in np.flatnonzero(beside).tolist():  # a cell's figures, each by the first
        first = seq[k] if cells[seq[k]] < 0 else cells[seq[k]]
        cells[seq[k + 1]] = first
    return vertical, cells


def _in_one_cell(above: npt.NDArray[np.float64], under: npt.NDArray[np.float64],
                 sizes: npt.NDArray[np.float64]) -> npt.NDArray[np.bool_]:
    """Whether each glyph of ``under`` stands beside the one of ``above`` (drawn just
    before it) in one cell of a column: level with it, starting across past its middle,
    the two no wider together than the glyph's size: the figures of a number set across
    the column (tate-chū-yoko, '21' in '1月21日')."""
    return ((np.abs(under[:, 1] - above[:, 1]) <= 0.25 * (above[:, 3] - above[:, 1]))
            & (under[:, 0] >= (above[:, 0] + above[:, 2]) / 2)
            & (under[:, 2] - above[:, 0] <= _CELL_SLACK * np.maximum(sizes, 1.0)))


def _stacked(box: npt.NDArray[np.float64], sizes: npt.NDArray[np.float64],
             upright: npt.NDArray[np.bool_], cjk: npt.NDArray[np.bool_],
             between: npt.NDArray[np.float64], beside: npt.NDArray[np.bool_],
             config: WordsConfig) -> npt.NDArray[np.bool_]:
    """Which of these glyphs (boxes in drawing order, ``between`` each two the height of
    the punctuation passed over, ``beside`` whether each stands beside the one before in
    its cell, `_in_one_cell`) stack into columns of vertical writing: see
    `vertical_columns`."""
    above, under = box[:-1], box[1:]
    middle = (above[:, 1] + above[:, 3]) / 2
    em = np.maximum(sizes[:-1], 1.0)
    column = (upright[:-1] & upright[1:]
              & ((_share_column(above, under) & (under[:, 1] >= middle)) | beside))
    column &= ~_over_a_row(box, sizes, cjk, column, config.line_like_size_ratio)
    drop = under[:, 1] - above[:, 3] - between
    stacked = column & (drop <= config.vertical_max_gap_em * em)
    # runs of stacked pairs: glyph k joins the run of glyph k - 1 when they stack
    run: npt.NDArray[np.intp] = np.cumsum(np.concatenate(([True], ~stacked)))
    with_cjk = np.zeros(int(run[-1]) + 1, dtype=np.bool_)
    with_cjk[run[cjk]] = True
    several: npt.NDArray[np.bool_] = np.bincount(run) >= 2
    vertical: npt.NDArray[np.bool_] = with_cjk[run] & several[run]
    hanging = column & (drop <= config.vertical_hanging_gap_em * em)
    lone = cjk & ~vertical
    return vertical | np.concatenate((lone[:-1] & hanging & vertical[1:], [False])) \
        | np.concatenate(([False], lone[1:] & hanging & vertical[:-1]))


def _over_a_row(box: npt.NDArray[np.float64], sizes: npt.NDArray[np.float64],
                cjk: npt.NDArray[np.bool_], pairs: npt.NDArray[np.bool_],
                ratio: float) -> npt.NDArray[np.bool_]:
    """For each of the ``pairs`` of glyphs drawn one after the other (boxes in drawing
    order) that would stack, whether they are of unlike sizes (`_like`) and the larger,
    a CJK character, is set in a row: the glyph of its own size drawn nearest before it
    stands level with it on its left, or the one drawn nearest after it on its right,
    no further off across than its width (`_in_row`).  Ruby set over a line of
    horizontal writing ('がい' over '外') stands over its base as a column's glyph
    stands over the next, yet it glosses a line's glyph; in vertical writing a glyph's
    neighbours of its size are drawn over and under it (the next column's first glyph,
    drawn after a column's last, stands on its left), and a note set small in a column
    stacks with it."""
    found = np.zeros(len(pairs), dtype=np.bool_)
    unlike = ~_like(sizes[:-1], sizes[1:], ratio)
    for k in np.flatnonzero(pairs & unlike).tolist():
        big = k if sizes[k] >= sizes[k + 1] else k + 1
        found[k] = bool(cjk[big]) and any(
            _in_row(box, big, _nearest_like(sizes, big, step, ratio), step)
            for step in (-1, 1))
    return found


def _like(a: npt.NDArray[np.float64] | float, b: npt.NDArray[np.float64] | float,
          ratio: float) -> npt.NDArray[np.bool_]:
    """Whether glyphs of sizes ``a`` and ``b`` are of one size: the smaller at least
    ``ratio`` of the larger."""
    return np.asarray(np.minimum(a, b) >= ratio * np.maximum(a, b))


def _nearest_like(sizes: npt.NDArray[np.float64], k: int, step: int, ratio: float) -> int:
    """The glyph nearest ``k`` in drawing order, looking ``step`` (-1 before, 1 after)
    past glyphs of other sizes, whose size is like its own (`_like`); -1 for none."""
    j = k + step
    while 0 <= j < len(sizes) and not _like(sizes[j], sizes[k], ratio):
        j += step
    return j if 0 <= j < len(sizes) else -1


def _in_row(box: npt.NDArray[np.float64], k: int, j: int, step: int) -> bool:
    """Whether glyph ``j`` (-1: none), drawn before glyph ``k`` (``step`` -1) or after it
    (1), stands level with it (overlapping half the shorter's height) on the side a
    row's next glyph takes: on its left when drawn before, on its right when after, no
    further off across than ``k`` is wide."""
    if j < 0:
        return False
    a, b = box[k], box[j]
    level = min(a[3], b[3]) - max(a[1], b[1]) >= 0.5 * min(a[3] - a[1], b[3] - b[1])
    off = a[0] - b[2] if step < 0 else b[0] - a[2]
    return bool(level and -0.5 * (a[2] - a[0]) <= off <= a[2] - a[0])


def _ruby(box: npt.NDArray[np.float64], sizes: npt.NDArray[np.float64],
          candidates: npt.NDArray[np.bool_], bases: npt.NDArray[np.bool_],
          config: WordsConfig) -> npt.NDArray[np.bool_]:
    """Which ``candidates`` are ruby beside the ``bases``: glyphs set smaller than
    ``line_like_size_ratio`` of a base glyph standing level with them (overlapping half
    their height), beside it across (their centre off it, within its size of it), and
    not stacked in a column of larger glyphs themselves (no larger glyph over or under
    them within its size along their centre: a bracketed note number set small in the
    column is text), and the glyphs stacked with those that overhang their base
    (`_ruby_runs`).  Ruby read as text would part the column it stands beside, or
    lift the glyphs it glosses out of it."""
    ruby = np.zeros(len(box), dtype=np.bool_)
    base = np.flatnonzero(bases)
    if not len(base):
        return ruby
    ratio = config.line_like_size_ratio
    small = np.flatnonzero(candidates & (sizes < ratio * sizes[base].max()))
    # a few candidates at a time, near one another across, against the larger glyphs
    # within reach of them across: every glyph of a page against every other is slow
    small = small[np.argsort(box[small, 0], kind="stable")]
    reach_max = float(sizes[base].max())
    for start in range(0, len(small), 256):
        k = small[start:start + 256]
        chosen = base[(ratio * sizes[base] > sizes[k].min())
                      & (box[base, 2] >= box[k, 0].min() - reach_max)
                      & (box[base, 0] <= box[k, 2].max() + reach_max)]
        if not len(chosen):
            continue
        b = box[chosen]
        reach = sizes[chosen][None, :]
        kb = box[k]
        larger = ratio * reach > sizes[k][:, None]
        height = (kb[:, 3] - kb[:, 1])[:, None]
        level = (np.minimum(kb[:, 3:4], b[None, :, 3]) - np.maximum(kb[:, 1:2], b[None, :, 1])
                 >= 0.5 * height)
        centre = ((kb[:, 0] + kb[:, 2]) / 2)[:, None]
        on = (b[None, :, 0] <= centre) & (centre <= b[None, :, 2])
        across = np.maximum(b[None, :, 0] - kb[:, 2:3], kb[:, 0:1] - b[None, :, 2])
        along = np.maximum(b[None, :, 1] - kb[:, 3:4], kb[:, 1:2] - b[None, :, 3])
        beside = larger & level & ~on & (across <= reach)
        stacked = larger & on & (along <= reach)
        ruby[k] = beside.any(axis=1) & ~stacked.any(axis=1)
    return _ruby_runs(box, sizes, np.sort(small), ruby, config)


def _ruby_runs(box: npt.NDArray[np.float64], sizes: npt.NDArray[np.float64],
               small: npt.NDArray[np.intp], ruby: npt.NDArray[np.bool_],
               config: WordsConfig) -> npt.NDArray[np.bool_]:
    """``ruby`` with the ``small`` glyphs drawn right before or after a ruby glyph and
    stacked with it (overlapping it across by half the narrower, at most
    ``vertical_max_gap_em`` apart) made ruby too: the kana of a reading longer than its
    base overhang it, above or under, level with no base glyph."""
    ruby = ruby.copy()
    a, b = small[:-1], small[1:]
    stacked = (_share_column(box[a], box[b]) & (box[b, 1] >= (box[a, 1] + box[a, 3]) / 2)
               & (box[b, 1] - box[a, 3] <= config.vertical_max_gap_em * sizes[a]))
    while True:  # along each run of stacked glyphs, a kana at a time
        spread = stacked & (ruby[a] != ruby[b])
        if not spread.any():
            break
        ruby[a[spread]] = ruby[b[spread]] = True
    return ruby


def _set_in_columns(box: npt.NDArray[np.float64], sizes: npt.NDArray[np.float64],
                    vertical: npt.NDArray[np.bool_], candidates: npt.NDArray[np.bool_],
                    drawn: npt.NDArray[np.bool_], config: WordsConfig) -> npt.NDArray[np.intp]:
    """For each of the ``candidates`` (upright glyphs neither CJK nor of a column: digits,
    Latin letters, signs) set in a column of vertical writing, the column glyph it stands
    under (over): a run of them drawn right after (before) that glyph among the glyphs
    ``drawn`` (the page's, but whitespace, ruby and punctuation), each under the one
    before, overlapping the glyph's cell across (its size wide about its centre) and no
    wider, starting under (ending over) it within ``vertical_max_gap_em`` of its end: a
    note's call set in the column or in its ruby position ('妻す#1。'), a figure in a
    cell.  -1 for every other glyph."""
    host = np.full(len(box), -1, dtype=np.intp)
    seq = np.flatnonzero(drawn | vertical)
    runs = np.split(seq, np.flatnonzero(np.diff(candidates[seq].astype(np.int8))) + 1)
    for before, run, after in zip([None, *runs[:-1]], runs, [*runs[1:], None], strict=True):
        middles = (box[run, 1] + box[run, 3]) / 2
        if not candidates[run[0]] or (box[run[1:], 1] < middles[:-1]).any():
            continue
        x0, x1 = box[run, 0].min(), box[run, 2].max()
        for neighbour, under in ((before, True), (after, False)):
            if neighbour is None:
                continue
            h = int(neighbour[-1] if under else neighbour[0])
            gap = (box[run, 1].min() - box[h, 3]) if under else (box[h, 1] - box[run, 3].max())
            centre = (box[h, 0] + box[h, 2]) / 2
            if (vertical[h] and x1 - x0 <= sizes[h]
                    and min(x1, centre + sizes[h] / 2) > max(x0, centre - sizes[h] / 2)
                    and -0.5 * (box[h, 3] - box[h, 1]) <= gap
                    <= config.vertical_max_gap_em * sizes[h]):
                host[run] = h
                break
    return host


def _punctuation_hosts(box: npt.NDArray[np.float64], vertical: npt.NDArray[np.bool_],
                       punct: npt.NDArray[np.bool_], stacking: npt.NDArray[np.bool_]
                       ) -> npt.NDArray[np.intp]:
    """For each ``punct`` glyph, the glyph of a column (``vertical``, one of
    ``stacking``) whose column it stands in: the glyph drawn before it, when the mark
    overlaps it across and does not start above it, else the glyph drawn after it,
    when the mark overlaps it across and does not end under it (an opening bracket);
    -1 for a mark of no column and for every other glyph."""
    host = np.full(len(box), -1, dtype=np.intp)
    seq = np.flatnonzero(stacking)
    marks = np.flatnonzero(punct)
    if not len(seq) or not len(marks):
        return host
    at = np.searchsorted(seq, marks)
    for k, a in zip(marks.tolist(), at.tolist(), strict=True):
        for j, fits in ((a - 1, box[k, 1] >= box[seq[a - 1], 1] if a else False),
                        (a, box[k, 3] <= box[seq[a], 3] if a < len(seq) else False)):
            if not fits:
                continue
            h = int(seq[j])
            if vertical[h] and min(box[k, 2], box[h, 2]) >= max(box[k, 0], box[h, 0]):
                host[k] = h
                break
    return host
