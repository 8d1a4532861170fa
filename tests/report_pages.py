"""A generated report with exact truth, for the chunk and loader tests.

Four pages of letter paper (reportlab's platypus): a running header and a numbered
footer on every page; headings at two levels (Helvetica-Bold 16 and 12 pt) over
paragraphs of Times-Roman 10 pt; a bulleted list; a table with its caption above it;
a figure (a drawing with no text) with its caption below it.

The truth is kept as the document is laid out: each heading's page, level, title and
box, the table's rows and the text of every flowable in reading order, so a test can
say which section any line of the page stands in without reading the PDF.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from io import BytesIO
from pathlib import Path
from typing import Any

from reportlab.graphics.shapes import Drawing, Rect
from reportlab.lib.pagesizes import letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import (
    BaseDocTemplate,
    Frame,
    ListFlowable,
    ListItem,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

import layoutkit
from layoutkit.model import Document

HEADER = "Northfield Survey Office Annual Technical Report"
"""The running header, on every page."""
WIDTH, HEIGHT = letter
H1 = ParagraphStyle("h1", fontName="Helvetica-Bold", fontSize=16, leading=20, spaceBefore=14,
                    spaceAfter=8)
H2 = ParagraphStyle("h2", fontName="Helvetica-Bold", fontSize=12, leading=15, spaceBefore=10,
                    spaceAfter=6)
BODY = ParagraphStyle("body", fontName="Times-Roman", fontSize=10, leading=12.5, spaceAfter=7)
CAPTION = ParagraphStyle("caption", parent=BODY, fontName="Times-Italic", fontSize=9,
                         leading=11)

_WORD_TEXT = """survey river valley measure station record water level field north south
season sample method careful result change report office annual growth soil surface
forest harvest storm winter summer rainfall pattern district village road bridge county
engineer observer network gauge channel flood plain ridge slope average steady gradual
marked modest common early late western eastern upper lower previous following several
crew team volunteer archive register ledger chart map boundary parcel estate meadow"""
_WORDS = _WORD_TEXT.split()

SECTIONS: tuple[tuple[int, str, tuple[str, ...]], ...] = (
    (1, "Introduction", ("p", "p")),
    (2, "Background of the Survey", ("p", "list", "p")),
    (2, "Scope and Limits", ("p",)),
    (1, "Methods", ("p",)),
    (2, "Data Collected", ("p", "table", "p")),
    (2, "Figures and Drawings", ("p", "figure", "p")),
    (1, "Results", ("p", "p", "p")),
    (2, "Accuracy of the Stations", ("p", "p")),
    (2, "Speed of the Crews", ("p", "p")),
    (1, "Conclusion", ("p", "p")),
)
"""Each section's heading level and title, and what stands under it in order."""
TABLE_CAPTION = "Table 1: Stations measured by district."
FIGURE_CAPTION = "Figure 1: The grid of stations drawn to scale."
TABLE_ROWS = (("District", "Stations", "Visits"), ("Northern ridge", "14", "212"),
              ("Western valley", "9", "131"), ("Southern plain", "21", "305"),
              ("Eastern forest", "6", "88"), ("Upper channel", "11", "149"))


@dataclass
class Truth:
    """What the report holds: each heading's (page, level, title, top, bottom) in points
    from the page's top-left, the heading path over each flowable's text in order, and
    the list items."""

    headings: list[tuple[int, int, str, float, float]] = field(default_factory=list)
    blocks: list[tuple[tuple[str, ...], str]] = field(default_factory=list)
    items: list[str] = field(default_factory=list)

    def path_at(self, page: int, top: float) -> tuple[str, ...]:
        """The heading path in force at ``top`` on ``page``: the titles of the last
        heading of each level above it in the flow, the deeper ones ended by a
        shallower heading."""
        path: list[str] = []
        for h_page, level, title, h_top, _ in self.headings:
            if (h_page, h_top) > (page, top):
                break
            path = [*path[:level - 1], title]
        return tuple(path)


def _sentence(rng: random.Random) -> str:
    words = rng.sample(_WORDS, rng.randint(9, 16))
    return " ".join(words).capitalize() + "."


def _paragraph(rng: random.Random) -> str:
    return " ".join(_sentence(rng) for _ in range(rng.randint(4, 7)))


class _Template(BaseDocTemplate):
    def __init__(self, out: BytesIO, truth: Truth) -> None:
        super().__init__(out, pagesize=letter, leftMargin=72, rightMargin=72, topMargin=72,
                         bottomMargin=72, title="Report")
        frame = Frame(72, 72, WIDTH - 144, HEIGHT - 144, id="body")
        self.addPageTemplates([PageTemplate("page", [frame], onPage=self._furniture)])
        self.truth = truth

    def _furniture(self, canvas: Any, _: Any) -> None:
        canvas.setFont("Helvetica", 8)
        canvas.drawString(72, HEIGHT - 40, HEADER)
        canvas.drawCentredString(WIDTH / 2, 40, f"Page {canvas.getPageNumber()}")

    def afterFlowable(self, flowable: Any) -> None:  # noqa: N802 (reportlab's name)
        style = getattr(flowable, "style", None)
        if isinstance(flowable, Paragraph) and style in (H1, H2):
            bottom = self.frame._y + flowable.getSpaceAfter()
            top = bottom + flowable.height
            self.truth.headings.append((self.page, 1 if style is H1 else 2,
                                        flowable.getPlainText(), HEIGHT - top,
                                        HEIGHT - bottom))


def report(seed: int = 7) -> tuple[bytes, Truth]:
    """The report's PDF and its truth."""
    rng = random.Random(seed)
    truth = Truth()
    story: list[Any] = []
    path: list[str] = []
    for level, title, contents in SECTIONS:
        path = [*path[:level - 1], title]
        story.append(Paragraph(title, H1 if level == 1 else H2))
        truth.blocks.append((tuple(path), title))
        for kind in contents:
            if kind == "p":
                text = _paragraph(rng)
                story.append(Paragraph(text, BODY))
                truth.blocks.append((tuple(path), text))
            elif kind == "list":
                items = [_sentence(rng) for _ in range(4)]
                truth.items.extend(items)
                story.append(ListFlowable([ListItem(Paragraph(i, BODY)) for i in items],
                                          bulletType="bullet", start="•", leftIndent=18))
                truth.blocks.extend((tuple(path), i) for i in items)
            elif kind == "table":
                story.append(Paragraph(TABLE_CAPTION, CAPTION))
                table = Table([list(r) for r in TABLE_ROWS], colWidths=[150, 90, 90])
                table.setStyle(TableStyle([("FONT", (0, 0), (-1, 0), "Times-Bold", 10),
                                           ("FONT", (0, 1), (-1, -1), "Times-Roman", 10),
                                           ("LINEABOVE", (0, 0), (-1, 0), 0.8, "black"),
                                           ("LINEBELOW", (0, 0), (-1, 0), 0.5, "black"),
                                           ("LINEBELOW", (0, -1), (-1, -1), 0.8, "black")]))
                story.extend([table, Spacer(1, 8)])
                truth.blocks.append((tuple(path), TABLE_CAPTION))
                truth.blocks.extend((tuple(path), " ".join(r)) for r in TABLE_ROWS)
            else:
                drawing = Drawing(220, 120)
                drawing.add(Rect(0, 0, 220, 120, fillColor=None, strokeWidth=1))
                drawing.add(Rect(40, 30, 60, 40, fillColor=None, strokeWidth=0.5))
                story.extend([drawing, Spacer(1, 4), Paragraph(FIGURE_CAPTION, CAPTION)])
                truth.blocks.append((tuple(path), FIGURE_CAPTION))
    out = BytesIO()
    _Template(out, truth).build(story)
    return out.getvalue(), truth


def written_report(folder: Path) -> tuple[Path, Truth, Document]:
    """The generated `report` written into ``folder``, its truth, and its parse."""
    pdf, truth = report()
    path = folder / "report.pdf"
    path.write_bytes(pdf)
    return path, truth, layoutkit.parse(path)
