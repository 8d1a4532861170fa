"""The regular expressions of a profile (``contains`` selectors, ``starts_at`` lines),
run so that none can hang a reading.

They are compiled and searched with the ``regex`` package, which stops a search after
a timeout: a pattern that backtracks catastrophically (``(a|aa)+$``) on some text is
a :class:`~layoutkit.errors.ProfileError` naming it instead of a page read for ever.
:func:`check_pattern`, run when a profile is loaded (and so by ``layoutkit profile
check``), also tries each pattern on texts made of its own letters repeated, the
texts on which such patterns blow up, so that most are caught before a document is
read.
"""

from __future__ import annotations

from functools import lru_cache

import regex

from ..config import ProfileConfig
from ..errors import ProfileError

__all__ = ["check_pattern", "search"]

_PROBE_LENGTH = 5000
"""The length of the texts :func:`check_pattern` tries a pattern on: a page's worth."""

_PROBE_CHARACTERS = 24
"""The most distinct characters of a pattern whose runs :func:`check_pattern` tries."""


@lru_cache(maxsize=256)
def _compiled(pattern: str) -> regex.Pattern[str]:
    """``pattern`` compiled for searching a page's lines (``^``/``$`` at line ends);
    raises ``regex.error`` when it is not a regular expression."""
    return regex.compile(pattern, regex.MULTILINE | regex.VERSION0)


def search(pattern: str, text: str, timeout: float) -> bool:
    """Whether ``pattern`` matches somewhere in ``text``.

    Raises ProfileError naming the pattern when the search takes longer than
    ``timeout`` seconds (catastrophic backtracking)."""
    try:
        return _compiled(pattern).search(text, timeout=timeout) is not None
    except TimeoutError:
        raise ProfileError([_too_slow(pattern, timeout)]) from None


def check_pattern(pattern: str) -> str | None:
    """What is wrong with ``pattern`` as a profile's regular expression (not one, or
    one that backtracks catastrophically on a run of one of its own characters), or
    None when nothing is."""
    try:
        compiled = _compiled(pattern)
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


def _too_slow(pattern: str, timeout: float) -> str:
    return (f"regular expression {pattern!r} takes longer than {timeout:g} s on one "
            f"text (catastrophic backtracking); write it without nested repeats such as "
            f"(a+)+ or (a|aa)+")
