"""Line typing split between the pages and the document.

Most of what typing a line needs is on its page: the body lines and their words,
aligned tables, the font sizes, which lines stand out as headings, which start with a
list marker and which continue an item.  A few decisions need the whole document: the
contents on its first pages, the body's font size, the heading hierarchy (and the
styles seen on too few pages), and the chains of list items.

So typing runs in steps: each page's part works on a `PageTyping` wherever the page is
kept, and hands the document's part a small value; the document's decision goes back
to the next step::

    pages (where they are kept)                    document
    ruled tables, contents, aligned tables  <-- tables, contents ----  (first pages)
    sizes of the body text                  -- Counter ------------>   body size
    heading candidates, outline's titles    <-- body size, outline -
                                            -- TypedLines, Matches ->  heading levels
    headings, list markers                  <-- headings ----------
                                            -- ListMarks ---------->   list chains
    list lines                              <-- list items --------
                                            -- types -------------->   Document
    with a learned model (`classifier`):
    body sizes, texts                       -- PageFacts ---------->   body size, repeats
    features of each line                   <-- DocumentFacts -----
                                            -- PageFeatures ------->   every line classed

A `Runner` runs one page step on every page; `runner` makes one that runs it where the
pages are kept by `layoutkit.parallel`: in this process (`type_lines`, and
`layoutkit.parse` with one job), or in the processes that laid out the pages
(`jobs` > 1).  The steps are the same either way, so the types are the same.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ..config import LinetypesConfig
from ..model import Document, LineType, OutlineEntry, Table
from ..parallel import Shares
from .bookmarks import Match, entry_matches, outline_headings
from .classifier import learned_types
from .features import (
    DocumentFacts,
    PageFacts,
    PageFeatures,
    document_facts,
    page_facts,
    page_features,
)
from .headings import body_size, heading_candidates, heading_lines, size_counts
from .lines import Key, Typed, TypedLine, changed, style_of
from .lists import ListMarks, list_items, list_lines, list_marks
from .model_file import loaded_forest, model_path
from .page_typing import PageTyping
from .tables import aligned_table_lines, ruled_table_lines
from .toc import is_first_page, type_toc

__all__ = ["PageStep", "PageTyping", "Runner", "line_types", "runner"]


PageStep = Callable[[PageTyping, Any, LinetypesConfig], tuple[PageTyping, Any]]
"""One step of a page's typing: given the page, what the document decided before it
and the configuration, the page typed further and the value the document needs of it."""

Runner = Callable[[PageStep, object], Mapping[int, Any]]
"""Runs a `PageStep` on every page of a document with the same given value;
returns each page's value by index of the page in the document."""


@dataclass(frozen=True, slots=True)
class _OnEachPage:
    """A `PageStep` as a step of [`layoutkit.parallel`][layoutkit.parallel]: run with ``config``
    on each page whose state ``typing`` takes up as a `PageTyping` (the others
    are not typed), sending its value with the page's index."""

    step: PageStep
    config: LinetypesConfig
    typing: Callable[[Any], PageTyping | None]

    def __call__(self, states: Mapping[int, Any], given: Any
                 ) -> Iterator[tuple[int, PageTyping, tuple[int, Any]]]:
        for number, state in states.items():
            page = self.typing(state)
            if page is not None:
                page, sent = self.step(page, given, self.config)
                yield number, page, (page.index, sent)


def runner(kept: Shares, config: LinetypesConfig, typing: Callable[[Any], PageTyping | None]
           ) -> Runner:
    """The `Runner` that runs each page step where ``kept`` keeps the pages, on
    those whose state ``typing`` takes up as a `PageTyping` (a module-level
    callable, so that it crosses to worker processes)."""

    def run(step: PageStep, given: object) -> dict[int, Any]:
        return dict(kept.run(_OnEachPage(step, config, typing), given).values())

    return run


def line_types(document: Document, run: Runner, config: LinetypesConfig) -> dict[Key, Typed]:
    """The types of the lines of ``document`` (laid out, its ruled ``tables`` found
    but not yet typed) that typing decides, each page's part run by ``run``.

    Contents are looked for on the first pages (`is_first_page`,
    where [`type_toc`][layoutkit.linetypes.toc.type_toc] looks for them) by that function
    itself, on those pages alone: the others are handed to it without lines, so that
    every page keeps its index.  A ruled table's lines are there as body, so that its
    rows part the titles standing over its parts (``QUESTION 1``, ``QUESTION 2``) as
    the reader sees them; they are the table's all the same, typed before contents.

    With a learned model (``linetypes.model`` not ``rules``), the rules' types are
    the model's features: two more page steps send each page's `PageFacts`, then
    its `PageFeatures`, and the document classes every line at once
    (`learned_types`)."""
    path = model_path(config.model)
    forest = None if path is None else loaded_forest(path)  # a bad model fails first
    pages = range(len(document.pages))
    first = dataclasses.replace(document, pages=tuple(
        p if is_first_page(p, config) else dataclasses.replace(p, bands=())
        for p in document.pages))
    counts = run(_tables, (document.tables, changed(first, type_toc(first, config))))
    size = body_size(counts[p] for p in pages)
    found = run(_candidates, (size, document.outline))
    candidates = [item for p in pages for item in found[p][0]]
    headings = heading_lines(candidates,
                             {p: page.width for p, page in enumerate(document.pages)}, size,
                             config)
    headings.update(outline_headings([match for p in pages for match in found[p][1]],
                                     headings, {item.key: style_of(item) for item in candidates},
                                     document.outline,
                                     {page.page_no for page in document.pages}, config))
    marks = run(_markers, headings)
    decided = run(_lists, list_items([marks[p] for p in pages], config))
    if forest is None:
        return {key: typed for p in pages for key, typed in decided[p].items()}
    sent = run(_facts, None)
    facts = document_facts(sent[p] for p in pages)
    features = run(_features, facts)
    return learned_types([features[p] for p in pages], forest, config)


def _tables(page: PageTyping, given: tuple[tuple[Table, ...], Mapping[Key, Typed]],
            config: LinetypesConfig) -> tuple[PageTyping, Counter[float]]:
    """Types the lines of ruled tables, then the contents the document found, then
    aligned tables; sends the sizes of the body text left.  Aligned tables are looked
    for among the ruled tables' lines too, so that the head above a ruled table's rows
    (set above its grid) is the table's as it is an aligned table's."""
    tables, contents = given
    page = page.deciding(ruled_table_lines(page.body, tables)).deciding(contents)
    page = page.deciding(aligned_table_lines(
        [item for item in page.lines if item.key not in contents], config))
    return page, size_counts(page.body)


def _candidates(page: PageTyping, given: tuple[float, tuple[OutlineEntry, ...]],
                config: LinetypesConfig) -> tuple[PageTyping, tuple[list[TypedLine], list[Match]]]:
    """Sends the heading candidates when the body text is set in the ``given`` size,
    and the lines that read as the titles of the ``given`` outline's entries."""
    size, outline = given
    body = page.body
    return page, (heading_candidates(body, size, config), entry_matches(body, outline))


def _markers(page: PageTyping, headings: Mapping[Key, Typed],
             config: LinetypesConfig) -> tuple[PageTyping, ListMarks]:
    """Types the headings the document levelled; sends the list markers of the rest."""
    page = page.deciding(headings)
    marks = list_marks(page.body, config, {key for key, typed in page.decided.items()
                                            if typed.line_type is LineType.HEADING})
    return dataclasses.replace(page, marks=marks), marks


def _lists(page: PageTyping, items: Mapping[Key, Typed],
           config: LinetypesConfig) -> tuple[PageTyping, Mapping[Key, Typed]]:
    """Types the list items the document chained and the lines continuing them; sends
    every type decided on the page."""
    assert page.marks is not None, "list items are typed after their markers are found"
    page = page.deciding(list_lines(page.body, page.marks, items, config))
    return page, page.decided


def _facts(page: PageTyping, given: None, config: LinetypesConfig
           ) -> tuple[PageTyping, PageFacts]:
    """Sends what the document needs of the page typed by the rules for the features."""
    return page, page_facts(page)


def _features(page: PageTyping, facts: DocumentFacts, config: LinetypesConfig
              ) -> tuple[PageTyping, PageFeatures]:
    """Sends the features of the page's lines in a document of ``facts``."""
    return page, page_features(page, facts)
