"""Time of the layout stages against page density.

A page of N glyphs is built directly as glyph values: three justified columns of
pseudo-words whose font size shrinks as N grows, with a running header.  No PDF
engine is involved, so the numbers are the cost of layoutkit's own stages (words,
furniture, gutters, segmentation, reading order) and show how it grows with the
glyphs of a page.  The growth exponent is the slope of log time on log glyphs.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from layoutkit.config import LayoutConfig
from layoutkit.geometry.furniture import body_words, find_furniture
from layoutkit.geometry.gutters import prepare, shared_gutters
from layoutkit.geometry.segment import segment
from layoutkit.geometry.words import words_from_glyphs
from layoutkit.model import BBox, Glyph, Glyphs, PageGlyphs
from layoutkit.reading.page import layout_page

DENSITIES = (500, 1000, 2000, 5000, 10000, 20000)
WIDTH, HEIGHT = 612.0, 792.0
MARGIN, GUTTER, COLUMNS = 40.0, 8.0, 3
LETTERS = "etaoinshrdlucmfwypvbgk"


@dataclass(frozen=True, slots=True)
class DensityRow:
    """The best time of the layout stages on one page of ``glyphs`` glyphs."""

    glyphs: int
    words: int
    lines: int
    seconds: float


def page(glyphs: int, seed: int = 0) -> PageGlyphs:
    """A three-column page of ``glyphs`` glyphs (see the module docstring): the
    largest font size, in steps of 5 %, at which the columns hold them all."""
    size = 12.0
    while True:
        built = _page(glyphs, size, seed)
        if len(built.glyphs) >= glyphs:
            return built
        size *= 0.95


def _page(glyphs: int, size: float, seed: int) -> PageGlyphs:
    """The page at font ``size``, cut off at ``glyphs`` glyphs."""
    rng = random.Random(seed)
    column_width = (WIDTH - 2 * MARGIN - (COLUMNS - 1) * GUTTER) / COLUMNS
    advance, pitch = 0.5 * size, 1.2 * size
    out = [Glyph(ch, BBox(MARGIN + k * advance, MARGIN - size, MARGIN + (k + 1) * advance,
                          MARGIN), "Times", size)
           for k, ch in enumerate(f"The Density Gazette page {glyphs}")]
    for column in range(COLUMNS):
        left = MARGIN + column * (column_width + GUTTER)
        y = MARGIN + 20 + pitch
        while y < HEIGHT - MARGIN and len(out) < glyphs:
            words = _line_words(rng, column_width, advance)
            spare = column_width - advance * sum(len(w) for w in words)
            space = spare / max(1, len(words) - 1)
            x = left
            for word in words:
                if len(out) + len(word) > glyphs:
                    break
                for ch in word:
                    out.append(Glyph(ch, BBox(x, y - size, x + advance, y), "Times", size))
                    x += advance
                x += space
            y += pitch
    return PageGlyphs(1, WIDTH, HEIGHT, Glyphs.of(out))


def _line_words(rng: random.Random, width: float, advance: float) -> list[str]:
    """Pseudo-words that fill ``width`` with ordinary spaces to spare."""
    words: list[str] = []
    used = 0.0
    while True:
        word = "".join(rng.choice(LETTERS) for _ in range(rng.randint(2, 9)))
        if used + advance * (len(word) + 1) > width - 2 * advance:
            return words or [word]
        words.append(word)
        used += advance * (len(word) + 1)


def _layout(glyphs: PageGlyphs, config: LayoutConfig) -> int:
    """Run every layout stage on one page; returns its number of lines."""
    words = words_from_glyphs(glyphs.glyphs, config.words)
    (found,) = find_furniture([(words, glyphs.width, glyphs.height)], config)
    prepared = prepare(body_words(words, found)[0], glyphs.rules,
                       glyphs.figures(config.sources.image_max_area), glyphs.width,
                       glyphs.height, config.gutters)
    tree = segment(prepared, shared_gutters([prepared.gutters], config.gutters))
    return len(layout_page(glyphs, words, found, tree, config).lines)


def measure(densities: Sequence[int] = DENSITIES, repeats: int = 3) -> list[DensityRow]:
    """The best of ``repeats`` timings of the layout stages at each density."""
    config = LayoutConfig()
    rows = []
    for n in densities:
        glyphs = page(n)
        best = math.inf
        for _ in range(repeats):
            started = time.perf_counter()
            lines = _layout(glyphs, config)
            best = min(best, time.perf_counter() - started)
        words = len(words_from_glyphs(glyphs.glyphs, config.words))
        rows.append(DensityRow(len(glyphs.glyphs), words, lines, best))
    return rows


def exponent(rows: Sequence[DensityRow]) -> float:
    """The slope of log(seconds) against log(glyphs): 1 is linear growth."""
    x = np.log([r.glyphs for r in rows])
    y = np.log([r.seconds for r in rows])
    return float(np.polyfit(x, y, 1)[0])


def table(rows: Sequence[DensityRow]) -> list[str]:
    """The markdown table of ``rows`` and the growth exponent."""
    out = ["| glyphs | words | lines | layout time (ms) | µs per glyph |",
           "| ---: | ---: | ---: | ---: | ---: |"]
    out += [f"| {r.glyphs} | {r.words} | {r.lines} | {1000 * r.seconds:.1f} | "
            f"{1e6 * r.seconds / r.glyphs:.1f} |" for r in rows]
    out += ["", f"Growth exponent (slope of log time on log glyphs): {exponent(rows):.2f}."]
    return out


if __name__ == "__main__":
    print("\n".join(table(measure())))
