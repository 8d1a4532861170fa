"""A glyph's box reaches its baseline, with either engine: a math font's line metrics
(Cambria Math's descent is -2.46 em) set its superscripts two lines under their own,
where they were read into the line below; such a font's glyphs are boxed from a text
face's descent, or an em under its ascent when that is lower (TeX's CMEX10 hangs its
operators under the baseline).

The synthetic page embeds DejaVu Sans twice (Debian's fonts-dejavu-core): as ``Body``,
described with its own descent, and as ``Math``, described with Cambria Math's, which
sets the note calls on the text's baseline (Cambria Math's superscript digits are drawn
high in their em, on the baseline of the text they follow)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

import layoutkit
from layoutkit.sources import open_source
from layoutkit.sources.base import TEXT_DESCENT, box_descent
from tests.handmade import one_page
from tests.test_font_weight import font_objects

DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")

LINES = (("management, reserving irreversible procedures for", ""),
         ("carefully selected cases.", "4"),
         ("with increased elevator muscle activity.", "8"),
         ("Traditional occlusal analysis methods", ""))
"""Each line's text and the note call after it."""


def _width(text: str, size: float) -> float:
    """The advance of ``text`` set in DejaVu Sans at ``size``."""
    font = TTFont(DEJAVU)
    cmap, metrics = font.getBestCmap(), font["hmtx"].metrics
    return sum(metrics[cmap[ord(c)]][0] for c in text) * size / font["head"].unitsPerEm


def noted_page(path: Path, ascent: int = 3117, descent: int = -2464,
               flags: bytes = b"32") -> Path:
    """`LINES` in 12 pt ``Body``, 15 pt apart, each call in 12 pt ``Math`` (described
    with ``ascent``, ``descent`` and ``flags``, by default Cambria Math's, nonsymbolic)
    on the line's baseline where its text ends; written at ``path``."""
    content = []
    for k, (text, call) in enumerate(LINES):
        baseline = 700.0 - 15.0 * k
        content.append(b"BT /F1 12 Tf 72 %.1f Td (%s) Tj ET" % (baseline, text.encode()))
        if call:
            content.append(b"BT /F2 12 Tf %.2f %.1f Td (%s) Tj ET"
                           % (72.0 + _width(text, 12.0), baseline, call.encode()))
    stream = b"\n".join(content)
    path.write_bytes(one_page(stream, b"<< /Font << /F1 5 0 R /F2 8 0 R >> >>",
                              *font_objects(b"Body", DEJAVU, b"/StemV 80 /Flags 32", 5),
                              *font_objects(b"Math", DEJAVU, b"/StemV 80 /Flags " + flags, 8,
                                            ascent=ascent, descent=descent)))
    return path


@pytest.mark.parametrize("engine", ["pdfium", "pdfminer"])
def test_deep_descent_boxes_a_raised_call_on_its_line(tmp_path: Path, engine: str) -> None:
    """The ``Math`` calls' boxes start a text face's descent under their baseline, not two
    and a half ems: each call is read on its line."""
    path = noted_page(tmp_path / "noted.pdf")
    with open_source(path, engine) as source:
        glyphs = next(iter(source.pages([1]))).glyphs
    calls = [glyph for glyph in glyphs if glyph.font == "Math"]
    # their baselines, from the page's top: 107 and 122 points
    assert [round(glyph.bbox.bottom - glyph.size * -TEXT_DESCENT, 3) for glyph in calls] == \
        [107.0, 122.0]
    page = layoutkit.parse(path, engine=engine, typed=False)[0]
    assert [line.text for line in page.lines] == [text + call for text, call in LINES]


@pytest.mark.parametrize("engine", ["pdfium", "pdfminer"])
def test_symbol_font_deeper_than_it_rises_boxed_on_its_line(tmp_path: Path,
                                                            engine: str) -> None:
    """A font described as TeX's CMSY10 is (ascent 0.775 em, descent -0.96: its
    deepest symbol's, within an em) sets its glyphs on the baseline of the line they
    stand in, where they are read, not in the line below ('d∈’un', 'sph∈ère')."""
    path = noted_page(tmp_path / "cmsy.pdf", ascent=775, descent=-960, flags=b"4")
    page = layoutkit.parse(path, engine=engine, typed=False)[0]
    assert [line.text for line in page.lines] == [text + call for text, call in LINES]


@pytest.mark.parametrize("engine", ["pdfium", "pdfminer"])
def test_deep_descent_of_a_font_hanging_under_its_baseline(tmp_path: Path, engine: str) -> None:
    """A font whose glyphs hang under the baseline (TeX's CMEX10: ascent 0.04 em,
    descent -2.96) is boxed an em under its ascent, not from a text face's descent."""
    path = noted_page(tmp_path / "hung.pdf", ascent=40, descent=-2960)
    with open_source(path, engine) as source:
        glyphs = next(iter(source.pages([1]))).glyphs
    calls = [glyph for glyph in glyphs if glyph.font == "Math"]
    assert [round(glyph.bbox.top + glyph.size * 0.04, 3) for glyph in calls] == [107.0, 122.0]


def _type3(flags: int, first: int) -> list[bytes]:
    """The objects, numbered from ``first``, of a Type 3 font drawing 'a' as a box
    0.7 em high, described with ``flags`` and a descent of -0.6 em."""
    proc = b"500 0 0 0 500 700 d1 0 0 500 700 re f"
    return [
        b"<< /Type /Font /Subtype /Type3 /FontBBox [0 -600 500 700] "
        b"/FontMatrix [0.001 0 0 0.001 0 0] /CharProcs << /a %d 0 R >> "
        b"/Encoding << /Type /Encoding /Differences [97 /a] >> /FirstChar 97 /LastChar 97 "
        b"/Widths [500] /FontDescriptor %d 0 R >>" % (first + 1, first + 2),
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(proc), proc),
        b"<< /Type /FontDescriptor /FontName /T3 /Flags %d /FontBBox [0 -600 500 700] "
        b"/ItalicAngle 0 /Ascent 700 /Descent -600 /CapHeight 700 /StemV 80 >>" % flags]


def test_type3_font_flagged_symbolic_boxed_alike_by_both_engines(tmp_path: Path) -> None:
    """PDFium reads no flags of a Type 3 font: its glyphs are boxed from its descent
    and weighed alike in both engines, flagged symbolic and ForceBold or not."""
    path = tmp_path / "type3.pdf"
    content = b"BT /F1 12 Tf 72 700 Td (aa) Tj ET\nBT /F2 12 Tf 72 680 Td (aa) Tj ET"
    path.write_bytes(one_page(content, b"<< /Font << /F1 5 0 R /F2 8 0 R >> >>",
                              *_type3(4 | 1 << 18, 5), *_type3(32, 8)))
    boxes = {}
    for engine in ("pdfium", "pdfminer"):
        with open_source(path, engine) as source:
            glyphs = next(iter(source.pages([1]))).glyphs
        boxes[engine] = [(round(g.bbox.top, 2), round(g.bbox.bottom, 2), g.weight)
                         for g in glyphs]
    assert boxes["pdfium"] == boxes["pdfminer"]
    assert boxes["pdfium"][0][:2] == (87.2, 99.2) and boxes["pdfium"][2][:2] == (107.2, 119.2)


@pytest.mark.parametrize(("descent", "ascent", "boxed"), [
    (-0.236, 0.928, -0.236),  # a text face: its own
    (-0.96, 0.04, -0.96),     # within an em: its own
    (-2.464, 3.117, -0.25),   # Cambria Math: a text face's
    (-2.96, 0.04, -0.96),     # CMEX10: an em under its ascent
    (-2.464, 0.0, -0.25),     # no ascent known: a text face's
    (-0.96, 0.775, -0.25),    # CMSY10, deeper than it rises: a text face's
    (-0.6, 0.042, -0.6),      # CMEX9, deeper than it rises: its own, over an em under its ascent
    (-0.68, 1.021, -0.68),    # Courier New, the deepest text face: its own
    (-0.979, -0.005, -0.979), # a vertical CID font, no ascent: its own
])
def test_box_descent(descent: float, ascent: float, boxed: float) -> None:
    assert box_descent(descent, ascent) == pytest.approx(boxed)

