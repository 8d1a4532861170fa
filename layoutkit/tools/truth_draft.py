"""A first truth file drafted from layoutkit's own reading, for a person to correct.

Labelling a page from nothing means typing out every line; correcting a reading that is
mostly right means moving the few lines it put in the wrong place.  `draft_truth` turns
a read `Document` into a `DocumentTruth` of schema `layoutkit.truth/1`:

- for each page read, its body lines in the reading order found;
- its running headers, footers and margin stamps as furniture;
- the types its lines were given (headings with their levels, the first lines of list
  items, table and contents lines).

Every page is marked `checked: "TODO"`: nothing in a draft has been verified, and a page
is truth only once a person has checked it against its image (`layoutkit truth review`
shows both side by side).
"""

from __future__ import annotations

import os
from pathlib import Path

from .. import __version__
from ..errors import UsageError
from ..files import text_name
from ..linetypes.lists import marker
from ..model import Document, Line, LineType, Page
from .truth import UNCHECKED, DocumentTruth, PageTruth, PageTypes

__all__ = ["document_reference", "draft_page", "draft_truth", "item_text"]

_LISTS = (LineType.LIST_BULLET, LineType.LIST_NUMBER)


def draft_truth(document: Document, truth_path: Path, sha256: str, *,
                profile: str | None = None) -> DocumentTruth:
    """The truth of ``document`` as layoutkit reads it today, to be stored at
    ``truth_path``: its ``document`` is the document's path relative to that file's
    folder, ``sha256`` the digest of the document's bytes (given, as reading them is
    not this function's part), one page per page read, each ``checked: "TODO"``.
    ``profile`` (the profile's name or path, if one was used) is noted in the
    conventions, so a corrector knows what reading they start from."""
    read_with = f" with the profile {profile}" if profile else ""
    conventions = (f"Drafted by layoutkit {__version__} (layoutkit truth draft) from its own "
                   f"reading{read_with}: lines in the reading order it found, furniture as it "
                   f"typed it. Every page stays TODO until checked against its image.")
    return DocumentTruth(
        path=truth_path, document=document_reference(document.path, truth_path),
        sha256=sha256,
        pages=tuple(draft_page(page, truth_path, document.path.name) for page in document.pages),
        checked=UNCHECKED, conventions=conventions)


def draft_page(page: Page, truth_path: Path, document: str) -> PageTruth:
    """The truth of one read ``page`` of the file named ``document``, for the truth
    file ``truth_path``: its lines that are not furniture in reading order, its
    furniture lines, ``checked: "TODO"`` and the types of its lines."""
    body = [line for line in page.lines if not line.furniture]
    items = tuple(text for line in body if line.line_type in _LISTS
                  if (text := item_text(line)) is not None)
    types = PageTypes(
        headings=tuple((line.level, line.text) for line in body
                       if line.line_type is LineType.HEADING),
        list_items=items,
        tables=tuple(line.text for line in body if line.line_type is LineType.TABLE),
        contents=tuple(line.text for line in body if line.line_type is LineType.TOC))
    return PageTruth(
        document=document, page=page.page_no,
        lines=tuple(line.text for line in body),
        furniture=tuple(line.text for line in page.lines if line.furniture),
        excluded=(), checked=UNCHECKED, path=truth_path,
        types=None if types == PageTypes() else types)


def item_text(line: Line) -> str | None:
    """The text of ``line`` (typed ``lb`` or ``ln``) as the first line of a list item,
    None when it continues an item (it starts with no list marker).

    A bill's lines start with their line number: the marker then follows it, and the
    item's text is the line's after the number, as the truth files write it."""
    words = line.words
    if marker(words) is not None:
        return line.text
    if len(words) > 2 and words[0].text.isdigit() and marker(words[1:]) is not None:
        return line.text.split(maxsplit=1)[1]
    return None


def document_reference(source: Path, truth_path: Path) -> str:
    """How a truth file at ``truth_path`` names the document at ``source``: the path
    from the truth file's folder, with ``/`` between its parts, so the truth and the
    document can move together (and the truth read on any system).  A name that is
    not UTF-8 is a [`UsageError`][layoutkit.errors.UsageError]: a truth file is JSON, whose
    text could not name the file."""
    relative = Path(os.path.relpath(source.resolve(), truth_path.resolve().parent)).as_posix()
    if text_name(relative) != relative:
        raise UsageError(f"{text_name(str(source))}: the file's name is not UTF-8, and a "
                         f"truth file names its document in UTF-8: rename the file")
    return relative
