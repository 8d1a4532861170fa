"""Unit tests of glyphs -> words -> lines on hand-built glyphs, with exact expected words."""

from __future__ import annotations

import random
from typing import TypeVar

import numpy as np
import pytest

from layoutkit.config import LayoutConfig
from layoutkit.geometry.words import group_lines, split_at_gaps, words_from_glyphs
from layoutkit.model import BBox, Glyph, Glyphs, Word, code_points, spell, visual_order

T = TypeVar("T")
CONFIG = LayoutConfig()
SIZE = 10.0
WIDTH = 5.0  # advance of every hand-built glyph


def glyph(text: str, x0: float, top: float = 0.0, *, width: float = WIDTH,
          size: float = SIZE, direction: int = 0) -> Glyph:
    """One glyph of font "F" whose box starts at ``x0`` and ``top``."""
    return Glyph(text, BBox(x0, top, x0 + width, top + size), "F", size, direction)


def spelled(text: str, x0: float, top: float = 0.0) -> list[Glyph]:
    """The glyphs of ``text`` set solid (no gap) from ``x0``."""
    return [glyph(ch, x0 + WIDTH * k, top) for k, ch in enumerate(text)]


def word(text: str, x0: float, top: float, x1: float, bottom: float, *,
         size: float = SIZE, direction: int = 0) -> Word:
    """A Word of font "F" with an explicit box."""
    return Word(text, BBox(x0, top, x1, bottom), "F", size, direction)


def shuffled(items: list[T], seed: int) -> list[T]:
    """``items`` in a fixed order that differs from the given one."""
    result = list(items)
    random.Random(seed).shuffle(result)
    assert result != list(items)
    return result


def test_words_shuffled_glyphs_give_words_in_x_order() -> None:
    """Glyphs of two words on one baseline, given shuffled, give the two words in x order."""
    glyphs = spelled("ab", 10.0) + spelled("cd", 24.0)
    assert words_from_glyphs(Glyphs.of(shuffled(glyphs, 3)), CONFIG.words) == (
        word("ab", 10.0, 0.0, 20.0, 10.0),
        word("cd", 24.0, 0.0, 34.0, 10.0),
    )


def test_words_gap_wider_than_word_gap_em_splits() -> None:
    """A horizontal gap a little wider than word_gap_em x size ends a word."""
    gap = CONFIG.words.word_gap_em * SIZE + 0.1  # 1.3 pt at 10 pt
    x = WIDTH + gap
    assert words_from_glyphs(Glyphs.of([glyph("a", 0.0), glyph("b", x)]), CONFIG.words) == (
        word("a", 0.0, 0.0, 5.0, 10.0),
        word("b", x, 0.0, x + WIDTH, 10.0),
    )


def test_words_gap_narrower_than_word_gap_em_joins() -> None:
    """A horizontal gap a little narrower than word_gap_em x size keeps one word."""
    gap = CONFIG.words.word_gap_em * SIZE - 0.1  # 1.1 pt at 10 pt
    x = WIDTH + gap
    assert words_from_glyphs(Glyphs.of([glyph("a", 0.0), glyph("b", x)]), CONFIG.words) == (
        word("ab", 0.0, 0.0, x + WIDTH, 10.0),
    )


def test_words_word_gap_follows_config() -> None:
    """The same 1.3 pt gap joins when word_gap_em is raised to 0.2 (2 pt at 10 pt)."""
    config = CONFIG.replace(word_gap_em=0.2)
    assert words_from_glyphs(Glyphs.of([glyph("a", 0.0), glyph("b", 6.3)]), config.words) == (
        word("ab", 0.0, 0.0, 11.3, 10.0),
    )


def test_words_whitespace_glyph_splits() -> None:
    """A space glyph ends a word even with no gap around it, and is dropped."""
    glyphs = [glyph("a", 0.0), glyph(" ", 5.0, width=0.5), glyph("b", 5.5)]
    assert words_from_glyphs(Glyphs.of(glyphs), CONFIG.words) == (
        word("a", 0.0, 0.0, 5.0, 10.0),
        word("b", 5.5, 0.0, 10.5, 10.0),
    )


def test_words_only_whitespace_gives_no_words() -> None:
    """Glyphs that are all whitespace give no words; no glyphs give no words."""
    assert words_from_glyphs(Glyphs.of([glyph(" ", 0.0), glyph("\t", 5.0)]), CONFIG.words) == ()
    assert words_from_glyphs(Glyphs.of([]), CONFIG.words) == ()


def test_words_fake_bold_glyph_counted_once() -> None:
    """A glyph drawn twice at nearly the same place (fake bold) counts once."""
    glyphs = [glyph("a", 0.0), glyph("b", 5.0), glyph("b", 5.2), glyph("c", 10.0)]
    assert words_from_glyphs(Glyphs.of(glyphs), CONFIG.words) == (
        word("abc", 0.0, 0.0, 15.0, 10.0),)


def test_words_letter_touching_its_like_is_no_copy() -> None:
    """A narrow letter standing at the start of a wide one of the same text, but
    ending elsewhere, is a letter of its own, not a copy (a Persian word's final nun,
    whose tail reaches under the next word's narrow initial nun): both are read."""
    glyphs = [glyph("a", 9.0), glyph("n", 2.0, width=7.0), glyph(" ", 2.0, width=3.0),
              glyph("n", 0.0, width=2.0)]  # drawn right to left
    words = words_from_glyphs(Glyphs.of(glyphs), CONFIG.words)
    assert "".join(w.text for w in words) == "nna"


def squeezed(text: str, x0: float, step: float, box: float) -> list[Glyph]:
    """The glyphs of ``text`` a ``step`` apart, each ``box`` wide: an OCR layer's
    monospaced font squeezed into the width of the word printed under it."""
    return [glyph(ch, x0 + step * k, width=box) for k, ch in enumerate(text)]


def test_words_squeezed_layer_keeps_its_doubled_letters() -> None:
    """Letters 2.4 pt apart in boxes 9.8 pt wide (the page's boxes four times the step
    from letter to letter): a letter printed twice stands a whole step from its like, as
    every other letter does from its neighbour, and is read twice, inside a word, at its
    end or its start, in a word of that letter alone too."""
    text = "the anna hall of oops xx in"
    words = words_from_glyphs(Glyphs.of(squeezed(text, 0.0, 2.4, 9.8)), CONFIG.words)
    assert [w.text for w in words] == text.split()


def test_words_glyph_drawn_three_times_counted_once() -> None:
    """A glyph drawn three times 0.3 pt apart (fake bold) counts once: the step from
    letter to letter a copy is judged by counts a run of copies once."""
    glyphs = [glyph("a", 0.0), glyph("b", 5.0), glyph("b", 5.3), glyph("b", 5.6),
              glyph("c", 10.0)]
    assert [w.text for w in words_from_glyphs(Glyphs.of(shuffled(glyphs, 2)),
                                              CONFIG.words)] == ["abc"]


def tracked(text: str, x0: float, white: float, space: float = 0.0) -> list[Glyph]:
    """The glyphs of ``text`` with ``white`` after every glyph (tracking), a space
    glyph where ``space`` is 0, else that much more white, between its words."""
    glyphs, x = [], x0
    for k, part in enumerate(text.split()):
        if k:
            if space:
                x += space
            else:
                glyphs.append(glyph(" ", x))
                x += WIDTH + white
        for ch in part:
            glyphs.append(glyph(ch, x))
            x += WIDTH + white
    return glyphs


@pytest.mark.parametrize("space", [0.0, 2.5])
def test_words_tracked_letters_make_words(space: float) -> None:
    """Letters set apart by one white (tracking 0.135 em, more than a word's gap
    between glyphs set solid) make words, parted by a space glyph or by a space's
    white more; the glyphs of a formula, apart by whites of several widths, stay
    apart."""
    glyphs = tracked("Our Impact", 0.0, 1.35, space)
    assert [w.text for w in words_from_glyphs(Glyphs.of(glyphs), CONFIG.words)] == [
        "Our", "Impact"]
    shadowed = glyphs + [glyph(g.text, g.bbox.x0 + 0.3) for g in glyphs]  # drawn twice
    assert [w.text for w in words_from_glyphs(Glyphs.of(shadowed), CONFIG.words)] == [
        "Our", "Impact"]
    leader = [glyph(".", 7.0 * k) for k in range(8)]  # a dot leader's dots: no letters
    assert len(words_from_glyphs(Glyphs.of(leader), CONFIG.words)) == 8
    places = (0.0, 7.8, 15.0, 22.8, 30.0, 37.8, 45.0)
    formula = [glyph(ch, x) for ch, x in zip("x=y+z-w", places, strict=True)]
    assert len(words_from_glyphs(Glyphs.of(formula), CONFIG.words)) == 7


def math_italic(text: str, x0: float, size: float = SIZE, font: str = "M") -> list[Glyph]:
    """The glyphs of ``text`` in ``font`` (math italic), 1.5 pt apart (tracked)."""
    return [Glyph(ch, BBox(x0 + 6.5 * k, 0.0, x0 + 6.5 * k + WIDTH, size), font, size, 0)
            for k, ch in enumerate(text)]


def test_words_tracked_style_after_another_starts_a_word() -> None:
    """A formula's math italic, its letters 1.5 pt apart within it (tracked, more than
    a word's gap set solid), 2 pt after a word of the text's face, set solid in the
    same size: the white before its first letter is a word space, so 'as' and the
    formula are two words (they read 'asyzxwv'); within the formula the letters stay
    one word."""
    glyphs = spelled("then as", 0.0) + math_italic("yzxwv", 37.0)
    assert [w.text for w in words_from_glyphs(Glyphs.of(glyphs), CONFIG.words)] == [
        "then", "as", "yzxwv"]


@pytest.mark.parametrize(("glyphs", "expected"), [
    ([*math_italic("x", 0.0), Glyph("0", BBox(5.0, 3.0, 8.0, 10.0), "R", 7.0, 0),
      *math_italic(",...,", 9.5), *math_italic("xyzw", 42.0)], ["x0,...,xyzw"]),
    ([Glyph("T", BBox(0.0, -4.0, 7.0, 10.0), "F", 14.0, 0), *math_italic("HEOPEN", 8.5)],
     ["THEOPEN"]),
    (spelled("then", 0.0, -14.0) + math_italic("#ONEWAY", 0.0), ["then", "#ONEWAY"]),
], ids=["subscript", "initial", "row opening"])
def test_words_tracking_runs_on_after_a_glyph_of_another_size_or_row(
        glyphs: list[Glyph], expected: list[str]) -> None:
    """A tracked style's white still joins its letters after a subscript of another
    size ('x0,...,x', a formula's dots after the subscript), after an initial set
    larger, and at the start of a row under text set solid."""
    assert [w.text for w in words_from_glyphs(Glyphs.of(glyphs), CONFIG.words)] == expected


def test_words_hyphen_of_another_face_stays_in_spaced_capitals() -> None:
    """Capitals tracked by 1.5 pt with a hyphen of another face among them, 1 pt after
    the one before it: the white after the hyphen is still the capitals' tracking (the
    letter last before it is of their style), and the heading is one word."""
    left = [glyph(ch, 6.5 * k) for k, ch in enumerate("ABCD")]
    hyphen = [Glyph("-", BBox(25.5, 0.0, 28.5, SIZE), "H", SIZE, 0)]
    right = [glyph(ch, 30.0 + 6.5 * k) for k, ch in enumerate("EFGH")]
    assert [w.text for w in words_from_glyphs(Glyphs.of(left + hyphen + right),
                                              CONFIG.words)] == ["ABCD-EFGH"]


def test_words_fake_bold_word_counted_once() -> None:
    """A whole word overprinted 0.3 pt to the right reads once, boxed as its leftmost print."""
    glyphs = spelled("ab", 0.0) + spelled("ab", 0.3)
    assert words_from_glyphs(Glyphs.of(shuffled(glyphs, 1)), CONFIG.words) == (
        word("ab", 0.0, 0.0, 10.0, 10.0),
    )


def test_words_two_baselines_give_two_rows() -> None:
    """Glyphs on two baselines give the words of the upper row, then of the lower one."""
    glyphs = spelled("ab", 0.0, 0.0) + spelled("cd", 0.0, 12.0) + spelled("ef", 20.0, 12.0)
    assert words_from_glyphs(Glyphs.of(shuffled(glyphs, 2)), CONFIG.words) == (
        word("ab", 0.0, 0.0, 10.0, 10.0),
        word("cd", 0.0, 12.0, 10.0, 22.0),
        word("ef", 20.0, 12.0, 30.0, 22.0),
    )


def test_words_caption_under_a_display_number_is_a_row_of_its_own() -> None:
    """A key figure's number in 70 pt type, its box reaching its font's descent, and the
    10 pt caption set close under it, the boxes' bottoms 1.2 pt apart: two rows, the
    number's digits one word and the caption's words their own, where the caption's
    letters were spelled in among the digits ('5DUIZEN0D')."""
    digits = [glyph(ch, 771.0 + 27.0 * k, 162.5, width=28.0, size=70.0)
              for k, ch in enumerate("500+")]
    caption = ([glyph(ch, 774.0 + 4.5 * k, 223.7, width=4.5) for k, ch in enumerate("DUIZEND")]
               + [glyph(" ", 805.5, 223.7, width=1.8)]
               + [glyph(ch, 807.5 + 4.5 * k, 223.7, width=4.5)
                  for k, ch in enumerate("ONDERDELEN")])
    found = words_from_glyphs(Glyphs.of(shuffled(digits + caption, 3)), CONFIG.words)
    assert [w.text for w in found] == ["500+", "DUIZEND", "ONDERDELEN"]
    # a unit set at half the number's size on its baseline, beside it, stays with it
    unit = [glyph("%", 853.0, 197.5, width=14.0, size=35.0)]
    found = words_from_glyphs(Glyphs.of(shuffled(digits[:3] + unit + caption, 4)),
                              CONFIG.words)
    assert [w.text for w in found] == ["500%", "DUIZEND", "ONDERDELEN"]


def test_words_raised_small_letter_kerned_into_a_word_stays_in_it() -> None:
    """The LaTeX logo's A, 7 pt beside 10 pt letters and kerned under the L's shoulder,
    stands in the upper half of the L's box: the word is spelled whole, 'LATEX'."""
    glyphs = [glyph("L", 0.0), glyph("A", 3.0, -0.5, width=4.0, size=7.0), glyph("T", 6.0),
              glyph("E", 11.0, 2.0), glyph("X", 15.0)]
    assert [w.text for w in words_from_glyphs(Glyphs.of(glyphs), CONFIG.words)] == ["LATEX"]


def test_words_rotated_glyphs_form_own_words() -> None:
    """Rotated glyphs never join upright ones; they read bottom to top as a word of their own."""
    upright = spelled("ab", 95.0)
    # three rotated glyphs stacked upwards in the same x range as the upright word
    rotated = [glyph(ch, 100.0, 50.0 - 5.0 * k, width=10.0, size=5.0, direction=90)
               for k, ch in enumerate("xyz")]
    result = words_from_glyphs(Glyphs.of(shuffled(upright + rotated, 4)), CONFIG.words)
    assert result == (
        word("ab", 95.0, 0.0, 105.0, 10.0),
        word("xyz", 100.0, 40.0, 110.0, 55.0, size=5.0, direction=90),
    )


def test_words_rotated_glyph_touching_upright_word_stays_apart() -> None:
    """A rotated digit set solid against an upright word is still a word of its own."""
    glyphs = [*spelled("ab", 0.0), glyph("1", 10.0, width=3.0, direction=90)]
    assert words_from_glyphs(Glyphs.of(glyphs), CONFIG.words) == (
        word("ab", 0.0, 0.0, 10.0, 10.0),
        word("1", 10.0, 0.0, 13.0, 10.0, direction=90),
    )


def test_words_integer_coordinates_accepted() -> None:
    """Glyph boxes given as whole numbers (valid for float fields) give words like floats do."""
    glyphs = [Glyph("a", BBox(0, 0, 5, 10), "F", 10), Glyph("b", BBox(5, 0, 10, 10), "F", 10)]
    assert words_from_glyphs(Glyphs.of(glyphs), CONFIG.words) == (word("ab", 0.0, 0.0, 10.0, 10.0),)


def test_glyphs_columns_give_back_the_glyphs() -> None:
    """Glyph columns built from glyphs index and iterate as those glyphs, and are read-only."""
    given = [*spelled("ab", 10.0), glyph("1", 0.0, 20.0, width=3.0, direction=90)]
    columns = Glyphs.of(given)
    assert list(columns) == given
    assert columns[2] == given[2]
    assert len(columns) == 3
    assert columns == Glyphs.of(given)
    assert columns != Glyphs.of(given[:2])
    with pytest.raises(ValueError, match="read-only"):
        columns.boxes[0, 0] = 1.0


def test_glyphs_columns_of_unequal_length_rejected() -> None:
    """Columns that disagree on the number of glyphs are refused, naming the lengths."""
    with pytest.raises(ValueError, match="unequal length"):
        Glyphs(("a", "b"), np.zeros((2, 4)), ("F",), np.ones(2), np.ones(2, dtype=np.int16),
               np.zeros(2, dtype=np.int16))


def test_words_code_points_spelled_back() -> None:
    """code_points gives one code point per one-character text (astral and lone
    surrogate characters included, -1 for any other text), and spell turns them back."""
    texts = ("A", "\u00ea", "\U0001d538", "\ud800", " ")
    codes = code_points(texts)
    assert codes.tolist() == [0x41, 0xEA, 0x1D538, 0xD800, 0x20]
    assert spell(codes) == "".join(texts)
    assert code_points(("fi", "", "a")).tolist() == [-1, -1, 0x61]


def test_words_accented_and_ligature_glyphs_keep_their_texts() -> None:
    """A word of one-character glyphs and a word holding a two-letter glyph (a ligature
    PDFium reports as one glyph) are both spelled from their glyphs' texts; a ligature's
    presentation form (``ﬁ``, as pdfminer.six gives it) is its letters."""
    glyphs = [*spelled("caf\u00e9", 10.0), glyph("\ufb01", 60.0, 0.0),
              *spelled("ne", 65.0), Glyph("fi", BBox(100, 0, 110, 10), "F", 10),
              *spelled("x", 110.0)]
    assert [w.text for w in words_from_glyphs(Glyphs.of(glyphs), CONFIG.words)] == [
        "caf\u00e9", "fine", "fix"]


# --------------------------------------------------------------------------- group_lines


def test_words_group_lines_two_lines_shuffled() -> None:
    """Words of two lines given shuffled come back as two lines, top to bottom, left to right."""
    first = [word("The", 0.0, 0.0, 15.0, 10.0), word("city", 18.0, 0.0, 38.0, 10.0),
             word("council", 41.0, 0.0, 76.0, 10.0)]
    second = [word("shall", 0.0, 12.0, 25.0, 22.0), word("meet", 28.0, 12.0, 48.0, 22.0),
              word("today", 51.0, 12.0, 76.0, 22.0)]
    lines = group_lines(shuffled(first + second, 5), CONFIG.words)
    assert lines == [first, second]


def test_words_group_lines_small_print_under_a_key_figure_is_a_line_of_its_own() -> None:
    """A key figure's number in 100 pt type, whose box reaches its font's descent over
    the first line of the 7 pt note set close under it, and a number whose box foot is
    level with its 14 pt caption's: the note's and the caption's lines are lines of their
    own, whichever way the words come ('18 *The Investment ... % Special Investments,',
    'Deployed 34 into life sciences' on a performance report's key-figure page)."""
    column = [word("body", 0.0, 400.0, 20.0, 407.0, size=7.0),
              word("text", 22.0, 400.0, 40.0, 407.0, size=7.0)]
    number = [word("18", 56.4, 216.0, 148.6, 316.0, size=100.0),
              word("%", 148.6, 254.5, 197.8, 302.5, size=48.0)]
    note = [word("*The", 56.7, 312.1, 70.5, 319.1, size=7.0),
            word("Investment", 71.9, 312.1, 103.8, 319.1, size=7.0),
            word("Special", 157.9, 312.1, 178.3, 319.1, size=7.0)]
    second = [word("which", 56.7, 321.1, 74.0, 328.1, size=7.0),
              word("comprise", 75.4, 321.1, 102.3, 328.1, size=7.0)]
    lines = group_lines(shuffled(number + note + second + column, 6), CONFIG.words)
    assert [[w.text for w in line] for line in lines] == [
        ["18", "%"], ["*The", "Investment", "Special"], ["which", "comprise"],
        ["body", "text"]]
    figure = [word("34", 403.0, 237.2, 507.8, 337.2, size=100.0)]
    caption = [word("Deployed", 374.7, 324.3, 431.9, 338.3, size=14.0),
               word("into", 434.7, 324.3, 457.8, 338.3, size=14.0)]
    lines = group_lines(shuffled(figure + caption + column, 7), CONFIG.words)
    assert [[w.text for w in line] for line in lines] == [
        ["34"], ["Deployed", "into"], ["body", "text"]]
    # a word of display type beside lines of text (no display type: the page's usual
    # size) joins its baseline's line as before
    usual = [word("a", 0.0, 300.0, 6.0, 310.0), word("b", 8.0, 300.0, 14.0, 310.0)]
    tall = word("Tall", 16.0, 282.0, 40.0, 312.0, size=30.0)
    assert [[w.text for w in line] for line in group_lines([*usual, tall], CONFIG.words)] \
        == [["a", "b", "Tall"]]


def test_words_group_lines_superscript_joins_line() -> None:
    """A superscript overlapping its line by at least line_overlap of its height joins it."""
    base = [word("note", 0.0, 0.0, 20.0, 10.0), word("text", 26.0, 0.0, 46.0, 10.0)]
    # 5 pt high, 3 pt inside the line: overlap 0.6 >= line_overlap 0.5
    mark = word("1", 20.5, -2.0, 23.0, 3.0, size=5.0)
    assert group_lines([base[1], mark, base[0]], CONFIG.words) == [[base[0], mark, base[1]]]


def test_words_group_lines_high_mark_away_from_word_ends_stays_apart() -> None:
    """A mark overlapping the line by less than line_overlap of its height, standing over
    a word rather than after one, is a line of its own."""
    base = [word("note", 0.0, 0.0, 20.0, 10.0), word("text", 26.0, 0.0, 46.0, 10.0)]
    # 5 pt high, 1 pt inside the line: overlap 0.2 < line_overlap 0.5
    mark = word("1", 10.0, -4.0, 12.5, 1.0, size=5.0)
    assert group_lines([base[1], mark, base[0]], CONFIG.words) == [[mark], base]


def test_words_group_lines_high_call_after_its_word_joins_line() -> None:
    """A note's call raised so high that it overlaps the line by less than line_overlap
    of its height joins the line where it stands right after a word, set smaller than it;
    one set in the word's own size (a list's number beside the line above) does not."""
    base = [word("note", 0.0, 0.0, 20.0, 10.0), word("text", 26.0, 0.0, 46.0, 10.0)]
    call = word("1", 20.5, -4.0, 23.0, 1.0, size=5.0)
    assert group_lines([base[1], call, base[0]], CONFIG.words) == [[base[0], call, base[1]]]
    after_last = word("2", 46.3, -4.0, 48.8, 1.0, size=5.0)
    assert group_lines([*base, after_last], CONFIG.words) == [[*base, after_last]]
    big = [word("note", 0.0, 0.0, 20.0, 10.0, size=9.0), word("3.", 21.0, 0.0, 30.0, 10.0)]
    above = word("end.", 31.0, -9.0, 50.0, 0.5, size=8.0)
    assert group_lines([*big, above], CONFIG.words) == [[above], big]


def test_words_group_lines_subscript_joins_a_line_that_carries_a_call() -> None:
    """A subscript ('V' 'm', 9 pt text, 7 pt scripts, lines 11 pt apart) joins its own
    line although that line's only word of its size is a note's call raised over it
    ('coupling' '14'), not the line under it, where it would stand over a word ('to'):
    the call is no word of the line's text."""
    upper = [word("V", 77.4, 525.3, 83.5, 534.3, size=9.0),
             word("through", 90.4, 525.4, 120.2, 534.4, size=9.0),
             word("coupling", 155.7, 525.4, 187.8, 534.4, size=9.0)]
    call = word("14", 187.9, 523.8, 204.7, 530.6, size=7.0)
    sub = word("m", 82.9, 529.8, 88.4, 536.5, size=7.0)
    lower = [word("to", 77.5, 536.4, 84.9, 545.4, size=9.0),
             word("describe", 88.2, 536.4, 119.2, 545.4, size=9.0)]
    lines = group_lines([*lower, sub, call, *upper], CONFIG.words)
    assert lines == [[upper[0], sub, upper[1], upper[2], call], lower]
    # a chart's tick label in the call's size, far from every word's end, is no
    # subscript: it stays apart from the next column's line (a paper's page 3)
    tick = word("100", 73.1, 46.8, 83.0, 54.0, size=7.0)
    text = [word("réalisations,", 328.5, 41.8, 375.4, 51.8),
            word("b", 375.4, 40.6, 378.9, 47.5, size=7.0),
            word("démontrent", 381.6, 41.8, 426.0, 51.8)]
    assert group_lines([tick, *text], CONFIG.words) == [text, [tick]]
    # a fraction's lower limit, wholly under the upper sum sign it starts before, hangs
    # from none of the line's words: it stays in its own sum's line
    rows = [("1", 419.78, 189.65, 423.75, 196.63, 6.97),
            ("k", 414.06, 193.5, 417.84, 198.48, 4.98), ("§", 502.28, 190.64, 506.7, 200.6, 9.96),
            ("2.", 334.56, 192.57, 342.31, 202.54, 9.96),
            ("dij", 347.29, 192.57, 358.59, 203.45, 9.96),
            ("=", 362.26, 192.57, 370.01, 202.54, 9.96),
            ("dij", 372.78, 192.57, 384.08, 203.45, 9.96),
            ("log", 386.64, 192.57, 399.37, 202.54, 9.96),
            ("∑", 405.69, 195.28, 414.06, 202.26, 6.97),
            ("(IDF", 431.6, 192.57, 453.19, 202.54, 9.96),
            ("transform", 456.51, 192.57, 498.97, 202.54, 9.96),
            ("4.2)", 510.03, 192.57, 526.64, 202.54, 9.96),
            ("k", 410.73, 202.27, 414.51, 207.25, 4.98),
            ("δik", 416.45, 198.42, 426.51, 206.06, 6.97),
            ("∑", 402.36, 204.05, 410.73, 211.02, 6.97)]
    formula = [word(t, x0, top, x1, bottom, size=size) for t, x0, top, x1, bottom, size in rows]
    assert [[w.text for w in line] for line in group_lines(formula, CONFIG.words)][-1] == \
        ["∑", "k"]
    # two stacked labels bridged by a taller figure beside them stay two lines
    figure = word("0", 108.8, 180.7, 118.0, 197.3, size=16.0)
    label, address = (word("Bob:", 212.6, 175.2, 240.7, 187.2, size=12.0),
                      word("10.0.0.2", 204.7, 189.4, 248.9, 201.4, size=12.0))
    assert len(group_lines([figure, label, address], CONFIG.words)) == 2


def test_words_group_lines_a_flat_mark_parts_no_line() -> None:
    """An OCR layer's line whose words are boxed 8-10 pt and 11-13 pt high, with a stray
    mark boxed 1 pt high between their feet: the mark tells nothing of the lines, the
    words are one line, which the mark joins; a mark under every line is one of its own."""
    short = [word("Mr.", 56.9, 83.0, 74.9, 93.0), word("is", 141.6, 83.5, 151.2, 91.5),
             word("issue", 218.2, 83.3, 248.2, 93.3)]
    tall = [word("Wragge", 83.6, 84.1, 130.4, 97.1), word("going", 158.8, 84.3, 191.8, 95.3)]
    mark = word("&nbsp;", 340.4, 93.6, 344.0, 94.6, size=1.0)
    under = word("&nbsp;", 340.4, 100.0, 344.0, 101.0, size=1.0)
    line = sorted([*short, *tall], key=lambda w: w.bbox.x0)
    assert group_lines([mark, under, *tall, *short], CONFIG.words) == [[*line, mark], [under]]
    full_stop = word(".", 249.0, 91.0, 251.0, 93.0)
    assert group_lines([*tall, *short, full_stop], CONFIG.words) == [[*line, full_stop]]
    # small print beside large type (a slide) is flat too, but in lines of its own words
    large = [[word(text, 50.0 + 130 * k, top, 170.0 + 130 * k, top + 40.0, size=40.0)
              for k, text in enumerate(texts)]
             for top, texts in ((100.0, ["SUMMER", "SALE", "NOW", "ON"]),
                                (150.0, ["ALL", "STOCK", "MUST", "GO"]))]
    notes = [[word(a, 600.0, 104.0 + 12 * k, 630.0, 112.0 + 12 * k, size=8.0),
              word(b, 633.0, 104.0 + 12 * k, 670.0, 112.0 + 12 * k, size=8.0)]
             for k, (a, b) in enumerate([("Terms", "apply."), ("See", "store"),
                                         ("for", "details.")])]
    found = group_lines([w for line in (*large, *notes) for w in line], CONFIG.words)
    assert found == [large[0], *notes, large[1]]


def test_words_ocr_word_overlapping_the_word_before_it_keeps_its_letters() -> None:
    """An OCR layer draws each word where the scan shows it, in a font wider than the
    print: 'MVENG.', drawn after a space, starts inside the 'T' that ends 'ENGELBERT',
    and 'Paris' inside the full stop, as that word's letters push on.  Each word keeps
    its letters in the order drawn, where the letters sorted across were spelled
    'ENGELBERMT VENG.P aris'."""
    def drawn(text: str, x0: float, width: float = 6.0) -> list[Glyph]:
        return [glyph(ch, x0 + width * k, width=width) for k, ch in enumerate(text)]

    first = drawn("ENGELBERT", 0.0)                      # ends at 54
    second = drawn("MVENG.", 53.0)                        # ends at 89
    third = drawn("Paris", 88.0)
    glyphs = [*first, glyph(" ", 54.0, width=2.0), *second, glyph(" ", 89.0, width=2.0),
              *third]
    words = words_from_glyphs(Glyphs.of(glyphs), CONFIG.words)
    assert [w.text for w in words] == ["ENGELBERT", "MVENG.", "Paris"]
    # a word drawn again 0.4 pt on, after a space (a bold made so), is a copy
    bold = [*spelled("Hello", 0.0), glyph(" ", 25.0, width=2.0), *spelled("Hello", 0.4),
            glyph(" ", 27.0, width=2.0), *spelled("world", 29.0),
            glyph(" ", 54.0, width=2.0), *spelled("world", 29.4)]
    assert [w.text for w in words_from_glyphs(Glyphs.of(bold), CONFIG.words)] \
        == ["Hello", "world"]


def test_words_drop_capital_is_no_letter_of_the_word_beside_it() -> None:
    """A drop capital 30 pt tall set solid against the third line it stands beside (its
    foot on that line's baseline, as a journal sets it) is a word of its own, not the
    first letter of that line's first word ('Osations'); the line grouping then opens
    the first line with it (``drop_cap_min_height``).  A raised initial, with no line
    beside it, stays a letter of its word."""
    cap = glyph("O", 0.0, 2.0, width=20.0, size=30.0)
    lines = [spelled(text, 20.0, 11.0 * k) for k, text in enumerate(("ver", "pres", "sations"))]
    words = words_from_glyphs(Glyphs.of([cap, *[g for line in lines for g in line]]),
                              CONFIG.words)
    assert sorted(w.text for w in words) == ["O", "pres", "sations", "ver"]
    grouped = group_lines(words, CONFIG.words)
    assert [[w.text for w in line] for line in grouped] == [["O", "ver"], ["pres"],
                                                            ["sations"]]
    # an initial raised on the first line's baseline, nothing beside it above, and a
    # letter with an index set half its size, are letters of their words
    raised = [glyph("O", 0.0, -20.0, width=20.0, size=30.0), *spelled("nce", 20.0, 0.0)]
    indexed = [glyph("K", 40.0, 0.0), glyph("d", 45.0, 6.0, width=2.5, size=5.0)]
    assert [w.text for w in words_from_glyphs(Glyphs.of([*raised, *indexed]),
                                              CONFIG.words)] == ["Once", "Kd"]


def test_words_group_lines_rotated_words_last() -> None:
    """Rotated words form their own line after the upright lines, read bottom to top."""
    upright = [word("body", 0.0, 0.0, 20.0, 10.0)]
    lower = word("PROOF", 300.0, 60.0, 308.0, 90.0, size=8.0, direction=90)
    upper = word("COPY", 300.0, 20.0, 308.0, 50.0, size=8.0, direction=90)
    assert group_lines([upper, upright[0], lower], CONFIG.words) == [upright, [lower, upper]]


# --------------------------------------------------------------------------- split_at_gaps


def test_words_split_at_gaps_parts_title_from_masthead() -> None:
    """A line is parted where a gap is wider than min_gap_em times the size of the word
    before it: 15 pt after a 10 pt word parts at 1.4 em, not at 1.5 em; word gaps of
    3 pt never part."""
    title = [word("Proposed", 0.0, 0.0, 40.0, 10.0), word("Rules", 43.0, 0.0, 68.0, 10.0)]
    masthead = [word("Federal", 83.0, 0.0, 118.0, 10.0),
                word("Register", 121.0, 0.0, 161.0, 10.0)]
    assert split_at_gaps([*title, *masthead], 1.4) == [title, masthead]
    assert split_at_gaps([*title, *masthead], 1.5) == [[*title, *masthead]]
    assert split_at_gaps([], 1.5) == []


def paragraph(cap_x: float) -> tuple[Word, list[list[Word]]]:
    """A drop capital 34 pt tall at ``cap_x`` whose baseline is the third of five lines
    of two words (12 pt apart, from x 40), and those lines."""
    lines = [[word(f"w{k}a", 40.0, 12.0 * k, 60.0, 12.0 * k + 10.0),
              word(f"w{k}b", 64.0, 12.0 * k, 90.0, 12.0 * k + 10.0)] for k in range(5)]
    return word("T", cap_x, 0.0, cap_x + 25.0, 34.0, size=34.0), lines


def test_lines_drop_capital_opens_the_first_line_beside_it() -> None:
    """A drop capital left of the lines it stands beside opens the first of them and
    glues none together; a tall word standing among the words (not left of them all),
    or left of them with drop capitals off, joins the line whose baseline it shares and
    glues none together either (``line_like_size_ratio``)."""
    cap, lines = paragraph(10.0)
    words = [cap, *[w for line in lines for w in line]]
    assert [[w.text for w in line] for line in group_lines(shuffled(words, 1), CONFIG.words)] \
        == [["T", "w0a", "w0b"], *[[f"w{k}a", f"w{k}b"] for k in range(1, 5)]]
    plain = [[f"w{k}a", f"w{k}b"] for k in range(5)]
    cap, lines = paragraph(50.0)
    grouped = group_lines([cap, *[w for line in lines for w in line]], CONFIG.words)
    assert [[w.text for w in line] for line in grouped] \
        == [*plain[:2], ["w2a", "T", "w2b"], *plain[3:]]
    off = CONFIG.replace(drop_cap_min_height=10.0)
    cap, lines = paragraph(10.0)
    grouped = group_lines([cap, *[w for line in lines for w in line]], off.words)
    assert [[w.text for w in line] for line in grouped] \
        == [*plain[:2], ["T", "w2a", "w2b"], *plain[3:]]


def test_lines_drop_capital_whose_descent_reaches_the_line_under_it() -> None:
    """A drop capital beside three lines whose box, grown by its font's descent, reaches
    half into the fourth line, which runs out to the column's edge under it, still opens
    the first of the three; every line keeps its words."""
    lines = [[word(f"w{k}a", 40.0 if k < 3 else 10.0, 12.0 * k, 60.0, 12.0 * k + 10.0),
              word(f"w{k}b", 64.0, 12.0 * k, 90.0, 12.0 * k + 10.0)] for k in range(5)]
    cap = word("O", 10.0, 1.0, 35.0, 42.0, size=34.0)
    grouped = group_lines(shuffled([cap, *[w for line in lines for w in line]], 2),
                          CONFIG.words)
    assert [[w.text for w in line] for line in grouped] \
        == [["O", "w0a", "w0b"], *[[f"w{k}a", f"w{k}b"] for k in range(1, 5)]]


def test_lines_drop_capital_set_solid_against_its_lines() -> None:
    """A drop capital whose box ends a thousandth of a point past the start of the
    letters set solid against it (the rounding of two glyph boxes) opens the first line
    beside it; the fourth line, run out under it to the column's edge, keeps its words."""
    lines = [[word(f"w{k}a", 40.0 if k < 3 else 10.0, 12.0 * k, 60.0, 12.0 * k + 10.0),
              word(f"w{k}b", 64.0, 12.0 * k, 90.0, 12.0 * k + 10.0)] for k in range(5)]
    cap = word("D", 10.0, 1.0, 40.0006, 46.0, size=46.0)
    grouped = group_lines([cap, *[w for line in lines for w in line]], CONFIG.words)
    assert [[w.text for w in line] for line in grouped] \
        == [["D", "w0a", "w0b"], *[[f"w{k}a", f"w{k}b"] for k in range(1, 5)]]


def test_lines_tall_words_opening_one_line_stay_in_their_order() -> None:
    """A headline's tall words standing left of the lines beside them all open the
    first of those lines, left to right as they stand, not reversed."""
    _, lines = paragraph(10.0)
    headline = [word(text, x, 0.0, x + 8.0, 34.0, size=34.0)
                for text, x in (("Hero", -20.0), ("of", -10.0), ("independence", 0.0))]
    for words in ([*headline, *[w for line in lines for w in line]],  # as drawn
                  [*headline[::-1], *[w for line in lines for w in line]]):
        grouped = group_lines(words, CONFIG.words)
        assert [w.text for w in grouped[0]] == ["Hero", "of", "independence", "w0a", "w0b"]


def test_words_a_space_between_right_to_left_letters_parts_them_where_it_was_drawn() -> None:
    """A space drawn between two letters of Arabic script parts the words there, though
    the letter before it reaches out under it (a final mim's tail, 'قلم های') or the
    letter after it does (boxes wider than their advances): 'قلم' and 'های', not 'قل'
    and 'مهای'.  A space drawn between letters that do not stand side by side (where a
    line drawn in visual order goes on in another run) is placed where it stands."""
    drawn = [glyph("ق", 112.0, width=8.0), glyph("ل", 105.3, width=6.9),
             glyph("م", 92.9, width=12.8), glyph(" ", 93.1, width=4.1),
             glyph("ه", 81.9, width=11.2), glyph("ا", 74.7, width=7.6),
             glyph("ی", 57.5, width=17.5)]
    words = words_from_glyphs(Glyphs.of(drawn), CONFIG.words)
    assert [visual_order(w.text) for w in words] == ["های", "قلم"]
    wide = [glyph("د", 462.1, width=10.1), glyph(" ", 459.2, width=7.1),
            glyph("ن", 457.3, width=11.2), glyph("ش", 451.1, width=14.7)]
    assert [visual_order(w.text) for w in words_from_glyphs(Glyphs.of(wide), CONFIG.words)] \
        == ["نش", "د"]
    # a line drawn in visual order, in two runs, a space of no width between them: the
    # middle of the letters' starts would cut a word of the first run ('رم')
    apart = [glyph("ر", 40.0), glyph("م", 45.0), glyph("ظ", 70.0), glyph(" ", 17.6, width=0.0),
             glyph("ن", 11.3, width=6.7), glyph("ه", 17.7, width=4.7)]
    assert "رم" in [w.text for w in words_from_glyphs(Glyphs.of(apart), CONFIG.words)]
    # a space drawn out of its place moves past no letter: a line drawn word by word
    # from the left ('ו שלם'), and a stream that draws a word's letters around the space
    by_word = [glyph("ו", 11.5, width=3.0), glyph(" ", 9.0, width=2.5),
               glyph("ם", 0.0, width=3.0), glyph("ל", 3.0, width=3.0),
               glyph("ש", 6.0, width=3.0)]
    assert [visual_order(w.text) for w in words_from_glyphs(Glyphs.of(by_word), CONFIG.words)] \
        == ["שלם", "ו"]
    line = [glyph("ש", 195.0), glyph("ל", 190.0), glyph("ו", 185.0), glyph("ם", 180.0),
            glyph(" ", 177.0, width=3.0), glyph("ט", 172.0), glyph("ו", 167.0),
            glyph("ב", 162.0)]
    around = [line[k] for k in (0, 1, 4, 2, 3, 5, 6, 7)]  # ש ל, the space, ו ם ט ו ב
    assert [visual_order(w.text) for w in words_from_glyphs(Glyphs.of(around), CONFIG.words)] \
        == ["טוב", "שלום"]


def test_words_a_space_wider_than_the_final_letter_it_overlaps_and_marks_in_arabic() -> None:
    """XePersian's final he is narrower than the space drawn after it, whose box
    starts where the letter's does ('دانشکده علوم', not 'دانشکد ه'); a comma, a stop
    or a number's bracket drawn right after a word ends it, and a bracket after the
    space opens the next ('آمار، دانشکده', 'شمس [۱] روش', not 'آمار ،' nor '[۱ ]').
    A space drawn over the letter before it and reaching far past it (a justified
    line's stretched space, drawn after the letter that stands right of it) parts
    nothing there: 'علی'."""
    def words(drawn: list[Glyph]) -> list[str]:
        return [visual_order(w.text) for w in words_from_glyphs(Glyphs.of(drawn), CONFIG.words)]

    final = [glyph("د", 337.72, width=3.69), glyph("ه", 335.43, width=2.29),
             glyph(" ", 335.43, width=2.42), glyph("ع", 328.66, width=4.37),
             glyph("ل", 326.43, width=2.37)]
    assert words(final) == ["عل", "ده"]
    comma = [glyph("ر", 364.0, width=2.99), glyph("،", 361.26, width=2.74),
             glyph(" ", 361.26, width=2.41), glyph("د", 355.73, width=3.11)]
    assert words(comma) == ["د", "ر،"]
    bracket = [glyph("س", 212.32, width=9.54), glyph(" ", 212.32, width=2.68),
               glyph("[", 206.27, width=3.53), glyph("۱", 201.09, width=5.18),
               glyph("]", 198.05, width=3.04), glyph(" ", 198.05, width=2.68),
               glyph("ر", 192.0, width=4.0)]
    assert words(bracket) == ["ر", "]۱[", "س"]
    comma = [*bracket[:5], glyph("،", 195.3, width=2.74), glyph(" ", 195.3, width=2.68),
             glyph("ر", 189.0, width=4.0)]  # a comma after the bracket: '[۱]،'
    assert words(comma) == ["ر", "،]۱[", "س"]
    stretched = [glyph("ع", 422.35, width=4.15), glyph(" ", 422.47, width=10.16),
                 glyph("ل", 419.71, width=2.93), glyph("ی", 412.21, width=7.64)]
    assert words(stretched) == ["علی"]


def test_words_mark_joins_the_letter_it_stands_over_not_the_line_beside() -> None:
    """A combining mark drawn as a glyph of its own whose box reaches down to the
    baseline of the line in the next column (two columns whose baselines stand 3.6 pt
    apart, as on a two-column Arabic gazette) joins the letter it stands over, in its
    own column: no word is made across the gutter."""
    left = spelled("ab", 0.0)                     # baseline 10.0
    right = spelled("cd", 100.0, top=3.6)         # baseline 13.6
    shadda = Glyph("\u0651", BBox(3.0, 3.6, 3.0, 13.6), "F", SIZE)  # over "a", zero wide
    words = words_from_glyphs(Glyphs.of([*right, shadda, *left]), CONFIG.words)
    assert words == (
        word("a\u0651b", 0.0, 0.0, 10.0, 13.6),
        word("cd", 100.0, 3.6, 110.0, 13.6),
    )


def test_words_a_mark_of_no_advance_follows_the_letter_whose_advance_it_ends() -> None:
    """A Thai tone mark or vowel sign drawn at the pen (a box of no width) between its
    letter and the next, nearer the next one's centre, follows its own letter ('ส่วน',
    not 'สว่น'); on a justified line the pen moves on after each mark as after a
    letter, and the letter after two stacked marks stands no word space from the pen
    ('สิ้น', not 'สิ้ น')."""
    line = [glyph("ส", 0.0, width=6.4), glyph("\u0e48", 6.6, width=0.0),
            glyph("ว", 7.0, width=4.0), glyph("น", 11.1, width=6.9),
            glyph("ส", 30.0, width=6.1), glyph("\u0e34", 36.6, width=0.0),
            glyph("\u0e49", 37.4, width=0.0), glyph("น", 38.2, width=6.7)]
    words = words_from_glyphs(Glyphs.of(line), CONFIG.words)
    assert [w.text for w in words] == ["ส\u0e48วน", "ส\u0e34\u0e49น"]
    # an accent of no advance drawn at its letter's origin, a word space after the word
    # before, opens the next word
    accented = [*spelled("ab", 0.0), glyph("\u0301", 13.0, width=0.0), *spelled("ec", 13.0)]
    assert [w.text for w in words_from_glyphs(Glyphs.of(accented), CONFIG.words)] == \
        ["ab", "e\u0301c"]


def test_words_an_accent_over_a_dotless_i_makes_the_accented_i() -> None:
    """TeX sets í as an acute drawn just before a dotless i and over it (\\'{\\i}), ǰ
    as a caron over a dotless j: the words read 'Física' and 'ǰob', not 'Fı́sica';
    a dotless i with no accent over it ('Kırık') stays as it is."""
    glyphs = [*spelled("F", 0.0), glyph("\u00b4", WIDTH + 1.0, width=3.0),
              glyph("\u0131", WIDTH), *spelled("sica", 2 * WIDTH), *spelled("Kırık", 50.0),
              glyph("\u02c7", 101.0, width=3.0), glyph("\u0237", 100.0),
              *spelled("ob", 100.0 + WIDTH)]
    words = words_from_glyphs(Glyphs.of(glyphs), CONFIG.words)
    assert [w.text for w in words] == ["Física", "Kırık", "\u01f0ob"]


def test_words_underline_struck_over_bold_letters_counted_once() -> None:
    """A word set bold and underlined by striking over (an underline, then its letter
    twice, at one place: a manual page's 'NAME') keeps one underline and one letter at
    each place: a letter starting where the one before it does tells nothing of the
    step from letter to letter."""
    glyphs = [glyph(text, 6.0 * k) for k, letter in enumerate("NAME")
              for text in ("_", letter, letter)]
    text = "".join(w.text for w in words_from_glyphs(Glyphs.of(glyphs), CONFIG.words))
    assert sorted(text) == sorted("_N_A_M_E")


def test_words_shadowed_title_over_small_text_counted_once() -> None:
    """A 36-pt title drawn again 2 pt off (a shadow) over lines of 10-pt text reads
    once: a copy is judged by the step from letter to letter in ems of its own size,
    not by the body text's step in points."""
    def line(text: str, x0: float, top: float, size: float) -> list[Glyph]:
        return [glyph(ch, x0 + 0.6 * size * k, top, width=0.6 * size, size=size)
                for k, ch in enumerate(text)]

    title = line("ANNUAL", 0.0, 0.0, 36.0)
    shadow = [glyph(g.text, g.bbox.x0 + 2.0, 2.0, width=g.bbox.width, size=36.0)
              for g in title]
    body = [g for k in range(6) for g in line("the body of the report", 0.0, 60.0 + 12 * k, 10.0)]
    words = words_from_glyphs(Glyphs.of(title + shadow + body), CONFIG.words)
    assert [w.text for w in words if w.size == 36.0] == ["ANNUAL"]
