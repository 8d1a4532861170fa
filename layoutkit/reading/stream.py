"""The content stream's order as a reading of its own, and when it beats the page's geometry.

Producers draw most pages in reading order, so the order in which a page's lines are
drawn is a second reading beside the geometry's.  Where they differ, the geometry
usually knows better (a stream draws headlines last, a sidebar first, a table cell by
cell); where the geometry cut the page wrongly (no gutter found between narrow columns,
a picture beside them blocking every band's cut), a stream drawn in reading order is
right.

The stream's reading is made to read down (`drawn_down`: each line after the lines
standing over it in its column, the stream deciding the rest).  It is taken where
evidence present on every page, needing no truth, says it reads better:

- **the text runs on better** (`runs_on`), by two successions or more: a word
  hyphenated at a line's end and completed at the start of the next (into a word the
  page uses elsewhere: worth two), a sentence that runs on (no closing punctuation, the
  next line opening in lower case); less the breaks (a hyphenated part followed by a
  capital, a full stop followed by lower case);
- **and the columns are kept as well** (`kept_below`): as many lines read right after
  the line they stand under.

A stream drawn shuffled reads its columns in pieces, a table's or a key-figure grid's
cells run on no better in the stream's order: the geometry stands on such pages, and on
every page whose geometry reads as well as its stream.
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Sequence, Set
from itertools import pairwise

import numpy as np
import numpy.typing as npt

from ..model import Line

__all__ = ["FIRST_WORD", "HYPHENATED_END", "HYPHENS", "as_drawn", "beside", "drawn_down",
           "kept_below", "reads_better", "runs_into", "runs_on", "stands_over", "stream_reading",
           "under"]

_MIN_GAIN = 2
"""The stream's order is taken only where it reads better at two successions or more
than the geometry's: one could be a chance."""
_WORD = re.compile(r"[^\W\d_]{2,}")
HYPHENS = "-\u00ad\u2010"
"""A hyphen, a soft hyphen and the Unicode hyphen: a line ending with one was wrapped
inside a word."""
HYPHENATED_END = re.compile(rf"([^\W\d_]+)([{HYPHENS}])$")
"""A line's end in a word hyphenated there: the word's piece, then the hyphen."""
FIRST_WORD = re.compile(r"[^\W\d_]+")
"""A line's first word (``match`` it), its letters only."""
_SENTENCE_END = re.compile(r"[.!?]['\"’”»)\]]*$")
_OPEN_END = re.compile(r"[^\W\d_,]$|,$")


def stream_reading(lines: Sequence[Line], min_run: int) -> list[Line] | None:
    """The body ``lines`` (in their geometric reading order) in the order the content
    stream draws them, each line after every line it stands under in the same column
    (`drawn_down`), where that order reads better (`reads_better`); None where the
    geometric order stands."""
    drawn = drawn_down(lines)
    return drawn if reads_better(lines, drawn, min_run) else None


def reads_better(lines: Sequence[Line], drawn: Sequence[Line], min_run: int) -> bool:
    """Whether ``drawn`` (``lines``, upright and in their geometric reading order, in
    the order `drawn_down` gives) differs from them, reads columns (it goes back up the
    page no more than once every ``min_run`` lines: a table drawn cell by cell goes
    back up at every cell) and runs on better than ``lines`` (see the module)."""
    if len(lines) < 3 or as_drawn(lines, drawn) \
            or any(w.direction for line in lines for w in line.words):
        return False
    returns = sum(b.bbox.bottom < a.bbox.top for a, b in pairwise(drawn))
    if len(drawn) < min_run * (returns + 1):
        return False
    vocabulary = {w.lower() for line in lines for w in _WORD.findall(line.text)}
    return (runs_on(drawn, vocabulary) - runs_on(lines, vocabulary) >= _MIN_GAIN
            and kept_below(drawn) >= kept_below(lines))


def as_drawn(lines: Sequence[Line], drawn: Sequence[Line]) -> bool:
    """Whether ``drawn`` holds ``lines`` in their order.  When the stream draws a whole
    body as read (`drawn_down`), it draws each part of it as read."""
    return all(a is b for a, b in zip(drawn, lines, strict=True))


def drawn_down(lines: Sequence[Line]) -> list[Line]:
    """``lines`` in the order the content stream draws them, as far as a column reads
    down: a line comes after every line standing over it (`stands_over`), and
    among the lines free to come next the first drawn comes first.  A stream drawn in
    reading order comes out as drawn; a line drawn too early waits for the lines above
    it (a topological order of Breuel's first rule, the stream breaking the ties)."""
    above = stands_over(lines)
    drawn = [_first_drawn(line) for line in lines]
    over, under_it = np.nonzero(above)
    by_stream = np.argsort(np.array(drawn), kind="stable")
    rank = np.empty(len(lines), dtype=np.intp)
    rank[by_stream] = np.arange(len(lines))
    if (rank[over] < rank[under_it]).all():  # the stream reads down as drawn
        return [lines[k] for k in by_stream.tolist()]
    waiting = above.sum(axis=0).tolist()
    starts = np.searchsorted(over, np.arange(len(lines) + 1)).tolist()
    below = under_it.tolist()
    free = [(drawn[k], k) for k, count in enumerate(waiting) if not count]
    heapq.heapify(free)
    order: list[Line] = []
    while free:
        _, k = heapq.heappop(free)
        order.append(lines[k])
        for j in below[starts[k]:starts[k + 1]]:
            waiting[j] -= 1
            if not waiting[j]:
                heapq.heappush(free, (drawn[j], j))
    return order


def stands_over(lines: Sequence[Line]) -> npt.NDArray[np.bool_]:
    """``over[i, j]``: line ``i`` stands over line ``j`` in the same column, so is read
    first: their widths overlap across more than half the narrower one's, and ``i``
    ends higher than half the lower one's height into ``j``."""
    boxes = np.array([(ln.bbox.x0, ln.bbox.top, ln.bbox.x1, ln.bbox.bottom) for ln in lines],
                     dtype=np.float64).reshape(-1, 4)
    widths, heights = boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]
    across = (np.minimum(boxes[:, None, 2], boxes[None, :, 2])
              - np.maximum(boxes[:, None, 0], boxes[None, :, 0])
              > 0.5 * np.minimum(widths[:, None], widths[None, :]))
    return across & (boxes[:, None, 3] - boxes[None, :, 1]
                     < 0.5 * np.minimum(heights[:, None], heights[None, :]))


def _first_drawn(line: Line) -> int:
    return min(w.stream for w in line.words)


def runs_on(order: Sequence[Line], vocabulary: set[str]) -> int:
    """How many successions of lines in ``order`` the text runs on across, less those
    it breaks at (see the module; `_succession`, with the page's ``vocabulary``)."""
    return sum(_succession(a.text, b.text, vocabulary) for a, b in pairwise(order))


def runs_into(end: str, start: str) -> bool:
    """Whether text ending with ``end`` runs on into text starting with ``start``
    (`_succession`): a word hyphenated at the end completed in lower case, or no
    sentence closed before a lower-case letter."""
    return _succession(end, start) > 0


def _succession(end: str, start: str, vocabulary: Set[str] = frozenset()) -> int:
    """How text ending with ``end`` goes on into text starting with ``start``: 2 for a
    hyphenated word completed into a word of ``vocabulary``, 1 for one completed in
    lower case or a sentence running on, -1 for a hyphenated part before a capital or a
    full stop before lower case, else 0."""
    end, start = end.rstrip(), start.lstrip()
    if not end or not start:
        return 0
    hyphenated = HYPHENATED_END.search(end)
    if hyphenated:
        first = FIRST_WORD.match(start)
        if first and (hyphenated.group(1) + first.group(0)).lower() in vocabulary:
            return 2
        if start[0].isalpha():
            return 1 if start[0].islower() else -1
        return 0
    if start[0].islower():
        return 1 if _OPEN_END.search(end) else -1 if _SENTENCE_END.search(end) else 0
    return 0


def under(above: Line, line: Line) -> bool:
    """Whether ``line`` stands under ``above`` in the same column (`stands_over`)."""
    return bool(stands_over([above, line])[0, 1])


def beside(columns: Sequence[Sequence[Line]], line: Line) -> bool:
    """Whether ``line`` opens a column beside ``columns`` (each a list of lines): no
    more than half its width stands over or under any of them, and its top is above
    the bottom of the last line read."""
    b = line.bbox
    for column in columns:
        x0, x1 = min(c.bbox.x0 for c in column), max(c.bbox.x1 for c in column)
        if min(x1, b.x1) - max(x0, b.x0) > 0.5 * b.width:
            return False
    return b.top < columns[-1][-1].bbox.bottom


def kept_below(order: Sequence[Line]) -> int:
    """How many lines of ``order`` are read right after the line they stand nearest
    under in the same column (`stands_over`)."""
    if len(order) < 2:
        return 0
    over = stands_over(order)
    tops = np.array([ln.bbox.top for ln in order], dtype=np.float64)
    nearest = np.argmin(np.where(over, tops[None, :], np.inf), axis=1)
    has = over[np.arange(len(order)), nearest]
    return int(sum(1 for k in range(len(order) - 1) if has[k] and nearest[k] == k + 1))
