"""The outline of a typed document: its headings with level and page.

A heading wrapped over several lines is joined into one (a word hyphenated at a line
end joined again, as in paragraphs).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model import Document, Line, LineType
from .hyphens import document_vocabulary, line_join

__all__ = ["Heading", "continues_heading", "outline"]


@dataclass(frozen=True, slots=True)
class Heading:
    """One heading: its level, text (its lines joined), page and the lines after it."""

    level: int
    text: str
    page_no: int
    context: tuple[str, ...] = ()


def outline(document: Document, context: int = 0) -> list[Heading]:
    """The headings of ``document`` in reading order, each with the text of up to
    ``context`` body lines after it.  Consecutive heading lines that
    `continues_heading` joins are one heading wrapped over lines."""
    vocabulary = document_vocabulary(document)
    headings: list[Heading] = []
    previous: Line | None = None
    after: list[str] = []
    for page in document.pages:
        for line in page.body_lines:
            if line.line_type is not LineType.HEADING:
                if headings and len(after) < context:
                    after.append(line.text)
                    headings[-1] = _with_context(headings[-1], after)
                previous = None
                continue
            if previous is not None and continues_heading(previous, line):
                last = headings[-1]
                joined = line_join(last.text, line.text, vocabulary)
                headings[-1] = Heading(last.level, joined + line.text, last.page_no)
            else:
                headings.append(Heading(line.level, line.text, line.page_no))
            after = []
            previous = line
    return headings


def continues_heading(before: Line, line: Line) -> bool:
    """Whether the heading line ``line``, read right after the heading line ``before``,
    goes on with its heading: same page, band and column, same level and size (a title
    over its authors' names in a smaller size, or a heading in the next column, is
    another), at most `_WRAP_MAX_GAP_EM` under it (a section's heading over its first
    subsection's, 'II. THEORY' over 'A. Collision Model', is another)."""
    return ((before.page_no, before.band, before.column, before.level, before.size)
            == (line.page_no, line.band, line.column, line.level, line.size)
            and line.bbox.top - before.bbox.bottom <= _WRAP_MAX_GAP_EM * line.size)


_WRAP_MAX_GAP_EM = 1.0
"""The most white, in the heading's size, between the lines of a heading wrapped over
lines, which stand at its leading; a heading under another stands apart by its own
space above.  On the development corpus's pages, every two heading lines of a size
and level read one after the other more than an em apart are two headings (a
thesis's headings set double spaced, 1.3 em apart, read as two: its numbering would
not tell them, as 'v. Board of Education' under 'Brown' shows)."""


def _with_context(heading: Heading, after: list[str]) -> Heading:
    return Heading(heading.level, heading.text, heading.page_no, tuple(after))
