"""The learned line-type model against the rules: cross-validated on the development
corpus and on the corpus mined from tagged PDFs, in sample (the shipped model), and
the time typing takes.

Usage::

    python -m benchmarks.learned     # prints the markdown section of RESULTS.md
    python -m benchmarks.learned --update benchmarks/RESULTS.md   # replaces it there

Each corpus's labelled pages are read once by the rules (`layoutkit.tools.train`).
On the development corpus each document is typed by a model fitted on the others
(its truth names no publisher); on the mined corpus (``regions/tagged``) each
publisher's documents are typed by a model fitted on the other publishers' and on the
whole development corpus, so no publisher is both fitted to and scored.  Both are
scored as ``benchmarks/linetypes.py`` scores the corpus (pooled precision, recall
and F1 of headings, contents, list items' first lines and tables; the level
agreement of the headings found).  The shipped model
(``layoutkit/linetypes/models/default.npz``, made by ``layoutkit train`` on both
corpora, `RETRAIN`) is scored in sample on the development corpus.  The time is that
of typing the lines of the City Record (38 pages) laid out once, with the rules and
with the shipped model (which runs the rules first: they are its features), the best
of a few runs.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

import layoutkit
from benchmarks.peers import REPO
from benchmarks.sections import carried_section, section_main
from layoutkit.config import LayoutConfig, LinetypesConfig
from layoutkit.linetypes import type_lines
from layoutkit.linetypes.lines import Typed, page_typed_lines, retyped
from layoutkit.linetypes.model_file import loaded_forest, shipped_model
from layoutkit.model import LineType
from layoutkit.tools.train import (
    CLASSES_SCORED,
    LabelledDocument,
    Scores,
    cross_validated,
    document_scores,
    labelled_documents,
    report,
    typed_document,
)

__all__ = ["CITY_RECORD", "RETRAIN", "TITLE", "carried", "in_sample", "rules_and_learned",
           "section", "typing_time"]

TITLE = "## Learned line types against the rules"
BEFORE = "## Tokens and NLPTextDocument (layoutkit)"
CORPUS = REPO / "regions" / "corpus"
MINED = REPO / "regions" / "tagged"
RETRAIN = ("layoutkit train regions/corpus regions/tagged --alone -o "
           "layoutkit/linetypes/models/default.npz --rows "
           "layoutkit/linetypes/models/default-rows.npz")
"""The command that makes the shipped model."""
CITY_RECORD = REPO / "fixtures" / "pdf" / "cleveland-city-record-2016-04-27.pdf"
RUNS = 3
"""Runs of each typing timed; the best counts."""


def in_sample(documents: Sequence[LabelledDocument], config: LinetypesConfig) -> Scores:
    """The pooled scores of the shipped model on ``documents``."""
    forest = loaded_forest(shipped_model())
    return sum((document_scores(d, typed_document(d, forest, config)) for d in documents),
               Scores.none())


def rules_and_learned(documents: Sequence[LabelledDocument], config: LinetypesConfig,
                      also: Sequence[LabelledDocument] = ()) -> tuple[Scores, Scores]:
    """The pooled scores of ``documents`` typed by the rules, and by models fitted
    on the other folds and on ``also`` (`layoutkit.tools.train.cross_validated`)."""
    rules = sum((document_scores(d, d.document) for d in documents), Scores.none())
    learned, _ = cross_validated(documents, config, also)
    return rules, sum(learned, Scores.none())


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


def section() -> list[str]:
    """The report's section: the cross-validated tables of both corpora, the in-sample
    table, the typing time and whether the model may be the default."""
    config = LayoutConfig()
    corpus = labelled_documents([CORPUS], config)
    mined = labelled_documents([MINED], config) if MINED.is_dir() else []
    rules, learned = rules_and_learned(corpus, config.linetypes)
    shipped = in_sample(corpus, config.linetypes)
    rules_time, learned_time, pages, rules_whole, learned_whole = typing_time()
    forest = loaded_forest(shipped_model())
    out = [
        TITLE, "",
        f"A random forest ({len(forest.roots)} trees, depth at most {forest.depth}, "
        f"{len(forest.features)} features per line, the rules' types among them; "
        "`layoutkit/linetypes/classifier.py`) against the rules, scored as the development "
        "corpus is in the line-types section (`benchmarks/learned.py`). The shipped model "
        f"is made by `{RETRAIN}`.", "",
        f"### Development corpus: each document typed by a model fitted on the others "
        f"({_counted(corpus)})", "",
        *report(rules, learned, ("rules", "learned")), ""]
    mined_rules = mined_learned = None
    if mined:
        mined_rules, mined_learned = rules_and_learned(mined, config.linetypes, corpus)
        out += [f"### Mined from tagged PDFs: each publisher typed by a model fitted on the "
                f"other publishers and the development corpus ({_counted(mined)}, "
                f"{len({d.group for d in mined})} publishers)", "",
                *report(mined_rules, mined_learned, ("rules", "learned")), ""]
    out += [
        "### In sample: the shipped model on the development corpus, which it was fitted to",
        "", *report(rules, shipped, ("rules", "shipped")), "",
        "### Time typing takes", "",
        f"The City Record ({pages} pages) laid out once, its lines typed by "
        f"`layoutkit.linetypes.type_lines` (best of {RUNS}): rules {rules_time:.3f} s, "
        f"learned {learned_time:.3f} s: **{learned_time / rules_time:.2f}x** the rules' time "
        "(the model runs the rules first: they are its features, so it cannot be "
        "faster). Read whole (`layoutkit.parse`, once each): rules "
        f"{rules_whole:.1f} s, learned {learned_whole:.1f} s "
        f"({learned_whole / rules_whole:.2f}x).", "",
        _verdict(mined_rules or rules, mined_learned or learned, rules, shipped)]
    return out


def _counted(documents: Sequence[LabelledDocument]) -> str:
    """How many documents, pages and labelled lines ``documents`` hold."""
    return (f"{len(documents)} documents, {sum(len(d.types) for d in documents)} pages, "
            f"{sum(len(d.rows[1]) for d in documents)} lines")


def _verdict(rules: Scores, learned: Scores, corpus_rules: Scores, shipped: Scores) -> str:
    """Whether the learned model may be the default: its cross-validated F1 above the
    rules' in every class on publishers it was not fitted to (the mined corpus, else
    the development corpus's documents), and in sample no figure below the rules' on
    the development corpus."""
    beats = all(learned.scores[k].f1 > rules.scores[k].f1 for k in CLASSES_SCORED)
    holds = all(shipped.scores[k].precision >= corpus_rules.scores[k].precision
                and shipped.scores[k].recall >= corpus_rules.scores[k].recall
                for k in CLASSES_SCORED) and \
        shipped.level_agreement >= corpus_rules.level_agreement
    if beats and holds:
        return "The learned model beats the rules cross-validated in every class and holds " \
               "in sample: it may be the default."
    return ("The default stays `linetypes.model = \"rules\"`: the learned model does not "
            + ("beat the rules cross-validated in every class" if not beats else "")
            + (" and " if not beats and not holds else "")
            + ("hold the rules' figures in sample" if not holds else "") + ".")


def carried(report: Path) -> list[str]:
    """The section as ``report`` has it, or a line saying it was not measured:
    ``benchmarks.run --quick`` carries it over."""
    return carried_section(report, TITLE, "`python -m benchmarks.learned`")


def main(argv: Sequence[str] | None = None) -> int:
    return section_main(argv, "learned", "Learned line types against the rules.", TITLE,
                        BEFORE, section)


if __name__ == "__main__":
    raise SystemExit(main())

