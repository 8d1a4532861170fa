"""Glyphs, rules and images from PDFium (through pypdfium2's raw bindings).

PDFium interprets content streams in C++ and reports the same characters as
pdfminer.six, several times faster.  This module turns what it reports into the
values :class:`~layoutkit.sources.pdfminer.PdfminerSource` yields, so that the engines are
interchangeable (tests/test_engines.py holds them to it):

* **Boxes** are pdfminer's: from the character's origin to its advance along the
  baseline, and one em across it starting at the font's descent.  PDFium's own boxes
  do not fit line grouping, which needs one bottom per baseline: ``FPDFText_GetCharBox``
  is the ink, ``FPDFText_GetLooseCharBox`` runs from descent to ascent (0.74 em for
  LegalNews-Bold; its top is 0.45 pt off pdfminer's in the median glyph, up to 17 pt)
  and grows to hold the ink (an italic *f*, a round *C*).  So the origin and the
  font's descent come from PDFium, and the advance from the loose box, or from the
  font's width table where the ink reaches past the advance.  On all pages of the
  three fixture documents (552,720 glyphs) x0 agrees with pdfminer within 0.0033 pt
  and x1 within 0.0031 pt, except 2 ZapfDingbats squares to which pdfminer gives no
  width; top and bottom agree within 0.0019 pt, except 28 glyphs of fonts whose
  descriptor says ``/Descent 0``: PDFium takes the descent from the font program
  instead and sets them lower (Symbol 0.226 em, level with the text around them;
  ZapfDingbats 0.013 em).  Standard fonts without a descriptor get PDFium's built-in
  metrics (Helvetica: 0.017 em lower than the AFM descent pdfminer uses).
* **Sizes** are the em across the baseline (the font size scaled by the text matrix),
  pdfminer's size for upright text.  For rotated text pdfminer reports the box
  height, which is the advance width; this engine keeps the em.
* **Text**: PDFium's generated spaces and line breaks are dropped (they are not drawn;
  words come from geometry), a hyphen PDFium marks as a line-end hyphen stays the
  hyphen that is printed, and the pieces PDFium makes of one glyph (a glyph mapped to
  "fi", or the ligature U+FB01, which PDFium splits into letters) are joined into one
  glyph: consecutive characters of one text object with the same origin and box.
  PDFium skips text objects without ink, so a space drawn as an object of its own is
  not reported.  Font names lack the subset tag (``LegalNews-Bold``, not
  ``PQUCUD+LegalNews-Bold``).
"""

from __future__ import annotations

import ctypes
import dataclasses
import math
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import repeat
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

# The raw bindings alone: pypdfium2's own objects (documents, pages, bitmaps), which the
# package imports and this module does not use, take as long again to import.
import pypdfium2_raw as pdfium_c  # type: ignore[import-untyped]

from ..errors import DocumentError
from ..model import (
    CODE_POINTS,
    NO_GLYPHS,
    BBox,
    Glyphs,
    PageGlyphs,
    Rule,
    char_test,
    code_points,
    spell,
)
from .base import ClosingSource, Rect, check_readable, shape_rules, visible_rect

__all__ = ["PdfiumSource"]

# PDFium is initialised once a process, as importing pypdfium2 does it (and with the same
# configuration); initialising it again, as pypdfium2 imported later for OCR does, does
# nothing.
pdfium_c.FPDF_InitLibraryWithConfig(pdfium_c.FPDF_LIBRARY_CONFIG(
    version=2, m_pUserFontPaths=None, m_pIsolate=None, m_v8EmbedderSlot=0))

_LOAD_ERRORS = {
    pdfium_c.FPDF_ERR_UNKNOWN: "PDFium: unknown error",
    pdfium_c.FPDF_ERR_FILE: "PDFium: file not found or could not be opened",
    pdfium_c.FPDF_ERR_FORMAT: "PDFium: not in PDF format or corrupted",
    pdfium_c.FPDF_ERR_PAGE: "PDFium: page not found or content error",
}
"""What PDFium's load error codes mean, for the message of a document it refuses."""

_ENCRYPTED = (pdfium_c.FPDF_ERR_PASSWORD, pdfium_c.FPDF_ERR_SECURITY)
"""Load errors of a document that needs a password (or an unsupported security handler)."""

_HYPHENS = frozenset(("\ufffe", "\x02"))
"""What PDFium's page text holds for a hyphen it may mark as a line-end hyphen."""

Matrix = tuple[float, float, float, float, float, float]
"""An affine transformation ``(a, b, c, d, e, f)``: x' = a x + c y + e, y' = b x + d y + f."""

_IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


class PdfiumSource(ClosingSource):
    """Glyphs, rules and images from PDFium, in the values pdfminer's engine yields.

    Holds one open PDFium document; each page (and its text page) is opened while it
    is read and closed before the next.  Use it as a context manager, or call
    :meth:`close`.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        check_readable(path)
        document = pdfium_c.FPDF_LoadDocument(os.fsencode(path), None)
        if not document:
            # Read at once: PDFium only sets the error when a load fails.
            code = pdfium_c.FPDF_GetLastError()
            if code in _ENCRYPTED:
                raise DocumentError(f"{path}: encrypted PDF, a password is needed to read it")
            reason = _LOAD_ERRORS.get(code, f"PDFium: error {code}")
            raise DocumentError(f"{path}: corrupt or unreadable PDF ({reason})")
        count = int(pdfium_c.FPDF_GetPageCount(document))
        if count < 1:
            pdfium_c.FPDF_CloseDocument(document)
            raise DocumentError(f"{path}: the PDF has no pages")
        self._document: Any = document
        self._page_count = count

    @property
    def page_count(self) -> int:
        """The number of pages in the document."""
        return self._page_count

    def pages(self, page_numbers: Sequence[int]) -> Iterator[PageGlyphs]:
        """The glyphs of each 1-based page of ``page_numbers``, in that order.

        Raises DocumentError naming the page when PDFium cannot load it.
        """
        for page_no in page_numbers:
            if self._document is None:
                raise DocumentError(f"{self.path}: the document is closed")
            page = pdfium_c.FPDF_LoadPage(self._document, page_no - 1)
            if not page:
                raise DocumentError(
                    f"{self.path}: page {page_no} cannot be read (PDFium cannot load it)")
            try:
                glyphs = _page_glyphs(self.path, page_no, page)
            finally:
                pdfium_c.FPDF_ClosePage(page)
            yield dataclasses.replace(glyphs, label=_page_label(self._document, page_no))

    def close(self) -> None:
        """Close the document; closing twice is harmless."""
        if self._document is not None:
            pdfium_c.FPDF_CloseDocument(self._document)
            self._document = None


def _page_label(document: Any, page_no: int) -> str:
    """The label the PDF's ``/PageLabels`` give page ``page_no`` (1-based), empty
    when it has none."""
    size = int(pdfium_c.FPDF_GetPageLabel(document, page_no - 1, None, 0))
    if size <= 2:  # nothing, or only the UTF-16 terminator
        return ""
    buffer = ctypes.create_string_buffer(size)
    pdfium_c.FPDF_GetPageLabel(document, page_no - 1, buffer, size)
    return buffer.raw[:size - 2].decode("utf-16-le", errors="replace")


@dataclass(frozen=True, slots=True)
class _Frame:
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
    def of(page: Any) -> _Frame:
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
        return _Frame(visible, rotate, display)

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


def _page_glyphs(path: Path, page_no: int, page: Any) -> PageGlyphs:
    """Everything the pipeline needs of one loaded page, in displayed top-left points."""
    frame = _Frame.of(page)
    textpage = pdfium_c.FPDFText_LoadPage(page)
    if not textpage:
        raise DocumentError(
            f"{path}: page {page_no} cannot be read (PDFium cannot read its text)")
    try:
        glyphs, text_objects = _TextReader(textpage, frame).glyphs()
    finally:
        pdfium_c.FPDFText_ClosePage(textpage)
    rules, images = _drawings(page, frame, text_objects)
    width, height = frame.size
    return PageGlyphs(page_no, width, height, glyphs, rules, images)


def _char_texts(textpage: Any, count: int) -> str | None:
    """The page's text, one character per char index, or None when it does not line up.

    PDFium's text buffer holds one character for every char index, its generated
    spaces and line breaks included, so one bulk ``FPDFText_GetText`` replaces a call
    per character.  Characters PDFium keeps out of the buffer (control characters)
    would shift everything after them; the buffer is then shorter, or its last char
    index maps elsewhere, and the caller asks for each character instead.
    """
    if count == 0:
        return ""
    buffer = (ctypes.c_ushort * (2 * count + 1))()  # UTF-16: at most two units a character
    written = int(pdfium_c.FPDFText_GetText(textpage, 0, count, buffer))
    text = bytes(buffer)[: 2 * max(written - 1, 0)].decode("utf-16-le", errors="replace")
    aligned = (len(text) == count
               and pdfium_c.FPDFText_GetTextIndexFromCharIndex(textpage, count - 1) == count - 1)
    return text if aligned else None


@dataclass(frozen=True, slots=True)
class _Font:
    """A font as the boxes need it: name, descent (ems, negative below the baseline)
    and advance widths (ems) by character, read from the font's tables on demand."""

    handle: Any
    name: str
    descent: float
    widths: dict[str, float | None]

    @staticmethod
    def of(handle: Any) -> _Font:
        """The font PDFium's ``handle`` points to (its base name without a subset tag
        such as ``PQUCUD+``; a descent of 0 when PDFium has none)."""
        length = int(pdfium_c.FPDFFont_GetBaseFontName(handle, None, 0))
        name = ctypes.create_string_buffer(max(length, 1))
        pdfium_c.FPDFFont_GetBaseFontName(handle, name, len(name))
        descent = ctypes.c_float()
        if not pdfium_c.FPDFFont_GetDescent(handle, 1.0, descent):
            descent.value = 0.0
        return _Font(handle, name.value.decode("utf-8", errors="replace"), descent.value, {})

    def width(self, text: str) -> float | None:
        """The advance width in ems of the glyph the font maps ``text`` to, or None.

        PDFium looks the glyph up by its Unicode value, which a font's encoding may
        map to another glyph than the one drawn: a second opinion, not the rule.
        """
        if text not in self.widths:
            width = ctypes.c_float()
            ok = len(text) == 1 and pdfium_c.FPDFFont_GetGlyphWidth(
                self.handle, ord(text), 1.0, width)
            self.widths[text] = float(width.value) if ok else None
        return self.widths[text]


@dataclass(frozen=True, slots=True)
class _Run:
    """What the characters of one text object share: font, size and orientation.

    ``em_x``/``em_y`` are the text-space x and y unit vectors scaled by the font size,
    in user space: one em along the baseline and one em across it.  ``low``/``high``
    are the box's lowest and highest offsets (x, y) across the baseline, from the
    descent to one em above it.  ``side`` is the side of PDFium's loose box (0 left,
    1 bottom, 2 right, 3 top) where the advance ends when the baseline runs along an
    axis, ``along`` the em along that axis (signed); None and 0 otherwise.  ``size``
    is the em across the baseline, pdfminer's size for upright text (horizontal
    scaling and skew act along the baseline and leave it alone).  ``upright`` is
    pdfminer's test on the matrix as the page is displayed: the baseline runs
    rightwards and the em upwards.
    """

    font: _Font
    em_x: tuple[float, float]
    low: tuple[float, float]
    high: tuple[float, float]
    side: int | None
    along: float
    size: float
    upright: bool

    @staticmethod
    def of(font: _Font, a: float, b: float, c: float, d: float, rotate: int) -> _Run:
        """The run of ``font`` drawn with the em vectors (a, b) and (c, d) on a page
        the viewer turns ``rotate`` degrees."""
        d0, d1 = font.descent, font.descent + 1.0
        low = min(c * d0, c * d1), min(d * d0, d * d1)
        high = max(c * d0, c * d1), max(d * d0, d * d1)
        side: int | None = None
        along = 0.0
        if b == 0 and c == 0 and a:  # the baseline runs along x
            side, along = (2 if a > 0 else 0), a
        elif a == 0 and d == 0 and b:  # the baseline runs along y
            side, along = (3 if b > 0 else 1), b
        ta, tb = _turn(rotate, a, b)
        tc, td = _turn(rotate, c, d)
        length = math.hypot(a, b)
        size = abs(a * d - b * c) / length if length else 0.0
        return _Run(font, (a, b), low, high, side, along, size, ta * td > 0 and tb * tc <= 0)


def _turn(rotate: int, x: float, y: float) -> tuple[float, float]:
    """The user-space vector (x, y) as the viewer shows it after turning the page
    ``rotate`` degrees clockwise (bottom-left origin, y upwards)."""
    if rotate == 90:
        return y, -x
    if rotate == 180:
        return -x, -y
    if rotate == 270:
        return -y, x
    return x, y


def _unconverted(function: Any, restype: Any) -> Any:
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
    return ctypes.PYFUNCTYPE(restype)(_address(function))


def _address(pointer: Any) -> int:
    """The address a ctypes pointer (a handle, a function) holds; 0 for NULL."""
    return ctypes.cast(pointer, ctypes.c_void_p).value or 0


_pointer = ctypes.c_void_p.from_param
"""The address (an int) as the argument object an :func:`_unconverted` binding passes on
as it is; a handle or a ``c_void_p`` would be made into one again at every call."""


def _argument(handle: Any) -> Any:
    """A PDFium handle (a document's, page's or text page's) as :func:`_pointer` makes it,
    for the many calls that pass it."""
    return _pointer(_address(handle))


def _out_params(array: npt.NDArray[Any], offset: int = 0) -> Iterator[Any]:
    """Pointers to the rows of ``array`` (``offset`` bytes into each): one out-param
    per call of an :func:`_unconverted` binding, which writes the row in place.

    Bare addresses (:data:`_pointer`), a third cheaper to make than ``ctypes.byref``
    into a view of the array, and like them made one at a time as the calls take
    them: the caller holds ``array`` until the calls are done."""
    start, step = array.ctypes.data + offset, array.strides[0]
    return map(_pointer, range(start, start + step * len(array), step))


_HANDLE, _INT = ctypes.c_size_t, ctypes.c_int
_text_object_at = _unconverted(pdfium_c.FPDFText_GetTextObject, _HANDLE)
_font_of = _unconverted(pdfium_c.FPDFTextObj_GetFont, _HANDLE)
_origin_at = _unconverted(pdfium_c.FPDFText_GetCharOrigin, _INT)
_loose_box_at = _unconverted(pdfium_c.FPDFText_GetLooseCharBox, _INT)
_is_generated = _unconverted(pdfium_c.FPDFText_IsGenerated, _INT)
_is_hyphen = _unconverted(pdfium_c.FPDFText_IsHyphen, _INT)
_matrix_at = _unconverted(pdfium_c.FPDFText_GetMatrix, _INT)
_font_size_at = _unconverted(pdfium_c.FPDFText_GetFontSize, ctypes.c_double)
_page_object_at = _unconverted(pdfium_c.FPDFPage_GetObject, _HANDLE)
_object_type = _unconverted(pdfium_c.FPDFPageObj_GetType, _INT)

_DRAWN = (pdfium_c.FPDF_PAGEOBJ_PATH, pdfium_c.FPDF_PAGEOBJ_IMAGE, pdfium_c.FPDF_PAGEOBJ_FORM)
"""The kinds of page object that may draw rules or images, or hold objects that do."""

_LOOSE_SIDES = [0, 3, 2, 1]
"""Columns of an ``FS_RECTF`` (left, top, right, bottom) in ``_Run.side`` order (left,
bottom, right, top)."""

_SHAPE = np.dtype([("font", np.uint64), ("em", np.float64, 4)])
"""What tells runs apart: the font (its handle) and the em vectors (a, b) and (c, d)."""

_WIDTH_TOLERANCE = 1e-3
"""Ems by which the loose box's advance and the font's width table may disagree
before the ink box is consulted (the boxes are single-precision floats)."""


class _TextReader:
    """Reads the glyphs of one text page; caches fonts while it does."""

    def __init__(self, textpage: Any, frame: _Frame) -> None:
        self.textpage = textpage
        self.argument = _argument(textpage)  # for the per-character calls
        self.frame = frame
        self.fonts: dict[int, _Font] = {}

    def glyphs(self) -> tuple[Glyphs, npt.NDArray[np.uint64]]:
        """The page's visible glyphs in PDFium's character order, boxed as pdfminer's
        engine boxes them (see the module docstring), and the text objects (addresses,
        sorted) that draw characters.

        PDFium is asked, per character, only for its text object, origin and loose
        box, the last two written straight into arrays; everything else is asked
        once per text object, and the boxes are worked out on the arrays.
        """
        textpage, argument = self.textpage, self.argument
        count = int(pdfium_c.FPDFText_CountChars(textpage))
        texts = _char_texts(textpage, count)
        if texts is None:
            texts = "".join(chr(pdfium_c.FPDFText_GetUnicode(textpage, index))
                            for index in range(count))
        # PDFium only generates whitespace: spaces between words and line breaks.
        codes = code_points(texts)
        keep = np.ones(count, dtype=np.bool_)
        spaces = np.flatnonzero(char_test(codes, str.isspace))
        keep[spaces] = ~np.fromiter(map(_is_generated, repeat(argument, len(spaces)),
                                        spaces.tolist()), dtype=np.bool_, count=len(spaces))
        kept_at = np.flatnonzero(keep)
        kept = kept_at.tolist()
        chars = list(spell(codes[keep]))
        for k in np.flatnonzero(char_test(codes[keep], _HYPHENS.__contains__)).tolist():
            if _is_hyphen(argument, kept[k]):
                chars[k] = "-"
        n = len(kept)
        if not n:
            return NO_GLYPHS, np.zeros(0, dtype=np.uint64)
        origins = np.zeros((n, 2), dtype=np.float64)
        loose = np.zeros((n, 4), dtype=np.float32)  # FS_RECTF: left, top, right, bottom
        list(map(_origin_at, repeat(argument, n), kept, _out_params(origins),
                 _out_params(origins, 8)))
        list(map(_loose_box_at, repeat(argument, n), kept, _out_params(loose)))
        objects = np.fromiter(map(_text_object_at, repeat(argument, n), kept),
                              dtype=np.uint64, count=n)
        edges = loose[:, _LOOSE_SIDES].astype(np.float64)  # left, bottom, right, top
        # A piece of the glyph before it (a ligature's letters): the next character
        # from the same text object at the same origin with the same box.
        follows = np.zeros(n, dtype=np.bool_)
        follows[1:] = ((kept_at[1:] == kept_at[:-1] + 1) & (objects[1:] == objects[:-1])
                       & (origins[1:] == origins[:-1]).all(axis=1)
                       & (loose[1:] == loose[:-1]).all(axis=1))
        first = np.flatnonzero(~follows)
        if len(first) == n:
            joined, indices = chars, kept
        else:
            joined = [chars[k] for k in first.tolist()]
            glyph_of = np.cumsum(~follows) - 1
            for k in np.flatnonzero(follows).tolist():
                joined[glyph_of[k]] += chars[k]
            indices = kept_at[first].tolist()
        keys, where, object_of = np.unique(objects[first], return_index=True,
                                           return_inverse=True)
        runs, run_of_object = self._runs(keys, kept_at[first[where]])
        glyphs = self._boxes(joined, indices, origins[first], edges[first], runs,
                             run_of_object[object_of])
        return glyphs, keys  # a piece has the text object of the glyph before it

    def _boxes(self, texts: list[str], indices: list[int], origins: npt.NDArray[np.float64],
               edges: npt.NDArray[np.float64], runs: list[_Run],
               run_of: npt.NDArray[np.intp]) -> Glyphs:
        """The glyphs of ``texts`` (character ``indices``, ``origins`` and loose-box
        ``edges`` left, bottom, right, top), each drawn in run ``runs[run_of[k]]``,
        boxed in displayed points; those whose centre is off the page left out."""
        def column(value: Any) -> npt.NDArray[np.float64]:
            return np.array([value(run) for run in runs], dtype=np.float64).reshape(
                len(runs), -1)[run_of]

        ox, oy = origins[:, 0], origins[:, 1]
        em_x, low, high = (column(lambda r: r.em_x), column(lambda r: r.low),
                           column(lambda r: r.high))
        width = self._advances(texts, indices, ox, oy, edges, runs, run_of)
        wx, wy = em_x[:, 0] * width, em_x[:, 1] * width
        x0 = ox + low[:, 0] + np.minimum(wx, 0.0)
        x1 = ox + high[:, 0] + np.maximum(wx, 0.0)
        y0 = oy + low[:, 1] + np.minimum(wy, 0.0)
        y1 = oy + high[:, 1] + np.maximum(wy, 0.0)
        vx0, vy0, vx1, vy1 = self.frame.visible
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        shown = (vx0 <= cx) & (cx <= vx1) & (vy0 <= cy) & (cy <= vy1)  # _Frame.shows
        da, db, dc, dd, de, df = self.frame.display
        u0, v0 = da * x0 + dc * y0 + de, db * x0 + dd * y0 + df
        u1, v1 = da * x1 + dc * y1 + de, db * x1 + dd * y1 + df
        boxes = np.stack([np.minimum(u0, u1), np.minimum(v0, v1),
                          np.maximum(u0, u1), np.maximum(v0, v1)], axis=1)[shown]
        run_at = run_of[shown]
        names = np.array([run.font.name for run in runs], dtype=object)[run_at]
        upright = np.array([run.upright for run in runs], dtype=np.bool_)[run_at]
        picked = texts if shown.all() else [texts[k] for k in np.flatnonzero(shown).tolist()]
        return Glyphs(tuple(picked), boxes, tuple(names.tolist()),
                      column(lambda r: r.size)[shown, 0], upright)

    def _runs(self, objects: npt.NDArray[np.uint64], indices: npt.NDArray[np.intp]
              ) -> tuple[list[_Run], npt.NDArray[np.intp]]:
        """The distinct runs of the text ``objects`` (each drawing character
        ``indices[k]``), and the run of each object as an index into them.

        Many producers draw every character as a text object of its own, so the
        runs are told apart by their font and matrix, not by object.
        """
        argument, count = self.argument, len(objects)
        shapes = np.zeros(count, dtype=_SHAPE)
        shapes["font"] = np.fromiter(map(_font_of, map(_pointer, objects.tolist())),
                                     dtype=np.uint64, count=count)
        matrices = np.zeros((count, 6), dtype=np.float32)  # FS_MATRIX: a, b, c, d, e, f
        listed = indices.tolist()
        list(map(_matrix_at, repeat(argument, count), listed,
                 _out_params(matrices)))
        sizes = np.fromiter(map(_font_size_at, repeat(argument, count), listed),
                            dtype=np.float64, count=count)
        # + 0.0 turns -0.0 into 0.0: equal shapes have equal bytes
        shapes["em"] = matrices[:, :4].astype(np.float64) * sizes[:, None] + 0.0
        _, first, run_of = np.unique(shapes.view(np.dtype((np.void, _SHAPE.itemsize))),
                                     return_index=True, return_inverse=True)
        runs = []
        for font_key, (a, b, c, d) in zip(shapes["font"][first].tolist(),
                                          shapes["em"][first].tolist(), strict=True):
            font = self.fonts.get(font_key)
            if font is None:
                font = self.fonts[font_key] = _Font.of(ctypes.cast(font_key, pdfium_c.FPDF_FONT))
            runs.append(_Run.of(font, a, b, c, d, self.frame.rotate))
        return runs, run_of.reshape(-1)

    def _advances(self, texts: list[str], indices: list[int], ox: npt.NDArray[np.float64],
                  oy: npt.NDArray[np.float64], edges: npt.NDArray[np.float64],
                  runs: list[_Run], run_of: npt.NDArray[np.intp]) -> npt.NDArray[np.float64]:
        """The advance width in ems of each glyph (see :meth:`_advance`), worked out on
        the arrays where the loose box and the font's width table agree."""
        side = np.array([-1 if r.side is None else r.side for r in runs], dtype=np.intp)[run_of]
        along = np.array([r.along or 1.0 for r in runs], dtype=np.float64)[run_of]
        on_axis = side >= 0
        far = np.take_along_axis(edges, np.maximum(side, 0)[:, None], axis=1)[:, 0]
        measured = (far - np.where(side % 2 == 1, oy, ox)) / along
        table = _table_widths(texts, runs, run_of)
        agree = np.abs(measured - table) <= _WIDTH_TOLERANCE  # False where table is NaN
        widths = measured.copy()
        run_at = run_of.tolist()
        for k in np.flatnonzero(~on_axis | ~agree).tolist():
            known = float(table[k])
            widths[k] = self._advance(indices[k], runs[run_at[k]],
                                      None if math.isnan(known) else known, float(far[k]),
                                      float(measured[k]))
        return widths

    def _advance(self, index: int, run: _Run, table: float | None, far: float,
                 measured: float) -> float:
        """The advance width in ems of character ``index``, whose font's width table
        gives ``table`` and whose loose box ends at ``far`` along the baseline, an
        advance of ``measured``.

        PDFium's loose box runs from the origin to the advance along the baseline, so
        it measures the advance wherever the baseline runs along an axis.  But it is
        grown to hold the ink: when it disagrees with the font's width table the ink
        box decides: if the loose box ends where the ink ends, the ink reached past
        the advance (an italic *f*) and the table is right; otherwise the box is (the
        font maps the character to another glyph than the one drawn).  Baselines at
        other angles have no axis to measure along and take the table, or failing
        that the ink's extent.
        """
        if run.side is None:
            if table is not None:
                return table
            left, bottom, right, top = self._ink(index)
            length = math.hypot(*run.em_x)
            return math.hypot(right - left, top - bottom) / length if length else 0.0
        if table is None:
            return measured
        return table if far == self._ink(index)[run.side] else measured

    def _ink(self, index: int) -> tuple[float, float, float, float]:
        """The ink box (tight box) of character ``index``: left, bottom, right, top,
        in the order of ``_advance``'s edges."""
        left, right, bottom, top = (ctypes.c_double() for _ in range(4))
        pdfium_c.FPDFText_GetCharBox(self.textpage, index, left, right, bottom, top)
        return left.value, bottom.value, right.value, top.value




def _table_widths(texts: list[str], runs: list[_Run], run_of: npt.NDArray[np.intp]
                  ) -> npt.NDArray[np.float64]:
    """The advance width in ems that the font's width table gives each glyph of
    ``texts`` (drawn in run ``runs[run_of[k]]``), NaN where it gives none; each
    distinct run and character is looked up once."""
    codes = code_points(texts)  # -1 for a ligature's letters, which the table lacks
    keys, key_of = np.unique(np.where(codes < 0, -1, run_of * CODE_POINTS + codes),
                             return_inverse=True)
    widths = [math.nan if key < 0 else runs[key // CODE_POINTS].font.width(chr(key % CODE_POINTS))
              for key in keys.tolist()]
    return np.array([math.nan if w is None else w for w in widths], dtype=np.float64)[key_of]


def _drawings(page: Any, frame: _Frame, text_objects: npt.NDArray[np.uint64]
              ) -> tuple[tuple[Rule, ...], tuple[BBox, ...]]:
    """The page's ruling lines and image boxes, form XObjects included.

    PDFium keeps the objects of a form XObject inside the form object, their matrices
    relative to it; the form object's matrix takes them on to the page.  The
    ``text_objects`` (addresses, sorted) are known to be text, and PDFium is not
    asked about them: most objects of a page are text.
    """
    rules: list[Rule] = []
    images: list[BBox] = []
    matrix = pdfium_c.FS_MATRIX()

    def drawn(addresses: Iterator[int], count: int) -> list[tuple[int, int]]:
        """The objects of ``addresses`` that may draw, as (address, kind) pairs."""
        others = np.fromiter(addresses, dtype=np.uint64, count=count)
        if len(text_objects):  # sorted: each object looked up where it would stand
            at = np.minimum(np.searchsorted(text_objects, others), len(text_objects) - 1)
            others = others[text_objects[at] != others]
        kinds = np.fromiter(map(_object_type, map(_pointer, others.tolist())),
                            dtype=np.intc, count=len(others))
        picked = np.isin(kinds, _DRAWN)
        return list(zip(others[picked].tolist(), kinds[picked].tolist(), strict=True))

    def walk(objects: list[tuple[int, int]], outer: Matrix) -> None:
        for address, kind in objects:
            obj = ctypes.cast(address, pdfium_c.FPDF_PAGEOBJECT)
            if not pdfium_c.FPDFPageObj_GetMatrix(obj, matrix):
                continue
            to_user = _compose((matrix.a, matrix.b, matrix.c, matrix.d, matrix.e, matrix.f),
                               outer)
            if kind == pdfium_c.FPDF_PAGEOBJ_PATH:
                rules.extend(_path_rules(obj, to_user, frame))
            elif kind == pdfium_c.FPDF_PAGEOBJ_IMAGE:
                corners = [_apply(to_user, x, y) for x, y in ((0, 0), (1, 0), (0, 1), (1, 1))]
                x0, y0 = min(p[0] for p in corners), min(p[1] for p in corners)
                x1, y1 = max(p[0] for p in corners), max(p[1] for p in corners)
                if frame.shows(x0, y0, x1, y1):
                    images.append(frame.box(x0, y0, x1, y1))
            else:
                count = int(pdfium_c.FPDFFormObj_CountObjects(obj))
                inner = (_address(pdfium_c.FPDFFormObj_GetObject(obj, k)) for k in range(count))
                walk(drawn(inner, count), to_user)

    count = int(pdfium_c.FPDFPage_CountObjects(page))
    walk(drawn(map(_page_object_at, repeat(_argument(page), count), range(count)), count),
         _IDENTITY)
    return tuple(rules), tuple(images)


def _compose(inner: Matrix, outer: Matrix) -> Matrix:
    """The matrix that applies ``inner`` first, then ``outer``."""
    a, b, c, d, e, f = inner
    oa, ob, oc, od, oe, of = outer
    return (a * oa + b * oc, a * ob + b * od, c * oa + d * oc, c * ob + d * od,
            e * oa + f * oc + oe, e * ob + f * od + of)


def _apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    """The point (x, y) transformed by ``m``."""
    return m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]


def _path_rules(path: Any, to_user: Matrix, frame: _Frame) -> list[Rule]:
    """The ruling lines a path object contributes, classified as pdfminer does.

    pdfminer paints each subpath on its own and names it by its operators: ``ml`` or
    ``mlh`` a line, a closed four-sided ``mlllh``/``mllll`` with axis-aligned sides a
    rectangle, anything else a curve.  PDFium reports segments instead (a curve as three
    points, a closing ``h`` as a flag, after a line back to the start when the path was
    elsewhere); they are turned back into those operator strings first.
    """
    fill_mode, stroke = ctypes.c_int(), ctypes.c_int()
    pdfium_c.FPDFPath_GetDrawMode(path, fill_mode, stroke)
    x, y = ctypes.c_float(), ctypes.c_float()
    subpaths: list[tuple[list[str], list[tuple[float, float]]]] = []
    pending_curve = 0
    for index in range(int(pdfium_c.FPDFPath_CountSegments(path))):
        segment = pdfium_c.FPDFPath_GetPathSegment(path, index)
        kind = pdfium_c.FPDFPathSegment_GetType(segment)
        pdfium_c.FPDFPathSegment_GetPoint(segment, x, y)
        point = _apply(to_user, x.value, y.value)
        if kind == pdfium_c.FPDF_SEGMENT_MOVETO or not subpaths:
            subpaths.append((["m"], [point]))
        elif kind == pdfium_c.FPDF_SEGMENT_BEZIERTO:
            pending_curve += 1
            if pending_curve < 3:  # control points: pdfminer keeps only the end point
                continue
            pending_curve = 0
            subpaths[-1][0].append("c")
            subpaths[-1][1].append(point)
        else:
            subpaths[-1][0].append("l")
            subpaths[-1][1].append(point)
        if pdfium_c.FPDFPathSegment_GetClose(segment):
            ops, pts = subpaths[-1]
            ops.append("h")
            pts.append(pts[0])
    rules: list[Rule] = []
    for ops, pts in subpaths:
        rules.extend(_subpath_rules("".join(ops), pts, bool(stroke.value), frame))
    return rules


def _subpath_rules(shape: str, pts: list[tuple[float, float]], stroke: bool,
                   frame: _Frame) -> list[Rule]:
    """pdfminer's classification of one subpath (line, rectangle, other), then the rules
    it contributes by :func:`~layoutkit.sources.base.shape_rules`."""
    if len(shape) < 2:  # a lone move draws nothing; pdfminer skips it too
        return []
    if len(shape) > 3 and shape.endswith("lh") and pts[-2] == pts[0]:
        shape, pts = shape[:-2] + "h", pts[:-2] + pts[-1:]
    line = shape in ("ml", "mlh")
    rect = False
    if shape in ("mlllh", "mllll"):
        (x0, y0), (x1, y1), (x2, y2), (x3, y3), _ = pts
        rect = pts[0] == pts[4] and ((x0 == x1 and y1 == y2 and x2 == x3 and y3 == y0)
                                     or (y0 == y1 and x1 == x2 and y2 == y3 and x3 == x0))
    x0, x1 = min(p[0] for p in pts), max(p[0] for p in pts)
    y0, y1 = min(p[1] for p in pts), max(p[1] for p in pts)
    if not frame.shows(x0, y0, x1, y1):
        return []
    return shape_rules(x0, y0, x1, y1, simple=line or rect or len(pts) <= 5,
                       stroked_box=rect and stroke, box=frame.box)
