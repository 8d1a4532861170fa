"""A font's weight, on the scale of CSS and OpenType's `usWeightClass`.

The scale runs 100 thin, 400 regular, 700 bold, 900 black.  The weight is what a glyph
source reads from the font, or what a font's name says when the source reads nothing;
words made by OCR or by hand carry no weight, 0.
"""

from __future__ import annotations

import re

__all__ = ["BOLD", "BOLD_MIN", "MAX_WEIGHT", "REGULAR", "is_bold", "named_weight", "untagged"]

REGULAR = 400
"""The weight of a regular (book, roman) face."""
BOLD = 700
"""The weight of a bold face."""
BOLD_MIN = 600
"""The lightest weight a reader sees as bold: semibold (demibold) and heavier."""
MAX_WEIGHT = 1000
"""The heaviest weight on the scale; a font that states more (a stem width no face
has) states nothing a reader can use, and weighs what its name says."""

_NAMED = (
    (re.compile(r"(?:semi|demi)[-_ ]?bold|demi", re.IGNORECASE), 600),
    (re.compile(r"(?:extra|ultra)[-_ ]?bold|heavy", re.IGNORECASE), 800),
    (re.compile(r"black|ultra(?![-_ ]?light)", re.IGNORECASE), 900),
    (re.compile(r"bold|BX\d", re.IGNORECASE), 700),
    (re.compile(r"(?:extra|ultra)[-_ ]?light|thin|hairline", re.IGNORECASE), 200),
    (re.compile(r"light", re.IGNORECASE), 300),
    (re.compile(r"medium", re.IGNORECASE), 500),
)
"""The weight each word of a font's name gives, the first that matches deciding
(``SemiBold`` before ``Bold``, ``ExtraLight`` before ``Light``); TeX's bold extended
faces are named ``BX`` and a design size (``CMBX10``, ``SFBX1095``)."""


def named_weight(font: str) -> int:
    """The weight a font's name says (``Times-Bold`` 700, ``Garamond,Semibold`` 600,
    ``MyriadPro-BlackCond`` 900, ``Univers-Light`` 300); 0 when it says none
    (``Times-Roman``, ``Arial``: regular, most likely, but the name does not tell)."""
    return next((weight for pattern, weight in _NAMED if pattern.search(font)), 0)


def is_bold(weight: int, font: str) -> bool:
    """Whether text of ``weight`` in the font named ``font`` is bold
    ([`BOLD_MIN`][layoutkit.model.weight.BOLD_MIN] or heavier): by the weight where a source read
    one, else by the font's name."""
    return (weight or named_weight(font)) >= BOLD_MIN


def untagged(font: str) -> str:
    """A font's base name without its subset tag (six capitals and a plus sign:
    ``UOYKLK+Roboto-Regular`` is ``Roboto-Regular``): one face embedded twice, whole
    and as a subset, is one font to a reader."""
    tag, plus, rest = font.partition("+")
    return rest if plus and len(tag) == 6 and tag.isupper() else font
