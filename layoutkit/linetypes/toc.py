"""Table of contents: on one of the first pages, a run of entries that end in
ascending page numbers (dot leaders allowed)."""

from __future__ import annotations

import re
from itertools import pairwise

from ..config import LayoutConfig
from ..model import Document, LineType
from .lines import Key, Typed, TypedLine, body_lines, log, retyped

__all__ = ["type_toc"]

_ENTRY_END = re.compile(r"(?:\.\s*){2,}\s*(\d+)$|\s(\d+)$|^(\d+)$")


def _page_number(words: tuple[str, ...], page_count: int) -> int | None:
    """The page number a contents entry ends with (at most the page count)."""
    found = _ENTRY_END.search(" ".join(words))
    if found is None:
        return None
    number = int(next(g for g in found.groups() if g))
    return number if 1 <= number <= page_count else None


def type_toc(document: Document, config: LayoutConfig) -> Document:
    """``document`` with its table of contents typed ``toc``.

    On each of the pages 1 to ``toc_last_page``, the lines that end in a page
    number no larger than the page count are entries; when at least
    ``toc_min_entries`` of them, most of them ascending (each no smaller than the one
    before), the
    lines from the first entry to the last, with the titles and leaders between
    them that a layout split off their numbers, are the contents.
    """
    decisions: dict[Key, Typed] = {}
    by_page: dict[int, list[TypedLine]] = {}
    for item in body_lines(document):
        if document.pages[item.key[0]].page_no <= config.toc_last_page:
            by_page.setdefault(item.key[0], []).append(item)
    for page, items in by_page.items():
        numbers = [_page_number(item.words, document.page_count) for item in items]
        entries = [k for k, n in enumerate(numbers) if n is not None]
        ascending = sum(1 for a, b in pairwise(entries)
                        if (numbers[b] or 0) >= (numbers[a] or 0))
        if (len(entries) < config.toc_min_entries or ascending + 1 < config.toc_min_entries
                or 2 * ascending < len(entries) - 1):
            continue
        log.info("page %d: table of contents, %d entries with ascending page numbers",
                 document.pages[page].page_no, len(entries))
        for item in items[entries[0]: entries[-1] + 1]:
            decisions[item.key] = Typed(LineType.TOC)
    return retyped(document, decisions)
