"""An OCR word's look-alike letters put back into the word's own script.

Tesseract, reading Greek or Russian, now and then takes a letter for the Latin (or
other) letter drawn the same way: the micro sign µ (U+00B5) for μ, a Latin ``o`` or
``A`` inside a Greek word, a Latin ``е`` or ``р`` inside a Russian one.  The word looks
right and cannot be found: a search for ``μέλος`` misses ``µέλος``.

- A word is of a script when more than half of its letters are (Unicode's Script
  property); Greek and Cyrillic words are mended, no other.
- Inside a Greek word the micro sign and the Latin letters drawn as Greek ones
  (``A B E H I K M N O P T X Y Z o v``) become those Greek letters.
- Inside a Cyrillic word the Latin letters drawn as Cyrillic ones
  (``a c e o p x y A B C E H K M O P T X``) become those Cyrillic letters.
- Any other letter stays, and so does every word that is not mostly Greek or
  Cyrillic: a Latin word, ``µm``, a word half Latin and half Greek.

Only OCR words are mended (`image.ocr_words`); a PDF's text layer says which letters
it drew and is kept as it is.
"""

from __future__ import annotations

import regex

__all__ = ["native_letters"]

_TO_GREEK = str.maketrans("\u00b5ABEHIKMNOPTXYZov", "μΑΒΕΗΙΚΜΝΟΡΤΧΥΖον")
_TO_CYRILLIC = str.maketrans("aceopxyABCEHKMOPTX", "асеорхуАВСЕНКМОРТХ")

_FOREIGN = regex.compile(r"[\p{Script=Latin}\u00b5]")
"""A letter that may be a look-alike: any Latin letter, or the micro sign."""

_LETTER = regex.compile(r"(\p{Script=Greek})|(\p{Script=Cyrillic})|\p{L}")
"""A letter: group 1 when it is Greek, group 2 when Cyrillic."""


def native_letters(text: str) -> str:
    """``text`` (one OCR word) with its look-alike letters turned into the Greek or
    Cyrillic letters they stand for, when more than half of its letters are Greek or
    Cyrillic (see the module docstring); ``text`` itself otherwise, and when it has
    no Latin letter or micro sign to mend."""
    if not _FOREIGN.search(text):
        return text
    letters = greek = cyrillic = 0
    for match in _LETTER.finditer(text):
        letters += 1
        greek += match.group(1) is not None
        cyrillic += match.group(2) is not None
    if 2 * greek > letters:
        return text.translate(_TO_GREEK)
    if 2 * cyrillic > letters:
        return text.translate(_TO_CYRILLIC)
    return text
