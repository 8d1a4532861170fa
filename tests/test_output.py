"""Tests of the document codec's JSON forms (``layoutkit.document/1``, the published
view, and ``layoutkit.store/1``, the lossless store) and of atomic writing.

The published view is checked on page 5 of the Federal Register of 6 August 2020
(three columns, a running header, a footer and a rotated margin note) and, value by
value, on a small document built by hand; the store on that small document.
"""

from __future__ import annotations

import errno
import json
import os
import re
import stat
from pathlib import Path
from typing import Any

import pytest

import layoutkit
from layoutkit.errors import DocumentError
from layoutkit.files import write_atomic
from layoutkit.model import (
    Band,
    BandKind,
    BBox,
    Block,
    Column,
    Document,
    Line,
    LineType,
    OcrQuality,
    Page,
    Table,
    Word,
    codec,
)
from layoutkit.outputs import SCHEMA, document_json, dumps

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures/pdf/federal-register-2020-08-06.pdf"
HEADER_TEXT = ("47702 Federal Register / Vol. 85, No. 152 / Thursday, August 6, 2020 / "
               "Proposed Rules")
LINE_KEYS = {"text", "bbox", "band", "column", "block", "lineType", "fontSize", "fonts"}


@pytest.fixture(scope="module")
def document() -> Document:
    """Page 5 of the Federal Register fixture, parsed once for the module."""
    return layoutkit.parse(FIXTURE, pages=[5])


@pytest.fixture(scope="module")
def data(document: Document) -> dict[str, Any]:
    """The JSON-ready data of :func:`document`."""
    return document_json(document)


@pytest.fixture(scope="module")
def page(data: dict[str, Any]) -> dict[str, Any]:
    """The single page of :func:`data`."""
    pages: list[dict[str, Any]] = data["pages"]
    assert len(pages) == 1
    return pages[0]


def is_box(value: object) -> bool:
    """Whether ``value`` is ``[x0, top, x1, bottom]``: four floats, not upside down."""
    return (isinstance(value, list) and len(value) == 4
            and all(type(v) is float for v in value)
            and value[0] <= value[2] and value[1] <= value[3])


def inside(inner: list[float], outer: list[float]) -> bool:
    """Whether box ``inner`` lies within box ``outer``."""
    return (outer[0] <= inner[0] and inner[2] <= outer[2]
            and outer[1] <= inner[1] and inner[3] <= outer[3])


# --------------------------------------------------------------------------- the real page


def test_output_top_level_keys_and_values(data: dict[str, Any]) -> None:
    """The document object holds exactly schema, document, pageCount and pages."""
    assert set(data) == {"schema", "document", "pageCount", "pages"}
    assert data["schema"] == SCHEMA == "layoutkit.document/1"
    assert data["document"] == "federal-register-2020-08-06.pdf"
    assert data["pageCount"] == 15
    assert len(data["pages"]) == 1


def test_output_page_number_and_size(page: dict[str, Any]) -> None:
    """A page holds its 1-based number, its size in points, its bands and lines."""
    assert set(page) == {"pageNo", "width", "height", "bands", "lines"}
    assert page["pageNo"] == 5
    assert page["width"] == 612
    assert page["height"] == 792


def test_output_page_labels_where_the_pdf_has_them() -> None:
    """A page of a PDF with page labels carries its label (the lecture notes' front
    matter is numbered i-iii, the body from 1); a PDF without them gives none."""
    notes = document_json(layoutkit.parse("fixtures/pdf/geotopo-lecture-notes-de.pdf",
                                          pages="2-5", typed=False))
    assert [(p["pageNo"], p["label"]) for p in notes["pages"]] == [
        (2, "ii"), (3, "iii"), (4, "1"), (5, "2")]


def test_output_bands_and_columns_are_indexed_boxes_on_the_page(page: dict[str, Any]) -> None:
    """Bands and their columns carry their own index and a box inside the page."""
    whole = [0.0, 0.0, page["width"], page["height"]]
    assert page["bands"]
    for number, band in enumerate(page["bands"]):
        assert set(band) == {"index", "kind", "bbox", "columns"}
        assert band["index"] == number
        assert band["kind"] in {"header", "body", "footer", "margin"}
        assert is_box(band["bbox"]) and inside(band["bbox"], whole)
        assert band["columns"]
        for position, column in enumerate(band["columns"]):
            assert set(column) == {"index", "bbox"}
            assert column["index"] == position
            assert is_box(column["bbox"]) and inside(column["bbox"], band["bbox"])


def test_output_page_5_has_three_body_columns(page: dict[str, Any]) -> None:
    """The page's header band comes first and its main body band has three columns."""
    kinds = [band["kind"] for band in page["bands"]]
    assert kinds[0] == "header"
    assert "footer" in kinds
    assert max(len(band["columns"]) for band in page["bands"] if band["kind"] == "body") == 3


def test_output_every_line_is_well_formed(page: dict[str, Any]) -> None:
    """Each line has text, a box in its column on the page, valid indexes and a type."""
    whole = [0.0, 0.0, page["width"], page["height"]]
    bands = page["bands"]
    assert len(page["lines"]) > 100
    for line in page["lines"]:
        assert set(line) == LINE_KEYS
        assert isinstance(line["text"], str) and line["text"].strip()
        assert is_box(line["bbox"]) and inside(line["bbox"], whole)
        assert type(line["band"]) is int and 0 <= line["band"] < len(bands)
        columns = bands[line["band"]]["columns"]
        assert type(line["column"]) is int and 0 <= line["column"] < len(columns)
        assert inside(line["bbox"], columns[line["column"]]["bbox"])
        assert type(line["block"]) is int and line["block"] >= 0
        assert re.fullmatch(r"h|f|b|lb|ln|toc|tab|h_[1-9]", line["lineType"])
        assert type(line["fontSize"]) is float and line["fontSize"] > 0
        assert line["fonts"] and all(isinstance(f, str) and f for f in line["fonts"])


def test_output_lines_follow_band_and_column_order(page: dict[str, Any]) -> None:
    """Lines run band by band, column by column, blocks numbered upward within a column."""
    places = [(line["band"], line["column"], line["block"]) for line in page["lines"]]
    assert places == sorted(places)


def test_output_running_header_is_the_first_line_typed_h(page: dict[str, Any]) -> None:
    """The page's running header, with its page number, is the first line and typed "h"."""
    first = page["lines"][0]
    assert first["text"] == HEADER_TEXT
    assert first["lineType"] == "h"
    assert [line["text"] for line in page["lines"] if line["lineType"] == "h"] == [HEADER_TEXT]


def test_output_body_lines_joined_equal_page_text(
    page: dict[str, Any], document: Document,
) -> None:
    """The lines not typed "h" or "f", joined by newlines, are exactly ``Page.text()``."""
    body = [line["text"] for line in page["lines"] if line["lineType"] not in ("h", "f")]
    assert "\n".join(body) == document[0].text()
    every = [line["text"] for line in page["lines"]]
    assert "\n".join(every) == document[0].text(furniture=True)


def test_output_dumps_round_trips_and_keeps_non_ascii(document: Document) -> None:
    """dumps() parses back to document_json() and writes ’ and – as themselves."""
    text = dumps(document)
    assert text.endswith("}\n")
    assert json.loads(text) == document_json(document)
    assert "FAA’s Determination" in text
    assert "737–00–1028" in text
    assert "\\u" not in text


# --------------------------------------------------------------------------- a document by hand


def tiny_document() -> Document:
    """One page, one band, one column, two lines: one header, one body line."""
    box = BBox(72.0, 100.0, 300.0, 130.0)
    header = Line("Diário Oficial da União", BBox(72.0, 30.0, 250.456, 41.0),
                  (Word("Diário", BBox(72.0, 30.0, 110.0, 41.0), "Times-Bold", 11.0),
                   Word("Oficial", BBox(113.0, 30.0, 150.0, 41.0), "Times-Roman", 11.0),
                   Word("da União", BBox(153.0, 30.0, 250.456, 41.0), "Times-Roman", 11.0)),
                  page_no=1, band=0, column=0, block=0, line_type=LineType.HEADER)
    body = Line("Agência Nacional de Águas — São Paulo", BBox(72.004, 100.0, 299.996, 110.5),
                (Word("Agência Nacional de Águas — São Paulo",
                      BBox(72.004, 100.0, 299.996, 110.5), "Helvetica", 9.5),),
                page_no=1, band=1, column=0, block=0)
    bands = (
        Band(0, BandKind.HEADER, BBox(72.0, 30.0, 250.456, 41.0),
             (Column(0, BBox(72.0, 30.0, 250.456, 41.0),
                     (Block((header,), header.bbox),)),)),
        Band(1, BandKind.BODY, box, (Column(0, box, (Block((body,), body.bbox),)),)),
    )
    return Document(Path("/somewhere/diário.pdf"), (Page(1, 595.276, 841.89, bands),), 3)


def test_output_document_json_of_a_hand_built_document() -> None:
    """document_json gives the documented structure with values rounded to 2 places."""
    assert document_json(tiny_document()) == {
        "schema": "layoutkit.document/1", "document": "diário.pdf", "pageCount": 3,
        "pages": [{
            "pageNo": 1, "width": 595.28, "height": 841.89,
            "bands": [
                {"index": 0, "kind": "header", "bbox": [72.0, 30.0, 250.46, 41.0],
                 "columns": [{"index": 0, "bbox": [72.0, 30.0, 250.46, 41.0]}]},
                {"index": 1, "kind": "body", "bbox": [72.0, 100.0, 300.0, 130.0],
                 "columns": [{"index": 0, "bbox": [72.0, 100.0, 300.0, 130.0]}]},
            ],
            "lines": [
                {"text": "Diário Oficial da União", "bbox": [72.0, 30.0, 250.46, 41.0],
                 "band": 0, "column": 0, "block": 0, "lineType": "h", "fontSize": 11.0,
                 "fonts": ["Times-Bold", "Times-Roman"]},
                {"text": "Agência Nacional de Águas — São Paulo",
                 "bbox": [72.0, 100.0, 300.0, 110.5], "band": 1, "column": 0, "block": 0,
                 "lineType": "b", "fontSize": 9.5, "fonts": ["Helvetica"]},
            ],
        }],
    }


def test_output_dumps_writes_non_ascii_as_utf8_not_escapes(tmp_path: Path) -> None:
    """Non-ASCII text survives dumps and write_atomic unchanged, as UTF-8 bytes."""
    text = dumps(tiny_document())
    assert "Agência Nacional de Águas — São Paulo" in text
    assert "\\u" not in text
    target = tmp_path / "tiny.json"
    write_atomic(target, text)
    raw = target.read_bytes()
    assert "Agência Nacional de Águas — São Paulo".encode() in raw
    assert b"\\u" not in raw
    assert json.loads(raw.decode("utf-8"))["pages"][0]["lines"][1]["text"] == (
        "Agência Nacional de Águas — São Paulo")


# --------------------------------------------------------------------------- write_atomic


def test_output_write_atomic_writes_utf8_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    """write_atomic creates the file with exactly the UTF-8 text and nothing beside it."""
    target = tmp_path / "out.txt"
    write_atomic(target, "première ligne\r\nsecond\n")
    assert target.read_bytes() == "première ligne\r\nsecond\n".encode()
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]


def test_output_write_atomic_into_a_missing_folder_names_the_file(tmp_path: Path) -> None:
    """A file asked for in a folder that does not exist fails naming that file, not the
    temporary file it would have been written through."""
    target = tmp_path / "missing" / "out.json"
    with pytest.raises(FileNotFoundError) as raised:
        write_atomic(target, "{}\n")
    assert raised.value.filename == str(target)


def test_output_write_atomic_replaces_an_existing_file(tmp_path: Path) -> None:
    """write_atomic over an existing, longer file leaves exactly the new text."""
    target = tmp_path / "out.txt"
    target.write_text("old\n" * 1000, encoding="utf-8")
    write_atomic(target, "new\n")
    assert target.read_text(encoding="utf-8") == "new\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]


def test_output_write_atomic_failure_leaves_nothing_behind(tmp_path: Path) -> None:
    """A write that cannot be completed raises OSError and removes its temporary file."""
    target = tmp_path / "taken"
    target.mkdir()
    with pytest.raises(IsADirectoryError):
        write_atomic(target, "text\n")
    assert [p.name for p in tmp_path.iterdir()] == ["taken"]
    assert list(target.iterdir()) == []


def test_output_write_atomic_writes_through_a_symlink(tmp_path: Path) -> None:
    """A link is followed: its target gets the text, the link stays a link to it, and
    a dangling link creates its target."""
    (tmp_path / "target.txt").write_text("old\n", encoding="utf-8")
    (tmp_path / "link.txt").symlink_to("target.txt")
    write_atomic(tmp_path / "link.txt", "new\n")
    assert (tmp_path / "link.txt").is_symlink()
    assert (tmp_path / "link.txt").readlink() == Path("target.txt")
    assert (tmp_path / "target.txt").read_text(encoding="utf-8") == "new\n"
    (tmp_path / "dangling").symlink_to("created.txt")
    write_atomic(tmp_path / "dangling", "made\n")
    assert (tmp_path / "created.txt").read_text(encoding="utf-8") == "made\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "created.txt", "dangling", "link.txt", "target.txt"]


def test_output_write_atomic_symlink_loop_is_an_oserror_naming_the_file(tmp_path: Path) -> None:
    """A symlink loop raises OSError (ELOOP) naming the path asked for, and writes nothing."""
    (tmp_path / "a").symlink_to("b")
    (tmp_path / "b").symlink_to("a")
    with pytest.raises(OSError) as raised:
        write_atomic(tmp_path / "a", "text\n")
    assert (raised.value.errno, raised.value.filename) == (errno.ELOOP, str(tmp_path / "a"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a", "b"]


def test_output_write_atomic_writes_a_device_in_place(tmp_path: Path) -> None:
    """A device is written in place, never replaced by a rename: /dev/null (reached
    through a link, so a regression replaces the link and not the device) stays the
    character device, and the full device /dev/full raises ENOSPC naming the path."""
    (tmp_path / "null").symlink_to(os.devnull)
    write_atomic(tmp_path / "null", "text\n")
    assert stat.S_ISCHR((tmp_path / "null").stat().st_mode)
    (tmp_path / "full").symlink_to("/dev/full")
    with pytest.raises(OSError) as raised:
        write_atomic(tmp_path / "full", "text\n")
    assert (raised.value.errno, raised.value.filename) == (
        errno.ENOSPC, str(tmp_path / "full"))
    assert stat.S_ISCHR((tmp_path / "full").stat().st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["full", "null"]


def test_output_write_atomic_fifo_is_written_in_place_or_refused(tmp_path: Path) -> None:
    """A FIFO stays a FIFO: with a reader it receives the text; with none the write is
    refused at once (ENXIO) instead of waiting for one."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(OSError) as raised:
        write_atomic(fifo, "text\n")
    assert raised.value.errno == errno.ENXIO
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        write_atomic(fifo, "text\n")
        assert os.read(reader, 100) == b"text\n"
    finally:
        os.close(reader)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["fifo"]


def test_output_write_atomic_into_missing_folder_raises(tmp_path: Path) -> None:
    """write_atomic into a folder that does not exist raises and creates nothing."""
    with pytest.raises(FileNotFoundError):
        write_atomic(tmp_path / "absent" / "out.txt", "text\n")
    assert list(tmp_path.iterdir()) == []


def test_output_write_atomic_to_relative_name_in_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A bare file name is written into the current folder."""
    monkeypatch.chdir(tmp_path)
    write_atomic(Path("plain.txt"), "text\n")
    assert (tmp_path / "plain.txt").read_text(encoding="utf-8") == "text\n"
    assert [p.name for p in tmp_path.iterdir()] == ["plain.txt"]


def test_output_write_atomic_file_has_the_usual_permissions(tmp_path: Path) -> None:
    """A new file gets the permissions open() would give it (0666 less the umask)."""
    previous = os.umask(0o022)  # a known umask, so that 0600 cannot pass by chance
    try:
        reference = tmp_path / "reference.txt"
        reference.write_text("text\n", encoding="utf-8")
        target = tmp_path / "out.txt"
        write_atomic(target, "text\n")
    finally:
        os.umask(previous)
    assert stat.S_IMODE(reference.stat().st_mode) == 0o644
    assert stat.S_IMODE(target.stat().st_mode) == 0o644


# --------------------------------------------------------------------------- the store


def test_output_the_published_view_is_the_codecs() -> None:
    """layoutkit.outputs offers the codec's published view, not a second encoding."""
    assert SCHEMA == codec.DOCUMENT_SCHEMA == "layoutkit.document/1"
    assert document_json is codec.document_json and dumps is codec.dumps


def stored_example() -> Document:
    """:func:`tiny_document` with what only the store keeps: unrounded numbers, words,
    OCR quality, a table with a merged cell and text outside the Basic Multilingual
    Plane."""
    tiny = tiny_document()
    return Document(Path("/somewhere/diário 😀.pdf"), tiny.pages, 3,
                    (Table(1, BBox(1.0 / 3.0, 2.0, 3.0, 4.0), (("a", None), ("東京", "é"))),),
                    (OcrQuality(1, 12, 0.912345678, None, "tesseract: ünïcode"),))


def test_output_store_loads_what_store_dumps_wrote_exactly() -> None:
    """store_loads(store_dumps(d)) == d, every float and character as it was, and the
    text keeps non-ASCII characters as themselves."""
    document = stored_example()
    text = codec.store_dumps(document)
    assert json.loads(text)["schema"] == codec.STORE_SCHEMA == "layoutkit.store/1"
    assert "\\u" not in text and "東京" in text and "\n" not in text
    again = codec.store_loads(text)
    assert again == document
    assert again.pages[0].lines[0].bbox.x1 == 250.456 and again.ocr[0].confidence == 0.912345678
    assert codec.decode(Page, codec.encode(document.pages[0])) == document.pages[0]


def test_output_store_reads_a_file_an_earlier_version_wrote() -> None:
    """A ``layoutkit.store/1`` file as the document API wrote it before the codec."""
    text = ('{"schema": "layoutkit.store/1", "document": {"path": "old.pdf", "pages": '
            '[{"page_no": 2, "width": 612.0, "height": 792.0, "bands": [{"index": 0, '
            '"kind": "body", "bbox": {"x0": 1.0, "top": 2.0, "x1": 3.0, "bottom": 4.0}, '
            '"columns": []}], "label": "ii"}], "page_count": 5, "tables": [], "ocr": []}}')
    document = codec.store_loads(text)
    assert document == Document(Path("old.pdf"), (Page(2, 612.0, 792.0, (
        Band(0, BandKind.BODY, BBox(1.0, 2.0, 3.0, 4.0), ()),), "ii"),), 5)


def test_output_store_reads_words_an_earlier_version_wrote() -> None:
    """A stored word of a version before directions (``upright``) reads with the
    direction it stood for: upright 0, rotated 90 (read bottom to top)."""
    words = [{"text": t, "bbox": {"x0": 1.0, "top": 2.0, "x1": 3.0, "bottom": 4.0},
              "font": "F", "size": 9.0, "upright": up, "stream": 0}
             for t, up in (("a", True), ("b", False))]
    decoded = [codec.decode(Word, word) for word in words]
    assert [(w.text, w.direction, w.upright) for w in decoded] == [("a", 0, True),
                                                                 ("b", 90, False)]


@pytest.mark.parametrize(("text", "message"), [
    ('{"schema": "layoutkit.store/9", "document": {}}',
     "x.json: schema 'layoutkit.store/9' is unknown to this version of layoutkit; "
     "expected 'layoutkit.store/1'"),
    ('{"document": {}}', "x.json: schema None is unknown"),
    ('{"schema": "layoutkit.document/1", "document": "a.pdf", "pages": []}',
     "x.json: schema 'layoutkit.document/1' is the published view"),
    ('{"schema": "layoutkit.store/1", "page": {}}', "x.json: a layoutkit.store/1 file without"),
    ('{"schema": "layoutkit.store/1", "document": {"path": "a.pdf", "colour": 1}}',
     "x.json: not a valid layoutkit.store/1 document: Document has no field 'colour'"),
    ('{"schema": "layoutkit.store/1", "document": {"path": "a.pdf"}}',
     "x.json: not a valid layoutkit.store/1 document: "),
    ("{", "x.json: not JSON"),
])
def test_output_store_loads_refuses_what_it_cannot_read_in_one_line(
        text: str, message: str) -> None:
    """Another schema, the published view, a page's file, a field the model has not
    and text that is not JSON are each a one-line DocumentError naming the file."""
    with pytest.raises(DocumentError) as raised:
        codec.store_loads(text, "x.json")
    assert str(raised.value).startswith(message) and "\n" not in str(raised.value)


def test_output_is_stored_document_finds_every_store_version_and_nothing_else() -> None:
    """A folder is searched for stored documents of any version (so that a newer one
    is reported, not passed over), never for a page's file or the published view."""
    assert codec.is_stored_document(codec.store_dumps(tiny_document()))
    assert codec.is_stored_document('{"schema": "layoutkit.store/2", "document": {}}')
    assert not codec.is_stored_document(codec.store_dumps(tiny_document().pages[0]))
    assert not codec.is_stored_document(dumps(tiny_document()))
    assert not codec.is_stored_document("[1]") and not codec.is_stored_document("{")
