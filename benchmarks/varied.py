"""Reading order on varied synthetic pages (``fixtures/varied.py``): layouts that do not
share the algorithm's assumptions (1 to 6 columns, gutters of 4 to 24 pt, ragged text,
rules with and without white space beside them, figures and tables in columns, side
headings, title bands, four page sizes, three font families, accented text), each drawn
in reading order and with its blocks or lines shuffled in the content stream.

Every system reads every page; found, order and leak are scored with
:func:`layoutkit.tools.evaluate.score_page` against the generator's exact truth, pooled
per system and stream order, and given per case and stream order.  Run alone with
``python -m benchmarks.varied [--systems NAME,...] [--update benchmarks/RESULTS.md]``.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass

from benchmarks.peers import System, extract_docs, systems
from benchmarks.sections import section_main
from fixtures.varied import CASES, SPECS, STREAM_ORDERS, suite
from layoutkit.tools.evaluate import PageScore, combine, score_page

__all__ = ["BAR", "SEEDS", "TITLE", "VariedRow", "failing", "measure", "section", "tables"]

TITLE = "## Varied synthetic layouts (fixtures/varied.py)"

BEFORE = "## Development corpus (other publishers, labelled by hand)"
"""The section this one precedes in the report."""

SEEDS = (0,)
"""Seeds of the varied suite the benchmark reads (each: every case in every stream order)."""

BAR = 0.995
"""A case and stream order where layoutkit's found or order is below this is listed as failing."""


@dataclass(frozen=True, slots=True)
class VariedRow:
    """One system's reading of one varied document: its pages combined."""

    system: str
    case: str
    stream_order: str
    seed: int
    pages: int
    score: PageScore


def measure(runnable: Sequence[System] | None = None, errors: list[str] | None = None,
            seeds: Sequence[int] = SEEDS) -> list[VariedRow]:
    """Every runnable system's scores on every varied document; a system that fails
    scores zero there and its error is appended to ``errors``."""
    runnable = [s for s in systems() if s.missing() is None] if runnable is None else runnable
    errors = [] if errors is None else errors
    docs = [doc for seed in seeds for doc in suite(seed)]
    rows = []
    for doc, extracted in zip(docs, extract_docs(docs, runnable, errors), strict=True):
        for system, texts in zip(runnable, extracted, strict=True):
            scores = [score_page(texts.get(page.page_no, ""), page.lines, page.furniture,
                                 page.paragraphs) for page in doc.pages]
            rows.append(VariedRow(system.name, doc.case, doc.stream_order, doc.seed,
                                  len(doc.pages), combine(scores)))
    return rows


def _f(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def failing(rows: Sequence[VariedRow], system: str = "layoutkit") -> list[VariedRow]:
    """The rows of ``system`` whose found or order is below :data:`BAR`."""
    return [r for r in rows if r.system == system
            and (r.score.found < BAR or r.score.order < BAR)]


def tables(rows: Sequence[VariedRow]) -> list[str]:
    """Markdown: each system pooled, by stream order, then order (found) per case and
    stream order for every system, then layoutkit's failing cases."""
    names = list(dict.fromkeys(r.system for r in rows))
    orders = [o for o in STREAM_ORDERS if any(r.stream_order == o for r in rows)]
    lines = ["| system | stream order | documents | pages | lines | found | order | leak "
             "| paragraphs found |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for name in names:
        for order in [*orders, "all"]:
            mine = [r for r in rows if r.system == name and order in (r.stream_order, "all")]
            pooled = combine(r.score for r in mine)
            label = f"**{order}**" if order == "all" else order
            lines.append(f"| {name} | {label} | {len(mine)} | {sum(r.pages for r in mine)} | "
                         f"{pooled.lines} | {_f(pooled.found)} | {_f(pooled.order)} | "
                         f"{_f(pooled.leak)} | {_f(pooled.paragraphs_found)} |")
    lines += ["", "Order (found) by case and stream order:", "",
              "| case | page, font, language | stream order | pages | lines | "
              + " | ".join(names) + " |",
              "| --- | --- | --- | ---: | ---: | " + " | ".join("---:" for _ in names) + " |"]
    cases = [c for c in CASES if any(r.case == c for r in rows)]
    for case in cases:
        for order in orders:
            mine = {r.system: r for r in rows if r.case == case and r.stream_order == order}
            if not mine:
                continue
            first = next(iter(mine.values()))
            cells = " | ".join(
                f"{mine[n].score.order:.3f} ({mine[n].score.found:.3f})" if n in mine else "–"
                for n in names)
            lines.append(f"| {case} | {SPECS[case].describe()} | {order} | {first.pages} | "
                         f"{first.score.lines} | {cells} |")
    if "layoutkit" in names:
        below = failing(rows)
        lines += ["", f"layoutkit below {BAR} in found or order: {len(below)} of "
                  f"{sum(1 for r in rows if r.system == 'layoutkit')} documents"
                  + (":" if below else ".")]
        if below:
            lines += [""] + [f"- {r.case}, {r.stream_order}: found {r.score.found:.3f},"
                             f" order {r.score.order:.3f}" for r in below]
    return lines


def section(rows: Sequence[VariedRow]) -> list[str]:
    """The report's section: title, what was measured, the tables."""
    seeds = sorted({r.seed for r in rows})
    intro = ("Synthetic pages whose layouts vary what a reading-order algorithm may assume"
             " (`fixtures/varied.py`, seed " + ", ".join(map(str, seeds or SEEDS)) + "):"
             " 1 to 6 columns, gutters of 4 to 24 pt, justified and ragged text, column rules"
             " with and without white space beside them, figures and tables in a column,"
             " side headings, title bands; A4, letter, legal and tabloid; Times, Helvetica,"
             " Courier, 7 to 12 pt; English, Portuguese, French, German and Spanish. Each"
             " case is drawn in reading order and with its blocks or lines shuffled in the"
             " content stream. The truth is exact; a table row reads as one line, a"
             " caption and a table where they stand in their column, a side heading before"
             " its paragraph.")
    if not rows:
        return [TITLE, "", intro, "", "Not measured."]
    return [TITLE, "", intro, "", *tables(rows)]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--systems", help="comma-separated system names (default: all)")
    args, rest = parser.parse_known_args(argv)
    chosen = None
    if args.systems:
        wanted = [name.strip() for name in args.systems.split(",")]
        known = {s.name: s for s in systems()}
        unknown = [name for name in wanted if name not in known]
        if unknown:
            parser.error(f"unknown systems {unknown}; expected some of {sorted(known)}")
        chosen = [known[name] for name in wanted if known[name].missing() is None]
    return section_main(rest, "varied", "Reading order on varied synthetic layouts"
                        " (--systems NAME,... to run only some systems).",
                        TITLE, BEFORE, lambda: section(measure(chosen)))


if __name__ == "__main__":
    raise SystemExit(main())
