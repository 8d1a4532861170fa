"""Outputs of a parsed document: plain text and JSON, with Markdown, HTML and ALTO beside.

- Plain text and JSON: the document's, its outline's and its tables'.
- `structure`: the text by paragraphs; `markdown`, `html` and `alto`: Markdown, HTML
  and ALTO XML.
- The document's JSON, schema `layoutkit.document/1`, is the published view of the
  document codec, `layoutkit.model.codec` (which documents it): `SCHEMA`,
  `document_json` and `dumps` are that module's, offered here beside the other outputs.
- Files are written with `layoutkit.files.write_atomic`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator

from ..errors import UsageError
from ..files import text_name
from ..linetypes import Heading, outline
from ..linetypes.bookmarks import MIN_RATIO, same_title
from ..linetypes.tables import without_empty_columns
from ..model import Document, Line, OutlineEntry, Page
from ..model.codec import DOCUMENT_SCHEMA as SCHEMA
from ..model.codec import document_json, dumps, dumps_pieces

__all__ = ["DPI_RANGE", "SCHEMA", "SKIPPABLE", "TABLE_SCHEMA", "TOC_SCHEMA", "document_json",
           "document_text", "dumps", "dumps_pieces", "skip_codes", "table_dumps",
           "text_pieces", "toc_dumps"]

TOC_SCHEMA = "layoutkit.toc/1"
"""The schema of the contents file (``layoutkit parse --toc``): the PDF's outline, or
the headings by level."""
TABLE_SCHEMA = "layoutkit.tables/1"
"""The schema of the tables file (``layoutkit parse --tables``): ruled tables' cells."""
DPI_RANGE = (10, 600)
"""The resolutions pages are drawn at (``layoutkit draw``, a truth file's review): a
600 dpi letter page is 5,100 by 6,600 pixels, more than a screen needs."""
SKIPPABLE = ("b", "h_", "lb", "ln", "toc", "tab")
"""Line types ``layoutkit text --skip`` can leave out (``h_`` is every heading level)."""


def skip_codes(spec: str) -> frozenset[str]:
    """The line types a ``--skip`` value such as ``"toc,lb"`` names; raises
    UsageError naming an unknown one."""
    codes = frozenset(part.strip() for part in spec.split(",") if part.strip())
    unknown = sorted(codes - set(SKIPPABLE))
    if unknown:
        raise UsageError(f"--skip {spec!r}: unknown line type {unknown[0]!r}; expected a "
                         f"comma-separated list of {', '.join(SKIPPABLE)}")
    return codes


def document_text(document: Document, *, furniture: bool = False,
                  skip: frozenset[str] = frozenset(), blank_lines: bool = False) -> str:
    """The document's text in reading order, running headers and footers left out
    unless ``furniture``, and lines of the types in ``skip`` left out; with
    ``blank_lines`` a blank line before each paragraph that does not open its page, as
    pdftotext writes (paragraphs as `layoutkit.nlp.paragraphs.paragraphs` parts
    them: the lines must be typed).  A form feed stands between pages, on a line of its
    own: a tool that reads lines sees every page's last line end."""
    return "".join(text_pieces(document.pages, furniture=furniture, skip=skip,
                               blank_lines=blank_lines))


def text_pieces(pages: Iterable[Page], *, furniture: bool = False,
                skip: frozenset[str] = frozenset(), blank_lines: bool = False
                ) -> Iterator[str]:
    """The text of [`document_text`][layoutkit.outputs.document_text], a page at a time as
    ``pages`` come (a form feed on a line of its own before each page but the first)."""
    def kept(line: Line) -> bool:
        code = "h_" if line.code.startswith("h_") else line.code
        return (furniture or not line.furniture) and code not in skip
    if blank_lines:  # the NLP package only for this option
        from ..nlp.paragraphs import measure, starts_paragraph
    before: Line | None = None
    for k, page in enumerate(pages):
        texts: list[str] = []
        measures = measure(page) if blank_lines else {}
        for line in filter(kept, page.lines):
            if blank_lines and texts and starts_paragraph(before, line, measures):
                texts.append("")
            texts.append(line.text)
            before = line
        yield ("\n\f" if k else "") + "\n".join(texts)


def toc_dumps(document: Document, context: int) -> str:
    """The contents of the document as JSON, schema [`TOC_SCHEMA`][layoutkit.outputs.TOC_SCHEMA].

    Taken from the PDF's outline when it has one (``"source": "outline"``): every entry
    with its level, title, page (null where it points to none) and the height on the
    page it points to (``top``, null where it gives none); else from the headings typed
    (``"source": "headings"``), each with its level, text and page.  Each with the text
    of up to ``context`` lines after it: an entry's are those of the heading typed on
    its page whose text is its title (none when no heading of the pages read is)."""
    headings = outline(document, context)
    if not document.outline:
        return json.dumps({"schema": TOC_SCHEMA, "document": text_name(document.path.name),
                           "source": "headings", "headings": [
            {"level": h.level, "text": h.text, "page": h.page_no, "context": list(h.context)}
            for h in headings]}, ensure_ascii=False, indent=1) + "\n"
    return json.dumps({"schema": TOC_SCHEMA, "document": text_name(document.path.name),
                       "source": "outline", "headings": [
        {"level": e.level, "text": e.title, "page": e.page_no, "top": e.top,
         "context": _entry_context(e, headings)}
        for e in document.outline]}, ensure_ascii=False, indent=1) + "\n"


def _entry_context(entry: OutlineEntry, headings: Iterable[Heading]) -> list[str]:
    """The lines after the heading of ``headings`` on ``entry``'s page whose text is
    the entry's title ([`same_title`][layoutkit.linetypes.bookmarks.same_title]); none
    when no heading is."""
    for heading in headings:
        if heading.page_no == entry.page_no and same_title(entry.title, heading.text) >= \
                MIN_RATIO:
            return list(heading.context)
    return []


def table_dumps(document: Document, *, empty_columns: bool = True) -> str:
    """The ruled tables of the document as JSON, schema
    [`TABLE_SCHEMA`][layoutkit.outputs.TABLE_SCHEMA]: each with its page, box and rows of cells
    (``null`` for a merged cell); without ``empty_columns`` the columns with no text are left
    out."""
    tables = document.tables if empty_columns else tuple(
        without_empty_columns(t) for t in document.tables)
    return json.dumps({"schema": TABLE_SCHEMA, "document": text_name(document.path.name),
                       "tables": [
        {"page": t.page_no, "bbox": t.bbox.as_list(), "rows": [list(row) for row in t.rows]}
        for t in tables]}, ensure_ascii=False, indent=1) + "\n"
