"""A document's figures: its pictures and drawings, linked to their captions.

They are placed in the reading and written as PNG files.

- The pictures are the page's image objects and the drawings its vector paths, as
  PDFium draws them (inside forms too), the page's displayed frame placed as the glyph
  source places it (`layoutkit.sources.pdfium.frame.Frame`; `.drawn`).  Paths and images within
  `.drawn._JOIN_EM` of each other make one figure (connected on an occupancy grid, as
  `layoutkit.geometry.grid` finds a page's free strips); a long thin rule (a
  column's rule, a table's) joins only what it touches, and rules alone are a figure
  only when they draw a grid (a ruled table).  A caption standing across a group
  parts it: what stands over it and what stands under it are two figures.  A drawing
  takes in the short lines set around it (tick labels, an axis's title:
  `_with_labels`).
- A figure is at least `_MIN_SIDE_EM` on each side and covers no more of the page
  than ``image_max_area``: a larger picture or path is a background, as the layout
  takes it, and joins nothing; so does what stands wholly over the page's running
  header's foot or under its footer's head (a logo, a banner).  One without a caption
  stands between them, is no longer than `_MAX_ASPECT` times its width, and, as
  a drawing, is drawn with `_MIN_PIECES` paths or more (a shaded box is not).  A drawing
  that words fill (more than `_TEXT_SHARE` of it: a box around text, a ruled table)
  is a figure only when a caption names it; under a table's caption, a drawing (or
  pictures that words fill) is a table.
- A caption is the line that opens with a label (``Figure 3:``, ``Fig. 2.``,
  ``Table 1.``, `layoutkit.model.captions.CAPTION_LABEL`) at the head of its
  block, set as a caption (a stop, colon or dash after the label, a bold label, or
  type smaller than the text's: not ``Figure 3 shows...``), and the lines of its
  block after it in the same size, up to a table's row or a paragraph's end (a
  sentence closing a line short, a gap, an indent).  Each caption is linked to a
  figure straight over or under it (within `_CAPTION_GAP_EM`, across half the
  narrower's width), one caption a figure, as many linked as can be, the nearest
  together; the unlinked pictures right beside a linked figure are its panels and
  join it.  A table's caption linked to no drawing takes the rows after it, or,
  without any, those right over it (`_text_table`).
- A figure stands in the reading where its caption stands (the caption's lines leave
  the paragraphs around them), or, without one, before the first line under it.
- A figure's file is ``p<page>-fig<n>.png`` (``n`` counts a page's figures in reading
  order): a lone image object with nothing over it is extracted at its own pixel size,
  anything else rendered from its box at `FIGURE_DPI`.
"""

from __future__ import annotations

import logging
import os
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np

from ...config import LayoutConfig, LinetypesConfig
from ...errors import UsageError
from ...geometry.words import split_at_gaps
from ...linetypes.hyphens import line_join
from ...model import BandKind, BBox, Block, Document, Line, LineType, Page
from ...model.captions import CAPTION_LABEL, TABLE_NAMES
from ...sources import is_image
from ..structure import FURNITURE, Part, parts
from .drawn import Piece, grouped, page_pieces

__all__ = ["FIGURE_DPI", "Figure", "FigureKind", "by_page", "captions", "document_figures",
           "figure_json", "figure_parts", "find_figures", "placed", "text_size",
           "without_captions", "write_figures"]

_log = logging.getLogger(__name__)

FIGURE_DPI = 150
"""The resolution a figure is rendered at from its box: a drawing, or a picture that
cannot be taken out as it is (several pieces, words over it, turned)."""
_MIN_SIDE_EM = 3.0
"""A figure is at least this many ems wide and tall: a logo in a running header, a
rule, an icon in the text are not figures.  Not a parameter."""
_TEXT_SHARE = 0.3
"""A drawing whose words cover more than this share of it is a box around text or a
ruled table: a figure only when a caption names it.  Not a parameter."""
_PROSE_EM = 10.0
"""How long a line of running text is at least, in ems of the text's size: a line that
long standing between two pictures is a paragraph's, not a label of theirs.  Not a
parameter."""
_LABEL_REACH_EM = 1.5
"""A drawing's labels (tick labels, an axis's title) stand within this many ems of its
paths.  Not a parameter."""
_LABEL_ROUNDS = 2
"""Labels of labels are taken this many deep: tick labels, then the axis title beyond
them."""
_CAPTION_GAP_EM = 4.0
"""A caption stands at most this many ems over or under its figure."""
_UNUSUAL_SIDE_EM = 1.0
"""A caption over a figure, or under a table, counts as this many ems farther from it
than it stands: where both sides hold a candidate, the usual side wins."""
_GAP_EM = LinetypesConfig().table_min_gap_em
"""The gap between a table's cells, in ems, by default (``table_min_gap_em``)."""
_MIN_PIECES = 4
"""A drawing without a caption is drawn with this many paths or more: a shaded box or a
frame around text is drawn with fewer.  Not a parameter."""
_MAX_ASPECT = 8.0
"""A figure without a caption is at most this many times as long as it is wide (or
high): a longer strip is a rule's ornament or a border.  Not a parameter."""
_NOTES = 4
"""A table's notes may stand between its caption and its first row, this many lines at
most."""
_TABLE_NAMES = frozenset(name.casefold() for name in TABLE_NAMES)
"""The names a table's caption gives it, case folded as a label is (Greek's final ς
folds to σ)."""
_CAPTION_STOPS = frozenset(".:：–—-|")
"""What follows a caption's label (``Fig. 2.``, ``Table 3:``, ``FIGURE 1 –``) where a
sentence that names a figure goes on with a word."""
_BOLD = 600
"""A word's weight from which it is bold."""
_SIZE_TOLERANCE = 0.6
"""A caption's lines are set within this many points of its first line's size."""
_BREAK_EM = 0.3
"""A line standing farther under a caption than the caption's lines stand from each
other by this many ems opens a paragraph of its own.  Not a parameter."""


class FigureKind(StrEnum):
    """What a figure shows: one picture, a drawing (paths, or several pictures
    together), or a table whose caption names it."""

    IMAGE = "image"
    DRAWING = "drawing"
    TABLE = "table"


@dataclass(frozen=True, slots=True)
class Figure:
    """A figure of a page: its box (points from the page's top-left corner), kind and
    caption lines (none when no caption was found), its number among the page's figures
    in reading order, and the place it stands in the reading: before the page's line
    ``before`` (an index into `Page.lines`; the page's line count: at its end).
    ``image`` is the file it was written to, as a link, once written; ``pixels`` that
    file's width and height."""

    page_no: int
    bbox: BBox
    kind: FigureKind
    caption_lines: tuple[Line, ...] = ()
    index: int = 0
    before: int = 0
    image: str | None = None
    pixels: tuple[int, int] | None = None

    @property
    def caption(self) -> str:
        """The caption's text, its lines joined (a word hyphenated at a line end joined
        again); empty without a caption."""
        text = ""
        for line in self.caption_lines:
            text = line_join(text, line.text, ()) + line.text if text else line.text
        return " ".join(text.split())

    @property
    def name(self) -> str:
        """The figure's file name: ``p3-fig2.png`` for the second figure of page 3."""
        return f"p{self.page_no}-fig{self.index}.png"


def document_figures(document: Document, config: LinetypesConfig | None = None, *,
                     max_area: float | None = None) -> tuple[Figure, ...]:
    """The figures of every page of ``document`` (see the module), in reading order,
    tables' rows told by ``config``'s ``table_min_gap_em``, pictures larger than
    ``max_area`` of a page (``image_max_area`` by default) left out as backgrounds; none
    when its file cannot be read for them (an image file, a document made by hand or
    stored without its PDF)."""
    if max_area is None:
        max_area = LayoutConfig().sources.image_max_area
    gap_em = (config or LinetypesConfig()).table_min_gap_em
    file = document.file
    if is_image(file) or not file.is_file():
        return ()
    import pypdfium2 as pdfium  # type: ignore[import-untyped]

    try:
        pdf = pdfium.PdfDocument(file)
    except pdfium.PdfiumError:
        return ()
    try:
        found: list[Figure] = []
        size = text_size(document.pages)
        for page in document.pages:
            if page.unreadable or not 1 <= page.page_no <= len(pdf):
                continue
            drawn = page_pieces(pdf[page.page_no - 1])
            found.extend(find_figures(page, drawn, max_area, gap_em, size))
        return tuple(found)
    finally:
        pdf.close()


_Candidate = tuple[BBox, FigureKind, bool, list["Piece"]]
"""A group of pieces that may be a figure: its box, kind, whether words fill it, and
its pieces."""


def find_figures(page: Page, pieces: Sequence[Piece], max_area: float,
                 gap_em: float = _GAP_EM, size: float | None = None) -> list[Figure]:
    """The figures of the laid-out ``page`` among its drawn ``pieces``, linked to their
    captions and placed in its reading (see the module); ``size`` is the document's
    text size (`text_size`; by default the page's)."""
    if size is None:
        size = text_size([page])
    words = np.array([(w.bbox.x0, w.bbox.top, w.bbox.x1, w.bbox.bottom)
                      for line in page.lines for w in line.words], dtype=float).reshape(-1, 4)
    found = captions(page, gap_em, size)
    prose = [line.bbox for line in page.lines if _prose(line, size)]
    candidates = _candidates(page, pieces, words, size, max_area,
                             [BBox.union(line.bbox for line in lines) for lines in found], prose)
    linked = _link([(box, not wordy and any(p.picture for p in group))
                    for box, _, wordy, group in candidates], found, size)
    top, bottom = _text_extent(page)
    figures: list[Figure] = []
    absorbed: set[int] = set()
    for k, (box, kind, wordy, group) in enumerate(candidates):
        caption = linked.get(k, ())
        if k in absorbed:
            continue
        if not caption:
            middle = (box.top + box.bottom) / 2
            long_side = max(box.width, box.height) / min(box.width, box.height)
            if wordy or not top <= middle <= bottom or long_side > _MAX_ASPECT or (
                    kind is FigureKind.DRAWING and len(group) < _MIN_PIECES):
                continue
        else:
            box, panels = _with_panels(k, box, candidates, linked, size, prose)
            absorbed |= panels
            if panels:
                kind = FigureKind.DRAWING
            if _table_label(caption) and (wordy or not any(p.picture for p in group)):
                kind = FigureKind.TABLE
        figures.append(Figure(page.page_no, box, kind, caption,
                              before=_place(page, box, caption)))
    taken = {id(lines[0]) for lines in linked.values()}
    for lines in found:
        if id(lines[0]) not in taken and _table_label(lines):
            rows = _text_table(page, lines, gap_em, size)
            if rows:
                figures.append(Figure(page.page_no, BBox.union(line.bbox for line in rows),
                                      FigureKind.TABLE, lines, before=_place(page, rows[0].bbox,
                                                                              lines)))
    figures = [f for k, f in enumerate(figures) if not _inside_other(f, figures, k)]
    figures.sort(key=lambda f: (f.before, f.bbox.top, f.bbox.x0))
    return [replace(f, index=n) for n, f in enumerate(figures, 1)]


def _candidates(page: Page, pieces: Sequence[Piece], words: np.ndarray[Any, Any],
                size: float, max_area: float, captions: Sequence[BBox], prose: Sequence[BBox]
                ) -> list[_Candidate]:
    """The groups of ``pieces`` (`layoutkit.outputs.figures.drawn.grouped`) that may
    be figures: large enough, not a background (larger than ``max_area`` of the page),
    a drawing with its labels (short of the ``captions``' boxes), groups parted where
    lines of running text (``prose``) stand between their pieces."""
    candidates: list[_Candidate] = []
    largest = max_area * page.width * page.height
    top, bottom = _text_extent(page)
    drawn = [piece for piece in pieces if piece.box.width * piece.box.height <= largest
             and piece.box.bottom > top and piece.box.top < bottom]
    groups = [part for group in grouped(drawn, size, page.width, page.height)
              for parted in _parted_by_captions(group, captions)
              for part in _parted_by_prose(parted, prose, size)]
    for group in groups:
        box = BBox.union(piece.box for piece in group)
        if (min(box.width, box.height) < _MIN_SIDE_EM * size
                or box.width * box.height > largest):
            continue
        pictures = [piece for piece in group if piece.picture]
        share = _text_share(box, words)
        alone = len(group) == 1 and pictures and share == 0
        kind = FigureKind.IMAGE if alone else FigureKind.DRAWING
        wordy = share > _TEXT_SHARE
        if kind is FigureKind.DRAWING and wordy:
            box = BBox.union([box, *(line.bbox for line in page.lines
                                     if not line.furniture and _held(line.bbox, box))])
        elif kind is FigureKind.DRAWING:
            box = _with_labels(box, page.lines, size, captions)
            if box.width * box.height > largest:
                continue
        candidates.append((box, kind, wordy, group))
    return candidates


def _text_extent(page: Page) -> tuple[float, float]:
    """Where the page's running header ends and its running footer begins (the page's
    top and bottom without them): what stands wholly over or under is the page's
    furniture (a banner, a logo).  Margin stamps, typed as footers too, stand beside
    the text (a chart's turned axis title taken for one), not under it."""
    header = [band.bbox.bottom for band in page.bands if band.kind is BandKind.HEADER]
    footer = [band.bbox.top for band in page.bands if band.kind is BandKind.FOOTER]
    return max(header, default=0.0), min(footer, default=page.height)


def _parted_by_captions(group: list[Piece], captions: Sequence[BBox]) -> list[list[Piece]]:
    """``group`` parted at each caption that stands inside its box, across it: the
    pieces over the caption and those under it are two figures (a figure's caption
    between it and the next).  A piece reaching past the caption both above and
    below, a rule or a box round it, is a frame drawn round the figure and its caption,
    and is in neither part."""
    box = BBox.union(piece.box for piece in group)
    for caption in captions:
        across = min(box.x1, caption.x1) - max(box.x0, caption.x0)
        if box.top < caption.top and caption.bottom < box.bottom and \
                across >= caption.width / 2:
            middle = (caption.top + caption.bottom) / 2
            inside = [p for p in group
                      if not (p.box.top < caption.top and caption.bottom < p.box.bottom
                              and (p.rule or (p.box.x0 <= caption.x0
                                              and caption.x1 <= p.box.x1)))]
            over = [p for p in inside if (p.box.top + p.box.bottom) / 2 < middle]
            under = [p for p in inside if (p.box.top + p.box.bottom) / 2 >= middle]
            if over and under:
                return [part for side in (over, under)
                        for part in _parted_by_captions(side, captions)]
    return [group]


def _parted_by_prose(group: list[Piece], prose: Sequence[BBox], size: float
                     ) -> list[list[Piece]]:
    """``group`` parted where lines of running text (``prose``, `_prose`) stand inside
    its box but in none of its pieces (pictures in two columns joined across the
    gutter, a paragraph under one of them): cut at the white strips, half an em wide or
    more, that run between its pieces down the page, else across it, as long as a cut
    leaves such a line outside every part."""
    between = _uncovered(prose, [piece.box for piece in group])
    if not between:
        return [group]
    for down in (True, False):
        parts = _strips(group, size / 2, down=down)
        boxes = [BBox.union(piece.box for piece in part) for part in parts]
        if len(parts) > 1 and any(not any(_held(line, b) for b in boxes) for line in between):
            return [found for part in parts for found in _parted_by_prose(part, prose, size)]
    return [group]


def _strips(group: list[Piece], gap: float, *, down: bool) -> list[list[Piece]]:
    """``group``'s pieces parted at the white strips wider than ``gap`` that run down
    between them (``down``), or across."""
    def span(piece: Piece) -> tuple[float, float]:
        b = piece.box
        return (b.x0, b.x1) if down else (b.top, b.bottom)

    parts: list[list[Piece]] = []
    reach = -np.inf
    for piece in sorted(group, key=span):
        start, end = span(piece)
        if start > reach + gap:
            parts.append([])
        parts[-1].append(piece)
        reach = max(reach, end)
    return parts


def _with_labels(box: BBox, lines: Sequence[Line], size: float,
                 captions: Sequence[BBox]) -> BBox:
    """``box`` (a drawing's) grown by the labels set around it: the lines standing
    within `_LABEL_REACH_EM` ems of ``size`` from it (tick labels, an axis's title, a
    key), each shorter than half the drawing or set smaller than the text, the box
    reaching no caption (of the ``captions``' boxes); labels of labels too, up to
    `_LABEL_ROUNDS` deep."""
    reach = _LABEL_REACH_EM * size
    for _ in range(_LABEL_ROUNDS):
        grown = box
        for line in lines:
            b = line.bbox
            if (line.furniture or _within(b, box) or _labelled(line)
                    or not (b.width <= box.width / 2 or line.size < size - _SIZE_TOLERANCE)):
                continue
            if (b.x0 < box.x1 + reach and box.x0 - reach < b.x1
                    and b.top < box.bottom + reach and box.top - reach < b.bottom):
                wider = BBox.union([grown, b])
                if not any(_meets(wider, caption) for caption in captions):
                    grown = wider
        if grown == box:
            break
        box = grown
    return box


def _meets(box: BBox, other: BBox) -> bool:
    """Whether two boxes overlap."""
    return box.x0 < other.x1 and other.x0 < box.x1 and box.top < other.bottom \
        and other.top < box.bottom


def _table_label(caption: Sequence[Line]) -> bool:
    """Whether a caption's label names a table (``Table 2``, ``Tab. 1``)."""
    label = CAPTION_LABEL.match(caption[0].text)
    return label is not None and label[1].casefold() in _TABLE_NAMES


def _text_table(page: Page, caption: Sequence[Line], gap_em: float, size: float
                ) -> list[Line]:
    """The rows of the table a table's ``caption`` heads, or closes, when no drawing
    holds it: the lines after the caption in the page's reading, from its first row
    (`_row`; the table's notes, up to `_NOTES` lines, may stand before it) to the last
    row before a line of prose that is no row (its block's own lines go with the
    table); without any, the rows right before the caption, back to the first line
    that is neither a row nor of the block of the line after it (a caption set under
    its table); without those either, when the caption's block goes on after it, the
    lines from there to the body's prose (`_set_lines`: an algorithm, a list set as a
    table; ``size`` the text's)."""
    lines = page.lines
    start = next(k for k, line in enumerate(lines) if line is caption[-1]) + 1
    rows: list[Line] = []
    for offset, line in enumerate(lines[start:]):
        if line.furniture or _labelled(line):
            break
        if _row(line, gap_em) or (rows and _same_block(line, rows[-1])):
            rows.append(line)
        elif rows or offset >= _NOTES:
            break
    if rows:
        return rows
    first = next(k for k, line in enumerate(lines) if line is caption[0])
    for line in reversed(lines[:first]):
        if line.furniture or _labelled(line) or not (
                _row(line, gap_em) or _same_block(line, rows[-1] if rows else caption[0])):
            break
        rows.append(line)
    if any(_row(line, gap_em) for line in rows):
        return rows[::-1]
    after = lines[start] if start < len(lines) else None
    if after is None or not _same_block(after, caption[-1]):
        return []
    return _set_lines(page, start, size)


def _set_lines(page: Page, start: int, size: float) -> list[Line]:
    """The lines of ``page`` from its ``start``-th in the reading, in its column, up
    to the body's prose: the first line set in the text's ``size`` across the column's
    width, or the line that runs to the column's right edge right over it (an indented
    paragraph's first line); none when the column ends first (no prose told where the
    table ends)."""
    lines = page.lines
    column = [line for line in lines if (line.band, line.column) ==
              (lines[start].band, lines[start].column) and not line.furniture]
    left, right = min(line.bbox.x0 for line in column), max(line.bbox.x1 for line in column)

    def full(line: Line) -> bool:
        return line.bbox.x1 >= right - size / 2

    def prose(line: Line) -> bool:
        return (abs(line.size - size) <= _SIZE_TOLERANCE and line.bbox.x0 <= left + size / 2
                and full(line))

    found: list[Line] = []
    for k in range(start, len(lines)):
        line = lines[k]
        if line.furniture or _labelled(line) or \
                (line.band, line.column) != (lines[start].band, lines[start].column):
            return []
        following = lines[k + 1] if k + 1 < len(lines) else None
        if prose(line) or (full(line) and following is not None and prose(following)):
            return found
        found.append(line)
    return []


def text_size(pages: Iterable[Page]) -> float:
    """The size of the ``pages``' text: the size most of their body lines' characters
    are set in (10 points without any), which captions are set smaller than."""
    counts: Counter[float] = Counter()
    for page in pages:
        for line in page.body_lines:
            if line.size > 0:
                counts[round(line.size, 1)] += len(line.text)
    return counts.most_common(1)[0][0] if counts else 10.0


def _text_share(box: BBox, words: np.ndarray[Any, Any]) -> float:
    """The share of ``box`` the ``words`` (x0, top, x1, bottom rows) inside it cover."""
    if not len(words):
        return 0.0
    inside = ((words[:, 0] >= box.x0 - 1) & (words[:, 2] <= box.x1 + 1)
              & (words[:, 1] >= box.top - 1) & (words[:, 3] <= box.bottom + 1))
    covered = ((words[inside, 2] - words[inside, 0]) * (words[inside, 3] - words[inside, 1])).sum()
    return float(covered) / max(box.width * box.height, 1.0)


def captions(page: Page, gap_em: float = _GAP_EM, size: float | None = None
             ) -> list[tuple[Line, ...]]:
    """The captions of ``page`` in reading order, each as its lines: a line opening
    with a caption's label (`CAPTION_LABEL`) set as a caption's (`_set_as_caption`)
    at the head of its block, or after a line of another size, one that ends a
    sentence, a table's row or a line it stands beside (`_opens_caption`); and the
    lines of its block after it in its size, up to the next caption, a table's row
    (`_row`, its cells parted by gaps of ``gap_em``; ``size`` the document's text
    size, by default the page's) or a paragraph's end (`_paragraph_break`)."""
    lines = [line for line in page.lines if not line.furniture]
    if size is None:
        size = text_size([page])
    found: list[tuple[Line, ...]] = []
    k = 0
    while k < len(lines):
        if not _opens_caption(lines, k, size):
            k += 1
            continue
        first, end = lines[k], k + 1
        while (end < len(lines) and _same_block(lines[end], first)
               and abs(lines[end].size - first.size) <= _SIZE_TOLERANCE
               and not _labelled(lines[end]) and not _row(lines[end], gap_em)
               and not _paragraph_break(lines[k:end], lines[end], _next_in_block(lines, end))):
            end += 1
        found.append(tuple(lines[k:end]))
        k = end
    return found


def _paragraph_break(caption: Sequence[Line], line: Line, after: Line | None) -> bool:
    """Whether a paragraph ends before ``line``, after the ``caption``'s lines so far
    (``after`` the line under ``line`` in its block and size, if any): ``line`` starts
    left of the caption's first line (a centred caption over the text), or stands
    farther under it than the caption's lines (without two, ``line`` and ``after``)
    stand from each other, by `_BREAK_EM` of its size; or the caption's last line
    ends a sentence and closes short of the others' right edge, or ``line`` is
    indented by its size from it (the text after a caption set in the caption's block
    and size)."""
    last = caption[-1]
    if line.bbox.x0 <= caption[0].bbox.x0 - line.size / 2:
        return True
    gaps = [b.bbox.top - a.bbox.bottom for a, b in pairwise(caption)]
    if not gaps and after is not None:
        gaps = [after.bbox.top - line.bbox.bottom]
    if gaps and line.bbox.top - last.bbox.bottom > max(gaps) + _BREAK_EM * line.size:
        return True
    if last.text.rstrip()[-1:] not in ".!?":
        return False
    right = max(other.bbox.x1 for other in (*caption, line))
    return (last.bbox.x1 < right - 2 * line.size
            or (len(caption) > 1 and line.bbox.x0 >= last.bbox.x0 + line.size))


def _next_in_block(lines: Sequence[Line], k: int) -> Line | None:
    """The line after ``lines[k]`` when it is of its block and size, else None."""
    if k + 1 < len(lines) and _same_block(lines[k + 1], lines[k]) and \
            abs(lines[k + 1].size - lines[k].size) <= _SIZE_TOLERANCE:
        return lines[k + 1]
    return None


def _labelled(line: Line) -> bool:
    return CAPTION_LABEL.match(line.text) is not None


def _row(line: Line, gap_em: float) -> bool:
    """Whether ``line`` is a table's row: typed so, or its words parted by a gap wider
    than ``gap_em`` of their size (a caption's prose is not)."""
    return line.line_type is LineType.TABLE or len(split_at_gaps(line.words, gap_em)) > 1


def _same_block(line: Line, other: Line) -> bool:
    return (line.page_no, line.band, line.column, line.block) == \
        (other.page_no, other.band, other.column, other.block)


def _opens_caption(lines: Sequence[Line], k: int, size: float) -> bool:
    """Whether ``lines[k]`` opens a caption (see `captions`; ``size`` the page's usual
    type): labelled and set as one, it follows no line it could run on from (one of
    its block in its size, not ending a sentence, and neither a table's row nor a
    line beside it)."""
    line = lines[k]
    if not _labelled(line) or not _set_as_caption(line, size):
        return False
    before = lines[k - 1] if k else None
    return (before is None or not _same_block(before, line)
            or abs(before.size - line.size) > _SIZE_TOLERANCE
            or before.text.rstrip()[-1:] in ".:!?"
            or before.line_type is LineType.TABLE or _beside(before, line))


def _beside(before: Line, line: Line) -> bool:
    """Whether ``line`` stands beside the line ``before`` it (a caption beside another
    on a row): wholly right of it, level with it over half its height or more."""
    level = min(before.bbox.bottom, line.bbox.bottom) - max(before.bbox.top, line.bbox.top)
    return before.bbox.x1 <= line.bbox.x0 and level >= line.bbox.height / 2


def _set_as_caption(line: Line, size: float) -> bool:
    """Whether a labelled line is set as a caption, not as a sentence that names a
    figure (``Figure 3 shows...``): the label alone on its line (its legend under
    it), a stop, colon or dash after it, the label set bolder than the words after
    it, or the line set smaller than the page's text."""
    label = CAPTION_LABEL.match(line.text)
    if label is None:
        return False
    after = line.text[label.end():].lstrip()
    if not after or after[0] in _CAPTION_STOPS or line.size < size - _SIZE_TOLERANCE:
        return True
    words = line.words
    labelled = len(label[0].split())
    return (len(words) > labelled and words[0].weight >= _BOLD
            and words[labelled].weight < words[0].weight)


def _link(boxes: Sequence[tuple[BBox, bool]], found: Sequence[tuple[Line, ...]], size: float
          ) -> dict[int, tuple[Line, ...]]:
    """Which caption of ``found`` each of the figures' ``boxes`` (each with whether it
    is pictures, not words) takes, by index: a caption straight over or under its figure
    within `_CAPTION_GAP_EM`, across half the narrower's width, one caption a figure,
    as many linked as can be and, among those ways, the nearest together (an
    assignment of least total distance: a wide caption between two tables leaves the
    one under it to the caption under that).  A caption on the unusual side (a table's
    under it, a figure's over it), or a table's caption by pictures, counts as
    `_UNUSUAL_SIDE_EM` farther for each."""
    from scipy.optimize import linear_sum_assignment  # type: ignore[import-untyped]

    pairs = []
    for k, (box, pictures) in enumerate(boxes):
        for c, lines in enumerate(found):
            cap = BBox.union(line.bbox for line in lines)
            across = min(box.x1, cap.x1) - max(box.x0, cap.x0)
            if across < 0.5 * min(box.width, cap.width):
                continue
            under = cap.top - box.bottom
            gap = max(under, box.top - cap.bottom)
            if -size <= gap <= _CAPTION_GAP_EM * size:
                # a table's caption heads it, a figure's stands under it: the other
                # side counts as farther
                table = _table_label(lines)
                unusual = ((under < gap) is not table) + (table and pictures)
                pairs.append((max(gap, 0.0) + unusual * _UNUSUAL_SIDE_EM * size, k, c))
    if not pairs:
        return {}
    # every pair allowed costs less than nothing by more than all the distances
    # together: the most pairs are taken first, the least distance among them
    below = 1.0 + sum(distance for distance, _, _ in pairs)
    cost = np.zeros((len(boxes), len(found)))
    for distance, k, c in pairs:
        cost[k, c] = distance - below
    rows, columns = linear_sum_assignment(cost)
    return {int(k): found[c] for k, c in zip(rows, columns, strict=True) if cost[k, c] < 0}


def _with_panels(k: int, box: BBox, candidates: Sequence[tuple[BBox, FigureKind, bool, Any]],
                 linked: dict[int, tuple[Line, ...]], size: float, prose: Sequence[BBox]
                 ) -> tuple[BBox, set[int]]:
    """The box of figure ``k`` with the unlinked pictures right beside it (within two ems,
    on the same side of its caption): its panels, and their indexes.  A picture is no
    panel where the box grown to take it would take in a line of running text that
    neither stands in (``prose``, `_prose`): a paragraph between two figures parts
    them."""
    caption = BBox.union(line.bbox for line in linked[k])
    below = caption.top >= box.bottom - size
    panels: set[int] = set()
    grown = True
    while grown:
        grown = False
        for j, (other, _, wordy, _) in enumerate(candidates):
            if j == k or j in panels or j in linked or wordy:
                continue
            reach = 2 * size
            near = (other.x0 <= box.x1 + reach and box.x0 <= other.x1 + reach
                    and other.top <= box.bottom + reach and box.top <= other.bottom + reach)
            side = (other.bottom <= caption.top + size if below
                    else other.top >= caption.bottom - size)
            if near and side and not _uncovered(prose, [box, other]):
                box, grown = BBox.union([box, other]), True
                panels.add(j)
    return box, panels


def _uncovered(prose: Sequence[BBox], boxes: Sequence[BBox]) -> list[BBox]:
    """The lines of running text (``prose``) that stand in the box round ``boxes`` but
    in none of them: what joining them into one figure would take out of the reading."""
    around = BBox.union(boxes)
    return [line for line in prose if _held(line, around)
            and not any(_held(line, box) for box in boxes)]


def _prose(line: Line, size: float) -> bool:
    """Whether ``line`` is a line of running text: a body line set no smaller than the
    text's ``size``, `_PROSE_EM` ems long or more (a panel's label, a chart's tick
    values are shorter or smaller)."""
    return (line.line_type is LineType.BODY and not line.furniture
            and line.size >= size - _SIZE_TOLERANCE and line.bbox.width >= _PROSE_EM * size)


def _inside_other(figure: Figure, figures: Sequence[Figure], k: int) -> bool:
    """Whether ``figure`` stands inside another of ``figures`` that has a caption (a
    picture in a captioned drawing), and has none itself."""
    return not figure.caption_lines and any(
        j != k and other.caption_lines and other.bbox.contains_centre_of(figure.bbox)
        for j, other in enumerate(figures))


def _place(page: Page, box: BBox, caption: Sequence[Line]) -> int:
    """Where a figure stands in the page's reading, as the index of the line it comes
    before: its caption's first line, or, without a caption, the first line under the
    figure and across from it (the page's end when none is)."""
    lines = page.lines
    if caption:
        return next(k for k, line in enumerate(lines) if line is caption[0])
    for k, line in enumerate(lines):
        if (not line.furniture and line.bbox.top >= box.bottom - 1
                and line.bbox.x0 < box.x1 and box.x0 < line.bbox.x1):
            return k
    return len(lines)


def without_captions(document: Document, figures: Iterable[Figure]) -> Document:
    """``document`` with the lines of the ``figures``' captions left out, and the body
    lines inside a captioned figure that is no table (its own labels; a line typed a
    heading stays, as the outline holds it, and so does a line of running text,
    `_prose`: text set over a picture is read, never lost): what the paragraphs around
    a figure are read from."""
    gone: set[int] = set()
    size = text_size(document.pages)
    for figure in figures:
        gone.update(map(id, figure.caption_lines))
        if figure.caption_lines and figure.kind is not FigureKind.TABLE:
            page = document.page(figure.page_no)
            gone.update(id(line) for line in page.lines
                        if _held(line.bbox, figure.bbox) and not line.furniture
                        and line.line_type is LineType.BODY and not _prose(line, size))
    if not gone:
        return document

    def kept(block: Block) -> Block:
        return replace(block, lines=tuple(line for line in block.lines if id(line) not in gone))

    pages = tuple(replace(page, bands=tuple(
        replace(band, columns=tuple(replace(column, blocks=tuple(map(kept, column.blocks)))
                                    for column in band.columns))
        for band in page.bands)) for page in document.pages)
    return replace(document, pages=pages)


def _held(box: BBox, figure: BBox) -> bool:
    """Whether the larger part of a line's ``box`` stands inside the ``figure``'s: a
    label set on a drawing's edge is the drawing's."""
    across = min(box.x1, figure.x1) - max(box.x0, figure.x0)
    down = min(box.bottom, figure.bottom) - max(box.top, figure.top)
    return across > 0 and down > 0 and across * down > box.width * box.height / 2


def _within(box: BBox, figure: BBox) -> bool:
    return (box.x0 >= figure.x0 - 1 and box.x1 <= figure.x1 + 1
            and box.top >= figure.top - 1 and box.bottom <= figure.bottom + 1)


def write_figures(document: Document, figures: Sequence[Figure], folder: Path, *,
                  link_from: Path | None = None, dpi: int = FIGURE_DPI) -> tuple[Figure, ...]:
    """Write each of the ``figures`` of ``document`` to ``folder`` (made when missing) as
    a PNG named by its page and number (`Figure.name`), and return them with their
    files (relative to ``link_from``, the folder of the page that links them; as under
    ``folder`` as given without one) and pixel sizes.  A lone upright picture is taken
    out at its own pixel size, anything else rendered from its box at ``dpi``.  Raises
    UsageError when ``folder`` cannot be made."""
    if not figures:
        return ()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UsageError(f"--images {folder}: cannot make the folder "
                         f"({error.strerror or error})") from None
    import pypdfium2 as pdfium

    from ..pictures import page_png

    written: list[Figure] = []
    pdf = pdfium.PdfDocument(document.file)
    try:
        rendered: dict[int, tuple[Any, float]] = {}
        for figure in figures:
            picture = _extracted(pdf[figure.page_no - 1], figure)
            if picture is None:
                if figure.page_no not in rendered:
                    rendered[figure.page_no] = page_png(document.file, figure.page_no, dpi)
                page_picture, scale = rendered[figure.page_no]
                b = figure.bbox
                picture = page_picture.crop((round(b.x0 * scale), round(b.top * scale),
                                             round(b.x1 * scale), round(b.bottom * scale)))
            path = folder / figure.name
            _save(picture, path)
            link = os.path.relpath(path, link_from) if link_from is not None else str(path)
            written.append(replace(figure, image=Path(link).as_posix(), pixels=picture.size))
    finally:
        pdf.close()
    return tuple(written)


def _extracted(pdf_page: Any, figure: Figure) -> Any:
    """The picture of ``figure`` taken out of its image object as it is stored (a
    Pillow image), when it is one upright image with no words over it; else None."""
    import ctypes

    import pypdfium2 as pdfium

    if figure.kind is not FigureKind.IMAGE:
        return None
    for piece in page_pieces(pdf_page):
        if piece.picture and piece.upright and _same_box(piece.box, figure.bbox):
            try:
                handle = ctypes.cast(piece.source, pdfium.raw.FPDF_PAGEOBJECT)
                image = pdfium.PdfObject(handle, page=pdf_page, pdf=pdf_page.pdf)
                return image.get_bitmap(render=False).to_pil().convert("RGB")
            except (pdfium.PdfiumError, ValueError, KeyError, OSError):  # a format not given
                _log.info("page %d: picture rendered from its box", figure.page_no)
                return None
    return None


def _same_box(box: BBox, other: BBox) -> bool:
    return all(abs(a - b) <= 0.5 for a, b in zip(box.as_list(), other.as_list(), strict=True))


def _save(picture: Any, path: Path) -> None:
    """``picture`` written to ``path`` as PNG through a temporary file renamed over it."""
    temporary = path.with_name(path.name + ".part")
    try:
        picture.save(temporary, format="PNG")
        temporary.replace(path)
    except OSError as error:
        temporary.unlink(missing_ok=True)
        raise UsageError(f"{path}: cannot write the figure ({error.strerror or error})") from None


def figure_json(figure: Figure) -> dict[str, Any]:
    """A figure as the document's JSON gives it, in its page's ``figures``: its number,
    kind, box, caption, the line it stands before, and its file when it was written."""
    return {"index": figure.index, "kind": figure.kind.value, "bbox": figure.bbox.as_list(),
            "caption": figure.caption, "before": figure.before,
            **({"image": figure.image} if figure.image is not None else {})}


def by_page(figures: Iterable[Figure]) -> Iterator[tuple[int, list[Figure]]]:
    """The ``figures`` by page number, in order."""
    pages: dict[int, list[Figure]] = {}
    for figure in figures:
        pages.setdefault(figure.page_no, []).append(figure)
    yield from pages.items()


def figure_parts(document: Document, config: LinetypesConfig,
                 skip: frozenset[str] = FURNITURE, *, images: Path | None = None,
                 link_from: Path | None = None) -> list[Part | Figure]:
    """The parts of ``document`` (`layoutkit.outputs.structure.parts`) with its
    figures among them, each where it stands in the reading (`placed`), written to
    the folder ``images`` first when one is given (`write_figures`, linked from
    ``link_from``)."""
    figures = document_figures(document, config)
    if images is not None:
        figures = write_figures(document, figures, images, link_from=link_from)
    return placed(document, config, skip, figures)


def placed(document: Document, config: LinetypesConfig, skip: frozenset[str],
           figures: Sequence[Figure]) -> list[Part | Figure]:
    """The parts of ``document`` read without the ``figures``' captions (and a captioned
    picture's own labels, `without_captions`), each figure among them where it stands:
    before the part that opens with the first line read after its place
    (`Figure.before`), else after the part that line is in, as a figure floats: a
    paragraph that runs on past it, from one column or page to the next, is one
    paragraph.  At the end when no line is read after it."""
    if not figures:
        return list(parts(document, config, skip))
    read = without_captions(document, figures)
    base = parts(read, config, skip)
    # before which part a figure placed before a line goes: the part the line opens,
    # else the next (a figure floats out of the paragraph it stands in)
    slot: dict[int, int] = {}
    for k, part in enumerate(base):
        for n, line in enumerate(line for item in part.items for line in item.lines):
            slot.setdefault(id(line), k if n == 0 else k + 1)
    order = [(page.page_no, k, line) for page in read.pages
             for k, line in enumerate(document.page(page.page_no).lines)]
    at = {(p, k): n for n, (p, k, _) in enumerate(order)}
    inserts: dict[int, list[Figure]] = {}
    for figure in figures:
        start = at.get((figure.page_no, figure.before))
        if start is None:  # at a page's end: the next page's first line
            start = next((n for n, (p, _, _) in enumerate(order) if p > figure.page_no),
                         len(order))
        k = next((slot[id(line)] for _, _, line in order[start:] if id(line) in slot),
                 len(base))
        inserts.setdefault(k, []).append(figure)
    found: list[Part | Figure] = []
    for k, part in enumerate(base):
        found.extend(inserts.get(k, []))
        found.append(part)
    return found + inserts.get(len(base), [])


