"""Glyph sources: where a page's characters and ruling lines come from.

A glyph source opens one document and yields :class:`~layoutkit.model.PageGlyphs`
per page, already in top-left-origin points with the page's ``/Rotate`` and crop
box applied.  Every later stage sees only those values, so another source (OCR
words, a faster PDF engine) plugs in by implementing :class:`GlyphSource` and
registering itself in :data:`ENGINES`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, BinaryIO, Protocol, Self

from pdfminer.converter import PDFPageAggregator
from pdfminer.layout import LTChar, LTContainer, LTCurve, LTImage, LTLine, LTPage, LTRect
from pdfminer.pdfdocument import PDFDocument, PDFEncryptionError, PDFPasswordIncorrect
from pdfminer.pdfinterp import PDFPageInterpreter, PDFResourceManager
from pdfminer.pdfpage import PDFPage
from pdfminer.pdfparser import PDFParser

from .errors import DocumentError, UsageError
from .model import BBox, Glyph, PageGlyphs, Rule

__all__ = ["DEFAULT_ENGINE", "ENGINES", "GlyphSource", "PdfminerSource", "open_source"]

_RULE_THICKNESS = 2.0
"""A filled rectangle thinner than this (points) is drawn as a ruling line."""


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


class PdfminerSource(ClosingSource):
    """Glyphs and rules from pdfminer.six's content-stream interpreter.

    Layout analysis is switched off (``laparams=None``): pdfminer only reports
    what is drawn where, and layoutkit's geometry does the rest.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        _check_readable(path)
        self._fh: BinaryIO = path.open("rb")
        try:
            document = PDFDocument(PDFParser(self._fh))
            self._pages: list[PDFPage] = list(PDFPage.create_pages(document))
        except (PDFPasswordIncorrect, PDFEncryptionError) as exc:
            self._fh.close()
            raise DocumentError(f"{path}: encrypted PDF, a password is needed to read it") from exc
        except Exception as exc:  # pdfminer raises many unrelated types on broken files
            self._fh.close()
            raise DocumentError(f"{path}: corrupt or unreadable PDF ({_reason(exc)})") from exc
        if not self._pages:
            self._fh.close()
            raise DocumentError(f"{path}: the PDF has no pages")
        self._resources = PDFResourceManager(caching=True)
        self._device = PDFPageAggregator(self._resources, laparams=None)
        self._interpreter = PDFPageInterpreter(self._resources, self._device)

    @property
    def page_count(self) -> int:
        return len(self._pages)

    def pages(self, page_numbers: Sequence[int]) -> Iterator[PageGlyphs]:
        for page_no in page_numbers:
            page = self._pages[page_no - 1]
            try:
                self._interpreter.process_page(page)
                layout: LTPage = self._device.get_result()
            except Exception as exc:
                raise DocumentError(
                    f"{self.path}: page {page_no} cannot be read ({_reason(exc)})"
                ) from exc
            yield _page_glyphs(page_no, page, layout)

    def close(self) -> None:
        self._fh.close()


def _reason(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


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


def _visible_box(page: PDFPage, layout: LTPage) -> Rect:
    """The crop box in the interpreter's (rotated, bottom-left) space: x0, y0, x1, y1.

    pdfminer already rotates by ``/Rotate`` and moves the media box to the origin;
    the crop box has to follow the same transformation to know what is visible.
    """
    mx0, my0, mx1, my1 = page.mediabox
    cx0, cy0, cx1, cy1 = _visible_rect(page.mediabox, page.cropbox)
    x0, y0, x1, y1 = cx0 - mx0, cy0 - my0, cx1 - mx0, cy1 - my0
    width, height = mx1 - mx0, my1 - my0
    rotate = (page.rotate or 0) % 360
    if rotate == 90:
        return y0, width - x1, y1, width - x0
    if rotate == 180:
        return width - x1, height - y1, width - x0, height - y0
    if rotate == 270:
        return height - y1, x0, height - y0, x1
    return x0, y0, x1, y1


def _page_glyphs(page_no: int, page: PDFPage, layout: LTPage) -> PageGlyphs:
    """Convert pdfminer's bottom-left objects to top-left glyphs and rules, cropped."""
    vx0, vy0, vx1, vy1 = _visible_box(page, layout)
    glyphs: list[Glyph] = []
    rules: list[Rule] = []
    images: list[BBox] = []

    def box(x0: float, y0: float, x1: float, y1: float) -> BBox:
        return BBox(x0 - vx0, vy1 - y1, x1 - vx0, vy1 - y0)

    def visible(x0: float, y0: float, x1: float, y1: float) -> bool:
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        return vx0 <= cx <= vx1 and vy0 <= cy <= vy1

    def walk(container: Any) -> None:
        for item in container:
            if isinstance(item, LTChar):
                if visible(item.x0, item.y0, item.x1, item.y1):
                    glyphs.append(Glyph(item.get_text(), box(item.x0, item.y0, item.x1, item.y1),
                                        item.fontname, item.size, item.upright))
            elif isinstance(item, (LTRect, LTLine, LTCurve)):
                rules.extend(_rules_of(item, box, visible))
            elif isinstance(item, LTImage):
                if visible(item.x0, item.y0, item.x1, item.y1):
                    images.append(box(item.x0, item.y0, item.x1, item.y1))
            elif isinstance(item, LTContainer):
                walk(item)

    walk(layout)
    return PageGlyphs(page_no, vx1 - vx0, vy1 - vy0, tuple(glyphs), tuple(rules), tuple(images))


def _rules_of(
    item: LTCurve,
    box: Callable[[float, float, float, float], BBox],
    visible: Callable[[float, float, float, float], bool],
) -> list[Rule]:
    """The ruling lines a drawn path contributes: thin shapes, and the edges of stroked boxes."""
    x0, y0, x1, y1 = item.x0, item.y0, item.x1, item.y1
    if not visible(x0, y0, x1, y1):
        return []
    simple = isinstance(item, (LTLine, LTRect)) or len(item.pts) <= 5
    return shape_rules(x0, y0, x1, y1, simple=simple,
                       stroked_box=isinstance(item, LTRect) and bool(item.stroke), box=box)


def shape_rules(x0: float, y0: float, x1: float, y1: float, *, simple: bool, stroked_box: bool,
                box: Callable[[float, float, float, float], BBox]) -> list[Rule]:
    """The ruling lines one drawn shape (bounds in PDF user space) contributes, the
    same for every engine: a thin ``simple`` shape (a line, a rectangle, a short path)
    is one rule; a stroked rectangle gives its four edges; anything else none.
    ``box`` converts user-space bounds to a top-left page box."""
    thin = (x1 - x0) <= _RULE_THICKNESS or (y1 - y0) <= _RULE_THICKNESS
    if thin and simple:
        return [Rule(box(x0, y0, x1, y1))]
    if stroked_box:
        return [Rule(box(x0, y0, x1, y0)), Rule(box(x0, y1, x1, y1)),
                Rule(box(x0, y0, x0, y1)), Rule(box(x1, y0, x1, y1))]
    return []


def _pdfium_source(path: Path) -> GlyphSource:
    """A :class:`~layoutkit.pdfium.PdfiumSource` for ``path``, imported on first use:
    that module needs this one's helpers, and pypdfium2 is only loaded when asked for."""
    from .pdfium import PdfiumSource

    return PdfiumSource(path)


ENGINES: dict[str, Callable[[Path], GlyphSource]] = {
    "pdfium": _pdfium_source,
    "pdfminer": PdfminerSource,
}
"""The glyph sources by name; the first is the default.  Both give the same glyphs
(``tests/test_engines.py``) and read the labelled pages alike; pdfium reads them
several times faster (``benchmarks/RESULTS.md``)."""

DEFAULT_ENGINE = next(iter(ENGINES))


def open_source(path: Path | str, engine: str = DEFAULT_ENGINE, *,
                image_dpi: int = 300) -> GlyphSource:
    """Open ``path`` with the named glyph source (a context manager too); an image
    file (:func:`~layoutkit.images.is_image`) opens as pages without glyphs for OCR,
    ``image_dpi`` its resolution when it does not state one."""
    from .images import ImageSource, is_image

    try:
        factory = ENGINES[engine]
    except KeyError:
        raise UsageError(
            f"unknown engine {engine!r}; known engines: {', '.join(ENGINES)}"
        ) from None
    if is_image(Path(path)):
        return ImageSource(Path(path), image_dpi)
    return factory(Path(path))
