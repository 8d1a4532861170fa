"""A scanned page that carries an OCR text layer is judged from its own words first:
a layer that reads (``ocr_min_quality`` of its words in its language's word list,
run-together words split) is kept without OCR; one that does not is OCR'd and kept
unless tesseract reads the page better: run for real with tesseract.

The scans are made here: a clean page of type rendered to a picture (at low
resolution with noise, so that tesseract reads it badly, or clean, so that it reads
it well), drawn over the whole page, under an invisible text layer (render mode 3,
as OCR tools write one) holding the exact text or a badly OCR'd copy of it.
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium  # type: ignore[import-untyped]
import pytest
from PIL import Image
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

import layoutkit
from layoutkit.config import LayoutConfig
from layoutkit.errors import ConfigError
from layoutkit.model import BBox, Document, OcrQuality, Word
from layoutkit.model.codec import json_schema, store_dumps, store_loads
from layoutkit.outputs import document_json
from layoutkit.sources.ocr.quality import (
    known_words,
    may_read,
    read_share,
    scripts,
    split_words,
    word_reads,
)
from layoutkit.sources.ocr.scanned import judge_layer, keep_layer
from layoutkit.tools.evaluate import score_truth
from layoutkit.tools.truth import load_truth

ROOT = Path(__file__).resolve().parent.parent
MELROSE = ROOT / "fixtures" / "corpus" / "melrose-election-results-2016.pdf"
MELROSE_TRUTH = ROOT / "regions" / "corpus" / "melrose-election-results-2016.truth.json"
PATENTS = ROOT / "fixtures" / "scanned" / "us-patents-ocr-layer-98pp.pdf"

LINES = (
    "The committee met in the spring of that year to consider",
    "whether the survey of river sediments should continue for",
    "another season. Several members argued that the samples",
    "taken near the northern bank were already sufficient, while",
    "others pointed to the unusual readings recorded in August",
    "and asked for a second series of measurements at each site.",
)
"""A paragraph of a journal page: every word in the English word list."""

NAMED_LINES = (
    *LINES[:4],
    "Kowalczyk, Okonkwo and Thibodeaux pointed to the readings",
    "of Nakagawa and Oyelaran recorded at Wrzesnia in 1978 and",
    "asked for a second series of measurements at each site.",
)
"""The same with names no word list has, as a journal page has them: a layer that
reads well, but not so well that tesseract could not beat it."""

SPANISH_LINES = (
    "El Ministerio de Hacienda ha resuelto publicar en el Boletín Oficial",
    "las cuentas anuales de las sociedades mercantiles del Estado que",
    "fueron aprobadas por sus juntas generales durante el ejercicio.",
    "Las entidades que no hayan presentado sus cuentas en el plazo",
    "establecido las presentarán antes del final del mes siguiente,",
    "junto con el informe de auditoría y la memoria de actividades.",
)
"""A paragraph of a Spanish gazette: every word in the Spanish word lists, a third of
them in the English one."""

GARBLED_LINES = (
    "Tbe cornmittee rnet iu tbe spriug of tliat vear to cousider",
    "wbether tbe snrvey of rlver sedirnents sbould contiuue for",
    "anotber seasou. Severa1 rnembers argned tbat tbe sarnples",
    "takeu uear tbe nortbern bauk were a1ready sufficieut, wbile",
    "otbers poiuted to tbe unnsual readiugs recorded iu Augnst",
    "aud asked for a secoud series of rneasurernents at eacb site.",
)
""":data:`LINES` as a poor OCR engine read them."""

RUN_TOGETHER_LINES = (
    "The committee metin the spring ofthat year to consider",
    "whether thesurvey of river sediments shouldcontinue for",
    "another season. Several members arguedthat thesamples",
    "taken nearthe northernbank were already sufficient, while",
    "otherspointed to theunusual readings recordedin August",
    "and askedfor a secondseries of measurements ateach site.",
)
""":data:`LINES` as an OCR layer that missed spaces: 14 of its 43 words are two words
run together."""

SIZE = 10.0


@pytest.fixture
def no_tesseract(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tesseract made to fail the test if it is ever asked to read a page."""
    import pytesseract

    def called(*args: object, **kwargs: object) -> None:
        raise AssertionError("tesseract was invoked")

    for name in ("image_to_data", "image_to_osd", "image_to_string"):
        monkeypatch.setattr(pytesseract, name, called)
    monkeypatch.setattr("layoutkit.sources.ocr.scanned.ocr_page", called)


def draw_lines(canvas: Canvas, lines: tuple[str, ...], render_mode: int = 0) -> None:
    text = canvas.beginText(72, 700)
    text.setTextRenderMode(render_mode)
    text.setFont("Times-Roman", SIZE)
    text.setLeading(SIZE * 1.25)
    for line in lines:
        text.textLine(line)
    canvas.drawText(text)


def picture(lines: tuple[str, ...], dpi: int, noise: float) -> Image.Image:
    """``lines`` typeset on a letter page, rendered at ``dpi``, with grey noise of
    standard deviation ``noise`` and (when noisy) 2 % of the pixels inverted."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(612, 792))
    draw_lines(canvas, lines)
    canvas.showPage()
    canvas.save()
    image = pdfium.PdfDocument(buffer.getvalue())[0].render(scale=dpi / 72, grayscale=True)
    pixels = np.asarray(image.to_pil().convert("L"), dtype=np.float64)
    if noise:
        rng = np.random.default_rng(1978)
        pixels = pixels + rng.normal(0, noise, pixels.shape)
        specks = rng.random(pixels.shape) < 0.02
        pixels[specks] = 255 - pixels[specks]
    return Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8))


def scan_pdf(path: Path, lines: tuple[str, ...], layer: tuple[str, ...] | None, dpi: int,
             noise: float) -> Path:
    """A one-page scan of ``lines`` (see :func:`picture`) under an invisible text
    ``layer`` set where the picture's lines are."""
    canvas = Canvas(str(path), pagesize=(612, 792))
    canvas.drawImage(ImageReader(picture(lines, dpi, noise)), 0, 0, width=612, height=792)
    if layer is not None:
        draw_lines(canvas, layer, render_mode=3)
    canvas.showPage()
    canvas.save()
    return path


def text_of(lines: tuple[str, ...]) -> str:
    return "\n".join(lines)


# --------------------------------------------------------------------------- the rule


def test_keep_layer_unless_tesseract_beats_it_by_the_margin() -> None:
    margin = LayoutConfig().ocr.ocr_layer_margin
    assert margin == 0.05
    assert keep_layer(0.90, 0.95, margin)  # better, but not by more than the margin
    assert not keep_layer(0.90, 0.96, margin)
    assert keep_layer(0.90, 0.40, margin)
    assert not keep_layer(None, 0.0, margin)  # no layer: OCR as before
    # a layer that even a perfect reading cannot beat: no OCR needed
    assert keep_layer(0.95, 1.0, margin) and not keep_layer(0.94, 1.0, margin)
    assert not keep_layer(0.90, 0.91, 0.0)


def test_margin_is_a_checked_share() -> None:
    assert LayoutConfig().replace(ocr_layer_margin=0.2).ocr.ocr_layer_margin == 0.2
    with pytest.raises(ConfigError, match="ocr_layer_margin"):
        LayoutConfig().replace(ocr_layer_margin=1.5)


def test_read_share_judges_a_layer_and_tesseract_alike() -> None:
    known = known_words("eng")
    assert [word_reads(w, known) for w in (
        "The", "fox.", "1-1", "81.96%", "(1978)", "21st", "1,256", "self-made", "-CHELSEA",
    )] == [True] * 9
    # rules read as bars and brackets, letters and digits run together, unknown words
    assert [word_reads(w, known) for w in (
        "|", "|WRITE", "12822]", "4b", "F244", "l0", "2)]4", "xqzt", "tbe",
    )] == [False] * 9
    assert [word_reads(w, known) for w in ("&", "I", "—", "e.g.")] == [None] * 4  # not judged
    # Melrose's WRITE INS row as its Paper Capture layer and as tesseract read it
    layer, tesseract = ("WRITE INS 2 4 1 3 3 1 3 0 2 1 2 1 3 6 32",
                        "|WRITE INS 1 2)]4 ])] 74/1] 8 | 3 | 4b 8.1. 0 F244 12]")
    assert read_share(layer.split(), "eng") == 1.0
    assert read_share(tesseract.split(), "eng") == pytest.approx(6 / 15)  # INS 1 8 3 8.1. 0
    assert read_share([], "eng") == 0.0


# --------------------------------------------------------------------------- the scans


@pytest.mark.parametrize(("lines", "words", "language", "word_list"), [
    (LINES, 57, "eng", "american-english"),
    (SPANISH_LINES, 61, "spa", "spanish+spacy:es_lemma_lookup"),
])
def test_good_layer_over_a_poor_scan_is_kept_without_ocr(
        tmp_path: Path, lines: tuple[str, ...], words: int, language: str, word_list: str,
        no_tesseract: None) -> None:
    """Every word of the layer reads as real in the layer's own language (the Spanish
    one was judged by the English word list, 0.35, and re-read in English): the layer
    reads, so the page keeps it and tesseract is never asked (its confidence and
    dictionary are null); the JSON says it was not OCR'd and why."""
    path = scan_pdf(tmp_path / "scan.pdf", lines, lines, dpi=100, noise=40)
    document = layoutkit.parse(path)
    assert document[0].text() == text_of(lines)
    why = f"layer reads (1.00 of its words in the {language} word list)"
    assert document.ocr == (OcrQuality(1, words, 0.0, None, source="text layer", layer=1.0,
                                       language=language, word_list=word_list, done=False,
                                       why=why),)
    assert document.scanned == (True, 1.0)
    ocr = document_json(document)["pages"][0]["ocr"]
    assert ocr == {"words": words, "confidence": None, "dictionary": None, "quality": 1.0,
                   "error": None, "source": "text layer", "layerQuality": 1.0,
                   "tesseractQuality": None, "language": language, "wordList": word_list,
                   "done": False, "why": why}
    assert store_loads(store_dumps(document)) == document


@pytest.fixture(scope="module")
def named_scan(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return scan_pdf(tmp_path_factory.mktemp("named") / "scan.pdf", NAMED_LINES, NAMED_LINES,
                    dpi=100, noise=40)


def test_layer_with_names_reads_and_is_kept_without_ocr(named_scan: Path,
                                                       no_tesseract: None) -> None:
    """Names no word list has leave 58 of the layer's 64 judged words reading: above
    ``ocr_min_quality`` (0.7), the layer reads, and the page is not OCR'd (it was, to
    be compared, while only a layer reading 0.95 was spared)."""
    document = layoutkit.parse(named_scan)
    assert document[0].text() == text_of(NAMED_LINES)
    quality = document.ocr[0]
    assert (quality.source, quality.done, quality.tesseract) == ("text layer", False, None)
    assert quality.layer == pytest.approx(58 / 64)
    assert quality.why == "layer reads (0.91 of its words in the eng word list)"


def test_layer_that_reads_better_than_tesseract_is_kept_exactly(named_scan: Path) -> None:
    """Asked for a layer reading 0.99 before it is spared OCR, the page is OCR'd and
    compared (58 words of 64 read: surely below 0.99, `may_read`): at 100 dpi with
    noise tesseract reads half its words wrong, and the layer stays."""
    document = layoutkit.parse(named_scan, LayoutConfig().replace(ocr_min_quality=0.99))
    assert document[0].text() == text_of(NAMED_LINES)
    quality = document.ocr[0]
    assert quality.source == "text layer" and quality.words == 65 and quality.done
    assert quality.layer == pytest.approx(58 / 64)
    assert quality.tesseract is not None and quality.tesseract < 0.6
    assert quality.confidence < 0.6  # tesseract's own, recorded
    assert quality.score == quality.layer
    assert quality.why is not None and quality.why.startswith(
        "layer reads poorly (0.91 of its words in the eng word list, below ocr_min_quality "
        "0.99); tesseract's words read ") and quality.why.endswith(": layer kept")
    ocr = document_json(document)["pages"][0]["ocr"]
    assert ocr["source"] == "text layer" and ocr["quality"] == ocr["layerQuality"] == 0.9062
    assert ocr["tesseractQuality"] == round(quality.tesseract, 4) and ocr["done"] is True
    assert all(word.font != "OCR" for line in document[0].lines for word in line.words)


def _words(text: str) -> tuple[Word, ...]:
    return tuple(Word(w, BBox(10.0 * i, 0.0, 10.0 * i + 8, 10.0), "F", 10.0)
                 for i, w in enumerate(text.split()))


def test_judge_layer_keeps_what_reads_and_says_why() -> None:
    """The judge reads the layer's own words: a layer of listed words reads, a garbled
    one (0.22 of its words) does not, nor does no layer or one without letters."""
    config = LayoutConfig()
    good = judge_layer(_words(" ".join(LINES)), config)
    assert (good.reads, good.share, good.languages) == (True, 1.0, "eng")
    assert good.why == "layer reads (1.00 of its words in the eng word list)"
    garbled = judge_layer(_words(" ".join(GARBLED_LINES)), config)
    assert not garbled.reads and garbled.share is not None and garbled.share < 0.3
    assert garbled.why.startswith("layer reads poorly (0.")
    assert garbled.why.endswith("word list, below ocr_min_quality 0.70)")
    assert judge_layer((), config).why == "no text layer"
    assert judge_layer(_words("12 3-4 5"), config).why == "text layer has no letters"
    spared = judge_layer(_words(" ".join(NAMED_LINES)), config.replace(ocr_min_quality=0.99))
    assert not spared.reads and spared.share == pytest.approx(58 / 64)
    doubt = judge_layer(_words(" ".join(NAMED_LINES)), config.replace(ocr_min_quality=0.95))
    assert doubt.reads and doubt.share == pytest.approx(58 / 64)
    assert doubt.why == ("layer reads (0.91 of its words in the eng word list: 64 words, "
                         "too few to tell it from ocr_min_quality 0.95)")
    for few in ("xqzt", "harbour xqzt vbnrt zzkq"):  # too few to tell, but garbage
        assert not judge_layer(_words(few), config).reads
    # a table's layer of numbers reads (11 words of 15), though few of its letter runs
    # are listed: the garbage test only withholds the benefit of the doubt
    numbers = judge_layer(_words("12 14 16 18 20 22 24 26 28 30 water xqzt vbnrt zzkq qwxz"),
                          config.replace(ocr_languages="eng"))
    assert numbers.reads and numbers.share == pytest.approx(11 / 15)


def test_a_share_of_few_words_is_judged_less_surely() -> None:
    """The upper end of a share's 95 % Wilson interval: 28 words of 41 (0.68, a patent's
    drawing sheet) may come from a layer reading 0.70, and so may 272 of 400 (0.68); 240
    of 400 (0.60, a page of text) may not, nor may a garbled page's 60 of 200."""
    assert may_read(28, 41, 0.7) and may_read(272, 400, 0.7) and may_read(70, 100, 0.7)
    assert not may_read(240, 400, 0.7) and not may_read(60, 200, 0.7)
    assert not may_read(0, 0, 0.7)  # nothing judged: no layer to keep


def test_words_run_together_split_into_listed_words() -> None:
    known, short = known_words("eng"), frozenset({"of", "the", "to", "in", "at", "for"})
    assert known is not None
    assert split_words("ofthat", known, short) == ("of", "that")
    assert split_words("thesurvey", known, short) == ("the", "survey")
    assert split_words("shouldcontinue", known, short) == ("should", "continue")
    assert split_words("iiii", known, short) is None  # no short common words
    assert split_words("xqzt", known, short) is None and split_words("the", known, short) is None
    assert word_reads("ofthat", known, short) and not word_reads("ofthat", known)


def test_layer_of_run_together_words_is_kept_without_ocr(tmp_path: Path,
                                                         no_tesseract: None) -> None:
    """14 of the layer's 43 words are two words run together: looked up whole, only
    29 of them (0.67, below ``ocr_min_quality``) are in the word list; split, every one
    reads, so the layer reads and the page is not OCR'd."""
    path = scan_pdf(tmp_path / "scan.pdf", LINES, RUN_TOGETHER_LINES, dpi=100, noise=40)
    words = " ".join(RUN_TOGETHER_LINES).split()
    known = known_words("eng")
    assert known is not None and len(words) == 43
    whole = [w for w in words if w.strip(".,").casefold() in known]
    assert len(whole) == 29 and len(whole) / len(words) < LayoutConfig().ocr.ocr_min_quality
    assert read_share(words, "eng") == 1.0
    document = layoutkit.parse(path)
    assert document[0].text() == text_of(RUN_TOGETHER_LINES)
    quality = document.ocr[0]
    assert (quality.source, quality.done, quality.layer) == ("text layer", False, 1.0)


def test_ocr_always_takes_tesseract_over_the_better_layer(named_scan: Path) -> None:
    document = layoutkit.parse(named_scan, LayoutConfig().replace(ocr="always"))
    quality = document.ocr[0]
    assert quality.source == "tesseract" and quality.layer == pytest.approx(58 / 64)
    assert document[0].text() != text_of(NAMED_LINES)
    assert all(word.font == "OCR" for line in document[0].lines for word in line.words)


def test_tesseract_replaces_a_badly_ocrd_layer(tmp_path: Path) -> None:
    """A clean 200 dpi scan under a layer read by a poor OCR engine: tesseract reads
    every word and wins."""
    path = scan_pdf(tmp_path / "scan.pdf", LINES, GARBLED_LINES, dpi=200, noise=0)
    document = layoutkit.parse(path)
    quality = document.ocr[0]
    assert quality.source == "tesseract" and quality.tesseract == 1.0 and quality.done
    assert quality.layer is not None and quality.layer < 0.3
    assert quality.why is not None and quality.why.startswith("layer reads poorly (0.")
    assert quality.why.endswith("tesseract's words read 1.00, the layer's "
                                f"{quality.layer:.2f}: tesseract's kept")
    assert document[0].text() == text_of(LINES)
    assert document_json(document)["pages"][0]["ocr"]["source"] == "tesseract"


def test_a_page_without_a_layer_is_ocrd_as_before(tmp_path: Path) -> None:
    path = scan_pdf(tmp_path / "scan.pdf", LINES, None, dpi=200, noise=0)
    document = layoutkit.parse(path)
    quality = document.ocr[0]
    assert quality.source == "tesseract" and quality.layer is None
    assert quality.tesseract == 1.0 and quality.score > 0.9
    assert document[0].text() == text_of(LINES)
    ocr = document_json(document)["pages"][0]["ocr"]
    assert ocr["layerQuality"] is None and ocr["tesseractQuality"] == 1.0
    assert (ocr["done"], ocr["why"]) == (True, "no text layer")


def test_melrose_keeps_its_paper_capture_layer(tmp_path: Path, no_tesseract: None) -> None:
    """The election results scan: tesseract reads the table's rules as ``|`` and
    garbles the WRITE INS rows; the Paper Capture layer, checked sum by sum against the
    truth, reads and is kept without OCR."""
    document: Document = layoutkit.parse(MELROSE, pages=[1, 5])
    assert [(q.page_no, q.source, q.tesseract) for q in document.ocr] == [
        (1, "text layer", None), (5, "text layer", None)]
    assert all(q.layer is not None and q.layer > 0.97 for q in document.ocr)
    truth = load_truth(MELROSE_TRUTH)
    for page, labelled in zip(document.pages, truth.pages, strict=True):
        score = score_truth(page.text(), labelled)
        assert score.found == 1.0 and score.order == 1.0


# --------------------------------------------------------------------------- the patents


@pytest.mark.parametrize(("page", "guessed"), [(23, "nl"), (76, "de"), (77, "es")])
def test_a_patents_layer_is_told_english_by_word_lists(page: int, guessed: str) -> None:
    """The layer of a patent's first drawing sheet (title, dates, figure labels,
    garbled signatures) is English to the word lists; py3langid's character n-grams
    alone, which chose before, take it for Dutch, German or Spanish."""
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    from layoutkit.geometry.words import words_from_glyphs
    from layoutkit.sources import open_source
    from layoutkit.sources.ocr.language import LANGUAGES, installed, layer_language

    config = LayoutConfig()
    with open_source(PATENTS) as source:
        glyphs = next(iter(source.pages([page])))
    texts = [w.text for w in words_from_glyphs(glyphs.glyphs, config.words)]
    assert layer_language(texts, config) == "eng"
    identifier = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    identifier.set_languages(sorted({lang.iso for lang in LANGUAGES
                                     if lang.code in installed()}))
    assert identifier.classify(" ".join(texts))[0] == guessed


def test_a_long_patent_scan_is_read_from_its_layer_without_ocr(no_tesseract: None) -> None:
    """Ten pages of patents, text pages and drawing sheets, each with an English OCR
    layer that reads: none is OCR'd, each says why, and the JSON (checked against its
    schema) carries it."""
    import jsonschema

    pages = [1, 2, 12, 20, 23, 46, 76, 77, 86, 91]  # and their neighbours, which read too
    document = layoutkit.parse(PATENTS, pages=pages)
    assert [(q.page_no, q.done, q.source, q.language) for q in document.ocr] == [
        (n, False, "text layer", "eng") for n in pages]
    assert all(q.why is not None and q.why.startswith("layer reads (0.") and
               q.why.endswith(" of its words in the eng word list)") for q in document.ocr)
    assert all(q.layer is not None and q.layer >= 0.7 for q in document.ocr)
    written = document_json(document)
    jsonschema.validate(written, json_schema())
    assert [(p["ocr"]["done"], p["ocr"]["why"][:12]) for p in written["pages"]] == [
        (False, "layer reads ")] * len(pages)


def test_a_language_without_a_word_list_is_judged_by_its_script() -> None:
    """Hebrew has no word list installed: its words read as real where their letters
    are Hebrew, so a layer garbled into Latin-1 letters (Hebrew bytes read as
    cp1252) reads as nothing, and a good layer can be kept over tesseract's words."""
    hebrew = ["חמשה", "ועשרים", "לירח", "העשירי", "ירושלם"]
    garbled = [word.encode("utf-8").decode("cp1252", errors="replace") for word in hebrew]
    assert scripts("heb") == ("HEBREW",) and scripts("xyz") is None
    assert read_share(hebrew, "heb") == 1.0
    assert read_share(garbled, "heb") == 0.0
    assert read_share(["mojibake", *hebrew], "") == 1.0  # no language known: any letters


def test_a_lookup_tables_words_are_its_forms_and_lemmas_case_folded() -> None:
    """A spaCy lookup table gives the word list its forms, case-folded ('России' is
    listed as 'россии'), and its lemmas, even those that are no form of their own
    ('человек', the lemma of 'человека')."""
    known = known_words("rus")
    assert known is not None
    assert {"россии", "человека", "человек"} <= known
    assert "России" not in known
