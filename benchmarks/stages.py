"""Where the time goes: layoutkit's stages, and its busiest functions, on one document.

Reads the speed document (:data:`benchmarks.peers.SPEED_PDF`) with one glyph engine,
stage by stage as :func:`layoutkit.parse` runs them, and times each stage; then runs the
same again under cProfile and lists the functions with the most time of their own.
Written against the stage functions alone, so it also profiles an older checkout of the
package (put it first on ``PYTHONPATH``)::

    python -m benchmarks.stages pdfium
"""

from __future__ import annotations

import cProfile
import gc
import pstats
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.peers import SPEED_PDF
from layoutkit.config import LayoutConfig
from layoutkit.geometry.furniture import body_words, find_furniture
from layoutkit.geometry.gutters import prepare, shared_gutters
from layoutkit.geometry.segment import segment
from layoutkit.geometry.words import words_from_glyphs
from layoutkit.linetypes import type_lines
from layoutkit.model import Document
from layoutkit.reading.page import layout_page
from layoutkit.sources import open_source

__all__ = ["STAGES", "StageTimes", "measure", "table"]

STAGES = ("extract", "words", "furniture", "segment", "order", "linetypes")
"""The stages in pipeline order: glyphs from the PDF, words, running furniture, the
segmentation tree (gutters and bands), lines, blocks and columns in reading order, and
the line types (contents, tables, headings, lists)."""

TOP_FUNCTIONS = 10
"""Functions listed per engine, by time of their own."""


@dataclass(frozen=True, slots=True)
class StageTimes:
    """One engine's seconds per stage on a document, and its busiest functions as
    (function, calls, seconds of its own under cProfile)."""

    engine: str
    glyphs: int
    seconds: dict[str, float]
    top: list[tuple[str, int, float]]


def _pipeline(path: Path, engine: str, clock: Callable[[str], None]) -> int:
    """Run every stage on ``path``, calling ``clock(stage)`` as each one ends; returns
    the number of glyphs read."""
    config = LayoutConfig()
    with open_source(path, engine) as source:
        pages = list(source.pages(range(1, source.page_count + 1)))
    clock("extract")
    words = [words_from_glyphs(g.glyphs, config.words) for g in pages]
    clock("words")
    furniture = find_furniture([(w, g.width, g.height) for g, w in zip(pages, words, strict=True)],
                               config)
    clock("furniture")
    prepared = [prepare(body_words(w, f)[0], g.rules, g.figures(config.sources.image_max_area),
                        g.width, g.height, config.gutters)
                for g, w, f in zip(pages, words, furniture, strict=True)]
    shared = shared_gutters([canvas.gutters for canvas in prepared], config.gutters)
    trees = [segment(canvas, shared) for canvas in prepared]
    clock("segment")
    laid_out = tuple(layout_page(g, w, f, tree, config)
                     for g, w, f, tree in zip(pages, words, furniture, trees, strict=True))
    clock("order")
    type_lines(Document(path, laid_out, len(pages)), config.linetypes)
    clock("linetypes")
    return sum(len(g.glyphs) for g in pages)


def measure(engine: str, path: Path) -> StageTimes:
    """The stage times of one run of ``engine`` on ``path``, and the top functions of
    a second run under cProfile; both with the cyclic garbage collector paused, as
    :func:`layoutkit.parse` runs (its collections would land in whichever stage
    happened to allocate)."""
    seconds: dict[str, float] = {}
    last = time.perf_counter()

    def clock(stage: str) -> None:
        nonlocal last
        now = time.perf_counter()
        seconds[stage] = now - last
        last = now

    enabled = gc.isenabled()
    gc.disable()
    try:
        glyphs = _pipeline(path, engine, clock)
        profiler = cProfile.Profile()
        profiler.runcall(_pipeline, path, engine, lambda stage: None)
    finally:
        if enabled:
            gc.enable()
    stats: Any = pstats.Stats(profiler).stats  # {(file, line, name): (cc, nc, tt, ct, callers)}
    busiest = sorted(stats.items(), key=lambda item: -item[1][2])[:TOP_FUNCTIONS]
    top = [(_name(*where), counts[1], counts[2]) for where, counts in busiest]
    return StageTimes(engine, glyphs, seconds, top)


def _name(file: str, line: int, function: str) -> str:
    """A function as the report names it: ``module.py:line(function)``, or the
    built-in's name."""
    if file == "~":
        return function
    parts = Path(file).parts
    shown = "/".join(parts[parts.index("layoutkit"):]) if "layoutkit" in parts[:-1] else \
        "/".join(parts[-2:])
    return f"{shown}:{line}({function})"


def table(timed: Sequence[StageTimes]) -> list[str]:
    """The markdown rows of the stage table (one column per engine) and of each
    engine's busiest functions."""
    rows = ["| stage | " + " | ".join(f"{p.engine} (s)" for p in timed) + " |",
            "| --- |" + " ---: |" * len(timed)]
    for stage in STAGES:
        rows.append(f"| {stage} | " + " | ".join(f"{p.seconds[stage]:.3f}" for p in timed)
                    + " |")
    rows.append("| **total** | " + " | ".join(f"**{sum(p.seconds.values()):.3f}**"
                                                for p in timed) + " |")
    rows.append("| glyphs | " + " | ".join(str(p.glyphs) for p in timed) + " |")
    for p in timed:
        rows += ["", f"Busiest functions, {p.engine} engine (time of their own under cProfile,"
                 " which slows small calls most):", "",
                 "| function | calls | own time (s) |", "| --- | ---: | ---: |"]
        rows += [f"| `{name}` | {calls} | {own:.3f} |" for name, calls, own in p.top]
    return rows


def main(argv: Sequence[str]) -> int:
    """Profile the engines named in ``argv`` (both by default) and print the tables."""
    engines = list(argv) or ["pdfium", "pdfminer"]
    print("\n".join(table([measure(engine, SPEED_PDF) for engine in engines])))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
