"""The words that decide a hyphenated line end: the document's own and its language's.

Every text output (`layoutkit.outputs.markdown`, `html`, `text --paragraphs`,
`layoutkit.nlp.nlptext`, `layoutkit.nlp.tokens`) joins hyphenated line ends with
`layoutkit.linetypes.hyphens.line_join` over the same `Lexicon`, so they agree
on every word:

- the words written whole in the document (`document_vocabulary`);
- the word list of the document's language (detected as `layoutkit.nlp.language`
  does, over the text the NLP config keeps): the system's ``/usr/share/dict`` list
  (Debian's ``w*`` packages: ``wamerican``, ``wngerman``, ``wfrench``...) where one is
  installed;
- the forms and lemmas of spacy-lookups-data's lemma lookup table for the language,
  read from the package's data files (no spaCy pipeline is built for it).

A language with neither leaves the document's own words to decide.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Container, Iterable
from functools import cache
from importlib import resources
from pathlib import Path

from ..config import NlpConfig
from ..model import Document
from .language import detect_pages
from .paragraphs import document_vocabulary, ignored_codes
from .spool import page_text

__all__ = ["Lexicon", "document_lexicon", "language_words", "lexicon"]

_DICT = Path("/usr/share/dict")
_WORD_LISTS = {"en": ("american-english", "british-english"), "de": ("ngerman", "ogerman"),
               "fr": ("french",), "es": ("spanish",), "it": ("italian",),
               "pt": ("portuguese", "brazilian"), "nl": ("dutch",), "sv": ("swedish",),
               "da": ("danish",), "nb": ("bokmaal",), "pl": ("polish",)}
"""The ``/usr/share/dict`` word lists (Debian's ``w*`` packages) of each language."""


class Lexicon(Container[str]):
    """Lower-case words: a document's own and its language's (see the module)."""

    __slots__ = ("_language", "_words", "lang")

    def __init__(self, words: Iterable[str], lang: str) -> None:
        self._words = frozenset(words)
        self._language = language_words(lang)
        self.lang = lang

    def __contains__(self, word: object) -> bool:
        return word in self._words or word in self._language


@cache
def language_words(lang: str) -> frozenset[str]:
    """The lower-case words of ``lang`` (an ISO 639-1 code): its installed
    ``/usr/share/dict`` lists and its spacy-lookups-data lemma table's forms and lemmas;
    empty for a language with neither."""
    found: set[str] = set()
    for name in _WORD_LISTS.get(lang, ()):
        path = _DICT / name
        if path.is_file():
            with path.open(encoding="utf-8", errors="replace") as file:
                found.update(line.strip().lower() for line in file if "'" not in line)
    found.update(_lookup_words(lang))
    found.discard("")
    return frozenset(found)


def _lookup_words(lang: str) -> set[str]:
    """The forms and lemmas of spacy-lookups-data's ``<lang>_lemma_lookup`` table."""
    try:
        data = resources.files("spacy_lookups_data") / "data" / f"{lang}_lemma_lookup.json.gz"
        table = json.loads(gzip.decompress(data.read_bytes()))
    except (ModuleNotFoundError, FileNotFoundError):
        return set()
    words = {form.lower() for form in table}
    for lemma in table.values():  # a form's lemma, or (French) a list of lemmas
        words.update(w.lower() for w in ([lemma] if isinstance(lemma, str) else lemma))
    return words


def lexicon(words: Iterable[str], texts: list[str], config: NlpConfig) -> Lexicon:
    """The `Lexicon` of a document whose own ``words`` are given and whose pages' text
    (`page_text`, the config's ignored line types left out) are ``texts``."""
    lang, _ = detect_pages(texts, config)
    return Lexicon(words, lang)


def document_lexicon(document: Document, config: NlpConfig | None = None) -> Lexicon:
    """The `Lexicon` of ``document``, its language detected as the NLP outputs detect
    it (``config``: the NLP section, None for the defaults)."""
    config = config or NlpConfig()
    skip = ignored_codes(config)
    return lexicon(document_vocabulary(document),
                   [page_text(page, skip) for page in document.pages], config)
