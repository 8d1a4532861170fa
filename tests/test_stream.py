"""A document read page by page (iter_pages, layoutkit text and parse) against the
same document parsed whole."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from layoutkit import LayoutConfig, iter_pages, parse
from layoutkit.cli import main
from layoutkit.model import Document
from layoutkit.outputs import dumps, dumps_pieces

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
RECORD = FIXTURES / "pdf" / "cleveland-city-record-2016-04-27.pdf"
"""38 pages of three-column City Record, with running headers."""
SCANNED = Path(__file__).resolve().parent.parent.parent / "shared" / "fixtures" / "scanned" / \
    "cfr-5-page7-two-column.jpg"


def chunked(pages: int) -> LayoutConfig:
    return LayoutConfig().replace(stream_chunk_pages=pages)


@pytest.fixture(scope="module")
def record() -> Document:
    return parse(RECORD)


def test_stream_in_one_chunk_is_the_parse(record: Document) -> None:
    """Read page by page in one chunk, the pages, their number and OCR are parse()'s."""
    stream = iter_pages(RECORD, chunked(64))
    assert (stream.page_count, stream.ocr) == (record.page_count, record.ocr)
    assert list(stream) == list(record.pages)


def test_stream_keeps_the_running_furniture_of_the_whole_document(record: Document) -> None:
    """In chunks of 5 pages, the running headers and footers are those decided over the
    whole document, and the text of every page (its lines untyped) is parse()'s."""
    untyped = parse(RECORD, typed=False)
    pages = list(iter_pages(RECORD, chunked(5), typed=False))
    furniture = [[line.text for line in page.lines if line.furniture] for page in record.pages]
    assert sum(map(bool, furniture)) == len(record.pages) - 1  # page 2 has none
    assert [[line.text for line in page.lines if line.furniture] for page in pages] == furniture
    assert [page.text() for page in pages] == [page.text() for page in untyped.pages]


def test_stream_same_in_two_processes() -> None:
    """Chunks of 7 pages laid out and typed in two processes are those of one."""
    assert list(iter_pages(RECORD, chunked(7), jobs=2)) == list(iter_pages(RECORD, chunked(7)))


def test_stream_of_some_pages_is_their_parse() -> None:
    """Pages asked for are read with their neighbours, as by parse()."""
    assert list(iter_pages(RECORD, pages="3-5")) == list(parse(RECORD, pages="3-5").pages)


def test_stream_carries_the_profile_section_across_chunks() -> None:
    """With the City Record's profile, whose sections run on from page to page, chunks
    of 4 pages lay every page out as parse() does (its lines untyped)."""
    whole = parse(RECORD, profile="cleveland-city-record", typed=False)
    pages = list(iter_pages(RECORD, chunked(4), profile="cleveland-city-record", typed=False))
    assert [page.text() for page in pages] == [page.text() for page in whole.pages]
    assert [len(page.bands) for page in pages] == [len(page.bands) for page in whole.pages]


def test_dumps_pieces_are_dumps() -> None:
    """The JSON written a page at a time is dumps()'s, for a scanned page read by OCR
    and for a document without pages."""
    document = parse(SCANNED)
    assert document.ocr
    pieces = list(dumps_pieces(document.path, document.page_count, document.ocr,
                               document.pages))
    assert len(pieces) == len(document.pages) + 1
    assert "".join(pieces) == dumps(document)
    empty = Document(document.path, (), 0)
    assert "".join(dumps_pieces(empty.path, 0, (), [])) == dumps(empty)


def test_cli_parse_writes_pages_of_chunks(tmp_path: Path, record: Document) -> None:
    """``layoutkit parse`` in chunks of 10 pages writes every page, with its lines'
    types, and the running headers decided over the document."""
    out = tmp_path / "record.json"
    assert main(["parse", str(RECORD), "-o", str(out), "--set", "stream_chunk_pages=10"]) == 0
    written = json.loads(out.read_text(encoding="utf-8"))
    assert [page["pageNo"] for page in written["pages"]] == list(range(1, 39))
    assert [[line["text"] for line in page["lines"] if line["lineType"] in ("h", "f")]
            for page in written["pages"]] == \
        [[line.text for line in page.lines if line.furniture] for page in record.pages]
