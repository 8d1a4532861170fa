"""Boxes and ruling lines, in top-left-origin points."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from operator import attrgetter

import numpy as np
import numpy.typing as npt

from .value import Value

__all__ = ["BBox", "Rule", "quarter_turn", "turned_boxes"]


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

    def on_page(self, width: float, height: float) -> BBox:
        """The part of the box on a ``width`` by ``height`` page (a glyph's box can
        reach past the page's edge by its font's ascent): a line's box as given."""
        x0, top = min(max(self.x0, 0.0), width), min(max(self.top, 0.0), height)
        return BBox(x0, top, max(min(self.x1, width), x0), max(min(self.bottom, height), top))

    @staticmethod
    def union(boxes: Iterable[BBox]) -> BBox:
        """The smallest box holding every box of ``boxes`` (which must not be empty)."""
        items = list(boxes)
        if not items:
            raise ValueError("BBox.union of no boxes")
        return BBox(min(map(_X0, items)), min(map(_TOP, items)),
                    max(map(_X1, items)), max(map(_BOTTOM, items)))


_X0, _TOP, _X1, _BOTTOM = (attrgetter(edge) for edge in ("x0", "top", "x1", "bottom"))
"""The edges of a [`BBox`][layoutkit.model.geometry.BBox], for ``map``."""


@dataclass(frozen=True, slots=True)
class Rule(Value):
    """A ruling line (or a thin filled rectangle) drawn on a page."""

    bbox: BBox

    @property
    def horizontal(self) -> bool:
        return self.bbox.width >= self.bbox.height


def quarter_turn(direction: int) -> int:
    """The quarter turn (0, 90, 180 or 270 degrees) nearest the ``direction`` a
    baseline runs in: the frame in which text of a diagonal direction is read."""
    return round(direction / 90) % 4 * 90


def turned_boxes(boxes: npt.NDArray[np.float64], direction: int, width: float = 0.0,
                 height: float = 0.0) -> npt.NDArray[np.float64]:
    """``boxes`` (rows of ``x0, top, x1, bottom`` on a ``width`` by ``height`` page)
    on the page turned so that text whose baseline runs in ``direction`` reads
    upright: a quarter clockwise for 90 (bottom to top), half a turn for 180, a quarter
    anticlockwise for 270 (top to bottom); the turned page is ``height`` by ``width``
    for a quarter turn.  Text set in any direction is grouped and segmented in its own
    frame by the code written for upright text."""
    x0, top, x1, bottom = boxes.T
    turn = quarter_turn(direction)
    if turn == 90:
        return np.stack([height - bottom, x0, height - top, x1], axis=1)
    if turn == 180:
        return np.stack([width - x1, height - bottom, width - x0, height - top], axis=1)
    if turn == 270:
        return np.stack([top, width - x1, bottom, width - x0], axis=1)
    return boxes
