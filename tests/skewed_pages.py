"""Newspaper pages of narrow columns scanned askew, as an OCR text layer draws them.

A page of ``columns`` columns is laid out level (greedy line breaking with
``stringWidth``, narrow gutters), then every word is drawn as a text object of its own,
turned by ``angle`` degrees about the page's centre, its place turned alike: the page
as a scanner that fed it askew sees it, and as an OCR layer sets its words on the
picture.  The words are drawn column by column, line by line, so the content stream is
in reading order.  The lines of the level layout are the truth, in reading order.
"""

from __future__ import annotations

import math
import random
from pathlib import Path

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

__all__ = ["skewed_page"]

FONT = "Times-Roman"

_PROSE = (
    "the council met on monday evening to hear the report of its committee on roads "
    "bridges and the harbour works which had been delayed by the winter storms and by "
    "a shortage of stone from the quarry near the river mouth several members asked "
    "whether the contract should be given to another firm while others held that the "
    "present builders had done well under hard conditions the mayor said that a decision "
    "would be taken at the next meeting after the engineer had inspected the site and "
    "reported on the cost of repairs to the eastern pier a letter was read from the "
    "residents of the upper town asking for better lighting in the streets leading to "
    "the station and for a new footpath along the canal the matter was referred to the "
    "lighting committee with power to act the treasurer presented the accounts for the "
    "quarter showing a balance in hand of four hundred pounds"
)
_VOCABULARY = tuple(_PROSE.split())


def skewed_page(path: Path, angle: float, columns: int = 7, *, seed: int = 0,
                width: float = 842.0, height: float = 1191.0, size: float = 8.0,
                gutter: float = 9.0, margin: float = 36.0) -> list[str]:
    """Write a page (``width`` by ``height`` points) of ``columns`` columns of ``size``
    point type, parted by gutters ``gutter`` wide, its words turned ``angle`` degrees
    (anticlockwise) about the page's centre, to ``path``; return its lines in reading
    order (column by column, top to bottom)."""
    rng = random.Random(seed)
    measure = (width - 2 * margin - (columns - 1) * gutter) / columns
    leading = 1.2 * size
    rows = int((height - 2 * margin) // leading)
    space = stringWidth(" ", FONT, size)
    canvas = Canvas(str(path), pagesize=(width, height))
    turn = math.radians(angle)
    cos, sin = math.cos(turn), math.sin(turn)
    cx, cy = width / 2, height / 2
    truth: list[str] = []
    for column in range(columns):
        left = margin + column * (measure + gutter)
        for row in range(rows):
            baseline = height - margin - size - row * leading  # PDF space, y upwards
            words = _line(rng, measure, space, size)
            truth.append(" ".join(words))
            x = left
            for word in words:
                dx, dy = x - cx, baseline - cy
                text = canvas.beginText()
                text.setTextTransform(cos, sin, -sin, cos, cx + dx * cos - dy * sin,
                                      cy + dx * sin + dy * cos)
                text.setFont(FONT, size)
                text.textOut(word)
                canvas.drawText(text)
                x += stringWidth(word, FONT, size) + space
    canvas.showPage()
    canvas.save()
    return truth


def _line(rng: random.Random, measure: float, space: float, size: float) -> list[str]:
    """Words drawn at random from the vocabulary that fill a line ``measure`` wide (at
    least two, so that no line is a lone word that might repeat)."""
    words: list[str] = []
    used = 0.0
    while True:
        word = rng.choice(_VOCABULARY)
        extent = stringWidth(word, FONT, size)
        if words and used + space + extent > measure:
            return words
        used += (space if words else 0.0) + extent
        words.append(word)
