"""Bulleted (`lb`) and numbered (`ln`) lists: item lines found by their marker.

- Items are chained into lists of at least `lt_list_min_entries` items, with the
  lines that continue an item typed with it (`lt_list_indent_tolerance_em`).
- A superscript number counting up at one indentation opens an item, an endnote's
  (`lt_note_mark_max_size`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Container, Iterator, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from kanjize import kanji2number

from ..config import LinetypesConfig
from ..model import Document, Line, LineType, Value, Word, turned_boxes
from ..reading.text import right_to_left
from .lines import (
    Key,
    Typed,
    TypedLine,
    column_of,
    column_right,
    log,
    page_body_lines,
    retyped,
    runs_on,
    style_of,
    would_fit,
)
from .sequence import is_successor

__all__ = ["Between", "ListMarks", "Mark", "Marker", "list_items", "list_lines", "list_marks",
           "marker", "markers", "type_lists"]

_BULLETS = frozenset("•-–—*▪◦●■□➢►·○◆◇♦❖➤‣⁃∙")
_CJK_DIGITS = "〇一二三四五六七八九十百千"
"""The CJK numerals items are numbered with (一, 二... 十一...), read by kanjize."""
_NUMBERED_STYLES = {
    "string_integers": (("(1)", r"\((\d{1,3})\)"), ("[1]", r"\[(\d{1,3})\]"),
                        ("1.", r"(\d{1,3})[.、]"), ("1)", r"(\d{1,3})\)"),
                        ("(一)", rf"\(([{_CJK_DIGITS}]{{1,4}})\)"),
                        ("一", rf"([{_CJK_DIGITS}]{{1,4}})[、.]?")),
    "romans": (("(i)", r"\(([ivxlc]{1,6})\)"), ("i.", r"([ivxlc]{1,6})[.)]")),
    "lowercase_letters": (("(a)", r"\(([a-z])\)"), ("a.", r"([a-z])[.)]")),
    "uppercase_letters": (("(A)", r"\(([A-Z])\)"), ("A.", r"([A-Z])[.)]")),
}
_NUMBERED = tuple((style, re.compile(pattern), function)
                  for function, styles in _NUMBERED_STYLES.items() for style, pattern in styles)
"""Numbered markers: a style name, the first word's pattern (on its compatibility
form, NFKC: full-width ``（１）`` and ``１．`` read as ``(1)`` and ``1.``; ``\\d`` is any
script's digit) and DCR's comparison function; numbers in any script's digits or in
CJK numerals are compared by their value.  Roman numerals come before letters, but
a marker that reads both ways (``(c)``, ``i.``) is read the way that continues a list
(`list_items`): ``(c)`` after ``(b)``, ``(ii)`` after ``(i)``."""
_GLUED = re.compile(r"[(\[][^)\]\s]{1,6}[)\]]|[^\W_]{1,4}、")
"""The first word's opening that is a whole marker though the item's text runs on
without a space: closed by a bracket (``[2]S.I.Shevchenko``, ``（一）総則``) or by an
ideographic comma (``一、总则``)."""
_DASHES = frozenset("-–—")
_FIGURE = re.compile(r"[(+]?[$€£¥]?\d[\d.,]*%?\)?")
"""A figure: a dash before nothing else is a minus or a table's cell for no value
(``— 60,721``), not a bullet."""
_DASHED = (
    ("1 —", re.compile(r"\d{1,3}"), "string_integers"),
    ("I —", re.compile(r"[IVXLC]{1,6}"), "romans"),
)
"""Numbers set apart from the item's text by a dash (``1 — text``, ``IV - text``,
as Portuguese and Brazilian acts number their paragraphs and items): a style name,
the first word's pattern and DCR's comparison function."""
_NOTE = "¹"
"""The style of items opened by a note number set small and raised (a superscript:
``¹ My thanks to...``, endnotes), whose items must also stand at one indentation."""
_SIZE_TOLERANCE = 0.5
"""An item's next lines are set within this many points of its size (a scan's text
layer gives the lines of one font slightly different sizes).  Not a parameter: a
quarter of a point or a whole point types the corpus's lists alike."""

_CIRCLED = "①"
"""The style of whole numbers drawn as one character of their own (①, ❶, ⑩, Ⅳ)."""
_STARTS = frozenset({"1", "i", "a", "A", "I"})
_DEFAULTS = LinetypesConfig()


@dataclass(frozen=True, slots=True)
class Marker(Value):
    """What starts a list item: bullet (``style`` is the bullet) or number (``value``
    the number as DCR's comparison ``function`` reads it: Arabic digits for any
    script's digits and CJK numerals)."""

    style: str
    value: str
    function: str

    @property
    def bulleted(self) -> bool:
        return self.function == ""


def marker(words: Sequence[Word], config: LinetypesConfig = _DEFAULTS) -> Marker | None:
    """The list marker a line whose ``words`` these are starts with, if any (a typed
    line's `kept_words`, or a line's words as they stand): the first
    of its `markers`."""
    return next(iter(markers(words, config)), None)


def markers(words: Sequence[Word], config: LinetypesConfig = _DEFAULTS) -> tuple[Marker, ...]:
    """Every way the first of ``words`` reads as a list marker, the likelier first.

    A bullet is one of the usual bullet characters (a dash but before figures alone:
    ``— 60,721`` is a minus or a table's cell), or a lone character first word
    set in a font that no other word of the line uses, no larger than they are
    (word processors draw bullets from symbol fonts, whose codes read as "!", "§"
    or "á"); a number is one of `_NUMBERED` (the first word whole, or an opening
    of it that `_GLUED` takes), or of `_DASHED` before a dash, a whole
    number drawn as one character (①, ❶), or a note number: digits set at most
    ``lt_note_mark_max_size`` times the size of the word after them (a superscript)."""
    if len(words) < 2:
        return ()
    first = words[0].text
    if first in _DASHES and all(_FIGURE.fullmatch(w.text) for w in words[1:]):
        return ()
    if first in _BULLETS:
        return (Marker(first, first, ""),)
    found = [*_numbers(first, words[0].size, words[1], config)]
    if (len(first) == 1 and first not in "([\"'“‘"
            and words[0].font not in {w.font for w in words[1:]}
            and words[0].size <= max(w.size for w in words[1:])):
        found.append(Marker(first, first, ""))
    return tuple(found)


def _numbers(first: str, size: float, after: Word, config: LinetypesConfig
             ) -> Iterator[Marker]:
    """The numbered readings of a line's first word ``first`` (set in ``size``, the
    word ``after`` it next): see `markers`."""
    normal = unicodedata.normalize("NFKC", first)
    glued = _GLUED.match(normal)
    if glued is not None and glued.end() < len(normal) and normal[glued.end()].isalpha():
        normal = glued[0]
    for style, pattern, function in _NUMBERED:
        found = pattern.fullmatch(normal)
        value = _value(found[1]) if found else None
        if value is not None:
            yield Marker(style, value, function)
    if after.text in _DASHES:
        for style, pattern, function in _DASHED:
            if pattern.fullmatch(normal):
                yield Marker(style, _value(normal) or normal, function)
    number = unicodedata.numeric(first, None) if len(first) == 1 else None
    if (number is not None and number == int(number) and not first.isdecimal()
            and first not in _CJK_DIGITS):
        yield Marker(_CIRCLED, str(int(number)), "string_integers")
    if first.isdecimal() and len(first) <= 3 and size <= config.lt_note_mark_max_size * (
            after.size):
        yield Marker(_NOTE, str(int(first)), "string_integers")


def _value(number: str) -> str | None:
    """A marker's number or letter as the comparison functions read it: digits of any
    script and CJK numerals as Arabic digits (None for CJK characters that spell no
    number), letters as they are."""
    if number.isdecimal():
        return str(int(number))
    if number[0] in _CJK_DIGITS:
        try:
            return str(kanji2number(number))
        except ValueError:
            return None
    return number


@dataclass(frozen=True, slots=True)
class Between(Value):
    """Lines that stand between two marked lines: their column, their run and the
    leftmost start of them along their baseline."""

    column: tuple[int, int, int]
    run: Key
    start: float


@dataclass(frozen=True, slots=True)
class Mark(Value):
    """A body line that starts with a list marker, with what chaining it to the items
    before it needs: its `markers`; the run of body lines it stands in (the
    lines of its block, and of the next column where its text runs on) and the run the
    body line before it stands in, each named by its first line; its column
    (`column_of`), where it starts along its baseline,
    the margin of its item's lines and its size; where the lines between it and the
    marked line before it start (`between`); and its page number and text, for
    the log."""

    key: Key
    markers: tuple[Marker, ...]
    page_no: int
    text: str
    run: Key
    after: Key | None
    """None for the first body line of its page: the run is then that of the last body
    line of the pages before."""
    column: tuple[int, int, int]
    start: float
    margin: float
    """The leftmost start of its item's lines: its own and those after it in its run and
    column up to the next marked line (left of its start where its first line is
    indented as a paragraph's)."""
    size: float
    titled: bool = False
    """Whether the line right before it in reading order is a heading: a list of notes
    opens under its title (``Notes``); note numbers elsewhere are footnotes or
    affiliations."""
    between: tuple[Between, ...] = ()
    """The lines before this one since the page's marked line before it: the leftmost
    start of them in each column and run.  A numbered list ends at such a line outside
    its last item's run that starts left of that item's `margin`: the text has
    gone back to the margin (a figure's table between its sub-captions ``(a)`` and
    ``(b)``, a paragraph after the list)."""


@dataclass(frozen=True, slots=True)
class ListMarks(Value):
    """The list markers of one page's body lines, the run its last body line stands
    in (None when it has no body line) and the `Mark.between` lines after its
    last marked line: what chaining items across pages needs."""

    marks: tuple[Mark, ...]
    last: Key | None
    between: tuple[Between, ...] = ()


def _start(line: Line) -> float:
    """Where ``line`` starts along its baseline, in the frame where its text reads
    upright (its top, for vertical writing)."""
    box, direction = line.bbox, line.words[0].direction if line.words else 0
    if not direction:
        return box.x0
    return float(turned_boxes(np.array([[box.x0, box.top, box.x1, box.bottom]]),
                              direction)[0, 0])


def _runs(lines: Sequence[TypedLine]) -> list[Key]:
    """The run each of one page's body ``lines`` stands in, named by its first line:
    consecutive lines of one block, and the first line of a column that runs on from
    the column before it in its band (`runs_on`: a
    sentence cut by the column break)."""
    runs: list[Key] = []
    for k, item in enumerate(lines):
        runs.append(runs[-1] if k and (_same_block(lines[k - 1], item) or (
            _next_column(lines[k - 1], item) and runs_on(lines[k - 1].line, item.line)))
            else item.key)
    return runs


def _next_column(a: TypedLine, b: TypedLine) -> bool:
    """Whether line ``b`` stands in a later column of the band of line ``a``."""
    (page_a, band_a, column_a), (page_b, band_b, column_b) = column_of(a), column_of(b)
    return (page_a, band_a) == (page_b, band_b) and column_b > column_a


def list_marks(lines: Sequence[TypedLine], config: LinetypesConfig,
               headings: Container[Key] = frozenset()) -> ListMarks:
    """The `ListMarks` of one page's body ``lines``, whose heading lines (already
    typed) are ``headings``."""
    runs = _runs(lines)
    found_markers = [markers(item.kept_words, config) for item in lines]
    starts = [_start(item.line) for item in lines]
    marks: list[Mark] = []
    between: dict[tuple[tuple[int, int, int], Key], float] = {}
    for k, (item, found) in enumerate(zip(lines, found_markers, strict=True)):
        if not found:
            place = (column_of(item), runs[k])
            between[place] = min(between.get(place, np.inf), starts[k])
            continue
        end = next((j for j in range(k + 1, len(lines)) if found_markers[j]
                    or runs[j] != runs[k] or column_of(lines[j]) != column_of(item)),
                   len(lines))
        marks.append(Mark(item.key, found, item.line.page_no, item.line.text, runs[k],
                          runs[k - 1] if k else None, column_of(item), starts[k],
                          min(starts[k:end]), item.line.size,
                          (item.key[0], item.key[1] - 1) in headings, _betweens(between)))
        between = {}
    return ListMarks(tuple(marks), runs[-1] if runs else None, _betweens(between))


def _betweens(starts: Mapping[tuple[tuple[int, int, int], Key], float]
              ) -> tuple[Between, ...]:
    return tuple(Between(column, run, start) for (column, run), start in starts.items())


_Chain = list[tuple[Mark, Marker]]
"""A list's items so far: each marked line with the reading of its marker the list
took."""


def list_items(pages: Sequence[ListMarks], config: LinetypesConfig) -> dict[Key, Typed]:
    """The item lines of the document's lists, typed ``lb`` (bulleted) or ``ln``
    (numbered), from the `list_marks` of each page in order.

    Items chain into a list when each numbered marker directly follows the one
    before in the same style (``(1)`` -> ``(2)``, ``a.`` -> ``b.``; a chain starts at
    1, a, A or i) or, for bullets, when the lines between two items all continue the
    first one (stand in its run), across a page break too.  A marker that reads
    several ways continues a list if one of its readings does, else starts one.  A
    numbered list ends where a line outside its last item's run starts left of that
    item's lines, in its column (`Mark.between`); note numbers (a superscript
    opening a line) open a list only right under a heading (`Mark.titled`), and
    chain only when their items start at one indentation in a column.
    Chains of at least ``lt_list_min_entries`` items are lists.
    """
    chains: list[_Chain] = []
    open_numbered: dict[str, _Chain] = {}
    last_bullet: _Chain | None = None
    before: Key | None = None
    for page in pages:
        for mark in page.marks:
            _close(open_numbered, mark.between, config)
            continued = next(((chain, found) for found in mark.markers if not found.bulleted
                              and (chain := open_numbered.get(found.style)) is not None
                              and _follows(chain[-1], mark, found, config)), None)
            bullet = next((found for found in mark.markers if found.bulleted), None)
            started = next((found for found in mark.markers
                            if not found.bulleted and found.value in _STARTS
                            and (found.style != _NOTE or mark.titled)), None)
            if continued is not None:
                continued[0].append((mark, continued[1]))
            elif bullet is not None and last_bullet and last_bullet[-1][1] == bullet and (
                    last_bullet[-1][0].run == (before if mark.after is None else mark.after)):
                last_bullet.append((mark, bullet))
            elif started is not None:
                open_numbered[started.style] = [(mark, started)]
                chains.append(open_numbered[started.style])
            elif bullet is not None:
                last_bullet = [(mark, bullet)]
                chains.append(last_bullet)
        _close(open_numbered, page.between, config)
        before = page.last if page.last is not None else before
    decisions: dict[Key, Typed] = {}
    for chain in chains:
        if len(chain) < config.lt_list_min_entries:
            continue
        first, reading = chain[0]
        kind = LineType.LIST_BULLET if reading.bulleted else LineType.LIST_NUMBER
        log.info("page %d: %s list of %d items from %r", first.page_no, kind.value,
                 len(chain), first.text)
        decisions.update((mark.key, Typed(kind)) for mark, _ in chain)
    return decisions


def _follows(last: tuple[Mark, Marker], mark: Mark, found: Marker,
             config: LinetypesConfig) -> bool:
    """Whether ``mark``, read as ``found``, is the next item of a list whose last item
    is ``last``: its number follows, and a note number stands where the last one does
    when they share a column."""
    before, reading = last
    return is_successor(found.function, reading.value, found.value) and (
        found.style != _NOTE or before.column != mark.column
        or abs(mark.start - before.start) <= config.lt_list_indent_tolerance_em * mark.size)


def _close(open_numbered: dict[str, _Chain], between: Sequence[Between],
           config: LinetypesConfig) -> None:
    """Ends each numbered list of ``open_numbered`` whose last item a line of
    ``between`` stands left of (of its `margin`), in the item's column,
    outside its run."""
    for style, chain in list(open_numbered.items()):
        last = chain[-1][0]
        if any(place.column == last.column and place.run != last.run
               and place.start < last.margin - config.lt_list_indent_tolerance_em * last.size
               for place in between):
            del open_numbered[style]


def list_lines(lines: Sequence[TypedLine], marks: ListMarks, items: Mapping[Key, Typed],
               config: LinetypesConfig) -> dict[Key, Typed]:
    """The list lines of one page: its body ``lines`` that are ``items`` (of
    `list_items`), and after each the lines that continue it, up to the next
    marked line (of ``marks``) or the first line that does not go on as the item's
    text (`_ended`, `_left`, `_goes_on`), typed as the item."""
    marked = {mark.key for mark in marks.marks}
    runs = _runs(lines)
    right = column_right(lines)
    decisions: dict[Key, Typed] = {}
    for k, item in enumerate(lines):
        typed = items.get(item.key)
        if typed is None:
            continue
        decisions[item.key] = typed
        j = k + 1
        while (j < len(lines) and lines[j].key not in marked and runs[j] == runs[k]
               and not _ended(lines, j, right, marked, config)
               and not _left(lines, k, j, right, config)
               and _goes_on(lines, k, j, config)):
            decisions[lines[j].key] = typed
            j += 1
    return decisions


def _ended(lines: Sequence[TypedLine], later: int, right: Mapping[tuple[int, int, int], float],
           marked: Container[Key], config: LinetypesConfig) -> bool:
    """Whether an item's text ends at the line before ``later`` and a paragraph opens
    there, its first line indented as far as the item's text: that line closes its
    sentence (``.``, ``!``, ``?``), the first word of ``later``, opening in a capital,
    would have fit at its end (`would_fit`, short of the column's ``right`` edge), and
    the line after ``later``, no item of its own (of ``marked``), starts back left of
    it, as a paragraph's second line does (an item's lines, a reference's 'Lancet
    2004, …', stay at its text's edge)."""
    before, line = lines[later - 1], lines[later]
    column = column_of(line)
    if (later + 1 >= len(lines) or column_of(before) != column
            or column_of(lines[later + 1]) != column or lines[later + 1].key in marked
            or not line.line.text[:1].isupper()
            or _PERIOD_END.search(before.line.text) is None):
        return False
    back = line.line.bbox.x0 - lines[later + 1].line.bbox.x0
    return (back > config.lt_list_indent_tolerance_em * line.line.size
            and would_fit(before.line, line.line, right[column], before.line.size))


def _left(lines: Sequence[TypedLine], item: int, later: int,
          right: Mapping[tuple[int, int, int], float], config: LinetypesConfig) -> bool:
    """Whether the text has left the item of line ``item`` at line ``later``: in the
    item's column, ``later`` starts left of its marker (by more than
    ``lt_list_indent_tolerance_em``) and its first word would have fit at the end of
    the line before it (`would_fit`, short of the column's ``right`` edge).  The
    paragraph after an indented list, back at the margin, opens there; an item set as
    a paragraph, its first line indented and full, its next lines at the margin, goes
    on.  Text read right to left is left to the other tests: its lines fill leftwards,
    where `would_fit` measures none."""
    before, line, marked = lines[later - 1], lines[later], lines[item]
    column = column_of(line)
    return (column == column_of(marked) == column_of(before)
            and not right_to_left(w.text for w in marked.line.words)
            and _start(line.line) < _start(marked.line)
            - config.lt_list_indent_tolerance_em * marked.line.size
            and would_fit(before.line, line.line, right[column], before.line.size))


_PERIOD_END = re.compile(r"[.!?][\"'”’)\]]*$")
"""A line's end that closes its sentence with a full stop, an exclamation or a
question mark (a colon opens what follows)."""


def _goes_on(lines: Sequence[TypedLine], item: int, later: int,
             config: LinetypesConfig) -> bool:
    """Whether line ``later`` goes on as the text of the item line ``item`` (the lines
    between them doing so): set in the item's style (a change of font is code, a
    table or a heading after the list) and, after the item's second line, starting
    where that line does (a change of indentation is a new paragraph); in a later
    column, where the item's first line there does."""
    size, bold = style_of(lines[later])
    marked = lines[item]
    if abs(size - style_of(marked)[0]) > _SIZE_TOLERANCE or bold != all(
            w.bold for w in marked.kept_words[1:]):
        return False
    column = column_of(lines[later])
    first = next(j for j in range(item + 1, later + 1) if column_of(lines[j]) == column)
    reference = lines[first].line
    return later == first or abs(_start(lines[later].line) - _start(reference)) <= (
        config.lt_list_indent_tolerance_em * reference.size)


def type_lists(document: Document, config: LinetypesConfig) -> Document:
    """``document`` with its list items typed ``lb`` (bulleted) or ``ln`` (numbered),
    with the lines that continue an item (same run, before the next marker): see
    `list_items`."""
    pages = [page_body_lines(page, p) for p, page in enumerate(document.pages)]
    headings = {(p, k) for p, page in enumerate(document.pages)
                for k, line in enumerate(page.lines) if line.line_type is LineType.HEADING}
    marks = [list_marks(lines, config, headings) for lines in pages]
    items = list_items(marks, config)
    decisions: dict[Key, Typed] = {}
    for lines, page_marks in zip(pages, marks, strict=True):
        decisions.update(list_lines(lines, page_marks, items, config))
    return retyped(document, decisions)


def _same_block(a: TypedLine, b: TypedLine) -> bool:
    """Whether lines ``a`` and ``b`` stand in one block."""
    return (column_of(a), a.line.block) == (column_of(b), b.line.block)
