"""An image made into a PDF of one page per frame, a frame at a time.

Each frame is decoded, written as a one-page PDF by Pillow (a bilevel frame stays
bilevel, CCITT-compressed; a grey one grey) and let go before the next is read, so
memory stays that of one frame, whatever the number of frames.  A frame of one
colour (a blank page between a fax's pages) becomes an empty page of its size,
which the OCR stage finds blank without reading it.  At most ``image_max_frames``
frames are read; the frames past them are left out and said so.
"""

from __future__ import annotations

import io
import logging
from pathlib import Path

import pypdfium2 as pdfium  # type: ignore[import-untyped]
from PIL import Image

from ..config import SourcesConfig
from ..errors import DocumentError
from .images import read_frames, stated_dpi, uniform

__all__ = ["image_pdf"]

_log = logging.getLogger(__name__)

_PDF_MODES = frozenset({"1", "L", "RGB", "CMYK"})
"""The frame modes Pillow writes into a PDF as they are; other frames become RGB."""


def image_pdf(source: Path, target: Path, config: SourcesConfig) -> tuple[Path, str | None]:
    """``target``, written with a page for each frame of the image ``source`` (its
    size from the frame's stated resolution, else ``image_dpi``), and the frames left
    unread past ``image_max_frames``, in words (None when there are none).

    Raises DocumentError naming the file (and the frame) when a frame cannot be
    decoded or has more than ``image_max_pixels`` pixels."""
    pdf = pdfium.PdfDocument.new()
    try:
        frames = read_frames(source, config.image_max_frames, config.image_max_pixels)
        for number, frame in enumerate(frames, 1):
            try:
                _add_page(pdf, frame, stated_dpi(frame) or float(config.image_dpi))
            except (OSError, ValueError, EOFError, SyntaxError) as exc:
                raise DocumentError(f"{source}: page {number}: cannot decode the image "
                                    f"({exc})") from exc
        pdf.save(str(target))
    finally:
        pdf.close()
    if not frames.more:
        return target, None
    left = (f"the frames past the first {config.image_max_frames:,} are left unread "
            "(image_max_frames)")
    _log.warning("%s: %s", source, left)
    return target, left


def _add_page(pdf: pdfium.PdfDocument, frame: Image.Image, dpi: float) -> None:
    """Append ``frame`` to ``pdf`` as a page ``dpi`` pixels to the inch: an empty page
    for a frame of one colour, else the frame as the page's picture."""
    width, height = frame.width * 72 / dpi, frame.height * 72 / dpi
    if uniform(frame):
        pdf.new_page(width, height)
        return
    picture = frame if frame.mode in _PDF_MODES else frame.convert("RGB")
    buffer = io.BytesIO()
    picture.save(buffer, "PDF", resolution=dpi)
    page = pdfium.PdfDocument(buffer.getvalue())
    try:
        pdf.import_pages(page)
    finally:
        page.close()
