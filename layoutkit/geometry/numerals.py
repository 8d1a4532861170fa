"""Roman numerals: their letters and the pattern of a well-formed one.

Defined once for every stage that reads them: page numbers masked in running headers,
list and heading numbers that count in Roman.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

__all__ = ["ROMAN_DIGITS", "ROMAN_NUMERAL", "roman_value"]

ROMAN_DIGITS: Mapping[str, int] = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500,
                                   "m": 1000}
"""The value of each Roman digit (lower case), smallest first: what a numeral's value
is summed from, and the letters a word must be made of to be one."""

ROMAN_NUMERAL = r"m{0,4}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})"
"""The regular expression (text, lower case, to be compiled with the flags each reader
needs) that a well-formed Roman numeral up to 4999 matches whole: it tells a numeral
("xiv") from a word spelt with the same letters ("civic", "did").  It matches the empty
text too, which callers rule out."""

_ROMAN = re.compile(ROMAN_NUMERAL)


def roman_value(text: str) -> int | None:
    """The value of a well-formed Roman numeral (either case), else None."""
    low = text.lower()
    if not low or (low != text and text.upper() != text) or not _ROMAN.fullmatch(low):
        return None
    values = [ROMAN_DIGITS[c] for c in low]
    return sum(-v if k + 1 < len(values) and v < values[k + 1] else v
               for k, v in enumerate(values))
