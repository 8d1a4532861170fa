"""One page image to words: turned upright, deskewed, ruling lines painted out, OCR'd.

- The page is turned upright when tesseract's orientation confidence is high enough
  (`ocr_min_orientation_confidence`), and deskewed between `ocr_min_skew` and
  `ocr_max_skew`.
- Straight strokes of at least `ocr_rule_min_length` are painted out as rules.
- Tesseract (through pytesseract's `image_to_data`) reports words with boxes in pixels
  and a confidence; `ocr_words` scales them to points.
- Every word of a tesseract line gets one box for the line, an em high and reaching a
  descender's depth under its baseline, as a PDF glyph's box does (`_em_box`: tesseract
  boxes the ink, less of it for a line of capitals), so the geometry stage groups and
  sizes them as it does PDF words.
- Ink no word reaches that looks like text is found (`missed_ink`), to be read again in
  tesseract's sparse mode (`ocr_words`'s ``sparse``).
- A word's look-alike letters are put back into its script (`lookalikes`): the micro
  sign or a Latin ``o`` inside a Greek word, a Latin ``e`` inside a Russian one.
- A word's letters are turned into the order they stand in (`visual_order`), as a
  PDF's glyphs come: tesseract gives a right-to-left word in reading order, which the
  reading stage would otherwise read backwards a second time.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import fmean, median
from typing import Any

import cv2
import numpy as np
import pytesseract
from PIL import Image

from ...config import OcrConfig
from ...model import BBox, Word, clean_text, visual_order
from ..base import RULE_THICKNESS
from .lookalikes import native_letters

__all__ = [
    "INK",
    "OCR_FONT",
    "OcrWords",
    "Osd",
    "deskew",
    "detect_osd",
    "erase_rules",
    "missed_ink",
    "ocr_words",
    "skew_angle",
    "upright",
]

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


INK = 128
"""A grey level darker than this is ink."""

_WORD_GAP = 0.6
"""The gap, in the words' usual height, across which ink is run together into a word
when the ink no word covers is looked for (`missed_ink`): wider than a letter space."""

_CAP_HEIGHT = 0.70
"""How far above the baseline a capital, a figure or a lower-case ascender reaches, in
ems (Latin type: 0.66-0.72)."""

_X_HEIGHT = 0.48
"""How far above the baseline the other lower-case letters reach, in ems (0.45-0.52)."""

_DESCENDER = 0.21
"""How far below the baseline a descender reaches, in ems (0.20-0.23); a PDF glyph's box
reaches about as far (its font's descent)."""

_COMMA_DEPTH = 0.15
"""How far below the baseline a comma's tail reaches, in ems (0.14-0.15)."""

_TALL = frozenset("ABCDEFGHIKLMNOPRSTUVWXYZ0123456789bdfhikl()£$&"
                  "АБВГЕЁЖЗИКЛМНОПРСТУФХЧШЫЬЭЮЯбф"
                  "ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩβδθλ")
_DEEP = frozenset("gpqy()руфγημρχ")
_COMMAS = frozenset(",;")
_SHORT = frozenset("acemnorsuvwxz.:-авгежзиклмнопстхчшыьэюяαεικνοπστυω")
"""The characters whose ink tells a line's em: tall ones (capitals, figures, ascenders
of the Latin, Cyrillic and Greek alphabets) reach `_CAP_HEIGHT`, deep ones
`_DESCENDER` below the baseline (a bracket, 'ф' both), a comma `_COMMA_DEPTH`, short
ones `_X_HEIGHT` at most.
A 't' reaches between the two (it tells nothing but beside a tall letter); 'J', 'Q', 'j',
'д', 'ц' reach below the baseline in some faces and not in others, accented letters
above the capitals: a word with any other character tells nothing, nor a word without
a letter or a figure (a dash, a comma: their ink reaches neither line)."""


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
              dpi: int | None = None, sparse: bool = False, first: int = 0) -> OcrWords:
    """The words tesseract reads on ``image`` in ``languages`` (tesseract codes joined
    by ``+``), in points, their look-alike letters in their own script and their
    letters in the order they stand (see the module's docstring).  ``dpi`` is the
    image's resolution when it is known (a PDF page rendered, an image that states it);
    without it tesseract guesses it from the size of the type, which is better than a
    resolution assumed.

    With ``sparse``, tesseract finds as much text as it can in no order, without its
    page layout (`missed_ink`'s image); the words' places in the stream count from
    ``first``.

    Raises pytesseract's errors (tesseract missing, a language not installed) to the
    caller, which names the page."""
    _tesseract_env()
    # a known resolution told: tesseract's guess loses the first words of the lines of
    # Chinese type at 150 dpi
    data: dict[str, list[Any]] = pytesseract.image_to_data(
        image, lang=languages,
        config=" ".join([*([f"--dpi {dpi}"] if dpi else []), *(["--psm 11"] if sparse else [])]),
        output_type=pytesseract.Output.DICT)
    read: list[tuple[tuple[int, int, int], str, int, int, int, int, float]] = []
    ink: dict[tuple[int, int, int], tuple[int, int]] = {}
    inked: dict[tuple[int, int, int], list[tuple[str, int, int]]] = {}
    for i, level in enumerate(data["level"]):
        key = (data["block_num"][i], data["par_num"][i], data["line_num"][i])
        top, height = data["top"][i], data["height"][i]
        if level == 4:
            ink[key] = (top, top + height)
        # cleaned as a text layer's glyphs are (Glyphs)
        text = clean_text(str(data["text"][i])).translate(_BIDI_MARKS).strip()
        confidence = float(data["conf"][i])
        if level == 5 and text and confidence >= 0:
            read.append((key, text, data["left"][i], top, data["width"][i], height, confidence))
            inked.setdefault(key, []).append((text, top, top + height))
    boxes = {key: _em_box(inked.get(key, ()), *line) for key, line in ink.items()}
    words: list[Word] = []
    s = points_per_pixel
    for key, text, left, top, width, height, _ in read:
        top, bottom = boxes.get(key, (top, top + height))
        words.append(Word(visual_order(native_letters(text)),
                          BBox(left * s, top * s, (left + width) * s, bottom * s),
                          OCR_FONT, (bottom - top) * s, stream=first + len(words)))
    return OcrWords(tuple(words), tuple(conf / 100 for *_, conf in read))


def missed_ink(image: Image.Image, words: Sequence[Word], points_per_pixel: float
               ) -> Image.Image | None:
    """``image`` with only its ink that looks like text and that none of the ``words``
    read on it reaches, None when there is none.  Tesseract's page layout drops
    regions it takes for no text: the columns of figures of a scanned account, where
    a single block read at once finds them.  Ink looks like text where, its letters
    run together across a gap of `_WORD_GAP` of the words' usual height, it makes a
    blob between half and twice that height and at least half of it long (no speck,
    rule or picture) that no word's box meets: a blob part read (a character whose box
    is narrower than its ink) is no text missed."""
    if not words:
        return None
    gray = np.asarray(image.convert("L"))
    s = points_per_pixel
    height = float(np.median([(w.bbox.bottom - w.bbox.top) / s for w in words]))
    joined = cv2.dilate((gray < INK).astype(np.uint8), cv2.getStructuringElement(
        cv2.MORPH_RECT, (max(round(_WORD_GAP * height), 1), 1)))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(joined)
    read = np.zeros(count, dtype=np.bool_)
    for w in words:
        box = w.bbox
        read[labels[max(int(box.top / s), 0):int(box.bottom / s) + 1,
                    max(int(box.x0 / s), 0):int(box.x1 / s) + 1]] = True
    tall, wide = stats[:, cv2.CC_STAT_HEIGHT], stats[:, cv2.CC_STAT_WIDTH]
    keep = ~read & (height / 2 <= tall) & (tall <= 2 * height) & (wide >= height / 2)
    keep[0] = False  # the background
    if not keep.any():
        return None
    return Image.fromarray(np.where(keep[labels], gray, np.uint8(255)).astype(np.uint8))


def _em_box(words: Sequence[tuple[str, int, int]], top: int, bottom: int
            ) -> tuple[float, float]:
    """The top and bottom (pixels) of a line an em high, reaching `_DESCENDER` below its
    baseline, told from its ``words`` (text, ink top, ink bottom) whose letters are all
    `_TALL`, `_DEEP`, `_COMMAS` or `_SHORT`: each word's em is its ink's height over the share of
    the em its letters reach, the line's em and baseline the medians of its words';
    the line's ink (``top``, ``bottom``) where no word tells them."""
    ems: list[float] = []
    bases: list[float] = []
    for text, ink_top, ink_bottom in words:
        letters = frozenset(text)
        tall = bool(letters & _TALL)
        if not letters <= _TALL | _DEEP | _COMMAS | _SHORT | {"t"} \
                or ("t" in letters and not tall) or not any(c.isalnum() for c in text):
            continue
        above = _CAP_HEIGHT if tall else _X_HEIGHT
        below = _DESCENDER if letters & _DEEP else _COMMA_DEPTH if letters & _COMMAS else 0.0
        em = (ink_bottom - ink_top) / (above + below)
        ems.append(em)
        bases.append(ink_bottom - below * em)
    if not ems:
        return float(top), float(bottom)
    em, base = median(ems), median(bases)
    return base + (_DESCENDER - 1) * em, base + _DESCENDER * em
