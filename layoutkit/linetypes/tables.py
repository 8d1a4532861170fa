"""Tables (``tab``): the body lines inside a ruled table's box (found by
:mod:`layoutkit.sources.ruled_tables`) typed ``tab``, its cells kept for
``<name>.table.json``; and whitespace-aligned tables inside a column."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from ..config import LinetypesConfig
from ..geometry.words import split_at_gaps
from ..model import Document, Line, LineType, Table
from .lines import Key, Typed, TypedLine, body_lines, column_of, log, retyped

__all__ = ["aligned_table_lines", "cells", "ruled_table_lines",
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
    return [(piece[0].bbox.x0, piece[-1].bbox.x1)
            for piece in split_at_gaps(line.words, min_gap_em)]


def _aligned(above: list[tuple[float, float]], below: list[tuple[float, float]]) -> bool:
    """Whether two rows have as many cells, each overlapping the one above it."""
    return len(above) == len(below) and all(
        a0 <= b1 and b0 <= a1 for (a0, a1), (b0, b1) in zip(above, below, strict=True))


def type_aligned_tables(document: Document, config: LinetypesConfig) -> Document:
    """``document`` with its whitespace-aligned tables typed ``tab`` (see
    :func:`aligned_table_lines`)."""
    return retyped(document, aligned_table_lines(body_lines(document), config))


def aligned_table_lines(lines: Sequence[TypedLine], config: LinetypesConfig) -> dict[Key, Typed]:
    """The rows of whitespace-aligned tables among the body ``lines``, typed ``tab``:
    runs of at least ``table_min_rows`` consecutive lines of one column, each of at least
    ``table_min_columns`` cells (parted by gaps wider than ``table_min_gap_em``),
    every row's cells overlapping those of the row above (left-, right- or
    centre-aligned columns alike).  A run stays within a column, so a page's lines
    give the same rows alone as among the whole document's."""
    spans = [cells(item.line, config.table_min_gap_em) for item in lines]
    decisions: dict[Key, Typed] = {}
    run: list[int] = []
    for k, item in enumerate([*lines, None]):
        if item is not None and len(spans[k]) >= config.table_min_columns and (
                not run or (column_of(lines[run[-1]]) == column_of(item)
                            and _aligned(spans[run[-1]], spans[k]))):
            run.append(k)
            continue
        if len(run) >= config.table_min_rows:
            log.info("page %d: aligned table of %d rows from %r", lines[run[0]].line.page_no,
                     len(run), lines[run[0]].line.text)
            decisions.update((lines[j].key, Typed(LineType.TABLE)) for j in run)
        wide = item is not None and len(spans[k]) >= config.table_min_columns
        run = [k] if wide else []
    return decisions
