"""The languages a page is read in by OCR: the user's, its text layer's, or its own.

A page is read in, in order of precedence:

1. the languages the user gives (`ocr_languages`: `--lang`, an inbox's language folder,
   a profile's `[config]`), tesseract's codes or ISO 639-1 codes;
2. its text layer's language, when the layer reads as words (a scanner's OCR layer in
   the page's own language, whose script tesseract's may have misread);
3. its own, told in steps:
    - tesseract's orientation and script detection (OSD) names the script the page
      looks written in;
    - a sample about the page's middle (`ocr_sample_height`) is read with one installed
      model of each writing system that script can be confused with, OSD's first (OSD
      takes Greek for Cyrillic; German in Fraktur, a script of its own to OSD, may be
      roman type it misnamed);
    - the first model that reads it with `ocr_script_min_confidence` into words its
      system's word lists know (`ocr_garbage_share` of them, where it has lists: the
      capitals of a cover page read as confidently as Cyrillic look-alikes, 'ТНЕ КОТАКУ
      СГОВ', as in the Latin model) gives the page's writing system, or else the most
      confident model; where none reads a letter of the sample (a cover's blank
      middle), the whole page is read so;
    - the sample's language is picked among that system's installed languages as a
      text layer's is (`identified`).

A text (a layer's words, a sample's) is told its language in runs of
`ocr_language_chunk` letters, a language found in `ocr_mixed_min_share` of them joining
the most found with `+`.  Each run is given the language whose word list knows the most
of its words (`quality.listed_share`: run-together words split), ties going to the language
listed first.  The lists asked are those of py3langid's three likeliest languages (its
character n-grams) and of the script's first language; py3langid's guess stands only
for a run that no list reads (fewer than `ocr_garbage_share` of its words, or no list
installed for the candidates: Arabic, Chinese).  A run whose likeliest language is its
script's first is in it, and no list is asked: the lists are there to overturn a guess
that noise moved away from the run's language, and where py3langid names the fallback
they overturned it wrongly more often than not (an English reference list or a
datasheet's table read as Dutch, whose list holds more names).  Word lists, not
n-grams, because an OCR layer's text is noisy: misread letters, line numbers, words run
together and broken words move n-gram counts (an English patent's layer was taken for
German, Dutch or Spanish) while most of its words still stand in the English list.

A language whose pack is not installed is replaced by the first installed language of
its writing system (English for a Latin one), or left to the page's own when none is;
`Given.missing` names it for the one-line warning with the package to install.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from statistics import fmean
from typing import TYPE_CHECKING

from ...config import LayoutConfig
from ...model import visual_order
from .known import BY_CODE, LANGUAGES, Language
from .packs import debian_package, iso_639_3

if TYPE_CHECKING:
    from PIL import Image
    from py3langid.langid import LanguageIdentifier

    from .image import OcrWords, Osd

__all__ = [
    "AUTO",
    "BY_CODE",
    "LANGUAGES",
    "Chosen",
    "Given",
    "Language",
    "choose",
    "identified",
    "installed",
    "layer_language",
    "tesseract_codes",
    "unread_script",
    "user_languages",
]

AUTO = "auto"
"""The ``ocr_languages`` value that reads each page in its own language."""


_LETTERS = re.compile(r"[^\W\d_]{2,}")
"""A run of two or more letters: what is looked up in a word list."""

_BY_ISO = {language.iso: language for language in reversed(LANGUAGES)}  # zh: chi_sim

_CONFUSED: dict[str, tuple[str, ...]] = {
    "Latin": ("Latin", "Greek", "Cyrillic"),
    "Greek": ("Greek", "Cyrillic", "Latin"),
    "Cyrillic": ("Cyrillic", "Greek", "Latin"),
    "Fraktur": ("Fraktur", "Latin"),
    "Han": ("Simplified Han", "Traditional Han", "Japanese"),
    "Japanese": ("Japanese", "Simplified Han", "Traditional Han"),
    "Katakana": ("Japanese",),
    "Hiragana": ("Japanese",),
    "Hangul": ("Hangul",),
    "Korean": ("Hangul",),
    "Arabic": ("Arabic",),
    "Hebrew": ("Hebrew",),
}
"""OSD's script name -> the writing systems a page it names may be written in, its own
first; a script not named here (or no OSD) is tried as Latin."""


def unread_script(osd: Osd | None) -> str | None:
    """What to install to read a page whose script tesseract's detection (``osd``)
    names, where no installed pack reads that script (the page is then read in another
    script, in gibberish: 'क्रम सं०' as 'A Wo'): the pack of the script's first language,
    or, for a script none of `LANGUAGES` is written in, the page's language's pack named
    with ``--lang``; None for a script read here, and a page without detection."""
    if osd is None:
        return None
    systems = _CONFUSED.get(osd.script)
    if systems is None:
        return (f"its script looks {osd.script} (tesseract's script detection), in which no "
                "language is told here: install its language's pack if it is missing "
                "(apt-get install tesseract-ocr-LANG) and name the language with --lang")
    if _system_languages(systems[0]):
        return None
    first = next(lang.code for lang in LANGUAGES if lang.system == systems[0])
    return (f"its script looks {osd.script} (tesseract's script detection) and no installed "
            f"pack reads it: install one with: apt-get install {debian_package(first)}")


@lru_cache(maxsize=1)
def installed() -> frozenset[str]:
    """The tesseract language packs installed (empty when tesseract is missing)."""
    import pytesseract  # for OCR only

    try:
        return frozenset(pytesseract.get_languages(config=""))
    except (pytesseract.TesseractNotFoundError, FileNotFoundError):
        return frozenset()


def tesseract_codes(languages: str) -> tuple[str, ...]:
    """``languages`` (``+``-joined tesseract or ISO 639-1 codes) as tesseract codes,
    without repeats: ``de+eng`` -> ``("deu", "eng")``, ``sv`` -> ``("swe",)`` (an ISO
    639-1 code is its language's ISO 639-2/T code, as tesseract names languages; one of
    `LANGUAGES` its code there, ``zh`` ``chi_sim``)."""
    codes = (_BY_ISO[part].code if part in _BY_ISO else iso_639_3(part) or part
             for part in languages.split("+") if part)
    return tuple(dict.fromkeys(codes))


def _system_languages(system: str) -> list[str]:
    """The installed languages of a writing system, its fallback first."""
    have = installed()
    return [lang.code for lang in LANGUAGES if lang.system == system and lang.code in have]


@dataclass(frozen=True, slots=True)
class Given:
    """The languages a page is read in (tesseract codes joined by ``+``; empty when
    they are the page's own, still to be found), and the first language asked for whose
    pack is not installed (None when all are)."""

    languages: str
    missing: str | None = None


def user_languages(config: LayoutConfig) -> Given | None:
    """The languages the user gave (``ocr_languages``), those not installed replaced by
    their writing system's first installed language (none left: the page's own);
    None under ``auto``."""
    if config.ocr.ocr_languages == AUTO:
        return None
    have = installed()
    codes = tesseract_codes(config.ocr.ocr_languages)
    missing = next((code for code in codes if code not in have), None)
    kept: list[str] = []
    for code in codes:
        system = BY_CODE[code].system if code in BY_CODE else None
        substitute = code if code in have else next(iter(_system_languages(system or "")), None)
        if substitute and substitute not in kept:
            kept.append(substitute)
    return Given("+".join(kept), missing)


def layer_language(texts: Sequence[str], config: LayoutConfig) -> str | None:
    """The installed languages a text layer's words ``texts`` are written in (as
    `choose` tells a sample's), None when they have no letters.  However short,
    the layer is judged in a language of its own: a garbled one reads badly in any.
    A layer that reads in its script's first language (`_read_in_first`) is in it, told
    without the language detector."""
    have = installed()
    candidates = [lang for lang in LANGUAGES if lang.code in have]
    if not candidates or not any(c.isalpha() for text in texts for c in text):
        return None
    return _read_in_first(texts, candidates, config) or identified(texts, candidates, config)


def _read_in_first(texts: Sequence[str], candidates: Sequence[Language],
                   config: LayoutConfig) -> str | None:
    """The first language of the script of ``texts`` among ``candidates`` (English for
    the Latin alphabet), when its word list reads ``ocr_min_quality`` of their letter
    runs (run-together words split, `quality.listed_share`): the share a layer must read
    at to be kept, which text in another language does not reach in that list (French
    and Portuguese pages read 0.42-0.49 of their runs in English, Spanish and Italian
    0.33-0.47, German 0.20-0.27); else None.  An English scan's layer is told in one
    look-up, where py3langid's model takes most of a second to load in each process."""
    from .quality import listed_share

    words = [visual_order(text) for text in texts]
    script = _script(" ".join(words))
    first = next((lang for lang in candidates
                  if lang.word_lists and lang.system == script), None)
    runs = [part.casefold() for word in words for part in _LETTERS.findall(word)]
    share = listed_share(runs, first.code) if first else None
    return first.code if first and share is not None \
        and share >= config.ocr.ocr_min_quality else None


@lru_cache(maxsize=8)
def _identifier(isos: tuple[str, ...]) -> LanguageIdentifier:
    """py3langid's identifier (as `layoutkit.nlp.language` uses it) choosing among
    the ISO 639-1 codes ``isos``; imported only for a page that is OCR'd."""
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    identifier = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    identifier.set_languages(list(isos))
    return identifier


def _runs(words: Sequence[str], letters: int) -> list[str]:
    """``words`` joined in runs of consecutive words of at least ``letters`` letters
    (a short last run joins the one before)."""
    runs: list[list[str]] = [[]]
    count = 0
    for word in words:
        if count >= letters:
            runs.append([])
            count = 0
        runs[-1].append(word)
        count += sum(c.isalpha() for c in word)
    if len(runs) > 1 and count < letters:
        last = runs.pop()
        runs[-1] += last
    return [" ".join(run) for run in runs]


def _script(run: str) -> str:
    """The writing system most of the letters of ``run`` are in: ``Latin``, ``Greek``,
    ``Cyrillic``, or ``other`` (a script no installed word list is written in)."""
    counts = {"Latin": 0, "Greek": 0, "Cyrillic": 0, "other": 0}
    for c in run:
        if c.isalpha():
            o = ord(c)
            counts["Latin" if o < 0x370 or 0x1E00 <= o < 0x1F00 else
                   "Greek" if o < 0x400 or 0x1F00 <= o < 0x2000 else
                   "Cyrillic" if o < 0x530 else "other"] += 1
    return max(counts, key=counts.__getitem__)


_PROPOSED = 3
"""How many of py3langid's likeliest languages for a run have their word lists asked
(`_run_language`): a noisy run's language is among them though not always first, and
loading every list (some 2 s of a process's time) is then not needed."""


def _run_language(run: str, candidates: Sequence[Language], ranked: Sequence[str],
                  config: LayoutConfig) -> str | None:
    """The language whose word list reads most of the letter runs of the text ``run``
    (run-together words split, `quality.listed_share`), asked of the languages of the run's
    script among ``candidates`` that have a list and are among py3langid's `_PROPOSED`
    likeliest (``ranked``, ISO codes, likeliest first), and of the script's first
    language (its fallback: English for the Latin alphabet); a tie goes to the language
    listed first in `LANGUAGES`; the script's first language, no list asked, when
    py3langid ranks it first.  None when no such list reads ``ocr_garbage_share`` of
    the run's words."""
    from .quality import listed_share

    script = _script(run)
    pool = [lang for lang in candidates if lang.word_lists and lang.system == script]
    parts = [p.casefold() for p in _LETTERS.findall(run)]
    if not pool or not parts:
        return None
    if ranked[0] == pool[0].iso:
        return pool[0].code
    proposed = set(ranked[:_PROPOSED])
    asked = [lang for rank, lang in enumerate(pool) if rank == 0 or lang.iso in proposed]
    rates = [(listed_share(parts, lang.code) or 0.0, -LANGUAGES.index(lang), lang)
             for lang in asked]
    rate, _, best = max(rates, key=lambda t: t[:2])
    return best.code if rate >= config.ocr.ocr_garbage_share else None


def identified(words: Sequence[str], candidates: Sequence[Language],
               config: LayoutConfig) -> str:
    """The languages among ``candidates`` that ``words`` are written in, told in runs of
    ``ocr_language_chunk`` letters: the language most of their letters are in, joined by
    those that at least ``ocr_mixed_min_share`` of them are in.  Each run is in the
    language whose word list reads most of its words among py3langid's likeliest
    (`_run_language`), or when no list reads it, in py3langid's guess.  ``words`` are as
    sources give them, their letters in the order they stand; each is identified in
    reading order."""
    by_iso = {lang.iso: lang.code for lang in reversed(candidates)}  # zh: its first
    if len(by_iso) == 1:
        return next(iter(by_iso.values()))
    letters: dict[str, int] = {}
    for run in _runs([visual_order(w) for w in words], config.ocr.ocr_language_chunk):
        ranked = [str(iso) for iso, _ in _identifier(tuple(sorted(by_iso))).rank(run)]
        code = _run_language(run, candidates, ranked, config) or by_iso[ranked[0]]
        letters[code] = letters.get(code, 0) + sum(c.isalpha() for c in run)
    ordered = sorted(letters, key=letters.__getitem__, reverse=True)
    least = config.ocr.ocr_mixed_min_share * sum(letters.values())
    return "+".join(code for rank, code in enumerate(ordered)
                    if rank == 0 or letters[code] >= least)


def _sample(image: Image.Image, config: LayoutConfig) -> Image.Image:
    """The band of ``image`` about its middle that is read to tell its language
    (``ocr_sample_height`` of it, its edges moved out to the nearest rows without ink
    so that no line is cut), or the whole image when the band has no ink."""
    import numpy as np  # for OCR only

    from .image import INK  # a band without any ink has nothing to read

    inked = np.asarray(np.asarray(image, dtype=np.uint8).min(axis=1) < INK, dtype=np.bool_)
    share = config.ocr.ocr_sample_height
    top, bottom = round(image.height * (1 - share) / 2), round(image.height * (1 + share) / 2)
    while top > 0 and inked[top]:
        top -= 1
    while bottom < image.height and inked[bottom - 1]:
        bottom += 1
    if not inked[top:bottom].any():
        return image
    return image.crop((0, top, image.width, bottom))


def _confidence(read: OcrWords) -> float:
    """A reading's mean word confidence, each word weighted by its length (a model of
    the wrong script reads many one-letter words with some confidence)."""
    sizes = [len(w.text) for w in read.words]
    if not sizes:
        return 0.0
    return fmean(read.confidences, weights=sizes)


@dataclass(frozen=True, slots=True)
class Chosen:
    """A page's own languages (tesseract codes joined by ``+``), and its words when the
    sample read to find them was the whole page, read in those languages (None
    otherwise: the page is still to be read)."""

    languages: str
    read: OcrWords | None = None


def choose(image: Image.Image, scale: float, dpi: int | None, osd: Osd | None,
           config: LayoutConfig) -> Chosen:
    """The page's own languages: its writing system told by reading a sample (at
    ``dpi``, `image.ocr_words`) in each candidate system's first installed
    model (`_script_read`), then its language among that system's (see the module's
    docstring).  Where no model reads a letter of the sample (a cover's blank middle,
    a year or a speck in it), the whole page is the sample.  ``eng`` (or the first
    installed pack) when nothing can be read."""
    systems = _CONFUSED.get(osd.script if osd else "Latin", _CONFUSED["Latin"])
    sample = _sample(image, config)
    best, lettered = _script_read(sample, scale, dpi, systems, config)
    if not lettered and sample is not image:
        sample = image
        best, _ = _script_read(sample, scale, dpi, systems, config)
    if best is None:
        return Chosen("eng" if "eng" in installed() else min(installed() - {"osd"},
                                                             default="eng"))
    language, read = best
    candidates = [BY_CODE[code] for code in _system_languages(BY_CODE[language].system)]
    found = identified([w.text for w in read.words], candidates, config)
    return Chosen(found, read if sample is image and found == language else None)


def _script_read(sample: Image.Image, scale: float, dpi: int | None,
                 systems: Sequence[str], config: LayoutConfig
                 ) -> tuple[tuple[str, OcrWords] | None, bool]:
    """The language of the first installed model of the writing ``systems`` (in order)
    that reads ``sample`` with `ocr_script_min_confidence` into words its system's word
    lists know (`_listed`: the capitals of a cover page read as confidently as Cyrillic
    look-alikes, 'ТНЕ КОТАКУ СГОВ', as in the Latin model), else of the most confident
    model, with its reading (None when no system has a model installed); and whether
    any model read a letter."""
    from .image import ocr_words

    best: tuple[float, str, OcrWords] | None = None
    lettered = False
    for system in systems:
        languages = _system_languages(system)
        if not languages:
            continue
        read = ocr_words(sample, scale, languages[0], dpi)
        texts = [w.text for w in read.words]
        lettered = lettered or any(_LETTERS.search(text) for text in texts)
        confidence = _confidence(read)
        if confidence >= config.ocr.ocr_script_min_confidence \
                and _listed(texts, languages, config):
            return (languages[0], read), lettered
        if best is None or confidence > best[0]:
            best = (confidence, languages[0], read)
    return (None if best is None else (best[1], best[2])), lettered


def _listed(texts: Sequence[str], languages: Sequence[str], config: LayoutConfig) -> bool:
    """Whether ``ocr_garbage_share`` of the letter runs of ``texts`` are words of the
    word list of their language among ``languages`` (a writing system's installed ones):
    its first, or else the one the text is told to be in (`identified`, which asks the
    lists of its likeliest languages only, as the language is told after anyway;
    run-together words split: `quality.listed_share`), or no such list is installed."""
    from .quality import listed_share

    runs = [part.casefold() for text in texts for part in _LETTERS.findall(visual_order(text))]
    least = config.ocr.ocr_garbage_share
    first = listed_share(runs, languages[0])
    if first is None or first >= least:
        return True
    told = identified(texts, [BY_CODE[code] for code in languages], config).split("+")[0]
    if told == languages[0]:
        return False
    share = listed_share(runs, told)
    return share is None or share >= least
