"""Words in link annotations: each word a link covers takes its address.

A word stands in a link when the centre of its box lies in the link's box (a link's
box is drawn around the text it covers, a little larger; a word half in one is in
it).  Where two links cover one word the first in the page's annotations wins, as a
viewer opens the first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ..model import Link, Word

__all__ = ["linked"]


def linked(words: tuple[Word, ...], links: Sequence[Link]) -> tuple[Word, ...]:
    """``words`` with each one that stands in one of ``links`` given its address
    (`Word.link`); ``words`` themselves when the page has no links."""
    if not links:
        return words
    return tuple(_linked(word, links) for word in words)


def _linked(word: Word, links: Sequence[Link]) -> Word:
    x = (word.bbox.x0 + word.bbox.x1) / 2
    y = (word.bbox.top + word.bbox.bottom) / 2
    uri = next((link.uri for link in links if link.bbox.x0 <= x <= link.bbox.x1
                and link.bbox.top <= y <= link.bbox.bottom), "")
    return replace(word, link=uri) if uri else word
