"""What a PDF page draws besides its text, as PDFium gives it.

Its pictures (image objects) and its visible paths, inside forms too, each with its
displayed box (cut to its clipping path: a chart placed from another PDF draws its
whole page, the part outside the placed box clipped away), and the groups they make
where they stand together (`layoutkit.outputs.figures` tells which groups are
figures)."""

from __future__ import annotations

import ctypes
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from ...model import BBox

__all__ = ["Piece", "grouped", "page_pieces"]

_JOIN_EM = 1.0
"""Pictures and paths this many ems of the page's type apart, or closer, are one
figure: the pieces of a chart, the panels of a picture.  Not a parameter."""
_RULE_THICKNESS = 2.0
"""A path this thin (in points) is a rule."""
_RULE_MIN_EM = 12.0
"""A thin path this many ems long is a rule between columns or a table's, not a piece
of a drawing: it joins only what it touches."""


@dataclass(frozen=True, slots=True)
class Piece:
    """A drawn object: its displayed box, whether it is a picture, a thin rule, and
    the image object's address (for a picture) with whether it stands upright (it can
    be taken out as it is)."""

    box: BBox
    picture: bool
    rule: bool
    source: Any = None
    upright: bool = False


def page_pieces(pdf_page: Any) -> list[Piece]:
    """What ``pdf_page`` (a pypdfium2 page) draws besides text: its visible paths and
    its image objects, inside forms too (a form's matrix taking them on to the page),
    each with its displayed box: its bounds cut to its clipping path's (`_clip_box`)
    and to the forms' around it; what the clip hides wholly is left out.  Only PDFium's
    raw calls are made per object: a page holds tens of thousands of text objects,
    passed over."""
    from ...sources.pdfium.bindings import (
        address,
        argument,
        object_type,
        page_object_at,
        pdfium_c,
        pointer,
    )
    from ...sources.pdfium.frame import Frame

    frame = Frame.of(pdf_page.raw)
    width, height = frame.size
    pieces: list[Piece] = []
    bounds = [ctypes.c_float() for _ in range(4)]
    matrix = pdfium_c.FS_MATRIX()
    image, path, form = (pdfium_c.FPDF_PAGEOBJ_IMAGE, pdfium_c.FPDF_PAGEOBJ_PATH,
                         pdfium_c.FPDF_PAGEOBJ_FORM)

    def on_page(box: _Box, outer: tuple[tuple[float, ...], ...]) -> _Box:
        """``box`` (in the innermost form's space) in the page's space."""
        x0, y0, x1, y1 = box
        corners = [(x0, y0), (x1, y0), (x0, y1), (x1, y1)]
        for a, b, c, d, e, f in outer:  # innermost form first
            corners = [(a * x + c * y + e, b * x + d * y + f) for x, y in corners]
        xs, ys = [x for x, _ in corners], [y for _, y in corners]
        return min(xs), min(ys), max(xs), max(ys)

    def walk(objects: list[int], outer: tuple[tuple[float, ...], ...], upright: bool,
             seen: _Box | None) -> None:
        for at in objects:
            kind = object_type(pointer(at))
            if kind not in (image, path, form):
                continue
            obj = ctypes.cast(at, pdfium_c.FPDF_PAGEOBJECT)
            clip = _clip_box(obj, pdfium_c)
            shown = _meet(seen, None if clip in (None, _NOWHERE) else on_page(clip, outer))
            if clip == _NOWHERE or shown == _NOWHERE:
                continue  # clipped away
            if kind == form:
                if not pdfium_c.FPDFPageObj_GetMatrix(obj, matrix):
                    continue
                m = (matrix.a, matrix.b, matrix.c, matrix.d, matrix.e, matrix.f)
                count = int(pdfium_c.FPDFFormObj_CountObjects(obj))
                walk([address(pdfium_c.FPDFFormObj_GetObject(obj, k)) for k in range(count)],
                     (m, *outer), upright and _upright(m), shown)
                continue
            if kind == path and not _visible_path(obj, pdfium_c):
                continue
            if not pdfium_c.FPDFPageObj_GetBounds(obj, *bounds):
                continue
            x0, y0, x1, y1 = (b.value for b in bounds)
            seen_box = _meet(shown, on_page((x0, y0, x1, y1), outer))
            if seen_box in (None, _NOWHERE) or not frame.shows(*seen_box):
                continue  # clipped away, or off the displayed page
            box = frame.box(*seen_box).on_page(width, height)
            picture = kind == image
            straight = upright
            if picture and pdfium_c.FPDFPageObj_GetMatrix(obj, matrix):
                straight = upright and _upright((matrix.a, matrix.b, matrix.c, matrix.d))
            thin = min(box.width, box.height) <= _RULE_THICKNESS
            if picture and thin:
                continue  # a picture drawn as a line or a dot: a mark, no figure's piece
            pieces.append(Piece(box, picture, thin and not picture, at if picture else None,
                                 straight))

    count = int(pdfium_c.FPDFPage_CountObjects(pdf_page.raw))
    page = argument(pdf_page.raw)
    walk([page_object_at(page, k) for k in range(count)], (), frame.rotate == 0, None)
    return pieces


_Box = tuple[float, float, float, float]
"""A box as PDF space gives it: left, bottom, right, top."""
_NOWHERE: _Box = (0.0, 0.0, -1.0, -1.0)
"""The box of a clip whose subpaths meet nowhere: it hides all it clips."""


def _clip_box(obj: Any, pdfium_c: Any) -> _Box | None:
    """The box of what the clipping path of ``obj`` (a PDFium page object) lets show, in
    the space the object's bounds are given in: the meeting of its subpaths' boxes (the
    clip is where they all paint); None when nothing clips it, an empty box when it
    meets nowhere."""
    clip = pdfium_c.FPDFPageObj_GetClipPath(obj)
    if not clip:
        return None
    found: _Box | None = None
    x, y = ctypes.c_float(), ctypes.c_float()
    for k in range(max(int(pdfium_c.FPDFClipPath_CountPaths(clip)), 0)):
        xs, ys = [], []
        for n in range(max(int(pdfium_c.FPDFClipPath_CountPathSegments(clip, k)), 0)):
            segment = pdfium_c.FPDFClipPath_GetPathSegment(clip, k, n)
            if segment and pdfium_c.FPDFPathSegment_GetPoint(segment, x, y):
                xs.append(x.value)
                ys.append(y.value)
        if xs:
            found = _meet(found, (min(xs), min(ys), max(xs), max(ys))) or _NOWHERE
    return found


def _meet(box: _Box | None, other: _Box | None) -> _Box | None:
    """Where two boxes meet (None stands for no bound: the other box); `_NOWHERE` when
    they do not meet."""
    if box is None or other is None:
        return other if box is None else box
    x0, y0 = max(box[0], other[0]), max(box[1], other[1])
    x1, y1 = min(box[2], other[2]), min(box[3], other[3])
    return (x0, y0, x1, y1) if x0 <= x1 and y0 <= y1 and _NOWHERE not in (box, other) \
        else _NOWHERE


def _upright(matrix: Sequence[float]) -> bool:
    """Whether a matrix (a, b, c, d, ...) neither turns nor mirrors what it draws."""
    a, b, c, d = matrix[:4]
    return b == c == 0 and a > 0 and d > 0


def _visible_path(obj: Any, pdfium_c: Any) -> bool:
    """Whether a path object paints anything one sees: it is stroked, or filled with a
    colour other than white (a white box clears a page's background)."""
    fill, stroke = ctypes.c_int(), ctypes.c_int()
    if not pdfium_c.FPDFPath_GetDrawMode(obj, fill, stroke):
        return False
    if stroke.value:
        return True
    if not fill.value:
        return False
    r, g, b, a = (ctypes.c_uint() for _ in range(4))
    if not pdfium_c.FPDFPageObj_GetFillColor(obj, r, g, b, a):
        return True
    return a.value > 0 and (r.value, g.value, b.value) != (255, 255, 255)


def grouped(pieces: Sequence[Piece], size: float, width: float, height: float
            ) -> list[list[Piece]]:
    """The ``pieces`` in groups connected on a grid of one point a cell: pieces within
    `_JOIN_EM` ems of each other, and long rules only where they touch (a table's grid,
    a chart's axes; a rule between columns touches nothing).  A group of rules alone is
    kept when it is a grid: four rules or more, across and down."""
    if not pieces:
        return []
    rows, cols = int(height) + 3, int(width) + 3
    grid = np.zeros((rows, cols), dtype=np.uint8)
    cells = []
    for piece in pieces:
        b = piece.box
        margin = 1.0 if _long_rule(piece, size) else _JOIN_EM * size / 2
        r0, r1 = _clip(b.top - margin, rows), _clip(b.bottom + margin, rows) + 1
        c0, c1 = _clip(b.x0 - margin, cols), _clip(b.x1 + margin, cols) + 1
        grid[r0:r1, c0:c1] = 1
        cells.append((r0, c0))
    _, labels = cv2.connectedComponents(grid, connectivity=8)
    by_label: dict[int, list[Piece]] = {}
    for piece, (r, c) in zip(pieces, cells, strict=True):
        by_label.setdefault(int(labels[r, c]), []).append(piece)
    return [group for group in by_label.values()
            if not all(_long_rule(piece, size) for piece in group) or _grid(group)]


def _long_rule(piece: Piece, size: float) -> bool:
    """Whether ``piece`` is a rule `_RULE_MIN_EM` ems long or longer."""
    return piece.rule and max(piece.box.width, piece.box.height) >= _RULE_MIN_EM * size


def _grid(rules: Sequence[Piece]) -> bool:
    """Whether ``rules`` draw a grid: four or more, some across and some down."""
    across = sum(piece.box.width > piece.box.height for piece in rules)
    return len(rules) >= 4 and 0 < across < len(rules)


def _clip(value: float, limit: int) -> int:
    return min(max(int(value), 0), limit - 1)
