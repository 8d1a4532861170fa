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
- At a column's head or foot, where a journal sets its imprint (`Vol. 77, No. 21 ...
  Copyright © 2011, American Society for Microbiology`, `Proceedings of the 33rd
  International Conference ... Copyright 2016 by the author(s).`), the mark and year
  may open any line or sentence of it: the column's first or last paragraph, of a few
  lines set apart by white space, no larger than the column's text, no caption and not
  the column's only paragraph, is a notice (`_imprint`).
- Its lines are furniture: they leave the body as a running footer does.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from itertools import accumulate

import numpy as np

from ..config import LayoutConfig
from ..geometry.grid import weighted_median
from ..geometry.words import group_lines
from ..model import Word
from ..model.captions import is_caption

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


def notice_words(leaves: Sequence[Sequence[Word]], config: LayoutConfig, *,
                 head: bool = False, foot: bool = False) -> list[Word]:
    """The words of the notices among one column's ``leaves`` (its pieces, top to
    bottom), or none; with ``head`` (``foot``) the column stands at the top (the foot)
    of the page's text, and its first (last) paragraph may be an imprint."""
    pattern = _pattern(config.reading.notice_pattern)
    # a line's words stand together in the column's words, ordered by baseline then x:
    # a column with no notice opening anywhere in them has no notice line
    if not pattern.search(" ".join(w.text for leaf in leaves for w in leaf)):
        return []
    lines = [line for leaf in leaves for line in group_lines(leaf, config.words)]
    notices: set[int] = set()
    for k, line in enumerate(lines):
        parted = not k or _gap(lines[k - 1], line) >= _MIN_GAP_EM * _size(line)
        if parted and pattern.match(" ".join(w.text for w in line)):
            notices.update(range(k, _paragraph_end(lines, k)))
    if head or foot:
        notices |= _imprint_lines(pattern, lines, head=head, foot=foot)
    return [w for k in sorted(notices) for w in lines[k]]


def _imprint_lines(pattern: re.Pattern[str], lines: Sequence[Sequence[Word]], *,
                   head: bool, foot: bool) -> set[int]:
    """The indexes of the column's ``lines`` that are an imprint (`_imprint`): its first
    paragraph with ``head``, its last with ``foot``, when it has another."""
    paragraphs = [range(0, _paragraph_end(lines, 0))]
    while paragraphs[-1].stop < len(lines):
        paragraphs.append(range(paragraphs[-1].stop, _paragraph_end(lines, paragraphs[-1].stop)))
    if len(paragraphs) < 2:
        return set()
    usual = (1 + _SIZE_TOLERANCE) * _size([w for line in lines for w in line])
    edges = ([paragraphs[0]] if head else []) + ([paragraphs[-1]] if foot else [])
    return {k for paragraph in edges
            if _imprint(pattern, [lines[k] for k in paragraph],
                        lines[paragraph.start - 1] if paragraph.start else None,
                        lines[paragraph.stop] if paragraph.stop < len(lines) else None,
                        usual)
            for k in paragraph}


_IMPRINT_MAX_LINES = 4
"""Most lines of a journal's imprint at a column's head or foot (its name, volume and
pages; its fee code and doi; its copyright)."""

_SENTENCE_START = re.compile(r"(?:^|(?<=[.!?]\s))\S")
"""Where a sentence may begin in a paragraph's text: at its start or after a full stop,
an exclamation or a question mark (not after a colon or semicolon: a list's '(c) by')."""


def _imprint(pattern: re.Pattern[str], lines: Sequence[Sequence[Word]],
             before: Sequence[Word] | None, after: Sequence[Word] | None,
             usual: float) -> bool:
    """Whether the paragraph of ``lines``, at a column's head or foot between the lines
    ``before`` and ``after`` it (None where it ends the column), is a journal's imprint:
    a few lines (`_IMPRINT_MAX_LINES`) set no larger than the ``usual`` size, parted by
    white space from the column's other lines (`_MIN_GAP_EM`), no figure's or table's
    caption (a credit, 'Reproduced with permission. Copyright 2015, ...'), a line or
    a sentence of it opening with the notice ``pattern``."""
    size = _size(lines[0])
    texts = [" ".join(w.text for w in line) for line in lines]
    if len(lines) > _IMPRINT_MAX_LINES or size > usual or is_caption(texts[0]):
        return False
    if before is not None and _gap(before, lines[0]) < _MIN_GAP_EM * size:
        return False
    if after is not None and _gap(lines[-1], after) < _MIN_GAP_EM * size:
        return False
    text = " ".join(texts)
    line_starts = accumulate((len(t) + 1 for t in texts[:-1]), initial=0)
    return any(pattern.match(text, k) for k in
               {*line_starts, *(found.start() for found in _SENTENCE_START.finditer(text))})


def _paragraph_end(lines: Sequence[Sequence[Word]], start: int) -> int:
    """Past the last line of the paragraph that ``lines[start]`` opens: the lines that
    follow it closely at its size, up to one indented from their left edge."""
    size = _size(lines[start])
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
