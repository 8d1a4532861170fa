"""The layout tree: words, lines, blocks, columns, bands and pages in reading order.

Also a page's OCR quality, the ruled tables and the parsed document.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from enum import StrEnum
from itertools import accumulate, chain, islice
from pathlib import Path
from typing import Any, Protocol, TypeVar

import numpy as np
import numpy.typing as npt

from ..errors import PageNotParsedError, UsageError
from .geometry import BBox
from .outline import OutlineEntry
from .value import Value, from_columns, gist
from .weight import is_bold

__all__ = ["Band", "BandKind", "Block", "Column", "Document", "Line", "LineType", "OcrQuality",
           "Page", "PageDrawing", "Table", "Word", "draw_pages_with", "rebuilt_bands",
           "tables_by_page"]


RAISE = 0.3
"""How far above the foot of the word beside it, in its own size, a superscript's foot
stands at least: superscript figures are raised by a third of their size or more; a
table's figures set smaller, or an OCR layer's words of uneven sizes, stand lower."""


@dataclass(frozen=True, slots=True)
class Word(Value):
    """Glyphs on one baseline with no word gap between them."""

    text: str
    bbox: BBox
    font: str
    size: float
    direction: int = 0
    """The direction its baseline runs in ([`direction`][layoutkit.model.Glyph.direction])."""
    stream: int = field(default=0, compare=False)
    """The word's place in its page's content stream: the index of its first glyph
    drawn (OCR: the place tesseract reads it in).  The order a producer drew the
    text in is evidence of its reading order (see `layoutkit.geometry.grid`);
    words are equal whatever order they were drawn in."""
    weight: int = 0
    """Its font's weight ([`weight`][layoutkit.model.Glyph.weight]; 0: the source read
    none, the font's name says)."""
    link: str = ""
    """The web or mail address (``http``, ``https`` or ``mailto``) of the link annotation
    the word stands in ([`Link`][layoutkit.model.Link]); empty for a word that links
    nowhere."""

    @property
    def upright(self) -> bool:
        """Whether the word is set upright (its baseline runs rightwards)."""
        return self.direction == 0

    def raised_beside(self, other: Word) -> bool:
        """Whether the word is set as a superscript beside ``other`` (a note's call, an
        exponent): upright as it is, smaller, its middle above ``other``'s and its foot
        by `RAISE` of its own size or more, and below ``other``'s top (on its line).  A
        word set smaller on the baseline (a unit, small capitals) has its middle lower,
        and one hung from a word with a subscript stands no higher than the word."""
        mine, theirs = self.bbox, other.bbox
        return (self.upright and other.upright and other.size > self.size
                and mine.top + mine.bottom < theirs.top + theirs.bottom
                and theirs.bottom - mine.bottom > RAISE * self.size
                and mine.bottom > theirs.top)

    @property
    def bold(self) -> bool:
        """Whether the word is set bold: by its font's weight, or where the source read
        none (OCR, words made by hand) by the font's name ([`is_bold`][layoutkit.model.is_bold])."""
        return is_bold(self.weight, self.font)


class LineType(StrEnum):
    """What a line is, with DCR's short codes (a heading's code adds its level:
    ``h_1``, ``h_2``...; see [`Line.code`][layoutkit.model.layout.Line.code])."""

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
class Line(Value):
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

    def __repr__(self) -> str:
        """The line in one short line: its text's beginning, page, place (band,
        column, block), type, number of words and box."""
        return (f"<Line {gist(self.text)} page {self.page_no}, band {self.band}, "
                f"column {self.column}, block {self.block}, {self.code}, "
                f"{_count(len(self.words), 'word')} at {_box(self.bbox)}>")

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
        return _prevailing([w.size for w in self.words], self.words, 0.0)

    @property
    def weight(self) -> int:
        """The font weight most of the line's characters use (0: read for none)."""
        return _prevailing([w.weight for w in self.words], self.words, 0)

    @property
    def fonts(self) -> tuple[str, ...]:
        """The distinct font names of the line, in order of first use."""
        return tuple(dict.fromkeys(w.font for w in self.words))


_T = TypeVar("_T", float, int)


def _prevailing(values: list[_T], words: tuple[Word, ...], none: _T) -> _T:
    """Of ``values``, one for each of ``words``, the one most of their characters have
    (``none`` for no words)."""
    if len(set(values)) == 1:  # most lines are set in one size and weight
        return values[0]
    counts: dict[_T, int] = {}
    for value, word in zip(values, words, strict=True):
        counts[value] = counts.get(value, 0) + len(word.text)
    return max(counts, key=counts.__getitem__) if counts else none


@dataclass(frozen=True, slots=True)
class Block(Value):
    """Consecutive lines of one column with no unusual gap between them."""

    lines: tuple[Line, ...]
    bbox: BBox

    def __repr__(self) -> str:
        """The block in one short line: its lines, words, box and its text's beginning."""
        return (f"<Block {_count(len(self.lines), 'line')}, "
                f"{_count(sum(len(x.words) for x in self.lines), 'word')} at "
                f"{_box(self.bbox)}: {gist(_text(self.lines))}>")


@dataclass(frozen=True, slots=True)
class Column(Value):
    """One column of a band, its blocks top to bottom."""

    index: int
    bbox: BBox
    blocks: tuple[Block, ...]

    def __repr__(self) -> str:
        """The column in one short line: its index, blocks, lines, box and its text's
        beginning."""
        lines = self.lines
        return (f"<Column {self.index}: {_count(len(self.blocks), 'block')}, "
                f"{_count(len(lines), 'line')} at {_box(self.bbox)}: {gist(_text(lines))}>")

    @property
    def lines(self) -> tuple[Line, ...]:
        """The column's lines, block by block."""
        return tuple(chain.from_iterable(block.lines for block in self.blocks))


@dataclass(frozen=True, slots=True)
class Band(Value):
    """A horizontal slab of a page with one column layout; columns left to right."""

    index: int
    kind: BandKind
    bbox: BBox
    columns: tuple[Column, ...]

    def __repr__(self) -> str:
        """The band in one short line: its index, kind, columns, lines, box and its
        text's beginning."""
        lines = self.lines
        return (f"<Band {self.index} {self.kind.value}: {_count(len(self.columns), 'column')}, "
                f"{_count(len(lines), 'line')} at {_box(self.bbox)}: {gist(_text(lines))}>")

    @property
    def lines(self) -> tuple[Line, ...]:
        """The band's lines in reading order, column by column."""
        return tuple(chain.from_iterable(column.lines for column in self.columns))


@dataclass(frozen=True, slots=True)
class Page(Value):
    """A page laid out: bands in reading order, header band first, footer band last."""

    page_no: int
    width: float
    height: float
    bands: tuple[Band, ...]
    label: str = ""
    """The page's number as the document prints it, from the PDF's page labels
    (``/PageLabels``: ``iii`` for the third page of a front matter numbered in Roman
    numerals, ``1`` where the text begins); empty when the document has none."""
    unreadable: str = ""
    """Why the page was left unread, with no lines (it draws more content than
    ``page_max_content_bytes``, or took more than ``page_max_seconds``...); empty for a
    page that was read."""
    file: Path | None = field(default=None, compare=False)
    """The file the page was read from (`Document.file`), to draw it on
    (`to_image`); None for a page made otherwise (by hand, or stored by an
    earlier version).  Pages are equal wherever they were read from."""

    def to_image(self, resolution: int = 72) -> Any:
        """The page rendered at ``resolution`` dpi from `file`, a
        `layoutkit.outputs.draw.PageImage` to draw its layout on
        (``.draw_lines()``, ``.draw_columns()``, ``.draw_bands()``, ``.draw_words()``...)
        and ``.save()``; a notebook shows it.  Raises UsageError for a resolution out of
        10 to 600, or for a page that names no file it was read from."""
        if self.file is None:
            raise UsageError(f"page {self.page_no}: no file to draw it from (it was not "
                             "read by layoutkit.parse); TextDocument(...).page(n).to_image() "
                             "draws a stored document's page from its PDF")
        if not _DRAWINGS:
            raise UsageError("no page drawing is registered: import layoutkit first")
        return _DRAWINGS[0](self, self.file, resolution)

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

    def __repr__(self) -> str:
        """The page in one short line (a page holds thousands of words and boxes): its
        number (and label), size, how many bands, columns, blocks, lines and words it
        holds, and the beginning of its text (`text`; or why it was left unread)."""
        columns = [column for band in self.bands for column in band.columns]
        blocks = [block for column in columns for block in column.blocks]
        lines = self.lines
        label = f" ({self.label!r})" if self.label else ""
        held = (f"unreadable: {self.unreadable}" if self.unreadable else
                f"{_count(len(self.bands), 'band')}, {_count(len(columns), 'column')}, "
                f"{_count(len(blocks), 'block')}, {_count(len(lines), 'line')}, "
                f"{_count(sum(len(x.words) for x in lines), 'word')}: "
                f"{gist(self.text())}")
        return f"<Page {self.page_no}{label} {self.width:g}x{self.height:g}: {held}>"

    def __reduce__(self) -> tuple[Callable[..., object], tuple[object, ...]]:
        """The page pickled as columns (`_page_columns`): a laid-out page holds
        thousands of words, and arrays of their numbers pickle in a fraction of the time
        a constructor call per word and box takes."""
        return _page_of_columns, _page_columns(self)


class PageDrawing(Protocol):
    """How a page is drawn (`Page.to_image`): rendered from ``file`` at
    ``resolution`` dpi, ready to draw its layout on."""

    def __call__(self, page: Page, file: Path, resolution: int) -> Any: ...


_DRAWINGS: list[PageDrawing] = []
"""The page drawing registered (`draw_pages_with`)."""


def draw_pages_with(drawing: PageDrawing) -> None:
    """Make ``drawing`` what `Page.to_image` calls.  The picture is drawn by the
    outputs, a later stage than the model, which it may not import; the pipeline
    registers it (`layoutkit.pipeline`), so a page gives the same picture as
    `layoutkit.TextPage.to_image` through the same code."""
    _DRAWINGS[:] = [drawing]


def _page_columns(page: Page) -> tuple[object, ...]:
    """What `_page_of_columns` rebuilds ``page`` from: its size and label, the
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
    links: dict[str, int] = {"": 0}
    link_indexes = [links.setdefault(w.link, len(links)) for w in words]
    return (page.page_no, page.width, page.height, page.label, page.unreadable, page.file,
            tuple(bands),
            tuple(columns),
            tuple(blocks), tuple(x.text for x in lines), tuple(x.line_type for x in lines),
            np.array([(x.bbox.x0, x.bbox.top, x.bbox.x1, x.bbox.bottom) for x in lines],
                     dtype=np.float64).reshape(len(lines), 4),
            np.array([(len(x.words), x.page_no, x.band, x.column, x.block, x.level)
                      for x in lines], dtype=np.int64).reshape(len(lines), 6),
            tuple(w.text for w in words), tuple(fonts), np.array(font_indexes, dtype=np.int64),
            np.array([(w.bbox.x0, w.bbox.top, w.bbox.x1, w.bbox.bottom, w.size, w.stream)
                      for w in words], dtype=np.float64).reshape(len(words), 6),
            np.array([(w.direction, w.weight) for w in words],
                     dtype=np.int16).reshape(len(words), 2),
            tuple(links), np.array(link_indexes, dtype=np.int64))


def _page_of_columns(page_no: int, width: float, height: float, label: str, unreadable: str,
                     file: Path | None,
                     bands: tuple[tuple[int, BandKind, BBox, int], ...],
                     columns: tuple[tuple[int, BBox, int], ...],
                     blocks: tuple[tuple[BBox, int], ...],
                     line_texts: tuple[str, ...], line_types: tuple[LineType, ...],
                     line_boxes: npt.NDArray[np.float64], line_numbers: npt.NDArray[np.int64],
                     word_texts: tuple[str, ...], fonts: tuple[str, ...],
                     font_indexes: npt.NDArray[np.int64], word_numbers: npt.NDArray[np.float64],
                     word_kinds: npt.NDArray[np.int16], links: tuple[str, ...],
                     link_indexes: npt.NDArray[np.int64]) -> Page:
    """The page `_page_columns` took apart."""
    x0, top, x1, bottom, size = word_numbers[:, :5].T.tolist()
    words = from_columns(Word, len(word_texts), word_texts,
                         from_columns(BBox, len(x0), x0, top, x1, bottom),
                         map(fonts.__getitem__, font_indexes.tolist()), size,
                         word_kinds[:, 0].tolist(), word_numbers[:, 5].astype(np.int64).tolist(),
                         word_kinds[:, 1].tolist(), map(links.__getitem__, link_indexes.tolist()))
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
        for index, kind, box, count in bands), label, unreadable, file)


@dataclass(frozen=True, slots=True)
class OcrQuality(Value):
    """How well a scanned page was read: ``words`` counts the words it kept, from
    ``source``: ``"tesseract"``, or ``"text layer"`` when the scan's own OCR layer read
    better than tesseract (None: neither, OCR failed on a page without a layer).
    ``confidence`` is tesseract's mean word confidence (0-1; 0.0 when tesseract did not
    run), ``dictionary`` the share of its words found in the language's word list
    (None when no word list is installed for the language, or tesseract did not run),
    ``error`` why the page could not be OCR'd (its words are then those of its text
    layer, if any).  ``layer`` and ``tesseract`` are the read shares that chose the
    source (`layoutkit.sources.ocr.quality.read_share`), None for a reading that
    did not exist (no layer) or was not made (tesseract not run: the layer read so well
    that it could not lose).  ``language`` is the languages the page was read and judged
    in (tesseract codes joined by ``+``), ``word_list`` the word lists that judged it
    (None: none installed for the language, its score tesseract's confidence alone).
    ``advice`` says what would read the page better, with its warning: the pack of a
    script tesseract's detection names and no installed pack reads (not kept in JSON;
    ``why`` carries it).
    ``done`` says whether tesseract read the page, ``why`` why it did or did not, in
    words (``"layer reads (0.93 of its words in the eng word list)"``)."""

    page_no: int
    words: int
    confidence: float
    dictionary: float | None
    error: str | None = None
    source: str | None = "tesseract"
    layer: float | None = None
    tesseract: float | None = None
    language: str | None = None
    word_list: str | None = None
    done: bool = True
    why: str | None = None
    advice: str | None = None

    @property
    def score(self) -> float:
        """One number from 0 to 1: for tesseract's words the mean of confidence and
        dictionary share, for a kept text layer its read share."""
        if self.source == "text layer" and self.layer is not None:
            return self.layer
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
class Table(Value):
    """A ruled table: its page, box and cells row by row (None for a merged cell)."""

    page_no: int
    bbox: BBox
    rows: tuple[tuple[str | None, ...], ...]

    def __repr__(self) -> str:
        """The table in one short line: its page, box, rows and columns, and the
        beginning of its first row."""
        width = max(map(len, self.rows), default=0)
        first = " | ".join(cell or "" for cell in self.rows[0]) if self.rows else ""
        return (f"<Table page {self.page_no} at {_box(self.bbox)}: "
                f"{_count(len(self.rows), 'row')} x {_count(width, 'column')}: {gist(first)}>")


def tables_by_page(tables: Iterable[Table]) -> dict[int, list[Table]]:
    """The ruled ``tables`` by page number, each page's in their order."""
    found: dict[int, list[Table]] = {}
    for table in tables:
        found.setdefault(table.page_no, []).append(table)
    return found


@dataclass(frozen=True, slots=True, weakref_slot=True)
class Document(Value):
    """A parsed document: its pages in order (and the ruled tables found on them),
    the quality of its OCR'd pages, and its outline.

    ``path`` names the document (``<bytes>``, ``<stdin>`` when it was given so);
    ``source`` is the temporary file its pages were read from when that is not
    ``path`` (bytes, standard input or a decrypted copy), kept for drawing them
    until [`close`][layoutkit.model.layout.Document.close] (or a ``with`` block's end, or the
    document's collection)."""

    path: Path
    pages: tuple[Page, ...]
    page_count: int
    tables: tuple[Table, ...] = ()
    ocr: tuple[OcrQuality, ...] = ()
    outline: tuple[OutlineEntry, ...] = ()
    """The PDF's outline (its bookmarks), every entry of it whichever pages were
    parsed; empty when it has none, or when the lines were not typed."""
    source: Path | None = field(default=None, compare=False)

    @property
    def unreadable(self) -> dict[int, str]:
        """Why each page left unread was (by page number): the document was read in
        part when there are any."""
        return {page.page_no: page.unreadable for page in self.pages if page.unreadable}

    @property
    def file(self) -> Path:
        """The file the pages are read from: ``source`` or ``path``."""
        return self.source or self.path

    def close(self) -> None:
        """Delete the temporary copy the document was read from, if any."""
        if self.source is not None:
            self.source.unlink(missing_ok=True)

    def __enter__(self) -> Document:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        """The document in one short line: its name and how many pages were parsed."""
        return f"<Document {str(self.path)!r} {_count(len(self.pages), 'page')}>"

    def page(self, page_no: int) -> Page:
        """The page numbered ``page_no`` (1-based, as in the PDF), where ``doc[i]`` is
        the i-th page parsed.

        Raises `layoutkit.errors.PageNotParsedError` (a KeyError too) naming the
        page asked for and the pages parsed when it is not one of them."""
        for page in self.pages:
            if page.page_no == page_no:
                return page
        numbers = [page.page_no for page in self.pages]
        raise PageNotParsedError(f"{self.path}: page {page_no} was not parsed; pages parsed: "
                                 f"{_ranges(numbers) or 'none'}")

    @property
    def scanned(self) -> tuple[bool, float | None]:
        """Whether any page was read by OCR, and the OCR quality of the document
        ([`OcrQuality.combined`][layoutkit.model.layout.OcrQuality.combined])."""
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


def _count(n: int, thing: str) -> str:
    """``1 line``, ``1,204 lines``."""
    return f"{n:,} {thing}{'' if n == 1 else 's'}"


def _box(box: BBox) -> str:
    """A box as ``(x0, top, x1, bottom)`` to a tenth of a point."""
    return f"({', '.join(f'{v:g}' for v in box.as_list(1))})"


def _text(lines: Iterable[Line]) -> str:
    """The text of ``lines``, a line each."""
    return "\n".join(line.text for line in lines)


def _ranges(numbers: Iterable[int]) -> str:
    """``1-3,7``: ascending page numbers written as ranges."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ",".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)


def rebuilt_bands(page: Page, change: Callable[[Line], Line],
                  empty: Callable[[BBox], BBox] = lambda box: box) -> tuple[Band, ...]:
    """The bands of ``page`` with each line made ``change(line)`` and each block's,
    column's and band's box the box of what it then holds (a band with no columns: its
    box made ``empty(box)``): a laid-out page's lines moved into another frame."""
    bands = []
    for band in page.bands:
        columns = []
        for column in band.columns:
            blocks = []
            for block in column.blocks:
                lines = tuple(map(change, block.lines))
                blocks.append(replace(block, lines=lines,
                                      bbox=BBox.union(line.bbox for line in lines)))
            columns.append(replace(column, blocks=tuple(blocks),
                                   bbox=BBox.union(block.bbox for block in blocks)))
        bands.append(replace(band, columns=tuple(columns),
                             bbox=BBox.union(c.bbox for c in columns) if columns
                             else empty(band.bbox)))
    return tuple(bands)
