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
- The page is never saved, and once its text is read again each object gets its own
  render mode back (`restore`: an invisible layer stays invisible to the question of
  what covers it).  The glyphs' boxes do not depend on the object's bounds, and the
  text page does not read the render mode, so the characters are read as in any other
  object.
- A text object that is one inkless glyph on a horizontal baseline has bounds that are
  a single point at its pen position: a space drawn as an object of its own (the 2016
  City Record draws every character so).  Those stay skipped, as the engine's
  documentation says.
- Objects with a vertical extent (a column's advance) are made visible, and on a page
  that has such columns, so are those whose point lies away from the pen (a single
  vertical glyph hangs from its vertical origin); a page of points alone, spaces, is
  told so by their bounds, a call each.
- A text layer set in a font without glyphs (an OCR engine's, drawn under or over its
  scan) has no ink at all: PDFium bounds each of its words from the first glyph's
  origin to the last one's, flat, and a word of one letter (``с``, ``в``, ``1``) by a
  point at its pen, skipped as a space drawn on its own is.  On a page whose text
  objects are mostly flat across their baseline (`_INKLESS_SAMPLE` of them asked, those
  the text page reads and the columns it skipped, turned or stroked alike), every
  skipped point is made visible: a space among them is read as the space it is.
"""

from __future__ import annotations

import ctypes
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from .bindings import bounds_of, out_params, pdfium_c, pointer, rotated_bounds_of

__all__ = ["make_visible", "restore"]

_EPSILON = 0.01
"""PDFium's ``kSizeEpsilon``: a text object narrower than this is skipped."""

_STROKE_WIDTH = 1.0
"""The line width given to an object made visible: its bounds grow by half of it on
each side, well past ``_EPSILON`` at any reasonable scale."""


_INKLESS_SAMPLE = 64
"""How many of a page's text objects are asked whether they are flat (see the module):
enough to tell a layer without ink from a page with a few inkless objects among inked
ones, and few calls on a page of thousands of objects."""


def make_visible(objects: Sequence[int], seen: npt.NDArray[np.uint64]) -> dict[int, int]:
    """Give each text object of ``objects`` (addresses) that PDFium's text page skips
    for want of width, and that may hold more than an inkless horizontal glyph (a
    column; on a page with columns, a point away from its pen; on a page whose text has
    no ink, every point), a width; the render mode each object changed had, by its
    address (the text page must be loaded again to see them, and `restore` gives the
    modes back once it is read).  ``seen`` are the text objects the text page reads
    (addresses), which with the columns tell whether the page's text has ink
    (`_inkless`).  The bounds of all the ``objects`` are asked for at once, into an
    array (a page may hold a thousand spaces drawn on their own)."""
    bounds = _bounds(objects)
    # NaN (no bounds known) is neither: such an object was skipped for another reason
    skipped = np.abs(bounds[:, 2] - bounds[:, 0]) < _EPSILON
    columns = skipped & (np.abs(bounds[:, 3] - bounds[:, 1]) >= _EPSILON)
    points = skipped & ~columns
    inkless = bool(points.any()) and _inkless(
        np.concatenate([seen, np.asarray(objects, dtype=np.uint64)[columns]]))
    if not columns.any() and not inkless:
        return {}  # points alone: spaces drawn on their own
    matrix = pdfium_c.FS_MATRIX()
    chosen = np.flatnonzero(columns).tolist()
    chosen += [k for k in np.flatnonzero(points).tolist() if inkless or not _at_pen(
        _object(objects[k]), float(bounds[k, 0]), float(bounds[k, 1]), matrix)]
    changed: dict[int, int] = {}
    for k in chosen:
        obj = _object(objects[k])
        mode = int(pdfium_c.FPDFTextObj_GetTextRenderMode(obj))
        if not pdfium_c.FPDFPageObj_GetMatrix(obj, matrix) or \
                not pdfium_c.FPDFTextObj_SetTextRenderMode(
                    obj, pdfium_c.FPDF_TEXTRENDERMODE_FILL_STROKE):
            continue
        pdfium_c.FPDFPageObj_SetStrokeWidth(obj, ctypes.c_float(_STROKE_WIDTH))
        # Setting the matrix it has recomputes the bounds, now with the stroke.
        pdfium_c.FPDFPageObj_SetMatrix(obj, matrix)
        changed[objects[k]] = mode
    return changed


def restore(changed: dict[int, int]) -> None:
    """Give the text objects `make_visible` changed (addresses) the render modes they
    had (``changed``): the loaded page says again how its text is drawn (an OCR
    layer's invisibly, which no fill painted after it covers: `occlusion`)."""
    for address, mode in changed.items():
        pdfium_c.FPDFTextObj_SetTextRenderMode(_object(address), mode)


def _object(address: int) -> Any:
    """The page object at ``address`` as the bindings that take a handle need it."""
    return ctypes.cast(address, pdfium_c.FPDF_PAGEOBJECT)


def _bounds(objects: Sequence[int]) -> npt.NDArray[np.float32]:
    """The upright bounds (left, bottom, right, top) of each page object of
    ``objects`` (addresses), asked for into one array; NaN where PDFium knows none."""
    bounds = np.zeros((len(objects), 4), dtype=np.float32)
    known = np.fromiter(map(bounds_of, map(pointer, objects), *(
        out_params(bounds, 4 * side) for side in range(4))), dtype=np.intc, count=len(objects))
    bounds[known == 0] = np.nan
    return bounds


def _inkless(objects: npt.NDArray[np.uint64]) -> bool:
    """Whether most of the text ``objects`` (addresses; a sample of `_INKLESS_SAMPLE`)
    are flat across their baseline: words drawn in a font without glyphs.  Measured on
    the object's box turned with it (its rotated bounds, which a stroke does not widen):
    a layer on a skewed scan, or turned, or drawn in part as fake bold, is as flat."""
    if not len(objects):
        return False
    picked = objects[np.linspace(0, len(objects) - 1, min(len(objects), _INKLESS_SAMPLE)
                                 ).astype(np.intp)].tolist()
    quads = np.full((len(picked), 8), np.nan, dtype=np.float32)  # x1, y1, ... x4, y4
    list(map(rotated_bounds_of, map(pointer, picked), out_params(quads)))
    across = np.hypot(quads[:, 4] - quads[:, 2], quads[:, 5] - quads[:, 3])
    return 2 * int((across < _EPSILON).sum()) > len(picked)


def _at_pen(obj: Any, x: float, y: float, matrix: Any) -> bool:
    """Whether a text object whose bounds are the point (``x``, ``y``) stands at its pen
    position (``matrix``, filled in here): one inkless glyph on a horizontal baseline,
    a space; a vertical glyph hangs away from its pen."""
    if not pdfium_c.FPDFPageObj_GetMatrix(obj, matrix):
        return True
    return bool(abs(x - matrix.e) < _EPSILON and abs(y - matrix.f) < _EPSILON)
