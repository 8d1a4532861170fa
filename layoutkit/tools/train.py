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
- With the shipped rows (the default; ``alone`` fits the truth alone, as the shipped
  model is made): the lines the shipped model was fitted to (`layoutkit.linetypes.rows`)
  come first, each of the truth's weighing `USER_WEIGHT` (`WITH_SHIPPED`), so a few
  pages of a publication teach its conventions while the corpus holds elsewhere.
- Scoring: cross-validated by publisher where the truth names two or more, else by
  document, else (one truth file) by page (`parts`: each fold typed by a model fitted
  on the others), its pages scored as the development corpus is (`page_scores`),
  beside the same pages typed as the configuration types them.
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
from ..linetypes.rows import Rows, load_rows, save_rows, shipped_rows
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

__all__ = ["CLASSES_SCORED", "ESTIMATOR", "USER_WEIGHT", "WITH_SHIPPED", "LabelledDocument",
           "Scores", "TrainOutcome", "cross_validated", "document_rows", "document_scores",
           "fit_forest", "fit_with", "folds", "item_starts", "labelled_documents",
           "page_scores", "parts", "shipped_base", "train_report", "typed_document",
           "weighted"]

ESTIMATOR: dict[str, Any] = {"n_estimators": 25, "max_depth": 12, "min_samples_leaf": 2,
                             "max_features": "sqrt", "class_weight": "balanced_subsample",
                             "random_state": 0, "n_jobs": 1}
"""The random forest's settings: small (the shipped model stays under a megabyte),
bounded in depth and seeded, so that the same truth makes the same model."""
CLASSES_SCORED = ("headings", "contents", "list items", "tables")
"""The classes scored, in report order (as `benchmarks/linetypes.py` scores them)."""
MAX_FOLDS = 10
"""Most groups the documents are parted in for cross-validation."""
USER_WEIGHT = 10.0
"""The weight of each of the truth's lines fitted with the shipped rows (theirs is 1).
Five pages hold some 250 lines against the shipped rows' 27,000: weighing 10 times,
they weigh a tenth of the whole, enough for the trees to split where the
publication's lines ask it and too little to undo the corpus elsewhere.  Chosen on 13
long tagged publications (five pages fitted, five later ones scored): weights 5 to 40
gave pooled heading F1 0.93-0.95 and list F1 0.92-0.94, against 0.83 and 0.93 for the
shipped model; benchmarks/RESULTS.md, "Training on a publication's own pages", gives
the eight of them it typed worst, weights 5 to 40."""
WITH_SHIPPED: dict[str, Any] = {**ESTIMATOR, "max_depth": None}
"""The forest's settings when the shipped rows are fitted too: as `ESTIMATOR` but of
unbounded depth.  The corpus's 27,000 lines fill the twelve levels the shipped model
has, and a publication's few lines need the splits below them: on the same 13
publications, weight 20 at depth 12 gave pooled heading F1 0.86, unbounded 0.95
(the model file is larger: some 100,000 nodes and 0.7 MB, against 27,000 and
0.27 MB)."""
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
        return self.page_rows(range(len(self.features)))

    def page_rows(self, pages: Iterable[int]) -> tuple[np.ndarray, list[str]]:
        """The features and labels of the lines with a label of the labelled pages
        ``pages`` (their indexes among the labelled pages), in order."""
        rows, labels = [], []
        for k in pages:
            for row, label in zip(self.features[k].matrix, self.labels[k], strict=True):
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


def document_rows(documents: Iterable[LabelledDocument],
                  pages: Iterable[tuple[int, int]] | None = None) -> Rows:
    """The `Rows` of the labelled lines of ``documents``, in order, each in its
    document's group; with ``pages`` (pairs of a document's index and a labelled page's
    index), of those pages alone."""
    chosen = list(documents)
    wanted: dict[int, list[int]] = {}
    for d, p in (pages if pages is not None
                 else ((d, p) for d, doc in enumerate(chosen) for p in range(len(doc.types)))):
        wanted.setdefault(d, []).append(p)
    matrices, labels, groups = [np.zeros((0, len(FEATURES)), dtype=np.float32)], [], []
    for d, document in enumerate(chosen):
        if d in wanted:
            x, y = document.page_rows(sorted(wanted[d]))
            matrices.append(x)
            labels.extend(y)
            groups.extend([document.group] * len(y))
    return Rows(FEATURES, np.vstack(matrices), np.array(labels, dtype=str),
                np.array(groups, dtype=str))


def shipped_base() -> Rows:
    """The rows the shipped model was fitted to (`layoutkit.linetypes.rows`).  Raises
    UsageError when they were made for other features than this layoutkit computes."""
    base = load_rows(shipped_rows())
    if base.features != FEATURES:
        raise UsageError(f"{shipped_rows()}: the shipped rows were made for other features; "
                         "use --alone")
    return base


def weighted(rows: Rows, base: Rows | None, weight: float = USER_WEIGHT
             ) -> tuple[Rows, np.ndarray | None]:
    """``rows`` after ``base`` (None: ``rows`` alone), and each row's weight: 1 for
    ``base``'s, ``weight`` for ``rows``' (None without ``base``: all alike)."""
    if base is None:
        return rows, None
    return base + rows, np.concatenate([np.ones(len(base)), np.full(len(rows), weight)])


def fit_forest(rows: Rows, meta: dict[str, Any], weights: np.ndarray | None = None,
               settings: dict[str, Any] = ESTIMATOR) -> Forest:
    """The `Forest` fitted (``settings``, `ESTIMATOR` unless said) to ``rows``, each
    weighing its ``weights`` (None: all alike)."""
    from sklearn.ensemble import RandomForestClassifier

    if len(set(rows.labels.tolist())) < 2:
        raise UsageError("the truth labels one class alone: a model needs lines of at "
                         "least two (headings, list items, tables, contents, body)")
    estimator = RandomForestClassifier(**settings).fit(rows.matrix, rows.labels,
                                                       sample_weight=weights)
    return forest_of(estimator, FEATURES, {**meta, "lines": len(rows),
                                           "estimator": "RandomForestClassifier",
                                           "settings": settings})


def fit_with(rows: Rows, base: Rows | None, meta: dict[str, Any],
             weight: float = USER_WEIGHT) -> Forest:
    """The `Forest` of ``rows`` alone (``base`` None: `ESTIMATOR`), or of ``rows``
    after ``base``, each of ``rows`` weighing ``weight`` (`weighted`, `WITH_SHIPPED`)."""
    if base is None:
        return fit_forest(rows, meta)
    joined, weights = weighted(rows, base, weight)
    return fit_forest(joined, {**meta, "shipped_rows": len(base), "user_weight": weight},
                      weights, WITH_SHIPPED)


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


def parts(documents: Sequence[LabelledDocument]) -> tuple[list[tuple[int, int]], list[str]]:
    """Every labelled page of ``documents`` (its document's index and its index among
    the document's labelled pages) and the group it is kept in when cross-validating:
    its document's group (publisher, else document) when there are two or more, else
    the page itself (one truth file, or one publisher: its pages are parted)."""
    pages = [(d, p) for d, document in enumerate(documents) for p in range(len(document.types))]
    if len({d.group for d in documents}) >= 2:
        return pages, [documents[d].group for d, _ in pages]
    return pages, [f"{documents[d].name} {documents[d].document.pages[p].page_no}"
                   for d, p in pages]


def folds(documents: Sequence[LabelledDocument]) -> int:
    """How many folds ``documents`` are parted in for cross-validation: one per group
    of `parts`, at most `MAX_FOLDS`."""
    return min(MAX_FOLDS, len(set(parts(documents)[1])))


def cross_validated(documents: Sequence[LabelledDocument], config: LinetypesConfig,
                    also: Sequence[LabelledDocument] = (),
                    base: Rows | None = None) -> tuple[list[Scores], list[Forest]]:
    """Each labelled page's `Scores` (in the order of `parts`) typed by a forest fitted
    on the other folds (`parts`, each group in one fold alone) and on ``also``
    (documents fitted to in every fold, never scored), after ``base`` where given
    (`weighted`), and those forests."""
    from sklearn.model_selection import GroupKFold

    pages, groups = parts(documents)
    scores: list[Scores | None] = [None] * len(pages)
    forests = []
    n = folds(documents)
    if n < 2:
        raise UsageError("cross-validation needs truth for at least two labelled pages")
    fixed = document_rows(also)
    for train, test in GroupKFold(n_splits=n).split(pages, groups=groups):
        forest = fit_with(fixed + document_rows(documents, [pages[k] for k in train]),
                          base, {})
        forests.append(forest)
        tested: dict[int, list[int]] = {}
        for k in test:
            tested.setdefault(pages[k][0], []).append(k)
        for d, held in tested.items():
            document = documents[d]
            by_number = {page.page_no: page
                         for page in typed_document(document, forest, config).pages}
            for k in held:
                p = pages[k][1]
                scores[k] = page_scores(by_number[document.document.pages[p].page_no],
                                        document.types[p])
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


@dataclass(frozen=True)
class TrainOutcome:
    """What ``layoutkit train`` makes: the model file, the rows file of the truth's
    labelled lines (`layoutkit.linetypes.rows`) and the report's lines."""

    model: bytes
    rows: bytes
    lines: list[str]


def train_report(roots: Sequence[Path], config: LayoutConfig,
                 progress: Callable[[str], None] | None = None, *,
                 alone: bool = False) -> TrainOutcome:
    """The model fitted to the truth of ``roots`` (with the shipped rows, or ``alone``)
    and the report of what it does: the cross-validated scores beside those of the
    configuration's typing (the rules or its model) on the same pages."""
    from .. import __version__
    from ..linetypes.model_file import save_forest

    started = time.monotonic()
    documents = labelled_documents(roots, config, progress)
    base = None if alone else shipped_base()
    current = model_path(config.linetypes.model)
    forest_now = None if current is None else loaded_forest(current)
    before = sum((document_scores(d, typed_document(d, forest_now, config.linetypes))
                  for d in documents), Scores.none())
    scores, _ = cross_validated(documents, config.linetypes, base=base)
    after = sum(scores, Scores.none())
    rows = document_rows(documents)
    pages = sum(len(d.types) for d in documents)
    groups = len({d.group for d in documents})
    meta: dict[str, Any] = {
        "layoutkit": __version__, "documents": len(documents), "pages": pages,
        "truth": sorted({str(root) for root in roots})}
    forest = fit_with(rows, base, meta)
    label = "rules" if current is None else "model"
    by = "page" if groups < 2 else f"{groups} publishers or documents apart"
    fitted = ("alone" if base is None else
              f"with the {len(base)} lines the shipped model was fitted to, each of "
              f"the truth's weighing {USER_WEIGHT:g}")
    lines = [f"{len(documents)} documents, {pages} labelled "
             f"pages, {len(rows)} lines, fitted {fitted}; cross-validated in "
             f"{folds(documents)} folds by {by} ({time.monotonic() - started:.0f} s)",
             "", *report(before, after, (label, "learned"))]
    return TrainOutcome(save_forest(forest), save_rows(rows), lines)

