"""The base of every frozen value of the model.

A value is pickled as the call that builds it, and many are made at a time from
columns of field values.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import Field
from itertools import repeat
from operator import attrgetter
from typing import Any, ClassVar, TypeVar

__all__ = ["Value", "from_columns", "gist"]


class Value:
    """A frozen value pickled as the call that builds it.

    Pages cross process boundaries (``parse(..., jobs=N)``) a hundred thousand
    words at a time; the pickling that dataclasses give slotted classes looks up the
    fields of every object again and takes several times as long.
    """

    __slots__ = ()
    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]

    def __reduce__(self) -> tuple[Callable[..., object], tuple[object, ...]]:
        cls = type(self)
        values = _FIELD_VALUES.get(cls)
        if values is None:
            values = _FIELD_VALUES[cls] = _field_values(tuple(cls.__dataclass_fields__))
        return cls, values(self)


_T = TypeVar("_T", bound=Value)


def _field_values(names: tuple[str, ...]) -> Callable[[Any], tuple[object, ...]]:
    """A function returning the values of the fields ``names`` of an object, as a tuple."""
    get = attrgetter(*names)
    return get if len(names) > 1 else lambda value: (get(value),)


_FIELD_VALUES: dict[type, Callable[[Any], tuple[object, ...]]] = {}
"""`_field_values` of each value class, made when it is first pickled."""


def from_columns(cls: type[_T], count: int, *values: Iterable[object]) -> list[_T]:
    """``count`` new values of the frozen dataclass ``cls`` (one without
    ``__post_init__``), its fields taking ``values`` (an iterable per field, in order).

    The generated ``__init__`` sets each slot through ``object.__setattr__``; setting a
    slot of all the values at once through its descriptor does the same in C, in half
    the time, which counts where a page's thousands of words are made (or unpickled)."""
    assert not hasattr(cls, "__post_init__"), f"{cls.__name__} checks its values when made"
    built = list(map(object.__new__, repeat(cls, count)))
    for name, column in zip(cls.__dataclass_fields__, values, strict=True):
        deque(map(vars(cls)[name].__set__, built, column), maxlen=0)
    return built


GIST_CHARS = 40
"""How many characters of a value's text its ``repr`` shows."""


def gist(text: str, chars: int = GIST_CHARS) -> str:
    """The ``repr`` of the first ``chars`` characters of ``text`` (lines joined by ``⏎``),
    with ``…`` where it goes on: what a value holding pages of text shows of it in its
    own ``repr``, so that printing a page in a notebook shows what it is in a line
    rather than every word and box it holds."""
    flat = text.replace("\n", "⏎").replace("\f", "⏎")
    return repr(flat[:chars] + "…" if len(flat) > chars else flat)
