"""Lines parted where the content stream draws them as two.

Words on one baseline (`layoutkit.geometry.words.group_lines`) are one line by their
coordinates alone.  Where no gutter was found between two columns (a warped scan's
leaning gutters, a picture closing every strip beside the text), lines of neighbouring
columns level with each other are taken as one.  The content stream tells them apart:
a run of words drawn one after the other, rightwards, is one line of one column.

A line is parted where:

- **interleaved lines**: runs of at least `_MIN_RUN` words (of two characters or more:
  the letters of a title set spaced out are no words) drawn one after the
  other whose extents cross, on baselines more than ``baseline_tolerance`` of the
  line's height apart, are lines of their own, the highest first (two lines of a
  skewed scan that one row took in); the other words join the run whose baseline is
  nearest theirs;
- **columns side by side**: two neighbouring words of different runs are parted when
  both runs are words of letters (half their words or more: a table's figures are
  not), one of them at least `_MIN_RUN` words long and the other at least a word of
  two characters (a bullet is none), and a gap wider than
  `_GAP_EM` of their words' median size stands between them (an OCR layer's sizes
  vary from word to word), with no ruled table's cell wall down it (its rows read
  across), and, where a run has words on both sides of it, wider than `_SPACES` times
  the line's usual word space (between neighbours of one run): a run that goes on past
  a word drawn elsewhere in the stream (an OCR engine's word read again and written at
  the end of its column) is one line with it, not two columns, while a form that draws
  its labels, then their values, is parted between its fields.

A stream that tells nothing (words built by hand, all at one place) parts nothing, and
a shuffled stream draws no runs long enough to part anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from statistics import median

import numpy as np

from ..config import WordsConfig
from ..model import Word

__all__ = ["parted_lines"]

Wall = tuple[float, float, float]
"""A ruled table's cell wall: its x, top and bottom."""

_MIN_RUN = 3
"""Fewest words of a run the stream draws that is taken for a line of a column: two
words drawn in turn may be a table's cell or a label and its value.  Not a parameter:
with 2 or 4 the development corpus reads alike but for the National Tribune's page
(order 0.927 and 0.908, against 0.933 with 3, before a run going on past a gap kept
its line whole)."""
_GAP_EM = 0.5
"""The gap, in ems of the two runs' median word size, wider than any word space of text
set ragged or justified at an ordinary measure, beyond which two runs are parted.  Not a
parameter: a narrower limit parts a line drawn in two runs (a link's text drawn
apart) at its word space."""


_SPACES = 2.0
"""How many of a line's usual word spaces (the median white between neighbours of one
run) a gap that a run goes on past must be wide to part the line: a justified line's
widest space is well under twice its usual one, a form's white between its fields
many times more.  Not a parameter: with 3 the development corpus reads alike, with 1.5
the National Tribune's page loses a line and a pair."""


def parted_lines(lines: Sequence[list[Word]], walls: Sequence[Wall], config: WordsConfig
                 ) -> list[list[Word]]:
    """``lines`` (each one's words left to right, top to bottom) with each upright
    line parted where the content stream draws it as two (see the module's rules),
    its pieces in its place, top to bottom then left to right; ``walls`` are the x,
    top and bottom of the page's ruled tables' cell walls
    (`layoutkit.geometry.grid.table_walls`)."""
    words = [w for line in lines for w in line]
    streams = np.array([w.stream for w in words], dtype=np.int64)
    if len(words) < 2 or (streams == streams[0]).all():
        return list(lines)
    order = np.argsort(streams, kind="stable")
    ranks = np.empty(len(words), dtype=np.int64)
    ranks[order] = np.arange(len(words))
    # most lines are one run drawn left to right: each word ranked right after the last
    lengths = np.array([len(line) for line in lines], dtype=np.int64)
    ends = np.cumsum(lengths)
    breaks = np.concatenate(([0], np.cumsum(np.diff(ranks) != 1)))
    one_run = (lengths <= 1) | (breaks[np.maximum(ends - 1, 0)]
                                == breaks[np.minimum(ends - lengths, len(words) - 1)])
    rank: dict[int, int] | None = None
    out: list[list[Word]] = []
    for line, whole in zip(lines, one_run.tolist(), strict=True):
        if whole or len(line) <= _MIN_RUN or not all(w.upright for w in line):
            out.append(line)
            continue
        if rank is None:
            rank = dict(zip(map(id, words), ranks.tolist(), strict=True))
        for piece in _unleaved(line, rank, config.baseline_tolerance):
            out += _apart(piece, rank, walls)
    return out


def _runs(line: Sequence[Word], rank: dict[int, int]) -> list[list[Word]]:
    """The words of ``line`` in runs the stream draws one after the other, each word
    right of the one before, in the stream's order."""
    by_rank = sorted(line, key=lambda w: rank[id(w)])
    runs = [[by_rank[0]]]
    for a, b in pairwise(by_rank):
        if rank[id(b)] == rank[id(a)] + 1 and b.bbox.x0 >= a.bbox.x0:
            runs[-1].append(b)
        else:
            runs.append([b])
    return runs


def _unleaved(line: list[Word], rank: dict[int, int], tolerance: float) -> list[list[Word]]:
    """``line`` as the lines its interleaved runs are (the module's first rule), each
    left to right, the highest first; ``[line]`` when no two of its long runs cross."""
    runs = _runs(line, rank)
    long = [run for run in runs if _words_long(run) >= _MIN_RUN]
    feet = [median(w.bbox.bottom for w in run) for run in long]
    height = median(w.bbox.height for w in line)
    spans = [(run[0].bbox.x0, max(w.bbox.x1 for w in run)) for run in long]
    if not any(min(a[1], b[1]) > max(a[0], b[0]) and abs(feet[i] - feet[j]) > tolerance * height
               for i, a in enumerate(spans) for j, b in enumerate(spans) if j > i):
        return [line]
    stacks = [list(run) for run in long]
    for run in runs:
        if _words_long(run) < _MIN_RUN:
            for w in run:
                stacks[min(range(len(long)), key=lambda k: abs(feet[k] - w.bbox.bottom))].append(w)
    stacks.sort(key=lambda stack: median(w.bbox.bottom for w in stack))
    out: list[list[Word]] = []
    for stack in stacks:  # runs on one baseline, side by side, are one line again
        foot = median(w.bbox.bottom for w in stack)
        if out and foot - median(w.bbox.bottom for w in out[-1]) <= tolerance * height:
            out[-1] += stack
        else:
            out.append(stack)
    return [sorted(stack, key=lambda w: w.bbox.x0) for stack in out]


def _apart(line: list[Word], rank: dict[int, int], walls: Sequence[Wall]) -> list[list[Word]]:
    """``line`` parted between neighbouring words of runs of words set side by side (the
    module's second rule), its pieces left to right."""
    runs = _runs(line, rank)
    run_id = {id(w): k for k, run in enumerate(runs) for w in run}
    run_of = [run_id[id(w)] for w in line]
    last = {k: i for i, k in enumerate(run_of)}
    gaps = [b.bbox.x0 - a.bbox.x1 for a, b in pairwise(line)]
    spaces = [gap for gap, (ra, rb) in zip(gaps, pairwise(run_of), strict=True) if ra == rb]
    space = _SPACES * median(spaces) if spaces else 0.0
    wordy = [2 * sum(any(c.isalpha() for c in w.text) for w in run) >= len(run) for run in runs]
    pieces, reach = [[line[0]]], 0
    for i, (a, b) in enumerate(pairwise(line)):
        ra, rb = run_of[i], run_of[i + 1]
        reach = max(reach, last[ra])  # the furthest word of a run met so far
        if (ra != rb and wordy[ra] and wordy[rb]
                and max(_words_long(runs[ra]), _words_long(runs[rb])) >= _MIN_RUN
                and min(_words_long(runs[ra]), _words_long(runs[rb])) >= 1
                and gaps[i] > _GAP_EM * median(w.size for w in (*runs[ra], *runs[rb]))
                and (reach == i or gaps[i] > space)
                and not _walled(a, b, walls)):
            pieces.append([])
        pieces[-1].append(b)
    return pieces


def _words_long(run: Sequence[Word]) -> int:
    """How many words of ``run`` hold two characters or more: the letters of a title
    set spaced out ('D E M E N T I A') are no run of words."""
    return sum(len(w.text) >= 2 for w in run)


def _walled(a: Word, b: Word, walls: Sequence[Wall]) -> bool:
    """Whether a ruled table's cell wall runs down the gap between words ``a`` and
    ``b`` (left to right) beside them."""
    top, bottom = min(a.bbox.top, b.bbox.top), max(a.bbox.bottom, b.bbox.bottom)
    return any(a.bbox.x1 <= x <= b.bbox.x0 and wall_top <= bottom and wall_bottom >= top
               for x, wall_top, wall_bottom in walls)
