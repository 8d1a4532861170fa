"""Glyphs, rules and images from PDFium (through pypdfium2's raw bindings).

PDFium interprets content streams in C++ and reports the same characters as
pdfminer.six, several times faster.  This module turns what it reports into the
values `PdfminerSource` yields, so that the engines are
interchangeable (tests/test_engines.py holds them to it):

* **Boxes** are pdfminer's: from the character's origin to its advance along the
  baseline, and one em across it starting at the font's descent (both engines take a
  text face's, or an em under the font's ascent, where a math font's line metrics
  would set the box under its line: `box_descent`).  PDFium's own boxes
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
  metrics (Helvetica: 0.017 em lower than the AFM descent pdfminer uses).  A glyph of
  a vertical font (``Identity-V``) takes its width across the column from the loose
  box alone: PDFium's width table gives such a font's advance down the column.
* **Sizes** are the em across the baseline (the font size scaled by the text matrix),
  pdfminer's size for upright text.  For text running up or down the page pdfminer
  reports the box height, which is the advance width; both engines keep the em.  A
  character whose matrix PDFium's text page lost (the identity and size 1, seen in
  right-to-left lines it reorders) takes its text object's matrix and font size.
* **Text**: PDFium's generated spaces and line breaks are dropped (they are not drawn;
  words come from geometry), a hyphen PDFium marks as a line-end hyphen stays the
  hyphen that is printed, and the pieces PDFium makes of one glyph (a glyph mapped to
  "fi", or the ligature U+FB01, which PDFium splits into letters) are joined into one
  glyph: consecutive characters of one text object with the same origin and box.
  PDFium skips text objects without ink, so a space drawn as an object of its own is
  not reported; other inkless objects (a column of vertical CJK text in a font PDFium
  lacks) are made visible to it and read (`unseen`).  A code the font maps to no
  Unicode is named ``(cid:N)`` where PDFium gives a control character, as pdfminer
  names it.  In an embedded Type 1 or CFF font whose built-in encoding names glyphs
  outside the Adobe Glyph List (TeX's math fonts: ``prime``, ``angbracketleft``),
  such a code is read by that name, or named ``(cid:N)`` where the name has no text,
  where PDFium gives the code's letter ("0" for a prime)
  (`text.BuiltinEncodings`, `builtin_encoding`); on a page where a
  glyph came out as ``(cid:N)``, codes a font's ``/Differences`` names outside the
  Adobe Glyph List (Linotype's Math Pi numbers) are read by their names, which PDFium
  does not give (`differences`).  The glyphs of a composite font without
  ``/ToUnicode`` are read as the pdfminer engine reads them, by its character
  collection's table (`PdfiumSource._collected`): PDFium's own tables name some of
  their CIDs otherwise.  Font names lack the
  subset tag (``LegalNews-Bold``, not ``PQUCUD+LegalNews-Bold``).
* **Page size**: the crop box clipped to the media box, both inherited from the page
  tree (`frame._visible_box`).
* **Covered text**: glyphs an opaque filled shape painted after them covers are left
  out, as pdfminer's engine leaves them out (`occlusion`), but for those drawn
  invisibly (an OCR layer under a scan), whose render mode is asked of their objects
  only once a fill covers them.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Collection, Iterator, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ...errors import DocumentError
from ...model import Glyphs, OutlineEntry, PageGlyphs
from ..base import ClosingSource, check_readable
from ..cid_collections import drawn_by_collection, font_collections, read_by_collection
from ..occlusion import INVISIBLE, uncovered
from .bindings import pdfium_c, pointer, text_render_mode
from .drawings import drawings
from .frame import Frame
from .links import page_links
from .outline import outline, page_label
from .text import BuiltinEncodings, TextReader
from .unseen import make_visible, restore

__all__ = ["PdfiumSource"]

_LOAD_ERRORS = {
    pdfium_c.FPDF_ERR_UNKNOWN: "PDFium: unknown error",
    pdfium_c.FPDF_ERR_FILE: "PDFium: file not found or could not be opened",
    pdfium_c.FPDF_ERR_FORMAT: "PDFium: not in PDF format or corrupted",
    pdfium_c.FPDF_ERR_PAGE: "PDFium: page not found or content error",
}
"""What PDFium's load error codes mean, for the message of a document it refuses."""

_ENCRYPTED = (pdfium_c.FPDF_ERR_PASSWORD, pdfium_c.FPDF_ERR_SECURITY)
"""Load errors of a document that needs a password (or an unsupported security handler)."""

class PdfiumSource(ClosingSource):
    """Glyphs, rules and images from PDFium, in the values pdfminer's engine yields.

    Holds one open PDFium document; each page (and its text page) is opened while it
    is read and closed before the next.  Use it as a context manager, or call
    `close`.
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
        self._encodings = BuiltinEncodings(path)
        self._collections: dict[str, str] | None = None
        self._pdfminer: Any = None

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
                glyphs = _page_glyphs(self.path, page_no, page, self._encodings)
                links = page_links(self._document, page)
            finally:
                pdfium_c.FPDF_ClosePage(page)
            yield dataclasses.replace(self._collected(glyphs),
                                      label=page_label(self._document, page_no), links=links)

    def _collected(self, page: PageGlyphs) -> PageGlyphs:
        """``page`` with the glyphs of composite fonts without ``/ToUnicode`` read as the
        pdfminer engine reads them (`read_by_collection`); ``page`` itself where it draws
        none, or pdfminer.six cannot read it.  The document is read for such fonts once."""
        if self._collections is None:
            self._collections = font_collections(self.path)
        if not drawn_by_collection(page.glyphs, self._collections):
            return page
        from ..pdfminer import PdfminerSource  # for such a document only

        try:
            if self._pdfminer is None:
                self._pdfminer = PdfminerSource(self.path)
            read = next(iter(self._pdfminer.pages([page.page_no])))
        except DocumentError:
            return page
        return dataclasses.replace(
            page, glyphs=read_by_collection(page.glyphs, read.glyphs, self._collections))

    def labels(self) -> tuple[str, ...]:
        """Each page's label by the PDF's ``/PageLabels``; all empty when it has none."""
        return tuple(page_label(self._open(), n) for n in range(1, self._page_count + 1))

    def outline(self, heavy: Collection[int] = ()) -> tuple[OutlineEntry, ...]:
        """The document's outline (`outline.outline`); empty when it has none.  The
        ``heavy`` pages are not loaded (PDFium parses a page's content as it loads it):
        their entries give no height."""
        return outline(self._open(), heavy)

    def _open(self) -> Any:
        """The open document; raises DocumentError once it is closed."""
        if self._document is None:
            raise DocumentError(f"{self.path}: the document is closed")
        return self._document

    def close(self) -> None:
        """Close the document; closing twice is harmless."""
        if self._document is not None:
            pdfium_c.FPDF_CloseDocument(self._document)
            self._document = None
        if self._pdfminer is not None:
            self._pdfminer.close()
            self._pdfminer = None


def _page_glyphs(path: Path, page_no: int, page: Any, encodings: BuiltinEncodings
                 ) -> PageGlyphs:
    """Everything the pipeline needs of one loaded page, in displayed top-left points,
    with the built-in encodings of the document's fonts cached in ``encodings``.

    Text objects PDFium's text page skipped for want of ink (a column of vertical
    text in a font PDFium lacks, a word of one letter in a text layer without glyphs)
    are made visible to it and the text read again (`unseen`); pages without such
    objects are read once."""
    frame = Frame.of(page)
    glyphs, text_objects, drawn_by = _text(path, page_no, page, frame, encodings)
    drawn = drawings(page, frame, text_objects)
    changed = make_visible(drawn.unseen, text_objects) if drawn.unseen else {}
    if changed:
        glyphs, _, drawn_by = _text(path, page_no, page, frame, encodings)
        restore(changed)
    if drawn.fills:
        glyphs = uncovered(glyphs, _painting_order(drawn_by, drawn.painted), drawn.fills,
                           partial(_invisible, drawn_by))
    width, height = frame.size
    return PageGlyphs(page_no, width, height, glyphs, drawn.rules, drawn.images)


def _invisible(drawn_by: npt.NDArray[np.uint64], glyphs: npt.NDArray[np.intp]
               ) -> npt.NDArray[np.bool_]:
    """Whether each glyph of ``glyphs`` (indexes) is drawn by a text object (of
    ``drawn_by``, the object of each glyph) in a render mode that paints nothing
    (`occlusion.INVISIBLE`): asked of the objects of the glyphs a fill covers only."""
    objects, back = np.unique(drawn_by[glyphs], return_inverse=True)
    modes = [text_render_mode(pointer(obj)) for obj in objects.tolist()]
    return np.isin(np.array(modes, dtype=np.intc), list(INVISIBLE))[back.reshape(-1)]


def _painting_order(drawn_by: npt.NDArray[np.uint64], painted: npt.NDArray[np.uint64]
                    ) -> npt.NDArray[np.int64]:
    """The place in ``painted`` (the page's objects in painting order) of the object
    that draws each glyph (``drawn_by``); one past the last for an object inside a form,
    which no fill is known to cover."""
    if not len(painted):
        return np.full(len(drawn_by), 0, dtype=np.int64)
    sorter = np.argsort(painted)
    at = np.minimum(np.searchsorted(painted, drawn_by, sorter=sorter), len(painted) - 1)
    found = painted[sorter[at]] == drawn_by
    return np.where(found, sorter[at], len(painted)).astype(np.int64)


def _text(path: Path, page_no: int, page: Any, frame: Frame, encodings: BuiltinEncodings
          ) -> tuple[Glyphs, npt.NDArray[np.uint64], npt.NDArray[np.uint64]]:
    """The glyphs of a loaded page, the text objects that draw them (addresses,
    sorted) and the one that draws each, read from a text page opened and closed
    here."""
    textpage = pdfium_c.FPDFText_LoadPage(page)
    if not textpage:
        raise DocumentError(
            f"{path}: page {page_no} cannot be read (PDFium cannot read its text)")
    try:
        return TextReader(textpage, frame, encodings).glyphs()
    finally:
        pdfium_c.FPDFText_ClosePage(textpage)


