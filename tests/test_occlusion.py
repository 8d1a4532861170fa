"""Text covered by an opaque fill painted after it is not read; text painted over a
fill, under a transparent one, or outside the clip a fill is painted through, is."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from reportlab.pdfgen.canvas import Canvas

import layoutkit
from layoutkit.sources import open_source
from layoutkit.sources.occlusion import Fill, covered
from tests.handmade import one_page
from tests.test_engine_agreement import INKLESS_WORDS, inkless_pdf

ROOT = Path(__file__).resolve().parent.parent
ENGINES = ("pdfium", "pdfminer")


def sidebar(path: Path) -> None:
    """A letter page: body text at the left; a sidebar whose dark background is
    painted over leftover black text ('The Way of the Mystic') and then carries white
    text at the same place ('appointment only.'); a yellow highlight with alpha 0.4
    painted over 'highlighted words'; a white box painted over 'whited out'."""
    canvas = Canvas(str(path), pagesize=(612.0, 792.0))
    canvas.setFont("Helvetica", 10)
    canvas.drawString(300.0, 700.0, "Body text of the page at the right")
    canvas.drawString(40.0, 600.0, "The Way of the Mystic")
    canvas.setFillColorRGB(0.0, 0.2, 0.1)
    canvas.rect(30.0, 560.0, 200.0, 80.0, stroke=0, fill=1)
    canvas.setFillColorRGB(1.0, 1.0, 1.0)
    canvas.drawString(42.0, 601.0, "appointment only.")
    canvas.setFillColorRGB(0.0, 0.0, 0.0)
    canvas.drawString(300.0, 500.0, "highlighted words")
    canvas.setFillColorRGB(1.0, 1.0, 0.0, alpha=0.4)
    canvas.rect(295.0, 495.0, 120.0, 16.0, stroke=0, fill=1)
    canvas.setFillColorRGB(0.0, 0.0, 0.0, alpha=1.0)
    canvas.drawString(300.0, 400.0, "whited out")
    canvas.setFillColorRGB(1.0, 1.0, 1.0)
    canvas.rect(295.0, 395.0, 80.0, 16.0, stroke=0, fill=1)
    canvas.save()


@pytest.mark.parametrize("engine", ENGINES)
def test_text_under_an_opaque_fill_is_not_read(tmp_path: Path, engine: str) -> None:
    """The leftover text under the sidebar and the whited-out words are gone; the
    sidebar's own text, the body and the highlighted words are read."""
    path = tmp_path / "sidebar.pdf"
    sidebar(path)
    with open_source(path, engine) as source:
        text = "".join(next(iter(source.pages([1]))).glyphs.texts)
    for kept in ("appointmentonly.", "Bodytext", "highlightedwords"):
        assert kept in text.replace(" ", "")
    for gone in ("Mystic", "whited"):
        assert gone not in text.replace(" ", "")
    lines = [line.text for line in layoutkit.parse(path, engine=engine, typed=False)[0].lines]
    assert "appointment only." in lines


def scanned(path: Path) -> None:
    """A scan's page as some scanners write it: its OCR layer drawn invisibly (render
    mode 3: 'words found by OCR'; the mode kept into the next text object: 'kept
    invisible'; mode 7, which only clips: 'clip only'), a word printed visibly
    ('printed'), then a white ground painted over the whole page (where the scan's
    picture would follow)."""
    ops = (b"BT /F1 10 Tf 72 700 Td 3 Tr (words found by OCR) Tj ET\n"
           b"BT /F1 10 Tf 72 680 Td (kept invisible) Tj ET\n"
           b"q BT /F1 10 Tf 72 660 Td 7 Tr (clip only) Tj ET Q\n"
           b"BT /F1 10 Tf 72 600 Td 0 Tr (printed) Tj ET\n"
           b"1 1 1 rg 0 0 612 792 re f\n")
    path.write_bytes(one_page(ops, b"<< /Font << /F1 5 0 R >> >>",
                              b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"))


@pytest.mark.parametrize("engine", ENGINES)
def test_text_drawn_invisibly_is_not_covered(tmp_path: Path, engine: str) -> None:
    """The invisible layer is read under the white ground painted after it (it paints
    nothing that a fill could hide: a South African gazette's CVISION layer was lost
    so), in mode 3, kept from one text object to the next, and in mode 7; the word
    printed visibly under it is not."""
    path = tmp_path / "scanned.pdf"
    scanned(path)
    with open_source(path, engine) as source:
        text = "".join(next(iter(source.pages([1]))).glyphs.texts).replace(" ", "")
    assert "wordsfoundbyOCRkeptinvisiblecliponly" in text
    assert "printed" not in text


@pytest.mark.parametrize("engine", ENGINES)
def test_an_invisible_layer_without_ink_keeps_its_one_letter_words(tmp_path: Path,
                                                                     engine: str) -> None:
    """A layer in a font without glyphs, drawn invisibly under a white ground: the
    pdfium engine makes its one-letter words visible to read them
    (`sources.pdfium.unseen`), and gives them their render mode back, so that the
    ground covers none of them ('a' and 'I' were lost)."""
    path = inkless_pdf(tmp_path / "inkless.pdf", b"3 Tr", b"1 1 1 rg 0 0 612 792 re f\n")
    with open_source(path, engine) as source:
        text = "".join(next(iter(source.pages([1]))).glyphs.texts)
    assert text == "".join(word for _, _, word in INKLESS_WORDS)


def clipped(path: Path) -> None:
    """A letter page whose text is all drawn first, then covered in part:

    - a form XObject (an included figure) whose bounding box, 440 to 540 pt, clips a
      white background drawn from 380 to 560 pt: 'caption above the figure' at 520 pt
      is under the box, 'text just above' at 548 pt under the background alone;
    - a page-level clip (``re W n``) from 100 to 160 pt, through which a white box
      from 100 to 260 pt is painted: 'cut by the clip' at 120 pt is under both,
      'beside the clip' at 220 pt under the box alone;
    - a frame: a clip from 300 to 400 pt set around a form whose white background
      fills 300 to 500 pt: 'inside the frame' at 350 pt is hidden, 'over the frame' at
      450 pt is not;
    - a circle's clip (four curves), through which a white box is painted: 'round',
      in 3 pt type inside the circle near its edge, beyond the square of the curves'
      end points, is hidden."""
    canvas = Canvas(str(path), pagesize=(612.0, 792.0))
    canvas.setFont("Helvetica", 10)
    for x, y, text in ((80.0, 548.0, "text just above"), (80.0, 520.0, "caption above the figure"),
                       (80.0, 220.0, "beside the clip"), (80.0, 120.0, "cut by the clip"),
                       (430.0, 350.0, "inside the frame"), (430.0, 450.0, "over the frame")):
        canvas.drawString(x, y, text)
    canvas.setFont("Helvetica", 3)
    canvas.drawString(533.0, 183.0, "round")
    canvas.beginForm("figure", lowerx=60.0, lowery=440.0, upperx=400.0, uppery=540.0)
    canvas.setFillColorRGB(1.0, 1.0, 1.0)
    canvas.rect(60.0, 380.0, 340.0, 180.0, stroke=0, fill=1)
    canvas.endForm()
    canvas.doForm("figure")
    canvas.beginForm("background", lowerx=0.0, lowery=0.0, upperx=180.0, uppery=200.0)
    canvas.setFillColorRGB(1.0, 1.0, 1.0)
    canvas.rect(0.0, 0.0, 180.0, 200.0, stroke=0, fill=1)
    canvas.endForm()
    for clip, cover in ((lambda p: p.rect(60.0, 100.0, 340.0, 60.0),
                         lambda: canvas.rect(60.0, 100.0, 340.0, 160.0, stroke=0, fill=1)),
                        (lambda p: p.rect(420.0, 300.0, 180.0, 100.0),
                         lambda: (canvas.translate(420.0, 300.0), canvas.doForm("background"))),
                        (lambda p: p.circle(500.0, 150.0, 60.0),
                         lambda: canvas.rect(430.0, 80.0, 140.0, 140.0, stroke=0, fill=1))):
        canvas.saveState()
        outline = canvas.beginPath()
        clip(outline)
        canvas.clipPath(outline, stroke=0, fill=0)
        canvas.setFillColorRGB(1.0, 1.0, 1.0)
        cover()
        canvas.restoreState()
    canvas.save()


@pytest.mark.parametrize("engine", ENGINES)
def test_a_fill_covers_only_inside_its_clip(tmp_path: Path, engine: str) -> None:
    """A form's white background reaching past its bounding box, a box painted through
    a clipping path, and a form drawn in a frame hide only the text inside the box,
    the clip or the frame (an included figure's background hid the two lines of text
    above it); a circle's clip hides the text inside it."""
    path = tmp_path / "clipped.pdf"
    clipped(path)
    with open_source(path, engine) as source:
        text = "".join(next(iter(source.pages([1]))).glyphs.texts).replace(" ", "")
    for kept in ("textjustabove", "besidetheclip", "overtheframe"):
        assert kept in text
    for gone in ("caption", "cutby", "insidethe", "round"):
        assert gone not in text


def test_covered_only_within_every_clip() -> None:
    """A fill painted through clips covers a glyph only where all of them hold it."""
    boxes = np.array([[10.0, 10.0, 20.0, 20.0], [30.0, 10.0, 40.0, 20.0],
                      [10.0, 30.0, 20.0, 40.0]])
    order = np.zeros(3, dtype=np.int64)
    fill = Fill(box(0.0, 0.0, 50.0, 50.0), 1, (box(0.0, 0.0, 25.0, 50.0),
                                             box(0.0, 0.0, 50.0, 25.0)))
    assert covered(boxes, order, [fill], 0.0).tolist() == [True, False, False]
    unclipped = Fill(fill.outline, 1)
    assert covered(boxes, order, [unclipped], 0.0).tolist() == [True] * 3


def box(x0: float, top: float, x1: float, bottom: float) -> tuple[tuple[float, float], ...]:
    return ((x0, top), (x1, top), (x1, bottom), (x0, bottom))


def test_covered_needs_a_later_fill_around_the_glyph() -> None:
    """A glyph is covered only by a fill painted after it that holds its box grown by
    the tolerance (a glyph at the fill's edge may show its ink); a fill's outline may
    be any shape (a rounded or slanted box)."""
    boxes = np.array([[10.0, 10.0, 20.0, 20.0]] * 3 + [[10.0, 10.0, 40.0, 20.0]])
    order = np.array([1, 5, 1, 1])
    fills = [Fill(box(9.0, 9.0, 21.0, 21.0), 3)]
    assert covered(boxes, order, fills, 0.5).tolist() == [True, False, True, False]
    assert covered(boxes, order, fills, 1.5).tolist() == [False] * 4
    slanted = Fill(((0.0, 0.0), (50.0, 0.0), (50.0, 30.0)), 3)  # the triangle over x = y
    glyphs = np.array([[30.0, 5.0, 40.0, 15.0], [5.0, 10.0, 15.0, 20.0]])
    assert covered(glyphs, np.array([1, 1]), [slanted], 0.0).tolist() == [True, False]


@pytest.mark.parametrize("engine", ENGINES)
def test_corpus_sidebar_reads_its_own_text(engine: str) -> None:
    """On the newsletter's first page the sidebar's dark background covers a leftover
    'The Way of the Mystic'; the sidebar's line 'appointment only.' is read whole."""
    page = layoutkit.parse(ROOT / "fixtures" / "corpus" / "uufom-candle-flame.pdf",
                           pages=[1], engine=engine, typed=False)[0]
    assert "appointment only." in [line.text for line in page.lines]


@pytest.mark.parametrize("engine", ENGINES)
def test_corpus_figure_background_hides_nothing_above_it(engine: str) -> None:
    """On the preprint's second page, Figure 1 is a form whose white background reaches
    60 pt above its bounding box, over the paragraph's last two lines: both are read
    whole (only their first characters were, before clips were followed)."""
    page = layoutkit.parse(ROOT / "fixtures" / "corpus" /
                           "jiang-2015-resource-alignment-service-line-numbered-preprint.pdf",
                           pages=[2], engine=engine, typed=False)[0]
    lines = [line.text for line in page.lines]
    assert "or web service (e.g., the Resource Alignment Service used in this study)." in lines
    assert any(text.startswith("”talk” to each other if the semantic consistency")
               for text in lines)
