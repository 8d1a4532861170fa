"""Page selectors: which pages of a document a profile rule applies to.

A selector is one of:

- a page number (`3`; negative numbers count from the end, `-1` is the last page);
- a string of comma-separated parts (`"1"`, `"3-5"`, `"3-"`, `"-2"`, `"first"`,
  `"last"`, `"2-last"`, `"odd"`, `"even"`);
- a table `{ contains = "REGEX" }` that picks the pages with a line matching the
  regular expression;
- a list of these (the union of what they pick).

Pages a selector names beyond the end of a shorter issue are simply not selected.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from .patterns import check_pattern, search

__all__ = ["Contains", "PageRange", "PageSelector", "Parity", "parse_selector"]

_END = r"-?\d+|first|last"
_PART = re.compile(rf"^(?P<a>{_END})(?:\s*(?P<dash>-)\s*(?P<b>{_END})?)?$")
ALLOWED = ('a page number (negative counts from the end), "A-B", "A-", "first", "last", '
           '"odd", "even", comma-separated parts, { contains = "REGEX" }, or a list of these')


@dataclass(frozen=True, slots=True)
class PageRange:
    """Pages ``first`` to ``last`` (1-based; negative from the end; ``None``: to the end)."""

    first: int
    last: int | None

    def pages(self, count: int) -> frozenset[int]:
        a = self.first if self.first > 0 else count + 1 + self.first
        b = count if self.last is None else self.last if self.last > 0 else count + 1 + self.last
        return frozenset(range(max(a, 1), min(b, count) + 1))


@dataclass(frozen=True, slots=True)
class Parity:
    """The odd (``remainder`` 1) or even (0) pages."""

    remainder: int

    def pages(self, count: int) -> frozenset[int]:
        return frozenset(p for p in range(1, count + 1) if p % 2 == self.remainder)


@dataclass(frozen=True, slots=True)
class Contains:
    """The pages with a line matching ``pattern``."""

    pattern: str

    def matches(self, text: str, timeout: float) -> bool:
        """Whether a line of ``text`` matches (ProfileError past ``timeout`` seconds)."""
        return search(self.pattern, text, timeout)


Part = PageRange | Parity | Contains


@dataclass(frozen=True, slots=True)
class PageSelector:
    """The union of its parts."""

    parts: tuple[Part, ...]

    def selects(self, page: int, count: int, text: str, timeout: float) -> bool:
        """Whether the 1-based ``page`` of a ``count``-page document is selected, given
        its ``text`` (one line of text per line, for ``contains`` parts, each searched
        for at most ``timeout`` seconds)."""
        return any(part.matches(text, timeout) if isinstance(part, Contains)
                   else page in part.pages(count) for part in self.parts)

    def pages(self, texts: Sequence[str], timeout: float) -> frozenset[int]:
        """The 1-based pages selected in a document whose pages have ``texts``."""
        return frozenset(p for p, text in enumerate(texts, 1)
                         if self.selects(p, len(texts), text, timeout))

    @property
    def by_content(self) -> bool:
        """Whether any part depends on the pages' text."""
        return any(isinstance(part, Contains) for part in self.parts)


def _end(token: str) -> int:
    return 1 if token == "first" else -1 if token == "last" else int(token)


def _string_part(text: str) -> Part:
    token = text.strip().lower()
    if token in ("odd", "even"):
        return Parity(1 if token == "odd" else 0)
    match = _PART.match(token)
    if match is None:
        raise ValueError(f"cannot read {text.strip()!r}")
    first = _end(match["a"])
    last = _end(match["b"]) if match["b"] else None if match["dash"] else first
    if first == 0 or last == 0:
        raise ValueError(f"{text.strip()!r}: pages count from 1 (or from -1 at the end)")
    if last is not None and first > 0 and last > 0 and first > last:
        raise ValueError(f"{text.strip()!r} runs backwards")
    return PageRange(first, last)


def _parts(raw: object) -> list[Part]:
    if isinstance(raw, bool):
        raise ValueError(f"cannot read {raw!r}")
    if isinstance(raw, int):
        return [_string_part(str(raw))]
    if isinstance(raw, str):
        if not raw.strip():
            raise ValueError("empty selector")
        return [_string_part(part) for part in raw.split(",")]
    if isinstance(raw, dict):
        if set(raw) != {"contains"} or not isinstance(raw["contains"], str):
            raise ValueError(f"a table selector has one key, contains = \"REGEX\"; got {raw!r}")
        problem = check_pattern(raw["contains"])
        if problem is not None:
            raise ValueError(f"contains {problem}")
        return [Contains(raw["contains"])]
    if isinstance(raw, list) and raw:
        return [part for item in raw for part in _parts(item)]
    raise ValueError(f"cannot read {raw!r}")


def parse_selector(raw: object) -> PageSelector:
    """The selector a profile value stands for.

    Raises ValueError saying what is wrong (the caller adds where, and
    `ALLOWED` says what is accepted).
    """
    return PageSelector(tuple(_parts(raw)))
