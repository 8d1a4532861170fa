"""Lines parted where the content stream and the type say they are not one line.

Words that stand on one baseline (:func:`~layoutkit.geometry.words.group_lines`) are
one line unless one of these says otherwise:

1. display type: the words ``drop_cap_min_height`` times taller than the height most
   of the line's letters have (a cover's title, a key figure, a headline level with
   the small text of the next column) are a line of their own, placed by their top;
2. the content stream: two neighbouring words that the stream does not draw one
   after the other, a gap wider than a word space between them, are parted there
   (the lines of side-by-side columns level with each other, an OCR layer drawn
   column by column).  Words drawn one after the other still join across a wide gap
   (a tab stop, justified text).  A gap is wider than a word space when it is wider
   than ``word_space_ratio`` times the usual space between neighbouring words of one
   size (``line_like_size_ratio``) drawn one after the other, relative to their size;
3. runs of words that the stream draws one after the other, each right of the one
   before, standing across each other on baselines apart (two lines of a skewed scan
   that overlap) are lines of their own, not interleaved;
4. a line of a right-to-left script has its pieces read from its right end.

The stream counts only where it is coherent: where most neighbouring words on the
lines are drawn one after the other; a stream drawn shuffled parts nothing by rules
2 and 3.  Where the stream parted a line, the pieces are read as an XY-cut reads
them (:func:`stream_order`), the columns they stand in read one after the other
where the stream draws each down.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import pairwise
from statistics import median

import numpy as np
import numpy.typing as npt

from ..config import LayoutConfig
from ..model import Word
from ..reading.text import right_to_left

__all__ = ["parted_lines", "stream_order"]


def parted_lines(lines: Sequence[Sequence[Word]], config: LayoutConfig
                 ) -> tuple[list[list[Word]], bool]:
    """``lines`` (each one's words left to right, the lines top to bottom) with each
    line parted where display type, type of another size or the content stream says
    it is not one (see the module's rules), its pieces in place of it; and whether
    the stream parted any (then :func:`stream_order` reads the pieces)."""
    words = [w for line in lines for w in line]
    rank = _ranks(words)
    at = {id(w): k for k, w in enumerate(words)}
    space, coherent = _usual_space(lines, rank, at, config)
    limit = config.gutters.word_space_ratio * space
    out: list[list[Word]] = []
    display: list[list[Word]] = []
    by_stream = False
    for whole in lines:
        big, line = _display_parts(whole, config)
        if big:
            display.append(big)
        if not line:
            continue
        parts = [line]
        if coherent:
            parts = [run for part in parts
                     for run in _stacked_runs(part, rank, at, config.words.baseline_tolerance)]
        pieces: list[list[Word]] = []
        for part in parts:
            piece: list[Word] = [part[0]]
            for a, b in pairwise(part):
                gap = b.bbox.x0 - a.bbox.x1
                em = max(a.size, b.size)
                drawn = _successive(rank, at[id(a)], at[id(b)])
                wide = space > 0 and gap > limit * em
                if wide and coherent and not drawn:
                    by_stream = True
                    pieces.append(piece)
                    piece = []
                piece.append(b)
            pieces.append(piece)
        # a line of a right-to-left script is read from its right end
        out += pieces[::-1] if right_to_left(w.text for w in line) else pieces
    for big in display:  # each display line where it stands, by its words' median top
        tops = [median(w.bbox.top for w in piece) for piece in out]
        top = median(w.bbox.top for w in big)
        out.insert(next((k for k, t in enumerate(tops) if t > top), len(out)), big)
    return out, by_stream


def _stacked_runs(line: Sequence[Word], rank: npt.NDArray[np.intp], at: dict[int, int],
                  tolerance: float) -> list[list[Word]]:
    """A line's words (left to right) as the lines the stream draws: where the line
    holds runs of words drawn one after the other, each right of the one before (two
    words or more each), that stand across each other on baselines more than
    ``tolerance`` of their height apart, each run is a line of its own, the highest
    first, a word of a run of its own joining the run whose foot is nearest its own
    (two lines of a skewed scan that overlap, read word by word by the stream, are not
    interleaved)."""
    ranks = [int(rank[at[id(w)]]) for w in line]
    if len(line) < 4 or min(ranks) < 0:
        return [list(line)]
    by_rank = sorted(range(len(line)), key=ranks.__getitem__)
    run_of = [0] * len(line)
    for a, b in pairwise(by_rank):
        onward = ranks[b] == ranks[a] + 1 and line[b].bbox.x0 >= line[a].bbox.x0
        run_of[b] = run_of[a] + (not onward)
    runs: dict[int, list[int]] = {}
    for k, r in enumerate(run_of):
        runs.setdefault(r, []).append(k)
    long = [ks for ks in runs.values() if len(ks) >= 2]
    spans = [(line[ks[0]].bbox.x0, line[ks[-1]].bbox.x1) for ks in long]
    feet = [median(line[k].bbox.bottom for k in ks) for ks in long]
    height = median(w.bbox.bottom - w.bbox.top for w in line)
    crossed = any(min(a[1], b[1]) > max(a[0], b[0])
                  and abs(feet[i] - feet[j]) > tolerance * height
                  for i, a in enumerate(spans) for j, b in enumerate(spans) if j > i)
    if not crossed:
        return [list(line)]
    stacks: list[list[int]] = [list(ks) for ks in long]
    for ks in runs.values():
        if len(ks) < 2:
            nearest = min(range(len(long)), key=lambda j: abs(feet[j] - line[ks[0]].bbox.bottom))
            stacks[nearest] += ks
    stacks.sort(key=lambda ks: median(line[k].bbox.top for k in ks))
    return [[line[k] for k in sorted(ks)] for ks in stacks]


def _ranks(words: Sequence[Word]) -> npt.NDArray[np.intp]:
    """Each word's place among ``words`` in the content stream's order; -1 for all
    when the stream tells nothing (every word at one place: words built by hand)."""
    streams = np.array([w.stream for w in words], dtype=np.int64)
    if len(streams) < 2 or (streams == streams[0]).all():
        return np.full(len(words), -1, dtype=np.intp)
    order = np.argsort(streams, kind="stable")
    rank = np.empty(len(words), dtype=np.intp)
    rank[order] = np.arange(len(words))
    return rank


def _successive(rank: npt.NDArray[np.intp], a: int, b: int) -> bool:
    """Whether the words at ``a`` and ``b`` are drawn one right after the other."""
    return bool(rank[a] >= 0 and abs(int(rank[a]) - int(rank[b])) == 1)


def _usual_space(lines: Sequence[Sequence[Word]], rank: npt.NDArray[np.intp],
                 at: dict[int, int], config: LayoutConfig) -> tuple[float, bool]:
    """The usual word space of the words of ``lines``, relative to their size (the
    median gap between neighbouring words of one size drawn one after the other, or
    between all such neighbours where the stream tells nothing or is incoherent; 0
    without a gap), and whether the stream is coherent: most neighbouring words on the
    lines are drawn one after the other."""
    drawn: list[float] = []
    every: list[float] = []
    for line in lines:
        for a, b in pairwise(line):
            gap = (b.bbox.x0 - a.bbox.x1) / max(a.size, b.size, 1.0)
            if gap <= 0 or not _like(a, b, config):
                continue
            every.append(gap)
            if _successive(rank, at[id(a)], at[id(b)]):
                drawn.append(gap)
    coherent = 2 * len(drawn) > len(every)
    gaps = drawn if coherent else every
    return (median(gaps) if gaps else 0.0), coherent


def _like(a: Word, b: Word, config: LayoutConfig) -> bool:
    """Whether two words are of one size: their heights within
    ``line_like_size_ratio`` of each other."""
    ha, hb = a.bbox.bottom - a.bbox.top, b.bbox.bottom - b.bbox.top
    return min(ha, hb) >= config.words.line_like_size_ratio * max(ha, hb)


def _display_parts(line: Sequence[Word], config: LayoutConfig
                   ) -> tuple[list[Word], list[Word]]:
    """A line's words (left to right) parted into display type and the rest, each left
    to right: the words at least ``drop_cap_min_height`` times taller than the height
    most of the line's letters have, a line of their own (a cover's title, a key
    figure, a headline beside the small text of the next column).  A superscript or a
    subscript is smaller than its line, never taller."""
    heights = np.array([w.bbox.bottom - w.bbox.top for w in line])
    letters = np.array([len(w.text) for w in line])
    order = np.argsort(heights, kind="stable")
    usual = float(heights[order][np.searchsorted(np.cumsum(letters[order]),
                                                 letters.sum() / 2)])
    tall = heights >= config.words.drop_cap_min_height * usual
    if usual <= 0 or not tall.any():
        return [], list(line)
    return ([w for w, t in zip(line, tall.tolist(), strict=True) if t],
            [w for w, t in zip(line, tall.tolist(), strict=True) if not t])


def stream_order(lines: Sequence[Sequence[Word]], config: LayoutConfig) -> list[list[Word]]:
    """``lines`` (pieces of lines, top to bottom, each row's pieces left to right) in
    reading order, cut as an XY-cut cuts a page (:func:`_apart`): where the pieces
    stand in groups with a vertical strip of white between them that no piece crosses,
    the stream draws each
    group down (:func:`_drawn_down`) and two of them hold ``gutter_min_lines`` pieces
    or more, the groups left to right (the columns that the pieces' lines were glued
    across; not the cells of a table's row, nor a table drawn row by row); where none,
    in groups
    with white between them top to bottom; each group cut again, and one that no cut
    parts left in its order."""
    boxes = np.array([[line[0].bbox.x0, min(w.bbox.top for w in line),
                       line[-1].bbox.x1, max(w.bbox.bottom for w in line)]
                      for line in lines], dtype=np.float64)
    rank = _ranks([w for line in lines for w in line])
    ends = np.cumsum([len(line) for line in lines])
    first = np.array([rank[e - len(line):e].min() for line, e in zip(lines, ends, strict=True)])
    last = np.array([rank[e - len(line):e].max() for line, e in zip(lines, ends, strict=True)])
    order: list[int] = []
    pending: list[list[int]] = [list(range(len(lines)))]
    def columns(group: list[int]) -> list[list[int]]:
        parts = _apart(boxes, group, 0)
        if len(parts) > 1 and _drawn_down(parts, first, last) and sum(
                len(part) >= config.gutters.gutter_min_lines for part in parts) >= 2:
            return parts
        return [group]

    while pending:
        group = pending.pop()
        parts = columns(group) if len(group) > 1 else [group]
        if len(parts) == 1 and len(group) > 1:
            parts = _apart(boxes, group, 1)
        if len(parts) == 1 and len(group) > 1:
            parts = _across(boxes, group, columns)
        if len(parts) == 1:
            order += group
        else:
            pending += parts[::-1]
    return [list(lines[k]) for k in order]


def _across(boxes: npt.NDArray[np.float64], group: list[int],
            columns: Callable[[list[int]], list[list[int]]]) -> list[list[int]]:
    """The pieces ``group`` (rows of ``boxes``) parted at the pieces that run across
    its columns (a heading or a caption over several, a line glued across a gutter by
    the stream itself), as XY-Cut++ masks them: the widest pieces, wider than most,
    are set aside one by one until the rest parts into ``columns``; the rest is then
    parted at each of them, top to bottom, each standing alone between the pieces
    above and below it.  ``group`` whole where no such pieces part it."""
    width = boxes[group, 2] - boxes[group, 0]
    usual = float(np.median(width))
    wide = [group[k] for k in np.argsort(-width, kind="stable").tolist() if width[k] > usual]
    for count in range(1, len(wide) + 1):
        masked = set(wide[:count])
        rest = [k for k in group if k not in masked]
        if len(columns(rest)) < 2:
            continue
        crossing = sorted(masked, key=lambda k: float(boxes[k, 1]))
        tops = boxes[crossing, 1]
        band = np.searchsorted(tops, boxes[rest, 1], side="right")
        parts: list[list[int]] = []
        for b in range(len(crossing) + 1):
            if b:
                parts.append([crossing[b - 1]])
            parts.append([k for k, n in zip(rest, band.tolist(), strict=True) if n == b])
        return [part for part in parts if part]
    return [group]


def _drawn_down(parts: list[list[int]], first: npt.NDArray[np.intp],
                last: npt.NDArray[np.intp]) -> bool:
    """Whether the stream draws each of ``parts`` (groups of pieces, each top to
    bottom) down: most pieces that follow another in a group are drawn right after
    it (``first`` and ``last``: the places in the stream of each piece's first and last
    word), as a column of text is; a table drawn row by row is not."""
    pairs = [(a, b) for part in parts for a, b in pairwise(part)]
    return 2 * sum(int(first[b]) == int(last[a]) + 1 for a, b in pairs) > len(pairs)


def _apart(boxes: npt.NDArray[np.float64], group: list[int], axis: int) -> list[list[int]]:
    """The pieces ``group`` (rows of ``boxes``: x0, top, x1, bottom) in groups parted by
    white along ``axis``, each group in the given order: across x at every strip of
    white, left to right (columns); across y at the widest only, top to bottom (a
    line that runs across the columns above and below parts them from each other,
    not every line from the next)."""
    low, high = boxes[group, axis], boxes[group, axis + 2]
    order = np.argsort(low, kind="stable")
    reach = np.maximum.accumulate(high[order])
    white = low[order][1:] - reach[:-1]
    cuts = np.flatnonzero(white > 0) + 1
    if not len(cuts):
        return [group]
    if axis:
        cuts = cuts[np.argmax(white[cuts - 1]):][:1]
    label = np.zeros(len(group), dtype=np.intp)
    label[order] = np.searchsorted(cuts, np.arange(len(group)), side="right")
    return [[k for k, g in zip(group, label.tolist(), strict=True) if g == part]
            for part in range(len(cuts) + 1)]
