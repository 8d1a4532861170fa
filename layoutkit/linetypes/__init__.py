"""Line typing: after reading order, every body line of a document gets a type
with DCR's codes -- table of contents (``toc``), whitespace-aligned table
(``tab``), heading (``h_1``...), bulleted or numbered list (``lb``, ``ln``) or
body (``b``); ruled tables are typed ``tab`` on request (:mod:`.tables`).  Running
headers and footers (``h``, ``f``) are typed before segmentation, by
:mod:`layoutkit.furniture`.

Each stage is a function ``Document, LayoutConfig -> Document`` that types only
lines still typed body, so a contents entry is never a heading and a heading never
a list item; :func:`type_lines` runs them in that order.
"""

from __future__ import annotations

from ..config import LayoutConfig
from ..model import Document
from .headings import type_headings
from .lists import type_lists
from .outline import Heading, outline
from .tables import type_aligned_tables
from .toc import type_toc

__all__ = ["Heading", "outline", "type_aligned_tables", "type_headings", "type_lines",
           "type_lists", "type_toc"]


def type_lines(document: Document, config: LayoutConfig) -> Document:
    """``document`` with its contents, aligned tables, headings and lists typed."""
    for stage in (type_toc, type_aligned_tables, type_headings, type_lists):
        document = stage(document, config)
    return document
