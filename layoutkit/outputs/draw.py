"""Overlay pictures of laid-out pages: what a researcher looks at while writing a profile.

Each page is rendered (`page_png`) and drawn over (Pillow) by a
`PageImage`: every line filled in the colour of its line type, every column
outlined and numbered in reading order (``band.column``), every band outlined,
furniture bands shaded, and a key to the colours in a strip below the page.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Self

from PIL import Image, ImageDraw, ImageFont

from ..model import BandKind, BBox, Document, LineType, Page
from .pictures import page_png

__all__ = ["LINE_COLOURS", "PageImage", "draw_document"]

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
    ``PageImage``: [`draw_lines`][layoutkit.outputs.draw.PageImage.draw_lines] (filled in their
    types' colours), [`draw_columns`][layoutkit.outputs.draw.PageImage.draw_columns] (outlined,
    numbered ``band.column`` in reading order),
    [`draw_bands`][layoutkit.outputs.draw.PageImage.draw_bands] (outlined, furniture shaded);
    [`save`][layoutkit.outputs.draw.PageImage.save] writes it with the key to the colours below, and
    a notebook shows it (``_repr_png_``)."""

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
