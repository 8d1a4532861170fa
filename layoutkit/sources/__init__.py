"""Glyph sources: where a page's characters and ruling lines come from.

A glyph source opens one document and yields `PageGlyphs` per page, already in
top-left-origin points with the page's `/Rotate` and crop box applied.  Every later
stage sees only those values, so another source (OCR words, a faster PDF engine) plugs
in by implementing `GlyphSource` and registering itself in `ENGINES`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path

from ..config import LayoutConfig
from ..errors import UsageError
from .base import IMAGE_SUFFIXES, GlyphSource, is_image

__all__ = ["DEFAULT_ENGINE", "ENGINES", "IMAGE_SUFFIXES", "GlyphSource", "is_image",
           "open_source"]


def _imported(module: str, name: str) -> Callable[[Path], GlyphSource]:
    """The glyph source ``name`` of the layoutkit module ``module``, imported when a
    document is first opened with it: each engine's PDF library takes a noticeable time to load."""

    def open_with(path: Path) -> GlyphSource:
        source: Callable[[Path], GlyphSource] = getattr(
            importlib.import_module(f".{module}", __package__), name)
        return source(path)

    return open_with


ENGINES: dict[str, Callable[[Path], GlyphSource]] = {
    "pdfium": _imported("pdfium", "PdfiumSource"),
    "pdfminer": _imported("pdfminer", "PdfminerSource"),
}
"""The glyph sources by name; the first is the default.  Both give the same glyphs
(``tests/test_engines.py``) and read the labelled pages alike; pdfium reads them
several times faster (``benchmarks/RESULTS.md``)."""

DEFAULT_ENGINE = next(iter(ENGINES))
"""The glyph source used when none is named (``--engine``): ``pdfium``."""


def open_source(path: Path | str, engine: str = DEFAULT_ENGINE, *,
                image_dpi: int | None = None, image_max_pixels: int | None = None,
                image_max_frames: int | None = None) -> GlyphSource:
    """Open ``path`` with the named glyph source (a context manager too); an image
    file ([`is_image`][layoutkit.sources.is_image]) opens as pages without glyphs for OCR,
    ``image_dpi`` (default: the config's) its resolution when it does not state one, refused when
    a frame has more than ``image_max_pixels`` (default: the config's) pixels, read no
    further than ``image_max_frames`` (default: the config's) frames."""
    try:
        factory = ENGINES[engine]
    except KeyError:
        raise UsageError(
            f"unknown engine {engine!r}; known engines: {', '.join(ENGINES)}"
        ) from None
    if is_image(Path(path)):
        # Pillow is imported only to read an image
        from .images import ImageSource

        defaults = LayoutConfig().sources
        return ImageSource(Path(path), image_dpi or defaults.image_dpi,
                           image_max_pixels or defaults.image_max_pixels,
                           image_max_frames or defaults.image_max_frames)
    return factory(Path(path))
