"""The ruling lines and pictures of a page, from its path, image and form objects.

They are classified as pdfminer's engine classifies them.
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass
from itertools import repeat
from typing import Any

import numpy as np
import numpy.typing as npt

from ...model import BBox, Rule
from ..base import shape_rules
from ..occlusion import Fill, Outline
from .bindings import address, argument, object_type, page_object_at, pdfium_c, pointer
from .frame import IDENTITY, Frame, Matrix

__all__ = ["drawings"]

_DRAWN = (pdfium_c.FPDF_PAGEOBJ_PATH, pdfium_c.FPDF_PAGEOBJ_IMAGE, pdfium_c.FPDF_PAGEOBJ_FORM)
"""The kinds of page object that may draw rules or images, or hold objects that do."""

@dataclass(frozen=True, slots=True)
class Drawings:
    """What a page draws besides its text: its ruling lines and image boxes, form
    XObjects included; the shapes it fills opaquely, each with the place in
    ``painted`` of the page object that paints it (a form's, for one inside a form);
    ``painted``, the addresses of the page's objects in painting order; and ``unseen``,
    the text objects PDFium's text page left out (see `unseen`)."""

    rules: tuple[Rule, ...]
    images: tuple[BBox, ...]
    fills: tuple[Fill, ...]
    painted: npt.NDArray[np.uint64]
    unseen: list[int]


def drawings(page: Any, frame: Frame, text_objects: npt.NDArray[np.uint64]) -> Drawings:
    """The page's `Drawings`, given the text objects (addresses, sorted) that draw
    its characters.

    PDFium keeps the objects of a form XObject inside the form object, their matrices
    relative to it; the form object's matrix takes them on to the page.  The
    ``text_objects`` (addresses, sorted) are known to be text, and PDFium is not
    asked about them: most objects of a page are text.
    """
    rules: list[Rule] = []
    images: list[BBox] = []
    fills: list[Fill] = []
    unseen: list[int] = []
    matrix = pdfium_c.FS_MATRIX()

    def drawn(objects: npt.NDArray[np.uint64], order: int | None
              ) -> list[tuple[int, int, int]]:
        """The ``objects`` (addresses) that may draw, as (address, kind, place) triples:
        the place of each in ``objects`` if ``order`` is None, else ``order``."""
        kept = np.arange(len(objects))
        if len(text_objects):  # sorted: each object looked up where it would stand
            at = np.minimum(np.searchsorted(text_objects, objects), len(text_objects) - 1)
            kept = np.flatnonzero(text_objects[at] != objects)
        others = objects[kept]
        kinds = np.fromiter(map(object_type, map(pointer, others.tolist())),
                            dtype=np.intc, count=len(others))
        unseen.extend(others[kinds == pdfium_c.FPDF_PAGEOBJ_TEXT].tolist())
        picked = np.isin(kinds, _DRAWN)
        places = kept[picked] if order is None else np.full(int(picked.sum()), order)
        return list(zip(others[picked].tolist(), kinds[picked].tolist(), places.tolist(),
                        strict=True))

    clips: dict[tuple[int, int, Matrix], Outline | None] = {}

    def clipped(obj: Any, outer: Matrix) -> tuple[Outline, ...]:
        """The outlines of the clipping paths ``obj`` is painted through (its own: a
        path's, the bounding boxes of the forms it is in; a form object's, the clip in
        effect where it is drawn), each read once a page (`_clip_outline`): a map's
        thousands of shapes share one clip."""
        clip = pdfium_c.FPDFPageObj_GetClipPath(obj)
        if not clip:
            return ()
        found = []
        for index in range(max(int(pdfium_c.FPDFClipPath_CountPaths(clip)), 0)):
            count = int(pdfium_c.FPDFClipPath_CountPathSegments(clip, index))
            if count < 3:
                continue
            key = (address(pdfium_c.FPDFClipPath_GetPathSegment(clip, index, 0)), count, outer)
            if key not in clips:
                clips[key] = _clip_outline(clip, index, count, outer, frame)
            if (outline := clips[key]) is not None:
                found.append(outline)
        return tuple(found)

    def walk(objects: list[tuple[int, int, int]], outer: Matrix,
             around: tuple[Outline, ...]) -> None:
        """Read ``objects`` drawn in the space ``outer`` takes to the page, through the
        clips ``around`` (those of the forms they are drawn in)."""
        for at, kind, place in objects:
            obj = ctypes.cast(at, pdfium_c.FPDF_PAGEOBJECT)
            if not pdfium_c.FPDFPageObj_GetMatrix(obj, matrix):
                continue
            to_user = _compose((matrix.a, matrix.b, matrix.c, matrix.d, matrix.e, matrix.f),
                               outer)
            if kind == pdfium_c.FPDF_PAGEOBJ_PATH:
                path_rules, outline = _path_shapes(obj, to_user, frame)
                rules.extend(path_rules)
                if outline:
                    fills.append(Fill(outline, place, (*clipped(obj, outer), *around)))
            elif kind == pdfium_c.FPDF_PAGEOBJ_IMAGE:
                corners = [_apply(to_user, x, y) for x, y in ((0, 0), (1, 0), (0, 1), (1, 1))]
                x0, y0 = min(p[0] for p in corners), min(p[1] for p in corners)
                x1, y1 = max(p[0] for p in corners), max(p[1] for p in corners)
                if frame.shows(x0, y0, x1, y1):
                    images.append(frame.box(x0, y0, x1, y1))
            else:
                count = int(pdfium_c.FPDFFormObj_CountObjects(obj))
                inner = np.fromiter((address(pdfium_c.FPDFFormObj_GetObject(obj, k))
                                     for k in range(count)), dtype=np.uint64, count=count)
                walk(drawn(inner, place), to_user, (*clipped(obj, outer), *around))

    count = int(pdfium_c.FPDFPage_CountObjects(page))
    painted = np.fromiter(map(page_object_at, repeat(argument(page), count), range(count)),
                          dtype=np.uint64, count=count)
    walk(drawn(painted, None), IDENTITY, ())
    return Drawings(tuple(rules), tuple(images), tuple(fills), painted, unseen)


def _compose(inner: Matrix, outer: Matrix) -> Matrix:
    """The matrix that applies ``inner`` first, then ``outer``."""
    a, b, c, d, e, f = inner
    oa, ob, oc, od, oe, of = outer
    return (a * oa + b * oc, a * ob + b * od, c * oa + d * oc, c * ob + d * od,
            e * oa + f * oc + oe, e * ob + f * od + of)


def _apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    """The point (x, y) transformed by ``m``."""
    return m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]


def _path_shapes(path: Any, to_user: Matrix, frame: Frame
                 ) -> tuple[list[Rule], tuple[tuple[float, float], ...]]:
    """The ruling lines a path object contributes, classified as pdfminer does, and the
    displayed outline of the shape it fills opaquely (no transparency of any kind) if
    it is one subpath (else none: see `occlusion`).

    pdfminer paints each subpath on its own and names it by its operators: ``ml`` or
    ``mlh`` a line, a closed four-sided ``mlllh``/``mllll`` with axis-aligned sides a
    rectangle, anything else a curve.  PDFium reports segments instead (a curve as three
    points, a closing ``h`` as a flag, after a line back to the start when the path was
    elsewhere); they are turned back into those operator strings first.
    """
    fill_mode, stroke = ctypes.c_int(), ctypes.c_int()
    pdfium_c.FPDFPath_GetDrawMode(path, fill_mode, stroke)
    x, y = ctypes.c_float(), ctypes.c_float()
    subpaths: list[tuple[list[str], list[tuple[float, float]]]] = []
    pending_curve = 0
    for index in range(int(pdfium_c.FPDFPath_CountSegments(path))):
        segment = pdfium_c.FPDFPath_GetPathSegment(path, index)
        kind = pdfium_c.FPDFPathSegment_GetType(segment)
        pdfium_c.FPDFPathSegment_GetPoint(segment, x, y)
        point = _apply(to_user, x.value, y.value)
        if kind == pdfium_c.FPDF_SEGMENT_MOVETO or not subpaths:
            subpaths.append((["m"], [point]))
        elif kind == pdfium_c.FPDF_SEGMENT_BEZIERTO:
            pending_curve += 1
            if pending_curve < 3:  # control points: pdfminer keeps only the end point
                continue
            pending_curve = 0
            subpaths[-1][0].append("c")
            subpaths[-1][1].append(point)
        else:
            subpaths[-1][0].append("l")
            subpaths[-1][1].append(point)
        if pdfium_c.FPDFPathSegment_GetClose(segment):
            ops, pts = subpaths[-1]
            ops.append("h")
            pts.append(pts[0])
    rules: list[Rule] = []
    for ops, pts in subpaths:
        rules.extend(_subpath_rules("".join(ops), pts, bool(stroke.value), frame))
    outline: tuple[tuple[float, float], ...] = ()
    if len(subpaths) == 1 and fill_mode.value and _opaque(path):  # a fill closes it
        outline = tuple(frame.point(x, y) for x, y in subpaths[0][1])
    return rules, outline


def _clip_outline(clip: Any, index: int, count: int, outer: Matrix, frame: Frame
                  ) -> Outline | None:
    """The displayed outline of path ``index`` (of ``count`` segments) of the clip path
    ``clip``, given in the space ``outer`` takes to the page; None for a path of
    several subpaths (followed nowhere: a fill drawn through it hides as if it were not
    there).  A curve keeps its control points, which stand outside it: the outline
    holds the curve, and text beside the curve is hidden as before clips were read."""
    x, y = ctypes.c_float(), ctypes.c_float()
    points = []
    for k in range(count):
        segment = pdfium_c.FPDFClipPath_GetPathSegment(clip, index, k)
        if k and pdfium_c.FPDFPathSegment_GetType(segment) == pdfium_c.FPDF_SEGMENT_MOVETO:
            return None
        pdfium_c.FPDFPathSegment_GetPoint(segment, x, y)
        points.append(frame.point(*_apply(outer, x.value, y.value)))
    return tuple(points)


def _opaque(path: Any) -> bool:
    """Whether a filled path paints its fill with no transparency: no constant alpha
    below one, no blend mode but Normal, no soft mask, an opaque fill colour."""
    if pdfium_c.FPDFPageObj_HasTransparency(path):
        return False
    r, g, b, a = (ctypes.c_uint() for _ in range(4))
    return bool(pdfium_c.FPDFPageObj_GetFillColor(path, r, g, b, a)) and a.value == 255


def _subpath_rules(shape: str, pts: list[tuple[float, float]], stroke: bool,
                   frame: Frame) -> list[Rule]:
    """pdfminer's classification of one subpath (line, rectangle, other), then the rules
    it contributes by `shape_rules`."""
    if len(shape) < 2:  # a lone move draws nothing; pdfminer skips it too
        return []
    if len(shape) > 3 and shape.endswith("lh") and pts[-2] == pts[0]:
        shape, pts = shape[:-2] + "h", pts[:-2] + pts[-1:]
    line = shape in ("ml", "mlh")
    rect = False
    if shape in ("mlllh", "mllll"):
        (x0, y0), (x1, y1), (x2, y2), (x3, y3), _ = pts
        rect = pts[0] == pts[4] and ((x0 == x1 and y1 == y2 and x2 == x3 and y3 == y0)
                                     or (y0 == y1 and x1 == x2 and y2 == y3 and x3 == x0))
    x0, x1 = min(p[0] for p in pts), max(p[0] for p in pts)
    y0, y1 = min(p[1] for p in pts), max(p[1] for p in pts)
    if not frame.shows(x0, y0, x1, y1):
        return []
    return shape_rules(x0, y0, x1, y1, simple=line or rect or len(pts) <= 5,
                       stroked_box=rect and stroke, box=frame.box)
