"""Chunks for retrieval (`layoutkit.chunks`, ``layoutkit chunks``): on a generated report
whose headings, sections, list, table, figure and running furniture are known exactly,
on hand-built lines, and on a real two-column paper."""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from importlib import resources
from pathlib import Path

import jsonschema
import pytest
from linetype_pages import L, line
from report_pages import (
    FIGURE_CAPTION,
    HEADER,
    TABLE_CAPTION,
    TABLE_ROWS,
    Truth,
    written_report,
)

import layoutkit
from layoutkit.cli import main
from layoutkit.errors import UsageError
from layoutkit.model import Band, BandKind, BBox, Block, Column, Document, LineType, Page
from layoutkit.outputs.chunks import Chunk, chunks, token_counter

PAPER = Path(__file__).resolve().parent.parent / "fixtures/corpus/acl-2014-phrase-generation.pdf"
SIZES = [{}, {"max_chars": 600}, {"max_chars": 250}, {"max_tokens": 40}]


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Truth, Document]:
    return written_report(tmp_path_factory.mktemp("report"))


def _body(document: Document) -> Counter[tuple[int, int]]:
    """Each line of the document that is no running header or footer, by page and index."""
    return Counter((page.page_no, k) for page in document.pages
                   for k, x in enumerate(page.lines) if not x.furniture and x.text.strip())


def _placed(found: list[Chunk]) -> Counter[tuple[int, int]]:
    return Counter((p.line.page_no, p.index) for chunk in found for p in chunk.lines)


@pytest.mark.parametrize("size", SIZES, ids=str)
def test_chunks_every_body_line_in_one_chunk_furniture_in_none(
        made: tuple[Path, Truth, Document], size: dict[str, int]) -> None:
    """Every body line of the report's four pages is in exactly one chunk, whatever the
    size; the running header and the footers (eight lines, read as furniture) are in
    none."""
    _, _, document = made
    found = chunks(document, **size)
    furniture = [x.text for page in document.pages for x in page.lines if x.furniture]
    assert sorted(furniture) == sorted([HEADER] * 4 + [f"Page {n}" for n in range(1, 5)])
    assert _placed(found) == _body(document)
    assert sum(_body(document).values()) == 121
    assert not any(HEADER in chunk.text or "Page 2" in chunk.text for chunk in found)


def test_chunks_text_is_the_report_in_order(made: tuple[Path, Truth, Document]) -> None:
    """The chunks' text, word by word, is the report's: headings, paragraphs, list
    items (their bullets aside), the table's caption and rows and the figure's caption,
    in the order they were written."""
    _, truth, document = made
    words = " ".join(chunk.text for chunk in chunks(document, max_chars=400)).split()
    assert [w for w in words if w != "•"] == " ".join(text for _, text in truth.blocks).split()


@pytest.mark.parametrize("size", SIZES, ids=str)
def test_chunks_heading_paths_are_the_sections(made: tuple[Path, Truth, Document],
                                               size: dict[str, int]) -> None:
    """Each chunk's heading path is the path of the section every one of its lines
    stands in (from the heading positions recorded as the report was laid out); each
    section's first chunk opens with its heading, and the ten sections come in order."""
    _, truth, document = made
    found = chunks(document, **size)
    for chunk in found:
        for piece in chunk.lines:
            middle = (piece.line.bbox.top + piece.line.bbox.bottom) / 2
            assert chunk.headings == truth.path_at(piece.line.page_no, middle), piece.line
    opening = [c for c in found if c.lines[0].line.line_type is LineType.HEADING]
    assert [c.headings for c in opening] == [truth.path_at(p, top + 1) for p, _, _, top, _
                                             in truth.headings]
    assert opening[5].headings == ("Methods", "Figures and Drawings")
    assert all(c.text.split("\n")[0] == c.headings[-1] for c in opening)
    assert [c.line_types[0] for c in opening] == ["h_1", "h_2", "h_2", "h_1", "h_2", "h_2",
                                                  "h_1", "h_2", "h_2", "h_1"]


@pytest.mark.parametrize("size", SIZES[1:], ids=str)
def test_chunks_none_over_the_maximum(made: tuple[Path, Truth, Document],
                                      size: dict[str, int]) -> None:
    """No chunk is over the maximum (no line of the report is), and a chunk is not cut
    smaller than it must be: each chunk and the first line of the next would not fit."""
    _, _, document = made
    found = chunks(document, **size)
    bound, size_of = ((size["max_chars"], lambda c: c.chars) if "max_chars" in size
                      else (size["max_tokens"], lambda c: c.tokens))
    assert max(map(size_of, found)) <= bound
    assert all(c.chars == len(c.text) and c.tokens == len(c.text.split()) for c in found)
    assert len(found) > 10


def test_chunks_table_whole_with_its_caption_figure_caption_placed(
        made: tuple[Path, Truth, Document]) -> None:
    """The table's caption (set close under the paragraph before it, in its block) and
    its six rows are one chunk's, in order, whatever the size; the figure's caption is
    in the chunk of the section it stands in."""
    _, _, document = made
    for size in (None, 400, 250):
        found = chunks(document, max_chars=size)
        holding = [c for c in found if "tab" in c.line_types]
        assert len(holding) == 1
        table = holding[0]
        rows = [p.line.text for p in table.lines if p.line.line_type is LineType.TABLE]
        assert rows == [" ".join(r) for r in TABLE_ROWS]
        assert TABLE_CAPTION + "\n" + rows[0] in table.text
        figure = next(c for c in found if FIGURE_CAPTION in c.text)
        assert figure.headings == ("Methods", "Figures and Drawings")


def test_chunks_boxes_pages_and_starts(made: tuple[Path, Truth, Document]) -> None:
    """Each chunk's lines carry their page and box (on the page), and where their text
    starts in the chunk's text; a chunk's pages are its lines' pages."""
    _, _, document = made
    found = chunks(document, max_chars=500)
    assert any(len(c.pages) == 2 for c in found)
    for chunk in found:
        assert chunk.pages == tuple(dict.fromkeys(p.line.page_no for p in chunk.lines))
        for piece in chunk.lines:
            x0, top, x1, bottom = piece.line.bbox.as_list()
            assert 0 <= x0 < x1 <= 612 and 0 <= top < bottom <= 792
            assert chunk.text[piece.start:].startswith(piece.line.text.rstrip("-"))
    data = json.loads(json.dumps(found[0].to_dict()))
    assert data["lines"][0] == {"page": 1, "line": 1, "start": 0, "lineType": "h_1",
                                "bbox": found[0].lines[0].line.bbox.as_list()}
    with pytest.raises(dataclasses.FrozenInstanceError):
        found[0].text = "changed"  # type: ignore[misc]


def test_chunks_tokenizer_named_or_counted(made: tuple[Path, Truth, Document]) -> None:
    """A callable tokenizer counts the tokens a maximum bounds; an unknown name, a
    maximum of 0 or a fraction is one clear UsageError."""
    _, _, document = made
    found = chunks(document, max_tokens=90, tokenizer=lambda text: len(text) // 4)
    assert max(c.tokens for c in found) <= 90 and all(c.tokens == c.chars // 4 for c in found)
    assert token_counter()("two  words\n") == 2
    with pytest.raises(UsageError, match="tokenizer 'no-such-tokenizer'"):
        chunks(document, tokenizer="no-such-tokenizer")
    for bad in ({"max_chars": 0}, {"max_tokens": 2.5}):
        with pytest.raises(UsageError, match="expected a positive whole number"):
            chunks(document, **bad)  # type: ignore[arg-type]


def test_chunks_of_a_text_document(made: tuple[Path, Truth, Document]) -> None:
    """A `layoutkit.TextDocument` is chunked as the parsed document it wraps."""
    _, _, document = made
    wrapped = layoutkit.TextDocument.from_layout(document)
    assert layoutkit.chunks(wrapped, max_chars=300) == chunks(document, max_chars=300)


def _document(specs: list[tuple[str, L]]) -> Document:
    """One page of hand-built lines, each typed by its code (``h_2``, ``b``, ``tab``)."""
    lines = []
    for code, spec in specs:
        level = int(code[2:]) if code.startswith("h_") else 0
        kind = LineType.HEADING if level else LineType(code)
        lines.append(dataclasses.replace(line(spec, 1), line_type=kind, level=level))
    blocks = tuple(Block((x,), x.bbox) for x in lines)
    column = Column(0, BBox.union(x.bbox for x in lines), blocks)
    return Document(Path("built.pdf"), (Page(1, 612, 792, (Band(0, BandKind.BODY,
                                                                 column.bbox, (column,)),)),), 1)


def _para(texts: list[str], top: float, block: int) -> list[tuple[str, L]]:
    return [("b", L(t, top + 12 * k, block)) for k, t in enumerate(texts)]


def test_chunks_paragraph_cut_after_a_line_closing_a_sentence() -> None:
    """A paragraph too long for a chunk is cut after the last line that closes a
    sentence and fits, not after the last line that fits; with no such line, after the
    last line that fits."""
    texts = ["alpha beta gamma delta epsilon", "zeta eta theta ends here.",
             "iota kappa lambda mu nu xi", "omicron pi rho sigma tau", "upsilon phi chi psi."]
    doc = _document(_para(texts, 100, 0))
    found = chunks(doc, max_chars=90)
    assert [c.text for c in found] == [" ".join(texts[:2]), " ".join(texts[2:])]
    found = chunks(_document(_para([t.rstrip(".") for t in texts], 100, 0)), max_chars=90)
    assert [len(c.lines) for c in found] == [3, 2]


def test_chunks_heading_path_by_level_and_heading_kept_with_text() -> None:
    """A second-level heading's path holds the first level's title; the next first-level
    heading ends it.  A heading opens its chunk, and a paragraph too long to join it whole
    gives it its first sentences rather than leave it alone."""
    doc = _document([("h_1", L("Part One", 80, 0, size=16)),
                     ("h_2", L("Section A", 110, 1, size=12)),
                     *_para(["first sentence of the section.", "second one runs on and on",
                             "and ends here at last."], 130, 2),
                     ("h_1", L("Part Two", 200, 3, size=16)),
                     *_para(["under the second part."], 230, 4)])
    found = chunks(doc, max_chars=60)
    assert [c.headings for c in found] == [("Part One",), ("Part One", "Section A"),
                                           ("Part One", "Section A"), ("Part Two",)]
    assert found[1].text == "Section A\n\nfirst sentence of the section."
    assert found[3].text == "Part Two\n\nunder the second part."


def test_chunks_caption_after_a_table_goes_with_it() -> None:
    """A caption set below its table joins the table's chunk; a body paragraph below a
    table does not."""
    rows = [("tab", L(f"row {k} | {k * 7}", 100 + 12 * k, k)) for k in range(3)]
    caption = ("b", L("Table 2: What the rows hold.", 140, 5))
    after = ("b", L("A paragraph after the table.", 160, 6))
    found = chunks(_document([*_para(["text before the table."], 80, 9), *rows, caption,
                              after]), max_chars=70)
    assert [c.text for c in found] == ["text before the table.",
                                       "row 0 0\nrow 1 7\nrow 2 14\nTable 2: What the rows hold.",
                                       "A paragraph after the table."]


def test_chunks_cli_writes_json_lines_valid_against_the_schema(
        made: tuple[Path, Truth, Document], tmp_path: Path) -> None:
    """``layoutkit chunks FILE -o out.jsonl --max-chars N --pages`` writes one JSON object
    a chunk, each valid against the shipped schema layoutkit.chunk/1, numbered from 0,
    the same chunks as `layoutkit.chunks`; a line holding a running header's type does
    not validate."""
    path, _, _ = made
    out = tmp_path / "out.jsonl"
    assert main(["chunks", str(path), "-o", str(out), "--max-chars", "500", "--pages",
                 "2-3", "-q"]) == 0
    schema = json.loads(resources.files("layoutkit.outputs").joinpath("chunk.schema.json")
                        .read_text("utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    records = [json.loads(x) for x in out.read_text("utf-8").splitlines()]
    for record in records:
        jsonschema.validate(record, schema)
    assert [r["index"] for r in records] == list(range(len(records)))
    assert [r["text"] for r in records] == [
        c.text for c in chunks(layoutkit.parse(path, pages="2-3"), max_chars=500)]
    assert {p for r in records for p in r["pages"]} == {2, 3}
    assert records[0]["document"] == "report.pdf"
    assert records[1]["headings"] == ["Data Collected"]  # "Methods" is on page 1
    bad = {**records[0], "lines": [{**records[0]["lines"][0], "lineType": "h"}]}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema)


def test_chunks_cli_bad_maximum_is_a_usage_error(made: tuple[Path, Truth, Document],
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """``--max-chars 0`` and a tokenizer no library knows are usage errors of one line."""
    path, _, _ = made
    with pytest.raises(SystemExit) as exit_:
        main(["chunks", str(path), "--max-chars", "0"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--max-chars" in err and "above 0" in err
    assert main(["chunks", str(path), "--tokenizer", "no-such-tokenizer"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "tokenizer 'no-such-tokenizer': not a tiktoken" in err


def test_chunks_two_column_paper() -> None:
    """The ACL 2014 paper (two columns, ten pages): every body line in one chunk, its
    twelve furniture lines in none, no chunk over 200 tokens, the sections' paths as the
    paper numbers them, and the caption of Table 7 (page 8) opening the chunk of its
    rows."""
    document = layoutkit.parse(PAPER)
    found = layoutkit.chunks(document, max_tokens=200)
    assert _placed(found) == _body(document)
    assert sum(x.furniture for page in document.pages for x in page.lines) == 12
    assert max(c.tokens for c in found) <= 200
    opening = [c.headings for c in found if c.line_types[0].startswith("h_")]
    assert opening[4:8] == [("3 General framework",),
                            ("3 General framework", "3.1 Synthesis"),
                            ("3 General framework", "3.2 Generation"),
                            ("3 General framework", "3.3 Recursive (de)composition")]
    assert opening[-2:] == [("Acknowledgments",), ("References",)]
    assert len(opening) == 17
    pages = [c.pages[0] for c in found]
    assert pages == sorted(pages)
    table = next(c for c in found if c.text.startswith("Table 7: En→It translation"))
    assert table.pages == (8,) and table.line_types == ("b", "tab")
