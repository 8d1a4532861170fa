"""Semantic HTML of a typed document: one self-contained page.

Each part of `layoutkit.outputs.structure.parts` becomes an element: a heading
``<hN>`` (at most ``<h6>``), a paragraph ``<p>``, a footnote ``<aside class="footnote">``,
a bulleted list ``<ul>``, a numbered list ``<ol>`` keeping the document's numbers (its
own hidden), the contents a ``<nav>`` holding a ``<ul>``, a table ``<table>`` of ``<tr>``
rows of ``<td>`` cells.  Running headers and footers are left out.

Every element carries where it stands: ``data-page`` (the page it starts on) and
``data-bbox`` (``x0 top x1 bottom``, the box of its lines on that page, in points
from the page's top-left corner, as ``layoutkit parse`` gives them); list items,
contents entries and table rows carry theirs too.  Text is escaped, and characters
XML does not allow (control characters a PDF's text may hold) are left out.
"""

from __future__ import annotations

import html

from ..config import LinetypesConfig
from ..model import Document
from .alto import xml_text
from .structure import FURNITURE, Item, Kind, Part, parts

__all__ = ["html_document"]

_MAX_LEVEL = 6
"""HTML has six heading elements; deeper headings take ``<h6>``."""
_TAGS = {Kind.PARAGRAPH: "p", Kind.BULLETED: "ul", Kind.NUMBERED: "ol",
         Kind.CONTENTS: "nav", Kind.TABLE: "table"}


def html_document(document: Document, config: LinetypesConfig,
                  skip: frozenset[str] = FURNITURE) -> str:
    """The document as an HTML page, its parts in reading order (see the module),
    lines of the ``skip`` codes left out (running headers and footers by default)."""
    body = "\n".join(map(_element, parts(document, config, skip)))
    return (f'<!DOCTYPE html>\n<html>\n<head>\n<meta charset="utf-8">\n'
            f"<title>{_text(document.path.name)}</title>\n</head>\n<body>\n{body}\n"
            f"</body>\n</html>\n")


def _text(text: str) -> str:
    return html.escape(xml_text(text), quote=True)


def _where(thing: Part | Item) -> str:
    """The ``data-page`` and ``data-bbox`` attributes of a part or an item."""
    box = " ".join(f"{value:g}" for value in thing.bbox.as_list())
    return f'data-page="{thing.page_no}" data-bbox="{box}"'


def _element(part: Part) -> str:
    if part.kind is Kind.HEADING:
        tag = f"h{min(part.level, _MAX_LEVEL)}"
        return f"<{tag} {_where(part)}>{_text(part.items[0].text)}</{tag}>"
    if part.kind is Kind.PARAGRAPH:
        return f"<p {_where(part)}>{_text(part.items[0].text)}</p>"
    if part.kind is Kind.FOOTNOTE:
        return f'<aside class="footnote" {_where(part)}>{_text(part.items[0].text)}</aside>'
    tag = _TAGS[part.kind]
    if part.kind is Kind.TABLE:
        rows = "\n".join(f"<tr {_where(item)}>"
                         + "".join(f"<td>{_text(cell)}</td>" for cell in item.cells) + "</tr>"
                         for item in part.items)
        return f"<table {_where(part)}>\n{rows}\n</table>"
    items = "\n".join(f"<li {_where(item)}>{_text(item.text)}</li>" for item in part.items)
    if part.kind is Kind.CONTENTS:
        return f"<nav {_where(part)}>\n<ul>\n{items}\n</ul>\n</nav>"
    style = ' style="list-style-type: none"' if part.kind is Kind.NUMBERED else ""
    return f"<{tag} {_where(part)}{style}>\n{items}\n</{tag}>"
