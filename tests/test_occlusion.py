"""Text covered by an opaque fill painted after it is not read; text painted over a
fill, or under a transparent one, is."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from reportlab.pdfgen.canvas import Canvas

import layoutkit
from layoutkit.sources import open_source
from layoutkit.sources.occlusion import Fill, covered

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
