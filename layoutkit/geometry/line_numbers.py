"""Line numbers printed in a margin: a review copy's ruler, pleading paper, a patent's.

Papers sent for review, court pleadings, bills and patents print numbers beside their
lines for citation: a ruler down the outer margins (000, 001, ...), 1 to 28 left of a
pleading's rule, 5, 10, ... 65 in the gutter between a patent's columns.  They are no
part of the text, and where they stand beside it they join its lines ('012 Abstract
such papers ... 066') and close the gutters between its columns.  A run of numbers is
such a margin when:

- each is a whole number standing alone (upright digits, no other character), and
  they stand one under another, their centres within a digit's height across;
- there are at least `_MIN_NUMBERS` of them, counting up by one constant step
  from top to bottom, and spaced evenly: each step takes the same height
  (`_PITCH_SPREAD`), as a ruler's marks do, whatever the lines beside them do;
- they run down at least half the height of the page's text, in a strip of their own:
  no other word stands across the strip, beside them or just above or below them;
- counting by more than one, they number every few lines: some text stands between
  two of them, level with none.

A table's column of counts climbs unevenly or not at all, and a table's column of
pins or rows counting by two (1, 3, 5 beside 2, 4, 6) stands level with its rows, none
between; a numbered list's or a contents page's numbers stand in the text's column,
whose other lines (a heading over them, a paragraph under them) cross their strip.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from itertools import pairwise

import numpy as np

from ..model import Word

__all__ = ["line_numbers"]

_WHOLE_NUMBER = re.compile(r"\d{1,4}")
_MIN_NUMBERS = 5
"""Fewest numbers in a margin: a patent's column of 65 lines numbered every tenth
line shows six.  Not a parameter: the tests of even steps are what tell a margin."""
_STRIP_REACH = 3.0
"""How far above and below its numbers, in their heights, a margin's strip must be free
of other words: a contents page's heading stands a line or two over its numbered
entries, a patent's running header far above its ruler."""
_PITCH_SPREAD = 0.1
"""The most by which the height of one step may differ from the usual step's, as a
share of it: a ruler's marks stand at one pitch, typeset or scanned."""


def line_numbers(words: Sequence[Word], taken: Collection[int] = ()) -> set[int]:
    """Indexes of ``words`` (none of ``taken``) that are line numbers in a margin
    (see the module's rules); empty when the page prints none."""
    numbers = [i for i, w in enumerate(words)
               if w.text[:1].isdigit() and _WHOLE_NUMBER.fullmatch(w.text) and w.upright
               and i not in taken]
    runs = [run for run in _stacks(words, numbers)
            if len(run) >= _MIN_NUMBERS and _counts_evenly(words, run)] \
        if len(numbers) >= _MIN_NUMBERS else []
    if not runs:
        return set()
    upright = [i for i, w in enumerate(words) if w.upright and i not in taken]
    runs = [run for run in runs if _marks_lines(words, run, upright)]
    if not runs:
        return set()
    half_text = (max(words[i].bbox.bottom for i in upright)
                 - min(words[i].bbox.top for i in upright)) / 2
    return {i for run in runs
            if words[run[-1]].bbox.bottom - words[run[0]].bbox.top >= half_text
            and _own_strip(words, run, upright) for i in run}


def _stacks(words: Sequence[Word], numbers: Sequence[int]) -> list[list[int]]:
    """``numbers`` (indexes) in stacks standing one under another, each top to bottom:
    by their centres across, a stack's neighbours within a digit's height of each
    other."""
    by_x = sorted(numbers, key=lambda i: _centre(words[i]))
    stacks: list[list[int]] = [[by_x[0]]]
    for before, i in pairwise(by_x):
        if _centre(words[i]) - _centre(words[before]) > words[i].bbox.height:
            stacks.append([])
        stacks[-1].append(i)
    return [sorted(stack, key=lambda i: words[i].bbox.top) for stack in stacks]


def _centre(word: Word) -> float:
    return (word.bbox.x0 + word.bbox.x1) / 2


def _counts_evenly(words: Sequence[Word], run: Sequence[int]) -> bool:
    """Whether the numbers of ``run`` (top to bottom) count up by one constant step,
    each step taking the same height."""
    values = np.array([int(words[i].text) for i in run], dtype=np.float64)
    tops = np.array([words[i].bbox.top for i in run], dtype=np.float64)
    steps, heights = np.diff(values), np.diff(tops)
    if not (steps > 0).all() or not (steps == steps[0]).all() or not (heights > 0).all():
        return False
    usual = float(np.median(heights))
    return bool((np.abs(heights - usual) <= _PITCH_SPREAD * usual).all())


def _marks_lines(words: Sequence[Word], run: Sequence[int], upright: Sequence[int]) -> bool:
    """Whether the numbers of ``run`` (top to bottom, counting evenly) mark lines as a
    ruler does: counting by one, every line; counting by more, every few lines, so
    that some upright word outside the run stands between two of them, level with
    neither."""
    if int(words[run[1]].text) - int(words[run[0]].text) == 1:
        return True
    members = set(run)
    for a, b in pairwise(run):
        above, below = words[a].bbox.bottom, words[b].bbox.top
        if any(above < (words[i].bbox.top + words[i].bbox.bottom) / 2 < below
               for i in upright if i not in members):
            return True
    return False


def _own_strip(words: Sequence[Word], run: Sequence[int], upright: Sequence[int]) -> bool:
    """Whether no upright word but those of ``run`` stands across the strip the run's
    numbers fill, over the run's height and `_STRIP_REACH` of the numbers' heights
    above and below it."""
    boxes = [words[i].bbox for i in run]
    x0, x1 = min(b.x0 for b in boxes), max(b.x1 for b in boxes)
    reach = _STRIP_REACH * float(np.median([b.height for b in boxes]))
    top, bottom = boxes[0].top - reach, boxes[-1].bottom + reach
    members = set(run)
    return not any(words[i].bbox.x0 < x1 and words[i].bbox.x1 > x0
                   and words[i].bbox.top < bottom and words[i].bbox.bottom > top
                   for i in upright if i not in members)
