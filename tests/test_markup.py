"""Markdown, HTML and ALTO of the fixture documents, ``parse --words``, ``text
--paragraphs`` and the JSON Schemas of the published JSON: checked on every fixture of
fixtures/pdf with real parsers (markdown-it, lxml, the ALTO v4.4 XSD, jsonschema)."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pypdfium2 as pdfium
import pytest
from lxml import etree
from lxml import html as lxml_html
from markdown_it import MarkdownIt

import layoutkit
from layoutkit import LayoutConfig
from layoutkit.cli import main
from layoutkit.linetypes import outline, type_headings
from layoutkit.model import Document, LineType
from layoutkit.model.codec import document_json, dumps, json_schema
from layoutkit.nlp.paragraphs import paragraphs
from layoutkit.outputs.alto import NAMESPACE, alto
from layoutkit.outputs.html import html_document
from layoutkit.outputs.markdown import escape, markdown
from layoutkit.outputs.structure import paragraph_text, parts
from tests.linetype_pages import BOLD, L, document, prose
from tests.parsed import parsed

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = sorted((ROOT / "fixtures" / "pdf").glob("*.pdf"))
ALTO_DATA = Path(__file__).resolve().parent / "data" / "alto"
DMCA = ROOT / "fixtures" / "pdf" / "copyright-office-dmca-summary.pdf"
CORPUS = ROOT / "fixtures" / "corpus"
LINETYPES = LayoutConfig().linetypes
A = f"{{{NAMESPACE}}}"


@cache
def alto_schema() -> etree.XMLSchema:
    """The ALTO 4.4 schema, its XLink import answered from tests/data/alto, offline."""

    class Local(etree.Resolver):  # type: ignore[misc]
        def resolve(self, url: str, pubid: str, context: Any) -> Any:
            if url == "http://www.loc.gov/standards/xlink/xlink.xsd":
                return self.resolve_filename(str(ALTO_DATA / "xlink.xsd"), context)
            return None

    parser = etree.XMLParser(no_network=True)
    parser.resolvers.add(Local())
    return etree.XMLSchema(etree.parse(str(ALTO_DATA / "alto-4-4.xsd"), parser))


def markdown_headings(text: str) -> list[tuple[int, str]]:
    """The headings a CommonMark reader finds in ``text``: level and plain text."""
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    return [(int(token.tag[1:]), "".join(child.content for child in tokens[i + 1].children or ()
                                         if child.type in ("text", "code_inline")))
            for i, token in enumerate(tokens) if token.type == "heading_open"]


def ids(path: Path) -> str:
    return path.stem


# --------------------------------------------------------------------------- every fixture


@pytest.mark.parametrize("path", FIXTURES, ids=ids)
def test_markup_markdown_headings_are_the_outline_headings(path: Path) -> None:
    """The headings a Markdown reader finds are the outline's, level and text."""
    document = parsed(path)
    want = [(min(h.level, 6), h.text) for h in outline(document)]
    assert markdown_headings(markdown(document, LINETYPES)) == want


def test_markup_fixtures_have_headings() -> None:
    """The comparison above is not empty: every fixture but a page of vertical
    Japanese (a novel's running text) has headings."""
    counts = {path.stem: len(outline(parsed(path))) for path in FIXTURES}
    assert [stem for stem, count in counts.items() if not count] == [
        "wagahai-neko-vertical-p10"]


@pytest.mark.parametrize("path", FIXTURES, ids=lambda path: path.stem)
def test_markup_alto_validates_and_holds_every_line_and_word(path: Path) -> None:
    """ALTO validates against the ALTO 4.4 XSD; each page's strings, line by line, are
    the page's lines' words; furniture is in the margins, body in the print space."""
    document = parsed(path)
    tree = etree.fromstring(alto(document).encode("utf-8"))
    schema = alto_schema()
    assert schema.validate(tree), schema.error_log.filter_from_errors()[:3]
    assert tree.findtext(f"{A}Description/{A}MeasurementUnit") == "inch1200"
    pages = tree.findall(f"{A}Layout/{A}Page")
    assert [int(p.get("PHYSICAL_IMG_NR")) for p in pages] == [p.page_no for p in document]
    for element, page in zip(pages, document, strict=True):
        body = [" ".join(s.get("CONTENT") for s in line.iter(f"{A}String"))
                for line in element.find(f"{A}PrintSpace").iter(f"{A}TextLine")]
        assert "\n".join(body) == page.text()
        margins = sorted(" ".join(s.get("CONTENT") for s in line.iter(f"{A}String"))
                         for space in element if space.tag != f"{A}PrintSpace"
                         for line in space.iter(f"{A}TextLine"))
        assert margins == sorted(line.text for line in page.lines if line.furniture)


@pytest.mark.parametrize("path", FIXTURES, ids=lambda path: path.stem)
def test_markup_html_parses_and_its_headings_are_the_outline_headings(path: Path) -> None:
    """The HTML parses; its h1-h6 are the outline's headings; every element of the
    body carries its page and a box on it."""
    document = parsed(path)
    tree = lxml_html.document_fromstring(html_document(document, LINETYPES))
    headings = [(int(e.tag[1]), e.text_content())
                for e in tree.body.iter("h1", "h2", "h3", "h4", "h5", "h6")]
    assert headings == [(min(h.level, 6), h.text) for h in outline(document)]
    sizes = {p.page_no: (p.width, p.height) for p in document}
    for element in tree.body:
        x0, top, x1, bottom = map(float, element.get("data-bbox").split())
        width, height = sizes[int(element.get("data-page"))]
        assert 0 <= x0 <= x1 <= width + 1 and 0 <= top <= bottom <= height + 1


@pytest.mark.parametrize("path", FIXTURES, ids=lambda path: path.stem)
def test_markup_document_json_validates_with_and_without_words(path: Path) -> None:
    """``layoutkit parse`` output, and ``--words``, validate against the shipped JSON
    Schema of layoutkit.document/1; each line's words joined are its text."""
    document = parsed(path)
    schema = json_schema()
    jsonschema.validate(document_json(document), schema)
    with_words = json.loads(dumps(document, words=True))
    jsonschema.validate(with_words, schema)
    for page in with_words["pages"]:
        for line in page["lines"]:
            assert " ".join(w["text"] for w in line["words"]) == line["text"]


@pytest.mark.parametrize("path", FIXTURES, ids=lambda path: path.stem)
def test_markup_tokens_json_validates_against_its_schema(path: Path) -> None:
    """``layoutkit tokens`` output of each fixture's first three pages (English and
    German; the whole documents hold 100,000 tokens, a minute of validation; a page of
    contents set vertically, 49) validates against the shipped JSON Schema of
    layoutkit.tokens/1; a page number 0 does not."""
    from layoutkit.nlp.tokens import analyse, tokens_json

    schema = json.loads(resources.files("layoutkit.nlp").joinpath("tokens.schema.json")
                        .read_text("utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    count = len(pdfium.PdfDocument(path))
    data = tokens_json(analyse(layoutkit.parse(path, pages=f"1-{min(count, 3)}"),
                               LayoutConfig().nlp))
    assert sum(len(s["tokens"]) for p in data["pages"] for q in p["paragraphs"]
               for s in q["sentences"]) > 40
    jsonschema.validate(data, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**data, "pages": [{**data["pages"][0], "pageNo": 0}]}, schema)


@pytest.mark.parametrize("path", [p for p in sorted(CORPUS.glob("*.pdf"))
                                  if not p.stem.endswith("-scan")], ids=ids)
def test_markup_corpus_first_pages(path: Path) -> None:
    """The first three pages of each corpus document with a text layer (other
    publishers and languages; the scan is left to the OCR tests, a minute of OCR
    here): the Markdown's headings are the outline's, ALTO validates, the JSON too."""
    count = len(pdfium.PdfDocument(path))
    document = layoutkit.parse(path, pages=f"1-{min(count, 3)}")
    # a superscript note mark follows its word without the space the plain text has
    assert [(level, "".join(text.split())) for level, text in markdown_headings(
        markdown(document, LINETYPES))] == [
        (min(h.level, 6), "".join(h.text.split())) for h in outline(document)]
    schema = alto_schema()
    assert schema.validate(etree.fromstring(alto(document).encode("utf-8"))), \
        schema.error_log.filter_from_errors()[:3]
    jsonschema.validate(json.loads(dumps(document, words=True)), json_schema())


# --------------------------------------------------------------------------- real values


def test_markup_markdown_of_the_dmca_summary() -> None:
    """The first page: the title a level-1 heading, its subtitle and date line under it
    body, the first section a level-1 heading as the document's others, its five titles
    a bulleted list without their bullets, the footer left out; a heading hyphenated
    over two lines joined."""
    text = markdown(parsed(DMCA), LINETYPES)
    blocks = text.split("\n\n")
    assert blocks[:4] == ["# THE DIGITAL MILLENNIUM COPYRIGHT ACT OF 1998",
                          "U.S. Copyright Office Summary", "December 1998", "# INTRODUCTION"]
    items = next(b for b in blocks if b.startswith("- ")).split("\n")
    assert len(items) == 5
    assert items[0].startswith("- Title I, the “WIPO **Copyright and Performances")  # bold
    assert "## Copyright Office and NTIA Studies Relating to Technological Development" in blocks
    assert "Page 1" not in text and "Copyright Office Summary December 1998" not in text


def test_markup_html_of_the_dmca_summary() -> None:
    """The title's h1 stands where the page shows it; the list is a ul of five items."""
    tree = lxml_html.document_fromstring(html_document(parsed(DMCA), LINETYPES))
    h1 = tree.body.find("h1")
    assert (h1.text, h1.get("data-page"), h1.get("data-bbox")) == (
        "THE DIGITAL MILLENNIUM COPYRIGHT ACT OF 1998", "1", "138.24 73.92 473.68 89.04")
    first = tree.body.find("ul")
    assert len(first) == 5 and first.get("data-page") == "1"


def test_markup_alto_of_the_dmca_summary_page_1() -> None:
    """A US letter page is 10200 × 13200 units of 1/1200 inch; the running footer is
    in the bottom margin, words spaced by SP elements between them."""
    tree = etree.fromstring(alto(layoutkit.parse(DMCA, pages="1")).encode("utf-8"))
    page = tree.find(f"{A}Layout/{A}Page")
    assert (page.get("WIDTH"), page.get("HEIGHT")) == ("10200", "13200")
    footer = page.find(f"{A}BottomMargin/{A}TextBlock/{A}TextLine")
    assert footer.get("TAGREFS") == "type_f"
    kinds = [child.tag.removeprefix(A) for child in footer]
    assert kinds[:3] == ["String", "SP", "String"] and kinds.count("SP") == \
        kinds.count("String") - 1
    first = footer.find(f"{A}String")
    assert first.get("CONTENT") == "Copyright"
    assert (first.get("HPOS"), first.get("VPOS")) == ("1800", "11800")  # 108 pt, 708 pt


def test_markup_markdown_table_of_an_election_result() -> None:
    """An aligned table is a pipe table: the head's labels over their columns and every
    row of the first table with as many cells (Chatham's results, drawn without a
    grid); a ruled table's cells are its pipe table's (Lexington's, whose rules draw a
    grid, found by default)."""
    def first_table(path: Path) -> list[list[str]]:
        text = markdown(layoutkit.parse(path, pages="1"), LINETYPES)
        tokens = MarkdownIt("commonmark").enable("table").parse(text)
        rows: list[list[str]] = []
        for i, token in enumerate(tokens):
            if token.type == "table_close":
                break
            if token.type == "tr_open":
                rows.append([])
            elif token.type in ("th_open", "td_open"):
                rows[-1].append(tokens[i + 1].content)
        assert len({len(row) for row in rows}) == 1
        return rows

    rows = first_table(CORPUS / "chatham-town-clerk-election-report-2010.pdf")
    assert rows[0] == ["GOVERNOR & LIEUTENANT GOVERNOR", "PRECINCT 1", "PRECINCT 2", "TOTAL"]
    assert rows[1] == ["Patrick & Murray", "764", "899", "1663"]
    rows = first_table(CORPUS / "lexington-election-results-2016.pdf")
    assert ["Pct 8", "Pct 9", "TOTAL"] in [row[-3:] for row in rows]
    assert ["Total Reg Voters", "22113"] in [[row[0], row[-1]] for row in rows]


def test_markup_outline_keeps_a_title_apart_from_its_authors() -> None:
    """A paper's title over its authors' names in a smaller size: the title is the
    outline's first heading alone, and the Markdown's."""
    document = layoutkit.parse(CORPUS / "acl-2014-phrase-generation.pdf", pages="1")
    title = "How to make words with vectors: Phrase generation in distributional semantics"
    assert outline(document)[0].text == title
    assert markdown(document, LINETYPES).startswith(f"# {title}\n")


@pytest.mark.parametrize("text", [
    "# not a heading", "1. not a list", "2016) neither", "- nor a bullet", "a *b* _c_ `d`",
    "[link](x) <b> a | b &amp; \\", "+ plus", "=====", "Section 5 #"])
def test_markup_markdown_escape_reads_back_as_the_text(text: str) -> None:
    """Text that Markdown would read as markup reads back as itself."""
    tokens = MarkdownIt("commonmark").parse(escape(text))
    assert [t.type for t in tokens] == ["paragraph_open", "inline", "paragraph_close"]
    assert "".join(c.content for c in tokens[1].children or ()) == text


@pytest.mark.parametrize("text", ["2. ADVENTURE INVESTMENTS BOSTON, LLC", "= Equals Opens It",
                                  "+ Plus", "A *Starred* Heading"])
def test_markup_markdown_heading_escapes_inline_markup_only(text: str) -> None:
    """A heading's text is inline text, whatever it opens with: only its inline markup
    is escaped ('# 2. ADVENTURE', not '# 2\\. ADVENTURE'), and it reads back as itself."""
    typed = type_headings(document([L(text, 72, 0, 16, BOLD), *prose(100, 1, 4, "a")]),
                          LINETYPES)
    heading = markdown(typed, LINETYPES).split("\n")[0]
    assert heading.startswith("# ") and ("\\" in heading) == ("*" in text)
    tokens = MarkdownIt("commonmark").parse(heading)
    assert tokens[0].type == "heading_open"
    assert "".join(c.content for c in tokens[1].children or ()) == text


def test_markup_paragraph_text_joins_hyphenated_line_ends() -> None:
    """``text --paragraphs``: one paragraph a line, a word broken at a line end whole."""
    text = paragraph_text(parsed(DMCA), frozenset({"h", "f"}))
    lines = [p.removeprefix("\f") for p in text.split("\n")]
    assert "Copyright Office and NTIA Studies Relating to Technological Development" in lines
    assert not any(p.endswith("-") for p in lines)
    starts = {p.page_no for p in paragraphs(parsed(DMCA), frozenset({"h", "f"}))}
    # one page holds no paragraph's start; the end mark ("F") set under the last page's
    # text past a gap is a paragraph of its own
    assert text.count("\f") == len(starts) - 1 == 17


# --------------------------------------------------------------------------- command line


def test_markup_cli_writes_each_output_whole(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                             ) -> None:
    """``markdown``, ``html`` and ``alto`` with ``-o`` write the file whole (equal to the
    library's output) and print nothing; without ``-o`` they print it."""
    document = layoutkit.parse(DMCA, pages="1-2")
    expected = {"markdown": markdown(document, LINETYPES),
                "html": html_document(document, LINETYPES), "alto": alto(document)}
    for command, text in expected.items():
        out = tmp_path / f"out.{command}"
        assert main([command, str(DMCA), "--pages", "1-2", "-o", str(out)]) == 0
        assert out.read_text("utf-8") == text
        assert capsys.readouterr().out == ""
    assert main(["markdown", str(DMCA), "--pages", "1"]) == 0
    assert capsys.readouterr().out.startswith("# THE DIGITAL MILLENNIUM COPYRIGHT ACT")
    # no temporary file left beside them
    assert {p.name for p in tmp_path.iterdir()} == {"out.markdown", "out.html", "out.alto"}


def test_markup_cli_parse_words_and_text_paragraphs(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``parse --words`` gives each line its words with pdfplumber's keys and their
    font's weight; ``text
    --paragraphs`` prints what :func:`paragraph_text` gives."""
    out = tmp_path / "doc.json"
    assert main(["parse", str(DMCA), "--pages", "1", "--words", "-o", str(out)]) == 0
    line = json.loads(out.read_text("utf-8"))["pages"][0]["lines"][0]
    assert line["words"][0] == {"text": "THE", "x0": 138.24, "top": 73.92, "x1": 167.36,
                                "bottom": 89.04, "upright": True, "fontname": "Garamond,Bold",
                                "size": 15.12, "weight": 700}
    assert main(["parse", str(DMCA), "--pages", "1", "-o", str(out)]) == 0
    assert "words" not in json.loads(out.read_text("utf-8"))["pages"][0]["lines"][0]
    assert main(["text", str(DMCA), "--paragraphs"]) == 0
    assert capsys.readouterr().out == paragraph_text(parsed(DMCA), frozenset({"h", "f"}))


def test_markup_cli_ruled_table_cells_with_tables(capsys: pytest.CaptureFixture[str]) -> None:
    """With ``--tables`` a ruled table's own cells make the pipe table."""
    register = ROOT / "fixtures" / "pdf" / "federal-register-2020-08-06.pdf"
    assert main(["markdown", str(register), "--pages", "6", "--tables"]) == 0
    blocks = capsys.readouterr().out.split("\n\n")
    table = next(b for b in blocks if b.startswith("|")).split("\n")
    assert table[:2] == ["| Labor cost | Parts cost | Cost per product |", "| --- | --- | --- |"]
    assert table[2].startswith("| Up to 79 work-hours × $85 per hour = Up to $6,715. ")
    assert len(table) == 3


def hand_built(text: str) -> Document:
    """A one-page document: a running header and a body line whose words are ``text``'s."""
    from layoutkit.model import Band, BandKind, BBox, Block, Column, Line, LineType, Page, Word

    def line(words: list[str], top: float, band: int, kind: LineType) -> Line:
        boxes = [BBox(72.0 + 40 * i, top, 100.0 + 40 * i, top + 10) for i in range(len(words))]
        return Line(" ".join(words), BBox.union(boxes), tuple(
            Word(w, b, "Times-Roman", 10.0) for w, b in zip(words, boxes, strict=True)),
            1, band, 0, 0, kind)

    header = line(["Gazette", "7"], 30.0, 0, LineType.HEADER)
    body = line(text.split(" "), 100.0, 1, LineType.BODY)
    bands = tuple(Band(i, kind, x.bbox, (Column(0, x.bbox, (Block((x,), x.bbox),)),))
                  for i, (kind, x) in enumerate(((BandKind.HEADER, header),
                                                 (BandKind.BODY, body))))
    return Document(Path("/x/hand <built>.pdf"), (Page(1, 612.0, 792.0, bands),), 1)


def test_markup_text_that_is_markup_or_no_xml_is_escaped_or_left_out() -> None:
    """Angle brackets, ampersands and quotes are text in all three outputs; a control
    character (which XML forbids) is left out, and the ALTO still validates."""
    document = hand_built('<b>Tom & "Jerry"</b> \x0cform-feed')
    tree = etree.fromstring(alto(document).encode("utf-8"))
    assert alto_schema().validate(tree)
    assert [s.get("CONTENT") for s in tree.iter(f"{A}String")] == [
        "Gazette", "7", "<b>Tom", "&", '"Jerry"</b>', "form-feed"]
    assert tree.find(f"{A}Layout/{A}Page/{A}TopMargin") is not None
    page = lxml_html.document_fromstring(html_document(document, LINETYPES))
    assert page.body.find("p").text == '<b>Tom & "Jerry"</b> form-feed'
    assert page.find("head/title").text == "hand <built>.pdf"
    tokens = MarkdownIt("commonmark").parse(markdown(document, LINETYPES))
    assert "".join(c.content for c in tokens[1].children or ()) == \
        '<b>Tom & "Jerry"</b> form-feed'  # the form feed is white space to Markdown


def test_markup_cli_reads_standard_input_and_writes_standard_output() -> None:
    """``cat doc.pdf | layoutkit markdown - -o -`` prints what ``layoutkit markdown
    doc.pdf`` does; ``alto`` the same but for the file name, ``<stdin>``."""
    from tests.test_unix_habits import command

    pdf = DMCA.read_bytes()
    piped = command("markdown", "-", "--pages", "1-2", "-o", "-", stdin=pdf)
    named = command("markdown", DMCA, "--pages", "1-2")
    assert piped.returncode == named.returncode == 0 and piped.stderr == b""
    assert piped.stdout == named.stdout and piped.stdout.startswith(b"# THE DIGITAL")
    piped = command("alto", "-", "--pages", "1-2", stdin=pdf)
    named = command("alto", DMCA, "--pages", "1-2")
    assert piped.stdout.replace(b"<stdin>", DMCA.name.encode()).replace(
        b"&lt;stdin&gt;", DMCA.name.encode()) == named.stdout


@pytest.mark.parametrize(("name", "pages", "tables"), [
    ("utwente-typst-slides-template-example", "3", 2),
    ("analog-devices-ssm2163-datasheet-1996", None, 21),
])
def test_markup_each_ruled_table_written_once(name: str, pages: str | None,
                                              tables: int) -> None:
    """A ruled table whose rows are read in several runs (its caption, or a line of
    another type, read between them) is written once, whole, where its first row is
    read; none of its lines is lost from the parts."""
    document = layoutkit.parse(next((ROOT / "fixtures").glob(f"*/{name}.pdf")), pages=pages)
    text = markdown(document, LINETYPES)
    heads = [block.split("\n")[0] for block in text.split("\n\n") if "\n| --- |" in block]
    assert len(heads) == tables and len(set(heads)) == len(heads), heads
    rows = [line for page in document.pages for line in page.lines
            if line.line_type is LineType.TABLE and any(
                t.page_no == line.page_no and t.bbox.contains_centre_of(line.bbox)
                for t in document.tables)]
    placed = {id(line) for part in parts(document, LINETYPES) for item in part.items
              for line in item.lines}
    assert rows and all(id(line) in placed for line in rows)
