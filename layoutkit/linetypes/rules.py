"""Heading rules in DCR's `lineTypeHeadingRules` shape: the default table and a reader.

The reader reads a JSON file that replaces the default table (`heading_rules_file`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import ConfigError
from .sequence import ASCENDING

__all__ = ["DEFAULT_RULES", "HeadingRule", "load_rules"]

_ROMAN_UPPER = r"M{0,3}(CM|CD|D?C{0,3})(XC|XL|L?X{0,3})(IX|IV|V?I{0,3})"
_ROMAN_LOWER = _ROMAN_UPPER.lower()


@dataclass(frozen=True, slots=True)
class HeadingRule:
    """One numbering style of headings.

    ``regexp`` matches the first word (``is_first_token``) or the start of the line;
    ``function_is_asc`` names the comparison function (see
    `ASCENDING`) that says whether a heading's
    number follows the previous one of the rule; a rule's first heading must carry
    one of ``start_values``.
    """

    name: str
    is_first_token: bool
    regexp: re.Pattern[str]
    function_is_asc: str
    start_values: tuple[str, ...]

    def matches(self, words: tuple[str, ...]) -> str | None:
        """The number part of a line's ``words`` if the rule matches them, else None."""
        if not words:
            return None
        if self.is_first_token:
            return words[0] if self.regexp.fullmatch(words[0]) else None
        found = self.regexp.match(" ".join(words))
        return found[0] if found else None


def _rule(name: str, regexp: str, function: str, *starts: str) -> HeadingRule:
    return HeadingRule(name, True, re.compile(regexp), function, starts)


_STYLES = {
    "999": (r"\d+", "string_integers", "1"),
    "A": ("[A-Z]", "uppercase_letters", "A"),
    "ROM": (_ROMAN_UPPER, "romans", "I"),
    "a": ("[a-z]", "lowercase_letters", "a"),
    "rom": (_ROMAN_LOWER, "romans", "i"),
}
"""The numbers a marker may carry, by the name rules give them: the pattern of the
number, the comparison function and the first number of a list."""


def _marked(before: str, after: str, *styles: str) -> tuple[HeadingRule, ...]:
    """The rules of markers that write a number of each of ``styles`` (names of
    `_STYLES`) between ``before`` and ``after`` (``(i)``, ``A.``), in that order:
    the rules that differ only in their punctuation, written once."""
    rules = []
    for style in styles:
        number, function, start = _STYLES[style]
        rules.append(_rule(f"{before}{style}{after}", re.escape(before) + number
                           + re.escape(after), function, f"{before}{start}{after}"))
    return tuple(rules)


DEFAULT_RULES: tuple[HeadingRule, ...] = (
    *_marked("(", ")", "999", "A", "ROM", "a", "rom"),
    *_marked("", ")", "999", "A", "ROM", "a", "rom"),
    _rule("999.999.999", r"\d+\.\d+\.\d+\.?", "string_floats", "1.1.1", "1.1.1."),
    _rule("999.999", r"\d+\.\d+\.?", "string_floats", "1.1", "1.1."),
    *_marked("", ".", "999"),
    *_marked("", "", "999"),
    *_marked("", ".", "ROM", "A", "rom", "a"),
)
"""The default rules, tried in this order (the first that matches a line is its
rule): bracketed markers, then closing brackets, decimal numbers from the deepest,
Roman numerals before letters."""

_KEYS = {"name", "isFirstToken", "regexp", "functionIsAsc", "startValues"}


def load_rules(path: Path) -> tuple[HeadingRule, ...]:
    """The rules of a JSON file ``{"lineTypeHeadingRules": [{"name", "isFirstToken",
    "regexp", "functionIsAsc", "startValues"}, ...]}``, in file order.

    Raises ConfigError naming the file and the first entry that is malformed.
    """
    where = f"heading_rules_file {str(path)!r}"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"{where}: cannot read ({exc.strerror or exc})") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{where}: not JSON ({exc})") from None
    entries = data.get("lineTypeHeadingRules") if isinstance(data, dict) else None
    if not isinstance(entries, list) or not entries:
        raise ConfigError(f"{where}: expected an object with a non-empty list "
                          "'lineTypeHeadingRules'")
    rules = []
    for n, entry in enumerate(entries, 1):
        if not isinstance(entry, dict) or set(entry) != _KEYS:
            raise ConfigError(f"{where}: rule {n}: expected exactly the keys "
                              f"{', '.join(sorted(_KEYS))}")
        starts = entry["startValues"]
        if (not isinstance(entry["name"], str) or not isinstance(entry["isFirstToken"], bool)
                or entry["functionIsAsc"] not in ASCENDING or not isinstance(starts, list)
                or not all(isinstance(s, str) for s in starts)):
            raise ConfigError(f"{where}: rule {n}: expected a text name, a true/false "
                              f"isFirstToken, a list of text startValues and functionIsAsc "
                              f"one of {', '.join(ASCENDING)}")
        try:
            pattern = re.compile(entry["regexp"])
        except (re.error, TypeError) as exc:
            raise ConfigError(f"{where}: rule {n}: bad regexp ({exc})") from None
        rules.append(HeadingRule(entry["name"], entry["isFirstToken"], pattern,
                                 entry["functionIsAsc"], tuple(starts)))
    return tuple(rules)
