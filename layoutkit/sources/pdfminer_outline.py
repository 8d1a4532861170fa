"""A document's outline (its bookmarks), as pdfminer.six's objects give it.

Read as PDFium reads it (`layoutkit.sources.pdfium.outline`), so that both engines give
the same entries: ``PDFDocument.get_outlines`` leaves out entries without a
destination, and recurses once per sibling (a long outline exceeds Python's stack), so
the tree is walked here:

- depth first from the catalog's ``/Outlines``, ``/First`` then ``/Next``, each entry
  once, no further than [`OUTLINE_MAX_ENTRIES`][layoutkit.sources.base.OUTLINE_MAX_ENTRIES];
- an entry's destination is its ``/Dest`` or its ``/GoTo`` action's ``/D``: an array,
  a name or string looked up among the named destinations, or a dictionary holding
  one under ``/D``;
- its page is the page object the destination's first element refers to (or the
  page of that index, where it is a number); its height the ``top`` of ``/XYZ``,
  ``/FitH``, ``/FitBH`` or ``/FitR``, displayed as the page shows it
  (`destination_top`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any

from pdfminer.pdfdocument import PDFDocument
from pdfminer.pdftypes import PDFObjRef, resolve1
from pdfminer.psparser import PSLiteral
from pdfminer.utils import decode_text

from ..model import OutlineEntry
from .base import OUTLINE_MAX_ENTRIES, Rect, destination_top

__all__ = ["outline"]

Frame = Callable[[int], tuple[Rect, int]]
"""The visible part and the rotation of a page (1-based)."""


def outline(document: PDFDocument, pages: Sequence[int], frame: Frame,
            heavy: Collection[int] = ()) -> tuple[OutlineEntry, ...]:
    """The outline of ``document``, whose pages are the objects ``pages`` in order and
    show as ``frame`` says; empty when it has none or it cannot be read.  The entries
    pointing to the ``heavy`` pages (1-based) give no height, as PDFium's, which does
    not open them."""
    try:
        root = resolve1(document.catalog.get("Outlines"))
        first = root.get("First") if isinstance(root, dict) else None
    except Exception:  # pdfminer raises many unrelated types on a broken file
        return ()
    index = {number: k for k, number in enumerate(pages)}
    entries: list[OutlineEntry] = []
    seen: set[int] = set()
    stack: list[tuple[Any, int]] = [(first, 1)]
    while stack and len(entries) < OUTLINE_MAX_ENTRIES:
        reference, level = stack.pop()
        try:
            entry = resolve1(reference)
        except Exception:
            continue
        key = reference.objid if isinstance(reference, PDFObjRef) else id(entry)
        if not isinstance(entry, dict) or key in seen:
            continue
        seen.add(key)
        stack.append((entry.get("Next"), level))
        stack.append((entry.get("First"), level + 1))
        page_no, top = _destination(document, entry, index, frame, heavy)
        entries.append(OutlineEntry(_text(entry.get("Title")), level, page_no, top))
    return tuple(entries)


def _text(value: Any) -> str:
    """A PDF text string's text (UTF-16 with its byte order mark, or PDFDocEncoding)."""
    value = resolve1(value)
    return decode_text(value) if isinstance(value, bytes) else ""


def _name(value: Any) -> str:
    """The name a PDF name object holds; empty for anything else."""
    value = resolve1(value)
    return str(value.name) if isinstance(value, PSLiteral) else ""


def _destination(document: PDFDocument, entry: dict[str, Any], index: dict[int, int],
                 frame: Frame, heavy: Collection[int]) -> tuple[int | None, float | None]:
    """The page (1-based) an outline entry points to and how far down it (None where
    it does not say)."""
    try:
        dest = _array(document, entry)
    except Exception:
        return None, None
    if not dest:
        return None, None
    target = dest[0]
    if isinstance(target, PDFObjRef):
        found = index.get(target.objid)
    else:
        target = resolve1(target)
        found = target if isinstance(target, int) and 0 <= target < len(index) else None
    if found is None:
        return None, None
    y = _height(dest)
    if y is None or found + 1 in heavy:
        return found + 1, None
    visible, rotate = frame(found + 1)
    return found + 1, destination_top(y, visible, rotate)


def _array(document: PDFDocument, entry: dict[str, Any]) -> list[Any] | None:
    """An outline entry's explicit destination (an array), wherever it is given."""
    dest = entry.get("Dest")
    if dest is None:
        action = resolve1(entry.get("A"))
        if not isinstance(action, dict) or _name(action.get("S")) != "GoTo":
            return None
        dest = action.get("D")
    dest = resolve1(dest)
    if isinstance(dest, PSLiteral):
        dest = resolve1(document.get_dest(dest.name))
    elif isinstance(dest, (bytes, str)):
        dest = resolve1(document.get_dest(dest))
    if isinstance(dest, dict):
        dest = resolve1(dest.get("D"))
    return dest if isinstance(dest, list) else None


def _number(value: Any) -> float | None:
    """A number of a destination; None for null or anything else."""
    value = resolve1(value)
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) \
        else None


def _height(dest: list[Any]) -> float | None:
    """The user-space height an explicit destination points to, None where it gives
    none."""
    view = _name(dest[1]) if len(dest) > 1 else ""
    if view == "XYZ" and len(dest) > 3:
        return _number(dest[3])
    if view in ("FitH", "FitBH") and len(dest) > 2:
        return _number(dest[2])
    if view == "FitR" and len(dest) > 5:
        heights = [h for h in (_number(dest[3]), _number(dest[5])) if h is not None]
        return max(heights) if len(heights) == 2 else None
    return None
