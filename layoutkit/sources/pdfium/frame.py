"""Where a page's user space stands on the displayed page.

That is its crop box, its `/Rotate`, and the matrix that takes user space to top-left
displayed points.
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass
from typing import Any

from ...model import BBox
from ..base import Rect, visible_rect
from .bindings import pdfium_c

__all__ = ["IDENTITY", "Frame", "Matrix"]

Matrix = tuple[float, float, float, float, float, float]
"""An affine transformation ``(a, b, c, d, e, f)``: x' = a x + c y + e, y' = b x + d y + f."""

IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


@dataclass(frozen=True, slots=True)
class Frame:
    """How PDF user space maps onto the displayed page.

    ``visible`` is the crop box in user space; ``rotate`` the page's ``/Rotate``
    (0, 90, 180 or 270: the viewer turns the page that far clockwise); ``display``
    the matrix from user space to displayed points, measured from the top-left corner
    of the turned crop box with y growing downwards.
    """

    visible: Rect
    rotate: int
    display: Matrix

    @staticmethod
    def of(page: Any) -> Frame:
        """The frame of a PDFium page: its crop box (clipped as pdfminer's engine
        clips it) and rotation (which PDFium inherits from the page tree)."""
        visible = _visible_box(page)
        rotate = 90 * int(pdfium_c.FPDFPage_GetRotation(page))
        x0, y0, x1, y1 = visible
        display: Matrix = {
            90: (0.0, 1.0, 1.0, 0.0, -y0, -x0),
            180: (-1.0, 0.0, 0.0, 1.0, x1, -y0),
            270: (0.0, -1.0, -1.0, 0.0, y1, x1),
        }.get(rotate, (1.0, 0.0, 0.0, -1.0, -x0, y1))
        return Frame(visible, rotate, display)

    @property
    def size(self) -> tuple[float, float]:
        """The displayed width and height: the crop box's, swapped on a quarter turn."""
        x0, y0, x1, y1 = self.visible
        if self.rotate in (90, 270):
            return y1 - y0, x1 - x0
        return x1 - x0, y1 - y0

    def box(self, x0: float, y0: float, x1: float, y1: float) -> BBox:
        """The displayed box of the user-space rectangle (x0, y0)-(x1, y1)."""
        a, b, c, d, e, f = self.display
        u0, v0 = a * x0 + c * y0 + e, b * x0 + d * y0 + f
        u1, v1 = a * x1 + c * y1 + e, b * x1 + d * y1 + f
        return BBox(min(u0, u1), min(v0, v1), max(u0, u1), max(v0, v1))

    def point(self, x: float, y: float) -> tuple[float, float]:
        """The displayed point of the user-space point (x, y)."""
        a, b, c, d, e, f = self.display
        return a * x + c * y + e, b * x + d * y + f

    def shows(self, x0: float, y0: float, x1: float, y1: float) -> bool:
        """Whether the centre of the user-space rectangle lies on the visible page
        (pdfminer's engine keeps a glyph, rule or image on the same test)."""
        vx0, vy0, vx1, vy1 = self.visible
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        return vx0 <= cx <= vx1 and vy0 <= cy <= vy1


LETTER: Rect = (0.0, 0.0, 612.0, 792.0)
"""The media box of a page that has none (or an empty one), for PDFium and pdfminer."""


def _visible_box(page: Any) -> Rect:
    """The visible part of a page in user space, ``/MediaBox`` and ``/CropBox``
    inherited from the page tree as the PDF reference says.

    ``FPDFPage_GetMediaBox`` and ``FPDFPage_GetCropBox`` read the page's own dictionary
    only: a page that inherits its media box from a ``/Pages`` node (as many producers
    write every page of a document) has none there, and was read as US Letter, every
    glyph measured from the wrong top edge.  PDFium's page bounding box is the
    inherited crop box clipped to the inherited media box (the whole media box without
    a crop box, US Letter without a media box), which is what `visible_rect`
    gives.  Only where that clipping leaves nothing (a crop box off the media box)
    does PDFium give an empty box while `visible_rect` shows the media box: the
    page's own boxes decide then."""
    bounds = pdfium_c.FS_RECTF()
    if pdfium_c.FPDF_GetPageBoundingBox(page, bounds):
        xs = sorted((bounds.left, bounds.right))
        ys = sorted((bounds.bottom, bounds.top))
        if xs[1] > xs[0] and ys[1] > ys[0]:
            return xs[0], ys[0], xs[1], ys[1]
    media = _page_box(pdfium_c.FPDFPage_GetMediaBox, page) or LETTER
    return visible_rect(media, _page_box(pdfium_c.FPDFPage_GetCropBox, page))


def _page_box(getter: Any, page: Any) -> Rect | None:
    """A page box (media or crop) in user space, normalised; None when the page has none."""
    left, bottom, right, top = (ctypes.c_float() for _ in range(4))
    if not getter(page, left, bottom, right, top):
        return None
    xs = sorted((left.value, right.value))
    ys = sorted((bottom.value, top.value))
    return xs[0], ys[0], xs[1], ys[1]


