"""Markdown (CommonMark, with GitHub's pipe tables) of a typed document.

Each part of `layoutkit.outputs.structure.parts` becomes a block, a blank line between
blocks:

- a heading of level N: ``#`` N times (at most six);
- a paragraph: its joined text on one line;
- a footnote: ``[^mark]: `` and its text (after the page's body, where reading
  order sets it), or its text alone when it opens with no mark;
- a bulleted list: ``- `` items;
- a numbered list: its items with their own numbers (``3. ``); an item numbered
  otherwise, ``(a)`` or ``iv.``, keeps its marker in a ``- `` item;
- the contents: a ``- `` list;
- a table: a pipe table whose first row is its head.

Running headers and footers are left out.  Text that Markdown would read as markup
(``*``, ``_``, a ``#`` or ``1.`` opening a paragraph, a ``|`` in a cell) is escaped
with backslashes, so that a reader shows the text as the document prints it.
"""

from __future__ import annotations

import re

from ..config import LinetypesConfig
from ..model import Document
from .structure import FURNITURE, Item, Kind, Part, parts

__all__ = ["escape", "markdown"]

_MAX_LEVEL = 6
"""Markdown has six heading levels; deeper headings take the sixth."""
_INLINE = re.compile(r"[\\`*_\[\]<>|#]|&(?=#?\w+;)")
"""Characters that open inline markup anywhere in a line (``|`` a table cell, a ``#``
closing a heading), and an ``&`` that would start a character reference."""
_BLOCK_START = re.compile(r"[+=~-]|\d{1,9}(?=[.)](?:\s|$))")
"""What makes a line another kind of block when it opens it: a list item or a
thematic break, a fence, a number and its ``.`` or ``)`` (a numbered item)."""
_ORDERED = re.compile(r"(\d{1,9})[.)]")
"""A list marker that Markdown numbers itself: ``3.`` or ``3)``."""


def escape(text: str) -> str:
    """``text`` with backslashes before the characters Markdown would read as markup,
    its line breaks made spaces, so that it reads as itself in a paragraph, a
    heading, a list item or a table cell."""
    text = _INLINE.sub(lambda m: "\\" + m[0], " ".join(text.split()))
    start = _BLOCK_START.match(text)
    if start is None:
        return text
    at = start.end() if start[0][0].isdigit() else 0
    return text[:at] + "\\" + text[at:]


def markdown(document: Document, config: LinetypesConfig,
             skip: frozenset[str] = FURNITURE) -> str:
    """The document as Markdown, its parts in reading order (see the module), lines
    of the ``skip`` codes left out (running headers and footers by default)."""
    return "\n\n".join(filter(None, map(_block, parts(document, config, skip)))) + "\n"


def _block(part: Part) -> str:
    if part.kind is Kind.HEADING:
        return "#" * min(part.level, _MAX_LEVEL) + " " + escape(part.items[0].text)
    if part.kind is Kind.PARAGRAPH:
        return escape(part.items[0].text)
    if part.kind is Kind.FOOTNOTE:
        note = part.items[0]
        if not note.marker or not note.text.startswith(note.marker):
            return escape(note.text)
        return f"[^{_label(note.marker)}]: " + escape(note.text[len(note.marker):].lstrip())
    if part.kind is Kind.TABLE:
        return _table(part)
    return "\n".join(_list_item(item, numbered=part.kind is Kind.NUMBERED)
                     for item in part.items)


def _label(mark: str) -> str:
    """A footnote's label from its mark: a number as it is, a symbol by name."""
    return mark if mark.isdigit() else "-".join(f"u{ord(c):x}" for c in mark)


def _list_item(item: Item, *, numbered: bool) -> str:
    number = _ORDERED.fullmatch(item.marker) if numbered else None
    if number is not None:
        return f"{number[1]}. {escape(item.text[len(item.marker):].lstrip())}"
    return f"- {escape(item.text)}"


def _table(part: Part) -> str:
    rows = [[escape(cell) for cell in item.cells] for item in part.items]
    head, *body = rows
    return "\n".join(["| " + " | ".join(head) + " |", "|" + " --- |" * len(head),
                      *("| " + " | ".join(row) + " |" for row in body)])
