"""The immutable values that flow through the pipeline.

Coordinates are PDF points with the origin at the page's top-left corner
(``x0, top, x1, bottom``), as pdfplumber uses them; extraction converts once,
everything downstream relies on it::

    (0, 0) ------------------------------> x
      |     x0,top +--------+
      |            |  word  |
      |            +--------+ x1,bottom
      v y
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

__all__ = [
    "BBox",
    "Band",
    "BandKind",
    "Block",
    "Column",
    "Document",
    "Glyph",
    "Line",
    "LineType",
    "Page",
    "PageGlyphs",
    "Rule",
    "Table",
    "Word",
]


@dataclass(frozen=True, slots=True)
class BBox:
    """An axis-aligned box in top-left-origin points."""

    x0: float
    top: float
    x1: float
    bottom: float

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        return self.bottom - self.top

    def as_list(self, ndigits: int = 2) -> list[float]:
        """``[x0, top, x1, bottom]`` rounded for output."""
        return [round(self.x0, ndigits), round(self.top, ndigits),
                round(self.x1, ndigits), round(self.bottom, ndigits)]

    @staticmethod
    def union(boxes: Iterable[BBox]) -> BBox:
        """The smallest box holding every box of ``boxes`` (which must not be empty)."""
        items = list(boxes)
        if not items:
            raise ValueError("BBox.union of no boxes")
        return BBox(min(b.x0 for b in items), min(b.top for b in items),
                    max(b.x1 for b in items), max(b.bottom for b in items))


@dataclass(frozen=True, slots=True)
class Glyph:
    """One character drawn on a page, as the glyph source reports it."""

    text: str
    bbox: BBox
    font: str
    size: float
    upright: bool = True


@dataclass(frozen=True, slots=True)
class Rule:
    """A ruling line (or a thin filled rectangle) drawn on a page."""

    bbox: BBox

    @property
    def horizontal(self) -> bool:
        return self.bbox.width >= self.bbox.height


@dataclass(frozen=True, slots=True)
class PageGlyphs:
    """What a glyph source yields for one page: its size, glyphs, rules and images."""

    page_no: int
    width: float
    height: float
    glyphs: tuple[Glyph, ...]
    rules: tuple[Rule, ...] = ()
    images: tuple[BBox, ...] = ()


@dataclass(frozen=True, slots=True)
class Word:
    """Glyphs on one baseline with no word gap between them."""

    text: str
    bbox: BBox
    font: str
    size: float
    upright: bool = True


class LineType(StrEnum):
    """What a line is, with DCR's short codes (a heading's code adds its level:
    ``h_1``, ``h_2``...; see :attr:`Line.code`)."""

    HEADER = "h"
    FOOTER = "f"
    BODY = "b"
    HEADING = "h_"
    LIST_BULLET = "lb"
    LIST_NUMBER = "ln"
    TOC = "toc"
    TABLE = "tab"


class BandKind(StrEnum):
    """Where a band stands on its page."""

    HEADER = "header"
    BODY = "body"
    FOOTER = "footer"
    MARGIN = "margin"


@dataclass(frozen=True, slots=True)
class Line:
    """A line of words, placed in its page's band, column and block."""

    text: str
    bbox: BBox
    words: tuple[Word, ...]
    page_no: int
    band: int
    column: int
    block: int
    line_type: LineType = LineType.BODY
    level: int = 0
    """The heading level (1 is the top) of a heading line; 0 for every other type."""

    @property
    def code(self) -> str:
        """The line type's DCR code, with the level for headings (``h_2``)."""
        return f"h_{self.level}" if self.line_type is LineType.HEADING else self.line_type.value

    @property
    def furniture(self) -> bool:
        """Whether the line is a running header or footer (or a margin stamp)."""
        return self.line_type in (LineType.HEADER, LineType.FOOTER)

    @property
    def size(self) -> float:
        """The font size most of the line's characters use."""
        weights: dict[float, int] = {}
        for w in self.words:
            weights[w.size] = weights.get(w.size, 0) + len(w.text)
        return max(weights, key=weights.__getitem__) if weights else 0.0

    @property
    def fonts(self) -> tuple[str, ...]:
        """The distinct font names of the line, in order of first use."""
        return tuple(dict.fromkeys(w.font for w in self.words))


@dataclass(frozen=True, slots=True)
class Block:
    """Consecutive lines of one column with no unusual gap between them."""

    lines: tuple[Line, ...]
    bbox: BBox


@dataclass(frozen=True, slots=True)
class Column:
    """One column of a band, its blocks top to bottom."""

    index: int
    bbox: BBox
    blocks: tuple[Block, ...]

    @property
    def lines(self) -> tuple[Line, ...]:
        return tuple(line for block in self.blocks for line in block.lines)


@dataclass(frozen=True, slots=True)
class Band:
    """A horizontal slab of a page with one column layout; columns left to right."""

    index: int
    kind: BandKind
    bbox: BBox
    columns: tuple[Column, ...]

    @property
    def lines(self) -> tuple[Line, ...]:
        return tuple(line for column in self.columns for line in column.lines)


@dataclass(frozen=True, slots=True)
class Page:
    """A page laid out: bands in reading order, header band first, footer band last."""

    page_no: int
    width: float
    height: float
    bands: tuple[Band, ...]

    @property
    def lines(self) -> tuple[Line, ...]:
        """Every line of the page in reading order, furniture included."""
        return tuple(line for band in self.bands for line in band.lines)

    @property
    def body_lines(self) -> tuple[Line, ...]:
        """The lines a reader reads: running headers and footers left out."""
        return tuple(line for line in self.lines if not line.furniture)

    def text(self, *, furniture: bool = False) -> str:
        """The page's text in reading order, one line per line of text."""
        lines = self.lines if furniture else self.body_lines
        return "\n".join(line.text for line in lines)


@dataclass(frozen=True, slots=True)
class Table:
    """A ruled table: its page, box and cells row by row (None for a merged cell)."""

    page_no: int
    bbox: BBox
    rows: tuple[tuple[str | None, ...], ...]


@dataclass(frozen=True, slots=True)
class Document:
    """A parsed document: its pages in order (and its ruled tables, when asked for)."""

    path: Path
    pages: tuple[Page, ...]
    page_count: int
    tables: tuple[Table, ...] = ()

    def __len__(self) -> int:
        return len(self.pages)

    def __iter__(self) -> Iterator[Page]:
        return iter(self.pages)

    def __getitem__(self, index: int) -> Page:
        return self.pages[index]

    def text(self, *, furniture: bool = False) -> str:
        """The document's text in reading order, a form feed between pages."""
        return "\f".join(page.text(furniture=furniture) for page in self.pages)
