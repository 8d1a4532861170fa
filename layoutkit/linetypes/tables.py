"""Ruled tables (``tab``): found by pdfplumber's table finder, the body lines inside
a table's box typed ``tab``, the cells kept for ``<name>.table.json``."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from pathlib import Path

import pdfplumber

from ..model import BBox, Document, LineType, Table
from .lines import Key, Typed, body_lines, log, retyped

__all__ = ["find_ruled_tables", "type_tables", "without_empty_columns"]


def find_ruled_tables(path: Path, page_numbers: Iterable[int]) -> tuple[Table, ...]:
    """The ruled tables pdfplumber finds on the 1-based ``page_numbers`` of ``path``."""
    found = []
    with pdfplumber.open(path) as pdf:
        for number in page_numbers:
            for table in pdf.pages[number - 1].find_tables():
                rows = tuple(tuple(cell for cell in row) for row in table.extract())
                found.append(Table(number, BBox(*table.bbox), rows))
    return tuple(found)


def type_tables(document: Document, tables: tuple[Table, ...]) -> Document:
    """``document`` holding ``tables``, with the body lines whose centre lies in a
    table's box typed ``tab``."""
    decisions: dict[Key, Typed] = {}
    for item in body_lines(document):
        box = item.line.bbox
        x, y = (box.x0 + box.x1) / 2, (box.top + box.bottom) / 2
        for table in tables:
            t = table.bbox
            if table.page_no == item.line.page_no and t.x0 <= x <= t.x1 and t.top <= y <= t.bottom:
                log.info("page %d: table line %r", item.line.page_no, item.line.text)
                decisions[item.key] = Typed(LineType.TABLE)
    return dataclasses.replace(retyped(document, decisions), tables=tables)


def without_empty_columns(table: Table) -> Table:
    """``table`` without the columns whose every cell is empty (DCR's
    ``lt_table_file_incl_empty_columns`` turned off)."""
    width = max((len(row) for row in table.rows), default=0)
    kept = [c for c in range(width)
            if any(c < len(row) and (row[c] or "").strip() for row in table.rows)]
    rows = tuple(tuple(row[c] if c < len(row) else None for c in kept) for row in table.rows)
    return dataclasses.replace(table, rows=rows)
