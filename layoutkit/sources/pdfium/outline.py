"""A document's outline (its bookmarks) and page labels, as PDFium reads them.

- The outline's tree is walked depth first, each entry once (a broken file's
  bookmarks may point back to an ancestor), no further than
  [`OUTLINE_MAX_ENTRIES`][layoutkit.sources.base.OUTLINE_MAX_ENTRIES].
- An entry's destination is its own ``/Dest`` or its ``/GoTo`` action's; its page is
  where the destination points, and its height the ``top`` of ``/XYZ``, ``/FitH``,
  ``/FitBH`` or ``/FitR``, displayed as the page shows it (`destination_top`); a
  page too heavy to open unguarded (`layoutkit.sources.guard`) is not opened for it.
- Each page's label is ``FPDF_GetPageLabel``'s.
"""

from __future__ import annotations

import ctypes
from collections.abc import Collection
from typing import Any

from ...model import OutlineEntry
from ..base import OUTLINE_MAX_ENTRIES, destination_top
from .bindings import pdfium_c
from .frame import Frame

__all__ = ["outline", "page_label"]

_TOPS = {pdfium_c.PDFDEST_VIEW_FITH: 0, pdfium_c.PDFDEST_VIEW_FITBH: 0}
"""Where the height stands among the parameters of a destination that gives it
beside ``/XYZ`` (its second) and ``/FitR`` (the higher of its second and fourth)."""


def page_label(document: Any, page_no: int) -> str:
    """The label the PDF's ``/PageLabels`` give page ``page_no`` (1-based), empty
    when it has none."""
    size = int(pdfium_c.FPDF_GetPageLabel(document, page_no - 1, None, 0))
    if size <= 2:  # nothing, or only the UTF-16 terminator
        return ""
    buffer = ctypes.create_string_buffer(size)
    pdfium_c.FPDF_GetPageLabel(document, page_no - 1, buffer, size)
    return buffer.raw[:size - 2].decode("utf-16-le", errors="replace")


def outline(document: Any, heavy: Collection[int] = ()) -> tuple[OutlineEntry, ...]:
    """The outline of the open PDFium ``document``, entries in order (see the module's
    list); empty when it has none.  The ``heavy`` pages (1-based) are not loaded: their
    entries give no height."""
    entries: list[OutlineEntry] = []
    frames: dict[int, Frame | None] = {}
    seen: set[int] = set()
    stack = [(pdfium_c.FPDFBookmark_GetFirstChild(document, None), 1)]
    while stack and len(entries) < OUTLINE_MAX_ENTRIES:
        bookmark, level = stack.pop()
        if not bookmark or (address := ctypes.addressof(bookmark.contents)) in seen:
            continue
        seen.add(address)
        # the next sibling waits under the first child, which is walked first
        stack.append((pdfium_c.FPDFBookmark_GetNextSibling(document, bookmark), level))
        stack.append((pdfium_c.FPDFBookmark_GetFirstChild(document, bookmark), level + 1))
        page_no, top = _destination(document, bookmark, frames, heavy)
        entries.append(OutlineEntry(_title(bookmark), level, page_no, top))
    return tuple(entries)


def _title(bookmark: Any) -> str:
    """A bookmark's title."""
    size = int(pdfium_c.FPDFBookmark_GetTitle(bookmark, None, 0))
    if size <= 2:
        return ""
    buffer = ctypes.create_string_buffer(size)
    pdfium_c.FPDFBookmark_GetTitle(bookmark, buffer, size)
    return buffer.raw[:size - 2].decode("utf-16-le", errors="replace")


def _destination(document: Any, bookmark: Any, frames: dict[int, Frame | None],
                 heavy: Collection[int]) -> tuple[int | None, float | None]:
    """The page (1-based) a bookmark points to and how far down it (None where it
    does not say, or on a ``heavy`` page), the frames of the pages met kept in
    ``frames``."""
    dest = pdfium_c.FPDFBookmark_GetDest(document, bookmark)
    if not dest:
        action = pdfium_c.FPDFBookmark_GetAction(bookmark)
        if not action or pdfium_c.FPDFAction_GetType(action) != pdfium_c.PDFACTION_GOTO:
            return None, None
        dest = pdfium_c.FPDFAction_GetDest(document, action)
        if not dest:
            return None, None
    index = int(pdfium_c.FPDFDest_GetDestPageIndex(document, dest))
    if not 0 <= index < int(pdfium_c.FPDF_GetPageCount(document)):
        return None, None
    y = _height(dest)
    if y is None or index + 1 in heavy:
        return index + 1, None
    if index not in frames:
        page = pdfium_c.FPDF_LoadPage(document, index)
        frames[index] = Frame.of(page) if page else None
        if page:
            pdfium_c.FPDF_ClosePage(page)
    frame = frames[index]
    return index + 1, None if frame is None else destination_top(y, frame.visible,
                                                                  frame.rotate)


def _height(dest: Any) -> float | None:
    """The user-space height a destination points to, None where it gives none."""
    count = ctypes.c_ulong()
    params = (pdfium_c.FS_FLOAT * 4)()
    view = int(pdfium_c.FPDFDest_GetView(dest, count, params))
    if view == pdfium_c.PDFDEST_VIEW_XYZ:
        has = [ctypes.c_int() for _ in range(3)]
        x, y, zoom = (pdfium_c.FS_FLOAT() for _ in range(3))
        if not pdfium_c.FPDFDest_GetLocationInPage(dest, *has, x, y, zoom) or not has[1].value:
            return None
        return float(y.value)
    if view in _TOPS and count.value > _TOPS[view]:
        return float(params[_TOPS[view]])
    if view == pdfium_c.PDFDEST_VIEW_FITR and count.value == 4:
        return float(max(params[1], params[3]))
    return None
