"""A PDF's outline (its bookmarks), as the sources read it.

An entry names a place in the document: its title, its depth in the outline's tree
(1 for a top-level entry), the page its destination points to and, where the
destination gives one, how far down that page it points, in the model's top-left
points (`BBox`'s ``top``).
"""

from __future__ import annotations

from dataclasses import dataclass

from .clean import clean_text
from .value import Value

__all__ = ["OutlineEntry"]


@dataclass(frozen=True, slots=True)
class OutlineEntry(Value):
    """One bookmark of the document's outline, in the outline's order."""

    title: str
    level: int
    """The entry's depth in the outline: 1 for a top-level entry, 2 for its children..."""
    page_no: int | None
    """The 1-based page the entry's destination points to; None when it points to no
    page of the document (a broken or remote destination, or none)."""
    top: float | None = None
    """How far down its page the destination points, in points from the top of the
    displayed page; None when the destination gives no height (``/Fit``, a null
    ``top``) or runs across a page turned a quarter."""

    def __post_init__(self) -> None:
        # a title may hold line breaks and runs of spaces (a producer's carriage return)
        object.__setattr__(self, "title", " ".join(clean_text(self.title).split()))

    def __repr__(self) -> str:
        where = "no page" if self.page_no is None else f"page {self.page_no}"
        return f"<OutlineEntry {self.level} {self.title!r} {where}>"
