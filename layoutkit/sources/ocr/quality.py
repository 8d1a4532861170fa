"""How trustworthy a page's words are: the share a word list knows, and the share read as real.

- `dictionary_share`: the share of the words a word list knows.
- `read_share`: the share that read as real words, numbers included; the measure that
  compares a scan's text layer with tesseract's words (tesseract's confidence exists
  only for its own words).

The word lists of each language (`LANGUAGES`):

- Debian's `w*` lists (`wamerican`, `wngerman`, `wfrench`, `wspanish`, `witalian`,
  `wportuguese`, `wbrazilian`, `wdutch`, installed by `make setup`), read from
  `/usr/share/dict`;
- or a spaCy lookup table (`spacy:<table>`, from spacy-lookups-data: its inflected
  forms and their lemmas) for Greek and Russian, which have no Debian list, and for
  Spanish, whose Debian list has no plurals nor verb forms;
- each read on first use; a language without an installed list (Arabic, Hebrew,
  Chinese, Japanese, Korean) is left out of the share, its quality tesseract's
  confidence alone.

Words come as every source gives them, their letters in the order they stand on the
page; a right-to-left word is looked up in reading order (`visual_order`).
"""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

from ...model import visual_order
from .language import BY_CODE

__all__ = ["GARBAGE", "dictionary_share", "known_words", "read_share", "word_lists"]

DICT_DIR = Path("/usr/share/dict")

_SPACY = "spacy:"
"""The prefix of a word list that is a spaCy lookup table (its words are its keys)."""

_LETTERS = re.compile(r"[^\W\d_]{2,}")
"""A run of two or more letters: what is looked up (numbers and initials are not)."""


@lru_cache(maxsize=16)
def _list_words(name: str) -> frozenset[str] | None:
    """The case-folded words of one word list, None when it is not installed."""
    if name.startswith(_SPACY):
        try:
            import spacy_lookups_data  # type: ignore[import-untyped]
        except ImportError:
            return None
        path = Path(spacy_lookups_data.__file__).parent / "data" / \
            f"{name.removeprefix(_SPACY)}.json.gz"
        if not path.is_file():
            return None
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            table: dict[str, object] = json.load(fh)
        # a lemma table's forms and lemmas; a probability table's words
        return frozenset(w.casefold() for pair in table.items() for w in pair
                         if isinstance(w, str))
    path = DICT_DIR / name
    if not path.is_file():
        return None
    return frozenset(w.casefold() for w in
                     path.read_text(encoding="utf-8", errors="replace").split())


@lru_cache(maxsize=8)
def _lists(languages: str) -> tuple[tuple[str, ...], frozenset[str]]:
    """The names of the installed word lists of ``languages`` and their words."""
    found = {name: words for language in languages.split("+")
             for name in (BY_CODE[language].word_lists if language in BY_CODE else ())
             if (words := _list_words(name)) is not None}
    lists = list(found.values())
    return tuple(found), lists[0] if len(lists) == 1 else frozenset().union(*lists)


def known_words(languages: str) -> frozenset[str] | None:
    """The case-folded words of the installed word lists of ``languages`` (tesseract
    codes joined by ``+``), or None when none of them has a list installed."""
    names, words = _lists(languages)
    return words if names else None


def word_lists(languages: str) -> str | None:
    """The names of the installed word lists of ``languages`` joined by ``+``
    (``french``, ``spacy:ru_lemma_lookup``), None when there is none."""
    return "+".join(_lists(languages)[0]) or None


def dictionary_share(texts: Iterable[str], languages: str) -> float | None:
    """The share of the letter runs in ``texts`` that are words of ``languages``
    (None when no word list is installed for them, 0.0 when there is nothing to
    look up).  A hyphenated or punctuated word counts by its parts."""
    known = known_words(languages)
    if known is None:
        return None
    parts = [m.casefold() for text in texts for m in _LETTERS.findall(visual_order(text))]
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
    """Whether one word ``text`` reads as real: no `GARBAGE` character, a
    number (`_NUMBER`) or every letter run of two or more in ``known`` (any
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
    runs = _LETTERS.findall(visual_order(core))
    if not runs:
        return None
    return known is None or all(run.casefold() in known for run in runs)


def read_share(texts: Iterable[str], languages: str) -> float:
    """The share of the words ``texts`` that read as real (`word_reads`) in
    ``languages``' word lists (any letters when none is installed); 0.0 when no word
    can be judged.  It applies alike to a text layer and to tesseract's words, so the
    two are compared by it."""
    known = known_words(languages)
    judged = [r for text in texts if (r := word_reads(text, known)) is not None]
    return sum(judged) / len(judged) if judged else 0.0
