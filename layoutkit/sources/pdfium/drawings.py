"""The ruling lines and pictures of a page, from its path, image and form objects,
classified as pdfminer's engine classifies them."""

from __future__ import annotations

import ctypes
from collections.abc import Iterator
from itertools import repeat
from typing import Any

import numpy as np
import numpy.typing as npt

from ...model import BBox, Rule
from ..base import shape_rules
from .bindings import address, argument, object_type, page_object_at, pdfium_c, pointer
from .frame import IDENTITY, Frame, Matrix

__all__ = ["drawings"]

_DRAWN = (pdfium_c.FPDF_PAGEOBJ_PATH, pdfium_c.FPDF_PAGEOBJ_IMAGE, pdfium_c.FPDF_PAGEOBJ_FORM)
"""The kinds of page object that may draw rules or images, or hold objects that do."""

def drawings(page: Any, frame: Frame, text_objects: npt.NDArray[np.uint64]
              ) -> tuple[tuple[Rule, ...], tuple[BBox, ...], list[int]]:
    """The page's ruling lines and image boxes, form XObjects included, and the text
    objects (addresses) that are not among ``text_objects``: those PDFium's text page
    left out (see :mod:`layoutkit.sources.pdfium.unseen`).

    PDFium keeps the objects of a form XObject inside the form object, their matrices
    relative to it; the form object's matrix takes them on to the page.  The
    ``text_objects`` (addresses, sorted) are known to be text, and PDFium is not
    asked about them: most objects of a page are text.
    """
    rules: list[Rule] = []
    images: list[BBox] = []
    unseen: list[int] = []
    matrix = pdfium_c.FS_MATRIX()

    def drawn(addresses: Iterator[int], count: int) -> list[tuple[int, int]]:
        """The objects of ``addresses`` that may draw, as (address, kind) pairs."""
        others = np.fromiter(addresses, dtype=np.uint64, count=count)
        if len(text_objects):  # sorted: each object looked up where it would stand
            at = np.minimum(np.searchsorted(text_objects, others), len(text_objects) - 1)
            others = others[text_objects[at] != others]
        kinds = np.fromiter(map(object_type, map(pointer, others.tolist())),
                            dtype=np.intc, count=len(others))
        unseen.extend(others[kinds == pdfium_c.FPDF_PAGEOBJ_TEXT].tolist())
        picked = np.isin(kinds, _DRAWN)
        return list(zip(others[picked].tolist(), kinds[picked].tolist(), strict=True))

    def walk(objects: list[tuple[int, int]], outer: Matrix) -> None:
        for at, kind in objects:
            obj = ctypes.cast(at, pdfium_c.FPDF_PAGEOBJECT)
            if not pdfium_c.FPDFPageObj_GetMatrix(obj, matrix):
                continue
            to_user = _compose((matrix.a, matrix.b, matrix.c, matrix.d, matrix.e, matrix.f),
                               outer)
            if kind == pdfium_c.FPDF_PAGEOBJ_PATH:
                rules.extend(_path_rules(obj, to_user, frame))
            elif kind == pdfium_c.FPDF_PAGEOBJ_IMAGE:
                corners = [_apply(to_user, x, y) for x, y in ((0, 0), (1, 0), (0, 1), (1, 1))]
                x0, y0 = min(p[0] for p in corners), min(p[1] for p in corners)
                x1, y1 = max(p[0] for p in corners), max(p[1] for p in corners)
                if frame.shows(x0, y0, x1, y1):
                    images.append(frame.box(x0, y0, x1, y1))
            else:
                count = int(pdfium_c.FPDFFormObj_CountObjects(obj))
                inner = (address(pdfium_c.FPDFFormObj_GetObject(obj, k)) for k in range(count))
                walk(drawn(inner, count), to_user)

    count = int(pdfium_c.FPDFPage_CountObjects(page))
    walk(drawn(map(page_object_at, repeat(argument(page), count), range(count)), count),
         IDENTITY)
    return tuple(rules), tuple(images), unseen


def _compose(inner: Matrix, outer: Matrix) -> Matrix:
    """The matrix that applies ``inner`` first, then ``outer``."""
    a, b, c, d, e, f = inner
    oa, ob, oc, od, oe, of = outer
    return (a * oa + b * oc, a * ob + b * od, c * oa + d * oc, c * ob + d * od,
            e * oa + f * oc + oe, e * ob + f * od + of)


def _apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    """The point (x, y) transformed by ``m``."""
    return m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]


def _path_rules(path: Any, to_user: Matrix, frame: Frame) -> list[Rule]:
    """The ruling lines a path object contributes, classified as pdfminer does.

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
    return rules


def _subpath_rules(shape: str, pts: list[tuple[float, float]], stroke: bool,
                   frame: Frame) -> list[Rule]:
    """pdfminer's classification of one subpath (line, rectangle, other), then the rules
    it contributes by :func:`~layoutkit.sources.base.shape_rules`."""
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
