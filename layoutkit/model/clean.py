"""Text as it enters the model from a document: safe to print and to encode.

A PDF's text layer (or OCR's words, a page label) may hold any code point, and some
would act rather than show when an output is read: a terminal runs the escape
sequences of ESC and BEL (a window title, a cleared screen, the clipboard by OSC 52),
and the explicit bidi formatting characters turn the order a line is shown in (and
python-bidi's reordering cannot take the isolates).  A UTF-16 code unit left on its own
(PDFium gives a character above U+FFFF as two) cannot be written as UTF-8 at all.

`clean_text` is applied where text enters the model (`Glyphs`, `PageGlyphs`' label,
OCR's words), so every output and every engine reads the same clean text:

- the control characters are dropped, but tab and newline: C0 (U+0000–U+001F), DEL
  and C1 (U+007F–U+009F);
- the explicit bidi formatting characters are dropped: the embeddings and overrides
  (U+202A–U+202E) and the isolates (U+2066–U+2069).  A page's glyphs are placed as
  shown already, and the reading stage finds the order they are read in;
- a high surrogate followed by a low one becomes the character they encode, and a
  surrogate on its own becomes U+FFFD, the replacement character;
- the Latin ligatures of Unicode's presentation forms (U+FB00–U+FB06: ﬀ ﬁ ﬂ ﬃ ﬄ ﬅ ﬆ)
  become the letters they join (``ﬁ`` is ``fi``), as PDFium gives them and pdftotext
  writes them: a word reads, searches and compares alike whichever engine read it and
  whether its font drew the letters as one glyph or not (the glyph keeps its box);
- a symbol font's space, U+F020, becomes a space: Word and other producers map the
  codes of Symbol, Wingdings and their like to U+F000 plus the code, and code 32 is a
  space in each.  A bullet drawn with the space after it ('\uf0b7\uf020') is a bullet
  and a space, not one word.

Plain text (every character printable, no ligature) is returned as it is, found in one
pass.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

__all__ = ["BIDI_FORMATTING", "DROPPED", "LIGATURES", "SURROGATE", "SYMBOL_SPACE", "clean_text",
           "clean_texts"]

BIDI_FORMATTING = "".join(map(chr, (*range(0x202A, 0x202F), *range(0x2066, 0x206A))))
"""The explicit bidi formatting characters: embeddings, overrides and isolates."""

DROPPED = "".join(map(chr, (*range(0x00, 0x09), *range(0x0B, 0x20), *range(0x7F, 0xA0)))
                  ) + BIDI_FORMATTING
"""The characters text loses on entering the model: the control characters but tab and
newline, and the explicit bidi formatting characters."""

LIGATURES = {chr(code): unicodedata.normalize("NFKC", chr(code)) for code in range(0xFB00, 0xFB07)}
"""The Latin presentation-form ligatures, each with the letters it joins (its
compatibility decomposition: ``ﬅ``, the long s and t, is ``st``)."""

SYMBOL_SPACE = "\uf020"
"""A symbol font's space, as producers map its code 32 into the private use area."""

_DROP = str.maketrans({**dict.fromkeys(map(ord, DROPPED)),
                       **{ord(ligature): letters for ligature, letters in LIGATURES.items()},
                       ord(SYMBOL_SPACE): " "})

_UNSAFE = re.compile(f"[{re.escape(DROPPED)}\ud800-\udfff\ufb00-\ufb06{SYMBOL_SPACE}]")
"""A character `clean_text` changes."""

SURROGATE = re.compile("[\ud800-\udfff]")
"""A UTF-16 surrogate: half of a pair, which no text holds on its own."""


def clean_text(text: str) -> str:
    """``text`` without control characters (but tab and newline) and explicit bidi
    formatting characters, its surrogate pairs joined into the characters they encode,
    its lone surrogates replaced by U+FFFD, its Latin ligatures by their letters and a
    symbol font's space by a space;
    ``text`` itself when it has none."""
    if not _UNSAFE.search(text):
        return text
    if SURROGATE.search(text):
        # UTF-16 pairs a high surrogate with the low one after it; "replace" puts
        # U+FFFD for a code unit left on its own
        text = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return text.translate(_DROP)


def clean_texts(texts: Sequence[str]) -> tuple[str, ...]:
    """Each of ``texts`` cleaned ([`clean_text`][layoutkit.model.clean.clean_text]); a page's
    thousands of texts are looked at in one pass first, as nearly every page has nothing to
    clean."""
    texts = tuple(texts)
    if not _UNSAFE.search("".join(texts)):
        return texts
    return tuple(map(clean_text, texts))
