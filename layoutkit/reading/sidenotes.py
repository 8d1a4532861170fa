"""Notes set in a margin beside the text, read after the paragraph they stand beside.

A book in a column and a half (sidenotes, a margin's table of contents, margin notes)
sets each note level with the line that calls it.  Read as a column, the margin would
follow the whole text block; a reader takes each note up where the text calls it.  A
band is so read when:

- beside its widest column (the text) stand columns no more than half as wide, set no
  larger than `footnote_max_size` of the text's size, their blocks filling no more
  than half the text's height (the notes: a sidebar fills its column), none of their
  blocks right under a picture (its caption), and nothing else;
- each block of a note column (a note: its lines, parted from the next by more than
  `block_gap_ratio` of their pitch) is read after the paragraph of the text it starts
  beside: the text's line level with its first line, or the last above it, read on to
  the end of its paragraph (the end of the text's block, or a line that stops short of
  the measure by more than `_SHORT_EM` before a sentence opening at the text's left
  edge).
"""

from __future__ import annotations

from collections.abc import Sequence
from statistics import median

from ..config import LayoutConfig
from ..model import Band, BBox, Column, Line

__all__ = ["notes_in_place"]

_SHORT_EM = 2.0
"""How far short of the text's measure, in ems of its size, a line that ends a paragraph
stops: justified lines run to the measure, a paragraph's last line rarely within two
ems of it.  Not a parameter: the notes of the labelled pages go alike with 1 and 3."""


def notes_in_place(band: Band, pictures: Sequence[BBox], config: LayoutConfig
                   ) -> list[Line] | None:
    """The lines of ``band`` in the order that reads each margin note after the
    paragraph it stands beside (see the module's rules); None when the band is no text
    column with notes beside it.  ``pictures`` are the page's figures."""
    if len(band.columns) < 2:
        return None
    text = max(band.columns, key=lambda column: column.bbox.width)
    size = median(line.size for line in text.lines)
    notes = [column for column in band.columns if column is not text]
    if not all(_is_note_column(column, text, size, config)
               and not _captions(column, pictures, size) for column in notes):
        return None
    lines = list(text.lines)
    ends = _paragraph_ends(lines, size)
    after: dict[int, list[Line]] = {}
    for column in notes:
        for block in column.blocks:
            top = block.lines[0].bbox.top
            level = max((k for k, line in enumerate(lines) if line.bbox.top <= top + size / 2),
                        default=0)
            end = next(k for k in ends if k >= level)
            after.setdefault(end, []).extend(block.lines)
    return [line for k, text_line in enumerate(lines) for line in [text_line, *after.get(k, [])]]


def _is_note_column(column: Column, text: Column, size: float, config: LayoutConfig) -> bool:
    """Whether ``column`` is a column of notes beside the ``text`` (of body ``size``):
    no more than half as wide, set smaller, beside it, and mostly white: its blocks
    fill no more than half the text's height (a sidebar fills its column)."""
    return (2 * column.bbox.width <= text.bbox.width
            and median(line.size for line in column.lines)
            <= config.reading.footnote_max_size * size
            and (column.bbox.x0 >= text.bbox.x1 or column.bbox.x1 <= text.bbox.x0)
            and 2 * sum(block.bbox.height for block in column.blocks) <= text.bbox.height)


def _captions(column: Column, pictures: Sequence[BBox], size: float) -> bool:
    """Whether a block of ``column`` stands right under one of the ``pictures``, within
    two lines (of body ``size``) of its foot, across from it: a picture's caption."""
    return any(picture.x0 < block.bbox.x1 and block.bbox.x0 < picture.x1
               and 0 <= block.bbox.top - picture.bottom <= 2 * size
               for block in column.blocks for picture in pictures)


def _paragraph_ends(lines: list[Line], size: float) -> list[int]:
    """The indexes of the ``lines`` (a text column's, of body ``size``, in order) that
    end a paragraph: the last, the last of a block, and a line that stops short of the
    measure by more than `_SHORT_EM` when the next line opens a sentence at the text's
    left edge (a line set in further is a display the paragraph holds)."""
    left = min(line.bbox.x0 for line in lines)
    measure = max(line.bbox.x1 for line in lines)
    ends = []
    for k, line in enumerate(lines):
        following = lines[k + 1] if k + 1 < len(lines) else None
        if (following is None or following.block != line.block
                or (measure - line.bbox.x1 > _SHORT_EM * size
                    and following.bbox.x0 - left < size and following.text[:1].isupper())):
            ends.append(k)
    return ends
