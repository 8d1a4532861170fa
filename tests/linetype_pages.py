"""Hand-built documents for the line-typing tests: one column per page, each line
given by its text, font, size, left edge, top and block."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import groupby
from pathlib import Path

from layoutkit.model import Band, BandKind, BBox, Block, Column, Document, Line, Page, Word

WIDTH, HEIGHT = 612.0, 792.0
BODY, BOLD = "Times-Roman", "Times-Bold"


@dataclass(frozen=True)
class L:
    """One line to build: its text, top, block and type (defaults: 10 pt body text)."""

    text: str
    top: float
    block: int
    size: float = 10.0
    font: str = BODY
    x0: float = 72.0
    first_font: str | None = None
    """The font of the first word, when it differs (a bullet from a symbol font)."""


CELL = "|"
"""A word of a line spec that is no word but a wide gap (between table cells)."""


def line(spec: L, page_no: int) -> Line:
    words, x = [], spec.x0
    for k, part in enumerate(spec.text.split()):
        if part == CELL:
            x += 3 * spec.size
            continue
        width = 0.5 * spec.size * len(part)
        font = spec.first_font if k == 0 and spec.first_font else spec.font
        words.append(Word(part, BBox(x, spec.top, x + width, spec.top + spec.size), font,
                          spec.size))
        x += width + 0.25 * spec.size
    return Line(" ".join(w.text for w in words), BBox.union(w.bbox for w in words),
                tuple(words), page_no, 0, 0, spec.block)


def document(*pages: list[L], page_count: int | None = None,
             labels: Sequence[str] = ()) -> Document:
    """A document of ``pages``, each a list of line specs in reading order, the pages
    labelled as ``labels`` say (none when it is empty)."""
    built = []
    for number, specs in enumerate(pages, 1):
        lines = [line(spec, number) for spec in specs]
        blocks = tuple(Block(tuple(group), BBox.union(x.bbox for x in group))
                       for _, group in ((k, list(g)) for k, g in
                                        groupby(lines, key=lambda x: x.block)))
        column = Column(0, BBox.union(b.bbox for b in blocks), blocks)
        built.append(Page(number, WIDTH, HEIGHT,
                          (Band(0, BandKind.BODY, column.bbox, (column,)),),
                          labels[number - 1] if labels else ""))
    return Document(Path("built.pdf"), tuple(built), page_count or len(built))


def prose(top: float, block: int, count: int, tag: str) -> list[L]:
    """``count`` body lines of ordinary text from ``top``, 12 pt apart."""
    return [L(f"ordinary body text {tag} {k} of the page that runs on", top + 12 * k, block)
            for k in range(count)]


def codes(doc: Document) -> list[tuple[str, str]]:
    """(code, text) of every line of ``doc`` in reading order."""
    return [(x.code, x.text) for page in doc.pages for x in page.lines]
