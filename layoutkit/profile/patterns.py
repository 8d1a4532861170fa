"""A profile's regular expressions (`contains`, `starts_at`), run so that none can hang a reading.

- They are compiled and searched with the `regex` package, which stops a search after
  a timeout (`regex_timeout`): a pattern that backtracks catastrophically (`(a|aa)+$`)
  on some text is a `ProfileError` naming it instead of a page read for ever.
- `check_pattern`, run when a profile is loaded (and so by `layoutkit profile check`),
  also tries each pattern on texts made of its own letters repeated, the texts on which
  such patterns blow up, so that most are caught before a document is read.
- Before a pattern is compiled, its size with its counted repeats written out is
  estimated (`expanded_size`): the `regex` package writes them out as it compiles, so
  that 45 bytes (`(?:(?:(?:x{100}){100}){100}){10}`) took 3 GB and 5 s; a pattern
  larger than `MAX_EXPANDED` is refused instead.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

import regex

from ..config import ProfileConfig
from ..errors import ProfileError

__all__ = ["MAX_EXPANDED", "check_pattern", "expanded_size", "search"]

MAX_EXPANDED = 100_000
"""The largest a profile's regular expression may be with its counted repeats written
out (``(?:ab){3}`` is 6), as the ``regex`` package compiles it (some 300 bytes and 0.5
microseconds each: ``(?:(?:(?:x{100}){100}){100}){10}``, ten million, took 3 GB and
5 s).  A constant, not a setting: a profile's patterns are checked as it is loaded,
before any configuration applies, and no pattern a profile needs comes near it."""

_PROBE_LENGTH = 5000
"""The length of the texts `check_pattern` tries a pattern on: a page's worth."""

_PROBE_CHARACTERS = 24
"""The most distinct characters of a pattern whose runs `check_pattern` tries."""


_COUNTED = re.compile(r"\{\s*(\d*)\s*(?:,\s*(\d*)\s*)?\}")
"""A counted repeat (``{3}``, ``{2,5}``, ``{4,}``) anywhere in a pattern's text."""


class _TooLargeError(ValueError):
    """A pattern larger than `MAX_EXPANDED` with its repeats written out."""


def expanded_size(pattern: str, most: int) -> int:
    """The size of ``pattern`` with its counted repeats written out (each literal, class,
    group or alternation counting 1, ``(?:ab){3}`` 6), or some number past ``most``.

    The pattern is parsed with Python's own parser (its syntax is the ``regex``
    package's, but for a few additions); one it cannot parse is bounded by its length
    times every counted repeat's count multiplied together, at least its size."""
    try:
        parsed = re._parser.parse(pattern)  # type: ignore[attr-defined]
    except (re.error, RecursionError, OverflowError, ValueError):
        size = len(pattern)
        for match in _COUNTED.finditer(pattern):
            size *= max(1, int(match[2] or match[1] or 1))
            if size > most:
                break
        return size
    return _size(parsed, most)


def _size(items: Iterable[Any], most: int) -> int:
    """The size of a parsed (sub)pattern with its repeats written out
    (`expanded_size`), stopping past ``most``."""
    total = 0
    for op, value in items:
        if "REPEAT" in str(op):
            low, high, inner = value
            times = low if high == re._constants.MAXREPEAT else high  # type: ignore[attr-defined]
            total += max(1, times) * _size(inner, most)
            continue
        total += 1
        for part in value if isinstance(value, (tuple, list)) else ():
            if isinstance(part, re._parser.SubPattern):  # type: ignore[attr-defined]
                total += _size(part, most)
            elif isinstance(part, list) and part and \
                    isinstance(part[0], re._parser.SubPattern):  # type: ignore[attr-defined]
                total += sum(_size(branch, most) for branch in part)
        if total > most:
            return total
    return total


@lru_cache(maxsize=256)
def _compiled(pattern: str) -> regex.Pattern[str]:
    """``pattern`` compiled for searching a page's lines (``^``/``$`` at line ends);
    raises ``regex.error`` when it is not a regular expression, and
    `_TooLargeError`, before compiling it, when it is larger than
    `MAX_EXPANDED` with its repeats written out."""
    if expanded_size(pattern, MAX_EXPANDED) > MAX_EXPANDED:
        raise _TooLargeError(pattern)
    return regex.compile(pattern, regex.MULTILINE | regex.VERSION0)


def search(pattern: str, text: str, timeout: float) -> bool:
    """Whether ``pattern`` matches somewhere in ``text``.

    Raises ProfileError naming the pattern when the search takes longer than
    ``timeout`` seconds (catastrophic backtracking)."""
    try:
        return _compiled(pattern).search(text, timeout=timeout) is not None
    except TimeoutError:
        raise ProfileError([_too_slow(pattern, timeout)]) from None
    except _TooLargeError:
        raise ProfileError([_too_large(pattern)]) from None


def check_pattern(pattern: str) -> str | None:
    """What is wrong with ``pattern`` as a profile's regular expression (not one, or
    one that backtracks catastrophically on a run of one of its own characters), or
    None when nothing is."""
    try:
        compiled = _compiled(pattern)
    except _TooLargeError:
        return _too_large(pattern)
    except regex.error as exc:
        return f"{pattern!r} is not a regular expression ({exc})"
    except (RecursionError, OverflowError, MemoryError):
        return f"{pattern!r} is too large or nested too deeply to be a regular expression"
    timeout = ProfileConfig().regex_timeout
    characters = dict.fromkeys(c for c in pattern if c.isalnum() or c in " .-")
    for character in list(characters)[:_PROBE_CHARACTERS] or ["a"]:
        probe = character * _PROBE_LENGTH + "\u0000"
        try:
            compiled.search(probe, timeout=timeout)
        except TimeoutError:
            return _too_slow(pattern, timeout)
    return None


def _too_large(pattern: str) -> str:
    return (f"regular expression {pattern!r} stands for more than {MAX_EXPANDED:,} characters "
            f"and classes with its counted repeats written out, more than "
            f"can be compiled safely; write it with fewer or smaller nested counts")


def _too_slow(pattern: str, timeout: float) -> str:
    return (f"regular expression {pattern!r} takes longer than {timeout:g} s on one "
            f"text (catastrophic backtracking); write it without nested repeats such as "
            f"(a+)+ or (a|aa)+")
