"""Table of contents: on one of the first pages, a run of entries that end in
ascending page numbers (dot leaders allowed), or that begin with ascending section
numbers of more than one level (``1``, ``1.1``, ``2``...), as printed web pages and
many reports list their contents without page numbers."""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise

from ..config import LinetypesConfig
from ..model import Document, LineType, Page
from .lines import Key, Typed, TypedLine, log, page_body_lines, retyped
from .sequence import roman_value

__all__ = ["is_first_page", "type_toc"]

_ENTRY_END = re.compile(r"(?:\.\s*){2,}\s*(\d+)$|\s(\d+)$|^(\d+)$")
_SECTION = re.compile(r"\d{1,3}(?:\.\d{1,3})*\.?")
"""A section number: ``4``, ``4.2``, ``4.2.1.``; at most three digits a part, so that
a year or an amount opening a line is none."""
_ARABIC = re.compile(r"[0-9]+")
"""A page label in arabic numerals."""
_MAX_WRAPPED = 1
"""Lines that may stand between two entries numbered by section: a title wrapped
onto a second line, or an entry whose number did not read (OCR)."""

Span = tuple[int, int]
"""The first and last index of a page's contents among its body lines."""


def is_first_page(page: Page, config: LinetypesConfig) -> bool:
    """Whether ``page`` is one of the first ``toc_last_page`` pages, where contents
    stand: by its place in the file, or by the number the document gives it (its
    :attr:`~layoutkit.model.Page.label`).  Front matter numbered in Roman numerals
    comes before the text, and a page labelled 1 to ``toc_last_page`` is one of the
    first pages of the text: a contents page after a title page and a foreword
    numbered i, ii, iii is labelled 1."""
    label = page.label
    last = config.toc_last_page
    return (page.page_no <= last or roman_value(label) is not None
            or (_ARABIC.fullmatch(label) is not None and int(label) <= last))


def type_toc(document: Document, config: LinetypesConfig) -> Document:
    """``document`` with its table of contents typed ``toc``.

    On each of the first pages (:func:`is_first_page`) the contents are the lines
    from the first entry to the last (with the titles and leaders between them that a
    layout split off their numbers) of a list of at least ``toc_min_entries``
    entries: lines ending in page numbers (:func:`_by_page_number`), or lines opening
    with section numbers (:func:`_by_section_number`).
    """
    decisions: dict[Key, Typed] = {}
    for p, page in enumerate(document.pages):
        if not is_first_page(page, config):
            continue
        items = page_body_lines(page, p)
        spans = [*_by_page_number(items, document.page_count, config),
                 *_by_section_number(items, config)]
        for first, last in spans:
            log.info("page %d: table of contents from %r to %r", page.page_no,
                     items[first].line.text, items[last].line.text)
            decisions.update((item.key, Typed(LineType.TOC)) for item in items[first:last + 1])
    return retyped(document, decisions)


def _page_number(words: tuple[str, ...], page_count: int) -> int | None:
    """The page number a contents entry ends with (at most the page count)."""
    found = _ENTRY_END.search(" ".join(words))
    if found is None:
        return None
    number = int(next(g for g in found.groups() if g))
    return number if 1 <= number <= page_count else None


def _by_page_number(items: Sequence[TypedLine], page_count: int,
                    config: LinetypesConfig) -> list[Span]:
    """The contents of one page's lines by DCR's rule: the lines ending in a page
    number no larger than the page count are entries; at least ``toc_min_entries`` of
    them, most of them ascending (each no smaller than the one before)."""
    numbers = [_page_number(item.words, page_count) for item in items]
    entries = [k for k, n in enumerate(numbers) if n is not None]
    ascending = sum(1 for a, b in pairwise(entries) if (numbers[b] or 0) >= (numbers[a] or 0))
    fewest = config.toc_min_entries
    if (len(entries) < fewest or ascending + 1 < fewest
            or 2 * ascending < len(entries) - 1):
        return []
    return [(entries[0], entries[-1])]


def _section_number(words: tuple[str, ...]) -> tuple[int, ...] | None:
    """The section number a line opens with, after a bullet if any (a first word with
    no letter or digit), when a title follows it: ``• 4.2 Character recognition`` ->
    ``(4, 2)``."""
    start = 1 if words and not any(c.isalnum() for c in words[0]) else 0
    if (len(words) < start + 2 or not _SECTION.fullmatch(words[start])
            or not any(c.isalpha() for w in words[start + 1:] for c in w)):
        return None
    return tuple(int(part) for part in words[start].rstrip(".").split("."))


def _by_section_number(items: Sequence[TypedLine], config: LinetypesConfig) -> list[Span]:
    """The contents of one page's lines numbered by section: runs of at least
    ``toc_min_entries`` lines opening with section numbers, each larger than the one
    before (``4`` < ``4.1`` < ``4.2`` < ``5``), at most :data:`_MAX_WRAPPED` lines
    apart, with numbers of more than one level.

    Numbered headings in the text stand paragraphs apart, and the items of a
    numbered list count up on one level, so neither is taken for contents."""
    runs: list[list[tuple[int, tuple[int, ...]]]] = []
    for k, item in enumerate(items):
        # the line's own words: chapter numbers 1, 2, 3... down a contents page count
        # up like a bill's margin line numbers, which ``item.words`` leaves out
        number = _section_number(tuple(w.text for w in item.line.words))
        if number is None:
            continue
        if runs and k - runs[-1][-1][0] <= _MAX_WRAPPED + 1 and number > runs[-1][-1][1]:
            runs[-1].append((k, number))
        else:
            runs.append([(k, number)])
    return [(run[0][0], run[-1][0]) for run in runs
            if len(run) >= config.toc_min_entries and len({len(n) for _, n in run}) > 1]
