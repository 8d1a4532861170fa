"""Overlay pictures of laid-out pages: what a researcher looks at while writing a profile.

Each page is rendered (`page_png`) and drawn over (Pillow) by a
`PageImage`: every line filled in the colour of its line type, every column
outlined and numbered in reading order (``band.column``), every band outlined,
furniture bands shaded, and a key to the colours in a strip below the page.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from itertools import groupby
from pathlib import Path
from typing import Protocol, Self

from PIL import Image, ImageDraw, ImageFont

from ..config import LayoutConfig, LinetypesConfig
from ..errors import UsageError
from ..linetypes.tables import cells
from ..model import BandKind, BBox, Document, Line, LineType, Page, Table
from .pictures import page_png

__all__ = ["DEFAULT_FILL", "DEFAULT_STROKE", "DEFAULT_STROKE_WIDTH", "LINE_COLOURS", "Boxed",
           "PageImage", "draw_document", "table_regions"]

Colour = tuple[int, int, int] | tuple[int, int, int, int]
"""An RGB or RGBA colour (alpha 0 clear to 255 opaque)."""

DEFAULT_FILL: Colour = (0, 0, 255, 50)
"""What `PageImage.draw_rects` fills with unless told: a light blue, as
pdfplumber's ``PageImage`` does."""
DEFAULT_STROKE: Colour = (255, 0, 0, 200)
"""What `PageImage.draw_rects` outlines with unless told: red."""
DEFAULT_STROKE_WIDTH = 1
"""The width of an outline, in pixels."""


class _HasBox(Protocol):
    @property
    def bbox(self) -> BBox: ...


Boxed = BBox | _HasBox | Sequence[float] | Mapping[str, float]
"""What `PageImage.draw_rect` draws: a `layoutkit.model.BBox`, a value
holding one (a word, line, block, column, band, table or glyph: ``.bbox``), a
sequence ``(x0, top, x1, bottom)`` in points, or a mapping with those keys (a word of
``layoutkit parse --words``, a pdfplumber object)."""

LINE_COLOURS: dict[LineType, tuple[int, int, int]] = {
    LineType.HEADER: (230, 120, 0),
    LineType.FOOTER: (150, 80, 200),
    LineType.BODY: (40, 120, 230),
    LineType.HEADING: (220, 30, 60),
    LineType.LIST_BULLET: (0, 160, 90),
    LineType.LIST_NUMBER: (120, 170, 0),
    LineType.TOC: (0, 170, 190),
    LineType.TABLE: (140, 90, 40),
}
"""Fill colour of each line type, each its own."""

BAND_COLOURS = {BandKind.BODY: (200, 0, 0), BandKind.HEADER: (120, 120, 120),
                BandKind.FOOTER: (120, 120, 120), BandKind.MARGIN: (120, 120, 120)}
_COLUMN_COLOUR = (0, 0, 0)
_ALPHA = 70
_MARGIN = 6
"""Pixels left of the key's rows."""


class PageImage:
    """A page's picture and its layout drawn over it step by step, as pdfplumber's
    ``PageImage``: `draw_lines` (filled in their types' colours),
    `draw_columns` (outlined, numbered ``band.column`` in reading order),
    `draw_bands` (outlined, furniture shaded), `draw_blocks` and
    `draw_words` (outlined), `debug_tablefinder` (the tables and their
    cells); any boxes with `draw_rect` and `draw_rects` (``fill``,
    ``stroke``, ``stroke_width`` as pdfplumber takes them); `save` writes it with
    the key to the colours below, and a notebook shows it (``_repr_png_``).  Every
    method returns the image, so calls chain."""

    def __init__(self, page: Page, picture: Image.Image) -> None:
        self.page = page
        self.original = picture.convert("RGB")
        """The page as rendered."""
        self.annotated = self.original
        """The page with what has been drawn on it so far."""
        self.scale = picture.width / page.width
        """Pixels per point of the page."""
        self.font = ImageFont.load_default(size=max(10, round(9 * self.scale)))

    @classmethod
    def of(cls, page: Page, file: Path, resolution: int) -> PageImage:
        """Page ``page`` of the document at ``file`` rendered at ``resolution`` dpi."""
        return cls(page, page_png(file, page.page_no, resolution)[0])

    def _box(self, b: BBox, pad: float = 0.0) -> tuple[float, float, float, float]:
        return ((b.x0 - pad) * self.scale, (b.top - pad) * self.scale,
                (b.x1 + pad) * self.scale, (b.bottom + pad) * self.scale)

    def _overlay(self, draw: Callable[[ImageDraw.ImageDraw], None]) -> Self:
        """[`annotated`][layoutkit.outputs.draw.PageImage.annotated] with what ``draw`` draws on a
        clear layer laid over it."""
        layer = Image.new("RGBA", self.annotated.size, (0, 0, 0, 0))
        draw(ImageDraw.Draw(layer))
        self.annotated = Image.alpha_composite(self.annotated.convert("RGBA"),
                                               layer).convert("RGB")
        return self

    def draw_lines(self) -> Self:
        """Fill every line in the colour of its type
        ([`LINE_COLOURS`][layoutkit.outputs.draw.LINE_COLOURS])."""
        def draw(pen: ImageDraw.ImageDraw) -> None:
            for line in self.page.lines:
                pen.rectangle(self._box(line.bbox),
                              fill=(*LINE_COLOURS[line.line_type], _ALPHA))
        return self._overlay(draw)

    def draw_bands(self) -> Self:
        """Outline every band, and shade the furniture bands."""
        def draw(pen: ImageDraw.ImageDraw) -> None:
            for band in self.page.bands:
                colour = BAND_COLOURS[band.kind]
                shade = (*colour, 40) if band.kind is not BandKind.BODY else None
                pen.rectangle(self._box(band.bbox, 3), outline=(*colour, 255), fill=shade,
                              width=2)
        return self._overlay(draw)

    def draw_columns(self) -> Self:
        """Outline every column and number it ``band.column`` in reading order."""
        def draw(pen: ImageDraw.ImageDraw) -> None:
            for number, band in enumerate(self.page.bands, 1):
                for column in band.columns:
                    box = self._box(column.bbox, 1.5)
                    pen.rectangle(box, outline=(*_COLUMN_COLOUR, 160), width=1)
                    _label(pen, self.font, f"{number}.{column.index + 1}", box,
                           BAND_COLOURS[band.kind])
        return self._overlay(draw)

    def draw_rect(self, box: Boxed, fill: Colour | None = DEFAULT_FILL,
                  stroke: Colour | None = DEFAULT_STROKE,
                  stroke_width: int = DEFAULT_STROKE_WIDTH) -> Self:
        """Draw one box (`Boxed`, in the page's points), filled with ``fill`` and
        outlined ``stroke_width`` pixels wide in ``stroke`` (None: not filled, not
        outlined)."""
        return self.draw_rects([box], fill, stroke, stroke_width)

    def draw_rects(self, boxes: Iterable[Boxed], fill: Colour | None = DEFAULT_FILL,
                   stroke: Colour | None = DEFAULT_STROKE,
                   stroke_width: int = DEFAULT_STROKE_WIDTH) -> Self:
        """Draw every box of ``boxes`` as `draw_rect` does: ``draw_rects(page.lines)``,
        ``draw_rects(doc.tables)``, ``draw_rects([(72, 72, 300, 100)], fill=None)``.
        Raises UsageError naming a box that is none of `Boxed`."""
        rects = [_box_of(box) for box in boxes]

        def draw(pen: ImageDraw.ImageDraw) -> None:
            for rect in rects:
                pen.rectangle(self._box(rect), fill=_rgba(fill), outline=_rgba(stroke),
                              width=stroke_width if stroke is not None else 0)
        return self._overlay(draw)

    def draw_words(self, fill: Colour | None = (255, 0, 0, 40),
                   stroke: Colour | None = DEFAULT_STROKE,
                   stroke_width: int = DEFAULT_STROKE_WIDTH) -> Self:
        """Outline every word of the page (pdfplumber's ``outline_words``)."""
        return self.draw_rects([word for line in self.page.lines for word in line.words],
                               fill, stroke, stroke_width)

    def draw_blocks(self, fill: Colour | None = None, stroke: Colour | None = (0, 150, 0, 220),
                    stroke_width: int = 2) -> Self:
        """Outline every block of the page (lines of a column with no unusual gap
        between them)."""
        return self.draw_rects([block for band in self.page.bands for column in band.columns
                                for block in column.blocks], fill, stroke, stroke_width)

    def debug_tablefinder(self, config: LayoutConfig | LinetypesConfig | None = None,
                          tables: Iterable[Table] = ()) -> Self:
        """Draw the tables the line typer found on the page, as pdfplumber's
        ``debug_tablefinder`` draws its table finder's: each table outlined in red
        (`table_regions`: the ruled ``tables`` of this page, such as
        ``doc.tables``, and each run of lines typed ``tab`` in a column), and each of
        their rows' cells filled in light blue: the runs of words parted by gaps wider
        than ``table_min_gap_em`` (of ``config``, default the defaults'), the cells
        the typer found the rows by (`layoutkit.linetypes.tables.cells`)."""
        settings = _linetypes(config)
        regions = table_regions(self.page, tables)
        rows = [line for line in self.page.lines if line.line_type is LineType.TABLE]
        found = [BBox(x0, line.bbox.top, x1, line.bbox.bottom) for line in rows
                 for x0, x1 in cells(line, settings.table_min_gap_em)]
        return (self.draw_rects(found, fill=(80, 160, 255, 70), stroke=(0, 90, 200, 160))
                .draw_rects(regions, fill=None, stroke=(230, 0, 0, 230), stroke_width=2))

    def reset(self) -> Self:
        """Take back everything drawn."""
        self.annotated = self.original
        return self

    def keyed(self) -> Image.Image:
        """[`annotated`][layoutkit.outputs.draw.PageImage.annotated] with the key to the colours in
        a strip below it."""
        return _with_legend(self.annotated, self.font)

    def save(self, path: str | Path, format: str | None = None) -> None:
        """Write [`keyed`][layoutkit.outputs.draw.PageImage.keyed] to ``path`` in ``format``
        (default: the one its name ends in: ``.png``, ``.jpg``...)."""
        self.keyed().save(path, format)

    def _repr_png_(self) -> bytes:
        """The picture a notebook (Jupyter) shows."""
        out = io.BytesIO()
        self.keyed().save(out, "PNG")
        return out.getvalue()


def table_regions(page: Page, tables: Iterable[Table] = ()) -> list[BBox]:
    """The boxes of the tables found on ``page``: those of the ruled ``tables`` on it (of
    any pages: a document's ``tables``), then each run of consecutive lines typed ``tab``
    in one column (a ruled table's lines lie inside its box and add none)."""
    ruled = [table.bbox for table in tables if table.page_no == page.page_no]
    runs = []
    for (_, _, is_table), group in groupby(page.lines, key=lambda line: (
            line.band, line.column, line.line_type is LineType.TABLE)):
        lines: list[Line] = list(group)
        box = BBox.union(line.bbox for line in lines)
        if is_table and not any(r.contains_centre_of(box) for r in ruled):
            runs.append(box)
    return ruled + runs


def _linetypes(config: LayoutConfig | LinetypesConfig | None) -> LinetypesConfig:
    """The line types' section of ``config`` (the defaults for None)."""
    if isinstance(config, LayoutConfig):
        return config.linetypes
    return config if isinstance(config, LinetypesConfig) else LinetypesConfig()


def _box_of(box: Boxed) -> BBox:
    """``box`` (any of `Boxed`) as a BBox; raises UsageError for anything else."""
    if isinstance(box, BBox):
        return box
    inner = getattr(box, "bbox", None)
    if isinstance(inner, BBox):
        return inner
    try:
        if isinstance(box, Mapping):
            return BBox(float(box["x0"]), float(box["top"]), float(box["x1"]),
                        float(box["bottom"]))
        x0, top, x1, bottom = box  # type: ignore[misc]
        return BBox(float(x0), float(top), float(x1), float(bottom))
    except (KeyError, TypeError, ValueError):
        raise UsageError(f"cannot draw {box!r:.80}: expected a BBox, a value with a bbox, "
                         "(x0, top, x1, bottom) or a mapping with those keys") from None


def _rgba(colour: Colour | None) -> tuple[int, int, int, int] | None:
    """``colour`` with its alpha (opaque where it has none)."""
    if colour is None:
        return None
    return (colour[0], colour[1], colour[2], colour[3] if len(colour) == 4 else 255)


def _label(pen: ImageDraw.ImageDraw, font: ImageFont.ImageFont | ImageFont.FreeTypeFont,
           label: str, column: tuple[float, float, float, float],
           colour: tuple[int, int, int]) -> None:
    """A column's number set outside its top left corner, in the gap above it (inside
    the corner only at the top of the picture), on a ground that lets text show
    through."""
    x0, top = column[0], column[1]
    height = pen.textbbox((0, 0), label, font=font)[3]
    at = (x0, top - height - 1 if top - height - 1 >= 0 else top)
    pen.rectangle(pen.textbbox(at, label, font=font), fill=(255, 255, 255, 120))
    pen.text(at, label, fill=(*colour, 255), font=font)


def _with_legend(image: Image.Image,
                 font: ImageFont.ImageFont | ImageFont.FreeTypeFont) -> Image.Image:
    """``image`` with a strip below it naming each colour: every line type (by name
    and code), the bands and the furniture bands."""
    entries = [(f"{kind.name.lower().replace('_', ' ')} ({kind.value})", colour)
               for kind, colour in LINE_COLOURS.items()]
    entries += [("band (number.column in reading order)", BAND_COLOURS[BandKind.BODY]),
                ("furniture band", BAND_COLOURS[BandKind.HEADER])]
    pen = ImageDraw.Draw(image)
    step = round(pen.textbbox((0, 0), "Mg", font=font)[3]) + 4
    places, x, row = [], _MARGIN, 0
    for text, _ in entries:  # left to right, on as many rows as they need
        width = round(pen.textbbox((0, 0), text, font=font)[2]) + step + 16
        if x + width > image.width and x > _MARGIN:
            x, row = _MARGIN, row + 1
        places.append((x, image.height + 4 + row * step))
        x += width
    out = Image.new("RGB", (image.width, image.height + (row + 1) * step + 8), "white")
    out.paste(image, (0, 0))
    pen = ImageDraw.Draw(out)
    for (text, colour), (x, y) in zip(entries, places, strict=True):
        pen.rectangle((x, y + 2, x + step - 4, y + step - 2), fill=colour)
        pen.text((x + step + 2, y), text, fill=(0, 0, 0), font=font)
    return out


def draw_document(document: Document, folder: Path, *, dpi: int = 100) -> Iterator[Path]:
    """Write ``<stem>-page-NNN.png`` in ``folder`` for every page of ``document``; yields
    each file written."""
    folder.mkdir(parents=True, exist_ok=True)
    for page in document:
        target = folder / f"{document.path.stem}-page-{page.page_no:03d}.png"
        PageImage.of(page, document.file, dpi).draw_lines().draw_bands().draw_columns() \
            .save(target)
        yield target
