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
    first_size: float | None = None
    """The size of the first word, when it differs (a note number set as a superscript)."""
    column: int = 0


CELL = "|"
"""A word of a line spec that is no word but a wide gap (between table cells)."""


def line(spec: L, page_no: int) -> Line:
    words, x = [], spec.x0
    for k, part in enumerate(spec.text.split()):
        if part == CELL:
            x += 3 * spec.size
            continue
        size = spec.first_size if k == 0 and spec.first_size else spec.size
        width = 0.5 * size * len(part)
        font = spec.first_font if k == 0 and spec.first_font else spec.font
        words.append(Word(part, BBox(x, spec.top, x + width, spec.top + size), font, size))
        x += width + 0.25 * spec.size
    return Line(" ".join(w.text for w in words), BBox.union(w.bbox for w in words),
                tuple(words), page_no, 0, spec.column, spec.block)


def document(*pages: list[L], page_count: int | None = None,
             labels: Sequence[str] = ()) -> Document:
    """A document of ``pages``, each a list of line specs in reading order (a column's
    lines after the column before), the pages labelled as ``labels`` say (none when it
    is empty)."""
    built = []
    for number, specs in enumerate(pages, 1):
        columns = []
        for index, in_column in groupby((line(spec, number) for spec in specs),
                                        key=lambda x: x.column):
            blocks = tuple(Block(tuple(group), BBox.union(x.bbox for x in group))
                           for _, group in ((k, list(g)) for k, g in
                                            groupby(in_column, key=lambda x: x.block)))
            columns.append(Column(index, BBox.union(b.bbox for b in blocks), blocks))
        built.append(Page(number, WIDTH, HEIGHT,
                          (Band(0, BandKind.BODY, BBox.union(c.bbox for c in columns),
                                tuple(columns)),),
                          labels[number - 1] if labels else ""))
    return Document(Path("built.pdf"), tuple(built), page_count or len(built))


def prose(top: float, block: int, count: int, tag: str) -> list[L]:
    """``count`` body lines of ordinary text from ``top``, 12 pt apart."""
    return [L(f"ordinary body text {tag} {k} of the page that runs on", top + 12 * k, block)
            for k in range(count)]


def codes(doc: Document) -> list[tuple[str, str]]:
    """(code, text) of every line of ``doc`` in reading order."""
    return [(x.code, x.text) for page in doc.pages for x in page.lines]
