"""Training on a publication's own pages: ``layoutkit train`` on five labelled pages of
one publication, scored on five other pages of it.

Usage::

    python -m benchmarks.usertrain     # prints the markdown section of RESULTS.md
    python -m benchmarks.usertrain --update benchmarks/RESULTS.md   # replaces it there

Each publication of ``regions/usertrain`` has two truth files mined from its tagged
original (``fixtures/usertrain/README.md``): ``<slug>-train`` (five pages) and
``<slug>-test`` (five later pages), none of them among the pages the shipped model
was fitted to.  The test pages are typed four ways and scored as
``benchmarks/linetypes.py`` scores the corpus (headings, list items' first lines):
by the rules, by the shipped model as it is, by a model fitted to the five training
pages alone (``layoutkit train --alone``) and by one fitted to them together with the
shipped model's rows (``layoutkit train``, each of the publication's lines weighing
`layoutkit.tools.train.USER_WEIGHT`).  The pooled row adds every publication's
counts; the last table gives the pooled scores for other weights.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from benchmarks.peers import REPO
from benchmarks.sections import carried_section, section_main
from layoutkit.config import LayoutConfig, LinetypesConfig
from layoutkit.linetypes.model_file import Forest, loaded_forest, shipped_model
from layoutkit.linetypes.rows import Rows
from layoutkit.tools.evaluate import TypeScore
from layoutkit.tools.train import (
    USER_WEIGHT,
    WITH_SHIPPED,
    LabelledDocument,
    Scores,
    document_rows,
    document_scores,
    fit_with,
    labelled_documents,
    shipped_base,
    typed_document,
)

__all__ = ["TITLE", "TYPINGS", "WEIGHTS", "Publication", "carried", "measure", "publications",
           "section"]

TITLE = "## Training on a publication's own pages"
BEFORE = "## Tokens and NLPTextDocument (layoutkit)"
TRUTH = REPO / "regions" / "usertrain"
TYPINGS = ("rules", "shipped", "alone", "with corpus")
"""The typings compared, in table order."""
WEIGHTS = (5.0, 10.0, 20.0, 40.0)
"""The weights of the publication's lines tried with the shipped rows (pooled)."""
KINDS = ("headings", "list items")
"""The classes scored."""


@dataclass(frozen=True)
class Publication:
    """One publication's test pages scored per typing of `TYPINGS` (and ``weights``:
    with the shipped rows, the publication's lines weighing each weight)."""

    slug: str
    train_pages: int
    test_pages: int
    scores: dict[str, Scores]
    weights: dict[float, Scores]


def publications(folder: Path = TRUTH) -> list[tuple[str, Path, Path]]:
    """Each publication of ``folder``: its slug and its training and test truth files."""
    return [(path.name.removesuffix("-train.truth.json"), path,
             path.with_name(path.name.replace("-train.", "-test.")))
            for path in sorted(folder.glob("*-train.truth.json"))]


def _scored(documents: Sequence[LabelledDocument], forest: Forest | None,
            config: LinetypesConfig) -> Scores:
    """The pooled scores of ``documents`` typed by ``forest`` (None: the rules)."""
    return sum((document_scores(d, typed_document(d, forest, config)) for d in documents),
               Scores.none())


def measure(slug: str, train: Path, test: Path, base: Rows,
            weights: Sequence[float] = WEIGHTS) -> Publication:
    """The `Publication` of the truth files ``train`` and ``test`` (``base``: the
    shipped rows)."""
    config = LayoutConfig()
    fitted = labelled_documents([train], config)
    scored = labelled_documents([test], config)
    rows = document_rows(fitted)
    with_base = {w: fit_with(rows, base, {}, w) for w in weights}
    forests: dict[str, Forest | None] = {
        "rules": None, "shipped": loaded_forest(shipped_model()),
        "alone": fit_with(rows, None, {}),
        "with corpus": with_base.get(USER_WEIGHT) or fit_with(rows, base, {})}
    return Publication(slug, sum(len(d.types) for d in fitted),
                       sum(len(d.types) for d in scored),
                       {name: _scored(scored, forest, config.linetypes)
                        for name, forest in forests.items()},
                       {w: _scored(scored, forest, config.linetypes)
                        for w, forest in with_base.items()})


def _cells(score: TypeScore) -> str:
    return f"{score.precision:.3f} | {score.recall:.3f} | {score.f1:.3f}"


def _beats(scores: dict[str, Scores], name: str) -> bool:
    """Whether typing ``name`` has a heading and a list F1 above the rules' and the
    shipped model's (where the pages hold any)."""
    return all(scores[name].scores[k].f1 > max(scores["rules"].scores[k].f1,
                                               scores["shipped"].scores[k].f1)
               for k in KINDS if scores["rules"].scores[k].expected)


def _above(scores: dict[str, Scores], kind: str) -> bool:
    """Whether the model with the corpus has an F1 of ``kind`` above the rules' and the
    shipped model's."""
    return scores["with corpus"].scores[kind].f1 > max(scores["rules"].scores[kind].f1,
                                                       scores["shipped"].scores[kind].f1)


def _table(rows: Sequence[tuple[str, dict[str, Scores]]]) -> list[str]:
    """The markdown table of each publication's (and the pool's) scores per typing."""
    out = ["| publication | typing | headings | P | R | F1 | list items | P | R | F1 |",
           "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for name, scores in rows:
        for typing in TYPINGS:
            s = scores[typing].scores
            bold = "**" if typing == "with corpus" and _beats(scores, typing) else ""
            out.append(f"| {name} | {bold}{typing}{bold} | {s['headings'].expected} | "
                       f"{_cells(s['headings'])} | {s['list items'].expected} | "
                       f"{_cells(s['list items'])} |")
    return out


def section() -> list[str]:
    """The report's section: each publication's table, the pooled row, the weights."""
    base = shipped_base()
    measured = [measure(slug, train, test, base) for slug, train, test in publications()]
    pooled = {t: sum((p.scores[t] for p in measured), Scores.none()) for t in TYPINGS}
    by_weight = {w: sum((p.weights[w] for p in measured), Scores.none()) for w in WEIGHTS}
    beaten = [p.slug for p in measured if _beats(p.scores, "with corpus")]
    headings = [p.slug for p in measured if _above(p.scores, "headings")]
    lower = [f"{p.slug} {k}" for p in measured for k in KINDS
             if p.scores["with corpus"].scores[k].f1 < p.scores["shipped"].scores[k].f1]
    return [
        TITLE, "",
        f"`layoutkit train` on five labelled pages of a publication, scored on five later "
        f"pages of it (`benchmarks/usertrain.py`; {len(measured)} publications of "
        "`fixtures/usertrain`, their truth mined from their tagged originals, no page among "
        "those the shipped model was fitted to). The test pages typed by the rules, by the "
        "shipped model as it is, by a model fitted to the five pages alone (`--alone`) and "
        f"by one fitted to them with the shipped model's {len(base)} lines "
        f"(`layoutkit train`'s default, each of the publication's lines weighing "
        f"{USER_WEIGHT:g}, trees of depth {WITH_SHIPPED['max_depth'] or 'unbounded'}). "
        "In bold: the model with the corpus has a heading and a list F1 "
        "above both the rules' and the shipped model's.", "",
        *_table([*((p.slug, p.scores) for p in measured), ("pooled", pooled)]), "",
        f"With the corpus, heading and list F1 above the rules' and the shipped model's on "
        f"{len(beaten)} of {len(measured)} publications"
        + (f" ({', '.join(beaten)})" if beaten else "") + f"; heading F1 above both on "
        f"{len(headings)}; F1 below the shipped model's: "
        + (", ".join(lower) if lower else "none") + ".", "",
        "### The weight of the publication's lines (pooled)", "",
        "| weight | headings P | R | F1 | list items P | R | F1 |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        *(f"| {w:g} | {_cells(s.scores['headings'])} | {_cells(s.scores['list items'])} |"
          for w, s in by_weight.items())]


def carried(report: Path) -> list[str]:
    """The section as ``report`` has it, or a line saying it was not measured:
    ``benchmarks.run --quick`` carries it over."""
    return carried_section(report, TITLE, "`python -m benchmarks.usertrain`")


def main(argv: Sequence[str] | None = None) -> int:
    return section_main(argv, "usertrain", "Training on a publication's own pages.", TITLE,
                        BEFORE, section)


if __name__ == "__main__":
    raise SystemExit(main())
