"""Composite fonts with no ``/ToUnicode``, read by the table of the character
collection their CIDs number, in both engines.

upLaTeX's Pr6N fonts (Adobe-Japan1-6, Identity-V, no ``/ToUnicode``) draw CIDs of the
collection's later supplements that PDFium has no Unicode for (it gives the CID itself:
挺, CID 20286, as U+4F3E '伾') and pdfminer.six's bundled table lacks (``(cid:20286)``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

import layoutkit
from layoutkit.sources import cid_collections
from layoutkit.sources.cid_collections import collection_table, font_collections

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
