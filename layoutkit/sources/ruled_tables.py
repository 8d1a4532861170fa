"""Ruled tables: the tables pdfplumber's table finder sees in a PDF's drawn lines,
with their cells' text, a second glyph source read only when tables are asked for."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from ..model import BBox, Table
from .base import is_image

__all__ = ["find_ruled_tables"]


def find_ruled_tables(path: Path, page_numbers: Iterable[int]) -> tuple[Table, ...]:
    """The ruled tables pdfplumber finds on the 1-based ``page_numbers`` of ``path``;
    none for an image, whose ruling lines (if any) are pixels, not drawn lines.

    pdfplumber (and the pdfminer.six it reads with) is imported here, when tables are
    asked for: reading a document with the pdfium engine needs neither."""
    if is_image(path):
        return ()
    import pdfplumber

    found = []
    with pdfplumber.open(path) as pdf:
        for number in page_numbers:
            for table in pdf.pages[number - 1].find_tables():
                rows = tuple(tuple(cell for cell in row) for row in table.extract())
                found.append(Table(number, BBox(*table.bbox), rows))
    return tuple(found)
