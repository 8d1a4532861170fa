"""Text objects PDFium's text page leaves out, made visible to it.

PDFium's text page skips every text object whose bounds are narrower than 0.01
(`CPDF_TextPage::ProcessTextObject`), and bounds a text object by the ink of its glyphs
in the font it can use, plus their advances along a horizontal baseline.  A text object
set in a vertical font (`Identity-V`, `UniJIS-UCS2-V`) advances downwards, so its width
is its glyphs' ink alone: without a font holding those glyphs (a CJK font the PDF does
not embed) the ink is empty and the whole column of text is skipped.

- pdfminer.six and pdftotext read the characters from the font's encoding and need no
  glyphs; on a page of vertical Japanese the pdfium engine found only the columns that
  held a Latin letter or digit, which the substitute font has.
- A text object drawn in a stroking render mode is bounded half a line width beyond
  its ink (`CPDF_TextObject`'s position data), so such an object is given a stroke and
  its bounds recomputed, and the text page, loaded again, reads it.
- The page is never saved: the change lives only as long as the loaded page.  The
  glyphs' boxes do not depend on the object's bounds, and the text page does not read
  the render mode, so the characters are read as in any other object.
- A text object that is one inkless glyph on a horizontal baseline has bounds that are
  a single point at its pen position: a space drawn as an object of its own (the 2016
  City Record draws every character so).  Those stay skipped, as the engine's
  documentation says.
- Objects with a vertical extent (a column's advance) are made visible, and on a page
  that has such columns, so are those whose point lies away from the pen (a single
  vertical glyph hangs from its vertical origin); a page of points alone, spaces, is
  told so by their bounds, a call each.
"""

from __future__ import annotations

import ctypes
from collections.abc import Sequence
from typing import Any

import numpy as np

from .bindings import bounds_of, out_params, pdfium_c, pointer

__all__ = ["make_visible"]

_EPSILON = 0.01
"""PDFium's ``kSizeEpsilon``: a text object narrower than this is skipped."""

_STROKE_WIDTH = 1.0
"""The line width given to an object made visible: its bounds grow by half of it on
each side, well past ``_EPSILON`` at any reasonable scale."""


def make_visible(objects: Sequence[int]) -> int:
    """Give each text object of ``objects`` (addresses) that PDFium's text page skips
    for want of width, and that may hold more than an inkless horizontal glyph, a
    width; the number of objects changed (the text page must be loaded again to see
    them).  The bounds of all the objects are asked for at once, into an array (a
    page may hold a thousand spaces drawn on their own)."""
    bounds = np.zeros((len(objects), 4), dtype=np.float32)  # left, bottom, right, top
    known = np.fromiter(map(bounds_of, map(pointer, objects), *(
        out_params(bounds, 4 * side) for side in range(4))), dtype=np.intc, count=len(objects))
    skipped = (known != 0) & (np.abs(bounds[:, 2] - bounds[:, 0]) < _EPSILON)
    # not skipped: skipped for another reason (a duplicate drawn again, ActualText)
    tall = np.abs(bounds[:, 3] - bounds[:, 1]) >= _EPSILON
    if not (skipped & tall).any():
        return 0  # points alone: spaces drawn on their own
    page_object = pdfium_c.FPDF_PAGEOBJECT
    matrix = pdfium_c.FS_MATRIX()
    columns = [ctypes.cast(objects[k], page_object)
               for k in np.flatnonzero(skipped & tall).tolist()]
    points = [(ctypes.cast(objects[k], page_object), float(bounds[k, 0]), float(bounds[k, 1]))
              for k in np.flatnonzero(skipped & ~tall).tolist()]
    changed = 0
    for obj in columns + [obj for obj, x, y in points if not _at_pen(obj, x, y, matrix)]:
        if not pdfium_c.FPDFPageObj_GetMatrix(obj, matrix) or \
                not pdfium_c.FPDFTextObj_SetTextRenderMode(
                    obj, pdfium_c.FPDF_TEXTRENDERMODE_FILL_STROKE):
            continue
        pdfium_c.FPDFPageObj_SetStrokeWidth(obj, ctypes.c_float(_STROKE_WIDTH))
        # Setting the matrix it has recomputes the bounds, now with the stroke.
        pdfium_c.FPDFPageObj_SetMatrix(obj, matrix)
        changed += 1
    return changed


def _at_pen(obj: Any, x: float, y: float, matrix: Any) -> bool:
    """Whether a text object whose bounds are the point (``x``, ``y``) stands at its pen
    position (``matrix``, filled in here): one inkless glyph on a horizontal baseline,
    a space; a vertical glyph hangs away from its pen."""
    if not pdfium_c.FPDFPageObj_GetMatrix(obj, matrix):
        return True
    return bool(abs(x - matrix.e) < _EPSILON and abs(y - matrix.f) < _EPSILON)
