"""Pages as pictures for people to look at, rendered or embedded as `data:` URIs.

They serve the overlays of `layoutkit draw` (`draw`) and the HTML pages checked by eye
(`layoutkit truth review`, the evaluation report).

- A page of a PDF or an image file is rendered at a chosen resolution: a PDF page by
  pypdfium2, a page of an image file as its frame, turned upright and scaled.
- Either way the picture comes with its pixels per point, so what is known in points
  from the page's top-left corner (a line's box) is placed on it by multiplying.
- A picture as a `data:` URI lets the HTML hold its images itself and open anywhere
  without a network or the files beside it.
"""

from __future__ import annotations

import base64
import io
from pathlib import Path

from PIL import Image

from ..config import LayoutConfig
from ..errors import DocumentError, UsageError
from ..sources import is_image
from . import DPI_RANGE

__all__ = ["data_uri", "page_png"]


def page_png(path: Path, page_no: int, dpi: int, *,
             image_dpi: int | None = None) -> tuple[Image.Image, float]:
    """Page ``page_no`` (1-based) of the PDF or image at ``path`` as an RGB picture at
    about ``dpi`` dots per inch, and the pixels one point of the page measures on it.

    ``image_dpi`` is the resolution an image file is taken to have when it states
    none (default: the config's ``image_dpi``, as [`layoutkit.parse`][layoutkit.parse] reads it),
    so that its points are the ones the reading gives its lines.  Raises UsageError
    for a page the document does not have or a resolution out of
    [`DPI_RANGE`][layoutkit.outputs.pictures.DPI_RANGE], and DocumentError when the page cannot be
    rendered."""
    if not DPI_RANGE[0] <= dpi <= DPI_RANGE[1]:
        raise UsageError(f"dpi {dpi}: expected {DPI_RANGE[0]} to {DPI_RANGE[1]}")
    if is_image(path):
        return _image_page(path, page_no, dpi, image_dpi or LayoutConfig().sources.image_dpi)
    return _pdf_page(path, page_no, dpi)


def _pdf_page(path: Path, page_no: int, dpi: int) -> tuple[Image.Image, float]:
    """A PDF page rendered by pypdfium2 at ``dpi``, with its pixels per point."""
    import pypdfium2 as pdfium  # type: ignore[import-untyped]

    try:
        pdf = pdfium.PdfDocument(path)
    except pdfium.PdfiumError as error:
        raise DocumentError(f"{path}: cannot be rendered ({error})") from None
    try:
        if not 1 <= page_no <= len(pdf):
            raise UsageError(f"{path}: page {page_no}: the document has {len(pdf)} page(s)")
        scale = dpi / 72
        # the picture is copied out of the bitmap, whose memory pdfium frees with it
        picture: Image.Image = pdf[page_no - 1].render(scale=scale).to_pil().convert("RGB")
    finally:
        pdf.close()
    return picture, scale


def _image_page(path: Path, page_no: int, dpi: int, image_dpi: int) -> tuple[Image.Image, float]:
    """A frame of an image file scaled to ``dpi``, with its pixels per point."""
    from ..sources.images import ImageSource, frame

    pages = ImageSource(path, image_dpi).page_count
    if not 1 <= page_no <= pages:
        raise UsageError(f"{path}: page {page_no}: the image has {pages} page(s)")
    picture, points_per_pixel = frame(path, page_no, image_dpi)
    width_points = picture.width * points_per_pixel
    factor = dpi / 72 * points_per_pixel
    size = (max(1, round(picture.width * factor)), max(1, round(picture.height * factor)))
    if size != picture.size:
        picture = picture.resize(size, Image.Resampling.LANCZOS)
    return picture.convert("RGB"), picture.width / width_points


def data_uri(image: Image.Image, *, colours: int | None = None) -> str:
    """``image`` as a PNG ``data:`` URI, the value of an ``<img src>`` that needs no
    file beside the HTML and no network.

    With ``colours`` (2 to 256) the picture is first reduced to that many colours: a
    page of print at 100 dpi keeps its look with 64 and takes a quarter of the bytes,
    which counts in an HTML page holding dozens of pages."""
    if colours is not None:
        image = image.convert("RGB").quantize(colors=colours, method=Image.Quantize.FASTOCTREE)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")
