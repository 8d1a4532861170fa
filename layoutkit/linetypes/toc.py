"""Table of contents: a run of entries on one of the first pages.

- The contents stand on one of the first pages (`toc_last_page`) and have enough
  entries (`toc_min_entries`).
- Entries end in ascending page numbers (dot leaders allowed), most of them set off from
  their titles by a leader, a gap or the column's edge; or they begin with ascending
  section numbers of more than one level (`1`, `1.1`, `2`...), as printed web pages and
  many reports list their contents without page numbers.
- A page number points to a page of the document: it is at most the page count, or
  falls among the document's page labels (a parliament's record numbered on from the
  last session's, 12833 to 12983); front matter is numbered in Roman numerals
  (`Preface . . . xi`).
- Numbers that point nowhere (a table of counts, a form's totals) and footnote marks set
  small after a sentence make no entries.
- Lines that end in small numbers with rows of figures between them are a table's parts.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from ..config import LinetypesConfig
from ..geometry.numerals import roman_value
from ..model import Document, LineType, Page
from .lines import Key, Typed, TypedLine, column_of, column_right, log, page_body_lines, retyped

__all__ = ["PageNumbers", "is_first_page", "section_number", "type_toc"]

_NUMBER = re.compile(r"([.…·]{2,}|…)?(\d{1,6}|[ivxlcdm]{1,7}|[IVXLCDM]{1,7})")
"""A word that may be a page number: Arabic or Roman, glued to its dot leader or not."""
_LEADER = re.compile(r"(?:\.\s*){2,}$|[…·]$")
"""The end of the words before a page number that are (or end with) a dot leader:
``...``, ``. .`` set as words of one dot, ``…``."""
_MAX_NUMBERS = 6
"""An entry ends in at most this many page numbers (a speaker's speeches in a
parliament's record: ``12877 12879 12880 12881``); a row of more is a table's."""
_MIN_NUMBER_SIZE = 0.8
"""A page number is set at least this many times the line's size: smaller, it is a
footnote mark at the end of a sentence."""
_MIN_GAP_EM = 1.0
"""A Roman page number stands after a dot leader, or in lower case after a title and a
gap of at least this many times the line's size (else ``World War I`` would end in a
page number, and a datasheet's ``0.8 V`` in page v)."""
_SECTION = re.compile(r"\d{1,3}(?:\.\d{1,3})*\.?")
"""A section number: ``4``, ``4.2``, ``4.2.1.``; at most three digits a part, so that
a year or an amount opening a line is none."""
_ARABIC = re.compile(r"[0-9]+")
"""A page label in arabic numerals."""
_MAX_WRAPPED = 1
"""Lines that may stand between two entries numbered by section: a title wrapped
onto a second line, or an entry whose number did not read (OCR)."""
_TITLE = re.compile(
    r"(?:table\s+of\s+)?contents?|inhalt|inhaltsverzeichnis|[íi]ndice|sum[áa]rio|sommario"
    r"|sommaire|table\s+des\s+mati[èe]res|inhoud(?:sopgave)?|inneh[åa]ll"
    r"|indholdsfortegnelse|spis\s+tre[śs]ci|obsah|tartalom(?:jegyz[ée]k)?|sisällys"
    r"|содержание|оглавление|目次|目录", re.IGNORECASE)
"""The title of a contents page, in the languages of the documents read so far."""
_TITLE_REACH = 3
"""The title of a contents page stands at most this many lines above its first entry
(a section's name, a ``Page`` column head between them)."""

Span = tuple[int, int]
"""The first and last index of a page's contents among its body lines."""


@dataclass(frozen=True, slots=True)
class PageNumbers:
    """The page numbers a document's contents may point to: 1 to its page count, or
    the same pages by their labels where they count on from another number (each
    ``offset``: a page's label less its place in the file)."""

    count: int
    offsets: frozenset[int] = frozenset({0})

    @staticmethod
    def of(document: Document) -> PageNumbers:
        """The page numbers of ``document``, from its page count and the labels of the
        pages it holds."""
        offsets = {int(page.label) - page.page_no for page in document.pages
                   if _ARABIC.fullmatch(page.label)}
        return PageNumbers(document.page_count, frozenset({0, *offsets}))

    def arabic(self, number: int) -> bool:
        """Whether ``number`` is the number or the label of a page of the document."""
        return any(1 <= number - offset <= self.count for offset in self.offsets)


@dataclass(frozen=True, slots=True)
class _Entry:
    """A line ending in page numbers: each as (0 for Roman or 1 for Arabic, value), so
    that front matter sorts before the text; ``titled`` when a title or a leader
    stands before them (not a page number alone on its line)."""

    numbers: tuple[tuple[int, int], ...]
    titled: bool
    set_off: bool
    """Whether a leader stands before the numbers, or a gap, or they stand at the
    column's right edge, as a contents sets its page numbers."""


def is_first_page(page: Page, config: LinetypesConfig) -> bool:
    """Whether ``page`` is one of the first ``toc_last_page`` pages, where contents
    stand: by its place in the file, or by the number the document gives it (its
    [`label`][layoutkit.model.Page.label]).  Front matter numbered in Roman numerals
    comes before the text, and a page labelled 1 to ``toc_last_page`` is one of the
    first pages of the text: a contents page after a title page and a foreword
    numbered i, ii, iii is labelled 1."""
    label = page.label
    last = config.toc_last_page
    return (page.page_no <= last or roman_value(label) is not None
            or (_ARABIC.fullmatch(label) is not None and int(label) <= last))


def type_toc(document: Document, config: LinetypesConfig) -> Document:
    """``document`` with its table of contents typed ``toc``.

    On each of the first pages (`is_first_page`) the contents are the lines
    from the first entry to the last (with the titles and leaders between them that a
    layout split off their numbers) of a list of at least ``toc_min_entries``
    entries: lines ending in page numbers (`_by_page_number`, which takes in
    the first entry's lines before its number and the lines below the page's title,
    the title left to the headings), or lines opening with section numbers
    (`_by_section_number`).  Lines of neither letter nor digit (a rule drawn in
    dots) are left body.
    """
    decisions: dict[Key, Typed] = {}
    numbers = PageNumbers.of(document)
    for p, page in enumerate(document.pages):
        if not is_first_page(page, config):
            continue
        items = page_body_lines(page, p)
        spans = [*_by_page_number(items, numbers, config), *_by_section_number(items, config)]
        for first, last in spans:
            log.info("page %d: table of contents from %r to %r", page.page_no,
                     items[first].line.text, items[last].line.text)
            decisions.update((item.key, Typed(LineType.TOC)) for item in items[first:last + 1]
                             if any(c.isalnum() for c in item.line.text))
    return retyped(document, decisions)


def _entry(item: TypedLine, numbers: PageNumbers, right: float) -> _Entry | None:
    """The page numbers ``item`` ends with, if it is a contents entry: at most
    `_MAX_NUMBERS` of them, of one kind (Arabic or Roman), each a page of the
    document, set no smaller than the line, in ascending order; whether a title or a
    leader stands before them, and whether they are set off (`_Entry`): by a gap
    (`_MIN_GAP_EM`) or at the column's ``right`` edge."""
    words = item.kept_words
    found = _end_numbers(item)
    if not found or len(found) > _MAX_NUMBERS:
        return None
    k = len(words) - len(found)
    size, before = item.line.size, words[:k]
    if any(w.size < _MIN_NUMBER_SIZE * size for w in words[k:]):
        return None
    leader = bool(found[0][1]) or _LEADER.search(" ".join(w.text for w in before[-2:])) is not None
    apart = bool(before) and words[k].bbox.x0 - before[-1].bbox.x1 >= _MIN_GAP_EM * size
    flush = item.line.bbox.x1 >= right - _MIN_GAP_EM * size
    values: list[tuple[int, int]] = []
    for match in found:
        text = match[2]
        if text.isdigit():
            if not numbers.arabic(int(text)):
                return None
            values.append((1, int(text)))
            continue
        roman = roman_value(text)
        set_off = apart and any(c.isalpha() for c in before[-1].text) and text.islower()
        if roman is None or not (leader or set_off) or not 1 <= roman <= numbers.count:
            return None
        values.append((0, roman))
    if any(b < a for a, b in pairwise(values)):
        return None
    return _Entry(tuple(values), leader or any(c.isalpha() for w in before for c in w.text),
                  leader or apart or flush)


def _end_numbers(item: TypedLine) -> list[re.Match[str]]:
    """The numbers of one kind (Arabic or Roman) that ``item`` ends with, in order, up
    to one more than `_MAX_NUMBERS` (a row of figures), and up to a dot leader
    glued to one."""
    words = item.kept_words
    k, found = len(words), list[re.Match[str]]()
    while k and len(found) <= _MAX_NUMBERS and (
            match := _NUMBER.fullmatch(words[k - 1].text)) is not None and (
            not found or match[2].isdigit() == found[-1][2].isdigit()):
        found.append(match)
        k -= 1
        if match[1]:  # the leader glued to it ends the numbers
            break
    return found[::-1]


def _by_page_number(items: Sequence[TypedLine], numbers: PageNumbers,
                    config: LinetypesConfig) -> list[Span]:
    """The contents of one page's lines by DCR's rule: the lines ending in page
    numbers (`_entry`) after a title or a leader are entries; at least
    ``toc_min_entries`` of them, most of them ascending (each no smaller than the one
    before) and at least half of them set off from their titles (a CV's labels run on
    into numbers, ``Item 1``, ``Person 2``, make no contents).  The contents run from
    the first entry's first line (the lines of its block above the one carrying the
    number), or from the line after the page's title
    above it, to the last entry; a page number alone on its line (the speeches of a
    speaker wrapped onto a second line) stands among them."""
    right = column_right(items)
    entries = [(k, found) for k, item in enumerate(items)
               if (found := _entry(item, numbers, right[column_of(item)])) is not None
               and found.titled]
    fewest = config.toc_min_entries
    ascending = sum(1 for (_, a), (_, b) in pairwise(entries) if b.numbers[0] >= a.numbers[0])
    set_off = sum(1 for _, entry in entries if entry.set_off)
    if (len(entries) < fewest or ascending + 1 < fewest
            or 2 * ascending < len(entries) - 1 or 2 * set_off < len(entries)):
        return []
    first, last = entries[0][0], entries[-1][0]
    # entries with rows of figures between them are the heads of a table's parts (an
    # election's results, QUESTION 1 to QUESTION 4, each over its rows of counts)
    if any(len(_end_numbers(item)) > _MAX_NUMBERS for item in items[first:last]):
        return []
    return [(_after_title(items, _entry_start(items, first)), last)]


def _block(item: TypedLine) -> tuple[int, int, int, int]:
    """(page index, band, column, block) of a line."""
    return (*column_of(item), item.line.block)


def _entry_start(items: Sequence[TypedLine], last: int) -> int:
    """The first line of the entry whose page number line ``last`` is: the lines of
    its block above it carry the entry's title (a gazette's act, its date and subject
    over several lines), up to the page's title if it stands in the block."""
    first = last
    while (first and _block(items[first - 1]) == _block(items[last])
           and not _is_title(items[first - 1])):
        first -= 1
    return first


def _is_title(item: TypedLine) -> bool:
    """Whether a line is the title of a contents page (`_TITLE`)."""
    return _TITLE.fullmatch(item.line.text.strip(" :.")) is not None


def _after_title(items: Sequence[TypedLine], first: int) -> int:
    """The line after the contents page's title (``Contents``, ``Índice``...) when the
    title stands at most `_TITLE_REACH` lines above line ``first`` in its column:
    what stands between them (a section's name, a ``Page`` column head) is contents
    too, the title itself a heading.  Else ``first``."""
    for k in range(first - 1, max(-1, first - 1 - _TITLE_REACH), -1):
        if column_of(items[k]) != column_of(items[first]):
            break
        if _is_title(items[k]):
            return k + 1
    return first


def _opening(words: tuple[str, ...]) -> int:
    """Where a line's number stands among its ``words``: after a bullet (a first word
    with no letter or digit), if any."""
    return 1 if words and not any(c.isalnum() for c in words[0]) else 0


def section_number(words: tuple[str, ...]) -> tuple[int, ...] | None:
    """The section number a line opens with, after a bullet if any (a first word with
    no letter or digit), when a title follows it: ``• 4.2 Character recognition`` ->
    ``(4, 2)``."""
    start = _opening(words)
    if (len(words) < start + 2 or not _SECTION.fullmatch(words[start])
            or not any(c.isalpha() for w in words[start + 1:] for c in w)):
        return None
    return tuple(int(part) for part in words[start].rstrip(".").split("."))


def _wrapped(items: Sequence[TypedLine], entry: int, following: int) -> bool:
    """Whether the lines between the ``entry`` and the ``following`` one (indexes in
    ``items``) may be its title wrapped, or entries whose numbers did not read: at
    most `_MAX_WRAPPED` of them, each opening in the weight of the entry's title, the
    word after its number (the number, a bullet, the page number may be set in
    another; an OCR layer's sizes vary from line to line)."""
    words = items[entry].kept_words
    if following - entry > _MAX_WRAPPED + 1 or not words:
        return False
    bold = words[min(_opening(tuple(w.text for w in words)) + 1, len(words) - 1)].bold
    return all(bool(line := items[k].kept_words) and line[0].bold == bold
               for k in range(entry + 1, following))


def _by_section_number(items: Sequence[TypedLine], config: LinetypesConfig) -> list[Span]:
    """The contents of one page's lines numbered by section: runs of at least
    ``toc_min_entries`` lines opening with section numbers, each larger than the one
    before (``4`` < ``4.1`` < ``4.2`` < ``5``), at most `_MAX_WRAPPED` lines
    apart, with numbers of more than one level.

    Numbered headings in the text stand paragraphs apart (a paragraph of one line
    in the text's weight under a bold heading is no title wrapped: `_wrapped`), and
    the items of a numbered list count up on one level, so neither is taken for
    contents."""
    runs: list[list[tuple[int, tuple[int, ...]]]] = []
    for k, item in enumerate(items):
        # the line's own words: chapter numbers 1, 2, 3... down a contents page count
        # up like a bill's margin line numbers, which ``item.words`` leaves out
        number = section_number(tuple(w.text for w in item.line.words))
        if number is None:
            continue
        if runs and number > runs[-1][-1][1] and _wrapped(items, runs[-1][-1][0], k):
            runs[-1].append((k, number))
        else:
            runs.append([(k, number)])
    return [(run[0][0], run[-1][0]) for run in runs
            if len(run) >= config.toc_min_entries and len({len(n) for _, n in run}) > 1]
