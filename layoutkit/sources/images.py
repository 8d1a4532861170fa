"""Image inputs: a picture file read as a document of one page per frame.

- Pillow opens the formats: png, jpeg, tiff with several pages, bmp, gif, webp, pnm,
  jpeg 2000.
- Each frame becomes a page with no text layer, sized in points from the image's own
  resolution (72 points per inch; `image_dpi` where it states none), so the OCR stage
  reads it like a scanned PDF page.
- A frame of more than `image_max_pixels` pixels, or whose header claims more, is
  refused before it is decoded.
- Frames are read one at a time, at most `image_max_frames` of them (a TIFF of 10,000
  blank frames takes 13 MB); the frames past them are left unread, which the parse
  says in one warning.
"""

from __future__ import annotations

import warnings
from collections.abc import Collection, Iterable, Iterator, Sequence
from pathlib import Path

from PIL import Image, ImageOps, UnidentifiedImageError

from ..config import SourcesConfig
from ..errors import DocumentError
from ..model import NO_GLYPHS, BBox, OutlineEntry, PageGlyphs
from .base import IMAGE_SUFFIXES, ClosingSource, check_file

__all__ = ["Frames", "ImageSource", "frame", "read_frames", "stated_dpi", "uniform"]

_MAX_PIXELS = SourcesConfig().image_max_pixels
"""The pixel budget of an image read without a configuration (``image_max_pixels``)."""
_MAX_FRAMES = SourcesConfig().image_max_frames
"""The frame budget of an image read without a configuration (``image_max_frames``)."""


def _open(path: Path, max_pixels: int) -> Image.Image:
    """The image at ``path``, opened lazily (its header read); a DocumentError naming
    it when Pillow cannot read it or its header claims more than ``max_pixels`` pixels
    (``image_max_pixels``), before anything is decoded."""
    check_file(path, "an image or a PDF file")
    if path.stat().st_size == 0:
        raise DocumentError(f"{path}: empty file, expected an image")
    try:
        with warnings.catch_warnings():  # the budget below says it, in one line
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            image = Image.open(path)
    except Image.DecompressionBombError as exc:
        raise DocumentError(f"{path}: the image is too large to read ({exc})") from exc
    except UnidentifiedImageError as exc:
        raise DocumentError(f"{path}: not a readable image (zero-sized, truncated or not "
                            f"in a format Pillow reads: {', '.join(sorted(IMAGE_SUFFIXES))})"
                            ) from exc
    except (OSError, ValueError) as exc:
        raise DocumentError(f"{path}: cannot be read as an image ({exc})") from exc
    try:
        _check_size(path, image, max_pixels)
    except DocumentError:
        image.close()
        raise
    return image


def _check_size(path: Path, image: Image.Image, max_pixels: int) -> None:
    """Raise DocumentError naming ``path`` (and the frame, past the first) when the
    current frame of ``image`` has more than ``max_pixels`` pixels."""
    if image.width * image.height > max_pixels:
        where = f"page {image.tell() + 1}: " if image.tell() else ""
        raise DocumentError(f"{path}: {where}the image is {image.width} x {image.height} "
                            f"pixels, more than image_max_pixels ({max_pixels:,})")


def frame(path: Path, page_no: int, default_dpi: int,
          max_pixels: int = _MAX_PIXELS) -> tuple[Image.Image, float]:
    """Frame ``page_no`` (1-based) of the image at ``path``, turned upright by its
    EXIF orientation and loaded, with the points one of its pixels measures.

    Raises DocumentError naming the file and page when the frame cannot be decoded
    or has more than ``max_pixels`` pixels (checked before it is decoded)."""
    with _open(path, max_pixels) as image:
        try:
            image.seek(page_no - 1)
            _check_size(path, image, max_pixels)
            picture = ImageOps.exif_transpose(image)
            picture.load()
        except (OSError, ValueError, EOFError, SyntaxError) as exc:
            raise DocumentError(f"{path}: page {page_no}: cannot decode the image ({exc})") from exc
        dpi = _dpi(image, default_dpi)
    return picture, 72.0 / dpi


def stated_dpi(image: Image.Image) -> float | None:
    """The horizontal resolution the image states, None when it states none (or an
    implausible one, as some writers store 1)."""
    stated = image.info.get("dpi")
    try:
        value = float(stated[0]) if stated else 0.0
    except (TypeError, ValueError, IndexError):
        value = 0.0
    return value if value >= 20 else None


def _dpi(image: Image.Image, default: int) -> float:
    """The horizontal resolution the image states, or ``default`` when it states none."""
    return stated_dpi(image) or float(default)


class Frames(Iterable[Image.Image]):
    """The frames of an image file, read one at a time: iterating opens the file and
    yields the image at each frame in turn (its header read, not yet decoded; valid
    until the next), checked against ``max_pixels``, at most ``max_frames`` of them;
    once iterated, `more` says whether frames past them were left unread."""

    def __init__(self, path: Path, max_frames: int, max_pixels: int) -> None:
        self.path = path
        self.max_frames = max_frames
        self.max_pixels = max_pixels
        self.more = False

    def __iter__(self) -> Iterator[Image.Image]:
        with _open(self.path, self.max_pixels) as image:
            for index in range(self.max_frames):
                if not _seek(self.path, image, index):
                    return
                _check_size(self.path, image, self.max_pixels)
                yield image
            self.more = _seek(self.path, image, self.max_frames)


def read_frames(path: Path, max_frames: int = _MAX_FRAMES,
                max_pixels: int = _MAX_PIXELS) -> Frames:
    """The frames of the image at ``path``, to be read one at a time (`Frames`)."""
    return Frames(path, max_frames, max_pixels)


def _seek(path: Path, image: Image.Image, index: int) -> bool:
    """Move ``image`` to its frame ``index`` (0-based); False when it has no such frame.
    Raises DocumentError naming the file and page when the frame cannot be reached."""
    try:
        image.seek(index)
    except EOFError:
        return False
    except (OSError, ValueError, SyntaxError) as exc:
        raise DocumentError(f"{path}: page {index + 1}: cannot decode the image ({exc})"
                            ) from exc
    return True


def uniform(image: Image.Image) -> bool:
    """Whether every pixel of the image's current frame is of one colour (a blank
    page, which holds nothing to read): each band's least and greatest values, found
    in one pass over the decoded frame, are the same."""
    extrema = image.getextrema()
    bands = extrema if isinstance(extrema[0], tuple) else (extrema,)
    return all(low == high for low, high in bands)


class ImageSource(ClosingSource):
    """A [`GlyphSource`][layoutkit.sources.base.GlyphSource] over an image file: every frame a page
    without glyphs, covered by one page-size picture (which marks it for OCR); at most
    ``max_frames`` frames, `more` true when frames past them are left unread."""

    def __init__(self, path: Path, default_dpi: int, max_pixels: int = _MAX_PIXELS,
                 max_frames: int = _MAX_FRAMES) -> None:
        self.path = path
        frames = read_frames(path, max_frames, max_pixels)
        self._sizes = [_points(image, default_dpi) for image in frames]
        self.more = frames.more

    @property
    def page_count(self) -> int:
        return len(self._sizes)

    def pages(self, page_numbers: Sequence[int]) -> Iterator[PageGlyphs]:
        for page_no in page_numbers:
            width, height = self._sizes[page_no - 1]
            yield PageGlyphs(page_no, width, height, NO_GLYPHS, (),
                             (BBox(0, 0, width, height),))

    def labels(self) -> tuple[str, ...]:
        """An image's frames have no labels."""
        return ("",) * len(self._sizes)

    def outline(self, heavy: Collection[int] = ()) -> tuple[OutlineEntry, ...]:
        """An image has no outline."""
        return ()

    def close(self) -> None:
        """Nothing stays open between calls."""


def _points(image: Image.Image, default_dpi: int) -> tuple[float, float]:
    """The current frame's width and height in points, as it is shown (EXIF-rotated
    frames swap sides)."""
    try:
        turned = image.getexif().get(0x0112, 1) in (5, 6, 7, 8)
    except (OSError, ValueError, SyntaxError):  # damaged: reported when the frame is read
        turned = False
    width, height = (image.height, image.width) if turned else (image.width, image.height)
    scale = 72.0 / _dpi(image, default_dpi)
    return width * scale, height * scale
