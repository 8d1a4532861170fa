"""A typed document read as the parts a marked-up output shows, in reading order.

The parts are headings, paragraphs, footnotes, bulleted and numbered lists, contents
and tables.

- Built on `layoutkit.nlp.paragraphs.paragraphs`: the lines of a paragraph are joined
  there (a word hyphenated at a line end joined again), a paragraph that a column or
  page break interrupts mid-sentence runs on, and a heading wrapped over lines is one.
- Consecutive list items, contents entries and table rows make one list, contents or
  table.
- A table's cells are a ruled table's own (when `--tables` found one around the rows),
  otherwise each row's words placed in the columns of the table's fullest row (its
  words parted at gaps wider than `table_min_gap_em`).
- `layoutkit.outputs.markdown` and `layoutkit.outputs.html` write these parts;
  `paragraph_text` is the plain text of the paragraphs.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from ..config import LinetypesConfig
from ..geometry.words import split_at_gaps
from ..linetypes.lists import marker
from ..model import BBox, Document, Line, LineType, Table
from ..nlp.breaks import note_mark
from ..nlp.lexicon import document_lexicon
from ..nlp.paragraphs import Paragraph, paragraphs

__all__ = ["FURNITURE", "Item", "Kind", "Part", "paragraph_text", "parts"]

FURNITURE = frozenset({"h", "f"})
"""The line type codes of running headers and footers, which marked-up outputs leave out."""


class Kind(StrEnum):
    """What a part of the document is."""

    HEADING = "heading"
    PARAGRAPH = "paragraph"
    FOOTNOTE = "footnote"
    BULLETED = "bulleted"
    NUMBERED = "numbered"
    CONTENTS = "contents"
    TABLE = "table"


@dataclass(frozen=True, slots=True)
class Item:
    """One paragraph of a part (a heading's or a paragraph's text, a list item, a
    contents entry, a table row): its text, the lines it was read from, and for a list
    item its marker (the bullet or number it opens with, left out of ``text`` for a
    bullet), for a table row its cells."""

    text: str
    lines: tuple[Line, ...]
    marker: str = ""
    cells: tuple[str, ...] = ()

    @property
    def page_no(self) -> int:
        """The page the item starts on."""
        return self.lines[0].page_no

    @property
    def bbox(self) -> BBox:
        """The box of the item's lines on the page it starts on."""
        return _box_on_first_page(self.lines)


@dataclass(frozen=True, slots=True)
class Part:
    """A heading (``level`` 1 the top), a paragraph, a list, the contents or a table,
    its items in reading order."""

    kind: Kind
    items: tuple[Item, ...]
    level: int = 0

    @property
    def page_no(self) -> int:
        """The page the part starts on."""
        return self.items[0].page_no

    @property
    def bbox(self) -> BBox:
        """The box of the part's lines on the page it starts on."""
        return _box_on_first_page([line for item in self.items for line in item.lines])


def _box_on_first_page(lines: Sequence[Line]) -> BBox:
    """The box of those of ``lines`` that stand on the page the first stands on."""
    return BBox.union(line.bbox for line in lines if line.page_no == lines[0].page_no)


_KINDS = {LineType.HEADING: Kind.HEADING, LineType.BODY: Kind.PARAGRAPH,
          LineType.LIST_BULLET: Kind.BULLETED, LineType.LIST_NUMBER: Kind.NUMBERED,
          LineType.TOC: Kind.CONTENTS, LineType.TABLE: Kind.TABLE}
_GROUPED = frozenset({Kind.BULLETED, Kind.NUMBERED, Kind.CONTENTS, Kind.TABLE})
"""The kinds whose consecutive paragraphs make one part."""


def parts(document: Document, config: LinetypesConfig,
          skip: frozenset[str] = FURNITURE) -> list[Part]:
    """The parts of ``document`` in reading order, lines of the ``skip`` codes left out
    (running headers and footers by default; ``h_`` is every heading level).  A ruled
    table is one part, its cells read from its grid, where the first of its rows is
    read: rows of it read after other lines join that part, and are not written
    again."""
    found: list[Part] = []
    ruled: dict[int, tuple[int, list[Item]]] = {}  # a ruled table's part and rows so far
    read = paragraphs(document, skip, document_lexicon(document))
    for (kind, table), group in itertools.groupby(
            read, key=lambda p: (_kind(p), _ruled_table(p, document.tables))):
        if kind is Kind.FOOTNOTE:
            found.extend(Part(kind, (_note(p),)) for p in group)
        elif kind not in _GROUPED:
            found.extend(Part(kind, (_item(p),), p.pieces[0].line.level) for p in group)
        elif kind is Kind.TABLE:
            rows = [_item(p) for p in group]
            if table is not None and id(table) in ruled:
                at, before = ruled[id(table)]
                before.extend(rows)
                found[at] = _table(before, table, config)
                continue
            if table is not None:
                ruled[id(table)] = (len(found), rows)
            found.append(_table(rows, table, config))
        else:
            found.append(Part(kind, tuple(map(_list_item if kind in (
                Kind.BULLETED, Kind.NUMBERED) else _item, group))))
    return found


def paragraph_text(document: Document, skip: frozenset[str], *,
                   blank_lines: bool = False) -> str:
    """The document's paragraphs in reading order
    (`layoutkit.nlp.paragraphs.paragraphs`: lines joined, words hyphenated at line
    ends joined again, a paragraph interrupted by a column or page break run on), one a
    line (with ``blank_lines``, a blank line after each), lines of the ``skip`` codes left
    out; a paragraph that starts a page after the first opens with a form feed."""
    found = paragraphs(document, skip, document_lexicon(document))
    pages = [None, *(p.page_no for p in found)]
    end = "\n\n" if blank_lines else "\n"
    return "".join(("\f" if before not in (None, p.page_no) else "") + p.text + end
                   for p, before in zip(found, pages, strict=False))


def _kind(paragraph: Paragraph) -> Kind:
    return Kind.FOOTNOTE if paragraph.footnote else _KINDS[paragraph.pieces[0].line.line_type]


def _ruled_table(paragraph: Paragraph, tables: Sequence[Table]) -> Table | None:
    """The ruled table a table row lies in (as
    `layoutkit.linetypes.tables.ruled_table_lines` judges it), if any."""
    line = paragraph.pieces[0].line
    if line.line_type is not LineType.TABLE:
        return None
    return next((t for t in tables if t.page_no == line.page_no
                 and t.bbox.contains_centre_of(line.bbox)), None)


def _item(paragraph: Paragraph) -> Item:
    return Item(paragraph.text, tuple(piece.line for piece in paragraph.pieces))


def _note(paragraph: Paragraph) -> Item:
    """A footnote, its marker the note mark it opens with (``""`` when it runs on
    from a note broken by a page)."""
    found = note_mark(paragraph.pieces[0].line)
    return Item(paragraph.text, tuple(piece.line for piece in paragraph.pieces), found or "")


def _list_item(paragraph: Paragraph) -> Item:
    """A list item with its marker; a bullet is left out of its text (a number or
    letter is part of what the item says, and stays)."""
    item = _item(paragraph)
    found = marker(item.lines[0].words)
    if found is None:  # the run goes on from an item before a break
        return item
    first = item.lines[0].words[0].text
    text = item.text[len(first):].lstrip() if found.bulleted else item.text
    return Item(text, item.lines, first)


def _table(rows: list[Item], ruled: Table | None, config: LinetypesConfig) -> Part:
    """A table of ``rows`` (one per line), their cells a ruled table's rows when
    ``ruled`` is given, else the cells of its fullest row (its words parted at gaps
    wider than ``table_min_gap_em``) are the columns, and each word of a row goes to
    the column it stands in, or the nearest (a head's labels over their columns, a
    part's title in the first)."""
    if ruled is not None and ruled.rows:
        width = max(len(row) for row in ruled.rows)
        cells = [tuple(cell or "" for cell in row) + ("",) * (width - len(row))
                 for row in ruled.rows]
        lines = tuple(line for row in rows for line in row.lines)
        return Part(Kind.TABLE, tuple(Item(" ".join(filter(None, row)), lines, cells=row)
                                      for row in cells))
    pieces = [split_at_gaps(line.words, config.table_min_gap_em)
              for row in rows for line in row.lines]
    columns = [(cell[0].bbox.x0, cell[-1].bbox.x1) for cell in max(pieces, key=len)]
    placed = []
    for row in rows:
        texts: list[list[str]] = [[] for _ in columns]
        for word in (word for line in row.lines for word in line.words):
            middle = (word.bbox.x0 + word.bbox.x1) / 2
            at = min(range(len(columns)), key=lambda i: max(columns[i][0] - middle,
                                                             middle - columns[i][1], 0.0))
            texts[at].append(word.text)
        placed.append(Item(row.text, row.lines, cells=tuple(map(" ".join, texts))))
    return Part(Kind.TABLE, tuple(placed))
