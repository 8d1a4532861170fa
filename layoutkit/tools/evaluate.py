"""Reading-order metrics: how well an extracted page text follows a hand-labelled truth.

Every comparison is made on *reduced* text (see :func:`reduce`): Unicode NFKC, case-folded,
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
:data:`MIN_LINE_CHARS` characters and occurs exactly once in the reduced truth page (the
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

Truth files (``regions/<pdf-stem>/page-<NNN>.json``) are read with :func:`load_truth`;
page scores are combined with :func:`combine`.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

__all__ = [
    "MIN_FURNITURE_CHARS",
    "MIN_LINE_CHARS",
    "Exclusion",
    "LineTypeTruth",
    "PageScore",
    "PageTruth",
    "TypeScore",
    "combine",
    "count_occurrences",
    "load_linetype_truth",
    "load_truth",
    "reduce",
    "score_furniture",
    "score_heading_lines",
    "score_headings",
    "score_list_items",
    "score_page",
    "score_truth",
    "score_typed_lines",
    "scored_lines",
    "truth_files",
]

MIN_LINE_CHARS = 12
"""Reduced length below which a truth line is too likely to match elsewhere to be scored."""

MIN_FURNITURE_CHARS = 4
"""Reduced length below which a furniture line (a bare page number) is not checked for leaks."""

_PAGE_FILE = re.compile(r"page-(\d{3,})\.json")


def reduce(text: str) -> str:
    """Return ``text`` reduced to its letters and digits, for layout-blind comparison.

    The text is NFKC-normalised (so the ligature "ﬁ" becomes "fi", full-width and
    superscript digits become plain digits), case-folded, and every character for which
    ``str.isalnum()`` is false (spaces, line breaks, punctuation, hyphens, soft hyphens)
    is dropped.  A word hyphenated across two lines therefore reduces to the same string
    whether or not an extractor re-joins it.
    """
    folded = unicodedata.normalize("NFKC", text).casefold()
    return "".join(ch for ch in folded if ch.isalnum())


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

    A line is kept when its reduced text has at least :data:`MIN_LINE_CHARS` characters
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
    keeps it out of :func:`combine`.  ``paragraphs_found`` is ``None`` when the truth
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


def score_page(
    output_text: str,
    truth_lines: Sequence[str],
    furniture: Sequence[str] = (),
    paragraphs: Sequence[str] | None = None,
) -> PageScore:
    """Return the :class:`PageScore` of one page's body output text against its truth.

    ``truth_lines`` are the page's body lines in reading order, ``furniture`` its header
    and footer lines, ``paragraphs`` (synthetic truth only) its body paragraphs.  The
    output is compared after :func:`reduce`, so its line breaks and spacing do not matter.
    """
    output = reduce(output_text)
    kept = scored_lines(truth_lines)
    counts = {line: count_occurrences(line, output) for line in kept}
    placed = sorted((output.find(line), line) for line in kept if counts[line] == 1)
    successor = {a: b for (_, a), (_, b) in pairwise(placed)}
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
    # A share times its denominator gives back the integer count it was computed from.
    if with_paragraphs:
        whole = sum(round((s.paragraphs_found or 0.0) * s.paragraphs) for s in with_paragraphs)
        paragraphs_found = _share(whole, paragraphs, 1.0)
    return PageScore(
        found=_share(sum(round(s.found * s.lines) for s in pages), lines, 1.0),
        order=_share(sum(round(s.order * s.pairs) for s in pages), pairs, 1.0),
        leak=_share(sum(round(s.leak * s.furniture) for s in pages), furniture, 0.0),
        lines=lines,
        pairs=pairs,
        furniture=furniture,
        paragraphs_found=paragraphs_found,
        paragraphs=paragraphs,
    )


@dataclass(frozen=True)
class Exclusion:
    """A part of a labelled page left out of the truth lines (``what``) and the reason (``why``)."""

    what: str
    why: str


@dataclass(frozen=True)
class PageTruth:
    """The hand-labelled truth of one PDF page, as read from ``regions/<stem>/page-<NNN>.json``.

    ``page`` is 1-based; ``lines`` are the body lines in reading order; ``furniture`` the
    running header and footer lines; ``excluded`` what was deliberately not labelled;
    ``checked`` how the labeller verified the page ("TODO" while unverified); ``path`` the
    truth file itself.
    """

    document: str
    page: int
    lines: tuple[str, ...]
    furniture: tuple[str, ...]
    excluded: tuple[Exclusion, ...]
    checked: str
    path: Path


_REQUIRED_KEYS = ("document", "page", "checked", "lines", "furniture", "excluded")
_OPTIONAL_KEYS = ("conventions",)


def _strings(path: Path, key: str, value: object) -> tuple[str, ...]:
    """Return ``value`` as a tuple of strings; raise ``ValueError`` naming ``path`` and ``key``."""
    if not isinstance(value, list):
        raise ValueError(f"{path}: key {key!r} must be a list of strings")
    for index, item in enumerate(value):
        if not isinstance(item, str):
            raise ValueError(f"{path}: key '{key}[{index}]' must be a string")
    return tuple(value)


def _exclusions(path: Path, value: object) -> tuple[Exclusion, ...]:
    """Return ``value`` as exclusions, or raise ``ValueError`` naming ``path`` and the bad key."""
    if not isinstance(value, list):
        raise ValueError(f"{path}: key 'excluded' must be a list of {{'what', 'why'}} objects")
    exclusions = []
    for index, item in enumerate(value):
        key = f"excluded[{index}]"
        if not isinstance(item, dict) or set(item) != {"what", "why"}:
            raise ValueError(f"{path}: key '{key}' must be an object with keys 'what' and 'why'")
        for field in ("what", "why"):
            if not isinstance(item[field], str):
                raise ValueError(f"{path}: key '{key}.{field}' must be a string")
        exclusions.append(Exclusion(what=item["what"], why=item["why"]))
    return tuple(exclusions)


def _check_keys(path: Path, data: Mapping[str, object]) -> None:
    """Raise ``ValueError`` naming ``path`` and the key if a key is missing or unknown."""
    for key in _REQUIRED_KEYS:
        if key not in data:
            raise ValueError(f"{path}: missing key {key!r}")
    for key in data:
        if key not in _REQUIRED_KEYS and key not in _OPTIONAL_KEYS:
            raise ValueError(f"{path}: unknown key {key!r}")
    for key in ("document", "checked"):
        if not isinstance(data[key], str):
            raise ValueError(f"{path}: key {key!r} must be a string")
    conventions = data.get("conventions")
    if conventions is not None and not isinstance(conventions, str):
        raise ValueError(f"{path}: key 'conventions' must be a string")


def _json_object(path: Path) -> dict[str, Any]:
    """The JSON object in ``path``; raises ``ValueError`` naming the file otherwise."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise ValueError(f"{path}: not valid JSON ({error})") from error
    if not isinstance(data, dict):
        raise ValueError(f"{path}: must hold a JSON object, not {type(data).__name__}")
    return data


def load_truth(path: Path) -> PageTruth:
    """Return the :class:`PageTruth` stored in the truth file ``path``.

    Raises ``ValueError`` with a message naming the file and the offending key when the
    file is not a JSON object, a key is missing, unknown or of the wrong type, the
    ``document`` does not match the folder (``regions/<pdf-stem>/``) or the ``page`` does
    not match the file name (``page-<NNN>.json``).
    """
    data = _json_object(path)
    _check_keys(path, data)
    document: str = data["document"]
    if Path(document).stem != path.parent.name:
        raise ValueError(
            f"{path}: key 'document' is {document!r}, but the folder is {path.parent.name!r}"
        )
    page = data["page"]
    if not isinstance(page, int) or isinstance(page, bool) or page < 1:
        raise ValueError(f"{path}: key 'page' must be a positive integer")
    named = _PAGE_FILE.fullmatch(path.name)
    if named is None or int(named.group(1)) != page:
        raise ValueError(f"{path}: key 'page' is {page}, but the file name says otherwise")
    return PageTruth(
        document=document,
        page=page,
        lines=_strings(path, "lines", data["lines"]),
        furniture=_strings(path, "furniture", data["furniture"]),
        excluded=_exclusions(path, data["excluded"]),
        checked=data["checked"],
        path=path,
    )


def truth_files(root: Path) -> list[Path]:
    """Return the truth files under ``root`` (``<root>/<pdf-stem>/page-<NNN>.json``), sorted.

    Sorting is by document folder, then page number, so reports list pages the same way
    on every machine.
    """

    def key(path: Path) -> tuple[str, int]:
        named = _PAGE_FILE.fullmatch(path.name)
        return path.parent.name, int(named.group(1)) if named else 0

    return sorted((p for p in root.glob("*/page-*.json") if _PAGE_FILE.fullmatch(p.name)), key=key)


def score_truth(output_text: str, truth: PageTruth) -> PageScore:
    """Return :func:`score_page` of a page's body ``output_text`` against its :class:`PageTruth`."""
    return score_page(output_text, truth.lines, truth.furniture)


# --------------------------------------------------------------------------- line types
#
# Line types are scored per type on reduced line texts: a truth line is found when a
# line of the output with the same reduced text carries the type.  Lines are matched as
# multisets, so a header printed twice must be typed twice.

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

    def __add__(self, other: TypeScore) -> TypeScore:
        return TypeScore(self.predicted + other.predicted, self.expected + other.expected,
                         self.hits + other.hits)


def _matched(predicted: Iterable[str], expected: Iterable[str]) -> TypeScore:
    """The score of ``predicted`` against ``expected`` texts, matched reduced, as multisets."""
    mine = Counter(t for t in map(reduce, predicted) if t)
    truth = Counter(t for t in map(reduce, expected) if t)
    return TypeScore(mine.total(), truth.total(), (mine & truth).total())


def score_furniture(typed: Sequence[tuple[str, str]], furniture: Sequence[str]) -> TypeScore:
    """Running headers and footers of one page: ``typed`` is the (code, text) of every
    line of the output page, ``furniture`` the truth's furniture lines."""
    return _matched((text for code, text in typed if code in FURNITURE_CODES), furniture)


def score_headings(outline: Sequence[tuple[int, str]],
                   entries: Sequence[tuple[int, str]]) -> TypeScore:
    """Headings of a document: the (level, text) of the system's headings against the
    truth's; a heading is found only with its level."""
    return _matched((f"{level} {text}" for level, text in outline),
                    (f"{level} {text}" for level, text in entries))


def score_heading_lines(outline: Sequence[tuple[int, str]],
                        entries: Sequence[tuple[int, str]]) -> tuple[TypeScore, TypeScore]:
    """Heading lines of labelled pages: the (level, text) of the lines the system
    typed headings against the truth's, matched as multisets of texts, first
    whatever their level, then only with it (the second's ``hits`` over the
    first's is the share of found headings given the right level)."""
    return (_matched((text for _, text in outline), (text for _, text in entries)),
            score_headings(outline, entries))


def score_typed_lines(typed: Sequence[tuple[str, str]], expected: Sequence[str],
                      codes: Iterable[str]) -> TypeScore:
    """Lines of one page that should carry one of ``codes`` (``h_`` stands for every
    heading level): a truth line is found when a line so typed reads the same, or
    ends the same (a bill's line number may stand before it).  ``predicted`` counts
    the page's lines so typed."""
    wanted = tuple(codes)
    chosen = [reduce(text) for code, text in typed
              if code in wanted or (code.startswith("h_") and "h_" in wanted)]
    hits = sum(1 for line in expected if any(mine.endswith(reduce(line)) for mine in chosen))
    return TypeScore(len(chosen), len(expected), hits)


def score_list_items(typed: Sequence[tuple[str, str]], items: Sequence[str]) -> TypeScore:
    """List items of one page (their first lines) against the lines typed ``lb`` or
    ``ln``; continuation lines are typed with their item, so only the recall means
    something."""
    return score_typed_lines(typed, items, LIST_CODES)


@dataclass(frozen=True)
class LineTypeTruth:
    """Hand-labelled line types of a document (``regions/<stem>/linetypes.json``):
    ``headings`` as (level, text) in document order, the 1-based ``toc_pages``, per
    page the first lines of its ``list_items``, per labelled page its heading
    lines as (level, text) (``page_headings``, for documents labelled page by page),
    and per page the lines of the contents entries standing on it among other text
    (``toc_lines``)."""

    document: str
    headings: tuple[tuple[int, str], ...]
    toc_pages: tuple[int, ...]
    list_items: Mapping[int, tuple[str, ...]]
    page_headings: Mapping[int, tuple[tuple[int, str], ...]]
    toc_lines: Mapping[int, tuple[str, ...]]
    checked: str
    path: Path


_LINETYPE_KEYS = {"document", "checked", "conventions", "headings", "tocPages", "listItems",
                  "pageHeadings", "tocLines"}


def load_linetype_truth(path: Path) -> LineTypeTruth:
    """The :class:`LineTypeTruth` of the truth file ``path``.

    Raises ``ValueError`` naming the file and the key that is missing, unknown or
    malformed.
    """
    data = _json_object(path)
    unknown = set(data) - _LINETYPE_KEYS
    if unknown or not {"document", "checked"} <= set(data):
        raise ValueError(f"{path}: keys must be 'document', 'checked' and any of "
                         f"'conventions', 'headings', 'tocPages', 'listItems', 'pageHeadings', "
                         f"'tocLines'")
    headings = _headings(path, "headings", data.get("headings", []))
    pages = data.get("tocPages", [])
    if not isinstance(pages, list) or not all(isinstance(p, int) and p >= 1 for p in pages):
        raise ValueError(f"{path}: key 'tocPages' must be a list of page numbers")
    items, entries = data.get("listItems", {}), data.get("tocLines", {})
    for key, value in (("listItems", items), ("tocLines", entries)):
        if not isinstance(value, dict) or not all(k.isdigit() for k in value):
            raise ValueError(f"{path}: key '{key}' must map page numbers to lists of lines")
    by_page = data.get("pageHeadings", {})
    if not isinstance(by_page, dict) or not all(k.isdigit() for k in by_page):
        raise ValueError(f"{path}: key 'pageHeadings' must map page numbers to lists of "
                         f"[level, text] pairs")
    return LineTypeTruth(
        document=data["document"],
        headings=headings,
        toc_pages=tuple(pages),
        list_items={int(k): _strings(path, f"listItems.{k}", v) for k, v in items.items()},
        page_headings={int(k): _headings(path, f"pageHeadings.{k}", v)
                       for k, v in by_page.items()},
        toc_lines={int(k): _strings(path, f"tocLines.{k}", v) for k, v in entries.items()},
        checked=data["checked"],
        path=path,
    )


def _headings(path: Path, key: str, value: object) -> tuple[tuple[int, str], ...]:
    """``value`` as (level, text) pairs; ``ValueError`` naming ``key`` if it is not a
    list of [level, text] pairs."""
    if not isinstance(value, list) or not all(
            isinstance(h, list) and len(h) == 2 and isinstance(h[0], int) and h[0] >= 1
            and isinstance(h[1], str) for h in value):
        raise ValueError(f"{path}: key '{key}' must be a list of [level, text] pairs")
    return tuple((level, text) for level, text in value)
