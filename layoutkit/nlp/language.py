"""The language of a document and of each of its pages.

- py3langid guesses among the config's languages (`lang_candidates`).  It is the
  maintained fork of langid.py: a naive Bayes model over byte n-grams, shipped inside
  the package, 4.5 MB, no download.
- It was chosen over langdetect by measurement on the fixtures (`benchmarks/RESULTS.md`,
  language detection): both are right on every fixture document, py3langid is
  deterministic (langdetect samples at random unless seeded) and many times faster.
- A page with too few letters to judge takes the document's language (`lang_min_chars`).
"""

from __future__ import annotations

from functools import cache

from py3langid.langid import MODEL_FILE, LanguageIdentifier

from ..config import NlpConfig
from ..errors import ConfigError

__all__ = ["detect", "detect_pages"]


@cache
def _identifier(candidates: str) -> LanguageIdentifier:
    identifier = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    codes = [code.strip() for code in candidates.split(",") if code.strip()]
    unknown = [code for code in codes if code not in identifier.nb_classes]
    if unknown or not codes:
        raise ConfigError(f"config key 'lang_candidates': {unknown[0] if unknown else 'none'!r} "
                          "is not a language the detector knows; expected ISO 639-1 codes "
                          "such as en,de,fr")
    identifier.set_languages(codes)
    return identifier


def detect(text: str, config: NlpConfig) -> str:
    """The ISO 639-1 code of the language ``text`` is most likely written in."""
    code, _ = _identifier(config.lang_candidates).classify(text)
    return str(code)


def detect_pages(pages: list[str], config: NlpConfig) -> tuple[str, list[str]]:
    """The language of the whole text and of each page's text; a page with fewer than
    ``lang_min_chars`` letters takes the whole text's language."""
    whole = detect("\n".join(pages), config)
    fewest = config.lang_min_chars
    return whole, [detect(text, config) if sum(c.isalpha() for c in text) >= fewest
                   else whole for text in pages]
