"""The Python API as a newcomer first meets it: the README's calls work as written,
values print short, every page draws itself, a page not parsed is named in one line,
text is a method everywhere, pictures draw what pdfplumber's draw, and ``parse`` takes
the settings asked for most by name."""

from __future__ import annotations

import inspect
import tomllib
import warnings
from pathlib import Path

import pytest

import layoutkit
from layoutkit import LayoutConfig, TextDocument
from layoutkit.errors import ConfigTypeError, LayoutkitError, PageNotParsedError, UsageError
from layoutkit.model import BBox, LineType, Page
from layoutkit.nlp.tokens import analyse
from layoutkit.outputs.draw import PageImage, table_regions
from layoutkit.sources import DEFAULT_ENGINE
from tests.test_ocr import mixed_pdf
from tests.test_output import tiny_document

REPO = Path(__file__).resolve().parent.parent
RECORD = REPO / "fixtures" / "pdf" / "cleveland-city-record-2016-04-27.pdf"
FEDERAL = REPO / "fixtures" / "pdf" / "federal-register-2020-08-06.pdf"


@pytest.fixture(scope="module")
def record() -> layoutkit.Document:
    return layoutkit.parse(RECORD, pages="5")


@pytest.fixture(scope="module")
def federal() -> layoutkit.Document:
    return layoutkit.parse(FEDERAL, pages="6", tables=True)


def tokens(document: layoutkit.Document, config: object) -> list[str]:
    analysis = analyse(document, config)  # type: ignore[arg-type]
    return [t.text for _, doc in analysis.paragraphs for t in doc]


def test_api_analyse_takes_the_whole_config_or_its_nlp_section() -> None:
    """``analyse(doc.layout, doc.config)`` as the README writes it reads the config's
    ``nlp`` section; the section alone reads the same; anything else is a TypeError of
    one line naming what was given."""
    document = tiny_document()
    body = ["Agência", "Nacional", "de", "Águas", "—", "São", "Paulo"]
    assert tokens(document, LayoutConfig()) == body
    assert tokens(document, LayoutConfig().nlp) == body
    kept = LayoutConfig().replace(spacy_ignore_line_type_header=False)
    assert tokens(document, kept) == ["Diário", "Oficial", "da", "União", *body]
    with pytest.raises(ConfigTypeError) as raised:
        analyse(document, {"spacy_ignore_line_type_header": False})  # type: ignore[arg-type]
    assert isinstance(raised.value, TypeError) and isinstance(raised.value, LayoutkitError)
    assert str(raised.value) == ("config: expected a LayoutConfig or its nlp section "
                                 "(NlpConfig), got dict")


def test_api_values_print_short_saying_what_they_are(record: layoutkit.Document) -> None:
    """A page (168 KB of dataclass repr before) and the values in it print in a line:
    page number, size, counts and the beginning of the text."""
    page = tiny_document().pages[0]
    assert repr(page) == ("<Page 1 595.276x841.89: 2 bands, 2 columns, 2 blocks, 2 lines, "
                          "4 words: 'Agência Nacional de Águas — São Paulo'>")
    assert repr(page.bands[1]) == ("<Band 1 body: 1 column, 1 line at (72, 100, 300, 130): "
                                   "'Agência Nacional de Águas — São Paulo'>")
    assert repr(page.bands[0].columns[0]) == (
        "<Column 0: 1 block, 1 line at (72, 30, 250.5, 41): 'Diário Oficial da União'>")
    assert repr(page.bands[0].columns[0].blocks[0]) == (
        "<Block 1 line, 3 words at (72, 30, 250.5, 41): 'Diário Oficial da União'>")
    assert repr(page.lines[0]) == ("<Line 'Diário Oficial da União' page 1, band 0, column 0, "
                                   "block 0, h, 3 words at (72, 30, 250.5, 41)>")
    real = record[0]
    assert repr(real).startswith("<Page 5 ('5') 603x783: 3 bands, 5 columns, ")
    assert repr(real).endswith(" words: 'Finance, Law; Committees on Devel-⏎opmen…'>")
    assert len(repr(real)) < 150
    assert all(len(repr(value)) < 200 for value in (
        record, *real.bands, *(c for b in real.bands for c in b.columns), *real.lines))


def test_api_model_page_draws_itself_as_its_text_page(record: layoutkit.Document) -> None:
    """``Page.to_image`` gives the picture ``TextPage.to_image`` gives (the same
    code); a page made by hand has no file to be drawn from."""
    image = record.page(5).to_image(resolution=40)
    assert isinstance(image, PageImage)
    assert image.original.size == (round(603 * 40 / 72), round(783 * 40 / 72))
    same = TextDocument.from_layout(record).page(5).to_image(resolution=40)
    assert same.original.tobytes() == image.original.tobytes()
    with pytest.raises(UsageError, match="page 1: no file to draw it from"):
        tiny_document().pages[0].to_image()


def test_api_page_not_parsed_is_named_in_one_line(record: layoutkit.Document) -> None:
    """``doc.page(1)`` of a parse of page 5 raises the project's error (a KeyError
    too), naming the page asked for and the pages parsed, unquoted."""
    with pytest.raises(PageNotParsedError) as raised:
        record.page(1)
    assert isinstance(raised.value, KeyError) and isinstance(raised.value, LayoutkitError)
    assert str(raised.value) == f"{RECORD}: page 1 was not parsed; pages parsed: 5"
    with pytest.raises(PageNotParsedError, match="page 4 was not parsed; pages parsed: 5"):
        TextDocument.from_layout(record).page(4)


def test_api_text_is_a_method_everywhere_the_attribute_deprecated() -> None:
    """``TextDocument.text()`` and ``TextPage.text()`` are methods, as
    ``Document.text()`` and ``Page.text()`` are; the attribute form still gives what it
    gave, with a DeprecationWarning."""
    layout = tiny_document()
    doc = TextDocument.from_layout(layout)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert doc.text() == layout.text() == "Agência Nacional de Águas — São Paulo"
        assert doc[0].text() == layout.pages[0].text()
        assert doc[0].text(furniture=True) == ("Diário Oficial da União\n"
                                               "Agência Nacional de Águas — São Paulo")
        assert doc.text(furniture=True) == layout.text(furniture=True)
    with pytest.warns(DeprecationWarning, match=r"TextDocument.text is a method"):
        assert doc.text == ["Agência Nacional de Águas — São Paulo"]
    with pytest.warns(DeprecationWarning, match=r"TextPage.text is a method"):
        assert doc[0].text.split()[0] == "Agência"
    with pytest.warns(DeprecationWarning):
        assert doc.text[0] == doc[0].text()


def test_api_page_image_draws_rects_words_blocks_and_tables(
        federal: layoutkit.Document) -> None:
    """``draw_rect``/``draw_rects`` take boxes, values holding one, tuples and mappings
    with pdfplumber's fill, stroke and stroke width; ``draw_words`` and ``draw_blocks``
    outline the page's; ``debug_tablefinder`` outlines the tables the typer found and
    fills their cells."""
    page = federal.page(6)
    image = page.to_image(resolution=72)

    def at(x: float, y: float) -> tuple[int, ...]:
        pixel = image.annotated.getpixel((round(x * image.scale), round(y * image.scale)))
        assert isinstance(pixel, tuple)
        return pixel

    word = next(w for line in page.lines for w in line.words if len(w.text) > 6)
    assert at(word.bbox.x0, word.bbox.top) != (255, 0, 0)
    image.draw_words(fill=None, stroke=(255, 0, 0), stroke_width=1)
    assert at(word.bbox.x0, word.bbox.top) == (255, 0, 0)
    image.reset().draw_rect((300, 700, 320, 720), fill=(0, 255, 0), stroke=None)
    assert at(310, 710) == (0, 255, 0)
    image.draw_rects([{"x0": 300, "top": 730, "x1": 320, "bottom": 750}], fill=(0, 0, 255))
    stroke = at(300, 730)  # the default stroke, red at alpha 200
    assert at(310, 740) == (0, 0, 255) and stroke[0] == 255 and stroke[1] == stroke[2] < 80
    block = page.bands[1].columns[0].blocks[0]
    image.reset().draw_blocks(stroke=(0, 150, 0))
    assert at(block.bbox.x0, (block.bbox.top + block.bbox.bottom) / 2) == (0, 150, 0)
    with pytest.raises(UsageError, match="cannot draw 'x'"):
        image.draw_rect("x")  # type: ignore[arg-type]

    regions = table_regions(page, federal.tables)
    assert [b.as_list(1) for b in regions] == [[190.9, 76.2, 493.3, 144.8]]
    assert sum(line.line_type is LineType.TABLE for line in page.lines) == 5
    image.reset().debug_tablefinder(tables=federal.tables)
    edge = at(300, 76.2)
    assert edge[0] > 200 and edge[1] < 60 and edge[2] < 60  # the table's outline, red
    row = next(x for x in page.lines if x.line_type is LineType.TABLE and "Labor" in x.text)
    word = next(w for w in row.words if w.text == "Labor")
    cell = at((word.bbox.x0 + word.bbox.x1) / 2, (word.bbox.top + word.bbox.bottom) / 2 - 1)
    before = image.original.getpixel((round((word.bbox.x0 + word.bbox.x1) / 2 * image.scale),
                                      round(((word.bbox.top + word.bbox.bottom) / 2 - 1)
                                            * image.scale)))
    assert isinstance(before, tuple) and cell != before and cell[2] > cell[0]


def test_api_parse_takes_ocr_and_lang_by_name(tmp_path: Path) -> None:
    """``parse(path, ocr=..., lang=...)`` sets the config keys ``ocr`` and
    ``ocr_languages``; its docstring says how to pass any other; ``engine``'s default
    is written as its value."""
    path = mixed_pdf(tmp_path / "mixed.pdf")
    never = layoutkit.parse(path, ocr="never")
    assert never.scanned == (False, None) and never[1].text() == ""
    german = layoutkit.parse(path, pages="2", lang="deu")
    assert [(q.page_no, q.language) for q in german.ocr] == [(2, "deu")]
    assert "like born digital ones" in german.page(2).text()
    with pytest.raises(layoutkit.ConfigError, match="'ocr': expected auto, always or never"):
        layoutkit.parse(path, ocr="sometimes")
    signature = inspect.signature(layoutkit.parse)
    assert signature.parameters["engine"].default == "pdfium" == DEFAULT_ENGINE
    assert "engine: 'str' = 'pdfium'" in str(signature)
    assert signature.parameters["ocr"].default is None
    doc = inspect.getdoc(layoutkit.parse) or ""
    assert "LayoutConfig().replace(" in doc and "``ocr_languages``" in doc


def test_api_pyproject_declares_its_licence_as_pep_639_says() -> None:
    """An SPDX expression and the licence file, no licence classifier, and a setuptools
    that reads them (77 or later): installing prints no deprecation warning."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["license"] == "Apache-2.0"
    assert project["project"]["license-files"] == ["LICENSE"]
    assert not [c for c in project["project"]["classifiers"] if c.startswith("License ::")]
    assert "setuptools>=77" in project["build-system"]["requires"]
    assert (REPO / "LICENSE").is_file()


def test_api_hand_built_page_repr_names_an_unread_page() -> None:
    """A page left unread says why instead of its counts."""
    page = Page(3, 612.0, 792.0, (), unreadable="draws more than page_max_content_bytes")
    assert repr(page) == "<Page 3 612x792: unreadable: draws more than page_max_content_bytes>"
    assert repr(BBox(1, 2, 3, 4)) == "BBox(x0=1, top=2, x1=3, bottom=4)"
