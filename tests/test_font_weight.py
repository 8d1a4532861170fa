"""A font's weight read from the font, not from its name (issue 19 item 2, issue 20
item 4): both engines read the descriptor's ``/FontWeight``, ``/StemV`` and
force-bold flag of an embedded font, the name of one that is not embedded, and
headings set in a bold face whose name says nothing are found by its weight.

The synthetic pages embed DejaVu Sans and DejaVu Sans Bold (Debian's
fonts-dejavu-core) under the names ``Body`` and ``Head``, which say no weight, and
describe ``Head`` in one way each; the real pages are corpus pages whose bold faces
are named ``Medi`` (URW's Nimbus Roman), ``Medium`` or by a stem width alone."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

import layoutkit
from layoutkit.model import BOLD, REGULAR, Word, is_bold, named_weight
from layoutkit.sources import open_source
from layoutkit.sources.base import font_weight, stem_weight
from tests.handmade import pdf_bytes

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "fixtures" / "corpus"
DEJAVU = Path("/usr/share/fonts/truetype/dejavu")

SECTIONS = ("Background", "Methods", "Results")
BODY_TEXT = ("the survey was taken in the spring of each year by the same team",
             "who walked every line of the plots and counted the plants found",
             "along each line, noting their kind, height and state of health",
             "and writing down where each one stood in the plot as they went")

HEAD_DESCRIPTORS = {
    "FontWeight": b"/FontWeight 700 /StemV 80 /Flags 32",
    "StemV": b"/StemV 140 /Flags 32",
    "ForceBold": b"/StemV 80 /Flags 262176",
    "nothing": b"/StemV 80 /Flags 32",
}
"""How the heading font's descriptor tells its weight, and a control that tells none:
a face drawn bold but described as regular is read as regular."""


def _escaped(text: str) -> bytes:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)").encode("latin-1")


def font_objects(name: bytes, path: Path, descriptor: bytes, first: int, *,
                 ascent: int = 928, descent: int = -236) -> list[bytes]:
    """The font dictionary, descriptor and program of the TrueType font at ``path``
    named ``name``, numbered from ``first``: its widths for codes 32 to 126 (WinAnsi);
    described with the ``descriptor`` entries and ``ascent`` and ``descent``
    (thousandths of an em; by default DejaVu Sans's)."""
    font = TTFont(path)
    scale = 1000 / font["head"].unitsPerEm
    cmap, metrics = font.getBestCmap(), font["hmtx"].metrics
    widths = b" ".join(b"%d" % round(metrics[cmap[code]][0] * scale) for code in range(32, 127))
    program = path.read_bytes()
    return [
        b"<< /Type /Font /Subtype /TrueType /BaseFont /%s /FirstChar 32 /LastChar 126 "
        b"/Widths [%s] /Encoding /WinAnsiEncoding /FontDescriptor %d 0 R >>"
        % (name, widths, first + 1),
        b"<< /Type /FontDescriptor /FontName /%s %s /FontBBox [-1021 -463 1793 1232] "
        b"/ItalicAngle 0 /Ascent %d /Descent %d /CapHeight 729 /FontFile2 %d 0 R >>"
        % (name, descriptor, ascent, descent, first + 2),
        b"<< /Length %d /Length1 %d >>\nstream\n%s\nendstream" % (len(program), len(program),
                                                                 program),
    ]


def weighted_page(head: bytes) -> bytes:
    """A page of three sections, each a one-word heading in ``Head`` (10 pt, as the
    body) over four lines of body text in ``Body``, 14 pt apart, 12 pt more above each
    heading; ``head`` is the heading font's descriptor entries."""
    lines = []
    top = 720.0
    for section in SECTIONS:
        top -= 12.0
        lines.append(b"BT /F2 10 Tf 72 %.1f Td (%s) Tj ET" % (top, _escaped(section)))
        for text in BODY_TEXT:
            top -= 14.0
            lines.append(b"BT /F1 10 Tf 72 %.1f Td (%s) Tj ET" % (top, _escaped(text)))
        top -= 14.0
    content = b"\n".join(lines)
    return pdf_bytes([
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
        b"/Resources << /Font << /F1 5 0 R /F2 8 0 R >> >> /Contents 4 0 R >>",
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content),
        *font_objects(b"Body", DEJAVU / "DejaVuSans.ttf", b"/StemV 80 /Flags 32", 5),
        *font_objects(b"Head", DEJAVU / "DejaVuSans-Bold.ttf", head, 8),
    ])


def _written(tmp: Path, how: str) -> Path:
    """The page of :func:`weighted_page` whose heading font is described ``how``,
    written in the folder ``tmp``."""
    path = tmp / f"weighted-{how}.pdf"
    path.write_bytes(weighted_page(HEAD_DESCRIPTORS[how]))
    return path


@pytest.mark.parametrize("engine", ["pdfminer", "pdfium"])
@pytest.mark.parametrize("how", sorted(HEAD_DESCRIPTORS))
def test_font_weight_from_the_descriptor_of_an_embedded_font(
        tmp_path: Path, how: str, engine: str) -> None:
    """Every glyph of ``Head`` weighs what its descriptor tells (700 by ``/FontWeight``,
    by a ``/StemV`` of 140, by the force-bold flag; 400 by a ``/StemV`` of 80 and
    nothing else), every glyph of ``Body`` 400, with either engine."""
    with open_source(_written(tmp_path, how), engine) as source:
        glyphs = next(iter(source.pages([1]))).glyphs
    weights = {(font, int(weight)) for font, weight in zip(glyphs.fonts, glyphs.weights,
                                                          strict=True)}
    assert weights == {("Body", REGULAR), ("Head", REGULAR if how == "nothing" else BOLD)}


@pytest.mark.parametrize("how", sorted(HEAD_DESCRIPTORS))
def test_font_weight_makes_headings_of_a_face_its_name_does_not_call_bold(
        tmp_path: Path, how: str) -> None:
    """The one-word lines set in ``Head`` at the body's size are headings when the
    font is bold by its descriptor, and body text when it is described as regular:
    the name ``Head`` says neither."""
    document = layoutkit.parse(_written(tmp_path, how))
    headings = [(line.code, line.text) for line in document[0].lines
                if line.code.startswith("h_")]
    expected = [] if how == "nothing" else [("h_1", section) for section in SECTIONS]
    assert headings == expected
    assert all(line.weight == REGULAR for line in document[0].lines
               if line.text not in SECTIONS)


def test_font_weight_stated_by_the_stem_as_pdfium_reads_it() -> None:
    """A stem width (thousandths of an em) gives five times it up to 140, four times it
    plus 140 above: Times-Roman's 85 is 425, Times-Bold's 139 is 695, Helvetica-Bold's
    140 is 700; none, 0."""
    assert [stem_weight(s) for s in (85, 139, 140, 157.9, 0)] == [425, 695, 700, 768, 0]


def test_font_weight_of_names_and_flags() -> None:
    """An embedded font weighs what it states, a font not embedded (drawn by a font the
    reader picks by its name) what its name says; a name or flag that says bold wins
    over a stated regular weight; a stated weight past the scale (a stem no face has)
    says nothing, and the name decides."""
    assert font_weight("NimbusRomNo9L-Medi", 700, embedded=True, force_bold=False) == 700
    assert font_weight("Arial-BoldMT", 400, embedded=True, force_bold=True) == 700
    assert font_weight("ShreenathBold", 400, embedded=True, force_bold=False) == 700
    assert font_weight("Helvetica", 490, embedded=False, force_bold=False) == REGULAR
    assert font_weight("Helvetica-Bold", 0, embedded=False, force_bold=False) == BOLD
    assert font_weight("TazzerText-Italic", 2352, embedded=True, force_bold=False) == REGULAR
    assert font_weight("CIDFont+F2", 4140, embedded=True, force_bold=False) == REGULAR
    assert font_weight("LegalNews-Bold", 1084, embedded=True, force_bold=False) == BOLD
    assert font_weight("PublicoBannerRs-Ultra", 1168, embedded=True, force_bold=False) == 900
    assert font_weight("AdvTT99c4c969", 0, embedded=True, force_bold=False) == REGULAR
    assert [named_weight(n) for n in ("Times-Roman", "Garamond,Semibold", "CMBX10",
                                      "MyriadPro-BlackCond", "Univers-Light",
                                      "DejaVuSans-ExtraLight", "FranklinGothic-Heavy")] \
        == [0, 600, 700, 900, 300, 200, 800]


def test_font_weight_word_bold_falls_back_on_the_name() -> None:
    """A word made without a weight (OCR, by hand) is bold when its font's name says so;
    one with a weight is bold by the weight alone."""
    box = layoutkit.BBox(0.0, 0.0, 10.0, 10.0)
    assert Word("a", box, "Times-Bold", 10.0).bold
    assert not Word("a", box, "Times-Roman", 10.0).bold
    assert Word("a", box, "Head", 10.0, weight=700).bold
    assert not Word("a", box, "Times-Bold", 10.0, weight=400).bold
    assert is_bold(600, "Body") and not is_bold(599, "Body")


@cache
def _corpus_page(stem: str, pages: tuple[int, ...], number: int) -> layoutkit.Page:
    return next(p for p in layoutkit.parse(CORPUS / f"{stem}.pdf", pages=list(pages))
                if p.page_no == number)


@pytest.mark.parametrize(("stem", "pages", "number", "font", "weight"), [
    ("ieee-dsn-2011-zab-broadcast", (1, 3), 1, "NimbusRomNo9L-Medi", 700),
    ("gretsi-2025-kravchuk-transform", (1, 4), 1, "NimbusRomNo9L-Medi", 700),
    ("diario-oficial-uniao-2014-10-01", (1, 2), 1, "OttawaV", 732),
    ("ieee-dsn-2011-zab-broadcast", (1, 3), 1, "NimbusRomNo9L-Regu", 425),
    ("california-superior-court-paga-complaint-2022", (1, 2), 1, "CIDFont+F2", REGULAR),
])
def test_font_weight_on_corpus_faces_not_named_bold(
        stem: str, pages: tuple[int, ...], number: int, font: str, weight: int) -> None:
    """Corpus faces whose names say no weight weigh what their descriptors state: URW's
    Nimbus Roman ``Medi`` (its bold: a stem of 140), the Diário Oficial's OttawaV
    (148), and the regular Nimbus Roman (85); the complaint printed by Microsoft Print
    to PDF states a stem of 1000 for its regular face, which says nothing."""
    page = _corpus_page(stem, pages, number)
    assert {w.weight for line in page.lines for w in line.words if w.font == font} == {weight}


def test_font_weight_makes_the_medi_headings_of_a_paper() -> None:
    """The GRETSI paper sets its sections and subsections in Nimbus Roman ``Medi`` at
    the body's size: headings by their weight, levelled by their numbers."""
    page = _corpus_page("gretsi-2025-kravchuk-transform", (1, 4), 1)
    headings = [(line.code, line.text) for line in page.lines if line.code.startswith("h_")]
    assert ("h_1", "1 Introduction") in headings
    assert ("h_2", "2.1 Une famille de transformées covariantes") in headings


def test_font_weight_past_the_scale_makes_no_bold_headings() -> None:
    """The complaint's faces state a stem no face has; read as bold, every line of its
    caption with space above stood out as a heading (``Plaintiff,``, ``attorney
    general,``).  Read as regular, only lines in capitals stand out."""
    page = _corpus_page("california-superior-court-paga-complaint-2022", (1, 2), 1)
    headings = [line.text for line in page.lines if line.code.startswith("h_")]
    assert headings and all(text == text.upper() for text in headings)
    assert not any(word.bold for line in page.lines for word in line.words)
