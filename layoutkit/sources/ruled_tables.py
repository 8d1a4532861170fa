"""Ruled tables: the tables pdfplumber's table finder sees in a PDF's drawn lines.

A second glyph source, giving the tables with their cells' text: read only on the
pages whose rules draw a table's grid, or on every page when tables are asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from ..model import BBox, Table, quarter_turn
from .base import direction_of, is_image

__all__ = ["find_ruled_tables"]

_MIN_ROWS = 2
"""A ruled table has at least this many rows of two cells or more with text."""
_MAX_WHOLE_SHARE = 0.5
"""Fewer than this share of a ruled table's rows are a single cell across it."""

_READ_AS: dict[int, dict[str, str]] = {
    0: {},
    90: {"char_dir_rotated": "btt", "line_dir_rotated": "ltr"},
    180: {"char_dir": "rtl", "line_dir": "btt", "char_dir_render": "ltr",
          "line_dir_render": "ttb"},
    270: {"char_dir_rotated": "ttb", "line_dir_rotated": "rtl"},
}
"""pdfplumber's text settings that read text whose baseline runs in each direction
(`direction_of`) forwards, written as read (not as
laid out): pdfplumber tells only upright text (0 and 180) from rotated (90 and 270),
and reads each kind one way."""


def find_ruled_tables(path: Path, page_numbers: Iterable[int]) -> tuple[Table, ...]:
    """The ruled tables pdfplumber finds on the 1-based ``page_numbers`` of ``path``;
    none for an image, whose ruling lines (if any) are pixels, not drawn lines.  A
    cell's text set in several directions (a header turned to read up the column
    above upright figures) is each direction's text read forwards, upright first.

    A grid holding no table (`_is_table`) is left out.  pdfplumber (and the
    pdfminer.six it reads with) is imported here, when there are pages to look at:
    reading a document with the pdfium engine needs neither otherwise."""
    page_numbers = list(page_numbers)
    if is_image(path) or not page_numbers:
        return ()
    import pdfplumber
    from pdfplumber.table import Table as Found

    found = []
    with pdfplumber.open(path) as pdf:
        for number in page_numbers:
            page = pdf.pages[number - 1]
            tables = page.find_tables()
            directions = sorted({_quarter(char) for char in page.chars}) if tables else []
            pages = [page.filter(_chars_of(d)) for d in directions]
            for table in tables:
                texts = [Found(p, table.cells).extract(**_READ_AS[d])
                         for p, d in zip(pages, directions, strict=True)]
                rows = tuple(tuple(_joined([t[r][c] for t in texts]) for c in range(len(row)))
                             for r, row in enumerate(texts[0])) if texts else ()
                rows = rows or _plain(table)
                if _is_table(rows):
                    found.append(Table(number, BBox(*table.bbox), rows))
    return tuple(found)


def _is_table(rows: tuple[tuple[str | None, ...], ...]) -> bool:
    """Whether the grid pdfplumber found holds a table: at least `_MIN_ROWS` rows
    of two cells or more with text (a plot's grid of axes holds a label or two), and
    fewer than `_MAX_WHOLE_SHARE` of its rows a single cell (a frame drawn around
    a cover's boxes of text, or around a page's columns, is rows of one cell each)."""
    texts = sum(1 for row in rows if sum(1 for cell in row if cell and cell.strip()) >= 2)
    whole = sum(1 for row in rows if sum(1 for cell in row if cell is not None) == 1)
    return texts >= _MIN_ROWS and whole < _MAX_WHOLE_SHARE * len(rows)


def _plain(table: Any) -> tuple[tuple[str | None, ...], ...]:
    """The cells of a table without text (None where the table has no cell)."""
    return tuple(tuple(row) for row in table.extract())


def _quarter(char: dict[str, Any]) -> int:
    """The quarter turn nearest the direction of a pdfplumber character."""
    return quarter_turn(direction_of(*char["matrix"][:4]))


def _chars_of(direction: int) -> Callable[[dict[str, Any]], bool]:
    """A filter keeping a page's objects but its characters of other directions."""
    return lambda obj: obj.get("object_type") != "char" or _quarter(obj) == direction


def _joined(texts: list[str | None]) -> str | None:
    """A cell's text from its texts in each direction (None where it is no cell)."""
    if texts[0] is None:
        return None
    return " ".join(t for t in texts if t)
