"""Scanned pages: which pages need OCR, and their OCR words in place of their text layer.

The seam with the rest of the pipeline is two calls:

- Where a page's words are made from its glyphs (`layoutkit.pipeline.read_pages`, in
  each worker process), a page that `is_scanned` is replaced by `ocr_scanned_page`: the
  same `PageGlyphs` (sized as OCR saw it, no glyphs) with the words tesseract reads on
  its image, and its quality.
- Once every page is read, `check_scanned` reports for the document.

The geometry, reading order and line types that follow see words, whatever their
source; pages are OCR'd in parallel by `parse(..., jobs=N)` like any other page.

- `ocr`: when pages are OCR'd at all (`auto`, `always`, `never`).
- `image_max_area`, `ocr_garbage_share`: in `auto`, a page is scanned when it has no
  words, or when a picture covering most of it lies under a text layer that is all
  invisible (render mode 3, as OCR tools write it) or garbage (too few of its words in
  the language's word list).
- `ocr_languages`: a page is read in the languages `language` chooses (the user's, its
  text layer's when the layer reads as words, or its own, told from its script and a
  sample read); its words are judged in the same languages.
- `ocr_min_quality`: a scanned page's text layer (a scanner's OCR, Acrobat Paper
  Capture) is judged from its own words first (`judge_layer`): when at least this share
  of them read as real in its language (`read_share`: words of the language's word
  list, words of it run together, numbers; no noise such as `|`), or too few of them are
  judged to tell their share from it (`may_read`), the layer reads and is kept, the page
  not OCR'd.  Judging the layer costs a look-up a word; OCR'ing the
  page to compare would cost seconds, and a layer that reads was nearly always kept.
- `ocr_layer_margin`: a layer that does not read (or a page the user asks OCR for)
  is OCR'd, and the layer stays unless tesseract's words read better by more than this
  (`keep_layer`, both measured by `read_share`).
- Each scanned page's `OcrQuality` says whether it was OCR'd (``done``) and why
  (``why``); ``-v`` logs a line a page.
- `ocr_blank_dpi`: a PDF page with no text, pictures or rules is looked at in a preview
  first; a page on which nothing shows is blank and not OCR'd.
- `ocr_dpi`, `ocr_max_pixels`: a PDF page is rendered at `ocr_dpi`, an image input's
  frame taken at its own resolution (`image_dpi` where it states none); a page past
  `ocr_max_pixels` is rendered at a lower resolution, a larger image reduced.
- `ocr_min_quality`: a page (or document) read below it is reported with a warning.

OCR's own libraries (pytesseract, OpenCV, Pillow, and pypdfium2's document and page
objects) are imported by the functions that run OCR or look into a page, when a page
needs it: reading a born-digital PDF does not load them.
"""

from __future__ import annotations

import atexit
import dataclasses
import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...config import LayoutConfig
from ...errors import DocumentError, UsageError
from ...model import NO_GLYPHS, OcrQuality, PageGlyphs, Word
from ..base import is_image
from ..occlusion import INVISIBLE
from .language import AUTO, layer_language, user_languages
from .packs import pack_advice
from .quality import (
    dictionary_share,
    known_words,
    may_read,
    read_counts,
    read_share,
    scripts,
    word_lists,
)

if TYPE_CHECKING:
    from PIL import Image

__all__ = [
    "LayerVerdict",
    "check_scanned",
    "is_scanned",
    "judge_layer",
    "keep_layer",
    "missing_pack",
    "ocr_page",
    "ocr_scanned_page",
    "page_image",
    "tesseract_problem",
]

_log = logging.getLogger(__name__)

def is_scanned(path: Path, page: PageGlyphs, words: Sequence[Word], config: LayoutConfig) -> bool:
    """Whether ``page`` (with its text-layer ``words``) is read by OCR under
    ``config.ocr.ocr``: always, never, or (auto) when it has no text layer or an invisible
    or garbage one over a page-size picture."""
    if config.ocr.ocr != "auto":
        return config.ocr.ocr == "always"
    if not words:
        return not _blank(path, page, config)
    if len(page.figures(config.sources.image_max_area)) == len(page.images):  # no background
        return False
    languages = _layer_languages(words, config)
    return _garbage(words, languages, config) or _invisible_text(path, page.page_no)


def _layer_languages(words: Sequence[Word], config: LayoutConfig) -> str | None:
    """The languages a page's text-layer ``words`` are judged in: the user's, else the
    layer's own (None when it has no letters)."""
    user = user_languages(config)
    if user is not None and user.languages:
        return user.languages
    return _language_of(tuple(w.text for w in words), config)


@lru_cache(maxsize=2)
def _language_of(texts: tuple[str, ...], config: LayoutConfig) -> str | None:
    """`layer_language` of a page's text layer, told once for the two questions asked
    of it (`is_scanned`, `judge_layer`), which follow each other; the installed
    languages it chooses among are the process's, fixed while it runs."""
    return layer_language(texts, config)


def _garbage(words: Sequence[Word], languages: str | None, config: LayoutConfig) -> bool:
    """Whether fewer than ``ocr_garbage_share`` of text-layer ``words`` are in the word
    lists of ``languages`` (False when there are none to judge by)."""
    share = dictionary_share((w.text for w in words), languages) if languages else None
    return share is not None and share < config.ocr.ocr_garbage_share


def _invisible_text(path: Path, page_no: int) -> bool:
    """Whether every text object of the PDF page, those inside its forms too, is drawn
    invisibly (a render mode that paints nothing, `occlusion.INVISIBLE`).  The page is
    loaded from the document `_rendering` keeps open, and its objects asked for with
    plain calls: an OCR layer draws each word as an object of its own, hundreds a
    page."""
    import pypdfium2 as pdfium  # type: ignore[import-untyped]  # only for such a page
    import pypdfium2_raw as pdfium_c  # type: ignore[import-untyped]

    try:
        status = path.stat()
        page = _rendering(path, status.st_mtime_ns, status.st_size)[page_no - 1]
    except (pdfium.PdfiumError, OSError):  # read by pdfminer.six, refused by PDFium
        return False

    def modes(count: int, object_at: Any, holder: Any) -> list[int]:
        found: list[int] = []
        for k in range(count):
            obj = object_at(holder, k)
            kind = pdfium_c.FPDFPageObj_GetType(obj)
            if kind == pdfium_c.FPDF_PAGEOBJ_TEXT:
                found.append(pdfium_c.FPDFTextObj_GetTextRenderMode(obj))
            elif kind == pdfium_c.FPDF_PAGEOBJ_FORM:
                found += modes(pdfium_c.FPDFFormObj_CountObjects(obj),
                               pdfium_c.FPDFFormObj_GetObject, obj)
        return found

    try:
        drawn = modes(pdfium_c.FPDFPage_CountObjects(page.raw), pdfium_c.FPDFPage_GetObject,
                      page.raw)
    finally:
        page.close()
    return bool(drawn) and all(m in INVISIBLE for m in drawn)


def _blank(path: Path, page: PageGlyphs, config: LayoutConfig) -> bool:
    """Whether nothing shows on ``page``: an image's frame all of one colour (told
    from its extrema, one pass over the frame), or a PDF page with no glyphs,
    pictures or rules and not one pixel of its preview at ``ocr_blank_dpi`` other than
    white (a page of outlined text or drawings shows).  A blank page is not worth
    OCR."""
    if is_image(path):
        from ..images import frame, uniform  # Pillow, for an image only

        try:
            picture, _ = frame(path, page.page_no, config.sources.image_dpi,
                               config.sources.image_max_pixels)
        except DocumentError:
            return False  # OCR will report it
        return uniform(picture)
    if page.glyphs or page.images or page.rules:
        return False
    try:
        preview, _ = page_image(path, page.page_no, config, config.ocr.ocr_blank_dpi)
    except DocumentError:
        return False  # OCR will report it
    low, _ = preview.getextrema()
    return bool(low == 255)


def page_image(path: Path, page_no: int, config: LayoutConfig, dpi: int | None = None
               ) -> tuple[Image.Image, float]:
    """Page ``page_no`` of ``path`` as a grey image, with the points one pixel
    measures: an image file's frame, or a PDF page rendered at ``dpi`` (default
    ``ocr_dpi``); either of at most ``ocr_max_pixels`` pixels, a larger page rendered
    at a lower resolution and a larger frame reduced.  Raises DocumentError naming
    the page when PDFium cannot open or render it."""
    budget = config.ocr.ocr_max_pixels
    if is_image(path):
        from ..images import frame  # Pillow, for OCR only

        picture, scale = frame(path, page_no, config.sources.image_dpi,
                               config.sources.image_max_pixels)
        factor = math.ceil(math.sqrt(picture.width * picture.height / budget))
        if factor > 1:
            picture, scale = picture.reduce(factor), scale * factor
        return picture.convert("L"), scale
    import pypdfium2 as pdfium  # for OCR only

    try:
        status = path.stat()
        pdf = _rendering(path, status.st_mtime_ns, status.st_size)
    except (pdfium.PdfiumError, OSError) as exc:
        raise DocumentError(f"{path}: page {page_no}: PDFium cannot open the document to "
                            f"render the page ({exc})") from exc
    try:
        pdf_page = pdf[page_no - 1]
        width, height = pdf_page.get_size()
        fits = 72 * math.sqrt(budget / max(width * height, 1.0))
        scale = min(dpi or config.ocr.ocr_dpi, fits) / 72
        bitmap = pdf_page.render(scale=scale, grayscale=True)
        return bitmap.to_pil().convert("L"), 1 / scale
    except pdfium.PdfiumError as exc:
        raise DocumentError(f"{path}: page {page_no}: PDFium cannot render the page ({exc})"
                            ) from exc


_RENDERING: dict[tuple[Path, int, int], Any] = {}
"""The one PDF that PDFium holds open to render pages (`_rendering`), by path,
modification time and size."""


def _rendering(path: Path, mtime_ns: int, size: int) -> Any:
    """The PDF at ``path`` (as it was at ``mtime_ns`` and ``size``) opened by PDFium to
    render its pages, kept open for the next page: opening a document of thousands of
    pages for each of them would cost more than rendering them.  The document held
    before is closed, and the one held is closed as the process exits (before
    PDFium's own exit hook, which would report it still open)."""
    key = (path, mtime_ns, size)
    if key not in _RENDERING:
        import pypdfium2 as pdfium

        _close_rendering()
        _RENDERING[key] = pdfium.PdfDocument(path)
        atexit.unregister(_close_rendering)
        atexit.register(_close_rendering)  # last registered, first run
    return _RENDERING[key]


def _close_rendering() -> None:
    """Close the PDF `_rendering` holds, if any."""
    for document in _RENDERING.values():
        document.close()
    _RENDERING.clear()


def ocr_page(path: Path, page: PageGlyphs, languages: str | None,
             config: LayoutConfig) -> tuple[PageGlyphs, tuple[Word, ...], OcrQuality]:
    """The page (its size as OCR saw it, upright) with the words tesseract reads on
    it in ``languages`` (None: the page's own, `language.choose`, whose sample
    read is the page's words when it was the whole page) and their quality in those
    languages.  Raises DocumentError naming the page when its image
    cannot be read or tesseract fails on it."""
    import pytesseract  # OCR's libraries, for OCR only

    from ..images import stated_dpi
    from .image import OcrWords, deskew, detect_osd, erase_rules, missed_ink, ocr_words, upright
    from .language import Chosen, choose, unread_script

    image, scale = page_image(path, page.page_no, config)
    dpi = round(72 / scale) if not is_image(path) or stated_dpi(image) else None
    osd = detect_osd(image)
    image = erase_rules(deskew(upright(image, config.ocr, osd), config.ocr), scale, config.ocr)
    try:
        chosen = Chosen(languages) if languages else choose(image, scale, dpi, osd, config)
        languages = chosen.languages
        read = chosen.read or ocr_words(image, scale, languages, dpi)
        missed = missed_ink(image, read.words, scale)
        if missed is not None:  # read again, its words kept where read at ocr_min_quality
            more = ocr_words(missed, scale, languages, dpi, sparse=True, first=len(read.words))
            kept = [k for k, confidence in enumerate(more.confidences)
                    if confidence >= config.ocr.ocr_min_quality]
            read = OcrWords(read.words + tuple(more.words[k] for k in kept),
                            read.confidences + tuple(more.confidences[k] for k in kept))
    except pytesseract.TesseractError as exc:  # its message is tesseract's stderr
        last = str(exc.message).strip().splitlines()[-1:] or [f"status {exc.status}"]
        raise DocumentError(f"{path}: page {page.page_no}: tesseract failed ({last[0]})"
                            ) from exc
    _log.debug("%s: page %d: read in %s (script %s)", path, page.page_no, languages,
               osd.script if osd else "-")
    quality = OcrQuality(page.page_no, len(read.words), read.confidence,
                         dictionary_share((w.text for w in read.words), languages),
                         language=languages, word_list=word_lists(languages),
                         advice=unread_script(osd))
    sized = dataclasses.replace(page, width=image.width * scale, height=image.height * scale,
                                glyphs=NO_GLYPHS)
    return sized, read.words, quality


def tesseract_problem() -> str | None:
    """Why OCR cannot run here (tesseract or every language pack missing), with the
    command that fixes it; None when it can."""
    from .language import installed

    if not installed() - {"osd"}:
        return "tesseract is not installed; install it with: apt-get install tesseract-ocr"
    return None


def missing_pack(config: LayoutConfig) -> str | None:
    """The line that says which pack of the user's ``ocr_languages`` is not installed,
    how to install it (the Debian package, `.packs.pack_advice`; or that tesseract
    reads no such language) and what pages are read in instead; None when all are."""
    from .language import installed

    user = user_languages(config)
    if user is None or user.missing is None:
        return None
    instead = repr(user.languages) if user.languages else "their own language"
    return (f"OCR language {user.missing!r} {pack_advice(user.missing, installed())}; "
            f"pages are read in {instead} instead")


def keep_layer(layer: float | None, tesseract: float, margin: float) -> bool:
    """Whether a scanned page keeps its text layer, whose words read ``layer`` (the
    share that read as real, `read_share`; None when the page has no
    text layer), over tesseract's words, which read ``tesseract``: unless tesseract's
    read better by more than ``margin`` (``ocr_layer_margin``)."""
    return layer is not None and tesseract <= layer + margin


@dataclass(frozen=True, slots=True)
class LayerVerdict:
    """A scanned page's text layer judged from its own words: whether it ``reads`` (and
    is kept without OCR), the share of its words that read as real (None: no layer,
    or none that could be judged), the languages it was judged in (the user's when
    given; None: no letters to tell them by) and the reason in words."""

    reads: bool
    share: float | None
    languages: str | None
    why: str


def judge_layer(words: Sequence[Word], config: LayoutConfig) -> LayerVerdict:
    """Whether a scanned page's text-layer ``words`` read well enough to be kept without
    OCR: at least ``ocr_min_quality`` of them read as real (`read_counts`) in the
    layer's languages (the user's, else the layer's own, `layer_language`), or too few
    are judged to tell their share from it (`may_read`: a drawing's few labels, which a
    fresh OCR reads no better), unless the layer is garbage (`_garbage`: a single
    misread word is no sample to give the benefit of the doubt).  A layer
    with no words, no letters, or in a language without a word list (where any letters
    would read as real) does not read: its page is OCR'd."""
    languages = _layer_languages(words, config)  # the user's, with or without a layer
    if not words:
        return LayerVerdict(False, None, languages, "no text layer")
    if not languages:
        return LayerVerdict(False, None, None, "text layer has no letters")
    lists = word_lists(languages)
    if lists is None:
        return LayerVerdict(False, None, languages,
                            f"no word list for {languages} to judge the text layer by")
    read, judged = read_counts((w.text for w in words), languages)
    share = read / judged if judged else 0.0
    least = config.ocr.ocr_min_quality
    said = f"{share:.2f} of its words in the {languages} word list"
    if share >= least:
        return LayerVerdict(True, share, languages, f"layer reads ({said})")
    if may_read(read, judged, least) and not _garbage(words, languages, config):
        return LayerVerdict(True, share, languages,
                            f"layer reads ({said}: {judged} words, too few to tell it "
                            f"from ocr_min_quality {least:.2f})")
    return LayerVerdict(False, share, languages,
                        f"layer reads poorly ({said}, below ocr_min_quality {least:.2f})")


def ocr_scanned_page(path: Path, page: PageGlyphs, words: tuple[Word, ...], config: LayoutConfig
                     ) -> tuple[PageGlyphs, tuple[Word, ...], OcrQuality]:
    """The scanned ``page`` with its text-layer ``words`` when they read
    (`judge_layer`; no OCR), else the better of them and the words tesseract reads on
    it (`keep_layer`; with ``ocr = always`` tesseract's, the layer unjudged), and their
    quality, which says which was kept, whether tesseract ran and why.

    Never raises for a page that cannot be OCR'd: it keeps its text-layer ``words``
    and its quality records the error, which `check_scanned` reports for the
    pages asked for (a page read for its neighbours' sake warns of nothing)."""
    margin = config.ocr.ocr_layer_margin
    always = config.ocr.ocr == "always"
    verdict = judge_layer(words, config)
    if not always and verdict.reads:
        return page, words, OcrQuality(page.page_no, len(words), 0.0, None,
                                       source="text layer", layer=verdict.share,
                                       language=verdict.languages,
                                       word_list=word_lists(verdict.languages or ""),
                                       done=False, why=verdict.why)
    why = "OCR asked for (ocr = always)" if always else verdict.why
    hint = verdict.languages
    if config.ocr.ocr_languages == AUTO and _garbage(words, hint, config):
        hint = None  # a garbled layer's language is no guide to the page's
    # ``always`` asks for tesseract's words; else the better of the two stays, judged by
    # the language's word list or, where it has none, by its script
    layer = read_share((w.text for w in words), hint or "") if words else None
    failed = OcrQuality(page.page_no, len(words), 0.0, None,
                        source="text layer" if words else None, layer=layer, language=hint,
                        done=False, why=why)
    problem = tesseract_problem()
    if problem:
        return page, words, dataclasses.replace(failed, error=f"{path}: {problem}",
                                                why=f"{why}; OCR cannot run")
    try:
        sized, read, quality = ocr_page(path, page, hint, config)
    except DocumentError as exc:
        return page, words, dataclasses.replace(failed, error=str(exc),
                                                why=f"{why}; OCR failed")
    languages = quality.language or ""  # the layer judged as tesseract's words are
    layer = read_share((w.text for w in words), languages) if words else None
    tesseract = read_share((w.text for w in read), languages)
    _log.debug("%s: page %d: text layer reads %s, tesseract %.3f", path, page.page_no,
               "-" if layer is None else f"{layer:.3f}", tesseract)
    choose = not always and (known_words(languages) is not None
                             or scripts(languages) is not None)
    if choose and keep_layer(layer, tesseract, margin):
        quality = dataclasses.replace(quality, words=len(words), source="text layer")
        why += f"; tesseract's words read {tesseract:.2f}, the layer's {layer:.2f}: layer kept"
    else:
        page, words = sized, read
        if words and layer is not None:
            why += f"; tesseract's words read {tesseract:.2f}, the layer's {layer:.2f}: " \
                "tesseract's kept"
    if quality.advice:
        why += f"; {quality.advice}"
    return page, words, dataclasses.replace(quality, layer=layer, tesseract=tesseract,
                                            done=True, why=why)


def _warn_if_low(path: Path, quality: OcrQuality, config: LayoutConfig) -> None:
    """A warning naming the page when its ``quality`` is below ``ocr_min_quality``; a
    blank page (no words read) is no poor reading, and is only logged."""
    if not quality.words:
        _log.info("%s: page %d: blank (no words by its text layer or by OCR)", path,
                  quality.page_no)
    elif quality.score < config.ocr.ocr_min_quality:
        _log.warning("%s: page %d: %s quality %.3f is below ocr_min_quality %.2f%s",
                     path, quality.page_no,
                     "text layer" if quality.source == "text layer" else "OCR",
                     quality.score, config.ocr.ocr_min_quality, _explained(quality)
                     + (f"; {quality.advice}" if quality.advice else ""))


def check_scanned(path: Path, qualities: Sequence[OcrQuality], any_words: bool,
                  config: LayoutConfig) -> None:
    """The document-level part of OCR, once the pages are read, given the
    ``qualities`` of the pages asked for that were read as scans: one warning when
    tesseract or a language pack is missing and pages needed it, one for each page
    that could not be OCR'd or reads below ``ocr_min_quality``, one when the
    document's OCR quality is below it.  Raises UsageError for an
    image read with OCR off, DocumentError when no page has any words (``any_words``
    false), the one line said then (a page's warnings would tell nothing more)."""
    if config.ocr.ocr == "never" and is_image(path):
        raise UsageError(f"{path}: an image has no text layer; it can only be read with OCR "
                         "(ocr = auto or always)")
    if not any_words:
        raise DocumentError(next((q.error for q in qualities if q.error), None)
                            or f"{path}: no text found on any page, by its text layer or "
                            "by OCR")
    problem = tesseract_problem() if qualities else None
    missing = missing_pack(config) if qualities and not problem else None
    for line in (problem, missing):
        if line:
            _log.warning("%s: %s", path, line)
    for quality in qualities:
        if quality.error and not problem:
            _log.warning("%s", quality.error)
        elif not quality.error:
            _warn_if_low(path, quality, config)
    overall = OcrQuality.combined(qualities)
    if len(qualities) > 1 and overall is not None and overall < config.ocr.ocr_min_quality:
        _log.warning("%s: OCR quality of the document %.3f is below ocr_min_quality %.2f",
                     path, overall, config.ocr.ocr_min_quality)


def _explained(quality: OcrQuality) -> str:
    """The parts of a quality score, for a warning."""
    if quality.source == "text layer":
        beside = ("" if quality.tesseract is None else
                  f"; tesseract's {quality.tesseract:.2f}")
        return f" (share of its words that read as real{beside})"
    words = ("" if quality.dictionary is None else
             f", {quality.dictionary:.2f} of words in the {quality.language} word list "
             f"({quality.word_list})")
    return f" (mean confidence {quality.confidence:.2f}{words})"
