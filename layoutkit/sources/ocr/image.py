"""One page image to words: turned upright, deskewed, ruling lines painted out, OCR'd.

- The page is turned upright when tesseract's orientation confidence is high enough
  (`ocr_min_orientation_confidence`), and deskewed between `ocr_min_skew` and
  `ocr_max_skew`.
- Straight strokes of at least `ocr_rule_min_length` are painted out as rules.
- Tesseract (through pytesseract's `image_to_data`) reports words with boxes in pixels
  and a confidence; `ocr_words` scales them to points.
- Every word of a tesseract line gets that line's top and bottom, as a PDF font's
  ascent and descent give every glyph of a line one height, so the geometry stage
  groups them as it groups PDF words.
- A word's look-alike letters are put back into its script (`lookalikes`): the micro
  sign or a Latin ``o`` inside a Greek word, a Latin ``e`` inside a Russian one.
- A word's letters are turned into the order they stand in (`visual_order`), as a
  PDF's glyphs come: tesseract gives a right-to-left word in reading order, which the
  reading stage would otherwise read backwards a second time.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from statistics import fmean
from typing import Any

import cv2
import numpy as np
import pytesseract
from PIL import Image

from ...config import OcrConfig
from ...model import BBox, Word, clean_text, visual_order
from ..base import RULE_THICKNESS
from .lookalikes import native_letters

__all__ = ["OCR_FONT", "OcrWords", "Osd", "deskew", "detect_osd", "erase_rules", "ocr_words",
           "skew_angle", "upright"]

OCR_FONT = "OCR"
"""The font name of every OCR word (tesseract does not name fonts)."""

_OSD_MAX_SIDE = 1600
"""Tesseract's orientation detection runs on the page scaled to at most this many
pixels a side: enough for its script detector, a fraction of the time at full size."""

_BIDI_MARKS = str.maketrans("", "", "\u200e\u200f\u061c")
"""The invisible direction marks (LRM, RLM, ALM) tesseract puts beside the numbers of a
right-to-left line: no text of the page's."""

_LINE_SHAPE = 5.0
"""A blob of smeared ink is a text line when it is at least this many times longer
than high; only text lines vote on the skew."""


@dataclass(frozen=True, slots=True)
class OcrWords:
    """What tesseract read on one page: its words in points, and each word's
    confidence (0-1) in the same order."""

    words: tuple[Word, ...]
    confidences: tuple[float, ...]

    @property
    def confidence(self) -> float:
        """The mean word confidence (0 when nothing was read)."""
        return fmean(self.confidences) if self.confidences else 0.0


def _tesseract_env() -> None:
    """Tesseract runs one thread: pages run in parallel processes instead, which is
    several times faster on a small machine than its own OpenMP threads competing."""
    os.environ.setdefault("OMP_THREAD_LIMIT", "1")


@dataclass(frozen=True, slots=True)
class Osd:
    """What tesseract's orientation and script detection says of a page: the
    clockwise turn that makes it upright (degrees) and how sure it is of it, and the
    script it looks written in (tesseract's name: ``Latin``, ``Cyrillic``, ``Han``)."""

    turn: int
    orientation_confidence: float
    script: str


def detect_osd(image: Image.Image) -> Osd | None:
    """Tesseract's orientation and script detection on ``image`` (scaled to at most
    `_OSD_MAX_SIDE` pixels a side); None when the page is too sparse to tell."""
    _tesseract_env()
    scale = min(1.0, _OSD_MAX_SIDE / max(image.size))
    small = image.resize((max(1, round(image.width * scale)), max(1, round(image.height * scale))))
    try:
        osd: dict[str, Any] = pytesseract.image_to_osd(
            small, output_type=pytesseract.Output.DICT)
    except pytesseract.TesseractError:
        return None
    return Osd(int(osd.get("rotate", 0)) % 360, float(osd.get("orientation_conf", 0)),
               str(osd.get("script", "")))


def upright(image: Image.Image, config: OcrConfig, osd: Osd | None) -> Image.Image:
    """``image`` turned upright when tesseract's orientation detection (``osd``, of
    `detect_osd`) is confident (``ocr_min_orientation_confidence``) that it is
    sideways or upside down; otherwise ``image`` itself (pages too sparse to tell, None,
    are left as they are)."""
    if osd is None or osd.turn == 0 or osd.orientation_confidence < \
            config.ocr_min_orientation_confidence:
        return image
    # tesseract's "rotate" is clockwise; Pillow turns counter-clockwise
    return image.rotate(-osd.turn, expand=True, fillcolor=255)


def skew_angle(gray: np.ndarray[Any, np.dtype[np.uint8]]) -> float:
    """The angle (degrees, counter-clockwise positive as Pillow turns) by which the
    text lines of a grey page image lean, 0.0 when it has no text lines.

    Ink is smeared along the rows (a morphological close as wide as a few
    characters) so that each text line becomes one long blob; the median angle of
    the blobs' minimum-area rectangles, weighted by length, is the page's skew.
    """
    _, ink = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY_INV | cv2.THRESH_OTSU)
    width = max(gray.shape[1] // 80, 9)
    smeared = cv2.morphologyEx(ink, cv2.MORPH_CLOSE,
                               cv2.getStructuringElement(cv2.MORPH_RECT, (width, 1)))
    contours, _ = cv2.findContours(smeared, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    angles: list[float] = []
    weights: list[float] = []
    for contour in contours:
        _, (w, h), angle = cv2.minAreaRect(contour)
        long, short = max(w, h), min(w, h)
        if long < _LINE_SHAPE * max(short, 1.0) or long < gray.shape[1] / 20:
            continue
        lean = angle if w >= h else angle - 90.0  # the long side's angle
        lean = (lean + 45.0) % 90.0 - 45.0
        angles.append(-lean)  # image rows run down: a clockwise lean is negative
        weights.append(long)
    if not angles:
        return 0.0
    order = np.argsort(angles)
    cumulative = np.cumsum(np.asarray(weights)[order])
    return float(np.asarray(angles)[order][np.searchsorted(cumulative, cumulative[-1] / 2)])


def deskew(image: Image.Image, config: OcrConfig) -> Image.Image:
    """``image`` (grey) turned so that its text lines run level, when they lean by
    between ``ocr_min_skew`` and ``ocr_max_skew`` degrees; otherwise ``image``."""
    angle = skew_angle(np.asarray(image, dtype=np.uint8))
    if not config.ocr_min_skew <= abs(angle) <= config.ocr_max_skew:
        return image
    return image.rotate(-angle, resample=Image.Resampling.BICUBIC, fillcolor=255)


def erase_rules(image: Image.Image, points_per_pixel: float, config: OcrConfig) -> Image.Image:
    """``image`` (grey, ``points_per_pixel`` points a pixel) with its ruling lines
    painted white; ``image`` itself when it has none.

    A rule is a horizontal or vertical run of ink at least ``ocr_rule_min_length``
    long and no thicker than `RULE_THICKNESS`.  Tesseract
    reads the sides of a drawn box as words (``|``, ``i``, ``«``, a horizontal side
    as ``ae``) and stretches the text line beside a side to the side's height, so two
    lines of text become one.  It removes solid lines itself, but not a halftoned or
    broken one, as a printer draws a grey border: here gaps in the ink narrower than a
    rule is thick are closed before runs are measured.  Text closed that way becomes
    blocks far thicker than a rule, which stay.
    """
    gray = np.asarray(image, dtype=np.uint8)
    length = max(1, round(config.ocr_rule_min_length / points_per_pixel))
    if length > max(gray.shape):  # no rule that long fits on the page
        return image
    thickness = max(1, round(RULE_THICKNESS / points_per_pixel))
    _, ink = cv2.threshold(gray, 0, 255, cv2.THRESH_BINARY_INV | cv2.THRESH_OTSU)
    joined = cv2.morphologyEx(ink, cv2.MORPH_CLOSE, np.ones((thickness, thickness), np.uint8))
    rules = np.zeros(gray.shape, dtype=bool)
    for axis, along in ((0, (1, length)), (1, (length, 1))):
        runs = cv2.morphologyEx(joined, cv2.MORPH_OPEN,
                                cv2.getStructuringElement(cv2.MORPH_RECT, along))
        if not cv2.countNonZero(runs):  # most pages: nothing that long
            continue
        count, labels, stats, _ = cv2.connectedComponentsWithStats(runs)
        # across a vertical run its width, across a horizontal one its height
        extent = stats[:, cv2.CC_STAT_WIDTH if axis == 0 else cv2.CC_STAT_HEIGHT]
        thin = np.flatnonzero(extent[1:count] <= thickness) + 1
        rules |= np.isin(labels, thin)
    if not rules.any():
        return image
    # the halftone's stray dots along the edges of a line, up to a rule's thickness
    # away, go with it
    grown = cv2.dilate(rules.astype(np.uint8), np.ones((thickness, thickness), np.uint8)
                       ).astype(bool)
    return Image.fromarray(np.where(grown, np.uint8(255), gray))


def ocr_words(image: Image.Image, points_per_pixel: float, languages: str,
              dpi: int | None = None) -> OcrWords:
    """The words tesseract reads on ``image`` in ``languages`` (tesseract codes joined
    by ``+``), in points, their look-alike letters in their own script and their
    letters in the order they stand (see the module's docstring).  ``dpi`` is the
    image's resolution when it is known (a PDF page rendered, an image that states it);
    without it tesseract guesses it from the size of the type, which is better than a
    resolution assumed.

    Raises pytesseract's errors (tesseract missing, a language not installed) to the
    caller, which names the page."""
    _tesseract_env()
    # a known resolution told: tesseract's guess loses the first words of the lines of
    # Chinese type at 150 dpi
    data: dict[str, list[Any]] = pytesseract.image_to_data(
        image, lang=languages, config=f"--dpi {dpi}" if dpi else "",
        output_type=pytesseract.Output.DICT)
    lines: dict[tuple[int, int, int], tuple[float, float]] = {}
    for i, level in enumerate(data["level"]):
        if level == 4:
            key = (data["block_num"][i], data["par_num"][i], data["line_num"][i])
            lines[key] = (data["top"][i], data["top"][i] + data["height"][i])
    words: list[Word] = []
    confidences: list[float] = []
    s = points_per_pixel
    for i, level in enumerate(data["level"]):
        # cleaned as a text layer's glyphs are (Glyphs)
        text = clean_text(str(data["text"][i])).translate(_BIDI_MARKS).strip()
        text = visual_order(native_letters(text))
        confidence = float(data["conf"][i])
        if level != 5 or not text or confidence < 0:
            continue
        key = (data["block_num"][i], data["par_num"][i], data["line_num"][i])
        top, bottom = lines.get(key, (data["top"][i], data["top"][i] + data["height"][i]))
        left = data["left"][i]
        words.append(Word(text, BBox(left * s, top * s, (left + data["width"][i]) * s, bottom * s),
                          OCR_FONT, (bottom - top) * s, stream=len(words)))
        confidences.append(confidence / 100)
    return OcrWords(tuple(words), tuple(confidences))
