"""Glyphs painted over: text that an opaque fill drawn after it hides from the reader.

A page is painted in the order of its content stream, each object over what came
before.  Text a producer drew and then covered with an opaque filled shape (a
sidebar's background laid over leftover text, a whited-out correction, a redaction
box) is in the content stream but not on the page; read with the text around it, it
interleaves its letters with those printed over it.

- Both engines report, with each page's glyphs, the closed shapes filled opaquely on
  it and where each glyph and each fill stand in the painting order.
- Only paths of one closed subpath count: a shape with a hole, a frame, covers nothing
  here.
- A glyph whose box lies inside a shape filled after it is left out.
- Fills with any transparency (a constant alpha below one, a blend mode other than
  Normal, a soft mask: a highlighter's multiply) hide nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ..model import Glyphs

__all__ = ["COVER_TOLERANCE", "Fill", "covered", "uncovered"]

COVER_TOLERANCE = 1.0
"""A fill covers a glyph whose box, grown by this many points on every side, lies
inside it: a glyph at the fill's edge may show part of its ink (a line whose
ascenders stand above a box drawn over its foot is still read)."""


@dataclass(frozen=True, slots=True)
class Fill:
    """A closed shape filled opaquely: its outline in page coordinates (top-left
    origin, the curves' end points) and the place of the object that paints it in the
    page's painting order."""

    outline: tuple[tuple[float, float], ...]
    order: int


def covered(boxes: npt.NDArray[np.float64], order: npt.NDArray[np.int64],
            fills: Sequence[Fill], tolerance: float) -> npt.NDArray[np.bool_]:
    """For each glyph (its box, a row of ``boxes`` as x0, top, x1, bottom, and its place
    in the painting ``order``), whether a fill painted after it holds its box grown by
    ``tolerance`` on every side."""
    hidden = np.zeros(len(boxes), dtype=bool)
    if not len(boxes) or not fills:
        return hidden
    x0, top = boxes[:, 0] - tolerance, boxes[:, 1] - tolerance
    x1, bottom = boxes[:, 2] + tolerance, boxes[:, 3] + tolerance
    for fill in fills:
        if len(fill.outline) < 3:
            continue
        us, vs = zip(*fill.outline, strict=True)  # the fill's bounds, as shapely's
        near = np.flatnonzero((order < fill.order) & ~hidden & (x0 >= min(us)) & (x1 <= max(us))
                              & (top >= min(vs)) & (bottom <= max(vs)))
        if not len(near):
            continue
        # only for a fill whose bounds hold a glyph: most pages never import shapely
        import shapely

        shape = shapely.Polygon(fill.outline)
        if not shape.is_valid or shape.area <= 0:
            continue
        shapely.prepare(shape)
        inside = np.ones(len(near), dtype=bool)
        for xs, ys in ((x0, top), (x1, top), (x0, bottom), (x1, bottom)):
            inside &= shapely.contains_xy(shape, xs[near], ys[near])
        hidden[near[inside]] = True
    return hidden


def uncovered(glyphs: Glyphs, order: npt.NDArray[np.int64], fills: Sequence[Fill]) -> Glyphs:
    """``glyphs`` (each at its place in the painting ``order``) without those a fill
    painted after it covers (`covered`, to within ``COVER_TOLERANCE``)."""
    hidden = covered(glyphs.boxes, order, fills, COVER_TOLERANCE)
    if not hidden.any():
        return glyphs
    shown = np.flatnonzero(~hidden)
    return Glyphs(tuple(glyphs.texts[k] for k in shown.tolist()), glyphs.boxes[shown],
                  tuple(glyphs.fonts[k] for k in shown.tolist()), glyphs.sizes[shown],
                  glyphs.directions[shown], glyphs.weights[shown])
