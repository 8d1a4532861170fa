"""Copyright and licence notices: a publisher's paragraph set into a page's columns.

A journal's first page often carries, at the foot of a column or under its abstract, a
paragraph that is not the article's text: `Copyright © 1975, Association for Computing
Machinery ...`, `© 2014 The Authors; licensee ...`.  It repeats on no other page and
stands inside the text block, so neither repetition nor position finds it; its opening
does:

- A notice is a paragraph whose first line opens with a copyright mark and a year, set
  apart from the text above it by white space (`notice_pattern`).
- It runs on over the lines that follow it closely at its size, up to the first line
  that starts a new paragraph (indented, or parted by white space).
- Its lines are furniture: they leave the body as a running footer does.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

import numpy as np

from ..config import LayoutConfig
from ..geometry.grid import weighted_median
from ..geometry.words import group_lines
from ..model import Word

__all__ = ["notice_words"]


_MIN_GAP_EM = 0.5
"""A notice is parted from the line above it by at least this many times its size of
white space, and runs on over the lines that follow closer than that."""

_SIZE_TOLERANCE = 0.15
"""A notice's lines are set within this share of its first line's size."""

_INDENT_EM = 0.5
"""A line indented by more than this many times the notice's size from the left edge
of the notice's lines starts a new paragraph: the notice has ended."""

# Not parameters: halved or doubled, each reads the labelled pages alike (the pattern
# that opens a notice, ``notice_pattern``, is what finds one).


@cache
def _pattern(text: str) -> re.Pattern[str]:
    return re.compile(text, re.IGNORECASE)


def notice_words(leaves: Sequence[Sequence[Word]], config: LayoutConfig) -> list[Word]:
    """The words of the notices among one column's ``leaves`` (its pieces, top to
    bottom), or none."""
    pattern = _pattern(config.reading.notice_pattern)
    # a line's words stand together in the column's words, ordered by baseline then x:
    # a column with no notice opening anywhere in them has no notice line
    if not pattern.search(" ".join(w.text for leaf in leaves for w in leaf)):
        return []
    lines = [line for leaf in leaves for line in group_lines(leaf, config.words)]
    found: list[Word] = []
    k = 0
    while k < len(lines):
        end = _notice_end(lines, k) \
            if pattern.match(" ".join(w.text for w in lines[k])) else k
        if end > k:
            found += [w for line in lines[k:end] for w in line]
        k = max(end, k + 1)
    return found


def _notice_end(lines: Sequence[Sequence[Word]], start: int) -> int:
    """Past the last line of the notice that ``lines[start]`` opens, or ``start`` when
    that line is no notice's first (it follows the line above closely)."""
    size = _size(lines[start])
    if start and _gap(lines[start - 1], lines[start]) < _MIN_GAP_EM * size:
        return start
    end, left = start + 1, None
    while end < len(lines):
        line = lines[end]
        edge = line[0].bbox.x0
        if (abs(_size(line) - size) > _SIZE_TOLERANCE * size
                or not 0 <= _gap(lines[end - 1], line) < _MIN_GAP_EM * size
                or (left is not None and edge > left + _INDENT_EM * size)):
            break
        left = edge if left is None else min(left, edge)
        end += 1
    return end


def _size(line: Sequence[Word]) -> float:
    """The usual size of a line's words, weighted by their characters."""
    return weighted_median(np.array([w.size for w in line]),
                           np.array([len(w.text) for w in line], dtype=float))


def _gap(above: Sequence[Word], below: Sequence[Word]) -> float:
    """The white space from the bottom of line ``above`` to the top of line ``below``
    (negative when ``below`` does not stand under it)."""
    return min(w.bbox.top for w in below) - max(w.bbox.bottom for w in above)
