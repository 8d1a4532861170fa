"""Tables (`tab`): lines in a ruled table's box, and whitespace-aligned tables.

- The body lines inside a ruled table's box (found by `layoutkit.sources.ruled_tables`)
  are typed `tab`, its cells kept for `<name>.table.json`.
- Whitespace-aligned tables inside a column are rows of cells parted by wide gaps
  (`table_min_gap_em`), at least `table_min_columns` cells and `table_min_rows` rows,
  or `table_min_pair_rows` rows for two columns of labels and values.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Sequence

from ..config import LinetypesConfig
from ..geometry.words import split_at_gaps
from ..model import Document, Line, LineType, Table, Word
from ..model.captions import panel_letters
from .lines import Key, Typed, TypedLine, body_lines, column_of, log, retyped
from .lists import marker

_MIN_SHARED = 3
"""Two rows of a table share at least this many columns..."""
_MIN_SHARED_SHARE = 0.75
"""...and at least this share of the columns of the row with fewer cells."""
_SIGNS = frozenset("-‐‒–—−%‰°±×†‡")
"""The signs a cell of a table of figures may hold alone: a dash or minus for no value,
a unit (``%``), a mark."""
_MAX_MATH = 2
"""A line holding this many signs of logic, sets or arrows (``∈``, ``⇒``, ``→``) is
a formula, not a row."""
_MIN_TEXT_WORDS = 6
"""A cell of at least this many words, most in lower case, reads as running text."""
_SPREAD_EM = 0.25
"""The gaps between the words of a line spread to fill its column differ by at most
this many times its size (a table's columns stand apart by the widths of their
cells)."""
_EDGE_EM = 1.0
"""A line spread to fill its column ends within this many times its size of the
column's right edge."""
_HEAD_GAP = 0.5
"""A table's head parts its cells at this share of the gap that parts a row's."""
_MAX_VALUE_WORDS = 3
"""The value beside a label in a table of two columns is at most this many words."""
_MAX_BETWEEN = 2
"""At most this many lines that are not rows (a part's title, a label whose values
stand below it) stand between two rows of a table."""

__all__ = ["aligned_table_lines", "cells", "heads_row", "ruled_table_lines",
           "type_aligned_tables", "type_tables", "without_empty_columns"]


def type_tables(document: Document, tables: tuple[Table, ...]) -> Document:
    """``document`` holding ``tables``, with the body lines whose centre lies in a
    table's box typed ``tab``."""
    return dataclasses.replace(retyped(document, ruled_table_lines(body_lines(document), tables)),
                               tables=tables)


def ruled_table_lines(lines: Sequence[TypedLine], tables: Sequence[Table]) -> dict[Key, Typed]:
    """The body ``lines`` (of any pages) whose centre lies in the box of one of the
    ``tables`` on their page, typed ``tab``."""
    decisions: dict[Key, Typed] = {}
    pages = {table.page_no for table in tables}
    for item in lines:
        if item.line.page_no not in pages:
            continue
        for table in tables:
            if (table.page_no == item.line.page_no
                    and table.bbox.contains_centre_of(item.line.bbox)):
                log.info("page %d: table line %r", item.line.page_no, item.line.text)
                decisions[item.key] = Typed(LineType.TABLE)
    return decisions


def without_empty_columns(table: Table) -> Table:
    """``table`` without the columns whose every cell is empty (DCR's
    ``lt_table_file_incl_empty_columns`` turned off)."""
    width = max((len(row) for row in table.rows), default=0)
    kept = [c for c in range(width)
            if any(c < len(row) and (row[c] or "").strip() for row in table.rows)]
    rows = tuple(tuple(row[c] if c < len(row) else None for c in kept) for row in table.rows)
    return dataclasses.replace(table, rows=rows)


def cells(line: Line, min_gap_em: float) -> list[tuple[float, float]]:
    """The horizontal spans of a line's cells: runs of words parted by gaps wider
    than ``min_gap_em`` times the font size."""
    return _spans(split_at_gaps(line.words, min_gap_em))


def _is_row(line: Line, pieces: Sequence[Sequence[Word]], spans: Sequence[tuple[float, float]],
            right: float, fewest: int) -> bool:
    """Whether a line may be a row of a whitespace-aligned table: at least ``fewest``
    cells (``pieces``, spanning ``spans``) that hold a letter, a digit or one of
    `_SIGNS` (a dot leader, a bullet or a drawing's stars make none); neither
    text spread to fill its column (`_spread`, the column's text ending at
    ``right``), nor a formula (`_is_formula`), whose layout sets signs apart,
    nor two columns of running text side by side (`_running_text`), nor the legends
    of a figure's panels set side by side, each opening with its panel's letter in
    their order (`panel_letters`: '(a) Pic de Dirac (b) Sinusoïde (c) Chirp linéaire')."""
    return (len(pieces) >= fewest and _filled(pieces) >= fewest
            and not _spread(line, spans, right) and not _is_formula(line)
            and sum(map(_running_text, pieces)) < 2
            and not panel_letters([cell[0].text for cell in pieces]))


def _running_text(cell: Sequence[Word]) -> bool:
    """Whether a cell reads as a line of running text: at least
    `_MIN_TEXT_WORDS` words, most of them opening in lower case.  A line with two
    such cells is two columns of text read side by side, not a row (a table's cell of
    text sits beside short ones, and names set in capitals are no running text)."""
    return len(cell) >= _MIN_TEXT_WORDS and 2 * sum(
        1 for w in cell if w.text[:1].islower()) > len(cell)


def _filled(cells: Sequence[Sequence[Word]]) -> int:
    """How many of a row's cells hold a letter, a digit or one of `_SIGNS`."""
    return sum(1 for cell in cells
               if any(c.isalnum() or c in _SIGNS for w in cell for c in w.text))


def _is_formula(line: Line) -> bool:
    """Whether a line holds at least `_MAX_MATH` signs of logic, sets or arrows."""
    return sum(1 for c in line.text if _is_math(c)) >= _MAX_MATH


def _is_math(char: str) -> bool:
    """Whether ``char`` is a sign of logic, sets or arrows (Unicode's arrows and
    mathematical operators, but for the minus, the asterisk and the signs of
    comparison that tables of values hold)."""
    return "\u2190" <= char <= "\u22ff" and char not in "\u2212\u2213\u2217\u223c\u2248\u2264\u2265"


def _spread(line: Line, spans: Sequence[tuple[float, float]], right: float) -> bool:
    """Whether a line is text spread to fill its column (justified, a narrow column's
    few words set wide apart): it ends where the column's lines of text end, at
    ``right`` (within `_EDGE_EM`), every word a cell of its own, some spelt with
    letters, the gaps between them all alike (within `_SPREAD_EM`)."""
    if (len(spans) != len(line.words) or line.bbox.x1 < right - _EDGE_EM * line.size
            or not any(c.isalpha() for c in line.text)):
        return False
    gaps = [b0 - a1 for (_, a1), (b0, _) in itertools.pairwise(spans)]
    return max(gaps) - min(gaps) <= _SPREAD_EM * line.size


def _is_pair(line: Line, pieces: Sequence[Sequence[Word]]) -> bool:
    """Whether a line may be a row of a table of labels and their values: two cells
    that hold a letter, a digit or one of `_SIGNS`, the value of at most
    `_MAX_VALUE_WORDS` words (a note's number set apart from its text is no
    label), the first no list marker (a list item's marker set apart from its text is
    two cells too)."""
    return (len(pieces) == 2 and _filled(pieces) == 2 and len(pieces[1]) <= _MAX_VALUE_WORDS
            and marker(line.words) is None)


def _paired(above: Sequence[tuple[float, float]], below: Sequence[tuple[float, float]],
            size: float) -> bool:
    """Whether two rows of two cells stand as a label and its value do, one over the
    other: the labels starting at one edge and the values aligned on their left or
    right edge, within `_EDGE_EM` times the font ``size``."""
    (label, value), (next_label, next_value) = above, below
    near = _EDGE_EM * size
    return (abs(label[0] - next_label[0]) <= near
            and (abs(value[0] - next_value[0]) <= near or abs(value[1] - next_value[1]) <= near))


def _shared(above: Sequence[tuple[float, float]], below: Sequence[tuple[float, float]]) -> bool:
    """Whether two rows stand in the same columns: of the row with fewer cells, at
    least `_MIN_SHARED` of the cells and at least `_MIN_SHARED_SHARE` of
    them overlap a cell of the other row (left-, right- or centre-aligned columns
    alike).  A row may leave a column empty (a candidate on the ballot of some
    precincts only) or set two cells close enough to read as one."""
    fewer, more = sorted((above, below), key=len)
    shared = sum(1 for a0, a1 in fewer if any(a0 <= b1 and b0 <= a1 for b0, b1 in more))
    return shared >= _MIN_SHARED and shared >= _MIN_SHARED_SHARE * len(fewer)


def type_aligned_tables(document: Document, config: LinetypesConfig) -> Document:
    """``document`` with its whitespace-aligned tables typed ``tab`` (see
    `aligned_table_lines`)."""
    return retyped(document, aligned_table_lines(body_lines(document), config))


def aligned_table_lines(lines: Sequence[TypedLine], config: LinetypesConfig) -> dict[Key, Typed]:
    """The lines of whitespace-aligned tables among ``lines``, typed ``tab``.

    A row is a line of at least ``table_min_columns`` cells (words parted by gaps wider
    than ``table_min_gap_em``; `_is_row`); a table is a run of at least
    ``table_min_rows`` rows of one column, each standing in the columns of the row
    before (`_shared`: left-, right- or centre-aligned columns alike, some left
    empty), with at most `_MAX_BETWEEN` other lines between two rows: the titles
    of a table's parts (the office voted for, an item whose values stand on the lines
    below), which are the table's too.  Such titles after a table's last row open the
    next table when its rows stand in other columns; the line above a table's first
    row is its head when its labels stand over the row's columns (`_head`), and
    the line above the head the first part's title when the later parts repeat the
    head under titles like it (`_first_title`).  A table of labels and their
    values is a run of at least ``table_min_pair_rows`` lines of two cells
    (`_is_pair`), each standing as the one above it does (`_paired`); such
    a line within a table of more columns is a line between its rows.
    Tables are typed before headings and lists, so a cell is neither.  A run stays
    within a column, so a page's lines give the same tables alone as among the whole
    document's."""
    pieces = [split_at_gaps(item.line.words, config.table_min_gap_em) for item in lines]
    spans = [_spans(row) for row in pieces]
    right: dict[tuple[int, int, int], float] = {}  # where the column's text lines end
    for item, cells_of in zip(lines, spans, strict=True):
        if len(cells_of) == 1:
            right[column_of(item)] = max(right.get(column_of(item), 0.0), item.line.bbox.x1)
    decisions: dict[Key, Typed] = {}
    table: list[int] = []  # the lines of the table being read: rows and lines between
    rows = 0
    between: list[int] = []
    titles: list[int] = []  # the table's lines between its rows

    def enough() -> bool:
        """Whether the table being read has rows enough (more when it is pairs)."""
        return bool(table) and rows >= (config.table_min_pair_rows
                                        if len(spans[table[-1]]) == 2 else config.table_min_rows)

    def close() -> None:
        if not enough():
            return
        log.info("page %d: aligned table of %d rows from %r", lines[table[0]].line.page_no,
                 rows, lines[table[0]].line.text)
        decisions.update((lines[j].key, Typed(LineType.TABLE)) for j in table)
        head = _head(lines, table, spans[table[0]], config)
        if head is None:
            return
        decisions[lines[head].key] = Typed(LineType.TABLE)
        title = _first_title(lines, table, head, titles)
        if title is not None:
            decisions[lines[title].key] = Typed(LineType.TABLE)

    for k, item in enumerate(lines):
        row = _is_row(item.line, pieces[k], spans[k], right.get(column_of(item), math.inf),
                      config.table_min_columns)
        pair = not row and _is_pair(item.line, pieces[k])
        within = bool(table) and column_of(lines[table[-1]]) == column_of(item)
        last = spans[table[-1]] if table else []
        if within and ((row and _shared(last, spans[k]))
                       or (pair and len(last) == 2 and _paired(last, spans[k], item.line.size))):
            table += [*between, k]
            titles += between
            rows, between = rows + 1, []
        elif row or (pair and not (within and len(last) > 2 and len(between) < _MAX_BETWEEN)):
            # a pair in a table of more columns is a line between its rows
            close()
            if enough():  # the titles after a table's last row open the next one
                table, rows = [*between, k], 1
            else:
                # pairs taken for lines between the rows of a table of more columns
                # open this one when they stand as its row's label and value do
                table = [k]
                while (pair and between and _is_pair(lines[between[-1]].line,
                                                     pieces[between[-1]])
                       and _paired(spans[between[-1]], spans[k], item.line.size)):
                    table.insert(0, between.pop())
                rows = len(table)
            between, titles = [], []
        elif within and len(between) < _MAX_BETWEEN:
            between.append(k)
        else:
            close()
            table, rows, between, titles = [], 0, [], []
    close()
    return decisions


def _spans(cells: Sequence[Sequence[Word]]) -> list[tuple[float, float]]:
    """The horizontal span of each of a row's cells."""
    return [(cell[0].bbox.x0, cell[-1].bbox.x1) for cell in cells]


def _first_title(lines: Sequence[TypedLine], table: Sequence[int], head: int,
                 titles: Sequence[int]) -> int | None:
    """The line right above a table's ``head`` (by index in ``lines``) when it is the
    title of the table's first part: the table's later parts each open with a title
    (the question voted on) over the same head again, and the line is in the table's
    column, starting where such a title starts (within `_EDGE_EM` times its size)
    and set in its size.  The run of rows begins at the first part's first row, so its
    head is found above it (`_head`), and its title above that."""
    above = head - 1
    if above < 0 or column_of(lines[above]) != column_of(lines[table[0]]):
        return None
    line, again = lines[above].line, lines[head].line.text
    return above if any(
        t + 1 < len(lines) and lines[t + 1].line.text == again
        and lines[t].line.size == line.size
        and abs(lines[t].line.bbox.x0 - line.bbox.x0) <= _EDGE_EM * line.size
        for t in titles) else None


def _head(lines: Sequence[TypedLine], table: Sequence[int], first: Sequence[tuple[float, float]],
          config: LinetypesConfig) -> int | None:
    """The line right above a table's first line (of ``table``, by index in
    ``lines``, its cells spanning ``first``) when it is the table's head: in its
    column, standing over the row's columns as a head does (`_heads`)."""
    above = table[0] - 1
    if above < 0 or column_of(lines[above]) != column_of(lines[table[0]]):
        return None
    return above if _heads(lines[above].line, first, config) else None


def _heads(line: Line, row: Sequence[tuple[float, float]], config: LinetypesConfig) -> bool:
    """Whether ``line`` stands as a table's head over a row whose cells span ``row``:
    its words parted at narrower gaps (`_HEAD_GAP` of ``table_min_gap_em``), as a
    head's labels (``Pct 1 Pct 2 Pct 3``, ``Yes (%) No (%)``) stand closer than the
    figures below them, make ``table_min_columns`` cells or more in the row's columns,
    and it is no formula."""
    pieces = split_at_gaps(line.words, config.table_min_gap_em * _HEAD_GAP)
    return (_filled(pieces) >= config.table_min_columns and not _is_formula(line)
            and _shared(row, _spans(pieces)))


def heads_row(line: Line, below: Line, config: LinetypesConfig) -> bool:
    """Whether ``line`` is the head of a table whose first row is ``below``, though the
    rows are too few, or wrap too often, to be typed a table: both parted at the
    head's narrower gaps (`_heads`), ``below`` makes ``table_min_columns`` cells or
    more that hold something under the head's, and is neither a formula nor two
    columns of running text side by side (as `_is_row` asks of a row).  Labels over a
    table's columns are no heading, however bold."""
    pieces = split_at_gaps(below.words, config.table_min_gap_em * _HEAD_GAP)
    return (_filled(pieces) >= config.table_min_columns and not _is_formula(below)
            and sum(map(_running_text, pieces)) < 2 and _heads(line, _spans(pieces), config))
