"""Glyph sources: where a page's characters and ruling lines come from.

A glyph source opens one document and yields :class:`~layoutkit.model.PageGlyphs`
per page, already in top-left-origin points with the page's ``/Rotate`` and crop
box applied.  Every later stage sees only those values, so another source (OCR
words, a faster PDF engine) plugs in by implementing :class:`GlyphSource` and
registering itself in :data:`ENGINES`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import TracebackType
from typing import Protocol, Self

from .config import LayoutConfig
from .errors import DocumentError, UsageError
from .model import BBox, PageGlyphs, Rule

__all__ = ["DEFAULT_ENGINE", "ENGINES", "IMAGE_SUFFIXES", "RULE_THICKNESS", "GlyphSource",
           "is_image", "open_source"]

RULE_THICKNESS = 2.0
"""A filled rectangle thinner than this (points) is drawn as a ruling line; so is a
stroke on a page image (:func:`layoutkit.ocr_image.erase_rules`)."""


IMAGE_SUFFIXES = frozenset({
    ".png", ".jpg", ".jpeg", ".tif", ".tiff", ".bmp", ".gif", ".webp",
    ".pnm", ".pbm", ".pgm", ".ppm", ".jp2", ".j2k", ".jpx",
})
"""File name endings read as images (:mod:`layoutkit.images`) rather than PDFs."""


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

    def close(self) -> None: ...


def _check_readable(path: Path) -> None:
    """Raise a UsageError/DocumentError naming ``path`` unless it looks like a PDF."""
    if not path.exists():
        raise UsageError(f"{path}: no such file")
    if path.is_dir():
        raise UsageError(f"{path}: is a directory, expected a PDF file")
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


def _visible_rect(mediabox: Rect, cropbox: Rect | None) -> Rect:
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


def _imported(module: str, name: str) -> Callable[[Path], GlyphSource]:
    """The glyph source ``name`` of the layoutkit module ``module``, imported when a
    document is first opened with it: the engines' modules need this one's helpers,
    and each engine's PDF library takes a noticeable time to load."""

    def open_with(path: Path) -> GlyphSource:
        source: Callable[[Path], GlyphSource] = getattr(
            importlib.import_module(f".{module}", __package__), name)
        return source(path)

    return open_with


ENGINES: dict[str, Callable[[Path], GlyphSource]] = {
    "pdfium": _imported("pdfium", "PdfiumSource"),
    "pdfminer": _imported("pdfminer_source", "PdfminerSource"),
}
"""The glyph sources by name; the first is the default.  Both give the same glyphs
(``tests/test_engines.py``) and read the labelled pages alike; pdfium reads them
several times faster (``benchmarks/RESULTS.md``)."""

DEFAULT_ENGINE = next(iter(ENGINES))


def open_source(path: Path | str, engine: str = DEFAULT_ENGINE, *,
                image_dpi: int | None = None) -> GlyphSource:
    """Open ``path`` with the named glyph source (a context manager too); an image
    file (:func:`is_image`) opens as pages without glyphs for OCR, ``image_dpi``
    (default: the config's) its resolution when it does not state one."""
    try:
        factory = ENGINES[engine]
    except KeyError:
        raise UsageError(
            f"unknown engine {engine!r}; known engines: {', '.join(ENGINES)}"
        ) from None
    if is_image(Path(path)):
        # Pillow is imported only to read an image
        from .images import ImageSource

        return ImageSource(Path(path), image_dpi or LayoutConfig().image_dpi)
    return factory(Path(path))
