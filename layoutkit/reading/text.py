"""A line's text from its words, in any script, and which way a page's text runs.

A line's text has right-to-left text in logical order, CJK without spaces between its
words and Arabic presentation forms as plain letters; its words come as they are read,
each with its box.

- Glyphs are grouped into words and lines by position, so a line's words and letters
  come in visual order, left to right (OCR's words too: their source turns tesseract's
  reading order into it).
- Text set right to left (Hebrew, Arabic, Persian, Urdu) is then read backwards, except
  for the numbers and Latin words inside it; the Unicode bidi algorithm (python-bidi)
  turns the visual order into the logical one.
- Chinese and Japanese put no space between words, so a gap beside a CJK word (left by
  punctuation, justification, or between kanji and Latin letters or digits) is not a
  space, unless it is as wide as a full-width space, an em (`cjk_space_em`): the one
  that parts a list item's number from its text (`一　保険医療機関…`), or the words of a
  title spread across its line.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable, Sequence
from itertools import pairwise

import numpy as np
from bidi import get_display
from bidi.algorithm import get_display as get_display_swapped

from ..model import BBox, Word, char_test, code_points, is_cjk, is_right_to_left, turned_boxes
from ..model.clean import BIDI_FORMATTING

__all__ = ["SOFT_HYPHEN", "column_texts", "line_text", "reading_words", "right_to_left"]

_PRESENTATION_FORMS = re.compile("[\ufb1d-\ufdff\ufe70-\ufefc]+")
"""Hebrew and Arabic presentation forms (letters shaped for their place in a word,
ligatures), which many PDFs of Arabic text map their glyphs to."""

_MAYBE_RTL = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\U00010800-\U00010fff"
                        "\U0001e800-\U0001efff]")
"""The blocks of right-to-left scripts: a line without any of their characters needs
no reordering (the bidi classes tell exactly, for the lines that have some)."""

_MAYBE_CJK = re.compile("[\u1100-\u11ff\u2e80-\ua4cf\ua960-\ua97f\uac00-\ud7ff"
                        "\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef\U00020000-\U0003ffff]")
"""The blocks that hold the wide characters [`is_cjk`][layoutkit.model.is_cjk] looks for
(and Hangul): a line without any of them needs no look at its word boundaries."""


def _is_ltr(char: str) -> bool:
    return unicodedata.bidirectional(char) == "L"


def _strong(text: str) -> tuple[int, int]:
    """How many characters of ``text`` are strongly right-to-left and left-to-right."""
    codes = code_points(text)
    return int(char_test(codes, is_right_to_left).sum()), int(char_test(codes, _is_ltr).sum())


def right_to_left(texts: Iterable[str]) -> bool:
    """Whether the text of ``texts`` runs right to left: more of its letters belong to
    right-to-left scripts than to left-to-right ones.  A page that does reads its
    columns right to left."""
    text = "".join(texts)
    if not _MAYBE_RTL.search(text):
        return False
    rtl, ltr = _strong(text)
    return rtl > ltr


def line_text(words: Sequence[Word], backwards: bool = False,
              cjk_space_em: float = math.inf, swap: bool = False) -> str:
    """The text of a line of ``words`` (in the order they stand along its baseline):
    the words joined by spaces, but none before an ordinal's raised ending ('16th',
    `_raised_against`) and none beside a CJK word unless the gap between
    them along the baseline is at least ``cjk_space_em`` times the first's size
    (``cjk_space_em`` of [`ReadingConfig`][layoutkit.config.ReadingConfig]; by default never);
    in logical order when it holds right-to-left letters (the bidi algorithm, the
    line's direction the one most of its letters take; numbers and Latin runs inside
    stay left to right), or holds no letters on a page whose text runs right to left
    (``backwards``: a paragraph's last line, "٣٠."); and presentation forms replaced
    by the letters they shape (NFKC); a soft hyphen kept only where it ends the line
    (`SOFT_HYPHEN`).  With ``swap``, the mirrored characters
    (brackets) that resolve right to left are swapped for their mirror images (see
    `column_texts`)."""
    texts = [w.text for w in words]
    text = " ".join(texts)
    solid = [host.isdecimal() and after.casefold() in _ORDINAL_SUFFIXES
             and _raised_against(words[k], words[k + 1])
             for k, (host, after) in enumerate(pairwise(texts))] \
        if any(map(str.isdecimal, texts)) else [False] * max(len(texts) - 1, 0)
    if SOFT_HYPHEN in text:
        solid = [joined or a.endswith(SOFT_HYPHEN) or b.startswith(SOFT_HYPHEN)
                 for joined, (a, b) in zip(solid, pairwise(texts), strict=True)]
        texts = _visible(texts)
        text = " ".join(texts)
    if text.isascii() and not any(solid):
        return text
    if _MAYBE_CJK.search(text):
        solid = [joined or ((is_cjk(a[-1]) or is_cjk(b[0])) and not wide)
                 for joined, (a, b), wide in zip(solid, pairwise(texts),
                                                 _wide_gaps(words, cjk_space_em), strict=True)]
    if any(solid):
        text = _joined(texts, solid)
    if text.isascii():
        return text
    if not _MAYBE_RTL.search(text):
        return text
    rtl, ltr = _strong(text)
    if rtl or (backwards and not ltr):
        base = "R" if rtl > ltr or not ltr else "L"
        marked = _marks_read_right_to_left(words, texts, solid) \
            if base == "R" and ltr and not _MAYBE_CJK.search(text) else None
        text = _reordered(marked, base, swap).replace(_RLM, "") if marked else \
            _reordered(text, base, swap)
        text = _PRESENTATION_FORMS.sub(lambda m: unicodedata.normalize("NFKC", m[0]), text)
    return text


_RLM = "\u200f"
"""The right-to-left mark, a strong right-to-left character that shows nothing."""

_TOUCHING_EM = 0.1
"""Ems of its size within which a punctuation mark touches the word beside it.  Not a
parameter: a word space is a quarter of an em or more, and a mark drawn with its word
stands against it."""


_ORDINAL_SUFFIXES = frozenset({"st", "nd", "rd", "th", "er", "re", "e", "es", "ers", "res",
                               "ème", "ère", "èmes", "ères"})
"""The endings an ordinal's number is printed with, raised: English ('16th', '3rd') and
French ('1er', '2e', '3ème').  A note's call is a single letter ('0.05ᵃ', '23ᵇ') or a
figure: no ending but 'e' is one, and 'e' is the fifth note's."""


def _raised_against(host: Word, script: Word) -> bool:
    """Whether ``script`` is raised against the end of ``host``, touching it
    (`_TOUCHING_EM` of its size): an ordinal's ending ('16' 'th', '1' 'er', '21' 'st',
    `_ORDINAL_SUFFIXES`) against its whole number reads as one word with it."""
    return (script.raised_beside(host)
            and script.bbox.x0 - host.bbox.x1 <= _TOUCHING_EM * script.size)


SOFT_HYPHEN = "\u00ad"
"""A hyphen shown only where a line breaks a word (a discretionary hyphen): inside a
line it is no character of the text (PDFium reports one inside a Nature paper's
'juxtaposed', pdfminer.six none)."""


def _visible(texts: Sequence[str]) -> list[str]:
    """A line's word ``texts`` without the soft hyphens they hold, but one that ends
    the line (`SOFT_HYPHEN`)."""
    last = texts[-1]
    end = SOFT_HYPHEN if last.endswith(SOFT_HYPHEN) else ""
    return [text.replace(SOFT_HYPHEN, "") for text in texts[:-1]] + [
        last.removesuffix(end).replace(SOFT_HYPHEN, "") + end]


def _joined(texts: Sequence[str], solid: Sequence[bool]) -> str:
    """``texts`` joined, by a space where ``solid`` (one flag between each two) says
    they do not join."""
    return texts[0] + "".join(text if joined else " " + text
                              for joined, text in zip(solid, texts[1:], strict=True))


_MARKS = "[,;:!?\u060c\u061b\u061f\u06d4]+"
"""Punctuation that closes what goes before it and opens no word: commas, semicolons,
colons, exclamation and question marks, Latin and Arabic ('،', '؛', '؟', '۔').  A full
stop, a hyphen, a quote or '@' may open a word ('.NET', '-la', "'n'", '@user')."""
_ONLY_MARKS = re.compile(_MARKS)
_OPENING_MARKS = re.compile(rf"{_MARKS}(?=\w)")


def _marks_read_right_to_left(words: Sequence[Word], texts: Sequence[str],
                              solid: Sequence[bool]) -> str | None:
    """The visual text of a right-to-left line's ``words`` (``texts``, joined by a space
    where ``solid`` does not say they join) with a
    right-to-left mark before each punctuation mark that stands against the left of a
    left-to-right word after another ('SCOOT ،SCATS'), the mark joined to the word it
    touches; None when there is none.  Read right to left, such a mark follows the word
    it touches ('SCATS، SCOOT'), as it does in the script around it; the bidi algorithm
    takes a mark between two left-to-right words for one of their run instead, and
    reads the two the other way round.  A line that holds the mark already is left as
    it is, and so is one with CJK text (whose words join without spaces)."""
    if any(_RLM in text for text in texts):
        return None
    touching = [gap <= _TOUCHING_EM * w.size for gap, w in zip(_gaps(words), words,
                                                                  strict=False)]
    pieces: list[str] = []
    glued: list[bool] = []  # whether each piece after the first joins the one before
    found = False
    k = 0
    while k < len(texts):
        text, apart = texts[k], k == 0 or not touching[k - 1]
        after_latin = bool(pieces) and _is_ltr(pieces[-1][-1])
        if k:
            glued.append(solid[k - 1])
        if (after_latin and apart and k + 1 < len(texts) and touching[k]
                and _ONLY_MARKS.fullmatch(text) and _is_ltr(texts[k + 1][0])):
            text, k = text + texts[k + 1], k + 1  # a mark alone against the word after
        mark = _OPENING_MARKS.match(text)
        if mark and apart and after_latin and _is_ltr(text[mark.end()]):
            text, found = _RLM + text, True
        pieces.append(text)
        k += 1
    return _joined(pieces, glued) if found else None


_EXPLICIT = str.maketrans("", "", BIDI_FORMATTING)


def _reordered(text: str, base_dir: str, swap: bool) -> str:
    """``text`` from visual into logical order by the bidi algorithm, in the ``base_dir``
    direction ("R" or "L"), its mirrored characters swapped where they resolve right
    to left with ``swap`` (python-bidi's pure-Python algorithm).

    That algorithm stops on a character it has no bidi class for: an isolate
    (U+2066–U+2069; the explicit formatting characters are dropped here, as a page's
    text cleaned on entering the model has none) or a code point unassigned in
    Python's Unicode database.  Those stand in the reordering as private-use
    characters (class L, the default of an unassigned code point), one for each, and
    are put back after."""
    text = text.translate(_EXPLICIT)
    unknown = sorted({ord(c) for c in text if not unicodedata.bidirectional(c)})
    # private-use characters of plane 15 that the text does not hold already
    free = (c for c in range(0xF0000, 0xFFFFE) if chr(c) not in text)
    stand_ins = dict(zip(unknown, free, strict=False))
    reorder = get_display_swapped if swap else get_display
    read = str(reorder(text.translate(stand_ins) if stand_ins else text, base_dir=base_dir))
    return read.translate({v: k for k, v in stand_ins.items()}) if stand_ins else read


def _wide_gaps(words: Sequence[Word], space_em: float) -> list[bool]:
    """Whether each gap between consecutive ``words`` of a line (`_gaps`) is at least
    ``space_em`` times the size of the word before it."""
    if math.isinf(space_em):
        return [False] * (len(words) - 1)
    return [gap >= space_em * w.size for gap, w in zip(_gaps(words), words, strict=False)]


def _gaps(words: Sequence[Word]) -> list[float]:
    """The gaps between consecutive ``words`` of a line, measured along their baseline
    (in the frame where they read upright)."""
    boxes = turned_boxes(np.array([(w.bbox.x0, w.bbox.top, w.bbox.x1, w.bbox.bottom)
                                   for w in words], dtype=np.float64), words[0].direction)
    return [float(b[0] - a[2]) for a, b in pairwise(boxes)]


def column_texts(lines: Sequence[Sequence[Word]], backwards: bool = False,
                 cjk_space_em: float = math.inf) -> list[str]:
    """The texts of the lines of a column (each line's ``words`` in the order they
    stand along its baseline; `line_text`, with its ``cjk_space_em``), its
    brackets the way round that pairs them.

    A bracket inside right-to-left text is shown by its mirror image (rule L4 of the
    bidi algorithm): "(" is drawn as ")".  Producers disagree on which character a
    glyph so drawn stands for: macOS Quartz gives the character drawn, InDesign the
    one meant; and PDFium's text page swaps the mirrored characters of a
    right-to-left run where pdfminer.six and poppler keep the document's.  The column
    is read both ways, its mirrored characters kept (python-bidi) and swapped where
    they resolve right to left (python-bidi's pure-Python algorithm, which applies
    L4); the swapped reading is taken when it leaves fewer brackets unpaired.  The
    whole column is weighed, as a parenthesis opened on one line may close on the
    next."""
    kept = [line_text(words, backwards, cjk_space_em) for words in lines]
    if not any(_MAYBE_RTL.search(text) and _has_bracket(text) for text in kept):
        return kept
    swapped = [line_text(words, backwards, cjk_space_em, swap=True) for words in lines]
    return swapped if _unpaired("".join(swapped)) < _unpaired("".join(kept)) else kept


_BRACKETS = {")": "(", "]": "[", "}": "{"}
"""The closing brackets, each with its opening one."""


def _has_bracket(text: str) -> bool:
    return any(c in _BRACKETS or c in _BRACKETS.values() for c in text)


def _unpaired(text: str) -> int:
    """How many of the round, square and curly brackets of ``text`` pair with none."""
    opened: list[str] = []
    unpaired = 0
    for char in text:
        if char in _BRACKETS.values():
            opened.append(char)
        elif char in _BRACKETS:
            if opened and opened[-1] == _BRACKETS[char]:
                opened.pop()
            else:
                unpaired += 1
    return unpaired + len(opened)


def _letters(text: str) -> tuple[str, int]:
    """What a word's text and the same word read in the other direction share: its
    characters (NFKC) but the mirrored ones (brackets, which the bidi algorithm turns
    round), sorted, and how many of those there are."""
    chars = unicodedata.normalize("NFKC", text).replace(" ", "")
    mirrored = sum(1 for c in chars if unicodedata.mirrored(c))
    return "".join(sorted(c for c in chars if not unicodedata.mirrored(c))), mirrored


def reading_words(words: Sequence[Word], text: str) -> tuple[Word, ...]:
    """The words of a line (``words``, in the order they stand along its baseline)
    in the order they are read, whose texts joined by spaces are the line's ``text``
    (`line_text`): a right-to-left word is read in logical order and comes
    where the bidi algorithm put it; words that the text joins without a space
    (CJK, an ordinal's raised ending) are one word, their boxes united.  Each piece of
    the text between spaces is matched with the run of standing words, next to each
    other, that holds the same letters, looked for from the end the line is read from
    (a word printed twice keeps its own box); a text whose pieces cannot all be matched
    so is one word."""
    if text == " ".join(w.text for w in words):
        return tuple(words)
    keys = [_letters(w.text) for w in words]
    unused = [True] * len(words)
    rtl, ltr = _strong(text)
    starts = range(len(words) - 1, -1, -1) if rtl > ltr else range(len(words))
    read: list[Word] = []
    for piece in text.split(" "):
        wanted = _letters(piece)
        run = _run(keys, unused, wanted, starts)
        if run is None:
            return (_united(words, text),)
        start, end = run
        unused[start:end] = [False] * (end - start)
        read.append(_united(words[start:end], piece))
    return tuple(read)


def _run(keys: Sequence[tuple[str, int]], unused: Sequence[bool], wanted: tuple[str, int],
         starts: Iterable[int]) -> tuple[int, int] | None:
    """The first run of unused words, next to each other and starting at one of
    ``starts`` (in their order), whose letters (``keys``) together are ``wanted``: its
    start and end."""
    for start in starts:
        letters: list[str] = []
        mirrored = 0
        for end in range(start, len(keys)):
            if not unused[end]:
                break
            letters.append(keys[end][0])
            mirrored += keys[end][1]
            joined = "".join(sorted("".join(letters)))
            if (joined, mirrored) == wanted:
                return start, end + 1
            if len(joined) > len(wanted[0]):
                break
    return None


def _united(words: Sequence[Word], text: str) -> Word:
    """One word of ``text`` over ``words``: their boxes united, the first one's font,
    size and direction, the earliest place in the stream among them, and the link they
    all stand in (none unless they share one)."""
    first = words[0]
    if len(words) == 1 and first.text == text:
        return first
    links = {w.link for w in words}
    return Word(text, BBox.union([w.bbox for w in words]), first.font, first.size,
                first.direction, min(w.stream for w in words),
                link=links.pop() if len(links) == 1 else "")
