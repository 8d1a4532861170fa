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

from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import Field, dataclass
from enum import StrEnum
from itertools import accumulate, chain, islice, repeat
from operator import attrgetter
from pathlib import Path
from typing import Any, ClassVar, TypeVar

import numpy as np
import numpy.typing as npt

__all__ = [
    "CODE_POINTS",
    "NO_GLYPHS",
    "BBox",
    "Band",
    "BandKind",
    "Block",
    "Column",
    "Document",
    "Glyph",
    "Glyphs",
    "Line",
    "LineType",
    "OcrQuality",
    "Page",
    "PageGlyphs",
    "Rule",
    "Table",
    "Word",
    "char_test",
    "code_points",
    "from_columns",
    "spell",
]


class _Value:
    """A frozen value pickled as the call that builds it.

    Pages cross process boundaries (``parse(..., jobs=N)``) a hundred thousand
    words at a time; the pickling that dataclasses give slotted classes looks up the
    fields of every object again and takes several times as long.
    """

    __slots__ = ()
    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    def __reduce__(self) -> tuple[Callable[..., object], tuple[object, ...]]:
        cls = type(self)
        values = _FIELD_VALUES.get(cls)
        if values is None:
            values = _FIELD_VALUES[cls] = _field_values(tuple(cls.__dataclass_fields__))
        return cls, values(self)


_T = TypeVar("_T", bound=_Value)


def _field_values(names: tuple[str, ...]) -> Callable[[Any], tuple[object, ...]]:
    """A function returning the values of the fields ``names`` of an object, as a tuple."""
    get = attrgetter(*names)
    return get if len(names) > 1 else lambda value: (get(value),)


_FIELD_VALUES: dict[type, Callable[[Any], tuple[object, ...]]] = {}
""":func:`_field_values` of each value class, made when it is first pickled."""


@dataclass(frozen=True, slots=True)
class BBox(_Value):
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
        return BBox(min(map(_X0, items)), min(map(_TOP, items)),
                    max(map(_X1, items)), max(map(_BOTTOM, items)))


_X0, _TOP, _X1, _BOTTOM = (attrgetter(edge) for edge in ("x0", "top", "x1", "bottom"))
"""The edges of a :class:`BBox`, for ``map``."""


@dataclass(frozen=True, slots=True)
class Glyph(_Value):
    """One character drawn on a page, as the glyph source reports it."""

    text: str
    bbox: BBox
    font: str
    size: float
    upright: bool = True


@dataclass(frozen=True, slots=True, eq=False)
class Glyphs(_Value):
    """The glyphs of one page as columns: one entry per glyph in each.

    A page holds thousands of glyphs and the stages that read them work on arrays,
    so a glyph source hands them over as arrays instead of one object per glyph.
    ``boxes`` holds ``x0, top, x1, bottom`` per row.  The arrays are read-only and
    equality compares contents, so the value is as immutable as a tuple of
    :class:`Glyph`; indexing and iterating give :class:`Glyph` values.
    """

    texts: tuple[str, ...]
    boxes: npt.NDArray[np.float64]
    fonts: tuple[str, ...]
    sizes: npt.NDArray[np.float64]
    upright: npt.NDArray[np.bool_]

    def __post_init__(self) -> None:
        n = len(self.texts)
        if (self.boxes.shape != (n, 4) or len(self.fonts) != n or self.sizes.shape != (n,)
                or self.upright.shape != (n,)):
            raise ValueError(f"Glyphs: columns of unequal length ({n} texts, boxes "
                             f"{self.boxes.shape}, {len(self.fonts)} fonts, sizes "
                             f"{self.sizes.shape}, upright {self.upright.shape})")
        for column in (self.boxes, self.sizes, self.upright):
            column.flags.writeable = False

    @staticmethod
    def of(glyphs: Iterable[Glyph]) -> Glyphs:
        """The columns of ``glyphs``, in their order."""
        items = list(glyphs)
        return Glyphs(tuple(g.text for g in items),
                      np.array([(g.bbox.x0, g.bbox.top, g.bbox.x1, g.bbox.bottom) for g in items],
                               dtype=np.float64).reshape(len(items), 4),
                      tuple(g.font for g in items),
                      np.array([g.size for g in items], dtype=np.float64),
                      np.array([g.upright for g in items], dtype=np.bool_))

    def __len__(self) -> int:
        return len(self.texts)

    def __getitem__(self, index: int) -> Glyph:
        x0, top, x1, bottom = self.boxes[index].tolist()
        return Glyph(self.texts[index], BBox(x0, top, x1, bottom), self.fonts[index],
                     float(self.sizes[index]), bool(self.upright[index]))

    def __iter__(self) -> Iterator[Glyph]:
        return (self[i] for i in range(len(self)))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Glyphs):
            return NotImplemented
        return (self.texts == other.texts and self.fonts == other.fonts
                and np.array_equal(self.boxes, other.boxes)
                and np.array_equal(self.sizes, other.sizes)
                and np.array_equal(self.upright, other.upright))

    __hash__: Any = None


NO_GLYPHS = Glyphs.of(())
"""A page's glyphs once nothing needs them any more (or a page without text)."""


CODE_POINTS = 0x110000
"""How many code points Unicode has: one more than the highest."""


def code_points(texts: Sequence[str]) -> npt.NDArray[np.int64]:
    """The code point of each text of one character, -1 for any other text.

    Nearly every glyph's text is one character, so this is the glyphs' text as an
    array numpy can compare and look up, made in one pass when all of them are.
    """
    joined = "".join(texts)
    # the items of a str are one character each; other texts are when none is empty
    # and they add up to one character each
    if isinstance(texts, str) or (len(joined) == len(texts) and "" not in texts):
        return np.frombuffer(joined.encode("utf-32-le", "surrogatepass"),
                             dtype=np.uint32).astype(np.int64)
    return np.array([ord(t) if len(t) == 1 else -1 for t in texts], dtype=np.int64)


def spell(codes: npt.NDArray[np.int64]) -> str:
    """The string whose characters are the code points ``codes`` (none of them -1):
    :func:`code_points` undone, in one pass."""
    return codes.astype(np.uint32).tobytes().decode("utf-32-le", "surrogatepass")


def char_test(codes: npt.NDArray[np.int64], test: Callable[[str], bool]) -> npt.NDArray[np.bool_]:
    """``test`` of the character of each of the ``codes`` (False for -1), asked once
    for each distinct character: a page holds thousands of glyphs but few characters.

    The answers go in a table indexed by code point (one past the highest code; most
    pages stay below U+3000), which finds the distinct codes and looks each glyph's
    answer up in one pass each, where sorting them takes several."""
    if not len(codes):
        return np.zeros(0, dtype=np.bool_)
    table = np.zeros(int(codes.max()) + 2, dtype=np.bool_)  # code c at c + 1, -1 at 0
    table[codes + 1] = True
    distinct = np.flatnonzero(table[1:])
    table[0] = False
    table[distinct + 1] = [test(chr(c)) for c in distinct.tolist()]
    return table[codes + 1]


@dataclass(frozen=True, slots=True)
class Rule(_Value):
    """A ruling line (or a thin filled rectangle) drawn on a page."""

    bbox: BBox

    @property
    def horizontal(self) -> bool:
        return self.bbox.width >= self.bbox.height


@dataclass(frozen=True, slots=True)
class PageGlyphs(_Value):
    """What a glyph source yields for one page: its size, glyphs, rules and images,
    and its label (:attr:`Page.label`)."""

    page_no: int
    width: float
    height: float
    glyphs: Glyphs
    rules: tuple[Rule, ...] = ()
    images: tuple[BBox, ...] = ()
    label: str = ""


@dataclass(frozen=True, slots=True)
class Word(_Value):
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
class Line(_Value):
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
        sizes = {w.size for w in self.words}
        if len(sizes) == 1:  # most lines are set in one size
            return sizes.pop()
        weights: dict[float, int] = {}
        for w in self.words:
            weights[w.size] = weights.get(w.size, 0) + len(w.text)
        return max(weights, key=weights.__getitem__) if weights else 0.0

    @property
    def fonts(self) -> tuple[str, ...]:
        """The distinct font names of the line, in order of first use."""
        return tuple(dict.fromkeys(w.font for w in self.words))


@dataclass(frozen=True, slots=True)
class Block(_Value):
    """Consecutive lines of one column with no unusual gap between them."""

    lines: tuple[Line, ...]
    bbox: BBox


@dataclass(frozen=True, slots=True)
class Column(_Value):
    """One column of a band, its blocks top to bottom."""

    index: int
    bbox: BBox
    blocks: tuple[Block, ...]

    @property
    def lines(self) -> tuple[Line, ...]:
        return tuple(chain.from_iterable(block.lines for block in self.blocks))


@dataclass(frozen=True, slots=True)
class Band(_Value):
    """A horizontal slab of a page with one column layout; columns left to right."""

    index: int
    kind: BandKind
    bbox: BBox
    columns: tuple[Column, ...]

    @property
    def lines(self) -> tuple[Line, ...]:
        return tuple(chain.from_iterable(block.lines for column in self.columns
                                         for block in column.blocks))


@dataclass(frozen=True, slots=True)
class Page(_Value):
    """A page laid out: bands in reading order, header band first, footer band last."""

    page_no: int
    width: float
    height: float
    bands: tuple[Band, ...]
    label: str = ""
    """The page's number as the document prints it, from the PDF's page labels
    (``/PageLabels``: ``iii`` for the third page of a front matter numbered in Roman
    numerals, ``1`` where the text begins); empty when the document has none."""

    @property
    def lines(self) -> tuple[Line, ...]:
        """Every line of the page in reading order, furniture included."""
        return tuple(chain.from_iterable(block.lines for band in self.bands
                                         for column in band.columns for block in column.blocks))

    @property
    def body_lines(self) -> tuple[Line, ...]:
        """The lines a reader reads: running headers and footers left out."""
        return tuple(line for line in self.lines if not line.furniture)

    def text(self, *, furniture: bool = False) -> str:
        """The page's text in reading order, one line per line of text."""
        lines = self.lines if furniture else self.body_lines
        return "\n".join(line.text for line in lines)

    def __reduce__(self) -> tuple[Callable[..., object], tuple[object, ...]]:
        """The page pickled as columns (:func:`_page_columns`): a laid-out page holds
        thousands of words, and arrays of their numbers pickle in a fraction of the time
        a constructor call per word and box takes."""
        return _page_of_columns, _page_columns(self)


def _page_columns(page: Page) -> tuple[object, ...]:
    """What :func:`_page_of_columns` rebuilds ``page`` from: its size and label, the
    shape of its bands, columns and blocks (with how many of the next level each holds),
    and its lines and their words as columns, numbers in arrays, strings in tuples."""
    bands: list[tuple[int, BandKind, BBox, int]] = []
    columns: list[tuple[int, BBox, int]] = []
    blocks: list[tuple[BBox, int]] = []
    lines: list[Line] = []
    for band in page.bands:
        bands.append((band.index, band.kind, band.bbox, len(band.columns)))
        for column in band.columns:
            columns.append((column.index, column.bbox, len(column.blocks)))
            for block in column.blocks:
                blocks.append((block.bbox, len(block.lines)))
                lines.extend(block.lines)
    words = [word for line in lines for word in line.words]
    fonts: dict[str, int] = {}
    font_indexes = [fonts.setdefault(w.font, len(fonts)) for w in words]
    return (page.page_no, page.width, page.height, page.label, tuple(bands), tuple(columns),
            tuple(blocks), tuple(x.text for x in lines), tuple(x.line_type for x in lines),
            np.array([(x.bbox.x0, x.bbox.top, x.bbox.x1, x.bbox.bottom) for x in lines],
                     dtype=np.float64).reshape(len(lines), 4),
            np.array([(len(x.words), x.page_no, x.band, x.column, x.block, x.level)
                      for x in lines], dtype=np.int64).reshape(len(lines), 6),
            tuple(w.text for w in words), tuple(fonts), np.array(font_indexes, dtype=np.int64),
            np.array([(w.bbox.x0, w.bbox.top, w.bbox.x1, w.bbox.bottom, w.size) for w in words],
                     dtype=np.float64).reshape(len(words), 5),
            np.array([w.upright for w in words], dtype=np.bool_))


def _page_of_columns(page_no: int, width: float, height: float, label: str,
                     bands: tuple[tuple[int, BandKind, BBox, int], ...],
                     columns: tuple[tuple[int, BBox, int], ...],
                     blocks: tuple[tuple[BBox, int], ...],
                     line_texts: tuple[str, ...], line_types: tuple[LineType, ...],
                     line_boxes: npt.NDArray[np.float64], line_numbers: npt.NDArray[np.int64],
                     word_texts: tuple[str, ...], fonts: tuple[str, ...],
                     font_indexes: npt.NDArray[np.int64], word_numbers: npt.NDArray[np.float64],
                     upright: npt.NDArray[np.bool_]) -> Page:
    """The page :func:`_page_columns` took apart."""
    x0, top, x1, bottom, size = word_numbers.T.tolist()
    words = from_columns(Word, len(word_texts), word_texts,
                         from_columns(BBox, len(x0), x0, top, x1, bottom),
                         map(fonts.__getitem__, font_indexes.tolist()), size, upright.tolist())
    counts, page_nos, band_indexes, column_indexes, block_indexes, levels = line_numbers.T.tolist()
    ends = list(accumulate(counts))
    x0, top, x1, bottom = line_boxes.T.tolist()
    boxes = from_columns(BBox, len(x0), x0, top, x1, bottom)
    lines = iter(from_columns(Line, len(line_texts), line_texts, boxes,
                              map(tuple, map(words.__getitem__, map(slice, [0, *ends], ends))),
                              page_nos, band_indexes, column_indexes, block_indexes, line_types,
                              levels))
    block_values = iter([Block(tuple(islice(lines, count)), box) for box, count in blocks])
    column_values = iter([Column(index, box, tuple(islice(block_values, count)))
                          for index, box, count in columns])
    return Page(page_no, width, height, tuple(
        Band(index, kind, box, tuple(islice(column_values, count)))
        for index, kind, box, count in bands), label)


def from_columns(cls: type[_T], count: int, *values: Iterable[object]) -> list[_T]:
    """``count`` new values of the frozen dataclass ``cls`` (one without
    ``__post_init__``), its fields taking ``values`` (an iterable per field, in order).

    The generated ``__init__`` sets each slot through ``object.__setattr__``; setting a
    slot of all the values at once through its descriptor does the same in C, in half
    the time, which counts where a page's thousands of words are made (or unpickled)."""
    assert not hasattr(cls, "__post_init__"), f"{cls.__name__} checks its values when made"
    built = list(map(object.__new__, repeat(cls, count)))
    for name, column in zip(cls.__dataclass_fields__, values, strict=True):
        deque(map(vars(cls)[name].__set__, built, column), maxlen=0)
    return built


@dataclass(frozen=True, slots=True)
class OcrQuality(_Value):
    """How well OCR read one page: ``confidence`` is tesseract's mean word confidence
    (0-1), ``dictionary`` the share of its words found in the language's word list
    (None when no word list is installed for the language), ``error`` why the page
    could not be OCR'd (its words are then those of its text layer, if any)."""

    page_no: int
    words: int
    confidence: float
    dictionary: float | None
    error: str | None = None

    @property
    def score(self) -> float:
        """One number from 0 to 1: the mean of confidence and dictionary share."""
        if self.dictionary is None:
            return self.confidence
        return (self.confidence + self.dictionary) / 2

    @staticmethod
    def combined(pages: Iterable[OcrQuality]) -> float | None:
        """The quality of several pages: their scores weighted by word count (pages
        that failed left out); None when no page was OCR'd."""
        read = [q for q in pages if q.error is None]
        if not read:
            return None
        words = sum(q.words for q in read)
        return sum(q.score * q.words for q in read) / words if words else 0.0


@dataclass(frozen=True, slots=True)
class Table(_Value):
    """A ruled table: its page, box and cells row by row (None for a merged cell)."""

    page_no: int
    bbox: BBox
    rows: tuple[tuple[str | None, ...], ...]


@dataclass(frozen=True, slots=True)
class Document(_Value):
    """A parsed document: its pages in order (and its ruled tables, when asked for),
    and the quality of its OCR'd pages."""

    path: Path
    pages: tuple[Page, ...]
    page_count: int
    tables: tuple[Table, ...] = ()
    ocr: tuple[OcrQuality, ...] = ()

    @property
    def scanned(self) -> tuple[bool, float | None]:
        """Whether any page was read by OCR, and the OCR quality of the document
        (:meth:`OcrQuality.combined`)."""
        return bool(self.ocr), OcrQuality.combined(self.ocr)

    def __len__(self) -> int:
        return len(self.pages)

    def __iter__(self) -> Iterator[Page]:
        return iter(self.pages)

    def __getitem__(self, index: int) -> Page:
        return self.pages[index]

    def text(self, *, furniture: bool = False) -> str:
        """The document's text in reading order, a form feed between pages."""
        return "\f".join(page.text(furniture=furniture) for page in self.pages)
