"""Glyphs to words, and words to lines.

Both groupings work from coordinates alone, so a content stream drawn in any order
gives the same words and lines; each word keeps its place in the stream
(`Word.stream`) as evidence for reading order.

- Glyphs whose baselines lie within `glyph_row_tolerance_em` of each other stand on
  one row; a chained row spanning more than `glyph_row_max_span_em` is cut.
- A glyph drawn again on its row with the same text, both its edges within
  `glyph_repeat_overlap` of its width (fake bold, a shadow), or of the page's median
  step from letter to letter where that is shorter, is dropped (a squeezed OCR layer's
  doubled letters, 'והננו', stand a step apart, their boxes over most of each other).
- The line a row holds under a larger glyph (smaller than `line_like_size_ratio` of
  it, overlapping it across, in the lower half of its box: a caption under a key
  figure's number) stands on a row of its own.
- A gap wider than `word_gap_em` between glyphs on one baseline ends a word.
- A combining mark drawn as a glyph of its own joins the letter it stands over or
  under, else the letter nearest it on its row.
- Words share a baseline within `baseline_tolerance` of their height, and a line when
  they overlap vertically by `line_overlap`; a baseline joins the line above only
  through a word of its own size (`line_like_size_ratio`).
- A line of small words set close under a word in display type (`drop_cap_min_height`
  times the median size of its column's words, and of theirs), its top in the lower
  half of that word's box, is a line of its own where the display words it stands
  under stand over half its width: a key figure's number and its caption or note.
- A word `drop_cap_min_height` times taller than its column's usual word, left of two
  lines or more, is a drop capital: it opens the first of them.  A capital so much
  larger than the small letter set solid after it, with text beside it on a row above
  that letter's, is a word of its own (the drop capital on the baseline of the third
  line it stands beside).
- Columns of vertical writing are stacked in `vertical`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise, repeat
from statistics import median

import numpy as np
import numpy.typing as npt

from ..config import WordsConfig
from ..model import (
    CODE_POINTS,
    BBox,
    Glyph,
    Glyphs,
    Word,
    char_test,
    code_points,
    from_columns,
    is_cjk,
    is_right_to_left,
    spell,
    turned_boxes,
)
from .vertical import vertical_columns

__all__ = ["group_lines", "split_at_gaps", "upright_words", "words_and_members",
           "words_from_glyphs"]


def words_from_glyphs(glyphs: Glyphs, config: WordsConfig) -> tuple[Word, ...]:
    """The words the glyphs spell, ordered by baseline then x.

    Glyphs on one baseline (bottoms within ``glyph_row_tolerance_em`` of the font size) are
    sorted by x; a whitespace glyph, a gap wider than ``word_gap_em`` times the
    font size, or a step backwards ends a word.  A glyph drawn twice at the same
    place (fake bold) counts once.  Glyphs of different directions never share a
    word; text set in any direction is read along its own baseline, in its own frame
    ([`turned_boxes`][layoutkit.model.turned_boxes]): the upright words come first, then those
    of each other direction.  Upright CJK glyphs stacked into columns are vertical
    writing (`vertical_columns`), read top to
    bottom: a column's punctuation drawn off its axis is grouped as standing on it,
    CJK set smaller than ``line_like_size_ratio`` of a column's largest glyph makes
    words and a line of its own (a note set small in the column, which
    `group_lines` joins back to the column where it stands in it, a side comment
    beside it, which it does not; Latin small capitals turned a quarter stay one
    word), and its ruby makes words of its own beside it (it stands on another axis),
    never part of the column's.
    """
    return words_and_members(glyphs, config)[0]


def words_and_members(glyphs: Glyphs, config: WordsConfig
                      ) -> tuple[tuple[Word, ...], npt.NDArray[np.intp]]:
    """The words of `words_from_glyphs`, and the word each glyph is a letter of
    (its index among them; -1 for a glyph in no word: whitespace, a glyph drawn twice):
    what moves a word's letters together, as `skew` does."""
    texts = _Texts.of(glyphs.texts)
    columns = vertical_columns(glyphs, texts.ids, texts.blank, config)
    directions = np.where(columns.vertical, VERTICAL, glyphs.directions)
    boxes = glyphs.boxes
    marks = np.flatnonzero(columns.host >= 0)
    if len(marks):  # a column's punctuation, drawn off its axis, stands on it
        boxes = boxes.copy()
        boxes[marks, 0] = boxes[columns.host[marks], 0]
        boxes[marks, 2] = boxes[columns.host[marks], 2]
    words: list[Word] = []
    member_of = np.full(len(glyphs), -1, dtype=np.intp)
    styles = _styles(glyphs)
    for direction in np.unique(directions).tolist():
        made, members, starts = _words(glyphs, boxes, texts, styles,
                                       np.flatnonzero(directions == direction), config,
                                       direction)
        opens = np.zeros(len(members), dtype=np.intp)
        opens[starts] = 1
        member_of[members] = len(words) + np.cumsum(opens) - 1
        words += made
    return tuple(words), member_of


VERTICAL = 270
"""The direction of text in vertical writing: it reads top to bottom, as text turned
a quarter clockwise does, and its columns, lines in that frame, right to left."""


@dataclass(frozen=True, slots=True)
class _Texts:
    """The glyphs' texts as arrays: ``ids`` equal where the texts are equal, and
    whether each text is ``blank`` (whitespace or empty) or holds a spacing accent
    (``accented``), or is a combining mark (``mark``: a vowel sign or other
    diacritic drawn as a glyph of its own over or under a letter)."""

    ids: npt.NDArray[np.int64]
    blank: npt.NDArray[np.bool_]
    accented: npt.NDArray[np.bool_]
    mark: npt.NDArray[np.bool_]

    @staticmethod
    def of(texts: Sequence[str]) -> _Texts:
        """The arrays of ``texts``: code points, and ids above every code point for
        the few texts that are not one character."""
        ids = code_points(texts)
        blank = char_test(ids, str.isspace)
        accented = char_test(ids, _SPACING_ACCENTS.__contains__)
        mark = char_test(ids, _is_mark)
        distinct: dict[str, int] = {}
        for k in np.flatnonzero(ids < 0).tolist():
            text = texts[k]
            ids[k] = CODE_POINTS + distinct.setdefault(text, len(distinct))
            blank[k] = not text.strip()
            accented[k] = not _SPACING_ACCENTS.isdisjoint(text)
        return _Texts(ids, blank, accented, mark)


_NONE: npt.NDArray[np.intp] = np.empty(0, dtype=np.intp)


def _words(glyphs: Glyphs, boxes: npt.NDArray[np.float64], texts: _Texts,
           styles: npt.NDArray[np.intp], chosen: npt.NDArray[np.intp], config: WordsConfig,
           direction: int) -> tuple[list[Word], npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """The words of the glyphs ``chosen`` (indices into ``glyphs``, whose ``texts``
    these are, standing at ``boxes``, set in the ``styles`` `_styles` numbers), all set in
    ``direction``: grouped in the frame
    where they read upright; with the glyphs they hold (indices into ``glyphs``, word
    after word) and where each word's glyphs start among those."""
    if not len(chosen):
        return [], _NONE, _NONE
    box = turned_boxes(boxes[chosen], direction)
    size = glyphs.sizes[chosen]
    base = box[:, 3]
    start, end = box[:, 0], box[:, 2]
    order = np.argsort(base, kind="stable")
    em = np.maximum(size[order], 1.0)
    tolerance = config.glyph_row_tolerance_em * em
    new_row = _anchored(base[order], tolerance, np.concatenate(
        ([True], np.diff(base[order]) > tolerance[1:])), config.glyph_row_max_span_em * em)
    row = np.empty(len(order), dtype=np.intp)
    row[order] = np.cumsum(new_row)  # each glyph's row, back in the glyphs' order
    start, end = _after_spaces(start, end, row, texts.blank[chosen], texts.mark[chosen],
                               size)
    by_start = np.argsort(_across(start, end, size, row, texts, chosen), kind="stable")
    if direction != VERTICAL:
        row = _set_in(row, box, by_start, size, texts.blank[chosen])
        row = _stacked(row, box, by_start, size, texts.blank[chosen] | texts.mark[chosen],
                       config.line_like_size_ratio, config.glyph_row_tolerance_em)
    if direction == VERTICAL:  # a column's small type: a line of its own, joined later
        largest = np.zeros(int(row.max()) + 1)
        np.maximum.at(largest, row, size)
        ids = texts.ids[chosen]
        small = size < config.line_like_size_ratio * largest[row]
        row = 2 * row + (small & char_test(np.where(ids < CODE_POINTS, ids, -1), is_cjk))
    marks = np.flatnonzero(texts.mark[chosen])
    if len(marks):
        start, end, row = _on_hosts(box, row, marks, texts.blank[chosen],
                                    [glyphs.texts[i] for i in chosen.tolist()],
                                    config.word_gap_em * size)
        by_start = np.argsort(_across(start, end, size, row, texts, chosen), kind="stable")
    order = _by_row(by_start, row)
    ordered = chosen[order]
    ids, blank = texts.ids[ordered], texts.blank[ordered]
    s, e, r = start[order], end[order], row[order]
    gap = np.empty_like(s)
    gap[0] = np.inf
    gap[1:] = s[1:] - e[:-1]
    same_row = np.concatenate(([False], r[1:] == r[:-1]))
    duplicate = np.zeros(len(order), dtype=bool)
    same_text = np.concatenate(([False], ids[1:] == ids[:-1]))
    reach = config.glyph_repeat_overlap * _repeat_scale(
        s, e, r, ids, ~blank & ~texts.mark[ordered], size[order])
    duplicate[1:] = (same_row[1:] & same_text[1:] & (np.abs(s[1:] - s[:-1]) < reach)
                     & (np.abs(e[1:] - e[:-1]) < reach))
    limit = config.word_gap_em * size[order]
    drawn = np.flatnonzero(~duplicate)  # a copy would stand in its glyph's white
    codes = np.where(ids < CODE_POINTS, ids, -1)
    letter = char_test(codes, str.isalnum)
    limit[drawn] += _tracking(s[drawn], e[drawn], r[drawn], blank[drawn], letter[drawn],
                              styles[ordered[drawn]], size[order][drawn], limit[drawn])
    breaks = ~same_row | (gap > limit) | blank | np.concatenate(([False], blank[:-1]))
    sized = size[order]
    breaks[1:] |= _drop_capitals(codes, sized, box[order], config.drop_cap_min_height)
    if direction == VERTICAL:  # a note set small in a column is a word of its own
        cjk = char_test(codes, is_cjk)
        breaks[1:] |= ((cjk[1:] | cjk[:-1]) & (np.minimum(sized[1:], sized[:-1])
                       < config.line_like_size_ratio * np.maximum(sized[1:], sized[:-1])))
    keep = ~blank & ~duplicate
    word_id = np.cumsum(breaks)[keep]
    members = ordered[keep]
    if not len(members):
        return [], _NONE, _NONE
    starts = np.flatnonzero(np.concatenate(([True], word_id[1:] != word_id[:-1])))
    member_box = boxes[members]
    x0 = np.minimum.reduceat(member_box[:, 0], starts).tolist()
    top = np.minimum.reduceat(member_box[:, 1], starts).tolist()
    x1 = np.maximum.reduceat(member_box[:, 2], starts).tolist()
    bottom = np.maximum.reduceat(member_box[:, 3], starts).tolist()
    accented = np.add.reduceat(texts.accented[members], starts) > 0
    # each word's text is a slice of the kept glyphs' texts joined
    member_list = members.tolist()
    ends = [*starts[1:].tolist(), len(members)]
    codes = texts.ids[members]
    if (codes < CODE_POINTS).all():  # one character each, spelled by its code point
        joined = spell(codes)
        cuts = [0, *ends]
    else:  # a glyph of several letters of a right-to-left script, visually reversed
        kept_texts = [_visual(glyphs.texts[i]) for i in member_list]
        offsets = np.concatenate(([0], np.cumsum([len(t) for t in kept_texts])))
        cuts = offsets[np.append(starts, len(members))].tolist()
        joined = "".join(kept_texts)
    word_texts = [joined[a:b] for a, b in pairwise(cuts)]
    for k in np.flatnonzero(accented).tolist():
        word_texts[k] = _compose([(i, glyphs[i]) for i in member_list[starts[k]:ends[k]]])
    if direction == VERTICAL:
        word_texts = [text.translate(_HORIZONTAL_FORMS) for text in word_texts]
    firsts = members[starts]
    fonts = list(map(glyphs.fonts.__getitem__, firsts.tolist()))
    count = len(word_texts)
    return from_columns(Word, count, word_texts, from_columns(BBox, count, x0, top, x1, bottom),
                        fonts, glyphs.sizes[firsts].tolist(), repeat(direction, count),
                        np.minimum.reduceat(members, starts).tolist(),
                        glyphs.weights[firsts].tolist(), repeat("", count)), members, starts


_MIN_TRACKED_PAIRS = 4
"""Letters of a style are judged set apart (tracked) from this many pairs at least:
fewer may all be word breaks."""
_SAME_SIZE = 0.02
"""Relative difference within which two glyphs are of one size: a text face and the
math italic set with it share it, a subscript or a small capital does not."""
_TRACKING_SPREAD_EM = 0.02
"""Tracked letters stand apart by one white, give or take a kerning: the middle half
of a tracked style's gaps lie within this many of its ems.  A formula's symbols stand
apart by spaces of several widths."""


def _styles(glyphs: Glyphs) -> npt.NDArray[np.intp]:
    """A number for the font and size of each of ``glyphs``, equal where both are."""
    names = {name: k for k, name in enumerate(dict.fromkeys(glyphs.fonts))}
    fonts = np.fromiter(map(names.__getitem__, glyphs.fonts), dtype=np.intp, count=len(glyphs))
    sizes, size_of = np.unique(glyphs.sizes, return_inverse=True)
    return np.asarray(fonts * len(sizes) + size_of.reshape(-1), dtype=np.intp)


def _tracking(start: npt.NDArray[np.float64], end: npt.NDArray[np.float64],
              row: npt.NDArray[np.intp], blank: npt.NDArray[np.bool_],
              letter: npt.NDArray[np.bool_],
              style: npt.NDArray[np.intp], size: npt.NDArray[np.float64],
              limit: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """The white each glyph's style sets between its letters (tracking, letter
    spacing), added to the gap that ends a word before it; 0 for most.

    Glyphs come in reading order along their rows (``start``, ``end`` and ``row`` of
    each, whether it is ``blank`` and whether a ``letter`` or digit; no copy of a glyph
    among them), ``limit`` the gap that ends a word before each.  A pair of glyphs of
    one style (font and size, `_styles`) side by side on a row, closer than an em, one
    of them a letter or digit (a dot leader's dots, evenly apart, are no word), stands
    apart by the style's tracking within a word and by more between words.  Where nine
    pairs in ten of a style (`_MIN_TRACKED_PAIRS` at least) stand apart by more than
    ``limit`` (no text set solid breaks words that often, nor a formula, whose symbols
    touch here and there) and the middle half by one white (`_TRACKING_SPREAD_EM`), its
    letters are spaced by that white, their median gap.  Not after a letter of another
    style on the row that is set solid (`_MIN_TRACKED_PAIRS` pairs at least, none
    tracked) in the glyph's size: the white there is a word space (a formula's math
    italic, whose letters keep a thin white, starts a word of its own after the text's
    'as', or 'signal,'), where an initial or a subscript of another size, or capitals
    spaced in another face, run on.  Spaced capitals of a design tool's headings ('O u r
    I m p a c t') read as words again."""
    gap = np.empty(len(start))
    gap[:1] = np.inf
    gap[1:] = start[1:] - end[:-1]
    pair = np.zeros(len(start), dtype=np.bool_)
    pair[1:] = ((row[1:] == row[:-1]) & ~blank[1:] & ~blank[:-1] & (letter[1:] | letter[:-1])
                & (style[1:] == style[:-1]) & (gap[1:] < size[1:]))
    kinds = int(style.max(initial=-1)) + 1
    pairs = np.bincount(style[pair], minlength=kinds)
    apart = np.bincount(style[pair & (gap > limit)], minlength=kinds)
    tracked = np.zeros(kinds)
    for kind in np.flatnonzero((pairs >= _MIN_TRACKED_PAIRS) & (10 * apart >= 9 * pairs)).tolist():
        mine = pair & (style == kind)
        lower, middle, upper = np.quantile(gap[mine] / size[mine], [0.25, 0.5, 0.75])
        if upper - lower <= _TRACKING_SPREAD_EM:
            tracked[kind] = middle
    added = tracked[style] * size
    # the letter or digit last before each glyph on its row (punctuation aside)
    last = np.maximum.accumulate(np.where(letter, np.arange(len(start)), -1))
    before = np.concatenate(([-1], last[:-1]))
    other = np.maximum(before, 0)
    solid = (pairs >= _MIN_TRACKED_PAIRS) & (tracked == 0)
    after_solid = ((before >= 0) & (row[other] == row) & (style[other] != style)
                   & solid[style[other]] & (np.abs(size[other] - size) <= _SAME_SIZE * size))
    added[after_solid] = 0.0
    return added


def _horizontal_form(char: str) -> str:
    """The character a vertical presentation form (U+FE10-FE19, U+FE30-FE48) stands for
    in running text: its compatibility form, a full-width one for ASCII punctuation
    ('︒' is '。', '︵' is '（', '﹃' is '『'), the ellipses one character."""
    plain = unicodedata.normalize("NFKC", char)
    if plain in ("...", ".."):
        return "\u2026" if len(plain) == 3 else "\u2025"
    if len(plain) == 1 and "!" <= plain <= "~":
        return chr(ord(plain) + 0xFEE0)
    return plain if len(plain) == 1 else char


_HORIZONTAL_FORMS = {code: _horizontal_form(chr(code))
                     for code in [*range(0xFE10, 0xFE1A), *range(0xFE30, 0xFE49)]}
"""Vertical presentation forms, which a text layer of vertical writing may carry, to the
characters they stand for: what a reader searches, copies and compares."""


def _drop_capitals(codes: npt.NDArray[np.int64], size: npt.NDArray[np.float64],
                   box: npt.NDArray[np.float64], min_height: float) -> npt.NDArray[np.bool_]:
    """For each glyph (in reading order along its row, with its code point, ``size`` and
    ``box``: x0, top, x1, bottom) but the first, whether a drop capital stands before
    it, no letter of its word however near: a capital ``min_height`` times its size
    with a lower-case letter after it, and a glyph beside the capital on a row above
    that letter's (the lines a drop capital stands beside; an initial raised on the
    first line's baseline has none, 'Once')."""
    found = np.zeros(len(codes) - 1, dtype=np.bool_)
    jump = size[:-1] >= min_height * size[1:]
    if not jump.any():  # most pages: no glyph so much larger than the next
        return found
    capital = np.flatnonzero(jump & char_test(codes[:-1], str.isupper)
                             & char_test(codes[1:], str.islower))
    x0, top, x1, bottom = box.T
    for k in capital.tolist():
        reach = x1[k] + 2 * size[k + 1]
        found[k] = bool(np.any((x0 >= x1[k] - size[k + 1]) & (x0 <= reach)
                               & (bottom < top[k + 1]) & (top >= top[k] - size[k + 1])))
    return found


_COPY_EM = 0.1
"""Ems within which a word drawn again over a word starts where it does (a bold made by
drawing a word twice, a shadow): a copy, not the next word."""


def _across(start: npt.NDArray[np.float64], end: npt.NDArray[np.float64],
            size: npt.NDArray[np.float64], row: npt.NDArray[np.intp], texts: _Texts,
            chosen: npt.NDArray[np.intp]) -> npt.NDArray[np.float64]:
    """Where each of the glyphs ``chosen`` (in the order drawn, from ``start`` to
    ``end`` across, in ``size``, on ``row``) stands across its row, to order them by:
    its start; for a space drawn between two letters of a right-to-left script that
    stand side by side, the second left of the first (within the space's em), the
    space mostly within their boxes (its middle), the middle between their starts,
    where no other glyph of its row starts between that middle and the space's own
    start.  Such letters' boxes overlap the space between them (a final mim's tail
    reaches out under it, 'قلم های'; a font's boxes wider than its advances; a final
    he narrower than the space drawn from where it starts, 'دانشکده علوم'), so where
    the space starts tells nothing, and the order drawn places it; a space drawn out
    of its place (a line drawn word by word from the left, a shuffled stream, a
    justified line's stretched space) moves past no other letter.  A mark (no letter,
    no digit) drawn right after such a letter or a number, or after such marks, ends
    its word as the letter would ('آمار،', 'است.', '[۱]،'), and one right after the
    space opens the next ('شمس [۱]'): marks take the direction of the letters around
    them."""
    if len(chosen) < 3:
        return start
    ids = texts.ids[chosen]
    codes = np.where(ids < CODE_POINTS, ids, -1)
    blank = texts.blank[chosen]
    backwards = char_test(codes, is_right_to_left)
    alnum = char_test(codes, str.isalnum)
    neutral = ~alnum & ~blank  # a mark takes its neighbours' way
    # the glyph each mark's run follows: a right-to-left letter or a number ends a word
    # with the marks after it ('[۱]،')
    anchor = np.maximum.accumulate(np.where(neutral, -1, np.arange(len(codes))))
    opens = backwards | (alnum & ~char_test(codes, str.isalpha))
    ends = backwards | (neutral & (anchor >= 0) & opens[np.maximum(anchor, 0)])
    space = np.flatnonzero(blank[1:-1] & ends[:-2] & (backwards | neutral)[2:]) + 1
    before, after = space - 1, space + 1
    space = space[(start[after] < start[before])
                  & (np.abs(start[before] - end[after]) <= size[space])
                  & (start[after] <= start[space])
                  & (start[space] + end[space] <= 2 * end[before])]
    if not len(space):
        return start
    before, after = space - 1, space + 1
    middle = (start[before] + start[after]) / 2
    # each glyph's start on its row, the rows set apart: the glyphs between two places
    key = row * (float(np.ptp(start)) + 1.0) + start
    low = key[space] + np.minimum(middle - start[space], 0.0)
    high = key[space] + np.maximum(middle - start[space], 0.0)
    placed = np.sort(key)
    between = np.searchsorted(placed, high, "left") - np.searchsorted(placed, low, "right")
    for k in (before, after):
        between -= (low < key[k]) & (key[k] < high)
    across = start.copy()
    across[space[between == 0]] = middle[between == 0]
    return across


def _repeat_scale(start: npt.NDArray[np.float64], end: npt.NDArray[np.float64],
                  row: npt.NDArray[np.intp], ids: npt.NDArray[np.int64],
                  letters: npt.NDArray[np.bool_],
                  size: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """For each glyph after the first (in order across its ``row``, from ``start`` to
    ``end``, its text ``ids``, in ``size``), the length a copy of the glyph before it is
    judged against: its width, or the page's median step from letter to letter, in
    ems of their size, times its own size where that is shorter.  The steps are taken
    between the ``letters`` (no spaces, no marks set on a letter), each run of one
    letter counted once (a fake bold's copies), and a letter starting where the one
    before it does (an underline struck over its letter) left out; in ems, so that a
    heading's copies are judged by the step of its own size, not the body's.  Where a
    font is squeezed into its words (an OCR layer's monospaced font: boxes 9.8 pt wide,
    2.4 to 8 pt apart), a letter printed twice stands a step from its like, its box
    over most of it, as a shadow's copy does over its glyph; on a page set in its
    fonts' advances, the step is about a box's width."""
    width = end - start
    at = np.flatnonzero(letters)
    first = np.ones(len(at), dtype=np.bool_)  # of a run of one letter on its row
    first[1:] = (row[at[1:]] != row[at[:-1]]) | (ids[at[1:]] != ids[at[:-1]])
    at = at[first]
    em = np.maximum(size, 1.0)
    steps = (np.diff(start[at]) / em[at[1:]])[row[at[1:]] == row[at[:-1]]]
    steps = steps[steps > 0]
    if len(steps):
        width = np.minimum(width, np.median(steps) * em)
    return width[1:]


def _after_spaces(start: npt.NDArray[np.float64], end: npt.NDArray[np.float64],
                  row: npt.NDArray[np.intp], blank: npt.NDArray[np.bool_],
                  mark: npt.NDArray[np.bool_], size: npt.NDArray[np.float64]
                  ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Where each glyph (in the order drawn) starts and ends across, for ordering and
    spacing: a word drawn right after a space, on the row of the word before it,
    starting past that word's start (by `_COPY_EM` of its ``size``) but before it
    ends, is moved along to start where it ends, its glyphs with it (and so the words
    after it on the row, in turn).
    An OCR layer draws each word where its scan shows it, in a font wider than the
    print: the next word overlaps the last letters of the word before ('ENGELBERMT
    VENG.' for 'ENGELBERT MVENG.').  A copy drawn over a word (a bold made by drawing
    it twice) starts at its start, and a combining mark stands over its letter: neither
    moves."""
    if len(start) < 3:
        return start, end
    a, space, b = slice(None, -2), slice(1, -1), slice(2, None)
    after = blank[space] & ~blank[a] & ~blank[b] & ~mark[b] & (row[a] == row[b])
    if not (after & (start[b] < end[a])).any():
        return start, end
    # the glyphs drawn rightwards along one row between two spaces share a number
    word = np.cumsum(blank | np.concatenate(([False], (row[1:] != row[:-1])
                                             | (start[1:] < start[:-1]))))
    count = int(word[-1]) + 1
    first, last = np.full(count, np.inf), np.full(count, -np.inf)
    np.minimum.at(first, word[~blank], start[~blank])
    np.maximum.at(last, word[~blank], end[~blank])
    k = np.flatnonzero(after)
    follows = np.full(count, -1)  # the word each word follows across one space, if any
    follows[word[k + 2]] = word[k]
    # a tenth of an em past the start of the word before: no copy drawn over it
    least = np.zeros(count)
    least[word[k + 2]] = _COPY_EM * size[k + 2]
    hit = k[(start[k + 2] < end[k]) & (start[k + 2] > first[word[k]] + least[word[k + 2]])]
    if not len(hit):
        return start, end
    rows = np.unique(row[hit + 2])
    shift = np.zeros(count)
    for w in np.unique(word[k[np.isin(row[k + 2], rows)] + 2]).tolist():
        v = int(follows[w])
        pushed = last[v] + shift[v]
        if first[v] + least[w] < first[w] < pushed:
            shift[w] = pushed - first[w]
    # a space moves with the word before it, which it follows
    moved = np.where(blank, shift[np.maximum(word - 1, 0)], shift[word])
    return start + moved, end + moved


def _by_row(by_x: npt.NDArray[np.intp], row: npt.NDArray[np.intp]) -> npt.NDArray[np.intp]:
    """The glyphs ``by_x`` (indices, sorted by where they start across) by ``row``, then
    across: sorted stably by row, the rows in the smallest integer type that holds them,
    which numpy sorts by radix (a third faster than np.lexsort)."""
    rows = row[by_x].astype(np.min_scalar_type(int(row.max())))
    return by_x[np.argsort(rows, kind="stable")]


def _set_in(row: npt.NDArray[np.intp], box: npt.NDArray[np.float64],
            by_x: npt.NDArray[np.intp], size: npt.NDArray[np.float64],
            blank: npt.NDArray[np.bool_]) -> npt.NDArray[np.intp]:
    """``row`` (each glyph's, standing at ``box`` in the frame where it reads upright,
    ``by_x`` the glyphs sorted by where they start across)
    with each glyph that stands alone on its row, no letter of it within an em either
    side, moved to the row of glyphs no smaller than it that it overlaps on both sides,
    standing beside them over half its height: a letter raised or lowered and kerned
    into a word (the A of the LaTeX logo) is spelled in its place in the word, not
    after it as a word of its own.  A mark set after a word (an exponent, a note's
    number) overlaps nothing: it stays a word of its own."""
    letters = by_x[~blank[by_x]]
    if len(letters) < 2:
        return row
    by_place = _by_row(letters, row)
    same = row[by_place[1:]] == row[by_place[:-1]]
    apart = box[by_place[1:], 0] - box[by_place[:-1], 2]
    em = size[by_place]
    alone_before = np.concatenate(([True], ~same | (apart > em[1:])))
    alone_after = np.concatenate((~same | (apart > em[:-1]), [True]))
    lonely = by_place[alone_before & alone_after]
    if not len(lonely):
        return row
    moved = row.copy()
    height = box[:, 3] - box[:, 1]
    starts = box[letters, 0]
    widest = float((box[letters, 2] - box[letters, 0]).max())
    for k in lonely.tolist():
        near = letters[starts.searchsorted(box[k, 0] - widest):
                       starts.searchsorted(box[k, 2], "right")]
        across = np.maximum(box[near, 0] - box[k, 2], box[k, 0] - box[near, 2])
        beside = (np.minimum(box[near, 3], box[k, 3]) - np.maximum(box[near, 1], box[k, 1])
                  >= height[k] / 2)
        host = (row[near] != row[k]) & (size[near] >= size[k]) & beside & (across < 0)
        centre = (box[k, 0] + box[k, 2]) / 2
        before = set(row[near[host & (box[near, 0] + box[near, 2] < 2 * centre)]].tolist())
        after = row[near[host & (box[near, 0] + box[near, 2] > 2 * centre)]].tolist()
        enclosing = [r for r in after if r in before]
        if enclosing:
            moved[k] = enclosing[0]
    return moved


def _stacked(row: npt.NDArray[np.intp], box: npt.NDArray[np.float64],
             by_x: npt.NDArray[np.intp], size: npt.NDArray[np.float64],
             skipped: npt.NDArray[np.bool_], like: float, tolerance: float
             ) -> npt.NDArray[np.intp]:
    """``row`` (each glyph's, standing at ``box``, ``by_x`` the glyphs sorted by where
    they start across) with the line a row holds under a larger glyph moved to a row of
    its own.  A glyph smaller than ``like`` times its neighbour on the row, overlapping
    it across by more than half its width, wholly in the lower half of its box, stands
    under it; the line it belongs to is the row's glyphs that small whose tops stand
    within ``tolerance`` (of their size) of its.  A key figure's number in display type
    and the caption set close under it (or over its foot, in a script face) can have
    box bottoms level: the letters of two printed lines, not one, which would
    interleave.  A letter raised and kerned into a word (the A of the LaTeX logo)
    stands in the upper half, and a unit set smaller beside a number (a '%') overlaps
    nothing.  Blanks and marks (``skipped``) tell no clash; they move with their
    line."""
    letters = by_x[~skipped[by_x]]
    if len(letters) < 2:
        return row
    by_place = _by_row(letters, row)
    a, b = by_place[:-1], by_place[1:]
    overlap = np.minimum(box[a, 2], box[b, 2]) - box[b, 0]
    narrower = np.minimum(box[a, 2] - box[a, 0], box[b, 2] - box[b, 0])
    small, large = np.where(size[a] < size[b], a, b), np.where(size[a] < size[b], b, a)
    under = box[small, 1] >= (box[large, 1] + box[large, 3]) / 2
    clash = ((row[a] == row[b]) & (overlap > narrower / 2) & under
             & (size[small] < like * size[large]))
    if not clash.any():
        return row
    moved = row.copy()
    fresh = int(row.max()) + 1
    for r in np.unique(row[a[clash]]).tolist():
        here = clash & (row[a] == r)
        top = float(np.median(box[small[here], 1]))
        limit = like * float(size[large[here]].min())
        line = (row == r) & (size < limit) \
            & (np.abs(box[:, 1] - top) <= tolerance * np.maximum(size, 1.0))
        moved[line] = fresh
        fresh += 1
    return moved


def _is_mark(char: str) -> bool:
    """Whether ``char`` is a non-spacing mark (category Mn): one drawn over or under its
    letter, placed on it (`_on_hosts`)."""
    return unicodedata.category(char) == "Mn"


def _on_hosts(box: npt.NDArray[np.float64], row: npt.NDArray[np.intp],
              marks: npt.NDArray[np.intp], blank: npt.NDArray[np.bool_], texts: Sequence[str],
              space: npt.NDArray[np.float64]
              ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.intp]]:
    """The start and end along the baseline and the row of glyphs (of ``texts``,
    standing at ``box``: x0, top, x1, bottom, on rows ``row``) with each combining mark
    among them (``marks``) given the extent and the row of its host letter (a glyph
    neither a mark nor ``blank``): so that it joins the host's word and follows it in
    reading order, just after it in a left-to-right script, just before it (read
    backwards) in a right-to-left one.

    The host is the letter nearest the mark's centre on its row (for a mark of no
    advance beside left-to-right letters, the letter whose advance ends nearest the
    mark, less than a word space (``space``, each glyph's) from it: a Thai tone
    mark's box stands at the pen, between its letter and the next, and the white after
    it is measured from the pen, which a justified line moves on after each mark too),
    unless no letter of
    its row stands under or over the mark (its box holding the mark's centre and
    overlapping it in height) while a letter of another row does: then that letter,
    the one overlapping it most in height.  A mark's own box may stand apart from its
    letter by more than a word space, or before it; and a mark whose box reaches down
    to the baseline of the line beside its own (two columns whose baselines stand a
    few points apart) would otherwise join a word across the gutter."""
    start, end, row = box[:, 0].copy(), box[:, 2].copy(), row.copy()
    top, bottom = box[:, 1], box[:, 3]
    letters = np.flatnonzero(~np.isin(np.arange(len(start)), marks) & ~blank)
    centres = (start + end) / 2
    pen = end <= start  # no advance: the box is the pen's place
    reach = end.copy()  # a letter's end, moved on to the pen of each such mark it takes
    for k in marks.tolist():
        host = _under(k, centres[k], start, end, top, bottom, row, letters)
        if host is None:
            same = letters[row[letters] == row[k]]
            if not len(same):
                continue
            host = int(same[np.argmin(np.abs(centres[same] - centres[k]))])
            if pen[k] and not is_right_to_left(texts[host][:1]):
                # drawn at the pen, where its letter's advance ended
                ended = int(same[np.argmin(np.abs(reach[same] - start[k]))])
                if not is_right_to_left(texts[ended][:1]) \
                        and abs(start[k] - reach[ended]) < space[k]:
                    host = ended
        row[k] = row[host]
        backwards = is_right_to_left(texts[host][:1])
        start[k] = np.nextafter(start[host], -np.inf if backwards else np.inf)
        if pen[k] and abs(end[k] - reach[host]) < space[k]:
            reach[host] = max(reach[host], end[k])
        end[k] = reach[host]
    return start, end, row


def _under(mark: int, centre: float, start: npt.NDArray[np.float64],
           end: npt.NDArray[np.float64], top: npt.NDArray[np.float64],
           bottom: npt.NDArray[np.float64], row: npt.NDArray[np.intp],
           letters: npt.NDArray[np.intp]) -> int | None:
    """The letter of another row than the mark's that the mark stands over or under
    (the letter's box holds the mark's ``centre`` and overlaps its height), the one
    overlapping it most in height; None when a letter of the mark's own row does so
    too, or none does."""
    overlap = np.minimum(bottom[letters], bottom[mark]) - np.maximum(top[letters], top[mark])
    held = letters[(start[letters] <= centre) & (centre <= end[letters]) & (overlap > 0)]
    if not len(held) or (row[held] == row[mark]).any():
        return None
    depth = np.minimum(bottom[held], bottom[mark]) - np.maximum(top[held], top[mark])
    return int(held[np.argmax(depth)])


def _visual(text: str) -> str:
    """The text of a glyph as its letters stand in a line read left to right: reversed
    for several letters of a right-to-left script (a lam-alef ligature read as two
    letters), which `line_text` turns back."""
    if len(text) > 1 and any(map(is_right_to_left, text)):
        return text[::-1]
    return text


def _anchored(base: npt.NDArray[np.float64], tolerance: npt.NDArray[np.float64],
              new_row: npt.NDArray[np.bool_], max_span: npt.NDArray[np.float64]
              ) -> npt.NDArray[np.bool_]:
    """``new_row`` (where each row of the ascending baselines ``base`` starts, each
    baseline within its ``tolerance`` of the one before) with every row that spans more
    than its first glyph's ``max_span`` cut again, each row now within a tolerance of
    its first baseline.  Baselines of side-by-side columns set a little apart chain
    into one row a line's height tall, whose lines would interleave their letters; the
    baseline of one line drifting across a skewed scan's text layer by less than
    ``max_span`` stays one row (a steeper one is cut)."""
    starts = np.flatnonzero(new_row)
    ends = np.append(starts[1:], len(base))
    tall = base[ends - 1] - base[starts] > max_span[starts]
    for a, b in zip(starts[tall].tolist(), ends[tall].tolist(), strict=True):
        first = base[a]
        for k in range(a + 1, b):
            if base[k] - first > tolerance[k]:
                new_row[k] = True
                first = base[k]
    return new_row


_COMBINING = {"\u02c6": "\u0302", "^": "\u0302", "\u02dc": "\u0303", "~": "\u0303",
              "\u00b8": "\u0327", "\u00b4": "\u0301", "`": "\u0300", "\u00a8": "\u0308",
              "\u02da": "\u030a", "\u02c7": "\u030c", "\u00af": "\u0304",
              "\u02d8": "\u0306", "\u02d9": "\u0307", "\u02dd": "\u030b", "\u02db": "\u0328"}
"""Spacing accents some producers draw as separate glyphs over or under a letter,
and the combining marks they stand for."""
_SPACING_ACCENTS = frozenset(_COMBINING)
_ACCENT_BEFORE = re.compile(f"([{re.escape(''.join(_COMBINING))}])(\\w)")
"""A spacing accent before the letter it stands over, in one glyph's text."""



def _compose(glyphs: Sequence[tuple[int, Glyph]]) -> str:
    """The word's text (of its ``glyphs``, each with its place in the content stream)
    with each spacing accent that overlaps a letter joined to that letter as a
    combining mark, then NFC-composed ("Ageˆncia" becomes "Agência").  An accent at the
    edge between two letters goes with the one drawn right after it, else right before
    it: TeX draws an accent just before the letter it sets it over ("Macei´o" is
    "Maceió"), and over a dotless i or j, which is then the letter ("Fı´sica" is
    "Física")."""
    letters: list[tuple[int, Glyph, list[str]]] = []
    pending: list[tuple[int, Glyph]] = []
    for at, g in glyphs:
        if g.text in _SPACING_ACCENTS:
            pending.append((at, g))
        else:  # an accent drawn with its letter as one glyph ('˜a') goes over it
            letters.append((at, g, [_ACCENT_BEFORE.sub(
                lambda m: m[2] + _COMBINING[m[1]], g.text)]))
    for at, accent in pending:
        centre = (accent.bbox.x0 + accent.bbox.x1) / 2
        under = [item for item in letters
                 if item[1].bbox.x0 - 0.5 <= centre <= item[1].bbox.x1 + 0.5]
        host = next((item for step in (1, -1) for item in under if item[0] == at + step),
                    min(under, default=None,
                        key=lambda item: abs((item[1].bbox.x0 + item[1].bbox.x1) / 2 - centre)))
        if host is not None:
            host[2].append(_COMBINING[accent.text])
        else:
            letters.append((at, accent, [accent.text]))
    letters.sort(key=lambda item: item[1].bbox.x0)
    for _, _, parts in letters:
        if parts[0] in _DOTLESS and any(unicodedata.combining(mark) == _ABOVE
                                        for mark in parts[1:]):
            parts[0] = _DOTLESS[parts[0]]
    return unicodedata.normalize("NFC", "".join("".join(parts) for _, _, parts in letters))


_DOTLESS = {"\u0131": "i", "\u0237": "j"}
"""The dotless letters an accent is set over in place of the dot (TeX's \\i, \\j)."""
_ABOVE = 230
"""The canonical combining class of a mark set above its letter."""


def group_lines(words: Sequence[Word], config: WordsConfig) -> list[list[Word]]:
    """Words grouped into lines, top to bottom, each line's words left to right.

    Meant for words of one column (or one band).  Words whose bottoms lie within
    ``baseline_tolerance`` of their height of each other share a baseline; a baseline
    joins the line above it when they overlap vertically by ``line_overlap`` of the smaller height
    (a superscript, a word in a larger font) and, where both hold words of one size
    (``line_like_size_ratio``), two such words overlap so: a tall word beside two lines
    does not join them, but for a subscript under a line whose only words of its size
    are calls raised over it (`_meets_like_size`).  Words boxed flat (`_FLAT`) are
    grouped apart (`_baseline_lines`).  A drop capital (see
    ``drop_cap_min_height``) opens the first line it stands beside.  Words set in
    another direction form lines of their own, grouped alike in the frame where they
    read upright ([`turned_boxes`][layoutkit.model.turned_boxes]) and read along their baseline,
    after the upright ones (one direction after another).
    """
    upright = [w for w in words if w.upright]
    result: list[list[Word]] = []
    if upright:
        caps, rest = _drop_caps(upright, config)
        result = _baseline_lines(rest, config)
        for cap, first in sorted(caps, key=lambda pair: -pair[0].bbox.x0):
            # the rightmost first: tall words opening one line stay left to right
            line = next(line for line in result if any(w is first for w in line))
            line.insert(0, cap)
    for direction in sorted({w.direction for w in words} - {0}):
        result += _turned_lines([w for w in words if w.direction == direction], config)
    return result


def _turned_lines(words: Sequence[Word], config: WordsConfig) -> list[list[Word]]:
    """The lines of ``words`` set in one direction, grouped as upright words are in the
    frame where they read upright (see `group_lines`); in vertical writing, a
    note set in two sub-columns reads its right sub-column, then its left
    (`_split_notes_in_order`)."""
    turned = upright_words(words)
    back = {id(t): w for t, w in zip(turned, words, strict=True)}
    lines = _baseline_lines(turned, config)
    if words[0].direction == VERTICAL:
        lines = [_split_notes_in_order(line)
                 for line in _notes_joined(lines, config)]
    return [[back[id(t)] for t in line] for line in lines]


def _notes_joined(lines: list[list[Word]], config: WordsConfig) -> list[list[Word]]:
    """``lines`` (of upright words, in order) with each line that is a sub-column of a
    note joined to the line of the column it stands in, next to it: a line whose words
    are all smaller than ``line_like_size_ratio`` of that line's largest, lying across
    half within its extent, and standing along it where it has no larger word (beside
    none of its larger words, as ruby and side comments stand)."""
    out: list[list[Word]] = []
    for line in lines:
        host = next((k for k in (len(out) - 1, len(out) - 2) if k >= 0
                     and _note_of(line, out[k], config)), None)
        if host is None:
            out.append(list(line))
        else:
            out[host] = sorted([*out[host], *line], key=lambda w: w.bbox.x0)
    for k in range(len(out) - 2, -1, -1):  # a note's sub-column ranked above its column
        if _note_of(out[k], out[k + 1], config):
            out[k + 1] = sorted([*out[k + 1], *out[k]], key=lambda w: w.bbox.x0)
            del out[k]
    return out


def _note_of(note: Sequence[Word], line: Sequence[Word], config: WordsConfig) -> bool:
    """Whether the line ``note`` is a sub-column of a note set within the column whose
    line is ``line`` (see `_notes_joined`)."""
    largest = max(w.size for w in line)
    if any(w.size >= config.line_like_size_ratio * largest for w in note):
        return False
    top, bottom = min(w.bbox.top for w in note), max(w.bbox.bottom for w in note)
    ltop, lbottom = min(w.bbox.top for w in line), max(w.bbox.bottom for w in line)
    if min(bottom, lbottom) - max(top, ltop) < 0.5 * (bottom - top):
        return False
    return not any(min(n.bbox.x1, w.bbox.x1) - max(n.bbox.x0, w.bbox.x0) > 0.5 * n.size
                   for n in note for w in line
                   if n.size < config.line_like_size_ratio * w.size)


def _split_notes_in_order(line: list[Word]) -> list[Word]:
    """A line's words (upright, left to right) with the words that stand stacked across
    one another along it (a note set in two sub-lines within a column of vertical
    writing, warichu: each overlapping another along the line by half the smaller's
    size) read sub-line by sub-line, the upper (the right one in the column) first."""
    out: list[Word] = []
    group: list[Word] = []
    end = -np.inf
    for w in line:
        if group and w.bbox.x0 < end - 0.5 * min(w.size, min(v.size for v in group)):
            group.append(w)
        else:
            out += _by_sub_line(group)
            group = [w]
        end = max(end, w.bbox.x1) if len(group) > 1 else w.bbox.x1
    return out + _by_sub_line(group)


def _by_sub_line(group: list[Word]) -> list[Word]:
    """Words standing stacked across one another, sub-line by sub-line from the top
    (a word whose middle lies under the foot of the sub-line above opens the next one),
    each sub-line left to right."""
    if len(group) < 2:
        return group
    ordered = sorted(group, key=lambda w: (w.bbox.top + w.bbox.bottom) / 2)
    rows: list[list[Word]] = [[ordered[0]]]
    for w in ordered[1:]:
        if (w.bbox.top + w.bbox.bottom) / 2 > max(v.bbox.bottom for v in rows[-1]):
            rows.append([w])
        else:
            rows[-1].append(w)
    return [w for row in rows for w in sorted(row, key=lambda v: v.bbox.x0)]


def upright_words(words: Sequence[Word], width: float = 0.0, height: float = 0.0
                  ) -> list[Word]:
    """``words``, all set in one direction on a ``width`` by ``height`` page, as upright
    words of the page turned so that they read upright
    ([`turned_boxes`][layoutkit.model.turned_boxes]), in the same order: what groups and
    segments them as upright text is grouped and segmented."""
    if not words:
        return []
    boxes = np.array([(w.bbox.x0, w.bbox.top, w.bbox.x1, w.bbox.bottom) for w in words],
                     dtype=np.float64)
    x0, top, x1, bottom = turned_boxes(boxes, words[0].direction, width, height).T.tolist()
    count = len(words)
    return from_columns(Word, count, [w.text for w in words],
                        from_columns(BBox, count, x0, top, x1, bottom), [w.font for w in words],
                        [w.size for w in words], repeat(0, count), [w.stream for w in words],
                        [w.weight for w in words], [w.link for w in words])


_CAP_TOUCH_EM = 0.1
"""How far a drop capital's box may reach into the lines it stands beside, in the
column's median word height (an em of its text, give or take): set solid against them,
its box ends where their first letters start but for the rounding of the two (the
first case seen: 0.0006 pt).  Not a parameter: a word space is a quarter of an em or
more, and a tall word standing among the words reaches into them by whole letters."""


def _drop_caps(words: Sequence[Word], config: WordsConfig
               ) -> tuple[list[tuple[Word, Word]], list[Word]]:
    """The drop capitals among ``words``, each with the first word of the line it opens,
    and the other words.  A drop capital is ``drop_cap_min_height`` times taller than
    the median word and stands left of every word of the two or more lines (of the
    other words) it overlaps by half their height (touching them, `_CAP_TOUCH_EM`), but
    the last of them: the descent of the capital's font, which its letter does not fill,
    may reach the line under the ones it stands beside, set out to the column's edge."""
    sizes = [w.bbox.bottom - w.bbox.top for w in words]
    if max(sizes) <= config.drop_cap_min_height * min(sizes):  # most columns: at once
        return [], list(words)
    heights = np.array(sizes)
    median = float(np.median(heights))
    tall = heights > config.drop_cap_min_height * median
    if not tall.any() or tall.all():
        return [], list(words)
    rest = [w for w, t in zip(words, tall, strict=True) if not t]
    lines = _baseline_lines(rest, config)
    caps: list[tuple[Word, Word]] = []
    others = list(rest)
    spans = [(min(v.bbox.top for v in line), max(v.bbox.bottom for v in line))
             for line in lines]
    for w in (w for w, t in zip(words, tall, strict=True) if t):
        beside = [line for line, (top, bottom) in zip(lines, spans, strict=True)
                  if min(w.bbox.bottom, bottom) - max(w.bbox.top, top) >= 0.5 * (bottom - top)]
        reach = w.bbox.x1 - _CAP_TOUCH_EM * median
        right = [reach <= min(v.bbox.x0 for v in line) for line in beside]
        if right and not right[-1] \
                and min(v.bbox.x0 for v in beside[-1]) <= (w.bbox.x0 + w.bbox.x1) / 2:
            right.pop()  # its box's descent reaches the line under it, out to the edge
        if len(right) >= 2 and all(right):
            caps.append((w, beside[0][0]))
        else:
            others.append(w)
    return caps, others


_FLAT = 0.25
"""Share of the median word's height below which a word's box tells nothing of its
line: an OCR layer's stray mark boxed 1 pt high among words 10 pt high.  Set among the
others, such a word makes a baseline of its own, its tolerance a fraction of a point,
and parts the words of one line on both sides of it.  Not a parameter: pdfium and
pdfminer.six box every glyph a full em high, so only an OCR layer's boxes fall so low,
and a subscript or an OCR layer's full stop stands higher."""


def _baseline_lines(words: Sequence[Word], config: WordsConfig) -> list[list[Word]]:
    """Upright ``words`` grouped into lines by baseline and overlap (see
    `group_lines`), top to bottom, each line's words left to right.  Flat words
    (`_FLAT`) are grouped by baseline apart from the others: a group of two words of
    letters or more is a line of small text (a slide's small print under its large
    type); the other flat words each join the line their middle lies in, the one whose
    foot is nearest, or failing one are lines of their own."""
    if not words:
        return []
    limit = _FLAT * median(w.bbox.height for w in words)
    if all(w.bbox.height >= limit for w in words):
        return _by_baseline(words, config)
    lines = _by_baseline([w for w in words if w.bbox.height >= limit], config)
    spans = [(min(w.bbox.top for w in line), max(w.bbox.bottom for w in line)) for line in lines]
    for group in _by_baseline([w for w in words if w.bbox.height < limit], config):
        if sum(any(c.isalpha() for c in w.text) for w in group) >= 2:
            lines.append(group)
            continue
        for w in group:
            middle = (w.bbox.top + w.bbox.bottom) / 2
            within = [k for k, (top, bottom) in enumerate(spans) if top <= middle <= bottom]
            if within:
                lines[min(within, key=lambda k: spans[k][1] - middle)].append(w)
            else:
                lines.append([w])
    lines.sort(key=lambda line: median(w.bbox.top for w in line))
    return [sorted(line, key=lambda w: w.bbox.x0) for line in lines]


def _by_baseline(words: Sequence[Word], config: WordsConfig) -> list[list[Word]]:
    """Upright ``words`` grouped into lines by baseline and overlap, top to bottom, each
    line's words left to right (see `group_lines`), flat or not alike."""
    box = np.array([(w.bbox.top, w.bbox.bottom, w.bbox.x0) for w in words], dtype=float)
    order = np.lexsort((box[:, 2], box[:, 1]))
    bottom = box[order, 1]
    height = np.minimum(bottom[1:] - box[order[1:], 0], bottom[:-1] - box[order[:-1], 0])
    tolerance = config.baseline_tolerance * height
    starts = np.flatnonzero(np.concatenate(([True], np.diff(bottom) > tolerance)))
    tops = np.minimum.reduceat(box[order, 0], starts).tolist()
    bottoms = np.maximum.reduceat(bottom, starts).tolist()
    display = config.drop_cap_min_height * median(w.size for w in words)
    displayed = max(w.size for w in words) >= display  # most columns: no display type
    lines: list[list[int]] = []
    spans: list[tuple[float, float]] = []
    for a, b, top, low in zip(starts.tolist(), [*starts[1:].tolist(), len(order)], tops,
                              bottoms, strict=True):
        group = order[a:b].tolist()
        parts = _parted_under(words, group, display, config) if displayed else [group]
        for members in parts:
            if len(parts) > 1:
                top, low = float(box[members, 0].min()), float(box[members, 1].max())
            if spans:
                ltop, lbottom = spans[-1]
                overlap = min(low, lbottom) - max(top, ltop)
                if (overlap >= config.line_overlap * min(low - top, lbottom - ltop)
                        and _meets_like_size(words, box, members, lines[-1], config)
                        and not (displayed and (
                            _under_display(words, members, lines[-1], display, config)
                            or _under_display(words, lines[-1], members, display, config)))):
                    lines[-1].extend(members)
                    spans[-1] = (min(top, ltop), max(low, lbottom))
                    continue
            lines.append(members)
            spans.append((top, low))
    # a line ranks by its words' median top: a tall word on its baseline does not lift
    # it above the lines the word stands beside
    tops = box[:, 0].tolist()
    ranked = sorted(range(len(lines)), key=lambda k: median(tops[i] for i in lines[k]))
    merged: list[list[int]] = []
    for k in ranked:  # a line of calls raised over the line under it reads in that line
        if merged and _calls_of(words, merged[-1], lines[k], config):
            merged[-1].extend(lines[k])
        else:
            merged.append(lines[k])
    x0 = box[:, 2].tolist()
    return [[words[i] for i in sorted(line, key=x0.__getitem__)] for line in merged]


def _calls_of(words: Sequence[Word], line: Sequence[int], members: Sequence[int],
              config: WordsConfig) -> bool:
    """Whether every word of ``line`` (indexes of ``words``) is a call (`_is_call`) of a
    word of the line ``members`` under it, in a smaller size than all of that line (no
    word of one size with it, ``line_like_size_ratio``): a note's call or an exponent
    raised so high that it overlaps its word by less than half its height ('bereinigt)²'
    in a table's row heading, '10⁻³'), which reads in its word's line, not as a line of
    its own above it.  The lines are joined once made, so the calls move no baseline's
    grouping."""
    hosts = [words[i] for i in members]
    largest = max(host.size for host in hosts)
    if any(words[i].size >= config.line_like_size_ratio * largest for i in line):
        return False  # most lines: one of their words is no smaller than the next line's
    return all(any(_is_call(call, host, config) for host in hosts)
               for call in (words[i] for i in line))


def _is_call(call: Word, host: Word, config: WordsConfig) -> bool:
    """Whether ``call`` is set as a superscript (`Word.raised_beside`) of ``host``
    (`_is_script`)."""
    return call.raised_beside(host) and _is_script(call, host, config)


def _is_script(script: Word, host: Word, config: WordsConfig) -> bool:
    """Whether ``script`` is set in a smaller size (``line_like_size_ratio``) where a
    superscript or a subscript of ``host`` stands: starting within its own size of the
    host's end, before or after it (a kerned italic's overhang)."""
    return (script.size < config.line_like_size_ratio * host.size
            and abs(script.bbox.x0 - host.bbox.x1) <= script.size)


def _is_subscript(script: Word, host: Word, config: WordsConfig) -> bool:
    """Whether ``script`` is set as a subscript of ``host`` (`_is_script`), hung from it:
    its box across the host's foot."""
    return (_is_script(script, host, config)
            and script.bbox.top < host.bbox.bottom < script.bbox.bottom)


def _stands_under(small: Word, large: Word, ratio: float) -> bool:
    """Whether ``small`` stands under ``large`` (a word in display type), as `_stacked`
    tells glyphs: ``large`` set ``ratio`` times its size or more, overlapping it across
    by more than half the narrower's width, its top in the lower half of its box."""
    a, b = small.bbox, large.bbox
    return (ratio * small.size <= large.size
            and b.top + b.bottom <= 2 * a.top < 2 * b.bottom
            and 2 * (min(a.x1, b.x1) - max(a.x0, b.x0)) > min(a.width, b.width))


def _under_display(words: Sequence[Word], small: Sequence[int], large: Sequence[int],
                   display: float, config: WordsConfig) -> bool:
    """Whether the words ``small`` (indexes of ``words``) are a line set under words of
    ``large`` in display type (`_stands_under`, ``drop_cap_min_height`` times their
    size): one of them stands under one of those, and the display words they stand
    under stand over half the line's width or more.  A key figure's number and the
    caption or small print set close under it (the number's box reaching over their
    first line, or its foot level with theirs) are two lines, not one; a line that
    runs on far past a large word (an OCR layer's blot of noise) stays whole."""
    ratio = config.drop_cap_min_height
    over = [words[j].bbox for j in large
            if words[j].size >= display
            and any(_stands_under(words[i], words[j], ratio) for i in small)]
    if not over:
        return False
    x0, x1 = min(words[i].bbox.x0 for i in small), max(words[i].bbox.x1 for i in small)
    covered = sum(max(0.0, min(x1, b.x1) - max(x0, b.x0)) for b in over)
    return 2 * covered >= x1 - x0


def _parted_under(words: Sequence[Word], members: Sequence[int], display: float,
                  config: WordsConfig) -> list[list[int]]:
    """The baseline ``members`` (indexes of ``words``) as one line, or as two where some
    of them are a line set under others in display type (`_under_display`): first the
    others, then that line, the words whose tops stand within ``glyph_row_tolerance_em``
    of their size of the median top of those standing under a display word, and that
    are ``drop_cap_min_height`` times smaller than the smallest such display word."""
    ratio = config.drop_cap_min_height
    larger = [j for j in members if words[j].size >= display]
    if not larger:
        return [list(members)]
    over = {i: [j for j in larger if _stands_under(words[i], words[j], ratio)]
            for i in members}
    under = [i for i, big in over.items() if big]
    if not under:
        return [list(members)]
    top = median(words[i].bbox.top for i in under)
    limit = min(words[j].size for i in under for j in over[i]) / ratio
    line = [i for i in members if words[i].size <= limit and abs(words[i].bbox.top - top)
            <= config.glyph_row_tolerance_em * max(words[i].size, 1.0)]
    moved = set(line)
    rest = [i for i in members if i not in moved]
    if not rest or not _under_display(words, line, rest, display, config):
        return [list(members)]
    return [rest, line]


def _meets_like_size(words: Sequence[Word], box: npt.NDArray[np.float64],
                     members: Sequence[int], line: Sequence[int], config: WordsConfig) -> bool:
    """Whether a baseline's words (``members``, indexes of ``words`` and rows of ``box``:
    top, bottom, x0) may join ``line``: True unless the two hold words of one size
    (heights within ``line_like_size_ratio``) of which no pair overlaps by
    ``line_overlap`` of the smaller height, as two lines of text bridged only by a
    taller word beside them.  The line's calls (`_is_call`) are no words of its text: a
    baseline of subscripts (`_is_subscript`) of the line's words still joins it where
    the line's only words of their size are its calls."""
    top, bottom = box[list(members), 0], box[list(members), 1]
    ltop, lbottom = box[list(line), 0], box[list(line), 1]
    small = np.minimum.outer(bottom - top, lbottom - ltop)
    like = small >= config.line_like_size_ratio * np.maximum.outer(bottom - top, lbottom - ltop)
    if not like.any():
        return True
    overlap = np.minimum.outer(bottom, lbottom) - np.maximum.outer(top, ltop)
    if (overlap[like] >= config.line_overlap * small[like]).any():
        return True
    if not all(any(_is_subscript(words[i], words[j], config) for j in line) for i in members):
        return False
    like[:, [k for k, i in enumerate(line)
             if any(_is_call(words[i], words[j], config) for j in line)]] = False
    return not like.any()


def split_at_gaps(line: Sequence[Word], min_gap_em: float) -> list[list[Word]]:
    """The runs of a line's words (in reading order: left to right, or right to left
    on a line of a right-to-left script) parted by gaps wider than ``min_gap_em``
    times the font size of the word before the gap: the cells of a table row, or the
    pieces of a line that stand side by side without being one phrase (a masthead
    beside a title)."""
    pieces: list[list[Word]] = []
    piece: list[Word] = []
    last = None
    for word in line:
        if last is not None and max(word.bbox.x0 - last.bbox.x1, last.bbox.x0 - word.bbox.x1
                                    ) <= min_gap_em * last.size:
            piece.append(word)
        else:
            piece = [word]
            pieces.append(piece)
        last = word
    return pieces
