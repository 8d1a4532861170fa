"""The pdfium engine against the pdfminer engine, on the fixture PDFs and on small
hand-made ones: the same characters, boxes, rules, images and reading order.

Every difference the engines show on the fixture pages is listed here with its count
(measured on all pages of the three fixture documents, 552,720 glyphs):

* **Boxes** agree within 0.0033 pt (x) and 0.0019 pt (vertical), except that PDFium
  takes a font's descent from the font program when its descriptor says
  ``/Descent 0``: the Federal Register's Symbol bullets, ``×`` and ``_`` sit 0.226 em
  (2.034 pt at 9 pt) lower with pdfium, level with the text around them
  (:data:`DESCENT_ZERO`).
* **Fonts without a descriptor** (the standard 14, none on the fixture pages): PDFium
  uses its built-in fonts' descents, pdfminer the AFM's; Helvetica's boxes sit
  0.017 em lower with pdfium (see the form XObject test).
* **Sizes** agree for upright text.  For rotated text pdfminer reports the box height,
  which is the glyph's advance width; pdfium reports the em, which is the pdfminer
  box's width there.
* **Fonts**: pdfium's names lack the subset tag (``PQUCUD+``).
* **Spaces**: PDFium skips text objects without ink, so a space drawn as a text object
  of its own is not reported (the 2016 City Record draws every character that way:
  no spaces at all).  Only non-space glyphs are compared; words come from geometry.
* **Rules**: a box drawn ``re h S`` (operators ``mlllhh``) is a curve to pdfminer and
  a stroked rectangle to PDFium, which gives its four edges (:data:`EXTRA_RULES`).
* **Reading order**: the same on every labelled page; the text differs only where
  pdfminer's extra glyphs split words (:data:`PDFMINER_SPLITS`).
"""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest
from test_cli import UNREADABLE  # the unreadable inputs the CLI tests use, and their messages

import layoutkit
from layoutkit.cli import main
from layoutkit.errors import DocumentError, LayoutkitError
from layoutkit.model import BBox, Glyph, PageGlyphs
from layoutkit.sources import open_source
from layoutkit.sources.pdfium import PdfiumSource
from layoutkit.tools.evaluate import score_truth
from layoutkit.tools.truth import PageTruth, labelled_pages
from tests.handmade import one_page

ROOT = Path(__file__).resolve().parent.parent
PDFS = ROOT / "fixtures" / "pdf"
CITY_2004 = "cleveland-city-record-2004-06-09.pdf"
CITY_2016 = "cleveland-city-record-2016-04-27.pdf"
FEDERAL = "federal-register-2020-08-06.pdf"
PAGES = {CITY_2016: (1, 2, 5, 27), CITY_2004: (9, 10, 36), FEDERAL: (1, 5, 7)}
"""The pages compared glyph by glyph: the covers, labelled pages and a rotated stamp."""

X_TOLERANCE = 0.05
"""Points by which x0 and x1 may differ (measured: 0.0033)."""
Y_TOLERANCE = 0.05
"""Points by which top and bottom may differ (measured: 0.0019), but see DESCENT_ZERO."""

DESCENT_ZERO = {(FEDERAL, 1): 4, (FEDERAL, 5): 12}
"""Glyphs of the Symbol font (descriptor ``/Descent 0``) per page, which pdfium boxes
DESCENT_ZERO_SHIFT ems lower than pdfminer: by the font program's descent."""
DESCENT_ZERO_SHIFT = 0.226

EXTRA_RULES = {(CITY_2016, 1): 24}
"""Rules pdfium finds and pdfminer does not: the edges of six boxes drawn ``re h S``."""

PDFMINER_SPLITS = {
    (CITY_2016, 2): {"Chair man": "Chairman", "Down ing": "Downing"},
    (FEDERAL, 5): {"draft _ docs": "draft_docs"},
}
"""Words pdfminer's reading splits and pdfium's does not, per page.  On 2016 page 2
the producer draws a space and then the next letter over it: pdfminer's space glyph
ends the word, PDFium skips the inkless space.  On Federal Register page 5 pdfminer
puts the Symbol ``_`` 2 pt low (DESCENT_ZERO), on a row of its own."""


def page_id(document: str, page: int) -> str:
    return f"{Path(document).stem}-p{page}"


CASES = [pytest.param(document, page, id=page_id(document, page))
         for document, pages in PAGES.items() for page in pages]


@cache
def extracted(document: str, engine: str) -> dict[int, PageGlyphs]:
    """The compared pages of ``document`` as ``engine`` reads them, read once."""
    with open_source(PDFS / document, engine) as source:
        return {glyphs.page_no: glyphs for glyphs in source.pages(PAGES[document])}


def both(document: str, page: int) -> tuple[PageGlyphs, PageGlyphs]:
    """Page ``page`` of ``document`` from pdfminer and from pdfium."""
    return extracted(document, "pdfminer")[page], extracted(document, "pdfium")[page]


def paired(reference: PageGlyphs, other: PageGlyphs) -> list[tuple[Glyph, Glyph]]:
    """Each non-space glyph of ``reference`` with the glyph of ``other`` that has the
    same text and the nearest x0 and bottom (within X_TOLERANCE in x0), each used once."""
    by_text: dict[str, list[Glyph]] = {}
    for glyph in sorted(other.glyphs, key=lambda g: g.bbox.x0):
        by_text.setdefault(glyph.text, []).append(glyph)
    starts = {text: [g.bbox.x0 for g in glyphs] for text, glyphs in by_text.items()}
    used: set[int] = set()
    pairs = []
    for glyph in reference.glyphs:
        if not glyph.text.strip():
            continue
        candidates = by_text.get(glyph.text, [])
        low = bisect.bisect_left(starts.get(glyph.text, []), glyph.bbox.x0 - X_TOLERANCE)
        high = bisect.bisect_right(starts.get(glyph.text, []), glyph.bbox.x0 + X_TOLERANCE)
        free = [k for k in range(low, high) if id(candidates[k]) not in used]
        assert free, f"no {glyph.text!r} near {glyph.bbox} in the other engine's glyphs"
        best = min(free, key=lambda k: abs(candidates[k].bbox.bottom - glyph.bbox.bottom)
                   + abs(candidates[k].bbox.x0 - glyph.bbox.x0))
        used.add(id(candidates[best]))
        pairs.append((glyph, candidates[best]))
    return pairs


# ------------------------------------------------------------------- fixture pages


@pytest.mark.parametrize(("document", "page"), CASES)
def test_engines_draw_the_same_characters(document: str, page: int) -> None:
    """The multiset of non-space glyph texts is the same; pdfium has no more spaces."""
    miner, pdfium = both(document, page)
    assert (Counter(g.text for g in pdfium.glyphs if g.text.strip())
            == Counter(g.text for g in miner.glyphs if g.text.strip()))
    assert (sum(not g.text.strip() for g in pdfium.glyphs)
            <= sum(not g.text.strip() for g in miner.glyphs))
    assert (pdfium.width, pdfium.height) == (miner.width, miner.height)


@pytest.mark.parametrize(("document", "page"), CASES)
def test_engines_box_glyphs_alike(document: str, page: int) -> None:
    """Paired glyphs have the same box (DESCENT_ZERO aside), orientation and font, and
    the same size when upright (when rotated, pdfium's size is the em: the box's width)."""
    miner, pdfium = both(document, page)
    shifted = 0
    for m, p in paired(miner, pdfium):
        assert abs(p.bbox.x0 - m.bbox.x0) <= X_TOLERANCE, (m, p)
        assert abs(p.bbox.x1 - m.bbox.x1) <= X_TOLERANCE, (m, p)
        assert p.upright == m.upright, (m, p)
        assert p.font == m.font.partition("+")[2] or p.font == m.font, (m, p)
        across = p.size if p.upright else p.bbox.width
        assert abs(across - (m.size if m.upright else m.bbox.width)) <= 0.01, (m, p)
        dy = p.bbox.bottom - m.bbox.bottom
        if m.font == "Symbol" and abs(dy - DESCENT_ZERO_SHIFT * m.size) <= Y_TOLERANCE:
            shifted += 1
            dy -= DESCENT_ZERO_SHIFT * m.size
        assert abs(dy) <= Y_TOLERANCE, (m, p)
        assert abs(p.bbox.height - m.bbox.height) <= Y_TOLERANCE, (m, p)
    assert shifted == DESCENT_ZERO.get((document, page), 0)


def rounded(boxes: list[BBox]) -> list[tuple[float, ...]]:
    """Boxes as sorted tuples, to compare within single-precision noise."""
    return sorted((b.x0, b.top, b.x1, b.bottom) for b in boxes)


def close(a: list[tuple[float, ...]], b: list[tuple[float, ...]]) -> bool:
    return len(a) == len(b) and all(abs(u - v) <= 0.01 for s, t in zip(a, b, strict=True)
                                    for u, v in zip(s, t, strict=True))


@pytest.mark.parametrize(("document", "page"), CASES)
def test_engines_find_the_same_rules_and_images(document: str, page: int) -> None:
    """Rules and image boxes match, but for the boxes pdfminer reads as curves."""
    miner, pdfium = both(document, page)
    assert close(rounded(list(pdfium.images)), rounded(list(miner.images)))
    mine, theirs = rounded([r.bbox for r in miner.rules]), rounded([r.bbox for r in pdfium.rules])
    extra = [box for box in theirs if not any(close([box], [m]) for m in mine)]
    assert len(extra) == EXTRA_RULES.get((document, page), 0)
    assert close(mine, [box for box in theirs if box not in extra])


# ------------------------------------------------------------------- reading order

TRUTHS = labelled_pages([ROOT / "regions"])


@cache
def read(document: str, page: int, engine: str) -> str:
    """The body text of one page as :func:`layoutkit.parse` reads it with ``engine``."""
    return layoutkit.parse(PDFS / document, pages=[page], engine=engine)[0].text()


@pytest.mark.parametrize("truth", [pytest.param(t, id=page_id(t.document, t.page))
                                   for t in TRUTHS])
def test_engines_read_labelled_pages_alike(truth: PageTruth) -> None:
    """Both engines read every labelled page in the same order, scoring the same and at
    least 0.97; their texts are the same once pdfminer's split words are joined."""
    miner = read(truth.document, truth.page, "pdfminer")
    pdfium = read(truth.document, truth.page, "pdfium")
    joined = miner
    for split, whole in PDFMINER_SPLITS.get((truth.document, truth.page), {}).items():
        assert split in miner
        joined = joined.replace(split, whole)
    assert pdfium == joined
    ours, theirs = score_truth(pdfium, truth), score_truth(miner, truth)
    assert (ours.found, ours.order, ours.leak) == (theirs.found, theirs.order, theirs.leak)
    assert ours.found >= 0.97 and ours.order >= 0.97


def test_engines_cli_text_with_pdfium(capsys: pytest.CaptureFixture[str]) -> None:
    """``layoutkit text --engine pdfium`` prints what parse(engine="pdfium") reads."""
    status = main(["text", "--engine", "pdfium", "--pages", "7", str(PDFS / FEDERAL)])
    assert status == 0
    assert capsys.readouterr().out == read(FEDERAL, 7, "pdfium") + "\n"


# ------------------------------------------------------------------- errors and handles


@pytest.mark.parametrize(("make", "status", "message"), UNREADABLE)
def test_engines_refuse_unreadable_input_alike(
    tmp_path: Path, make: Callable[[Path], Path], status: int, message: str,
) -> None:
    """A missing, empty, corrupt, encrypted or page-less file fails the same way in both
    engines (the reason in parentheses names each engine's own complaint)."""
    path = make(tmp_path)
    expected = message.format(path=path)
    for engine in ("pdfminer", "pdfium"):
        with pytest.raises(LayoutkitError) as caught:
            open_source(path, engine)
        text = str(caught.value)
        assert text.startswith(expected) if expected.endswith("(") else text == expected
        assert isinstance(caught.value, DocumentError) == (status == 1)


def open_descriptors() -> int:
    """How many file descriptors this process has open."""
    return sum(1 for _ in Path("/proc/self/fd").iterdir())


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc/self/fd")
def test_engines_pdfium_closes_what_it_opens() -> None:
    """Opening, reading (even part of a page list) and closing leaves no file open;
    a closed source refuses to read and closing twice is harmless."""
    before = open_descriptors()
    for _ in range(20):
        with PdfiumSource(PDFS / FEDERAL) as source:
            pages = source.pages([7, 8])
            next(pages)
            pages.close()
    assert open_descriptors() == before
    source.close()
    with pytest.raises(DocumentError, match="the document is closed"):
        next(iter(source.pages([1])))


# ------------------------------------------------------------------- hand-made PDFs


def hand_made_pdf(path: Path, content: bytes, resources: bytes, *extra: bytes) -> Path:
    """A one-page 300 x 200 PDF drawing ``content`` with ``resources``; ``extra`` are
    further objects, numbered from 5 on."""
    path.write_bytes(one_page(content, resources, *extra, size=(300, 200)))
    return path


def stream(body: bytes, entries: bytes = b"") -> bytes:
    return b"<< %s /Length %d >>\nstream\n%s\nendstream" % (entries, len(body), body)


LIGATURES = b"""/CIDInit /ProcSet findresource begin 12 dict begin begincmap
/CMapName /Ligatures def /CMapType 2 def
1 begincodespacerange <00> <FF> endcodespacerange
3 beginbfchar <41> <00660069> <42> <FB01> <43> <FB00> endbfchar
endcmap CMapName currentdict /CMap defineresource pop end end"""
"""A ToUnicode map: code A is the letters "fi", B the ligature U+FB01, C U+FB00."""


def test_engines_pdfium_joins_the_letters_of_one_glyph(tmp_path: Path) -> None:
    """A glyph that stands for several letters is one glyph, as with pdfminer (PDFium
    reports its letters as pieces with one box, and splits U+FB00-FB06 into letters;
    pdfminer's "ﬁ" is made the letters "fi" as glyphs enter the model, so both engines
    read the same text).  A line-end hyphen stays a hyphen."""
    path = hand_made_pdf(
        tmp_path / "ligatures.pdf",
        b"BT /F1 12 Tf 20 150 Td (xAyBzC) Tj ET BT /F1 12 Tf 20 120 Td (hy-) Tj ET "
        b"BT /F1 12 Tf 20 100 Td (phen) Tj ET",
        b"<< /Font << /F1 5 0 R >> >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding"
        b" /ToUnicode 6 0 R >>",
        stream(LIGATURES))
    texts = {}
    for engine in ("pdfminer", "pdfium"):
        with open_source(path, engine) as source:
            texts[engine] = [g.text for g in next(iter(source.pages([1]))).glyphs]
    assert texts["pdfium"] == ["x", "fi", "y", "fi", "z", "ff", "h", "y", "-", "p", "h", "e",
                               "n"]
    assert texts["pdfminer"] == texts["pdfium"]


def test_engines_read_form_xobjects_alike(tmp_path: Path) -> None:
    """Rules, images and text inside a scaled form XObject land where pdfminer puts them."""
    image = stream(b"\xff\x00\x00" * 4, b"/Type /XObject /Subtype /Image /Width 2 /Height 2 "
                   b"/ColorSpace /DeviceRGB /BitsPerComponent 8")
    form = stream(b"10 10 m 60 10 l S 0 0 5 5 re f 0 20 40 10 re S "
                  b"q 10 0 0 10 20 20 cm /Im1 Do Q BT /F1 6 Tf 0 40 Td (Form) Tj ET",
                  b"/Type /XObject /Subtype /Form /BBox [0 0 100 100] /Matrix [2 0 0 2 0 0] "
                  b"/Resources << /XObject << /Im1 6 0 R >> /Font << /F1 7 0 R >> >>")
    path = hand_made_pdf(
        tmp_path / "form.pdf",
        b"q 1 0 0 1 60 10 cm /Fm1 Do Q 5 5 m 30 5 l 30 6 l h f",
        b"<< /XObject << /Fm1 5 0 R >> >>",
        form, image,
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    pages = {}
    for engine in ("pdfminer", "pdfium"):
        with open_source(path, engine) as source:
            pages[engine] = next(iter(source.pages([1])))
    miner, pdfium = pages["pdfminer"], pages["pdfium"]
    assert len(miner.rules) == 6  # the line, the stroked box's four edges, the thin fill
    assert close(rounded([r.bbox for r in pdfium.rules]), rounded([r.bbox for r in miner.rules]))
    assert close(rounded(list(pdfium.images)), rounded(list(miner.images)))
    assert [(g.text, g.size) for g in pdfium.glyphs] == [(g.text, g.size) for g in miner.glyphs]
    for m, p in zip(miner.glyphs, pdfium.glyphs, strict=True):
        assert close([(p.bbox.x0, p.bbox.x1)], [(m.bbox.x0, m.bbox.x1)])
        # Helvetica without a font descriptor: pdfminer's descent is the AFM's 0.207 em,
        # PDFium's its built-in font's 0.224 em.
        assert p.bbox.bottom - m.bbox.bottom == pytest.approx(0.017 * m.size, abs=0.01)
        assert p.bbox.height == pytest.approx(m.bbox.height, abs=0.01)


def test_engines_add_character_spacing_after_every_glyph(tmp_path: Path) -> None:
    """The character spacing (``Tc``) follows every glyph, the last one a text-showing
    operator shows too, and an adjustment that opens a ``TJ`` gets none (PDF 32000-1
    9.4.4): both engines place each glyph where the spacing puts it.  pdfminer.six
    alone applies it only between the glyphs of one operator (its issue 1128): it put
    "C" 2 pt too far left (behind "B", which lacked its spacing), and "W" on the
    second line, set right to left with a negative spacing as macOS Quartz sets
    Hebrew, over "Y" instead of left of "Z"."""
    path = hand_made_pdf(
        tmp_path / "spacing.pdf",
        b"BT /F1 10 Tf 2 Tc 20 150 Td (AB) Tj (C) Tj [-500 (D)] TJ (E) Tj ET "
        b"BT /F1 10 Tf -13 Tc 200 100 Td (XYZ) Tj (W) Tj ET",
        b"<< /Font << /F1 5 0 R >> >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    # Helvetica's advances: A, B, E and X, Y 6.67 pt at 10 pt; C, D 7.22; Z 6.11.
    expected = {"A": 20.0, "B": 28.67, "C": 37.34, "D": 51.56, "E": 60.78,
                "X": 200.0, "Y": 193.67, "Z": 187.34, "W": 180.45}
    for engine in ("pdfminer", "pdfium"):
        with open_source(path, engine) as source:
            glyphs = next(iter(source.pages([1]))).glyphs
        assert {g.text: round(g.bbox.x0, 2) for g in glyphs} == expected, engine
