"""The languages OCR knows: their tesseract and ISO codes, scripts and word lists.

`layoutkit.sources.ocr.language` finds a page's language among them, and
`layoutkit.sources.ocr.quality` judges its words by their word lists.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["BY_CODE", "LANGUAGES", "Language"]


@dataclass(frozen=True, slots=True)
class Language:
    """A tesseract language: its code (the pack ``tesseract-ocr-<code>``), its ISO
    639-1 code (py3langid's), its writing system (languages that share one alphabet and
    so compete by language identification, not by script) and the word lists that
    judge its words (`quality`)."""

    code: str
    iso: str
    system: str
    word_lists: tuple[str, ...] = ()


LANGUAGES: tuple[Language, ...] = (
    Language("eng", "en", "Latin", ("american-english", "british-english")),
    Language("deu", "de", "Latin", ("ngerman",)),
    Language("fra", "fr", "Latin", ("french",)),
    Language("spa", "es", "Latin", ("spanish", "spacy:es_lemma_lookup")),
    Language("ita", "it", "Latin", ("italian",)),
    Language("por", "pt", "Latin", ("portuguese", "brazilian")),
    Language("nld", "nl", "Latin", ("dutch",)),
    Language("pol", "pl", "Latin", ("polish",)),
    Language("frk", "de", "Fraktur", ("ngerman",)),  # German set in Fraktur
    Language("ell", "el", "Greek", ("spacy:el_lexeme_prob",)),
    Language("rus", "ru", "Cyrillic", ("spacy:ru_lemma_lookup",)),
    Language("ukr", "uk", "Cyrillic", ("ukrainian",)),
    Language("ara", "ar", "Arabic"),
    Language("heb", "he", "Hebrew"),
    Language("chi_sim", "zh", "Simplified Han"),
    Language("chi_tra", "zh", "Traditional Han"),
    Language("jpn", "ja", "Japanese"),
    Language("kor", "ko", "Hangul"),
)
"""The languages OCR knows by writing system, the first of each system its fallback:
those of ``make``'s packs and a few more that may be installed."""

BY_CODE = {language.code: language for language in LANGUAGES}
"""Each language of `LANGUAGES` by its tesseract code."""
