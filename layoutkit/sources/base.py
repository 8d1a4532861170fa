"""What every glyph source shares, so that every engine reads a page alike.

- The protocol a source implements.
- The files it reads as images, and the check that a file is a PDF.
- The visible part of a page.
- The ruling lines a drawn shape gives.
"""

from __future__ import annotations

import math
import os
import stat
from collections.abc import Callable, Collection, Iterator, Sequence
from pathlib import Path
from types import TracebackType
from typing import Protocol, Self

from ..errors import DocumentError, UsageError
from ..model import (
    BOLD,
    BOLD_MIN,
    MAX_WEIGHT,
    REGULAR,
    BBox,
    OutlineEntry,
    PageGlyphs,
    Rule,
    named_weight,
)

__all__ = ["DEEPEST_DESCENT", "FORCE_BOLD", "IMAGE_SUFFIXES", "RULE_THICKNESS", "TEXT_DESCENT",
           "ClosingSource", "FileIdentity", "GlyphSource", "Rect", "box_descent",
           "check_file", "check_readable", "destination_top",
           "direction_of", "file_identity", "font_weight", "is_image", "shape_rules",
           "stem_weight", "visible_rect"]

DEEPEST_DESCENT = -1.0
"""The deepest descent, in ems, a glyph's box starts at: the box runs from the font's
descent to an em above it, which then still reaches the baseline.  A math font's line
metrics go deeper (Cambria Math's descent is -2.46 em, its ascent 3.12): boxed from
there, its superscripts would stand two lines under their own and be read into the
line below.  Such a font's glyphs are boxed as `box_descent` says.  Every engine boxes
glyphs so."""

TEXT_DESCENT = -0.25
"""The descent, in ems, of a text face (Times -0.22, Helvetica -0.21, Gill Sans -0.25):
where a glyph's box starts, at most, when its font's descent is deeper than
`DEEPEST_DESCENT` (`box_descent`)."""


def box_descent(descent: float, ascent: float) -> float:
    """The descent (ems) a glyph's box starts at, for a font whose own are ``descent``
    and ``ascent`` (0 when not known): its descent, or where that is deeper than
    `DEEPEST_DESCENT` a text face's (`TEXT_DESCENT`), the box reaching no higher than
    a known ascent (TeX's CMEX10, ascent 0.04 em and descent -2.96, hangs its large
    operators under the baseline: boxed an em under its ascent).

    A font that says it reaches deeper under its baseline than it rises above it
    gives its deepest glyph's descent, not a line's: no text face does (Courier New
    goes deepest, -0.68 em under an ascent of 1.02), a math font's symbols do (TeX's
    CMSY10 says -0.96 em under 0.78 for a '∈' that stands on the baseline, whose box
    stood under its line and was read into the line below).  Its glyphs are boxed as
    a deeper font's are, never lower than its own descent."""
    hangs = 0 < ascent < -descent
    if descent >= DEEPEST_DESCENT and not hangs:
        return descent
    text = min(TEXT_DESCENT, ascent - 1.0) if ascent > 0 else TEXT_DESCENT
    return text if descent < DEEPEST_DESCENT else max(descent, text)


RULE_THICKNESS = 2.0
"""A filled rectangle thinner than this (points) is drawn as a ruling line; so is a
stroke on a page image (`layoutkit.sources.ocr.image.erase_rules`)."""

UPRIGHT_MAX_SLOPE = 0.1
"""The steepest slope (rise over run, about 6 degrees) of a baseline still read as
running along an axis of the page; a watermark set diagonally across the columns is
not."""


FileIdentity = tuple[int, int, int, int]
"""A file as the engines keep what they read of it across openings: its device, inode,
size and modification time (a file rewritten in place is another)."""


def file_identity(status: os.stat_result) -> FileIdentity:
    """The identity of the file whose status is ``status`` (`FileIdentity`)."""
    return (status.st_dev, status.st_ino, status.st_size, status.st_mtime_ns)


def direction_of(a: float, b: float, c: float, d: float) -> int:
    """The direction, in degrees anticlockwise, in which the baseline of a glyph drawn
    with the em vectors (a, b) along and (c, d) across it runs as the page is
    displayed (y upwards): 0 rightwards (upright text), 90 upwards (read bottom to
    top), 180 leftwards (upside down), 270 downwards (read top to bottom), as
    pdfplumber's ``char_dir`` ltr, btt, rtl and ttb.  A baseline more than
    `UPRIGHT_MAX_SLOPE` off every axis keeps its angle, rounded to a whole
    degree (6 to 84, 96 to 174...): diagonal text such as a watermark.  Every engine
    uses it, so they agree on each glyph's direction."""
    if a and abs(b) <= UPRIGHT_MAX_SLOPE * abs(a):
        return 0 if a > 0 else 180
    if b and abs(a) <= UPRIGHT_MAX_SLOPE * abs(b):
        return 90 if b > 0 else 270
    if not (a or b):  # a glyph of no width: taken as upright text is
        return 0
    return round(math.degrees(math.atan2(b, a))) % 360


FORCE_BOLD = 1 << 18
"""The ``/Flags`` bit of a font descriptor (bit 19, ForceBold) that asks for the
font's small glyphs to be drawn bold: set for bold faces by many producers."""


def stem_weight(stem_v: float) -> int:
    """The weight PDFium gives a font whose descriptor states no ``/FontWeight`` (PDF
    1.5) from its ``/StemV``, the width of its vertical stems in thousandths of an em,
    taken as a whole number: five times it up to 140 (Times-Roman's 85 is 425), four
    times it plus 140 above (Times-Bold's 139 is 695; a stem of 140, 700).  0 for a
    font without one.  Both engines use it, so that they agree on every font."""
    stem = int(stem_v)
    return max(0, 5 * stem if stem < 140 else 4 * stem + 140)


def font_weight(name: str, stated: int, *, embedded: bool, force_bold: bool) -> int:
    """The weight of the font ``name`` (`weight`), the same with
    every engine: for an ``embedded`` font, the weight its descriptor ``stated``
    (``/FontWeight``, else `stem_weight` of ``/StemV``; 0: none); a font that is
    not embedded is drawn by a font the reader picks by its name, and so weighs what
    its name says (regular when it says nothing), as does an embedded one that states
    nothing or a weight past [`MAX_WEIGHT`][layoutkit.model.MAX_WEIGHT]: a stem no face
    has (Microsoft Print to PDF states a stem of 1000, a weight of 4140, for every
    face) says nothing of the face.  Bold wherever its name says bold
    (``Arial-BoldMT``, whose stem the producer stated as a regular face's) or its
    descriptor sets `FORCE_BOLD`."""
    named = named_weight(name)
    weight = stated if embedded and 0 < stated <= MAX_WEIGHT else named or REGULAR
    if named >= BOLD_MIN:
        weight = max(weight, named)
    if force_bold:
        weight = max(weight, BOLD)
    return weight


IMAGE_SUFFIXES = frozenset({
    ".png", ".jpg", ".jpeg", ".tif", ".tiff", ".bmp", ".gif", ".webp",
    ".pnm", ".pbm", ".pgm", ".ppm", ".jp2", ".j2k", ".jpx",
})
"""File name endings read as images (`layoutkit.sources.images`) rather than PDFs."""


def is_image(path: Path) -> bool:
    """Whether ``path`` names an image file (by its ending), to be read by OCR."""
    return path.suffix.lower() in IMAGE_SUFFIXES


class GlyphSource(Protocol):
    """An open document that yields the glyphs of its pages; a context manager."""

    path: Path

    def __enter__(self) -> GlyphSource: ...

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None: ...

    @property
    def page_count(self) -> int: ...

    def pages(self, page_numbers: Sequence[int]) -> Iterator[PageGlyphs]:
        """The glyphs of each 1-based page of ``page_numbers``, in that order."""
        ...

    def labels(self) -> tuple[str, ...]:
        """Each page's label by the PDF's ``/PageLabels``, in order; all empty when it
        has none."""
        ...

    def outline(self, heavy: Collection[int] = ()) -> tuple[OutlineEntry, ...]:
        """The document's outline (its bookmarks) in order; empty when it has none.  The
        ``heavy`` pages (by number: pages that draw far more than an ordinary one,
        `layoutkit.sources.guard`) are not opened to place their entries' heights,
        which are then None."""
        ...

    def close(self) -> None: ...


def check_file(path: Path, expected: str) -> None:
    """Raise a UsageError naming ``path`` unless it is a regular file (a link to one
    will do): missing, a folder, or a FIFO, device or socket, which could make a
    reader wait for ever or read without end.  ``expected`` says what it should be."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        raise UsageError(f"{path}: no such file") from None
    except OSError as exc:
        raise UsageError(f"{path}: cannot be read ({exc.strerror})") from None
    if stat.S_ISDIR(mode):
        raise UsageError(f"{path}: is a directory, expected {expected}")
    if not stat.S_ISREG(mode):
        kind = "a FIFO" if stat.S_ISFIFO(mode) else "a device" if stat.S_ISCHR(mode) or \
            stat.S_ISBLK(mode) else "a socket" if stat.S_ISSOCK(mode) else "not a regular file"
        raise UsageError(f"{path}: is {kind}, expected {expected}")


def check_readable(path: Path) -> None:
    """Raise a UsageError/DocumentError naming ``path`` unless it looks like a PDF."""
    check_file(path, "a PDF file")
    try:
        with path.open("rb") as fh:
            head = fh.read(1024)
    except OSError as exc:
        raise DocumentError(f"{path}: cannot be read ({exc.strerror})") from exc
    if not head:
        raise DocumentError(f"{path}: empty file, expected a PDF")
    if b"%PDF-" not in head:
        raise DocumentError(f"{path}: not a PDF (no %PDF- header in its first 1024 bytes)")


class ClosingSource:
    """What every glyph source shares: leaving a ``with`` block closes it."""

    def __enter__(self) -> Self:
        return self

    def close(self) -> None:
        """Release the document; closing twice is harmless."""
        raise NotImplementedError

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


Rect = tuple[float, float, float, float]
"""A rectangle in PDF user space (bottom-left origin): x0, y0, x1, y1."""

OUTLINE_MAX_ENTRIES = 100_000
"""An outline is read no further than this many entries: a broken file's tree may
run on without end (every engine stops at the same entry)."""


def destination_top(y: float | None, visible: Rect, rotate: int) -> float | None:
    """How far down the displayed page a destination points, in top-left points: the
    user-space height ``y`` a destination gives, on a page whose visible part is
    ``visible`` (`visible_rect`) turned ``rotate`` degrees, held to the page.  None
    without a height, or on a page turned a quarter, where the height runs across the
    displayed page; to a tenth of a point (PDFium reads in single precision).  Every
    engine uses it, so they agree on every entry."""
    if y is None or rotate % 180:
        return None
    _, y0, _, y1 = visible
    top = y1 - y if rotate % 360 == 0 else y - y0
    return round(min(max(top, 0.0), y1 - y0), 1)


def visible_rect(mediabox: Rect, cropbox: Rect | None) -> Rect:
    """The part of the page a viewer shows, in PDF user space: the crop box clipped
    to the media box, or the whole media box when there is no crop box or the clipped
    one is empty.  Every engine crops with this rectangle, so they agree on what is
    visible."""
    mx0, my0, mx1, my1 = mediabox
    cx0, cy0, cx1, cy1 = cropbox or mediabox
    cx0, cx1 = max(cx0, mx0), min(cx1, mx1)
    cy0, cy1 = max(cy0, my0), min(cy1, my1)
    if cx1 <= cx0 or cy1 <= cy0:  # a degenerate crop box shows the media box
        return mediabox
    return cx0, cy0, cx1, cy1


def shape_rules(x0: float, y0: float, x1: float, y1: float, *, simple: bool, stroked_box: bool,
                box: Callable[[float, float, float, float], BBox]) -> list[Rule]:
    """The ruling lines one drawn shape (bounds in PDF user space) contributes, the
    same for every engine: a thin ``simple`` shape (a line, a rectangle, a short path)
    is one rule; a stroked rectangle gives its four edges; anything else none.
    ``box`` converts user-space bounds to a top-left page box."""
    thin = (x1 - x0) <= RULE_THICKNESS or (y1 - y0) <= RULE_THICKNESS
    if thin and simple:
        return [Rule(box(x0, y0, x1, y1))]
    if stroked_box:
        return [Rule(box(x0, y0, x1, y0)), Rule(box(x0, y1, x1, y1)),
                Rule(box(x0, y0, x0, y1)), Rule(box(x1, y0, x1, y1))]
    return []
