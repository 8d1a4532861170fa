"""A page's link annotations to web pages and mail, as PDFium reads them.

Each link annotation whose action opens an address (``/S /URI``) is kept when the
address is one of [`LINK_SCHEMES`][layoutkit.model.LINK_SCHEMES]
([`Link.kept`][layoutkit.model.Link.kept]), its rectangle turned into displayed
top-left points as the glyphs are (`Frame.box`); the pdfminer engine reads the same
annotations from the page's ``/Annots`` (`layoutkit.sources.pdfminer`).
"""

from __future__ import annotations

import ctypes
from typing import Any

from ...model import Link
from .bindings import pdfium_c
from .frame import Frame

__all__ = ["page_links"]


def page_links(document: Any, page: Any) -> tuple[Link, ...]:
    """The links of the loaded ``page`` of ``document`` that open an address of a kept
    scheme, in the order of the page's annotations; the rest (a place in the document,
    a program launched, a script) left out."""
    frame = Frame.of(page)
    found: list[Link] = []
    position = ctypes.c_int(0)
    link = pdfium_c.FPDF_LINK()
    while pdfium_c.FPDFLink_Enumerate(page, position, link):
        action = pdfium_c.FPDFLink_GetAction(link)
        if not action or pdfium_c.FPDFAction_GetType(action) != pdfium_c.PDFACTION_URI:
            continue
        size = int(pdfium_c.FPDFAction_GetURIPath(document, action, None, 0))
        rect = pdfium_c.FS_RECTF()
        if size <= 1 or not pdfium_c.FPDFLink_GetAnnotRect(link, rect):
            continue
        buffer = ctypes.create_string_buffer(size)
        pdfium_c.FPDFAction_GetURIPath(document, action, buffer, size)
        kept = Link.kept(frame.box(min(rect.left, rect.right), min(rect.bottom, rect.top),
                                   max(rect.left, rect.right), max(rect.bottom, rect.top)),
                         buffer.value.decode("utf-8", errors="replace"))
        if kept is not None:
            found.append(kept)
    return tuple(found)
