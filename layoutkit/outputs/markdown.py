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
- the contents: a ``- `` list of the entries without their dot leaders and page
  numbers, nested by their indentation;
- a table: a pipe table whose first row is its head;
- a figure (`layoutkit.outputs.figures`), where it stands in the reading: its
  picture ``![caption](file)`` when its file was written (``images``), else its caption
  in italics.

Bold, italic, code, superscripts and links inside headings, paragraphs and list items
are marked as `layoutkit.outputs.inline` says (``**bold**``, ``*italic*``,
`` `code` ``, ``<sup>1</sup>``, ``[text](https://...)``).  With ``page_separator`` a
line ``<!-- page N -->`` opens each page's parts (a paragraph running across a page
break stays whole, under the page it starts on).
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
from .inline import Marks, contents_levels, contents_titles
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
    its line breaks made spaces, so that it reads as itself wherever it opens a
    block (a paragraph, a list item, a caption)."""
    return _block_safe(_escape_inline(" ".join(text.split())))


def _escape_inline(text: str) -> str:
    """``text`` with backslashes before the characters that open inline markup."""
    return _INLINE.sub(lambda m: "\\" + m[0], text)


def _block_safe(text: str) -> str:
    """``text`` with a backslash where its opening would make it another kind of block."""
    start = _BLOCK_START.match(text)
    if start is None:
        return text
    at = start.end() if start[0][0].isdigit() else 0
    return text[:at] + "\\" + text[at:]


def markdown(document: Document, config: LinetypesConfig,
             skip: frozenset[str] = FURNITURE, *, page_separator: bool = False,
             images: Path | None = None, link_from: Path | None = None) -> str:
    """The document as Markdown, its parts and figures in reading order (see the
    module), lines of the ``skip`` codes left out (running headers and footers by
    default); with ``page_separator``, a line ``<!-- page N -->`` before each page's
    parts; with ``images``, each figure written to that folder as a PNG and linked
    (relative to the folder ``link_from``, where the Markdown goes)."""
    marks = Marks.of(document, config)
    blocks: list[str] = []
    pages = [page.page_no for page in document.pages]
    for part in figure_parts(document, config, skip, images=images, link_from=link_from):
        while page_separator and pages and pages[0] <= part.page_no:
            blocks.append(f"<!-- page {pages.pop(0)} -->")
        blocks.append(_block(part, marks))
    blocks += [f"<!-- page {number} -->" for number in pages if page_separator]
    return "\n\n".join(filter(None, blocks)) + "\n"


def _figure(figure: Figure) -> str:
    """A figure: its picture with its caption, or its caption alone in italics."""
    caption = escape(figure.caption)
    if figure.image is not None:
        link = f"<{figure.image}>" if " " in figure.image else figure.image
        return f"![{caption}]({link})"
    return f"*{caption}*" if caption else ""


def _block(part: Part | Figure, marks: Marks) -> str:
    if isinstance(part, Figure):
        return _figure(part)
    if part.kind is Kind.HEADING:
        return "#" * min(part.level, _MAX_LEVEL) + " " + _marked(part.items[0], marks,
                                                                 heading=True)
    if part.kind is Kind.PARAGRAPH:
        return _marked(part.items[0], marks)
    if part.kind is Kind.FOOTNOTE:
        note = part.items[0]
        if not note.marker or not note.text.startswith(note.marker):
            return _marked(note, marks)
        return f"[^{_label(note.marker)}]: " + _marked(
            note, marks, note.text[len(note.marker):].lstrip())
    if part.kind is Kind.TABLE:
        return _table(part)
    if part.kind is Kind.CONTENTS:
        return "\n".join("  " * level + f"- {escape(title)}" for title, level
                         in zip(contents_titles(part.items),
                                contents_levels(part.items, marks.config), strict=True))
    return "\n".join(_list_item(item, marks, numbered=part.kind is Kind.NUMBERED)
                     for item in part.items)


def _label(mark: str) -> str:
    """A footnote's label from its mark: a number or a letter as it is (``a)`` as
    ``a``), a symbol by name."""
    core = mark.rstrip(")")
    return core if core.isalnum() else "-".join(f"u{ord(c):x}" for c in mark)


def _marked(item: Item, marks: Marks, text: str | None = None, *, heading: bool = False
            ) -> str:
    """``text`` (the item's own by default) escaped, with its inline marks; a
    heading's text is inline text whatever it opens with ('# 2. ADVENTURE'), so only
    its inline markup is escaped."""
    text = " ".join((item.text if text is None else text).split())
    marked = marks.markdown(item, text, _escape_inline, heading=heading)
    return marked if heading else _block_safe(marked)


def _list_item(item: Item, marks: Marks, *, numbered: bool) -> str:
    number = _ORDERED.fullmatch(item.marker) if numbered else None
    if number is not None:
        return f"{number[1]}. {_marked(item, marks, item.text[len(item.marker):].lstrip())}"
    return f"- {_marked(item, marks)}"


def _table(part: Part) -> str:
    rows = [[_escape_inline(" ".join(cell.split())) for cell in item.cells]
            for item in part.items]  # a cell holds inline text: '-40' is no list
    head, *body = rows
    return "\n".join(["| " + " | ".join(head) + " |", "|" + " --- |" * len(head),
                      *("| " + " | ".join(row) + " |" for row in body)])
