"""Overlay pictures of laid-out pages: what a researcher looks at while writing a profile.

Each page is rendered (:func:`~.pictures.page_png`) and drawn over (Pillow): every line filled in
the colour of its line type, every column outlined and numbered in reading order
(``band.column``), every band outlined, furniture bands shaded, and a legend.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from ..errors import DocumentError
from ..model import BandKind, BBox, Document, LineType, Page
from .pictures import page_png

__all__ = ["LINE_COLOURS", "draw_document", "draw_page"]

LINE_COLOURS: dict[str, tuple[int, int, int]] = {
    LineType.HEADER: (230, 120, 0),
    LineType.FOOTER: (150, 80, 200),
    LineType.BODY: (40, 120, 230),
}
"""Fill colour of each line type; a type missing here is drawn in :data:`OTHER_COLOUR`."""

OTHER_COLOUR = (0, 160, 90)
BAND_COLOURS = {BandKind.BODY: (200, 0, 0), BandKind.HEADER: (120, 120, 120),
                BandKind.FOOTER: (120, 120, 120), BandKind.MARGIN: (120, 120, 120)}
_COLUMN_COLOUR = (0, 0, 0)
_ALPHA = 70


def draw_page(image: Image.Image, page: Page) -> Image.Image:
    """``image`` (the page rendered at any scale) with ``page``'s layout drawn over it."""
    scale = image.width / page.width
    base = image.convert("RGBA")
    layer = Image.new("RGBA", base.size, (0, 0, 0, 0))
    pen = ImageDraw.Draw(layer)
    font = ImageFont.load_default(size=max(10, round(9 * scale)))

    def box(b: BBox, pad: float = 0.0) -> tuple[float, float, float, float]:
        return ((b.x0 - pad) * scale, (b.top - pad) * scale, (b.x1 + pad) * scale,
                (b.bottom + pad) * scale)

    for line in page.lines:
        colour = LINE_COLOURS.get(line.line_type, OTHER_COLOUR)
        pen.rectangle(box(line.bbox), fill=(*colour, _ALPHA))
    for number, band in enumerate(page.bands, 1):
        colour = BAND_COLOURS[band.kind]
        shade = (*colour, 40) if band.kind is not BandKind.BODY else None
        pen.rectangle(box(band.bbox, 3), outline=(*colour, 255), fill=shade, width=2)
        for column in band.columns:
            pen.rectangle(box(column.bbox, 1.5), outline=(*_COLUMN_COLOUR, 160), width=1)
            x0, top, _, _ = box(column.bbox, 1.5)
            label = f"{number}.{column.index + 1}"
            pen.rectangle(pen.textbbox((x0, top), label, font=font), fill=(255, 255, 255, 220))
            pen.text((x0, top), label, fill=(*colour, 255), font=font)
    _legend(pen, font, base.size)
    return Image.alpha_composite(base, layer).convert("RGB")


def _legend(pen: ImageDraw.ImageDraw, font: ImageFont.ImageFont | ImageFont.FreeTypeFont,
            size: tuple[int, int]) -> None:
    """The key to the colours, in the bottom right corner (page margins are widest
    there, the running header stays visible)."""
    entries = [(f"line: {kind}", colour) for kind, colour in LINE_COLOURS.items()]
    entries += [("band (number.column in reading order)", BAND_COLOURS[BandKind.BODY]),
                ("furniture band", BAND_COLOURS[BandKind.HEADER])]
    step = pen.textbbox((0, 0), "Mg", font=font)[3] + 4
    wide = max(pen.textbbox((0, 0), text, font=font)[2] for text, _ in entries) + step + 12
    tall = step * len(entries) + 8
    x, y = size[0] - wide - 6, size[1] - tall - 6
    pen.rectangle((x, y, x + wide, y + tall), fill=(255, 255, 255, 230),
                  outline=(0, 0, 0, 255))
    for k, (text, colour) in enumerate(entries):
        top = y + 4 + k * step
        pen.rectangle((x + 4, top + 2, x + step, top + step - 2), fill=(*colour, 255))
        pen.text((x + step + 8, top), text, fill=(0, 0, 0, 255), font=font)


def draw_document(document: Document, folder: Path, *, dpi: int = 100) -> Iterator[Path]:
    """Write ``<stem>-page-NNN.png`` in ``folder`` for every page of ``document``; yields
    each file written."""
    if dpi < 10 or dpi > 600:
        raise DocumentError(f"draw: dpi {dpi}: expected 10 to 600")
    folder.mkdir(parents=True, exist_ok=True)
    for page in document:
        picture, _ = page_png(document.path, page.page_no, dpi)
        target = folder / f"{document.path.stem}-page-{page.page_no:03d}.png"
        draw_page(picture, page).save(target)
        yield target
