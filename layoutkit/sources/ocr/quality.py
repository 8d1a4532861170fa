"""How trustworthy a page's words are: the share of them a word list knows
(:func:`dictionary_share`), and the share of them that read as real words, numbers
included (:func:`read_share`), the measure that compares a scan's text layer with
tesseract's words (tesseract's confidence exists only for its own words).

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

__all__ = ["GARBAGE", "WORD_LISTS", "dictionary_share", "known_words", "read_share"]

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


GARBAGE = frozenset("|[]{}~^\\_<>`¦¬\ufffd")
"""Characters that in a page's words are nearly always OCR noise (a ruling line or a
box side read as ``|``, ``]``, ``_``, a speck as ``~``), rarely print."""

_NUMBER = re.compile(r"[(\[]?[-+±$€£]?\d+(?:[.,:/\-–]\d+)*(?:st|nd|rd|th|s)?[%)]?")
"""A number as printed: 12, 1-1, 3.5%, 12:30, 1,256, $5, 21st, 1970s."""

_MIXED = re.compile(r"(?=\w*\d)(?=\w*[^\W\d_])\w+")
"""A run of letters and digits together (``4b``, ``F244``, ``l0``): a misread."""

_EDGES = "\"'“”‘’«»()[]{}.,;:!?*•·-–—/"
"""Punctuation a word may carry around it (quotes, brackets, sentence marks)."""


def word_reads(text: str, known: frozenset[str] | None) -> bool | None:
    """Whether one word ``text`` reads as real: no :data:`GARBAGE` character, a
    number (:data:`_NUMBER`) or every letter run of two or more in ``known`` (any
    letters when ``known`` is None); never letters and digits run together, nor
    digits broken by other marks.  None for
    punctuation alone or a single letter (``&``, ``-``, ``I``): not judged."""
    if any(c in GARBAGE for c in text):
        return False
    core = text.strip(_EDGES)
    if _NUMBER.fullmatch(core) or _NUMBER.fullmatch(text):
        return True
    if _MIXED.search(core) or (any(c.isdigit() for c in core) and not _LETTERS.search(core)):
        return False  # 4b, F244; 5&5, 2)]4
    runs = _LETTERS.findall(core)
    if not runs:
        return None
    return known is None or all(run.casefold() in known for run in runs)


def read_share(texts: Iterable[str], languages: str) -> float:
    """The share of the words ``texts`` that read as real (:func:`word_reads`) in
    ``languages``' word lists (any letters when none is installed); 0.0 when no word
    can be judged.  It applies alike to a text layer and to tesseract's words, so the
    two are compared by it."""
    known = known_words(languages)
    judged = [r for text in texts if (r := word_reads(text, known)) is not None]
    return sum(judged) / len(judged) if judged else 0.0
