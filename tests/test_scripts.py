"""Every script and direction: text turned a quarter or half a turn, right-to-left
columns, CJK without spaces and vertical writing, on synthetic pages with exact truth
(:mod:`fixtures.scripts`) read by both engines, and the pieces on hand-built words."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from bidi import get_display

import layoutkit
from fixtures.scripts import ScriptPage, japanese_page, rtl_page, turned_page
from fixtures.varied import TURN_WAYS, TURNED_CASES, TURNS, turned
from layoutkit.geometry.segment import Leaf, Split, mirrored
from layoutkit.geometry.turn import page_turn
from layoutkit.geometry.words import group_lines, words_from_glyphs
from layoutkit.model import (
    Band,
    BandKind,
    BBox,
    Block,
    Column,
    Document,
    Glyph,
    Glyphs,
    Line,
    Page,
    Word,
    turned_boxes,
)
from layoutkit.nlp.paragraphs import paragraphs
from layoutkit.reading.text import column_texts, line_text, reading_words, right_to_left
from layoutkit.sources import open_source
from layoutkit.sources.pdfium.text import _reversed_ligature
from layoutkit.tools.evaluate import score_page
from tests.parsed import parsed

ENGINES = ("pdfium", "pdfminer")
CONFIG = layoutkit.LayoutConfig()


def read(page: ScriptPage, engine: str) -> list[str]:
    """The text of every line of ``page`` as layoutkit reads it, in reading order."""
    return [line.text for line in layoutkit.parse(page.path, engine=engine).pages[0].lines]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("direction", [90, 180, 270])
def test_scripts_turned_block_reads_in_its_own_frame(tmp_path: Path, direction: int,
                                                     engine: str) -> None:
    """Two columns turned 90 (bottom to top), 180 (upside down) or 270 degrees (top to
    bottom) between upright text: every line forwards, the block's first column before
    its second, the block after the title above it and before the paragraph below."""
    page = turned_page(tmp_path / f"turned-{direction}.pdf", direction)
    assert read(page, engine) == list(page.lines)


@pytest.mark.parametrize(("case", "engine"), [(case, "pdfium") for case in TURNED_CASES]
                         + [(TURNED_CASES[0], "pdfminer")])
@pytest.mark.parametrize("way", TURN_WAYS)
@pytest.mark.parametrize("direction", TURNS)
def test_scripts_turned_columns_read_as_upright(tmp_path: Path, direction: int, way: str,
                                                case: str, engine: str) -> None:
    """Whole pages of two to four columns, justified and ragged (:func:`fixtures.varied.turned`),
    their text turned 90, 180 or 270 degrees on an upright page or by the page's
    /Rotate: every body line is read whole (exact) and in order (at least 0.99 of the
    pairs of successive lines, as the evaluation scores them), as on the upright page."""
    doc = turned(case, direction, way)
    path = tmp_path / f"{doc.name}.pdf"
    path.write_bytes(doc.pdf)
    for page, truth in zip(layoutkit.parse(path, engine=engine).pages, doc.pages, strict=True):
        texts = [line.text for line in page.lines]
        assert [line for line in truth.lines if line not in texts] == []
        assert score_page("\n".join(texts), truth.lines).order >= 0.99


@pytest.mark.parametrize("way", TURN_WAYS)
@pytest.mark.parametrize("direction", TURNS)
def test_scripts_turned_page_is_laid_out_where_it_stands(tmp_path: Path, direction: int,
                                                         way: str) -> None:
    """A page read turned upright is turned back: its size as it is shown, each line's
    box where the truth has it (within half a point), each word in its own direction,
    and its running header and footer furniture as on the upright page."""
    doc = turned(TURNED_CASES[0], direction, way)
    path = tmp_path / f"{doc.name}.pdf"
    path.write_bytes(doc.pdf)
    page, truth = layoutkit.parse(path).pages[0], doc.pages[0]
    a4 = (595.28, 841.89)  # the case's paper
    shown = a4[::-1] if direction in (90, 270) else a4
    assert (page.width, page.height) == pytest.approx(shown, abs=0.01)
    boxes = {line.text: line.bbox for line in page.lines}
    for text, box in zip(truth.lines, truth.line_boxes, strict=True):
        assert boxes[text].x0 == pytest.approx(box[0], abs=0.5), text
        assert boxes[text].top == pytest.approx(box[1], abs=0.5), text
        assert boxes[text].x1 == pytest.approx(box[2], abs=0.5), text
        assert boxes[text].bottom == pytest.approx(box[3], abs=0.5), text
    assert {w.direction for line in page.lines for w in line.words} == {direction}
    assert [line.text for line in page.lines if line.furniture] == list(truth.furniture)


@pytest.mark.parametrize(("texts", "turn"), [
    ([("a turned line of text", 90, 300.0)] * 3, 90),
    ([("a turned line of text", 270, 300.0)] * 3 + [("7", 0, 780.0)], 270),  # upright folio
    ([("a turned line of text", 180, 300.0)] * 3 + [("an upright line", 0, 400.0)], 0),
    ([("a turned line of text", 90, 300.0), ("an upright line of text", 0, 40.0)], 0),
    ([("縦書きの文章です", 270, 300.0)] * 3, 0),  # vertical writing keeps its own rules
    ([("diagonal text runs", 45, 300.0)] * 3, 0),
])
def test_scripts_a_page_is_turned_when_most_of_its_letters_run_turned(
        texts: list[tuple[str, int, float]], turn: int) -> None:
    """A page is read turned upright when more than half its letters run in one quarter
    or half turn and every other word stands in the top or bottom margin (12% of the
    page's height each)."""
    words = [Word(text, BBox(100.0, top, 110.0, top + 10.0), "F", 10.0, direction)
             for text, direction, top in texts]
    assert page_turn(words, 800.0, CONFIG.furniture) == turn


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("script", ["hebrew", "arabic"])
def test_scripts_right_to_left_columns(tmp_path: Path, script: str, engine: str) -> None:
    """Two columns of Hebrew or Arabic drawn in visual order: the right column first,
    each line in logical order, its numbers, times and Latin words left to right."""
    page = rtl_page(tmp_path / f"{script}.pdf", script)
    assert read(page, engine) == list(page.lines)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("vertical", [False, True], ids=["horizontal", "vertical"])
def test_scripts_japanese(tmp_path: Path, vertical: bool, engine: str) -> None:
    """Japanese lines set in pieces a little apart read without spaces, Latin letters
    and digits inside them too; vertical columns read top to bottom, right to left,
    after the page's horizontal title, which stays a line of its own."""
    page = japanese_page(tmp_path / "japanese.pdf", vertical=vertical)
    assert read(page, engine) == list(page.lines)


def test_scripts_japanese_paragraph_runs_on_without_spaces(tmp_path: Path) -> None:
    """The columns of a block of vertical Japanese make one paragraph, joined without
    spaces; the horizontal title is a paragraph of its own."""
    page = japanese_page(tmp_path / "japanese.pdf", vertical=True)
    found = paragraphs(layoutkit.parse(page.path), frozenset())
    assert [p.text for p in found] == [page.lines[0], "".join(page.lines[1:])]


@pytest.mark.parametrize(("first", "runs_on"), [
    ("日本語の文章です。", False), ("本当ですか？", False), ("「引用です。」", False),
    ("文章が続きます", True)])
def test_scripts_full_width_marks_end_sentences(first: str, runs_on: bool) -> None:
    """A column ending in 。！？ (a closing bracket after it too) closes its paragraph;
    one ending mid-sentence runs on into the next column, without a space."""
    lines = [Line(text, BBox(x, 0.0, x + 100.0, 10.0), (word(text, x, 0.0, x + 100.0, 10.0),),
                  1, 0, k, 0) for k, (text, x) in enumerate([(first, 0.0), ("次の段落", 200.0)])]
    columns = tuple(Column(k, line.bbox, (Block((line,), line.bbox),))
                    for k, line in enumerate(lines))
    page = Page(1, 300.0, 300.0, (Band(0, BandKind.BODY, BBox(0, 0, 300, 10), columns),))
    found = paragraphs(Document(Path("x.pdf"), (page,), 1), frozenset())
    assert [p.text for p in found] == ([first + "次の段落"] if runs_on else [first, "次の段落"])


def test_scripts_ruled_table_cells_read_in_every_direction(tmp_path: Path) -> None:
    """The cells of a ruled table (``--tables``) whose headers are turned to read up
    and down the columns, and one set upside down, read forwards."""
    from reportlab.pdfgen.canvas import Canvas

    from layoutkit.sources.ruled_tables import find_ruled_tables

    path = tmp_path / "table.pdf"
    c = Canvas(str(path), pagesize=(400, 400))
    for x in (100, 200, 300):
        c.line(x, 100, x, 300)
    for y in (100, 200, 300):
        c.line(100, y, 300, y)
    c.setFont("Helvetica", 10)
    for x, y, turn, text in [(150, 210, 90, "Revenue"), (250, 290, 270, "Expenses"),
                             (110, 150, 0, "12 400"), (290, 150, 180, "upside down")]:
        c.saveState()
        c.translate(x, y)
        c.rotate(turn)
        c.drawString(0, 0, text)
        c.restoreState()
    c.showPage()
    c.save()
    (table,) = find_ruled_tables(path, [1])
    assert table.rows == (("Revenue", "Expenses"), ("12 400", "upside down"))


# --------------------------------------------------------------------------- a real page

LETTER = Path(__file__).parent.parent / "fixtures" / "pdf" / "officers-letter-hebrew-2023.pdf"
"""An open letter in Hebrew (Microsoft Word, then macOS Quartz): one column, right to
left, with quotation marks, parentheses, abbreviations (ארה"ב) and a letter-spaced
paragraph; see fixtures/README.md."""


def _key(text: str) -> str:
    """A line's letters and digits, case-folded: what the corpus measures compare."""
    return "".join(c for c in text.casefold() if c.isalnum())


def _poppler_lines(path: Path) -> list[str]:
    """pdftotext's lines of ``path`` (poppler's own bidi, its direction marks left out)."""
    out = subprocess.run(["pdftotext", "-q", str(path), "-"], capture_output=True, text=True,
                         check=True).stdout
    lines = (re.sub("[\u200e\u200f\u202a-\u202e]", "", line).strip()
             for line in out.splitlines())
    return [line for line in lines if line]


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="pdftotext is not installed")
@pytest.mark.parametrize("engine", [
    "pdfium",
    "pdfminer",
])
def test_scripts_real_hebrew_page_in_logical_order(engine: str) -> None:
    """Every line of a real Hebrew letter reads in logical order, the same letters in the
    same order as poppler's pdftotext (an independent bidi reading) gives them, and the
    lines in the same order; punctuation, quotes and parentheses stand where they are
    read."""
    lines = [line.text for line in layoutkit.parse(LETTER, engine=engine).pages[0].lines]
    assert [_key(line) for line in lines] == [_key(line) for line in _poppler_lines(LETTER)]
    assert "(הקואליציה) אשר נשלט בידי הרשות המבצעת. חשוב לציין כי מערכת האיזונים והבלמים " \
        "של המשטר הישראלי" in lines
    assert "ערכים נוספים המשותפים לישראל ולארה\"ב, ועל החופש של אזרחי ישראל." in lines


MOALLA = (Path(__file__).parent.parent / "fixtures" / "corpus"
          / "iran-print-magazine-365-2012-moalla-script.pdf")
"""A Persian magazine page set by InDesign in three columns, whose fonts draw lam-alef
as one glyph that their ``/ToUnicode`` maps to the two letters; see
fixtures/README.md."""


@pytest.mark.parametrize("engine", ENGINES)
def test_scripts_arabic_ligature_letters_in_logical_order(engine: str) -> None:
    """The letters of a lam-alef ligature read lam then alef with either engine
    (PDFium gives them reversed on a right-to-left line): 'علاوه' (here 'علاه', as
    the page's text layer spells it) and 'غلامحسین', not 'عاله' and 'غالمحسین'."""
    text = "\n".join(line.text for line in layoutkit.parse(MOALLA, engine=engine).pages[0].lines)
    assert "علاه بر چهار" in text and "غلامحس" in text
    assert "عاله" not in text and "غالمحس" not in text


PERSIAN = MOALLA.parent / "iran-print-magazine-365-2012-persian-type-design.pdf"
"""Two pages of an interview in the same magazine, whose title font's final letters
reach out under the space after them; see fixtures/README.md."""


@pytest.mark.parametrize("engine", ENGINES)
def test_scripts_words_of_a_right_to_left_line_part_at_its_spaces(engine: str) -> None:
    """A right-to-left line's words part where its spaces were drawn, with either
    engine: 'قلم های', 'بی رونق', 'می رسد', not 'قل مهای', 'ب یرونق', 'م یرسد'."""
    page = layoutkit.parse(PERSIAN, pages="1", engine=engine).pages[0]
    lines = [line.text for line in page.lines]
    assert "طراحی قلم های فارسی؛ راسته بی رونق بازار نشر" in lines
    assert "سابقه ورود نشر روميزی با قلم های فارسی به ۳۰ سال می رسد. دست کم طی نيمی" in lines


@pytest.mark.parametrize(("given", "reversed_"), [
    ("ال", True),    # lam-alef mapped by /ToUnicode, given reversed
    ("مل", True),    # lam-meem likewise
    ("لا", False),   # ﻻ decomposed by PDFium itself, in order
    ("الله", False),  # ﷲ likewise
    ("ریال", False),  # ﷼ likewise
    ("fi", False),
    ("ا", False),
])
def test_scripts_pdfium_ligature_letters_reversed(given: str, reversed_: bool) -> None:
    """A glyph's right-to-left letters came from PDFium reversed unless they spell a
    presentation form that PDFium decomposes itself."""
    assert _reversed_ligature(given) is reversed_


SINHALA = Path(__file__).parent.parent / "fixtures" / "corpus" / \
    "sri-lanka-gazette-part-ii-2444-2025-07-04-p141.pdf"
"""A page of Sri Lanka's gazette in Sinhala (InDesign, Iskoola Pota); see fixtures/README.md."""


def test_scripts_a_syllable_drawn_as_one_glyph_is_one_glyph() -> None:
    """A Sinhala syllable that the font draws as one glyph ('යෙ', a consonant and its
    vowel sign) is one glyph, boxed over its whole width: PDFium gives its characters
    each a share of the width, and the vowel sign's share, boxed from the glyph's origin,
    left a gap in the word that broke it ('අඩවිය ෙන්')."""
    glyphs = next(iter(open_source(SINHALA).pages([1]))).glyphs
    assert "යෙ" in glyphs.texts
    lines = [line.text for line in parsed(SINHALA).pages[0].lines]
    assert "මෙම ගැසට් පත්‍රය www.documents.gov.lk වෙබ් අඩවියෙන් බාගත කළ හැක." in lines


NEKO = Path(__file__).parent.parent / "fixtures" / "pdf" / "wagahai-neko-vertical-p10.pdf"
"""A page of Natsume Sōseki's *I Am a Cat* set vertically by a typesetting program
(cairo), each glyph placed on its own in a horizontal font (Identity-H), with ruby
(furigana) beside some words; see fixtures/README.md."""

NEKO_COLUMNS = ("ある。これは前の書生より一層乱暴な方で吾輩を見",
                "るや否やいきなり頸筋をつかんで表へ抛り出した。",
                "いやこれは駄目だと思ったから眼をねぶって運を天",
                "に任せていた。しかしひもじいのと寒いのにはどう",
                "しても我慢が出来ん。吾輩は再びおさんの隙を見て",
                "台所へ這い上った。すると間もなくまた投げ出され",
                "た。吾輩は投げ出されては這い上り、這い上っては")
"""The page's columns, right to left: the book's text (Aozora Bunko's, as the program
read it) without its ruby."""


@pytest.mark.parametrize("engine", ENGINES)
def test_scripts_real_vertical_japanese_page(engine: str) -> None:
    """Every column of a real page of vertical Japanese, whose font has no vertical
    writing mode (the glyphs' places tell it), reads top to bottom, the columns right
    to left, exactly; the ruby is read beside its words, in lines of its own set at
    half the size (the readings of two words far apart down one column, くびすじ and ほう,
    は and あが, parted by a space: more than an em of white stands between them)."""
    lines = layoutkit.parse(NEKO, engine=engine).pages[0].lines
    assert tuple(line.text for line in lines if line.size == 12.0) == NEKO_COLUMNS
    assert [line.text for line in lines if line.size < 12.0] == ["くびすじ ほう", "すき", "は あが"]


CONTENTS = Path(__file__).parent.parent / "fixtures" / "pdf" / "sz-cls-vertical-contents-p3.pdf"
"""A contents page set vertically by upLaTeX and dvipdfmx: chapter titles in
RyuminPr6N-Bold and the page number in UDMarugo_SmallPr6N-M, both embedded CID fonts
in ``Identity-V``, each column a text object; see fixtures/README.md."""


@pytest.mark.parametrize("engine", ENGINES)
def test_scripts_vertical_font_glyphs_stay_in_their_column(engine: str) -> None:
    """Every glyph of a column set in a vertical (``Identity-V``) font is read in its
    column, so the column reads whole: PDFium's width table gives a vertical font's
    advance down the column (-1 em), and the pdfium engine, asking it where a glyph's
    ink passes the em (八 and 回 in RyuminPr6N-Bold), boxed those glyphs one em to the
    left of their column, where they read as lines of their own and the title as
    第十 公式測試.  Both engines box each glyph within a twentieth of an em of the
    other's box (the centres of the glyphs of each text, paired in reading order)."""
    lines = [line.text for line in layoutkit.parse(CONTENTS, engine=engine).pages[0].lines]
    assert "第十八回 公式測試 一三" in lines
    assert "第十七回 畫圖測試 一一" in lines
    assert "八" not in lines and "回" not in lines
    with open_source(CONTENTS, engine) as source:
        glyphs = next(iter(source.pages([1]))).glyphs
    with open_source(CONTENTS, "pdfminer") as source:
        reference = next(iter(source.pages([1]))).glyphs
    by_text: dict[str, list[tuple[float, float]]] = {}
    for glyph in reference:
        by_text.setdefault(glyph.text, []).append(_centre(glyph.bbox))
    for text in ("八", "回", "第", "十"):
        ours = sorted(_centre(g.bbox) for g in glyphs if g.text == text)
        assert len(ours) == len(by_text[text]), text
        for (x, y), (u, v) in zip(ours, sorted(by_text[text]), strict=True):
            assert abs(x - u) < 11.05 / 20 and abs(y - v) < 11.05 / 4, (engine, text)


def _centre(box: BBox) -> tuple[float, float]:
    """The centre of ``box``."""
    return (box.x0 + box.x1) / 2, (box.top + box.bottom) / 2


# --------------------------------------------------------------------------- pieces


def word(text: str, x0: float, top: float, x1: float, bottom: float, direction: int = 0) -> Word:
    return Word(text, BBox(x0, top, x1, bottom), "F", 10.0, direction)


def test_scripts_turned_boxes_put_each_direction_upright() -> None:
    """A box turned into the frame of each direction, on a 600 by 800 page: 90 a quarter
    clockwise, 180 half a turn, 270 a quarter anticlockwise; 0 and a diagonal's nearest
    quarter alike."""
    box = np.array([[10.0, 20.0, 30.0, 60.0]])
    assert turned_boxes(box, 90, 600, 800).tolist() == [[740.0, 10.0, 780.0, 30.0]]
    assert turned_boxes(box, 180, 600, 800).tolist() == [[570.0, 740.0, 590.0, 780.0]]
    assert turned_boxes(box, 270, 600, 800).tolist() == [[20.0, 570.0, 60.0, 590.0]]
    assert turned_boxes(box, 0, 600, 800).tolist() == box.tolist()
    assert turned_boxes(box, 80, 600, 800).tolist() == turned_boxes(box, 90, 600, 800).tolist()


@pytest.mark.parametrize(("direction", "boxes"), [
    # each glyph 10 wide along its baseline, the word read from the first box
    (180, [(50.0, 0.0, 60.0, 10.0), (40.0, 0.0, 50.0, 10.0), (30.0, 0.0, 40.0, 10.0)]),
    (270, [(0.0, 30.0, 10.0, 40.0), (0.0, 40.0, 10.0, 50.0), (0.0, 50.0, 10.0, 60.0)]),
    (90, [(0.0, 50.0, 10.0, 60.0), (0.0, 40.0, 10.0, 50.0), (0.0, 30.0, 10.0, 40.0)]),
])
def test_scripts_words_read_along_their_baseline(direction: int,
                                                 boxes: list[tuple[float, ...]]) -> None:
    """Glyphs upside down (laid right to left), turned to read down or up the page
    spell their word forwards, whatever order they are drawn in."""
    glyphs = [Glyph(ch, BBox(*box), "F", 10.0, direction) for ch, box in zip("abc", boxes,
                                                                             strict=True)]
    words = words_from_glyphs(Glyphs.of(glyphs[::-1]), CONFIG.words)
    assert [(w.text, w.direction) for w in words] == [("abc", direction)]


def test_scripts_combining_marks_follow_their_letter() -> None:
    """A combining mark drawn as a glyph of its own joins the letter under it and
    follows it in reading order: after it in Latin, before it in the visual order of
    Hebrew (so that the line, read backwards, has it after its letter)."""
    latin = [Glyph("e", BBox(0.0, 0.0, 5.0, 10.0), "F", 10.0),
             Glyph("\u0301", BBox(-1.0, 0.0, 3.0, 10.0), "F", 10.0),  # drawn first
             Glyph("t", BBox(5.0, 0.0, 8.0, 10.0), "F", 10.0)]
    hebrew = [Glyph("ש", BBox(20.0, 0.0, 26.0, 10.0), "F", 10.0),
              Glyph("\u05bc", BBox(27.0, 0.0, 28.0, 10.0), "F", 10.0),  # a dagesh, past it
              Glyph("ל", BBox(14.0, 0.0, 20.0, 10.0), "F", 10.0)]
    words = words_from_glyphs(Glyphs.of(latin[::-1] + hebrew), CONFIG.words)
    assert sorted(w.text for w in words) == ["e\u0301t", "ל\u05bcש"]
    assert line_text([w for w in words if w.text[0] == "ל"]) == "ש\u05bcל"


def test_scripts_lines_of_upside_down_words_read_right_to_left() -> None:
    """Upside-down words form lines from the page's foot up, each read leftwards."""
    words = [word("lower", 60.0, 100.0, 90.0, 110.0, 180), word("line", 20.0, 100.0, 50.0, 110.0,
                                                                  180),
             word("upper", 60.0, 80.0, 90.0, 90.0, 180)]
    lines = group_lines(words, CONFIG.words)
    assert [[w.text for w in line] for line in lines] == [["lower", "line"], ["upper"]]


def test_scripts_vertical_writing_read_top_to_bottom() -> None:
    """Upright CJK glyphs drawn one under another are vertical writing: words that read
    top to bottom; a column of Latin letters alone is not."""
    column = [Glyph(ch, BBox(100.0, 10.0 * k, 110.0, 10.0 * (k + 1)), "F", 10.0)
              for k, ch in enumerate("縦書きAB")]
    latin = [Glyph(ch, BBox(200.0, 10.0 * k, 206.0, 10.0 * (k + 1)), "F", 10.0)
             for k, ch in enumerate("xy")]
    words = words_from_glyphs(Glyphs.of(column + latin), CONFIG.words)
    assert sorted((w.text, w.direction) for w in words) == [
        ("x", 0), ("y", 0), ("縦書きAB", 270)]


def test_scripts_line_text_joins_cjk_without_spaces() -> None:
    """No space beside a CJK word (full-width punctuation included); Latin words and
    Korean keep theirs."""
    assert line_text([word("日本語の", 0, 0, 1, 1), word("文章。", 2, 0, 3, 1),
                      word("ABC", 4, 0, 5, 1), word("です", 6, 0, 7, 1)]) == "日本語の文章。ABCです"
    assert line_text([word("한국어", 0, 0, 1, 1), word("문장", 2, 0, 3, 1)]) == "한국어 문장"
    assert line_text([word("plain", 0, 0, 1, 1), word("text", 2, 0, 3, 1)]) == "plain text"


def test_scripts_line_text_keeps_a_full_width_space_between_cjk_words() -> None:
    """A gap of an em or more between CJK words (a full-width space: an item's number
    and its text) reads as a space once ``cjk_space_em`` is given; a narrower one, as
    a justified line leaves, does not; vertical words measure it down their column."""
    words = [word("一", 0, 0, 10, 10), word("保険医療機関", 20, 0, 80, 10),
             word("は", 85, 0, 95, 10)]
    assert line_text(words) == "一保険医療機関は"
    assert line_text(words, cjk_space_em=0.9) == "一 保険医療機関は"
    column = [word("二", 0, 0, 10, 10, 270), word("届出", 0, 19, 10, 39, 270),
              word("の", 0, 40, 10, 50, 270)]
    assert line_text(column, cjk_space_em=0.9) == "二 届出の"


@pytest.mark.parametrize("logical", [
    "שלום עולם", "הישיבה בשעה 18:30 בבית העירייה", "פרטים באתר www.example.org היום",
    "مرحبا بالعالم", "الاجتماع يوم 12 مارس 2026", "Latin line with עברית inside"])
def test_scripts_line_text_in_logical_order(logical: str) -> None:
    """A line drawn in visual order (its words left to right as they stand) reads in
    logical order: right-to-left runs turned, numbers and Latin runs kept."""
    visual = str(get_display(logical, base_dir="R" if right_to_left([logical]) else "L"))
    words = [word(part, 10.0 * k, 0, 10.0 * k + 8, 10) for k, part in enumerate(visual.split())]
    assert line_text(words) == logical


@pytest.mark.parametrize("apart", [False, True], ids=["in-its-word", "a-word-of-its-own"])
def test_scripts_mark_against_a_latin_word_follows_it_right_to_left(apart: bool) -> None:
    """An Arabic comma drawn against the left of a Latin word, after another Latin word
    in a Persian line, follows the word it touches read right to left ('SCATS، SCOOT'),
    whether the engine gives it in that word or as a word of its own; the bidi
    algorithm alone took it for one of the Latin run and read 'SCOOT ،SCATS'.  A comma
    set against the right of a Latin word, as left-to-right text sets it, one with a
    space on both sides, and a Latin word opening with a full stop, a hyphen or '@'
    ('.NET') keep the algorithm's reading."""
    # visual, left to right: InSync و SCOOT ،SCATS and the Persian words, reversed
    opening = "سیستمهای پیشرفتهای مانند"
    persian = [word(text[::-1], 84.0 + 40.0 * k, 0, 120.0 + 40.0 * k, 10)
               for k, text in enumerate(opening.split()[::-1])]
    comma = [word("،", 50.0, 0, 53.0, 10), word("SCATS", 53.0, 0, 80.0, 10)] if apart \
        else [word("،SCATS", 50.0, 0, 80.0, 10)]
    line = [word("InSync", 0.0, 0, 25.0, 10), word("و", 28.0, 0, 32.0, 10),
            word("SCOOT", 35.0, 0, 47.0, 10), *comma, *persian]
    assert line_text(line) == f"{opening} SCATS، SCOOT و InSync"
    ltr = [word("InSync", 0.0, 0, 25.0, 10), word("و", 28.0, 0, 32.0, 10),
           word("SCOOT,", 35.0, 0, 50.0, 10), word("SCATS", 53.0, 0, 80.0, 10), *persian]
    assert line_text(ltr) == f"{opening} SCOOT, SCATS و InSync"
    spaced = [*line[:3], word("،", 49.0, 0, 51.0, 10), word("SCATS", 53.0, 0, 80.0, 10),
              *persian]
    assert line_text(spaced) == f"{opening} SCOOT ، SCATS و InSync"
    # a full stop, a hyphen or '@' may open a Latin word: no mark that closes one
    for first, second in (("Microsoft", ".NET"), ("ls", "-la"), ("follow", "@user")):
        opens = [word(first, 0.0, 0, 30.0, 10), word(second, 34.0, 0, 60.0, 10), *persian]
        assert line_text(opens) == f"{opening} {first} {second}"


def test_scripts_presentation_forms_normalised() -> None:
    """Arabic presentation forms (shaped letters and the lam-alef ligature, as PDFs map
    them) read as the letters they shape, in logical order."""
    # "لا سلام" drawn in visual order with shaped forms: ﻡﻼﺳ ﻻ
    visual = [word("\ufee1\ufefc\ufeb3", 0, 0, 20, 10), word("\ufefb", 24, 0, 30, 10)]
    assert line_text(visual) == "لا سلام"


def test_scripts_right_to_left_by_most_letters() -> None:
    """A page's text runs right to left when most of its letters do."""
    assert right_to_left(["שלום", "עולם", "PDF"])
    assert not right_to_left(["Hello", "world", "שלום"])
    assert not right_to_left(["12 34"])


def test_scripts_mirrored_tree_reads_columns_right_to_left() -> None:
    """Side-by-side parts reverse, at every depth; stacked parts keep their order."""
    tree = Split(False, (Leaf((0,)), Split(True, (Leaf((1,)), Split(True, (Leaf((2,)),
                                                                           Leaf((3,))))))))
    assert mirrored(tree) == Split(False, (Leaf((0,)), Split(True, (
        Split(True, (Leaf((3,)), Leaf((2,)))), Leaf((1,))))))


KOKUJI = Path(__file__).parent.parent / "fixtures" / "corpus" / "mhlw-kokuji-55-2022-vertical.pdf"
"""A Japanese government notice set vertically, whose item numbers (一, 二, 三) stand a
full-width space above the text of their columns."""


@pytest.mark.parametrize("engine", ["pdfium", "pdfminer"])
def test_scripts_hanging_item_numbers_join_their_vertical_columns(engine: str) -> None:
    """An item's number hung a full-width space above its column is read at the head
    of that column, not gathered with the other numbers into a horizontal row; the
    full-width space between them reads as a space (a gap of an em), whether the PDF
    draws it as a glyph (pdfminer.six) or not (PDFium)."""
    lines = layoutkit.parse(KOKUJI, pages=[1], engine=engine)[0].text().splitlines()
    starts = [line for line in lines if line[:1] in "一二三"]
    assert [line[:7] for line in starts] == ["一 保険医療機", "二 保険医療機", "三 届出の内容"]
    assert "三二一" not in lines


RESHUMOT = KOKUJI.parent / "reshumot-hatzaot-hok-566-2011.pdf"
"""A page of Israeli government bills: Hebrew, side notes, two columns."""


def test_scripts_right_to_left_words_in_reading_order() -> None:
    """A Hebrew line's words come in the order they are read, each in logical order,
    right to left on the page: their texts joined are the line's text; a number
    inside keeps its digits left to right."""
    page = parsed(RESHUMOT)[0]
    first = page.lines[0]
    assert [w.text for w in first.words] == ["מתפרסמת", "בזה", "הצעת", "חוק", "מטעם",
                                             "הממשלה:"]
    assert [w.bbox.x0 for w in first.words] == sorted((w.bbox.x0 for w in first.words),
                                                      reverse=True)
    for line in page.lines:
        assert " ".join(w.text for w in line.words) == line.text
    assert any("התשע\"א-2011" in [w.text for w in line.words] for line in page.lines)


def test_scripts_reading_words_unite_cjk_words_joined_without_space() -> None:
    """Words of a CJK line that its text joins without a space (CJK beside CJK, or
    beside Latin letters) are one word, their boxes united; a line whose text is its
    words joined by spaces keeps its words."""
    words = [Word("Natsume", BBox(0.0, 0.0, 40.0, 10.0), "F", 10.0),
             Word("吾輩は", BBox(46.0, 0.0, 76.0, 10.0), "F", 10.0),
             Word("猫である。", BBox(82.0, 0.0, 132.0, 10.0), "F", 10.0)]
    read = reading_words(words, line_text(words))
    assert [(w.text, w.bbox) for w in read] == [("Natsume吾輩は猫である。",
                                                 BBox(0.0, 0.0, 132.0, 10.0))]
    latin = words[:1]
    assert reading_words(latin, line_text(latin)) == tuple(latin)


@pytest.mark.parametrize("drawn", [
    # the characters of the glyphs drawn, left to right: macOS Quartz's way
    (["ןוקית)", "(יושיר)", "קוח"], ["רואל", "(17", "'סמ"]),
    # the characters meant, mirror images of those drawn: InDesign's way
    (["ןוקית(", ")יושיר(", "קוח"], ["רואל", ")17", "'סמ"]),
])
def test_scripts_column_brackets_pair_whichever_the_producer_gives(
        drawn: tuple[list[str], list[str]]) -> None:
    """A right-to-left column's brackets read the way round that pairs them, whether
    the document gives a bracket drawn in mirror image (rule L4 of the bidi algorithm)
    as the character drawn or as the one meant: the parenthesis opened on the first
    line and closed on the second is paired across the column (the second line alone
    reads as well either way)."""
    lines = [[Word(text, BBox(x, top, x + 20.0, top + 10.0), "F", 10.0)
              for x, text in zip((0.0, 30.0, 60.0), words, strict=True)]
             for top, words in zip((0.0, 20.0), drawn, strict=True)]
    assert column_texts(lines) == ["חוק (רישוי) (תיקון", "מס' 17) לאור"]


def test_scripts_reading_words_keep_the_box_of_a_word_printed_twice() -> None:
    """A right-to-left line read from its right end: of two words of the same letters,
    the first read is the one on the right."""
    left, middle, right = (BBox(x, 0.0, x + 20.0, 10.0) for x in (0.0, 30.0, 60.0))
    words = [Word("לש", left, "F", 10.0), Word("תיב", middle, "F", 10.0),
             Word("לש", right, "F", 10.0)]
    read = reading_words(words, line_text(words))
    assert [(w.text, w.bbox) for w in read] == [("של", right), ("בית", middle), ("של", left)]


def test_scripts_pdfium_keeps_the_size_of_reordered_right_to_left_glyphs() -> None:
    """PDFium reports some glyphs of the Hebrew bill's lines (a 1-pt font scaled by
    the text matrix) with the identity matrix and size 1; the pdfium engine takes
    their text object's instead, so every letter has the size pdfminer.six gives it
    and a line with a footnote mark reads whole."""
    sizes = {}
    for engine in ("pdfium", "pdfminer"):
        with open_source(RESHUMOT, engine) as source:
            glyphs = next(iter(source.pages((1,)))).glyphs
        sizes[engine] = sorted(round(float(size), 2) for text, size
                               in zip(glyphs.texts, glyphs.sizes, strict=True) if text.isalpha())
    assert sizes["pdfium"] == sizes["pdfminer"]
    assert min(sizes["pdfium"]) > 5
    lines = parsed(RESHUMOT)[0].text().splitlines()
    assert any("בחוק הבנקאות" in line and "התשמ\"א-1981 1 " in line for line in lines)
