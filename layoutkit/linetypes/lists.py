"""Bulleted (``lb``) and numbered (``ln``) lists: item lines found by their
marker, chained into lists, with the lines that continue an item typed with it."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..config import LinetypesConfig
from ..model import Document, LineType, Value, Word
from .lines import Key, Typed, TypedLine, log, page_body_lines, retyped, style_of
from .sequence import is_successor

__all__ = ["ListMarks", "Mark", "Marker", "list_items", "list_lines", "list_marks", "marker",
           "type_lists"]

_BULLETS = frozenset("•-–—*▪◦●■□➢►·○◆◇♦❖➤‣⁃∙")
_NUMBERED = (
    ("(1)", re.compile(r"\((\d{1,3})\)"), "string_integers"),
    ("[1]", re.compile(r"\[(\d{1,3})\]"), "string_integers"),
    ("1.", re.compile(r"(\d{1,3})\."), "string_integers"),
    ("1)", re.compile(r"(\d{1,3})\)"), "string_integers"),
    ("(i)", re.compile(r"\(([ivxlc]{1,6})\)"), "romans"),
    ("i.", re.compile(r"([ivxlc]{1,6})[.)]"), "romans"),
    ("(a)", re.compile(r"\(([a-z])\)"), "lowercase_letters"),
    ("a.", re.compile(r"([a-z])[.)]"), "lowercase_letters"),
    ("(A)", re.compile(r"\(([A-Z])\)"), "uppercase_letters"),
    ("A.", re.compile(r"([A-Z])[.)]"), "uppercase_letters"),
)
"""Numbered markers: a style name, the first word's pattern and DCR's comparison
function.  Roman numerals come before letters: ``(i)`` starts a Roman list, and a
letter list reaching ``(i)`` continues by its own chain."""
_DASHES = frozenset("-–—")
_DASHED = (
    ("1 —", re.compile(r"\d{1,3}"), "string_integers"),
    ("I —", re.compile(r"[IVXLC]{1,6}"), "romans"),
)
"""Numbers set apart from the item's text by a dash (``1 — text``, ``IV - text``,
as Portuguese and Brazilian acts number their paragraphs and items): a style name,
the first word's pattern and DCR's comparison function."""
_STARTS = frozenset({"1", "i", "a", "A", "I"})


@dataclass(frozen=True, slots=True)
class Marker(Value):
    """What starts a list item: bullet (``style`` is the bullet) or number."""

    style: str
    value: str
    function: str

    @property
    def bulleted(self) -> bool:
        return self.function == ""


def marker(words: Sequence[Word]) -> Marker | None:
    """The list marker a line whose ``words`` these are starts with, if any (a typed
    line's :attr:`~TypedLine.kept_words`, or a line's words as they stand).

    A bullet is one of the usual bullet characters, or a lone character first word
    set in a font that no other word of the line uses, no larger than they are
    (word processors draw bullets from symbol fonts, whose codes read as "!", "§"
    or "á"); a number is one of :data:`_NUMBERED`, or of :data:`_DASHED` before a
    dash."""
    if len(words) < 2:
        return None
    first = words[0].text
    if first in _BULLETS:
        return Marker(first, first, "")
    if (len(first) == 1 and first not in "([\"'“‘"
            and words[0].font not in {w.font for w in words[1:]}
            and words[0].size <= max(w.size for w in words[1:])):
        return Marker(first, first, "")
    for style, pattern, function in _NUMBERED:
        found = pattern.fullmatch(first)
        if found:
            return Marker(style, found[1], function)
    if len(words) > 2 and words[1].text in _DASHES:
        for style, pattern, function in _DASHED:
            if pattern.fullmatch(first):
                return Marker(style, first, function)
    return None


@dataclass(frozen=True, slots=True)
class Mark(Value):
    """A body line that starts with a list marker, with what chaining it to the items
    before it needs: the run of consecutive body lines of one block it stands in and
    the run the body line before it stands in, each named by its first line (and its
    page number and text, for the log)."""

    key: Key
    marker: Marker
    page_no: int
    text: str
    run: Key
    after: Key | None
    """None for the first body line of its page: the run is then that of the last body
    line of the pages before."""


@dataclass(frozen=True, slots=True)
class ListMarks(Value):
    """The list markers of one page's body lines, and the run its last body line stands
    in (None when it has no body line): what chaining items across pages needs."""

    marks: tuple[Mark, ...]
    last: Key | None


def list_marks(lines: Sequence[TypedLine]) -> ListMarks:
    """The :class:`ListMarks` of one page's body ``lines``."""
    runs: list[Key] = []
    for k, item in enumerate(lines):
        runs.append(runs[-1] if k and _continues(lines, k - 1, k) else item.key)
    marks = tuple(Mark(item.key, found, item.line.page_no, item.line.text, runs[k],
                       runs[k - 1] if k else None)
                  for k, item in enumerate(lines) if (found := marker(item.kept_words)) is not None)
    return ListMarks(marks, runs[-1] if runs else None)


def list_items(pages: Sequence[ListMarks], config: LinetypesConfig) -> dict[Key, Typed]:
    """The item lines of the document's lists, typed ``lb`` (bulleted) or ``ln``
    (numbered), from the :func:`list_marks` of each page in order.

    Items chain into a list when each numbered marker directly follows the one
    before in the same style (``(1)`` -> ``(2)``, ``a.`` -> ``b.``; a chain starts at
    1, a, A or i) or, for bullets, when the lines between two items all continue the
    first one (stand in its block), across a page break too.  Chains of at least
    ``lt_list_min_entries`` items are lists.
    """
    chains: list[list[Mark]] = []
    open_numbered: dict[str, list[Mark]] = {}
    last_bullet: list[Mark] | None = None
    before: Key | None = None
    for page in pages:
        for mark in page.marks:
            found = mark.marker
            if found.bulleted:
                if last_bullet and last_bullet[-1].marker == found and last_bullet[-1].run == (
                        before if mark.after is None else mark.after):
                    last_bullet.append(mark)
                else:
                    last_bullet = [mark]
                    chains.append(last_bullet)
                continue
            chain = open_numbered.get(found.style)
            if chain and is_successor(found.function, chain[-1].marker.value, found.value):
                chain.append(mark)
            elif found.value in _STARTS:
                open_numbered[found.style] = [mark]
                chains.append(open_numbered[found.style])
        before = page.last if page.last is not None else before
    decisions: dict[Key, Typed] = {}
    for chain in chains:
        if len(chain) < config.lt_list_min_entries:
            continue
        kind = LineType.LIST_BULLET if chain[0].marker.bulleted else LineType.LIST_NUMBER
        log.info("page %d: %s list of %d items from %r", chain[0].page_no, kind.value,
                 len(chain), chain[0].text)
        decisions.update((mark.key, Typed(kind)) for mark in chain)
    return decisions


def list_lines(lines: Sequence[TypedLine], marks: ListMarks,
               items: Mapping[Key, Typed]) -> dict[Key, Typed]:
    """The list lines of one page: its body ``lines`` that are ``items`` (of
    :func:`list_items`), and after each the lines that continue it, up to the next
    marked line (of ``marks``) or the first line that does not go on as the item's
    text (:func:`_goes_on`), typed as the item."""
    marked = {mark.key for mark in marks.marks}
    decisions: dict[Key, Typed] = {}
    for k, item in enumerate(lines):
        typed = items.get(item.key)
        if typed is None:
            continue
        decisions[item.key] = typed
        j = k + 1
        while (j < len(lines) and lines[j].key not in marked and _continues(lines, k, j)
               and _goes_on(lines, k, j)):
            decisions[lines[j].key] = typed
            j += 1
    return decisions


_INDENT_TOLERANCE_EM = 0.5
"""An item's next lines start within this many ems of each other."""
_SIZE_TOLERANCE_PT = 0.5
"""An item's next lines are set within this many points of its size (a scan's text
layer gives the lines of one font slightly different sizes)."""


def _goes_on(lines: Sequence[TypedLine], item: int, later: int) -> bool:
    """Whether line ``later`` goes on as the text of the item line ``item`` (the lines
    between them doing so): set in the item's style (a change of font is code, a
    table or a heading after the list) and, after the item's second line, starting
    where that line does (a change of indentation is a new paragraph)."""
    size, bold = style_of(lines[later])
    marked = lines[item]
    if abs(size - style_of(marked)[0]) > _SIZE_TOLERANCE_PT or bold != all(
            w.bold for w in marked.kept_words[1:]):
        return False
    second = lines[item + 1].line
    return later == item + 1 or abs(lines[later].line.bbox.x0 - second.bbox.x0) <= (
        _INDENT_TOLERANCE_EM * second.size)


def type_lists(document: Document, config: LinetypesConfig) -> Document:
    """``document`` with its list items typed ``lb`` (bulleted) or ``ln`` (numbered),
    with the lines that continue an item (same block, before the next marker): see
    :func:`list_items`."""
    pages = [page_body_lines(page, p) for p, page in enumerate(document.pages)]
    marks = [list_marks(lines) for lines in pages]
    items = list_items(marks, config)
    decisions: dict[Key, Typed] = {}
    for lines, page_marks in zip(pages, marks, strict=True):
        decisions.update(list_lines(lines, page_marks, items))
    return retyped(document, decisions)


def _continues(lines: Sequence[TypedLine], item: int, later: int) -> bool:
    """Whether line ``later`` stands in the same block as the item line ``item``."""
    a, b = lines[item].line, lines[later].line
    return (lines[item].key[0], a.band, a.column, a.block) == (
        lines[later].key[0], b.band, b.column, b.block)
