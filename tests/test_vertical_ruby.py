"""Vertical writing with ruby and off-axis punctuation: the columns of synthetic pages
of upright CJK glyphs, built glyph by glyph as typesetting programs draw them, read
whole, with exact truth."""

from __future__ import annotations

from pathlib import Path

import pytest

import layoutkit
from layoutkit.geometry.furniture import find_furniture
from layoutkit.geometry.words import group_lines, words_from_glyphs
from layoutkit.model import BBox, Glyph, Glyphs, Word
from layoutkit.reading.text import line_text

CONFIG = layoutkit.LayoutConfig()
CORPUS = Path(__file__).parent.parent / "fixtures" / "corpus"
ENGINES = ("pdfium", "pdfminer")
EM = 12.0
TOP = 100.0


def cell(char: str, x: float, row: float, size: float = EM, dx: float = 0.0,
         dy: float = 0.0) -> Glyph:
    """A glyph of ``size`` in the cell ``row`` (in ems of ``EM``, from ``TOP``) of the
    column whose left edge is ``x``, moved by ``dx`` across and ``dy`` down."""
    top = TOP + row * EM + dy
    return Glyph(char, BBox(x + dx, top, x + dx + size, top + size), "F", size)


def ruby(text: str, x: float, row: float, size: float = EM / 2) -> list[Glyph]:
    """Ruby ``text`` set beside (right of) the base glyph in ``row`` of the column at
    ``x``, touching it, its first kana level with the base's top."""
    return [Glyph(ch, BBox(x + EM, TOP + row * EM + k * size, x + EM + size,
                           TOP + row * EM + (k + 1) * size), "F", size)
            for k, ch in enumerate(text)]


def columns(glyphs: list[Glyph]) -> list[str]:
    """The texts of the lines the glyphs make, in the order :func:`group_lines` gives."""
    words = words_from_glyphs(Glyphs.of(glyphs), CONFIG.words)
    return [line_text(line) for line in group_lines(words, CONFIG.words)]


def test_vertical_ruby_is_set_aside_and_its_base_stays_in_its_column() -> None:
    """Ruby drawn after each kanji it glosses (as XeLaTeX draws it), half the body size
    and touching the kanji, makes lines of its own beside the column; the kanji stay in
    their column, which reads whole, as does the column beside it."""
    right, left = 300.0, 270.0
    glyphs = [cell("書", right, 0), *ruby("しょ", right, 0), cell("斎", right, 1),
              *ruby("さい", right, 1), cell("か", right, 2), cell("ら", right, 3),
              cell("真", left, 0), *ruby("しん", left, 0), cell("空", left, 1),
              *ruby("くう", left, 1), cell("の", left, 2), cell("中", left, 3),
              *ruby("なか", left, 3)]
    assert sorted(columns(glyphs)) == sorted(["書斎から", "真空の中", "しょさい", "しんくうなか"])
    words = words_from_glyphs(Glyphs.of(glyphs), CONFIG.words)
    assert {w.direction for w in words} == {270}
    assert {w.text for w in words if w.size < EM} == {"しょさい", "しんくう", "なか"}


def test_vertical_ruby_drawn_before_its_base_does_not_part_the_column() -> None:
    """Ruby drawn before the kanji it glosses, and a kanji whose ruby overhangs the next
    kana, still leave one column (and the ruby one line of its own beside it)."""
    x = 200.0
    glyphs = [cell("銀", x, 0), *ruby("ぎん", x, 1), cell("河", x, 1), cell("の", x, 2),
              *ruby("たい", x, 3), *ruby("よう", x, 4), cell("太", x, 3), cell("陽", x, 4)]
    assert sorted(columns(glyphs)) == ["ぎんたいよう", "銀河の太陽"]


def test_vertical_punctuation_off_the_axis_stays_in_its_column() -> None:
    """Full-width punctuation drawn right of the column's axis and high in its cell (as
    Chinese is punctuated), a glyph between two marks, and a note number set small in
    the column between brackets, all belong to the column, which reads whole in
    order."""
    x = 400.0
    glyphs = [cell("章", x, 0), cell("於", x, 1), cell("文", x, 2),
              cell("、", x, 2.6, dx=0.65 * EM), cell("繆", x, 3.8),
              cell("，", x, 4.4, dx=0.65 * EM), cell("獻", x, 5.6),
              cell("。", x, 6.2, dx=0.65 * EM),
              cell("︻", x, 7.6, size=0.5 * EM, dx=0.2 * EM), cell("二", x, 8.2, size=0.8 * EM,
                                                                   dx=0.2 * EM),
              cell("︼", x, 9.0, size=0.5 * EM, dx=0.2 * EM), cell("秦", x, 9.5)]
    assert columns(glyphs) == ["章於文、繆，獻。【二】秦"]
    words = words_from_glyphs(Glyphs.of(glyphs), CONFIG.words)
    assert {w.direction for w in words} == {270}
    assert max(w.bbox.x1 for w in words) == x + EM  # the marks stand on the axis


def test_vertical_small_type_beside_a_horizontal_heading_is_kept() -> None:
    """Small CJK type set on the line of a larger horizontal heading is text, not ruby:
    ruby stands beside a column of vertical writing only."""
    glyphs = [Glyph(ch, BBox(100.0 + 20.0 * k, 100.0, 120.0 + 20.0 * k, 120.0), "F", 20.0)
              for k, ch in enumerate("見出し")]
    glyphs += [Glyph(ch, BBox(162.0 + 9.0 * k, 110.0, 171.0 + 9.0 * k, 119.0), "F", 9.0)
               for k, ch in enumerate("注記")]
    words = words_from_glyphs(Glyphs.of(glyphs), CONFIG.words)
    assert "".join(w.text for w in words) == "見出し注記"
    assert {w.direction for w in words} == {0}


def test_vertical_ruby_over_a_horizontal_line_stays_out_of_it() -> None:
    """Ruby set at half size over kanji of a horizontal line, each reading drawn before
    its kanji (as dvipdfmx draws pLaTeX's ruby), stands over its base as a column's
    glyph stands over the next: it is read as a line of its own over the line, which
    keeps its kanji in place, nothing turned into columns of vertical writing ('い外',
    'く国' read down, the line left '行間は参')."""
    top, half = 120.0, EM / 2
    glyphs = [Glyph(ch, BBox(100.0 + EM * k, top, 100.0 + EM * (k + 1), top + EM), "F", EM)
              for k, ch in enumerate("行間は")]
    for k, (base, reading) in enumerate(zip("外国人参", ["がい", "こく", "じん", "さん"],
                                            strict=True)):
        x = 100.0 + EM * (3 + k)
        glyphs += [Glyph(ch, BBox(x + half * j, top - half, x + half * (j + 1), top), "F", half)
                   for j, ch in enumerate(reading)]
        glyphs.append(Glyph(base, BBox(x, top, x + EM, top + EM), "F", EM))
    words = words_from_glyphs(Glyphs.of(glyphs), CONFIG.words)
    assert {w.direction for w in words} == {0}
    assert columns(glyphs) == ["がいこくじんさん", "行間は外国人参"]


def test_vertical_small_type_under_a_column_glyph_stacks_beside_the_next_column() -> None:
    """A note set small under a one-glyph column, the next column starting level with
    that glyph on its left (drawn after it), and small type under a number set across a
    column's first cell ('12', two figures level side by side) stack in their columns:
    a glyph is set in a row of horizontal writing only where its row's next glyph
    stands on the side the stream draws it (`_over_a_row`)."""
    small = EM / 2
    glyphs = [cell(c, 300.0, r) for r, c in enumerate("これは本文の行")]
    glyphs += [cell("る", 280.0, 0),
               Glyph("注", BBox(283.0, TOP + EM, 289.0, TOP + EM + small), "F", small)]
    glyphs += [cell(c, 260.0, r) for r, c in enumerate("次の段落です")]
    assert columns(glyphs) == ["これは本文の行", "る注", "次の段落です"]
    number = [Glyph("1", BBox(300.0, TOP, 306.0, TOP + EM), "F", EM),
              Glyph("2", BBox(306.0, TOP, 312.0, TOP + EM), "F", EM)]
    number += [Glyph(c, BBox(303.0, TOP + EM + small * j, 309.0, TOP + EM + small * (j + 1)),
                     "F", small) for j, c in enumerate("注記")]
    assert columns(number) == ["12注記"]


def test_vertical_columns_beside_upright_words_are_not_margin_stamps() -> None:
    """Two narrow columns of vertical writing beside a horizontal folio are text, not
    stamps in the side margin; a rotated Latin line there still is."""
    columns_ = [Word("縦書きの本文です", BBox(300.0, 100.0, 312.0, 196.0), "F", 12.0, 270),
                Word("二行目の本文です", BBox(270.0, 100.0, 282.0, 196.0), "F", 12.0, 270)]
    folio = Word("12", BBox(100.0, 700.0, 112.0, 710.0), "F", 10.0)
    stamp = Word("DRAFT", BBox(20.0, 300.0, 30.0, 350.0), "F", 10.0, 270)
    furniture = find_furniture([([*columns_, folio, stamp], 400.0, 800.0)], CONFIG)[0]
    assert furniture.margin == frozenset({3})


def test_vertical_ruby_overhanging_its_base_is_ruby_throughout() -> None:
    """A reading longer than its kanji (three kana at half size beside one) overhangs
    it, its last kana level with no base glyph: it is ruby all the same, and the
    kanji beside it stay in the column (each drawn after its reading, as XeLaTeX
    draws them)."""
    x = 150.0
    glyphs = [cell("成", x, 0), cell("侯", x, 1), *ruby("じゅん", x, 2), cell("荀", x, 2),
              *ruby("きょく", x, 3.5), cell("勗", x, 3.5), cell("卒", x, 5)]
    assert sorted(columns(glyphs)) == ["じゅんきょく", "成侯荀勗卒"]


def test_vertical_note_in_two_sub_columns_reads_right_then_left() -> None:
    """A note set in two half-width sub-columns within a column, after the column's
    text, reads in the column's line: the text, then the right sub-column, then the
    left (drawn left first here)."""
    x, half = 300.0, EM / 2
    glyphs = [cell(ch, x, k) for k, ch in enumerate("天地玄黄")]
    glyphs += [Glyph(ch, BBox(x, TOP + 4 * EM + k * half, x + half,
                              TOP + 4 * EM + (k + 1) * half), "F", half)
               for k, ch in enumerate("日月盈昃")]
    glyphs += [Glyph(ch, BBox(x + half, TOP + 4 * EM + k * half, x + EM,
                              TOP + 4 * EM + (k + 1) * half), "F", half)
               for k, ch in enumerate("宇宙洪荒")]
    assert columns(glyphs) == ["天地玄黄宇宙洪荒日月盈昃"]


def test_vertical_small_capitals_turned_a_quarter_stay_one_word() -> None:
    """Latin small capitals set in text turned to read top to bottom stay one word: only
    a CJK glyph's change of size ends a word down a column."""
    glyphs = [Glyph("H", BBox(100.0, 100.0, 110.0, 110.0), "F", 10.0, 270)]
    glyphs += [Glyph(ch, BBox(101.0, 110.0 + 7.0 * k, 108.0, 117.0 + 7.0 * k), "F", 7.0, 270)
               for k, ch in enumerate("ELLO")]
    words = words_from_glyphs(Glyphs.of(glyphs), CONFIG.words)
    assert [w.text for w in words] == ["HELLO"]


def test_vertical_side_comment_over_a_column_is_not_read_into_it() -> None:
    """A side comment in small type drawn over the column beside it, level with its
    glyphs and interleaved with them in the stream (as an engine may place glyphs of a
    vertical font), is not read into the column glyph by glyph: the column is one
    word, the comment's glyphs words of their own."""
    x, small = 300.0, 7.0
    glyphs: list[Glyph] = []
    for k, ch in enumerate("天地玄黄宇宙"):
        glyphs.append(cell(ch, x, k))
        if 1 <= k <= 4:
            top = TOP + k * EM + 2.0
            glyphs.append(Glyph("洪荒日月"[k - 1], BBox(x, top, x + small,
                                                      top + small), "F", small))
    words = words_from_glyphs(Glyphs.of(glyphs), CONFIG.words)
    assert sorted(w.text for w in words) == sorted(["天地玄黄宇宙", "洪", "荒", "日", "月"])


@pytest.mark.parametrize("engine", ENGINES)
def test_vertical_real_columns_cut_by_punctuation_read_whole(engine: str) -> None:
    """A page of vertical Chinese from LuaTeX (each glyph placed on its own, the
    punctuation right of the column's axis, note numbers set small in the column):
    its first columns read whole, in order, right to left (see fixtures/README.md)."""
    path = CORPUS / "luatex-cn-shiji-16-modern-2026-vertical.pdf"
    lines = [line.text for line in layoutkit.parse(path, pages=[1], engine=engine).pages[0].lines]
    assert lines[1:4] == ["猶以爲未可，其後乃放弒。【二】秦起襄公，章於文、繆，獻、孝之後，稍以蠶",
                          "食六國，百有餘載，至始皇乃能并冠帶之倫。以德若彼，【三】用力如此，【四】",
                          "蓋一統若斯之難也。"]


@pytest.mark.parametrize("engine", ENGINES)
def test_vertical_real_kanji_level_with_their_ruby_stay_in_their_column(engine: str) -> None:
    """A page of vertical Japanese from upLaTeX whose ruby starts level with the top of
    its kanji and touches it (書斎/しょさい): the kanji stay in their column."""
    path = CORPUS / "jlreq-sample-ginga-2017-vertical.pdf"
    lines = [line.text for line in layoutkit.parse(path, pages=[1], engine=engine).pages[0].lines]
    assert "なくカムパネルラは、その雑誌を読むと、すぐお父さんの書斎から巨きな本を" in lines


def test_vertical_presentation_forms_read_as_the_characters_they_stand_for() -> None:
    """A text layer of vertical writing may carry the vertical forms of punctuation
    (U+FE10-FE19, U+FE30-FE48): they read as the characters a reader searches for."""
    column = [cell(ch, 300.0, row) for row, ch in enumerate("﹃我︑鳳皇︒︵第二︶﹄︙")]
    assert columns(column) == ["『我、鳳皇。（第二）』…"]


def calls(text: str, x: float, top: float, size: float = 8.0) -> list[Glyph]:
    """``text`` in upright Latin glyphs of ``size``, one under another from ``top``, in
    the ruby position of the column at ``x`` (overlapping its right edge by a point)."""
    return [Glyph(ch, BBox(x + EM - 1.0, top + k * size, x + EM - 1.0 + size / 1.5,
                           top + (k + 1) * size), "F", size) for k, ch in enumerate(text)]


def test_vertical_note_calls_and_figures_set_in_a_column_are_read_in_it() -> None:
    """Upright Latin glyphs drawn in a column of vertical writing read where they stand
    in it: a note's call set in the ruby position under the glyph it follows (taking
    the cell there), a figure in a cell, a call over a note's first glyph; a folio
    standing off the columns stays out of them, and a call is no margin stamp."""
    x, left = 300.0, 270.0
    glyphs = [cell("妻", x, 0), cell("す", x, 1), *calls("#1", x, TOP + 2 * EM + 1.0),
              cell("︒", x, 3.5), cell("皝", x, 4.5),
              Glyph("2", BBox(x + 3.0, TOP + 5.5 * EM, x + 9.0, TOP + 6.5 * EM), "F", 9.0),
              cell("月", x, 6.5),
              *calls("#1", left - EM + 1.0, TOP - 17.0), cell("慕", left, 0), cell("容", left, 1),
              Glyph("7", BBox(100.0, 700.0, 106.0, 710.0), "F", 10.0)]
    assert sorted(columns(glyphs)) == sorted(["妻す#1。皝2月", "#1慕容", "7"])
    words = words_from_glyphs(Glyphs.of(glyphs), CONFIG.words)
    furniture = find_furniture([(words, 400.0, 800.0)], CONFIG)[0]
    assert not furniture.margin


@pytest.mark.parametrize("engine", ENGINES)
def test_vertical_real_note_calls_read_in_their_columns(engine: str) -> None:
    """A page of vertical Japanese from XeLaTeX whose note calls ('#1', '*3': Latin set
    in the ruby position) stand in the columns of the text and of the notes: each is
    read in its line, after the glyph it follows, none as a margin stamp."""
    path = CORPUS / "zizhi-tongjian-82-xelatex-2019-vertical.pdf"
    page = layoutkit.parse(path, pages=[1], engine=engine).pages[0]
    lines = [line.text for line in page.lines]
    assert "冬十月*3、明堂及び南郊の五帝の位を復す#4。" in lines
    assert any(text.endswith("女を以て廆に妻す#1。皝・仁・昭を生む。") for text in lines)
    assert "#1慕容氏・段氏、遂に婚姻の國と爲る。" in lines
    assert not any("#" in line.text for line in page.lines if line.furniture)


def half(char: str, x: float, row: float, right: bool) -> Glyph:
    """A half-width figure in the left or ``right`` half of a cell of the column at ``x``:
    a number set across the column (tate-chū-yoko)."""
    x0 = x + (EM / 2 if right else 0.0)
    top = TOP + row * EM
    return Glyph(char, BBox(x0, top, x0 + EM / 2, top + EM), "F", EM)


def narrow(char: str, x: float, row: float, direction: int = 0) -> Glyph:
    """A Latin letter or sign narrower than the cell, centred in it (turned a quarter
    when ``direction`` is 270, as a vertical typesetter turns '＝')."""
    top = TOP + row * EM
    return Glyph(char, BBox(x + 2.0, top, x + EM - 2.0, top + EM), "F", EM, direction)


def test_vertical_number_across_the_column_and_a_turned_sign_stay_in_it() -> None:
    """A date whose day is set across the column ('21', two figures side by side in one
    cell), and a letter drawn after the turned sign under it ('1L＝18W', the order a
    CSS typesetter draws them in), read in their column; a glyph of a footer set right
    under the column but drawn apart from it, with the footer, stays out of it."""
    x, foot = 300.0, 260.0
    glyphs = [cell("年", x, 0), cell("1", x, 1), cell("月", x, 2), half("2", x, 3, False),
              half("1", x, 3, True), cell("日", x, 4), narrow("1", x, 5),
              narrow("＝", x, 7, direction=270), narrow("L", x, 6), half("1", x, 8, False),
              half("8", x, 8, True), narrow("W", x, 9), cell("が", x, 10),
              cell("版", foot, 0), cell("究", x, 11)]
    assert sorted(columns(glyphs)) == sorted(["年1月21日1L＝18Wが", "版", "究"])
    apart = [cell("年", x, 0), half("2", x, 1, False), half("1", x, 1, True),
             cell("日", x, 2), cell("究", x, 3)]  # drawn right after its column: in it
    assert columns(apart) == ["年21日究"]


@pytest.mark.parametrize("page, line", [
    (1, "1981年1月21日、西新宿六丁目唐川ビル"),
    (2, "はり歯を早く書くために〝H〟にしているんだ。〝1L＝18W〟というのは〝1L＝〟が"),
    (2, "たいに短い文章は9Q12H、評論みたいに長めの文章は10Q15Hだからね」")])
def test_vertical_real_numbers_and_letters_set_in_columns(page: int, line: str) -> None:
    """A Vivliostyle essay draws every glyph upright, numbers across the column in one
    cell and '＝' turned: each column reads whole, and no letter or figure is left
    over on a line of its own."""
    found = layoutkit.parse(CORPUS / "vivliostyle-1981-shashokuki-essay-vertical.pdf",
                            pages=[page]).pages[0]
    texts = [each.text for each in found.lines]
    assert line in texts
    assert not [t for t in texts if len(t.replace(" ", "")) == 1 and not t.isdigit()]
