"""PDFium's raw bindings, initialised once a process, with fast copies of the hot ones.

The copies are of the bindings called once per character or per object, and skip
ctypes' argument conversion.
"""

from __future__ import annotations

import ctypes
from collections.abc import Iterator
from typing import Any

import numpy.typing as npt

# The raw bindings alone: pypdfium2's own objects (documents, pages, bitmaps), which the
# package imports and this module does not use, take as long again to import.
import pypdfium2_raw as pdfium_c  # type: ignore[import-untyped]

__all__ = ["HANDLE", "INT", "address", "argument", "bounds_of", "font_of", "font_size_at",
           "is_generated", "is_hyphen", "loose_box_at", "matrix_at", "object_type", "origin_at",
           "out_params", "page_object_at", "pdfium_c", "pointer", "rotated_bounds_of",
           "text_object_at", "text_render_mode", "unconverted", "unicode_error_at"]

# PDFium is initialised once a process, as importing pypdfium2 does it (and with the same
# configuration); initialising it again, as pypdfium2 imported later for OCR does, does
# nothing.
pdfium_c.FPDF_InitLibraryWithConfig(pdfium_c.FPDF_LIBRARY_CONFIG(
    version=2, m_pUserFontPaths=None, m_pIsolate=None, m_v8EmbedderSlot=0))

def unconverted(function: Any, restype: Any) -> Any:
    """A copy of the PDFium binding ``function`` that converts no arguments, returns
    ``restype`` and keeps the GIL; a handle it returns comes back as an int (0 for
    none), a dictionary key without a ``ctypes.cast`` per call.

    The per-character calls go through such copies: without declared argument types
    ctypes passes a Python int as a C int and a ctypes object (a handle, a
    ``c_void_p``, a ``byref`` into a numpy array for an out-param) as the pointer it
    holds, with no ``from_param`` conversion, which takes about half of the time of
    such a call.  So every argument must be given as what the C function takes:
    ``int`` parameters as ints, pointers as ctypes objects.  A binding releases the
    GIL around the call and takes it back, a fifth of the time of a call that only
    looks a value up; PDFium is not to be called from two threads at once anyway.
    """
    return ctypes.PYFUNCTYPE(restype)(address(function))


def address(pointer: Any) -> int:
    """The address a ctypes pointer (a handle, a function) holds; 0 for NULL."""
    return ctypes.cast(pointer, ctypes.c_void_p).value or 0


pointer = ctypes.c_void_p.from_param
"""The address (an int) as the argument object an `unconverted` binding passes on
as it is; a handle or a ``c_void_p`` would be made into one again at every call."""


def argument(handle: Any) -> Any:
    """A PDFium handle (a document's, page's or text page's) as `pointer` makes it,
    for the many calls that pass it."""
    return pointer(address(handle))


def out_params(array: npt.NDArray[Any], offset: int = 0) -> Iterator[Any]:
    """Pointers to the rows of ``array`` (``offset`` bytes into each): one out-param
    per call of an `unconverted` binding, which writes the row in place.

    Bare addresses (`pointer`), a third cheaper to make than ``ctypes.byref``
    into a view of the array, and like them made one at a time as the calls take
    them: the caller holds ``array`` until the calls are done."""
    start, step = array.ctypes.data + offset, array.strides[0]
    return map(pointer, range(start, start + step * len(array), step))


HANDLE, INT = ctypes.c_size_t, ctypes.c_int
text_object_at = unconverted(pdfium_c.FPDFText_GetTextObject, HANDLE)
font_of = unconverted(pdfium_c.FPDFTextObj_GetFont, HANDLE)
origin_at = unconverted(pdfium_c.FPDFText_GetCharOrigin, INT)
loose_box_at = unconverted(pdfium_c.FPDFText_GetLooseCharBox, INT)
is_generated = unconverted(pdfium_c.FPDFText_IsGenerated, INT)
is_hyphen = unconverted(pdfium_c.FPDFText_IsHyphen, INT)
unicode_error_at = unconverted(pdfium_c.FPDFText_HasUnicodeMapError, INT)
matrix_at = unconverted(pdfium_c.FPDFText_GetMatrix, INT)
font_size_at = unconverted(pdfium_c.FPDFText_GetFontSize, ctypes.c_double)
page_object_at = unconverted(pdfium_c.FPDFPage_GetObject, HANDLE)
object_type = unconverted(pdfium_c.FPDFPageObj_GetType, INT)
bounds_of = unconverted(pdfium_c.FPDFPageObj_GetBounds, INT)
rotated_bounds_of = unconverted(pdfium_c.FPDFPageObj_GetRotatedBounds, INT)
text_render_mode = unconverted(pdfium_c.FPDFTextObj_GetTextRenderMode, INT)

