"""Where a printed paragraph starts inside a column, and which lines are footnotes.

One decision, read by every text output through `layoutkit.nlp.paragraphs`
(Markdown, HTML, `text --paragraphs`, NLPTextDocument, tokens, chunks).

- Each column of a page is measured on its own body lines (`measure`): its left
  edge (where most of its lines start), its leading (the usual step from one line's
  top to the next) and its type size (the usual line height).
- Within a column, a body line starts a paragraph when it is set in from the left
  edge while the line before is not (a first-line indent), set out from it while the
  line before is not (an outdent: a hanging indent's first line), or stands further
  below the line before than the leading and half a line (a gap).  Indents count only
  in a column most of whose lines start at one edge, so ragged or centred text is not
  cut at every line; the tolerance is `lt_list_indent_tolerance_em` ems, as for the
  lines of one list item.
- A line ends a paragraph where the first word of the next would have fit after it
  within the reach of the column's lines in its size that share its width (where nine
  lines in ten of them end; a column of the page's grid may hold two printed ones
  under a deck across both): a break made on purpose, not a wrap, as a paragraph's
  last line ends, in justified and ragged text alike (a flush paragraph set with no
  gap and no indent; a list of short lines).
- A body line opening a band of another measure on the page (a paper's columns under
  its abstract set across the page) starts a paragraph unless it opens in lower case.
- A line opening in lower case after one that leaves its sentence open (no ``.``,
  ``!`` or ``?`` at its end) goes on with it, across a block's end or a gap too: the
  text after a displayed formula (``where x is…``).
- A line opening with a raised note mark before a capital (a reference or a note,
  ``¹ M. Bode, …``) starts a paragraph.
- A caption's first line (`layoutkit.model.captions.is_caption`: ``Figure 2.``,
  ``Table 1:``) starts a paragraph, so a caption is never read into the body text
  above it; it ends as a paragraph does (its block's end, a gap, an indent).
- Footnotes (`footnotes`) are the lines of a band that reading order sets after a
  page's text (`layoutkit.reading.page`, `footnote_max_size`): set small, below every
  other line of text it spans across, opening with a note mark (a number, ``*``, ``∗``,
  ``†``, ``‡``, ``§``, ``¶``, ``‖``, ``a)``: `layoutkit.reading.page.NOTE_MARK`); a bare
  page number under them does not count.  Each note starts at a line opening with a mark.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from statistics import median

from ..config import LinetypesConfig, ReadingConfig
from ..geometry.furniture import is_page_number
from ..linetypes.lines import would_fit
from ..model import BBox, Line, LineType, Page
from ..model.captions import is_caption
from ..reading.page import NOTE_MARK, raised_mark

__all__ = ["Measure", "footnotes", "measure", "note_mark", "parted", "remeasured"]

_TOLERANCE_EM = LinetypesConfig().lt_list_indent_tolerance_em
"""How far, in ems, a line may start from the column's edge and still be flush."""
_MAX_INDENT_EM = 6.0
"""A line set in further than this is a display (a formula, a quotation), no indent."""
_MIN_FLUSH = 0.5
"""Share of a column's lines that start at its left edge for indents to count."""
_GAP_LINES = 0.5
"""A step down longer than the leading by this share of a line is a gap."""
_SAME_SIZE = 0.05
"""Sizes within this share of each other are one type size (a PDF's sizes come from
matrices, and rounding parts 9.96 from 10)."""
_SAME_MEASURE = 0.75
"""Two columns are set to one measure when the narrower is this share of the wider or
more: text runs on from one band to another of one measure (around a figure across the
page), not into a band of another (from an abstract across the page into columns)."""
_OPEN_END = re.compile(r"[.!?][\"'”’)\]]*\s*$")
"""A line's end that closes its sentence, for a block after it to start anew."""
_MARK = re.compile(f"({NOTE_MARK})")
"""A note mark standing alone as a word (a superscript number, an asterisk, ``a)``)."""
_MARK_OPENING = re.compile(f"(?:{NOTE_MARK})(?=\\s*\\S)")


@dataclass(frozen=True, slots=True)
class Measure:
    """A column's own measure: its left edge, its leading, its type size (a line's
    height), whether most of its lines start at the edge (``flush``), its width, the
    extent and size of each of its body lines (``spans``: x0, x1, size), and how many
    body lines it holds."""

    left: float
    leading: float
    size: float
    flush: bool
    width: float
    spans: tuple[tuple[float, float, float], ...]
    lines: int

    def reach(self, line: Line) -> float:
        """How far right the lines that ``line`` runs among reach: of the column's lines
        in its size that share some of its width, the end nine in ten of the others end
        before (the shorter of two, the middle of three); of all the column's lines
        where fewer than `_MIN_OWN_LINES` share it.  A column of the page's grid may
        hold two printed ones under a deck across both: a line of the narrow one is
        measured against its own."""
        own = [x1 for x0, x1, size in self.spans
               if x0 < line.bbox.x1 and line.bbox.x0 < x1
               and abs(size - line.size) <= _SAME_SIZE * size]
        ends = sorted(own if len(own) >= _MIN_OWN_LINES else (x1 for _, x1, _ in self.spans))
        return ends[(9 * (len(ends) - 1)) // 10] if ends else line.bbox.x1


_MIN_OWN_LINES = 3
"""Fewest lines of its own measure a line is measured against: two lines tell no edge
(the shorter of two would be it)."""


Key = tuple[int, int, int]
"""A column: its page number, band and column index."""


def measure(page: Page) -> dict[Key, Measure]:
    """Each column of ``page`` with body lines, measured on them (see the module)."""
    columns: defaultdict[Key, list[Line]] = defaultdict(list)
    for line in page.lines:
        if line.line_type is LineType.BODY and line.text.strip():
            columns[(line.page_no, line.band, line.column)].append(line)
    return {key: _measured(lines, page.bands[key[1]].columns[key[2]].bbox.width)
            for key, lines in columns.items()}


def _measured(lines: Sequence[Line], width: float) -> Measure:
    size = median(line.bbox.height for line in lines)
    left = Counter(round(line.bbox.x0) for line in lines).most_common(1)[0][0]
    tolerance = _TOLERANCE_EM * size
    at_edge = sum(abs(line.bbox.x0 - left) <= tolerance for line in lines)
    steps = [b.bbox.top - a.bbox.top for a, b in pairwise(lines)
             if a.block == b.block and 0 < b.bbox.top - a.bbox.top < 3 * size]
    return Measure(float(left), median(steps) if steps else 0.0, size,
                   at_edge >= _MIN_FLUSH * len(lines) and at_edge >= 2, width,
                   tuple((line.bbox.x0, line.bbox.x1, line.size) for line in lines),
                   len(lines))


def remeasured(before: Line, line: Line, measures: Mapping[Key, Measure]) -> bool:
    """Whether body ``line`` opens a band of another measure than the band of ``before``
    on the same page (the narrower column under `_SAME_MEASURE` of the wider, each of
    two lines or more: a paragraph's last line alone under a figure tells no measure):
    a paper's abstract set across the page ends there, and its two columns start anew,
    however the abstract's last line ends (a DOI, a keyword)."""
    if before.page_no != line.page_no or before.band == line.band:
        return False
    above = measures.get((before.page_no, before.band, before.column))
    below = measures.get((line.page_no, line.band, line.column))
    return (above is not None and below is not None and min(above.lines, below.lines) > 1
            and min(above.width, below.width) < _SAME_MEASURE * max(above.width, below.width))


def parted(before: Line, line: Line, measures: Mapping[Key, Measure]) -> bool:
    """Whether body ``line`` starts a paragraph after ``before``, the line above it in
    the same column: a caption, else (unless it goes on in lower case) a new block, a
    first-line indent, an outdent or a gap (see the module)."""
    if is_caption(line.text) or _raised_mark(line):
        return True
    if line.text[:1].islower() and not _OPEN_END.search(before.text):
        return False
    if line.block != before.block:
        return True
    found = measures.get((line.page_no, line.band, line.column))
    if found is None:
        return False
    tolerance = _TOLERANCE_EM * found.size
    if found.leading and line.bbox.top - before.bbox.top > found.leading + _GAP_LINES * found.size:
        return True
    if _would_fit(before, line, found):
        return True
    if not found.flush or abs(line.bbox.x0 - before.bbox.x0) <= tolerance:
        return False
    offset = line.bbox.x0 - found.left
    indent = tolerance < offset <= _MAX_INDENT_EM * found.size
    outdent = offset < -tolerance and before.bbox.x0 - found.left >= -tolerance
    return indent or outdent


def _raised_mark(line: Line) -> bool:
    """Whether ``line`` opens with a note mark raised beside the capital that starts the
    text after it (`raised_opening`): a reference or a note, each its own paragraph
    ('¹ M. Bode, Rep. Prog. Phys.'), where the text never breaks a line before a call."""
    return raised_opening(line) and line.words[1].text[:1].isupper()


def raised_opening(line: Line) -> bool:
    """Whether ``line`` opens with a note mark raised beside the word after it
    (`reading.page.raised_mark`): a note set as large as the text, told by its mark."""
    words = line.words
    return len(words) > 1 and raised_mark(words[0], words[1])


def _would_fit(before: Line, line: Line, found: Measure) -> bool:
    """Whether the first word of ``line`` would have fit at the end of ``before``, on
    the row under it, within the reach of the lines ``before`` runs among
    (`Measure.reach`; `would_fit`, the column's size its em).  The reach is theirs, not
    the block's: on the mined pages the block's kept 140 fewer starts, 120 of them
    right (a quotation set in on both sides, whose lines end short of the column's
    reach, goes on where its next line opens in lower case)."""
    return would_fit(before, line, found.reach(before), found.size)


def footnotes(page: Page, max_size: float = ReadingConfig().footnote_max_size
              ) -> frozenset[int]:
    """The indexes (among the page's lines) of its footnotes' lines: the lines of each
    band, after the first, whose words are all at most ``max_size`` times the usual size
    of the page's other body lines (notes may hold more words than the text they note)
    or whose first line opens with a raised mark (`raised_opening`: the reading's notes
    set as large as the text, their first mark called), that stands below every other
    body line of the page across it but a bare page number (`geometry.furniture.is_page_number`: a
    folio under the notes of a page whose running footer no other page shows) and opens
    with a note mark (see the module)."""
    lines = page.lines
    body = [k for k, line in enumerate(lines)
            if line.line_type is LineType.BODY and line.words and line.text.strip()]
    if not body:
        return frozenset()
    bands: defaultdict[int, list[int]] = defaultdict(list)
    for k in body:
        bands[lines[k].band].append(k)
    first_band = min(bands)
    found: set[int] = set()
    for band, members in bands.items():
        if band == first_band or note_mark(lines[members[0]]) is None:
            continue
        usual = median(w.size for k in body if lines[k].band != band for w in lines[k].words)
        small = all(w.size <= max_size * usual for k in members for w in lines[k].words)
        if not (small or raised_opening(lines[members[0]])):
            continue
        box = BBox.union(lines[k].bbox for k in members)
        if all(lines[k].bbox.bottom <= box.top + 1.0 for k in body
               if lines[k].band != band and k not in found and not is_page_number(lines[k].text)
               and lines[k].bbox.x0 < box.x1 and box.x0 < lines[k].bbox.x1):
            found.update(members)
    return frozenset(found)


def note_mark(line: Line) -> str | None:
    """The note mark ``line`` opens with (a number or a symbol standing as a word of its
    own, or set smaller than the word after it), or None."""
    words = line.words
    if not words:
        return None
    first = words[0].text
    if _MARK.fullmatch(first) and len(words) > 1:
        return first
    opening = _MARK_OPENING.match(first)
    if opening is not None and not first[opening.end():][:1].isdigit() \
            and not first[:opening.end()].isdigit():
        return opening[0]
    return None
