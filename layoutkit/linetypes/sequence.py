"""Comparison functions for numbered lines: whether one marker follows another.

DCR names them `functionIsAsc`: each reads the marker's value and says whether a marker
is the direct successor of the one before (`1` -> `2`, `a` -> `b`, `iv` -> `v`, `1.2`
-> `1.3` or `2.1`...).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..geometry.numerals import roman_value

__all__ = ["ASCENDING", "is_start", "is_successor"]

_CORE = re.compile(r"[A-Za-z]+|\d+(?:\.\d+)*")


def _core(marker: str) -> str:
    """The marker without its brackets and punctuation: ``(iv)`` -> ``iv``, ``1.2.`` -> ``1.2``."""
    found = _CORE.search(marker)
    return found[0] if found else ""


def _integers(previous: str, current: str) -> bool:
    a, b = _core(previous), _core(current)
    return a.isdigit() and b.isdigit() and int(b) == int(a) + 1


def _letters(case: Callable[[str], bool]) -> Callable[[str, str], bool]:
    def follows(previous: str, current: str) -> bool:
        a, b = _core(previous), _core(current)
        return (len(a) == len(b) == 1 and case(a) and case(b) and ord(b) == ord(a) + 1)
    return follows


def _romans(previous: str, current: str) -> bool:
    a, b = roman_value(_core(previous)), roman_value(_core(current))
    return a is not None and b is not None and b == a + 1


def _floats(previous: str, current: str) -> bool:
    """``1.2`` -> ``1.3``, or up a level with a fresh count (``1.2.3`` -> ``1.3``) is not
    a successor at the same depth; only the last part counts up, the others equal."""
    a, b = _core(previous).split("."), _core(current).split(".")
    if len(a) != len(b) or not all(p.isdigit() for p in a + b):
        return False
    return (a[:-1] == b[:-1] and int(b[-1]) == int(a[-1]) + 1) or (
        len(a) > 1 and int(b[-2]) == int(a[-2]) + 1 and a[:-2] == b[:-2] and int(b[-1]) == 1)


def _strings(previous: str, current: str) -> bool:
    return _core(current) > _core(previous)


ASCENDING: dict[str, Callable[[str, str], bool]] = {
    "ignore": lambda _previous, _current: True,
    "lowercase_letters": _letters(str.islower),
    "uppercase_letters": _letters(str.isupper),
    "romans": _romans,
    "strings": _strings,
    "string_floats": _floats,
    "string_integers": _integers,
}
"""DCR's comparison functions by name: ``f(previous, current)`` is whether the
``current`` marker directly follows ``previous``."""


def is_successor(function: str, previous: str, current: str) -> bool:
    """Whether marker ``current`` follows ``previous`` by the comparison ``function``."""
    return ASCENDING[function](previous, current)


def is_start(function: str, value: str, starts: tuple[str, ...]) -> bool:
    """Whether ``value`` may open a run of ``function``-numbered markers: one of the
    ``starts``, or for decimal numbers any first subsection (``2.1`` opens the
    subsections of chapter 2 as ``1.1`` does those of chapter 1)."""
    if value in starts:
        return True
    if function != "string_floats":
        return False
    parts = _core(value).split(".")
    return len(parts) > 1 and parts[-1] in {_core(s).split(".")[-1] for s in starts}
