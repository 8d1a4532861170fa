"""OCR of scanned pages and images, run for real with tesseract (``make setup`` installs it).

Every document is OCR'd at most once per test session (module fixtures); nothing is
cached across sessions.
"""

from __future__ import annotations

import io
import json
import logging
import subprocess
import sys
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium  # type: ignore[import-untyped]
import pytesseract
import pytest
from PIL import Image
from rapidfuzz import fuzz
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

import layoutkit
from benchmarks import linetypes as linetypes_bench
from fixtures.synthetic import gazette
from layoutkit.cli import main
from layoutkit.config import LayoutConfig
from layoutkit.errors import ConfigError, DocumentError, UsageError
from layoutkit.geometry.words import words_from_glyphs
from layoutkit.model import Document
from layoutkit.outputs import document_json
from layoutkit.sources import open_source
from layoutkit.sources.ocr.image import (
    OCR_FONT,
    detect_osd,
    erase_rules,
    missed_ink,
    ocr_words,
    skew_angle,
    upright,
)
from layoutkit.sources.ocr.language import installed
from layoutkit.sources.ocr.quality import dictionary_share
from layoutkit.sources.ocr.scanned import is_scanned, page_image
from layoutkit.sources.ruled_tables import find_ruled_tables
from layoutkit.tools.evaluate import score_page, score_truth
from layoutkit.tools.truth import load_truth
from tests.parsed import parsed

ROOT = Path(__file__).resolve().parent.parent
SCANNED = ROOT / "fixtures" / "scanned"
LINN = SCANNED / "linn-brochure.pdf"
LINN_SKEWED = SCANNED / "linn-brochure-skewed.pdf"
CFR = SCANNED / "cfr-5-page7-two-column.jpg"
ACCOUNTS = SCANNED / "rotary-ayr-benevolent-fund-accounts-2018-p1-p7.pdf"
CFR_TRUTH = ROOT / "regions" / "scanned" / "cfr-5-page7-two-column.truth.json"


def normalised(text: str) -> str:
    return " ".join(text.split())


def similarity(document: Document) -> float:
    reference = (SCANNED / "linn-brochure.reference.txt").read_text(encoding="utf-8")
    return fuzz.ratio(normalised(document.text()), normalised(reference)) / 100


@pytest.fixture(scope="module")
def linn() -> Document:
    return layoutkit.parse(LINN)


@pytest.fixture(scope="module")
def cfr() -> Document:
    return parsed(CFR)


@pytest.fixture(scope="module")
def accounts() -> Document:
    return parsed(ACCOUNTS)


def text_page(text: str, size: float = 28) -> bytes:
    """A one-page born-digital PDF with ``text`` in large type, one line per line."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(612, 792))
    canvas.setFont("Helvetica", size)
    for i, line in enumerate(text.splitlines()):
        canvas.drawString(72, 700 - i * size * 1.4, line)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def rendered(pdf: bytes, dpi: int) -> Image.Image:
    """Page 1 of ``pdf`` rendered at ``dpi``, grey, its resolution stored with it."""
    image = pdfium.PdfDocument(pdf)[0].render(scale=dpi / 72, grayscale=True).to_pil()
    image = image.convert("L")
    image.info["dpi"] = (dpi, dpi)
    return image


SCANNED_TEXT = "Scanned pages read\nlike born digital ones\nwith their words in order"


def mixed_pdf(path: Path, *, layer: str | None = None, render_mode: int = 3) -> Path:
    """Page 1 born digital; page 2 a page-size picture of text, optionally under a text
    ``layer`` drawn in ``render_mode`` (3: invisible, as OCR tools write one)."""
    picture = rendered(text_page(SCANNED_TEXT), 150)
    canvas = Canvas(str(path), pagesize=(612, 792))
    canvas.setFont("Helvetica", 14)
    canvas.drawString(72, 700, "The first page has a text layer of its own")
    canvas.showPage()
    canvas.drawImage(ImageReader(picture), 0, 0, width=612, height=792)
    if layer is not None:
        text = canvas.beginText(72, 400)
        text.setTextRenderMode(render_mode)
        text.setFont("Helvetica", 12)
        text.textLine(layer)
        canvas.drawText(text)
    canvas.showPage()
    canvas.save()
    return path


# --------------------------------------------------------------------------- the bars


def test_linn_brochure_reads_like_its_reference_text(linn: Document) -> None:
    assert similarity(linn) >= 0.90
    scanned, quality = linn.scanned
    assert scanned and quality is not None and quality >= 0.9


def test_document_api_says_scanned_and_keeps_it_through_store(linn: Document,
                                                               tmp_path: Path) -> None:
    """``layoutkit.TextDocument`` reports the OCR quality of a scan and stores it."""
    doc = layoutkit.TextDocument.from_layout(linn)
    assert doc.scanned == linn.scanned
    doc.store(tmp_path)
    again = layoutkit.TextDocument.load(tmp_path)
    assert again.scanned == linn.scanned
    assert again.layout == linn


def test_linn_full_width_list_before_two_columns_not_interleaved(linn: Document) -> None:
    lines = [line.text for line in linn[0].body_lines]

    def at(start: str) -> int:
        return next(i for i, text in enumerate(lines) if text.startswith(start))

    # the full-width bullet list, then the left column's sections, then the right one's
    assert at("The LinnSequencer is a state") < at("Recording a Sequence") < at("Editing") \
        < at("Creating a Song") < at("Composition Without Compromise") < at("Additional Features")
    recording = at("To record a sequence")
    assert lines[recording + 1].startswith("then play your MIDI keyboard")
    page = linn[0]
    band = next(b for b in page.bands if any(line.text.startswith("Recording a Sequence")
                                              for line in b.lines))
    assert len(band.columns) == 2
    assert all(word.font == OCR_FONT for line in page.lines for word in line.words)


def test_linn_skewed_scan_is_deskewed_and_reads_like_the_reference() -> None:
    image, _ = page_image(LINN_SKEWED, 1, LayoutConfig())
    assert -3.0 < skew_angle(np.asarray(image)) < -1.0  # leans clockwise by about 1.8 degrees
    assert similarity(layoutkit.parse(LINN_SKEWED)) >= 0.85


def test_cfr_page_image_reads_in_labelled_order(cfr: Document) -> None:
    score = score_truth(cfr[0].text(), load_truth(CFR_TRUTH).pages[0])
    assert score.order >= 0.95, f"order {score.order:.4f} over {score.pairs} pairs"
    assert score.found >= 0.95
    # no resolution in the JPEG: image_dpi (300) gives the page size
    assert (cfr[0].width, cfr[0].height) == pytest.approx((1248 * 72 / 300, 1664 * 72 / 300))
    texts = [line.text for line in cfr[0].body_lines]
    title = next(i for i, text in enumerate(texts) if text.endswith("CIVIL SERVICE RULES"))
    assert texts[title + 1].startswith("PART 1")


def test_synthetic_gazette_page_image_reads_in_order(tmp_path: Path) -> None:
    doc = gazette("three_column", seed=0)
    truth = doc.pages[0]
    path = tmp_path / "gazette-p1.png"
    image = rendered(doc.pdf, 300)
    image.save(path, dpi=(300, 300))
    page = layoutkit.parse(path)[0]
    score = score_page(page.text(), truth.lines, truth.furniture, truth.paragraphs)
    assert score.order >= 0.97, f"order {score.order:.4f} over {score.pairs} pairs"
    assert score.found >= 0.97
    digital = layoutkit.parse(io_path(tmp_path, doc.pdf), pages=[1])[0]
    assert (page.width, page.height) == pytest.approx((digital.width, digital.height), abs=0.5)


def io_path(tmp_path: Path, pdf: bytes) -> Path:
    path = tmp_path / "gazette.pdf"
    path.write_bytes(pdf)
    return path


def test_web_printout_boxed_contents_list_typed_toc() -> None:
    """The printout's boxed contents list (section numbers, no page numbers) is typed
    toc, every entry and nothing else (``regions/scanned/``): issue 6."""
    score = linetypes_bench.boxed_contents()
    assert score.expected == 18
    assert (score.recall, score.precision) == (1.0, 1.0), score


BOX_ENTRIES = ("1 History", "1.1 Blind and visually impaired users", "2 Applications",
               "3 Types", "3.1 Optical recognition", "3.2 Magnetic ink")


def boxed_list(dpi: int = 300) -> Image.Image:
    """A contents list in a box with a grey border, printed: dithered to black dots as
    a laser printer halftones grey, the border becomes a line of dots."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(300, 200))
    canvas.setFont("Helvetica-Bold", 14)
    canvas.drawString(20, 160, "Contents")
    canvas.setFont("Helvetica", 10)
    for k, entry in enumerate(BOX_ENTRIES):
        canvas.drawString(30 + 12 * entry.split()[0].count("."), 140 - 14 * k, entry)
    canvas.setStrokeGray(0.55)
    canvas.setLineWidth(1.2)
    canvas.rect(14, 44, 240, 136)
    canvas.showPage()
    canvas.save()
    return rendered(buffer.getvalue(), dpi).convert("1").convert("L")


def test_erase_rules_paints_out_a_halftoned_box_and_keeps_the_text() -> None:
    """The box's dotted sides turn white; the letters inside, and a page without
    rules, are left as they were."""
    image = boxed_list()
    erased = erase_rules(image, 72 / 300, LayoutConfig().ocr)
    before, after = np.asarray(image), np.asarray(erased)
    side = before[200:650, 55:65]  # a stretch of the left side, 14 pt from the edge
    assert (side < 128).sum() > 500 and (after[200:650, 55:65] == 255).all()
    text = (slice(100, 620), slice(75, 1040))  # "Contents" and the entries
    assert np.array_equal(before[text], after[text])
    plain = rendered(text_page("No box around these words"), 300)
    assert erase_rules(plain, 72 / 300, LayoutConfig().ocr) is plain


def test_ocr_reads_no_words_into_a_box_and_keeps_its_lines_apart() -> None:
    """Read as it is, the box's left side is a word ``|`` stretching the title's line;
    with its rules painted out the box reads as its text alone, a line each."""
    image, scale = boxed_list(), 72 / 300
    kept = LayoutConfig().ocr.replace(ocr_rule_min_length=10_000.0)  # no rule that long
    raw = ocr_words(erase_rules(image, scale, kept), scale, "eng").words
    assert any(not any(c.isalnum() for c in w.text) for w in raw)
    read = ocr_words(erase_rules(image, scale, LayoutConfig().ocr), scale, "eng").words
    assert [w.text for w in read] == ["Contents", *" ".join(BOX_ENTRIES).split()]
    tops = sorted({round(w.bbox.top) for w in read})
    assert len(tops) == 1 + len(BOX_ENTRIES)


def test_ocr_sizes_a_line_of_capitals_as_a_line_of_the_same_type() -> None:
    """Tesseract boxes ink: a line of capitals has a cap height of it, a line with
    ascenders and descenders more.  Both lines of one type get one size, an em, and
    boxes an em high: the geometry stage compares them as it compares a PDF's."""
    image = rendered(text_page("RECEIPTS AND PAYMENTS\nthe yearly golf day", 20), 300)
    read = ocr_words(image, 72 / 300, "eng").words
    assert " ".join(w.text for w in read) == "RECEIPTS AND PAYMENTS the yearly golf day"
    capitals, mixed = read[0].size, read[-1].size  # the ink: 14.4 pt and 18.5 pt high
    assert 19 < mixed < capitals < 22 and capitals / mixed < 1.05
    assert all(w.bbox.bottom - w.bbox.top == pytest.approx(w.size) for w in read)


def test_missed_ink_is_the_text_no_word_covers() -> None:
    """With the words of the first line taken away, the ink left to read again is the
    first line's; with every word read, none."""
    image, scale = rendered(text_page("Expenses 1,301\nGrants 4,958"), 300), 72 / 300
    read = ocr_words(image, scale, "eng").words
    assert missed_ink(image, read, scale) is None
    second = [w for w in read if w.bbox.top > read[0].bbox.bottom]
    left = missed_ink(image, second, scale)
    assert left is not None
    rows = np.flatnonzero((np.asarray(left) < 128).any(axis=1)) * scale
    assert read[0].bbox.top - 2 <= rows.min() and rows.max() <= read[0].bbox.bottom + 2
    again = ocr_words(left, scale, "eng", sparse=True, first=len(second)).words
    assert [w.text for w in again] == ["Expenses", "1,301"]
    assert [w.stream for w in again] == [len(second), len(second) + 1]


def test_scanned_accounts_keep_their_figures_and_their_cover(accounts: Document) -> None:
    """Tesseract's page layout drops the columns of figures of the second table of a
    scanned account (those of 'Expenses for fund raising activities', 1,301 and 1,775,
    and of four more rows); they are read again where no word covers the ink.  The
    cover's address, set in capitals and small letters under the accountants' name,
    is its text, not a footer."""
    cover, notes = (page.text().splitlines() for page in accounts.pages)
    for figures in ("760 350", "8,025 13,001", "1,301 1,775", "270 270", "6,529 7,245"):
        assert any(line.endswith(figures) for line in notes)
    assert cover[-5:] == ["Galbraith Pritchards", "Chartered Accountants", "20 Barns Street",
                          "Ayr", "KA7 1XA"]


# --------------------------------------------------------------------------- detection


def test_mixed_document_ocrs_only_its_scanned_page(tmp_path: Path) -> None:
    document = layoutkit.parse(mixed_pdf(tmp_path / "mixed.pdf"))
    assert [q.page_no for q in document.ocr] == [2]
    assert document[0].text() == "The first page has a text layer of its own"
    assert normalised(document[1].text()) == normalised(SCANNED_TEXT)
    data = document_json(document)
    assert "ocr" not in data["pages"][0] and data["pages"][1]["ocr"]["error"] is None
    assert data["ocr"]["scanned"] is True and data["ocr"]["quality"] > 0.9
    never = layoutkit.parse(tmp_path / "mixed.pdf", LayoutConfig().replace(ocr="never"))
    assert never.scanned == (False, None) and never[1].text() == ""
    assert "ocr" not in document_json(never)


def test_a_neighbour_ocrd_for_its_running_headers_is_logged(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Asked for the first page alone, the scanned page after it is read (and OCR'd) for
    its running headers; ``-v`` says so, since the user waits for it, and reports the
    page asked for as before."""
    path = mixed_pdf(tmp_path / "mixed.pdf")
    with caplog.at_level(logging.INFO, logger="layoutkit"):
        document = layoutkit.parse(path, pages=[1])
    assert not document.ocr
    said = [r.getMessage() for r in caplog.records if r.levelno == logging.INFO]
    assert f"{path}: page 1: read by pdfium, no OCR" in said
    assert (f"{path}: page 2, read for its neighbours' running headers: scanned, OCR in eng: "
            "no text layer") in said


def test_low_ocr_quality_is_a_warning_naming_page_and_parts(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = mixed_pdf(tmp_path / "mixed.pdf")
    with caplog.at_level(logging.WARNING):
        document = layoutkit.parse(path, LayoutConfig().replace(ocr_min_quality=1.0))
    quality = document.ocr[0]
    assert 0.9 < quality.score < 1.0 and quality.dictionary == 1.0
    assert [r.getMessage() for r in caplog.records] == [
        f"{path}: page 2: OCR quality {quality.score:.3f} is below ocr_min_quality 1.00 "
        f"(mean confidence {quality.confidence:.2f}, 1.00 of words in the eng word list "
        f"({quality.word_list}))"]
    assert quality.language == "eng" and quality.word_list.startswith("american-english")


@pytest.mark.parametrize(("layer", "render_mode", "expected"), [
    ("Scanned pages read like born digital ones", 3, True),  # invisible
    ("xqzt vbnm qwpr zzkx ghjw", 0, True),  # garbage
    ("Scanned pages read like born digital ones", 0, False),  # a visible, good layer
])
def test_invisible_or_garbage_layer_over_a_page_picture_is_scanned(
        tmp_path: Path, layer: str, render_mode: int, expected: bool) -> None:
    config = LayoutConfig()
    path = mixed_pdf(tmp_path / "layer.pdf", layer=layer, render_mode=render_mode)
    with open_source(path) as source:
        page = next(iter(source.pages([2])))
    words = words_from_glyphs(page.glyphs, config.words)
    assert words and is_scanned(path, page, words, config) is expected


def test_born_digital_page_is_not_scanned(tmp_path: Path) -> None:
    config = LayoutConfig()
    born_digital = tmp_path / "digital.pdf"
    born_digital.write_bytes(text_page(SCANNED_TEXT))
    with open_source(born_digital) as source:
        page = next(iter(source.pages([1])))
    words = words_from_glyphs(page.glyphs, config.words)
    assert not is_scanned(born_digital, page, words, config)
    assert is_scanned(born_digital, page, words, config.replace(ocr="always"))


def test_dictionary_share_counts_letter_runs_in_the_word_list() -> None:
    assert dictionary_share(["The quick brown fox", "jumps."], "eng") == 1.0
    assert dictionary_share(["xqzt vbnm", "fox"], "eng") == pytest.approx(1 / 3)
    assert dictionary_share(["Straße", "und"], "deu") == 1.0
    assert dictionary_share(["42", "a"], "eng") == 0.0
    assert dictionary_share(["word"], "chi_sim") is None


def test_upright_turns_a_sideways_page_back() -> None:
    image = Image.open(CFR).convert("L")
    sideways = image.rotate(90, expand=True, fillcolor=255)
    turned = upright(sideways, LayoutConfig().ocr, detect_osd(sideways))
    assert turned.size == image.size
    assert np.array_equal(np.asarray(turned), np.asarray(image))


# --------------------------------------------------------------------------- images


def test_multipage_tiff_is_one_page_per_frame(tmp_path: Path) -> None:
    frames = [Image.new("L", (600, 900), 255), Image.new("L", (900, 600), 255)]
    path = tmp_path / "two.tif"
    frames[0].save(path, save_all=True, append_images=frames[1:], dpi=(150, 150))
    with open_source(path) as source:
        pages = list(source.pages([1, 2]))
    assert source.page_count == 2
    assert [(p.width, p.height) for p in pages] == [(288, 432), (432, 288)]
    assert all(not p.glyphs and len(p.images) == 1 for p in pages)


# --------------------------------------------------------------------------- errors


def run(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> tuple[int, str, str]:
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_unreadable_and_empty_images_fail_with_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    garbage = tmp_path / "scan.png"
    garbage.write_bytes(b"\x89PNG\r\n\x1a\n not really a picture")
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    for path, reason in ((garbage, "not a readable image"), (empty, "empty file")):
        status, out, err = run(capsys, "text", path)
        assert (status, out) == (1, "")
        assert err.count("\n") == 1 and f"{path}: {reason}" in err


def test_truncated_frame_is_named_with_its_page(tmp_path: Path) -> None:
    buffer = io.BytesIO()
    rendered(text_page(SCANNED_TEXT), 100).save(buffer, format="PNG")
    path = tmp_path / "cut.png"
    path.write_bytes(buffer.getvalue()[: len(buffer.getvalue()) // 2])
    with pytest.raises(DocumentError, match=r"cut\.png: page 1: cannot decode the image"):
        layoutkit.parse(path)


def test_missing_tesseract_names_the_install_command_and_keeps_text_pages(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    path = mixed_pdf(tmp_path / "mixed.pdf")
    monkeypatch.setattr(pytesseract.pytesseract, "tesseract_cmd", str(tmp_path / "no-tesseract"))
    installed.cache_clear()
    try:
        with caplog.at_level(logging.WARNING):
            document = layoutkit.parse(path)
        warnings = [r.getMessage() for r in caplog.records]
        image = tmp_path / "page.png"
        rendered(text_page(SCANNED_TEXT), 100).save(image)
        with pytest.raises(DocumentError, match=r"apt-get install tesseract-ocr$"):
            layoutkit.parse(image)
    finally:
        installed.cache_clear()
    assert document[0].text() == "The first page has a text layer of its own"
    assert document.scanned == (True, None) and document.ocr[0].error
    assert warnings == [
        f"{path}: tesseract is not installed; install it with: apt-get install tesseract-ocr"]


def test_tesseract_failing_on_a_page_is_named_and_other_pages_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    path = mixed_pdf(tmp_path / "mixed.pdf")
    failing = tmp_path / "tesseract"
    failing.write_text('#!/bin/sh\ncase "$1" in\n  --version) echo "tesseract 5.3.0";;\n'
                       '  --list-langs) printf "List of available languages (1):\\neng\\n";;\n'
                       '  *) echo "Error in pixReadStream: page image unreadable" >&2; exit 1;;\n'
                       'esac\n')
    failing.chmod(0o755)
    monkeypatch.setattr(pytesseract.pytesseract, "tesseract_cmd", str(failing))
    installed.cache_clear()
    try:
        with caplog.at_level(logging.WARNING):
            document = layoutkit.parse(path)
    finally:
        installed.cache_clear()
    message = (f"{path}: page 2: tesseract failed "
               "(Error in pixReadStream: page image unreadable)")
    assert [r.getMessage() for r in caplog.records] == [message]
    assert document.ocr[0].error == message and document.scanned == (True, None)
    assert document[0].text() == "The first page has a text layer of its own"


def test_unknown_language_is_one_line_saying_it_is_unknown(tmp_path: Path) -> None:
    """A language code tesseract has no pack for is said to be unknown, with no package
    to install (there is no ``tesseract-ocr-xyz``)."""
    path = mixed_pdf(tmp_path / "mixed.pdf")
    done = subprocess.run([sys.executable, "-m", "layoutkit", "text", str(path), "--set",
                           "ocr_languages=eng+xyz"], capture_output=True, text=True, check=False)
    assert done.returncode == 0
    assert done.stdout.startswith("The first page has a text layer of its own")
    assert done.stderr == (f"layoutkit: {path}: OCR language 'xyz' is unknown: tesseract reads "
                           "no such language; pages are read in 'eng' instead\n")


def test_ocr_config_and_option_are_checked(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ConfigError, match="'ocr': expected auto, always or never"):
        LayoutConfig().replace(ocr="sometimes")
    with pytest.raises(ConfigError, match="'ocr_languages'"):
        LayoutConfig().replace(ocr_languages="ENG")
    assert LayoutConfig().replace(ocr_languages="eng+deu").ocr.ocr_languages == "eng+deu"
    image = tmp_path / "page.png"
    rendered(text_page(SCANNED_TEXT), 100).save(image)
    with pytest.raises(UsageError, match="can only be read with OCR"):
        layoutkit.parse(image, LayoutConfig().replace(ocr="never"))
    status, _, err = run(capsys, "text", image, "--ocr", "never")
    assert status == 2 and err.count("\n") == 1
    status, out, _ = run(capsys, "parse", image, "--ocr", "always")
    assert status == 0 and json.loads(out)["pages"][0]["ocr"]["words"] == 12


def test_ocr_image_has_no_ruled_tables() -> None:
    """Ruled tables are looked for in a PDF's drawn lines: an image has none, so asking
    for them (``--tables``, ``layoutkit nlptext``) finds none instead of failing."""
    assert find_ruled_tables(CFR, [1]) == ()


def test_a_blank_page_is_no_poor_ocr(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A blank page between two pages of text is not sent to OCR (nothing is drawn on
    it) and gives no warning of low OCR quality, asked for or not."""
    path = tmp_path / "blank-between.pdf"
    pdf = Canvas(str(path), pagesize=(612, 792))
    for number in (1, 2, 3):
        if number != 2:
            pdf.setFont("Helvetica", 10)
            for k, text in enumerate(["The quick brown fox jumps", "over a lazy dog near",
                                      "the river bank today."]):
                pdf.drawString(72, 600 - 14 * k, text)
        pdf.showPage()
    pdf.save()
    for pages in ("1", None):
        with caplog.at_level(logging.WARNING):
            document = layoutkit.parse(path, pages=pages)
        assert [r.getMessage() for r in caplog.records] == []
        assert document[0].text() == "The quick brown fox jumps\nover a lazy dog near\n" \
                                     "the river bank today."
    assert list(document.ocr) == [] and document[1].lines == ()
