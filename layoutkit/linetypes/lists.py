"""Bulleted (``lb``) and numbered (``ln``) lists: item lines found by their
marker, chained into lists, with the lines that continue an item typed with it."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..config import LayoutConfig
from ..model import Document, LineType
from .lines import Key, Typed, TypedLine, body_lines, log, retyped
from .sequence import is_successor

__all__ = ["Marker", "marker", "type_lists"]

_BULLETS = frozenset("•-–—*▪◦●■□➢►·○")
_NUMBERED = (
    ("(1)", re.compile(r"\((\d{1,3})\)"), "string_integers"),
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
_STARTS = frozenset({"1", "i", "a", "A"})


@dataclass(frozen=True, slots=True)
class Marker:
    """What starts a list item: bullet (``style`` is the bullet) or number."""

    style: str
    value: str
    function: str

    @property
    def bulleted(self) -> bool:
        return self.function == ""


def marker(item: TypedLine) -> Marker | None:
    """The list marker a line starts with, if any.

    A bullet is one of the usual bullet characters, or a lone non-alphanumeric
    first word set in another font than the rest of the line (word processors
    draw bullets from symbol fonts, whose codes read as "!" or "§")."""
    words = item.words
    if len(words) < 2:
        return None
    first = words[0]
    if first in _BULLETS:
        return Marker(first, first, "")
    fonts = [w.font for w in item.line.words]
    if (len(first) == 1 and not first.isalnum() and first not in "([\"'“‘"
            and fonts[-len(words)] != fonts[-1]):
        return Marker(first, first, "")
    for style, pattern, function in _NUMBERED:
        found = pattern.fullmatch(first)
        if found:
            return Marker(style, found[1], function)
    return None


def type_lists(document: Document, config: LayoutConfig) -> Document:
    """``document`` with its list items typed ``lb`` (bulleted) or ``ln`` (numbered).

    Items chain into a list when each numbered marker directly follows the one
    before in the same style (``(1)`` -> ``(2)``, ``a.`` -> ``b.``; a chain starts at
    1, a, A or i) or, for bullets, when the lines between two items all continue the
    first one.  A line continues an item when it stands in the item's block (same
    column, no unusual gap) before the next marker.  Chains of at least
    ``lt_list_min_entries`` items are lists.
    """
    lines = body_lines(document)
    markers = [marker(item) for item in lines]
    chains: list[list[int]] = []
    open_numbered: dict[str, list[int]] = {}
    last_bullet: list[int] | None = None
    for k, found in enumerate(markers):
        if found is None:
            continue
        if found.bulleted:
            if last_bullet is not None and markers[last_bullet[-1]] == found and all(
                    _continues(lines, last_bullet[-1], j) for j in range(last_bullet[-1] + 1, k)):
                last_bullet.append(k)
            else:
                last_bullet = [k]
                chains.append(last_bullet)
            continue
        chain = open_numbered.get(found.style)
        previous = markers[chain[-1]] if chain else None
        if chain and previous and is_successor(found.function, previous.value, found.value):
            chain.append(k)
        elif found.value in _STARTS:
            open_numbered[found.style] = [k]
            chains.append(open_numbered[found.style])
    decisions: dict[Key, Typed] = {}
    for chain in chains:
        if len(chain) < config.lt_list_min_entries:
            continue
        first = markers[chain[0]]
        assert first is not None
        kind = LineType.LIST_BULLET if first.bulleted else LineType.LIST_NUMBER
        log.info("page %d: %s list of %d items from %r", lines[chain[0]].line.page_no,
                 kind.value, len(chain), lines[chain[0]].line.text)
        for k in chain:
            decisions[lines[k].key] = Typed(kind)
            j = k + 1
            while j < len(lines) and markers[j] is None and _continues(lines, k, j):
                decisions[lines[j].key] = Typed(kind)
                j += 1
    return retyped(document, decisions)


def _continues(lines: list[TypedLine], item: int, later: int) -> bool:
    """Whether line ``later`` stands in the same block as the item line ``item``."""
    a, b = lines[item].line, lines[later].line
    return (lines[item].key[0], a.band, a.column, a.block) == (
        lines[later].key[0], b.band, b.column, b.block)
