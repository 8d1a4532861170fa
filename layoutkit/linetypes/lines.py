"""What the line-typing stage shares: body lines and their keys, and rebuilding pages.

- The body lines of a page, with their keys.
- The text a line starts with, once page line numbers are set aside.
- How a line is set.
- Rebuilding pages with new line types.
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from statistics import median

from ..config import LinetypesConfig
from ..model import Document, Line, LineType, Page, Value, Word, is_cjk
from ..reading.page import raised_mark
from ..reading.stream import HYPHENS

__all__ = ["Key", "Style", "Typed", "TypedLine", "all_bold", "body_lines", "changed",
           "closes_sentence", "column_of", "column_right", "log", "page_body_lines",
           "page_typed_lines", "retyped", "runs_on", "style_of", "would_fit"]

log = logging.getLogger("layoutkit.linetypes")
"""Where each decision is logged (``--verbose-linetypes`` shows it)."""

Key = tuple[int, int]
"""(index of the page in the document, index of the line in the page's reading order)."""

Style = tuple[float, bool]
"""(font size to the half point, bold) of a line: how it is set, as a reader tells
a heading from the body or an item's next line from the next paragraph."""

_SENTENCE_END = re.compile(r"[.!?:。！？][\"'”’)\]」』）]*$")
"""A line that ends so closes its sentence (a closing quote or bracket may follow)."""

_FURNITURE = frozenset({LineType.HEADER, LineType.FOOTER})

_MIN_NUMBERED_LINES = 5
_MIN_NUMBER_GAP_EM = 1.0
"""Line numbers stand in the margin, at least this many ems from the lines' text
(items' numbers, ``1 — text``, stand a space from it)."""


@dataclass(frozen=True, slots=True)
class Typed(Value):
    """A decision about one line: its new type and, for headings, level."""

    line_type: LineType
    level: int = 0


@dataclass(frozen=True, slots=True)
class TypedLine(Value):
    """A body line with where it stands and its words once the page's line numbers
    (the margin numbers of a bill) are set aside."""

    key: Key
    line: Line
    words: tuple[str, ...]

    @property
    def kept_words(self) -> tuple[Word, ...]:
        """The [`Word`][layoutkit.model.Word] values that `words` spells (the
        page's line number set aside): what a check of how the words are set, such as
        a bullet drawn in a font of its own, needs besides their text."""
        words = self.line.words
        return words[len(words) - len(self.words):]


def column_of(item: TypedLine) -> tuple[int, int, int]:
    """(page index, band, column) of a line: the key under which the typing stages
    group the lines of one column (a heading's leading and right edge, a table's run
    of rows), which must not run on from one column into the next."""
    line = item.line
    return (item.key[0], line.band, line.column)


def column_right(lines: Sequence[TypedLine]) -> dict[tuple[int, int, int], float]:
    """The right edge of each column (`column_of`): where its longest line ends."""
    right: dict[tuple[int, int, int], float] = {}
    for item in lines:
        key = column_of(item)
        right[key] = max(right.get(key, 0.0), item.line.bbox.x1)
    return right


def style_of(item: TypedLine) -> Style:
    """The `Style` of a typed line: its size, and bold when all its kept words
    are ([`bold`][layoutkit.model.Word.bold]: by their font's weight; `all_bold`)."""
    return (round(item.line.size * 2) / 2, all_bold(item.kept_words))


def all_bold(words: Sequence[Word]) -> bool:
    """Whether ``words`` are all bold, but a note's call raised after a word (a title's
    '†', drawn from a symbol font of another weight: `raised_mark`)."""
    return all(w.bold for w in words) or all(
        w.bold or (k > 0 and raised_mark(w, words[k - 1])) for k, w in enumerate(words))


def page_body_lines(page: Page, index: int) -> tuple[TypedLine, ...]:
    """Every line still typed body of ``page``, the ``index``-th of its document, in
    reading order."""
    return tuple(TypedLine((index, k), line, words)
                 for k, (line, words) in enumerate(zip(page.lines, _words(page), strict=True))
                 if line.line_type is LineType.BODY)


def page_typed_lines(page: Page, index: int) -> tuple[TypedLine, ...]:
    """Every line of ``page`` (typed already), the ``index``-th of its document, but its
    running headers and footers, in reading order: the lines typing typed, as
    `page_body_lines` found them before."""
    return tuple(TypedLine((index, k), line, words)
                 for k, (line, words) in enumerate(zip(page.lines, _words(page), strict=True))
                 if line.line_type not in _FURNITURE)


def body_lines(document: Document) -> list[TypedLine]:
    """Every line of the document still typed body, in reading order."""
    return [item for p, page in enumerate(document.pages) for item in page_body_lines(page, p)]


def _words(page: Page) -> Iterator[tuple[str, ...]]:
    """The words of each line of ``page``; on a page whose columns number their lines
    (1, 2, 3... down the margin, as bills do) the number is left out."""
    lines = page.lines
    numbered = _numbered(lines)
    for k, line in enumerate(lines):
        words = tuple(w.text for w in line.words)
        yield words[1:] if k in numbered else words


def _numbered(lines: Sequence[Line]) -> set[int]:
    """Indexes of the lines that start with their line number, when at least
    ``_MIN_NUMBERED_LINES`` lines of one column count up from 1 that way, their
    numbers set apart in the margin (by ``_MIN_NUMBER_GAP_EM``, in the median)."""
    by_column: dict[tuple[int, int], list[int]] = {}
    for k, line in enumerate(lines):
        by_column.setdefault((line.band, line.column), []).append(k)
    found: set[int] = set()
    for indexes in by_column.values():
        expected, hits = 1, []
        for k in indexes:
            words = lines[k].words
            if len(words) > 1 and words[0].text == str(expected):
                hits.append(k)
                expected += 1
        if len(hits) >= _MIN_NUMBERED_LINES and median(
                _number_gap_em(lines[k].words) for k in hits) >= _MIN_NUMBER_GAP_EM:
            found.update(hits)
    return found


def _number_gap_em(words: Sequence[Word]) -> float:
    """The space between a line's first word (its number) and the next, in ems."""
    return (words[1].bbox.x0 - words[0].bbox.x1) / words[0].size


def runs_on(before: Line, line: Line) -> bool:
    """Whether ``line``, opening a column or a page, goes on with the text of ``before``,
    which ended the one before: ``before`` leaves its sentence open (no ``.``, ``!``,
    ``?``, ``:``, ``。``, ``！`` or ``？`` at its end), or ``line`` starts in lower case."""
    return not closes_sentence(before.text) or line.text[:1].islower()


def would_fit(before: Line, line: Line, reach: float, size: float) -> bool:
    """Whether the first word of ``line`` would have fit at the end of ``before``, on
    the row under it, short of ``reach`` (where the column's lines end) by a word space
    and ``lt_list_indent_tolerance_em`` of the column's ``size``: the line was broken
    there on purpose, not wrapped (a word hyphenated at the end of ``before`` was
    wrapped).  Chinese and Japanese wrap between any two characters, with no space:
    there the first character would have fit (a list of members' names, one a line).
    A line that does not open with its leftmost word (right to left) is not judged."""
    words = line.words
    if (not words or not line.text.startswith(words[0].text)
            or before.text.endswith(tuple(HYPHENS))
            or line.bbox.top < before.bbox.bottom - size / 2):
        return False  # a piece of the same row is no next line
    room = reach - before.bbox.x1 - _TOLERANCE_EM * size
    first = words[0]
    if is_cjk(first.text[0]):  # Chinese and Japanese wrap between any two characters
        return first.bbox.width / len(first.text) < room
    return first.bbox.width + _SPACE_EM * size < room


_TOLERANCE_EM = LinetypesConfig().lt_list_indent_tolerance_em
"""How far, in ems, a line may end short of the column's reach and still fill it."""
_SPACE_EM = 0.25
"""A word space, in ems: the white a word needs before it at a line's end."""


def closes_sentence(text: str) -> bool:
    """Whether a line of ``text`` ends its sentence: ``.``, ``!``, ``?``, ``:``, ``。``,
    ``！`` or ``？`` at its end, a closing quote or bracket allowed after it."""
    return _SENTENCE_END.search(text) is not None


def retyped(document: Document, decisions: Mapping[Key, Typed]) -> Document:
    """``document`` with the lines named in ``decisions`` given their new type."""
    if not decisions:
        return document
    indexes = {p for p, _ in decisions}
    return dataclasses.replace(document, pages=tuple(
        _retyped_page(page, p, decisions) if p in indexes else page
        for p, page in enumerate(document.pages)))


def _retyped_page(page: Page, index: int, decisions: Mapping[Key, Typed]) -> Page:
    keys = iter(range(len(page.lines)))
    return dataclasses.replace(page, bands=tuple(
        dataclasses.replace(band, columns=tuple(
            dataclasses.replace(column, blocks=tuple(
                dataclasses.replace(block, lines=tuple(
                    _apply(line, decisions.get((index, next(keys))))
                    for line in block.lines))
                for block in column.blocks))
            for column in band.columns))
        for band in page.bands))


def _apply(line: Line, decision: Typed | None) -> Line:
    if decision is None:
        return line
    return dataclasses.replace(line, line_type=decision.line_type, level=decision.level)


def changed(before: Document, after: Document) -> dict[Key, Typed]:
    """The types of the lines of ``after`` that differ from those of the same lines of
    ``before`` (the same pages, typed further): what a typing stage decided."""
    return {(p, k): Typed(new.line_type, new.level)
            for p, (page, typed) in enumerate(zip(before.pages, after.pages, strict=True))
            for k, (old, new) in enumerate(zip(page.lines, typed.lines, strict=True))
            if (old.line_type, old.level) != (new.line_type, new.level)}
