"""Markdown (CommonMark, with GitHub's pipe tables) of a typed document.

Each part of `layoutkit.outputs.structure.parts` becomes a block, a blank line between
blocks:

- a heading of level N: ``#`` N times (at most six);
- a paragraph: its joined text on one line;
- a bulleted list: ``- `` items;
- a numbered list: its items with their own numbers (``3. ``); an item numbered
  otherwise, ``(a)`` or ``iv.``, keeps its marker in a ``- `` item;
- the contents: a ``- `` list;
- a table: a pipe table whose first row is its head;
- a figure (`layoutkit.outputs.figures`), where it stands in the reading: its
  picture ``![caption](file)`` when its file was written (``images``), else its caption
  in italics.

Running headers and footers are left out.  Text that Markdown would read as markup
(``*``, ``_``, a ``#`` or ``1.`` opening a paragraph, a ``|`` in a cell) is escaped
with backslashes, so that a reader shows the text as the document prints it.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..config import LinetypesConfig
from ..model import Document
from .figures import Figure, figure_parts
from .structure import FURNITURE, Item, Kind, Part

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
             skip: frozenset[str] = FURNITURE, *, images: Path | None = None,
             link_from: Path | None = None) -> str:
    """The document as Markdown, its parts and figures in reading order (see the
    module), lines of the ``skip`` codes left out (running headers and footers by
    default); with ``images``, each figure written to that folder as a PNG and linked
    (relative to the folder ``link_from``, where the Markdown goes)."""
    found = figure_parts(document, config, skip, images=images, link_from=link_from)
    return "\n\n".join(filter(None, map(_block, found))) + "\n"


def _figure(figure: Figure) -> str:
    """A figure: its picture with its caption, or its caption alone in italics."""
    caption = escape(figure.caption)
    if figure.image is not None:
        link = f"<{figure.image}>" if " " in figure.image else figure.image
        return f"![{caption}]({link})"
    return f"*{caption}*" if caption else ""


def _block(part: Part | Figure) -> str:
    if isinstance(part, Figure):
        return _figure(part)
    if part.kind is Kind.HEADING:
        return "#" * min(part.level, _MAX_LEVEL) + " " + escape(part.items[0].text)
    if part.kind is Kind.PARAGRAPH:
        return escape(part.items[0].text)
    if part.kind is Kind.TABLE:
        return _table(part)
    return "\n".join(_list_item(item, numbered=part.kind is Kind.NUMBERED)
                     for item in part.items)


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
