"""Line typing: after reading order, every body line of a document gets a type
with DCR's codes -- table of contents (``toc``), whitespace-aligned table
(``tab``), heading (``h_1``...), bulleted or numbered list (``lb``, ``ln``) or
body (``b``); ruled tables are typed ``tab`` on request (:mod:`.tables`).  Running
headers and footers (``h``, ``f``) are typed before segmentation, by
:mod:`layoutkit.furniture`.

Each rule types only lines still typed body, in this order: ruled tables, contents,
aligned tables, headings, lists; so a contents entry is never a heading and a
heading never a list item.  Each is also a function ``Document, LayoutConfig ->
Document`` (``type_toc``...) that types it alone.  :func:`type_lines` types them all,
each page's part and the document's part apart (:mod:`.driver`), as
:func:`layoutkit.parse` does with pages kept in several processes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..config import LayoutConfig
from ..model import Document
from .driver import PageStep, PageTyping, line_types
from .headings import type_headings
from .lines import retyped
from .lists import type_lists
from .outline import Heading, outline
from .tables import type_aligned_tables
from .toc import type_toc

__all__ = ["Heading", "outline", "type_aligned_tables", "type_headings", "type_lines",
           "type_lists", "type_toc"]


def type_lines(document: Document, config: LayoutConfig) -> Document:
    """``document`` with its ruled tables (those it holds), contents, aligned tables,
    headings and lists typed."""
    pages = {p: PageTyping.of(page, p) for p, page in enumerate(document.pages)}

    def run(step: PageStep, given: object) -> Mapping[int, Any]:
        sent = {}
        for index, page in pages.items():
            pages[index], sent[index] = step(page, given, config)
        return sent

    return retyped(document, line_types(document, run, config))
