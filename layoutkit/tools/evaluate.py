"""Reading-order metrics: how well an extracted page text follows a hand-labelled truth.

Every comparison is made on *reduced* text (see `reduce`): Unicode NFKC, case-folded,
keeping only letters and digits.  Reduction makes the metrics blind to what extractors
legitimately disagree on -- spaces, line breaks, hyphenation at line ends, punctuation,
ligatures, quote styles -- and sensitive to what matters for reading: which text comes out
and in what order.

The three page metrics (all in ``[0, 1]``):

* **found** -- share of the scored truth lines that occur in the output page text.
* **order** -- share of consecutive scored truth-line pairs ``(a, b)`` where ``b`` is the
  very next scored line after ``a`` in the output.  Text that the truth leaves out (table
  cells, figure labels) may stand between ``a`` and ``b`` without penalty.
* **leak** -- share of furniture lines (running headers, footers, page numbers) that show
  up in the body text output.

Which truth lines are scored: a truth line is scored when its reduced text has at least
`MIN_LINE_CHARS` characters and occurs exactly once in the reduced truth page (the
reduced truth lines joined in reading order).  Shorter lines ("and", "Section 2.") and
lines that are repeated, or contained in another line, or formed across a line break
would match in the wrong place, so their position in the output says nothing.  The
choice depends on the truth alone, so every system is scored on the same lines.

Where a scored line sits in the output: a line that occurs once in the reduced output
has that position.  A line that occurs two or more times (the system emitted it twice,
or text outside the truth repeats it) is *found*, but its position is ambiguous, so it
is not placed and every pair that involves it counts as out of order.

Synthetic truth also has paragraphs: **paragraphs found** is the share of truth
paragraphs whose whole reduced text is one substring of the reduced output, which
fails when a line of another column or a header is spliced into the paragraph.

Truth files (``layoutkit.truth/1``) are read by `layoutkit.tools.truth`; page
scores are combined with `combine`.
"""

from __future__ import annotations

import unicodedata
from bisect import bisect_right
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .truth import PageTruth

__all__ = [
    "FOLLOWING_CHARS",
    "MIN_FURNITURE_CHARS",
    "MIN_LINE_CHARS",
    "OrderBreak",
    "PageScore",
    "TypeScore",
    "combine",
    "count_occurrences",
    "line_index",
    "line_starts",
    "missing_lines",
    "order_breaks",
    "reduce",
    "score_furniture",
    "score_heading_levels",
    "score_heading_lines",
    "score_headings",
    "score_list_items",
    "score_page",
    "score_truth",
    "score_typed_lines",
    "scored_lines",
]

MIN_LINE_CHARS = 12
"""Reduced length below which a truth line is too likely to match elsewhere to be scored."""

MIN_FURNITURE_CHARS = 4
"""Reduced length below which a furniture line (a bare page number) is not checked for leaks."""

_KASHIDA = "\u0640"
"""The Arabic kashida (tatweel), which `reduce` drops."""


def reduce(text: str) -> str:
    """Return ``text`` reduced to its letters and digits, for layout-blind comparison.

    The text is NFKC-normalised (so the ligature "ﬁ" becomes "fi", full-width and
    superscript digits become plain digits), case-folded, and every character for which
    ``str.isalnum()`` is false (spaces, line breaks, punctuation, hyphens, soft hyphens)
    is dropped: a word hyphenated across two lines reduces to the same string whether
    or not an extractor re-joins it.  So is the Arabic kashida (tatweel, U+0640), which
    stretches a justified line as spaces widen a Latin one: a producer draws as many as
    the line's width asks, overlapping, and engines keep more or fewer of them.
    """
    folded = unicodedata.normalize("NFKC", text).casefold()
    return "".join(ch for ch in folded if ch.isalnum() and ch != _KASHIDA)


def count_occurrences(needle: str, haystack: str) -> int:
    """Return how many times ``needle`` occurs in ``haystack``, overlapping matches included.

    Overlaps count because a position is ambiguous as soon as a second match starts
    anywhere, even inside the first.  An empty ``needle`` occurs zero times by convention.
    """
    if not needle:
        return 0
    count = 0
    start = haystack.find(needle)
    while start != -1:
        count += 1
        start = haystack.find(needle, start + 1)
    return count


def scored_lines(truth_lines: Sequence[str]) -> list[str]:
    """Return the reduced truth lines that are scored, in reading order.

    A line is kept when its reduced text has at least `MIN_LINE_CHARS` characters
    and occurs exactly once in the reduced truth page (all reduced lines joined).  That
    rule drops duplicated lines, lines contained in longer lines and lines that also
    arise across a line break, whose position in an output would be ambiguous.
    """
    reduced = [reduce(line) for line in truth_lines]
    page = "".join(reduced)
    return [r for r in reduced if len(r) >= MIN_LINE_CHARS and count_occurrences(r, page) == 1]


@dataclass(frozen=True)
class PageScore:
    """Scores of one output page against its truth, or of several pages combined.

    ``found``, ``order`` and ``leak`` are shares in ``[0, 1]`` (see the module docstring);
    ``lines``, ``pairs`` and ``furniture`` are their denominators: scored truth lines,
    consecutive scored pairs (``lines - 1`` on one page), and furniture lines checked.
    A share whose denominator is zero takes its best value (1.0 for ``found`` and
    ``order``, 0.0 for ``leak``): there was nothing to get wrong, and the zero weight
    keeps it out of `combine`.  ``paragraphs_found`` is ``None`` when the truth
    has no paragraphs; ``paragraphs`` is the number of truth paragraphs scored.
    """

    found: float
    order: float
    leak: float
    lines: int
    pairs: int
    furniture: int
    paragraphs_found: float | None
    paragraphs: int = 0

    # A share times its denominator gives back the integer count it was computed from.
    @property
    def found_lines(self) -> int:
        """How many scored lines were found."""
        return round(self.found * self.lines)

    @property
    def ordered_pairs(self) -> int:
        """How many consecutive pairs were read in succession."""
        return round(self.order * self.pairs)

    @property
    def leaked(self) -> int:
        """How many furniture lines leaked into the body."""
        return round(self.leak * self.furniture)


def _share(hits: int, total: int, empty: float) -> float:
    """Return ``hits / total``, or ``empty`` when ``total`` is zero."""
    return hits / total if total else empty


def _leaked(furniture: Sequence[str], body_truth: str, output: str) -> tuple[int, int]:
    """Return ``(furniture lines checked, furniture lines leaked)``.

    A furniture line counts as leaked when it occurs in the reduced output more often
    than in the reduced body truth: a running date "April 27, 2016" that the body also
    mentions is not a leak as long as only the body's own mentions come out.  A furniture
    text listed ``m`` times can leak at most ``m`` times.
    """
    listed = Counter(r for r in map(reduce, furniture) if len(r) >= MIN_FURNITURE_CHARS)
    leaked = 0
    for text, times in listed.items():
        extra = count_occurrences(text, output) - count_occurrences(text, body_truth)
        leaked += min(max(extra, 0), times)
    return sum(listed.values()), leaked


@dataclass(frozen=True)
class _Placing:
    """Where the scored lines stand in a reduced output: how often each occurs
    (``counts``), the position of each that occurs once (``position``), and the placed
    line that follows each placed line (``successor``)."""

    counts: dict[str, int]
    position: dict[str, int]
    successor: dict[str, str]


def _placing(output: str, kept: Sequence[str]) -> _Placing:
    """Return the `_Placing` of the scored lines ``kept`` in the reduced ``output``.

    It is the one rule of placement that `score_page`, `order_breaks` and
    `missing_lines` share: a line occurring once is placed where it occurs, a
    line occurring more often is found but not placed."""
    counts = {line: count_occurrences(line, output) for line in kept}
    position = {line: output.find(line) for line in kept if counts[line] == 1}
    placed = sorted((at, line) for line, at in position.items())
    successor = {a: b for (_, a), (_, b) in pairwise(placed)}
    return _Placing(counts, position, successor)


def score_page(
    output_text: str,
    truth_lines: Sequence[str],
    furniture: Sequence[str] = (),
    paragraphs: Sequence[str] | None = None,
) -> PageScore:
    """Return the `PageScore` of one page's body output text against its truth.

    ``truth_lines`` are the page's body lines in reading order, ``furniture`` its header
    and footer lines, ``paragraphs`` (synthetic truth only) its body paragraphs.  The
    output is compared after `reduce`, so its line breaks and spacing do not matter.
    """
    output = reduce(output_text)
    kept = scored_lines(truth_lines)
    placing = _placing(output, kept)
    counts, successor = placing.counts, placing.successor
    in_order = sum(1 for a, b in pairwise(kept) if successor.get(a) == b)
    found = sum(1 for line in kept if counts[line] > 0)
    checked, leaked = _leaked(furniture, "".join(map(reduce, truth_lines)), output)

    paragraphs_found: float | None = None
    scored_paragraphs = 0
    if paragraphs is not None:
        reduced_paragraphs = [r for r in map(reduce, paragraphs) if r]
        scored_paragraphs = len(reduced_paragraphs)
        whole = sum(1 for r in reduced_paragraphs if r in output)
        paragraphs_found = _share(whole, scored_paragraphs, 1.0)

    pairs = max(len(kept) - 1, 0)
    return PageScore(
        found=_share(found, len(kept), 1.0),
        order=_share(in_order, pairs, 1.0),
        leak=_share(leaked, checked, 0.0),
        lines=len(kept),
        pairs=pairs,
        furniture=checked,
        paragraphs_found=paragraphs_found,
        paragraphs=scored_paragraphs,
    )


FOLLOWING_CHARS = 60
"""How much of the output text after a line an `OrderBreak` keeps."""


@dataclass(frozen=True)
class OrderBreak:
    """A pair of consecutive scored truth lines that `score_page` counts out of order.

    After the truth line ``after`` the truth has ``expected``; in the output came the
    scored truth line ``instead`` (None when no placed line follows ``after``, or
    ``after`` is not placed) and the text ``following`` (the output's text right after
    ``after``, shortened; empty when ``after`` is not placed).  ``kind`` says why:
    ``order`` (both placed, another line came between), ``missing`` (one of them is
    not in the output) or ``repeated`` (one of them is there more than once, so it has
    no place).  The ``*_at`` fields are positions in the reduced output, None where a
    line has none: where ``after`` starts, where it ends (what came instead begins
    there), and where ``instead`` and ``expected`` start.  Texts are as labelled.
    """

    after: str
    expected: str
    instead: str | None
    following: str
    kind: str
    after_at: int | None = None
    end_at: int | None = None
    instead_at: int | None = None
    expected_at: int | None = None


def line_starts(lines: Sequence[str]) -> list[int]:
    """Return where each of ``lines`` starts in their reduced text, plus its end.

    The reduced text of lines joined by line breaks is the reduced lines concatenated,
    so a position in it (a scored line's, from `order_breaks`) falls in the line
    ``i`` with ``starts[i] <= position < starts[i + 1]``: this is how a report finds
    the line of a page that holds a truth line."""
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(reduce(line)))
    return starts


def line_index(starts: Sequence[int], position: int) -> int | None:
    """Return the index of the line that holds the reduced ``position``, given the
    `line_starts` of the lines; None when it lies beyond the last line."""
    index = bisect_right(starts, position) - 1
    return index if 0 <= index < len(starts) - 1 else None


def _text_after(lines: Sequence[str], starts: Sequence[int], position: int) -> str:
    """Return the output text from the reduced ``position`` on, at most
    `FOLLOWING_CHARS` characters with an ellipsis when cut."""
    index = line_index(starts, position)
    if index is None:
        return ""
    line, skip = lines[index], position - starts[index]
    cut = 0
    while skip > 0 and cut < len(line):
        skip -= len(reduce(line[cut]))
        cut += 1
    text = " ".join([line[cut:].strip(), *(x.strip() for x in lines[index + 1:index + 4])])
    text = " ".join(text.split())
    return text if len(text) <= FOLLOWING_CHARS else text[:FOLLOWING_CHARS - 1] + "…"


def order_breaks(output_text: str, truth_lines: Sequence[str]) -> list[OrderBreak]:
    """Return the pairs of consecutive scored truth lines that are not in succession in
    ``output_text``, each an `OrderBreak` saying what came instead.

    They are exactly the pairs `score_page` counts out of order (its ``pairs``
    less the pairs in order), decided by the same placement, so a report can show a
    reader why the order score is what it is."""
    output = reduce(output_text)
    kept = scored_lines(truth_lines)
    labelled = {reduce(line): line for line in truth_lines}
    placing = _placing(output, kept)
    lines = output_text.split("\n")
    starts = line_starts(lines)
    breaks = []
    for a, b in pairwise(kept):
        follower = placing.successor.get(a)
        if follower == b:
            continue
        counts = placing.counts[a], placing.counts[b]
        kind = "missing" if 0 in counts else "repeated" if max(counts) > 1 else "order"
        at = placing.position.get(a)
        end = None if at is None else at + len(a)
        breaks.append(OrderBreak(
            after=labelled[a], expected=labelled[b],
            instead=None if follower is None else labelled[follower],
            following="" if end is None else _text_after(lines, starts, end), kind=kind,
            after_at=at, end_at=end,
            instead_at=None if follower is None else placing.position[follower],
            expected_at=placing.position.get(b)))
    return breaks


def missing_lines(output_text: str, truth_lines: Sequence[str]) -> list[str]:
    """Return the scored truth lines (as labelled, in reading order) that do not occur
    in ``output_text``: the lines that `score_page`'s ``found`` misses."""
    output = reduce(output_text)
    kept = scored_lines(truth_lines)
    labelled = {reduce(line): line for line in truth_lines}
    counts = _placing(output, kept).counts
    return [labelled[line] for line in kept if counts[line] == 0]


def combine(scores: Iterable[PageScore]) -> PageScore:
    """Return the micro-average of ``scores``: every line, pair and furniture line weighs the same.

    Each share is weighted by its denominator, so a page with 200 scored lines counts
    ten times as much as one with 20, and pages with nothing to score count for nothing.
    ``paragraphs_found`` is averaged over the pages that have paragraphs, and is ``None``
    when none has.  Combining no scores gives the empty score (1.0, 1.0, 0.0).
    """
    pages = list(scores)
    lines = sum(s.lines for s in pages)
    pairs = sum(s.pairs for s in pages)
    furniture = sum(s.furniture for s in pages)
    with_paragraphs = [s for s in pages if s.paragraphs_found is not None]
    paragraphs = sum(s.paragraphs for s in with_paragraphs)
    paragraphs_found: float | None = None
    if with_paragraphs:
        whole = sum(round((s.paragraphs_found or 0.0) * s.paragraphs) for s in with_paragraphs)
        paragraphs_found = _share(whole, paragraphs, 1.0)
    return PageScore(
        found=_share(sum(s.found_lines for s in pages), lines, 1.0),
        order=_share(sum(s.ordered_pairs for s in pages), pairs, 1.0),
        leak=_share(sum(s.leaked for s in pages), furniture, 0.0),
        lines=lines,
        pairs=pairs,
        furniture=furniture,
        paragraphs_found=paragraphs_found,
        paragraphs=paragraphs,
    )


def score_truth(output_text: str, truth: PageTruth) -> PageScore:
    """Return `score_page` of a page's body ``output_text`` against its `PageTruth`."""
    return score_page(output_text, truth.lines, truth.furniture)


# --------------------------------------------------------------------------- line types
#
# Line types are scored per type on reduced line texts: a truth line is found when a
# line of the output with the same reduced text carries the type.  Lines are matched as
# multisets, so a header printed twice must be typed twice.  Every scorer takes the
# page's ``either`` lines (texts a reader could take both ways, labelled no type): each
# excuses one line of the output that reads so and matched no truth line, so that a
# line a reader could take both ways counts neither as a miss nor as a false positive.
# Lines without letters or digits are not scored.

FURNITURE_CODES = frozenset({"h", "f"})
LIST_CODES = frozenset({"lb", "ln"})


@dataclass(frozen=True)
class TypeScore:
    """How well the lines of one type were found: ``predicted`` lines typed so by the
    system, ``expected`` truth lines of the type, ``hits`` found in both."""

    predicted: int
    expected: int
    hits: int

    @property
    def precision(self) -> float:
        """Share of the predicted lines that are right (1.0 when none was predicted)."""
        return _share(self.hits, self.predicted, 1.0)

    @property
    def recall(self) -> float:
        """Share of the truth lines that were found (1.0 when there are none)."""
        return _share(self.hits, self.expected, 1.0)

    @property
    def f1(self) -> float:
        """The harmonic mean of precision and recall (0.0 when both are 0)."""
        total = self.precision + self.recall
        return 2 * self.precision * self.recall / total if total else 0.0

    def __add__(self, other: TypeScore) -> TypeScore:
        return TypeScore(self.predicted + other.predicted, self.expected + other.expected,
                         self.hits + other.hits)


def _reduced(texts: Iterable[str]) -> Counter[str]:
    """The reduced ``texts`` that keep a letter or digit, as a multiset."""
    return Counter(t for t in map(reduce, texts) if t)


def _matched(predicted: Iterable[str], expected: Iterable[str],
             either: Iterable[str] = ()) -> TypeScore:
    """The score of ``predicted`` against ``expected`` texts, matched reduced, as
    multisets; a predicted text that matched none is not counted when an ``either``
    text reads the same (each once)."""
    mine, truth = _reduced(predicted), _reduced(expected)
    excused = ((mine - truth) & _reduced(either)).total()
    return TypeScore(mine.total() - excused, truth.total(), (mine & truth).total())


def score_furniture(typed: Sequence[tuple[str, str]], furniture: Sequence[str],
                    either: Sequence[str] = ()) -> TypeScore:
    """Running headers and footers of one page: ``typed`` is the (code, text) of every
    line of the output page, ``furniture`` the truth's furniture lines, ``either`` the
    lines that count neither way."""
    return _matched((text for code, text in typed if code in FURNITURE_CODES), furniture,
                    either)


def score_headings(outline: Sequence[tuple[int, str]],
                   entries: Sequence[tuple[int, str]], either: Sequence[str] = ()
                   ) -> TypeScore:
    """Headings of a document: the (level, text) of the system's headings against the
    truth's; a heading is found only with its level.  A system heading that matched
    none is not counted when an ``either`` text reads the same, at any level."""
    mine = Counter((level, text) for level, text in
                   ((level, reduce(text)) for level, text in outline) if text)
    truth = Counter((level, text) for level, text in
                    ((level, reduce(text)) for level, text in entries) if text)
    spare: Counter[str] = Counter()
    for (_, text), count in (mine - truth).items():
        spare[text] += count
    excused = (spare & _reduced(either)).total()
    return TypeScore(mine.total() - excused, truth.total(), (mine & truth).total())


def score_heading_lines(outline: Sequence[tuple[int, str]],
                        entries: Sequence[tuple[int, str]], either: Sequence[str] = ()
                        ) -> tuple[TypeScore, TypeScore]:
    """Heading lines of labelled pages: the (level, text) of the lines the system
    typed headings against the truth's, matched as multisets of texts, first
    whatever their level, then only with it (the second's ``hits`` over the
    first's is the share of found headings given the right level).  A text in
    ``either`` counts neither way."""
    return (_matched((text for _, text in outline), (text for _, text in entries), either),
            score_headings(outline, entries, either))


def _pairs(chosen: Sequence[str], expected: Sequence[str]) -> list[tuple[int, int]]:
    """Pairs (index in ``chosen``, index in ``expected``) of reduced lines matched one
    to one: first those that read the same, then an expected line with an unmatched
    chosen line that ends with it (a bill's line number may stand before it)."""
    free: dict[str, list[int]] = {}
    for k, text in enumerate(chosen):
        free.setdefault(text, []).append(k)
    pairs, missed = [], []
    for j, text in enumerate(expected):
        if free.get(text):
            pairs.append((free[text].pop(0), j))
        else:
            missed.append(j)
    used = {k for k, _ in pairs}
    for j in missed:
        ending = next((k for k, text in enumerate(chosen)
                       if k not in used and text.endswith(expected[j])), None)
        if ending is not None:
            used.add(ending)
            pairs.append((ending, j))
    return sorted(pairs, key=lambda pair: pair[1])


def _typed_pairs(typed: Sequence[tuple[str, str]], expected: Sequence[str],
                 codes: Iterable[str], either: Sequence[str]
                 ) -> tuple[int, int, list[tuple[int, int]]]:
    """How many ``typed`` lines carry one of ``codes`` (``h_`` stands for every
    heading level), those that matched no ``expected`` line and read as an ``either``
    line (or end so) left out; how many ``expected`` lines there are; and the pairs
    (`_pairs`) as indexes into ``typed`` and ``expected``."""
    wanted = tuple(codes)
    chosen = [k for k, (code, text) in enumerate(typed) if reduce(text)
              and (code in wanted or (code.startswith("h_") and "h_" in wanted))]
    truth = [j for j, text in enumerate(expected) if reduce(text)]
    pairs = [(chosen[a], truth[b]) for a, b in
             _pairs([reduce(typed[k][1]) for k in chosen], [reduce(expected[j]) for j in truth])]
    matched = {k for k, _ in pairs}
    spare = [reduce(typed[k][1]) for k in chosen if k not in matched]
    excused = sum(1 for _ in _pairs(spare, [reduce(text) for text in either if reduce(text)]))
    return len(chosen) - excused, len(truth), pairs


def score_typed_lines(typed: Sequence[tuple[str, str]], expected: Sequence[str],
                      codes: Iterable[str], either: Sequence[str] = ()) -> TypeScore:
    """Lines of one page that should carry one of ``codes`` (``h_`` stands for every
    heading level): a truth line is found when a line so typed reads the same, or
    ends the same (a bill's line number may stand before it), each typed line
    finding one truth line at most.  ``predicted`` counts the page's lines so typed,
    but for those that found no truth line and read as a line of ``either`` (each
    either line excusing one)."""
    predicted, expected_count, pairs = _typed_pairs(typed, expected, codes, either)
    return TypeScore(predicted, expected_count, len(pairs))


def score_heading_levels(typed: Sequence[tuple[str, str]],
                         headings: Sequence[tuple[int, str]], either: Sequence[str] = ()
                         ) -> tuple[TypeScore, TypeScore]:
    """Heading lines of one page: ``typed`` is the (code, text) of every line of the
    output page, ``headings`` the truth's (level, text).  The first score matches the
    lines typed ``h_*`` with the headings whatever their level (as
    `score_typed_lines`, ``either`` lines too); the second counts as hits only
    the matched lines given the truth's level, so that its ``hits`` over the first's
    is the level agreement."""
    predicted, expected, pairs = _typed_pairs(typed, [text for _, text in headings], ["h_"],
                                              either)
    agreed = sum(1 for k, j in pairs if typed[k][0] == f"h_{headings[j][0]}")
    return (TypeScore(predicted, expected, len(pairs)),
            TypeScore(predicted, expected, agreed))


def score_list_items(typed: Sequence[tuple[str, str]], items: Sequence[str],
                     either: Sequence[str] = ()) -> TypeScore:
    """List items of one page (their first lines) against the lines typed ``lb`` or
    ``ln``; continuation lines are typed with their item, so only the recall means
    something (unless ``typed`` holds only the lines that open an item).  A line in
    ``either`` counts neither way."""
    return score_typed_lines(typed, items, LIST_CODES, either)
