"""Extraction: page rotation, crop boxes and the glyph-source registry."""

from __future__ import annotations

from pathlib import Path

import pytest
from reportlab.pdfgen import canvas

import layoutkit
from layoutkit.errors import UsageError
from layoutkit.sources import open_source

DISPLAY = (800.0, 600.0)  # the page as a reader sees it, width x height
ENGINES = ["pdfminer", "pdfium"]


def _rotated_pdf(path: Path, rotate: int) -> Path:
    """A page shown at DISPLAY size with ``/Rotate rotate``, its content drawn turned
    so that it reads upright once the viewer applies the rotation (as scanners and
    landscape producers do). Two lines start at display point (100, 100) and (100, 80),
    bottom-left origin."""
    c = canvas.Canvas(str(path), pagesize=DISPLAY)
    c.setPageRotation(rotate)
    # reportlab keeps the displayed size and swaps the media box for 90 and 270
    wm, hm = (DISPLAY[1], DISPLAY[0]) if rotate in (90, 270) else DISPLAY
    c.translate(*{0: (0, 0), 90: (wm, 0), 180: (wm, hm), 270: (0, hm)}[rotate])
    c.rotate(rotate)
    c.setFont("Helvetica", 12)
    c.drawString(100, 100, "Upright after rotation")
    c.drawString(100, 80, "Second line here")
    c.showPage()
    c.save()
    return path


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("rotate", [0, 90, 180, 270])
def test_extract_rotated_page_reads_upright(tmp_path: Path, rotate: int, engine: str) -> None:
    """A /Rotate page gives the displayed size, upright glyphs at their displayed place."""
    pdf = _rotated_pdf(tmp_path / f"r{rotate}.pdf", rotate)
    with open_source(pdf, engine) as source:
        page = next(iter(source.pages([1])))
    assert (page.width, page.height) == DISPLAY
    first = next(g for g in page.glyphs if g.text == "U")
    assert all(g.upright for g in page.glyphs)
    assert first.bbox.x0 == pytest.approx(100.0, abs=0.01)
    assert first.bbox.bottom == pytest.approx(DISPLAY[1] - 100 + 12 * 0.207, abs=0.5)
    assert layoutkit.parse(pdf, engine=engine)[0].text() == (
        "Upright after rotation\nSecond line here")


@pytest.mark.parametrize("engine", ENGINES)
def test_extract_crop_box_moves_origin_and_hides_outside(tmp_path: Path, engine: str) -> None:
    """Glyphs are measured from the crop box's top-left corner; glyphs outside it are dropped."""
    path = tmp_path / "crop.pdf"
    c = canvas.Canvas(str(path), pagesize=(612, 792))
    c.setCropBox((50, 100, 562, 742))
    c.setFont("Helvetica", 10)
    c.drawString(150, 600, "Inside the crop box")
    c.drawString(10, 600, "out")  # left of the crop box
    c.showPage()
    c.save()
    with open_source(path, engine) as source:
        page = next(iter(source.pages([1])))
    assert (page.width, page.height) == (512.0, 642.0)
    assert "".join(g.text for g in page.glyphs).replace(" ", "") == "Insidethecropbox"
    assert page.glyphs[0].bbox.x0 == pytest.approx(100.0, abs=0.01)
    assert page.glyphs[0].bbox.bottom == pytest.approx(742 - 600 + 10 * 0.207, abs=0.5)


def test_extract_unknown_engine_lists_known_ones(tmp_path: Path) -> None:
    """Asking for an engine that does not exist names it and the ones that do."""
    with pytest.raises(UsageError,
                       match=r"unknown engine 'fast'; known engines: pdfium, pdfminer$"):
        open_source(tmp_path / "x.pdf", engine="fast")
