"""Overlay pictures of laid-out pages: what a researcher looks at while writing a profile.

Each page is rendered (:func:`~.pictures.page_png`) and drawn over (Pillow): every line filled in
the colour of its line type, every column outlined and numbered in reading order
(``band.column``), every band outlined, furniture bands shaded, and a key to the
colours in a strip below the page.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from ..errors import UsageError
from ..model import BandKind, BBox, Document, LineType, Page
from . import DPI_RANGE
from .pictures import page_png

__all__ = ["LINE_COLOURS", "draw_document", "draw_page"]

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


def draw_page(image: Image.Image, page: Page) -> Image.Image:
    """``image`` (the page rendered at any scale) with ``page``'s layout drawn over it,
    and a strip below it with the key to the colours (so the key hides no text)."""
    scale = image.width / page.width
    base = image.convert("RGBA")
    layer = Image.new("RGBA", base.size, (0, 0, 0, 0))
    pen = ImageDraw.Draw(layer)
    font = ImageFont.load_default(size=max(10, round(9 * scale)))

    def box(b: BBox, pad: float = 0.0) -> tuple[float, float, float, float]:
        return ((b.x0 - pad) * scale, (b.top - pad) * scale, (b.x1 + pad) * scale,
                (b.bottom + pad) * scale)

    for line in page.lines:
        pen.rectangle(box(line.bbox), fill=(*LINE_COLOURS[line.line_type], _ALPHA))
    for number, band in enumerate(page.bands, 1):
        colour = BAND_COLOURS[band.kind]
        shade = (*colour, 40) if band.kind is not BandKind.BODY else None
        pen.rectangle(box(band.bbox, 3), outline=(*colour, 255), fill=shade, width=2)
        for column in band.columns:
            pen.rectangle(box(column.bbox, 1.5), outline=(*_COLUMN_COLOUR, 160), width=1)
            _label(pen, font, f"{number}.{column.index + 1}", box(column.bbox, 1.5), colour)
    drawn = Image.alpha_composite(base, layer).convert("RGB")
    return _with_legend(drawn, font)


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
    if not DPI_RANGE[0] <= dpi <= DPI_RANGE[1]:
        raise UsageError(f"draw: dpi {dpi}: expected {DPI_RANGE[0]} to {DPI_RANGE[1]}")
    folder.mkdir(parents=True, exist_ok=True)
    for page in document:
        picture, _ = page_png(document.file, page.page_no, dpi)
        target = folder / f"{document.path.stem}-page-{page.page_no:03d}.png"
        draw_page(picture, page).save(target)
        yield target
