"""Semantic HTML of a typed document: one self-contained page.

Each part of `layoutkit.outputs.structure.parts` becomes an element: a heading ``<hN>``
(at most ``<h6>``), a paragraph ``<p>``, a footnote ``<aside class="footnote">``, a list
``<ul>`` or ``<ol>`` (keeping the document's numbers), the contents a ``<nav>``, a table
``<table>`` of ``<tr>`` rows of ``<td>`` cells.  A figure (`layoutkit.outputs.figures`)
is a ``<figure>`` where it stands: its ``<img>`` when written, its ``<figcaption>``.
Running headers and footers are left out.

Bold, italic, code, superscripts and links inside headings, paragraphs and list items
are marked (``<b>``, ``<i>``, ``<code>``, ``<sup>``, ``<a href>``) as
`layoutkit.outputs.inline` says; contents entries lose their leaders and page numbers.

Every element carries where it stands: ``data-page`` (the page it starts on) and
``data-bbox`` (``x0 top x1 bottom``, the box of its lines on that page, in points
from the page's top-left corner, as ``layoutkit parse`` gives them); list items,
contents entries and table rows carry theirs too.  Text is escaped, and characters
XML does not allow (control characters a PDF's text may hold) are left out.
"""

from __future__ import annotations

import html
from pathlib import Path

from ..config import LinetypesConfig
from ..model import Document
from .alto import xml_text
from .figures import Figure, figure_parts
from .inline import Marks, contents_titles
from .structure import FURNITURE, Item, Kind, Part

__all__ = ["html_document"]

_MAX_LEVEL = 6
"""HTML has six heading elements; deeper headings take ``<h6>``."""
_TAGS = {Kind.PARAGRAPH: "p", Kind.BULLETED: "ul", Kind.NUMBERED: "ol",
         Kind.CONTENTS: "nav", Kind.TABLE: "table"}


def html_document(document: Document, config: LinetypesConfig,
                  skip: frozenset[str] = FURNITURE, *, images: Path | None = None,
                  link_from: Path | None = None) -> str:
    """The document as an HTML page, its parts and figures in reading order (see the
    module), lines of the ``skip`` codes left out (running headers and footers by
    default); with ``images``, each figure written to that folder as a PNG and linked
    (relative to the folder ``link_from``, where the page goes)."""
    marks = Marks.of(document, config)
    found = figure_parts(document, config, skip, images=images, link_from=link_from)
    body = "\n".join(_element(part, marks) for part in found)
    return (f'<!DOCTYPE html>\n<html>\n<head>\n<meta charset="utf-8">\n'
            f"<title>{_text(document.path.name)}</title>\n</head>\n<body>\n{body}\n"
            f"</body>\n</html>\n")


def _text(text: str) -> str:
    return html.escape(xml_text(text), quote=True)


def _where(thing: Part | Item | Figure) -> str:
    """The ``data-page`` and ``data-bbox`` attributes of a part or an item."""
    box = " ".join(f"{value:g}" for value in thing.bbox.as_list())
    return f'data-page="{thing.page_no}" data-bbox="{box}"'


def _figure(figure: Figure) -> str:
    """A figure: its picture (when written) and its caption."""
    caption = _text(figure.caption)
    picture = f'<img src="{_text(figure.image)}" alt="{caption}">' if figure.image else ""
    legend = f"<figcaption>{caption}</figcaption>" if caption else ""
    return (f'<figure {_where(figure)} data-kind="{figure.kind.value}">{picture}{legend}'
            f"</figure>")


def _element(part: Part | Figure, marks: Marks) -> str:
    if isinstance(part, Figure):
        return _figure(part)
    if part.kind is Kind.HEADING:
        tag = f"h{min(part.level, _MAX_LEVEL)}"
        text = marks.html(part.items[0], part.items[0].text, _text, heading=True)
        return f"<{tag} {_where(part)}>{text}</{tag}>"
    if part.kind is Kind.FOOTNOTE:
        text = marks.html(part.items[0], part.items[0].text, _text)
        return f'<aside class="footnote" {_where(part)}>{text}</aside>'
    tag = _TAGS[part.kind]
    if part.kind is Kind.PARAGRAPH:
        return f"<p {_where(part)}>{marks.html(part.items[0], part.items[0].text, _text)}</p>"
    if part.kind is Kind.TABLE:
        rows = "\n".join(f"<tr {_where(item)}>"
                         + "".join(f"<td>{_text(cell)}</td>" for cell in item.cells) + "</tr>"
                         for item in part.items)
        return f"<table {_where(part)}>\n{rows}\n</table>"
    if part.kind is Kind.CONTENTS:
        entries = "\n".join(f"<li {_where(item)}>{_text(title)}</li>" for item, title
                            in zip(part.items, contents_titles(part.items), strict=True))
        return f"<nav {_where(part)}>\n<ul>\n{entries}\n</ul>\n</nav>"
    items = "\n".join(f"<li {_where(item)}>{marks.html(item, item.text, _text)}</li>"
                      for item in part.items)
    style = ' style="list-style-type: none"' if part.kind is Kind.NUMBERED else ""
    return f"<{tag} {_where(part)}{style}>\n{items}\n</{tag}>"
