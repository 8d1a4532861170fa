"""A document read page by page (iter_pages, layoutkit text, parse, tokens and nlptext)
against the same document parsed whole."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium
import pytest

import layoutkit.pipeline
from fixtures.synthetic import CASES, gazette
from layoutkit import LayoutConfig, iter_pages, parse
from layoutkit.cli import main
from layoutkit.errors import DocumentError
from layoutkit.model import Document, tables_by_page
from layoutkit.nlp import nlptext
from layoutkit.nlp.paragraphs import ignored_codes
from layoutkit.nlp.tokens import analyse, tokens_dumps, tokens_pieces
from layoutkit.outputs import dumps, dumps_pieces
from layoutkit.pipeline import loaded_profile
from tests.parsed import parsed

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
RECORD = FIXTURES / "pdf" / "cleveland-city-record-2016-04-27.pdf"
"""38 pages of three-column City Record, with running headers."""
REGISTER = FIXTURES / "pdf" / "federal-register-2020-08-06.pdf"
MELROSE = FIXTURES / "corpus" / "melrose-election-results-2016.pdf"
"""15 pages of the Federal Register: numbered lists and headings of three levels."""
SCANNED = FIXTURES / "scanned" / "cfr-5-page7-two-column.jpg"


def chunked(pages: int) -> LayoutConfig:
    return LayoutConfig().replace(stream_chunk_pages=pages)


@pytest.fixture(scope="module")
def record() -> Document:
    return parsed(RECORD)


def test_stream_in_one_chunk_is_the_parse(record: Document) -> None:
    """Read page by page in one chunk, the pages, their number and OCR are parse()'s."""
    stream = iter_pages(RECORD, chunked(64))
    assert (stream.page_count, stream.ocr) == (record.page_count, record.ocr)
    assert list(stream) == list(record.pages)


def test_stream_in_chunks_is_the_parse(record: Document) -> None:
    """In chunks of 8 pages, every page (its column grid, heading levels, list chains)
    is parse()'s, the decisions across pages taken over the whole document: per chunk,
    pages 9-38 of the City Record would have other heading levels, and pages 9-15 of
    the Federal Register would lose their numbered lists."""
    assert list(iter_pages(RECORD, chunked(8))) == list(record.pages)
    register = parsed(REGISTER)
    assert any(line.code == "ln" for page in register.pages[8:] for line in page.lines)
    assert list(iter_pages(REGISTER, chunked(4))) == list(register.pages)


@pytest.mark.parametrize(("chunk", "passes"), [(32, 0), (19, 0), (18, 1), (8, 1)])
def test_stream_of_a_short_document_is_read_in_one_go(
        record: Document, monkeypatch: pytest.MonkeyPatch, chunk: int, passes: int) -> None:
    """A document of no more than ``stream_whole_chunks`` (2) chunks is read, laid out
    and typed in one go, as parse() does, its pages kept in memory: without the files
    and the passes over the whole document a longer one takes (the 38 pages of the
    City Record: in chunks of 19 at most); the pages are parse()'s either way."""
    calls: dict[str, int] = {"spill_pages": 0, "_typed_stream": 0}
    for name in calls:
        step = getattr(layoutkit.pipeline, name)

        def counted(*args: object, _name: str = name, _step: Any = step,
                    **kwargs: object) -> object:
            calls[_name] += 1
            return _step(*args, **kwargs)

        monkeypatch.setattr(layoutkit.pipeline, name, counted)
    assert list(iter_pages(RECORD, chunked(chunk))) == list(record.pages)
    assert calls == {"spill_pages": passes, "_typed_stream": passes}


def test_stream_prepares_each_page_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Read in chunks of 4, each of the Federal Register's 15 pages is prepared (its
    furniture, body and gutters) once, in the pass that finds the column grid, and laid
    out from what that pass wrote: not prepared again for the laying out (30 times),
    and the text is parse()'s."""
    prepare = layoutkit.pipeline.prepare_page
    prepared: list[int] = []

    def counted(job: Any, read: Any, runs: Any) -> Any:
        prepared.append(read.glyphs.page_no)
        return prepare(job, read, runs)

    monkeypatch.setattr(layoutkit.pipeline, "prepare_page", counted)
    pages = [page.text() for page in iter_pages(REGISTER, chunked(4), typed=False)]
    assert sorted(prepared) == list(range(1, 16))
    monkeypatch.setattr(layoutkit.pipeline, "prepare_page", prepare)
    assert pages == [page.text() for page in parse(REGISTER, typed=False).pages]


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
    of 4 pages lay out and type every page as parse() does."""
    profile = loaded_profile("cleveland-city-record")
    assert profile is not None and profile.sections
    config = profile.config.replace(stream_chunk_pages=4)
    whole = parse(RECORD, config, profile=profile)
    assert list(iter_pages(RECORD, config, profile=profile)) == list(whole.pages)


def test_dumps_pieces_are_dumps() -> None:
    """The JSON written a page at a time is dumps()'s, for a scanned page read by OCR
    and for a document without pages."""
    document = parsed(SCANNED)
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


def test_stream_nlp_outputs_are_the_whole_documents() -> None:
    """tokens and nlptext written from pages streamed in chunks of 3 (a paragraph
    running on across a page break, the document's language and words decided over all
    the pages) are the outputs of the document parsed whole."""
    config = chunked(3)
    whole = parse(RECORD, config, pages="1-8", tables=True)
    assert "".join(tokens_pieces(RECORD.name, iter_pages(RECORD, config, pages="1-8",
                                                         tables=True),
                                 config.nlp)) == tokens_dumps(analyse(whole, config.nlp))
    skip = ignored_codes(config.nlp) - {"toc"}
    stream = iter_pages(RECORD, config, pages="1-8", tables=True)
    assert "".join(nlptext.write_pieces(RECORD.name, stream, stream.tables, skip)) == \
        nlptext.write(nlptext.from_document(whole, skip))
    assert dict(stream.tables) == tables_by_page(whole.tables)


def test_stream_ruled_tables_are_the_whole_documents() -> None:
    """Pages streamed in chunks of 2 are typed as the document parsed whole: the ruled
    tables found by default where the rules draw a grid (Melrose's results, every
    page) are typed in the stream too, and the tables asked for on every page are the
    stream's tables."""
    config = chunked(2)
    whole = parse(MELROSE, config)
    assert {table.page_no for table in whole.tables} == {1, 2, 3, 4, 5}
    streamed = list(iter_pages(MELROSE, config))
    assert [[x.code for x in page.lines] for page in streamed] == \
        [[x.code for x in page.lines] for page in whole]
    assert sum(x.code == "tab" for x in streamed[0].lines) >= 20
    stream = iter_pages(MELROSE, config, tables=True)
    list(stream)
    assert dict(stream.tables) == tables_by_page(parse(MELROSE, config, tables=True).tables)


@pytest.fixture(scope="module")
def long_synthetic(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The synthetic gazettes of every case, one after another: 22 pages."""
    out = pdfium.PdfDocument.new()
    for case in CASES:
        out.import_pages(pdfium.PdfDocument(gazette(case, seed=3).pdf))
    path = tmp_path_factory.mktemp("long") / "gazettes.pdf"
    out.save(path)
    return path


@pytest.mark.parametrize("command", ["tokens", "nlptext"])
def test_cli_nlp_streamed_is_the_whole_document(
        command: str, long_synthetic: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``layoutkit tokens`` and ``nlptext`` on the long synthetic document, in chunks of
    4 pages, write to ``-o`` and to standard output what the document parsed whole
    gives."""
    config = chunked(4)
    whole = parse(long_synthetic, config, tables=command == "nlptext")
    if command == "tokens":
        expected = tokens_dumps(analyse(whole, config.nlp))
    else:
        expected = nlptext.write(nlptext.from_document(
            whole, ignored_codes(config.nlp) - {"toc"}, timestamp=_modified(long_synthetic)))
    out = tmp_path / "out"
    assert main([command, str(long_synthetic), "-o", str(out), "-q",
                 "--set", "stream_chunk_pages=4"]) == 0
    assert out.read_text(encoding="utf-8") == expected
    capsys.readouterr()
    assert main([command, str(long_synthetic), "-q", "--set", "stream_chunk_pages=4"]) == 0
    assert capsys.readouterr().out == expected


def _modified(path: Path) -> str:
    from datetime import UTC, datetime

    return datetime.fromtimestamp(path.stat().st_mtime, tz=UTC).isoformat(timespec="seconds")


@pytest.mark.parametrize("command", ["tokens", "nlptext"])
@pytest.mark.parametrize("to_file", [True, False])
def test_cli_nlp_page_failing_mid_stream(
        command: str, to_file: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A page that fails as it is laid out, in the third chunk of 4 pages: one line
    naming it, exit status 1, no ``-o`` file and nothing on standard output."""
    laid_out = layoutkit.pipeline.layout_page

    def fails_on_page_10(*args: object, **kwargs: object) -> object:
        if getattr(args[0], "page_no", None) == 10:
            raise DocumentError(f"{RECORD}: page 10: cannot be laid out")
        return laid_out(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(layoutkit.pipeline, "layout_page", fails_on_page_10)
    out = tmp_path / "out"
    argv = [command, str(RECORD), "--pages", "1-12", "--set", "stream_chunk_pages=4"]
    assert main(argv + (["-o", str(out)] if to_file else [])) == 1
    captured = capsys.readouterr()
    assert captured.err.splitlines() == [f"layoutkit: error: {RECORD}: page 10: cannot be "
                                         "laid out"]
    assert captured.out == ""
    assert not out.exists() and list(tmp_path.iterdir()) == []
