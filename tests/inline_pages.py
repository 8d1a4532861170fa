"""A generated document whose inline styles, links and contents are known exactly.

Four letter pages set with the standard fonts: a contents page with dot leaders, a
page of body text with bold, italic, Courier, a superscript note mark and its note,
links to a web page, a mail address and a script, and two pages of plain text (the
contents' entries point to them).
"""

from __future__ import annotations

from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

__all__ = ["CONTENTS", "styled_document"]

CONTENTS = (("INTRODUCTION", 2, 0), ("MAIN GAME", 3, 0), ("Rules of play", 3, 1),
            ("Scoring", 4, 1), ("ENDINGS", 4, 0))
"""The contents entries: title, page and indentation level."""

_BODY = 11.0
_LEAD = 14.0


def _pieces(canvas: Canvas, x: float, y: float,
            pieces: list[tuple[str, str, str]]) -> float:
    """Draws ``pieces`` (text, font, kind) along one baseline from ``x``: kind ``sup``
    raised and small, ``http``/``mailto``/``javascript`` under a link annotation;
    returns where the line ends."""
    for text, font, kind in pieces:
        size, rise = (_BODY * 0.6, _BODY * 0.4) if kind == "sup" else (_BODY, 0.0)
        canvas.setFont(font, size)
        canvas.drawString(x, y + rise, text)
        width = canvas.stringWidth(text, font, size)
        if kind in ("http", "mailto", "javascript"):
            uri = {"http": "https://example.org/a_page?q=1&r=(2)",
                   "mailto": "mailto:someone@example.org",
                   "javascript": "javascript:alert(1)"}[kind]
            canvas.linkURL(uri, (x - 1, y - 3, x + width + 1, y + _BODY), relative=0)
        x += width
    return x


def styled_document(path: Path) -> Path:
    """Writes the document to ``path`` and returns it."""
    canvas = Canvas(str(path), pagesize=(612.0, 792.0))
    canvas.setTitle("Inline styles")
    canvas.setFont("Times-Bold", 16)
    canvas.drawString(72, 720, "Contents")
    for k, (title, page, level) in enumerate(CONTENTS):
        y = 690 - 20 * k
        x = 72 + 24 * level
        canvas.setFont("Times-Roman", _BODY)
        canvas.drawString(x, y, title)
        start = x + canvas.stringWidth(title, "Times-Roman", _BODY) + 6
        dots = int((500 - start) / canvas.stringWidth(". ", "Times-Roman", _BODY))
        canvas.drawString(start, y, ". " * dots)
        canvas.drawRightString(540, y, str(page))
    canvas.showPage()

    r, b, i, c = "Times-Roman", "Times-Bold", "Times-Italic", "Courier"
    lines = [
        [("The quick ", r, ""), ("brown fox", b, ""), (" jumps over the ", r, ""),
         ("lazy dog", i, ""), (" and runs away from", r, "")],
        [("the farmer who calls ", r, ""), ("print(x)", c, ""),
         (" to see the result", r, ""), ("1", r, "sup"), (" of his *starred* sums", r, "")],
        [("and then goes on to ", r, ""), ("visit our site", r, "http"), (" or ", r, ""),
         ("write to us", r, "mailto"), (" or ", r, ""), ("click here", r, "javascript"),
         (" without a_b care.", r, "")],
    ]
    for k, pieces in enumerate(lines):
        _pieces(canvas, 72, 700 - _LEAD * k, pieces)
    canvas.setFont(b, _BODY)
    canvas.drawString(72, 600, "This whole paragraph is set in bold type from its start")
    canvas.drawString(72, 600 - _LEAD, "to its end, and no mark stands for it.")
    _pieces(canvas, 72, 100, [("1", r, "sup"), (" The note on the result.", r, "")])
    canvas.showPage()

    for number, heading in ((3, "Main Game"), (4, "Endings")):
        canvas.setFont("Times-Bold", 16)
        canvas.drawString(72, 720, heading)
        canvas.setFont(r, _BODY)
        for k, word in enumerate(("one", "two", "three", "four", "five", "six")):
            canvas.drawString(72, 690 - _LEAD * k,
                              f"Plain text of page {number} runs on here, line {word} of six.")
        canvas.showPage()
    canvas.save()
    return path
