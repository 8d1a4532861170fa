"""Reading order: a page's words, furniture and segmentation tree become a `Page`.

- Bands are read top to bottom: the running header first, the footer and margin stamps
  last.
- The columns of a band are read left to right (right to left on a page of a
  right-to-left script), the lines of a column top to bottom.
- A vertical gap wider than `block_gap_ratio` times the column's usual line pitch
  starts a new block.
- Text turned a quarter or half a turn is laid out in its own frame, turned upright
  (`layoutkit.geometry.words.upright_words`): its columns and bands are found as for
  upright text, and its bands read where they stand among the page's.
- Pages follow one another in document order, so an item that runs across a page
  break reads on without interruption once the furniture is left out.
- A copyright or licence notice set into a column (`notices`) joins the running
  header or footer.
- Footnotes at the foot of the columns (set small, parted by more than the usual
  leading, opening with a note mark) are read after the columns (`footnote_max_size`),
  in a band of their own: on a page of one column too, when the text calls the first
  by a superscript of its mark, so that every text output sets them apart.  Notes set
  as large as the text are told by their marks, raised, the first called in the text.
- A column the stream draws after the band below is a float read after that band when
  the text beside it runs on into the band below (`float_flow_size_tolerance`).
- CJK words join without a space unless parted by a full-width space (`cjk_space_em`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from functools import cached_property
from itertools import repeat

import numpy as np

from ..config import LayoutConfig
from ..geometry.furniture import Furniture, body_words, note_calls
from ..geometry.grid import table_walls
from ..geometry.gutters import prepare
from ..geometry.parting import parted_lines
from ..geometry.segment import Leaf, Node, bands_of, mirrored, segment
from ..geometry.words import group_lines, upright_words
from ..model import (
    Band,
    BandKind,
    BBox,
    Block,
    Column,
    Line,
    LineType,
    Page,
    PageGlyphs,
    Word,
    from_columns,
    turned_boxes,
)
from .notices import notice_words
from .sidenotes import notes_in_place
from .stream import (
    as_drawn,
    beside,
    drawn_down,
    reads_better,
    runs_into,
    stream_reading,
    under,
)
from .text import column_texts, line_text, reading_words, right_to_left

__all__ = ["NOTE_MARK", "layout_page", "raised_mark"]

_Plan = list[tuple[BandKind, list[list[list[Word]]]]]
"""Bands to be: their kind and their columns of leaves' words."""


def layout_page(glyphs: PageGlyphs, words: Sequence[Word], furniture: Furniture, tree: Node,
                config: LayoutConfig) -> Page:
    """The page with every word placed in a line, block, column and band, in reading order.

    ``words`` are the words of ``glyphs`` (the page as extracted), ``furniture``
    says which of them are running headers, footers and margin stamps, ``tree`` is
    the segmentation of the upright body words (see `body_words`).
    """
    body, turned = body_words(words, furniture)
    header, footer = _pick(words, furniture.header), _pick(words, furniture.footer)
    whole = any(leaf.whole for band in bands_of(tree) for column in band for leaf in column)
    plan: _Plan = []
    backwards = right_to_left(w.text for w in body)
    calls = _Calls(body)
    parts = bands_of(mirrored(tree) if backwards else tree)
    for index, band in enumerate(parts):
        columns = [[_pick(body, leaf.words) for leaf in column] for column in band]
        notices = [w for column in columns for w in notice_words(
            column, config, head=not index, foot=index == len(parts) - 1)]
        if notices:
            columns = _without(columns, notices)
            for w in notices:
                (header if w.bbox.bottom < glyphs.height / 2 else footer).append(w)
        notes = [n for n in _footnotes(columns, backwards, calls, config) if n]
        plan.append((BandKind.BODY, _without(columns, [w for n in notes for w in n])))
        if notes:
            plan.append((BandKind.BODY, [[n] for n in notes]))
    plan = _floats_after(plan, config.reading.float_flow_size_tolerance)
    for group in _turned_bands(glyphs, turned, config):
        plan = _placed(plan, group)
    if header:
        plan.insert(0, (BandKind.HEADER, [[header]]))
    if footer:
        plan.append((BandKind.FOOTER, [[footer]]))
    if furniture.margin:
        plan.append((BandKind.MARGIN, [[_pick(words, furniture.margin)]]))
    bands = [_band(glyphs, index, kind, columns, backwards, config,
                   parted=kind is BandKind.BODY and not whole)
             for index, (kind, columns) in enumerate(plan)]
    bands = [b for b in bands if b.columns]
    if not whole:  # a profile's layout read as it stands is not read otherwise
        bands = _notes_read(_stream_read(bands, config),
                            glyphs.figures(config.sources.image_max_area), config)
    return Page(glyphs.page_no, glyphs.width, glyphs.height, tuple(bands), glyphs.label,
                glyphs.unreadable)


def _stream_read(bands: list[Band], config: LayoutConfig) -> list[Band]:
    """``bands`` with their body read in the content stream's order where that order
    reads better than the geometry's (`stream.reads_better`): the whole body at
    once, else each band of it alone (none where the stream draws the whole body as it
    is read, `stream.as_drawn`).  The running header stays first, the footer and
    margin stamps last; the body is rebuilt in bands and columns from the order the
    stream reads its lines in (`_rebuilt`), and the bands renumbered."""
    body = [k for k, band in enumerate(bands) if band.kind is BandKind.BODY]
    if not body:
        return bands
    start, end = body[0], body[-1] + 1
    lines = [line for band in bands[start:end] for line in band.lines]
    drawn = drawn_down(lines)
    if as_drawn(lines, drawn):
        return bands
    if reads_better(lines, drawn, config.gutters.gutter_min_lines):
        middle = _rebuilt(drawn, config)
    else:
        middle = []
        for band in bands[start:end]:
            alone = stream_reading(band.lines, config.gutters.gutter_min_lines)
            middle += [band] if alone is None else _rebuilt(alone, config)
    if all(a is b for a, b in zip(middle, bands[start:end], strict=False)) \
            and len(middle) == end - start:
        return bands
    out = [*bands[:start], *middle, *bands[end:]]
    return [_renumbered(band, index) for index, band in enumerate(out)]


def _notes_read(bands: list[Band], pictures: Sequence[BBox], config: LayoutConfig
                ) -> list[Band]:
    """``bands`` with each body band of a text column and margin notes beside it read
    note by note where the text calls them (`.sidenotes.notes_in_place`; ``pictures``
    are the page's figures), rebuilt from that order (`_rebuilt`) and the bands
    renumbered."""
    out: list[Band] = []
    for band in bands:
        order = notes_in_place(band, pictures, config) if band.kind is BandKind.BODY else None
        out += [band] if order is None else _rebuilt(order, config)
    if len(out) == len(bands) and all(a is b for a, b in zip(out, bands, strict=True)):
        return bands
    return [_renumbered(band, index) for index, band in enumerate(out)]


def _rebuilt(order: Sequence[Line], config: LayoutConfig) -> list[Band]:
    """Body bands holding the lines of ``order`` in that order, in columns the order
    itself draws: a line standing under the last line of the column being read (see
    `stream.under`) goes on with it; one standing beside the band's columns,
    level with the column being read, opens a column; any other opens a band.  Blocks
    are split as in any column (`_block_spans`)."""
    groups: list[list[list[Line]]] = []
    for line in order:
        if groups and under(groups[-1][-1][-1], line):
            groups[-1][-1].append(line)
        elif groups and beside(groups[-1], line):
            groups[-1].append([line])
        else:
            groups.append([[line]])
    return [_band_of(index, BandKind.BODY, columns, config)
            for index, columns in enumerate(groups)]


def _band_of(index: int, kind: BandKind, columns: list[list[Line]],
             config: LayoutConfig) -> Band:
    """The band ``index`` of ``kind`` whose columns hold the lines ``columns`` in
    order, split into blocks, each line renumbered into its band, column and block."""
    built = []
    for number, lines in enumerate(columns):
        boxes = [line.bbox for line in lines]
        spans = _block_spans(_upright_boxes(boxes, [list(line.words) for line in lines]),
                             config)
        blocks = tuple(Block(tuple(replace(line, band=index, column=number, block=block)
                                   for line in lines[a:b]), BBox.union(boxes[a:b]))
                       for block, (a, b) in enumerate(spans))
        built.append(Column(number, BBox.union(boxes), blocks))
    return Band(index, kind, BBox.union(c.bbox for c in built), tuple(built))


def _renumbered(band: Band, index: int) -> Band:
    """``band`` as the ``index``-th band of its page, its lines saying so."""
    if band.index == index:
        return band
    return replace(band, index=index, columns=tuple(
        replace(column, blocks=tuple(
            replace(block, lines=tuple(replace(line, band=index) for line in block.lines))
            for block in column.blocks))
        for column in band.columns))


def _floats_after(plan: _Plan, tolerance: float) -> _Plan:
    """``plan`` with each column that the content stream draws as a float read after
    the band below its band: a column (a figure and its caption beside the text that
    wraps round it) drawn after the rest of its band and after every band below, where
    the stream reads the band above, then the rest of the band, then the band below in
    order, and the band below opens in the size (within ``tolerance``) the text beside
    the float ends in: that text runs on into the band below, which the float does not
    interrupt (a column's footnotes, drawn before the next column, are smaller).
    Geometry alone leaves the choice; a stream drawn out of reading order fails the
    test and moves nothing."""
    out = list(plan)
    for k in range(len(out) - 1):
        kind, columns = out[k]
        if kind is not BandKind.BODY or len(columns) < 2:
            continue
        spans = [_stream_span(column) for column in columns]
        below = _stream_span([leaf for column in out[k + 1][1] for leaf in column])
        after = _stream_span([leaf for _, later in out[k + 1:] for column in later
                              for leaf in column])
        above = (_stream_span([leaf for column in out[k - 1][1] for leaf in column])
                 if k else (-1, -1))
        for c, (first, _) in enumerate(spans):
            rest = [span for j, span in enumerate(spans) if j != c]
            if (first > after[1] and first > max(end for _, end in rest)
                    and above[1] < min(start for start, _ in rest)
                    and max(end for _, end in rest) < below[0]
                    and _runs_on([w for j, column in enumerate(columns) if j != c
                                  for leaf in column for w in leaf],
                                 [w for column in out[k + 1][1] for leaf in column for w in leaf],
                                 tolerance)):
                out[k] = (kind, [column for j, column in enumerate(columns) if j != c])
                out.insert(k + 2, (kind, [columns[c]]))
                break
    return out


def _runs_on(beside: Sequence[Word], below: Sequence[Word], tolerance: float) -> bool:
    """Whether the words ``below`` open, in the stream, in the size (within
    ``tolerance``) that the words ``beside`` end in."""
    last = max(beside, key=lambda w: w.stream).size
    return abs(min(below, key=lambda w: w.stream).size - last) <= tolerance * last


def _stream_span(leaves: Sequence[Sequence[Word]]) -> tuple[int, int]:
    """The first and last places in the content stream of the words of ``leaves``."""
    streams = [w.stream for leaf in leaves for w in leaf]
    return (min(streams), max(streams)) if streams else (-1, -1)


def _turned_bands(glyphs: PageGlyphs, words: Sequence[Word], config: LayoutConfig) -> list[_Plan]:
    """The bands of the body ``words`` not set upright, by direction: those of each
    quarter or half turn segmented in the frame where they read upright, as the upright
    body is; diagonal words one band of their own, last."""
    found: list[_Plan] = []
    diagonal = [w for w in words if w.direction % 90]
    for direction in sorted({w.direction for w in words if not w.direction % 90} - {0}):
        chosen = [w for w in words if w.direction == direction]
        width, height = ((glyphs.height, glyphs.width) if direction % 180
                         else (glyphs.width, glyphs.height))
        canvas = prepare(upright_words(chosen, glyphs.width, glyphs.height), (), (), width,
                         height, config.gutters)
        tree = segment(canvas)
        backwards = right_to_left(w.text for w in chosen)
        found.append([(BandKind.BODY, [[_pick(chosen, leaf) for leaf in column]
                                       for column in band])
                      for band in bands_of(mirrored(tree) if backwards else tree)])
    if diagonal:
        found.append([(BandKind.BODY, [[diagonal]])])
    return found


def _placed(plan: _Plan, turned: _Plan) -> _Plan:
    """``plan`` with the ``turned`` bands (of text set in one direction, in their own
    order) where they stand: before the first band with words lower than their top.
    The upright body is segmented without the turned text, so a single column may run
    down past it: it is parted into the words above the turned text and the rest,
    read after it.  A band of several columns is not parted (its columns would be
    read in pieces): text turned within it (a chart's axis label) follows it."""
    top = min(w.bbox.top for _, columns in turned for w in _words_of(columns))
    for k, (kind, band) in enumerate(plan):
        if all(w.bbox.bottom <= top for w in _words_of(band)):
            continue
        if len(band) > 1 and any(w.bbox.bottom <= top for w in _words_of(band)):
            return [*plan[:k + 1], *turned, *plan[k + 1:]]
        above = [[[w for w in leaf if w.bbox.bottom <= top] for leaf in column]
                 for column in band]
        below = [[[w for w in leaf if w.bbox.bottom > top] for leaf in column]
                 for column in band]
        parts = [part for part in [(kind, above), (kind, below)] if any(_words_of(part[1]))]
        return [*plan[:k], *parts[:-1], *turned, *parts[-1:], *plan[k + 1:]]
    return [*plan, *turned]


def _words_of(columns: list[list[list[Word]]]) -> Iterator[Word]:
    """The words of a band's ``columns`` of leaves' words."""
    return (w for column in columns for leaf in column for w in leaf)


def _without(columns: list[list[list[Word]]], taken: Sequence[Word]) -> list[list[list[Word]]]:
    """``columns`` (lists of leaves' words) without the words ``taken``."""
    if not taken:
        return columns
    ids = {id(w) for w in taken}
    return [[[w for w in leaf if id(w) not in ids] for leaf in column] for column in columns]


NOTE_MARK = r"\d{1,3}|[*∗†‡§¶‖]{1,3}|[a-z]\)"
"""A note's mark: a number, one to three of *, †, ‡, §, ¶, ‖ (TeX's asterisk is ∗, the
asterisk operator), or a letter with a bracket (``a)``, as physics journals mark their
authors' notes)."""
_NOTE_MARK = re.compile(NOTE_MARK)
"""`NOTE_MARK` at the start of a note's first word."""


def _footnotes(columns: list[list[list[Word]]], backwards: bool, calls: _Calls,
               config: LayoutConfig) -> list[list[Word]]:
    """The words of the footnotes at the foot of each column of a band (its columns'
    leaves' words): the trailing lines of a column set at most ``footnote_max_size``
    times the column's usual size, reaching the band's foot, parted from the line above
    by more than the column's usual leading, the first opening with a note mark (at its
    right end on a ``backwards``, right-to-left, page), or notes as large as the text
    told by their raised marks, the first among the page's ``calls`` (see `_notes_of`).  None
    where a column ends otherwise, and none at all when another column of the band is
    mostly set that small (the small type runs on there: references, an index).  A row
    closing every column apart from its text (see `_parted_foot`) is left where it
    stands: the notes above it are still the columns' footnotes."""
    columns = _without(columns, _parted_foot(columns))
    words = [[w for leaf in column for w in leaf] for column in columns]
    sizes = [np.array([w.size for w in column]) for column in words]
    usual = [float(np.median(s)) if len(s) else 0.0 for s in sizes]
    limit = config.reading.footnote_max_size
    small = [float(np.mean(s <= limit * u)) if len(s) else 0.0 for s, u in zip(sizes, usual,
                                                                            strict=True)]
    foot = max((w.bbox.bottom for column in words for w in column), default=0.0)
    found: list[list[Word]] = []
    for k, column in enumerate(words):
        if not column or any(share >= 0.5 for j, share in enumerate(small) if j != k):
            found.append([])
            continue
        lowest = max(w.bbox.bottom for w in column)
        if any(w.size > limit * usual[k] for w in column if w.bbox.bottom >= lowest - 1.0) \
                and not (small[k] and calls.numbers):
            found.append([])  # no small line at its foot, nor a raised mark the text calls
            continue
        lines = [line for leaf in columns[k] for line in group_lines(leaf, config.words)]
        before = found[-1] if found else []  # the notes of the column before
        end = line_text(group_lines(before, config.words)[-1], backwards) if before else None
        found.append(_notes_of(lines, usual[k], foot, backwards, calls, config,
                               called=len(columns) == 1, running=end))
    return found


class _Calls:
    """The numbers a page's text calls as notes, found once, when first asked: a page
    whose columns end in their text's size with no small word in them is never asked."""

    def __init__(self, words: Sequence[Word]) -> None:
        self.words = words

    @cached_property
    def numbers(self) -> frozenset[str]:
        """`geometry.furniture.note_calls` of the page's body words."""
        return note_calls(self.words)


def _parted_foot(columns: list[list[list[Word]]]) -> list[Word]:
    """The words of the row that closes every column of a band (its columns' leaves'
    words) level across them, parted in each from the text above by more than a line of
    the column's usual size: a footer line that the gutter splits (a page number under
    one column, the issue's name under the other) where no other page shows it to be a
    running one.  Empty when a column ends otherwise, as the last lines of columns set
    at their usual leading do."""
    words = [[w for leaf in column for w in leaf] for column in columns]
    if len(words) < 2 or not all(words):
        return []
    rows = []
    for column in words:
        lowest = max(w.bbox.bottom for w in column)
        row = [w for w in column if w.bbox.bottom >= lowest - 1.0]
        above = [w.bbox.bottom for w in column if w.bbox.bottom < lowest - 1.0]
        usual = float(np.median([w.size for w in column]))
        top = min(w.bbox.top for w in row)
        if not above or top - max(above) <= usual:
            return []
        rows.append(row)
    if max(min(w.bbox.top for w in row) for row in rows) \
            >= min(max(w.bbox.bottom for w in row) for row in rows):
        return []  # the rows do not stand level
    return [w for row in rows for w in row]


def _notes_of(lines: list[list[Word]], usual: float, foot: float, backwards: bool,
              calls: _Calls, config: LayoutConfig, *, called: bool = False,
              running: str | None = None) -> list[Word]:
    """The words of the trailing footnote lines of one column's ``lines`` (see
    `_footnotes`), whose usual size is ``usual``; the band's text ends at
    ``foot``; a line opens at its right end when ``backwards``.  With ``called`` (a
    band of one column, where no other column shows small type running on: a numbered
    reference list), the first note's mark must be called in the text above, as a
    word of its own set as small as the notes (a superscript).  Notes set as large as
    the text (a word processor's, at times) are told by their marks instead: each
    raised beside the word after it (`_raised_start`), the first among the numbers the
    page's text ``calls`` as notes anywhere.  Small lines opening with no mark are the
    last note of the column before running on, where its notes end with the line
    ``running`` and the text runs on into them (`stream.runs_into`: a note broken
    mid-sentence, not a caption under the notes)."""
    if len(lines) < 3:
        return []
    limit = config.reading.footnote_max_size * usual
    tops = [min(w.bbox.top for w in line) for line in lines]
    pitch = _usual_pitch(tops)

    def opening(line: list[Word]) -> Word:
        return max(line, key=lambda w: w.bbox.x1) if backwards \
            else min(line, key=lambda w: w.bbox.x0)

    def parted(k: int) -> bool:
        """Whether line ``k`` stands further under the line above than the lines of
        the column stand under each other."""
        return tops[k] - max(w.bbox.bottom for w in lines[k - 1]) > pitch - usual

    k = len(lines)
    while k > 1 and max(w.size for w in lines[k - 1]) <= limit:
        k -= 1
    raised = k == len(lines)
    if raised:
        k = _raised_start(lines, opening, parted)
    if k == len(lines) or not pitch or not parted(k) \
            or foot - max(w.bbox.bottom for w in lines[-1]) > usual:
        return []
    mark = _NOTE_MARK.match(opening(lines[k]).text)
    if mark is None:
        if raised or running is None or not runs_into(running, line_text(lines[k], backwards)):
            return []
        return [w for line in lines[k:] for w in line]
    if raised and mark[0] not in calls.numbers:
        return []
    if called and not raised and not any(w.text == mark[0] and w.size <= limit
                                         for line in lines[:k] for w in line):
        return []
    return [w for line in lines[k:] for w in line]


def _raised_start(lines: list[list[Word]], opening: Callable[[list[Word]], Word],
                  parted: Callable[[int], bool]) -> int:
    """The index of the first of the trailing ``lines`` of a column that are notes set
    as large as its text: going up from the last line, the topmost line ``parted`` from
    the one above that opens (`opening`) with a note mark raised beside the word after
    it (`Word.raised_beside`), before any line so parted that opens otherwise (a
    paragraph of the text); ``len(lines)`` when there is none."""
    start = len(lines)
    for k in range(len(lines) - 1, 0, -1):
        if not parted(k):
            continue
        mark = opening(lines[k])
        after = min((w for w in lines[k] if w is not mark),
                    key=lambda w: abs(w.bbox.x0 + w.bbox.x1 - mark.bbox.x0 - mark.bbox.x1),
                    default=None)
        if after is None or not raised_mark(mark, after):
            break
        start = k
    return start


def raised_mark(mark: Word, beside: Word) -> bool:
    """Whether the word ``mark`` is a note's mark (`NOTE_MARK`) raised beside the word
    ``beside`` (`Word.raised_beside`): the word after it, as a note set as large as its
    text opens (a word processor may set the note's first word solid after it), or the
    word before it, as the text calls the note."""
    return _NOTE_MARK.fullmatch(mark.text) is not None and mark.raised_beside(beside)


def _usual_pitch(tops: Sequence[float]) -> float:
    """The median step down from one line's top to the next (0 when none goes down)."""
    steps = np.diff(tops)
    down = steps[steps > 0]
    return float(np.median(down)) if len(down) else 0.0


def _pick(words: Sequence[Word], indexes: Leaf | frozenset[int] | tuple[int, ...]) -> list[Word]:
    chosen = indexes.words if isinstance(indexes, Leaf) else indexes
    return [words[i] for i in sorted(chosen)]


_LINE_TYPE = {BandKind.HEADER: LineType.HEADER, BandKind.FOOTER: LineType.FOOTER,
              BandKind.MARGIN: LineType.FOOTER, BandKind.BODY: LineType.BODY}


def _band(glyphs: PageGlyphs, index: int, kind: BandKind, columns: list[list[list[Word]]],
          backwards: bool, config: LayoutConfig, *, parted: bool = False) -> Band:
    """A band of the page ``glyphs`` whose columns hold the lines of their leaves, in
    order, split into blocks, each line's box the part on the page of its words';
    ``backwards`` when the page's text runs right to left (see `text.line_text`);
    ``parted`` when its lines are parted where the content stream draws them as two
    (`geometry.parting.parted_lines`)."""
    built: list[Column] = []
    walls = table_walls(glyphs.rules, config.gutters) if parted else []
    for leaves in columns:
        groups = [line for leaf in leaves
                  for line in (parted_lines(group_lines(leaf, config.words), walls, config.words)
                               if parted else group_lines(leaf, config.words))]
        if not groups:
            continue
        column = len(built)
        boxes = [BBox.union([w.bbox for w in group]).on_page(glyphs.width, glyphs.height)
                 for group in groups]
        spans = _block_spans(_upright_boxes(boxes, groups), config)
        count = len(groups)
        texts = column_texts(groups, backwards, config.reading.cjk_space_em)
        lines = from_columns(Line, count, texts, boxes,
                             [reading_words(group, text) for group, text in zip(groups, texts,
                                                                                strict=True)],
                             repeat(glyphs.page_no, count),
                             repeat(index, count), repeat(column, count),
                             [number for number, (a, b) in enumerate(spans) for _ in range(a, b)],
                             repeat(_LINE_TYPE[kind], count), repeat(0, count))
        blocks = tuple(Block(tuple(lines[a:b]), BBox.union(boxes[a:b])) for a, b in spans)
        built.append(Column(column, BBox.union(boxes), blocks))
    bbox = BBox.union(c.bbox for c in built) if built else BBox(0, 0, 0, 0)
    return Band(index, kind, bbox, tuple(built))


def _upright_boxes(boxes: list[BBox], groups: list[list[Word]]) -> list[BBox]:
    """The ``boxes`` of lines (of the words ``groups``) in the frame where the text of
    each reads upright (its first word's direction): where its blocks are measured."""
    if all(group[0].upright for group in groups):
        return boxes
    rows = np.array([(b.x0, b.top, b.x1, b.bottom) for b in boxes], dtype=np.float64)
    return [BBox(*turned_boxes(rows[k:k + 1], group[0].direction)[0].tolist())
            for k, group in enumerate(groups)]


def _block_spans(boxes: Sequence[BBox], config: LayoutConfig) -> list[tuple[int, int]]:
    """(start, end) of each block of a column's lines (their ``boxes``, in reading
    order): a block ends where the step to the next line is unusually large (more
    than ``block_gap_ratio`` times the column's usual line pitch) or goes back up."""
    tops = [box.top for box in boxes]
    pitches = np.diff(tops)
    usual = _usual_pitch(tops)
    starts = [0] + [k + 1 for k, pitch in enumerate(pitches.tolist())
                    if usual and (pitch > config.reading.block_gap_ratio * usual or pitch < 0)]
    return list(zip(starts, [*starts[1:], len(boxes)], strict=True))
