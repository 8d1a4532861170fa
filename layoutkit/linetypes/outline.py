"""The outline of a typed document: its headings with level and page, a heading
wrapped over several lines joined into one."""

from __future__ import annotations

from dataclasses import dataclass

from ..model import Document, Line, LineType

__all__ = ["Heading", "outline"]


@dataclass(frozen=True, slots=True)
class Heading:
    """One heading: its level, text (its lines joined), page and the lines after it."""

    level: int
    text: str
    page_no: int
    context: tuple[str, ...] = ()


def outline(document: Document, context: int = 0) -> list[Heading]:
    """The headings of ``document`` in reading order, each with the text of up to
    ``context`` body lines after it.  Consecutive heading lines of one page with the
    same level and size are one heading wrapped over lines."""
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
            if previous is not None and (previous.page_no, previous.level, previous.size) == (
                    line.page_no, line.level, line.size):
                last = headings[-1]
                headings[-1] = Heading(last.level, f"{last.text} {line.text}", last.page_no)
            else:
                headings.append(Heading(line.level, line.text, line.page_no))
            after = []
            previous = line
    return headings


def _with_context(heading: Heading, after: list[str]) -> Heading:
    return Heading(heading.level, heading.text, heading.page_no, tuple(after))
