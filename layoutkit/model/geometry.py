"""Boxes and ruling lines, in top-left-origin points."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from operator import attrgetter

from .value import Value

__all__ = ["BBox", "Rule"]


@dataclass(frozen=True, slots=True)
class BBox(Value):
    """An axis-aligned box in top-left-origin points."""

    x0: float
    top: float
    x1: float
    bottom: float

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        return self.bottom - self.top

    def as_list(self, ndigits: int = 2) -> list[float]:
        """``[x0, top, x1, bottom]`` rounded for output."""
        return [round(self.x0, ndigits), round(self.top, ndigits),
                round(self.x1, ndigits), round(self.bottom, ndigits)]

    def contains_centre_of(self, box: BBox) -> bool:
        """Whether the centre of ``box`` lies inside this box, edges included: how a
        word or a line is judged to belong to a region drawn around it (a profile's
        ignore box or furniture band, a ruled table's box), so that a word whose edges
        overhang the region still counts when most of it lies within."""
        x, y = (box.x0 + box.x1) / 2, (box.top + box.bottom) / 2
        return self.x0 <= x <= self.x1 and self.top <= y <= self.bottom

    @staticmethod
    def union(boxes: Iterable[BBox]) -> BBox:
        """The smallest box holding every box of ``boxes`` (which must not be empty)."""
        items = list(boxes)
        if not items:
            raise ValueError("BBox.union of no boxes")
        return BBox(min(map(_X0, items)), min(map(_TOP, items)),
                    max(map(_X1, items)), max(map(_BOTTOM, items)))


_X0, _TOP, _X1, _BOTTOM = (attrgetter(edge) for edge in ("x0", "top", "x1", "bottom"))
"""The edges of a :class:`BBox`, for ``map``."""


@dataclass(frozen=True, slots=True)
class Rule(Value):
    """A ruling line (or a thin filled rectangle) drawn on a page."""

    bbox: BBox

    @property
    def horizontal(self) -> bool:
        return self.bbox.width >= self.bbox.height
