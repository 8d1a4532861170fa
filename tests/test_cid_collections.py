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
from layoutkit.sources import cid_collections
from layoutkit.sources.cid_collections import (
    collection_table,
    drawn_by_collection,
    font_collections,
    read_by_collection,
)

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
