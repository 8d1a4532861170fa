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
- A fill paints only inside its clipping paths: a form XObject's bounding box (an
  included figure's white background reaching past the figure over the text above
  it), a clip set on the page or around a form.  Clips of one subpath each are kept
  with the fill (a curve by its control points too, so that the outline holds it);
  a glyph is covered only inside all of them.  A clip of several subpaths is passed
  over: the fill hides there as if unclipped.
- A glyph whose box lies inside a shape filled after it is left out.
- Fills with any transparency (a constant alpha below one, a blend mode other than
  Normal, a soft mask: a highlighter's multiply) hide nothing.
- Text drawn invisibly (render mode 3, or 7, which only clips) paints nothing, so
  nothing painted after it hides it: a scan's OCR layer stays under the white ground
  and the picture a scanner paints over it (`INVISIBLE`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ..model import Glyphs

__all__ = ["COVER_TOLERANCE", "INVISIBLE", "Fill", "Outline", "covered", "uncovered"]

INVISIBLE = frozenset({3, 7})
"""The text render modes that paint nothing: neither fill nor stroke (3), clip only (7)."""

COVER_TOLERANCE = 1.0
"""A fill covers a glyph whose box, grown by this many points on every side, lies
inside it: a glyph at the fill's edge may show part of its ink (a line whose
ascenders stand above a box drawn over its foot is still read)."""


Outline = tuple[tuple[float, float], ...]
"""A shape's outline: its points in page coordinates (top-left origin)."""


@dataclass(frozen=True, slots=True)
class Fill:
    """A closed shape filled opaquely: its outline in page coordinates (top-left
    origin, the curves' end points) and the place of the object that paints it in the
    page's painting order."""

    outline: Outline
    order: int
    clips: tuple[Outline, ...] = ()
    """The outlines, in page coordinates, of the clipping paths the fill is painted
    through: it paints only where all of them hold."""


def covered(boxes: npt.NDArray[np.float64], order: npt.NDArray[np.int64],
            fills: Sequence[Fill], tolerance: float) -> npt.NDArray[np.bool_]:
    """For each glyph (its box, a row of ``boxes`` as x0, top, x1, bottom, and its place
    in the painting ``order``), whether a fill painted after it holds its box grown by
    ``tolerance`` on every side, within each of the fill's clips.  A fill whose outline
    is no shape hides nothing; a clip that is none (fewer than three points, crossing
    itself) is passed over, as one of several subpaths is where it is read."""
    hidden = np.zeros(len(boxes), dtype=bool)
    if not len(boxes) or not fills:
        return hidden
    x0, top = boxes[:, 0] - tolerance, boxes[:, 1] - tolerance
    x1, bottom = boxes[:, 2] + tolerance, boxes[:, 3] + tolerance
    shapes = _Shapes()
    for fill in fills:
        near = (order < fill.order) & ~hidden & shapes.holds(fill.outline, x0, top, x1, bottom)
        if not near.any() or shapes.shape(fill.outline) is None:
            continue
        clips = [clip for clip in fill.clips if shapes.shape(clip) is not None]
        for clip in clips:
            near &= shapes.holds(clip, x0, top, x1, bottom)
        found = np.flatnonzero(near)
        if len(found):
            inside = np.ones(len(found), dtype=bool)
            for outline in (fill.outline, *clips):
                inside &= shapes.contains(outline, x0[found], top[found], x1[found],
                                          bottom[found])
            hidden[found[inside]] = True
    return hidden


class _Shapes:
    """The bounds and prepared polygons of outlines, each made once: a map's thousands
    of shapes share one clip.  Polygons are made only for a fill whose bounds hold a
    glyph: most pages never import shapely."""

    def __init__(self) -> None:
        self._bounds: dict[int, tuple[float, float, float, float]] = {}
        self._shapes: dict[int, Any] = {}

    def holds(self, outline: Outline, x0: npt.NDArray[np.float64],
              top: npt.NDArray[np.float64], x1: npt.NDArray[np.float64],
              bottom: npt.NDArray[np.float64]) -> npt.NDArray[np.bool_]:
        """Whether each box lies within the bounds of ``outline``."""
        if id(outline) not in self._bounds:
            us, vs = zip(*outline, strict=True) if outline else ((0.0,), (0.0,))
            self._bounds[id(outline)] = (min(us), min(vs), max(us), max(vs))
        u0, v0, u1, v1 = self._bounds[id(outline)]
        return (x0 >= u0) & (x1 <= u1) & (top >= v0) & (bottom <= v1)

    def shape(self, outline: Outline) -> Any:
        """The prepared polygon of ``outline``, None where it is no shape (fewer than
        three points, no area, crossing itself)."""
        if id(outline) not in self._shapes:
            import shapely

            shape = shapely.Polygon(outline) if len(outline) >= 3 else None
            if shape is None or not shape.is_valid or shape.area <= 0:
                shape = None
            else:
                shapely.prepare(shape)
            self._shapes[id(outline)] = shape
        return self._shapes[id(outline)]

    def contains(self, outline: Outline, x0: npt.NDArray[np.float64],
                 top: npt.NDArray[np.float64], x1: npt.NDArray[np.float64],
                 bottom: npt.NDArray[np.float64]) -> npt.NDArray[np.bool_]:
        """Whether all four corners of each box lie inside ``outline`` (a shape)."""
        import shapely

        shape = self.shape(outline)
        inside = np.ones(len(x0), dtype=bool)
        for xs, ys in ((x0, top), (x1, top), (x0, bottom), (x1, bottom)):
            inside &= shapely.contains_xy(shape, xs, ys)
        return inside


def uncovered(glyphs: Glyphs, order: npt.NDArray[np.int64], fills: Sequence[Fill],
              invisible: Callable[[npt.NDArray[np.intp]], npt.NDArray[np.bool_]] | None = None
              ) -> Glyphs:
    """``glyphs`` (each at its place in the painting ``order``) without those a fill
    painted after it covers (`covered`, to within ``COVER_TOLERANCE``), but for those
    drawn invisibly, which ``invisible`` tells of the covered ones (their indexes): an
    engine that knows them only by asking leaves the question to the few covered."""
    hidden = covered(glyphs.boxes, order, fills, COVER_TOLERANCE)
    if invisible is not None and hidden.any():
        found = np.flatnonzero(hidden)
        hidden[found[invisible(found)]] = False
    if not hidden.any():
        return glyphs
    shown = np.flatnonzero(~hidden)
    return Glyphs(tuple(glyphs.texts[k] for k in shown.tolist()), glyphs.boxes[shown],
                  tuple(glyphs.fonts[k] for k in shown.tolist()), glyphs.sizes[shown],
                  glyphs.directions[shown], glyphs.weights[shown])
