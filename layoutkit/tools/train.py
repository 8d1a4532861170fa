"""Fitting a line-type model to truth files (``layoutkit train``), and scoring it.

- Reading: each truth file's pages labelled with ``types`` are read by the rules
  (``linetypes.model = "rules"``), and each typed line gets its features
  (`layoutkit.linetypes.features`).
- Labels: a line takes the class of the truth line that reads the same once reduced,
  as the scoring matches them (`layoutkit.tools.evaluate.reduce`); a line of
  ``either`` is left out, a line named nowhere is body.
- Fitting: a random forest of scikit-learn (`ESTIMATOR`: bounded depth, fixed seed),
  kept as plain arrays (`layoutkit.linetypes.model_file`); scikit-learn is imported
  only here, when a model is fitted.
- Scoring: cross-validated by publisher where the truth names one, else by document
  (`folds`: each fold typed by a model fitted on the others), its pages scored as
  the development corpus is (`page_scores`), beside the same pages typed as the
  configuration types them.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..config import LayoutConfig, LinetypesConfig
from ..errors import UsageError
from ..linetypes.classifier import BODY, learned_types
from ..linetypes.features import FEATURES, PageFeatures, document_facts, page_facts, page_features
from ..linetypes.lines import Key, Typed, retyped
from ..linetypes.lists import marker
from ..linetypes.model_file import Forest, forest_of, loaded_forest, model_path
from ..linetypes.page_typing import PageTyping
from ..model import Document, LineType, Page
from ..pipeline import parse
from .evaluate import (
    LIST_CODES,
    TypeScore,
    reduce,
    score_heading_levels,
    score_typed_lines,
)
from .truth import SUFFIX, PageTypes, load_truth, truth_files

__all__ = ["CLASSES_SCORED", "ESTIMATOR", "LabelledDocument", "Scores", "cross_validated",
           "document_scores", "fit_forest", "folds", "item_starts", "labelled_documents",
           "page_scores", "train_report", "typed_document"]

ESTIMATOR: dict[str, Any] = {"n_estimators": 25, "max_depth": 12, "min_samples_leaf": 2,
                             "max_features": "sqrt", "class_weight": "balanced_subsample",
                             "random_state": 0, "n_jobs": 1}
"""The random forest's settings: small (the shipped model stays under a megabyte),
bounded in depth and seeded, so that the same truth makes the same model."""
CLASSES_SCORED = ("headings", "contents", "list items", "tables")
"""The classes scored, in report order (as `benchmarks/linetypes.py` scores them)."""
MAX_FOLDS = 10
"""Most groups the documents are parted in for cross-validation."""
_LABELS = (("contents", "contents"), ("table", "tables"), ("heading", "headings"),
           ("list", "list_items"), ("caption", "captions"), ("footnote", "footnotes"))
"""Each class and the ``types`` key of the truth naming its lines, matched in this
order (a line matched once is not matched again)."""


@dataclass(frozen=True)
class LabelledDocument:
    """One truth file's labelled pages read by the rules: the ``document`` (those
    pages alone, typed by the rules), each page's truth ``types``, the pages'
    features, each line's label (None: left out, an ``either`` line), and the
    ``group`` it is kept in when cross-validating: its publisher when the truth names
    one, else the document alone."""

    name: str
    document: Document
    types: tuple[PageTypes, ...]
    features: tuple[PageFeatures, ...]
    labels: tuple[tuple[str | None, ...], ...]
    group: str

    @property
    def rows(self) -> tuple[np.ndarray, list[str]]:
        """The features and labels of the lines with a label, for fitting."""
        rows, labels = [], []
        for page, page_labels in zip(self.features, self.labels, strict=True):
            for row, label in zip(page.matrix, page_labels, strict=True):
                if label is not None:
                    rows.append(row)
                    labels.append(label)
        return (np.array(rows, dtype=np.float32).reshape(-1, len(FEATURES)), labels)


@dataclass(frozen=True)
class Scores:
    """Per class of `CLASSES_SCORED` the pooled score, and the headings found with
    their labelled level (its ``hits`` over the headings' is the level agreement)."""

    scores: dict[str, TypeScore]
    levels: TypeScore

    def __add__(self, other: Scores) -> Scores:
        return Scores({k: self.scores[k] + other.scores[k] for k in CLASSES_SCORED},
                      self.levels + other.levels)

    @staticmethod
    def none() -> Scores:
        """Nothing scored yet."""
        return Scores(dict.fromkeys(CLASSES_SCORED, TypeScore(0, 0, 0)), TypeScore(0, 0, 0))

    @property
    def level_agreement(self) -> float:
        """The share of the found headings given their labelled level."""
        found = self.scores["headings"].hits
        return self.levels.hits / found if found else 0.0


def item_starts(page: Page) -> list[tuple[str, str]]:
    """The (code, text) of the lines of ``page`` typed ``lb``/``ln`` that open an
    item: a list marker, or a line of another type before (the truth names an item
    by its first line)."""
    starts, before = [], ""
    for line in page.lines:
        if line.code in LIST_CODES and (before not in LIST_CODES
                                        or marker(line.words) is not None):
            starts.append((line.code, line.text))
        before = line.code
    return starts


def page_scores(page: Page, types: PageTypes) -> Scores:
    """One labelled page's `Scores`: headings are the lines typed ``h_*``, contents
    ``toc``, tables ``tab``, list items the lines that open one (`item_starts`); a
    line of ``either`` counts neither way."""
    typed = [(line.code, line.text) for line in page.lines]
    headings, levels = score_heading_levels(typed, types.headings, types.either)
    return Scores({"headings": headings,
                   "contents": score_typed_lines(typed, types.contents, ["toc"], types.either),
                   "list items": score_typed_lines(item_starts(page), types.list_items,
                                                   LIST_CODES, types.either),
                   "tables": score_typed_lines(typed, types.tables, ["tab"], types.either)},
                  levels)


def _labels(lines: Sequence[str], types: PageTypes) -> tuple[str | None, ...]:
    """The label of each of a page's typed lines (their texts) by its truth ``types``."""
    reduced = [reduce(text) for text in lines]
    labels: list[str | None] = [None if not text else BODY for text in reduced]
    either = Counter(reduce(text) for text in types.either)
    taken: set[int] = set()
    for label, key in _LABELS:
        named = getattr(types, key, ())
        texts = [reduce(t[1] if isinstance(t, tuple) else t) for t in named]
        missed = []
        for text in filter(None, texts):
            k = next((k for k, line in enumerate(reduced) if k not in taken and line == text),
                     None)
            if k is None:
                missed.append(text)
            else:
                taken.add(k)
                labels[k] = label
        for text in missed:  # a bill's line number may stand before it
            k = next((k for k, line in enumerate(reduced)
                      if k not in taken and line and line.endswith(text)), None)
            if k is not None:
                taken.add(k)
                labels[k] = label
    for k, text in enumerate(reduced):
        if k not in taken and either[text] > 0:
            either[text] -= 1
            labels[k] = None
    return tuple(labels)


def labelled_documents(roots: Sequence[Path], config: LayoutConfig,
                       progress: Callable[[str], None] | None = None
                       ) -> list[LabelledDocument]:
    """Every truth file of ``roots`` (files or folders) with line types, its labelled
    pages read by the rules in ``config``.  Raises UsageError, one line, for a
    folder or file that does not exist, a truth file whose document is missing, and
    when no page is labelled with line types."""
    for root in roots:
        if not root.exists():
            raise UsageError(f"{root}: no such folder or truth file")
    rules = config.replace(model="rules")
    out = []
    for path in truth_files(roots):
        truth = load_truth(path)
        pages = [p for p in truth.pages if p.types is not None]
        if not pages:
            continue
        if not truth.source.is_file():
            raise UsageError(f"{path}: $.document: {truth.source} does not exist")
        if progress is not None:
            progress(path.name)
        document = parse(truth.source, pages=[p.page for p in pages], config=rules)
        typings = [PageTyping.typed(page, p) for p, page in enumerate(document.pages)]
        facts = document_facts(page_facts(t) for t in typings)
        by_number = {page.page_no: p for p, page in enumerate(document.pages)}
        types = tuple(labelled.types for labelled in pages if labelled.types is not None)
        features = tuple(page_features(typings[by_number[p.page]], facts) for p in pages)
        labels = tuple(_labels([item.line.text for item in typings[by_number[p.page]].lines],
                               t) for p, t in zip(pages, types, strict=True))
        name = path.name.removesuffix(SUFFIX)
        out.append(LabelledDocument(name, document, types, features, labels,
                                    truth.publisher or name))
    if not out:
        raise UsageError(f"{', '.join(map(str, roots))}: no truth file with pages labelled "
                         "with line types (types: headings, listItems, tables, contents)")
    return out


def fit_forest(documents: Iterable[LabelledDocument], meta: dict[str, Any]) -> Forest:
    """The `Forest` fitted (`ESTIMATOR`) to the labelled lines of ``documents``."""
    from sklearn.ensemble import RandomForestClassifier

    rows, labels = [], []
    for document in documents:
        x, y = document.rows
        rows.append(x)
        labels.extend(y)
    x = np.vstack(rows)
    if len(set(labels)) < 2:
        raise UsageError("the truth labels one class alone: a model needs lines of at "
                         "least two (headings, list items, tables, contents, body)")
    estimator = RandomForestClassifier(**ESTIMATOR).fit(x, np.array(labels))
    return forest_of(estimator, FEATURES, {**meta, "lines": len(labels),
                                           "estimator": "RandomForestClassifier",
                                           "settings": ESTIMATOR})


def typed_document(document: LabelledDocument, forest: Forest | None,
                   config: LinetypesConfig) -> Document:
    """The labelled pages of ``document`` typed by ``forest`` (None: as the rules typed
    them)."""
    if forest is None:
        return document.document
    decided = learned_types(document.features, forest, config)
    reset: dict[Key, Typed] = {key: Typed(LineType.BODY) for page in document.features
                               for key in page.keys}
    return retyped(document.document, {**reset, **decided})


def document_scores(document: LabelledDocument, typed: Document) -> Scores:
    """The pooled `Scores` of ``document``'s labelled pages as ``typed`` (the same
    pages, typed one way or another) types them."""
    total = Scores.none()
    by_number = {page.page_no: page for page in typed.pages}
    for page, types in zip(document.document.pages, document.types, strict=True):
        total += page_scores(by_number[page.page_no], types)
    return total


def folds(documents: Sequence[LabelledDocument]) -> int:
    """How many folds ``documents`` are parted in for cross-validation: one per group
    (publisher, else document), at most `MAX_FOLDS`."""
    return min(MAX_FOLDS, len({d.group for d in documents}))


def cross_validated(documents: Sequence[LabelledDocument], config: LinetypesConfig,
                    also: Sequence[LabelledDocument] = ()) -> tuple[list[Scores], list[Forest]]:
    """Each document's `Scores` typed by a forest fitted on the other folds (`folds`,
    each group in one fold alone) and on ``also`` (documents fitted to in every fold,
    never scored), and those forests."""
    from sklearn.model_selection import GroupKFold

    groups = [d.group for d in documents]
    scores: list[Scores | None] = [None] * len(documents)
    forests = []
    n = folds(documents)
    if n < 2:
        raise UsageError("cross-validation needs truth for at least two documents, or "
                         "two publishers where the truth names them")
    for train, test in GroupKFold(n_splits=n).split(groups, groups=groups):
        forest = fit_forest([*also, *(documents[k] for k in train)], {})
        forests.append(forest)
        for k in test:
            scores[k] = document_scores(documents[k],
                                        typed_document(documents[k], forest, config))
    return [s for s in scores if s is not None], forests


def _cells(score: TypeScore) -> str:
    return f"{score.precision:.3f} | {score.recall:.3f} | {score.f1:.3f}"


def report(before: Scores, after: Scores, names: tuple[str, str]) -> list[str]:
    """The markdown table of ``before`` beside ``after`` (the two typings ``names``
    names), per class, with the heading level agreement (its truth cell: the headings
    found before)."""
    first, second = names
    out = [f"| class | truth | P {first} | R {first} | F1 {first} | P {second} | R {second} "
           f"| F1 {second} |", "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for kind in CLASSES_SCORED:
        out.append(f"| {kind} | {before.scores[kind].expected} | {_cells(before.scores[kind])} "
                   f"| {_cells(after.scores[kind])} |")
    out.append(f"| heading level agreement | {before.scores['headings'].hits} | – | "
               f"{before.level_agreement:.3f} | – | – | {after.level_agreement:.3f} | – |")
    return out


def train_report(roots: Sequence[Path], config: LayoutConfig,
                 progress: Callable[[str], None] | None = None) -> tuple[bytes, list[str]]:
    """The model file fitted to the truth of ``roots`` and the report of what it does:
    the cross-validated scores beside those of the configuration's typing (the rules
    or its model) on the same pages."""
    from .. import __version__
    from ..linetypes.model_file import save_forest

    started = time.monotonic()
    documents = labelled_documents(roots, config, progress)
    current = model_path(config.linetypes.model)
    forest_now = None if current is None else loaded_forest(current)
    before = sum((document_scores(d, typed_document(d, forest_now, config.linetypes))
                  for d in documents), Scores.none())
    scores, _ = cross_validated(documents, config.linetypes)
    after = sum(scores, Scores.none())
    forest = fit_forest(documents, {
        "layoutkit": __version__, "documents": len(documents),
        "pages": sum(len(d.types) for d in documents),
        "truth": sorted({str(root) for root in roots})})
    label = "rules" if current is None else "model"
    lines = [f"{len(documents)} documents, {sum(len(d.types) for d in documents)} labelled "
             f"pages, {sum(len(d.rows[1]) for d in documents)} lines; cross-validated in "
             f"{folds(documents)} folds, {len({d.group for d in documents})} publishers or "
             f"documents apart ({time.monotonic() - started:.0f} s)",
             "", *report(before, after, (label, "learned"))]
    return save_forest(forest), lines

