"""How trustworthy a page's words are: the share a word list knows, and the share read as real.

- `dictionary_share`: the share of the words a word list knows.
- `read_share`: the share that read as real words, numbers included; the measure that
  judges a scan's text layer (`scanned.judge_layer`) and compares it with tesseract's words
  (tesseract's confidence exists only for its own words).
- `may_read`: whether a count of words reading so leaves room for a layer that reads: a
  share of forty words is judged less surely than one of four hundred.
- `listed_share`: the share of letter runs that are words of the lists, or words of
  them run together (``ofthe``, ``Donaudampfschiff``): a run not listed that splits
  into two or three listed words reads (`split_words` says how).

The word lists of each language (`LANGUAGES`):

- Debian's `w*` lists (`wamerican`, `wngerman`, `wfrench`, `wspanish`, `witalian`,
  `wportuguese`, `wbrazilian`, `wdutch`, installed by `make setup`), read from
  `/usr/share/dict`;
- or a spaCy lookup table (`spacy:<table>`, from spacy-lookups-data: its inflected
  forms and their lemmas) for Greek and Russian, which have no Debian list, and for
  Spanish, whose Debian list has no plurals nor verb forms;
- each read on first use; a language without an installed list (Arabic, Hebrew,
  Chinese, Japanese, Korean) is left out of the dictionary share, its quality
  tesseract's confidence alone, and its words read as real where their letters are of
  its script (`scripts`).

Words come as every source gives them, their letters in the order they stand on the
page; a right-to-left word is looked up in reading order (`visual_order`).
"""

from __future__ import annotations

import gzip
import math
import re
import unicodedata
from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path

from ...model import visual_order
from .known import BY_CODE

__all__ = ["GARBAGE", "dictionary_share", "known_words", "listed_share", "may_read",
           "read_counts", "read_share", "scripts", "split_words", "word_lists"]

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
        import srsly  # type: ignore[import-untyped]  # spaCy's JSON reader, faster than json

        with gzip.open(path, "rb") as fh:
            table: dict[str, object] = srsly.json_loads(fh.read())
        # a lemma table's forms and lemmas; a probability table's words
        lemmas = (value for value in table.values() if isinstance(value, str))
        return frozenset(map(str.casefold, table)).union(map(str.casefold, lemmas))
    path = DICT_DIR / name
    if not path.is_file():
        return None
    return frozenset(path.read_text(encoding="utf-8", errors="replace").casefold().split())


_VOWELS = frozenset("aeiouyäöüàâéèêëîïôûùÿæœåøáíóúãõ")
_ROMAN = frozenset("ivxlcdm")


_SHORT_ENTRY = re.compile(r"^[^\W\d_]{2,3}$", re.MULTILINE)
"""An entry of two or three letters in a word list, one entry a line."""


@lru_cache(maxsize=16)
def _list_short_words(name: str) -> frozenset[str]:
    """The words of two or three letters that one word list spells in lower case, with a
    vowel and not a roman numeral's letters alone: the language's short common words
    (``of``, ``the``, ``und``), not its abbreviations, numerals and names (``cc``,
    ``ii``, ``Ac``), nor a spaCy table's (its keys are not cased as written).  Found by
    one scan of the file, without making the list's whole set (`_list_words`)."""
    if name.startswith(_SPACY):
        return frozenset()
    path = DICT_DIR / name
    if not path.is_file():
        return frozenset()
    text = path.read_text(encoding="utf-8", errors="replace")
    return frozenset(w for w in _SHORT_ENTRY.findall(text)
                     if w.islower() and not _VOWELS.isdisjoint(w) and not set(w) <= _ROMAN)


def _installed_lists(languages: str) -> tuple[str, ...]:
    """The names of the installed word lists of ``languages`` (without reading them)."""
    return tuple(name for language in languages.split("+")
                 for name in (BY_CODE[language].word_lists if language in BY_CODE else ())
                 if (name.startswith(_SPACY) or (DICT_DIR / name).is_file()))


@lru_cache(maxsize=8)
def _short(languages: str) -> frozenset[str]:
    """The short common words (`_list_short_words`) of the word lists of ``languages``."""
    return frozenset().union(*(_list_short_words(name) for name in _installed_lists(languages)))


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


_SPLIT_MIN = 4
"""Fewest letters of a part of a split word that is not a short common word: a run of
letters splits only into listed words of four letters or more and short common words
(`_list_short_words`), so that noise such as ``iiii`` or ``ddcc`` does not split into
abbreviations and numerals."""


def split_words(run: str, known: frozenset[str], short: frozenset[str]) -> tuple[str, ...] | None:
    """The two or three listed words the case-folded letter run ``run`` is made of
    (the longest first part first), or None when it is no such run: each part a word
    of ``known`` of at least `_SPLIT_MIN` letters or a short common word of ``short``.
    An OCR layer runs words together where it missed a space (``ofthe``,
    ``theinvention``); German and Dutch write compounds so (``Donaudampfschiff``)."""
    def fits(part: str) -> bool:
        return part in short if len(part) < _SPLIT_MIN else part in known

    def parts(rest: str, left: int) -> tuple[str, ...] | None:
        if fits(rest):
            return (rest,)
        if left == 1:
            return None
        for cut in range(len(rest) - 2, 1, -1):
            if fits(rest[:cut]) and (tail := parts(rest[cut:], left - 1)) is not None:
                return (rest[:cut], *tail)
        return None

    if len(run) < 4 or run in known:
        return None
    return parts(run, 2) or parts(run, 3)


def listed_share(runs: Sequence[str], languages: str) -> float | None:
    """The share of the case-folded letter runs ``runs`` that are words of the word
    lists of ``languages`` or two or three of their words run together (`split_words`);
    None when ``languages`` has no list installed or there are no runs."""
    known = known_words(languages)
    if known is None or not runs:
        return None
    short = _short(languages)
    return sum(run in known or split_words(run, known, short) is not None
               for run in runs) / len(runs)


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


def word_reads(text: str, known: frozenset[str] | None,
               short: frozenset[str] = frozenset(),
               script: tuple[str, ...] | None = None) -> bool | None:
    """Whether one word ``text`` reads as real: no `GARBAGE` character, a
    number (`_NUMBER`) or every letter run of two or more in ``known`` or made of
    two or three of its words run together (`split_words`, ``short`` its short common
    words); when ``known`` is None, every letter in ``script`` (the names its letters'
    Unicode names begin with, `scripts`), any letters when that is None too; never
    letters and digits run together, nor digits broken by other marks.  None for
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
    if known is None:
        return script is None or all(unicodedata.name(c, "").startswith(script)
                                     for run in runs for c in run)
    folded = [run.casefold() for run in runs]
    return all(run in known or split_words(run, known, short) is not None for run in folded)


def read_counts(texts: Iterable[str], languages: str) -> tuple[int, int]:
    """How many of the words ``texts`` read as real (`word_reads`) in ``languages``'
    word lists, or where none is installed in their scripts (`scripts`; any letters
    when the languages are not known), and how many could be judged."""
    known = known_words(languages)
    short = _short(languages) if known is not None else frozenset()
    script = scripts(languages) if known is None else None
    judged = [r for text in texts
              if (r := word_reads(text, known, short, script)) is not None]
    return sum(judged), len(judged)


def read_share(texts: Iterable[str], languages: str) -> float:
    """The share of the words ``texts`` that read as real (`read_counts`); 0.0 when no
    word can be judged.  It applies alike to a text layer and to tesseract's words, so
    the two are compared by it."""
    read, judged = read_counts(texts, languages)
    return read / judged if judged else 0.0


_SURE = 1.96
"""Standard normal quantile of the 95 % interval a share of words is judged with: the
usual confidence; on the 98-page patent scan the drawing sheets whose layer tesseract
read no better (22 to 59 words reading 0.58 to 0.70) fall inside it, a page of text
reading 0.60 (400 words) does not."""


def may_read(read: int, judged: int, least: float) -> bool:
    """Whether ``read`` words of ``judged`` may come from a text that reads at the share
    ``least`` or better: the upper end of the share's 95 % (Wilson score) interval is at
    least ``least``.  Forty words of a drawing's labels reading 0.58 say little of the
    layer, which a fresh OCR reads no better; four hundred words of a page of text
    reading 0.60 say it is poor."""
    if not judged:
        return False
    share, z2 = read / judged, _SURE * _SURE
    centre = share + z2 / (2 * judged)
    spread = _SURE * math.sqrt(share * (1 - share) / judged + z2 / (4 * judged * judged))
    return (centre + spread) / (1 + z2 / judged) >= least


_SCRIPT_NAMES = {"Latin": ("LATIN",), "Fraktur": ("LATIN",), "Greek": ("GREEK",),
                 "Cyrillic": ("CYRILLIC",), "Arabic": ("ARABIC",), "Hebrew": ("HEBREW",),
                 "Simplified Han": ("CJK",), "Traditional Han": ("CJK",),
                 "Japanese": ("CJK", "HIRAGANA", "KATAKANA"), "Hangul": ("HANGUL",)}
"""Each writing system of `LANGUAGES` and how the Unicode names of its letters begin."""


def scripts(languages: str) -> tuple[str, ...] | None:
    """How the Unicode names of the letters of ``languages`` (tesseract codes joined by
    ``+``) begin (`_SCRIPT_NAMES`), None when one of them is not known: a page in a
    language without a word list is judged by whether its letters are of its script,
    which a garbled layer's are not (Hebrew read as Latin-1 accented letters)."""
    names: list[str] = []
    for code in filter(None, languages.split("+")):
        language = BY_CODE.get(code)
        if language is None or language.system not in _SCRIPT_NAMES:
            return None
        names += _SCRIPT_NAMES[language.system]
    return tuple(dict.fromkeys(names)) or None
