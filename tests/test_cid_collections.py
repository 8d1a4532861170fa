"""Composite fonts with no ``/ToUnicode``, read by the table of the character
collection their CIDs number, in both engines.

upLaTeX's Pr6N fonts (Adobe-Japan1-6, Identity-V, no ``/ToUnicode``) draw CIDs of the
collection's later supplements that PDFium has no Unicode for (it gives the CID itself:
挺, CID 20286, as U+4F3E '伾') or maps to another character (吞 as 呑, 絕 as 絶), and
that pdfminer.six's bundled table lacks (``(cid:20286)``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import layoutkit
from layoutkit.model import Glyphs
from layoutkit.sources import cid_collections, open_source
from layoutkit.sources.cid_collections import (
    collection_table,
    drawn_by_collection,
    font_collections,
    read_by_collection,
)
from tests.handmade import one_page

CORPUS = Path(__file__).resolve().parent.parent / "fixtures" / "corpus"
UPLATEX = CORPUS / "uplatex-sz-datang-xiyuji-xu-2024-vertical.pdf"
ENGINES = ("pdfium", "pdfminer")


def test_collection_table_reads_every_supplement() -> None:
    """Adobe-Japan1's table holds the CIDs of its sixth supplement (poppler-data's,
    installed with the system packages); an unknown collection has none."""
    table = collection_table("Adobe-Japan1")
    assert (table[20286], table[17223], table[18753], table[1]) == ("挺", "鶖", "轘", "\u00a0")
    assert len(table) > 16000
    assert collection_table("Adobe-Identity") == {}
    assert collection_table("Adobe-Japan1/../../etc") == {}


def test_collection_table_without_poppler_data_is_pdfminers(monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    """Where poppler-data is not installed, the table is pdfminer.six's: most CIDs of the
    later supplements, not all."""
    monkeypatch.setattr(cid_collections, "POPPLER_DATA", ())
    collection_table.cache_clear()
    try:
        table = collection_table("Adobe-Japan1")
        assert table[17223] == "鶖"
        assert 20286 not in table
    finally:
        collection_table.cache_clear()


def test_font_collections_of_a_document() -> None:
    """The composite fonts without ``/ToUnicode`` of the upLaTeX document, by their
    descendant's name without the subset tag; none in a document whose fonts all
    carry one, or that cannot be read."""
    assert font_collections(UPLATEX) == {"UDMarugo_SmallPr6N-M": "Adobe-Japan1",
                                         "TsukuAOldMinPr6N-R": "Adobe-Japan1",
                                         "RyuminPr6N-Bold": "Adobe-Japan1"}
    assert font_collections(CORPUS / "acl-2014-phrase-generation.pdf") == {}
    assert font_collections(CORPUS / "no-such-file.pdf") == {}


@pytest.mark.parametrize("engine", ENGINES)
def test_cids_of_later_supplements_read_in_both_engines(engine: str) -> None:
    """The preface's second page reads the characters PDFium and pdfminer.six have no
    Unicode for, as printed (see the truth file's conventions); only a colon of CID
    12101, which neither table maps, stays ``(cid:N)`` with pdfminer.six."""
    page = layoutkit.parse(UPLATEX, pages=[2], engine=engine).pages[0]
    text = "\n".join(line.text for line in page.lines)
    for printed in ("挺鶖鷺", "金文蹔", "斵輪", "轘轅", "鍱腹", "踳駁", "杖錫", "玄㶚", "蔥山"):
        assert printed in text
    assert "(cid:" not in text.replace("(cid:12101)", "")


def test_default_engine_reads_each_cid_by_the_collection() -> None:
    """PDFium maps two CIDs of the preface to other characters (吞 as 呑, 絕 as 絶) and
    reports no CID; the pdfium engine takes the collection's character from the page read
    by pdfminer.six, and keeps its own 黃 where pdfminer.six gives the Kangxi radical ⿈
    of the same character.  Every line of the truth is then read, in order, as
    pdftotext reads them."""
    text = "\n".join(line.text for page in layoutkit.parse(UPLATEX).pages
                     for line in page.lines)
    assert "苞九部而吞夢" in text and "以絕倫之德" in text and "詞發雌黃" in text
    assert "呑" not in text and "絶" not in text and "⿈" not in text


def _glyphs(texts: str, fonts: list[str], xs: list[float]) -> Glyphs:
    n = len(texts)
    return Glyphs(tuple(texts), np.array([[x, 0.0, x + 10.0, 10.0] for x in xs]), tuple(fonts),
                  np.full(n, 10.0), np.zeros(n, dtype=np.int16), np.full(n, 400, dtype=np.int16))


def test_read_by_collection_takes_the_other_reading_at_the_same_place() -> None:
    """Each glyph of a collection's font takes the text of the glyph drawn in the same
    font nearest its centre, within half an em; not ``(cid:N)``, not a compatibility
    form of its own text, and never another font's glyph or a glyph an em away."""
    collections = {"Min-R": "Adobe-Japan1"}
    fonts = ["ABCDEF+Min-R"] * 4 + ["Roman"]
    pdfium = _glyphs("呑絶黃：a", fonts, [0.0, 10.0, 20.0, 30.0, 40.0])
    pdfminer = _glyphs("⿈吞絕xb", ["Min-R"] * 3 + ["Min-R", "Roman"],
                       [22.0, 1.0, 9.0, 31.0, 40.0])
    pdfminer = Glyphs(("⿈", "吞", "絕", "(cid:12101)", "b"), pdfminer.boxes, pdfminer.fonts,
                      pdfminer.sizes, pdfminer.directions, pdfminer.weights)
    assert drawn_by_collection(pdfium, collections)
    assert not drawn_by_collection(pdfium, {})
    assert not drawn_by_collection(_glyphs("a", ["Roman"], [0.0]), collections)
    read = read_by_collection(pdfium, pdfminer, collections)
    assert read.texts == ("吞", "絕", "黃", "：", "a")
    assert np.array_equal(read.boxes, pdfium.boxes) and read.fonts == pdfium.fonts
    far = _glyphs("吞", ["Min-R"], [-6.0])  # 0.6 em left of the first glyph
    assert read_by_collection(pdfium, far, collections).texts == pdfium.texts


_TYPE3_WIDTHS = {1: b"900", 2: b"300", 4: b"250", 33: b"450"}
"""The advances of some glyphs of `type3_pdf`'s font, unlike the others' (600)."""


def type3_pdf(path: Path, to_unicode: bool = False, base_font: bytes = b"",
              matrix: bytes = b"1 0 0 1 72 700") -> Path:
    """A page drawing codes 1-4 and 33 in a Type 3 font whose ``/Differences`` names
    them 'V', 'S', 'U', 'P' and 'a' (as Scribus numbers a Type 3 font's glyphs from 0),
    without ``/ToUnicode`` unless ``to_unicode`` (then one that maps them to 'WXYZb'),
    with a ``/BaseFont`` where ``base_font`` names one, set by the text ``matrix``."""
    names = {1: "V", 2: "S", 3: "U", 4: "P", 33: "a"}
    cmap = (b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap "
            b"1 begincodespacerange <00> <FF> endcodespacerange "
            b"5 beginbfchar <01> <0057> <02> <0058> <03> <0059> <04> <005A> <21> <0062> "
            b"endbfchar endcmap end end")
    path.write_bytes(one_page(
        b"BT /F1 20 Tf %s Tm <0102030421> Tj ET" % matrix,
        b"<< /Font << /F1 5 0 R >> >>",
        b"<< /Type /Font /Subtype /Type3 /FontBBox [0 0 600 700]%s" % (
            b" /BaseFont /" + base_font if base_font else b"") +
        b" /FontMatrix [0.001 0 0 0.001 0 0] /CharProcs 7 0 R /FirstChar 0 /LastChar 33"
        b" /Encoding << /Type /Encoding /Differences [1 /V /S /U /P 33 /a] >>"
        b" /Widths [%s]%s >>" % (b" ".join(_TYPE3_WIDTHS.get(code, b"600") for code in range(34)),
                                b" /ToUnicode 8 0 R" if to_unicode else b""),
        b"<< /Length 38 >>\nstream\n600 0 0 0 600 700 d1 0 0 600 700 re f\nendstream",
        b"<< %s >>" % b" ".join(b"/%s 6 0 R" % name.encode() for name in names.values()),
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(cmap), cmap)))
    return path


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(("base_font", "matrix"), [
    (b"", b"1 0 0 1 72 700"), (b"", b"0 1 -1 0 300 400"), (b"", b"-1 0 0 -1 300 400"),
    (b"ABCDEF+SchoolFont", b"1 0 0 1 72 700")], ids=["upright", "90", "180", "base-font"])
def test_type3_font_named_by_its_differences_read_by_the_names(
        tmp_path: Path, engine: str, base_font: bytes, matrix: bytes) -> None:
    """A Type 3 font without ``/ToUnicode`` whose ``/Differences`` names its glyphs is
    read by those names in both engines, turned or upright, with a ``/BaseFont`` or
    without: PDFium gives its codes themselves (control characters, named ``(cid:N)``,
    and '!' for 'a'), so the pdfium engine reads such a page's glyphs again with
    pdfminer.six, each glyph matched by where it starts as it reads upright (PDFium's
    advances, of the characters it misread, are wrong); with a ``/ToUnicode`` its map
    stands."""
    path = type3_pdf(tmp_path / "type3.pdf", base_font=base_font, matrix=matrix)
    name = base_font.decode().split("+")[-1]
    assert font_collections(path) == {name: cid_collections.TYPE3}
    with open_source(path, engine) as source:
        page = next(iter(source.pages([1])))
    assert "".join(page.glyphs.texts) == "VSUPa"
    mapped = type3_pdf(tmp_path / "mapped.pdf", to_unicode=True, base_font=base_font,
                       matrix=matrix)
    assert font_collections(mapped) == {}
    with open_source(mapped, engine) as source:
        assert "".join(next(iter(source.pages([1]))).glyphs.texts) == "WXYZb"
