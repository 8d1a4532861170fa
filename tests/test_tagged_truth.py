"""Truth mined from tagged PDFs (`layoutkit.tools.tagged`, ``layoutkit truth mine``).

The synthetic report (``fixtures/tagged_synthetic``, exported by LibreOffice with tags
from a document whose every text is known) must give back exactly its headings with
their levels, list items, table rows, caption, footnote, furniture and order; a PDF
without tags, one whose cut dropped its tree, one with text the tree does not hold
and trees read upward or all one element are refused in one line; a real tagged
corpus page agrees with its hand truth.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from reportlab.pdfgen.canvas import Canvas

from fixtures.tagged_synthetic import make
from layoutkit.cli import main
from layoutkit.errors import DocumentError, LayoutkitError
from layoutkit.files import sha256_of
from layoutkit.tools.evaluate import score_page
from layoutkit.tools.evaluation import evaluate
from layoutkit.tools.tagged import (
    MAX_UNTAGGED_SHARE,
    MIN_ONE_ELEMENT_LINES,
    MINED,
    MinedLine,
    MinedPage,
    TagsRefusedError,
    _late_share,
    _printed_lines,
    _refused,
    _rows_as_printed,
    _text,
    mine_pages,
    mine_truth,
    standard_type,
)
from layoutkit.tools.truth import dumps, load_truth

REPO = Path(__file__).resolve().parents[1]
REPORT = REPO / "fixtures" / "tagged_synthetic" / "report.pdf"
CORPUS = REPO / "fixtures" / "corpus"


@pytest.fixture(scope="module")
def mined(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """The synthetic report's truth, mined, written and loaded back."""
    path = tmp_path_factory.mktemp("mined") / "report.truth.json"
    truth = mine_truth(REPORT, path)
    path.write_text(dumps(truth), "utf-8")
    return load_truth(path)


def test_tagged_synthetic_lines_in_order(mined) -> None:  # type: ignore[no-untyped-def]
    """The body lines are the document's, in its order, the paragraph that wraps cut into
    its two printed lines, the table's rows one line each, the footnote last."""
    page = mined.pages[0]
    assert page.page == 1 and page.checked == MINED
    assert page.lines == (
        make.TITLE,
        "The survey covered the northern harbour during the spring tides of the year, "
        "measuring depth, salinity",
        "and the drift of sediment along the breakwater.1",
        make.SECTION,
        *(f"• {item}" for item in make.ITEMS),
        make.CAPTION,
        *(" ".join(row) for row in make.ROWS),
        make.AFTER,
        "1" + make.NOTE)
    assert " ".join(page.lines[1:3]) == make.INTRO + "1"


def test_tagged_synthetic_types_and_furniture(mined) -> None:  # type: ignore[no-untyped-def]
    """Headings with their levels, list items, table lines, caption, footnote and the
    running header and footer (artifacts) are the document's."""
    page = mined.pages[0]
    types = page.types
    assert types is not None
    assert types.headings == ((1, make.TITLE), (2, make.SECTION))
    assert types.list_items == tuple(f"• {item}" for item in make.ITEMS)
    assert types.tables == tuple(" ".join(row) for row in make.ROWS)
    assert types.captions == (make.CAPTION,)
    assert types.footnotes == ("1" + make.NOTE,)
    assert types.contents == ()
    assert page.furniture == (make.HEADER, make.FOOTER)
    assert mined.sha256 == sha256_of(REPORT)


def test_tagged_synthetic_paragraphs_are_body_paragraphs(mined, tmp_path: Path  # type: ignore[no-untyped-def]
                                                        ) -> None:
    """The first line of each paragraph of body text starts a paragraph: not a list
    item's, a table cell's or a note's, which LibreOffice also tags ``P``.  Evaluated,
    the text outputs start a paragraph at both and nowhere else among the body's lines
    (the running header and footer, which one page cannot tell, counting neither way)."""
    page = mined.pages[0]
    assert page.types is not None
    assert page.types.paragraphs == (page.lines[1], make.AFTER)
    shutil.copy(REPORT, tmp_path / "report.pdf")
    truth = tmp_path / "report.truth.json"
    truth.write_text(dumps(mined).replace(f'"document": "{mined.document}"',
                                          '"document": "report.pdf"'), "utf-8")
    score = evaluate([truth]).types["paragraphs"]
    assert (score.predicted, score.expected, score.hits) == (2, 2, 2)


def test_tagged_truth_file_matches_schema_and_round_trips(mined) -> None:  # type: ignore[no-untyped-def]
    """The mined file loads against the schema (captions and footnotes are keys of it)
    and writes back the same."""
    data = json.loads(dumps(mined))
    assert data["pages"][0]["types"]["captions"] == [make.CAPTION]
    assert data["pages"][0]["types"]["footnotes"] == ["1" + make.NOTE]
    assert "RoleMap" in data["conventions"]
    assert dumps(load_truth(mined.path)) == dumps(mined)


def test_tagged_role_map_chains_and_word_names() -> None:
    """A custom type follows the role map to a standard one, through a chain; Word's own
    names stand for their standard types when the map lacks them; a loop stops."""
    assert standard_type("Heading1", {"Heading1": "Title1", "Title1": "H1"}) == "H1"
    assert standard_type("InlineShape", {}) == "Figure"
    assert standard_type("Footnote", {}) == "Note"
    assert standard_type("Odd", {"Odd": "Even", "Even": "Odd"}) in {"Odd", "Even"}
    assert standard_type("P", {"P": "Span"}) == "P"


def _untagged_pdf(path: Path, words: int = 60) -> Path:
    """A PDF without tags: a paragraph drawn with reportlab."""
    canvas = Canvas(str(path), pagesize=(595, 842))
    for row in range(6):
        canvas.drawString(72, 700 - 14 * row, " ".join(["harbour"] * (words // 6)))
    canvas.save()
    return path


def test_tagged_refuses_a_pdf_without_tags(tmp_path: Path) -> None:
    """No structure tree: refused, naming the file."""
    plain = _untagged_pdf(tmp_path / "plain.pdf")
    with pytest.raises(TagsRefusedError, match=r"plain\.pdf: not tagged: the document has no "
                                          r"structure tree"):
        mine_pages(plain)
    assert issubclass(TagsRefusedError, DocumentError)


@pytest.mark.skipif(shutil.which("qpdf") is None, reason="qpdf is not installed")
def test_tagged_refuses_pages_cut_out_with_qpdf(tmp_path: Path) -> None:
    """qpdf's page extraction drops the structure tree: the cut file is refused."""
    cut = tmp_path / "cut.pdf"
    subprocess.run(["qpdf", "--empty", "--pages", str(REPORT), "1", "--", str(cut)],
                   check=True)
    with pytest.raises(TagsRefusedError, match="no structure tree"):
        mine_pages(cut)


@pytest.mark.skipif(shutil.which("qpdf") is None, reason="qpdf is not installed")
def test_tagged_refuses_a_tree_that_misses_text(tmp_path: Path) -> None:
    """Text laid over a tagged page, outside its tree and not an artifact: the tree
    misses more than `MAX_UNTAGGED_SHARE` of the page, and the page is refused."""
    over = _untagged_pdf(tmp_path / "over.pdf", words=240)
    laid = tmp_path / "laid.pdf"
    subprocess.run(["qpdf", str(REPORT), "--overlay", str(over), "--", str(laid)], check=True)
    with pytest.raises(TagsRefusedError) as refused:
        mine_pages(laid, "1")
    message = str(refused.value)
    assert message.startswith(f"{laid}: page 1: the structure tree misses ")
    share = int(message.split("misses ")[1].split("%")[0]) / 100
    assert share > MAX_UNTAGGED_SHARE and "\n" not in message


def _page(lines: int, blocks: int, backward: float = 0.0) -> MinedPage:
    """A mined page of ``lines`` lines spread over ``blocks`` elements, top down."""
    return MinedPage(1, tuple(MinedLine(f"line {k}", (0, 10.0 * k, 100, 10.0 * k + 8),
                                        ("Document", "P"), (1, 2 + k * blocks // lines),
                                        k * blocks // lines)
                              for k in range(lines)), (), 0.0, backward,
                     _late_share(_lines(lines, blocks)))


def _lines(lines: int, blocks: int) -> tuple[MinedLine, ...]:
    """``lines`` lines top down in ``blocks`` elements, each element's lines together."""
    return tuple(MinedLine(f"line {k}", (0, 10.0 * k, 100, 10.0 * k + 8), ("Document", "P"),
                           (1, 2 + k * blocks // lines), k * blocks // lines)
                 for k in range(lines))


def test_tagged_refuses_a_tree_read_upward_or_all_one_element() -> None:
    """A page whose elements' lines go upward, or whose body is one element, is
    refused; a page of several elements read downward is kept."""
    with pytest.raises(TagsRefusedError, match=r"x\.pdf: page 1: the structure tree reads 50% "
                                          r"of its elements' lines upward"):
        _refused(Path("x.pdf"), _page(10, 3, backward=0.5))
    with pytest.raises(TagsRefusedError, match=r"all 8 lines of the page in one element \(P\)"):
        _refused(Path("x.pdf"), _page(MIN_ONE_ELEMENT_LINES, 1))
    assert _refused(Path("x.pdf"), _page(MIN_ONE_ELEMENT_LINES - 1, 1)).page == 1
    assert _refused(Path("x.pdf"), _page(20, 4)).page == 1


def test_tagged_refuses_a_tree_that_reads_most_lines_late() -> None:
    """Elements read bottom first (the order a slide's shapes were drawn): every line
    but the last element's comes after text printed below it, and the page is refused;
    one text box read last is not enough."""
    down = _lines(12, 4)
    up = tuple(line for block in (3, 2, 1, 0) for line in down if line.block == block)
    assert _late_share(down) == 0.0 and _late_share(up) == 0.75
    with pytest.raises(TagsRefusedError, match=r"reads 75% of the page's elements after text "
                                               r"printed below them"):
        _refused(Path("x.pdf"), MinedPage(1, up, (), 0.0, 0.0, _late_share(up)))
    boxed = (*down[3:], *down[:3])  # the first element, a text box at the top, read last
    assert _late_share(boxed) == 0.25
    assert _refused(Path("x.pdf"), MinedPage(1, boxed, (), 0.0, 0.0, 0.25)).page == 1


def test_tagged_cli_writes_the_mined_truth(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """``layoutkit truth mine FILE --pages 1 -o TRUTH`` writes the truth and says so."""
    out = tmp_path / "report.truth.json"
    assert main(["truth", "mine", str(REPORT), "--pages", "1", "-o", str(out)]) == 0
    assert "1 page(s), 13 body line(s) mined" in capsys.readouterr().out
    truth = load_truth(out)
    assert truth.pages[0].types is not None
    assert truth.pages[0].types.headings == ((1, make.TITLE), (2, make.SECTION))
    assert main(["truth", "mine", str(REPORT), "-o", str(out)]) == 2  # exists: --force
    assert "only with --force" in capsys.readouterr().err


def test_tagged_cli_refusal_is_one_line(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """A PDF without tags: exit status 1, one line on standard error, no traceback, no
    file written."""
    plain = _untagged_pdf(tmp_path / "plain.pdf")
    out = tmp_path / "plain.truth.json"
    assert main(["truth", "mine", str(plain), "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert err == f"layoutkit: error: {plain}: not tagged: the document has no structure tree\n"
    assert not out.exists()
    assert main(["truth", "mine", str(REPORT), "--pages", "4"]) == 2
    assert "page range" in capsys.readouterr().err


def test_tagged_mined_agrees_with_hand_truth_on_a_corpus_page() -> None:
    """The Pages-made newsletter's two labelled pages: its tags read as a person reads
    them (order and found), its list items and headings are the labelled ones."""
    hand = load_truth(REPO / "regions" / "corpus" / "lake-evesham-news-2020-02.truth.json")
    mined = mine_truth(CORPUS / "lake-evesham-news-2020-02.pdf",
                       REPO / "regions" / "corpus" / "x.truth.json", "1,2")
    for page in hand.pages:
        other = mined.page(page.page)
        assert other is not None and other.types is not None and page.types is not None
        score = score_page("\n".join(other.lines), page.lines, page.furniture)
        assert score.found >= 0.99 and score.order >= 0.95 and score.leak == 0.0, score
        assert set(page.types.list_items) <= set(other.types.list_items)
        assert {t for _, t in page.types.headings} <= {t for _, t in other.types.headings}
    assert isinstance(TagsRefusedError("x"), LayoutkitError)


def _glyph(text: str, x0: float, top: float, matrix: tuple[float, ...]) -> dict[str, object]:
    """A character as pdfplumber gives it, 8 points tall and wide."""
    return {"text": text, "x0": x0, "x1": x0 + 8, "top": top, "bottom": top + 8,
            "doctop": top, "size": 8.0, "matrix": matrix, "upright": True}


def test_tagged_turned_glyphs_make_one_line() -> None:
    """Letters turned a quarter (their matrix with a rounding error, which pdfminer takes
    for upright) stacked up the page are one line in the order drawn, not one line a
    letter read upward; upright letters still break lines by their height."""
    turned = (-4.4e-08, 1.0, -1.0, -4.4e-08, 771.0, 0.0)
    stamp = [_glyph(ch, 762.0, 350.0 - 8 * k, turned) for k, ch in enumerate("ENABLE")]
    runs = _printed_lines(stamp, join_gap=None)
    assert [_text(run) for run in runs] == ["ENABLE"]
    upright = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    rows = [_glyph("a", 10, 100, upright), _glyph("b", 18, 100, upright),
            _glyph("c", 10, 112, upright)]
    assert [_text(run) for run in _printed_lines(rows, join_gap=None)] == ["ab", "c"]


def test_tagged_table_row_read_cell_by_cell_prints_line_by_line() -> None:
    """A row whose cells wrap, read cell by cell, gives the lines the row prints: the
    pieces sharing a height, left to right."""
    def piece(text: str, x0: float, top: float, block: int) -> MinedLine:
        return MinedLine(text, (x0, top, x0 + 50, top + 9), ("Table", "TR", "TD", "P"),
                         (1, 2, 10 + block, 20 + block), block)

    cells = [piece("Heap overrun /", 77, 406, 0), piece("overread", 77, 418, 0),
             piece("Deterministic", 153, 406, 1), piece("~13%", 233, 406, 2),
             piece("Durable", 320, 406, 3), piece("accesses.", 320, 418, 3)]
    assert [line.text for line in _rows_as_printed(cells)] == [
        "Heap overrun / Deterministic ~13% Durable", "overread accesses."]


def test_tagged_right_to_left_line_reads_in_logical_order() -> None:
    """Hebrew printed right to left (its glyphs left to right in visual order, drawn in
    either direction) is one line in logical order, its number kept left to right."""
    upright = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    visual = "12 םולש"  # as the glyphs stand on the page, left to right
    glyphs = [_glyph(ch, 10 + 8 * k, 100, upright) for k, ch in enumerate(visual) if ch != " "]
    glyphs[2:] = [{**g, "x0": g["x0"] + 8, "x1": g["x1"] + 8} for g in glyphs[2:]]  # the space
    for drawn in (glyphs, glyphs[::-1]):
        runs = _printed_lines(drawn, join_gap=None)
        assert [_text(run) for run in runs] == ["שלום 12"]


def test_tagged_caption_read_before_its_table_is_not_late() -> None:
    """A caption printed under its table but read before it (the tagging's convention)
    makes none of the table's rows late."""
    rows = [MinedLine(f"row {k}", (100, 100 + 12 * k, 300, 110 + 12 * k),
                      ("Table", "TR", "TD"), (1, 10 + k), 1 + k) for k in range(4)]
    caption = MinedLine("Table 1: Rows", (100, 160, 300, 170), ("Caption",), (2,), 0)
    assert _late_share((caption, *rows)) == 0.0
    lead = MinedLine("A paragraph", (100, 160, 300, 170), ("P",), (2,), 0)
    assert _late_share((lead, *rows)) == 0.8  # every row but the paragraph itself


def test_tagged_new_line_under_tall_letters_is_cut() -> None:
    """A line that starts again at the left under large letters whose height spans it
    (a figure set big beside two lines of text) is a line of its own."""
    upright = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    big = [{**_glyph(ch, 53 + 20 * k, 316, upright), "x1": 73 + 20 * k, "bottom": 340,
            "size": 24.0} for k, ch in enumerate("75%")]
    first = [_glyph(ch, 120 + 8 * k, 320, upright) for k, ch in enumerate("of")]
    second = [_glyph(ch, 104 + 8 * k, 329, upright) for k, ch in enumerate("choice")]
    runs = _printed_lines([*big, *first, *second], join_gap=None)
    assert [_text(run) for run in runs] == ["75% of", "choice"]


def _char(text: str, x0: float) -> dict[str, object]:
    """A character as pdfplumber gives it, upright, 5 pt wide, at ``x0``."""
    return {"text": text, "x0": x0, "x1": x0 + 5.0, "top": 0.0, "bottom": 10.0, "doctop": 0.0,
            "upright": True, "matrix": (1, 0, 0, 1, x0, 0), "size": 10.0, "fontname": "F",
            "width": 5.0, "height": 10.0, "y0": 0.0, "y1": 10.0}


def test_tagged_line_of_a_right_to_left_ligature_reads_in_logical_order() -> None:
    """A right-to-left line whose glyph spells two letters (a lam-alef ligature, which
    pdfplumber gives in logical order) reads in logical order: 'ثلاث', not 'ثالث'."""
    assert _text([_char("ث", 0.0), _char("لا", 5.0), _char("ث", 10.0)]) == "ثلاث"
