"""The pdfminer engine's page tree: walked once for a document read in chunks.

The pipeline opens a document anew for every ``stream_chunk_pages`` pages; the engine
used to walk the whole page tree at every opening, which made a long document
quadratic (a 5,000-page PDF: 157 walks of 5,000 page objects, over a minute)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from pdfminer.pdfdocument import PDFDocument

import layoutkit
from layoutkit.config import LayoutConfig
from layoutkit.sources import open_source
from tests import hostile
from tests.handmade import pdf_bytes

PAGES = 120
"""The pages of the synthetic document: one line each, ``page N``."""

CHUNK = 16


def _page_objects(count: int) -> set[int]:
    """The object numbers of the pages of :func:`hostile.one_line_pages`."""
    return {4 + 2 * k for k in range(count)}


@pytest.fixture
def resolved(monkeypatch: pytest.MonkeyPatch) -> Counter[int]:
    """How many times each object number is resolved by pdfminer, from now on."""
    counts: Counter[int] = Counter()
    getobj = PDFDocument.getobj

    def counted(self: PDFDocument, objid: int) -> object:
        counts[objid] += 1
        return getobj(self, objid)

    monkeypatch.setattr(PDFDocument, "getobj", counted)
    return counts


def test_chunked_read_resolves_each_page_object_twice(tmp_path: Path,
                                                      resolved: Counter[int]) -> None:
    """Read through the pipeline in chunks of 16 pages (eight openings), each page
    object is resolved once to index the page tree and once when its page is read
    (it was resolved at every opening: eight times, then once more)."""
    path = tmp_path / "long.pdf"
    path.write_bytes(hostile.one_line_pages(PAGES))
    config = LayoutConfig().replace(stream_chunk_pages=CHUNK)
    document = layoutkit.parse(path, config, engine="pdfminer")
    assert [page.text().strip() for page in document.pages] == [
        f"page {k}" for k in range(1, PAGES + 1)]
    pages = _page_objects(PAGES)
    assert {number: resolved[number] for number in pages} == dict.fromkeys(pages, 2)


def test_page_tree_is_walked_again_when_the_file_changes(tmp_path: Path,
                                                         resolved: Counter[int]) -> None:
    """The kept page tree belongs to one file: the same path rewritten with other pages
    is read by its own tree."""
    path = tmp_path / "changing.pdf"
    path.write_bytes(hostile.one_line_pages(3))
    with open_source(path, "pdfminer") as source:
        assert source.page_count == 3
    path.write_bytes(hostile.one_line_pages(5))
    with open_source(path, "pdfminer") as source:
        assert source.page_count == 5
        assert [g.glyphs.texts for g in source.pages([5])] == [tuple("page 5")]


def test_pages_inherit_from_their_ancestors_and_the_catalog(tmp_path: Path) -> None:
    """A page read from the kept tree has the attributes it inherits, nearest node
    first: the media box of its parent node over the root's, the rotation of the
    catalog (which pdfminer lets pages inherit)."""
    font = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
    text = b"BT /F1 10 Tf 72 100 Td (inherited) Tj ET\n"
    path = tmp_path / "nested.pdf"
    path.write_bytes(pdf_bytes([
        b"<< /Type /Catalog /Pages 2 0 R /Rotate 90 >>",
        b"<< /Type /Pages /Kids [4 0 R 6 0 R] /Count 2 /MediaBox [0 0 600 800] "
        b"/Resources << /Font << /F1 3 0 R >> >> >>",
        font,
        b"<< /Type /Pages /Parent 2 0 R /Kids [5 0 R] /Count 1 /MediaBox [0 0 300 400] >>",
        b"<< /Type /Page /Parent 4 0 R /Contents 7 0 R >>",
        b"<< /Type /Page /Parent 2 0 R /Contents 7 0 R >>",
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(text), text),
    ]))
    with open_source(path, "pdfminer") as source:
        first, second = source.pages([1, 2])
    # turned a quarter by the catalog's /Rotate: width and height swap
    assert (first.width, first.height) == (400, 300)
    assert (second.width, second.height) == (800, 600)
    assert first.glyphs.texts == second.glyphs.texts == tuple("inherited")
