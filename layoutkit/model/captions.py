"""What opens a figure's or a table's caption, in the languages layoutkit reads.

A caption's label (``Fig. 2.``, ``Table 3:``, ``Abb. 1.``) tells a legend from a heading
(the line types), a figure's legend from the text beside it (the figures), and a
caption credit from a journal's imprint (the notices read with the reading order).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise

__all__ = ["CAPTION_LABEL", "FIGURE_NAMES", "TABLE_NAMES", "is_caption", "panel_letters"]

FIGURE_NAMES = ("figure", "fig", "abbildung", "abb", "bild", "figura", "figuur", "figur",
                "afbeelding", "şekil", "rysunek", "rys", "obrázek", "obr", "рисунок", "рис",
                "σχήμα", "chart", "exhibit", "scheme", "plate", "图", "圖", "図")
"""What a figure's caption calls it, in the languages layoutkit reads (``Fig.``,
``Abb.``, ``Şekil``, ``Рис.``, ``图``)."""
TABLE_NAMES = ("table", "tab", "tabla", "tableau", "tabela", "tabelle", "tabella", "tabel",
               "tabell", "tablo", "tabulka", "таблица", "πίνακας", "cuadro", "quadro", "表")
"""What a table's caption calls it, in the languages layoutkit reads."""
_NAMES = "|".join(sorted(map(re.escape, FIGURE_NAMES + TABLE_NAMES), key=len, reverse=True))
_CAPTION = re.compile(rf"(?:{_NAMES})\.? ?\d{{1,3}}(?:\.\d{{1,3}})?[.:：]", re.IGNORECASE)
"""A caption's opening (``Fig. 2.``, ``Table 3:``, ``Abb. 1.``): a figure's or a
table's legend, however it is set, is no heading."""


def is_caption(text: str) -> bool:
    """Whether ``text`` opens as a figure's or a table's caption does (`_CAPTION`:
    ``Fig. 2.``, ``Table 3:``, ``Abb. 1.``)."""
    return _CAPTION.match(text) is not None


CAPTION_LABEL = re.compile(rf"({_NAMES})\.? ?S?\d{{1,3}}(?:\.\d{{1,3}})?[a-z]?(?!\w)",
                           re.IGNORECASE)
"""A caption's label (``Fig. 2``, ``Table 3``, ``Abb. 1``, ``Figure S2``), the name of
what it labels (`FIGURE_NAMES`, `TABLE_NAMES`) in its first group: what opens a
figure's or a table's legend, with or without the stop after it that `_CAPTION` asks
for (`layoutkit.outputs.figures` links the legend to its picture by it)."""


def panel_letters(labels: Sequence[str]) -> bool:
    """Whether ``labels`` are the letters of a figure's panels in their order, two or
    more (``(a) (b) (c)``, ``a b c``): what a figure's panels are set under, whether
    alone on a line or each opening the panel's own legend."""
    letters = [label.strip("()") for label in labels]
    return len(letters) > 1 and all(len(letter) == 1 and letter.isalpha() for letter in letters) \
        and all(ord(b) - ord(a) == 1 for a, b in pairwise(letters))
