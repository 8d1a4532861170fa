"""The learned line-type model against the rules: cross-validated on the development
corpus, in sample (the shipped model), and the time typing takes.

Usage::

    python -m benchmarks.learned     # prints the markdown section of RESULTS.md
    python -m benchmarks.learned --update benchmarks/RESULTS.md   # replaces it there

The corpus's labelled pages are read once by the rules (`layoutkit.tools.train`);
each document is then typed by a model fitted on every other document (leave one
document out) and scored as ``benchmarks/linetypes.py`` scores the corpus (pooled
precision, recall and F1 of headings, contents, list items' first lines and
tables; the level agreement of the headings found).  The shipped model
(``layoutkit/linetypes/models/default.npz``, made by ``layoutkit train`` on the same
pages) is scored in sample.  The time is that of typing the lines of the City
Record (38 pages) laid out once, with the rules and with the shipped model (which
runs the rules first: they are its features), the best of a few runs.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

import layoutkit
from benchmarks.peers import REPO
from benchmarks.sections import section_main
from layoutkit.config import LayoutConfig, LinetypesConfig
from layoutkit.linetypes import type_lines
from layoutkit.linetypes.lines import Typed, page_typed_lines, retyped
from layoutkit.linetypes.model_file import loaded_forest, shipped_model
from layoutkit.model import Document, LineType
from layoutkit.tools.evaluate import TypeScore
from layoutkit.tools.train import (
    CLASSES_SCORED,
    LabelledDocument,
    Scores,
    fit_forest,
    labelled_documents,
    page_scores,
    typed_document,
)

__all__ = ["CITY_RECORD", "TITLE", "carried", "cross_validated", "in_sample", "section",
           "typing_time"]

TITLE = "## Learned line types against the rules"
BEFORE = "## Tokens and NLPTextDocument (layoutkit)"
CORPUS = REPO / "regions" / "corpus"
CITY_RECORD = REPO / "fixtures" / "pdf" / "cleveland-city-record-2016-04-27.pdf"
RUNS = 3
"""Runs of each typing timed; the best counts."""


def _scores(document: LabelledDocument, typed: Document) -> Scores:
    by_number = {page.page_no: page for page in typed.pages}
    total = Scores.none()
    for page, types in zip(document.document.pages, document.types, strict=True):
        total += page_scores(by_number[page.page_no], types)
    return total


def cross_validated(documents: Sequence[LabelledDocument], config: LinetypesConfig
                    ) -> tuple[Scores, Scores]:
    """The pooled scores of the rules and of models fitted leaving each document out."""
    rules, learned = Scores.none(), Scores.none()
    for k, document in enumerate(documents):
        forest = fit_forest([d for j, d in enumerate(documents) if j != k], {})
        rules += _scores(document, document.document)
        learned += _scores(document, typed_document(document, forest, config))
    return rules, learned


def in_sample(documents: Sequence[LabelledDocument], config: LinetypesConfig) -> Scores:
    """The pooled scores of the shipped model on ``documents``."""
    forest = loaded_forest(shipped_model())
    return sum((_scores(d, typed_document(d, forest, config)) for d in documents),
               Scores.none())


def typing_time() -> tuple[float, float, int, float, float]:
    """The best time of typing the City Record's lines with the rules and with the
    shipped model, its pages, and the time of reading it whole with each (once)."""
    started = time.perf_counter()
    typed = layoutkit.parse(CITY_RECORD)
    whole = [time.perf_counter() - started]
    started = time.perf_counter()
    layoutkit.parse(CITY_RECORD, config=LayoutConfig().replace(model="learned"))
    whole.append(time.perf_counter() - started)
    reset = {item.key: Typed(LineType.BODY) for p, page in enumerate(typed.pages)
             for item in page_typed_lines(page, p)}
    untyped = retyped(typed, reset)
    times = []
    for model in ("rules", "learned"):
        config = LayoutConfig().linetypes.replace(model=model)
        type_lines(untyped, config)  # the model read once, as in any long run
        best = float("inf")
        for _ in range(RUNS):
            started = time.perf_counter()
            type_lines(untyped, config)
            best = min(best, time.perf_counter() - started)
        times.append(best)
    return times[0], times[1], len(typed.pages), whole[0], whole[1]


def _cells(score: TypeScore) -> str:
    return f"{score.precision:.3f} | {score.recall:.3f} | {score.f1:.3f}"


def _table(left: Scores, right: Scores, names: tuple[str, str]) -> list[str]:
    out = [f"| class | truth | P {names[0]} | R {names[0]} | F1 {names[0]} | P {names[1]} "
           f"| R {names[1]} | F1 {names[1]} |",
           "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for kind in CLASSES_SCORED:
        out.append(f"| {kind} | {left.scores[kind].expected} | {_cells(left.scores[kind])} "
                   f"| {_cells(right.scores[kind])} |")
    out.append(f"| heading level agreement | – | – | {left.level_agreement:.3f} | – | – | "
               f"{right.level_agreement:.3f} | – |")
    return out


def section() -> list[str]:
    """The report's section: the cross-validated table, the in-sample table and the
    typing time."""
    config = LayoutConfig()
    documents = labelled_documents([CORPUS], config)
    rules, learned = cross_validated(documents, config.linetypes)
    shipped = in_sample(documents, config.linetypes)
    rules_time, learned_time, pages, rules_whole, learned_whole = typing_time()
    forest = loaded_forest(shipped_model())
    lines = sum(len(d.rows[1]) for d in documents)
    return [
        TITLE, "",
        f"A random forest ({len(forest.roots)} trees, depth at most {forest.depth}, "
        f"{len(forest.features)} features per line, the rules' types among them; "
        f"`layoutkit/linetypes/classifier.py`) against the rules on the labelled pages of "
        f"`regions/corpus/` ({len(documents)} documents, "
        f"{sum(len(d.types) for d in documents)} pages, {lines} lines), scored as the "
        "development corpus is in the line-types section (`benchmarks/learned.py`).", "",
        "### Cross-validated: each document typed by a model fitted on the others", "",
        *_table(rules, learned, ("rules", "learned")), "",
        "### In sample: the shipped model on the pages it was fitted to", "",
        *_table(rules, shipped, ("rules", "shipped")), "",
        "### Time typing takes", "",
        f"The City Record ({pages} pages) laid out once, its lines typed by "
        f"`layoutkit.linetypes.type_lines` (best of {RUNS}): rules {rules_time:.3f} s, "
        f"learned {learned_time:.3f} s: **{learned_time / rules_time:.2f}x** the rules' time "
        "(the model runs the rules first: they are its features, so it cannot be "
        "faster). Read whole (`layoutkit.parse`, once each): rules "
        f"{rules_whole:.1f} s, learned {learned_whole:.1f} s "
        f"({learned_whole / rules_whole:.2f}x).", "",
        _verdict(rules, learned, shipped),
    ]


def _verdict(rules: Scores, learned: Scores, shipped: Scores) -> str:
    """Whether the learned model may be the default: its cross-validated F1 above the
    rules' in every class, and no in-sample figure below the rules'."""
    beats = all(learned.scores[k].f1 > rules.scores[k].f1 for k in CLASSES_SCORED)
    holds = all(shipped.scores[k].precision >= rules.scores[k].precision
                and shipped.scores[k].recall >= rules.scores[k].recall
                for k in CLASSES_SCORED) and shipped.level_agreement >= rules.level_agreement
    if beats and holds:
        return "The learned model beats the rules cross-validated in every class and holds " \
               "in sample: it may be the default."
    return ("The default stays `linetypes.model = \"rules\"`: the learned model does not "
            + ("beat the rules cross-validated in every class" if not beats else "")
            + (" and " if not beats and not holds else "")
            + ("hold the rules' figures in sample" if not holds else "") + ".")


def carried(report: Path) -> list[str]:
    """The section as ``report`` has it (measured by an earlier run), or a line saying it
    was not measured: ``benchmarks.run --quick`` carries it over."""
    text = report.read_text(encoding="utf-8") if report.is_file() else ""
    if TITLE not in text:
        return [TITLE, "", "Not measured in this run (`python -m benchmarks.learned` "
                "measures it)."]
    rest = text.partition(TITLE)[2]
    body = rest[:rest.find("\n## ")] if "\n## " in rest else rest
    return [TITLE, *body.rstrip("\n").split("\n")]


def main(argv: Sequence[str] | None = None) -> int:
    return section_main(argv, "learned", "Learned line types against the rules.", TITLE,
                        BEFORE, section)


if __name__ == "__main__":
    raise SystemExit(main())

