"""How trustworthy a page's words are: the share of them a word list knows.

The word lists are Debian's (``wamerican``, ``wngerman``, ``wfrench``,
``wspanish``, ``witalian``, installed by ``make setup``), read from
``/usr/share/dict`` on first use; a language without an installed list is left
out of the share.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

__all__ = ["WORD_LISTS", "dictionary_share", "known_words"]

DICT_DIR = Path("/usr/share/dict")

WORD_LISTS: dict[str, tuple[str, ...]] = {
    "eng": ("american-english", "british-english"),
    "deu": ("ngerman",),
    "fra": ("french",),
    "spa": ("spanish",),
    "ita": ("italian",),
}
"""Tesseract language code -> the Debian word lists (file names) of that language."""

_LETTERS = re.compile(r"[^\W\d_]{2,}")
"""A run of two or more letters: what is looked up (numbers and initials are not)."""


@lru_cache(maxsize=8)
def known_words(languages: str) -> frozenset[str] | None:
    """The case-folded words of the installed word lists of ``languages`` (tesseract
    codes joined by ``+``), or None when none of them has a list installed."""
    words: set[str] = set()
    found = False
    for language in languages.split("+"):
        for name in WORD_LISTS.get(language, ()):
            path = DICT_DIR / name
            if path.is_file():
                found = True
                words.update(w.casefold() for w in
                             path.read_text(encoding="utf-8", errors="replace").split())
    return frozenset(words) if found else None


def dictionary_share(texts: Iterable[str], languages: str) -> float | None:
    """The share of the letter runs in ``texts`` that are words of ``languages``
    (None when no word list is installed for them, 0.0 when there is nothing to
    look up).  A hyphenated or punctuated word counts by its parts."""
    known = known_words(languages)
    if known is None:
        return None
    parts = [m.casefold() for text in texts for m in _LETTERS.findall(text)]
    if not parts:
        return 0.0
    return sum(part in known for part in parts) / len(parts)
