"""The Python API's habits: a document named in its ``repr``, closed by a ``with``
block, a page by its number (``doc.page(5)``) beside ``doc[i]``, and a page drawn on
as pdfplumber's ``PageImage`` is (``to_image``, ``draw_lines``, ``draw_columns``,
``draw_bands``, ``save``, ``_repr_png_`` for notebooks)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

import layoutkit
from layoutkit.model import LineType
from layoutkit.outputs.draw import LINE_COLOURS, PageImage

REPO = Path(__file__).resolve().parent.parent
RECORD = REPO / "fixtures" / "pdf" / "cleveland-city-record-2016-04-27.pdf"
FEDERAL = REPO / "fixtures" / "pdf" / "federal-register-2020-08-06.pdf"


def test_document_repr_page_by_number_and_with() -> None:
    document = layoutkit.parse(RECORD, pages="2,5-6")
    assert repr(document) == f"<Document {str(RECORD)!r} 3 pages>"
    assert repr(layoutkit.parse(RECORD, pages="5")) == f"<Document {str(RECORD)!r} 1 page>"
    assert document.page(5) is document[1] and document.page(6).page_no == 6
    with pytest.raises(KeyError, match="page 3 was not parsed; pages parsed: 2,5-6"):
        document.page(3)
    with document as same:
        assert same is document
    assert RECORD.is_file()  # a document read from its file leaves the file alone


def test_text_document_of_bytes_is_closed_by_with() -> None:
    with layoutkit.TextDocument(RECORD.read_bytes()) as document:
        assert repr(document) == "<TextDocument '<bytes>' 38 pages>"
        copy = document.layout.source
        assert copy is not None and copy.is_file()
        page = document.page(27)
        assert page.page_no == 27 and page.text() == document[26].text()
        assert repr(page) == "<TextPage 27 of '<bytes>'>"
    assert not copy.exists()


def test_page_to_image_draws_lines_columns_and_bands(tmp_path: Path) -> None:
    document = layoutkit.TextDocument(FEDERAL)
    page = document.page(1)
    image = page.to_image(resolution=50)
    assert isinstance(image, PageImage)
    width, height = round(page.layout.width * 50 / 72), round(page.layout.height * 50 / 72)
    assert abs(image.original.width - width) <= 1 and abs(image.original.height - height) <= 1
    # a body line's box takes its colour over the white page
    line = next(x for x in page.layout.lines if x.line_type is LineType.BODY and len(x.text) > 30)
    middle = (round((line.bbox.x0 + line.bbox.x1) / 2 * image.scale),
              round((line.bbox.top + line.bbox.bottom) / 2 * image.scale))
    before = image.original.getpixel(middle)
    after = image.draw_lines().annotated.getpixel(middle)
    assert before != after
    blue = LINE_COLOURS[LineType.BODY]
    assert isinstance(after, tuple) and after[2] - after[0] > 20 and blue[2] > blue[0]
    # columns and bands draw their outlines: more pixels change
    lined = image.annotated
    image.draw_columns().draw_bands()
    assert image.annotated.tobytes() != lined.tobytes()
    target = tmp_path / "page1.png"
    image.save(target)
    with Image.open(target) as saved:
        assert saved.width == image.annotated.width and saved.height > image.annotated.height
    png = image._repr_png_()
    assert png.startswith(b"\x89PNG") and Image.open(io.BytesIO(png)).size == Image.open(
        target).size
    assert image.reset().annotated is image.original
    with pytest.raises(layoutkit.UsageError, match="dpi 2000: expected 10 to 600"):
        page.to_image(resolution=2000)
