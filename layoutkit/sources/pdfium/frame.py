"""Where a page's user space stands on the displayed page: its crop box, its
``/Rotate`` and the matrix that takes user space to top-left displayed points."""

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
        clips it) and rotation."""
        media = _page_box(pdfium_c.FPDFPage_GetMediaBox, page) or (0.0, 0.0, 612.0, 792.0)
        visible = visible_rect(media, _page_box(pdfium_c.FPDFPage_GetCropBox, page))
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

    def shows(self, x0: float, y0: float, x1: float, y1: float) -> bool:
        """Whether the centre of the user-space rectangle lies on the visible page
        (pdfminer's engine keeps a glyph, rule or image on the same test)."""
        vx0, vy0, vx1, vy1 = self.visible
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        return vx0 <= cx <= vx1 and vy0 <= cy <= vy1


def _page_box(getter: Any, page: Any) -> Rect | None:
    """A page box (media or crop) in user space, normalised; None when the page has none."""
    left, bottom, right, top = (ctypes.c_float() for _ in range(4))
    if not getter(page, left, bottom, right, top):
        return None
    xs = sorted((left.value, right.value))
    ys = sorted((bottom.value, top.value))
    return xs[0], ys[0], xs[1], ys[1]


